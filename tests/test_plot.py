#!/usr/bin/env python3
"""gpuocc plot: the SVG is well-formed XML of SVG 1.1 elements and attributes only (listed below), 800 px
wide, generic font families, no script; and what it plots, read back through its own axis ticks (as a reader
would), equals the numbers: each occupancy panel's step line is exactly `gpuocc sweep`'s points with their
limiters, the current launch sits at `gpuocc report`'s occupancy, the trade-off's dashed line is the spill
slowdown computed here by hand ((work + shed x accesses x latency) / work) and its marks are `gpuocc
tradeoff`'s caps, the bandwidth curve is `gpuocc bandwidth`'s prediction.
Usage: test_plot.py GPUOCC"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from checks import check, finish

GPUOCC = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"

# SVG 1.1 (W3C Recommendation, 16 August 2011): the elements and attributes the plots may use.
SVG11_ELEMENTS = {"svg", "g", "title", "desc", "rect", "line", "polyline", "circle", "text"}
SVG11_ATTRIBUTES = {
    "version", "width", "height", "viewBox", "font-family", "font-size", "x", "y", "x1", "y1", "x2", "y2", "cx",
    "cy", "r", "points", "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-dashoffset",
    "text-anchor", "class", "id", "transform",
}
GENERIC_FAMILIES = {"serif", "sans-serif", "monospace"}


def run(*args):
    p = subprocess.run([GPUOCC] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def plot(*args):
    fd, path = tempfile.mkstemp(suffix=".svg")
    os.close(fd)
    rc, out, err = run("plot", *args, "--output", path)
    check(f"plot {args} exit", rc == 0, err)
    with open(path) as f:
        text = f.read()
    os.unlink(path)
    return text if rc == 0 else '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="0" viewBox="0 0 800 0"/>'  # checks fail, not crash


def well_formed_svg11(name, text):
    root = ET.fromstring(text)  # raises on malformed XML
    check(f"{name}: root", root.tag == NS + "svg" and root.get("version") == "1.1", root.tag)
    check(f"{name}: 800 px wide", root.get("width") == "800" and root.get("viewBox", "").split()[2] == "800")
    for el in root.iter():
        tag = el.tag[len(NS):] if el.tag.startswith(NS) else el.tag
        check(f"{name}: SVG 1.1 element", el.tag.startswith(NS) and tag in SVG11_ELEMENTS, el.tag)
        for attr in el.attrib:
            check(f"{name}: SVG 1.1 attribute", attr in SVG11_ATTRIBUTES, f"{tag} {attr}")
        if "font-family" in el.attrib:
            fams = {f.strip() for f in el.get("font-family").split(",")}
            check(f"{name}: generic fonts", fams <= GENERIC_FAMILIES, fams)
    # no script: no <script> element and no on* event attribute (both outside the lists above), no script URL
    check(f"{name}: no script", "<script" not in text and "javascript:" not in text)
    return root


def panel(root, pid):
    for g in root.iter(NS + "g"):
        if g.get("id") == pid:
            return g
    raise AssertionError(f"no panel {pid}")


def ticks(g, cls, coord, scale=1.0):
    """(pixel, value) pairs of an axis: the tick lines and their labels, in order."""
    lines = [float(l.get(coord)) for l in g.iter(NS + "line") if l.get("class") == cls]
    labels = [t.text for t in g.iter(NS + "text") if t.get("class") == cls]
    values = [float(re.match(r"[-0-9.e]+", s).group(0)) * scale for s in labels]
    check(f"{cls} ticks labelled", len(lines) == len(values) and len(lines) >= 3, (lines, labels))
    return list(zip(lines, values))


def linear(pairs):
    """value(pixel) from the first and last tick."""
    (p0, v0), (p1, v1) = pairs[0], pairs[-1]
    return lambda p: v0 + (p - p0) * (v1 - v0) / (p1 - p0)


def vertices(el):
    return [tuple(map(float, xy.split(","))) for xy in el.get("points").split()]


def limiter_class(limiters):
    return "run lim" + "".join("-" + l for l in limiters)


def staircase(name, g, value_of, occ_of):
    """[(lo, hi, occupancy %, class)]: the step line's horizontal segments (each polyline's vertices in pairs at
    one height), read back through the axis ticks, left to right."""
    segs = []
    for pl in g.iter(NS + "polyline"):
        cls = pl.get("class")
        if not cls.startswith("run "):
            continue
        v = vertices(pl)
        check(f"{name}: vertices in pairs", len(v) % 2 == 0 and all(v[i][1] == v[i + 1][1] for i in range(0, len(v), 2)))
        segs += [(value_of(v[i][0]), value_of(v[i + 1][0]), occ_of(v[i][1]), cls) for i in range(0, len(v) - 1, 2)]
    return sorted(segs)


def same_staircase(name, segs, points, step):
    """The segments draw exactly the points' staircase: point v at occupancy o is [v - step/2, v + step/2] at o;
    the segments tile the range without gaps or overlaps, and each covers a run of points at its occupancy and
    limiters (so only corners are drawn, and every corner is)."""
    tol = step / 4
    check(f"{name}: the segments tile the axis", bool(segs) and all(abs(a[1] - b[0]) < tol for a, b in zip(segs, segs[1:]))
          and abs(segs[0][0] - (points[0][0] - step / 2)) < tol and abs(segs[-1][1] - (points[-1][0] + step / 2)) < tol,
          segs[:4])
    bad, at, used = [], 0, set()
    for v, occ, cls in points:
        while at < len(segs) and segs[at][1] < v:
            at += 1
        if at == len(segs) or not segs[at][0] < v < segs[at][1] or abs(segs[at][2] - occ) > 0.02 or segs[at][3] != cls:
            bad.append((v, occ, cls, segs[at] if at < len(segs) else None))
        used.add(at)
    check(f"{name}: the step line is the sweep's points", not bad, bad[:3])
    check(f"{name}: each segment covers points", len(used) == len(segs), (len(used), len(segs)))


def sweep_rows(launch, axis):
    rc, out, err = run("sweep", *launch, "--axis", axis, "--csv")
    check(f"sweep {axis} {launch}", rc == 0, err)
    return list(csv.DictReader(io.StringIO(out)))


def check_occupancy_panel(root, axis, launch, scale):
    g = panel(root, "panel-" + axis)
    value_of = linear(ticks(g, "xtick", "x1", scale))
    occ_of = linear(ticks(g, "ytick", "y1"))
    rows = sweep_rows(launch, axis)
    key = {"threads": "threads", "regs": "regs", "smem": "smem_dynamic", "barriers": "barriers"}[axis]
    points = [(int(r[key]), 100 * float(r["occupancy"]), limiter_class(r["limiters"].split("|") if r["limiters"] else []))
              for r in rows]
    step = points[1][0] - points[0][0] if len(points) > 1 else 1
    same_staircase(axis, staircase(axis, g, value_of, occ_of), points, step)
    # the current launch
    rc, out, err = run("report", *launch, "--json")
    now = json.loads(out)
    marks = [c for c in g.iter(NS + "circle") if c.get("class") == "current"]
    check(f"{axis}: one current mark", len(marks) == 1, len(marks))
    if marks:
        cx, cy = float(marks[0].get("cx")), float(marks[0].get("cy"))
        check(f"{axis}: mark at the launch", abs(value_of(cx) - now[key]) < 0.02 * scale and
              abs(occ_of(cy) - 100 * now["occupancy"]) < 0.02, (value_of(cx), occ_of(cy), now[key], now["occupancy"]))
    return {r["limiters"].replace("|", "-") for r in rows}


# 1. the three occupancy panels
LAUNCH = ["--arch", "A100", "--threads", "256", "--regs", "64", "--smem-dynamic", "16K"]
svg = plot(*LAUNCH)
root = well_formed_svg11("occupancy", svg)
seen = set()
for axis, scale in [("threads", 1), ("regs", 1), ("smem", 1024)]:
    seen |= check_occupancy_panel(root, axis, LAUNCH, scale)
title = " ".join(t.text for t in root.iter(NS + "text") if t.get("class") in ("title", "subtitle"))
check("title names device and launch", "A100" in title and "256 threads" in title and "64 registers" in title, title)
legend = [t.text for t in root.iter(NS + "text") if t.get("class") == "legend-label"]
check("a legend entry per limiter set drawn", len(legend) == len(seen), (legend, seen))
labels = {t.text for t in root.iter(NS + "text") if t.get("class") in ("xlabel", "ylabel")}
check("axes labelled with units", {"threads per block", "registers per thread",
                                   "dynamic shared memory per block (KiB)", "occupancy (% of warp slots)"} <= labels,
      labels)

# 2. one panel; barriers on H100 (they limit from cc 9.0); ties drawn with each member's colour
svg = plot("--arch", "H100", "--threads", "64", "--regs", "16", "--barriers", "2", "--axis", "barriers")
root = well_formed_svg11("barriers", svg)
check("one panel", len([g for g in root.iter(NS + "g") if g.get("class") == "panel"]) == 1)
check_occupancy_panel(root, "barriers", ["--arch", "H100", "--threads", "64", "--regs", "16", "--barriers", "2"], 1)
check("a three-way tie in three colours", len([p for p in root.iter(NS + "polyline") if p.get("class") == "tie"]) >= 2)

# 3. the register / occupancy trade-off
WORK, ACC, LAT = 256.0, 2 / 64, 300.0
TL = ["--arch", "A100", "--threads", "256", "--regs", "128"]
svg = plot(*TL, "--chart", "tradeoff", "--work-cycles", "256", "--spill-accesses-per-reg", str(ACC), "--spill-latency-cycles", "300")
root = well_formed_svg11("tradeoff", svg)
g = panel(root, "panel-tradeoff")
cap_of = linear(ticks(g, "xtick", "x1"))
slow_of = linear(ticks(g, "ytick2", "y1"))
occ_of = linear(ticks(g, "ytick", "y1"))
line = [p for p in g.iter(NS + "polyline") if p.get("class") == "slowdown"][0]
pts = [(round(cap_of(x)), slow_of(y)) for x, y in vertices(line)]
check("tradeoff: a slowdown per cap", [c for c, _ in pts] == list(range(0, 129)), pts[:3])
bad = [(c, s) for c, s in pts if abs(s - (WORK + (128 - c) * ACC * LAT) / WORK) > 0.005]
check("tradeoff: slowdown = (work + shed x accesses x latency) / work", not bad, bad[:3])
rc, out, err = run("tradeoff", *TL, "--work-cycles", "256", "--spill-accesses-per-reg", str(ACC), "--spill-latency-cycles", "300",
                   "--json")
steps = json.loads(out)["steps"]
marks = [(round(cap_of(float(c.get("cx")))), occ_of(float(c.get("cy"))))
         for c in g.iter(NS + "circle") if c.get("class") == "tradeoff-occupancy"]
check("tradeoff: marks at gpuocc tradeoff's caps", [m[0] for m in marks] == [s["regs"] for s in steps]
      and all(abs(m[1] - 100 * s["occupancy"]) < 0.02 for m, s in zip(marks, steps)), (marks, steps))
check_occupancy_panel(root, "tradeoff", TL, 1) if False else None
rows = sweep_rows(TL, "regs")[:129]
check("tradeoff: the occupancy staircase covers caps 0..128", [int(r["regs"]) for r in rows] == list(range(0, 129)))
same_staircase("tradeoff", staircase("tradeoff", g, cap_of, occ_of),
               [(int(r["regs"]), 100 * float(r["occupancy"]), limiter_class(r["limiters"].split("|"))) for r in rows], 1)

# 4. bandwidth against warps per SM
svg = plot("--arch", "A100", "--threads", "256", "--regs", "32", "--chart", "bandwidth", "--bytes-per-warp", "256")
root = well_formed_svg11("bandwidth", svg)
g = panel(root, "panel-bandwidth")
warps_of = linear(ticks(g, "xtick", "x1"))
gbps_of = linear(ticks(g, "ytick", "y1"))
line = [p for p in g.iter(NS + "polyline") if p.get("class") == "bandwidth"][0]
pts = {round(warps_of(x)): gbps_of(y) for x, y in vertices(line)}
check("bandwidth: a point per warp count", sorted(pts) == list(range(1, 65)), sorted(pts)[:3])
for w in (4, 16, 32, 64):
    rc, out, err = run("bandwidth", "--arch", "A100", "--warps-per-sm", str(w), "--bytes-per-warp", "256", "--json")
    want = json.loads(out)["bandwidth_gbps"]
    check(f"bandwidth at {w} warps", abs(pts.get(w, 0) - want) < 0.002 * want + 0.1, (pts.get(w), want))

# 5. the terminal view and exit statuses
rc, out, err = run("plot", *LAUNCH, "--terminal", "--axis", "regs")
check("terminal", rc == 0 and "\u2588" in out and "registers per thread" in out, (rc, err))
for args, want in [(LAUNCH, 2), (LAUNCH + ["--output", "/nonexistent/dir/x.svg"], 3),
                   (LAUNCH + ["--chart", "bandwidth", "--output", "-"], 2),
                   (LAUNCH + ["--chart", "roofs", "--output", "-"], 2),
                   (["--arch", "A100", "--output", "-"], 2)]:
    rc, out, err = run("plot", *args)
    check(f"plot exit {args[-2:]}", rc == want, (rc, err))
# AMD's launch flags, as `gpuocc report` and `sweep` take them; `--model` is AMD's (compiler or runtime) here too,
# the charts are `--chart`.  MI300X, 256 threads: 128 VGPRs give 4 waves per SIMD = 4 workgroups, 64 give 8
# (docs/amd.md: 512 VGPRs per SIMD lane), so the two pictures differ.
amd = ["--arch", "MI300X", "--threads", "256", "--terminal", "--axis", "threads"]
rc, out128, err = run("plot", *amd, "--vgprs", "128")
rc2, out64, err2 = run("plot", *amd, "--vgprs", "64", "--model", "runtime")
check("plot takes AMD's launch flags", rc == 0 and rc2 == 0 and out128 != out64 and "\u2588" in out128,
      (rc, err, rc2, err2))
rc, out, err = run("plot", "--arch", "MI300X", "--threads", "100", "--vgprs", "64", "--flat-workgroup-size", "128,256",
                   "--terminal")
check("plot checks the launch as report does", rc == 2 and err.startswith("gpuocc: --threads: 100 is less than"), (rc, err))
rc, out, err = run("plot", "--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--rocm", "6.2", "--terminal")
check("plot: --rocm without --model runtime", rc == 2 and err.startswith("gpuocc: --rocm:"), (rc, err))
rc, out, err = run("plot", *LAUNCH, "--model", "tradeoff", "--output", "-")
check("plot --model is AMD's or Intel's model, not a chart", rc == 2 and err.startswith("gpuocc: --model: expected compiler, llvm19, calculator or runtime"),
      (rc, err))

# 6. AMD devices in AMD's words: CUs (WGPs on gfx10+ in WGP mode, as HIP and `gpuocc report` count them),
# workgroups, waves, VGPRs and LDS, in titles, axes, legends, labels and the terminal; NVIDIA's words unchanged.
# Counts from AMD's specifications: MI300X has 304 CUs; RX 7900 XTX 96 CUs = 48 WGPs of 2; gfx90a is a bare target.
NVIDIA_WORDS = re.compile(r"\bSMs?\b|register|shared memory|\bwarps?\b|\bblocks?\b|/block|per thread")


def texts(root):
    return [t.text or "" for t in root.iter(NS + "text")]


AMD = [(["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--lds", "8K"], "304 CUs", "CU"),
       (["--arch", "gfx90a", "--threads", "128", "--vgprs", "96", "--agprs", "8"], None, "CU"),
       (["--arch", "RX 7900 XTX", "--threads", "256", "--vgprs", "64", "--lds-dynamic", "16K"], "48 WGPs", "WGP"),
       (["--arch", "RX 7900 XTX", "--threads", "256", "--vgprs", "64", "--cu-mode"], "48 CUs", "CU")]
for launch, count, unit in AMD:
    name = launch[1] + (" cu-mode" if "--cu-mode" in launch else "")
    charts = [("default", []), ("threads", ["--axis", "threads"]), ("regs", ["--axis", "regs"]),
              ("smem", ["--axis", "smem"]), ("tradeoff", ["--chart", "tradeoff"])]
    if count:  # the bandwidth model needs a product's CU count; MI300X's DRAM figures given (5.3 TB/s, AMD's)
        charts.append(("bandwidth", ["--chart", "bandwidth", "--bytes-per-warp", "256", "--latency-ns", "800",
                                     "--peak-gbps", "5300"]))
    for chart, extra in charts:
        svg = plot(*launch, *extra)
        root = well_formed_svg11(f"{name} {chart}", svg)
        words = texts(root)
        nv = [w for w in words if NVIDIA_WORDS.search(w)]
        check(f"{name} {chart}: no NVIDIA words", not nv, nv[:4])
        title = next((t.text for t in root.iter(NS + "text") if t.get("class") == "title"), "")
        check(f"{name} {chart}: title counts {count or 'nothing'}", (count in title) if count else "(gfx90a)" in title,
              title)
        sub = " ".join(t.text for t in root.iter(NS + "text") if t.get("class") == "subtitle")
        check(f"{name} {chart}: the launch in VGPRs and LDS", "VGPRs" in sub and "LDS" in sub and "threads/workgroup" in sub
              and (chart == "bandwidth" or f"workgroups/{unit}" in sub and f"waves/{unit}" in sub), sub)
        labels = {t.text for t in root.iter(NS + "text") if t.get("class") in ("xlabel", "ylabel", "panel-title")}
        want = {"default": {"threads per workgroup", "VGPRs per lane", "dynamic LDS per workgroup (KiB)",
                            "occupancy (% of wave slots)", "Occupancy against workgroup size",
                            "Occupancy against VGPRs", "Occupancy against LDS"},
                "threads": {"threads per workgroup", "Occupancy against workgroup size"},
                "regs": {"VGPRs per lane", "Occupancy against VGPRs"},
                "smem": {"dynamic LDS per workgroup (KiB)", "Occupancy against LDS"},
                "tradeoff": {"VGPR cap per lane (amdgpu_num_vgpr, __launch_bounds__)",
                             "VGPR cap: occupancy gained, spill slowdown paid", "occupancy (% of wave slots)"},
                "bandwidth": {f"resident waves per {unit}",
                              f"DRAM bandwidth against waves per {unit} (256 bytes in flight per wave)"}}[chart]
        check(f"{name} {chart}: AMD's axes and titles", want <= labels, (want - labels, labels))
        legend = [t.text for t in root.iter(NS + "text") if t.get("class") == "legend-label"]
        check(f"{name} {chart}: legend in AMD's resources", chart == "bandwidth" or legend and all(
            set(re.sub(r" \(tie\)$", "", l).split(" = ")) <= {"wave slots", "VGPRs", "LDS", "barriers", "SGPRs"}
            for l in legend), legend)
        current = [t.text for t in root.iter(NS + "text") if t.get("class") == "current-label"]
        check(f"{name} {chart}: the launch's label", len(current) == (1 if chart != "default" else 3) and
              (chart != "regs" or current[0].startswith(f"this launch: {launch[5]} VGPRs,")), current)
    rc, out, err = run("plot", *launch, "--terminal")
    check(f"{name} terminal", rc == 0 and "Occupancy against VGPRs" in out and "Occupancy against LDS" in out
          and "VGPRs per lane" in out and "dynamic LDS per workgroup (KiB)" in out and "L LDS" in out, out[-600:])
    nv = [l for l in out.splitlines() if NVIDIA_WORDS.search(l)]
    check(f"{name} terminal: no NVIDIA words", not nv, nv[:3])
# NVIDIA keeps its words
svg = plot(*LAUNCH)
words = " | ".join(texts(ET.fromstring(svg)))
check("NVIDIA: SMs, registers, shared memory, warps, blocks", all(w in words for w in (
    "108 SMs", "threads/block", "registers/thread", "shared memory", "blocks/SM", "warps/SM", "warp slots",
    "Occupancy against block size", "Occupancy against registers", "Occupancy against shared memory",
    "this launch: 64 registers")) and "VGPR" not in words and "LDS" not in words, words[:800])
for extra, want in [(["--chart", "tradeoff"], "register cap per thread (-maxrregcount, __launch_bounds__)"),
                    (["--chart", "bandwidth", "--bytes-per-warp", "256"], "resident warps per SM")]:
    words = texts(ET.fromstring(plot(*LAUNCH[:6], *extra)))
    check(f"NVIDIA {extra[1]}: {want}", want in words, words)
rc, out, err = run("plot", *LAUNCH, "--terminal")
check("NVIDIA terminal words", "Occupancy against registers" in out and "R registers" in out
      and "S shared memory" in out and "VGPR" not in out, out[-400:])

# 7. the size: under 200 KB whatever the axis range.  The widest ranges plot draws: gfx950's LDS (160 KiB per CU,
# docs/amd.md) at 1 byte = 163,841 points, the same for MI350X; MI300X's 64 KiB; H100's 227 KiB of shared memory
# in 128-byte units; AMD's VGPRs 0..256, NVIDIA's 0..255; the most threads; every barrier; the trade-off over
# 255 / 256 registers; bandwidth over an SM's every warp.  The staircase stays exactly the sweep's (point by point).
WIDE = [(["--arch", "gfx950", "--threads", "256", "--vgprs", "32"], "smem"),
        (["--arch", "MI350X", "--threads", "64", "--vgprs", "8"], "smem"),
        (["--arch", "MI300X", "--threads", "1024", "--vgprs", "0"], "smem"),
        (["--arch", "MI300X", "--threads", "64", "--vgprs", "1"], "regs"),
        (["--arch", "RX 7900 XTX", "--threads", "32", "--vgprs", "1"], "threads"),
        (["--arch", "H100", "--threads", "32", "--regs", "1"], "smem"),
        (["--arch", "H100", "--threads", "32", "--regs", "1"], "regs"),
        (["--arch", "H100", "--threads", "1024", "--regs", "16"], "threads"),
        (["--arch", "H100", "--threads", "32", "--regs", "16", "--barriers", "1"], "barriers")]
for launch, axis in WIDE:
    name = f"{launch[1]} --axis {axis}"
    svg = plot(*launch, "--axis", axis)
    check(f"{name}: under 200 KB", len(svg.encode()) < 200_000, len(svg.encode()))
    root = well_formed_svg11(name, svg)
    check_occupancy_panel(root, axis, launch, 1024 if axis == "smem" else 1)
for launch in (["--arch", "gfx950", "--threads", "256", "--vgprs", "32"], ["--arch", "H100", "--threads", "32"],
               ["--arch", "MI300X", "--threads", "64", "--vgprs", "1"]):
    svg = plot(*launch)
    check(f"{launch[1]} three panels: under 200 KB", len(svg.encode()) < 200_000, len(svg.encode()))
for launch in (["--arch", "H100", "--threads", "32", "--regs", "255", "--chart", "tradeoff"],
               ["--arch", "MI300X", "--threads", "64", "--vgprs", "256", "--chart", "tradeoff"],
               ["--arch", "H100", "--threads", "32", "--chart", "bandwidth", "--bytes-per-warp", "16"]):
    svg = plot(*launch)
    check(f"{' '.join(launch[1::2])}: under 200 KB", len(svg.encode()) < 200_000, len(svg.encode()))


# 8. labels cover neither the curves nor each other.  A text's box is estimated as tools/cmd_plot.c does (no
# font metrics): 0.6 x font-size per character wide, from 0.8 x font-size above the baseline to 0.25 below,
# turned with its group's rotate(); the boxes of two texts must not meet, nor any box the segments of a
# polyline or a line (curves, risers, the current launch's dashed line, the peak line, legend keys; not the
# grid and the ticks) or a dot (circles, as their square), and every box lies inside the picture.
def text_boxes(root):
    boxes = []

    def walk(el, turn):
        tr = el.get("transform")
        if tr:
            m = re.match(r"rotate\(([-0-9.]+) ([-0-9.]+) ([-0-9.]+)\)", tr)
            turn = (float(m.group(1)), float(m.group(2)), float(m.group(3)))
        for c in el:
            if c.tag == NS + "text":
                x, y, size, s = float(c.get("x")), float(c.get("y")), float(c.get("font-size")), c.text or ""
                w = 0.6 * size * len(s)
                x0 = {"start": x, "end": x - w, "middle": x - w / 2}[c.get("text-anchor")]
                b = (x0, y - 0.8 * size, x0 + w, y + 0.25 * size)
                if turn:
                    a, cx, cy = turn
                    corners = [(px - cx, py - cy) for px in (b[0], b[2]) for py in (b[1], b[3])]
                    if a == -90:
                        corners = [(cx + dy, cy - dx) for dx, dy in corners]
                    else:
                        corners = [(cx - dy, cy + dx) for dx, dy in corners]
                    b = (min(p[0] for p in corners), min(p[1] for p in corners),
                         max(p[0] for p in corners), max(p[1] for p in corners))
                boxes.append((b, s))
            else:
                walk(c, turn)
    walk(root, None)
    return boxes


def obstacles(root):
    segs, dots = [], []
    for el in root.iter():
        tag = el.tag[len(NS):]
        if tag == "polyline":
            v = vertices(el)
            segs += [(a, b, el.get("class")) for a, b in zip(v, v[1:])]
        elif tag == "line" and el.get("stroke") != "#e4e4e4" and el.get("class") not in ("xtick", "ytick", "ytick2"):
            segs.append(((float(el.get("x1")), float(el.get("y1"))), (float(el.get("x2")), float(el.get("y2"))),
                         el.get("class")))
        elif tag == "circle":
            cx, cy, r = float(el.get("cx")), float(el.get("cy")), float(el.get("r"))
            dots.append(((cx - r, cy - r, cx + r, cy + r), el.get("class")))
    return segs, dots


def meets(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def segment_meets(p, q, b):
    """Liang-Barsky: whether the segment p-q meets the box b."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pi, qi in ((-dx, p[0] - b[0]), (dx, b[2] - p[0]), (-dy, p[1] - b[1]), (dy, b[3] - p[1])):
        if pi == 0:
            if qi < 0:
                return False
        else:
            t = qi / pi
            if pi < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def layout_problems(svg):
    root = ET.fromstring(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    boxes = text_boxes(root)
    segs, dots = obstacles(root)
    problems = []
    for i, (b, s) in enumerate(boxes):
        if b[0] < 0 or b[1] < 0 or b[2] > width or b[3] > height:
            problems.append(("outside the picture", s, [round(v, 1) for v in b]))
        for c, t in boxes[i + 1:]:
            if meets(b, c):
                problems.append(("texts meet", s, t))
        for p, q, cls in segs:
            if segment_meets(p, q, b):
                problems.append(("text on a line", s, cls, p, q))
                break
        for d, cls in dots:
            if meets(b, d):
                problems.append(("text on a dot", s, cls))
                break
    return problems


LAYOUTS = [LAUNCH, ["--arch", "H100", "--threads", "128", "--regs", "96", "--axis", "regs"],
           ["--arch", "H100", "--threads", "64", "--regs", "16", "--barriers", "2", "--axis", "barriers"],
           ["--arch", "H100", "--threads", "1024", "--regs", "32", "--smem-dynamic", "100K"],
           ["--arch", "V100", "--threads", "96", "--regs", "200", "--smem-static", "12K"],
           ["--arch", "RTX 4090", "--threads", "512", "--regs", "40", "--axis", "smem", "--smem-dynamic", "3000"],
           ["--arch", "A100", "--threads", "256", "--regs", "128", "--chart", "tradeoff"],
           ["--arch", "A100", "--threads", "256", "--regs", "128", "--chart", "tradeoff", "--spill-accesses-per-reg",
            "0.03125"],
           ["--arch", "H100", "--threads", "128", "--regs", "255", "--chart", "tradeoff"],
           ["--arch", "A100", "--threads", "256", "--regs", "64", "--chart", "bandwidth", "--bytes-per-warp", "256"],
           ["--arch", "H100", "--threads", "1024", "--regs", "32", "--chart", "bandwidth", "--bytes-per-warp", "4096"],
           ["--arch", "A100", "--threads", "32", "--regs", "255", "--chart", "bandwidth", "--bytes-per-warp", "64"],
           ["--arch", "MI300X", "--threads", "256", "--vgprs", "128", "--lds", "24K"],
           ["--arch", "MI300X", "--threads", "512", "--vgprs", "64", "--axis", "regs"],
           ["--arch", "gfx90a", "--threads", "64", "--vgprs", "200", "--agprs", "40", "--axis", "threads"],
           ["--arch", "gfx950", "--threads", "256", "--vgprs", "32", "--axis", "smem", "--lds-dynamic", "100K"],
           ["--arch", "RX 7900 XTX", "--threads", "256", "--vgprs", "64", "--lds-dynamic", "16K"],
           ["--arch", "MI300X", "--threads", "256", "--vgprs", "96", "--chart", "tradeoff"],
           ["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--chart", "bandwidth", "--bytes-per-warp", "512",
            "--latency-ns", "800", "--peak-gbps", "5300"]]
for launch in LAYOUTS:
    problems = layout_problems(plot(*launch))
    check(f"layout {' '.join(launch)}: no label covers a curve or another label", not problems, problems[:4])

# 9. --terminal's shared-memory panel in the unit its label says (KiB), the current launch marked under its
# column.  A100: 163 KiB of dynamic shared memory per block with opt-in (CUDA's table), in 128-byte units: points
# 0, 128 .. 166912, 1305 of them; 64 columns, column c showing points floor(c x 1305 / 64) onwards, so 16 KiB
# (point 128) is under column 6.  MI300X: 64 KiB of LDS per workgroup at 1 byte, 65537 points; 16 KiB (point
# 16384) starts column 16 (floor(16 x 65537 / 64) = 16384).
for launch, ends, column, title in [
        (LAUNCH, ("0 KiB", "163 KiB"), 6, "Occupancy against shared memory (this launch: 16 KiB, 50 %)"),
        (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--lds-dynamic", "16K"], ("0 KiB", "64 KiB"), 16,
         "Occupancy against LDS (this launch: 16 KiB, ")]:
    rc, out, err = run("plot", *launch, "--terminal", "--axis", "smem")
    lines = out.splitlines()
    check(f"terminal smem {launch[1]}: title with the launch", rc == 0 and lines and lines[0].startswith(title), lines[:1])
    ends_line = [l for l in lines if "(KiB)" in l]
    check(f"terminal smem {launch[1]}: ends in KiB", len(ends_line) == 1 and
          ends_line[0].split()[:2] == ["0", "KiB"] and f" {ends[1]}  (" in ends_line[0] and "166912" not in out
          and "65536" not in out, ends_line)
    caret = [l for l in lines if "^" in l]
    check(f"terminal smem {launch[1]}: the launch marked under column {column}", len(caret) == 1 and
          caret[0].index("^") == len("       ") + column, caret)

finish("plot")
