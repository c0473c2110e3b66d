/* gpuocc sweep: occupancy along one axis of a launch, one row per point, rows as `gpuocc batch` prints them. */
#include "cli.h"
#include "clusters.h"
#include "sweep.h"

#include <stdlib.h>
#include <string.h>

static const char *const axis_names[SWEEP_AXIS_COUNT] = {"threads", "regs", "smem", "barriers", "sub_group", "grf"};

int32_t sweep_axis_from_name(const char *name)
{
    for (int32_t i = 0; i < SWEEP_AXIS_COUNT; i++)
        if (!strcmp(name, axis_names[i]))
            return i;
    /* the Intel spellings of the same axes (as --slm names the field --smem-static sets) */
    if (!strcmp(name, "slm"))
        return GPUOCC_AXIS_SMEM;
    if (!strcmp(name, "sub-group"))
        return SWEEP_AXIS_SUB_GROUP;
    return -1;
}

const char *sweep_axis_name(int32_t axis)
{
    return axis >= 0 && axis < SWEEP_AXIS_COUNT ? axis_names[axis] : "";
}

bool sweep_axis_flag(struct cli_args *a, int32_t *axis)
{
    const char *v;
    if (!cli_flag(a, "--axis", &v))
        return false;
    *axis = !strcmp(v, "cluster") ? SWEEP_AXIS_CLUSTER : sweep_axis_from_name(v);
    if (*axis == -1) {
        static const char *const names[] = {"threads", "regs", "smem", "barriers", "sub_group", "grf", "cluster"};
        const char *near = cli_nearest(v, names, sizeof names / sizeof names[0]);
        cli_fail(a->io, "--axis", "expected threads, regs, smem, barriers, sub_group, grf or cluster, got '%s'%s%s%s", v,
                 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    return true;
}

static bool intel_axis(int32_t axis)
{
    return axis == SWEEP_AXIS_SUB_GROUP || axis == SWEEP_AXIS_GRF;
}

gpuocc_kernel sweep_kernel_at(const gpuocc_kernel *k, int32_t axis, int64_t v)
{
    gpuocc_kernel at = *k;
    switch (axis) {
    case GPUOCC_AXIS_THREADS: at.threads_per_block = (int32_t)v; break;
    case GPUOCC_AXIS_REGS: at.regs_per_thread = (int32_t)v; break;
    case GPUOCC_AXIS_SMEM: at.smem_dynamic_bytes = v; break;
    case SWEEP_AXIS_SUB_GROUP: at.sub_group = (int32_t)v; break;
    case SWEEP_AXIS_GRF: at.grf = (int32_t)v; break;
    default: at.barriers = (int32_t)v; break;
    }
    return at;
}

/* The axes a vendor's rules do not move: refused, as their flags are (every point would be the same). */
static bool axis_applies(struct cli_io *io, const struct cli_launch *l, int32_t axis)
{
    char arch[16];
    cli_arch_name(&l->dev, arch, sizeof arch);
    if (axis == GPUOCC_AXIS_BARRIERS && cli_is_amd(&l->dev))
        cli_fail(io, "--axis", "barriers: NVIDIA and Intel only, but --arch %s is an AMD device (%s): AMD's rules "
                 "count no named barriers", l->dev_name, arch);
    else if (intel_axis(axis) && !cli_is_intel(&l->dev))
        cli_fail(io, "--axis", "%s: Intel only, but --arch %s is an %s device (%s)", axis_names[axis], l->dev_name,
                 cli_is_amd(&l->dev) ? "AMD" : "NVIDIA", arch);
    else if (axis == GPUOCC_AXIS_REGS && cli_is_intel(&l->dev))
        cli_fail(io, "--axis", "regs: registers per thread do not apply to Intel, but --arch %s is an Intel device "
                 "(%s): sweep grf (GRF registers per hardware thread)", l->dev_name, arch);
    else
        return true;
    return false;
}

bool sweep_range(struct cli_io *io, const struct cli_launch *l, int32_t axis, int64_t *from, int64_t *to,
                 int64_t *step)
{
    if (!axis_applies(io, l, axis))
        return false;
    const gpuocc_device *d = &l->dev;
    if (axis == SWEEP_AXIS_SUB_GROUP) {
        int64_t lo = 0, hi = 0;
        for (int64_t s = 8; s <= 32; s *= 2)
            if (d->sub_group_sizes & s) {
                lo = lo ? lo : s;
                hi = s;
            }
        if (!lo)
            return cli_fail(io, "--arch", "%s has no sub-group sizes", l->dev_name), false;
        *from = lo, *to = hi, *step = lo;
        return true;
    }
    if (axis == SWEEP_AXIS_GRF) {
        bool xe3 = d->grf_table == GPUOCC_GRF_TABLE_XE3;
        *from = xe3 ? 32 : 128, *to = d->grf_max, *step = xe3 ? 32 : 128;
        return true;
    }
    /* the swept field's own flag is not needed: give it a valid value so the defaults can be asked for */
    gpuocc_kernel probe = sweep_kernel_at(&l->k, axis, axis == GPUOCC_AXIS_THREADS ? 1 : 0);
    int32_t rc = gpuocc_sweep_range(&l->dev, &probe, axis, from, to, step);
    if (rc != GPUOCC_OK)
        return cli_fail(io, "input", "%s", gpuocc_strerror(rc)), false;
    return true;
}

static void point_of(int64_t value, const gpuocc_result *r, gpuocc_sweep_point *p)
{
    memset(p, 0, sizeof *p);
    *p = (gpuocc_sweep_point){value, r->blocks_per_sm, r->warps_per_sm, r->occupancy, r->limiters, r->limit_warps,
                              r->limit_regs, r->limit_smem, r->limit_blocks, r->limit_barriers, r->regs_per_block, 0,
                              r->smem_per_block_bytes, r->smem_per_sm_bytes};
}

/* Intel's sub_group and grf axes: each point gpuocc_occupancy's answer; the steps are the values (unit
   resolution) where blocks_per_sm, warps_per_sm or the limiters change, as gpuocc_sweep_steps gives them. */
static gpuocc_sweep_point *intel_points(struct cli_io *io, const struct cli_launch *l, int32_t axis, int64_t from,
                                        int64_t to, int64_t step, bool steps_only, int32_t *count)
{
    int64_t most = axis == SWEEP_AXIS_GRF ? 1024 : 32; /* the kernel field's own range (gpuocc.h) */
    if (to > most) {
        cli_fail(io, "--to", "%lld: the %s axis ends at %lld", (long long)to, axis_names[axis], (long long)most);
        return NULL;
    }
    if (steps_only)
        step = 1;
    gpuocc_sweep_point *p = calloc((size_t)((to - from) / step + 1), sizeof *p);
    if (!p) {
        cli_fail(io, "--axis", "out of memory");
        return NULL;
    }
    int32_t n = 0;
    for (int64_t v = from; v <= to; v += step) {
        if (axis == SWEEP_AXIS_SUB_GROUP && !((v == 8 || v == 16 || v == 32) && (l->dev.sub_group_sizes & v)))
            continue; /* not a sub-group size of the device */
        gpuocc_kernel k = sweep_kernel_at(&l->k, axis, v);
        gpuocc_result r = {.size = sizeof r};
        int32_t rc = gpuocc_occupancy(&l->dev, &k, &r);
        if (rc != GPUOCC_OK) {
            free(p);
            cli_fail(io, "--axis", "%s %lld: %s", axis_names[axis], (long long)v, gpuocc_strerror(rc));
            return NULL;
        }
        if (steps_only && n > 0 && p[n - 1].blocks_per_sm == r.blocks_per_sm &&
            p[n - 1].warps_per_sm == r.warps_per_sm && p[n - 1].limiters == r.limiters)
            continue;
        point_of(v, &r, &p[n++]);
    }
    if (n == 0) {
        free(p);
        cli_fail(io, "--axis", "%s: no sub-group size of --arch %s from %lld to %lld", axis_names[axis], l->dev_name,
                 (long long)from, (long long)to);
        return NULL;
    }
    *count = n;
    return p;
}

gpuocc_sweep_point *sweep_points(struct cli_io *io, const struct cli_launch *l, int32_t axis, int64_t from,
                                 int64_t to, int64_t step, bool steps_only, int32_t *count)
{
    int32_t n = 0, rc;
    if (!axis_applies(io, l, axis))
        return NULL;
    if (intel_axis(axis))
        return intel_points(io, l, axis, from, to, step, steps_only, count);
    rc = steps_only ? gpuocc_sweep_steps(&l->dev, &l->k, axis, from, to, NULL, 0, &n)
                    : gpuocc_sweep(&l->dev, &l->k, axis, from, to, step, NULL, 0, &n);
    if (rc == GPUOCC_ERR_VENDOR) {
        cli_fail(io, "--arch", "%s: %s of AMD devices are not supported by this library yet", l->dev_name,
                 steps_only ? "--steps" : "sweeps");
        return NULL;
    }
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        cli_fail(io, "--axis", "%s: %s", axis_names[axis], gpuocc_strerror(rc));
        return NULL;
    }
    gpuocc_sweep_point *p = calloc(n ? (size_t)n : 1, sizeof *p);
    if (!p) {
        cli_fail(io, "--axis", "out of memory for %d points", n);
        return NULL;
    }
    rc = steps_only ? gpuocc_sweep_steps(&l->dev, &l->k, axis, from, to, p, n, &n)
                    : gpuocc_sweep(&l->dev, &l->k, axis, from, to, step, p, n, &n);
    if (rc != GPUOCC_OK) {
        free(p);
        cli_fail(io, "--axis", "%s: %s", axis_names[axis], gpuocc_strerror(rc));
        return NULL;
    }
    *count = n;
    return p;
}

/* The launch with the axis set to one point's value. */
static gpuocc_kernel kernel_at(const gpuocc_kernel *k, int32_t axis, int64_t v)
{
    return sweep_kernel_at(k, axis, v);
}

static void put_limit(FILE *out, int32_t v, bool json)
{
    if (v == GPUOCC_UNLIMITED)
        fputs(json ? "null" : "-1", out);
    else
        fprintf(out, "%d", v);
}

/* `batch`'s header: its launch columns, then its output columns (an AMD sweep has AMD's launch columns, whose
   `model` says the model, so the results do not repeat it: as batch prints such rows). */
static const char batch_header[] = "arch,threads,regs,smem_static,smem_dynamic,barriers,carveout,smem_optin,"
                                   "max_threads,virtual_resources,tmem_columns,status,"
                                   "blocks_per_sm,warps_per_sm,occupancy,limiters,limit_warps,limit_regs,limit_smem,"
                                   "limit_blocks,limit_barriers,regs_per_block,smem_per_block,model,waves_per_simd,"
                                   "limit_sgprs,workgroups_per_gpu,limit_virtual_resources\n";
static const char batch_header_amd[] = "arch,threads,regs,agprs,sgprs,smem_static,smem_dynamic,wave_size,cu_mode,"
                                       "max_threads,model,rocm,trap_handler,waves_per_eu_min,waves_per_eu_max,"
                                       "flat_workgroup_size_min,dvgpr,status,blocks_per_sm,warps_per_sm,occupancy,limiters,"
                                       "limit_warps,limit_regs,limit_smem,limit_blocks,limit_barriers,regs_per_block,"
                                       "smem_per_block,waves_per_simd,limit_sgprs,workgroups_per_gpu,limit_virtual_resources\n";
/* Intel's launch columns as `gpuocc batch` reads them for Intel rows (model among them: the results do not
   repeat it) */
static const char batch_header_intel[] = "arch,threads,sub_group,grf,smem_static,smem_dynamic,barriers,max_threads,"
                                         "model,status,"
                                         "blocks_per_sm,warps_per_sm,occupancy,limiters,limit_warps,limit_regs,"
                                         "limit_smem,limit_blocks,limit_barriers,regs_per_block,smem_per_block,"
                                         "waves_per_simd,limit_sgprs,workgroups_per_gpu,limit_virtual_resources\n";

/* What a sweep point does not carry and a row (batch's row) prints, from the single call at that point, each
   vendor's own: AMD's waves per SIMD and SGPR limit, Intel's GPU-wide count (-1 without an Xe-core count),
   NVIDIA's virtual-resource limit (it moves along no axis); unlimited / -1 elsewhere, as batch writes them. */
struct point_extra {
    int32_t waves_per_simd, limit_sgprs, limit_virtual;
    int64_t workgroups;
};

static struct point_extra extra_at(const struct cli_launch *l, const gpuocc_kernel *k)
{
    struct point_extra e = {0, GPUOCC_UNLIMITED, GPUOCC_UNLIMITED, -1};
    gpuocc_result r = {.size = sizeof r};
    bool amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev);
    if ((intel && l->dev.sm_count <= 0) || gpuocc_occupancy(&l->dev, k, &r) != GPUOCC_OK)
        return e; /* (Intel without an Xe-core count: nothing of this call is printed) */
    if (amd)
        e.waves_per_simd = r.waves_per_simd, e.limit_sgprs = r.limit_sgprs;
    else if (intel)
        e.workgroups = r.workgroups_per_gpu;
    else
        e.limit_virtual = r.limit_virtual_resources;
    return e;
}

/* The kernel's largest block, every vendor's launch column: empty / null when not given. */
static void print_max_threads(FILE *out, const gpuocc_kernel *k, bool json, bool *first)
{
    if (json)
        json_key(out, first, "max_threads");
    else
        fputc(',', out);
    if (k->max_threads_per_block > 0)
        fprintf(out, "%d", k->max_threads_per_block);
    else if (json)
        fputs("null", out);
}

/* A launch column whose 0 is "not given" (virtual_resources, tmem_columns, dvgpr): empty / null then, as batch
   reads it. */
static void print_given(FILE *out, const char *key, int32_t v, bool json, bool *first)
{
    if (json)
        json_key(out, first, key);
    else
        fputc(',', out);
    if (v > 0)
        fprintf(out, "%d", v);
    else if (json)
        fputs("null", out);
}

/* Intel's launch columns of a row: the values the point was answered with (defaults filled in). */
static void print_intel_launch(FILE *out, const struct cli_launch *l, const gpuocc_kernel *k, bool json, bool *first)
{
    const struct {
        const char *key;
        long long v;
    } in[] = {{"threads", k->threads_per_block}, {"sub_group", k->sub_group ? k->sub_group : l->dev.warp_size},
              {"grf", k->grf ? k->grf : 128}, {"smem_static", k->smem_static_bytes},
              {"smem_dynamic", k->smem_dynamic_bytes}, {"barriers", k->barriers}};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        if (json)
            json_key(out, first, in[i].key);
        else
            fputc(',', out);
        fprintf(out, "%lld", in[i].v);
    }
    print_max_threads(out, k, json, first);
    const char *model = k->model == GPUOCC_MODEL_INTEL_RUNTIME ? "runtime" : "calculator";
    if (json) {
        json_key(out, first, "model");
        json_string(out, model);
    } else
        fprintf(out, ",%s", model);
}

static const char *model_name(int32_t model)
{
    return cli_amd_model_name(model);
}

/* The AMD launch columns a sweep row prints, as numbers (0 max_threads / rocm: not given, empty / null). */
static void print_amd_launch(FILE *out, const struct cli_launch *l, const gpuocc_kernel *k, bool json, bool *first)
{
    int32_t wave = k->wave_size ? k->wave_size : l->dev.warp_size;
    const struct {
        const char *key;
        long long v;
        bool given;
    } in[] = {{"threads", k->threads_per_block, true}, {"regs", k->regs_per_thread, true},
              {"agprs", k->agprs, true}, {"sgprs", k->sgprs, true},
              {"smem_static", k->smem_static_bytes, true}, {"smem_dynamic", k->smem_dynamic_bytes, true},
              {"wave_size", wave, true}, {"cu_mode", k->cu_mode, true},
              {"max_threads", k->max_threads_per_block, k->max_threads_per_block > 0}};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        if (json)
            json_key(out, first, in[i].key);
        else
            fputc(',', out);
        if (in[i].given)
            fprintf(out, "%lld", in[i].v);
        else if (json)
            fputs("null", out);
    }
    if (json) {
        json_key(out, first, "model");
        json_string(out, model_name(k->model));
        json_key(out, first, "rocm");
        if (k->rocm_version)
            fprintf(out, "\"%d.%d\"", k->rocm_version / 100, k->rocm_version % 100);
        else
            fputs("null", out);
    } else {
        fprintf(out, ",%s,", model_name(k->model));
        if (k->rocm_version)
            fprintf(out, "%d.%d", k->rocm_version / 100, k->rocm_version % 100);
    }
    /* LLVM's compiler inputs, as batch's columns take them (trap_handler -1, 0 or 1; 0 otherwise: unset) */
    const struct {
        const char *key;
        int32_t v;
    } compiled[] = {{"trap_handler", k->trap_handler}, {"waves_per_eu_min", k->waves_per_eu_min},
                    {"waves_per_eu_max", k->waves_per_eu_max}, {"flat_workgroup_size_min", k->flat_workgroup_size_min}};
    for (size_t i = 0; i < sizeof compiled / sizeof compiled[0]; i++) {
        bool given = i == 0 || compiled[i].v > 0;
        if (json)
            json_key(out, first, compiled[i].key);
        else
            fputc(',', out);
        if (given)
            fprintf(out, "%d", compiled[i].v);
        else if (json)
            fputs("null", out);
    }
    print_given(out, "dvgpr", k->dvgpr, json, first);
}

static void print_csv_row(FILE *out, const struct cli_launch *l, const gpuocc_kernel *k, const gpuocc_sweep_point *p)
{
    char lim[96];
    cli_limiters(p->limiters, lim, sizeof lim);
    csv_cell(out, l->dev_name, strlen(l->dev_name));
    bool amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev);
    bool first = true;
    if (amd)
        print_amd_launch(out, l, k, false, &first);
    else if (intel)
        print_intel_launch(out, l, k, false, &first);
    else {
        fprintf(out, ",%d,%d,%lld,%lld,%d,%d,%d", k->threads_per_block, k->regs_per_thread,
                (long long)k->smem_static_bytes, (long long)k->smem_dynamic_bytes, k->barriers, k->carveout_percent,
                k->smem_optin);
        print_max_threads(out, k, false, &first);
        print_given(out, "virtual_resources", k->virtual_resources, false, &first);
        print_given(out, "tmem_columns", k->tmem_columns, false, &first);
    }
    fprintf(out, ",ok,%d,%d,%.6f,%s", p->blocks_per_sm, p->warps_per_sm, p->occupancy, lim);
    const int32_t limits[] = {p->limit_warps, p->limit_regs, p->limit_smem, p->limit_blocks, p->limit_barriers};
    for (int i = 0; i < 5; i++) {
        fputc(',', out);
        put_limit(out, limits[i], false);
    }
    fprintf(out, ",%d,%lld", p->regs_per_block, (long long)p->smem_per_block_bytes);
    struct point_extra e = extra_at(l, k);
    if (amd) {
        fprintf(out, ",%d,", e.waves_per_simd);
        put_limit(out, e.limit_sgprs, false);
    } else
        fputs(intel ? ",,-1" : ",,,-1", out); /* Intel's model is a launch column */
    if (e.workgroups >= 0)
        fprintf(out, ",%lld,", (long long)e.workgroups);
    else
        fputs(",,", out);
    put_limit(out, e.limit_virtual, false);
    fputc('\n', out);
}

static void print_json_row(FILE *out, const struct cli_launch *l, const gpuocc_kernel *k, const gpuocc_sweep_point *p,
                           bool first_row)
{
    bool first = true, amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev);
    fputs(first_row ? "" : ",\n", out);
    fputc('{', out);
    json_key(out, &first, "arch");
    json_string(out, l->dev_name);
    if (amd)
        print_amd_launch(out, l, k, true, &first);
    else if (intel)
        print_intel_launch(out, l, k, true, &first);
    else {
        const struct {
            const char *key;
            long long v;
        } in[] = {{"threads", k->threads_per_block}, {"regs", k->regs_per_thread},
                  {"smem_static", k->smem_static_bytes}, {"smem_dynamic", k->smem_dynamic_bytes},
                  {"barriers", k->barriers}, {"carveout", k->carveout_percent}, {"smem_optin", k->smem_optin}};
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
            json_key(out, &first, in[i].key);
            fprintf(out, "%lld", in[i].v);
        }
        print_max_threads(out, k, true, &first);
        print_given(out, "virtual_resources", k->virtual_resources, true, &first);
        print_given(out, "tmem_columns", k->tmem_columns, true, &first);
    }
    json_key(out, &first, "status");
    json_string(out, "ok");
    json_key(out, &first, "blocks_per_sm");
    fprintf(out, "%d", p->blocks_per_sm);
    json_key(out, &first, "warps_per_sm");
    fprintf(out, "%d", p->warps_per_sm);
    json_key(out, &first, "occupancy");
    fprintf(out, "%.6f", p->occupancy);
    json_key(out, &first, "limiters");
    json_limiters(out, p->limiters);
    const char *names[] = {"limit_warps", "limit_regs", "limit_smem", "limit_blocks", "limit_barriers"};
    const int32_t limits[] = {p->limit_warps, p->limit_regs, p->limit_smem, p->limit_blocks, p->limit_barriers};
    for (int i = 0; i < 5; i++) {
        json_key(out, &first, names[i]);
        put_limit(out, limits[i], true);
    }
    json_key(out, &first, "regs_per_block");
    fprintf(out, "%d", p->regs_per_block);
    json_key(out, &first, "smem_per_block");
    fprintf(out, "%lld", (long long)p->smem_per_block_bytes);
    struct point_extra e = extra_at(l, k);
    if (!amd && !intel) {
        json_key(out, &first, "model");
        fputs("null", out);
    }
    json_key(out, &first, "waves_per_simd");
    if (amd)
        fprintf(out, "%d", e.waves_per_simd);
    else
        fputs("null", out);
    json_key(out, &first, "limit_sgprs");
    put_limit(out, e.limit_sgprs, true);
    json_key(out, &first, "workgroups_per_gpu");
    if (e.workgroups >= 0)
        fprintf(out, "%lld", (long long)e.workgroups);
    else
        fputs("null", out);
    json_key(out, &first, "limit_virtual_resources");
    put_limit(out, e.limit_virtual, true);
    fputc('}', out);
}

static void print_text(struct cli_io *io, const struct cli_launch *l, int32_t axis, const gpuocc_sweep_point *p,
                       int32_t n, bool steps)
{
    FILE *out = io->out;
    static const char *const headings[SWEEP_AXIS_COUNT] = {"threads", "regs", "smem_dyn(B)", "barriers", "", ""};
    static const char *const amd_headings[SWEEP_AXIS_COUNT] = {"threads", "vgprs", "lds_dyn(B)", "barriers", "", ""};
    /* Intel's words (docs/intel.md): work-items per work-group, SLM, sub-group, GRF; work-groups and hardware
       threads per Xe-core */
    static const char *const intel_headings[SWEEP_AXIS_COUNT] = {"work-items", "", "slm_dyn(B)", "barriers",
                                                                 "sub-group", "grf"};
    static const char *const intel_titles[SWEEP_AXIS_COUNT] = {
        "work-items per work-group", "", "dynamic SLM per work-group (bytes)", "barriers",
        "sub-group size", "GRF registers per hardware thread"};
    bool amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev);
    char arch[16];
    cli_arch_name(&l->dev, arch, sizeof arch);
    fprintf(out, "%s (%s): occupancy against %s%s\n", l->dev_name, arch,
            (amd ? amd_headings : intel ? intel_titles : axis_names)[axis],
            steps ? " (each row holds up to the next)" : "");
    if (intel)
        fprintf(out, "%11s %11s %10s %9s  %s\n", intel_headings[axis], "WGs/Xe-core", "HW threads", "occupancy",
                "limited by");
    else if (amd)
        fprintf(out, "%11s %9s %8s %10s %9s  %s\n", amd_headings[axis], "blocks/CU", "waves/CU", "waves/SIMD",
                "occupancy", "limited by");
    else
        fprintf(out, "%11s %9s %8s %9s  %s\n", headings[axis], "blocks/SM", "warps/SM", "occupancy", "limited by");
    for (int32_t i = 0; i < n && !cli_output_failed(io); i++) {
        char lim[96];
        cli_limiter_words(&l->dev, p[i].limiters, lim, sizeof lim);
        if (intel)
            fprintf(out, "%11lld %11d %10d %8.1f%%  %s\n", (long long)p[i].value, p[i].blocks_per_sm,
                    p[i].warps_per_sm, 100.0 * p[i].occupancy, lim);
        else if (amd) {
            gpuocc_kernel k = kernel_at(&l->k, axis, p[i].value);
            fprintf(out, "%11lld %9d %8d %10d %8.1f%%  %s\n", (long long)p[i].value, p[i].blocks_per_sm,
                    p[i].warps_per_sm, extra_at(l, &k).waves_per_simd, 100.0 * p[i].occupancy, lim);
        } else
            fprintf(out, "%11lld %9d %8d %8.1f%%  %s\n", (long long)p[i].value, p[i].blocks_per_sm, p[i].warps_per_sm,
                    100.0 * p[i].occupancy, lim);
    }
}

/* --from, --to or --step in the axis' own unit (-1 when not given): bytes on the shared-memory axis (49152, 48K),
   a count elsewhere (64; the same grammar, K and M accepted), the error naming that unit. */
static int64_t axis_value(struct cli_io *io, const struct cli_launch *l, int32_t axis, const char *field,
                          const char *text)
{
    int64_t v;
    if (!text)
        return -1;
    if (axis == GPUOCC_AXIS_SMEM)
        return cli_size(io, field, text);
    if (cli_try_size(text, &v))
        return v;
    bool amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev);
    const char *unit = axis == GPUOCC_AXIS_THREADS   ? (intel ? "work-items" : "threads")
                       : axis == GPUOCC_AXIS_REGS    ? (amd ? "VGPRs" : "registers")
                       : axis == GPUOCC_AXIS_BARRIERS ? "barriers"
                       : axis == SWEEP_AXIS_SUB_GROUP ? "work-items"
                                                      : "GRF registers";
    const char *example = axis == GPUOCC_AXIS_THREADS ? "256" : axis == GPUOCC_AXIS_BARRIERS ? "2"
                          : axis == SWEEP_AXIS_SUB_GROUP ? "16" : axis == SWEEP_AXIS_GRF ? "128" : "64";
    cli_fail(io, field, "expected a count of %s like %s, got '%s'", unit, example, text);
    return 0;
}

static int cmd_sweep(struct cli_io *io, int argc, char **argv)
{
    struct cli_launch l;
    cli_launch_init(&l);
    int32_t axis = -1;
    int64_t from = -1, to = -1, step = -1;
    const char *from_text = NULL, *to_text = NULL, *step_text = NULL; /* read once the axis is known */
    bool csv = false, json = false, steps = false;
    struct cli_cluster cc;
    cli_cluster_init(&cc);
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
    for (; cli_more(&a); a.i++) {
        const char *v;
        if (cli_launch_flag(&a, &l) || cli_amd_launch_flag(&a, &l) || cli_intel_launch_flag(&a, &l) ||
            sweep_axis_flag(&a, &axis) || cli_cluster_flag(&a, &cc))
            continue;
        if (cli_flag(&a, "--from", &v))
            from_text = v;
        else if (cli_flag(&a, "--to", &v))
            to_text = v;
        else if (cli_flag(&a, "--step", &v))
            step_text = v;
        else if (cli_switch(&a, "--csv"))
            csv = true;
        else if (cli_switch(&a, "--json"))
            json = true;
        else if (cli_switch(&a, "--steps"))
            steps = true;
        else
            cli_unknown(&a);
    }
    if (!cli_launch_check(io, &l))
        return io->status;
    if (!l.have_arch)
        return cli_fail(io, "--arch", "required");
    if (axis == -1)
        return cli_fail(io, "--axis", "required: threads, regs, smem, barriers, sub_group, grf or cluster");
    if (csv && json)
        return cli_fail(io, "--csv", "cannot be combined with --json");
    if (axis == SWEEP_AXIS_CLUSTER) {
        /* the curve of resident clusters over the cluster size (tools/cmd_clusters.c) */
        const char *range = from_text ? "--from" : to_text ? "--to" : step_text ? "--step" : steps ? "--steps" : NULL;
        if (range)
            return cli_fail(io, range, "not with --axis cluster: it runs from 1 block to the device's maximum");
        if (!l.have_threads)
            return cli_fail(io, "--threads", "required with --axis cluster");
        return cli_cluster_sweep(io, &l, &cc, csv ? CLI_CLUSTER_CSV : json ? CLI_CLUSTER_JSON : CLI_CLUSTER_TEXT);
    }
    if (cc.given || cc.c.cluster_nonportable || cc.grid_given || cc.layout_given)
        return cli_fail(io, cc.given ? "--cluster" : cc.grid_given ? "--grid-blocks" : cc.layout_given ? "--gpc-sms"
                        : "--cluster-nonportable", "only with --axis cluster");
    from = axis_value(io, &l, axis, "--from", from_text);
    to = axis_value(io, &l, axis, "--to", to_text);
    step = axis_value(io, &l, axis, "--step", step_text);
    if (io->status)
        return io->status;
    if (steps && step >= 0)
        return cli_fail(io, "--steps", "cannot be combined with --step: steps are found at unit resolution");
    if (step == 0)
        return cli_fail(io, "--step", "must be at least 1");
    int64_t lo, hi, unit;
    if (!sweep_range(io, &l, axis, &lo, &hi, &unit))
        return io->status;
    from = from >= 0 ? from : lo;
    to = to >= 0 ? to : hi;
    step = step > 0 ? step : unit;
    if (to < from)
        return cli_fail(io, "--to", "%lld is below --from %lld", (long long)to, (long long)from);
    int32_t n = 0;
    gpuocc_sweep_point *p = sweep_points(io, &l, axis, from, to, step, steps, &n);
    if (!p)
        return io->status;
    FILE *out = io->out;
    if (csv)
        fputs(cli_is_amd(&l.dev) ? batch_header_amd : cli_is_intel(&l.dev) ? batch_header_intel : batch_header, out);
    else if (json)
        fputc('[', out);
    if (csv || json) {
        for (int32_t i = 0; i < n && !cli_output_failed(io); i++) {
            gpuocc_kernel k = kernel_at(&l.k, axis, p[i].value);
            if (csv)
                print_csv_row(out, &l, &k, &p[i]);
            else
                print_json_row(out, &l, &k, &p[i], i == 0);
        }
    } else
        print_text(io, &l, axis, p, n, steps);
    if (json)
        fputs("]\n", out);
    free(p);
    return CLI_OK;
}

static const struct cli_option sweep_options[] = {
    CLI_LAUNCH_OPTIONS,
    CLI_AMD_LAUNCH_OPTIONS,
    CLI_INTEL_LAUNCH_OPTIONS,
    {"--axis", "AXIS", "threads, regs, smem (dynamic shared memory, static kept as given) or barriers "
                       "(AMD: regs are VGPRs, smem the dynamic LDS); Intel: threads, smem (or slm: dynamic SLM), "
                       "barriers, sub_group (the device's sizes), grf; NVIDIA: cluster (resident clusters against "
                       "the cluster size)"},
    CLI_CLUSTER_OPTIONS,
    {"--from", "N", "first value (default: the axis' smallest legal value; sizes take K/M suffixes)"},
    {"--to", "N", "last value, inclusive (default: the largest legal value)"},
    {"--step", "N", "step (default: the natural granularity: warp size, 1, the allocation unit, 1; Intel: "
                    "sub_group the smallest size, grf 128, 32 on Xe3)"},
    {"--steps", NULL, "only the staircase's steps: the values where the answer changes (unit resolution)"},
    {"--csv", NULL, "CSV rows exactly as 'gpuocc batch' prints them (they join with batch output)"},
    {"--json", NULL, "a JSON array of the same rows (limiters as arrays, no limit as null)"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_sweep = {
    "sweep", cmd_sweep, "occupancy along one axis (threads, regs, smem, barriers; Intel sub_group, grf; NVIDIA "
    "cluster), one row per point",
    "--arch NAME --axis AXIS [launch flags] [--from N] [--to N] [--step N | --steps] [--csv | --json]",
    sweep_options,
    "gpuocc sweep --arch A100 --threads 256 --axis regs\n"
    "gpuocc sweep --arch A100 --threads 256 --axis regs --steps\n"
    "gpuocc sweep --arch H100 --threads 128 --regs 64 --axis smem --from 0 --to 100K --step 4K --csv\n"
    "gpuocc sweep --arch MI300X --threads 256 --sgprs 32 --lds 16K --axis regs --step 32\n"
    "gpuocc sweep --arch pvc --threads 512 --slm 64K --axis sub_group\n"
    "gpuocc sweep --arch H100 --threads 1024 --regs 64 --axis cluster --cluster-nonportable\n"};
