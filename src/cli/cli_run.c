/* texvm run: run a job file, or a TGSI file with short-form options
 * (docs/jobs-command-line.md §1). */
#include "cli.h"
#include "texvm/tex.h"
#include "texvm/vm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: texvm run JOB.json [options]\n"
            "       texvm run JOB.json --const N=v,v,...   (replaces constant buffer N)\n"
            "       texvm run SHADER.tgsi [--size WxH | --grid X[xY[xZ]] [--block X[xY[xZ]]]]\n"
            "                 [--tex N=FILE.png | --tex N=pattern:NAME[:SIZE]] [--const N=v,v,...]\n"
            "                 [--buffer N=SIZE] [--out FILE.png] [--save-job FILE.json] [options]\n"
            "\n"
            "Runs a TGSI program on the texvm engine: resources, the stage and the outputs come\n"
            "from the job file (docs/jobs.md), or from the short forms for a TGSI file.\n"
            "\n"
            "options:\n"
            "  --out-dir DIR            write outputs under DIR (created; default: the job's folder)\n"
            "  --threads N              worker threads (default: the job's, else one per core)\n"
            "  --max-instructions N     instruction budget per warp before a fault\n"
            "  --max-loop-iterations N  iterations of one loop per warp before a fault\n"
            "  --max-call-depth N       CAL nesting before a fault\n"
            "  --max-memory BYTES       memory the engine may allocate for the run\n"
            "  --max-job-memory BYTES   memory the job's resources may take (default 2 GiB)\n"
            "  --precision reference|hardware   texture-unit precision\n"
            "  --trace X,Y[,S]          FRAG: print every instruction of pixel (X,Y) [sample S]\n"
            "  --trace X[,Y[,Z]]        COMP: of global thread (X,Y,Z); VERT: of vertex X\n"
            "  --plain                  the plain interpreter: no optimiser rewrites (the reference\n"
            "                           optimised runs equal bit for bit; docs/vm-execution.md)\n"
            "  --jit auto|off|always    compile the shader to native code (docs/jit.md):\n"
            "                           auto (default) once it has run 4096 warps\n"
            "  --quiet                  no summary lines\n"
            "  --help                   this text\n"
            "\n"
            "exit codes: 0 ok, 1 invalid job/program, runtime fault or failed check,\n"
            "            2 bad command line, 3 file I/O, 4 unsupported feature\n");
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno)
        return false;
    *out = v;
    return true;
}

static bool parse_trace(const char *s, uint32_t id[3])
{
    id[0] = id[1] = id[2] = 0;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return false;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v > UINT32_MAX)
            return false;
        id[k] = (uint32_t)v;
        if (!*end)
            return true;
        if (*end != ',')
            return false;
        s = end + 1;
    }
    return false;
}

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char buf[1024];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return false;
            buf[i] = c;
        }
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static int load_error(const tv_job_error *err)
{
    fprintf(stderr, "%s\n", err->message);
    return err->cls == TV_JOB_ERR_IO ? TV_EXIT_IO
           : err->cls == TV_JOB_ERR_UNSUPPORTED ? TV_EXIT_UNSUPPORTED
                                              : TV_EXIT_INVALID;
}

/* Build the job of a TGSI file from the short forms. */
static tv_job *short_job(const char *path, const tv_job_short_args *sa, const char *save, int *rc)
{
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text) {
        *rc = cli_last_read_status;
        return NULL;
    }
    tv_tgsi_program *progs = NULL;
    size_t count = 0;
    tv_error err;
    if (tv_tgsi_parse(text, len, path, TV_TGSI_MODE_DEFAULT, &progs, &count, &err) != TV_OK) {
        tv_job_print_error(&err);
        free(text);
        *rc = TV_EXIT_INVALID;
        return NULL;
    }
    free(text);
    char msg[512];
    /* A file may hold several programs (Mesa prints VERT then FRAG): run the FRAG one, else
     * the COMP one, else the first. */
    size_t pick = 0;
    for (size_t i = count; i-- > 0;)
        if (progs[i].processor == TV_TGSI_COMP)
            pick = i;
    for (size_t i = count; i-- > 0;)
        if (progs[i].processor == TV_TGSI_FRAG)
            pick = i;
    char *json = count ? tv_job_short_build(path, &progs[pick], sa, msg, sizeof msg) : NULL;
    char *saved = NULL;
    if (json && save) {
        /* the saved job names its inputs relative to its own folder, so it runs from there */
        tv_job_short_args sb = *sa;
        char *dir = strdup(save), *slash = dir ? strrchr(dir, '/') : NULL;
        if (slash)
            *(slash == dir ? slash + 1 : slash) = '\0';
        sb.base = slash ? dir : ".";
        if (dir)
            saved = tv_job_short_build(path, &progs[pick], &sb, msg, sizeof msg);
        free(dir);
    }
    if (!count)
        snprintf(msg, sizeof msg, "%s: no program", path);
    tv_tgsi_programs_free(progs, count);
    if (!json) {
        fprintf(stderr, "texvm run: %s\n", msg);
        *rc = TV_EXIT_USAGE;
        return NULL;
    }
    if (save) {
        FILE *f = saved ? fopen(save, "w") : NULL;
        bool bad = !f || fputs(saved, f) < 0 || fputc('\n', f) < 0;
        if (f && fclose(f) != 0)
            bad = true;
        free(saved);
        if (bad) {
            fprintf(stderr, "texvm run: cannot write \"%s\"\n", save);
            free(json);
            *rc = TV_EXIT_IO;
            return NULL;
        }
        fprintf(stderr, "texvm run: wrote the job to %s\n", save);
    }
    tv_job_error jerr;
    tv_job *j = tv_job_load_text(json, strlen(json), "<command line>", &jerr);
    free(json);
    if (!j)
        *rc = load_error(&jerr);
    return j;
}

int cli_run(int argc, char **argv)
{
    tv_job_run_opts o;
    memset(&o, 0, sizeof o);
    o.threads = -1;
    o.precision = -1;
    tv_job_short_args sa;
    memset(&sa, 0, sizeof sa);
    const char *input = NULL, *save = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = true;
        uint64_t n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return TV_EXIT_OK;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o.quiet = true;
            takes = false;
        } else if (!strcmp(a, "--plain")) {
            o.plain = true;
            takes = false;
        } else if (!strcmp(a, "--jit")) {
            if (!v || tv_vm_jit_mode_from_name(v, &o.jit) != TV_OK) {
                fprintf(stderr, "texvm run: --jit takes auto, off or always\n");
                return TV_EXIT_USAGE;
            }
        } else if (a[0] != '-' || !a[1]) {
            if (input) {
                fprintf(stderr, "texvm run: one job or TGSI file at a time ('%s' and '%s')\n",
                        input, a);
                return TV_EXIT_USAGE;
            }
            input = a;
            takes = false;
        } else if (!v) {
            fprintf(stderr, "texvm run: %s needs a value (try texvm run --help)\n", a);
            return TV_EXIT_USAGE;
        } else if (!strcmp(a, "--out-dir")) {
            o.out_dir = v;
        } else if (!strcmp(a, "--threads")) {
            if (!parse_u64(v, &n) || n > 1024) {
                fprintf(stderr, "texvm run: --threads %s: expected 0..1024\n", v);
                return TV_EXIT_USAGE;
            }
            o.threads = (int)n;
        } else if (!strcmp(a, "--max-instructions")) {
            if (!parse_u64(v, &n) || n == 0) {
                fprintf(stderr, "texvm run: --max-instructions %s: expected a positive number\n",
                        v);
                return TV_EXIT_USAGE;
            }
            o.max_instructions = n;
        } else if (!strcmp(a, "--max-job-memory")) {
            if (!parse_u64(v, &n) || n == 0) {
                fprintf(stderr, "texvm run: %s %s: expected a positive number\n", a, v);
                return TV_EXIT_USAGE;
            }
            tv_job_set_max_memory(n); /* before the job is loaded (docs/limits.md) */
        } else if (!strcmp(a, "--max-loop-iterations") || !strcmp(a, "--max-call-depth") ||
                   !strcmp(a, "--max-memory")) {
            if (!parse_u64(v, &n) || n == 0) {
                fprintf(stderr, "texvm run: %s %s: expected a positive number\n", a, v);
                return TV_EXIT_USAGE;
            }
            if (a[6] == 'c' && n > (1u << 20)) {
                fprintf(stderr, "texvm run: %s %s: expected 1..%u\n", a, v, 1u << 20);
                return TV_EXIT_USAGE;
            }
            if (a[6] == 'l')
                o.max_loop_iterations = n;
            else if (a[6] == 'c')
                o.max_call_depth = (uint32_t)n;
            else
                o.max_memory = n;
        } else if (!strcmp(a, "--precision")) {
            if (!strcmp(v, "reference"))
                o.precision = TV_TEX_PRECISION_REFERENCE;
            else if (!strcmp(v, "hardware"))
                o.precision = TV_TEX_PRECISION_HARDWARE;
            else {
                fprintf(stderr, "texvm run: --precision %s: expected reference or hardware\n", v);
                return TV_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--trace")) {
            if (!parse_trace(v, o.trace_id)) {
                fprintf(stderr, "texvm run: --trace %s: expected X[,Y[,Z]]\n", v);
                return TV_EXIT_USAGE;
            }
            o.trace = true;
        } else if (!strcmp(a, "--size")) {
            sa.size = v;
        } else if (!strcmp(a, "--grid")) {
            sa.grid = v;
        } else if (!strcmp(a, "--block")) {
            sa.block = v;
        } else if (!strcmp(a, "--out")) {
            sa.out = v;
        } else if (!strcmp(a, "--save-job")) {
            save = v;
        } else if (!strcmp(a, "--tex") || !strcmp(a, "--const") || !strcmp(a, "--buffer")) {
            const char **list = a[2] == 't' ? sa.tex : a[2] == 'c' ? sa.consts : sa.buffers;
            unsigned *cnt = a[2] == 't' ? &sa.num_tex : a[2] == 'c' ? &sa.num_const
                                                                      : &sa.num_buffer;
            if (*cnt >= TV_JOB_SHORT_MAX) {
                fprintf(stderr, "texvm run: at most %d %s options\n", TV_JOB_SHORT_MAX, a);
                return TV_EXIT_USAGE;
            }
            list[(*cnt)++] = v;
        } else {
            fprintf(stderr, "texvm run: unknown option '%s' (try texvm run --help)\n", a);
            return TV_EXIT_USAGE;
        }
        if (takes)
            i++;
    }
    if (!input) {
        usage(stderr);
        return TV_EXIT_USAGE;
    }
    bool is_job = ends_with(input, ".json");
    bool shorts = sa.size || sa.grid || sa.block || sa.out || save || sa.num_tex ||
                  sa.num_buffer;
    if (is_job && shorts) {
        fprintf(stderr, "texvm run: --size, --grid, --block, --tex, --buffer, --out and "
                        "--save-job are for TGSI files; a job file says all of that itself\n");
        return TV_EXIT_USAGE;
    }
    /* --out FOLDER/FILE.png (the user's own command line, unlike a job file's outputs):
     * the folder becomes the output folder when --out-dir is not given */
    char out_folder[1024];
    const char *slash = sa.out ? strrchr(sa.out, '/') : NULL;
    if (slash && !o.out_dir) {
        size_t n = (size_t)(slash - sa.out);
        if (n >= sizeof out_folder) {
            fprintf(stderr, "texvm run: --out %s: the folder name is too long\n", sa.out);
            return TV_EXIT_USAGE;
        }
        memcpy(out_folder, sa.out, n);
        out_folder[n] = '\0';
        o.out_dir = n ? out_folder : "/";
        sa.out = slash + 1;
    }
    if (o.out_dir && !make_dirs(o.out_dir)) {
        fprintf(stderr, "texvm run: cannot create the output folder \"%s\"\n", o.out_dir);
        return TV_EXIT_IO;
    }
    int rc = 0;
    tv_job *j;
    if (is_job && sa.num_const) {
        /* --const replaces constant buffers of the tv_job */
        size_t len;
        char *text = cli_read_file(input, &len);
        if (!text)
            return cli_last_read_status;
        char msg[512];
        char *patched = tv_job_patch_constants(text, len, &sa, msg, sizeof msg);
        if (!patched && msg[0]) {
            fprintf(stderr, "texvm run: %s\n", msg);
            free(text);
            return TV_EXIT_USAGE;
        }
        tv_job_error err;
        j = patched ? tv_job_load_text(patched, strlen(patched), input, &err)
                    : tv_job_load_text(text, len, input, &err);
        free(patched);
        free(text);
        if (!j)
            return load_error(&err);
    } else if (is_job) {
        tv_job_error err;
        j = tv_job_load_file(input, &err);
        if (!j)
            return load_error(&err);
    } else {
        j = short_job(input, &sa, save, &rc);
        if (!j)
            return rc;
    }
    rc = tv_job_run(j, &o);
    tv_job_free(j);
    return rc;
}
