/* The unit object, its header and sampler pools, handles, header-binding mode and the
 * decoded-descriptor cache (nvidia-texture.md §3). Entries are 32 bytes at
 * base + 32 * index; an index past the pool maximum (inclusive) is invalid.
 *
 * Cache: one open-addressing table per pool, index -> heap entry. Entries never move and
 * are freed only by tv_tex_invalidate / tv_tex_destroy, so tex_resolve can hand out
 * pointers; a mutex makes lookups safe from several threads. A lookup first tries a
 * per-thread memo of the last resolve (unit id, cache epoch, memory generation, indices):
 * with several workers sampling the same texture, taking the mutex per request bounced
 * its cache line between the cores on every warp. Any clear of a table bumps the epoch,
 * and a change of the memory mappings the generation, so a memo never outlives its
 * entries. As on the hardware
 * (INVALIDATE_TEXTURE_HEADER_CACHE / INVALIDATE_SAMPLER_CACHE), rewriting a pool entry
 * after it was used takes effect only after tv_tex_invalidate(). Changing a pool's base
 * or maximum drops that pool's cache. */
#include "tex/tex_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct cache_slot {
    uint32_t index;
    void *entry;               /* tex_view * or tex_sampler *, NULL = empty slot */
} cache_slot;

typedef struct cache_table {
    cache_slot *slots;
    size_t cap, count;         /* cap is a power of two */
} cache_table;

typedef struct tex_cache {
    pthread_mutex_t lock;
    cache_table headers, samplers;
    uint64_t id;               /* unique per unit ever created (a memo key, not the address) */
    atomic_uint_fast64_t epoch; /* bumped by every table clear */
} tex_cache;

static atomic_uint_fast64_t next_unit_id = 1;

/* The last resolve of this thread (see the file comment). */
typedef struct resolve_memo {
    uint64_t id, epoch, mem_gen;
    uint32_t hi, si;           /* si = UINT32_MAX: header only */
    const tex_view *v;
    const tex_sampler *s;
} resolve_memo;

static _Thread_local resolve_memo memo;

static void bump_epoch(tex_cache *c)
{
    atomic_fetch_add_explicit(&c->epoch, 1, memory_order_release);
}

static void table_clear(cache_table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slots[i].entry);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static size_t slot_of(uint32_t index, size_t cap)
{
    return (size_t)((index * 2654435761u) & (cap - 1));
}

static void *table_find(const cache_table *t, uint32_t index)
{
    if (!t->cap)
        return NULL;
    for (size_t i = slot_of(index, t->cap);; i = (i + 1) & (t->cap - 1)) {
        if (!t->slots[i].entry)
            return NULL;
        if (t->slots[i].index == index)
            return t->slots[i].entry;
    }
}

static bool table_insert(cache_table *t, uint32_t index, void *entry)
{
    if ((t->count + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        cache_slot *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return false;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->slots[i].entry)
                continue;
            size_t j = slot_of(t->slots[i].index, cap);
            while (slots[j].entry)
                j = (j + 1) & (cap - 1);
            slots[j] = t->slots[i];
        }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    size_t i = slot_of(index, t->cap);
    while (t->slots[i].entry)
        i = (i + 1) & (t->cap - 1);
    t->slots[i].index = index;
    t->slots[i].entry = entry;
    t->count++;
    return true;
}

/* ---- the unit -------------------------------------------------------------------------- */
tv_tex_unit *tv_tex_create(tv_memory *mem)
{
    tv_tex_unit *u = calloc(1, sizeof *u);
    tex_cache *c = calloc(1, sizeof *c);
    if (!u || !c || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(u);
        free(c);
        return NULL;
    }
    u->mem = mem;
    u->cache = c;
    c->id = atomic_fetch_add(&next_unit_id, 1);
    atomic_init(&c->epoch, 0);
    u->precision = TV_TEX_PRECISION_REFERENCE;
    u->vec_isa_cap = 2; /* every vector kernel variant the CPU has */
    /* No pools yet: every index is invalid until a pool is set. */
    u->header_max = u->sampler_max = 0;
    u->header_base = u->sampler_base = 0;
    return u;
}

void tv_tex_destroy(tv_tex_unit *unit)
{
    if (!unit)
        return;
    tex_cache *c = unit->cache;
    table_clear(&c->headers);
    table_clear(&c->samplers);
    pthread_mutex_destroy(&c->lock);
    free(c);
    free(unit);
}

void tv_tex_set_header_pool(tv_tex_unit *unit, uint64_t base, uint32_t max_index)
{
    tex_cache *c = unit->cache;
    pthread_mutex_lock(&c->lock);
    unit->header_base = base;
    unit->header_max = max_index;
    table_clear(&c->headers);
    bump_epoch(c);
    pthread_mutex_unlock(&c->lock);
}

void tv_tex_set_sampler_pool(tv_tex_unit *unit, uint64_t base, uint32_t max_index)
{
    tex_cache *c = unit->cache;
    pthread_mutex_lock(&c->lock);
    unit->sampler_base = base;
    unit->sampler_max = max_index;
    table_clear(&c->samplers);
    bump_epoch(c);
    pthread_mutex_unlock(&c->lock);
}

void tv_tex_set_header_binding(tv_tex_unit *unit, bool enabled) { unit->header_binding = enabled; }
void tv_tex_set_precision(tv_tex_unit *unit, tv_tex_precision p) { unit->precision = p; }
tv_tex_precision tv_tex_get_precision(const tv_tex_unit *unit) { return unit->precision; }

void tv_tex_invalidate(tv_tex_unit *unit)
{
    tex_cache *c = unit->cache;
    pthread_mutex_lock(&c->lock);
    table_clear(&c->headers);
    table_clear(&c->samplers);
    bump_epoch(c);
    pthread_mutex_unlock(&c->lock);
}

/* ---- samplers -------------------------------------------------------------------------- */

void tex_sampler_init(tex_sampler *s, const tv_tsc *tsc)
{
    memset(s, 0, sizeof *s);
    s->tsc = *tsc;
    s->lod_bias = tv_fixed_s5_8_to_float(tsc->mip_lod_bias);
    s->min_lod = tv_fixed_u4_8_to_float(tsc->min_lod_clamp);
    s->max_lod = tv_fixed_u4_8_to_float(tsc->max_lod_clamp);
    s->max_aniso = tv_tex_aniso_ratio[tsc->max_anisotropy & 7];
    s->seamless_cube = tsc->cubemap_interface_filtering >= 2;
    s->valid = true;
}

/* ---- resolve --------------------------------------------------------------------------- */
static void read_entry(tv_tex_unit *unit, uint64_t base, uint32_t index, uint32_t words[8])
{
    uint8_t raw[32];
    tv_memory_read(unit->mem, base + (uint64_t)index * 32, raw, sizeof raw);
    for (int i = 0; i < 8; i++)
        words[i] = (uint32_t)raw[4 * i] | (uint32_t)raw[4 * i + 1] << 8 |
                   (uint32_t)raw[4 * i + 2] << 16 | (uint32_t)raw[4 * i + 3] << 24;
}

/* Refresh the view's host pointer if the memory's mappings changed. Lock held. */
static void refresh_host(tv_tex_unit *unit, tex_view *v)
{
    uint64_t gen = tex_memory_generation(unit->mem);
    if (v->host_generation == gen)
        return;
    v->host_generation = gen;
    v->host = NULL;
    if (v->valid && v->size_bytes)
        v->host = tv_memory_host(unit->mem, v->tic.address, (size_t)v->size_bytes);
}

static const tex_view *get_view(tv_tex_unit *unit, tex_cache *c, uint32_t index)
{
    tex_view *v = table_find(&c->headers, index);
    if (!v) {
        uint32_t words[8];
        tv_tic tic;
        read_entry(unit, unit->header_base, index, words);
        tv_tic_decode(words, &tic);
        v = malloc(sizeof *v);
        if (!v)
            return NULL;
        tex_view_init(v, &tic);
        if (!table_insert(&c->headers, index, v)) {
            free(v);
            return NULL;
        }
    }
    refresh_host(unit, v);
    return v;
}

static const tex_sampler *get_sampler(tv_tex_unit *unit, tex_cache *c, uint32_t index)
{
    tex_sampler *s = table_find(&c->samplers, index);
    if (!s) {
        uint32_t words[8];
        tv_tsc tsc;
        read_entry(unit, unit->sampler_base, index, words);
        tv_tsc_decode(words, &tsc);
        s = malloc(sizeof *s);
        if (!s)
            return NULL;
        tex_sampler_init(s, &tsc);
        if (!table_insert(&c->samplers, index, s)) {
            free(s);
            return NULL;
        }
    }
    return s;
}

static bool memo_get(const tv_tex_unit *unit, tex_cache *c, uint32_t hi, uint32_t si,
                     const tex_view **v, const tex_sampler **s)
{
    if (memo.id != c->id || memo.hi != hi || memo.si != si ||
        memo.epoch != atomic_load_explicit(&c->epoch, memory_order_acquire) ||
        memo.mem_gen != tex_memory_generation(unit->mem))
        return false;
    *v = memo.v;
    *s = memo.s;
    return true;
}

/* Lock held: the entries cannot go away between the lookup and the epoch read. */
static void memo_put(const tv_tex_unit *unit, tex_cache *c, uint32_t hi, uint32_t si,
                     const tex_view *v, const tex_sampler *s)
{
    if (!v || (si != UINT32_MAX && !s)) {
        memo.id = 0;               /* allocation failure: not remembered */
        return;
    }
    memo.id = c->id;
    memo.epoch = atomic_load_explicit(&c->epoch, memory_order_acquire);
    memo.mem_gen = tex_memory_generation(unit->mem);
    memo.hi = hi;
    memo.si = si;
    memo.v = v;
    memo.s = s;
}

void tex_cache_stamp(const tv_tex_unit *unit, uint64_t *id, uint64_t *epoch)
{
    const tex_cache *c = unit->cache;
    *id = c->id;
    *epoch = atomic_load_explicit(&((tex_cache *)c)->epoch, memory_order_acquire);
}

bool tex_resolve_header(tv_tex_unit *unit, uint32_t header_index, const tex_view **view)
{
    *view = NULL;
    header_index &= 0xfffffu;
    if (!unit || header_index > unit->header_max)
        return false;
    tex_cache *c = unit->cache;
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    if (!memo_get(unit, c, header_index, UINT32_MAX, &v, &s)) {
        pthread_mutex_lock(&c->lock);
        v = get_view(unit, c, header_index);
        memo_put(unit, c, header_index, UINT32_MAX, v, NULL);
        pthread_mutex_unlock(&c->lock);
    }
    if (!v || !v->valid)
        return false;
    *view = v;
    return true;
}

bool tex_resolve(tv_tex_unit *unit, uint32_t handle, const tex_view **view,
                 const tex_sampler **sampler)
{
    *view = NULL;
    *sampler = NULL;
    if (!unit)
        return false;
    uint32_t hi = handle & 0xfffffu;
    uint32_t si = unit->header_binding ? hi : handle >> 20;
    if (hi > unit->header_max || si > unit->sampler_max)
        return false;
    tex_cache *c = unit->cache;
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    if (!memo_get(unit, c, hi, si, &v, &s)) {
        pthread_mutex_lock(&c->lock);
        v = get_view(unit, c, hi);
        s = get_sampler(unit, c, si);
        memo_put(unit, c, hi, si, v, s);
        pthread_mutex_unlock(&c->lock);
    }
    if (!v || !s || !v->valid)
        return false;
    *view = v;
    *sampler = s;
    return true;
}

bool tv_tex_lookup(tv_tex_unit *unit, uint32_t handle, tv_tic *tic, tv_tsc *tsc)
{
    const tex_view *v;
    const tex_sampler *s;
    if (!tex_resolve(unit, handle, &v, &s)) {
        if (tic)
            memset(tic, 0, sizeof *tic);
        if (tsc)
            memset(tsc, 0, sizeof *tsc);
        return false;
    }
    if (tic)
        *tic = v->tic;
    if (tsc)
        *tsc = s->tsc;
    return true;
}
