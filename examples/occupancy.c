/* How many blocks of a kernel fit on one SM, and why.
   Build: cc occupancy.c $(pkg-config --cflags --libs gpuocc)   Run: ./a.out A100 256 64 */
#include <stdio.h>
#include <stdlib.h>

#include <gpuocc.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s GPU THREADS_PER_BLOCK REGISTERS_PER_THREAD\n", argv[0]);
        return 2;
    }
    gpuocc_device dev = {.size = sizeof dev};
    int32_t rc = gpuocc_device_lookup(argv[1], &dev);
    if (rc != GPUOCC_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], gpuocc_strerror(rc));
        return 1;
    }
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.threads_per_block = atoi(argv[2]);
    k.regs_per_thread = atoi(argv[3]);
    gpuocc_result r = {.size = sizeof r};
    if ((rc = gpuocc_occupancy(&dev, &k, &r)) != GPUOCC_OK) {
        fprintf(stderr, "%s\n", gpuocc_strerror(rc));
        return 1;
    }
    printf("%s: %d blocks/SM, %.0f %% occupancy, limited by", argv[1], r.blocks_per_sm, 100 * r.occupancy);
    for (int32_t res = 0; res < GPUOCC_RESOURCE_COUNT; res++)
        if (r.limiters & (1u << res))
            printf(" %s", gpuocc_resource_name(res));
    printf("\n");
    return 0;
}
