/* gpuocc report | devices: the occupancy engine on the command line. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* ---- report ---- */

/* The built-in example: a 256-thread, 64-register kernel with 48 KiB of dynamic shared memory on H100. */
static void launch_example(struct cli_io *io, struct cli_launch *l)
{
    cli_device(io, "--arch", "H100", &l->dev);
    snprintf(l->dev_name, sizeof l->dev_name, "H100");
    l->k.threads_per_block = 256;
    l->k.regs_per_thread = 64;
    l->k.smem_dynamic_bytes = 48 * 1024;
}

static const char *resource_demand_name(int32_t resource)
{
    switch (resource) {
    case GPUOCC_RESOURCE_REGISTERS: return "registers per thread";
    case GPUOCC_RESOURCE_SMEM: return "shared memory per block (bytes)";
    case GPUOCC_RESOURCE_WARPS: return "threads per block";
    case GPUOCC_RESOURCE_BARRIERS: return "barriers per block";
    default: return "resident blocks";
    }
}

static void print_report_text(FILE *out, const struct cli_launch *l, const gpuocc_result *r)
{
    char arch[16], lim[96];
    cli_arch_name(&l->dev, arch, sizeof arch);
    cli_limiters(r->limiters, lim, sizeof lim);
    if (l->dev.sm_count)
        fprintf(out, "device      %s (%s, %d SMs)\n", l->dev_name, arch, l->dev.sm_count);
    else
        fprintf(out, "device      %s (%s, SM count unknown)\n", l->dev_name, arch);
    fprintf(out, "kernel      %d threads/block, %d registers/thread, %lld B static + %lld B dynamic shared memory, "
           "%d barrier(s), opt-in %s\n",
           l->k.threads_per_block, l->k.regs_per_thread, (long long)l->k.smem_static_bytes,
           (long long)l->k.smem_dynamic_bytes, l->k.barriers,
           l->k.smem_optin ? "yes" : "no");
    if (l->k.carveout_percent >= 0)
        fprintf(out, "carveout    %d %% preferred\n", l->k.carveout_percent);
    fprintf(out, "blocks/SM   %d\n", r->blocks_per_sm);
    fprintf(out, "warps/SM    %d of %d\n", r->warps_per_sm, r->max_warps_per_sm);
    fprintf(out, "occupancy   %.1f %%\n", 100.0 * r->occupancy);
    fprintf(out, "limited by  %s\n", lim);
    const int32_t limits[] = {r->limit_warps, r->limit_regs, r->limit_smem, r->limit_blocks, r->limit_barriers};
    fprintf(out, "limits      ");
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++) {
        if (limits[i] == GPUOCC_UNLIMITED)
            fprintf(out, "%s%s none", i ? ", " : "", gpuocc_resource_name(i));
        else
            fprintf(out, "%s%s %d", i ? ", " : "", gpuocc_resource_name(i), limits[i]);
    }
    fprintf(out, " (blocks per SM)\n");
    fprintf(out, "allocated   %d registers and %lld B shared memory per block; %lld B shared memory per SM configured\n",
           r->regs_per_block, (long long)r->smem_per_block_bytes, (long long)r->smem_per_sm_bytes);
    if (l->dev.sm_count)
        fprintf(out, "full wave   %d blocks (%d SMs x %d)\n", r->blocks_per_sm * l->dev.sm_count, l->dev.sm_count,
               r->blocks_per_sm);
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++) {
        if (!(r->limiters & (1u << i)))
            continue;
        int64_t value, shed;
        int32_t rc = gpuocc_next_step(&l->dev, &l->k, i, &value, &shed);
        if (rc == GPUOCC_OK && shed > 0)
            fprintf(out, "next step   %s: %lld -> %lld (shed %lld) for %d blocks/SM\n", resource_demand_name(i),
                   (long long)(value + shed), (long long)value, (long long)shed, r->blocks_per_sm + 1);
        else if (rc == GPUOCC_ERR_UNSATISFIABLE && i == GPUOCC_RESOURCE_BLOCKS)
            fprintf(out, "next step   the block-slot cap binds: use larger blocks to hold more warps\n");
        else if (rc == GPUOCC_ERR_UNSATISFIABLE)
            fprintf(out, "next step   %s: no reduction alone gains a block\n", resource_demand_name(i));
    }
}

static void print_report_json(FILE *out, const struct cli_launch *l, const gpuocc_result *r)
{
    char arch[16];
    cli_arch_name(&l->dev, arch, sizeof arch);
    bool first = true;
    fprintf(out, "{");
    json_key(out, &first, "device");
    json_string(out, l->dev_name);
    json_key(out, &first, "arch");
    json_string(out, arch);
    json_key(out, &first, "sm_count");
    fprintf(out, "%d", l->dev.sm_count);
    json_key(out, &first, "threads");
    fprintf(out, "%d", l->k.threads_per_block);
    json_key(out, &first, "regs");
    fprintf(out, "%d", l->k.regs_per_thread);
    json_key(out, &first, "smem_static");
    fprintf(out, "%lld", (long long)l->k.smem_static_bytes);
    json_key(out, &first, "smem_dynamic");
    fprintf(out, "%lld", (long long)l->k.smem_dynamic_bytes);
    json_key(out, &first, "barriers");
    fprintf(out, "%d", l->k.barriers);
    json_key(out, &first, "carveout");
    fprintf(out, "%d", l->k.carveout_percent);
    json_key(out, &first, "smem_optin");
    fprintf(out, "%d", l->k.smem_optin);
    json_key(out, &first, "blocks_per_sm");
    fprintf(out, "%d", r->blocks_per_sm);
    json_key(out, &first, "warps_per_sm");
    fprintf(out, "%d", r->warps_per_sm);
    json_key(out, &first, "max_warps_per_sm");
    fprintf(out, "%d", r->max_warps_per_sm);
    json_key(out, &first, "occupancy");
    fprintf(out, "%.6f", r->occupancy);
    json_key(out, &first, "limiters");
    fprintf(out, "[");
    bool first_lim = true;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++)
        if (r->limiters & (1u << i)) {
            fprintf(out, first_lim ? "" : ",");
            json_string(out, gpuocc_resource_name(i));
            first_lim = false;
        }
    fprintf(out, "]");
    const char *names[] = {"limit_warps", "limit_regs", "limit_smem", "limit_blocks", "limit_barriers"};
    const int32_t limits[] = {r->limit_warps, r->limit_regs, r->limit_smem, r->limit_blocks, r->limit_barriers};
    for (int i = 0; i < 5; i++) {
        json_key(out, &first, names[i]);
        if (limits[i] == GPUOCC_UNLIMITED)
            fprintf(out, "null");
        else
            fprintf(out, "%d", limits[i]);
    }
    json_key(out, &first, "regs_per_block");
    fprintf(out, "%d", r->regs_per_block);
    json_key(out, &first, "smem_per_block");
    fprintf(out, "%lld", (long long)r->smem_per_block_bytes);
    json_key(out, &first, "smem_per_sm");
    fprintf(out, "%lld", (long long)r->smem_per_sm_bytes);
    json_key(out, &first, "next_steps");
    fprintf(out, "[");
    bool first_step = true;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++) {
        int64_t value, shed;
        if (!(r->limiters & (1u << i)) || gpuocc_next_step(&l->dev, &l->k, i, &value, &shed) != GPUOCC_OK)
            continue;
        fprintf(out, "%s{\"resource\":", first_step ? "" : ",");
        json_string(out, gpuocc_resource_name(i));
        fprintf(out, ",\"new_value\":%lld,\"shed\":%lld}", (long long)value, (long long)shed);
        first_step = false;
    }
    fprintf(out, "]}\n");
}

static int cmd_report(struct cli_io *io, int argc, char **argv)
{
    FILE *out = io->out;
    struct cli_launch l;
    cli_launch_init(&l);
    bool json = false, example = false;
    struct cli_args a = {io, argc, argv, 1};
    for (; cli_more(&a); a.i++) {
        if (cli_launch_flag(&a, &l))
            continue;
        if (cli_switch(&a, "--json"))
            json = true;
        else if (cli_switch(&a, "--example"))
            example = true;
        else
            cli_unknown(&a);
    }
    if (io->status)
        return io->status;
    if (example) {
        if (l.have_arch || l.have_threads || l.have_regs)
            return cli_fail(io, "--example", "cannot be combined with --arch, --threads or --regs");
        launch_example(io, &l);
    } else {
        if (!l.have_arch)
            return cli_fail(io, "--arch", "required (or --example for the built-in example)");
        if (!l.have_threads)
            return cli_fail(io, "--threads", "required");
        if (!l.have_regs)
            return cli_fail(io, "--regs", "required");
    }
    gpuocc_result r = {.size = sizeof r};
    int32_t rc = gpuocc_occupancy(&l.dev, &l.k, &r);
    if (rc != GPUOCC_OK)
        return cli_fail(io, "input", "%s", gpuocc_strerror(rc));
    if (json)
        print_report_json(out, &l, &r);
    else {
        if (example)
            fprintf(out, "(built-in example: gpuocc report --arch H100 --threads 256 --regs 64 --smem-dynamic 48K)\n");
        print_report_text(out, &l, &r);
    }
    /* a launch that fits no block cannot run: answered, but `gpuocc report ... && launch` must stop */
    if (r.blocks_per_sm == 0) {
        char lim[96];
        cli_limiters(r.limiters, lim, sizeof lim);
        cli_problem(io, "launch", "cannot run: 0 blocks fit on a multiprocessor (limited by %s)", lim);
        return CLI_PARTIAL;
    }
    return CLI_OK;
}

static const struct cli_option report_options[] = {
    CLI_LAUNCH_OPTIONS,
    {"--json", NULL, "one JSON object instead of text"},
    {"--example", NULL, "the built-in example (H100, 256 threads, 64 registers, 48 KiB dynamic)"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_report = {
    "report", cmd_report, "occupancy of one launch: limits, limiter, allocation, next step",
    "--arch NAME --threads N --regs N [options]  |  --example", report_options,
    "gpuocc report --arch H100 --threads 256 --regs 64 --smem-dynamic 48K\n"
    "gpuocc report --arch A100 --threads 256 --regs 32 --smem-static 48K --json\n"
    "gpuocc report --example\n"};

/* ---- devices ---- */

static int cmd_devices(struct cli_io *io, int argc, char **argv)
{
    FILE *out = io->out;
    bool json = false;
    struct cli_args a = {io, argc, argv, 1};
    for (; cli_more(&a); a.i++) {
        if (cli_switch(&a, "--json"))
            json = true;
        else
            cli_unknown(&a);
    }
    if (io->status)
        return io->status;
    if (json)
        fprintf(out, "[");
    else
        fprintf(out, "%-18s %-6s %5s %7s %6s %8s %9s %9s %5s  %s\n", "name", "arch", "SMs", "thr/SM", "blk/SM",
               "regs/blk", "smem/SM", "optin", "resv", "source");
    for (int32_t i = 0; i < gpuocc_catalog_count(); i++) {
        gpuocc_device d = {.size = sizeof d};
        gpuocc_catalog_device(i, &d);
        char arch[16];
        cli_arch_name(&d, arch, sizeof arch);
        if (!json) {
            fprintf(out, "%-18s %-6s %5d %7d %6d %8d %9lld %9lld %5lld  %s\n", gpuocc_catalog_name(i), arch, d.sm_count,
                   d.max_threads_per_sm, d.max_blocks_per_sm, d.regs_per_block, (long long)d.smem_per_sm_bytes,
                   (long long)d.smem_per_block_optin_bytes, (long long)d.smem_reserved_per_block_bytes,
                   gpuocc_catalog_source(i));
            continue;
        }
        bool first = true;
        fprintf(out, "%s{", i ? "," : "");
        json_key(out, &first, "name");
        json_string(out, gpuocc_catalog_name(i));
        json_key(out, &first, "kind");
        json_string(out, gpuocc_catalog_kind(i) == GPUOCC_CATALOG_ARCH ? "arch" : "product");
        json_key(out, &first, "arch");
        json_string(out, arch);
        struct {
            const char *key;
            long long v;
        } fields[] = {
            {"sm_count", d.sm_count},
            {"warp_size", d.warp_size},
            {"max_threads_per_block", d.max_threads_per_block},
            {"max_threads_per_sm", d.max_threads_per_sm},
            {"max_blocks_per_sm", d.max_blocks_per_sm},
            {"regs_per_sm", d.regs_per_sm},
            {"regs_per_block", d.regs_per_block},
            {"regs_per_thread_max", d.regs_per_thread_max},
            {"reg_alloc_unit", d.reg_alloc_unit},
            {"sub_partitions", d.sub_partitions},
            {"barriers_per_sm", d.barriers_per_sm},
            {"smem_per_sm", d.smem_per_sm_bytes},
            {"smem_per_block", d.smem_per_block_bytes},
            {"smem_per_block_optin", d.smem_per_block_optin_bytes},
            {"smem_reserved_per_block", d.smem_reserved_per_block_bytes},
            {"smem_alloc_unit", d.smem_alloc_unit_bytes},
        };
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
            json_key(out, &first, fields[f].key);
            fprintf(out, "%lld", fields[f].v);
        }
        json_key(out, &first, "carveouts_kib");
        fprintf(out, "[");
        for (int32_t c = 0; c < d.carveout_count; c++)
            fprintf(out, "%s%d", c ? "," : "", d.carveouts_kib[c]);
        fprintf(out, "]");
        json_key(out, &first, "source");
        json_string(out, gpuocc_catalog_source(i));
        fprintf(out, "}");
    }
    if (json)
        fprintf(out, "]\n");
    return CLI_OK;
}

static const struct cli_option devices_options[] = {
    {"--json", NULL, "a JSON array of objects instead of the table"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_devices = {
    "devices", cmd_devices, "the built-in architecture and product table, with sources", "[--json]",
    devices_options, "gpuocc devices\ngpuocc devices --json\n"};
