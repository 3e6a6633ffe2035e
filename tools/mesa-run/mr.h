/* mesa-run: run a texvm job file (docs/jobs.md) on Mesa's softpipe or llvmpipe through
 * tools/glref, from the GLSL named beside each program, and write the outputs texvm run
 * writes (the output writers of src/job/job_run_out.c are compiled in). */
#ifndef MESA_RUN_MR_H
#define MESA_RUN_MR_H

#include "glref.h"
#include "job.h"
#include "job_run.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct mr_options {
    const char *driver;      /* "softpipe" / "llvmpipe" */
    const char *out_dir;
    const char *tgsi_out;    /* save the captured TGSI here (softpipe) */
    bool layout;             /* print the CONST[0] layout of the default uniform block */
    bool quiet;
    int repeat;              /* run the draw/dispatch N times (timing) */
    bool timing;
    /* --uniform NAME=VALUES overrides */
    int num_uniforms;
    const char *uniform_name[16];
    const char *uniform_value[16];
} mr_options;

/* A GL format for a texvm format. */
typedef struct mr_format {
    tv_format tv;
    GLenum ifmt, fmt, type;
    bool compressed;
    char kind;               /* 'f', 'i', 'u', 'd' (depth) */
} mr_format;

const mr_format *mr_format_for(tv_format f);

/* The running state: the texvm run_state (for the shared output writers) plus GL names. */
typedef struct mr_state {
    run_state rs;            /* first: job_run_out.c sees this */
    tv_job_run_opts ropts;
    const mr_options *opts;
    job *j;
    glref *g;
    GLuint prog;
    GLuint *tex;             /* per job texture */
    GLenum *tex_target;
    GLuint *smp;             /* per job sampler */
    GLuint *buf;             /* per job buffer */
    GLuint ubo[JOB_MAX_SLOTS]; /* uniform blocks of constant slots >= 1 */
    uint8_t **tex_readback;  /* per job texture, texvm raw layout (after the run) */
    size_t *tex_readback_size;
} mr_state;

/* Resources (mr_res.c): textures, samplers, bindings, constants, buffers, images. */
int mr_resources(mr_state *s);
int mr_bind(mr_state *s);
int mr_readback(mr_state *s);
void mr_resources_free(mr_state *s);
/* The CONST[0] layout rule and uniform upload (mr_uniforms.c). */
int mr_uniforms(mr_state *s);
void mr_print_layout(mr_state *s, FILE *out);
/* Stages (mr_stage.c). */
int mr_frag(mr_state *s, const char *fs_src, const char *vs_src);
int mr_comp(mr_state *s, const char *cs_src);

/* A global `in`/`out` variable of a shader (mr_glsl.c). */
typedef struct mr_decl {
    char qual[64];           /* interpolation/auxiliary qualifiers */
    char type[16];
    char name[64];
} mr_decl;
int mr_scan_decls(const char *src, const char *keyword, mr_decl *out, int max);
/* Expression converting vec4 attribute a<k> (raw words) to `type`; NULL if unsupported. */
const char *mr_conv(const char *type, char *buf, size_t n, int k);
void mr_version_line(const char *src, char *out, size_t n);
double mr_now_ms(void);
void mr_report_timing(mr_state *s, const char *what, double *t, int n, double items);
int mr_vert(mr_state *s, const char *vs_src);

/* Messages: record the first failure like texvm run (returns code). */
int mr_fail(mr_state *s, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
