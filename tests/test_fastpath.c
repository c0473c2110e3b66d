/*
 * The fast paths check what the plain ones check.  gpuocc_occupancy validates the caller's structs in place
 * (four fields at a time where the compiler allows); gpuocc_device_validate and gpuocc_limit_shared_memory
 * still go through the field-by-field checks.  Every field is set to values on and around each bound, and
 * both paths must give the same status.
 */
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
    gpuocc_kernel k = test_kernel(256, 32, 1024, 0);
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
    cr_expect_eq(res.r.reserved[0] | res.r.reserved[1] | res.r.reserved[2] | res.r.reserved[3], 0);
    dev.tail[23] = 1;
    cr_expect_eq(gpuocc_occupancy(&dev.d, &ker.k, &res.r), GPUOCC_ERR_RESERVED);
    dev.tail[23] = 0;
    ker.tail[0] = 1;
    cr_expect_eq(gpuocc_occupancy(&dev.d, &ker.k, &res.r), GPUOCC_ERR_RESERVED);
}
