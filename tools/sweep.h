/* Shared by gpuocc sweep and gpuocc plot (tools/cmd_sweep.c, tools/cmd_plot.c). */
#ifndef GPUOCC_TOOLS_SWEEP_H
#define GPUOCC_TOOLS_SWEEP_H

#include "cli.h"

/* GPUOCC_AXIS_* from "threads", "regs", "smem", "barriers" (-1 if none), and back ("" if unknown). */
int32_t sweep_axis_from_name(const char *name);
const char *sweep_axis_name(int32_t axis);
/* `--axis cluster` (tools/cmd_clusters.c): not a library axis. */
#define SWEEP_AXIS_CLUSTER (-2)
/* Consumes "--axis NAME" at the cursor (a bad name is a usage error: -1); false if the argument is another. */
bool sweep_axis_flag(struct cli_args *a, int32_t *axis);
/* The points of a sweep (or its steps), allocated; NULL after a usage error. */
gpuocc_sweep_point *sweep_points(struct cli_io *io, const struct cli_launch *l, int32_t axis, int64_t from,
                                 int64_t to, int64_t step, bool steps_only, int32_t *count);

#endif
