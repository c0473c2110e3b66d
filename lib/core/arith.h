/* The ground layer's arithmetic: saturating and rounding integer helpers, the hot paths' inlining
   attributes, and four-lane vectors where the compiler has them.  No vendor, no format. */
#ifndef GPUOCC_CORE_ARITH_H
#define GPUOCC_CORE_ARITH_H

#ifndef GPUOCC_EXPERIMENTAL
#define GPUOCC_EXPERIMENTAL /* the library defines the experimental part too */
#endif
#include "gpuocc.h"

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

/* A condition that holds on every real device (a power-of-two unit): its code is laid out inline, the other
   case out of the way. */
#if defined(__GNUC__) || defined(__clang__)
#define GPUOCC_LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define GPUOCC_LIKELY(c) (c)
#endif

/* The value as computed, opaque to the compiler: a conditional expression that picks it is then a
   conditional move, not a branch around its computation (GCC makes one of a division it could skip).  No
   instruction. */
#if defined(__GNUC__) || defined(__clang__)
#define GPUOCC_KEEP(x) __asm__("" : "+r"(x))
#else
#define GPUOCC_KEEP(x) ((void)0)
#endif

/* yes ? a : b with both already computed: the compilers make a conditional move of it, not a branch (one on
   a random launch's values mispredicts). */
static inline int32_t gpuocc_select_i32(int yes, int32_t a, int32_t b)
{
    return yes ? a : b;
}

/* Sums of byte counts saturate here, far above any real device and far below INT64_MAX, so a
   request that is absurdly large becomes "does not fit" instead of wrapping around. */
#define GPUOCC_BYTES_HUGE ((int64_t)1 << 60)

static inline int64_t gpuocc_sat_add(int64_t a, int64_t b)
{
    /* both operands are >= 0 where this is used */
    return (a > GPUOCC_BYTES_HUGE - b) ? GPUOCC_BYTES_HUGE : a + b;
}

/* a + b + c saturating at GPUOCC_BYTES_HUGE, for a, b >= 0 and 0 <= c <= 2^62 (no sum wraps: a + b < 2^64). */
static inline int64_t gpuocc_sat_sum3(int64_t a, int64_t b, int64_t c)
{
    uint64_t sum = (uint64_t)a + (uint64_t)b;
    sum = sum > (uint64_t)GPUOCC_BYTES_HUGE ? (uint64_t)GPUOCC_BYTES_HUGE : sum;
    sum += (uint64_t)c;
    return (int64_t)(sum > (uint64_t)GPUOCC_BYTES_HUGE ? (uint64_t)GPUOCC_BYTES_HUGE : sum);
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
   machine (the checks read an int64's low word first); scalar code otherwise, and on 32-bit x86 without
   SSE2 (where a vector value changes the calling convention).  Define GPUOCC_NO_VECTORS to force the scalar
   code. */
#if defined(__GNUC__) && !defined(GPUOCC_NO_VECTORS) && defined(__BYTE_ORDER__) &&                             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !(defined(__i386__) && !defined(__SSE2__))
#define GPUOCC_VECTORS 1
typedef uint32_t gpuocc_u32x4 __attribute__((vector_size(16)));
typedef int32_t gpuocc_i32x4 __attribute__((vector_size(16)));
static inline gpuocc_i32x4 gpuocc_load_i32x4(const void *p)
{
    gpuocc_i32x4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

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

/* A limit lowered by an optional bound (0 or less: none): the largest block a kernel may launch is the
   device's, or the kernel's own maximum when smaller, on every vendor. */
static inline int64_t gpuocc_bounded(int64_t limit, int64_t bound)
{
    return bound > 0 && bound < limit ? bound : limit;
}

static inline int32_t gpuocc_clamp_i32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

#endif
