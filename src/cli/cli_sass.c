/* texvm sass SCRIPT: set up pools, textures, samplers, handles and registers, run SASS
 * texture instructions on a warp, print what each instruction wrote. The script format
 * is documented in docs/sass.md ("The texvm sass script"). Public API only. */
#include "cli.h"
#include "job_suggest.h"
#include "texvm/sass.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MEM_BASE 0x100000ull
#define MEM_SIZE (32u << 20)
#define POOL_ENTRIES 1024u
#define HDR_POOL MEM_BASE
#define SMP_POOL (MEM_BASE + 32u * POOL_ENTRIES)
#define DATA (MEM_BASE + 64u * POOL_ENTRIES)

typedef struct script {
    const char *path;
    unsigned line;
    tv_memory *mem;
    tv_tex_unit *unit;
    tv_sass_warp *w;
    uint8_t *host;
    uint64_t next;
    tv_tic tic[POOL_ENTRIES];
    bool have_tic[POOL_ENTRIES];
    uint32_t before[TV_SASS_NUM_REGS][TV_SASS_LANES];
    int faults;
} script;

/* A piece of the script for a message: at most 40 bytes (then "..."), as TGSI messages
 * quote; a control or non-ASCII byte shown as "byte 0xNN". */
static const char *quote(const char *arg, char buf[128])
{
    size_t k = 0, i = 0;
    for (; arg[i] && i < 40; i++) {
        unsigned char ch = (unsigned char)arg[i];
        if (ch < 0x20 || ch >= 0x7f)
            k += (size_t)snprintf(buf + k, 128 - k, "[byte 0x%02x]", ch);
        else
            buf[k++] = (char)ch;
    }
    snprintf(buf + k, 128 - k, "%s", arg[i] ? "..." : "");
    return buf;
}

static int fail(script *s, const char *msg, const char *arg)
{
    char q[128];
    fprintf(stderr, "%s:%u: %s%s%s\n", s->path, s->line, msg, arg ? ": " : "",
            arg ? quote(arg, q) : "");
    return CLI_EXIT_INVALID;
}

/* ---- small parsers --------------------------------------------------------------------- */
static bool parse_u64(const char *t, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(t, &end, 0);
    if (errno || end == t || *end || t[0] == '-')
        return false;
    *v = x;
    return true;
}

static bool parse_u32(const char *t, uint32_t *v)
{
    uint64_t x;
    if (!parse_u64(t, &x) || x > 0xffffffffull)
        return false;
    *v = (uint32_t)x;
    return true;
}

/* A register value: 0x… / decimal integer (negative allowed), or a float written with a
 * '.', an exponent or an 'f' suffix (1.5, 2e-3, 1f). */
static bool parse_value(const char *t, uint32_t *v)
{
    bool is_float = strchr(t, '.') || (!strstr(t, "0x") && !strstr(t, "0X") &&
                                       (strchr(t, 'e') || strchr(t, 'E'))) ||
                    (t[0] && (t[strlen(t) - 1] == 'f' || t[strlen(t) - 1] == 'F') &&
                     !strstr(t, "0x") && !strstr(t, "0X"));
    char *end;
    errno = 0;
    if (is_float) {
        float f = strtof(t, &end);
        if (*end == 'f' || *end == 'F')
            end++;
        if (end == t || *end || errno)
            return false;
        memcpy(v, &f, 4);
        return true;
    }
    if (t[0] == '-') {
        long long x = strtoll(t, &end, 0);
        if (end == t || *end || errno || x < INT32_MIN)
            return false;
        *v = (uint32_t)(int32_t)x;
        return true;
    }
    return parse_u32(t, v);
}

static unsigned split(char *line, char **tok, unsigned max)
{
    unsigned n = 0;
    for (char *p = strtok(line, " \t\r\n"); p && n < max; p = strtok(NULL, " \t\r\n"))
        tok[n++] = p;
    return n;
}

/* key=value option among tokens; NULL when absent. */
static const char *opt(char **tok, unsigned n, const char *key)
{
    size_t k = strlen(key);
    for (unsigned i = 0; i < n; i++)
        if (!strncmp(tok[i], key, k) && tok[i][k] == '=')
            return tok[i] + k + 1;
    return NULL;
}

/* The KEY=VALUE options of each script command (docs/sass.md): any other key is an error. */
static const struct {
    const char *cmd;
    const char *opts[12];
} cmd_options[] = {
    {"texture", {"levels", "samples", "view", "fill"}},
    {"sampler", {"mag", "min", "mip", "wrap", "compare", "aniso", "bias", "minlod", "maxlod",
                 "border"}},
    {"pools", {"header_max", "sampler_max", "bank", "header_binding"}},
};

static int fail(script *s, const char *msg, const char *arg);
static const char *quote(const char *arg, char buf[128]);

/* Every KEY=VALUE token of command TOK[0] names an option of the command. */
static int check_options(script *s, char **tok, unsigned n)
{
    for (size_t c = 0; c < sizeof cmd_options / sizeof cmd_options[0]; c++) {
        if (strcmp(cmd_options[c].cmd, tok[0]))
            continue;
        for (unsigned i = 1; i < n; i++) {
            const char *eq = strchr(tok[i], '=');
            if (!eq)
                continue;
            size_t kl = (size_t)(eq - tok[i]);
            bool known = false;
            for (unsigned k = 0; cmd_options[c].opts[k] && !known; k++)
                known = strlen(cmd_options[c].opts[k]) == kl &&
                        !strncmp(cmd_options[c].opts[k], tok[i], kl);
            if (!known) {
                char msg[400], q[128];
                size_t m = (size_t)snprintf(msg, sizeof msg, "unknown option \"%.*s\" of %s (allowed: ",
                                            (int)(kl < 40 ? kl : 40), quote(tok[i], q), tok[0]);
                for (unsigned k = 0; cmd_options[c].opts[k] && m < sizeof msg; k++)
                    m += (size_t)snprintf(msg + m, sizeof msg - m, "%s%s", k ? ", " : "",
                                          cmd_options[c].opts[k]);
                if (m < sizeof msg)
                    snprintf(msg + m, sizeof msg - m, ")");
                return fail(s, msg, NULL);
            }
        }
    }
    return 0;
}

/* VALUE must be one of NAMES (a NULL-terminated list): its index, else -1 after a message. */
static int enum_value(script *s, const char *key, const char *v, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], v))
            return i;
    char msg[300], q[128];
    size_t m = (size_t)snprintf(msg, sizeof msg, "bad value \"%s\" for %s (allowed: ",
                                quote(v, q), key);
    for (int i = 0; names[i] && m < sizeof msg; i++)
        m += (size_t)snprintf(msg + m, sizeof msg - m, "%s%s", i ? ", " : "", names[i]);
    if (m < sizeof msg)
        snprintf(msg + m, sizeof msg - m, ")");
    fail(s, msg, NULL);
    return -1;
}

/* A strict number for KEY: false after a message. */
static bool float_value(script *s, const char *key, const char *v, float *out)
{
    char *end;
    errno = 0;
    float f = strtof(v, &end);
    if (!*v || *end || errno || f != f) {
        char msg[300], q[128];
        snprintf(msg, sizeof msg, "bad value \"%s\" for %s (expected a number)", quote(v, q),
                 key);
        fail(s, msg, NULL);
        return false;
    }
    *out = f;
    return true;
}

static int name_index(const char *const *names, unsigned n, const char *t)
{
    for (unsigned i = 0; i < n; i++)
        if (names[i] && !strcmp(names[i], t))
            return (int)i;
    return -1;
}

static const char *const type_names[] = {"1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY",
                                         "1D_BUFFER", "2D_NO_MIPMAP", "CUBE_ARRAY"};
static const char *const wrap_names[] = {"repeat", "mirror", "clamp_to_edge", "border",
                                         "clamp", "mirror_once_clamp_to_edge",
                                         "mirror_once_border", "mirror_once_clamp"};
static const char *const cmp_names[] = {"never", "less", "equal", "lequal", "greater",
                                        "notequal", "gequal", "always"};

/* ---- commands -------------------------------------------------------------------------- */
static unsigned layers_of(const tv_tic *t)
{
    switch (t->texture_type) {
    case TV_TEX_1D_ARRAY: case TV_TEX_2D_ARRAY: return t->depth_minus_one + 1u;
    case TV_TEX_CUBE: return 6;
    case TV_TEX_CUBE_ARRAY: return 6u * (t->depth_minus_one + 1u);
    case TV_TEX_3D: return t->depth_minus_one + 1u;
    default: return 1;
    }
}

static void fill_coords(script *s, const tv_tic *t)
{
    tv_format f = tv_format_from_tic(t);
    const tv_format_info *fi = tv_format_get(f);
    if (!fi || fi->block_w != 1)
        return;
    bool is_int = fi->kind == TV_FMT_KIND_SINT || fi->kind == TV_FMT_KIND_UINT;
    static const unsigned grid[16] = {1, 2, 4, 8, 8, 2, 16, 1, 4, 4, 8, 8, 2, 4, 8, 16};
    unsigned samples = grid[t->multi_sample_count & 15];
    unsigned w = t->width_minus_one + 1u;
    unsigned h = t->texture_type == TV_TEX_1D || t->texture_type == TV_TEX_1D_ARRAY ||
                         t->texture_type == TV_TEX_1D_BUFFER ? 1 : t->height_minus_one + 1u;
    unsigned levels = t->texture_type == TV_TEX_1D_BUFFER ? 1 : t->max_mip_level + 1u;
    for (unsigned l = 0; l < levels; l++) {
        unsigned lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        unsigned lz = layers_of(t);
        if (t->texture_type == TV_TEX_3D)
            lz = lz >> l ? lz >> l : 1;
        for (unsigned z = 0; z < lz; z++)
            for (unsigned y = 0; y < lh; y++)
                for (unsigned x = 0; x < lw && x < 65536; x++)
                    for (unsigned sm = 0; sm < samples; sm++) {
                        float fv[4] = {(float)x, (float)y, (float)z, (float)(l + 10 * sm)};
                        uint32_t in[4];
                        for (unsigned c = 0; c < 4; c++) {
                            if (is_int)
                                in[c] = (uint32_t)fv[c];
                            else
                                memcpy(&in[c], &fv[c], 4);
                        }
                        uint8_t texel[32];
                        if (tv_format_pack(f, in, texel))
                            tv_memory_write(s->mem, tv_tic_texel_address(t, l, x, y, z, sm),
                                            texel, fi->block_bytes);
                    }
    }
}

/* texture IDX FORMAT TYPE W [H [D]] [levels=N] [samples=CODE] [view=MIN:MAX] [fill=coords] */
static int cmd_texture(script *s, char **tok, unsigned n)
{
    uint32_t idx, dims[3] = {1, 1, 1};
    if (n < 5 || !parse_u32(tok[1], &idx) || idx >= POOL_ENTRIES)
        return fail(s, "usage: texture IDX FORMAT TYPE W [H [D]] [options]", NULL);
    tv_format f = tv_format_from_name(tok[2]);
    if (f == TV_FORMAT_NONE) {
        char near[400], msg[440];
        const char *sug = job_suggest_format(tok[2], near, sizeof near);
        if (!sug)
            return fail(s, "unknown format", tok[2]);
        char q[128];
        snprintf(msg, sizeof msg, "unknown format \"%s\" (did you mean %s?)", quote(tok[2], q),
                 sug);
        return fail(s, msg, NULL);
    }
    int type = name_index(type_names, 9, tok[3]);
    if (type < 0)
        return fail(s, "unknown texture type (1D, 2D, 3D, CUBE, 1D_ARRAY, 2D_ARRAY, "
                       "1D_BUFFER, 2D_NO_MIPMAP, CUBE_ARRAY)", tok[3]);
    unsigned nd = 0;
    for (unsigned i = 4; i < n && nd < 3 && !strchr(tok[i], '='); i++)
        if (!parse_u32(tok[i], &dims[nd++]) || dims[nd - 1] == 0 || dims[nd - 1] > 65536)
            return fail(s, "bad size", tok[i]);
    tv_tic t;
    memset(&t, 0, sizeof t);
    tv_error err;
    if (tv_tic_from_format(&t, f, &err)) {
        cli_print_error(&err);
        return CLI_EXIT_INVALID;
    }
    const char *v;
    uint32_t levels = 1, ms = 0;
    if ((v = opt(tok, n, "levels")) && (!parse_u32(v, &levels) || !levels || levels > 16))
        return fail(s, "levels must be 1..16", v);
    {
        uint32_t big = dims[0] > dims[1] ? dims[0] : dims[1], most = 1;
        if (type == TV_TEX_3D && dims[2] > big)
            big = dims[2];
        while (big >>= 1)
            most++;
        if (levels > most) {
            char msg[200];
            snprintf(msg, sizeof msg, "levels=%u is more than a %ux%u texture has (at most %u)",
                     levels, dims[0], dims[1], most);
            return fail(s, msg, NULL);
        }
    }
    if ((v = opt(tok, n, "samples")) && (!parse_u32(v, &ms) || ms > 15))
        return fail(s, "samples is a MULTI_SAMPLE_COUNT code 0..15", v);
    t.header_version = type == TV_TEX_1D_BUFFER ? TV_TIC_ONE_D_BUFFER : TV_TIC_BLOCKLINEAR;
    t.texture_type = (uint8_t)type;
    t.width_minus_one = dims[0] - 1;
    t.height_minus_one = (uint16_t)(dims[1] - 1);
    t.depth_minus_one = (uint16_t)(dims[2] - 1);
    t.max_mip_level = (uint8_t)(levels - 1);
    t.res_view_max_mip_level = (uint8_t)(levels - 1);
    t.multi_sample_count = (uint8_t)ms;
    t.normalized_coords = type != TV_TEX_1D_BUFFER;
    t.border_size = 7;
    if ((v = opt(tok, n, "view"))) {
        unsigned lo, hi;
        if (sscanf(v, "%u:%u", &lo, &hi) != 2 || lo > 15 || hi > 15)
            return fail(s, "view=MIN:MAX", v);
        t.res_view_min_mip_level = (uint8_t)lo;
        t.res_view_max_mip_level = (uint8_t)hi;
    }
    uint64_t size = tv_tic_size_bytes(&t);
    if (size > MEM_BASE + MEM_SIZE - s->next)
        return fail(s, "texture does not fit in the script's memory", NULL);
    t.address = s->next;
    s->next += (size + 1023u) & ~511ull;
    uint32_t raw[8];
    tv_tic_encode(&t, raw);
    tv_memory_write(s->mem, HDR_POOL + 32ull * idx, raw, 32);
    s->tic[idx] = t;
    s->have_tic[idx] = true;
    if ((v = opt(tok, n, "fill")) && strcmp(v, "coords") && strcmp(v, "zero"))
        return fail(s, "fill=coords or fill=zero", v);
    if (v && !strcmp(v, "coords"))
        fill_coords(s, &t);
    tv_tex_invalidate(s->unit);
    return 0;
}

/* texel IDX LEVEL X Y Z|LAYER SAMPLE V0 V1 V2 V3 */
static int cmd_texel(script *s, char **tok, unsigned n)
{
    uint32_t a[6], vals[4];
    if (n != 11)
        return fail(s, "usage: texel IDX LEVEL X Y Z SAMPLE V0 V1 V2 V3", NULL);
    for (unsigned i = 0; i < 6; i++)
        if (!parse_u32(tok[1 + i], &a[i]))
            return fail(s, "bad number", tok[1 + i]);
    for (unsigned i = 0; i < 4; i++)
        if (!parse_value(tok[7 + i], &vals[i]))
            return fail(s, "bad value", tok[7 + i]);
    if (a[0] >= POOL_ENTRIES || !s->have_tic[a[0]])
        return fail(s, "no such texture", tok[1]);
    const tv_tic *t = &s->tic[a[0]];
    tv_format f = tv_format_from_tic(t);
    const tv_format_info *fi = tv_format_get(f);
    uint8_t texel[32];
    if (!fi || !tv_format_pack(f, vals, texel))
        return fail(s, "cannot write texels of this format", NULL);
    if (a[1] > t->max_mip_level || a[2] > t->width_minus_one || a[3] > t->height_minus_one ||
        a[4] >= layers_of(t))
        return fail(s, "texel outside the texture", NULL);
    tv_memory_write(s->mem, tv_tic_texel_address(t, a[1], a[2], a[3], a[4], a[5]), texel,
                    fi->block_bytes);
    tv_tex_invalidate(s->unit);
    return 0;
}

/* sampler IDX [mag=] [min=] [mip=] [wrap=] [compare=] [aniso=] [bias=] [minlod=] [maxlod=]
 *         [border=R,G,B,A] */
static int cmd_sampler(script *s, char **tok, unsigned n)
{
    uint32_t idx;
    if (n < 2 || !parse_u32(tok[1], &idx) || idx >= POOL_ENTRIES)
        return fail(s, "usage: sampler IDX [options]", NULL);
    tv_tsc t;
    memset(&t, 0, sizeof t);
    t.mag_filter = TV_MAG_POINT;
    t.min_filter = TV_MIN_POINT;
    t.mip_filter = TV_MIP_POINT;
    t.address_u = t.address_v = t.address_p = TV_WRAP_CLAMP_TO_EDGE;
    t.max_lod_clamp = 0xfff;
    const char *v;
    static const char *const mags[] = {"point", "linear", NULL};
    static const char *const mins[] = {"point", "linear", "aniso", NULL};
    static const char *const mips[] = {"none", "point", "linear", NULL};
    int e;
    if ((v = opt(tok, n, "mag"))) {
        if ((e = enum_value(s, "mag", v, mags)) < 0)
            return CLI_EXIT_INVALID;
        t.mag_filter = e == 1 ? TV_MAG_LINEAR : TV_MAG_POINT;
    }
    if ((v = opt(tok, n, "min"))) {
        if ((e = enum_value(s, "min", v, mins)) < 0)
            return CLI_EXIT_INVALID;
        t.min_filter = e == 1 ? TV_MIN_LINEAR : e == 2 ? TV_MIN_ANISO : TV_MIN_POINT;
    }
    if ((v = opt(tok, n, "mip"))) {
        if ((e = enum_value(s, "mip", v, mips)) < 0)
            return CLI_EXIT_INVALID;
        t.mip_filter = e == 2 ? TV_MIP_LINEAR : e == 0 ? TV_MIP_NONE : TV_MIP_POINT;
    }
    if ((v = opt(tok, n, "wrap"))) {
        int m = name_index(wrap_names, 8, v);
        if (m < 0)
            return fail(s, "unknown wrap mode", v);
        t.address_u = t.address_v = t.address_p = (uint8_t)m;
    }
    if ((v = opt(tok, n, "compare"))) {
        int m = name_index(cmp_names, 8, v);
        if (m < 0)
            return fail(s, "unknown compare function", v);
        t.depth_compare = true;
        t.depth_compare_func = (uint8_t)m;
    }
    if ((v = opt(tok, n, "aniso"))) {
        static const char *const an[] = {"1", "2", "4", "6", "8", "10", "12", "16"};
        int m = name_index(an, 8, v);
        if (m < 0)
            return fail(s, "aniso is 1, 2, 4, 6, 8, 10, 12 or 16", v);
        t.max_anisotropy = (uint8_t)m;
    }
    float fv;
    if ((v = opt(tok, n, "bias"))) {
        if (!float_value(s, "bias", v, &fv))
            return CLI_EXIT_INVALID;
        t.mip_lod_bias = tv_float_to_fixed_s5_8(fv);
    }
    if ((v = opt(tok, n, "minlod"))) {
        if (!float_value(s, "minlod", v, &fv))
            return CLI_EXIT_INVALID;
        t.min_lod_clamp = tv_float_to_fixed_u4_8(fv);
    }
    if ((v = opt(tok, n, "maxlod"))) {
        if (!float_value(s, "maxlod", v, &fv))
            return CLI_EXIT_INVALID;
        t.max_lod_clamp = tv_float_to_fixed_u4_8(fv);
    }
    if ((v = opt(tok, n, "border"))) {
        float c[4];
        if (sscanf(v, "%f,%f,%f,%f", &c[0], &c[1], &c[2], &c[3]) != 4)
            return fail(s, "border=R,G,B,A", v);
        memcpy(t.border_color, c, sizeof c);
    }
    uint32_t raw[8];
    tv_tsc_encode(&t, raw);
    tv_memory_write(s->mem, SMP_POOL + 32ull * idx, raw, 32);
    tv_tex_invalidate(s->unit);
    return 0;
}

/* pools [header_max=N] [sampler_max=N] [bank=N] [header_binding=on|off] */
static int cmd_pools(script *s, char **tok, unsigned n)
{
    tv_sass_binding b;
    tv_sass_get_binding(s->w, &b);
    const char *v;
    if ((v = opt(tok, n, "header_max")) && (!parse_u32(v, &b.header_max) ||
                                            b.header_max >= POOL_ENTRIES))
        return fail(s, "header_max must be below 1024", v);
    if ((v = opt(tok, n, "sampler_max")) && (!parse_u32(v, &b.sampler_max) ||
                                             b.sampler_max >= POOL_ENTRIES))
        return fail(s, "sampler_max must be below 1024", v);
    if ((v = opt(tok, n, "bank")) && !parse_u32(v, &b.handle_bank))
        return fail(s, "bad bank", v);
    if ((v = opt(tok, n, "header_binding")))
        b.header_binding = !strcmp(v, "on");
    tv_error err;
    if (tv_sass_set_binding(s->w, &b, &err)) {
        cli_print_error(&err);
        return CLI_EXIT_INVALID;
    }
    return 0;
}

/* bind TID HEADER [SAMPLER]: c[handle bank][TID*4] = SAMPLER << 20 | HEADER */
static int cmd_bind(script *s, char **tok, unsigned n)
{
    uint32_t tid, hdr, smp = 0;
    if ((n != 3 && n != 4) || !parse_u32(tok[1], &tid) || tid > 0x1fff ||
        !parse_u32(tok[2], &hdr) || hdr > 0xfffff || (n == 4 && (!parse_u32(tok[3], &smp) ||
                                                                   smp > 0xfff)))
        return fail(s, "usage: bind TID(0..0x1fff) HEADER [SAMPLER]", NULL);
    tv_sass_binding b;
    tv_sass_get_binding(s->w, &b);
    uint32_t h = tv_tex_handle(hdr, smp);
    tv_error err;
    if (tv_sass_cbank_write(s->w, b.handle_bank, tid * 4u, &h, 4, &err))
        return fail(s, err.message, NULL); /* SCRIPT:LINE: like every script error */
    return 0;
}

/* cbank BANK OFFSET VALUE... (32-bit words) */
static int cmd_cbank(script *s, char **tok, unsigned n)
{
    uint32_t bank, off, v;
    if (n < 4 || !parse_u32(tok[1], &bank) || !parse_u32(tok[2], &off))
        return fail(s, "usage: cbank BANK OFFSET VALUE...", NULL);
    for (unsigned i = 3; i < n; i++) {
        if (!parse_value(tok[i], &v))
            return fail(s, "bad value", tok[i]);
        tv_error err;
        uint64_t at = (uint64_t)off + 4u * (i - 3);
        if (at > UINT32_MAX) /* no wrap-around to the start of the bank */
            return fail(s, "offset past 4 GiB", tok[i]);
        if (tv_sass_cbank_write(s->w, bank, (uint32_t)at, &v, 4, &err))
            return fail(s, err.message, NULL); /* SCRIPT:LINE: like every script error */
    }
    return 0;
}

/* reg RN VALUE | reg RN VALUE0 ... VALUE31 | reg RN[LANE] VALUE */
static int cmd_reg(script *s, char **tok, unsigned n)
{
    unsigned r = 0, lane = 32;
    const char *p = n >= 2 ? tok[1] : "";
    bool ok = p[0] == 'R' && isdigit((unsigned char)p[1]);
    char *end = NULL;
    if (ok) {
        r = (unsigned)strtoul(p + 1, &end, 10);
        if (*end == '[') {
            lane = (unsigned)strtoul(end + 1, &end, 10);
            ok = *end == ']' && end[1] == '\0' && lane < 32;
        } else {
            ok = *end == '\0';
        }
    }
    if (ok && r > 254) {
        char msg[160];
        snprintf(msg, sizeof msg, "register R%u is out of range (R0..R254; RZ is R255)", r);
        return fail(s, msg, NULL);
    }
    if (!ok && n >= 2) {
        char msg[200], q[128];
        snprintf(msg, sizeof msg, "bad register \"%s\" (expected RN or RN[LANE], lane 0..31)",
                 quote(tok[1], q));
        return fail(s, msg, NULL);
    }
    if (!ok || (n != 3 && n != 34) || (lane != 32 && n != 3))
        return fail(s, "usage: reg RN VALUE | reg RN V0 .. V31 | reg RN[LANE] VALUE", NULL);
    for (unsigned i = 2; i < n; i++) {
        uint32_t v;
        if (!parse_value(tok[i], &v))
            return fail(s, "bad value", tok[i]);
        if (n == 34)
            tv_sass_set_reg(s->w, r, i - 2, v);
        else if (lane < 32)
            tv_sass_set_reg(s->w, r, lane, v);
        else
            tv_sass_set_reg_all(s->w, r, v);
    }
    return 0;
}

static int cmd_mask(script *s, char **tok, unsigned n, bool pred)
{
    uint32_t p = 0, m;
    if (pred) {
        if (n != 3 || sscanf(tok[1], "P%u", &p) != 1 || p > 6 || !parse_u32(tok[2], &m))
            return fail(s, "usage: pred PN LANEMASK", NULL);
        tv_sass_set_pred(s->w, p, m);
    } else {
        if (n != 2 || !parse_u32(tok[1], &m))
            return fail(s, "usage: active LANEMASK", NULL);
        tv_sass_set_active(s->w, m);
    }
    return 0;
}

/* ---- instructions ---------------------------------------------------------------------- */
/* Hex, then the float reading when the bits look like a normal float, else the integer. */
static void print_value(uint32_t v)
{
    float f;
    memcpy(&f, &v, 4);
    unsigned e = (v >> 23) & 0xffu;
    if (e == 0 || e == 255)
        printf("0x%08x (%u)", v, v);
    else
        printf("0x%08x (%g)", v, (double)f);
}

static void report(script *s)
{
    uint64_t writes[4];
    uint32_t pw;
    tv_sass_last_access(s->w, NULL, writes, &pw);
    for (unsigned r = 0; r < TV_SASS_NUM_REGS; r++) {
        if (!((writes[r / 64] >> (r % 64)) & 1u))
            continue;
        uint32_t v0 = tv_sass_get_reg(s->w, r, 0);
        bool uniform = true;
        for (unsigned l = 1; l < TV_SASS_LANES; l++)
            uniform = uniform && tv_sass_get_reg(s->w, r, l) == v0;
        if (uniform) {
            printf("  R%u = ", r);
            print_value(v0);
            printf("\n");
            continue;
        }
        printf("  R%u:", r);
        for (unsigned l = 0; l < TV_SASS_LANES; l++) {
            uint32_t v = tv_sass_get_reg(s->w, r, l);
            if (v != s->before[r][l])
                printf(" [%u]=0x%08x", l, v);
        }
        printf("\n");
    }
    for (unsigned p = 0; p < TV_SASS_NUM_PREDS; p++)
        if ((pw >> p) & 1u)
            printf("  P%u = 0x%08x\n", p, tv_sass_get_pred(s->w, p));
}

static int run_insn(script *s, const char *text, bool is_word, uint64_t word, uint32_t ctrl)
{
    for (unsigned r = 0; r < TV_SASS_NUM_REGS; r++)
        for (unsigned l = 0; l < TV_SASS_LANES; l++)
            s->before[r][l] = tv_sass_get_reg(s->w, r, l);
    tv_sass_insn in;
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_status st = is_word ? tv_sass_decode(word, ctrl, &in, &err)
                           : tv_sass_parse(text, &in, &err);
    char buf[256];
    if (st == TV_OK) {
        tv_sass_print(&in, buf, sizeof buf);
        printf("%s\n", buf);
        st = tv_sass_exec(s->w, &in, &err);
    } else {
        printf("%s\n", is_word ? "(undecodable word)" : text);
    }
    if (st) {
        fprintf(stderr, "%s:%u: %s: %s\n", s->path, s->line, tv_status_name(st), err.message);
        printf("  error: %s\n", err.message);
        s->faults++;
        return 0;
    }
    report(s);
    return 0;
}

static int run_line(script *s, char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return 0;
    /* an instruction: starts with '@' or with an opcode name */
    static const char *const ops[] = {"TEX", "TEXS", "TLD", "TLDS", "TLD4", "TLD4S", "TMML",
                                      "TXQ", "TXD"};
    size_t k = 0;
    while (isalnum((unsigned char)p[k]))
        k++;
    bool insn = *p == '@';
    for (unsigned i = 0; i < 9 && !insn; i++)
        insn = strlen(ops[i]) == k && !strncmp(p, ops[i], k);
    if (insn)
        return run_insn(s, p, false, 0, 0);
    char *tok[40] = {NULL};
    unsigned n = split(p, tok, 40);
    int orc = n ? check_options(s, tok, n) : 0;
    if (orc)
        return orc;
    if (!strcmp(tok[0], "texture")) return cmd_texture(s, tok, n);
    if (!strcmp(tok[0], "texel")) return cmd_texel(s, tok, n);
    if (!strcmp(tok[0], "sampler")) return cmd_sampler(s, tok, n);
    if (!strcmp(tok[0], "pools")) return cmd_pools(s, tok, n);
    if (!strcmp(tok[0], "bind")) return cmd_bind(s, tok, n);
    if (!strcmp(tok[0], "cbank")) return cmd_cbank(s, tok, n);
    if (!strcmp(tok[0], "reg")) return cmd_reg(s, tok, n);
    if (!strcmp(tok[0], "pred")) return cmd_mask(s, tok, n, true);
    if (!strcmp(tok[0], "active")) return cmd_mask(s, tok, n, false);
    if (!strcmp(tok[0], "precision")) {
        if (n != 2 || (strcmp(tok[1], "reference") && strcmp(tok[1], "hardware")))
            return fail(s, "usage: precision reference|hardware", NULL);
        tv_tex_set_precision(s->unit, !strcmp(tok[1], "hardware") ? TV_TEX_PRECISION_HARDWARE
                                                                  : TV_TEX_PRECISION_REFERENCE);
        return 0;
    }
    if (!strcmp(tok[0], "word")) {
        uint64_t w;
        uint32_t c = 0;
        if ((n != 2 && n != 3) || !parse_u64(tok[1], &w) || (n == 3 && !parse_u32(tok[2], &c)))
            return fail(s, "usage: word 0xWORD [0xCTRL]", NULL);
        return run_insn(s, NULL, true, w, c);
    }
    return fail(s, "unknown command", tok[0]);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: texvm sass SCRIPT\n\n"
               "Runs a script of SASS texture instructions on one 32-lane warp and prints,\n"
               "after each instruction, the registers and predicates it wrote.\n"
               "Commands: texture, texel, sampler, pools, bind, cbank, reg, pred, active,\n"
               "precision, word, and instruction lines (see docs/sass.md).\n");
}

int cli_sass(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (argc != 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    size_t len;
    char *text = cli_read_input(argv[1], &len);
    if (!text)
        return cli_last_read_status;
    script *s = calloc(1, sizeof *s);
    int rc = CLI_EXIT_IO;
    if (!s)
        goto out;
    s->path = argv[1];
    s->host = calloc(1, MEM_SIZE);
    s->mem = tv_memory_create();
    tv_error err;
    if (!s->host || !s->mem || tv_memory_map(s->mem, MEM_BASE, s->host, MEM_SIZE, &err))
        goto out;
    s->unit = tv_tex_create(s->mem);
    s->w = s->unit ? tv_sass_warp_create(s->unit, &err) : NULL;
    if (!s->w)
        goto out;
    tv_sass_binding b = {HDR_POOL, 255, SMP_POOL, 255, false, 0};
    tv_sass_set_binding(s->w, &b, &err);
    s->next = DATA;
    rc = CLI_EXIT_OK;
    char *line = text;
    while (line && rc == CLI_EXIT_OK) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        s->line++;
        rc = run_line(s, line);
        line = nl ? nl + 1 : NULL;
    }
    if (rc == CLI_EXIT_OK && s->faults)
        rc = CLI_EXIT_INVALID;
out:
    if (s) {
        tv_sass_warp_destroy(s->w);
        tv_tex_destroy(s->unit);
        tv_memory_destroy(s->mem);
        free(s->host);
        free(s);
    }
    free(text);
    return rc;
}
