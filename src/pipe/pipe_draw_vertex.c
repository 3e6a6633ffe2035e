/* A draw's vertices (draw_shade_vertices, called by pipe_draw.c's draw_vbo): each vertex
 * element fetched for every distinct vertex slot and instance (or, for a non-indexed draw
 * of 32-bit channels, the vertex buffers handed to the engine as they are), the vertex
 * shader run over them, and its outputs kept in d->out[] (or read in place where the shader
 * passes an input through) for the primitives' set-up; draw_out_release gives them back. */
#include "pipe_draw.h"
#include "pipe_vertex_fetch.h"

#include <stdlib.h>
#include <string.h>

#define OP "draw_vbo"

/* Fetch vertex element E for every slot and instance into OUT (16 bytes each). */
static int fetch_element(draw_state *d, const draw_assembly *a, unsigned e, uint32_t *out)
{
    tv_pipe_ctx *ctx = d->ctx;
    const tv_pipe_vertex_element *el = &ctx->sub.elements[e];
    vf_format f;
    if (!vf_format_get(el->src_format, &f))
        return pipe_fail(ctx, OP ": vertex element %u: format %u (%s) is not a vertex format", e,
                         el->src_format, tv_pipe_format_name(el->src_format)
                                             ? tv_pipe_format_name(el->src_format) : "unknown");
    const tv_pipe_vertex_buffer *vb = &ctx->sub.vbufs[el->vertex_buffer_index];
    pipe_resource *r = vb->res ? pipe_resource_find(ctx, vb->res) : NULL;
    if (vb->res && !r)
        return pipe_fail(ctx, OP ": vertex buffer %u: resource %u was destroyed",
                         el->vertex_buffer_index, vb->res);
    for (uint32_t j = 0; j < d->instances; j++)
        for (uint32_t k = 0; k < d->slots; k++) {
            uint32_t *o = out + ((uint64_t)j * d->slots + k) * 4;
            uint64_t elem;
            if (el->instance_divisor)
                elem = (uint64_t)d->info->start_instance + j / el->instance_divisor;
            else if (a->indexed)
                elem = a->ids[k];          /* index + base vertex, as a 32-bit vertex ID */
            else
                elem = (uint64_t)d->info->start + k;
            uint64_t at = (uint64_t)vb->buffer_offset + el->src_offset + elem * vb->stride;
            if (!r || at > r->size || f.bytes > r->size - at) {
                /* unbound or out of bounds: (0, 0, 0, 1), robust buffer access */
                o[0] = o[1] = o[2] = 0;
                o[3] = vf_is_integer(&f) ? 1u : 0x3f800000u;
                continue;
            }
            vf_fetch(&f, r->data + at, o);
        }
    return 0;
}

void draw_out_release(draw_state *d)
{
    pipe_uncharge(d->ctx, d->out_held);
    d->out_held = 0;
    for (unsigned r = 0; r < TV_VM_MAX_ATTRIBS; r++) {
        if ((d->out_in_place >> r) & 1u)
            ;   /* a vertex buffer's */
        else if (d->out_kept)
            pipe_scratch_put(d->ctx, d->out[r]);
        else
            free(d->out[r]);
        d->out[r] = NULL;
        d->out_step[r] = 4;
    }
    d->out_in_place = 0;
    d->out_kept = false;
}

/* The vertex elements of a non-indexed draw as arrays the engine reads itself (VP's
 * attribs), when that gives fetch_element's words: every element of 32-bit channels in
 * order (FLOAT, UINT, SINT: copied as they are; fewer than four take (0, 0, 0, 1) in both),
 * without an instance divisor, and every vertex the draw reads inside its buffer, whole
 * (fetch_element gives a partly outside element (0, 0, 0, 1), the engine the components
 * inside). Not on the plain interpreter, which keeps the fetched arrays as the reference.
 * false: fetch them all. */
static bool vertex_arrays_direct(const draw_state *d, uint32_t nin, tv_vm_vertex_params *vp)
{
    const tv_pipe_ctx *ctx = d->ctx;
    /* (the engine's element numbers are 32-bit: start + slot must not wrap) */
    if (ctx->plain || d->instances != 1 || !d->slots ||
        (uint64_t)d->info->start + d->slots - 1 > UINT32_MAX)
        return false;
    tv_vm_vertex_array arr[TV_VM_MAX_ATTRIBS];
    for (uint32_t e = 0; e < nin; e++) {
        const tv_pipe_vertex_element *el = &ctx->sub.elements[e];
        vf_format f;
        if (!vf_format_get(el->src_format, &f) || !f.words || el->instance_divisor)
            return false;
        const tv_pipe_vertex_buffer *vb = &ctx->sub.vbufs[el->vertex_buffer_index];
        const pipe_resource *r = vb->res ? pipe_resource_find(ctx, vb->res) : NULL;
        if (vb->res && !r)
            return false;   /* (fetch_element reports it) */
        memset(&arr[e], 0, sizeof arr[e]);
        arr[e].components = f.nchan;
        arr[e].integer = vf_is_integer(&f);
        if (!r)
            continue;       /* unbound: (0, 0, 0, 1) in both */
        const uint64_t offset = (uint64_t)vb->buffer_offset + el->src_offset;
        uint64_t first = offset + (uint64_t)d->info->start * vb->stride;
        uint64_t last = first + (uint64_t)(d->slots - 1) * vb->stride;
        if (first > r->size || last > r->size || f.bytes > r->size - last)
            return false;
        arr[e].data = r->data;
        arr[e].size = r->size;
        arr[e].offset = offset;
        arr[e].stride = vb->stride;
    }
    memcpy(vp->attribs, arr, nin * sizeof arr[0]);
    return true;
}

/* The outputs of a pass-through vertex shader that are inputs as they are
 * (tv_vm_vertex_output_copies_input), read in place: out[r] points at the draw's first
 * element in the vertex buffer and steps by its stride (arrays of vertex_arrays_direct
 * VP, which hold every element of the draw; four 32-bit words of a raw format, 4-byte
 * aligned). The engine's run would copy those words to out[r] unchanged, 16 bytes a
 * vertex, for the set-up to read them back (4 % of the mesh scene). Only where the vertex
 * stage is the last (geometry and tessellation stages take 16-byte rows) and the draw has
 * one instance (vertex_arrays_direct's). Returns bit r for each. */
static uint64_t outputs_in_place(draw_state *d, uint32_t nin, uint32_t nout,
                                 const tv_vm_vertex_params *vp)
{
    /* nothing of the draw may write the buffer before a later primitive reads it, as
       nothing can write the copies: stream output, a fragment shader's stores, the
       framebuffer (checked per array below) */
    if (d->gs || d->tes || d->instances != 1 || pipe_so_active(d->ctx, d->so) ||
        (d->fs && draw_touches_memory(d->fs)))
        return 0;
    uint64_t done = 0;
    for (uint32_t r = 0; r < nout; r++) {
        uint32_t e;
        if (!tv_vm_vertex_output_copies_input(d->vs, r, &e) || e >= nin)
            continue;
        const tv_vm_vertex_array *arr = &vp->attribs[e];
        const uint64_t at = arr->offset + (uint64_t)d->info->start * arr->stride;
        if (!arr->data || arr->components != 4 || arr->stride % 4 || arr->offset % 4 ||
            (uintptr_t)arr->data % 4 || draw_written_by_framebuffer(d, arr->data, arr->size))
            continue;
        d->out[r] = (uint32_t *)(uintptr_t)((const uint8_t *)arr->data + at);
        d->out_step[r] = arr->stride / 4;
        done |= 1ull << r;
    }
    d->out_in_place |= done;
    return done;
}

int draw_shade_vertices(draw_state *d, const draw_assembly *a, uint32_t **fetched)
{
    tv_pipe_ctx *ctx = d->ctx;
    uint64_t n = (uint64_t)d->slots * d->instances;
    const tv_tgsi_program *vs = tv_vm_program_source(d->vs);
    uint32_t nin = 0, nout = 0;
    for (uint32_t i = 0; i < vs->num_decls; i++) {
        const tv_tgsi_declaration *dc = &vs->decls[i];
        if (dc->file == TV_FILE_IN && (uint32_t)dc->last + 1 > nin)
            nin = (uint32_t)dc->last + 1;
        if (dc->file == TV_FILE_OUT && (uint32_t)dc->last + 1 > nout)
            nout = (uint32_t)dc->last + 1;
    }
    nin = nin > TV_VM_MAX_ATTRIBS ? TV_VM_MAX_ATTRIBS : nin;
    nout = nout > TV_VM_MAX_ATTRIBS ? TV_VM_MAX_ATTRIBS : nout;
    if (n > MAX_DRAW_VERTICES || n * 16 * (nin + nout) > MAX_DRAW_BYTES)
        return pipe_fail(ctx, OP ": %llu vertices x %u instances to shade (at most %u vertices, "
                         "%llu MiB of vertex data)", (unsigned long long)d->slots, d->instances,
                         MAX_DRAW_VERTICES, MAX_DRAW_BYTES >> 20);
    if (nin > ctx->sub.num_elements)
        return pipe_fail(ctx, OP ": the vertex shader reads %u inputs, %u vertex elements are "
                         "bound", nin, ctx->sub.num_elements);
    tv_vm_vertex_params vp;
    memset(&vp, 0, sizeof vp);
    vp.count = d->slots;
    vp.instances = d->instances;
    vp.fetched = true;
    vp.base_instance = d->info->start_instance;
    vp.draw_id = d->info->drawid;
    vp.base_vertex = d->info->index_size ? d->info->index_bias : (int32_t)d->info->start;
    uint32_t *indices = NULL;
    if (a->indexed && draw_charge(d, (uint64_t)(d->slots ? d->slots : 1) * 4, "the indices"))
        return -1;
    if (a->indexed) {
        /* VERTEXID = index + base vertex: the engine adds the base back */
        indices = malloc((size_t)(d->slots ? d->slots : 1) * 4);
        if (!indices)
            return pipe_fail(ctx, OP ": out of memory");
        for (uint32_t k = 0; k < d->slots; k++)
            indices[k] = a->ids[k] - (uint32_t)d->info->index_bias;
        vp.indices = indices;
    }
    int rc = 0;
    uint64_t in_place = 0;
    if (!a->indexed && vertex_arrays_direct(d, nin, &vp)) {
        in_place = outputs_in_place(d, nin, nout, &vp);
        nin = 0;   /* the engine reads the vertex buffers: nothing to fetch */
        vp.fetched = false;
    }
    /* the fetched elements and the outputs count against the memory quota while the draw
       runs (before, a draw of a 64 MiB client held 512 MiB of them) */
    uint64_t per = (n ? n : 1) * 16;
    if (draw_charge(d, per * nin, "the fetched vertex elements") ||
        pipe_charge_temp(ctx, &d->out_held, per * nout, OP, "the vertex shader's outputs")) {
        d->quota_failed = true;
        free(indices);
        return -1;
    }
    for (uint32_t e = 0; e < nin && !rc; e++) {
        fetched[e] = pipe_scratch_get(ctx, (size_t)(n ? n : 1) * 16);
        if (!fetched[e]) {
            rc = pipe_fail(ctx, OP ": out of memory");
            break;
        }
        rc = fetch_element(d, a, e, fetched[e]);
        vp.attribs[e] = (tv_vm_vertex_array){fetched[e], n * 16, 0, 16, 4,
                                             false, 0};
    }
    d->out_kept = true;
    for (uint32_t r = 0; r < nout && !rc; r++) {
        if ((in_place >> r) & 1u)
            continue;   /* (set by outputs_in_place; not collected) */
        /* not cleared: a run that succeeds writes every output of every vertex
           (vm_collect_outputs; the program's outputs include every declared one) */
        d->out[r] = pipe_scratch_get(ctx, (size_t)(n ? n : 1) * 16);
        if (!d->out[r])
            rc = pipe_fail(ctx, OP ": out of memory");
        vp.out[r] = d->out[r];
    }
    if (!rc) {
        tv_vm_bindings b;
        tv_error err;
        tv_vm_stats st;
        memset(&err, 0, sizeof err);
        rc = pipe_stage_bindings(ctx, TV_PIPE_STAGE_VERTEX, OP, &b);
        b.tex = d->tex[TV_PIPE_STAGE_VERTEX].unit;
        if (!rc)
            rc = pipe_work_begin(ctx, OP, (n + 31) / 32, d->work_left);
        /* every worker when the shader touches no memory: each vertex's outputs are its
           own, so the bytes do not depend on how many there are */
        bool parallel = !rc && ctx->threads > 1 && n > 32 && !draw_touches_memory(d->vs);
        if (parallel)
            tv_vm_set_thread_cap(ctx->vm, 0);
        if (!rc && tv_vm_run_vertex(ctx->vm, d->vs, &b, &vp, &st, &err) != TV_OK)
            rc = pipe_fail(ctx, OP ": vertex shader: %s", err.message);
        if (parallel)
            tv_vm_set_thread_cap(ctx->vm, 1);
        if (!rc)
            pipe_work_end(ctx, &d->work_left, (n + 31) / 32, &st);
    }
    free(indices);
    return rc;
}
