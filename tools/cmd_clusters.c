/* Thread-block clusters on the command line: --cluster and its flags for `report`, and `sweep --axis
   cluster` (the curve of resident clusters over the cluster size).  docs/model.md, "Thread-block clusters". */
#include "clusters.h"

#include <string.h>

void cli_cluster_init(struct cli_cluster *cc)
{
    memset(cc, 0, sizeof *cc);
    cc->c.size = sizeof cc->c;
    gpuocc_cluster_init(&cc->c);
    cc->layout.size = sizeof cc->layout;
}

/* "X", "XxY" or "XxYxZ" into dims (the missing ones 1), each in 1 .. hi. */
static bool parse_dims(const char *s, int64_t hi, int64_t dims[3])
{
    dims[0] = dims[1] = dims[2] = 1;
    for (int i = 0; i < 3; i++) {
        const char *x = strchr(s, 'x');
        size_t n = x ? (size_t)(x - s) : strlen(s);
        if (!cli_parse_int(s, n, 1, hi, &dims[i]))
            return false;
        if (!x)
            return true;
        s = x + 1;
    }
    return false; /* a fourth dimension */
}

static bool parse_gpc_sms(const char *s, struct cli_cluster *cc)
{
    gpuocc_gpc_layout *l = &cc->layout;
    memset(l, 0, sizeof *l);
    l->size = sizeof *l;
    l->exact = 1;
    size_t used = 0;
    for (int32_t g = 0;; g++) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        int64_t v;
        if (g >= GPUOCC_MAX_GPCS || !cli_parse_int(s, n, 0, 1024, &v))
            return false;
        l->sms_per_gpc[g] = (int32_t)v;
        l->gpc_count = g + 1;
        used += (size_t)snprintf(cc->gpc_sms + used, sizeof cc->gpc_sms - used, "%s%d", g ? "," : "", (int)v);
        if (!comma)
            return true;
        s = comma + 1;
    }
}

bool cli_cluster_flag(struct cli_args *a, struct cli_cluster *cc)
{
    const char *v;
    int64_t d[3];
    if (cli_flag(a, "--cluster", &v)) {
        if (!parse_dims(v, INT32_MAX, d))
            cli_fail(a->io, "--cluster", "expected XxYxZ blocks (2x1x1, 4x2, 8), each at least 1, got '%s'", v);
        cc->given = true;
        cc->c.cluster_x = (int32_t)d[0], cc->c.cluster_y = (int32_t)d[1], cc->c.cluster_z = (int32_t)d[2];
        return true;
    }
    if (cli_switch(a, "--cluster-nonportable")) {
        cc->c.cluster_nonportable = 1;
        return true;
    }
    if (cli_flag(a, "--grid-blocks", &v)) {
        if (!parse_dims(v, INT64_MAX, d))
            cli_fail(a->io, "--grid-blocks", "expected N or XxYxZ blocks, each at least 1, got '%s'", v);
        cc->grid_given = true;
        cc->c.grid_x = d[0], cc->c.grid_y = d[1], cc->c.grid_z = d[2];
        return true;
    }
    if (cli_flag(a, "--gpc-sms", &v)) {
        if (!parse_gpc_sms(v, cc))
            cli_fail(a->io, "--gpc-sms", "expected the SMs of each GPC, 1 to %d counts of 0-1024 separated by ','"
                     ", got '%s'", GPUOCC_MAX_GPCS, v);
        cc->layout_given = cc->have_layout = true;
        return true;
    }
    return false;
}

const char *cli_cluster_verdict_name(int32_t verdict)
{
    static const char *const names[] = {"legal", "unsupported", "needs_nonportable", "too_large", "kernel_max",
                                        "grid", "unverified"};
    return verdict >= 0 && verdict < (int32_t)(sizeof names / sizeof names[0]) ? names[verdict] : "";
}

const char *cli_cluster_kind(const struct cli_cluster *cc)
{
    return cc->r.clusters_exact ? "exact" : "bound";
}

/* a x b x c of counts of at least 1, false when it passes INT64_MAX */
static bool product3(int64_t a, int64_t b, int64_t c, int64_t *out)
{
    if (a > INT64_MAX / b || a * b > INT64_MAX / c)
        return false;
    *out = a * b * c;
    return true;
}

/* The blocks of a cluster whose dimensions passed within_api (so the product fits). */
static int64_t blocks_of(const gpuocc_cluster *c)
{
    int64_t blocks = INT64_MAX;
    product3(c->cluster_x, c->cluster_y, c->cluster_z, &blocks);
    return blocks;
}

/* ---- the launch API's limits on a grid (docs/output.md, "Grid limits") ----
   Blocks per grid dimension: CUDA's gridDim, x at most 2^31-1, y and z 65535 (every compute capability: the
   CUDA Programming Guide's technical specifications); HIP's dispatch packet counts work-items per dimension in
   32 bits (hsa_kernel_dispatch_packet_t.grid_size_x; HIP refuses gridDim x blockDim >= 2^32) and a block
   holds at least one, so at most 2^32-1 blocks; Level Zero's ze_group_count_t counts work-groups per
   dimension in 32 bits.  Every vendor: the grid's blocks in all fit 64 bits. */
struct grid_api {
    const char *name;
    int64_t max[3];
};

static struct grid_api grid_api_of(const gpuocc_device *d)
{
    if (cli_is_amd(d))
        return (struct grid_api){"HIP", {UINT32_MAX, UINT32_MAX, UINT32_MAX}};
    if (cli_is_intel(d))
        return (struct grid_api){"Level Zero", {UINT32_MAX, UINT32_MAX, UINT32_MAX}};
    return (struct grid_api){"CUDA", {INT32_MAX, 65535, 65535}};
}

/* The dimensions `flag` gave within the device's launch API and their product (*total) within 64 bits; a
   usage error naming the flag and the limit otherwise.  `why`: what ties the flag to the grid's limits. */
static bool within_api(struct cli_io *io, const gpuocc_device *dev, const char *flag, const int64_t dims[3],
                       const char *why, int64_t *total)
{
    struct grid_api api = grid_api_of(dev);
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++)
        if (dims[i] > api.max[i])
            return cli_fail(io, flag, "%c = %lld is more than %s's grid limit of %lld blocks in %c%s", axis[i],
                            (long long)dims[i], api.name, (long long)api.max[i], axis[i], why), false;
    if (!product3(dims[0], dims[1], dims[2], total))
        return cli_fail(io, flag, "%lldx%lldx%lld is more than %lld blocks in all (a 64-bit count)", (long long)dims[0],
                        (long long)dims[1], (long long)dims[2], (long long)INT64_MAX), false;
    return true;
}

static bool grid_within_api(struct cli_io *io, const struct cli_launch *l, struct cli_cluster *cc)
{
    const int64_t dims[3] = {cc->c.grid_x, cc->c.grid_y, cc->c.grid_z};
    return within_api(io, &l->dev, "--grid-blocks", dims, "", &cc->grid_blocks);
}

/* A cluster dimension divides the grid's, so it is within the grid's limit too (NVIDIA's: the verdict refuses
   another vendor's cluster as not modelled). */
static bool cluster_within_api(struct cli_io *io, const struct cli_launch *l, const struct cli_cluster *cc)
{
    if (cli_is_amd(&l->dev) || cli_is_intel(&l->dev))
        return true;
    const int64_t dims[3] = {cc->c.cluster_x, cc->c.cluster_y, cc->c.cluster_z};
    int64_t blocks;
    return within_api(io, &l->dev, "--cluster", dims, " (a cluster dimension divides the grid's)", &blocks);
}

static int32_t blocks_per_sm(const struct cli_launch *l)
{
    gpuocc_result r = {.size = sizeof r};
    return gpuocc_occupancy(&l->dev, &l->k, &r) == GPUOCC_OK ? r.blocks_per_sm : 0;
}

/* A grid without clusters: its waves, ceil(grid blocks / (blocks per SM x SMs)) as gpuocc_waves counts them.
   They need the SM count of a product; none when no block fits (the report says the launch cannot run). */
static bool grid_waves(struct cli_io *io, const struct cli_launch *l, struct cli_cluster *cc)
{
    if (l->dev.sm_count < 1) {
        char arch[16];
        cli_arch_name(&l->dev, arch, sizeof arch);
        return cli_fail(io, "--grid-blocks", "waves need the %s count of a product, and --arch %s is an architecture: "
                        "give a product ('gpuocc devices %s' lists them)",
                        cli_is_amd(&l->dev) ? "CU" : cli_is_intel(&l->dev) ? "Xe-core" : "SM", l->dev_name, arch),
               false;
    }
    int32_t bps = blocks_per_sm(l);
    if (bps < 1)
        return true;
    cc->waves = (gpuocc_waves_result){.size = sizeof cc->waves};
    int32_t rc = gpuocc_waves(cc->grid_blocks, l->dev.sm_count, bps, &cc->waves);
    if (rc != GPUOCC_OK)
        return cli_fail(io, "--grid-blocks", "%s", gpuocc_strerror(rc)), false;
    cc->have_waves = true;
    return true;
}

/* The rule a refused cluster breaks, as the stderr line says it (exit 2). */
static void refuse(struct cli_io *io, const struct cli_launch *l, const struct cli_cluster *cc, int32_t verdict)
{
    char arch[16];
    cli_arch_name(&l->dev, arch, sizeof arch);
    const gpuocc_cluster *c = &cc->c;
    long long blocks = (long long)blocks_of(c); /* exact: the dimensions are within the grid's limits */
    int32_t np = 0;
    gpuocc_cluster_size_max(&l->dev, 1, &np);
    switch (verdict) {
    case GPUOCC_CLUSTER_UNSUPPORTED:
        if (cli_is_amd(&l->dev) || cli_is_intel(&l->dev))
            cli_fail(io, "--cluster", "%s (%s): clusters are NVIDIA's here; other vendors' are not modelled",
                     l->dev_name, arch);
        else
            cli_fail(io, "--cluster", "%s (%s) has no thread-block clusters: they need compute capability 9.0 or "
                     "later", l->dev_name, arch);
        break;
    case GPUOCC_CLUSTER_NEEDS_NONPORTABLE:
        if (np > 0)
            cli_fail(io, "--cluster", "%lld blocks is more than the portable 8; %s allows up to %d with "
                     "cudaFuncAttributeNonPortableClusterSizeAllowed (--cluster-nonportable)", blocks, arch, np);
        else
            cli_fail(io, "--cluster", "%lld blocks is more than the portable 8; the non-portable maximum of %s is "
                     "not published (--cluster-nonportable answers, unverified)", blocks, arch);
        break;
    case GPUOCC_CLUSTER_TOO_LARGE:
        cli_fail(io, "--cluster", "%lld blocks is more than the %d %s allows with the non-portable attribute",
                 blocks, np, arch);
        break;
    case GPUOCC_CLUSTER_GRID:
        cli_fail(io, "--grid-blocks", "%lldx%lldx%lld is not a whole number of %dx%dx%d clusters (each cluster "
                 "dimension must divide the grid's)", (long long)c->grid_x, (long long)c->grid_y,
                 (long long)c->grid_z, c->cluster_x, c->cluster_y, c->cluster_z);
        break;
    default:
        cli_fail(io, "--cluster", "%lld blocks is more than the kernel's own maximum %d", blocks,
                 c->max_blocks_per_cluster);
        break;
    }
}

/* The count for cluster `c` on the launch (the layout chosen already); the verdict in cc. */
static int32_t count(const struct cli_launch *l, struct cli_cluster *cc, const gpuocc_cluster *c)
{
    int32_t rc = gpuocc_cluster_check(&l->dev, c, &cc->verdict);
    if (rc)
        return rc;
    cc->have_result = false;
    if (cc->verdict != GPUOCC_CLUSTER_LEGAL && cc->verdict != GPUOCC_CLUSTER_UNVERIFIED)
        return GPUOCC_OK;
    if (!cc->have_layout && l->dev.sm_count == 0)
        return GPUOCC_OK; /* a bare architecture: legality only */
    cc->r.size = sizeof cc->r;
    rc = gpuocc_cluster_occupancy(&l->dev, &l->k, c, cc->have_layout ? &cc->layout : NULL, &cc->r);
    cc->have_result = rc == GPUOCC_OK;
    return rc;
}

/* --gpc-sms, or the product's published layout where its SM count is the device's. */
static bool choose_layout(struct cli_io *io, const struct cli_launch *l, struct cli_cluster *cc)
{
    if (cc->layout_given) {
        int64_t sms = 0;
        for (int32_t g = 0; g < cc->layout.gpc_count; g++)
            sms += cc->layout.sms_per_gpc[g];
        if (sms < 1)
            return cli_fail(io, "--gpc-sms", "%s: no SMs", cc->gpc_sms), false;
        if (l->dev.sm_count && sms != l->dev.sm_count)
            return cli_fail(io, "--gpc-sms", "%s: %lld SMs in all, but %s has %d", cc->gpc_sms, (long long)sms,
                            l->dev_name, l->dev.sm_count), false;
        return true;
    }
    gpuocc_gpc_layout found = {.size = sizeof found};
    if (gpuocc_gpc_layout_lookup(l->dev_name, &found) == GPUOCC_OK) {
        int64_t sms = found.sm_count;
        if (found.exact)
            for (int32_t g = 0; g < found.gpc_count; g++)
                sms += found.sms_per_gpc[g];
        if (!l->dev.sm_count || sms == l->dev.sm_count) {
            cc->layout = found;
            cc->have_layout = true;
        }
    }
    return true;
}

bool cli_cluster_answer(struct cli_io *io, const struct cli_launch *l, struct cli_cluster *cc)
{
    if (cc->grid_given && !grid_within_api(io, l, cc))
        return false;
    if (!cc->given) {
        const char *flag = cc->c.cluster_nonportable ? "--cluster-nonportable"
                           : cc->layout_given         ? "--gpc-sms"
                                                      : NULL;
        if (flag)
            return cli_fail(io, flag, "needs --cluster"), false;
        return !cc->grid_given || grid_waves(io, l, cc);
    }
    if (!cluster_within_api(io, l, cc) || !choose_layout(io, l, cc))
        return false;
    int32_t rc = count(l, cc, &cc->c);
    if (rc)
        return cli_fail(io, "--cluster", "%s", gpuocc_strerror(rc)), false;
    if (cc->verdict != GPUOCC_CLUSTER_LEGAL && cc->verdict != GPUOCC_CLUSTER_UNVERIFIED) {
        refuse(io, l, cc, cc->verdict);
        return false;
    }
    return true;
}

void cli_cluster_text(FILE *out, const struct cli_launch *l, const struct cli_cluster *cc)
{
    if (!cc->given)
        return;
    const gpuocc_cluster *c = &cc->c;
    char arch[16];
    cli_arch_name(&l->dev, arch, sizeof arch);
    int32_t np = 0;
    gpuocc_cluster_size_max(&l->dev, 1, &np);
    fprintf(out, "cluster     %dx%dx%d = %lld blocks: ", c->cluster_x, c->cluster_y, c->cluster_z,
            (long long)blocks_of(c));
    if (cc->verdict == GPUOCC_CLUSTER_UNVERIFIED)
        fprintf(out, "unverified (more than the portable 8; the non-portable maximum of %s is not published)\n", arch);
    else if (np > 0)
        fprintf(out, "legal (portable maximum 8; %d with the non-portable attribute)\n", np);
    else
        fprintf(out, "legal (portable maximum 8; the non-portable maximum of %s is not published)\n", arch);
    if (cc->grid_given) /* each quotient at most its grid dimension: the product at most the grid's blocks */
        fprintf(out, "grid        %lldx%lldx%lld blocks: %lld clusters\n", (long long)c->grid_x, (long long)c->grid_y,
                (long long)c->grid_z,
                (long long)((c->grid_x / c->cluster_x) * (c->grid_y / c->cluster_y) * (c->grid_z / c->cluster_z)));
    if (!cc->have_result) {
        fprintf(out, "clusters    unknown: %s has no SM count (give a product to --arch, or --gpc-sms)\n", l->dev_name);
        return;
    }
    const gpuocc_cluster_result *r = &cc->r;
    if (r->clusters_exact)
        fprintf(out, "clusters    %lld resident at once: exact for the GPC layout %s (%d GPCs; floor(SMs x %d / %d) "
                "per GPC)\n", (long long)r->clusters_max, cc->layout_given ? cc->gpc_sms : l->dev_name, r->gpc_count,
                r->blocks_per_sm, r->cluster_blocks);
    else if (cc->have_layout)
        fprintf(out, "clusters    %lld to %lld resident at once: a BOUND over every layout of %d SMs in %d GPCs of "
                "at most %d TPCs (the product's GPC-by-GPC layout is not published; --gpc-sms gives the exact "
                "count)\n", (long long)r->clusters_min, (long long)r->clusters_max, cc->layout.sm_count,
                r->gpc_count, cc->layout.tpcs_per_gpc_max);
    else
        fprintf(out, "clusters    at most %lld resident at once: a BOUND, floor(%d SMs x %d / %d) (no GPC layout "
                "published for %s; --gpc-sms gives the exact count)\n", (long long)r->clusters_max, l->dev.sm_count,
                r->blocks_per_sm, r->cluster_blocks, l->dev_name);
    fprintf(out, "            (a cluster never spans a GPC; the runtime's own placement is not published and may "
            "place fewer)\n");
}

void cli_grid_text(FILE *out, const struct cli_launch *l, const struct cli_cluster *cc, const char *unit)
{
    if (!cc->have_waves)
        return;
    const gpuocc_waves_result *w = &cc->waves;
    const char *blocks = cli_is_intel(&l->dev) ? "work-groups" : "blocks";
    fprintf(out, "waves       %lld for a grid of %lld %s: %lld per wave (%d %ss x %lld)", (long long)w->waves,
            (long long)cc->grid_blocks, blocks, (long long)w->blocks_per_wave, l->dev.sm_count, unit,
            (long long)(w->blocks_per_wave / l->dev.sm_count));
    if (w->last_wave_blocks < w->blocks_per_wave)
        fprintf(out, "; the last holds %lld (%.1f %% full)\n", (long long)w->last_wave_blocks,
                100 * w->last_wave_utilization);
    else
        fprintf(out, "; no tail\n");
}

/* ---- sweep --axis cluster ---- */

/* the largest non-portable maximum published (cc 9.0, 10.0) */
#define GPUOCC_CLUSTER_SWEEP_MAX 16

static void put_count(FILE *out, bool known, long long v, bool json)
{
    if (known)
        fprintf(out, "%lld", v);
    else
        fputs(json ? "null" : "-1", out);
}

static const char sweep_header[] = "arch,threads,regs,smem_static,smem_dynamic,cluster_x,cluster_y,cluster_z,"
                                   "cluster_nonportable,cluster_blocks,cluster_verdict,blocks_per_sm,clusters_kind,"
                                   "clusters_min,clusters_max\n";

static void sweep_row(FILE *out, const struct cli_launch *l, const struct cli_cluster *cc, int32_t blocks, int mode,
                      bool first_row)
{
    bool legal = cc->verdict == GPUOCC_CLUSTER_LEGAL || cc->verdict == GPUOCC_CLUSTER_UNVERIFIED;
    bool have = legal && cc->have_result;
    bool json = mode == CLI_CLUSTER_JSON;
    const gpuocc_cluster_result *r = &cc->r;
    const char *kind = have ? cli_cluster_kind(cc) : NULL;
    if (mode == CLI_CLUSTER_TEXT) {
        fprintf(out, "%7d  %-17s ", blocks, cli_cluster_verdict_name(cc->verdict));
        if (!have)
            fprintf(out, "%s\n", legal ? "unknown (no SM count)" : "-");
        else if (r->clusters_exact)
            fprintf(out, "%lld (exact)\n", (long long)r->clusters_max);
        else if (r->clusters_min >= 0)
            fprintf(out, "%lld to %lld (bound)\n", (long long)r->clusters_min, (long long)r->clusters_max);
        else
            fprintf(out, "at most %lld (bound)\n", (long long)r->clusters_max);
        return;
    }
    if (json) {
        bool first = true;
        fputs(first_row ? "" : ",\n", out);
        fputc('{', out);
        json_key(out, &first, "arch");
        json_string(out, l->dev_name);
        const struct {
            const char *key;
            long long v;
        } in[] = {{"threads", l->k.threads_per_block}, {"regs", l->k.regs_per_thread},
                  {"smem_static", l->k.smem_static_bytes}, {"smem_dynamic", l->k.smem_dynamic_bytes},
                  {"cluster_x", blocks}, {"cluster_y", 1}, {"cluster_z", 1},
                  {"cluster_nonportable", cc->c.cluster_nonportable}, {"cluster_blocks", blocks}};
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
            json_key(out, &first, in[i].key);
            fprintf(out, "%lld", in[i].v);
        }
        json_key(out, &first, "cluster_verdict");
        json_string(out, cli_cluster_verdict_name(cc->verdict));
        json_key(out, &first, "blocks_per_sm");
        put_count(out, have, have ? r->blocks_per_sm : 0, true);
        json_key(out, &first, "clusters_kind");
        if (kind)
            json_string(out, kind);
        else
            fputs("null", out);
        json_key(out, &first, "clusters_min");
        put_count(out, have && r->clusters_min >= 0, have ? (long long)r->clusters_min : 0, true);
        json_key(out, &first, "clusters_max");
        put_count(out, have, have ? (long long)r->clusters_max : 0, true);
        fputc('}', out);
        return;
    }
    csv_cell(out, l->dev_name, strlen(l->dev_name));
    fprintf(out, ",%d,%d,%lld,%lld,%d,1,1,%d,%d,%s,", l->k.threads_per_block, l->k.regs_per_thread,
            (long long)l->k.smem_static_bytes, (long long)l->k.smem_dynamic_bytes, blocks, cc->c.cluster_nonportable,
            blocks, cli_cluster_verdict_name(cc->verdict));
    put_count(out, have, have ? r->blocks_per_sm : 0, false);
    fprintf(out, ",%s,", kind ? kind : "");
    put_count(out, have && r->clusters_min >= 0, have ? (long long)r->clusters_min : 0, false);
    fputc(',', out);
    put_count(out, have, have ? (long long)r->clusters_max : 0, false);
    fputc('\n', out);
}

/* `plot --axis cluster --terminal`: one bar per size, solid to the least resident clusters, shaded from there to
   the most (a bound's range; all shaded where the least is unknown), scaled to the largest. */
static void terminal_bars(FILE *out, const int64_t *least, const int64_t *most, const int32_t *verdict, int32_t n)
{
    enum { COLS = 48 };
    int64_t top = 1;
    for (int32_t i = 0; i < n; i++)
        top = most[i] > top ? most[i] : top;
    for (int32_t i = 0; i < n; i++) {
        fprintf(out, "%4d |", i + 1);
        if (most[i] < 0) {
            fprintf(out, " %s\n", cli_cluster_verdict_name(verdict[i]));
            continue;
        }
        int solid = least[i] < 0 ? 0 : (int)(least[i] * COLS / top), all = (int)(most[i] * COLS / top);
        for (int c = 0; c < all; c++)
            fputs(c < solid ? "\u2588" : "\u2592", out);
        if (least[i] == most[i])
            fprintf(out, " %lld", (long long)most[i]);
        else if (least[i] < 0)
            fprintf(out, " at most %lld", (long long)most[i]);
        else
            fprintf(out, " %lld to %lld", (long long)least[i], (long long)most[i]);
        fputs(verdict[i] == GPUOCC_CLUSTER_UNVERIFIED ? " (unverified size)\n" : "\n", out);
    }
    fprintf(out, "      (blocks per cluster; \u2588 resident clusters in every layout, \u2592 the rest of a bound's "
            "range)\n");
}

int cli_cluster_sweep(struct cli_io *io, const struct cli_launch *l, struct cli_cluster *cc, int mode)
{
    if (cc->given)
        return cli_fail(io, "--cluster", "not with --axis cluster: the sweep sets the cluster size");
    if ((cc->grid_given && !grid_within_api(io, l, cc)) || !choose_layout(io, l, cc))
        return io->status;
    int32_t most = 0;
    gpuocc_cluster_size_max(&l->dev, cc->c.cluster_nonportable, &most);
    if (most == 0) {
        cc->c.cluster_x = 1;
        refuse(io, l, cc, GPUOCC_CLUSTER_UNSUPPORTED);
        return io->status;
    }
    /* unpublished: the sizes any published device accepts, the ones above 8 marked unverified */
    most = most == GPUOCC_CLUSTER_MAX_UNKNOWN || most > GPUOCC_CLUSTER_SWEEP_MAX ? GPUOCC_CLUSTER_SWEEP_MAX : most;
    FILE *out = io->out;
    if (mode == CLI_CLUSTER_TERMINAL) {
        int64_t least[GPUOCC_CLUSTER_SWEEP_MAX], most_of[GPUOCC_CLUSTER_SWEEP_MAX];
        int32_t verdict[GPUOCC_CLUSTER_SWEEP_MAX];
        for (int32_t b = 1; b <= most; b++) {
            gpuocc_cluster c = cc->c;
            c.cluster_x = b, c.cluster_y = 1, c.cluster_z = 1;
            int32_t rc = count(l, cc, &c);
            if (rc)
                return cli_fail(io, "--axis", "cluster: %s", gpuocc_strerror(rc));
            bool have = cc->have_result && (cc->verdict == GPUOCC_CLUSTER_LEGAL || cc->verdict == GPUOCC_CLUSTER_UNVERIFIED);
            least[b - 1] = have ? cc->r.clusters_min : -1;
            most_of[b - 1] = have ? cc->r.clusters_max : -1;
            verdict[b - 1] = cc->verdict;
        }
        char arch[16];
        cli_arch_name(&l->dev, arch, sizeof arch);
        fprintf(out, "Resident clusters on %s (%s), %d blocks/SM: %s\n", l->dev_name, arch, blocks_per_sm(l),
                cc->layout_given ? "exact for the --gpc-sms layout"
                : cc->have_layout ? "a BOUND over the layouts the product's SM count allows"
                                  : "a BOUND: no GPC layout published");
        terminal_bars(out, least, most_of, verdict, most);
        return CLI_OK;
    }
    if (mode == CLI_CLUSTER_TEXT) {
        char arch[16];
        cli_arch_name(&l->dev, arch, sizeof arch);
        fprintf(out, "%s (%s): resident clusters against cluster size (%d blocks/SM; %s)\n", l->dev_name, arch,
                blocks_per_sm(l), cc->layout_given ? "exact for the --gpc-sms layout"
                                  : cc->have_layout ? "a BOUND over the layouts the product's SM count allows"
                                                    : "a BOUND: no GPC layout published");
        fprintf(out, "%7s  %-17s %s\n", "blocks", "verdict", "clusters");
    } else
        fputs(mode == CLI_CLUSTER_JSON ? "[" : sweep_header, out);
    for (int32_t b = 1; b <= most && !cli_output_failed(io); b++) {
        gpuocc_cluster c = cc->c;
        c.cluster_x = b, c.cluster_y = 1, c.cluster_z = 1;
        int32_t rc = count(l, cc, &c);
        if (rc)
            return cli_fail(io, "--axis", "cluster: %s", gpuocc_strerror(rc));
        sweep_row(out, l, cc, b, mode, b == 1);
    }
    if (mode == CLI_CLUSTER_JSON)
        fputs("]\n", out);
    return CLI_OK;
}
