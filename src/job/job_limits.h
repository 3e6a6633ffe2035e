/* The memory limit of a job (docs/limits.md): every byte a job file makes texvm allocate
 * for its resources — buffer-like payloads and files read (while loading), texel data,
 * render targets, vertex outputs and the global-memory span (estimated before anything
 * large is allocated) — counts against one limit, 2 GiB by default, set with
 * `texvm run --max-job-memory BYTES`. Input files must be regular files. */
#ifndef TEXVM_SRC_JOB_JOB_LIMITS_H
#define TEXVM_SRC_JOB_JOB_LIMITS_H

#include "job_internal.h"

#include <stdint.h>

#define JOB_DEFAULT_MAX_MEMORY ((uint64_t)2 << 30)

/* The limit (set with tv_job_set_max_memory, texvm/job.h). */
uint64_t job_max_memory(void);

/* Count `bytes` more against the limit of the job being loaded; false (with the error
 * recorded at the current key) when the total would pass it. */
bool jl_reserve(jl *c, uint64_t bytes);

/* Bytes of texel data, render targets, vertex outputs and global memory the job needs
 * (payloads not included: jl_reserve counted them while loading). */
uint64_t job_memory_estimate(const job *j);

/* The whole-job check of tv_job_load_text and tv_job_run: 0, or writes the message (without
 * the file name) and returns 1. */
int job_check_memory(const job *j, uint64_t already, char *msg, size_t msgsize);

/* An output file name of a job stays inside the output folder: not absolute, no ".."
 * component (a job from elsewhere must not write over the user's files). */
bool job_output_path_ok(const char *path);

#endif
