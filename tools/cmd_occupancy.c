/* gpuocc report | devices: the occupancy engine on the command line. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "report.h"

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

static const char *resource_demand_name(int32_t resource, bool amd, bool intel)
{
    if (intel)
        switch (resource) {
        case GPUOCC_RESOURCE_REGISTERS: return "GRF per hardware thread";
        case GPUOCC_RESOURCE_SMEM: return "SLM per work-group (bytes)";
        case GPUOCC_RESOURCE_WARPS: return "work-items per work-group";
        case GPUOCC_RESOURCE_BARRIERS: return "barriers per work-group";
        default: return "resident work-groups";
        }
    if (amd)
        switch (resource) {
        case GPUOCC_RESOURCE_REGISTERS: return "VGPRs per lane";
        case GPUOCC_RESOURCE_SMEM: return "LDS per workgroup (bytes)";
        case GPUOCC_RESOURCE_WARPS: return "threads per workgroup";
        case GPUOCC_RESOURCE_SGPRS: return "SGPRs per wave";
        case GPUOCC_RESOURCE_AGPRS: return "AGPRs per lane";
        default: break;
        }
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

bool cli_report_notes(const struct cli_launch *l, char *out, size_t cap)
{
    if (cap)
        out[0] = '\0';
    if (cli_is_amd(&l->dev) || cli_is_intel(&l->dev) || l->k.regs_per_thread <= PTXAS_MAX_REGS || !cap)
        return false;
    snprintf(out, cap, "%d registers per thread is more than ptxas allocates (%d)\n", l->k.regs_per_thread,
             PTXAS_MAX_REGS);
    return true;
}

/* The report's next steps (gpuocc_next_steps: each gives the blocks it states): none at full occupancy (more
   blocks would not add warps).  Their count; 0 when there are none or the library cannot answer. */
static int32_t report_steps(const struct cli_launch *l, const gpuocc_result *r, gpuocc_step *steps)
{
    int32_t count = 0;
    if (r->warps_per_sm >= r->max_warps_per_sm ||
        gpuocc_next_steps(&l->dev, &l->k, steps, GPUOCC_STEPS_MAX, &count) != GPUOCC_OK)
        return 0;
    return count;
}

/* The resources a report walks for next steps: NVIDIA's five, and AMD's SGPRs. */
#define REPORT_RESOURCES (GPUOCC_RESOURCE_SGPRS + 1)

/* The words of a launch's counts as a person reads them: NVIDIA's blocks per SM, AMD's blocks per CU or WGP,
   Intel's work-groups per Xe-core (docs/intel.md, "Words"). */
struct report_words {
    const char *block, *blocks, *unit; /* "block", "blocks", "SM" */
};

static struct report_words report_words_of(const gpuocc_device *d, const char *unit)
{
    if (cli_is_intel(d))
        return (struct report_words){"work-group", "work-groups", "Xe-core"};
    return (struct report_words){"block", "blocks", unit};
}

static void print_limits(FILE *out, const gpuocc_device *d, const gpuocc_result *r, bool amd, const char *unit)
{
    struct report_words w = report_words_of(d, unit);
    const int32_t limits[] = {r->limit_warps, r->limit_regs, r->limit_smem, r->limit_blocks, r->limit_barriers,
                              r->limit_sgprs};
    fprintf(out, "limits      ");
    for (int32_t i = 0; i < (amd ? REPORT_RESOURCES : GPUOCC_RESOURCE_COUNT); i++) {
        if (limits[i] == GPUOCC_UNLIMITED)
            fprintf(out, "%s%s no limit", i ? ", " : "", cli_resource_word(d, i));
        else
            fprintf(out, "%s%s %d", i ? ", " : "", cli_resource_word(d, i), limits[i]);
    }
    if (!amd && r->limit_virtual_resources != GPUOCC_UNLIMITED)
        fprintf(out, ", %s %d", gpuocc_resource_name(GPUOCC_RESOURCE_VIRTUAL), r->limit_virtual_resources);
    fprintf(out, " (%s per %s)\n", w.blocks, w.unit);
}

static void print_change(FILE *out, const gpuocc_step_change *c, bool amd, bool intel)
{
    fprintf(out, "%s: %lld -> %lld (shed %lld)", resource_demand_name(c->resource, amd, intel),
            (long long)(c->new_value + c->shed), (long long)c->new_value, (long long)c->shed);
}

static void print_next_steps(FILE *out, const struct cli_launch *l, const gpuocc_result *r, const char *unit)
{
    bool amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev);
    struct report_words w = report_words_of(&l->dev, unit);
    gpuocc_step steps[GPUOCC_STEPS_MAX];
    int32_t count = report_steps(l, r, steps);
    if (count == 1 && steps[0].also_count > 0) {
        fprintf(out, "next step   no single change gains a %s (", w.block);
        for (int32_t i = 0, n = 0; i <= GPUOCC_RESOURCE_SGPRS; i++)
            if (r->limiters & (1u << i))
                fprintf(out, "%s%s", n++ ? " and " : "", cli_resource_word(&l->dev, i));
        fprintf(out, " tie at %d); together:\n", r->blocks_per_sm);
    }
    for (int32_t i = 0; i < count; i++) {
        fprintf(out, "next step   ");
        print_change(out, &steps[i].change, amd, intel);
        for (int32_t j = 0; j < steps[i].also_count; j++) {
            fprintf(out, " and ");
            print_change(out, &steps[i].also[j], amd, intel);
        }
        fprintf(out, " for %d %s/%s\n", steps[i].blocks_per_sm, w.blocks, w.unit);
    }
    if (count == 0 && r->warps_per_sm < r->max_warps_per_sm) {
        if (r->limiters & GPUOCC_LIMIT_BLOCKS)
            fprintf(out, intel ? "next step   the work-group cap binds: use larger work-groups to hold more hardware "
                                 "threads\n"
                               : "next step   the block-slot cap binds: use larger blocks to hold more warps\n");
        else
            fprintf(out, "next step   no change of the kernel's inputs gains a %s\n", w.block);
    }
}

/* What AMD's blocks are counted per: a WGP on gfx10+ in WGP mode (as HIP counts CUs there), else a CU. */
static const char *amd_unit(const struct cli_launch *l)
{
    return l->dev.cus_per_wgp > 1 && !l->k.cu_mode ? "WGP" : "CU";
}

static int32_t amd_wave_size(const struct cli_launch *l)
{
    return l->k.wave_size ? l->k.wave_size : l->dev.warp_size;
}

static void print_report_text_amd(FILE *out, const struct cli_launch *l, const gpuocc_result *r)
{
    char arch[16], lim[96];
    const char *unit = amd_unit(l);
    cli_arch_name(&l->dev, arch, sizeof arch);
    cli_limiters(r->limiters, lim, sizeof lim);
    if (l->dev.sm_count)
        fprintf(out, "device      %s (%s, %d %ss as HIP counts them)\n", l->dev_name, arch, l->dev.sm_count, unit);
    else
        fprintf(out, "device      %s (%s, CU count unknown)\n", l->dev_name, arch);
    fprintf(out, "kernel      %d threads/workgroup (%d wave%d), %d VGPRs + %d AGPRs per lane, ", l->k.threads_per_block,
            r->warps_per_block, amd_wave_size(l), l->k.regs_per_thread, l->k.agprs);
    if (l->k.sgprs)
        fprintf(out, "%d SGPRs per wave, ", l->k.sgprs);
    else
        fprintf(out, "SGPRs not given, ");
    fprintf(out, "%lld B static + %lld B dynamic LDS%s\n", (long long)l->k.smem_static_bytes,
            (long long)l->k.smem_dynamic_bytes, l->k.cu_mode ? ", CU mode" : "");
    if (l->k.flat_workgroup_size_min > 0)
        fprintf(out, "compiled    for workgroups of %d to %d threads\n", l->k.flat_workgroup_size_min,
                l->k.max_threads_per_block);
    else if (l->k.max_threads_per_block > 0)
        fprintf(out, "compiled    for workgroups of up to %d threads\n", l->k.max_threads_per_block);
    if (l->k.waves_per_eu_min || l->k.waves_per_eu_max)
        fprintf(out, "compiled    with amdgpu_waves_per_eu(%d, %d)\n", l->k.waves_per_eu_min ? l->k.waves_per_eu_min : 1,
                l->k.waves_per_eu_max ? l->k.waves_per_eu_max : l->dev.waves_per_simd);
    if (l->k.trap_handler < 0)
        fprintf(out, "compiled    without the trap handler\n");
    if (r->model == GPUOCC_MODEL_RUNTIME) {
        if (l->k.rocm_version)
            fprintf(out, "model       runtime: HIP's hipOccupancyMaxActiveBlocksPerMultiprocessor as of ROCm %d.%d\n",
                    l->k.rocm_version / 100, l->k.rocm_version % 100);
        else
            fprintf(out, "model       runtime: HIP's hipOccupancyMaxActiveBlocksPerMultiprocessor (newest rules)\n");
    } else if (r->model == GPUOCC_MODEL_LLVM19)
        fprintf(out, "model       llvm19: LLVM 19's occupancy, as llc-19 prints it (today's: --model compiler)\n");
    else
        fprintf(out, "model       compiler: today's LLVM occupancy (LLVM 19's: --model llvm19; HIP's: --model "
                "runtime)\n");
    fprintf(out, "waves/SIMD  %d of %d (the compiler's: LLVM's \"Occupancy [waves/SIMD]\")\n", r->waves_per_simd,
            l->dev.waves_per_simd);
    if (l->k.dvgpr)
        fprintf(out, "dvgpr       dynamic VGPRs in blocks of %d: no VGPR limit on waves, %d VGPRs addressable (8 blocks)\n",
                l->k.dvgpr, 8 * l->k.dvgpr);
    fprintf(out, "blocks/%-4s %d\n", unit, r->blocks_per_sm);
    fprintf(out, "waves/%-5s %d of %d\n", unit, r->warps_per_sm, r->max_warps_per_sm);
    fprintf(out, "occupancy   %.1f %%\n", 100.0 * r->occupancy);
    fprintf(out, "limited by  %s\n", lim);
    char why[256];
    if (cli_exceeded(&l->dev, &l->k, r, why, sizeof why))
        fprintf(out, "exceeded    %s\n", why);
    print_limits(out, &l->dev, r, true, unit);
    fprintf(out, "allocated   %d VGPRs (x lanes) and %lld B LDS per workgroup; %lld B LDS per %s\n", r->regs_per_block,
            (long long)r->smem_per_block_bytes, (long long)r->smem_per_sm_bytes, unit);
    if (l->dev.sm_count)
        fprintf(out, "full wave   %lld blocks (%d %ss x %d)\n", (long long)r->blocks_per_sm * l->dev.sm_count,
                l->dev.sm_count, unit, r->blocks_per_sm);
    print_next_steps(out, l, r, unit);
}

/* Intel's report: work-groups per Xe-core, hardware threads (one per sub-group), SLM (docs/intel.md). */
static void print_report_text_intel(FILE *out, const struct cli_launch *l, const gpuocc_result *r)
{
    char arch[16], lim[96];
    cli_arch_name(&l->dev, arch, sizeof arch);
    cli_limiter_words(&l->dev, r->limiters, lim, sizeof lim);
    bool runtime = r->model == GPUOCC_MODEL_INTEL_RUNTIME;
    int32_t sub_group = l->k.sub_group ? l->k.sub_group : l->dev.warp_size;
    if (l->dev.sm_count)
        fprintf(out, "device      %s (%s, %d Xe-cores)\n", l->dev_name, arch, l->dev.sm_count);
    else
        fprintf(out, "device      %s (%s, Xe-core count unknown)\n", l->dev_name, arch);
    fprintf(out, "kernel      %d work-items/work-group in sub-groups of %d (%d hardware threads), %d GRF, %lld B "
            "static + %lld B dynamic SLM, %d barrier(s)\n", l->k.threads_per_block, sub_group, r->warps_per_block,
            l->k.grf ? l->k.grf : 128, (long long)l->k.smem_static_bytes, (long long)l->k.smem_dynamic_bytes,
            l->k.barriers);
    fprintf(out, "model       %s\n", runtime ? "runtime: the compute runtime's getMaxWorkGroupCount (cooperative launches)"
                                             : "calculator: Intel's GPU Occupancy Calculator (the runtime's: --model runtime)");
    fprintf(out, "WGs/Xe-core %d\n", r->blocks_per_sm);
    fprintf(out, "hw threads  %d of %d hardware threads per Xe-core\n", r->warps_per_sm, r->max_warps_per_sm);
    fprintf(out, "occupancy   %.1f %%\n", 100.0 * r->occupancy);
    fprintf(out, "limited by  %s\n", lim);
    char why[256];
    if (cli_exceeded(&l->dev, &l->k, r, why, sizeof why))
        fprintf(out, "exceeded    %s\n", why);
    print_limits(out, &l->dev, r, false, "Xe-core");
    fprintf(out, "allocated   %lld B SLM per work-group; %lld B SLM per Xe-core\n", (long long)r->smem_per_block_bytes,
            (long long)r->smem_per_sm_bytes);
    if (l->dev.sm_count)
        fprintf(out, "GPU         %lld work-groups resident%s\n", (long long)r->workgroups_per_gpu,
                runtime ? " (the runtime's count for a cooperative launch)" : "");
    print_next_steps(out, l, r, "Xe-core");
}

/* The Hopper- and Blackwell-era lines, after the limits: tensor memory, setmaxnreg, the launch bounds' minimum. */
/* --blocks, --stage-bytes: what N blocks leave for the shared memory, the registers and the stages */
static void print_inverse_text(FILE *out, const struct cli_launch *l, const struct cli_report_extra *x,
                               const char *unit)
{
    if (!x->target_blocks)
        return;
    bool amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev);
    const char *smem = amd ? "LDS" : intel ? "SLM" : "shared memory", *regs = amd ? "VGPRs" : intel ? "GRF" : "registers";
    const char *blocks = intel ? "WGs" : "blocks", *per = amd ? " per lane" : intel ? "" : " per thread";
    fprintf(out, "for %-7d %s/%s: ", x->target_blocks, blocks, unit);
    if (x->smem_available_rc == GPUOCC_OK)
        fprintf(out, "at most %lld B dynamic %s", (long long)x->smem_available, smem);
    else
        fprintf(out, "no dynamic %s fits", smem);
    if (x->regs_max_rc == GPUOCC_OK)
        fprintf(out, ", at most %d %s%s\n", x->regs_max, regs, per);
    else
        fprintf(out, ", no %s count fits\n", regs);
    if (!x->have_stage)
        return;
    if (x->stages_rc == GPUOCC_OK)
        fprintf(out, "stages      %lld of %lld B after %lld B (%lld B dynamic %s) still fit %d %s/%s\n",
                (long long)x->stages, (long long)x->stage_bytes, (long long)x->base_bytes,
                (long long)(x->base_bytes + x->stages * x->stage_bytes), smem, x->target_blocks, blocks, unit);
    else
        fprintf(out, "stages      none: the %lld B of base alone do not fit %d %s/%s\n", (long long)x->base_bytes,
                x->target_blocks, blocks, unit);
}

static void print_extra_text(FILE *out, const struct cli_launch *l, const gpuocc_result *r,
                             const struct cli_report_extra *x, const char *unit)
{
    if (l->k.tmem_columns > 0) {
        int32_t waiting = r->blocks_per_sm > x->tmem_holders ? r->blocks_per_sm - x->tmem_holders : 0;
        fprintf(out, "tmem        %d of the SM's %d columns per block: %d block(s) hold tensor memory at once",
                l->k.tmem_columns, l->dev.tmem_columns_per_sm, x->tmem_holders);
        if (waiting)
            fprintf(out, "; %d of the %d resident wait at tcgen05.alloc\n", waiting, r->blocks_per_sm);
        else
            fprintf(out, " (all %d resident)\n", r->blocks_per_sm);
    }
    if (x->setmaxnreg_count) {
        const gpuocc_setmaxnreg_result *s = &x->smr;
        char list[sizeof x->setmaxnreg_text * 2];
        size_t at = 0;
        for (int32_t i = 0; i < x->setmaxnreg_count; i++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%d", i ? ", " : "", x->setmaxnreg[i]);
        fprintf(out, "setmaxnreg  %s: %lld of the block's %lld registers (%d x %d; mean %.1f per thread): %s; "
                "blocks/%s unchanged (%d, from the launch's %d registers)\n", list,
                (long long)s->requested_regs, (long long)s->pool_regs, l->k.regs_per_thread, l->k.threads_per_block,
                s->mean_regs_per_thread, s->fits ? "fits" : "does not fit (a setmaxnreg.inc waits forever)", unit,
                s->blocks_per_sm, l->k.regs_per_thread);
        if (s->warnings & GPUOCC_SETMAXNREG_UNFIXED)
            fprintf(out, "warning     no fixed register count recorded: ptxas ignores setmaxnreg unless maxnreg, "
                    "-maxrregcount or __launch_bounds__ with a minimum of blocks fixes it (--regs-fixed: it does)\n");
    }
    print_inverse_text(out, l, x, unit);
    if (x->min_blocks) {
        char lim[96];
        cli_limiters(x->min_blocks_preventing, lim, sizeof lim);
        if (x->min_blocks_preventing)
            fprintf(out, "min blocks  %d asked (__launch_bounds__): not reached, %d fit; prevented by %s\n", x->min_blocks,
                    r->blocks_per_sm, lim);
        else
            fprintf(out, "min blocks  %d asked (__launch_bounds__): reached (%d fit)\n", x->min_blocks, r->blocks_per_sm);
    }
}

static void print_report_text(FILE *out, const struct cli_launch *l, const gpuocc_result *r,
                              const struct cli_report_extra *x, const struct cli_cluster *cc)
{
    if (cli_is_amd(&l->dev)) {
        print_report_text_amd(out, l, r);
        print_extra_text(out, l, r, x, cli_is_amd(&l->dev) && l->dev.cus_per_wgp > 1 && !l->k.cu_mode ? "WGP" : "CU");
        cli_grid_text(out, l, cc, amd_unit(l));
        return;
    }
    if (cli_is_intel(&l->dev)) {
        print_report_text_intel(out, l, r);
        print_extra_text(out, l, r, x, "Xe-core");
        cli_grid_text(out, l, cc, "Xe-core");
        return;
    }
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
    if (l->k.virtual_resources > 0) {
        if (l->dev.virtual_resources_per_sm > 0)
            fprintf(out, "virtual     %d of the SM's %d virtual resources per block: %d blocks/SM at most\n",
                    l->k.virtual_resources, l->dev.virtual_resources_per_sm, r->limit_virtual_resources);
        else
            fprintf(out, "virtual     %d virtual resources per block: %s has none to limit (cc 10.0 and later do)\n",
                    l->k.virtual_resources, arch);
    }
    fprintf(out, "blocks/SM   %d\n", r->blocks_per_sm);
    fprintf(out, "warps/SM    %d of %d\n", r->warps_per_sm, r->max_warps_per_sm);
    fprintf(out, "occupancy   %.1f %%\n", 100.0 * r->occupancy);
    fprintf(out, "limited by  %s\n", lim);
    char why[256];
    if (cli_exceeded(&l->dev, &l->k, r, why, sizeof why))
        fprintf(out, "exceeded    %s\n", why);
    print_limits(out, &l->dev, r, false, "SM");
    print_extra_text(out, l, r, x, "SM");
    fprintf(out, "allocated   %d registers and %lld B shared memory per block; %lld B shared memory per SM configured\n",
           r->regs_per_block, (long long)r->smem_per_block_bytes, (long long)r->smem_per_sm_bytes);
    if (l->dev.sm_count)
        fprintf(out, "full wave   %d blocks (%d SMs x %d)\n", r->blocks_per_sm * l->dev.sm_count, l->dev.sm_count,
               r->blocks_per_sm);
    cli_cluster_text(out, l, cc);
    cli_grid_text(out, l, cc, "SM");
    print_next_steps(out, l, r, "SM");
    char notes[256];
    if (cli_report_notes(l, notes, sizeof notes))
        for (const char *line = notes, *end; *line && (end = strchr(line, '\n')); line = end + 1)
            fprintf(out, "note        %.*s\n", (int)(end - line), line);
}

/* The report's fields, in order, for --json and --csv alike (docs/output.md lists them).  Both vendors print
   the same keys; a field of the other vendor's is not applicable (F_NA: null in JSON, empty in CSV). */
/* F_WORD: text of static storage (a literal), written with the JSON writer's `word` */
/* F_GIVEN: a launch input whose 0 is "not given": null in JSON, an empty CSV cell (as gpuocc batch reads it);
   F_TRAP: the trap handler, the C field (-1, 0, 1) in CSV as gpuocc batch reads it, a boolean in JSON */
enum field_kind { F_TEXT, F_INT, F_COUNT, F_LIMIT, F_FIXED6, F_LIMITERS, F_NA, F_BOOL, F_LIST, F_WORD, F_GIVEN,
                  F_TRAP };
struct field {
    const char *key;
    enum field_kind kind; /* F_COUNT: 0 = unknown; F_LIMIT: GPUOCC_UNLIMITED = no limit (-1 / null) */
    const char *text;
    int64_t n;
    double x;
};

/* Text the fields point into: the architecture's name and the ROCm release. */
struct field_text {
    char arch[16], rocm[16], why[256];
};

static size_t report_fields(const struct cli_launch *l, const gpuocc_result *r, const struct cli_report_extra *x,
                            const struct cli_cluster *cc,
                            struct field_text *t, struct field *f)
{
    char *arch = t->arch;
    size_t cap = sizeof t->arch;
    t->rocm[0] = '\0'; /* the ROCm release, only where the field shows it (below) */
    if (l->k.rocm_version)
        snprintf(t->rocm, sizeof t->rocm, "%d.%d", l->k.rocm_version / 100, l->k.rocm_version % 100);
    cli_arch_name(&l->dev, arch, cap);
    bool amd = cli_is_amd(&l->dev), intel = cli_is_intel(&l->dev), nvidia = !amd && !intel;
    enum field_kind nv_int = nvidia ? F_INT : F_NA, amd_int = amd ? F_INT : F_NA, intel_int = intel ? F_INT : F_NA;
    const char *model = amd     ? cli_amd_model_name(r->model)
                        : intel ? (r->model == GPUOCC_MODEL_INTEL_RUNTIME ? "runtime" : "calculator")
                                : NULL;
    size_t n = 0;
    f[n++] = (struct field){"device", F_TEXT, l->dev_name, 0, 0};
    f[n++] = (struct field){"vendor", F_WORD, cli_vendor_name(&l->dev), 0, 0};
    f[n++] = (struct field){"arch", F_TEXT, arch, 0, 0};
    f[n++] = (struct field){"sm_count", F_COUNT, NULL, l->dev.sm_count, 0};
    f[n++] = (struct field){"threads", F_INT, NULL, l->k.threads_per_block, 0};
    f[n++] = (struct field){"regs", intel ? F_NA : F_INT, NULL, l->k.regs_per_thread, 0};
    f[n++] = (struct field){"smem_static", F_INT, NULL, l->k.smem_static_bytes, 0};
    f[n++] = (struct field){"smem_dynamic", F_INT, NULL, l->k.smem_dynamic_bytes, 0};
    f[n++] = (struct field){"barriers", amd ? F_NA : F_INT, NULL, l->k.barriers, 0};
    f[n++] = (struct field){"carveout", nv_int, NULL, l->k.carveout_percent, 0};
    f[n++] = (struct field){"smem_optin", nv_int, NULL, l->k.smem_optin, 0};
    f[n++] = (struct field){"agprs", amd_int, NULL, l->k.agprs, 0};
    f[n++] = (struct field){"sgprs", amd ? F_GIVEN : F_NA, NULL, l->k.sgprs, 0};
    f[n++] = (struct field){"wave_size", amd_int, NULL, amd ? amd_wave_size(l) : 0, 0};
    f[n++] = (struct field){"cu_mode", amd_int, NULL, l->k.cu_mode, 0};
    f[n++] = (struct field){"max_threads", F_GIVEN, NULL, l->k.max_threads_per_block, 0};
    f[n++] = (struct field){"model", model ? F_WORD : F_NA, model, 0, 0};
    f[n++] = (struct field){"rocm", amd && l->k.model == GPUOCC_MODEL_RUNTIME && l->k.rocm_version ? F_TEXT : F_NA,
                            t->rocm, 0, 0};
    f[n++] = (struct field){"blocks_per_sm", F_INT, NULL, r->blocks_per_sm, 0};
    f[n++] = (struct field){"warps_per_sm", F_INT, NULL, r->warps_per_sm, 0};
    f[n++] = (struct field){"max_warps_per_sm", F_INT, NULL, r->max_warps_per_sm, 0};
    f[n++] = (struct field){"occupancy", F_FIXED6, NULL, 0, r->occupancy};
    f[n++] = (struct field){"waves_per_simd", amd_int, NULL, r->waves_per_simd, 0};
    f[n++] = (struct field){"limiters", F_LIMITERS, NULL, r->limiters, 0};
    f[n++] = (struct field){"limit_warps", F_LIMIT, NULL, r->limit_warps, 0};
    f[n++] = (struct field){"limit_regs", F_LIMIT, NULL, r->limit_regs, 0};
    f[n++] = (struct field){"limit_smem", F_LIMIT, NULL, r->limit_smem, 0};
    f[n++] = (struct field){"limit_blocks", F_LIMIT, NULL, r->limit_blocks, 0};
    f[n++] = (struct field){"limit_barriers", F_LIMIT, NULL, r->limit_barriers, 0};
    f[n++] = (struct field){"limit_sgprs", F_LIMIT, NULL, amd ? r->limit_sgprs : GPUOCC_UNLIMITED, 0};
    f[n++] = (struct field){"regs_per_block", F_INT, NULL, r->regs_per_block, 0};
    f[n++] = (struct field){"smem_per_block", F_INT, NULL, r->smem_per_block_bytes, 0};
    f[n++] = (struct field){"smem_per_sm", F_INT, NULL, r->smem_per_sm_bytes, 0};
    /* Intel's (1.0.0), last so that the columns before keep their places */
    f[n++] = (struct field){"sub_group", intel_int, NULL, l->k.sub_group ? l->k.sub_group : l->dev.warp_size, 0};
    f[n++] = (struct field){"grf", intel_int, NULL, l->k.grf ? l->k.grf : 128, 0};
    f[n++] = (struct field){"workgroups_per_gpu", intel && l->dev.sm_count ? F_INT : F_NA, NULL, r->workgroups_per_gpu,
                            0};
    /* NVIDIA's virtual resources (1.0.0), after Intel's */
    f[n++] = (struct field){"virtual_resources", nv_int, NULL, l->k.virtual_resources, 0};
    f[n++] = (struct field){"limit_virtual_resources", F_LIMIT, NULL, nvidia ? r->limit_virtual_resources : GPUOCC_UNLIMITED,
                            0};
    /* the input a launch of 0 blocks is over and its limit, as the library names them (null when none) */
    const char *over = cli_exceeded(&l->dev, &l->k, r, t->why, sizeof t->why);
    f[n++] = (struct field){"exceeded", over ? F_WORD : F_NA, over, 0, 0};
    f[n++] = (struct field){"exceeded_limit", over ? F_INT : F_NA, NULL, r->exceeded_limit, 0};
    /* tensor memory, setmaxnreg, the launch bounds' minimum, AMD's dynamic VGPRs */
    bool tmem = nvidia && l->k.tmem_columns > 0, smr = x->setmaxnreg_count > 0, mb = x->min_blocks > 0;
    int32_t waiting = tmem && r->blocks_per_sm > x->tmem_holders ? r->blocks_per_sm - x->tmem_holders : 0;
    f[n++] = (struct field){"tmem_columns", nv_int, NULL, l->k.tmem_columns, 0};
    f[n++] = (struct field){"tmem_holders_per_sm", tmem ? F_INT : F_NA, NULL, x->tmem_holders, 0};
    f[n++] = (struct field){"tmem_waiting_blocks", tmem ? F_INT : F_NA, NULL, waiting, 0};
    f[n++] = (struct field){"setmaxnreg", smr ? F_LIST : F_NA, x->setmaxnreg_text, 0, 0};
    f[n++] = (struct field){"setmaxnreg_fits", smr ? F_BOOL : F_NA, NULL, x->smr.fits, 0};
    f[n++] = (struct field){"setmaxnreg_pool_regs", smr ? F_INT : F_NA, NULL, x->smr.pool_regs, 0};
    f[n++] = (struct field){"setmaxnreg_requested_regs", smr ? F_INT : F_NA, NULL, x->smr.requested_regs, 0};
    f[n++] = (struct field){"setmaxnreg_mean_regs", smr ? F_FIXED6 : F_NA, NULL, 0, x->smr.mean_regs_per_thread};
    f[n++] = (struct field){"setmaxnreg_unfixed", smr ? F_BOOL : F_NA, NULL,
                            (x->smr.warnings & GPUOCC_SETMAXNREG_UNFIXED) != 0, 0};
    f[n++] = (struct field){"min_blocks", mb ? F_INT : F_NA, NULL, x->min_blocks, 0};
    f[n++] = (struct field){"min_blocks_reached", mb ? F_BOOL : F_NA, NULL, x->min_blocks_preventing == 0, 0};
    f[n++] = (struct field){"min_blocks_preventing", mb ? F_LIMITERS : F_NA, NULL, x->min_blocks_preventing, 0};
    f[n++] = (struct field){"dvgpr", amd_int, NULL, l->k.dvgpr, 0};
    /* thread-block clusters (1.0.0, --cluster): null without it; clusters_kind says "exact" or "bound" */
    enum field_kind cl = cc->given ? F_INT : F_NA, grid = cc->grid_given ? F_INT : F_NA;
    bool counted = cc->given && cc->have_result;
    f[n++] = (struct field){"cluster_x", cl, NULL, cc->c.cluster_x, 0};
    f[n++] = (struct field){"cluster_y", cl, NULL, cc->c.cluster_y, 0};
    f[n++] = (struct field){"cluster_z", cl, NULL, cc->c.cluster_z, 0};
    f[n++] = (struct field){"cluster_nonportable", cl, NULL, cc->c.cluster_nonportable, 0};
    f[n++] = (struct field){"grid_x", grid, NULL, cc->c.grid_x, 0};
    f[n++] = (struct field){"grid_y", grid, NULL, cc->c.grid_y, 0};
    f[n++] = (struct field){"grid_z", grid, NULL, cc->c.grid_z, 0};
    f[n++] = (struct field){"gpc_sms", cc->given && cc->layout_given ? F_TEXT : F_NA, cc->gpc_sms, 0, 0};
    f[n++] = (struct field){"cluster_blocks", cl, NULL,
                            (int64_t)cc->c.cluster_x * cc->c.cluster_y * cc->c.cluster_z, 0};
    int32_t most = 0;
    if (cc->given)
        gpuocc_cluster_size_max(&l->dev, cc->c.cluster_nonportable, &most);
    f[n++] = (struct field){"cluster_blocks_max", cc->given ? F_LIMIT : F_NA, NULL, most, 0};
    f[n++] = (struct field){"cluster_verdict", cc->given ? F_WORD : F_NA, cli_cluster_verdict_name(cc->verdict), 0, 0};
    f[n++] = (struct field){"clusters_kind", counted ? F_WORD : F_NA, counted ? cli_cluster_kind(cc) : NULL, 0, 0};
    f[n++] = (struct field){"clusters_min", counted && cc->r.clusters_min >= 0 ? F_INT : F_NA, NULL,
                            cc->r.clusters_min, 0};
    f[n++] = (struct field){"clusters_max", counted ? F_INT : F_NA, NULL, cc->r.clusters_max, 0};
    /* a grid's blocks and, without --cluster, its waves (1.0.0) */
    f[n++] = (struct field){"grid_blocks", grid, NULL, cc->grid_blocks, 0};
    f[n++] = (struct field){"waves", cc->have_waves ? F_INT : F_NA, NULL, cc->waves.waves, 0};
    /* the inverse queries (1.0.0, --blocks, --stage-bytes): null without them, and where N blocks never fit */
    bool inv = x->target_blocks > 0, st = inv && x->have_stage;
    f[n++] = (struct field){"target_blocks", inv ? F_INT : F_NA, NULL, x->target_blocks, 0};
    f[n++] = (struct field){"smem_dynamic_available", inv && x->smem_available_rc == GPUOCC_OK ? F_INT : F_NA, NULL,
                            x->smem_available, 0};
    f[n++] = (struct field){"regs_max_for_blocks", inv && x->regs_max_rc == GPUOCC_OK ? F_INT : F_NA, NULL,
                            x->regs_max, 0};
    f[n++] = (struct field){"stage_bytes", st ? F_INT : F_NA, NULL, x->stage_bytes, 0};
    f[n++] = (struct field){"base_bytes", st ? F_INT : F_NA, NULL, x->base_bytes, 0};
    f[n++] = (struct field){"max_stages", st && x->stages_rc == GPUOCC_OK ? F_INT : F_NA, NULL, x->stages, 0};
    /* AMD's compiler inputs (1.0.0): the trap handler as the models take it, waves per EU and the flat
       workgroup minimum as given (null: unset) */
    f[n++] = (struct field){"trap_handler", amd ? F_TRAP : F_NA, NULL, l->k.trap_handler, 0};
    f[n++] = (struct field){"waves_per_eu_min", amd ? F_GIVEN : F_NA, NULL, l->k.waves_per_eu_min, 0};
    f[n++] = (struct field){"waves_per_eu_max", amd ? F_GIVEN : F_NA, NULL, l->k.waves_per_eu_max, 0};
    f[n++] = (struct field){"flat_workgroup_size_min", amd ? F_GIVEN : F_NA, NULL, l->k.flat_workgroup_size_min, 0};
    return n;
}

/* A field as its CSV cell (the JSON value: json_field) */
static void print_field(FILE *out, const struct field *f)
{
    bool unknown = (f->kind == F_COUNT && f->n <= 0) || (f->kind == F_LIMIT && f->n == GPUOCC_UNLIMITED);
    if (f->kind == F_NA || (f->kind == F_GIVEN && f->n == 0))
        return;
    if (unknown)
        fputs("-1", out);
    else if (f->kind == F_TEXT || f->kind == F_WORD)
        csv_cell(out, f->text, strlen(f->text));
    else if (f->kind == F_FIXED6)
        fprintf(out, "%.6f", f->x);
    else if (f->kind == F_BOOL)
        fputs(f->n ? "true" : "false", out);
    else if (f->kind == F_LIST) /* "40|232|232", |-joined */
        fputs(f->text, out);
    else if (f->kind == F_LIMITERS) {
        char lim[96];
        cli_limiters((uint32_t)f->n, lim, sizeof lim);
        fputs(lim, out);
    } else
        fprintf(out, "%lld", (long long)f->n);
}

static void json_field(const struct cli_json_ops *o, void *c, const struct field *f)
{
    bool unknown = (f->kind == F_COUNT && f->n <= 0) || (f->kind == F_LIMIT && f->n == GPUOCC_UNLIMITED);
    if (f->kind == F_NA || unknown || (f->kind == F_GIVEN && f->n == 0))
        o->null(c);
    else if (f->kind == F_TEXT)
        o->string(c, f->text);
    else if (f->kind == F_WORD)
        o->word(c, f->text);
    else if (f->kind == F_FIXED6)
        o->fixed6(c, f->x);
    else if (f->kind == F_BOOL)
        o->boolean(c, f->n != 0);
    else if (f->kind == F_TRAP) /* on unless compiled without it (-1) */
        o->boolean(c, f->n >= 0);
    else if (f->kind == F_LIST) { /* "40|232|232": a JSON array of integers */
        o->open(c, '[');
        for (const char *p = f->text; *p;) {
            char *end;
            o->integer(c, strtoll(p, &end, 10));
            p = *end == '|' ? end + 1 : end + strlen(end);
        }
        o->close(c, ']');
    } else if (f->kind == F_LIMITERS) {
        o->open(c, '[');
        for (int32_t i = 0; i <= GPUOCC_RESOURCE_VIRTUAL; i++) /* every vendor's resources, as json_limiters */
            if ((uint32_t)f->n & (1u << i))
                o->word(c, gpuocc_resource_name(i));
        o->close(c, ']');
    } else
        o->integer(c, f->n);
}

static void json_change(const struct cli_json_ops *o, void *c, const gpuocc_step_change *ch)
{
    o->key(c, "resource");
    o->word(c, gpuocc_resource_name(ch->resource));
    o->key(c, "new_value");
    o->integer(c, ch->new_value);
    o->key(c, "shed");
    o->integer(c, ch->shed);
}

void cli_report_write(const struct cli_report *rep, const struct cli_json_ops *o, void *c)
{
    struct field f[96];
    struct field_text t;
    size_t n = report_fields(&rep->l, &rep->r, &rep->x, &rep->cc, &t, f);
    o->open(c, '{');
    for (size_t i = 0; i < n; i++) {
        o->key(c, f[i].key);
        json_field(o, c, &f[i]);
    }
    o->key(c, "next_steps");
    o->open(c, '[');
    gpuocc_step steps[GPUOCC_STEPS_MAX];
    int32_t count = report_steps(&rep->l, &rep->r, steps);
    for (int32_t i = 0; i < count; i++) {
        o->open(c, '{');
        json_change(o, c, &steps[i].change);
        o->key(c, "blocks_per_sm");
        o->integer(c, steps[i].blocks_per_sm);
        o->key(c, "also");
        o->open(c, '[');
        for (int32_t j = 0; j < steps[i].also_count; j++) {
            o->open(c, '{');
            json_change(o, c, &steps[i].also[j]);
            o->close(c, '}');
        }
        o->close(c, ']');
        o->close(c, '}');
    }
    o->close(c, ']');
    o->close(c, '}');
}

/* The text writer: compact JSON into a cli_buf, commas between members and elements. */
struct json_text {
    struct cli_buf b;
    int depth;                 /* open containers */
    bool first[16], array[16]; /* per depth: nothing written in it yet; it is an array */
};

static void text_value(struct json_text *t) /* a value's comma, in an array */
{
    if (t->depth > 0 && t->array[t->depth - 1]) {
        if (!t->first[t->depth - 1])
            cli_buf_putc(&t->b, ',');
        t->first[t->depth - 1] = false;
    }
}

static void text_open(void *c, char bracket)
{
    struct json_text *t = c;
    text_value(t);
    cli_buf_putc(&t->b, bracket);
    if (t->depth < 16) {
        t->first[t->depth] = true;
        t->array[t->depth] = bracket == '[';
    }
    t->depth++;
}

static void text_close(void *c, char bracket)
{
    struct json_text *t = c;
    t->depth--;
    cli_buf_putc(&t->b, bracket);
}

static void text_key(void *c, const char *key)
{
    struct json_text *t = c;
    bool *first = &t->first[t->depth - 1];
    cli_buf_json_key(&t->b, first, key);
}

static void text_null(void *c)
{
    text_value(c);
    cli_buf_puts(&((struct json_text *)c)->b, "null");
}

static void text_boolean(void *c, bool v)
{
    text_value(c);
    cli_buf_puts(&((struct json_text *)c)->b, v ? "true" : "false");
}

static void text_integer(void *c, int64_t v)
{
    text_value(c);
    cli_buf_int(&((struct json_text *)c)->b, v);
}

static void text_fixed6(void *c, double v)
{
    text_value(c);
    cli_buf_printf(&((struct json_text *)c)->b, "%.6f", v);
}

static void text_string(void *c, const char *s)
{
    text_value(c);
    cli_buf_json_string(&((struct json_text *)c)->b, s);
}

static const struct cli_json_ops json_text_ops = {text_open, text_close, text_key, text_null, text_boolean,
                                                  text_integer, text_fixed6, text_string, text_string};

size_t cli_report_json(const struct cli_report *rep, char *out, size_t cap)
{
    struct json_text t = {.b = {out, 0, cap}};
    cli_report_write(rep, &json_text_ops, &t);
    cli_buf_putc(&t.b, '\n');
    return t.b.len;
}

/* --json: the object written into a buffer (cli_report_json), then out; false when memory ran out */
static bool print_report_json(FILE *out, const struct cli_report *rep)
{
    char buf[8192];
    size_t n = cli_report_json(rep, buf, sizeof buf);
    if (n < sizeof buf) {
        fwrite(buf, 1, n, out);
        return true;
    }
    char *big = malloc(n + 1);
    if (!big)
        return false;
    cli_report_json(rep, big, n + 1);
    fwrite(big, 1, n, out);
    free(big);
    return true;
}

static void print_report_csv(FILE *out, const struct cli_launch *l, const gpuocc_result *r,
                             const struct cli_report_extra *x, const struct cli_cluster *cc)
{
    struct field f[96];
    struct field_text t;
    size_t n = report_fields(l, r, x, cc, &t, f);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? "," : "", f[i].key);
    fputc('\n', out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        print_field(out, &f[i]);
    }
    fputc('\n', out);
}

/* --setmaxnreg 40,232,232: each warpgroup's register count after setmaxnreg. */
static void setmaxnreg_list(struct cli_io *io, const char *v, struct cli_report_extra *x)
{
    x->setmaxnreg_count = 0;
    x->setmaxnreg_text[0] = 0;
    size_t at = 0;
    for (const char *p = v;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int64_t t;
        if (x->setmaxnreg_count == GPUOCC_SETMAXNREG_MAX_WARPGROUPS || !cli_parse_int(p, len, 24, 256, &t) ||
            t % 8 != 0) {
            cli_fail(io, "--setmaxnreg", "expected at most %d registers per thread, one per warpgroup of 128 "
                     "threads, each a multiple of 8 from 24 to 256, separated by commas; got '%s'",
                     GPUOCC_SETMAXNREG_MAX_WARPGROUPS, v);
            return;
        }
        x->setmaxnreg[x->setmaxnreg_count++] = (int32_t)t;
        at += (size_t)snprintf(x->setmaxnreg_text + at, sizeof x->setmaxnreg_text - at, "%s%d", at ? "|" : "", (int)t);
        if (!end)
            return;
        p = end + 1;
    }
}

/* --blocks N, --stage-bytes B, --base-bytes B: the inverse queries for N blocks (1 by default).  An answer
   that does not exist (GPUOCC_ERR_UNSATISFIABLE) is kept as its status, printed null, and makes the report exit
   1 (cli_report_status); any other status is the launch's own error, already refused above. */
static bool report_inverse(struct cli_io *io, const struct cli_launch *l, struct cli_report_extra *x)
{
    if (x->base_bytes && !x->have_stage)
        return cli_fail(io, "--base-bytes", "only with --stage-bytes"), false;
    if (x->have_stage && x->stage_bytes < 1)
        return cli_fail(io, "--stage-bytes", "expected at least 1 byte a stage"), false;
    if (!x->target_blocks && !x->have_stage)
        return true;
    if (!x->target_blocks)
        x->target_blocks = 1;
    const char *flag = x->have_stage ? "--stage-bytes" : "--blocks";
    int32_t *rcs[3] = {&x->smem_available_rc, &x->regs_max_rc, &x->stages_rc};
    x->smem_available_rc = gpuocc_smem_dynamic_available(&l->dev, &l->k, x->target_blocks, &x->smem_available);
    x->regs_max_rc = gpuocc_regs_max_for_blocks(&l->dev, &l->k, x->target_blocks, &x->regs_max);
    x->stages_rc = x->have_stage ? gpuocc_max_stages(&l->dev, &l->k, x->target_blocks, x->base_bytes,
                                                     x->stage_bytes, &x->stages)
                                 : GPUOCC_OK;
    for (int i = 0; i < 3; i++)
        if (*rcs[i] != GPUOCC_OK && *rcs[i] != GPUOCC_ERR_UNSATISFIABLE)
            return cli_fail(io, flag, "%s", gpuocc_strerror(*rcs[i])), false;
    return true;
}

void cli_report_init(struct cli_report *rep)
{
    memset(rep, 0, sizeof *rep);
    cli_launch_init(&rep->l);
    rep->x.tmem_holders = GPUOCC_UNLIMITED;
    cli_cluster_init(&rep->cc);
}

bool cli_report_flag(struct cli_args *a, struct cli_report *rep)
{
    struct cli_launch *l = &rep->l;
    if (cli_launch_flag(a, l) || cli_amd_launch_flag(a, l) || cli_intel_launch_flag(a, l) ||
        cli_cluster_flag(a, &rep->cc))
        return true;
    const char *v;
    if (cli_switch(a, "--json"))
        rep->json = true;
    else if (cli_switch(a, "--csv"))
        rep->csv = true;
    else if (cli_flag(a, "--setmaxnreg", &v))
        setmaxnreg_list(a->io, v, &rep->x);
    else if (cli_switch(a, "--regs-fixed"))
        rep->x.regs_fixed = true;
    else if (cli_flag(a, "--min-blocks", &v))
        rep->x.min_blocks = cli_int(a->io, "--min-blocks", v, 1, INT32_MAX);
    else if (cli_flag(a, "--blocks", &v))
        rep->x.target_blocks = cli_int(a->io, "--blocks", v, 1, INT32_MAX);
    else if (cli_flag(a, "--stage-bytes", &v)) {
        rep->x.stage_bytes = cli_size(a->io, "--stage-bytes", v);
        rep->x.have_stage = true;
    } else if (cli_flag(a, "--base-bytes", &v))
        rep->x.base_bytes = cli_size(a->io, "--base-bytes", v);
    else if (cli_switch(a, "--example"))
        rep->example = true;
    else
        return false;
    return true;
}

bool cli_report_answer(struct cli_io *io, struct cli_report *rep, int argc, char **argv)
{
    cli_report_init(rep);
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
    for (; cli_more(&a); a.i++)
        if (!cli_report_flag(&a, rep))
            cli_unknown(&a);
    return cli_report_finish(io, rep);
}

bool cli_report_finish(struct cli_io *io, struct cli_report *rep)
{
    struct cli_launch *l = &rep->l;
    struct cli_report_extra *x = &rep->x;
    struct cli_cluster *cc = &rep->cc;
    if (!cli_launch_check(io, l))
        return false;
    if (rep->json && rep->csv)
        return cli_fail(io, "--csv", "cannot be combined with --json"), false;
    if (rep->example) {
        if (l->have_arch || l->have_threads || l->have_regs)
            return cli_fail(io, "--example", "cannot be combined with --arch, --threads or --regs"), false;
        launch_example(io, l);
    } else {
        if (!l->have_arch)
            return cli_fail(io, "--arch", "required (or --example for the built-in example)"), false;
        if (!l->have_threads)
            return cli_fail(io, "--threads", "required"), false;
        if (!l->have_regs && cli_is_amd(&l->dev))
            return cli_fail(io, "--vgprs", "required (or --regs, the same field)"), false;
        if (!l->have_regs && !cli_is_intel(&l->dev)) /* Intel's register demand is --grf, 128 by default */
            return cli_fail(io, "--regs", "required"), false;
    }
    gpuocc_result *r = &rep->r;
    *r = (gpuocc_result){.size = sizeof *r};
    int32_t rc = gpuocc_occupancy(&l->dev, &l->k, r);
    char why[256], flag[64];
    const char *refused = rc != GPUOCC_OK ? cli_exceeded(&l->dev, &l->k, r, why, sizeof why) : NULL;
    if (refused) { /* a launch no compiler or driver accepts: an error, named by its flag */
        cli_input_flag(refused, flag, sizeof flag);
        return cli_fail(io, flag, "%s", why), false;
    }
    if (rc != GPUOCC_OK)
        return cli_fail(io, "input", "%s", gpuocc_strerror(rc)), false;
    if (l->k.tmem_columns > 0 && (rc = gpuocc_tmem_holders(&l->dev, l->k.tmem_columns, &x->tmem_holders)) != GPUOCC_OK)
        return cli_fail(io, "--tmem-columns", "%s", gpuocc_strerror(rc)), false;
    if (x->setmaxnreg_count) {
        x->smr.size = sizeof x->smr;
        rc = gpuocc_setmaxnreg_check(&l->dev, &l->k, x->setmaxnreg, x->setmaxnreg_count, x->regs_fixed, &x->smr);
        if (rc == GPUOCC_ERR_THREADS || rc == GPUOCC_ERR_ARGUMENT)
            return cli_fail(io, "--setmaxnreg", "%d values for %d threads: give one per warpgroup of 128 threads",
                            x->setmaxnreg_count, l->k.threads_per_block), false;
        if (rc != GPUOCC_OK)
            return cli_fail(io, "--setmaxnreg", "%s", gpuocc_strerror(rc)), false;
    } else if (x->regs_fixed)
        return cli_fail(io, "--regs-fixed", "only with --setmaxnreg"), false;
    if (x->min_blocks) {
        int32_t blocks;
        if ((rc = gpuocc_min_blocks_check(&l->dev, &l->k, x->min_blocks, &blocks, &x->min_blocks_preventing)))
            return cli_fail(io, "--min-blocks", "%s", gpuocc_strerror(rc)), false;
    }
    if (!report_inverse(io, l, x))
        return false;
    return cli_cluster_answer(io, l, cc);
}

int cli_report_status(struct cli_io *io, const struct cli_report *rep)
{
    const struct cli_launch *l = &rep->l;
    const struct cli_cluster *cc = &rep->cc;
    /* a launch that fits no block cannot run: answered, but `gpuocc report ... && launch` must stop */
    if (rep->r.blocks_per_sm == 0) {
        char lim[96], why[256];
        cli_limiter_words(&l->dev, rep->r.limiters, lim, sizeof lim);
        const char *none = cli_is_intel(&l->dev) ? "0 work-groups fit on an Xe-core"
                           : cli_is_amd(&l->dev) ? "0 workgroups fit on a CU"
                                                 : "0 blocks fit on a multiprocessor";
        if (cli_exceeded(&l->dev, &l->k, &rep->r, why, sizeof why))
            cli_problem(io, "launch", "cannot run: %s (limited by %s): %s", none, lim, why);
        else
            cli_problem(io, "launch", "cannot run: %s (limited by %s)", none, lim);
        return CLI_PARTIAL;
    }
    const struct cli_report_extra *x = &rep->x;
    if (x->target_blocks) {
        const char *unit = cli_is_intel(&l->dev) ? "work-group(s) per Xe-core" : "block(s) per SM";
        if (x->have_stage && x->stages_rc != GPUOCC_OK)
            cli_problem(io, "--stage-bytes", "max_stages: %d %s never fit with the %lld base bytes", x->target_blocks,
                        unit, (long long)x->base_bytes);
        else if (x->smem_available_rc != GPUOCC_OK || x->regs_max_rc != GPUOCC_OK)
            cli_problem(io, "--blocks", "%d %s never fit this launch, whatever its %s", x->target_blocks, unit,
                        x->smem_available_rc != GPUOCC_OK ? "shared memory" : "registers");
        if (x->stages_rc != GPUOCC_OK || x->smem_available_rc != GPUOCC_OK || x->regs_max_rc != GPUOCC_OK)
            return CLI_PARTIAL;
    }
    if (cc->given && cc->have_result && cc->r.clusters_max == 0) {
        cli_problem(io, "launch", "cannot run: no cluster of %d blocks fits on one GPC (%d blocks/SM)",
                    cc->r.cluster_blocks, cc->r.blocks_per_sm);
        return CLI_PARTIAL;
    }
    return CLI_OK;
}

static int cmd_report(struct cli_io *io, int argc, char **argv)
{
    FILE *out = io->out;
    struct cli_report rep;
    if (!cli_report_answer(io, &rep, argc, argv))
        return io->status;
    if (rep.json) {
        if (!print_report_json(out, &rep))
            return cli_fail(io, "output", "out of memory");
    } else if (rep.csv)
        print_report_csv(out, &rep.l, &rep.r, &rep.x, &rep.cc);
    else {
        if (rep.example)
            fprintf(out, "(built-in example: gpuocc report --arch H100 --threads 256 --regs 64 --smem-dynamic 48K)\n");
        print_report_text(out, &rep.l, &rep.r, &rep.x, &rep.cc);
    }
    return cli_report_status(io, &rep);
}

static const struct cli_option report_options[] = {
    CLI_LAUNCH_OPTIONS,
    CLI_AMD_LAUNCH_OPTIONS,
    CLI_INTEL_LAUNCH_OPTIONS,
    {"--setmaxnreg", "R,R,...", "NVIDIA sm_90a and later: each warpgroup's registers per thread after setmaxnreg "
                                "(multiples of 8 from 24 to 256): checks the block's register pool"},
    {"--regs-fixed", NULL, "with --setmaxnreg: the kernel has a fixed register count (maxnreg, -maxrregcount or "
                           "__launch_bounds__ with a minimum of blocks)"},
    {"--min-blocks", "N", "__launch_bounds__'s minimum of blocks: whether the launch reaches it, and what prevents it"},
    {"--blocks", "N", "the inverse queries for N blocks per SM (default 1 with --stage-bytes): the most dynamic shared "
                      "memory (smem_dynamic_available) and registers per thread (regs_max_for_blocks) that still fit N"},
    {"--stage-bytes", "BYTES", "a pipeline stage's dynamic shared memory: the most stages (max_stages) that still fit "
                               "--blocks blocks; --smem-dynamic is ignored for it"},
    {"--base-bytes", "BYTES", "with --stage-bytes: dynamic shared memory beside the stages (default 0)"},
    CLI_CLUSTER_OPTIONS,
    {"--json", NULL, "one JSON object instead of text"},
    {"--csv", NULL, "a CSV header and one row instead of text"},
    {"--example", NULL, "the built-in example (H100, 256 threads, 64 registers, 48 KiB dynamic)"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_report = {
    "report", cmd_report, "occupancy of one launch: limits, limiter, allocation, next step",
    "--arch NAME --threads N (--regs N | --vgprs N | Intel: [--sub-group N] [--grf N]) [options]  |  --example", report_options,
    "gpuocc report --arch H100 --threads 256 --regs 64 --smem-dynamic 48K\n"
    "gpuocc report --arch A100 --threads 256 --regs 32 --smem-static 48K --json\n"
    "gpuocc report --arch MI300X --threads 256 --vgprs 128 --agprs 0 --sgprs 32 --lds 32K\n"
    "gpuocc report --arch H100 --threads 1024 --regs 64 --cluster 2x1x1 --grid-blocks 264\n"
    "gpuocc report --arch pvc --threads 512 --sub-group 16 --slm 64K --grf 256 --barriers 1\n"
    "gpuocc report --arch Max1550 --threads 256 --sub-group 16 --slm 48K --model runtime --json\n"
    "gpuocc report --arch gfx1100 --threads 256 --vgprs 96 --lds 16K --wave-size 64 --model runtime --json\n"
    "gpuocc report --arch H100 --threads 256 --regs 128 --stage-bytes 32K --base-bytes 8K --blocks 1\n"
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

/* Whether table entry i answers one of the filters: a part of its name, or its architecture (sm_90, gfx942).
   Each filter that answers it is marked in `hit`. */
static bool matches(int32_t i, const char *arch, char **filters, int n, bool *hit)
{
    if (n == 0)
        return true;
    char name[96], want[96], arch_n[32];
    normalize(gpuocc_catalog_name(i), name, sizeof name);
    normalize(arch, arch_n, sizeof arch_n);
    bool any = false;
    for (int f = 0; f < n; f++) {
        normalize(filters[f], want, sizeof want);
        if (*want && (strstr(name, want) || !strcmp(arch_n, want)))
            hit[f] = any = true;
    }
    return any;
}

/* The table's columns differ by vendor: each vendor's rows come under their own header. */
/* vendor: 0 NVIDIA, 1 AMD, 2 Intel */
static void devices_header(FILE *out, int vendor, bool first)
{
    bool amd = vendor == 1;
    if (!first)
        fputc('\n', out);
    if (vendor == 2)
        fprintf(out, "%-18s %-7s %4s %4s %3s %5s %4s %4s %7s %7s %5s  %s\n", "name", "arch", "Xe", "XVEs", "thr",
                "maxWG", "WGs", "bars", "SLM/Xe", "SLM/wg", "SG", "source");
    else if (amd)
        fprintf(out, "%-18s %-7s %4s %5s %5s %5s %6s %4s %5s %7s %7s %5s  %s\n", "name", "arch", "CUs", "SIMDs", "waves",
                "HIP", "VGPRs", "gran", "AGPRs", "LDS/CU", "LDS/wg", "wave", "source");
    else
        fprintf(out, "%-18s %-7s %4s %6s %6s %7s %7s %7s %5s  %s\n", "name", "arch", "SMs", "thr/SM", "blk/SM",
                "regs/SM", "smem/SM", "optin", "resv", "source (full: --json)");
}

/* 100 columns: the source is cut to fit (--json carries it whole). */
static void devices_source(FILE *out, const char *src, int used)
{
    int room = 100 - used;
    if ((int)strlen(src) <= room)
        fprintf(out, "%s\n", src);
    else
        fprintf(out, "%.*s...\n", room - 3, src);
}

static const char *agpr_file_name(int32_t agpr_file)
{
    return agpr_file == GPUOCC_AGPR_UNIFIED ? "unified" : agpr_file == GPUOCC_AGPR_SEPARATE ? "separate" : "none";
}

/* The name column, 18 wide: a longer name whole on a line of its own, the row's figures under it (the names
   the lookup takes are the names printed, never cut). */
static void devices_name(FILE *out, const char *name)
{
    if (strlen(name) > 18)
        fprintf(out, "%s\n%18s", name, "");
    else
        fprintf(out, "%-18s", name);
}

static void devices_row(FILE *out, int32_t i, const gpuocc_device *d, const char *arch)
{
    devices_name(out, gpuocc_catalog_name(i));
    char sms[16] = "-";
    if (d->sm_count > 0)
        snprintf(sms, sizeof sms, "%d", d->sm_count);
    if (cli_is_intel(d)) {
        /* Xe-cores, XVEs x threads, the calculator's WG and barrier caps, SLM per Xe-core and per WG */
        fprintf(out, " %-7s %4s %4d %3d %5d %4d %4d %7lld %7lld %5s  ", arch, sms,
                d->xves_per_xecore, d->threads_per_xve, d->max_threads_per_block, d->max_blocks_per_sm,
                d->barriers_per_sm, (long long)d->smem_per_sm_bytes, (long long)d->smem_per_block_bytes,
                d->sub_group_sizes == (16 | 32) ? "16|32" : "8-32");
        devices_source(out, gpuocc_catalog_source(i), 87);
        return;
    }
    if (cli_is_amd(d)) {
        /* VGPRs and granule per lane for wave64; "CUs" are as HIP counts them (WGPs on gfx10+) */
        fprintf(out, " %-7s %4s %5d %5d %5d %6d %4d %5s %7lld %7lld %5s  ", arch, sms,
                d->simds_per_cu, d->waves_per_simd, d->runtime_waves_per_simd, d->vgprs_per_simd, d->vgpr_granule,
                d->agpr_file == GPUOCC_AGPR_UNIFIED ? "unif" : d->agpr_file == GPUOCC_AGPR_SEPARATE ? "sep" : "-", (long long)d->smem_per_sm_bytes, (long long)d->smem_per_block_bytes,
                d->wave_sizes == 96 ? "32|64" : d->wave_sizes == 32 ? "32" : "64");
        devices_source(out, gpuocc_catalog_source(i), 92);
        return;
    }
    fprintf(out, " %-7s %4s %6d %6d %7d %7lld %7lld %5lld  ", arch, sms,
            d->max_threads_per_sm, d->max_blocks_per_sm, d->regs_per_sm, (long long)d->smem_per_sm_bytes,
            (long long)d->smem_per_block_optin_bytes, (long long)d->smem_reserved_per_block_bytes);
    devices_source(out, gpuocc_catalog_source(i), 81);
}

struct json_int {
    const char *key;
    long long v;
};

static void json_ints(FILE *out, bool *first, const struct json_int *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        json_key(out, first, f[i].key);
        fprintf(out, "%lld", f[i].v);
    }
}

/* One JSON object: the fields both vendors have, then the vendor's own (docs/output.md). */
static void devices_json(FILE *out, int32_t i, const gpuocc_device *d, const char *arch, bool first_row)
{
    bool first = true;
    fprintf(out, "%s{", first_row ? "" : ",");
    json_key(out, &first, "name");
    json_string(out, gpuocc_catalog_name(i));
    json_key(out, &first, "kind");
    json_string(out, gpuocc_catalog_kind(i) == GPUOCC_CATALOG_ARCH ? "arch" : "product");
    json_key(out, &first, "vendor");
    json_string(out, cli_vendor_name(d));
    json_key(out, &first, "arch");
    json_string(out, arch);
    json_key(out, &first, "sm_count");
    if (d->sm_count <= 0)
        fputs("null", out); /* an architecture: no SM count */
    else
        fprintf(out, "%d", d->sm_count);
    const struct json_int shared[] = {
        {"warp_size", d->warp_size},
        {"max_threads_per_block", d->max_threads_per_block},
        {"max_threads_per_sm", d->max_threads_per_sm},
        {"regs_per_thread_max", d->regs_per_thread_max},
        {"barriers_per_sm", d->barriers_per_sm},
        {"smem_per_sm", d->smem_per_sm_bytes},
        {"smem_per_block", d->smem_per_block_bytes},
        {"smem_alloc_unit", d->smem_alloc_unit_bytes},
    };
    json_ints(out, &first, shared, sizeof shared / sizeof shared[0]);
    if (cli_is_intel(d)) {
        const struct json_int intel[] = {
            {"xves_per_xecore", d->xves_per_xecore},
            {"threads_per_xve", d->threads_per_xve},
            {"max_blocks_per_sm", d->max_blocks_per_sm},
            {"grf_max", d->grf_max},
            {"grf_table", d->grf_table},
            {"runtime_barriers_per_xecore", d->runtime_barriers_per_xecore},
        };
        json_ints(out, &first, intel, sizeof intel / sizeof intel[0]);
        json_key(out, &first, "sub_group_sizes");
        fputc('[', out);
        for (int32_t s = 8, any = 0; s <= 32; s *= 2)
            if (d->sub_group_sizes & s)
                fprintf(out, "%s%d", any++ ? "," : "", s);
        fputc(']', out);
        const int32_t *lists[2] = {d->slm_sizes_kib, d->runtime_slm_sizes_kib};
        const char *keys[2] = {"slm_sizes_kib", "runtime_slm_sizes_kib"};
        for (int32_t j = 0; j < 2; j++) {
            json_key(out, &first, keys[j]);
            fputc('[', out);
            for (int32_t c = 0; c < GPUOCC_MAX_SLM_SIZES && lists[j][c] > 0; c++)
                fprintf(out, "%s%d", c ? "," : "", lists[j][c]);
            fputc(']', out);
        }
    } else if (cli_is_amd(d)) {
        const struct json_int amd[] = {
            {"simds_per_cu", d->simds_per_cu},
            {"waves_per_simd", d->waves_per_simd},
            {"runtime_waves_per_simd", d->runtime_waves_per_simd},
            {"vgprs_per_simd", d->vgprs_per_simd},
            {"vgpr_granule", d->vgpr_granule},
            {"runtime_vgpr_granule", d->runtime_vgpr_granule},
            {"runtime_vgprs_legacy", d->runtime_vgprs_legacy},
            {"runtime_vgpr_granule_legacy", d->runtime_vgpr_granule_legacy},
            {"sgprs_per_simd", d->sgprs_per_simd},
            {"cus_per_wgp", d->cus_per_wgp},
        };
        json_ints(out, &first, amd, sizeof amd / sizeof amd[0]);
        json_key(out, &first, "agpr_file");
        json_string(out, agpr_file_name(d->agpr_file));
        json_key(out, &first, "wave_sizes");
        fputs(d->wave_sizes == 96 ? "[32,64]" : d->wave_sizes == 32 ? "[32]" : "[64]", out);
    } else {
        const struct json_int nvidia[] = {
            {"max_blocks_per_sm", d->max_blocks_per_sm},
            {"regs_per_sm", d->regs_per_sm},
            {"regs_per_block", d->regs_per_block},
            {"reg_alloc_unit", d->reg_alloc_unit},
            {"sub_partitions", d->sub_partitions},
            {"smem_per_block_optin", d->smem_per_block_optin_bytes},
            {"smem_reserved_per_block", d->smem_reserved_per_block_bytes},
        };
        json_ints(out, &first, nvidia, sizeof nvidia / sizeof nvidia[0]);
        json_key(out, &first, "carveouts_kib");
        fprintf(out, "[");
        for (int32_t c = 0; c < d->carveout_count; c++)
            fprintf(out, "%s%d", c ? "," : "", d->carveouts_kib[c]);
        fprintf(out, "]");
    }
    json_key(out, &first, "source");
    json_string(out, gpuocc_catalog_source(i));
    fprintf(out, "}");
}

static int cmd_devices(struct cli_io *io, int argc, char **argv)
{
    FILE *out = io->out;
    bool json = false;
    char **filters = calloc((size_t)argc + 1, sizeof *filters);
    bool *hit = calloc((size_t)argc + 1, sizeof *hit);
    int nfilters = 0;
    if (!filters || !hit) {
        free(filters);
        free(hit);
        return cli_fail(io, "devices", "out of memory");
    }
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
    for (; cli_more(&a); a.i++) {
        if (cli_switch(&a, "--json"))
            json = true;
        else if (argv[a.i][0] == '\0')
            cli_fail(io, "devices", "an empty name matches no device (leave it out to list them all)");
        else if (argv[a.i][0] != '-')
            filters[nfilters++] = argv[a.i];
        else
            cli_unknown(&a);
    }
    int shown = 0, last_vendor = 0;
    for (int32_t i = 0; i < gpuocc_catalog_count() && !io->status; i++) {
        gpuocc_device d = {.size = sizeof d};
        gpuocc_catalog_device(i, &d);
        char arch[16];
        cli_arch_name(&d, arch, sizeof arch);
        if (!matches(i, arch, filters, nfilters, hit))
            continue;
        if (json) {
            if (shown == 0)
                fputc('[', out);
            devices_json(out, i, &d, arch, shown == 0);
        } else {
            if ((int)d.vendor != last_vendor)
                devices_header(out, cli_is_amd(&d) + 2 * cli_is_intel(&d), shown == 0);
            last_vendor = (int)d.vendor;
            devices_row(out, i, &d, arch);
        }
        shown++;
    }
    if (json && shown)
        fprintf(out, "]\n");
    /* each filter that matched nothing, with what might have been meant: exit 1 when others matched, 2 when
       none did */
    for (int f = 0; f < nfilters && io->status < CLI_USAGE; f++) {
        char near[64];
        if (hit[f])
            continue;
        if (cli_device_nearest(filters[f], near, sizeof near))
            cli_problem(io, filters[f], "no device matches; did you mean '%s'?", near);
        else
            cli_problem(io, filters[f], "no device matches");
    }
    free(filters);
    free(hit);
    if (!shown && io->status == CLI_PARTIAL)
        io->status = CLI_USAGE;
    return io->status;
}

static const struct cli_option devices_options[] = {
    {"--json", NULL, "a JSON array of objects (every field, whole sources) instead of the table"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_devices = {
    "devices", cmd_devices, "the built-in architecture and product table, with sources", "[NAME|ARCH...] [--json]",
    devices_options, "gpuocc devices\ngpuocc devices H100\ngpuocc devices sm_90 --json\ngpuocc devices MI300X gfx1100 --json\n"};
