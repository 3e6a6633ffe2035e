/* The table of `texvm sass` script commands and options: parsing, checking, --help and
 * docs/sass.md's command table all come from here (tests/sass/test_cli.c compares the docs
 * with --help). */
#include "sass_script.h"

#include <string.h>

static const char *const fills[] = {"zero", "coords", NULL};
static const char *const mags[] = {"point", "linear", NULL};
static const char *const mins[] = {"point", "linear", "aniso", NULL};
static const char *const mips[] = {"none", "point", "linear", NULL};
/* In TSC address-mode code order (sampling.md §3). */
static const char *const wraps[] = {"repeat", "mirror", "clamp_to_edge", "border", "clamp",
                                    "mirror_once_clamp_to_edge", "mirror_once_border",
                                    "mirror_once_clamp", NULL};
/* In TSC depth-compare code order. */
static const char *const compares[] = {"never", "less", "equal", "lequal", "greater",
                                       "notequal", "gequal", "always", NULL};
/* In TSC MAX_ANISOTROPY code order. */
static const char *const anisos[] = {"1", "2", "4", "6", "8", "10", "12", "16", NULL};
static const char *const on_off[] = {"off", "on", NULL};

static const script_opt texture_opts[] = {
    {"levels", SO_UINT, NULL, 1, 16, "N"},
    {"samples", SO_UINT, NULL, 0, 15, "CODE"},
    {"view", SO_RANGE, NULL, 0, 15, "MIN:MAX"},
    {"fill", SO_ENUM, fills, 0, 0, NULL},
    {NULL, SO_UINT, NULL, 0, 0, NULL},
};

static const script_opt sampler_opts[] = {
    {"mag", SO_ENUM, mags, 0, 0, NULL},
    {"min", SO_ENUM, mins, 0, 0, NULL},
    {"mip", SO_ENUM, mips, 0, 0, NULL},
    {"wrap", SO_ENUM, wraps, 0, 0, NULL},
    {"compare", SO_ENUM, compares, 0, 0, NULL},
    {"aniso", SO_ENUM, anisos, 0, 0, NULL},
    {"bias", SO_FLOAT, NULL, 0, 0, "F"},
    {"minlod", SO_FLOAT, NULL, 0, 0, "F"},
    {"maxlod", SO_FLOAT, NULL, 0, 0, "F"},
    {"border", SO_FLOAT4, NULL, 0, 0, "R,G,B,A"},
    {NULL, SO_UINT, NULL, 0, 0, NULL},
};

static const script_opt pools_opts[] = {
    {"header_max", SO_UINT, NULL, 0, SCRIPT_POOL_ENTRIES - 1, "N"},
    {"sampler_max", SO_UINT, NULL, 0, SCRIPT_POOL_ENTRIES - 1, "N"},
    {"bank", SO_UINT, NULL, 0, 17, "N"},
    {"header_binding", SO_ENUM, on_off, 0, 0, NULL},
    {NULL, SO_UINT, NULL, 0, 0, NULL},
};

/* In TIC TEXTURE_TYPE code order. */
const char *const script_texture_types[] = {"1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY",
                                            "1D_BUFFER", "2D_NO_MIPMAP", "CUBE_ARRAY", NULL};

static const script_cmd commands[] = {
    {"texture", "IDX FORMAT TYPE W [H [D]]", 4, 6, texture_opts, script_cmd_texture,
     "header IDX with fresh storage (TYPE: 1D 2D 3D CUBE 1D_ARRAY 2D_ARRAY 1D_BUFFER "
     "2D_NO_MIPMAP CUBE_ARRAY)"},
    {"texel", "IDX LEVEL X Y Z SAMPLE V0 V1 V2 V3", 10, 10, NULL, script_cmd_texel,
     "write one texel"},
    {"sampler", "IDX", 1, 1, sampler_opts, script_cmd_sampler,
     "sampler IDX (default point, clamp to edge, LOD 0..15.996)"},
    {"pools", "", 0, 0, pools_opts, script_cmd_pools, "binding state"},
    {"bind", "TID HEADER [SAMPLER]", 2, 3, NULL, script_cmd_bind,
     "c[handle bank][TID*4] = SAMPLER << 20 | HEADER"},
    {"cbank", "BANK OFFSET VALUE...", 3, SCRIPT_MAX_TOKENS - 1, NULL, script_cmd_cbank,
     "32-bit words into a constant bank"},
    {"reg", "RN VALUE | RN V0 .. V31 | RN[LANE] VALUE", 2, 33, NULL, script_cmd_reg,
     "set a register (all lanes, each lane, one lane)"},
    {"pred", "PN LANEMASK", 2, 2, NULL, script_cmd_pred, "a predicate's lane mask"},
    {"active", "LANEMASK", 1, 1, NULL, script_cmd_active, "the active lane mask"},
    {"precision", "reference|hardware", 1, 1, NULL, script_cmd_precision,
     "the texture unit's precision mode"},
    {"word", "0xWORD [0xCTRL]", 1, 2, NULL, script_cmd_word,
     "execute an encoded instruction (CTRL: .T = 0x20000, .P = 0x40000)"},
};

const script_cmd *script_find_cmd(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

int script_opt_index(const script_cmd *cmd, const char *key)
{
    for (int i = 0; cmd->opts && cmd->opts[i].key; i++)
        if (!strcmp(cmd->opts[i].key, key))
            return i;
    return -1;
}

/* `[key=a|b]` for an enum, `[key=META]` otherwise. */
static void print_opt(FILE *f, const script_opt *o)
{
    fprintf(f, " [%s=", o->key);
    if (o->kind == SO_ENUM)
        for (unsigned k = 0; o->names[k]; k++)
            fprintf(f, "%s%s", k ? "|" : "", o->names[k]);
    else
        fputs(o->meta, f);
    fputc(']', f);
}

void tv_sass_script_usage(FILE *f)
{
    fputs("usage: texvm sass SCRIPT|-\n\n"
          "Runs a script of SASS texture instructions on one 32-lane warp and prints,\n"
          "after each instruction, the registers and predicates it wrote. A line is a\n"
          "command below, or an instruction (TEX, TEXS, TLD, TLDS, TLD4, TLD4S, TMML,\n"
          "TXQ, TXD, or a guard @Pn first). `#` starts a comment. See docs/sass.md.\n\n"
          "Commands:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        const script_cmd *c = &commands[i];
        fprintf(f, "  %s%s%s", c->name, c->args[0] ? " " : "", c->args);
        for (unsigned k = 0; c->opts && c->opts[k].key; k++)
            print_opt(f, &c->opts[k]);
        fprintf(f, "\n      %s\n", c->doc);
    }
}
