/* docs/jobs-resources.md §1 lists the format names a job may use (between the `formats`
 * markers): exactly the texture unit's format table, in its order
 * (include/texvm/tex_formats.def through tv_format_get), so the docs cannot drift from the
 * table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "texvm/tex.h"

#include <stdio.h>
#include <string.h>

static void test_jobs_md_lists_every_format(void **state)
{
    (void)state;
    static char doc[1 << 20];
    FILE *f = fopen(TEXVM_SOURCE_DIR "/docs/jobs-resources.md", "rb");
    assert_non_null(f);
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    char *p = strstr(doc, "<!-- formats: begin -->");
    char *end = strstr(doc, "<!-- formats: end -->");
    assert_non_null(p);
    assert_non_null(end);
    *end = '\0';
    unsigned listed = 0;
    int next = 1;   /* TV_FORMAT_NONE is not a format a job names */
    while ((p = strchr(p, '`'))) {
        char *close = strchr(p + 1, '`');
        assert_non_null(close);
        *close = '\0';
        const tv_format_info *fi = next < TV_FORMAT_COUNT ? tv_format_get((tv_format)next) : NULL;
        if (!fi || strcmp(fi->name, p + 1))
            fail_msg("docs/jobs-resources.md lists `%s` where the table has %s", p + 1,
                     fi ? fi->name : "no more formats");
        next++;
        listed++;
        p = close + 1;
    }
    if (next != TV_FORMAT_COUNT)
        fail_msg("docs/jobs-resources.md lists %u formats; the table has %d", listed,
                 (int)TV_FORMAT_COUNT - 1);
    /* the count the prose states */
    char says[64];
    snprintf(says, sizeof says, "texture unit's %d formats", (int)TV_FORMAT_COUNT - 1);
    assert_non_null(strstr(doc, says));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_md_lists_every_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
