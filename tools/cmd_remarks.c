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

/* One log: its kernels, or a problem naming the file (status 1); false when it gave none. */
static bool remarks_file(struct cli_io *io, struct remarks_options *o, const char *path)
{
    size_t length;
    char *text = input_slurp_file(io, path, &length);
    if (!text)
        return false;
    int32_t count = 0, line = 0;
    int32_t rc = gpuocc_remarks_parse(text, length, NULL, 0, &count, &line);
    gpuocc_remarks_kernel *ks = NULL;
    bool ok = false;
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER)
        cli_problem(io, path, "line %d: %s", line, gpuocc_strerror(rc));
    else if (count == 0)
        cli_problem(io, path, "no kernel found (expected LLVM's remarks: clang -Rpass-analysis=kernel-resource-usage)");
    else if (!(ks = calloc((size_t)count, sizeof *ks)))
        cli_problem(io, path, "out of memory");
    else {
        gpuocc_remarks_kernel_init(&ks[0]);
        gpuocc_remarks_parse(text, length, ks, count, &count, &line);
        if (!o->json && !o->csv && o->npaths > 1) {
            begin(io->out, o);
            fprintf(io->out, "# %s\n", path);
        }
        for (int32_t i = 0; i < count && !cli_output_failed(io); i++) {
            struct remarks_row row;
            evaluate(o, &ks[i], &row);
            begin(io->out, o);
            if (o->json)
                print_json(io->out, o, path, text, &ks[i], &row);
            else if (o->csv)
                print_csv(io->out, o, path, text, &ks[i], &row);
            else
                print_table_row(io->out, text, &ks[i], &row);
            o->rows++;
        }
        ok = true;
    }
    free(ks);
    free(text);
    return ok;
}

static bool parse_options(struct cli_io *io, int argc, char **argv, struct remarks_options *o)
{
    cli_launch_init(&o->launch);
    struct cli_args a = {io, argc, argv, 1};
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
        else if (arg[0] != '-' || !strcmp(arg, "-"))
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
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_remarks = {
    "remarks", cmd_remarks, "every kernel of LLVM's AMDGPU resource-usage remarks, with its occupancy",
    "[FILE...|-] --arch NAME (--threads N | --best-block) [--max-threads N] [--json|--csv]", remarks_options,
    "clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c k.cl -Rpass-analysis=kernel-resource-usage 2>&1 "
    "| gpuocc remarks --arch gfx942 --threads 256\n"
    "gpuocc remarks build.log --arch MI300X --threads 256 --max-threads 256   # the remarks saved in a build log\n"
    "gpuocc remarks build.log other.log --arch gfx1100 --threads 128 --csv\n"};
