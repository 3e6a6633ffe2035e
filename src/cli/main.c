/* texvm: command dispatch. Each subcommand lives in its own cli_<name>.c. */
#include "cli.h"
#include "texvm/vm.h"

#include <string.h>

int cli_vtest(int argc, char **argv);  /* cli_vtest.c */
int cli_replay(int argc, char **argv); /* cli_replay.c */

static const cli_command commands[] = {
    {"check", "parse and validate TGSI files", cli_check},
    {"fmt", "print a TGSI file in canonical (Mesa tgsi_dump) layout", cli_fmt},
    {"run", "run a job: TGSI programs on textures, buffers and targets", cli_run},
    {"sass", "run a SASS texture-instruction script on a warp", cli_sass},
    {"vtest", "serve Mesa's virgl vtest protocol on a unix socket", cli_vtest},
    {"replay", "run a recorded vtest client again (texvm vtest --record)", cli_replay},
};
#define NUM_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: texvm COMMAND [ARGS...]\n\n"
               "texvm %s: a software GPU shader core (TGSI + texture unit + SASS texture "
               "instructions)\n\ncommands:\n", tv_version());
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`texvm COMMAND --help` describes each command. Options: --help (-h), --version (-V)\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TV_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return TV_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("texvm %s\n", tv_version());
        if (argc > 2 && (!strcmp(argv[2], "--verbose") || !strcmp(argv[2], "-v"))) {
            /* what a benchmark table needs to be compared with another machine's */
            char model[256];
            printf("cpu: %s\nkernels: %s\n", cli_cpu_model(model, sizeof model),
                   tv_vm_kernels());
        }
        return TV_EXIT_OK;
    }
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "texvm: unknown command '%s' (try texvm --help)\n", argv[1]);
    return TV_EXIT_USAGE;
}
