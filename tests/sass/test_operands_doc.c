/* docs/sass.md spells out the TEXS/TLDS operand vectors of every target code (the table
 * between the `operand-codes` markers). This test reads that table and checks each row
 * against the layout the executor uses (sass_layout_of over sass_code_lookup), and that
 * every code of both tables has a row — so the docs cannot drift from the code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sass/sass_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_doc(void)
{
    FILE *f = fopen(TEXVM_SOURCE_DIR "/docs/sass.md", "rb");
    assert_non_null(f);
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* "s, t" from the slots of a vector, "–" when empty. */
static void vec_text(const uint8_t *v, unsigned n, char *out, size_t size)
{
    size_t m = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < n; i++)
        m += (size_t)snprintf(out + m, size - m, "%s%s", i ? ", " : "", sass_slot_name(v[i]));
    if (!n)
        snprintf(out, size, "–");
}

static void trim(char *t)
{
    size_t n = strlen(t);
    while (n && t[n - 1] == ' ')
        t[--n] = '\0';
    size_t k = 0;
    while (t[k] == ' ')
        k++;
    memmove(t, t + k, strlen(t + k) + 1);
}

static void test_doc_table_matches_layouts(void **state)
{
    (void)state;
    char *doc = read_doc();
    char *begin = strstr(doc, "<!-- operand-codes: begin -->");
    char *end = strstr(doc, "<!-- operand-codes: end -->");
    assert_non_null(begin);
    assert_non_null(end);
    *end = '\0';
    bool seen[2][16] = {{false}};
    unsigned rows = 0;
    for (char *line = strtok(begin, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "| TEXS |", 8) && strncmp(line, "| TLDS |", 8))
            continue;
        char cell[5][64];
        char *p = line + 1;
        for (unsigned c = 0; c < 5; c++) {
            char *bar = strchr(p, '|');
            assert_non_null(bar);
            snprintf(cell[c], sizeof cell[c], "%.*s", (int)(bar - p), p);
            trim(cell[c]);
            p = bar + 1;
        }
        uint8_t op = !strcmp(cell[0], "TEXS") ? TV_SASS_TEXS : TV_SASS_TLDS;
        unsigned code = (unsigned)atoi(cell[1]);
        const sass_code_row *row = sass_code_lookup(op, (uint8_t)code);
        if (!row)
            fail_msg("docs/sass.md: %s code %u has no row in sass_tables.c", cell[0], code);
        tv_sass_insn in;
        memset(&in, 0, sizeof in);
        in.op = op;
        in.type = row->type;
        in.lod = row->lod;
        in.dc = row->dc;
        in.aoffi = row->aoffi;
        in.ms = row->ms;
        static const char *const types[8] = {"1D", "ARRAY_1D", "2D", "ARRAY_2D", "3D",
                                             "ARRAY_3D", "CUBE", "ARRAY_CUBE"};
        char mods[64];
        snprintf(mods, sizeof mods, "%s%s%s%s%s", types[row->type & 7],
                 row->lod == TV_SASS_LOD_LZ ? " .LZ" : row->lod == TV_SASS_LOD_LL ? " .LL" : "",
                 row->dc ? " .DC" : "", row->aoffi ? " .AOFFI" : "", row->ms ? " .MS" : "");
        if (strcmp(mods, cell[2]))
            fail_msg("docs/sass.md: %s code %u says \"%s\"; the table has \"%s\"", cell[0],
                     code, cell[2], mods);
        sass_layout l;
        sass_layout_of(&in, &l);
        char a[64], b[64];
        vec_text(l.a, l.na, a, sizeof a);
        vec_text(l.b, l.nb, b, sizeof b);
        if (strcmp(a, cell[3]) || strcmp(b, cell[4]))
            fail_msg("docs/sass.md: %s code %u says Ra \"%s\", Rb \"%s\"; the executor reads "
                     "Ra \"%s\", Rb \"%s\"", cell[0], code, cell[3], cell[4], a, b);
        seen[op == TV_SASS_TLDS][code & 15] = true;
        rows++;
    }
    /* every code the tables have is in the docs */
    for (unsigned k = 0; k < 2; k++)
        for (unsigned code = 0; code < 16; code++)
            if (sass_code_lookup(k ? TV_SASS_TLDS : TV_SASS_TEXS, (uint8_t)code) &&
                !seen[k][code])
                fail_msg("docs/sass.md: %s code %u is missing", k ? "TLDS" : "TEXS", code);
    assert_int_equal(rows, 14 + 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doc_table_matches_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
