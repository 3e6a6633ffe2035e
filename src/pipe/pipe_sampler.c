/* Textures of draws (include/texvm/pipe.h): Gallium sampler views and states per stage,
 * and at each draw the texture unit they describe — a header (TIC) and a sampler (TSC)
 * per slot in the unit's pools, and each view's texels copied from the resource (virgl's
 * packed level layout) into the header's pitch layout (block-linear when multisampled),
 * addressed by the unit's own formula (tv_tic_texel_address). docs/pipeline-resources.md
 * §Textures. */
#include "pipe_internal.h"

#include "texvm/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OP_SV "set_sampler_views"
#define POOL_BASE 0x100000000ull      /* the unit's memory starts here */
#define POOL_BYTES (TV_PIPE_MAX_SAMPLERS * 32)
#define TEX_ALIGN 512                 /* a GOB: block-linear textures start on one */

int tv_pipe_set_sampler_views(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                              const tv_pipe_sampler_view *v)
{
    if (stage >= TV_PIPE_STAGES)
        return pipe_fail(ctx, OP_SV ": unknown shader type %u", stage);
    if (pipe_slots_check(ctx, OP_SV, "slots", start, n, TV_PIPE_MAX_SAMPLERS))
        return -1;
    memcpy(&ctx->sub.views[stage][start], v, n * sizeof *v);
    return 0;
}

int tv_pipe_set_sampler_states(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                               const tv_pipe_sampler_state *s)
{
    if (stage >= TV_PIPE_STAGES)
        return pipe_fail(ctx, "bind_sampler_states: unknown shader type %u", stage);
    if (pipe_slots_check(ctx, "bind_sampler_states", "slots", start, n, TV_PIPE_MAX_SAMPLERS))
        return -1;
    memcpy(&ctx->sub.samplers[stage][start], s, n * sizeof *s);
    return 0;
}

/* ---- Gallium -> texture-unit descriptors (tables) ----------------------------------- */

/* The targets a view may read a resource of each target as (ARB_texture_view's table of
 * compatible targets; Gallium's 2D and 2D_ARRAY also stand for the multisampled ones, which
 * have no cube views): bit t for PIPE_TEXTURE_* t. */
#define VT(t) (1u << (t))
static const uint16_t view_targets_of[9] = {
    [0] = VT(0),
    [1] = VT(1) | VT(6), [6] = VT(1) | VT(6),                 /* 1D, 1D_ARRAY */
    [2] = VT(2) | VT(7),                                      /* 2D */
    [3] = VT(3), [5] = VT(5),                                 /* 3D, RECT */
    [4] = VT(2) | VT(7) | VT(4) | VT(8),                      /* CUBE */
    [7] = VT(2) | VT(7) | VT(4) | VT(8),                      /* 2D_ARRAY */
    [8] = VT(2) | VT(7) | VT(4) | VT(8)};                     /* CUBE_ARRAY */
#undef VT

static const char *const target_names[9] = {"BUFFER", "1D", "2D", "3D", "CUBE", "RECT",
                                            "1D_ARRAY", "2D_ARRAY", "CUBE_ARRAY"};

/* PIPE_TEXTURE_* (0 BUFFER .. 8 CUBE_ARRAY) -> TIC texture type. */
static const uint8_t tex_type_of_target[9] = {
    TV_TEX_1D_BUFFER, TV_TEX_1D, TV_TEX_2D, TV_TEX_3D, TV_TEX_CUBE, TV_TEX_2D /* RECT */,
    TV_TEX_1D_ARRAY, TV_TEX_2D_ARRAY, TV_TEX_CUBE_ARRAY};

/* PIPE_TEX_WRAP_* -> TSC address mode. */
static const uint8_t wrap_of_pipe[8] = {
    TV_WRAP_REPEAT, TV_WRAP_CLAMP_OGL, TV_WRAP_CLAMP_TO_EDGE, TV_WRAP_BORDER, TV_WRAP_MIRROR,
    TV_WRAP_MIRROR_ONCE_CLAMP_OGL, TV_WRAP_MIRROR_ONCE_CLAMP_TO_EDGE,
    TV_WRAP_MIRROR_ONCE_BORDER};

/* PIPE_TEX_MIPFILTER_* -> TSC mip filter. */
static const uint8_t mip_of_pipe[3] = {TV_MIP_POINT, TV_MIP_LINEAR, TV_MIP_NONE};

static void build_tsc(const tv_pipe_sampler_state *s, tv_tsc *t)
{
    memset(t, 0, sizeof *t);
    t->address_u = wrap_of_pipe[s->wrap_s & 7];
    t->address_v = wrap_of_pipe[s->wrap_t & 7];
    t->address_p = wrap_of_pipe[s->wrap_r & 7];
    t->mag_filter = s->mag_img_filter ? TV_MAG_LINEAR : TV_MAG_POINT;
    t->min_filter = s->max_anisotropy > 1 ? TV_MIN_ANISO
                    : s->min_img_filter ? TV_MIN_LINEAR : TV_MIN_POINT;
    t->mip_filter = mip_of_pipe[s->min_mip_filter < 3 ? s->min_mip_filter : 2];
    t->max_anisotropy = tv_tex_aniso_code(s->max_anisotropy);
    t->depth_compare = s->compare_mode;
    t->depth_compare_func = s->compare_func & 7;   /* PIPE_FUNC_* = TV_CMP_* */
    t->cubemap_interface_filtering = s->seamless_cube_map ? 2 : 0;
    t->mip_lod_bias = tv_float_to_fixed_s5_8(s->lod_bias);
    t->min_lod_clamp = tv_float_to_fixed_u4_8(s->min_lod);
    t->max_lod_clamp = tv_float_to_fixed_u4_8(s->max_lod);
    memcpy(t->border_color, s->border_color, sizeof t->border_color);
    /* Gallium decodes sRGB by the view's format alone (GL's skip-decode is a view of the
       linear format): every sampler converts, with the border's sRGB bytes, as NVIDIA's
       drivers set it — the unit decodes only where the header's sRGB bit and this one are
       both set (docs/texture-unit.md, notes for front ends) */
    t->srgb_conversion = true;
    tv_tsc_srgb_border(t);
}

/* The view's swizzle over the format's: PIPE_SWIZZLE_X..W pick a format source, 0/1 the
 * constants (ONE as an integer for integer formats). */
static void compose_swizzle(tv_tic *tic, const uint8_t swz[4], bool integer)
{
    uint8_t fmt[4];
    memcpy(fmt, tic->source, 4);
    for (int i = 0; i < 4; i++) {
        uint8_t s = swz[i];
        tic->source[i] = s < 4 ? fmt[s] : s == 4 ? 0 : (integer ? 6 : 7);
    }
}

typedef struct view_plan {
    const pipe_resource *r;
    tv_tic tic;
    uint64_t offset, size;       /* in the unit's memory */
    uint32_t z0, nz;             /* resource layers (or slices) copied */
    uint32_t elem_bytes;         /* a buffer view's texel size (its format's, not the buffer's) */
} view_plan;

static int plan_view(tv_pipe_ctx *ctx, const char *op, unsigned slot,
                     const tv_pipe_sampler_view *v, view_plan *p)
{
    const pipe_resource *r = pipe_resource_find(ctx, v->res);
    if (!r)
        return pipe_fail(ctx, "%s: sampler view %u: resource %u was destroyed", op, slot,
                         v->res);
    tv_format f = pipe_format_lookup(v->format);
    const tv_format_info *fi = f == TV_FORMAT_NONE ? NULL : tv_format_get(f);
    /* A buffer has no texel format of its own (Mesa makes them R8): a texture buffer views
       it in any uncompressed format, its elements counted in that format's texels (as
       Mesa's virgl driver encodes first and last element). Other resources: the same
       texel size and block. */
    bool buffer = r->desc.target == 0;
    if (!fi || (buffer ? fi->block_w != 1 || fi->block_h != 1
                       : fi->block_bytes != r->bytes || fi->block_w != r->bw ||
                             fi->block_h != r->bh))
        return pipe_fail(ctx, "%s: sampler view %u: format %u does not view resource %u", op,
                         slot, v->format, v->res);
    tv_error err;
    memset(&p->tic, 0, sizeof p->tic);
    if (tv_tic_from_format(&p->tic, f, &err) != TV_OK)
        return pipe_fail(ctx, "%s: sampler view %u: %s", op, slot, err.message);
    tv_tic *t = &p->tic;
    uint32_t rt = r->desc.target, target = v->target ? v->target : rt;
    if (rt > 8 || target > 8)
        return pipe_fail(ctx, "%s: sampler view %u: unknown target %u", op, slot,
                         rt > 8 ? rt : target);
    if (!(view_targets_of[rt] & (1u << target)) ||
        (r->samples > 1 && (target == 4 || target == 8)))
        return pipe_fail(ctx, "%s: sampler view %u: a %s view of resource %u (%s%s) is not "
                         "a texture view GL allows", op, slot, target_names[target], v->res,
                         target_names[rt], r->samples > 1 ? ", multisampled" : "");
    if ((target == 4 || target == 8) && r->lw[0] != r->lh[0])
        return pipe_fail(ctx, "%s: sampler view %u: a cube view of resource %u's %ux%u "
                         "layers (not square)", op, slot, v->res, r->lw[0], r->lh[0]);
    p->r = r;
    t->texture_type = tex_type_of_target[target];
    t->normalized_coords = target != 5;          /* RECT reads texel coordinates */
    compose_swizzle(t, v->swizzle, fi->kind == TV_FMT_KIND_UINT || fi->kind == TV_FMT_KIND_SINT);
    if (target == 0) {
        p->elem_bytes = fi->block_bytes;
        /* (64-bit: last_element + 1 wrapped to 0 for 0xffffffff and passed) */
        if (v->first_element > v->last_element ||
            ((uint64_t)v->last_element + 1) * p->elem_bytes > r->size)
            return pipe_fail(ctx, "%s: sampler view %u: elements %u..%u outside buffer %u", op,
                             slot, v->first_element, v->last_element, v->res);
        t->header_version = TV_TIC_ONE_D_BUFFER;
        t->width_minus_one = v->last_element - v->first_element;
        p->z0 = v->first_element;                /* the first texel copied */
        p->nz = 1;
        p->size = ((uint64_t)t->width_minus_one + 1) * p->elem_bytes;
        return 0;
    }
    if (v->first_level > v->last_level || v->last_level > r->desc.last_level)
        return pipe_fail(ctx, "%s: sampler view %u: levels %u..%u outside resource %u (%u "
                         "levels)", op, slot, v->first_level, v->last_level, v->res,
                         r->desc.last_level + 1);
    /* Single-sampled views are copied into the pitch layout (every level and layer rows of
       level 0's pitch apart, a multiple of 32 bytes): the unit addresses it by its own
       formulas as it does block-linear texels (the values sampled are the same), each row
       is one copy, and the warp kernels read a texel's right neighbour from the same 8
       or 16 bytes instead of gathering each tap (the mesh scene's texture:
       docs/history/performance-log.md §20.2). Multisampled views keep the block-linear layout and its sample
       grid. */
    const uint64_t row_bytes = (uint64_t)((r->lw[0] + r->bw - 1) / r->bw) * r->bytes;
    const uint64_t pitch = (row_bytes + 31) / 32 * 32;
    if (r->samples <= 1 && pitch < (1u << 21)) {
        t->header_version = TV_TIC_PITCH;
        t->pitch = (uint32_t)pitch;
    } else {
        t->header_version = TV_TIC_BLOCKLINEAR;
    }
    /* multisampled: the unit's sample grid (2X1, 2X2, 4X2, 4X4 modes) */
    static const uint8_t ms_mode[17] = {[1] = 0, [2] = 1, [4] = 2, [8] = 3, [16] = 6};
    t->multi_sample_count = ms_mode[r->samples <= 16 ? r->samples : 1];
    t->width_minus_one = r->lw[0] - 1;
    t->height_minus_one = (uint16_t)(r->lh[0] - 1);
    t->max_mip_level = (uint8_t)r->desc.last_level;
    t->res_view_min_mip_level = (uint8_t)v->first_level;
    t->res_view_max_mip_level = (uint8_t)v->last_level;
    if (target == 3) {                           /* 3D: every slice */
        p->z0 = 0;
        p->nz = r->ld[0];
        t->depth_minus_one = (uint16_t)(r->ld[0] - 1);
    } else {
        if (v->first_layer > v->last_layer || v->last_layer >= r->ld[0])
            return pipe_fail(ctx, "%s: sampler view %u: layers %u..%u outside resource %u",
                             op, slot, v->first_layer, v->last_layer, v->res);
        p->z0 = v->first_layer;
        /* a view of one layer (1D, 2D, RECT) reads the first of its range */
        p->nz = target == 6 || target == 7 || target == 4 || target == 8
                    ? v->last_layer - v->first_layer + 1 : 1;
        if (target == 4 && p->nz != 6)
            return pipe_fail(ctx, "%s: sampler view %u: a cube view of %u layers", op, slot,
                             p->nz);
        if (target == 8 && p->nz % 6)
            return pipe_fail(ctx, "%s: sampler view %u: a cube array view of %u layers", op,
                             slot, p->nz);
        t->depth_minus_one = (uint16_t)(target == 8 ? p->nz / 6 - 1
                                        : target == 6 || target == 7 ? p->nz - 1 : 0);
    }
    p->size = tv_tic_size_bytes(t);
    return 0;
}

/* Copy the view's texels (resource layout) into the header's layout at HOST (ADDR, for a
 * block-linear header: room for the addresses of a row of level 0's texels). */
static void place_view_rows(const view_plan *p, uint8_t *host, uint64_t *addr)
{
    const pipe_resource *r = p->r;
    const bool pitch = p->tic.header_version == TV_TIC_PITCH;
    for (uint32_t l = 0; l <= r->desc.last_level; l++) {
        uint32_t bw = (r->lw[l] + r->bw - 1) / r->bw, bh = (r->lh[l] + r->bh - 1) / r->bh;
        uint32_t nz = r->desc.target == 3 ? r->ld[l] : p->nz;
        for (uint32_t z = 0; z < nz; z++) {
            const uint8_t *slice = r->data + r->level_offset[l] +
                                   r->layer_stride[l] * (size_t)(p->z0 + z);
            if (pitch) {   /* (one sample: each row's texels are consecutive) */
                const size_t row = (size_t)bw * r->bytes;
                for (uint32_t by = 0; by < bh; by++) {
                    uint64_t a = tv_tic_texel_address(&p->tic, l, 0, by * r->bh, z, 0);
                    uint64_t at = a - POOL_BASE;
                    if (a < POOL_BASE || at < p->offset || at + row > p->offset + p->size)
                        continue;     /* cannot happen for a consistent header */
                    memcpy(host + at, slice + r->stride[l] * by, row);
                }
                continue;
            }
            /* block-linear: each sample of a row's texels by the addresses of the row,
               the header decoded once per row and sample (ADDR: a row of level 0) */
            for (uint32_t by = 0; by < bh; by++)
                for (unsigned smp = 0; smp < r->samples; smp++) {
                    tv_tic_texel_addresses(&p->tic, l, 0, r->bw, bw, by * r->bh, z, smp, addr);
                    for (uint32_t bx = 0; bx < bw; bx++) {
                        uint64_t a = addr[bx], at = a - POOL_BASE;
                        if (a < POOL_BASE || at < p->offset ||
                            at + r->bytes > p->offset + p->size)
                            continue;     /* cannot happen for a consistent header */
                        memcpy(host + at, slice + r->stride[l] * by +
                                              ((size_t)bx * r->samples + smp) * r->bytes,
                               r->bytes);
                    }
                }
        }
    }
}

/* The view's texels into HOST: a buffer in one copy, a texture by place_view_rows (with
 * its row of addresses where the header is block-linear); -1: out of memory */
static int place_view(const view_plan *p, uint8_t *host)
{
    const pipe_resource *r = p->r;
    if (p->tic.header_version == TV_TIC_ONE_D_BUFFER) {
        memcpy(host + p->offset, r->data + (size_t)p->z0 * p->elem_bytes, p->size);
        return 0;
    }
    uint64_t *addr = NULL;
    if (p->tic.header_version != TV_TIC_PITCH) {
        addr = malloc(((size_t)(r->lw[0] + r->bw - 1) / r->bw) * sizeof *addr);
        if (!addr)
            return -1;
    }
    place_view_rows(p, host, addr);
    free(addr);
    return 0;
}

void pipe_textures_free(pipe_textures *t)
{
    if (t->ctx)
        pipe_uncharge(t->ctx, t->held);
    if (t->unit)
        tv_tex_destroy(t->unit);
    if (t->mem)
        tv_memory_destroy(t->mem);
    free(t->host);
    memset(t, 0, sizeof *t);
}

int pipe_textures_build(tv_pipe_ctx *ctx, unsigned stage, const char *op, uint32_t slots,
                        pipe_textures *t)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    view_plan plans[TV_PIPE_MAX_SAMPLERS];
    uint64_t size = 2 * POOL_BYTES;
    for (unsigned i = 0; i < TV_PIPE_MAX_SAMPLERS; i++) {
        const tv_pipe_sampler_view *v = &ctx->sub.views[stage][i];
        memset(&plans[i], 0, sizeof plans[i]);
        if (!v->res || !(slots & (1u << i)))
            continue;
        if (plan_view(ctx, op, i, v, &plans[i]))
            return -1;
        size = (size + TEX_ALIGN - 1) / TEX_ALIGN * TEX_ALIGN;
        plans[i].offset = size;
        plans[i].tic.address = POOL_BASE + size;
        size += plans[i].size;
        if (size > ctx->max_memory)
            return pipe_fail(ctx, "%s: the sampler views need %llu bytes (at most %llu)", op,
                             (unsigned long long)size, (unsigned long long)ctx->max_memory);
    }
    /* placing the views' texels is work a client makes the server do at every launch and
       draw that samples: charged to the total quota first, at 16 warp instructions a texel
       (an address computed per texel: an 8192x8192 R8 view took 7 s a launch, uncharged) */
    uint64_t texels = 0;
    for (unsigned i = 0; i < TV_PIPE_MAX_SAMPLERS; i++)
        if (plans[i].r)
            texels += plans[i].size / (plans[i].r->bytes ? plans[i].r->bytes : 1);
    if (pipe_work_units(ctx, op, texels * 16))
        return -1;
    /* the placed copy is memory the client makes the server hold while the launch or
       draw runs, one per stage that samples: it counts against the memory quota beside
       the resources (five stages of a draw each placed a view of the whole quota) */
    char what[64];
    snprintf(what, sizeof what, "the %s shader's sampler views", pipe_stage_name(stage));
    if (pipe_charge_temp(ctx, &t->held, size, op, what)) {
        pipe_textures_free(t);
        return -1;
    }
    t->host = calloc(1, (size_t)size);
    t->mem = tv_memory_create();
    t->unit = t->mem ? tv_tex_create(t->mem) : NULL;
    tv_error err;
    if (!t->host || !t->unit ||
        tv_memory_map(t->mem, POOL_BASE, t->host, size, &err) != TV_OK) {
        pipe_textures_free(t);
        return pipe_fail(ctx, "%s: out of memory for the sampler views", op);
    }
    t->size = (size_t)size;
    for (unsigned i = 0; i < TV_PIPE_MAX_SAMPLERS; i++) {
        tv_tsc tsc;
        build_tsc(&ctx->sub.samplers[stage][i], &tsc);
        if (plans[i].r) {
            tv_tsc_border_for_header(&tsc, &plans[i].tic);
            if (place_view(&plans[i], t->host)) {
                pipe_textures_free(t);
                return pipe_fail(ctx, "%s: out of memory for the sampler views", op);
            }
            tv_tic_encode(&plans[i].tic, (uint32_t *)(void *)(t->host + 32 * i));
        }
        tv_tsc_encode(&tsc, (uint32_t *)(void *)(t->host + POOL_BYTES + 32 * i));
    }
    tv_tex_set_header_pool(t->unit, POOL_BASE, TV_PIPE_MAX_SAMPLERS - 1);
    tv_tex_set_sampler_pool(t->unit, POOL_BASE + POOL_BYTES, TV_PIPE_MAX_SAMPLERS - 1);
    return 0;
}

int pipe_textures_for(tv_pipe_ctx *ctx, unsigned stage, const char *op,
                      const tv_vm_program *prog, pipe_textures *t)
{
    const tv_tgsi_program *src = tv_vm_program_source(prog);
    uint32_t slots = 0;
    bool any = false;
    for (uint32_t i = 0; i < src->num_decls; i++) {
        const tv_tgsi_declaration *d = &src->decls[i];
        if (d->file != TV_FILE_SVIEW && d->file != TV_FILE_SAMP)
            continue;
        any = true;
        for (int32_t r = d->first < 0 ? 0 : d->first;
             r <= d->last && r < TV_PIPE_MAX_SAMPLERS; r++)
            slots |= 1u << r;
    }
    return any ? pipe_textures_build(ctx, stage, op, slots, t) : 0;
}
