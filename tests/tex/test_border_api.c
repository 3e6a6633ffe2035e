/* tv_tsc_border_for_header: API border colours pre-swizzled through the header's sources
 * so that, after the swizzle, the border reads back as the API colour. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "texvm/tex.h"

enum { ZERO = 0, R = 2, G = 3, B = 4, A = 5, ONE_F = 7 };

static void set_sources(tv_tic *tic, int x, int y, int z, int w)
{
    memset(tic, 0, sizeof *tic);
    tic->source[0] = (uint8_t)x;
    tic->source[1] = (uint8_t)y;
    tic->source[2] = (uint8_t)z;
    tic->source[3] = (uint8_t)w;
}

static void identity_is_unchanged(void **state)
{
    (void)state;
    tv_tic tic;
    set_sources(&tic, R, G, B, A);
    tv_tsc tsc = {.border_color = {10, 20, 30, 40}, .srgb_border_color = {1, 2, 3}};
    tv_tsc_border_for_header(&tsc, &tic);
    assert_int_equal(tsc.border_color[0], 10);
    assert_int_equal(tsc.border_color[1], 20);
    assert_int_equal(tsc.border_color[2], 30);
    assert_int_equal(tsc.border_color[3], 40);
    assert_int_equal(tsc.srgb_border_color[0], 1);
    assert_int_equal(tsc.srgb_border_color[2], 3);
}

/* BGR swizzle (B5G6R5 as stored R5G6B5 read with X=B, Y=G, Z=R): stored R must hold the
 * API blue so that X (= stored B) ... reads API red. */
static void swapped_red_blue(void **state)
{
    (void)state;
    tv_tic tic;
    set_sources(&tic, B, G, R, ONE_F);
    tv_tsc tsc = {.border_color = {10, 20, 30, 40}, .srgb_border_color = {1, 2, 3}};
    tv_tsc_border_for_header(&tsc, &tic);
    /* final.x = stored[B] must be 10, final.z = stored[R] must be 30 */
    assert_int_equal(tsc.border_color[2], 10);
    assert_int_equal(tsc.border_color[0], 30);
    assert_int_equal(tsc.border_color[1], 20);
    assert_int_equal(tsc.border_color[3], 40); /* A not read: unchanged */
    assert_int_equal(tsc.srgb_border_color[2], 1);
    assert_int_equal(tsc.srgb_border_color[0], 3);
}

/* Luminance (X=Y=Z=R, W=ONE): stored R takes the API red (lowest reading channel). */
static void replicated_takes_lowest_channel(void **state)
{
    (void)state;
    tv_tic tic;
    set_sources(&tic, R, R, R, ONE_F);
    tv_tsc tsc = {.border_color = {10, 20, 30, 40}};
    tv_tsc_border_for_header(&tsc, &tic);
    assert_int_equal(tsc.border_color[0], 10);
}

/* Alpha-only (A8 as R8 with X=Y=Z=ZERO, W=R): stored R takes the API alpha. */
static void alpha_from_red(void **state)
{
    (void)state;
    tv_tic tic;
    set_sources(&tic, ZERO, ZERO, ZERO, R);
    tv_tsc tsc = {.border_color = {10, 20, 30, 40}};
    tv_tsc_border_for_header(&tsc, &tic);
    assert_int_equal(tsc.border_color[0], 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identity_is_unchanged),
        cmocka_unit_test(swapped_red_blue),
        cmocka_unit_test(replicated_takes_lowest_channel),
        cmocka_unit_test(alpha_from_red),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
