/* Scene jobs (docs/jobs-scenes.md): the generated meshes and the matrix constructors
 * checked from their definitions, scenes whose pixels are known in closed form (an
 * orthographic cube's coverage and depth, a 4x resolve of a half-covered pixel, stencil and
 * additive blending), the plain interpreter equal to the optimised engine on the demo
 * scene, and the loader's messages for malformed scenes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helper_cli.h"
#include "job_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static uint8_t *slurp(const char *name, size_t want)
{
    FILE *f = fopen(tcli_path(name), "rb");
    assert_non_null(f);
    uint8_t *buf = malloc(want + 1);
    assert_non_null(buf);
    size_t n = fread(buf, 1, want + 1, f);
    fclose(f);
    assert_int_equal(n, want);
    return buf;
}

/* ---- meshes ------------------------------------------------------------------------------ */

static void sub3(const float *a, const float *b, double o[3])
{
    for (int k = 0; k < 3; k++)
        o[k] = (double)a[k] - b[k];
}

/* Position key of a vertex for edge matching (rounded to 1e-4). */
static long long pkey(const float *v)
{
    long long k = 0;
    for (int c = 0; c < 3; c++)
        k = k * 2000003 + (long long)llround(v[c] * 1e4);
    return k;
}

typedef struct edge {
    long long a, b;
} edge;

static int edge_cmp(const void *x, const void *y)
{
    const edge *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a ? 1 : p->b < q->b ? -1 : p->b > q->b;
}

/* Every triangle faces the way its vertices' normals point; normals are unit vectors and
 * uvs in [0, 1]; for closed surfaces every edge (by position) is used once in each
 * direction (watertight, consistently wound). */
static void check_mesh(int kind, const double size[3], const uint32_t div[2], uint32_t want_v,
                       uint32_t want_i, bool closed)
{
    float *v;
    uint32_t *ix, nv, ni;
    assert_true(job_mesh_generate(kind, size, div, &v, &nv, &ix, &ni));
    assert_int_equal(nv, want_v);
    assert_int_equal(ni, want_i);
    for (uint32_t i = 0; i < nv; i++) {
        const float *p = v + i * 8;
        double l = sqrt(p[3] * p[3] + p[4] * p[4] + p[5] * p[5]);
        assert_true(fabs(l - 1) < 1e-5);
        assert_true(p[6] >= 0 && p[6] <= 1 && p[7] >= 0 && p[7] <= 1);
        if (kind == JOB_MESH_SPHERE)
            assert_true(fabs(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) - size[0]) < 1e-5);
        if (kind == JOB_MESH_TORUS) {
            double ring = sqrt(p[0] * p[0] + p[2] * p[2]) - size[0];
            assert_true(fabs(sqrt(ring * ring + p[1] * p[1]) - size[1]) < 1e-5);
        }
    }
    edge *edges = malloc(ni * sizeof *edges);
    assert_non_null(edges);
    for (uint32_t t = 0; t < ni; t += 3) {
        const float *a = v + ix[t] * 8, *b = v + ix[t + 1] * 8, *c = v + ix[t + 2] * 8;
        assert_true(ix[t] < nv && ix[t + 1] < nv && ix[t + 2] < nv);
        double e1[3], e2[3];
        sub3(b, a, e1);
        sub3(c, a, e2);
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                       e1[0] * e2[1] - e1[1] * e2[0]};
        double dot = 0, len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        assert_true(len > 0); /* no degenerate triangle */
        for (int k = 0; k < 3; k++)
            dot += n[k] / len * (a[3 + k] + b[3 + k] + c[3 + k]) / 3;
        if (!(dot > 0.5))
            fail_msg("mesh kind %d: triangle %u faces inwards (%g)", kind, t / 3, dot);
        const float *tv[3] = {a, b, c};
        for (int k = 0; k < 3; k++)
            edges[t + (uint32_t)k] = (edge){pkey(tv[k]), pkey(tv[(k + 1) % 3])};
    }
    if (closed) {
        /* each directed edge once, and its reverse present */
        qsort(edges, ni, sizeof *edges, edge_cmp);
        for (uint32_t e = 0; e < ni; e++) {
            if (e + 1 < ni)
                assert_false(edges[e].a == edges[e + 1].a && edges[e].b == edges[e + 1].b);
            edge r = {edges[e].b, edges[e].a};
            assert_non_null(bsearch(&r, edges, ni, sizeof *edges, edge_cmp));
        }
    }
    free(edges);
    free(v);
    free(ix);
}

static void meshes_face_outwards(void **state)
{
    (void)state;
    const double grid[3] = {4, 2, 0}, cube[3] = {1, 2, 3}, sphere[3] = {0.75, 0, 0},
                 torus[3] = {1.0, 0.3, 0};
    const uint32_t g[2] = {5, 3}, one[2] = {1, 1}, s[2] = {12, 7}, t[2] = {10, 6};
    check_mesh(JOB_MESH_GRID, grid, g, 6 * 4, 5 * 3 * 6, false);
    check_mesh(JOB_MESH_CUBE, cube, one, 24, 36, true);
    /* the poles' rows of degenerate triangles are left out: 2 * slices fewer */
    check_mesh(JOB_MESH_SPHERE, sphere, s, 13 * 8, 12 * 7 * 6 - 2 * 12 * 3, true);
    check_mesh(JOB_MESH_TORUS, torus, t, 11 * 7, 10 * 6 * 6, true);
    /* out of range: no mesh */
    float *v;
    uint32_t *ix, nv, ni;
    const uint32_t bad[2] = {2, 7}, huge[2] = {4097, 4};
    assert_false(job_mesh_generate(JOB_MESH_SPHERE, sphere, bad, &v, &nv, &ix, &ni));
    assert_false(job_mesh_generate(JOB_MESH_GRID, grid, huge, &v, &nv, &ix, &ni));
}

/* ---- matrices ------------------------------------------------------------------------------ */

static void apply(const double m[16], const double p[4], double o[4])
{
    for (int r = 0; r < 4; r++)
        o[r] = m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3] * p[3];
}

static void matrices(void **state)
{
    (void)state;
    double m[16], o[4];
    /* gluPerspective: near plane to NDC z -1, far plane to +1, the fov's edge to y = 1 */
    job_mat_perspective(90, 2, 1, 3, m);
    const double near_pt[4] = {0, 0, -1, 1}, far_pt[4] = {0, 0, -3, 1}, edge[4] = {2, 1, -1, 1};
    apply(m, near_pt, o);
    assert_true(fabs(o[2] / o[3] + 1) < 1e-12);
    apply(m, far_pt, o);
    assert_true(fabs(o[2] / o[3] - 1) < 1e-12);
    apply(m, edge, o);
    assert_true(fabs(o[0] / o[3] - 1) < 1e-12 && fabs(o[1] / o[3] - 1) < 1e-12);
    /* glOrtho: the box's corners to the NDC cube's */
    const double box[6] = {-2, 6, -1, 3, 1, 5};
    job_mat_ortho(box, m);
    const double lo[4] = {-2, -1, -1, 1}, hi[4] = {6, 3, -5, 1};
    apply(m, lo, o);
    assert_true(fabs(o[0] + 1) < 1e-12 && fabs(o[1] + 1) < 1e-12 && fabs(o[2] + 1) < 1e-12);
    apply(m, hi, o);
    assert_true(fabs(o[0] - 1) < 1e-12 && fabs(o[1] - 1) < 1e-12 && fabs(o[2] - 1) < 1e-12);
    /* gluLookAt: the eye to the origin, the target onto -z */
    const double eye[3] = {1, 2, 3}, at[3] = {1, 2, -1}, up[3] = {0, 1, 0};
    assert_true(job_mat_look_at(eye, at, up, m));
    const double e4[4] = {1, 2, 3, 1}, a4[4] = {1, 2, -1, 1};
    apply(m, e4, o);
    assert_true(fabs(o[0]) < 1e-12 && fabs(o[1]) < 1e-12 && fabs(o[2]) < 1e-12);
    apply(m, a4, o);
    assert_true(fabs(o[0]) < 1e-12 && fabs(o[1]) < 1e-12 && fabs(o[2] + 4) < 1e-12);
    assert_false(job_mat_look_at(eye, eye, up, m));
    /* rotation: 90 degrees about z takes x to y (right-handed) */
    const double z[3] = {0, 0, 1}, x4[4] = {1, 0, 0, 1};
    assert_true(job_mat_rotate(90, z, m));
    apply(m, x4, o);
    assert_true(fabs(o[0]) < 1e-12 && fabs(o[1] - 1) < 1e-12);
    /* inverse: M * M^-1 = I for a composed matrix; a singular one has none */
    double t[16], r[16], s[16], mm[16], inv[16], id[16];
    const double tv[3] = {1, -2, 3}, sv[3] = {2, 0.5, 4}, axis[3] = {1, 1, 0};
    job_mat_translate(tv, t);
    assert_true(job_mat_rotate(33, axis, r));
    job_mat_scale(sv, s);
    job_mat_mul(t, r, mm);
    job_mat_mul(mm, s, mm);
    assert_true(job_mat_inverse(mm, inv));
    job_mat_mul(mm, inv, id);
    for (int k = 0; k < 16; k++)
        assert_true(fabs(id[k] - (k % 5 == 0)) < 1e-12);
    const double flat[3] = {1, 0, 1};
    job_mat_scale(flat, s);
    assert_false(job_mat_inverse(s, inv));
}

/* ---- scenes with known pixels ----------------------------------------------------------- */

#define NORMAL_VS "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n" \
                  "DCL CONST[0..3]\nDP4 OUT[0].x, CONST[0], IN[0]\n" \
                  "DP4 OUT[0].y, CONST[1], IN[0]\nDP4 OUT[0].z, CONST[2], IN[0]\n" \
                  "DP4 OUT[0].w, CONST[3], IN[0]\nMOV OUT[1], IN[1]\nEND\n"
#define NORMAL_FS "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n" \
                  "IMM[0] FLT32 {0.5, 1.0, 0.0, 0.0}\n" \
                  "MAD OUT[0].xyz, IN[0].xyzz, IMM[0].xxxx, IMM[0].xxxx\n" \
                  "MOV OUT[0].w, IMM[0].yyyy\nEND\n"

/* A cube of size 2 seen along -z through glOrtho(-2, 2, -2, 2, 1, 9) from (0, 0, 5): the
 * face towards the camera covers exactly pixels 16..47 of a 64x64 target (its edges fall
 * between pixel centres), the side faces are edge-on (no area). Its depth is exact:
 * z_eye -4 -> NDC -0.25 -> 0.375 (culling back faces), or the far face's z_eye -6 -> 0.625
 * (culling front faces). Colour = normal / 2 + 1/2. */
static void ortho_cube(const char *cull, float want_depth, const uint8_t want_rgb[3])
{
    tcli_write("n.vert", NORMAL_VS, strlen(NORMAL_VS));
    tcli_write("n.frag", NORMAL_FS, strlen(NORMAL_FS));
    char json[2048];
    snprintf(json, sizeof json,
             "{'texvm_job': 1, 'run': 'SCENE',"
             " 'programs': [{'name': 'vs', 'tgsi': 'n.vert'}, {'name': 'fs', 'tgsi': 'n.frag'}],"
             " 'textures': [{'name': 'c', 'format': 'R8G8B8A8_UNORM', 'width': 64, 'height': 64},"
             "  {'name': 'z', 'format': 'Z32_FLOAT', 'width': 64, 'height': 64}],"
             " 'scene': {'meshes': [{'name': 'cube', 'generate': 'cube', 'size': 2}],"
             "  'passes': [{'colors': ['c'], 'depth': 'z', 'clear': {'color': [0, 0, 0, 0], 'depth': 1},"
             "   'state': {'depth': 'less', 'cull': '%s'},"
             "   'draws': [{'mesh': 'cube', 'programs': ['vs', 'fs'], 'constants': [{'stage': 'VERT',"
             "    'values': [{'matrix': [{'ortho': [-2, 2, -2, 2, 1, 9]},"
             "     {'look_at': {'eye': [0, 0, 5], 'at': [0, 0, 0]}}]}]}]}]}]},"
             " 'outputs': [{'texture': 'c', 'raw': 'c.raw'}, {'texture': 'z', 'raw': 'z.raw'}]}",
             cull);
    tcli_json("cube.json", json);
    assert_int_equal(tcli_run("cube.json"), 0);
    uint8_t *c = slurp("c.raw", 64 * 64 * 4);
    float *z = (float *)slurp("z.raw", 64 * 64 * 4);
    int lit = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            bool in = x >= 16 && x < 48 && y >= 16 && y < 48;
            const uint8_t *p = c + (y * 64 + x) * 4;
            float d = z[y * 64 + x];
            if (in) {
                lit++;
                if (d != want_depth || abs(p[0] - want_rgb[0]) > 1 ||
                    abs(p[1] - want_rgb[1]) > 1 || abs(p[2] - want_rgb[2]) > 1 || p[3] != 255)
                    fail_msg("pixel (%d, %d): depth %.9g rgba %u %u %u %u", x, y, (double)d,
                             p[0], p[1], p[2], p[3]);
            } else if (d != 1.0f || p[0] || p[1] || p[2] || p[3]) {
                fail_msg("pixel (%d, %d) outside the face is drawn", x, y);
            }
        }
    assert_int_equal(lit, 32 * 32);
    free(c);
    free(z);
}

static void orthographic_cube_exact(void **state)
{
    (void)state;
    const uint8_t front[3] = {128, 128, 255}, back[3] = {128, 128, 0};
    ortho_cube("back", 0.375f, front);
    ortho_cube("front", 0.625f, back);
}

#define FLAT_VS "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n"
#define CONST_FS "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0]\nMOV OUT[0], CONST[0]\nEND\n"

/* A quad from x = -1 to 0.25 in NDC over a 4x4 target: its right edge is at window x = 2.5,
 * left of exactly two of the four standard 4x sample positions of column 2 (x offsets
 * 0.375, 0.875, 0.125, 0.625). Resolved: columns 0-1 white, column 2 half, column 3 black. */
static void msaa_resolve(void **state)
{
    (void)state;
    tcli_write("f.vert", FLAT_VS, strlen(FLAT_VS));
    tcli_write("c.frag", CONST_FS, strlen(CONST_FS));
    tcli_json("ms.json",
              "{'texvm_job': 1, 'run': 'SCENE',"
              " 'programs': [{'name': 'vs', 'tgsi': 'f.vert'}, {'name': 'fs', 'tgsi': 'c.frag'}],"
              " 'textures': [{'name': 'ms', 'format': 'R32G32B32A32_FLOAT', 'width': 4, 'height': 4,"
              "   'samples': 4}, {'name': 'one', 'format': 'R32G32B32A32_FLOAT', 'width': 4, 'height': 4}],"
              " 'buffers': [{'name': 'quad', 'type': 'float', 'values': [-1, -1, 0, 1, 0.25, -1, 0, 1,"
              "   -1, 1, 0, 1, 0.25, 1, 0, 1]}],"
              " 'scene': {'meshes': [{'name': 'q', 'primitive': 'triangle_strip', 'vertices': 4,"
              "   'attributes': [{'buffer': 'quad', 'format': 'R32G32B32A32_FLOAT', 'stride': 16}]}],"
              "  'passes': [{'colors': ['ms'], 'clear': {'color': [0, 0, 0, 0]},"
              "    'draws': [{'mesh': 'q', 'programs': ['vs', 'fs'],"
              "     'constants': [{'stage': 'FRAG', 'values': [[1, 1, 1, 1]]}]}]},"
              "   {'blit': {'from': 'ms', 'to': 'one'}}]},"
              " 'outputs': [{'texture': 'one', 'raw': 'one.raw'}]}");
    assert_int_equal(tcli_run("ms.json"), 0);
    float *f = (float *)slurp("one.raw", 4 * 4 * 16);
    static const float want[4] = {1, 1, 0.5f, 0};
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 4; c++)
                if (f[(y * 4 + x) * 4 + c] != want[x])
                    fail_msg("pixel (%d, %d) channel %d: %g, want %g", x, y, c,
                             (double)f[(y * 4 + x) * 4 + c], (double)want[x]);
    free(f);
}

/* options.denormals reaches scene draws: a fragment shader adding 0 to the smallest
 * denormal (bits 1) writes it under "ieee" and 0 under "flush" (denormals read as zero). */
static void scene_shader_rules(void **state)
{
    (void)state;
    const char *fs = "FRAG\nDCL OUT[0], COLOR\nIMM[0] UINT32 {1, 0, 0, 0}\n"
                     "ADD OUT[0], IMM[0].xxxx, IMM[0].yyyy\nEND\n";
    tcli_write("f.vert", FLAT_VS, strlen(FLAT_VS));
    tcli_write("den.frag", fs, strlen(fs));
    for (int flush = 0; flush < 2; flush++) {
        char json[2048];
        snprintf(json, sizeof json,
                 "{'texvm_job': 1, 'run': 'SCENE',"
                 " 'programs': [{'name': 'vs', 'tgsi': 'f.vert'}, {'name': 'fs', 'tgsi': 'den.frag'}],"
                 " 'textures': [{'name': 't', 'format': 'R32G32B32A32_FLOAT', 'width': 4, 'height': 4}],"
                 " 'buffers': [{'name': 'quad', 'type': 'float', 'values': [-1, -1, 0, 1, 1, -1, 0, 1,"
                 "   -1, 1, 0, 1, 1, 1, 0, 1]}],"
                 " 'scene': {'meshes': [{'name': 'q', 'primitive': 'triangle_strip', 'vertices': 4,"
                 "   'attributes': [{'buffer': 'quad', 'format': 'R32G32B32A32_FLOAT', 'stride': 16}]}],"
                 "  'passes': [{'colors': ['t'], 'clear': {'color': [0.5, 0.5, 0.5, 0.5]},"
                 "    'draws': [{'mesh': 'q', 'programs': ['vs', 'fs']}]}]},"
                 " 'options': {'denormals': '%s'},"
                 " 'outputs': [{'texture': 't', 'raw': 't.raw'}]}", flush ? "flush" : "ieee");
        tcli_json("den.json", json);
        assert_int_equal(tcli_run("den.json"), 0);
        uint32_t *w = (uint32_t *)slurp("t.raw", 4 * 4 * 16);
        for (int i = 0; i < 4 * 4 * 4; i++)
            assert_int_equal(w[i], flush ? 0u : 1u);
        free(w);
    }
}

/* Stencil and blending: draw 1 writes stencil 5 through a scissor (rows 0-3) with colour
 * writes off; draw 2 (stencil equal 5, additive blending) adds 0.25 twice (2 instances)
 * over the whole target: rows 0-3 get 0.5 on top of the clear's 0.125, the rest keep it. */
static void stencil_and_blend(void **state)
{
    (void)state;
    tcli_write("f.vert", FLAT_VS, strlen(FLAT_VS));
    tcli_write("c.frag", CONST_FS, strlen(CONST_FS));
    tcli_json("st.json",
              "{'texvm_job': 1, 'run': 'SCENE',"
              " 'programs': [{'name': 'vs', 'tgsi': 'f.vert'}, {'name': 'fs', 'tgsi': 'c.frag'}],"
              " 'textures': [{'name': 'c', 'format': 'R32_FLOAT', 'width': 8, 'height': 8},"
              "  {'name': 'zs', 'format': 'Z24_UNORM_S8_UINT', 'width': 8, 'height': 8}],"
              " 'buffers': [{'name': 'quad', 'type': 'float', 'values': [-1, -1, 0, 1, 1, -1, 0, 1,"
              "   -1, 1, 0, 1, 1, 1, 0, 1]}],"
              " 'scene': {'meshes': [{'name': 'q', 'primitive': 'triangle_strip', 'vertices': 4,"
              "   'attributes': [{'buffer': 'quad', 'format': 'R32G32B32A32_FLOAT', 'stride': 16}]}],"
              "  'passes': [{'colors': ['c'], 'depth': 'zs',"
              "    'clear': {'color': [0.125, 0, 0, 0], 'depth': 1, 'stencil': 0},"
              "    'draws': [{'mesh': 'q', 'programs': ['vs', 'fs'],"
              "      'state': {'scissor': [0, 0, 8, 4], 'color_mask': '',"
              "        'stencil': {'func': 'always', 'ref': 5, 'pass': 'replace'}},"
              "      'constants': [{'stage': 'FRAG', 'values': [[9, 9, 9, 9]]}]},"
              "     {'mesh': 'q', 'programs': ['vs', 'fs'], 'instances': 2,"
              "      'state': {'blend': 'additive', 'stencil': {'func': 'equal', 'ref': 5}},"
              "      'constants': [{'stage': 'FRAG', 'values': [[0.25, 0, 0, 0]]}]}]}]},"
              " 'outputs': [{'texture': 'c', 'raw': 'c.raw'}]}");
    assert_int_equal(tcli_run("st.json"), 0);
    float *f = (float *)slurp("c.raw", 8 * 8 * 4);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            if (f[y * 8 + x] != (y < 4 ? 0.625f : 0.125f))
                fail_msg("pixel (%d, %d): %g", x, y, (double)f[y * 8 + x]);
    free(f);
}

/* Translation validation: the demo scene on the plain interpreter writes the same bytes. */
static void plain_equals_optimised(void **state)
{
    (void)state;
    char cmd[2048];
    for (int plain = 0; plain < 2; plain++) {
        snprintf(cmd, sizeof cmd, "'%s' run '%s/examples/lit_scene/job.json' --quiet "
                 "--out-dir '%s/lit%d' %s", tcli_bin(), TEXVM_SOURCE_DIR, tcli_tmpdir(), plain,
                 plain ? "--plain" : "");
        int st = system(cmd);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "cmp -s '%s/lit0/%s' '%s/lit1/%s'", tcli_tmpdir(),
                 k ? "shadow_map.png" : "scene.png", tcli_tmpdir(),
                 k ? "shadow_map.png" : "scene.png");
        int st = system(cmd);
        assert_true(WIFEXITED(st));
        if (WEXITSTATUS(st))
            fail_msg("%s differs between the plain interpreter and the optimised engine",
                     k ? "shadow_map.png" : "scene.png");
    }
}

/* ---- the loader's messages ---------------------------------------------------------------- */

#define PROGS " 'programs': [{'name': 'vs', 'tgsi_text': 'VERT\\nDCL IN[0]\\nDCL OUT[0], POSITION\\n" \
              "MOV OUT[0], IN[0]\\nEND\\n'}, {'name': 'fs', 'tgsi_text': 'FRAG\\nEND\\n'}],"
#define TEX2 " 'textures': [{'name': 'c', 'format': 'R8G8B8A8_UNORM', 'width': 8, 'height': 8}," \
             " {'name': 'z', 'format': 'Z32_FLOAT', 'width': 4, 'height': 4}],"
#define MESH " 'meshes': [{'name': 'm', 'generate': 'cube'}],"

static void loader_messages(void **state)
{
    (void)state;
    tcli_load_fail("{'texvm_job': 1," PROGS TEX2 " 'scene': {'passes': []}}", TV_JOB_ERR_INVALID,
                   "at key \"run\": required key is missing (the job has 2 programs)");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'TESS_EVAL\\nEND\\n'}]}",
                   TV_JOB_ERR_INVALID, "at key \"run\": TESS_EVAL programs run in a scene's draws "
                   "(\"run\": \"SCENE\", docs/jobs-scenes.md)");
    tcli_load_fail("{'texvm_job': 1, 'run': 'FRAG', 'frag': {'width': 1, 'height': 1}," PROGS
                   " 'scene': {'passes': []}}", TV_JOB_ERR_INVALID,
                   "at key \"scene\": a scene runs with \"run\": \"SCENE\"");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'description': ''}",
                   TV_JOB_ERR_INVALID,
                   "at key \"scene\": required key is missing (the job runs SCENE)");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2
                   " 'frag': {'width': 1, 'height': 1}, 'scene': {'passes': []}}", TV_JOB_ERR_INVALID,
                   "at key \"frag\": a scene job gives its draws' bindings in \"scene\" (leave "
                   "\"frag\" out)");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {" MESH
                   " 'passes': [{'colors': ['c'], 'depth': 'z'}]}}", TV_JOB_ERR_INVALID,
                   "at key \"scene.passes[0]\": the attachments differ in size or samples "
                   "(8x8 x1 and 4x4 x1)");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {" MESH
                   " 'passes': [{'colors': ['z']}]}}", TV_JOB_ERR_INVALID,
                   "at key \"scene.passes[0].colors[0]\": texture \"z\" (Z32_FLOAT) is not a "
                   "colour render target format");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {" MESH
                   " 'passes': [{'colors': ['c'], 'clear': {'depth': 1}}]}}", TV_JOB_ERR_INVALID,
                   "at key \"scene.passes[0].clear.depth\": the pass has no depth attachment");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {" MESH
                   " 'passes': [{'colors': ['c'], 'draws': [{'mesh': 'n', 'programs': ['vs', "
                   "'fs']}]}]}}", TV_JOB_ERR_INVALID,
                   "at key \"scene.passes[0].draws[0].mesh\": unknown mesh \"n\"");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {" MESH
                   " 'passes': [{'colors': ['c'], 'draws': [{'mesh': 'm', 'programs': ['vs', "
                   "'vs']}]}]}}", TV_JOB_ERR_INVALID,
                   "at key \"scene.passes[0].draws[0].programs[1]\": a second VERT program");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {"
                   " 'meshes': [{'name': 'm', 'generate': 'cube', 'divisions': [3, 3]}],"
                   " 'passes': []}}", TV_JOB_ERR_INVALID,
                   "at key \"scene.meshes[0].divisions\": a cube mesh has no \"divisions\"");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {" MESH
                   " 'passes': [{'colors': ['c'], 'state': {'blend': 'glow'}}]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"scene.passes[0].state.blend\": unknown blend \"glow\" (off, alpha, "
                   "premultiplied, additive, multiply, or {\"rgb\": [equation, src, dst], "
                   "\"alpha\": [...]})");
    tcli_load_fail("{'texvm_job': 1, 'run': 'SCENE'," PROGS TEX2 " 'scene': {" MESH
                   " 'passes': [{'colors': ['c'], 'draws': [{'mesh': 'm', 'programs': ['vs', "
                   "'fs'], 'constants': [{'stage': 'VERT', 'values': [{'matrix': [{'look_at': "
                   "{'eye': [1, 1, 1], 'at': [1, 1, 1]}}]}]}]}]}]}}", TV_JOB_ERR_INVALID,
                   "at key \"scene.passes[0].draws[0].constants[0].values[0].matrix[0].look_at\": "
                   "eye equals at, or up is parallel to the view direction");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(meshes_face_outwards),   cmocka_unit_test(matrices),
        cmocka_unit_test(orthographic_cube_exact), cmocka_unit_test(msaa_resolve),
        cmocka_unit_test(stencil_and_blend),       cmocka_unit_test(plain_equals_optimised),
        cmocka_unit_test(loader_messages),
        cmocka_unit_test(scene_shader_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
