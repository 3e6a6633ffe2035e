/* Generated textures (docs/jobs-resources.md §2) against the formulas, evaluated by hand
 * or by an independent Python evaluation of the documented hash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helper_cli.h"

#include <math.h>
#include <string.h>

static void hash_values(void **state)
{
    (void)state;
    /* Python: the §2 hash with 32-bit wrap-around */
    assert_int_equal(job_hash(0, 0, 0, 0, 0), 0x0u);
    assert_int_equal(job_hash(1, 0, 0, 0, 0), 0x205f0435u);
    assert_int_equal(job_hash(7, 3, 5, 0, 2), 0xcf44a770u);
    assert_int_equal(job_hash(42, 100, 200, 17, 3), 0x69514508u);
}

static job_pattern pat(int kind)
{
    job_pattern p;
    memset(&p, 0, sizeof p);
    p.kind = kind;
    return p;
}

static void close4(const double got[4], double a, double b, double c, double d)
{
    const double want[4] = {a, b, c, d};
    for (int k = 0; k < 4; k++)
        if (fabs(got[k] - want[k]) > 1e-12)
            fail_msg("component %d: got %.17g, want %.17g", k, got[k], want[k]);
}

static void checker(void **state)
{
    (void)state;
    job_pattern p = pat(JOB_PAT_CHECKER);
    p.cell = 4;
    p.num_colors = 2;
    double black[4] = {0, 0, 0, 1}, white[4] = {1, 1, 1, 1};
    memcpy(p.colors[0], black, sizeof black);
    memcpy(p.colors[1], white, sizeof white);
    double v[4];
    job_pattern_eval(&p, 3, 3, 0, 1, 0, 16, 16, v); /* cell (0,0) */
    close4(v, 0, 0, 0, 1);
    job_pattern_eval(&p, 4, 3, 0, 1, 0, 16, 16, v); /* cell (1,0) */
    close4(v, 1, 1, 1, 1);
    job_pattern_eval(&p, 4, 4, 0, 1, 0, 16, 16, v); /* cell (1,1) */
    close4(v, 0, 0, 0, 1);
    job_pattern_eval(&p, 3, 3, 1, 2, 0, 16, 16, v); /* layer 1 flips */
    close4(v, 1, 1, 1, 1);
    job_pattern_eval(&p, 2, 0, 0, 1, 1, 8, 8, v);   /* level 1: cell 2 -> cell (1,0) */
    close4(v, 1, 1, 1, 1);
    job_pattern_eval(&p, 1, 0, 0, 1, 5, 1, 1, v);   /* cell never below 1 */
    close4(v, 1, 1, 1, 1);
}

static void gradient_uv(void **state)
{
    (void)state;
    job_pattern p = pat(JOB_PAT_GRADIENT);
    double from[4] = {0, 0, 0, 1}, to[4] = {1, 0.5, 0, 0};
    memcpy(p.colors[0], from, sizeof from);
    memcpy(p.colors[1], to, sizeof to);
    double v[4];
    job_pattern_eval(&p, 0, 0, 0, 1, 0, 4, 4, v); /* u = 0.125 */
    close4(v, 0.125, 0.0625, 0, 0.875);
    p.direction = JOB_GRAD_Y;
    job_pattern_eval(&p, 0, 3, 0, 1, 0, 4, 4, v); /* v = 0.875 */
    close4(v, 0.875, 0.4375, 0, 0.125);
    p.direction = JOB_GRAD_DIAGONAL;
    job_pattern_eval(&p, 1, 2, 0, 1, 0, 4, 4, v); /* (0.375 + 0.625) / 2 */
    close4(v, 0.5, 0.25, 0, 0.5);
    p.direction = JOB_GRAD_RADIAL;
    job_pattern_eval(&p, 3, 1, 0, 1, 0, 4, 4, v); /* u=.875 v=.375: 2*sqrt(.140625+.015625) */
    double t = 2 * sqrt(0.15625);
    close4(v, t, 0.5 * t, 0, 1 - t);
    job_pattern_eval(&p, 0, 0, 0, 1, 0, 8, 8, v); /* corner: clamped to 1 */
    close4(v, 1, 0.5, 0, 0);
    job_pattern p2 = pat(JOB_PAT_UV);
    job_pattern_eval(&p2, 1, 0, 2, 5, 0, 2, 4, v);
    close4(v, 0.75, 0.125, 0.5, 1);
}

static void noise_levels_layers_bricks(void **state)
{
    (void)state;
    job_pattern p = pat(JOB_PAT_NOISE);
    p.seed = 7;
    p.min = 0.25;
    p.max = 0.75;
    double v[4];
    job_pattern_eval(&p, 3, 5, 0, 1, 0, 8, 8, v);
    close4(v, 0.7232135873055086, 0.5643085923511535, 0.25 + 0.5 * 0xcf44a770u / 4294967296.0,
           1);
    p.gray = true;
    job_pattern_eval(&p, 3, 5, 0, 1, 0, 8, 8, v);
    close4(v, 0.7232135873055086, 0.7232135873055086, 0.7232135873055086, 1);

    job_pattern l = pat(JOB_PAT_LEVELS);
    l.num_colors = 3;
    double c[3][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
    memcpy(l.colors, c, sizeof c);
    job_pattern_eval(&l, 0, 0, 0, 1, 4, 1, 1, v); /* level 4 -> colour 1 */
    close4(v, 0, 1, 0, 1);
    l.kind = JOB_PAT_LAYERS;
    job_pattern_eval(&l, 0, 0, 5, 6, 0, 1, 1, v); /* layer 5 -> colour 2 */
    close4(v, 0, 0, 1, 1);

    job_pattern b = pat(JOB_PAT_BRICKS);
    b.brick[0] = 8;
    b.brick[1] = 4;
    b.mortar = 1;
    double bc[2][4] = {{0.5, 0, 0, 1}, {0.9, 0.9, 0.9, 1}};
    memcpy(b.colors, bc, sizeof bc);
    job_pattern_eval(&b, 3, 2, 0, 1, 0, 32, 32, v); /* inside a brick */
    close4(v, 0.5, 0, 0, 1);
    job_pattern_eval(&b, 3, 4, 0, 1, 0, 32, 32, v); /* y % 4 == 0: mortar row */
    close4(v, 0.9, 0.9, 0.9, 1);
    job_pattern_eval(&b, 4, 5, 0, 1, 0, 32, 32, v); /* odd row shifted by 4: x' = 8 */
    close4(v, 0.9, 0.9, 0.9, 1);
    job_pattern_eval(&b, 0, 1, 0, 1, 0, 32, 32, v); /* even row: x' = 0 */
    close4(v, 0.9, 0.9, 0.9, 1);
}

static void pattern_textures(void **state)
{
    (void)state;
    /* a checker of 2x2 cells in an RGBA8 texture with a generated chain */
    job *j = tcli_load_ok(
        "{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}], 'frag': {'size': [1, 1]},"
        " 'textures': [{'format': 'R8G8B8A8_UNORM', 'width': 4, 'height': 4,"
        "  'mipmaps': 'generate', 'source': {'pattern': 'checker', 'cell': 2,"
        "  'colors': [[1, 0, 0.2, 1], [0.2, 0, 1, 0.2]]}},"
        "  {'format': 'R8G8B8A8_UINT', 'width': 2, 'height': 1,"
        "  'source': {'pattern': 'gradient', 'from': [0, 0, 0, 0], 'to': [1, 1, 1, 1]}},"
        "  {'format': 'R8G8B8A8_SRGB', 'width': 1, 'height': 1,"
        "  'source': {'pattern': 'fill', 'color': [0.5, 0.5, 0.5, 0.5]}}]}");
    const job_texture *t = &j->textures[0];
    assert_int_equal(t->levels, 3);
    const uint8_t *d = t->data;
    /* colours store as (255, 0, 51, 255) and (51, 0, 255, 51); texel (2,0) is cell (1,0) */
    assert_int_equal(d[8], 51);
    assert_int_equal(d[10], 255);
    assert_int_equal(d[11], 51);
    assert_int_equal(d[0], 255);
    assert_int_equal(d[2], 51);
    /* level 1 texel (0,0) = the 2x2 cell (0,0): colour 0 */
    const uint8_t *l1 = t->data + t->level_offset[1];
    assert_int_equal(l1[0], 255);
    assert_int_equal(l1[2], 51);
    assert_int_equal(l1[3], 255);
    /* level 2: two cells of each colour: (1 + 0.2) / 2 = 0.6 -> 153 in r, b, a */
    const uint8_t *l2 = t->data + t->level_offset[2];
    assert_int_equal(l2[0], 153);
    assert_int_equal(l2[1], 0);
    assert_int_equal(l2[2], 153);
    assert_int_equal(l2[3], 153);
    /* UINT: gradient u = 0.25, 0.75 -> value*255 rounded = 64 (63.75), 191 (191.25) */
    const uint8_t *g = j->textures[1].data;
    assert_int_equal(g[0], 64);
    assert_int_equal(g[4], 191);
    /* sRGB: linear 0.5 encodes to 0.7354 -> 188; alpha stays linear: 128 */
    const uint8_t *s = j->textures[2].data;
    assert_int_equal(s[0], 188);
    assert_int_equal(s[3], 128);
    tv_job_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hash_values),
        cmocka_unit_test(checker),
        cmocka_unit_test(gradient_uv),
        cmocka_unit_test(noise_levels_layers_bricks),
        cmocka_unit_test(pattern_textures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
