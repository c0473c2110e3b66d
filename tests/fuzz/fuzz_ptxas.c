/* Fuzz target: the ptxas report parser must never crash or read outside its input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuocc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a private copy, so reading one byte past the input is caught by ASan */
    char *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    gpuocc_compiled_kernel ks[4];
    int32_t count = 0, line = 0;
    int32_t rc = gpuocc_ptxas_parse(copy, size, ks, 4, &count, &line);
    if (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER) {
        for (int32_t i = 0; i < count && i < 4; i++)
            if (ks[i].name_offset + ks[i].name_length > size || ks[i].short_offset + ks[i].short_length > size)
                abort();
    }
    free(copy);
    return 0;
}
