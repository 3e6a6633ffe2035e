/* The random TGSI program generator of the translation-validation tests (tvcheck.h).
 *
 * Programs are built so that they always validate and always terminate: registers are
 * declared up front (TEMP[0..15]: 0..7 values, 8 scratch, 9 condition, 10..12 loop
 * counters, 13 switch selector, 14 a fresh temporary written and read within one statement
 * as compilers' SSA temporaries are — the copy coalescing's food), every loop counts in its own register and breaks at a
 * bound, subroutines do not call, indirect indices are masked into range. Values are
 * arbitrary bits: integer ops read float bits and the other way round, so NaNs, infinities
 * and denormals appear; comparisons are bit for bit, so that does not matter. */
#include "tvcheck.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common_rng.h"

const char *const tvg_kind_names[TVG_KINDS] = {
    "alu", "partial mask", "swizzle", "modifier", "IF", "UIF", "ELSE", "loop", "BRK",
    "CONT", "SWITCH", "subroutine", "indirect TEMP", "indirect CONST", "KILL", "texture",
    "fresh temp", "output write", "FRAG", "COMP"};

void tvg_seed(tvg_src *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->state = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    if (!s->state)
        s->state = 1;
}

void tvg_bytes(tvg_src *s, const uint8_t *data, size_t len)
{
    tvg_seed(s, len);
    s->bytes = data;
    s->len = len;
}

/* A number in [0, n). */
static uint32_t pick(tvg_src *s, uint32_t n)
{
    if (n <= 1)
        return 0;
    if (s->pos < s->len)
        return s->bytes[s->pos++] % n;
    return (uint32_t)(tc_rng_next64(&s->state) >> 32) % n;
}

/* ---- text buffer ---------------------------------------------------------------------- */

typedef struct gbuf {
    char *p;
    size_t len, cap;
    uint32_t lines;   /* instructions (one per line) */
    bool oom;
} gbuf;

static void put(gbuf *b, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || b->oom)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, line, (size_t)n + 1);
    b->len += (size_t)n;
    for (int i = 0; i < n; i++)
        b->lines += line[i] == '\n';
}

/* ---- the generator -------------------------------------------------------------------- */

enum { NVAL = 8, T_SCR = 8, T_COND = 9, T_LOOP0 = 10, T_SEL = 13, T_FRESH = 14, NCONST = 16,
       NIMM = 12,
       MAX_DEPTH = 3, MAX_LOOP_DEPTH = 3, MAX_SUBS = 2 };

typedef struct gen {
    tvg_src *s;
    gbuf *b;
    tvg_stats *st;
    bool frag;
    bool in_sub;
    int nsubs;
    int loop_depth;
    int breakable;     /* innermost loop/switch: 0 none, 1 loop, 2 switch */
    uint32_t budget;   /* statements left */
} gen;

static void count(gen *G, int kind)
{
    if (G->st)
        G->st->count[kind]++;
}

static const char chan[4] = {'x', 'y', 'z', 'w'};

/* A swizzle suffix: identity (no suffix) half the time. */
static void swizzle(gen *G, char out[6])
{
    if (pick(G->s, 2)) {
        out[0] = 0;
        return;
    }
    count(G, TVG_SWIZZLE);
    out[0] = '.';
    for (int i = 0; i < 4; i++)
        out[1 + i] = chan[pick(G->s, 4)];
    out[5] = 0;
}

/* A write mask: full half the time, else a random non-empty subset. */
static void wmask(gen *G, char out[6])
{
    if (pick(G->s, 2)) {
        out[0] = 0;
        return;
    }
    count(G, TVG_PARTIAL_MASK);
    unsigned m = 1 + pick(G->s, 15);
    int k = 0;
    out[k++] = '.';
    for (int i = 0; i < 4; i++)
        if (m & (1u << i))
            out[k++] = chan[i];
    out[k] = 0;
}

/* A source operand; `fmods`: float modifiers allowed. */
static void source(gen *G, char *out, size_t size, bool fmods)
{
    char sw[6];
    swizzle(G, sw);
    char reg[48];
    switch (pick(G->s, 8)) {
    case 0: snprintf(reg, sizeof reg, "IMM[%u]", pick(G->s, NIMM)); break;
    case 1: snprintf(reg, sizeof reg, "CONST[0][%u]", pick(G->s, NCONST)); break;
    case 2:
        if (G->frag) {
            snprintf(reg, sizeof reg, "IN[%u]", pick(G->s, 4));
            break;
        }
        /* fall through */
    default: snprintf(reg, sizeof reg, "TEMP[%u]", pick(G->s, NVAL)); break;
    }
    const char *neg = "", *abs1 = "", *abs2 = "";
    if (fmods && !pick(G->s, 5)) {
        count(G, TVG_MODIFIER);
        unsigned m = pick(G->s, 3);
        if (m != 1) neg = "-";
        if (m != 0) { abs1 = "|"; abs2 = "|"; }
    }
    snprintf(out, size, "%s%s%s%s%s", neg, abs1, reg, sw, abs2);
}

typedef struct opdef {
    const char *name;
    uint8_t nsrc;
    bool fl;      /* float: source modifiers and _SAT allowed */
} opdef;

static const opdef ops[] = {
    {"MOV", 1, true},  {"ADD", 2, true},  {"MUL", 2, true},
    {"MAD", 3, true},  {"MIN", 2, true},  {"MAX", 2, true},
    {"SLT", 2, true},  {"SGE", 2, true},  {"SEQ", 2, true},
    {"SNE", 2, true},  {"FRC", 1, true},  {"FLR", 1, true},
    {"ROUND", 1, true},{"CEIL", 1, true}, {"TRUNC", 1, true},
    {"LRP", 3, true},  {"CMP", 3, true},  {"DP2", 2, true},
    {"DP3", 2, true},  {"DP4", 2, true},  {"RCP", 1, true},
    {"RSQ", 1, true},   {"EX2", 1, true},   {"LG2", 1, true},
    {"SIN", 1, true},   {"COS", 1, true},   {"SQRT", 1, true},
    {"POW", 2, true},   {"DIV", 2, true},  {"FSLT", 2, true},
    {"FSGE", 2, true}, {"FSEQ", 2, true}, {"SSG", 1, true},
    {"F2I", 1, true},  {"F2U", 1, true},  {"I2F", 1, false},
    {"U2F", 1, false}, {"UADD", 2, false},{"UMUL", 2, false},
    {"UMAD", 3, false},{"AND", 2, false}, {"OR", 2, false},
    {"XOR", 2, false}, {"NOT", 1, false}, {"SHL", 2, false},
    {"USHR", 2, false},{"ISHR", 2, false},{"IMAX", 2, false},
    {"UMIN", 2, false},{"USLT", 2, false},{"ISGE", 2, false},
    {"USEQ", 2, false},{"UCMP", 3, false},{"IMUL_HI", 2, false},
    {"UMUL_HI", 2, false}, {"BREV", 1, false}, {"POPC", 1, false},
    {"INEG", 1, false},{"IABS", 1, false},{"ISSG", 1, false},
};

/* FRAG only: derivatives read the other lanes of the quad, inactive ones included (they
 * found the unmasked-store and propagation bugs of tv.test_tv_regress's
 * t_unmasked_store_seen_by_derivative). */
static const opdef frag_ops[] = {
    {"DDX", 1, true}, {"DDY", 1, true}, {"DDX_FINE", 1, true},
    {"DDY_FINE", 1, true},
};

static const opdef *pick_op(gen *G)
{
    if (G->frag && !pick(G->s, 8))
        return &frag_ops[pick(G->s, sizeof frag_ops / sizeof frag_ops[0])];
    return &ops[pick(G->s, sizeof ops / sizeof ops[0])];
}

static void stmt_list(gen *G, int depth, unsigned n);

/* One ALU instruction, now and then with an indirect destination or source. */
static void alu(gen *G)
{
    count(G, TVG_ALU);
    const opdef *o = pick_op(G);
    char wm[6];
    wmask(G, wm);
    bool sat = o->fl && !pick(G->s, 8);
    char src[3][96];
    for (unsigned i = 0; i < o->nsrc; i++)
        source(G, src[i], sizeof src[i], o->fl);
    char dst[48];
    if (!pick(G->s, 10)) {
        /* ADDR[0].x in 0..3 from a value's bits: TEMP[ADDR[0].x+4] is TEMP[4..7] */
        count(G, TVG_INDIRECT_TEMP);
        put(G->b, "AND TEMP[%d].x, TEMP[%u].xxxx, IMM[7].xxxx\n", T_SCR, pick(G->s, NVAL));
        put(G->b, "UARL ADDR[0].x, TEMP[%d].xxxx\n", T_SCR);
        snprintf(dst, sizeof dst, "TEMP[ADDR[0].x+4]");
        if (!pick(G->s, 2)) {
            char sw[6];
            swizzle(G, sw);
            snprintf(src[0], sizeof src[0], "TEMP[ADDR[0].x+%u]%s", pick(G->s, 5), sw);
        }
    } else if (!pick(G->s, 10)) {
        count(G, TVG_INDIRECT_CONST);
        put(G->b, "AND TEMP[%d].x, TEMP[%u].xxxx, IMM[6].xxxx\n", T_SCR, pick(G->s, NVAL));
        put(G->b, "UARL ADDR[0].x, TEMP[%d].xxxx\n", T_SCR);
        char sw[6];
        swizzle(G, sw);
        snprintf(src[0], sizeof src[0], "CONST[0][ADDR[0].x+%u]%s", pick(G->s, 8), sw);
        snprintf(dst, sizeof dst, "TEMP[%u]", pick(G->s, NVAL));
    } else {
        snprintf(dst, sizeof dst, "TEMP[%u]", pick(G->s, NVAL));
    }
    put(G->b, "%s%s %s%s", o->name, sat ? "_SAT" : "", dst, wm);
    for (unsigned i = 0; i < o->nsrc; i++)
        put(G->b, ", %s", src[i]);
    put(G->b, "\n");
}

/* A destination for a value: TEMP[0..7], or in FRAG now and then a colour output. */
static void value_dst(gen *G, char *out, size_t size)
{
    if (G->frag && !pick(G->s, 4)) {
        count(G, TVG_OUTPUT);
        snprintf(out, size, "OUT[%u]", pick(G->s, 2));
    } else {
        snprintf(out, size, "TEMP[%u]", pick(G->s, NVAL));
    }
}

/* A fresh temporary: an ALU result in TEMP[14] read by one to three instructions that
 * follow (copies with swizzles, or ALU ops), then dead. */
static void fresh(gen *G)
{
    count(G, TVG_FRESH);
    const opdef *o = pick_op(G);
    char src[3][96];
    for (unsigned i = 0; i < o->nsrc; i++)
        source(G, src[i], sizeof src[i], o->fl);
    put(G->b, "%s TEMP[%d]", o->name, T_FRESH);
    for (unsigned i = 0; i < o->nsrc; i++)
        put(G->b, ", %s", src[i]);
    put(G->b, "\n");
    unsigned readers = 1 + pick(G->s, 3);
    for (unsigned k = 0; k < readers; k++) {
        char dst[32], wm[6], sw[6];
        value_dst(G, dst, sizeof dst);
        wmask(G, wm);
        swizzle(G, sw);
        if (pick(G->s, 3)) {
            put(G->b, "MOV %s%s, TEMP[%d]%s\n", dst, wm, T_FRESH, sw);
        } else {
            const opdef *q = pick_op(G);
            put(G->b, "%s %s%s, TEMP[%d]%s", q->name, dst, wm, T_FRESH, sw);
            for (unsigned i = 1; i < q->nsrc; i++) {
                source(G, src[0], sizeof src[0], q->fl);
                put(G->b, ", %s", src[0]);
            }
            put(G->b, "\n");
        }
    }
}

/* A texture instruction on SAMP[0..3] (2D targets): TEX/TXB need derivatives (FRAG only),
 * TXL and TXF run in any stage. */
static void tex(gen *G)
{
    count(G, TVG_TEX);
    unsigned sampler = pick(G->s, 4), kind = pick(G->s, G->frag ? 4 : 2);
    unsigned d = pick(G->s, NVAL), c = pick(G->s, NVAL);
    char wm[6];
    wmask(G, wm);
    switch (kind) {
    case 0:
        put(G->b, "TXL TEMP[%u]%s, TEMP[%u], SAMP[%u], 2D\n", d, wm, c, sampler);
        break;
    case 1:
        /* integer texel coordinates from a value's bits, level 0..1 */
        put(G->b, "AND TEMP[%d], TEMP[%u], IMM[5]\n", T_SCR, c);
        put(G->b, "TXF TEMP[%u]%s, TEMP[%d], SAMP[%u], 2D\n", d, wm, T_SCR, sampler);
        break;
    case 2:
        put(G->b, "TEX TEMP[%u]%s, TEMP[%u], SAMP[%u], 2D\n", d, wm, c, sampler);
        break;
    default:
        put(G->b, "TXB TEMP[%u]%s, TEMP[%u], SAMP[%u], 2D\n", d, wm, c, sampler);
        break;
    }
}

/* A divergent condition in TEMP[9].x: a comparison of two values (0 / ~0). */
static void cond(gen *G, bool as_float)
{
    char a[96], b[96];
    source(G, a, sizeof a, true);
    source(G, b, sizeof b, true);
    if (as_float)
        put(G->b, "SLT TEMP[%d].x, %s, %s\n", T_COND, a, b);
    else
        put(G->b, "FSLT TEMP[%d].x, %s, %s\n", T_COND, a, b);
}

static void stmt(gen *G, int depth)
{
    if (!G->budget)
        return;
    G->budget--;
    unsigned r = pick(G->s, 100);
    if (depth >= MAX_DEPTH || r < 50) {
        if (r < 8)
            tex(G);
        else if (r < 24)
            fresh(G);
        else
            alu(G);
        return;
    }
    if (r < 62) {                                          /* IF / UIF [ELSE] */
        bool uif = pick(G->s, 2);
        count(G, uif ? TVG_UIF : TVG_IF);
        cond(G, !uif);
        put(G->b, "%s TEMP[%d].xxxx\n", uif ? "UIF" : "IF", T_COND);
        stmt_list(G, depth + 1, 1 + pick(G->s, 3));
        if (pick(G->s, 2)) {
            count(G, TVG_ELSE);
            put(G->b, "ELSE\n");
            stmt_list(G, depth + 1, 1 + pick(G->s, 3));
        }
        put(G->b, "ENDIF\n");
    } else if (r < 74 && G->loop_depth < MAX_LOOP_DEPTH) { /* bounded loop */
        count(G, TVG_LOOP);
        int c = T_LOOP0 + G->loop_depth;
        put(G->b, "MOV TEMP[%d].x, IMM[0].xxxx\n", c);
        put(G->b, "BGNLOOP\n");
        put(G->b, "UADD TEMP[%d].x, TEMP[%d].xxxx, IMM[1].xxxx\n", c, c);
        put(G->b, "USLT TEMP[%d].x, IMM[%u].xxxx, TEMP[%d].xxxx\n", T_COND, 2 + pick(G->s, 2), c);
        put(G->b, "UIF TEMP[%d].xxxx\nBRK\nENDIF\n", T_COND);
        int saved = G->breakable;
        G->breakable = 1;
        G->loop_depth++;
        stmt_list(G, depth + 1, 1 + pick(G->s, 3));
        G->loop_depth--;
        G->breakable = saved;
        put(G->b, "ENDLOOP\n");
    } else if (r < 82 && G->breakable) {                 /* conditional BRK / CONT */
        bool cont = G->breakable == 1 && pick(G->s, 2);
        count(G, cont ? TVG_CONT : TVG_BRK);
        cond(G, false);
        put(G->b, "UIF TEMP[%d].xxxx\n%s\nENDIF\n", T_COND, cont ? "CONT" : "BRK");
    } else if (r < 88) {                                   /* SWITCH */
        count(G, TVG_SWITCH);
        put(G->b, "AND TEMP[%d].x, TEMP[%u].xxxx, IMM[4].xxxx\n", T_SEL, pick(G->s, NVAL));
        put(G->b, "SWITCH TEMP[%d].xxxx\n", T_SEL);
        int saved = G->breakable;
        G->breakable = 2;
        unsigned ncase = 1 + pick(G->s, 3);
        for (unsigned k = 0; k < ncase; k++) {
            put(G->b, "CASE IMM[%u].xxxx\n", k);   /* IMM[0..3] hold 0..3 in x */
            stmt_list(G, depth + 1, pick(G->s, 3));
            if (pick(G->s, 4))
                put(G->b, "BRK\n");
        }
        if (pick(G->s, 2)) {
            put(G->b, "DEFAULT\n");
            stmt_list(G, depth + 1, 1 + pick(G->s, 2));
            put(G->b, "BRK\n");
        }
        G->breakable = saved;
        put(G->b, "ENDSWITCH\n");
    } else if (r < 93 && G->nsubs && !G->in_sub) {         /* CAL */
        count(G, TVG_SUB);
        put(G->b, "CAL :@%u\n", pick(G->s, (uint32_t)G->nsubs));
    } else if (r < 97 && G->frag) {                        /* KILL_IF / KILL */
        count(G, TVG_KILL);
        if (pick(G->s, 4)) {
            char a[96];
            source(G, a, sizeof a, true);
            put(G->b, "KILL_IF %s\n", a);
        } else {
            cond(G, false);
            put(G->b, "UIF TEMP[%d].xxxx\nKILL\nENDIF\n", T_COND);
        }
    } else {
        alu(G);
    }
}

static void stmt_list(gen *G, int depth, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        stmt(G, depth);
}

/* Replace each ":@k" by ":" + label[k]. */
static char *patch_labels(char *text, const uint32_t *label)
{
    size_t len = strlen(text), extra = 0;
    for (char *q = strstr(text, ":@"); q; q = strstr(q + 2, ":@"))
        extra += 10;
    char *out = malloc(len + extra + 1);
    if (!out) {
        free(text);
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        if (text[i] == ':' && text[i + 1] == '@') {
            o += (size_t)sprintf(out + o, ":%u", label[text[i + 2] - '0']);
            i += 3;
        } else {
            out[o++] = text[i++];
        }
    }
    out[o] = 0;
    free(text);
    return out;
}

char *tvg_program(tvg_src *s, tvg_stats *stats)
{
    gen G;
    memset(&G, 0, sizeof G);
    G.s = s;
    G.st = stats;
    G.frag = pick(s, 2);
    count(&G, G.frag ? TVG_FRAG : TVG_COMP);
    G.nsubs = (int)pick(s, MAX_SUBS + 1);
    gbuf head = {0}, body = {0}, subs = {0};
    /* declarations */
    G.b = &head;
    if (G.frag) {
        put(&head, "FRAG\n");
        for (int i = 0; i < 4; i++)
            put(&head, "DCL IN[%d], GENERIC[%d], PERSPECTIVE\n", i, i);
        put(&head, "DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n");
    } else {
        put(&head, "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 32\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                   "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n");
        put(&head, "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\n");
    }
    for (int i = 0; i < 4; i++)
        put(&head, "DCL SAMP[%d]\nDCL SVIEW[%d], 2D, FLOAT\n", i, i);
    put(&head, "DCL CONST[0][0..%d]\nDCL TEMP[0..15]\nDCL ADDR[0]\n", NCONST + 8);
    /* IMM[0..3] = 0..3 (switch cases, loop bounds), IMM[4] = 3 (selector mask), IMM[5]
       = texel coordinate mask (x, y 0..7, level 0..1), IMM[6] = 7, IMM[7] = 3; then random */
    put(&head, "IMM[0] UINT32 {0, 0, 0, 0}\nIMM[1] UINT32 {1, 1, 1, 1}\n"
               "IMM[2] UINT32 {2, 2, 2, 2}\nIMM[3] UINT32 {3, 3, 3, 3}\n"
               "IMM[4] UINT32 {3, 3, 3, 3}\nIMM[5] UINT32 {7, 7, 0, 1}\n"
               "IMM[6] UINT32 {7, 7, 7, 7}\nIMM[7] UINT32 {3, 3, 3, 3}\n");
    static const char *const fimm[] = {"0.5", "-1.25", "2", "0.001", "100", "-0", "3.1415927",
                                       "1e+30", "-7.5", "0.25"};
    for (int i = 0; i < 4; i++)   /* IMM[8..11] */
        put(&head, "IMM[%d] FLT32 {%s, %s, %s, %s}\n", 8 + i, fimm[pick(s, 10)],
            fimm[pick(s, 10)], fimm[pick(s, 10)], fimm[pick(s, 10)]);
    put(&head, "IMM[12] UINT32 {32, 16, 0, 0}\n");
    /* the immediates the statements name are IMM[0..7]; the float ones feed TEMP[0..7] */
    G.b = &body;
    if (G.frag) {
        for (int i = 0; i < NVAL; i++)
            put(&body, "MOV TEMP[%d], IN[%d]\n", i, i & 3);
        put(&body, "MUL TEMP[4], TEMP[4], IMM[%u]\n", 8 + pick(s, 4));
    } else {
        put(&body, "U2F TEMP[0].x, SV[0].xxxx\nU2F TEMP[0].y, SV[1].xxxx\n");
        for (int i = 1; i < NVAL; i++)
            put(&body, "MAD TEMP[%d], TEMP[0].xxyy, IMM[%u], CONST[0][%d]\n", i, 8 + pick(s, 4), i);
    }
    G.budget = 8 + pick(s, 40);
    stmt_list(&G, 0, G.budget);
    if (G.frag) {
        put(&body, "MOV OUT[0], TEMP[%u]\nMOV OUT[1], TEMP[%u]\n", pick(s, NVAL), pick(s, NVAL));
    } else {
        /* byte address (block * 32 + thread) * 16 */
        put(&body, "UMAD TEMP[%d].x, SV[1].xxxx, IMM[12].xxxx, SV[0].xxxx\n", T_SCR);
        put(&body, "UMUL TEMP[%d].x, TEMP[%d].xxxx, IMM[12].yyyy\n", T_SCR, T_SCR);
        put(&body, "STORE BUFFER[0].xyzw, TEMP[%d].xxxx, TEMP[%u]\n", T_SCR, pick(s, NVAL));
    }
    put(&body, "END\n");
    /* subroutines after END; a label is the instruction number of its BGNSUB */
    uint32_t label[MAX_SUBS] = {0, 0};
    uint32_t at = body.lines;
    G.b = &subs;
    G.in_sub = true;
    for (int k = 0; k < G.nsubs; k++) {
        label[k] = at + subs.lines;
        put(&subs, "BGNSUB\n");
        G.budget = 1 + pick(s, 6);
        int saved_loops = G.loop_depth;
        stmt_list(&G, 1, G.budget);
        G.loop_depth = saved_loops;
        if (pick(s, 2)) {
            cond(&G, false);
            put(&subs, "UIF TEMP[%d].xxxx\nRET\nENDIF\n", T_COND);
            stmt_list(&G, 2, 1);
        }
        put(&subs, "RET\nENDSUB\n");
    }
    bool oom = head.oom || body.oom || subs.oom;
    size_t n = head.len + body.len + subs.len;
    char *text = oom ? NULL : malloc(n + 1);
    if (text) {
        memcpy(text, head.p, head.len);
        memcpy(text + head.len, body.p, body.len);
        if (subs.len)
            memcpy(text + head.len + body.len, subs.p, subs.len);
        text[n] = 0;
        text = patch_labels(text, label);
    }
    free(head.p);
    free(body.p);
    free(subs.p);
    return text;
}
