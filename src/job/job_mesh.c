/* Generated meshes of scene jobs (docs/jobs-scenes.md §2): grid, cube, sphere, torus as
 * indexed triangle lists, 8 floats a vertex (position, unit normal, uv), counter-clockwise
 * seen from outside. Each surface is a parametric patch p(i, j) whose triangles
 * (i,j) (i+1,j) (i,j+1) and (i+1,j) (i+1,j+1) (i,j+1) face outwards because the patch's
 * parameters are ordered so that dp/di x dp/dj is the outward normal (tests/cli/test_scene.c
 * checks every triangle against its vertices' normals). */
#include "job_scene.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct mesh_out {
    float *v;
    uint32_t nv, cap_v;
    uint32_t *ix;
    uint32_t ni, cap_i;
} mesh_out;

static void vertex(mesh_out *m, const double p[3], const double n[3], double u, double v)
{
    float *q = m->v + (size_t)m->nv++ * 8;
    for (int k = 0; k < 3; k++) {
        q[k] = (float)p[k];
        q[3 + k] = (float)n[k];
    }
    q[6] = (float)u;
    q[7] = (float)v;
}

static void tri(mesh_out *m, uint32_t a, uint32_t b, uint32_t c)
{
    m->ix[m->ni++] = a;
    m->ix[m->ni++] = b;
    m->ix[m->ni++] = c;
}

/* The point, normal and uv of a surface at parameter (i / ni, j / nj). */
typedef void (*surface_fn)(const double *size, uint32_t i, uint32_t j, uint32_t ni,
                           uint32_t nj, double p[3], double n[3], double uv[2]);

static void grid_at(const double *size, uint32_t i, uint32_t j, uint32_t ni, uint32_t nj,
                    double p[3], double n[3], double uv[2])
{
    /* i runs along z, j along x: dp/di x dp/dj = z x x = +y */
    double s = (double)i / ni, t = (double)j / nj;
    p[0] = (t - 0.5) * size[0];
    p[1] = 0;
    p[2] = (s - 0.5) * size[1];
    n[0] = n[2] = 0;
    n[1] = 1;
    uv[0] = t;
    uv[1] = s;
}

static void sphere_at(const double *size, uint32_t i, uint32_t j, uint32_t ni, uint32_t nj,
                      double p[3], double n[3], double uv[2])
{
    /* i: down from the north pole (theta), j: round the y axis (phi) */
    double th = M_PI * i / ni, ph = 2 * M_PI * j / nj;
    n[0] = sin(th) * sin(ph);
    n[1] = cos(th);
    n[2] = sin(th) * cos(ph);
    for (int k = 0; k < 3; k++)
        p[k] = size[0] * n[k];
    uv[0] = (double)j / nj;
    uv[1] = (double)i / ni;
}

static void torus_at(const double *size, uint32_t i, uint32_t j, uint32_t ni, uint32_t nj,
                     double p[3], double n[3], double uv[2])
{
    /* i: round the y axis (phi), j: round the tube (psi) */
    double ph = 2 * M_PI * i / ni, ps = 2 * M_PI * j / nj;
    double radial[3] = {cos(ph), 0, -sin(ph)};
    for (int k = 0; k < 3; k++)
        n[k] = cos(ps) * radial[k] + (k == 1 ? sin(ps) : 0);
    for (int k = 0; k < 3; k++)
        p[k] = size[0] * radial[k] + size[1] * n[k];
    uv[0] = (double)i / ni;
    uv[1] = (double)j / nj;
}

/* A patch of (ni + 1) x (nj + 1) vertices; with `poles`, the degenerate triangles at i = 0
 * and i = ni (where a row collapses to a point) are left out. */
static void patch(mesh_out *m, surface_fn fn, const double *size, uint32_t ni, uint32_t nj,
                  bool poles)
{
    uint32_t base = m->nv;
    for (uint32_t i = 0; i <= ni; i++)
        for (uint32_t j = 0; j <= nj; j++) {
            double p[3], n[3], uv[2];
            fn(size, i, j, ni, nj, p, n, uv);
            vertex(m, p, n, uv[0], uv[1]);
        }
    for (uint32_t i = 0; i < ni; i++)
        for (uint32_t j = 0; j < nj; j++) {
            uint32_t a = base + i * (nj + 1) + j, b = a + nj + 1; /* b: (i + 1, j) */
            if (!(poles && i == 0))
                tri(m, a, b, a + 1);
            if (!(poles && i == ni - 1))
                tri(m, b, b + 1, a + 1);
        }
}

/* Six faces: normal n, in-face axes u, v with u x v = n. */
static void cube(mesh_out *m, const double *size)
{
    static const double faces[6][3][3] = {
        {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},  {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},   {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}}};
    static const double corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int f = 0; f < 6; f++) {
        uint32_t base = m->nv;
        for (int c = 0; c < 4; c++) {
            double p[3];
            for (int k = 0; k < 3; k++)
                p[k] = (faces[f][0][k] + corner[c][0] * faces[f][1][k] +
                        corner[c][1] * faces[f][2][k]) * size[k] * 0.5;
            vertex(m, p, faces[f][0], (corner[c][0] + 1) * 0.5, (1 - corner[c][1]) * 0.5);
        }
        tri(m, base, base + 1, base + 2);
        tri(m, base, base + 2, base + 3);
    }
}

bool job_mesh_generate(int kind, const double size[3], const uint32_t div[2], float **vertices,
                       uint32_t *num_vertices, uint32_t **indices, uint32_t *num_indices)
{
    *vertices = NULL;
    *indices = NULL;
    *num_vertices = *num_indices = 0;
    uint32_t ni = 1, nj = 1;
    switch (kind) {
    case JOB_MESH_GRID:
        ni = div[1], nj = div[0];
        if (ni < 1 || nj < 1)
            return false;
        break;
    case JOB_MESH_SPHERE:
        ni = div[1], nj = div[0];
        if (nj < 3 || ni < 2)
            return false;
        break;
    case JOB_MESH_TORUS:
        ni = div[0], nj = div[1];
        if (ni < 3 || nj < 3)
            return false;
        break;
    case JOB_MESH_CUBE:
        break;
    default:
        return false;
    }
    if (ni > 4096 || nj > 4096)
        return false;
    mesh_out m = {0};
    size_t nv = kind == JOB_MESH_CUBE ? 24 : (size_t)(ni + 1) * (nj + 1);
    size_t nx = kind == JOB_MESH_CUBE ? 36 : (size_t)ni * nj * 6;
    m.v = malloc(nv * 8 * sizeof *m.v);
    m.ix = malloc(nx * sizeof *m.ix);
    if (!m.v || !m.ix) {
        free(m.v);
        free(m.ix);
        return false;
    }
    switch (kind) {
    case JOB_MESH_GRID:
        patch(&m, grid_at, size, ni, nj, false);
        break;
    case JOB_MESH_SPHERE:
        patch(&m, sphere_at, size, ni, nj, true);
        break;
    case JOB_MESH_TORUS:
        patch(&m, torus_at, size, ni, nj, false);
        break;
    default:
        cube(&m, size);
        break;
    }
    *vertices = m.v;
    *indices = m.ix;
    *num_vertices = m.nv;
    *num_indices = m.ni;
    return true;
}
