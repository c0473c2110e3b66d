/* Thread-block clusters on the command line (tools/cmd_clusters.c): the flags `report` and `sweep --axis
   cluster` take, the library's answer, and how it is printed (docs/model.md, "Thread-block clusters"). */
#ifndef GPUOCC_TOOLS_CLUSTERS_H
#define GPUOCC_TOOLS_CLUSTERS_H

#include "cli.h"

#define CLI_CLUSTER_OPTIONS                                                                                   \
    {"--cluster", "XxYxZ", "NVIDIA cc 9.0 and later: blocks per thread-block cluster (2x1x1, 4x2, 8); checks it "  \
                           "and counts the clusters resident at once"},                                            \
    {"--cluster-nonportable", NULL, "the kernel sets cudaFuncAttributeNonPortableClusterSizeAllowed (more than 8 "  \
                                    "blocks per cluster where the device allows it)"},                             \
    {"--grid-blocks", "N|XxYxZ", "the grid in blocks: its waves on the product's SMs; with --cluster, a whole "    \
                                 "number of clusters.  Within the launch API: CUDA's x at most 2^31-1, y and z "    \
                                 "65535; HIP's and Level Zero's 2^32-1 each; 2^63-1 in all"},                       \
    {"--gpc-sms", "N,N,...", "with --cluster: the SMs of each GPC (an exact count for that layout; default: the "  \
                             "product's published layout, a bound)"}

struct cli_cluster {
    bool given, grid_given;
    gpuocc_cluster c;
    int64_t grid_blocks;        /* grid_x x grid_y x grid_z, within the launch API's limits (0: no grid) */
    gpuocc_gpc_layout layout; /* --gpc-sms, or the product's published one */
    bool have_layout, layout_given;
    char gpc_sms[160];          /* --gpc-sms as given, normalized ("16,16,18") */
    /* the answer */
    int32_t verdict;
    bool have_result; /* false: a bare architecture without --gpc-sms (no SM count) */
    gpuocc_cluster_result r;
    bool have_waves;  /* --grid-blocks without --cluster, on a product whose launch fits: the grid's waves */
    gpuocc_waves_result waves;
};

void cli_cluster_init(struct cli_cluster *cc);
/* Consumes one cluster flag at the cursor; false if the argument is not one. */
bool cli_cluster_flag(struct cli_args *a, struct cli_cluster *cc);
/* The check and the count for the launch, and a grid's waves; false after a usage error (a flag without
   --cluster, a cluster the device refuses, a grid beyond the launch API's limits or a grid's waves without an
   SM count: exit 2, the flag and the rule named). */
bool cli_cluster_answer(struct cli_io *io, const struct cli_launch *l, struct cli_cluster *cc);
/* The report's text lines: the cluster's (NVIDIA), and the grid's waves (every vendor). */
void cli_cluster_text(FILE *out, const struct cli_launch *l, const struct cli_cluster *cc);
void cli_grid_text(FILE *out, const struct cli_launch *l, const struct cli_cluster *cc, const char *unit);
/* GPUOCC_CLUSTER_* as the JSON and CSV write it ("legal", "unverified", ...). */
const char *cli_cluster_verdict_name(int32_t verdict);
/* "exact" or "bound" */
const char *cli_cluster_kind(const struct cli_cluster *cc);
/* `sweep --axis cluster`: one row per cluster size from 1 to the device's maximum (the non-portable one with
   --cluster-nonportable, 16 where it is not published): a table, CSV rows or a JSON array. */
#define CLI_CLUSTER_TEXT 0
#define CLI_CLUSTER_CSV 1
#define CLI_CLUSTER_JSON 2
#define CLI_CLUSTER_TERMINAL 3 /* plot --axis cluster --terminal */
int cli_cluster_sweep(struct cli_io *io, const struct cli_launch *l, struct cli_cluster *cc, int mode);

#endif
