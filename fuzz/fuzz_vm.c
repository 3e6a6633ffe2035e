/* libFuzzer target for the engine: parse TGSI text, validate and lower it, and run it on
 * small resources with tight limits (any stage: COMP 2 blocks of 40 threads, FRAG a 9x5
 * 2-sample target, VERT, GEOM). A texture unit with tiny textures (2D with mips, 2D array,
 * cube, 3D, depth, on every SVIEW/SAMP slot 0..7) is bound so texture opcodes run too.
 * Crashes, sanitizer reports and hangs are bugs; errors are fine.
 *   scripts/fuzz 600 fuzz_vm          (seeds: fuzz/corpus/vm/) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/vm.h"

static uint32_t buf[256], cb[64], img[64], hw[8], glob[64];

/* ---- a tiny texture unit: header/sampler pools and texels in one 64 KiB mapping ---- */
#define TEX_BASE 0x100000u
#define TEX_SIZE 0x10000u
static uint8_t tex_host[TEX_SIZE];
static tv_memory *tex_mem;
static tv_tex_unit *tex_unit;

static void put_tic(unsigned idx, tv_format f, unsigned type, unsigned w, unsigned h,
                    unsigned d, unsigned levels, uint64_t *next)
{
    tv_tic t;
    tv_error e;
    memset(&t, 0, sizeof t);
    if (tv_tic_from_format(&t, f, &e) != TV_OK)
        abort();
    t.header_version = TV_TIC_BLOCKLINEAR;
    t.texture_type = (uint8_t)type;
    t.width_minus_one = w - 1;
    t.height_minus_one = (uint16_t)(h - 1);
    t.depth_minus_one = (uint16_t)(d - 1);
    t.max_mip_level = (uint8_t)(levels - 1);
    t.res_view_max_mip_level = (uint8_t)(levels - 1);
    t.normalized_coords = true;
    t.address = *next;
    *next += (tv_tic_size_bytes(&t) + 1023u) & ~511ull;
    if (*next > TEX_BASE + TEX_SIZE)
        abort();
    uint32_t raw[8];
    tv_tic_encode(&t, raw);
    memcpy(tex_host + 32u * idx, raw, 32);
}

static void put_tsc(unsigned idx, unsigned filter, unsigned mip, unsigned wrap, bool cmp)
{
    tv_tsc s;
    memset(&s, 0, sizeof s);
    s.address_u = s.address_v = s.address_p = (uint8_t)wrap;
    s.mag_filter = (uint8_t)filter;
    s.min_filter = (uint8_t)filter;
    s.mip_filter = (uint8_t)mip;
    s.cubemap_interface_filtering = 2;
    s.max_lod_clamp = 0xfff;
    s.depth_compare = cmp;
    s.depth_compare_func = TV_CMP_LESS;
    uint32_t raw[8];
    tv_tsc_encode(&s, raw);
    memcpy(tex_host + 512u + 32u * idx, raw, 32);
}

static void tex_setup(void)
{
    for (size_t i = 0; i < TEX_SIZE; i++) /* texels: a fixed byte pattern */
        tex_host[i] = (uint8_t)(i * 151u + (i >> 8) * 7u);
    uint64_t next = TEX_BASE + 2048;
    put_tic(0, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_2D, 4, 4, 1, 3, &next);
    put_tic(1, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D_ARRAY, 2, 2, 3, 1, &next);
    put_tic(2, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_CUBE, 2, 2, 1, 2, &next);
    put_tic(3, TV_FORMAT_R16G16B16A16_FLOAT, TV_TEX_3D, 2, 2, 2, 1, &next);
    put_tic(4, TV_FORMAT_Z32_FLOAT, TV_TEX_2D, 2, 2, 1, 1, &next);
    put_tic(5, TV_FORMAT_R32_UINT, TV_TEX_1D, 4, 1, 1, 1, &next);
    put_tic(6, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_CUBE_ARRAY, 2, 2, 2, 1, &next);
    put_tic(7, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_1D_ARRAY, 4, 1, 2, 1, &next);
    for (unsigned i = 0; i < 8; i++)
        put_tsc(i, i & 1 ? TV_MAG_LINEAR : TV_MAG_POINT, i & 2 ? TV_MIP_LINEAR : TV_MIP_POINT,
                i & 4 ? TV_WRAP_REPEAT : TV_WRAP_CLAMP_TO_EDGE, i == 4);
    tv_error e;
    tex_mem = tv_memory_create();
    if (!tex_mem || tv_memory_map(tex_mem, TEX_BASE, tex_host, TEX_SIZE, &e) != TV_OK)
        abort();
    tex_unit = tv_tex_create(tex_mem);
    if (!tex_unit)
        abort();
    tv_tex_set_header_pool(tex_unit, TEX_BASE, 7);
    tv_tex_set_sampler_pool(tex_unit, TEX_BASE + 512, 7);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    if (!tex_unit)
        tex_setup();
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.threads = 1;
    cfg.limits.max_instructions = 20000;
    cfg.limits.max_loop_iterations = 2000;
    cfg.limits.max_call_depth = 16;
    cfg.limits.max_memory = 64u << 20;
    tv_error err;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        return 0;
    tv_vm_program *p = tv_vm_program_from_text(vm, (const char *)data, size, "fuzz", &err);
    if (!p) {
        tv_vm_destroy(vm);
        return 0;
    }
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){buf, sizeof buf};
    b.constbufs[0] = (tv_vm_buffer){cb, sizeof cb};
    b.hwatomic[0] = (tv_vm_buffer){hw, sizeof hw};
    b.global = (tv_vm_buffer){glob, sizeof glob};
    b.images[0] = (tv_vm_image){.data = img, .size = sizeof img, .format = TV_FORMAT_NONE,
                                .width = 4, .height = 4, .depth = 1};
    b.tex = tex_unit;
    b.shared_bytes = 1024;
    b.private_bytes = 64;
    switch (tv_vm_program_processor(p)) {
    case TV_TGSI_COMP: {
        tv_vm_compute_params cp;
        memset(&cp, 0, sizeof cp);
        cp.grid[0] = 2;
        cp.block[0] = 40;
        tv_vm_run_compute(vm, p, &b, &cp, NULL, &err);
        break;
    }
    case TV_TGSI_FRAG: {
        static tv_vm_frag_params fp;
        static uint32_t color[9 * 5 * 2 * 4];
        static float depth[9 * 5 * 2];
        tv_vm_frag_params_fullscreen(&fp, 9, 5, TV_VM_PRIM_RECT);
        static const float uv[4][2] = {{-0.25f, 0}, {1.5f, 0}, {0, 1}, {1, 2.0f}};
        for (int v = 0; v < 4; v++) /* IN[0] = uv over the target, a little outside [0,1] */
            for (int c = 0; c < 2; c++)
                memcpy(&fp.vertices[v].attr[0][c], &uv[v][c], 4);
        fp.samples = 2;
        fp.color[0].data = color;
        fp.color[1].data = color;
        fp.depth = depth;
        tv_vm_run_fragment(vm, p, &b, &fp, NULL, &err);
        break;
    }
    case TV_TGSI_VERT: {
        static float attr[5 * 4];
        static uint32_t out[5 * 2 * 4];
        tv_vm_vertex_params vp;
        memset(&vp, 0, sizeof vp);
        vp.count = 5;
        vp.instances = 2;
        for (int i = 0; i < 4; i++)
            vp.attribs[i] = (tv_vm_vertex_array){attr, sizeof attr, 0, 16, 4, false, 0};
        vp.out[0] = out;
        tv_vm_run_vertex(vm, p, &b, &vp, NULL, &err);
        break;
    }
    case TV_TGSI_GEOM: {
        static uint32_t in[18 * 4];
        tv_vm_geometry_params gp;
        memset(&gp, 0, sizeof gp);
        gp.num_prims = 3;
        gp.in[0] = in;
        gp.in[1] = in;
        gp.num_vertices = 18;
        tv_vm_geometry_output out;
        if (tv_vm_run_geometry(vm, p, &b, &gp, &out, NULL, &err) == TV_OK)
            tv_vm_geometry_output_free(&out);
        break;
    }
    default:
        break;
    }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return 0;
}
