/* The coverage_quads hook's contract check (src/vm/vm_stage_frag_quads.c): the plain loop
 * and, where the CPU has them, the AVX2 and AVX-512 kernels give the same offender bits for every
 * input, and their first offender is the contract's, written out here from its words in
 * include/texvm/vm.h: quads aligned to even pixels, among the box's quads, in row order
 * (rows top to bottom, each left to right, no quad twice). Inputs: hand-made sequences
 * with known answers, and random ones near and far from boxes inside a target of the
 * largest size, with duplicates, odd
 * pixels, rows out of order and extreme coordinates; every count from 0 to 16. */
#include <limits.h>
#include <stdlib.h>

#include "helper_vm.h"
#include "vm/vm_stage_frag_quads.h"
#include "vm/vm_stage_frag_store.h"
#include "common_rng.h"

/* The first quad that breaks the contract, or -1 */
static int first_offender(const int32_t box[4], const int32_t *qx, const int32_t *qy, int n)
{
    for (int i = 0; i < n; i++) {
        const int64_t x = qx[i], y = qy[i];
        bool ok = (x % 2 == 0) && (y % 2 == 0) && x >= (box[0] & ~1) && x < box[2] &&
                  y >= (box[1] & ~1) && y < box[3];
        if (i == 0)
            ok = ok && y >= 0;
        else
            ok = ok && (y > qy[i - 1] || (y == qy[i - 1] && x > qx[i - 1]));
        if (!ok)
            return i;
    }
    return -1;
}

static void check(const int32_t box[4], const int32_t *qx_n, const int32_t *qy_n, int n, int want)
{
    /* the arrays the engine passes: TV_VM_COVERAGE_QUADS_MAX entries, those past N
       anything (here values that would offend) */
    int32_t qx[TV_VM_COVERAGE_QUADS_MAX], qy[TV_VM_COVERAGE_QUADS_MAX];
    for (int i = 0; i < TV_VM_COVERAGE_QUADS_MAX; i++) {
        qx[i] = i < n ? qx_n[i] : -7;
        qy[i] = i < n ? qy_n[i] : 3;
    }
    const uint32_t c = vm_frag_quads_bad(box, qx, qy, n, VM_STORE_SSE2);
    const int first = c ? __builtin_ctz(c) : -1;
    if (first != want)
        fail_msg("plain loop: first offender %d, expected %d (n %d)", first, want, n);
    static const unsigned isas[2] = {VM_STORE_AVX2, VM_STORE_AVX512};
    static const char *const names[2] = {"avx2", "avx512"};
    for (unsigned k = 0; k < 2; k++) {
        if (vm_frag_store_isa() < isas[k])
            continue;
        const uint32_t v = vm_frag_quads_bad(box, qx, qy, n, isas[k]);
        if (v != c)
            fail_msg("%s bits %04x, plain loop %04x (n %d)", names[k], v, c, n);
    }
}

static void test_known_sequences(void **state)
{
    (void)state;
    const int32_t box[4] = {5, 9, 13, 16};   /* quads x 4..12, y 8..14 */
    static const struct {
        int n;
        int32_t x[6], y[6];
        int want;
    } cases[] = {
        {0, {0}, {0}, -1},
        {1, {4}, {8}, -1},
        {6, {4, 6, 12, 4, 10, 12}, {8, 8, 8, 10, 14, 14}, -1},
        {2, {4, 4}, {8, 8}, 1},             /* the same quad twice */
        {2, {6, 4}, {8, 8}, 1},             /* right to left */
        {2, {4, 4}, {10, 8}, 1},            /* a row up */
        {2, {4, 5}, {8, 10}, 1},            /* odd column */
        {1, {4}, {9}, 0},                   /* odd row */
        {1, {2}, {8}, 0},                   /* left of the box's quads */
        {1, {14}, {8}, 0},                  /* at box[2] */
        {1, {4}, {6}, 0},                   /* above */
        {1, {4}, {16}, 0},                  /* at box[3] */
        {3, {4, 6, 8}, {8, 8, 16}, 2},
        {2, {12, 4}, {8, 10}, -1},          /* a row down, any column */
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        assert_int_equal(first_offender(box, cases[k].x, cases[k].y, cases[k].n), cases[k].want);
        check(box, cases[k].x, cases[k].y, cases[k].n, cases[k].want);
    }
}

static int32_t coordinate(uint32_t *s, int32_t lo, int32_t hi)
{
    static const int32_t far[] = {INT32_MIN, INT32_MAX, -1, -2, 65535, 65536, 65537, -65536,
                                  0x10000 + 4, 0x7fff0000};
    uint32_t r = tc_rng_next(s);
    if (r % 13 == 0)
        return far[(r >> 8) % (sizeof far / sizeof far[0])];
    return lo - 3 + (int32_t)(tc_rng_next(s) % (uint32_t)(hi - lo + 6));
}

static void test_random_sequences(void **state)
{
    (void)state;
    uint32_t seed = 0x2545f491u;
    unsigned offended = 0, clean = 0;
    for (unsigned t = 0; t < 200000; t++) {
        int32_t box[4];
        /* the engine's boxes lie in the target: 0 to 65536 (tv_vm_frag_params' limit) */
        box[0] = (int32_t)(tc_rng_next(&seed) % 64) + (t % 7 == 0 ? 65536 - 80 : 0);
        box[1] = (int32_t)(tc_rng_next(&seed) % 64) + (t % 11 == 0 ? 65536 - 80 : 0);
        box[2] = box[0] + 1 + (int32_t)(tc_rng_next(&seed) % 9);
        box[3] = box[1] + 1 + (int32_t)(tc_rng_next(&seed) % 9);
        const int n = (int)(tc_rng_next(&seed) % 17);
        int32_t qx[16], qy[16];
        /* mostly a valid walk of the box's quads, broken at a random point by a random
           quad, sometimes random throughout */
        const bool walk = tc_rng_next(&seed) % 4 != 0;
        int32_t x = box[0] & ~1, y = box[1] & ~1;
        const int brk = (int)(tc_rng_next(&seed) % 24);
        for (int i = 0; i < n; i++) {
            if (walk && i != brk) {
                qx[i] = x;
                qy[i] = y;
                x += 2 * (1 + (int32_t)(tc_rng_next(&seed) % 2));
                if (x >= box[2]) {
                    x = box[0] & ~1;
                    y += 2;
                }
            } else {
                qx[i] = coordinate(&seed, box[0], box[2]);
                qy[i] = coordinate(&seed, box[1], box[3]);
                if (tc_rng_next(&seed) % 3 == 0 && i > 0) {
                    /* (wrapping: the previous quad may be at an extreme) */
                    qx[i] = (int32_t)((uint32_t)qx[i - 1] + 2u * (tc_rng_next(&seed) % 3) - 2u);
                    qy[i] = (int32_t)((uint32_t)qy[i - 1] + 2u * (tc_rng_next(&seed) % 2));
                }
            }
        }
        const int want = first_offender(box, qx, qy, n);
        if (want < 0)
            clean++;
        else
            offended++;
        check(box, qx, qy, n, want);
    }
    /* both kinds of sequence were seen in numbers */
    assert_true(offended > 50000 && clean > 50000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_sequences),
        cmocka_unit_test(test_random_sequences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
