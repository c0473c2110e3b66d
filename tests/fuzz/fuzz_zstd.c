/* Fuzz target: the zstd decoder must never crash, read outside its input or write outside its output. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/decode/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* private copies, exactly as large as said, so ASan catches a byte too far on either side */
    enum { OUT_CAP = 1 << 20 };
    uint8_t *copy = malloc(size ? size : 1), *out = malloc(OUT_CAP);
    size_t wn = gpuocc_zstd_workspace_bytes();
    void *w = malloc(wn);
    if (!copy || !out || !w)
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
    free(out);
    free(w);
    return 0;
}
