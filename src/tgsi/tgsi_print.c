/* Program object -> text in Mesa's tgsi_dump layout (docs/tgsi-text.md, "Printer").
 *
 * Byte-identical to tgsi_dump for what Mesa prints, except that immediates never lose a
 * bit: a FLT32 value is printed with tgsi_dump's "%10.4f" only when that text converts
 * back to the same 32 bits, otherwise as its raw bit pattern `0x%08x`; FLT64 likewise
 * with "%10.8f" or `0x%016x`. */
#include "tgsi/tgsi_internal.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out {
    char *buf;
    size_t size, len;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}
static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }
static void putc_(out *o, char ch) { put(o, &ch, 1); }
static void putf(out *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* ---- exact float formatting --------------------------------------------------------- */

static char locale_point(void)
{
    const struct lconv *lc = localeconv();
    return lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0] : '.';
}

static void to_c_point(char *s, char dp)
{
    if (dp != '.')
        for (; *s; s++)
            if (*s == dp)
                *s = '.';
}

void tvt_format_flt32(uint32_t bits, bool hex, char *buf, size_t size)
{
    float f;
    memcpy(&f, &bits, 4);
    if (!hex && isfinite(f)) {
        char dec[64];
        char dp = locale_point();
        snprintf(dec, sizeof dec, "%10.4f", (double)f);
        /* convert back in the same locale, then compare the bits */
        float back = strtof(dec, NULL);
        uint32_t bb;
        memcpy(&bb, &back, 4);
        if (bb == bits) {
            to_c_point(dec, dp);
            snprintf(buf, size, "%s", dec);
            return;
        }
    }
    snprintf(buf, size, "0x%08" PRIx32, bits);
}

void tvt_format_flt64(uint64_t bits, char *buf, size_t size)
{
    double d;
    memcpy(&d, &bits, 8);
    if (isfinite(d)) {
        char dec[400];
        char dp = locale_point();
        snprintf(dec, sizeof dec, "%10.8f", d);
        double back = strtod(dec, NULL);
        uint64_t bb;
        memcpy(&bb, &back, 8);
        if (bb == bits && strlen(dec) < size) {
            to_c_point(dec, dp);
            snprintf(buf, size, "%s", dec);
            return;
        }
    }
    snprintf(buf, size, "0x%016" PRIx64, bits);
}

/* ---- pieces ------------------------------------------------------------------------- */

static const char *name_or(const char *const *names, unsigned count, unsigned i)
{
    return i < count && names[i] ? names[i] : "?";
}

static void print_writemask(out *o, unsigned mask)
{
    if (mask == 0xf)
        return;
    putc_(o, '.');
    for (int i = 0; i < 4; i++)
        if (mask & (1u << i))
            putc_(o, tvt_swizzle_chars[i]);
}

static void print_index(out *o, bool indirect, int32_t index, const tv_tgsi_indirect *ind,
                        uint32_t array_id)
{
    putc_(o, '[');
    if (indirect) {
        puts_(o, name_or(tvt_file_names, TV_FILE_COUNT, ind->file));
        putf(o, "[%d].%c", ind->index, tvt_swizzle_chars[ind->component & 3]);
        if (index > 0)
            putf(o, "+%d", index);
        else if (index < 0)
            putf(o, "%d", index);
    } else {
        putf(o, "%d", index);
    }
    putc_(o, ']');
    if (array_id)
        putf(o, "(%u)", array_id);
}

static void print_reg(out *o, const tv_tgsi_reg *r)
{
    puts_(o, name_or(tvt_file_names, TV_FILE_COUNT, r->file));
    if (r->has_dim)
        print_index(o, r->dim_indirect, r->dim, &r->dim_ind,
                    r->dim_indirect ? r->dim_ind.array_id : 0);
    print_index(o, r->indirect, r->index, &r->ind, r->array_id);
}

static void print_src(out *o, const tv_tgsi_src *s)
{
    if (s->negate)
        putc_(o, '-');
    if (s->absolute)
        putc_(o, '|');
    print_reg(o, &s->reg);
    if (s->swizzle[0] != 0 || s->swizzle[1] != 1 || s->swizzle[2] != 2 || s->swizzle[3] != 3) {
        putc_(o, '.');
        for (int i = 0; i < 4; i++)
            putc_(o, tvt_swizzle_chars[s->swizzle[i] & 3]);
    }
    if (s->absolute)
        putc_(o, '|');
}

static void print_property(out *o, const tv_tgsi_prop *p)
{
    puts_(o, "PROPERTY ");
    puts_(o, name_or(tvt_property_names, TV_PROP_COUNT, p->name));
    putc_(o, ' ');
    int count;
    const char *const *names = tvt_property_value_names(p->name, &count);
    if (names && p->value < (unsigned)count)
        puts_(o, names[p->value]);
    else
        putf(o, "%u", p->value);
    putc_(o, '\n');
}

static void print_decl(out *o, unsigned processor, const tv_tgsi_declaration *d)
{
    puts_(o, "DCL ");
    puts_(o, name_or(tvt_file_names, TV_FILE_COUNT, d->file));
    if (tvt_decl_is_per_vertex(processor, d))
        puts_(o, "[]");
    else if (d->has_dim)
        putf(o, "[%d]", d->dim);
    if (d->first == d->last)
        putf(o, "[%d]", d->first);
    else
        putf(o, "[%d..%d]", d->first, d->last);
    print_writemask(o, d->usage_mask);
    if (d->array_id)
        putf(o, ", ARRAY(%u)", d->array_id);
    if (d->local)
        puts_(o, ", LOCAL");
    if (d->has_semantic) {
        puts_(o, ", ");
        puts_(o, name_or(tvt_semantic_names, TV_SEM_COUNT, d->semantic));
        if (d->semantic_index != 0 || d->semantic == TV_SEM_GENERIC ||
            d->semantic == TV_SEM_TEXCOORD)
            putf(o, "[%u]", d->semantic_index);
    }
    /* Mesa prints STREAM(...) when a stream is non-zero; texvm also when it was written */
    if (d->has_stream || d->stream[0] || d->stream[1] || d->stream[2] || d->stream[3])
        putf(o, ", STREAM(%u, %u, %u, %u)", d->stream[0], d->stream[1], d->stream[2],
             d->stream[3]);
    if (d->file == TV_FILE_IMAGE) {
        puts_(o, ", ");
        puts_(o, name_or(tvt_target_names, TV_TGT_COUNT, d->image_target));
        puts_(o, ", ");
        puts_(o, d->image_format < tvt_num_pipe_formats ? tvt_pipe_format_names[d->image_format]
                                                        : "PIPE_FORMAT_NONE");
        if (d->writable)
            puts_(o, ", WR");
        if (d->raw)
            puts_(o, ", RAW");
    }
    if (d->file == TV_FILE_BUFFER && d->atomic)
        puts_(o, ", ATOMIC");
    if (d->file == TV_FILE_MEMORY) {
        puts_(o, ", ");
        puts_(o, name_or(tvt_memory_type_names, TV_MEM_COUNT, d->memory_type));
    }
    if (d->file == TV_FILE_SVIEW) {
        puts_(o, ", ");
        puts_(o, name_or(tvt_target_names, TV_TGT_COUNT, d->sview_target));
        puts_(o, ", ");
        const uint8_t *r = d->return_type;
        if (r[0] == r[1] && r[0] == r[2] && r[0] == r[3]) {
            puts_(o, name_or(tvt_return_type_names, TV_RET_COUNT, r[0]));
        } else {
            for (int i = 0; i < 4; i++) {
                if (i)
                    puts_(o, ", ");
                puts_(o, name_or(tvt_return_type_names, TV_RET_COUNT, r[i]));
            }
        }
    }
    /* Mesa prints the interpolation only for FS inputs; texvm prints whatever was
     * declared (it never appears elsewhere in Mesa's output), so nothing is lost. */
    if (d->has_interp) {
        puts_(o, ", ");
        puts_(o, name_or(tvt_interp_names, TV_INTERP_COUNT, d->interp));
    }
    if (d->location != TV_LOC_CENTER) {
        puts_(o, ", ");
        puts_(o, name_or(tvt_location_names, TV_LOC_COUNT, d->location));
    }
    if (d->invariant)
        puts_(o, ", INVARIANT");
    putc_(o, '\n');
}

static void print_imm(out *o, unsigned index, const tv_tgsi_immediate *im)
{
    char v[400];
    putf(o, "IMM[%u] %s {", index, name_or(tvt_imm_type_names, TV_IMM_COUNT, im->type));
    unsigned n = im->type >= TV_IMM_FLT64 ? 2 : 4;
    for (unsigned i = 0; i < n; i++) {
        if (i)
            puts_(o, ", ");
        uint64_t w = n == 2 ? ((uint64_t)im->u[2 * i + 1] << 32 | im->u[2 * i]) : im->u[i];
        switch (im->type) {
        case TV_IMM_FLT32:
            tvt_format_flt32(im->u[i], im->hex, v, sizeof v);
            puts_(o, v);
            break;
        case TV_IMM_UINT32:
            putf(o, "%u", im->u[i]);
            break;
        case TV_IMM_INT32:
            putf(o, "%d", (int32_t)im->u[i]);
            break;
        case TV_IMM_FLT64:
            tvt_format_flt64(w, v, sizeof v);
            puts_(o, v);
            break;
        case TV_IMM_UINT64:
            putf(o, "%" PRIu64, w);
            break;
        default:
            putf(o, "%" PRId64, (int64_t)w);
            break;
        }
    }
    puts_(o, "}\n");
}

#define TVT_PRINT_MAX_INDENT 32

static void print_insn_body(out *o, const tv_tgsi_instruction *in);

static void print_insn(out *o, unsigned number, int *indent, const tv_tgsi_instruction *in)
{
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(in->opcode);
    putf(o, "%3u: ", number);
    uint32_t flags = info ? info->flags : 0;
    if (flags & TV_OPF_DEDENT)
        (*indent)--;
    /* the indentation stops growing at TVT_PRINT_MAX_INDENT levels, so the printed text stays
     * within a fixed multiple of the source however deep its blocks nest (docs/limits.md) */
    for (int i = 0; i < *indent && i < TVT_PRINT_MAX_INDENT; i++)
        puts_(o, "  ");
    if (flags & TV_OPF_INDENT)
        (*indent)++;
    print_insn_body(o, in);
    putc_(o, '\n');
}

void tvt_format_reg(const tv_tgsi_reg *r, char *buf, size_t size)
{
    out o = {buf, size, 0};
    print_reg(&o, r);
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
}

void tvt_format_insn(const tv_tgsi_instruction *in, char *buf, size_t size)
{
    out o = {buf, size, 0};
    print_insn_body(&o, in);
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
}

static void print_insn_body(out *o, const tv_tgsi_instruction *in)
{
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(in->opcode);
    uint32_t flags = info ? info->flags : 0;
    if (info)
        puts_(o, info->name);
    else
        putf(o, "OPCODE%u", in->opcode);
    if (in->saturate)
        puts_(o, "_SAT");
    if (in->precise)
        puts_(o, "_PRECISE");
    bool first = true;
    unsigned nd = in->num_dst < TV_TGSI_MAX_DST ? in->num_dst : TV_TGSI_MAX_DST;
    unsigned ns = in->num_src < TV_TGSI_MAX_SRC ? in->num_src : TV_TGSI_MAX_SRC;
    for (unsigned i = 0; i < nd; i++) {
        puts_(o, first ? " " : ", ");
        first = false;
        print_reg(o, &in->dst[i].reg);
        print_writemask(o, in->dst[i].writemask);
    }
    for (unsigned i = 0; i < ns; i++) {
        puts_(o, first ? " " : ", ");
        first = false;
        print_src(o, &in->src[i]);
    }
    if (in->has_texture) {
        bool sample_family = in->opcode >= TV_TGSI_OP_SAMPLE && in->opcode <= TV_TGSI_OP_GATHER4;
        if (!sample_family && (flags & TV_OPF_TEX)) {
            puts_(o, ", ");
            puts_(o, name_or(tvt_target_names, TV_TGT_COUNT, in->tex_target));
        }
        unsigned no = in->num_tex_offsets < TV_TGSI_MAX_TEXOFFSETS ? in->num_tex_offsets
                                                                    : TV_TGSI_MAX_TEXOFFSETS;
        for (unsigned i = 0; i < no; i++) {
            const tv_tgsi_texoffset *t = &in->tex_offsets[i];
            putf(o, ", %s[%d].%c%c%c", name_or(tvt_file_names, TV_FILE_COUNT, t->file), t->index,
                 tvt_swizzle_chars[t->swizzle[0] & 3], tvt_swizzle_chars[t->swizzle[1] & 3],
                 tvt_swizzle_chars[t->swizzle[2] & 3]);
        }
    }
    for (int b = 0; b < 4; b++)
        if (in->mem_qualifier & (1u << b)) {
            puts_(o, ", ");
            puts_(o, tvt_memq_names[b]);
        }
    if (in->mem_target != TV_TGT_UNKNOWN && in->mem_target < TV_TGT_COUNT) {
        puts_(o, ", ");
        puts_(o, tvt_target_names[in->mem_target]);
    }
    if (in->mem_format && in->mem_format < tvt_num_pipe_formats) {
        puts_(o, ", ");
        puts_(o, tvt_pipe_format_names[in->mem_format]);
    }
    if (in->has_label)
        putf(o, " :%u", in->label);
}

size_t tv_tgsi_print(const tv_tgsi_program *prog, char *buf, size_t size)
{
    out o = {buf, size, 0};
    if (!prog) {
        if (buf && size)
            buf[0] = '\0';
        return 0;
    }
    puts_(&o, name_or(tvt_processor_names, TV_TGSI_PROCESSOR_COUNT, prog->processor));
    putc_(&o, '\n');
    unsigned immno = 0, insno = 0;
    int indent = 0;
    for (uint32_t i = 0; i < prog->num_stmts; i++) {
        const tv_tgsi_stmt *st = &prog->stmts[i];
        switch (st->kind) {
        case TV_STMT_PROPERTY:
            if (st->index < prog->num_props)
                print_property(&o, &prog->props[st->index]);
            break;
        case TV_STMT_DECL:
            if (st->index < prog->num_decls)
                print_decl(&o, prog->processor, &prog->decls[st->index]);
            break;
        case TV_STMT_IMM:
            if (st->index < prog->num_imms)
                print_imm(&o, immno++, &prog->imms[st->index]);
            break;
        case TV_STMT_INSN:
            if (st->index < prog->num_insns)
                print_insn(&o, insno++, &indent, &prog->insns[st->index]);
            break;
        default:
            break;
        }
    }
    if (buf && size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return o.len;
}

char *tv_tgsi_print_alloc(const tv_tgsi_program *prog)
{
    size_t n = tv_tgsi_print(prog, NULL, 0);
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    tv_tgsi_print(prog, s, n + 1);
    return s;
}
