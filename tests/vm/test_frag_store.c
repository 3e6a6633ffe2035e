/* The colour store of a fully live fragment tile (src/vm/vm_stage_frag_store.c): every
 * variant (plain C, SSE2, AVX-512 where the tile rows are whole 64-byte lines) must put
 * lane l's four channel values at the pixel of the tile the lane layout gives it (quads of
 * 4 consecutive lanes TL, TR, BL, BR; 4 quads per row of quads, docs/vm-fragments.md §1
 * "Fragment tiles") and write nothing else. Expected places are computed here from that
 * rule; then the whole stage on targets 64-byte aligned or not, with widths whose rows are
 * or are not whole lines, 1 and 2 threads, against the pixel centres a POSITION input gives
 * (exact: x + 0.5 and y + 0.5). */
#include <stdlib.h>

#include "helper_vm.h"
#include "vm/vm_stage_frag_store.h"

#define SENTINEL 0xdeadbeefu

static uint32_t val(unsigned l, unsigned c)
{
    return 0x10000u * (l + 1) + c;
}

/* one tile at column tx of a W x 8 target whose first pixel is `off` words after a
 * 64-byte boundary */
static void check_tile(unsigned cap, unsigned W, unsigned off, unsigned tx, unsigned ty,
                       bool ahead)
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
    vm_frag_store_tile(isa, t + ((size_t)ty * 4 * W + tx * 8) * 4, (size_t)W * 4, o, ahead);
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
                    fail_msg("isa %u, W %u, offset %u words, tile (%u,%u): pixel (%u,%u).%u = "
                             "0x%08x, want 0x%08x", isa, W, off, tx, ty, x, y, c, got, want);
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
                        check_tile(cap, widths[wi], offs[oi], tx, ty, (tx + ty) & 1u);
}

static const char *POS_PROG =
    "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0].xyyx\nEND\n";

/* the whole stage: OUT = the pixel centre (x + 0.5, y + 0.5, y + 0.5, x + 0.5) */
static void check_stage(unsigned cap, unsigned W, unsigned H, unsigned off, unsigned threads)
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
    tv_status st = hv_frag_p(POS_PROG, fp, NULL, &err);
    hv_threads = 1;
    hv_store_cap = VM_STORE_AVX512;
    if (st != TV_OK)
        fail_msg("%s", err.message);
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
    for (unsigned i = 0; i < off; i++)
        assert_int_equal(mem[i], SENTINEL);
    for (size_t i = off + (size_t)W * H * 4; i < words; i++)
        assert_int_equal(mem[i], SENTINEL);
    free(fp);
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
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_layout),
        cmocka_unit_test(test_stage_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
