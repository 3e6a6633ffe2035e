/* texvm sass SCRIPT: the script runner of the job library (tv_sass_script_run,
 * include/texvm/job.h) on a file or standard input. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cli_sass(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        tv_sass_script_usage(stdout);
        return TV_EXIT_OK;
    }
    if (argc != 2) {
        tv_sass_script_usage(stderr);
        return TV_EXIT_USAGE;
    }
    size_t len;
    char *text = cli_read_input(argv[1], &len);
    if (!text)
        return cli_last_read_status;
    int rc = tv_sass_script_run(argv[1], text, len, TV_SASS_SCRIPT_MEM_SIZE);
    free(text);
    return rc;
}
