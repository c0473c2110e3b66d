/* Fuzz target: the LZ4 block decoder must never crash, read outside its input or write outside its output. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/decode/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the first byte picks the output size, so ERR_BUFFER paths are reached too */
    if (size < 1)
        return 0;
    size_t cap = (size_t)data[0] << 8;
    uint8_t *copy = malloc(size - 1 ? size - 1 : 1), *out = malloc(cap ? cap : 1);
    if (!copy || !out)
        abort();
    memcpy(copy, data + 1, size - 1);
    size_t dl = 0;
    int32_t rc = gpuocc_lz4_block_decompress(copy, size - 1, out, cap, &dl);
    if (rc == GPUOCC_OK && dl > cap)
        abort();
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_FORMAT && rc != GPUOCC_ERR_TRUNCATED && rc != GPUOCC_ERR_BUFFER)
        abort();
    free(copy);
    free(out);
    return 0;
}
