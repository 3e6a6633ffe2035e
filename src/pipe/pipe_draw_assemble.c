/* Primitive assembly of a draw (draw_vbo, pipe_draw.c): the draw's primitives from its
 * vertices or indices (pipe_prim.c), each vertex ID mapped to one shaded-vertex slot — the
 * post-transform vertex cache of indexed draws, an open-addressing hash table — and
 * patches kept apart for the tessellation stages. A file of its own because it runs once
 * per vertex: fuzz builds compile it without comparison tracing (CMakeLists.txt). */
#include "pipe_draw.h"
#include "pipe_prim.h"

#include <stdlib.h>
#include <string.h>

#define OP "draw_vbo"

int draw_charge(draw_state *d, uint64_t bytes, const char *what)
{
    if (pipe_charge_temp(d->ctx, &d->held, bytes, OP, what)) {
        d->quota_failed = true;
        return -1;
    }
    return 0;
}

/* The capacity of a primitive list after CAP when it is full (doubling from 256). */
static size_t grown_cap(size_t cap)
{
    return cap ? cap * 2 : 256;
}

draw_tri *draw_tri_push(draw_state *d, draw_tri **tris, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        size_t grown = grown_cap(*cap);
        if (draw_charge(d, (uint64_t)(grown - *cap) * sizeof **tris, "the primitives"))
            return NULL;
        draw_tri *t = realloc(*tris, grown * sizeof *t);
        if (!t)
            return NULL;
        *tris = t;
        *cap = grown;
    }
    draw_tri *t = &(*tris)[(*n)++];
    memset(t, 0, sizeof *t);
    return t;
}

static uint32_t slot_of(draw_assembly *a, uint32_t id)
{
    if (!a->indexed)
        return id;
    uint32_t h = (id * 2654435761u) & a->mask;
    while (a->vals[h] != UINT32_MAX) {
        if (a->keys[h] == id)
            return a->vals[h];
        h = (h + 1) & a->mask;
    }
    a->keys[h] = id;
    a->vals[h] = a->nids;
    a->ids[a->nids] = id;
    return a->nids++;
}

static bool collect(void *user, const prim_out *p)
{
    draw_assembly *a = user;
    /* the vertices rasterised: all of them for a geometry shader, else those of
       prim_rasterised, which differ only with adjacency (4 or 6 vertices); no copy of the
       record otherwise (its 16-byte loads waited for the narrower stores that had just
       built it: 0.7 % of the mesh scene) */
    prim_out r;
    const prim_out *q = p;
    if (!a->whole && (p->n == 4 || p->n == 6)) {
        prim_rasterised(p, &r);
        q = &r;
    }
    if (a->d->info->mode == PRIM_PATCHES) {   /* up to 32 vertices: kept apart */
        if (a->npatch + (size_t)p->n > a->patch_cap) {
            size_t c = a->patch_cap ? a->patch_cap * 2 : 256;
            while (c < a->npatch + (size_t)p->n)
                c *= 2;
            if (draw_charge(a->d, (uint64_t)(c - a->patch_cap) * 4, "the patches")) {
                a->failed = true;
                return false;
            }
            uint32_t *n = realloc(a->patch, c * 4);
            if (!n) {
                a->failed = true;
                return false;
            }
            a->patch = n;
            a->patch_cap = c;
        }
        for (int i = 0; i < p->n; i++)
            a->patch[a->npatch++] = slot_of(a, p->v[i]);
        return true;
    }
    draw_tri *t = draw_tri_push(a->d, &a->tris, &a->ntris, &a->cap);
    if (!t) {
        a->failed = true;
        return false;
    }
    t->n = q->n < DRAW_TRI_MAX ? q->n : DRAW_TRI_MAX;
    for (int i = 0; i < t->n; i++)
        t->v[i] = slot_of(a, q->v[i]);
    t->provoking = slot_of(a, p->provoking);
    t->id = p->id;
    t->first = p->first;
    return true;
}

/* A non-indexed draw of a plain list (points, lines, triangles: primitive p is vertices
 * k p .. k p + k - 1, slots being vertex numbers): the primitives collect() makes of
 * prim_assemble's, without a call per primitive (3 % of the mesh scene's 102400
 * triangles). Where no geometry or tessellation stage replaces the list, it stays
 * implicit (draw_assembly_prim builds each entry where it is read: writing 102400 entries
 * of 40 bytes was 0.7 ms of the mesh scene's draw, on one worker before the band jobs
 * begin). Otherwise it is written, grown to the capacity draw_tri_push's doublings
 * reach, charged at once (a charge fails exactly when one of theirs would). Returns the
 * primitives, or -1 (a->failed) when out of memory or over the quota. */
static long assemble_list(draw_state *d, draw_assembly *a, unsigned k, uint32_t mul,
                          uint32_t add)
{
    const uint32_t np = d->info->count / k;
    a->list_k = (uint8_t)k;
    a->list_mul = mul;
    a->list_add = add;
    if (!d->gs && !d->tes) {
        a->ntris = np;
        return np;
    }
    size_t cap = 0;
    while (cap < np)
        cap = grown_cap(cap);
    if (cap) {
        if (draw_charge(d, (uint64_t)cap * sizeof *a->tris, "the primitives")) {
            a->failed = true;
            return -1;
        }
        a->tris = malloc(cap * sizeof *a->tris);
        if (!a->tris) {
            a->failed = true;
            return -1;
        }
        a->cap = cap;
    }
    for (uint32_t p = 0; p < np; p++)
        draw_assembly_prim(a, p, &a->tris[p]);
    a->list_k = 0;
    a->ntris = np;
    return np;
}

int draw_assemble(draw_state *d, draw_assembly *a)
{
    tv_pipe_ctx *ctx = d->ctx;
    const tv_pipe_draw_info *info = d->info;
    bool last = !ctx->sub.rast.flatshade_first;
    memset(a, 0, sizeof *a);
    a->d = d;
    a->whole = d->gs != NULL;
    long n;
    unsigned k;
    uint32_t mul, add;
    if (!info->index_size) {
        n = prim_list_form(info->mode, last, &k, &mul, &add)
                ? assemble_list(d, a, k, mul, add)
                : prim_assemble(info->mode, info->count, info->vertices_per_patch, last, 0,
                                collect, a);
        d->slots = info->count;
    } else {
        pipe_resource *r = pipe_resource_find(ctx, ctx->sub.index_res);
        if (!r)
            return pipe_fail(ctx, OP ": no index buffer bound%s",
                             ctx->sub.index_res ? " (it was destroyed)" : "");
        size_t off = ctx->sub.index_offset < r->size ? ctx->sub.index_offset : r->size;
        a->indexed = true;
        uint32_t cap = 64;
        while (cap < 2u * info->count && cap < (1u << 26))
            cap *= 2;
        a->mask = cap - 1;
        if (draw_charge(d, (uint64_t)cap * 8 + (uint64_t)(info->count ? info->count : 1) * 4,
                        "the vertex cache"))
            return -1;
        a->keys = malloc((size_t)cap * 4);
        a->vals = malloc((size_t)cap * 4);
        a->ids = malloc((size_t)(info->count ? info->count : 1) * 4);
        if (!a->keys || !a->vals || !a->ids)
            return pipe_fail(ctx, OP ": out of memory");
        memset(a->vals, 0xff, (size_t)cap * 4);
        /* start is counted in indices from the bound offset */
        n = prim_assemble_indexed(info->mode, r->data + off, r->size - off, info->index_size,
                                  info->start, info->count, info->index_bias,
                                  info->primitive_restart, info->restart_index,
                                  info->vertices_per_patch, last, collect, a);
        d->slots = a->nids;
    }
    if (a->failed)
        return d->quota_failed ? -1 : pipe_fail(ctx, OP ": out of memory");
    if (n < 0)
        return pipe_fail(ctx, OP ": invalid primitive %u or patch size %u", info->mode,
                         info->vertices_per_patch);
    return 0;
}
