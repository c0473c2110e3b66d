/*
 * gpuocc plot: occupancy curves as an SVG a person can read (or Unicode blocks in a terminal).
 *
 * Occupancy panels (threads, registers, shared memory, barriers): a step line, one horizontal segment per
 * sweep point centred on its value, coloured by the limiting resource (ties: the members' colours in
 * alternating dashes), the current launch marked.  Model panels: the register-cap trade-off (occupancy and
 * spill slowdown against the cap) and DRAM bandwidth against warps per SM.  The SVG uses SVG 1.1 elements
 * and attributes only, generic font families, no script; it is written for 800 px wide.  Axis ticks carry
 * the values they label, so the plotted points can be read back from the picture (tests/test_plot.py).
 */
#include "cli.h"
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 800
#define LEFT 78     /* plot area left edge: room for the y tick labels and the rotated label */
#define RIGHT_PAD 24
#define RIGHT_AXIS 72 /* right margin when a second y axis is drawn */
#define PANEL_H 290 /* one panel: title 26, plot 200, ticks and x label 64 */
#define PLOT_H 200
#define HEADER_H 112 /* title, launch and answer lines, legend */

/* Okabe & Ito's colour-blind-safe palette, one colour per resource (GPUOCC_RESOURCE_* order). */
static const char *const resource_colour[GPUOCC_RESOURCE_COUNT] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                                   "#D55E00"};
static const char *const resource_label[GPUOCC_RESOURCE_COUNT] = {"warp slots", "registers", "shared memory",
                                                                  "block slots", "barriers"};

struct plot {
    FILE *out;
    struct cli_launch l;
    char arch[16];
    gpuocc_result now;
    uint32_t sets_seen[32]; /* the limiter sets drawn, for the legend */
    int nsets;
};

struct frame { /* one panel's plot area and its linear maps */
    double left, right, top, bottom;
    double x0, x1, y0, y1; /* data domain */
};

static double px(const struct frame *f, double x)
{
    return f->left + (x - f->x0) / (f->x1 - f->x0) * (f->right - f->left);
}
static double py(const struct frame *f, double y)
{
    return f->bottom - (y - f->y0) / (f->y1 - f->y0) * (f->bottom - f->top);
}

static void text(FILE *o, double x, double y, const char *anchor, int size, const char *cls, const char *s)
{
    fprintf(o, "<text x=\"%.3f\" y=\"%.3f\" text-anchor=\"%s\" font-size=\"%d\" class=\"%s\">", x, y, anchor, size,
            cls);
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", o);
        else if (*s == '>')
            fputs("&gt;", o);
        else if (*s == '&')
            fputs("&amp;", o);
        else
            fputc(*s, o);
    }
    fputs("</text>\n", o);
}

/* A tick step of 1, 2, 4, 8 ... or 1, 2, 5, 10 ... units giving at most `most` ticks over the span. */
static double tick_step(double span, int most, bool powers_of_two)
{
    if (span <= 0)
        return 1;
    double step = 1;
    if (powers_of_two) {
        while (span / step > most)
            step *= 2;
        return step;
    }
    double base = pow(10, floor(log10(span / most)));
    const double mult[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        if (span / (base * mult[i]) <= most)
            return base * mult[i];
    return base * 10;
}

/* x ticks at multiples of `step` (display units; `scale` data units per display unit). */
static void x_ticks(FILE *o, const struct frame *f, double scale, double step, const char *suffix)
{
    double lo = ceil(f->x0 / scale / step) * step;
    for (double t = lo; t * scale <= f->x1 + 1e-9; t += step) {
        double x = px(f, t * scale);
        fprintf(o, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#555555\" class=\"xtick\"/>\n", x,
                f->bottom, x, f->bottom + 5);
        char label[32];
        snprintf(label, sizeof label, "%g%s", t + 0.0, suffix); /* + 0.0: no "-0" */
        text(o, x, f->bottom + 19, "middle", 12, "xtick", label);
    }
}

/* y ticks with light grid lines; labels "25 %", "1.5x", "800". */
static void y_ticks(FILE *o, const struct frame *f, double step, double label_scale, const char *suffix, bool right,
                    bool grid)
{
    for (double t = ceil(f->y0 / step) * step; t <= f->y1 + 1e-9; t += step) {
        double y = py(f, t);
        if (grid)
            fprintf(o, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#e4e4e4\"/>\n", f->left, y,
                    f->right, y);
        double x = right ? f->right : f->left;
        fprintf(o, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#555555\" class=\"%s\"/>\n", x, y,
                right ? x + 5 : x - 5, y, right ? "ytick2" : "ytick");
        char label[32];
        snprintf(label, sizeof label, "%g%s", t * label_scale + 0.0, suffix);
        text(o, right ? x + 8 : x - 8, y + 4, right ? "start" : "end", 12, right ? "ytick2" : "ytick", label);
    }
}

static void frame_box(FILE *o, const struct frame *f)
{
    fprintf(o, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"#fcfcfc\" stroke=\"#999999\"/>\n",
            f->left, f->top, f->right - f->left, f->bottom - f->top);
}

static void axis_labels(FILE *o, const struct frame *f, const char *xlabel, const char *ylabel, const char *y2label)
{
    text(o, (f->left + f->right) / 2, f->bottom + 40, "middle", 13, "xlabel", xlabel);
    double cy = (f->top + f->bottom) / 2;
    fprintf(o, "<g transform=\"rotate(-90 %.3f %.3f)\">\n", f->left - 52, cy);
    text(o, f->left - 52, cy, "middle", 13, "ylabel", ylabel);
    fputs("</g>\n", o);
    if (y2label) {
        fprintf(o, "<g transform=\"rotate(90 %.3f %.3f)\">\n", f->right + 52, cy);
        text(o, f->right + 52, cy, "middle", 13, "ylabel2", y2label);
        fputs("</g>\n", o);
    }
}

static void limiter_class(uint32_t set, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "run lim");
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT && n < cap; i++)
        if (set & (1u << i))
            n += (size_t)snprintf(out + n, cap - n, "-%s", gpuocc_resource_name(i));
}

static int popcount(uint32_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Kept in legend order: single resources first (in resource order), then ties. */
static void note_set(struct plot *p, uint32_t set)
{
    for (int i = 0; i < p->nsets; i++)
        if (p->sets_seen[i] == set)
            return;
    if (p->nsets == 32)
        return;
    int at = p->nsets++;
    while (at > 0 && (popcount(p->sets_seen[at - 1]) > popcount(set) ||
                      (popcount(p->sets_seen[at - 1]) == popcount(set) && p->sets_seen[at - 1] > set))) {
        p->sets_seen[at] = p->sets_seen[at - 1];
        at--;
    }
    p->sets_seen[at] = set;
}

/* The stroke(s) of a limiter set: one solid line, or for a tie each member's colour in turn. */
static void styled_polyline(FILE *o, uint32_t set, const char *cls, const char *points, double width)
{
    int members[GPUOCC_RESOURCE_COUNT], m = 0;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++)
        if (set & (1u << i))
            members[m++] = i;
    if (m == 0)
        members[m++] = GPUOCC_RESOURCE_WARPS;
    const double dash = 7;
    for (int i = 0; i < m; i++) {
        fprintf(o, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"", i ? "tie" : cls,
                resource_colour[members[i]], width);
        if (i)
            fprintf(o, " stroke-dasharray=\"%.0f,%.0f\" stroke-dashoffset=\"%.0f\"", dash, dash * (m - 1),
                    dash * i);
        fprintf(o, " points=\"%s\"/>\n", points);
    }
}

/* A growable buffer of "x,y " pairs. */
struct pts {
    char *s;
    size_t n, cap;
};
static void pts_add(struct pts *b, double x, double y)
{
    char one[48];
    int w = snprintf(one, sizeof one, "%.3f,%.3f ", x, y);
    if (b->n + (size_t)w + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        char *s = realloc(b->s, cap);
        if (!s)
            return;
        b->s = s, b->cap = cap;
    }
    memcpy(b->s + b->n, one, (size_t)w + 1);
    b->n += (size_t)w;
}

/* The step line of a sweep: each point a segment [v - step/2, v + step/2] at its occupancy, one polyline per
   run of the same limiters, thin grey risers between runs. */
static void step_line(struct plot *p, const struct frame *f, const gpuocc_sweep_point *pt, int32_t n, double step)
{
    FILE *o = p->out;
    for (int32_t i = 0; i < n;) {
        int32_t j = i;
        struct pts b = {0};
        while (j < n && pt[j].limiters == pt[i].limiters) {
            double y = py(f, 100.0 * pt[j].occupancy);
            pts_add(&b, px(f, (double)pt[j].value - step / 2), y);
            pts_add(&b, px(f, (double)pt[j].value + step / 2), y);
            j++;
        }
        char cls[96];
        limiter_class(pt[i].limiters, cls, sizeof cls);
        if (b.s)
            styled_polyline(o, pt[i].limiters, cls, b.s, 3);
        free(b.s);
        note_set(p, pt[i].limiters);
        if (j < n) {
            double x = px(f, (double)pt[j].value - step / 2);
            fprintf(o, "<line class=\"riser\" x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#777777\" "
                       "stroke-width=\"1\"/>\n",
                    x, py(f, 100.0 * pt[j - 1].occupancy), x, py(f, 100.0 * pt[j].occupancy));
        }
        i = j;
    }
}

static void marker(FILE *o, const struct frame *f, double x, double y, const char *label)
{
    double X = px(f, x), Y = py(f, y);
    fprintf(o, "<line class=\"current-line\" x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#222222\" "
               "stroke-width=\"1\" stroke-dasharray=\"3,3\"/>\n",
            X, f->top, X, f->bottom);
    fprintf(o, "<circle class=\"current\" cx=\"%.3f\" cy=\"%.3f\" r=\"6\" fill=\"#ffffff\" stroke=\"#222222\" "
               "stroke-width=\"2.5\"/>\n",
            X, Y);
    bool left = X > (f->left + f->right) / 2;
    double ty = Y - 12 < f->top + 14 ? Y + 22 : Y - 12;
    fprintf(o, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"18\" fill=\"#ffffff\" fill-opacity=\"0.85\"/>\n",
            left ? X - 10 - 6.9 * (double)strlen(label) : X + 8, ty - 13, 6.9 * (double)strlen(label) + 4);
    text(o, left ? X - 8 : X + 10, ty, left ? "end" : "start", 13, "current-label", label);
}

/* ---- occupancy panels ---- */

struct axis_view {
    const char *title, *xlabel, *unit_suffix;
    double scale; /* data units per displayed unit */
    bool powers_of_two;
};
static const struct axis_view views[GPUOCC_AXIS_COUNT] = {
    {"Occupancy against block size", "threads per block", "", 1, true},
    {"Occupancy against registers", "registers per thread", "", 1, true},
    {"Occupancy against shared memory", "dynamic shared memory per block (KiB)", "", 1024, true},
    {"Occupancy against barriers", "named barriers per block", "", 1, true},
};

static int64_t current_value(const gpuocc_kernel *k, int32_t axis)
{
    switch (axis) {
    case GPUOCC_AXIS_THREADS: return k->threads_per_block;
    case GPUOCC_AXIS_REGS: return k->regs_per_thread;
    case GPUOCC_AXIS_SMEM: return k->smem_dynamic_bytes;
    default: return k->barriers;
    }
}

struct panel_data {
    int32_t axis;
    int64_t from, to, step;
    gpuocc_sweep_point *pt;
    int32_t n;
};

static void occupancy_panel(struct plot *p, double top, const struct panel_data *d)
{
    FILE *o = p->out;
    const struct axis_view *v = &views[d->axis];
    fprintf(o, "<g class=\"panel\" id=\"panel-%s\">\n", sweep_axis_name(d->axis));
    text(o, LEFT, top + 18, "start", 15, "panel-title", v->title);
    struct frame f = {LEFT, WIDTH - RIGHT_PAD, top + 28, top + 28 + PLOT_H, (double)d->from - (double)d->step / 2,
                      (double)d->to + (double)d->step / 2, 0, 104}; /* headroom: 100 % is not the frame */
    frame_box(o, &f);
    y_ticks(o, &f, 25, 1, " %", false, true);
    double span = (double)(d->to - d->from) / v->scale;
    x_ticks(o, &f, v->scale, tick_step(span, 8, v->powers_of_two), v->unit_suffix);
    axis_labels(o, &f, v->xlabel, "occupancy (% of warp slots)", NULL);
    step_line(p, &f, d->pt, d->n, (double)d->step);
    int64_t now = current_value(&p->l.k, d->axis);
    if (now >= d->from && now <= d->to) {
        char label[96];
        static const char *const units[GPUOCC_AXIS_COUNT] = {"threads", "registers", "", "barriers"};
        if (d->axis == GPUOCC_AXIS_SMEM)
            snprintf(label, sizeof label, "this launch: %g KiB, %g %%", (double)now / 1024, 100.0 * p->now.occupancy);
        else
            snprintf(label, sizeof label, "this launch: %lld %s, %g %%", (long long)now,
                     now == 1 ? "barrier" : units[d->axis], 100.0 * p->now.occupancy);
        marker(o, &f, (double)now, 100.0 * p->now.occupancy, label);
    }
    fputs("</g>\n", o);
}

/* ---- header and legend ---- */

static void set_label(uint32_t set, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    int count = 0;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++)
        if (set & (1u << i)) {
            n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s", count ? " = " : "", resource_label[i]);
            count++;
        }
    if (count > 1 && n < cap)
        snprintf(out + n, cap - n, " (tie)");
}

/* "16 KiB" for whole KiB, else "1000 B". */
static void bytes_text(int64_t b, char *out, size_t cap)
{
    if (b > 0 && b % 1024 == 0)
        snprintf(out, cap, "%lld KiB", (long long)(b / 1024));
    else
        snprintf(out, cap, "%lld B", (long long)b);
}

static void header(struct plot *p, int height, const char *title, const char *extra)
{
    FILE *o = p->out;
    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
            WIDTH, height, WIDTH, height);
    fprintf(o, "<title>");
    for (const char *s = title; *s; s++)
        fputc(*s == '<' || *s == '>' || *s == '&' ? ' ' : *s, o);
    fprintf(o, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", WIDTH, height);
    text(o, 20, 28, "start", 18, "title", title);
    const gpuocc_kernel *k = &p->l.k;
    char launch[320], st[32], dy[32];
    bytes_text(k->smem_static_bytes, st, sizeof st);
    bytes_text(k->smem_dynamic_bytes, dy, sizeof dy);
    snprintf(launch, sizeof launch,
             "launch: %d threads/block, %d registers/thread, %s static + %s dynamic shared memory, "
             "%d barrier%s%s%s",
             k->threads_per_block, k->regs_per_thread, st, dy, k->barriers, k->barriers == 1 ? "" : "s",
             k->smem_optin ? "" : ", no opt-in", "");
    text(o, 20, 48, "start", 12, "subtitle", launch);
    if (extra)
        text(o, 20, 64, "start", 12, "subtitle", extra);
}

/* The legend's entries in rows; draws them when `o` is not NULL.  Returns the rows used. */
static int legend(struct plot *p, FILE *o, double y)
{
    double x = 94;
    int rows = 1;
    if (o)
        text(o, 20, y + 4, "start", 12, "legend-title", "limited by:");
    for (int i = 0; i < p->nsets; i++) {
        char label[128], points[64];
        set_label(p->sets_seen[i], label, sizeof label);
        double w = 22 + 6.6 * (double)strlen(label) + 18;
        if (x + w > WIDTH - 10 && x > 94) {
            x = 94;
            y += 18;
            rows++;
        }
        if (o) {
            snprintf(points, sizeof points, "%.3f,%.3f %.3f,%.3f", x, y, x + 22, y);
            styled_polyline(o, p->sets_seen[i], "legend", points, 4);
            text(o, x + 27, y + 4, "start", 12, "legend-label", label);
        }
        x += w;
    }
    return rows;
}

/* ---- model panels ---- */

struct tradeoff_inputs {
    double work, per_reg, latency;
};

static int tradeoff_panel(struct cli_io *io, struct plot *p, double top, const struct panel_data *d,
                          const struct tradeoff_inputs *t)
{
    FILE *o = p->out;
    const gpuocc_kernel *k = &p->l.k;
    int32_t regs = k->regs_per_thread;
    double worst = 1;
    if (gpuocc_spill_slowdown(t->work, regs * t->per_reg, t->latency, &worst) != GPUOCC_OK)
        return cli_fail(io, "--work-cycles", "the spill model rejects --work-cycles %g, --spill-accesses-per-reg %g, "
                        "--spill-latency-cycles %g",
                        t->work, t->per_reg, t->latency);
    gpuocc_tradeoff_step steps[256];
    int32_t n = 0;
    int32_t rc = gpuocc_tradeoff(&p->l.dev, k, t->work, t->per_reg, t->latency, steps, 256, &n);
    if (rc != GPUOCC_OK)
        return cli_fail(io, "--chart", "tradeoff: %s", gpuocc_strerror(rc));
    fprintf(o, "<g class=\"panel\" id=\"panel-tradeoff\">\n");
    text(o, LEFT, top + 18, "start", 15, "panel-title", "Register cap: occupancy gained, spill slowdown paid");
    struct frame f = {LEFT, WIDTH - RIGHT_AXIS, top + 28, top + 28 + PLOT_H, -0.5, regs + 0.5, 0, 104};
    frame_box(o, &f);
    y_ticks(o, &f, 25, 1, " %", false, true);
    x_ticks(o, &f, 1, tick_step(regs, 8, true), "");
    /* the right axis: slowdown from 1 to a round value above the worst */
    double ystep = tick_step(worst - 1, 4, false);
    struct frame g = f;
    g.y0 = 1;
    g.y1 = 1 + ceil((worst - 1) / ystep) * ystep;
    if (g.y1 <= 1)
        g.y1 = 2, ystep = 0.25;
    y_ticks(o, &g, ystep, 1, "x", true, false);
    axis_labels(o, &f, "register cap per thread (-maxrregcount, __launch_bounds__)", "occupancy (% of warp slots)",
                "spill slowdown (x)");
    step_line(p, &f, d->pt, d->n, 1);
    struct pts b = {0};
    for (int32_t cap = 0; cap <= regs; cap++) {
        double s = 1;
        gpuocc_spill_slowdown(t->work, (regs - cap) * t->per_reg, t->latency, &s);
        pts_add(&b, px(&g, cap), py(&g, s));
    }
    if (b.s)
        fprintf(o, "<polyline class=\"slowdown\" fill=\"none\" stroke=\"#444444\" stroke-width=\"2\" "
                   "stroke-dasharray=\"8,4\" points=\"%s\"/>\n",
                b.s);
    free(b.s);
    for (int32_t i = 0; i < n && i < 256; i++) {
        fprintf(o, "<circle class=\"tradeoff-step\" cx=\"%.3f\" cy=\"%.3f\" r=\"4\" fill=\"#444444\"/>\n",
                px(&g, steps[i].regs_per_thread), py(&g, steps[i].spill_slowdown));
        fprintf(o, "<circle class=\"tradeoff-occupancy\" cx=\"%.3f\" cy=\"%.3f\" r=\"4\" fill=\"#444444\"/>\n",
                px(&f, steps[i].regs_per_thread), py(&f, 100.0 * steps[i].occupancy));
    }
    char label[96];
    snprintf(label, sizeof label, "this kernel: %d registers, %.1f %%", regs, 100.0 * p->now.occupancy);
    marker(o, &f, regs, 100.0 * p->now.occupancy, label);
    /* what the dashed line is */
    double lx = f.left - 40, ly = f.bottom + 54; /* under the x axis label */
    fprintf(o, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#444444\" stroke-width=\"2\" "
               "stroke-dasharray=\"8,4\"/>\n",
            lx, ly, lx + 22, ly);
    char note[240];
    snprintf(note, sizeof note, "spill slowdown (right axis): %g accesses x %g cycles per shed register on %g cycles "
             "of work; dots: caps that gain a block", t->per_reg, t->latency, t->work);
    text(o, lx + 27, ly + 4, "start", 11, "note", note);
    fputs("</g>\n", o);
    return CLI_OK;
}

static int bandwidth_panel(struct cli_io *io, struct plot *p, double top, double bytes_per_warp)
{
    FILE *o = p->out;
    int32_t max_warps = p->l.dev.max_threads_per_sm / p->l.dev.warp_size;
    gpuocc_bandwidth_prediction at_max = {.size = sizeof at_max};
    int32_t rc = gpuocc_bandwidth_predict(p->l.dev_name, max_warps, bytes_per_warp, &at_max);
    if (rc != GPUOCC_OK)
        return cli_fail(io, "--arch", "bandwidth model for '%s': %s (a product with published bandwidth and latency)",
                        p->l.dev_name, gpuocc_strerror(rc));
    fprintf(o, "<g class=\"panel\" id=\"panel-bandwidth\">\n");
    char title[160];
    snprintf(title, sizeof title, "DRAM bandwidth against warps per SM (%g bytes in flight per warp)", bytes_per_warp);
    text(o, LEFT, top + 18, "start", 15, "panel-title", title);
    double peak = at_max.peak_gbps;
    double ystep = tick_step(peak, 6, false);
    struct frame f = {LEFT, WIDTH - RIGHT_PAD, top + 28, top + 28 + PLOT_H, 0, max_warps, 0,
                      ceil(peak * 1.05 / ystep) * ystep};
    frame_box(o, &f);
    y_ticks(o, &f, ystep, 1, "", false, true);
    x_ticks(o, &f, 1, tick_step(max_warps, 8, true), "");
    axis_labels(o, &f, "resident warps per SM", "DRAM bandwidth (GB/s)", NULL);
    fprintf(o, "<line class=\"peak\" x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#999999\" "
               "stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n",
            f.left, py(&f, peak), f.right, py(&f, peak));
    char label[96];
    snprintf(label, sizeof label, "peak %g GB/s", peak);
    text(o, f.right - 6, py(&f, peak) - 6, "end", 12, "peak-label", label);
    struct pts b = {0};
    for (int32_t w = 1; w <= max_warps; w++) {
        gpuocc_bandwidth_prediction r = {.size = sizeof r};
        if (gpuocc_bandwidth_predict(p->l.dev_name, w, bytes_per_warp, &r) == GPUOCC_OK)
            pts_add(&b, px(&f, w), py(&f, r.bandwidth_gbps));
    }
    if (b.s)
        fprintf(o, "<polyline class=\"bandwidth\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"3\" points=\"%s\"/>\n",
                b.s);
    free(b.s);
    const double marks[] = {at_max.warps_for_80, at_max.warps_for_90, at_max.warps_for_95};
    const int pct[] = {80, 90, 95};
    char beyond[160] = "";
    size_t nb = 0;
    for (int i = 0; i < 3; i++) {
        if (!(marks[i] > 0 && marks[i] <= max_warps)) {
            if (marks[i] > max_warps && nb < sizeof beyond)
                nb += (size_t)snprintf(beyond + nb, sizeof beyond - nb, "%s%d %% of peak needs %.1f warps", nb ? "; " : "",
                                       pct[i], marks[i]);
            continue;
        }
        double x = px(&f, marks[i]), y = py(&f, peak * pct[i] / 100.0);
        fprintf(o, "<circle class=\"target\" cx=\"%.3f\" cy=\"%.3f\" r=\"4\" fill=\"#E69F00\"/>\n", x, y);
        snprintf(label, sizeof label, "%d %% of peak: %.1f warps", pct[i], marks[i]);
        bool near_right = x > f.right - 150;
        text(o, near_right ? x - 8 : x + 8, y - 8 - 13 * i, near_right ? "end" : "start", 11, "target-label", label);
    }
    if (nb) {
        if (nb < sizeof beyond)
            snprintf(beyond + nb, sizeof beyond - nb, " (an SM holds %d)", max_warps);
        text(o, f.left + 8, py(&f, peak) + 16, "start", 11, "note", beyond);
    }
    if (p->l.have_threads) {
        gpuocc_bandwidth_prediction r = {.size = sizeof r};
        if (gpuocc_bandwidth_predict(p->l.dev_name, p->now.warps_per_sm, bytes_per_warp, &r) == GPUOCC_OK) {
            snprintf(label, sizeof label, "this launch: %d warps, %.0f GB/s", p->now.warps_per_sm, r.bandwidth_gbps);
            marker(o, &f, p->now.warps_per_sm, r.bandwidth_gbps, label);
        }
    }
    fputs("</g>\n", o);
    return CLI_OK;
}

/* ---- terminal ---- */

static void terminal_panel(FILE *o, const struct panel_data *d, const gpuocc_kernel *k)
{
    enum { COLS = 64, ROWS = 8 };
    static const char *const eighths[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587",
                                          "\u2588"};
    static const char initials[] = "WRSBX"; /* warps, registers, shared memory, blocks, barriers */
    double level[COLS];
    char lim[COLS];
    int cols = d->n < COLS ? d->n : COLS;
    for (int c = 0; c < cols; c++) { /* each column shows the point at its left edge */
        int32_t i = (int32_t)((int64_t)c * d->n / cols);
        level[c] = d->pt[i].occupancy;
        int r = 0;
        while (r < GPUOCC_RESOURCE_COUNT && !(d->pt[i].limiters & (1u << r)))
            r++;
        lim[c] = r < GPUOCC_RESOURCE_COUNT ? initials[r] : ' ';
    }
    fprintf(o, "%s (current %lld)\n", views[d->axis].title, (long long)current_value(k, d->axis));
    for (int row = ROWS - 1; row >= 0; row--) {
        fprintf(o, "%4.0f%% |", 100.0 * (row + 1) / ROWS);
        for (int c = 0; c < cols; c++) {
            int e = (int)lround(level[c] * ROWS * 8) - row * 8;
            fputs(eighths[e < 0 ? 0 : e > 8 ? 8 : e], o);
        }
        fputc('\n', o);
    }
    fprintf(o, "       %.*s\n", cols, lim);
    fprintf(o, "       %-*lld%lld  (%s; limiter: W warps, R registers, S shared memory, B blocks, X barriers)\n\n",
            cols > 10 ? cols - 8 : 2, (long long)d->from, (long long)d->to, views[d->axis].xlabel);
}

/* ---- the command ---- */

static int write_svg(struct cli_io *io, const char *path, struct plot *p, struct panel_data *panels, int npanels,
                     const char *chart, const struct tradeoff_inputs *t, double bytes_per_warp)
{
    FILE *o = strcmp(path, "-") ? fopen(path, "w") : io->out;
    if (!o) {
        cli_problem(io, "--output", "cannot open '%s' for writing", path);
        return CLI_OUTPUT;
    }
    p->out = o;
    /* the legend, drawn first, lists every limiter set the panels will draw */
    int rc = CLI_OK;
    for (int i = 0; i < npanels; i++)
        for (int32_t j = 0; j < panels[i].n; j++)
            note_set(p, panels[i].pt[j].limiters);
    char title[200], extra[256] = "";
    const char *what = !chart ? "Occupancy" : !strcmp(chart, "tradeoff") ? "Register / occupancy trade-off"
                                                                          : "Achieved bandwidth";
    if (p->l.dev.sm_count)
        snprintf(title, sizeof title, "%s on %s (%s, %d SMs)", what, p->l.dev_name, p->arch, p->l.dev.sm_count);
    else
        snprintf(title, sizeof title, "%s on %s (%s)", what, p->l.dev_name, p->arch);
    char lim[128];
    set_label(p->now.limiters, lim, sizeof lim);
    snprintf(extra, sizeof extra, "now: %g %% occupancy, %d blocks/SM, %d warps/SM, limited by %s",
             100.0 * p->now.occupancy, p->now.blocks_per_sm, p->now.warps_per_sm, lim);
    bool bw = chart && !strcmp(chart, "bandwidth");
    int head = bw ? 80 : HEADER_H + 18 * (legend(p, NULL, 0) - 1);
    int height = head + (bw ? 1 : npanels) * PANEL_H + 12;
    if (rc == CLI_OK) {
        header(p, height, title, bw && !p->l.have_threads ? NULL : extra);
        if (!bw)
            legend(p, o, 90);
        for (int i = 0; i < (bw ? 1 : npanels) && rc == CLI_OK; i++) {
            double top = head + i * PANEL_H;
            if (bw)
                rc = bandwidth_panel(io, p, top, bytes_per_warp);
            else if (chart)
                rc = tradeoff_panel(io, p, top, &panels[i], t);
            else
                occupancy_panel(p, top, &panels[i]);
        }
        fputs("</svg>\n", o);
    }
    if (o != io->out) {
        bool bad = ferror(o) != 0;
        errno = 0;
        bool closed = fclose(o) == 0;
        int e = errno; /* the system's reason (the buffered write failing as the file closes, mostly) */
        if (!closed || bad) {
            cli_problem(io, "--output", "cannot write '%s'%s%s", path, e ? ": " : "", e ? strerror(e) : "");
            return CLI_OUTPUT;
        }
    }
    return rc;
}

static int cmd_plot(struct cli_io *io, int argc, char **argv)
{
    struct plot p = {0};
    cli_launch_init(&p.l);
    int32_t axis = -1;
    const char *output = NULL, *chart = NULL;
    bool terminal = false;
    double bytes_per_warp = 0;
    struct tradeoff_inputs t = {256, 0.1, 300};
    struct cli_args a = {io, argc, argv, 1};
    for (; cli_more(&a); a.i++) {
        const char *v;
        if (cli_launch_flag(&a, &p.l) || cli_amd_launch_flag(&a, &p.l) || sweep_axis_flag(&a, &axis))
            continue;
        if (cli_flag(&a, "--output", &v))
            output = v;
        else if (cli_switch(&a, "--terminal"))
            terminal = true;
        else if (cli_flag(&a, "--chart", &v)) {
            chart = v;
            if (strcmp(v, "tradeoff") && strcmp(v, "bandwidth"))
                cli_fail(io, "--chart", "expected tradeoff or bandwidth, got '%s'", v);
        } else if (cli_flag(&a, "--bytes-per-warp", &v))
            bytes_per_warp = cli_double(io, "--bytes-per-warp", v);
        else if (cli_flag(&a, "--work-cycles", &v))
            t.work = cli_double(io, "--work-cycles", v);
        else if (cli_flag(&a, "--spill-accesses-per-reg", &v))
            t.per_reg = cli_double(io, "--spill-accesses-per-reg", v);
        else if (cli_flag(&a, "--spill-latency-cycles", &v))
            t.latency = cli_double(io, "--spill-latency-cycles", v);
        else
            cli_unknown(&a);
    }
    if (io->status || !cli_launch_check(io, &p.l))
        return io->status;
    if (!p.l.have_arch)
        return cli_fail(io, "--arch", "required");
    if (!output && !terminal)
        return cli_fail(io, "--output", "required (FILE.svg, or - for stdout), or --terminal");
    if (chart && terminal)
        return cli_fail(io, "--terminal", "draws the occupancy panels only, not --chart");
    if (chart && axis >= 0)
        return cli_fail(io, "--axis", "cannot be combined with --chart");
    bool bw = chart && !strcmp(chart, "bandwidth");
    if (bw && !(bytes_per_warp > 0))
        return cli_fail(io, "--bytes-per-warp", "required with --chart bandwidth: bytes each warp keeps in flight");
    if (chart && !strcmp(chart, "tradeoff") && !p.l.have_regs)
        return cli_fail(io, "--regs", "required with --chart tradeoff: the kernel's register count");
    if (!p.l.have_threads && !bw)
        return cli_fail(io, "--threads", "required");
    cli_arch_name(&p.l.dev, p.arch, sizeof p.arch);
    p.now.size = sizeof p.now;
    int32_t rc = gpuocc_occupancy(&p.l.dev, &p.l.k, &p.now);
    if (rc != GPUOCC_OK && !(bw && !p.l.have_threads))
        return cli_fail(io, "input", "%s", gpuocc_strerror(rc));

    struct panel_data panels[3];
    int npanels = 0;
    if (chart && !strcmp(chart, "tradeoff")) {
        panels[npanels++] = (struct panel_data){GPUOCC_AXIS_REGS, 0, p.l.k.regs_per_thread, 1, NULL, 0};
    } else if (!bw) {
        const int32_t all[3] = {GPUOCC_AXIS_THREADS, GPUOCC_AXIS_REGS, GPUOCC_AXIS_SMEM};
        for (int i = 0; i < 3; i++)
            if (axis < 0 || axis == all[i])
                panels[npanels++] = (struct panel_data){all[i], 0, 0, 0, NULL, 0};
        if (axis == GPUOCC_AXIS_BARRIERS)
            panels[npanels++] = (struct panel_data){GPUOCC_AXIS_BARRIERS, 0, 0, 0, NULL, 0};
        for (int i = 0; i < npanels; i++) {
            struct panel_data *d = &panels[i];
            gpuocc_sweep_range(&p.l.dev, &p.l.k, d->axis, &d->from, &d->to, &d->step);
        }
    }
    int status = CLI_OK;
    for (int i = 0; i < npanels && status == CLI_OK; i++) {
        struct panel_data *d = &panels[i];
        d->pt = sweep_points(io, &p.l, d->axis, d->from, d->to, d->step, false, &d->n);
        if (!d->pt)
            status = io->status;
    }
    if (status == CLI_OK && terminal)
        for (int i = 0; i < npanels; i++)
            terminal_panel(io->out, &panels[i], &p.l.k);
    if (status == CLI_OK && output)
        status = write_svg(io, output, &p, panels, npanels, chart, &t, bytes_per_warp);
    for (int i = 0; i < npanels; i++)
        free(panels[i].pt);
    return status;
}

static const struct cli_option plot_options[] = {
    CLI_LAUNCH_OPTIONS,
    CLI_AMD_LAUNCH_OPTIONS,
    {"--output", "FILE", "write the SVG here (- for stdout)"},
    {"--axis", "AXIS", "one panel: threads, regs, smem or barriers (default: threads, regs and smem)"},
    {"--terminal", NULL, "draw the panels with Unicode blocks on stdout"},
    {"--chart", "CHART", "tradeoff: occupancy and spill slowdown against the register cap; bandwidth: DRAM "
                         "bandwidth against warps per SM"},
    {"--bytes-per-warp", "B", "bandwidth: bytes each warp keeps in flight"},
    {"--work-cycles", "CYCLES", "tradeoff: cycles of work per iteration (default 256)"},
    {"--spill-accesses-per-reg", "N", "tradeoff: spill accesses per shed register per iteration (default 0.1)"},
    {"--spill-latency-cycles", "CYCLES", "tradeoff: latency of one spill access (default 300)"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_plot = {
    "plot", cmd_plot, "occupancy curves (and the trade-off and bandwidth models) as SVG or in the terminal",
    "--arch NAME --threads N [launch flags] (--output FILE.svg | --terminal) [--axis AXIS | --chart CHART]",
    plot_options,
    "gpuocc plot --arch A100 --threads 256 --regs 64 --smem-dynamic 16K --output occupancy.svg\n"
    "gpuocc plot --arch H100 --threads 128 --regs 96 --axis regs --terminal\n"
    "gpuocc plot --arch A100 --threads 256 --regs 128 --chart tradeoff --output tradeoff.svg\n"
    "gpuocc plot --arch A100 --threads 256 --regs 32 --chart bandwidth --bytes-per-warp 256 --output bw.svg\n"};
