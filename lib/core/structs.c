/* Size-versioned structs: loading, storing, defaults and validation of devices and kernels. */
#include "internal.h"

_Static_assert(sizeof(gpuocc_device) == 232, "gpuocc_device layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_device, smem_per_sm_bytes) == 64, "gpuocc_device layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_device, carveouts_kib) == 104, "gpuocc_device layout 0.1 is frozen");
_Static_assert(sizeof(gpuocc_kernel) == 88, "gpuocc_kernel layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_kernel, smem_dynamic_max_bytes) == 40, "gpuocc_kernel layout 0.1 is frozen");
_Static_assert(sizeof(gpuocc_result) == 104, "gpuocc_result layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_result, occupancy) == 24, "gpuocc_result layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_result, smem_per_block_bytes) == 56, "gpuocc_result layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_device, simds_per_cu) == 168, "gpuocc_device 0.2 AMD fields sit in the 0.1 tail");
_Static_assert(offsetof(gpuocc_device, reserved) == 224, "gpuocc_device layout 0.2 is frozen");
_Static_assert(offsetof(gpuocc_kernel, agprs) == 52, "gpuocc_kernel 0.2 AMD fields sit in the 0.1 tail");
_Static_assert(offsetof(gpuocc_kernel, reserved) == 80, "gpuocc_kernel layout 0.2 is frozen");
_Static_assert(offsetof(gpuocc_result, model) == 72, "gpuocc_result 0.2 fields sit in the 0.1 tail");
_Static_assert(offsetof(gpuocc_result, reserved) == 88, "gpuocc_result layout 0.2 is frozen");
_Static_assert(sizeof(gpuocc_compiled_kernel) == 144, "gpuocc_compiled_kernel layout 0.1 is frozen");
_Static_assert(offsetof(gpuocc_compiled_kernel, max_threads_per_block) == 96, "gpuocc_compiled_kernel layout 0.1 is frozen");

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
    if (size < min_size || size > GPUOCC_STRUCT_SIZE_MAX)
        return GPUOCC_ERR_STRUCT_SIZE;
    const unsigned char *bytes = (const unsigned char *)src;
    for (size_t i = known_size; i < size; i++)
        if (bytes[i] != 0)
            return GPUOCC_ERR_RESERVED;
    memset(dst, 0, known_size);
    memcpy(dst, src, size < known_size ? size : known_size);
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
    if (size < min_size || size > GPUOCC_STRUCT_SIZE_MAX)
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

int32_t gpuocc_device_init(gpuocc_device *dev)
{
    if (!dev)
        return GPUOCC_ERR_NULL;
    memset(dev, 0, sizeof *dev);
    dev->size = sizeof *dev;
    dev->vendor = GPUOCC_VENDOR_NVIDIA;
    return GPUOCC_OK;
}

/* Bounds keep every product in the rules inside int64 and every count inside int32. */
#define SMALL_MAX (1 << 20)
#define SMEM_MAX ((int64_t)1 << 40)

/* int, not bool: combined with `&` below, and clang warns on `&` of bools. */
static int in_range(int64_t v, int64_t lo, int64_t hi)
{
    return (v >= lo) & (v <= hi);
}

static int32_t check_device(const gpuocc_device *d)
{
    if (d->reserved0 != 0 || d->reserved1 != 0 || !all_zero(d->reserved, sizeof d->reserved / sizeof d->reserved[0]))
        return GPUOCC_ERR_RESERVED;
    if (d->vendor == GPUOCC_VENDOR_AMD)
        return gpuocc_amd_check_device(d);
    if (d->vendor != GPUOCC_VENDOR_NVIDIA)
        return GPUOCC_ERR_VENDOR;
    if (d->simds_per_cu || d->waves_per_simd || d->runtime_waves_per_simd || d->vgprs_per_simd ||
        d->vgpr_granule || d->runtime_vgpr_granule || d->runtime_vgprs_legacy ||
        d->runtime_vgpr_granule_legacy || d->agpr_file || d->sgprs_per_simd || d->cus_per_wgp || d->wave_sizes)
        return GPUOCC_ERR_DEVICE;
    bool ok = in_range(d->cc_major, 0, 1000) && in_range(d->cc_minor, 0, 1000) &&
              in_range(d->sm_count, 0, SMALL_MAX) && in_range(d->warp_size, 1, 1024) &&
              in_range(d->max_threads_per_block, 1, SMALL_MAX) &&
              in_range(d->max_threads_per_sm, d->warp_size, SMALL_MAX) &&
              in_range(d->max_blocks_per_sm, 1, SMALL_MAX) && in_range(d->regs_per_sm, 1, INT32_MAX) &&
              in_range(d->regs_per_block, 1, INT32_MAX) && in_range(d->regs_per_thread_max, 1, SMALL_MAX) &&
              in_range(d->reg_alloc_unit, 1, SMALL_MAX) && in_range(d->sub_partitions, 1, 64) &&
              in_range(d->reg_compat_sub_partitions, 0, 64) && in_range(d->barriers_per_sm, 0, SMALL_MAX) &&
              in_range(d->smem_per_sm_bytes, 0, SMEM_MAX) && in_range(d->smem_per_block_bytes, 0, SMEM_MAX) &&
              in_range(d->smem_per_block_optin_bytes, d->smem_per_block_bytes, SMEM_MAX) &&
              in_range(d->smem_reserved_per_block_bytes, 0, SMEM_MAX) &&
              in_range(d->smem_alloc_unit_bytes, 1, SMALL_MAX) &&
              in_range(d->carveout_count, 0, GPUOCC_MAX_CARVEOUTS);
    if (!ok)
        return GPUOCC_ERR_DEVICE;
    for (int32_t i = 0; i < d->carveout_count; i++) {
        int32_t c = d->carveouts_kib[i];
        if (!in_range(c, 0, SMEM_MAX / 1024) || (i > 0 && c <= d->carveouts_kib[i - 1]))
            return GPUOCC_ERR_DEVICE;
    }
    for (int32_t i = d->carveout_count; i < GPUOCC_MAX_CARVEOUTS; i++)
        if (d->carveouts_kib[i] != 0)
            return GPUOCC_ERR_DEVICE;
    if (d->carveout_count > 0) {
        /* the largest carveout must hold the whole per-SM capacity and the largest block */
        int64_t top = (int64_t)d->carveouts_kib[d->carveout_count - 1] * 1024;
        if (top < d->smem_per_sm_bytes ||
            top < d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes)
            return GPUOCC_ERR_DEVICE;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_device_load(gpuocc_device *local, const gpuocc_device *dev)
{
    int32_t rc = gpuocc_struct_load(local, sizeof *local, dev, sizeof *local);
    return rc ? rc : check_device(local);
}

/* check_device's answer (valid or not) in one branch-free pass; the first failing check is named by
   check_device itself when this says no.  With GCC or Clang the checks run four fields at a time. */
#if GPUOCC_VECTORS
typedef gpuocc_u32x4 u32x4;
typedef gpuocc_i32x4 i32x4;

static inline u32x4 load4(const void *p)
{
    return (u32x4)gpuocc_load_i32x4(p);
}

/* Lanes of v outside [lo, hi] (unsigned wrap-around turns both bounds into one compare). */
static inline i32x4 outside(u32x4 v, u32x4 lo, u32x4 hi)
{
    return (i32x4)(v - lo > hi - lo);
}

bool gpuocc_device_fine(const gpuocc_device *d)
{
    const unsigned char *b = (const unsigned char *)d;
    /* size, vendor, cc_major, cc_minor / sm_count, warp_size, max_threads_per_block, max_threads_per_sm /
       max_blocks_per_sm, regs_per_sm, regs_per_block, regs_per_thread_max / reg_alloc_unit,
       sub_partitions, reg_compat_sub_partitions, barriers_per_sm */
    i32x4 bad = outside(load4(b), (u32x4){0, GPUOCC_VENDOR_NVIDIA, 0, 0},
                        (u32x4){UINT32_MAX, GPUOCC_VENDOR_NVIDIA, 1000, 1000});
    bad |= outside(load4(b + 16), (u32x4){0, 1, 1, 1}, (u32x4){SMALL_MAX, 1024, SMALL_MAX, SMALL_MAX});
    bad |= outside(load4(b + 32), (u32x4){1, 1, 1, 1}, (u32x4){SMALL_MAX, INT32_MAX, INT32_MAX, SMALL_MAX});
    bad |= outside(load4(b + 48), (u32x4){1, 1, 0, 0}, (u32x4){SMALL_MAX, 64, 64, SMALL_MAX});
    /* carveouts: used entries strictly ascending within [0, SMEM_MAX / 1024], unused ones zero */
    const i32x4 count = {d->carveout_count, d->carveout_count, d->carveout_count, d->carveout_count};
    for (int32_t j = 0; j < GPUOCC_MAX_CARVEOUTS; j += 4) {
        u32x4 c = load4(&d->carveouts_kib[j]);
        /* the entry before each lane (for lane 0 of the first group, carveout_count: masked below) */
        i32x4 previous = (i32x4)load4((const unsigned char *)&d->carveouts_kib[j] - sizeof(int32_t));
        i32x4 index = {j, j + 1, j + 2, j + 3};
        i32x4 used = index < count;
        i32x4 wrong_used = (i32x4)(c > (u32x4){0, 0, 0, 0} + (uint32_t)(SMEM_MAX / 1024)) |
                           (((i32x4)c <= previous) & (index > 0));
        bad |= (used & wrong_used) | (~used & (i32x4)(c != (u32x4){0, 0, 0, 0}));
    }
    /* the AMD fields and the reserved words (the 0.1 tail): all zero for NVIDIA */
    const unsigned char *tail = (const unsigned char *)&d->simds_per_cu;
    u32x4 reserved = load4(tail) | load4(tail + 16) | load4(tail + 32) | load4(tail + 48);
    bad |= (i32x4)(reserved != (u32x4){0, 0, 0, 0});
    uint64_t lanes[2];
    memcpy(lanes, &bad, sizeof lanes);
    bool ok = ((lanes[0] | lanes[1]) == 0) & (d->max_threads_per_sm >= d->warp_size) &
              ((uint64_t)d->smem_per_sm_bytes <= SMEM_MAX) & ((uint64_t)d->smem_per_block_bytes <= SMEM_MAX) &
              ((uint64_t)d->smem_per_block_optin_bytes <= SMEM_MAX) &
              (d->smem_per_block_optin_bytes >= d->smem_per_block_bytes) &
              ((uint64_t)d->smem_reserved_per_block_bytes <= SMEM_MAX) &
              ((uint32_t)d->smem_alloc_unit_bytes - 1 < SMALL_MAX) &
              ((uint32_t)d->carveout_count <= GPUOCC_MAX_CARVEOUTS);
    if (!ok)
        return false;
#else
bool gpuocc_device_fine(const gpuocc_device *d)
{
    /* the AMD fields and the reserved words (the 0.1 tail): all zero for NVIDIA */
    unsigned reserved = 0;
    const unsigned char *tail = (const unsigned char *)&d->simds_per_cu;
    for (size_t i = 0; i < sizeof *d - offsetof(gpuocc_device, simds_per_cu); i++)
        reserved |= tail[i];
    bool ok = (reserved == 0) & (d->vendor == GPUOCC_VENDOR_NVIDIA) & in_range(d->cc_major, 0, 1000) &
              in_range(d->cc_minor, 0, 1000) & in_range(d->sm_count, 0, SMALL_MAX) &
              in_range(d->warp_size, 1, 1024) & in_range(d->max_threads_per_block, 1, SMALL_MAX) &
              in_range(d->max_threads_per_sm, d->warp_size, SMALL_MAX) &
              in_range(d->max_blocks_per_sm, 1, SMALL_MAX) & in_range(d->regs_per_sm, 1, INT32_MAX) &
              in_range(d->regs_per_block, 1, INT32_MAX) & in_range(d->regs_per_thread_max, 1, SMALL_MAX) &
              in_range(d->reg_alloc_unit, 1, SMALL_MAX) & in_range(d->sub_partitions, 1, 64) &
              in_range(d->reg_compat_sub_partitions, 0, 64) & in_range(d->barriers_per_sm, 0, SMALL_MAX) &
              in_range(d->smem_per_sm_bytes, 0, SMEM_MAX) & in_range(d->smem_per_block_bytes, 0, SMEM_MAX) &
              in_range(d->smem_per_block_optin_bytes, d->smem_per_block_bytes, SMEM_MAX) &
              in_range(d->smem_reserved_per_block_bytes, 0, SMEM_MAX) &
              in_range(d->smem_alloc_unit_bytes, 1, SMALL_MAX) &
              in_range(d->carveout_count, 0, GPUOCC_MAX_CARVEOUTS);
    if (!ok)
        return false;
    /* used entries ascending and in range, the rest zero */
    int64_t previous = -1;
    bool bad = false;
    for (int32_t i = 0; i < GPUOCC_MAX_CARVEOUTS; i++) {
        int64_t c = d->carveouts_kib[i];
        bad |= i < d->carveout_count ? (c <= previous) | (c > SMEM_MAX / 1024) : c != 0;
        previous = c;
    }
    if (bad)
        return false;
#endif
    if (d->carveout_count > 0) {
        int64_t top = (int64_t)d->carveouts_kib[d->carveout_count - 1] * 1024;
        return top >= d->smem_per_sm_bytes && top >= d->smem_per_block_optin_bytes + d->smem_reserved_per_block_bytes;
    }
    return true;
}

/* The caller's struct itself when it holds at least the current layout (the tail past it checked
   zero), else a zero-extended copy in `scratch`: no copy on the common path. */
static const void *struct_view(const void *src, size_t known_size, size_t min_size, void *scratch, int32_t *rc)
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

const gpuocc_device *gpuocc_device_view(const gpuocc_device *dev, gpuocc_device *scratch, int32_t *rc)
{
    const gpuocc_device *d = (const gpuocc_device *)struct_view(dev, sizeof *dev, sizeof *dev, scratch, rc);
    if (d && !gpuocc_device_fine(d)) {
        /* the slow path names the failing check, and accepts what the NVIDIA fast path does not know */
        *rc = check_device(d);
        return *rc ? NULL : d;
    }
    return d;
}

int32_t gpuocc_device_validate(const gpuocc_device *dev)
{
    gpuocc_device local;
    return gpuocc_device_load(&local, dev);
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
    /* Opt-in on, as in the CLI and Python (0.2.0): a kernel that asks for more than 48 KiB has raised
       its limit, or it could not launch at all. */
    k->smem_optin = 1;
    k->smem_dynamic_max_bytes = -1;
    return GPUOCC_OK;
}

static int32_t check_kernel(const gpuocc_kernel *k);

int32_t gpuocc_kernel_load(gpuocc_kernel *local, const gpuocc_kernel *kernel)
{
    int32_t rc = gpuocc_struct_load(local, sizeof *local, kernel, sizeof *local);
    return rc ? rc : check_kernel(local);
}

static int32_t check_kernel(const gpuocc_kernel *k)
{
    if (k->reserved0 != 0 || !all_zero(k->reserved, sizeof k->reserved / sizeof k->reserved[0]))
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
        k->model < GPUOCC_MODEL_DEFAULT || k->model > GPUOCC_MODEL_RUNTIME || k->rocm_version < 0 ||
        k->rocm_version > 100000)
        return GPUOCC_ERR_ARGUMENT;
    return GPUOCC_OK;
}

const gpuocc_kernel *gpuocc_kernel_view(const gpuocc_kernel *kernel, gpuocc_kernel *scratch, int32_t *rc)
{
    const gpuocc_kernel *k = (const gpuocc_kernel *)struct_view(kernel, sizeof *kernel, sizeof *kernel, scratch, rc);
    if (!k)
        return NULL;
    bool ok = (k->reserved0 == 0) & (k->reserved[0] == 0) & (k->agprs >= 0) & (k->sgprs >= 0) &
              ((k->wave_size == 0) | (k->wave_size == 32) | (k->wave_size == 64)) & in_range(k->cu_mode, 0, 1) &
              in_range(k->model, GPUOCC_MODEL_DEFAULT, GPUOCC_MODEL_RUNTIME) & in_range(k->rocm_version, 0, 100000) &
              (k->threads_per_block >= 1) & (k->regs_per_thread >= 0) & (k->barriers >= 0) &
              (k->smem_static_bytes >= 0) & (k->smem_dynamic_bytes >= 0) & (k->smem_dynamic_max_bytes >= -1) &
              in_range(k->carveout_percent, -1, 100) & in_range(k->smem_optin, 0, 1) &
              (k->max_threads_per_block >= 0);
    if (!ok) {
        *rc = check_kernel(k);
        return NULL;
    }
    return k;
}

int32_t gpuocc_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k, const gpuocc_kernel *kernel)
{
    int32_t rc = gpuocc_device_load(d, dev);
    if (!rc)
        rc = gpuocc_kernel_load(k, kernel);
    return rc ? rc : gpuocc_pair_check(d, k);
}

const gpuocc_device *gpuocc_nvidia_device_view(const gpuocc_device *dev, gpuocc_device *scratch, int32_t *rc)
{
    const gpuocc_device *d = gpuocc_device_view(dev, scratch, rc);
    if (d && d->vendor != GPUOCC_VENDOR_NVIDIA) {
        *rc = GPUOCC_ERR_VENDOR;
        return NULL;
    }
    return d;
}

int32_t gpuocc_nvidia_device_load(gpuocc_device *local, const gpuocc_device *dev)
{
    int32_t rc = gpuocc_device_load(local, dev);
    return rc ? rc : local->vendor == GPUOCC_VENDOR_NVIDIA ? GPUOCC_OK : GPUOCC_ERR_VENDOR;
}

int32_t gpuocc_nvidia_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k,
                                const gpuocc_kernel *kernel)
{
    int32_t rc = gpuocc_pair_load(d, dev, k, kernel);
    return rc ? rc : d->vendor == GPUOCC_VENDOR_NVIDIA ? GPUOCC_OK : GPUOCC_ERR_VENDOR;
}

int32_t gpuocc_pair_check(const gpuocc_device *d, const gpuocc_kernel *k)
{
    return d->vendor == GPUOCC_VENDOR_AMD ? gpuocc_amd_check_kernel(d, k) : GPUOCC_OK;
}
