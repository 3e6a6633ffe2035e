/* Encoding round trip for every form and modifier combination: every instruction that
 * validates encodes, decodes back to itself, prints, and parses back to itself; every
 * single-bit change of a valid word either fails to decode or re-encodes to itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/sass.h"

static const uint8_t lods[] = {TV_SASS_LOD_NONE, TV_SASS_LOD_LZ, TV_SASS_LOD_LB,
                               TV_SASS_LOD_LL, TV_SASS_LOD_LBA, TV_SASS_LOD_LLA};
static const uint8_t queries[] = {0x01, 0x02, 0x05, 0x10, 0x12, 0x14, 0x16, 0x3f};
/* TEXS/TLDS masks: (Rd2 is RZ, mask) */
static const uint8_t masks_rz[] = {0x1, 0x2, 0x4, 0x8, 0x3, 0x9, 0xa, 0xc};
static const uint8_t masks_nrz[] = {0x7, 0xb, 0xd, 0xe, 0xf};

static unsigned counts[TV_SASS_OP_COUNT];
static unsigned total;

static void check_one(const tv_sass_insn *in)
{
    tv_error err;
    if (tv_sass_validate(in, &err) != TV_OK)
        return;
    uint64_t w;
    uint32_t ctrl;
    tv_status s = tv_sass_encode(in, &w, &ctrl, &err);
    if (s)
        fprintf(stderr, "encode: %s\n", err.message);
    assert_int_equal(s, TV_OK);
    tv_sass_insn d;
    s = tv_sass_decode(w, ctrl, &d, &err);
    if (s)
        fprintf(stderr, "decode 0x%016llx: %s\n", (unsigned long long)w, err.message);
    assert_int_equal(s, TV_OK);
    assert_memory_equal(&d, in, sizeof d);
    char buf[256];
    tv_sass_print(in, buf, sizeof buf);
    tv_sass_insn p;
    s = tv_sass_parse(buf, &p, &err);
    if (s || memcmp(&p, in, sizeof p))
        fprintf(stderr, "'%s': %s\n", buf, s ? err.message : "differs");
    assert_int_equal(s, TV_OK);
    assert_memory_equal(&p, in, sizeof p);
    counts[in->op]++;
    total++;
}

static void vary_masks(tv_sass_insn *in)
{
    if (in->op == TV_SASS_TEXS || in->op == TV_SASS_TLDS) {
        in->rd2 = TV_SASS_RZ;
        for (size_t i = 0; i < sizeof masks_rz; i++) {
            in->wmask = masks_rz[i];
            check_one(in);
        }
        in->rd2 = 8;
        for (size_t i = 0; i < sizeof masks_nrz; i++) {
            in->wmask = masks_nrz[i];
            check_one(in);
        }
        in->rd2 = TV_SASS_RZ;
    } else if (in->op == TV_SASS_TLD4S) {
        in->rd2 = 8;
        in->wmask = 0xf;
        check_one(in);
    } else {
        static const uint8_t m[] = {0xf, 0x5, 0x0};
        for (size_t i = 0; i < sizeof m; i++) {
            in->wmask = m[i];
            check_one(in);
        }
    }
}

static void test_every_combination(void **state)
{
    (void)state;
    for (unsigned op = 0; op < TV_SASS_OP_COUNT; op++) {
        for (unsigned bits = 0; bits < (1u << 10); bits++) {
            for (size_t li = 0; li < sizeof lods; li++) {
                for (unsigned type = 0; type < 8; type++) {
                    tv_sass_insn in;
                    tv_sass_insn_init(&in, (tv_sass_op)op);
                    in.bindless = bits & 1;
                    in.f16 = (bits >> 1) & 1;
                    in.lc = (bits >> 2) & 1;
                    in.aoffi = (bits >> 3) & 1;
                    in.ptp = (bits >> 4) & 1;
                    in.dc = (bits >> 5) & 1;
                    in.ms = (bits >> 6) & 1;
                    in.cl = (bits >> 7) & 1;
                    in.ndv = (bits >> 8) & 1;
                    in.nodep = (bits >> 9) & 1;
                    in.lod = lods[li];
                    in.type = (uint8_t)type;
                    if (op == TV_SASS_TXQ || op == TV_SASS_TLD4S) {
                        if (type)
                            continue;
                        in.type = op == TV_SASS_TLD4S ? TV_SASS_2D : 0;
                    }
                    in.rd = 4;
                    in.ra = 12;
                    in.rb = (op == TV_SASS_TXQ || (op == TV_SASS_TMML && !in.bindless))
                                ? TV_SASS_RZ : 20;
                    in.tid = in.bindless ? 0 : 0x1a5;
                    in.phase = (uint8_t)((bits + type) % 3);
                    in.pg = (uint8_t)(bits % 8);
                    in.pg_neg = (bits >> 3) & 1;
                    unsigned ncomp = op == TV_SASS_TLD4 || op == TV_SASS_TLD4S ? 4 : 1;
                    unsigned nq = op == TV_SASS_TXQ ? sizeof queries : 1;
                    for (unsigned c = 0; c < ncomp; c++) {
                        in.component = (uint8_t)c;
                        for (unsigned q = 0; q < nq; q++) {
                            in.query = op == TV_SASS_TXQ ? queries[q] : 0;
                            in.pd = TV_SASS_PT;
                            vary_masks(&in);
                            in.pd = 2;
                            vary_masks(&in);
                        }
                    }
                }
            }
        }
    }
    for (unsigned op = 0; op < TV_SASS_OP_COUNT; op++)
        assert_true(counts[op] > 0);
    fprintf(stderr, "round trip: %u instruction forms (TEX %u, TEXS %u, TLD %u, TLDS %u, "
            "TLD4 %u, TLD4S %u, TMML %u, TXQ %u, TXD %u)\n", total, counts[0], counts[1],
            counts[2], counts[3], counts[4], counts[5], counts[6], counts[7], counts[8]);
    /* every form of the encoding table is reached */
    assert_true(counts[TV_SASS_TLDS] >= 9 * 13 * 2);
}

/* Flip each bit of one valid word per form: a word that decodes re-encodes to itself. */
static void test_bit_flips(void **state)
{
    (void)state;
    static const char *const base[] = {
        "TEX.LL.DC.NDV R4, R8, R12, 0x1a5, 2D, 0x7",
        "TEX.B.LB.AOFFI R4, R8, R12, 0x0, ARRAY_2D, 0xf",
        "TEXS.LL.DC R8, R4, R2, R6, 0x50, 2D, RGB",
        "TEXS.F16.LZ RZ, R4, R2, R3, 0x50, 2D, GA",
        "TLDS.LL.AOFFI R8, R4, R2, R6, 0x50, 2D, RGBA",
        "TLDS.F16.LZ.MS RZ, R4, R2, R6, 0x50, 2D, B",
        "TLD.LZ.AOFFI.MS P1, R4, R8, R12, 0x33, 2D, 0xb",
        "TLD.B.LZ R4, R8, R12, 0x0, 3D, 0x3",
        "TLD4.B.PTP.DC R4, R8, R12, 0x77, ARRAY_2D, 0xf",
        "TLD4.A.B.AOFFI R4, R8, R12, 0x0, 2D, 0xf",
        "TLD4S.G.AOFFI.DC R8, R4, R2, R6, 0x12",
        "TLD4S.F16.R R8, R4, R2, R3, 0x12",
        "TMML.LOD.NDV R4, R8, 0x12, CUBE, 0xf",
        "TMML.B.LOD R4, R8, R12, 0x0, ARRAY_CUBE, 0x3",
        "TXQ R4, R8, TEX_HEADER_SAMPLER_POS, 0x12, 0x1",
        "TXQ.B R4, R8, TEX_HEADER_DIMENSION, 0x0, 0xf",
        "TXD.AOFFI R4, R8, R12, 0x12, ARRAY_2D, 0xf",
        "TXD.B R4, R8, R12, 0x0, 1D, 0xf",
    };
    unsigned decoded = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
        tv_sass_insn in;
        tv_error err;
        tv_status s = tv_sass_parse(base[i], &in, &err);
        if (s)
            fprintf(stderr, "%s: %s\n", base[i], err.message);
        assert_int_equal(s, TV_OK);
        uint64_t w;
        assert_int_equal(tv_sass_encode(&in, &w, NULL, &err), TV_OK);
        for (unsigned b = 0; b < 64; b++) {
            uint64_t f = w ^ (1ull << b);
            tv_sass_insn d;
            if (tv_sass_decode(f, 0, &d, &err) != TV_OK)
                continue;
            uint64_t w2;
            assert_int_equal(tv_sass_encode(&d, &w2, NULL, &err), TV_OK);
            assert_int_equal(w2, f);
            decoded++;
        }
    }
    assert_true(decoded > 18 * 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_combination),
        cmocka_unit_test(test_bit_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
