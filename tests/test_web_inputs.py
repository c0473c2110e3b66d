#!/usr/bin/env python3
"""The page's inputs and answers beyond the launch (docs/web.md): every `gpuocc report` flag the page takes and
every answer it shows, in headless Chromium through chromedriver and Selenium (as tests/test_web.py).

Each case is a link in the CLI's flag names; the page's `data-field`/`data-value` answers (the summary, the input
over a limit, what the questions answer, the raw list) must be `gpuocc report --json`'s for the same flags, and a
few values are derived here by hand from published figures:

- H100 (sm_90: 64K registers, 1,024 threads and 227 KiB of opt-in shared memory per block, 228 KiB per SM,
  1 KiB reserved per block; CUDA C++ Programming Guide, "Compute Capabilities"), 256 threads of 128 registers:
  2 blocks (65,536 / 32,768); for 1 block, 232,448 B of dynamic shared memory (the per-block opt-in limit, static
  0), 255 registers per thread (the ISA's most: 255 x 32 rounded to 256 is 8,192 per warp, 8 warps fill 65,536),
  and (232,448 - 8,192) / 32,768 = 6.8, so 6 stages of 32 KiB after 8 KiB; a minimum of 4 blocks is not reached
  (2 fit), registers prevent it;
- H100, 256 threads of 64 registers in a grid of 10x10x2: 16,384 registers a block, 4 blocks (the registers'
  limit; the warps' 64 / 8 = 8), 200 blocks in one wave of 132 x 4 = 528;
- H100, 384 threads of 168 registers with setmaxnreg 240,240,40: the block's pool is 168 x 384 = 64,512
  registers, the warpgroups ask 128 x (240 + 240 + 40) = 66,560 (mean 173.3 per thread): it does not fit;
- H100, 2,048 threads: over the 1,024 threads of a block (exceeded `threads`, limit 1,024), worded as the CLI's
  text report words it;
- MI300X (gfx942: 800 SGPRs per SIMD in granules of 16, 8 waves per SIMD; AMD's CDNA3 ISA guide and LLVM's
  AMDGPUUsage), 64 threads, 32 VGPRs, 96 SGPRs: with the trap handler's 16 SGPRs a wave holds 112, 800 / 112 = 7
  waves per SIMD; without it (--no-trap-handler) 800 / 96 = 8.3, so the 8 slots; LLVM 19 (`--model llvm19`)
  charges no trap handler: 8.

A launch refused for an input over a per-block maximum (20 barriers of PTX's 16; tensor memory on sm_90, which has
none) shows the CLI's message and no answer.  The arch list is the library's catalog (`gpuocc devices --json`), the AMD model list has llvm19, gpuocc.flags()
writes the switches as the CLI does, an edit of the trap handler writes `no_trap_handler` in the link, the
curves are still drawn with the questions asked, a binary's own flags (virtual resources, the tcgen05 CTA group,
setmaxnreg) are columns of its table with the CLI's values, an Intel binary's GRF column holds its records' grf,
a sort button keeps the keyboard's focus, a link's no_optin=1 is read and written, another vendor's input in a link
is said as not read, a bad number typed is refused with the CLI's message, the text report's notes and AMD's
qualified waves per SIMD are shown, and there is no console error.  Usage: test_web_inputs.py GPUOCC
PAGE DATA_DIR.  Skipped (77) as tests/test_web.py is."""
import json
import os
import subprocess
import sys
import time
import urllib.parse

from checks import browser_or_skip, check, finish

GPUOCC, PAGE, DATA = (os.path.abspath(a) for a in sys.argv[1:4])

CHROMIUM, CHROMEDRIVER = browser_or_skip("web-inputs", PAGE)
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait


SWITCHES = {"no_trap_handler", "no_optin", "regs_fixed", "cluster_nonportable", "cu_mode"}


def flags_of(query):
    """report's flags for a link's query: a name is its flag with dashes (the grid too: `--grid-blocks`, a count
    or XxYxZ, as the CLI takes it)."""
    out = []
    for key, value in urllib.parse.parse_qsl(query):
        out.append("--" + key.replace("_", "-"))
        if key not in SWITCHES:
            out.append(value)
    return out


def cli(*args):
    return subprocess.run([GPUOCC, *args], capture_output=True, text=True)


# name, the link, the values derived by hand (a field's value, as the page's data-value holds it)
CASES = [
    ("stages", "arch=H100&threads=256&regs=128&blocks=1&stage_bytes=32K&base_bytes=8K&min_blocks=4",
     {"blocks_per_sm": 2, "target_blocks": 1, "smem_dynamic_available": 232448, "regs_max_for_blocks": 255,
      "max_stages": 6, "min_blocks_reached": False, "min_blocks_preventing": ["registers"]}),
    ("setmaxnreg", "arch=H100&threads=384&regs=168&setmaxnreg=240,240,40",
     {"setmaxnreg": [240, 240, 40], "setmaxnreg_pool_regs": 64512, "setmaxnreg_requested_regs": 66560,
      "setmaxnreg_fits": False, "setmaxnreg_unfixed": True}),
    ("setmaxnreg-fixed", "arch=H100&threads=384&regs=168&setmaxnreg=232,232,40&regs_fixed=1",
     {"setmaxnreg_requested_regs": 128 * (232 + 232 + 40), "setmaxnreg_fits": True}),
    ("exceeded", "arch=H100&threads=2048&regs=64", {"blocks_per_sm": 0, "exceeded": "threads", "exceeded_limit": 1024}),
    ("cluster", "arch=H100&threads=1024&regs=64&cluster=2x1x1&grid_blocks=264",
     {"cluster_blocks": 2, "cluster_verdict": "legal", "grid_blocks": 264}),
    ("grid-xyz", "arch=H100&threads=256&regs=64&grid_blocks=10x10x2",
     {"blocks_per_sm": 4, "grid_blocks": 200, "grid_z": 2, "waves.waves": 1, "limit_regs": 4, "limit_warps": 8}),
    # a grid as a plain count is the report's too: 1,000 blocks in waves of 132 x 4 = 528, so 2 waves
    ("grid-count", "arch=H100&threads=256&regs=64&grid_blocks=1000",
     {"blocks_per_sm": 4, "grid_blocks": 1000, "grid_x": 1000, "waves": 2, "waves.waves": 2}),
    # the CLI's --no-optin in a link: a block may have 48 KiB (49,152 B) of shared memory without the opt-in
    # (CUDA C++ Programming Guide, "Shared Memory"), so 64 KiB dynamic fits none
    ("no-optin", "arch=H100&threads=256&regs=64&smem_dynamic=64K&no_optin=1",
     {"smem_optin": 0, "blocks_per_sm": 0, "exceeded": "smem_dynamic", "exceeded_limit": 49152}),
    ("trap-on", "arch=MI300X&threads=64&vgprs=32&sgprs=96", {"waves_per_simd": 7, "trap_handler": True}),
    ("trap-off", "arch=MI300X&threads=64&vgprs=32&sgprs=96&no_trap_handler=1",
     {"waves_per_simd": 8, "trap_handler": False}),
    ("llvm19", "arch=MI300X&threads=64&vgprs=32&sgprs=96&model=llvm19", {"waves_per_simd": 8, "model": "llvm19"}),
    ("waves-per-eu", "arch=MI300X&threads=256&vgprs=64&waves_per_eu=2,4&flat_workgroup_size=64,512",
     {"waves_per_eu_min": 2, "waves_per_eu_max": 4, "flat_workgroup_size_min": 64, "max_threads": 512}),
    ("amd-stages", "arch=MI300X&threads=256&vgprs=128&blocks=2&stage_bytes=8K",
     {"target_blocks": 2, "smem_dynamic_available": 32768, "max_stages": 4}),
    # the kernel's own largest block: __launch_bounds__(256), max_work_group_size 128 (a larger one cannot launch)
    ("launch-bound", "arch=H100&threads=512&regs=32&max_threads=256",
     {"blocks_per_sm": 0, "exceeded": "threads", "exceeded_limit": 256}),
    ("intel-max-threads", "arch=pvc&threads=256&max_threads=128",
     {"blocks_per_sm": 0, "exceeded": "threads", "exceeded_limit": 128}),
    ("intel-questions", "arch=pvc&threads=256&blocks=2&stage_bytes=8K&min_blocks=3",
     {"target_blocks": 2, "min_blocks_reached": True}),
]

# over the 16 named barriers a block may use (PTX ISA, "bar"); a tmem request on a device without tensor memory;
# grids given as a plain count that the CLI refuses: past CUDA's 2^31 - 1 blocks in x, none, past 2^64
REFUSED = ["arch=H100&threads=256&regs=64&barriers=20", "arch=H100&threads=128&regs=64&tmem_columns=64",
           "arch=H100&threads=256&regs=64&grid_blocks=3000000000", "arch=H100&threads=256&regs=64&grid_blocks=0",
           "arch=H100&threads=256&regs=64&grid_blocks=99999999999999999999"]
# links naming an input of another vendor (docs/web.md: "a name the page cannot read (no such input, or another
# vendor's flag) is said above the answer"): Intel has no registers per thread (its GRF is --grf), AMD no carveout
UNREAD = {"arch=pvc&threads=512&regs=64": "regs", "arch=MI300X&threads=256&vgprs=64&carveout=50": "carveout"}
TYPED = [("regs", "1e400"), ("threads", "--5")]
# the notes of the CLI's text report (its `note` lines): 256 registers per thread is past the 255 ptxas allocates
# (PTX ISA and CUDA C++ Programming Guide: at most 255 registers per thread)
NOTED = ["arch=H100&threads=256&regs=256"]
# AMD's waves per SIMD are the compiler's figure (LLVM's "Occupancy [waves/SIMD]"), whatever fits the CU: 2,048
# threads is over a workgroup's 1,024, so no workgroup and 0 waves per CU, while the compiler's 64 VGPRs allow 8
SIMD = ["arch=MI300X&threads=2048&vgprs=64", "arch=MI300X&threads=256&vgprs=128"]
BINARIES = {"tcgen05_sm100a.cubin": ("virtual_resources", "tmem_cta_group", "setmaxnreg_check")}

READ = """
const out = {answer: {}, raw: {}, answers: {}, exceeded: null, curves: document.querySelectorAll("svg[data-axis]").length,
             error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent};
for (const e of document.querySelectorAll(".summary [data-field]")) out.answer[e.dataset.field] = JSON.parse(e.dataset.value);
for (const e of document.querySelectorAll("#answers [data-field]")) out.answers[e.dataset.field] = JSON.parse(e.dataset.value);
for (const e of document.querySelectorAll("[data-raw] [data-field]")) out.raw[e.dataset.field] = JSON.parse(e.dataset.value);
out.waves = {};
for (const e of document.querySelectorAll("#waves [data-field]")) out.waves[e.dataset.field] = JSON.parse(e.dataset.value);
const over = document.getElementById("exceeded");
out.exceeded = over.hidden ? null : over.querySelector("[data-field=exceeded]").textContent;
out.answersText = document.getElementById("more").hidden ? "" : document.getElementById("answers").innerText;
const notes = document.getElementById("notes");
out.notes = notes.hidden ? "" : notes.textContent;
out.search = location.search;
return out;
"""


def drive():
    got = {"cases": {}, "errors": []}
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    wait = lambda script, timeout=20: WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script("return " + script))
    try:
        for name, query, _ in CASES:
            driver.get("file://" + PAGE + "?" + urllib.parse.quote(query, safe="=&,"))
            wait("document.body.dataset.ready !== undefined && document.body.dataset.curvesDrawn !== undefined")
            got["cases"][name] = driver.execute_script(READ)
        got["options"] = driver.execute_script("""return {
            arch: [...document.querySelectorAll("select[name=arch] option")].map((o) => o.value),
            flags: gpuocc.flags({trap_handler: -1, regs_fixed: 1, cluster_nonportable: true, waves_per_eu: "2,4"}),
            on: gpuocc.flags({trap_handler: 1}), defaulted: gpuocc.flags({trap_handler: 0})};""")
        def pages(queries, script):
            """Each query's page, once it is ready, read by `script`."""
            read = {}
            for query in queries:
                driver.get("file://" + PAGE + "?" + query)
                wait("document.body.dataset.ready !== undefined")
                read[query] = driver.execute_script(script)
            return read

        # refused: an input over a per-block maximum is the CLI's usage error, its message the page's
        got["refused"] = pages(REFUSED, """const e = document.getElementById("error");
                return {error: e.hidden ? null : e.textContent, report: !document.getElementById("report").hidden};""")
        got["noted"] = pages(NOTED, READ)
        got["simd"] = pages(SIMD, 'return document.querySelector("[data-word=warps-per]").textContent')
        got["unread"] = pages(UNREAD, READ)
        # text a number input cannot hold typed into it: the CLI's message about that text (not "--regs: required"),
        # and no curves' title or key left without curves
        got["typed"] = {}
        for field, typed in TYPED:
            driver.get("file://" + PAGE + "?arch=H100&threads=256&regs=64")
            wait("document.body.dataset.ready !== undefined")
            box = driver.find_element(By.CSS_SELECTOR, f"input[name={field}]")
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys(Keys.BACKSPACE)
            box.send_keys(typed)
            time.sleep(0.3)
            got["typed"][field] = driver.execute_script("""const e = document.getElementById("error"), shown = (id) =>
                document.getElementById(id).getClientRects().length > 0 && document.getElementById(id).textContent !== "";
                return {error: e.hidden ? null : e.textContent, title: shown("curves-title"), key: shown("curves-key"),
                        curves: document.querySelectorAll("svg[data-axis]").length};""")
        # an AMD launch edited: the trap handler off, then the model; the link and the answer follow
        driver.get("file://" + PAGE + "?arch=MI300X&threads=64&vgprs=32&sgprs=96")
        wait("document.body.dataset.ready !== undefined")
        got["models"] = driver.execute_script(
            'return [...document.querySelectorAll("select[name=model] option")].map((o) => o.value)')
        Select(driver.find_element(By.CSS_SELECTOR, "select[name=trap_handler]")).select_by_value("-1")
        time.sleep(0.4)  # the link follows 150 ms after the last edit
        got["edited"] = driver.execute_script(READ)
        got["edited"]["search"] = driver.execute_script("return location.search")
        # binaries with their own flags: each kernel's cells are the records' values
        got["binaries"] = {}
        for binary in BINARIES:
            driver.get("file://" + PAGE + "?arch=B200&threads=128&regs=32")
            wait("document.body.dataset.ready !== undefined")
            driver.find_element(By.CSS_SELECTOR, "input[type=file][data-role=binary]").send_keys(os.path.join(DATA, binary))
            wait("document.body.dataset.binaryDone !== undefined", 60)
            got["binaries"][binary] = driver.execute_script("""const rows = {};
                for (const tr of document.querySelectorAll("#kernels tbody tr[data-kernel]")) {
                  rows[tr.dataset.kernel] = {};
                  for (const td of tr.querySelectorAll("[data-field]")) rows[tr.dataset.kernel][td.dataset.field] = JSON.parse(td.dataset.value);
                }
                return {rows, heads: [...document.querySelectorAll("#kernels th")].map((th) => th.textContent)};""")
        # a table sorted from the keyboard: the sort button keeps the focus, so a second Enter sorts the other way
        driver.get("file://" + PAGE + "?arch=H100&threads=256&regs=64")
        wait("document.body.dataset.ready !== undefined")
        driver.find_element(By.CSS_SELECTOR, "input[type=file][data-role=binary]").send_keys(
            os.path.join(DATA, "kernels_sm90.cubin"))
        wait("document.body.dataset.binaryDone !== undefined", 60)
        driver.execute_script('document.querySelector("#kernels th button[data-key=registers]").focus()')
        SORTED = """const a = document.activeElement;
            return {focused: a.tagName === "BUTTON" && a.dataset.key === "registers",
                    sort: document.querySelector("#kernels th button[data-key=registers]").parentElement.getAttribute("aria-sort")};"""
        got["sorting"] = []
        for _ in range(2):
            driver.switch_to.active_element.send_keys(Keys.ENTER)
            got["sorting"].append(driver.execute_script(SORTED))
        # an Intel binary's GRF column: the records' grf (registers is NVIDIA's and AMD's, null here)
        driver.get("file://" + PAGE + "?arch=pvc&threads=256")
        wait("document.body.dataset.ready !== undefined")
        driver.find_element(By.CSS_SELECTOR, "input[type=file][data-role=binary]").send_keys(
            os.path.join(DATA, "zebin", "kernels_pvc_256grf.bin"))
        wait("document.body.dataset.binaryDone !== undefined", 60)
        got["zebin"] = driver.execute_script("""const rows = {};
            for (const tr of document.querySelectorAll("#kernels tbody tr[data-kernel]")) {
              rows[tr.dataset.kernel] = {};
              for (const td of tr.querySelectorAll("[data-field]"))
                rows[tr.dataset.kernel][td.dataset.field] = [JSON.parse(td.dataset.value), td.textContent];
            }
            return {rows, heads: [...document.querySelectorAll("#kernels th")].map((th) => th.textContent)};""")
        got["errors"] += [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
    return got


got = drive()
devices = json.loads(cli("devices", "--json").stdout)
for name, query, hand in CASES:
    page = got["cases"][name]
    flags = flags_of(query)
    run = cli("report", *flags, "--json")
    check(f"{name}: the CLI answers", run.returncode in (0, 1), (flags, run.stderr))
    if run.returncode not in (0, 1):
        continue
    want = json.loads(run.stdout)
    check(f"{name}: an answer, no error", page["error"] is None, page["error"])
    check(f"{name}: every name of the link is read", "Not read from the link" not in page["notes"], page["notes"])
    if "no_optin" in query:
        check(f"{name}: the link keeps the CLI's no_optin=1 (no smem_optin, no flag of the CLI)",
              "no_optin=1" in page["search"] and "smem_optin" not in page["search"], page["search"])
    for key, value in hand.items():
        if key.startswith("waves."):
            got_waves = json.loads(cli("waves", "--grid-blocks", str(want["grid_blocks"]), "--blocks-per-sm",
                                       str(want["blocks_per_sm"]), "--sm-count", str(want["sm_count"]), "--json").stdout)
            check(f"{name}: {key} derived by hand is the CLI's", got_waves[key[6:]] == value, (key, got_waves, value))
            check(f"{name}: the page shows {key} = {value!r}", page["waves"].get(key) == value, page["waves"])
            continue
        check(f"{name}: {key} derived by hand is the CLI's", want[key] == value, (key, want[key], value))
        shown = {**page["raw"], **page["answers"], **page["answer"]}
        check(f"{name}: the page shows {key} = {value!r}", key in shown and shown[key] == value,
              (key, shown.get(key)))
    for where in ("answer", "answers", "raw"):
        bad = {k: (v, want.get(k)) for k, v in page[where].items() if k not in want or want[k] != v}
        check(f"{name}: every {where} value is the CLI's", not bad, bad)
    missing = [k for k, v in want.items() if v is not None and k not in page["raw"]]
    check(f"{name}: the raw list holds every field the CLI gives", not missing, missing)
    # the input over a limit in the words of the CLI's text report
    text = cli("report", *flags).stdout
    line = next((l[len("exceeded"):].strip() for l in text.splitlines() if l.startswith("exceeded ")), None)
    check(f"{name}: the input over its limit as the CLI words it", page["exceeded"] == line, (page["exceeded"], line))
    asked = [k for k in ("max_stages", "smem_dynamic_available", "min_blocks_reached", "setmaxnreg_fits",
                         "cluster_verdict", "flat_workgroup_size_min", "waves_per_eu_min") if want.get(k) is not None]
    for k in asked:
        check(f"{name}: {k} is among what the questions answer", k in page["answers"], sorted(page["answers"]))
    limits = [k for k in ("limit_warps", "limit_regs", "limit_smem", "limit_blocks", "limit_barriers") if k in want]
    check(f"{name}: each resource's limit is in the answer", all(k in page["answer"] for k in limits),
          sorted(page["answer"]))
    check(f"{name}: the curves are drawn", page["curves"] >= (3 if want["blocks_per_sm"] else 0), page["curves"])

for query, page in got["refused"].items():
    run = cli("report", *flags_of(query), "--json")
    check(f"{query}: refused by the CLI, its message on the page", run.returncode == 2 and
          page["error"] == run.stderr.strip() and not page["report"], (run.returncode, run.stderr, page))
for query in NOTED:
    notes = [l[len("note"):].strip() for l in cli("report", *flags_of(query)).stdout.splitlines() if l.startswith("note ")]
    page = got["noted"][query]
    check(f"{query}: the CLI's text report has a note", notes == ["256 registers per thread is more than ptxas allocates "
                                                                 "(255)"], notes)
    check(f"{query}: the page shows the CLI's notes", notes and all(n in page["notes"].splitlines() for n in notes),
          (page["notes"], notes))
for query in SIMD:
    line = next(l for l in cli("report", *flags_of(query)).stdout.splitlines() if l.startswith("waves/SIMD "))
    figure, qualifier = line[len("waves/SIMD"):].strip().split(" (", 1)
    shown = got["simd"][query]
    check(f"{query}: the CLI's waves per SIMD are the compiler's", qualifier.startswith("the compiler's"), line)
    check(f"{query}: the page's waves per SIMD as the CLI's, qualified as the CLI qualifies them",
          f"({figure} per SIMD, {qualifier[:-1]})" in shown, (shown, line))
check("MI300X, 2,048 threads: 0 waves per CU, 8 of 8 per SIMD (the compiler's)", got["simd"][SIMD[0]].startswith(
      "waves per CU (8 of 8 per SIMD, the compiler's"), got["simd"][SIMD[0]])
for query, name in UNREAD.items():
    page = got["unread"][query]
    check(f"{query}: the page says it did not read {name}", "Not read from the link: " + name in
          (page["notes"] or page["error"] or ""), (page["notes"], page["error"]))
for field, typed in TYPED:
    page = got["typed"][field]
    run = cli("report", "--arch", "H100", *(["--threads", "256"] if field != "threads" else []),
              *(["--regs", "64"] if field != "regs" else []), f"--{field}={typed}", "--json")
    check(f"{typed!r} typed as {field}: the CLI's message about it", run.returncode == 2 and typed in run.stderr
          and page["error"] == run.stderr.strip(), (page["error"], run.stderr))
    check(f"{typed!r} typed as {field}: no curves, and no curves' title or key", not page["curves"] and not page["title"]
          and not page["key"], page)
opts = got["options"]
check("the arch list is the library's catalog", opts["arch"] == [d["name"] for d in devices],
      sorted(set(opts["arch"]) ^ {d["name"] for d in devices}))
check("the AMD models are the CLI's", got["models"][1:] == ["compiler", "llvm19", "runtime"], got["models"])
check("gpuocc.flags writes the switches", opts["flags"] == ["--no-trap-handler", "--regs-fixed", "--cluster-nonportable",
                                                            "--waves-per-eu", "2,4"], opts["flags"])
check("trap_handler on or default is no flag (the CLI's default)", opts["on"] == [] and opts["defaulted"] == [], opts)
edited = got["edited"]
check("the trap handler turned off: the link says no_trap_handler", "no_trap_handler=1" in edited["search"],
      edited["search"])
check("the trap handler turned off: 8 waves per SIMD", edited["raw"].get("waves_per_simd") == 8 and
      edited["raw"].get("trap_handler") is False, edited["raw"].get("trap_handler"))
check("the trap handler turned off is said", "trap-handler" in edited["answersText"], edited["answersText"])
for binary, keys in BINARIES.items():
    want = json.loads(cli("binary", os.path.join(DATA, binary), "--threads", "128", "--json").stdout)
    table = got["binaries"][binary]
    for key in keys:
        check(f"{binary}: a column for {key}", any(r[key] not in (None, 0) for r in want) and
              all(key in row for row in table["rows"].values()), (table["heads"], [r[key] for r in want]))
        cells = {name: row.get(key) for name, row in table["rows"].items()}
        check(f"{binary}: each kernel's {key} is the CLI's", cells == {r["name"]: r[key] for r in want}, cells)
check("a sort button keeps the keyboard's focus: Enter sorts, a second Enter sorts the other way",
      got["sorting"] == [{"focused": True, "sort": "ascending"}, {"focused": True, "sort": "descending"}], got["sorting"])
# kernels_pvc_256grf.bin is built with -cl-intel-256-GRF-per-thread (tests/data/zebin/regenerate.sh): 256 GRF
want = {r["name"]: r for r in json.loads(cli("binary", os.path.join(DATA, "zebin", "kernels_pvc_256grf.bin"),
                                             "--threads", "256", "--json").stdout)}
rows = got["zebin"]["rows"]
check("an Intel binary's GRF column holds the CLI's grf (256, as compiled)", want["copy"]["grf"] == 256 and
      set(rows) == set(want) and all(rows[k].get("grf") == [want[k]["grf"], str(want[k]["grf"])] for k in want),
      (rows, got["zebin"]["heads"]))
check("an Intel binary's GRF column is headed GRF", "GRF" in got["zebin"]["heads"], got["zebin"]["heads"])
check("no console error", not got["errors"], got["errors"])
finish("web-inputs")
