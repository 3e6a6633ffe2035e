/* The memory micro-ops' warp path (LOAD/STORE/atomics on an untyped resource the same for
 * every lane, bounds checked once per micro-op) against the general lane-by-lane path
 * (vm_mem_set_warp_path(vm, false) on the helper's engines): random programs, addresses in and out of range,
 * unaligned, shared by lanes, partial execution masks, every writemask; every word of
 * memory, shared memory and results must be bit-identical. Also the compute system
 * values (thread ids stepped without divisions) for odd block shapes, against ids
 * computed here from the definition. */
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"
#include "vm/vm_mem.h"
#include "common_rng.h"

#define BLOCK 40            /* warp 0 full, warp 1 with 8 lanes */
#define GRID 2
#define THREADS (BLOCK * GRID)

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    return (uint32_t)(tc_rng_next64(&rng) >> 16);
}

static const char *const ops[] = {
    "LOAD", "STORE", "ATOMUADD", "ATOMXCHG", "ATOMCAS", "ATOMAND", "ATOMOR", "ATOMXOR",
    "ATOMUMIN", "ATOMUMAX", "ATOMIMIN", "ATOMIMAX", "ATOMFADD", "ATOMINC_WRAP",
    "ATOMDEC_WRAP",
};

/* One random case: op on BUFFER[0] or MEMORY[0] (shared) at per-thread address P.x,
 * value P.y, compare P.w, under UIF P.z; results and shared memory copied out. */
typedef struct {
    char text[2048];
    uint32_t data_bytes, shared_bytes;
    unsigned kept;           /* result channels the instruction does not write */
    uint32_t data[64], params[THREADS * 4];
} mem_case;

static void wm_str(unsigned wm, char *s)
{
    int n = 0;
    s[n++] = '.';
    for (unsigned c = 0; c < 4; c++)
        if (wm & (1u << c)) s[n++] = "xyzw"[c];
    s[n] = 0;
}

/* Addresses: all lanes in range (aligned or not), one lane or a few out of range (just
 * past the end, wrapping, huge), or one address for every lane. */
static uint32_t pick_addr(unsigned mode, uint32_t size, uint32_t t)
{
    uint32_t room = size > 16 ? size - 16 : 1;
    switch (mode) {
    case 0: return 4u * (rnd() % (room / 4 + 1));
    case 1: return rnd() % room;
    case 2: return (t == 7 || t == 33) ? size - 4 + rnd() % 8 : 4u * (rnd() % (room / 4 + 1));
    case 3: return (t % 13 == 5) ? 0xfffffff0u + rnd() % 16 : rnd() % room;
    case 4: return 8;
    default: return size - 4u * (1 + rnd() % 4);   /* the last words: top components out */
    }
}

static void make_case(mem_case *c)
{
    bool shared = rnd() & 1u;
    const char *op = ops[rnd() % (sizeof ops / sizeof ops[0])];
    bool store = !strcmp(op, "STORE"), cas = !strcmp(op, "ATOMCAS");
    c->data_bytes = 64 + rnd() % 190;          /* not always a whole number of words */
    c->shared_bytes = 64 + 4 * (rnd() % 30);
    for (unsigned i = 0; i < 64; i++) c->data[i] = rnd();
    unsigned mode = rnd() % 6, cond = rnd() % 3;
    uint32_t size = shared ? c->shared_bytes : c->data_bytes;
    for (uint32_t t = 0; t < THREADS; t++) {
        uint32_t *p = &c->params[t * 4];
        p[0] = pick_addr(mode, size, t);
        p[1] = (rnd() & 3u) ? rnd() % 50 : rnd();
        p[2] = cond == 0 ? 1u : cond == 1 ? (rnd() & 1u) : (t % 32 < 3);
        p[3] = (rnd() & 1u) ? c->data[(p[0] / 4) % 64] : rnd() % 50;
    }
    unsigned wm = 1 + rnd() % 15;
    c->kept = store ? 0xfu : 0xfu & ~wm;
    char w[8], mem[16];
    wm_str(wm, w);
    snprintf(mem, sizeof mem, "%s", shared ? "MEMORY[0]" : "BUFFER[0]");
    char insn[160];
    if (store)
        snprintf(insn, sizeof insn, "STORE %s%s, TEMP[0].xxxx, TEMP[0].yzwx\n", mem, w);
    else if (cas)
        snprintf(insn, sizeof insn, "ATOMCAS TEMP[1]%s, %s, TEMP[0].xxxx, TEMP[0].wwww, "
                 "TEMP[0].yyyy\n", w, mem);
    else if (!strcmp(op, "LOAD"))
        snprintf(insn, sizeof insn, "LOAD TEMP[1]%s, %s, TEMP[0].xxxx\n", w, mem);
    else
        snprintf(insn, sizeof insn, "%s TEMP[1]%s, %s, TEMP[0].xxxx, TEMP[0].yyyy\n", op, w,
                 mem);
    /* shared memory starts at zero: fill it from BUFFER[0] first so loads see data */
    snprintf(c->text, sizeof c->text,
             "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH %d\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
             "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
             "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\n"
             "DCL BUFFER[2]\nDCL BUFFER[3]\nDCL MEMORY[0], SHARED\nDCL TEMP[0..4]\n"
             "IMM[0] UINT32 {%d, 16, 0, 3735928559}\n"
             "UMAD TEMP[2].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx\n"
             "UMUL TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy\n"
             "UMUL TEMP[3].x, SV[0].xxxx, IMM[0].yyyy\n"
             "LOAD TEMP[4], BUFFER[0], TEMP[3].xxxx\n"
             "STORE MEMORY[0], TEMP[3].xxxx, TEMP[4]\n"
             "BARRIER\n"
             "LOAD TEMP[0], BUFFER[1], TEMP[2].xxxx\n"
             "MOV TEMP[1], IMM[0].wwww\n"
             "UIF TEMP[0].zzzz\n%sENDIF\n"
             "BARRIER\n"
             "STORE BUFFER[2], TEMP[2].xxxx, TEMP[1]\n"
             "LOAD TEMP[4], MEMORY[0], TEMP[3].xxxx\n"
             "STORE BUFFER[3], TEMP[2].xxxx, TEMP[4]\n"
             "END\n", BLOCK, BLOCK, insn);
}

typedef struct {
    uint32_t data[64], results[THREADS * 4], shared[THREADS * 4];
} mem_out;

static void run_case(const mem_case *c, bool warp, mem_out *o)
{
    memcpy(o->data, c->data, sizeof o->data);
    memset(o->results, 0xee, sizeof o->results);
    memset(o->shared, 0xee, sizeof o->shared);
    uint32_t params[THREADS * 4];
    memcpy(params, c->params, sizeof params);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){o->data, c->data_bytes};
    b.buffers[1] = (tv_vm_buffer){params, sizeof params};
    b.buffers[2] = (tv_vm_buffer){o->results, sizeof o->results};
    b.buffers[3] = (tv_vm_buffer){o->shared, sizeof o->shared};
    b.shared_bytes = c->shared_bytes;
    uint32_t grid[3] = {GRID, 1, 1};
    hv_mem_warp_path = warp;
    tv_error err;
    tv_status st = hv_compute_b(c->text, grid, NULL, &b, &err);
    hv_mem_warp_path = true;
    if (st != TV_OK) fail_msg("%s\n%s", err.message, c->text);
}

static void t_warp_path_random(void **s)
{
    (void)s;
    mem_case *c = malloc(sizeof *c);
    mem_out *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    for (unsigned i = 0; i < 600; i++) {
        make_case(c);
        run_case(c, true, a);
        run_case(c, false, b);
        /* lanes outside the UIF and unwritten channels keep the old value */
        for (uint32_t t = 0; t < THREADS; t++)
            for (unsigned k = 0; k < 4; k++)
                if (!c->params[t * 4 + 2] || ((c->kept >> k) & 1u))
                    assert_int_equal(a->results[t * 4 + k], 0xdeadbeefu);
        if (memcmp(a, b, sizeof *a)) {
            print_message("case %u:\n%s", i, c->text);
            assert_memory_equal(a->data, b->data, sizeof a->data);
            assert_memory_equal(a->results, b->results, sizeof a->results);
            assert_memory_equal(a->shared, b->shared, sizeof a->shared);
        }
    }
    free(c); free(a); free(b);
}

/* Out of range with the warp path on: the documented rule (docs/vm-semantics.md §2), by
 * hand. A 3-component load whose last lanes run past the end; a store likewise; an atomic
 * at the last word and one past it. */
static void t_warp_path_bounds(void **s)
{
    (void)s;
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\nDCL BUFFER[2]\n"
        "DCL TEMP[0..3]\nIMM[0] UINT32 {4, 16, 100, 1}\n"
        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "UMUL TEMP[2].x, SV[0].xxxx, IMM[0].yyyy\n"
        "LOAD TEMP[1].xyz, BUFFER[0], TEMP[0].xxxx\n"
        "STORE BUFFER[1], TEMP[2].xxxx, TEMP[1]\n"
        "STORE BUFFER[0].xy, TEMP[0].xxxx, IMM[0].zzzz\n"
        "ATOMUADD TEMP[3].x, BUFFER[2], TEMP[0].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[1].w, TEMP[2].xxxx, TEMP[3].xxxx\n"
        "END\n";
    uint32_t in[12], out[32 * 4], cnt[4] = {7, 8, 9, 10};
    for (uint32_t i = 0; i < 12; i++) in[i] = 0x100u + i;
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){in, 10 * 4};    /* words 10, 11: guard */
    b.buffers[1] = (tv_vm_buffer){out, sizeof out};
    b.buffers[2] = (tv_vm_buffer){cnt, 3 * 4};    /* word 3: guard */
    uint32_t block[3] = {32, 1, 1};
    tv_error err;
    if (hv_compute_b(text, NULL, block, &b, &err) != TV_OK) fail_msg("%s", err.message);
    for (uint32_t t = 0; t < 32; t++) {
        for (uint32_t c = 0; c < 3; c++)
            assert_int_equal(out[t * 4 + c], t + c < 10 ? 0x100u + t + c : 0u);
        assert_int_equal(out[t * 4 + 3], t < 3 ? 7u + t : 0u);
    }
    /* word i was stored by thread i (.x) and i - 1 (.y): 100 when either was in range */
    for (uint32_t i = 0; i < 10; i++) assert_int_equal(in[i], 100u);
    assert_int_equal(in[10], 0x10au);
    assert_int_equal(in[11], 0x10bu);
    assert_int_equal(cnt[0], 8); assert_int_equal(cnt[1], 9); assert_int_equal(cnt[2], 10);
    assert_int_equal(cnt[3], 10);
}

/* THREAD_ID, BLOCK_ID, BLOCK_SIZE, GRID_SIZE and the subgroup values for block shapes
 * whose rows and layers cross warp boundaries; 12 blocks on one worker (a worker's later
 * blocks rewrite only BLOCK_ID) and on two. */
static void check_system_values(void)
{
    static const uint32_t shapes[][3] = {
        {5, 3, 7}, {33, 1, 1}, {1, 40, 1}, {3, 1, 12}, {64, 1, 1}, {2, 2, 9}, {31, 2, 1},
    };
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL SV[2], BLOCK_SIZE\n"
        "DCL SV[3], GRID_SIZE\nDCL SV[4], SUBGROUP_INVOCATION\nDCL SV[5], SUBGROUP_EQ_MASK\n"
        "DCL SV[6], SUBGROUP_GE_MASK\nDCL SV[7], SUBGROUP_GT_MASK\nDCL SV[8], SUBGROUP_LE_MASK\n"
        "DCL SV[9], SUBGROUP_LT_MASK\nDCL BUFFER[0]\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {64, 16, 0, 0}\n"
        /* linear thread li = x + bx * (y + by * z), block lb = bx' + gx * (by' + gy * bz') */
        "UMAD TEMP[0].x, SV[2].yyyy, SV[0].zzzz, SV[0].yyyy\n"
        "UMAD TEMP[0].x, SV[2].xxxx, TEMP[0].xxxx, SV[0].xxxx\n"
        "UMAD TEMP[0].y, SV[3].yyyy, SV[1].zzzz, SV[1].yyyy\n"
        "UMAD TEMP[0].y, SV[3].xxxx, TEMP[0].yyyy, SV[1].xxxx\n"
        "UMUL TEMP[0].z, SV[2].xxxx, SV[2].yyyy\n"
        "UMUL TEMP[0].z, TEMP[0].zzzz, SV[2].zzzz\n"
        "UMAD TEMP[0].x, TEMP[0].yyyy, TEMP[0].zzzz, TEMP[0].xxxx\n"
        "UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
        "STORE BUFFER[0], TEMP[0].xxxx, SV[0]\n"
        "UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "STORE BUFFER[0], TEMP[0].xxxx, SV[1]\n"
        "UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "MOV TEMP[1].x, SV[4].xxxx\nMOV TEMP[1].y, SV[5].xxxx\nMOV TEMP[1].z, SV[6].xxxx\n"
        "MOV TEMP[1].w, SV[7].xxxx\n"
        "STORE BUFFER[0], TEMP[0].xxxx, TEMP[1]\n"
        "UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "MOV TEMP[1].x, SV[8].xxxx\nMOV TEMP[1].y, SV[9].xxxx\nMOV TEMP[1].z, SV[2].zzzz\n"
        "MOV TEMP[1].w, SV[3].yyyy\n"
        "STORE BUFFER[0], TEMP[0].xxxx, TEMP[1]\n"
        "END\n";
    for (unsigned k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const uint32_t *bs = shapes[k];
        uint32_t grid[3] = {2, 3, 2};
        uint32_t n = bs[0] * bs[1] * bs[2], blocks = 12;
        size_t words = (size_t)n * blocks * 16;
        uint32_t *buf = calloc(words, 4);
        tv_error err;
        if (hv_compute(text, grid, (uint32_t *)bs, buf, words * 4, &err) != TV_OK)
            fail_msg("%s", err.message);
        for (uint32_t bz = 0; bz < 2; bz++)
            for (uint32_t by = 0; by < 3; by++)
                for (uint32_t bx = 0; bx < 2; bx++)
                    for (uint32_t li = 0; li < n; li++) {
                        uint32_t lb = bx + 2 * (by + 3 * bz);
                        const uint32_t *r = &buf[((size_t)lb * n + li) * 16];
                        uint32_t x = li % bs[0], y = (li / bs[0]) % bs[1];
                        uint32_t z = li / (bs[0] * bs[1]), lane = li % 32;
                        uint32_t want[16] = {
                            x, y, z, 0, bx, by, bz, 0,
                            lane, 1u << lane, ~0u << lane,
                            lane == 31 ? 0u : ~0u << (lane + 1),
                            lane == 31 ? ~0u : (1u << (lane + 1)) - 1u, (1u << lane) - 1u,
                            bs[2], 3,
                        };
                        for (unsigned i = 0; i < 16; i++)
                            if (r[i] != want[i])
                                fail_msg("block %ux%ux%u, block (%u,%u,%u), thread %u, word "
                                         "%u: %#x, want %#x", bs[0], bs[1], bs[2], bx, by, bz,
                                         li, i, r[i], want[i]);
                    }
        free(buf);
    }
}

static void t_system_values(void **s)
{
    (void)s;
    check_system_values();
    uint32_t save = hv_threads;
    hv_threads = 2;
    check_system_values();
    hv_threads = save;
}

/* Every block starts from zeroed TEMP registers, also on a worker's later blocks (which
 * keep their system-value registers): each thread adds 1 to a TEMP it never wrote
 * before and stores it. */
static void t_registers_zeroed(void **s)
{
    (void)s;
    const char *text =
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 40\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
        "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
        "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL TEMP[0..2]\n"
        "IMM[0] UINT32 {40, 4, 1, 7}\n"
        "UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz\n"
        "UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx\n"
        "UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"
        "MOV TEMP[1].x, IMM[0].wwww\nMOV TEMP[2], IMM[0].wwww\n"
        "END\n";
    uint32_t buf[5 * 40];
    memset(buf, 0xee, sizeof buf);
    uint32_t grid[3] = {5, 1, 1};
    tv_error err;
    if (hv_compute(text, grid, NULL, buf, sizeof buf, &err) != TV_OK) fail_msg("%s", err.message);
    for (uint32_t i = 0; i < 5 * 40; i++)
        assert_int_equal(buf[i], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_warp_path_random), cmocka_unit_test(t_warp_path_bounds),
        cmocka_unit_test(t_system_values), cmocka_unit_test(t_registers_zeroed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
