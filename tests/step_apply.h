/* A next step's change applied as the header says (shared memory: the static bytes kept while they fit,
   the dynamic bytes the rest), for the tests that check a step gives its count: tests/test_next_steps.c and
   the fuzz target tests/fuzz/fuzz_rule.c.  Written from the header, not from the library's own code. */
#ifndef GPUOCC_TEST_STEP_APPLY_H
#define GPUOCC_TEST_STEP_APPLY_H

#include "gpuocc.h"

static inline void step_apply(gpuocc_kernel *k, const gpuocc_step_change *c)
{
    int64_t v = c->new_value;
    switch (c->resource) {
    case GPUOCC_RESOURCE_WARPS: k->threads_per_block = (int32_t)v; break;
    case GPUOCC_RESOURCE_REGISTERS: k->regs_per_thread = (int32_t)v; break;
    case GPUOCC_RESOURCE_SMEM:
        k->smem_static_bytes = k->smem_static_bytes < v ? k->smem_static_bytes : v;
        k->smem_dynamic_bytes = v - k->smem_static_bytes;
        break;
    case GPUOCC_RESOURCE_BARRIERS: k->barriers = (int32_t)v; break;
    case GPUOCC_RESOURCE_SGPRS: k->sgprs = (int32_t)v; break;
    default: k->agprs = (int32_t)v; break;
    }
}

#endif
