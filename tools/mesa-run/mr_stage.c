/* mesa-run: the FRAG stage (a generated pass-through vertex shader feeds the job's
 * per-vertex inputs to the fragment shader's `in` variables by name) and the COMP stage. */
#include "mr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *generate_vs(mr_state *s, const char *fs, mr_decl *in, int nin)
{
    size_t cap = 4096 + (size_t)nin * 256;
    char *vs = malloc(cap);
    if (!vs)
        return NULL;
    char ver[64];
    mr_version_line(fs, ver, sizeof ver);
    bool es = strstr(ver, " es") != NULL;
    int len = snprintf(vs, cap, "%s\n%s", ver, es ? "precision highp float;\nprecision highp int;\n" : "");
    len += snprintf(vs + len, cap - (size_t)len, "in vec4 mesa_run_pos;\n");
    for (int k = 0; k < nin; k++)
        len += snprintf(vs + len, cap - (size_t)len, "in vec4 a%d;\n%sout %s %s;\n", k,
                        in[k].qual, in[k].type, in[k].name);
    len += snprintf(vs + len, cap - (size_t)len, "void main() {\n    gl_Position = mesa_run_pos;\n");
    for (int k = 0; k < nin; k++) {
        char c[64];
        if (!mr_conv(in[k].type, c, sizeof c, k)) {
            mr_fail(s, TV_EXIT_UNSUPPORTED, "fragment input %s of type %s: mesa-run feeds "
                    "float/int/uint scalars and vectors", in[k].name, in[k].type);
            free(vs);
            return NULL;
        }
        len += snprintf(vs + len, cap - (size_t)len, "    %s = %s;\n", in[k].name, c);
    }
    snprintf(vs + len, cap - (size_t)len, "}\n");
    return vs;
}

static const job_frag_input *input_named(const job_frag *f, const char *name, int nin)
{
    for (size_t i = 0; i < f->num_inputs; i++)
        if (f->inputs[i].glsl_name && !strcmp(f->inputs[i].glsl_name, name))
            return &f->inputs[i];
    if (nin == 1 && f->num_inputs == 1 && !f->inputs[0].glsl_name)
        return &f->inputs[0];
    return NULL;
}

static GLenum target_format(tv_format f)
{
    const tv_format_info *fi = tv_format_get(f);
    if (fi && fi->kind == TV_FMT_KIND_UINT)
        return GL_RGBA32UI;
    if (fi && fi->kind == TV_FMT_KIND_SINT)
        return GL_RGBA32I;
    return GL_RGBA32F;
}

double mr_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The timed runs T[0..N) (after the first, untimed): their median and the fastest. */
void mr_report_timing(mr_state *s, const char *what, double *t, int n, double items)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    double med = t[n / 2];
    printf("mesa-run: %s %s: median %.3f ms over %d runs (fastest %.3f ms), %.2f M%s/s\n",
           s->opts->driver, what, med, n, t[0], items / (med * 1e3),
           s->j->run == TV_TGSI_COMP ? "threads" : "pixels");
}

int mr_frag(mr_state *s, const char *fs_src, const char *vs_src)
{
    job_frag *f = &s->j->frag;
    if (f->has_stencil || (f->samples > 1 && f->has_depth))
        return mr_fail(s, TV_EXIT_UNSUPPORTED, "mesa-run renders colour targets (any sample "
                       "count) and single-sample depth, not stencil");
    mr_decl in[GLREF_MAX_ATTRIBS];
    int nin = mr_scan_decls(fs_src, "in", in, GLREF_MAX_ATTRIBS - 1);
    char *gen = NULL;
    if (!vs_src) {
        gen = generate_vs(s, fs_src, in, nin);
        if (!gen)
            return s->rs.error[0] ? TV_EXIT_UNSUPPORTED : mr_fail(s, TV_EXIT_INVALID, "out of memory");
        vs_src = gen;
    }
    /* every named job input must name a fragment-shader input */
    for (size_t i = 0; i < f->num_inputs; i++) {
        const char *nm = f->inputs[i].glsl_name;
        bool found = !nm;
        for (int k = 0; k < nin && !found; k++)
            found = !strcmp(in[k].name, nm);
        if (!found) {
            free(gen);
            return mr_fail(s, TV_EXIT_INVALID, "frag.inputs[%zu]: glsl_name \"%s\" is not an "
                           "`in` variable of the fragment shader", i, nm);
        }
    }
    s->prog = glref_program(s->g, vs_src, fs_src);
    free(gen);
    if (!s->prog)
        return mr_fail(s, TV_EXIT_INVALID, "GLSL: %s", glref_error(s->g));
    /* vertices: TL, TR, BL, BR (rect) or 3 (triangle), window coordinates y down */
    int nv = f->prim == JOB_PRIM_RECT ? 4 : 3;
    float W = (float)f->width, H = (float)f->height;
    float pos[4][4] = {{0, 0, 0, 1}, {W, 0, 0, 1}, {0, H, 0, 1}, {W, H, 0, 1}};
    if (f->prim != JOB_PRIM_RECT) {
        pos[1][0] = 2 * W;
        pos[2][1] = 2 * H;
    }
    if (f->has_positions)
        memcpy(pos, f->positions, sizeof pos);
    float clip[4][4];
    for (int v = 0; v < 4; v++) {
        float w = pos[v][3] != 0 ? pos[v][3] : 1.0f;
        clip[v][0] = (2.0f * pos[v][0] / W - 1.0f) * w;
        clip[v][1] = (1.0f - 2.0f * pos[v][1] / H) * w;
        clip[v][2] = (2.0f * pos[v][2] - 1.0f) * w;
        clip[v][3] = w;
    }
    for (int k = 0; k < nin; k++) {
        char aname[16];
        snprintf(aname, sizeof aname, "a%d", k);
        GLint loc = glGetAttribLocation(s->prog, aname);
        const job_frag_input *ji = input_named(f, in[k].name, nin);
        /* mesa-run cannot change a GLSL declaration: job overrides must agree with it */
        if (ji && ji->interpolate >= 0) {
            int glsl = strstr(in[k].qual, "flat") ? TV_INTERP_CONSTANT
                       : strstr(in[k].qual, "noperspective") ? TV_INTERP_LINEAR
                                                             : TV_INTERP_PERSPECTIVE;
            if (ji->interpolate != glsl)
                return mr_fail(s, TV_EXIT_UNSUPPORTED, "frag input %s: the job's interpolate "
                               "differs from the GLSL declaration (\"%s\")", in[k].name,
                               in[k].qual);
        }
        if (ji && ji->location >= 0) {
            int glsl = strstr(in[k].qual, "centroid") ? TV_LOC_CENTROID
                       : strstr(in[k].qual, "sample") ? TV_LOC_SAMPLE
                                                      : TV_LOC_CENTER;
            if (ji->location != glsl)
                return mr_fail(s, TV_EXIT_UNSUPPORTED, "frag input %s: the job's location "
                               "differs from the GLSL declaration (\"%s\")", in[k].name,
                               in[k].qual);
        }
        float corners[4][4] = {{0}};
        if (ji)
            memcpy(corners, ji->values, sizeof corners);
        if (loc >= 0 && loc < GLREF_MAX_ATTRIBS)
            glref_set_attrib(s->g, (unsigned)loc, &corners[0][0]);
    }
    GLint ploc = glGetAttribLocation(s->prog, "mesa_run_pos");
    if (ploc >= 0 && ploc < GLREF_MAX_ATTRIBS)
        glref_set_attrib(s->g, (unsigned)ploc, &clip[0][0]);
    GLenum fmts[JOB_MAX_TARGETS];
    unsigned nt = f->num_targets ? f->num_targets : 1;
    for (unsigned t = 0; t < nt; t++)
        fmts[t] = f->num_targets ? target_format(f->targets[t].format) : GL_RGBA32F;
    if (!glref_framebuffer_ms(s->g, (int)f->width, (int)f->height,
                              f->samples > 1 ? (int)f->samples : 1, (int)nt, fmts))
        return mr_fail(s, TV_EXIT_INVALID, "%s", glref_error(s->g));
    for (unsigned t = 0; t < f->num_targets; t++)
        glref_clear(s->g, (int)t, f->targets[t].clear);
    /* depth: texvm stores the depth a program writes and keeps the clear value otherwise */
    if (f->has_depth &&
        !glref_framebuffer_depth(s->g, f->depth_clear, strstr(fs_src, "gl_FragDepth") != NULL))
        return mr_fail(s, TV_EXIT_INVALID, "%s", glref_error(s->g));
    int rc = mr_bind(s);
    if (!rc)
        rc = mr_uniforms(s);
    if (rc)
        return rc;
    /* texvm's FACE is the job's front_face whatever the winding: make GL agree by choosing
     * which winding is front from the first triangle's orientation. */
    {
        float ax = clip[1][0] / clip[1][3] - clip[0][0] / clip[0][3];
        float ay = clip[1][1] / clip[1][3] - clip[0][1] / clip[0][3];
        float bx = clip[2][0] / clip[2][3] - clip[0][0] / clip[0][3];
        float by = clip[2][1] / clip[2][3] - clip[0][1] / clip[0][3];
        bool ccw = ax * by - bx * ay > 0.0f;
        glFrontFace(ccw == f->front_face ? GL_CCW : GL_CW);
        glDisable(GL_CULL_FACE);
    }
    GLenum mode = f->prim == JOB_PRIM_RECT ? GL_TRIANGLE_STRIP : GL_TRIANGLES;
    if (!glref_draw_prims(s->g, s->prog, mode, nv))
        return mr_fail(s, TV_EXIT_INVALID, "draw: %s", glref_error(s->g));
    glref_finish(s->g);
    if (s->opts->repeat > 0) {
        double *t = malloc(sizeof *t * (size_t)s->opts->repeat);
        for (int r = 0; t && r < s->opts->repeat; r++) {
            /* bench_job's protocol: the targets cleared before each timed draw, untimed
               (texvm's job code fills them before each engine call), so that both
               engines' frames start from the same caches — a target just cleared, the
               texture's lines pushed out of them by it (docs/performance.md §1.1) */
            bool cleared = true;
            for (unsigned k = 0; k < f->num_targets; k++)
                cleared = cleared && glref_clear(s->g, (int)k, f->targets[k].clear);
            if (cleared && f->has_depth)
                cleared = glref_clear_depth(s->g, f->depth_clear);
            if (!cleared) {
                free(t);
                return mr_fail(s, TV_EXIT_INVALID, "clear before a timed draw: %s",
                               glref_error(s->g));
            }
            glref_finish(s->g);
            double t0 = mr_now_ms();
            glref_draw_prims(s->g, s->prog, mode, nv);
            glref_finish(s->g);
            t[r] = mr_now_ms() - t0;
        }
        if (t)
            mr_report_timing(s, "draw", t, s->opts->repeat, (double)f->width * f->height);
        free(t);
    }
    size_t npx = (size_t)f->width * f->height, spp = f->samples ? f->samples : 1;
    size_t row_words = (size_t)f->width * spp * 4;
    uint32_t *rows = malloc(npx * spp * 16);
    if (!rows)
        return mr_fail(s, TV_EXIT_INVALID, "out of memory");
    for (unsigned t = 0; t < nt; t++) {
        s->rs.color[t] = malloc(npx * spp * 16);
        if (!s->rs.color[t] || !glref_read_samples(s->g, (int)t, rows)) {
            free(rows);
            return mr_fail(s, TV_EXIT_INVALID, "read-back: %s", glref_error(s->g));
        }
        /* GL row 0 is the bottom row; texvm's row 0 is the top */
        for (uint32_t y = 0; y < f->height; y++)
            memcpy(s->rs.color[t] + (size_t)y * row_words,
                   rows + (size_t)(f->height - 1 - y) * row_words, row_words * 4);
    }
    if (f->has_depth) {
        float *d = (float *)(void *)rows;
        s->rs.depth = malloc(npx * 4);
        if (!s->rs.depth || !glref_read_depth(s->g, d)) {
            free(rows);
            return mr_fail(s, TV_EXIT_INVALID, "depth read-back: %s", glref_error(s->g));
        }
        for (uint32_t y = 0; y < f->height; y++)
            memcpy(s->rs.depth + (size_t)y * f->width, d + (size_t)(f->height - 1 - y) * f->width,
                   (size_t)f->width * 4);
    }
    free(rows);
    return mr_readback(s);
}

int mr_comp(mr_state *s, const char *cs_src)
{
    s->prog = glref_program_compute(s->g, cs_src);
    if (!s->prog)
        return mr_fail(s, TV_EXIT_INVALID, "GLSL: %s", glref_error(s->g));
    int rc = mr_bind(s);
    if (!rc)
        rc = mr_uniforms(s);
    if (rc)
        return rc;
    const job_comp *c = &s->j->comp;
    if (!glref_dispatch(s->g, s->prog, c->grid[0], c->grid[1], c->grid[2]))
        return mr_fail(s, TV_EXIT_INVALID, "dispatch: %s", glref_error(s->g));
    glref_finish(s->g);
    if (s->opts->repeat > 0) {
        GLint ls[3] = {1, 1, 1};
        glGetProgramiv(s->prog, GL_COMPUTE_WORK_GROUP_SIZE, ls);
        double *t = malloc(sizeof *t * (size_t)s->opts->repeat);
        for (int r = 0; t && r < s->opts->repeat; r++) {
            double t0 = mr_now_ms();
            glref_dispatch(s->g, s->prog, c->grid[0], c->grid[1], c->grid[2]);
            glref_finish(s->g);
            t[r] = mr_now_ms() - t0;
        }
        if (t)
            mr_report_timing(s, "dispatch", t, s->opts->repeat,
                          (double)c->grid[0] * c->grid[1] * c->grid[2] * ls[0] * ls[1] * ls[2]);
        free(t);
    }
    return mr_readback(s);
}
