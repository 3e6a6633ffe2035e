/* libFuzzer target for `texvm sass` scripts (docs/sass.md, "The texvm sass script"): the
 * bytes are a script's text, run by tv_sass_script_run exactly as `texvm sass FILE` runs it
 * (command table, option checks, textures in the script's 32 MiB, instructions on the
 * warp). A script either runs or stops with an exit code 1 after a
 * `SCRIPT:LINE:COL: message`; anything else (a crash, a sanitizer report, another code)
 * is a finding. The script's output and messages go to /dev/null (the FILE pointers are
 * swapped, as fuzz_job does, so libFuzzer's and the sanitizers' reports on fd 2 stay).
 *   scripts/fuzz 600 fuzz_sass_script */
#include "sass_script.h"
#include "texvm/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w")))
        abort();
    if (size > 1u << 16) /* the 64 MiB input limit is the reader's; keep runs short */
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    FILE *out = stdout, *err = stderr;
    stdout = stderr = null;
    /* 1 MiB of script memory instead of 32: the same checks, 30 times fewer bytes to
       clear per input */
    int rc = tv_sass_script_run("fuzz.txt", text, size, 1u << 20);
    stdout = out;
    stderr = err;
    free(text);
    if (rc != TV_EXIT_OK && rc != TV_EXIT_INVALID)
        abort();
    return 0;
}
