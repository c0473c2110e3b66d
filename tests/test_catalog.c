/* The device table: every compute capability and product, name lookup, and values from reference/. */
#include "common.h"

#include <stdio.h>
#include <string.h>

Test(catalog, every_architecture_is_there_and_valid)
{
    const char *names[] = {"5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0",
                           "8.6", "8.7", "8.9", "9.0", "10.0", "10.3", "11.0", "10.1", "12.0", "12.1"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        gpuocc_device d = test_device(names[i]);
        cr_expect_eq(gpuocc_device_validate(&d), GPUOCC_OK, "%s", names[i]);
        char cc[8];
        snprintf(cc, sizeof cc, "%d.%d", d.cc_major, d.cc_minor);
        cr_expect_str_eq(cc, names[i]);
        cr_expect_eq(d.sm_count, 0);
    }
}

Test(catalog, spellings)
{
    const char *same[] = {"sm_90", "9.0", "90", "compute_90", "SM_90", "sm_90a", "Sm90"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        gpuocc_device d = test_device(same[i]);
        cr_expect_eq(d.cc_major, 9, "%s", same[i]);
        cr_expect_eq(d.cc_minor, 0, "%s", same[i]);
    }
    gpuocc_device d = test_device("sm_100f");
    cr_expect_eq(d.cc_major, 10);
    d = test_device("121");
    cr_expect_eq(d.cc_minor, 1);
    d = test_device("NVIDIA GeForce RTX 4090");
    cr_expect_eq(d.sm_count, 128);
    d = test_device("h100-pcie");
    cr_expect_eq(d.sm_count, 114);
    d = test_device("Jetson AGX Thor");
    cr_expect_eq(d.cc_major, 11);
    gpuocc_device x = {.size = sizeof x};
    cr_expect_eq(gpuocc_device_lookup("sm_91", &x), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(gpuocc_device_lookup("", &x), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(gpuocc_device_lookup("H1000", &x), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(gpuocc_device_lookup("9.", &x), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(gpuocc_device_lookup("1.2.3", &x), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(gpuocc_device_lookup(NULL, &x), GPUOCC_ERR_NULL);
    char longname[300];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    cr_expect_eq(gpuocc_device_lookup(longname, &x), GPUOCC_ERR_UNKNOWN_DEVICE);
}

/* Values checked against the CUDA C++ Programming Guide's compute-capability tables and the sources of
   docs/sources.md (exact bytes). */
Test(catalog, reference_values)
{
    struct {
        const char *name;
        int32_t threads_sm, blocks_sm, regs_block, sm_count;
        int64_t smem_sm, optin, reserved;
        int32_t top_carveout_kib;
    } rows[] = {
        {"sm_53", 2048, 32, 32768, 0, 65536, 49152, 0, 0},
        {"sm_62", 2048, 32, 32768, 0, 65536, 49152, 0, 0},
        {"V100", 2048, 32, 65536, 80, 98304, 98304, 0, 96},
        {"T4", 1024, 16, 65536, 40, 65536, 65536, 0, 64},
        {"A100", 2048, 32, 65536, 108, 167936, 166912, 1024, 164},
        {"A10", 1536, 16, 65536, 72, 102400, 101376, 1024, 100},
        {"RTX 3090", 1536, 16, 65536, 82, 102400, 101376, 1024, 100},
        {"Jetson AGX Orin", 1536, 16, 65536, 16, 167936, 166912, 1024, 164},
        {"L40S", 1536, 24, 65536, 142, 102400, 101376, 1024, 100},
        {"H100 SXM", 2048, 32, 65536, 132, 233472, 232448, 1024, 228},
        {"H200", 2048, 32, 65536, 132, 233472, 232448, 1024, 228},
        {"GH200", 2048, 32, 65536, 132, 233472, 232448, 1024, 228},
        {"B200", 2048, 32, 65536, 148, 233472, 232448, 1024, 228},
        {"Thor", 1536, 24, 65536, 20, 233472, 232448, 1024, 228},
        {"RTX 5090", 1536, 24, 65536, 170, 102400, 101376, 1024, 100},
        {"GB10", 1536, 24, 65536, 48, 102400, 101376, 1024, 100},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gpuocc_device d = test_device(rows[i].name);
        cr_expect_eq(d.max_threads_per_sm, rows[i].threads_sm, "%s", rows[i].name);
        cr_expect_eq(d.max_blocks_per_sm, rows[i].blocks_sm, "%s", rows[i].name);
        cr_expect_eq(d.regs_per_block, rows[i].regs_block, "%s", rows[i].name);
        cr_expect_eq(d.sm_count, rows[i].sm_count, "%s", rows[i].name);
        cr_expect_eq(d.smem_per_sm_bytes, rows[i].smem_sm, "%s", rows[i].name);
        cr_expect_eq(d.smem_per_block_optin_bytes, rows[i].optin, "%s", rows[i].name);
        cr_expect_eq(d.smem_reserved_per_block_bytes, rows[i].reserved, "%s", rows[i].name);
        int32_t top = d.carveout_count ? d.carveouts_kib[d.carveout_count - 1] : 0;
        cr_expect_eq(top, rows[i].top_carveout_kib, "%s", rows[i].name);
        /* opt-in = per-SM capacity - reserved from cc 7.0 (Programming Guide, compute capabilities; NVIDIA/Fuser #4465) */
        if (d.cc_major >= 7)
            cr_expect_eq(d.smem_per_block_optin_bytes, d.smem_per_sm_bytes - d.smem_reserved_per_block_bytes);
    }
}

Test(catalog, listing)
{
    int32_t n = gpuocc_catalog_count();
    cr_assert_geq(n, 20 + 17);
    int32_t archs = 0, products = 0, others = 0;
    for (int32_t i = 0; i < n; i++) {
        cr_expect_neq(gpuocc_catalog_name(i)[0], '\0');
        cr_expect_neq(gpuocc_catalog_source(i)[0], '\0', "every entry cites a source");
        gpuocc_device probe = {.size = sizeof probe};
        gpuocc_catalog_device(i, &probe);
        bool nvidia = probe.vendor == GPUOCC_VENDOR_NVIDIA;
        others += !nvidia;
        archs += gpuocc_catalog_kind(i) == GPUOCC_CATALOG_ARCH && nvidia;
        products += gpuocc_catalog_kind(i) == GPUOCC_CATALOG_PRODUCT && nvidia;
        gpuocc_device d = {.size = sizeof d};
        cr_expect_eq(gpuocc_catalog_device(i, &d), GPUOCC_OK);
        gpuocc_device again = {.size = sizeof again};
        cr_expect_eq(gpuocc_device_lookup(gpuocc_catalog_name(i), &again), GPUOCC_OK, "%s", gpuocc_catalog_name(i));
    }
    cr_expect_eq(archs, 20);
    cr_expect_eq(archs + products + others, n);
    cr_expect_str_eq(gpuocc_catalog_name(-1), "");
    cr_expect_str_eq(gpuocc_catalog_source(n), "");
    cr_expect_eq(gpuocc_catalog_kind(n), GPUOCC_ERR_ARGUMENT);
    gpuocc_device d = {.size = sizeof d};
    cr_expect_eq(gpuocc_catalog_device(n, &d), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_catalog_device(0, NULL), GPUOCC_ERR_NULL);
}
