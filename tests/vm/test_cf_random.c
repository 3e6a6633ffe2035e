/* Randomised differential test of control flow: structured programs (IF/ELSE, loops with
 * BRK/CONT, SWITCH with CASE/DEFAULT/fallthrough/BRK, nested to depth 3) are generated,
 * printed as TGSI, run on 40 divergent lanes, and compared lane by lane with a plain
 * scalar C interpretation of the same program tree. This exercises the execution masks,
 * the branch-over and early-exit paths, and the skip targets. */
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

enum { S_ASSIGN, S_IF, S_LOOP, S_BRK, S_CONT, S_SWITCH, S_CALL, S_RET, S_KINDS };
enum { SIG_NONE, SIG_BRK, SIG_CONT, SIG_RET };

typedef struct node node;
struct node {
    int type;
    uint32_t a, b;            /* ASSIGN: x = x * a + b (odd a) ^ lane<<b ; IF: shift, xor */
    int nthen, nelse;
    node *then_[4], *else_[4];
    uint32_t limit;           /* LOOP */
    int depth;                /* LOOP counter register */
    int ncases;
    int case_val[4];          /* -1 = DEFAULT */
    int case_len[4];
    node *case_body[4][3];
    bool case_brk[4];
};

static uint32_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

static node pool[4096];
static int npool;

/* in_loop: a loop encloses; in_switch: the innermost breakable is a switch */
static int g_nsubs;   /* subroutines callable from the program being generated */
static bool g_in_sub;

static node *gen(int level, int loop_depth, bool in_loop, bool in_switch)
{
    node *n = &pool[npool++];
    memset(n, 0, sizeof *n);
    uint32_t r = rnd(100);
    if (level >= 3 || r < 35) {
        n->type = S_ASSIGN;
        n->a = rnd(7) * 2 + 1;
        n->b = rnd(8);
    } else if (r < 55) {
        n->type = S_IF;
        n->a = rnd(6);
        n->b = rnd(1000);
        n->nthen = 1 + (int)rnd(3);
        for (int i = 0; i < n->nthen; i++) n->then_[i] = gen(level + 1, loop_depth, in_loop, in_switch);
        n->nelse = (int)rnd(3);
        for (int i = 0; i < n->nelse; i++) n->else_[i] = gen(level + 1, loop_depth, in_loop, in_switch);
    } else if (r < 70) {
        n->type = S_LOOP;
        n->limit = 1 + rnd(5);
        n->depth = loop_depth;
        n->nthen = 1 + (int)rnd(4);
        for (int i = 0; i < n->nthen; i++) n->then_[i] = gen(level + 1, loop_depth + 1, true, false);
    } else if (r < 78 && in_loop && !in_switch) {
        n->type = S_BRK;
        n->a = rnd(6);
        n->b = rnd(1000);
    } else if (r < 85 && in_loop) {
        n->type = S_CONT;
        n->a = rnd(6);
        n->b = rnd(1000);
    } else if (r < 90 && g_in_sub) {
        n->type = S_RET;
        n->a = rnd(6);
        n->b = rnd(1000);
    } else if (r < 95 && !g_in_sub && g_nsubs) {
        n->type = S_CALL;
        n->a = rnd((uint32_t)g_nsubs);
    } else {
        n->type = S_SWITCH;
        n->ncases = 2 + (int)rnd(3);
        int def = rnd(2) ? (int)rnd((uint32_t)n->ncases) : -1;
        for (int c = 0; c < n->ncases; c++) {
            n->case_val[c] = c == def ? -1 : c;
            n->case_len[c] = (int)rnd(3);
            for (int i = 0; i < n->case_len[c]; i++)
                n->case_body[c][i] = gen(level + 1, loop_depth, in_loop, true);
            n->case_brk[c] = rnd(3) != 0;
        }
    }
    return n;
}

/* ---- scalar reference ---- */
typedef struct { uint32_t x, lane, cnt[8]; } lstate;

static bool cond_of(const lstate *s, uint32_t shift, uint32_t k)
{
    return (((s->x ^ (s->lane * 2654435761u) ^ k) >> shift) & 1u) != 0;
}

static node *subs[2][4];
static int nsub_body[2];

static int exec_list(node **l, int n, lstate *s);
static int exec_node(node *n, lstate *s)
{
    switch (n->type) {
    case S_CALL:
        exec_list(subs[n->a], nsub_body[n->a], s);   /* RET ends the call */
        return SIG_NONE;
    case S_RET:
        return cond_of(s, n->a, n->b) ? SIG_RET : SIG_NONE;
    case S_ASSIGN:
        s->x = (s->x * n->a + 12345u) ^ (s->lane << n->b);
        return SIG_NONE;
    case S_IF:
        if (cond_of(s, n->a, n->b)) return exec_list(n->then_, n->nthen, s);
        return exec_list(n->else_, n->nelse, s);
    case S_BRK:
        return cond_of(s, n->a, n->b) ? SIG_BRK : SIG_NONE;
    case S_CONT:
        return cond_of(s, n->a, n->b) ? SIG_CONT : SIG_NONE;
    case S_LOOP:
        s->cnt[n->depth] = 0;
        for (;;) {
            if (s->cnt[n->depth] >= n->limit) break;
            s->cnt[n->depth]++;
            int sig = exec_list(n->then_, n->nthen, s);
            if (sig == SIG_BRK) break;
            if (sig == SIG_RET) return SIG_RET;
        }
        return SIG_NONE;
    case S_SWITCH: {
        uint32_t sel = (s->x + s->lane) % 4u;
        int start = -1;
        for (int c = 0; c < n->ncases; c++)
            if (n->case_val[c] >= 0 && (uint32_t)n->case_val[c] == sel) { start = c; break; }
        if (start < 0)
            for (int c = 0; c < n->ncases; c++)
                if (n->case_val[c] < 0) { start = c; break; }
        if (start < 0) return SIG_NONE;
        for (int c = start; c < n->ncases; c++) {
            int sig = exec_list(n->case_body[c], n->case_len[c], s);
            if (sig == SIG_BRK) return SIG_NONE;
            if (sig == SIG_CONT || sig == SIG_RET) return sig;
            if (n->case_brk[c]) return SIG_NONE;
        }
        return SIG_NONE;
    }
    }
    return SIG_NONE;
}
static int exec_list(node **l, int n, lstate *s)
{
    for (int i = 0; i < n; i++) {
        int sig = exec_node(l[i], s);
        if (sig != SIG_NONE) return sig;
    }
    return SIG_NONE;
}

/* ---- TGSI printer ---- */
typedef struct { char *buf; size_t len, cap; uint32_t imm[256]; int nimm; } out_t;

static void append(out_t *o, const char *str)
{
    size_t n = strlen(str);
    if (o->len + n + 1 > o->cap) {
        o->cap = (o->cap + n + 1) * 2;
        o->buf = realloc(o->buf, o->cap);
    }
    memcpy(o->buf + o->len, str, n + 1);
    o->len += n;
}

static void emit(out_t *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[256];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    append(o, line);
}
static int imm(out_t *o, uint32_t v)
{
    for (int i = 0; i < o->nimm; i++) if (o->imm[i] == v) return i;
    o->imm[o->nimm] = v;
    return o->nimm++;
}
/* TEMP[9].x = cond as 0/1 */
static void emit_cond(out_t *o, uint32_t shift, uint32_t k)
{
    emit(o, "UMUL TEMP[9].x, TEMP[1].xxxx, IMM[%d].xxxx\n", imm(o, 2654435761u));
    emit(o, "XOR TEMP[9].x, TEMP[9].xxxx, TEMP[0].xxxx\n");
    emit(o, "XOR TEMP[9].x, TEMP[9].xxxx, IMM[%d].xxxx\n", imm(o, k));
    emit(o, "USHR TEMP[9].x, TEMP[9].xxxx, IMM[%d].xxxx\n", imm(o, shift));
    emit(o, "AND TEMP[9].x, TEMP[9].xxxx, IMM[%d].xxxx\n", imm(o, 1));
}
static void print_list(out_t *o, node **l, int n);
static void print_node(out_t *o, node *n)
{
    switch (n->type) {
    case S_CALL:
        emit(o, "CAL :@%u\n", n->a);   /* label patched once the layout is known */
        break;
    case S_RET:
        emit_cond(o, n->a, n->b);
        emit(o, "UIF TEMP[9].xxxx\nRET\nENDIF\n");
        break;
    case S_ASSIGN:
        emit(o, "UMAD TEMP[0].x, TEMP[0].xxxx, IMM[%d].xxxx, IMM[%d].xxxx\n", imm(o, n->a),
             imm(o, 12345u));
        emit(o, "SHL TEMP[8].x, TEMP[1].xxxx, IMM[%d].xxxx\n", imm(o, n->b));
        emit(o, "XOR TEMP[0].x, TEMP[0].xxxx, TEMP[8].xxxx\n");
        break;
    case S_IF:
        emit_cond(o, n->a, n->b);
        emit(o, "UIF TEMP[9].xxxx\n");
        print_list(o, n->then_, n->nthen);
        if (n->nelse) {
            emit(o, "ELSE\n");
            print_list(o, n->else_, n->nelse);
        }
        emit(o, "ENDIF\n");
        break;
    case S_BRK: case S_CONT:
        emit_cond(o, n->a, n->b);
        emit(o, "UIF TEMP[9].xxxx\n%s\nENDIF\n", n->type == S_BRK ? "BRK" : "CONT");
        break;
    case S_LOOP: {
        int c = 2 + n->depth;
        emit(o, "MOV TEMP[%d].x, IMM[%d].xxxx\n", c, imm(o, 0));
        emit(o, "BGNLOOP\n");
        emit(o, "USGE TEMP[9].x, TEMP[%d].xxxx, IMM[%d].xxxx\n", c, imm(o, n->limit));
        emit(o, "UIF TEMP[9].xxxx\nBRK\nENDIF\n");
        emit(o, "UADD TEMP[%d].x, TEMP[%d].xxxx, IMM[%d].xxxx\n", c, c, imm(o, 1));
        print_list(o, n->then_, n->nthen);
        emit(o, "ENDLOOP\n");
        break;
    }
    case S_SWITCH:
        emit(o, "UADD TEMP[9].x, TEMP[0].xxxx, TEMP[1].xxxx\n");
        emit(o, "UMOD TEMP[9].x, TEMP[9].xxxx, IMM[%d].xxxx\n", imm(o, 4));
        emit(o, "SWITCH TEMP[9].xxxx\n");
        for (int c = 0; c < n->ncases; c++) {
            if (n->case_val[c] < 0) emit(o, "DEFAULT\n");
            else emit(o, "CASE IMM[%d].xxxx\n", imm(o, (uint32_t)n->case_val[c]));
            print_list(o, n->case_body[c], n->case_len[c]);
            if (n->case_brk[c]) emit(o, "BRK\n");
        }
        emit(o, "ENDSWITCH\n");
        break;
    }
}
static void print_list(out_t *o, node **l, int n)
{
    for (int i = 0; i < n; i++) print_node(o, l[i]);
}

/* Run `text` (one block of `lanes` threads, BUFFER[0] = out) with an instruction budget,
 * unoptimised and counting per micro-op, or as the engine normally runs. */
static tv_status run_counted(const char *text, uint32_t lanes, uint64_t budget, bool per_uop,
                             uint32_t *out, size_t bytes, tv_vm_stats *stats, tv_error *err)
{
    tv_vm *vm = tv_vm_create(&(tv_vm_config){.threads = 1, .limits = {.max_instructions = budget},
                                             .plain = per_uop},
                             NULL);
    memset(err, 0, sizeof *err);
    memset(stats, 0, sizeof *stats);
    memset(out, 0, bytes);
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "counted", err);
    tv_status st = p ? TV_OK : err->code;
    if (p)
        st = hv_run_group(vm, p, lanes, out, bytes, stats, err);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return st;
}

/* The engine runs an optimised program (copy propagation, vm_lower_copy.c) and counts
 * executed instructions once per run of micro-ops (vm_lower.c count_runs). The reference
 * is the unoptimised program counted one micro-op at a time: the results, statistics,
 * CLOCK (which reads the count) and the instruction budget (where it trips, and its
 * message) must be the same. `text` ends with "...STORE ...\nEND\n"; a CLOCK is added
 * into the stored value. */
static void check_counts(uint32_t seed, const char *text, uint32_t lanes)
{
    const char *end = strstr(text, "UMUL TEMP[9].x, TEMP[1].xxxx");
    assert_non_null(end);
    size_t head = (size_t)(end - text);
    const char *clock = "CLOCK TEMP[8].xy\nXOR TEMP[0].x, TEMP[0].xxxx, TEMP[8].xxxx\n";
    char *t = malloc(strlen(text) + strlen(clock) + 1);
    assert_non_null(t);
    memcpy(t, text, head);
    strcpy(t + head, clock);
    strcat(t, end);
    /* the subroutines (after END) moved down by the two instructions: relabel the CALs */
    size_t cap = strlen(t) + 64, n = 0;
    char *r = malloc(cap);
    assert_non_null(r);
    for (const char *q = t; *q;) {
        if (!strncmp(q, "CAL :", 5)) {
            char *e;
            unsigned long lab = strtoul(q + 5, &e, 10);
            if (n + 32 > cap) { cap *= 2; r = realloc(r, cap); assert_non_null(r); }
            n += (size_t)snprintf(r + n, cap - n, "CAL :%lu", lab + 2);
            q = e;
            continue;
        }
        if (n + 2 > cap) { cap *= 2; r = realloc(r, cap); assert_non_null(r); }
        r[n++] = *q++;
    }
    r[n] = 0;
    free(t);
    t = r;
    uint32_t a[64], b[64];
    tv_vm_stats sa, sb;
    tv_error ea, eb;
    tv_status ra = run_counted(t, lanes, 0, true, a, sizeof a, &sa, &ea);
    tv_status rb = run_counted(t, lanes, 0, false, b, sizeof b, &sb, &eb);
    if (ra != TV_OK || rb != TV_OK)
        fail_msg("seed %u: %s / %s\n%s", seed, ea.message, eb.message, t);
    /* the optimised program may run fewer micro-ops (copies removed), never more */
    if (sa.instructions != sb.instructions || sb.uops > sa.uops || memcmp(a, b, sizeof a))
        fail_msg("seed %u: per micro-op %llu insns %llu uops, per run %llu insns %llu uops%s",
                 seed, (unsigned long long)sa.instructions, (unsigned long long)sa.uops,
                 (unsigned long long)sb.instructions, (unsigned long long)sb.uops,
                 memcmp(a, b, sizeof a) ? ", CLOCK results differ" : "");
    /* budgets below the program's count trip at the same micro-op with the same message */
    uint64_t budgets[3] = {sa.instructions / 2 + 1, sa.instructions / 5 + 1, sa.instructions - 1};
    for (unsigned k = 0; k < 3; k++) {
        if (budgets[k] == 0)
            continue;
        ra = run_counted(t, lanes, budgets[k], true, a, sizeof a, &sa, &ea);
        rb = run_counted(t, lanes, budgets[k], false, b, sizeof b, &sb, &eb);
        if (ra != rb || strcmp(ea.message, eb.message) != 0 || memcmp(a, b, sizeof a))
            fail_msg("seed %u budget %llu: per micro-op %d \"%s\", per run %d \"%s\"", seed,
                     (unsigned long long)budgets[k], (int)ra, ea.message, (int)rb, eb.message);
    }
    free(t);
}

static void t_random_cf(void **s)
{
    (void)s;
    enum { LANES = 40, PROGS = 1500 };
    unsigned kinds[S_KINDS] = {0};
    for (uint32_t seed = 1; seed <= PROGS; seed++) {
        rng_state = seed * 7919u;
        npool = 0;
        node *top[6];
        g_nsubs = (int)rnd(3);
        g_in_sub = true;
        for (int k = 0; k < g_nsubs; k++) {
            nsub_body[k] = 1 + (int)rnd(4);
            /* subroutine loops count in TEMP[5..7], the caller's in TEMP[2..4] */
            for (int i = 0; i < nsub_body[k]; i++) subs[k][i] = gen(0, 3, false, false);
        }
        g_in_sub = false;
        int ntop = 2 + (int)rnd(4);
        for (int i = 0; i < ntop; i++) top[i] = gen(0, 0, false, false);
        for (int i = 0; i < npool; i++) kinds[pool[i].type]++;
        out_t body = {0}, full = {0}, subtext[2] = {{0}};
        print_list(&body, top, ntop);
        for (int k = 0; k < g_nsubs; k++) {
            subtext[k].nimm = body.nimm;
            memcpy(subtext[k].imm, body.imm, sizeof body.imm);
            print_list(&subtext[k], subs[k], nsub_body[k]);
            body.nimm = subtext[k].nimm;
            memcpy(body.imm, subtext[k].imm, sizeof body.imm);
        }
        emit(&full, "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..9]\n");
        int four = imm(&body, 4);
        for (int i = 0; i < body.nimm; i++)
            emit(&full, "IMM[%d] UINT32 {%u, 0, 0, 0}\n", i, body.imm[i]);
        emit(&full, "MOV TEMP[1].x, SV[0].xxxx\nUMUL TEMP[0].x, SV[0].xxxx, IMM[%d].xxxx\n", four);
        append(&full, body.buf ? body.buf : "");
        emit(&full, "UMUL TEMP[9].x, TEMP[1].xxxx, IMM[%d].xxxx\n"
                    "STORE BUFFER[0].x, TEMP[9].xxxx, TEMP[0].xxxx\nEND\n", four);
        /* subroutines after END; labels are instruction numbers */
        unsigned label[2] = {0, 0}, count = 0;
        for (const char *q = full.buf; *q; q++)
            if (*q == '\n') count++;
        count -= 4 + (unsigned)body.nimm;   /* COMP and 3 DCL lines, IMM lines */
        for (int k = 0; k < g_nsubs; k++) {
            label[k] = count;
            append(&full, "BGNSUB\n");
            append(&full, subtext[k].buf ? subtext[k].buf : "");
            append(&full, "ENDSUB\n");
            count += 2;
            for (const char *q = subtext[k].buf ? subtext[k].buf : ""; *q; q++)
                if (*q == '\n') count++;
            free(subtext[k].buf);
        }
        for (char *q = strstr(full.buf, ":@"); q; q = strstr(q, ":@")) {
            char num[16];
            int k = q[2] - '0';
            int w = snprintf(num, sizeof num, "%u", label[k]);
            /* ":@k" (3 chars) becomes ":" + number: shift the rest */
            size_t rest = strlen(q + 3);
            if ((size_t)w + 1 > 3) {
                full.buf = realloc(full.buf, strlen(full.buf) + (size_t)w + 2);
                q = strstr(full.buf, ":@");
            }
            memmove(q + 1 + w, q + 3, rest + 1);
            memcpy(q + 1, num, (size_t)w);
        }
        uint32_t got[LANES];
        memset(got, 0, sizeof got);
        uint32_t block[3] = {LANES, 1, 1};
        tv_error err;
        if (hv_compute(full.buf, NULL, block, got, sizeof got, &err) != TV_OK)
            fail_msg("seed %u: %s\n%s", seed, err.message, full.buf);
        if (seed % 5 == 0)
            check_counts(seed, full.buf, LANES);
        for (uint32_t l = 0; l < LANES; l++) {
            lstate st;
            memset(&st, 0, sizeof st);
            st.lane = l;
            st.x = l * 4u;
            exec_list(top, ntop, &st);
            if (got[l] != st.x)
                fail_msg("seed %u lane %u: got 0x%x want 0x%x\n%s", seed, l, got[l], st.x,
                         full.buf);
        }
        free(body.buf);
        free(full.buf);
    }
    printf("nodes: %u assign, %u if, %u loop, %u brk, %u cont, %u switch, %u cal, %u ret\n",
           kinds[S_ASSIGN], kinds[S_IF], kinds[S_LOOP], kinds[S_BRK], kinds[S_CONT],
           kinds[S_SWITCH], kinds[S_CALL], kinds[S_RET]);
    /* the generator must reach every construct */
    for (int k = 0; k < S_KINDS; k++) assert_true(kinds[k] > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_random_cf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
