/* Version, status strings and thread safety. */
#include "common.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

Test(api, version_agrees)
{
    char expect[32];
    int32_t v = gpuocc_version();
    snprintf(expect, sizeof expect, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
    cr_expect_str_eq(gpuocc_version_string(), expect);
    cr_expect_eq(v / 10000, GPUOCC_VERSION_MAJOR);
    cr_expect_eq(v / 100 % 100, GPUOCC_VERSION_MINOR);
    cr_expect_eq(v % 100, GPUOCC_VERSION_PATCH);
}

Test(api, every_status_has_a_distinct_text)
{
    /* every code the header defines, down to GPUOCC_ERR_EXCEEDED (-28): a name of its own and a text */
    cr_expect_eq(GPUOCC_ERR_EXCEEDED, -28);
    for (int32_t code = 0; code >= -28; code--) {
        cr_expect_neq(strcmp(gpuocc_strerror(code), "unknown status code"), 0, "code %d", code);
        cr_expect_gt(strlen(gpuocc_strerror(code)), 0, "code %d", code);
        cr_expect_neq(strcmp(gpuocc_status_name(code), "unknown"), 0, "code %d", code);
        cr_expect_gt(strlen(gpuocc_status_name(code)), 0, "code %d", code);
        for (int32_t other = code - 1; other >= -28; other--) {
            cr_expect_neq(strcmp(gpuocc_status_name(code), gpuocc_status_name(other)), 0, "%d, %d", code, other);
            cr_expect_neq(strcmp(gpuocc_strerror(code), gpuocc_strerror(other)), 0, "%d, %d", code, other);
        }
    }
    /* the next code is not defined yet */
    cr_expect_str_eq(gpuocc_status_name(-29), "unknown");
    cr_expect_str_eq(gpuocc_strerror(-29), "unknown status code");
    cr_expect_str_eq(gpuocc_strerror(INT32_MIN), "unknown status code");
    cr_expect_str_eq(gpuocc_strerror(12345), "unknown status code");
    cr_expect_str_eq(gpuocc_status_name(1), "unknown");
    cr_expect_str_eq(gpuocc_resource_name(GPUOCC_RESOURCE_SMEM), "shared_memory");
    cr_expect_str_eq(gpuocc_resource_name(-1), "");
}

/* Many threads computing at once get the same answers as one: nothing global is mutated. */
static void *worker(void *arg)
{
    int *bad = arg;
    gpuocc_device d = {.size = sizeof d};
    for (int i = 0; i < 2000; i++) {
        gpuocc_device_lookup(i % 2 ? "A100" : "H100", &d);
        gpuocc_kernel k = test_kernel(256, 64, 0, 0);
        gpuocc_result r = {.size = sizeof r};
        if (gpuocc_occupancy(&d, &k, &r) != GPUOCC_OK || r.blocks_per_sm != 4)
            (*bad)++;
    }
    return NULL;
}

Test(api, thread_safe)
{
    pthread_t threads[8];
    int bad[8] = {0};
    for (int i = 0; i < 8; i++)
        pthread_create(&threads[i], NULL, worker, &bad[i]);
    for (int i = 0; i < 8; i++) {
        pthread_join(threads[i], NULL);
        cr_expect_eq(bad[i], 0);
    }
}

Test(api, kernel_init_defaults)
{
    /* shared-memory opt-in is on by default everywhere (a change in C since 0.1.0) */
    gpuocc_kernel k;
    memset(&k, 0xA5, sizeof k);
    cr_assert_eq(gpuocc_kernel_init(&k), GPUOCC_OK);
    cr_expect_eq(k.size, sizeof k);
    cr_expect_eq(k.threads_per_block, 1);
    cr_expect_eq(k.barriers, 1);
    cr_expect_eq(k.carveout_percent, GPUOCC_CARVEOUT_DEFAULT);
    cr_expect_eq(k.smem_optin, 1);
    cr_expect_eq(k.smem_dynamic_max_bytes, -1);
    cr_expect_eq(k.regs_per_thread, 0);
    cr_expect_eq(k.smem_static_bytes, 0);
    cr_expect_eq(k.smem_dynamic_bytes, 0);
    cr_expect_eq(k.dvgpr, 0);
    cr_expect_eq(k.tmem_columns, 0);
}
