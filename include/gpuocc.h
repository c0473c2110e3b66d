/*
 * gpuocc: exact GPU occupancy for NVIDIA, AMD and Intel GPUs.
 *
 * One header, C11 and C++, libc only.  Two parts:
 *   - the stable API (everything before GPUOCC_EXPERIMENTAL below): devices and the built-in catalog,
 *     kernels, the occupancy of a launch and of each resource, the searches and next steps, prepared
 *     devices and batches, sweeps, status codes and the version.  Stable for every 1.x release: no
 *     declaration, struct layout, value or meaning in it changes; what is added comes as new symbols and
 *     new fields at a struct's tail.  Exported under the symbol version GPUOCC_1.0.
 *   - the experimental API, declared only where GPUOCC_EXPERIMENTAL is defined before this header is
 *     included: the performance models (latency, bandwidth, spills, waves, lanes, diagnosis, roofline),
 *     clusters, Hopper and Blackwell checks, and the readers of compiler output and binaries.  Any of it
 *     may change or go in a 1.x minor release (each part says what is likely to); exported under the
 *     symbol version GPUOCC_EXPERIMENTAL, which the library's ABI review does not hold.  Use it from code
 *     you rebuild with each release.
 *
 * Every function is pure and thread-safe: no global mutable state, no allocation, no errno, no locale.
 * Any number of threads may call any function at once, on shared inputs; an output must not be shared
 * by two calls at once.  Memory is bounded and explicit: where a function needs scratch (the decoding of
 * compressed binaries), the caller passes a workspace whose size a query gives.
 *
 * Every function returns an int32_t status (GPUOCC_OK or a negative GPUOCC_ERR_* code; gpuocc_strerror
 * says it in words) and writes its answers through pointers; on failure the outputs are left untouched,
 * except where a function says otherwise (a refused launch's `exceeded`, a count on GPUOCC_ERR_BUFFER, a
 * line number on GPUOCC_ERR_PARSE).
 *
 * Units are in the names: _bytes, _kib, _cycles, _ns, _percent.  "Blocks" are thread blocks (CTAs) per
 * streaming multiprocessor (SM); on AMD workgroups per CU, on Intel work-groups per Xe-core.  The model and
 * the source of every constant are in docs/model.md, docs/amd.md and docs/intel.md; how the calls are
 * computed and what they cost is in docs/implementation.md.
 *
 * Structs passed in or out start with `uint32_t size`, set by the caller to sizeof(struct) (the
 * *_init functions do it).  The library accepts this header's layout, a larger one whose bytes past the
 * layout it knows are zero (a newer header's), and for gpuocc_device, gpuocc_kernel and gpuocc_result
 * the 0.1.0 layouts (232, 88 and 104 bytes: the fields past them read as zero, a result is written up to
 * its size); any other size is GPUOCC_ERR_STRUCT_SIZE.  Reserved fields must be zero.
 */
#ifndef GPUOCC_H
#define GPUOCC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* The single truth for the version; meson.build reads these. @since 0.1.0 */
#define GPUOCC_VERSION_MAJOR 1
#define GPUOCC_VERSION_MINOR 0
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
#define GPUOCC_ERR_STRUCT_SIZE   -2  /* a struct's `size` is not a layout this version knows */
#define GPUOCC_ERR_RESERVED      -3  /* a reserved field, or a byte past the known layout, is not zero */
#define GPUOCC_ERR_VENDOR        -4  /* the device's vendor is not one this version models */
#define GPUOCC_ERR_UNKNOWN_DEVICE -5 /* no architecture or product by that name */
#define GPUOCC_ERR_DEVICE        -6  /* a device field is out of range or inconsistent */
#define GPUOCC_ERR_THREADS       -7  /* threads per block is zero or negative */
#define GPUOCC_ERR_REGISTERS     -8  /* registers per thread is negative (AMD: or AGPRs, SGPRs) */
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
#define GPUOCC_ERR_UNSUPPORTED  -23  /* valid input of a kind this version does not read (e.g. 32-bit ELF) */
#define GPUOCC_ERR_COMPRESSED   -24  /* compressed device code the call does not decode: any compressed entry
                                        in gpuocc_cubin_read, a zlib-compressed offload bundle in
                                        gpuocc_binary_read_entry (which decodes zstd and LZ4) */
/* @since 1.0.0 */
#define GPUOCC_ERR_TMEM         -25  /* tensor memory asked of a device that has none (gpuocc_kernel.tmem_columns
                                        > 0 where gpuocc_device.tmem_columns_per_sm is 0: sm_90, sm_120, AMD) */
#define GPUOCC_ERR_SETMAXNREG   -26  /* register reallocation (setmaxnreg) asked of a device before cc 9.0 */
#define GPUOCC_ERR_CLUSTER      -27  /* a cluster launch the device refuses (gpuocc_cluster_check); @since 1.0.0 */
#define GPUOCC_ERR_EXCEEDED     -28  /* an input is above a per-block maximum no launch may pass (NVIDIA:
                                        barriers over barriers_per_block_max, static shared memory over
                                        smem_per_block_bytes); gpuocc_result.exceeded names it.  @since 1.0.0 */

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
 * family of rules: NVIDIA's, AMD's (the AMD fields of the tail, docs/amd.md), or Intel's (the
 * Intel fields past them, docs/intel.md).
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_VENDOR_NVIDIA 1
#define GPUOCC_VENDOR_AMD    2 /* @since 1.0.0; the AMD fields below, rules in docs/amd.md */
#define GPUOCC_VENDOR_INTEL  3 /* @since 1.0.0; the Intel fields below, rules in docs/intel.md */
#define GPUOCC_MAX_SLM_SIZES 16 /* entries of gpuocc_device.slm_sizes_kib; @since 1.0.0 */
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
    /* AMD (vendor GPUOCC_VENDOR_AMD), zero for NVIDIA.  @since 1.0.0.  On AMD the shared fields mean:
       sm_count = CUs as HIP counts them (WGPs on gfx10+), warp_size = the default wave size,
       smem_per_sm_bytes = LDS per CU, smem_per_block_bytes (= _optin_bytes) = LDS one workgroup may use,
       smem_alloc_unit_bytes = the LDS allocation granule (the compiler model rounds LDS up to it; 1 = none),
       barriers_per_sm = workgroups with barriers per CU (LLVM's 16), regs_per_thread_max = addressable
       VGPRs per lane.  VGPR numbers are for wave64; wave32 doubles them (gfx10+). */
    int32_t simds_per_cu;                  /* SIMDs (LLVM: EUs) per CU: 4 on gfx9, 2 on gfx10+ */
    int32_t waves_per_simd;                /* wave slots per SIMD as LLVM counts them: 10, 8 (gfx90a+), 16 */
    int32_t runtime_waves_per_simd;        /* HIP's cap: 8 on gfx9, 16 on gfx10+ */
    int32_t vgprs_per_simd;                /* VGPRs per lane in one SIMD (wave64): 256, 512, 768 */
    int32_t vgpr_granule;                  /* VGPR allocation granule (wave64), LLVM's */
    int32_t runtime_vgpr_granule;          /* the granule HIP uses (wave64 units; comgr's table) */
    int32_t runtime_vgprs_legacy;          /* HIP's hard-coded table before comgr (wave64 units); */
    int32_t runtime_vgpr_granule_legacy;   /*   0 when those releases did not know the target */
    int32_t agpr_file;                     /* GPUOCC_AGPR_*: how AGPRs share the VGPR file */
    int32_t sgprs_per_simd;                /* 800 where SGPRs limit waves (gfx8-9; 512 on gfx6-7); 0 = never (gfx10+) */
    int32_t cus_per_wgp;                   /* 2 on gfx10+ (a WGP), 1 where there is no WGP */
    int32_t wave_sizes;                    /* wave sizes the target runs: 64, or 32 | 64 = 96 (gfx10+) */
    int32_t reserved0;                     /* zero */
    int32_t reserved1;                     /* zero */
    uint64_t reserved[1];                  /* zero */
    /* Intel (vendor GPUOCC_VENDOR_INTEL), zero for NVIDIA and AMD.  @since 1.0.0.  The 0.1.0 layout ends
       here (232 bytes).  On Intel the shared fields mean (docs/intel.md):
       sm_count = Xe-cores (sub-slices, dual sub-slices) on the product, warp_size = the default sub-group
       size, max_threads_per_block = the largest work-group, max_threads_per_sm = hardware threads per
       Xe-core (xves_per_xecore x threads_per_xve), max_blocks_per_sm = the calculator's work-group cap per
       Xe-core, barriers_per_sm = its barrier registers per Xe-core (the cap with barriers),
       smem_per_sm_bytes = SLM per Xe-core, smem_per_block_bytes (= _optin_bytes) = SLM one work-group may
       use (the runtime's maxProgrammableSlmSize), smem_alloc_unit_bytes = 1024 (sizes are whole KiB). */
    int32_t xves_per_xecore;               /* XVEs (EUs) per Xe-core: 8 or 16 */
    int32_t threads_per_xve;               /* hardware threads per XVE in the default GRF mode: 7, 8, 10 */
    int32_t sub_group_sizes;               /* the sub-group sizes it runs, OR-ed: 8 | 16 | 32 = 56, 16 | 32 = 48 */
    int32_t grf_max;                       /* the most GRF registers per thread: 128, or 256 (large GRF) */
    int32_t grf_table;                     /* GPUOCC_GRF_TABLE_*: the runtime's threads per XVE by GRF count */
    int32_t runtime_barriers_per_xecore;   /* the runtime's barrier registers per Xe-core (32) */
    int32_t slm_sizes_kib[GPUOCC_MAX_SLM_SIZES]; /* the calculator's work-group SLM sizes, ascending, KiB;
                                                   unused entries 0 (a work-group's SLM rounds up to one) */
    int32_t runtime_slm_sizes_kib[GPUOCC_MAX_SLM_SIZES]; /* the runtime's (alignSlmSizePerThreadGroup) */
    /* @since 1.0.0 */
    int32_t virtual_resources_per_sm;      /* NVIDIA: virtual resources per SM (128 on cc 10.x, 11.x, 12.x); 0 =
                                              none, gpuocc_kernel.virtual_resources never limits (docs/model.md);
                                              zero for AMD and Intel */
    int32_t barriers_per_block_max;        /* named barriers one block may use: NVIDIA 16 (PTX barrier ids
                                              0..15), 0 there meaning the same 16; AMD and Intel 0 (not
                                              checked).  A launch above it is GPUOCC_ERR_EXCEEDED. */
    int32_t tmem_columns_per_sm;           /* NVIDIA: tensor-memory columns per SM (512 on sm_100, sm_103, sm_110:
                                              128 lanes x 512 columns of 32 bits); 0 = none (docs/model.md) */
    int32_t reserved2;                     /* zero */
} gpuocc_device;

/* gpuocc_device.grf_table (Intel): threads per XVE the compute runtime counts at a GRF count.  @since 1.0.0 */
#define GPUOCC_GRF_TABLE_TWO_MODES 1 /* up to Xe2: 8 threads, 4 at 256 registers (large GRF) */
#define GPUOCC_GRF_TABLE_XE3       2 /* Xe3: 10 up to 96 registers, 8 to 128, 6 to 160, 5 to 192, 4 to 256 */

/* gpuocc_device.agpr_file.  @since 1.0.0 */
#define GPUOCC_AGPR_NONE     0 /* no AGPRs (gfx900, gfx906, gfx10+) */
#define GPUOCC_AGPR_SEPARATE 1 /* a separate AGPR file of the same size (gfx908): max(VGPRs, AGPRs) counts */
#define GPUOCC_AGPR_UNIFIED  2 /* one file (gfx90a+): VGPRs rounded up to 4, then the AGPRs */

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
                                       (smem_per_block_optin_bytes - smem_static_bytes).  carveout_percent,
                                       smem_optin and this are NVIDIA's: AMD and Intel refuse a value other
                                       than gpuocc_kernel_init's (GPUOCC_ERR_ARGUMENT, exceeded
                                       GPUOCC_INPUT_NONE: no input names them; all three 0, a zero-filled
                                       kernel, reads as unset too), @since 1.1.0 */
    int32_t max_threads_per_block;  /* the kernel's largest block, 0 = none: bounds the block-size search,
                                       and a larger block fits 0 blocks (exceeded: threads; it fails to
                                       launch).  NVIDIA: __launch_bounds__, @since 1.1.0 (before: the
                                       search only).  AMD: the flat workgroup size maximum LLVM compiled
                                       for (amdgpu_flat_work_group_size); 0 = the launch's block size.
                                       Intel: CL_KERNEL_WORK_GROUP_SIZE (max_work_group_size), @since
                                       1.1.0 (before: ignored) */
    /* AMD only (another vendor refuses a nonzero value), @since 1.0.0.  regs_per_thread holds the arch VGPRs and
       smem_static_bytes / smem_dynamic_bytes the static and dynamic LDS. */
    int32_t agprs;                  /* AGPRs per lane (LLVM's "AGPRs", .agpr_count) */
    int32_t sgprs;                  /* SGPRs per wave (LLVM's "SGPRs", .sgpr_count); 0 = unknown, no limit */
    int32_t wave_size;              /* 32 or 64; 0 = the device's default (warp_size) */
    int32_t cu_mode;                /* 1: compiled with -mcumode (gfx10+: a workgroup on one CU, not a WGP) */
    int32_t model;                  /* GPUOCC_MODEL_*: which answer fills blocks_per_sm */
    int32_t rocm_version;           /* the runtime model's ROCm release, major * 100 + minor; 0 = newest.
                                       With another model: GPUOCC_ERR_ARGUMENT, input rocm (@since 1.1.0) */
    int32_t reserved0;              /* zero */
    uint64_t reserved[1];           /* zero */
    /* Intel only (another vendor refuses a nonzero value), @since 1.0.0; the 0.1.0 layout ends before it
       (88 bytes).  On Intel
       threads_per_block holds the work-items per work-group, smem_static_bytes / smem_dynamic_bytes the
       SLM, barriers > 0 that the kernel uses a barrier (the runtime model divides by the count);
       regs_per_thread is ignored (the register demand is `grf`). */
    int32_t sub_group;              /* sub-group size (SIMD width): 8, 16 or 32; 0 = the device's default */
    int32_t grf;                    /* GRF registers per hardware thread: 128, 256 (large GRF), or a count of
                                       the runtime's Xe3 table; 0 = 128 */
    /* NVIDIA only (AMD and Intel refuse a nonzero value), @since 1.0.0. */
    int32_t virtual_resources;      /* virtual resources a block uses (as CUDA 13 reports
                                       them for the kernel); 0 = none.  At most floor(virtual_resources_per_sm /
                                       virtual_resources) blocks per SM on a device that has them */
    int32_t reserved2;              /* zero */
    int32_t tmem_columns;           /* NVIDIA: tensor-memory columns a block holds at once (tcgen05.alloc): 0 =
                                       none, else a power of two from 32 to 512.  Never lowers blocks_per_sm;
                                       see gpuocc_tmem_holders.  GPUOCC_ERR_TMEM on a device without it */
    int32_t dvgpr;                  /* AMD: gfx12 dynamic-VGPR mode, its block size 16 or 32 VGPRs; 0 = off.
                                       The compiler's model only, wave32 only: no VGPR limit on waves, at most
                                       8 blocks (128 or 256 VGPRs) addressable (docs/amd.md) */
    /* AMD only (another vendor refuses a nonzero value), @since 1.0.0.  How LLVM compiled the kernel (docs/amd.md, "Compiler inputs"). */
    int32_t trap_handler;           /* 0 = the target's default (on: amdhsa, as HIP, ROCm and OpenCL compile),
                                       1 = on, -1 = off (-mattr=-trap-handler).  On gfx9 a wave then also
                                       holds the trap handler's 16 SGPRs (the compiler model and the runtime
                                       model from the ROCm release that charges them; not GPUOCC_MODEL_LLVM19) */
    int32_t waves_per_eu_min;       /* amdgpu-waves-per-eu / __attribute__((amdgpu_waves_per_eu(MIN, MAX))): */
    int32_t waves_per_eu_max;       /*   waves per SIMD asked of the compiler, 0 = unset; an invalid request is
                                       ignored as LLVM ignores it.  The maximum raises the VGPRs (and SGPRs) a
                                       wave is given to LLVM's minimum for that many waves (the compiler models;
                                       HIP reads the registers used, not those given).  A minimum above a
                                       maximum (both set; clang rejects it) is GPUOCC_ERR_ARGUMENT, input
                                       waves_per_eu with the maximum as its limit (@since 1.1.0) */
    int32_t flat_workgroup_size_min; /* amdgpu-flat-work-group-size's minimum, with max_threads_per_block as its
                                       maximum; 0 = 1 (LLVM's default).  Needs max_threads_per_block >= it.
                                       The compiler model's waves_per_simd is LLVM's best case over the range */
} gpuocc_kernel;

/* gpuocc_kernel.model (AMD).  @since 1.0.0 */
#define GPUOCC_MODEL_DEFAULT  0 /* the compiler's */
#define GPUOCC_MODEL_COMPILER 1 /* LLVM's AMDGPU occupancy as today's LLVM computes it (LLVM 20 and later,
                                   with the 2026 SGPR and LDS rules: docs/amd.md) */
#define GPUOCC_MODEL_RUNTIME  2 /* HIP's hipOccupancyMaxActiveBlocksPerMultiprocessor for rocm_version */
/* gpuocc_kernel.model (Intel; GPUOCC_MODEL_DEFAULT is the calculator's).  @since 1.0.0 */
#define GPUOCC_MODEL_CALCULATOR    3 /* Intel's GPU Occupancy Calculator (oneAPI-samples), per Xe-core */
#define GPUOCC_MODEL_INTEL_RUNTIME 4 /* Intel's compute runtime, KernelHelper::getMaxWorkGroupCount */
/* gpuocc_kernel.model (AMD), @since 1.0.0: LLVM 19's rules (its SGPR table, no LDS granule, the flat
   workgroup maximum alone; exact against llc-19).  Before this value existed GPUOCC_MODEL_COMPILER meant them. */
#define GPUOCC_MODEL_LLVM19        5

/* Zero `k`, set size, threads_per_block = 1, barriers = 1, carveout = default, smem_optin = 1 and
   smem_dynamic_max_bytes = -1.  smem_optin was 0 in 0.1.0: set it to 0 for the 48 KiB per-block
   limit of a kernel that does not raise cudaFuncAttributeMaxDynamicSharedMemorySize. */
GPUOCC_API int32_t gpuocc_kernel_init(gpuocc_kernel *k);

/* ---------------------------------------------------------------------------------------------------
 * One pure function per resource: how many blocks per SM that resource alone allows.
 * GPUOCC_UNLIMITED (-1) when the resource cannot limit (no registers, no shared memory, no barriers).
 * A request too large to fit gives 0 blocks, not an error.  @since 0.1.0
 *
 * AMD devices (docs/amd.md): blocks are workgroups per CU (per WGP on gfx10+), each value equals
 * the limit_* field of gpuocc_occupancy's result for the same launch.  "Warps" are wave slots, "registers"
 * arch VGPRs per lane, "shared memory" LDS.  The functions given only a block size or a register count
 * answer for a kernel with gpuocc_kernel_init's defaults (the compiler's model, the device's default wave
 * size, WGP mode, no AGPRs); those given a kernel honour its model, wave size, cu_mode and AGPRs.
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_UNLIMITED (-1)

/* Warp slots: floor(max warps per SM / warps per block); 0 when the block exceeds the device maximum (a
   kernel's own launch bound, max_threads_per_block, is applied by the calls given the kernel).
   AMD: LLVM's wave slots per SIMD x the SIMDs a workgroup spans, over its waves. */
GPUOCC_API int32_t gpuocc_limit_warps(const gpuocc_device *dev, int32_t threads_per_block, int32_t *blocks);
/* Register file, with per-warp allocation units, the per-block check and the sub-partition split.
   AMD: the VGPR file at LLVM's allocation granule (waves per SIMD, none below one granule), 0 above the
   VGPRs a lane can address. */
GPUOCC_API int32_t gpuocc_limit_registers(const gpuocc_device *dev, int32_t threads_per_block,
                                          int32_t regs_per_thread, int32_t *blocks);
/* Shared memory: granularity, reserved bytes, carveout choice, per-block default or opt-in limit.
   AMD: LDS per CU (WGP) over static + dynamic LDS as kernel->model counts it (docs/amd.md); the compiler's
   model gives 0 above the LDS one workgroup may use. */
GPUOCC_API int32_t gpuocc_limit_shared_memory(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                              int32_t *blocks);
/* Block slots: the device's resident-block cap.  AMD: GPUOCC_UNLIMITED (no such cap in either model). */
GPUOCC_API int32_t gpuocc_limit_blocks(const gpuocc_device *dev, int32_t *blocks);
/* Block barriers per SM (modelled from cc 9.0, where the runtime applies it).  AMD: LLVM's cap on
   workgroups with barriers per CU (16; 32 per WGP) for any barriers_per_block > 0, GPUOCC_UNLIMITED for 0;
   gpuocc_occupancy applies it to every workgroup of more than one wave, whatever kernel->barriers says. */
/* Refused as gpuocc_occupancy refuses the same count: GPUOCC_ERR_EXCEEDED (NVIDIA) above
   barriers_per_block_max. */
GPUOCC_API int32_t gpuocc_limit_barriers(const gpuocc_device *dev, int32_t barriers_per_block, int32_t *blocks);

/* The granularity arithmetic itself. */
/* Registers one warp is given: regs_per_thread x warp_size rounded up to reg_alloc_unit.  AMD: VGPRs one
   wave of the default wave size is given, regs_per_thread rounded up to LLVM's granule x the wave size. */
GPUOCC_API int32_t gpuocc_regs_per_warp(const gpuocc_device *dev, int32_t regs_per_thread, int32_t *regs);
/* Registers one block is given: per-warp allocation x warps per block (AMD: waves per workgroup). */
GPUOCC_API int32_t gpuocc_regs_per_block(const gpuocc_device *dev, int32_t threads_per_block,
                                         int32_t regs_per_thread, int64_t *regs);
/* Shared memory one block is given: static + dynamic + reserved, rounded up to smem_alloc_unit_bytes.
   GPUOCC_ERR_OVERFLOW when that sum reaches 2^60 bytes (sums saturate there; no device comes close).
   AMD: static + dynamic LDS rounded up to smem_alloc_unit_bytes, as the compiler model charges it (the llvm19
   and runtime models charge the bytes as asked). */
GPUOCC_API int32_t gpuocc_smem_per_block(const gpuocc_device *dev, int64_t smem_static_bytes,
                                         int64_t smem_dynamic_bytes, int64_t *bytes);
/*
 * Shared memory per SM the driver configures for this kernel: the carveout preference (default: the
 * largest) rounded up to a supported carveout, raised to the smallest carveout that holds one block
 * when the preference is too small.  Devices without carveouts always give smem_per_sm_bytes.
 * AMD: the LDS per CU (WGP) that kernel->model divides among workgroups (gpuocc_result.smem_per_sm_bytes).
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
#define GPUOCC_RESOURCE_COUNT     5 /* the resources every vendor has */
#define GPUOCC_RESOURCE_SGPRS     5 /* AMD gfx6-9 only; @since 1.0.0 */
#define GPUOCC_RESOURCE_VIRTUAL   7 /* NVIDIA's virtual resources (cc 10.x-12.x); @since 1.0.0 (6 is AGPRs) */
#define GPUOCC_LIMIT_WARPS     (1u << GPUOCC_RESOURCE_WARPS)
#define GPUOCC_LIMIT_REGISTERS (1u << GPUOCC_RESOURCE_REGISTERS)
#define GPUOCC_LIMIT_SMEM      (1u << GPUOCC_RESOURCE_SMEM)
#define GPUOCC_LIMIT_BLOCKS    (1u << GPUOCC_RESOURCE_BLOCKS)
#define GPUOCC_LIMIT_BARRIERS  (1u << GPUOCC_RESOURCE_BARRIERS)
#define GPUOCC_LIMIT_SGPRS     (1u << GPUOCC_RESOURCE_SGPRS) /* @since 1.0.0 */
#define GPUOCC_LIMIT_VIRTUAL   (1u << GPUOCC_RESOURCE_VIRTUAL) /* @since 1.0.0 */

/* Name of a resource ("warps", "registers", "shared_memory", "blocks", "barriers", "sgprs", "agprs",
   "virtual_resources"); "" if unknown.
   On AMD "warps" are wave slots, "registers" VGPRs (+ AGPRs), "shared_memory" LDS, "barriers" LLVM's
   workgroups-with-barriers cap. */
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
    /* @since 1.0.0.  On AMD, blocks are per CU as HIP counts them (per WGP on gfx10+ in WGP mode). */
    int32_t model;                 /* AMD, Intel: the GPUOCC_MODEL_* that filled blocks_per_sm; 0 for NVIDIA */
    int32_t waves_per_simd;        /* AMD: the compiler's occupancy, LLVM's "Occupancy [waves/SIMD]" (LLVM 19's for
                                      GPUOCC_MODEL_LLVM19, else today's); 0 NVIDIA */
    int32_t limit_sgprs;           /* AMD: blocks the SGPRs allow; GPUOCC_UNLIMITED where they cannot limit */
    int32_t reserved0;
    uint64_t reserved[2];
    /* @since 1.0.0; the 0.1.0 layout ends here (104 bytes: written up to its size). */
    int64_t workgroups_per_gpu;    /* Intel: work-groups resident on the whole GPU (the runtime model: its
                                      cooperative-launch count; the calculator: blocks_per_sm x sm_count);
                                      0 for NVIDIA and AMD, and for a bare architecture */
    int32_t limit_virtual_resources; /* NVIDIA: blocks the virtual resources allow, floor(per SM / per block);
                                        GPUOCC_UNLIMITED where they cannot limit (none used, or none on the
                                        device; always on AMD and Intel) */
    int32_t reserved2;
    int32_t exceeded;              /* GPUOCC_INPUT_* of the input over a limit when the launch cannot run
                                      (blocks_per_sm 0, or a refusal status), else GPUOCC_INPUT_NONE */
    int32_t reserved3;
    int64_t exceeded_limit;        /* the limit that input passed, in its own unit; 0 when none */
} gpuocc_result;

/*
 * The kernel inputs, as gpuocc_result.exceeded and the batch's `exceeded` column name them (the
 * vocabulary's short names, docs/vocabulary.md).  When a launch cannot run, the first input over a limit in
 * this order: threads, registers, shared memory (static, then dynamic), barriers, virtual resources, tensor
 * memory; another vendor's field set on a device is named with limit 0 (but NVIDIA's carveout_percent,
 * smem_optin and smem_dynamic_max_bytes, which no input names: GPUOCC_INPUT_NONE).  @since 1.0.0
 */
#define GPUOCC_INPUT_NONE              0
#define GPUOCC_INPUT_THREADS           1  /* threads per block; limit: the largest block */
#define GPUOCC_INPUT_REGS              2  /* registers per thread (AMD: arch VGPRs); limit: the most that fit */
#define GPUOCC_INPUT_SMEM_STATIC       3  /* static shared memory (AMD: LDS; Intel: SLM), bytes */
#define GPUOCC_INPUT_SMEM_DYNAMIC      4  /* dynamic shared memory, bytes */
#define GPUOCC_INPUT_BARRIERS          5  /* barriers per block */
#define GPUOCC_INPUT_VIRTUAL_RESOURCES 6  /* NVIDIA's virtual resources per block */
#define GPUOCC_INPUT_TMEM_COLUMNS      7  /* NVIDIA's tensor-memory columns per block */
#define GPUOCC_INPUT_AGPRS             8  /* AMD */
#define GPUOCC_INPUT_SGPRS             9  /* AMD */
#define GPUOCC_INPUT_WAVE_SIZE        10  /* AMD */
#define GPUOCC_INPUT_CU_MODE          11  /* AMD */
#define GPUOCC_INPUT_MODEL            12  /* AMD, Intel */
#define GPUOCC_INPUT_ROCM             13  /* AMD's rocm_version */
#define GPUOCC_INPUT_DVGPR            14  /* AMD */
#define GPUOCC_INPUT_SUB_GROUP        15  /* Intel */
#define GPUOCC_INPUT_GRF              16  /* Intel */
#define GPUOCC_INPUT_TRAP_HANDLER     17  /* AMD */
#define GPUOCC_INPUT_WAVES_PER_EU     18  /* AMD: waves_per_eu_min or _max */
#define GPUOCC_INPUT_FLAT_WORKGROUP_SIZE 19 /* AMD: flat_workgroup_size_min */
#define GPUOCC_INPUT_COUNT            20
/* The input's short name ("threads", "regs", "smem_static", "smem_dynamic", "barriers", "virtual_resources",
   "tmem_columns", "agprs", "sgprs", "wave_size", "cu_mode", "model", "rocm", "dvgpr", "sub_group", "grf",
   "trap_handler", "waves_per_eu", "flat_workgroup_size");
   "" for GPUOCC_INPUT_NONE or an unknown value; never NULL.  @since 1.0.0 */
GPUOCC_API const char *gpuocc_input_name(int32_t input);

/* Blocks per SM and why.  `result->size` must be set.  Every query of this library (the prepared call,
   the batch, the sweeps, the searches, next steps, the per-resource functions, clusters) computes through
   the same rule per vendor as this call, so they agree.  The device and the kernel are checked on each
   call; for many launches on one device see gpuocc_prepare / gpuocc_occupancy_batch.
   Errors: the struct and field errors; GPUOCC_ERR_ARGUMENT for a nonzero field of another vendor (the
   result's `exceeded` names it), on AMD and Intel for NVIDIA's carveout_percent, smem_optin or
   smem_dynamic_max_bytes other than gpuocc_kernel_init's or all three 0 (exceeded GPUOCC_INPUT_NONE), on AMD for a
   rocm_version without the runtime model or waves_per_eu_min above waves_per_eu_max; GPUOCC_ERR_EXCEEDED (NVIDIA) for barriers over barriers_per_block_max or
   static shared memory over smem_per_block_bytes, GPUOCC_ERR_TMEM for tensor memory on a device without it:
   on these refusals `exceeded` and `exceeded_limit` are written (the rest of the result is untouched).
   GPUOCC_ERR_OVERFLOW (result untouched) when the block's shared memory (static + dynamic + reserved)
   reaches 2^60 bytes; gpuocc_limit_shared_memory still answers 0 blocks for it. */
GPUOCC_API int32_t gpuocc_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_result *result);

/* ---------------------------------------------------------------------------------------------------
 * Inverse and search queries.  @since 0.1.0
 *
 * AMD devices (docs/amd.md, "The other queries"): the same definitions through the AMD rules of the
 * kernel's model, blocks being workgroups per CU (per WGP on gfx10+), answers found by bisection on the
 * rules themselves, so they agree with gpuocc_occupancy.  Block-size candidates are multiples of the
 * kernel's wave size (wave_size, or the device's default), up to its flat workgroup maximum.
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
   (kernel->smem_dynamic_bytes is ignored).  GPUOCC_ERR_UNSATISFIABLE if they never fit.  AMD: dynamic LDS,
   at most what one workgroup may use (smem_per_block_bytes) less the static LDS, in both models. */
GPUOCC_API int32_t gpuocc_smem_dynamic_available(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                                 int32_t blocks, int64_t *bytes);
/* The most registers per thread (at most 255, what ptxas can allocate) with which `blocks` blocks still
   fit: the -maxrregcount or __launch_bounds__ target.  GPUOCC_ERR_UNSATISFIABLE if none does.  AMD: the
   most arch VGPRs per lane (0 .. regs_per_thread_max, 256) with the kernel's AGPRs and SGPRs as given:
   the amdgpu_num_vgpr / amdgpu_waves_per_eu target. */
GPUOCC_API int32_t gpuocc_regs_max_for_blocks(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                              int32_t blocks, int32_t *regs_per_thread);
/*
 * Pipeline stages: the most stages s >= 0 such that a launch with base_bytes + s x stage_bytes of dynamic
 * shared memory (kernel->smem_dynamic_bytes is ignored) still fits `blocks` blocks on one SM, every other
 * input as the kernel gives it: how deep a software pipeline (Triton's num_stages, a CUTLASS mainloop) may
 * be.  Exact: the answer fits by gpuocc_occupancy, and s + 1 does not, nor does any larger s.  Found from
 * gpuocc_smem_dynamic_available's bytes, checked with the rule (where the carveout the driver picks grows
 * with the shared memory so that blocks rise, a described device whose carveouts more than double, by
 * bisection within each carveout).  AMD: dynamic LDS; Intel: SLM.  Errors: GPUOCC_ERR_NULL, the struct and
 * field errors, GPUOCC_ERR_ARGUMENT (blocks < 1, stage_bytes < 1), GPUOCC_ERR_SMEM (base_bytes < 0),
 * GPUOCC_ERR_UNSATISFIABLE (not even the base bytes fit the blocks), and the refusals of gpuocc_occupancy.
 * @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_max_stages(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t blocks,
                                     int64_t base_bytes, int64_t stage_bytes, int64_t *stages);
/*
 * Next step: for one resource, the value of the kernel's demand on it (registers per thread, shared
 * memory per block in bytes (static + dynamic), threads per block, barriers per block) at which that
 * resource alone allows one block more than now, and how much must be shed to get there.  Other
 * limiters are not changed: when several tie, each must be shed.  GPUOCC_ERR_UNSATISFIABLE when no
 * reduction helps (the block-slot cap, or the resource already allows the maximum).
 * GPUOCC_ERR_OVERFLOW for GPUOCC_RESOURCE_SMEM when static + dynamic reaches 2^60 bytes (the amount to
 * shed would not be exact).
 * AMD: GPUOCC_RESOURCE_REGISTERS moves the arch VGPRs, _SMEM static + dynamic LDS, _WARPS the
 * threads, and GPUOCC_RESOURCE_SGPRS (AMD only; GPUOCC_ERR_RESOURCE on NVIDIA) the SGPRs.
 * GPUOCC_RESOURCE_BLOCKS gives *new_value = GPUOCC_UNLIMITED, *shed = 0 (no workgroup-slot cap);
 * GPUOCC_RESOURCE_BARRIERS gives the kernel's barriers when LLVM's cap already allows one more, else
 * GPUOCC_ERR_UNSATISFIABLE (the cap counts every workgroup of more than one wave, whatever its barriers).
 */
GPUOCC_API int32_t gpuocc_next_step(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t resource,
                                    int64_t *new_value, int64_t *shed);

/*
 * Next steps that hold: the changes of the kernel's inputs that, applied, give more blocks per SM than
 * now, each with the count it gives.  @since 1.0.0
 *
 * A change names the input by the resource that input feeds (gpuocc_step_change.resource):
 * GPUOCC_RESOURCE_WARPS = threads per block, _REGISTERS = registers per thread (AMD: arch VGPRs per lane),
 * _SMEM = shared memory per block in bytes, static + dynamic (applied as gpuocc_next_step's is: the static
 * bytes are kept while they fit, the dynamic bytes take the rest), _BARRIERS = barriers per block (NVIDIA),
 * _SGPRS = SGPRs per wave (AMD, where given), _AGPRS = AGPRs per lane (AMD targets with AGPRs).
 *
 * By construction: each step is kept only if the kernel with its changes applied (and nothing else
 * changed) gives, through gpuocc_occupancy, exactly steps[i].blocks_per_sm, and that is more than now.
 * Single steps come first, in resource order: for each input, the largest value below the current one
 * (registers: at most 255, what ptxas allocates) that gives more blocks, found by bisection on the
 * occupancy itself (the largest such value on every device whose blocks do not rise with the input; on
 * a described device whose carveouts make them rise, a value that gives the count stated).  No step
 * takes an input the kernel needs to 0: threads, registers, shared memory and barriers go no lower than
 * 1 where the kernel has any, AGPRs no lower than 1 on a separate AGPR file (gfx908, where the MFMA
 * results live), and to 0 on a unified one (gfx90a+, where VGPRs can hold them).
 * When no single change gives a block more (resources tie at the count), there is at most one joint step:
 * each limiting resource's own next step (gpuocc_next_step) at once, the first in `change` and the rest in
 * `also`; it is offered when it gives more blocks, and never when a limiter cannot be changed (the
 * block-slot cap; AMD's barrier cap).  *count = 0 when nothing helps.
 *
 * `steps`: `capacity` entries of a fixed layout (as gpuocc_sweep_point's, for arrays; a later layout would
 * come with a new function).  GPUOCC_ERR_BUFFER (with *count the entries needed, nothing written) when
 * capacity is too small; capacity 0 with NULL steps asks for the count (GPUOCC_STEPS_MAX always suffice).
 * The device and
 * kernel errors of gpuocc_occupancy; GPUOCC_ERR_OVERFLOW when the block's shared memory reaches 2^60 bytes.
 */
#define GPUOCC_RESOURCE_AGPRS 6 /* a step's input only (AMD AGPRs per lane), never a limiter; @since 1.0.0 */
#define GPUOCC_STEP_ALSO_MAX  3 /* the other changes a joint step can hold */
#define GPUOCC_STEPS_MAX      8 /* the most steps gpuocc_next_steps gives */

typedef struct gpuocc_step_change {
    int32_t resource;              /* GPUOCC_RESOURCE_*: the input changed (see above) */
    int32_t reserved0;             /* zero */
    int64_t new_value;             /* the input's new value, in its own unit */
    int64_t shed;                  /* current value - new_value (> 0) */
} gpuocc_step_change;

typedef struct gpuocc_step {
    int32_t blocks_per_sm;         /* blocks per SM with every change of the step applied */
    int32_t also_count;            /* 0 for a single step; else the entries of `also` used (the rest zero) */
    gpuocc_step_change change;     /* the (first) change */
    gpuocc_step_change also[GPUOCC_STEP_ALSO_MAX]; /* a joint step's other changes */
} gpuocc_step;

GPUOCC_API int32_t gpuocc_next_steps(const gpuocc_device *dev, const gpuocc_kernel *kernel, gpuocc_step *steps,
                                     int32_t capacity, int32_t *count);

/* ---------------------------------------------------------------------------------------------------
 * Sweeps: occupancy along one axis of a launch, and the steps of its staircase.  @since 1.0.0
 *
 * The axis replaces one field of the kernel; the kernel's own value of that field is ignored (it need
 * not be valid), every other field is used as given.  Every point equals gpuocc_occupancy on the kernel
 * with the axis set to the point's value.  Errors: GPUOCC_ERR_ARGUMENT for an unknown axis, to < from,
 * step < 1 or capacity < 0; the axis' own error (GPUOCC_ERR_THREADS, _REGISTERS, _SMEM, _BARRIERS) when
 * from is below the axis' smallest value (1 thread, 0 of the others) or to is above INT32_MAX on an
 * int32_t axis; GPUOCC_ERR_NULL for a NULL count, or NULL points with capacity > 0; the device and
 * kernel errors of gpuocc_occupancy; GPUOCC_ERR_OVERFLOW when a point's block shared memory (static +
 * dynamic + reserved) reaches 2^60 bytes, as gpuocc_occupancy.  On GPUOCC_ERR_BUFFER, *count is the number of points needed and
 * nothing else is written; capacity 0 with NULL points is the size query.
 *
 * Cost: the device and the kernel are checked once per call; a point then costs about one launch of
 * gpuocc_occupancy_batch (docs/implementation.md).
 * gpuocc_sweep_steps evaluates only at the thresholds of the limits that move.
 *
 * AMD devices: every point is the AMD answer of the kernel's model (registers = arch VGPRs, shared memory =
 * dynamic LDS; barriers change nothing); gpuocc_sweep_steps finds its steps by bisection on the AMD rules;
 * gpuocc_sweep_range gives threads by the kernel's wave size and VGPRs 0 .. 256.
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_AXIS_THREADS  0 /* threads per block */
#define GPUOCC_AXIS_REGS     1 /* registers per thread */
#define GPUOCC_AXIS_SMEM     2 /* dynamic shared memory per block, bytes (static kept as given) */
#define GPUOCC_AXIS_BARRIERS 3 /* barriers per block */
#define GPUOCC_AXIS_COUNT    4

/* One point: the fields of gpuocc_result that describe it (see there), fixed layout for arrays. */
typedef struct gpuocc_sweep_point {
    int64_t value;                 /* the axis value (threads, registers, bytes or barriers) */
    int32_t blocks_per_sm;
    int32_t warps_per_sm;
    double occupancy;              /* 0..1 */
    uint32_t limiters;             /* GPUOCC_LIMIT_* */
    int32_t limit_warps;           /* blocks per SM each resource allows, GPUOCC_UNLIMITED where none */
    int32_t limit_regs;
    int32_t limit_smem;
    int32_t limit_blocks;
    int32_t limit_barriers;
    int32_t regs_per_block;
    int32_t reserved0;             /* zero */
    int64_t smem_per_block_bytes;
    int64_t smem_per_sm_bytes;
} gpuocc_sweep_point;

/*
 * The points from, from + step, ... up to to (inclusive where it lies on the grid): *count =
 * (to - from) / step + 1 (GPUOCC_ERR_OVERFLOW when that exceeds INT32_MAX).  Fills points[0 .. *count-1].
 */
GPUOCC_API int32_t gpuocc_sweep(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis,
                                int64_t from, int64_t to, int64_t step,
                                gpuocc_sweep_point *points, int32_t capacity, int32_t *count);
/*
 * The staircase on [from, to] as runs, at unit resolution (1 thread, 1 register, 1 byte, 1 barrier):
 * steps[0] is `from`; each further entry is a value v where the answer (blocks_per_sm, warps_per_sm,
 * limiters) differs from the answer at v - 1, with the point there.  Entry i holds on [steps[i].value,
 * steps[i+1].value - 1].  Found from the allocation rules' thresholds, not by visiting every value.
 */
GPUOCC_API int32_t gpuocc_sweep_steps(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis,
                                      int64_t from, int64_t to,
                                      gpuocc_sweep_point *steps, int32_t capacity, int32_t *count);
/*
 * The whole legal range of an axis at its natural granularity: threads warp_size .. the largest block
 * (the device's, or the kernel's max_threads_per_block when smaller) by warp_size; registers 0 .. 255
 * (what ptxas allocates; less where the device allows less) by 1; dynamic shared memory 0 .. the most the
 * kernel may ask for (opt-in: smem_dynamic_max_bytes, or the opt-in limit less the static bytes; else the
 * default per-block limit less the static bytes; 0 when negative) by smem_alloc_unit_bytes; barriers
 * 0 .. 16 (PTX names barriers 0..15) by 1.  Errors as gpuocc_sweep.
 */
GPUOCC_API int32_t gpuocc_sweep_range(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t axis,
                                      int64_t *from, int64_t *to, int64_t *step);

/* ---------------------------------------------------------------------------------------------------
 * Many launches on one device.  @since 1.0.0
 *
 * For many launches on one device: gpuocc_prepare checks the device once and keeps it, with the values
 * NVIDIA's rule derives from it, in a struct the caller owns; gpuocc_occupancy_prepared and
 * gpuocc_occupancy_batch then check only the launch.  Every answer is gpuocc_occupancy's for that launch.
 * A state modified since may give another answer or GPUOCC_ERR_DEVICE, never a read outside the struct or
 * undefined behaviour.  How the batch is evaluated (a vector loop chosen at run time) is in
 * docs/implementation.md.
 * ------------------------------------------------------------------------------------------------- */

/* NVIDIA's rule reads these values, derived once from a checked device by gpuocc_prepare (every query
   derives them the same way on its own device).  A unit's shift is log2 of the unit when the unit is a
   power of two (every NVIDIA GPU), else -1 (the rule divides by the unit).  Zero for another vendor.
   @since 1.0.0 */
typedef struct gpuocc_prepared_nvidia {
    int32_t warp_size;                     /* threads per warp */
    int32_t warp_shift;                    /* log2(warp_size), or -1 */
    int32_t reg_alloc_unit;                /* registers are given to a warp in multiples of this */
    int32_t reg_alloc_shift;               /* log2(reg_alloc_unit), or -1 */
    int32_t sub_partitions;                /* the register file's split */
    int32_t sub_partition_shift;           /* log2(sub_partitions), or -1 */
    int32_t reg_compat_sub_partitions;     /* 0, or the split a block must also fit (GP100: 4) */
    int32_t reg_compat_shift;              /* log2(reg_compat_sub_partitions), or -1 (also for 0) */
    int32_t smem_alloc_unit_bytes;         /* shared memory is given to a block in multiples of this */
    int32_t smem_alloc_shift;              /* log2(smem_alloc_unit_bytes), or -1 */
    int32_t max_threads_per_block;
    int32_t max_warps_per_sm;              /* max_threads_per_sm / warp_size */
    int32_t max_blocks_per_sm;
    int32_t regs_per_thread_max;
    int32_t regs_per_block;
    int32_t regs_per_sub_partition;        /* regs_per_sm / sub_partitions */
    int32_t regs_per_compat_sub_partition; /* regs_per_sm / reg_compat_sub_partitions; 0 without */
    int32_t barriers_per_sm;               /* 0: barriers never limit */
    int32_t barriers_per_block_max;        /* the device's, 16 where it says 0 */
    int32_t virtual_resources_per_sm;      /* 0: none */
    int32_t tmem_columns_per_sm;           /* 0: none */
    int32_t carveout_count;                /* entries used in carveouts_kib */
    int32_t carveouts_kib[GPUOCC_MAX_CARVEOUTS]; /* ascending, unused entries 0 */
    int64_t smem_per_sm_bytes;
    int64_t smem_per_block_bytes;
    int64_t smem_per_block_optin_bytes;
    int64_t smem_reserved_per_block_bytes;
    uint64_t reserved[4];                  /* zero */
} gpuocc_prepared_nvidia;

/* A device checked once (624 bytes).  Owned by the caller (stack, heap, anywhere; no allocation, nothing
   global), filled by gpuocc_prepare.  Only the exact size gpuocc_prepare was given for this layout is
   accepted (GPUOCC_ERR_STRUCT_SIZE otherwise, nothing further read), and only a struct it filled
   (GPUOCC_ERR_DEVICE when `magic` is not GPUOCC_PREPARED_MAGIC, or `device.size` is not sizeof(gpuocc_device)).
   The vendor is `device.vendor`'s.  A change since gives another answer or GPUOCC_ERR_DEVICE (see the cost
   model above). */
#define GPUOCC_PREPARED_MAGIC 0x32636f67u /* "goc2": this layout */
typedef struct gpuocc_prepared {
    uint32_t size;                 /* sizeof(gpuocc_prepared) */
    uint32_t magic;                /* GPUOCC_PREPARED_MAGIC, written by gpuocc_prepare */
    gpuocc_device device;          /* the checked device, current layout, written by gpuocc_prepare */
    gpuocc_prepared_nvidia nvidia; /* NVIDIA's derived values, written by gpuocc_prepare (zero for another vendor) */
} gpuocc_prepared;

/* Check `dev` (as gpuocc_device_validate does) and fill `prepared` (prepared->size set by the caller).
   Errors: those of gpuocc_device_validate; GPUOCC_ERR_NULL; GPUOCC_ERR_STRUCT_SIZE.  An AMD device is
   prepared too: its batches answer each launch with the AMD rules of the base kernel's model (the base
   kernel's AMD fields apply to every launch; `regs_per_thread` holds VGPRs, the shared-memory columns LDS).
   @since 1.0.0 */
GPUOCC_API int32_t gpuocc_prepare(const gpuocc_device *dev, gpuocc_prepared *prepared);

/*
 * A pointer in a public struct takes 64 bits on every target, so that every struct has one layout on 32- and
 * 64-bit targets (wasm32, i386, x86_64...): on a 32-bit target 32 bits of padding, `<name>_pad`, sit beside
 * the pointer (after it when little-endian, before it when big-endian); the library never reads them.
 * @since 1.0.0
 */
#if UINTPTR_MAX > 0xffffffffu
#define GPUOCC_PTR64(decl, pad) decl
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GPUOCC_PTR64(decl, pad) uint32_t pad; decl
#else
#define GPUOCC_PTR64(decl, pad) decl; uint32_t pad
#endif

/*
 * The columns of a batch of launches, structure of arrays, `count` elements each.  Inputs: NULL = the
 * base kernel's value for every launch.  Outputs: NULL = not wanted, except `status`, which is required.
 * Shared-memory inputs are int32_t or int64_t elements, as smem_width says (4 or 8).  @since 1.0.0
 */
typedef struct gpuocc_batch {
    uint32_t size;      /* sizeof(gpuocc_batch) */
    int32_t smem_width; /* 4 or 8: bytes per element of the two shared-memory inputs */
    /* in */
    GPUOCC_PTR64(const int32_t *threads_per_block, threads_per_block_pad);
    GPUOCC_PTR64(const int32_t *regs_per_thread, regs_per_thread_pad);
    GPUOCC_PTR64(const void *smem_static_bytes, smem_static_bytes_pad);   /* int32_t or int64_t elements */
    GPUOCC_PTR64(const void *smem_dynamic_bytes, smem_dynamic_bytes_pad); /* int32_t or int64_t elements */
    /* out, required: GPUOCC_OK, or the status gpuocc_occupancy gives this launch (GPUOCC_ERR_THREADS,
       _REGISTERS, _SMEM, _BARRIERS, _ARGUMENT, _EXCEEDED, _TMEM, _OVERFLOW...); its other outputs are 0 but
       exceeded and exceeded_limit, which name the input on a refusal */
    GPUOCC_PTR64(int32_t *status, status_pad);
    /* out: the gpuocc_result fields of the same names */
    GPUOCC_PTR64(int32_t *blocks_per_sm, blocks_per_sm_pad);
    GPUOCC_PTR64(int32_t *warps_per_sm, warps_per_sm_pad);
    GPUOCC_PTR64(double *occupancy, occupancy_pad);
    GPUOCC_PTR64(uint32_t *limiters, limiters_pad);
    GPUOCC_PTR64(int32_t *limit_warps, limit_warps_pad);
    GPUOCC_PTR64(int32_t *limit_regs, limit_regs_pad);
    GPUOCC_PTR64(int32_t *limit_smem, limit_smem_pad);
    GPUOCC_PTR64(int32_t *limit_blocks, limit_blocks_pad);
    GPUOCC_PTR64(int32_t *limit_barriers, limit_barriers_pad);
    GPUOCC_PTR64(int32_t *regs_per_block, regs_per_block_pad);
    GPUOCC_PTR64(int64_t *smem_per_block_bytes, smem_per_block_bytes_pad);
    GPUOCC_PTR64(int64_t *smem_per_sm_bytes, smem_per_sm_bytes_pad);
    /* out, AMD's: the gpuocc_result fields of the same names (NVIDIA: 0 and GPUOCC_UNLIMITED, as
       gpuocc_occupancy) */
    GPUOCC_PTR64(int32_t *waves_per_simd, waves_per_simd_pad);
    GPUOCC_PTR64(int32_t *limit_sgprs, limit_sgprs_pad);
    uint64_t reserved[2]; /* zero */
    /* in: the gpuocc_kernel fields of the same names */
    GPUOCC_PTR64(const int32_t *barriers, barriers_pad);
    GPUOCC_PTR64(const int32_t *virtual_resources, virtual_resources_pad);
    GPUOCC_PTR64(const int32_t *tmem_columns, tmem_columns_pad);
    /* out: the gpuocc_result fields of the same names (exceeded also on a refused launch's row) */
    GPUOCC_PTR64(int32_t *limit_virtual_resources, limit_virtual_resources_pad);
    GPUOCC_PTR64(int32_t *exceeded, exceeded_pad);
    GPUOCC_PTR64(int64_t *exceeded_limit, exceeded_limit_pad);
} gpuocc_batch;

/*
 * gpuocc_occupancy for `count` launches of `base` on a prepared device, each launch with the values the
 * batch's input columns give it (every other field is the base kernel's).  `base` must itself be valid
 * (gpuocc_kernel_init's defaults are).  A launch gpuocc_occupancy would refuse gets that status in `status`
 * and does not stop the others; the call itself returns GPUOCC_OK then.  Errors (nothing written):
 * GPUOCC_ERR_NULL (prepared, base, batch or batch->status is NULL), GPUOCC_ERR_STRUCT_SIZE (prepared's size
 * not this layout's, or batch's neither this layout's nor a larger one's), GPUOCC_ERR_RESERVED (batch->reserved, or a nonzero byte past
 * the batch's layout), GPUOCC_ERR_DEVICE (a prepared device gpuocc_prepare did not fill, or an AMD or Intel one changed
 * since into an invalid device), the base kernel's field errors, GPUOCC_ERR_ARGUMENT (smem_width not 4
 * or 8).  @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_occupancy_batch(const gpuocc_prepared *prepared, const gpuocc_kernel *base,
                                          const gpuocc_batch *batch, size_t count);

/*
 * gpuocc_occupancy on a prepared device: the same answer, and the same errors, as gpuocc_occupancy(dev,
 * kernel, result) for the device `prepared` was filled from.  Errors: GPUOCC_ERR_NULL; GPUOCC_ERR_STRUCT_SIZE
 * when prepared->size is not sizeof(gpuocc_prepared); GPUOCC_ERR_DEVICE for a struct gpuocc_prepare did not
 * fill (or an AMD or Intel device changed since into an invalid one); then the kernel's and the result's errors as
 * gpuocc_occupancy gives them.  Thread-safe: the prepared device is only read.
 *
 * Which call to use: one launch on a device used once: gpuocc_occupancy.  Many single launches on one
 * device, asked one at a time (a tuner's loop, a binding that keeps the device): gpuocc_prepare once, then
 * this call.  Many launches known together (columns of threads, registers, shared memory): one
 * gpuocc_occupancy_batch (one call for the lot).  One axis of one launch
 * over a range: gpuocc_sweep (or gpuocc_sweep_steps for its staircase).  @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_occupancy_prepared(const gpuocc_prepared *prepared, const gpuocc_kernel *kernel,
                                             gpuocc_result *result);


#ifdef __cplusplus
}
#endif
#endif /* GPUOCC_H */

/* ===================================================================================================
 * EXPERIMENTAL.  Declared only when GPUOCC_EXPERIMENTAL is defined before this header is included
 * (as zstd's ZSTD_STATIC_LINKING_ONLY section): prototypes, structs, values and meanings below may
 * change or go in any 1.x minor release; the CHANGELOG says when they do.  Exported under the symbol
 * version GPUOCC_EXPERIMENTAL.  What is likely to change is said at the head of each part.
 * =================================================================================================== */
#if defined(GPUOCC_EXPERIMENTAL) && !defined(GPUOCC_H_EXPERIMENTAL)
#define GPUOCC_H_EXPERIMENTAL

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================================================
 * Beyond occupancy: latency hiding, spills, waves, lanes, diagnosis.  Formulas and sources: docs/models.md.
 * Likely to change in 1.x: the models' constants and published figures as better measurements appear
 * (gpuocc_perf, the bandwidth model's per-product inputs), and their structs' fields.
 * All take and return doubles in the units their names say; NaN or infinite inputs give
 * GPUOCC_ERR_NOT_FINITE, values outside the domain (zero or negative latency, ...) GPUOCC_ERR_DOMAIN.
 * Finite inputs whose answer does not fit a double (1e300 x 1e300) give GPUOCC_ERR_OVERFLOW: no result
 * reported as GPUOCC_OK is ever infinite or NaN, and on any error every output is left untouched.
 * =================================================================================================== */

/* Little's law for one pipe: warps = latency x throughput / ilp (Volkov 2016 §3.4).  `throughput` in
   warp-instructions per cycle per SM, `ilp` the independent instructions each warp keeps in flight (>= 1).
   @since 1.0.0 */
GPUOCC_API int32_t gpuocc_warps_needed(double latency_cycles, double throughput_per_cycle, double ilp,
                                       double *warps);
/* Volkov's instruction-mix model: alpha arithmetic instructions per memory instruction;
   n = (mem_latency + alpha x alu_latency) x min(mem_throughput, alu_throughput / alpha,
   issue_throughput / (alpha + 1)); issue_throughput 0 = no separate issue limit.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_mix_warps_needed(double alpha, double alu_latency_cycles, double alu_throughput,
                                           double mem_latency_cycles, double mem_throughput,
                                           double issue_throughput, double *warps);
/* The cusp of the mix model (no issue limit): alpha* = alu_throughput / mem_throughput, where the most
   warps are needed: alu_latency x alu_throughput + mem_latency x mem_throughput.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_mix_cusp(double alu_latency_cycles, double alu_throughput, double mem_latency_cycles,
                                   double mem_throughput, double *alpha, double *warps);
/* Bytes in flight to saturate a memory level: bandwidth x latency, device-wide and per SM.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_bytes_in_flight(double bandwidth_bytes_per_s, double latency_ns, int32_t sm_count,
                                          double *bytes_per_sm, double *bytes_device);
/*
 * The bandwidth a per-SM concurrency reaches.  x = bytes_in_flight_per_sm x sm_count / (latency x peak).
 * smooth_k <= 0: the hard minimum, peak x min(x, 1) (Volkov).  smooth_k > 0: peak x x / (1 + x^k)^(1/k);
 * GPUOCC_SMOOTH_K gives 80 % of peak at the knee (x = 1), as Volkov measured.  @since 1.0.0
 */
#define GPUOCC_SMOOTH_K 3.1062837195053903 /* 1 / log2(1.25) */
GPUOCC_API int32_t gpuocc_bandwidth_at(double bytes_in_flight_per_sm, int32_t sm_count, double latency_ns,
                                       double peak_bytes_per_s, double smooth_k, double *bytes_per_s);

/* The verdict: with warps_per_sm resident, is this latency hidden, and if not what would hide it.
   @since 1.0.0 */
typedef struct gpuocc_latency_verdict {
    uint32_t size;
    int32_t hidden;            /* 1 when warps_per_sm >= warps_needed */
    double in_flight;          /* latency x throughput: instructions that must be in flight per SM */
    double warps_needed;       /* in_flight / ilp */
    double extra_warps;        /* warps_needed - warps_per_sm, or 0 */
    double ilp_needed;         /* the ILP that would hide it with warps_per_sm warps */
    uint64_t reserved[4];
} gpuocc_latency_verdict;
/* warps_per_sm must be > 0 (GPUOCC_ERR_DOMAIN otherwise: with no warps no ILP hides the latency). */
GPUOCC_API int32_t gpuocc_latency_check(double warps_per_sm, double latency_cycles, double throughput_per_cycle,
                                        double ilp, gpuocc_latency_verdict *verdict);

/* Per-architecture and per-product performance constants.  0 = no published figure (docs/models.md says
   which); every field may be overridden by the caller.  @since 1.0.0 */
typedef struct gpuocc_perf {
    uint32_t size;
    int32_t sm_count;
    double sm_clock_mhz;             /* boost clock, deviceQuery */
    double dram_bandwidth_gbps;      /* peak, 1e9 B/s */
    double l2_bandwidth_gbps;        /* measured */
    double latency_clock_mhz;        /* the clock the cycle latencies below were measured at */
    double dram_latency_cycles;      /* unloaded pointer chase */
    double l2_latency_cycles;
    double l1_latency_cycles;
    double smem_latency_cycles;
    double fp32_latency_cycles;      /* dependent FFMA/FADD */
    double fp32_lanes;               /* FP32 results per cycle per SM */
    double issue_per_cycle;          /* warp-instructions issued per cycle per SM (schedulers) */
    double bytes_in_flight_target;   /* per SM, NVIDIA CUB's tuned target for streaming kernels */
    uint64_t reserved[4];
    /* DRAM interface and measured ceiling (docs/models.md, "Constants"), for gpuocc_bandwidth_model: */
    double dram_bus_bits;            /* data pins of the DRAM interface (datasheet) */
    double dram_attainable_gbps;     /* best bandwidth any kernel reached in a published run (0 = none) */
    int32_t dram_latency_own;        /* 1: dram_latency_cycles was measured on this product; 0: borrowed */
    int32_t reserved1;
    char dram_memory[16];            /* memory type: "HBM2e", "GDDR6", ... ("" = unknown) */
    char dram_source[384];           /* where the DRAM constants above come from, one line */
} gpuocc_perf;
GPUOCC_API int32_t gpuocc_perf_lookup(const char *name, gpuocc_perf *perf);

/*
 * DRAM bandwidth of a streaming kernel against its concurrency (docs/models.md, "Bandwidth against
 * concurrency"): Little's law with a latency that grows with the memory interface's queue,
 *   bandwidth = bytes in flight / L,   L = BASE x latency_ns + (QUEUE_BITS / r) x rho / (1 - rho),
 *   rho = bandwidth / attainable,      r = 8 x peak_gbps / bus_bits  (Gbit/s per data pin),
 * where bytes in flight = warps_per_sm x bytes_per_warp x sm_count, latency_ns is the unloaded
 * (pointer-chase) DRAM latency and attainable the best bandwidth the memory was measured to reach (the
 * datasheet peak when none is published).  The queue term is an M/M/1 queue per data pin whose service time
 * is QUEUE_BITS bit times of that pin: at the same utilisation every interface holds the same bytes per pin
 * in its queue, so a fast-pin GDDR6 part queues for less time than a slow-pin HBM part.  BASE is measured
 * (Little's law at RRZE gpu-stream's loads below 4 warps/SM, where no queue forms, on the nine curves the
 * model is checked on); QUEUE_BITS is the one fitted constant (same curves, points from 4 warps/SM up).
 * Every per-product input is a datasheet figure or a published measurement.  @since 1.0.0
 */
#define GPUOCC_LOADED_LATENCY_BASE 1.69  /* streaming round trip / pointer-chase latency, at light load */
#define GPUOCC_DRAM_QUEUE_BITS 210.0     /* M/M/1 service time of the DRAM queue, in bit times of one data pin */
typedef struct gpuocc_bandwidth_prediction {
    uint32_t size;
    int32_t sm_count;               /* SMs the prediction is for */
    double bandwidth_gbps;          /* predicted DRAM bandwidth, 1e9 B/s */
    double fraction_of_peak;        /* bandwidth_gbps / peak_gbps, in [0, attainable / peak) */
    double peak_gbps;               /* the peak used (datasheet) */
    double latency_ns;              /* the unloaded latency used */
    double loaded_latency_ns;       /* the latency at the predicted load (Little: bytes in flight / bandwidth) */
    double bytes_in_flight_per_sm;  /* warps_per_sm x bytes_per_warp */
    double warps_for_80;            /* resident warps per SM, each with bytes_per_warp in flight, for 80 % of
                                       the attainable bandwidth */
    double warps_for_90;            /* ... 90 % */
    double warps_for_95;            /* ... 95 % (may exceed what an SM can hold: then more bytes per warp) */
    uint64_t reserved[4];
    double attainable_gbps;         /* the ceiling used: measured, or peak_gbps */
    double bus_bits;                /* DRAM data pins used */
    double pin_rate_gbps;           /* 8 x peak_gbps / bus_bits */
    double queue_service_ns;        /* GPUOCC_DRAM_QUEUE_BITS / pin_rate_gbps */
    double fraction_of_attainable;  /* bandwidth_gbps / attainable_gbps, in [0, 1) */
} gpuocc_bandwidth_prediction;
/* With explicit constants: latency_ns > 0 (unloaded DRAM latency), peak_gbps > 0, bus_bits > 0 (data pins),
   attainable_gbps in (0, peak_gbps] or 0 (= peak_gbps), bytes_per_warp > 0, warps_per_sm >= 0.
   GPUOCC_ERR_NOT_FINITE / GPUOCC_ERR_DOMAIN for bad doubles (attainable above peak included),
   GPUOCC_ERR_SM_COUNT when sm_count < 1, GPUOCC_ERR_OVERFLOW when the concurrency is not representable,
   GPUOCC_ERR_NULL, GPUOCC_ERR_STRUCT_SIZE.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_bandwidth_model(double warps_per_sm, double bytes_per_warp, int32_t sm_count,
                                          double latency_ns, double peak_gbps, double bus_bits,
                                          double attainable_gbps, gpuocc_bandwidth_prediction *prediction);
/* With the table's constants for a product (gpuocc_perf_lookup: SM or CU count, peak DRAM bandwidth, bus
   width, measured ceiling, DRAM latency converted to ns at the clock it was measured at).  On AMD a warp is
   a wavefront and an SM a CU.  GPUOCC_ERR_UNKNOWN_DEVICE for an unknown name,
   GPUOCC_ERR_SM_COUNT for a bare architecture (no SM count), GPUOCC_ERR_UNSATISFIABLE when the table has
   no published bandwidth, bus width or latency for it (use gpuocc_bandwidth_model), else as
   gpuocc_bandwidth_model.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_bandwidth_predict(const char *name, double warps_per_sm, double bytes_per_warp,
                                            gpuocc_bandwidth_prediction *prediction);

/* Spill slowdown of a loop: (work + accesses x latency) / work; the seeds' 2 x 300 on 256 = 3.34x.
   @since 1.0.0 */
GPUOCC_API int32_t gpuocc_spill_slowdown(double work_cycles, double spill_accesses, double spill_latency_cycles,
                                         double *slowdown);
/* Spill traffic: ptxas's static spill bytes per thread x executions x threads, through L1 and L2 hit
   rates, costed against L2 and DRAM bandwidth and the load/store issue rate (1 warp-instruction per cycle
   per SM).  @since 1.0.0 */
typedef struct gpuocc_spill_input {
    uint32_t size;
    int32_t sm_count;
    double spill_load_bytes;         /* per thread, as ptxas reports */
    double spill_store_bytes;
    double executions;               /* times the spilling code runs per thread (loop trips; 1 if unknown) */
    double threads;                  /* threads launched */
    double access_bytes;             /* bytes per spill instruction (4, 8 or 16) */
    double l1_hit_rate;              /* 0..1 */
    double l2_hit_rate;              /* 0..1 */
    double l2_bandwidth_bytes_per_s;
    double dram_bandwidth_bytes_per_s;
    double clock_hz;
    uint64_t reserved[4];
} gpuocc_spill_input;
typedef struct gpuocc_spill_cost {
    uint32_t size;
    int32_t reserved0;
    double local_bytes;              /* bytes the spill instructions touch */
    double instructions;             /* warp-level spill instructions */
    double issue_s, l2_s, dram_s;    /* time on each resource */
    double spill_s;                  /* the largest: the spills' cost if they do not overlap other work */
    uint64_t reserved[4];
} gpuocc_spill_cost;
GPUOCC_API int32_t gpuocc_spill_input_init(gpuocc_spill_input *in);
/* GPUOCC_ERR_RESERVED when a reserved word of `in` is not zero. */
GPUOCC_API int32_t gpuocc_spill_estimate(const gpuocc_spill_input *in, gpuocc_spill_cost *cost);

/* The register / occupancy trade-off: each register cap below the kernel's count that changes blocks per
   SM (the staircase), what it buys and what it costs if the shed registers spill.  Each shed register is
   assumed to add `spill_accesses_per_reg` accesses of `spill_latency_cycles` to `work_cycles`.
   Fills up to `capacity` steps, best occupancy last; *count is the number of steps (also on
   GPUOCC_ERR_BUFFER).  GPUOCC_ERR_OVERFLOW when a reported step's slowdown does not fit a double; then
   neither `steps` nor *count is written.  @since 1.0.0 */
typedef struct gpuocc_tradeoff_step {
    int32_t regs_per_thread;         /* the cap */
    int32_t regs_shed;
    int32_t blocks_per_sm;
    int32_t warps_per_sm;
    double occupancy;
    double spill_slowdown;           /* gpuocc_spill_slowdown of the shed registers */
} gpuocc_tradeoff_step;
GPUOCC_API int32_t gpuocc_tradeoff(const gpuocc_device *dev, const gpuocc_kernel *kernel, double work_cycles,
                                   double spill_accesses_per_reg, double spill_latency_cycles,
                                   gpuocc_tradeoff_step *steps, int32_t capacity, int32_t *count);

/* Waves: a grid of grid_blocks on sm_count SMs at blocks_per_sm.  @since 1.0.0 */
typedef struct gpuocc_waves_result {
    uint32_t size;
    int32_t reserved0;
    int64_t blocks_per_wave;
    int64_t full_waves;
    int64_t waves;                   /* full waves plus a partial one */
    int64_t last_wave_blocks;        /* blocks in the last wave (blocks_per_wave when it is full) */
    double last_wave_utilization;    /* last_wave_blocks / blocks_per_wave */
    double efficiency;               /* grid_blocks / (waves x blocks_per_wave) */
    int64_t grid_down, grid_up;      /* nearest multiples of blocks_per_wave: no tail */
    uint64_t reserved[4];
} gpuocc_waves_result;
GPUOCC_API int32_t gpuocc_waves(int64_t grid_blocks, int32_t sm_count, int32_t blocks_per_sm,
                                gpuocc_waves_result *out);

/* Lane efficiency of a block size: threads / (warps x warp_size).  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_lane_efficiency(int32_t threads_per_block, int32_t warp_size, double *efficiency);
/* A warp whose lanes take `paths` distinct paths: lanes[i] lanes run path i costing cost[i] cycles.
   Serialized cost = sum of costs; SIMT efficiency = sum(lanes x cost) / (warp_size x sum(cost)), the
   fraction ncu reports x 32 as thread_inst_executed_per_inst_executed.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_divergence(const int32_t *lanes, const double *cost_cycles, int32_t paths,
                                     int32_t warp_size, double *serialized_cycles, double *simt_efficiency);
/* Random routing: warp_size lanes pick one of `paths` equally likely paths (MoE with `paths` experts).
   Expected distinct paths per warp E(1 - (1 - 1/E)^w), expected SIMT efficiency E[1/k] for equal path
   costs, and the same after sorting `items` by path (boundaries between groups fall inside a warp).
   @since 1.0.0 */
typedef struct gpuocc_routing_result {
    uint32_t size;
    int32_t reserved0;
    double random_paths, random_efficiency;
    double sorted_paths, sorted_efficiency;
    uint64_t reserved[4];
} gpuocc_routing_result;
GPUOCC_API int32_t gpuocc_routing(int32_t paths, int64_t items, int32_t warp_size, gpuocc_routing_result *out);

/* Diagnosis: what a dominant stall reason means at this occupancy, and what to try first.  @since 1.0.0 */
#define GPUOCC_STALL_LONG_SCOREBOARD   0
#define GPUOCC_STALL_SHORT_SCOREBOARD  1
#define GPUOCC_STALL_BARRIER           2
#define GPUOCC_STALL_MIO_THROTTLE      3
#define GPUOCC_STALL_LG_THROTTLE       4
#define GPUOCC_STALL_MATH_PIPE         5
#define GPUOCC_STALL_NOT_SELECTED      6
#define GPUOCC_STALL_NO_INSTRUCTION    7
#define GPUOCC_STALL_COUNT             8
/* The name ("long_scoreboard", ...) of a stall reason, "" if unknown; and the reverse (-1 if unknown). */
GPUOCC_API const char *gpuocc_stall_name(int32_t reason);
GPUOCC_API int32_t gpuocc_stall_from_name(const char *name);
/* Static strings: what it means, and the advice for this occupancy (0..1); *occupancy_helps is 1 when
   more warps are the first thing to try. */
GPUOCC_API int32_t gpuocc_diagnose(int32_t reason, double occupancy, const char **meaning, const char **advice,
                                   int32_t *occupancy_helps);

/* Roofline: arithmetic intensity = flops / bytes; ridge = peak_flops / peak_bandwidth; attainable =
   min(peak_flops, intensity x bandwidth); *compute_bound = intensity >= ridge.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_roofline(double flops, double bytes, double peak_flops_per_s,
                                   double peak_bytes_per_s, double *intensity, double *ridge,
                                   double *attainable_flops_per_s, int32_t *compute_bound);

/* ---------------------------------------------------------------------------------------------------
 * Thread-block clusters (NVIDIA, compute capability 9.0 and later): whether a cluster launch is legal,
 * and how many clusters can be resident at once.  docs/model.md, "Thread-block clusters", gives every rule
 * with its source.  @since 1.0.0
 * Likely to change in 1.x: the published GPC layouts (gpuocc_gpc_layout_lookup) and the verdicts where
 * NVIDIA has not published a limit, as it does; the cluster structs may grow.
 *
 * Legality is exact where the limits are published: clusters need cc >= 9.0; at most 8 blocks per cluster
 * (the portable size) on every cc >= 9.0; more only with cudaFuncAttributeNonPortableClusterSizeAllowed, up
 * to 16 on cc 9.0 (H100) and 10.0 (B200), 8 on cc 10.1 / 11.0 (Thor) and 12.1 (GB10); the non-portable
 * maximum of cc 10.3 and 12.0 is not published (the verdict is then GPUOCC_CLUSTER_UNVERIFIED).  These are
 * keyed on the device's cc_major / cc_minor (gpuocc_device has no cluster fields).  A grid, when given,
 * must be a whole number of clusters in every dimension.
 *
 * Resident clusters: a cluster never spans a GPC and its blocks must be resident at once, so a GPC of S
 * SMs holding b blocks of the kernel per SM (gpuocc_occupancy's blocks_per_sm) holds floor(S x b / c)
 * clusters of c blocks, and the GPU the sum over its GPCs.  For a layout the caller gives GPC by GPC this
 * is an exact count of that rule; the runtime's own placement is not published and may place fewer
 * (cudaOccupancyMaxActiveClusters is documented as not guaranteed to be achievable).  For a product
 * whose GPC-by-GPC layout is not published (floor-sweeping differs from die to die), the answer is a
 * BOUND: the range of that count over every layout its die and SM count allow.
 * ------------------------------------------------------------------------------------------------- */
#define GPUOCC_CLUSTER_PORTABLE_MAX 8   /* blocks per cluster every cc >= 9.0 device accepts */
#define GPUOCC_CLUSTER_MAX_UNKNOWN (-1) /* a maximum that no public source gives */
#define GPUOCC_MAX_GPCS 32              /* entries of gpuocc_gpc_layout.sms_per_gpc */

/* gpuocc_cluster_check's verdict, and gpuocc_cluster_result.verdict (LEGAL or UNVERIFIED only). */
#define GPUOCC_CLUSTER_LEGAL             0
#define GPUOCC_CLUSTER_UNSUPPORTED       1 /* no clusters: cc below 9.0, or a vendor whose clusters are not modelled */
#define GPUOCC_CLUSTER_NEEDS_NONPORTABLE 2 /* more than 8 blocks without the non-portable attribute */
#define GPUOCC_CLUSTER_TOO_LARGE         3 /* more blocks than the published non-portable maximum */
#define GPUOCC_CLUSTER_KERNEL_MAX        4 /* more blocks than the kernel's own max_blocks_per_cluster */
#define GPUOCC_CLUSTER_GRID              5 /* a cluster dimension does not divide the grid's */
#define GPUOCC_CLUSTER_UNVERIFIED        6 /* non-portable, above 8, on a cc whose maximum is not published */

/* A cluster launch.  @since 1.0.0 */
typedef struct gpuocc_cluster {
    uint32_t size;                  /* sizeof(gpuocc_cluster) */
    int32_t cluster_x;              /* blocks per cluster in each dimension (__cluster_dims__, or the */
    int32_t cluster_y;              /*   launch attribute), each >= 1 */
    int32_t cluster_z;
    int32_t cluster_nonportable;    /* 1: cudaFuncAttributeNonPortableClusterSizeAllowed is set; 0 or 1 */
    int32_t max_blocks_per_cluster; /* the kernel's own maximum (.maxclusterrank, the binary readers'
                                       max_blocks_per_cluster); 0 = none */
    int64_t grid_x;                 /* the grid in blocks per dimension; all three 0 = no grid given (not */
    int64_t grid_y;                 /*   checked); else each >= 1 */
    int64_t grid_z;
} gpuocc_cluster;

/* Zero `cluster`, set size and a 1 x 1 x 1 cluster with no grid.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_cluster_init(gpuocc_cluster *cluster);

/* SMs per GPC, given GPC by GPC (exact = 1) or by the die's shape and the SM count (exact = 0: every
   layout of sm_count SMs in gpc_count GPCs of at most tpcs_per_gpc_max TPCs of sms_per_tpc SMs, a GPC
   possibly wholly disabled).  @since 1.0.0 */
typedef struct gpuocc_gpc_layout {
    uint32_t size;                  /* sizeof(gpuocc_gpc_layout) */
    int32_t gpc_count;              /* 1 .. GPUOCC_MAX_GPCS */
    int32_t exact;                  /* 1: sms_per_gpc[0 .. gpc_count - 1] is the layout (each 0 .. 1024, at
                                       least one SM in all; entries past gpc_count 0), the three below 0;
                                       0: sms_per_gpc all 0 and the three below describe the die */
    int32_t sm_count;               /* exact 0: SMs enabled on the product, a multiple of sms_per_tpc */
    int32_t sms_per_tpc;            /* exact 0: SMs are enabled a TPC at a time, 1 .. 16 (2 on GH100, GB202) */
    int32_t tpcs_per_gpc_max;       /* exact 0: TPCs of one GPC on the full die, 1 .. 64 */
    int32_t sms_per_gpc[GPUOCC_MAX_GPCS];
} gpuocc_gpc_layout;

/* The published layout of a product or die by name ("H100 SXM", "H200", "RTX 5090", "RTX PRO 6000",
   "GH100", "GB202"; matched as gpuocc_device_lookup matches names).  A full die (GH100: 8 GPCs x 18 SMs,
   GB202: 12 x 16) is exact; a product is its die's shape and SM count (exact = 0).  `layout->size` must be
   set.  GPUOCC_ERR_UNKNOWN_DEVICE when no layout of that name is published (B200, GB10, Thor: not found in
   public sources).  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_gpc_layout_lookup(const char *name, gpuocc_gpc_layout *layout);

/* The most blocks per cluster `dev` accepts: 0 (no clusters), 8, or with nonportable = 1 the published
   non-portable maximum, GPUOCC_CLUSTER_MAX_UNKNOWN where none is published.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_cluster_size_max(const gpuocc_device *dev, int32_t nonportable, int32_t *blocks);

/* The verdict (GPUOCC_CLUSTER_*) on a cluster launch: the first rule it breaks in the order of the codes,
   UNVERIFIED only when it breaks none.  GPUOCC_ERR_ARGUMENT for a dimension below 1, a nonportable flag
   other than 0 or 1, a negative kernel maximum, or a grid that is neither all 0 nor all >= 1.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_cluster_check(const gpuocc_device *dev, const gpuocc_cluster *cluster, int32_t *verdict);

/* Clusters of cluster_blocks blocks that one GPC of `sms` SMs holds at blocks_per_sm blocks of the kernel
   per SM: floor(sms x blocks_per_sm / cluster_blocks).  GPUOCC_ERR_ARGUMENT for sms or blocks_per_sm
   negative or cluster_blocks below 1.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_clusters_per_gpc(int32_t sms, int32_t blocks_per_sm, int32_t cluster_blocks,
                                           int64_t *clusters);

typedef struct gpuocc_cluster_result {
    uint32_t size;                  /* sizeof(gpuocc_cluster_result) */
    int32_t verdict;                /* GPUOCC_CLUSTER_LEGAL, or GPUOCC_CLUSTER_UNVERIFIED */
    int32_t cluster_blocks;         /* cluster_x x cluster_y x cluster_z */
    int32_t cluster_blocks_max;     /* gpuocc_cluster_size_max for the launch's nonportable flag */
    int32_t blocks_per_sm;          /* gpuocc_occupancy's for the kernel (a cluster does not change it) */
    int32_t clusters_exact;         /* 1: the caller's GPC-by-GPC layout, clusters_min = clusters_max;
                                       0: a bound (clusters_min .. clusters_max) */
    int32_t gpc_count;              /* the layout's GPCs; 0 without a layout */
    int32_t reserved0;              /* zero */
    int64_t clusters_min;           /* fewest resident clusters over the layouts; -1 = unknown (no layout) */
    int64_t clusters_max;           /* most; without a layout floor(sm_count x blocks_per_sm / cluster_blocks),
                                       which no layout exceeds */
} gpuocc_cluster_result;

/* Resident clusters of a legal cluster launch.  `layout` may be NULL (no GPC layout: the bound on
   dev->sm_count, GPUOCC_ERR_SM_COUNT on a bare architecture); else its SM total must equal dev->sm_count
   where that is set (GPUOCC_ERR_ARGUMENT otherwise, and for a layout out of its documented ranges).
   GPUOCC_ERR_CLUSTER when gpuocc_cluster_check's verdict is neither LEGAL nor UNVERIFIED; the errors of
   gpuocc_occupancy for the device and kernel.  `result->size` must be set.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_cluster_occupancy(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                            const gpuocc_cluster *cluster, const gpuocc_gpc_layout *layout,
                                            gpuocc_cluster_result *result);

/* ===================================================================================================
 * Hopper- and Blackwell-era resources beside occupancy: tensor memory, register reallocation,
 * launch bounds checked.  The rules and their sources: docs/model.md.  @since 1.0.0
 * Likely to change in 1.x: these follow what NVIDIA publishes of tcgen05 and setmaxnreg, and may move into
 * the stable occupancy rule once measured on the hardware.
 * =================================================================================================== */

/*
 * Tensor memory (sm_100, sm_103, sm_110).  An SM has tmem_columns_per_sm columns (512); a block that
 * allocates with tcgen05.alloc holds a power of two from 32 to 512 of them, and an allocation that cannot be
 * met waits rather than fails, so tensor memory never lowers the resident blocks: it caps the blocks that
 * hold an allocation at once.  *holders = floor(tmem_columns_per_sm / tmem_columns); GPUOCC_UNLIMITED when
 * tmem_columns is 0.  With cta_group::2 each block of the pair holds the columns in its own SM's tensor
 * memory, so the count per SM is the same.  Resident blocks above *holders stall at tcgen05.alloc.
 * Errors: GPUOCC_ERR_NULL, GPUOCC_ERR_STRUCT_SIZE / _RESERVED / _DEVICE (the device), GPUOCC_ERR_ARGUMENT
 * (tmem_columns not 0 nor a power of two from 32 to 512), GPUOCC_ERR_TMEM (the device has none).
 */
GPUOCC_API int32_t gpuocc_tmem_holders(const gpuocc_device *dev, int32_t tmem_columns, int32_t *holders);

/* gpuocc_setmaxnreg_result.warnings */
#define GPUOCC_SETMAXNREG_UNFIXED 1u /* the kernel records no fixed register count (no maxnreg, -maxrregcount
                                        or __launch_bounds__ minimum of blocks): ptxas then ignores setmaxnreg */
#define GPUOCC_SETMAXNREG_MAX_WARPGROUPS 8 /* 1024 threads / 128 */

typedef struct gpuocc_setmaxnreg_result {
    uint32_t size;                 /* sizeof(gpuocc_setmaxnreg_result) */
    int32_t fits;                  /* 1: requested_regs <= pool_regs (every setmaxnreg.inc can be met) */
    int64_t pool_regs;             /* the block's pool: launch registers per thread x threads per block */
    int64_t requested_regs;        /* the sum over warpgroups of target x 128 */
    double mean_regs_per_thread;   /* requested_regs / threads per block */
    int32_t blocks_per_sm;         /* gpuocc_occupancy of the launch: setmaxnreg does not change it (the
                                      launch's register count is what is allocated) */
    uint32_t warnings;             /* GPUOCC_SETMAXNREG_* */
    int32_t warpgroups;            /* threads per block / 128 */
    int32_t reserved0;             /* zero */
    uint64_t reserved[2];          /* zero */
} gpuocc_setmaxnreg_result;

/*
 * Register reallocation (PTX setmaxnreg, sm_90a and later): `targets[i]` is warpgroup i's register count
 * per thread after setmaxnreg (a multiple of 8 in [24, 256]), for the block's `warpgroups` warpgroups of
 * 128 threads (kernel->threads_per_block = 128 x warpgroups).  `regs_fixed` is 1 when the kernel was
 * compiled with a fixed register count, 0 when it records none (the warning).  `out->size` must be set.
 * Errors: GPUOCC_ERR_NULL, struct errors, GPUOCC_ERR_VENDOR (not NVIDIA), GPUOCC_ERR_SETMAXNREG (before
 * cc 9.0), GPUOCC_ERR_THREADS (threads not a whole number of warpgroups), GPUOCC_ERR_ARGUMENT (warpgroups
 * not threads / 128; regs_fixed not 0 or 1), GPUOCC_ERR_ARGUMENT also for a target off the rule, and those of
 * gpuocc_occupancy.
 */
GPUOCC_API int32_t gpuocc_setmaxnreg_check(const gpuocc_device *dev, const gpuocc_kernel *kernel,
                                           const int32_t *targets, int32_t warpgroups, int32_t regs_fixed,
                                           gpuocc_setmaxnreg_result *out);

/*
 * Launch bounds checked: whether the launch reaches `min_blocks` resident blocks per SM (the minimum of
 * __launch_bounds__(T, min_blocks), or gpuocc_compiled_kernel.min_blocks_per_sm, which a cubin records only
 * through the register cap it implies).  *blocks = the launch's blocks_per_sm; *preventing = the
 * GPUOCC_LIMIT_* of every resource whose limit alone is below min_blocks (0: reached).  Errors: GPUOCC_ERR_NULL,
 * GPUOCC_ERR_ARGUMENT (min_blocks < 1), and those of gpuocc_occupancy.
 */
GPUOCC_API int32_t gpuocc_min_blocks_check(const gpuocc_device *dev, const gpuocc_kernel *kernel, int32_t min_blocks,
                                           int32_t *blocks, uint32_t *preventing);

/* ===================================================================================================
 * Compiler output in: ptxas reports and cubins.  @since 1.0.0
 * Likely to change in 1.x: gpuocc_compiled_kernel is not size-versioned; the binary readers below
 * (gpuocc_binary_kernel, which grows at its tail) are where new compiler outputs go.
 * =================================================================================================== */

/*
 * One kernel as its compiler left it: read from a ptxas report or from a cubin.  Names are not copied:
 * they are offsets into the caller's buffer, so no name is ever truncated.  A value the source does not
 * record is -1 (spills are only in ptxas reports; launch bounds and clusters only in cubins).
 */
typedef struct gpuocc_compiled_kernel {
    uint64_t name_offset, name_length;   /* the (mangled) entry name */
    uint64_t short_offset, short_length; /* readable name: the identifier of a plain _Z mangling, else the name */
    int32_t cc;                          /* target, 90 for sm_90 / sm_90a; 0 when the source does not say
                                            (its variant: arch_variant) */
    int32_t registers;                   /* per thread */
    int32_t barriers;                    /* block barriers; -1 in ptxas logs before CUDA 12 */
    int32_t line;                        /* ptxas: 1-based line of the "Used ..." line; cubin: 0 */
    int64_t smem_bytes;                  /* static shared memory (the driver's reserved window excluded) */
    int64_t cmem_bytes;                  /* constant bank 0 */
    int64_t stack_frame_bytes;
    int64_t spill_store_bytes;           /* ptxas only */
    int64_t spill_load_bytes;            /* ptxas only */
    int64_t lmem_bytes;                  /* older ptxas logs' "bytes lmem" */
    int32_t max_threads_per_block;       /* __launch_bounds__ / __maxntid__ (x*y*z); 0 = not set */
    /* At least __launch_bounds__'s minimum blocks per SM: a cubin stores only the register cap ptxas
       derived from it (max_regs_per_thread), so this is the blocks that cap guarantees at
       max_threads_per_block on the target, usually the minimum itself, more where the register
       allocation steps skip it (bounds (32, 9) give a cap of 168, which guarantees 12).  0 = not set. */
    int32_t min_blocks_per_sm;
    int32_t max_regs_per_thread;         /* the register cap ptxas compiled under (-maxrregcount, bounds) */
    int32_t max_blocks_per_cluster;      /* __launch_bounds__'s third value; 0 = not set */
    int32_t cluster_x, cluster_y, cluster_z; /* __cluster_dims__; 0 = no required cluster */
    uint32_t arch_variant;               /* 'a' (sm_90a, sm_100a: arch-specific) or 'f' (sm_100f, sm_120f:
                                            family): ptxas's "for 'sm_90a'"; a cubin's as in
                                            gpuocc_binary_kernel.arch_variant; 0 for none or where the source
                                            does not say.  Written by the readers (1.0 left this word zero).
                                            @since 1.1.0 */
    uint64_t reserved[2];
} gpuocc_compiled_kernel;

/*
 * Parse `ptxas -v` / `nvcc -Xptxas -v` / `--resource-usage` text (any mix of kernels and targets, CRLF or
 * LF, other lines in between).  Fills up to `capacity` records; *count is the number of kernels (also on
 * GPUOCC_ERR_BUFFER).  On GPUOCC_ERR_PARSE or GPUOCC_ERR_TRUNCATED, *error_line is the 1-based line at fault
 * and nothing else is written; it is 0 on GPUOCC_OK and untouched otherwise.  @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_ptxas_parse(const char *text, size_t length, gpuocc_compiled_kernel *kernels,
                                      int32_t capacity, int32_t *count, int32_t *error_line);

/*
 * Read the kernels of NVIDIA device code: a cubin (ELF, EM_CUDA), a fatbinary, or a host ELF object or
 * executable that embeds fatbinaries (.nv_fatbin), every uncompressed cubin in it, each kernel with its
 * own target.  Fills up to `capacity` records; *count is the number of kernels (also on
 * GPUOCC_ERR_BUFFER).  Errors: GPUOCC_ERR_FORMAT (not device code, bad magic, inconsistent offsets),
 * GPUOCC_ERR_TRUNCATED (a structure runs past `length`), GPUOCC_ERR_COMPRESSED (compressed device code),
 * GPUOCC_ERR_UNSUPPORTED (32-bit or big-endian ELF).  Never reads outside [data, data + length).
 * @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_cubin_read(const void *data, size_t length, gpuocc_compiled_kernel *kernels,
                                     int32_t capacity, int32_t *count);

/* ===================================================================================================
 * LLVM's AMDGPU resource-usage remarks, the AMD counterpart of ptxas -v.  @since 1.0.0
 *
 * `clang -target amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -c k.cl -Rpass-analysis=kernel-resource-usage` (and hipcc,
 * and llc -pass-remarks-analysis=kernel-resource-usage) print, for every kernel, one remark per line:
 * "Function Name: k", then "SGPRs: 57", "VGPRs: 41", "AGPRs: 0", "ScratchSize [bytes/lane]: 0",
 * "Dynamic Stack: False", "Occupancy [waves/SIMD]: 8", "SGPRs Spill: 0", "VGPRs Spill: 0",
 * "LDS Size [bytes/block]: 256".  The remarks do not name the target: pass it to gpuocc_device_lookup yourself.
 * One clang command for several --offload-arch prints each target's remarks in turn, every kernel again: a
 * kernel's "Function Name" line (location and name) met again starts another target's records (docs/amd.md).
 * =================================================================================================== */

/*
 * One kernel of the remarks.  Size-versioned: set `size` (gpuocc_remarks_kernel_init) in the first element of
 * the array; the library writes every element with that stride (a larger size's extra bytes as zero).  A
 * resource LLVM did not print for the kernel, or printed as an expression it could not resolve (e.g.
 * "foo.num_vgpr+1" when a call's resources were unknown), is -1.  Names are offsets into the caller's text.
 */
typedef struct gpuocc_remarks_kernel {
    uint32_t size;                       /* sizeof(gpuocc_remarks_kernel) */
    int32_t line;                        /* 1-based line of the kernel's "Function Name" remark */
    uint64_t name_offset, name_length;   /* the function's name as LLVM prints it (mangled for C++ and HIP) */
    uint64_t short_offset, short_length; /* the identifier of a plain _Z mangling, else the name */
    int32_t sgprs;                       /* "SGPRs" per wave, the VCC / flat-scratch / XNACK extras included */
    int32_t vgprs;                       /* "VGPRs": arch VGPRs per lane (gpuocc_kernel.regs_per_thread) */
    int32_t agprs;                       /* "AGPRs" per lane; -1 where not printed (targets without MFMA) */
    int32_t occupancy;                   /* "Occupancy [waves/SIMD]": LLVM's answer, gpuocc_result.waves_per_simd */
    int64_t scratch_bytes;               /* "ScratchSize [bytes/lane]": private memory per lane */
    int64_t lds_bytes;                   /* "LDS Size [bytes/block]": static LDS; -1 where not printed */
    int32_t sgpr_spills;                 /* "SGPRs Spill": SGPRs spilled (to VGPR lanes or memory) */
    int32_t vgpr_spills;                 /* "VGPRs Spill": VGPRs spilled to scratch */
    int32_t dynamic_stack;               /* "Dynamic Stack": 1 True, 0 False */
    int32_t reserved0;                   /* zero */
    uint64_t reserved[4];                /* zero */
} gpuocc_remarks_kernel;

/* Zero the record and set its size.  GPUOCC_ERR_NULL.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_remarks_kernel_init(gpuocc_remarks_kernel *kernel);

/*
 * Parse LLVM's kernel-resource-usage remarks (clang's "FILE:L:C: remark: ..." and llc's "remark: FILE:L:C: ..."
 * lines, CRLF or LF, any other lines in between, so a whole build log may be given).  Fills up to `capacity`
 * records with the stride kernels[0].size; *count is the number of kernels (also on GPUOCC_ERR_BUFFER).
 * Errors: GPUOCC_ERR_NULL; GPUOCC_ERR_ARGUMENT (capacity < 0); GPUOCC_ERR_STRUCT_SIZE (kernels[0].size smaller
 * than this layout or absurd, with capacity > 0); GPUOCC_ERR_PARSE (a resource given twice for one kernel, as
 * in interleaved logs, an empty name, a number too large for its field, a Dynamic Stack other than True or
 * False); GPUOCC_ERR_TRUNCATED (a kernel whose SGPRs, VGPRs or Occupancy remark never came); on those two,
 * *error_line is the 1-based line at fault (the kernel's "Function Name" line for TRUNCATED) and nothing else
 * is written; it is 0 on GPUOCC_OK and untouched otherwise.  GPUOCC_ERR_OVERFLOW past INT32_MAX lines.
 * Reads nothing outside text[0, length); never allocates.  @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_remarks_parse(const char *text, size_t length, gpuocc_remarks_kernel *kernels,
                                        int32_t capacity, int32_t *count, int32_t *error_line);

/* ===================================================================================================
 * Device code in binaries, entry by entry (compressed fatbinaries too).  @since 1.0.0
 * Likely to change in 1.x: new containers and vendors' formats, new fields at the tail of
 * gpuocc_binary_kernel and gpuocc_binary_summary (size-versioned), and which errors an entry reports.
 *
 * A binary holds entries: each cubin of a fatbinary (the .nv_fatbin / __nv_relfatbin sections of host
 * objects, executables and shared libraries, and any fatbinary found by scanning their other sections for
 * its magic and validating its headers: cuFFT keeps its device code in .ldata), or the file itself when it
 * is one cubin.  Entries are
 * numbered from 0 in file order (PTX entries are not counted).  Compressed entries (zstd, LZ4) are
 * decoded into the caller's workspace: gpuocc_binary_scan says how large it must be, so memory stays
 * bounded (the decoder scratch plus the largest entry) and the library never allocates.  One unreadable
 * entry never hides the others: read them one by one and count failures in a gpuocc_binary_summary.
 *
 * AMD: an AMDGPU code object (ELF, EM_AMDGPU, code object v3-v6 with its NT_AMDGPU_METADATA note)
 * is one entry; so is each AMDGPU code object of a clang offload bundle (a file of its own, or the
 * .hip_fatbin section of a host object, executable or shared library).  A compressed bundle (CCOB, zstd)
 * is one entry holding every code object in it, decoded into the workspace like a compressed cubin; a
 * zlib-compressed one gives GPUOCC_ERR_COMPRESSED and an LLVM bitcode entry (-fgpu-rdc objects)
 * GPUOCC_ERR_UNSUPPORTED.  Formats and limits: docs/amd.md.
 * =================================================================================================== */

#define GPUOCC_BINARY_NAME_INPUT     0 /* name offsets count from the start of the input `data` */
#define GPUOCC_BINARY_NAME_WORKSPACE 1 /* from the start of the workspace (a decompressed entry): valid until
                                          the workspace is used again */

/*
 * One kernel read from a binary.  Size-versioned: set `size` (gpuocc_binary_kernel_init) in the first
 * element of the array; the library writes every element with that stride.  Vendor-neutral fields first,
 * then AMD's (taken from the reserved tail: zero for NVIDIA kernels).  A value the binary does not
 * record is -1.  For an AMD kernel (vendor GPUOCC_VENDOR_AMD, from its code object's metadata) the
 * neutral fields say: registers = vgprs, smem_bytes = lds_bytes, stack_frame_bytes = scratch_bytes,
 * max_threads_per_block = max_flat_workgroup_size, cc = 0, barriers = cmem_bytes = max_regs_per_thread = -1.
 * Intel's fields follow at the tail (an Intel zebin's kernels, vendor GPUOCC_VENDOR_INTEL; docs/intel.md).
 */
typedef struct gpuocc_binary_kernel {
    uint32_t size;                       /* sizeof(gpuocc_binary_kernel) */
    uint32_t vendor;                     /* GPUOCC_VENDOR_NVIDIA, _AMD or _INTEL */
    int32_t entry;                       /* the entry the kernel was read from (0-based, file order) */
    int32_t name_buffer;                 /* GPUOCC_BINARY_NAME_INPUT or GPUOCC_BINARY_NAME_WORKSPACE */
    uint64_t name_offset, name_length;   /* the (mangled) entry name in name_buffer, not NUL-terminated */
    uint64_t short_offset, short_length; /* the identifier of a plain _Z mangling, else the name */
    int32_t cc;                          /* target, 90 for sm_90 / sm_90a */
    int32_t registers;                   /* per thread */
    int32_t barriers;                    /* block barriers */
    int32_t max_threads_per_block;       /* __launch_bounds__ / __maxntid__ (x*y*z); Intel: the zebin's
                                            required_work_group_size (x*y*z); 0 = not set */
    int64_t smem_bytes;                  /* static shared memory (the driver's reserved window excluded) */
    int64_t cmem_bytes;                  /* constant bank 0 */
    int64_t stack_frame_bytes;           /* per thread; -1 when not recorded */
    int32_t min_blocks_per_sm;           /* as in gpuocc_compiled_kernel; 0 = not set */
    int32_t max_regs_per_thread;         /* the register cap ptxas compiled under; -1 = none recorded */
    int32_t max_blocks_per_cluster;      /* __launch_bounds__'s third value; 0 = not set */
    int32_t cluster_x, cluster_y, cluster_z; /* __cluster_dims__; 0 = no required cluster */
    /* AMD (GPUOCC_VENDOR_AMD), from the NT_AMDGPU_METADATA note; zero for NVIDIA.  @since 1.0.0 */
    uint64_t target_offset, target_length; /* in name_buffer: the target ID (amdhsa.target,
                                            "amdgcn-amd-amdhsa--gfx90a:xnack-"); length 0 when absent (v3) */
    int32_t vgprs;                       /* .vgpr_count per lane: the arch VGPRs, except where AGPRs are
                                            used, where the note records the count occupancy depends on:
                                            gfx908 max(VGPRs, AGPRs), gfx90a+ VGPRs rounded up to 4 + AGPRs */
    int32_t agprs;                       /* .agpr_count: AGPRs per lane (-1: not recorded, a target without) */
    int32_t sgprs;                       /* .sgpr_count: SGPRs per wave (VCC, flat scratch, XNACK included) */
    int32_t wave_size;                   /* .wavefront_size: 32 or 64 */
    int64_t lds_bytes;                   /* .group_segment_fixed_size: static LDS per workgroup */
    int64_t scratch_bytes;               /* .private_segment_fixed_size: scratch per work-item */
    int32_t max_flat_workgroup_size;     /* .max_flat_workgroup_size */
    int32_t vgpr_spill_count;            /* .vgpr_spill_count */
    int32_t sgpr_spill_count;            /* .sgpr_spill_count */
    int32_t uses_dynamic_stack;          /* .uses_dynamic_stack: 0 or 1 */
    uint32_t amd_mach;                   /* e_flags & 0xff: the EF_AMDGPU_MACH processor (0x3f = gfx90a) */
    int32_t code_object_version;         /* 3, 4, 5 or 6 (EI_ABIVERSION + 2) */
    int32_t workgroup_processor_mode;    /* .workgroup_processor_mode (v5+, gfx10+): 1 WGP, 0 CU (-mcumode) */
    int32_t reserved1;                   /* zero */
    uint64_t reserved[6];                /* zero */
    /* Which copy, and the target's variant.  @since 1.0.0 */
    int32_t linked;                      /* 1: linked code (a cubin of ELF type ET_EXEC, what the driver
                                            loads; every AMDGPU code object); 0: relocatable (ET_REL, a
                                            -rdc=true cubin before nvlink, as in __nv_relfatbin) */
    uint32_t arch_variant;               /* NVIDIA: 'a' (sm_90a, sm_100a: arch-specific) or 'f' (sm_100f,
                                            sm_120f: family), from the fatbinary entry's header or, for a
                                            bare cubin, its .note.nv.tkinfo note; 0 for none (and AMD) */
    /* Intel (GPUOCC_VENDOR_INTEL), from a zebin's .ze_info section; zero for NVIDIA and AMD.  For an
       Intel kernel the neutral fields say: barriers = barrier_count, smem_bytes = slm_bytes, cc = 0,
       registers = cmem_bytes = stack_frame_bytes = max_regs_per_thread = -1, max_threads_per_block = the
       x*y*z of execution_env.required_work_group_size (OpenCL's reqd_work_group_size: a larger work-group
       cannot be enqueued), 0 when the kernel has none (written since 1.1.0; 1.0 left it 0).
       @since 1.0.0 */
    int32_t sub_group;                   /* execution_env.simd_size: the SIMD width, 1, 8, 16 or 32 */
    int32_t grf;                         /* execution_env.grf_count: GRF registers per hardware thread */
    int64_t slm_bytes;                   /* execution_env.slm_size: static SLM per work-group (0 when absent) */
    int64_t scratch_per_thread_bytes;    /* per_thread_memory_buffers of type scratch, summed: per hardware
                                            thread (0 when none) */
    int64_t private_bytes;               /* per_thread_memory_buffers of type global (private_space): per
                                            work-item when private_per_work_item, else per hardware thread */
    int32_t private_per_work_item;       /* that buffer's is_simt_thread: 1 per work-item, 0 per thread */
    uint32_t product_family;             /* the .note.intelgt.compat product family (1270 DG2, 1271 PVC); 0 when
                                            the binary has none */
    int64_t spill_bytes;                 /* execution_env.spill_size; -1 when not recorded */
    int64_t reserved2[2];                /* zero */
    /* What a kernel records beyond its resources, and what a launch's metadata (a Triton cache's json) adds.
       docs/inputs.md says which are measured and which inferred.  @since 1.0.0 */
    int32_t virtual_resources;           /* NVIDIA: the cubin's EIATTR 0x4a, the virtual resources a block uses
                                            (128 on sm_100a kernels that use tcgen05; 0 when absent or 0):
                                            gpuocc_kernel.virtual_resources */
    int32_t tmem_cta_group;              /* NVIDIA: the tensor-memory CTA group its tcgen05 instructions use: 1
                                            (EIATTR 0x51), 2 (EIATTR 0x52, a pair of blocks), 0 none */
    int32_t setmaxnreg;                  /* NVIDIA: 1 when it reallocates registers with setmaxnreg (EIATTR
                                            0x54), else 0 */
    int32_t waves_per_eu_min;            /* AMD: amdgpu-waves-per-eu's minimum and maximum, 0 unset; */
    int32_t waves_per_eu_max;            /*   a code object does not record them: the reader leaves 0 */
    int32_t flat_workgroup_size_min;     /* AMD: amdgpu-flat-work-group-size's minimum, 0 unset (not recorded) */
    int32_t launch_threads;              /* the launch's block size from its metadata (a Triton json: num_warps x
                                            the warp size); 0 = unknown.  No reader of this library fills it: a
                                            caller that pairs the binary with its metadata does (gpuocc binary DIR) */
    int32_t tmem_columns;                /* tensor-memory columns a block allocates, from its metadata (a Triton
                                            json's tmem_size); 0 = none or unknown; filled as launch_threads */
    uint64_t metadata_offset, metadata_length; /* the metadata file the last two came from (the json's path),
                                            in the pairing caller's own buffer; length 0 = none */
} gpuocc_binary_kernel;

/* What a binary holds, and how reading it went. */
typedef struct gpuocc_binary_summary {
    uint32_t size;                       /* sizeof(gpuocc_binary_summary) */
    int32_t entries;                     /* device-code entries in the file */
    int32_t compressed_entries;          /* of which compressed */
    int32_t entries_read;                /* gpuocc_binary_read_entry calls that succeeded (counted by them) */
    int32_t entries_failed;              /* ... that failed */
    int32_t first_failed_entry;          /* -1 while none failed */
    int32_t first_failure;               /* that entry's status; GPUOCC_OK while none failed */
    int32_t reserved0;
    uint64_t workspace_bytes;            /* workspace gpuocc_binary_read_entry needs for every entry */
    uint64_t largest_entry_bytes;        /* the largest entry, decompressed */
    uint64_t cursor[3];                  /* private: where the last entry read is, so that reading the
                                            entries in order does not walk the file again; leave it alone */
    uint64_t reserved0_;                 /* zero */
    /* What gpuocc_binary_scan met besides the entries.  @since 1.0.0 */
    int32_t containers;                  /* fatbinaries and offload bundles walked (0 for a bare cubin) */
    int32_t skipped_candidates;          /* container magics found by scanning a host ELF's sections whose
                                            headers do not validate: skipped, never read as device code */
    int32_t uncompiled_entries;          /* fatbinary entries without compiled code (PTX, LTO IR); not in
                                            `entries` */
    int32_t reserved1;                   /* zero */
    /* What was wrong, and where, beyond the status: for the last gpuocc_binary_read_entry that counted
       itself here (all zero after one that succeeded), or for the failure of gpuocc_binary_scan.
       @since 1.0.0 */
    int32_t fault;                       /* GPUOCC_BINARY_FAULT_*; 0 when there is nothing to add (the
                                            other two are 0 then) */
    int32_t fault_value;                 /* the fault's figure, as GPUOCC_BINARY_FAULT_* says (at most
                                            INT32_MAX) */
    int64_t fault_offset;                /* the byte at fault (the header, the value, the line), from the
                                            start of `data`; -1 when unknown or inside the decoded bytes of a
                                            compressed entry */
} gpuocc_binary_summary;


/* gpuocc_binary_summary.fault: what a reader found wrong (fault_value in parentheses).  @since 1.0.0 */
#define GPUOCC_BINARY_FAULT_NONE          0 /* the status says it all */
#define GPUOCC_BINARY_FAULT_FATBIN_MAGIC  1 /* no fatbinary magic where the next one of a .nv_fatbin section
                                               starts (0) */
#define GPUOCC_BINARY_FAULT_FATBIN_HEADER 2 /* a fatbinary's header size is below its 16 bytes (that size) */
#define GPUOCC_BINARY_FAULT_FATBIN_SIZE   3 /* a fatbinary runs past the end of its section or file (the bytes
                                               left from its start) */
#define GPUOCC_BINARY_FAULT_ENTRY_HEADER  4 /* a fatbinary entry's header size is below its 64 bytes (that
                                               size) */
#define GPUOCC_BINARY_FAULT_ENTRY_SIZE    5 /* a fatbinary entry (its header, or its header and payload) runs
                                               past the end of its fatbinary (the bytes left from its header) */
#define GPUOCC_BINARY_FAULT_YAML          6 /* an Intel zebin's .ze_info YAML breaks the rules the reader
                                               reads it by (the 1-based line: of a kernel missing a required
                                               key, the line that opens it) */
#define GPUOCC_BINARY_FAULT_NESTING       7 /* AMDGPU metadata (MessagePack) nests arrays and maps deeper than
                                               the reader follows (the most levels it follows) */

/* Where one entry is and what reading it takes (gpuocc_binary_entry_info).  Size-versioned: set `size`.
   @since 1.0.0 */
typedef struct gpuocc_binary_entry {
    uint32_t size;                       /* sizeof(gpuocc_binary_entry) */
    uint32_t container;                  /* GPUOCC_BINARY_ENTRY_*: what the entry is */
    int32_t entry;                       /* its ordinal */
    int32_t sm;                          /* the fatbinary entry header's SM (90 for sm_90); 0 when none */
    uint32_t compression;                /* GPUOCC_BINARY_COMPRESSION_* */
    uint32_t section;                    /* the host ELF section holding it; 0 when the file is its container */
    uint64_t section_name_offset;        /* that section's name in `data`, not NUL-terminated; */
    uint64_t section_name_length;        /* length 0 when section is 0 */
    uint64_t container_offset;           /* file offset of its fatbinary or offload bundle (its own when bare) */
    uint64_t offset;                     /* file offset of its stored bytes */
    uint64_t stored_bytes;               /* its bytes in the file (zero padding included) */
    uint64_t image_bytes;                /* its size decompressed, as its header claims (stored_bytes when
                                            not compressed): what a ceiling on entry sizes compares */
    uint64_t workspace_bytes;            /* what gpuocc_binary_read_entry needs to read it (0: uncompressed) */
    uint64_t fast_workspace_bytes;       /* with room for the index that reads a cubin's attributes and
                                            sections in one pass each (linear in its kernels); with less,
                                            the reader makes one pass per batch of 128 kernels */
    uint64_t reserved[4];                /* zero */
} gpuocc_binary_entry;

#define GPUOCC_BINARY_ENTRY_CUBIN  0u /* an NVIDIA cubin */
#define GPUOCC_BINARY_ENTRY_AMDGPU 1u /* an AMDGPU code object */
#define GPUOCC_BINARY_ENTRY_CCOB   2u /* a compressed offload bundle: every code object in it */
#define GPUOCC_BINARY_ENTRY_ZEBIN  3u /* an Intel zebin (ELF, e_machine EM_INTELGT = 205); @since 1.0.0 */

#define GPUOCC_BINARY_COMPRESSION_NONE    0u
#define GPUOCC_BINARY_COMPRESSION_ZSTD    1u
#define GPUOCC_BINARY_COMPRESSION_LZ4     2u
#define GPUOCC_BINARY_COMPRESSION_ZLIB    3u /* not decoded: reading it gives GPUOCC_ERR_COMPRESSED */
#define GPUOCC_BINARY_COMPRESSION_UNKNOWN 4u /* flags this version does not know: GPUOCC_ERR_FORMAT or _UNSUPPORTED */

/* Zero the record and set its size and vendor.  GPUOCC_ERR_NULL.  @since 1.0.0 */
GPUOCC_API int32_t gpuocc_binary_kernel_init(gpuocc_binary_kernel *kernel);

/*
 * The register counts an occupancy question takes for a kernel read from a binary: *regs_per_thread and
 * *agprs as gpuocc_kernel.regs_per_thread and .agprs (what `gpuocc report --vgprs --agprs` takes), so that
 * gpuocc_occupancy charges the kernel what its code object says.  AMD: the note's .vgpr_count already
 * counts the AGPRs where they share the budget (gfx90a+: arch VGPRs rounded up to 4 + AGPRs; gfx908: the
 * larger of the two); on a device with a unified file (GPUOCC_AGPR_UNIFIED) the arch VGPRs are
 * vgprs - agprs and the AGPRs agprs (occupancy adds them back: the same total), elsewhere vgprs and agprs
 * as recorded; an AGPR count of -1 (not recorded) is 0.  NVIDIA: registers, 0.  Errors: GPUOCC_ERR_NULL,
 * GPUOCC_ERR_STRUCT_SIZE (kernel->size below sizeof(gpuocc_binary_kernel), or absurd),
 * GPUOCC_ERR_ARGUMENT (the kernel's vendor is not the device's; a negative register count; more AGPRs than
 * VGPRs on a unified file, which no code object records); outputs untouched on failure.  @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_binary_kernel_registers(const gpuocc_device *device, const gpuocc_binary_kernel *kernel,
                                                  int32_t *regs_per_thread, int32_t *agprs);

/*
 * Walk the containers of `data` (a cubin, a fatbinary, a host ELF object, executable or shared library)
 * without decoding anything: count the entries and size the workspace.  `summary->size` must be set;
 * the counters are reset (entries_read = entries_failed = 0, first_failed_entry = -1).  Errors:
 * GPUOCC_ERR_NULL, GPUOCC_ERR_STRUCT_SIZE, GPUOCC_ERR_FORMAT (not device code, or a container whose
 * headers are inconsistent), GPUOCC_ERR_TRUNCATED, GPUOCC_ERR_UNSUPPORTED (32-bit or big-endian ELF; a
 * compressed offload bundle of a version other than 1-3).  On an error other than GPUOCC_ERR_NULL and
 * GPUOCC_ERR_STRUCT_SIZE it writes first_failed_entry (the entry whose fatbinary entry header is at fault,
 * numbered as the entries before it; -1 when the fault is not an entry's), first_failure (the status) and
 * the fault fields, and nothing else of the summary.
 * @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_binary_scan(const void *data, size_t length, gpuocc_binary_summary *summary);

/*
 * The kernels of entry `entry` (0 <= entry < summary.entries), decompressing it into `workspace` when it
 * is compressed (workspace may be NULL when no entry is).  Fills up to `capacity` records (the stride is
 * kernels[0].size: sizeof(gpuocc_binary_kernel), or more for a newer layout whose tail is
 * written zero); *count is the entry's number of kernels (also on GPUOCC_ERR_BUFFER).  When `summary`
 * is not NULL the call counts itself in it (read or failed, and the first failure; GPUOCC_ERR_BUFFER and
 * caller errors are not counted; its fault fields say what this call met), and reading entries
 * in order with the same summary costs one walk of the file in all.  Errors:
 * GPUOCC_ERR_NULL, GPUOCC_ERR_STRUCT_SIZE, GPUOCC_ERR_ARGUMENT (no such entry, or a workspace smaller
 * than the summary's workspace_bytes needs for this entry), GPUOCC_ERR_FORMAT (corrupted compressed data,
 * a checksum or size mismatch, bytes other than zero padding after the compressed data, an inconsistent
 * cubin or code object), GPUOCC_ERR_TRUNCATED, GPUOCC_ERR_UNSUPPORTED (also: an AMDGPU code object without
 * NT_AMDGPU_METADATA, LLVM bitcode, an Intel ELF without .ze_info: a patch-token binary), GPUOCC_ERR_COMPRESSED (a zlib-compressed offload bundle),
 * GPUOCC_ERR_BUFFER.  Never reads outside
 * [data, data + length) nor writes outside the workspace and the records.  @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_binary_read_entry(const void *data, size_t length, int32_t entry, void *workspace,
                                            size_t workspace_len, gpuocc_binary_kernel *kernels,
                                            int32_t capacity, int32_t *count, gpuocc_binary_summary *summary);

/*
 * Where entry `entry` is and what reading it takes, without decoding it: so that a caller sizes its
 * workspace per entry (one entry claiming 2^40 bytes decompressed then fails alone, and memory follows
 * the entries actually read), applies its own ceiling to image_bytes, and says where device code was
 * found.  `info->size` must be set; it is filled on GPUOCC_OK only.  `summary` (may be NULL) is the one
 * given to gpuocc_binary_read_entry: asking for an entry and then reading it, in order, costs one walk of
 * the file in all; the call is not counted in it.  Errors: GPUOCC_ERR_NULL, GPUOCC_ERR_STRUCT_SIZE,
 * GPUOCC_ERR_ARGUMENT (no such entry), and the container errors of gpuocc_binary_scan.  @since 1.0.0
 */
GPUOCC_API int32_t gpuocc_binary_entry_info(const void *data, size_t length, int32_t entry,
                                            gpuocc_binary_entry *info, gpuocc_binary_summary *summary);

#ifdef __cplusplus
}
#endif
#endif /* GPUOCC_EXPERIMENTAL */
