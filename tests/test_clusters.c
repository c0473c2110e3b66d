/*
 * Thread-block clusters: legality and resident clusters, every expected value derived by hand from the
 * rules of docs/model.md ("Thread-block clusters") and the published figures it cites:
 *   - clusters from cc 9.0; 8 blocks portable; non-portable 16 on 9.0 / 10.0, 8 on 10.1 / 11.0 / 12.1,
 *     unpublished on 10.3 / 12.0; each cluster dimension divides the grid's;
 *   - a GPC of S SMs at b blocks per SM holds floor(S b / c) clusters of c blocks; a die's shape (GPCs,
 *     TPCs per GPC, 2 SMs per TPC) and SM count give the range over every layout.
 * Block counts used: 1024 threads, 32 registers on H100 -> 2 blocks (64 warp slots / 32 warps; registers
 * 1024 per warp, 16384 per sub-partition -> 16 warps x 4 = 64 warps); 1024 threads, 64 registers -> 1
 * (2048 per warp -> 8 x 4 = 32 warps); on sm_120 (48 warp slots) 1024 threads, 32 registers -> 1.
 */
#include "common.h"
#include <pthread.h>

static gpuocc_cluster cluster(int32_t x, int32_t y, int32_t z)
{
    gpuocc_cluster c = {.size = sizeof c};
    cr_assert_eq(gpuocc_cluster_init(&c), GPUOCC_OK);
    c.cluster_x = x, c.cluster_y = y, c.cluster_z = z;
    return c;
}

static int32_t verdict(const char *dev_name, const gpuocc_cluster *c)
{
    gpuocc_device d = test_device(dev_name);
    int32_t v = -100;
    cr_assert_eq(gpuocc_cluster_check(&d, c, &v), GPUOCC_OK, "%s", dev_name);
    return v;
}

static gpuocc_gpc_layout layout(const char *name)
{
    gpuocc_gpc_layout l = {.size = sizeof l};
    cr_assert_eq(gpuocc_gpc_layout_lookup(name, &l), GPUOCC_OK, "%s", name);
    return l;
}

static gpuocc_cluster_result resident(const char *dev_name, int32_t regs, const gpuocc_cluster *c,
                                      const gpuocc_gpc_layout *l)
{
    gpuocc_device d = test_device(dev_name);
    gpuocc_kernel k = test_kernel(1024, regs, 0, 0);
    gpuocc_cluster_result r = {.size = sizeof r};
    cr_assert_eq(gpuocc_cluster_occupancy(&d, &k, c, l, &r), GPUOCC_OK, "%s", dev_name);
    return r;
}

Test(clusters, size_max)
{
    struct {
        const char *name;
        int32_t portable, nonportable;
    } rows[] = {
        {"sm_80", 0, 0},  {"sm_89", 0, 0},   {"sm_90", 8, 16},  {"H100", 8, 16}, {"sm_100", 8, 16},
        {"sm_103", 8, -1}, {"sm_101", 8, 8}, {"sm_110", 8, 8},  {"sm_120", 8, -1}, {"sm_121", 8, 8},
        {"GB10", 8, 8},   {"MI300X", 0, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gpuocc_device d = test_device(rows[i].name);
        int32_t p = -100, n = -100;
        cr_assert_eq(gpuocc_cluster_size_max(&d, 0, &p), GPUOCC_OK);
        cr_assert_eq(gpuocc_cluster_size_max(&d, 1, &n), GPUOCC_OK);
        cr_expect_eq(p, rows[i].portable, "%s portable %d", rows[i].name, p);
        cr_expect_eq(n, rows[i].nonportable, "%s non-portable %d", rows[i].name, n);
    }
    gpuocc_device d = test_device("H100");
    int32_t n = 5;
    cr_expect_eq(gpuocc_cluster_size_max(&d, 2, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(n, 5);
}

Test(clusters, verdicts)
{
    gpuocc_cluster c = cluster(2, 1, 1);
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_LEGAL);
    cr_expect_eq(verdict("sm_80", &c), GPUOCC_CLUSTER_UNSUPPORTED);
    cr_expect_eq(verdict("MI300X", &c), GPUOCC_CLUSTER_UNSUPPORTED);
    c = cluster(1, 1, 1);
    cr_expect_eq(verdict("A100", &c), GPUOCC_CLUSTER_UNSUPPORTED); /* even one block: no cluster launch */
    c = cluster(4, 2, 1); /* 8: the portable maximum */
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_LEGAL);
    cr_expect_eq(verdict("sm_120", &c), GPUOCC_CLUSTER_LEGAL);
    c = cluster(3, 3, 1); /* 9 */
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_NEEDS_NONPORTABLE);
    c.cluster_nonportable = 1;
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_LEGAL);
    cr_expect_eq(verdict("GB10", &c), GPUOCC_CLUSTER_TOO_LARGE); /* GB10 caps at 8 */
    cr_expect_eq(verdict("sm_120", &c), GPUOCC_CLUSTER_UNVERIFIED);
    cr_expect_eq(verdict("sm_103", &c), GPUOCC_CLUSTER_UNVERIFIED);
    c = cluster(4, 4, 1); /* 16 */
    c.cluster_nonportable = 1;
    cr_expect_eq(verdict("B200", &c), GPUOCC_CLUSTER_LEGAL);
    c = cluster(4, 4, 2); /* 32 */
    c.cluster_nonportable = 1;
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_TOO_LARGE);
    /* the kernel's own maximum (.maxclusterrank) */
    c = cluster(8, 1, 1);
    c.max_blocks_per_cluster = 4;
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_KERNEL_MAX);
    c.max_blocks_per_cluster = 8;
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_LEGAL);
    /* the grid: 132 = 66 x 2, 131 is odd; 2 x 2 clusters in a 132 x 3 grid: 3 is odd */
    c = cluster(2, 1, 1);
    c.grid_x = 131, c.grid_y = 1, c.grid_z = 1;
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_GRID);
    c.grid_x = 132;
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_LEGAL);
    c = cluster(2, 2, 1);
    c.grid_x = 132, c.grid_y = 3, c.grid_z = 1;
    cr_expect_eq(verdict("H100", &c), GPUOCC_CLUSTER_GRID);
    /* a definite failure before an unknown maximum: 16 on sm_120 with a grid of 15 */
    c = cluster(16, 1, 1);
    c.cluster_nonportable = 1;
    c.grid_x = 15, c.grid_y = 1, c.grid_z = 1;
    cr_expect_eq(verdict("sm_120", &c), GPUOCC_CLUSTER_GRID);
}

Test(clusters, bad_arguments)
{
    gpuocc_device d = test_device("H100");
    int32_t v = 77;
    gpuocc_cluster c = cluster(0, 1, 1);
    cr_expect_eq(gpuocc_cluster_check(&d, &c, &v), GPUOCC_ERR_ARGUMENT);
    c = cluster(2, 1, 1);
    c.cluster_nonportable = 2;
    cr_expect_eq(gpuocc_cluster_check(&d, &c, &v), GPUOCC_ERR_ARGUMENT);
    c = cluster(2, 1, 1);
    c.grid_x = 132, c.grid_y = 0, c.grid_z = 1; /* a grid is all three or none */
    cr_expect_eq(gpuocc_cluster_check(&d, &c, &v), GPUOCC_ERR_ARGUMENT);
    c = cluster(2, 1, 1);
    c.max_blocks_per_cluster = -1;
    cr_expect_eq(gpuocc_cluster_check(&d, &c, &v), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(v, 77);
    /* huge dimensions saturate: more than 8 blocks, never an overflow */
    c = cluster(INT32_MAX, INT32_MAX, INT32_MAX);
    cr_expect_eq(gpuocc_cluster_check(&d, &c, &v), GPUOCC_OK);
    cr_expect_eq(v, GPUOCC_CLUSTER_NEEDS_NONPORTABLE);
}

Test(clusters, published_layouts)
{
    gpuocc_gpc_layout l = layout("GH100"); /* full die: 8 GPCs x 9 TPCs x 2 SMs */
    cr_expect_eq(l.exact, 1);
    cr_expect_eq(l.gpc_count, 8);
    for (int g = 0; g < 8; g++)
        cr_expect_eq(l.sms_per_gpc[g], 18);
    cr_expect_eq(l.sms_per_gpc[8], 0);
    l = layout("H100"); /* the catalog's alias of H100 SXM: 66 TPCs in 8 GPCs */
    cr_expect_eq(l.exact, 0);
    cr_expect_eq(l.gpc_count, 8);
    cr_expect_eq(l.sm_count, 132);
    cr_expect_eq(l.sms_per_tpc, 2);
    cr_expect_eq(l.tpcs_per_gpc_max, 9);
    l = layout("H100 PCIe");
    cr_expect_eq(l.sm_count, 114);
    l = layout("NVIDIA RTX PRO 6000 Blackwell"); /* GB202: 12 GPCs x 8 TPCs; 94 TPCs */
    cr_expect_eq(l.gpc_count, 12);
    cr_expect_eq(l.sm_count, 188);
    cr_expect_eq(l.tpcs_per_gpc_max, 8);
    l = layout("GB202");
    cr_expect_eq(l.exact, 1);
    cr_expect_eq(l.sms_per_gpc[11], 16);
    gpuocc_gpc_layout none = {.size = sizeof none};
    cr_expect_eq(gpuocc_gpc_layout_lookup("B200", &none), GPUOCC_ERR_UNKNOWN_DEVICE); /* not published */
    cr_expect_eq(gpuocc_gpc_layout_lookup("sm_90", &none), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(gpuocc_gpc_layout_lookup("GB10", &none), GPUOCC_ERR_UNKNOWN_DEVICE);
    cr_expect_eq(none.gpc_count, 0);
    /* each published product's SM count is its catalog entry's */
    const char *products[] = {"H100 SXM", "H100 PCIe", "H100 NVL", "H200", "GH200", "RTX 5090"};
    for (size_t i = 0; i < sizeof products / sizeof products[0]; i++)
        cr_expect_eq(layout(products[i]).sm_count, test_device(products[i]).sm_count, "%s", products[i]);
}

Test(clusters, per_gpc)
{
    int64_t n = -1;
    cr_expect_eq(gpuocc_clusters_per_gpc(18, 2, 16, &n), GPUOCC_OK);
    cr_expect_eq(n, 2); /* 36 slots, 16 a cluster */
    cr_expect_eq(gpuocc_clusters_per_gpc(16, 1, 16, &n), GPUOCC_OK);
    cr_expect_eq(n, 1);
    cr_expect_eq(gpuocc_clusters_per_gpc(14, 1, 16, &n), GPUOCC_OK);
    cr_expect_eq(n, 0); /* a cluster never spans two GPCs */
    cr_expect_eq(gpuocc_clusters_per_gpc(18, 0, 2, &n), GPUOCC_OK);
    cr_expect_eq(n, 0);
    n = 9;
    cr_expect_eq(gpuocc_clusters_per_gpc(18, 2, 0, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(gpuocc_clusters_per_gpc(-1, 2, 2, &n), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(n, 9);
}

Test(clusters, exact_layouts)
{
    /* the full GH100 die, 8 x 18 SMs, on the bare sm_90 (no SM count to match) */
    gpuocc_gpc_layout full = layout("GH100");
    gpuocc_cluster c = cluster(16, 1, 1);
    c.cluster_nonportable = 1;
    gpuocc_cluster_result r = resident("sm_90", 64, &c, &full); /* 1 block per SM: floor(18 / 16) = 1 */
    cr_expect_eq(r.blocks_per_sm, 1);
    cr_expect_eq(r.clusters_exact, 1);
    cr_expect_eq(r.clusters_min, 8);
    cr_expect_eq(r.clusters_max, 8);
    cr_expect_eq(r.cluster_blocks, 16);
    cr_expect_eq(r.cluster_blocks_max, 16);
    cr_expect_eq(r.gpc_count, 8);
    r = resident("sm_90", 32, &c, &full); /* 2 per SM: floor(36 / 16) = 2 */
    cr_expect_eq(r.blocks_per_sm, 2);
    cr_expect_eq(r.clusters_max, 16);
    c = cluster(2, 1, 1);
    r = resident("sm_90", 64, &c, &full); /* 9 a GPC */
    cr_expect_eq(r.clusters_max, 72);
    cr_expect_eq(r.cluster_blocks_max, 8);

    /* a caller's H100 SXM layout: six GPCs of 16 SMs and two of 18 (132) */
    gpuocc_gpc_layout mine = {.size = sizeof mine, .gpc_count = 8, .exact = 1,
                              .sms_per_gpc = {16, 16, 16, 16, 16, 16, 18, 18}};
    c = cluster(16, 1, 1);
    c.cluster_nonportable = 1;
    r = resident("H100", 64, &c, &mine);
    cr_expect_eq(r.clusters_max, 8);
    cr_expect_eq(r.clusters_min, 8);
    c = cluster(3, 2, 1); /* 6 blocks: 6 x floor(16 / 6) + 2 x floor(18 / 6) = 12 + 6 */
    r = resident("H100", 64, &c, &mine);
    cr_expect_eq(r.clusters_max, 18);
    r = resident("H100", 32, &c, &mine); /* 2 per SM: 6 x floor(32 / 6) + 2 x floor(36 / 6) = 30 + 12 */
    cr_expect_eq(r.clusters_max, 42);
    cr_expect_eq(r.clusters_exact, 1);
}

Test(clusters, bounds)
{
    /* H100 SXM, any layout of 66 TPCs in 8 GPCs of at most 9 (a GPC holds floor(2t / c) clusters at 1 block
       per SM).  c = 16: a GPC holds one from t = 8.  All eight can (64 <= 66); at least five must (9k + 7(8 - k)
       >= 66 gives k >= 5). */
    gpuocc_gpc_layout sxm = layout("H100 SXM");
    gpuocc_cluster c = cluster(16, 1, 1);
    c.cluster_nonportable = 1;
    gpuocc_cluster_result r = resident("H100", 64, &c, &sxm);
    cr_expect_eq(r.clusters_exact, 0);
    cr_expect_eq(r.clusters_min, 5);
    cr_expect_eq(r.clusters_max, 8);
    /* c = 8: floor(t / 4) a GPC.  Most: 2 in every GPC (64 <= 66): 16.  Fewest: 5 GPCs of 9 (2 each) and 3 of
       7 (1 each) hold 66 TPCs: 13; 12 would need 2a + b = 12 with 9a + 7b + 3(8 - a - b) >= 66, and no a, b
       gives it. */
    c = cluster(8, 1, 1);
    r = resident("H100", 64, &c, &sxm);
    cr_expect_eq(r.clusters_min, 13);
    cr_expect_eq(r.clusters_max, 16);
    /* c = 2: every TPC holds one, whatever the layout: 66 */
    c = cluster(2, 1, 1);
    r = resident("H100", 64, &c, &sxm);
    cr_expect_eq(r.clusters_min, 66);
    cr_expect_eq(r.clusters_max, 66);
    cr_expect_eq(r.clusters_exact, 0); /* still a bound: the layout is not known */

    /* RTX PRO 6000 (94 TPCs in 12 GPCs of at most 8) on sm_120 at 1 block per SM, c = 8: floor(t / 4) a GPC.
       Most: floor(94 / 4) = 23 (eleven GPCs of 8 and one of 6).  Fewest: ten of 8 and two of 7 = 22; nine of
       8 and three of 7 hold only 93. */
    gpuocc_gpc_layout pro = layout("RTX PRO 6000");
    c = cluster(8, 1, 1);
    r = resident("sm_120", 32, &c, &pro);
    cr_expect_eq(r.blocks_per_sm, 1);
    cr_expect_eq(r.clusters_min, 22);
    cr_expect_eq(r.clusters_max, 23);
    gpuocc_gpc_layout gb202 = layout("GB202"); /* 12 x 16 SMs: 2 each */
    r = resident("sm_120", 32, &c, &gb202);
    cr_expect_eq(r.clusters_max, 24);

    /* no layout: floor(SMs x b / c), which no layout exceeds; the least is unknown */
    c = cluster(16, 1, 1);
    c.cluster_nonportable = 1;
    r = resident("H100", 64, &c, NULL);
    cr_expect_eq(r.clusters_max, 8); /* floor(132 / 16) */
    cr_expect_eq(r.clusters_min, -1);
    cr_expect_eq(r.clusters_exact, 0);
    cr_expect_eq(r.gpc_count, 0);
    r = resident("B200", 64, &c, NULL);
    cr_expect_eq(r.clusters_max, 9); /* floor(148 / 16) */
    /* an unpublished maximum answers, saying so */
    r = resident("RTX 5090", 32, &c, NULL);
    cr_expect_eq(r.verdict, GPUOCC_CLUSTER_UNVERIFIED);
    cr_expect_eq(r.cluster_blocks_max, GPUOCC_CLUSTER_MAX_UNKNOWN);
    cr_expect_eq(r.clusters_max, 10); /* floor(170 / 16) */
}

Test(clusters, occupancy_errors)
{
    gpuocc_kernel k = test_kernel(1024, 64, 0, 0);
    gpuocc_cluster_result r = {.size = sizeof r, .clusters_max = 1234};
    gpuocc_cluster c = cluster(2, 1, 1);
    gpuocc_device h100 = test_device("H100"), sm90 = test_device("sm_90"), a100 = test_device("A100");
    gpuocc_gpc_layout full = layout("GH100");
    cr_expect_eq(gpuocc_cluster_occupancy(&h100, &k, &c, &full, &r), GPUOCC_ERR_ARGUMENT); /* 144 != 132 */
    cr_expect_eq(gpuocc_cluster_occupancy(&sm90, &k, &c, NULL, &r), GPUOCC_ERR_SM_COUNT);
    cr_expect_eq(gpuocc_cluster_occupancy(&a100, &k, &c, NULL, &r), GPUOCC_ERR_CLUSTER);
    c = cluster(3, 3, 1);
    cr_expect_eq(gpuocc_cluster_occupancy(&h100, &k, &c, NULL, &r), GPUOCC_ERR_CLUSTER);
    gpuocc_gpc_layout bad = {.size = sizeof bad, .gpc_count = 2, .exact = 1, .sms_per_gpc = {66, 66, 1}};
    c = cluster(2, 1, 1);
    cr_expect_eq(gpuocc_cluster_occupancy(&h100, &k, &c, &bad, &r), GPUOCC_ERR_ARGUMENT); /* past gpc_count */
    gpuocc_gpc_layout shape = {.size = sizeof shape, .gpc_count = 8, .sm_count = 131, .sms_per_tpc = 2,
                               .tpcs_per_gpc_max = 9};
    cr_expect_eq(gpuocc_cluster_occupancy(&sm90, &k, &c, &shape, &r), GPUOCC_ERR_ARGUMENT); /* half a TPC */
    shape.sm_count = 146; /* more than 8 x 9 x 2 */
    cr_expect_eq(gpuocc_cluster_occupancy(&sm90, &k, &c, &shape, &r), GPUOCC_ERR_ARGUMENT);
    cr_expect_eq(r.clusters_max, 1234);
    /* a launch that fits no block fits no cluster */
    k.threads_per_block = 2048;
    cr_expect_eq(gpuocc_cluster_occupancy(&h100, &k, &c, NULL, &r), GPUOCC_OK);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect_eq(r.clusters_max, 0);
}

/* Every layout of a small die enumerated by brute force: the bound's least and most are the enumeration's
   (the library finds them by dynamic programming over the GPCs). */
static void enumerate(int g, int gpcs, int per, int left, int spt, int b, int c, int64_t acc, int64_t *lo, int64_t *hi)
{
    if (g == gpcs) {
        if (left == 0) {
            *lo = *lo < 0 || acc < *lo ? acc : *lo;
            *hi = acc > *hi ? acc : *hi;
        }
        return;
    }
    for (int t = 0; t <= per && t <= left; t++)
        enumerate(g + 1, gpcs, per, left - t, spt, b, c, acc + (int64_t)t * spt * b / c, lo, hi);
}

Test(clusters, bound_is_the_enumeration)
{
    gpuocc_device d = test_device("sm_90"); /* bare: no SM count to match */
    for (int32_t regs = 32; regs <= 128; regs *= 2) { /* 1024 threads: 2, 1 and 0 blocks per SM */
        gpuocc_kernel k = test_kernel(1024, regs, 0, 0);
        int32_t b = test_occupancy(&d, &k).blocks_per_sm;
        for (int32_t tpcs = 1; tpcs <= 20; tpcs++) {
            gpuocc_gpc_layout l = {.size = sizeof l, .gpc_count = 4, .sm_count = 2 * tpcs, .sms_per_tpc = 2,
                                   .tpcs_per_gpc_max = 5};
            for (int32_t c = 1; c <= 16; c++) {
                gpuocc_cluster cl = cluster(c, 1, 1);
                cl.cluster_nonportable = 1;
                gpuocc_cluster_result r = {.size = sizeof r};
                cr_assert_eq(gpuocc_cluster_occupancy(&d, &k, &cl, &l, &r), GPUOCC_OK);
                int64_t lo = -1, hi = -1;
                enumerate(0, 4, 5, tpcs, 2, b, c, 0, &lo, &hi);
                cr_expect(r.clusters_min == lo && r.clusters_max == hi, "b %d, %d TPCs, c %d: %lld..%lld, not %lld..%lld",
                          b, tpcs, c, (long long)r.clusters_min, (long long)r.clusters_max, (long long)lo, (long long)hi);
            }
        }
    }
}

/* Larger dies than above, random shapes and block counts, against the same enumeration. */
Test(clusters, bound_is_the_enumeration_on_random_dies)
{
    gpuocc_device d = test_device("sm_90");
    static const int32_t threads[] = {32, 128, 256, 512, 1024}; /* 32 registers: 32, 16, 8, 4, 2 blocks per SM */
    uint64_t seed = 0x2545F4914F6CDD1Du;
    for (int trial = 0; trial < 300; trial++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        int32_t gpcs = 1 + (int32_t)(seed % 5), per = 1 + (int32_t)((seed >> 8) % 8), spt = 1 + (int32_t)((seed >> 16) % 3);
        int32_t tpcs = 1 + (int32_t)((seed >> 24) % (uint64_t)(gpcs * per)), c = 1 + (int32_t)((seed >> 32) % 16);
        gpuocc_kernel k = test_kernel(threads[(seed >> 40) % 5], 32, 0, 0);
        int32_t b = test_occupancy(&d, &k).blocks_per_sm;
        gpuocc_gpc_layout l = {.size = sizeof l, .gpc_count = gpcs, .sm_count = spt * tpcs, .sms_per_tpc = spt,
                               .tpcs_per_gpc_max = per};
        gpuocc_cluster cl = cluster(c, 1, 1);
        cl.cluster_nonportable = 1;
        gpuocc_cluster_result r = {.size = sizeof r};
        int32_t rc = gpuocc_cluster_occupancy(&d, &k, &cl, &l, &r);
        cr_assert_eq(rc, GPUOCC_OK, "%d GPCs of <= %d TPCs of %d SMs, %d TPCs, c %d: %s", gpcs, per, spt, tpcs, c,
                     gpuocc_status_name(rc));
        int64_t lo = -1, hi = -1;
        enumerate(0, gpcs, per, tpcs, spt, b, c, 0, &lo, &hi);
        cr_expect(r.clusters_min == lo && r.clusters_max == hi,
                  "%d GPCs of <= %d TPCs of %d SMs, %d TPCs, b %d, c %d: %lld..%lld, not %lld..%lld", gpcs, per, spt,
                  tpcs, b, c, (long long)r.clusters_min, (long long)r.clusters_max, (long long)lo, (long long)hi);
    }
}

/* The largest die a layout may describe (32 GPCs of 64 one-SM TPCs), one block per SM (1024 threads of 64
   registers: the whole 65536-register file), clusters of 16 blocks, by hand: every GPC full holds 64 / 16 = 4
   clusters (128); one TPC fewer leaves one GPC 63 TPCs, 3 clusters (127 either way); 16 TPCs fewer give
   127 at most (one GPC of 48: 3) and 112 at least (16 GPCs of 63, each 3).  Run on a thread of 32 KiB of
   stack: the bound needs a few KiB (it took 64 KiB, which overflowed the web module's stack). */
struct big_die {
    int64_t min[3], max[3];
    int32_t rc[3];
};

static void *big_die_run(void *arg)
{
    struct big_die *out = arg;
    gpuocc_device d = test_device("sm_90");
    gpuocc_kernel k = test_kernel(1024, 64, 0, 0);
    static const int32_t sms[3] = {2048, 2047, 2032};
    for (int i = 0; i < 3; i++) {
        gpuocc_gpc_layout l = {.size = sizeof l, .gpc_count = 32, .sm_count = sms[i], .sms_per_tpc = 1,
                               .tpcs_per_gpc_max = 64};
        gpuocc_cluster cl = cluster(16, 1, 1);
        cl.cluster_nonportable = 1;
        gpuocc_cluster_result r = {.size = sizeof r};
        out->rc[i] = gpuocc_cluster_occupancy(&d, &k, &cl, &l, &r);
        out->min[i] = r.clusters_min, out->max[i] = r.clusters_max;
    }
    return NULL;
}

Test(clusters, largest_die_by_hand_on_a_small_stack)
{
    struct big_die out;
    pthread_attr_t attr;
    pthread_t thread;
    cr_assert_eq(pthread_attr_init(&attr), 0);
    cr_assert_eq(pthread_attr_setstacksize(&attr, 32 * 1024), 0);
    cr_assert_eq(pthread_create(&thread, &attr, big_die_run, &out), 0);
    cr_assert_eq(pthread_join(thread, NULL), 0);
    pthread_attr_destroy(&attr);
    static const int64_t least[3] = {128, 127, 112}, most[3] = {128, 127, 127};
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(out.rc[i], GPUOCC_OK, "case %d", i);
        cr_expect(out.min[i] == least[i] && out.max[i] == most[i], "case %d: %lld..%lld, not %lld..%lld", i,
                  (long long)out.min[i], (long long)out.max[i], (long long)least[i], (long long)most[i]);
    }
}
