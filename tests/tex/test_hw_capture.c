/* The texture unit in hardware precision against a real NVIDIA GPU: replays
 * tests/tex/data/h100-tex-capture.txt (11901 lookups made through CUDA's texture objects
 * on an H100 by tools/hw-capture/tex_capture.cu, scripts/hw-capture.sh) and compares the
 * four result words of every lookup. The expected values are the GPU's, not texvm's.
 *
 * The textures are the capture tool's formulas, repeated here (hw_byte is its tc_byte,
 * hw_texel its put_texel): A (RGBA32F: R = x, G = y, B = level or z, A = a hashed byte /
 * 256 or the level), W (each of a footprint's eight weights: 1 at even x, 512 at odd x, in
 * channel 2·((level + z)&1) + (y&1)), C and H (full-mantissa floats and halves), B, R, S
 * (hashed bytes: RGBA8, R8, RGBA8 sRGB) and T (sRGB, every byte once); 2D, 1D, 3D, cube and
 * layered shapes (hw_shapes). docs/texture-unit-precision.md ("Checked against a GPU")
 * states what matches: every lookup of the modelled cases bit for bit — this test requires
 * it — and, where texvm differs, the bounds this test holds: filtered sRGB and one cube
 * lookup (hw_known_cases) and λ from derivatives (texture A's blue channel is the level
 * plus the mip fraction). */
#include <math.h>
#include <stdio.h>

#include "common_file.h"
#include "sample_fixture.h"
#include "tex/fast/tex_fast.h"

enum { HW_MAX_LOOKUPS = 16384, HW_MAX_CASES = 64 };
enum { K_TEX2D = 0, K_LOD = 1, K_GRAD = 2, K_GATHER = 3 };

static uint8_t hw_byte(unsigned level, unsigned x, unsigned y, unsigned c)
{
    uint32_t h = level * 0x9E3779B1u ^ x * 0x85EBCA77u ^ y * 0xC2B2AE3Du ^ c * 0x27D4EB2Fu;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (uint8_t)(h >> 4);
}

/* texture C's float bits (the tool's tc_float_bits): full mantissas in [0.5, 4) */
static uint32_t hw_float_bits(unsigned level, unsigned x, unsigned y, unsigned c)
{
    uint32_t h = (uint32_t)hw_byte(level, x, y, c) << 24 | (uint32_t)hw_byte(level, y, x, c + 4) << 16 |
                 (uint32_t)hw_byte(level + 8, x, y, c) << 8 | hw_byte(level + 8, y, x, c + 4);
    return (126u + (h >> 30)) << 23 | (h & 0x7fffffu);
}

/* the tool's shapes: level-0 size (z: depth, faces or layers), level count, header type
 * and request target */
typedef struct hw_shape_info {
    char id;
    unsigned w, h, d, levels, type, target;
} hw_shape_info;

static const hw_shape_info hw_shapes[] = {
    {'2', 64, 64, 1, 7, TV_TEX_2D, TV_TEXTGT_2D},
    {'1', 64, 1, 1, 7, TV_TEX_1D, TV_TEXTGT_1D},
    {'3', 16, 16, 16, 5, TV_TEX_3D, TV_TEXTGT_3D},
    {'C', 16, 16, 6, 5, TV_TEX_CUBE, TV_TEXTGT_CUBE},
    {'L', 32, 32, 4, 6, TV_TEX_2D_ARRAY, TV_TEXTGT_2D_ARRAY},
};

static const hw_shape_info *hw_shape(char id)
{
    for (unsigned i = 0; i < sizeof hw_shapes / sizeof hw_shapes[0]; i++)
        if (hw_shapes[i].id == id)
            return &hw_shapes[i];
    return NULL;
}

static unsigned hw_lsize(unsigned n, unsigned level)
{
    return n >> level ? n >> level : 1;
}

/* the tool's put_texel: texel (x, y, z) of `level` as stored bytes; returns their count */
static unsigned hw_texel(char tex, char shape, unsigned L, unsigned x, unsigned y, unsigned z,
                         uint8_t *buf)
{
    unsigned yz = y + 64 * z; /* the row a slice, face or layer hashes as */
    if (tex == 'A' || tex == 'W' || tex == 'C') {
        float v[4] = {(float)x, (float)y, (float)L, hw_byte(L, x, yz, 3) / 256.0f};
        if (shape == '3') {
            v[2] = (float)z;
            v[3] = (float)L;
        }
        if (tex == 'W') /* nonzero only in channel 2·((L + z)&1) + (y&1): 1 at even x, 512 at odd */
            for (unsigned c = 0; c < 4; c++)
                v[c] = c == 2 * ((L + z) & 1) + (y & 1) ? ((x & 1) ? 512.0f : 1.0f) : 0.0f;
        if (tex == 'C')
            for (unsigned c = 0; c < 4; c++)
                v[c] = fx_f(hw_float_bits(L, x, yz, c));
        memcpy(buf, v, 16);
        return 16;
    }
    if (tex == 'H') {
        for (unsigned c = 0; c < 4; c++) {
            unsigned h = (unsigned)hw_byte(L, x, yz, c) << 8 | hw_byte(L + 8, yz, x, c);
            unsigned bits = (14u + ((h >> 15) & 1u)) << 10 | (h & 0x3ffu);
            buf[2 * c] = (uint8_t)bits;
            buf[2 * c + 1] = (uint8_t)(bits >> 8);
        }
        return 8;
    }
    unsigned n = tex == 'R' ? 1 : 4;
    for (unsigned c = 0; c < n; c++) /* T: byte (x + 64·y + c) mod 256, every byte once */
        buf[c] = tex == 'T' ? (uint8_t)(x + 64 * yz + c) : hw_byte(L, x, yz, c);
    return n;
}

typedef struct hw_lookup {
    int comp;
    uint32_t in[8]; /* s, t, r (or layer), lod, ds/dx, dt/dx, ds/dy, dt/dy (float bits) */
    uint32_t out[4];
} hw_lookup;

typedef struct hw_case {
    char name[64];
    char tex;   /* A ramp, W weights, C floats, H halves (RGBA32F/16F); B, S and T sRGB, R:
                 * 8-bit */
    char shape; /* 2 2D, 1 1D, 3 3D, C cube, L 2D layered */
    unsigned levels, normalized, max_aniso, kind;
    char filter[16], mip[16], wrap[16];
    uint32_t bias, min_clamp, max_clamp;
    unsigned first, count; /* lookups[first .. first+count) */
} hw_case;

typedef struct hw_capture {
    char gpu[160];
    hw_case cases[HW_MAX_CASES];
    unsigned ncases;
    hw_lookup *lookups;
    unsigned nlookups;
} hw_capture;

/* Parse the capture; any malformed line fails the test with its line number. */
static void hw_load(hw_capture *C, const char *path)
{
    size_t size;
    char *text = tc_slurp(path, &size);
    if (!text)
        fail_msg("%s: cannot read the capture", path);
    memset(C, 0, sizeof *C);
    C->lookups = calloc(HW_MAX_LOOKUPS, sizeof *C->lookups);
    assert_non_null(C->lookups);
    unsigned line = 0, end = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        line++;
        hw_case *cs = C->ncases ? &C->cases[C->ncases - 1] : NULL;
        if (p[0] == '#' || p[0] == 0) {
            /* comment */
        } else if (!strncmp(p, "gpu ", 4)) {
            snprintf(C->gpu, sizeof C->gpu, "%s", p + 4);
        } else if (!strncmp(p, "case ", 5)) {
            if (C->ncases == HW_MAX_CASES)
                fail_msg("%s:%u: too many cases", path, line);
            cs = &C->cases[C->ncases++];
            if (sscanf(p, "case %63s %c %c %u %15s %15s %15s %u %x %x %x %u %u", cs->name,
                       &cs->tex, &cs->shape, &cs->levels, cs->filter, cs->mip, cs->wrap,
                       &cs->normalized, &cs->bias, &cs->min_clamp, &cs->max_clamp,
                       &cs->max_aniso, &cs->kind) != 13 ||
                !cs->tex || !strchr("ABWCHSRT", cs->tex) || !cs->shape ||
                !strchr("213CL", cs->shape) || cs->levels < 1 ||
                cs->levels > hw_shape(cs->shape)->levels || cs->kind > K_GATHER)
                fail_msg("%s:%u: bad case line", path, line);
            cs->first = C->nlookups;
        } else if (!strncmp(p, "end ", 4)) {
            if (sscanf(p, "end %u", &end) != 1 || end != C->nlookups)
                fail_msg("%s:%u: the end line says %u lookups, %u read", path, line, end,
                         C->nlookups);
        } else {
            if (!cs || C->nlookups == HW_MAX_LOOKUPS)
                fail_msg("%s:%u: lookup outside a case, or too many", path, line);
            hw_lookup *L = &C->lookups[C->nlookups];
            if (sscanf(p, "%d %x %x %x %x %x %x %x %x : %x %x %x %x", &L->comp, &L->in[0],
                       &L->in[1], &L->in[2], &L->in[3], &L->in[4], &L->in[5], &L->in[6],
                       &L->in[7], &L->out[0], &L->out[1], &L->out[2], &L->out[3]) != 13 ||
                L->comp < 0 || L->comp > 3)
                fail_msg("%s:%u: bad lookup line", path, line);
            C->nlookups++;
            cs->count++;
        }
        p = nl ? nl + 1 : p + strlen(p);
    }
    if (!end)
        fail_msg("%s: no end line (a truncated capture)", path);
    free(text);
}

static unsigned wrap_of(const char *w)
{
    if (!strcmp(w, "wrap"))
        return TV_WRAP_REPEAT;
    if (!strcmp(w, "mirror"))
        return TV_WRAP_MIRROR;
    if (!strcmp(w, "border"))
        return TV_WRAP_BORDER;
    assert_string_equal(w, "clamp");
    return TV_WRAP_CLAMP_TO_EDGE;
}

/* The case's sampler (sampler 0): the fixed-point fields from the case's float bias and
 * clamps, as CUDA's driver sets them, and the border colour (all four channels b, or
 * 0.25, 0.5, 0.75, 1 when b < 0). */
static void hw_sampler(fx *F, const hw_case *cs, float b)
{
    unsigned filt = !strcmp(cs->filter, "linear") ? 2u : 1u; /* TV_MAG_/TV_MIN_ LINEAR or POINT */
    unsigned mip = !strcmp(cs->mip, "linear") ? TV_MIP_LINEAR
                   : !strcmp(cs->mip, "point") ? TV_MIP_POINT : TV_MIP_NONE;
    tv_tsc s;
    fx_tsc(&s, filt, filt, mip, wrap_of(cs->wrap));
    s.mip_lod_bias = tv_float_to_fixed_s5_8(fx_f(cs->bias));
    s.min_lod_clamp = tv_float_to_fixed_u4_8(fx_f(cs->min_clamp));
    s.max_lod_clamp = tv_float_to_fixed_u4_8(fx_f(cs->max_clamp));
    s.max_anisotropy = tv_tex_aniso_code(cs->max_aniso);
    float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    for (unsigned c = 0; c < 4; c++)
        s.border_color[c] = fx_u(b < 0.0f ? border[c] : b);
    tv_tsc_srgb_border(&s);
    fx_put_tsc(F, 0, &s);
}

/* A case whose name ends in "-sweep" has a sampler per lookup: border colour r. */
static bool hw_sweep(const hw_case *cs)
{
    size_t n = strlen(cs->name);
    return n > 6 && !strcmp(cs->name + n - 6, "-sweep");
}

/* The case's texture (header 0) and sampler (sampler 0). */
static void hw_setup(fx *F, const hw_case *cs)
{
    const char *fmt = cs->tex == 'H'   ? "R16G16B16A16_FLOAT"
                      : cs->tex == 'B' ? "R8G8B8A8_UNORM"
                      : cs->tex == 'S' || cs->tex == 'T' ? "R8G8B8A8_SRGB"
                      : cs->tex == 'R' ? "R8_UNORM"
                                       : "R32G32B32A32_FLOAT";
    const hw_shape_info *S = hw_shape(cs->shape);
    tv_tic t;
    fx_tic(&t, tv_format_from_name(fmt), S->type, S->w, S->h,
           cs->shape == '3' || cs->shape == 'L' ? S->d : 1, cs->levels);
    t.normalized_coords = cs->normalized != 0;
    if (cs->tex == 'R') /* CUDA's header for one channel: the others read 0, alpha too */
        t.source[3] = TV_TIC_SOURCE_ZERO;
    fx_put_tic(F, 0, &t);
    for (unsigned L = 0; L < cs->levels; L++) {
        unsigned nz = cs->shape == '3' ? hw_lsize(S->d, L) : S->d;
        for (unsigned z = 0; z < nz; z++)
            for (unsigned y = 0; y < hw_lsize(S->h, L); y++)
                for (unsigned x = 0; x < hw_lsize(S->w, L); x++) {
                    uint8_t buf[16];
                    unsigned n = hw_texel(cs->tex, cs->shape, L, x, y, z, buf);
                    uint64_t a = tv_tic_texel_address(&F->tic[0], L, x, y, z, 0);
                    assert_true(tv_memory_write(F->mem, a, buf, n));
                }
    }
    hw_sampler(F, cs, -1.0f);
}

/* Run lookups [i, i+n) of one case through texvm: lanes of one request share the kind
 * and (for gathers) the component. */
static void hw_replay(fx *F, const hw_case *cs, const hw_lookup *L, unsigned n, uint32_t out[][4])
{
    static const uint8_t op_of[4] = {TV_TEX_OP_SAMPLE_LOD, TV_TEX_OP_SAMPLE_LOD,
                                     TV_TEX_OP_SAMPLE_GRAD, TV_TEX_OP_GATHER};
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, op_of[cs->kind], hw_shape(cs->shape)->target, tv_tex_handle(0, 0),
           n == 32 ? ~0u : (1u << n) - 1);
    r.component = (uint8_t)L[0].comp;
    for (unsigned l = 0; l < n; l++) {
        r.coord[0][l] = fx_f(L[l].in[0]);
        r.coord[1][l] = fx_f(L[l].in[1]);
        if (cs->shape == 'L')
            r.coord[3][l] = fx_f(L[l].in[2]); /* the layer */
        else
            r.coord[2][l] = fx_f(L[l].in[2]);
        r.lod[l] = cs->kind == K_LOD ? fx_f(L[l].in[3]) : 0.0f; /* tex2D: TEX.LL, LOD 0 */
        r.ddx[0][l] = fx_f(L[l].in[4]);
        r.ddx[1][l] = fx_f(L[l].in[5]);
        r.ddy[0][l] = fx_f(L[l].in[6]);
        r.ddy[1][l] = fx_f(L[l].in[7]);
    }
    fx_run(F, &r, &res);
    for (unsigned l = 0; l < n; l++)
        for (unsigned c = 0; c < 4; c++)
            out[l][c] = res.v[c][l];
}

typedef struct hw_stats {
    unsigned exact;     /* lookups whose four words are equal */
    double max_err;     /* largest |texvm - GPU| of any component */
    double max_dlod;    /* texture A: largest |λ difference| where both are inside (0, 6) */
} hw_stats;

static hw_stats hw_run_case(const hw_capture *C, const hw_case *cs, FILE *diffs)
{
    fx F;
    fx_init(&F);
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    hw_setup(&F, cs);
    hw_stats st = {0, 0.0, 0.0};
    const hw_lookup *L = C->lookups + cs->first;
    for (unsigned i = 0; i < cs->count;) {
        unsigned n = 1;
        while (n < 32 && i + n < cs->count && L[i + n].comp == L[i].comp && !hw_sweep(cs))
            n++;
        if (hw_sweep(cs))
            hw_sampler(&F, cs, fx_f(L[i].in[2]));
        uint32_t got[32][4];
        hw_replay(&F, cs, L + i, n, got);
        for (unsigned l = 0; l < n; l++) {
            const hw_lookup *k = &L[i + l];
            bool same = !memcmp(got[l], k->out, sizeof got[l]);
            st.exact += same;
            for (unsigned c = 0; c < 4; c++) {
                double e = fabs((double)fx_f(got[l][c]) - (double)fx_f(k->out[c]));
                if (e > st.max_err || e != e)
                    st.max_err = e != e ? INFINITY : e;
            }
            float lg = fx_f(k->out[2]), lt = fx_f(got[l][2]);
            if (cs->tex == 'A' && cs->shape == '2' && lg > 0.0f && lg < 6.0f && lt > 0.0f && lt < 6.0f &&
                fabs((double)lg - lt) > st.max_dlod)
                st.max_dlod = fabs((double)lg - lt);
            if (!same && diffs)
                fprintf(diffs, "%s s=%.9g t=%.9g r=%.9g lod=%.9g d=(%g %g %g %g) c%d gpu=(%.9g %.9g %.9g %.9g) texvm=(%.9g %.9g %.9g %.9g)\n",
                        cs->name, fx_f(k->in[0]), fx_f(k->in[1]), fx_f(k->in[2]),
                        fx_f(k->in[3]), fx_f(k->in[4]), fx_f(k->in[5]), fx_f(k->in[6]),
                        fx_f(k->in[7]), k->comp,
                        fx_f(k->out[0]), fx_f(k->out[1]), fx_f(k->out[2]), fx_f(k->out[3]),
                        fx_f(got[l][0]), fx_f(got[l][1]), fx_f(got[l][2]), fx_f(got[l][3]));
        }
        i += n;
    }
    fx_free(&F);
    return st;
}

/* Cases without derivatives where texvm differs from the GPU, with what
 * docs/texture-unit-precision.md states: the lookups that must still match and the largest
 * difference of the others — filtered sRGB (not modelled) and one cube lookup whose face
 * coordinate falls on a rounding tie that the GPU's face arithmetic puts below. */
typedef struct hw_known {
    const char *name;
    unsigned min_exact;
    double bound;
} hw_known;

static const hw_known hw_known_cases[] = {
    {"srgb-linear", 44, 0.008},
    {"srgb-trilinear", 75, 0.008},
    {"cube-w-corner", 511, 2.0},
};

static const hw_known *hw_known_of(const char *name)
{
    for (unsigned i = 0; i < sizeof hw_known_cases / sizeof hw_known_cases[0]; i++)
        if (!strcmp(hw_known_cases[i].name, name))
            return &hw_known_cases[i];
    return NULL;
}

static void test_hw_capture(void **state)
{
    (void)state;
    static hw_capture C;
    /* TEXVM_HW_CAPTURE=path replays another capture (another GPU's: its counts are its
     * own); TEXVM_HW_DIFFS=path writes every differing lookup */
    const char *other = getenv("TEXVM_HW_CAPTURE");
    hw_load(&C, other ? other : TEXVM_SOURCE_DIR "/tests/tex/data/h100-tex-capture.txt");
    if (!other)
        assert_true(C.nlookups == 11901 && C.ncases == 51);
    const char *dpath = getenv("TEXVM_HW_DIFFS");
    FILE *diffs = dpath ? fopen(dpath, "w") : NULL;
    print_message("capture: %s, %u lookups in %u cases\n", C.gpu, C.nlookups, C.ncases);
    unsigned exact = 0, lookups = 0;
    uint64_t fast0 = tex_fast_hw_count();
    unsigned fast_shape = 0; /* lookups of the shape the hardware fast path takes */
    for (unsigned i = 0; i < C.ncases; i++) {
        const hw_case *cs = &C.cases[i];
        if (cs->tex == 'B' && cs->shape == '2' && !strcmp(cs->filter, "linear") &&
            strcmp(cs->wrap, "border") && cs->kind != K_GATHER)
            fast_shape += cs->count;
        hw_stats st = hw_run_case(&C, cs, diffs);
        print_message("%-22s %4u/%-4u bit-exact, max |diff| %-8.3g max |dλ| %.3g\n", cs->name,
                      st.exact, cs->count, st.max_err, st.max_dlod);
        const hw_known *kn = hw_known_of(cs->name);
        if (cs->kind == K_GRAD) {
            /* λ from derivatives: texvm's Euclidean log2 against the GPU's approximation,
             * docs/texture-unit-precision.md: within 0.1 for one derivative or a square
             * footprint, within 0.5 for two unrelated derivatives (texture A's blue
             * channel) */
            if (cs->tex == 'A' && cs->max_aniso == 1) {
                double bound = !strcmp(cs->name, "lod-twograd") ? 0.5 : 0.1;
                if (!(st.max_dlod <= bound))
                    fail_msg("%s: λ differs by %g (bound %g)", cs->name, st.max_dlod, bound);
            }
        } else if (kn) {
            /* the documented differences, no more */
            if (st.exact < kn->min_exact || !(st.max_err <= kn->bound))
                fail_msg("%s: %u bit-exact (at least %u due), differs by %g (bound %g)",
                         cs->name, st.exact, kn->min_exact, st.max_err, kn->bound);
        } else {
            /* the measured rules, bit for bit */
            if (st.exact != cs->count)
                fail_msg("%s: %u of %u lookups differ from the GPU", cs->name,
                         cs->count - st.exact, cs->count);
            exact += st.exact;
            lookups += cs->count;
        }
    }
    print_message("bit-exact: %u of %u lookups of the modelled cases\n", exact, lookups);
    /* the fast paths are on (the unit's default): every RGBA8 bilinear / trilinear lookup
     * without a border went through the hardware precision's fast path
     * (src/tex/fast/tex_fast_hw.c), and matched the GPU there */
    uint64_t fast = tex_fast_hw_count() - fast0;
    print_message("hardware fast path: %llu of the %u RGBA8 LINEAR lookups\n",
                  (unsigned long long)fast, fast_shape);
    if (!other) { /* all of them: a case left out would not count */
        assert_int_equal(exact, 9277);
        assert_true(fast == fast_shape);
    }
    if (diffs)
        fclose(diffs);
    free(C.lookups);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hw_capture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
