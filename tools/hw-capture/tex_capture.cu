// tex_capture: samples textures on a real NVIDIA GPU through CUDA's texture objects and
// writes every lookup (inputs and the four result words) to a text capture, which
// tests/tex/test_hw_capture.c replays through texvm's texture unit in hardware precision
// (docs/texture-unit-precision.md, "Checked against a GPU"). Built and run only on a
// machine with a GPU and CUDA (scripts/hw-capture.sh); not part of the CMake build.
//
// The textures are defined by formulas the replay repeats (put_texel below and the test's
// hw_texel): texture A is RGBA32F with R = x, G = y, B = level, so a filtered R, G and B
// give the unit's horizontal weight, vertical weight and mip fraction directly (every sum
// of the filter is exact in float32 when the weights are multiples of 1/256); A's alpha
// and all of texture B (RGBA8 UNORM) are hashed bytes. Texture W (RGBA32F) gives each of
// the eight trilinear weights: its texel (x, y, z) of level L is nonzero only in channel
// 2·((L + z)&1) + (y&1), where it is 1 for even x and 512 for odd x, so a channel's result
// is w_even + 512·w_odd of one (level or slice, row) class. Texture C (RGBA32F) holds
// floats with full mantissas in [0.5, 4), H (RGBA16F) halves in [0.5, 2), S (RGBA8 sRGB)
// and R (R8 UNORM) hashed bytes; T (RGBA8 sRGB) holds byte (x + 64·y + c) mod 256 in
// channel c, so point samples at 256 texel centres read the sRGB decode of every byte.
// Shapes: 2D 64x64 (7 levels), 1D 64 (7), 3D 16^3 (5; A's B is z and its alpha the level),
// cube 16x16 (5; seamless), 2D layered 32x32x4 (6); a row y of slice, face or layer z
// hashes as row y + 64·z. A case whose name ends in "-sweep" makes a texture object per
// lookup, its border colour the lookup's r.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                               \
    do {                                                                                    \
        cudaError_t e_ = (x);                                                               \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,                      \
                    cudaGetErrorString(e_));                                                \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

// Level-0 size and level count of each shape ('2' 2D, '1' 1D, '3' 3D, 'C' cube, 'L' 2D
// layered); z is the depth, the faces or the layers.
struct Shape {
    char id;
    unsigned w, h, d, levels;
};
static const Shape shapes[] = {
    {'2', 64, 64, 1, 7}, {'1', 64, 1, 1, 7}, {'3', 16, 16, 16, 5}, {'C', 16, 16, 6, 5}, {'L', 32, 32, 4, 6},
};
static const Shape &shape_of(char id)
{
    for (const Shape &s : shapes)
        if (s.id == id)
            return s;
    fprintf(stderr, "unknown shape %c\n", id);
    exit(1);
}

// The hashed byte of texel (x, y) of `level`, component c (texture B, A's alpha).
static uint8_t tc_byte(unsigned level, unsigned x, unsigned y, unsigned c)
{
    uint32_t h = level * 0x9E3779B1u ^ x * 0x85EBCA77u ^ y * 0xC2B2AE3Du ^ c * 0x27D4EB2Fu;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (uint8_t)(h >> 4);
}

// Texture C's float bits for texel (x, y) of `level`, component c.
static uint32_t tc_float_bits(unsigned level, unsigned x, unsigned y, unsigned c)
{
    uint32_t h = (uint32_t)tc_byte(level, x, y, c) << 24 | (uint32_t)tc_byte(level, y, x, c + 4) << 16 |
                 (uint32_t)tc_byte(level + 8, x, y, c) << 8 | tc_byte(level + 8, y, x, c + 4);
    return (126u + (h >> 30)) << 23 | (h & 0x7fffffu);
}

// Lookup kinds: the CUDA call each lane makes.
enum { K_TEX2D = 0, K_LOD = 1, K_GRAD = 2, K_GATHER = 3 };

struct Lookup {
    int kind, comp, shape;
    float s, t, r, lod, dxs, dxt, dys, dyt; // r: 3D r, a cube direction's z, or the layer
};

__global__ void k_run(cudaTextureObject_t tex, const Lookup *in, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Lookup L = in[i];
    float4 v = make_float4(0, 0, 0, 0);
    if (L.shape == '1') {
        v = L.kind == K_LOD ? tex1DLod<float4>(tex, L.s, L.lod) : tex1D<float4>(tex, L.s);
        out[i] = v;
        return;
    }
    if (L.shape == '3') {
        v = L.kind == K_LOD ? tex3DLod<float4>(tex, L.s, L.t, L.r, L.lod) : tex3D<float4>(tex, L.s, L.t, L.r);
        out[i] = v;
        return;
    }
    if (L.shape == 'C') {
        v = L.kind == K_LOD ? texCubemapLod<float4>(tex, L.s, L.t, L.r, L.lod)
                            : texCubemap<float4>(tex, L.s, L.t, L.r);
        out[i] = v;
        return;
    }
    if (L.shape == 'L') {
        v = L.kind == K_LOD ? tex2DLayeredLod<float4>(tex, L.s, L.t, (int)L.r, L.lod)
                            : tex2DLayered<float4>(tex, L.s, L.t, (int)L.r);
        out[i] = v;
        return;
    }
    switch (L.kind) {
    case K_TEX2D: v = tex2D<float4>(tex, L.s, L.t); break;
    case K_LOD: v = tex2DLod<float4>(tex, L.s, L.t, L.lod); break;
    case K_GRAD:
        v = tex2DGrad<float4>(tex, L.s, L.t, make_float2(L.dxs, L.dxt), make_float2(L.dys, L.dyt));
        break;
    case K_GATHER:
        switch (L.comp) {
        case 0: v = tex2Dgather<float4>(tex, L.s, L.t, 0); break;
        case 1: v = tex2Dgather<float4>(tex, L.s, L.t, 1); break;
        case 2: v = tex2Dgather<float4>(tex, L.s, L.t, 2); break;
        default: v = tex2Dgather<float4>(tex, L.s, L.t, 3); break;
        }
        break;
    }
    out[i] = v;
}

// A deterministic generator (xorshift32) for the coordinates.
static uint32_t rng = 0x12345678u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static float frand(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() >> 8) * (1.0f / 16777216.0f); }

// One case: a texture, a sampler and a set of lookups.
struct Case {
    const char *name;
    char tex;          // 'A' ramp, 'B' RGBA8, 'W' weights, 'C' floats, 'H' halves, 'S' sRGB, 'R' R8,
                       // 'T' sRGB bytes in order
    char shape;        // '2' 2D, '1' 1D, '3' 3D, 'C' cube, 'L' 2D layered
    int mipmapped;     // 1: the shape's levels (mipmapped array), 0: level 0 only
    const char *filter;// "point" | "linear"
    const char *mip;   // "none" | "point" | "linear"
    const char *wrap;  // "clamp" | "wrap" | "mirror" | "border"
    int normalized;
    float bias, min_clamp, max_clamp;
    int max_aniso;
    int count;
    int kind;
    const char *gen;   // coordinate generator, see make_lookups
};

static const Case cases[] = {
    {"point-tex2d", 'A', '2', 0, "point", "none", "clamp", 1, 0, 0, 0, 1, 192, K_TEX2D, "wide"},
    {"point-ties", 'A', '2', 0, "point", "none", "clamp", 1, 0, 0, 0, 1, 192, K_TEX2D, "ties"},
    {"linear-tex2d", 'A', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 192, K_TEX2D, "wide"},
    {"linear-ties", 'A', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 256, K_TEX2D, "ties"},
    {"linear-wrap", 'A', '2', 0, "linear", "none", "wrap", 1, 0, 0, 0, 1, 128, K_TEX2D, "wide"},
    {"linear-mirror", 'A', '2', 0, "linear", "none", "mirror", 1, 0, 0, 0, 1, 128, K_TEX2D, "wide"},
    {"linear-border", 'A', '2', 0, "linear", "none", "border", 1, 0, 0, 0, 1, 128, K_TEX2D, "wide"},
    {"linear-unnormalized", 'A', '2', 0, "linear", "none", "clamp", 0, 0, 0, 0, 1, 128, K_TEX2D, "texels"},
    {"gather", 'A', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 128, K_GATHER, "wide"},
    {"trilinear-lod", 'A', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod"},
    {"trilinear-lod-ties", 'A', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lodties"},
    {"mippoint-lod", 'A', '2', 1, "linear", "point", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod"},
    {"trilinear-bias-clamp", 'A', '2', 1, "linear", "linear", "clamp", 1, 0.3125f, 0.75f, 4.25f, 1, 160, K_LOD, "lod"},
    {"trilinear-grad", 'A', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 256, K_GRAD, "isograd"},
    {"trilinear-grad-bias", 'A', '2', 1, "linear", "linear", "clamp", 1, -0.5f, 0, 16, 1, 128, K_GRAD, "isograd"},
    {"aniso16-grad", 'A', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 16, 192, K_GRAD, "anisograd"},
    {"unorm8-point", 'B', '2', 0, "point", "none", "clamp", 1, 0, 0, 0, 1, 96, K_TEX2D, "wide"},
    {"unorm8-linear", 'B', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 192, K_TEX2D, "wide"},
    {"unorm8-trilinear-lod", 'B', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 160, K_LOD, "lod"},
    {"w-bilinear", 'W', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 384, K_TEX2D, "inner"},
    {"w-trilinear", 'W', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 1024, K_LOD, "lod6"},
    {"w-grad-iso", 'W', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_GRAD, "isograd"},
    {"w-aniso4", 'W', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 4, 192, K_GRAD, "anisograd"},
    {"lod-xgrad", 'A', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 384, K_GRAD, "xgrad"},
    {"lod-ygrad", 'A', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 128, K_GRAD, "ygrad"},
    {"lod-twograd", 'A', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 256, K_GRAD, "twograd"},
    {"point-nearint", 'A', '2', 0, "point", "none", "clamp", 1, 0, 0, 0, 1, 256, K_TEX2D, "nearint"},
    {"float-linear", 'C', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 256, K_TEX2D, "wide"},
    {"float-trilinear", 'C', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 256, K_LOD, "lod6"},
    {"1d-linear", 'A', '1', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 128, K_TEX2D, "wide"},
    {"1d-trilinear", 'A', '1', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod6"},
    {"1d-w-trilinear", 'W', '1', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod6"},
    {"3d-w-linear", 'W', '3', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 256, K_TEX2D, "inner3"},
    {"3d-trilinear", 'A', '3', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod3"},
    {"3d-float-trilinear", 'C', '3', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod3"},
    {"cube-trilinear", 'A', 'C', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 256, K_LOD, "cube"},
    {"cube-float-trilinear", 'C', 'C', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "cube"},
    {"layered-trilinear", 'C', 'L', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "layer"},
    {"half-linear", 'H', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 192, K_TEX2D, "wide"},
    {"half-trilinear", 'H', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod"},
    {"srgb-point", 'S', '2', 0, "point", "none", "clamp", 1, 0, 0, 0, 1, 96, K_TEX2D, "wide"},
    {"srgb-linear", 'S', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 192, K_TEX2D, "wide"},
    {"r8-linear", 'R', '2', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 192, K_TEX2D, "wide"},
    {"r8-trilinear", 'R', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 160, K_LOD, "lod"},
    {"unorm8-border", 'B', '2', 0, "linear", "none", "border", 1, 0, 0, 0, 1, 128, K_TEX2D, "wide"},
    {"unorm8-mirror-trilinear", 'B', '2', 1, "linear", "linear", "mirror", 1, 0, 0, 16, 1, 160, K_LOD, "lod"},
    {"srgb-decode", 'T', '2', 0, "point", "none", "clamp", 1, 0, 0, 0, 1, 256, K_TEX2D, "centres"},
    {"srgb-trilinear", 'S', '2', 1, "linear", "linear", "clamp", 1, 0, 0, 16, 1, 192, K_LOD, "lod"},
    // one sampler per lookup: border colour r (all four channels) on a lookup wholly outside
    {"unorm8-border-sweep", 'B', '2', 0, "linear", "none", "border", 1, 0, 0, 0, 1, 1021, K_TEX2D, "bordersweep"},
    {"cube-w-corner", 'W', 'C', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 512, K_TEX2D, "cubecorner"},
    {"cube-float-corner", 'C', 'C', 0, "linear", "none", "clamp", 1, 0, 0, 0, 1, 256, K_TEX2D, "cubecorner"},
};

static void make_lookups(const Case &c, std::vector<Lookup> &v)
{
    for (int i = 0; i < c.count; i++) {
        Lookup L;
        memset(&L, 0, sizeof L);
        L.kind = c.kind;
        L.shape = c.shape;
        L.comp = c.kind == K_GATHER ? i % 4 : 0;
        if (!strcmp(c.gen, "wide") || !strcmp(c.gen, "lod") || !strcmp(c.gen, "isograd") ||
            !strcmp(c.gen, "anisograd")) {
            L.s = frand(-0.25f, 1.25f);
            L.t = frand(-0.25f, 1.25f);
        } else if (!strcmp(c.gen, "inner") || !strcmp(c.gen, "lod6") || !strcmp(c.gen, "xgrad") ||
                   !strcmp(c.gen, "ygrad") || !strcmp(c.gen, "twograd")) {
            L.s = frand(0.05f, 0.95f);
            L.t = frand(0.05f, 0.95f);
        } else if (!strcmp(c.gen, "nearint")) {
            // just beside a texel edge: u = k ± 2^-j, j in [9, 22]
            int k = (int)(rnd() % 62) + 1, j = 9 + (int)(rnd() % 14);
            float d = ldexpf(1.0f, -j);
            L.s = ((float)k + ((rnd() & 1) ? d : -d)) / 64.0f;
            int kt = (int)(rnd() % 62) + 1, jt = 9 + (int)(rnd() % 14);
            float dt = ldexpf(1.0f, -jt);
            L.t = ((float)kt + ((rnd() & 1) ? dt : -dt)) / 64.0f;
        } else if (!strcmp(c.gen, "texels")) {
            L.s = frand(-4.0f, 68.0f);
            L.t = frand(-4.0f, 68.0f);
        } else if (!strcmp(c.gen, "ties") || !strcmp(c.gen, "lodties")) {
            // texel-space coordinates halfway between two multiples of 1/256 (and a few
            // just beside), exact in float32: u = k + m/512, s = u/64
            int k = (int)(rnd() % 62) + 1, m = (int)(rnd() % 512) | 1;
            int near = (int)(rnd() % 8);
            if (i % 4 == 0)
                m = 511; // rounds up to the next integer under round-to-nearest
            else if (i % 4 == 1)
                m = 1;   // rounds down to the integer
            float u = (float)k + (float)m / 512.0f;
            if (near == 0)
                u = nextafterf(u, 1e9f);
            else if (near == 1)
                u = nextafterf(u, -1e9f);
            L.s = u / 64.0f;
            int kt = (int)(rnd() % 62) + 1, mt = (int)(rnd() % 512) | 1;
            L.t = ((float)kt + (float)mt / 512.0f) / 64.0f;
        }
        if (!strcmp(c.gen, "lod"))
            L.lod = frand(-1.5f, 7.5f);
        if (!strcmp(c.gen, "lod6"))
            L.lod = frand(0.0f, 5.999f);
        if (!strcmp(c.gen, "xgrad") || !strcmp(c.gen, "ygrad")) {
            // one derivative at an angle swept over the quarter turn, the other zero
            float e = frand(0.25f, 5.5f), a = 1.5707964f * (float)i / (float)c.count;
            float len = exp2f(e) / 64.0f;
            float *d = !strcmp(c.gen, "xgrad") ? &L.dxs : &L.dys;
            d[0] = len * cosf(a);
            d[1] = len * sinf(a);
        }
        if (!strcmp(c.gen, "twograd")) {
            float e1 = frand(0.25f, 5.5f), a1 = frand(0.0f, 6.2831853f);
            float e2 = frand(0.25f, 5.5f), a2 = frand(0.0f, 6.2831853f);
            L.dxs = exp2f(e1) / 64.0f * cosf(a1);
            L.dxt = exp2f(e1) / 64.0f * sinf(a1);
            L.dys = exp2f(e2) / 64.0f * cosf(a2);
            L.dyt = exp2f(e2) / 64.0f * sinf(a2);
        }
        if (!strcmp(c.gen, "inner3") || !strcmp(c.gen, "lod3")) {
            float lo = c.gen[0] == 'i' ? 0.05f : -0.1f, hi = c.gen[0] == 'i' ? 0.95f : 1.1f;
            L.s = frand(lo, hi);
            L.t = frand(lo, hi);
            L.r = frand(lo, hi);
            if (c.gen[0] == 'l')
                L.lod = frand(0.0f, 3.999f);
        }
        if (!strcmp(c.gen, "cubecorner")) {
            // a footprint over two edges of a 16x16 face: both face coordinates within half
            // a texel of ±1
            float a = (rnd() & 1 ? 1.0f : -1.0f) * (1.0f - frand(0.0f, 0.0625f));
            float b = (rnd() & 1 ? 1.0f : -1.0f) * (1.0f - frand(0.0f, 0.0625f));
            unsigned face = rnd() % 6;
            float d[3];
            d[face / 2] = (face & 1) ? -1.0f : 1.0f;
            d[(face / 2 + 1) % 3] = a;
            d[(face / 2 + 2) % 3] = b;
            L.s = d[0];
            L.t = d[1];
            L.r = d[2];
        }
        if (!strcmp(c.gen, "cube")) {
            // a direction on a random face; half the face coordinates within 1/8 of an edge
            // (seamless edges and corners), scaled by [0.5, 2]
            float a = frand(-1.0f, 1.0f), b = frand(-1.0f, 1.0f);
            if (rnd() & 1)
                a = (a < 0 ? -1.0f : 1.0f) * (1.0f - frand(0.0f, 0.125f));
            if (rnd() & 1)
                b = (b < 0 ? -1.0f : 1.0f) * (1.0f - frand(0.0f, 0.125f));
            unsigned face = rnd() % 6;
            float m = (face & 1) ? -1.0f : 1.0f, k = frand(0.5f, 2.0f);
            float d[3];
            d[face / 2] = m;
            d[(face / 2 + 1) % 3] = a;
            d[(face / 2 + 2) % 3] = b;
            L.s = d[0] * k;
            L.t = d[1] * k;
            L.r = d[2] * k;
            L.lod = frand(0.0f, 3.999f);
        }
        if (!strcmp(c.gen, "centres")) {
            L.s = ((float)(i % 64) + 0.5f) / 64.0f;
            L.t = ((float)(i / 64) + 0.5f) / 64.0f;
        }
        if (!strcmp(c.gen, "bordersweep")) {
            L.s = -0.5f;
            L.t = -0.5f;
            L.r = (float)i / 1020.0f; // every byte value and its quarters: 255·r = i/4
        }
        if (!strcmp(c.gen, "layer")) {
            L.s = frand(-0.1f, 1.1f);
            L.t = frand(-0.1f, 1.1f);
            L.r = (float)(rnd() % 4);
            L.lod = frand(0.0f, 4.999f);
        }
        if (!strcmp(c.gen, "lodties")) {
            // λ halfway between multiples of 1/256 (ties of the 1/256 rounding) and at
            // level centres ±1/512 (mip point selection)
            int m = (int)(rnd() % (6 * 512)) | 1;
            L.lod = (float)m / 512.0f;
            if (i % 3 == 2)
                L.lod = (float)(m % 6) + 0.5f + ((i & 4) ? 1.0f / 1024 : -1.0f / 1024);
        }
        if (!strcmp(c.gen, "isograd")) {
            // isotropic: a rotated square footprint of side 2^e texels, e in [-2, 7]
            float e = frand(-2.0f, 7.0f), a = frand(0.0f, 6.2831853f);
            float len = exp2f(e) / 64.0f;
            L.dxs = len * cosf(a);
            L.dxt = len * sinf(a);
            L.dys = -L.dxt;
            L.dyt = L.dxs;
        }
        if (!strcmp(c.gen, "anisograd")) {
            float e = frand(-1.0f, 5.0f), r = frand(0.0f, 5.0f), a = frand(0.0f, 6.2831853f);
            float big = exp2f(e) / 64.0f, small = exp2f(e - r) / 64.0f;
            L.dxs = big * cosf(a);
            L.dxt = big * sinf(a);
            L.dys = -small * sinf(a);
            L.dyt = small * cosf(a);
        }
        v.push_back(L);
    }
}

static cudaTextureAddressMode wrap_mode(const char *w)
{
    if (!strcmp(w, "wrap")) return cudaAddressModeWrap;
    if (!strcmp(w, "mirror")) return cudaAddressModeMirror;
    if (!strcmp(w, "border")) return cudaAddressModeBorder;
    return cudaAddressModeClamp;
}

// Bytes per texel of each texture.
static unsigned texel_bytes(char tex)
{
    return tex == 'B' || tex == 'S' || tex == 'T' ? 4 : tex == 'R' ? 1 : tex == 'H' ? 8 : 16;
}

// Texel (x, y, z) of `level` of texture `tex` on shape `shape`, appended to d.
static void put_texel(std::vector<uint8_t> &d, char tex, char shape, unsigned level, unsigned x,
                      unsigned y, unsigned z)
{
    unsigned yz = y + 64 * z; // the row a slice, face or layer hashes as
    if (tex == 'A' || tex == 'W' || tex == 'C') {
        float f[4] = {(float)x, (float)y, (float)level, tc_byte(level, x, yz, 3) / 256.0f};
        if (shape == '3') {
            f[2] = (float)z;
            f[3] = (float)level;
        }
        if (tex == 'W')
            for (unsigned c = 0; c < 4; c++)
                f[c] = c == 2 * ((level + z) & 1) + (y & 1) ? ((x & 1) ? 512.0f : 1.0f) : 0.0f;
        if (tex == 'C')
            for (unsigned c = 0; c < 4; c++) {
                uint32_t b = tc_float_bits(level, x, yz, c);
                memcpy(&f[c], &b, 4);
            }
        const uint8_t *p = (const uint8_t *)f;
        d.insert(d.end(), p, p + 16);
    } else if (tex == 'H') {
        for (unsigned c = 0; c < 4; c++) {
            unsigned h = (unsigned)tc_byte(level, x, yz, c) << 8 | tc_byte(level + 8, yz, x, c);
            uint16_t bits = (uint16_t)((14u + ((h >> 15) & 1u)) << 10 | (h & 0x3ffu));
            d.push_back((uint8_t)bits);
            d.push_back((uint8_t)(bits >> 8));
        }
    } else if (tex == 'T') {
        for (unsigned c = 0; c < 4; c++)
            d.push_back((uint8_t)(x + 64 * yz + c));
    } else {
        for (unsigned c = 0; c < (tex == 'R' ? 1u : 4u); c++)
            d.push_back(tc_byte(level, x, yz, c));
    }
}

static unsigned lsize(unsigned n, unsigned level)
{
    return n >> level ? n >> level : 1;
}

// Level `level` of a case's texture: x fastest, then y, then z.
static std::vector<uint8_t> level_data(const Case &c, unsigned level, unsigned *nx, unsigned *ny,
                                       unsigned *nz)
{
    const Shape &S = shape_of(c.shape);
    *nx = lsize(S.w, level);
    *ny = lsize(S.h, level);
    *nz = c.shape == '3' ? lsize(S.d, level) : S.d;
    std::vector<uint8_t> d;
    for (unsigned z = 0; z < *nz; z++)
        for (unsigned y = 0; y < *ny; y++)
            for (unsigned x = 0; x < *nx; x++)
                put_texel(d, c.tex, c.shape, level, x, y, z);
    return d;
}

static cudaChannelFormatDesc format_of(char tex)
{
    if (tex == 'B' || tex == 'S' || tex == 'T')
        return cudaCreateChannelDesc<uchar4>();
    if (tex == 'R')
        return cudaCreateChannelDesc<unsigned char>();
    if (tex == 'H')
        return cudaCreateChannelDescHalf4();
    return cudaCreateChannelDesc<float4>();
}

static void copy_level(cudaArray_t a, const Case &c, unsigned level)
{
    unsigned nx, ny, nz;
    std::vector<uint8_t> d = level_data(c, level, &nx, &ny, &nz);
    unsigned bpp = texel_bytes(c.tex);
    cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    m.srcPtr = make_cudaPitchedPtr(d.data(), nx * bpp, nx, ny);
    m.dstArray = a;
    m.extent = make_cudaExtent(nx, ny, nz);
    m.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&m));
}

static cudaTextureObject_t make_texture(const Case &c, cudaArray_t *arr, cudaMipmappedArray_t *mip,
                                        float border)
{
    cudaChannelFormatDesc fmt = format_of(c.tex);
    const Shape &S = shape_of(c.shape);
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    *arr = 0;
    *mip = 0;
    if (c.shape == '2' && !c.mipmapped) {
        unsigned nx, ny, nz;
        std::vector<uint8_t> d = level_data(c, 0, &nx, &ny, &nz);
        unsigned bpp = texel_bytes(c.tex);
        CK(cudaMallocArray(arr, &fmt, nx, ny, c.kind == K_GATHER ? cudaArrayTextureGather : 0));
        CK(cudaMemcpy2DToArray(*arr, 0, 0, d.data(), nx * bpp, nx * bpp, ny, cudaMemcpyHostToDevice));
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = *arr;
    } else {
        unsigned levels = c.mipmapped ? S.levels : 1;
        cudaExtent e = make_cudaExtent(S.w, c.shape == '1' ? 0 : S.h, c.shape == '2' || c.shape == '1' ? 0 : S.d);
        unsigned flags = c.shape == 'C' ? cudaArrayCubemap : c.shape == 'L' ? cudaArrayLayered : 0;
        CK(cudaMallocMipmappedArray(mip, &fmt, e, levels, flags));
        for (unsigned l = 0; l < levels; l++) {
            cudaArray_t la;
            CK(cudaGetMipmappedArrayLevel(&la, *mip, l));
            copy_level(la, c, l);
        }
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = *mip;
    }
    bool norm = c.tex == 'B' || c.tex == 'S' || c.tex == 'R' || c.tex == 'T';
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = wrap_mode(c.wrap);
    td.filterMode = !strcmp(c.filter, "linear") ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = norm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.sRGB = c.tex == 'S' || c.tex == 'T';
    td.normalizedCoords = c.normalized;
    td.borderColor[0] = border < 0 ? 0.25f : border;
    td.borderColor[1] = border < 0 ? 0.5f : border;
    td.borderColor[2] = border < 0 ? 0.75f : border;
    td.borderColor[3] = border < 0 ? 1.0f : border;
    td.maxAnisotropy = (unsigned)c.max_aniso;
    td.mipmapFilterMode = !strcmp(c.mip, "linear") ? cudaFilterModeLinear : cudaFilterModePoint;
    td.mipmapLevelBias = c.bias;
    td.minMipmapLevelClamp = c.min_clamp;
    td.maxMipmapLevelClamp = c.max_clamp;
    td.disableTrilinearOptimization = 1;
    td.seamlessCubemap = c.shape == 'C';
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "capture.txt";
    cudaDeviceProp p;
    int dev = 0, drv = 0, rt = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&p, dev));
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "# texvm texture capture v2: tools/hw-capture/tex_capture.cu\n");
    fprintf(f, "gpu %s sm_%d%d driver %d runtime %d\n", p.name, p.major, p.minor, drv, rt);
    unsigned total = 0;
    for (const Case &c : cases) {
        std::vector<Lookup> in;
        make_lookups(c, in);
        cudaArray_t arr;
        cudaMipmappedArray_t mip;
        cudaTextureObject_t tex = make_texture(c, &arr, &mip, -1.0f);
        Lookup *din;
        float4 *dout;
        CK(cudaMalloc(&din, in.size() * sizeof(Lookup)));
        CK(cudaMalloc(&dout, in.size() * sizeof(float4)));
        CK(cudaMemcpy(din, in.data(), in.size() * sizeof(Lookup), cudaMemcpyHostToDevice));
        if (!strcmp(c.gen, "bordersweep")) {
            // a texture object per lookup, its border colour the lookup's r
            for (size_t i = 0; i < in.size(); i++) {
                cudaArray_t a2;
                cudaMipmappedArray_t m2;
                cudaTextureObject_t t2 = make_texture(c, &a2, &m2, in[i].r);
                k_run<<<1, 1>>>(t2, din + i, dout + i, 1);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                CK(cudaDestroyTextureObject(t2));
                if (a2)
                    CK(cudaFreeArray(a2));
                if (m2)
                    CK(cudaFreeMipmappedArray(m2));
            }
        } else {
            k_run<<<(unsigned)(in.size() + 63) / 64, 64>>>(tex, din, dout, (int)in.size());
            CK(cudaGetLastError());
        }
        std::vector<float4> out(in.size());
        CK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
        // case line: name texture shape levels filter mip wrap normalized bias min max
        // aniso kind; a lookup: component s t r lod ds/dx dt/dx ds/dy dt/dy : 4 results (the
        // floats' bits in hexadecimal)
        fprintf(f, "case %s %c %c %u %s %s %s %d %x %x %x %d %d\n", c.name, c.tex,
                c.shape, c.mipmapped ? shape_of(c.shape).levels : 1u, c.filter, c.mip, c.wrap,
                c.normalized, bits(c.bias), bits(c.min_clamp), bits(c.max_clamp), c.max_aniso,
                c.kind);
        for (size_t i = 0; i < in.size(); i++) {
            const Lookup &L = in[i];
            fprintf(f, "%d %x %x %x %x %x %x %x %x : %x %x %x %x\n",
                    L.comp, bits(L.s), bits(L.t), bits(L.r), bits(L.lod), bits(L.dxs),
                    bits(L.dxt), bits(L.dys), bits(L.dyt), bits(out[i].x), bits(out[i].y),
                    bits(out[i].z), bits(out[i].w));
        }
        total += (unsigned)in.size();
        CK(cudaDestroyTextureObject(tex));
        CK(cudaFree(din));
        CK(cudaFree(dout));
        if (arr)
            CK(cudaFreeArray(arr));
        if (mip)
            CK(cudaFreeMipmappedArray(mip));
    }
    fprintf(f, "end %u\n", total);
    fclose(f);
    printf("%s: %u lookups, %s sm_%d%d\n", path, total, p.name, p.major, p.minor);
    return 0;
}
