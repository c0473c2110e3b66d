/* gpuocc remarks: every kernel of LLVM's AMDGPU resource-usage remarks, with its occupancy on --arch (the
   remarks do not name the target), as gpuocc ptxas reads ptxas reports. */
#define _POSIX_C_SOURCE 200809L
#include "inputs.h"

#include <stdlib.h>
#include <string.h>

struct remarks_options {
    struct cli_launch launch;
    const char **paths;
    int npaths;
    bool best, json, csv, begun;
    int64_t rows;
    /* the launch flags that replace a remark's figure ("what if") */
    bool have_agprs, have_sgprs, have_max_threads;
    int64_t max_record_bytes; /* the most text kept between two records */
};

/* One kernel's answer. */
struct remarks_row {
    gpuocc_kernel k;
    gpuocc_result r;
    const char *status;
};

static void evaluate(const struct remarks_options *o, const gpuocc_remarks_kernel *rk, struct remarks_row *row)
{
    const struct cli_launch *l = &o->launch;
    gpuocc_kernel k = l->k;
    /* the compiler's figures, unless a flag replaces them; -1 (not printed, or an unresolved expression) */
    k.regs_per_thread = l->have_regs ? l->k.regs_per_thread : rk->vgprs;
    k.agprs = o->have_agprs ? l->k.agprs : rk->agprs < 0 ? 0 : rk->agprs;
    k.sgprs = o->have_sgprs ? l->k.sgprs : rk->sgprs < 0 ? 0 : rk->sgprs;
    k.smem_static_bytes = l->have_smem_static ? l->k.smem_static_bytes : rk->lds_bytes < 0 ? 0 : rk->lds_bytes;
    row->status = "ok";
    row->r = (gpuocc_result){.size = sizeof row->r};
    if (k.regs_per_thread < 0) {
        row->status = "unresolved"; /* LLVM printed an expression, not a number of VGPRs */
        row->k = k;
        return;
    }
    if (o->best) {
        int32_t t = 0, grid = 0;
        int32_t rc = gpuocc_best_block_affine(&l->dev, &k, k.smem_dynamic_bytes, 0, &t, &grid);
        if (rc != GPUOCC_OK) {
            row->status = gpuocc_status_name(rc);
            row->k = k;
            return;
        }
        k.threads_per_block = t ? t : 1;
    }
    row->k = k;
    int32_t rc = gpuocc_occupancy(&l->dev, &k, &row->r);
    if (rc != GPUOCC_OK)
        row->status = gpuocc_status_name(rc);
}

static bool answered(const struct remarks_row *row)
{
    return strcmp(row->status, "ok") == 0;
}

/* A figure LLVM did not print (-1): JSON null, -1 in CSV, "-" in the table. */
static void put_count(FILE *out, int64_t v, const char *unknown)
{
    if (v < 0)
        fputs(unknown, out);
    else
        fprintf(out, "%lld", (long long)v);
}

static const char *model_of(const gpuocc_kernel *k)
{
    return k->model == GPUOCC_MODEL_RUNTIME ? "runtime" : "compiler";
}

static int32_t wave_of(const struct remarks_options *o, const gpuocc_kernel *k)
{
    return k->wave_size ? k->wave_size : o->launch.dev.warp_size;
}

static void print_json(FILE *out, const struct remarks_options *o, const char *file, const char *text,
                       const gpuocc_remarks_kernel *rk, const struct remarks_row *row)
{
    char arch[16];
    cli_arch_name(&o->launch.dev, arch, sizeof arch);
    bool first = true;
    fprintf(out, "%s{", o->rows ? "," : "");
    json_key(out, &first, "file");
    json_string(out, file);
    json_key(out, &first, "name");
    json_string_n(out, text + rk->name_offset, (size_t)rk->name_length);
    json_key(out, &first, "short_name");
    json_string_n(out, text + rk->short_offset, (size_t)rk->short_length);
    json_key(out, &first, "arch");
    json_string(out, arch);
    const struct {
        const char *key;
        int64_t v;
    } counts[] = {
        {"line", rk->line},
        {"sgprs", rk->sgprs},
        {"vgprs", rk->vgprs},
        {"agprs", rk->agprs},
        {"scratch", rk->scratch_bytes},
        {"dynamic_stack", rk->dynamic_stack},
        {"sgpr_spills", rk->sgpr_spills},
        {"vgpr_spills", rk->vgpr_spills},
        {"smem_static", rk->lds_bytes},
        {"llvm_waves_per_simd", rk->occupancy},
        {"threads", row->k.threads_per_block},
        {"max_threads", row->k.max_threads_per_block > 0 ? row->k.max_threads_per_block : -1},
        {"wave_size", wave_of(o, &row->k)},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        json_key(out, &first, counts[i].key);
        put_count(out, counts[i].v, "null");
    }
    json_key(out, &first, "model");
    json_string(out, model_of(&row->k));
    json_key(out, &first, "status");
    json_string(out, row->status);
    if (answered(row)) {
        fprintf(out, ",\"blocks_per_sm\":%d,\"warps_per_sm\":%d,\"occupancy\":%.6f,\"waves_per_simd\":%d,\"limiters\":",
                row->r.blocks_per_sm, row->r.warps_per_sm, row->r.occupancy, row->r.waves_per_simd);
        json_limiters(out, row->r.limiters);
    } else
        fputs(",\"blocks_per_sm\":null,\"warps_per_sm\":null,\"occupancy\":null,\"waves_per_simd\":null,\"limiters\":null",
              out);
    fputc('}', out);
}

static void print_csv(FILE *out, const struct remarks_options *o, const char *file, const char *text,
                      const gpuocc_remarks_kernel *rk, const struct remarks_row *row)
{
    char arch[16];
    cli_arch_name(&o->launch.dev, arch, sizeof arch);
    csv_cell(out, text + rk->name_offset, (size_t)rk->name_length);
    fputc(',', out);
    csv_cell(out, text + rk->short_offset, (size_t)rk->short_length);
    fprintf(out, ",%s", arch);
    const int64_t counts[] = {rk->line, rk->sgprs, rk->vgprs, rk->agprs, rk->scratch_bytes, rk->dynamic_stack,
                              rk->sgpr_spills, rk->vgpr_spills, rk->lds_bytes, rk->occupancy,
                              row->k.threads_per_block,
                              row->k.max_threads_per_block > 0 ? row->k.max_threads_per_block : -1,
                              wave_of(o, &row->k)};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        fputc(',', out);
        put_count(out, counts[i], "-1");
    }
    fprintf(out, ",%s,%s", model_of(&row->k), row->status);
    if (answered(row)) {
        char lim[96];
        cli_limiters(row->r.limiters, lim, sizeof lim);
        fprintf(out, ",%d,%d,%.6f,%d,%s,", row->r.blocks_per_sm, row->r.warps_per_sm, row->r.occupancy,
                row->r.waves_per_simd, lim);
    } else
        fputs(",,,,,,", out);
    csv_cell(out, file, strlen(file));
    fputc('\n', out);
}

static void print_table_row(FILE *out, const char *text, const gpuocc_remarks_kernel *rk,
                            const struct remarks_row *row)
{
    /* a table for the eye: the short name fits its column; --csv and --json carry whole names */
    int n = (int)(rk->short_length < 30 ? rk->short_length : 30);
    fprintf(out, "%-30.*s", n, text + rk->short_offset);
    const int64_t counts[] = {rk->vgprs, rk->agprs, rk->sgprs, rk->lds_bytes, rk->scratch_bytes,
                              rk->vgpr_spills < 0 && rk->sgpr_spills < 0 ? -1
                              : (rk->vgpr_spills > 0 ? rk->vgpr_spills : 0) + (rk->sgpr_spills > 0 ? rk->sgpr_spills : 0),
                              rk->occupancy};
    const int widths[] = {6, 6, 6, 7, 6, 6, 5};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        char cell[32] = "-";
        if (counts[i] >= 0)
            snprintf(cell, sizeof cell, "%lld", (long long)counts[i]);
        fprintf(out, " %*s", widths[i], cell);
    }
    if (!answered(row)) {
        fprintf(out, " %6s %7d %6s %8s  %s\n", "-", row->k.threads_per_block, "-", "-", row->status);
        return;
    }
    char lim[96];
    cli_limiters(row->r.limiters, lim, sizeof lim);
    fprintf(out, " %6d %7d %6d %7.1f%%  %s\n", row->r.waves_per_simd, row->k.threads_per_block, row->r.blocks_per_sm,
            100 * row->r.occupancy, lim);
}

/* The header (or "["), written before the first row so that a run that reads nothing prints nothing. */
static void begin(FILE *out, struct remarks_options *o)
{
    if (o->begun)
        return;
    o->begun = true;
    if (o->json)
        fputc('[', out);
    else if (o->csv)
        fputs("name,short_name,arch,line,sgprs,vgprs,agprs,scratch,dynamic_stack,sgpr_spills,vgpr_spills,smem_static,"
              "llvm_waves_per_simd,threads,max_threads,wave_size,model,status,blocks_per_sm,warps_per_sm,occupancy,"
              "waves_per_simd,limiters,file\n",
              out);
    else
        fprintf(out, "%-30s %6s %6s %6s %7s %6s %6s %5s %6s %7s %6s %8s  %s\n", "kernel", "VGPRs", "AGPRs", "SGPRs",
                "LDS", "scr/ln", "spills", "LLVM", "gpuocc", "threads", "blk/CU", "occupancy", "limited by");
}

/* ---- one log, read window by window ----
   A window is cut before a "Function Name" remark (it closes the record before it, as the end of a text
   does, and opens its own), so every window reads as it would inside the whole log.  A record whose remarks
   are followed by a long run of other lines (a build's output after the last kernel) is kept with its
   remarks only: the lines of the run, which hold no remark, are dropped and counted (one gap), so the line
   numbers stay the file's. */

static bool remarks_boundary(const char *line, size_t n, const char *prev, size_t prev_n)
{
    (void)prev;
    (void)prev_n;
    int32_t count = 0, error_line = 0;
    int32_t rc = gpuocc_remarks_parse(line, n, NULL, 0, &count, &error_line);
    return rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_PARSE; /* it opens a record */
}

struct remarks_log {
    struct cli_io *io;
    struct remarks_options *o;
    const char *path;
    gpuocc_remarks_kernel *ks;
    int32_t ks_cap;
    int64_t kernels;
    int64_t base;                /* window line k is the file's line base + k... */
    int64_t gap_after, gap_lines; /* ...plus gap_lines when k > gap_after */
};

static int64_t file_line(const struct remarks_log *g, int64_t k)
{
    return g->base + k + (g->gap_lines && k > g->gap_after ? g->gap_lines : 0);
}

/* The kernels of text[0, n); false after naming the problem. */
static bool remarks_window(struct remarks_log *g, const char *text, size_t n)
{
    struct cli_io *io = g->io;
    struct remarks_options *o = g->o;
    int32_t count = 0, line = 0;
    int32_t rc = gpuocc_remarks_parse(text, n, NULL, 0, &count, &line);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        cli_problem(io, g->path, "line %lld: %s", (long long)file_line(g, line), gpuocc_strerror(rc));
        return false;
    }
    if (count == 0)
        return true;
    if (count > g->ks_cap) {
        gpuocc_remarks_kernel *bigger = realloc(g->ks, (size_t)count * sizeof *bigger);
        if (!bigger) {
            cli_problem(io, g->path, "out of memory");
            return false;
        }
        g->ks = bigger;
        g->ks_cap = count;
    }
    gpuocc_remarks_kernel_init(&g->ks[0]);
    gpuocc_remarks_parse(text, n, g->ks, count, &count, &line);
    if (g->kernels == 0 && !o->json && !o->csv && o->npaths > 1) {
        begin(io->out, o);
        fprintf(io->out, "# %s\n", g->path);
    }
    for (int32_t i = 0; i < count && !cli_output_failed(io); i++) {
        gpuocc_remarks_kernel k = g->ks[i];
        int64_t at = file_line(g, k.line);
        if (at > INT32_MAX) {
            cli_problem(io, g->path, "line %lld: %s", (long long)at, gpuocc_strerror(GPUOCC_ERR_OVERFLOW));
            return false;
        }
        k.line = (int32_t)at;
        struct remarks_row row;
        evaluate(o, &k, &row);
        begin(io->out, o);
        if (o->json)
            print_json(io->out, o, g->path, text, &k, &row);
        else if (o->csv)
            print_csv(io->out, o, g->path, text, &k, &row);
        else
            print_table_row(io->out, text, &k, &row);
        o->rows++;
    }
    g->kernels += count;
    return true;
}

/* The window starts with an open record and holds no other: drop the lines after its last remark (they
   hold none) into the gap; false when that cannot be done (the gap is elsewhere, or nothing to drop). */
static bool remarks_compact(struct remarks_log *g, struct input_stream *s)
{
    size_t end = s->len;
    while (end > 0 && s->buf[end - 1] != '\n')
        end--;
    size_t keep = end; /* the end of the last line holding "remark: " */
    while (keep > 0) {
        size_t ls = keep - 1;
        while (ls > 0 && s->buf[ls - 1] != '\n')
            ls--;
        if (input_contains(s->buf + ls, keep - 1 - ls, "remark: "))
            break;
        keep = ls;
    }
    if (keep == 0 || keep == end)
        return false;
    int64_t at = input_count_lines(s->buf, keep);
    if (g->gap_lines && at != g->gap_after)
        return false;
    g->gap_after = at;
    g->gap_lines += input_count_lines(s->buf + keep, end - keep);
    memmove(s->buf + keep, s->buf + end, s->len - end);
    s->len -= end - keep;
    return true;
}

/* One log: its kernels, or a problem naming the file (status 1); false when it gave none.  A problem after
   some windows printed their rows keeps those rows (the status is 1). */
static bool remarks_file(struct cli_io *io, struct remarks_options *o, const char *path)
{
    struct input_stream s;
    if (!input_stream_open(io, path, (size_t)o->max_record_bytes, &s))
        return false;
    struct remarks_log g = {io, o, path, NULL, 0, 0, 0, 0, 0};
    bool failed = false;
    while (!failed && !cli_output_failed(io)) {
        if (!input_stream_fill(&s)) {
            failed = true;
            break;
        }
        if (s.eof) {
            failed = !remarks_window(&g, s.buf ? s.buf : "", s.len);
            break;
        }
        size_t cut = input_stream_last_line(&s, 0, "Function Name", remarks_boundary);
        if (!cut) {
            const char *nl = memchr(s.buf, '\n', s.len);
            if (!nl)
                continue;
            if (!remarks_boundary(s.buf, (size_t)(nl - s.buf) + 1, NULL, 0)) {
                /* no record is open: every complete line can go */
                cut = s.len;
                while (s.buf[cut - 1] != '\n')
                    cut--;
            } else {
                if (s.len >= s.chunk)
                    remarks_compact(&g, &s);
                continue;
            }
        }
        if (!remarks_window(&g, s.buf, cut)) {
            failed = true;
            break;
        }
        int64_t lines = input_count_lines(s.buf, cut);
        g.base = file_line(&g, lines + 1) - 1;
        g.gap_after = g.gap_lines = 0;
        if (!input_stream_keep(&s, cut, NULL, 0)) {
            failed = true;
            break;
        }
    }
    if (!failed && g.kernels == 0 && !cli_output_failed(io))
        cli_problem(io, path, "no kernel found (expected LLVM's remarks: clang -Rpass-analysis=kernel-resource-usage)");
    free(g.ks);
    input_stream_close(&s);
    return g.kernels > 0;
}

static bool parse_options(struct cli_io *io, int argc, char **argv, struct remarks_options *o)
{
    cli_launch_init(&o->launch);
    o->max_record_bytes = INPUT_MAX_RECORD;
    struct cli_args a = {io, argc, argv, 1};
    const char *v;
    for (; cli_more(&a); a.i++) {
        const char *arg = argv[a.i];
        if (cli_launch_flag(&a, &o->launch) || cli_amd_launch_flag(&a, &o->launch) || cli_intel_launch_flag(&a, &o->launch)) {
            o->have_agprs |= !strncmp(arg, "--agprs", 7);
            o->have_sgprs |= !strncmp(arg, "--sgprs", 7);
            continue;
        }
        if (cli_switch(&a, "--best-block"))
            o->best = true;
        else if (cli_switch(&a, "--json"))
            o->json = true;
        else if (cli_switch(&a, "--csv"))
            o->csv = true;
        else if (cli_flag(&a, "--max-record-bytes", &v)) {
            o->max_record_bytes = cli_size(io, "--max-record-bytes", v);
            if (!io->status && (o->max_record_bytes < 1 || o->max_record_bytes > INPUT_MAX_RECORD_CEILING))
                cli_fail(io, "--max-record-bytes", "expected 1 to %lld bytes (1G), got '%s'",
                         (long long)INPUT_MAX_RECORD_CEILING, v);
        } else if (arg[0] != '-' || !strcmp(arg, "-"))
            o->paths[o->npaths++] = arg;
        else
            cli_unknown(&a);
    }
    struct cli_launch *l = &o->launch;
    if (!cli_launch_check(io, l))
        return false;
    if (!l->have_arch)
        return cli_fail(io, "--arch", "required: the remarks do not name the target (gfx942, MI300X...)"), false;
    if (!cli_is_amd(&l->dev))
        return cli_fail(io, "--arch", "%s is an NVIDIA device: LLVM's AMDGPU remarks need an AMD one", l->dev_name),
               false;
    if (!l->have_threads && !o->best)
        return cli_fail(io, "--threads", "give --threads N or --best-block"), false;
    if (l->have_threads && o->best)
        return cli_fail(io, "--best-block", "cannot be combined with --threads"), false;
    if (o->json && o->csv)
        return cli_fail(io, "--csv", "cannot be combined with --json"), false;
    return true;
}

static int cmd_remarks(struct cli_io *io, int argc, char **argv)
{
    struct remarks_options o;
    memset(&o, 0, sizeof o);
    o.paths = calloc((size_t)argc + 1, sizeof *o.paths);
    if (!o.paths)
        return cli_fail(io, "memory", "out of memory");
    if (!parse_options(io, argc, argv, &o)) {
        free(o.paths);
        return io->status;
    }
    if (o.npaths == 0)
        o.paths[o.npaths++] = "-";
    bool any = false;
    for (int i = 0; i < o.npaths && !cli_output_failed(io); i++)
        any |= remarks_file(io, &o, o.paths[i]);
    if (any)
        begin(io->out, &o);
    if (o.begun && o.json)
        fputs("]\n", io->out);
    free(o.paths);
    if (!any) /* nothing could be read at all */
        io->status = io->status > CLI_USAGE ? io->status : CLI_USAGE;
    return io->status;
}

static const struct cli_option remarks_options[] = {
    {"--arch", "NAME", "the AMD target or product the remarks are for (gfx942, MI300X): required"},
    {"--threads", "N", "workgroup size of the launch"},
    {"--best-block", NULL, "evaluate every kernel at its best workgroup size"},
    {"--max-threads", "N", "the flat workgroup size maximum the kernels were compiled for (LLVM's occupancy uses it; "
                           "HIP's default is 1024, OpenCL's 256; default: --threads)"},
    {"--wave-size", "32|64", "the wave size compiled for (-mwavefrontsize64: 64; default: the target's)"},
    {"--cu-mode", NULL, "compiled with -mcumode"},
    {"--lds-dynamic", "BYTES", "the launch's dynamic LDS per workgroup"},
    {"--model", "NAME", "compiler (default) or runtime: which answer fills blocks_per_sm"},
    {"--rocm", "X.Y", "with --model runtime: HIP's rules as of that ROCm release"},
    {"--vgprs", "N", "what if: arch VGPRs instead of the remark's (also --regs)"},
    {"--agprs", "N", "what if: AGPRs instead of the remark's"},
    {"--sgprs", "N", "what if: SGPRs instead of the remark's"},
    {"--lds", "BYTES", "what if: static LDS instead of the remark's (also --smem-static)"},
    {"--json", NULL, "a JSON array of objects instead of the table"},
    {"--csv", NULL, "CSV with a header instead of the table"},
    {"--max-record-bytes", "BYTES", "the most text kept between two records (default 64M, at most 1G); the log is "
                                    "read in windows, never whole"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_remarks = {
    "remarks", cmd_remarks, "every kernel of LLVM's AMDGPU resource-usage remarks, with its occupancy",
    "[FILE...|-] --arch NAME (--threads N | --best-block) [--max-threads N] [--json|--csv]", remarks_options,
    "clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c k.cl -Rpass-analysis=kernel-resource-usage 2>&1 "
    "| gpuocc remarks --arch gfx942 --threads 256\n"
    "gpuocc remarks build.log --arch MI300X --threads 256 --max-threads 256   # the remarks saved in a build log\n"
    "gpuocc remarks build.log other.log --arch gfx1100 --threads 128 --csv\n"};
