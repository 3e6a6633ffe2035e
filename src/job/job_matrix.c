/* 4x4 matrices of scene jobs' constants (docs/jobs-scenes.md §5): GL's classic
 * constructors (gluPerspective, glOrtho, gluLookAt, glTranslate/Rotate/Scale) in float64,
 * row-major, so a shader's `DP4 OUT[0].x, CONST[0], pos` takes row 0. */
#include "job_scene.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include <math.h>
#include <string.h>

void job_mat_identity(double m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1;
}

void job_mat_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) {
            double s = 0;
            for (int x = 0; x < 4; x++)
                s += a[i * 4 + x] * b[x * 4 + k];
            r[i * 4 + k] = s;
        }
    memcpy(out, r, sizeof r);
}

void job_mat_perspective(double fovy_deg, double aspect, double n, double f, double out[16])
{
    double t = 1.0 / tan(fovy_deg * M_PI / 360.0);
    memset(out, 0, 16 * sizeof *out);
    out[0] = t / aspect;
    out[5] = t;
    out[10] = (f + n) / (n - f);
    out[11] = 2 * f * n / (n - f);
    out[14] = -1;
}

void job_mat_ortho(const double v[6], double out[16])
{
    double l = v[0], r = v[1], b = v[2], t = v[3], n = v[4], f = v[5];
    memset(out, 0, 16 * sizeof *out);
    out[0] = 2 / (r - l);
    out[3] = -(r + l) / (r - l);
    out[5] = 2 / (t - b);
    out[7] = -(t + b) / (t - b);
    out[10] = -2 / (f - n);
    out[11] = -(f + n) / (f - n);
    out[15] = 1;
}

static bool normalize3(const double in[3], double out[3])
{
    double l = sqrt(in[0] * in[0] + in[1] * in[1] + in[2] * in[2]);
    if (!(l > 0) || !isfinite(l))
        return false;
    for (int i = 0; i < 3; i++)
        out[i] = in[i] / l;
    return true;
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0]};
    memcpy(out, r, sizeof r);
}

bool job_mat_look_at(const double eye[3], const double at[3], const double up[3], double out[16])
{
    double f[3] = {at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]}, s[3], u[3];
    if (!normalize3(f, f))
        return false;
    cross3(f, up, s);
    if (!normalize3(s, s))
        return false;
    cross3(s, f, u);
    double m[16] = {s[0],  s[1],  s[2],  -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]),
                    u[0],  u[1],  u[2],  -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]),
                    -f[0], -f[1], -f[2], f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2],
                    0,     0,     0,     1};
    memcpy(out, m, sizeof m);
    return true;
}

void job_mat_translate(const double v[3], double out[16])
{
    job_mat_identity(out);
    out[3] = v[0];
    out[7] = v[1];
    out[11] = v[2];
}

bool job_mat_rotate(double deg, const double axis[3], double out[16])
{
    double a[3];
    if (!normalize3(axis, a))
        return false;
    double c = cos(deg * M_PI / 180.0), s = sin(deg * M_PI / 180.0), k = 1 - c;
    double x = a[0], y = a[1], z = a[2];
    double m[16] = {x * x * k + c,     x * y * k - z * s, x * z * k + y * s, 0,
                    y * x * k + z * s, y * y * k + c,     y * z * k - x * s, 0,
                    z * x * k - y * s, z * y * k + x * s, z * z * k + c,     0,
                    0,                 0,                 0,                 1};
    memcpy(out, m, sizeof m);
    return true;
}

void job_mat_scale(const double v[3], double out[16])
{
    job_mat_identity(out);
    out[0] = v[0];
    out[5] = v[1];
    out[10] = v[2];
}

/* Gauss-Jordan elimination with partial pivoting. */
bool job_mat_inverse(const double m[16], double out[16])
{
    double a[4][8];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 8; k++)
            a[i][k] = k < 4 ? m[i * 4 + k] : (k - 4 == i);
    for (int col = 0; col < 4; col++) {
        int p = col;
        for (int r = col + 1; r < 4; r++)
            if (fabs(a[r][col]) > fabs(a[p][col]))
                p = r;
        if (!(fabs(a[p][col]) > 1e-300))
            return false;
        if (p != col)
            for (int k = 0; k < 8; k++) {
                double t = a[p][k];
                a[p][k] = a[col][k];
                a[col][k] = t;
            }
        double d = a[col][col];
        for (int k = 0; k < 8; k++)
            a[col][k] /= d;
        for (int r = 0; r < 4; r++)
            if (r != col) {
                double f = a[r][col];
                for (int k = 0; k < 8; k++)
                    a[r][k] -= f * a[col][k];
            }
    }
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            out[i * 4 + k] = a[i][k + 4];
    return true;
}
