/* The JIT's driver: when to compile a program, LLVM's ORC JIT (one LLJIT for the process,
 * one resource tracker per program so that destroying a program frees its code), the
 * optimisation pipeline, and the statistics. The code generator is vm_jit_build.c and
 * vm_jit_ops.c. Without LLVM (TEXVM_JIT undefined) only the "not built" answers remain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vm/vm_jit.h"

#ifdef TEXVM_JIT
#include <pthread.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm/Config/llvm-config.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "util/cpu_isa.h"
#include "vm/vm_jit_internal.h"

struct vm_jit_code {
    LLVMOrcResourceTrackerRef rt;
    uint64_t bytes;                /* what it counts against the code budget */
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* compiles and stats */
static LLVMOrcLLJITRef jit;
static LLVMTargetMachineRef tm;
static char init_error[384];
static bool host_mask_regs;   /* the host CPU has AVX-512 (its mask registers) */
static unsigned host_simd_lanes = 4;   /* float lanes of its widest vector instructions */
static uint64_t next_id;
static vm_jit_stats stats;
/* The process's compiled code (under `lock`): what the live programs' code counts
 * (stats.code_bytes) against the budget, and the object file sizes the code generator
 * has handed to the linker since the last compile began (measure_object). */
static uint64_t code_budget = VM_JIT_CODE_BUDGET;
static uint64_t object_bytes;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void quiet_reporter(void *ctx, LLVMErrorRef e)
{
    (void)ctx;
    LLVMConsumeError(e);
}

static void take_error(LLVMErrorRef e, char *buf, size_t n)
{
    char *m = LLVMGetErrorMessage(e);
    snprintf(buf, n, "%s", m ? m : "unknown LLVM error");
    LLVMDisposeErrorMessage(m);
}

/* The object transform: the object is passed on as it is, its size noted. */
static LLVMErrorRef measure_object(void *ctx, LLVMMemoryBufferRef *obj)
{
    (void)ctx;
    object_bytes += LLVMGetBufferSize(*obj);
    return NULL;
}

/* The host's features under the build's ceiling (util/cpu_isa.h): at the AVX2 ceiling
 * every AVX-512 feature of the comma-separated list ("+avx512f", "+avx512bw", ...) is
 * turned off in place ('+' to '-'), which LLVM applies over what the CPU name implies. */
static void cap_features(char *features)
{
    if (TV_ISA_CEILING >= 2 || !features)
        return;
    for (char *t = features; t && *t; t = strchr(t, ',') ? strchr(t, ',') + 1 : NULL)
        if (!strncmp(t, "+avx512", 7))
            *t = '-';
}

/* A target machine for this CPU (every feature it has up to the build's ceiling: the ISA
 * variant of the compiled code is the host's). */
static LLVMTargetMachineRef host_machine(LLVMCodeGenOptLevel level)
{
    char *triple = LLVMGetDefaultTargetTriple();
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    cap_features(features);
    host_mask_regs = features && strstr(features, "+avx512f") != NULL;
    /* ("+avx," and not "+avx2" or "+avx512...": the list is comma-separated) */
    size_t nf = features ? strlen(features) : 0;
    bool avx = features && (strstr(features, "+avx,") ||
                            (nf >= 4 && !strcmp(features + nf - 4, "+avx")));
    host_simd_lanes = host_mask_regs ? 16 : avx ? 8 : 4;
    /* narrower instructions on request, so that a host's tests also cover the forms of
       hosts with less (TEXVM_JIT_SIMD=4 or 8: tests/vm/tests.cmake) */
    const char *narrow = getenv("TEXVM_JIT_SIMD");
    if (narrow && (!strcmp(narrow, "4") || !strcmp(narrow, "8")) &&
        (unsigned)atoi(narrow) < host_simd_lanes)
        host_simd_lanes = (unsigned)atoi(narrow);
    LLVMTargetRef target;
    char *msg = NULL;
    LLVMTargetMachineRef m = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
        snprintf(init_error, sizeof init_error, "%s", msg ? msg : "no target");
        LLVMDisposeMessage(msg);
    } else {
        m = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                    LLVMCodeModelJITDefault);
        if (!m)
            snprintf(init_error, sizeof init_error, "cannot create a target machine");
    }
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return m;
}

static void init(void)
{
    if (vm_jit_llvm_load(init_error, sizeof init_error))
        return;
    /* (the asm parser: vm_jit_ops.c writes some operations as inline instructions) */
    if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter() ||
        LLVMInitializeNativeAsmParser()) {
        snprintf(init_error, sizeof init_error, "LLVM has no native target");
        return;
    }
    /* code generation at LLVM's "less" level (the suite's figures are with it; "default"
       compiled the tests' random programs no faster: 0.1-0.5 s each either way) */
    LLVMTargetMachineRef jit_tm = host_machine(LLVMCodeGenLevelLess);
    tm = host_machine(LLVMCodeGenLevelLess);
    if (!jit_tm || !tm)
        return;
    LLVMOrcJITTargetMachineBuilderRef jtmb =
        LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jit_tm);
    LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(b, jtmb);
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit, b);
    if (e) {
        jit = NULL;
        take_error(e, init_error, sizeof init_error);
        return;
    }
    /* the process's symbols (LLVM may call memset, memcpy) */
    LLVMOrcDefinitionGeneratorRef gen = NULL;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL);
    if (e) {
        take_error(e, init_error, sizeof init_error);
        LLVMOrcDisposeLLJIT(jit);
        jit = NULL;
        return;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), gen);
    /* every object file the code generator makes passes measure_object on its way to the
       linker (synchronously, in the compiling thread: the JIT has no compile threads) */
    LLVMOrcObjectTransformLayerSetTransform(LLVMOrcLLJITGetObjTransformLayer(jit),
                                            measure_object, NULL);
    /* the library never prints: a failed lookup comes back as an error (declined) */
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(jit),
                                            quiet_reporter, NULL);
    vm_jit_calibrate();
}

bool vm_jit_built(void) { return true; }

void vm_jit_target(char *buf, size_t size)
{
    char why[384];
    if (vm_jit_llvm_load(why, sizeof why)) {
        snprintf(buf, size, "llvm-%d (not loaded: %s)", LLVM_VERSION_MAJOR, why);
        return;
    }
    char *cpu = LLVMGetHostCPUName();
    snprintf(buf, size, "llvm-%d %s%s", LLVM_VERSION_MAJOR, cpu && *cpu ? cpu : "generic",
             TV_ISA_CEILING >= 2 ? "" : " -avx512");
    LLVMDisposeMessage(cpu);
}

static int verbose(void)
{
    const char *v = getenv("TEXVM_JIT_VERBOSE");
    return v ? atoi(v) : 0;
}

/* Mark `p` declined (under `lock`): it runs interpreted from now on. */
static int declined(tv_vm_program *p)
{
    atomic_store(&p->jit_state, VM_JIT_DECLINED);
    stats.declined++;
    return VM_JIT_DECLINED;
}

/* Compile under `lock`; sets the program's state. */
static int compile_locked(tv_vm_program *p, char *why, size_t why_size)
{
    int st = atomic_load(&p->jit_state);
    if (st != VM_JIT_NOT_YET)
        return st;
    if (!tm || !jit) {
        snprintf(why, why_size, "the JIT could not start: %s", init_error);
        return declined(p);
    }
    if (p->num_uops > VM_JIT_MAX_UOPS) {
        snprintf(why, why_size, "%u micro-ops (at most %u are compiled)", p->num_uops,
                 VM_JIT_MAX_UOPS);
        return declined(p);
    }
    if (stats.code_bytes >= code_budget) {
        snprintf(why, why_size, "the process's compiled code is at its budget (%llu of %llu "
                 "bytes)", (unsigned long long)stats.code_bytes,
                 (unsigned long long)code_budget);
        return declined(p);
    }
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    vm_jit_ctx j;
    memset(&j, 0, sizeof j);
    j.c = LLVMOrcThreadSafeContextGetContext(tsc);
    char name[48];
    snprintf(name, sizeof name, "tv_jit_%llu", (unsigned long long)++next_id);
    j.m = LLVMModuleCreateWithNameInContext(name, j.c);
    j.b = LLVMCreateBuilderInContext(j.c);
    j.i1 = LLVMInt1TypeInContext(j.c);
    j.i8 = LLVMInt8TypeInContext(j.c);
    j.i32 = LLVMInt32TypeInContext(j.c);
    j.i64 = LLVMInt64TypeInContext(j.c);
    j.f32 = LLVMFloatTypeInContext(j.c);
    j.ptr = LLVMPointerType(j.i8, 0);
    j.vi = LLVMVectorType(j.i32, VM_LANES);
    j.vf = LLVMVectorType(j.f32, VM_LANES);
    j.vb = LLVMVectorType(j.i1, VM_LANES);
    j.v32i64 = LLVMVectorType(j.i64, VM_LANES);
    j.p = p;
    j.mask_regs = host_mask_regs;
    j.simd_lanes = host_simd_lanes;
    j.verbose = verbose() > 1;
    j.code = p->uops;
    j.n = p->num_uops;
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(j.m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(j.m, dl);
    LLVMDisposeTargetData(dl);

    double t0 = now_s();
    bool built = vm_jit_build(&j, name, why, why_size);
    double t1 = now_s();
    vm_jit_ctx_free(&j);
    LLVMDisposeBuilder(j.b);
    char *msg = NULL;
    if (built && LLVMVerifyModule(j.m, LLVMReturnStatusAction, &msg)) {
        snprintf(why, why_size, "internal error: the generated code does not verify: %.160s",
                 msg ? msg : "");
        built = false;
    }
    LLVMDisposeMessage(msg);
    LLVMErrorRef e = NULL;
    unsigned usel = 0;   /* selects on a uniform condition made scalar */
    if (built) {
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        e = LLVMRunPasses(j.m, "default<O2>", tm, po);
        LLVMDisposePassBuilderOptions(po);
        if (e) {
            take_error(e, why, why_size);
            built = false;
        } else {
            usel = vm_jit_uniform_selects(j.m);
        }
    }
    const char *dump = getenv("TEXVM_JIT_DUMP");
    if (built && dump && *dump) {
        char *err = NULL;
        if (LLVMPrintModuleToFile(j.m, dump, &err))
            fprintf(stderr, "texvm jit: cannot write %s: %s\n", dump, err ? err : "");
        LLVMDisposeMessage(err);
    }
    if (!built) {
        LLVMDisposeModule(j.m);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return declined(p);
    }
    double t2 = now_s();
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(j.m, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc);
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit);
    LLVMOrcResourceTrackerRef rt = LLVMOrcJITDylibCreateResourceTracker(jd);
    object_bytes = 0;
    e = LLVMOrcLLJITAddLLVMIRModuleWithRT(jit, rt, tsm);
    LLVMOrcJITTargetAddress addr = 0;
    if (!e)
        e = LLVMOrcLLJITLookup(jit, &addr, name);
    struct vm_jit_code *code = e ? NULL : malloc(sizeof *code);
    if (e || !code || !addr) {
        if (e)
            take_error(e, why, why_size);
        else
            snprintf(why, why_size, "%s", !addr ? "the compiled function was not found"
                                                : "out of memory");
        LLVMErrorRef e2 = LLVMOrcResourceTrackerRemove(rt);
        if (e2)
            LLVMConsumeError(e2);
        LLVMOrcReleaseResourceTracker(rt);
        free(code);
        return declined(p);
    }
    double t3 = now_s();
    code->rt = rt;
    code->bytes = object_bytes + VM_JIT_CODE_OVERHEAD;
    stats.code_bytes += code->bytes;
    p->jit_code = code;
    p->jit_zero_init = j.zero_init;
    p->jit_zero_out = j.zero_out;
    vm_jit_clear_ranges(p);
    atomic_store(&p->jit_fn, (int (*)(vm_warp *, vm_slot *))(uintptr_t)addr);
    atomic_store(&p->jit_state, VM_JIT_READY);
    stats.compiled++;
    stats.inline_uops += j.inline_uops;
    stats.call_uops += j.call_uops;
    stats.uniform_slots += j.uniform_slots;
    stats.uniform_scalar += j.uniform_scalar;
    stats.uniform_converts += j.uniform_converts;
    stats.uniform_selects += usel;
    if (verbose())
        fprintf(stderr, "texvm jit: %s: %u micro-ops, %llu inline, %llu handler calls, "
                "%llu uniform slots (%llu scalar stores), %u uniform selects; %.1f ms to "
                "build, %.1f to optimise, %.1f to generate code; %llu bytes of object\n",
                name, p->num_uops, (unsigned long long)j.inline_uops,
                (unsigned long long)j.call_uops, (unsigned long long)j.uniform_slots,
                (unsigned long long)j.uniform_scalar, usel, (t1 - t0) * 1e3, (t2 - t1) * 1e3,
                (t3 - t2) * 1e3, (unsigned long long)object_bytes);
    return VM_JIT_READY;
}

int vm_jit_compile_now(const tv_vm_program *cp, char *why, size_t why_size)
{
    char local[256];
    if (!why || !why_size) {
        why = local;
        why_size = sizeof local;
    }
    why[0] = 0;
    pthread_once(&once, init);
    /* the program is immutable but for its JIT cache, which only this lock writes */
    tv_vm_program *p = (tv_vm_program *)(uintptr_t)cp;
    pthread_mutex_lock(&lock);
    int st = compile_locked(p, why, why_size);
    pthread_mutex_unlock(&lock);
    return st;
}

void vm_jit_prepare(vm_run *run, uint64_t warps)
{
    run->jit_fn = NULL;
    const tv_vm_program *p = run->prog;
    const uint8_t mode = run->vm->cfg.jit;
    if (run->plain || run->tracing || mode == TV_VM_JIT_OFF || !p)
        return;
    int st = atomic_load(&p->jit_state);
    if (st == VM_JIT_NOT_YET) {
        tv_vm_program *mp = (tv_vm_program *)(uintptr_t)p;
        uint64_t before = atomic_fetch_add(&mp->jit_warps, warps);
        if (mode == TV_VM_JIT_ALWAYS || before + warps >= TV_VM_JIT_AUTO_WARPS) {
            char why[256];
            st = vm_jit_compile_now(p, why, sizeof why);
            if (st == VM_JIT_DECLINED && verbose())
                fprintf(stderr, "texvm jit: program declined: %s\n", why);
        }
    }
    if (st == VM_JIT_READY)
        run->jit_fn = atomic_load(&p->jit_fn);
}

void vm_jit_release(tv_vm_program *p)
{
    if (!p->jit_code)
        return;
    pthread_mutex_lock(&lock);
    LLVMErrorRef e = LLVMOrcResourceTrackerRemove(p->jit_code->rt);
    if (e)
        LLVMConsumeError(e);
    LLVMOrcReleaseResourceTracker(p->jit_code->rt);
    stats.code_bytes -= p->jit_code->bytes;
    pthread_mutex_unlock(&lock);
    free(p->jit_code);
    p->jit_code = NULL;
}

void vm_jit_get_stats(vm_jit_stats *s)
{
    pthread_mutex_lock(&lock);
    *s = stats;
    pthread_mutex_unlock(&lock);
}

void vm_jit_set_code_budget(uint64_t bytes)
{
    pthread_mutex_lock(&lock);
    code_budget = bytes ? bytes : VM_JIT_CODE_BUDGET;
    pthread_mutex_unlock(&lock);
}

#else /* no LLVM: the JIT is not built, and says so */

bool vm_jit_built(void) { return false; }

void vm_jit_target(char *buf, size_t size) { snprintf(buf, size, "none"); }

void vm_jit_prepare(vm_run *run, uint64_t warps)
{
    (void)warps;
    run->jit_fn = NULL;
}

void vm_jit_release(tv_vm_program *p) { (void)p; }

void vm_jit_get_stats(vm_jit_stats *s) { memset(s, 0, sizeof *s); }

void vm_jit_set_code_budget(uint64_t bytes) { (void)bytes; }

int vm_jit_compile_now(const tv_vm_program *p, char *why, size_t why_size)
{
    (void)p;
    if (why && why_size)
        snprintf(why, why_size, "this build of texvm has no JIT (built without LLVM)");
    return VM_JIT_DECLINED;
}
#endif

bool tv_vm_jit_available(void) { return vm_jit_built(); }

tv_status tv_vm_jit_mode_from_name(const char *name, uint8_t *mode)
{
    static const char *const names[] = {[TV_VM_JIT_AUTO] = "auto", [TV_VM_JIT_OFF] = "off",
                                        [TV_VM_JIT_ALWAYS] = "always"};
    for (uint8_t k = 0; name && k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(name, names[k])) {
            *mode = k;
            return TV_OK;
        }
    return TV_ERR_ARG;
}
