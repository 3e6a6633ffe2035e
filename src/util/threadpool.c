/* Thread pool: persistent pthreads woken per run by a generation counter; jobs are taken
 * from an atomic counter. */
#include "util/threadpool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct tv_threadpool {
    uint32_t threads;
    pthread_t *tids;
    uint32_t started;
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    uint64_t generation;
    bool quit;
    /* current run */
    tv_threadpool_fn fn;
    void *ctx;
    uint64_t njobs;
    uint64_t chunk;                 /* jobs taken at once */
    uint32_t workers;
    uint32_t busy;
    /* the counter the workers take jobs from, on a cache line of its own: each take
       moves the line between cores, which should not take the run's fields with it */
    _Alignas(64) atomic_uint_fast64_t next;
    char pad[64 - sizeof(atomic_uint_fast64_t)];
};

typedef struct {
    tv_threadpool *pool;
    uint32_t index;
} worker_arg;

static void work(tv_threadpool *p, uint32_t index)
{
    const uint64_t njobs = p->njobs, chunk = p->chunk;
    const tv_threadpool_fn fn = p->fn;
    void *const ctx = p->ctx;
    for (;;) {
        uint64_t job = atomic_fetch_add(&p->next, chunk);
        if (job >= njobs)
            break;
        uint64_t end = njobs - job < chunk ? njobs : job + chunk;
        for (; job < end; job++)
            fn(ctx, index, job);
    }
}

static void *thread_main(void *arg)
{
    worker_arg *wa = arg;
    tv_threadpool *p = wa->pool;
    uint32_t index = wa->index;
    free(wa);
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->quit)
            break;
        seen = p->generation;
        bool take = index < p->workers;
        pthread_mutex_unlock(&p->mu);
        if (take)
            work(p, index);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

tv_threadpool *tv_threadpool_create(uint32_t threads)
{
    if (threads < 1)
        threads = 1;
    /* (sizeof is a multiple of the counter's 64-byte alignment) */
    tv_threadpool *p = aligned_alloc(_Alignof(tv_threadpool), sizeof *p);
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->threads = threads;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next, 0);
    if (threads > 1) {
        p->tids = calloc(threads - 1, sizeof *p->tids);
        if (!p->tids) {
            tv_threadpool_destroy(p);
            return NULL;
        }
        for (uint32_t i = 1; i < threads; i++) {
            worker_arg *wa = malloc(sizeof *wa);
            if (!wa)
                break;
            wa->pool = p;
            wa->index = i;
            if (pthread_create(&p->tids[i - 1], NULL, thread_main, wa) != 0) {
                free(wa);
                break;
            }
            p->started++;
        }
    }
    return p;
}

void tv_threadpool_destroy(tv_threadpool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i < p->started; i++)
        pthread_join(p->tids[i], NULL);
    free(p->tids);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p);
}

uint32_t tv_threadpool_threads(const tv_threadpool *p) { return p ? p->started + 1 : 1; }

void tv_threadpool_run(tv_threadpool *p, uint64_t njobs, uint32_t workers,
                       tv_threadpool_fn fn, void *ctx)
{
    uint32_t total = p->started + 1;
    if (workers == 0 || workers > total)
        workers = total;
    if (workers == 1 || njobs <= 1 || p->started == 0) {
        for (uint64_t j = 0; j < njobs; j++)
            fn(ctx, 0, j);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->njobs = njobs;
    /* runs of many short jobs (a vertex warp takes ~0.2 us) take them a few at a time:
       one take per job cost more than the job on two cores. A run's last chunks keep the
       workers' shares within 1/32 of each other. */
    uint64_t chunk = njobs / ((uint64_t)workers * 32u);
    p->chunk = chunk < 1 ? 1 : chunk > 16 ? 16 : chunk;
    p->workers = workers;
    atomic_store(&p->next, 0);
    p->busy = p->started;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    work(p, 0);
    pthread_mutex_lock(&p->mu);
    while (p->busy)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}
