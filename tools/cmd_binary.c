/* gpuocc binary (alias gpuocc cubin): every kernel of the device code in binaries (cubins, fatbinaries,
   AMDGPU code objects, HIP offload bundles plain or compressed, host objects, executables, shared libraries,
   static archives of objects), with its occupancy.  Files are
   mapped, not read; entries are read one at a time (compressed ones decoded into one reused workspace), so
   memory stays near the largest entry whatever the file's size.  A failed entry is reported on stderr and
   the others still print (exit 1); exit 2 when nothing at all could be read.

   A mapped file that shrinks while it is read would end the process with SIGBUS.  The CLI (never the
   library, which keeps no global state) installs one handler for SIGBUS; while a file's mapping is read, a
   fault inside that mapping jumps back (siglongjmp) to where the file was opened, and the file is a problem
   of its own: the rows already printed stay, the other files are read.  Nothing prints straight from the
   mapping (names are copied out first), so a fault never lands inside stdio. */
#define _DEFAULT_SOURCE /* madvise */
#define _POSIX_C_SOURCE 200809L
#include "inputs.h"
#include "triton_meta.h"

#include <dirent.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
/* WebAssembly (the web page, web/module.c) has no mappings, signals or setjmp: there a file is read whole,
   as standard input is everywhere */
#if defined(__wasi__)
#define CLI_READ_WHOLE 1
#else
#define CLI_READ_WHOLE 0
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#endif

struct binary_run {
    struct cli_io *io;
    struct input_options *o;
    uint8_t *workspace;
    size_t workspace_len;
    gpuocc_binary_kernel *records;
    int32_t capacity;
    int64_t entries_read;
    int64_t kernels; /* kernels printed */
    void *map; /* the file's mapping (NULL for stdin): its pages are dropped as the reading goes on */
    size_t map_len;
    char *names; /* the entry's kernel names and targets, copied out of the input before they print */
    size_t names_cap;
    struct progress *progress;
    const char *noted; /* the image whose rows have begun (its note printed before its first row) */
    bool hide_relocatable; /* this file has linked and relocatable (__nv_relfatbin) copies: only the linked print */
    /* gpuocc binary DIR, a Triton cache: the json of the binary being read (NULL: none), its path, and whether
       a kernel of the binary bore its name */
    const struct triton_meta *meta;
    const char *meta_path;
    bool meta_used;
};

/* ---- the progress line ----
   On a terminal (stderr), a run that takes over a second shows one line, redrawn at most ten times a
   second: files done of the files named, entries read, kernels printed.  It is erased before a problem
   prints (cli_progress_clear), before rows print when stdout is the same kind of terminal, and at the end.
   Nothing when stderr is not a terminal.  Test only: GPUOCC_TEST_PROGRESS_AFTER_MS=N shows it after N ms
   instead of 1000 (tests/test_cli_progress.py sets 0, so the line shows whatever the machine's speed). */
struct progress {
    bool on, out_tty;
    struct timespec start;
    int64_t after_ms, drawn_ms; /* drawn_ms: when it was last drawn, -1 never */
    int files_done, files;
    const char *file;
};

static int64_t elapsed_ms(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

static void progress_init(struct progress *p, struct cli_io *io, int files)
{
    memset(p, 0, sizeof *p);
    p->on = isatty(fileno(io->err));
    p->out_tty = isatty(fileno(io->out));
    p->after_ms = 1000;
    const char *test = getenv("GPUOCC_TEST_PROGRESS_AFTER_MS");
    if (test && *test)
        p->after_ms = atoll(test);
    p->drawn_ms = -1;
    p->files = files;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
}

static void progress_tick(struct binary_run *r)
{
    struct progress *p = r->progress;
    if (!p->on)
        return;
    int64_t t = elapsed_ms(&p->start);
    if (t < p->after_ms || (p->drawn_ms >= 0 && t - p->drawn_ms < 100))
        return;
    p->drawn_ms = t;
    if (p->out_tty)
        fflush(r->io->out);
    fprintf(r->io->err, "\r\033[Kgpuocc binary: %d of %d files, %lld entries read, %lld kernels (%s)", p->files_done,
            p->files, (long long)r->entries_read, (long long)r->kernels, p->file ? p->file : "");
    fflush(r->io->err);
    r->io->progress_shown = true;
}

/* Before rows print to a terminal: the line goes, the next tick draws it again below them. */
static void progress_before_rows(struct binary_run *r)
{
    if (r->progress->out_tty)
        cli_progress_clear(r->io);
}

#if !CLI_READ_WHOLE
/* ---- a mapping that faults (the file shrank under it) ---- */

struct map_guard {
    sigjmp_buf env;
    const uint8_t *lo, *hi; /* the mapping being read */
    volatile sig_atomic_t armed;
};
static _Thread_local struct map_guard *map_guard; /* this thread's, while it reads a mapping */

static void on_sigbus(int sig, siginfo_t *si, void *context)
{
    (void)context;
    struct map_guard *g = map_guard;
    const uint8_t *at = si ? (const uint8_t *)si->si_addr : NULL;
    if (g && g->armed && at >= g->lo && at < g->hi) {
        g->armed = 0;
        siglongjmp(g->env, 1);
    }
    signal(sig, SIG_DFL); /* not a fault of a guarded mapping: the default action when it happens again */
}

static void guard_install(void)
{
    static bool installed;
    if (installed)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    installed = sigaction(SIGBUS, &sa, NULL) == 0;
}

/* Test only (tests/test_cli_faults.py): with GPUOCC_TEST_PAUSE_FIFO set, after mapping a file and before
   reading entry GPUOCC_TEST_PAUSE_ENTRY (default 0) of it, open that FIFO and read it to its end, so that a
   test can shrink the file at a known moment.  Once per run: the first file that reaches that entry. */
static void test_pause(int32_t entry)
{
    static bool paused;
    const char *fifo = getenv("GPUOCC_TEST_PAUSE_FIFO");
    if (!fifo || paused)
        return;
    const char *at = getenv("GPUOCC_TEST_PAUSE_ENTRY");
    if ((at ? atoi(at) : 0) != entry)
        return;
    paused = true;
    int fd = open(fifo, O_RDONLY);
    char buf[64];
    while (fd >= 0 && read(fd, buf, sizeof buf) > 0)
        ;
    if (fd >= 0)
        close(fd);
}
#endif

static gpuocc_compiled_kernel as_compiled(const gpuocc_binary_kernel *b)
{
    gpuocc_compiled_kernel k;
    memset(&k, 0, sizeof k);
    k.name_offset = b->name_offset;
    k.name_length = b->name_length;
    k.short_offset = b->short_offset;
    k.short_length = b->short_length;
    k.cc = b->cc;
    k.registers = b->registers;
    k.barriers = b->barriers;
    k.smem_bytes = b->smem_bytes;
    k.cmem_bytes = b->cmem_bytes;
    k.stack_frame_bytes = b->stack_frame_bytes;
    k.spill_store_bytes = k.spill_load_bytes = k.lmem_bytes = -1; /* binaries do not record spills */
    k.max_threads_per_block = b->max_threads_per_block;
    k.min_blocks_per_sm = b->min_blocks_per_sm;
    k.max_regs_per_thread = b->max_regs_per_thread;
    k.max_blocks_per_cluster = b->max_blocks_per_cluster;
    k.cluster_x = b->cluster_x;
    k.cluster_y = b->cluster_y;
    k.cluster_z = b->cluster_z;
    k.arch_variant = b->arch_variant;
    return k;
}

/* ------------------------------------------------------------------------------------------------
   AMD kernels (code objects and HIP offload bundles): evaluated on the code object's target (the
   processor of its target ID, "amdgcn-amd-amdhsa--gfx90a:xnack-" gives gfx90a) or on --arch, with the
   compiler's resources; printed with the shared columns (registers = VGPRs, smem = LDS, stack = scratch,
   max_threads = the flat workgroup size maximum; NVIDIA-only ones empty) and the AMD columns. */
struct amd_row {
    char arch[64];
    const char *status;
    int32_t threads;                         /* -1: none (no_threads) */
    int32_t bound;                           /* the flat workgroup maximum evaluated with: 0 none */
    const char *launch_bound, *threads_from; /* input_bound_csv's */
    gpuocc_result r;
};

/* The processor of a target ID: the fifth '-'-separated field, up to the first ':' (features). */
static bool target_processor(const char *t, size_t n, char *out, size_t cap)
{
    size_t i = 0;
    for (int dashes = 0; dashes < 4; i++) {
        if (i == n)
            return false;
        dashes += t[i] == '-';
    }
    size_t len = 0;
    while (i + len < n && t[i + len] != ':')
        len++;
    if (len == 0 || len >= cap)
        return false;
    memcpy(out, t + i, len);
    out[len] = 0;
    return true;
}

static void amd_evaluate(const struct input_options *o, const gpuocc_binary_kernel *b, const char *origin,
                         struct amd_row *row)
{
    const struct cli_launch *l = &o->launch;
    gpuocc_device dev = l->dev;
    row->status = "ok";
    row->r = (gpuocc_result){.size = sizeof row->r};
    /* the flat workgroup maximum, --max-threads's or the code object's: without --threads or --best-block, the block */
    int32_t bound = l->k.max_threads_per_block ? l->k.max_threads_per_block
                    : b->max_flat_workgroup_size > 0 ? b->max_flat_workgroup_size : 0;
    row->bound = bound;
    row->launch_bound = l->k.max_threads_per_block ? "flag" : b->max_flat_workgroup_size > 0 ? "recorded" : "unknown";
    row->threads_from = input_threads_from(o, bound);
    row->threads = l->have_threads ? l->k.threads_per_block : !o->best && row->threads_from ? bound : -1;
    bool from_metadata = !l->have_threads && !o->best && b->launch_threads > 0; /* a Triton json's block size */
    if (from_metadata) {
        row->threads = b->launch_threads;
        row->threads_from = "metadata";
    }
    if (l->have_arch) {
        cli_arch_name(&dev, row->arch, sizeof row->arch);
        if (dev.vendor != GPUOCC_VENDOR_AMD) {
            row->status = "vendor";
            return;
        }
    } else if (!target_processor(origin + b->target_offset, (size_t)b->target_length, row->arch, sizeof row->arch)) {
        snprintf(row->arch, sizeof row->arch, "-");
        row->status = "unknown_device";
        return;
    } else {
        dev.size = sizeof dev;
        if (gpuocc_device_lookup(row->arch, &dev) != GPUOCC_OK || dev.vendor != GPUOCC_VENDOR_AMD) {
            row->status = "unknown_device";
            return;
        }
    }
    /* the compiler's figures, unless a launch flag overrides them ("what if"); the launch's own choices
       (dynamic LDS, --model, --rocm) from the flags.  The registers as `gpuocc report` takes them, split by
       the library (arch VGPRs and AGPRs on a unified file: the note's .vgpr_count counts both). */
    gpuocc_kernel kern = l->k;
    int32_t regs = 0, agprs = 0;
    int32_t split = gpuocc_binary_kernel_registers(&dev, b, &regs, &agprs);
    if (split != GPUOCC_OK) {
        row->status = gpuocc_status_name(split);
        return;
    }
    kern.regs_per_thread = l->have_regs ? l->k.regs_per_thread : regs;
    kern.agprs = l->have_regs || l->k.agprs ? l->k.agprs : agprs;
    kern.smem_static_bytes = l->have_smem_static ? l->k.smem_static_bytes : b->lds_bytes > 0 ? b->lds_bytes : 0;
    kern.sgprs = l->k.sgprs ? l->k.sgprs : b->sgprs > 0 ? b->sgprs : 0;
    kern.wave_size = l->k.wave_size ? l->k.wave_size : b->wave_size > 0 ? b->wave_size : 0;
    kern.cu_mode = l->k.cu_mode || b->workgroup_processor_mode == 0;
    kern.max_threads_per_block = bound;
    kern.threads_per_block = l->have_threads ? l->k.threads_per_block : from_metadata ? b->launch_threads : bound;
    if (!l->smem_dynamic_flag && o->record_metadata && o->record_smem_dynamic >= 0)
        kern.smem_dynamic_bytes = o->record_smem_dynamic; /* a Triton json's `shared`: the launch's dynamic LDS */
    kern.barriers = 1;
    if (!(dev.wave_sizes & (kern.wave_size ? kern.wave_size : dev.warp_size))) {
        row->status = "wave_size"; /* wave32 code on a wave64-only target (gfx9): it cannot run there */
        return;
    }
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
    if (kern.max_threads_per_block > 0 && row->threads > kern.max_threads_per_block) {
        row->status = "exceeds_launch_bounds";
        return;
    }
    int32_t rc = gpuocc_occupancy(&dev, &kern, &row->r);
    if (rc != GPUOCC_OK)
        row->status = gpuocc_status_name(rc);
}

#define put_int binary_put_int

static const char *model_name(int32_t model)
{
    return cli_amd_model_name(model);
}

static void amd_kernel(struct binary_run *run, const char *file, const char *origin, const gpuocc_binary_kernel *b)
{
    struct input_options *o = run->o;
    FILE *out = run->io->out;
    struct amd_row row;
    amd_evaluate(o, b, origin, &row);
    bool ok = !strcmp(row.status, "ok");
    bool wave = !strcmp(row.status, "wave_size");
    if (wave || !strcmp(row.status, "vendor")) {
        char proc[32] = "an unknown target", built[64], note[32];
        target_processor(origin + b->target_offset, (size_t)b->target_length, proc, sizeof proc);
        if (wave)
            snprintf(built, sizeof built, "%s (wave%d)", proc, (int)b->wave_size);
        else
            snprintf(built, sizeof built, "%s (AMD)", proc);
        if (wave)
            snprintf(note, sizeof note, ": wave%d only", o->launch.dev.warp_size);
        else
            snprintf(note, sizeof note, ", %s", input_vendor_word(&o->launch.dev));
        input_cannot_run(o, file, origin + b->name_offset, (size_t)b->name_length, built, note);
    }
    if (!strcmp(row.status, "no_threads"))
        input_no_threads(o, file, origin + b->name_offset, (size_t)b->name_length);
    const char *short_name = origin + b->short_offset;
    const char *target = origin + b->target_offset;
    /* shared columns: NVIDIA-only ones are not applicable (null / empty); -1 / null: not recorded */
    const struct binary_count shared[] = {
        {"registers", b->vgprs}, {"barriers", INT64_MIN}, {"smem", b->lds_bytes}, {"cmem", INT64_MIN},
        {"stack", b->scratch_bytes}, {"spill_stores", INT64_MIN}, {"spill_loads", INT64_MIN},
        {"max_regs", INT64_MIN}, {"max_threads", row.bound > 0 ? row.bound : INT64_MIN}, {"min_blocks", INT64_MIN},
        {"cluster_x", INT64_MIN}, {"cluster_y", INT64_MIN}, {"cluster_z", INT64_MIN}, {"threads", row.threads},
    };
    /* cu_mode, as report's: the opposite of the code object's .workgroup_processor_mode (-1: not recorded) */
    const int64_t cu_mode = b->workgroup_processor_mode < 0 ? -1 : !b->workgroup_processor_mode;
    const int64_t amd[] = {b->vgprs, b->agprs, b->sgprs, b->lds_bytes, b->scratch_bytes, b->wave_size,
                           b->vgpr_spill_count, b->sgpr_spill_count, b->uses_dynamic_stack, cu_mode};
    static const char *const amd_keys[INPUT_AMD_KEY_COUNT] = {INPUT_AMD_KEYS};
    if (o->json) {
        bool first = true;
        binary_json_head(out, &first, o, file, b, origin, row.arch, shared, sizeof shared / sizeof shared[0],
                         row.status, ok ? &row.r : NULL);
        json_key(out, &first, amd_keys[0]);
        json_string(out, "amd");
        json_key(out, &first, amd_keys[1]);
        if (b->target_length)
            json_string_n(out, target, (size_t)b->target_length);
        else
            fputs("null", out);
        for (size_t i = 0; i < sizeof amd / sizeof amd[0]; i++) {
            json_key(out, &first, amd_keys[2 + i]);
            put_int(out, amd[i], "null");
        }
        json_key(out, &first, amd_keys[INPUT_AMD_KEY_COUNT - 2]);
        if (ok)
            json_string(out, model_name(row.r.model));
        else
            fputs("null", out);
        json_key(out, &first, amd_keys[INPUT_AMD_KEY_COUNT - 1]);
        if (ok)
            fprintf(out, "%d", row.r.waves_per_simd);
        else
            fputs("null", out);
        static const char *const intel_keys[INPUT_INTEL_KEY_COUNT] = {INPUT_INTEL_KEYS};
        for (size_t i = 0; i < INPUT_INTEL_KEY_COUNT; i++) { /* Intel's: not an Intel kernel */
            json_key(out, &first, intel_keys[i]);
            fputs("null", out);
        }
        input_record_json(out, &first, b, NULL, o);
        json_key(out, &first, "linked");
        fprintf(out, "%d", b->linked);
        input_bound_json(out, &first, row.launch_bound, row.threads_from);
        fputc('}', out);
    } else if (o->csv) {
        binary_csv_head(out, b, origin, row.arch, shared, sizeof shared / sizeof shared[0], row.status,
                        ok ? &row.r : NULL);
        fputs("amd,", out);
        csv_cell(out, target, (size_t)b->target_length);
        for (size_t i = 0; i < sizeof amd / sizeof amd[0]; i++) {
            fputc(',', out);
            put_int(out, amd[i], "-1");
        }
        if (ok)
            fprintf(out, ",%s,%d,", model_name(row.r.model), row.r.waves_per_simd);
        else
            fputs(",,,", out);
        for (size_t i = 0; i < INPUT_INTEL_KEY_COUNT; i++)
            fputc(',', out);
        input_record_csv(out, b, NULL, o);
        input_bound_csv(out, row.launch_bound, row.threads_from);
        fprintf(out, "%d,", b->linked);
        fputc(',', out); /* cluster_verdict: NVIDIA's */
        csv_cell(out, file, strlen(file));
        fputc('\n', out);
    } else {
        /* the table: VGPRs in the regs column, LDS as smem, scratch as stack, VGPR spills, the bound */
        const int64_t cells[5] = {-1, b->lds_bytes, b->scratch_bytes, b->vgpr_spill_count,
                                  b->max_flat_workgroup_size > 0 ? b->max_flat_workgroup_size : -1};
        binary_table_head(out, b, short_name, row.arch, b->vgprs, cells);
        char lim[96];
        cli_limiters(row.r.limiters, lim, sizeof lim);
        input_table_answer(out, row.threads, ok ? &row.r : NULL, ok ? lim : row.status);
        fputc('\n', out);
    }
    o->rows++;
}

static bool grow_records(struct binary_run *r, int32_t count)
{
    gpuocc_binary_kernel *bigger = realloc(r->records, (size_t)count * sizeof *bigger);
    if (!bigger)
        return false;
    r->records = bigger;
    r->capacity = count;
    gpuocc_binary_kernel_init(&r->records[0]);
    return true;
}

/* --containers: where the compiled entries of one image are, section by section (entries come in file
   order, so one section's entries are consecutive). */
struct where {
    struct cli_io *io;
    const char *label;
    bool on;
    char name[256]; /* the current section's name (copied: it prints after the input may have faulted) */
    size_t name_len;
    uint32_t section;
    int64_t entries, containers;
    uint64_t container; /* the last entry's container offset */
};

static void where_flush(struct where *w)
{
    if (!w->on || w->entries == 0)
        return;
    fprintf(w->io->err, "%s: %.*s: %lld compiled entries in %lld containers\n", w->label, (int)w->name_len,
            w->name, (long long)w->entries, (long long)w->containers);
    w->entries = w->containers = 0;
}

static void where_add(struct where *w, const char *origin, const gpuocc_binary_entry *info)
{
    if (!w->on)
        return;
    if (w->entries > 0 && info->section != w->section)
        where_flush(w);
    if (w->entries == 0 || info->container_offset != w->container)
        w->containers++;
    w->section = info->section;
    w->container = info->container_offset;
    const char *name = info->section_name_length ? origin + info->section_name_offset : "(the file)";
    size_t len = info->section_name_length ? (size_t)info->section_name_length : 10;
    w->name_len = len < sizeof w->name ? len : sizeof w->name;
    memcpy(w->name, name, w->name_len);
    w->entries++;
}

/* The workspace an entry needs, within the ceiling on what one entry may claim decompressed; false after
   naming the entry (that entry alone fails). */
static bool entry_workspace(struct binary_run *r, const char *label, const gpuocc_binary_entry *info)
{
    if (info->image_bytes > (uint64_t)r->o->max_entry_bytes) {
        cli_problem(r->io, label, "entry %d: claims %llu bytes decompressed, over the ceiling of %lld "
                    "(--max-entry-bytes raises it)", info->entry, (unsigned long long)info->image_bytes,
                    (long long)r->o->max_entry_bytes);
        return false;
    }
    /* the room for the index that makes a large cubin linear is worth asking for, not worth failing for */
    const uint64_t sizes[2] = {info->fast_workspace_bytes, info->workspace_bytes};
    for (int i = 0; i < 2; i++) {
        if (sizes[i] <= r->workspace_len)
            return true;
        uint8_t *bigger = sizes[i] <= SIZE_MAX ? realloc(r->workspace, (size_t)sizes[i]) : NULL;
        if (bigger) {
            r->workspace = bigger;
            r->workspace_len = (size_t)sizes[i];
            return true;
        }
    }
    uint64_t need = info->workspace_bytes;
    cli_problem(r->io, label, "entry %d: cannot allocate a %llu-byte workspace", info->entry,
                (unsigned long long)need);
    return false;
}

/* The names (and AMD targets) of an entry's kernels that lie in the input, copied into r->names with their
   offsets rebased there: printing reads only the CLI's own memory. */
static bool copy_names(struct binary_run *r, const uint8_t *p, int32_t count)
{
    size_t need = 0;
    for (int32_t i = 0; i < count; i++)
        if (r->records[i].name_buffer == GPUOCC_BINARY_NAME_INPUT)
            need += (size_t)(r->records[i].name_length + r->records[i].short_length + r->records[i].target_length);
    if (need > r->names_cap) {
        char *bigger = realloc(r->names, need);
        if (!bigger)
            return false;
        r->names = bigger;
        r->names_cap = need;
    }
    size_t w = 0;
    for (int32_t i = 0; i < count; i++) {
        gpuocc_binary_kernel *k = &r->records[i];
        if (k->name_buffer != GPUOCC_BINARY_NAME_INPUT)
            continue;
        uint64_t *offsets[3] = {&k->name_offset, &k->short_offset, &k->target_offset};
        const uint64_t lengths[3] = {k->name_length, k->short_length, k->target_length};
        for (int f = 0; f < 3; f++) {
            if (lengths[f])
                memcpy(r->names + w, p + *offsets[f], (size_t)lengths[f]);
            *offsets[f] = w;
            w += (size_t)lengths[f];
        }
    }
    return true;
}

/* What the library found wrong beyond a status, in words (the summary's fault fields: which fault, its
   figure, its byte): ": ..." after the status's text, or "" when it has nothing to add. */
static const char *fault_text(const gpuocc_binary_summary *s, char *out, size_t cap)
{
    char at[40] = "";
    if (s->fault_offset >= 0)
        snprintf(at, sizeof at, " at byte %lld", (long long)s->fault_offset);
    int v = s->fault_value;
    switch (s->fault) {
    case GPUOCC_BINARY_FAULT_FATBIN_MAGIC:
        snprintf(out, cap, ": no fatbinary magic%s, where the next fatbinary of the section starts", at);
        break;
    case GPUOCC_BINARY_FAULT_FATBIN_HEADER:
        snprintf(out, cap, ": the fatbinary%s gives a header size of %d bytes, below the 16 of a fatbinary header", at,
                 v);
        break;
    case GPUOCC_BINARY_FAULT_FATBIN_SIZE:
        snprintf(out, cap, ": the fatbinary%s runs past the end of its section or file (%d bytes left from its "
                 "start)", at, v);
        break;
    case GPUOCC_BINARY_FAULT_ENTRY_HEADER:
        snprintf(out, cap, ": its fatbinary entry header%s gives a header size of %d bytes, below the 64 of an entry "
                 "header", at, v);
        break;
    case GPUOCC_BINARY_FAULT_ENTRY_SIZE:
        snprintf(out, cap, ": its fatbinary entry%s runs past the end of its fatbinary (%d bytes left from its "
                 "header)", at, v);
        break;
    case GPUOCC_BINARY_FAULT_YAML:
        snprintf(out, cap, ": the .ze_info YAML does not read at line %d%s%s%s", v, *at ? " (" : "", at + (*at != 0),
                 *at ? ")" : "");
        break;
    case GPUOCC_BINARY_FAULT_NESTING:
        snprintf(out, cap, ": the AMDGPU metadata nests arrays and maps deeper than %d levels%s, more than gpuocc "
                 "follows", v, at);
        break;
    default:
        snprintf(out, cap, "%s", "");
    }
    return out;
}

/* A Triton json's launch on the kernel it names (gpuocc binary DIR): the block size (num_warps x the warp
   size), clusters (num_ctas, or an older Triton's cluster_dims, where the binary records none), the register
   cap (maxnreg, as max_regs), tensor memory (tmem_size) and dynamic shared memory (shared) the launcher
   passes.  Other kernels of the binary, and binaries without a json, get none of it. */
static void apply_meta(struct binary_run *r, gpuocc_binary_kernel *b, const char *origin)
{
    const struct triton_meta *m = r->meta;
    r->o->record_metadata = NULL;
    r->o->record_smem_dynamic = -1;
    if (!m || (m->name[0] && (b->short_length != strlen(m->name) ||
                              memcmp(origin + b->short_offset, m->name, (size_t)b->short_length) != 0)))
        return;
    int64_t warp = m->warp_size ? m->warp_size : b->vendor == GPUOCC_VENDOR_AMD && b->wave_size > 0 ? b->wave_size : 32;
    b->launch_threads = (int32_t)(m->num_warps * warp); /* both at most 1024 */
    b->tmem_columns = (int32_t)m->tmem_size;
    if (b->vendor == GPUOCC_VENDOR_NVIDIA && b->cluster_x <= 0) {
        int64_t c[3] = {m->cluster[0], m->cluster[1], m->cluster[2]};
        if (c[0] <= 0 && m->num_ctas > 1)
            c[0] = m->num_ctas, c[1] = c[2] = 1;
        if (c[0] > 0 && c[0] * (c[1] > 0 ? c[1] : 1) * (c[2] > 0 ? c[2] : 1) > 1)
            b->cluster_x = (int32_t)c[0], b->cluster_y = (int32_t)(c[1] > 0 ? c[1] : 1),
            b->cluster_z = (int32_t)(c[2] > 0 ? c[2] : 1);
    }
    if (m->maxnreg > 0 && b->vendor == GPUOCC_VENDOR_NVIDIA)
        b->max_regs_per_thread = (int32_t)m->maxnreg;
    b->metadata_offset = 0;
    b->metadata_length = strlen(r->meta_path);
    r->o->record_metadata = r->meta_path;
    r->o->record_smem_dynamic = m->shared;
    r->meta_used = true;
}

/* One entry: its kernels printed (their number returned), or a problem naming the file and the entry. */
static int32_t read_entry(struct binary_run *r, const char *label, const uint8_t *p, size_t n, int32_t entry,
                          gpuocc_binary_summary *s, struct where *w)
{
    gpuocc_binary_entry info = {.size = sizeof info};
    int32_t rc = gpuocc_binary_entry_info(p, n, entry, &info, s);
    if (rc != GPUOCC_OK) {
        cli_problem(r->io, label, "entry %d: %s", entry, gpuocc_strerror(rc));
        return 0;
    }
    where_add(w, (const char *)p, &info);
    if (!entry_workspace(r, label, &info))
        return 0;
    int32_t count = 0;
    rc = gpuocc_binary_read_entry(p, n, entry, r->workspace, r->workspace_len, r->records, r->capacity, &count, s);
    if (rc == GPUOCC_ERR_BUFFER) {
        if (!grow_records(r, count)) {
            cli_problem(r->io, label, "entry %d: out of memory", entry);
            return 0;
        }
        rc = gpuocc_binary_read_entry(p, n, entry, r->workspace, r->workspace_len, r->records, r->capacity, &count,
                                      s);
    }
    if (rc != GPUOCC_OK) {
        char why[200];
        cli_problem(r->io, label, "entry %d: %s%s", entry, gpuocc_strerror(rc), fault_text(s, why, sizeof why));
        return 0;
    }
    r->entries_read++;
    if (count > 0) {
        progress_before_rows(r);
        if (r->noted != label) { /* the header and the file's note before its first row, never without one */
            input_file(r->io->out, r->o, label);
            r->noted = label;
        }
    }
    if (!copy_names(r, p, count)) {
        cli_problem(r->io, label, "entry %d: out of memory", entry);
        return 0;
    }
    for (int32_t i = 0; i < count && !cli_output_failed(r->io); i++) {
        const char *origin = r->records[i].name_buffer == GPUOCC_BINARY_NAME_INPUT ? (const char *)r->names
                                                                                     : (const char *)r->workspace;
        apply_meta(r, &r->records[i], origin);
        if (r->records[i].vendor == GPUOCC_VENDOR_AMD) {
            amd_kernel(r, label, origin, &r->records[i]);
            continue;
        }
        if (r->hide_relocatable && !r->records[i].linked)
            continue; /* a relocatable copy where the file has linked code (--all-copies shows it) */
        if (r->records[i].vendor == GPUOCC_VENDOR_INTEL) {
            input_intel_kernel(r->io->out, r->o, label, origin, &r->records[i]);
            continue;
        }
        gpuocc_compiled_kernel k = as_compiled(&r->records[i]);
        r->o->record_linked = r->records[i].linked;
        r->o->record = &r->records[i];
        input_kernel(r->io->out, r->o, label, origin, &k);
        r->o->record = NULL;
    }
    return count;
}

/* For a file that holds no device code: the command that reads it, when it is text (no NUL in its first
   64 KiB): a ptxas report, LLVM's remarks, or (a source file, another log) what to give gpuocc instead. */
static const char *text_hint(const uint8_t *p, size_t n)
{
    /* ocloc's default output (22.43, `ocloc compile -file k.cl -device pvc`): an ELF64 of e_machine 0 and e_type
       0xff04 whose section "Intel(R) OpenCL Device Binary" holds a patch-token program, not read (docs/intel.md) */
    if (n >= 20 && !memcmp(p, "\177ELF\2\1", 6) && p[16] == 0x04 && p[17] == 0xff && p[18] == 0 && p[19] == 0)
        return "; it is an Intel OpenCL ELF (e_type 0xff04) holding a patch-token program, ocloc's default output, "
               "which gpuocc does not read: ocloc compile ... -internal_options -cl-intel-allow-zebin writes a zebin";
    size_t look = n < 65536 ? n : 65536;
    if (n == 0 || memchr(p, 0, look))
        return "";
    if (input_contains((const char *)p, look, "Compiling entry function"))
        return "; it is a ptxas report: gpuocc ptxas reads it";
    if (input_contains((const char *)p, look, "remark: ") && input_contains((const char *)p, look, "Function Name"))
        return "; it is LLVM's resource-usage remarks: gpuocc remarks reads them";
    return "; it is text: gpuocc ptxas reads ptxas -v reports (nvcc -Xptxas -v -c k.cu 2>&1 | gpuocc ptxas), "
           "gpuocc remarks LLVM's remarks, gpuocc binary what nvcc -cubin, nvcc -c or clang -c wrote";
}

/* A CuPy kernel-cache file: the MD5 of the cubin as 32 ASCII hex digits, then the cubin; the bytes to skip (32),
   or 0 for any other file.  The digest is not checked: 32 hex digits before an ELF header are this format's. */
static size_t cupy_prefix(const uint8_t *p, size_t n)
{
    if (n < 36 || memcmp(p + 32, "\177ELF", 4) != 0)
        return 0;
    for (size_t i = 0; i < 32; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f') || (p[i] >= 'A' && p[i] <= 'F')))
            return 0;
    return 32;
}

/* The device code of one image (a whole file or an archive member).  In an archive, a member without
   device code is skipped quietly: host objects sit beside device objects there (not one whose container
   the library found broken).  An image with device code but no kernel at all (PTX only, cubins of device
   functions) is a problem of its own. */
static void read_image(struct binary_run *r, const char *label, const uint8_t *p, size_t n, bool member)
{
    size_t skip = member ? 0 : cupy_prefix(p, n);
    p += skip, n -= skip;
    gpuocc_binary_summary s = {.size = sizeof s};
    int32_t rc = gpuocc_binary_scan(p, n, &s);
    if (rc != GPUOCC_OK && s.fault) { /* device code, whose container says where it is broken */
        char entry[24] = "", why[200];
        if (s.first_failed_entry >= 0)
            snprintf(entry, sizeof entry, "entry %d: ", s.first_failed_entry);
        cli_problem(r->io, label, "%s%s%s", entry, gpuocc_strerror(rc), fault_text(&s, why, sizeof why));
        return;
    }
    if (rc != GPUOCC_OK) {
        if (!(member && rc == GPUOCC_ERR_FORMAT))
            cli_problem(r->io, label, "%s%s%s", gpuocc_strerror(rc),
                        rc == GPUOCC_ERR_FORMAT ? " (no cubin, fatbinary, AMDGPU code object, offload bundle "
                                                  "or Intel zebin, in a section or anywhere in one)" : "",
                        rc == GPUOCC_ERR_FORMAT ? text_hint(p, n) : "");
        return;
    }
    struct where w = {r->io, label, r->o->containers, {0}, 0, 0, 0, 0, 0};
    if (w.on)
        fprintf(r->io->err, "%s: %d containers (fatbinaries, offload bundles), %d compiled entries, %d entries "
                "without compiled code (PTX, LTO IR), %d candidates skipped (a magic whose headers do not "
                "validate)\n", label, s.containers, s.entries, s.uncompiled_entries, s.skipped_candidates);
    if (s.entries == 0) {
        if (!member || s.uncompiled_entries > 0)
            cli_problem(r->io, label, s.uncompiled_entries > 0
                        ? "holds PTX or LTO IR (%d entries) but no compiled kernel: compile for a real "
                          "architecture (sm_XX) to read one"
                        : "holds no compiled device code (%d entries)", s.uncompiled_entries);
        return;
    }
    r->noted = NULL;
    /* linked copies only where the file has both (an -rdc=true executable or library: __nv_relfatbin beside
       .nv_fatbin), as cuobjdump shows the linked code; --all-copies prints the relocatable ones too */
    bool relocatable_section = false, other_section = false;
    for (int32_t e = 0; e < s.entries && !r->o->all_copies; e++) {
        gpuocc_binary_entry info = {.size = sizeof info};
        if (gpuocc_binary_entry_info(p, n, e, &info, &s) != GPUOCC_OK || info.container != GPUOCC_BINARY_ENTRY_CUBIN)
            continue;
        bool rel = info.section_name_length == 14 && !memcmp(p + info.section_name_offset, "__nv_relfatbin", 14);
        relocatable_section |= rel;
        other_section |= !rel;
    }
    r->hide_relocatable = relocatable_section && other_section;
    int64_t kernels = 0, counted = 0, failed_before = r->io->status;
    for (int32_t e = 0; e < s.entries && !cli_output_failed(r->io); e++) {
#if !CLI_READ_WHOLE
        if (r->map)
            test_pause(e);
#endif
        kernels += read_entry(r, label, p, n, e, &s, &w);
        r->kernels += kernels - counted;
        counted = kernels;
        progress_tick(r);
#if !CLI_READ_WHOLE
        /* the mapped pages already read would stay resident: drop them now and then (they are read
           again from the file if needed), so memory stays near the workspace whatever the file's size */
        if (r->map && e % 64 == 63)
            madvise(r->map, r->map_len, MADV_DONTNEED);
#endif
    }
    where_flush(&w);
    if (kernels == 0 && s.entries_failed == 0 && failed_before == r->io->status)
        cli_problem(r->io, label, "%d compiled entr%s but no kernel (device functions or variables only)",
                    s.entries, s.entries == 1 ? "y" : "ies");
}

/* ar(1) archives: "!<arch>\n", then members, each a 60-byte header (name, dates, ids, mode, decimal size,
   "`\n") and its data padded to an even length.  GNU names end in '/', long ones are "/N" into the "//"
   member; BSD long names are "#1/N", the name's N bytes opening the data. */
#define AR_MAGIC "!<arch>\n"

static void read_archive(struct binary_run *r, const char *path, const uint8_t *p, size_t n)
{
    const uint8_t *names = NULL;
    size_t names_len = 0;
    bool any_member = false;
    for (size_t pos = 8; pos + 60 <= n;) {
        const uint8_t *h = p + pos;
        char field[17];
        memcpy(field, h + 48, 10);
        field[10] = 0;
        char *end;
        errno = 0;
        unsigned long long size = strtoull(field, &end, 10);
        if (errno || end == field || h[58] != '`' || h[59] != '\n' || size > n - pos - 60) {
            cli_problem(r->io, path, "archive member header at byte %zu is damaged", pos);
            return;
        }
        const uint8_t *data = h + 60;
        size_t data_len = (size_t)size;
        char name[256];
        size_t name_len = 0;
        if (h[0] == '/' && h[1] == '/') { /* the long-name table */
            names = data;
            names_len = data_len;
        } else if (h[0] == '/' && h[1] >= '0' && h[1] <= '9' && names) {
            memcpy(field, h + 1, 15);
            field[15] = 0;
            size_t at = (size_t)strtoull(field, NULL, 10);
            while (at < names_len && names[at] != '/' && names[at] != '\n' && name_len < sizeof name - 1)
                name[name_len++] = (char)names[at++];
        } else if (h[0] == '#' && h[1] == '1' && h[2] == '/') {
            memcpy(field, h + 3, 13);
            field[13] = 0;
            size_t len = (size_t)strtoull(field, NULL, 10);
            if (len > data_len)
                len = data_len;
            for (size_t i = 0; i < len && data[i] && name_len < sizeof name - 1; i++)
                name[name_len++] = (char)data[i];
            data += len;
            data_len -= len;
        } else if (h[0] != '/') {
            while (name_len < 16 && h[name_len] != '/' && h[name_len] != ' ')
                name[name_len] = (char)h[name_len], name_len++;
        }
        if (name_len > 0) {
            name[name_len] = 0;
            size_t label_len = strlen(path) + name_len + 3;
            char *label = malloc(label_len);
            if (!label) {
                cli_problem(r->io, path, "out of memory");
                return;
            }
            snprintf(label, label_len, "%s(%s)", path, name);
            int64_t before = r->entries_read;
            read_image(r, label, data, data_len, true);
            any_member |= r->entries_read > before;
            free(label);
        }
        pos += 60 + (size_t)size + (size & 1);
    }
    if (!any_member)
        cli_problem(r->io, path, "no member of the archive holds device code");
}

#if !CLI_READ_WHOLE
/* ---- gpuocc binary DIR: a Triton cache ----
   Triton writes each kernel into <cache>/<hash>/: <name>.json (its metadata), the binary (<name>.cubin,
   .hsaco or .spv), __grp__<name>.json (the group's manifest) and the intermediates (.ttir, .ttgir, .llir,
   .ptx, .amdgcn, .source).  Each json is paired with the binary of the same name beside it; a json without a
   binary, and in a folder that holds Triton metadata a binary without a json, is a problem (never guessed:
   the binary's rows print with the launch the flags give).  Other files are read as gpuocc binary reads any
   file; folders are walked in name order, TRITON_DIR_DEPTH deep, symbolic links not followed. */
#define TRITON_DIR_DEPTH 8

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && !strcmp(s + n - t, tail);
}

static const char *const triton_binaries[] = {".cubin", ".hsaco", ".spv"};
static const char *const triton_intermediates[] = {".ttir", ".ttgir", ".llir", ".ptx", ".amdgcn", ".source"};

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder `path` (sorted; "." and ".." left out), or NULL after saying why. */
static char **list_folder(struct binary_run *r, const char *path, size_t *count)
{
    DIR *d = opendir(path);
    if (!d) {
        cli_problem(r->io, path, "cannot open the folder: %s", strerror(errno));
        return NULL;
    }
    size_t n = 0, cap = 16;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    while (names && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            char **bigger = realloc(names, 2 * cap * sizeof *names);
            if (!bigger)
                break;
            names = bigger, cap *= 2;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    if (!names)
        cli_problem(r->io, path, "out of memory");
    else
        qsort(names, n, sizeof *names, compare_names);
    *count = n;
    return names;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", name);
    return p;
}

/* Whether `name` with its extension `ext` replaced by `other` is among the sorted names. */
static bool sibling(char **names, size_t n, const char *name, const char *ext, const char *other)
{
    size_t stem = strlen(name) - strlen(ext);
    char buf[1024];
    if (stem + strlen(other) + 1 > sizeof buf)
        return false;
    memcpy(buf, name, stem);
    strcpy(buf + stem, other);
    const char *key = buf;
    return bsearch(&key, names, n, sizeof *names, compare_names) != NULL;
}

static void read_path(struct binary_run *r, const char *path);

/* One binary of a Triton folder with its json (NULL: none). */
static void read_with_meta(struct binary_run *r, const char *path, const char *json)
{
    struct triton_meta m;
    r->meta = NULL;
    r->meta_path = json;
    r->meta_used = false;
    if (json) {
        size_t n;
        char why[160];
        FILE *f = fopen(json, "rb");
        char *text = f ? malloc(TRITON_META_MAX_BYTES) : NULL;
        n = text ? fread(text, 1, TRITON_META_MAX_BYTES, f) : 0;
        bool whole = f && text && !ferror(f) && fgetc(f) == EOF;
        if (f)
            fclose(f);
        if (!f || !text)
            cli_problem(r->io, json, "cannot read it (%s): %s read without it", f ? "out of memory" : strerror(errno),
                        path);
        else if (!whole)
            cli_problem(r->io, json, "over %zu bytes, or unreadable: not a Triton kernel's json; %s read without it",
                        TRITON_META_MAX_BYTES, path);
        else if (!triton_meta_parse(text, n, &m, why, sizeof why))
            cli_problem(r->io, json, "not a Triton kernel's metadata (%s): %s read without it", why, path);
        else
            r->meta = &m;
        free(text);
    }
    read_path(r, path);
    if (r->meta && !r->meta_used)
        cli_problem(r->io, json, "names kernel '%s', which %s does not hold: its launch is not applied", r->meta->name,
                    path);
    r->meta = NULL;
    r->meta_path = NULL;
}

static void read_folder(struct binary_run *r, const char *path, int depth)
{
    r->o->folder = true;
    size_t n;
    char **names = list_folder(r, path, &n);
    if (!names)
        return;
    if (n == 0 && depth == 0)
        cli_problem(r->io, path, "the folder holds no file to read");
    bool triton = false; /* Triton metadata here: pair what is here */
    for (size_t i = 0; i < n; i++)
        triton |= ends_with(names[i], ".json");
    for (size_t i = 0; i < n && !cli_output_failed(r->io); i++) {
        const char *name = names[i];
        char *full = join(path, name);
        struct stat st;
        if (!full || lstat(full, &st) != 0) {
            cli_problem(r->io, full ? full : path, full ? "cannot read: %s" : "out of memory", strerror(errno));
            free(full);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (depth < TRITON_DIR_DEPTH)
                read_folder(r, full, depth + 1);
            else
                cli_problem(r->io, full, "more than %d folders deep: not read", TRITON_DIR_DEPTH);
        } else if (!S_ISREG(st.st_mode)) {
            ; /* links, sockets, devices: not followed */
        } else if (!strncmp(name, "__grp__", 7) && ends_with(name, ".json")) {
            ; /* a group's manifest: the files of one compile, each read as itself */
        } else if (ends_with(name, ".json")) {
            bool paired = false;
            for (size_t b = 0; b < 3; b++)
                paired |= sibling(names, n, name, ".json", triton_binaries[b]);
            if (!paired)
                cli_problem(r->io, full, "no binary beside it (.cubin, .hsaco or .spv of the same name): its kernel "
                            "is not reported");
        } else {
            const char *binary = NULL;
            for (size_t b = 0; b < 3 && !binary; b++)
                binary = ends_with(name, triton_binaries[b]) ? triton_binaries[b] : NULL;
            bool intermediate = false;
            for (size_t t = 0; t < 6; t++)
                intermediate |= ends_with(name, triton_intermediates[t]);
            if (binary && triton) {
                char *json = NULL;
                if (sibling(names, n, name, binary, ".json")) {
                    size_t stem = strlen(name) - strlen(binary);
                    char *stemmed = malloc(stem + 6);
                    if (stemmed) {
                        memcpy(stemmed, name, stem);
                        strcpy(stemmed + stem, ".json");
                        json = join(path, stemmed);
                        free(stemmed);
                    }
                } else
                    cli_problem(r->io, full, "no Triton json beside it (the launch's block size, clusters and shared "
                                "memory are not known): read with the launch the flags give");
                read_with_meta(r, full, json);
                free(json);
            } else if (!(intermediate && triton))
                read_path(r, full);
        }
        free(full);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}
#endif

/* A file read into memory: standard input, a pipe (`<(...)`, /dev/stdin on a pipe), a device, or any file on
   WebAssembly. */
static void read_whole(struct binary_run *r, const char *path, int fd)
{
    size_t n;
    char *data = input_slurp_file_fd(r->io, path, fd, &n);
    if (!data)
        return;
    if (n == 0)
        cli_problem(r->io, path, "cannot read: %s", "the input is empty (0 bytes)");
    else if (n >= 8 && !memcmp(data, AR_MAGIC, 8))
        read_archive(r, path, (const uint8_t *)data, n);
    else
        read_image(r, path, (const uint8_t *)data, n, false);
    free(data);
}

static void read_path(struct binary_run *r, const char *path)
{
    if (CLI_READ_WHOLE || !strcmp(path, "-")) { /* standard input cannot be mapped: read it whole */
        read_whole(r, path, -1);
        return;
    }
#if !CLI_READ_WHOLE
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        cli_problem(r->io, path, "cannot open: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    if (S_ISDIR(st.st_mode)) { /* a folder: a Triton cache, or any folder of binaries */
        close(fd);
        read_folder(r, path, 0);
        return;
    }
    if (!S_ISREG(st.st_mode)) { /* a pipe or a device cannot be mapped: read it whole, as standard input, from
                                   this descriptor (opened again, a pipe whose writer is done would never end) */
        read_whole(r, path, fd);
        return;
    }
    if (st.st_size == 0) {
        cli_problem(r->io, path, "cannot read: %s", "the file is empty (0 bytes)");
        close(fd);
        return;
    }
    size_t n = (size_t)st.st_size;
    void *map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        cli_problem(r->io, path, "cannot map: %s", strerror(errno));
        return;
    }
    r->map = map;
    r->map_len = n;
    guard_install();
    struct map_guard g = {.lo = map, .hi = (const uint8_t *)map + n};
    map_guard = &g;
    if (sigsetjmp(g.env, 1) == 0) {
        g.armed = 1;
        if (n >= 8 && !memcmp(map, AR_MAGIC, 8))
            read_archive(r, path, map, n);
        else
            read_image(r, path, map, n, false);
        g.armed = 0;
    } else { /* a page of the mapping is gone: the file shrank (or its storage failed) while it was read */
        fflush(r->io->out);
        struct stat now;
        if (stat(path, &now) == 0 && (uintmax_t)now.st_size < n)
            cli_problem(r->io, path, "the file shrank while it was read (%zu bytes when opened, %lld now): the "
                        "rest of it is not read", n, (long long)now.st_size);
        else
            cli_problem(r->io, path, "a page of the file could not be read (it changed while it was read, or "
                        "its storage failed): the rest of it is not read");
    }
    map_guard = NULL;
    r->map = NULL;
    munmap(map, n);
#endif
}

static int cmd_binary(struct cli_io *io, int argc, char **argv)
{
    struct input_options o;
    if (!input_parse_options(io, argc, argv, &o, true)) {
        free(o.paths);
        return io->status;
    }
    if (o.npaths == 0) {
        free(o.paths);
        return cli_fail(io, "FILE", "give cubins, fatbinaries, host objects, libraries, archives or folders (a Triton "
                        "cache) (or - for stdin)");
    }
    struct progress progress;
    progress_init(&progress, io, o.npaths);
    struct binary_run r = {io, &o, NULL, 0, NULL, 0, 0, 0, NULL, 0, NULL, 0, &progress, NULL, false, NULL, NULL, false};
    o.record_smem_dynamic = -1;
    if (!grow_records(&r, 256)) {
        free(o.paths);
        return cli_fail(io, "memory", "out of memory");
    }
    input_begin(io->out, &o);
    o.amd_columns = true;
    for (int i = 0; i < o.npaths && !cli_output_failed(io); i++) {
        progress.file = o.paths[i];
        read_path(&r, o.paths[i]);
        progress.files_done = i + 1;
        progress_tick(&r);
    }
    if (io->progress_shown)
        fflush(io->out);
    cli_progress_clear(io);
    input_end(io->out, &o, r.kernels > 0);
    free(r.workspace);
    free(r.records);
    free(r.names);
    if (r.kernels == 0) /* no kernel at all: nothing was answered */
        io->status = io->status > CLI_USAGE ? io->status : CLI_USAGE;
    return io->status;
}

/* the launch flags of both vendors: AMD's apply to AMD kernels (--model runtime --rocm 6.2, --lds-dynamic) */
static const struct cli_option binary_options[] = {
    CLI_LAUNCH_OPTIONS,
    CLI_AMD_LAUNCH_OPTIONS,
    CLI_INTEL_LAUNCH_OPTIONS,
    {"--best-block", NULL, "evaluate every kernel at its best block size (within its launch bounds); without it or "
                           "--threads, each kernel at the launch bound it records (threads_from says which)"},
    {"--json", NULL, "a JSON array of objects instead of the table"},
    {"--csv", NULL, "CSV with a header instead of the table"},
    {"--max-entry-bytes", "BYTES", "the most one entry may claim decompressed (default 1G); a larger one is an "
                                   "error of that entry"},
    {"--containers", NULL, "say on stderr, per file, how many containers were found and in which sections"},
    {"--linked-only", NULL, "where a file holds linked code and relocatable copies (__nv_relfatbin) of it, only the linked (the default)"},
    {"--all-copies", NULL, "relocatable copies (__nv_relfatbin) too, where a file also holds the linked code (by default only the linked print)"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_binary = {
    "binary", cmd_binary,
    "every kernel of device code in binaries (cubins, fatbinaries, AMDGPU code objects, HIP offload bundles, "
    "Intel zebins, objects, libraries, archives), with its occupancy",
    "FILE...|DIR...|- [--threads N | --best-block] [--arch NAME] [--json|--csv]", binary_options,
    "gpuocc binary kernels.cubin --threads 256\n"
    "gpuocc binary ./triton_cache --json                              # a Triton cache: each json with its binary\n"
    "gpuocc binary kernels.cubin                                      # each kernel at its __launch_bounds__ (none: status 1)\n"
    "gpuocc binary app.o libfoo.a --best-block --json\n"
    "gpuocc binary /usr/local/cuda/lib64/libcublasLt.so --best-block --csv\n"
    "gpuocc binary kernel-gfx90a.o hip_app.o --threads 256 --json   # AMD: code objects, .hip_fatbin\n"
    "gpuocc binary app.hipfb --arch MI300X --best-block               # wave32 entries cannot run there: status 1\n"
    "gpuocc binary kernels_dg2.bin --threads 256                      # Intel: a zebin built by ocloc\n"};

const struct cli_command cli_cmd_cubin = {
    "cubin", cmd_binary, "the same as 'gpuocc binary' (its older name)",
    "FILE...|- [--threads N | --best-block] [--arch NAME] [--json|--csv]", binary_options,
    "gpuocc cubin kernels.cubin --threads 256\n"};
