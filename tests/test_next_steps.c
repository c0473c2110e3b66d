/* gpuocc_next_steps: every offered step, applied alone through the public API, gives exactly the
   blocks per SM it states; ties get a joint step; no step takes away an input the kernel needs. */
#include "common.h"
#include "step_apply.h"

#include <stdio.h>
#include <string.h>

static gpuocc_result occupancy_of(const gpuocc_device *d, const gpuocc_kernel *k)
{
    gpuocc_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_occupancy(d, k, &r), GPUOCC_OK);
    return r;
}

static int64_t input_of(const gpuocc_kernel *k, int32_t resource)
{
    switch (resource) {
    case GPUOCC_RESOURCE_WARPS: return k->threads_per_block;
    case GPUOCC_RESOURCE_REGISTERS: return k->regs_per_thread;
    case GPUOCC_RESOURCE_SMEM: return k->smem_static_bytes + k->smem_dynamic_bytes;
    case GPUOCC_RESOURCE_BARRIERS: return k->barriers;
    case GPUOCC_RESOURCE_SGPRS: return k->sgprs;
    case GPUOCC_RESOURCE_AGPRS: return k->agprs;
    default: cr_assert_fail("a step names resource %d", resource); return -1;
    }
}

/* The least value a step may give an input the kernel has: 1 (AGPRs on a unified file: 0). */
static int64_t floor_of(const gpuocc_device *d, int32_t resource)
{
    return resource == GPUOCC_RESOURCE_AGPRS && d->agpr_file == GPUOCC_AGPR_UNIFIED ? 0 : 1;
}

static void check_change(const gpuocc_device *d, const gpuocc_kernel *k, const gpuocc_step_change *c, const char *ctx)
{
    int64_t current = input_of(k, c->resource);
    cr_assert_eq(c->reserved0, 0, "%s", ctx);
    cr_assert_gt(c->shed, 0, "%s: %s shed %lld", ctx, gpuocc_resource_name(c->resource), (long long)c->shed);
    cr_assert_eq(c->new_value + c->shed, current, "%s: %s", ctx, gpuocc_resource_name(c->resource));
    cr_assert_geq(c->new_value, floor_of(d, c->resource), "%s: %s -> %lld removes it", ctx,
                  gpuocc_resource_name(c->resource), (long long)c->new_value);
    if (c->resource == GPUOCC_RESOURCE_REGISTERS && d->vendor == GPUOCC_VENDOR_NVIDIA)
        cr_assert_leq(c->new_value, 255, "%s: more registers than ptxas allocates", ctx);
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static int64_t pick(int64_t lo, int64_t hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (int64_t)(rng % (uint64_t)(hi - lo + 1));
}

static void random_kernel(const gpuocc_device *d, gpuocc_kernel *k)
{
    gpuocc_kernel_init(k);
    bool amd = d->vendor == GPUOCC_VENDOR_AMD;
    k->threads_per_block = (int32_t)(pick(0, 9) ? pick(1, d->max_threads_per_block) : pick(1, 2048));
    k->regs_per_thread = (int32_t)(pick(0, 5) ? pick(0, 128) : pick(0, amd ? d->regs_per_thread_max : 300));
    k->smem_static_bytes = pick(0, 2) ? 0 : pick(0, 48 * 1024);
    k->smem_dynamic_bytes = pick(0, 3) ? pick(0, 100 * 1024) : pick(0, 64) * 1024;
    if (amd) {
        k->barriers = (int32_t)pick(0, 1);
        k->agprs = d->agpr_file != GPUOCC_AGPR_NONE && pick(0, 1) ? (int32_t)pick(0, 256) : 0;
        k->sgprs = d->sgprs_per_simd > 0 && pick(0, 1) ? (int32_t)pick(1, 106) : 0;
        k->wave_size = d->wave_sizes == 96 && pick(0, 1) ? 32 : 0;
        k->cu_mode = d->cus_per_wgp > 1 ? (int32_t)pick(0, 1) : 0;
        k->model = (int32_t)pick(0, 2);
    } else {
        k->barriers = (int32_t)pick(0, 16);
        k->carveout_percent = pick(0, 3) ? GPUOCC_CARVEOUT_DEFAULT : (int32_t)pick(0, 100);
        k->smem_optin = (int32_t)pick(0, 4) != 0;
    }
}

/* The property, on every catalog device (both vendors, architectures and products): thousands of random
   launches, every offered step applied through gpuocc_occupancy gives exactly its stated count, more than
   now; a joint step only where no single step is offered. */
Test(next_steps, every_step_gives_its_count)
{
    int32_t devices = gpuocc_catalog_count();
    long launches = 0, offered = 0, joint = 0, amd_steps = 0;
    for (int32_t i = 0; i < devices; i++) {
        gpuocc_device d = {.size = sizeof d};
        cr_assert_eq(gpuocc_catalog_device(i, &d), GPUOCC_OK);
        for (int n = 0; n < 60; n++) {
            gpuocc_kernel k;
            random_kernel(&d, &k);
            gpuocc_result now = {.size = sizeof now};
            if (gpuocc_occupancy(&d, &k, &now) != GPUOCC_OK)
                continue; /* a launch the checks refuse (an AMD wave size, an impossible launch) */
            launches++;
            gpuocc_step steps[GPUOCC_STEPS_MAX];
            int32_t count = -1;
            cr_assert_eq(gpuocc_next_steps(&d, &k, steps, GPUOCC_STEPS_MAX, &count), GPUOCC_OK);
            char ctx[256];
            snprintf(ctx, sizeof ctx, "%s: threads %d regs %d agprs %d sgprs %d static %lld dynamic %lld barriers %d "
                     "model %d", gpuocc_catalog_name(i), k.threads_per_block, k.regs_per_thread, k.agprs, k.sgprs,
                     (long long)k.smem_static_bytes, (long long)k.smem_dynamic_bytes, k.barriers, k.model);
            for (int32_t s = 0; s < count; s++) {
                gpuocc_kernel applied = k;
                check_change(&d, &k, &steps[s].change, ctx);
                step_apply(&applied, &steps[s].change);
                cr_assert(steps[s].also_count >= 0 && steps[s].also_count <= GPUOCC_STEP_ALSO_MAX, "%s", ctx);
                for (int32_t a = 0; a < steps[s].also_count; a++) {
                    check_change(&d, &k, &steps[s].also[a], ctx);
                    step_apply(&applied, &steps[s].also[a]);
                }
                if (steps[s].also_count) {
                    cr_assert_eq(count, 1, "%s: a joint step beside single ones", ctx);
                    joint++;
                }
                gpuocc_result r = occupancy_of(&d, &applied);
                cr_assert_eq(r.blocks_per_sm, steps[s].blocks_per_sm, "%s: step %d (%s -> %lld) states %d, gives %d",
                             ctx, s, gpuocc_resource_name(steps[s].change.resource),
                             (long long)steps[s].change.new_value, steps[s].blocks_per_sm, r.blocks_per_sm);
                cr_assert_gt(r.blocks_per_sm, now.blocks_per_sm, "%s", ctx);
                offered++;
                amd_steps += d.vendor == GPUOCC_VENDOR_AMD;
            }
        }
    }
    cr_expect_gt(launches, 3000);
    cr_expect_gt(offered, 1000);
    cr_expect_gt(joint, 20);
    cr_expect_gt(amd_steps, 100);
}

static int32_t steps_for(const char *name, gpuocc_kernel k, gpuocc_step *steps)
{
    gpuocc_device d = test_device(name);
    int32_t count = -1;
    cr_assert_eq(gpuocc_next_steps(&d, &k, steps, GPUOCC_STEPS_MAX, &count), GPUOCC_OK);
    return count;
}

/* The README's example.  H100: 64 warp slots, 65536 registers, 228 KiB + 1 KiB reserved per block, 128-byte
   units.  256 threads = 8 warps x 64 x 32 = 16384 registers: 4 blocks; 49152 + 1024 = 50176 B: 233472 / 50176
   = 4 blocks; warps 64 / 8 = 8.  Fewer registers alone leave shared memory at 4, and the reverse; fewer
   threads leave shared memory at 4.  Jointly: 5 blocks need 65536 / 5 / 8 = 1638 -> 1536 per warp -> 48
   registers, and an allocation <= 233472 / 5 = 46694 -> 46592 = 45568 + 1024 bytes. */
Test(next_steps, readme_example_is_a_joint_step)
{
    gpuocc_step s[GPUOCC_STEPS_MAX];
    cr_assert_eq(steps_for("H100", test_kernel(256, 64, 0, 48 * 1024), s), 1);
    cr_expect_eq(s[0].blocks_per_sm, 5);
    cr_expect_eq(s[0].change.resource, GPUOCC_RESOURCE_REGISTERS);
    cr_expect_eq(s[0].change.new_value, 48);
    cr_expect_eq(s[0].change.shed, 16);
    cr_expect_eq(s[0].also_count, 1);
    cr_expect_eq(s[0].also[0].resource, GPUOCC_RESOURCE_SMEM);
    cr_expect_eq(s[0].also[0].new_value, 45568);
    cr_expect_eq(s[0].also[0].shed, 49152 - 45568);
}

/* T4 (sm_75): 32 warp slots; 768 threads = 24 warps: 1 block whatever the registers.  512 threads = 16 warps
   give 2 by warps, and 16 x 2048 = 32768 registers of 65536: 2.  No registers step. */
Test(next_steps, warp_limit_gets_no_register_step)
{
    gpuocc_step s[GPUOCC_STEPS_MAX];
    cr_assert_eq(steps_for("T4", test_kernel(768, 64, 0, 0), s), 1);
    cr_expect_eq(s[0].change.resource, GPUOCC_RESOURCE_WARPS);
    cr_expect_eq(s[0].change.new_value, 512);
    cr_expect_eq(s[0].blocks_per_sm, 2);
}

/* A block over the kernel's own launch bound (__launch_bounds__(256)) fits none (docs/model.md): the one
   next step on the threads is the bound itself, on every vendor, through gpuocc_next_step as through
   gpuocc_next_steps.  H100, 256 threads of 32 registers: 8 warps, 64 / 8 = 8 blocks by warps, 65536 / 8192 =
   8 by registers.  MI300X (wave64, 4 SIMDs of 8 slots), 256 threads of 32 VGPRs: 4 waves, 8 x 4 / 4 = 8; pvc
   (8 XVEs of 8 threads per Xe-core, sub-group 16), 256 work-items = 16 threads: 64 / 16 = 4. */
Test(next_steps, threads_step_to_the_kernels_launch_bound)
{
    const struct {
        const char *device;
        int32_t blocks;
    } cases[] = {{"H100", 8}, {"MI300X", 8}, {"pvc", 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpuocc_device d = test_device(cases[i].device);
        gpuocc_kernel k = test_kernel(512, 32, 0, 0);
        k.max_threads_per_block = 256;
        int64_t value = -1, shed = -1;
        cr_expect_eq(gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_WARPS, &value, &shed), GPUOCC_OK, "%s", cases[i].device);
        cr_expect_eq(value, 256, "%s: %lld", cases[i].device, (long long)value);
        cr_expect_eq(shed, 256, "%s", cases[i].device);
        k.threads_per_block = 256;
        cr_expect_eq(test_occupancy(&d, &k).blocks_per_sm, cases[i].blocks, "%s", cases[i].device);
    }
}

/* MI300X (gfx942, unified file of 512 per lane per SIMD, 8 wave slots per SIMD, 4 SIMDs): 1024 threads = 16
   waves = 4 per SIMD; 64 VGPRs + 64 AGPRs = 128: 512 / 128 = 4 waves per SIMD: 1 block.  2 blocks need 8 per
   SIMD: at most 64 in all, so the VGPRs would go to 0 (never offered), the AGPRs to 0 (VGPRs can hold MFMA
   results on gfx90a+); or 512 threads (8 waves, 2 per SIMD): 2 blocks of 2 by registers, wave slots 8/2 = 4. */
Test(next_steps, agprs_are_the_lever_on_mi300x)
{
    gpuocc_kernel k = test_kernel(1024, 64, 0, 0);
    k.agprs = 64;
    gpuocc_step s[GPUOCC_STEPS_MAX];
    int32_t n = steps_for("MI300X", k, s);
    cr_assert_eq(n, 2);
    cr_expect_eq(s[0].change.resource, GPUOCC_RESOURCE_WARPS);
    cr_expect_eq(s[0].change.new_value, 512);
    cr_expect_eq(s[0].blocks_per_sm, 2);
    cr_expect_eq(s[1].change.resource, GPUOCC_RESOURCE_AGPRS);
    cr_expect_eq(s[1].change.new_value, 0);
    cr_expect_eq(s[1].blocks_per_sm, 2);
    for (int32_t i = 0; i < n; i++)
        cr_expect_neq(s[i].change.resource, GPUOCC_RESOURCE_REGISTERS, "VGPRs 64 -> 0 offered");
}

Test(next_steps, buffer_and_arguments)
{
    gpuocc_device d = test_device("H100");
    gpuocc_kernel k = test_kernel(256, 64, 0, 48 * 1024);
    int32_t count = -1;
    cr_expect_eq(gpuocc_next_steps(&d, &k, NULL, 0, &count), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 1);
    cr_expect_eq(gpuocc_next_steps(&d, &k, NULL, 1, &count), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_next_steps(&d, &k, NULL, -1, &count), GPUOCC_ERR_ARGUMENT);
    gpuocc_step s;
    cr_expect_eq(gpuocc_next_steps(&d, &k, &s, 1, NULL), GPUOCC_ERR_NULL);
    /* full occupancy by every limit at the slot cap: nothing helps, count 0 */
    k = test_kernel(32, 16, 0, 0);
    cr_expect_eq(gpuocc_next_steps(&d, &k, NULL, 0, &count), GPUOCC_OK);
    cr_expect_eq(count, 0);
}

/* ---- gpuocc_next_step's shared memory without a walk over the bytes ---- */

static int32_t own_smem_at(const gpuocc_device *d, gpuocc_kernel k, int64_t total)
{
    k.smem_static_bytes = k.smem_static_bytes < total ? k.smem_static_bytes : total;
    k.smem_dynamic_bytes = total - k.smem_static_bytes;
    int32_t blocks = 0;
    cr_assert_eq(gpuocc_limit_shared_memory(d, &k, &blocks), GPUOCC_OK);
    return blocks == GPUOCC_UNLIMITED ? INT32_MAX : blocks;
}

/* The definition, walked: the largest total <= the current one whose own limit allows `target`; each
   granule visited at its top and bottom byte (every byte of a granule has the same allocation, but the
   static/dynamic split and the opt-in attribute move by the byte, so the walk is byte-exact near them). */
static int64_t smem_step_walked(const gpuocc_device *d, const gpuocc_kernel *k, int64_t hi, int32_t target)
{
    for (int64_t v = hi; v >= 0; v--)
        if (own_smem_at(d, *k, v) >= target)
            return v;
    return -1;
}

/* Random described devices: units that are not powers of two, reserved bytes, carveouts that more than
   double (a larger block can then get a larger carveout and more blocks: the rule is not monotone). */
Test(next_steps, smem_next_step_matches_the_walk)
{
    static const int32_t units[] = {128, 256, 384, 1000, 32, 8};
    int checked = 0;
    for (int trial = 0; trial < 400; trial++) {
        gpuocc_device d = test_device(pick(0, 1) ? "sm_80" : "sm_90");
        d.smem_alloc_unit_bytes = units[pick(0, 5)];
        d.smem_reserved_per_block_bytes = pick(0, 1) ? 0 : pick(0, 2048);
        int32_t n = (int32_t)pick(0, 8), kib = (int32_t)pick(0, 4);
        memset(d.carveouts_kib, 0, sizeof d.carveouts_kib);
        for (int32_t i = 0; i < n; i++) {
            d.carveouts_kib[i] = kib;
            kib += (int32_t)(pick(0, 2) ? pick(1, 16) : pick(1, 4) * kib + 1);
        }
        d.carveout_count = n;
        d.smem_per_sm_bytes = n ? (int64_t)d.carveouts_kib[n - 1] * 1024 : pick(1024, 64 * 1024);
        d.smem_per_block_bytes = pick(0, d.smem_per_sm_bytes);
        d.smem_per_block_optin_bytes = pick(d.smem_per_block_bytes, d.smem_per_sm_bytes);
        if (gpuocc_device_validate(&d) != GPUOCC_OK)
            continue;
        /* static within the device's static limit (above it the launch cannot run: an error) */
        int64_t static_top = d.smem_per_block_bytes < 8192 ? d.smem_per_block_bytes : 8192;
        gpuocc_kernel k = test_kernel(32, 0, pick(0, 2) ? 0 : pick(0, static_top), pick(0, 12000));
        k.smem_optin = (int32_t)pick(0, 1);
        k.smem_dynamic_max_bytes = k.smem_optin && pick(0, 1) ? pick(0, d.smem_per_block_optin_bytes) : -1;
        k.carveout_percent = pick(0, 1) ? GPUOCC_CARVEOUT_DEFAULT : (int32_t)pick(0, 100);
        int64_t total = k.smem_static_bytes + k.smem_dynamic_bytes;
        /* the target is one block more than the launch gets (any limit), as gpuocc_next_step defines it */
        int32_t target = occupancy_of(&d, &k).blocks_per_sm + 1;
        int64_t walked = smem_step_walked(&d, &k, total, target), value = -1, shed = -1;
        int32_t rc = gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_SMEM, &value, &shed);
        if (walked < 0)
            cr_expect_eq(rc, GPUOCC_ERR_UNSATISFIABLE, "trial %d", trial);
        else {
            cr_expect_eq(rc, GPUOCC_OK, "trial %d", trial);
            cr_expect_eq(value, walked, "trial %d: unit %d reserved %lld carveouts %d static %lld dynamic %lld: %lld, "
                         "walked %lld", trial, d.smem_alloc_unit_bytes, (long long)d.smem_reserved_per_block_bytes,
                         n, (long long)k.smem_static_bytes, (long long)k.smem_dynamic_bytes, (long long)value,
                         (long long)walked);
        }
        checked++;
    }
    cr_expect_gt(checked, 150);
}

/* A described device of 2^40 bytes of shared memory and 1-byte units (gpuocc_device_validate accepts it):
   the old walk visited every unit (hours); candidates answer at once.  One block of 2^40 - 1 bytes allows
   1 block; 2 need an allocation <= 2^39: 2^39 bytes. */
Test(next_steps, smem_next_step_on_a_huge_device, .timeout = 10)
{
    gpuocc_device d = test_device("sm_80");
    d.carveout_count = 0;
    memset(d.carveouts_kib, 0, sizeof d.carveouts_kib);
    d.smem_per_sm_bytes = d.smem_per_block_bytes = d.smem_per_block_optin_bytes = (int64_t)1 << 40;
    d.smem_reserved_per_block_bytes = 0;
    d.smem_alloc_unit_bytes = 1;
    cr_assert_eq(gpuocc_device_validate(&d), GPUOCC_OK);
    gpuocc_kernel k = test_kernel(32, 0, 0, ((int64_t)1 << 40) - 1);
    int64_t value = -1, shed = -1;
    cr_assert_eq(gpuocc_next_step(&d, &k, GPUOCC_RESOURCE_SMEM, &value, &shed), GPUOCC_OK);
    cr_expect_eq(value, (int64_t)1 << 39);
    gpuocc_step s[GPUOCC_STEPS_MAX];
    int32_t count = -1;
    cr_assert_eq(gpuocc_next_steps(&d, &k, s, GPUOCC_STEPS_MAX, &count), GPUOCC_OK);
    cr_assert_geq(count, 1);
}
