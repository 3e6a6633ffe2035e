/* Fragment batches that pack covered pixels instead of quads (tv_vm_frag_batch,
 * src/vm/vm_stage_frag_batch.c pixels_ok): programs whose results need no derivative, the
 * pixels' placement by each ISA variant, texturing programs whose lookups need no LOD
 * (and one under no bindings): every way of running gives the fragments one
 * tv_vm_run_fragment per triangle on the plain interpreter gives (the harness:
 * test_frag_batch_fixture.h; the batches' other rules: test_frag_batch.c). */
#include "test_frag_batch_fixture.h"

/* Programs whose results need no derivative (fs_text and fs_defer without DDX and DDY):
 * a batch packs their covered pixels, not quads (vm_stage_frag_batch.c, pixels_ok), and
 * every way of running still gives the plain interpreter's fragments, in every scene,
 * inputs computed at once or deferred; the batch runs fewer warps than with the
 * derivative, which keeps the quads (and no warp of those is packed from pixels). */
static const char fs_pixels[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], CONSTANT\n"
    "DCL IN[2], POSITION, LINEAR\n"
    "DCL SV[0], FACE\n"
    "DCL SV[1], PRIM_ID\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "DCL TEMP[0]\n"
    "  0: U2F TEMP[0].x, SV[1].xxxx\n"
    "  1: ADD OUT[0].x, IN[0].xxxx, TEMP[0].xxxx\n"
    "  2: MOV OUT[0].y, IN[1].yyyy\n"
    "  3: MOV OUT[0].z, SV[0].xxxx\n"
    "  4: MUL OUT[0].w, IN[0].yyyy, IN[2].xxxx\n"
    "  5: MOV OUT[1], IN[2]\n"
    "  6: END\n";

static const char fs_defer_pixels[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], LINEAR\n"
    "DCL IN[2], COLOR[0], COLOR\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "  0: MOV OUT[0].xyz, IN[0].xyzz\n"
    "  1: ADD OUT[0].w, IN[1].xxxx, IN[2].wwww\n"
    "  2: MOV OUT[1].xy, IN[0].wyww\n"
    "  3: MOV OUT[1].zw, IN[2].xxxy\n"
    "  4: END\n";

static void test_pixels_without_derivatives(void **state)
{
    (void)state;
    static const unsigned counts[4] = {600, 768, 600, 600};
    for (unsigned k = 0; k < 4; k++) {
        flushed = k == 2;
        fs_now = k == 1 ? fs_text : fs_defer;
        pixel_warps = pixel_calls = 0;
        check_scene(k, counts[k]);
        const uint64_t quad_warps = batch_warps;
        assert_int_equal(pixel_warps, 0);
        assert_int_equal(pixel_calls, 0);
        fs_now = k == 1 ? fs_pixels : fs_defer_pixels;
        check_scene(k, counts[k]);
        if (pixel_warps == 0 || pixel_calls == 0 || batch_warps * 10 > quad_warps * 8)
            fail_msg("scene %u: %llu warps from pixels (%llu emit calls), %llu warps in all, "
                     "%llu with quads", k, (unsigned long long)pixel_warps,
                     (unsigned long long)pixel_calls, (unsigned long long)batch_warps,
                     (unsigned long long)quad_warps);
    }
    flushed = false;
    fs_now = fs_text;
}

/* The pixels of a coverage_quads answer are placed four quads at a time on AVX-512
 * (pack_box_pixels_avx512), two at a time on AVX2 (pack_box_pixels_avx2) and quad by quad
 * elsewhere (pack_quad, the reference: the SSE2 variant): all must give the same warps — every emit call's live lanes holding the same pixels in the same lanes —
 * and the plain interpreter's fragments, in every scene (coverage_quads serving every box
 * it can, and small overlapping triangles that it serves all of); with coverage words carrying
 * samples the draw does not have, which no lane may take. The scenes must fill warps in
 * the middle of a triangle's quads (a quad's pixels in two warps) and run pending warps
 * early (a covered pixel pending). */
static void test_pixel_placement_isas(void **state)
{
    (void)state;
    /* the variants, reference first, and whether this processor has each */
    static const unsigned caps[3] = {VM_STORE_SSE2, VM_STORE_AVX2, VM_STORE_AVX512};
    static const char *const names[3] = {"pixels placed by quads", "pixels placed with AVX2",
                                         "pixels placed with AVX-512"};
    uint32_t *logs[3];
    size_t counts[3];
    uint64_t split = 0, early = 0;
    quads_always = true;
    for (unsigned kind = 0; kind < 6; kind++)
        for (unsigned extra = 0; extra < 2; extra++) {
            tri *t = malloc(600 * sizeof *t);
            scene *ref = calloc(1, sizeof *ref);
            assert_true(t && ref);
            const unsigned n = make_scene(kind, t, 600);
            flushed = kind == 2;
            fs_now = fs_pixels;
            cov_extra = extra ? 0x30u : 0u;
            draw(true, false, t, n, ref, NULL);
            with_quads = true;
            for (unsigned v = 0; v < 3; v++) {
                scene *s = calloc(1, sizeof *s);
                logs[v] = layout = malloc(LAYOUT_MAX * sizeof *layout);
                assert_true(s && layout);
                layout_n = 0;
                store_cap = caps[v];
                pixel_warps = 0;
                draw(false, true, t, n, s, NULL);
                assert_true(layout_n <= LAYOUT_MAX && pixel_warps > 0);
                counts[v] = layout_n;
                same_logs(ref, s, names[v]);
                free(s);
            }
            layout = NULL;
            store_cap = VM_STORE_AVX512;
            with_quads = false;
            cov_extra = 0;
            for (unsigned v = 1; v < 3; v++)
                if (vm_frag_store_isa() >= caps[v] &&
                    (counts[0] != counts[v] ||
                     memcmp(logs[0], logs[v], counts[0] * sizeof *logs[0])))
                    fail_msg("scene %u%s: the warps of %s differ from the reference's (%zu "
                             "and %zu words)", kind, extra ? " (extra coverage bits)" : "",
                             names[v], counts[0], counts[v]);
            /* what the scene exercised: a full warp's last pixel and the next warp's first
               in one quad (the same primitive's: its emit calls follow), and warps run
               with lanes to spare before the flush */
            for (size_t k = 0; k < counts[0];) {
                const uint32_t live = logs[0][k + 1];
                const unsigned nl = (unsigned)__builtin_popcount(live);
                const size_t next = k + 2 + 2 * (size_t)nl;
                if (live == 0xffffffffu && next + 2 < counts[0] && logs[0][next + 1]) {
                    const uint32_t a = logs[0][k + 2 + 2 * 31], b = logs[0][next + 2];
                    split += (a & 0xfffefffeu) == (b & 0xfffefffeu);
                }
                early += nl < 32 && next < counts[0];
                k = next;
            }
            for (unsigned v = 0; v < 3; v++)
                free(logs[v]);
            free(ref);
            free(t);
        }
    quads_always = false;
    flushed = false;
    fs_now = fs_text;
    if (split < 50 || early < 50)
        fail_msg("quads split between warps %llu, warps run early %llu",
                 (unsigned long long)split, (unsigned long long)early);
}

/* Textures: TEX and TXB (bias from IN[1].w) through SAMP[0] of a 16x16 RGBA32F texture
 * of five levels of different random texels. A sampler whose values need no LOD
 * (tv_tex_lod_free: the mip filter NONE, one filter) lets the batch pack pixels; one whose
 * levels or anisotropic probes follow the derivatives keeps the quads — where pixels
 * packed instead, the lanes' neighbours would be other pixels and the plain
 * interpreter's values would not come out. */
static const char fs_tex[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], LINEAR\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n"
    "  1: TXB OUT[1], IN[1], SAMP[0], 2D\n"
    "  2: END\n";

enum { TEX_BASE = 0x10000, TEX_SIZE = 1 << 20, TEX_HDR = TEX_BASE, TEX_SMP = TEX_BASE + 256,
       TEX_DATA = TEX_BASE + 4096 };

static void test_pixels_lod_free_textures(void **state)
{
    (void)state;
    uint8_t *host;
    tv_memory *mem;
    tv_tex_unit *tu;
    tc_tex_open(TEX_BASE, TEX_SIZE, &host, &mem, &tu);
    tv_tex_set_header_pool(tu, TEX_HDR, 3);
    tv_tex_set_sampler_pool(tu, TEX_SMP, 3);
    const tv_format f = tv_format_from_name("R32G32B32A32_FLOAT");
    tv_tic tic;
    tc_tic_blocklinear(&tic, f, TV_TEX_2D, 16, 16, 1, 5);
    tic.address = TEX_DATA;
    uint32_t raw[8];
    tv_tic_encode(&tic, raw);
    assert_true(tv_memory_write(mem, TEX_HDR, raw, sizeof raw));
    uint32_t seed = 0x7e57ab1eu;
    for (unsigned L = 0; L < 5; L++)
        for (unsigned y = 0; y < (16u >> L); y++)
            for (unsigned x = 0; x < (16u >> L); x++) {
                uint32_t v[4];
                uint8_t texel[16];
                for (unsigned c = 0; c < 4; c++)
                    v[c] = tv_f32_bits(unit(&seed));
                assert_true(tv_format_pack(f, v, texel));
                assert_true(tv_memory_write(mem, tv_tic_texel_address(&tic, L, x, y, 0, 0),
                                            texel, sizeof texel));
            }
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.tex = tu;
    binds_now = &b;
    fs_now = fs_tex;
    static const struct {
        uint8_t mag, min, mip, aniso;
        bool pixels;
    } samplers[4] = {
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, 0, true},
        {TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, 0, true},
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, false},
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, 7, false},
    };
    for (unsigned k = 0; k < 4; k++) {
        tv_tsc s;
        memset(&s, 0, sizeof s);
        s.mag_filter = samplers[k].mag;
        s.min_filter = samplers[k].min;
        s.mip_filter = samplers[k].mip;
        s.max_anisotropy = samplers[k].aniso;
        s.max_lod_clamp = 0xfff;
        tv_tsc_encode(&s, raw);
        assert_true(tv_memory_write(mem, TEX_SMP, raw, sizeof raw));
        tv_tex_invalidate(tu);
        pixel_warps = 0;
        check_scene(0, 600);
        if ((pixel_warps != 0) != samplers[k].pixels)
            fail_msg("sampler %u: %llu warps packed from pixels", k,
                     (unsigned long long)pixel_warps);
    }
    binds_now = NULL;
    fs_now = fs_text;
    tc_tex_close(host, mem, tu);
}

/* A texturing program under no bindings (NULL: the engine's empty ones, no texture unit):
 * the batch starts, packs no pixels (nothing can say its samplings are LOD-free), and
 * the texture opcodes fault at the add, as in a run of its own. */
static void test_pixels_without_bindings(void **state)
{
    (void)state;
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_tex);
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_frag_batch *B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
    assert_non_null(B);
    tri t[8];
    const unsigned n = make_scene(0, t, 8);
    scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->cur = &t[0];
    tv_vm_frag_params fp;
    params_of(&t[0], s, &fp);
    tv_vm_stats st;
    const tv_status one = tv_vm_run_fragment(vm, p, NULL, &fp, &st, &err);
    assert_int_not_equal(one, TV_OK);
    tv_status rc = TV_OK;
    for (unsigned i = 0; i < n && rc == TV_OK; i++) {
        s->cur = &t[i];
        params_of(&t[i], s, &fp);
        rc = tv_vm_frag_batch_add(B, &fp, &st, &err);
        if (rc == TV_OK)
            rc = tv_vm_frag_batch_flush(B, &st, &err);
    }
    assert_int_equal(rc, one);
    assert_int_equal(vm_frag_batch_pixel_warps(B), 0);
    tv_vm_frag_batch_end(B);
    free(s);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pixels_without_derivatives),
        cmocka_unit_test(test_pixel_placement_isas),
        cmocka_unit_test(test_pixels_lod_free_textures),
        cmocka_unit_test(test_pixels_without_bindings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
