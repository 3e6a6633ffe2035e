/* The vectorised warp kernel's tap sums (src/tex/fast/tex_warp_vec_taps.h: byte shuffles per
 * channel position, the folded 2^-24 scaling) on swizzled views: every channel read from
 * any byte of the texel word — RGBA and BGRA orders, a channel repeated, reversed — and
 * constant components (ZERO, ONE_FLOAT, ONE_INT) mixed in, on pitch textures (the paired
 * loads: 16-byte windows per two lanes on AVX-512, 64-bit gathers where a map is rotated)
 * and block-linear ones (single words), magnified and minified, bilinear and trilinear. Random texel bytes (16k+ per texture: every byte value in every channel).
 * Every result word is compared with tv_tex_execute() with the fast paths off (the general
 * path is the reference), for each instruction-set variant of the kernel. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/tex_sampling.h"
#include "tex/fast/tex_warp.h"

#define NTEX 3
#define NSWZ 8
#define NSMP 4

static const fp_tex textures[NTEX] = {
    {"R8G8B8A8_UNORM", 128, 64, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 64, 128, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
};

/* X, Y, Z, W sources per swizzle variant */
static const uint8_t swizzles[NSWZ][4] = {
    {TV_TIC_SOURCE_R, TV_TIC_SOURCE_G, TV_TIC_SOURCE_B, TV_TIC_SOURCE_A},
    {TV_TIC_SOURCE_B, TV_TIC_SOURCE_G, TV_TIC_SOURCE_R, TV_TIC_SOURCE_A},
    {TV_TIC_SOURCE_A, TV_TIC_SOURCE_B, TV_TIC_SOURCE_G, TV_TIC_SOURCE_R},
    {TV_TIC_SOURCE_R, TV_TIC_SOURCE_R, TV_TIC_SOURCE_R, TV_TIC_SOURCE_ONE_FLOAT},
    {TV_TIC_SOURCE_ZERO, TV_TIC_SOURCE_A, TV_TIC_SOURCE_ONE_FLOAT, TV_TIC_SOURCE_G},
    {TV_TIC_SOURCE_G, TV_TIC_SOURCE_ZERO, TV_TIC_SOURCE_ZERO, TV_TIC_SOURCE_ZERO},
    {TV_TIC_SOURCE_A, TV_TIC_SOURCE_A, TV_TIC_SOURCE_B, TV_TIC_SOURCE_ONE_INT},
    {TV_TIC_SOURCE_B, TV_TIC_SOURCE_ONE_INT, TV_TIC_SOURCE_A, TV_TIC_SOURCE_B},
};


/* header NTEX + t * NSWZ + k: texture t's header with swizzle k (the fixture wrote t) */
static void setup(fp *F)
{
    fp_setup(F, 0x2545f491u, textures, NTEX, NSMP - 1);
    for (unsigned t = 0; t < NTEX; t++) {
        uint32_t raw[8];
        tv_tic tic;
        assert_true(tv_memory_read(F->mem, FP_BASE + 32 * t, raw, 32));
        tv_tic_decode(raw, &tic);
        for (unsigned k = 0; k < NSWZ; k++) {
            memcpy(tic.source, swizzles[k], 4);
            tv_tic_encode(&tic, raw);
            tv_memory_write(F->mem, FP_BASE + 32 * (NTEX + t * NSWZ + k), raw, 32);
        }
    }
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        memset(&ts, 0, sizeof ts);
        ts.address_u = s & 1 ? TV_WRAP_CLAMP_TO_EDGE : TV_WRAP_REPEAT;
        ts.address_v = s & 2 ? TV_WRAP_MIRROR : TV_WRAP_REPEAT;
        ts.address_p = TV_WRAP_REPEAT;
        ts.mag_filter = TV_MAG_LINEAR;
        ts.min_filter = TV_MIN_LINEAR;
        ts.mip_filter = s < 2 ? TV_MIP_LINEAR : TV_MIP_POINT;
        ts.max_lod_clamp = 0xfff;
        fp_put_sampler(F, s, &ts);
    }
}

/* An affine map over the warp's 2x4 quads: every lane on the same level(s). */
static void fill(fp *F, tv_tex_request *r, unsigned t, unsigned k, unsigned smp)
{
    memset(r, 0, sizeof *r);
    r->op = TV_TEX_OP_SAMPLE;
    r->target = TV_TEXTGT_2D;
    r->active = fp_rnd(F) % 4 ? ~0u : fp_rnd(F) | 1u;
    uint32_t handle = tv_tex_handle(NTEX + t * NSWZ + k, smp);
    float step = exp2f((float)(int)(fp_rnd(F) % 6) - 3.0f + fp_frnd(F, 0.1f, 0.9f));
    float dsx = step / (float)textures[t].w, dty = step / (float)textures[t].h;
    /* a third rotated: two horizontal neighbours on different texel rows (no windows) */
    float dtx = fp_rnd(F) % 3 == 0 ? dty * fp_frnd(F, 0.3f, 1.5f) : 0.0f;
    float s0 = fp_frnd(F, -1.5f, 2.5f), t0 = fp_frnd(F, -1.5f, 2.5f);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = handle;
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        r->q[l] = 1.0f;
        r->coord[0][l] = s0 + (float)x * dsx;
        r->coord[1][l] = t0 + (float)y * dty + (float)x * dtx;
    }
}

static void run(unsigned isa)
{
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, isa);
    static tv_tex_request r;
    unsigned taken = 0, n = 0;
    uint64_t before = tex_warp_vec_count(), paired0, single0, paired1, single1;
    uint64_t win0 = tex_warp_vec_window_count();
    tex_warp_vec_pair_counts(&paired0, &single0);
    for (unsigned i = 0; i < 40; i++)
        for (unsigned t = 0; t < NTEX; t++)
            for (unsigned k = 0; k < NSWZ; k++, n++) {
                fill(&F, &r, t, k, fp_rnd(&F) % NSMP);
                fp_check_warp(&F, &r, &taken);
            }
    uint64_t vec = tex_warp_vec_count() - before;
    tex_warp_vec_pair_counts(&paired1, &single1);
    uint64_t win = tex_warp_vec_window_count() - win0;
    print_message("isa cap %u: %u of %u taken, %u by the kernel (%u paired — "
                  "%u of them by windows —, %u single level slots)\n",
                  isa, taken, n, (unsigned)vec, (unsigned)(paired1 - paired0),
                  (unsigned)win, (unsigned)(single1 - single0));
    /* AVX-512 (where the CPU has it): both ways of the paired loads, the 16-byte windows
     * per two lanes and the 64-bit gathers; the other variants only gather */
    if (isa < 2)
        assert_true(win == 0);
    else if (fp_kernel_avx512())
        assert_true(win >= (paired1 - paired0) / 8 && win * 8 <= (paired1 - paired0) * 7);
    assert_true(vec * 10 >= (uint64_t)n * 8); /* the kernel answers most */
    assert_true(paired1 - paired0 >= vec / 4);  /* both ways of loading the words */
    assert_true(single1 - single0 >= vec / 4);
    fp_teardown(&F);
}

FP_VARIANT_MAIN(run)
