/*
 * gpuocc plot: occupancy curves as an SVG a person can read (or Unicode blocks in a terminal).
 *
 * Occupancy panels (threads, registers, shared memory, barriers): a step line coloured by the limiting
 * resource (ties: the members' colours in alternating dashes), the current launch marked.  Each sweep point
 * is the segment [v - step/2, v + step/2] at its occupancy; only the corners are written (a run of points at
 * the same occupancy and limiters is one segment), so the size follows the steps, not the axis range.  Model
 * panels: the register-cap trade-off (occupancy and spill slowdown against the cap) and DRAM bandwidth against
 * warps per SM.  AMD devices are drawn in AMD's words (CUs or WGPs, workgroups, waves, VGPRs, LDS).  The SVG
 * uses SVG 1.1 elements and attributes only, generic font families, no script; it is written for 800 px wide.
 * Axis ticks carry the values they label, so the plotted points can be read back from the picture
 * (tests/test_plot.py).  Labels inside a plot are placed where their box (estimated as below, `text_box`)
 * meets no curve, mark or other label.
 */
#include "cli.h"
#include "clusters.h"
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
#define NOTE_H 14   /* the trade-off's second note line */
#define NRES (GPUOCC_RESOURCE_SGPRS + 1) /* the resources a limiter set may name (SGPRs: AMD gfx6-9) */

/* Okabe & Ito's colour-blind-safe palette, one colour per resource (GPUOCC_RESOURCE_* order). */
static const char *const resource_colour[NRES] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00",
                                                  "#56B4E9"};

/* The words of a picture: NVIDIA's, or AMD's for an AMD device. */
struct words {
    const char *sm, *sms;       /* "SM" / "SMs"; AMD "CU" or "WGP" (what its blocks are counted per) */
    const char *block;          /* "block" / "workgroup" */
    const char *warp;           /* "warp" / "wave" */
    const char *reg, *regs;     /* "register(s)" / "VGPR(s)" */
    const char *per_thread;     /* "per thread" / "per lane" */
    const char *smem;           /* "shared memory" / "LDS" */
    const char *resource[NRES]; /* the legend's name of each resource */
    const char *cap_flags;      /* how a register cap is set */
    const char *initials;       /* the terminal's limiter letters, resource order */
    const char *threads;        /* what a block's size counts: "threads" / Intel "work-items" */
};
static const struct words nvidia_words = {
    "SM", "SMs", "block", "warp", "register", "registers", "per thread", "shared memory",
    {"warp slots", "registers", "shared memory", "block slots", "barriers", "SGPRs"},
    "-maxrregcount, __launch_bounds__", "WRSBXG", "threads"};
static const struct words amd_words_cu = {
    "CU", "CUs", "workgroup", "wave", "VGPR", "VGPRs", "per lane", "LDS",
    {"wave slots", "VGPRs", "LDS", "workgroup slots", "barriers", "SGPRs"},
    "amdgpu_num_vgpr, __launch_bounds__", "WVLBXS", "threads"};
static const struct words amd_words_wgp = {
    "WGP", "WGPs", "workgroup", "wave", "VGPR", "VGPRs", "per lane", "LDS",
    {"wave slots", "VGPRs", "LDS", "workgroup slots", "barriers", "SGPRs"},
    "amdgpu_num_vgpr, __launch_bounds__", "WVLBXS", "threads"};
/* Intel's (docs/intel.md, "Words"): work-groups per Xe-core, hardware threads, GRF, SLM */
static const struct words intel_words = {
    "Xe-core", "Xe-cores", "work-group", "hardware thread", "GRF register", "GRF registers", "per hardware thread",
    "SLM", {"hardware threads", "GRF", "SLM", "work-group cap", "barriers", "SGPRs"},
    "-ze-opt-large-register-file", "TGSWBX", "work-items"};

static const struct words *words_for(const struct cli_launch *l)
{
    if (cli_is_intel(&l->dev))
        return &intel_words;
    if (!cli_is_amd(&l->dev))
        return &nvidia_words;
    /* blocks are per WGP on gfx10+ in WGP mode (as HIP counts them, and `gpuocc report` says), else per CU */
    return l->dev.cus_per_wgp > 1 && !l->k.cu_mode ? &amd_words_wgp : &amd_words_cu;
}

/* ---- layout: the boxes of the labels drawn so far and the curves' segments, so a label can avoid both ---- */

struct box {
    double x0, y0, x1, y1;
};

struct layout {
    struct box *text; /* every text's box, the whole picture */
    size_t ntext, captext;
    struct box *seg; /* curve segments (x0,y0)-(x1,y1) and marks (boxes), the current panel */
    bool *is_box;
    size_t nseg, capseg;
};

static bool grow(void **a, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 256;
    void *p = realloc(*a, c * size);
    if (!p)
        return false;
    *a = p, *cap = c;
    return true;
}

static void add_text_box(struct layout *L, struct box b)
{
    if (grow((void **)&L->text, &L->captext, L->ntext, sizeof *L->text))
        L->text[L->ntext++] = b;
}

static void add_obstacle(struct layout *L, double x0, double y0, double x1, double y1, bool box)
{
    size_t cap = L->capseg;
    if (!grow((void **)&L->seg, &L->capseg, L->nseg, sizeof *L->seg))
        return;
    if (cap != L->capseg) {
        bool *p = realloc(L->is_box, L->capseg * sizeof *p);
        if (!p) {
            L->capseg = cap;
            return;
        }
        L->is_box = p;
    }
    L->seg[L->nseg] = (struct box){x0, y0, x1, y1};
    L->is_box[L->nseg++] = box;
}

/* The box a text takes, estimated (no font metrics here): each character 0.6 of the font size wide (DejaVu
   Sans, the usual sans-serif, averages about 0.55 em over lower case, digits and spaces: 0.6 errs wide),
   from 0.8 of the size above the baseline (capitals and ascenders) to 0.25 below (descenders).
   tests/test_plot.py checks the pictures with the same estimate. */
#define CHAR_W 0.6
#define ASCENT 0.8
#define DESCENT 0.25
static double text_width(int size, const char *s)
{
    size_t chars = 0;
    for (; *s; s++)
        chars += ((unsigned char)*s & 0xC0) != 0x80; /* UTF-8: count characters, not bytes */
    return CHAR_W * size * (double)chars;
}
static struct box text_box(double x, double y, const char *anchor, int size, const char *s)
{
    double w = text_width(size, s);
    double x0 = !strcmp(anchor, "start") ? x : !strcmp(anchor, "end") ? x - w : x - w / 2;
    return (struct box){x0, y - ASCENT * size, x0 + w, y + DESCENT * size};
}

static bool boxes_meet(struct box a, struct box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* Whether the segment (x0,y0)-(x1,y1) meets the box (Liang-Barsky clipping). */
static bool segment_meets(struct box s, struct box b)
{
    double t0 = 0, t1 = 1, dx = s.x1 - s.x0, dy = s.y1 - s.y0;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {s.x0 - b.x0, b.x1 - s.x0, s.y0 - b.y0, b.y1 - s.y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
        } else {
            double t = q[i] / p[i];
            if (p[i] < 0 && t > t0)
                t0 = t;
            else if (p[i] > 0 && t < t1)
                t1 = t;
            if (t0 > t1)
                return false;
        }
    }
    return true;
}

/* Whether a box is free: inside `within`, and meeting no text and no obstacle. */
static bool box_free(const struct layout *L, struct box b, struct box within)
{
    if (b.x0 < within.x0 || b.x1 > within.x1 || b.y0 < within.y0 || b.y1 > within.y1)
        return false;
    for (size_t i = 0; i < L->ntext; i++)
        if (boxes_meet(b, L->text[i]))
            return false;
    for (size_t i = 0; i < L->nseg; i++)
        if (L->is_box[i] ? boxes_meet(b, L->seg[i]) : segment_meets(L->seg[i], b))
            return false;
    return true;
}

static struct box pad(struct box b, double d)
{
    return (struct box){b.x0 - d, b.y0 - d, b.x1 + d, b.y1 + d};
}

struct plot {
    FILE *out;
    struct cli_launch l;
    const struct words *w;
    char arch[16];
    gpuocc_result now;
    uint32_t sets_seen[64]; /* the limiter sets drawn, for the legend */
    int nsets;
    struct layout L;
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
static struct box inside(const struct frame *f)
{
    return (struct box){f->left + 2, f->top + 2, f->right - 2, f->bottom - 2};
}

static void text(struct plot *p, double x, double y, const char *anchor, int size, const char *cls, const char *s)
{
    FILE *o = p->out;
    if (o)
        fprintf(o, "<text x=\"%.3f\" y=\"%.3f\" text-anchor=\"%s\" font-size=\"%d\" class=\"%s\">", x, y, anchor,
                size, cls);
    for (; o && *s; s++) {
        if (*s == '<')
            fputs("&lt;", o);
        else if (*s == '>')
            fputs("&gt;", o);
        else if (*s == '&')
            fputs("&amp;", o);
        else
            fputc(*s, o);
    }
    if (o)
        fputs("</text>\n", o);
}

/* A text at (x, y), its box noted. */
static void label(struct plot *p, double x, double y, const char *anchor, int size, const char *cls, const char *s)
{
    add_text_box(&p->L, text_box(x, y, anchor, size, s));
    text(p, x, y, anchor, size, cls, s);
}

struct spot {
    double x, y;
    const char *anchor;
};

/* Draws a label at the first of `n` spots where its box (padded by `margin`) is free within `within`; with
   no free spot, at the last.  `backing`: a white box behind it.  Returns the spot used. */
static int place(struct plot *p, const struct spot *s, int n, int size, const char *cls, const char *str,
                 struct box within, double margin, bool backing)
{
    int at = n - 1;
    for (int i = 0; i < n; i++)
        if (box_free(&p->L, pad(text_box(s[i].x, s[i].y, s[i].anchor, size, str), margin), within)) {
            at = i;
            break;
        }
    struct box b = pad(text_box(s[at].x, s[at].y, s[at].anchor, size, str), margin);
    if (backing)
        fprintf(p->out, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"#ffffff\" "
                        "fill-opacity=\"0.85\"/>\n",
                b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
    label(p, s[at].x, s[at].y, s[at].anchor, size, cls, str);
    return at;
}

/* The spots around a point (x, y) of a plot, nearest first: right and left of it, level with it and then
   ever further above and below, within the frame; `prefer_left` tries the left side first. */
static int spots_around(const struct frame *f, double x, double y, double gap, bool prefer_left, struct spot *s,
                        int cap)
{
    int n = 0;
    for (double d = 0; d <= f->bottom - f->top && n + 4 <= cap; d += 7)
        for (int sign = -1; sign <= 1; sign += 2) {
            if (d == 0 && sign > 0)
                continue;
            double yy = y + 4 + sign * d; /* +4: a 12-13 px text centred on the point */
            if (yy < f->top || yy > f->bottom + 10)
                continue;
            double side = d < 8 ? gap + 2 : gap;
            s[n++] = prefer_left ? (struct spot){x - side, yy, "end"} : (struct spot){x + side, yy, "start"};
            s[n++] = prefer_left ? (struct spot){x + side, yy, "start"} : (struct spot){x - side, yy, "end"};
        }
    return n;
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
static void x_ticks(struct plot *p, const struct frame *f, double scale, double step, const char *suffix)
{
    double lo = ceil(f->x0 / scale / step) * step;
    for (double t = lo; t * scale <= f->x1 + 1e-9; t += step) {
        double x = px(f, t * scale);
        fprintf(p->out, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#555555\" class=\"xtick\"/>\n",
                x, f->bottom, x, f->bottom + 5);
        char s[32];
        snprintf(s, sizeof s, "%g%s", t + 0.0, suffix); /* + 0.0: no "-0" */
        label(p, x, f->bottom + 19, "middle", 12, "xtick", s);
    }
}

/* y ticks with light grid lines; labels "25 %", "1.5x", "800". */
static void y_ticks(struct plot *p, const struct frame *f, double step, double label_scale, const char *suffix,
                    bool right, bool grid)
{
    FILE *o = p->out;
    for (double t = ceil(f->y0 / step) * step; t <= f->y1 + 1e-9; t += step) {
        double y = py(f, t);
        if (grid)
            fprintf(o, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#e4e4e4\" class=\"grid\"/>\n",
                    f->left, y, f->right, y);
        double x = right ? f->right : f->left;
        fprintf(o, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#555555\" class=\"%s\"/>\n", x, y,
                right ? x + 5 : x - 5, y, right ? "ytick2" : "ytick");
        char s[32];
        snprintf(s, sizeof s, "%g%s", t * label_scale + 0.0, suffix);
        label(p, right ? x + 8 : x - 8, y + 4, right ? "start" : "end", 12, right ? "ytick2" : "ytick", s);
    }
}

static void frame_box(FILE *o, const struct frame *f)
{
    fprintf(o, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"#fcfcfc\" stroke=\"#999999\"/>\n",
            f->left, f->top, f->right - f->left, f->bottom - f->top);
}

/* A y label rotated a quarter turn about (x, y): its box is the text's turned on its side. */
static void y_label(struct plot *p, double x, double y, int turn, const char *cls, const char *s)
{
    fprintf(p->out, "<g transform=\"rotate(%d %.3f %.3f)\">\n", turn, x, y);
    text(p, x, y, "middle", 13, cls, s);
    fputs("</g>\n", p->out);
    double w = text_width(13, s), up = ASCENT * 13, down = DESCENT * 13;
    add_text_box(&p->L, turn < 0 ? (struct box){x - up, y - w / 2, x + down, y + w / 2}
                                 : (struct box){x - down, y - w / 2, x + up, y + w / 2});
}

static void axis_labels(struct plot *p, const struct frame *f, const char *xlabel, const char *ylabel,
                        const char *y2label)
{
    label(p, (f->left + f->right) / 2, f->bottom + 40, "middle", 13, "xlabel", xlabel);
    double cy = (f->top + f->bottom) / 2;
    y_label(p, f->left - 52, cy, -90, "ylabel", ylabel);
    if (y2label)
        y_label(p, f->right + 52, cy, 90, "ylabel2", y2label);
}

static void limiter_class(uint32_t set, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "run lim");
    for (int32_t i = 0; i < NRES && n < cap; i++)
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
    if (p->nsets == 64)
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
    int members[NRES], m = 0;
    for (int32_t i = 0; i < NRES; i++)
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

/* A growable buffer of "x,y " pairs; with a layout, each segment between consecutive points is an obstacle. */
struct pts {
    char *s;
    size_t n, cap;
    struct layout *L;
    bool any;
    double lx, ly;
};
static void pts_add(struct pts *b, double x, double y)
{
    if (b->L && b->any)
        add_obstacle(b->L, b->lx, b->ly, x, y, false);
    b->any = true, b->lx = x, b->ly = y;
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

/* The step line of a sweep: each point the segment [v - step/2, v + step/2] at its occupancy, one polyline
   per run of the same limiters, thin grey risers between runs.  Only corners are written: points of a run
   at the same occupancy make one segment, from the first's left end to the last's right end (the points
   are contiguous: each one's right end is the next one's left end), so the line drawn is the same. */
static void step_line(struct plot *p, const struct frame *f, const gpuocc_sweep_point *pt, int32_t n, double step)
{
    FILE *o = p->out;
    for (int32_t i = 0; i < n;) {
        int32_t j = i;
        struct pts b = {.L = &p->L};
        while (j < n && pt[j].limiters == pt[i].limiters) {
            int32_t k = j;
            while (k + 1 < n && pt[k + 1].limiters == pt[i].limiters && pt[k + 1].occupancy == pt[j].occupancy)
                k++;
            double y = py(f, 100.0 * pt[j].occupancy);
            pts_add(&b, px(f, (double)pt[j].value - step / 2), y);
            pts_add(&b, px(f, (double)pt[k].value + step / 2), y);
            j = k + 1;
        }
        char cls[96];
        limiter_class(pt[i].limiters, cls, sizeof cls);
        if (b.s)
            styled_polyline(o, pt[i].limiters, cls, b.s, 3);
        free(b.s);
        note_set(p, pt[i].limiters);
        if (j < n) {
            double x = px(f, (double)pt[j].value - step / 2), y0 = py(f, 100.0 * pt[j - 1].occupancy),
                   y1 = py(f, 100.0 * pt[j].occupancy);
            fprintf(o, "<line class=\"riser\" x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#777777\" "
                       "stroke-width=\"1\"/>\n",
                    x, y0, x, y1);
            add_obstacle(&p->L, x, y0, x, y1, false);
        }
        i = j;
    }
}

/* A dot (a mark the labels avoid). */
static void dot(struct plot *p, const char *cls, double x, double y, const char *fill)
{
    fprintf(p->out, "<circle class=\"%s\" cx=\"%.3f\" cy=\"%.3f\" r=\"4\" fill=\"%s\"/>\n", cls, x, y, fill);
    add_obstacle(&p->L, x - 4, y - 4, x + 4, y + 4, true);
}

/* The current launch: a dashed vertical line, a ring on the curve; its label placed by marker_label once the
   panel's curves are drawn. */
static void marker(struct plot *p, const struct frame *f, double x, double y)
{
    double X = px(f, x), Y = py(f, y);
    fprintf(p->out, "<line class=\"current-line\" x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#222222\" "
                    "stroke-width=\"1\" stroke-dasharray=\"3,3\"/>\n",
            X, f->top, X, f->bottom);
    fprintf(p->out, "<circle class=\"current\" cx=\"%.3f\" cy=\"%.3f\" r=\"6\" fill=\"#ffffff\" stroke=\"#222222\" "
                    "stroke-width=\"2.5\"/>\n",
            X, Y);
    add_obstacle(&p->L, X, f->top, X, f->bottom, false);
    add_obstacle(&p->L, X - 8, Y - 8, X + 8, Y + 8, true);
}

static void marker_label(struct plot *p, const struct frame *f, double x, double y, const char *s)
{
    double X = px(f, x), Y = py(f, y);
    struct spot spots[128];
    int n = spots_around(f, X, Y, 10, X > (f->left + f->right) / 2, spots, 126);
    /* none free beside it: the panel's title row, right-aligned (the dashed line still points at it) */
    spots[n++] = (struct spot){f->right, f->top - 10, "end"};
    struct box within = inside(f);
    within.y0 = f->top - 28;
    place(p, spots, n, 13, "current-label", s, within, 2, true);
}

/* ---- occupancy panels ---- */

static const char *panel_title(const struct words *w, int32_t axis, char *out, size_t cap)
{
    if (axis == GPUOCC_AXIS_THREADS)
        snprintf(out, cap, "Occupancy against %s size", w->block);
    else if (axis == GPUOCC_AXIS_REGS)
        snprintf(out, cap, "Occupancy against %s", w->regs);
    else if (axis == GPUOCC_AXIS_SMEM)
        snprintf(out, cap, "Occupancy against %s", w->smem);
    else if (axis == SWEEP_AXIS_SUB_GROUP)
        snprintf(out, cap, "Occupancy against sub-group size");
    else if (axis == SWEEP_AXIS_GRF)
        snprintf(out, cap, "Occupancy against GRF size");
    else
        snprintf(out, cap, "Occupancy against barriers");
    return out;
}

static const char *axis_label(const struct words *w, int32_t axis, char *out, size_t cap)
{
    if (axis == GPUOCC_AXIS_THREADS)
        snprintf(out, cap, "%s per %s", w->threads, w->block);
    else if (axis == GPUOCC_AXIS_REGS)
        snprintf(out, cap, "%s %s", w->regs, w->per_thread);
    else if (axis == GPUOCC_AXIS_SMEM)
        snprintf(out, cap, "dynamic %s per %s (KiB)", w->smem, w->block);
    else if (axis == SWEEP_AXIS_SUB_GROUP)
        snprintf(out, cap, "sub-group size (%s per %s)", w->threads, w->warp);
    else if (axis == SWEEP_AXIS_GRF)
        snprintf(out, cap, "%s %s", w->regs, w->per_thread);
    else if (w == &intel_words)
        snprintf(out, cap, "barriers per %s", w->block);
    else
        snprintf(out, cap, "named barriers per %s", w->block);
    return out;
}

static double axis_scale(int32_t axis) /* data units per displayed unit */
{
    return axis == GPUOCC_AXIS_SMEM ? 1024 : 1;
}

static int64_t current_value(const gpuocc_kernel *k, int32_t axis)
{
    switch (axis) {
    case GPUOCC_AXIS_THREADS: return k->threads_per_block;
    case GPUOCC_AXIS_REGS: return k->regs_per_thread;
    case GPUOCC_AXIS_SMEM: return k->smem_dynamic_bytes;
    case SWEEP_AXIS_SUB_GROUP: return k->sub_group ? k->sub_group : 16; /* Intel's default (docs/intel.md) */
    case SWEEP_AXIS_GRF: return k->grf ? k->grf : 128;
    default: return k->barriers;
    }
}

/* "256 threads", "64 VGPRs", "16 KiB", "1 barrier": a value of the axis in its display unit. */
static void value_text(const struct words *w, int32_t axis, int64_t v, char *out, size_t cap)
{
    if (axis == GPUOCC_AXIS_SMEM)
        snprintf(out, cap, "%g KiB", (double)v / 1024);
    else
        snprintf(out, cap, "%lld %s", (long long)v,
                 axis == GPUOCC_AXIS_THREADS    ? w->threads
                 : axis == GPUOCC_AXIS_REGS     ? (v == 1 ? w->reg : w->regs)
                 : axis == SWEEP_AXIS_SUB_GROUP ? "per sub-group"
                 : axis == SWEEP_AXIS_GRF       ? w->regs
                                             : (v == 1 ? "barrier" : "barriers"));
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
    char title[96], xlabel[96], ylabel[64];
    fprintf(o, "<g class=\"panel\" id=\"panel-%s\">\n", sweep_axis_name(d->axis));
    label(p, LEFT, top + 18, "start", 15, "panel-title", panel_title(p->w, d->axis, title, sizeof title));
    struct frame f = {LEFT, WIDTH - RIGHT_PAD, top + 28, top + 28 + PLOT_H, (double)d->from - (double)d->step / 2,
                      (double)d->to + (double)d->step / 2, 0, 104}; /* headroom: 100 % is not the frame */
    frame_box(o, &f);
    y_ticks(p, &f, 25, 1, " %", false, true);
    double scale = axis_scale(d->axis), span = (double)(d->to - d->from) / scale;
    x_ticks(p, &f, scale, tick_step(span, 8, true), "");
    snprintf(ylabel, sizeof ylabel, "occupancy (%% of %s slots)", p->w->warp);
    axis_labels(p, &f, axis_label(p->w, d->axis, xlabel, sizeof xlabel), ylabel, NULL);
    step_line(p, &f, d->pt, d->n, (double)d->step);
    int64_t now = current_value(&p->l.k, d->axis);
    if (now >= d->from && now <= d->to) {
        char v[48], s[96];
        value_text(p->w, d->axis, now, v, sizeof v);
        snprintf(s, sizeof s, "this launch: %s, %g %%", v, 100.0 * p->now.occupancy);
        marker(p, &f, (double)now, 100.0 * p->now.occupancy);
        marker_label(p, &f, (double)now, 100.0 * p->now.occupancy, s);
    }
    fputs("</g>\n", o);
}

/* ---- header and legend ---- */

static void set_label(const struct words *w, uint32_t set, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    int count = 0;
    for (int32_t i = 0; i < NRES; i++)
        if (set & (1u << i)) {
            n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s", count ? " = " : "", w->resource[i]);
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
    label(p, 20, 28, "start", 18, "title", title);
    const gpuocc_kernel *k = &p->l.k;
    char launch[320], st[32], dy[32];
    bytes_text(k->smem_static_bytes, st, sizeof st);
    bytes_text(k->smem_dynamic_bytes, dy, sizeof dy);
    if (cli_is_amd(&p->l.dev)) {
        char sgprs[32] = "";
        if (k->sgprs)
            snprintf(sgprs, sizeof sgprs, ", %d SGPRs", k->sgprs);
        snprintf(launch, sizeof launch, "launch: %d threads/workgroup (wave%d), %d VGPRs + %d AGPRs per lane%s, "
                 "%s static + %s dynamic LDS%s",
                 k->threads_per_block, k->wave_size ? k->wave_size : p->l.dev.warp_size, k->regs_per_thread,
                 k->agprs, sgprs, st, dy, k->cu_mode ? ", CU mode" : "");
    } else if (cli_is_intel(&p->l.dev))
        snprintf(launch, sizeof launch, "launch: %d work-items/work-group in sub-groups of %d, %d GRF registers, "
                 "%s static + %s dynamic SLM, %d barrier%s%s",
                 k->threads_per_block, k->sub_group ? k->sub_group : p->l.dev.warp_size, k->grf ? k->grf : 128, st,
                 dy, k->barriers, k->barriers == 1 ? "" : "s",
                 k->model == GPUOCC_MODEL_INTEL_RUNTIME ? ", the runtime's model" : ", the calculator's model");
    else
        snprintf(launch, sizeof launch,
                 "launch: %d threads/block, %d registers/thread, %s static + %s dynamic shared memory, "
                 "%d barrier%s%s",
                 k->threads_per_block, k->regs_per_thread, st, dy, k->barriers, k->barriers == 1 ? "" : "s",
                 k->smem_optin ? "" : ", no opt-in");
    label(p, 20, 48, "start", 12, "subtitle", launch);
    if (extra)
        label(p, 20, 64, "start", 12, "subtitle", extra);
}

/* The legend's entries in rows; draws them when the plot has an output.  Returns the rows used. */
static int legend(struct plot *p, double y)
{
    const double x0 = 20 + text_width(12, "limited by:") + 8; /* the entries start after the title */
    double x = x0;
    int rows = 1;
    if (p->out)
        label(p, 20, y + 4, "start", 12, "legend-title", "limited by:");
    for (int i = 0; i < p->nsets; i++) {
        char s[160], points[64];
        set_label(p->w, p->sets_seen[i], s, sizeof s);
        double w = 22 + 5 + text_width(12, s) + 18; /* the line, a gap, the label, room to the next */
        if (x + w - 18 > WIDTH - 10 && x > x0) {
            x = x0;
            y += 18;
            rows++;
        }
        if (p->out) {
            snprintf(points, sizeof points, "%.3f,%.3f %.3f,%.3f", x, y, x + 22, y);
            styled_polyline(p->out, p->sets_seen[i], "legend", points, 4);
            label(p, x + 27, y + 4, "start", 12, "legend-label", s);
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
    const struct words *w = p->w;
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
    char s[240], ylabel[64];
    fprintf(o, "<g class=\"panel\" id=\"panel-tradeoff\">\n");
    snprintf(s, sizeof s, "%s cap: occupancy gained, spill slowdown paid", w == &nvidia_words ? "Register" : "VGPR");
    label(p, LEFT, top + 18, "start", 15, "panel-title", s);
    struct frame f = {LEFT, WIDTH - RIGHT_AXIS, top + 28, top + 28 + PLOT_H, -0.5, regs + 0.5, 0, 104};
    frame_box(o, &f);
    y_ticks(p, &f, 25, 1, " %", false, true);
    x_ticks(p, &f, 1, tick_step(regs, 8, true), "");
    /* the right axis: slowdown from 1 to a round value above the worst */
    double ystep = tick_step(worst - 1, 4, false);
    struct frame g = f;
    g.y0 = 1;
    g.y1 = 1 + ceil((worst - 1) / ystep) * ystep;
    if (g.y1 <= 1)
        g.y1 = 2, ystep = 0.25;
    y_ticks(p, &g, ystep, 1, "x", true, false);
    char xlabel[96];
    snprintf(xlabel, sizeof xlabel, "%s cap %s (%s)", w == &nvidia_words ? "register" : "VGPR", w->per_thread,
             w->cap_flags);
    snprintf(ylabel, sizeof ylabel, "occupancy (%% of %s slots)", w->warp);
    axis_labels(p, &f, xlabel, ylabel, "spill slowdown (x)");
    step_line(p, &f, d->pt, d->n, 1);
    struct pts b = {.L = &p->L};
    for (int32_t cap = 0; cap <= regs; cap++) {
        double sl = 1;
        gpuocc_spill_slowdown(t->work, (regs - cap) * t->per_reg, t->latency, &sl);
        pts_add(&b, px(&g, cap), py(&g, sl));
    }
    if (b.s)
        fprintf(o, "<polyline class=\"slowdown\" fill=\"none\" stroke=\"#444444\" stroke-width=\"2\" "
                   "stroke-dasharray=\"8,4\" points=\"%s\"/>\n",
                b.s);
    free(b.s);
    for (int32_t i = 0; i < n && i < 256; i++) {
        dot(p, "tradeoff-step", px(&g, steps[i].regs_per_thread), py(&g, steps[i].spill_slowdown), "#444444");
        dot(p, "tradeoff-occupancy", px(&f, steps[i].regs_per_thread), py(&f, 100.0 * steps[i].occupancy),
            "#444444");
    }
    marker(p, &f, regs, 100.0 * p->now.occupancy);
    snprintf(s, sizeof s, "this kernel: %d %s, %.1f %%", regs, regs == 1 ? w->reg : w->regs,
             100.0 * p->now.occupancy);
    marker_label(p, &f, regs, 100.0 * p->now.occupancy, s);
    /* what the dashed line and the dots are, in two lines under the x axis label */
    double lx = f.left - 40, ly = f.bottom + 54;
    fprintf(o, "<line class=\"note-key\" x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#444444\" "
               "stroke-width=\"2\" stroke-dasharray=\"8,4\"/>\n",
            lx, ly, lx + 22, ly);
    snprintf(s, sizeof s, "spill slowdown (right axis): %g accesses x %g cycles per shed %s on %g cycles of work;",
             t->per_reg, t->latency, w->reg, t->work);
    label(p, lx + 27, ly + 4, "start", 11, "note", s);
    snprintf(s, sizeof s, "dots: caps that gain a %s", w->block);
    label(p, lx + 27, ly + 4 + NOTE_H, "start", 11, "note", s);
    fputs("</g>\n", o);
    return CLI_OK;
}

/* The bandwidth model's constants for the device: the table's, or the flags' where given. */
struct dram {
    int32_t sm_count;
    double latency_ns, peak_gbps, bus_bits, attainable_gbps;
};

static int bandwidth_panel(struct plot *p, double top, double bytes_per_warp, const struct dram *m,
                           const gpuocc_bandwidth_prediction *at_max)
{
    FILE *o = p->out;
    const struct words *w = p->w;
    int32_t max_warps = p->l.dev.max_threads_per_sm / p->l.dev.warp_size;
    fprintf(o, "<g class=\"panel\" id=\"panel-bandwidth\">\n");
    char title[160];
    snprintf(title, sizeof title, "DRAM bandwidth against %ss per %s (%g bytes in flight per %s)", w->warp, w->sm,
             bytes_per_warp, w->warp);
    label(p, LEFT, top + 18, "start", 15, "panel-title", title);
    double peak = at_max->peak_gbps;
    double ystep = tick_step(peak, 6, false);
    struct frame f = {LEFT, WIDTH - RIGHT_PAD, top + 28, top + 28 + PLOT_H, 0, max_warps, 0,
                      ceil(peak * 1.05 / ystep) * ystep};
    frame_box(o, &f);
    y_ticks(p, &f, ystep, 1, "", false, true);
    x_ticks(p, &f, 1, tick_step(max_warps, 8, true), "");
    char xlabel[64];
    snprintf(xlabel, sizeof xlabel, "resident %ss per %s", w->warp, w->sm);
    axis_labels(p, &f, xlabel, "DRAM bandwidth (GB/s)", NULL);
    fprintf(o, "<line class=\"peak\" x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"#999999\" "
               "stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n",
            f.left, py(&f, peak), f.right, py(&f, peak));
    add_obstacle(&p->L, f.left, py(&f, peak), f.right, py(&f, peak), false);
    struct pts b = {.L = &p->L};
    for (int32_t i = 1; i <= max_warps; i++) {
        gpuocc_bandwidth_prediction r = {.size = sizeof r};
        if (gpuocc_bandwidth_model(i, bytes_per_warp, m->sm_count, m->latency_ns, m->peak_gbps, m->bus_bits,
                                   m->attainable_gbps, &r) == GPUOCC_OK)
            pts_add(&b, px(&f, i), py(&f, r.bandwidth_gbps));
    }
    if (b.s)
        fprintf(o, "<polyline class=\"bandwidth\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"3\" points=\"%s\"/>\n",
                b.s);
    free(b.s);
    const double marks[] = {at_max->warps_for_80, at_max->warps_for_90, at_max->warps_for_95};
    const int pct[] = {80, 90, 95};
    char s[160], beyond[200] = "";
    size_t nb = 0;
    double tx[3], ty[3];
    int shown[3], ns = 0;
    for (int i = 0; i < 3; i++) {
        if (!(marks[i] > 0 && marks[i] <= max_warps)) {
            if (marks[i] > max_warps && nb < sizeof beyond)
                nb += (size_t)snprintf(beyond + nb, sizeof beyond - nb, nb ? ", %d %% %.1f" : "%d %% of peak needs %.1f",
                                       pct[i], marks[i]);
            continue;
        }
        tx[ns] = px(&f, marks[i]), ty[ns] = py(&f, peak * pct[i] / 100.0);
        dot(p, "target", tx[ns], ty[ns], "#E69F00");
        shown[ns++] = i;
    }
    double current_x = 0, current_y = 0;
    bool current = false;
    gpuocc_bandwidth_prediction now = {.size = sizeof now};
    if (p->l.have_threads && gpuocc_bandwidth_model(p->now.warps_per_sm, bytes_per_warp, m->sm_count, m->latency_ns,
                                                    m->peak_gbps, m->bus_bits, m->attainable_gbps, &now) == GPUOCC_OK) {
        current = true, current_x = p->now.warps_per_sm, current_y = now.bandwidth_gbps;
        marker(p, &f, current_x, current_y);
    }
    /* the labels, once every curve and mark is down: the peak's above its line at the right if free */
    snprintf(s, sizeof s, "peak %g GB/s", peak);
    struct spot ps[64];
    int np = 0;
    for (double d = 0; d < 60 && np + 2 <= 62; d += 7) {
        ps[np++] = (struct spot){f.right - 6, py(&f, peak) - 6 - d, "end"};
        ps[np++] = (struct spot){f.left + 6, py(&f, peak) - 6 - d, "start"};
    }
    for (double d = 0; d < 60 && np + 2 <= 64; d += 7)
        ps[np++] = (struct spot){f.right - 6, py(&f, peak) + 16 + d, "end"};
    place(p, ps, np, 12, "peak-label", s, inside(&f), 1, false);
    for (int j = 0; j < ns; j++) {
        snprintf(s, sizeof s, "%d %% of peak: %.1f %ss", pct[shown[j]], marks[shown[j]], w->warp);
        struct spot sp[128];
        int n = spots_around(&f, tx[j], ty[j], 8, tx[j] > f.right - 150, sp, 128);
        place(p, sp, n, 11, "target-label", s, inside(&f), 1, false);
    }
    if (nb) { /* "80 % of peak needs 67.4, 90 % 114.9 waves (a CU holds 64)", under the x axis label */
        if (nb < sizeof beyond)
            snprintf(beyond + nb, sizeof beyond - nb, " %ss (a%s %s holds %d)", w->warp, w->sm[0] == 'S' ? "n" : "",
                     w->sm, max_warps);
        label(p, f.left - 40, f.bottom + 58, "start", 11, "note", beyond);
    }
    if (current) {
        snprintf(s, sizeof s, "this launch: %d %ss, %.0f GB/s", p->now.warps_per_sm, w->warp, now.bandwidth_gbps);
        marker_label(p, &f, current_x, current_y, s);
    }
    fputs("</g>\n", o);
    return CLI_OK;
}

/* ---- terminal ---- */

static void terminal_panel(FILE *o, const struct panel_data *d, const struct plot *p)
{
    enum { COLS = 64, ROWS = 8 };
    static const char *const eighths[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587",
                                          "\u2588"};
    const struct words *w = p->w;
    double level[COLS];
    char lim[COLS];
    int cols = d->n < COLS ? d->n : COLS;
    for (int c = 0; c < cols; c++) { /* each column shows the point at its left edge */
        int32_t i = (int32_t)((int64_t)c * d->n / cols);
        level[c] = d->pt[i].occupancy;
        int r = 0;
        while (r < NRES && !(d->pt[i].limiters & (1u << r)))
            r++;
        lim[c] = r < NRES ? w->initials[r] : ' ';
    }
    char title[96], xlabel[96], v[48], from[48], to[48];
    int64_t now = current_value(&p->l.k, d->axis);
    value_text(w, d->axis, now, v, sizeof v);
    fprintf(o, "%s (this launch: %s, %g %%)\n", panel_title(w, d->axis, title, sizeof title), v,
            100.0 * p->now.occupancy);
    for (int row = ROWS - 1; row >= 0; row--) {
        fprintf(o, "%4.0f%% |", 100.0 * (row + 1) / ROWS);
        for (int c = 0; c < cols; c++) {
            int e = (int)lround(level[c] * ROWS * 8) - row * 8;
            fputs(eighths[e < 0 ? 0 : e > 8 ? 8 : e], o);
        }
        fputc('\n', o);
    }
    fprintf(o, "       %.*s\n", cols, lim);
    /* the current launch under the column that holds its point (column c holds points c n / cols up to the
       next column's first) */
    if (now >= d->from && now <= d->to && d->step > 0) {
        int64_t k = 0; /* the point that holds the launch: the last at or below it (the grid may skip values) */
        while (k + 1 < d->n && d->pt[k + 1].value <= now)
            k++;
        int c = (int)(((k + 1) * cols + d->n - 1) / d->n) - 1; /* the c with c n / cols <= k < (c + 1) n / cols */
        if (c >= cols)
            c = cols - 1;
        if (c + 14 <= cols || c < 12) /* a narrow panel (Intel's GRF: two points) too */
            fprintf(o, "       %*s^ this launch\n", c, "");
        else
            fprintf(o, "       %*sthis launch ^\n", c - 12, "");
    } else
        fprintf(o, "       (this launch is outside the range drawn)\n");
    /* the ends in the axis' display unit (KiB for shared memory / LDS, as its label says) */
    double scale = axis_scale(d->axis);
    const char *unit = d->axis == GPUOCC_AXIS_SMEM ? " KiB" : "";
    snprintf(from, sizeof from, "%g%s", (double)d->from / scale, unit);
    snprintf(to, sizeof to, "%g%s", (double)d->to / scale, unit);
    fprintf(o, cols > 10 ? "       %-*s%s  (%s; limiter:" : "       %-*s to %s  (%s; limiter:", cols > 10 ? cols - 8 : 2, from, to,
            axis_label(w, d->axis, xlabel, sizeof xlabel));
    for (int r = 0; r < NRES; r++)
        if (r != GPUOCC_RESOURCE_SGPRS || cli_is_amd(&p->l.dev))
            if (r != GPUOCC_RESOURCE_BLOCKS || !cli_is_amd(&p->l.dev)) /* AMD has no workgroup-slot cap */
                fprintf(o, "%s %c %s", r ? "," : "", w->initials[r], w->resource[r]);
    fputs(")\n\n", o);
}

/* ---- the command ---- */

static int write_svg(struct cli_io *io, const char *path, struct plot *p, struct panel_data *panels, int npanels,
                     const char *chart, const struct tradeoff_inputs *t, double bytes_per_warp,
                     const struct dram *m, const gpuocc_bandwidth_prediction *at_max)
{
    FILE *o = strcmp(path, "-") ? fopen(path, "w") : io->out;
    if (!o) {
        cli_problem(io, "--output", "cannot open '%s' for writing", path);
        return CLI_OUTPUT;
    }
    /* the legend, drawn first, lists every limiter set the panels will draw */
    int rc = CLI_OK;
    for (int i = 0; i < npanels; i++)
        for (int32_t j = 0; j < panels[i].n; j++)
            note_set(p, panels[i].pt[j].limiters);
    char title[200], extra[256] = "";
    const char *what = !chart ? "Occupancy" : !strcmp(chart, "tradeoff") ? "Register / occupancy trade-off"
                                                                          : "Achieved bandwidth";
    if (p->l.dev.sm_count)
        snprintf(title, sizeof title, "%s on %s (%s, %d %s)", what, p->l.dev_name, p->arch, p->l.dev.sm_count,
                 p->w->sms);
    else
        snprintf(title, sizeof title, "%s on %s (%s)", what, p->l.dev_name, p->arch);
    char lim[160];
    set_label(p->w, p->now.limiters, lim, sizeof lim);
    snprintf(extra, sizeof extra, "now: %g %% occupancy, %d %ss/%s, %d %ss/%s, limited by %s",
             100.0 * p->now.occupancy, p->now.blocks_per_sm, p->w->block, p->w->sm, p->now.warps_per_sm, p->w->warp,
             p->w->sm, lim);
    bool bw = chart && !strcmp(chart, "bandwidth"), tradeoff = chart && !bw;
    int head = bw ? 80 : HEADER_H + 18 * (legend(p, 90) - 1);
    bool beyond = bw && !(at_max->warps_for_95 <= p->l.dev.max_threads_per_sm / p->l.dev.warp_size);
    int height = head + (bw ? 1 : npanels) * PANEL_H + 12 + (tradeoff || beyond ? NOTE_H : 0);
    p->out = o;
    header(p, height, title, bw && !p->l.have_threads ? NULL : extra);
    if (!bw)
        legend(p, 90);
    for (int i = 0; i < (bw ? 1 : npanels) && rc == CLI_OK; i++) {
        double top = head + i * PANEL_H;
        p->L.nseg = 0; /* the curves of one panel are the next one's no concern */
        if (bw)
            rc = bandwidth_panel(p, top, bytes_per_warp, m, at_max);
        else if (chart)
            rc = tradeoff_panel(io, p, top, &panels[i], t);
        else
            occupancy_panel(p, top, &panels[i]);
    }
    fputs("</svg>\n", o);
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

/* The bandwidth model's constants: the table's for a product, each replaced by its flag when given. */
static bool dram_for(struct cli_io *io, const struct plot *p, double latency_ns, double peak_gbps, struct dram *m)
{
    gpuocc_perf perf = {.size = sizeof perf};
    bool have = gpuocc_perf_lookup(p->l.dev_name, &perf) == GPUOCC_OK;
    m->sm_count = have && perf.sm_count > 0 ? perf.sm_count : p->l.dev.sm_count;
    m->latency_ns = latency_ns > 0 ? latency_ns
                    : have && perf.latency_clock_mhz > 0 ? perf.dram_latency_cycles / perf.latency_clock_mhz * 1e3
                                                         : 0;
    m->peak_gbps = peak_gbps > 0 ? peak_gbps : have ? perf.dram_bandwidth_gbps : 0;
    m->bus_bits = have ? perf.dram_bus_bits : 0;
    /* the measured ceiling belongs to the table's peak: --peak-gbps drops it */
    m->attainable_gbps = have && !(peak_gbps > 0) ? perf.dram_attainable_gbps : 0;
    if (m->sm_count < 1)
        cli_fail(io, "--arch", "bandwidth model for '%s': the device has no %s count (use a product)",
                 p->l.dev_name, p->w->sm);
    else if (!(m->latency_ns > 0))
        cli_fail(io, "--latency-ns", "required with --chart bandwidth (no published DRAM latency for '%s')",
                 p->l.dev_name);
    else if (!(m->peak_gbps > 0))
        cli_fail(io, "--peak-gbps", "required with --chart bandwidth (no published DRAM bandwidth for '%s')",
                 p->l.dev_name);
    else if (!(m->bus_bits > 0))
        cli_fail(io, "--arch", "bandwidth model for '%s': no published DRAM bus width", p->l.dev_name);
    return !io->status;
}

static int cmd_plot(struct cli_io *io, int argc, char **argv)
{
    struct plot p = {0};
    cli_launch_init(&p.l);
    int32_t axis = -1;
    struct cli_cluster cc;
    cli_cluster_init(&cc);
    const char *output = NULL, *chart = NULL;
    bool terminal = false;
    double bytes_per_warp = 0, latency_ns = 0, peak_gbps = 0;
    struct tradeoff_inputs t = {256, 0.1, 300};
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
    for (; cli_more(&a); a.i++) {
        const char *v;
        if (cli_launch_flag(&a, &p.l) || cli_amd_launch_flag(&a, &p.l) || cli_intel_launch_flag(&a, &p.l) ||
            sweep_axis_flag(&a, &axis) || cli_cluster_flag(&a, &cc))
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
        else if (cli_flag(&a, "--latency-ns", &v)) {
            latency_ns = cli_double(io, "--latency-ns", v);
            if (!io->status && !(latency_ns > 0))
                cli_fail(io, "--latency-ns", "must be more than 0, got '%s'", v);
        } else if (cli_flag(&a, "--peak-gbps", &v)) {
            peak_gbps = cli_double(io, "--peak-gbps", v);
            if (!io->status && !(peak_gbps > 0))
                cli_fail(io, "--peak-gbps", "must be more than 0, got '%s'", v);
        } else if (cli_flag(&a, "--work-cycles", &v))
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
    if (chart && cli_is_intel(&p.l.dev))
        return cli_fail(io, "--chart", "%s: NVIDIA and AMD only (its register caps and DRAM model), but --arch %s is "
                        "an Intel device", chart, p.l.dev_name);
    if (axis == SWEEP_AXIS_CLUSTER) {
        /* the curve of resident clusters over the cluster size, as sweep --axis cluster counts it */
        if (!terminal)
            return cli_fail(io, "--axis", "cluster: drawn with --terminal only (no SVG panel yet); 'gpuocc sweep "
                            "--axis cluster --csv' gives the numbers");
        if (!p.l.have_threads)
            return cli_fail(io, "--threads", "required");
        return cli_cluster_sweep(io, &p.l, &cc, CLI_CLUSTER_TERMINAL);
    }
    if (cc.given || cc.c.cluster_nonportable || cc.grid_given || cc.layout_given)
        return cli_fail(io, cc.given ? "--cluster" : cc.grid_given ? "--grid-blocks" : cc.layout_given ? "--gpc-sms"
                        : "--cluster-nonportable", "only with --axis cluster");
    bool bw = chart && !strcmp(chart, "bandwidth");
    if (bw && !(bytes_per_warp > 0))
        return cli_fail(io, "--bytes-per-warp", "required with --chart bandwidth: bytes each warp keeps in flight");
    if (!bw && (latency_ns > 0 || peak_gbps > 0))
        return cli_fail(io, latency_ns > 0 ? "--latency-ns" : "--peak-gbps", "only with --chart bandwidth");
    if (chart && !strcmp(chart, "tradeoff") && !p.l.have_regs)
        return cli_fail(io, cli_is_amd(&p.l.dev) ? "--vgprs" : "--regs",
                        "required with --chart tradeoff: the kernel's register count");
    if (!p.l.have_threads && !bw)
        return cli_fail(io, "--threads", "required");
    cli_arch_name(&p.l.dev, p.arch, sizeof p.arch);
    p.w = words_for(&p.l);
    p.now.size = sizeof p.now;
    int32_t rc = gpuocc_occupancy(&p.l.dev, &p.l.k, &p.now);
    if (rc != GPUOCC_OK && !(bw && !p.l.have_threads))
        return cli_fail(io, "input", "%s", gpuocc_strerror(rc));
    /* the bandwidth model answers before any output is written */
    struct dram m = {0};
    gpuocc_bandwidth_prediction at_max = {.size = sizeof at_max};
    if (bw) {
        if (!dram_for(io, &p, latency_ns, peak_gbps, &m))
            return io->status;
        rc = gpuocc_bandwidth_model(p.l.dev.max_threads_per_sm / p.l.dev.warp_size, bytes_per_warp, m.sm_count,
                                    m.latency_ns, m.peak_gbps, m.bus_bits, m.attainable_gbps, &at_max);
        if (rc != GPUOCC_OK)
            return cli_fail(io, "--bytes-per-warp", "bandwidth model for '%s': %s", p.l.dev_name,
                            gpuocc_strerror(rc));
    }

    struct panel_data panels[4];
    int npanels = 0;
    if (chart && !strcmp(chart, "tradeoff")) {
        panels[npanels++] = (struct panel_data){GPUOCC_AXIS_REGS, 0, p.l.k.regs_per_thread, 1, NULL, 0};
    } else if (!bw) {
        /* Intel's default panels: work-group size, SLM and GRF (its register demand; regs do not apply) */
        bool intel = cli_is_intel(&p.l.dev);
        const int32_t all[3] = {GPUOCC_AXIS_THREADS, intel ? SWEEP_AXIS_GRF : GPUOCC_AXIS_REGS, GPUOCC_AXIS_SMEM};
        for (int i = 0; i < 3; i++)
            if (axis < 0 || axis == all[i])
                panels[npanels++] = (struct panel_data){all[i], 0, 0, 0, NULL, 0};
        if (axis >= 0 && npanels == 0)
            panels[npanels++] = (struct panel_data){axis, 0, 0, 0, NULL, 0};
        for (int i = 0; i < npanels; i++) {
            struct panel_data *d = &panels[i];
            if (!sweep_range(io, &p.l, d->axis, &d->from, &d->to, &d->step))
                return io->status;
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
            terminal_panel(io->out, &panels[i], &p);
    if (status == CLI_OK && output)
        status = write_svg(io, output, &p, panels, npanels, chart, &t, bytes_per_warp, &m, &at_max);
    for (int i = 0; i < npanels; i++)
        free(panels[i].pt);
    free(p.L.text);
    free(p.L.seg);
    free(p.L.is_box);
    return status;
}

static const struct cli_option plot_options[] = {
    CLI_LAUNCH_OPTIONS,
    CLI_AMD_LAUNCH_OPTIONS,
    CLI_INTEL_LAUNCH_OPTIONS,
    {"--output", "FILE", "write the SVG here (- for stdout)"},
    {"--axis", "AXIS", "one panel: threads, regs, smem or barriers (default: threads, regs and smem); Intel: "
                       "threads, smem (slm), barriers, sub_group or grf (default: threads, grf and smem); or, with "
                       "--terminal, cluster (NVIDIA: resident clusters against the cluster size)"},
    CLI_CLUSTER_OPTIONS,
    {"--terminal", NULL, "draw the panels with Unicode blocks on stdout"},
    {"--chart", "CHART", "tradeoff: occupancy and spill slowdown against the register cap; bandwidth: DRAM "
                         "bandwidth against warps per SM"},
    {"--bytes-per-warp", "B", "bandwidth: bytes each warp keeps in flight"},
    {"--latency-ns", "NS", "bandwidth: unloaded DRAM latency (default: the device's published figure)"},
    {"--peak-gbps", "GB/S", "bandwidth: peak DRAM bandwidth (default: the device's published figure)"},
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
