/* Script commands that make textures and samplers: texture, texel, sampler. Their
 * arguments and options arrive checked against the table (sass_script_table.c); what
 * depends on other values (levels against the size, the view against the levels, a texel
 * inside its texture) is checked here. */
#include "sass_script.h"
#include "job_suggest.h"

#include <string.h>

static unsigned layers_of(const tv_tic *t)
{
    switch (t->texture_type) {
    case TV_TEX_1D_ARRAY: case TV_TEX_2D_ARRAY: return t->depth_minus_one + 1u;
    case TV_TEX_CUBE: return 6;
    case TV_TEX_CUBE_ARRAY: return 6u * (t->depth_minus_one + 1u);
    case TV_TEX_3D: return t->depth_minus_one + 1u;
    default: return 1;
    }
}

/* Samples per texel of a MULTI_SAMPLE_COUNT code (nvidia-texture.md: 1X1, 2X1, 2X2, …). */
static unsigned samples_of(const tv_tic *t)
{
    static const unsigned grid[16] = {1, 2, 4, 8, 8, 2, 16, 1, 4, 4, 8, 8, 2, 4, 8, 16};
    return grid[t->multi_sample_count & 15];
}

/* fill=coords: texel (x, y, z/layer) of level l, sample s holds (x, y, z, l + 10 s). */
static void fill_coords(script *s, const tv_tic *t)
{
    tv_format f = tv_format_from_tic(t);
    const tv_format_info *fi = tv_format_get(f);
    if (!fi || fi->block_w != 1)
        return;
    bool is_int = fi->kind == TV_FMT_KIND_SINT || fi->kind == TV_FMT_KIND_UINT;
    unsigned samples = samples_of(t);
    unsigned w = t->width_minus_one + 1u;
    unsigned h = t->texture_type == TV_TEX_1D || t->texture_type == TV_TEX_1D_ARRAY ||
                         t->texture_type == TV_TEX_1D_BUFFER ? 1 : t->height_minus_one + 1u;
    unsigned levels = t->texture_type == TV_TEX_1D_BUFFER ? 1 : t->max_mip_level + 1u;
    for (unsigned l = 0; l < levels; l++) {
        unsigned lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        unsigned lz = layers_of(t);
        if (t->texture_type == TV_TEX_3D)
            lz = lz >> l ? lz >> l : 1;
        for (unsigned z = 0; z < lz; z++)
            for (unsigned y = 0; y < lh; y++)
                for (unsigned x = 0; x < lw && x < 65536; x++)
                    for (unsigned sm = 0; sm < samples; sm++) {
                        float fv[4] = {(float)x, (float)y, (float)z, (float)(l + 10 * sm)};
                        uint32_t in[4];
                        for (unsigned c = 0; c < 4; c++) {
                            if (is_int)
                                in[c] = (uint32_t)fv[c];
                            else
                                memcpy(&in[c], &fv[c], 4);
                        }
                        uint8_t texel[32];
                        if (tv_format_pack(f, in, texel))
                            tv_memory_write(s->mem, tv_tic_texel_address(t, l, x, y, z, sm),
                                            texel, fi->block_bytes);
                    }
    }
}

static int format_arg(script *s, const script_tok *t, tv_format *f)
{
    char near[400], q[128];
    *f = tv_format_from_name(t->text);
    if (*f != TV_FORMAT_NONE)
        return 0;
    const char *sug = job_suggest_format(t->text, near, sizeof near);
    if (sug)
        return script_fail(s, t->col, "unknown format \"%s\" (did you mean %s?)",
                           script_quote(t->text, q), sug);
    return script_fail(s, t->col,
                       "unknown format \"%s\" (docs/jobs-resources.md lists the formats)",
                       script_quote(t->text, q));
}

static int type_arg(script *s, const script_tok *t, int *type)
{
    char q[128];
    for (int i = 0; script_texture_types[i]; i++)
        if (!strcmp(script_texture_types[i], t->text)) {
            *type = i;
            return 0;
        }
    return script_fail(s, t->col, "unknown texture type \"%s\" (allowed: 1D, 2D, 3D, CUBE, "
                       "1D_ARRAY, 2D_ARRAY, 1D_BUFFER, 2D_NO_MIPMAP, CUBE_ARRAY)",
                       script_quote(t->text, q));
}

/* The most levels a W x H (x D for 3D) texture has: 1 + log2 of the largest side. */
static uint32_t most_levels(const uint32_t dims[3], int type)
{
    uint32_t big = dims[0] > dims[1] ? dims[0] : dims[1], most = 1;
    if (type == TV_TEX_3D && dims[2] > big)
        big = dims[2];
    while (big >>= 1)
        most++;
    return most;
}

/* texture IDX FORMAT TYPE W [H [D]] [levels=N] [samples=CODE] [view=MIN:MAX] [fill=…] */
int script_cmd_texture(script *s, const script_line *l)
{
    uint32_t idx, dims[3] = {1, 1, 1};
    tv_format f;
    int type = 0, rc;
    if (!script_arg_u32(s, l, 0, "texture index", 0, SCRIPT_POOL_ENTRIES - 1, &idx))
        return TV_EXIT_INVALID;
    if ((rc = format_arg(s, &l->arg[1], &f)) || (rc = type_arg(s, &l->arg[2], &type)))
        return rc;
    static const char *const dim_names[3] = {"width", "height", "depth"};
    for (unsigned i = 3; i < l->nargs; i++)
        if (!script_arg_u32(s, l, i, dim_names[i - 3], 1, 65536, &dims[i - 3]))
            return TV_EXIT_INVALID;
    tv_tic t;
    memset(&t, 0, sizeof t);
    tv_error err;
    if (tv_tic_from_format(&t, f, &err)) {
        tv_job_print_error(&err);
        return TV_EXIT_INVALID;
    }
    const script_val *v;
    uint32_t levels = (v = script_optval(l, "levels")) ? v->u : 1;
    uint32_t most = most_levels(dims, type);
    if (levels > most)
        return script_fail(s, script_opt_tok(l, "levels")->col,
                           "levels=%u is more than a %ux%u texture has (at most %u)", levels,
                           dims[0], dims[1], most);
    t.header_version = type == TV_TEX_1D_BUFFER ? TV_TIC_ONE_D_BUFFER : TV_TIC_BLOCKLINEAR;
    t.texture_type = (uint8_t)type;
    t.width_minus_one = dims[0] - 1;
    t.height_minus_one = (uint16_t)(dims[1] - 1);
    t.depth_minus_one = (uint16_t)(dims[2] - 1);
    t.max_mip_level = (uint8_t)(levels - 1);
    t.res_view_max_mip_level = (uint8_t)(levels - 1);
    t.multi_sample_count = (uint8_t)((v = script_optval(l, "samples")) ? v->u : 0);
    t.normalized_coords = type != TV_TEX_1D_BUFFER;
    t.border_size = 7;
    if ((v = script_optval(l, "view"))) {
        /* as job files: the view's levels must be levels the texture has */
        if (v->range[1] >= levels)
            return script_fail(s, script_opt_tok(l, "view")->col,
                               "view=%u:%u names levels the texture does not have (levels "
                               "0..%u)", v->range[0], v->range[1], levels - 1);
        t.res_view_min_mip_level = (uint8_t)v->range[0];
        t.res_view_max_mip_level = (uint8_t)v->range[1];
    }
    uint64_t size = tv_tic_size_bytes(&t);
    if (size > SCRIPT_MEM_BASE + s->mem_size - s->next)
        return script_fail(s, l->name.col, "texture does not fit in the script's memory "
                           "(%u MiB)", s->mem_size >> 20);
    t.address = s->next;
    s->next += (size + 1023u) & ~511ull;
    uint32_t raw[8];
    tv_tic_encode(&t, raw);
    tv_memory_write(s->mem, SCRIPT_HDR_POOL + 32ull * idx, raw, 32);
    s->tic[idx] = t;
    s->have_tic[idx] = true;
    if ((v = script_optval(l, "fill")) && v->e == 1)
        fill_coords(s, &t);
    tv_tex_invalidate(s->unit);
    return 0;
}

/* texel IDX LEVEL X Y Z|LAYER SAMPLE V0 V1 V2 V3 */
int script_cmd_texel(script *s, const script_line *l)
{
    uint32_t idx, vals[4];
    if (!script_arg_u32(s, l, 0, "texture index", 0, SCRIPT_POOL_ENTRIES - 1, &idx))
        return TV_EXIT_INVALID;
    if (!s->have_tic[idx])
        return script_fail(s, l->arg[0].col, "no texture %u (make it with `texture %u …` "
                           "first)", idx, idx);
    const tv_tic *t = &s->tic[idx];
    uint32_t a[5];
    if (!script_arg_u32(s, l, 1, "level", 0, t->max_mip_level, &a[0]))
        return TV_EXIT_INVALID;
    /* the sizes of that level (a 3D texture's depth shrinks with the level, layers do not) */
    bool one_d = t->texture_type == TV_TEX_1D || t->texture_type == TV_TEX_1D_ARRAY ||
                 t->texture_type == TV_TEX_1D_BUFFER;
    uint32_t w = t->width_minus_one + 1u, h = one_d ? 1u : t->height_minus_one + 1u;
    uint32_t z = layers_of(t);
    if (t->texture_type == TV_TEX_3D)
        z = z >> a[0] ? z >> a[0] : 1;
    const uint32_t max[4] = {(w >> a[0] ? w >> a[0] : 1) - 1, (h >> a[0] ? h >> a[0] : 1) - 1,
                             z - 1, samples_of(t) - 1};
    static const char *const what[4] = {"x", "y", "z or layer", "sample"};
    for (unsigned i = 0; i < 4; i++)
        if (!script_arg_u32(s, l, 2 + i, what[i], 0, max[i], &a[1 + i]))
            return TV_EXIT_INVALID;
    for (unsigned i = 0; i < 4; i++)
        if (!script_arg_value(s, l, 6 + i, &vals[i]))
            return TV_EXIT_INVALID;
    tv_format f = tv_format_from_tic(t);
    const tv_format_info *fi = tv_format_get(f);
    uint8_t texel[32];
    if (!fi || !tv_format_pack(f, vals, texel))
        return script_fail(s, l->name.col, "cannot write texels of format %s",
                           fi ? fi->name : "(none)");
    tv_memory_write(s->mem, tv_tic_texel_address(t, a[0], a[1], a[2], a[3], a[4]), texel,
                    fi->block_bytes);
    tv_tex_invalidate(s->unit);
    return 0;
}

/* sampler IDX [mag=] [min=] [mip=] [wrap=] [compare=] [aniso=] [bias=] [minlod=] [maxlod=]
 *         [border=R,G,B,A]; the enum options' values are in TSC code order, so their
 * index is the TSC code (mag/min/mip excepted: mapped below). */
int script_cmd_sampler(script *s, const script_line *l)
{
    uint32_t idx;
    if (!script_arg_u32(s, l, 0, "sampler index", 0, SCRIPT_POOL_ENTRIES - 1, &idx))
        return TV_EXIT_INVALID;
    tv_tsc t;
    memset(&t, 0, sizeof t);
    t.mag_filter = TV_MAG_POINT;
    t.min_filter = TV_MIN_POINT;
    t.mip_filter = TV_MIP_POINT;
    t.address_u = t.address_v = t.address_p = TV_WRAP_CLAMP_TO_EDGE;
    t.max_lod_clamp = 0xfff;
    static const uint8_t mag[] = {TV_MAG_POINT, TV_MAG_LINEAR};
    static const uint8_t min[] = {TV_MIN_POINT, TV_MIN_LINEAR, TV_MIN_ANISO};
    static const uint8_t mip[] = {TV_MIP_NONE, TV_MIP_POINT, TV_MIP_LINEAR};
    const script_val *v;
    if ((v = script_optval(l, "mag")))
        t.mag_filter = mag[v->e];
    if ((v = script_optval(l, "min")))
        t.min_filter = min[v->e];
    if ((v = script_optval(l, "mip")))
        t.mip_filter = mip[v->e];
    if ((v = script_optval(l, "wrap")))
        t.address_u = t.address_v = t.address_p = (uint8_t)v->e;
    if ((v = script_optval(l, "compare"))) {
        t.depth_compare = true;
        t.depth_compare_func = (uint8_t)v->e;
    }
    if ((v = script_optval(l, "aniso")))
        t.max_anisotropy = (uint8_t)v->e;
    if ((v = script_optval(l, "bias")))
        t.mip_lod_bias = tv_float_to_fixed_s5_8(v->f);
    if ((v = script_optval(l, "minlod")))
        t.min_lod_clamp = tv_float_to_fixed_u4_8(v->f);
    if ((v = script_optval(l, "maxlod")))
        t.max_lod_clamp = tv_float_to_fixed_u4_8(v->f);
    if ((v = script_optval(l, "border")))
        memcpy(t.border_color, v->rgba, sizeof v->rgba);
    uint32_t raw[8];
    tv_tsc_encode(&t, raw);
    tv_memory_write(s->mem, SCRIPT_SMP_POOL + 32ull * idx, raw, 32);
    tv_tex_invalidate(s->unit);
    return 0;
}
