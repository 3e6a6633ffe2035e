/* Fragment batches (tv_vm_frag_batch, src/vm/vm_stage_frag_batch.c): a draw's small
 * triangles packed into shared warps must give every pixel the fragments, in primitive
 * order, with the values, that one tv_vm_run_fragment per triangle on the plain
 * interpreter gives. The hooks here are a pipeline's: a coverage rule per triangle (pixel
 * centres inside or on its edges, so triangles sharing an edge both cover pixels on it and
 * the batch must run its pending warp first), and an emit hook that logs each pixel's
 * fragments in the order it gets them and checks that no call holds a pixel twice. The
 * shader reads what is per triangle: perspective, flat and position inputs, FACE, PRIMID,
 * and a derivative (lanes of a quad). Scenes: random overlapping triangles, a grid of
 * triangles sharing edges, large triangles (not packed: run by themselves, in order)
 * among small ones, and a change of hook data between triangles (and, field by field,
 * which changes of the parameters make a batch run its pending warp first); programs whose results
 * depend on the warp's other lanes (run in tiles, never packed), an undeclared input read
 * through ADDR (0, never the side register file's old memory), a failing add (nothing
 * left pending), the ring of full warps (an add runs none or four; a failing add drops
 * the parked ones); under flushed denormals, vertices whose w is a denormal (the triangle's
 * set-up must read it as the jobs do, 0, in a batch and in a run of its own alike). Each
 * scene also through a coverage_quads hook (the box's quads at once) that declines some
 * boxes, so a batch mixes it with row_span and coverage_warp. The harness is
 * test_frag_batch_fixture.h; batches that pack pixels instead of quads are tested in
 * test_frag_batch_pixels.c. */
#include "test_frag_batch_fixture.h"

static void test_random_overlapping(void **state)
{
    (void)state;
    check_scene(0, 600);
}

static void test_grid_shared_edges(void **state)
{
    (void)state;
    check_scene(1, 768);
}

/* Denormal w under flushed denormals: the set-up's 1/w is that of w = 0 (1) in every way
 * of running, as the jobs read the denormal (a run of its own once took 1/w unflushed). */
static void test_denormal_w_flushed(void **state)
{
    (void)state;
    flushed = true;
    check_scene(2, 600);
    flushed = false;
}

static void test_deferred_inputs(void **state)
{
    (void)state;
    fs_now = fs_defer;
    static const unsigned caps[3] = {VM_STORE_AVX512, VM_STORE_AVX2, VM_STORE_SSE2};
    static const unsigned kinds[4] = {0, 1, 2, 3}, counts[4] = {600, 768, 600, 600};
    for (unsigned c = 0; c < 3; c++) {
        store_cap = caps[c];
        const unsigned isa = vm_frag_store_isa() < caps[c] ? vm_frag_store_isa() : caps[c];
        const bool waits = isa >= VM_STORE_AVX2;
        for (unsigned k = 0; k < 4; k++) {
            flushed = kinds[k] == 2;
            deferred_groups = 0;
            check_scene(kinds[k], counts[k]);
            if (waits ? deferred_groups < counts[k] : deferred_groups != 0)
                fail_msg("cap %u, scene %u: %llu groups deferred", caps[c], kinds[k],
                         (unsigned long long)deferred_groups);
        }
    }
    store_cap = VM_STORE_AVX512;
    flushed = false;
    fs_now = fs_text;
}

/* flatshade, which a batch's primitives need not share, changing from one triangle to the
 * next: a COLOR input flat (the provoking vertex's value) in every other triangle and
 * interpolated in the rest, in the same warps, as one run per triangle on the plain
 * interpreter gives it. (The set-up a batch keeps between adds, vm_frag_run_setup_shared,
 * depends on it through in_by_pass, which only tile jobs read: a batch that ignored the
 * change would still pass here. The batch redoes that set-up anyway, so that its run's
 * state is vm_frag_run_setup's.) */
static void test_flatshade_between_adds(void **state)
{
    (void)state;
    fs_now = fs_defer;
    flat_odd = true;
    check_scene(0, 600);
    check_scene(1, 768);
    flat_odd = false;
    fs_now = fs_text;
}

/* Hook data that changes between triangles runs the pending warp under the old one. */
static void test_changed_hooks(void **state)
{
    (void)state;
    enum { N = 300 };
    tri *t = malloc(N * sizeof *t);
    scene *ref = calloc(1, sizeof *ref), *ref2 = calloc(1, sizeof *ref2);
    scene *bat = calloc(1, sizeof *bat), *bat2 = calloc(1, sizeof *bat2);
    assert_true(t && ref && ref2 && bat && bat2);
    unsigned n = make_scene(0, t, N);
    draw(true, false, t, n, ref, ref2);
    draw(false, true, t, n, bat, bat2);
    same_logs(ref, bat, "first hooks");
    same_logs(ref2, bat2, "second hooks");
    free(t);
    free(ref);
    free(ref2);
    free(bat);
    free(bat2);
}

static void noop_span(void *user, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1)
{
    (void)user, (void)y0, (void)y1, (void)x0, (void)x1;
}

/* The fields whose change makes a batch run its pending warp first: each one changed alone
 * (a pointer, a hook, a number) makes vm_frag_same_common false, a change of any other
 * field (the vertices, facing, primitive ID, scissor) leaves it true. */
static void test_same_common_fields(void **state)
{
    (void)state;
    static uint32_t words[4];
    static float zs[1];
    tv_vm_frag_params a;
    memset(&a, 0, sizeof a);
    a.width = 64;
    a.height = 48;
    tv_vm_frag_params b = a;
    assert_true(vm_frag_same_common(&a, &b));
    b.vertices[1].x = 3.0f;
    b.front_face = true;
    b.primitive_id = 9;
    b.scissor[2] = 5;
    b.prim = 1;
    assert_true(vm_frag_same_common(&a, &b));
    enum { FIELDS = 15 + 2 * TV_VM_MAX_COLOR_TARGETS };
    for (unsigned f = 0; f < FIELDS; f++) {
        b = a;
        switch (f) {
        case 0: b.width++; break;
        case 1: b.height++; break;
        case 2: b.samples = 4; break;
        case 3: b.sample_mask = 1; break;
        case 4: b.sample_shading = true; break;
        case 5: b.depth = zs; break;
        case 6: b.stencil = words; break;
        case 7: b.sample_mask_out = words; break;
        case 8: b.coverage = cov_hook; break;
        case 9: b.coverage_warp = cov_warp_hook; break;
        case 10: b.row_span = noop_span; break;
        case 11: b.coverage_quads = cov_quads_hook; break;
        case 12: b.emit = emit_hook; break;
        case 13: b.emit_warp = emit_warp_hook; break;
        case 14: b.hook_user = words; break;
        default: {
            const unsigned i = (f - 15) / 2;
            if ((f - 15) % 2 == 0)
                b.color[i].data = words;
            else
                b.fbfetch[i] = words;
        }
        }
        if (vm_frag_same_common(&a, &b))
            fail_msg("field %u changed, but the parameters compare the same", f);
    }
}

/* A program that interpolates while it runs (INTERP_*) is not packed across triangles:
 * every triangle runs by itself, the same fragments as one run each. */
static void test_interp_runs_alone(void **state)
{
    (void)state;
    static const char fs_interp[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                    "DCL OUT[0], COLOR\nIMM[0] FLT32 {0.25, -0.25, 0, 0}\n"
                                    "  0: INTERP_OFFSET OUT[0], IN[0], IMM[0].xyyy\n"
                                    "  1: END\n";
    enum { N = 120 };
    tri *t = malloc(N * sizeof *t);
    scene *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_true(t && a && b);
    unsigned n = make_scene(0, t, N);
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_interp);
    tv_error err;
    uint64_t warps[2] = {0, 0};
    for (int batch = 0; batch < 2; batch++) {
        scene *s = batch ? b : a;
        tv_vm_frag_batch *B = batch ? tv_vm_frag_batch_begin(vm, p, NULL, &err) : NULL;
        for (unsigned i = 0; i < n; i++) {
            s->cur = &t[i];
            tv_vm_frag_params fp;
            params_of(&t[i], s, &fp);
            tv_vm_stats st;
            tv_status rc = batch ? tv_vm_frag_batch_add(B, &fp, &st, &err)
                                 : tv_vm_run_fragment(vm, p, NULL, &fp, &st, &err);
            assert_int_equal(rc, TV_OK);
            warps[batch] += st.warps;
        }
        if (batch) {
            tv_vm_stats st;
            assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
            assert_int_equal(st.warps, 0);   /* nothing was left pending */
            tv_vm_frag_batch_end(B);
        }
    }
    assert_int_equal(warps[0], warps[1]);
    same_logs(a, b, "INTERP_OFFSET");
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    free(t);
    free(a);
    free(b);
}

/* Programs whose results depend on which pixels share a warp — the warp-wide ops and a
 * lane's index — run in the tile walk's warps, as on the plain interpreter: neither
 * packed from a triangle's quads nor batched with other triangles' (a READ_FIRST of
 * PRIMID returned another triangle's id in a shared warp). */
static void test_warp_wide_in_tiles(void **state)
{
    (void)state;
    static const char *const programs[] = {
        "FRAG\nDCL SV[0], PRIM_ID\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL TEMP[0]\n"
        "  0: READ_FIRST TEMP[0].x, SV[0].xxxx\n"
        "  1: MOV OUT[0].x, TEMP[0].xxxx\n"
        "  2: MOV OUT[0].y, SV[0].xxxx\n"
        "  3: END\n",
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n"
        "DCL TEMP[0..1]\nIMM[0] UINT32 {1, 3, 0, 0}\n"
        "  0: F2U TEMP[0].xy, IN[0].xyyy\n"
        "  1: AND TEMP[0].xy, TEMP[0].xyyy, IMM[0].xyyy\n"
        "  2: VOTE_ANY TEMP[1].x, TEMP[0].xxxx\n"
        "  3: VOTE_ALL TEMP[1].y, TEMP[0].yyyy\n"
        "  4: VOTE_EQ TEMP[1].z, TEMP[0].yyyy\n"
        "  5: READ_INVOC TEMP[1].w, TEMP[0].yyyy, IMM[0].yyyy\n"
        "  6: MOV OUT[0], TEMP[1]\n"
        "  7: BALLOT OUT[1].xy, TEMP[0].xxxx\n"
        "  8: END\n",
        "FRAG\nDCL SV[0], SUBGROUP_INVOCATION\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n"
        "  0: MOV OUT[0].x, SV[0].xxxx\n"
        "  1: END\n",
    };
    enum { N = 200 };
    tri *t = malloc(N * sizeof *t);
    scene *ref = calloc(1, sizeof *ref), *one = calloc(1, sizeof *one),
          *bat = calloc(1, sizeof *bat);
    assert_true(t && ref && one && bat);
    unsigned n = make_scene(0, t, N);
    for (unsigned k = 0; k < sizeof programs / sizeof programs[0]; k++) {
        fs_now = programs[k];
        memset(ref, 0, sizeof *ref);
        memset(one, 0, sizeof *one);
        memset(bat, 0, sizeof *bat);
        draw(true, false, t, n, ref, NULL);
        draw(false, false, t, n, one, NULL);
        draw(false, true, t, n, bat, NULL);
        char what[64];
        snprintf(what, sizeof what, "program %u, one run per triangle", k);
        same_logs(ref, one, what);
        snprintf(what, sizeof what, "program %u, batch", k);
        same_logs(ref, bat, what);
    }
    fs_now = fs_text;
    free(t);
    free(ref);
    free(one);
    free(bat);
}

/* Registers inside the inputs' range that no declaration names read 0 in every warp of
 * a batch, as in one run per triangle — also where the side register file's memory held
 * something before (an indirect IN[ADDR] reaches them). */
static void test_undeclared_inputs_zero(void **state)
{
    (void)state;
    /* freed heap blocks of many sizes full of a pattern, each kept from merging with its
       neighbours by a small block: the batch's allocations are likely given one */
    enum { NJ = 96 };
    void *junk[NJ], *guard[NJ];
    for (int i = 0; i < NJ; i++) {
        size_t size = 512 + 512 * (size_t)i;
        junk[i] = malloc(size);
        guard[i] = malloc(16);
        assert_true(junk[i] && guard[i]);
        memset(junk[i], 0x5a, size);
    }
    for (int i = 0; i < NJ; i++)
        free(junk[i]);
    fs_now = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL IN[2], GENERIC[2], CONSTANT\n"
             "DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL ADDR[0]\n"
             "IMM[0] INT32 {1, 0, 0, 0}\n"
             "  0: UARL ADDR[0].x, IMM[0].xxxx\n"
             "  1: MOV OUT[0], IN[ADDR[0].x]\n"
             "  2: MOV OUT[1], IN[0]\n"
             "  3: END\n";
    enum { N = 200 };
    tri *t = malloc(N * sizeof *t);
    scene *one = calloc(1, sizeof *one), *bat = calloc(1, sizeof *bat);
    assert_true(t && one && bat);
    unsigned n = make_scene(0, t, N);
    draw(false, false, t, n, one, NULL);
    draw(false, true, t, n, bat, NULL);
    fs_now = fs_text;
    same_logs(one, bat, "IN[1] through ADDR");
    for (int i = 0; i < NJ; i++)
        free(guard[i]);
    free(t);
    free(one);
    free(bat);
}

/* A coverage_quads hook that breaks its contract fails the add with an error naming it,
 * and leaves nothing pending */
/* A batch of P on VM for one triangle T at window positions XY (three x, y pairs;
 * attributes from SEED), front facing, primitive 0: its scene *S (calloc'd, T current)
 * and parameters FP */
static tv_vm_frag_batch *one_triangle(tv_vm *vm, tv_vm_program *p, uint32_t seed,
                                      const float xy[6], tri *t, scene **s,
                                      tv_vm_frag_params *fp)
{
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_frag_batch *B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
    if (!B)
        fail_msg("tv_vm_frag_batch_begin: %s", err.message);
    *s = calloc(1, sizeof **s);
    assert_non_null(*s);
    for (unsigned k = 0; k < 3; k++)
        make_vertex(&t->v[k], xy[2 * k], xy[2 * k + 1], &seed);
    t->front = true;
    t->id = 0;
    (*s)->cur = t;
    params_of(t, *s, fp);
    return B;
}

/* A coverage_quads hook that covers the lanes of its quads outside the box (boxes with odd
 * and even edges): no pixel outside the box is shaded, every one inside is, once — the
 * packer masks each quad's lanes with the box (pack_box_quads), which no hook that keeps
 * the contract shows. */
static void test_quads_kept_to_box(void **state)
{
    (void)state;
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_text);
    tv_error err;
    memset(&err, 0, sizeof err);
    unsigned outside_lanes = 0;
    for (uint32_t k = 0; k < 16; k++) {
        tri t;
        scene *s;
        tv_vm_frag_params fp;
        static const float xy[6] = {4.0f, 4.0f, 30.0f, 5.0f, 6.0f, 30.0f};
        tv_vm_frag_batch *B = one_triangle(vm, p, 0x77u + k, xy, &t, &s, &fp);
        /* boxes of 1 to 5 pixels a side from odd and even corners */
        const uint32_t x0 = 10 + (k & 1), y0 = 12 + ((k >> 1) & 1);
        const uint32_t x1 = x0 + 1 + (k % 5), y1 = y0 + 1 + ((k / 3) % 5);
        fp.scissor[0] = x0;
        fp.scissor[1] = y0;
        fp.scissor[2] = x1;
        fp.scissor[3] = y1;
        fp.coverage_quads = whole_quads_hook;
        tv_vm_stats st;
        if (tv_vm_frag_batch_add(B, &fp, &st, &err) != TV_OK ||
            tv_vm_frag_batch_flush(B, &st, &err) != TV_OK)
            fail_msg("box %u: %s", k, err.message);
        for (uint32_t y = 0; y < TH; y++)
            for (uint32_t x = 0; x < TW; x++) {
                const bool in = x >= x0 && x < x1 && y >= y0 && y < y1;
                if (s->count[y][x] != (in ? 1u : 0u))
                    fail_msg("box %u (%u, %u)-(%u, %u): pixel (%u, %u) shaded %u times", k,
                             x0, y0, x1, y1, x, y, s->count[y][x]);
                outside_lanes += !in && x >= (x0 & ~1u) && x < ((x1 + 1) & ~1u) &&
                                 y >= (y0 & ~1u) && y < ((y1 + 1) & ~1u);
            }
        tv_vm_frag_batch_end(B);
        free(s);
    }
    assert_true(outside_lanes > 40);   /* the hook did cover lanes outside the boxes */
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void test_bad_coverage_quads(void **state)
{
    (void)state;
    static const char *const want[] = {"at most", "not an aligned quad", "not an aligned quad",
                                       "not an aligned quad"};
    for (int mode = 0; mode < 4; mode++) {
        tv_vm *vm = engine(false);
        tv_vm_program *p = hv_program(vm, fs_text);
        tv_error err;
        memset(&err, 0, sizeof err);
        tri t;
        scene *s;
        tv_vm_frag_params fp;
        static const float xy[6] = {10.0f, 10.0f, 14.0f, 10.5f, 10.5f, 15.0f};
        tv_vm_frag_batch *B = one_triangle(vm, p, 0x51u + (uint32_t)mode, xy, &t, &s, &fp);
        fp.coverage_quads = bad_quads_hook;
        bad_quads_mode = mode;
        tv_vm_stats st;
        assert_int_equal(tv_vm_frag_batch_add(B, &fp, &st, &err), TV_ERR_ARG);
        if (!strstr(err.message, want[mode]))
            fail_msg("mode %d: %s", mode, err.message);
        assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
        assert_int_equal(st.warps, 0);   /* nothing was left pending */
        tv_vm_frag_batch_end(B);
        free(s);
        tv_vm_program_destroy(p);
        tv_vm_destroy(vm);
    }
}

/* A batch's full warps wait in a ring of four (vm_stage_frag_pack.c, VM_PACK_WARPS in
 * vm_stage_frag_pack.h) and run four at once when the fourth is full, oldest first, the rest at the flush: an add runs
 * no warp or four, every pixel of disjoint triangles reaches the hooks once. A failing add
 * drops the parked warps with the one being filled: the flush after it runs nothing. */
static void test_ring_of_warps(void **state)
{
    (void)state;
    enum { NT = 48 };
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_text);
    tri *t = calloc(NT, sizeof *t);
    scene *s = calloc(1, sizeof *s);
    assert_non_null(t);
    assert_non_null(s);
    uint32_t seed = 11;
    for (unsigned i = 0; i < NT; i++) {   /* 8 x 6 triangles, each in its own 8x8 cell */
        const float x0 = 8.0f * (float)(i % 8) + 1.0f, y0 = 8.0f * (float)(i / 8) + 1.0f;
        for (unsigned k = 0; k < 3; k++)
            make_vertex(&t[i].v[k], x0 + (k == 1 ? 5.0f : 0.0f), y0 + (k == 2 ? 5.0f : 0.0f),
                        &seed);
        t[i].front = true;
        t[i].id = i;
    }
    tv_vm_frag_batch *B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
    assert_non_null(B);
    tv_vm_frag_params fp;
    tv_vm_stats st;
    uint64_t ran = 0;
    unsigned first_run = NT;   /* the add at which the first four ran */
    for (unsigned i = 0; i < NT; i++) {
        s->cur = &t[i];
        params_of(&t[i], s, &fp);
        assert_int_equal(tv_vm_frag_batch_add(B, &fp, &st, &err), TV_OK);
        if (st.warps != 0 && st.warps != 4)
            fail_msg("add %u ran %llu warps (0 or 4: the ring's)", i,
                     (unsigned long long)st.warps);
        if (st.warps && first_run == NT)
            first_run = i;
        ran += st.warps;
    }
    assert_true(first_run >= 1 && first_run < NT);   /* (four warps took several adds) */
    assert_true(ran >= 8);
    assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
    assert_true(st.warps <= 4);
    uint64_t logged = 0;
    for (unsigned y = 0; y < TH; y++)
        for (unsigned x = 0; x < TW; x++) {
            assert_true(s->count[y][x] <= 1);
            logged += s->count[y][x];
        }
    assert_true(logged >= 10u * NT);   /* (about 15 pixels a triangle) */
    tv_vm_frag_batch_end(B);
    /* the adds before the first four ran leave full warps parked and one being filled (a
       flush after them runs two to four); a failing add after them drops them all: the
       flush then runs nothing */
    for (int fail = 0; fail < 2; fail++) {
        memset(s, 0, sizeof *s);
        B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
        assert_non_null(B);
        for (unsigned i = 0; i < first_run; i++) {
            s->cur = &t[i];
            params_of(&t[i], s, &fp);
            assert_int_equal(tv_vm_frag_batch_add(B, &fp, &st, &err), TV_OK);
            assert_int_equal(st.warps, 0);
        }
        if (fail) {
            fp.prim = TV_VM_PRIM_RECT;   /* (a RECT under a coverage hook: set-up fails) */
            assert_int_equal(tv_vm_frag_batch_add(B, &fp, NULL, &err), TV_ERR_ARG);
        }
        assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
        if (fail)
            assert_int_equal(st.warps, 0);
        else   /* (one being filled, the others parked) */
            assert_true(st.warps >= 2 && st.warps <= 4);
        uint64_t shaded = 0;
        for (unsigned y = 0; y < TH; y++)
            for (unsigned x = 0; x < TW; x++)
                shaded += s->count[y][x];
        if (fail)
            assert_int_equal(shaded, 0);
        else
            assert_true(shaded > 0);
        tv_vm_frag_batch_end(B);
    }
    free(s);
    free(t);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    tv_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tv_vm_frag_batch_add(NULL, NULL, NULL, &err), TV_ERR_ARG);
    assert_int_equal(tv_vm_frag_batch_flush(NULL, NULL, &err), TV_ERR_ARG);
    tv_vm_frag_batch_end(NULL);
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_text);
    tv_vm_frag_batch *B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
    assert_non_null(B);
    tv_vm_frag_params fp;
    memset(&fp, 0, sizeof fp);   /* no target size */
    assert_int_equal(tv_vm_frag_batch_add(B, &fp, NULL, &err), TV_ERR_ARG);
    assert_non_null(strstr(err.message, "target size"));
    /* a failing add leaves nothing pending: a small triangle's quads wait in a warp, then
       an add with the same hooks and target fails its set-up (a RECT under a coverage
       hook); the flush after it has nothing to run */
    scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    tri t[1];
    uint32_t seed = 7;
    for (unsigned k = 0; k < 3; k++)
        make_vertex(&t[0].v[k], 10.0f + (k == 1 ? 4.0f : 0.0f), 10.0f + (k == 2 ? 4.0f : 0.0f),
                    &seed);
    t[0].front = true;
    t[0].id = 0;
    s->cur = &t[0];
    params_of(&t[0], s, &fp);
    tv_vm_stats st;
    assert_int_equal(tv_vm_frag_batch_add(B, &fp, &st, &err), TV_OK);
    assert_int_equal(st.warps, 0);   /* (its quads are pending) */
    fp.prim = TV_VM_PRIM_RECT;
    assert_int_equal(tv_vm_frag_batch_add(B, &fp, NULL, &err), TV_ERR_ARG);
    assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
    assert_int_equal(st.warps, 0);
    uint64_t logged = 0;
    for (unsigned y = 0; y < TH; y++)
        for (unsigned x = 0; x < TW; x++)
            logged += s->count[y][x];
    assert_int_equal(logged, 0);
    free(s);
    tv_vm_frag_batch_end(B);
    /* a program of another stage */
    tv_vm_program *v = hv_program(vm, "VERT\nDCL OUT[0], POSITION\n  0: END\n");
    assert_null(tv_vm_frag_batch_begin(vm, v, NULL, &err));
    assert_non_null(strstr(err.message, "not FRAG"));
    tv_vm_program_destroy(v);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_overlapping),
        cmocka_unit_test(test_ring_of_warps),
        cmocka_unit_test(test_grid_shared_edges),
        cmocka_unit_test(test_denormal_w_flushed),
        cmocka_unit_test(test_deferred_inputs),
        cmocka_unit_test(test_flatshade_between_adds),
        cmocka_unit_test(test_changed_hooks),
        cmocka_unit_test(test_same_common_fields),
        cmocka_unit_test(test_interp_runs_alone),
        cmocka_unit_test(test_warp_wide_in_tiles),
        cmocka_unit_test(test_undeclared_inputs_zero),
        cmocka_unit_test(test_quads_kept_to_box),
        cmocka_unit_test(test_bad_coverage_quads),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
