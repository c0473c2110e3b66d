#!/usr/bin/env python3
"""Each kind of `gpuocc plot` picture rendered by a real browser: scripts/plot-images draws them and
screenshots them in headless Chromium; each PNG must be a valid PNG of the SVG's size (800 px wide) with a
picture in it (not blank: many distinct colours, the plot's palette among them).  Skipped (77) without
Chromium.  Usage: test_browser.py GPUOCC SCRIPTS_DIR"""
import os
import struct
import sys
import tempfile
import zlib

from checks import check, finish, load_script

GPUOCC, SCRIPTS = sys.argv[1], sys.argv[2]
plot_images = load_script(os.path.join(SCRIPTS, "plot-images"), "plot_images")

browser = plot_images.chromium()
if not browser:
    print("browser: chromium not found (apt-get install chromium); skipped")
    sys.exit(77)


def read_png(path):
    """(width, height, rows of RGB(A) bytes) for 8-bit RGB/RGBA non-interlaced PNGs, as Chromium writes."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


with tempfile.TemporaryDirectory(prefix="gpuocc-browser-") as out:
    drawn = plot_images.draw(GPUOCC, out, browser)
    check("every kind drawn", sorted(drawn) == sorted(plot_images.KINDS), sorted(drawn))
    for kind, (png, (w, h)) in drawn.items():
        check(f"{kind}: non-empty file", os.path.getsize(png) > 10000, os.path.getsize(png))
        width, height, bpp, rows = read_png(png)
        check(f"{kind}: PNG is the SVG's size", (width, height) == (w, h) and width == 800, (width, height, w, h))
        colours = {row[i:i + 3] for row in rows[::3] for i in range(0, len(row), bpp * 3)}
        check(f"{kind}: a picture, not a blank page", len(colours) > 20, len(colours))
        # the line colours the SVG asks for are on screen (anti-aliasing leaves the stroke's centre exact)
        want = {"occupancy": "E69F00", "registers": "E69F00", "barriers": "D55E00", "tradeoff": "E69F00",
                "bandwidth": "0072B2", "amd": "E69F00"}[kind]
        rgb = bytes.fromhex(want)
        hits = sum(row[i:i + 3] == rgb for row in rows for i in range(0, len(row), bpp))
        check(f"{kind}: the plotted line's colour #{want} is drawn", hits > 200, hits)

finish("browser")
