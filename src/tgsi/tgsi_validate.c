/* TGSI program validator: declarations, operands, control flow, labels, textures, stages.
 *
 * Two levels (docs/tgsi-text.md, "Validation"):
 *  - lenient (default): everything Mesa itself emits passes; what would make a program
 *    meaningless or unsafe to run is still an error (undeclared registers, wrong operand
 *    files, broken nesting, labels out of range, stage-only opcodes, ...);
 *  - strict: also every tidiness rule (one END at top level, SVIEW for every sampler,
 *    labels pointing at the matching ELSE/ENDIF, declarations that fit their file, ...).
 * The first problem found is returned, with the instruction's line and column and the
 * instruction (canonical text) in err->text. */
#include "tgsi/tgsi_internal.h"
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_NESTING 1024

typedef struct vctx {
    const tv_tgsi_program *p;
    bool strict;
    tv_error *err;
} vctx;

static tv_status verr(vctx *v, const tv_tgsi_instruction *in, uint32_t line, const char *fmt,
                      ...) TV_PRINTF(4, 5);
static tv_status verr(vctx *v, const tv_tgsi_instruction *in, uint32_t line, const char *fmt,
                      ...)
{
    tv_error *e = v->err;
    if (!e)
        return TV_ERR_INVALID;
    memset(e, 0, sizeof *e);
    e->code = TV_ERR_INVALID;
    e->line = in ? in->line : line;
    e->column = in ? in->column : (line ? 1 : 0);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    if (in)
        tvt_format_insn(in, e->text, sizeof e->text);
    return TV_ERR_INVALID;
}

static const char *opname(const tv_tgsi_instruction *in)
{
    const tv_tgsi_opinfo *i = tv_tgsi_opinfo_get(in->opcode);
    return i ? i->name : "?";
}

static const char *fname(unsigned f) { return f < TV_FILE_COUNT ? tvt_file_names[f] : "?"; }
static const char *pname(unsigned p)
{
    return p < TV_TGSI_PROCESSOR_COUNT ? tvt_processor_names[p] : "?";
}

/* ---- declarations ------------------------------------------------------------------- */

/* Does a declaration cover FILE[dim][index]? (no dimension = dimension 0) */
static bool decl_covers(const tv_tgsi_declaration *d, unsigned file, bool per_vertex,
                        int32_t dim, int32_t index)
{
    if (d->file != file || index < d->first || index > d->last)
        return false;
    if (per_vertex || file != TV_FILE_CONST)
        return true;
    return (d->has_dim ? d->dim : 0) == dim;
}

static const tv_tgsi_declaration *find_decl(const tv_tgsi_program *p, unsigned file,
                                            int32_t dim, int32_t index)
{
    for (uint32_t i = 0; i < p->num_decls; i++) {
        const tv_tgsi_declaration *d = &p->decls[i];
        if (decl_covers(d, file, tvt_decl_is_per_vertex(p->processor, d), dim, index))
            return d;
    }
    return NULL;
}

static bool file_declared_at_all(const tv_tgsi_program *p, unsigned file)
{
    for (uint32_t i = 0; i < p->num_decls; i++)
        if (p->decls[i].file == file)
            return true;
    return false;
}

static tv_status check_decls(vctx *v)
{
    const tv_tgsi_program *p = v->p;
    for (uint32_t i = 0; i < p->num_decls; i++) {
        const tv_tgsi_declaration *d = &p->decls[i];
        if (d->file >= TV_FILE_COUNT || d->file == TV_FILE_NULL || d->file == TV_FILE_IMM)
            return verr(v, NULL, d->line, "`%s` registers cannot be declared with DCL",
                        fname(d->file));
        if (d->first < 0 || d->last < d->first)
            return verr(v, NULL, d->line, "declaration range of `%s` is empty or negative",
                        fname(d->file));
        if (d->last > TV_TGSI_MAX_INDEX || (d->has_dim && (d->dim < 0 || d->dim > TV_TGSI_MAX_INDEX)))
            return verr(v, NULL, d->line,
                        "declaration `%s[%d..%d]` is too large (register indices go up to %d)",
                        fname(d->file), d->first, d->last, TV_TGSI_MAX_INDEX);
        if (d->usage_mask == 0 || d->usage_mask > 0xf)
            return verr(v, NULL, d->line, "declaration of `%s` has an empty usage mask",
                        fname(d->file));
        if (d->has_semantic && d->semantic >= TV_SEM_COUNT)
            return verr(v, NULL, d->line, "unknown semantic %u", d->semantic);
        if (d->file == TV_FILE_SV && !d->has_semantic)
            return verr(v, NULL, d->line,
                        "`DCL SV[%d]` needs a system-value semantic (e.g. THREAD_ID, POSITION)",
                        d->first);
        if (d->file == TV_FILE_SVIEW &&
            (d->sview_target >= TV_TGT_COUNT || d->return_type[0] >= TV_RET_COUNT ||
             d->return_type[1] >= TV_RET_COUNT || d->return_type[2] >= TV_RET_COUNT ||
             d->return_type[3] >= TV_RET_COUNT))
            return verr(v, NULL, d->line, "`DCL SVIEW[%d]` has an invalid target or return type",
                        d->first);
        if (d->file == TV_FILE_IMAGE &&
            (d->image_target >= TV_TGT_COUNT || d->image_format >= tvt_num_pipe_formats))
            return verr(v, NULL, d->line, "`DCL IMAGE[%d]` has an invalid target or format",
                        d->first);
        if (d->file == TV_FILE_MEMORY && d->memory_type >= TV_MEM_COUNT)
            return verr(v, NULL, d->line, "`DCL MEMORY[%d]` has an invalid memory type", d->first);
        if (d->has_interp && d->interp >= TV_INTERP_COUNT)
            return verr(v, NULL, d->line, "invalid interpolation mode");
        if (d->location >= TV_LOC_COUNT)
            return verr(v, NULL, d->line, "invalid interpolation location");
        if (!v->strict)
            continue;
        /* strict: attributes fit the file and the stage, no overlapping declarations */
        bool io = d->file == TV_FILE_IN || d->file == TV_FILE_OUT || d->file == TV_FILE_SV;
        if (d->has_semantic && !io)
            return verr(v, NULL, d->line, "a semantic is only allowed on IN, OUT and SV "
                        "declarations, not `%s`", fname(d->file));
        if ((d->has_interp || d->location) && !(d->file == TV_FILE_IN && p->processor == TV_TGSI_FRAG))
            return verr(v, NULL, d->line, "interpolation is only allowed on FRAG inputs");
        if (d->has_stream && !(d->file == TV_FILE_OUT && p->processor == TV_TGSI_GEOM))
            return verr(v, NULL, d->line, "STREAM(...) is only allowed on GEOM outputs");
        if (d->file == TV_FILE_MEMORY && d->memory_type == TV_MEM_SHARED &&
            p->processor != TV_TGSI_COMP)
            return verr(v, NULL, d->line, "SHARED memory is only allowed in COMP programs");
        if (d->file == TV_FILE_OUT && p->processor == TV_TGSI_FRAG && !d->has_semantic)
            return verr(v, NULL, d->line, "a FRAG output needs a semantic (COLOR, POSITION, "
                        "STENCIL or SAMPLEMASK)");
        for (uint32_t j = 0; j < i; j++) {
            const tv_tgsi_declaration *e = &p->decls[j];
            if (e->file == d->file && (e->has_dim ? e->dim : 0) == (d->has_dim ? d->dim : 0) &&
                e->first <= d->last && d->first <= e->last)
                return verr(v, NULL, d->line, "`%s[%d]` is declared twice (also at line %u)",
                            fname(d->file), d->first > e->first ? d->first : e->first, e->line);
            if (d->array_id && e->array_id == d->array_id && e->file == d->file)
                return verr(v, NULL, d->line, "ARRAY(%u) is used by two declarations",
                            d->array_id);
        }
    }
    return TV_OK;
}

static tv_status check_props(vctx *v)
{
    const tv_tgsi_program *p = v->p;
    for (uint32_t i = 0; i < p->num_props; i++) {
        const tv_tgsi_prop *pp = &p->props[i];
        if (pp->name >= TV_PROP_COUNT)
            return verr(v, NULL, pp->line, "unknown property %u", pp->name);
        if (!v->strict)
            continue;
        const char *n = tvt_property_names[pp->name];
        unsigned want = TV_TGSI_PROCESSOR_COUNT;
        if (!strncmp(n, "GS_", 3))
            want = TV_TGSI_GEOM;
        else if (!strncmp(n, "FS_", 3))
            want = TV_TGSI_FRAG;
        else if (!strncmp(n, "CS_", 3))
            want = TV_TGSI_COMP;
        else if (!strncmp(n, "TCS_", 4))
            want = TV_TGSI_TESS_CTRL;
        else if (!strncmp(n, "TES_", 4))
            want = TV_TGSI_TESS_EVAL;
        if (want != TV_TGSI_PROCESSOR_COUNT && want != p->processor)
            return verr(v, NULL, pp->line, "property %s belongs to %s programs, not %s", n,
                        pname(want), pname(p->processor));
    }
    return TV_OK;
}

/* ---- operands ----------------------------------------------------------------------- */

static bool is_bindless_handle_file(unsigned f)
{
    return f == TV_FILE_TEMP || f == TV_FILE_CONST || f == TV_FILE_IN || f == TV_FILE_IMM;
}

static tv_status check_indirect(vctx *v, const tv_tgsi_instruction *in,
                                const tv_tgsi_indirect *ind, const char *regtext)
{
    const tv_tgsi_program *p = v->p;
    bool ok_file = ind->file == TV_FILE_ADDR || (!v->strict && ind->file == TV_FILE_TEMP);
    if (!ok_file)
        return verr(v, in, 0, "the indirect index of `%s` must be an ADDR register%s", regtext,
                    v->strict ? "" : " (or TEMP)");
    if (ind->component > 3)
        return verr(v, in, 0, "invalid component in the indirect index of `%s`", regtext);
    if (ind->index < 0 || ind->index > TV_TGSI_MAX_INDEX ||
        !find_decl(p, ind->file, 0, ind->index))
        return verr(v, in, 0, "`%s[%d]` (the indirect index of `%s`) is not declared",
                    fname(ind->file), ind->index, regtext);
    return TV_OK;
}

/* Is FILE[dim][index] declared? IMM: index < number of immediates. */
static tv_status check_reg(vctx *v, const tv_tgsi_instruction *in, const tv_tgsi_reg *r,
                           bool is_dst)
{
    const tv_tgsi_program *p = v->p;
    char rt[96];
    tvt_format_reg(r, rt, sizeof rt);
    if (r->file >= TV_FILE_COUNT || r->file == TV_FILE_NULL)
        return verr(v, in, 0, "invalid register file in `%s`", opname(in));
    if (r->index < -TV_TGSI_MAX_INDEX || r->index > TV_TGSI_MAX_INDEX ||
        (r->has_dim && (r->dim < -TV_TGSI_MAX_INDEX || r->dim > TV_TGSI_MAX_INDEX)))
        return verr(v, in, 0, "register index in `%s` is too large (at most %d)", rt,
                    TV_TGSI_MAX_INDEX);
    if (r->indirect) {
        tv_status st = check_indirect(v, in, &r->ind, rt);
        if (st)
            return st;
    }
    if (r->has_dim && r->dim_indirect) {
        tv_status st = check_indirect(v, in, &r->dim_ind, rt);
        if (st)
            return st;
    }
    if (r->file == TV_FILE_IMM) {
        if (is_dst)
            return verr(v, in, 0, "`%s` cannot be written (immediates are read-only)", rt);
        if (!r->indirect && (r->index < 0 || (uint32_t)r->index >= p->num_imms))
            return verr(v, in, 0, "`%s` does not exist: the program has %u immediate%s", rt,
                        p->num_imms, p->num_imms == 1 ? "" : "s");
        return TV_OK;
    }
    /* per-vertex inputs are addressed IN[vertex][index]: check the index */
    bool per_vertex =
        (r->file == TV_FILE_IN &&
         (p->processor == TV_TGSI_GEOM || p->processor == TV_TGSI_TESS_CTRL ||
          p->processor == TV_TGSI_TESS_EVAL)) ||
        (r->file == TV_FILE_OUT && p->processor == TV_TGSI_TESS_CTRL);
    if (r->file == TV_FILE_IN && p->processor == TV_TGSI_GEOM && r->has_dim &&
        !r->dim_indirect) {
        /* IN[vertex][i]: the vertex must exist in the input primitive */
        static const uint8_t verts[TVT_NUM_PRIMITIVES] = {1, 2, 0, 2, 3, 3, 3, 0, 0, 0,
                                                          4, 4, 6, 6, 0};
        for (uint32_t i = 0; i < p->num_props; i++)
            if (p->props[i].name == TV_PROP_GS_INPUT_PRIMITIVE &&
                p->props[i].value < TVT_NUM_PRIMITIVES && verts[p->props[i].value] &&
                (r->dim < 0 || r->dim >= verts[p->props[i].value]))
                return verr(v, in, 0, "`%s`: a %s input primitive has %u vertices", rt,
                            tvt_primitive_names[p->props[i].value], verts[p->props[i].value]);
    }
    if (r->indirect && !v->strict)
        return TV_OK; /* the effective index is known at run time only */
    int32_t dim = (r->has_dim && !per_vertex && !r->dim_indirect) ? r->dim : 0;
    if (r->has_dim && r->dim_indirect && r->file == TV_FILE_CONST && !v->strict)
        return TV_OK;
    if (!find_decl(p, r->file, dim, r->index)) {
        bool found = false;
        if (per_vertex || r->file != TV_FILE_CONST) {
            /* a per-vertex 2D reference matches 2D-less declarations */
            for (uint32_t i = 0; i < p->num_decls && !found; i++)
                found = p->decls[i].file == r->file && r->index >= p->decls[i].first &&
                        r->index <= p->decls[i].last;
        }
        /* Mesa (nir_to_tgsi) declares `DCL MEMORY[1], SHARED` and uses MEMORY[0]:
         * lenient mode accepts any MEMORY index once MEMORY is declared. */
        if (!found && r->file == TV_FILE_MEMORY && !v->strict &&
            file_declared_at_all(p, TV_FILE_MEMORY))
            found = true;
        if (!found)
            return verr(v, in, 0, "`%s` is not declared", rt);
    }
    return TV_OK;
}

static tv_status check_dst(vctx *v, const tv_tgsi_instruction *in, const tv_tgsi_opinfo *info,
                           const tv_tgsi_dst *d)
{
    char rt[96];
    tvt_format_reg(&d->reg, rt, sizeof rt);
    if (d->writemask == 0 || d->writemask > 0xf)
        return verr(v, in, 0, "the write mask of `%s` is empty", rt);
    unsigned f = d->reg.file;
    bool ok;
    if (info->res_dst)
        ok = f == TV_FILE_BUFFER || f == TV_FILE_IMAGE || f == TV_FILE_MEMORY ||
             f == TV_FILE_HWATOMIC || is_bindless_handle_file(f);
    else if (f == TV_FILE_ADDR)
        ok = in->opcode == TV_TGSI_OP_ARL || in->opcode == TV_TGSI_OP_UARL ||
             in->opcode == TV_TGSI_OP_ARR || !v->strict;
    else
        ok = f == TV_FILE_TEMP || f == TV_FILE_OUT || f == TV_FILE_NULL;
    if (!ok) {
        if (info->res_dst)
            return verr(v, in, 0, "the destination of `%s` must be a BUFFER, IMAGE or MEMORY "
                        "register, not `%s`", info->name, rt);
        if (f == TV_FILE_ADDR)
            return verr(v, in, 0, "`%s` can only be written by ARL, UARL or ARR", rt);
        return verr(v, in, 0, "`%s` cannot be written (%s registers are read-only)", rt,
                    fname(f));
    }
    if (f == TV_FILE_NULL)
        return TV_OK;
    return check_reg(v, in, &d->reg, true);
}

static tv_status check_src(vctx *v, const tv_tgsi_instruction *in, const tv_tgsi_opinfo *info,
                           unsigned i, const tv_tgsi_src *s)
{
    char rt[96];
    tvt_format_reg(&s->reg, rt, sizeof rt);
    unsigned f = s->reg.file;
    for (int k = 0; k < 4; k++)
        if (s->swizzle[k] > 3)
            return verr(v, in, 0, "invalid swizzle on `%s`", rt);
    if ((int)i == info->samp_src) {
        if (f != TV_FILE_SAMP && !is_bindless_handle_file(f))
            return verr(v, in, 0, "source %u of `%s` must be a sampler (SAMP[n]), not `%s`",
                        i + 1, info->name, rt);
    } else if ((int)i == info->sview_src) {
        if (f != TV_FILE_SVIEW && !is_bindless_handle_file(f))
            return verr(v, in, 0,
                        "source %u of `%s` must be a sampler view (SVIEW[n]), not `%s`", i + 1,
                        info->name, rt);
    } else if ((int)i == info->res_src) {
        if (f != TV_FILE_BUFFER && f != TV_FILE_IMAGE && f != TV_FILE_MEMORY &&
            f != TV_FILE_HWATOMIC && !is_bindless_handle_file(f))
            return verr(v, in, 0,
                        "source %u of `%s` must be a BUFFER, IMAGE or MEMORY register, not `%s`",
                        i + 1, info->name, rt);
    } else if (f == TV_FILE_SAMP || f == TV_FILE_SVIEW || f == TV_FILE_BUFFER ||
               f == TV_FILE_IMAGE || f == TV_FILE_MEMORY || f == TV_FILE_HWATOMIC) {
        /* SAMPLE_POS/SAMPLE_INFO/TXQS/… take a view; otherwise resources are not values */
        bool resource_query = info->category == TV_OPC_SAMPLE || info->category == TV_OPC_TEXTURE ||
                              info->category == TV_OPC_RESOURCE;
        if (!resource_query)
            return verr(v, in, 0, "`%s` is not a value: it cannot be source %u of `%s`", rt,
                        i + 1, info->name);
    }
    if (f == TV_FILE_OUT && v->strict && v->p->processor != TV_TGSI_TESS_CTRL &&
        in->opcode != TV_TGSI_OP_FBFETCH)
        return verr(v, in, 0, "`%s`: outputs can only be read in TESS_CTRL programs or by "
                    "FBFETCH", rt);
    if ((in->opcode == TV_TGSI_OP_INTERP_CENTROID || in->opcode == TV_TGSI_OP_INTERP_SAMPLE ||
         in->opcode == TV_TGSI_OP_INTERP_OFFSET) && i == 0 && f != TV_FILE_IN)
        return verr(v, in, 0, "source 1 of `%s` must be an input (IN[n]), not `%s`", info->name,
                    rt);
    if (in->opcode == TV_TGSI_OP_FBFETCH && f != TV_FILE_OUT)
        return verr(v, in, 0, "the source of `FBFETCH` must be an output (OUT[n]), not `%s`", rt);
    if (f == TV_FILE_NULL)
        return verr(v, in, 0, "`NULL` cannot be read");
    return check_reg(v, in, &s->reg, false);
}

/* ---- textures ----------------------------------------------------------------------- */

static unsigned base_target(unsigned t)
{
    switch (t) {
    case TV_TGT_SHADOW1D: return TV_TGT_1D;
    case TV_TGT_SHADOW2D: return TV_TGT_2D;
    case TV_TGT_SHADOWRECT: return TV_TGT_RECT;
    case TV_TGT_SHADOW1D_ARRAY: return TV_TGT_1D_ARRAY;
    case TV_TGT_SHADOW2D_ARRAY: return TV_TGT_2D_ARRAY;
    case TV_TGT_SHADOWCUBE: return TV_TGT_CUBE;
    case TV_TGT_SHADOWCUBE_ARRAY: return TV_TGT_CUBE_ARRAY;
    default: return t;
    }
}

static bool targets_compatible(unsigned insn, unsigned decl, bool strict)
{
    unsigned a = base_target(insn), b = base_target(decl);
    if (a == b || decl == TV_TGT_UNKNOWN)
        return true;
    if (!strict && ((a == TV_TGT_2D && b == TV_TGT_RECT) || (a == TV_TGT_RECT && b == TV_TGT_2D)))
        return true;
    return false;
}

static tv_status check_texture(vctx *v, const tv_tgsi_instruction *in,
                               const tv_tgsi_opinfo *info)
{
    const tv_tgsi_program *p = v->p;
    if (in->num_tex_offsets > TV_TGSI_MAX_TEXOFFSETS)
        return verr(v, in, 0, "too many texture offsets (at most %d)", TV_TGSI_MAX_TEXOFFSETS);
    if (in->num_tex_offsets && !(info->flags & TV_OPF_OFFSETS))
        return verr(v, in, 0, "`%s` does not take texture offsets", info->name);
    for (unsigned i = 0; i < in->num_tex_offsets; i++) {
        const tv_tgsi_texoffset *o = &in->tex_offsets[i];
        tv_tgsi_reg r;
        memset(&r, 0, sizeof r);
        r.file = o->file;
        r.index = o->index;
        if (o->file != TV_FILE_IMM && o->file != TV_FILE_TEMP && o->file != TV_FILE_CONST &&
            o->file != TV_FILE_IN)
            return verr(v, in, 0, "texture offsets must come from IMM, TEMP, CONST or IN "
                        "registers");
        tv_status st = check_reg(v, in, &r, false);
        if (st)
            return st;
    }
    if (info->flags & TV_OPF_TEX) {
        if (in->tex_target >= TV_TGT_COUNT)
            return verr(v, in, 0, "invalid texture target");
        if (in->tex_target == TV_TGT_UNKNOWN && v->strict)
            return verr(v, in, 0, "`%s` needs a real texture target, not UNKNOWN", info->name);
        const tv_tgsi_src *s = &in->src[info->samp_src];
        if (s->reg.file == TV_FILE_SAMP && !s->reg.indirect) {
            const tv_tgsi_declaration *d = find_decl(p, TV_FILE_SVIEW, 0, s->reg.index);
            if (!d) {
                if (v->strict && file_declared_at_all(p, TV_FILE_SVIEW))
                    return verr(v, in, 0, "`SAMP[%d]` has no matching `DCL SVIEW[%d]`",
                                s->reg.index, s->reg.index);
            } else if (!targets_compatible(in->tex_target, d->sview_target, v->strict)) {
                return verr(v, in, 0,
                            "texture target %s of `%s` does not match `DCL SVIEW[%d], %s` "
                            "(line %u)",
                            tvt_target_names[in->tex_target], info->name, s->reg.index,
                            tvt_target_names[d->sview_target], d->line);
            }
        }
    }
    return TV_OK;
}

static tv_status check_memory(vctx *v, const tv_tgsi_instruction *in,
                              const tv_tgsi_opinfo *info)
{
    if (in->mem_qualifier & ~0xfu)
        return verr(v, in, 0, "invalid memory qualifier");
    if ((in->mem_qualifier || in->mem_format || in->mem_target != TV_TGT_UNKNOWN) &&
        !(info->flags & TV_OPF_MEMQ))
        return verr(v, in, 0, "`%s` does not take memory qualifiers", info->name);
    if (in->mem_target >= TV_TGT_COUNT || in->mem_format >= tvt_num_pipe_formats)
        return verr(v, in, 0, "invalid memory target or format");
    if (!v->strict)
        return TV_OK;
    const tv_tgsi_reg *r = info->res_dst ? &in->dst[0].reg
                         : info->res_src >= 0 ? &in->src[info->res_src].reg : NULL;
    if (r && r->file == TV_FILE_IMAGE && !r->indirect) {
        const tv_tgsi_declaration *d = find_decl(v->p, TV_FILE_IMAGE, 0, r->index);
        if (d && in->mem_target != TV_TGT_UNKNOWN && in->mem_target != d->image_target)
            return verr(v, in, 0, "target %s does not match `DCL IMAGE[%d], %s` (line %u)",
                        tvt_target_names[in->mem_target], r->index,
                        tvt_target_names[d->image_target], d->line);
        if (d && (info->flags & TV_OPF_STORE) && !d->writable)
            return verr(v, in, 0, "`IMAGE[%d]` is written but not declared WR (line %u)",
                        r->index, d->line);
    }
    return TV_OK;
}

/* ---- control flow ------------------------------------------------------------------- */

typedef struct frame {
    uint16_t opcode; /* IF, UIF, ELSE, BGNLOOP, SWITCH, BGNSUB */
    uint32_t at;     /* instruction index */
    bool has_default;
} frame;

static const char *frame_name(const frame *f)
{
    return tv_tgsi_opinfo_get(f->opcode)->name;
}

static tv_status check_flow(vctx *v)
{
    const tv_tgsi_program *p = v->p;
    frame stack[MAX_NESTING];
    int depth = 0, loops = 0, switches = 0, ends = 0;
    bool after_end = false;
    for (uint32_t i = 0; i < p->num_insns; i++) {
        const tv_tgsi_instruction *in = &p->insns[i];
        unsigned op = in->opcode;
        frame *top = depth ? &stack[depth - 1] : NULL;
        /* labels */
        if (in->has_label && in->label >= p->num_insns)
            return verr(v, in, 0, "label :%u of `%s` is out of range (the program has %u "
                        "instructions)", in->label, opname(in), p->num_insns);
        switch (op) {
        case TV_TGSI_OP_IF:
        case TV_TGSI_OP_UIF:
        case TV_TGSI_OP_BGNLOOP:
        case TV_TGSI_OP_SWITCH:
        case TV_TGSI_OP_BGNSUB:
            if (depth >= MAX_NESTING)
                return verr(v, in, 0, "blocks are nested too deeply (at most %d)", MAX_NESTING);
            if (op == TV_TGSI_OP_BGNSUB && depth)
                return verr(v, in, 0, "`BGNSUB` inside `%s` (line %u): subroutines cannot be "
                            "nested", frame_name(top), p->insns[top->at].line);
            stack[depth].opcode = (uint16_t)op;
            stack[depth].at = i;
            stack[depth].has_default = false;
            depth++;
            if (op == TV_TGSI_OP_BGNLOOP)
                loops++;
            if (op == TV_TGSI_OP_SWITCH)
                switches++;
            if (op == TV_TGSI_OP_BGNSUB)
                after_end = false;
            break;
        case TV_TGSI_OP_ELSE:
            if (!top || (top->opcode != TV_TGSI_OP_IF && top->opcode != TV_TGSI_OP_UIF))
                return verr(v, in, 0, "`ELSE` without a matching `IF` or `UIF`%s%s",
                            top ? " (innermost open block: " : "",
                            top ? frame_name(top) : "");
            top->opcode = TV_TGSI_OP_ELSE;
            break;
        case TV_TGSI_OP_ENDIF:
        case TV_TGSI_OP_ENDLOOP:
        case TV_TGSI_OP_ENDSWITCH:
        case TV_TGSI_OP_ENDSUB: {
            bool match = top && ((op == TV_TGSI_OP_ENDIF &&
                                  (top->opcode == TV_TGSI_OP_IF || top->opcode == TV_TGSI_OP_UIF ||
                                   top->opcode == TV_TGSI_OP_ELSE)) ||
                                 (op == TV_TGSI_OP_ENDLOOP && top->opcode == TV_TGSI_OP_BGNLOOP) ||
                                 (op == TV_TGSI_OP_ENDSWITCH && top->opcode == TV_TGSI_OP_SWITCH) ||
                                 (op == TV_TGSI_OP_ENDSUB && top->opcode == TV_TGSI_OP_BGNSUB));
            if (!match) {
                if (top)
                    return verr(v, in, 0, "`%s` does not match the `%s` opened at line %u",
                                opname(in), frame_name(top), p->insns[top->at].line);
                return verr(v, in, 0, "`%s` without an open block", opname(in));
            }
            if (op == TV_TGSI_OP_ENDLOOP)
                loops--;
            if (op == TV_TGSI_OP_ENDSWITCH)
                switches--;
            depth--;
            break;
        }
        case TV_TGSI_OP_BRK:
            if (!loops && !switches)
                return verr(v, in, 0, "`BRK` outside a loop or switch");
            break;
        case TV_TGSI_OP_CONT:
            if (!loops)
                return verr(v, in, 0, "`CONT` outside a loop");
            break;
        case TV_TGSI_OP_CASE:
        case TV_TGSI_OP_DEFAULT:
            if (!top || top->opcode != TV_TGSI_OP_SWITCH)
                return verr(v, in, 0, "`%s` outside a `SWITCH`%s", opname(in),
                            top ? " (it must be directly inside the SWITCH block)" : "");
            if (op == TV_TGSI_OP_DEFAULT) {
                if (top->has_default && v->strict)
                    return verr(v, in, 0, "a second `DEFAULT` in the `SWITCH` at line %u",
                                p->insns[top->at].line);
                top->has_default = true;
            }
            break;
        case TV_TGSI_OP_CAL:
            if (!in->has_label)
                return verr(v, in, 0, "`CAL` needs a label `:N` naming a `BGNSUB` instruction");
            if (p->insns[in->label].opcode != TV_TGSI_OP_BGNSUB)
                return verr(v, in, 0, "label :%u of `CAL` does not point at a `BGNSUB` (it points "
                            "at `%s`)", in->label, opname(&p->insns[in->label]));
            break;
        case TV_TGSI_OP_END:
            ends++;
            if (v->strict && depth)
                return verr(v, in, 0, "`END` inside the `%s` opened at line %u",
                            frame_name(top), p->insns[top->at].line);
            if (v->strict && ends > 1)
                return verr(v, in, 0, "more than one `END`");
            after_end = true;
            break;
        default:
            if (v->strict && after_end && !depth)
                return verr(v, in, 0, "`%s` after `END` outside a subroutine", opname(in));
            break;
        }
    }
    if (depth) {
        const frame *f = &stack[depth - 1];
        return verr(v, &p->insns[f->at], 0, "`%s` is not closed (missing `%s`)", frame_name(f),
                    f->opcode == TV_TGSI_OP_BGNLOOP ? "ENDLOOP"
                    : f->opcode == TV_TGSI_OP_SWITCH ? "ENDSWITCH"
                    : f->opcode == TV_TGSI_OP_BGNSUB ? "ENDSUB" : "ENDIF");
    }
    if (v->strict && !ends)
        return verr(v, NULL, p->num_insns ? p->insns[p->num_insns - 1].line : p->first_line,
                    "the program has no `END`");
    return TV_OK;
}

/* Strict: IF/UIF :label = its ELSE or ENDIF, ELSE :label = its ENDIF. */
static tv_status check_if_labels(vctx *v)
{
    const tv_tgsi_program *p = v->p;
    uint32_t stack[MAX_NESTING];
    int depth = 0;
    for (uint32_t i = 0; i < p->num_insns; i++) {
        unsigned op = p->insns[i].opcode;
        if (op == TV_TGSI_OP_IF || op == TV_TGSI_OP_UIF || op == TV_TGSI_OP_BGNLOOP ||
            op == TV_TGSI_OP_SWITCH || op == TV_TGSI_OP_BGNSUB) {
            stack[depth++] = i;
        } else if (op == TV_TGSI_OP_ELSE || op == TV_TGSI_OP_ENDIF) {
            const tv_tgsi_instruction *open = &p->insns[stack[depth - 1]];
            if (open->has_label && open->label != i)
                return verr(v, open, 0, "label :%u of `%s` should point at its `%s` (instruction "
                            "%u)", open->label, opname(open), opname(&p->insns[i]), i);
            if (op == TV_TGSI_OP_ELSE)
                stack[depth - 1] = i;
            else
                depth--;
        } else if (op == TV_TGSI_OP_ENDLOOP || op == TV_TGSI_OP_ENDSWITCH ||
                   op == TV_TGSI_OP_ENDSUB) {
            depth--;
        }
    }
    return TV_OK;
}

/* ---- instructions ------------------------------------------------------------------- */

static tv_status check_insn(vctx *v, const tv_tgsi_instruction *in)
{
    const tv_tgsi_program *p = v->p;
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(in->opcode);
    if (!info)
        return verr(v, in, 0, "unknown opcode number %u", in->opcode);
    if (in->num_dst != info->num_dst || in->num_src != info->num_src)
        return verr(v, in, 0, "`%s` takes %u destination%s and %u source%s, found %u and %u",
                    info->name, info->num_dst, info->num_dst == 1 ? "" : "s", info->num_src,
                    info->num_src == 1 ? "" : "s", in->num_dst, in->num_src);
    if (!(info->stages & (1u << p->processor))) {
        char allowed[64] = "";
        size_t k = 0;
        for (unsigned s = 0; s < TV_TGSI_PROCESSOR_COUNT; s++)
            if (info->stages & (1u << s))
                k += (size_t)snprintf(allowed + k, sizeof allowed - k, "%s%s", k ? "/" : "",
                                      tvt_processor_names[s]);
        return verr(v, in, 0, "`%s` is only allowed in %s programs, not in %s", info->name,
                    allowed, pname(p->processor));
    }
    if (in->has_label && !(info->flags & TV_OPF_BRANCH))
        return verr(v, in, 0, "`%s` cannot take a label", info->name);
    if (in->saturate && info->num_dst == 0)
        return verr(v, in, 0, "`%s_SAT`: an instruction without a destination cannot saturate",
                    info->name);
    for (unsigned i = 0; i < in->num_dst; i++) {
        tv_status st = check_dst(v, in, info, &in->dst[i]);
        if (st)
            return st;
    }
    if (v->strict && (info->flags & TV_OPF_DST64) && in->num_dst) {
        unsigned m = in->dst[0].writemask;
        if ((m & 0x3) == 0x1 || (m & 0x3) == 0x2 || (m & 0xc) == 0x4 || (m & 0xc) == 0x8) {
            char rt[96];
            tvt_format_reg(&in->dst[0].reg, rt, sizeof rt);
            return verr(v, in, 0, "`%s` writes 64-bit values: the write mask of `%s` must "
                        "cover whole channel pairs (xy, zw or xyzw)", info->name, rt);
        }
    }
    for (unsigned i = 0; i < in->num_src; i++) {
        tv_status st = check_src(v, in, info, i, &in->src[i]);
        if (st)
            return st;
    }
    if (in->has_texture || (info->flags & TV_OPF_TEX)) {
        if ((info->flags & TV_OPF_TEX) && !in->has_texture)
            return verr(v, in, 0, "`%s` needs a texture target", info->name);
        if (!(info->flags & (TV_OPF_TEX | TV_OPF_OFFSETS)))
            return verr(v, in, 0, "`%s` does not take a texture target", info->name);
        tv_status st = check_texture(v, in, info);
        if (st)
            return st;
    }
    if (info->sview_src >= 0) {
        const tv_tgsi_reg *r = &in->src[info->sview_src].reg;
        if (r->file == TV_FILE_SVIEW && !r->indirect && !find_decl(p, TV_FILE_SVIEW, 0, r->index))
            return verr(v, in, 0, "`SVIEW[%d]` is not declared", r->index);
    }
    return check_memory(v, in, info);
}

tv_status tv_tgsi_validate(const tv_tgsi_program *prog, tv_tgsi_strictness strictness,
                           tv_error *err)
{
    tv_error_clear(err);
    if (!prog)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_tgsi_validate: NULL program");
    vctx v = {prog, strictness == TV_TGSI_STRICT, err};
    if (prog->processor >= TV_TGSI_PROCESSOR_COUNT)
        return verr(&v, NULL, prog->first_line, "unknown processor %u", prog->processor);
    tv_status st = check_props(&v);
    if (!st)
        st = check_decls(&v);
    for (uint32_t i = 0; !st && i < prog->num_insns; i++)
        st = check_insn(&v, &prog->insns[i]);
    if (!st)
        st = check_flow(&v);
    if (!st && v.strict)
        st = check_if_labels(&v);
    return st;
}
