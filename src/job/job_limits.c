/* The job memory limit (job_limits.h, docs/limits.md). */
#include "job_limits.h"

#include <stdio.h>
#include <string.h>

static uint64_t limit = JOB_DEFAULT_MAX_MEMORY;

void tv_job_set_max_memory(uint64_t bytes)
{
    limit = bytes ? bytes : JOB_DEFAULT_MAX_MEMORY;
}

uint64_t job_max_memory(void)
{
    return limit;
}

bool jl_reserve(jl *c, uint64_t bytes)
{
    if (bytes > limit || c->reserved > limit - bytes)
        return jl_fail(c, TV_JOB_ERR_INVALID,
                       "the job needs more than its memory limit of %llu bytes "
                       "(--max-job-memory)",
                       (unsigned long long)limit);
    c->reserved += bytes;
    return true;
}

/* a + b, saturating (sizes come from the job file) */
static uint64_t add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

uint64_t job_memory_estimate(const job *j)
{
    uint64_t total = 0;
    for (size_t i = 0; i < j->num_textures; i++)
        for (uint32_t l = 0; l < j->textures[i].levels && l < 16; l++)
            total = add(total, job_texture_level_bytes(&j->textures[i], l));
    if (j->run == TV_TGSI_FRAG) {
        uint64_t px = mul(mul(j->frag.width, j->frag.height),
                          j->frag.samples ? j->frag.samples : 1);
        total = add(total, mul(px, 16u * j->frag.num_targets + 8u)); /* + depth, stencil */
    } else if (j->run == TV_TGSI_VERT) {
        total = add(total, mul(mul(j->vert.count, j->vert.instances ? j->vert.instances : 1),
                               16u * JOB_MAX_ATTRIBS));
    }
    uint64_t end = 0;
    for (size_t i = 0; i < j->num_memory; i++)
        if (add(j->memory[i].address, j->memory[i].size) > end)
            end = add(j->memory[i].address, j->memory[i].size);
    return add(total, end);
}

int job_check_memory(const job *j, uint64_t already, char *msg, size_t msgsize)
{
    uint64_t need = add(job_memory_estimate(j), already);
    if (need <= limit)
        return 0;
    snprintf(msg, msgsize,
             "the job needs %llu bytes (textures, targets, buffers, memory), more than its "
             "memory limit of %llu bytes (--max-job-memory)",
             (unsigned long long)need, (unsigned long long)limit);
    return 1;
}

bool job_output_path_ok(const char *path)
{
    if (path[0] == '/')
        return false;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return false;
        p += n;
        while (*p == '/')
            p++;
    }
    return true;
}
