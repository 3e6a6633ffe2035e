/* A small triangle's box through coverage and the early depth test in one pass
 * (src/pipe/pipe_box_early.c) against the same steps written out pixel by pixel from
 * their definitions: raster_coverage for each pixel of the box, the depth plane at the
 * pixel centre in doubles, its offset, the clamp to [0, 1], om_depth_quantize (the format's
 * encoder) and om_depth_test32 on the pixel's texel, then the quads with a lane that
 * passed in row order and the passes per row of tiles. Random triangles of up to 4x4
 * quads anywhere on a target and across its edges, both fill rules, every compare
 * function, depth writes on and off, every 4-byte depth layout, stored words and plane
 * values drawn from NaNs, infinities, ties and out-of-range depths, denormals flushed and
 * not, rows a multiple of 4 bytes apart and not. The target ends at a page the process
 * may not touch and starts right after one, so a load or store outside the box's texels
 * would fault; the bytes around the texels are compared too. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "pipe/pipe_box_early.h"
#include "util/cpu_isa.h"
#include "util/fpmode.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "common_rng.h"

/* the target's rows: a multiple of 4 bytes apart, and one that is not (the kernel's
 * loads and stores are unaligned) */
enum { W = 37, H = 23, MAX_STRIDE = W * 4 + 13, MAX_BYTES = MAX_STRIDE * H };

static float uniform(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(tc_rng_next(s) >> 8) / (float)(1u << 24);
}

static const uint32_t specials[] = {0x7fc00000u, 0xffc00000u, 0x7f800000u, 0xff800000u,
                                    0x00000000u, 0x80000000u, 0x00000001u, 0x3f800000u,
                                    0x3f000000u, 0x00ffffffu, 0xffffffffu};

/* The target: H rows STRIDE bytes apart, ending at an inaccessible page, after the bytes
 * of another whole page (compared, never meant to change) that follows an inaccessible
 * one. */
typedef struct target {
    uint8_t *map, *base;
    size_t len, page, stride, bytes;
} target;

static void target_map(target *t, size_t stride)
{
    t->page = (size_t)sysconf(_SC_PAGESIZE);
    t->stride = stride;
    t->bytes = stride * H;
    const size_t body = (t->bytes + t->page - 1) / t->page * t->page + t->page;
    t->len = body + 2 * t->page;
    t->map = mmap(NULL, t->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(t->map != MAP_FAILED);
    assert_int_equal(mprotect(t->map, t->page, PROT_NONE), 0);
    assert_int_equal(mprotect(t->map + t->page + body, t->page, PROT_NONE), 0);
    t->base = t->map + t->page + body - t->bytes;
}

/* The steps from their definitions, on the reference copy REF of the target (its texel
 * (0, 0) at REF + off). */
static int reference(const raster_tri *tri, const int32_t box[4], const box_early *e,
                     uint8_t *ref, int32_t qx[16], int32_t qy[16], uint32_t cov[64],
                     uint32_t passed[3])
{
    int n = 0;
    passed[0] = passed[1] = passed[2] = 0;
    for (int32_t y = box[1] & ~1; y < box[3]; y += 2)
        for (int32_t x = box[0] & ~1; x < box[2]; x += 2) {
            uint32_t c[4], any = 0;
            for (unsigned j = 0; j < 4; j++) {
                const int32_t px = x + (int32_t)(j & 1), py = y + (int32_t)(j >> 1);
                c[j] = 0;
                if (px < box[0] || px >= box[2] || py < box[1] || py >= box[3] || !e->test ||
                    !(raster_coverage(tri, px, py) & 1u))
                    continue;
                float z = (float)(e->z0 + e->zx * ((double)px + 0.5 - e->zpx) +
                                  e->zy * ((double)py + 0.5 - e->zpy)) +
                          e->zoffset;
                if (!(z >= 0.0f))
                    z = 0.0f;
                if (z > 1.0f)
                    z = 1.0f;
                const uint32_t zq = om_depth_quantize(e->zs, z);
                c[j] = om_depth_test32(e->dsa, e->zs, zq, ref + e->stride * (size_t)py + 4 * (size_t)px);
                any |= c[j];
                passed[(py >> 2) - (box[1] >> 2)] += c[j];
            }
            if (!any)
                continue;
            qx[n] = x;
            qy[n] = y;
            memcpy(&cov[4 * n], c, sizeof c);
            n++;
        }
    return n;
}

typedef struct tally {
    unsigned cases, quads, lanes_passed, unserved, narrow;
} tally;

static void run_case(uint32_t *seed, target *tg, uint8_t *ref, const om_zs_target *zs,
                     uint8_t func, bool writemask, bool avx512, tally *tl)
{
    /* a triangle of up to nine pixels across, anywhere, edges included */
    const float cx = uniform(seed, -3.0f, W + 3.0f), cy = uniform(seed, -3.0f, H + 3.0f);
    float x[3], y[3];
    for (unsigned k = 0; k < 3; k++) {
        x[k] = cx + uniform(seed, -4.6f, 4.6f);
        y[k] = cy + uniform(seed, -4.6f, 4.6f);
        if (tc_rng_next(seed) % 3 == 0) {   /* on pixel centres and their ties */
            x[k] = floorf(x[k]) + 0.5f;
            y[k] = floorf(y[k]) + 0.5f;
        }
    }
    const raster_rules rules = {tc_rng_next(seed) & 1u, 1, {0, 0, W, H}};
    raster_tri tri;
    if (!raster_setup(&tri, &rules, x, y))
        return;
    /* the rasteriser's box, or (as the draw's hook asks) its part in the hull box */
    int32_t box[4] = {tri.x0, tri.y0, tri.x1, tri.y1};
    if (tc_rng_next(seed) & 1u) {
        box[0] = box[0] > tri.hx0 ? box[0] : tri.hx0;
        box[1] = box[1] > tri.hy0 ? box[1] : tri.hy0;
        box[2] = box[2] < tri.hx1 ? box[2] : tri.hx1;
        box[3] = box[3] < tri.hy1 ? box[3] : tri.hy1;
    }
    raster_box rb;
    if (!raster_box_setup(&tri, box, &rb)) {
        tl->unserved++;
        return;
    }
    /* (two quads wide at most: the kernel's two-rows-a-step layout) */
    tl->narrow += rb.bx1 <= 4;
    /* the stored words: specials, small fields, random bits */
    for (size_t i = 0; i + 4 <= tg->bytes; i += 4) {
        uint32_t v = tc_rng_next(seed);
        switch (v % 4) {
        case 0: v = specials[tc_rng_next(seed) % (sizeof specials / sizeof *specials)]; break;
        case 1: v = tc_rng_next(seed) % 8; break;
        default: v = tc_rng_next(seed); break;
        }
        memcpy(tg->base + i, &v, 4);
    }
    /* the plane: at a vertex, gentle or steep, its values sometimes out of range or NaN */
    om_dsa dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = true;
    dsa.depth_writemask = writemask;
    dsa.depth_func = func;
    box_early e = {uniform(seed, -0.3f, 1.3f), uniform(seed, -0.2f, 0.2f),
                   uniform(seed, -0.2f, 0.2f), x[0], y[0], 0.0f, &dsa, zs, tg->base, tg->stride,
                   tc_rng_next(seed) % 16 != 0};
    switch (tc_rng_next(seed) % 8) {
    case 0: e.zx = e.zy = 0.0; break;                        /* flat: ties with itself */
    case 1: e.zoffset = uniform(seed, -1e-3f, 1e-3f); break;
    case 2: e.z0 = tc_rng_next(seed) & 1u ? NAN : INFINITY; break;
    case 3: e.zx *= 1e-30; e.zy *= 1e-30; break;             /* subnormal-scale steps */
    case 4: e.z0 = -0.0; e.zx = e.zy = 0.0; e.zoffset = -0.0f; break;  /* -0 and +0 */
    default: break;
    }
    /* ties: some texels hold the fragment's own quantised depth */
    for (int32_t py = box[1]; py < box[3]; py++)
        for (int32_t px = box[0]; px < box[2]; px++) {
            if (tc_rng_next(seed) % 3)
                continue;
            float z = (float)(e.z0 + e.zx * ((double)px + 0.5 - e.zpx) +
                              e.zy * ((double)py + 0.5 - e.zpy)) + e.zoffset;
            z = !(z >= 0.0f) ? 0.0f : z > 1.0f ? 1.0f : z;
            uint8_t *at = tg->base + tg->stride * (size_t)py + 4 * (size_t)px;
            uint32_t texel;
            memcpy(&texel, at, 4);
            texel = (uint32_t)((texel & ~zs->depth_mask) |
                               (((uint64_t)om_depth_quantize(zs, z) << zs->depth_shift) &
                                zs->depth_mask));
            memcpy(at, &texel, 4);
        }
    memcpy(ref, tg->base - tg->page, tg->bytes + tg->page);
    int32_t wqx[16], wqy[16], gqx[16], gqy[16];
    uint32_t wcov[64], gcov[64], wpass[3], gpass[3];
    box_early er = e;
    er.base = NULL;
    const int want = reference(&tri, box, &er, ref + tg->page, wqx, wqy, wcov, wpass);
    const int got = box_early_quads(&rb, &e, avx512, gqx, gqy, gcov, gpass);
    assert_int_equal(got, want);
    assert_memory_equal(gqx, wqx, (size_t)want * sizeof *wqx);
    assert_memory_equal(gqy, wqy, (size_t)want * sizeof *wqy);
    assert_memory_equal(gcov, wcov, (size_t)want * 4 * sizeof *wcov);
    assert_memory_equal(gpass, wpass, sizeof wpass);
    assert_memory_equal(tg->base - tg->page, ref, tg->bytes + tg->page);
    tl->cases++;
    tl->quads += (unsigned)want;
    tl->lanes_passed += wpass[0] + wpass[1] + wpass[2];
}

/* The kernel for AVX512 (else AVX2) on every case. */
static void against_pixels(bool avx512)
{
    static const char *const names[] = {"Z32_FLOAT", "Z24X8_UNORM", "Z24_UNORM_S8_UINT",
                                        "S8_UINT_Z24_UNORM"};
    static uint8_t ref[MAX_BYTES + 65536];
    uint32_t seed = 0x9e3779b9u;
    tally tl = {0, 0, 0, 0, 0};
    for (size_t stride = W * 4 + 12; stride <= MAX_STRIDE; stride++) {
        target tg;
        target_map(&tg, stride);
        assert_true(tg.bytes + tg.page <= sizeof ref);
        for (int flush = 0; flush < 2; flush++) {
            unsigned saved = flush ? tv_fp_flush_begin() : 0;
            for (unsigned f = 0; f < sizeof names / sizeof *names; f++) {
                om_zs_target zs;
                assert_true(om_zs_target_init(&zs, tv_format_from_name(names[f])));
                assert_true(zs.bytes == 4 && (zs.depth_float || zs.unorm_direct));
                for (uint8_t func = OM_FUNC_NEVER; func <= OM_FUNC_ALWAYS; func++)
                    for (int wm = 0; wm < 2; wm++)
                        for (unsigned k = 0; k < 40; k++)
                            run_case(&seed, &tg, ref, &zs, func, wm, avx512, &tl);
            }
            if (flush)
                tv_fp_flush_end(saved);
        }
        munmap(tg.map, tg.len);
    }
    /* the cases are small triangles that pass and fail lanes, some boxes too large */
    assert_true(tl.cases > 4000);
    assert_true(tl.quads > tl.cases && tl.lanes_passed > tl.cases);
    assert_true(tl.unserved > 0);
    /* both layouts, in numbers */
    assert_true(tl.narrow > tl.cases / 5 && tl.cases - tl.narrow > tl.cases / 5);
}

static void test_against_pixels_avx512(void **state)
{
    (void)state;
    if (!tv_cpu_avx512f())
        skip();   /* the draw calls each kernel only where the processor has it */
    against_pixels(true);
}

static void test_against_pixels_avx2(void **state)
{
    (void)state;
    if (!tv_cpu_avx2())
        skip();
    against_pixels(false);
}

/* Sample 0 masked off: nothing is tested, read or written, and no quad survives. */
static void test_masked_sample(void **state)
{
    (void)state;
    if (!tv_cpu_avx2())
        skip();
    om_zs_target zs;
    assert_true(om_zs_target_init(&zs, tv_format_from_name("Z32_FLOAT")));
    om_dsa dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = dsa.depth_writemask = true;
    dsa.depth_func = OM_FUNC_ALWAYS;
    const raster_rules rules = {false, 1, {0, 0, 8, 8}};
    const float x[3] = {0.0f, 8.0f, 0.0f}, y[3] = {0.0f, 0.0f, 8.0f};
    raster_tri tri;
    assert_true(raster_setup(&tri, &rules, x, y));
    const int32_t box[4] = {tri.x0, tri.y0, tri.x1, tri.y1};
    raster_box rb;
    assert_true(raster_box_setup(&tri, box, &rb));
    const box_early e = {0.5, 0, 0, 0, 0, 0.0f, &dsa, &zs, NULL, 32, false};
    int32_t qx[16], qy[16];
    uint32_t cov[64], passed[3] = {7, 7, 7};
    for (int avx512 = 0; avx512 <= (int)tv_cpu_avx512f(); avx512++) {
        passed[0] = passed[1] = passed[2] = 7;
        assert_int_equal(box_early_quads(&rb, &e, avx512, qx, qy, cov, passed), 0);
        assert_int_equal(passed[0] + passed[1] + passed[2], 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_pixels_avx512),
        cmocka_unit_test(test_against_pixels_avx2),
        cmocka_unit_test(test_masked_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
