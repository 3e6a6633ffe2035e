/* The band masks' sixteen-at-once rows (draw_tri_rows16, src/pipe/pipe_draw_tri.c) against
 * draw_tri_rows triangle by triangle, bit for bit: random clip positions with NaNs,
 * infinities, zeros of both signs, subnormal and huge values and vertices behind the eye
 * (w <= 0: the clip rectangle's rows), random viewports (window rows beyond 1e9 and
 * within it), random clip rectangles (negative, empty, the extremes of int32 but
 * INT32_MIN as the bottom), two instances, and both kinds of list: an implicit one
 * (vertices 3 p .. 3 p + 2) and a written one with shuffled vertices and a vertex stride
 * of 8 words. Counts the lanes of each kind, so a generator that stops making one fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/cpu_isa.h"
#include "pipe/pipe_draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common_rng.h"

enum { TRIS = 64, INSTANCES = 2 };

static float random_coordinate(uint32_t *r, bool w)
{
    static const float special[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f,
                                    1e-40f, -3e38f, 3e38f, 0.1f, 1e-30f};
    const uint32_t v = tc_rng_next(r);
    if (v % 13 == 0)
        return special[(v >> 8) % 12];
    float f = (float)((int32_t)(v >> 8) % 40000) / 997.0f;
    return w && v % 7 != 1 ? fabsf(f) + 0.01f : f;   /* w: in front of the eye, mostly */
}

static void test_rows16_is_per_triangle(void **state)
{
    (void)state;
#if defined(__GNUC__) && defined(__x86_64__)
    if (!TV_CPU_HAS("avx512f")) {   /* (the machine: the kernel is compiled in) */
        skip();
        return;
    }
    uint32_t r = 0x2545f491u;
    draw_state *d = calloc(1, sizeof *d);
    const uint32_t slots = 3 * TRIS;
    uint32_t *pos = calloc((size_t)slots * INSTANCES * 8, sizeof *pos);
    draw_tri *tris = calloc(TRIS, sizeof *tris);
    assert_true(d && pos && tris);
    unsigned known = 0, unknown = 0, empty = 0, clamped = 0, lanes = 0;
    for (unsigned round = 0; round < 3000; round++) {
        const bool written = round % 2 != 0;
        d->pos_out = 2;
        d->out[2] = pos;
        d->out_step[2] = written ? 8 : 4;
        d->slots = slots;
        d->instances = INSTANCES;
        for (size_t i = 0; i < (size_t)slots * INSTANCES * d->out_step[2]; i++) {
            const float f = random_coordinate(&r, i % d->out_step[2] == 3);
            memcpy(&pos[i], &f, sizeof f);
        }
        for (unsigned k = 0; k < 3; k++) {
            d->vp.scale[k] = (float)((int32_t)(tc_rng_next(&r) >> 8) % 5000) / 7.0f;
            d->vp.translate[k] = (float)((int32_t)(tc_rng_next(&r) >> 8) % 5000) / 3.0f;
        }
        if (round % 9 == 0)
            d->vp.scale[1] = 3e30f;   /* window rows past 1e9: the clip rectangle's */
        static const int32_t edges[] = {INT32_MIN + 1, -5000, -1, 0, 1, 700, 4096, INT32_MAX};
        for (unsigned k = 0; k < 4; k++)
            d->tri_clip[k] = round % 5 == 0 ? edges[tc_rng_next(&r) % 8]
                                            : (int32_t)(tc_rng_next(&r) % 3000) - 500;
        draw_assembly a;
        memset(&a, 0, sizeof a);
        a.ntris = TRIS;
        if (written) {
            for (unsigned t = 0; t < TRIS; t++) {
                memset(&tris[t], 0, sizeof tris[t]);
                tris[t].n = 3;
                for (unsigned k = 0; k < 3; k++)
                    tris[t].v[k] = tc_rng_next(&r) % slots;
                tris[t].id = t;
            }
            a.tris = tris;
        } else {
            a.list_k = 3;
            a.list_mul = 3;
            a.list_add = 2;
        }
        for (uint32_t inst = 0; inst < INSTANCES; inst++)
            for (size_t t0 = 0; t0 + 16 <= TRIS; t0 += 16) {
                int32_t lo[16], hi[16];
                draw_tri_rows16(d, inst, &a, t0, lo, hi);
                for (unsigned l = 0; l < 16; l++) {
                    draw_tri tmp;
                    int32_t want[2];
                    draw_tri_rows(d, inst, draw_assembly_prim(&a, t0 + l, &tmp), want);
                    if (lo[l] != want[0] || hi[l] != want[1])
                        fail_msg("round %u, instance %u, triangle %zu: rows %d..%d, "
                                 "draw_tri_rows gives %d..%d", round, inst, t0 + l, lo[l],
                                 hi[l], want[0], want[1]);
                    lanes++;
                    const bool whole = want[0] == d->tri_clip[1] &&
                                       (int64_t)want[1] == (int64_t)d->tri_clip[3] - 1;
                    known += !whole;
                    unknown += whole;
                    empty += want[0] > want[1];
                    clamped += !whole && (want[0] == d->tri_clip[1] ||
                                          (int64_t)want[1] == (int64_t)d->tri_clip[3] - 1);
                }
            }
    }
    assert_true(lanes == 3000u * INSTANCES * TRIS && known > lanes / 4 && unknown > lanes / 10 &&
                empty > lanes / 10 && clamped > 1000);
    free(tris);
    free(pos);
    free(d);
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows16_is_per_triangle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
