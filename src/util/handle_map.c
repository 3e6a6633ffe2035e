/* Handle maps (handle_map.h). */
#include "util/handle_map.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

/* A key's home slot: the key mixed with the map's secret seed (splitmix64's finaliser).
   The keys are a client's choice; with a fixed public hash (Fibonacci hashing, before) a
   client could pick handles that share a home at every table size and make each lookup
   walk them all (50000 binds of the last of 20000 such objects took 1.2 s against 0 s). */
static size_t home(const tv_handle_map *m, uint32_t key)
{
    uint64_t z = key ^ m->seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (size_t)z & (m->cap - 1);
}

/* A seed for a new map: from the kernel's random source; without it (no getrandom), from
   the clock and the map's address, which a remote client cannot read */
static uint64_t new_seed(const tv_handle_map *m)
{
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        seed = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)m;
    }
    return seed;
}

void *tv_handle_map_find(const tv_handle_map *m, uint32_t key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = home(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i])
            return NULL;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

/* KEY -> VAL into the table of M (its keys, vals and cap). */
static void place(tv_handle_map *m, uint32_t key, void *val)
{
    size_t i = home(m, key);
    while (m->vals[i])
        i = (i + 1) & (m->cap - 1);
    m->keys[i] = key;
    m->vals[i] = val;
}

int tv_handle_map_put(tv_handle_map *m, uint32_t key, void *val)
{
    if (2 * (m->count + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        tv_handle_map grown = {malloc(cap * sizeof(uint32_t)), calloc(cap, sizeof(void *)), cap,
                               m->count, m->cap ? m->seed : new_seed(m)};
        if (!grown.keys || !grown.vals) {
            free(grown.keys);
            free(grown.vals);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->vals[i])
                place(&grown, m->keys[i], m->vals[i]);
        free(m->keys);
        free(m->vals);
        *m = grown;
    }
    place(m, key, val);
    m->count++;
    return 0;
}

size_t tv_handle_map_probes(const tv_handle_map *m, uint32_t key)
{
    if (!m->cap)
        return 0;
    size_t n = 1;
    for (size_t i = home(m, key); m->vals[i] && m->keys[i] != key; i = (i + 1) & (m->cap - 1))
        n++;
    return n;
}

void *tv_handle_map_remove(tv_handle_map *m, uint32_t key)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1, i = home(m, key);
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    void *val = m->vals[i];
    if (!val)
        return NULL;
    /* backward shift: move each later entry of the run into the hole when its home slot
       does not lie (cyclically) after the hole, so every probe run stays unbroken */
    size_t hole = i;
    for (size_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        size_t h = home(m, m->keys[j]);
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
    m->seed = 0;
}
