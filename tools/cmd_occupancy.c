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

/* ptxas allocates at most 255 registers per thread (CUDA C++ Programming Guide, "Technical Specifications per
   Compute Capability": maximum number of 32-bit registers per thread, 255), although from cc 7.0 the runtime's
   launch check accepts 256. */
#define PTXAS_MAX_REGS 255

/* The next step for one limiting resource, as the report shows it: none at full occupancy (more blocks
   would not add warps), and never more registers than the compiler can allocate.  GPUOCC_ERR_RESOURCE when
   the resource does not limit (or nothing is to be gained). */
static int32_t next_step(const struct cli_launch *l, const gpuocc_result *r, int32_t resource, int64_t *value,
                         int64_t *shed)
{
    if (!(r->limiters & (1u << resource)) || r->warps_per_sm >= r->max_warps_per_sm)
        return GPUOCC_ERR_RESOURCE;
    int32_t rc = gpuocc_next_step(&l->dev, &l->k, resource, value, shed);
    if (rc != GPUOCC_OK)
        return rc;
    if (*shed <= 0)
        return GPUOCC_ERR_RESOURCE;
    int64_t most = PTXAS_MAX_REGS;
    if (resource == GPUOCC_RESOURCE_REGISTERS && *value > most) {
        /* fewer registers never fit fewer blocks, so the compiler's most still gains the block */
        *shed += *value - most;
        *value = most;
    }
    return GPUOCC_OK;
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
        int64_t value, shed;
        int32_t rc = next_step(l, r, i, &value, &shed);
        if (rc == GPUOCC_OK)
            fprintf(out, "next step   %s: %lld -> %lld (shed %lld) for %d blocks/SM\n", resource_demand_name(i),
                    (long long)(value + shed), (long long)value, (long long)shed, r->blocks_per_sm + 1);
        else if (rc == GPUOCC_ERR_UNSATISFIABLE && i == GPUOCC_RESOURCE_BLOCKS)
            fprintf(out, "next step   the block-slot cap binds: use larger blocks to hold more warps\n");
        else if (rc == GPUOCC_ERR_UNSATISFIABLE)
            fprintf(out, "next step   %s: no reduction alone gains a block\n", resource_demand_name(i));
    }
    if (l->k.regs_per_thread > PTXAS_MAX_REGS)
        fprintf(out, "note        %d registers per thread is more than ptxas allocates (%d)\n", l->k.regs_per_thread,
                PTXAS_MAX_REGS);
}

/* The report's fields, in order, for --json and --csv alike (docs/output.md lists them). */
enum field_kind { F_TEXT, F_INT, F_COUNT, F_LIMIT, F_FIXED6, F_LIMITERS };
struct field {
    const char *key;
    enum field_kind kind; /* F_COUNT: 0 = unknown; F_LIMIT: GPUOCC_UNLIMITED = no limit (-1 / null) */
    const char *text;
    int64_t n;
    double x;
};

static size_t report_fields(const struct cli_launch *l, const gpuocc_result *r, char *arch, size_t cap,
                            struct field *f)
{
    cli_arch_name(&l->dev, arch, cap);
    size_t n = 0;
    f[n++] = (struct field){"device", F_TEXT, l->dev_name, 0, 0};
    f[n++] = (struct field){"arch", F_TEXT, arch, 0, 0};
    f[n++] = (struct field){"sm_count", F_COUNT, NULL, l->dev.sm_count, 0};
    f[n++] = (struct field){"threads", F_INT, NULL, l->k.threads_per_block, 0};
    f[n++] = (struct field){"regs", F_INT, NULL, l->k.regs_per_thread, 0};
    f[n++] = (struct field){"smem_static", F_INT, NULL, l->k.smem_static_bytes, 0};
    f[n++] = (struct field){"smem_dynamic", F_INT, NULL, l->k.smem_dynamic_bytes, 0};
    f[n++] = (struct field){"barriers", F_INT, NULL, l->k.barriers, 0};
    f[n++] = (struct field){"carveout", F_INT, NULL, l->k.carveout_percent, 0};
    f[n++] = (struct field){"smem_optin", F_INT, NULL, l->k.smem_optin, 0};
    f[n++] = (struct field){"blocks_per_sm", F_INT, NULL, r->blocks_per_sm, 0};
    f[n++] = (struct field){"warps_per_sm", F_INT, NULL, r->warps_per_sm, 0};
    f[n++] = (struct field){"max_warps_per_sm", F_INT, NULL, r->max_warps_per_sm, 0};
    f[n++] = (struct field){"occupancy", F_FIXED6, NULL, 0, r->occupancy};
    f[n++] = (struct field){"limiters", F_LIMITERS, NULL, r->limiters, 0};
    f[n++] = (struct field){"limit_warps", F_LIMIT, NULL, r->limit_warps, 0};
    f[n++] = (struct field){"limit_regs", F_LIMIT, NULL, r->limit_regs, 0};
    f[n++] = (struct field){"limit_smem", F_LIMIT, NULL, r->limit_smem, 0};
    f[n++] = (struct field){"limit_blocks", F_LIMIT, NULL, r->limit_blocks, 0};
    f[n++] = (struct field){"limit_barriers", F_LIMIT, NULL, r->limit_barriers, 0};
    f[n++] = (struct field){"regs_per_block", F_INT, NULL, r->regs_per_block, 0};
    f[n++] = (struct field){"smem_per_block", F_INT, NULL, r->smem_per_block_bytes, 0};
    f[n++] = (struct field){"smem_per_sm", F_INT, NULL, r->smem_per_sm_bytes, 0};
    return n;
}

static void print_field(FILE *out, const struct field *f, bool json)
{
    bool unknown = (f->kind == F_COUNT && f->n <= 0) || (f->kind == F_LIMIT && f->n == GPUOCC_UNLIMITED);
    if (unknown)
        fputs(json ? "null" : "-1", out);
    else if (f->kind == F_TEXT) {
        if (json)
            json_string(out, f->text);
        else
            csv_cell(out, f->text, strlen(f->text));
    } else if (f->kind == F_FIXED6)
        fprintf(out, "%.6f", f->x);
    else if (f->kind == F_LIMITERS) {
        if (json)
            json_limiters(out, (uint32_t)f->n);
        else {
            char lim[96];
            cli_limiters((uint32_t)f->n, lim, sizeof lim);
            fputs(lim, out);
        }
    } else
        fprintf(out, "%lld", (long long)f->n);
}

static void print_report_json(FILE *out, const struct cli_launch *l, const gpuocc_result *r)
{
    struct field f[32];
    char arch[16];
    size_t n = report_fields(l, r, arch, sizeof arch, f);
    bool first = true;
    fputc('{', out);
    for (size_t i = 0; i < n; i++) {
        json_key(out, &first, f[i].key);
        print_field(out, &f[i], true);
    }
    json_key(out, &first, "next_steps");
    fputc('[', out);
    bool first_step = true;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++) {
        int64_t value, shed;
        if (next_step(l, r, i, &value, &shed) != GPUOCC_OK)
            continue;
        fprintf(out, "%s{\"resource\":", first_step ? "" : ",");
        json_string(out, gpuocc_resource_name(i));
        fprintf(out, ",\"new_value\":%lld,\"shed\":%lld}", (long long)value, (long long)shed);
        first_step = false;
    }
    fputs("]}\n", out);
}

static void print_report_csv(FILE *out, const struct cli_launch *l, const gpuocc_result *r)
{
    struct field f[32];
    char arch[16];
    size_t n = report_fields(l, r, arch, sizeof arch, f);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? "," : "", f[i].key);
    fputc('\n', out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        print_field(out, &f[i], false);
    }
    fputc('\n', out);
}

static int cmd_report(struct cli_io *io, int argc, char **argv)
{
    FILE *out = io->out;
    struct cli_launch l;
    cli_launch_init(&l);
    bool json = false, csv = false, example = false;
    struct cli_args a = {io, argc, argv, 1};
    for (; cli_more(&a); a.i++) {
        if (cli_launch_flag(&a, &l))
            continue;
        if (cli_switch(&a, "--json"))
            json = true;
        else if (cli_switch(&a, "--csv"))
            csv = true;
        else if (cli_switch(&a, "--example"))
            example = true;
        else
            cli_unknown(&a);
    }
    if (io->status)
        return io->status;
    if (json && csv)
        return cli_fail(io, "--csv", "cannot be combined with --json");
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
    else if (csv)
        print_report_csv(out, &l, &r);
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
    {"--csv", NULL, "a CSV header and one row instead of text"},
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

/* Lower case without spaces, '-' and '_' ("RTX-4090" and "rtx 4090" are one name), at most cap-1 bytes. */
static void normalize(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if (*s != ' ' && *s != '-' && *s != '_')
            out[n++] = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
    out[n] = '\0';
}

/* Whether table entry i answers one of the filters: a part of its name, or its architecture (sm_90). */
static bool matches(int32_t i, const char *arch, char **filters, int n)
{
    if (n == 0)
        return true;
    char name[96], want[96], arch_n[32];
    normalize(gpuocc_catalog_name(i), name, sizeof name);
    normalize(arch, arch_n, sizeof arch_n);
    for (int f = 0; f < n; f++) {
        normalize(filters[f], want, sizeof want);
        if (*want && (strstr(name, want) || !strcmp(arch_n, want)))
            return true;
    }
    return false;
}

static int cmd_devices(struct cli_io *io, int argc, char **argv)
{
    FILE *out = io->out;
    bool json = false;
    char **filters = calloc((size_t)argc + 1, sizeof *filters);
    int nfilters = 0;
    if (!filters)
        return cli_fail(io, "devices", "out of memory");
    struct cli_args a = {io, argc, argv, 1};
    for (; cli_more(&a); a.i++) {
        if (cli_switch(&a, "--json"))
            json = true;
        else if (argv[a.i][0] != '-')
            filters[nfilters++] = argv[a.i];
        else
            cli_unknown(&a);
    }
    int shown = 0;
    for (int32_t i = 0; i < gpuocc_catalog_count() && !io->status; i++) {
        gpuocc_device d = {.size = sizeof d};
        gpuocc_catalog_device(i, &d);
        char arch[16];
        cli_arch_name(&d, arch, sizeof arch);
        if (!matches(i, arch, filters, nfilters))
            continue;
        if (shown++ == 0) {
            if (json)
                fputc('[', out);
            else
                fprintf(out, "%-18s %-7s %4s %6s %6s %7s %7s %7s %5s  %s\n", "name", "arch", "SMs", "thr/SM", "blk/SM",
                        "regs/SM", "smem/SM", "optin", "resv", "source (full: --json)");
        }
        if (!json) {
            /* 100 columns: the source is cut to fit (--json carries it whole) */
            char sms[16] = "-";
            if (d.sm_count > 0)
                snprintf(sms, sizeof sms, "%d", d.sm_count);
            const char *src = gpuocc_catalog_source(i);
            int room = 100 - 81;
            if ((int)strlen(src) <= room)
                fprintf(out, "%-18s %-7s %4s %6d %6d %7d %7lld %7lld %5lld  %s\n", gpuocc_catalog_name(i), arch, sms,
                        d.max_threads_per_sm, d.max_blocks_per_sm, d.regs_per_sm, (long long)d.smem_per_sm_bytes,
                        (long long)d.smem_per_block_optin_bytes, (long long)d.smem_reserved_per_block_bytes, src);
            else
                fprintf(out, "%-18s %-7s %4s %6d %6d %7d %7lld %7lld %5lld  %.*s...\n", gpuocc_catalog_name(i), arch,
                        sms, d.max_threads_per_sm, d.max_blocks_per_sm, d.regs_per_sm, (long long)d.smem_per_sm_bytes,
                        (long long)d.smem_per_block_optin_bytes, (long long)d.smem_reserved_per_block_bytes, room - 3,
                        src);
            continue;
        }
        int32_t i_first = shown == 1 ? 0 : 1;
        bool first = true;
        fprintf(out, "%s{", i_first ? "," : "");
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
            if (f == 0 && fields[f].v <= 0)
                fputs("null", out); /* an architecture: no SM count */
            else
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
    if (json && shown)
        fprintf(out, "]\n");
    if (!shown && !io->status) {
        /* nothing matched: say what might have been meant */
        const char *names[256];
        size_t n = 0;
        for (int32_t i = 0; i < gpuocc_catalog_count() && n < 256; i++)
            names[n++] = gpuocc_catalog_name(i);
        const char *near = cli_nearest(filters[0], names, n);
        cli_fail(io, filters[0], "no device matches%s%s%s", near ? "; did you mean '" : "", near ? near : "",
                 near ? "'?" : "");
    }
    free(filters);
    return io->status;
}

static const struct cli_option devices_options[] = {
    {"--json", NULL, "a JSON array of objects (every field, whole sources) instead of the table"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_devices = {
    "devices", cmd_devices, "the built-in architecture and product table, with sources", "[NAME|ARCH...] [--json]",
    devices_options, "gpuocc devices\ngpuocc devices H100\ngpuocc devices sm_90 --json\n"};
