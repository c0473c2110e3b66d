/* Fuzz target: the LLVM remarks reader must never crash, read outside its input, or report a record that
   points outside it; on failure it writes nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a private copy, so reading one byte past the input is caught by ASan */
    char *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    gpuocc_remarks_kernel ks[4], before[4];
    memset(ks, 0x5A, sizeof ks);
    gpuocc_remarks_kernel_init(&ks[0]);
    memcpy(before, ks, sizeof ks);
    int32_t count = -7, line = -7;
    int32_t rc = gpuocc_remarks_parse(copy, size, ks, 4, &count, &line);
    if (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER) {
        for (int32_t i = 0; i < count && i < 4; i++)
            if (ks[i].name_offset + ks[i].name_length > size || ks[i].short_offset + ks[i].short_length > size ||
                ks[i].name_length == 0 || ks[i].size != sizeof ks[i] || ks[i].line < 1)
                abort();
    } else if (count != -7 || memcmp(ks, before, sizeof ks) != 0 ||
               ((rc == GPUOCC_ERR_PARSE || rc == GPUOCC_ERR_TRUNCATED) ? line < 1 : line != -7)) {
        abort();
    }
    free(copy);
    return 0;
}
