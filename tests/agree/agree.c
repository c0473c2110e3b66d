/* One launch through the C API with gpuocc_kernel_init's defaults, for check_agreement.py:
   agree ARCH THREADS REGS SMEM_DYNAMIC [optin 0|1] prints "blocks_per_sm occupancy limiters-mask". */
#include <gpuocc.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6)
        return 2;
    gpuocc_device dev = {.size = sizeof dev};
    gpuocc_kernel k;
    gpuocc_result r = {.size = sizeof r};
    if (gpuocc_device_lookup(argv[1], &dev) != GPUOCC_OK || gpuocc_kernel_init(&k) != GPUOCC_OK)
        return 2;
    k.threads_per_block = atoi(argv[2]);
    k.regs_per_thread = atoi(argv[3]);
    k.smem_dynamic_bytes = atoll(argv[4]);
    if (argc == 6)
        k.smem_optin = atoi(argv[5]);
    int32_t rc = gpuocc_occupancy(&dev, &k, &r);
    if (rc != GPUOCC_OK) {
        printf("error %s\n", gpuocc_status_name(rc));
        return 1;
    }
    printf("%d %.6f %u\n", r.blocks_per_sm, r.occupancy, r.limiters);
    return 0;
}
