/* Texture unit throughput, single thread: samples (lanes) per second for RGBA8 2D bilinear,
 * trilinear, 16x anisotropic, cube (seamless, trilinear) and texel fetch. Prints a table.
 *   bench_tex [seconds-per-row]   (default 0.5) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "texvm/tex.h"
#include "bench_clock.h"

#define BASE 0x100000ull
#define SIZE (8u << 20)


static uint32_t rng = 12345u;
static float frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

typedef struct bench_row {
    const char *name;
    unsigned op, target, header, sampler;
    float deriv_major, deriv_minor; /* quad / gradient footprint in texels of 256 */
} bench_row;

static void fill_request(const bench_row *b, tv_tex_request *r)
{
    memset(r, 0, sizeof *r);
    r->op = (uint8_t)b->op;
    r->target = (uint8_t)b->target;
    r->active = ~0u;
    for (unsigned l = 0; l < 32; l++) {
        r->handle[l] = tv_tex_handle(b->header, b->sampler);
        if (b->target == TV_TEXTGT_CUBE) {
            for (int a = 0; a < 3; a++)
                r->coord[a][l] = frand() * 2 - 1;
            if (b->op == TV_TEX_OP_SAMPLE && (l & 3)) { /* small quad footprint */
                unsigned q = l & ~3u;
                r->coord[0][l] = r->coord[0][q] + 0.02f * (float)(l & 1);
                r->coord[1][l] = r->coord[1][q] + 0.02f * (float)((l >> 1) & 1);
                r->coord[2][l] = r->coord[2][q];
            }
        } else if (b->op == TV_TEX_OP_FETCH) {
            r->icoord[0][l] = (int32_t)(frand() * 256);
            r->icoord[1][l] = (int32_t)(frand() * 256);
        } else {
            float s = frand(), t = frand();
            unsigned k = l & 3;
            r->coord[0][l] = s + (k & 1) * b->deriv_major / 256.0f;
            r->coord[1][l] = t + (k >> 1) * b->deriv_minor / 256.0f;
            r->ddx[0][l] = b->deriv_major / 256.0f;
            r->ddy[1][l] = b->deriv_minor / 256.0f;
        }
    }
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    uint8_t *host = calloc(1, SIZE);
    tv_memory *mem = tv_memory_create();
    tv_error e;
    if (!host || !mem || tv_memory_map(mem, BASE, host, SIZE, &e) != TV_OK) {
        fprintf(stderr, "bench_tex: setup failed\n");
        return 1;
    }
    tv_tex_unit *unit = tv_tex_create(mem);
    tv_tex_set_header_pool(unit, BASE, 15);
    tv_tex_set_sampler_pool(unit, BASE + 512, 15);
    uint64_t next = BASE + 0x10000;
    tv_format f = tv_format_from_name("R8G8B8A8_UNORM");
    unsigned types[2] = {TV_TEX_2D, TV_TEX_CUBE}, sizes[2] = {256, 64}, levels[2] = {9, 7};
    for (unsigned h = 0; h < 2; h++) {
        tv_tic t;
        memset(&t, 0, sizeof t);
        tv_tic_from_format(&t, f, &e);
        t.header_version = TV_TIC_BLOCKLINEAR;
        t.texture_type = (uint8_t)types[h];
        t.width_minus_one = sizes[h] - 1;
        t.height_minus_one = (uint16_t)(sizes[h] - 1);
        t.max_mip_level = t.res_view_max_mip_level = (uint8_t)(levels[h] - 1);
        t.normalized_coords = true;
        t.address = next;
        uint64_t bytes = tv_tic_size_bytes(&t);
        for (uint64_t i = 0; i < bytes; i++)
            host[next - BASE + i] = (uint8_t)(i * 2654435761u >> 13);
        next += (bytes + 1023) & ~511ull;
        uint32_t raw[8];
        tv_tic_encode(&t, raw);
        tv_memory_write(mem, BASE + 32 * h, raw, 32);
    }
    static const uint8_t filt[3][3] = {{TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE},
                                       {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR},
                                       {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR}};
    for (unsigned s = 0; s < 3; s++) {
        tv_tsc ts;
        memset(&ts, 0, sizeof ts);
        ts.address_u = ts.address_v = ts.address_p = TV_WRAP_REPEAT;
        ts.mag_filter = filt[s][0];
        ts.min_filter = filt[s][1];
        ts.mip_filter = filt[s][2];
        ts.max_lod_clamp = 0xfff;
        ts.cubemap_interface_filtering = 2;
        ts.max_anisotropy = s == 2 ? 7 : 0;
        uint32_t raw[8];
        tv_tsc_encode(&ts, raw);
        tv_memory_write(mem, BASE + 512 + 32 * s, raw, 32);
    }
    static const bench_row rows[] = {
        {"2D bilinear", TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, 0, 0, 0, 0},
        {"2D trilinear", TV_TEX_OP_SAMPLE, TV_TEXTGT_2D, 0, 1, 2.5f, 2.5f},
        {"2D aniso 16x", TV_TEX_OP_SAMPLE_GRAD, TV_TEXTGT_2D, 0, 2, 32.0f, 2.0f},
        {"cube trilinear", TV_TEX_OP_SAMPLE, TV_TEXTGT_CUBE, 1, 1, 0, 0},
        {"texel fetch", TV_TEX_OP_FETCH, TV_TEXTGT_2D, 0, 0, 0, 0},
    };
    static tv_tex_request req[8];
    static tv_tex_result res;
    printf("texvm texture unit, RGBA8, single thread, %.2f s per row\n", secs);
    printf("%-16s %-10s %14s\n", "operation", "precision", "samples/s");
    for (unsigned p = 0; p < 2; p++) {
        tv_tex_set_precision(unit, p ? TV_TEX_PRECISION_HARDWARE : TV_TEX_PRECISION_REFERENCE);
        for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            for (unsigned k = 0; k < 8; k++)
                fill_request(&rows[i], &req[k]);
            uint64_t lanes = 0;
            double t0 = bench_now(), t1 = t0;
            while (t1 - t0 < secs) {
                for (unsigned k = 0; k < 8; k++) {
                    if (tv_tex_execute(unit, &req[k], &res, &e) != TV_OK) {
                        fprintf(stderr, "bench_tex: %s\n", e.message);
                        return 1;
                    }
                    lanes += 32;
                }
                t1 = bench_now();
            }
            printf("%-16s %-10s %14.0f\n", rows[i].name, p ? "hardware" : "reference",
                   (double)lanes / (t1 - t0));
        }
    }
    tv_tex_destroy(unit);
    tv_memory_destroy(mem);
    free(host);
    return 0;
}
