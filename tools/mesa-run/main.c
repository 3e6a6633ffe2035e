/* mesa-run: run a texvm job (docs/jobs.md) on Mesa softpipe/llvmpipe from the GLSL beside
 * its programs; write the job's outputs as texvm run does; optionally save the TGSI softpipe
 * printed for it. Usage in docs/mesa-reference.md. */
#include "mr.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mesa-run [options] JOB.json\n"
            "  --driver softpipe|llvmpipe   Mesa driver (default llvmpipe)\n"
            "  --out-dir DIR                where outputs go (default: the job's directory)\n"
            "  --tgsi FILE                  save the TGSI softpipe runs (softpipe only)\n"
            "  --layout                     print the CONST[0] layout of the default uniforms\n"
            "  --uniform NAME=V[,V...]      set a uniform after the job's constants\n"
            "  --repeat N                   run the draw/dispatch N more times, print the median\n"
            "                               and the fastest\n"
            "  --quiet                      no 'wrote' lines\n");
}

static char *read_text(const char *path)
{
    return path ? glref_read_file(path, NULL) : NULL;
}

static const job_program *program_of(const job *j, int stage)
{
    for (size_t i = 0; i < j->num_programs; i++)
        if (j->programs[i].stage == stage)
            return &j->programs[i];
    return NULL;
}

static int save_tgsi(mr_state *s, const char *dump_path)
{
    char *dump = glref_read_file(dump_path, NULL);
    if (!dump)
        return mr_fail(s, TV_EXIT_IO, "cannot read the capture %s", dump_path);
    glref_tgsi *progs = NULL;
    int n = glref_tgsi_split(dump, &progs);
    free(dump);
    if (n <= 0) {
        glref_tgsi_free(progs, n > 0 ? n : 0);
        return mr_fail(s, TV_EXIT_INVALID, "no TGSI captured (is the driver softpipe?)");
    }
    FILE *f = fopen(s->opts->tgsi_out, "w");
    if (!f) {
        glref_tgsi_free(progs, n);
        return mr_fail(s, TV_EXIT_IO, "cannot write %s", s->opts->tgsi_out);
    }
    for (int i = 0; i < n; i++)
        fputs(progs[i].text, f);
    glref_tgsi_free(progs, n);
    if (fclose(f))
        return mr_fail(s, TV_EXIT_IO, "cannot write %s", s->opts->tgsi_out);
    if (!s->opts->quiet)
        fprintf(stderr, "mesa-run: wrote %s (%d programs)\n", s->opts->tgsi_out, n);
    return 0;
}

static int run(mr_state *s)
{
    job *j = s->j;
    if (j->scene)
        return mr_fail(s, TV_EXIT_UNSUPPORTED, "scene jobs (\"run\": \"SCENE\") are not run on "
                       "Mesa by mesa-run; it runs single-stage jobs");
    const job_program *main_prog = program_of(j, j->run);
    if (!main_prog || !main_prog->glsl_path)
        return mr_fail(s, TV_EXIT_INVALID, "the %s program has no \"glsl\" source",
                       job_stage_name(j->run));
    char *src = read_text(main_prog->glsl_path);
    if (!src)
        return mr_fail(s, TV_EXIT_IO, "cannot read %s", main_prog->glsl_path);
    const job_program *vp = program_of(j, TV_TGSI_VERT);
    char *vs = j->run == TV_TGSI_FRAG && vp && vp->glsl_path ? read_text(vp->glsl_path) : NULL;
    char dump_path[4200] = "";
    if (s->opts->tgsi_out) {
        snprintf(dump_path, sizeof dump_path, "%s.stderr", s->opts->tgsi_out);
        if (!glref_capture_begin(s->g, dump_path)) {
            free(src);
            free(vs);
            return mr_fail(s, TV_EXIT_IO, "%s", glref_error(s->g));
        }
    }
    int rc = mr_resources(s);
    if (!rc) {
        if (j->run == TV_TGSI_FRAG)
            rc = mr_frag(s, src, vs);
        else if (j->run == TV_TGSI_COMP)
            rc = mr_comp(s, src);
        else if (j->run == TV_TGSI_VERT)
            rc = mr_vert(s, src);
        else
            rc = mr_fail(s, TV_EXIT_UNSUPPORTED, "mesa-run runs FRAG, VERT and COMP jobs (this "
                         "one runs %s)", job_stage_name(j->run));
    }
    if (s->opts->tgsi_out) {
        glref_capture_end(s->g);
        if (!rc)
            rc = save_tgsi(s, dump_path);
        if (!getenv("MESA_RUN_KEEP_DUMP"))
            remove(dump_path); /* MESA_RUN_KEEP_DUMP=1 keeps softpipe's whole print */
    }
    if (!rc && s->opts->layout)
        mr_print_layout(s, stdout);
    free(src);
    free(vs);
    if (!rc)
        rc = run_outputs(&s->rs);
    if (!rc)
        rc = run_checks(&s->rs);
    return rc;
}

int main(int argc, char **argv)
{
    mr_options o;
    memset(&o, 0, sizeof o);
    o.driver = "llvmpipe";
    const char *job_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--driver") && more) {
            o.driver = argv[++i];
        } else if (!strcmp(a, "--out-dir") && more) {
            o.out_dir = argv[++i];
        } else if (!strcmp(a, "--tgsi") && more) {
            o.tgsi_out = argv[++i];
        } else if (!strcmp(a, "--layout")) {
            o.layout = true;
        } else if (!strcmp(a, "--quiet")) {
            o.quiet = true;
        } else if (!strcmp(a, "--repeat") && more) {
            o.repeat = atoi(argv[++i]);
        } else if (!strcmp(a, "--uniform") && more && o.num_uniforms < 16) {
            char *eq = strchr(argv[++i], '=');
            if (!eq) {
                usage(stderr);
                return TV_EXIT_USAGE;
            }
            *eq = '\0';
            o.uniform_name[o.num_uniforms] = argv[i];
            o.uniform_value[o.num_uniforms++] = eq + 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (a[0] != '-' && !job_path) {
            job_path = a;
        } else {
            usage(stderr);
            return TV_EXIT_USAGE;
        }
    }
    if (!job_path || (strcmp(o.driver, "softpipe") && strcmp(o.driver, "llvmpipe"))) {
        usage(stderr);
        return TV_EXIT_USAGE;
    }
    if (o.tgsi_out && strcmp(o.driver, "softpipe")) {
        fprintf(stderr, "mesa-run: --tgsi needs --driver softpipe\n");
        return TV_EXIT_USAGE;
    }
    /* A job may name the very TGSI file this run captures: give the loader a placeholder
     * to read when it does not exist yet (it is overwritten below). */
    if (o.tgsi_out) {
        FILE *probe = fopen(o.tgsi_out, "r");
        if (probe) {
            fclose(probe);
        } else if ((probe = fopen(o.tgsi_out, "w")) != NULL) {
            fputs("VERT\n  0: END\nFRAG\n  0: END\nCOMP\n  0: END\n", probe);
            fclose(probe);
        }
    }
    tv_job_error jerr;
    memset(&jerr, 0, sizeof jerr);
    job *j = tv_job_load_file(job_path, &jerr);
    if (!j) {
        fprintf(stderr, "mesa-run: %s\n", jerr.message);
        return jerr.cls == TV_JOB_ERR_IO ? TV_EXIT_IO : TV_EXIT_INVALID;
    }
    char err[512];
    glref *g = glref_create(o.driver, o.tgsi_out ? GLREF_CAPTURE_TGSI : 0, err, sizeof err);
    if (!g) {
        fprintf(stderr, "mesa-run: no %s context: %s\n", o.driver, err);
        tv_job_free(j);
        return TV_EXIT_UNSUPPORTED;
    }
    mr_state *s = calloc(1, sizeof *s);
    if (!s) {
        glref_destroy(g);
        tv_job_free(j);
        return TV_EXIT_INVALID;
    }
    s->opts = &o;
    s->j = j;
    s->g = g;
    s->ropts.out_dir = o.out_dir;
    s->ropts.quiet = o.quiet;
    s->rs.j = j;
    s->rs.opts = &s->ropts;
    int rc = run(s);
    if (rc)
        fprintf(stderr, "mesa-run: %s: %s\n", job_path, s->rs.error[0] ? s->rs.error : "failed");
    for (int t = 0; t < JOB_MAX_TARGETS; t++)
        free(s->rs.color[t]);
    for (int r = 0; r < JOB_MAX_ATTRIBS; r++)
        free(s->rs.vert_out[r]);
    free(s->rs.depth);
    mr_resources_free(s);
    glref_program_delete(g, s->prog);
    glref_destroy(g);
    tv_job_free(j);
    free(s);
    return rc;
}
