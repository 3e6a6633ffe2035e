/* TGSI parser: DCL statements (register ranges and attributes) and PROPERTY. */
#include "tgsi/tgsi_parser.h"

typedef struct range {
    bool empty; /* `[]` */
    int32_t first, last;
    size_t at;
} range;

static bool parse_range(parser *c, range *r)
{
    skip_sp(c);
    r->at = c->p;
    if (peek(c) == ']') {
        c->p++;
        r->empty = true;
        r->first = r->last = 0;
        return true;
    }
    r->empty = false;
    uint64_t a, b;
    if (!tvp_parse_uint(c, TVP_MAX_INDEX, &a, "register index"))
        return false;
    b = a;
    skip_sp(c);
    if (peek(c) == '.' && peek_at(c, 1) == '.') {
        c->p += 2;
        if (!tvp_parse_uint(c, TVP_MAX_INDEX, &b, "last register index"))
            return false;
        if (b < a) {
            char buf[48];
            return tvp_fail_at(c, r->at, c->p - r->at, "declaration range `[%s]` runs backwards",
                               tvp_quote(c, r->at, c->p - r->at, buf));
        }
    }
    r->first = (int32_t)a;
    r->last = (int32_t)b;
    return tvp_expect_char(c, ']', "`]`");
}

bool tvp_parse_declaration(parser *c)
{
    tv_tgsi_program *pr = c->cur;
    char b[48];
    GROW(c, pr->decls, pr->num_decls, c->cap_decls);
    uint32_t di = pr->num_decls;
    tv_tgsi_declaration *d = &pr->decls[di];
    memset(d, 0, sizeof *d);
    d->line = c->line;
    d->usage_mask = 0xf;
    d->sview_target = TV_TGT_UNKNOWN;
    d->image_target = TV_TGT_UNKNOWN;
    for (int i = 0; i < 4; i++)
        d->return_type[i] = TV_RET_FLOAT;
    skip_sp(c);
    if (!tvp_parse_file_word(c, &d->file))
        return false;
    if (!tvp_expect_char(c, '[', "`[` after the register file"))
        return false;
    range r0, r1;
    if (!parse_range(c, &r0))
        return false;
    bool two = false;
    if (peek(c) == '[') {
        c->p++;
        if (!parse_range(c, &r1))
            return false;
        two = true;
    }
    skip_sp(c);
    if (!tvp_parse_writemask(c, &d->usage_mask))
        return false;

    /* attributes, comma-separated, in Mesa's order or any other */
    int nret = 0;
    bool have_target = false, have_sem = false, have_loc = false;
    for (skip_sp(c); peek(c) == ','; skip_sp(c)) {
        c->p++;
        skip_ws(c);
        size_t at = c->p, len = word_len(c);
        int k;
        if (len == 0) {
            if (at_eol(c))
                return tvp_fail_at(c, at, 0, "expected a declaration attribute after `,`");
            return tvp_fail_at(c, at, 0, "expected a declaration attribute, found `%s`",
                               tvp_quote(c, at, token_len(c, at), b));
        }
        c->p += len;
        if (tvp_word_is(c, at, len, "ARRAY")) {
            uint64_t v;
            if (!tvp_expect_char(c, '(', "`(` after ARRAY") ||
                !tvp_parse_uint(c, TVP_MAX_INDEX, &v, "array id") || !tvp_expect_char(c, ')', "`)`"))
                return false;
            if (v == 0)
                return tvp_fail_at(c, at, c->p - at, "array ids start at 1 (`ARRAY(0)` means none)");
            d->array_id = (uint32_t)v;
            continue;
        }
        switch (d->file) {
        case TV_FILE_SVIEW:
            if (!have_target && (k = tvt_lookup(tvt_target_names, TV_TGT_COUNT, c->s + at, len)) >= 0) {
                d->sview_target = (uint8_t)k;
                have_target = true;
                continue;
            }
            if (have_target && (k = tvt_lookup(tvt_return_type_names, TV_RET_COUNT, c->s + at, len)) >= 0) {
                if (nret >= 4)
                    return tvp_fail_at(c, at, len, "too many return types (at most 4)");
                d->return_type[nret++] = (uint8_t)k;
                continue;
            }
            if (!have_target)
                return tvp_fail_at(c, at, len,
                                   "expected a texture target for `DCL SVIEW`, found `%s`%s",
                                   tvp_quote(c, at, len, b),
                                   tvp_word_is(c, at, len, "CUBE_ARRAY")
                                       ? " (TGSI spells it `CUBEARRAY`)"
                                       : "");
            return tvp_fail_at(c, at, len,
                               "unknown sampler-view return type `%s` (UNORM, SNORM, SINT, UINT or "
                               "FLOAT)",
                               tvp_quote(c, at, len, b));
        case TV_FILE_IMAGE:
            if (!have_target && (k = tvt_lookup(tvt_target_names, TV_TGT_COUNT, c->s + at, len)) >= 0) {
                d->image_target = (uint8_t)k;
                have_target = true;
                continue;
            }
            if (tvp_word_is(c, at, len, "RAW")) {
                d->raw = true;
                continue;
            }
            if (tvp_word_is(c, at, len, "WR")) {
                d->writable = true;
                continue;
            }
            if ((k = tvt_pipe_format_lookup(c->s + at, len)) >= 0) {
                d->image_format = (uint16_t)k;
                continue;
            }
            if (!have_target)
                return tvp_fail_at(c, at, len, "expected a texture target for `DCL IMAGE`, found `%s`",
                                   tvp_quote(c, at, len, b));
            if (len > 12 && tvp_word_is(c, at, 12, "PIPE_FORMAT_"))
                return tvp_fail_at(c, at, len, "unknown image format `%s`", tvp_quote(c, at, len, b));
            return tvp_fail_at(c, at, len,
                               "unexpected `%s` in an IMAGE declaration (expected RAW, WR or a "
                               "PIPE_FORMAT)",
                               tvp_quote(c, at, len, b));
        case TV_FILE_BUFFER:
            if (tvp_word_is(c, at, len, "ATOMIC")) {
                d->atomic = true;
                continue;
            }
            return tvp_fail_at(c, at, len, "unexpected `%s` in a BUFFER declaration (expected ATOMIC)",
                               tvp_quote(c, at, len, b));
        case TV_FILE_MEMORY:
            if ((k = tvt_lookup(tvt_memory_type_names, TV_MEM_COUNT, c->s + at, len)) >= 0) {
                d->memory_type = (uint8_t)k;
                continue;
            }
            return tvp_fail_at(c, at, len,
                               "unknown memory type `%s` (GLOBAL, SHARED, PRIVATE or INPUT)",
                               tvp_quote(c, at, len, b));
        default:
            break;
        }
        if (tvp_word_is(c, at, len, "LOCAL")) {
            d->local = true;
            continue;
        }
        if (tvp_word_is(c, at, len, "INVARIANT")) {
            d->invariant = true;
            continue;
        }
        if (tvp_word_is(c, at, len, "STREAM")) {
            if (!tvp_expect_char(c, '(', "`(` after STREAM"))
                return false;
            for (int i = 0; i < 4; i++) {
                uint64_t v;
                if (i && !tvp_expect_char(c, ',', "`,` between stream numbers"))
                    return false;
                if (!tvp_parse_uint(c, 3, &v, "stream number"))
                    return false;
                d->stream[i] = (uint8_t)v;
            }
            if (!tvp_expect_char(c, ')', "`)`"))
                return false;
            d->has_stream = true;
            continue;
        }
        if (!have_sem && (k = tvt_lookup(tvt_semantic_names, TV_SEM_COUNT, c->s + at, len)) >= 0) {
            have_sem = true;
            d->has_semantic = true;
            d->semantic = (uint8_t)k;
            skip_sp(c);
            if (peek(c) == '[') {
                uint64_t v;
                c->p++;
                if (!tvp_parse_uint(c, 0xffffffffu, &v, "semantic index") ||
                    !tvp_expect_char(c, ']', "`]`"))
                    return false;
                d->semantic_index = (uint32_t)v;
            }
            continue;
        }
        if (!d->has_interp && (k = tvt_lookup(tvt_interp_names, TV_INTERP_COUNT, c->s + at, len)) >= 0) {
            d->has_interp = true;
            d->interp = (uint8_t)k;
            continue;
        }
        if (!have_loc && (k = tvt_lookup(tvt_location_names, TV_LOC_COUNT, c->s + at, len)) >= 0) {
            have_loc = true;
            d->location = (uint8_t)k;
            continue;
        }
        if (tvt_lookup(tvt_semantic_names, TV_SEM_COUNT, c->s + at, len) >= 0 ||
            tvt_lookup(tvt_interp_names, TV_INTERP_COUNT, c->s + at, len) >= 0 ||
            tvt_lookup(tvt_location_names, TV_LOC_COUNT, c->s + at, len) >= 0)
            return tvp_fail_at(c, at, len, "duplicate declaration attribute `%s`",
                               tvp_quote(c, at, len, b));
        return tvp_fail_at(c, at, len,
                           "unknown declaration attribute `%s` (expected a semantic, an "
                           "interpolation, a location, INVARIANT, LOCAL, ARRAY(n) or STREAM(...))",
                           tvp_quote(c, at, len, b));
    }
    if (d->file == TV_FILE_SVIEW) {
        if (!have_target)
            return tvp_fail_at(c, c->p, 0,
                               "`DCL SVIEW` needs a texture target and a return type, e.g. "
                               "`DCL SVIEW[0], 2D, FLOAT`");
        if (nret == 0)
            return tvp_fail_at(c, c->p, 0,
                               "`DCL SVIEW` needs a return type after the target (UNORM, SNORM, "
                               "SINT, UINT or FLOAT)");
        if (nret < 4) /* as Mesa: with fewer than four, the first one applies to all */
            for (int i = 1; i < 4; i++)
                d->return_type[i] = d->return_type[0];
    }
    if (d->file == TV_FILE_IMAGE && !have_target)
        return tvp_fail_at(c, c->p, 0,
                           "`DCL IMAGE` needs a texture target, e.g. `DCL IMAGE[0], 2D, "
                           "PIPE_FORMAT_R32G32B32A32_FLOAT, WR`");

    /* registers: per-vertex files drop the vertex bracket (printed back as `[]`) */
    bool per_vertex = tvt_decl_is_per_vertex(pr->processor, d);
    range *reg = two ? &r1 : &r0;
    if (reg->empty)
        return tvp_fail_at(c, reg->at, 1, "a declaration needs a register index or range inside `[]`");
    if (two && !per_vertex) {
        if (r0.empty)
            return tvp_fail_at(c, r0.at, 1,
                               "`[]` is only allowed for per-vertex inputs and outputs (GEOM, "
                               "TESS_CTRL, TESS_EVAL)");
        if (r0.first != r0.last)
            return tvp_fail_at(c, r0.at, 0, "the dimension of a declaration is one index, not a range");
    }
    d->first = reg->first;
    d->last = reg->last;
    if (per_vertex) {
        d->has_dim = true;
        d->dim = 0;
        d->dim_implied = true;
    } else if (two) {
        d->has_dim = true;
        d->dim = r0.first;
    }
    pr->num_decls++;
    return tvp_add_stmt(c, TV_STMT_DECL, di);
}

bool tvp_parse_property(parser *c)
{
    tv_tgsi_program *pr = c->cur;
    char b[48];
    skip_sp(c);
    size_t at = c->p, len = word_len(c);
    int k = len ? tvt_lookup(tvt_property_names, TV_PROP_COUNT, c->s + at, len) : -1;
    if (k < 0) {
        if (!len)
            return tvp_fail_at(c, at, 0, "`PROPERTY` needs a property name and a value");
        return tvp_fail_at(c, at, len, "unknown property `%s`", tvp_quote(c, at, len, b));
    }
    c->p += len;
    skip_sp(c);
    int count;
    const char *const *names = tvt_property_value_names((unsigned)k, &count);
    uint32_t value;
    size_t vat = c->p, vlen = word_len(c);
    if (names && vlen && !isdigit((unsigned char)c->s[vat])) {
        int v = tvt_lookup(names, count, c->s + vat, vlen);
        if (v < 0)
            return tvp_fail_at(c, vat, vlen, "unknown value `%s` for property %s",
                               tvp_quote(c, vat, vlen, b), tvt_property_names[k]);
        value = (uint32_t)v;
        c->p += vlen;
    } else {
        uint64_t v;
        if (!tvp_parse_uint(c, names ? (uint64_t)count - 1 : 0xffffffffu, &v, "property value"))
            return false;
        value = (uint32_t)v;
    }
    GROW(c, pr->props, pr->num_props, c->cap_props);
    tv_tgsi_prop *pp = &pr->props[pr->num_props];
    pp->name = (uint8_t)k;
    pp->value = value;
    pp->line = c->line;
    uint32_t idx = pr->num_props++;
    return tvp_add_stmt(c, TV_STMT_PROPERTY, idx);
}
