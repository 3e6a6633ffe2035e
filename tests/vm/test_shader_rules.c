/* The engine's shader rules for what GL leaves to the implementation (tv_vm_config):
 * flush_denormals (the CPU's denormals-are-zero mode around every job)
 * and fine_derivatives (DDX/DDY lowered as DDX_FINE/DDY_FINE). Expected values are IEEE 754
 * facts and the derivative definitions of docs/vm-stages.md §2, worked out by hand below;
 * each case runs on the plain interpreter and the optimised engine, with one and two
 * workers. */
#include "helper_vm.h"

#include <stdlib.h>
#if defined(__x86_64__) || defined(__SSE__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

enum { GROUPS = 8, BLOCK = 32, LANES = GROUPS * BLOCK, OUT = LANES * 16 };

/* Lane l reads 16 bytes at l*16 (a, b, c, d) and writes 16 bytes at OUT + l*16:
 * x = a*b, y = a + 0, z = -a (a copy with the sign changed), w = a + b as integers;
 * and at 2*OUT + l*16: xy = the float64 sum cd + cd, z = (a*b) + 0 (the product read
 * again by a later operation), w = 0. */
static const char *prog =
    "COMP\nDCL SV[0], BLOCK_ID\nDCL SV[1], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..3]\n"
    "IMM[0] UINT32 {32, 16, 4096, 8192}\nIMM[1] FLT32 {0.0, 0.0, 0.0, 0.0}\n"
    "UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, SV[1].xxxx\n"
    "UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
    "LOAD TEMP[1], BUFFER[0], TEMP[0].xxxx\n"
    "MUL TEMP[2].x, TEMP[1].xxxx, TEMP[1].yyyy\n"
    "ADD TEMP[2].y, TEMP[1].xxxx, IMM[1].xxxx\n"
    "MOV TEMP[2].z, -TEMP[1].xxxx\n"
    "UADD TEMP[2].w, TEMP[1].xxxx, TEMP[1].yyyy\n"
    "DADD TEMP[3].xy, TEMP[1].zwzw, TEMP[1].zwzw\n"
    "ADD TEMP[3].z, TEMP[2].xxxx, IMM[1].xxxx\n"
    "MOV TEMP[3].w, IMM[1].xxxx\n"
    "UADD TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz\n"
    "STORE BUFFER[0].xyzw, TEMP[0].yyyy, TEMP[2]\n"
    "UADD TEMP[0].z, TEMP[0].xxxx, IMM[0].wwww\n"
    "STORE BUFFER[0].xyzw, TEMP[0].zzzz, TEMP[3]\n"
    "END\n";

static uint64_t d_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void run_rules(bool flush, bool plain, uint32_t threads, uint32_t *buf)
{
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_config cfg = {.threads = threads, .plain = plain, .flush_denormals = flush};
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        fail_msg("%s", err.message);
    tv_vm_program *p = tv_vm_program_from_text(vm, prog, strlen(prog), "rules", &err);
    if (!p)
        fail_msg("%s", err.message);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){buf, 3 * OUT};
    tv_vm_compute_params cp;
    memset(&cp, 0, sizeof cp);
    cp.grid[0] = GROUPS;
    cp.grid[1] = cp.grid[2] = 1;
    cp.block[0] = BLOCK;
    cp.block[1] = cp.block[2] = 1;
    if (tv_vm_run_compute(vm, p, &b, &cp, NULL, &err) != TV_OK)
        fail_msg("%s", err.message);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* Lane inputs, by lane % 4, and what IEEE arithmetic gives (flush: denormal operands
 * read as zero, the CPU's denormals-are-zero mode; results are not flushed):
 *   0: a = 2^-100, b = 2^-30: a*b = 2^-130, a denormal (0x00080000: 2^19 units of
 *      2^-149), the same both ways (its operands are normal); read again, (a*b) + 0 is
 *      that denormal in IEEE arithmetic and 0 flushed
 *   1: a = the smallest denormal 0x00000001, b = 1.0: a*b, a + 0 and (a*b) + 0 are a itself
 *      in IEEE arithmetic, zero flushed
 *   2: a = 1.5, b = 2.0: normal numbers, the same either way
 *   3: a = -(2^-149) (0x80000001), b = 2^-1: a*b = -2^-150, a tie between -0 and the
 *      smallest denormal, rounded to even: -0; flushed, -0 * 0.5 = -0 too; a + 0 is a
 *      in IEEE arithmetic, +0 flushed (-0 + +0 = +0)
 * The float64 cd: 2^-1040, a denormal (2^-1040 / 2^-1074 = 2^34 units:
 * 0x0000000400000000), in lanes 0 and 1, whose sum with itself is 0x0000000800000000 in
 * IEEE arithmetic and 0 flushed; 1.5 (sum 3.0) in lanes 2 and 3. */
static void fill_inputs(uint32_t *buf)
{
    memset(buf, 0xee, 3 * OUT);
    static const uint32_t a[4] = {0x0d800000u, 0x00000001u, 0x3fc00000u, 0x80000001u};
    static const uint32_t b[4] = {0x30800000u, 0x3f800000u, 0x40000000u, 0x3f000000u};
    for (uint32_t l = 0; l < LANES; l++) {
        uint32_t *in = buf + l * 4;
        uint64_t cd = (l % 4) < 2 ? 0x0000000400000000ull : d_bits(1.5);
        in[0] = a[l % 4];
        in[1] = b[l % 4];
        in[2] = (uint32_t)cd;
        in[3] = (uint32_t)(cd >> 32);
    }
}

static void check(const uint32_t *buf, bool flush)
{
    for (uint32_t l = 0; l < LANES; l++) {
        const uint32_t *o = buf + OUT / 4 + l * 4;
        const uint32_t *o2 = buf + 2 * OUT / 4 + l * 4;
        const uint32_t *in = buf + l * 4;
        uint32_t want[4], want_again;
        switch (l % 4) {
        case 0:
            want[0] = 0x00080000u; want[1] = 0x0d800000u;
            want_again = flush ? 0u : 0x00080000u;
            break;
        case 1:
            want[0] = want[1] = want_again = flush ? 0u : 0x00000001u;
            break;
        case 2:
            want[0] = 0x40400000u; want[1] = 0x3fc00000u; want_again = 0x40400000u;
            break;
        default:
            want[0] = 0x80000000u; want[1] = flush ? 0u : 0x80000001u; want_again = 0u;
            break;
        }
        want[2] = in[0] ^ 0x80000000u;   /* a sign change keeps the bits */
        want[3] = in[0] + in[1];         /* integers are not floats */
        for (int c = 0; c < 4; c++)
            if (o[c] != want[c])
                fail_msg("flush %d lane %u channel %d: got 0x%08x want 0x%08x", flush, l, c,
                         o[c], want[c]);
        if (o2[2] != want_again)
            fail_msg("flush %d lane %u (a*b) + 0: got 0x%08x want 0x%08x", flush, l, o2[2],
                     want_again);
        uint64_t got, want64 = (l % 4) < 2 ? (flush ? 0u : 0x0000000800000000ull)
                                            : d_bits(3.0);
        memcpy(&got, o2, 8);
        if (got != want64)
            fail_msg("flush %d lane %u float64: got 0x%016llx want 0x%016llx", flush, l,
                     (unsigned long long)got, (unsigned long long)want64);
    }
}

static void t_flush_denormals(void **s)
{
    (void)s;
    uint32_t *buf = malloc(3 * OUT);
    assert_non_null(buf);
#if defined(HAVE_MXCSR)
    unsigned before = _mm_getcsr();
#endif
    for (int flush = 0; flush < 2; flush++)
        for (int plain = 0; plain < 2; plain++)
            for (uint32_t threads = 1; threads <= 2; threads++) {
                fill_inputs(buf);
                run_rules(flush, plain, threads, buf);
                check(buf, flush);
            }
#if defined(HAVE_MXCSR)
    /* the caller's modes are its own again (the low 6 bits are sticky exception flags,
       which arithmetic sets, not modes) */
    assert_int_equal(_mm_getcsr() & ~0x3fu, before & ~0x3fu);
#endif
    /* the host's own IEEE arithmetic agrees with the hand-worked constants */
    assert_true(d_bits(0x1p-1040) == 0x0000000400000000ull);
    assert_true(d_bits(0x1p-1040 + 0x1p-1040) == 0x0000000800000000ull);
    free(buf);
}

/* DDX/DDY of v = x * y at pixel centres: fine DDX in row r of a quad is y_r (the row's own
 * y), fine DDY in column c is x_c; coarse ones take the top row / left column for the
 * whole quad. With fine_derivatives, plain DDX/DDY give the fine values. */
static void t_fine_derivatives(void **s)
{
    (void)s;
    const char *text =
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
        "MUL TEMP[0].x, IN[0].xxxx, IN[0].yyyy\n"
        "DDX OUT[0].x, TEMP[0].xxxx\n"
        "DDY OUT[0].y, TEMP[0].xxxx\n"
        "DDX_FINE OUT[0].z, TEMP[0].xxxx\n"
        "DDY_FINE OUT[0].w, TEMP[0].xxxx\n"
        "END\n";
    enum { W = 16, H = 8 };
    for (int fine = 0; fine < 2; fine++)
        for (int plain = 0; plain < 2; plain++) {
            tv_error err;
            memset(&err, 0, sizeof err);
            tv_vm_config cfg = {.threads = 1, .plain = plain, .fine_derivatives = fine};
            tv_vm *vm = tv_vm_create(&cfg, &err);
            tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "d", &err);
            if (!p)
                fail_msg("%s", err.message);
            static uint32_t c[W * H * 4];
            tv_vm_frag_params fp;
            tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_TRIANGLE);
            fp.color[0].data = c;
            tv_vm_bindings b;
            tv_vm_bindings_init(&b);
            tv_vm_stats st;
            if (tv_vm_run_fragment(vm, p, &b, &fp, &st, &err) != TV_OK)
                fail_msg("%s", err.message);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    const uint32_t *o = c + (y * W + x) * 4;
                    float top = (float)(y & ~1) + 0.5f, left = (float)(x & ~1) + 0.5f;
                    float row = (float)y + 0.5f, col = (float)x + 0.5f;
                    float want[4] = {fine ? row : top, fine ? col : left, row, col};
                    for (int k = 0; k < 4; k++)
                        if (tv_bits_f32(o[k]) != want[k])
                            fail_msg("fine %d plain %d pixel %d,%d channel %d: got %g want %g",
                                     fine, plain, x, y, k, (double)tv_bits_f32(o[k]),
                                     (double)want[k]);
                }
            tv_vm_program_destroy(p);
            tv_vm_destroy(vm);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_flush_denormals),
        cmocka_unit_test(t_fine_derivatives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
