/*
 * The fast paths check what the plain ones check.  gpuocc_occupancy validates the caller's structs in place
 * (four fields at a time where the compiler allows); gpuocc_device_validate and gpuocc_limit_shared_memory
 * still go through the field-by-field checks.  Every field is set to values on and around each bound, and
 * both paths must give the same status.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (older_layouts_are_not_read_past_their_end) */
#include "common.h"

#include <stddef.h>
#include <string.h>

static const int64_t probes[] = {
    INT64_MIN, (int64_t)INT32_MIN - 1, INT32_MIN, -1025, -2, -1, 0, 1, 2, 3, 4, 31, 32, 63, 64, 65, 100, 101,
    999, 1000, 1001, 1023, 1024, 1025, 65536, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (1 << 30) - 1, 1 << 30,
    (1 << 30) + 1, INT32_MAX - 1, INT32_MAX, (int64_t)INT32_MAX + 1, (int64_t)UINT32_MAX,
    ((int64_t)1 << 40) - 1, (int64_t)1 << 40, ((int64_t)1 << 40) + 1, INT64_MAX,
};
#define PROBES (sizeof probes / sizeof probes[0])

static void put(void *base, size_t offset, size_t width, int64_t v)
{
    if (width == 4) {
        int32_t w = (int32_t)v;
        memcpy((char *)base + offset, &w, 4);
    } else {
        memcpy((char *)base + offset, &v, 8);
    }
}

/* Every 4-byte field of the device before smem_per_sm_bytes, the four int64 fields, the unit, the count,
   each carveout and each reserved word. */
static void device_fields(size_t *offsets, size_t *widths, size_t *n)
{
    *n = 0;
    for (size_t o = offsetof(gpuocc_device, vendor); o < offsetof(gpuocc_device, smem_per_sm_bytes); o += 4)
        offsets[*n] = o, widths[(*n)++] = 4;
    for (size_t o = offsetof(gpuocc_device, smem_per_sm_bytes); o < offsetof(gpuocc_device, smem_alloc_unit_bytes);
         o += 8)
        offsets[*n] = o, widths[(*n)++] = 8;
    for (size_t o = offsetof(gpuocc_device, smem_alloc_unit_bytes); o < offsetof(gpuocc_device, reserved); o += 4)
        offsets[*n] = o, widths[(*n)++] = 4;
    for (size_t o = offsetof(gpuocc_device, reserved); o < sizeof(gpuocc_device); o += 8)
        offsets[*n] = o, widths[(*n)++] = 8;
}

static void check_device_variants(const char *name)
{
    gpuocc_device base = test_device(name);
    /* dynamic, not static, shared memory: a device with less per block than a static size refuses the launch
       (GPUOCC_ERR_SMEM), which is the launch's error, not the device's */
    gpuocc_kernel k = test_kernel(256, 32, 0, 1024);
    size_t offsets[128], widths[128], n;
    device_fields(offsets, widths, &n);
    long accepted = 0, rejected = 0;
    for (size_t f = 0; f < n; f++)
        for (size_t p = 0; p < PROBES; p++) {
            gpuocc_device d = base;
            put(&d, offsets[f], widths[f], probes[p]);
            int32_t plain = gpuocc_device_validate(&d);
            gpuocc_result r = {.size = sizeof r};
            int32_t fast = gpuocc_occupancy(&d, &k, &r);
            cr_expect_eq(fast, plain, "%s: field at %zu = %lld: occupancy %d, validate %d", name, offsets[f],
                         (long long)probes[p], fast, plain);
            plain == GPUOCC_OK ? accepted++ : rejected++;
        }
    /* the probes reach both sides of the checks */
    cr_expect_gt(accepted, 0);
    cr_expect_gt(rejected, 0);
}

Test(fastpath, device_checks_agree_field_by_field)
{
    const char *names[] = {"sm_60", "sm_75", "sm_80", "sm_90", "sm_120", "H100", "RTX 4090"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        check_device_variants(names[i]);
}

Test(fastpath, carveout_tables_agree)
{
    /* orderings and padding of the carveout list: ascending, equal neighbours, a nonzero unused entry */
    gpuocc_device base = test_device("sm_90");
    gpuocc_kernel k = test_kernel(128, 32, 0, 0);
    for (int32_t count = 0; count <= GPUOCC_MAX_CARVEOUTS; count++)
        for (int32_t flaw = -1; flaw < GPUOCC_MAX_CARVEOUTS; flaw++) {
            gpuocc_device d = base;
            memset(d.carveouts_kib, 0, sizeof d.carveouts_kib);
            d.carveout_count = count;
            for (int32_t i = 0; i < count; i++)
                d.carveouts_kib[i] = 228 - 8 * (count - 1 - i);
            if (flaw >= 0)
                d.carveouts_kib[flaw] = flaw > 0 ? d.carveouts_kib[flaw - 1] : 7;
            gpuocc_result r = {.size = sizeof r};
            cr_expect_eq(gpuocc_occupancy(&d, &k, &r), gpuocc_device_validate(&d), "count %d flaw %d", count, flaw);
        }
}

Test(fastpath, kernel_checks_agree_field_by_field)
{
    gpuocc_device d = test_device("H100");
    gpuocc_kernel base = test_kernel(256, 32, 1024, 2048);
    size_t offsets[32], widths[32], n = 0;
    for (size_t o = offsetof(gpuocc_kernel, threads_per_block); o < offsetof(gpuocc_kernel, smem_static_bytes); o += 4)
        offsets[n] = o, widths[n++] = 4;
    offsets[n] = offsetof(gpuocc_kernel, smem_static_bytes), widths[n++] = 8;
    offsets[n] = offsetof(gpuocc_kernel, smem_dynamic_bytes), widths[n++] = 8;
    offsets[n] = offsetof(gpuocc_kernel, carveout_percent), widths[n++] = 4;
    offsets[n] = offsetof(gpuocc_kernel, smem_optin), widths[n++] = 4;
    offsets[n] = offsetof(gpuocc_kernel, smem_dynamic_max_bytes), widths[n++] = 8;
    offsets[n] = offsetof(gpuocc_kernel, max_threads_per_block), widths[n++] = 4;
    offsets[n] = offsetof(gpuocc_kernel, reserved0), widths[n++] = 4;
    for (size_t o = offsetof(gpuocc_kernel, reserved); o < sizeof(gpuocc_kernel); o += 8)
        offsets[n] = o, widths[n++] = 8;
    for (size_t f = 0; f < n; f++)
        for (size_t p = 0; p < PROBES; p++) {
            gpuocc_kernel k = base;
            put(&k, offsets[f], widths[f], probes[p]);
            int32_t blocks;
            int32_t plain = gpuocc_limit_shared_memory(&d, &k, &blocks);
            /* a saturated allocation (>= 2^60 bytes) is 0 blocks to the limit, but no result to report */
            int64_t bytes;
            if (plain == GPUOCC_OK &&
                gpuocc_smem_per_block(&d, k.smem_static_bytes, k.smem_dynamic_bytes, &bytes) == GPUOCC_ERR_OVERFLOW)
                plain = GPUOCC_ERR_OVERFLOW;
            gpuocc_result r = {.size = sizeof r};
            int32_t fast = gpuocc_occupancy(&d, &k, &r);
            cr_expect_eq(fast, plain, "kernel field at %zu = %lld: occupancy %d, plain %d", offsets[f],
                         (long long)probes[p], fast, plain);
        }
}

Test(fastpath, larger_structs_are_read_in_place)
{
    /* a caller's layout from a future version: bytes past the known layout must be zero */
    struct {
        gpuocc_device d;
        unsigned char tail[24];
    } dev;
    memset(&dev, 0, sizeof dev);
    dev.d = test_device("sm_80");
    dev.d.size = sizeof dev;
    struct {
        gpuocc_kernel k;
        unsigned char tail[8];
    } ker;
    memset(&ker, 0, sizeof ker);
    ker.k = test_kernel(128, 64, 0, 0);
    ker.k.size = sizeof ker;
    struct {
        gpuocc_result r;
        unsigned char tail[16];
    } res;
    memset(&res, 0xAB, sizeof res);
    res.r.size = sizeof res;
    cr_assert_eq(gpuocc_occupancy(&dev.d, &ker.k, &res.r), GPUOCC_OK);
    /* sm_80, 128 threads x 64 regs: 2048 regs per warp, 4 warps -> 65536 / 4 / 2048 = 8 warps per
       sub-partition -> 32 warps -> 8 blocks; 48 warp slots / 4 = 12 */
    cr_expect_eq(res.r.blocks_per_sm, 8);
    cr_expect_eq(res.r.size, sizeof res);
    for (size_t i = 0; i < sizeof res.tail; i++)
        cr_expect_eq(res.tail[i], 0, "result tail byte %zu", i);
    cr_expect_eq(res.r.reserved[0] | res.r.reserved[1], 0);
    cr_expect_eq(res.r.model, 0); /* the AMD fields of an NVIDIA answer */
    cr_expect_eq(res.r.waves_per_simd, 0);
    cr_expect_eq(res.r.limit_sgprs, GPUOCC_UNLIMITED);
    dev.tail[23] = 1;
    cr_expect_eq(gpuocc_occupancy(&dev.d, &ker.k, &res.r), GPUOCC_ERR_RESERVED);
    dev.tail[23] = 0;
    ker.tail[0] = 1;
    cr_expect_eq(gpuocc_occupancy(&dev.d, &ker.k, &res.r), GPUOCC_ERR_RESERVED);
}

static uint64_t rng = 0x2545F4914F6CDD1Du;
static int64_t pick(int64_t lo, int64_t hi) /* inclusive, xorshift64 */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (int64_t)(rng % (uint64_t)(hi - lo + 1));
}

/* ---- the single call's fast path equals the plain rules ---- */

/* A device of the catalog with some of its numbers changed: units that are or are not powers of two,
   other warp sizes and sub-partitions, random carveout lists, byte counts near the fast path's bound. */
static gpuocc_device random_device(void)
{
    gpuocc_device d = {.size = sizeof d};
    do
        cr_assert_eq(gpuocc_catalog_device((int32_t)pick(0, gpuocc_catalog_count() - 1), &d), GPUOCC_OK);
    while (d.vendor != GPUOCC_VENDOR_NVIDIA);
    if (pick(0, 1))
        return d;
    const int32_t warp_sizes[] = {1, 8, 16, 32, 32, 48, 64};
    const int32_t units[] = {1, 64, 128, 192, 256, 256, 512};
    switch (pick(0, 9)) {
    case 0: d.warp_size = warp_sizes[pick(0, 6)], d.max_threads_per_sm = d.warp_size * (int32_t)pick(1, 64); break;
    case 1: d.reg_alloc_unit = units[pick(0, 6)]; break;
    case 2: d.sub_partitions = (int32_t)pick(1, 8), d.reg_compat_sub_partitions = (int32_t)pick(0, 1) * 4; break;
    case 3: d.smem_alloc_unit_bytes = units[pick(0, 6)]; break;
    case 4: d.regs_per_thread_max = (int32_t)pick(1, 1024), d.regs_per_sm = (int32_t)pick(1, 1 << 28); break;
    case 5: d.barriers_per_sm = (int32_t)pick(0, 40), d.max_blocks_per_sm = (int32_t)pick(1, 64); break;
    case 6: d.smem_reserved_per_block_bytes = pick(0, 4096); break;
    case 7: d.regs_per_block = (int32_t)pick(1, 1 << 17), d.max_threads_per_block = (int32_t)pick(1, 4096); break;
    default: {
        /* a random ascending carveout list whose largest entry holds the SM's and the largest block's bytes */
        int64_t need = d.smem_per_block_optin_bytes + d.smem_reserved_per_block_bytes;
        need = need > d.smem_per_sm_bytes ? need : d.smem_per_sm_bytes;
        memset(d.carveouts_kib, 0, sizeof d.carveouts_kib);
        d.carveout_count = (int32_t)pick(0, GPUOCC_MAX_CARVEOUTS);
        int32_t top = (int32_t)((need + 1023) / 1024 + pick(0, 3) * 100);
        for (int32_t i = d.carveout_count - 1; i >= 0; i--, top -= (int32_t)pick(1, 40))
            d.carveouts_kib[i] = top > 0 ? top : 0;
        break;
    }
    }
    return d;
}

static gpuocc_kernel random_single_launch(const gpuocc_device *d)
{
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    int edge = (int)pick(0, 40);
    k.threads_per_block = edge == 0 ? INT32_MAX : (int32_t)(pick(0, 3) ? pick(1, 1100) : pick(1, 1 << 16));
    k.regs_per_thread = edge == 1 ? INT32_MAX : (int32_t)(pick(0, 5) ? pick(0, 260) : pick(0, 1 << 20));
    k.smem_static_bytes = edge == 2 ? ((int64_t)1 << 40) - pick(0, 1) : pick(0, 2) ? pick(0, 8192) : pick(0, 300000);
    k.smem_dynamic_bytes = edge == 3 ? ((int64_t)1 << 40) - pick(0, 1) : pick(0, 2) ? pick(0, 16384) : pick(0, 300000);
    k.carveout_percent = (int32_t)(pick(0, 2) == 0 ? -1 : pick(0, 100));
    k.smem_optin = (int32_t)pick(0, 1);
    k.smem_dynamic_max_bytes = edge == 4 ? ((int64_t)1 << 40) - pick(0, 1)
                               : pick(0, 1) ? pick(0, d->smem_per_block_optin_bytes) : -1;
    k.barriers = (int32_t)(edge == 5 ? INT32_MAX : pick(0, 3) ? 1 : pick(0, 100));
    k.max_threads_per_block = (int32_t)pick(0, 1) * (int32_t)pick(0, 1024);
    if (edge == 6 || edge == 7) {
        /* on and around the opt-in attribute, and around the default per-block limit */
        k.smem_optin = 1;
        k.smem_static_bytes = pick(0, 4096);
        k.smem_dynamic_max_bytes = edge == 6 ? pick(0, d->smem_per_block_optin_bytes)
                                             : d->smem_per_block_bytes - k.smem_static_bytes -
                                                   d->smem_reserved_per_block_bytes + pick(-1, 1);
        if (k.smem_dynamic_max_bytes < 0)
            k.smem_dynamic_max_bytes = 0;
        k.smem_dynamic_bytes = k.smem_dynamic_max_bytes + pick(-1, 1);
        if (k.smem_dynamic_bytes < 0)
            k.smem_dynamic_bytes = 0;
    }
    return k;
}

/* The plain rules' answer: the same structs declared one layout larger (a zero tail) go through the plain
   checks and rules. */
static int32_t plain_occupancy(const gpuocc_device *d, const gpuocc_kernel *k, gpuocc_result *r)
{
    struct {
        gpuocc_device d;
        uint64_t tail;
    } big_dev;
    struct {
        gpuocc_kernel k;
        uint64_t tail;
    } big_kernel;
    memset(&big_dev, 0, sizeof big_dev);
    memset(&big_kernel, 0, sizeof big_kernel);
    big_dev.d = *d, big_dev.d.size = sizeof big_dev;
    big_kernel.k = *k, big_kernel.k.size = sizeof big_kernel;
    return gpuocc_occupancy(&big_dev.d, &big_kernel.k, r);
}

Test(fastpath, single_call_equals_the_plain_rules)
{
    long answered = 0;
    for (int round = 0; round < 200000; round++) {
        gpuocc_device d = random_device();
        gpuocc_kernel k = random_single_launch(&d);
        gpuocc_result fast, plain;
        memset(&fast, 0xA5, sizeof fast);
        memset(&plain, 0xA5, sizeof plain);
        fast.size = plain.size = sizeof fast;
        int32_t rc = gpuocc_occupancy(&d, &k, &fast);
        cr_assert_eq(rc, plain_occupancy(&d, &k, &plain), "round %d", round);
        cr_assert_eq(memcmp(&fast, &plain, sizeof fast), 0,
                     "round %d: warp %d unit %d parts %d smem unit %d carveouts %d; threads %d regs %d static %lld "
                     "dynamic %lld: fast %d blocks, plain %d",
                     round, d.warp_size, d.reg_alloc_unit, d.sub_partitions, d.smem_alloc_unit_bytes,
                     d.carveout_count, k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes,
                     (long long)k.smem_dynamic_bytes, fast.blocks_per_sm, plain.blocks_per_sm);
        answered += rc == GPUOCC_OK;
        if (round % 4 == 0) {
            /* the prepared call's tables (or its plain path, on devices they do not hold) on the same
               launch: the plain rules' answer, field by field */
            gpuocc_prepared p = {.size = sizeof p};
            cr_assert_eq(gpuocc_prepare(&d, &p), gpuocc_device_validate(&d), "round %d", round);
            if (gpuocc_device_validate(&d) != GPUOCC_OK)
                continue;
            gpuocc_result prepared;
            memset(&prepared, 0xA5, sizeof prepared);
            prepared.size = sizeof prepared;
            cr_assert_eq(gpuocc_occupancy_prepared(&p, &k, &prepared), rc, "round %d: prepared", round);
            cr_assert_eq(memcmp(&prepared, &plain, sizeof prepared), 0,
                         "round %d: prepared %d blocks (limits %d %d %d), plain %d (%d %d %d); threads %d regs %d "
                         "static %lld dynamic %lld carveout %d optin %d",
                         round, prepared.blocks_per_sm, prepared.limit_warps, prepared.limit_regs,
                         prepared.limit_smem, plain.blocks_per_sm, plain.limit_warps, plain.limit_regs,
                         plain.limit_smem, k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes,
                         (long long)k.smem_dynamic_bytes, k.carveout_percent, k.smem_optin);
        }
    }
    cr_expect_gt(answered, 100000);
}

/* The single calls' device shape (lib/nvidia/fast.c: SHAPE_*) on and around each of its bounds: shared
   memory an SM, the per-block limits and the reserved bytes, the largest carveout, registers a thread, and
   blocks near 2^32 bytes.  Whatever side of a bound a device falls on, both single calls give the plain
   rules' answer, field by field. */
Test(fastpath, single_calls_at_the_shape_bounds)
{
    const char *bases[] = {"sm_60", "sm_75", "H100"}; /* no carveouts (and GP100's layout), few, many */
    const int64_t near[] = {-1024, -1, 0, 1, 1024};
    const int32_t kib_near[] = {-2, -1, 0, 1, 2}, regs_near[] = {256, 511, 512, 513, 1024};
    long answered = 0;
    for (int b = 0; b < 3; b++) {
        for (int field = 0; field < 5; field++) {
            for (int e = 0; e < 5; e++) {
                gpuocc_device d = {.size = sizeof d};
                cr_assert_eq(gpuocc_device_lookup(bases[b], &d), GPUOCC_OK);
                int64_t bytes;
                switch (field) {
                case 0: /* shared memory an SM around 2^25 (carveouts moved with it) */
                    bytes = ((int64_t)1 << 25) + near[e];
                    d.smem_per_sm_bytes = bytes;
                    if (d.carveout_count > 0)
                        d.carveouts_kib[d.carveout_count - 1] = (int32_t)((bytes + 1023) / 1024);
                    break;
                case 1: /* the opt-in limit around 2^31, the largest carveout holding it */
                case 2: /* the reserved bytes around 2^31 */
                    bytes = ((int64_t)1 << 31) + near[e];
                    if (field == 1)
                        d.smem_per_block_optin_bytes = bytes;
                    else
                        d.smem_reserved_per_block_bytes = bytes;
                    if (d.carveout_count > 0) {
                        int64_t need = d.smem_per_block_optin_bytes + d.smem_reserved_per_block_bytes;
                        d.carveouts_kib[d.carveout_count - 1] = (int32_t)((need + 1023) / 1024);
                    }
                    break;
                case 3: /* the largest carveout around 2^22 KiB */
                    if (d.carveout_count > 0)
                        d.carveouts_kib[d.carveout_count - 1] = (1 << 22) + kib_near[e];
                    break;
                default: /* registers a thread around 512 */
                    d.regs_per_thread_max = regs_near[e];
                    break;
                }
                if (gpuocc_device_validate(&d) != GPUOCC_OK)
                    continue;
                gpuocc_prepared p = {.size = sizeof p};
                cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
                for (int round = 0; round < 400; round++) {
                    gpuocc_kernel k = random_single_launch(&d);
                    if (round % 4 == 0) /* a block near 2^32 bytes */
                        k.smem_optin = 1, k.smem_dynamic_max_bytes = -1,
                        k.smem_dynamic_bytes = ((int64_t)1 << 32) + pick(-4096, 4096) - k.smem_static_bytes;
                    gpuocc_result fast, prepared, plain;
                    memset(&fast, 0xA5, sizeof fast);
                    memset(&prepared, 0xA5, sizeof prepared);
                    memset(&plain, 0xA5, sizeof plain);
                    fast.size = prepared.size = plain.size = sizeof fast;
                    int32_t rc = plain_occupancy(&d, &k, &plain);
                    cr_assert_eq(gpuocc_occupancy(&d, &k, &fast), rc, "%s field %d edge %d round %d", bases[b], field,
                                 e, round);
                    cr_assert_eq(gpuocc_occupancy_prepared(&p, &k, &prepared), rc, "%s field %d edge %d round %d",
                                 bases[b], field, e, round);
                    cr_assert_eq(memcmp(&fast, &plain, sizeof fast), 0,
                                 "%s field %d edge %d round %d: fast %d blocks (smem %d), plain %d (smem %d)", bases[b],
                                 field, e, round, fast.blocks_per_sm, fast.limit_smem, plain.blocks_per_sm,
                                 plain.limit_smem);
                    cr_assert_eq(memcmp(&prepared, &plain, sizeof prepared), 0, "%s field %d edge %d round %d: prepared",
                                 bases[b], field, e, round);
                    answered += rc == GPUOCC_OK;
                }
            }
        }
    }
    cr_expect_gt(answered, 1000);
}

/* A device without carveouts whose opt-in limit is 8 GiB: a block of 4 GiB and a few bytes is within its
   limits, and the SM's 64 KiB hold none of it (by hand: floor(65536 / (2^32 + 4096)) = 0); a quotient
   of the allocation's low word (4096) would say 16. */
Test(fastpath, a_block_past_4_gib_fits_no_sm)
{
    gpuocc_device d = {.size = sizeof d};
    cr_assert_eq(gpuocc_device_lookup("sm_60", &d), GPUOCC_OK);
    cr_assert_eq(d.carveout_count, 0);
    d.smem_per_block_optin_bytes = (int64_t)8 << 30;
    cr_assert_eq(gpuocc_device_validate(&d), GPUOCC_OK);
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.threads_per_block = 128;
    k.smem_optin = 1;
    k.smem_dynamic_bytes = ((int64_t)1 << 32) + 4096 - d.smem_reserved_per_block_bytes;
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(&d, &k, &r), GPUOCC_OK);
    cr_expect_eq(r.limit_smem, 0);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.smem_per_block_bytes, ((int64_t)1 << 32) + 4096);
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    gpuocc_result q = {.size = sizeof q};
    cr_assert_eq(gpuocc_occupancy_prepared(&p, &k, &q), GPUOCC_OK);
    cr_expect_eq(q.limit_smem, 0);
}

/* ---- sweeps equal the plain rules point by point ---- */

Test(fastpath, sweep_points_equal_the_plain_rules)
{
    static gpuocc_sweep_point points[5000];
    long compared = 0;
    for (int round = 0; round < 3000; round++) {
        gpuocc_device d = random_device();
        gpuocc_kernel k = random_single_launch(&d);
        int32_t axis = (int32_t)pick(0, GPUOCC_AXIS_COUNT - 1);
        int64_t from, to, step;
        if (gpuocc_sweep_range(&d, &k, axis, &from, &to, &step) != GPUOCC_OK)
            continue;
        if (pick(0, 1)) {
            /* a random stretch: any start, any step, unit resolution included */
            int64_t span = axis == GPUOCC_AXIS_SMEM ? 300000 : axis == GPUOCC_AXIS_THREADS ? 4200 : 300;
            from = pick(axis == GPUOCC_AXIS_THREADS ? 1 : 0, span);
            step = pick(0, 2) ? 1 : pick(1, axis == GPUOCC_AXIS_SMEM ? 700 : 40);
            to = from + step * pick(0, 4000);
            if (axis == GPUOCC_AXIS_SMEM && k.smem_optin && k.smem_dynamic_max_bytes >= 0 && pick(0, 1)) {
                /* across the opt-in attribute byte by byte */
                from = k.smem_dynamic_max_bytes > 300 ? k.smem_dynamic_max_bytes - pick(0, 300) : 0;
                to = from + pick(0, 600);
            }
        }
        int32_t n = 0;
        int32_t rc = gpuocc_sweep(&d, &k, axis, from, to, step, points, 5000, &n);
        if (rc == GPUOCC_ERR_BUFFER || rc == GPUOCC_ERR_OVERFLOW) /* too many points for the array, or at all */
            continue;
        if (axis == GPUOCC_AXIS_BARRIERS && to > 16) { /* past the barriers a block may use: cannot run */
            cr_assert_eq(rc, GPUOCC_ERR_EXCEEDED, "round %d to %lld", round, (long long)to);
            continue;
        }
        cr_assert_eq(rc, GPUOCC_OK, "round %d axis %d from %lld to %lld step %lld: %d", round, axis, (long long)from,
                     (long long)to, (long long)step, rc);
        for (int32_t i = 0; i < n; i++) {
            gpuocc_kernel at = k;
            int64_t v = from + i * step;
            if (axis == GPUOCC_AXIS_THREADS)
                at.threads_per_block = (int32_t)v;
            else if (axis == GPUOCC_AXIS_REGS)
                at.regs_per_thread = (int32_t)v;
            else if (axis == GPUOCC_AXIS_SMEM)
                at.smem_dynamic_bytes = v;
            else
                at.barriers = (int32_t)v;
            gpuocc_result r = {.size = sizeof r};
            cr_assert_eq(plain_occupancy(&d, &at, &r), GPUOCC_OK);
            gpuocc_sweep_point want = {.value = v, .blocks_per_sm = r.blocks_per_sm, .warps_per_sm = r.warps_per_sm,
                                       .occupancy = r.occupancy, .limiters = r.limiters, .limit_warps = r.limit_warps,
                                       .limit_regs = r.limit_regs, .limit_smem = r.limit_smem,
                                       .limit_blocks = r.limit_blocks, .limit_barriers = r.limit_barriers,
                                       .regs_per_block = r.regs_per_block, .reserved0 = 0,
                                       .smem_per_block_bytes = r.smem_per_block_bytes,
                                       .smem_per_sm_bytes = r.smem_per_sm_bytes};
            cr_assert_eq(memcmp(&points[i], &want, sizeof want), 0,
                         "round %d axis %d point %d (value %lld): %d blocks smem %lld carveout %lld, plain %d blocks "
                         "smem %lld carveout %lld",
                         round, axis, i, (long long)v, points[i].blocks_per_sm,
                         (long long)points[i].smem_per_block_bytes, (long long)points[i].smem_per_sm_bytes,
                         want.blocks_per_sm, (long long)want.smem_per_block_bytes, (long long)want.smem_per_sm_bytes);
            compared++;
        }
    }
    cr_expect_gt(compared, 1000000);
}

/* ---- the batch call equals gpuocc_occupancy launch by launch ---- */

#define LAUNCHES 3000

static void check_batch(const gpuocc_device *d, const char *what)
{
    static int32_t threads[LAUNCHES], regs[LAUNCHES], status[LAUNCHES], blocks[LAUNCHES], warps[LAUNCHES];
    static int32_t lw[LAUNCHES], lr[LAUNCHES], ls[LAUNCHES], lb[LAUNCHES], lbar[LAUNCHES], rpb[LAUNCHES];
    static int32_t waves[LAUNCHES], lsg[LAUNCHES];
    static int64_t st[LAUNCHES], dy[LAUNCHES], spb[LAUNCHES], spsm[LAUNCHES];
    static int32_t st32[LAUNCHES], dy32[LAUNCHES];
    static uint32_t limiters[LAUNCHES];
    static double occ[LAUNCHES];
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(d, &p), GPUOCC_OK, "%s", what);
    for (int round = 0; round < 8; round++) {
        gpuocc_kernel base;
        gpuocc_kernel_init(&base);
        base.carveout_percent = (int32_t)(pick(0, 2) == 0 ? -1 : pick(0, 100));
        base.smem_optin = (int32_t)pick(0, 1);
        base.smem_dynamic_max_bytes = base.smem_optin && pick(0, 1) ? pick(0, d->smem_per_block_optin_bytes) : -1;
        base.barriers = (int32_t)pick(0, 20);
        base.threads_per_block = (int32_t)pick(1, 1024);
        base.smem_dynamic_bytes = pick(0, 4096);
        for (int i = 0; i < LAUNCHES; i++) {
            int edge = (int)pick(0, 30);
            threads[i] = edge == 0 ? (int32_t)pick(INT32_MIN, 0)
                         : edge == 1 ? INT32_MAX
                                     : (int32_t)(pick(0, 3) ? pick(1, 1100) : pick(1, 1 << 22));
            regs[i] = edge == 2 ? -1 : edge == 3 ? INT32_MAX : (int32_t)pick(0, 300);
            st[i] = edge == 4 ? -5 : edge == 5 ? INT64_MAX : pick(0, 3) ? pick(0, 8192) : pick(0, 300000);
            dy[i] = edge == 6 ? INT64_MIN : edge == 7 ? INT64_MAX - 3 : pick(0, 3) ? pick(0, 16384) : pick(0, 300000);
            if (edge == 8) /* both past the vector lanes' byte range (2^28), their sum past 2^31 */
                st[i] = pick((int64_t)1 << 28, INT32_MAX), dy[i] = pick((int64_t)1 << 28, INT32_MAX);
            if (round == 3) { /* 32-bit columns: the same values, clamped to them */
                st[i] = st[i] < INT32_MIN ? INT32_MIN : st[i] > INT32_MAX ? INT32_MAX : st[i];
                dy[i] = dy[i] < INT32_MIN ? INT32_MIN : dy[i] > INT32_MAX ? INT32_MAX : dy[i];
                st32[i] = (int32_t)st[i], dy32[i] = (int32_t)dy[i];
            }
        }
        gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .threads_per_block = threads, .regs_per_thread = regs,
                          .smem_static_bytes = st, .smem_dynamic_bytes = round == 1 ? NULL : dy, .status = status,
                          .blocks_per_sm = blocks, .warps_per_sm = warps, .occupancy = occ,
                          .limiters = limiters, .limit_warps = lw, .limit_regs = lr, .limit_smem = ls,
                          .limit_blocks = lb, .limit_barriers = lbar, .regs_per_block = rpb,
                          .smem_per_block_bytes = spb, .smem_per_sm_bytes = spsm,
                          .waves_per_simd = round == 4 ? NULL : waves, .limit_sgprs = lsg};
        if (round == 2)
            b.threads_per_block = NULL;
        if (round == 3)
            b.smem_width = 4, b.smem_static_bytes = st32, b.smem_dynamic_bytes = dy32;
        /* a base launch with more barriers than a block may use cannot run: each row says so, as a single
           call of it does (docs/model.md, "Launches that cannot run"), with the input over the limit */
        cr_assert_eq(gpuocc_occupancy_batch(&p, &base, &b, LAUNCHES), GPUOCC_OK, "%s barriers %d", what, base.barriers);
        for (int i = 0; i < LAUNCHES; i++) {
            gpuocc_kernel k = base;
            k.threads_per_block = b.threads_per_block ? threads[i] : base.threads_per_block;
            k.regs_per_thread = regs[i];
            k.smem_static_bytes = st[i];
            k.smem_dynamic_bytes = b.smem_dynamic_bytes ? dy[i] : base.smem_dynamic_bytes;
            gpuocc_result r = {.size = sizeof r};
            int32_t rc = gpuocc_occupancy(d, &k, &r);
            cr_assert_eq(status[i], rc, "%s launch %d: status %d, single call %d", what, i, status[i], rc);
            if (rc != GPUOCC_OK) {
                cr_assert_eq(blocks[i] | warps[i] | lw[i] | lr[i] | rpb[i] | lsg[i], 0);
                continue;
            }
            cr_assert(blocks[i] == r.blocks_per_sm && warps[i] == r.warps_per_sm && occ[i] == r.occupancy &&
                          limiters[i] == r.limiters && lw[i] == r.limit_warps && lr[i] == r.limit_regs &&
                          ls[i] == r.limit_smem && lb[i] == r.limit_blocks && lbar[i] == r.limit_barriers &&
                          rpb[i] == r.regs_per_block && spb[i] == r.smem_per_block_bytes &&
                          spsm[i] == r.smem_per_sm_bytes && (round == 4 || waves[i] == r.waves_per_simd) &&
                          lsg[i] == r.limit_sgprs,
                      "%s launch %d (threads %d regs %d static %lld dynamic %lld): batch %d blocks, single %d",
                      what, i, k.threads_per_block, k.regs_per_thread, (long long)k.smem_static_bytes,
                      (long long)k.smem_dynamic_bytes, blocks[i], r.blocks_per_sm);
        }
    }
}

Test(fastpath, batch_equals_single_calls)
{
    for (int32_t i = 0; i < gpuocc_catalog_count(); i++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(i, &d), GPUOCC_OK);
        if (d.vendor != GPUOCC_VENDOR_NVIDIA) /* the batch path is NVIDIA's (AMD: tests/test_amd.c) */
            continue;
        check_batch(&d, gpuocc_catalog_name(i));
    }
}

Test(fastpath, batch_on_devices_with_odd_units)
{
    /* units that are not powers of two, and a block limit past the reciprocal table, take the plain rules */
    gpuocc_device d = test_device("sm_90");
    d.reg_alloc_unit = 192;
    d.smem_alloc_unit_bytes = 96;
    check_batch(&d, "odd units");
    d = test_device("sm_80");
    d.warp_size = 24;
    d.max_threads_per_sm = 2040;
    check_batch(&d, "warp of 24");
    d = test_device("sm_60");
    d.max_threads_per_block = 4096;
    d.max_threads_per_sm = 4096;
    check_batch(&d, "4096 threads per block");
    /* register files around the lanes' 2^15 allocation units (the warps each step gives are tabled in
       16-bit halves), on GP100 too (two tables) */
    const int32_t files[] = {((1 << 15) - 1) * 256, (1 << 15) * 256, 1 << 26};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        d = test_device(i == 1 ? "sm_60" : "sm_90");
        d.regs_per_sm = files[i];
        check_batch(&d, "large register file");
        d.reg_alloc_unit = 1024;
        check_batch(&d, "large register file, 1024-register units");
    }
}

Test(fastpath, batch_with_32_bit_shared_memory_columns)
{
    gpuocc_device d = test_device("H100");
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    int32_t threads[3] = {256, 128, 0}, dynamic[3] = {49152, -1, 0}, status[3], blocks[3];
    int32_t waves[3] = {7, 7, 7}, limit_sgprs[3] = {7, 7, 7};
    gpuocc_kernel base;
    gpuocc_kernel_init(&base);
    gpuocc_batch b = {.size = sizeof b, .smem_width = 4, .threads_per_block = threads, .smem_dynamic_bytes = dynamic,
                      .status = status, .blocks_per_sm = blocks, .waves_per_simd = waves, .limit_sgprs = limit_sgprs};
    cr_assert_eq(gpuocc_occupancy_batch(&p, &base, &b, 3), GPUOCC_OK);
    /* H100, 256 threads, no registers, 48 KiB + 1 KiB: 233472 / 50176 = 4 blocks */
    cr_expect_eq(status[0], GPUOCC_OK);
    cr_expect_eq(blocks[0], 4);
    cr_expect_eq(status[1], GPUOCC_ERR_SMEM);
    cr_expect_eq(status[2], GPUOCC_ERR_THREADS);
    /* AMD's columns on NVIDIA, as gpuocc_occupancy: no waves per SIMD, no SGPR limit; 0 in a failed row */
    cr_expect_eq(waves[0], 0);
    cr_expect_eq(limit_sgprs[0], GPUOCC_UNLIMITED);
    cr_expect_eq(waves[1] | waves[2] | limit_sgprs[1] | limit_sgprs[2], 0);
}

Test(fastpath, batch_rejects_bad_calls_and_writes_nothing)
{
    gpuocc_device d = test_device("sm_75");
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    gpuocc_kernel base;
    gpuocc_kernel_init(&base);
    int32_t status[2] = {77, 77};
    gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .status = status};
    cr_expect_eq(gpuocc_occupancy_batch(NULL, &base, &b, 2), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_occupancy_batch(&p, NULL, &b, 2), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_occupancy_batch(&p, &base, NULL, 2), GPUOCC_ERR_NULL);
    b.smem_width = 2;
    cr_expect_eq(gpuocc_occupancy_batch(&p, &base, &b, 2), GPUOCC_ERR_ARGUMENT);
    b.smem_width = 8;
    b.reserved[1] = 1;
    cr_expect_eq(gpuocc_occupancy_batch(&p, &base, &b, 2), GPUOCC_ERR_RESERVED);
    b.reserved[1] = 0;
    b.status = NULL;
    cr_expect_eq(gpuocc_occupancy_batch(&p, &base, &b, 2), GPUOCC_ERR_NULL);
    b.status = status;
    base.threads_per_block = 0;
    cr_expect_eq(gpuocc_occupancy_batch(&p, &base, &b, 2), GPUOCC_ERR_THREADS);
    gpuocc_kernel_init(&base);
    /* a prepared device gpuocc_prepare did not fill, or one written into since */
    gpuocc_prepared raw = {.size = sizeof raw};
    cr_expect_eq(gpuocc_occupancy_batch(&raw, &base, &b, 2), GPUOCC_ERR_DEVICE);
    gpuocc_prepared zero = {0};
    cr_expect_eq(gpuocc_occupancy_batch(&zero, &base, &b, 2), GPUOCC_ERR_STRUCT_SIZE);
    /* a state whose magic word was changed, or whose device was changed into an invalid one: refused,
       nothing written */
    gpuocc_prepared bent = p;
    bent.magic = 0;
    cr_expect_eq(gpuocc_occupancy_batch(&bent, &base, &b, 2), GPUOCC_ERR_DEVICE);
    bent = p;
    bent.device.warp_size = 0; /* bounded (to 1), not refused: an answer, never a division by zero */
    cr_expect_eq(gpuocc_occupancy_batch(&bent, &base, &b, 2), GPUOCC_OK);
    status[0] = status[1] = 77;
    bent = p;
    bent.device.size = 4096; /* a size that would make a view read past the struct */
    cr_expect_eq(gpuocc_occupancy_batch(&bent, &base, &b, 2), GPUOCC_ERR_DEVICE);
    cr_expect(status[0] == 77 && status[1] == 77, "outputs written on failure");
    cr_expect_eq(gpuocc_prepare(NULL, &p), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_prepare(&d, NULL), GPUOCC_ERR_NULL);
    gpuocc_prepared small = {.size = 8};
    cr_expect_eq(gpuocc_prepare(&d, &small), GPUOCC_ERR_STRUCT_SIZE);
    d.warp_size = 0;
    cr_expect_eq(gpuocc_prepare(&d, &p), GPUOCC_ERR_DEVICE);
}

/* ---- inverse queries in closed form against their definition, walked with gpuocc_occupancy ---- */

static int32_t blocks_of(const gpuocc_device *d, gpuocc_kernel k)
{
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(d, &k, &r), GPUOCC_OK);
    return r.blocks_per_sm;
}

static void random_launch(const gpuocc_device *d, gpuocc_kernel *k)
{
    gpuocc_kernel_init(k);
    k->threads_per_block = (int32_t)(pick(0, 3) ? 32 * pick(1, 32) : pick(1, 1100));
    k->regs_per_thread = (int32_t)pick(0, 255);
    /* static shared memory within the static limit (above it a launch cannot run: an error, tested apart) */
    k->smem_static_bytes = pick(0, 2) ? pick(0, 4096) : pick(0, d->smem_per_block_bytes);
    k->smem_dynamic_bytes = pick(0, 16384);
    k->carveout_percent = (int32_t)(pick(0, 2) == 0 ? -1 : pick(0, 100));
    k->smem_optin = (int32_t)pick(0, 1);
    k->smem_dynamic_max_bytes = k->smem_optin && pick(0, 1) ? pick(0, d->smem_per_block_optin_bytes) : -1;
    k->barriers = (int32_t)pick(0, 4);
}

Test(fastpath, inverse_queries_meet_their_definition)
{
    long answered = 0, unsatisfiable = 0;
    for (int32_t c = 0; c < gpuocc_catalog_count(); c++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(c, &d), GPUOCC_OK);
        if (d.vendor != GPUOCC_VENDOR_NVIDIA) /* NVIDIA's searches (AMD: tests/test_amd.c) */
            continue;
        for (int n = 0; n < 60; n++) {
            gpuocc_kernel k;
            random_launch(&d, &k);
            int32_t want = (int32_t)pick(1, 10);
            /* registers: the largest count <= min(255, device maximum) at which `want` blocks fit */
            int32_t regs = -1, hi = d.regs_per_thread_max < 255 ? d.regs_per_thread_max : 255, expect = -1;
            for (int32_t v = hi; v >= 0 && expect < 0; v--) {
                gpuocc_kernel t = k;
                t.regs_per_thread = v;
                if (blocks_of(&d, t) >= want)
                    expect = v;
            }
            int32_t rc = gpuocc_regs_max_for_blocks(&d, &k, want, &regs);
            cr_assert_eq(rc, expect < 0 ? GPUOCC_ERR_UNSATISFIABLE : GPUOCC_OK, "%s regs: rc %d", gpuocc_catalog_name(c), rc);
            if (expect >= 0)
                cr_assert_eq(regs, expect, "%s threads %d want %d: regs %d, walk %d", gpuocc_catalog_name(c),
                             k.threads_per_block, want, regs, expect);
            /* dynamic shared memory: `want` blocks fit at the answer and at no larger size (every allocation
               granule above it checked at its smallest byte count, and one byte above) */
            int64_t bytes = -1;
            rc = gpuocc_smem_dynamic_available(&d, &k, want, &bytes);
            gpuocc_kernel t = k;
            if (rc == GPUOCC_ERR_UNSATISFIABLE) {
                t.smem_dynamic_bytes = 0;
                cr_assert_lt(blocks_of(&d, t), want, "%s: unsatisfiable, but 0 bytes fit", gpuocc_catalog_name(c));
                unsatisfiable++;
                continue;
            }
            cr_assert_eq(rc, GPUOCC_OK);
            answered++;
            t.smem_dynamic_bytes = bytes;
            cr_assert_geq(blocks_of(&d, t), want, "%s: %lld bytes do not fit %d blocks", gpuocc_catalog_name(c),
                          (long long)bytes, want);
            int64_t unit = d.smem_alloc_unit_bytes, fixed = k.smem_static_bytes + d.smem_reserved_per_block_bytes;
            int64_t top = d.smem_per_block_optin_bytes > d.smem_per_sm_bytes ? d.smem_per_block_optin_bytes
                                                                             : d.smem_per_sm_bytes;
            for (int64_t v = bytes + 1; v <= top + unit; v = ((v + fixed - 1) / unit + 1) * unit - fixed + 1) {
                t.smem_dynamic_bytes = v;
                cr_assert_lt(blocks_of(&d, t), want, "%s threads %d static %lld want %d: %lld bytes fit, answer %lld",
                             gpuocc_catalog_name(c), k.threads_per_block, (long long)k.smem_static_bytes, want,
                             (long long)v, (long long)bytes);
            }
        }
    }
    cr_expect_gt(answered, 100);
    cr_expect_gt(unsatisfiable, 10);
}

/* ---- the block-size search stops early; the callback form walks every candidate: same answers ---- */

struct affine {
    int64_t base, per_thread;
};
static int64_t affine_of(int32_t threads, void *user)
{
    const struct affine *a = user;
    return a->base + a->per_thread * threads;
}

Test(fastpath, best_block_early_stop_equals_the_full_walk)
{
    static int64_t table[1025];
    for (int32_t c = 0; c < gpuocc_catalog_count(); c++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(c, &d), GPUOCC_OK);
        if (d.vendor != GPUOCC_VENDOR_NVIDIA) /* NVIDIA's searches (AMD: tests/test_amd.c) */
            continue;
        d.sm_count = 10;
        for (int n = 0; n < 150; n++) {
            gpuocc_kernel k;
            random_launch(&d, &k);
            k.max_threads_per_block = pick(0, 3) ? 0 : (int32_t)pick(1, 1024);
            struct affine a = {pick(0, 1) ? 0 : pick(0, 40000), pick(0, 2) ? 0 : pick(0, 200)};
            for (int t = 0; t <= 1024; t++)
                table[t] = a.base + a.per_thread * t;
            int32_t walk_t = -1, walk_g = -1, fast_t = -2, fast_g = -2, table_t = -3, table_g = -3;
            cr_assert_eq(gpuocc_best_block_callback(&d, &k, affine_of, &a, &walk_t, &walk_g), GPUOCC_OK);
            cr_assert_eq(gpuocc_best_block_affine(&d, &k, a.base, a.per_thread, &fast_t, &fast_g), GPUOCC_OK);
            cr_assert_eq(gpuocc_best_block_table(&d, &k, table, 1025, &table_t, &table_g), GPUOCC_OK);
            cr_assert(fast_t == walk_t && fast_g == walk_g && table_t == walk_t && table_g == walk_g,
                      "%s regs %d static %lld base %lld per thread %lld: walk %d/%d, affine %d/%d, table %d/%d",
                      gpuocc_catalog_name(c), k.regs_per_thread, (long long)k.smem_static_bytes, (long long)a.base,
                      (long long)a.per_thread, walk_t, walk_g, fast_t, fast_g, table_t, table_g);
        }
    }
}

Test(fastpath, best_block_table_errors_come_as_a_walk_meets_them)
{
    static int64_t table[1025];
    gpuocc_device d = test_device("sm_90");
    gpuocc_kernel k = test_kernel(1, 32, 0, 0);
    int32_t t = 77, g = 77;
    cr_expect_eq(gpuocc_best_block_table(&d, &k, table, 1024, &t, &g), GPUOCC_ERR_BUFFER); /* 1024 is a candidate */
    table[32] = -1; /* the smallest candidate: a full walk reaches it */
    cr_expect_eq(gpuocc_best_block_table(&d, &k, table, 1025, &t, &g), GPUOCC_ERR_SMEM);
    table[33] = -1; /* not a candidate */
    table[32] = 0;
    cr_expect_eq(gpuocc_best_block_table(&d, &k, table, 1025, &t, &g), GPUOCC_OK);
    cr_expect_eq(t, 1024); /* 32 registers x 1024 threads: 2 blocks, 2048 threads, the most the SM holds */
}

/* ---- launches that cannot run: refused alike on every path ----
   More named barriers than a block may use (PTX ISA "bar, barrier": ids 0..15, so 16) and static shared
   memory above the static limit (48 KiB, smem_per_block_bytes) are errors, not block counts: the single
   call, the prepared call, a batch (whole for the base's barriers, per row for a static column), the
   searches and the sweeps all say GPUOCC_ERR_EXCEEDED or GPUOCC_ERR_EXCEEDED; one below the limit is answered. */
static void expect_refused_everywhere(const gpuocc_device *d, const gpuocc_kernel *k, int32_t want, const char *what)
{
    gpuocc_result r = {.size = sizeof r};
    cr_expect_eq(gpuocc_occupancy(d, k, &r), want, "%s: occupancy", what);
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(d, &p), GPUOCC_OK);
    cr_expect_eq(gpuocc_occupancy_prepared(&p, k, &r), want, "%s: prepared", what);
    int32_t t = -1, g = -1;
    cr_expect_eq(gpuocc_best_block_affine(d, k, 0, 0, &t, &g), want, "%s: best block", what);
    int64_t bytes = -1;
    cr_expect_eq(gpuocc_smem_dynamic_available(d, k, 1, &bytes), want, "%s: dynamic available", what);
    int32_t regs = -1;
    cr_expect_eq(gpuocc_regs_max_for_blocks(d, k, 1, &regs), want, "%s: registers for blocks", what);
    gpuocc_sweep_point pts[64];
    int32_t n = 0;
    cr_expect_eq(gpuocc_sweep(d, k, GPUOCC_AXIS_THREADS, 32, 1024, 32, pts, 64, &n), want, "%s: sweep", what);
    /* a batch of 300 rows (the long-batch path with its vector lanes) with the static size as a column */
    static int32_t threads[300], status[300];
    static int64_t st[300];
    for (int i = 0; i < 300; i++)
        threads[i] = 32 * (1 + i % 32), st[i] = k->smem_static_bytes, status[i] = 12345;
    gpuocc_batch b = {.size = sizeof b, .smem_width = 8, .threads_per_block = threads, .smem_static_bytes = st,
                      .status = status};
    gpuocc_kernel base = *k;
    base.smem_static_bytes = 0;
    cr_expect_eq(gpuocc_occupancy_batch(&p, &base, &b, 300), GPUOCC_OK, "%s: batch", what);
    for (int i = 0; i < 300; i++)
        cr_expect_eq(status[i], want, "%s: batch row %d", what, i);
}

Test(fastpath, launches_that_cannot_run_are_refused_on_every_path)
{
    gpuocc_device h = test_device("H100");
    cr_expect_eq(h.barriers_per_block_max, 0); /* the catalog: 0, the architecture's 16 */
    gpuocc_kernel k = test_kernel(256, 32, 0, 0);
    k.barriers = 16;
    expect_refused_everywhere(&h, &k, GPUOCC_OK, "16 barriers");
    k.barriers = 17;
    expect_refused_everywhere(&h, &k, GPUOCC_ERR_EXCEEDED, "17 barriers");
    k.barriers = INT32_MAX;
    expect_refused_everywhere(&h, &k, GPUOCC_ERR_EXCEEDED, "INT32_MAX barriers");
    k.barriers = 1;
    k.smem_static_bytes = 48 * 1024;
    expect_refused_everywhere(&h, &k, GPUOCC_OK, "48 KiB static");
    k.smem_static_bytes = 48 * 1024 + 1;
    expect_refused_everywhere(&h, &k, GPUOCC_ERR_EXCEEDED, "48 KiB + 1 static");
    k.smem_static_bytes = 64 * 1024;
    k.smem_optin = 1; /* opt-in raises the dynamic limit only */
    expect_refused_everywhere(&h, &k, GPUOCC_ERR_EXCEEDED, "64 KiB static, opt-in");
    k.smem_static_bytes = INT64_MAX; /* refused before any sum overflows */
    expect_refused_everywhere(&h, &k, GPUOCC_ERR_EXCEEDED, "INT64_MAX static");
    /* the sweep along barriers: to 16 answered, to 17 refused */
    gpuocc_sweep_point pts[64];
    int32_t n = 0;
    k = test_kernel(256, 32, 0, 0);
    cr_expect_eq(gpuocc_sweep(&h, &k, GPUOCC_AXIS_BARRIERS, 0, 16, 1, pts, 64, &n), GPUOCC_OK);
    cr_expect_eq(n, 17);
    cr_expect_eq(pts[16].blocks_per_sm, 4); /* 64 / 16 */
    cr_expect_eq(gpuocc_sweep(&h, &k, GPUOCC_AXIS_BARRIERS, 0, 17, 1, pts, 64, &n), GPUOCC_ERR_EXCEEDED);
    cr_expect_eq(gpuocc_sweep_steps(&h, &k, GPUOCC_AXIS_BARRIERS, 0, 17, pts, 64, &n), GPUOCC_ERR_EXCEEDED);

    /* a described device's own limit: 8 barriers (the plain path, the same answers) */
    gpuocc_device d = h;
    d.barriers_per_block_max = 8;
    cr_expect_eq(gpuocc_device_validate(&d), GPUOCC_OK);
    k.barriers = 8;
    expect_refused_everywhere(&d, &k, GPUOCC_OK, "8 of 8 barriers");
    k.barriers = 9;
    expect_refused_everywhere(&d, &k, GPUOCC_ERR_EXCEEDED, "9 of 8 barriers");
    d.barriers_per_block_max = -1;
    cr_expect_eq(gpuocc_device_validate(&d), GPUOCC_ERR_DEVICE);
    /* a described static limit below 48 KiB (smem_per_block_bytes): the same rule */
    d = h;
    d.smem_per_block_bytes = 16 * 1024;
    k = test_kernel(256, 32, 16 * 1024 + 1, 0);
    expect_refused_everywhere(&d, &k, GPUOCC_ERR_EXCEEDED, "static over a 16 KiB limit");
    k.smem_static_bytes = 16 * 1024;
    expect_refused_everywhere(&d, &k, GPUOCC_OK, "static at a 16 KiB limit");

    /* the 0.1.0 layout (232 bytes), before the field, reads it as 0: 16 */
    struct {
        gpuocc_device d;
    } old;
    old.d = h;
    old.d.size = 232;
    k = test_kernel(256, 32, 0, 0);
    k.barriers = 17;
    gpuocc_result r = {.size = sizeof r};
    cr_expect_eq(gpuocc_occupancy(&old.d, &k, &r), GPUOCC_ERR_EXCEEDED);

    /* AMD and Intel do not check it: 0 there, anything else a device error */
    gpuocc_device a = test_device("MI300X");
    cr_expect_eq(a.barriers_per_block_max, 0);
    a.barriers_per_block_max = 16;
    cr_expect_eq(gpuocc_device_validate(&a), GPUOCC_ERR_DEVICE);
    gpuocc_device i = test_device("B580");
    cr_expect_eq(i.barriers_per_block_max, 0);
    i.barriers_per_block_max = 16;
    cr_expect_eq(gpuocc_device_validate(&i), GPUOCC_ERR_DEVICE);
}

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>

/* Older, shorter layouts placed against an unmapped page: the single calls' vector checks read a struct
   of the current layout whole, so they must compare its size first (a read past the caller's struct
   would fault here).  The answers are the current layout's for the same fields (the older layouts are
   prefixes, the fields past them default). */
Test(fastpath, older_layouts_are_not_read_past_their_end)
{
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *two = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(two != MAP_FAILED);
    cr_assert_eq(mprotect(two + page, (size_t)page, PROT_NONE), 0);
    gpuocc_device d = {.size = sizeof d};
    cr_assert_eq(gpuocc_device_lookup("H100", &d), GPUOCC_OK);
    gpuocc_prepared p = {.size = sizeof p};
    cr_assert_eq(gpuocc_prepare(&d, &p), GPUOCC_OK);
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.threads_per_block = 256, k.regs_per_thread = 64, k.smem_dynamic_bytes = 4096;
    gpuocc_result want = {.size = sizeof want};
    cr_assert_eq(gpuocc_occupancy(&d, &k, &want), GPUOCC_OK);
    /* the 0.1 kernel (88 bytes) and device (232 bytes): prefixes of the current ones */
    const uint32_t kernel_size = 88, device_size = 232;
    gpuocc_kernel *old_kernel = (gpuocc_kernel *)(void *)(two + page - kernel_size);
    memcpy(old_kernel, &k, kernel_size);
    old_kernel->size = kernel_size;
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(&d, old_kernel, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, want.blocks_per_sm);
    r = (gpuocc_result){.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy_prepared(&p, old_kernel, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, want.blocks_per_sm);
    gpuocc_device *old_device = (gpuocc_device *)(void *)(two + page - device_size);
    memcpy(old_device, &d, device_size);
    old_device->size = device_size;
    r = (gpuocc_result){.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(old_device, &k, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, want.blocks_per_sm);
    munmap(two, (size_t)page * 2);
}
#endif
