/* A program built against an installed texvm (tests/install/run.sh): parses and
 * validates a TGSI program through the public API, prints the library's version and the
 * program's canonical text, and fails on a bad program with the library's error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <texvm/texvm.h>
#include <texvm/tgsi.h>

int main(void)
{
    static const char good[] = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.5, 0.25, 1.0, 1.0}\n"
                               "  0: MOV OUT[0], IMM[0]\n  1: END\n";
    static const char bad[] = "FRAG\n  0: FOO OUT[0]\n";
    tv_tgsi_program *progs = NULL;
    size_t count = 0;
    tv_error err;
    if (tv_tgsi_parse(good, strlen(good), "good.tgsi", TV_TGSI_MODE_DEFAULT, &progs, &count,
                      &err) != TV_OK || count != 1) {
        fprintf(stderr, "consumer: the good program did not parse\n");
        return 1;
    }
    char *text = tv_tgsi_print_alloc(&progs[0]);
    if (!text) return 1;
    printf("version %s\n%s", tv_version(), text);
    free(text);
    tv_tgsi_programs_free(progs, count);
    if (tv_tgsi_parse(bad, strlen(bad), "bad.tgsi", TV_TGSI_MODE_DEFAULT, &progs, &count,
                      &err) == TV_OK) {
        fprintf(stderr, "consumer: the bad program parsed\n");
        return 1;
    }
    char msg[1024];
    tv_error_format(&err, msg, sizeof msg);
    printf("error %s\n", msg);
    return 0;
}
