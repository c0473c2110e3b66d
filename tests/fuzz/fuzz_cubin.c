/* Fuzz target: the cubin / fatbinary / host-ELF reader must never crash or read outside its input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a private copy, so reading one byte past the input is caught by ASan */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    gpuocc_compiled_kernel ks[4];
    int32_t count = 0;
    int32_t rc = gpuocc_cubin_read(copy, size, ks, 4, &count);
    if (rc > 0 || rc < GPUOCC_ERR_COMPRESSED)
        abort();
    if (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER) {
        for (int32_t i = 0; i < count && i < 4; i++)
            if (ks[i].name_offset + ks[i].name_length > size || ks[i].short_offset + ks[i].short_length > size ||
                ks[i].short_offset < ks[i].name_offset || ks[i].registers < 0 || ks[i].smem_bytes < 0 ||
                (ks[i].arch_variant != 0 && ks[i].arch_variant != 'a' && ks[i].arch_variant != 'f'))
                abort();
    }
    free(copy);
    return 0;
}
