/* gpuocc remarks: every kernel of LLVM's AMDGPU resource-usage remarks, with its occupancy on --arch (the
   remarks do not name the target; a kernel's remarks seen again start another target's, named), as gpuocc ptxas
   reads ptxas reports. */
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
    return cli_amd_model_name(k->model);
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
   numbers stay the file's.  A record the library rejects (a value that does not read, a remark given twice,
   a required one missing) is named on stderr and skipped up to the next "Function Name"; so is a record
   still open after --max-record-bytes, its text read and dropped as it comes. */

#define REMARKS_OPENER "Function Name"

static bool remarks_opens(const char *line, size_t n)
{
    int32_t count = 0, error_line = 0;
    int32_t rc = gpuocc_remarks_parse(line, n, NULL, 0, &count, &error_line);
    return rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_PARSE; /* it opens a record */
}

static bool remarks_boundary(const char *line, size_t n, const char *prev, size_t prev_n)
{
    (void)prev;
    (void)prev_n;
    return remarks_opens(line, n);
}

/* ---- the same kernel again: another target's remarks ----
   One clang command for several --offload-arch prints each target's remarks in turn, and no remark names the
   target (docs/amd.md, "LLVM's remarks").  A kernel's "Function Name" line (its location, then its name) seen
   again in one log therefore starts another compile's remarks, which --arch may not be: each such line is
   named (exit 1) and the rows are all kept.  The lines of the current run of remarks are kept as 64-bit
   hashes with the line they were on, so memory does not grow with the names' length; a collision could only
   name a line that is not a repeat, never hide one. */

struct remarks_seen {
    struct remarks_seen_slot {
        uint64_t hash; /* 0: empty */
        int64_t line;
    } *slots;
    size_t cap, used; /* cap: 0 or a power of two */
};

static uint64_t remarks_hash(const char *p, size_t n)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211u;
    return h ? h : 1;
}

static void remarks_seen_clear(struct remarks_seen *s)
{
    free(s->slots);
    *s = (struct remarks_seen){NULL, 0, 0};
}

/* Puts `hash` (seen on `line`) in a table of `cap` slots, a power of two with room left; the line it was put on
   before, or 0. */
static int64_t remarks_slot_put(struct remarks_seen_slot *slots, size_t cap, uint64_t hash, int64_t line)
{
    size_t j = (size_t)hash & (cap - 1);
    while (slots[j].hash && slots[j].hash != hash)
        j = (j + 1) & (cap - 1);
    if (slots[j].hash)
        return slots[j].line;
    slots[j] = (struct remarks_seen_slot){hash, line};
    return 0;
}

/* The line `hash` was first seen on since the last clear, or 0 after adding it with `line`; -1 when memory ran
   out. */
static int64_t remarks_seen_add(struct remarks_seen *s, uint64_t hash, int64_t line)
{
    if (2 * (s->used + 1) > s->cap) { /* at most half full */
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct remarks_seen_slot *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i].hash)
                remarks_slot_put(slots, cap, s->slots[i].hash, s->slots[i].line);
        free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    int64_t first = remarks_slot_put(s->slots, s->cap, hash, line);
    s->used += first == 0;
    return first;
}

struct remarks_log {
    struct cli_io *io;
    struct remarks_options *o;
    struct input_stream *s;
    const char *path;
    gpuocc_remarks_kernel *ks;
    int32_t ks_cap;
    int64_t kernels;
    int64_t base;                /* window line k is the file's line base + k... */
    int64_t gap_after, gap_lines; /* ...plus gap_lines when k > gap_after */
    struct remarks_seen seen;    /* the "Function Name" lines of the current run of remarks */
};

static int64_t file_line(const struct remarks_log *g, int64_t k)
{
    return g->base + k + (g->gap_lines && k > g->gap_after ? g->gap_lines : 0);
}

/* The error lines of text[0, n), whose first line is line `line0` + 1 of the window (while no record is read). */
static void remarks_note_errors(struct remarks_log *g, const char *text, size_t n, int64_t line0)
{
    if (g->s->found)
        return;
    size_t split = n; /* where the window's gap falls in the text: the line numbers jump there */
    if (g->gap_lines && g->gap_after > line0) {
        const char *p = text, *e = text + n;
        for (int64_t k = line0; k < g->gap_after && p < e; k++) {
            const char *nl = memchr(p, '\n', (size_t)(e - p));
            p = nl ? nl + 1 : e;
        }
        split = (size_t)(p - text);
    }
    input_stream_note_errors(g->s, text, split, file_line(g, line0 + 1));
    if (split < n)
        input_stream_note_errors(g->s, text + split, n - split, file_line(g, g->gap_after + 1));
}

/* Names the record `k` (its "Function Name" line in text, at file line `at`) when its line came before in
   this run of remarks: from it on, the remarks are another compile's (the run starts again there). */
static void remarks_again(struct remarks_log *g, const char *text, const gpuocc_remarks_kernel *k, int64_t at)
{
    const char *name = text + k->name_offset, *start = name;
    while (start > text && start[-1] != '\n')
        start--;
    uint64_t hash = remarks_hash(start, (size_t)(name - start) + (size_t)k->name_length);
    int64_t first = remarks_seen_add(&g->seen, hash, at);
    if (first == 0)
        return;
    if (first < 0) {
        cli_problem(g->io, g->path, "line %lld: out of memory", (long long)at);
        return;
    }
    char quoted[INPUT_ERROR_QUOTE];
    input_quote(quoted, sizeof quoted, name, (size_t)k->name_length, 64);
    cli_problem(g->io, g->path,
                "line %lld: kernel '%s' again (first at line %lld): another compile's remarks start here (clang prints "
                "each --offload-arch's in turn and names none), yet every row is answered for --arch %s; give each "
                "target's remarks on their own (one --offload-arch per compile)",
                (long long)at, quoted, (long long)first, g->o->launch.dev_name);
    remarks_seen_clear(&g->seen);
    remarks_seen_add(&g->seen, hash, at);
}

/* The kernels of text[0, n), which reads without error (`count` records; -1: not counted yet); line k of it is
   line line0 + k of the window.  False after naming the problem. */
static bool remarks_rows(struct remarks_log *g, const char *text, size_t n, int32_t count, int64_t line0)
{
    struct cli_io *io = g->io;
    struct remarks_options *o = g->o;
    int32_t line = 0;
    int32_t rc = count < 0 ? gpuocc_remarks_parse(text, n, NULL, 0, &count, &line) : GPUOCC_OK;
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        cli_problem(io, g->path, "line %lld: %s", (long long)file_line(g, line0 + line), gpuocc_strerror(rc));
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
    g->s->found = true;
    for (int32_t i = 0; i < count && !cli_output_failed(io); i++) {
        gpuocc_remarks_kernel k = g->ks[i];
        int64_t at = file_line(g, line0 + k.line);
        if (at > INT32_MAX) {
            cli_problem(io, g->path, "line %lld: %s", (long long)at, gpuocc_strerror(GPUOCC_ERR_OVERFLOW));
            return false;
        }
        k.line = (int32_t)at;
        remarks_again(g, text, &g->ks[i], at);
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

/* A remark's label and value in line[0, n) ("k.cl:8:1: remark:     VGPRs: 3 [-Rpass-analysis=...]", llc's
   "remark: k.cl:8:0: VGPRs: 3"); false when the line holds no "remark: ". */
static bool remarks_label(const char *line, size_t n, const char **label, size_t *label_n, const char **value,
                          size_t *value_n)
{
    const char *p = line, *e = line + n, *tag = NULL;
    while (!tag && (p = memchr(p, 'r', (size_t)(e - p))) != NULL)
        tag = (size_t)(e - p) >= 8 && memcmp(p, "remark: ", 8) == 0 ? p : (p++, NULL);
    if (!tag)
        return false;
    static const char option[] = " [-Rpass-analysis=kernel-resource-usage]";
    p = tag + 8;
    while (e > p && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' '))
        e--;
    if ((size_t)(e - p) >= sizeof option - 1 && memcmp(e - (sizeof option - 1), option, sizeof option - 1) == 0)
        e -= sizeof option - 1;
    const char *colon = NULL, *before = NULL; /* the last ": " (or a final ':') and the one before it */
    for (const char *q = p; q < e; q++)
        if (*q == ':' && (q + 1 == e || q[1] == ' '))
            before = colon, colon = q;
    if (!colon)
        return false;
    const char *l = before ? before + 1 : p;
    while (l < colon && *l == ' ')
        l++;
    *label = l;
    *label_n = (size_t)(colon - l);
    *value = colon + 1 < e ? colon + 2 : e;
    *value_n = (size_t)(e - *value);
    return true;
}

/* Names on stderr the record text[from, to) the library rejected with `rc` at line sp (file line `at`). */
static void remarks_skipped(struct remarks_log *g, const char *text, const struct input_span *sp, size_t from,
                            size_t to, int32_t rc, int64_t at, bool at_end)
{
    const char *label, *value;
    size_t label_n, value_n;
    char who[INPUT_ERROR_QUOTE + 16], what[INPUT_ERROR_QUOTE + 96], quoted[INPUT_ERROR_QUOTE];
    const char *nl = memchr(text + from, '\n', to - from);
    if (remarks_label(text + from, nl ? (size_t)(nl - (text + from)) : to - from, &label, &label_n, &value, &value_n) &&
        value_n) {
        input_quote(quoted, sizeof quoted, value, value_n, 64);
        snprintf(who, sizeof who, "kernel '%s'", quoted);
    } else
        snprintf(who, sizeof who, "a kernel without a name");
    if (rc == GPUOCC_ERR_TRUNCATED) {
        /* the remarks every kernel has (SGPRs, VGPRs, Occupancy): those never given */
        static const char *const required[] = {"SGPRs", "VGPRs", "Occupancy [waves/SIMD]"};
        bool seen[3] = {false, false, false};
        for (const char *p = text + from, *e = text + to; p < e;) {
            const char *end = memchr(p, '\n', (size_t)(e - p));
            end = end ? end + 1 : e;
            if (remarks_label(p, (size_t)(end - p), &label, &label_n, &value, &value_n))
                for (int i = 0; i < 3; i++)
                    seen[i] |= label_n == strlen(required[i]) && memcmp(label, required[i], label_n) == 0;
            p = end;
        }
        int w = snprintf(what, sizeof what, "no");
        for (int i = 0, listed = 0; i < 3; i++)
            if (!seen[i])
                w += snprintf(what + w, sizeof what - (size_t)w, "%s%s", listed++ ? " or " : " ", required[i]);
        snprintf(what + w, sizeof what - (size_t)w, " remark before %s", at_end ? "the end of the input" : "the next kernel");
    } else if (sp->line_start == from) {
        snprintf(what, sizeof what, "no kernel name");
    } else if (remarks_label(text + sp->line_start, sp->line_end - sp->line_start, &label, &label_n, &value, &value_n)) {
        /* twice for one kernel, or a value that does not read */
        bool twice = false;
        char key[64];
        snprintf(key, sizeof key, "%.*s:", (int)(label_n < 60 ? label_n : 60), label);
        for (const char *p = text + from, *e = text + sp->line_start; !twice && p < e;) {
            const char *end = memchr(p, '\n', (size_t)(e - p));
            end = end ? end + 1 : e;
            const char *l2, *v2;
            size_t l2n, v2n;
            twice = remarks_label(p, (size_t)(end - p), &l2, &l2n, &v2, &v2n) && l2n == label_n &&
                    memcmp(l2, label, label_n) == 0;
            p = end;
        }
        input_quote(quoted, sizeof quoted, value, value_n, INPUT_QUOTE_BYTES);
        if (twice)
            snprintf(what, sizeof what, "%s given twice", key);
        else
            snprintf(what, sizeof what, "%s cannot read \"%s\"", key, quoted);
    } else
        snprintf(what, sizeof what, "a remark that does not read");
    cli_problem(g->io, g->path, "line %lld: %s skipped: %s", (long long)at, who, what);
}

/* The kernels of buf[0, cut): the rows of its records, each record the library rejects named and skipped;
   false after naming a problem that ends the file.  `at_end`: the cut is the end of the input. */
static bool remarks_window(struct remarks_log *g, size_t cut, bool at_end)
{
    struct input_stream *s = g->s;
    size_t start = 0;  /* the text read is buf[start, cut)... */
    int64_t line0 = 0; /* ...whose line k is the window's line0 + k */
    int32_t count = 0;
    for (;;) {
        const char *text = s->buf ? s->buf + start : "";
        size_t n = cut - start;
        int32_t line = 0;
        int32_t rc = gpuocc_remarks_parse(text, n, NULL, 0, &count, &line);
        if (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER)
            break;
        if (rc != GPUOCC_ERR_PARSE && rc != GPUOCC_ERR_TRUNCATED) {
            cli_problem(g->io, g->path, "line %lld: %s", (long long)file_line(g, line0 + line), gpuocc_strerror(rc));
            return false;
        }
        /* a rejected line always lies in a record: from its "Function Name" to the next */
        struct input_span sp;
        input_locate(text, 0, n, line, REMARKS_OPENER, remarks_opens, &sp);
        size_t from = sp.opener != SIZE_MAX ? sp.opener : sp.line_start, to = sp.next;
        int64_t lines_before = input_count_lines(text, from);
        if (!remarks_rows(g, text, from, -1, line0))
            return false;
        remarks_note_errors(g, text, from, line0);
        remarks_skipped(g, text, &sp, from, to, rc, file_line(g, line0 + line), at_end && to == n);
        remarks_note_errors(g, text + from, to - from, line0 + lines_before);
        line0 += input_count_lines(text, to);
        start += to;
    }
    const char *text = s->buf ? s->buf + start : "";
    if (!remarks_rows(g, text, cut - start, count, line0))
        return false;
    remarks_note_errors(g, text, cut - start, line0);
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
    if (!s->found)
        input_stream_note_errors(s, s->buf + keep, end - keep, file_line(g, at + 1));
    g->gap_after = at;
    g->gap_lines += input_count_lines(s->buf + keep, end - keep);
    memmove(s->buf + keep, s->buf + end, s->len - end);
    s->len -= end - keep;
    return true;
}

/* The window has grown past --max-record-bytes without a record's end: names what is dropped (the record
   whose line starts it) and starts dropping it; whether text is still being dropped. */
static bool remarks_overlong(struct remarks_log *g)
{
    struct input_stream *s = g->s;
    const char *e = s->buf + s->len, *nl = memchr(s->buf, '\n', s->len);
    const char *label, *value;
    size_t label_n, value_n;
    char who[INPUT_ERROR_QUOTE + 16], quoted[INPUT_ERROR_QUOTE];
    if (remarks_opens(s->buf, (size_t)((nl ? nl : e) - s->buf)) &&
        remarks_label(s->buf, (size_t)((nl ? nl : e) - s->buf), &label, &label_n, &value, &value_n) && value_n) {
        input_quote(quoted, sizeof quoted, value, value_n, 64);
        snprintf(who, sizeof who, "kernel '%s'", quoted);
    } else
        snprintf(who, sizeof who, "a line");
    cli_problem(g->io, g->path, "line %lld: %s skipped: more than %zu bytes before its end (--max-record-bytes raises "
                "the limit); read on at the next kernel", (long long)file_line(g, 1), who, s->max_window);
    int64_t lines;
    bool found = input_stream_skip(s, 0, REMARKS_OPENER, remarks_opens, true, file_line(g, 1), &lines);
    g->base = file_line(g, lines + 1) - 1;
    g->gap_after = g->gap_lines = 0;
    return !found;
}

/* One log: its kernels, each record it cannot read named (status 1); false when it gave none (then the
   problem, and the log's own error lines, named). */
static bool remarks_file(struct cli_io *io, struct remarks_options *o, const char *path)
{
    struct input_stream s;
    if (!input_stream_open(io, path, (size_t)o->max_record_bytes, &s))
        return false;
    struct remarks_log g = {io, o, &s, path, NULL, 0, 0, 0, 0, 0, {NULL, 0, 0}};
    bool failed = false, skipping = false; /* skipping: dropping text up to the next record */
    while (!failed && !cli_output_failed(io)) {
        if (!input_stream_fill(&s)) {
            failed = true;
            break;
        }
        if (skipping) {
            int64_t lines;
            skipping = !input_stream_skip(&s, 0, REMARKS_OPENER, remarks_opens, false, g.base + 1, &lines);
            g.base += lines;
            if (skipping) {
                if (s.eof)
                    break;
                continue;
            }
        }
        if (s.eof) {
            failed = !remarks_window(&g, s.len, true);
            break;
        }
        size_t cut = input_stream_last_line(&s, 0, REMARKS_OPENER, remarks_boundary);
        if (!cut) {
            const char *nl = memchr(s.buf, '\n', s.len);
            if (nl && !remarks_boundary(s.buf, (size_t)(nl - s.buf) + 1, NULL, 0)) {
                /* no record is open: every complete line can go */
                cut = s.len;
                while (s.buf[cut - 1] != '\n')
                    cut--;
            } else { /* no line ends here yet, or a record is open: read on, unless the window is full */
                if (nl && s.len >= s.chunk)
                    remarks_compact(&g, &s);
                if (s.len >= s.max_window)
                    skipping = remarks_overlong(&g);
                continue;
            }
        }
        if (!remarks_window(&g, cut, false)) {
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
        input_stream_no_record(&s, "expected LLVM's remarks: clang -Rpass-analysis=kernel-resource-usage");
    free(g.ks);
    remarks_seen_clear(&g.seen);
    input_stream_close(&s);
    return g.kernels > 0;
}

static bool parse_options(struct cli_io *io, int argc, char **argv, struct remarks_options *o)
{
    cli_launch_init(&o->launch);
    o->max_record_bytes = INPUT_MAX_RECORD;
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
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
    {"--arch", "NAME", "the AMD target or product the remarks are for (gfx942, MI300X): required; a log of several "
                       "targets' remarks (one clang command, several --offload-arch) is named on stderr, exit 1"},
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
