/* tv_memory: a small GPU-virtual address space of host buffers mapped at 64-bit
 * addresses. Mappings are kept sorted by address; lookups are binary searches. Every map
 * and unmap bumps a generation counter so cached host pointers can be revalidated. */
#include "tex/tex_internal.h"
#include "util/error.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct mapping {
    uint64_t addr, size;
    uint8_t *host;
} mapping;

struct tv_memory {
    mapping *maps;
    size_t count, cap;
    uint64_t generation;
    atomic_ullong faults;      /* reads that touched unmapped bytes */
};

tv_memory *tv_memory_create(void)
{
    tv_memory *m = calloc(1, sizeof *m);
    if (m)
        m->generation = 1;
    return m;
}

void tv_memory_destroy(tv_memory *mem)
{
    if (!mem)
        return;
    free(mem->maps);
    free(mem);
}

uint64_t tex_memory_generation(const tv_memory *mem)
{
    return mem ? mem->generation : 0;
}

/* Index of the first mapping whose end is above `addr` (so it may contain addr). */
static size_t find_from(const tv_memory *mem, uint64_t addr)
{
    size_t lo = 0, hi = mem->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const mapping *m = &mem->maps[mid];
        if (m->addr + m->size <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

tv_status tv_memory_map(tv_memory *mem, uint64_t addr, void *host, uint64_t size, tv_error *err)
{
    if (!mem || !host || size == 0)
        return tv_error_set(err, TV_ERR_ARG, 0, 0,
                            "tv_memory_map: need a memory object, a host buffer and a size > 0");
    if (addr + size < addr)
        return tv_error_set(err, TV_ERR_ARG, 0, 0,
                            "tv_memory_map: range 0x%llx + 0x%llx wraps around 2^64",
                            (unsigned long long)addr, (unsigned long long)size);
    size_t i = find_from(mem, addr);
    if (i < mem->count && mem->maps[i].addr < addr + size)
        return tv_error_set(err, TV_ERR_ARG, 0, 0,
                            "tv_memory_map: [0x%llx, 0x%llx) overlaps the mapping at 0x%llx",
                            (unsigned long long)addr, (unsigned long long)(addr + size),
                            (unsigned long long)mem->maps[i].addr);
    if (mem->count == mem->cap) {
        size_t cap = mem->cap ? mem->cap * 2 : 8;
        mapping *n = realloc(mem->maps, cap * sizeof *n);
        if (!n)
            return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "tv_memory_map: out of memory");
        mem->maps = n;
        mem->cap = cap;
    }
    memmove(&mem->maps[i + 1], &mem->maps[i], (mem->count - i) * sizeof *mem->maps);
    mem->maps[i] = (mapping){addr, size, host};
    mem->count++;
    mem->generation++;
    return TV_OK;
}

tv_status tv_memory_unmap(tv_memory *mem, uint64_t addr)
{
    if (!mem)
        return TV_ERR_ARG;
    size_t i = find_from(mem, addr);
    if (i >= mem->count || mem->maps[i].addr != addr)
        return TV_ERR_ARG;
    memmove(&mem->maps[i], &mem->maps[i + 1], (mem->count - i - 1) * sizeof *mem->maps);
    mem->count--;
    mem->generation++;
    return TV_OK;
}

void *tv_memory_host(const tv_memory *mem, uint64_t addr, size_t size)
{
    if (!mem || addr + size < addr)
        return NULL;
    size_t i = find_from(mem, addr);
    if (i >= mem->count)
        return NULL;
    const mapping *m = &mem->maps[i];
    if (addr < m->addr || addr + size > m->addr + m->size)
        return NULL;
    return m->host + (addr - m->addr);
}

/* Walk [addr, addr+size) across mappings; gaps are zero-filled (read) or dropped (write). */
static bool copy_range(tv_memory *mem, uint64_t addr, uint8_t *buf, size_t size, bool write)
{
    bool whole = true;
    if (!mem) {
        if (!write)
            memset(buf, 0, size);
        return size == 0;
    }
    uint64_t end = addr + size;
    if (end < addr) {          /* wraps: clip to 2^64 and report as partially unmapped */
        whole = false;
        end = UINT64_MAX;
        if (!write)
            memset(buf, 0, size);
    }
    size_t i = find_from(mem, addr);
    uint64_t cur = addr;
    while (cur < end) {
        if (i >= mem->count || mem->maps[i].addr >= end) {
            if (!write)
                memset(buf + (cur - addr), 0, (size_t)(end - cur));
            return false;
        }
        const mapping *m = &mem->maps[i];
        if (m->addr > cur) {
            if (!write)
                memset(buf + (cur - addr), 0, (size_t)(m->addr - cur));
            whole = false;
            cur = m->addr;
        }
        uint64_t stop = m->addr + m->size < end ? m->addr + m->size : end;
        if (write)
            memcpy(m->host + (cur - m->addr), buf + (cur - addr), (size_t)(stop - cur));
        else
            memcpy(buf + (cur - addr), m->host + (cur - m->addr), (size_t)(stop - cur));
        cur = stop;
        i++;
    }
    return whole;
}

bool tv_memory_read(const tv_memory *mem, uint64_t addr, void *dst, size_t size)
{
    tv_memory *m = (tv_memory *)mem;
    bool whole = copy_range(m, addr, dst, size, false);
    if (!whole && m)
        atomic_fetch_add(&m->faults, 1);
    return whole;
}

uint64_t tv_memory_fault_count(const tv_memory *mem)
{
    return mem ? atomic_load(&((tv_memory *)mem)->faults) : 0;
}

void tv_memory_clear_faults(tv_memory *mem)
{
    if (mem)
        atomic_store(&mem->faults, 0);
}

bool tv_memory_write(tv_memory *mem, uint64_t addr, const void *src, size_t size)
{
    return copy_range(mem, addr, (uint8_t *)src, size, true);
}
