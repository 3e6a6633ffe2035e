/* Handle maps (handle_map.h). */
#include "util/handle_map.h"

#include <stdbool.h>
#include <stdlib.h>

/* Fibonacci hashing (the product's high word): handles are often small consecutive
   integers */
static size_t home(uint32_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

void *tv_handle_map_find(const tv_handle_map *m, uint32_t key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = home(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i])
            return NULL;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

static void place(uint32_t *keys, void **vals, size_t cap, uint32_t key, void *val)
{
    size_t i = home(key, cap);
    while (vals[i])
        i = (i + 1) & (cap - 1);
    keys[i] = key;
    vals[i] = val;
}

int tv_handle_map_put(tv_handle_map *m, uint32_t key, void *val)
{
    if (2 * (m->count + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        uint32_t *keys = malloc(cap * sizeof *keys);
        void **vals = calloc(cap, sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->vals[i])
                place(keys, vals, cap, m->keys[i], m->vals[i]);
        free(m->keys);
        free(m->vals);
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    place(m->keys, m->vals, m->cap, key, val);
    m->count++;
    return 0;
}

void *tv_handle_map_remove(tv_handle_map *m, uint32_t key)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1, i = home(key, m->cap);
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    void *val = m->vals[i];
    if (!val)
        return NULL;
    /* backward shift: move each later entry of the run into the hole when its home slot
       does not lie (cyclically) after the hole, so every probe run stays unbroken */
    size_t hole = i;
    for (size_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        size_t h = home(m->keys[j], m->cap);
        bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
        if (stays)
            continue;
        m->keys[hole] = m->keys[j];
        m->vals[hole] = m->vals[j];
        hole = j;
    }
    m->vals[hole] = NULL;
    m->count--;
    return val;
}

void tv_handle_map_free(tv_handle_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->count = 0;
}
