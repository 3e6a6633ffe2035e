/* A small fixed-size thread pool: run N independent jobs on T threads (the caller's thread
 * is worker 0). Jobs are handed out in order from an atomic counter; which worker runs a
 * job may vary, so callers must make job results independent of the worker. */
#ifndef TEXVM_UTIL_THREADPOOL_H
#define TEXVM_UTIL_THREADPOOL_H

#include <stdint.h>

typedef struct tv_threadpool tv_threadpool;

/* `threads` >= 1; returns NULL on failure. */
tv_threadpool *tv_threadpool_create(uint32_t threads);
void tv_threadpool_destroy(tv_threadpool *pool);
uint32_t tv_threadpool_threads(const tv_threadpool *pool);

/* fn(ctx, worker, job) for job in [0, njobs); returns when all are done. `workers` limits
 * how many workers take part (0 = all). Not reentrant. */
typedef void (*tv_threadpool_fn)(void *ctx, uint32_t worker, uint64_t job);
void tv_threadpool_run(tv_threadpool *pool, uint64_t njobs, uint32_t workers,
                       tv_threadpool_fn fn, void *ctx);

#endif
