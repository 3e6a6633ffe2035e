/* util/handle_map: random insertions, lookups and removals against a plain array model,
 * with keys chosen to collide (a small key range, probe runs that wrap around the table's
 * end), and the growth and walk. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/handle_map.h"
#include "common_rng.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t next_rand(void)
{
    return (uint32_t)(tc_rng_next64(&rng) >> 16);
}

/* the model: present[k] for keys 0..range-1, each key's value the address of vals[k] */
static void random_ops(uint32_t range, unsigned ops)
{
    tv_handle_map m;
    memset(&m, 0, sizeof m);
    bool *present = calloc(range, sizeof *present);
    char *vals = calloc(range, 1);
    assert_non_null(present);
    assert_non_null(vals);
    size_t count = 0;
    for (unsigned i = 0; i < ops; i++) {
        uint32_t k = next_rand() % range;
        unsigned op = next_rand() % 3;
        if (op == 0 && !present[k]) {
            assert_int_equal(tv_handle_map_put(&m, k, &vals[k]), 0);
            present[k] = true;
            count++;
        } else if (op == 1) {
            void *got = tv_handle_map_remove(&m, k);
            assert_ptr_equal(got, present[k] ? (void *)&vals[k] : NULL);
            count -= present[k];
            present[k] = false;
        }
        assert_int_equal(m.count, count);
        assert_true(2 * m.count <= m.cap || m.cap == 0);
        /* every key of the range, present or not, looks up as the model says */
        if (i % 64 == 0 || range <= 64)
            for (uint32_t q = 0; q < range; q++)
                assert_ptr_equal(tv_handle_map_find(&m, q), present[q] ? (void *)&vals[q] : NULL);
    }
    /* the walk sees each present value once */
    size_t seen = 0;
    for (size_t i = 0; i < m.cap; i++) {
        char *v = tv_handle_map_slot(&m, i);
        if (!v)
            continue;
        size_t k = (size_t)(v - vals);
        assert_true(k < range && present[k]);
        seen++;
    }
    assert_int_equal(seen, count);
    tv_handle_map_free(&m);
    assert_null(tv_handle_map_find(&m, 1));
    free(present);
    free(vals);
}

static void small_range_collides(void **state)
{
    (void)state;
    random_ops(24, 20000);     /* a table of 16..64 slots, full runs and wrap-around */
}

static void large_range(void **state)
{
    (void)state;
    random_ops(5000, 200000);
}

/* Keys 0 and UINT32_MAX are ordinary keys; 100000 consecutive handles stay O(1) each. */
static void extremes_and_many(void **state)
{
    (void)state;
    tv_handle_map m;
    memset(&m, 0, sizeof m);
    int a, b;
    assert_null(tv_handle_map_find(&m, 0));
    assert_null(tv_handle_map_remove(&m, 7));
    assert_int_equal(tv_handle_map_put(&m, 0, &a), 0);
    assert_int_equal(tv_handle_map_put(&m, UINT32_MAX, &b), 0);
    assert_ptr_equal(tv_handle_map_find(&m, 0), &a);
    assert_ptr_equal(tv_handle_map_find(&m, UINT32_MAX), &b);
    for (uint32_t k = 1; k <= 100000; k++)
        assert_int_equal(tv_handle_map_put(&m, k, &a), 0);
    assert_int_equal(m.count, 100002);
    for (uint32_t k = 1; k <= 100000; k += 2)
        assert_ptr_equal(tv_handle_map_remove(&m, k), &a);
    for (uint32_t k = 1; k <= 100000; k++)
        assert_ptr_equal(tv_handle_map_find(&m, k), (k & 1) ? NULL : (void *)&a);
    assert_ptr_equal(tv_handle_map_find(&m, UINT32_MAX), &b);
    tv_handle_map_free(&m);
}

/* Handles a client picks to collide: 2048 keys that shared a home slot at every table
 * size under the fixed Fibonacci hash the maps used before their seed (the product's high
 * word equal in its low 16 bits), found by search as an attacker would. Under the seeded
 * hash they spread: a lookup visits a couple of slots on average (the table is at most
 * half full), where the fixed hash made it walk about half of them (1024). */
static void chosen_collisions_spread(void **state)
{
    (void)state;
    enum { N = 2048 };
    uint32_t *keys = malloc(N * sizeof *keys);
    assert_non_null(keys);
    unsigned n = 0;
    for (uint64_t k = 1; n < N && k < (1ull << 32); k++)
        if ((((uint32_t)k * 0x9E3779B97F4A7C15ull) >> 32 & 0xffffu) == 0x1234u)
            keys[n++] = (uint32_t)k;
    assert_int_equal(n, N);
    tv_handle_map m;
    memset(&m, 0, sizeof m);
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(tv_handle_map_put(&m, keys[i], &keys[i]), 0);
    size_t probes = 0;
    for (unsigned i = 0; i < N; i++) {
        assert_ptr_equal(tv_handle_map_find(&m, keys[i]), &keys[i]);
        probes += tv_handle_map_probes(&m, keys[i]);
    }
    if (probes > 4u * N)
        fail_msg("%zu slots visited for %u lookups", probes, N);
    tv_handle_map_free(&m);
    free(keys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_range_collides),
        cmocka_unit_test(large_range),
        cmocka_unit_test(extremes_and_many),
        cmocka_unit_test(chosen_collisions_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
