#!/usr/bin/env python3
"""The web page (docs/web.md) as a person sees it, at a laptop's 1366x900 and a phone's 390x844, in headless
Chromium through chromedriver and Selenium (Debian's chromium, chromium-driver, python3-selenium; run with
/usr/bin/python3).  For an NVIDIA, two AMD (a CU and a WGP part) and an Intel launch, each given by a link in the
CLI's flag names (AMD's vgprs and lds, Intel's slm):

- the answer (the blocks, the occupancy, the limiter tiles and the next steps) lies within the first screen, and
  the page never scrolls sideways;
- every text drawn is at least 11 px on the screen (an SVG's text at its font size times the SVG's scale), the
  curves' text among it; the curves have one title for the set, and each marks this launch on its curve;
- the curves' runs are the CLI's `gpuocc sweep --steps` rows, the answer's data-value fields and the next steps
  are `gpuocc report --json`'s, the waves are `gpuocc waves --json`'s (the average: its efficiency times the
  report's occupancy), the resource bars' measured widths are the report's shares;
- an AMD or Intel answer uses no NVIDIA word (warps, blocks, SMs, shared memory, registers; Intel's no bare
  threads) and no JSON key; the raw field list is closed;
- a binary's table fits a laptop's width, its headers in the vendor's words;
- a page narrowed from 1366 to 390 px draws its curves again for the new width;
- a link's unread names are said, a refused launch shows the CLI's message, another vendor chosen in the list
  relabels the inputs and writes its flags in the link;
- no console error.

Writes a screenshot per launch and size into OUTDIR (the build folder's, kept out of git) for a person to look
at.  Usage: test_web_layout.py GPUOCC PAGE DATA_DIR SCRIPTS_DIR OUTDIR.  Skipped (77) as tests/test_web.py is."""
import json
import os
import re
import subprocess
import sys
import time
import traceback
import urllib.parse

from checks import browser_or_skip, check, finish

GPUOCC, PAGE, DATA, SCRIPTS, OUTDIR = (os.path.abspath(a) for a in sys.argv[1:6])

CHROMIUM, CHROMEDRIVER = browser_or_skip("web-layout", PAGE)
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait



def cli_json(*args):
    r = subprocess.run([GPUOCC, *args], capture_output=True, text=True)
    assert r.returncode in (0, 1), (args, r.stderr)
    return json.loads(r.stdout)


SIZES = [(1366, 900, False), (390, 844, True)]
# name, the link's query (the CLI's flags, dashes as underscores)
LAUNCHES = [("nvidia", "arch=H100&threads=256&regs=64&smem_dynamic=49152&grid_blocks=1000"),
            ("amd", "arch=MI300X&threads=256&vgprs=128&lds=32768&grid_blocks=5000"),
            ("amd-wgp", "arch=RX 7900 XTX&threads=256&vgprs=128&sgprs=40&grid_blocks=5000"),
            ("intel", "arch=Data Center GPU Max 1550&threads=512&slm=48K&grid_blocks=5000")]
# the words another vendor's answer must not use: NVIDIA's (and, below, the CLI's JSON keys)
NVIDIA_WORDS = re.compile(r"\b(warps?|blocks?|SMs?|shared memory|registers)\b", re.I)
BARE_THREADS = re.compile(r"(?<!hardware )(?<!hardware-)\bthreads?\b", re.I)

# One evaluation in the page: what the checks below measure and read.
MEASURE = """
const rect = (e) => { if (!e) return {left: 0, top: 1e9, right: 0, bottom: 1e9, width: 0}; const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width}; };
const out = {innerWidth, innerHeight, clientWidth: document.documentElement.clientWidth,
             scrollWidth: document.documentElement.scrollWidth, scrollY};
out.tiles = [...document.querySelectorAll(".tiles > div")].map(rect);
out.steps = rect(document.getElementById("steps"));
out.stepTexts = [...document.querySelectorAll("#steps li")].map((li) => li.textContent);
out.answer = {};
for (const e of document.querySelectorAll(".summary [data-field]")) out.answer[e.dataset.field] = JSON.parse(e.dataset.value);
out.raw = {};
for (const e of document.querySelectorAll("[data-raw] [data-field]")) out.raw[e.dataset.field] = JSON.parse(e.dataset.value);
out.rawOpen = (document.querySelector("details:has(> [data-raw])") || {open: true}).open;
out.rawList = document.querySelectorAll("dl[data-raw]").length;
/* every text a person sees, at its size on the screen */
out.texts = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n; (n = walker.nextNode());) {
  const e = n.parentElement;
  if (!n.textContent.trim() || e.closest("script, select, option, [hidden]") || !e.getClientRects().length) continue;
  let size = parseFloat(getComputedStyle(e).fontSize);
  const svg = e.closest("svg");
  if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width) size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  out.texts.push({text: n.textContent.trim().slice(0, 60), size, inCurve: !!e.closest("svg[data-axis]"), tag: e.tagName});
}
/* the curves: their runs and their marker */
out.curves = [...document.querySelectorAll("svg[data-axis]")].map((svg) => ({
  axis: svg.dataset.axis,
  runs: [...svg.querySelectorAll("[data-from]")].map((e) => ({from: Number(e.dataset.from), occupancy: Number(e.dataset.occupancy),
          y: Number(e.getAttribute("y1") || e.getAttribute("y")), x1: Number(e.getAttribute("x1") || e.getAttribute("x")),
          x2: Number(e.getAttribute("x2") || (Number(e.getAttribute("x")) + Number(e.getAttribute("width"))))})),
  marks: [...svg.querySelectorAll("circle.now")].map((c) => ({x: Number(c.dataset.x), occupancy: Number(c.dataset.occupancy),
          cx: Number(c.getAttribute("cx")), cy: Number(c.getAttribute("cy"))})),
  frame: (() => { const f = svg.querySelector("rect.frame"); return f && {x: +f.getAttribute("x"), y: +f.getAttribute("y"),
          width: +f.getAttribute("width"), height: +f.getAttribute("height")}; })(),
  discrete: !!svg.querySelector("rect.col"),
  deviceNamed: svg.textContent}));
const section = document.getElementById("curves-section") || document.body;
out.curveTitles = [...section.querySelectorAll("h1, h2")].map((h) => h.textContent);
out.captions = [...section.querySelectorAll("figcaption b")].map((b) => b.textContent);
/* the words a person reads in the answer, the curves and the visible inputs (not the closed raw lists) */
const read = (e) => e ? e.innerText : "";
out.words = [read(document.querySelector(".summary")), read(document.querySelector(".detail")), read(section),
             ...[...document.querySelectorAll("#launch label")].filter((l) => l.getClientRects().length)
               .map((l) => [...l.childNodes].filter((n) => !(n.tagName === "SELECT")).map((n) => n.textContent).join(" "))];
out.waves = {};
for (const e of document.querySelectorAll("#waves [data-field]")) out.waves[e.dataset.field] = JSON.parse(e.dataset.value);
out.average = (document.querySelector("#waves-average b") || {}).textContent;
out.bars = [...document.querySelectorAll(".bar[data-resource]")].map((b) => ({resource: b.dataset.resource, width: b.getBoundingClientRect().width,
  used: b.children[0].getBoundingClientRect().width, held: b.children[1].getBoundingClientRect().width}));
out.search = location.search;
return out;"""

TABLE = """const t = document.querySelector(".table"), th = [...document.querySelectorAll("#kernels th")].map((e) => e.textContent);
return {scrollWidth: t.scrollWidth, clientWidth: t.clientWidth, headers: th, docScroll: document.documentElement.scrollWidth,
        docWidth: document.documentElement.clientWidth};"""


def flags_of(query, grid=True):
    """report's flags for a link's query (the grid too, as the CLI takes it; not the curves' sweeps')."""
    out = []
    for key, value in urllib.parse.parse_qsl(query):
        if grid or key != "grid_blocks":
            out += ["--" + key.replace("_", "-"), value]
    return out


def drive():
    got = {"pages": [], "tables": [], "errors": []}
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                 "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    wait = lambda script, timeout=20: WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script("return " + script))
    try:
        for width, height, mobile in SIZES:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            for name, query in LAUNCHES:
                driver.get("file://" + PAGE + "?" + urllib.parse.quote(query, safe="=&"))
                wait("document.body.dataset.ready !== undefined && document.body.dataset.curvesDrawn !== undefined")
                time.sleep(0.2)  # the link follows the first answer; a resize redraws the curves
                m = driver.execute_script(MEASURE)
                shot = os.path.join(OUTDIR, f"{name}-{width}x{height}.png")
                driver.save_screenshot(shot)
                got["pages"].append({"name": name, "query": query, "size": (width, height), "shot": shot, **m})
            got["errors"] += [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        # the same page narrowed from a laptop's width to a phone's: the pictures are drawn again for their width
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        driver.get("file://" + PAGE + "?" + LAUNCHES[0][1])
        wait("document.body.dataset.curvesDrawn !== undefined")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        time.sleep(0.5)
        got["narrowed"] = driver.execute_script(MEASURE)
        # a binary's table at a laptop's width: an NVIDIA cubin and a HIP bundle (AMD)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        for binary in ("kernels_sm90.cubin", "hip_bundle.o"):
            driver.get("file://" + PAGE)
            wait("document.body.dataset.ready !== undefined")
            driver.find_element(By.CSS_SELECTOR, "input[type=file][data-role=binary]").send_keys(os.path.join(DATA, binary))
            wait("document.body.dataset.binaryDone !== undefined", 60)
            got["tables"].append({"binary": binary, **driver.execute_script(TABLE)})
            driver.execute_script("document.getElementById(\"kernels\").scrollIntoView()")
            driver.save_screenshot(os.path.join(OUTDIR, f"binary-{binary.split('.')[0]}-1366x900.png"))
        # a link's names the page cannot read are said; a refused launch shows the CLI's message, no answer
        driver.get("file://" + PAGE + "?arch=H100&threads=256&regs=64&vgprs=64&bogus=1")
        wait("document.body.dataset.ready !== undefined")
        got["unread"] = driver.execute_script('return document.getElementById("notes").textContent')
        for case, query in (("refused", "arch=H100&threads=0&regs=64"), ("cannot_run", "arch=H100&threads=2000&regs=64")):
            driver.get("file://" + PAGE + "?" + query)
            wait("document.body.dataset.ready !== undefined || !document.getElementById('error').hidden")
            got[case] = driver.execute_script("""const e = document.getElementById("error");
                return {error: e.hidden ? null : e.textContent, report: !document.getElementById("report").hidden,
                        curves: document.querySelectorAll("svg[data-axis]").length,
                        notes: document.getElementById("notes").textContent,
                        exceeded: document.getElementById("exceeded").hidden ? null
                                  : document.querySelector("#exceeded [data-field=exceeded]").textContent,
                        blocks: (document.querySelector(".summary [data-field=blocks_per_sm]") || {dataset: {}}).dataset.value,
                        steps: document.getElementById("steps").textContent};""")
        # another vendor chosen in the list: its words on the inputs, its flags in the link
        driver.get("file://" + PAGE + "?arch=H100&threads=256&regs=96")
        wait("document.body.dataset.ready !== undefined")
        driver.execute_script("""const s = document.getElementById("arch"); s.value = "MI300X";
            s.dispatchEvent(new Event("change", {bubbles: true}));""")
        wait("new URLSearchParams(location.search).get('arch') === 'MI300X'", 5)
        got["switched"] = driver.execute_script("""return {label: document.querySelector("[data-label=regs]").textContent,
            search: location.search, regs: JSON.parse(document.querySelector("[data-raw] [data-field=regs]").dataset.value),
            blocks: JSON.parse(document.querySelector(".summary [data-field=blocks_per_sm]").dataset.value)};""")
        got["errors"] += [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
    return got


os.makedirs(OUTDIR, exist_ok=True)
try:
    got = drive()
except Exception:
    traceback.print_exc()
    check("the browser ran the plan", False)
    finish("web-layout")

devices = {}
for page in got["pages"]:
    name, (width, height), where = page["name"], page["size"], f"{page['name']} at {page['size'][0]}x{page['size'][1]}"
    flags = flags_of(page["query"])
    want = cli_json("report", *flags, "--json")
    vendor = want["vendor"]
    arch = dict(urllib.parse.parse_qsl(page["query"]))["arch"]
    if arch not in devices:
        devices[arch] = cli_json("devices", arch, "--json")[0]
    device = devices[arch]

    # the first screen
    check(f"{where}: four answer tiles", len(page["tiles"]) == 4, page["tiles"])
    off = [t for t in page["tiles"] + [page["steps"]] if t["top"] < 0 or t["bottom"] > page["innerHeight"]
           or t["left"] < 0 or t["right"] > page["clientWidth"]]
    check(f"{where}: the answer tiles and the next steps lie within the first screen", not off and page["scrollY"] == 0,
          (off, page["innerHeight"]))
    check(f"{where}: no horizontal overflow", page["scrollWidth"] <= page["clientWidth"],
          (page["scrollWidth"], page["clientWidth"]))

    # text on the screen
    small = [t for t in page["texts"] if t["size"] < 11 - 1e-6]
    check(f"{where}: every text shown is at least 11 px on the screen", not small, small[:8])
    curve_text = [t["size"] for t in page["texts"] if t["inCurve"]]
    check(f"{where}: the curves' text is at least 11 px on the screen", curve_text and min(curve_text) >= 11,
          (min(curve_text) if curve_text else None, len(curve_text)))

    # the answer is the CLI's
    wrong = {k: (v, want.get(k, "absent")) for k, v in page["answer"].items() if want.get(k, "absent") != v}
    check(f"{where}: the answer's data-value fields are `gpuocc report --json`'s", page["answer"] and not wrong, wrong)
    missing = sorted({k for k, v in want.items() if v is not None} - set(page["raw"]))
    wrong = {k: (v, want.get(k, "absent")) for k, v in page["raw"].items() if want.get(k, "absent") != v}
    check(f"{where}: the raw field list is the CLI's object", not missing and not wrong, (missing, wrong))
    check(f"{where}: the raw field list ([data-raw]) is there and closed", page["rawList"] == 1 and not page["rawOpen"])
    unit = {"nvidia": "SM", "amd": "WGP" if device.get("cus_per_wgp", 1) > 1 else "CU", "intel": "Xe-core"}[vendor]
    block = {"nvidia": "block", "amd": "workgroup", "intel": "work-group"}[vendor]
    per = lambda n: f"{n} {block}{'' if n == 1 else 's'} per {unit}"
    steps = want["next_steps"]
    check(f"{where}: one line per next step", len(page["stepTexts"]) == max(1, len(steps)), page["stepTexts"])
    for s, shown in zip(steps, page["stepTexts"]):
        amounts = lambda n, res: {str(n)} | ({f"{n // 1024} KiB"} if res == "shared_memory" and n % 1024 == 0 else set())
        changes = [s, *s["also"]]
        check(f"{where}: a next step states its values and the {block}s per {unit} it gives ({shown})",
              per(s["blocks_per_sm"]) in shown and all(any(a in shown for a in amounts(c["new_value"], c["resource"]))
                                                             and any(a in shown for a in amounts(c["new_value"] + c["shed"], c["resource"]))
                                                             for c in changes), s)

    # the curves
    axes = {"nvidia": ["threads", "regs", "smem", "barriers"], "amd": ["threads", "regs", "smem"],
            "intel": ["threads", "smem", "barriers", "sub_group", "grf"]}[vendor]
    check(f"{where}: the vendor's curves are drawn", [c["axis"] for c in page["curves"]] == axes,
          [c["axis"] for c in page["curves"]])
    check(f"{where}: one title for the set of curves, one caption each, none naming the device in the picture",
          len(page["curveTitles"]) == 1 and len(set(page["captions"])) == len(axes)
          and not any(want["device"] in c["deviceNamed"] for c in page["curves"]), (page["curveTitles"], page["captions"]))
    key = {"threads": "threads", "regs": "regs", "smem": "smem_dynamic", "barriers": "barriers", "sub_group": "sub_group",
           "grf": "grf"}
    ends = {"threads": device["max_threads_per_block"], "regs": device["regs_per_thread_max"], "smem": device["smem_per_sm"],
            "barriers": 16}
    for c in page["curves"]:
        axis = c["axis"]
        extra = [] if axis in ("sub_group", "grf") else ["--steps", "--to", str(ends[axis])]
        rows = cli_json("sweep", *flags_of(page["query"], grid=False), "--axis", axis, *extra, "--json")
        check(f"{where}: the {axis} curve draws `gpuocc sweep` rows",
              [(r["from"], r["occupancy"]) for r in c["runs"]] == [(row[key[axis]], row["occupancy"]) for row in rows],
              (c["runs"][:4], rows[:2]))
        ys = sorted({(r["occupancy"], r["y"]) for r in c["runs"]})
        check(f"{where}: the {axis} curve is higher where the occupancy is", all(a[1] > b[1] for a, b in zip(ys, ys[1:])
                                                                             if a[0] < b[0]), ys)
        now = want[key[axis]]
        check(f"{where}: the {axis} curve marks this launch once, at the CLI's value and occupancy",
              len(c["marks"]) == 1 and c["marks"][0]["x"] == now and c["marks"][0]["occupancy"] == want["occupancy"],
              (c["marks"], now, want["occupancy"]))
        if c["marks"] and not c["discrete"]:
            mark, runs = c["marks"][0], c["runs"]
            on = [r for r in runs if r["from"] <= now] [-1:]
            check(f"{where}: the {axis} marker sits on its curve, inside the frame",
                  on and abs(on[0]["y"] - mark["cy"]) < 0.02 and on[0]["x1"] - 0.02 <= mark["cx"] <= on[0]["x2"] + 0.02
                  and c["frame"]["x"] <= mark["cx"] <= c["frame"]["x"] + c["frame"]["width"], (mark, on))

    # the waves
    grid = dict(urllib.parse.parse_qsl(page["query"]))["grid_blocks"]
    waves = cli_json("waves", "--grid-blocks", grid, "--blocks-per-sm", str(want["blocks_per_sm"]), "--sm-count",
                     str(want["sm_count"]), "--json")
    wrong = {k: (v, waves.get(k.split(".", 1)[1], "absent")) for k, v in page["waves"].items()
             if waves.get(k.split(".", 1)[1], "absent") != v}
    check(f"{where}: the waves are `gpuocc waves --json`'s", page["waves"] and not wrong, wrong)
    check(f"{where}: the average over the waves is the report's occupancy times the waves' efficiency",
          page["average"] == f"{100 * want['occupancy'] * waves['efficiency']:.1f} %", (page["average"], waves["efficiency"]))

    # the resource bars: their measured shares are the report's
    shares = {"warps": want["warps_per_sm"] / want["max_warps_per_sm"],
              "shared_memory": want["blocks_per_sm"] * want["smem_per_block"] / want["smem_per_sm"] if want["smem_per_sm"] else None}
    bars = {b["resource"]: b for b in page["bars"]}
    check(f"{where}: a bar for the waves' slots", "warps" in bars, sorted(bars))
    for res, share in shares.items():
        if res in bars and share is not None:
            b = bars[res]
            check(f"{where}: the {res} bar's filled width is the report's share ({share:.3f})",
                  abs(b["used"] / b["width"] - share) < 0.01, (b, share))
    for res in want["limiters"]:
        if res in bars:
            check(f"{where}: a limiter ({res}) holds nothing back", bars[res]["held"] < 0.5, bars[res])

    # words
    if vendor != "nvidia":
        text = "\n".join(page["words"])
        found = sorted({m.group(0) for m in NVIDIA_WORDS.finditer(text)})
        found += sorted(k for k in set(want) | set(waves) if "_" in k and re.search(r"\b" + k + r"\b", text))
        if vendor == "intel":
            found += sorted({m.group(0) for m in BARE_THREADS.finditer(text)})
        check(f"{where}: no NVIDIA word and no JSON key in an {vendor.upper()} answer", not found, found)
    if name == "amd":
        check(f"{where}: the link keeps AMD's flag names", "vgprs=128" in page["search"] and "lds=32768" in page["search"],
              page["search"])

for t in got["tables"]:
    check(f"{t['binary']}: the binary's table fits 1366 px without a sideways scroll",
          t["scrollWidth"] <= t["clientWidth"] and t["docScroll"] <= t["docWidth"], t)
    if t["binary"] == "hip_bundle.o":
        found = sorted({m.group(0) for m in NVIDIA_WORDS.finditer(" ".join(t["headers"]))})
        check("hip_bundle.o: the table's headers are AMD's words", not found, (found, t["headers"]))
n = got["narrowed"]
curve_text = [t["size"] for t in n["texts"] if t["inCurve"]]
check("a page narrowed from 1366 to 390 px draws its curves again: their text still at least 11 px, no sideways scroll",
      curve_text and min(curve_text) >= 11 and n["scrollWidth"] <= n["clientWidth"],
      (min(curve_text) if curve_text else None, n["scrollWidth"], n["clientWidth"]))
check("a link's names that name no input here are said (vgprs is AMD's; bogus is none)",
      "vgprs" in got["unread"] and "bogus" in got["unread"], got["unread"])
status = subprocess.run([GPUOCC, "report", "--arch", "H100", "--threads", "0", "--regs", "64", "--json"],
                        capture_output=True, text=True)
r = got["refused"]
check("a refused launch shows the CLI's message and no answer or curves",
      status.returncode == 2 and r["error"] == status.stderr.strip() and not r["report"] and r["curves"] == 0, (r, status.stderr))
status = subprocess.run([GPUOCC, "report", "--arch", "H100", "--threads", "2000", "--regs", "64", "--json"],
                        capture_output=True, text=True)
r = got["cannot_run"]
# the reason is the CLI's stderr line's end (the input over its limit), said once, above the notes
check("a launch that cannot run is answered: 0 blocks, the CLI's reason, its next step (the threads down to 1024)",
      status.returncode == 1 and r["report"] and r["blocks"] == "0" and r["notes"] == "" and r["exceeded"]
      and status.stderr.strip().endswith(": " + r["exceeded"])
      and r["steps"] == "Threads per block 2000 \u2192 1024: 1 block per SM (now 0)", (r, status.stderr))
s = got["switched"]
want = cli_json("report", "--arch", "MI300X", "--threads", "256", "--vgprs", "96", "--json")
check("choosing an AMD product relabels the inputs, writes AMD's flags in the link, answers as the CLI",
      s["label"] == "VGPRs per lane" and "vgprs=96" in s["search"] and "regs=" not in s["search"].replace("vgprs=", "")
      and s["regs"] == 96 and s["blocks"] == want["blocks_per_sm"], (s, want["blocks_per_sm"]))
check("no console error", not got["errors"], got["errors"][:5])
print("web-layout: screenshots in " + OUTDIR)
finish("web-layout")
