/* texvm run: texture storage in a tv_memory (pitch or block-linear, placed through the
 * header's own address function), TIC/TSC entries, header and sampler pools. */
#include "job_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_POOL_ADDR 0x10000000ull
#define SAMPLER_POOL_ADDR 0x40000000ull
#define TEXTURE_BASE 0x100000000ull
#define TEXTURE_ALIGN 0x10000ull


/* MULTI_SAMPLE_COUNT code for a sample count (2X1, 2X2, 4X2, 4X4). */
static uint8_t msaa_code(uint32_t samples)
{
    switch (samples) {
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 6;
    default: return 0;
    }
}

static void msaa_grid(uint32_t samples, uint32_t *gw, uint32_t *gh)
{
    *gw = samples >= 16 ? 4 : samples >= 8 ? 4 : samples >= 2 ? 2 : 1;
    *gh = samples >= 16 ? 4 : samples >= 4 ? 2 : 1;
}

/* The view swizzle on top of the format's: each letter picks the format's source. */
static void compose_swizzle(tv_tic *tic, const char swz[4], bool integer)
{
    uint8_t fmt[4];
    memcpy(fmt, tic->source, 4);
    for (int i = 0; i < 4; i++) {
        switch (swz[i]) {
        case 'r': tic->source[i] = fmt[0]; break;
        case 'g': tic->source[i] = fmt[1]; break;
        case 'b': tic->source[i] = fmt[2]; break;
        case 'a': tic->source[i] = fmt[3]; break;
        case '0': tic->source[i] = 0; break;
        default: tic->source[i] = integer ? 6 : 7; break; /* ONE_INT / ONE_FLOAT */
        }
    }
}

static int build_tic(run_state *rs, size_t i, tv_tic *tic)
{
    const job_texture *t = &rs->j->textures[i];
    tv_error err;
    if (tv_tic_from_format(tic, t->format, &err) != TV_OK)
        return run_fail(rs, TV_EXIT_INVALID, "textures[%zu]: %s", i, err.message);
    const tv_format_info *fi = tv_format_get(t->format);
    tic->texture_type = (uint8_t)t->type;
    tic->width_minus_one = t->width - 1;
    tic->height_minus_one = (uint16_t)(t->height - 1);
    switch (t->type) {
    case TV_TEX_3D: tic->depth_minus_one = (uint16_t)(t->depth - 1); break;
    case TV_TEX_1D_ARRAY:
    case TV_TEX_2D_ARRAY: tic->depth_minus_one = (uint16_t)(t->layers - 1); break;
    case TV_TEX_CUBE_ARRAY: tic->depth_minus_one = (uint16_t)(t->layers / 6 - 1); break;
    default: tic->depth_minus_one = 0; break;
    }
    tic->max_mip_level = (uint8_t)(t->levels - 1);
    tic->res_view_min_mip_level = (uint8_t)t->view_min_level;
    tic->res_view_max_mip_level = (uint8_t)t->view_max_level;
    tic->header_version = (uint8_t)t->layout;
    tic->normalized_coords = t->normalized;
    if (t->srgb >= 0)
        tic->srgb = t->srgb != 0;
    tic->multi_sample_count = msaa_code(t->samples);
    uint32_t gw, gh;
    msaa_grid(t->samples, &gw, &gh);
    if (t->layout == TV_TIC_PITCH) {
        uint64_t row = (uint64_t)(t->width * gw + fi->block_w - 1) / fi->block_w * fi->block_bytes;
        tic->pitch = t->pitch ? t->pitch : (uint32_t)((row + 31) / 32 * 32);
    } else if (t->layout == TV_TIC_BLOCKLINEAR) {
        tic->gobs_per_block_width = t->block[0];
        tic->gobs_per_block_height = t->block[1];
        tic->gobs_per_block_depth = t->block[2];
    }
    compose_swizzle(tic, t->swizzle,
                    fi->kind == TV_FMT_KIND_UINT || fi->kind == TV_FMT_KIND_SINT);
    for (size_t k = 0; k < t->num_overrides; k++)
        job_tic_apply(tic, &t->overrides[k]);
    return 0;
}

const uint8_t *run_texel_ptr(const run_state *rs, size_t i, unsigned level, unsigned x,
                             unsigned y, unsigned layer, unsigned sample)
{
    const run_texture *rt = &rs->textures[i];
    uint64_t a = tv_tic_texel_address(&rt->tic, level, x, y, layer, sample) - rt->tic.address;
    return a < rt->size ? rt->mem + a : NULL;
}

void run_texel_write(run_state *rs, size_t i, unsigned level, unsigned x, unsigned y,
                     unsigned layer, unsigned sample, const uint8_t *texel)
{
    const tv_format_info *fi = tv_format_get(rs->j->textures[i].format);
    uint8_t *p = (uint8_t *)run_texel_ptr(rs, i, level, x, y, layer, sample);
    if (p && (uint64_t)(p - rs->textures[i].mem) + fi->block_bytes <= rs->textures[i].size)
        memcpy(p, texel, fi->block_bytes);
}

/* Copy the job's tightly packed texels into the header's layout. */
static void place_texels(run_state *rs, size_t i)
{
    const job_texture *t = &rs->j->textures[i];
    const tv_format_info *fi = tv_format_get(t->format);
    for (uint32_t l = 0; l < t->levels; l++) {
        uint32_t w = job_level_size(t->width, l), h = job_level_size(t->height, l);
        uint32_t bw = (w + fi->block_w - 1) / fi->block_w, bh = (h + fi->block_h - 1) / fi->block_h;
        uint32_t layers = job_texture_layers(t, l);
        const uint8_t *src = t->data + t->level_offset[l];
        if (t->layout == TV_TIC_PITCH && t->samples == 1) {
            /* rows are contiguous in pitch layout: one address per row */
            size_t row = (size_t)bw * fi->block_bytes;
            for (uint32_t layer = 0; layer < layers; layer++)
                for (uint32_t by = 0; by < bh; by++, src += row) {
                    uint8_t *dst = (uint8_t *)run_texel_ptr(rs, i, l, 0, by * fi->block_h, layer, 0);
                    if (dst && (uint64_t)(dst - rs->textures[i].mem) + row <= rs->textures[i].size)
                        memcpy(dst, src, row);
                }
            continue;
        }
        for (uint32_t layer = 0; layer < layers; layer++)
            for (uint32_t by = 0; by < bh; by++)
                for (uint32_t bx = 0; bx < bw; bx++)
                    for (uint32_t s = 0; s < t->samples; s++) {
                        run_texel_write(rs, i, l, bx * fi->block_w, by * fi->block_h, layer, s,
                                        src);
                        src += fi->block_bytes;
                    }
    }
}

static void build_tsc(const job_sampler *s, tv_tsc *tsc)
{
    memset(tsc, 0, sizeof *tsc);
    tsc->address_u = s->wrap[0];
    tsc->address_v = s->wrap[1];
    tsc->address_p = s->wrap[2];
    tsc->depth_compare = s->compare >= 0;
    tsc->depth_compare_func = (uint8_t)(s->compare >= 0 ? s->compare : 0);
    tsc->srgb_conversion = s->srgb_conversion;
    static const uint32_t ratios[8] = {1, 2, 4, 6, 8, 10, 12, 16};
    for (uint8_t k = 0; k < 8; k++)
        if (s->max_anisotropy >= ratios[k])
            tsc->max_anisotropy = k;
    tsc->mag_filter = s->mag_filter;
    tsc->min_filter = s->min_filter;
    tsc->mip_filter = s->mip_filter;
    tsc->cubemap_interface_filtering = s->seamless_cube ? 2 : 0;
    tsc->reduction_filter = s->reduction;
    tsc->mip_lod_bias = tv_float_to_fixed_s5_8(s->lod_bias);
    tsc->force_unnormalized_coords = s->unnormalized;
    tsc->min_lod_clamp = tv_float_to_fixed_u4_8(s->min_lod);
    tsc->max_lod_clamp = tv_float_to_fixed_u4_8(s->max_lod);
    memcpy(tsc->border_color, s->border, sizeof tsc->border_color);
    tv_tsc_srgb_border(tsc);
}

/* Lay out a pool: entry e holds item slot_item[e] (or -1); items with a fixed index go
 * there, the rest after the highest used entry. Returns the entry count or -1 (clash). */
static int layout_pool(const int *slot_item, size_t slots, const int *fixed, size_t items,
                       int *entries, size_t max_entries, int *first_entry, size_t *clash)
{
    size_t count = 0;
    for (size_t e = 0; e < max_entries; e++)
        entries[e] = -1;
    for (size_t s = 0; s < slots; s++)
        if (slot_item[s] >= 0) {
            entries[s] = slot_item[s];
            count = s + 1;
        }
    for (size_t i = 0; i < items; i++)
        if (fixed[i] >= 0) {
            if (entries[fixed[i]] >= 0 && entries[fixed[i]] != (int)i) {
                *clash = i;
                return -1;
            }
            entries[fixed[i]] = (int)i;
            if ((size_t)fixed[i] + 1 > count)
                count = (size_t)fixed[i] + 1;
        }
    for (size_t i = 0; i < items; i++) {
        first_entry[i] = -1;
        for (size_t e = 0; e < count && first_entry[i] < 0; e++)
            if (entries[e] == (int)i)
                first_entry[i] = (int)e;
        if (first_entry[i] < 0) {
            entries[count] = (int)i;
            first_entry[i] = (int)count++;
        }
    }
    return (int)count;
}

int run_textures(run_state *rs)
{
    const job *j = rs->j;
    tv_error err;
    rs->mem = tv_memory_create();
    rs->tex = rs->mem ? tv_tex_create(rs->mem) : NULL;
    if (!rs->tex)
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    size_t nt = j->num_textures, ns = j->num_samplers;
    rs->textures = calloc(nt ? nt : 1, sizeof *rs->textures);
    rs->header_of_texture = calloc(nt ? nt : 1, sizeof(int));
    rs->sampler_of_sampler = calloc(ns ? ns : 1, sizeof(int));
    if (!rs->textures || !rs->header_of_texture || !rs->sampler_of_sampler)
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    /* Header pool. */
    int max_fixed = JOB_MAX_SLOTS;
    for (size_t i = 0; i < nt; i++)
        if (j->textures[i].header_index + 1 > max_fixed)
            max_fixed = j->textures[i].header_index + 1;
    for (size_t i = 0; i < ns; i++)
        if (j->samplers[i].sampler_index + 1 > max_fixed)
            max_fixed = j->samplers[i].sampler_index + 1;
    size_t max_entries = (size_t)max_fixed + nt + ns + 1;
    int *entries = malloc(max_entries * sizeof *entries);
    int *fixed = malloc((nt + ns + 1) * sizeof *fixed);
    if (!entries || !fixed) {
        free(entries);
        free(fixed);
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    }
    size_t clash = 0;
    for (size_t i = 0; i < nt; i++)
        fixed[i] = j->textures[i].header_index;
    int hc = layout_pool(j->sview, JOB_MAX_SLOTS, fixed, nt, entries, max_entries,
                         rs->header_of_texture, &clash);
    if (hc < 0) {
        free(entries);
        free(fixed);
        return run_fail(rs, TV_EXIT_INVALID,
                        "textures[%zu].header_index %d is the entry of a bound SVIEW slot",
                        clash, j->textures[clash].header_index);
    }
    rs->header_count = (uint32_t)(hc ? hc : 1);
    rs->header_pool = calloc(rs->header_count, 32);
    if (!rs->header_pool) {
        free(entries);
        free(fixed);
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    }
    /* Texture storage. */
    uint64_t next = TEXTURE_BASE;
    int rc = 0;
    for (size_t i = 0; i < nt && !rc; i++) {
        run_texture *rt = &rs->textures[i];
        if ((rc = build_tic(rs, i, &rt->tic)))
            break;
        rt->tic.address = next;
        rt->size = tv_tic_size_bytes(&rt->tic);
        if (!rt->size) {
            rc = run_fail(rs, TV_EXIT_INVALID,
                          "textures[%zu]: the texture unit rejects this header (type, format "
                          "or layout)",
                          i);
            break;
        }
        rt->mem = calloc(1, (size_t)rt->size);
        if (!rt->mem || tv_memory_map(rs->mem, next, rt->mem, rt->size, &err) != TV_OK) {
            rc = run_fail(rs, TV_EXIT_INVALID, "textures[%zu]: cannot allocate %llu bytes", i,
                          (unsigned long long)rt->size);
            break;
        }
        next += (rt->size + TEXTURE_ALIGN - 1) / TEXTURE_ALIGN * TEXTURE_ALIGN;
        place_texels(rs, i);
    }
    for (size_t e = 0; e < rs->header_count && !rc && hc; e++)
        if (entries[e] >= 0)
            tv_tic_encode(&rs->textures[entries[e]].tic, rs->header_pool + 8 * e);
    /* Sampler pool. */
    for (size_t i = 0; i < ns; i++)
        fixed[i] = j->samplers[i].sampler_index;
    int sc = rc ? 0
                : layout_pool(j->samp, JOB_MAX_SLOTS, fixed, ns, entries, max_entries,
                              rs->sampler_of_sampler, &clash);
    if (!rc && sc < 0)
        rc = run_fail(rs, TV_EXIT_INVALID,
                      "samplers[%zu].sampler_index %d is the entry of a bound SAMP slot", clash,
                      j->samplers[clash].sampler_index);
    if (!rc) {
        rs->sampler_count = (uint32_t)(sc > 0 ? sc : 1);
        rs->sampler_pool = calloc(rs->sampler_count, 32);
        if (!rs->sampler_pool)
            rc = run_fail(rs, TV_EXIT_INVALID, "out of memory");
        for (int e = 0; e < sc && !rc; e++)
            if (entries[e] >= 0) {
                tv_tsc tsc;
                build_tsc(&j->samplers[entries[e]], &tsc);
                /* Job borders are API colours: pre-swizzle for the view of the same slot
                 * (TEX-family pairs SAMP[i] with SVIEW[i]; docs/jobs-resources.md §3). */
                if (e < JOB_MAX_SLOTS && j->sview[e] >= 0)
                    tv_tsc_border_for_header(&tsc, &rs->textures[j->sview[e]].tic);
                tv_tsc_encode(&tsc, rs->sampler_pool + 8 * e);
            }
    }
    free(entries);
    free(fixed);
    if (rc)
        return rc;
    if (tv_memory_map(rs->mem, HEADER_POOL_ADDR, rs->header_pool, 32ull * rs->header_count,
                      &err) != TV_OK ||
        tv_memory_map(rs->mem, SAMPLER_POOL_ADDR, rs->sampler_pool, 32ull * rs->sampler_count,
                      &err) != TV_OK)
        return run_fail(rs, TV_EXIT_INVALID, "cannot map the pools: %s", err.message);
    tv_tex_set_header_pool(rs->tex, HEADER_POOL_ADDR, rs->header_count - 1);
    tv_tex_set_sampler_pool(rs->tex, SAMPLER_POOL_ADDR, rs->sampler_count - 1);
    return 0;
}

void run_textures_free(run_state *rs)
{
    if (rs->tex)
        tv_tex_destroy(rs->tex);
    if (rs->mem)
        tv_memory_destroy(rs->mem);
    if (rs->textures)
        for (size_t i = 0; i < rs->j->num_textures; i++)
            free(rs->textures[i].mem);
    free(rs->textures);
    free(rs->header_pool);
    free(rs->sampler_pool);
    free(rs->header_of_texture);
    free(rs->sampler_of_sampler);
}
