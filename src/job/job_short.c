/* texvm run SHADER.tgsi [short forms]: build the job of docs/jobs-command-line.md §1 as
 * JSON text, so the command line and job files go through the same loader (and --save-job
 * can write it). */
#include "texvm/job.h"
#include "texvm/job.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *vec4(double a, double b, double c, double d)
{
    double v[4] = {a, b, c, d};
    return cJSON_CreateDoubleArray(v, 4);
}

static bool is_system_input(const tv_tgsi_declaration *d)
{
    return d->has_semantic && (d->semantic == TV_SEM_POSITION || d->semantic == TV_SEM_FACE);
}

/* "0=photo.png" -> slot 0 and the text after '='. */
static bool slot_arg(const char *arg, unsigned *slot, const char **rest, unsigned max)
{
    char *end;
    unsigned long n = strtoul(arg, &end, 10);
    if (end == arg || *end != '=' || n >= max)
        return false;
    *slot = (unsigned)n;
    *rest = end + 1;
    return true;
}

static char *fail(char *msg, size_t size, const char *fmt, const char *arg)
{
    snprintf(msg, size, fmt, arg);
    return NULL;
}

/* An input path as the job will see it (tv_job_short_args.base); malloc'ed. */
static char *input_path(const tv_job_short_args *a, const char *path)
{
    return a->base ? tv_path_from(a->base, path) : strdup(path);
}

static bool add_texture(cJSON *textures, cJSON *samplers, cJSON *units, unsigned slot,
                        const char *what, const tv_job_short_args *a, char *msg, size_t msgsize)
{
    cJSON *t = cJSON_CreateObject();
    char name[32];
    snprintf(name, sizeof name, "tex%u", slot);
    cJSON_AddStringToObject(t, "name", name);
    cJSON_AddStringToObject(t, "format", "R8G8B8A8_UNORM");
    cJSON *src = cJSON_CreateObject();
    if (!strncmp(what, "pattern:", 8)) {
        char pat[64];
        unsigned size = 256;
        snprintf(pat, sizeof pat, "%s", what + 8);
        char *colon = strchr(pat, ':');
        if (colon) {
            *colon = '\0';
            char *end;
            unsigned long s = strtoul(colon + 1, &end, 10);
            if (*end || s < 1 || s > 16384) {
                fail(msg, msgsize, "--tex %s: the size after the pattern name must be 1..16384",
                     what);
                cJSON_Delete(t);
                cJSON_Delete(src);
                return false;
            }
            size = (unsigned)s;
        }
        cJSON_AddStringToObject(src, "pattern", pat);
        cJSON_AddNumberToObject(t, "width", size);
        cJSON_AddNumberToObject(t, "height", size);
        cJSON_AddStringToObject(t, "mipmaps", "generate");
    } else {
        char *w = input_path(a, what);
        cJSON_AddStringToObject(src, "png", w ? w : what);
        free(w);
        cJSON_AddStringToObject(t, "mipmaps", "generate");
    }
    cJSON_AddItemToObject(t, "source", src);
    cJSON_AddItemToArray(textures, t);
    cJSON *s = cJSON_CreateObject();
    char sname[32];
    snprintf(sname, sizeof sname, "samp%u", slot);
    cJSON_AddStringToObject(s, "name", sname);
    cJSON_AddStringToObject(s, "filter", "trilinear");
    cJSON_AddStringToObject(s, "wrap", "repeat");
    cJSON_AddNumberToObject(s, "max_anisotropy", 16);
    cJSON_AddItemToArray(samplers, s);
    cJSON *u = cJSON_CreateObject();
    cJSON_AddNumberToObject(u, "slot", slot);
    cJSON_AddStringToObject(u, "texture", name);
    cJSON_AddStringToObject(u, "sampler", sname);
    cJSON_AddItemToArray(units, u);
    return true;
}

/* A constants entry from "N=v,v,..." (numbers, or typed words of docs/jobs.md §5). */
static cJSON *const_entry(const char *arg, unsigned *slot_out, char *msg, size_t msgsize)
{
    unsigned slot;
    const char *list;
    if (!slot_arg(arg, &slot, &list, 32) || !*list) {
        fail(msg, msgsize, "--const %s: expected N=v,v,...", arg);
        return NULL;
    }
    cJSON *cb = cJSON_CreateObject();
    cJSON_AddNumberToObject(cb, "slot", slot);
    cJSON *vals = cJSON_AddArrayToObject(cb, "values");
    char *copy = strdup(list);
    for (char *tok = copy ? strtok(copy, ",") : NULL; tok; tok = strtok(NULL, ",")) {
        char *end;
        double d = strtod(tok, &end);
        bool decimal = strspn(tok, "0123456789+-.eE") == strlen(tok);
        if (*end || end == tok || !decimal)
            cJSON_AddItemToArray(vals, cJSON_CreateString(tok)); /* typed word (§5) */
        else
            cJSON_AddItemToArray(vals, cJSON_CreateNumber(d));
    }
    free(copy);
    if (slot_out)
        *slot_out = slot;
    return cb;
}

char *tv_job_patch_constants(const char *text, size_t len, const tv_job_short_args *a, char *msg,
                          size_t msgsize)
{
    msg[0] = '\0';
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return NULL; /* the loader reports what is wrong with the file */
    }
    cJSON *consts = cJSON_GetObjectItemCaseSensitive(root, "constants");
    if (!consts)
        consts = cJSON_AddArrayToObject(root, "constants");
    if (!cJSON_IsArray(consts)) {
        cJSON_Delete(root);
        return NULL;
    }
    for (unsigned i = 0; i < a->num_const; i++) {
        unsigned slot;
        cJSON *cb = const_entry(a->consts[i], &slot, msg, msgsize);
        if (!cb) {
            cJSON_Delete(root);
            return NULL;
        }
        /* replace the job's buffer of that slot */
        for (int k = cJSON_GetArraySize(consts) - 1; k >= 0; k--) {
            cJSON *e = cJSON_GetArrayItem(consts, k);
            cJSON *sl = cJSON_GetObjectItemCaseSensitive(e, "slot");
            if (cJSON_IsNumber(sl) && sl->valuedouble == (double)slot)
                cJSON_DeleteItemFromArray(consts, k);
        }
        cJSON_AddItemToArray(consts, cb);
    }
    char *out = cJSON_Print(root);
    cJSON_Delete(root);
    if (!out)
        snprintf(msg, msgsize, "out of memory");
    return out;
}

static bool parse_dims(const char *s, unsigned n_max, double out[3])
{
    out[0] = out[1] = out[2] = 1;
    char *end;
    for (unsigned k = 0; k < n_max; k++) {
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v < 1 || v > 65535)
            return false;
        out[k] = (double)v;
        if (!*end)
            return true;
        if (*end != 'x')
            return false;
        s = end + 1;
    }
    return false;
}

char *tv_job_short_build(const char *tgsi_path, const tv_tgsi_program *prog,
                      const tv_job_short_args *a, char *msg, size_t msgsize)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "texvm_job", 1);
    cJSON *progs = cJSON_AddArrayToObject(root, "programs");
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "stage", prog->processor == TV_TGSI_FRAG   ? "FRAG"
                                        : prog->processor == TV_TGSI_COMP ? "COMP"
                                        : prog->processor == TV_TGSI_VERT ? "VERT"
                                                                          : "GEOM");
    char *tp = input_path(a, tgsi_path);
    cJSON_AddStringToObject(p, "tgsi", tp ? tp : tgsi_path);
    free(tp);
    cJSON_AddItemToArray(progs, p);
    cJSON *outputs = cJSON_CreateArray();
    bool frag = prog->processor == TV_TGSI_FRAG;
    if (frag) {
        double wh[3];
        if (!parse_dims(a->size ? a->size : "256x256", 2, wh)) {
            cJSON_Delete(root);
            cJSON_Delete(outputs);
            return fail(msg, msgsize, "--size %s: expected WxH (1..65535 each)",
                        a->size ? a->size : "");
        }
        if (a->grid || a->block) {
            cJSON_Delete(root);
            cJSON_Delete(outputs);
            return fail(msg, msgsize, "%s: --grid and --block are for COMP programs", tgsi_path);
        }
        cJSON *f = cJSON_AddObjectToObject(root, "frag");
        cJSON_AddNumberToObject(f, "width", wh[0]);
        cJSON_AddNumberToObject(f, "height", wh[1]);
        cJSON *ins = cJSON_AddArrayToObject(f, "inputs");
        for (uint32_t d = 0; d < prog->num_decls; d++) {
            const tv_tgsi_declaration *dc = &prog->decls[d];
            if (dc->file != TV_FILE_IN || is_system_input(dc))
                continue;
            for (int32_t r = dc->first; r <= dc->last && r < 32; r++) {
                cJSON *in = cJSON_CreateObject();
                cJSON_AddNumberToObject(in, "index", r);
                cJSON *vals = cJSON_AddArrayToObject(in, "values");
                cJSON_AddItemToArray(vals, vec4(0, 0, 0, 1));
                cJSON_AddItemToArray(vals, vec4(1, 0, 0, 1));
                cJSON_AddItemToArray(vals, vec4(0, 1, 0, 1));
                cJSON_AddItemToArray(vals, vec4(1, 1, 0, 1));
                cJSON_AddItemToArray(ins, in);
            }
        }
        cJSON *tg = cJSON_AddArrayToObject(f, "targets");
        cJSON *t0 = cJSON_CreateObject();
        cJSON_AddStringToObject(t0, "format", "R8G8B8A8_UNORM");
        cJSON_AddItemToArray(tg, t0);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "target", 0);
        cJSON_AddStringToObject(o, "png", a->out ? a->out : "out.png");
        cJSON_AddItemToArray(outputs, o);
    } else if (prog->processor == TV_TGSI_COMP) {
        double g[3], b[3];
        if (a->size || a->out) {
            cJSON_Delete(root);
            cJSON_Delete(outputs);
            return fail(msg, msgsize, "%s: --size and --out are for FRAG programs", tgsi_path);
        }
        if (!parse_dims(a->grid ? a->grid : "1", 3, g)) {
            cJSON_Delete(root);
            cJSON_Delete(outputs);
            return fail(msg, msgsize, "--grid %s: expected X, XxY or XxYxZ", a->grid);
        }
        cJSON *c = cJSON_AddObjectToObject(root, "comp");
        cJSON_AddItemToObject(c, "grid", cJSON_CreateDoubleArray(g, 3));
        if (a->block) {
            if (!parse_dims(a->block, 3, b)) {
                cJSON_Delete(root);
                cJSON_Delete(outputs);
                return fail(msg, msgsize, "--block %s: expected X, XxY or XxYxZ", a->block);
            }
            cJSON_AddItemToObject(c, "block", cJSON_CreateDoubleArray(b, 3));
        }
    } else {
        cJSON_Delete(root);
        cJSON_Delete(outputs);
        return fail(msg, msgsize,
                    "%s: short forms run FRAG and COMP programs; write a job file for VERT and "
                    "GEOM (docs/jobs.md)",
                    tgsi_path);
    }
    cJSON *textures = cJSON_CreateArray(), *samplers = cJSON_CreateArray(),
          *units = cJSON_CreateArray();
    bool ok = true;
    for (unsigned i = 0; i < a->num_tex && ok; i++) {
        unsigned slot;
        const char *what;
        if (!slot_arg(a->tex[i], &slot, &what, 128) || !*what) {
            fail(msg, msgsize, "--tex %s: expected N=FILE.png or N=pattern:NAME[:SIZE]",
                 a->tex[i]);
            ok = false;
        } else {
            ok = add_texture(textures, samplers, units, slot, what, a, msg, msgsize);
        }
    }
    cJSON *consts = cJSON_CreateArray();
    for (unsigned i = 0; i < a->num_const && ok; i++) {
        cJSON *cb = const_entry(a->consts[i], NULL, msg, msgsize);
        if (!cb) {
            ok = false;
            break;
        }
        cJSON_AddItemToArray(consts, cb);
    }
    cJSON *buffers = cJSON_CreateArray();
    for (unsigned i = 0; i < a->num_buffer && ok; i++) {
        unsigned slot;
        const char *size;
        char *end;
        unsigned long n = 0;
        if (!slot_arg(a->buffers[i], &slot, &size, 32) || (n = strtoul(size, &end, 10)) == 0 ||
            *end || n > (1ul << 30)) {
            fail(msg, msgsize, "--buffer %s: expected N=SIZE (bytes, 1..2^30)", a->buffers[i]);
            ok = false;
            break;
        }
        cJSON *b = cJSON_CreateObject();
        char name[32], file[48];
        snprintf(name, sizeof name, "buffer%u", slot);
        snprintf(file, sizeof file, "buffer%u.txt", slot);
        cJSON_AddStringToObject(b, "name", name);
        cJSON_AddNumberToObject(b, "slot", slot);
        cJSON_AddNumberToObject(b, "size", (double)n);
        cJSON_AddItemToArray(buffers, b);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "buffer", name);
        cJSON_AddStringToObject(o, "dump", file);
        cJSON_AddItemToArray(outputs, o);
    }
    cJSON_AddItemToObject(root, "constants", consts);
    cJSON_AddItemToObject(root, "textures", textures);
    cJSON_AddItemToObject(root, "samplers", samplers);
    cJSON *bind = cJSON_AddObjectToObject(root, "bindings");
    cJSON_AddItemToObject(bind, "units", units);
    cJSON_AddItemToObject(root, "buffers", buffers);
    cJSON_AddItemToObject(root, "outputs", outputs);
    char *text = ok ? cJSON_Print(root) : NULL;
    if (ok && !text)
        snprintf(msg, msgsize, "out of memory");
    cJSON_Delete(root);
    return text;
}
