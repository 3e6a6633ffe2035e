/* The `texvm sass` script language (docs/sass.md, "The texvm sass script"): one table of
 * commands and their KEY=VALUE options (sass_script_table.c) drives parsing, validation,
 * `texvm sass --help` and the docs' command table (checked by tests/sass/test_cli.c).
 * Errors are `SCRIPT:LINE:COL: message` with the offending value and what is allowed. */
#ifndef TEXVM_SASS_SCRIPT_H
#define TEXVM_SASS_SCRIPT_H

#include "texvm/job.h"
#include "texvm/sass.h"
#include "texvm/tex.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The script's machine: memory, pools and handle bank (docs/sass.md). */
#define SCRIPT_MEM_BASE 0x100000ull
#define SCRIPT_POOL_ENTRIES 1024u
#define SCRIPT_HDR_POOL SCRIPT_MEM_BASE
#define SCRIPT_SMP_POOL (SCRIPT_MEM_BASE + 32u * SCRIPT_POOL_ENTRIES)
#define SCRIPT_DATA (SCRIPT_MEM_BASE + 64u * SCRIPT_POOL_ENTRIES)

#define SCRIPT_MAX_TOKENS 40
#define SCRIPT_MAX_OPTS 12

typedef struct script {
    const char *path;
    unsigned line;
    tv_memory *mem;
    tv_tex_unit *unit;
    tv_sass_warp *w;
    uint8_t *host;
    uint64_t next;
    uint32_t mem_size;          /* bytes of script memory from SCRIPT_MEM_BASE */
    tv_tic tic[SCRIPT_POOL_ENTRIES];
    bool have_tic[SCRIPT_POOL_ENTRIES];
    int faults;
} script;

/* How an option's value is checked before the command sees it. */
typedef enum script_opt_kind {
    SO_ENUM,    /* one of NAMES; the value is its index */
    SO_UINT,    /* a whole number MIN..MAX */
    SO_FLOAT,   /* a finite number */
    SO_RANGE,   /* A:B, whole numbers MIN..MAX each */
    SO_FLOAT4   /* R,G,B,A: four numbers */
} script_opt_kind;

typedef struct script_opt {
    const char *key;
    script_opt_kind kind;
    const char *const *names;   /* SO_ENUM: allowed values, NULL-terminated */
    uint32_t min, max;          /* SO_UINT, SO_RANGE */
    const char *meta;           /* how --help shows a non-enum value: N, F, MIN:MAX, R,G,B,A */
} script_opt;

typedef struct script_tok {
    const char *text;
    unsigned col;               /* 1-based column in the script line */
} script_tok;

typedef union script_val {
    uint32_t u;
    int e;
    float f;
    uint32_t range[2];
    float rgba[4];
} script_val;

struct script_cmd;
/* One parsed command line: positional arguments (the command name not counted) and the
 * checked value of each option given (opt[i] NULL when option i of the command is absent). */
typedef struct script_line {
    const struct script_cmd *cmd;
    script_tok name;
    script_tok arg[SCRIPT_MAX_TOKENS];
    unsigned nargs;
    const script_tok *opt[SCRIPT_MAX_OPTS];
    script_val val[SCRIPT_MAX_OPTS];
    script_tok toks[SCRIPT_MAX_TOKENS];
    unsigned end_col;           /* column just past the last token (for a missing argument) */
} script_line;

typedef int (*script_cmd_fn)(script *s, const script_line *l);

typedef struct script_cmd {
    const char *name;
    const char *args;           /* the positional arguments as --help and the docs show them */
    unsigned min_args, max_args;
    const script_opt *opts;     /* ends with a NULL key; NULL when the command has none */
    script_cmd_fn run;
    const char *doc;            /* one line for --help */
} script_cmd;

/* sass_script_table.c */
extern const char *const script_texture_types[];   /* TIC TEXTURE_TYPE order, NULL-ended */
const script_cmd *script_find_cmd(const char *name);
/* Index of option KEY of CMD (a name in the table: a typo is a programming error, -1). */
int script_opt_index(const script_cmd *cmd, const char *key);

/* sass_script_args.c: messages and checked values */
int script_fail(script *s, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *script_quote(const char *arg, char buf[128]);
/* Split LINE (comment already cut) into L: tokens, command, options checked by the table.
 * Returns 0, or an exit code after a message. */
int script_parse_line(script *s, char *line, script_line *l);
/* Positional argument I as a whole number MIN..MAX named WHAT in the message. */
bool script_arg_u32(script *s, const script_line *l, unsigned i, const char *what,
                    uint32_t min, uint32_t max, uint32_t *out);
/* Positional argument I as a register value (hex/decimal/negative or float, docs/sass.md). */
bool script_arg_value(script *s, const script_line *l, unsigned i, uint32_t *out);
bool script_parse_u64(const char *t, uint64_t *v);
bool script_parse_value(const char *t, uint32_t *v);
/* The option named KEY of l's command, or NULL when absent. */
const script_tok *script_opt_tok(const script_line *l, const char *key);
const script_val *script_optval(const script_line *l, const char *key);

/* sass_script_cmds.c, sass_script_texture.c */
int script_cmd_texture(script *s, const script_line *l);
int script_cmd_texel(script *s, const script_line *l);
int script_cmd_sampler(script *s, const script_line *l);
int script_cmd_pools(script *s, const script_line *l);
int script_cmd_bind(script *s, const script_line *l);
int script_cmd_cbank(script *s, const script_line *l);
int script_cmd_reg(script *s, const script_line *l);
int script_cmd_pred(script *s, const script_line *l);
int script_cmd_active(script *s, const script_line *l);
int script_cmd_precision(script *s, const script_line *l);
int script_cmd_word(script *s, const script_line *l);

/* Run one instruction (text, or an encoded word with its control bits). */
int script_run_insn(script *s, const char *text, unsigned col, bool is_word, uint64_t word,
                    uint32_t ctrl);

#endif
