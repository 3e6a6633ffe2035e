/* texvm sass SCRIPT: the script commands of docs/sass.md, the printed writes, faults and
 * exit codes. Expected values follow from fill=coords (R = x, G = y, B = z/layer,
 * A = level + 10 * sample) and the page tables, by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

static char out[65536];

static int run_script(const char *script)
{
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        bin = TEXVM_BINARY_DIR "/texvm";
    char path[] = "/tmp/texvm_sass_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(script, f);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' sass %s 2>&1", bin, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    remove(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void has(const char *s)
{
    if (!strstr(out, s))
        fprintf(stderr, "missing '%s' in:\n%s\n", s, out);
    assert_non_null(strstr(out, s));
}

static void test_examples(void **state)
{
    (void)state;
    int rc = run_script(
        "# the page examples\n"
        "texture 1 R32G32B32A32_FLOAT 2D 8 8 levels=3 fill=coords\n"
        "sampler 0\n"
        "bind 7 1 0\n"
        "reg R9 3\n"
        "reg R11 5\n"
        "TLDS.LZ      R0, R4, R9, R11, 0x7, 2D, RGBA; // reads R9 & R11; writes R0, R1, R4, & R5\n"
        "texture 2 R8G8B8A8_UNORM 2D 64 64 levels=7\n"
        "bind 0 2\n"
        "reg R6 1\n"
        "TXQ  R0, R6, TEX_HEADER_DIMENSION, 0, 0xf;\n"
        "texture 3 R32G32B32A32_FLOAT 2D 4 4 samples=2 fill=coords\n"
        "bind 0 3\n"
        "reg R6 2\n"
        "reg R7 1\n"
        "reg R11 3\n"
        "TLDS.LZ.MS RZ, R9, R6, R11, 0x0, 2D, R;\n"
        "cbank 2 0x18 0x00000002\n"
        "pools bank=2\n"
        "reg R6[0] 0.25\n"
        "reg R6[1] 0.375\n"
        "reg R6[2] 0.25\n"
        "reg R6[3] 0.375\n"
        "reg R7 0.25f\n"
        "active 0xf\n"
        "TMML.LOD R2, R6, 6, 2D, 0x3;\n"
        "word 0xdf48050100471f0f 0x20000\n");
    assert_int_equal(rc, 0);
    has("TLDS.LZ R0, R4, R9, R11, 0x7, 2D, RGBA\n"
        "  R0 = 0x00000000 (0)\n"
        "  R1 = 0x00000000 (0)\n"
        "  R4 = 0x40400000 (3)\n"
        "  R5 = 0x40a00000 (5)\n");
    has("TXQ R0, R6, TEX_HEADER_DIMENSION, 0x0, 0xf\n"
        "  R0 = 0x00000020 (32)\n"
        "  R1 = 0x00000020 (32)\n"
        "  R2 = 0x00000000 (0)\n"
        "  R3 = 0x00000007 (7)\n");
    has("TLDS.LZ.MS RZ, R9, R6, R11, 0x0, 2D, R\n  R9 = 0x40000000 (2)\n");
    /* TMML on lanes 0..3: du/dx = 8 texels, dv = 0 -> lambda 3 -> 0x300 */
    has("TMML.LOD R2, R6, 0x6, 2D, 0x3\n  R2: [0]=0x00000300 (768) [1]=0x00000300 (768) "
        "[2]=0x00000300 (768) [3]=0x00000300 (768)\n");
    has("TXQ.T R15, R31, TEX_HEADER_DIMENSION, 0x50, 0x2\n");
}

static void test_faults_and_errors(void **state)
{
    (void)state;
    int rc = run_script("texture 1 R8_UNORM 2D 4 4\n"
                        "TLDS.LZ RZ, R5, R2, R3, 0x7, 2D, RG\n"
                        "TLDS.LZ RZ, R4, R2, R3, 0x7, 2D, RG\n");
    assert_int_equal(rc, 1);
    has("misaligned register");
    has("TLDS.LZ RZ, R4, R2, R3, 0x7, 2D, RG\n");   /* later lines still run */
    rc = run_script("texture 1 R8_UNORM 9D 4 4\n");
    assert_int_equal(rc, 1);
    has(":1:20: unknown texture type \"9D\"");
    rc = run_script("frobnicate 3\n");
    assert_int_equal(rc, 1);
    has(":1:1: unknown command \"frobnicate\"");
    rc = run_script("TLDS.LL.MS RZ, R4, R2, R3, 0x7, 2D, R\n");
    assert_int_equal(rc, 1);
    has("legal-modifier table");
    rc = run_script("TXQ R0, R6, TEX_SAMPLER_WRAP, 0, 0xf\n");
    assert_int_equal(rc, 1);
    has("illegal encodings");
}

/* Every lane the instruction ran for is listed, also one whose value did not change, with
 * its float reading: lanes 0 and 1 fetch texel (1, 0) and (0, 0) of a fill=coords texture. */
static void test_per_lane_listing(void **state)
{
    (void)state;
    int rc = run_script("texture 1 R32G32B32A32_FLOAT 2D 4 4 fill=coords\n"
                        "bind 0 1\n"
                        "reg R4 0\n"
                        "reg R4[0] 1\n"
                        "reg R5 0\n"
                        "active 0x3\n"
                        "TLDS.LZ RZ, R0, R4, R5, 0x0, 2D, R\n");
    assert_int_equal(rc, 0);
    has("TLDS.LZ RZ, R0, R4, R5, 0x0, 2D, R\n"
        "  R0: [0]=0x3f800000 (1) [1]=0x00000000 (0)\n");
}

/* The docs' command table (between the script-commands markers of docs/sass.md) lists
 * exactly the commands `texvm sass --help` prints, with the same usage, in the same order:
 * both come from the table in src/job/sass_script_table.c. */
static void test_help_matches_docs(void **state)
{
    (void)state;
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        bin = TEXVM_BINARY_DIR "/texvm";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' sass --help", bin);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    static char doc[1 << 18];
    FILE *f = fopen(TEXVM_SOURCE_DIR "/docs/sass.md", "rb");
    assert_non_null(f);
    size_t dn = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[dn] = '\0';
    char *begin = strstr(doc, "<!-- script-commands: begin -->");
    char *end = strstr(doc, "<!-- script-commands: end -->");
    assert_non_null(begin);
    assert_non_null(end);
    *end = '\0';
    /* the docs' usages, `|` unescaped, in order */
    char usages[32][512];
    unsigned nu = 0;
    for (char *line = strtok(begin, "\n"); line && nu < 32; line = strtok(NULL, "\n")) {
        if (strncmp(line, "| `", 3))
            continue;
        char *close = strstr(line + 3, "` |");
        assert_non_null(close);
        size_t k = 0;
        for (char *c = line + 3; c < close && k < 511; c++)
            if (!(c[0] == '\\' && c[1] == '|'))
                usages[nu][k++] = *c;
        usages[nu++][k] = '\0';
    }
    unsigned i = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "  ", 2) || line[2] == ' ')
            continue;   /* command lines are indented by two, their text by six */
        if (i >= nu || strcmp(line + 2, usages[i]))
            fail_msg("--help command %u is \"%s\", docs/sass.md has \"%s\"", i, line + 2,
                     i < nu ? usages[i] : "(nothing)");
        i++;
    }
    assert_int_equal(i, nu);
    assert_true(nu >= 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_faults_and_errors),
        cmocka_unit_test(test_per_lane_listing),
        cmocka_unit_test(test_help_matches_docs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
