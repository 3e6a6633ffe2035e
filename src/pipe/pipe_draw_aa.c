/* Antialiased (smooth) points, lines and polygons (GL 4.6 §14.4.3, §14.5.3, §14.6.3),
 * drawn when multisample rasterisation is not in effect: a fragment for every pixel whose
 * square meets the primitive's exact shape — a circle of the point's diameter, a rectangle
 * of the line's width and length centred on it, or the triangle — with its alpha
 * multiplied by the area of the intersection (the coverage GL defines), computed in
 * float64: convex polygons clipped to the pixel square (Sutherland–Hodgman, shoelace area),
 * circles integrated in closed form. */
#include "pipe_draw.h"

#include <math.h>
#include <string.h>

/* Area of the convex polygon (X, Y; N <= 8 vertices) inside pixel square (x0, y0)+1. */
static double polygon_in_square(const double *X, const double *Y, unsigned n, double x0,
                                double y0)
{
    double ax[16], ay[16], bx[16], by[16];
    unsigned m = n;
    memcpy(ax, X, n * sizeof *X);
    memcpy(ay, Y, n * sizeof *Y);
    /* the square's four half-planes: x >= x0, x <= x0 + 1, y >= y0, y <= y0 + 1 */
    for (unsigned side = 0; side < 4 && m; side++) {
        unsigned k = 0;
        for (unsigned i = 0; i < m; i++) {
            unsigned j = (i + 1) % m;
            double vi = side == 0 ? ax[i] - x0 : side == 1 ? x0 + 1 - ax[i]
                      : side == 2 ? ay[i] - y0 : y0 + 1 - ay[i];
            double vj = side == 0 ? ax[j] - x0 : side == 1 ? x0 + 1 - ax[j]
                      : side == 2 ? ay[j] - y0 : y0 + 1 - ay[j];
            if (vi >= 0) {
                bx[k] = ax[i], by[k] = ay[i], k++;
            }
            if ((vi >= 0) != (vj >= 0)) {
                double t = vi / (vi - vj);
                bx[k] = ax[i] + t * (ax[j] - ax[i]);
                by[k] = ay[i] + t * (ay[j] - ay[i]);
                k++;
            }
        }
        m = k;
        memcpy(ax, bx, m * sizeof *ax);
        memcpy(ay, by, m * sizeof *ay);
    }
    double a = 0;
    for (unsigned i = 0; i < m; i++) {
        unsigned j = (i + 1) % m;
        a += ax[i] * ay[j] - ax[j] * ay[i];
    }
    return fabs(a) / 2;
}

/* ∫ sqrt(r² - x²) dx */
static double half_chord_integral(double x, double r)
{
    double q = x / r;
    q = q < -1 ? -1 : q > 1 ? 1 : q;
    double s = r * r - x * x;
    return 0.5 * (x * sqrt(s > 0 ? s : 0) + r * r * asin(q));
}

/* Area of the circle of radius R at the origin inside [x0, x1] x [y0, y1]: the integral
 * over x of min(y1, s(x)) - max(y0, -s(x)) where positive, s(x) = sqrt(r² - x²), split
 * where either bound changes form so every piece has a closed form. */
static double circle_in_rect(double r, double x0, double x1, double y0, double y1)
{
    double lo = x0 > -r ? x0 : -r, hi = x1 < r ? x1 : r;
    if (lo >= hi)
        return 0;
    double cut[8];
    unsigned n = 0;
    cut[n++] = lo;
    const double ys[2] = {y0, y1};
    for (int k = 0; k < 2; k++)
        if (fabs(ys[k]) < r) {
            double c = sqrt(r * r - ys[k] * ys[k]);
            if (-c > lo && -c < hi) cut[n++] = -c;
            if (c > lo && c < hi) cut[n++] = c;
        }
    cut[n++] = hi;
    for (unsigned i = 1; i < n; i++)          /* insertion sort: at most 6 values */
        for (unsigned j = i; j > 0 && cut[j] < cut[j - 1]; j--) {
            double t = cut[j]; cut[j] = cut[j - 1]; cut[j - 1] = t;
        }
    double area = 0;
    for (unsigned i = 0; i + 1 < n; i++) {
        double a = cut[i], b = cut[i + 1];
        if (b <= a)
            continue;
        double m = (a + b) / 2, sm = sqrt(r * r - m * m);
        bool top_circle = sm < y1, bottom_circle = -sm > y0;
        double top = top_circle ? sm : y1, bottom = bottom_circle ? -sm : y0;
        if (top <= bottom)
            continue;
        double S = half_chord_integral(b, r) - half_chord_integral(a, r);
        area += (top_circle ? S : y1 * (b - a)) - (bottom_circle ? -S : y0 * (b - a));
    }
    return area;
}

double draw_aa_coverage(const draw_state *d, int32_t x, int32_t y)
{
    const draw_aa *s = &d->aa;
    if (s->kind == DRAW_AA_CIRCLE)
        return circle_in_rect(s->r, x - s->cx, x + 1 - s->cx, y - s->cy, y + 1 - s->cy);
    return polygon_in_square(s->x, s->y, s->n, x, y);
}

bool draw_aa_active(const draw_state *d, bool smooth)
{
    /* with multisample rasterisation the samples give the coverage (GL 4.6 §14.3.1) */
    return smooth && !(d->samples > 1 && d->ctx->sub.rast.multisample);
}

int draw_shade_aa(draw_state *d, const tv_vm_frag_vertex *fv[3], const float *win[3],
                  uint32_t id)
{
    const draw_aa *s = &d->aa;
    double x0, x1, y0, y1;
    if (s->kind == DRAW_AA_CIRCLE) {
        x0 = s->cx - s->r, x1 = s->cx + s->r, y0 = s->cy - s->r, y1 = s->cy + s->r;
    } else {
        x0 = x1 = s->x[0], y0 = y1 = s->y[0];
        for (unsigned i = 1; i < s->n; i++) {
            x0 = s->x[i] < x0 ? s->x[i] : x0, x1 = s->x[i] > x1 ? s->x[i] : x1;
            y0 = s->y[i] < y0 ? s->y[i] : y0, y1 = s->y[i] > y1 ? s->y[i] : y1;
        }
    }
    if (!(x0 >= -RASTER_MAX_COORD && x1 <= RASTER_MAX_COORD && y0 >= -RASTER_MAX_COORD &&
          y1 <= RASTER_MAX_COORD))
        return 0;                 /* not finite, or past the guard band */
    /* every pixel whose square the shape may meet, within the scissor/framebuffer */
    const int32_t *c = d->rules.clip;
    int32_t px0 = (int32_t)floor(x0), px1 = (int32_t)floor(x1) + 1;
    int32_t py0 = (int32_t)floor(y0), py1 = (int32_t)floor(y1) + 1;
    d->rt.x0 = px0 > c[0] ? px0 : c[0];
    d->rt.y0 = py0 > c[1] ? py0 : c[1];
    d->rt.x1 = px1 < c[2] ? px1 : c[2];
    d->rt.y1 = py1 < c[3] ? py1 : c[3];
    if (d->rt.x0 >= d->rt.x1 || d->rt.y0 >= d->rt.y1)
        return 0;
    return draw_run_fragments(d, fv, win, id);
}
