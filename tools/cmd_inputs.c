/* gpuocc ptxas / gpuocc cubin: every kernel of a ptxas report or of device code, with its occupancy. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

struct input_options {
    const char *path, *arch;
    gpuocc_device forced; /* --arch, looked up before any input is read */
    int32_t threads;
    bool best, json, csv;
};

/* The whole of a file or stdin; exits naming the file when it cannot be read. */
static char *slurp(const char *path, size_t *length)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        cli_fail(path, "cannot open");
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *bigger = cap < ((size_t)1 << 40) ? realloc(buf, cap *= 2) : NULL;
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    if (!buf || ferror(f))
        cli_fail(path, "cannot read");
    if (f != stdin)
        fclose(f);
    *length = n;
    return buf;
}

static void parse_options(int argc, char **argv, struct input_options *o)
{
    *o = (struct input_options){.path = NULL};
    struct cli_args a = {argc, argv, 1};
    for (; a.i < argc; a.i++) {
        const char *v;
        if (cli_flag(&a, "--threads", &v))
            o->threads = cli_int("--threads", v, 1, INT32_MAX);
        else if (cli_flag(&a, "--arch", &v))
            o->arch = v;
        else if (cli_switch(&a, "--best-block"))
            o->best = true;
        else if (cli_switch(&a, "--json"))
            o->json = true;
        else if (cli_switch(&a, "--csv"))
            o->csv = true;
        else if ((argv[a.i][0] != '-' || !strcmp(argv[a.i], "-")) && !o->path)
            o->path = argv[a.i];
        else
            cli_unknown(&a);
    }
    if (!o->threads && !o->best)
        cli_fail("--threads", "give --threads N or --best-block");
    if (o->threads && o->best)
        cli_fail("--best-block", "cannot be combined with --threads");
    if (o->json && o->csv)
        cli_fail("--csv", "cannot be combined with --json");
    o->forced.size = sizeof o->forced;
    if (o->arch)
        cli_device("--arch", o->arch, &o->forced);
}

/* One kernel's occupancy on its own target or on --arch. */
struct row {
    char name[512], short_name[512], arch[16];
    const char *status;
    int32_t threads;
    gpuocc_result r;
    char limiters[96];
};

static void evaluate(const char *origin, const gpuocc_compiled_kernel *k, const struct input_options *o,
                     struct row *row)
{
    snprintf(row->name, sizeof row->name, "%.*s", (int)k->name_length, origin + k->name_offset);
    snprintf(row->short_name, sizeof row->short_name, "%.*s", (int)k->short_length, origin + k->short_offset);
    gpuocc_device dev = o->forced;
    row->status = "ok";
    if (!o->arch) {
        char target[16];
        snprintf(target, sizeof target, "sm_%d", k->cc);
        dev.size = sizeof dev;
        if (gpuocc_device_lookup(target, &dev) != GPUOCC_OK)
            row->status = "unknown_device";
    }
    snprintf(row->arch, sizeof row->arch, "sm_%d", o->arch ? dev.cc_major * 10 + dev.cc_minor : k->cc);
    gpuocc_kernel kern;
    gpuocc_kernel_init(&kern);
    kern.regs_per_thread = k->registers;
    kern.barriers = k->barriers < 0 ? 1 : k->barriers;
    kern.smem_static_bytes = k->smem_bytes;
    kern.max_threads_per_block = k->max_threads_per_block;
    kern.threads_per_block = o->threads ? o->threads : 1;
    row->r = (gpuocc_result){.size = sizeof row->r};
    row->limiters[0] = '\0';
    if (!strcmp(row->status, "ok") && o->best) {
        int32_t t = 0, grid;
        gpuocc_best_block_affine(&dev, &kern, 0, 0, &t, &grid);
        kern.threads_per_block = t ? t : 1;
    }
    row->threads = kern.threads_per_block;
    if (!strcmp(row->status, "ok") && k->max_threads_per_block > 0 && row->threads > k->max_threads_per_block)
        row->status = "exceeds_launch_bounds"; /* the launch would fail */
    if (!strcmp(row->status, "ok")) {
        int32_t rc = gpuocc_occupancy(&dev, &kern, &row->r);
        if (rc != GPUOCC_OK)
            row->status = gpuocc_status_name(rc);
        else
            cli_limiters(row->r.limiters, row->limiters, sizeof row->limiters);
    }
}

/* A count the source may not record (-1): JSON null, an empty CSV cell, "-" in the table. */
static void put_count(int64_t v, const char *unknown)
{
    if (v < 0)
        printf("%s", unknown);
    else
        printf("%lld", (long long)v);
}

static void print_json(const gpuocc_compiled_kernel *k, const struct row *row, bool first_row)
{
    bool first = true;
    printf("%s{", first_row ? "" : ",");
    json_key(stdout, &first, "name");
    json_string(stdout, row->name);
    json_key(stdout, &first, "short_name");
    json_string(stdout, row->short_name);
    json_key(stdout, &first, "arch");
    json_string(stdout, row->arch);
    const struct {
        const char *key;
        int64_t value;
    } counts[] = {
        {"registers", k->registers},
        {"barriers", k->barriers},
        {"smem", k->smem_bytes},
        {"cmem", k->cmem_bytes},
        {"stack", k->stack_frame_bytes},
        {"spill_stores", k->spill_store_bytes},
        {"spill_loads", k->spill_load_bytes},
        {"max_regs", k->max_regs_per_thread},
        {"max_threads", k->max_threads_per_block},
        {"min_blocks", k->min_blocks_per_sm},
        {"cluster_x", k->cluster_x},
        {"cluster_y", k->cluster_y},
        {"cluster_z", k->cluster_z},
        {"threads", row->threads},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        json_key(stdout, &first, counts[i].key);
        put_count(counts[i].value, "null");
    }
    json_key(stdout, &first, "status");
    json_string(stdout, row->status);
    printf(",\"blocks_per_sm\":%d,\"warps_per_sm\":%d,\"occupancy\":%.6f,\"limiters\":", row->r.blocks_per_sm,
           row->r.warps_per_sm, row->r.occupancy);
    json_string(stdout, row->limiters);
    printf("}");
}

static void print_csv(const gpuocc_compiled_kernel *k, const struct row *row)
{
    printf("%s,%s,%s", row->name, row->short_name, row->arch);
    const int64_t counts[] = {k->registers, k->barriers, k->smem_bytes, k->cmem_bytes, k->stack_frame_bytes,
                              k->spill_store_bytes, k->spill_load_bytes, k->max_regs_per_thread,
                              k->max_threads_per_block, k->min_blocks_per_sm, k->cluster_x, k->cluster_y,
                              k->cluster_z, row->threads};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        printf(",");
        put_count(counts[i], "");
    }
    printf(",%s,%d,%d,%.6f,%s\n", row->status, row->r.blocks_per_sm, row->r.warps_per_sm, row->r.occupancy,
           row->limiters);
}

static void print_table_row(const gpuocc_compiled_kernel *k, const struct row *row)
{
    printf("%-36.36s %-7s %4d ", row->short_name, row->arch, k->registers);
    const int64_t counts[] = {k->barriers, k->smem_bytes, k->stack_frame_bytes, k->spill_store_bytes,
                              k->max_threads_per_block > 0 ? k->max_threads_per_block : -1};
    const int widths[] = {3, 7, 6, 6, 6};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        char cell[32] = "-";
        if (counts[i] >= 0)
            snprintf(cell, sizeof cell, "%lld", (long long)counts[i]);
        printf("%*s ", widths[i], cell);
    }
    printf("%7d %6d %8.1f%%  %s\n", row->threads, row->r.blocks_per_sm, 100 * row->r.occupancy,
           strcmp(row->status, "ok") ? row->status : row->limiters);
}

static void print_kernels(const char *origin, const gpuocc_compiled_kernel *ks, int32_t count,
                          const struct input_options *o)
{
    if (o->json)
        printf("[");
    else if (o->csv)
        printf("name,short_name,arch,registers,barriers,smem,cmem,stack,spill_stores,spill_loads,max_regs,"
               "max_threads,min_blocks,cluster_x,cluster_y,cluster_z,threads,status,blocks_per_sm,warps_per_sm,"
               "occupancy,limiters\n");
    else
        printf("%-36s %-7s %4s %3s %7s %6s %6s %6s %7s %6s %9s  %s\n", "kernel", "arch", "regs", "bar", "smem",
               "stack", "spill", "bound", "threads", "blk/SM", "occupancy", "limited by");
    for (int32_t i = 0; i < count; i++) {
        struct row row;
        evaluate(origin, &ks[i], o, &row);
        if (o->json)
            print_json(&ks[i], &row, i == 0);
        else if (o->csv)
            print_csv(&ks[i], &row);
        else
            print_table_row(&ks[i], &row);
    }
    if (o->json)
        printf("]\n");
}

/* Room for `count` records; on failure frees `input` and exits. */
static gpuocc_compiled_kernel *allocate(const char *path, int32_t count, char *input)
{
    gpuocc_compiled_kernel *ks = calloc(count ? (size_t)count : 1, sizeof *ks);
    if (!ks) {
        free(input);
        cli_fail(path, "out of memory");
    }
    return ks;
}

int cmd_ptxas(int argc, char **argv)
{
    struct input_options o;
    parse_options(argc, argv, &o);
    const char *path = o.path ? o.path : "-";
    size_t length;
    char *text = slurp(path, &length);
    int32_t count = 0, line = 0;
    int32_t rc = gpuocc_ptxas_parse(text, length, NULL, 0, &count, &line);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        free(text);
        cli_fail(path, "line %d: %s", line, gpuocc_strerror(rc));
    }
    gpuocc_compiled_kernel *ks = allocate(path, count, text);
    gpuocc_ptxas_parse(text, length, ks, count, &count, &line);
    print_kernels(text, ks, count, &o);
    free(ks);
    free(text);
    return 0;
}

int cmd_cubin(int argc, char **argv)
{
    struct input_options o;
    parse_options(argc, argv, &o);
    if (!o.path)
        cli_fail("FILE", "give a cubin, fatbinary or CUDA host object (or - for stdin)");
    size_t length;
    char *data = slurp(o.path, &length);
    int32_t count = 0;
    int32_t rc = gpuocc_cubin_read(data, length, NULL, 0, &count);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        free(data);
        cli_fail(o.path, "%s", gpuocc_strerror(rc));
    }
    gpuocc_compiled_kernel *ks = allocate(o.path, count, data);
    gpuocc_cubin_read(data, length, ks, count, &count);
    print_kernels(data, ks, count, &o);
    free(ks);
    free(data);
    return 0;
}
