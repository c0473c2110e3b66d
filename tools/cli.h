/* The gpuocc command-line program's framework: streams, errors, flags, help, output checks.

   How a subcommand is written and registered
   ------------------------------------------
   1. Put it in its own file tools/cmd_<area>.c and describe it with a `const struct cli_command`:
          static const struct cli_option waves_options[] = {
              {"--grid-blocks", "N", "blocks in the grid"},   (the flag of an input is its JSON key, '_' as '-')
              {"--json", NULL, "one JSON object instead of text"},   (value NULL: a switch)
              {NULL, NULL, NULL}};
          const struct cli_command cli_cmd_waves = {
              "waves", cmd_waves, "waves and the tail of a grid",            (name, run, one-line summary)
              "--grid-blocks N --blocks-per-sm N (--sm-count N | --arch NAME) [--json]", (synopsis)
              waves_options,
              "gpuocc waves --grid-blocks 300 --sm-count 132 --blocks-per-sm 2\n"}; (examples, one per line)
      A command that takes a launch lists CLI_LAUNCH_OPTIONS among its options and feeds each argument to
      cli_launch_flag(), so every launch flag (--no-optin, --carveout, --barriers...) means the same everywhere.
   2. The run function `int cmd_waves(struct cli_io *io, int argc, char **argv)` (argv[0] is the command's
      name) reads only io->in (or files named in argv), writes only io->out, reports problems only through
      cli_fail() / cli_problem() (stderr, one line each, naming the flag, column or entry and the input line)
      and RETURNS the exit status; it never calls exit().  The framework answers -h/--help from the
      descriptor, suggests the nearest flag for a typo, and after the run flushes io->out: a write that
      failed anywhere turns the status into 3 (CLI_OUTPUT).  A long loop may stop early when
      cli_output_failed(io) says the output is gone.
   3. Declare the descriptor below, add a line to the command table in tools/main.c, the file to
      tools/meson.build, the output fields to docs/output.md, and a test in tests/test_cli_<area>.py.
   Exit statuses (docs/output.md): 0 every question answered; 1 answered, but something could not be (a bad
   batch row; `report` when the launch fits 0 blocks); 2 usage error or no usable input; 3 output not written. */
#ifndef GPUOCC_CLI_H
#define GPUOCC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

enum { CLI_OK = 0, CLI_PARTIAL = 1, CLI_USAGE = 2, CLI_OUTPUT = 3 };

#if defined(__GNUC__) || defined(__clang__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

struct cli_command;

/* The streams a subcommand uses, and the worst status reported so far. */
struct cli_io {
    FILE *in, *out, *err;
    const struct cli_command *cmd; /* the running subcommand: its help, its flags for suggestions */
    int status;
    int out_errno; /* errno of the first failed write seen (cli_output_failed, cli_output_error), for the message */
    bool progress_shown; /* a progress line is on err (a terminal): a problem erases it before it prints */
};

struct cli_option {
    const char *name;  /* "--threads" */
    const char *value; /* "N", or NULL for a switch */
    const char *help;
};

struct cli_command {
    const char *name;
    int (*run)(struct cli_io *io, int argc, char **argv);
    const char *summary;
    const char *synopsis;
    const struct cli_option *options; /* ends with {NULL, NULL, NULL} */
    const char *examples;             /* "gpuocc ...\n" lines */
};

/* The program: dispatch argv (argv[0] is the program name) to a subcommand, answer --help/--version, and
   check the output.  Returns the exit status; never exits.  The command table is in tools/main.c. */
int cli_main(struct cli_io *io, int argc, char **argv);
extern const struct cli_command *const cli_commands[];
extern const size_t cli_command_count;

/* A usage error (status 2): "gpuocc: FIELD: REASON" on stderr; only the first one is printed.  Returns 2. */
int cli_fail(struct cli_io *io, const char *field, const char *fmt, ...) CLI_PRINTF(3, 4);
/* A problem that does not stop the command (a bad row): printed each time; status at least 1. */
void cli_problem(struct cli_io *io, const char *field, const char *fmt, ...) CLI_PRINTF(3, 4);
/* A note on stderr in the same form, "gpuocc: FIELD: TEXT", that changes nothing: the status stays. */
void cli_notice(struct cli_io *io, const char *field, const char *fmt, ...) CLI_PRINTF(3, 4);
/* Whether writing to io->out has failed (then the status will be 3 whatever else happens).  Call it right
   after the writes: the first time it sees the failure it keeps errno, the reason cli_finish prints. */
bool cli_output_failed(struct cli_io *io);
/* A command writing io->out by other means (write(), its own buffer) reports a failed write's errno here. */
void cli_output_error(struct cli_io *io, int err);
/* Flush io->out and fold a write failure into the status: 3 with one line naming the reason. */
int cli_finish(struct cli_io *io, int status);

/* Before reading io->in: when it is a terminal, one line on stderr says what is read from it and how to end
   it ("gpuocc batch: reading CSV from standard input (a terminal); end with Ctrl-D"), not a silent wait. */
/* Erases the progress line on io->err, if one is shown (problems call it before they print). */
void cli_progress_clear(struct cli_io *io);
void cli_note_terminal_input(struct cli_io *io, const char *what);

/* The help text of a command (usage, options, examples). */
void cli_help(FILE *f, const struct cli_command *c);

/* Flag parsing: an iterator over argv.  Loop `for (; cli_more(&a); a.i++)`; it stops at the first error. */
#define CLI_FLAGS_SEEN 128
struct cli_args {
    struct cli_io *io;
    int argc;
    char **argv;
    int i;
    /* the flags matched so far and the argument each was at: one given twice is a usage error */
    int seen;
    const char *seen_name[CLI_FLAGS_SEEN];
    int seen_at[CLI_FLAGS_SEEN];
};
bool cli_more(const struct cli_args *a);
/* "--name VALUE" or "--name=VALUE": true with *value set; a missing value is a usage error, and so is a flag
   (or switch) given twice, which would leave one of its values unread (true then, the error recorded). */
bool cli_flag(struct cli_args *a, const char *name, const char **value);
bool cli_switch(struct cli_args *a, const char *name);
/* The argument at the cursor is unknown: a usage error naming it, with the nearest known flag. */
void cli_unknown(struct cli_args *a);
/* The closest of `n` candidates to `word`, case-insensitive, or NULL if none is close: of those that begin
   with the word (two characters or more after any dashes), the first alphabetically; else the nearest by
   edit distance. */
const char *cli_nearest(const char *word, const char *const *candidates, size_t n);

/* Numbers.  On a bad value each reports a usage error naming `field` and returns 0.  Integers are decimal;
   sizes are decimal bytes with an optional K, M or G suffix (powers of 1024, optionally "KiB"/"KB"/"K"). */
int32_t cli_int(struct cli_io *io, const char *field, const char *text, int64_t lo, int64_t hi);
int64_t cli_int64(struct cli_io *io, const char *field, const char *text, int64_t lo, int64_t hi);
int64_t cli_size(struct cli_io *io, const char *field, const char *text);
double cli_double(struct cli_io *io, const char *field, const char *text);
/* The same without reporting: true and *out set, or false.  The _parse_ forms read exactly s[0, n). */
bool cli_parse_int(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out);
bool cli_parse_size(const char *s, size_t n, int64_t *out);
bool cli_try_int(const char *text, int64_t lo, int64_t hi, int64_t *out);
bool cli_try_size(const char *text, int64_t *out);
bool cli_try_double(const char *text, double *out);

/* A device by name; an unknown one is a usage error naming `field`, with the nearest name. */
bool cli_device(struct cli_io *io, const char *field, const char *name, gpuocc_device *dev);
/* The known device name closest to `name` (a table name, or its first word where the lookup takes that:
   "H100"), into out; false if none is close. */
bool cli_device_nearest(const char *name, char *out, size_t cap);
/* The architecture's name: "sm_90" for NVIDIA, "gfx942" (the LLVM target) for AMD. */
void cli_arch_name(const gpuocc_device *d, char *out, size_t cap);
/* Whether a device follows AMD's rules (its vendor field). */
bool cli_is_amd(const gpuocc_device *d);
/* Whether a device follows Intel's rules (docs/intel.md). */
bool cli_is_intel(const gpuocc_device *d);
/* An AMD model's name as the CLI takes and prints it: "compiler" (today's LLVM, the default), "llvm19",
   "runtime". */
const char *cli_amd_model_name(int32_t model);
/* The vendor's name as JSON and CSV print it: "nvidia", "amd", "intel". */
const char *cli_vendor_name(const gpuocc_device *d);

/* The launch flags every launch-taking command accepts, with the same meaning everywhere. */
#define CLI_LAUNCH_OPTIONS                                                                                   \
    {"--arch", "NAME", "architecture (sm_90, gfx942) or product (H100, MI300X); see 'gpuocc devices'"},       \
    {"--threads", "N", "threads per block (AMD: workgroup size; Intel: work-items per work-group)"},                                            \
    {"--regs", "N", "registers per thread (AMD: arch VGPRs per lane, as --vgprs)"},                           \
    {"--smem-static", "BYTES", "static shared memory per block (48K, 1M: powers of 1024; AMD: LDS; Intel: SLM)"},         \
    {"--smem-dynamic", "BYTES", "dynamic shared memory per block (AMD: dynamic LDS; Intel: dynamic SLM)"},                        \
    {"--barriers", "N", "NVIDIA: named barriers per block; Intel: barriers the kernel uses (default 1)"},                                      \
    {"--carveout", "PERCENT", "NVIDIA: preferred shared-memory carveout, 0-100 (default -1: the driver's choice)"}, \
    {"--no-optin", NULL, "NVIDIA: the kernel has not raised its shared-memory limit above 48 KiB (opt-in is on)"}, \
    {"--virtual-resources", "N", "NVIDIA cc 10.x-12.x: virtual resources per block (of the SM's 128; default 0: none)"}, \
    {"--tmem-columns", "N", "NVIDIA sm_100, sm_103, sm_110: tensor-memory columns a block holds (tcgen05.alloc: "  \
                            "32-512, a power of two; default 0: none)"}
/* AMD's launch flags, for the commands that answer AMD devices (listed after CLI_LAUNCH_OPTIONS).  The
   first three name the fields --regs, --smem-static and --smem-dynamic set; giving both names is an
   error, as is an AMD flag with an NVIDIA --arch or an NVIDIA-only flag with an AMD one (docs/amd.md). */
#define CLI_AMD_LAUNCH_OPTIONS                                                                               \
    {"--vgprs", "N", "AMD: arch VGPRs per lane (LLVM's \"VGPRs\")"},                                          \
    {"--agprs", "N", "AMD: AGPRs per lane (LLVM's \"AGPRs\"; gfx908, gfx90a and later; default 0)"},          \
    {"--sgprs", "N", "AMD: SGPRs per wave (LLVM's \"SGPRs\"; they limit on gfx9; default 0: no limit)"},      \
    {"--lds", "BYTES", "AMD: static LDS per workgroup (LLVM's \"LDS Size\")"},                                \
    {"--lds-dynamic", "BYTES", "AMD: the launch's dynamic LDS per workgroup"},                                \
    {"--wave-size", "32|64", "AMD: wavefront size (default: the target's, 64 on gfx9, 32 on gfx10 and later)"}, \
    {"--cu-mode", NULL, "AMD gfx10 and later: compiled with -mcumode (a workgroup on one CU, not a WGP)"},     \
    {"--max-threads", "N", "the kernel's maximum threads per block: __launch_bounds__ on NVIDIA, the flat "   \
                           "workgroup size maximum on AMD (amdgpu_flat_work_group_size; LLVM's occupancy "    \
                           "depends on it; default: --threads), the largest work-group on Intel "             \
                           "(max_work_group_size); a larger --threads fits no block"},                        \
    {"--model", "NAME", "AMD: compiler (today's LLVM occupancy, the default), llvm19 (LLVM 19's, as llc-19 "  \
                        "prints it) or runtime (HIP's); Intel: calculator (the GPU Occupancy Calculator, the "  \
                        "default) or runtime (the compute runtime's count)"},                                  \
    {"--rocm", "X.Y", "AMD, with --model runtime: HIP's rules as of that ROCm release (default: the newest)"}, \
    {"--dvgpr", "16|32", "AMD gfx12, wave32, compiler model: dynamic-VGPR mode with blocks of 16 or 32 VGPRs "   \
                         "(default 0: off)"},                                                                  \
    {"--no-trap-handler", NULL, "AMD gfx9: compiled without the trap handler (-mattr=-trap-handler), whose 16 "  \
                                "SGPRs a wave otherwise holds (on by default, as HIP, ROCm and OpenCL compile)"}, \
    {"--waves-per-eu", "MIN[,MAX]", "AMD: amdgpu_waves_per_eu(MIN, MAX) the kernel was compiled with (MAX "      \
                                    "raises the registers a wave is given to LLVM's minimum for that many)"},     \
    {"--flat-workgroup-size", "MIN,MAX", "AMD: amdgpu_flat_work_group_size(MIN, MAX); MAX is --max-threads "      \
                                         "(default: MIN 1; LLVM's occupancy is its best case over the range)"}
/* Intel's launch flags (after CLI_AMD_LAUNCH_OPTIONS).  --slm and --slm-dynamic name the fields --smem-static
   and --smem-dynamic set; an Intel flag with another vendor's --arch, and another vendor's own flag (--regs,
   --carveout, --no-optin, the AMD flags) with an Intel one, are errors (docs/intel.md). */
#define CLI_INTEL_LAUNCH_OPTIONS                                                                             \
    {"--sub-group", "8|16|32", "Intel: sub-group size (SIMD width; default 16)"},                              \
    {"--grf", "N", "Intel: GRF registers per hardware thread: 128 (default), 256 (large GRF), or a count of "  \
                   "the runtime's Xe3 table"},                                                                 \
    {"--slm", "BYTES", "Intel: static SLM (shared local memory) per work-group"},                              \
    {"--slm-dynamic", "BYTES", "Intel: the launch's dynamic SLM per work-group"}
struct cli_launch {
    gpuocc_device dev;
    gpuocc_kernel k;
    char dev_name[64];
    bool have_arch, have_threads, have_regs, have_smem_static, have_barriers; /* given on the command line */
    /* the flag that set each field shared by both vendors' names, and the first vendor-only flag of each
       vendor, for the checks and their messages */
    const char *regs_flag, *smem_static_flag, *smem_dynamic_flag, *nvidia_flag, *amd_flag;
    /* the first Intel-only flag; the first NVIDIA flag Intel refuses (--barriers is Intel's too); --model
       runtime, whose vendor the check after the flags decides */
    const char *intel_flag, *nvidia_only_flag;
    bool model_runtime;
    const char *max_threads_flag; /* --max-threads or --flat-workgroup-size, whichever set the maximum */
};
void cli_launch_init(struct cli_launch *l); /* gpuocc_kernel_init defaults, opt-in on */
/* The launch flags by number, in the order of CLI_LAUNCH_OPTIONS, CLI_AMD_LAUNCH_OPTIONS and
   CLI_INTEL_LAUNCH_OPTIONS; cli_launch_flags[id] is the flag ("--threads").  The parsers below match a flag
   and call cli_launch_set; the web module (web/module.c) calls it with the value it was given, so a value
   means the same and is refused with the same message either way. */
enum {
    CLI_ARCH, CLI_THREADS, CLI_REGS, CLI_SMEM_STATIC, CLI_SMEM_DYNAMIC, CLI_BARRIERS, CLI_CARVEOUT,
    CLI_VIRTUAL_RESOURCES, CLI_TMEM_COLUMNS, CLI_NO_OPTIN,
    CLI_VGPRS, CLI_AGPRS, CLI_SGPRS, CLI_LDS, CLI_LDS_DYNAMIC, CLI_WAVE_SIZE, CLI_CU_MODE, CLI_MAX_THREADS, CLI_MODEL,
    CLI_ROCM, CLI_DVGPR, CLI_TRAP_HANDLER, CLI_WAVES_PER_EU, CLI_FLAT_WORKGROUP_SIZE,
    CLI_SUB_GROUP, CLI_GRF, CLI_SLM, CLI_SLM_DYNAMIC,
    CLI_LAUNCH_FLAG_COUNT
};
extern const char *const cli_launch_flags[CLI_LAUNCH_FLAG_COUNT];
bool cli_launch_is_switch(int id); /* --no-optin, --cu-mode, --no-trap-handler: no value */
/* Flag `id` with value text `v` (NULL for a switch) applied to the launch, as the flag on the command line:
   its checks and messages on io.  For CLI_ARCH, `known` (when not NULL) is the device the name `v` looks up
   to, found by the caller (the web module keeps the last few); NULL: looked up here. */
void cli_launch_set(struct cli_io *io, struct cli_launch *l, int id, const char *v, const gpuocc_device *known);
/* Consumes one launch flag at the cursor; false if the argument is not one. */
bool cli_launch_flag(struct cli_args *a, struct cli_launch *l);
/* The same for CLI_AMD_LAUNCH_OPTIONS (commands that answer AMD devices call both). */
bool cli_amd_launch_flag(struct cli_args *a, struct cli_launch *l);
/* The same for CLI_INTEL_LAUNCH_OPTIONS. */
bool cli_intel_launch_flag(struct cli_args *a, struct cli_launch *l);
/* After the flags: the checks that need them all (--rocm without --model runtime, --threads above
   --max-threads).  False after a usage error. */
bool cli_launch_check(struct cli_io *io, struct cli_launch *l);

/* s[0, n) made fit for a one-line message: control bytes (NUL, line breaks, DEL) written \xNN; cut at a
   whole character or escape to fit `cap`, and a UTF-8 character that n cuts off is left out (out is always
   terminated). */
void cli_escape(const char *s, size_t n, char *out, size_t cap);

/* The length of the UTF-8 character at s[0, n) (1 to 4), or 0 where the bytes are not one (RFC 3629: a stray
   continuation byte, an overlong form, a surrogate, a value above U+10FFFF, or a character n cuts off). */
size_t cli_utf8_len(const char *s, size_t n);
/* What the JSON writers put for each byte that is not UTF-8 (JSON text is UTF-8, RFC 8259): U+FFFD */
#define CLI_REPLACEMENT "\xef\xbf\xbd"

/* Minimal JSON writer: keys and values with commas handled by the caller's `first` flag.  Strings: valid
   UTF-8 copied, each byte that is not UTF-8 written as U+FFFD, control bytes as \u00XX. */
void json_string(FILE *f, const char *s);
void json_string_n(FILE *f, const char *s, size_t n);
void json_key(FILE *f, bool *first, const char *key);
/* The same writer into a caller's buffer, no stream: `len` counts every byte written, bytes at and past `cap`
   are dropped; the text is whole only when len < cap (else write again into a larger one), not terminated.
   The report's JSON (tools/report.h) is written so, for the CLI and the web module alike. */
struct cli_buf {
    char *p;
    size_t len, cap;
};
void cli_buf_putc(struct cli_buf *b, char c);
void cli_buf_puts(struct cli_buf *b, const char *s);
void cli_buf_int(struct cli_buf *b, int64_t v); /* "%lld" */
void cli_buf_printf(struct cli_buf *b, const char *fmt, ...) CLI_PRINTF(2, 3);
void cli_buf_json_string(struct cli_buf *b, const char *s); /* as json_string */
void cli_buf_json_key(struct cli_buf *b, bool *first, const char *key); /* as json_key */
void cli_buf_json_limiters(struct cli_buf *b, uint32_t limiters); /* as json_limiters */
/* A CSV cell, quoted (RFC 4180) when it holds a comma, quote, CR or LF. */
void csv_cell(FILE *f, const char *s, size_t n);

/* Launches that cannot run (docs/model.md, "Launches that cannot run"): the input the library names over a
   limit (r->exceeded, r->exceeded_limit, on a 0-block answer or a refusal) in words, into `why`; its
   vocabulary name, or NULL when the library names none.  Nothing is derived here. */
const char *cli_exceeded(const gpuocc_device *d, const gpuocc_kernel *k, const gpuocc_result *r, char *why, size_t cap);
/* The flag of an input's vocabulary name: "--" and the name with dashes for underscores. */
void cli_input_flag(const char *input, char *flag, size_t cap);

/* Limiters as "registers|shared_memory" (CSV and text); as a JSON array of names. */
void cli_limiters(uint32_t limiters, char *out, size_t cap);
void json_limiters(FILE *f, uint32_t limiters);
/* What a person reads (text output): a resource's word, and the limiters as words joined by '|' -- the names
   above on NVIDIA and AMD; Intel's own words on Intel ("hardware threads|GRF"; docs/intel.md). */
const char *cli_resource_word(const gpuocc_device *d, int32_t resource);
void cli_limiter_words(const gpuocc_device *d, uint32_t limiters, char *out, size_t cap);

extern const struct cli_command cli_cmd_report, cli_cmd_devices, cli_cmd_batch, cli_cmd_latency, cli_cmd_bandwidth,
    cli_cmd_spill,
    cli_cmd_tradeoff, cli_cmd_waves, cli_cmd_divergence, cli_cmd_roofline, cli_cmd_ptxas, cli_cmd_binary, cli_cmd_cubin,
    cli_cmd_diagnose, cli_cmd_sweep, cli_cmd_plot, cli_cmd_remarks;

#endif
