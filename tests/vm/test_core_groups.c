/* Channel groups (one micro-op for every written channel of a per-channel instruction,
 * src/vm/vm_ops.h): a destination channel that is also a source of a later channel must
 * not be seen updated, under a full and a partial execution mask, with saturate, a
 * source modifier and an indirect destination. The
 * expected values come from a plain per-lane C interpretation of the same program
 * (every source read before any destination is written, as TGSI specifies). */
#include <math.h>

#include "helper_vm.h"
#include "vm/vm_internal.h"   /* uops_plain */

enum { LANES = 40 };

static const char *prog =
    "COMP\n"
    "DCL SV[0], THREAD_ID\n"
    "DCL BUFFER[0]\n"
    "DCL TEMP[0..3]\n"
    "DCL ADDR[0]\n"
    "IMM[0] UINT32 {1, 2, 3, 16}\n"
    "IMM[1] FLT32 {0.5, -2.0, 3.0, 1.5}\n"
    "IMM[2] UINT32 {64, 16, 32, 48}\n"
    "MOV TEMP[0], SV[0].xxxx\n"
    "UADD TEMP[0], TEMP[0], IMM[0]\n"
    "U2F TEMP[1], TEMP[0]\n"
    "AND TEMP[3].x, SV[0].xxxx, IMM[0].xxxx\n"
    "UIF TEMP[3].xxxx\n"
    "  MOV TEMP[0].xyz, TEMP[0].yzxw\n"
    "  UCMP TEMP[0].yzw, TEMP[0].xxxx, TEMP[0].wwxy, IMM[0].zzzz\n"
    "  MUL TEMP[1].yzw, TEMP[1].xxyz, IMM[1]\n"
    "ELSE\n"
    "  ADD TEMP[1].xy, TEMP[1].yxxx, -TEMP[1].wwww\n"
    "  XOR TEMP[0].zw, TEMP[0].wwzz, TEMP[0].xxxx\n"
    "ENDIF\n"
    "MAD_SAT TEMP[2], TEMP[1].wzyx, IMM[1].xxxx, IMM[1].yyyy\n"
    "UARL ADDR[0].x, IMM[0].xxxx\n"
    "ADD TEMP[ADDR[0].x+1].xy, TEMP[1].yxxx, TEMP[2].wzzz\n"
    "MOV TEMP[3].xyzw, TEMP[1].wzyx\n"
    "UMUL TEMP[3].w, SV[0].xxxx, IMM[2].xxxx\n"
    "STORE BUFFER[0].xyzw, TEMP[3].wwww, TEMP[0]\n"
    "UADD TEMP[3].w, TEMP[3].wwww, IMM[2].yyyy\n"
    "STORE BUFFER[0].xyzw, TEMP[3].wwww, TEMP[1]\n"
    "UADD TEMP[3].w, TEMP[3].wwww, IMM[2].yyyy\n"
    "STORE BUFFER[0].xyzw, TEMP[3].wwww, TEMP[2]\n"
    "UADD TEMP[3].w, TEMP[3].wwww, IMM[2].yyyy\n"
    "MOV TEMP[2].x, TEMP[3].wwww\n"
    "STORE BUFFER[0].xyz, TEMP[2].xxxx, TEMP[3]\n"
    "END\n";

static float sat(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
static uint32_t fu(float f) { return tv_f32_bits(f); }

/* The program above, one lane, with whole-instruction source snapshots. */
static void reference(uint32_t l, uint32_t out[16])
{
    uint32_t t0[4], s0[4];
    float t1[4], s1[4], t2[4], t3[3];
    const uint32_t i0[4] = {1, 2, 3, 16};
    const float i1[4] = {0.5f, -2.0f, 3.0f, 1.5f};
    for (int c = 0; c < 4; c++) t0[c] = l + i0[c];
    for (int c = 0; c < 4; c++) t1[c] = (float)t0[c];
    if (l & 1u) {
        memcpy(s0, t0, sizeof s0);
        t0[0] = s0[1]; t0[1] = s0[2]; t0[2] = s0[0];                 /* MOV .xyz, .yzxw */
        memcpy(s0, t0, sizeof s0);
        t0[1] = s0[0] ? s0[3] : 3u;                                   /* UCMP .yzw */
        t0[2] = s0[0] ? s0[0] : 3u;
        t0[3] = s0[0] ? s0[1] : 3u;
        memcpy(s1, t1, sizeof s1);
        t1[1] = s1[0] * i1[1]; t1[2] = s1[1] * i1[2]; t1[3] = s1[2] * i1[3];  /* MUL */
    } else {
        memcpy(s1, t1, sizeof s1);
        t1[0] = s1[1] + -s1[3]; t1[1] = s1[0] + -s1[3];               /* ADD .xy */
        memcpy(s0, t0, sizeof s0);
        t0[2] = s0[2] ^ s0[0]; t0[3] = s0[2] ^ s0[0];                 /* XOR .zw */
    }
    const int mad_sw[4] = {3, 2, 1, 0};
    for (int c = 0; c < 4; c++) t2[c] = sat(t1[mad_sw[c]] * i1[0] + i1[1]);
    float a0 = t1[1] + t2[3], a1 = t1[0] + t2[2];                     /* ADD TEMP[2].xy */
    t2[0] = a0; t2[1] = a1;
    t3[0] = t1[3]; t3[1] = t1[2]; t3[2] = t1[1];                      /* MOV TEMP[3].xyz */
    for (int c = 0; c < 4; c++) {
        out[c] = t0[c];
        out[4 + c] = fu(t1[c]);
        out[8 + c] = fu(t2[c]);
    }
    for (int c = 0; c < 3; c++) out[12 + c] = fu(t3[c]);
    out[15] = 0;
}

static void t_groups_match_reference(void **s)
{
    (void)s;
    static uint32_t got[LANES * 16];
    memset(got, 0, sizeof got);
    uint32_t block[3] = {LANES, 1, 1};
    tv_error err;
    if (hv_compute(prog, NULL, block, got, sizeof got, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (uint32_t l = 0; l < LANES; l++) {
        uint32_t want[16];
        reference(l, want);
        for (int k = 0; k < 16; k++)
            if (got[l * 16 + k] != want[k])
                fail_msg("lane %u word %d: got 0x%08x want 0x%08x", l, k, got[l * 16 + k],
                         want[k]);
    }
}

/* A scalar result replicated by the commit's channel-group MOV: DP2 writes .x, then .y and
 * .z are moved from .x; .w keeps its value. */
static void t_replicated_results(void **s)
{
    (void)s;
    const char *p =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..1]\n"
        "IMM[0] FLT32 {1.5, 2.0, 0.25, 0.0}\nIMM[1] UINT32 {16, 0, 0, 0}\n"
        "U2F TEMP[0], SV[0].xxxx\n"
        "DP2 TEMP[0].xyz, TEMP[0].xyyy, IMM[0]\n"
        "UMUL TEMP[1].x, SV[0].xxxx, IMM[1].xxxx\n"
        "STORE BUFFER[0].xyzw, TEMP[1].xxxx, TEMP[0]\nEND\n";
    static uint32_t got[LANES * 4];
    uint32_t block[3] = {LANES, 1, 1};
    tv_error err;
    assert_int_equal(hv_compute(p, NULL, block, got, sizeof got, &err), TV_OK);
    for (uint32_t l = 0; l < LANES; l++) {
        float x = (float)l;
        float d = x * 1.5f + x * 2.0f;
        uint32_t want[4] = {fu(d), fu(d), fu(d), fu(x)};
        for (int c = 0; c < 4; c++)
            assert_int_equal(got[l * 4 + c], want[c]);
    }
}

/* Phi copies as compilers emit them (the bench `loop` workload's shape): per iteration
 * two MOVs whose destinations only feed the UCMP after them (propagated, then removed) and
 * two loop-carried MOVs (kept). Lane l runs (l ^ 5) & 7 iterations. */
static const char *phi_prog =
    "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..5]\n"
    "IMM[0] UINT32 {7, 5, 0, 1}\nIMM[1] FLT32 {0.5, 1.0, 0.25, 0.0}\nIMM[2] UINT32 {16, 0, 0, 0}\n"
    "XOR TEMP[0].x, SV[0].xxxx, IMM[0].yyyy\n"
    "AND TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "MOV TEMP[1].x, IMM[0].zzzz\n"
    "MOV TEMP[2], IMM[1].wwww\n"
    "BGNLOOP\n"
    "  USGE TEMP[3].x, TEMP[1].xxxx, TEMP[0].xxxx\n"
    "  UIF TEMP[3].xxxx\n"
    "    BRK\n"
    "  ENDIF\n"
    "  AND TEMP[3].x, TEMP[1].xxxx, IMM[0].wwww\n"
    "  ADD TEMP[4].x, TEMP[2].xxxx, IMM[1].xxxx\n"
    "  MAD TEMP[5].y, TEMP[2].yyxx, IMM[1].xxxx, IMM[1].yyyy\n"
    "  MOV TEMP[5].xzw, TEMP[2]\n"
    "  USNE TEMP[3].x, TEMP[3].xxxx, IMM[0].zzzz\n"
    "  MOV TEMP[4].yzw, TEMP[2].yyzw\n"
    "  UCMP TEMP[3], TEMP[3].xxxx, TEMP[4], TEMP[5]\n"
    "  U2F TEMP[4].x, TEMP[1].xxxx\n"
    "  MAD TEMP[4].x, TEMP[4].xxxx, IMM[1].zzzz, TEMP[3].zxxx\n"
    "  UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].wwww\n"
    "  MOV TEMP[2].xyw, TEMP[3]\n"
    "  MOV TEMP[2].z, TEMP[4].xxxx\n"
    "ENDLOOP\n"
    "UMUL TEMP[0].y, SV[0].xxxx, IMM[2].xxxx\n"
    "STORE BUFFER[0].xyzw, TEMP[0].yyyy, TEMP[2]\n"
    "END\n";

static void phi_reference(uint32_t l, float acc[4])
{
    uint32_t n = (l ^ 5u) & 7u;
    acc[0] = acc[1] = acc[2] = acc[3] = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        float x = acc[0] + 0.5f, y = acc[1] * 0.5f + 1.0f;
        float nx = (i & 1u) ? x : acc[0];
        float ny = (i & 1u) ? acc[1] : y;
        float nz = (float)i * 0.25f + acc[2];
        acc[0] = nx;
        acc[1] = ny;
        acc[2] = nz;
    }
}

static tv_status run_prog(const char *text, bool unoptimised, uint32_t *out, size_t bytes,
                          tv_vm_stats *st, uint32_t *nuops)
{
    tv_vm *vm = tv_vm_create(&(tv_vm_config){.plain = unoptimised}, NULL);
    tv_error err;
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "prog", &err);
    if (!p)
        fail_msg("%s", err.message);
    *nuops = unoptimised ? p->num_uops_plain : p->num_uops;
    tv_status r = hv_run_group(vm, p, LANES, out, bytes, st, &err);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return r;
}

static void t_phi_copies(void **s)
{
    (void)s;
    static uint32_t got[LANES * 4], ref[LANES * 4];
    tv_vm_stats so, su;
    uint32_t no, nu;
    assert_int_equal(run_prog(phi_prog, false, got, sizeof got, &so, &no), TV_OK);
    assert_int_equal(run_prog(phi_prog, true, ref, sizeof ref, &su, &nu), TV_OK);
    for (uint32_t l = 0; l < LANES; l++) {
        float acc[4];
        phi_reference(l, acc);
        for (int c = 0; c < 4; c++)
            if (got[l * 4 + c] != tv_f32_bits(acc[c]) || ref[l * 4 + c] != tv_f32_bits(acc[c]))
                fail_msg("lane %u channel %d: optimised 0x%08x, unoptimised 0x%08x, want "
                         "0x%08x", l, c, got[l * 4 + c], ref[l * 4 + c], tv_f32_bits(acc[c]));
    }
    /* the two copies that only feed the UCMP are gone, the two loop-carried MOVs are
     * coalesced into the UCMP and MAD that compute their sources, UIF/BRK/ENDIF is one
     * micro-op; instructions are still counted */
    assert_int_equal(no + 6, nu);
    assert_int_equal(so.instructions, su.instructions);
    assert_true(so.uops < su.uops);
}

/* A copy is forgotten when its source or its destination is written. A dead MOV at the
 * end of an IF body goes, its count moving to the UADD before it, not to the ENDIF after
 * it, which the skipped branch reaches too (warp 0 skips the body, warp 1 runs it). */
static void t_copy_edges(void **s)
{
    (void)s;
    const char *p =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..7]\n"
        "IMM[0] UINT32 {1, 32, 0, 16}\n"
        "UADD TEMP[1].x, SV[0].xxxx, IMM[0].zzzz\n"
        "MOV TEMP[2].x, TEMP[1].xxxx\n"
        "UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx\n"
        "UADD TEMP[3].x, TEMP[2].xxxx, IMM[0].zzzz\n"
        "MOV TEMP[4].x, TEMP[1].xxxx\n"
        "UADD TEMP[4].x, TEMP[4].xxxx, IMM[0].xxxx\n"
        "UADD TEMP[3].y, TEMP[4].xxxx, IMM[0].zzzz\n"
        "MOV TEMP[6].y, TEMP[3].xxxx\n"
        "USGE TEMP[5].x, SV[0].xxxx, IMM[0].yyyy\n"
        "UIF TEMP[5].xxxx\n"
        "  UADD TEMP[3].z, TEMP[3].yyyy, IMM[0].xxxx\n"
        "  MOV TEMP[6].x, TEMP[3].zzzz\n"
        "ENDIF\n"
        "CLOCK TEMP[7].xy\n"
        "MOV TEMP[3].w, TEMP[7].xxxx\n"
        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[3]\nEND\n";
    static uint32_t got[LANES * 4], ref[LANES * 4];
    tv_vm_stats so, su;
    uint32_t no, nu;
    assert_int_equal(run_prog(p, false, got, sizeof got, &so, &no), TV_OK);
    assert_int_equal(run_prog(p, true, ref, sizeof ref, &su, &nu), TV_OK);
    for (uint32_t l = 0; l < LANES; l++) {
        assert_int_equal(got[l * 4 + 0], l);
        assert_int_equal(got[l * 4 + 1], l + 2);
        assert_int_equal(got[l * 4 + 2], l >= 32 ? l + 3 : 0);
        /* CLOCK: instructions the warp executed up to it (itself included), by hand */
        assert_int_equal(got[l * 4 + 3], ref[l * 4 + 3]);
        assert_int_equal(got[l * 4 + 3], l >= 32 ? 14 : 12);
    }
    assert_int_equal(so.instructions, su.instructions);
    /* MOV TEMP[6].y and MOV TEMP[6].x removed; UADD TEMP[1].x and UADD TEMP[3].x fused
     * (the second reads TEMP[2], not TEMP[1]); UADD TEMP[3].y reads the TEMP[4] the UADD
     * before writes: not fused */
    assert_int_equal(no + 3, nu);
}

/* Coalescing (a MOV's source written straight into its destination by the micro-op
 * that computes it) must not move the destination's write across a read of its old value
 * or under a later write of it. */
static void t_coalesce_edges(void **s)
{
    (void)s;
    const char *p =
        /* high register numbers: the lowering's analysis counts any field of the STORE
         * that happens to equal a TEMP slot as a read of that register */
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..39]\n"
        "IMM[0] UINT32 {1, 100, 0, 16}\n"
        "XOR TEMP[32].xy, SV[0].xxxx, IMM[0].yyyy\n"
        "UADD TEMP[33].x, SV[0].xxxx, IMM[0].xxxx\n"
        "OR TEMP[34].x, TEMP[32].xxxx, IMM[0].zzzz\n"
        "MOV TEMP[32].x, TEMP[33].xxxx\n"
        "XOR TEMP[33].y, SV[0].xxxx, IMM[0].xxxx\n"
        "UADD TEMP[32].y, SV[0].xxxx, IMM[0].wwww\n"
        "MOV TEMP[32].y, TEMP[33].yyyy\n"
        "MOV TEMP[32].z, TEMP[34].xxxx\n"
        "UIF IMM[0].xxxx\n"   /* ends the run: the STORE, which could read anything, is not in it */
        "  UMUL TEMP[35].x, SV[0].xxxx, IMM[0].wwww\n"
        "  STORE BUFFER[0].xyz, TEMP[35].xxxx, TEMP[32]\n"
        "ENDIF\nEND\n";
    static uint32_t got[LANES * 4];
    uint32_t block[3] = {LANES, 1, 1};
    tv_error err;
    memset(got, 0, sizeof got);
    if (hv_compute(p, NULL, block, got, sizeof got, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (uint32_t l = 0; l < LANES; l++) {
        assert_int_equal(got[l * 4 + 0], l + 1);
        assert_int_equal(got[l * 4 + 1], l ^ 1u);
        assert_int_equal(got[l * 4 + 2], l ^ 100u);
    }
}

/* A trace shows every instruction the traced lane's warp runs, the copies removed from
 * the optimised program included (traces run the unoptimised micro-ops). */
typedef struct { unsigned movs, insns; } trace_count;

static void on_trace(void *user, const tv_vm_trace_event *ev)
{
    trace_count *tc = user;
    tc->insns++;
    tc->movs += ev->opcode == TV_TGSI_OP_MOV;
}

static void t_trace_sees_every_copy(void **s)
{
    (void)s;
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_error err;
    tv_vm_program *p = tv_vm_program_from_text(vm, phi_prog, strlen(phi_prog), "phi", &err);
    assert_non_null(p);
    trace_count tc = {0, 0};
    tv_vm_trace tr = {on_trace, &tc, {3, 0, 0}};
    tv_vm_set_trace(vm, &tr);
    static uint32_t out[LANES * 4];
    assert_int_equal(hv_run_group(vm, p, LANES, out, sizeof out, NULL, &err), TV_OK);
    /* 2 MOVs before the loop, 4 in each of the lane's 6 iterations (its warp runs 7: the
     * trace reports inactive iterations too, as events with active = false) */
    assert_int_equal(tc.movs, 2 + 4 * 7);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_groups_match_reference),
        cmocka_unit_test(t_replicated_results),
        cmocka_unit_test(t_phi_copies),
        cmocka_unit_test(t_copy_edges),
        cmocka_unit_test(t_coalesce_edges),
        cmocka_unit_test(t_trace_sees_every_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
