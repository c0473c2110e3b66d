/* Size-versioned structs: loading, storing and viewing a caller's struct; the kernel's defaults and field
   checks (the device's are its vendor's). */
#include "structs.h"

#include <stdbool.h>
#include <string.h>

/* The released (0.1.0) layouts are prefixes of the current ones, and their fields stay where they were. */
_Static_assert(offsetof(gpuocc_device, xves_per_xecore) == GPUOCC_DEVICE_SIZE_MIN, "gpuocc_device 0.1.0 layout is a prefix");
_Static_assert(offsetof(gpuocc_device, smem_per_sm_bytes) == 64, "gpuocc_device layout 0.1.0 is frozen");
_Static_assert(offsetof(gpuocc_device, carveouts_kib) == 104, "gpuocc_device layout 0.1.0 is frozen");
_Static_assert(offsetof(gpuocc_device, simds_per_cu) == 168, "gpuocc_device AMD fields sit in the 0.1.0 tail");
_Static_assert(offsetof(gpuocc_device, reserved) == 224, "gpuocc_device layout 0.1.0 is frozen");
_Static_assert(offsetof(gpuocc_device, virtual_resources_per_sm) == GPUOCC_DEVICE_INTEL_END, "gpuocc_device Intel tail");
_Static_assert(sizeof(gpuocc_device) == 400, "gpuocc_device layout 1.0");
_Static_assert(offsetof(gpuocc_kernel, sub_group) == GPUOCC_KERNEL_SIZE_MIN, "gpuocc_kernel 0.1.0 layout is a prefix");
_Static_assert(offsetof(gpuocc_kernel, smem_dynamic_max_bytes) == 40, "gpuocc_kernel layout 0.1.0 is frozen");
_Static_assert(offsetof(gpuocc_kernel, agprs) == 52, "gpuocc_kernel AMD fields sit in the 0.1.0 tail");
_Static_assert(offsetof(gpuocc_kernel, reserved) == 80, "gpuocc_kernel layout 0.1.0 is frozen");
_Static_assert(sizeof(gpuocc_kernel) == 128, "gpuocc_kernel layout 1.0");
_Static_assert(offsetof(gpuocc_result, workgroups_per_gpu) == GPUOCC_RESULT_SIZE_MIN, "gpuocc_result 0.1.0 layout is a prefix");
_Static_assert(offsetof(gpuocc_result, occupancy) == 24, "gpuocc_result layout 0.1.0 is frozen");
_Static_assert(offsetof(gpuocc_result, smem_per_block_bytes) == 56, "gpuocc_result layout 0.1.0 is frozen");
_Static_assert(offsetof(gpuocc_result, model) == 72, "gpuocc_result fields sit in the 0.1.0 tail");
_Static_assert(offsetof(gpuocc_result, reserved) == 88, "gpuocc_result layout 0.1.0 is frozen");
_Static_assert(sizeof(gpuocc_result) == 136, "gpuocc_result layout 1.0");
_Static_assert(sizeof(gpuocc_compiled_kernel) == 144, "gpuocc_compiled_kernel layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_compiled_kernel, max_threads_per_block) == 96, "gpuocc_compiled_kernel layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_compiled_kernel, arch_variant) == 124, "gpuocc_compiled_kernel: arch_variant is 1.0's reserved0");

static uint32_t declared_size(const void *p)
{
    uint32_t size;
    memcpy(&size, p, sizeof size);
    return size;
}

int32_t gpuocc_struct_load(void *dst, size_t known_size, const void *src, size_t min_size)
{
    if (!src)
        return GPUOCC_ERR_NULL;
    uint32_t size = declared_size(src);
    if (!gpuocc_struct_size_ok(size, min_size, known_size))
        return GPUOCC_ERR_STRUCT_SIZE;
    const unsigned char *bytes = (const unsigned char *)src;
    for (size_t i = known_size; i < size; i++)
        if (bytes[i] != 0)
            return GPUOCC_ERR_RESERVED;
    memset(dst, 0, known_size);
    memcpy(dst, src, size < known_size ? size : known_size);
    /* the copy is the current layout, whatever the caller's was */
    uint32_t current = (uint32_t)known_size;
    memcpy(dst, &current, sizeof current);
    return GPUOCC_OK;
}

int32_t gpuocc_struct_store(void *dst, size_t min_size, const void *src, size_t known_size)
{
    if (!dst)
        return GPUOCC_ERR_NULL;
    return gpuocc_struct_store_sized(dst, declared_size(dst), min_size, src, known_size);
}

int32_t gpuocc_struct_store_sized(void *dst, uint32_t size, size_t min_size, const void *src, size_t known_size)
{
    if (!gpuocc_struct_size_ok(size, min_size, known_size))
        return GPUOCC_ERR_STRUCT_SIZE;
    /* the caller's size field is kept; everything we know past it is written */
    size_t n = size < known_size ? size : known_size;
    memcpy((unsigned char *)dst + sizeof size, (const unsigned char *)src + sizeof size, n - sizeof size);
    if (size > known_size)
        memset((unsigned char *)dst + known_size, 0, size - known_size);
    return GPUOCC_OK;
}

static bool all_zero(const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (words[i] != 0)
            return false;
    return true;
}

bool gpuocc_device_zero_between(const gpuocc_device *d, size_t from, size_t to)
{
    const unsigned char *bytes = (const unsigned char *)d;
    unsigned char any = 0;
    for (size_t i = from; i < to; i++)
        any |= bytes[i];
    return any == 0;
}

bool gpuocc_device_zero_from(const gpuocc_device *d, size_t offset)
{
    return gpuocc_device_zero_between(d, offset, sizeof *d);
}

bool gpuocc_device_reserved_zero(const gpuocc_device *d)
{
    return d->reserved0 == 0 && d->reserved1 == 0 && d->reserved2 == 0 &&
           all_zero(d->reserved, sizeof d->reserved / sizeof d->reserved[0]);
}

/* int, not bool: combined with `&` below, and clang warns on `&` of bools. */
static int field_in_range(int64_t v, int64_t lo, int64_t hi)
{
    return (v >= lo) & (v <= hi);
}

/* No copy on the common path. */
const void *gpuocc_struct_view(const void *src, size_t known_size, size_t min_size, void *scratch, int32_t *rc)
{
    if (!src) {
        *rc = GPUOCC_ERR_NULL;
        return NULL;
    }
    uint32_t size = declared_size(src);
    if (size < known_size || size > GPUOCC_STRUCT_SIZE_MAX) {
        *rc = gpuocc_struct_load(scratch, known_size, src, min_size);
        return *rc ? NULL : scratch;
    }
    const unsigned char *bytes = (const unsigned char *)src;
    for (size_t i = known_size; i < size; i++)
        if (bytes[i] != 0) {
            *rc = GPUOCC_ERR_RESERVED;
            return NULL;
        }
    *rc = GPUOCC_OK;
    return src;
}

int32_t gpuocc_kernel_init(gpuocc_kernel *k)
{
    if (!k)
        return GPUOCC_ERR_NULL;
    memset(k, 0, sizeof *k);
    k->size = sizeof *k;
    k->threads_per_block = 1;
    k->barriers = 1;
    k->carveout_percent = GPUOCC_CARVEOUT_DEFAULT;
    /* Opt-in on, as in the CLI and Python (since 1.0.0): a kernel that asks for more than 48 KiB has raised
       its limit, or it could not launch at all. */
    k->smem_optin = 1;
    k->smem_dynamic_max_bytes = -1;
    return GPUOCC_OK;
}

int32_t gpuocc_kernel_load(gpuocc_kernel *local, const gpuocc_kernel *kernel)
{
    int32_t rc = gpuocc_struct_load(local, sizeof *local, kernel, GPUOCC_KERNEL_SIZE_MIN);
    return rc ? rc : gpuocc_kernel_check(local);
}

int32_t gpuocc_kernel_check(const gpuocc_kernel *k)
{
    if (k->reserved0 != 0 || k->reserved2 != 0 || !all_zero(k->reserved, sizeof k->reserved / sizeof k->reserved[0]))
        return GPUOCC_ERR_RESERVED;
    if (k->threads_per_block < 1)
        return GPUOCC_ERR_THREADS;
    if (k->regs_per_thread < 0)
        return GPUOCC_ERR_REGISTERS;
    if (k->barriers < 0)
        return GPUOCC_ERR_BARRIERS;
    if (k->smem_static_bytes < 0 || k->smem_dynamic_bytes < 0 || k->smem_dynamic_max_bytes < -1)
        return GPUOCC_ERR_SMEM;
    if (k->carveout_percent < -1 || k->carveout_percent > 100)
        return GPUOCC_ERR_CARVEOUT;
    if ((k->smem_optin != 0 && k->smem_optin != 1) || k->max_threads_per_block < 0)
        return GPUOCC_ERR_ARGUMENT;
    if (k->agprs < 0 || k->sgprs < 0)
        return GPUOCC_ERR_REGISTERS;
    if ((k->wave_size != 0 && k->wave_size != 32 && k->wave_size != 64) || (k->cu_mode != 0 && k->cu_mode != 1) ||
        k->model < GPUOCC_MODEL_DEFAULT || k->model > GPUOCC_MODEL_LLVM19 || k->rocm_version < 0 ||
        k->rocm_version > 100000)
        return GPUOCC_ERR_ARGUMENT;
    if (!gpuocc_compiler_inputs_ok(k))
        return GPUOCC_ERR_ARGUMENT;
    if ((k->sub_group != 0 && k->sub_group != 8 && k->sub_group != 16 && k->sub_group != 32) || k->grf < 0 ||
        k->grf > GPUOCC_GRF_MAX)
        return GPUOCC_ERR_ARGUMENT;
    if (k->virtual_resources < 0)
        return GPUOCC_ERR_ARGUMENT;
    if (!gpuocc_dvgpr_ok(k->dvgpr) || !gpuocc_tmem_columns_ok(k->tmem_columns))
        return GPUOCC_ERR_ARGUMENT;
    return GPUOCC_OK;
}

const gpuocc_kernel *gpuocc_kernel_view(const gpuocc_kernel *kernel, gpuocc_kernel *scratch, int32_t *rc)
{
    const gpuocc_kernel *k =
        (const gpuocc_kernel *)gpuocc_struct_view(kernel, sizeof *kernel, GPUOCC_KERNEL_SIZE_MIN, scratch, rc);
    if (!k)
        return NULL;
    bool ok = (k->reserved0 == 0) & (k->reserved[0] == 0) & (k->reserved2 == 0) & gpuocc_dvgpr_ok(k->dvgpr) &
              gpuocc_tmem_columns_ok(k->tmem_columns) &
              (k->virtual_resources >= 0) &
              (k->agprs >= 0) & (k->sgprs >= 0) &
              ((k->wave_size == 0) | (k->wave_size == 32) | (k->wave_size == 64)) & field_in_range(k->cu_mode, 0, 1) &
              field_in_range(k->model, GPUOCC_MODEL_DEFAULT, GPUOCC_MODEL_LLVM19) & gpuocc_compiler_inputs_ok(k) &
              field_in_range(k->rocm_version, 0, 100000) &
              ((k->sub_group == 0) | (k->sub_group == 8) | (k->sub_group == 16) | (k->sub_group == 32)) &
              field_in_range(k->grf, 0, GPUOCC_GRF_MAX) &
              (k->threads_per_block >= 1) & (k->regs_per_thread >= 0) & (k->barriers >= 0) &
              (k->smem_static_bytes >= 0) & (k->smem_dynamic_bytes >= 0) & (k->smem_dynamic_max_bytes >= -1) &
              field_in_range(k->carveout_percent, -1, 100) & field_in_range(k->smem_optin, 0, 1) &
              (k->max_threads_per_block >= 0);
    if (!ok) {
        *rc = gpuocc_kernel_check(k);
        return NULL;
    }
    return k;
}
