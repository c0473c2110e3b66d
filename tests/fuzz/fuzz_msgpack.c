/* Fuzz target: the MessagePack reader (lib/readers/msgpack.c) must never read outside its input, and a
   document it accepts must read the same value by value as it checks whole. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/readers/msgpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    /* the first byte picks the depth limit; the rest is the document, in a buffer of exactly its size */
    uint32_t depth = data[0] % 40;
    size_t n = size - 1;
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy)
        abort();
    memcpy(copy, data + 1, n);
    int32_t rc = gpuocc_mp_check(copy, n, depth);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_TRUNCATED && rc != GPUOCC_ERR_FORMAT && rc != GPUOCC_ERR_UNSUPPORTED)
        abort();
    /* value by value: every head read moves forward, and a well-formed document ends at its end */
    struct gpuocc_mp r = {copy, n, 0, depth};
    struct gpuocc_mp_value v;
    int32_t step = GPUOCC_OK;
    while (r.pos < n) {
        size_t before = r.pos;
        /* alternate reading heads and skipping whole values, as the metadata reader does */
        step = (r.pos & 1) ? gpuocc_mp_skip(&r) : gpuocc_mp_read(&r, &v);
        if (step != GPUOCC_OK) {
            if (r.pos != before)
                abort(); /* a failed read moved */
            break;
        }
        if (r.pos <= before || r.pos > n)
            abort();
        if ((v.type == GPUOCC_MP_STR || v.type == GPUOCC_MP_BIN || v.type == GPUOCC_MP_EXT) &&
            (v.data < copy || v.data + v.length > copy + n))
            abort();
        v.type = 0;
    }
    if (rc == GPUOCC_OK && depth == 0 && step == GPUOCC_ERR_FORMAT)
        abort(); /* the whole document checked, yet one of its values is malformed */
    free(copy);
    return 0;
}
