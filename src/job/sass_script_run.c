/* The texvm sass script runner (`texvm sass SCRIPT`, fuzz_sass_script): set up pools,
 * textures, samplers, handles and registers, run SASS texture instructions on a warp, print
 * what each instruction wrote. The script language is documented in docs/sass.md ("The
 * texvm sass script"); its commands are the table in sass_script_table.c. */
#include "sass_script.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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

/* What the last instruction wrote; LANES: the lanes it ran for (active mask). */
static void report(script *s, uint32_t lanes)
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
        /* not the same in every lane: each lane the instruction ran for, as above */
        printf("  R%u:", r);
        for (unsigned l = 0; l < TV_SASS_LANES; l++)
            if ((lanes >> l) & 1u) {
                printf(" [%u]=", l);
                print_value(tv_sass_get_reg(s->w, r, l));
            }
        printf("\n");
    }
    for (unsigned p = 0; p < TV_SASS_NUM_PREDS; p++)
        if ((pw >> p) & 1u)
            printf("  P%u = 0x%08x\n", p, tv_sass_get_pred(s->w, p));
}

int script_run_insn(script *s, const char *text, unsigned col, bool is_word, uint64_t word,
                    uint32_t ctrl)
{
    tv_sass_insn in;
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_status st = is_word ? tv_sass_decode(word, ctrl, &in, &err)
                           : tv_sass_parse(text, &in, &err);
    char buf[256];
    uint32_t lanes = tv_sass_get_active(s->w);
    if (st == TV_OK) {
        tv_sass_print(&in, buf, sizeof buf);
        printf("%s\n", buf);
        st = tv_sass_exec(s->w, &in, &err);
    } else {
        printf("%s\n", is_word ? "(undecodable word)" : text);
    }
    if (st) {
        /* a text parse error's column is within the instruction; else the line's start */
        unsigned c = !is_word && err.column ? col + err.column - 1 : col;
        fprintf(stderr, "%s:%u:%u: %s: %s\n", s->path, s->line, c, tv_status_name(st),
                err.message);
        printf("  error: %s\n", err.message);
        s->faults++;
        return 0;
    }
    report(s, lanes);
    return 0;
}

/* An instruction line: starts with '@' or with an instruction name. */
static bool is_instruction(const char *p)
{
    static const char *const ops[] = {"TEX", "TEXS", "TLD", "TLDS", "TLD4", "TLD4S", "TMML",
                                      "TXQ", "TXD"};
    size_t k = 0;
    while (isalnum((unsigned char)p[k]))
        k++;
    if (*p == '@')
        return true;
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i]) == k && !strncmp(p, ops[i], k))
            return true;
    return false;
}

static int run_line(script *s, char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    if (!*p)
        return 0;
    if (is_instruction(p))
        return script_run_insn(s, p, (unsigned)(p - line) + 1, false, 0, 0);
    script_line *l = malloc(sizeof *l);
    if (!l)
        return script_fail(s, 1, "out of memory");
    int rc = script_parse_line(s, line, l);
    if (!rc)
        rc = l->cmd->run(s, l);
    free(l);
    return rc;
}

int tv_sass_script_run(const char *name, char *text, size_t len, uint32_t mem_size)
{
    script *s = calloc(1, sizeof *s);
    int rc = TV_EXIT_IO;
    tv_error err;
    if (!s)
        goto out;
    s->path = name;
    s->mem_size = mem_size;
    s->host = mem_size >= SCRIPT_DATA - SCRIPT_MEM_BASE ? calloc(1, mem_size) : NULL;
    s->mem = tv_memory_create();
    if (!s->host || !s->mem ||
        tv_memory_map(s->mem, SCRIPT_MEM_BASE, s->host, mem_size, &err))
        goto out;
    s->unit = tv_tex_create(s->mem);
    s->w = s->unit ? tv_sass_warp_create(s->unit, &err) : NULL;
    if (!s->w)
        goto out;
    tv_sass_binding b = {SCRIPT_HDR_POOL, 255, SCRIPT_SMP_POOL, 255, false, 0};
    tv_sass_set_binding(s->w, &b, &err);
    s->next = SCRIPT_DATA;
    rc = TV_EXIT_OK;
    char *line = text, *stop = text + len;
    while (line < stop && rc == TV_EXIT_OK) {
        char *nl = memchr(line, '\n', (size_t)(stop - line));
        char *eol = nl ? nl : stop;
        *eol = '\0';   /* TEXT has a byte past LEN for the last line's end */
        s->line++;
        char *nul = memchr(line, '\0', (size_t)(eol - line));
        if (nul)
            rc = script_fail(s, (unsigned)(nul - line) + 1, "a NUL byte (a script is text)");
        else
            rc = run_line(s, line);
        line = eol + 1;
    }
    if (rc == TV_EXIT_OK && s->faults)
        rc = TV_EXIT_INVALID;
out:
    if (rc == TV_EXIT_IO)
        fprintf(stderr, "%s: cannot set up the script's warp: out of memory\n", name);
    if (s) {
        tv_sass_warp_destroy(s->w);
        tv_tex_destroy(s->unit);
        tv_memory_destroy(s->mem);
        free(s->host);
        free(s);
    }
    return rc;
}

