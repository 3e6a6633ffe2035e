/* tv_memory: mapping, overlap refusal, bounds of host pointers, reads and writes across
 * mappings and gaps (zeros / dropped), the fault counter. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "texvm/tex.h"

static void map_and_overlap(void **state)
{
    (void)state;
    tv_memory *m = tv_memory_create();
    uint8_t a[64], b[64], c[64];
    tv_error err;
    assert_int_equal(tv_memory_map(m, 0x1000, a, sizeof a, &err), TV_OK);
    assert_int_equal(tv_memory_map(m, 0x1040, b, sizeof b, &err), TV_OK);   /* adjacent */
    assert_int_equal(tv_memory_map(m, 0x1020, c, 16, &err), TV_ERR_ARG);    /* inside a */
    assert_int_equal(tv_memory_map(m, 0x0ff0, c, 0x20, &err), TV_ERR_ARG);  /* straddles */
    assert_int_equal(tv_memory_map(m, 0x0fc0, c, 0x40, &err), TV_OK);       /* just below */
    assert_int_equal(tv_memory_map(m, 0x2000, c, 0, &err), TV_ERR_ARG);     /* empty */
    assert_int_equal(tv_memory_map(m, UINT64_MAX - 8, c, 64, &err), TV_ERR_ARG); /* wraps */
    assert_int_equal(tv_memory_unmap(m, 0x1001), TV_ERR_ARG);
    assert_int_equal(tv_memory_unmap(m, 0x0fc0), TV_OK);
    assert_int_equal(tv_memory_map(m, 0x0fe0, c, 0x20, &err), TV_OK);
    tv_memory_destroy(m);
}

static void host_bounds(void **state)
{
    (void)state;
    tv_memory *m = tv_memory_create();
    uint8_t a[64], b[64];
    assert_int_equal(tv_memory_map(m, 0x1000, a, sizeof a, NULL), TV_OK);
    assert_int_equal(tv_memory_map(m, 0x1040, b, sizeof b, NULL), TV_OK);
    assert_ptr_equal(tv_memory_host(m, 0x1000, 64), a);
    assert_ptr_equal(tv_memory_host(m, 0x103f, 1), a + 63);
    assert_null(tv_memory_host(m, 0x1030, 32));       /* spans two mappings */
    assert_null(tv_memory_host(m, 0x0fff, 2));        /* starts before */
    assert_null(tv_memory_host(m, 0x1040, 65));       /* past the end */
    assert_ptr_equal(tv_memory_host(m, 0x1040, 64), b);
    assert_null(tv_memory_host(m, 0x5000, 1));
    assert_null(tv_memory_host(m, UINT64_MAX, 2));
    tv_memory_destroy(m);
}

static void read_write_gaps(void **state)
{
    (void)state;
    tv_memory *m = tv_memory_create();
    uint8_t a[16], b[16];
    memset(a, 0xaa, sizeof a);
    memset(b, 0xbb, sizeof b);
    tv_memory_map(m, 100, a, 16, NULL);
    tv_memory_map(m, 124, b, 16, NULL);
    uint8_t buf[48];
    memset(buf, 0x77, sizeof buf);
    assert_int_equal(tv_memory_fault_count(m), 0);
    assert_false(tv_memory_read(m, 96, buf, 48));     /* 96..143: gap, a, gap, b, gap */
    assert_int_equal(tv_memory_fault_count(m), 1);
    for (int i = 0; i < 48; i++) {
        uint64_t addr = 96 + (uint64_t)i;
        uint8_t want = addr >= 100 && addr < 116 ? 0xaa : addr >= 124 && addr < 140 ? 0xbb : 0;
        assert_int_equal(buf[i], want);
    }
    assert_true(tv_memory_read(m, 100, buf, 16));
    assert_int_equal(tv_memory_fault_count(m), 1);
    uint8_t w[40];
    for (int i = 0; i < 40; i++)
        w[i] = (uint8_t)i;
    assert_false(tv_memory_write(m, 98, w, 40));     /* 98..137 */
    for (int i = 0; i < 16; i++)
        assert_int_equal(a[i], (uint8_t)(i + 2));
    for (int i = 0; i < 14; i++)
        assert_int_equal(b[i], (uint8_t)(i + 26));
    assert_int_equal(b[14], 0xbb);
    assert_true(tv_memory_write(m, 124, w, 16));
    assert_int_equal(b[15], 15);
    tv_memory_clear_faults(m);
    assert_int_equal(tv_memory_fault_count(m), 0);
    /* the top of the address space: no wrap-around */
    assert_false(tv_memory_read(m, UINT64_MAX - 3, buf, 8));
    for (int i = 0; i < 8; i++)
        assert_int_equal(buf[i], 0);
    /* unmapped memory object edge cases */
    assert_false(tv_memory_read(NULL, 0, buf, 4));
    tv_memory_destroy(m);
}

static void many_mappings(void **state)
{
    (void)state;
    tv_memory *m = tv_memory_create();
    static uint8_t bufs[100][8];
    /* insert in a shuffled order, then read each back through its address */
    for (int k = 0; k < 100; k++) {
        int i = (k * 37) % 100;
        memset(bufs[i], i, 8);
        assert_int_equal(tv_memory_map(m, 0x10000 + (uint64_t)i * 16, bufs[i], 8, NULL), TV_OK);
    }
    for (int i = 0; i < 100; i++) {
        uint8_t v[8];
        assert_true(tv_memory_read(m, 0x10000 + (uint64_t)i * 16, v, 8));
        assert_int_equal(v[7], i);
        assert_false(tv_memory_read(m, 0x10000 + (uint64_t)i * 16 + 4, v, 8));
        assert_int_equal(v[3], i);
        assert_int_equal(v[4], 0);
    }
    tv_memory_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(map_and_overlap),
        cmocka_unit_test(host_bounds),
        cmocka_unit_test(read_write_gaps),
        cmocka_unit_test(many_mappings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
