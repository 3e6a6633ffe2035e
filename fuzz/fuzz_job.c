/* libFuzzer target for job files (docs/jobs.md): the bytes are a job file's text, loaded
 * by tv_job_load_text (JSON, every section, referenced TGSI/PNG/raw files in a scratch folder,
 * texel data built) exactly as `texvm run JOB.json` loads it. A job either loads or fails
 * with a message starting with the file name and an exit class 1, 3 or 4. Small jobs that
 * load are also run (tv_job_run: resources, texture unit, engine, outputs and checks) with a
 * tight instruction budget, writing their outputs into the scratch folder.
 *   scripts/fuzz 600 fuzz_job */
#include "job.h"
#include "job_limits.h"
#include "job_run.h"
#include "job_scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], job_path[96], out_dir[96];

static void put(const char *name, const void *data, size_t size)
{
    char p[160];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
}

/* Files a fuzzed job may name: a.tgsi (FRAG), c.tgsi (COMP), v.tgsi (VERT, for scenes),
 * t.png (2x2 RGBA8), r.raw. */
static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/texvm_fuzz_job_%ld", (long)getpid());
    snprintf(job_path, sizeof job_path, "%s/job.json", dir);
    snprintf(out_dir, sizeof out_dir, "%s/out", dir);
    tv_job_set_max_memory(256u << 20); /* below the fuzzer's 2 GiB malloc limit */
    mkdir(dir, 0700);
    mkdir(out_dir, 0700);
    static const char frag[] = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n"
                               "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
                               "TEX TEMP[0], IN[0], SAMP[0], 2D\nMOV OUT[0], TEMP[0]\nEND\n";
    static const char comp[] = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\n"
                               "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                               "DCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0]\n"
                               "IMM[0] UINT32 {4, 0, 0, 0}\n"
                               "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                               "STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx\nEND\n";
    static const unsigned char png[] = {
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
        0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00,
        0x00, 0x72, 0xb6, 0x0d, 0x24, 0x00, 0x00, 0x00, 0x1a, 0x49, 0x44, 0x41, 0x54, 0x78,
        0x9c, 0x63, 0x60, 0x64, 0x62, 0x66, 0x61, 0x65, 0x63, 0xe7, 0x60, 0xe0, 0xe4, 0xe2,
        0xe6, 0xe1, 0xe5, 0xe3, 0x17, 0x00, 0x00, 0x03, 0x66, 0x00, 0x89, 0x6d, 0xf9, 0x2a,
        0x51, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
    unsigned char raw[256];
    for (int i = 0; i < 256; i++)
        raw[i] = (unsigned char)(i * 37 + 11);
    put("a.tgsi", frag, sizeof frag - 1);
    put("c.tgsi", comp, sizeof comp - 1);
    static const char vert[] = "VERT\nDCL IN[0]\nDCL IN[2]\nDCL OUT[0], POSITION\n"
                               "DCL OUT[1], GENERIC[0]\nDCL CONST[0..3]\n"
                               "DP4 OUT[0].x, CONST[0], IN[0]\nDP4 OUT[0].y, CONST[1], IN[0]\n"
                               "DP4 OUT[0].z, CONST[2], IN[0]\nDP4 OUT[0].w, CONST[3], IN[0]\n"
                               "MOV OUT[1], IN[2]\nEND\n";
    put("v.tgsi", vert, sizeof vert - 1);
    put("t.png", png, sizeof png);
    put("r.raw", raw, sizeof raw);
}

/* Run only jobs that finish quickly: small targets, grids and draws. */
static bool small(const job *j)
{
    uint64_t px = (uint64_t)j->frag.width * j->frag.height * (j->frag.samples ? j->frag.samples : 1);
    uint64_t g = (uint64_t)j->comp.grid[0] * j->comp.grid[1] * j->comp.grid[2];
    uint64_t b = (uint64_t)(j->comp.block[0] ? j->comp.block[0] : 64) *
                 (j->comp.block[1] ? j->comp.block[1] : 1) * (j->comp.block[2] ? j->comp.block[2] : 1);
    uint64_t v = (uint64_t)j->vert.count * (j->vert.instances ? j->vert.instances : 1);
    if (j->scene) { /* pixels of every pass times its draws, vertices of every draw */
        uint64_t work = 0;
        for (size_t p = 0; p < j->scene->num_passes; p++) {
            const job_scene_pass *ps = &j->scene->passes[p];
            uint64_t area = (uint64_t)ps->width * ps->height;
            work += area * (ps->num_draws + 1);
            for (size_t d = 0; d < ps->num_draws; d++)
                if ((uint64_t)ps->draws[d].count * ps->draws[d].instances > 4096)
                    return false;
        }
        if (work > 65536)
            return false;
    }
    return px <= 4096 && g * b <= 4096 && v <= 4096 && j->geom.count <= 256;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0])
        setup();
    if (size > 1 << 16)
        return 0;
    tv_job_error err;
    memset(&err, 0, sizeof err);
    job *j = tv_job_load_text((const char *)data, size, job_path, &err);
    if (!j) {
        if (strncmp(err.message, job_path, strlen(job_path)) != 0 ||
            (err.cls != TV_JOB_ERR_INVALID && err.cls != TV_JOB_ERR_IO && err.cls != TV_JOB_ERR_UNSUPPORTED))
            abort(); /* every loader error names the file and has an exit class */
        return 0;
    }
    if (small(j)) {
        tv_job_run_opts o;
        memset(&o, 0, sizeof o);
        o.out_dir = out_dir;
        o.threads = 1;
        o.max_instructions = 20000;
        o.max_loop_iterations = 2000;
        o.max_memory = 64u << 20;
        o.precision = -1;
        o.quiet = true;
        FILE *null = fopen("/dev/null", "w");
        FILE *saved = stderr;
        if (null)
            stderr = null; /* the CLI prints run messages; keep the fuzzer's log readable */
        int rc = tv_job_run(j, &o);
        stderr = saved;
        if (null)
            fclose(null);
        if (rc != 0 && rc != 1 && rc != 3 && rc != 4)
            abort();
    }
    tv_job_free(j);
    return 0;
}
