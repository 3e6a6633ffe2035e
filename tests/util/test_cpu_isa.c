/* util/cpu_isa.h: the features read once and kept (tv_cpu_bits) are the processor's as
 * __builtin_cpu_supports tells them at every call, each in its own bit; the kernels'
 * questions (tv_cpu_avx2, tv_cpu_avx2_fma, tv_cpu_avx512f, tv_cpu_avx512bw) answer from
 * them under the build's ceiling as from the direct queries; threads that read them first
 * at the same time get the same bits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>

#include "util/cpu_isa.h"

/* the bits as the direct queries give them, written here */
static unsigned direct_bits(void)
{
    unsigned b = TV_CPU_READ;
    if (TV_CPU_HAS("avx2"))
        b |= TV_CPU_AVX2;
    if (TV_CPU_HAS("fma"))
        b |= TV_CPU_FMA;
    if (TV_CPU_HAS("avx512f"))
        b |= TV_CPU_AVX512F;
    if (TV_CPU_HAS("avx512bw"))
        b |= TV_CPU_AVX512BW;
    return b;
}

static void bits_are_the_processors(void **state)
{
    (void)state;
    const unsigned want = direct_bits();
    assert_int_equal(tv_cpu_bits(), want);
    assert_int_equal(tv_cpu_bits(), want); /* kept: the same on the second call */
    /* one bit each, none shared */
    const unsigned all[] = {TV_CPU_READ, TV_CPU_AVX2, TV_CPU_FMA, TV_CPU_AVX512F,
                            TV_CPU_AVX512BW};
    unsigned seen = 0;
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++) {
        assert_int_equal(all[i] & (all[i] - 1u), 0);
        assert_int_equal(seen & all[i], 0);
        seen |= all[i];
    }
}

static void questions_follow_the_ceiling(void **state)
{
    (void)state;
    const bool avx2 = TV_ISA_CEILING >= 1 && TV_CPU_HAS("avx2");
    const bool avx512f = TV_ISA_CEILING >= 2 && TV_CPU_HAS("avx512f");
    assert_int_equal(tv_cpu_avx2(), avx2);
    assert_int_equal(tv_cpu_avx2_fma(), avx2 && TV_CPU_HAS("fma"));
    assert_int_equal(tv_cpu_avx512f(), avx512f);
    assert_int_equal(tv_cpu_avx512bw(), avx512f && TV_CPU_HAS("avx512bw"));
}

static void *read_bits(void *out)
{
    *(unsigned *)out = tv_cpu_bits();
    return NULL;
}

static void threads_read_the_same(void **state)
{
    (void)state;
    enum { T = 4 };
    pthread_t th[T];
    unsigned got[T];
    for (unsigned i = 0; i < T; i++)
        assert_int_equal(pthread_create(&th[i], NULL, read_bits, &got[i]), 0);
    for (unsigned i = 0; i < T; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_int_equal(got[i], direct_bits());
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threads_read_the_same),
        cmocka_unit_test(bits_are_the_processors),
        cmocka_unit_test(questions_follow_the_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
