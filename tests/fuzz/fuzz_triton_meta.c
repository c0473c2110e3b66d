/* Fuzz target: the Triton json reader of gpuocc binary DIR (tools/triton_meta.c) must never crash or read outside
   its input; what it accepts is within the ranges it promises, and a rejection says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "triton_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* a private copy: one byte past the input is caught by ASan */
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    struct triton_meta m;
    char why[160] = "";
    if (triton_meta_parse(copy, size, &m, why, sizeof why)) {
        if (m.num_warps < 1 || m.num_warps > 1024 || m.warp_size < 0 || m.warp_size > 1024 || m.num_ctas < 1 ||
            m.shared < 0 || m.tmem_size < 0 || memchr(m.name, 0, sizeof m.name) == NULL ||
            memchr(m.backend, 0, sizeof m.backend) == NULL)
            abort();
    } else if (why[0] == 0 || memchr(why, 0, sizeof why) == NULL) {
        abort();
    }
    free(copy);
    return 0;
}
