/* gpuocc ptxas: every kernel of ptxas reports, with its occupancy; the rows and options it shares with
   gpuocc binary (tools/cmd_binary.c, through tools/inputs.h). */
#define _POSIX_C_SOURCE 200809L
#include "clusters.h"
#include "inputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* Reads of a pipe or a device stop here (a build log or a binary this large is not one: /dev/zero). */
#define MAX_STREAM ((size_t)1 << 28)

/* input_slurp, and with fd >= 0 on a descriptor of `path` already open (read and closed here: a pipe opened
   twice would wait for a writer that is gone). */
static char *slurp(struct cli_io *io, const char *path, int fd, size_t *length)
{
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : strcmp(path, "-") ? fopen(path, "rb") : io->in;
    if (fd >= 0 && !f)
        close(fd);
    if (f == io->in) {
        const char *cmd = io->cmd ? io->cmd->name : "";
        cli_note_terminal_input(io, !strcmp(cmd, "ptxas") ? "ptxas -v reports" :
                                    !strcmp(cmd, "remarks") ? "LLVM's resource-usage remarks" : "a binary");
    }
    if (!f) {
        cli_fail(io, path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    bool regular = false;
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            if (f != io->in)
                fclose(f);
            cli_fail(io, path, "cannot read: %s", strerror(EISDIR));
            return NULL;
        }
        regular = S_ISREG(st.st_mode);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    bool too_big = false;
    errno = 0;
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            if (!regular && cap >= MAX_STREAM) {
                too_big = true;
                break;
            }
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    int e = errno;
    bool failed = !buf || ferror(f);
    if (f != io->in)
        fclose(f);
    if (failed || too_big) {
        free(buf);
        if (too_big)
            cli_fail(io, path, "more than %zu bytes from a stream: not a build log or binary", MAX_STREAM);
        else
            cli_fail(io, path, "cannot read: %s", buf ? strerror(e ? e : EIO) : "out of memory");
        return NULL;
    }
    *length = n;
    return buf;
}

char *input_slurp(struct cli_io *io, const char *path, size_t *length)
{
    return slurp(io, path, -1, length);
}

char *input_slurp_file_fd(struct cli_io *io, const char *path, int fd, size_t *length)
{
    struct cli_io quiet = *io;
    quiet.status = 0;
    char *text = slurp(&quiet, path, fd, length);
    if (!text)
        io->status = io->status > CLI_PARTIAL ? io->status : CLI_PARTIAL;
    return text;
}

char *input_slurp_file(struct cli_io *io, const char *path, size_t *length)
{
    return input_slurp_file_fd(io, path, -1, length);
}

/* ---- text read in windows ---- */

int64_t input_count_lines(const char *p, size_t n)
{
    int64_t lines = 0;
    for (const char *end = p + n; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        lines++;
    return lines;
}

bool input_contains(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    if (k == 0 || k > n)
        return k == 0;
    const char *p = s, *last = s + (n - k);
    while (p <= last && (p = memchr(p, needle[0], (size_t)(last - p) + 1)) != NULL) {
        if (memcmp(p, needle, k) == 0)
            return true;
        p++;
    }
    return false;
}

#define STREAM_CHUNK ((size_t)1 << 20)
#define STREAM_FIRST_LINE ((int64_t)1 << 20) /* no line break in the first MiB: not a text log */

bool input_stream_open(struct cli_io *io, const char *path, size_t max_window, struct input_stream *s)
{
    *s = (struct input_stream){.io = io, .path = path, .chunk = STREAM_CHUNK, .max_window = max_window};
    /* Test only (tests/test_cli_stream.py): GPUOCC_TEST_CHUNK_BYTES=N reads N bytes at a time, so that a test
       puts window boundaries everywhere; a size at least the input's reads it in one window. */
    const char *test_chunk = getenv("GPUOCC_TEST_CHUNK_BYTES");
    if (test_chunk && atoll(test_chunk) > 0)
        s->chunk = (size_t)atoll(test_chunk);
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : io->in;
    if (f == io->in) {
        const char *cmd = io->cmd ? io->cmd->name : "";
        cli_note_terminal_input(io, !strcmp(cmd, "remarks") ? "LLVM's resource-usage remarks" : "ptxas -v reports");
    }
    if (!f) {
        cli_problem(io, path, "cannot open: %s", strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (f != io->in)
            fclose(f);
        cli_problem(io, path, "cannot read: %s", strerror(EISDIR));
        return false;
    }
    s->f = f;
    return true;
}

bool input_stream_fill(struct input_stream *s)
{
    if (s->eof)
        return true;
    if (s->cap - s->len < s->chunk) {
        size_t want = s->len + s->chunk, cap = s->cap ? s->cap : 1;
        while (cap < want)
            cap = cap <= SIZE_MAX / 2 ? cap * 2 : want;
        char *bigger = realloc(s->buf, cap);
        if (!bigger) {
            cli_problem(s->io, s->path, "out of memory");
            return false;
        }
        s->buf = bigger;
        s->cap = cap;
    }
    errno = 0;
    size_t got = fread(s->buf + s->len, 1, s->chunk, s->f);
    if (got == 0) {
        if (ferror(s->f)) {
            cli_problem(s->io, s->path, "cannot read: %s", strerror(errno ? errno : EIO));
            return false;
        }
        s->eof = true;
        return true;
    }
    if (!s->newline_seen)
        s->newline_seen = memchr(s->buf + s->len, '\n', got) != NULL;
    if (s->head_n < sizeof s->head) {
        size_t k = sizeof s->head - s->head_n < got ? sizeof s->head - s->head_n : got;
        memcpy(s->head + s->head_n, s->buf + s->len, k);
        s->head_n += k;
    }
    s->len += got;
    s->bytes += (int64_t)got;
    if (!s->newline_seen && s->bytes >= STREAM_FIRST_LINE) {
        cli_problem(s->io, s->path, "no line break in its first %lld bytes: not a text log%s", (long long)STREAM_FIRST_LINE,
                    input_stream_binary_hint(s));
        return false;
    }
    return true;
}

bool input_stream_keep(struct input_stream *s, size_t cut, const char *prefix, size_t n)
{
    size_t rest = s->len - cut;
    if (n > cut) { /* the prefix is longer than what goes: room first */
        if (s->cap < n + rest) {
            char *bigger = realloc(s->buf, n + rest);
            if (!bigger) {
                cli_problem(s->io, s->path, "out of memory");
                return false;
            }
            s->buf = bigger;
            s->cap = n + rest;
        }
    }
    memmove(s->buf + n, s->buf + cut, rest);
    if (n)
        memcpy(s->buf, prefix, n);
    s->len = n + rest;
    return true;
}

void input_stream_close(struct input_stream *s)
{
    if (s->f && s->f != s->io->in)
        fclose(s->f);
    free(s->buf);
    s->buf = NULL;
    s->f = NULL;
}

size_t input_stream_last_line(const struct input_stream *s, size_t from, const char *hint,
                              bool (*is_boundary)(const char *line, size_t n, const char *prev, size_t prev_n))
{
    const char *b = s->buf;
    size_t end = s->len;
    while (end > from && b[end - 1] != '\n') /* complete lines only */
        end--;
    while (end > from) {
        size_t le = end - 1, ls = le; /* the line [ls, le], le its line break */
        while (ls > from && b[ls - 1] != '\n')
            ls--;
        if (ls > from && input_contains(b + ls, le - ls, hint)) {
            size_t ps = ls - 1;
            while (ps > from && b[ps - 1] != '\n')
                ps--;
            if (is_boundary(b + ls, le - ls + 1, b + ps, ls - 1 - ps))
                return ls;
        }
        end = ls;
    }
    return 0;
}

/* Whether line[0, n) reports an error: "error", "fatal" or "no such file" in any case (nvcc's "error:",
   "nvcc fatal", cc1plus's "fatal error: ...: No such file or directory", clang's "error:", make's "Error 1"). */
static bool reports_error(const char *p, size_t n)
{
    static const char *const words[] = {"error", "fatal", "no such file"};
    for (size_t i = 0; i < n; i++) {
        char c = (char)(p[i] | 0x20);
        if (c != 'e' && c != 'f' && c != 'n')
            continue;
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
            size_t k = strlen(words[w]), j = 0;
            while (j < k && i + j < n && (char)(p[i + j] | 0x20) == words[w][j])
                j++;
            if (j == k)
                return true;
        }
    }
    return false;
}

void input_quote(char *out, size_t cap, const char *p, size_t n, size_t max)
{
    size_t w = 0;
    bool cut = n > max;
    n = cut ? max : n;
    for (size_t i = 0; i < n && w + 5 < cap; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7f)
            out[w++] = (char)c;
        else
            w += (size_t)snprintf(out + w, cap - w, "\\x%02x", c);
    }
    if (cut && w + 4 < cap)
        memcpy(out + w, "...", 3), w += 3;
    out[w < cap ? w : cap - 1] = 0;
}

void input_stream_note_errors(struct input_stream *s, const char *p, size_t n, int64_t line)
{
    for (const char *end = p + n; !s->found && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t shown = len && p[len - 1] == '\r' ? len - 1 : len;
        if (reports_error(p, len)) {
            if (s->quoted < INPUT_ERROR_LINES) {
                input_quote(s->error_text[s->quoted], INPUT_ERROR_QUOTE, p, shown, INPUT_QUOTE_BYTES);
                s->error_line[s->quoted++] = line;
            }
            s->errors++;
        }
        p += len + 1;
    }
}

const char *input_stream_binary_hint(const struct input_stream *s)
{
    static const struct {
        const char *magic;
        size_t n;
        const char *hint;
    } kinds[] = {
        {"\x7f" "ELF", 4, "; it is an ELF file (a cubin, code object, zebin or host binary): gpuocc binary reads it"},
        {"\x50\xed\x55\xba", 4, "; it is a fatbinary: gpuocc binary reads it"},
        {"__CLANG_OFFLOAD_BUNDLE__", 24, "; it is an offload bundle: gpuocc binary reads it"},
        {"CCOB", 4, "; it is a compressed offload bundle: gpuocc binary reads it"},
        {"!<arch>\n", 8, "; it is an archive: gpuocc binary reads it"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (s->head_n >= kinds[i].n && memcmp(s->head, kinds[i].magic, kinds[i].n) == 0)
            return kinds[i].hint;
    return "";
}

void input_stream_no_record(struct input_stream *s, const char *expected)
{
    const char *binary = input_stream_binary_hint(s);
    if (s->errors == 0 || *binary) {
        cli_problem(s->io, s->path, "no kernel found (%s)%s", expected, binary);
        return;
    }
    cli_problem(s->io, s->path, "no kernel found (%s); the input reports %lld error line%s:", expected,
                (long long)s->errors, s->errors == 1 ? "" : "s");
    for (int i = 0; i < s->quoted; i++)
        cli_problem(s->io, s->path, "line %lld: %s", (long long)s->error_line[i], s->error_text[i]);
    if (s->errors > s->quoted)
        cli_problem(s->io, s->path, "... and %lld more", (long long)(s->errors - s->quoted));
}

/* The end of the line that starts at p (its line break included), or e when it has none. */
static const char *line_end(const char *p, const char *e)
{
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    return nl ? nl + 1 : e;
}

static bool opens_at(const char *p, size_t n, const char *hint, input_opens_fn *opens)
{
    return input_contains(p, n, hint) && opens(p, n);
}

bool input_stream_skip(struct input_stream *s, size_t from, const char *hint, input_opens_fn *opens, bool first,
                       int64_t line, int64_t *lines)
{
    const char *b = s->buf, *e = s->buf + s->len, *p = b + from;
    *lines = 0;
    if (first || s->mid_line) { /* the rest of a line being dropped */
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        s->mid_line = !nl && !s->eof;
        if (!nl) {
            s->len = from;
            return false;
        }
        p = nl + 1;
        ++*lines;
    }
    const char *kept = p; /* the first line not yet noted */
    bool found = false;
    while (p < e) {
        const char *end = line_end(p, e);
        if (end == e && e[-1] != '\n' && !s->eof)
            break; /* a partial line: whether it opens a record is known once it is whole */
        if (opens_at(p, (size_t)(end - p), hint, opens)) {
            found = true;
            break;
        }
        *lines += end[-1] == '\n';
        p = end;
    }
    input_stream_note_errors(s, kept, (size_t)(p - kept), line + (kept > b + from));
    size_t drop = (size_t)(p - (b + from));
    memmove(s->buf + from, p, (size_t)(e - p));
    s->len -= drop;
    if (!found && s->len - from >= s->max_window) { /* one line longer than the window: drop it as it comes */
        s->len = from;
        s->mid_line = true;
    }
    return found;
}

void input_locate(const char *text, size_t from, size_t n, int64_t line, const char *hint, input_opens_fn *opens,
                  struct input_span *sp)
{
    const char *e = text + n, *p = text;
    for (int64_t k = 1; k < line && p < e; k++)
        p = line_end(p, e);
    sp->line_start = (size_t)(p - text);
    sp->line_end = (size_t)(line_end(p, e) - text);
    sp->opener = SIZE_MAX;
    for (size_t at = sp->line_start, end = sp->line_end;;) { /* back from the line, to `from` */
        if (at < from)
            break;
        if (opens_at(text + at, end - at, hint, opens)) {
            sp->opener = at;
            break;
        }
        if (at == from || at == 0)
            break;
        end = at;
        at--;
        while (at > 0 && text[at - 1] != '\n')
            at--;
    }
    sp->next = n;
    for (const char *q = text + sp->line_end; q < e;) {
        const char *end = line_end(q, e);
        if (opens_at(q, (size_t)(end - q), hint, opens)) {
            sp->next = (size_t)(q - text);
            break;
        }
        q = end;
    }
}

bool input_parse_options(struct cli_io *io, int argc, char **argv, struct input_options *o, bool amd)
{
    *o = (struct input_options){.io = io};
    o->paths = calloc((size_t)argc + 1, sizeof *o->paths);
    if (!o->paths)
        return cli_fail(io, "memory", "out of memory"), false;
    cli_launch_init(&o->launch);
    o->max_entry_bytes = INPUT_MAX_ENTRY_BYTES;
    o->max_record_bytes = INPUT_MAX_RECORD;
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
    const char *v;
    for (; cli_more(&a); a.i++) {
        if (cli_launch_flag(&a, &o->launch) || (amd && (cli_amd_launch_flag(&a, &o->launch) || cli_intel_launch_flag(&a, &o->launch))))
            continue;
        if (amd && cli_flag(&a, "--max-entry-bytes", &v)) {
            o->max_entry_bytes = cli_size(io, "--max-entry-bytes", v);
            if (!io->status && o->max_entry_bytes < 1)
                cli_fail(io, "--max-entry-bytes", "expected at least 1 byte, got '%s'", v);
        } else if (!amd && cli_flag(&a, "--max-record-bytes", &v)) {
            o->max_record_bytes = cli_size(io, "--max-record-bytes", v);
            if (!io->status && (o->max_record_bytes < 1 || o->max_record_bytes > INPUT_MAX_RECORD_CEILING))
                cli_fail(io, "--max-record-bytes", "expected 1 to %lld bytes (1G), got '%s'",
                         (long long)INPUT_MAX_RECORD_CEILING, v);
        } else if (amd && cli_switch(&a, "--all-copies")) {
            o->all_copies = true;
        } else if (amd && cli_switch(&a, "--linked-only")) {
            o->all_copies = false;
        } else if (amd && cli_switch(&a, "--containers"))
            o->containers = true;
        else if (!amd && cli_flag(&a, "--max-threads", &v))
            o->max_threads = cli_int(io, "--max-threads", v, 1, INT32_MAX);
        else if (cli_switch(&a, "--best-block"))
            o->best = true;
        else if (cli_switch(&a, "--json"))
            o->json = true;
        else if (cli_switch(&a, "--csv"))
            o->csv = true;
        else if (argv[a.i][0] != '-' || !strcmp(argv[a.i], "-"))
            o->paths[o->npaths++] = argv[a.i];
        else
            cli_unknown(&a);
    }
    if (io->status || (amd && !cli_launch_check(io, &o->launch)))
        return false;
    o->bounds_unrecorded = !amd;
    if (!amd && !o->launch.have_threads && !o->best) /* a binary's kernels may record their bound: the default */
        return cli_fail(io, "--threads", "give --threads N or --best-block (a ptxas log records no launch bound to "
                        "take the block size from)"), false;
    if (o->max_threads && o->launch.have_threads && o->launch.k.threads_per_block > o->max_threads)
        return cli_fail(io, "--threads", "%d is more than --max-threads %d: a block larger than the kernel's launch "
                        "bound does not launch", o->launch.k.threads_per_block, o->max_threads), false;
    if (o->launch.have_threads && o->best)
        return cli_fail(io, "--best-block", "cannot be combined with --threads"), false;
    if (o->json && o->csv)
        return cli_fail(io, "--csv", "cannot be combined with --json"), false;
    return true;
}

const char *input_threads_from(const struct input_options *o, int64_t bound)
{
    return o->launch.have_threads ? "flag" : o->best ? "best_block" : bound > 0 ? "launch_bound" : NULL;
}

void input_bound_csv(FILE *out, const char *launch_bound, const char *threads_from)
{
    fprintf(out, "%s,%s,", launch_bound, threads_from ? threads_from : "");
}

void input_bound_json(FILE *out, bool *first, const char *launch_bound, const char *threads_from)
{
    json_key(out, first, "launch_bound");
    json_string(out, launch_bound);
    json_key(out, first, "threads_from");
    if (threads_from)
        json_string(out, threads_from);
    else
        fputs("null", out);
}

void input_no_threads(const struct input_options *o, const char *file, const char *name, size_t name_len)
{
    cli_problem(o->io, file, "%.*s: no launch bound read from the binary to take the block size from: give "
                "--threads N or --best-block", (int)(name_len < INT32_MAX ? name_len : INT32_MAX), name);
}

const char *input_vendor_word(const gpuocc_device *d)
{
    return cli_is_amd(d) ? "AMD" : cli_is_intel(d) ? "Intel" : "NVIDIA";
}

void input_cannot_run(const struct input_options *o, const char *file, const char *name, size_t name_len,
                      const char *built, const char *note)
{
    char arch[16];
    cli_arch_name(&o->launch.dev, arch, sizeof arch);
    cli_problem(o->io, file, "%.*s: built for %s, cannot run on %s (%s%s)", (int)(name_len < INT32_MAX ? name_len : INT32_MAX),
                name, built, o->launch.dev_name, arch, note);
}

/* One kernel's occupancy on its own target or on --arch. */
struct row {
    const char *name, *short_name; /* into the input: never copied, never cut */
    size_t name_len, short_len;
    char arch[16];
    const char *status;
    int32_t threads;               /* -1: none (no_threads) */
    int32_t bound;                 /* max_threads as printed: the record's (0 none), --max-threads, -1 unknown */
    int32_t min_blocks;            /* min_blocks as printed: -1 unknown (a ptxas log) */
    int32_t cluster[3];            /* cluster_x, _y, _z as printed: -1 unknown (a ptxas log) */
    const char *launch_bound, *threads_from; /* input_bound_csv's */
    int32_t linked; /* gpuocc binary: 1 linked, 0 relocatable */
    gpuocc_result r;
    bool min_checked;              /* the kernel records a minimum of blocks and the launch was answered */
    uint32_t min_preventing;       /* GPUOCC_LIMIT_* of the resources whose limit is below it */
    const char *cluster_verdict; /* the recorded __cluster_dims__ checked on the device; NULL without */
    const char *setmaxnreg_check; /* gpuocc binary, a kernel that uses setmaxnreg: "ok", "warpgroups", "arch" */
};

/* The target a kernel was compiled for, its variant included: sm_90, sm_90a, sm_100f. */
static void target_name(const gpuocc_compiled_kernel *k, char *out, size_t n)
{
    if (k->arch_variant == 'a' || k->arch_variant == 'f')
        snprintf(out, n, "sm_%d%c", k->cc, (char)k->arch_variant);
    else
        snprintf(out, n, "sm_%d", k->cc);
}

static void evaluate(const char *origin, const gpuocc_compiled_kernel *k, const struct input_options *o,
                     struct row *row)
{
    const struct cli_launch *l = &o->launch;
    row->name = origin + k->name_offset;
    row->name_len = k->name_length;
    row->short_name = origin + k->short_offset;
    row->short_len = k->short_length;
    gpuocc_device dev = l->dev;
    row->status = "ok";
    row->linked = o->record_linked;
    if (l->have_arch && dev.vendor != GPUOCC_VENDOR_NVIDIA) /* an NVIDIA kernel on an AMD --arch */
        row->status = "vendor";
    if (!l->have_arch) {
        char target[16];
        snprintf(target, sizeof target, "sm_%d", k->cc);
        dev.size = sizeof dev;
        if (gpuocc_device_lookup(target, &dev) != GPUOCC_OK)
            row->status = "unknown_device";
    }
    if (l->have_arch)
        cli_arch_name(&dev, row->arch, sizeof row->arch);
    else
        target_name(k, row->arch, sizeof row->arch);
    /* the compiler's figures, unless a launch flag overrides them ("what if"); the launch's own choices
       (dynamic shared memory, carveout, opt-in) from the flags */
    gpuocc_kernel kern = l->k;
    kern.regs_per_thread = l->have_regs ? l->k.regs_per_thread : k->registers;
    kern.barriers = l->have_barriers ? l->k.barriers : k->barriers < 0 ? 1 : k->barriers;
    kern.smem_static_bytes = l->have_smem_static ? l->k.smem_static_bytes : k->smem_bytes;
    /* the launch bound: --max-threads (gpuocc binary takes it in the launch, as report does, and it wins over a
       record, as on AMD), else a binary's record (0: none), else unknown (a ptxas log records none); without
       --threads or --best-block the block is the bound */
    int32_t flag = o->bounds_unrecorded ? o->max_threads : l->k.max_threads_per_block;
    row->bound = flag > 0 ? flag : !o->bounds_unrecorded ? k->max_threads_per_block : -1;
    row->min_blocks = o->bounds_unrecorded ? -1 : k->min_blocks_per_sm;
    const int32_t cluster[3] = {k->cluster_x, k->cluster_y, k->cluster_z};
    for (int i = 0; i < 3; i++)
        row->cluster[i] = o->bounds_unrecorded ? -1 : cluster[i];
    row->launch_bound = flag > 0                       ? "flag"
                        : o->bounds_unrecorded         ? "unknown"
                        : k->max_threads_per_block > 0 ? "recorded"
                                                       : "none";
    row->threads_from = input_threads_from(o, row->bound);
    kern.max_threads_per_block = row->bound > 0 ? row->bound : 0;
    kern.threads_per_block = l->have_threads ? l->k.threads_per_block : row->bound > 0 ? row->bound : 1;
    /* gpuocc binary: what the kernel records beyond its resources, and its launch's metadata (a Triton json):
       the virtual resources a block uses and the tensor memory it allocates count as report's
       --virtual-resources and --tmem-columns do (flags win); the json's block size is the launch's when
       neither --threads nor --best-block is given */
    const gpuocc_binary_kernel *rec = o->record;
    if (rec && dev.vendor == GPUOCC_VENDOR_NVIDIA) {
        if (!l->k.virtual_resources)
            kern.virtual_resources = rec->virtual_resources;
        if (!l->k.tmem_columns && rec->tmem_columns > 0)
            kern.tmem_columns = rec->tmem_columns;
        if (!l->have_threads && !o->best && rec->launch_threads > 0) {
            kern.threads_per_block = rec->launch_threads;
            row->threads_from = "metadata";
        }
        if (!l->smem_dynamic_flag && o->record_smem_dynamic >= 0)
            kern.smem_dynamic_bytes = o->record_smem_dynamic; /* what the Triton launcher passes */
    }
    if (!row->threads_from && !strcmp(row->status, "ok"))
        row->status = "no_threads";
    row->r = (gpuocc_result){.size = sizeof row->r};
    if (!strcmp(row->status, "ok") && o->best) {
        int32_t t = 0, grid;
        gpuocc_best_block_affine(&dev, &kern, kern.smem_dynamic_bytes, 0, &t, &grid);
        kern.threads_per_block = t ? t : 1;
    }
    row->threads = row->threads_from ? kern.threads_per_block : -1;
    /* the cluster the kernel records, checked on the device (the cubin does not say whether the launch sets
       the non-portable attribute: more than 8 blocks reads needs_nonportable) */
    row->cluster_verdict = NULL;
    if (k->cluster_x > 0 && dev.vendor == GPUOCC_VENDOR_NVIDIA && strcmp(row->status, "unknown_device")) {
        gpuocc_cluster c = {.size = sizeof c};
        gpuocc_cluster_init(&c);
        c.cluster_x = k->cluster_x;
        c.cluster_y = k->cluster_y > 0 ? k->cluster_y : 1;
        c.cluster_z = k->cluster_z > 0 ? k->cluster_z : 1;
        c.max_blocks_per_cluster = k->max_blocks_per_cluster > 0 ? k->max_blocks_per_cluster : 0;
        int32_t verdict;
        if (gpuocc_cluster_check(&dev, &c, &verdict) == GPUOCC_OK)
            row->cluster_verdict = cli_cluster_verdict_name(verdict);
    }
    if (!strcmp(row->status, "ok") && row->bound > 0 && row->threads > row->bound)
        row->status = "exceeds_launch_bounds"; /* the launch would fail */
    /* setmaxnreg reallocates registers warpgroup by warpgroup (128 threads, .sync.aligned), from cc 9.0: a
       block of part of a warpgroup, or a device before 9.0, cannot run what the kernel records (docs/inputs.md) */
    row->setmaxnreg_check = NULL;
    if (rec && rec->setmaxnreg && dev.vendor == GPUOCC_VENDOR_NVIDIA && strcmp(row->status, "unknown_device"))
        row->setmaxnreg_check = dev.cc_major < 9 ? "arch" : row->threads > 0 && row->threads % 128 ? "warpgroups" : "ok";
    row->min_checked = false;
    if (!strcmp(row->status, "ok")) {
        int32_t rc = gpuocc_occupancy(&dev, &kern, &row->r);
        if (rc != GPUOCC_OK)
            row->status = gpuocc_status_name(rc);
        int32_t blocks;
        /* launch bounds checked: whether this launch reaches the minimum the kernel's cap guarantees */
        if (rc == GPUOCC_OK && k->min_blocks_per_sm > 0 &&
            gpuocc_min_blocks_check(&dev, &kern, k->min_blocks_per_sm, &blocks, &row->min_preventing) == GPUOCC_OK)
            row->min_checked = true;
    }
}

/* A count the source may not record (-1): JSON null, -1 in CSV, "-" in the table. */
static void put_count(FILE *out, int64_t v, const char *unknown)
{
    if (v < 0)
        fputs(unknown, out);
    else
        fprintf(out, "%lld", (long long)v);
}

static bool answered(const struct row *row)
{
    return strcmp(row->status, "ok") == 0;
}

static const char *const amd_keys[INPUT_AMD_KEY_COUNT] = {INPUT_AMD_KEYS};
static const char *const intel_keys[INPUT_INTEL_KEY_COUNT] = {INPUT_INTEL_KEYS};
static const char *const record_keys[INPUT_RECORD_KEY_COUNT] = {INPUT_RECORD_KEYS};

/* NVIDIA's records are counts on NVIDIA rows and null elsewhere; the json's values null without one */
void input_record_json(FILE *out, bool *first, const gpuocc_binary_kernel *b, const char *check,
                       const struct input_options *o)
{
    bool nv = b->vendor == GPUOCC_VENDOR_NVIDIA;
    const char *metadata = o->record_metadata;
    const int64_t values[] = {nv ? b->virtual_resources : -1, nv ? b->tmem_cta_group : -1, nv ? b->setmaxnreg : -1};
    for (size_t i = 0; i < 3; i++) {
        json_key(out, first, record_keys[i]);
        put_count(out, values[i], "null");
    }
    json_key(out, first, record_keys[3]);
    if (check)
        json_string(out, check);
    else
        fputs("null", out);
    const int64_t launch[] = {b->launch_threads, b->tmem_columns, o->record_smem_dynamic};
    for (size_t i = 0; i < 3; i++) {
        json_key(out, first, record_keys[4 + i]);
        put_count(out, metadata ? launch[i] : -1, "null");
    }
    json_key(out, first, record_keys[7]);
    if (metadata)
        json_string(out, metadata);
    else
        fputs("null", out);
}

void input_record_csv(FILE *out, const gpuocc_binary_kernel *b, const char *check, const struct input_options *o)
{
    if (b->vendor == GPUOCC_VENDOR_NVIDIA)
        fprintf(out, "%d,%d,%d,", b->virtual_resources, b->tmem_cta_group, b->setmaxnreg);
    else
        fputs(",,,", out);
    fprintf(out, "%s,", check ? check : "");
    if (o->record_metadata) {
        fprintf(out, "%d,%d,%lld,", b->launch_threads, b->tmem_columns, (long long)o->record_smem_dynamic);
        csv_cell(out, o->record_metadata, strlen(o->record_metadata));
    } else
        fputs(",,,", out);
    fputc(',', out);
}

static void print_json(FILE *out, const char *file, const gpuocc_compiled_kernel *k, const struct row *row,
                       const struct input_options *o, bool o_amd)
{
    bool first_row = o->rows == 0;
    bool first = true;
    fprintf(out, "%s{", first_row ? "" : ",");
    json_key(out, &first, "file");
    json_string(out, file);
    json_key(out, &first, "name");
    json_string_n(out, row->name, row->name_len);
    json_key(out, &first, "short_name");
    json_string_n(out, row->short_name, row->short_len);
    json_key(out, &first, "arch");
    json_string(out, row->arch);
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
        {"max_threads", row->bound},
        {"min_blocks", row->min_blocks},
        {"cluster_x", row->cluster[0]},
        {"cluster_y", row->cluster[1]},
        {"cluster_z", row->cluster[2]},
        {"threads", row->threads},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        json_key(out, &first, counts[i].key);
        put_count(out, counts[i].value, "null");
    }
    json_key(out, &first, "status");
    json_string(out, row->status);
    if (answered(row)) {
        fprintf(out, ",\"blocks_per_sm\":%d,\"warps_per_sm\":%d,\"occupancy\":%.6f,\"limiters\":",
                row->r.blocks_per_sm, row->r.warps_per_sm, row->r.occupancy);
        json_limiters(out, row->r.limiters);
    } else
        fputs(",\"blocks_per_sm\":null,\"warps_per_sm\":null,\"occupancy\":null,\"limiters\":null", out);
    if (row->min_checked) {
        fprintf(out, ",\"min_blocks_reached\":%s,\"min_blocks_preventing\":", row->min_preventing ? "false" : "true");
        json_limiters(out, row->min_preventing);
    } else
        fputs(",\"min_blocks_reached\":null,\"min_blocks_preventing\":null", out);
    json_key(out, &first, "cluster_verdict");
    if (row->cluster_verdict)
        json_string(out, row->cluster_verdict);
    else
        fputs("null", out);
    for (size_t i = 0; o_amd && i < INPUT_AMD_KEY_COUNT; i++) { /* gpuocc binary: AMD's keys */
        json_key(out, &first, amd_keys[i]);
        if (i == INPUT_AMD_SMEM_STATIC)
            put_count(out, k->smem_bytes, "null");
        else
            fputs(i == 0 ? "\"nvidia\"" : "null", out);
    }
    for (size_t i = 0; o_amd && i < INPUT_INTEL_KEY_COUNT; i++) { /* and Intel's */
        json_key(out, &first, intel_keys[i]);
        fputs("null", out);
    }
    if (o_amd && o->record)
        input_record_json(out, &first, o->record, row->setmaxnreg_check, o);
    if (o_amd) { /* gpuocc binary: which copy */
        json_key(out, &first, "linked");
        fprintf(out, "%d", row->linked);
    }
    input_bound_json(out, &first, row->launch_bound, row->threads_from);
    fputc('}', out);
}

static void print_csv(FILE *out, const char *file, const gpuocc_compiled_kernel *k, const struct row *row,
                      const struct input_options *o, bool o_amd)
{
    csv_cell(out, row->name, row->name_len);
    fputc(',', out);
    csv_cell(out, row->short_name, row->short_len);
    fprintf(out, ",%s", row->arch);
    const int64_t counts[] = {k->registers, k->barriers, k->smem_bytes, k->cmem_bytes, k->stack_frame_bytes,
                              k->spill_store_bytes, k->spill_load_bytes, k->max_regs_per_thread,
                              row->bound, row->min_blocks, row->cluster[0], row->cluster[1], row->cluster[2],
                              row->threads};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        fputc(',', out);
        put_count(out, counts[i], "-1");
    }
    fprintf(out, ",%s", row->status);
    if (answered(row)) {
        char lim[96];
        cli_limiters(row->r.limiters, lim, sizeof lim);
        fprintf(out, ",%d,%d,%.6f,%s,", row->r.blocks_per_sm, row->r.warps_per_sm, row->r.occupancy, lim);
    } else
        fputs(",,,,,", out);
    if (row->min_checked) {
        char lim[96];
        cli_limiters(row->min_preventing, lim, sizeof lim);
        fprintf(out, "%s,%s,", row->min_preventing ? "false" : "true", lim);
    } else
        fputs(",,", out);
    for (size_t i = 0; o_amd && i < INPUT_AMD_KEY_COUNT; i++) { /* gpuocc binary: AMD's columns */
        if (i == INPUT_AMD_SMEM_STATIC)
            put_count(out, k->smem_bytes, "-1");
        fputs(i == 0 ? "nvidia," : ",", out);
    }
    for (size_t i = 0; o_amd && i < INPUT_INTEL_KEY_COUNT; i++)
        fputc(',', out);
    if (o_amd && o->record)
        input_record_csv(out, o->record, row->setmaxnreg_check, o);
    input_bound_csv(out, row->launch_bound, row->threads_from);
    if (o_amd)
        fprintf(out, "%d,", row->linked);
    fprintf(out, "%s,", row->cluster_verdict ? row->cluster_verdict : "");
    csv_cell(out, file, strlen(file));
    fputc('\n', out);
}

void input_table_answer(FILE *out, int32_t threads, const gpuocc_result *r, const char *words)
{
    char t[16] = "-";
    if (threads > 0)
        snprintf(t, sizeof t, "%d", threads);
    if (r)
        fprintf(out, "%7s %6d %8.1f%%  %s", t, r->blocks_per_sm, 100 * r->occupancy, words);
    else
        fprintf(out, "%7s %6s %9s  %s", t, "-", "-", words);
}

static void print_table_row(FILE *out, const gpuocc_compiled_kernel *k, const struct row *row)
{
    /* a table for the eye: the short name fits its column; --csv and --json carry whole names */
    fprintf(out, "%-36.*s %-7s %4d ", (int)(row->short_len < 36 ? row->short_len : 36), row->short_name, row->arch,
            k->registers);
    const int64_t counts[] = {k->barriers, k->smem_bytes, k->stack_frame_bytes, k->spill_store_bytes,
                              row->bound > 0 ? row->bound : -1};
    const int widths[] = {3, 7, 6, 6, 6};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        char cell[32] = "-";
        if (counts[i] >= 0)
            snprintf(cell, sizeof cell, "%lld", (long long)counts[i]);
        fprintf(out, "%*s ", widths[i], cell);
    }
    char lim[96];
    cli_limiters(row->r.limiters, lim, sizeof lim);
    input_table_answer(out, row->threads, answered(row) ? &row->r : NULL, answered(row) ? lim : row->status);
    /* a kernel that reallocates its registers, launched where setmaxnreg cannot run: said on its row */
    if (row->setmaxnreg_check && strcmp(row->setmaxnreg_check, "ok"))
        fprintf(out, " (setmaxnreg: %s)", row->setmaxnreg_check);
    fputc('\n', out);
}

/* The header (or "["), written before the first row so that a failed run prints nothing. */
static void begin(FILE *out, struct input_options *o)
{
    if (o->begun)
        return;
    o->begun = true;
    if (o->json)
        fprintf(out, "[");
    else if (o->csv) {
        fprintf(out, "name,short_name,arch,registers,barriers,smem,cmem,stack,spill_stores,spill_loads,max_regs,"
               "max_threads,min_blocks,cluster_x,cluster_y,cluster_z,threads,status,blocks_per_sm,warps_per_sm,"
               "occupancy,limiters,min_blocks_reached,min_blocks_preventing,");
        for (size_t i = 0; o->amd_columns && i < INPUT_AMD_KEY_COUNT; i++)
            fprintf(out, "%s,", amd_keys[i]);
        for (size_t i = 0; o->amd_columns && i < INPUT_INTEL_KEY_COUNT; i++)
            fprintf(out, "%s,", intel_keys[i]);
        for (size_t i = 0; o->amd_columns && i < INPUT_RECORD_KEY_COUNT; i++)
            fprintf(out, "%s,", record_keys[i]);
        fprintf(out, "launch_bound,threads_from,%scluster_verdict,file\n", o->amd_columns ? "linked," : "");
    }
    else
        fprintf(out, "%-36s %-7s %4s %3s %7s %6s %6s %6s %7s %6s %9s  %s\n", "kernel", "arch", "regs", "bar", "smem",
               "stack", "spill", "bound", "threads", "blk/SM", "occupancy", "limited by");
}

void input_begin(FILE *out, struct input_options *o)
{
    (void)out;
    o->rows = 0;
    o->begun = false;
}

void input_file(FILE *out, struct input_options *o, const char *file)
{
    begin(out, o);
    if (!o->json && !o->csv && (o->npaths > 1 || o->folder)) /* the table names each file before its rows */
        fprintf(out, "# %s\n", file);
}

void input_kernel(FILE *out, struct input_options *o, const char *file, const char *origin,
                  const gpuocc_compiled_kernel *k)
{
    struct row row;
    begin(out, o);
    evaluate(origin, k, o, &row);
    if (!strcmp(row.status, "no_threads"))
        input_no_threads(o, file, row.name, row.name_len);
    if (!strcmp(row.status, "vendor")) {
        char built[32], target[16];
        target_name(k, target, sizeof target);
        snprintf(built, sizeof built, "%s (NVIDIA)", target);
        char note[16];
        snprintf(note, sizeof note, ", %s", input_vendor_word(&o->launch.dev));
        input_cannot_run(o, file, row.name, row.name_len, built, note);
    }
    if (o->json)
        print_json(out, file, k, &row, o, o->amd_columns);
    else if (o->csv)
        print_csv(out, file, k, &row, o, o->amd_columns);
    else
        print_table_row(out, k, &row);
    o->rows++;
}

void input_end(FILE *out, struct input_options *o, bool any)
{
    if (any)
        begin(out, o);
    if (o->begun && o->json)
        fprintf(out, "]\n");
    free(o->paths);
    o->paths = NULL;
}

/* ---- gpuocc ptxas: a build log read window by window ----
   A window is cut before a line that opens a record ("Compiling entry function"), where no record is open
   (or, if one is, the whole log's reading rejects that record there too, with the same line), and not after a
   "Function properties for" line (whose next line the reader would take as that function's figures).
   Without such a line, at the last line break, if the part before it reads with no record open.  What a
   reader carries past a cut, the last "Function properties for" line and its figures (a record takes them
   when it has the same name), is replayed at the head of the next window.  So every window reads as it
   would inside the whole log, and the rows are the same.
   A record the library rejects (a figure that does not read, no "Used" line before the next record) is named
   on stderr and skipped with its lines, up to the next record; so is a "Function properties" line whose
   figures do not read, outside a record.  The log then reads on as if those lines were not there.  A record
   still open after --max-record-bytes is skipped the same way, the text up to the next record read and
   dropped as it comes. */

#define PTXAS_OPENER "Compiling entry function"

static bool ptxas_opens(const char *line, size_t n)
{
    int32_t count = 0, error_line = 0;
    int32_t rc = gpuocc_ptxas_parse(line, n, NULL, 0, &count, &error_line);
    return rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_PARSE; /* it opens a record */
}

static bool ptxas_boundary(const char *line, size_t n, const char *prev, size_t prev_n)
{
    return !input_contains(prev, prev_n, "Function properties for ") && ptxas_opens(line, n);
}

/* A line the reader takes as "Function properties for NAME". */
static bool ptxas_properties_line(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    return input_contains(p, n, "Function properties for ") && input_contains(p, n, "ptxas") &&
           !input_contains(p, n, "Compiling entry function") && !(i < n && p[i] >= '0' && p[i] <= '9');
}

/* The replay for the next window: the last properties line of buf[from, cut) and its figures' line (an
   empty line where the next line gave none); false when there is none there (the old replay stands). */
static bool ptxas_replay(const char *b, size_t from, size_t cut, char **replay, size_t *replay_len, int *replay_lines)
{
    for (size_t end = cut; end > from;) {
        size_t le = end - 1, ls = le;
        while (ls > from && b[ls - 1] != '\n')
            ls--;
        if (ptxas_properties_line(b + ls, le - ls)) {
            size_t ns = le + 1, ne = ns; /* the next line [ns, ne]: before the cut (a cut never follows one) */
            while (ne < cut && b[ne] != '\n')
                ne++;
            bool figures = ne < cut && input_contains(b + ns, ne - ns, "bytes stack frame");
            size_t n = le - ls + 1 + (figures ? ne - ns + 1 : 1);
            char *r = realloc(*replay, n);
            if (!r)
                return false;
            memcpy(r, b + ls, le - ls + 1);
            if (figures)
                memcpy(r + (le - ls + 1), b + ns, ne - ns + 1);
            else
                r[n - 1] = '\n';
            *replay = r;
            *replay_len = n;
            *replay_lines = 2;
            return true;
        }
        end = ls;
    }
    return true;
}

enum { WINDOW_DONE, WINDOW_MORE, WINDOW_FAILED };

struct ptxas_log {
    struct cli_io *io;
    struct input_options *o;
    struct input_stream *s;
    const char *path;
    gpuocc_compiled_kernel *ks;
    int32_t ks_cap;
    int64_t kernels;
    int64_t base;      /* line k of the text read is the file's line base + k (the replay's lines counted) */
    char *replay;      /* what the next text read starts with (ptxas_replay) */
    size_t replay_len;
    int replay_lines;
};

/* The rows of text[0, n), which reads without error (`count` records; -1: not counted yet). */
static bool ptxas_rows(struct ptxas_log *g, const char *text, size_t n, int32_t count)
{
    int32_t line = 0;
    int32_t rc = count < 0 ? gpuocc_ptxas_parse(text, n, NULL, 0, &count, &line) : GPUOCC_OK;
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        cli_problem(g->io, g->path, "line %lld: %s", (long long)(g->base + line), gpuocc_strerror(rc));
        return false;
    }
    if (count == 0)
        return true;
    if (count > g->ks_cap) {
        gpuocc_compiled_kernel *bigger = realloc(g->ks, (size_t)count * sizeof *bigger);
        if (!bigger) {
            cli_problem(g->io, g->path, "out of memory");
            return false;
        }
        g->ks = bigger;
        g->ks_cap = count;
    }
    gpuocc_ptxas_parse(text, n, g->ks, count, &count, &line);
    if (g->kernels == 0)
        input_file(g->io->out, g->o, g->path);
    g->s->found = true;
    for (int32_t i = 0; i < count && !cli_output_failed(g->io); i++)
        input_kernel(g->io->out, g->o, g->path, text, &g->ks[i]);
    g->kernels += count;
    return true;
}

/* "kernel 'NAME'" from a record's opening line ("Compiling entry function 'NAME' for 'sm_90'"). */
static void ptxas_kernel_name(const char *line, size_t n, char *out, size_t cap)
{
    const char *open = memchr(line, '\'', n);
    const char *close = open ? memchr(open + 1, '\'', (size_t)(line + n - open - 1)) : NULL;
    char name[96];
    if (!close || close == open + 1) {
        snprintf(out, cap, "a kernel without a name");
        return;
    }
    input_quote(name, sizeof name, open + 1, (size_t)(close - open - 1), 64);
    snprintf(out, cap, "kernel '%s'", name);
}

/* Which item of a "Used ..." line, tail[0, n) after "Used ", the reader rejects: the first whose line, cut
   after it, no longer reads in a record of its own; its unit names it. */
static void ptxas_used_fault(const char *tail, size_t n, char *out, size_t cap)
{
    static const char head[] = "ptxas info : Compiling entry function 'k' for 'sm_90'\nptxas info : Used ";
    static const char *const units[] = {"registers", "barriers", "smem", "cmem", "lmem", "stack"};
    char test[sizeof head + 512], quoted[INPUT_ERROR_QUOTE];
    for (size_t i = 0; n <= 512 && i <= n;) { /* i: where an item starts */
        size_t comma = i;
        while (comma < n && tail[comma] != ',')
            comma++;
        memcpy(test, head, sizeof head - 1);
        memcpy(test + sizeof head - 1, tail, comma);
        int32_t count = 0, line = 0; /* one record, no room for it: GPUOCC_ERR_BUFFER when the text reads */
        if (gpuocc_ptxas_parse(test, sizeof head - 1 + comma, NULL, 0, &count, &line) != GPUOCC_ERR_BUFFER) {
            const char *unit = NULL;
            for (size_t u = 0; !unit && u < sizeof units / sizeof units[0]; u++)
                unit = input_contains(tail + i, comma - i, units[u]) ? units[u] : NULL;
            while (i < comma && tail[i] == ' ')
                i++;
            input_quote(quoted, sizeof quoted, tail + i, comma - i, INPUT_QUOTE_BYTES);
            if (unit)
                snprintf(out, cap, "%s: cannot read \"%s\"", unit, quoted);
            else
                snprintf(out, cap, "the \"Used\" line's item \"%s\" is not one gpuocc reads", quoted);
            return;
        }
        i = comma + 1;
    }
    input_quote(quoted, sizeof quoted, tail, n, INPUT_QUOTE_BYTES);
    snprintf(out, cap, "its \"Used\" line does not read: \"%s\"", quoted);
}

/* Names on stderr what text[from, to) lost: the record (or the "Function properties" line) at the line the
   library rejected with `rc`. */
static void ptxas_skipped(struct ptxas_log *g, const char *text, const struct input_span *sp, size_t from,
                          bool record, int32_t rc, int64_t line, bool at_end)
{
    const char *l = text + sp->line_start;
    size_t n = sp->line_end - sp->line_start;
    while (n && (l[n - 1] == '\n' || l[n - 1] == '\r'))
        n--;
    char who[INPUT_ERROR_QUOTE + 16], what[INPUT_ERROR_QUOTE + 96], quoted[INPUT_ERROR_QUOTE];
    if (record) {
        const char *nl = memchr(text + from, '\n', sp->line_end - from);
        ptxas_kernel_name(text + from, nl ? (size_t)(nl - (text + from)) : sp->line_end - from, who, sizeof who);
    } else
        snprintf(who, sizeof who, "a \"Function properties\" line");
    const char *used = NULL;
    for (size_t i = 0; i + 5 <= n && !used; i++)
        used = memcmp(l + i, "Used ", 5) == 0 ? l + i : NULL;
    if (rc == GPUOCC_ERR_TRUNCATED)
        snprintf(what, sizeof what, "no \"Used\" line before %s", at_end ? "the end of the input" : "the next kernel");
    else if (input_contains(l, n, PTXAS_OPENER))
        snprintf(what, sizeof what, "no kernel name in quotes");
    else if (used && !input_contains(l, n, "bytes stack frame"))
        ptxas_used_fault(used + 5, (size_t)(l + n - used - 5), what, sizeof what);
    else {
        input_quote(quoted, sizeof quoted, l, n, INPUT_QUOTE_BYTES);
        snprintf(what, sizeof what, "stack frame and spills: cannot read \"%s\"", quoted);
    }
    cli_problem(g->io, g->path, "line %lld: %s skipped: %s", (long long)(g->base + line), who, what);
}

/* Reads on from buf[at] (all before it read): the replay is written over the end of what was read, or, where
   that is shorter, put in front of the window, which moves (*cut with it).  Where the text read next (replay
   first) begins, or SIZE_MAX without memory. */
static size_t ptxas_resume(struct ptxas_log *g, size_t at, size_t *cut)
{
    struct input_stream *s = g->s;
    if (at >= g->replay_len) {
        if (g->replay_len)
            memcpy(s->buf + at - g->replay_len, g->replay, g->replay_len);
        return at - g->replay_len;
    }
    if (!input_stream_keep(s, at, g->replay, g->replay_len))
        return SIZE_MAX;
    *cut = *cut - at + g->replay_len;
    return 0;
}

/* The text before buf[start + to] is read: the next replay from its part from buf[start + until] back,
   and the file's line of the text read next. */
static bool ptxas_advance(struct ptxas_log *g, size_t start, size_t until, size_t to)
{
    const char *b = g->s->buf;
    if (!ptxas_replay(b, start + g->replay_len, start + until, &g->replay, &g->replay_len, &g->replay_lines)) {
        cli_problem(g->io, g->path, "out of memory");
        return false;
    }
    g->base += input_count_lines(b + start, to) - g->replay_lines;
    return true;
}

/* Reads buf[0, cut), the replay at its head: the rows of its records, each record the library rejects named
   and skipped; then drops it, the next replay in front of what follows.  WINDOW_MORE (with `open_ok`) when the
   last record is still open at the cut: the window then starts with it, behind the replay.  `at_end`: the cut
   is the end of the input. */
static int ptxas_window(struct ptxas_log *g, size_t cut, bool open_ok, bool at_end)
{
    struct input_stream *s = g->s;
    size_t start = 0; /* the text read is buf[start, cut) */
    int32_t count = 0;
    for (;;) {
        const char *text = s->buf ? s->buf + start : "";
        size_t n = cut - start;
        int32_t line = 0;
        int32_t rc = gpuocc_ptxas_parse(text, n, NULL, 0, &count, &line);
        if (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER)
            break;
        if (rc != GPUOCC_ERR_PARSE && rc != GPUOCC_ERR_TRUNCATED) {
            cli_problem(g->io, g->path, "line %lld: %s", (long long)(g->base + line), gpuocc_strerror(rc));
            return WINDOW_FAILED;
        }
        /* what the rejected line belongs to: the record open there (from its opening line to the next one),
           else the line, with the "Function properties" line before it whose figures it holds */
        struct input_span sp;
        input_locate(text, g->replay_len, n, line, PTXAS_OPENER, ptxas_opens, &sp);
        int32_t c = 0, l = 0;
        bool record = sp.opener != SIZE_MAX &&
                      (sp.opener == sp.line_start ||
                       gpuocc_ptxas_parse(text + sp.opener, sp.line_start - sp.opener, NULL, 0, &c, &l) == GPUOCC_ERR_TRUNCATED);
        size_t from = record ? sp.opener : sp.line_start, to = record ? sp.next : sp.line_end;
        if (!record && from > g->replay_len) {
            size_t prev = from - 1;
            while (prev > g->replay_len && text[prev - 1] != '\n')
                prev--;
            if (ptxas_properties_line(text + prev, from - 1 - prev))
                from = prev;
        }
        if (!ptxas_rows(g, text, from, -1))
            return WINDOW_FAILED;
        if (!s->found)
            input_stream_note_errors(s, text + g->replay_len, from - g->replay_len, g->base + g->replay_lines + 1);
        if (rc == GPUOCC_ERR_TRUNCATED && sp.next == n && open_ok) { /* more text may close it */
            if (!ptxas_advance(g, start, from, from) || (start = ptxas_resume(g, start + from, &cut)) == SIZE_MAX ||
                !input_stream_keep(s, start, NULL, 0))
                return WINDOW_FAILED;
            return WINDOW_MORE;
        }
        ptxas_skipped(g, text, &sp, from, record, rc, line, at_end && sp.next == n);
        if (!s->found)
            input_stream_note_errors(s, text + from, to - from, g->base + input_count_lines(text, from) + 1);
        if (!ptxas_advance(g, start, from, to) || (start = ptxas_resume(g, start + to, &cut)) == SIZE_MAX)
            return WINDOW_FAILED;
    }
    const char *text = s->buf ? s->buf + start : "";
    size_t n = cut - start;
    if (!ptxas_rows(g, text, n, count))
        return WINDOW_FAILED;
    if (!s->found)
        input_stream_note_errors(s, text + g->replay_len, n - g->replay_len, g->base + g->replay_lines + 1);
    if (at_end)
        return WINDOW_DONE;
    if (!ptxas_advance(g, start, n, n) || !input_stream_keep(s, cut, g->replay, g->replay_len))
        return WINDOW_FAILED;
    return WINDOW_DONE;
}

/* The window has grown past --max-record-bytes without a record's end: names what is dropped (the record
   whose line starts the text, after the replay) and starts dropping it. */
static void ptxas_overlong(struct ptxas_log *g, bool *skipping)
{
    struct input_stream *s = g->s;
    const char *line = s->buf + g->replay_len, *e = s->buf + s->len;
    const char *nl = memchr(line, '\n', (size_t)(e - line));
    size_t n = (size_t)((nl ? nl : e) - line);
    char who[128];
    if (ptxas_opens(line, n))
        ptxas_kernel_name(line, n, who, sizeof who);
    else
        snprintf(who, sizeof who, "a line");
    cli_problem(g->io, g->path, "line %lld: %s skipped: more than %zu bytes before its end (--max-record-bytes raises "
                "the limit); read on at the next kernel", (long long)(g->base + g->replay_lines + 1), who,
                s->max_window);
    int64_t lines;
    *skipping = !input_stream_skip(s, g->replay_len, PTXAS_OPENER, ptxas_opens, true,
                                   g->base + g->replay_lines + 1, &lines);
    g->base += lines;
}

/* One build log: its kernels, each record it cannot read named (status 1); false when it gave none (then
   the problem, and the log's own error lines, named). */
static bool ptxas_file(struct cli_io *io, struct input_options *o, const char *path)
{
    struct input_stream s;
    if (!input_stream_open(io, path, (size_t)o->max_record_bytes, &s))
        return false;
    struct ptxas_log g = {io, o, &s, path, NULL, 0, 0, 0, NULL, 0, 0};
    bool failed = false, skipping = false; /* skipping: dropping text up to the next record */
    while (!failed && !cli_output_failed(io)) {
        if (!input_stream_fill(&s)) {
            failed = true;
            break;
        }
        if (skipping) {
            int64_t lines;
            skipping = !input_stream_skip(&s, g.replay_len, PTXAS_OPENER, ptxas_opens, false,
                                          g.base + g.replay_lines + 1, &lines);
            g.base += lines;
            if (skipping) {
                if (s.eof)
                    break;
                continue;
            }
        }
        if (s.eof) {
            failed = ptxas_window(&g, s.len, false, true) == WINDOW_FAILED;
            break;
        }
        size_t cut = input_stream_last_line(&s, g.replay_len, PTXAS_OPENER, ptxas_boundary);
        bool fallback = cut == 0;
        if (fallback) { /* the last line break, before any "Function properties for" lines that end the text */
            cut = s.len;
            while (cut > g.replay_len && s.buf[cut - 1] != '\n')
                cut--;
            while (cut > g.replay_len) {
                size_t ls = cut - 1;
                while (ls > g.replay_len && s.buf[ls - 1] != '\n')
                    ls--;
                if (!input_contains(s.buf + ls, cut - 1 - ls, "Function properties for "))
                    break;
                cut = ls;
            }
        }
        /* no line ends here yet, or the record at the cut is still open: read on, unless the window is full */
        int w = cut > g.replay_len ? ptxas_window(&g, cut, fallback, false) : WINDOW_MORE;
        failed = w == WINDOW_FAILED;
        if (w == WINDOW_MORE && s.len >= s.max_window)
            ptxas_overlong(&g, &skipping);
    }
    if (!failed && g.kernels == 0 && !cli_output_failed(io))
        input_stream_no_record(&s, "expected ptxas -v output: \"ptxas info : Compiling entry function\"");
    free(g.replay);
    free(g.ks);
    input_stream_close(&s);
    return g.kernels > 0;
}

static int cmd_ptxas(struct cli_io *io, int argc, char **argv)
{
    struct input_options o;
    if (!input_parse_options(io, argc, argv, &o, false)) {
        free(o.paths);
        return io->status;
    }
    if (o.npaths == 0)
        o.paths[o.npaths++] = "-";
    bool any = false;
    input_begin(io->out, &o);
    for (int i = 0; i < o.npaths && !cli_output_failed(io); i++)
        any |= ptxas_file(io, &o, o.paths[i]);
    input_end(io->out, &o, any);
    if (!any) /* nothing could be read at all */
        io->status = io->status > CLI_USAGE ? io->status : CLI_USAGE;
    return io->status;
}

const struct cli_option input_options[] = {
    CLI_LAUNCH_OPTIONS,
    {"--best-block", NULL, "evaluate every kernel at its best block size (within --max-threads: a log does not "
                           "record the launch bounds)"},
    {"--max-threads", "N", "the kernels' __launch_bounds__ maximum, which a ptxas log does not record (default: "
                           "unknown, launch_bound says so): --best-block stays within it, a larger --threads is refused"},
    {"--json", NULL, "a JSON array of objects instead of the table"},
    {"--csv", NULL, "CSV with a header instead of the table"},
    {"--max-record-bytes", "BYTES", "the most text kept between two records (default 64M, at most 1G); the log is "
                                    "read in windows, never whole"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_ptxas = {
    "ptxas", cmd_ptxas, "every kernel of ptxas -v reports or build logs, with its occupancy",
    "[FILE...|-] (--threads N | --best-block) [--max-threads N] [--arch NAME] [--json|--csv]", input_options,
    "nvcc -Xptxas -v -c k.cu 2>&1 | gpuocc ptxas --threads 256\n"
    "gpuocc ptxas build.log other.log --best-block --csv\n"
    "gpuocc ptxas build.log --best-block --max-threads 256   # kernels built with __launch_bounds__(256)\n"};
