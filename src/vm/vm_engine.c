/* Engine object: configuration, limits, thread pool, trace settings, bindings init. */
#include <stdlib.h>

#include "vm/vm_jit.h"
#include "vm/vm_ops.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_frag_store.h"
#include "util/cpu_isa.h"
#include "util/fpmode.h"

#include <stdio.h>

tv_vm *tv_vm_create(const tv_vm_config *cfg, tv_error *err)
{
    tv_vm *vm = calloc(1, sizeof *vm);
    if (!vm) {
        tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    if (cfg)
        vm->cfg = *cfg;
    if (vm->cfg.flush_denormals && !tv_fp_flush_supported()) {
        free(vm);
        tv_error_set(err, TV_ERR_UNSUPPORTED, 0, 0,
                     "flush_denormals: this CPU has no denormals-are-zero mode texvm can set");
        return NULL;
    }
    const char *env = getenv("TEXVM_JIT");
    if (vm->cfg.jit == TV_VM_JIT_AUTO && env && *env &&
        tv_vm_jit_mode_from_name(env, &vm->cfg.jit) != TV_OK) {
        free(vm);
        tv_error_set(err, TV_ERR_ARG, 0, 0, "TEXVM_JIT=%s: not auto, off or always", env);
        return NULL;
    }
    if (vm->cfg.jit > TV_VM_JIT_ALWAYS || (vm->cfg.jit == TV_VM_JIT_ALWAYS && !vm_jit_built())) {
        bool bad = vm->cfg.jit > TV_VM_JIT_ALWAYS;
        free(vm);
        tv_error_set(err, bad ? TV_ERR_ARG : TV_ERR_UNSUPPORTED, 0, 0, "jit: %s",
                     bad ? "not a tv_vm_jit_mode"
                         : "this build of texvm has no JIT (built without LLVM)");
        return NULL;
    }
    if (vm->cfg.threads == 0)
        vm->cfg.threads = 1;
    if (vm->cfg.threads > 256)
        vm->cfg.threads = 256;
    vm->pool = tv_threadpool_create(vm->cfg.threads);
    if (!vm->pool) {
        free(vm);
        tv_error_set(err, TV_ERR_NOMEM, 0, 0, "cannot start %u threads", cfg->threads);
        return NULL;
    }
    return vm;
}

void tv_vm_destroy(tv_vm *vm)
{
    if (!vm)
        return;
    tv_threadpool_destroy(vm->pool);
    for (uint32_t i = 0; i < vm->cache_n; i++)
        vm_worker_fini(&vm->cache[i]);
    free(vm->cache);
    free(vm);
}

tv_status tv_vm_set_threads(tv_vm *vm, uint32_t threads, tv_error *err)
{
    if (threads == 0)
        threads = 1;
    if (threads > 256)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "too many threads (%u)", threads);
    tv_threadpool *np = tv_threadpool_create(threads);
    if (!np)
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "cannot start %u threads", threads);
    tv_threadpool_destroy(vm->pool);
    vm->pool = np;
    vm->cfg.threads = threads;
    return TV_OK;
}

uint32_t tv_vm_get_threads(const tv_vm *vm) { return vm->cfg.threads; }

void tv_vm_set_limits(tv_vm *vm, const tv_vm_limits *limits)
{
    if (limits)
        vm->cfg.limits = *limits;
    else
        memset(&vm->cfg.limits, 0, sizeof vm->cfg.limits);
}

void tv_vm_set_thread_cap(tv_vm *vm, uint32_t cap)
{
    vm->thread_cap = cap;
}

void tv_vm_set_trace(tv_vm *vm, const tv_vm_trace *trace)
{
    if (trace && trace->fn) {
        vm->trace = *trace;
        vm->tracing = true;
    } else {
        memset(&vm->trace, 0, sizeof vm->trace);
        vm->tracing = false;
    }
}

void tv_vm_bindings_init(tv_vm_bindings *b)
{
    memset(b, 0, sizeof *b);
}

const char *tv_vm_kernels(void)
{
    static _Thread_local char buf[640];
    const char *engine = "default";
#if defined(VM_HAVE_CLONES)
    /* the clone GCC's resolver picks: the highest level the processor has (the clones
       stop at the build's ceiling, util/wide_vectors.h) */
    engine = tv_cpu_avx512f() ? "avx512f" : tv_cpu_avx2() ? "avx2" : "default";
#endif
    unsigned isa = vm_frag_store_isa();
    char jit[448];
    vm_jit_target(jit, sizeof jit);
    const char *ceiling = tv_cpu_ceiling_name();
    snprintf(buf, sizeof buf, "engine %s, tile stores %s, texture %s, jit %s%s%s", engine,
             vm_frag_store_names[isa < VM_STORE_VARIANTS ? isa : 0], tv_tex_vector_kernel(), jit,
             *ceiling ? ", build ceiling " : "", ceiling);
    return buf;
}
