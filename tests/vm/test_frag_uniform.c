/* Fragment programs whose lanes all compute the same outputs (src/vm/vm_stage_frag_uniform.c):
 * the tile walk runs one warp of a triangle whose inputs are the same in every lane and
 * reuses its registers for the triangle's later warps. Checked here against the same
 * engine running every warp (vm_frag_uniform_set(vm, false): outputs and every count
 * equal — instructions, micro-ops, warps, invocations, killed), on two workers, with the
 * JIT compiling every program where the library has it, and against the plain
 * interpreter (outputs, instructions, warps, invocations; its micro-ops are counted one by
 * one). Random programs of arithmetic, conversions and control flow (IF / UIF with ELSE,
 * loops whose trip count comes from an input, subroutines) over inputs the same at the
 * vertices (perspective, linear, flat, FACE, system values FACE and PRIMID), on
 * rectangles and triangles, with scissor boxes, with the pipeline's coverage hook
 * (a disc: partial tiles between whole ones) and with its warp hook taking the outputs
 * (one and four samples: what the hook gets is compared too). Which runs reuse warps (the counter) by
 * hand: every eligible one does; none where an input varies over the triangle, where the
 * program reads POSITION or a derivative or kills, where the weights are not proven
 * finite (1/w past 2^62), or under per-sample shading. */
#include <stdio.h>
#include <stdlib.h>

#include "common_rng.h"
#include "helper_vm.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_frag_uniform.h"

static uint32_t rng = 0x2545f491u;
static uint32_t rnd(void)
{
    return tc_rng_next(&rng);
}

static tv_vm *engine(bool plain, uint32_t threads, uint8_t jit)
{
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.plain = plain;
    cfg.threads = threads;
    cfg.jit = jit;
    tv_error err;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        fail_msg("%s", err.message);
    return vm;
}

enum { W = 77, H = 45, NT = 2 };

typedef struct run_out {
    tv_status st;
    char msg[512];
    tv_vm_stats stats;
    uint64_t reused, stored, hooked;   /* (the calling thread's: a one-worker engine's) */
    uint32_t col[NT][W * H * 4 * 4];   /* (up to 4 samples a pixel) */
    /* the pipeline's warp hook (hook_warp): its calls, and a sum over them of a hash of
       each live lane's position, coverage and the record's flags (the same whatever order
       the workers call it in) */
    uint64_t hook_calls, hook_sum;
} run_out;

/* the pipeline's coverage hook of the disc case: a disc of radius 30 about (38, 22) */
static uint32_t disc(void *user, int32_t x, int32_t y)
{
    (void)user;
    int32_t dx = x - 38, dy = y - 22;
    return dx * dx + dy * dy <= 900 ? 1u : 0u;
}

/* the pipeline's warp hook of the hook cases: each live lane's colours into the colour
   arrays at its position (the output merger's part, without blending), its position and
   coverage into the hash */
static void hook_warp(void *user, const tv_vm_frag_warp_output *w)
{
    run_out *o = user;
    uint64_t sum = 0;
    for (uint32_t m = w->live; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        const uint64_t pix = (uint64_t)w->y[l] * W + (uint64_t)w->x[l];
        if ((uint32_t)w->x[l] < W && (uint32_t)w->y[l] < H)
            for (unsigned k = 0; k < NT; k++)
                if ((w->colors >> k) & 1u)
                    for (unsigned c = 0; c < 4; c++)
                        o->col[k][pix * 4 + c] = w->color[k][c][l];
        uint64_t h = ((uint64_t)(uint32_t)w->x[l] << 40) ^ ((uint64_t)(uint32_t)w->y[l] << 20) ^
                     (uint64_t)w->coverage[l] ^ ((uint64_t)w->tile << 62) ^
                     ((uint64_t)w->pixels << 63);
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;   /* (splitmix64's mix: every bit of
                                                          the lane's record moves the sum) */
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
        sum += h ^ (h >> 31);
    }
    /* (the two-worker engine's workers call it at once) */
    __atomic_fetch_add(&o->hook_calls, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&o->hook_sum, sum, __ATOMIC_RELAXED);
}

static void run(tv_vm *vm, const char *text, const tv_vm_frag_params *fp0, run_out *o)
{
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "uniform.tgsi", &err);
    if (!p)
        fail_msg("%s\n%s", err.message, text);
    tv_vm_frag_params fp = *fp0;
    for (unsigned k = 0; k < NT; k++) {
        for (size_t i = 0; i < W * H * 4 * 4; i++)
            o->col[k][i] = 0x7fc0deadu;
        fp.color[k].data = o->col[k];
    }
    memset(&o->stats, 0, sizeof o->stats);
    o->hook_calls = o->hook_sum = 0;
    if (fp.emit_warp)
        fp.hook_user = o;
    const uint64_t r0 = vm_frag_uniform_reused(), s0 = vm_frag_uniform_stored(),
                   h0 = vm_frag_uniform_hooked();
    o->st = tv_vm_run_fragment(vm, p, NULL, &fp, &o->stats, &err);
    o->reused = vm_frag_uniform_reused() - r0;
    o->stored = vm_frag_uniform_stored() - s0;
    o->hooked = vm_frag_uniform_hooked() - h0;
    snprintf(o->msg, sizeof o->msg, "%s", o->st == TV_OK ? "" : err.message);
    tv_vm_program_destroy(p);
}

static void compare(const run_out *a, const run_out *b, bool uops, const char *what,
                    const char *text)
{
    if (a->st != b->st || strcmp(a->msg, b->msg))
        fail_msg("%s: status %d '%s' vs %d '%s'\n%s", what, a->st, a->msg, b->st, b->msg, text);
    if (a->st != TV_OK)
        return;
    for (unsigned k = 0; k < NT; k++)
        for (size_t i = 0; i < W * H * 4 * 4; i++)
            if (a->col[k][i] != b->col[k][i])
                fail_msg("%s: COLOR[%u] pixel (%zu,%zu).%c 0x%08x vs 0x%08x\n%s", what, k,
                         i / 4 % W, i / 4 / W, "xyzw"[i % 4], a->col[k][i], b->col[k][i], text);
    if (a->hook_calls != b->hook_calls || a->hook_sum != b->hook_sum)
        fail_msg("%s: the warp hook called %llu times (lanes 0x%016llx) vs %llu (0x%016llx)\n%s",
                 what, (unsigned long long)a->hook_calls, (unsigned long long)a->hook_sum,
                 (unsigned long long)b->hook_calls, (unsigned long long)b->hook_sum, text);
    const tv_vm_stats *x = &a->stats, *y = &b->stats;
    if (x->instructions != y->instructions || x->warps != y->warps ||
        x->invocations != y->invocations || x->killed != y->killed ||
        (uops && x->uops != y->uops))
        fail_msg("%s: counts %llu/%llu/%llu/%llu/%llu vs %llu/%llu/%llu/%llu/%llu\n%s", what,
                 (unsigned long long)x->instructions, (unsigned long long)x->uops,
                 (unsigned long long)x->warps, (unsigned long long)x->invocations,
                 (unsigned long long)x->killed, (unsigned long long)y->instructions,
                 (unsigned long long)y->uops, (unsigned long long)y->warps,
                 (unsigned long long)y->invocations, (unsigned long long)y->killed, text);
}

/* ---- random uniform programs ------------------------------------------------------------ */

static char *put(char *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    p += vsprintf(p, fmt, ap);
    va_end(ap);
    return p;
}

static const char *const sw[] = {"xyzw", "xxxx", "yzwx", "wzyx", "zzxy", "yyyy"};

/* a float source: an input, a temporary or an immediate, swizzled, perhaps negated */
static char *fsrc(char *p, unsigned nin)
{
    unsigned k = rnd() % 8;
    const char *neg = rnd() % 5 == 0 ? "-" : "";
    if (k < 3 && nin)
        return put(p, "%sIN[%u].%s", neg, rnd() % nin, sw[rnd() % 6]);
    if (k < 6)
        return put(p, "%sTEMP[%u].%s", neg, rnd() % 4, sw[rnd() % 6]);
    return put(p, "%sIMM[0].%s", neg, sw[rnd() % 6]);
}

/* one arithmetic instruction into TEMP[0..3] */
static char *alu(char *p, unsigned nin)
{
    static const char *const op1[] = {"MOV", "FRC", "FLR", "EX2", "RCP", "SIN", "COS", "CEIL",
                                      "SSG", "TRUNC"};
    static const char *const op2[] = {"ADD", "MUL", "MIN", "MAX", "SLT", "SGE", "DP3", "DP4",
                                      "FSLT", "FSEQ"};
    static const char *const op3[] = {"MAD", "LRP", "CMP"};
    const char *wm[] = {"", ".x", ".xy", ".zw", ".yw"};
    unsigned d = rnd() % 4, n = rnd() % 3;
    const char *sat = rnd() % 6 == 0 ? "_SAT" : "";
    if (n == 0)
        p = put(p, "  %s%s TEMP[%u]%s, ", op1[rnd() % 10], sat, d, wm[rnd() % 5]);
    else if (n == 1)
        p = put(p, "  %s%s TEMP[%u]%s, ", op2[rnd() % 10], sat, d, wm[rnd() % 5]);
    else
        p = put(p, "  %s%s TEMP[%u]%s, ", op3[rnd() % 3], sat, d, wm[rnd() % 5]);
    for (unsigned k = 0; k <= n; k++) {
        p = fsrc(p, nin);
        p = put(p, k < n ? ", " : "\n");
    }
    return p;
}

/* A uniform program: N_IN inputs (interpolation MODES), optionally FACE and PRIMID system
 * values, arithmetic, an IF / ELSE on a comparison of inputs, a loop whose trip count is
 * an input's, a subroutine, two colour outputs; EXTRA (a line) before the outputs. */
static void program(char *text, unsigned nin, const char *const *modes, bool svs,
                    const char *extra)
{
    char *p = text;
    p = put(p, "FRAG\n");
    for (unsigned k = 0; k < nin; k++)
        p = put(p, "DCL IN[%u], GENERIC[%u], %s\n", k, k, modes[k]);
    if (svs)
        p = put(p, "DCL SV[0], FACE\nDCL SV[1], PRIM_ID\n");
    p = put(p, "DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL TEMP[0..5]\n");
    p = put(p, "IMM[0] FLT32 {0.5, -1.25, 3.0, 0.0078125}\nIMM[1] UINT32 {0, 1, 7, 3}\n");
    /* the main program's instructions, one a line (counted for the subroutine's label) */
    char *body = p;
    p = put(p, "  MOV TEMP[0], IMM[0]\n  MOV TEMP[1], IMM[0].wzyx\n");
    unsigned n = 2 + rnd() % 6;
    for (unsigned i = 0; i < n; i++)
        p = alu(p, nin);
    if (rnd() % 2) {
        p = put(p, "  FSLT TEMP[4].x, ");
        p = fsrc(p, nin);
        p = put(p, ", IMM[0].xxxx\n  UIF TEMP[4].xxxx\n");
        p = alu(p, nin);
        p = put(p, "  ELSE\n");
        p = alu(p, nin);
        p = alu(p, nin);
        p = put(p, "  ENDIF\n");
    }
    if (rnd() % 2 && nin) {
        /* a loop of (uint)(|IN[k].x| * 3) & 7 iterations */
        p = put(p, "  MOV TEMP[5].x, |IN[%u].xxxx|\n  MUL TEMP[5].x, TEMP[5].xxxx, IMM[0].zzzz\n"
                   "  F2U TEMP[5].x, TEMP[5].xxxx\n  AND TEMP[5].x, TEMP[5].xxxx, IMM[1].zzzz\n"
                   "  MOV TEMP[5].y, IMM[1].xxxx\n  BGNLOOP\n"
                   "    USGE TEMP[4].x, TEMP[5].yyyy, TEMP[5].xxxx\n    UIF TEMP[4].xxxx\n"
                   "      BRK\n    ENDIF\n",
                rnd() % nin);
        p = alu(p, nin);
        p = put(p, "    UADD TEMP[5].y, TEMP[5].yyyy, IMM[1].yyyy\n  ENDLOOP\n");
    }
    if (svs)
        p = put(p, "  MUL TEMP[2].x, SV[0].xxxx, TEMP[2].xxxx\n  U2F TEMP[3].y, SV[1].xxxx\n");
    if (extra)
        p = put(p, "%s", extra);
    const bool call = rnd() % 3 == 0;
    unsigned count = call + 3;   /* CAL, the two outputs' and END */
    for (const char *q = body; q < p; q++)
        count += *q == '\n';
    if (call)
        p = put(p, "  CAL :%u\n", count);
    p = put(p, "  MOV OUT[0], TEMP[%u]\n  ADD OUT[1], TEMP[%u], TEMP[%u]\n  END\n",
            rnd() % 4, rnd() % 4, rnd() % 4);
    if (call)
        p = put(p, "  BGNSUB\n  MUL TEMP[1], TEMP[1], IMM[0].xxxx\n  ENDSUB\n");
}

/* the run's parameters: a rectangle or a triangle over the target, inputs the same at
   every vertex (VARY: input 0 differs at one vertex) */
static void params(tv_vm_frag_params *fp, bool rect, bool vary, bool coverage, bool scissor,
                   bool equal_w)
{
    tv_vm_frag_params_fullscreen(fp, W, H, rect ? TV_VM_PRIM_RECT : TV_VM_PRIM_TRIANGLE);
    if (!rect) {
        fp->vertices[0].x = -3.0f, fp->vertices[0].y = -2.0f;
        fp->vertices[1].x = 2.0f * W + 5.0f, fp->vertices[1].y = 1.0f;
        fp->vertices[2].x = 4.0f, fp->vertices[2].y = 2.0f * H + 3.0f;
    }
    const unsigned nv = rect ? 4 : 3;
    static const float vals[] = {0.0f, 0.25f, -1.5f, 3.75f, 100.0f, 0.875f, -0.0625f, 2.0f};
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 4; c++) {
            uint32_t v = tv_f32_bits(vals[rnd() % 8]);
            for (unsigned k = 0; k < nv; k++)
                fp->vertices[k].attr[r][c] = v;
        }
    /* the same w at every vertex (1 or not): perspective weights proven finite; or not */
    for (unsigned k = 0; k < nv; k++)
        fp->vertices[k].w = rnd() % 2 ? 1.0f : 2.5f;
    if (equal_w)
        for (unsigned k = 0; k < nv; k++)
            fp->vertices[k].w = fp->vertices[0].w;
    if (vary)
        fp->vertices[1].attr[0][0] ^= 0x00200000u;
    fp->front_face = rnd() % 2;
    fp->primitive_id = rnd() % 100;
    if (coverage) {
        fp->prim = TV_VM_PRIM_TRIANGLE;
        fp->coverage = disc;
    }
    if (scissor) {
        fp->scissor[0] = 5, fp->scissor[1] = 3, fp->scissor[2] = W - 9, fp->scissor[3] = H - 2;
    }
}

typedef struct engines {
    tv_vm *fast, *fast2, *slow, *plain, *jit;
} engines;

static void engines_make(engines *e)
{
    e->fast = engine(false, 1, TV_VM_JIT_OFF);
    e->fast2 = engine(false, 2, TV_VM_JIT_OFF);
    e->slow = engine(false, 1, TV_VM_JIT_OFF);
    e->plain = engine(true, 1, TV_VM_JIT_OFF);
    e->jit = tv_vm_jit_available() ? engine(false, 1, TV_VM_JIT_ALWAYS) : NULL;
    vm_frag_uniform_set(e->slow, false);
}

static void engines_free(engines *e)
{
    tv_vm_destroy(e->fast);
    tv_vm_destroy(e->fast2);
    tv_vm_destroy(e->slow);
    tv_vm_destroy(e->plain);
    if (e->jit)
        tv_vm_destroy(e->jit);
}

/* the tiles the one-thread fast engine stored without a warp set up (uniform_tile), and
   those it handed to the warp hook so (uniform_hook_tile), over the checks */
static uint64_t stored_total, hooked_total;

/* the last check's run of the one-thread fast engine (its outputs and counts) */
static run_out check_fast;

/* Every engine on TEXT and FP; the reuses of the one-thread fast engine (and of the
   compiling one, which must reuse the same warps) */
static uint64_t check(const engines *e, const char *text, const tv_vm_frag_params *fp)
{
    run_out *const a = &check_fast;
    static run_out b, c, d, j;
    run(e->fast, text, fp, a);
    run(e->slow, text, fp, &b);
    run(e->fast2, text, fp, &c);
    run(e->plain, text, fp, &d);
    compare(a, &b, true, "reused vs run", text);
    compare(a, &c, true, "one worker vs two", text);
    compare(a, &d, false, "vs the plain interpreter", text);
    if (b.reused || d.reused || b.stored || d.stored || b.hooked || d.hooked)
        fail_msg("the engine without reuse or the plain interpreter reused warps\n%s", text);
    if (a->stored + a->hooked > a->reused || (a->hooked && !fp->emit_warp) ||
        (a->stored && fp->emit_warp))
        fail_msg("%llu tiles stored straight and %llu handed to the hook, of %llu reused\n%s",
                 (unsigned long long)a->stored, (unsigned long long)a->hooked,
                 (unsigned long long)a->reused, text);
    stored_total += a->stored;
    hooked_total += a->hooked;
    if (e->jit) {
        run(e->jit, text, fp, &j);
        compare(a, &j, false, "interpreted vs compiled", text);
        if (j.reused != a->reused)
            fail_msg("compiled: %llu warps reused, interpreted %llu\n%s",
                     (unsigned long long)j.reused, (unsigned long long)a->reused, text);
    }
    return a->reused;
}

static void t_random_uniform(void **state)
{
    (void)state;
    engines e;
    engines_make(&e);
    static char text[8192];
    static const char *const modes[] = {"PERSPECTIVE", "LINEAR", "CONSTANT"};
    unsigned reused_runs = 0;
    stored_total = hooked_total = 0;
    for (unsigned i = 0; i < 160; i++) {
        const unsigned nin = rnd() % 4;
        const char *m[4];
        for (unsigned k = 0; k < 4; k++)
            m[k] = modes[rnd() % 3];
        program(text, nin, m, rnd() % 3 == 0, NULL);
        tv_vm_frag_params fp;
        const bool coverage = i % 4 == 3;
        params(&fp, !coverage && rnd() % 2, false, coverage, i % 5 == 2, true);
        if (i % 3 == 1) {
            fp.emit_warp = hook_warp;   /* (the pipeline's way: the outputs to its hook) */
            fp.samples = i % 2 ? 4 : 1;   /* (every sample of a whole tile's lanes) */
        }
        uint64_t reused = check(&e, text, &fp);
        /* every such run reuses warps: whole tiles of all lanes live come after the first
           of their row in every case here */
        if (!reused)
            fail_msg("run %u: no warp reused\n%s", i, text);
        reused_runs++;
    }
    print_message("%u random uniform programs, every one reusing warps, the same outputs "
                  "and counts as each warp run (%llu tiles stored and %llu handed to the "
                  "warp hook without a warp set up)\n", reused_runs,
                  (unsigned long long)stored_total, (unsigned long long)hooked_total);
    /* the walk's straight stores and hook calls are among the ways compared (whole tiles
       inside the box: those of the rectangles and triangles without the coverage hook,
       and the disc's inner ones) */
    assert_true(stored_total > 0);
    assert_true(hooked_total > 0);
    engines_free(&e);
}

/* Where the lanes' inputs or the program's values may differ: nothing reused, and still
   the same outputs. */
static void t_not_uniform(void **state)
{
    (void)state;
    engines e;
    engines_make(&e);
    static char text[8192];
    static const char *const persp[] = {"PERSPECTIVE", "PERSPECTIVE", "LINEAR", "PERSPECTIVE"};
    static const char *const extras[] = {
        "  DDX TEMP[2], TEMP[0]\n",            /* a derivative */
        "  KILL_IF TEMP[0].xxxx\n",            /* a kill */
    };
    for (unsigned i = 0; i < 40; i++) {
        tv_vm_frag_params fp;
        /* an input that varies over the triangle */
        program(text, 2, persp, false, NULL);
        params(&fp, rnd() % 2, true, false, false, true);
        if (strstr(text, "IN[0]") && check(&e, text, &fp))
            fail_msg("reused warps of an input that varies\n%s", text);
        /* a derivative or a kill */
        program(text, 2, persp, false, extras[i % 2]);
        params(&fp, rnd() % 2, false, i % 3 == 0, false, true);
        if (check(&e, text, &fp))
            fail_msg("reused warps of a program that is not uniform\n%s", text);
        /* perspective weights not proven finite: w not the same at every vertex, or
           1/w past 2^62 at one */
        static const char *const persp2[] = {"PERSPECTIVE", "PERSPECTIVE"};
        program(text, 2, persp2, false, NULL);
        params(&fp, false, false, i % 2 == 0, false, true);
        fp.vertices[1].w = i % 4 < 2 ? 1e-25f : fp.vertices[0].w * 2.0f;
        if (strstr(text, "IN[") && check(&e, text, &fp))
            fail_msg("reused warps where the weights are not proven finite\n%s", text);
    }
    /* POSITION as an input and as a system value */
    static const char *const pos_in = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\n"
                                      "  MOV OUT[0], IN[0]\n  END\n";
    static const char *const pos_sv = "FRAG\nDCL SV[0], POSITION\nDCL OUT[0], COLOR\n"
                                      "  MOV OUT[0], SV[0]\n  END\n";
    tv_vm_frag_params fp;
    params(&fp, true, false, false, false, true);
    assert_int_equal(check(&e, pos_in, &fp), 0);
    assert_int_equal(check(&e, pos_sv, &fp), 0);
    /* per-sample shading: every sample pass runs */
    static const char *const flat = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n"
                                    "  MUL OUT[0], IN[0], IN[0].wzyx\n  END\n";
    params(&fp, true, false, false, false, true);
    assert_true(check(&e, flat, &fp) > 0);   /* (the same run, one sample: reused) */
    fp.samples = 4;
    fp.sample_shading = true;
    static run_out a, b;
    run(e.fast, flat, &fp, &a);
    assert_int_equal(a.reused, 0);
    fp.samples = 1;
    fp.sample_shading = false;
    /* and the counts of a program with no input at all (a constant colour) */
    static const char *const konst = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.5, 0.25, 0.0}\n"
                                     "  MOV OUT[0], IMM[0].xyzx\n  END\n";
    run(e.fast, konst, &fp, &a);
    run(e.slow, konst, &fp, &b);
    compare(&a, &b, true, "constant", konst);
    /* every tile but the first of each row of tiles whose first tile has all lanes live
       (not the last row, one pixel high), both triangles and the diagonal's split tiles
       alike: (W + 7) / 8 tiles a row */
    const uint64_t rows = (H + 3) / 4, per_row = (W + 7) / 8;
    assert_int_equal(a.stats.warps, rows * per_row);
    assert_int_equal(a.reused, (H / 4) * (per_row - 1));
    /* of which the whole tiles inside the target not on the diagonal, stored straight
       from the registers: all but the last of each row's reused ones (W = 77: its last
       tile is partial) and the diagonal's split tiles, one or two a row */
    assert_true(a.stored >= (H / 4) * (per_row - 4) && a.stored <= (H / 4) * (per_row - 2));
    assert_int_equal(b.stored, 0);
    engines_free(&e);
}

/* Two triangles of one rectangle with different constant outputs (a flat input whose
 * provoking vertices differ): each triangle's whole tiles are stored from its own
 * registers — the walk's tile images made again after a warp of the other triangle ran
 * (uniform_tile) — the same outputs and counts as each warp run. Once with the flat input
 * alone (every attribute of the triangles differs at their vertices, so their weights are
 * never proven bounded: flat inputs need none, needs_barycentrics) and once beside an
 * input the same at every vertex. */
static void t_two_triangles(void **state)
{
    (void)state;
    engines e;
    engines_make(&e);
    static const char *const progs[] = {
        "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n  MOV OUT[0], IN[0]\n  END\n",
        "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL IN[1], GENERIC[1], PERSPECTIVE\n"
        "DCL OUT[0], COLOR\n  ADD OUT[0], IN[0], IN[1]\n  END\n"};
    for (unsigned k = 0; k < 4; k++) {
        tv_vm_frag_params fp;
        params(&fp, true, false, false, false, true);
        if (k >= 2)
            fp.emit_warp = hook_warp;   /* (the records made again alike: uniform_hook_tile) */
        for (unsigned v = 0; v < 4; v++)
            for (unsigned r = 0; r < 4; r++)
                for (unsigned c = 0; c < 4; c++)
                    fp.vertices[v].attr[r][c] =
                        r == 1 && k % 2 == 1 ? tv_f32_bits(0.5f)
                                         : tv_f32_bits(0.25f * (float)(v + 1) + (float)(c + r));
        assert_true(check(&e, progs[k % 2], &fp) > 0);   /* (every engine compared) */
        /* the two colours, each over many tiles stored without a warp */
        const run_out *a = &check_fast;
        uint32_t first = a->col[0][0], other = first;
        for (size_t i = 0; i < (size_t)W * H * 4; i += 4)
            if (a->col[0][i] != first)
                other = a->col[0][i];
        assert_true(other != first);
        assert_true(a->stored + a->hooked >= (H / 4) * (W / 8 - 4));
    }
    engines_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_random_uniform),
        cmocka_unit_test(t_not_uniform),
        cmocka_unit_test(t_two_triangles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
