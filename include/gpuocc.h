/*
 * gpuocc: exact GPU occupancy, and what it means for performance.
 *
 * One header, C11 and C++, libc only.  Every function is pure and thread-safe: no global mutable state,
 * no allocation, no errno.  Every function returns an int32_t status (GPUOCC_OK or a negative
 * GPUOCC_ERR_* code) and writes its answers through pointers; on failure the outputs are left untouched.
 *
 * Units are in the names: _bytes, _kib, _cycles, _ns, _percent.  "Blocks" are thread blocks (CTAs) per
 * streaming multiprocessor (SM).  The model and the source of every constant are in docs/model.md.
 *
 * Structs passed in or out start with `uint32_t size`, set by the caller to sizeof(struct) (the
 * *_init functions do it).  The library accepts any size from the first shipped layout up; bytes past
 * the layout it knows must be zero, and the reserved fields must be zero.
 */
#ifndef GPUOCC_H
#define GPUOCC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* The single truth for the version; meson.build reads these. @since 0.1.0 */
#define GPUOCC_VERSION_MAJOR 0
#define GPUOCC_VERSION_MINOR 1
#define GPUOCC_VERSION_PATCH 0

/* Symbol visibility.  Define GPUOCC_API yourself (e.g. to nothing, or `static`) when vendoring. */
#ifndef GPUOCC_API
#if defined(_WIN32) && defined(GPUOCC_BUILDING_DLL)
#define GPUOCC_API __declspec(dllexport)
#elif defined(__GNUC__)
#define GPUOCC_API __attribute__((visibility("default")))
#else
#define GPUOCC_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------
 * Status codes.  Fixed values, append-only.  @since 0.1.0
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_OK                 0
#define GPUOCC_ERR_NULL          -1  /* a required pointer argument is NULL */
#define GPUOCC_ERR_STRUCT_SIZE   -2  /* a struct's `size` is smaller than any known layout, or absurd */
#define GPUOCC_ERR_RESERVED      -3  /* a reserved field, or a byte past the known layout, is not zero */
#define GPUOCC_ERR_VENDOR        -4  /* the device's vendor is not one this version models */
#define GPUOCC_ERR_UNKNOWN_DEVICE -5 /* no architecture or product by that name */
#define GPUOCC_ERR_DEVICE        -6  /* a device field is out of range or inconsistent */
#define GPUOCC_ERR_THREADS       -7  /* threads per block is zero or negative */
#define GPUOCC_ERR_REGISTERS     -8  /* registers per thread is negative */
#define GPUOCC_ERR_SMEM          -9  /* a shared-memory size is negative */
#define GPUOCC_ERR_BARRIERS     -10  /* barriers per block is negative */
#define GPUOCC_ERR_CARVEOUT     -11  /* carveout is not -1 (driver default) or 0..100 percent */
#define GPUOCC_ERR_ARGUMENT     -12  /* another argument is out of its documented range */
#define GPUOCC_ERR_UNSATISFIABLE -13 /* an inverse query has no answer (e.g. N blocks can never fit) */
#define GPUOCC_ERR_RESOURCE     -14  /* an unknown GPUOCC_RESOURCE_* identifier */
#define GPUOCC_ERR_SM_COUNT     -15  /* the device has no SM count (a bare architecture); set sm_count */
#define GPUOCC_ERR_NOT_FINITE   -16  /* a floating-point argument is NaN or infinite */
#define GPUOCC_ERR_DOMAIN       -17  /* a floating-point argument is outside its domain (e.g. latency <= 0) */
#define GPUOCC_ERR_OVERFLOW     -18  /* the answer does not fit its output type */
#define GPUOCC_ERR_BUFFER       -19  /* the caller's output array is too small; the count needed is returned */
#define GPUOCC_ERR_PARSE        -20  /* malformed text input; see the line number reported */
#define GPUOCC_ERR_TRUNCATED    -21  /* input ends in the middle of a record or structure */
#define GPUOCC_ERR_FORMAT       -22  /* binary input is not of the expected format (bad magic, bad offsets) */
#define GPUOCC_ERR_UNSUPPORTED  -23  /* valid input of a kind this version does not read (e.g. compressed) */

/* A static, human-readable description of a status code; never NULL.  @since 0.1.0 */
GPUOCC_API const char *gpuocc_strerror(int32_t status);
/* The status code's symbolic name without the prefix ("ok", "threads", ...); never NULL.  @since 0.1.0 */
GPUOCC_API const char *gpuocc_status_name(int32_t status);

/* MAJOR * 10000 + MINOR * 100 + PATCH, and "MAJOR.MINOR.PATCH".  @since 0.1.0 */
GPUOCC_API int32_t gpuocc_version(void);
GPUOCC_API const char *gpuocc_version_string(void);

/* ---------------------------------------------------------------------------------------------------
 * Device description.  @since 0.1.0
 *
 * Every rule the occupancy functions apply is driven by these fields, never by the compute capability,
 * so a device that is not in the table (a future GPU) works once described.  `vendor` selects the
 * family of rules; this version models NVIDIA.  The reserved tail leaves room for other vendors'
 * resources (AMD waves per SIMD, VGPR/SGPR/LDS granules) without changing this layout.
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_VENDOR_NVIDIA 1
#define GPUOCC_MAX_CARVEOUTS 16

typedef struct gpuocc_device {
    uint32_t size;                         /* sizeof(gpuocc_device) */
    uint32_t vendor;                       /* GPUOCC_VENDOR_NVIDIA */
    int32_t cc_major;                      /* compute capability, informative only */
    int32_t cc_minor;
    int32_t sm_count;                      /* SMs on the product; 0 for a bare architecture */
    int32_t warp_size;                     /* threads per warp (32) */
    int32_t max_threads_per_block;         /* 1024 */
    int32_t max_threads_per_sm;            /* resident threads per SM (warp slots x warp_size) */
    int32_t max_blocks_per_sm;             /* resident blocks per SM */
    int32_t regs_per_sm;                   /* 32-bit registers per SM */
    int32_t regs_per_block;                /* registers one block may hold */
    int32_t regs_per_thread_max;           /* the runtime's per-thread check: 255, or 256 from cc 7.0 */
    int32_t reg_alloc_unit;                /* registers are given to a warp in multiples of this (256) */
    int32_t sub_partitions;                /* SM sub-partitions (4; 2 on GP100); the register file is split */
    int32_t reg_compat_sub_partitions;     /* 0, or 4 on GP100: a block must also fit that layout */
    int32_t barriers_per_sm;               /* block barriers per SM; 0 = barriers never limit */
    int64_t smem_per_sm_bytes;             /* largest shared-memory carveout per SM */
    int64_t smem_per_block_bytes;          /* per-block limit without opt-in (48 KiB) */
    int64_t smem_per_block_optin_bytes;    /* per-block limit with opt-in */
    int64_t smem_reserved_per_block_bytes; /* the driver's reserved shared memory per block (1 KiB, cc >= 8) */
    int32_t smem_alloc_unit_bytes;         /* shared memory is given to a block in multiples of this */
    int32_t carveout_count;                /* 0: fixed shared memory; else entries used in carveouts_kib */
    int32_t carveouts_kib[GPUOCC_MAX_CARVEOUTS]; /* supported shared-memory sizes per SM, ascending, KiB */
    uint64_t reserved[8];                  /* zero */
} gpuocc_device;

/* Zero `dev` and set size and vendor (NVIDIA); the other fields are for the caller to fill. */
GPUOCC_API int32_t gpuocc_device_init(gpuocc_device *dev);
/* GPUOCC_OK if every field is in range and consistent, else GPUOCC_ERR_DEVICE (or a struct error). */
GPUOCC_API int32_t gpuocc_device_validate(const gpuocc_device *dev);
/*
 * Fill `dev` (dev->size set by the caller) from the built-in table.  `name` is case-insensitive and may
 * be an architecture ("sm_90", "9.0", "90", "compute_90", "sm_90a") or a product ("H100", "A100",
 * "RTX 4090"; spaces, '-' and '_' are ignored).  GPUOCC_ERR_UNKNOWN_DEVICE if not found.
 */
GPUOCC_API int32_t gpuocc_device_lookup(const char *name, gpuocc_device *dev);

/* The built-in table, for listing: entries 0 .. gpuocc_catalog_count() - 1. */
#define GPUOCC_CATALOG_ARCH    1 /* a compute capability: sm_count is 0 */
#define GPUOCC_CATALOG_PRODUCT 2 /* a named product: sm_count is set */
GPUOCC_API int32_t gpuocc_catalog_count(void);
/* Kind of entry `index` (GPUOCC_CATALOG_*), or GPUOCC_ERR_ARGUMENT when out of range. */
GPUOCC_API int32_t gpuocc_catalog_kind(int32_t index);
/* Name, and the sources of its values; "" when out of range, never NULL. */
GPUOCC_API const char *gpuocc_catalog_name(int32_t index);
GPUOCC_API const char *gpuocc_catalog_source(int32_t index);
GPUOCC_API int32_t gpuocc_catalog_device(int32_t index, gpuocc_device *dev);

/* ---------------------------------------------------------------------------------------------------
 * Kernel and launch description.  @since 0.1.0
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_CARVEOUT_DEFAULT (-1)

typedef struct gpuocc_kernel {
    uint32_t size;                  /* sizeof(gpuocc_kernel) */
    int32_t threads_per_block;      /* launch block size (x*y*z); need not be a multiple of 32 */
    int32_t regs_per_thread;        /* as ptxas reports ("Used N registers") */
    int32_t barriers;               /* block barriers used (1 for __syncthreads; 0 = none); init gives 1 */
    int64_t smem_static_bytes;      /* __shared__ arrays */
    int64_t smem_dynamic_bytes;     /* the launch's dynamic shared memory */
    int32_t carveout_percent;       /* preferred shared-memory carveout, 0..100, or GPUOCC_CARVEOUT_DEFAULT */
    int32_t smem_optin;             /* 1: cudaFuncAttributeMaxDynamicSharedMemorySize was raised */
    int64_t smem_dynamic_max_bytes; /* with smem_optin: that attribute's value; -1 = the device's most
                                       (smem_per_block_optin_bytes - smem_static_bytes) */
    int32_t max_threads_per_block;  /* __launch_bounds__ maximum, bounds the block-size search; 0 = none */
    int32_t reserved0;              /* zero */
    uint64_t reserved[4];           /* zero */
} gpuocc_kernel;

/* Zero `k`, set size, barriers = 1, carveout = default, smem_dynamic_max_bytes = -1. */
GPUOCC_API int32_t gpuocc_kernel_init(gpuocc_kernel *k);

/* ---------------------------------------------------------------------------------------------------
 * One pure function per resource: how many blocks per SM that resource alone allows.
 * GPUOCC_UNLIMITED (-1) when the resource cannot limit (no registers, no shared memory, no barriers).
 * A request too large to fit gives 0 blocks, not an error.  @since 0.1.0
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_UNLIMITED (-1)

/* Warp slots: floor(max warps per SM / warps per block); 0 when the block exceeds the device maximum. */
GPUOCC_API int32_t gpuocc_limit_warps(const gpuocc_device *dev, int32_t threads_per_block, int32_t *blocks);
/* Register file, with per-warp allocation units, the per-block check and the sub-partition split. */
GPUOCC_API int32_t gpuocc_limit_registers(const gpuocc_device *dev, int32_t threads_per_block,
                                          int32_t regs_per_thread, int32_t *blocks);
/* Shared memory: granularity, reserved bytes, carveout choice, per-block default or opt-in limit. */
GPUOCC_API int32_t gpuocc_limit_shared_memory(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                              int32_t *blocks);
/* Block slots: the device's resident-block cap. */
GPUOCC_API int32_t gpuocc_limit_blocks(const gpuocc_device *dev, int32_t *blocks);
/* Block barriers per SM (modelled from cc 9.0, where the runtime applies it). */
GPUOCC_API int32_t gpuocc_limit_barriers(const gpuocc_device *dev, int32_t barriers_per_block, int32_t *blocks);

/* The granularity arithmetic itself. */
/* Registers one warp is given: regs_per_thread x warp_size rounded up to reg_alloc_unit. */
GPUOCC_API int32_t gpuocc_regs_per_warp(const gpuocc_device *dev, int32_t regs_per_thread, int32_t *regs);
/* Registers one block is given: per-warp allocation x warps per block. */
GPUOCC_API int32_t gpuocc_regs_per_block(const gpuocc_device *dev, int32_t threads_per_block,
                                         int32_t regs_per_thread, int64_t *regs);
/* Shared memory one block is given: static + dynamic + reserved, rounded up to smem_alloc_unit_bytes. */
GPUOCC_API int32_t gpuocc_smem_per_block(const gpuocc_device *dev, int64_t smem_static_bytes,
                                         int64_t smem_dynamic_bytes, int64_t *bytes);
/*
 * Shared memory per SM the driver configures for this kernel: the carveout preference (default: the
 * largest) rounded up to a supported carveout, raised to the smallest carveout that holds one block
 * when the preference is too small.  Devices without carveouts always give smem_per_sm_bytes.
 */
GPUOCC_API int32_t gpuocc_smem_carveout(const gpuocc_device *dev, const gpuocc_kernel *kernel, int64_t *bytes);

/* ---------------------------------------------------------------------------------------------------
 * The combined result.  @since 0.1.0
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_RESOURCE_WARPS     0
#define GPUOCC_RESOURCE_REGISTERS 1
#define GPUOCC_RESOURCE_SMEM      2
#define GPUOCC_RESOURCE_BLOCKS    3
#define GPUOCC_RESOURCE_BARRIERS  4
#define GPUOCC_RESOURCE_COUNT     5
#define GPUOCC_LIMIT_WARPS     (1u << GPUOCC_RESOURCE_WARPS)
#define GPUOCC_LIMIT_REGISTERS (1u << GPUOCC_RESOURCE_REGISTERS)
#define GPUOCC_LIMIT_SMEM      (1u << GPUOCC_RESOURCE_SMEM)
#define GPUOCC_LIMIT_BLOCKS    (1u << GPUOCC_RESOURCE_BLOCKS)
#define GPUOCC_LIMIT_BARRIERS  (1u << GPUOCC_RESOURCE_BARRIERS)

/* Name of a resource ("warps", "registers", "shared_memory", "blocks", "barriers"); "" if unknown. */
GPUOCC_API const char *gpuocc_resource_name(int32_t resource);

typedef struct gpuocc_result {
    uint32_t size;                 /* sizeof(gpuocc_result) */
    uint32_t limiters;             /* GPUOCC_LIMIT_* of every resource whose limit equals blocks_per_sm */
    int32_t blocks_per_sm;         /* resident blocks per SM; 0 = the launch cannot run */
    int32_t warps_per_sm;          /* blocks_per_sm x warps_per_block */
    int32_t max_warps_per_sm;      /* the device's warp slots */
    int32_t warps_per_block;       /* ceil(threads_per_block / warp_size) */
    double occupancy;              /* warps_per_sm / max_warps_per_sm, 0..1 */
    int32_t limit_warps;           /* per-resource limits in blocks, GPUOCC_UNLIMITED where none */
    int32_t limit_regs;
    int32_t limit_smem;
    int32_t limit_blocks;
    int32_t limit_barriers;
    int32_t regs_per_block;        /* registers allocated to one block */
    int64_t smem_per_block_bytes;  /* shared memory allocated to one block, reserved part included */
    int64_t smem_per_sm_bytes;     /* the carveout the driver configures (gpuocc_smem_carveout) */
    uint64_t reserved[4];
} gpuocc_result;

/* Blocks per SM and why.  `result->size` must be set. */
GPUOCC_API int32_t gpuocc_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_result *result);

/* ---------------------------------------------------------------------------------------------------
 * Inverse and search queries.  @since 0.1.0
 *
 * Block-size search: candidates are the largest allowed block size (min of the device's and the
 * kernel's max_threads_per_block), then every multiple of warp_size below it; the answer is the
 * candidate with the most resident threads, the largest on ties.  min_grid is blocks_per_sm x sm_count
 * (0 when the device has no SM count).  *threads = 0 when no candidate can run.
 * ------------------------------------------------------------------------------------------------- */
/* Dynamic shared memory = smem_base_bytes + smem_per_thread_bytes x block size (0, 0 for none). */
GPUOCC_API int32_t gpuocc_best_block_affine(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                            int64_t smem_base_bytes, int64_t smem_per_thread_bytes,
                                            int32_t *threads, int32_t *min_grid);
/* Dynamic shared memory given per block size: smem_by_threads[t] for a block of t threads; `count`
   must exceed the largest candidate (so 1025 entries cover every NVIDIA device). */
GPUOCC_API int32_t gpuocc_best_block_table(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                           const int64_t *smem_by_threads, int32_t count,
                                           int32_t *threads, int32_t *min_grid);
/* Callback form: fn returns the dynamic shared memory for a block size (negative = error). */
typedef int64_t (*gpuocc_smem_fn)(int32_t threads_per_block, void *user_data);
GPUOCC_API int32_t gpuocc_best_block_callback(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                              gpuocc_smem_fn fn, void *user_data,
                                              int32_t *threads, int32_t *min_grid);

/* The most dynamic shared memory per block with which `blocks` blocks of this kernel still fit on one SM
   (kernel->smem_dynamic_bytes is ignored).  GPUOCC_ERR_UNSATISFIABLE if they never fit. */
GPUOCC_API int32_t gpuocc_smem_dynamic_available(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                                 int32_t blocks, int64_t *bytes);
/* The most registers per thread (at most 255, what ptxas can allocate) with which `blocks` blocks still
   fit: the -maxrregcount or __launch_bounds__ target.  GPUOCC_ERR_UNSATISFIABLE if none does. */
GPUOCC_API int32_t gpuocc_regs_max_for_blocks(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                              int32_t blocks, int32_t *regs_per_thread);
/*
 * Next step: for one resource, the value of the kernel's demand on it (registers per thread, shared
 * memory per block in bytes (static + dynamic), threads per block, barriers per block) at which that
 * resource alone allows one block more than now, and how much must be shed to get there.  Other
 * limiters are not changed: when several tie, each must be shed.  GPUOCC_ERR_UNSATISFIABLE when no
 * reduction helps (the block-slot cap, or the resource already allows the maximum).
 */
GPUOCC_API int32_t gpuocc_next_step(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t resource,
                                    int64_t *new_value, int64_t *shed);

#ifdef __cplusplus
}
#endif
#endif /* GPUOCC_H */
