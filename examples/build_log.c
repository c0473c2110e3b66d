/* Every kernel of a build log (nvcc -Xptxas -v ... 2>&1) with its occupancy at a block size.
   Build: cc build_log.c $(pkg-config --cflags --libs gpuocc)   Run: nvcc ... 2>&1 | ./a.out 256 */
#include <stdio.h>
#include <stdlib.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include <gpuocc.h>

int main(int argc, char **argv)
{
    int32_t threads = argc > 1 ? atoi(argv[1]) : 256;
    static char text[1 << 20];
    size_t length = fread(text, 1, sizeof text, stdin);
    int32_t count = 0, line = 0;
    int32_t rc = gpuocc_ptxas_parse(text, length, NULL, 0, &count, &line);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER) {
        fprintf(stderr, "line %d: %s\n", line, gpuocc_strerror(rc));
        return 1;
    }
    gpuocc_compiled_kernel *ks = calloc(count ? (size_t)count : 1, sizeof *ks);
    if (!ks || gpuocc_ptxas_parse(text, length, ks, count, &count, &line) != GPUOCC_OK)
        return 1;
    for (int32_t i = 0; i < count; i++) {
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d", ks[i].cc);
        gpuocc_device dev = {.size = sizeof dev};
        gpuocc_kernel k;
        gpuocc_kernel_init(&k);
        k.threads_per_block = threads;
        k.regs_per_thread = ks[i].registers;
        k.smem_static_bytes = ks[i].smem_bytes;
        k.barriers = ks[i].barriers < 0 ? 1 : ks[i].barriers;
        gpuocc_result r = {.size = sizeof r};
        if (gpuocc_device_lookup(arch, &dev) != GPUOCC_OK || gpuocc_occupancy(&dev, &k, &r) != GPUOCC_OK)
            continue;
        printf("%.*s %s: %d registers, %d blocks/SM, %.1f %%\n", (int)ks[i].short_length, text + ks[i].short_offset,
               arch, ks[i].registers, r.blocks_per_sm, 100 * r.occupancy);
    }
    free(ks);
    return 0;
}
