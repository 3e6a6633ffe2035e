/* texvm check: parse and validate TGSI files. */
#include "cli.h"
#include "texvm/job.h"
#include "texvm/tgsi.h"

#include <stdlib.h>
#include <string.h>

static void check_usage(FILE *f)
{
    fprintf(f,
            "usage: texvm check [--strict|--legacy] [--quiet] FILE...\n\n"
            "Parse and validate each TGSI file; a file may hold several programs one after\n"
            "another (Mesa's dumps hold VERT then FRAG). Errors are printed as\n"
            "FILE:LINE:COLUMN: message. `-` reads stdin.\n\n"
            "  --strict   strict validation (every register declared exactly as used, END\n"
            "             required, ...); the default is lenient: whatever Mesa emits passes\n"
            "  --legacy   also accept the old graw spellings (SUB, ABS, KIL, operand-less\n"
            "             EMIT/ENDPRIM, `+ 3` in indirect indices; docs/tgsi-text.md)\n"
            "  --quiet    print only errors\n"
            "  --help     show this help\n\n"
            "exit status: 0 all files valid, 1 some file invalid, 2 usage, 3 a file could\n"
            "not be read\n");
}

int cli_check(int argc, char **argv)
{
    bool strict = false, legacy = false, quiet = false;
    const cli_flag flags[] = {{"--strict", NULL, &strict},
                              {"--legacy", NULL, &legacy},
                              {"--quiet", "-q", &quiet},
                              {NULL, NULL, NULL}};
    int usage_rc = cli_parse_flags(argc, argv, "check", flags, check_usage);
    if (usage_rc >= 0)
        return usage_rc;
    tv_tgsi_mode mode = legacy ? TV_TGSI_MODE_LEGACY : TV_TGSI_MODE_DEFAULT;
    tv_tgsi_strictness strictness = strict ? TV_TGSI_STRICT : TV_TGSI_LENIENT;
    int rc = TV_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (!cli_is_file_arg(argv[i]))
            continue;
        tv_tgsi_program *progs;
        size_t count;
        int prc = cli_parse_tgsi_input(argv[i], mode, &progs, &count);
        if (prc != TV_EXIT_OK) {
            if (prc == TV_EXIT_IO || rc == TV_EXIT_OK)
                rc = prc; /* an unreadable file outranks an invalid one */
            continue;
        }
        tv_error err;
        bool ok = true;
        for (size_t k = 0; k < count; k++) {
            if (tv_tgsi_validate(&progs[k], strictness, &err) != TV_OK) {
                char sb[TV_SHORT_PATH];
                snprintf(err.file, sizeof err.file, "%s", tv_short_path(argv[i], sb));
                tv_job_print_error(&err);
                ok = false;
            }
        }
        if (!ok && rc == TV_EXIT_OK)
            rc = TV_EXIT_INVALID;
        if (ok && !quiet)
            printf("%s: ok (%zu program%s)\n", argv[i], count, count == 1 ? "" : "s");
        tv_tgsi_programs_free(progs, count);
    }
    return rc;
}
