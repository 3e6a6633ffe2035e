/* The SASS test environment (sass_env.h). */
#include "sass_env.h"

#include "common_tex.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Only for values with an exact half: sign, exponent -14..15, 10-bit mantissa. */
uint16_t ref_half(float f)
{
    if (f == 0.0f)
        return signbit(f) ? 0x8000 : 0;
    uint16_t sign = f < 0 ? 0x8000 : 0;
    if (f < 0)
        f = -f;
    int e = 0;
    while (f >= 2.0f) { f /= 2.0f; e++; }
    while (f < 1.0f) { f *= 2.0f; e--; }
    unsigned mant = (unsigned)((f - 1.0f) * 1024.0f);
    return (uint16_t)(sign | (unsigned)(e + 15) << 10 | mant);
}

void senv_init(senv *E)
{
    memset(E, 0, sizeof *E);
    tc_tex_open(ENV_BASE, ENV_SIZE, &E->host, &E->mem, &E->unit);
    tv_error e;
    E->w = tv_sass_warp_create(E->unit, &e);
    assert_non_null(E->w);
    tv_sass_binding b = {ENV_HDR, ENV_ENTRIES - 1, ENV_SMP, ENV_ENTRIES - 1, false, ENV_BANK};
    assert_int_equal(tv_sass_set_binding(E->w, &b, &e), TV_OK);
    E->next = ENV_DATA;
    senv_put_tsc(E, 0, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_CLAMP_TO_EDGE);
}

void senv_free(senv *E)
{
    tv_sass_warp_destroy(E->w);
    tc_tex_close(E->host, E->mem, E->unit);
}

int senv_setup(void **state)
{
    static senv E;
    senv_init(&E);
    *state = &E;
    return 0;
}

int senv_teardown(void **state)
{
    senv_free(*state);
    return 0;
}

void senv_tic(tv_tic *t, tv_format f, unsigned type, unsigned w, unsigned h, unsigned d,
              unsigned levels)
{
    tc_tic_blocklinear(t, f, type, w, h, d, levels);
}

unsigned env_k(unsigned level, unsigned layer, unsigned x, unsigned y, unsigned sample,
               unsigned c)
{
    return (x * 7 + y * 13 + layer * 17 + level * 29 + sample * 11 + c * 5) % 31 + 1;
}

float env_texel_f(unsigned level, unsigned layer, unsigned x, unsigned y, unsigned sample,
                  unsigned c)
{
    return (float)env_k(level, layer, x, y, sample, c) / 8.0f;
}

static unsigned samples_of(unsigned code)
{
    static const unsigned s[16] = {1, 2, 4, 8, 8, 2, 16, 0, 4, 4, 8, 8, 2, 4, 8, 16};
    return s[code & 15];
}

void senv_put_tic(senv *E, unsigned idx, tv_tic *t)
{
    unsigned w = t->width_minus_one + 1, h = t->height_minus_one + 1u;
    t->address = E->next;
    uint64_t size = tv_tic_size_bytes(t);
    E->next += (size + 1023u) & ~511ull;
    assert_true(E->next < ENV_BASE + ENV_SIZE);
    uint32_t raw[8];
    tv_tic_encode(t, raw);
    assert_true(tv_memory_write(E->mem, ENV_HDR + 32u * idx, raw, 32));
    tv_format f = tv_format_from_tic(t);
    const tv_format_info *fi = tv_format_get(f);
    bool is_int = fi && (fi->kind == TV_FMT_KIND_SINT || fi->kind == TV_FMT_KIND_UINT);
    unsigned levels = t->max_mip_level + 1u;
    unsigned layers = 1, depth = 1;
    switch (t->texture_type) {
    case TV_TEX_1D_ARRAY: case TV_TEX_2D_ARRAY: layers = t->depth_minus_one + 1u; h = t->texture_type == TV_TEX_1D_ARRAY ? 1 : h; break;
    case TV_TEX_3D: depth = t->depth_minus_one + 1u; break;
    case TV_TEX_CUBE: layers = 6; break;
    case TV_TEX_CUBE_ARRAY: layers = 6u * (t->depth_minus_one + 1u); break;
    case TV_TEX_1D: case TV_TEX_1D_BUFFER: h = 1; break;
    default: break;
    }
    unsigned ns = samples_of(t->multi_sample_count);
    for (unsigned l = 0; l < levels; l++) {
        unsigned lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        unsigned ld = depth >> l ? depth >> l : 1;
        for (unsigned z = 0; z < (depth > 1 ? ld : layers); z++)
            for (unsigned y = 0; y < lh; y++)
                for (unsigned x = 0; x < lw; x++)
                    for (unsigned s = 0; s < ns; s++) {
                        uint32_t in[4];
                        for (unsigned c = 0; c < 4; c++)
                            in[c] = is_int ? env_k(l, z, x, y, s, c)
                                           : tv_f32_bits(env_texel_f(l, z, x, y, s, c));
                        uint8_t texel[16];
                        if (!tv_format_pack(f, in, texel))
                            continue;
                        uint64_t a = tv_tic_texel_address(t, l, x, y, z, s);
                        tv_memory_write(E->mem, a, texel, fi ? fi->block_bytes : 4);
                    }
    }
    tv_tex_invalidate(E->unit);
}

void senv_put_tex(senv *E, unsigned idx, tv_format f, unsigned type, unsigned w, unsigned h,
                  unsigned d, unsigned levels)
{
    tv_tic t;
    senv_tic(&t, f, type, w, h, d, levels);
    senv_put_tic(E, idx, &t);
}

void senv_put_tsc_raw(senv *E, unsigned idx, const tv_tsc *s)
{
    uint32_t raw[8];
    tv_tsc_encode(s, raw);
    assert_true(tv_memory_write(E->mem, ENV_SMP + 32u * idx, raw, 32));
    tv_tex_invalidate(E->unit);
}

void senv_tsc(tv_tsc *s, unsigned mag, unsigned min, unsigned mip, unsigned wrap)
{
    memset(s, 0, sizeof *s);
    s->address_u = s->address_v = s->address_p = (uint8_t)wrap;
    s->mag_filter = (uint8_t)mag;
    s->min_filter = (uint8_t)min;
    s->mip_filter = (uint8_t)mip;
    s->max_lod_clamp = 0xfff;
}

void senv_put_tsc(senv *E, unsigned idx, unsigned mag, unsigned min, unsigned mip,
                  unsigned wrap)
{
    tv_tsc s;
    senv_tsc(&s, mag, min, mip, wrap);
    senv_put_tsc_raw(E, idx, &s);
}

void senv_bind(senv *E, unsigned tid, uint32_t handle)
{
    tv_error e;
    assert_int_equal(tv_sass_cbank_write(E->w, ENV_BANK, tid * 4u, &handle, 4, &e), TV_OK);
}

tv_status run_status(senv *E, const char *text, tv_error *err)
{
    memset(err, 0, sizeof *err);
    return tv_sass_exec_text(E->w, text, err);
}

void parse_ok(const char *text, tv_sass_insn *in)
{
    tv_error err;
    tv_status s = tv_sass_parse(text, in, &err);
    if (s)
        fprintf(stderr, "%s: %s\n", text, err.message);
    assert_int_equal(s, TV_OK);
}

void run_ok(senv *E, const char *text)
{
    tv_error err;
    tv_status s = run_status(E, text, &err);
    if (s)
        fprintf(stderr, "%s\n  -> %s\n", text, err.message);
    assert_int_equal(s, TV_OK);
}

static unsigned list_of(const uint64_t bits[4], unsigned out[16])
{
    unsigned n = 0;
    for (unsigned r = 0; r < 256; r++)
        if ((bits[r / 64] >> (r % 64)) & 1u) {
            if (n < 16)
                out[n] = r;
            n++;
        }
    return n;
}

unsigned reads_of(senv *E, unsigned out[16])
{
    uint64_t r[4], w[4];
    tv_sass_last_access(E->w, r, w, NULL);
    return list_of(r, out);
}

unsigned writes_of(senv *E, unsigned out[16])
{
    uint64_t r[4], w[4];
    tv_sass_last_access(E->w, r, w, NULL);
    return list_of(w, out);
}

void assert_regs(const unsigned *got, unsigned n, const unsigned *want, unsigned wn)
{
    assert_int_equal(n, wn);
    for (unsigned i = 0; i < n && i < 16; i++)
        assert_int_equal(got[i], want[i]);
}

uint32_t reg(senv *E, unsigned r, unsigned lane) { return tv_sass_get_reg(E->w, r, lane); }
void set_all(senv *E, unsigned r, uint32_t v) { tv_sass_set_reg_all(E->w, r, v); }
void set_allf(senv *E, unsigned r, float v) { tv_sass_set_reg_all(E->w, r, tv_f32_bits(v)); }
