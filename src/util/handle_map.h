/* A map from 32-bit handles to pointers: open addressing with linear probing, removal by
 * backward shift (no tombstones), grown to keep it at most half full. What the pipe and
 * the vtest server look their clients' handles up in — objects, resources, shared
 * memory, queries — so that a client holding many of them costs O(1) per lookup, not a
 * list walk (a stream creating 40000 objects took 58 s with lists), whatever handles it
 * picks (the hash is keyed by a random seed per map). Any handle value,
 * 0 included, is a key; NULL is not a value. Not thread-safe. */
#ifndef TEXVM_UTIL_HANDLE_MAP_H
#define TEXVM_UTIL_HANDLE_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tv_handle_map {
    uint32_t *keys;
    void **vals;               /* NULL: an empty slot */
    size_t cap;                /* a power of two, or 0 before the first insertion */
    size_t count;
    uint64_t seed;             /* the hash's secret, drawn at the first insertion */
} tv_handle_map;

/* The value of KEY, NULL when absent. */
void *tv_handle_map_find(const tv_handle_map *m, uint32_t key);
/* Adds KEY -> VAL (VAL not NULL, KEY absent); 0, or -1 when out of memory (the map is
 * unchanged then). */
int tv_handle_map_put(tv_handle_map *m, uint32_t key, void *val);
/* The slots a lookup of KEY visits (tests: the keys' spread). */
size_t tv_handle_map_probes(const tv_handle_map *m, uint32_t key);
/* Removes KEY and returns its value, NULL when absent. */
void *tv_handle_map_remove(tv_handle_map *m, uint32_t key);
/* The I-th slot's value for walking every entry (NULL where empty), I < m->cap; the
 * order is the table's, so callers must not depend on it. */
static inline void *tv_handle_map_slot(const tv_handle_map *m, size_t i) { return m->vals[i]; }
/* Bytes the table holds per entry it can take, for quotas. */
#define TV_HANDLE_MAP_ENTRY_BYTES (2 * (sizeof(uint32_t) + sizeof(void *)))
void tv_handle_map_free(tv_handle_map *m);

#endif
