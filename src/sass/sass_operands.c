/* Operand layouts: which value each register of the A (Ra…) and B (Rb…) vectors holds,
 * and how many destination registers are written — the packing tables of the pages
 * (TLDS legal-modifier table, TMML/TXQ parameter tables) and reference §4.3/§5.1. */
#include "sass/sass_internal.h"

#include <string.h>

static const char *const slot_names[SL_COUNT] = {
    [SL_HANDLE] = "handle", [SL_LAYER] = "array", [SL_S] = "s", [SL_T] = "t", [SL_R] = "r",
    [SL_LOD] = "lod", [SL_BIAS] = "bias", [SL_OFFSETS] = "aoffi", [SL_DREF] = "dref",
    [SL_SAMPLE] = "ms", [SL_LODCLAMP] = "lod clamp", [SL_PTP0] = "ptp0", [SL_PTP1] = "ptp1",
    [SL_DSDX] = "ds/dx", [SL_DSDY] = "ds/dy", [SL_DTDX] = "dt/dx", [SL_DTDY] = "dt/dy",
    [SL_TXD_PACKED] = "array|aoffi", [SL_TXQ_PARAM] = "lod/sample",
};

const char *sass_slot_name(uint8_t slot)
{
    return slot < SL_COUNT ? slot_names[slot] : "?";
}

/* Register layouts of the TEXS and TLDS target codes: A slots, B slots. */
typedef struct code_layout {
    uint8_t code;
    uint8_t na, a[2], nb, b[2];
} code_layout;

static const code_layout texs_layout[] = {
    {0, 1, {SL_S}, 0, {0}},              {1, 1, {SL_S}, 1, {SL_T}},
    {2, 1, {SL_S}, 1, {SL_T}},           {3, 2, {SL_S, SL_T}, 1, {SL_LOD}},
    {4, 2, {SL_S, SL_T}, 1, {SL_DREF}},  {5, 2, {SL_S, SL_T}, 2, {SL_LOD, SL_DREF}},
    {6, 2, {SL_S, SL_T}, 1, {SL_DREF}},  {7, 2, {SL_LAYER, SL_S}, 1, {SL_T}},
    {8, 2, {SL_LAYER, SL_S}, 1, {SL_T}}, {9, 2, {SL_LAYER, SL_S}, 2, {SL_T, SL_DREF}},
    {10, 2, {SL_S, SL_T}, 1, {SL_R}},    {11, 2, {SL_S, SL_T}, 1, {SL_R}},
    {12, 2, {SL_S, SL_T}, 1, {SL_R}},    {13, 2, {SL_S, SL_T}, 2, {SL_R, SL_LOD}},
};

/* The TLDS page's legal-modifier table, columns Ra and Rb. */
static const code_layout tlds_layout[] = {
    {0, 1, {SL_S}, 0, {0}},                 {1, 1, {SL_S}, 1, {SL_LOD}},
    {2, 1, {SL_S}, 1, {SL_T}},              {4, 2, {SL_S, SL_T}, 1, {SL_OFFSETS}},
    {5, 2, {SL_S, SL_T}, 1, {SL_LOD}},      {6, 2, {SL_S, SL_T}, 1, {SL_SAMPLE}},
    {7, 2, {SL_S, SL_T}, 1, {SL_R}},        {8, 1, {SL_LAYER}, 2, {SL_S, SL_T}},
    {12, 2, {SL_S, SL_T}, 2, {SL_LOD, SL_OFFSETS}},
};

static void push(uint8_t *v, uint8_t *n, uint8_t slot)
{
    if (*n < SASS_MAX_VEC)
        v[(*n)++] = slot;
}

static void push_coords(uint8_t *v, uint8_t *n, uint8_t type)
{
    push(v, n, SL_S);
    if (type >= TV_SASS_2D)
        push(v, n, SL_T);
    if (type >= TV_SASS_3D)
        push(v, n, SL_R);
}

static bool is_array(uint8_t type) { return type & 1; }

static void scalar_layout(const tv_sass_insn *in, sass_layout *l)
{
    const code_layout *t = in->op == TV_SASS_TEXS ? texs_layout : tlds_layout;
    size_t n = in->op == TV_SASS_TEXS ? sizeof texs_layout / sizeof texs_layout[0]
                                      : sizeof tlds_layout / sizeof tlds_layout[0];
    const sass_code_row *row = sass_code_find(in);
    for (size_t i = 0; row && i < n; i++) {
        if (t[i].code != row->code)
            continue;
        l->na = t[i].na;
        l->nb = t[i].nb;
        memcpy(l->a, t[i].a, 2);
        memcpy(l->b, t[i].b, 2);
    }
}

void sass_layout_of(const tv_sass_insn *in, sass_layout *l)
{
    memset(l, 0, sizeof *l);
    uint8_t t = in->type;
    switch (in->op) {
    case TV_SASS_TEXS:
    case TV_SASS_TLDS:
        scalar_layout(in, l);
        l->int_coords = in->op == TV_SASS_TLDS;
        break;
    case TV_SASS_TEX:
        if (is_array(t))
            push(l->a, &l->na, SL_LAYER);
        push_coords(l->a, &l->na, t);
        if (in->lc && !is_array(t))
            push(l->a, &l->na, SL_LODCLAMP);
        if (in->bindless)
            push(l->b, &l->nb, SL_HANDLE);
        if (in->lod == TV_SASS_LOD_LB || in->lod == TV_SASS_LOD_LBA)
            push(l->b, &l->nb, SL_BIAS);
        if (in->lod == TV_SASS_LOD_LL || in->lod == TV_SASS_LOD_LLA)
            push(l->b, &l->nb, SL_LOD);
        if (in->aoffi)
            push(l->b, &l->nb, SL_OFFSETS);
        if (in->dc)
            push(l->b, &l->nb, SL_DREF);
        break;
    case TV_SASS_TLD:
        l->int_coords = 1;
        if (is_array(t))
            push(l->a, &l->na, SL_LAYER);
        push_coords(l->a, &l->na, t);
        if (in->bindless)
            push(l->b, &l->nb, SL_HANDLE);
        if (in->lod == TV_SASS_LOD_LL)
            push(l->b, &l->nb, SL_LOD);
        if (in->aoffi)
            push(l->b, &l->nb, SL_OFFSETS);
        if (in->ms)
            push(l->b, &l->nb, SL_SAMPLE);
        break;
    case TV_SASS_TLD4:
        if (is_array(t))
            push(l->a, &l->na, SL_LAYER);
        push_coords(l->a, &l->na, t);
        if (in->bindless)
            push(l->b, &l->nb, SL_HANDLE);
        if (in->aoffi)
            push(l->b, &l->nb, SL_OFFSETS);
        if (in->ptp) {
            push(l->b, &l->nb, SL_PTP0);
            push(l->b, &l->nb, SL_PTP1);
        }
        if (in->dc)
            push(l->b, &l->nb, SL_DREF);
        break;
    case TV_SASS_TLD4S: /* reference §5.5 table */
        push(l->a, &l->na, SL_S);
        if (in->dc || in->aoffi)
            push(l->a, &l->na, SL_T);
        else
            push(l->b, &l->nb, SL_T);
        if (in->aoffi)
            push(l->b, &l->nb, SL_OFFSETS);
        if (in->dc)
            push(l->b, &l->nb, SL_DREF);
        break;
    case TV_SASS_TMML:
        if (is_array(t))
            push(l->a, &l->na, SL_LAYER);
        push_coords(l->a, &l->na, t);
        if (in->bindless)
            push(l->b, &l->nb, SL_HANDLE);
        break;
    case TV_SASS_TXQ:
        if (in->bindless)
            push(l->a, &l->na, SL_HANDLE);
        if (in->query == TV_SASS_Q_DIMENSION || in->query == TV_SASS_Q_SAMPLER_POS)
            push(l->a, &l->na, SL_TXQ_PARAM);
        break;
    case TV_SASS_TXD:
        if (in->bindless)
            push(l->a, &l->na, SL_HANDLE);
        push_coords(l->a, &l->na, t & ~1u);
        if (is_array(t) || in->aoffi || in->lc)
            push(l->a, &l->na, SL_TXD_PACKED);
        push(l->b, &l->nb, SL_DSDX);
        push(l->b, &l->nb, SL_DSDY);
        if (t >= TV_SASS_2D) {
            push(l->b, &l->nb, SL_DTDX);
            push(l->b, &l->nb, SL_DTDY);
        }
        break;
    default:
        break;
    }
    uint8_t comps[4];
    unsigned to_rd;
    unsigned n = sass_result_components(in, comps, &to_rd);
    l->ncomp = (uint8_t)n;
    bool scalar = sass_ops[in->op < TV_SASS_OP_COUNT ? in->op : 0].scalar;
    if (!scalar) {
        l->nd = (uint8_t)n;
    } else if (in->f16) {
        l->nd = n > 0;
        l->nd2 = n > to_rd;
    } else {
        l->nd = (uint8_t)(n < to_rd ? n : to_rd);
        l->nd2 = (uint8_t)(n - l->nd);
    }
}

unsigned sass_result_components(const tv_sass_insn *in, uint8_t comps[4], unsigned *to_rd)
{
    uint8_t mask = in->op == TV_SASS_TLD4S ? 0xf : in->wmask & 0xf;
    unsigned n = 0;
    for (unsigned c = 0; c < 4; c++)
        if (mask & (1u << c))
            comps[n++] = (uint8_t)c;
    bool scalar = in->op < TV_SASS_OP_COUNT && sass_ops[in->op].scalar;
    *to_rd = scalar ? 2 : n;
    return n;
}
