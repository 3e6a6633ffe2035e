/* Differential test, comparison: bit-exact for unfiltered lookups, queries, fetch and
 * gather; the tolerance model of docs/fidelity.md for filtered results; documented
 * llvmpipe departures are recognised and counted separately. */
#include <math.h>
#include <string.h>

#include "diff.h"

#ifdef TEXVM_HAVE_GLREF

const char *const diff_reason_names[DR_COUNT] = {
    "llvmpipe approximate LOD (log2/rho)",
    "anisotropic footprint differs",
    "cube corner texel (no 3-texel average)",
    "texelFetch out of range",
};

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Value range per component: nominal for normalized formats, measured for float ones. */
static void batch_ranges(diff_batch *b)
{
    const diff_format *f = b->tex.fmt;
    float lo[4] = {0, 0, 0, 0}, hi[4] = {1, 1, 1, 1};
    if (f->kind == DK_SNORM)
        for (int c = 0; c < 4; c++)
            lo[c] = -1.0f;
    if (f->kind == DK_FLOAT) {
        for (int c = 0; c < 4; c++) {
            lo[c] = INFINITY;
            hi[c] = -INFINITY;
        }
        size_t bpp = (size_t)f->bpp;
        for (size_t off = 0; off + bpp <= b->tex.size; off += bpp) {
            uint32_t v[4];
            tv_format_unpack(f->tv, b->tex.data + off, 0, 0, v);
            for (int c = 0; c < 4; c++) {
                float x = as_float(v[c]);
                lo[c] = x < lo[c] ? x : lo[c];
                hi[c] = x > hi[c] ? x : hi[c];
            }
        }
    }
    for (int c = 0; c < 4; c++)
        b->range[c] = hi[c] > lo[c] ? hi[c] - lo[c] : 1.0f;
    if (b->shadow)
        for (int c = 0; c < 4; c++)
            b->range[c] = 1.0f;
    b->range_done = true;
}

static bool same_word(uint32_t a, uint32_t b, bool is_float)
{
    return a == b || (is_float && as_float(a) == as_float(b));
}

/* Components a lookup defines (queries: as GLSL returns them). */
static int defined_comps(const diff_batch *b)
{
    if (b->op == DOP_QSAMPLES)
        return 1;
    if (b->op == DOP_QLOD)
        return 2;
    return 4;
}

diff_class diff_compare(diff_batch *b, int i, diff_reason *reason)
{
    bool is_float = b->op == DOP_QLOD || b->shadow ||
                    (b->op != DOP_QDIM && b->op != DOP_QSAMPLES &&
                     b->tex.fmt->kind != DK_UINT && b->tex.fmt->kind != DK_SINT);
    int n = defined_comps(b);
    bool exact = true;
    for (int c = 0; c < n; c++)
        exact = exact && same_word(b->gl[i][c], b->tv[i][c], is_float);
    if (exact)
        return DC_EXACT;
    if (b->op == DOP_FETCH) {
        /* Out-of-range fetch: GL leaves it undefined, llvmpipe returns zeros; texvm follows
         * the D3D rule (sampling.md §8.2). */
        const diff_params *p = &b->p[i];
        bool oob = p->c[0] < 0 || p->c[1] < 0 || p->c[2] < 0 || p->a[2] < 0;
        int l = (int)p->a[2];
        if (!oob && b->tex.samples <= 1) {
            int lvl = b->tex.base + l;
            oob = lvl > b->tex.max || (int)p->c[0] >= diff_level_w(&b->tex, lvl);
        }
        if (oob) {
            *reason = DR_FETCH_OOB;
            return DC_DOCUMENTED;
        }
        return DC_FAIL;
    }
    if (!b->filtered || !is_float)
        return DC_FAIL;
    if (!b->range_done)
        batch_ranges(b);
    if (b->op == DOP_QLOD) {
        /* LOD values: 6 fraction bits (CTS lodBits 6) */
        float d0 = fabsf(as_float(b->gl[i][0]) - as_float(b->tv[i][0]));
        float d1 = fabsf(as_float(b->gl[i][1]) - as_float(b->tv[i][1]));
        if (d0 <= 1.0f / 64 && d1 <= 1.0f / 64)
            return DC_TOLERATED;
        if (d0 <= 0.1f && d1 <= 0.1f) {
            *reason = DR_LOD_APPROX;
            return DC_DOCUMENTED;
        }
        return DC_FAIL;
    }
    bool within = true;
    float worst = 0.0f;
    for (int c = 0; c < 4; c++) {
        float g = as_float(b->gl[i][c]), t = as_float(b->tv[i][c]);
        float tol = b->range[c] / 64.0f + 1e-6f;
        float d = fabsf(g - t);
        if (!(d <= tol))
            within = false;
        float rel = d / b->range[c];
        worst = rel > worst ? rel : worst;
    }
    if (within)
        return DC_TOLERATED;
    /* Implicit-LOD lookups: llvmpipe's approximate log2 moves the LOD by up to ~0.09; the
     * filtered value then moves by at most that fraction of the range. */
    if ((b->op == DOP_SAMPLE || b->op == DOP_BIAS || b->op == DOP_GRAD) &&
        b->smp.max_anisotropy <= 1.0f && worst <= 0.1f) {
        *reason = DR_LOD_APPROX;
        return DC_DOCUMENTED;
    }
    if (b->smp.max_anisotropy > 1.0f) {
        *reason = DR_ANISO;
        return DC_DOCUMENTED;
    }
    return DC_FAIL;
}

#endif /* TEXVM_HAVE_GLREF */
