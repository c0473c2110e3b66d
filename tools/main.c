/* gpuocc: the command-line client of libgpuocc.  The command table and the dispatcher (cli_main); the
   process entry point is tools/gpuocc.c, so the fuzz target and the benchmark can run commands in-process. */
#include "cli.h"

#include <string.h>

/* One line per subcommand, in the order `gpuocc --help` lists them (see tools/cli.h to add one). */
const struct cli_command *const cli_commands[] = {
    &cli_cmd_report,
    &cli_cmd_devices,
    &cli_cmd_batch,
    &cli_cmd_sweep,
    &cli_cmd_plot,
    &cli_cmd_latency,
    &cli_cmd_bandwidth,
    &cli_cmd_spill,
    &cli_cmd_tradeoff,
    &cli_cmd_waves,
    &cli_cmd_divergence,
    &cli_cmd_roofline,
    &cli_cmd_ptxas,
    &cli_cmd_remarks,
    &cli_cmd_binary,
    &cli_cmd_cubin,
    &cli_cmd_diagnose,
};
const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

static void usage(FILE *f)
{
    fprintf(f, "usage: gpuocc COMMAND [options]    (gpuocc %s)\n\ncommands:\n", gpuocc_version_string());
    for (size_t i = 0; i < cli_command_count; i++)
        fprintf(f, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(f, "\n'gpuocc COMMAND --help' describes a command's options, with examples.\n"
               "example: gpuocc report --arch H100 --threads 256 --regs 64 --smem-dynamic 48K\n"
               "         gpuocc report --example\n"
               "exit status: 0 answered, 1 answered in part (or report: the launch cannot run), "
               "2 usage error or no usable input, 3 output not written\n");
}

static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            return false;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    }
    return false;
}

int cli_main(struct cli_io *io, int argc, char **argv)
{
    io->status = 0;
    io->out_errno = 0;
    io->cmd = NULL;
    if (argc < 2) {
        usage(io->err);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) {
            for (size_t i = 0; i < cli_command_count; i++)
                if (!strcmp(argv[2], cli_commands[i]->name)) {
                    cli_help(io->out, cli_commands[i]);
                    return cli_finish(io, CLI_OK);
                }
        }
        usage(io->out);
        return cli_finish(io, CLI_OK);
    }
    if (!strcmp(argv[1], "--version")) {
        fprintf(io->out, "gpuocc %s\n", gpuocc_version_string());
        return cli_finish(io, CLI_OK);
    }
    for (size_t i = 0; i < cli_command_count; i++)
        if (!strcmp(argv[1], cli_commands[i]->name)) {
            io->cmd = cli_commands[i];
            if (wants_help(argc - 1, argv + 1)) {
                cli_help(io->out, io->cmd);
                return cli_finish(io, CLI_OK);
            }
            int status = io->cmd->run(io, argc - 1, argv + 1);
            return cli_finish(io, status > io->status ? status : io->status);
        }
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < cli_command_count && n < 64; i++)
        names[n++] = cli_commands[i]->name;
    const char *near = cli_nearest(argv[1], names, n);
    if (near)
        return cli_fail(io, argv[1], "unknown command; did you mean '%s'? (try 'gpuocc --help')", near);
    return cli_fail(io, argv[1], "unknown command (try 'gpuocc --help')");
}
