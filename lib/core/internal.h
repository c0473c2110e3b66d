/* Private helpers shared by the library's files.  Not installed. */
#ifndef GPUOCC_INTERNAL_H
#define GPUOCC_INTERNAL_H

#include "gpuocc.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Inlined however often it is called (where the compiler says how): for the hot paths whose callers
   specialise them with constants or compile them for another instruction set. */
#if defined(__GNUC__) || defined(__clang__)
#define GPUOCC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define GPUOCC_ALWAYS_INLINE inline
#endif
/* Kept out of its caller: for the rare path of a hot function, whose frame the common call should not set
   up. */
#if defined(__GNUC__) || defined(__clang__)
#define GPUOCC_NOINLINE __attribute__((noinline))
#else
#define GPUOCC_NOINLINE
#endif

/* Sizes past this are taken as garbage rather than a future layout. */
#define GPUOCC_STRUCT_SIZE_MAX 4096u

/* Sums of byte counts saturate here, far above any real device and far below INT64_MAX, so a
   request that is absurdly large becomes "does not fit" instead of wrapping around. */
#define GPUOCC_BYTES_HUGE ((int64_t)1 << 60)

static inline int64_t gpuocc_sat_add(int64_t a, int64_t b)
{
    /* both operands are >= 0 where this is used */
    return (a > GPUOCC_BYTES_HUGE - b) ? GPUOCC_BYTES_HUGE : a + b;
}

static inline int64_t gpuocc_div_up(int64_t x, int64_t unit)
{
    return x / unit + (x % unit != 0);
}

static inline int64_t gpuocc_round_up(int64_t x, int64_t unit)
{
    return gpuocc_div_up(x, unit) * unit;
}

/* floor(x / unit) for x >= 0, unit >= 1.  Units of the device (warp size, allocation granules,
   sub-partitions) are powers of two on every real GPU: a shift then, and a 32-bit divide where the
   operands allow (the cheaper instruction), a 64-bit one otherwise. */
static inline int gpuocc_log2_exact(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1))
        x >>= 1, n++;
    return n;
#endif
}

/* The answers rest on exact IEEE arithmetic (the shared-memory and occupancy quotients, the vector lanes'
   single-precision divisions): -ffast-math / -Ofast lets the compiler replace divisions by approximate
   reciprocals, which makes some answers wrong by one. */
#if defined(__FAST_MATH__)
#error "gpuocc must be compiled without -ffast-math (or -Ofast): add -fno-fast-math for its sources"
#endif

/* Four 32-bit lanes at a time where the compiler has vector extensions (GCC, Clang) on a little-endian
   machine (the checks read an int64's low word first); scalar code otherwise.  Define GPUOCC_NO_VECTORS to
   force the scalar code. */
#if defined(__GNUC__) && !defined(GPUOCC_NO_VECTORS) && defined(__BYTE_ORDER__) &&                             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GPUOCC_VECTORS 1
typedef uint32_t gpuocc_u32x4 __attribute__((vector_size(16)));
typedef int32_t gpuocc_i32x4 __attribute__((vector_size(16)));
static inline gpuocc_i32x4 gpuocc_load_i32x4(const void *p)
{
    gpuocc_i32x4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline gpuocc_i32x4 gpuocc_splat4(int32_t v)
{
    return (gpuocc_i32x4){v, v, v, v};
}

/* yes where mask is set (all ones), no where it is clear */
static inline gpuocc_i32x4 gpuocc_select4(gpuocc_i32x4 mask, gpuocc_i32x4 yes, gpuocc_i32x4 no)
{
    return (mask & yes) | (~mask & no);
}

#if defined(__clang__) || __GNUC__ >= 9
#define GPUOCC_LANE_QUOTIENTS 1
typedef float gpuocc_f32x4 __attribute__((vector_size(16)));
/* floor(a / b) for 0 <= a < 2^22, 1 <= b < 2^22, as a single-precision division: exact there (the quotient
   of a < 2^22 by b rounds to an integer only when it is one, as (q + 1) b <= a + b < 2^24) */
static inline gpuocc_i32x4 gpuocc_quotient4(gpuocc_i32x4 a, gpuocc_i32x4 b)
{
    return __builtin_convertvector(__builtin_convertvector(a, gpuocc_f32x4) / __builtin_convertvector(b, gpuocc_f32x4),
                                   gpuocc_i32x4);
}
#endif
#else
#define GPUOCC_VECTORS 0
#endif

static inline int64_t gpuocc_div(int64_t x, int64_t d)
{
    if (((uint64_t)x | (uint64_t)d) <= UINT32_MAX)
        return (uint32_t)x / (uint32_t)d;
    return x / d;
}

static inline int64_t gpuocc_div_unit(int64_t x, int64_t unit)
{
    if ((unit & (unit - 1)) == 0)
        return x >> gpuocc_log2_exact((uint64_t)unit);
    return gpuocc_div(x, unit);
}

static inline int64_t gpuocc_round_up_unit(int64_t x, int64_t unit)
{
    int64_t q = gpuocc_div_unit(x, unit);
    return (q * unit == x ? q : q + 1) * unit;
}

static inline int32_t gpuocc_clamp_i32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/*
 * Copy a caller's size-versioned struct into a zeroed local copy of the current layout.  `min_size` is
 * the first shipped layout's size; bytes the caller declares past `known_size` must be zero.
 */
int32_t gpuocc_struct_load(void *dst, size_t known_size, const void *src, size_t min_size);
/* Write a local result into the caller's struct, as many bytes as both layouts share. */
int32_t gpuocc_struct_store(void *dst, size_t min_size, const void *src, size_t known_size);
/* The same with the caller's declared size read beforehand (dst non-NULL). */
int32_t gpuocc_struct_store_sized(void *dst, uint32_t size, size_t min_size, const void *src, size_t known_size);

/* Load and check a device / kernel; the local copies are the current layout. */
int32_t gpuocc_device_load(gpuocc_device *local, const gpuocc_device *dev);
int32_t gpuocc_kernel_load(gpuocc_kernel *local, const gpuocc_kernel *kernel);
/* The same checks without a copy: the caller's struct itself when it holds at least the current layout,
   else a zero-extended copy in `scratch`.  NULL (and *rc set) when a check fails. */
const gpuocc_device *gpuocc_device_view(const gpuocc_device *dev, gpuocc_device *scratch, int32_t *rc);
const gpuocc_kernel *gpuocc_kernel_view(const gpuocc_kernel *kernel, gpuocc_kernel *scratch, int32_t *rc);
/* Whether a device in the current layout passes every check (no status: see gpuocc_device_validate). */
bool gpuocc_device_fine(const gpuocc_device *d);
/* Both, device first. */
int32_t gpuocc_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k, const gpuocc_kernel *kernel);

/* Rules on checked, local copies (no validation, no struct handling).  Limits use INT32_MAX for
   "unlimited" internally; the public API turns that into GPUOCC_UNLIMITED. */
#define GPUOCC_NO_LIMIT INT32_MAX
int32_t gpuocc_rule_warps(const gpuocc_device *d, int64_t threads);
int32_t gpuocc_rule_registers(const gpuocc_device *d, int64_t threads, int64_t regs);
int32_t gpuocc_rule_smem(const gpuocc_device *d, const gpuocc_kernel *k);
int32_t gpuocc_rule_barriers(const gpuocc_device *d, int64_t barriers);
int64_t gpuocc_rule_smem_alloc(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic);
int64_t gpuocc_rule_carveout(const gpuocc_device *d, const gpuocc_kernel *k);
/* The same two with the block's allocation (gpuocc_rule_smem_alloc) and the carveout already known. */
int64_t gpuocc_rule_carveout_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc);
int32_t gpuocc_rule_smem_for(const gpuocc_device *d, const gpuocc_kernel *k, int64_t alloc, int64_t carveout);
int64_t gpuocc_rule_regs_per_warp(const gpuocc_device *d, int64_t regs);

/* The combined computation on checked copies; fills every field of `r` except size and reserved. */
void gpuocc_rule_all(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);
void gpuocc_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);

/* The shared memory per SM a kernel's carveout preference asks for (GPUOCC_CARVEOUT_DEFAULT: all of it;
   else that percentage of it, rounded down), on a checked NVIDIA device and kernel.  Without a branch:
   the default reads as 100 %. */
static inline int64_t gpuocc_nv_preferred_bytes(const gpuocc_device *d, const gpuocc_kernel *k)
{
    int64_t percent = k->carveout_percent == GPUOCC_CARVEOUT_DEFAULT ? 100 : k->carveout_percent;
    return percent * d->smem_per_sm_bytes / 100;
}

/* The smallest supported carveout of at least `bytes` (>= 0) of a checked NVIDIA device; -1 when none is
   that large. */
static inline int64_t gpuocc_nv_carveout_at_least(const gpuocc_device *d, int64_t bytes)
{
#if defined(__SSE2__)
    /* Entries are ascending and the unused ones zero: the used entries below the KiB needed are a prefix
       of the mask `below`, and the answer the first used entry past it.  Past every carveout (<= 2^30 KiB)
       either way when the KiB needed pass INT32_MAX. */
    int64_t need_kib = (bytes >> 10) + ((bytes & 1023) != 0);
    __m128i need = _mm_set1_epi32((int32_t)(need_kib < INT32_MAX ? need_kib : INT32_MAX));
    const __m128i *c = (const __m128i *)(const void *)d->carveouts_kib;
    __m128i low = _mm_packs_epi32(_mm_cmpgt_epi32(need, _mm_loadu_si128(c)),
                                  _mm_cmpgt_epi32(need, _mm_loadu_si128(c + 1)));
    __m128i high = _mm_packs_epi32(_mm_cmpgt_epi32(need, _mm_loadu_si128(c + 2)),
                                   _mm_cmpgt_epi32(need, _mm_loadu_si128(c + 3)));
    uint32_t below = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(low, high));
    uint32_t used = ((uint32_t)1 << d->carveout_count) - 1;
    uint32_t index = (uint32_t)gpuocc_log2_exact(~(below & used)); /* <= carveout_count */
    return index < (uint32_t)d->carveout_count ? (int64_t)d->carveouts_kib[index] * 1024 : -1;
#elif GPUOCC_VECTORS
    /* Entries are ascending and the unused ones zero: the entries below `bytes` are the first
       `below` used ones plus, when bytes > 0, every unused one. */
    int64_t need_kib = (bytes >> 10) + ((bytes & 1023) != 0);
    if (need_kib > INT32_MAX)
        return -1;
    gpuocc_i32x4 need = {0, 0, 0, 0};
    need += (int32_t)need_kib;
    gpuocc_i32x4 below = need > gpuocc_load_i32x4(&d->carveouts_kib[0]);
    below += need > gpuocc_load_i32x4(&d->carveouts_kib[4]);
    below += need > gpuocc_load_i32x4(&d->carveouts_kib[8]);
    below += need > gpuocc_load_i32x4(&d->carveouts_kib[12]);
    int32_t index = -(below[0] + below[1] + below[2] + below[3]);
    if (need_kib > 0)
        index -= GPUOCC_MAX_CARVEOUTS - d->carveout_count;
    return index < d->carveout_count ? (int64_t)d->carveouts_kib[index] * 1024 : -1;
#else
    for (int32_t i = 0; i < d->carveout_count; i++)
        if ((int64_t)d->carveouts_kib[i] * 1024 >= bytes)
            return (int64_t)d->carveouts_kib[i] * 1024;
    return -1;
#endif
}

/* The inverse queries on checked structs, in closed form (lib/nvidia/limits.c): the answer, or
   GPUOCC_ERR_UNSATISFIABLE (output untouched). */
int32_t gpuocc_nv_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t *bytes);
int32_t gpuocc_nv_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs);
/* The top granule boundary: any byte count above it gives a block larger than any limit allows. */
int64_t gpuocc_nv_smem_search_top(const gpuocc_device *d);
/* The carveout a kernel prefers: the smallest holding its share of smem_per_sm_bytes (all of it by default),
   smem_per_sm_bytes on a device without carveouts. */
int64_t gpuocc_nv_preferred_carveout(const gpuocc_device *d, const gpuocc_kernel *k);
/* The opt-in attribute's dynamic shared memory limit, and the per-block limit on the allocation. */
int64_t gpuocc_nv_dynamic_max(const gpuocc_device *d, const gpuocc_kernel *k);
int64_t gpuocc_nv_smem_block_limit(const gpuocc_device *d, const gpuocc_kernel *k);
/* How the block-size search gets each candidate's dynamic shared memory. */
enum gpuocc_smem_source { GPUOCC_SMEM_AFFINE, GPUOCC_SMEM_TABLE, GPUOCC_SMEM_CALLBACK };
struct gpuocc_smem_rule {
    enum gpuocc_smem_source source;
    int64_t base, per_thread;      /* affine: base + per_thread x threads, both >= 0 */
    const int64_t *table;          /* table: table[threads], count entries */
    int32_t count;
    gpuocc_smem_fn fn;             /* callback */
    void *user_data;
};
/* The block-size search on checked structs (lib/nvidia/search.c): the best block size and its blocks per
   SM (0 and 0 when none runs), or the rule's error as gpuocc_best_block_table / _callback document it. */
int32_t gpuocc_nv_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                             int32_t *threads, int32_t *blocks);
/* Byte counts below this take the fast paths (lib/nvidia/fast.h): sums of a few stay far below the 2^60
   saturation point, and no sum saturates. */
#define GPUOCC_FAST_BYTES ((int64_t)1 << 40)
/* Whether a device in the current layout is an NVIDIA device that gpuocc_device_validate accepts and
   whose byte counts are below GPUOCC_FAST_BYTES; false sends the caller to the plain checks. */
bool gpuocc_nv_device_fast_ok(const gpuocc_device *d);
/* Whether a kernel in the current layout passes the kernel checks with its byte counts (dynamic maximum
   included) below GPUOCC_FAST_BYTES. */
bool gpuocc_nv_kernel_fast_ok(const gpuocc_kernel *k);
/* gpuocc_sweep's points from..from + (n - 1) x step on axis `axis` of kernel `k` (its axis value set to
   `from`), for a device and a kernel both fast checks accepted (lib/nvidia/sweep.c); false (nothing
   written) when the device's units or the range need the plain rules. */
bool gpuocc_nv_sweep_fill(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t from, int64_t step,
                          int64_t n, gpuocc_sweep_point *points);
/* gpuocc_occupancy's fast path (lib/nvidia/fast.c), for structs in the current layout: true when it
   answered (result written, every field but size), false (nothing written) when the plain path must check
   or answer. */
bool gpuocc_nv_occupancy_fast(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);
/* A batch launch's own values (threads, registers, byte counts as its columns gave them): GPUOCC_OK or the
   status naming the first bad one, the same order for every vendor; each adds its own check of a block's
   bytes that saturate. */
static inline int32_t gpuocc_batch_values_status(int64_t threads, int64_t regs, int64_t smem_static,
                                                 int64_t smem_dynamic)
{
    return threads < 1                             ? GPUOCC_ERR_THREADS
           : regs < 0                              ? GPUOCC_ERR_REGISTERS
           : (smem_static < 0 || smem_dynamic < 0) ? GPUOCC_ERR_SMEM
                                                   : GPUOCC_OK;
}

/* Row i of a batch's outputs: its status, and in each column the caller gave the field of `r` (for a status
   other than GPUOCC_OK, `r` holds zeros). */
static inline void gpuocc_batch_put(const gpuocc_batch *b, size_t i, int32_t status, const gpuocc_result *r)
{
    b->status[i] = status;
#define GPUOCC_PUT(field)                                                                                          \
    if (b->field)                                                                                                  \
    b->field[i] = r->field
    GPUOCC_PUT(blocks_per_sm);
    GPUOCC_PUT(warps_per_sm);
    GPUOCC_PUT(occupancy);
    GPUOCC_PUT(limiters);
    GPUOCC_PUT(limit_warps);
    GPUOCC_PUT(limit_regs);
    GPUOCC_PUT(limit_smem);
    GPUOCC_PUT(limit_blocks);
    GPUOCC_PUT(limit_barriers);
    GPUOCC_PUT(regs_per_block);
    GPUOCC_PUT(smem_per_block_bytes);
    GPUOCC_PUT(smem_per_sm_bytes);
    GPUOCC_PUT(waves_per_simd);
    GPUOCC_PUT(limit_sgprs);
#undef GPUOCC_PUT
}

/* The guard of a vendor's prepared state: a weighted sum of its 64-bit words but the one at `check_offset`
   (the guard itself); odd weights make any single flipped bit change it. */
static inline uint64_t gpuocc_state_sum(const void *state, size_t bytes, size_t check_offset)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < bytes / sizeof(uint64_t); i++) {
        uint64_t word;
        memcpy(&word, (const unsigned char *)state + i * sizeof word, sizeof word);
        sum += i == check_offset / sizeof word ? 0 : word * (2 * i + 1);
    }
    return sum;
}
/* The prepared form of NVIDIA's rules (lib/nvidia/batch.c): fill the opaque state from a checked device;
   run a batch on it (the state is re-checked; the kernel and batch structs already are). */
void gpuocc_nv_prepare(const gpuocc_device *d, uint64_t *opaque);
int32_t gpuocc_nv_batch(const uint64_t *opaque, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count);
/* AMD's (lib/amd/batch.c): the checked device stored first, as NVIDIA's; each launch through
   gpuocc_amd_compute. */
void gpuocc_amd_prepare(const gpuocc_device *d, uint64_t *opaque);
int32_t gpuocc_amd_batch(const uint64_t *opaque, const gpuocc_kernel *k, const gpuocc_batch *b, size_t count);

static inline int32_t gpuocc_public_limit(int32_t limit)
{
    /* GPUOCC_UNLIMITED is -1: all ones where the limit is none, without a branch (compilers make one of
       the conditional expression, which random launches mispredict) */
    _Static_assert(GPUOCC_UNLIMITED == -1, "GPUOCC_UNLIMITED is all ones");
    return limit | -(int32_t)(limit == GPUOCC_NO_LIMIT);
}


/* The same for functions that apply NVIDIA's rules alone: any other vendor gives GPUOCC_ERR_VENDOR. */
int32_t gpuocc_nvidia_device_load(gpuocc_device *local, const gpuocc_device *dev);
const gpuocc_device *gpuocc_nvidia_device_view(const gpuocc_device *dev, gpuocc_device *scratch, int32_t *rc);
int32_t gpuocc_nvidia_pair_load(gpuocc_device *d, const gpuocc_device *dev, gpuocc_kernel *k,
                                const gpuocc_kernel *kernel);

/* What only the pair can tell (an AMD kernel's wave size and AGPRs against its device). */
int32_t gpuocc_pair_check(const gpuocc_device *d, const gpuocc_kernel *k);

/* AMD's rules (lib/amd/): device check, and the combined computation for an AMD device. */
int32_t gpuocc_amd_check_device(const gpuocc_device *d);
/* The AMD fields of a kernel that only make sense with its device (wave size, AGPRs). */
int32_t gpuocc_amd_check_kernel(const gpuocc_device *d, const gpuocc_kernel *k);
void gpuocc_amd_compute(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r);
/* Each vendor's part of the built-in table (lib/nvidia/catalog.c, lib/amd/catalog.c): its architecture
   rows then its product rows, indexed from 0 (valid indexes only).  The core catalog puts the parts one
   after another, NVIDIA's first.  find takes a key normalized by the core (lower
   case, no spaces, '-' or '_') and gives an index in the part, or -1. */
struct gpuocc_catalog_part {
    int32_t arch_count, product_count;
    int32_t (*find)(const char *key);
    const char *(*name)(int32_t index);
    const char *(*source)(int32_t index);
    void (*fill)(int32_t index, gpuocc_device *d);
};
const struct gpuocc_catalog_part *gpuocc_nvidia_catalog(void);
const struct gpuocc_catalog_part *gpuocc_amd_catalog(void);
/* Whether `key` is one of the space-separated `aliases`. */
bool gpuocc_alias_matches(const char *aliases, const char *key);
/* `key` past any of the `count` brand prefixes (repeatedly: "amdinstinctmi300x" -> "mi300x"), keeping
   at least one character. */
const char *gpuocc_strip_brands(const char *key, const char *const *brands, size_t count);
/* What gpuocc_amd_compute builds its answer from, each alone (lib/amd/occupancy.c): every resource's limit
   in blocks (GPUOCC_NO_LIMIT where none; indexes GPUOCC_RESOURCE_*, SGPRs included); the LDS per CU (or
   WGP) the kernel's model divides; LLVM's cap on workgroups with barriers (GPUOCC_NO_LIMIT for the runtime
   model); the kernel's wave size; the VGPRs one wave is given (per-lane allocation x wave size). */
#define GPUOCC_AMD_LIMITS (GPUOCC_RESOURCE_SGPRS + 1)
void gpuocc_amd_limits(const gpuocc_device *d, const gpuocc_kernel *k, int32_t limits[GPUOCC_AMD_LIMITS]);
int64_t gpuocc_amd_lds_per_cu(const gpuocc_device *d, const gpuocc_kernel *k);
int32_t gpuocc_amd_barrier_cap(const gpuocc_device *d, const gpuocc_kernel *k);
int64_t gpuocc_amd_wave_size(const gpuocc_device *d, const gpuocc_kernel *k);
int64_t gpuocc_amd_regs_per_wave(const gpuocc_device *d, const gpuocc_kernel *k);

/*
 * One vendor's per-resource rules on checked, local copies.  The core's public wrappers (lib/core/limits.c)
 * check their arguments, take the table of the device's vendor (gpuocc_vendor_rules_of) and call it: the
 * one place they look at the vendor.  Limits are in blocks, GPUOCC_NO_LIMIT where the resource cannot limit.
 */
struct gpuocc_vendor_rules {
    int32_t (*limit_warps)(const gpuocc_device *d, int64_t threads);
    int32_t (*limit_registers)(const gpuocc_device *d, int64_t threads, int64_t regs);
    int32_t (*limit_smem)(const gpuocc_device *d, const gpuocc_kernel *k);
    int32_t (*limit_blocks)(const gpuocc_device *d);
    int32_t (*limit_barriers)(const gpuocc_device *d, int64_t barriers);
    int64_t (*regs_per_warp)(const gpuocc_device *d, int64_t regs);
    int64_t (*regs_per_block)(const gpuocc_device *d, int64_t threads, int64_t regs);
    int64_t (*smem_per_block)(const gpuocc_device *d, int64_t smem_static, int64_t smem_dynamic);
    int64_t (*smem_per_sm)(const gpuocc_device *d, const gpuocc_kernel *k);
};
/* AMD's inverse and search queries (lib/amd/search.c), on checked structs, answering as the public
   functions of the same names (GPUOCC_ERR_UNSATISFIABLE when none; outputs written on success only):
   regs_max_for_blocks gives arch VGPRs 0 .. regs_per_thread_max, smem_dynamic_available dynamic LDS up to
   what one workgroup may use less the static LDS.
   best_block as gpuocc_nv_best_block, but the best block size and min_grid written on success.
   sweep_next: the first value in (v, to] where the answer along `axis` may differ from v's, INT64_MAX if
   none; sweep_range as gpuocc_sweep_range. */
int32_t gpuocc_amd_regs_max_for_blocks(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int32_t *regs);
int32_t gpuocc_amd_smem_dynamic_available(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, int64_t *bytes);
int32_t gpuocc_amd_next_step(const gpuocc_device *d, const gpuocc_kernel *k, int32_t resource, int64_t *new_value,
                             int64_t *shed);
int32_t gpuocc_amd_best_block(const gpuocc_device *d, const gpuocc_kernel *k, const struct gpuocc_smem_rule *rule,
                              int32_t *threads, int32_t *min_grid);
int64_t gpuocc_amd_sweep_next(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t v, int64_t to);
void gpuocc_amd_sweep_range(const gpuocc_device *d, const gpuocc_kernel *k, int32_t axis, int64_t *from, int64_t *to,
                            int64_t *step);

/* Each vendor's table (functions, not data, so that the amalgamation can make them static). */
const struct gpuocc_vendor_rules *gpuocc_nvidia_vendor_rules(void); /* lib/nvidia/limits.c */
const struct gpuocc_vendor_rules *gpuocc_amd_vendor_rules(void);    /* lib/amd/limits.c */
/* The table of a checked device's vendor. */
static inline const struct gpuocc_vendor_rules *gpuocc_vendor_rules_of(const gpuocc_device *d)
{
    return d->vendor == GPUOCC_VENDOR_AMD ? gpuocc_amd_vendor_rules() : gpuocc_nvidia_vendor_rules();
}

/* The identifier of a plain _Z mangling within `name` (the whole name otherwise). */
void gpuocc_short_name(const char *name, size_t length, size_t *start, size_t *short_length);

/* The catalog index a name resolves to, or -1. */
int32_t gpuocc_catalog_find(const char *name);

/* Domain checks for the models' floating-point inputs. */
enum gpuocc_domain { GPUOCC_POSITIVE, GPUOCC_NONNEGATIVE, GPUOCC_FRACTION, GPUOCC_AT_LEAST_ONE };
static inline int32_t gpuocc_check(double v, enum gpuocc_domain domain)
{
    if (!isfinite(v))
        return GPUOCC_ERR_NOT_FINITE;
    bool ok = domain == GPUOCC_POSITIVE      ? v > 0
              : domain == GPUOCC_NONNEGATIVE ? v >= 0
              : domain == GPUOCC_FRACTION    ? v >= 0 && v <= 1
                                             : v >= 1;
    return ok ? GPUOCC_OK : GPUOCC_ERR_DOMAIN;
}

/* GPUOCC_OK when all n answers are finite, else GPUOCC_ERR_OVERFLOW: every model runs its answers
   through this before storing any, so finite inputs never give an infinite or NaN result as OK. */
static inline int32_t gpuocc_finite(size_t n, const double *answers)
{
    for (size_t i = 0; i < n; i++)
        if (answers[i] != answers[i] || answers[i] - answers[i] != 0)
            return GPUOCC_ERR_OVERFLOW;
    return GPUOCC_OK;
}

#endif
