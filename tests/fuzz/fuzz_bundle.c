/* Fuzz target: the binary reader on HIP offload bundles, compressed bundles (CCOB) and AMDGPU code objects
   (lib/readers/bundle.c, amdgpu.c, msgpack.c through gpuocc_binary_scan / gpuocc_binary_read_entry) must
   never crash, read outside its input or write outside the workspace and records; names and targets of
   the records it fills lie inside the buffer they name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

enum { RECORDS = 8, WORKSPACE_MAX = 4 << 20 };

static void check_record(const gpuocc_binary_kernel *k, size_t input, size_t workspace)
{
    size_t limit = k->name_buffer == GPUOCC_BINARY_NAME_INPUT ? input : workspace;
    if (k->name_offset > limit || k->name_length > limit - k->name_offset || k->short_offset < k->name_offset ||
        k->short_offset + k->short_length > k->name_offset + k->name_length)
        abort();
    if (k->vendor == GPUOCC_VENDOR_AMD &&
        (k->target_offset > limit || k->target_length > limit - k->target_offset || k->vgprs < -1 ||
         k->agprs < -1 || k->sgprs < -1 || k->lds_bytes < -1 || k->scratch_bytes < -1))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1); /* exactly `size` bytes: ASan sees a read past them */
    if (!copy)
        abort();
    memcpy(copy, data, size);
    gpuocc_binary_summary s = {.size = sizeof s};
    int32_t rc = gpuocc_binary_scan(copy, size, &s);
    if (rc > 0 || rc < GPUOCC_ERR_COMPRESSED)
        abort();
    if (rc == GPUOCC_OK && s.workspace_bytes <= WORKSPACE_MAX) {
        uint8_t *workspace = s.workspace_bytes ? malloc((size_t)s.workspace_bytes) : NULL;
        gpuocc_binary_kernel ks[RECORDS];
        gpuocc_binary_kernel_init(&ks[0]);
        for (int32_t e = 0; e < s.entries && e < 64; e++) {
            int32_t count = 0;
            rc = gpuocc_binary_read_entry(copy, size, e, workspace, (size_t)s.workspace_bytes, ks, RECORDS, &count, &s);
            if (rc > 0 || rc < GPUOCC_ERR_COMPRESSED || rc == GPUOCC_ERR_ARGUMENT)
                abort();
            for (int32_t i = 0; (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER) && i < count && i < RECORDS; i++)
                check_record(&ks[i], size, (size_t)s.workspace_bytes);
        }
        free(workspace);
    }
    free(copy);
    return 0;
}
