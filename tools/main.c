/* gpuocc: the command-line client of libgpuocc. */
#include "cli.h"

#include <string.h>

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
};

static const struct command commands[] = {
    {"report", cmd_report, "occupancy of one launch: limits, limiter, allocation, next step"},
    {"devices", cmd_devices, "the built-in architecture and product table, with sources"},
    {"batch", cmd_batch, "CSV in (arch,threads,regs[,smem_static,...]) -> CSV out, one row per launch"},
    {"latency", cmd_latency, "Little's law: are --warps enough to hide --latency at --throughput (--ilp)"},
    {"spill", cmd_spill, "spill cost: --work/--accesses/--latency, or ptxas spill bytes through L1/L2/DRAM"},
    {"tradeoff", cmd_tradeoff, "register caps that raise occupancy, and what their spills would cost"},
    {"waves", cmd_waves, "waves and the tail of a --grid at --blocks-per-sm on --sms (or --arch)"},
    {"divergence", cmd_divergence, "lane efficiency (--threads), branch paths (--paths), routing (--experts)"},
    {"roofline", cmd_roofline, "compute or memory bound: --flops --bytes --peak-flops (GFLOP/s) --bandwidth (GB/s)"},
    {"ptxas", cmd_ptxas, "every kernel of a ptxas -v report or build log [FILE|-], with --threads N or --best-block"},
    {"cubin", cmd_cubin, "every kernel of a cubin, fatbinary or CUDA host object FILE, with --threads N or --best-block"},
    {"diagnose", cmd_diagnose, "what a dominant --stall reason means at an --occupancy, what to try first"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gpuocc COMMAND [options]    (gpuocc %s)\n\ncommands:\n", gpuocc_version_string());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nexample: gpuocc report --arch H100 --threads 256 --regs 64 --smem-dynamic 48K\n"
               "         gpuocc report --example\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE_ERROR;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("gpuocc %s\n", gpuocc_version_string());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    cli_fail(argv[1], "unknown command (try 'gpuocc --help')");
}
