/* The deferred inputs of packed groups (src/vm/vm_stage_frag_defer.c): which programs'
 * inputs may wait (the plan), and the one pass over a warp, whose every lane must hold
 * the tile formulas of vm_stage_frag_interp.h (tile_bary, interp_tile) evaluated with its own
 * group's numbers, computed here from those formulas lane by lane, bit for bit: the plain
 * loop and, where the CPU has it, the AVX-512 kernel. Numbers include what the scenes of
 * test_frag_batch rarely reach: a normalising sum of zero (1/w all 0), zero and huge
 * areas, infinities, signed zeros and denormals, under flushed denormals too; lanes not
 * deferred keep their registers. The engine-level proof (batches against the plain
 * interpreter) is test_frag_batch's test_deferred_inputs. */
#include <math.h>
#include <stdlib.h>

#include "helper_vm.h"
#include "util/fpmode.h"
#include "vm/vm_stage_frag_defer.h"
#include "vm/vm_stage_frag_store.h"
#include "common_rng.h"

/* A number for a table: mostly ordinary, sometimes one of the edge values */
static float number(uint32_t *s, float scale)
{
    static const float edge[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1e-40f, -1e-40f,
                                 3e38f, -3e38f, 1.0f, 0x1p-126f};
    uint32_t r = tc_rng_next(s);
    if (r % 11 == 0)
        return edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
    return ((float)(int32_t)(tc_rng_next(s) & 0xffffff) / (float)0x800000 - 1.0f) * scale;
}

/* edge_plain of vm_stage_frag.c */
static float edge_f(float ax, float ay, float bx, float by, float px, float py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Lane L's value of channel I: tile_bary's barycentrics, interp_tile's weights (persp_terms)
 * and its v0 + w1 d1 + w2 d2 */
static float expected(const vm_frag_defer *D, const vm_frag_defer_plan *pl, const vm_warp *w,
                      unsigned l, unsigned i)
{
    const unsigned g = D->lane_group[l];
    const float fx = (float)w->lane_x[l] + 0.5f, fy = (float)w->lane_y[l] + 0.5f;
    const float *x = (const float[]){D->x[0][g], D->x[1][g], D->x[2][g]};
    const float *y = (const float[]){D->y[0][g], D->y[1][g], D->y[2][g]};
    float b0 = edge_f(x[1], y[1], x[2], y[2], fx, fy) / D->area[g];
    float b1 = edge_f(x[2], y[2], x[0], y[0], fx, fy) / D->area[g];
    float b2 = edge_f(x[0], y[0], x[1], y[1], fx, fy) / D->area[g];
    float w1 = b1, w2 = b2;
    if (pl->persp[i]) {
        float a = b0 * D->iw[0][g], b = b1 * D->iw[1][g], c = b2 * D->iw[2][g];
        float sum = a + b + c;
        float d = sum + (float)(sum == 0.0f);
        w1 = b / d;
        w2 = c / d;
    }
    return D->v0[i][g] + w1 * D->d1[i][g] + w2 * D->d2[i][g];
}

enum { SLOTS = 40, SENTINEL = 0x5a5a5a5au };

/* One random warp of groups; both ways checked against `expected`. */
static void check_warp(uint32_t *seed, unsigned kernel, bool flush)
{
    vm_frag_defer_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.ok = true;
    pl.n = (uint8_t)(1 + tc_rng_next(seed) % VM_DEFER_CHANNELS);
    for (unsigned i = 0; i < pl.n; i++) {
        pl.persp[i] = (uint8_t)(tc_rng_next(seed) & 1);
        pl.any_persp |= pl.persp[i];
        pl.slot[i] = 2 * i + (tc_rng_next(seed) & 1);   /* distinct, not contiguous */
    }
    vm_frag_defer D;
    memset(&D, 0, sizeof D);
    vm_warp *w = aligned_alloc(_Alignof(vm_warp), sizeof *w);   /* (64-byte aligned) */
    vm_slot *regs = malloc(SLOTS * sizeof *regs);
    assert_true(w && regs);
    memset(w, 0, sizeof *w);
    for (unsigned s = 0; s < SLOTS; s++)
        for (unsigned l = 0; l < VM_LANES; l++)
            regs[s].u[l] = SENTINEL;
    /* groups of 1-12 lanes from a random first lane on (a packed warp's groups: whole
       quads, or any run of lanes where covered pixels are packed); some lanes left out */
    unsigned q = tc_rng_next(seed) % 3;
    while (q < VM_LANES && D.groups < VM_DEFER_GROUPS) {
        unsigned len = 1 + tc_rng_next(seed) % 12;
        if (q + len > VM_LANES)
            len = VM_LANES - q;
        const unsigned g = D.groups++;
        const bool degenerate = tc_rng_next(seed) % 9 == 0;   /* every 1/w 0: the sum is 0 */
        for (unsigned k = 0; k < 3; k++) {
            D.x[k][g] = 100.0f + number(seed, 40.0f);
            D.y[k][g] = 80.0f + number(seed, 40.0f);
            D.iw[k][g] = degenerate ? 0.0f : number(seed, 2.0f);
        }
        D.area[g] = tc_rng_next(seed) % 13 == 0 ? 0.0f : number(seed, 300.0f);
        for (unsigned i = 0; i < pl.n; i++) {
            D.v0[i][g] = number(seed, 8.0f);
            D.d1[i][g] = number(seed, 8.0f);
            D.d2[i][g] = number(seed, 8.0f);
        }
        for (unsigned k = q; k < q + len; k++)
            D.lane_group[k] = g;
        D.lanes |= (uint32_t)((1ull << len) - 1) << q;
        q += len + (tc_rng_next(seed) % 4 == 0);
    }
    for (unsigned l = 0; l < VM_LANES; l++) {
        w->lane_x[l] = (int32_t)(tc_rng_next(seed) % 256) - 16;
        w->lane_y[l] = (int32_t)(tc_rng_next(seed) % 200) - 16;
    }
    const vm_frag_defer before = D;
    unsigned fp_saved = flush ? tv_fp_flush_begin() : 0;
    float want[VM_DEFER_CHANNELS][VM_LANES];
    for (unsigned i = 0; i < pl.n; i++)
        for (unsigned l = 0; l < VM_LANES; l++)
            want[i][l] = (before.lanes >> l) & 1u ? expected(&before, &pl, w, l, i) : 0.0f;
    vm_frag_defer_run(&D, &pl, w, regs, kernel);
    if (flush)
        tv_fp_flush_end(fp_saved);
    assert_int_equal(D.lanes, 0);
    assert_int_equal(D.groups, 0);
    for (unsigned s = 0; s < SLOTS; s++)
        for (unsigned l = 0; l < VM_LANES; l++) {
            int i = -1;
            for (unsigned k = 0; k < pl.n; k++)
                if (pl.slot[k] == s)
                    i = (int)k;
            const bool set = i >= 0 && ((before.lanes >> l) & 1u);
            const uint32_t exp = set ? tv_f32_bits(want[i][l]) : SENTINEL;
            if (regs[s].u[l] != exp)
                fail_msg("%s%s: slot %u lane %u: %08x, expected %08x",
                         kernel == VM_DEFER_AVX512 ? "avx512" : kernel ? "avx2" : "c",
                         flush ? " flushed" : "", s, l, regs[s].u[l], exp);
        }
    free(w);
    free(regs);
}

static void test_pass_matches_formulas(void **state)
{
    (void)state;
    /* the plain loop, and each vector kernel the CPU has (under the build's ceiling) */
    const unsigned widest = vm_frag_store_isa() == VM_STORE_AVX512 ? VM_DEFER_AVX512
                            : vm_frag_store_isa() == VM_STORE_AVX2 ? VM_DEFER_AVX2
                                                                   : VM_DEFER_C;
    for (unsigned kernel = VM_DEFER_C; kernel <= widest; kernel++) {
        uint32_t seed = 0x9e3779b9u;
        for (unsigned n = 0; n < 3000; n++)
            check_warp(&seed, kernel, n % 3 == 2);
    }
}

/* The plan: which programs defer, with which channels and slots */
/* An engine of the default configuration */
static tv_vm *new_vm(void)
{
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    tv_error err;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    assert_non_null(vm);
    return vm;
}

static void test_plan(void **state)
{
    (void)state;
    tv_vm *vm = new_vm();
    static const struct {
        const char *text;
        bool ok;
    } cases[] = {
        {"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], LINEAR\n"
         "DCL IN[2], COLOR[0], COLOR\nDCL OUT[0], COLOR\n"
         "  0: MOV OUT[0].xy, IN[0].xwxw\n  1: ADD OUT[0].z, IN[1].zzzz, IN[2].yyyy\n"
         "  2: END\n", true},
        {"FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n"
         "  0: MOV OUT[0], IN[0]\n  1: END\n", false},
        {"FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\n"
         "  0: MOV OUT[0], IN[0]\n  1: END\n", false},
        {"FRAG\nDCL IN[0], FACE, CONSTANT\nDCL OUT[0], COLOR\n"
         "  0: MOV OUT[0], IN[0]\n  1: END\n", false},
        {"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL SV[0], PRIM_ID\nDCL OUT[0], COLOR\n"
         "  0: MOV OUT[0], IN[0]\n  1: END\n", false},
        {"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE, SAMPLE\nDCL OUT[0], COLOR\n"
         "  0: MOV OUT[0], IN[0]\n  1: END\n", false},
        /* 5 vec4s read whole: 20 channels, more than the tables hold */
        {"FRAG\nDCL IN[0..4], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
         "  0: ADD TEMP[0], IN[0], IN[1]\n  1: ADD TEMP[0], TEMP[0], IN[2]\n"
         "  2: ADD TEMP[0], TEMP[0], IN[3]\n  3: ADD OUT[0], TEMP[0], IN[4]\n  4: END\n",
         false},
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tv_vm_program *p = hv_program(vm, cases[k].text);
        vm_frag_defer_plan pl;
        vm_frag_defer_plan_init(&pl, p);
        if (pl.ok != cases[k].ok)
            fail_msg("case %u: plan %s", k, pl.ok ? "defers" : "does not defer");
        if (k == 0) {
            /* every channel the program may read (vm_lower.c's read bits: at least IN[0].xw,
               IN[1].z and IN[2].y), in input and channel order, each in its register slot,
               perspective but for the LINEAR IN[1] */
            assert_true(pl.any_persp && pl.has_color && !pl.has_centroid);
            unsigned i = 0;
            for (uint32_t f = 0; f < p->num_inputs; f++) {
                const vm_fs_input *fi = &p->inputs[f];
                for (unsigned c = 0; c < 4; c++) {
                    if (!((fi->read >> c) & 1u))
                        continue;
                    assert_true(i < pl.n);
                    assert_int_equal(pl.reg[i], fi->reg);
                    assert_int_equal(pl.chan[i], c);
                    assert_int_equal(pl.persp[i], fi->reg != 1);
                    assert_int_equal(pl.slot[i], p->in.base + 4u * fi->reg + c);
                    i++;
                }
            }
            assert_int_equal(i, pl.n);
            static const uint8_t need[4][2] = {{0, 0}, {0, 3}, {1, 2}, {2, 1}};
            for (unsigned j = 0; j < 4; j++) {
                bool found = false;
                for (unsigned m = 0; m < pl.n; m++)
                    found |= pl.reg[m] == need[j][0] && pl.chan[m] == need[j][1];
                assert_true(found);
            }
        }
        tv_vm_program_destroy(p);
    }
    tv_vm_destroy(vm);
}

/* The channels a texture instruction's coordinate makes read (vm_fs_input.read, so the
 * channels the plan defers and the tile paths interpolate): those its opcode and target
 * take (vm_tex_coord_reads), not the numbers among the micro-op's fields (its block size
 * 4 had named IN[0].w here) nor the components a swizzle sends where nothing reads them. */
static void test_texture_reads(void **state)
{
    (void)state;
    tv_vm *vm = new_vm();
    static const struct {
        const char *text;
        uint8_t read[2];
    } cases[] = {
        {"FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
         "DCL SVIEW[0], 2D, FLOAT\nTEX OUT[0], IN[0].xyyy, SAMP[0], 2D\nEND\n", {0x3, 0}},
        {"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
         "DCL SVIEW[0], 2D, FLOAT\nTEX OUT[0], IN[0], SAMP[0], 2D\nEND\n", {0x3, 0}},
        {"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
         "DCL SVIEW[0], 2D, FLOAT\nTXP OUT[0], IN[0], SAMP[0], 2D\nEND\n", {0xb, 0}},
        {"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], LINEAR\n"
         "DCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], SHADOW2D, FLOAT\n"
         "TEX OUT[0], IN[1].wzyx, SAMP[0], SHADOW2D\nEND\n", {0, 0xe}},
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tv_vm_program *p = hv_program(vm, cases[k].text);
        for (uint32_t f = 0; f < p->num_inputs; f++) {
            const vm_fs_input *fi = &p->inputs[f];
            if (fi->read != cases[k].read[fi->reg])
                fail_msg("case %u: IN[%u] reads 0x%x, not 0x%x", k, fi->reg, fi->read,
                         cases[k].read[fi->reg]);
        }
        tv_vm_program_destroy(p);
    }
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_matches_formulas),
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_texture_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
