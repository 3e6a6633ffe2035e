/* texvm run --trace: every executed instruction of one invocation, with the values it read
 * and wrote and the warp's execution mask. */
#include "job_run.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool run_trace_init(run_trace *t, const tv_tgsi_program *prog, FILE *out)
{
    memset(t, 0, sizeof *t);
    t->out = out;
    t->prog = prog;
    t->num_lines = prog->num_insns;
    t->lines = calloc(prog->num_insns ? prog->num_insns : 1, sizeof *t->lines);
    char *text = tv_tgsi_print_alloc(prog);
    if (!t->lines || !text) {
        free(text);
        free(t->lines);
        t->lines = NULL;
        return false;
    }
    /* The printer writes instructions as "  N: TEXT"; keep TEXT per N. */
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *p = line;
        while (*p == ' ')
            p++;
        if (isdigit((unsigned char)*p)) {
            char *end;
            unsigned long n = strtoul(p, &end, 10);
            if (*end == ':' && n < prog->num_insns && !t->lines[n]) {
                end++;
                while (*end == ' ')
                    end++;
                t->lines[n] = strdup(end);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return true;
}

void run_trace_free(run_trace *t)
{
    for (uint32_t i = 0; t->lines && i < t->num_lines; i++)
        free(t->lines[i]);
    free(t->lines);
    t->lines = NULL;
}

/* One component: as a float when it is a normal float (or inf), as an integer when the bits
 * read as a small integer (denormal floats, negative-integer NaNs), always with the bits. */
static void component(FILE *f, char name, uint32_t v)
{
    float fl;
    int32_t i;
    memcpy(&fl, &v, 4);
    memcpy(&i, &v, 4);
    uint32_t exp = v & 0x7f800000u;
    if (v == 0)
        fprintf(f, " %c=0", name);
    else if (exp == 0 && !(v & 0x80000000u))
        fprintf(f, " %c=%d", name, i);
    else if (exp == 0x7f800000u && (v & 0x007fffffu))
        fprintf(f, v >= 0xff800001u ? " %c=%d" : " %c=nan", name, i);
    else
        fprintf(f, " %c=%.9g", name, (double)fl);
    fprintf(f, " (0x%08x)", v);
}

static void value(FILE *f, const uint32_t v[4], uint8_t mask)
{
    static const char xyzw[] = "xyzw";
    for (int c = 0; c < 4; c++)
        if (mask & (1u << c))
            component(f, xyzw[c], v[c]);
}

void run_trace_event(void *user, const tv_vm_trace_event *ev)
{
    run_trace *t = user;
    FILE *f = t->out;
    const tv_tgsi_opinfo *oi = tv_tgsi_opinfo_get(ev->opcode);
    const char *text = ev->insn < t->num_lines && t->lines[ev->insn] ? t->lines[ev->insn]
                       : oi                                         ? oi->name
                                                                    : "?";
    t->events++;
    fprintf(f, "%4u: %-48s exec=0x%08x lane %u %s\n", ev->insn, text, ev->exec_mask, ev->lane,
            ev->active ? "active" : "inactive");
    if (!ev->active)
        return;
    for (unsigned s = 0; s < ev->num_src && s < TV_TGSI_MAX_SRC; s++) {
        fprintf(f, "        src%u:", s);
        value(f, ev->src[s], 0xf);
        fputc('\n', f);
    }
    if (oi && (oi->flags & TV_OPF_STORE)) {
        fprintf(f, "        (stores to memory)\n");
        return;
    }
    for (unsigned d = 0; d < ev->num_dst && d < TV_TGSI_MAX_DST; d++) {
        uint8_t mask = 0xf;
        if (ev->instruction && d < ev->instruction->num_dst)
            mask = ev->instruction->dst[d].writemask;
        if (memcmp(ev->dst_before[d], ev->dst_after[d], sizeof ev->dst_before[d]) == 0 &&
            mask == 0xf) {
            fprintf(f, "        dst%u:", d);
            value(f, ev->dst_after[d], mask);
            fprintf(f, " (unchanged)\n");
            continue;
        }
        fprintf(f, "        dst%u:", d);
        value(f, ev->dst_before[d], mask);
        fprintf(f, "\n         ->  ");
        value(f, ev->dst_after[d], mask);
        fputc('\n', f);
    }
}
