/* Small helpers shared by the Criterion tests. */
#ifndef GPUOCC_TEST_COMMON_H
#define GPUOCC_TEST_COMMON_H

#include <criterion/criterion.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

static inline gpuocc_device test_device(const char *name)
{
    gpuocc_device d = {.size = sizeof d};
    cr_assert_eq(gpuocc_device_lookup(name, &d), GPUOCC_OK, "lookup %s", name);
    return d;
}

static inline gpuocc_kernel test_kernel(int32_t threads, int32_t regs, int64_t smem_static, int64_t smem_dynamic)
{
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.threads_per_block = threads;
    k.regs_per_thread = regs;
    k.smem_static_bytes = smem_static;
    k.smem_dynamic_bytes = smem_dynamic;
    return k;
}

static inline gpuocc_result test_occupancy(const gpuocc_device *d, const gpuocc_kernel *k)
{
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(d, k, &r), GPUOCC_OK);
    return r;
}

#endif
