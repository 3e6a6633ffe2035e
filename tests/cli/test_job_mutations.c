/* Robustness of the job loader: every example job and a full-featured job, truncated at
 * every length and mutated byte by byte (deterministic pseudo-random edits), either loads
 * or fails with a message that starts with the file name — never a crash (the sanitizer
 * build checks memory). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helper_cli.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *full_job =
    "{\"texvm_job\": 1, \"programs\": [{\"tgsi_text\": \"FRAG\\n  0: END\\n\"}],"
    " \"frag\": {\"width\": 4, \"height\": 4, \"samples\": 2, \"primitive\": \"triangle\","
    "  \"positions\": [[0, 0], [8, 0, 0.5], [0, 8, 0, 2]],"
    "  \"inputs\": [{\"index\": 1, \"values\": [[1], [2, 3], [\"0x10\", \"f:2\"]]}],"
    "  \"targets\": [{\"format\": \"R8G8B8A8_UNORM\", \"clear\": [0, 0, 0, 1]}],"
    "  \"depth\": {\"clear\": 0.5}, \"stencil\": {\"clear\": 1}},"
    " \"constants\": [{\"slot\": 0, \"type\": \"uint\", \"values\": [1, 2, \"i:-3\"], \"size\": 32}],"
    " \"textures\": [{\"name\": \"t\", \"type\": \"2D_ARRAY\", \"format\": \"R8G8B8A8_UNORM\","
    "   \"width\": 8, \"height\": 4, \"layers\": 2, \"levels\": \"all\", \"mipmaps\": \"generate\","
    "   \"source\": {\"pattern\": \"noise\", \"seed\": 3}, \"view\": {\"swizzle\": \"rg01\"},"
    "   \"layout\": \"block_linear\", \"block\": [0, 1, 0], \"header\": {\"max_anisotropy\": 4}},"
    "  {\"format\": \"R32_FLOAT\", \"width\": 2, \"height\": 2,"
    "   \"level_sources\": [{\"values\": [1, 2, 3, 4]}, {\"fill\": [5]}]},"
    "  {\"type\": \"2D_ARRAY\", \"format\": \"R8_UNORM\", \"width\": 2, \"height\": 2,"
    "   \"layers\": 2, \"mipmaps\": \"generate\","
    "   \"layer_sources\": [{\"fill\": [1]}, {\"pattern\": \"noise\"}]}],"
    " \"samplers\": [{\"name\": \"s\", \"filter\": \"trilinear\", \"wrap_u\": \"border\","
    "   \"border_color\": [1, 0, 0, 1], \"compare\": \"less\", \"max_anisotropy\": 8}],"
    " \"bindings\": {\"units\": [{\"slot\": 0, \"texture\": \"t\", \"sampler\": \"s\"}]},"
    " \"buffers\": [{\"name\": \"b\", \"slot\": 0, \"size\": 64, \"fill\": 7}],"
    " \"images\": [{\"slot\": 0, \"texture\": 1, \"level\": 1}],"
    " \"hwatomics\": [{\"slot\": 0, \"values\": [0, 0]}],"
    " \"memory\": [{\"address\": 64, \"size\": 16}],"
    " \"outputs\": [{\"target\": 0, \"png\": \"o.png\"}, {\"buffer\": \"b\", \"dump\": \"b.txt\"},"
    "   {\"texture\": \"t\", \"level\": 1, \"layer\": 1, \"raw\": \"t.raw\"}],"
    " \"checks\": [{\"target\": 0, \"pixel\": [1, 1], \"values\": [0, 0, 0, 1]},"
    "   {\"buffer\": \"b\", \"offset\": 4, \"values\": [7]}],"
    " \"options\": {\"threads\": 1, \"precision\": \"hardware\"}}";

static uint32_t rng_state = 12345;

static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void try_load(const char *text, size_t len, const char *path)
{
    tv_job_error err;
    memset(&err, 0, sizeof err);
    job *j = tv_job_load_text(text, len, path, &err);
    if (j) {
        tv_job_free(j);
        return;
    }
    size_t n = strlen(path);
    if (strncmp(err.message, path, n) != 0 || (err.message[n] != ':'))
        fail_msg("message does not start with the file name: %s", err.message);
    assert_true(err.cls == TV_JOB_ERR_INVALID || err.cls == TV_JOB_ERR_IO ||
                err.cls == TV_JOB_ERR_UNSUPPORTED);
}

static void mutate(const char *text, const char *path, int rounds)
{
    size_t len = strlen(text);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    /* every truncation */
    for (size_t cut = 0; cut <= len; cut++) {
        memcpy(buf, text, cut);
        buf[cut] = '\0';
        try_load(buf, cut, path);
    }
    /* byte edits: replace with a structural or random byte, or delete */
    static const char pick[] = "{}[]\",:0123456789-.eE \\xfgtru\"nan";
    for (int r = 0; r < rounds; r++) {
        memcpy(buf, text, len + 1);
        size_t blen = len;
        int edits = 1 + (int)(rng() % 3);
        for (int e = 0; e < edits && blen > 0; e++) {
            size_t at = rng() % blen;
            uint32_t kind = rng() % 3;
            if (kind == 0)
                buf[at] = pick[rng() % (sizeof pick - 1)];
            else if (kind == 1)
                buf[at] = (char)(rng() % 255 + 1);
            else {
                memmove(buf + at, buf + at + 1, blen - at);
                blen--;
            }
        }
        try_load(buf, blen, path);
    }
    free(buf);
}

static void full_job_mutations(void **state)
{
    (void)state;
    /* the unmutated job loads */
    tv_job_error err;
    job *j = tv_job_load_text(full_job, strlen(full_job), tcli_path("job.json"), &err);
    if (!j)
        fail_msg("%s", err.message);
    tv_job_free(j);
    mutate(full_job, tcli_path("job.json"), 3000);
}

static void example_mutations(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/examples", TEXVM_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/job.json", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        static char text[65536];
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        mutate(text, path, 300);
        count++;
    }
    closedir(d);
    assert_true(count > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_job_mutations),
        cmocka_unit_test(example_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
