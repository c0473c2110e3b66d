#!/usr/bin/env python3
"""gpuocc plot: the SVG is well-formed XML of SVG 1.1 elements and attributes only (listed below), 800 px
wide, generic font families, no script; and what it plots, read back through its own axis ticks (as a reader
would), equals the numbers: each occupancy panel's step line is exactly `gpuocc sweep`'s points with their
limiters, the current launch sits at `gpuocc report`'s occupancy, the trade-off's dashed line is the spill
slowdown computed here by hand ((work + shed x accesses x latency) / work) and its marks are `gpuocc
tradeoff`'s caps, the bandwidth curve is `gpuocc bandwidth`'s prediction.
Usage: test_plot.py GPUOCC"""
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
    return text


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


def check_occupancy_panel(root, axis, launch, scale):
    g = panel(root, "panel-" + axis)
    value_of = linear(ticks(g, "xtick", "x1", scale))
    occ_of = linear(ticks(g, "ytick", "y1"))
    rc, out, err = run("sweep", *launch, "--axis", axis, "--json")
    rows = json.loads(out)
    key = {"threads": "threads", "regs": "regs", "smem": "smem_dynamic", "barriers": "barriers"}[axis]
    drawn = []
    for pl in g.iter(NS + "polyline"):
        cls = pl.get("class")
        if not cls.startswith("run "):
            continue
        v = vertices(pl)
        check(f"{axis}: vertices in pairs", len(v) % 2 == 0 and all(v[i][1] == v[i + 1][1] for i in range(0, len(v), 2)))
        for i in range(0, len(v), 2):
            centre = value_of((v[i][0] + v[i + 1][0]) / 2)
            drawn.append((round(centre), occ_of(v[i][1]), cls, centre))
    check(f"{axis}: one segment per sweep point", len(drawn) == len(rows), (len(drawn), len(rows)))
    bad = [(d, r[key], r["occupancy"]) for d, r in zip(drawn, rows)
           if d[0] != r[key] or abs(d[3] - r[key]) > 0.02 * (scale if axis == "smem" else 1) + 0.02
           or abs(d[1] - 100 * r["occupancy"]) > 0.02 or d[2] != limiter_class(r["limiters"])]
    check(f"{axis}: the step line is the sweep's points", not bad, bad[:3])
    # the current launch
    rc, out, err = run("report", *launch, "--json")
    now = json.loads(out)
    marks = [c for c in g.iter(NS + "circle") if c.get("class") == "current"]
    check(f"{axis}: one current mark", len(marks) == 1, len(marks))
    if marks:
        cx, cy = float(marks[0].get("cx")), float(marks[0].get("cy"))
        check(f"{axis}: mark at the launch", abs(value_of(cx) - now[key]) < 0.02 * scale and
              abs(occ_of(cy) - 100 * now["occupancy"]) < 0.02, (value_of(cx), occ_of(cy), now[key], now["occupancy"]))
    return {r["limiters"] and "-".join(r["limiters"]) for r in rows}


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
runs = [p for p in g.iter(NS + "polyline") if p.get("class", "").startswith("run ")]
centres = [round(cap_of((a[0] + b[0]) / 2)) for p in runs for a, b in zip(vertices(p)[::2], vertices(p)[1::2])]
check("tradeoff: the occupancy staircase covers caps 0..128", centres == list(range(0, 129)), centres[:5])

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
rc, out, err = run("plot", "--arch", "MI300X", "--threads", "512", "--vgprs", "64", "--max-threads", "256", "--terminal")
check("plot checks the launch as report does", rc == 2 and err.startswith("gpuocc: --threads: 512 is more than"), (rc, err))
rc, out, err = run("plot", "--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--rocm", "6.2", "--terminal")
check("plot: --rocm without --model runtime", rc == 2 and err.startswith("gpuocc: --rocm:"), (rc, err))
rc, out, err = run("plot", *LAUNCH, "--model", "tradeoff", "--output", "-")
check("plot --model is AMD's model, not a chart", rc == 2 and err.startswith("gpuocc: --model: expected compiler or runtime"),
      (rc, err))

finish("plot")
