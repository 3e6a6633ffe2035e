/* Pass-through vertex programs run as copies (src/vm/vm_stage_vert_copy.c): the outputs
 * and counts of the copied warps against the same engine's warps run by the engine
 * (vm_vert_copy_set(vm, false): every count equal) and the plain interpreter's (outputs,
 * instructions, warps, invocations; the plain micro-ops are counted one by one, so its
 * micro-op count differs). Random programs of MOVs with any writemask and swizzle,
 * channels written twice and never; arrays packed and interleaved, of stride 0, cut
 * short (the last vertices read the defaults) or of three components (read per lane);
 * the outputs also against the declared rules of tv_vm_vertex_params, written out here;
 * fetched and direct, indexed, instanced, partial warps, outputs not collected. Which
 * programs are copies, and the instruction budget, by hand. */
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_vert_copy.h"
#include "common_rng.h"

static tv_vm *engine(bool plain, uint32_t threads, uint64_t max_insns)
{
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.plain = plain;
    cfg.threads = threads;
    cfg.limits.max_instructions = max_insns;
    tv_error err;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        fail_msg("%s", err.message);
    return vm;
}

static tv_vm_program *program(tv_vm *vm, const char *text)
{
    tv_error err;
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "copy.tgsi", &err);
    if (!p)
        fail_msg("%s\n%s", err.message, text);
    return p;
}

enum { MAXV = 300, MAXIN = 4, MAXOUT = 4 };

typedef struct run_out {
    tv_status st;
    char msg[1024];
    tv_vm_stats stats;
    uint32_t out[MAXOUT][MAXV * 3][4];
} run_out;

static void run(tv_vm *vm, const char *text, const tv_vm_vertex_params *vp, run_out *o)
{
    tv_vm_program *p = program(vm, text);
    tv_vm_vertex_params v = *vp;
    memset(o, 0xa5, sizeof *o);   /* every collected word written */
    for (unsigned r = 0; r < MAXOUT; r++)
        v.out[r] = vp->out[r] ? &o->out[r][0][0] : NULL;
    tv_error err;
    memset(&err, 0, sizeof err);
    o->st = tv_vm_run_vertex(vm, p, NULL, &v, &o->stats, &err);
    snprintf(o->msg, sizeof o->msg, "%s", o->st == TV_OK ? "" : err.message);
    tv_vm_program_destroy(p);
}

static void compare(const run_out *a, const run_out *b, bool uops, const char *text)
{
    if (a->st != b->st || strcmp(a->msg, b->msg))
        fail_msg("status %d '%s' vs %d '%s'\n%s", a->st, a->msg, b->st, b->msg, text);
    if (a->st != TV_OK)
        return;
    if (memcmp(a->out, b->out, sizeof a->out))
        fail_msg("outputs differ\n%s", text);
    const tv_vm_stats *x = &a->stats, *y = &b->stats;
    if (x->instructions != y->instructions || x->warps != y->warps ||
        x->invocations != y->invocations || (uops && x->uops != y->uops))
        fail_msg("counts %llu/%llu/%llu/%llu vs %llu/%llu/%llu/%llu\n%s",
                 (unsigned long long)x->instructions, (unsigned long long)x->uops,
                 (unsigned long long)x->warps, (unsigned long long)x->invocations,
                 (unsigned long long)y->instructions, (unsigned long long)y->uops,
                 (unsigned long long)y->warps, (unsigned long long)y->invocations, text);
}

/* Element E of array A as include/texvm/vm.h describes the read: its first components
 * (at most four) where they lie in the array, the others (0, 0, 0, 1). */
static void element(const tv_vm_vertex_array *a, uint64_t e, uint32_t v[4])
{
    v[0] = v[1] = v[2] = 0;
    v[3] = a->integer ? 1u : tv_f32_bits(1.0f);
    for (unsigned c = 0; c < (a->components < 4 ? a->components : 4u) && a->data; c++) {
        const uint64_t at = a->offset + e * a->stride + 4u * c;
        if (at + 4 <= a->size)
            memcpy(&v[c], (const uint8_t *)a->data + at, 4);
    }
}

/* The outputs the MOVs (out register, writemask, input, swizzle) give, from the
 * declared rules (instance j, vertex i), into O (collected outputs only). */
static void expected(const tv_vm_vertex_params *vp, unsigned nmov, unsigned mov[][7],
                     unsigned nout, run_out *o)
{
    memset(o, 0xa5, sizeof *o);
    for (uint32_t j = 0; j < vp->instances; j++)
        for (uint32_t i = 0; i < vp->count; i++) {
            uint32_t v[MAXOUT][4];
            memset(v, 0, sizeof v);   /* OUT starts at zero */
            for (unsigned k = 0; k < nmov; k++) {
                const tv_vm_vertex_array *a = &vp->attribs[mov[k][2]];
                const uint64_t e = vp->fetched ? (uint64_t)j * vp->count + i
                                   : a->instance_divisor ? vp->base_instance + j / a->instance_divisor
                                   : (uint64_t)(uint32_t)((int64_t)(vp->indices ? vp->indices[i] : i) +
                                                          vp->base_vertex);
                uint32_t in[4];
                element(a, e, in);
                for (unsigned c = 0; c < 4; c++)
                    if ((mov[k][1] >> c) & 1u)
                        v[mov[k][0]][c] = in[mov[k][3 + c]];
            }
            for (unsigned r = 0; r < nout; r++)
                if (vp->out[r])
                    memcpy(o->out[r][j * vp->count + i], v[r], 16);
        }
}

static void t_random(void **state)
{
    (void)state;
    tv_vm *fast = engine(false, 1, 0), *fast2 = engine(false, 2, 0);
    tv_vm *slow = engine(false, 1, 0), *plain = engine(true, 1, 0);
    vm_vert_copy_set(slow, false);
    static uint32_t data[MAXIN][MAXV * 3 * 12 + 64];
    static run_out a, b, c, d, x;
    static const char *const sw = "xyzw";
    uint32_t s = 0x9e3779b9u;
    for (int iter = 0; iter < 400; iter++) {
        const unsigned nin = 1 + tc_rng_next(&s) % MAXIN, nout = 1 + tc_rng_next(&s) % MAXOUT;
        char text[4096];
        int len = snprintf(text, sizeof text, "VERT\nDCL IN[0..%u]\nDCL OUT[0], POSITION\n",
                           nin - 1);
        for (unsigned r = 1; r < nout; r++)
            len += snprintf(text + len, sizeof text - (size_t)len, "DCL OUT[%u], GENERIC[%u]\n",
                            r, r - 1);
        const unsigned nmov = tc_rng_next(&s) % 7;
        unsigned mov[6][7];   /* out, writemask, in, swizzle */
        for (unsigned i = 0; i < nmov; i++) {
            const unsigned mask = 1 + tc_rng_next(&s) % 15;
            char m[5] = {0}, z[5] = {0};
            for (unsigned c = 0, k = 0; c < 4; c++)
                if ((mask >> c) & 1u)
                    m[k++] = sw[c];
            for (unsigned c = 0; c < 4; c++) {
                mov[i][3 + c] = tc_rng_next(&s) % 4;
                z[c] = sw[mov[i][3 + c]];
            }
            mov[i][0] = tc_rng_next(&s) % nout;
            mov[i][1] = mask;
            mov[i][2] = tc_rng_next(&s) % nin;
            len += snprintf(text + len, sizeof text - (size_t)len, "MOV OUT[%u].%s, IN[%u].%s\n",
                            mov[i][0], m, mov[i][2], z);
        }
        snprintf(text + len, sizeof text - (size_t)len, "END\n");

        tv_vm_vertex_params vp;
        memset(&vp, 0, sizeof vp);
        vp.count = 1 + tc_rng_next(&s) % MAXV;
        vp.instances = 1 + tc_rng_next(&s) % 3;
        vp.fetched = tc_rng_next(&s) % 4 == 0;
        vp.base_vertex = (int32_t)(tc_rng_next(&s) % 3);
        static uint32_t idx[MAXV];
        if (tc_rng_next(&s) % 6 == 0) {
            for (uint32_t i = 0; i < vp.count; i++)
                idx[i] = tc_rng_next(&s) % vp.count;
            vp.indices = idx;
        }
        const uint64_t elems = (uint64_t)vp.count * vp.instances + 8;
        for (unsigned e = 0; e < nin; e++) {
            static const uint32_t strides[] = {16, 32, 48, 20, 0};
            const uint32_t stride = strides[tc_rng_next(&s) % 5];
            for (size_t k = 0; k < sizeof data[e] / 4; k++)
                data[e][k] = tc_rng_next(&s);   /* any bits: NaNs and denormals copy as they are */
            uint64_t size = stride ? elems * stride + 16 : 16;
            if (tc_rng_next(&s) % 5 == 0)
                size = size / 2 + tc_rng_next(&s) % 16;   /* cut short: the last read the defaults */
            vp.attribs[e] = (tv_vm_vertex_array){data[e], size, 4 * (tc_rng_next(&s) % 2), stride,
                                                 (uint8_t)(tc_rng_next(&s) % 6 ? 4 : 3), false,
                                                 tc_rng_next(&s) % 8 == 0 ? 2 : 0};
        }
        for (unsigned r = 0; r < nout; r++)
            vp.out[r] = tc_rng_next(&s) % 5 ? (uint32_t *)1 : NULL;   /* (run() points them) */
        run(fast, text, &vp, &a);
        run(slow, text, &vp, &b);
        run(plain, text, &vp, &c);
        run(fast2, text, &vp, &d);
        compare(&a, &b, true, text);
        compare(&a, &c, false, text);
        expected(&vp, nmov, mov, nout, &x);
        if (memcmp(a.out, x.out, sizeof a.out))
            fail_msg("outputs differ from the rules\n%s", text);
        compare(&a, &d, true, text);
    }
    /* the copies were taken: most warps of the runs above qualify */
    assert_true(vm_vert_copied(fast) > 300);
    assert_true(vm_vert_copied(fast2) > 300);
    assert_int_equal(vm_vert_copied(slow), 0);
    assert_int_equal(vm_vert_copied(plain), 0);
    tv_vm_destroy(fast);
    tv_vm_destroy(fast2);
    tv_vm_destroy(slow);
    tv_vm_destroy(plain);
}

/* The mesh scene's program and layout (bench_draw: position and coordinate interleaved,
 * 32 bytes a vertex), with known outputs. */
static void t_interleaved(void **state)
{
    (void)state;
    tv_vm *vm = engine(false, 1, 0);
    const char *text = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n"
                       "DCL OUT[1], GENERIC[0]\nMOV OUT[0], IN[0]\nMOV OUT[1].xw, IN[1].zzzx\nEND\n";
    enum { N = 100 };
    static float v[N][8];
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 8; k++)
            v[i][k] = (float)(i * 8 + k);
    static uint32_t o0[N][4], o1[N][4];
    tv_vm_vertex_params vp;
    memset(&vp, 0, sizeof vp);
    vp.count = N;
    vp.attribs[0] = (tv_vm_vertex_array){v, sizeof v, 0, 32, 4, false, 0};
    vp.attribs[1] = (tv_vm_vertex_array){v, sizeof v, 16, 32, 4, false, 0};
    vp.out[0] = &o0[0][0];
    vp.out[1] = &o1[0][0];
    tv_vm_program *p = program(vm, text);
    tv_vm_stats st;
    tv_error err;
    assert_int_equal(tv_vm_run_vertex(vm, p, NULL, &vp, &st, &err), TV_OK);
    for (int i = 0; i < N; i++) {
        for (int c = 0; c < 4; c++)
            assert_true(tv_bits_f32(o0[i][c]) == v[i][c]);
        assert_true(tv_bits_f32(o1[i][0]) == v[i][6] && tv_bits_f32(o1[i][3]) == v[i][4]);
        assert_true(o1[i][1] == 0 && o1[i][2] == 0);
    }
    assert_int_equal(st.warps, 4);
    assert_int_equal(st.invocations, N);
    assert_int_equal(vm_vert_copied(vm), 3);   /* the first warp ran in the engine */
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* Programs that are copies and programs that are not. */
static void t_which(void **state)
{
    (void)state;
    tv_vm *vm = engine(false, 1, 0), *plain = engine(true, 1, 0);
    static const struct {
        bool copy;
        const char *text;
    } cases[] = {
        {true, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n"},
        {true, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nEND\n"},
        {true, "VERT\nDCL IN[0..1]\nDCL OUT[0], POSITION\nMOV OUT[0].x, IN[1].yyyy\n"
               "MOV OUT[0].x, IN[0].wwww\nEND\n"},
        {false, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV_SAT OUT[0], IN[0]\nEND\n"},
        {false, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], -IN[0]\nEND\n"},
        {false, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], |IN[0]|\nEND\n"},
        {false, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0]\nMOV TEMP[0], IN[0]\n"
                "MOV OUT[0], TEMP[0]\nEND\n"},
        {false, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nIMM[0] FLT32 {1, 2, 3, 4}\n"
                "MOV OUT[0], IMM[0]\nEND\n"},
        {false, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nADD OUT[0], IN[0], IN[0]\nEND\n"},
        {false, "VERT\nDCL SV[0], VERTEXID\nDCL OUT[0], POSITION\nMOV OUT[0], SV[0]\nEND\n"},
        {false, "VERT\nDCL IN[0]\nDCL OUT[0..1], GENERIC[0]\nDCL ADDR[0]\n"
                "MOV OUT[ADDR[0].x], IN[0]\nEND\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tv_vm_program *p = program(vm, cases[i].text), *q = program(plain, cases[i].text);
        if (p->vert_copy != cases[i].copy)
            fail_msg("case %zu: copy %d\n%s", i, p->vert_copy, cases[i].text);
        assert_false(q->vert_copy);   /* a plain engine's programs never */
        tv_vm_program_destroy(p);
        tv_vm_program_destroy(q);
    }
    tv_vm_destroy(vm);
    tv_vm_destroy(plain);
}

/* tv_vm_vertex_output_copies_input: the outputs that are an input's x, y, z, w in order. */
static void t_output_copies(void **state)
{
    (void)state;
    tv_vm *vm = engine(false, 1, 0), *plain = engine(true, 1, 0);
    const char *text = "VERT\nDCL IN[0..2]\nDCL OUT[0], POSITION\nDCL OUT[1..6], GENERIC[0]\n"
                       "MOV OUT[0], IN[2]\n"                                  /* yes, 2 */
                       "MOV OUT[1].xy, IN[0]\nMOV OUT[1].zw, IN[0]\n"        /* yes, 0 */
                       "MOV OUT[2].xy, IN[0]\nMOV OUT[2].zw, IN[1]\n"        /* no */
                       "MOV OUT[3], IN[1].xyzx\n"                             /* no */
                       "MOV OUT[4].xyz, IN[1]\n"                              /* no: w 0 */
                       "MOV OUT[5], IN[0]\nMOV OUT[5].y, IN[2].yyyy\n"      /* no */
                       "END\n";
    tv_vm_program *p = program(vm, text), *q = program(plain, text);
    static const int want[8] = {2, 0, -1, -1, -1, -1, -1, -1};
    for (uint32_t r = 0; r < 8; r++) {
        uint32_t e = 99;
        const bool yes = tv_vm_vertex_output_copies_input(p, r, &e);
        if (yes != (want[r] >= 0) || (yes && e != (uint32_t)want[r]))
            fail_msg("OUT[%u]: %d, IN[%u]", r, yes, e);
        assert_false(tv_vm_vertex_output_copies_input(q, r, &e));
    }
    assert_false(tv_vm_vertex_output_copies_input(p, TV_VM_MAX_ATTRIBS, &(uint32_t){0}));
    tv_vm_program_destroy(p);
    tv_vm_program_destroy(q);
    tv_vm_destroy(vm);
    tv_vm_destroy(plain);
}

/* A budget below a warp's instructions fails the run as the engine's warps do. */
static void t_budget(void **state)
{
    (void)state;
    const char *text = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\n"
                       "MOV OUT[0].x, IN[0].yyyy\nEND\n";
    static float v[100][4];
    tv_vm_vertex_params vp;
    memset(&vp, 0, sizeof vp);
    vp.count = 100;
    vp.attribs[0] = (tv_vm_vertex_array){v, sizeof v, 0, 16, 4, false, 0};
    vp.out[0] = (uint32_t *)1;
    static run_out a, b;
    for (uint64_t max = 1; max <= 4; max++) {
        tv_vm *fast = engine(false, 1, max), *slow = engine(false, 1, max);
        vm_vert_copy_set(slow, false);
        run(fast, text, &vp, &a);
        run(slow, text, &vp, &b);
        compare(&a, &b, true, text);
        tv_vm_destroy(fast);
        tv_vm_destroy(slow);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_random),
        cmocka_unit_test(t_interleaved),
        cmocka_unit_test(t_which),
        cmocka_unit_test(t_output_copies),
        cmocka_unit_test(t_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
