/* `gpuocc report`'s answer as a value (tools/cmd_occupancy.c): the flags parsed, the launch answered, and its
   JSON written into a caller's buffer.  The command and the web module (web/module.c, window.gpuocc.report)
   both go through these, so the page's object is the CLI's by construction (docs/web.md). */
#ifndef GPUOCC_TOOLS_REPORT_H
#define GPUOCC_TOOLS_REPORT_H

#include "cli.h"
#include "clusters.h"

/* The Hopper- and Blackwell-era answers beside the occupancy: tensor memory, setmaxnreg, the launch bounds' minimum. */
struct cli_report_extra {
    int32_t tmem_holders;                  /* GPUOCC_UNLIMITED without --tmem-columns */
    int32_t setmaxnreg_count;              /* warpgroups given to --setmaxnreg; 0 = not asked */
    int32_t setmaxnreg[GPUOCC_SETMAXNREG_MAX_WARPGROUPS];
    char setmaxnreg_text[GPUOCC_SETMAXNREG_MAX_WARPGROUPS * 5];
    bool regs_fixed;
    gpuocc_setmaxnreg_result smr;
    int32_t min_blocks;                    /* --min-blocks; 0 = not asked */
    uint32_t min_blocks_preventing;
    /* The inverse queries for --blocks N (1 when only --stage-bytes is given): each answer, or its status
       (GPUOCC_ERR_UNSATISFIABLE: the field is null and the report exits 1). */
    int32_t target_blocks;                 /* --blocks; 0 = neither flag given */
    bool have_stage;                       /* --stage-bytes given */
    int64_t stage_bytes, base_bytes;
    int32_t smem_available_rc, regs_max_rc, stages_rc;
    int64_t smem_available, stages;
    int32_t regs_max;
};

struct cli_report {
    struct cli_launch l;
    struct cli_report_extra x;
    struct cli_cluster cc;
    gpuocc_result r;
    bool json, csv, example;
};

/* `report ARGS...` (argv[0] is "report"): the flags read and the launch answered into *rep.  False after a
   usage error (io->status 2, its line on io->err); true with the answer, whatever the blocks. */
bool cli_report_answer(struct cli_io *io, struct cli_report *rep, int argc, char **argv);
/* cli_report_answer in its three steps, for a caller that has the flags otherwise than as an argument
   vector (web/module.c: numbers by field): the defaults; one flag at the cursor (any of the command's,
   launch flags too), false if the argument is none of them; after the flags, the checks that need them all
   and the answer (false after a usage error, as cli_report_answer). */
void cli_report_init(struct cli_report *rep);
bool cli_report_flag(struct cli_args *a, struct cli_report *rep);
bool cli_report_finish(struct cli_io *io, struct cli_report *rep);
/* The answer's `--json` object and its line break, into out[0, cap): the bytes needed (whole when < cap). */
size_t cli_report_json(const struct cli_report *rep, char *out, size_t cap);

/* The same object as a sequence of JSON events, for a writer other than the text: cli_report_json is this
   with the text writer.  Keys are string literals (static storage: a writer may keep their addresses). */
struct cli_json_ops {
    void (*open)(void *ctx, char bracket); /* '{' or '[' */
    void (*close)(void *ctx, char bracket);
    void (*key)(void *ctx, const char *key);
    void (*null)(void *ctx);
    void (*boolean)(void *ctx, bool v);
    void (*integer)(void *ctx, int64_t v);
    void (*fixed6)(void *ctx, double v); /* the text writes "%.6f" */
    void (*string)(void *ctx, const char *s);
    /* a string of static storage (a literal: "nvidia", "registers"), the same text whenever it comes at that
       address: a writer may keep it by its address (the text writer writes it as `string`) */
    void (*word)(void *ctx, const char *s);
};
void cli_report_write(const struct cli_report *rep, const struct cli_json_ops *ops, void *ctx);
/* The text report's notes (its `note` lines' text, without the label), each ending in a line break, into
   out[0, cap): false when there are none (the web module hands them to the page beside the object). */
bool cli_report_notes(const struct cli_launch *l, char *out, size_t cap);
/* After the answer is printed: a launch that cannot run is a problem (io->err) and exit 1; the exit status. */
int cli_report_status(struct cli_io *io, const struct cli_report *rep);

#endif
