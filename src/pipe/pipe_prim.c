/* Primitive assembly: one table row per topology (how many primitives a vertex count
 * makes, the provoking vertex of each convention) and the vertex order of each primitive
 * from GL 4.6 §10.1 (strips keep their winding: odd triangles swap their first two
 * vertices), table 10.1 for triangle strips with adjacency, table 13.2 for the provoking
 * vertex. */
#include "pipe_prim.h"

#include <string.h>

typedef struct prim_row {
    prim_info info;
    uint8_t list;             /* vertices per primitive of a plain list topology, else 0 */
    uint8_t first_mul, first_add, last_mul, last_add;   /* provoking = mul * p + add */
} prim_row;

static const prim_row rows[PRIM_COUNT] = {
    [PRIM_POINTS] = {{"POINTS", 1, false}, 1, 1, 0, 1, 0},
    [PRIM_LINES] = {{"LINES", 2, false}, 2, 2, 0, 2, 1},
    [PRIM_LINE_LOOP] = {{"LINE_LOOP", 2, false}, 0, 1, 0, 1, 1},
    [PRIM_LINE_STRIP] = {{"LINE_STRIP", 2, false}, 0, 1, 0, 1, 1},
    [PRIM_TRIANGLES] = {{"TRIANGLES", 3, false}, 3, 3, 0, 3, 2},
    [PRIM_TRIANGLE_STRIP] = {{"TRIANGLE_STRIP", 3, false}, 0, 1, 0, 1, 2},
    [PRIM_TRIANGLE_FAN] = {{"TRIANGLE_FAN", 3, false}, 0, 1, 1, 1, 2},
    [PRIM_QUADS] = {{"QUADS", 3, false}, 0, 4, 0, 4, 3},
    [PRIM_QUAD_STRIP] = {{"QUAD_STRIP", 3, false}, 0, 2, 0, 2, 3},
    [PRIM_POLYGON] = {{"POLYGON", 3, false}, 0, 0, 0, 0, 0},
    [PRIM_LINES_ADJACENCY] = {{"LINES_ADJACENCY", 2, true}, 4, 4, 1, 4, 2},
    [PRIM_LINE_STRIP_ADJACENCY] = {{"LINE_STRIP_ADJACENCY", 2, true}, 0, 1, 1, 1, 2},
    [PRIM_TRIANGLES_ADJACENCY] = {{"TRIANGLES_ADJACENCY", 3, true}, 6, 6, 0, 6, 4},
    [PRIM_TRIANGLE_STRIP_ADJACENCY] = {{"TRIANGLE_STRIP_ADJACENCY", 3, true}, 0, 2, 0, 2, 4},
    [PRIM_PATCHES] = {{"PATCHES", 0, false}, 0, 0, 0, 0, 0},
};

const prim_info *prim_get(unsigned topology)
{
    return topology < PRIM_COUNT ? &rows[topology].info : NULL;
}

/* Primitives of the topology that N vertices make (incomplete ones dropped). */
static uint32_t prim_count(unsigned t, uint32_t n, unsigned pv)
{
    if (rows[t].list)
        return n / rows[t].list;
    switch (t) {
    case PRIM_LINE_LOOP: return n >= 2 ? n : 0;
    case PRIM_LINE_STRIP: return n >= 2 ? n - 1 : 0;
    case PRIM_TRIANGLE_STRIP: case PRIM_TRIANGLE_FAN: return n >= 3 ? n - 2 : 0;
    case PRIM_QUADS: return n / 4;
    case PRIM_QUAD_STRIP: return n >= 4 ? (n - 2) / 2 : 0;
    case PRIM_POLYGON: return n >= 3 ? 1 : 0;
    case PRIM_LINE_STRIP_ADJACENCY: return n >= 4 ? n - 3 : 0;
    case PRIM_TRIANGLE_STRIP_ADJACENCY: return n >= 6 ? (n - 4) / 2 : 0;
    default: return n / pv;   /* PATCHES */
    }
}

static void set(prim_out *o, uint8_t n, uint32_t a, uint32_t b, uint32_t c, uint32_t d,
                uint32_t e, uint32_t f)
{
    const uint32_t v[6] = {a, b, c, d, e, f};
    o->n = n;
    memcpy(o->v, v, n * sizeof v[0]);
}

/* Triangle strip with adjacency, primitive P of NP (GL 4.6 table 10.1): the triangle
 * (2p, 2p+2, 2p+4), odd ones with their first two swapped, and the neighbour of each
 * edge, in the order a geometry shader reads them (vertex, neighbour, vertex, …). */
static void strip_adjacency(prim_out *o, uint32_t p, uint32_t np)
{
    uint32_t i = 2 * p;
    bool odd = p & 1u, first = p == 0, last = p == np - 1;
    if (first && last)
        set(o, 6, 0, 1, 2, 5, 4, 3);
    else if (first)
        set(o, 6, 0, 1, 2, 6, 4, 3);
    else if (odd)
        set(o, 6, i + 2, i - 2, i, i + 3, i + 4, last ? i + 5 : i + 6);
    else
        set(o, 6, i, i - 2, i + 2, last ? i + 5 : i + 6, i + 4, i + 3);
}

bool prim_list_form(unsigned t, bool last_provoking, unsigned *k, uint32_t *mul,
                    uint32_t *add)
{
    /* (adjacency lists are lists too, but a draw rasterises part of each: collect()) */
    if (t >= PRIM_COUNT || !rows[t].list || rows[t].info.adjacency)
        return false;
    const prim_row *r = &rows[t];
    *k = r->list;
    *mul = last_provoking ? r->last_mul : r->first_mul;
    *add = last_provoking ? r->last_add : r->first_add;
    return true;
}

long prim_assemble(unsigned t, uint32_t n, unsigned pv, bool last_provoking,
                   uint32_t first_id, prim_fn fn, void *user)
{
    if (t >= PRIM_COUNT || (t == PRIM_PATCHES && (pv < 1 || pv > PRIM_MAX_VERTICES)))
        return -1;
    const prim_row *r = &rows[t];
    uint32_t np = prim_count(t, n, pv);
    for (uint32_t p = 0; p < np; p++) {
        prim_out o;
        o.id = first_id + p;
        o.first = r->list || p == 0;
        o.provoking = last_provoking ? r->last_mul * p + r->last_add
                                     : r->first_mul * p + r->first_add;
        if (t == PRIM_LINE_LOOP)
            o.provoking %= n;
        bool go = true;
        if (r->list) {
            o.n = r->list;
            for (uint8_t k = 0; k < r->list; k++)
                o.v[k] = r->list * p + k;
        } else {
            switch (t) {
            case PRIM_LINE_LOOP: set(&o, 2, p, (p + 1) % n, 0, 0, 0, 0); break;
            case PRIM_LINE_STRIP: set(&o, 2, p, p + 1, 0, 0, 0, 0); break;
            case PRIM_LINE_STRIP_ADJACENCY: set(&o, 4, p, p + 1, p + 2, p + 3, 0, 0); break;
            case PRIM_TRIANGLE_STRIP:
                if (p & 1u)
                    set(&o, 3, p + 1, p, p + 2, 0, 0, 0);
                else
                    set(&o, 3, p, p + 1, p + 2, 0, 0, 0);
                break;
            case PRIM_TRIANGLE_FAN: set(&o, 3, 0, p + 1, p + 2, 0, 0, 0); break;
            case PRIM_TRIANGLE_STRIP_ADJACENCY: strip_adjacency(&o, p, np); break;
            case PRIM_QUADS: case PRIM_QUAD_STRIP: {
                /* the quad a, b, c, d in boundary order, as (a, b, d) and (b, c, d) */
                uint32_t a = t == PRIM_QUADS ? 4 * p : 2 * p, b = a + 1;
                uint32_t c = t == PRIM_QUADS ? a + 2 : a + 3, d = t == PRIM_QUADS ? a + 3 : a + 2;
                set(&o, 3, a, b, d, 0, 0, 0);
                go = fn(user, &o);
                set(&o, 3, b, c, d, 0, 0, 0);
                break;
            }
            case PRIM_POLYGON:
                for (uint32_t k = 0; k + 3 < n && go; k++) {
                    set(&o, 3, 0, k + 1, k + 2, 0, 0, 0);
                    go = fn(user, &o);
                }
                set(&o, 3, 0, n - 2, n - 1, 0, 0, 0);
                break;
            default: /* PATCHES */
                o.n = (uint8_t)pv;
                for (unsigned k = 0; k < pv; k++)
                    o.v[k] = pv * p + k;
                o.provoking = pv * p;
                break;
            }
        }
        if (!go || !fn(user, &o))
            break;
    }
    return (long)np;
}

void prim_rasterised(const prim_out *p, prim_out *out)
{
    *out = *p;
    if (p->n == 4) /* lines with adjacency: the middle two */
        set(out, 2, p->v[1], p->v[2], 0, 0, 0, 0);
    else if (p->n == 6)
        set(out, 3, p->v[0], p->v[2], p->v[4], 0, 0, 0);
}

uint32_t prim_index(const void *buf, size_t size, unsigned index_size, uint64_t element)
{
    const uint8_t *b = buf;
    if (index_size != 1 && index_size != 2 && index_size != 4)
        return 0;
    if (element >= size / index_size)
        return 0;   /* past the buffer: index 0 */
    uint64_t at = element * index_size;
    switch (index_size) {
    case 1: return b[at];
    case 2: return (uint32_t)b[at] | (uint32_t)b[at + 1] << 8;
    default:
        return (uint32_t)b[at] | (uint32_t)b[at + 1] << 8 | (uint32_t)b[at + 2] << 16 |
               (uint32_t)b[at + 3] << 24;
    }
}

/* A run of an indexed draw: sequence positions to vertex IDs. */
typedef struct run_ctx {
    const void *buf;
    size_t size;
    unsigned index_size;
    uint64_t first;           /* element of the run's first index */
    int32_t base_vertex;
    prim_fn fn;
    void *user;
    long emitted;
    bool stopped;             /* FN returned false */
} run_ctx;

static bool run_emit(void *user, const prim_out *p)
{
    run_ctx *c = user;
    prim_out o = *p;
    for (uint8_t k = 0; k < o.n; k++)
        o.v[k] = prim_index(c->buf, c->size, c->index_size, c->first + p->v[k]) +
                 (uint32_t)c->base_vertex;
    o.provoking = prim_index(c->buf, c->size, c->index_size, c->first + p->provoking) +
                  (uint32_t)c->base_vertex;
    c->emitted++;
    c->stopped = !c->fn(c->user, &o);
    return !c->stopped;
}

long prim_assemble_indexed(unsigned t, const void *buf, size_t size, unsigned index_size,
                           uint32_t start, uint32_t count, int32_t base_vertex, bool restart,
                           uint32_t restart_index, unsigned patch_vertices,
                           bool last_provoking, prim_fn fn, void *user)
{
    if (index_size != 1 && index_size != 2 && index_size != 4)
        return -1;
    run_ctx c = {buf, size, index_size, start, base_vertex, fn, user, 0, false};
    uint32_t id = 0, run = 0;
    for (uint64_t e = start; e <= (uint64_t)start + count && !c.stopped; e++) {
        bool end = e == (uint64_t)start + count;
        if (!end && !(restart && prim_index(buf, size, index_size, e) == restart_index)) {
            run++;
            continue;
        }
        /* the restart index is compared before the base vertex is added (GL 4.6 §10.3.6) */
        c.first = e - run;
        long np = prim_assemble(t, run, patch_vertices, last_provoking, id, run_emit, &c);
        if (np < 0)
            return -1;
        id += (uint32_t)np;   /* restart does not reset the primitive ID */
        run = 0;
    }
    return c.emitted;
}
