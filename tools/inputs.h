/* What gpuocc ptxas (tools/cmd_inputs.c) and gpuocc binary (tools/cmd_binary.c) share: their options, and
   the rows they print, one per kernel, each naming its file. */
#ifndef GPUOCC_INPUTS_H
#define GPUOCC_INPUTS_H

#include "cli.h"

struct input_options {
    struct cli_io *io;  /* where a row's problem is said (a kernel that cannot run on --arch) */
    const char **paths; /* the files named, in order (allocated; input_end frees it) */
    int npaths;
    struct cli_launch launch; /* --arch (looked up before any input is read) and the other launch flags */
    bool best, json, csv;
    bool bounds_unrecorded;  /* gpuocc ptxas: a log records no launch bound (max_threads, min_blocks unknown) */
    int32_t max_threads;     /* gpuocc ptxas --max-threads: the kernels' launch bound, given (0: not given) */
    int64_t rows;
    bool begun; /* the header is out */
    bool amd_columns; /* gpuocc binary: the AMD columns too (INPUT_AMD_KEYS), empty or null in NVIDIA rows */
    int64_t max_entry_bytes; /* gpuocc binary: the ceiling on one entry's claimed decompressed size */
    bool containers;         /* gpuocc binary --containers: say on stderr where device code was found */
    int64_t max_record_bytes; /* gpuocc ptxas: the longest span between two records kept in memory */
    bool all_copies;         /* gpuocc binary --all-copies: relocatable copies too where linked ones exist */
    int32_t record_linked;   /* gpuocc binary: the row's `linked` (1, 0), set before each row */
    /* gpuocc binary: the row's whole record (its Blackwell records, and what a Triton json gave it: the
       launch's block size, tensor memory, cluster, register cap) and that json's path (NULL: none), set before
       each row; NULL for gpuocc ptxas */
    const gpuocc_binary_kernel *record;
    const char *record_metadata;
    int64_t record_smem_dynamic; /* the json's `shared`: the launch's dynamic shared memory (-1: no json) */
    bool folder; /* gpuocc binary DIR: files come from a folder walk (the table names each file) */
};

/* gpuocc binary's AMD columns, after the shared ones (before `file` in CSV); NVIDIA rows say "nvidia" for
   the vendor, give their static shared memory as smem_static, and leave the others empty (CSV) or null
   (JSON).  Names as report's where report has the field (smem_static, cu_mode). */
#define INPUT_AMD_KEYS "vendor", "target", "vgprs", "agprs", "sgprs", "smem_static", "scratch", "wave_size", \
    "vgpr_spills", "sgpr_spills", "dynamic_stack", "cu_mode", "model", "waves_per_simd"
#define INPUT_AMD_SMEM_STATIC 5 /* the index of smem_static, which NVIDIA rows fill too */
#define INPUT_AMD_KEY_COUNT 14
/* gpuocc binary's Intel columns, after the AMD ones (tools/binary_intel.c); empty (CSV) or null (JSON) in
   NVIDIA and AMD rows.  sub_group, grf and slm as report names them. */
#define INPUT_INTEL_KEYS "sub_group", "grf", "slm", "scratch_per_thread", "private", "private_per_work_item", \
    "spill", "product_family"
#define INPUT_INTEL_KEY_COUNT 8
/* gpuocc binary's columns of a kernel's records beyond its resources and of its launch's metadata (a Triton
   json), after the Intel ones (input_record_json, input_record_csv): NVIDIA's records null (JSON) or empty
   (CSV) on AMD and Intel rows; launch_threads, tmem_columns and metadata null or empty without a json. */
#define INPUT_RECORD_KEYS "virtual_resources", "tmem_cta_group", "setmaxnreg", "setmaxnreg_check", \
    "launch_threads", "tmem_columns", "smem_dynamic", "metadata"
#define INPUT_RECORD_KEY_COUNT 8
/* gpuocc binary: the default ceiling on what one entry may claim decompressed (--max-entry-bytes) */
#define INPUT_MAX_ENTRY_BYTES ((int64_t)1 << 30)

extern const struct cli_option input_options[];

/* Parse the shared flags and the file names (with `amd`, AMD's launch flags too: gpuocc binary); false
   after a usage error. */
bool input_parse_options(struct cli_io *io, int argc, char **argv, struct input_options *o, bool amd);
/* The whole of a file or stdin; NULL after a usage error naming the file and the system's reason. */
char *input_slurp(struct cli_io *io, const char *path, size_t *length);
/* The same for one of several input files: one that cannot be read is a problem of that file, not a usage
   error (NULL after naming it; the status becomes at least CLI_PARTIAL and the other files are still read). */
char *input_slurp_file(struct cli_io *io, const char *path, size_t *length);
/* The same on a descriptor of `path` already open (fd >= 0: read, then closed here; -1: `path` is opened). */
char *input_slurp_file_fd(struct cli_io *io, const char *path, int fd, size_t *length);
/* A text read in windows (gpuocc ptxas, gpuocc remarks): memory stays near the window whatever the input's
   size.  The window holds buf[0, len); the reader cuts it at a record boundary, parses and prints the part
   before the cut, and keeps the rest (after a prefix the format may need replayed) for the next window.  A
   record the library rejects is named and skipped (input_locate finds its lines); a window that grows past
   its ceiling without a record's end is dropped up to the next record (input_stream_skip).  Until the first
   record is read, the lines that report a compiler's error are kept to quote if none ever is. */
#define INPUT_ERROR_LINES 5   /* error lines quoted when no record is found */
#define INPUT_QUOTE_BYTES 120 /* the bytes of a line or a field quoted in a message... */
#define INPUT_ERROR_QUOTE 200 /* ...and its room, escapes included (input_quote) */
struct input_stream {
    struct cli_io *io;
    const char *path;
    FILE *f;
    char *buf;
    size_t len, cap;
    size_t chunk;      /* bytes read at once (1 MiB; test only: GPUOCC_TEST_CHUNK_BYTES) */
    size_t max_window; /* the longest span between two record boundaries kept (--max-record-bytes) */
    bool eof, newline_seen;
    bool mid_line;     /* input_stream_skip dropped the start of a line longer than the window */
    int64_t bytes;     /* bytes read so far */
    unsigned char head[24]; /* the input's first bytes (a binary's magic), head_n of them */
    size_t head_n;
    bool found;        /* a record has been read: error lines are no longer looked for */
    int64_t errors;    /* lines holding "error", "fatal" or "no such file" (any case) before it */
    int quoted;        /* the first INPUT_ERROR_LINES of them, with their lines */
    int64_t error_line[INPUT_ERROR_LINES];
    char error_text[INPUT_ERROR_LINES][INPUT_ERROR_QUOTE];
};
/* The default of --max-record-bytes for ptxas and remarks, and the most it may be raised to. */
#define INPUT_MAX_RECORD ((int64_t)64 << 20)
#define INPUT_MAX_RECORD_CEILING ((int64_t)1 << 30)
/* Opens a file (or stdin for "-"); false after naming the file (a problem: status at least CLI_PARTIAL). */
bool input_stream_open(struct cli_io *io, const char *path, size_t max_window, struct input_stream *s);
/* Reads up to one chunk more onto the window; false after naming the file (a read error, or no line break in
   the first MiB: not a text log). */
bool input_stream_fill(struct input_stream *s);
/* Drops buf[0, cut) and puts `prefix` (n bytes) before what remains. */
bool input_stream_keep(struct input_stream *s, size_t cut, const char *prefix, size_t n);
void input_stream_close(struct input_stream *s);
/* The start of the last complete line of buf[from, len) that `is_boundary` accepts, or 0 when none (a line
   at `from` is not a cut).  `hint` is a phrase every such line contains (a cheap filter). */
size_t input_stream_last_line(const struct input_stream *s, size_t from, const char *hint,
                              bool (*is_boundary)(const char *line, size_t n, const char *prev, size_t prev_n));
/* Whether line[0, n) opens a record (a line holding `hint` that the format's reader takes as a record's first). */
typedef bool input_opens_fn(const char *line, size_t n);
/* After a window grew past its ceiling: drops buf[from, ...) up to the next line that `opens` accepts (true:
   the window then holds it at `from`), or else every complete line (false: call again after the next fill; at
   the end of the input, everything).  With `first`, the line at `from` goes whatever it is (the over-long
   record's own).  *lines counts the line breaks dropped; the dropped lines' errors are noted. */
bool input_stream_skip(struct input_stream *s, size_t from, const char *hint, input_opens_fn *opens, bool first,
                       int64_t line, int64_t *lines);
/* Notes the error lines of p[0, n) (complete lines, the first of them line `line` of the file) while no
   record has been read; input_stream_no_record quotes them. */
void input_stream_note_errors(struct input_stream *s, const char *p, size_t n, int64_t line);
/* "; it is a fatbinary: gpuocc binary reads it" when the input starts with a binary's magic, else "". */
const char *input_stream_binary_hint(const struct input_stream *s);
/* "no kernel found (EXPECTED)" for the file, and the error lines noted, each on its own line (a binary: which
   command reads it instead). */
void input_stream_no_record(struct input_stream *s, const char *expected);
/* Where the record that line `line` (1-based) of text[0, n) belongs to lies: that line [line_start, line_end)
   (its line break included), the start of the last line at or before it that opens a record (`opener`,
   SIZE_MAX if none in text[from, ...)), and the start of the first after it (`next`; n when there is none). */
struct input_span {
    size_t line_start, line_end, opener, next;
};
void input_locate(const char *text, size_t from, size_t n, int64_t line, const char *hint, input_opens_fn *opens,
                  struct input_span *sp);
/* p[0, n) for a message: at most `max` bytes, a byte that is not printable ASCII as \xHH, "..." when cut. */
void input_quote(char *out, size_t cap, const char *p, size_t n, size_t max);
/* Whether s[0, n) contains `needle` (a C string). */
bool input_contains(const char *s, size_t n, const char *needle);
/* The line breaks in p[0, n). */
int64_t input_count_lines(const char *p, size_t n);

/* Output: the header (or "["), a note before each file's rows, one row per kernel (names at origin +
   offset), the end (or "]"). */
void input_begin(FILE *out, struct input_options *o);
void input_file(FILE *out, struct input_options *o, const char *file);
void input_kernel(FILE *out, struct input_options *o, const char *file, const char *origin,
                  const gpuocc_compiled_kernel *k);
/* gpuocc binary's rows of AMD and Intel kernels (tools/binary_rows.c, which tools/cmd_binary.c and
   tools/binary_intel.c both use): a count or its `unknown` text when negative; a shared column (value
   INT64_MIN: not applicable, -1: not recorded); the first cells of a row (CSV, through the NVIDIA-only
   min_blocks cells) and the first keys of its JSON object, as both vendors print them (r NULL: not
   answered). */
void binary_put_int(FILE *out, int64_t v, const char *unknown);
struct binary_count {
    const char *key;
    int64_t value;
};
void binary_csv_head(FILE *out, const gpuocc_binary_kernel *b, const char *origin, const char *arch,
                     const struct binary_count *shared, size_t n_shared, const char *status, const gpuocc_result *r);
void binary_json_head(FILE *out, bool *first, const struct input_options *o, const char *file,
                      const gpuocc_binary_kernel *b, const char *origin, const char *arch,
                      const struct binary_count *shared, size_t n_shared, const char *status, const gpuocc_result *r);
/* The first columns of gpuocc binary's table row for an AMD or Intel kernel: name, arch, the registers
   column and five counts (regs, bar, smem, stack, spill or bound; -1 prints "-"). */
void binary_table_head(FILE *out, const gpuocc_binary_kernel *b, const char *short_name, const char *arch,
                       int64_t regs, const int64_t cells[5]);
/* A kernel the --arch device cannot run (its row's status `vendor` or `wave_size`): one stderr line naming the
   file and the kernel, "NAME: built for BUILT, cannot run on DEVICE (ARCH, VENDOR-NOTE)", and exit 1.
   `note`: after the device's architecture (", NVIDIA", ": wave64 only"). */
void input_cannot_run(const struct input_options *o, const char *file, const char *name, size_t name_len,
                      const char *built, const char *note);
/* The vendor's name as a person writes it ("NVIDIA", "AMD", "Intel"). */
const char *input_vendor_word(const gpuocc_device *d);
/* The launch-bound fields of every row, last in JSON; in CSV after the vendors' columns, before linked (binary)
   and cluster_verdict:
   `launch_bound` (where max_threads comes from: "recorded", "flag", "none", "unknown") and `threads_from` (where
   the block size comes from: "flag", "best_block", "launch_bound"; NULL when there is none, status no_threads).
   input_threads_from answers the second for a kernel whose bound is `bound` (0 or less: none known). */
const char *input_threads_from(const struct input_options *o, int64_t bound);
void input_bound_csv(FILE *out, const char *launch_bound, const char *threads_from);
void input_bound_json(FILE *out, bool *first, const char *launch_bound, const char *threads_from);
/* A kernel without --threads or --best-block whose bound is not known (status no_threads): one stderr line. */
void input_no_threads(const struct input_options *o, const char *file, const char *name, size_t name_len);
/* The table's last columns: threads, blocks per SM, occupancy and the limiters' words; "-" for the blocks and
   the occupancy of a row not answered (r NULL: `words` is its status), never a 0 that reads as an answer. */
void input_table_answer(FILE *out, int32_t threads, const gpuocc_result *r, const char *words);
/* gpuocc binary: the INPUT_RECORD_KEYS of a row (b: its record; `check`: the setmaxnreg check's word, NULL for
   none; o->record_metadata: the json's path, NULL for none), as JSON members or CSV cells (each followed by a
   comma). */
void input_record_json(FILE *out, bool *first, const gpuocc_binary_kernel *b, const char *check,
                       const struct input_options *o);
void input_record_csv(FILE *out, const gpuocc_binary_kernel *b, const char *check, const struct input_options *o);
/* gpuocc binary: one Intel kernel's row (tools/binary_intel.c). */
void input_intel_kernel(FILE *out, struct input_options *o, const char *file, const char *origin,
                        const gpuocc_binary_kernel *b);
void input_end(FILE *out, struct input_options *o, bool any); /* any: something was read (print the header even without rows) */

#endif
