/* gpuocc ptxas: every kernel of a ptxas report (a whole build log), with its occupancy. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

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

int cmd_ptxas(int argc, char **argv)
{
    const char *path = "-", *arch = NULL;
    int32_t threads = 0;
    bool best = false, json = false, csv = false;
    struct cli_args a = {argc, argv, 1};
    for (; a.i < argc; a.i++) {
        const char *v;
        if (cli_flag(&a, "--threads", &v))
            threads = cli_int("--threads", v, 1, INT32_MAX);
        else if (cli_flag(&a, "--arch", &v))
            arch = v;
        else if (cli_switch(&a, "--best-block"))
            best = true;
        else if (cli_switch(&a, "--json"))
            json = true;
        else if (cli_switch(&a, "--csv"))
            csv = true;
        else if (argv[a.i][0] != '-' || !strcmp(argv[a.i], "-"))
            path = argv[a.i];
        else
            cli_unknown(&a);
    }
    if (!threads && !best)
        cli_fail("--threads", "give --threads N or --best-block");
    if (threads && best)
        cli_fail("--best-block", "cannot be combined with --threads");
    gpuocc_device forced;
    if (arch)
        cli_device("--arch", arch, &forced);

    size_t length;
    char *text = slurp(path, &length);
    int32_t count = 0, line = 0;
    int32_t rc = gpuocc_ptxas_parse(text, length, NULL, 0, &count, &line);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER)
        cli_fail(path, "line %d: %s", line, gpuocc_strerror(rc));
    gpuocc_ptxas_kernel *ks = calloc(count ? (size_t)count : 1, sizeof *ks);
    if (!ks)
        cli_fail(path, "out of memory");
    gpuocc_ptxas_parse(text, length, ks, count, &count, &line);

    if (json)
        printf("[");
    else if (csv)
        printf("name,short_name,arch,registers,barriers,smem,stack,spill_stores,spill_loads,threads,status,"
               "blocks_per_sm,warps_per_sm,occupancy,limiters\n");
    else
        printf("%-40s %-7s %5s %4s %8s %7s %7s %7s %7s %9s  %s\n", "kernel", "arch", "regs", "bar", "smem", "spill-st",
               "spill-ld", "threads", "blk/SM", "occupancy", "limited by");
    for (int32_t i = 0; i < count; i++) {
        const gpuocc_ptxas_kernel *k = &ks[i];
        char name[512], shrt[512], archname[16];
        snprintf(name, sizeof name, "%.*s", (int)k->name_length, text + k->name_offset);
        snprintf(shrt, sizeof shrt, "%.*s", (int)k->short_length, text + k->short_offset);
        gpuocc_device dev = forced;
        const char *status = "ok";
        if (!arch) {
            char target[16];
            snprintf(target, sizeof target, "sm_%d", k->cc);
            dev.size = sizeof dev;
            if (gpuocc_device_lookup(target, &dev) != GPUOCC_OK)
                status = "unknown_device";
        }
        snprintf(archname, sizeof archname, "sm_%d", arch ? dev.cc_major * 10 + dev.cc_minor : k->cc);
        gpuocc_kernel kern;
        gpuocc_kernel_init(&kern);
        kern.regs_per_thread = k->registers;
        kern.barriers = k->barriers < 0 ? 1 : k->barriers;
        kern.smem_static_bytes = k->smem_bytes;
        kern.threads_per_block = threads ? threads : 1;
        gpuocc_result r = {.size = sizeof r};
        if (!strcmp(status, "ok") && best) {
            int32_t t, grid;
            gpuocc_best_block_affine(&dev, &kern, 0, 0, &t, &grid);
            kern.threads_per_block = t ? t : 1;
        }
        if (!strcmp(status, "ok")) {
            rc = gpuocc_occupancy(&dev, &kern, &r);
            if (rc)
                status = gpuocc_status_name(rc);
        }
        char lim[96] = "";
        if (!strcmp(status, "ok"))
            cli_limiters(r.limiters, lim, sizeof lim);
        if (json) {
            bool first = true;
            printf("%s{", i ? "," : "");
            json_key(stdout, &first, "name");
            json_string(stdout, name);
            json_key(stdout, &first, "short_name");
            json_string(stdout, shrt);
            json_key(stdout, &first, "arch");
            json_string(stdout, archname);
            printf(",\"registers\":%d,\"barriers\":%d,\"smem\":%lld,\"stack\":%lld,\"spill_stores\":%lld,"
                   "\"spill_loads\":%lld,\"threads\":%d,",
                   k->registers, k->barriers, (long long)k->smem_bytes, (long long)k->stack_frame_bytes,
                   (long long)k->spill_store_bytes, (long long)k->spill_load_bytes, kern.threads_per_block);
            first = true;
            json_key(stdout, &first, "status");
            json_string(stdout, status);
            printf(",\"blocks_per_sm\":%d,\"warps_per_sm\":%d,\"occupancy\":%.6f,\"limiters\":", r.blocks_per_sm,
                   r.warps_per_sm, r.occupancy);
            json_string(stdout, lim);
            printf("}");
        } else if (csv) {
            printf("%s,%s,%s,%d,%d,%lld,%lld,%lld,%lld,%d,%s,%d,%d,%.6f,%s\n", name, shrt, archname, k->registers,
                   k->barriers, (long long)k->smem_bytes, (long long)k->stack_frame_bytes,
                   (long long)k->spill_store_bytes, (long long)k->spill_load_bytes, kern.threads_per_block, status,
                   r.blocks_per_sm, r.warps_per_sm, r.occupancy, lim);
        } else {
            printf("%-40.40s %-7s %5d %4d %8lld %7lld %7lld %7d %7d %8.1f%%  %s\n", shrt, archname, k->registers,
                   k->barriers, (long long)k->smem_bytes, (long long)k->spill_store_bytes,
                   (long long)k->spill_load_bytes, kern.threads_per_block, r.blocks_per_sm, 100 * r.occupancy,
                   strcmp(status, "ok") ? status : lim);
        }
    }
    if (json)
        printf("]\n");
    free(ks);
    free(text);
    return 0;
}
