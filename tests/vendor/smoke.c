/* Smoke test for the two-file drop-in (scripts/amalgamate.py): compiled alone with the vendored gpuocc.c. */
#include <stdio.h>
#include <string.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

int main(void)
{
    /* A100, 256 threads, 64 registers: 2048 registers a warp, 8 warps per sub-partition, 32 warps, 4 blocks */
    gpuocc_device dev;
    gpuocc_kernel k;
    gpuocc_result r;
    /* zeroed, then sized: this file is also compiled as C++ with -Wextra, where a designated initializer
       that omits members warns */
    memset(&dev, 0, sizeof dev);
    memset(&r, 0, sizeof r);
    dev.size = sizeof dev;
    r.size = sizeof r;
    if (gpuocc_device_lookup("A100", &dev) || gpuocc_kernel_init(&k))
        return 1;
    k.threads_per_block = 256;
    k.regs_per_thread = 64;
    if (gpuocc_occupancy(&dev, &k, &r) || r.blocks_per_sm != 4 || r.occupancy != 0.5 ||
        r.limiters != GPUOCC_LIMIT_REGISTERS)
        return 2;
    const char *log = "ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_80'\n"
                      "ptxas info    : Used 32 registers, used 1 barriers, 4096 bytes smem\n";
    gpuocc_compiled_kernel ks[1];
    int32_t count = 0, line = 0;
    if (gpuocc_ptxas_parse(log, strlen(log), ks, 1, &count, &line) || count != 1 || ks[0].registers != 32 ||
        ks[0].short_length != 3 || memcmp(log + ks[0].short_offset, "foo", 3) != 0)
        return 3;
    if (gpuocc_cubin_read("not elf", 7, ks, 1, &count) != GPUOCC_ERR_FORMAT)
        return 4;
    printf("vendored gpuocc %s: ok\n", gpuocc_version_string());
    return 0;
}
