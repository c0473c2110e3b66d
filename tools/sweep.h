/* Shared by gpuocc sweep and gpuocc plot (tools/cmd_sweep.c, tools/cmd_plot.c). */
#ifndef GPUOCC_TOOLS_SWEEP_H
#define GPUOCC_TOOLS_SWEEP_H

#include "cli.h"

/* The CLI's axes: the library's GPUOCC_AXIS_*, then Intel's sub-group size and GRF count, which the CLI
   sweeps itself (each point a gpuocc_occupancy call: the answer there by construction). */
#define SWEEP_AXIS_SUB_GROUP GPUOCC_AXIS_COUNT
#define SWEEP_AXIS_GRF       (GPUOCC_AXIS_COUNT + 1)
#define SWEEP_AXIS_COUNT     (GPUOCC_AXIS_COUNT + 2)

/* An axis from "threads", "regs", "smem" (or "slm"), "barriers", "sub_group" (or "sub-group"), "grf" (-1 if
   none), and back ("" if unknown). */
int32_t sweep_axis_from_name(const char *name);
const char *sweep_axis_name(int32_t axis);
/* Consumes "--axis NAME" at the cursor (a bad name is a usage error); false if the argument is another. */
bool sweep_axis_flag(struct cli_args *a, int32_t *axis);
/* An axis' whole range at its natural step: gpuocc_sweep_range's; Intel's sub_group: the device's sizes
   (from the smallest to the largest, by the smallest); grf: 128 to the device's largest by 128 (Xe-LP to Xe2:
   its GRF modes), 32 to 256 by 32 on Xe3 (the runtime's table).  False after a usage error. */
bool sweep_range(struct cli_io *io, const struct cli_launch *l, int32_t axis, int64_t *from, int64_t *to,
                 int64_t *step);
/* The launch with the axis set to v. */
gpuocc_kernel sweep_kernel_at(const gpuocc_kernel *k, int32_t axis, int64_t v);
/* The points of a sweep (or its steps), allocated; NULL after a usage error.  Intel's sub_group axis holds
   only the device's sub-group sizes on the grid. */
gpuocc_sweep_point *sweep_points(struct cli_io *io, const struct cli_launch *l, int32_t axis, int64_t from,
                                 int64_t to, int64_t step, bool steps_only, int32_t *count);

#endif
