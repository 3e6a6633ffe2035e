/* The vectorised warp kernel's copy for the request that needs no level of detail
 * (src/tex/fast/tex_warp_vec.c, vec_free_shape: values only, mip NONE with the linear
 * filter both ways, every component filtered, a pitch view, no projection, offsets,
 * layers or LOD operand — the pipeline's draws of a texture without mipmaps, whose packed
 * pixels ask with TV_TEXF_NO_DERIV). Requests of that shape (with derivatives or without,
 * with a LOD clamp and bias the level of detail does not need) and requests that differ
 * from it in one property each (the extras wanted, mip LINEAR, a point filter one way or
 * both, a swizzle with a constant component, a block-linear view, a 2D array, offsets,
 * projection, SAMPLE_LOD, SAMPLE_LZ, SAMPLE_BIAS) run on minified and magnified affine
 * maps, full and partial warps. Every result word must equal the general path's
 * (fp_check_warp), and the copy must answer exactly the requests of the shape that the
 * kernel takes, on each wide variant the CPU has (tex_warp_vec_free_copy_count); the
 * baseline has no such copy. */
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

#define NTEX 4
#define NSMP 5

/* 0, 1: pitch 2D (the shape's); 2: block-linear; 3: a pitch 2D array */
static const fp_tex textures[NTEX] = {
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 128, 32, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 32, 32, TV_TIC_PITCH, TV_TEX_2D_ARRAY, 0, -1, 0},
};
/* header NTEX + t: texture t with alpha read as the constant 1 (texture 0 or 1) */
#define HDR_CONST_ALPHA NTEX

/* samplers: 0 the shape's (mip NONE, linear both ways); 1 magnification POINT; 2 point
 * both ways (no level of detail needed either, but not the linear filter); 3 mip LINEAR;
 * 4 the shape's with a bias and a LOD range */
static void setup(fp *F)
{
    fp_setup(F, 0x85ebca6bu, textures, NTEX, NSMP - 1);
    for (unsigned t = 0; t < 2; t++) {
        uint32_t raw[8];
        tv_tic tic;
        assert_true(tv_memory_read(F->mem, FP_BASE + 32 * t, raw, 32));
        tv_tic_decode(raw, &tic);
        tic.source[3] = TV_TIC_SOURCE_ONE_FLOAT;
        tv_tic_encode(&tic, raw);
        tv_memory_write(F->mem, FP_BASE + 32 * (HDR_CONST_ALPHA + t), raw, 32);
    }
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        memset(&ts, 0, sizeof ts);
        ts.address_u = TV_WRAP_REPEAT;
        ts.address_v = s & 1 ? TV_WRAP_CLAMP_TO_EDGE : TV_WRAP_REPEAT;
        ts.address_p = TV_WRAP_REPEAT;
        ts.mag_filter = s == 1 || s == 2 ? TV_MAG_POINT : TV_MAG_LINEAR;
        ts.min_filter = s == 2 ? TV_MIN_POINT : TV_MIN_LINEAR;
        ts.mip_filter = s == 3 ? TV_MIP_LINEAR : TV_MIP_NONE;
        ts.max_lod_clamp = s == 4 ? 0x240 : 0xfff;
        ts.min_lod_clamp = s == 4 ? 0x40 : 0;
        ts.mip_lod_bias = s == 4 ? -0x60 : 0;
        fp_put_sampler(F, s, &ts);
    }
}

/* the property a request changes from the shape (the first three have it) */
enum { V_SHAPE, V_SHAPE_NO_DERIV, V_SHAPE_BIASED, V_EXTRAS, V_MIP_LINEAR, V_MAG_POINT,
       V_BOTH_POINT, V_CONST_ALPHA, V_BLOCKLINEAR, V_ARRAY, V_OFFSETS, V_PROJ, V_LOD_OP,
       V_LZ_OP, V_BIAS_OP, V_COUNT };

/* an affine map over the warp's 2x4 quads, 0.4 to 6 texels a pixel (λ below 0 to 2.6) */
static void fill(fp *F, tv_tex_request *r, unsigned v)
{
    memset(r, 0, sizeof *r);
    unsigned tex = v == V_BLOCKLINEAR ? 2 : v == V_ARRAY ? 3 : fp_rnd(F) % 2;
    unsigned hdr = v == V_CONST_ALPHA ? HDR_CONST_ALPHA + tex : tex;
    unsigned smp = v == V_MAG_POINT      ? 1
                   : v == V_BOTH_POINT   ? 2
                   : v == V_MIP_LINEAR   ? 3
                   : v == V_SHAPE_BIASED ? 4
                                         : 0;
    r->op = v == V_BIAS_OP  ? TV_TEX_OP_SAMPLE_BIAS
            : v == V_LOD_OP ? TV_TEX_OP_SAMPLE_LOD
            : v == V_LZ_OP  ? TV_TEX_OP_SAMPLE_LZ
                            : TV_TEX_OP_SAMPLE;
    r->target = (uint8_t)(v == V_ARRAY ? TV_TEXTGT_2D_ARRAY : TV_TEXTGT_2D);
    r->active = fp_rnd(F) % 4 ? ~0u : fp_rnd(F) | 1u;
    r->flags = v == V_EXTRAS ? 0 : TV_TEXF_VALUES_ONLY;
    if (v == V_SHAPE_NO_DERIV)
        r->flags |= TV_TEXF_NO_DERIV;
    if (v == V_OFFSETS)
        r->flags |= TV_TEXF_OFFSETS;
    if (v == V_PROJ)
        r->flags |= TV_TEXF_PROJECTIVE;
    const fp_tex *T = &textures[tex];
    float k = fp_frnd(F, 0.4f, 6.0f);
    float dsx = k / (float)T->w, dty = k * fp_frnd(F, 0.8f, 1.25f) / (float)T->h;
    float dtx = fp_rnd(F) % 3 == 0 ? dty * fp_frnd(F, -0.3f, 0.3f) : 0.0f;
    float s0 = fp_frnd(F, -1.5f, 2.5f), t0 = fp_frnd(F, -1.5f, 2.5f);
    float q = v == V_PROJ ? fp_frnd(F, 0.5f, 2.0f) : 1.0f;
    uint32_t handle = tv_tex_handle(hdr, smp);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = handle;
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        r->q[l] = q;
        r->coord[0][l] = (s0 + (float)x * dsx) * q;
        r->coord[1][l] = (t0 + (float)y * dty + (float)x * dtx) * q;
        r->coord[3][l] = (float)(fp_rnd(F) % 3);
        r->lod[l] = v == V_BIAS_OP || v == V_LOD_OP ? fp_frnd(F, -1.0f, 2.0f) : 0.0f;
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 8) - 4);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 8) - 4);
    }
}

/* the wide variant vec_run picks at this cap: 0 none (the baseline) */
static bool wide_variant(unsigned cap)
{
    return cap >= 1 && strcmp(tv_tex_vector_kernel(), "generic") != 0;
}

static void run(unsigned isa)
{
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, isa);
    static tv_tex_request r;
    const bool wide = wide_variant(isa);
    unsigned taken = 0, by_copy = 0, shape_taken = 0, n = 0;
    for (unsigned i = 0; i < 150; i++)
        for (unsigned v = 0; v < V_COUNT; v++, n++) {
            fill(&F, &r, v);
            uint64_t vec0 = tex_warp_vec_count(), free0 = tex_warp_vec_free_copy_count();
            fp_check_warp(&F, &r, &taken);
            uint64_t vec = tex_warp_vec_count() - vec0,
                     fc = tex_warp_vec_free_copy_count() - free0;
            bool shape = v == V_SHAPE || v == V_SHAPE_NO_DERIV || v == V_SHAPE_BIASED;
            /* the copy answers a request iff the kernel takes it and it has the shape */
            assert_int_equal(fc, wide && shape ? vec : 0);
            by_copy += (unsigned)fc;
            shape_taken += shape ? (unsigned)vec : 0u;
        }
    print_message("isa cap %u: %u of %u taken by the warp path, %u by the free copy "
                  "(%u of the shape by the kernel)\n", isa, taken, n, by_copy, shape_taken);
    assert_true(shape_taken * 3 >= 2 * 150 * 3); /* the shape is mostly the kernel's */
    if (wide)
        assert_int_equal(by_copy, shape_taken);
    fp_teardown(&F);
}

FP_VARIANT_MAIN(run)
