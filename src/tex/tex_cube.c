/* Cube maps: face selection (ties Z > Y > X), the derivative transform (quotient rule) and
 * the seamless edge table of sampling.md §5.1, §5.2, §5.4. */
#include <math.h>

#include "tex/tex_sampling.h"

/* Per face: major axis, sign, and which signed direction components give sc and tc. */
typedef struct cube_face_rule {
    uint8_t major;            /* 0 x, 1 y, 2 z */
    int8_t sign;              /* sign of the major component */
    uint8_t sc_axis, tc_axis;
    int8_t sc_sign, tc_sign;
} cube_face_rule;

static const cube_face_rule face_rules[6] = {
    {0, +1, 2, 1, -1, -1}, /* +X: sc = -rz, tc = -ry */
    {0, -1, 2, 1, +1, -1}, /* -X: sc = +rz, tc = -ry */
    {1, +1, 0, 2, +1, +1}, /* +Y: sc = +rx, tc = +rz */
    {1, -1, 0, 2, +1, -1}, /* -Y: sc = +rx, tc = -rz */
    {2, +1, 0, 1, +1, -1}, /* +Z: sc = +rx, tc = -ry */
    {2, -1, 0, 1, -1, -1}, /* -Z: sc = -rx, tc = -ry */
};

void tex_cube_select(float x, float y, float z, tex_cube_coord *out)
{
    float a[3] = {fabsf(x), fabsf(y), fabsf(z)};
    float r[3] = {x, y, z};
    unsigned major;
    if (a[2] >= a[0] && a[2] >= a[1])
        major = 2;
    else if (a[1] >= a[0])
        major = 1;
    else
        major = 0;
    unsigned face = major * 2 + (r[major] < 0.0f ? 1u : 0u);
    const cube_face_rule *fr = &face_rules[face];
    out->face = face;
    out->ma = a[major];
    out->sc = fr->sc_sign * r[fr->sc_axis];
    out->tc = fr->tc_sign * r[fr->tc_axis];
    if (!(out->ma > 0.0f)) { /* zero (or NaN) vector: undefined; pick (0,0) like the CTS */
        out->s = 0.0f;
        out->t = 0.0f;
        return;
    }
    out->s = 0.5f * (out->sc / out->ma) + 0.5f;
    out->t = 0.5f * (out->tc / out->ma) + 0.5f;
}

void tex_cube_deriv(const tex_cube_coord *c, const float d[3], float *ds, float *dt)
{
    const cube_face_rule *fr = &face_rules[c->face];
    float dsc = fr->sc_sign * d[fr->sc_axis];
    float dtc = fr->tc_sign * d[fr->tc_axis];
    float dma = fr->sign * d[fr->major];
    float ma2 = c->ma * c->ma;
    if (!(ma2 > 0.0f)) {
        *ds = *dt = 0.0f;
        return;
    }
    *ds = 0.5f * (c->ma * dsc - c->sc * dma) / ma2;
    *dt = 0.5f * (c->ma * dtc - c->tc * dma) / ma2;
}

/* Edge table: new face and the two new coordinates as a function of k (the coordinate
 * along the crossed edge) and M = N - 1. */
enum { E_ZERO, E_MAX, E_K, E_MK };
typedef struct cube_edge_rule {
    uint8_t face, i, j;
} cube_edge_rule;

/* [face][edge]: edge 0 = (i = -1), 1 = (i = N), 2 = (j = -1), 3 = (j = N). */
static const cube_edge_rule edges[6][4] = {
    /* +X */ {{4, E_MAX, E_K}, {5, E_ZERO, E_K}, {2, E_MAX, E_MK}, {3, E_MAX, E_K}},
    /* -X */ {{5, E_MAX, E_K}, {4, E_ZERO, E_K}, {2, E_ZERO, E_K}, {3, E_ZERO, E_MK}},
    /* +Y */ {{1, E_K, E_ZERO}, {0, E_MK, E_ZERO}, {5, E_MK, E_ZERO}, {4, E_K, E_ZERO}},
    /* -Y */ {{1, E_MK, E_MAX}, {0, E_K, E_MAX}, {4, E_K, E_MAX}, {5, E_MK, E_MAX}},
    /* +Z */ {{1, E_MAX, E_K}, {0, E_ZERO, E_K}, {2, E_K, E_MAX}, {3, E_K, E_ZERO}},
    /* -Z */ {{0, E_MAX, E_K}, {1, E_ZERO, E_K}, {2, E_MK, E_ZERO}, {3, E_MK, E_MAX}},
};

static int edge_value(unsigned how, int k, int m)
{
    switch (how) {
    case E_ZERO: return 0;
    case E_MAX: return m;
    case E_K: return k;
    default: return m - k;
    }
}

void tex_cube_edge(unsigned face, int n, int i, int j, unsigned *nface, int *ni, int *nj)
{
    unsigned e;
    int k;
    if (i < 0) {
        e = 0;
        k = j;
    } else if (i >= n) {
        e = 1;
        k = j;
    } else if (j < 0) {
        e = 2;
        k = i;
    } else {
        e = 3;
        k = i;
    }
    const cube_edge_rule *r = &edges[face % 6][e];
    *nface = r->face;
    *ni = edge_value(r->i, k, n - 1);
    *nj = edge_value(r->j, k, n - 1);
}
