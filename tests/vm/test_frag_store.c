/* The colour store of a fully live fragment tile (src/vm/vm_stage_frag_store.c): every
 * variant (plain C, SSE2, AVX-512 where the tile rows are whole 64-byte lines) must put
 * lane l's four channel values at the pixel of the tile the lane layout gives it (quads of
 * 4 consecutive lanes TL, TR, BL, BR; 4 quads per row of quads, docs/vm-fragments.md §1
 * "Fragment tiles") and write nothing else. Expected places are computed here from that
 * rule, for the store and for a copy of the tile image it makes (vm_frag_copy_tile); then
 * the whole stage on targets 64-byte aligned or not, with widths whose rows are or are not
 * whole lines, 1 and 2 threads, against the pixel centres a POSITION input gives (exact:
 * x + 0.5 and y + 0.5), and with constant outputs, whose whole tiles the walk copies
 * (vm_stage_frag.c uniform_tile; none in the plain interpreter's copy of this test). */
#include <stdlib.h>

#include "helper_vm.h"
#include "vm/vm_stage_frag_store.h"
#include "vm/vm_stage_frag_uniform.h"

#define SENTINEL 0xdeadbeefu

static uint32_t val(unsigned l, unsigned c)
{
    return 0x10000u * (l + 1) + c;
}

/* one tile at column tx of a W x 8 target whose first pixel is `off` words after a
 * 64-byte boundary; COPY: through a tile image (vm_frag_copy_tile of the image the store
 * makes with a row of 32 words) */
static void check_tile(unsigned cap, unsigned W, unsigned off, unsigned tx, unsigned ty,
                       bool ahead, bool copy)
{
    vm_slot o[4];
    for (unsigned c = 0; c < 4; c++)
        for (unsigned l = 0; l < VM_LANES; l++)
            o[c].u[l] = val(l, c);
    size_t words = (size_t)W * 8 * 4 + off;
    uint32_t *mem = aligned_alloc(64, (words * 4 + 63) / 64 * 64);
    assert_non_null(mem);
    for (size_t i = 0; i < words; i++)
        mem[i] = SENTINEL;
    uint32_t *t = mem + off;
    unsigned isa = vm_frag_store_isa();   /* the widest this processor has, at most CAP */
    if (isa > cap)
        isa = cap;
    uint32_t *t0 = t + ((size_t)ty * 4 * W + tx * 8) * 4;
    if (copy) {
        _Alignas(64) vm_frag_tile_image img;
        vm_frag_store_tile(isa, img[0], 32, o, false);
        vm_frag_copy_tile(isa, t0, (size_t)W * 4, (const uint32_t(*)[32])img, ahead);
    } else {
        vm_frag_store_tile(isa, t0, (size_t)W * 4, o, ahead);
    }
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < W; x++) {
            bool in = x >= tx * 8 && x < tx * 8 + 8 && y >= ty * 4 && y < ty * 4 + 4;
            unsigned lx = x - tx * 8, ly = y - ty * 4;
            /* quad (lx / 2, ly / 2) is quad number 4 (ly / 2) + lx / 2 */
            unsigned l = 4 * (4 * (ly / 2) + lx / 2) + 2 * (ly % 2) + lx % 2;
            for (unsigned c = 0; c < 4; c++) {
                uint32_t got = t[((size_t)y * W + x) * 4 + c];
                uint32_t want = in ? val(l, c) : SENTINEL;
                if (got != want)
                    fail_msg("isa %u%s, W %u, offset %u words, tile (%u,%u): pixel (%u,%u).%u "
                             "= 0x%08x, want 0x%08x", isa, copy ? " (copied)" : "", W, off, tx,
                             ty, x, y, c, got, want);
            }
        }
    for (unsigned i = 0; i < off; i++)
        assert_int_equal(mem[i], SENTINEL);
    free(mem);
}

static void test_tile_layout(void **state)
{
    (void)state;
    /* W 16 and 20: rows of whole 64-byte lines (AVX-512 when aligned); W 10: of 32-byte
       halves (AVX2 when aligned; AVX-512 takes the 16-byte stores) */
    static const unsigned widths[] = {16, 20, 10, 24};
    static const unsigned offs[] = {0, 4, 1, 16};
    for (unsigned cap = 0; cap < VM_STORE_VARIANTS; cap++)
        for (unsigned wi = 0; wi < 4; wi++)
            for (unsigned oi = 0; oi < 4; oi++)
                for (unsigned tx = 0; tx + 1 <= widths[wi] / 8; tx++)
                    for (unsigned ty = 0; ty < 2; ty++)
                        for (unsigned copy = 0; copy < 2; copy++)
                            check_tile(cap, widths[wi], offs[oi], tx, ty, (tx + ty) & 1u,
                                       copy);
}

static const char *POS_PROG =
    "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0].xyyx\nEND\n";

/* A run of the whole stage with PROG over a W x H target whose first pixel is `off` words
 * after a 64-byte boundary, with store variant CAP at most and THREADS workers; the words
 * before and after the target are sentinels, checked here. The allocation, its target at
 * mem + off: freed by the caller. */
static uint32_t *stage_run(const char *prog, unsigned cap, unsigned W, unsigned H,
                           unsigned off, unsigned threads)
{
    size_t words = (size_t)W * H * 4 + off + 16;
    uint32_t *mem = aligned_alloc(64, (words * 4 + 63) / 64 * 64);
    assert_non_null(mem);
    for (size_t i = 0; i < words; i++)
        mem[i] = SENTINEL;
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    assert_non_null(fp);
    tv_vm_frag_params_fullscreen(fp, W, H, TV_VM_PRIM_RECT);
    fp->color[0].data = mem + off;
    hv_store_cap = cap;
    hv_threads = threads;
    tv_error err;
    tv_status st = hv_frag_p(prog, fp, NULL, &err);
    hv_threads = 1;
    hv_store_cap = VM_STORE_AVX512;
    free(fp);
    if (st != TV_OK)
        fail_msg("%s", err.message);
    for (unsigned i = 0; i < off; i++)
        assert_int_equal(mem[i], SENTINEL);
    for (size_t i = off + (size_t)W * H * 4; i < words; i++)
        assert_int_equal(mem[i], SENTINEL);
    return mem;
}

/* the whole stage: OUT = the pixel centre (x + 0.5, y + 0.5, y + 0.5, x + 0.5) */
static void check_stage(unsigned cap, unsigned W, unsigned H, unsigned off, unsigned threads)
{
    uint32_t *mem = stage_run(POS_PROG, cap, W, H, off, threads);
    const uint32_t *t = mem + off;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            float want[4] = {(float)x + 0.5f, (float)y + 0.5f, (float)y + 0.5f, (float)x + 0.5f};
            for (unsigned c = 0; c < 4; c++)
                if (t[((size_t)y * W + x) * 4 + c] != tv_f32_bits(want[c]))
                    fail_msg("cap %u, %ux%u, offset %u, %u threads: pixel (%u,%u).%u = %g, "
                             "want %g", cap, W, H, off, threads, x, y, c,
                             (double)tv_bits_f32(t[((size_t)y * W + x) * 4 + c]), (double)want[c]);
        }
    free(mem);
}

static const char *CONST_PROG = "FRAG\nDCL OUT[0], COLOR\n"
                                "IMM[0] FLT32 {1.0, 0.5, 0.25, -2.0}\n"
                                "MOV OUT[0], IMM[0].xyzw\nEND\n";

/* the whole stage with constant outputs: most tiles stored by copying the tile image the
 * row's first warp left (vm_stage_frag.c uniform_tile), every pixel (1, 0.5, 0.25, -2);
 * *STORED counts those tiles */
static void check_const_stage(unsigned cap, unsigned W, unsigned H, unsigned off,
                              unsigned threads, uint64_t *stored)
{
    const uint64_t s0 = vm_frag_uniform_stored();
    uint32_t *mem = stage_run(CONST_PROG, cap, W, H, off, threads);
    *stored += vm_frag_uniform_stored() - s0;
    static const float want[4] = {1.0f, 0.5f, 0.25f, -2.0f};
    const uint32_t *t = mem + off;
    for (size_t i = 0; i < (size_t)W * H * 4; i++)
        if (t[i] != tv_f32_bits(want[i % 4]))
            fail_msg("constant: cap %u, %ux%u, offset %u, %u threads: pixel (%zu,%zu).%zu = "
                     "0x%08x", cap, W, H, off, threads, i / 4 % W, i / 4 / W, i % 4, t[i]);
    free(mem);
}

static void test_stage_targets(void **state)
{
    (void)state;
    static const unsigned widths[] = {64, 36, 30, 41};
    static const unsigned offs[] = {0, 4, 2};
    for (unsigned cap = 0; cap < VM_STORE_VARIANTS; cap++)
        for (unsigned wi = 0; wi < 4; wi++)
            for (unsigned oi = 0; oi < 3; oi++)
                for (unsigned th = 1; th <= 2; th++)
                    check_stage(cap, widths[wi], 10 + wi, offs[oi], th);
    /* constant outputs: the tile images copied, on targets whose rows are whole lines
       (64, and 32 with an offset of 16 words) or not, aligned or not, every variant; the
       one-thread runs count the copied tiles (the calling thread's) */
    static const unsigned cwidths[] = {64, 32, 36, 41};
    static const unsigned coffs[] = {0, 16, 4, 1};
    uint64_t stored = 0;
    for (unsigned cap = 0; cap < VM_STORE_VARIANTS; cap++)
        for (unsigned wi = 0; wi < 4; wi++)
            for (unsigned oi = 0; oi < 4; oi++)
                for (unsigned th = 1; th <= 2; th++)
                    check_const_stage(cap, cwidths[wi], 12 + wi, coffs[oi], th, &stored);
    print_message("constant outputs: %llu tiles copied from tile images\n",
                  (unsigned long long)stored);
    /* (the vm.test_frag_store.plain copy runs the plain interpreter, which sets up every
       warp: none copied there) */
    if (getenv("TEXVM_TEST_PLAIN"))
        assert_true(stored == 0);
    else
        assert_true(stored > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_layout),
        cmocka_unit_test(test_stage_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
