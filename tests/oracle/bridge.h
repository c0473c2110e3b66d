/*
 * The bridge to NVIDIA's cuda_occupancy.h, shared by the oracle test and the benchmark: gpuocc's device
 * and kernel as the header's structures, and a deterministic generator of random launches.  Include only
 * where GPUOCC_HAVE_CUDA_OCCUPANCY is defined (the header comes from the CUDA toolkit's own path).
 */
#ifndef GPUOCC_ORACLE_BRIDGE_H
#define GPUOCC_ORACLE_BRIDGE_H

#include <limits.h>
#include <string.h>

#include <cuda_occupancy.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

/* xorshift64*: deterministic across runs and platforms */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717u;
}
static int64_t rnd_range(int64_t lo, int64_t hi) /* inclusive */
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static cudaOccDeviceProp oracle_device(const gpuocc_device *d)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    p.computeMajor = d->cc_major;
    p.computeMinor = d->cc_minor;
    p.maxThreadsPerBlock = d->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = d->max_threads_per_sm;
    p.regsPerBlock = d->regs_per_block;
    p.regsPerMultiprocessor = d->regs_per_sm;
    p.warpSize = d->warp_size;
    p.sharedMemPerBlock = (size_t)d->smem_per_block_bytes;
    p.sharedMemPerMultiprocessor = (size_t)d->smem_per_sm_bytes;
    p.numSms = d->sm_count > 0 ? d->sm_count : 100;
    p.sharedMemPerBlockOptin = (size_t)d->smem_per_block_optin_bytes;
    p.reservedSharedMemPerBlock = (size_t)d->smem_reserved_per_block_bytes;
    return p;
}

static void oracle_kernel(const gpuocc_device *d, const gpuocc_kernel *k, cudaOccFuncAttributes *a,
                          cudaOccDeviceState *s)
{
    memset(a, 0, sizeof *a);
    a->maxThreadsPerBlock = k->max_threads_per_block > 0 ? k->max_threads_per_block : INT_MAX;
    a->numRegs = k->regs_per_thread;
    a->sharedSizeBytes = (size_t)k->smem_static_bytes;
    a->partitionedGCConfig = PARTITIONED_GC_OFF;
    a->shmemLimitConfig = k->smem_optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    int64_t dyn_max = k->smem_dynamic_max_bytes >= 0 ? k->smem_dynamic_max_bytes
                                                     : d->smem_per_block_optin_bytes - k->smem_static_bytes;
    if (!k->smem_optin)
        dyn_max = d->smem_per_block_bytes - k->smem_static_bytes;
    a->maxDynamicSharedSizeBytes = dyn_max > 0 ? (size_t)dyn_max : 0;
    a->numBlockBarriers = k->barriers;
    a->virtualResourceCount = k->virtual_resources;
    memset(s, 0, sizeof *s);
    s->cacheConfig = CACHE_PREFER_NONE;
    s->carveoutConfig = k->carveout_percent;
}

static void random_kernel(const gpuocc_device *d, gpuocc_kernel *k)
{
    gpuocc_kernel_init(k);
    switch (rnd() % 4) {
    case 0: k->threads_per_block = (int32_t)rnd_range(1, 1024); break;
    case 1: k->threads_per_block = (int32_t)(32 * rnd_range(1, 32)); break;
    case 2: k->threads_per_block = (int32_t)rnd_range(1, 128); break;
    default: k->threads_per_block = (int32_t)rnd_range(1, 2048); break; /* some above the device maximum */
    }
    k->regs_per_thread = (int32_t)(rnd() % 5 == 0 ? rnd_range(0, 32) : rnd_range(0, 258));
    int64_t optin = d->smem_per_block_optin_bytes;
    k->smem_static_bytes = rnd() % 3 == 0 ? 0 : rnd_range(0, rnd() % 2 ? 4096 : 49152);
    k->smem_dynamic_bytes = rnd() % 3 == 0 ? 0 : rnd_range(0, rnd() % 4 == 0 ? optin + 4096 : optin / 4);
    k->carveout_percent = (int32_t)(rnd() % 3 == 0 ? -1 : rnd_range(0, 100));
    k->smem_optin = (int32_t)(rnd() % 2);
    if (k->smem_optin && k->smem_static_bytes <= optin)
        k->smem_dynamic_max_bytes = rnd() % 3 == 0 ? rnd_range(0, optin - k->smem_static_bytes) : -1;
    else
        k->smem_optin = 0;
    k->barriers = (int32_t)(rnd() % 3 == 0 ? rnd_range(0, 16) : 1);
    /* virtual resources on every architecture (they limit from cc 10.0): none, a few, or past the 128 an SM
       has (no block fits) */
    switch (rnd() % 4) {
    case 0: k->virtual_resources = 0; break;
    case 1: k->virtual_resources = (int32_t)rnd_range(1, 8); break;
    case 2: k->virtual_resources = (int32_t)rnd_range(1, 128); break;
    default: k->virtual_resources = (int32_t)rnd_range(0, 200); break;
    }
}

#endif
