/* Fuzz target: the ptxas report parser must never crash or read outside its input; every capacity gives
   the same records (a few, held on the reader's stack, or many, past it), and a failure writes nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

#define MANY 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a private copy, so reading one byte past the input is caught by ASan */
    char *copy = malloc(size ? size : 1);
    gpuocc_compiled_kernel *many = malloc(MANY * sizeof *many);
    if (!copy || !many) {
        free(copy);
        free(many);
        return 0;
    }
    memcpy(copy, data, size);
    gpuocc_compiled_kernel ks[4];
    memset(ks, 0xA5, sizeof ks);
    memset(many, 0xA5, MANY * sizeof *many);
    int32_t count = -7, line = -7, count_many = -7, line_many = -7;
    int32_t rc = gpuocc_ptxas_parse(copy, size, ks, 4, &count, &line);
    int32_t rc_many = gpuocc_ptxas_parse(copy, size, many, MANY, &count_many, &line_many);
    if ((rc == GPUOCC_ERR_BUFFER ? GPUOCC_OK : rc) != (rc_many == GPUOCC_ERR_BUFFER ? GPUOCC_OK : rc_many) ||
        (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER && line != line_many))
        abort();
    if (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER) {
        if (count != count_many)
            abort();
        for (int32_t i = 0; i < count && i < MANY; i++)
            if (many[i].name_offset + many[i].name_length > size || many[i].short_offset + many[i].short_length > size ||
                (many[i].arch_variant != 0 && many[i].arch_variant != 'a' && many[i].arch_variant != 'f') ||
                (i < 4 && memcmp(&ks[i], &many[i], sizeof ks[i]) != 0))
                abort();
    } else {
        /* nothing written on failure */
        const unsigned char *a = (const unsigned char *)ks, *b = (const unsigned char *)many;
        for (size_t i = 0; i < sizeof ks; i++)
            if (a[i] != 0xA5)
                abort();
        for (size_t i = 0; i < MANY * sizeof *many; i++)
            if (b[i] != 0xA5)
                abort();
        if (count != -7 || count_many != -7)
            abort();
    }
    free(many);
    free(copy);
    return 0;
}
