/* texvm run: VM bindings from the job, and the stage dispatch (FRAG, COMP, VERT, GEOM). */
#include "job_run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double engine_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* around each engine call: its time (rs->engine_seconds) and rs->engine_hook */
static double engine_begin(run_state *rs)
{
    if (rs->engine_hook)
        rs->engine_hook(true);
    return engine_now();
}

static void engine_end(run_state *rs, double t0)
{
    rs->engine_seconds += engine_now() - t0;
    if (rs->engine_hook)
        rs->engine_hook(false);
}

int run_bindings(run_state *rs, tv_vm_bindings *b)
{
    const job *j = rs->j;
    tv_vm_bindings_init(b);
    for (size_t i = 0; i < j->num_constants; i++)
        b->constbufs[j->constants[i].slot] =
            (tv_vm_buffer){j->constants[i].data, j->constants[i].size};
    for (size_t i = 0; i < j->num_buffers; i++)
        if (j->buffers[i].slot >= 0)
            b->buffers[j->buffers[i].slot] = (tv_vm_buffer){j->buffers[i].data, j->buffers[i].size};
    for (size_t i = 0; i < j->num_hwatomics; i++)
        b->hwatomic[j->hwatomics[i].slot] =
            (tv_vm_buffer){j->hwatomics[i].data, j->hwatomics[i].size};
    for (size_t i = 0; i < j->num_images; i++) {
        const job_image *im = &j->images[i];
        const job_texture *t = &j->textures[im->texture];
        const run_texture *rt = &rs->textures[im->texture];
        if (t->layout == TV_TIC_BLOCKLINEAR)
            return run_fail(rs, TV_EXIT_UNSUPPORTED,
                            "images[%zu]: images on block-linear textures are not supported "
                            "(the engine reads images in linear layout)",
                            i);
        uint32_t layers = job_texture_layers(t, im->level);
        uint32_t first = im->layer >= 0 ? (uint32_t)im->layer : 0;
        uint64_t a0 = tv_tic_texel_address(&rt->tic, im->level, 0, 0, first, 0);
        uint64_t row = t->height > 1 ? tv_tic_texel_address(&rt->tic, im->level, 0, 1, first, 0) - a0
                                     : 0;
        uint64_t lp = layers > 1 && first + 1 < layers
                          ? tv_tic_texel_address(&rt->tic, im->level, 0, 0, first + 1, 0) - a0
                          : 0;
        tv_vm_image *vi = &b->images[im->slot];
        uint64_t off = a0 - rt->tic.address;
        vi->data = rt->mem + off;
        vi->size = rt->size - off;
        vi->format = im->format != TV_FORMAT_NONE ? im->format : t->format;
        vi->target = TV_TGT_UNKNOWN;
        vi->width = job_level_size(t->width, im->level);
        vi->height = job_level_size(t->height, im->level);
        vi->depth = im->layer >= 0 ? 1 : layers;
        vi->samples = t->samples;
        vi->row_pitch = row;
        vi->layer_pitch = lp;
    }
    if (j->num_memory) {
        uint64_t end = 0;
        for (size_t i = 0; i < j->num_memory; i++)
            if (j->memory[i].address + j->memory[i].size > end)
                end = j->memory[i].address + j->memory[i].size;
        rs->global = calloc(1, (size_t)end);
        if (!rs->global)
            return run_fail(rs, TV_EXIT_INVALID, "memory: cannot allocate %llu bytes",
                            (unsigned long long)end);
        for (size_t i = 0; i < j->num_memory; i++)
            memcpy(rs->global + j->memory[i].address, j->memory[i].data, j->memory[i].size);
        rs->global_size = end;
        b->global = (tv_vm_buffer){rs->global, end};
    }
    if (j->run == TV_TGSI_COMP && j->comp.shared_bytes)
        b->shared_bytes = j->comp.shared_bytes;
    b->tex = rs->tex;
    return 0;
}

/* ---- FRAG ---------------------------------------------------------------------------- */

/* The clear colour into n pixels of 4 words: one pixel, then the filled part copied
 * onto the rest, doubling (memcpy speed instead of a 16-byte store per pixel; the
 * target is cleared before every run of bench_job). */
static void fill_pixels(uint32_t *d, size_t n, const uint32_t clear[4])
{
    if (!n)
        return;
    memcpy(d, clear, 16);
    size_t done = 1;
    while (done < n) {
        size_t k = done < n - done ? done : n - done;
        memcpy(d + 4 * done, d, k * 16);
        done += k;
    }
}

static int run_frag(run_state *rs, tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                    tv_error *err, tv_status *st)
{
    const job_frag *f = &rs->j->frag;
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    if (!fp)
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    tv_vm_frag_params_fullscreen(fp, f->width, f->height,
                                 f->prim == JOB_PRIM_RECT ? TV_VM_PRIM_RECT : TV_VM_PRIM_TRIANGLE);
    fp->samples = f->samples;
    unsigned nv = f->prim == JOB_PRIM_RECT ? 4 : 3;
    if (f->prim == JOB_PRIM_TRIANGLE) {
        static const float tri[3][2] = {{0, 0}, {2, 0}, {0, 2}};
        for (unsigned v = 0; v < 3; v++) {
            fp->vertices[v].x = tri[v][0] * (float)f->width;
            fp->vertices[v].y = tri[v][1] * (float)f->height;
            fp->vertices[v].z = 0;
            fp->vertices[v].w = 1;
        }
    }
    if (f->has_positions)
        for (unsigned v = 0; v < nv; v++) {
            fp->vertices[v].x = f->positions[v][0];
            fp->vertices[v].y = f->positions[v][1];
            fp->vertices[v].z = f->positions[v][2];
            fp->vertices[v].w = f->positions[v][3];
        }
    for (size_t i = 0; i < f->num_inputs; i++)
        for (unsigned v = 0; v < nv; v++)
            memcpy(fp->vertices[v].attr[f->inputs[i].index], f->inputs[i].values[v],
                   sizeof f->inputs[i].values[v]);
    fp->front_face = f->front_face;
    size_t n = (size_t)f->width * f->height * f->samples;
    if ((uint64_t)n * 16 * f->num_targets > ((uint64_t)4 << 30)) {
        free(fp);
        return run_fail(rs, TV_EXIT_INVALID,
                        "frag: %u targets of %ux%u with %u samples need more than 4 GiB",
                        f->num_targets, f->width, f->height, f->samples);
    }
    for (unsigned t = 0; t < f->num_targets; t++) {
        /* a target left by an earlier run of the same job is reused (bench_job repeats
           the stage: a fresh allocation each time would time the kernel's page faults) */
        if (!rs->color[t])   /* 64-byte aligned, as a GL framebuffer: the FRAG stage then
                                writes whole 64-byte lines (vm_stage_frag_store.c) */
            rs->color[t] = aligned_alloc(64, (n * 16 + 63) / 64 * 64);
        if (!rs->color[t]) {
            free(fp);
            return run_fail(rs, TV_EXIT_INVALID, "out of memory");
        }
        fill_pixels(rs->color[t], n, f->targets[t].clear);
        fp->color[t].data = rs->color[t];
    }
    if (f->has_depth) {
        if (!rs->depth)
            rs->depth = malloc(n * sizeof *rs->depth);
        if (rs->depth)
            for (size_t k = 0; k < n; k++)
                rs->depth[k] = f->depth_clear;
        fp->depth = rs->depth;
    }
    if (f->has_stencil) {
        if (!rs->stencil)
            rs->stencil = malloc(n * sizeof *rs->stencil);
        if (rs->stencil)
            for (size_t k = 0; k < n; k++)
                rs->stencil[k] = f->stencil_clear;
        fp->stencil = rs->stencil;
    }
    if ((f->has_depth && !rs->depth) || (f->has_stencil && !rs->stencil)) {
        free(fp);
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    }
    double t0 = engine_begin(rs);
    *st = tv_vm_run_fragment(vm, p, b, fp, &rs->stats, err);
    engine_end(rs, t0);
    free(fp);
    return 0;
}

/* ---- VERT ---------------------------------------------------------------------------- */

static uint32_t num_outputs(const tv_tgsi_program *prog)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < prog->num_decls; i++)
        if (prog->decls[i].file == TV_FILE_OUT && prog->decls[i].last >= 0 &&
            (uint32_t)prog->decls[i].last + 1 > n)
            n = (uint32_t)prog->decls[i].last + 1;
    return n > TV_VM_MAX_ATTRIBS ? TV_VM_MAX_ATTRIBS : n;
}

static int run_vert(run_state *rs, tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                    tv_error *err, tv_status *st)
{
    const job *j = rs->j;
    const job_vert *v = &j->vert;
    tv_vm_vertex_params *vp = calloc(1, sizeof *vp);
    uint32_t *conv[JOB_MAX_ATTRIBS] = {0};
    if (!vp)
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    vp->count = v->count;
    vp->instances = v->instances;
    vp->base_vertex = v->base_vertex;
    vp->base_instance = v->base_instance;
    int rc = 0;
    for (size_t i = 0; i < v->num_attribs && !rc; i++) {
        const job_attrib *a = &v->attribs[i];
        tv_vm_vertex_array *arr = &vp->attribs[a->index];
        if (a->buffer < 0) {
            arr->data = a->values.w;
            arr->size = a->values.count * 4;
            arr->stride = 16;
            arr->components = 4;
            continue;
        }
        const job_buffer *buf = &j->buffers[a->buffer];
        const tv_format_info *fi = tv_format_get(a->format);
        uint32_t stride = a->stride ? a->stride : fi->block_bytes;
        bool words = fi->block_bytes == 4u * fi->channels && fi->kind != TV_FMT_KIND_DEPTH &&
                     fi->block_w == 1 && (fi->kind != TV_FMT_KIND_FLOAT ||
                                          strstr(fi->name, "_FLOAT") != NULL);
        if (words) { /* 32-bit components: the engine reads them directly */
            arr->data = buf->data;
            arr->size = buf->size;
            arr->offset = a->offset;
            arr->stride = stride;
            arr->components = fi->channels;
            arr->integer = fi->kind == TV_FMT_KIND_UINT || fi->kind == TV_FMT_KIND_SINT;
            arr->instance_divisor = a->divisor;
            continue;
        }
        /* Other formats: decode every element to 4 words first. */
        if (fi->block_w != 1 || a->offset >= buf->size) {
            rc = run_fail(rs, TV_EXIT_INVALID, "vert.attributes[%zu]: cannot read %s from "
                          "buffer \"%s\" at offset %llu", i, fi->name,
                          buf->name ? buf->name : "?", (unsigned long long)a->offset);
            break;
        }
        size_t elems = (buf->size - a->offset) >= fi->block_bytes
                           ? (buf->size - a->offset - fi->block_bytes) / stride + 1
                           : 0;
        conv[i] = calloc(elems ? elems * 4 : 4, 4);
        if (!conv[i]) {
            rc = run_fail(rs, TV_EXIT_INVALID, "out of memory");
            break;
        }
        for (size_t e = 0; e < elems; e++)
            tv_format_unpack(a->format, buf->data + a->offset + e * stride, 0, 0, conv[i] + 4 * e);
        arr->data = conv[i];
        arr->size = elems * 16;
        arr->stride = 16;
        arr->components = 4;
        arr->integer = fi->kind == TV_FMT_KIND_UINT || fi->kind == TV_FMT_KIND_SINT;
        arr->instance_divisor = a->divisor;
    }
    rs->num_vert_outputs = num_outputs(tv_vm_program_source(p));
    size_t n = (size_t)v->count * v->instances;
    for (uint32_t r = 0; r < rs->num_vert_outputs && !rc; r++) {
        rs->vert_out[r] = calloc(n * 4, 4);
        if (!rs->vert_out[r])
            rc = run_fail(rs, TV_EXIT_INVALID, "out of memory");
        vp->out[r] = rs->vert_out[r];
    }
    if (!rc) {
        double t0 = engine_begin(rs);
        *st = tv_vm_run_vertex(vm, p, b, vp, &rs->stats, err);
        engine_end(rs, t0);
    }
    for (size_t i = 0; i < JOB_MAX_ATTRIBS; i++)
        free(conv[i]);
    free(vp);
    return rc;
}

/* ---- GEOM ---------------------------------------------------------------------------- */

static int run_geom(run_state *rs, tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                    tv_error *err, tv_status *st)
{
    const job_geom *g = &rs->j->geom;
    /* the job's primitive must be the program's GS_INPUT_PRIMITIVE (PIPE_PRIM numbering) */
    static const uint32_t pipe_prim[JOB_GPRIM_COUNT] = {0, 1, 10, 4, 12};
    static const char *const names[JOB_GPRIM_COUNT] = {"points", "lines", "lines_adjacency",
                                                       "triangles", "triangles_adjacency"};
    const tv_tgsi_program *src = tv_vm_program_source(p);
    for (uint32_t i = 0; i < src->num_props; i++)
        if (src->props[i].name == TV_PROP_GS_INPUT_PRIMITIVE &&
            src->props[i].value != pipe_prim[g->primitive]) {
            const char *want = "another primitive";
            for (int k = 0; k < JOB_GPRIM_COUNT; k++)
                if (pipe_prim[k] == src->props[i].value)
                    want = names[k];
            return run_fail(rs, TV_EXIT_INVALID,
                            "geom.primitive is %s, but the program's GS_INPUT_PRIMITIVE is %s",
                            names[g->primitive], want);
        }
    tv_vm_geometry_params gp;
    memset(&gp, 0, sizeof gp);
    gp.num_prims = g->count;
    for (size_t i = 0; i < g->num_inputs; i++) {
        gp.in[g->inputs[i].index] = g->inputs[i].values.w;
        gp.num_vertices = (uint32_t)(g->inputs[i].values.count / 4);
    }
    if (!g->num_inputs) {
        static const unsigned per[JOB_GPRIM_COUNT] = {1, 2, 4, 3, 6};
        gp.num_vertices = g->count * per[g->primitive];
    }
    memset(&rs->geom_out, 0, sizeof rs->geom_out);
    rs->has_geom_out = true;
    double t0 = engine_begin(rs);
    *st = tv_vm_run_geometry(vm, p, b, &gp, &rs->geom_out, &rs->stats, err);
    engine_end(rs, t0);
    return 0;
}

int run_stage(run_state *rs, tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b)
{
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_status st = TV_OK;
    int rc;
    switch (rs->j->run) {
    case TV_TGSI_FRAG:
        rc = run_frag(rs, vm, p, b, &err, &st);
        break;
    case TV_TGSI_VERT:
        rc = run_vert(rs, vm, p, b, &err, &st);
        break;
    case TV_TGSI_GEOM:
        rc = run_geom(rs, vm, p, b, &err, &st);
        break;
    default: {
        tv_vm_compute_params cp;
        memset(&cp, 0, sizeof cp);
        memcpy(cp.grid, rs->j->comp.grid, sizeof cp.grid);
        memcpy(cp.block, rs->j->comp.block, sizeof cp.block);
        uint32_t fixed[3];
        tv_vm_program_block_size(p, fixed);
        for (int k = 0; k < 3; k++)
            if (cp.block[k] && fixed[k] && cp.block[k] != fixed[k])
                return run_fail(rs, TV_EXIT_INVALID,
                                "comp.block [%u, %u, %u] disagrees with the program's "
                                "CS_FIXED_BLOCK_* [%u, %u, %u]",
                                cp.block[0], cp.block[1], cp.block[2], fixed[0], fixed[1],
                                fixed[2]);
        double t0 = engine_begin(rs);
        st = tv_vm_run_compute(vm, p, b, &cp, &rs->stats, &err);
        engine_end(rs, t0);
        rc = 0;
        break;
    }
    }
    if (rc)
        return rc;
    if (st != TV_OK) {
        char buf[1024];
        if (!err.file[0] && rs->program_path)
            snprintf(err.file, sizeof err.file, "%s", rs->program_path);
        tv_error_format(&err, buf, sizeof buf);
        return run_fail(rs, run_exit_code(st), "%s", buf);
    }
    return 0;
}
