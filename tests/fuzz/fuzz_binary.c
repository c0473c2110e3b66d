/* Fuzz target: the entry-by-entry binary reader (gpuocc_binary_scan, gpuocc_binary_entry_info,
   gpuocc_binary_read_entry), including the scan of a host ELF's sections for container magics: it must
   never crash, read outside its input, write outside the workspace, or disagree with itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

#define WORKSPACE (1u << 20) /* entries claiming more are skipped, as the CLI's ceiling would */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1), *workspace = malloc(WORKSPACE);
    if (!copy || !workspace) {
        free(copy);
        free(workspace);
        return 0;
    }
    memcpy(copy, data, size);
    gpuocc_binary_summary s = {.size = sizeof s};
    if (gpuocc_binary_scan(copy, size, &s) == GPUOCC_OK) {
        if (s.containers < 0 || s.skipped_candidates < 0 || s.uncompiled_entries < 0)
            abort();
        for (int32_t e = 0; e < s.entries && e < 64; e++) {
            gpuocc_binary_entry info = {.size = sizeof info};
            if (gpuocc_binary_entry_info(copy, size, e, &info, &s) != GPUOCC_OK)
                abort(); /* the scan counted it */
            if (info.entry != e || info.offset > size || info.stored_bytes > size - info.offset ||
                info.section_name_offset + info.section_name_length > size ||
                info.fast_workspace_bytes < info.workspace_bytes)
                abort();
            if (info.fast_workspace_bytes > WORKSPACE)
                continue;
            gpuocc_binary_kernel ks[8];
            gpuocc_binary_kernel_init(&ks[0]);
            int32_t count = 0;
            int32_t rc = gpuocc_binary_read_entry(copy, size, e, workspace, (size_t)info.fast_workspace_bytes, ks, 8,
                                                  &count, &s);
            if (rc > 0 || rc == GPUOCC_ERR_ARGUMENT)
                abort();
            for (int32_t i = 0; (rc == GPUOCC_OK || rc == GPUOCC_ERR_BUFFER) && i < count && i < 8; i++) {
                uint64_t limit = ks[i].name_buffer == GPUOCC_BINARY_NAME_INPUT ? size : info.fast_workspace_bytes;
                if (ks[i].name_offset + ks[i].name_length > limit || ks[i].smem_bytes < -1)
                    abort();
                const gpuocc_binary_kernel *z = &ks[i]; /* an Intel zebin's kernel: the reader's own rules */
                if (z->vendor == GPUOCC_VENDOR_INTEL &&
                    (info.container != GPUOCC_BINARY_ENTRY_ZEBIN || z->name_length == 0 || z->grf <= 0 ||
                     (z->sub_group != 1 && z->sub_group != 8 && z->sub_group != 16 && z->sub_group != 32) ||
                     z->slm_bytes < 0 || z->slm_bytes > INT32_MAX || z->barriers < 0 || z->smem_bytes != z->slm_bytes ||
                     z->scratch_per_thread_bytes < 0 || z->private_bytes < 0 || z->spill_bytes < -1 ||
                     z->max_threads_per_block < 0))
                    abort();
            }
        }
    }
    free(copy);
    free(workspace);
    return 0;
}
