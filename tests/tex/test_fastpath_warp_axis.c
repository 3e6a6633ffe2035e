/* The kernel's axis passes (src/tex/fast/tex_warp_vec_axis.h) against the general path: the
 * two forms slot_pass chooses per request — every lane linear (axis_pass's `uni`; on
 * AVX-512 the intrinsic form with vrndscaleps) and lanes of both filters (magnified lanes
 * POINT, minified lanes LINEAR, by a per-lane LOD on one level) — on REPEAT, MIRROR and
 * CLAMP_TO_EDGE on both axes, the reference precision, coordinates on texel centres and
 * edges and an ulp around them (x - floor(x) near 0 and 1, x = ±0), negative and far from
 * the origin, for each instruction-set variant. Every result word
 * is compared with tv_tex_execute() with the fast paths off (fp_check_warp). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/fast/tex_warp.h"

static const fp_tex textures[2] = {
    {"R8G8B8A8_UNORM", 64, 32, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 16, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
};

/* samplers 0..8: wraps (u, v) over the 9 pairs, magnification and minification LINEAR;
 * 9..17: the same wraps, magnification POINT; mip filter NONE (one level) */
static void setup(fp *F)
{
    fp_setup(F, 0x2545f491u, textures, 2, 17);
    for (unsigned s = 0; s < 18; s++) {
        tv_tsc ts;
        fp_tsc_wraps(&ts, s);
        ts.mag_filter = s < 9 ? TV_MAG_LINEAR : TV_MAG_POINT;
        ts.min_filter = TV_MIN_LINEAR;
        ts.mip_filter = TV_MIP_NONE;
        ts.max_lod_clamp = 0xfff;
        fp_put_sampler(F, s, &ts);
    }
}

/* a coordinate of texel-space position k/2 of an axis of n texels, moved by 0-2 ulps */
static float near_edge(fp *F, unsigned n)
{
    float c = (float)((int)(fp_rnd(F) % (8 * n)) - (int)(4 * n)) / (float)(2 * n);
    for (unsigned u = fp_rnd(F) % 3; u > 0; u--)
        c = nextafterf(c, (fp_rnd(F) & 1) ? 100.0f : -100.0f);
    return c;
}

static void run(unsigned isa)
{
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, isa);
    static tv_tex_request r;
    unsigned taken = 0, n = 3000;
    uint64_t before = tex_warp_vec_count();
    for (unsigned i = 0; i < n; i++) {
        unsigned tex = fp_rnd(&F) % 2, smp = fp_rnd(&F) % 18;
        unsigned w = textures[tex].w, h = textures[tex].h;
        memset(&r, 0, sizeof r);
        r.op = TV_TEX_OP_SAMPLE_LOD;
        r.target = TV_TEXTGT_2D;
        r.active = fp_rnd(&F) % 4 ? ~0u : fp_rnd(&F) | 1u;
        /* per quad: magnified (LOD -0.75) or minified on level 0 (LOD 0.4, no mips) */
        uint32_t minq = fp_rnd(&F);
        bool edges = fp_rnd(&F) & 1;
        float s0 = fp_frnd(&F, -40.0f, 40.0f), t0 = fp_frnd(&F, -40.0f, 40.0f);
        float ds = fp_frnd(&F, -0.2f, 0.2f) / (float)w, dt = fp_frnd(&F, -0.2f, 0.2f) / (float)h;
        for (unsigned l = 0; l < TV_TEX_LANES; l++) {
            unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
            r.handle[l] = tv_tex_handle(tex, smp);
            r.coord[0][l] = edges ? near_edge(&F, w) : s0 + (float)x * ds;
            r.coord[1][l] = edges ? near_edge(&F, h) : t0 + (float)y * dt;
            r.lod[l] = (minq >> (l / 4)) & 1u ? 0.4f : -0.75f;
        }
        if (fp_rnd(&F) % 8 == 0) /* the same on every lane: the all-linear form */
            for (unsigned l = 0; l < TV_TEX_LANES; l++)
                r.lod[l] = (minq & 1u) ? 0.4f : -0.75f;
        fp_check_warp(&F, &r, &taken);
    }
    uint64_t vec = tex_warp_vec_count() - before;
    print_message("isa cap %u: %u of %u by the warp path, %u by the kernel\n",
                  isa, taken, n, (unsigned)vec);
    assert_true(vec * 10 >= (uint64_t)n * 8); /* the kernel's axis passes answered them */
    fp_teardown(&F);
}

FP_VARIANT_MAIN(run)
