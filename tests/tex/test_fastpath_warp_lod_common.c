/* The vectorised warp kernel's copy of the level selection for the common trilinear
 * request (src/tex/fast/tex_warp_vec.c, lod_pass with `common`: TV_TEXF_VALUES_ONLY, a SAMPLE
 * with derivatives and the sampler's bias, mip LINEAR, reference precision). Its values
 * must be bit-identical to the general path's. Requests minify (steps of 0.3 to 12 texels
 * per pixel, so λ from below 0 to above the last level) on mipmapped textures, with
 * sampler biases of both signs, sampler LOD clamps (including ones that cut λ and a max
 * of 0), per-lane LOD clamps, a NaN lane, full and partial warps, anisotropic steps; the
 * other mip modes and ops run alongside as the other copies. Every
 * instruction-set variant of the kernel the CPU has. */
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
#define NSMP 24

static const fp_tex textures[NTEX] = {
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 128, 32, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 32, 64, TV_TIC_PITCH, TV_TEX_2D, 1, 4, 0},
};

/* sampler biases (1/256 units): none, fractions of both signs, whole levels */
static const int16_t biases[6] = {0, 0x40, -0x60, 0x100, -0x100, 0x01};

/* Samplers 0..15: mip LINEAR (the common copy where the rest holds); 16..23 the other
 * modes. Filters alternate; clamps: none, a max of 0 (every lane's λ cut to 0), a max
 * inside the chain, a min above 0. */
static void setup(fp *F)
{
    fp_setup(F, 0x7f4a7c15u, textures, NTEX, 63);
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        memset(&ts, 0, sizeof ts);
        ts.address_u = TV_WRAP_REPEAT;
        ts.address_v = (s & 1) ? TV_WRAP_CLAMP_TO_EDGE : TV_WRAP_REPEAT;
        ts.address_p = TV_WRAP_REPEAT;
        ts.mag_filter = (s / 2) % 2 ? TV_MAG_POINT : TV_MAG_LINEAR;
        ts.min_filter = (s / 4) % 2 ? TV_MIN_POINT : TV_MIN_LINEAR;
        ts.mip_filter = s < 16 ? TV_MIP_LINEAR : (s & 1) ? TV_MIP_POINT : TV_MIP_NONE;
        ts.max_lod_clamp = (s % 5 == 3) ? 0 : (s % 5 == 4) ? 0x1c0 : 0xfff;
        ts.min_lod_clamp = (s % 7 == 6) ? 0x80 : 0;
        ts.mip_lod_bias = biases[s % 6];
        fp_put_sampler(F, s, &ts);
    }
}

static void fill(fp *F, tv_tex_request *r, unsigned tex, unsigned smp, unsigned op,
                 bool full)
{
    memset(r, 0, sizeof *r);
    const fp_tex *T = &textures[tex];
    r->op = (uint8_t)op;
    r->target = TV_TEXTGT_2D;
    r->active = ~0u;
    if (!full) {
        r->active = fp_rnd(F) | 1u;
        r->present = (fp_rnd(F) & 1) ? ~0u : r->active;
    }
    r->flags = TV_TEXF_VALUES_ONLY;
    uint32_t handle = tv_tex_handle(tex, smp);
    /* texels per pixel: λ ≈ log2(k) from -1.7 to 3.6 (past the textures' last levels) */
    float kx = fp_frnd(F, 0.3f, 12.0f);
    float ky = (fp_rnd(F) % 3 == 0) ? fp_frnd(F, 0.3f, 12.0f) : kx;
    float dsx = kx / (float)T->w, dty = ky / (float)T->h;
    float dsy = (fp_rnd(F) % 3 == 0) ? dsx * fp_frnd(F, -0.5f, 0.5f) : 0.0f;
    /* a per-pixel drift: the lanes' footprints differ (the kernel's per-lane way) */
    float drift = (fp_rnd(F) & 1) ? dsx * fp_frnd(F, 0.0f, 0.05f) : 0.0f;
    float s0 = fp_frnd(F, -1.5f, 2.5f), t0 = fp_frnd(F, -1.5f, 2.5f);
    float clamp = (fp_rnd(F) % 6 == 0) ? fp_frnd(F, -0.5f, 2.0f) : -INFINITY;
    float bias = fp_frnd(F, -1.5f, 1.5f), lod = fp_frnd(F, -1.0f, 4.0f);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = (r->active >> l) & 1u ? handle : (uint32_t)fp_rnd(F);
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        float fx = (float)x;
        r->coord[0][l] = s0 + fx * dsx + fx * fx * drift + (float)y * dsy;
        r->coord[1][l] = t0 + (float)y * dty + fx * drift;
        r->q[l] = 1.0f;
        r->lod[l] = op == TV_TEX_OP_SAMPLE_LOD ? lod : bias;
        r->lod_clamp[l] = clamp;
    }
    if (fp_rnd(F) % 8 == 0) { /* one lane's coordinate NaN or far off */
        unsigned l = fp_rnd(F) % 32;
        r->coord[0][l] = (fp_rnd(F) & 1) ? NAN : r->coord[0][l] + 40.0f * dsx;
    }
    if (fp_rnd(F) % 8 == 0) /* one lane's clamp above the others' */
        r->lod_clamp[fp_rnd(F) % 32] = fp_frnd(F, 0.0f, 3.0f);
}

/* fp_check_warp (values-only requests: the values and the invalid mask of the active
 * lanes, inactive lanes unwritten); *common counts the requests of the common copy's kind
 * that the kernel took without the magnification shortcut */
static void check(fp *F, const tv_tex_request *r, bool is_common, unsigned *taken,
                  unsigned *common)
{
    uint64_t vec0 = tex_warp_vec_count(), mag0 = tex_warp_vec_mag_count();
    unsigned t0 = *taken;
    fp_check_warp(F, r, taken);
    if (*taken != t0 && is_common && tex_warp_vec_count() - vec0 == 1 &&
        tex_warp_vec_mag_count() == mag0)
        (*common)++;
}

static void random_requests(unsigned isa)
{
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE,
                                   TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS,
                                   TV_TEX_OP_SAMPLE_LOD};
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, isa);
    static tv_tex_request r;
    unsigned taken = 0, common = 0, n = 5000;
    for (unsigned i = 0; i < n; i++) {
        unsigned tex = fp_rnd(&F) % NTEX, smp = fp_rnd(&F) % NSMP, op = ops[i % 6];
        fill(&F, &r, tex, smp, op, fp_rnd(&F) % 4 != 0);
        bool is_common = op == TV_TEX_OP_SAMPLE && smp < 16;
        check(&F, &r, is_common, &taken, &common);
    }
    print_message("isa cap %u: %u of %u taken by the warp path, %u by the "
                  "common level selection\n", isa, taken, n, common);
    assert_true(taken * 10 >= n * 8);
    assert_true(common * 4 >= n); /* about 4/6 × 2/3 of the requests, less magnified */
    fp_teardown(&F);
}

FP_VARIANT_MAIN(random_requests)
