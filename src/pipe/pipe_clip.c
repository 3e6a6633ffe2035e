/* Clipping in homogeneous clip space (GL 4.6 §13.7, Gallium's rasterizer clip state):
 * outcodes, Sutherland-Hodgman polygons, parametric lines, cull distances, viewport. */
#include "pipe_clip.h"

#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

float clip_distance(const clip_state *s, unsigned plane, const float *v)
{
    float x = v[CLIP_POS], y = v[CLIP_POS + 1], z = v[CLIP_POS + 2], w = v[CLIP_POS + 3];
    switch (plane) {
    case 0: return x + s->guard_x * w;
    case 1: return s->guard_x * w - x;
    case 2: return y + s->guard_y * w;
    case 3: return s->guard_y * w - y;
    case 4: return s->halfz ? z : z + w;
    case 5: return w - z;
    default: return v[CLIP_DIST + plane - 6];
    }
}

/* The planes this state clips against at all. */
static unsigned active_planes(const clip_state *s)
{
    unsigned m = CLIP_LEFT | CLIP_RIGHT | CLIP_BOTTOM | CLIP_TOP;
    if (s->depth_clip_near)
        m |= CLIP_NEAR;
    if (s->depth_clip_far)
        m |= CLIP_FAR;
    return m | (unsigned)s->distances << 6;
}

/* clip_outcode's body, inlined into clip_planes_needed (three vertices a triangle) */
static inline __attribute__((always_inline)) unsigned outcode(const clip_state *s,
                                                              const float *v)
{
    /* clip_distance's six view-volume planes, written out (it runs for every vertex of
       every triangle), then the clip distances that clip */
    const float x = v[CLIP_POS], y = v[CLIP_POS + 1], z = v[CLIP_POS + 2], w = v[CLIP_POS + 3];
    const float d[6] = {x + s->guard_x * w, s->guard_x * w - x, y + s->guard_y * w,
                        s->guard_y * w - y, s->halfz ? z : z + w, w - z};
    unsigned code = 0;
    /* !(d >= 0): a NaN distance counts as outside (every plane tested without branches,
       then the active ones kept) */
    for (unsigned p = 0; p < 6; p++)
        code |= (unsigned)!(d[p] >= 0.0f) << p;
    code &= active_planes(s) & 0x3fu;
    for (unsigned m = s->distances; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        if (!(v[CLIP_DIST + i] >= 0.0f))
            code |= 1u << (6 + i);
    }
    return code;
}

unsigned clip_outcode(const clip_state *s, const float *v)
{
    return outcode(s, v);
}

int clip_planes_needed(const clip_state *s, const float *verts, unsigned n, unsigned stride)
{
    unsigned any = 0, all = ~0u;
    for (unsigned i = 0; i < n; i++) {
        unsigned c = outcode(s, verts + i * stride);
        any |= c;
        all &= c;
    }
    return all ? -1 : (int)any;
}

#if defined(__x86_64__)
/* Bit p of X (p < 6) at bit 4 p + 3: the view-volume planes' mask in clip_triangle_window's
 * nibbles (the bits spread three at a time, then within each three). */
static inline uint32_t nibble_tops(uint32_t x)
{
    x = (x | x << 9) & 0x7007u;      /* bits 3-5 to 12-14 */
    x = (x | x << 6) & 0x103103u;    /* bits 2, 14 to 8, 20 */
    x = (x | x << 3) & 0x111111u;    /* bits 1, 13 to 4, 16 */
    return x << 3;
}
#endif

int clip_triangle_window(const clip_state *s, const clip_viewport *vp, const float pos[12],
                         float win[3][4], float w[3])
{
#if defined(__x86_64__)
    /* columns: x, y, z, w of vertices 0, 1, 2 and vertex 2 again in lane 3 */
    __m128 x = _mm_loadu_ps(pos), y = _mm_loadu_ps(pos + 4), z = _mm_loadu_ps(pos + 8);
    __m128 q = z;
    _MM_TRANSPOSE4_PS(x, y, z, q);
    const __m128 gxw = _mm_mul_ps(_mm_set1_ps(s->guard_x), q);
    const __m128 gyw = _mm_mul_ps(_mm_set1_ps(s->guard_y), q);
    const __m128 d[6] = {_mm_add_ps(x, gxw), _mm_sub_ps(gxw, x), _mm_add_ps(y, gyw),
                         _mm_sub_ps(gyw, y), s->halfz ? z : _mm_add_ps(z, q), _mm_sub_ps(q, z)};
    /* outcode's !(d >= 0) in lanes 0..2, plane p's three vertices in nibble p; then in
       every nibble at once (no carry leaves a nibble: its value is at most 7) bit 3 of
       n + 1 is "all three out" and bit 3 of n + 7 "any out" — a test a plane made twice
       as many instructions of the triangle's path */
    uint32_t out = 0;
    for (unsigned p = 0; p < 6; p++)
        out |= (uint32_t)_mm_movemask_ps(_mm_cmpnge_ps(d[p], _mm_setzero_ps())) << (4 * p);
    out &= 0x777777u;
    const uint32_t all4 = (out + 0x111111u) & 0x888888u, any4 = (out + 0x777777u) & 0x888888u;
    const unsigned active = active_planes(s) & 0x3fu;
    const uint32_t active4 = nibble_tops(active);
    if (all4 & active4)
        return -1;
    if (any4 & active4) {
        unsigned any = 0;
        for (unsigned p = 0; p < 6; p++)
            any |= (unsigned)(any4 >> (4 * p + 3) & 1u) << p;
        return (int)(any & active);
    }
    const __m128 one = _mm_set1_ps(1.0f), inv = _mm_div_ps(one, q);
    __m128 wx = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(x, inv), _mm_set1_ps(vp->scale[0])),
                           _mm_set1_ps(vp->translate[0]));
    __m128 wy = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(y, inv), _mm_set1_ps(vp->scale[1])),
                           _mm_set1_ps(vp->translate[1]));
    __m128 wz = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(z, inv), _mm_set1_ps(vp->scale[2])),
                           _mm_set1_ps(vp->translate[2]));
    float back[4];
    _mm_storeu_ps(back, _mm_div_ps(one, inv));
    __m128 wi = inv;
    _MM_TRANSPOSE4_PS(wx, wy, wz, wi);
    _mm_storeu_ps(win[0], wx);
    _mm_storeu_ps(win[1], wy);
    _mm_storeu_ps(win[2], wz);
    memcpy(w, back, 3 * sizeof *w);
    return 0;
#else
    const int planes = clip_planes_needed(s, pos, 3, 4);
    for (int k = 0; k < 3 && !planes; k++) {
        clip_to_window(vp, pos + 4 * k, win[k]);
        w[k] = 1.0f / win[k][3];
    }
    return planes;
#endif
}

bool clip_triangle_window_xy(const clip_viewport *vp, const float pos[12], float x[3],
                             float y[3])
{
#if defined(__x86_64__)
    __m128 vx = _mm_loadu_ps(pos), vy = _mm_loadu_ps(pos + 4), vz = _mm_loadu_ps(pos + 8);
    __m128 q = vz;
    _MM_TRANSPOSE4_PS(vx, vy, vz, q);
    if ((_mm_movemask_ps(_mm_cmpgt_ps(q, _mm_setzero_ps())) & 7) != 7)
        return false;
    const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), q);
    float ox[4], oy[4];
    _mm_storeu_ps(ox, _mm_add_ps(_mm_mul_ps(_mm_mul_ps(vx, inv), _mm_set1_ps(vp->scale[0])),
                                 _mm_set1_ps(vp->translate[0])));
    _mm_storeu_ps(oy, _mm_add_ps(_mm_mul_ps(_mm_mul_ps(vy, inv), _mm_set1_ps(vp->scale[1])),
                                 _mm_set1_ps(vp->translate[1])));
    memcpy(x, ox, 3 * sizeof *x);
    memcpy(y, oy, 3 * sizeof *y);
    return true;
#else
    for (unsigned k = 0; k < 3; k++)
        if (!(pos[4 * k + 3] > 0.0f))
            return false;
    for (unsigned k = 0; k < 3; k++) {
        float win[4];
        clip_to_window(vp, pos + 4 * k, win);
        x[k] = win[0];
        y[k] = win[1];
    }
    return true;
#endif
}

/* OUT = A + t (B - A) over STRIDE floats. */
static void lerp(const float *a, const float *b, float t, unsigned stride, float *out)
{
    for (unsigned k = 0; k < stride; k++)
        out[k] = a[k] + t * (b[k] - a[k]);
}

/* The point where the edge leaves or enters: computed from the inside vertex, so an edge
 * gives the same point in both directions. */
static void intersect(const float *in_v, float din, const float *out_v, float dout,
                      unsigned stride, float *out)
{
    lerp(in_v, out_v, din / (din - dout), stride, out);
}

unsigned clip_polygon(const clip_state *s, unsigned mask, const float *in, unsigned n,
                      unsigned stride, float *out, float *scratch)
{
    const float *src = in;
    unsigned planes = 0;
    for (unsigned p = 0; p < 6 + CLIP_MAX_DISTANCES; p++)
        planes += (mask >> p) & 1u;
    /* the planes alternate between the buffers so that the last one writes OUT */
    float *dst = planes % 2 ? out : scratch;
    if (n > CLIP_MAX_VERTICES)
        return 0;
    if (!planes) {
        memcpy(out, in, (size_t)n * stride * sizeof *out);
        return n;
    }
    for (unsigned p = 0; p < 6 + CLIP_MAX_DISTANCES && n; p++) {
        if (!((mask >> p) & 1u))
            continue;
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++) {
            const float *a = src + i * stride, *b = src + ((i + 1) % n) * stride;
            float da = clip_distance(s, p, a), db = clip_distance(s, p, b);
            bool ina = da >= 0.0f, inb = db >= 0.0f;
            if (ina && m < CLIP_MAX_VERTICES)
                memcpy(dst + m++ * stride, a, stride * sizeof *a);
            if (ina != inb && m < CLIP_MAX_VERTICES) {
                if (ina)
                    intersect(a, da, b, db, stride, dst + m * stride);
                else
                    intersect(b, db, a, da, stride, dst + m * stride);
                m++;
            }
        }
        n = m < 3 ? 0 : m;
        src = dst;
        dst = dst == out ? scratch : out;
    }
    return n;
}

unsigned clip_line(const clip_state *s, unsigned mask, const float *in, unsigned stride,
                   float *out)
{
    const float *a = in, *b = in + stride;
    float t0 = 0.0f, t1 = 1.0f;
    for (unsigned p = 0; p < 6 + CLIP_MAX_DISTANCES; p++) {
        if (!((mask >> p) & 1u))
            continue;
        float da = clip_distance(s, p, a), db = clip_distance(s, p, b);
        if (!(da >= 0.0f) && !(db >= 0.0f))
            return 0;
        if (da < 0.0f) {
            float t = da / (da - db);
            t0 = t > t0 ? t : t0;
        } else if (db < 0.0f) {
            float t = da / (da - db);
            t1 = t < t1 ? t : t1;
        }
    }
    if (!(t0 <= t1))
        return 0;
    if (t0 > 0.0f)
        lerp(a, b, t0, stride, out);
    else
        memcpy(out, a, stride * sizeof *a);
    if (t1 < 1.0f)
        lerp(a, b, t1, stride, out + stride);
    else
        memcpy(out + stride, b, stride * sizeof *b);
    return 2;
}

bool clip_culled(const float *verts, unsigned n, unsigned stride, unsigned first,
                 unsigned count)
{
    for (unsigned c = 0; c < count; c++) {
        bool all_out = true;
        for (unsigned i = 0; i < n && all_out; i++)
            all_out = verts[i * stride + CLIP_DIST + first + c] < 0.0f;
        if (all_out)
            return true;
    }
    return false;
}

