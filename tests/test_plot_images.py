#!/usr/bin/env python3
"""docs/images/: each PNG is kept with the SVG it was rendered from (NAME.png beside NAME.svg, both written by
scripts/plot-images), and each kept SVG is what this build draws for the command the script records for it
(plot_images.KINDS: the exact `gpuocc plot` arguments).  Compares the SVG text, not the PNG bytes (those change
with every browser release).  A failure means the drawing changed: rerun scripts/plot-images with this build.
Usage: test_plot_images.py GPUOCC SOURCE_ROOT"""
import os
import subprocess
import sys
import tempfile

from checks import check, finish, load_script

GPUOCC, ROOT = sys.argv[1], sys.argv[2]
IMAGES = os.path.join(ROOT, "docs", "images")
plot_images = load_script(os.path.join(ROOT, "scripts", "plot-images"), "plot_images")

# the web page's screenshots are recorded by scripts/web-images (its SHOTS), the plots by scripts/plot-images
web_images = load_script(os.path.join(ROOT, "scripts", "web-images"), "web_images")
recorded = sorted([*plot_images.KINDS, *(shot[0] for shot in web_images.SHOTS)])
kept = sorted(f[:-4] for f in os.listdir(IMAGES) if f.endswith(".png"))
check("every picture has a recorded command", kept == recorded, (kept, recorded))
with tempfile.TemporaryDirectory(prefix="gpuocc-images-") as scratch:
    for kind in plot_images.KINDS:
        svg = os.path.join(IMAGES, kind + ".svg")
        check(f"{kind}: the PNG and its SVG are kept", os.path.isfile(svg) and
              os.path.isfile(os.path.join(IMAGES, kind + ".png")), kind)
        if not os.path.isfile(svg):
            continue
        fresh = os.path.join(scratch, kind + ".svg")
        p = subprocess.run(plot_images.command(GPUOCC, kind, fresh), capture_output=True, text=True)
        check(f"{kind}: the recorded command runs", p.returncode == 0, p.stderr)
        if p.returncode:
            continue
        with open(svg) as f:
            want = f.read()
        with open(fresh) as f:
            got = f.read()
        diff = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        check(f"{kind}: docs/images/{kind}.svg is what this build draws (rerun scripts/plot-images)", want == got,
              f"first difference at character {diff}: kept {want[diff:diff + 80]!r}, drawn {got[diff:diff + 80]!r}")
finish("plot-images")
