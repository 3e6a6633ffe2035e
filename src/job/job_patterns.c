/* Generated textures (docs/jobs-resources.md §2): pure functions of the texel position. */
#include "job.h"

#include <math.h>
#include <string.h>

uint32_t job_hash(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t c)
{
    uint32_t h = seed * 0x9E3779B1u + x * 0x85EBCA77u + y * 0xC2B2AE3Du + z * 0x27D4EB2Fu +
                 c * 0x165667B1u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

static void set(double out[4], const double c[4])
{
    memcpy(out, c, 4 * sizeof *out);
}

void job_pattern_eval(const job_pattern *p, uint32_t x, uint32_t y, uint32_t layer,
                      uint32_t layers, uint32_t level, uint32_t w, uint32_t h, double out[4])
{
    double u = (x + 0.5) / w, v = (y + 0.5) / h;
    switch (p->kind) {
    case JOB_PAT_CHECKER: {
        uint32_t cell = level < 32 ? p->cell >> level : 0;
        if (cell < 1)
            cell = 1;
        set(out, p->colors[(x / cell + y / cell + layer) % 2]);
        return;
    }
    case JOB_PAT_GRADIENT: {
        double t;
        switch (p->direction) {
        case JOB_GRAD_Y: t = v; break;
        case JOB_GRAD_DIAGONAL: t = (u + v) / 2; break;
        case JOB_GRAD_RADIAL:
            t = 2 * sqrt((u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5));
            if (t > 1)
                t = 1;
            break;
        default: t = u; break;
        }
        for (int k = 0; k < 4; k++)
            out[k] = p->colors[0][k] + (p->colors[1][k] - p->colors[0][k]) * t;
        return;
    }
    case JOB_PAT_UV:
        out[0] = u;
        out[1] = v;
        out[2] = (double)layer / (layers > 1 ? layers - 1 : 1);
        out[3] = 1;
        return;
    case JOB_PAT_NOISE:
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t hv = job_hash(p->seed, x, y, layer * 16 + level, k);
            out[k] = p->min + (p->max - p->min) * (hv / 4294967296.0);
        }
        if (p->gray)
            out[1] = out[2] = out[0];
        if (!p->alpha_noise)
            out[3] = 1;
        return;
    case JOB_PAT_LEVELS:
        set(out, p->colors[p->num_colors ? level % p->num_colors : 0]);
        return;
    case JOB_PAT_LAYERS:
        set(out, p->colors[p->num_colors ? layer % p->num_colors : 0]);
        return;
    case JOB_PAT_BRICKS: {
        uint32_t bw = p->brick[0], bh = p->brick[1];
        uint32_t xs = x + ((y / bh) % 2) * (bw / 2);
        bool mortar = xs % bw < p->mortar || y % bh < p->mortar;
        set(out, p->colors[mortar ? 1 : 0]);
        return;
    }
    default: /* fill */
        set(out, p->colors[0]);
        return;
    }
}
