/* gpuocc latency | spill | tradeoff | waves | divergence | roofline | diagnose. Each prints its inputs,
   its results and a one-line verdict, as text or (--json) as one JSON object. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- one output mechanism for every model command ---- */

#define MAX_ITEMS 48
struct report {
    const char *command;
    int n;
    struct {
        const char *key;
        char value[400]; /* as JSON prints it: a real number with every digit it needs (docs/output.md); text up to gpuocc_perf.dram_source */
        bool is_text;
        bool is_real;   /* a real number (put_num): text shows it rounded, text_num() */
        double real;
    } items[MAX_ITEMS];
    char verdict[512];
};

/* An empty report of `command`, set field by field: an initializer of this 20 KB struct would be a 20 KB
   constant per command in the program's data (the web module's budget, docs/web.md). */
static void report_start(struct report *r, const char *command)
{
    memset(r, 0, sizeof *r);
    r->command = command;
}

static void put_num(struct report *r, const char *key, double v)
{
    if (r->n == MAX_ITEMS)
        return;
    r->items[r->n].key = key;
    r->items[r->n].is_text = false;
    r->items[r->n].is_real = isfinite(v);
    r->items[r->n].real = v;
    if (isfinite(v)) {
        /* the shortest form that reads back as the same double: no digit lost, no noise added */
        for (int digits = 6; digits <= 17; digits++) {
            snprintf(r->items[r->n].value, sizeof r->items[0].value, "%.*g", digits, v);
            if (strtod(r->items[r->n].value, NULL) == v)
                break;
        }
    } else
        snprintf(r->items[r->n].value, sizeof r->items[0].value, "null");
    r->n++;
}

/* A count: all its digits, never an exponent (JSON and text). */
static void put_int(struct report *r, const char *key, int64_t v)
{
    if (r->n == MAX_ITEMS)
        return;
    r->items[r->n].key = key;
    r->items[r->n].is_text = false;
    r->items[r->n].is_real = false;
    snprintf(r->items[r->n].value, sizeof r->items[0].value, "%lld", (long long)v);
    r->n++;
}

/* A yes/no answer: JSON's true or false (and so in text). */
static void put_bool(struct report *r, const char *key, bool v)
{
    if (r->n == MAX_ITEMS)
        return;
    r->items[r->n].key = key;
    r->items[r->n].is_text = false;
    r->items[r->n].is_real = false;
    snprintf(r->items[r->n].value, sizeof r->items[0].value, "%s", v ? "true" : "false");
    r->n++;
}

static void put_text(struct report *r, const char *key, const char *v)
{
    if (r->n == MAX_ITEMS)
        return;
    r->items[r->n].key = key;
    r->items[r->n].is_text = true;
    r->items[r->n].is_real = false;
    snprintf(r->items[r->n].value, sizeof r->items[0].value, "%s", v);
    r->n++;
}

/* "{" and the command and items as JSON members, the object left open */
static void json_items(FILE *out, const struct report *r, bool *first)
{
    fprintf(out, "{");
    json_key(out, first, "command");
    json_string(out, r->command);
    for (int i = 0; i < r->n; i++) {
        json_key(out, first, r->items[i].key);
        if (r->items[i].is_text)
            json_string(out, r->items[i].value);
        else
            fputs(r->items[i].value, out);
    }
}

/* A real number for people: six significant digits (10.46, not 10.459999999999999; 347.98, not
   347.979797979798), and a whole number's digits without an exponent (1048576, not 1.04858e+06).  JSON keeps
   the full form (put_num). */
static const char *text_num(char *buf, size_t size, double v)
{
    if (fabs(v) >= 1e6 && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.6g", v);
    return buf;
}

static void print_report(FILE *out, const struct report *r, bool json)
{
    if (json) {
        bool first = true;
        json_items(out, r, &first);
        json_key(out, &first, "verdict");
        json_string(out, r->verdict);
        fprintf(out, "}\n");
        return;
    }
    for (int i = 0; i < r->n; i++) {
        char rounded[64];
        fprintf(out, "%-24s %s\n", r->items[i].key,
                r->items[i].is_real ? text_num(rounded, sizeof rounded, r->items[i].real) : r->items[i].value);
    }
    fprintf(out, "verdict: %s\n", r->verdict);
}

/* A library failure reported against the flag that carries the bad value; true when all is well. */
static bool check_status(struct cli_io *io, const char *field, int32_t rc)
{
    if (rc != GPUOCC_OK && !io->status)
        cli_fail(io, field, "%s", gpuocc_strerror(rc));
    return !io->status;
}

/* Flags shared by the commands: a value per name, looked up after parsing. */
#define MAX_FLAGS 24
struct flags {
    int n;
    const char *name[MAX_FLAGS];
    const char *value[MAX_FLAGS];
    bool json;
};

/* The command's valued options (its descriptor's table) and --json. */
/* The command's flags (its option table) in `f`; with a launch `l`, the launch flags of both vendors go to it
   first, read and checked as every launch-taking command reads them. */
static void parse_launch_flags(struct cli_io *io, int argc, char **argv, struct flags *f, struct cli_launch *l)
{
    memset(f, 0, sizeof *f);
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
    for (; cli_more(&a); a.i++) {
        if (l && (cli_launch_flag(&a, l) || cli_amd_launch_flag(&a, l) || cli_intel_launch_flag(&a, l))) {
            if (io->status)
                break;
            continue;
        }
        if (cli_switch(&a, "--json")) {
            f->json = true;
            continue;
        }
        const char *v = NULL;
        const struct cli_option *o = io->cmd->options;
        /* valued flags, and switches (recorded with the value "") */
        while (o->name && !(o->value ? cli_flag(&a, o->name, &v) : cli_switch(&a, o->name) && (v = "")))
            o++;
        if (io->status)
            break;
        if (!o->name || f->n == MAX_FLAGS) {
            cli_unknown(&a);
            break;
        }
        f->name[f->n] = o->name;
        f->value[f->n++] = v;
    }
}

static void parse_flags(struct cli_io *io, int argc, char **argv, struct flags *f)
{
    parse_launch_flags(io, argc, argv, f, NULL);
}

static const char *flag(const struct flags *f, const char *name)
{
    for (int i = f->n - 1; i >= 0; i--)
        if (!strcmp(f->name[i], name))
            return f->value[i];
    return NULL;
}

/* Flags of another model than the one the given flags chose: refused (the first given, with `why`), never
   silently ignored.  True when none of `names` was given. */
static bool refuse(struct cli_io *io, const struct flags *f, const char *const *names, size_t n, const char *why)
{
    for (size_t i = 0; i < n; i++)
        if (flag(f, names[i]))
            return cli_fail(io, names[i], "%s", why), false;
    return true;
}

/* --sm-count, else the product's (--arch), else 0 (the caller says it is required). */
static int32_t sm_count_for(struct cli_io *io, const struct flags *f, const gpuocc_perf *p, bool have)
{
    const char *v = flag(f, "--sm-count");
    return v ? cli_int(io, "--sm-count", v, 1, INT32_MAX) : have ? p->sm_count : 0;
}

/* The domain a model input must lie in, checked here so that the error names the flag that carries it. */
enum domain { POS, NONNEG, FRAC, ONE };

static double number(struct cli_io *io, const char *name, const char *text, enum domain d)
{
    double v = cli_double(io, name, text);
    bool ok = d == POS ? v > 0 : d == NONNEG ? v >= 0 : d == FRAC ? v >= 0 && v <= 1 : v >= 1;
    if (!ok && !io->status) {
        static const char *const want[] = {"a number > 0", "a number >= 0", "a fraction from 0 to 1",
                                           "a number >= 1"};
        cli_fail(io, name, "expected %s, got '%s'", want[d], text);
    }
    return v;
}

static double num(struct cli_io *io, const struct flags *f, const char *name, double fallback, bool required,
                  enum domain d)
{
    const char *v = flag(f, name);
    if (!v) {
        if (required)
            cli_fail(io, name, "required");
        return fallback;
    }
    return number(io, name, v, d);
}

/* A device's performance constants when --arch is given (0 fields = unknown). */
static bool perf_for(struct cli_io *io, const struct flags *f, gpuocc_perf *p)
{
    memset(p, 0, sizeof *p);
    p->size = sizeof *p;
    const char *arch = flag(f, "--arch");
    if (!arch)
        return false;
    if (gpuocc_perf_lookup(arch, p) == GPUOCC_OK)
        return true;
    gpuocc_device unused;
    cli_device(io, "--arch", arch, &unused); /* the error, with a suggestion */
    if (!io->status)
        cli_fail(io, "--arch", "no performance figures for '%s'", arch);
    return false;
}

/* A value from a flag, else from the device table, else fail naming the flag. */
static double num_or_table(struct cli_io *io, const struct flags *f, const char *name, double table_value,
                           enum domain d)
{
    const char *v = flag(f, name);
    if (v)
        return number(io, name, v, d);
    if (table_value > 0)
        return table_value;
    cli_fail(io, name, "required (no published figure for this device%s)", flag(f, "--arch") ? "" : "; or give --arch");
    return 0;
}

/* ---- latency and bandwidth: one DRAM model (docs/models.md, "Bandwidth against concurrency") ---- */

/* The table's DRAM constants for --arch, with the caller's overrides: --sm-count, --latency-ns,
   --peak-gbps, --bus-bits, --attainable-gbps.  False (and a usage error) when one is missing. */
struct dram {
    int32_t sm_count;
    double latency_ns, peak_gbps, clock_mhz, bus_bits, attainable_gbps;
};

static bool dram_for(struct cli_io *io, const struct flags *f, const gpuocc_perf *p, bool have, struct dram *d)
{
    d->sm_count = sm_count_for(io, f, p, have);
    d->latency_ns = flag(f, "--latency-ns") ? number(io, "--latency-ns", flag(f, "--latency-ns"), POS)
                    : have && p->latency_clock_mhz > 0 ? p->dram_latency_cycles / p->latency_clock_mhz * 1e3
                                                       : 0;
    d->peak_gbps = flag(f, "--peak-gbps") ? number(io, "--peak-gbps", flag(f, "--peak-gbps"), POS)
                                          : have ? p->dram_bandwidth_gbps : 0;
    d->bus_bits = flag(f, "--bus-bits") ? number(io, "--bus-bits", flag(f, "--bus-bits"), POS)
                                        : have ? p->dram_bus_bits : 0;
    /* the measured ceiling belongs to the table's peak: a caller's --peak-gbps drops it (0 = that peak) */
    d->attainable_gbps = flag(f, "--attainable-gbps") ? number(io, "--attainable-gbps", flag(f, "--attainable-gbps"), POS)
                         : have && !flag(f, "--peak-gbps") ? p->dram_attainable_gbps : 0;
    /* one clock per product: cycles are the product's (boost) cycles; a bare architecture has only the
       clock its latencies were measured at */
    d->clock_mhz = have ? (p->sm_clock_mhz > 0 ? p->sm_clock_mhz : p->latency_clock_mhz) : 0;
    if (io->status)
        return false;
    const char *why = d->sm_count < 1 ? "--sm-count" : !(d->latency_ns > 0) ? "--latency-ns"
                      : !(d->peak_gbps > 0) ? "--peak-gbps" : !(d->bus_bits > 0) ? "--bus-bits" : NULL;
    if (why)
        cli_fail(io, why, "required (no published figure for this device%s)", have ? "" : "; or give --arch");
    if (!io->status && d->attainable_gbps > d->peak_gbps)
        cli_fail(io, "--attainable-gbps", "%.6g GB/s is above the peak, %.6g GB/s", d->attainable_gbps, d->peak_gbps);
    return !io->status;
}

/* gpuocc_bandwidth_model on the DRAM constants d, a failure named by the input it comes from (flags: the
   latency's, the warps', the bytes per warp's).  An overflow is blamed on the first input whose replacement
   by a modest value (100 ns, one warp, 128 bytes, a 1024-bit bus, 1000 GB/s) lets the model answer: a latency
   of 1e305 ns names the latency, not the warps. */
static bool dram_model(struct cli_io *io, double warps, double bytes, const struct dram *d, const char *const flags[3],
                       gpuocc_bandwidth_prediction *b)
{
    int32_t rc = gpuocc_bandwidth_model(warps, bytes, d->sm_count, d->latency_ns, d->peak_gbps, d->bus_bits,
                                        d->attainable_gbps, b);
    const char *blamed = !(bytes > 0) ? flags[2] : flags[1];
    if (rc == GPUOCC_ERR_OVERFLOW) {
        struct {
            const char *flag;
            double warps, bytes, latency_ns, peak_gbps, bus_bits, attainable_gbps;
        } tries[] = {
            {flags[0], warps, bytes, 100, d->peak_gbps, d->bus_bits, d->attainable_gbps},
            {flags[1], 1, bytes, d->latency_ns, d->peak_gbps, d->bus_bits, d->attainable_gbps},
            {flags[2], warps, 128, d->latency_ns, d->peak_gbps, d->bus_bits, d->attainable_gbps},
            {"--bus-bits", warps, bytes, d->latency_ns, d->peak_gbps, 1024, d->attainable_gbps},
            {"--attainable-gbps", warps, bytes, d->latency_ns, d->peak_gbps, d->bus_bits, 0},
            {"--peak-gbps", warps, bytes, d->latency_ns, 1000, d->bus_bits, 0},
        };
        for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
            gpuocc_bandwidth_prediction probe = {.size = sizeof probe};
            if (gpuocc_bandwidth_model(tries[i].warps, tries[i].bytes, d->sm_count, tries[i].latency_ns,
                                       tries[i].peak_gbps, tries[i].bus_bits, tries[i].attainable_gbps,
                                       &probe) == GPUOCC_OK) {
                blamed = tries[i].flag;
                break;
            }
        }
    }
    return check_status(io, blamed, rc);
}

/* The warp slots of one SM of the --arch device (0 without --arch, or for a name the catalog does not know). */
static int32_t arch_sm_warps(const struct flags *f)
{
    gpuocc_device d = {.size = sizeof d};
    const char *arch = flag(f, "--arch");
    if (!arch || gpuocc_device_lookup(arch, &d) != GPUOCC_OK || d.warp_size < 1)
        return 0;
    return d.max_threads_per_sm / d.warp_size;
}

/*
 * What the hardware holds, beside a verdict that asks for warps: the SM's warp slots, whether the
 * warps given or the warps needed exceed them, and what closes the gap at a full SM instead: `per_warp_at_max`,
 * the in-flight work per warp (independent loads, or bytes) needed with every slot filled.  A --warps-per-sm
 * above the slots is answered with the flag and one stderr line.
 */
static void within_hardware(struct cli_io *io, struct report *r, int32_t sm_warps, double warps, double needed,
                            double in_flight, const char *per_warp_key, const char *per_warp_what)
{
    if (sm_warps <= 0)
        return;
    put_int(r, "max_warps_per_sm", sm_warps);
    put_bool(r, "warps_over_sm", warps > sm_warps);
    put_bool(r, "warps_needed_over_sm", needed > sm_warps);
    put_num(r, per_warp_key, in_flight / sm_warps);
    if (warps > sm_warps)
        fprintf(io->err, "gpuocc %s: --warps-per-sm %.4g is more than one SM holds (%d warps)\n", r->command, warps,
                sm_warps);
    if (needed > sm_warps) {
        size_t used = strlen(r->verdict);
        snprintf(r->verdict + used, sizeof r->verdict - used, "; an SM holds %d warps: at %d, %.3g %s per warp",
                 sm_warps, sm_warps, in_flight / sm_warps, per_warp_what);
    }
}

static int cmd_latency(struct cli_io *io, int argc, char **argv)
{
    struct flags f;
    parse_flags(io, argc, argv, &f);
    if (io->status)
        return io->status;
    FILE *out = io->out;
    gpuocc_perf p;
    bool have = perf_for(io, &f, &p);
    if (io->status)
        return io->status;
    struct report r;
    report_start(&r, "latency");
    double warps = num(io, &f, "--warps-per-sm", 0, true, NONNEG);
    double ilp = num(io, &f, "--ilp", 1, false, ONE);
    if (io->status)
        return io->status;
    /* With --arch and no --throughput-per-cycle the pipe is DRAM, and the verdict comes from the bandwidth model
       (the same as `gpuocc bandwidth`): each warp keeps `ilp` 128-byte warp loads in flight; the latency is
       hidden when the predicted bandwidth reaches 90 % of peak.  Otherwise: Little's law with the numbers
       given. */
    if (have && !flag(&f, "--throughput-per-cycle")) {
        if (flag(&f, "--latency-cycles") && flag(&f, "--latency-ns"))
            return cli_fail(io, "--latency-ns", "the DRAM latency twice: give --latency-cycles or --latency-ns");
        struct dram d;
        if (!dram_for(io, &f, &p, have, &d))
            return io->status;
        /* --latency-cycles: cycles of the product's clock (echoed as given, not read back from ns) */
        double cycles = d.latency_ns * d.clock_mhz * 1e-3;
        if (flag(&f, "--latency-cycles")) {
            cycles = number(io, "--latency-cycles", flag(&f, "--latency-cycles"), POS);
            d.latency_ns = cycles / d.clock_mhz * 1e3;
        }
        gpuocc_bandwidth_prediction b = {.size = sizeof b};
        const char *const flags[3] = {flag(&f, "--latency-cycles") ? "--latency-cycles" : "--latency-ns",
                                      "--warps-per-sm", "--ilp"};
        if (io->status || !dram_model(io, warps, 128 * ilp, &d, flags, &b))
            return io->status;
        double thru = d.peak_gbps * 1e3 / (d.clock_mhz * d.sm_count * 128); /* warp loads per cycle per SM */
        bool hidden = b.fraction_of_attainable >= 0.9;
        put_text(&r, "model", "loaded");
        put_text(&r, "arch", flag(&f, "--arch"));
        put_num(&r, "warps_per_sm", warps);
        put_num(&r, "latency_cycles", cycles);
        put_num(&r, "throughput_per_cycle", thru);
        put_num(&r, "ilp", ilp);
        put_num(&r, "in_flight", b.warps_for_90 * ilp);
        put_num(&r, "warps_needed", b.warps_for_90);
        put_num(&r, "extra_warps", hidden ? 0 : b.warps_for_90 - warps);
        put_num(&r, "ilp_needed", warps > 0 ? b.warps_for_90 * ilp / warps : INFINITY);
        put_int(&r, "sm_count", d.sm_count);
        put_num(&r, "peak_gbps", d.peak_gbps);
        put_num(&r, "latency_ns", d.latency_ns);
        put_num(&r, "bandwidth_gbps", b.bandwidth_gbps);
        put_num(&r, "fraction_of_peak", b.fraction_of_peak);
        put_num(&r, "attainable_gbps", b.attainable_gbps);
        put_num(&r, "fraction_of_attainable", b.fraction_of_attainable);
        put_num(&r, "dram_bytes_in_flight_per_sm", b.bytes_in_flight_per_sm);
        if (p.bytes_in_flight_target > 0)
            put_num(&r, "cub_bytes_in_flight_target_per_sm", p.bytes_in_flight_target);
        if (hidden)
            snprintf(r.verdict, sizeof r.verdict, "latency hidden: %.4g warps reach %.0f %% of the attainable DRAM "
                     "bandwidth (>= 90 %%); more occupancy gains at most %.0f %%", warps, 100 * b.fraction_of_attainable,
                     100 * (1 / b.fraction_of_attainable - 1));
        else
            snprintf(r.verdict, sizeof r.verdict, "latency exposed: %.4g warps reach %.0f %% of the attainable DRAM "
                     "bandwidth; 90 %% needs %.4g warps (add %.4g), or %.3g independent 128-byte loads in flight per warp",
                     warps, 100 * b.fraction_of_attainable, b.warps_for_90, b.warps_for_90 - warps,
                     warps > 0 ? b.warps_for_90 * ilp / warps : INFINITY);
        within_hardware(io, &r, arch_sm_warps(&f), warps, hidden ? 0 : b.warps_for_90, b.warps_for_90 * ilp,
                        "ilp_at_max_warps", "128-byte loads in flight (ILP, or wider loads)");
        print_report(out, &r, f.json);
        return io->status;
    }
    static const char *const dram_only[] = {"--peak-gbps", "--latency-ns", "--sm-count", "--bus-bits",
                                            "--attainable-gbps"};
    if (!refuse(io, &f, dram_only, 5, have ? "feeds the DRAM bandwidth model (--arch without --throughput-per-cycle); "
                                             "Little's law with --throughput-per-cycle does not read it"
                                           : "feeds the DRAM bandwidth model, which needs --arch (and no "
                                             "--throughput-per-cycle); Little's law does not read it"))
        return io->status;
    double latency = num_or_table(io, &f, "--latency-cycles", have ? p.dram_latency_cycles : 0, POS);
    double throughput = num_or_table(io, &f, "--throughput-per-cycle", 0, POS);
    if (io->status)
        return io->status;
    gpuocc_latency_verdict v = {.size = sizeof v};
    if (!check_status(io, "--latency-cycles", gpuocc_latency_check(warps, latency, throughput, ilp, &v)))
        return io->status;
    put_text(&r, "model", "little");
    if (have)
        put_text(&r, "arch", flag(&f, "--arch"));
    put_num(&r, "warps_per_sm", warps);
    put_num(&r, "latency_cycles", latency);
    put_num(&r, "throughput_per_cycle", throughput);
    put_num(&r, "ilp", ilp);
    put_num(&r, "in_flight", v.in_flight);
    put_num(&r, "warps_needed", v.warps_needed);
    put_num(&r, "extra_warps", v.extra_warps);
    put_num(&r, "ilp_needed", v.ilp_needed);
    if (v.hidden)
        snprintf(r.verdict, sizeof r.verdict, "latency hidden: %.4g warps resident >= %.4g needed; more occupancy "
                 "will not help", warps, v.warps_needed);
    else
        snprintf(r.verdict, sizeof r.verdict, "latency exposed: add %.4g warps, or keep %.4g independent "
                 "instructions in flight per warp", v.extra_warps, v.ilp_needed);
    within_hardware(io, &r, have ? arch_sm_warps(&f) : 0, warps, v.hidden ? 0 : v.warps_needed, v.in_flight,
                    "ilp_at_max_warps", "independent instructions");
    print_report(out, &r, f.json);
    return io->status;
}

static int cmd_bandwidth(struct cli_io *io, int argc, char **argv)
{
    struct flags f;
    parse_flags(io, argc, argv, &f);
    if (io->status)
        return io->status;
    gpuocc_perf p;
    bool have = perf_for(io, &f, &p);
    if (io->status)
        return io->status;
    double warps = num(io, &f, "--warps-per-sm", 0, true, NONNEG);
    double bytes = io->status ? 0 : num(io, &f, "--bytes-per-warp", 0, true, POS);
    struct dram d;
    if (io->status || !dram_for(io, &f, &p, have, &d))
        return io->status;
    gpuocc_bandwidth_prediction b = {.size = sizeof b};
    static const char *const flags[3] = {"--latency-ns", "--warps-per-sm", "--bytes-per-warp"};
    if (!dram_model(io, warps, bytes, &d, flags, &b))
        return io->status;
    struct report r;
    report_start(&r, "bandwidth");
    if (flag(&f, "--arch"))
        put_text(&r, "arch", flag(&f, "--arch"));
    put_num(&r, "warps_per_sm", warps);
    put_num(&r, "bytes_per_warp", bytes);
    put_int(&r, "sm_count", d.sm_count);
    put_num(&r, "peak_gbps", d.peak_gbps);
    put_num(&r, "latency_ns", d.latency_ns);
    put_num(&r, "loaded_latency_ns", b.loaded_latency_ns);
    put_num(&r, "bytes_in_flight_per_sm", b.bytes_in_flight_per_sm);
    put_num(&r, "bandwidth_gbps", b.bandwidth_gbps);
    put_num(&r, "fraction_of_peak", b.fraction_of_peak);
    put_num(&r, "warps_for_80", b.warps_for_80);
    put_num(&r, "warps_for_90", b.warps_for_90);
    put_num(&r, "warps_for_95", b.warps_for_95);
    /* the law's other inputs, and where the table's came from */
    put_num(&r, "bus_bits", b.bus_bits);
    put_num(&r, "pin_rate_gbps", b.pin_rate_gbps);
    put_num(&r, "attainable_gbps", b.attainable_gbps);
    put_num(&r, "fraction_of_attainable", b.fraction_of_attainable);
    put_num(&r, "queue_service_ns", b.queue_service_ns);
    put_num(&r, "light_load_ratio", GPUOCC_LOADED_LATENCY_BASE);
    put_num(&r, "queue_bits", GPUOCC_DRAM_QUEUE_BITS);
    put_text(&r, "memory_type", have && p.dram_memory[0] && !flag(&f, "--bus-bits") ? p.dram_memory : "");
    put_text(&r, "latency_from", flag(&f, "--latency-ns") ? "flag" : p.dram_latency_own ? "product" : "architecture");
    put_text(&r, "attainable_from", flag(&f, "--attainable-gbps") ? "flag" : d.attainable_gbps > 0 ? "measured" : "peak");
    put_text(&r, "constants_source", have ? p.dram_source : "");
    snprintf(r.verdict, sizeof r.verdict, "%.0f GB/s, %.0f %% of peak (%.0f %% of the attainable %.0f GB/s); %.4g / %.4g "
             "/ %.4g warps per SM (at %.6g bytes each) reach 80 / 90 / 95 %% of the attainable", b.bandwidth_gbps,
             100 * b.fraction_of_peak, 100 * b.fraction_of_attainable, b.attainable_gbps, b.warps_for_80,
             b.warps_for_90, b.warps_for_95, bytes);
    within_hardware(io, &r, arch_sm_warps(&f), warps, b.warps_for_90, b.warps_for_90 * bytes,
                    "bytes_per_warp_at_max_warps", "bytes in flight (ILP, or wider loads)");
    print_report(io->out, &r, f.json);
    return io->status;
}

/* ---- spill ---- */

static int cmd_spill(struct cli_io *io, int argc, char **argv)
{
    struct flags f;
    parse_flags(io, argc, argv, &f);
    if (io->status)
        return io->status;
    FILE *out = io->out;
    struct report r;
    report_start(&r, "spill");
    static const char *const traffic[] = {"--spill-loads", "--spill-stores", "--executions", "--grid-threads",
                                          "--access-bytes", "--l1-hit-rate", "--l2-hit-rate", "--sm-count",
                                          "--l2-bandwidth-gbps", "--dram-bandwidth-gbps", "--sm-clock-mhz", "--arch"};
    static const char *const loop[] = {"--spill-accesses", "--spill-latency-cycles"};
    if (flag(&f, "--work-cycles")) {
        if (!refuse(io, &f, traffic, sizeof traffic / sizeof traffic[0],
                    "feeds the traffic model (--spill-loads ...); the loop model (--work-cycles) does not read it"))
            return io->status;
        double work = num(io, &f, "--work-cycles", 0, true, POS);
        double acc = num(io, &f, "--spill-accesses", 0, true, NONNEG);
        double lat = num(io, &f, "--spill-latency-cycles", 0, true, NONNEG), s;
        if (!check_status(io, "--work-cycles", gpuocc_spill_slowdown(work, acc, lat, &s)))
            return io->status;
        put_num(&r, "work_cycles", work);
        put_num(&r, "spill_accesses", acc);
        put_num(&r, "spill_latency_cycles", lat);
        put_num(&r, "slowdown", s);
        snprintf(r.verdict, sizeof r.verdict, "%s: the loop runs %.3gx %s", s > 1.05 ? "spilling hurts" : "spilling is cheap",
                 s, s > 1.05 ? "slower; keep the registers unless the extra occupancy is needed" : "slower");
        print_report(out, &r, f.json);
        return io->status;
    }
    if (!refuse(io, &f, loop, 2, "feeds the loop model, which needs --work-cycles; the traffic model does not read it"))
        return io->status;
    gpuocc_perf p;
    bool have = perf_for(io, &f, &p);
    gpuocc_spill_input in;
    gpuocc_spill_input_init(&in);
    in.spill_load_bytes = num(io, &f, "--spill-loads", 0, true, NONNEG);
    in.spill_store_bytes = num(io, &f, "--spill-stores", 0, true, NONNEG);
    in.executions = num(io, &f, "--executions", 1, false, NONNEG);
    in.access_bytes = num(io, &f, "--access-bytes", 4, false, POS);
    in.l1_hit_rate = num(io, &f, "--l1-hit-rate", 0.9, false, FRAC);
    in.l2_hit_rate = num(io, &f, "--l2-hit-rate", 1, false, FRAC);
    in.sm_count = sm_count_for(io, &f, &p, have);
    if (in.sm_count < 1)
        cli_fail(io, "--sm-count", "required (or --arch with a product)");
    in.threads = num(io, &f, "--grid-threads", 0, true, NONNEG);
    /* GB/s and MHz as the device table (gpuocc_perf) names them */
    double l2_gbps = num_or_table(io, &f, "--l2-bandwidth-gbps", have ? p.l2_bandwidth_gbps : 0, POS);
    double dram_gbps = num_or_table(io, &f, "--dram-bandwidth-gbps", have ? p.dram_bandwidth_gbps : 0, POS);
    double clock_mhz = num_or_table(io, &f, "--sm-clock-mhz", have ? p.sm_clock_mhz : 0, POS);
    in.l2_bandwidth_bytes_per_s = l2_gbps * 1e9;
    in.dram_bandwidth_bytes_per_s = dram_gbps * 1e9;
    in.clock_hz = clock_mhz * 1e6;
    gpuocc_spill_cost c = {.size = sizeof c};
    if (!check_status(io, "spill", gpuocc_spill_estimate(&in, &c)))
        return io->status;
    if (have)
        put_text(&r, "arch", flag(&f, "--arch"));
    put_num(&r, "spill_loads", in.spill_load_bytes);
    put_num(&r, "spill_stores", in.spill_store_bytes);
    put_num(&r, "executions", in.executions);
    put_num(&r, "grid_threads", in.threads);
    put_num(&r, "access_bytes", in.access_bytes);
    put_num(&r, "l1_hit_rate", in.l1_hit_rate);
    put_num(&r, "l2_hit_rate", in.l2_hit_rate);
    put_int(&r, "sm_count", in.sm_count);
    put_num(&r, "l2_bandwidth_gbps", l2_gbps);
    put_num(&r, "dram_bandwidth_gbps", dram_gbps);
    put_num(&r, "sm_clock_mhz", clock_mhz);
    put_num(&r, "local_bytes", c.local_bytes);
    put_num(&r, "instructions", c.instructions);
    put_num(&r, "issue_us", c.issue_s * 1e6);
    put_num(&r, "l2_us", c.l2_s * 1e6);
    put_num(&r, "dram_us", c.dram_s * 1e6);
    put_num(&r, "spill_us", c.spill_s * 1e6);
    const char *bound = c.spill_s == c.issue_s ? "load/store issue" : c.spill_s == c.l2_s ? "L2 bandwidth" : "DRAM bandwidth";
    snprintf(r.verdict, sizeof r.verdict, "spills cost about %.3g us, bound by %s", c.spill_s * 1e6, bound);
    print_report(out, &r, f.json);
    return io->status;
}

/* ---- tradeoff ---- */

static int cmd_tradeoff(struct cli_io *io, int argc, char **argv)
{
    struct cli_launch l;
    cli_launch_init(&l);
    struct flags f;
    parse_launch_flags(io, argc, argv, &f, &l);
    if (io->status || !cli_launch_check(io, &l))
        return io->status;
    FILE *out = io->out;
    if (!l.have_arch)
        return cli_fail(io, "--arch", "required");
    if (!l.have_threads)
        return cli_fail(io, "--threads", "required");
    if (cli_is_intel(&l.dev)) /* a register cap per thread: Intel chooses a GRF mode instead (docs/intel.md) */
        return cli_fail(io, "--arch", "%s is an Intel device: register caps are NVIDIA's and AMD's (Intel's GRF "
                        "modes: gpuocc sweep --axis grf)", l.dev_name);
    if (!l.have_regs)
        return cli_fail(io, cli_is_amd(&l.dev) ? "--vgprs" : "--regs", "required");
    const gpuocc_device *dev = &l.dev;
    const gpuocc_kernel *k = &l.k;
    double work = num(io, &f, "--work-cycles", 256, false, POS);
    double per_reg = num(io, &f, "--spill-accesses-per-reg", 0.1, false, NONNEG);
    double lat = num(io, &f, "--spill-latency-cycles", 300, false, NONNEG);
    gpuocc_result now = {.size = sizeof now};
    if (!check_status(io, "input", gpuocc_occupancy(dev, k, &now)))
        return io->status;
    gpuocc_tradeoff_step steps[64];
    int32_t n = 0;
    int32_t rc = gpuocc_tradeoff(dev, k, work, per_reg, lat, steps, 64, &n);
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER)
        if (!check_status(io, "--work-cycles", rc))
            return io->status;
    double needed = num(io, &f, "--warps-needed", 0, false, NONNEG);
    if (io->status)
        return io->status;
    if (f.json) {
        /* the inputs under their flags' names (one vocabulary: docs/vocabulary.md), then today's occupancy */
        struct report in;
        report_start(&in, "tradeoff");
        put_text(&in, "arch", l.dev_name);
        put_int(&in, "threads", k->threads_per_block);
        put_int(&in, "regs", k->regs_per_thread);
        put_int(&in, "smem_static", k->smem_static_bytes);
        put_int(&in, "smem_dynamic", k->smem_dynamic_bytes);
        bool amd = cli_is_amd(dev); /* NVIDIA's launch fields are null on AMD, as in `gpuocc report` */
        put_num(&in, "barriers", amd ? NAN : k->barriers);
        put_num(&in, "carveout", amd ? NAN : k->carveout_percent);
        put_num(&in, "smem_optin", amd ? NAN : k->smem_optin);
        /* and AMD's, null on NVIDIA, as in `gpuocc report` */
        put_num(&in, "agprs", amd ? k->agprs : NAN);
        put_num(&in, "sgprs", amd && k->sgprs ? k->sgprs : NAN); /* 0: not given */
        put_num(&in, "wave_size", amd ? (k->wave_size ? k->wave_size : dev->warp_size) : NAN);
        put_num(&in, "cu_mode", amd ? k->cu_mode : NAN);
        put_num(&in, "max_threads", k->max_threads_per_block ? k->max_threads_per_block : NAN); /* every vendor's */
        if (amd)
            put_text(&in, "model", cli_amd_model_name(now.model));
        else
            put_num(&in, "model", NAN);
        char rocm[16];
        snprintf(rocm, sizeof rocm, "%d.%d", k->rocm_version / 100, k->rocm_version % 100);
        if (amd && k->rocm_version)
            put_text(&in, "rocm", rocm);
        else
            put_num(&in, "rocm", NAN);
        put_num(&in, "work_cycles", work);
        put_num(&in, "spill_accesses_per_reg", per_reg);
        put_num(&in, "spill_latency_cycles", lat);
        put_num(&in, "warps_needed", flag(&f, "--warps-needed") ? needed : NAN); /* null: not given */
        bool first = true;
        json_items(out, &in, &first);
        fprintf(out, ",\"blocks_per_sm\":%d,\"occupancy\":%.6f,", now.blocks_per_sm, now.occupancy);
        /* the input over a limit today, as `gpuocc report` names it (the library names none while a block fits) */
        if (now.exceeded != GPUOCC_INPUT_NONE)
            fprintf(out, "\"exceeded\":\"%s\",\"exceeded_limit\":%lld,", gpuocc_input_name(now.exceeded),
                    (long long)now.exceeded_limit);
        else
            fputs("\"exceeded\":null,\"exceeded_limit\":null,", out);
        fputs("\"steps\":[", out);
        for (int32_t i = 0; i < n && i < 64; i++)
            fprintf(out, "%s{\"regs\":%d,\"regs_shed\":%d,\"blocks_per_sm\":%d,\"warps_per_sm\":%d,"
                   "\"occupancy\":%.6f,\"spill_slowdown\":%.6g}",
                   i ? "," : "", steps[i].regs_per_thread, steps[i].regs_shed, steps[i].blocks_per_sm,
                   steps[i].warps_per_sm, steps[i].occupancy, steps[i].spill_slowdown);
        fprintf(out, "],");
    } else {
        fprintf(out, "now: %d registers, %d blocks/SM, %d warps, %.1f %% occupancy\n", k->regs_per_thread, now.blocks_per_sm,
               now.warps_per_sm, 100 * now.occupancy);
        fprintf(out, "%8s %6s %7s %6s %10s %9s\n", "cap", "shed", "blocks", "warps", "occupancy", "slowdown");
        for (int32_t i = 0; i < n && i < 64; i++)
            fprintf(out, "%8d %6d %7d %6d %9.1f%% %8.3gx\n", steps[i].regs_per_thread, steps[i].regs_shed,
                   steps[i].blocks_per_sm, steps[i].warps_per_sm, 100 * steps[i].occupancy, steps[i].spill_slowdown);
    }
    /* keep, unless more warps are needed to hide latency and the first step that supplies them gains
       more (warps ratio) than its spills cost */
    char verdict[320], why[256];
    /* a launch no register cap lets run (over another limit): not "keep", it cannot run at all; the exit
       status says so, as `gpuocc report`'s does */
    bool cannot_run = now.blocks_per_sm == 0 && n == 0;
    if (cannot_run) {
        const char *named = cli_exceeded(dev, k, &now, why, sizeof why);
        snprintf(verdict, sizeof verdict, "cannot run, and no register cap changes that%s%s", named ? ": " : "",
                 named ? why : "");
    } else if (n == 0)
        snprintf(verdict, sizeof verdict, "keep: no register cap raises occupancy");
    else if (needed > 0 && now.warps_per_sm >= needed)
        snprintf(verdict, sizeof verdict, "keep: %d warps already hide the latency (%.4g needed)", now.warps_per_sm,
                 needed);
    else {
        int32_t pick = -1;
        for (int32_t i = 0; i < n && i < 64 && pick < 0; i++)
            if (needed <= 0 || steps[i].warps_per_sm >= needed || i == n - 1)
                pick = i;
        double gain = fmin(steps[pick].warps_per_sm, needed > 0 ? needed : steps[pick].warps_per_sm) /
                      fmax(1, now.warps_per_sm);
        if (gain > steps[pick].spill_slowdown)
            snprintf(verdict, sizeof verdict, "cap at %d registers: %.2fx more useful warps outweigh a %.3gx spill cost",
                     steps[pick].regs_per_thread, gain, steps[pick].spill_slowdown);
        else
            snprintf(verdict, sizeof verdict, "keep: capping at %d registers gains at most %.2fx in warps but spills "
                     "cost %.3gx", steps[pick].regs_per_thread, gain, steps[pick].spill_slowdown);
    }
    if (f.json) {
        fprintf(out, "\"verdict\":");
        json_string(out, verdict);
        fprintf(out, "}\n");
    } else
        fprintf(out, "verdict: %s\n", verdict);
    if (cannot_run && !io->status)
        cli_problem(io, "launch", "%s", verdict);
    return io->status;
}

/* ---- waves ---- */

static int cmd_waves(struct cli_io *io, int argc, char **argv)
{
    struct flags f;
    parse_flags(io, argc, argv, &f);
    if (io->status)
        return io->status;
    FILE *out = io->out;
    struct report r;
    report_start(&r, "waves");
    gpuocc_perf p;
    bool have = perf_for(io, &f, &p);
    if (!flag(&f, "--grid-blocks"))
        return cli_fail(io, "--grid-blocks", "required");
    if (!flag(&f, "--blocks-per-sm"))
        return cli_fail(io, "--blocks-per-sm", "required");
    int64_t grid;
    if (!cli_try_int(flag(&f, "--grid-blocks"), 1, INT64_MAX, &grid))
        cli_fail(io, "--grid-blocks", "expected a positive integer, got '%s'", flag(&f, "--grid-blocks"));
    int32_t bps = cli_int(io, "--blocks-per-sm", flag(&f, "--blocks-per-sm"), 1, INT32_MAX);
    int32_t sms = sm_count_for(io, &f, &p, have);
    if (sms < 1)
        cli_fail(io, "--sm-count", "required (or --arch with a product)");
    gpuocc_waves_result w = {.size = sizeof w};
    if (!check_status(io, "--grid-blocks", gpuocc_waves(grid, sms, bps, &w)))
        return io->status;
    if (have)
        put_text(&r, "arch", flag(&f, "--arch"));
    put_int(&r, "grid_blocks", grid);
    put_int(&r, "sm_count", sms);
    put_int(&r, "blocks_per_sm", bps);
    put_int(&r, "blocks_per_wave", w.blocks_per_wave);
    put_int(&r, "full_waves", w.full_waves);
    put_int(&r, "waves", w.waves);
    put_int(&r, "last_wave_blocks", w.last_wave_blocks);
    put_num(&r, "last_wave_utilization", w.last_wave_utilization);
    put_num(&r, "efficiency", w.efficiency);
    put_int(&r, "grid_down", w.grid_down);
    put_int(&r, "grid_up", w.grid_up);
    put_int(&r, "persistent_grid", w.blocks_per_wave);
    if (w.last_wave_utilization < 1)
        snprintf(r.verdict, sizeof r.verdict, "tail: the last wave is %.1f %% full; %.1f %% of the machine's time "
                 "is used; a grid of %lld or %lld has no tail", 100 * w.last_wave_utilization, 100 * w.efficiency,
                 (long long)w.grid_down, (long long)w.grid_up);
    else
        snprintf(r.verdict, sizeof r.verdict, "no tail: %lld full waves", (long long)w.waves);
    print_report(out, &r, f.json);
    return io->status;
}

/* ---- divergence ---- */

static int cmd_divergence(struct cli_io *io, int argc, char **argv)
{
    struct flags f;
    parse_flags(io, argc, argv, &f);
    if (io->status)
        return io->status;
    FILE *out = io->out;
    struct report r;
    report_start(&r, "divergence");
    static const char *const routed[] = {"--items"};
    if (!flag(&f, "--experts") && !refuse(io, &f, routed, 1, "the items routed to --experts: give --experts too"))
        return io->status;
    int32_t warp = flag(&f, "--warp-size") ? cli_int(io, "--warp-size", flag(&f, "--warp-size"), 1, 1024) : 32;
    bool any = false;
    r.verdict[0] = '\0';
    put_int(&r, "warp_size", warp);
    if (flag(&f, "--threads")) {
        int32_t t = cli_int(io, "--threads", flag(&f, "--threads"), 1, INT32_MAX);
        double e;
        if (!check_status(io, "--threads", gpuocc_lane_efficiency(t, warp, &e)))
            return io->status;
        put_int(&r, "threads", t);
        put_num(&r, "lane_efficiency", e);
        snprintf(r.verdict, sizeof r.verdict, "%.2f %% of lanes do work%s", 100 * e,
                 e < 1 ? "; use a multiple of the warp size" : "");
        any = true;
    }
    if (flag(&f, "--paths")) {
        /* "lanes:cost,lanes:cost,...", any length: each path parsed in place, none dropped */
        const char *spec = flag(&f, "--paths");
        size_t cap = 1;
        for (const char *c = spec; *c; c++)
            cap += *c == ',';
        if (cap > INT32_MAX)
            return cli_fail(io, "--paths", "too many paths");
        int32_t *lanes = malloc(cap * sizeof *lanes);
        double *cost = malloc(cap * sizeof *cost);
        char *tok = malloc(strlen(spec) + 1);
        int32_t n = 0;
        for (const char *p = spec; lanes && cost && tok && !io->status; n++) {
            size_t len = strcspn(p, ",");
            memcpy(tok, p, len);
            tok[len] = '\0';
            char *colon = strchr(tok, ':');
            if (!colon) {
                cli_fail(io, "--paths", "path %d: expected lanes:cost, got '%s'", n + 1, tok);
                break;
            }
            *colon = '\0';
            lanes[n] = cli_int(io, "--paths", tok, 1, 1024);
            cost[n] = number(io, "--paths", colon + 1, NONNEG);
            if (!p[len]) {
                n++;
                break;
            }
            p += len + 1;
        }
        if (!(lanes && cost && tok) && !io->status)
            cli_fail(io, "--paths", "out of memory");
        double serial = 0, eff = 0;
        bool ok = !io->status && check_status(io, "--paths", gpuocc_divergence(lanes, cost, n, warp, &serial, &eff));
        free(lanes);
        free(cost);
        free(tok);
        if (!ok)
            return io->status;
        put_int(&r, "paths", n);
        put_num(&r, "serialized_cycles", serial);
        put_num(&r, "simt_efficiency", eff);
        put_num(&r, "thread_inst_per_inst", eff * warp);
        snprintf(r.verdict, sizeof r.verdict, "%d path(s) run one after another: %.1f %% SIMT efficiency", n,
                 100 * eff);
        any = true;
    }
    if (flag(&f, "--experts")) {
        int32_t e = cli_int(io, "--experts", flag(&f, "--experts"), 1, 1 << 20);
        int64_t items = 1024;
        if (flag(&f, "--items") && !cli_try_int(flag(&f, "--items"), 1, INT64_MAX, &items))
            cli_fail(io, "--items", "expected a positive integer");
        gpuocc_routing_result rr = {.size = sizeof rr};
        if (!check_status(io, "--experts", gpuocc_routing(e, items, warp, &rr)))
            return io->status;
        put_int(&r, "experts", e);
        put_int(&r, "items", items);
        put_num(&r, "random_paths_per_warp", rr.random_paths);
        put_num(&r, "random_simt_efficiency", rr.random_efficiency);
        put_num(&r, "sorted_paths_per_warp", rr.sorted_paths);
        put_num(&r, "sorted_simt_efficiency", rr.sorted_efficiency);
        snprintf(r.verdict, sizeof r.verdict, "random routing runs %.2f paths per warp (%.1f %% efficient); sorting "
                 "by path gives %.1f %%", rr.random_paths, 100 * rr.random_efficiency, 100 * rr.sorted_efficiency);
        any = true;
    }
    if (!any)
        return cli_fail(io, "--threads", "give --threads, --paths or --experts");
    print_report(out, &r, f.json);
    return io->status;
}

/* ---- roofline ---- */

static int cmd_roofline(struct cli_io *io, int argc, char **argv)
{
    struct flags f;
    parse_flags(io, argc, argv, &f);
    if (io->status)
        return io->status;
    FILE *out = io->out;
    gpuocc_perf p;
    bool have = perf_for(io, &f, &p);
    struct report r;
    report_start(&r, "roofline");
    double flops = num(io, &f, "--flops", 0, true, NONNEG), bytes = num(io, &f, "--bytes", 0, true, POS);
    double peak_gflops = num(io, &f, "--peak-gflops", 0, true, POS);
    double peak_gbps = num_or_table(io, &f, "--peak-gbps", have ? p.dram_bandwidth_gbps : 0, POS);
    double ai, ridge, attain;
    int32_t compute;
    if (!check_status(io, "--flops", gpuocc_roofline(flops, bytes, peak_gflops * 1e9, peak_gbps * 1e9, &ai,
                                                                &ridge, &attain, &compute)))
        return io->status;
    if (have)
        put_text(&r, "arch", flag(&f, "--arch"));
    put_num(&r, "flops", flops);
    put_num(&r, "bytes", bytes);
    put_num(&r, "peak_gflops", peak_gflops);
    put_num(&r, "peak_gbps", peak_gbps);
    put_num(&r, "intensity_flop_per_byte", ai);
    put_num(&r, "ridge_flop_per_byte", ridge);
    put_num(&r, "attainable_gflops", attain / 1e9);
    put_text(&r, "bound", compute ? "compute" : "memory");
    snprintf(r.verdict, sizeof r.verdict, "%s bound: %.3g FLOP/B %s the ridge at %.3g; at most %.4g GFLOP/s",
             compute ? "compute" : "memory", ai, compute ? "is past" : "is below", ridge, attain / 1e9);
    print_report(out, &r, f.json);
    return io->status;
}

/* ---- diagnose ---- */

static int cmd_diagnose(struct cli_io *io, int argc, char **argv)
{
    struct flags f;
    parse_flags(io, argc, argv, &f);
    if (io->status)
        return io->status;
    FILE *out = io->out;
    struct report r;
    report_start(&r, "diagnose");
    const char *name = flag(&f, "--stall");
    /* the reasons the library knows, from its own names */
    char reasons[512] = "";
    for (int32_t i = 0; i < GPUOCC_STALL_COUNT; i++) {
        size_t used = strlen(reasons);
        snprintf(reasons + used, sizeof reasons - used, "%s%s", i ? ", " : "", gpuocc_stall_name(i));
    }
    if (!name)
        return cli_fail(io, "--stall", "required: one of %s", reasons);
    int32_t reason = gpuocc_stall_from_name(name);
    if (reason < 0)
        return cli_fail(io, "--stall", "unknown stall reason '%s'; one of %s", name, reasons);
    /* a fraction (0.375) or a percentage written as one (37.5%); 1.5 is neither */
    const char *text = flag(&f, "--occupancy");
    if (!text)
        return cli_fail(io, "--occupancy", "required");
    size_t len = strlen(text);
    double occ;
    if (len > 1 && text[len - 1] == '%') {
        char pct[64];
        snprintf(pct, sizeof pct, "%.*s", (int)(len - 1), text);
        if (len > sizeof pct || !cli_try_double(pct, &occ) || occ < 0 || occ > 100)
            return cli_fail(io, "--occupancy", "expected a percentage from 0%% to 100%%, got '%s'", text);
        occ /= 100;
    } else if (!cli_try_double(text, &occ) || occ < 0 || occ > 1)
        return cli_fail(io, "--occupancy", "expected a fraction from 0 to 1 (or a percentage like 37.5%%), got '%s'",
                        text);
    const char *meaning, *advice;
    int32_t helps;
    if (!check_status(io, "--occupancy", gpuocc_diagnose(reason, occ, &meaning, &advice, &helps)))
        return io->status;
    put_text(&r, "stall", name);
    put_num(&r, "occupancy", occ);
    put_text(&r, "meaning", meaning);
    put_bool(&r, "occupancy_helps", helps != 0);
    snprintf(r.verdict, sizeof r.verdict, "%s", advice);
    print_report(out, &r, f.json);
    return io->status;
}

/* ---- descriptors ---- */

#define JSON_OPTION {"--json", NULL, "one JSON object instead of text"}
#define END_OPTIONS {NULL, NULL, NULL}

static const struct cli_option latency_options[] = {
    {"--warps-per-sm", "N", "resident warps per SM"},
    {"--latency-cycles", "CYCLES", "latency to hide (with --arch: DRAM latency in the product's cycles)"},
    {"--throughput-per-cycle", "N", "operations the pipe accepts per cycle per SM; without it, --arch means DRAM "
                                    "and the verdict comes from the bandwidth model (gpuocc bandwidth)"},
    {"--ilp", "N", "independent operations in flight per warp (default 1; DRAM: 128-byte warp loads)"},
    {"--arch", "NAME", "a product whose published figures fill the defaults"},
    {"--peak-gbps", "GB/S", "peak DRAM bandwidth (overrides --arch)"},
    {"--latency-ns", "NS", "unloaded DRAM latency in nanoseconds (overrides --arch)"},
    {"--sm-count", "N", "SM count (overrides --arch)"},
    {"--bus-bits", "BITS", "DRAM data pins (overrides --arch)"},
    {"--attainable-gbps", "GB/S", "best measured DRAM bandwidth (overrides --arch; default the peak)"},
    JSON_OPTION, END_OPTIONS};

static const struct cli_option bandwidth_options[] = {
    {"--arch", "NAME", "a product (NVIDIA or AMD; AMD: waves per CU): its SM count, DRAM peak, bus width, measured "
                       "ceiling and measured latency"},
    {"--warps-per-sm", "N", "resident warps per SM"},
    {"--bytes-per-warp", "BYTES", "bytes of loads each warp keeps in flight (8-byte loads: 256 per load)"},
    {"--sm-count", "N", "SM count (overrides --arch)"},
    {"--latency-ns", "NS", "unloaded DRAM latency (overrides --arch)"},
    {"--peak-gbps", "GB/S", "peak DRAM bandwidth (overrides --arch and drops its measured ceiling)"},
    {"--bus-bits", "BITS", "DRAM data pins (overrides --arch)"},
    {"--attainable-gbps", "GB/S", "best measured DRAM bandwidth (overrides --arch; default the peak)"},
    JSON_OPTION, END_OPTIONS};

static const struct cli_option spill_options[] = {
    {"--work-cycles", "CYCLES", "cycles of work per iteration (the loop model, with --spill-accesses and "
                                "--spill-latency-cycles)"},
    {"--spill-accesses", "N", "spill accesses per iteration"},
    {"--spill-latency-cycles", "CYCLES", "latency of one spill access"},
    {"--spill-loads", "BYTES", "spill loads per thread, as ptxas and 'gpuocc ptxas' report them (the traffic model)"},
    {"--spill-stores", "BYTES", "spill stores per thread, as ptxas reports them"},
    {"--executions", "N", "times each thread runs the spilling code (default 1)"},
    {"--grid-threads", "N", "threads in the whole launch: blocks x threads per block"},
    {"--access-bytes", "BYTES", "bytes per spill access (default 4)"},
    {"--l1-hit-rate", "FRACTION", "L1 hit rate of spill traffic (default 0.9)"},
    {"--l2-hit-rate", "FRACTION", "L2 hit rate of what misses L1 (default 1)"},
    {"--l2-bandwidth-gbps", "GB/S", "L2 bandwidth (default with --arch: published)"},
    {"--dram-bandwidth-gbps", "GB/S", "DRAM bandwidth (default with --arch: published)"},
    {"--sm-clock-mhz", "MHZ", "SM clock (default with --arch: published)"},
    {"--sm-count", "N", "SM count (default with --arch: published)"},
    {"--arch", "NAME", "a product whose published figures fill the defaults"},
    JSON_OPTION, END_OPTIONS};

static const struct cli_option tradeoff_options[] = {
    CLI_LAUNCH_OPTIONS,
    CLI_AMD_LAUNCH_OPTIONS,
    CLI_INTEL_LAUNCH_OPTIONS,
    {"--work-cycles", "CYCLES", "cycles of work per iteration (default 256)"},
    {"--spill-accesses-per-reg", "N", "spill accesses per shed register per iteration (default 0.1)"},
    {"--spill-latency-cycles", "CYCLES", "latency of one spill access (default 300)"},
    {"--warps-needed", "N", "warps needed to hide latency (from 'gpuocc latency')"},
    JSON_OPTION, END_OPTIONS};

static const struct cli_option waves_options[] = {
    {"--grid-blocks", "N", "blocks in the grid"},
    {"--blocks-per-sm", "N", "resident blocks per SM (from 'gpuocc report')"},
    {"--sm-count", "N", "SM count"},
    {"--arch", "NAME", "a product, for its SM count"},
    JSON_OPTION, END_OPTIONS};

static const struct cli_option divergence_options[] = {
    {"--threads", "N", "threads per block: the share of lanes that do work"},
    {"--paths", "LANES:COST,...", "branch paths taken in one warp, each with its lane count and cost"},
    {"--experts", "N", "paths chosen by routing (mixture of experts)"},
    {"--items", "N", "routed items (default 1024)"},
    {"--warp-size", "N", "lanes per warp (default 32)"},
    JSON_OPTION, END_OPTIONS};

static const struct cli_option roofline_options[] = {
    {"--flops", "N", "floating-point operations"},
    {"--bytes", "N", "bytes moved from memory"},
    {"--peak-gflops", "GFLOP/S", "peak arithmetic throughput"},
    {"--peak-gbps", "GB/S", "peak memory bandwidth (default with --arch: DRAM, published)"},
    {"--arch", "NAME", "a product whose published figures fill the defaults"},
    JSON_OPTION, END_OPTIONS};

static const struct cli_option diagnose_options[] = {
    {"--stall", "REASON", "dominant stall reason: long_scoreboard, short_scoreboard, barrier, mio_throttle, "
                          "lg_throttle, math_pipe_throttle, not_selected, no_instruction"},
    {"--occupancy", "FRACTION", "achieved occupancy, 0-1 (or a percentage written 37.5%)"},
    JSON_OPTION, END_OPTIONS};

const struct cli_command cli_cmd_latency = {
    "latency", cmd_latency, "Little's law: are the resident warps enough to hide a latency at a throughput",
    "--warps-per-sm N (--latency-cycles C --throughput-per-cycle N | --arch NAME) [options]", latency_options,
    "gpuocc latency --warps-per-sm 32 --latency-cycles 400 --throughput-per-cycle 4 --ilp 2\n"
    "gpuocc latency --arch A100 --warps-per-sm 32\n"};

const struct cli_command cli_cmd_bandwidth = {
    "bandwidth", cmd_bandwidth, "DRAM bandwidth a streaming kernel reaches with W warps of B bytes in flight",
    "--warps-per-sm N --bytes-per-warp B (--arch NAME | --sm-count N --latency-ns NS --peak-gbps GB/S --bus-bits "
    "BITS [--attainable-gbps GB/S]) [--json]",
    bandwidth_options,
    "gpuocc bandwidth --arch A100 --warps-per-sm 32 --bytes-per-warp 256\n"
    "gpuocc bandwidth --arch A100 --warps-per-sm 32 --bytes-per-warp 1024 --json\n"};

const struct cli_command cli_cmd_spill = {
    "spill", cmd_spill, "spill cost: a loop's slowdown, or ptxas spill bytes through L1/L2/DRAM",
    "--work-cycles C --spill-accesses N --spill-latency-cycles C  |  --spill-loads B --spill-stores B "
    "--grid-threads N --arch NAME",
    spill_options,
    "gpuocc spill --work-cycles 256 --spill-accesses 2 --spill-latency-cycles 300\n"
    "gpuocc spill --arch A100 --spill-loads 8 --spill-stores 8 --grid-threads 1048576\n"};

const struct cli_command cli_cmd_tradeoff = {
    "tradeoff", cmd_tradeoff, "register caps that raise occupancy, and what their spills would cost",
    "--arch NAME --threads N --regs N [options]", tradeoff_options,
    "gpuocc tradeoff --arch A100 --threads 256 --regs 128\n"
    "gpuocc tradeoff --arch H100 --threads 128 --regs 96 --warps-needed 40 --json\n"};

const struct cli_command cli_cmd_waves = {
    "waves", cmd_waves, "waves and the tail of a grid at a number of blocks per SM",
    "--grid-blocks N --blocks-per-sm N (--sm-count N | --arch NAME) [--json]", waves_options,
    "gpuocc waves --grid-blocks 300 --sm-count 132 --blocks-per-sm 2\n"
    "gpuocc waves --grid-blocks 1000000 --arch H100 --blocks-per-sm 4 --json\n"};

const struct cli_command cli_cmd_divergence = {
    "divergence", cmd_divergence, "lane efficiency, branch paths, expert routing: how much of each warp works",
    "(--threads N | --paths LANES:COST,... | --experts N) [options]", divergence_options,
    "gpuocc divergence --threads 100\n"
    "gpuocc divergence --paths 16:10,16:10\n"
    "gpuocc divergence --experts 8 --items 4096\n"};

const struct cli_command cli_cmd_roofline = {
    "roofline", cmd_roofline, "compute or memory bound: arithmetic intensity against the ridge point",
    "--flops N --bytes N --peak-gflops GFLOP/S (--peak-gbps GB/S | --arch NAME) [--json]", roofline_options,
    "gpuocc roofline --flops 2 --bytes 12 --peak-gflops 19500 --peak-gbps 2039\n"};

const struct cli_command cli_cmd_diagnose = {
    "diagnose", cmd_diagnose, "what a dominant stall reason means at an occupancy, and what to try first",
    "--stall REASON --occupancy FRACTION [--json]", diagnose_options,
    "gpuocc diagnose --stall long_scoreboard --occupancy 0.25\n"};
