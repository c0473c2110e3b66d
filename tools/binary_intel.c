/* gpuocc binary: the rows of Intel kernels (zebins, lib/readers/zebin.c).  A kernel is evaluated on the
   architecture its zebin's product family names (1270 dg2, 1271 pvc: the families this reader was checked
   on with ocloc) or on --arch, with the compiler's SIMD width as the sub-group size, its GRF count, its
   static SLM and its barrier count; launch flags override them ("what if").  Its launch bound is
   --max-threads's, else the zebin's required_work_group_size (x*y*z, the reader's max_threads_per_block: a
   larger work-group cannot be enqueued), which is also the work-group evaluated without --threads or
   --best-block, as NVIDIA's __launch_bounds__ and AMD's flat workgroup maximum are.  The shared columns say:
   barriers = barrier_count, smem = SLM, max_threads = the bound (0: none); registers, cmem, stack and the
   other NVIDIA-only ones are empty;
   the AMD columns are empty but vendor ("intel"), smem_static (the SLM) and model; the Intel columns follow. */
#include "inputs.h"

#include <string.h>

static const char *const intel_keys[INPUT_INTEL_KEY_COUNT] = {INPUT_INTEL_KEYS};
static const char *const amd_keys[INPUT_AMD_KEY_COUNT] = {INPUT_AMD_KEYS};

/* The catalog name of a product family (the NT_INTELGT_PRODUCT_FAMILY note), NULL when not known here. */
static const char *family_arch(uint32_t family)
{
    return family == 1270 ? "dg2" : family == 1271 ? "pvc" : NULL;
}

struct intel_row {
    char arch[64];
    gpuocc_device dev; /* the device evaluated on (for the table's words) */
    const char *status;
    int32_t threads;           /* -1: none (no_threads) */
    int32_t bound;             /* the largest work-group evaluated with: 0 none */
    const char *launch_bound, *threads_from; /* input_bound_csv's */
    gpuocc_result r;
};

static void evaluate(const struct input_options *o, const gpuocc_binary_kernel *b, struct intel_row *row)
{
    const struct cli_launch *l = &o->launch;
    gpuocc_device dev = l->dev;
    row->status = "ok";
    row->dev = dev;
    row->r = (gpuocc_result){.size = sizeof row->r};
    /* --max-threads wins over the record, as on NVIDIA and AMD (gpuocc binary takes it in the launch) */
    int32_t flag = l->k.max_threads_per_block;
    row->bound = flag > 0 ? flag : b->max_threads_per_block > 0 ? b->max_threads_per_block : 0;
    row->launch_bound = flag > 0 ? "flag" : b->max_threads_per_block > 0 ? "recorded" : "none";
    row->threads_from = input_threads_from(o, row->bound);
    row->threads = l->have_threads ? l->k.threads_per_block : !o->best && row->threads_from ? row->bound : -1;
    const char *arch = family_arch(b->product_family);
    if (l->have_arch) {
        cli_arch_name(&dev, row->arch, sizeof row->arch);
        if (!cli_is_intel(&dev)) {
            row->status = "vendor";
            return;
        }
    } else if (!arch) {
        snprintf(row->arch, sizeof row->arch, "-");
        row->status = "unknown_device";
        return;
    } else {
        snprintf(row->arch, sizeof row->arch, "%s", arch);
        dev.size = sizeof dev;
        if (gpuocc_device_lookup(arch, &dev) != GPUOCC_OK || !cli_is_intel(&dev)) {
            row->status = "unknown_device";
            return;
        }
    }
    gpuocc_kernel kern = l->k;
    kern.sub_group = l->k.sub_group ? l->k.sub_group : b->sub_group;
    kern.grf = l->k.grf ? l->k.grf : b->grf;
    kern.smem_static_bytes = l->have_smem_static ? l->k.smem_static_bytes : b->slm_bytes;
    kern.barriers = l->have_barriers ? l->k.barriers : b->barriers;
    kern.max_threads_per_block = row->bound;
    kern.threads_per_block = l->have_threads ? l->k.threads_per_block : row->bound;
    if (l->model_runtime)
        kern.model = GPUOCC_MODEL_INTEL_RUNTIME;
    if (!row->threads_from) {
        row->status = "no_threads";
        return;
    }
    if (o->best) {
        int32_t t = 0, grid = 0;
        gpuocc_best_block_affine(&dev, &kern, kern.smem_dynamic_bytes, 0, &t, &grid);
        kern.threads_per_block = t ? t : 1;
    }
    row->threads = kern.threads_per_block;
    row->dev = dev;
    if (kern.max_threads_per_block > 0 && row->threads > kern.max_threads_per_block) {
        row->status = "exceeds_launch_bounds"; /* as NVIDIA's and AMD's rows: the enqueue would fail */
        return;
    }
    int32_t rc = gpuocc_occupancy(&dev, &kern, &row->r);
    if (rc != GPUOCC_OK)
        row->status = gpuocc_status_name(rc);
}

#define put_int binary_put_int

void input_intel_kernel(FILE *out, struct input_options *o, const char *file, const char *origin,
                        const gpuocc_binary_kernel *b)
{
    struct intel_row row;
    evaluate(o, b, &row);
    bool ok = !strcmp(row.status, "ok");
    if (!strcmp(row.status, "vendor")) {
        const char *arch = family_arch(b->product_family);
        char built[48], note[16];
        snprintf(built, sizeof built, "%s (Intel)", arch ? arch : "an Intel product family");
        snprintf(note, sizeof note, ", %s", input_vendor_word(&o->launch.dev));
        input_cannot_run(o, file, origin + b->name_offset, (size_t)b->name_length, built, note);
    }
    if (!strcmp(row.status, "no_threads"))
        input_no_threads(o, file, origin + b->name_offset, (size_t)b->name_length);
    const char *short_name = origin + b->short_offset;
    int32_t bound = row.bound; /* the kernel's largest work-group: --max-threads's or the zebin's; 0 none */
    const char *launch_bound = row.launch_bound;
    const char *model = row.r.model == GPUOCC_MODEL_INTEL_RUNTIME ? "runtime" : "calculator";
    const struct binary_count shared[] = {
        {"registers", INT64_MIN}, {"barriers", b->barriers}, {"smem", b->slm_bytes}, {"cmem", INT64_MIN},
        {"stack", INT64_MIN}, {"spill_stores", INT64_MIN}, {"spill_loads", INT64_MIN},
        {"max_regs", INT64_MIN}, {"max_threads", bound}, {"min_blocks", INT64_MIN},
        {"cluster_x", INT64_MIN}, {"cluster_y", INT64_MIN}, {"cluster_z", INT64_MIN}, {"threads", row.threads},
    };
    const int64_t intel[INPUT_INTEL_KEY_COUNT] = {b->sub_group, b->grf, b->slm_bytes, b->scratch_per_thread_bytes,
                                                  b->private_bytes, b->private_per_work_item, b->spill_bytes,
                                                  b->product_family};
    if (o->json) {
        bool first = true;
        binary_json_head(out, &first, o, file, b, origin, row.arch, shared, sizeof shared / sizeof shared[0],
                         row.status, ok ? &row.r : NULL);
        for (size_t i = 0; i < INPUT_AMD_KEY_COUNT; i++) {
            json_key(out, &first, amd_keys[i]);
            if (i == 0)
                json_string(out, "intel");
            else if (i == INPUT_AMD_SMEM_STATIC)
                put_int(out, b->slm_bytes, "null");
            else if (i == INPUT_AMD_KEY_COUNT - 2 && ok)
                json_string(out, model);
            else
                fputs("null", out);
        }
        for (size_t i = 0; i < INPUT_INTEL_KEY_COUNT; i++) {
            json_key(out, &first, intel_keys[i]);
            put_int(out, intel[i], "null");
        }
        input_record_json(out, &first, b, NULL, o);
        json_key(out, &first, "linked");
        fprintf(out, "%d", b->linked);
        input_bound_json(out, &first, launch_bound, row.threads_from);
        fputc('}', out);
    } else if (o->csv) {
        binary_csv_head(out, b, origin, row.arch, shared, sizeof shared / sizeof shared[0], row.status,
                        ok ? &row.r : NULL);
        for (size_t i = 0; i < INPUT_AMD_KEY_COUNT; i++) {
            if (i == 0)
                fputs("intel", out);
            else if (i == INPUT_AMD_SMEM_STATIC)
                put_int(out, b->slm_bytes, "-1");
            else if (i == INPUT_AMD_KEY_COUNT - 2 && ok)
                fputs(model, out);
            fputc(',', out);
        }
        for (size_t i = 0; i < INPUT_INTEL_KEY_COUNT; i++) {
            put_int(out, intel[i], "-1");
            fputc(',', out);
        }
        input_record_csv(out, b, NULL, o);
        input_bound_csv(out, launch_bound, row.threads_from);
        fprintf(out, "%d,,", b->linked); /* linked; cluster_verdict: NVIDIA's */
        csv_cell(out, file, strlen(file));
        fputc('\n', out);
    } else {
        /* the table: GRF in the regs column, barriers, SLM as smem, scratch per hardware thread as stack,
           spill_size as spill, the launch bound as bound (0 none), work-groups per Xe-core as blk/SM, Intel's words for the
           limiters and the SIMD width after them; --json and --csv carry every field */
        const int64_t cells[5] = {b->barriers, b->slm_bytes, b->scratch_per_thread_bytes, b->spill_bytes, bound};
        binary_table_head(out, b, short_name, row.arch, b->grf, cells);
        char lim[96];
        cli_limiter_words(&row.dev, row.r.limiters, lim, sizeof lim);
        input_table_answer(out, row.threads, ok ? &row.r : NULL, ok ? lim : row.status);
        fprintf(out, " (SIMD%d)\n", b->sub_group);
    }
    o->rows++;
}
