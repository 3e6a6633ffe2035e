/* The output merger on each shaded pixel of a draw (the fragment stage's emit hook): the
 * sample mask, the legacy alpha test, depth (the shader's or the triangle's plane plus
 * polygon offset, clamped) and stencil against the depth/stencil buffer, then blending,
 * logic op and write masks into each colour buffer — all through pipe_om.h's functions
 * and the format table. GL 4.6 §17.3 order. On multisampled targets each covered sample
 * is tested and written on its own (depth from the triangle's plane at the sample's
 * position), after alpha-to-coverage has removed samples. */
#include "pipe_draw.h"
#include "pipe_box_early.h"

#include "util/half.h"
#include "util/wide_vectors.h"

#include <math.h>
#include <string.h>



/* The triangle's depth plane at window position (px, py), plus the polygon offset. */
static float plane_depth(const draw_state *d, double px, double py)
{
    return (float)(d->z0 + d->zx * (px - d->zpx) + d->zy * (py - d->zpy)) + d->zoffset;
}

/* A fragment depth clamped to the viewport's range (depth clamp), then to [0, 1]. */
static float clamp_depth(const draw_state *d, float z)
{
    if (d->ctx->sub.rast.depth_clamp)
        z = z < d->zmin ? d->zmin : z > d->zmax ? d->zmax : z;
    if (!(z >= 0.0f))           /* NaN too */
        z = 0.0f;
    return z > 1.0f ? 1.0f : z;
}

/* Depth of sample S of pixel (x, y): the shader's, or the plane's at the sample's position
 * (the pixel centre when single-sampled or multisample rasterisation is off) plus the
 * offset. */
static float fragment_depth(const draw_state *d, const tv_vm_frag_output *o, unsigned s)
{
    if (o->has_depth)
        return clamp_depth(d, o->depth);
    float sx = 0.5f, sy = 0.5f;
    if (d->rules.samples > 1)        /* multisample rasterisation: at the sample */
        tv_tex_sample_position(d->rules.samples, s, &sx, &sy);
    return clamp_depth(d, plane_depth(d, o->x + (double)sx, o->y + (double)sy));
}

/* Sample SMP of pixel (x, y) in the depth/stencil buffer. */
static uint8_t *zs_texel(const draw_state *d, int32_t x, int32_t y, unsigned smp)
{
    return d->zbase + d->zlayer_stride * d->layer + d->zstride * (size_t)y +
           (size_t)d->zs.bytes * ((size_t)x * d->samples + smp);
}

bool draw_om_depth_stencil(const draw_state *d, const tv_vm_frag_output *o, unsigned smp)
{
    const tv_pipe_dsa_state *s = &d->ctx->sub.dsa;
    if (!d->has_zs || (!s->depth_enabled && !s->stencil[0].enabled))
        return true;
    uint8_t ref = d->ctx->sub.stencil_ref[d->front || !s->stencil[1].enabled ? 0 : 1];
    if (o->has_stencil)
        ref = (uint8_t)o->stencil;   /* shader stencil export replaces the reference */
    uint8_t *texel = zs_texel(d, o->x, o->y, smp);
    uint32_t zq = d->zs.depth_bits ? om_depth_quantize(&d->zs, fragment_depth(d, o, smp)) : 0;
    return om_depth_stencil(s, &d->zs, d->front, ref, zq, texel);
}

static void write_color(const draw_state *d, unsigned i, const tv_vm_frag_output *o,
                        unsigned smp)
{
    const tv_pipe_blend_state *b = &d->ctx->sub.blend;
    const om_rt_blend *rt = &b->rt[b->independent_blend_enable ? i : 0];
    const draw_cbuf *cb = &d->cb[i];
    unsigned src = d->color0_all ? 0 : i;
    if (!((o->colors >> src) & 1u) || !rt->colormask)
        return;
    uint8_t *texel = draw_cbuf_texel(d, cb, o->x, o->y, smp);
    uint32_t value[4];
    memcpy(value, o->color[src], sizeof value);
    bool integer = cb->t.cls == OM_CLASS_SINT || cb->t.cls == OM_CLASS_UINT;
    if (b->alpha_to_one && !integer)
        value[3] = 0x3f800000u;    /* alpha-to-one: after the coverage was taken from it */
    if (rt->blend_enable && !integer) {
        uint32_t dst_bits[4];
        om_target_read(&cb->t, texel, dst_bits);
        float s0[4], s1[4], dst[4], out[4];
        for (int c = 0; c < 4; c++) {
            s0[c] = tv_bits_f32(value[c]);
            s1[c] = tv_bits_f32(o->color[1][c]);   /* dual source: COLOR[1] */
            dst[c] = tv_bits_f32(dst_bits[c]);
        }
        om_blend_color(rt, cb->t.cls, s0, s1, dst, d->ctx->sub.blend_color, out);
        for (int c = 0; c < 4; c++)
            value[c] = tv_f32_bits(out[c]);
    }
    om_target_write(&cb->t, value, rt->colormask, b->logicop_enable ? b->logicop_func : -1,
                    texel);
}

/* Alpha-to-coverage: the first round(alpha x samples) samples (one sample: alpha >= 0.5). */
static uint32_t alpha_coverage(float a, unsigned samples)
{
    if (!(a > 0.0f))
        return 0;          /* NaN too */
    float k = a >= 1.0f ? (float)samples : floorf(a * (float)samples + 0.5f);
    return k >= 32.0f ? ~0u : (1u << (unsigned)k) - 1u;
}

void draw_om_emit(void *user, const tv_vm_frag_output *out)
{
    draw_state *d = user;
    if (out->x < 0 || out->y < 0 || out->x >= d->width || out->y >= d->height)
        return;
    tv_vm_frag_output scaled;
    if (d->aa.kind != DRAW_AA_NONE) {
        /* antialiased: the alpha of each colour output (not of integer targets) times
         * the pixel's coverage */
        float a = (float)draw_aa_coverage(d, out->x, out->y);
        scaled = *out;
        for (unsigned i = 0; i < TV_VM_MAX_COLOR_TARGETS; i++) {
            unsigned t = d->color0_all ? 0 : i;
            bool integer = t < d->nr_cbufs && d->cb_bound[t] &&
                           (d->cb[t].t.cls == OM_CLASS_SINT || d->cb[t].t.cls == OM_CLASS_UINT);
            if (((out->colors >> i) & 1u) && !integer)
                scaled.color[i][3] = tv_f32_bits(tv_bits_f32(out->color[i][3]) * a);
        }
        out = &scaled;
    }
    unsigned n = d->samples ? d->samples : 1;
    uint32_t cov = out->coverage & (out->has_sample_mask ? out->sample_mask : ~0u) &
                   (n >= 32 ? ~0u : (1u << n) - 1u);
    const tv_pipe_blend_state *b = &d->ctx->sub.blend;
    float a0 = (out->colors & 1u) ? tv_bits_f32(out->color[0][3]) : 0.0f;
    if (b->alpha_to_coverage)
        cov &= alpha_coverage(a0, n);
    if (!cov)
        return;
    const tv_pipe_dsa_state *s = &d->ctx->sub.dsa;
    if (s->alpha_enabled && !om_compare_f(s->alpha_func, a0, s->alpha_ref))
        return;
    const tv_vm_frag_output *o = out;
    bool late = d->zs_early == DRAW_ZS_LATE;   /* else tested (and counted) before shading */
    for (unsigned smp = 0; smp < n; smp++) {
        if (!((cov >> smp) & 1u) || (late && !draw_om_depth_stencil(d, o, smp)))
            continue;
        if (late)
            d->ctx->rows[o->y >> 2].passed++;   /* occlusion queries count samples */
        for (unsigned i = 0; i < d->nr_cbufs; i++)
            if (d->cb_bound[i])
                write_color(d, i, o, smp);
    }
}

uint32_t draw_om_early(draw_state *d, int32_t x, int32_t y, uint32_t cov)
{
    /* the engine asks once per pixel and sample pass; the tests are made once */
    int32_t tx = x >> 3;
    draw_row *row = &d->ctx->rows[y >> 2];
    unsigned lane = (unsigned)(y & 3) * 8 + (unsigned)(x & 7);
    if (tx != row->memo_tx || row->memo_gen != d->tri_gen) {
        row->memo_tx = tx;
        row->memo_gen = d->tri_gen;
        row->memo_done = 0;
    }
    if ((row->memo_done >> lane) & 1u)
        return row->memo_cov[lane];
    unsigned n = d->samples ? d->samples : 1;
    cov &= d->ctx->sub.sample_mask & (n >= 32 ? ~0u : (1u << n) - 1u);
    tv_vm_frag_output o;        /* what draw_om_depth_stencil reads: no shader depth or
                                   stencil (the plane and the state's), the position */
    o.has_depth = o.has_stencil = false;
    o.x = x;
    o.y = y;
    uint32_t pass = 0;
    for (unsigned smp = 0; smp < n; smp++)
        if (((cov >> smp) & 1u) && draw_om_depth_stencil(d, &o, smp)) {
            pass |= 1u << smp;
            row->passed++;
        }
    row->memo_done |= 1u << lane;
    row->memo_cov[lane] = pass;
    return pass;
}

/* fragment_depth, clamp_depth and om_depth_quantize of the lanes at their pixel
 * centres for a 4-byte depth target quantised by value (float, or UNORM by its formula)
 * without depth clamp: the same operations in the same order, as lane loops compiled for
 * wide vectors too (no contraction, no FMA: util/wide_vectors.h). */
static TV_ALWAYS_INLINE void early_depths_n(double z0, double zx, double zy, double zpx,
                                            double zpy, float zoffset, bool is_float,
                                            double unorm_max, const int32_t x[32],
                                            const int32_t y[32], uint32_t zq[32], unsigned n)
{
    for (unsigned l = 0; l < n; l++) {
        double px = x[l] + (double)0.5f, py = y[l] + (double)0.5f;
        float z = (float)(z0 + zx * (px - zpx) + zy * (py - zpy)) + zoffset;
        z = z >= 0.0f ? z : 0.0f;          /* NaN too */
        z = z > 1.0f ? 1.0f : z;
        uint32_t fbits;
        memcpy(&fbits, &z, 4);
        /* z is in [0, 1] here: the quantiser's NaN and range steps change nothing */
        uint32_t u = (uint32_t)nearbyint((double)z * unorm_max);
        zq[l] = is_float ? fbits : u;
    }
}

/* early_depths_n over the first 16 lanes (HALF: the lanes asked for are among them, a
 * small primitive's candidates) or all 32 */
TV_WIDE_VECTORS static void early_depths32(double z0, double zx, double zy, double zpx,
                                           double zpy, float zoffset, bool is_float,
                                           double unorm_max, const int32_t x[32],
                                           const int32_t y[32], uint32_t zq[32], bool half)
{
    if (half)
        early_depths_n(z0, zx, zy, zpx, zpy, zoffset, is_float, unorm_max, x, y, zq, 16);
    else
        early_depths_n(z0, zx, zy, zpx, zpy, zoffset, is_float, unorm_max, x, y, zq, 32);
}

/* The passes of the early test counted per row of tiles in a local (*ROW, *PASSED), added
 * to the row's count when a lane of another row comes (a memory count per lane made each
 * update wait for the one before); Y = -4 (row -1) adds the last. */
static inline void count_pass(draw_row *rows, int32_t *row, uint64_t *passed, int32_t y,
                              bool pass)
{
    if (y >> 2 != *row) {
        if (*row >= 0)
            rows[*row].passed += *passed;
        *row = y >> 2;
        *passed = 0;
    }
    *passed += pass;
}

/* Whether draw_om_early_lanes serves D's draw: single-sampled, a depth test and no
 * stencil test. */
static bool early_lanes_serve(const draw_state *d)
{
    const tv_pipe_dsa_state *s = &d->ctx->sub.dsa;
    return d->samples <= 1 && d->has_zs && s->depth_enabled && d->zs.depth_bits &&
           !s->stencil[0].enabled && !s->stencil[1].enabled;
}

/* Whether its lanes' depths are early_depths32's: a 4-byte target quantised by value,
 * without depth clamp. */
static bool early_by_value32(const draw_state *d)
{
    return d->zs.bytes == 4 && !d->ctx->sub.rast.depth_clamp &&
           (d->zs.depth_float || d->zs.unorm_direct);
}

bool draw_om_early_lanes(draw_state *d, const int32_t x[32], const int32_t y[32],
                         uint32_t inside, uint32_t cov[32])
{
    const tv_pipe_dsa_state *s = &d->ctx->sub.dsa;
    if (!early_lanes_serve(d))
        return false;
    const uint32_t smask = d->ctx->sub.sample_mask & 1u;
    /* the lanes' quantised depths at once where early_depths32 serves, else lane by lane */
    uint32_t zq32[32];
    const bool vec = early_by_value32(d);
    if (vec)
        early_depths32(d->z0, d->zx, d->zy, d->zpx, d->zpy, d->zoffset, d->zs.depth_float,
                       d->zs.unorm_max, x, y, zq32, !(inside >> 16));
    /* zs_texel of sample 0 of a single-sampled target: the layer's base, the row, the
       column (its products once, not per lane) */
    uint8_t *const zbase = d->zbase + d->zlayer_stride * d->layer;
    const size_t zstride = d->zstride, zbytes = d->zs.bytes;
    draw_row *const rows = d->ctx->rows;
    int32_t row = -1;
    uint64_t passed = 0;
    if (vec) {
        /* the covered lanes at once (om_early_depth32), their passes counted per row */
        uint32_t pass = om_early_depth32(s, &d->zs, zbase, zstride, (uint32_t)d->height, x, y,
                                         zq32, inside, smask, cov, d->avx512);
        for (uint32_t m = pass; m; m &= m - 1)
            count_pass(rows, &row, &passed, y[__builtin_ctz(m)], true);
        count_pass(rows, &row, &passed, -4, false);
        return true;
    }
    for (uint32_t m = inside; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (!(cov[l] & smask)) {
            cov[l] = 0;
            continue;
        }
        /* fragment_depth at the pixel centre; (no stencil test: reference and face are
           unread) */
        uint32_t zq = vec ? zq32[l]
                          : om_depth_quantize(&d->zs, clamp_depth(d, plane_depth(
                                d, x[l] + (double)0.5f, y[l] + (double)0.5f)));
        void *texel = zbase + zstride * (size_t)y[l] + zbytes * (size_t)x[l];
        bool pass = zbytes == 4 ? om_depth_test32(s, &d->zs, zq, texel)
                                : om_depth_stencil(s, &d->zs, d->front, 0, zq, texel);
        cov[l] = pass;
        count_pass(rows, &row, &passed, y[l], pass);
    }
    count_pass(rows, &row, &passed, -4, false);
    return true;
}

bool draw_om_early_box(draw_state *d, const int32_t box[4], int32_t qx[16], int32_t qy[16],
                       uint32_t cov[64], int *n)
{
    /* draw_om_early_lanes' vectorised case, on a machine with AVX-512F or AVX2 */
    if (!(d->avx512 || d->avx2) || !early_lanes_serve(d) || !early_by_value32(d))
        return false;
    raster_box rb;
    const bool set = d->avx2 ? raster_box_setup_avx2(&d->rt, box, &rb)
                             : raster_box_setup(&d->rt, box, &rb);
    if (!set) {
        *n = -1;
        return true;
    }
    const box_early e = {d->z0, d->zx, d->zy, d->zpx, d->zpy, d->zoffset, &d->ctx->sub.dsa,
                         &d->zs, d->zbase + d->zlayer_stride * d->layer, d->zstride,
                         (d->ctx->sub.sample_mask & 1u) != 0};
    uint32_t passed[3];
    *n = box_early_quads(&rb, &e, d->avx512, qx, qy, cov, passed);
    for (int32_t t = 0; t < 3 && *n >= 0; t++)
        if (passed[t])
            d->ctx->rows[(rb.y0 >> 2) + t].passed += passed[t];
    return true;
}

void draw_om_choose_zs(draw_state *d, const tv_tgsi_program *fs)
{
    const tv_pipe_dsa_state *s = &d->ctx->sub.dsa;
    d->zs_early = DRAW_ZS_LATE;
    if (!d->has_zs || (!s->depth_enabled && !s->stencil[0].enabled))
        return;
    if (draw_prop(fs, TV_PROP_FS_EARLY_DEPTH_STENCIL)) {
        d->zs_early = DRAW_ZS_EARLY_ASKED;
        return;
    }
    /* the plain path is the reference the early one is checked against */
    if (d->ctx->plain || s->alpha_enabled || d->ctx->sub.blend.alpha_to_coverage)
        return;
    for (uint32_t i = 0; i < fs->num_decls; i++) {
        const tv_tgsi_declaration *dc = &fs->decls[i];
        if (dc->file == TV_FILE_OUT && dc->has_semantic &&
            (dc->semantic == TV_SEM_POSITION || dc->semantic == TV_SEM_STENCIL ||
             dc->semantic == TV_SEM_SAMPLEMASK))
            return;
    }
    for (uint32_t i = 0; i < fs->num_insns; i++) {
        unsigned op = fs->insns[i].opcode;
        const tv_tgsi_opinfo *oi = tv_tgsi_opinfo_get(op);
        if (op == TV_TGSI_OP_KILL || op == TV_TGSI_OP_KILL_IF || op == TV_TGSI_OP_DEMOTE ||
            !oi || (oi->flags & TV_OPF_STORE))
            return;
    }
    d->zs_early = DRAW_ZS_EARLY_SAME;
}
