/* libFuzzer target for the engine: parse TGSI text, lower it, and run it on small
 * resources with tight limits (any stage). Crashes, sanitizer reports and hangs are bugs;
 * errors are fine. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/vm.h"

static uint32_t buf[256], cb[64], img[64], hw[8], glob[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
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
