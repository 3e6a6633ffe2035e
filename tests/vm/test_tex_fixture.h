/* Shared set-up of the texture-opcode tests (test_tex*.c): textures and samplers in a
 * texture-unit fixture (../tex/sample_fixture.h, texel values from fx_val), a 4x4 fragment
 * run with IN[0] = uv of the pixel centre. Header-only (static functions). */
#ifndef TEXVM_TESTS_VM_TEST_TEX_FIXTURE_H
#define TEXVM_TESTS_VM_TEST_TEX_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"
#include "../tex/sample_fixture.h"

#define W 4
#define H 4

/* Textures (header index) and samplers (sampler index). */
enum { T2D = 0, TCONST = 1, TDEPTH = 2, TARR = 3, TCUBE = 4, TCUBEARR = 5, TDCUBEARR = 6,
       TMS = 7 };
enum { SPOINT = 0, SLIN = 1, SCMP = 2, SMIP = 3 };

static inline void setup(fx *F)
{
    fx_init(F);
    tv_tic t;
    fx_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 4, 4, 1, 3);
    fx_put_tic(F, T2D, &t);
    fx_fill_formula(F, T2D);
    fx_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 4, 4, 1, 1);
    fx_put_tic(F, TCONST, &t);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            fx_write_float(F, TCONST, 0, x, y, 0, 9.0f, 8.0f, 7.0f, 6.0f);
    fx_tic(&t, TV_FORMAT_Z32_FLOAT, TV_TEX_2D, 2, 2, 1, 1);
    fx_put_tic(F, TDEPTH, &t);
    const float depth[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    for (unsigned i = 0; i < 4; i++)
        fx_write_float(F, TDEPTH, 0, i & 1u, i >> 1, 0, depth[i], 0, 0, 1);
    fx_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D_ARRAY, 2, 2, 4, 1);
    fx_put_tic(F, TARR, &t);
    fx_fill_formula(F, TARR);
    fx_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_CUBE, 2, 2, 1, 1);
    fx_put_tic(F, TCUBE, &t);
    fx_fill_formula(F, TCUBE);
    fx_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_CUBE_ARRAY, 2, 2, 3, 1);
    fx_put_tic(F, TCUBEARR, &t);
    fx_fill_formula(F, TCUBEARR);
    /* depth cube array, 1 cube of 2x2: face f texel (x,y) = (f*4 + y*2 + x + 1) / 32 */
    fx_tic(&t, TV_FORMAT_Z32_FLOAT, TV_TEX_CUBE_ARRAY, 2, 2, 1, 1);
    fx_put_tic(F, TDCUBEARR, &t);
    for (unsigned f = 0; f < 6; f++)
        for (unsigned i = 0; i < 4; i++)
            fx_write_float(F, TDCUBEARR, 0, i & 1u, i >> 1, f, (float)(f * 4 + i + 1) / 32.0f,
                           0, 0, 1);
    /* 4x MSAA 2x2: sample s of pixel (x,y) = (x + 2y + 10 s, s, 0, 1) */
    fx_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 2, 2, 1, 1);
    t.multi_sample_count = 2;
    fx_put_tic(F, TMS, &t);
    for (unsigned smp = 0; smp < 4; smp++)
        for (unsigned i = 0; i < 4; i++) {
            uint32_t v[4] = {fx_u((float)((i & 1u) + 2 * (i >> 1) + 10 * smp)), fx_u((float)smp),
                             0, fx_u(1.0f)};
            fx_write_texel(F, TMS, 0, i & 1u, i >> 1, 0, smp, v);
        }
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(F, SPOINT, &s);
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(F, SLIN, &s);
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    s.depth_compare = true;
    s.depth_compare_func = TV_CMP_LESS;
    fx_put_tsc(F, SCMP, &s);
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_REPEAT);
    fx_put_tsc(F, SMIP, &s);
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(F, 4, &s);
    fx_put_tsc(F, 5, &s);
    fx_put_tsc(F, 7, &s);
    s.depth_compare = true;
    s.depth_compare_func = TV_CMP_LESS;
    fx_put_tsc(F, 6, &s);
}

/* Run a fragment program over a w x h rectangle, IN[0] = uv of the pixel centre
 * ((x+0.5)/w, (y+0.5)/h); out = w*h pixels x 4 words, every byte set to `fill` first. */
static inline tv_status run_wh(fx *F, const char *text, unsigned w, unsigned h, uint8_t fill,
                               uint32_t *out, tv_error *err)
{
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    assert_non_null(fp);
    tv_vm_frag_params_fullscreen(fp, w, h, TV_VM_PRIM_RECT);
    static const float uv[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    for (int v = 0; v < 4; v++) {
        fp->vertices[v].attr[0][0] = tv_f32_bits(uv[v][0]);
        fp->vertices[v].attr[0][1] = tv_f32_bits(uv[v][1]);
        fp->vertices[v].attr[0][3] = tv_f32_bits(1.0f);
    }
    memset(out, fill, sizeof(uint32_t) * w * h * 4);
    fp->color[0].data = out;
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.tex = F->unit;
    tv_status st = hv_frag_p(text, fp, &b, err);
    free(fp);
    return st;
}

/* The 4x4 rectangle, out cleared to zeros. */
static inline tv_status run(fx *F, const char *text, uint32_t out[W * H][4], tv_error *err)
{
    return run_wh(F, text, W, H, 0, &out[0][0], err);
}

static inline void run_ok(fx *F, const char *text, uint32_t out[W * H][4])
{
    tv_error err;
    tv_status st = run(F, text, out, &err);
    if (st != TV_OK)
        fail_msg("run failed: %s", err.message);
}

#define HDR "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n"

static inline void expect_f(uint32_t got, double want, const char *what, unsigned px, unsigned c)
{
    if (fabs(tv_bits_f32(got) - want) > 1e-6)
        fail_msg("%s: pixel %u comp %u = %.9g, want %.9g", what, px, c, tv_bits_f32(got), want);
}

#endif
