/* texvm fmt — placeholder until its issue lands: an explicit error, never a silent no-op. */
#include "cli.h"

int cli_fmt(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "texvm fmt: not implemented yet\n");
    return CLI_EXIT_UNSUPPORTED;
}
