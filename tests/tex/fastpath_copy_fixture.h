/* What the tests of the warp kernel's copies share (test_fastpath_warp_common.c, the copy
 * for the common request; test_fastpath_warp_free.c, the copy for the request without a
 * level of detail; src/tex/fast/tex_warp_vec.c): their textures, a request on an affine
 * map of a warp's 2x4 quads, and the check that a copy answers exactly the requests of
 * its shape that the kernel takes, each result word the general path's. Header-only: each
 * test defines its samplers and the variants of its requests. */
#ifndef TEXVM_TEST_FASTPATH_COPY_FIXTURE_H
#define TEXVM_TEST_FASTPATH_COPY_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/fast/tex_warp.h"

#define FPC_NTEX 4
/* 0, 1: pitch 2D (the shapes'); 2: block-linear; 3: a pitch 2D array */
static const fp_tex fpc_textures[FPC_NTEX] = {
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 128, 32, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 32, 32, TV_TIC_PITCH, TV_TEX_2D_ARRAY, 0, -1, 0},
};
/* header FPC_NTEX + t: texture t with alpha read as the constant 1 (texture 0 or 1) */
#define FPC_HDR_CONST_ALPHA FPC_NTEX

/* fp_setup with the textures (samplers 0 .. NSMP - 1, which the test puts), and the two
 * constant-alpha headers */
static inline void fpc_setup(fp *F, uint32_t seed, unsigned nsmp)
{
    fp_setup(F, seed, fpc_textures, FPC_NTEX, nsmp - 1);
    for (unsigned t = 0; t < 2; t++) {
        uint32_t raw[8];
        tv_tic tic;
        assert_true(tv_memory_read(F->mem, FP_BASE + 32 * t, raw, 32));
        tv_tic_decode(raw, &tic);
        tic.source[3] = TV_TIC_SOURCE_ONE_FLOAT;
        tv_tic_encode(&tic, raw);
        tv_memory_write(F->mem, FP_BASE + 32 * (FPC_HDR_CONST_ALPHA + t), raw, 32);
    }
}

/* Sampler S: REPEAT (v CLAMP_TO_EDGE where S is odd), the filters MAG, MIN and MIP
 * (TV_MAG_*, TV_MIN_*, TV_MIP_*), and where BIASED a bias and a LOD range */
static inline void fpc_sampler(fp *F, unsigned s, unsigned mag, unsigned min, unsigned mip,
                               bool biased)
{
    tv_tsc ts;
    memset(&ts, 0, sizeof ts);
    ts.address_u = TV_WRAP_REPEAT;
    ts.address_v = s & 1 ? TV_WRAP_CLAMP_TO_EDGE : TV_WRAP_REPEAT;
    ts.address_p = TV_WRAP_REPEAT;
    ts.mag_filter = (uint8_t)mag;
    ts.min_filter = (uint8_t)min;
    ts.mip_filter = (uint8_t)mip;
    ts.max_lod_clamp = biased ? 0x240 : 0xfff;
    ts.min_lod_clamp = biased ? 0x40 : 0;
    ts.mip_lod_bias = biased ? -0x60 : 0;
    fp_put_sampler(F, s, &ts);
}

/* A request's properties (the shape's: zero but smp, op and flags as the test says) */
typedef struct fpc_kind {
    bool shape;          /* of the copy's shape */
    unsigned texture;    /* 0: texture 0 or 1 at random; 2: block-linear; 3: the array */
    bool const_alpha;    /* through the constant-alpha header */
    unsigned smp;        /* the sampler */
    unsigned op;         /* TV_TEX_OP_* */
    uint32_t flags;      /* TV_TEXF_* */
    float lod_hi;        /* r->lod in [-1, lod_hi) (the bias or LOD operand); 0: 0 */
} fpc_kind;

/* an affine map over the warp's 2x4 quads, 0.4 to 6 texels a pixel (λ below 0 to 2.6),
 * of kind K; full warps and, one in four, partial ones */
static inline void fpc_fill(fp *F, tv_tex_request *r, const fpc_kind *k)
{
    memset(r, 0, sizeof *r);
    unsigned tex = k->texture ? k->texture : fp_rnd(F) % 2;
    unsigned hdr = k->const_alpha ? FPC_HDR_CONST_ALPHA + tex : tex;
    r->op = (uint8_t)k->op;
    r->target = (uint8_t)(tex == 3 ? TV_TEXTGT_2D_ARRAY : TV_TEXTGT_2D);
    r->active = fp_rnd(F) % 4 ? ~0u : fp_rnd(F) | 1u;
    r->flags = k->flags;
    const fp_tex *T = &fpc_textures[tex];
    float s = fp_frnd(F, 0.4f, 6.0f);
    float dsx = s / (float)T->w, dty = s * fp_frnd(F, 0.8f, 1.25f) / (float)T->h;
    float dtx = fp_rnd(F) % 3 == 0 ? dty * fp_frnd(F, -0.3f, 0.3f) : 0.0f;
    float s0 = fp_frnd(F, -1.5f, 2.5f), t0 = fp_frnd(F, -1.5f, 2.5f);
    float q = k->flags & TV_TEXF_PROJECTIVE ? fp_frnd(F, 0.5f, 2.0f) : 1.0f;
    uint32_t handle = tv_tex_handle(hdr, k->smp);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = handle;
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        r->q[l] = q;
        r->coord[0][l] = (s0 + (float)x * dsx) * q;
        r->coord[1][l] = (t0 + (float)y * dty + (float)x * dtx) * q;
        r->coord[3][l] = (float)(fp_rnd(F) % 3);
        r->lod[l] = k->lod_hi != 0.0f ? fp_frnd(F, -1.0f, k->lod_hi) : 0.0f;
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 8) - 4);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 8) - 4);
    }
}

/* 150 requests of each of the NK kinds, each checked against the general path
 * (fp_check_warp); the copy (COUNT: its requests, NAME in the message) must answer a
 * request iff the kernel takes it and it has the shape, on a wide variant (at cap ISA;
 * the baseline has no copy), and the kernel must take two thirds of the shape's at least */
static inline void fpc_run(fp *F, unsigned isa, const fpc_kind *kinds, unsigned nk,
                           uint64_t (*count)(void), const char *name)
{
    tex_set_vector_isa_cap(F->unit, isa);
    static tv_tex_request r;
    const bool wide = isa >= 1 && strcmp(tv_tex_vector_kernel(), "generic") != 0;
    unsigned taken = 0, by_copy = 0, shape_taken = 0, shapes = 0, n = 0;
    for (unsigned i = 0; i < 150; i++)
        for (unsigned v = 0; v < nk; v++, n++) {
            fpc_fill(F, &r, &kinds[v]);
            uint64_t vec0 = tex_warp_vec_count(), c0 = count();
            fp_check_warp(F, &r, &taken);
            uint64_t vec = tex_warp_vec_count() - vec0, c = count() - c0;
            assert_int_equal(c, wide && kinds[v].shape ? vec : 0);
            by_copy += (unsigned)c;
            shape_taken += kinds[v].shape ? (unsigned)vec : 0u;
            shapes += kinds[v].shape;
        }
    print_message("isa cap %u: %u of %u taken by the warp path, %u by the %s copy "
                  "(%u of the shape by the kernel)\n", isa, taken, n, by_copy, name,
                  shape_taken);
    assert_true(shape_taken * 3 >= 2 * shapes); /* the shape is mostly the kernel's */
    if (wide)
        assert_int_equal(by_copy, shape_taken);
}

#endif
