/* Fuzz target: the zstd decoder must never crash, read outside its input or write outside its output. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/decode/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* buffers exactly as large as said, so ASan catches a byte too far on either side; the output and
       the workspace are allocated once (large allocations each run would dominate the fuzzer's time) */
    enum { OUT_CAP = 1 << 20 };
    static uint8_t *out;
    static void *w;
    size_t wn = gpuocc_zstd_workspace_bytes();
    if (!out && (!(out = malloc(OUT_CAP)) || !(w = malloc(wn))))
        abort();
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        abort();
    memcpy(copy, data, size);
    size_t dl = 0, used = 0;
    int32_t rc = gpuocc_zstd_decompress(copy, size, out, OUT_CAP, w, wn, &dl, &used);
    if (rc == GPUOCC_OK && (dl > OUT_CAP || used > size))
        abort();
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_FORMAT && rc != GPUOCC_ERR_TRUNCATED && rc != GPUOCC_ERR_BUFFER &&
        rc != GPUOCC_ERR_UNSUPPORTED)
        abort();
    free(copy);
    return 0;
}
