/* Translation validation's runner (tvcheck.h): one program, the same inputs, the plain
 * interpreter and the optimised micro-ops, every result compared bit for bit. */
#include "tvcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "texvm/vm.h"
#include "vm/vm_jit.h"
#include "vm/vm_run.h"
#include "common_rng.h"

enum { FW = 16, FH = 8, NTEX = 4, CB_WORDS = 4 * 64, BUF_WORDS = 4 * 64 * 4,
       VCOUNT = 37, VINST = 2, NCOLOR = TV_VM_MAX_COLOR_TARGETS, NATTR = 8 };

#define MEM_BASE 0x100000ull
#define MEM_SIZE (256u << 10)
#define HDR_POOL MEM_BASE
#define SMP_POOL (MEM_BASE + 32u * 16u)
#define TEX_DATA (MEM_BASE + 0x10000u)

/* A float in [-4, 4) on a 1/64 grid now and then, else any small float: inputs stay
 * finite, the programs make their own NaNs and infinities. */
static uint32_t rnd_value(uint64_t *s)
{
    uint64_t r = tc_rng_next64(s);
    float f = (float)((int32_t)(r & 511) - 256) / 64.0f;
    if ((r >> 9) % 4 == 0)
        f = (float)((int32_t)((r >> 12) & 0xffff) - 32768) / 1024.0f;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The texture unit and its memory: 4 small 2D textures with random texels (RGBA8 8x8 with
 * mips, R32_FLOAT 4x4, RGBA8 5x3, R16G16_UNORM 8x8 with mips) and 4 samplers (point clamp,
 * linear repeat with linear mips, linear clamp, point mirror with point mips). */
typedef struct texenv {
    tv_memory *mem;
    tv_tex_unit *unit;
    uint8_t *host;
} texenv;

static bool tex_setup(texenv *T, uint64_t *seed)
{
    memset(T, 0, sizeof *T);
    T->host = calloc(1, MEM_SIZE);
    T->mem = tv_memory_create();
    tv_error e;
    if (!T->host || !T->mem || tv_memory_map(T->mem, MEM_BASE, T->host, MEM_SIZE, &e) != TV_OK)
        return false;
    T->unit = tv_tex_create(T->mem);
    if (!T->unit)
        return false;
    tv_tex_set_header_pool(T->unit, HDR_POOL, 15);
    tv_tex_set_sampler_pool(T->unit, SMP_POOL, 15);
    static const struct { tv_format f; unsigned w, h, levels; } texs[NTEX] = {
        {TV_FORMAT_R8G8B8A8_UNORM, 8, 8, 4}, {TV_FORMAT_R32_FLOAT, 4, 4, 1},
        {TV_FORMAT_R8G8B8A8_UNORM, 5, 3, 1}, {TV_FORMAT_R16G16_UNORM, 8, 8, 4}};
    uint64_t next = TEX_DATA;
    for (unsigned i = 0; i < NTEX; i++) {
        tv_tic t;
        memset(&t, 0, sizeof t);
        if (tv_tic_from_format(&t, texs[i].f, &e) != TV_OK)
            return false;
        t.texture_type = TV_TEX_2D;
        t.width_minus_one = texs[i].w - 1;
        t.height_minus_one = (uint16_t)(texs[i].h - 1);
        t.max_mip_level = (uint8_t)(texs[i].levels - 1);
        t.res_view_max_mip_level = (uint8_t)(texs[i].levels - 1);
        t.normalized_coords = true;
        t.address = next;
        t.header_version = TV_TIC_BLOCKLINEAR;
        uint64_t size = tv_tic_size_bytes(&t);
        next += (size + 1023u) & ~511ull;
        if (next > MEM_BASE + MEM_SIZE)
            return false;
        for (uint64_t b = 0; b < size; b += 8) {
            uint64_t r = tc_rng_next64(seed);
            if (texs[i].f == TV_FORMAT_R32_FLOAT)  /* finite texels in [-4, 4) */
                r = (uint64_t)rnd_value(seed) | (uint64_t)rnd_value(seed) << 32;
            memcpy(T->host + (t.address - MEM_BASE) + b, &r, size - b < 8 ? size - b : 8);
        }
        uint32_t raw[8];
        tv_tic_encode(&t, raw);
        if (!tv_memory_write(T->mem, HDR_POOL + 32u * i, raw, 32))
            return false;
    }
    static const struct { uint8_t mag, min, mip, wrap; } smps[NTEX] = {
        {TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE},
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_REPEAT},
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE},
        {TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_MIRROR}};
    for (unsigned i = 0; i < NTEX; i++) {
        tv_tsc s;
        memset(&s, 0, sizeof s);
        s.address_u = s.address_v = s.address_p = smps[i].wrap;
        s.mag_filter = smps[i].mag;
        s.min_filter = smps[i].min;
        s.mip_filter = smps[i].mip;
        s.max_lod_clamp = 0xfff;
        uint32_t raw[8];
        tv_tsc_encode(&s, raw);
        if (!tv_memory_write(T->mem, SMP_POOL + 32u * i, raw, 32))
            return false;
    }
    tv_tex_invalidate(T->unit);
    return true;
}


/* Everything one run produces. */
typedef struct outcome {
    tv_status status;
    tv_error err;
    tv_vm_stats stats;
    uint32_t *words;      /* outputs and memory, in a fixed order */
    size_t nwords;
} outcome;

typedef struct inputs {
    uint32_t cb[CB_WORDS];
    uint32_t buf[BUF_WORDS];
    uint32_t attr[4][NATTR][4];            /* FRAG: per rectangle corner */
    uint32_t varr[NATTR][VCOUNT * VINST * 4];   /* VERT */
} inputs;

/* Values where denormals are flushed: rnd_value's, and one in four of these — denormals
 * of both signs (which DAZ reads as zeros), the smallest normals (whose products FTZ
 * flushes), zeros, infinities and NaNs */
static uint32_t rnd_flushed(uint64_t *s)
{
    static const uint32_t specials[] = {0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,
                                        0x00400000u, 0x00800000u, 0x80800000u, 0x00c00000u,
                                        0x80000000u, 0x00000000u, 0x7f800000u, 0xff800000u,
                                        0x7fc00000u, 0x7f800001u, 0xffc12345u, 0x3f800000u};
    uint64_t r = tc_rng_next64(s);
    if (r % 4 == 0)
        return specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
    return rnd_value(s);
}

static void fill_inputs(inputs *in, uint64_t seed, bool flushed)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    uint32_t (*value)(uint64_t *) = flushed ? rnd_flushed : rnd_value;
    for (size_t i = 0; i < CB_WORDS; i++)
        in->cb[i] = (i % 8 == 7) ? (uint32_t)tc_rng_next64(&s) : value(&s);
    for (size_t i = 0; i < BUF_WORDS; i++)
        in->buf[i] = (uint32_t)tc_rng_next64(&s);
    for (int v = 0; v < 4; v++)
        for (int a = 0; a < NATTR; a++)
            for (int c = 0; c < 4; c++)
                in->attr[v][a][c] = value(&s);
    for (int a = 0; a < NATTR; a++)
        for (size_t i = 0; i < VCOUNT * VINST * 4; i++)
            in->varr[a][i] = value(&s);
}

static bool grow(outcome *o, const uint32_t *w, size_t n)
{
    uint32_t *p = realloc(o->words, (o->nwords + n) * sizeof *p);
    if (!p)
        return false;
    memcpy(p + o->nwords, w, n * sizeof *p);
    o->words = p;
    o->nwords += n;
    return true;
}

/* The two engines and the textures, made once and kept for the process: runs leave no
 * state in an engine, and no generated or corpus program writes a texture, so every run
 * starts from the same state. (Not thread-safe: the tests and the fuzz target are
 * single-threaded.) */
static tv_vm *engines[2][3];   /* [denormals flushed][kind, below] */
static texenv tex_env;
static bool env_ready;

static bool env_setup(void)
{
    if (env_ready)
        return true;
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    /* every run allocates its workers' register files and stacks afresh; keep those blocks
       in the heap rather than in fresh mappings, whose page faults cost more than the
       small programs run here (throughput only: no result depends on it) */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    /* 0: optimised, interpreted; 1: plain; 2: optimised, compiled (when the JIT is built);
       each as IEEE arithmetic and with denormals flushed (flush_denormals: DAZ and FTZ, the
       vtest server's shader rules) */
    for (int f = 0; f < 2; f++)
        for (int e = 0; e < 3; e++) {
            tv_vm_config cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.threads = 1;
            cfg.plain = e == 1;
            cfg.flush_denormals = f == 1;
            cfg.jit = e == 2 ? TV_VM_JIT_ALWAYS : TV_VM_JIT_OFF;
            cfg.limits.max_instructions = 200000;
            cfg.limits.max_loop_iterations = 20000;
            if (e == 2 && !tv_vm_jit_available())
                break;
            tv_error err;
            engines[f][e] = tv_vm_create(&cfg, &err);
            if (!engines[f][e])
                return false;
            /* the optimised engines start runs on the last run's registers, here filled
               with garbage: a read before a write would show against the plain run */
            if (e != 1)
                vm_debug_poison_registers(engines[f][e], true);
        }
    uint64_t ts = 17;
    if (!tex_setup(&tex_env, &ts))
        return false;
    env_ready = true;
    return true;
}

static bool run_one(const tv_vm_program *p, tv_vm *vm, const inputs *in, outcome *o)
{
    bool ok = true;
    uint32_t *cb = malloc(sizeof in->cb), *buf = malloc(sizeof in->buf);
    ok = ok && cb && buf;
    if (ok) {
        memcpy(cb, in->cb, sizeof in->cb);
        memcpy(buf, in->buf, sizeof in->buf);
        tv_vm_bindings b;
        tv_vm_bindings_init(&b);
        b.constbufs[0] = (tv_vm_buffer){cb, sizeof in->cb};
        b.constbufs[1] = (tv_vm_buffer){cb, sizeof in->cb};
        b.buffers[0] = (tv_vm_buffer){buf, sizeof in->buf};
        b.buffers[1] = (tv_vm_buffer){buf + BUF_WORDS / 2, sizeof in->buf / 2};
        b.tex = tex_env.unit;
        switch (tv_vm_program_processor(p)) {
        case TV_TGSI_FRAG: {
            tv_vm_frag_params fp;
            tv_vm_frag_params_fullscreen(&fp, FW, FH, TV_VM_PRIM_RECT);
            for (int v = 0; v < 4; v++)
                for (int a = 0; a < NATTR; a++)
                    memcpy(fp.vertices[v].attr[a], in->attr[v][a], 16);
            fp.vertices[3].w = 2.0f;   /* perspective: the interpolation is not affine */
            static uint32_t color[NCOLOR][FW * FH * 4];
            static float depth[FW * FH];
            static uint32_t stencil[FW * FH], smask[FW * FH];
            for (int t = 0; t < NCOLOR; t++) {
                memset(color[t], 0xa5, sizeof color[t]);
                fp.color[t].data = color[t];
            }
            memset(depth, 0, sizeof depth);
            memset(stencil, 0, sizeof stencil);
            memset(smask, 0, sizeof smask);
            fp.depth = depth;
            fp.stencil = stencil;
            fp.sample_mask_out = smask;
            o->status = tv_vm_run_fragment(vm, p, &b, &fp, &o->stats, &o->err);
            for (int t = 0; ok && t < NCOLOR; t++)
                ok = grow(o, color[t], FW * FH * 4);
            uint32_t dw[FW * FH];
            memcpy(dw, depth, sizeof dw);
            ok = ok && grow(o, dw, FW * FH) && grow(o, stencil, FW * FH) &&
                 grow(o, smask, FW * FH);
            break;
        }
        case TV_TGSI_COMP: {
            tv_vm_compute_params cp;
            memset(&cp, 0, sizeof cp);
            cp.grid[0] = 2;
            cp.grid[1] = cp.grid[2] = 1;
            uint32_t block[3];
            tv_vm_program_block_size(p, block);
            if (!block[0]) {
                cp.block[0] = 32;
                cp.block[1] = cp.block[2] = 1;
            }
            o->status = tv_vm_run_compute(vm, p, &b, &cp, &o->stats, &o->err);
            break;
        }
        case TV_TGSI_VERT: {
            tv_vm_vertex_params vp;
            memset(&vp, 0, sizeof vp);
            vp.count = VCOUNT;
            vp.instances = VINST;
            static uint32_t out[TV_VM_MAX_ATTRIBS][VCOUNT * VINST * 4];
            for (int a = 0; a < NATTR; a++)
                vp.attribs[a] = (tv_vm_vertex_array){in->varr[a], sizeof in->varr[a], 0, 16, 4,
                                                     false, 0};
            for (int r = 0; r < TV_VM_MAX_ATTRIBS; r++) {
                memset(out[r], 0x5a, sizeof out[r]);
                vp.out[r] = out[r];
            }
            o->status = tv_vm_run_vertex(vm, p, &b, &vp, &o->stats, &o->err);
            for (int r = 0; ok && r < TV_VM_MAX_ATTRIBS; r++)
                ok = grow(o, out[r], VCOUNT * VINST * 4);
            break;
        }
        case TV_TGSI_GEOM: {
            tv_vm_geometry_params gp;
            memset(&gp, 0, sizeof gp);
            gp.num_prims = 5;
            gp.num_vertices = VCOUNT * VINST;
            for (int a = 0; a < NATTR; a++)
                gp.in[a] = in->varr[a];
            tv_vm_geometry_output go;
            memset(&go, 0, sizeof go);
            o->status = tv_vm_run_geometry(vm, p, &b, &gp, &go, &o->stats, &o->err);
            if (o->status == TV_OK) {
                for (int s = 0; ok && s < TV_VM_MAX_STREAMS; s++) {
                    const tv_vm_geometry_stream *gs = &go.streams[s];
                    uint32_t counts[3] = {go.num_outputs, gs->num_vertices, gs->num_prims};
                    ok = grow(o, counts, 3) &&
                         grow(o, gs->vertices, (size_t)gs->num_vertices * go.num_outputs * 4) &&
                         grow(o, gs->prim_lengths, gs->num_prims);
                }
                tv_vm_geometry_output_free(&go);
            }
            break;
        }
        default:
            ok = false;   /* tessellation stages are not run here */
            break;
        }
        ok = ok && grow(o, buf, BUF_WORDS) && grow(o, cb, CB_WORDS);
    }
    free(cb);
    free(buf);
    return ok;
}

/* Programs compiled by the JIT and compared too: every TV_JIT_EVERY-th seed (default 20:
 * LLVM takes 0.1-0.5 s to compile a random program of a few hundred micro-ops, which are
 * dense with handler calls and indirect register access; 1 compares every program). */
static unsigned jit_every(void)
{
    const char *e = getenv("TV_JIT_EVERY");
    unsigned v = e ? (unsigned)strtoul(e, NULL, 10) : 20;
    return v ? v : 1;
}

/* Compare run b (`name`) with the plain run a. */
static tvc_result compare(const outcome *a, const outcome *b, const char *name, char *why,
                          size_t why_size)
{
    if (a->status != b->status || strcmp(a->err.message, b->err.message)) {
        snprintf(why, why_size, "status: plain %s \"%s\", %s %s \"%s\"",
                 tv_status_name(a->status), a->err.message, name, tv_status_name(b->status),
                 b->err.message);
        return TVC_DIFFERENT;
    }
    if (a->stats.instructions != b->stats.instructions ||
        a->stats.invocations != b->stats.invocations || a->stats.killed != b->stats.killed) {
        snprintf(why, why_size,
                 "statistics: plain %llu instructions %llu invocations %llu killed, "
                 "%s %llu %llu %llu",
                 (unsigned long long)a->stats.instructions,
                 (unsigned long long)a->stats.invocations, (unsigned long long)a->stats.killed,
                 name, (unsigned long long)b->stats.instructions,
                 (unsigned long long)b->stats.invocations, (unsigned long long)b->stats.killed);
        return TVC_DIFFERENT;
    }
    if (a->nwords != b->nwords) {
        snprintf(why, why_size, "result sizes differ (%s)", name);
        return TVC_DIFFERENT;
    }
    for (size_t i = 0; i < a->nwords; i++)
        if (a->words[i] != b->words[i]) {
            snprintf(why, why_size, "result word %zu: plain 0x%08x, %s 0x%08x", i,
                     a->words[i], name, b->words[i]);
            return TVC_DIFFERENT;
        }
    return TVC_SAME;
}

tvc_result tvc_run_both(const char *text, size_t len, uint64_t seed, char *why,
                        size_t why_size, tvc_info *info)
{
    if (why_size)
        why[0] = 0;
    if (info)
        info->compiled = false;
    tv_error err;
    if (!env_setup())
        return TVC_NOT_RUN;
    /* every other seed (every other compiled one too) on the engines that flush denormals */
    const bool flushed = (seed / jit_every()) & 1u;
    tv_vm *const *eng = engines[flushed];
    /* the program as each engine lowers it: plainly on the plain engine */
    tv_vm_program *p = tv_vm_program_from_text(eng[0], text, len, "tv", &err);
    if (!p) {
        snprintf(why, why_size, "not run: %s", err.message);
        return TVC_NOT_RUN;
    }
    tv_vm_program *pp = tv_vm_program_from_text(eng[1], text, len, "tv", &err);
    if (!pp) {
        snprintf(why, why_size, "the plain engine rejects what the other accepts: %s",
                 err.message);
        tv_vm_program_destroy(p);
        return TVC_DIFFERENT;
    }
    inputs *in = malloc(sizeof *in);
    if (!in) {
        tv_vm_program_destroy(p);
        return TVC_NOT_RUN;
    }
    fill_inputs(in, seed, flushed);
    outcome a, b, c;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    bool ran_plain = run_one(pp, eng[1], in, &a), ran_opt = run_one(p, eng[0], in, &b);
    bool ran = ran_plain && ran_opt;
    tvc_result r = TVC_SAME;
    if (!ran) {
        snprintf(why, why_size, "not run: processor %s", tv_tgsi_processor_name(
                 tv_vm_program_processor(p)));
        r = TVC_NOT_RUN;
    } else {
        r = compare(&a, &b, "optimised", why, why_size);
        /* the same program compiled (vm_jit.h); a program the JIT declines runs
           interpreted on that engine too */
        if (r == TVC_SAME && eng[2] && seed % jit_every() == 0) {
            vm_jit_stats before, after;
            vm_jit_get_stats(&before);
            if (!run_one(p, eng[2], in, &c)) {
                snprintf(why, why_size, "the compiled run did not run");
                r = TVC_DIFFERENT;
            } else {
                r = compare(&a, &c, "compiled", why, why_size);
            }
            vm_jit_get_stats(&after);
            if (info)
                info->compiled = after.compiled > before.compiled;
        }
    }
    if (r == TVC_DIFFERENT && flushed && why_size) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", why);
        snprintf(why, why_size, "denormals flushed: %s", tmp);
    }
    if (info && ran) {
        info->status = (int)a.status;
        info->instructions = a.stats.instructions;
        snprintf(info->message, sizeof info->message, "%s", a.err.message);
    }
    free(a.words);
    free(b.words);
    free(c.words);
    free(in);
    tv_vm_program_destroy(p);
    tv_vm_program_destroy(pp);
    return r;
}
