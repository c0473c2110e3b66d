#!/usr/bin/env python3
"""The web page (docs/web.md) in a real browser: build/web/index.html opened from file:// in headless Chromium
through chromedriver and Selenium (Debian's chromium, chromium-driver, python3-selenium; run with
/usr/bin/python3, where Debian's Python packages are).  Its window.gpuocc.report() equals `gpuocc report
--json` on random launches over NVIDIA, AMD and Intel (the same object; a refused launch: the same exit status
and message); the page's data-field/data-value answers equal the CLI's for launches given by the link; editing
an input updates the link and the answer; a cubin and an AMD code object chosen through the binary input list
the CLI's kernels, and gpuocc.binary() of the same bytes gives the CLI's records; sweep() is the CLI's; no
network request is made (Chromium's performance log); nothing is logged as an error (its browser log).  With
--bench: report() against a hand-written JavaScript formula for the same launch in the same page (docs/web.md,
"Speed"; a ratio, printed).

Usage: test_web.py GPUOCC PAGE DATA_DIR SCRIPTS_DIR [--bench]
Skipped (77), saying why and what to install, without the page (no wasm toolchain), chromium, chromedriver or
Selenium for this Python.  .ci/run installs them all, and fails when this suite skipped (.ci/must-run)."""
import base64
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse

from checks import browser_or_skip, check, finish

GPUOCC, PAGE, DATA, SCRIPTS = (os.path.abspath(a) for a in sys.argv[1:5])
BENCH = "--bench" in sys.argv[5:]

CHROMIUM, CHROMEDRIVER = browser_or_skip("web", PAGE)
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait



def cli(args, cwd=None):
    r = subprocess.run([GPUOCC, *args], capture_output=True, text=True, cwd=cwd)
    return r.returncode, r.stdout, r.stderr


def flags(params):
    """The CLI flags of a plain object of vocabulary names, as docs/web.md says the page turns them."""
    out = []
    for key, value in params.items():
        if key == "smem_optin":
            out += [] if value else ["--no-optin"]
        elif key in ("cu_mode", "best_block", "regs_fixed", "cluster_nonportable", "no_trap_handler"):
            out += ["--" + key.replace("_", "-")] if value else []
        elif key == "trap_handler":
            out += ["--no-trap-handler"] if value in (-1, "-1", False) else []
        else:
            out += ["--" + key.replace("_", "-"), str(value)]
    return out


devices = json.loads(cli(["devices", "--json"])[1])
by_vendor = {v: [d["name"] for d in devices if d["vendor"] == v] for v in ("nvidia", "amd", "intel")}
check("the catalog has devices of every vendor", all(by_vendor.values()), {v: len(n) for v, n in by_vendor.items()})
rng = random.Random(26)


def launch(vendor):
    """A random launch in the vocabulary's names; some over a limit (answered with 0 blocks or refused)."""
    p = {"arch": rng.choice(by_vendor[vendor]), "threads": rng.choice([32, 64, 96, 128, 256, 384, 512, 768, 1024,
                                                                      rng.randint(1, 1100)])}
    size = lambda top: rng.choice([0, 1024, 4096, 16384, 49152, rng.randint(0, top)])
    if vendor != "intel":
        p["regs"] = rng.choice([16, 32, 40, 64, 96, 128, 168, 255, rng.randint(0, 300)])
    p["smem_dynamic"] = size(240 * 1024)
    if rng.random() < 0.3:
        p["smem_static"] = size(64 * 1024)
    if vendor == "nvidia":
        if rng.random() < 0.2:
            p["barriers"] = rng.randint(0, 16)
        if rng.random() < 0.2:
            p["carveout"] = rng.choice([-1, 0, 25, 50, 100, rng.randint(0, 100)])
        if rng.random() < 0.15:
            p["smem_optin"] = 0
        if rng.random() < 0.1:
            p["virtual_resources"] = rng.randint(0, 64)
        if rng.random() < 0.08:  # refused by name where the part has no tensor memory
            p["tmem_columns"] = rng.choice([32, 128, 256, 512])
        if rng.random() < 0.1:  # thread-block clusters (refused before sm_90); the module's stack once ran out here
            p["cluster"] = rng.choice(["2x1x1", "4x2", "8", "16"])
    elif vendor == "amd":
        if rng.random() < 0.3:
            p["agprs"] = rng.choice([0, 32, 64, 128])
        if rng.random() < 0.5:
            p["sgprs"] = rng.randint(0, 110)
        if rng.random() < 0.2:
            p["wave_size"] = rng.choice([32, 64])
        if rng.random() < 0.2:
            p["cu_mode"] = 1
        if rng.random() < 0.08:
            p["dvgpr"] = rng.choice([16, 32])
        if rng.random() < 0.3:
            p["model"] = "runtime"
            if rng.random() < 0.5:
                p["rocm"] = rng.choice(["5.7", "6.0", "6.2", "6.4"])
    else:
        if rng.random() < 0.5:
            p["sub_group"] = rng.choice([8, 16, 32])
        if rng.random() < 0.4:
            p["grf"] = rng.choice([128, 256])
        if rng.random() < 0.3:
            p["barriers"] = rng.randint(0, 4)
        if rng.random() < 0.3:
            p["model"] = rng.choice(["calculator", "runtime"])
    return p


cases = [launch(v) for v in ["nvidia"] * 140 + ["amd"] * 100 + ["intel"] * 60]
# values the page sends as numbers and as text alike (web/gpuocc.js, reportValues): out of range, not integers,
# past 2^53, sizes as text, two refusals (the first given wins), another vendor's flags, a key that is no flag,
# a switch given a value, an unknown name; each must be answered or refused as the CLI does, message and all
H100 = {"arch": "H100", "threads": 256, "regs": 64}
cases += [{**H100, "threads": 0}, {**H100, "threads": 2 ** 31}, {**H100, "regs": -1}, {**H100, "carveout": 101},
          {**H100, "threads": 2 ** 53 + 2}, {**H100, "threads": 1.5}, {**H100, "smem_dynamic": "48K"},
          {**H100, "threads": "256"}, {**H100, "threads": "abc"}, {**H100, "carveout": 101, "threads": 0},
          {"carveout": 101, **H100, "threads": 0}, {**H100, "wave_size": 48}, {"arch": "MI300X", "threads": 256,
          "vgprs": 64, "carveout": 50}, {**H100, "thread": 256}, {**H100, "regs_fixed": 1}, {**H100, "no_optin": 1}, {**H100, "arch": "H1OO"},
          {**H100, "arch": 9}, {"arch": "gfx942", "threads": 256, "regs": 64, "wave_size": 32, "rocm": "6.2"},
          {**H100, "setmaxnreg": "40,232", "min_blocks": 2}, {**H100, "cluster": "2x1x1", "grid_blocks": 264},
          {**H100, "setmaxnreg": "232,232,40", "regs_fixed": 1, "threads": 384},
          {"arch": "MI300X", "threads": 64, "vgprs": 32, "sgprs": 96, "trap_handler": -1, "model": "llvm19"}]
expected = []
for p in cases:
    status, out, err = cli(["report", *flags(p), "--json"])
    expected.append((status, json.loads(out) if status in (0, 1) else None, err.strip()))
answered = sum(e[0] in (0, 1) for e in expected)
check("most random launches are answered (some refused)", answered > len(cases) * 0.6, answered)

# the page's own answers for a few launches of each vendor (each opens the page: a second or so)
dom_cases = [[cases[i] for i in range(lo, hi, 7) if expected[i][0] in (0, 1)][:3]
             for lo, hi in ((0, 140), (140, 240), (240, 300))]
dom_cases = [p for group in dom_cases for p in group]
query = urllib.parse.urlencode
edit_from = {"arch": "H100", "threads": 256, "regs": 64, "smem_dynamic": 49152}
edit = {"query": query(edit_from), "field": "regs", "value": 32}
binaries = [{"path": os.path.join(DATA, name), "name": name, "params": {"threads": 256}}
            for name in ("kernels_sm90.cubin", "amdgpu_gfx90a.o", "hip_bundle.o")]
sweeps = [{"params": {"arch": "A100", "threads": 256}, "axis": "regs"},
          {"params": {"arch": "MI300X", "threads": 256, "regs": 64}, "axis": "smem"},
          {"params": {"arch": "pvc", "threads": 256}, "axis": "threads"}]
# The bench's references (docs/web.md, "Size and speed"): NVIDIA's documented rules for this one launch,
# written out by hand (CUDA C++ Programming Guide, "Hardware Multithreading" and "Technical Specifications
# per Compute Capability" for cc 9.0; the rules of docs/model.md): warps in 32-thread units, at most 64 per
# SM; registers in 256-register units per warp, 65536 per SM; shared memory in 128-byte units with the
# 1 KiB per-block reservation, 228 KiB per SM; 32 blocks per SM; 64 barriers per SM.  FULL computes what a
# person would hand-code of the report: blocks, warps, occupancy, each limit, the limiters, the registers
# and shared memory per block, the shared memory per SM, and the registers' next step by a loop (the most
# registers per thread at which one more block fits by registers).  BARE is the blocks alone.
FULL = """function (p) {
  const warps = Math.ceil(p.threads / 32);
  const regsPerWarp = (r) => Math.ceil(r * 32 / 256) * 256;
  const byRegs = (r) => Math.floor(Math.floor(65536 / regsPerWarp(r)) / warps);
  const smemPerBlock = Math.ceil(((p.smem_static || 0) + (p.smem_dynamic || 0) + 1024) / 128) * 128;
  const smemPerSm = 233472;
  const limits = {warps: Math.floor(64 / warps), registers: byRegs(p.regs), shared_memory: Math.floor(smemPerSm / smemPerBlock),
                  blocks: 32, barriers: Math.floor(64 / (p.barriers === undefined ? 1 : p.barriers))};
  const blocks = Math.min(limits.warps, limits.registers, limits.shared_memory, limits.blocks, limits.barriers);
  const limiters = Object.keys(limits).filter((k) => limits[k] === blocks);
  let regsNext = p.regs - 1;
  while (regsNext > 0 && byRegs(regsNext) <= limits.registers) regsNext--;
  return {blocks_per_sm: blocks, warps_per_sm: blocks * warps, occupancy: blocks * warps / 64,
          limit_warps: limits.warps, limit_regs: limits.registers, limit_smem: limits.shared_memory,
          limit_blocks: limits.blocks, limit_barriers: limits.barriers, limiters,
          regs_per_block: regsPerWarp(p.regs) * warps, smem_per_block: smemPerBlock, smem_per_sm: smemPerSm,
          regs_next: regsNext};
}"""
BARE = """function (p) {
  const warps = Math.ceil(p.threads / 32);
  const byWarps = Math.floor(64 / warps);
  const regsPerWarp = Math.ceil(p.regs * 32 / 256) * 256;
  const byRegs = Math.floor(Math.floor(65536 / regsPerWarp) / warps);
  const smem = Math.ceil((p.smem_dynamic + 1024) / 128) * 128;
  const bySmem = Math.floor(233472 / smem);
  return Math.min(byWarps, byRegs, bySmem, 32);
}"""
plan = {"page": os.path.abspath(PAGE), "cases": cases, "dom": [query(p) for p in dom_cases], "edit": edit,
        "binaries": binaries, "sweeps": sweeps}
if BENCH:
    plan = {"page": plan["page"], "cases": [], "dom": [], "edit": None, "binaries": [], "sweeps": [],
            "bench": {"full": FULL, "bare": BARE, "params": edit_from, "n": 10000}}


class tree_rss_watch:
    """The peak of the summed resident memory of a process and its descendants (the browser's processes:
    the page's, the worker's), sampled from /proc every 0.1 s in a thread; None where /proc is not there."""

    def __init__(self, proc):
        import threading
        self.root, self.peak, self.running = proc.pid, None, os.path.isdir("/proc/self")
        self.thread = threading.Thread(target=self.watch, daemon=True)
        if self.running:
            self.thread.start()

    def sample(self):
        parent, rss = {}, {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                parent[int(d)], rss[int(d)] = int(fields[1]), int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, IndexError, ValueError):
                pass
        total = 0
        for pid in rss:
            p = pid
            while p in parent and p != self.root and p > 1:
                p = parent[p]
            if p == self.root:
                total += rss[pid]
        return total

    def watch(self):
        import time
        while self.running:
            self.peak = max(self.peak or 0, self.sample())
            time.sleep(0.1)

    def stop(self):
        self.running = False
        if self.thread.is_alive():
            self.thread.join()


def ar_member(name, data):
    """One member of a System V / GNU ar archive (the 60-byte header: name/, mtime, uid, gid, mode, size, `\\n)."""
    head = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{'644':<8}{len(data):<10}`\n".encode()
    return head + data + (b"\n" if len(data) % 2 else b"")


# The browser's half: Chromium through chromedriver, the plan's steps in the page, one dict of what it answered
# (the Python half below compares it with the CLI's answers).
SHOWN = """const o = {};
for (const el of document.querySelectorAll("#report [data-field]")) o[el.dataset.field] = JSON.parse(el.dataset.value);
const error = document.getElementById("error");
return {fields: o, error: error.hidden ? null : error.textContent,
        curves: [...document.querySelectorAll("svg[data-axis]")].map((s) => s.dataset.axis)};"""
# an edit's cost: from the input event to the report and the curves laid out (a forced layout), each edit in its
# own task after a frame; registers, threads and shared memory in turn
REDRAW = """const [n, done] = arguments;
(async () => {
  const edits = [["regs", [32, 40, 48, 56, 64, 72, 96, 128]], ["threads", [64, 128, 192, 256, 384, 512, 768, 1024]],
                 ["smem_dynamic", [0, 4096, 16384, 32768, 49152, 65536, 98304, 131072]]];
  const times = [];
  for (let i = 0; i < n; i++) {
    const [name, values] = edits[i % 3], el = document.querySelector("input[name=" + name + "]");
    el.value = String(values[Math.floor(i / 3) % values.length]);
    const t0 = performance.now();
    el.dispatchEvent(new Event("input", {bubbles: true}));
    document.getElementById("curves").getBoundingClientRect();
    void document.body.offsetHeight;
    times.push(performance.now() - t0);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  const sorted = times.slice().sort((a, b) => a - b);
  return {n, median_ms: sorted[n >> 1], max_ms: sorted[n - 1],
          curves: [...document.querySelectorAll("svg[data-axis]")].map((e) => e.dataset.axis)};
})().then(done);"""
RECORDS = """const [data, paramsJson, name, done] = arguments, params = JSON.parse(paramsJson);
const s = atob(data), bytes = new Uint8Array(s.length);
for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
gpuocc.binary(bytes.buffer, params, {name}).then((r) => done(Array.from(r)),
                                                 (e) => done({status: e.status, message: e.message}));"""
# while a large file is read: the gaps between animation frames, report() answered every frame, the progress shown
WATCH_LARGE = """const w = window.__large = {frames: 0, maxGapMs: 0, reports: 0, failures: 0, progress: [], done: false};
let last = performance.now();
const tick = () => {
  const now = performance.now();
  w.maxGapMs = Math.max(w.maxGapMs, now - last);
  last = now;
  w.frames++;
  try { if (gpuocc.report({arch: "H100", threads: 256, regs: 64}).blocks_per_sm > 0) w.reports++; } catch (e) { w.failures++; }
  if (!w.done) requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
const status = document.getElementById("binary-status");
new MutationObserver(() => { if (w.progress.length < 400) w.progress.push(status.textContent); })
  .observe(status, {childList: true, characterData: true, subtree: true});"""
LARGE_DONE = """window.__large.done = true;
const rows = [...document.querySelectorAll("[data-kernel]")].map((tr) => tr.dataset.kernel);
return {...window.__large, rows, done: document.body.dataset.binaryDone};"""
# report() and the two formulas in turn, seven rounds, each run in batches of 100 for at least 40 ms a round (the
# clock's grain is 0.1 ms) after a warm-up of n calls; each figure the median of its rounds, each ratio the
# median of the rounds' ratios (a round's three share the machine's load of the moment)
BENCH_JS = """const [fullSource, bareSource, paramsJson, n] = arguments, p = JSON.parse(paramsJson);
const full = new Function("return " + fullSource)(), bare = new Function("return " + bareSource)();
let sink = 0;
const once = (f, ms) => {
  let calls = 0, t1;
  const t0 = performance.now();
  do {
    for (let i = 0; i < 100; i++) sink += f();
    calls += 100;
  } while ((t1 = performance.now()) - t0 < ms);
  return (t1 - t0) / calls;
};
const lib = () => gpuocc.report(p).blocks_per_sm, fullF = () => full(p).blocks_per_sm, bareF = () => bare(p);
for (const f of [lib, fullF, bareF]) for (let i = 0; i < n; i++) sink += f();
const rounds = [];
for (let r = 0; r < 7; r++) rounds.push([once(lib, 40), once(fullF, 40), once(bareF, 40)]);
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
return {report_us: median(rounds.map((x) => x[0])) * 1e3, full_us: median(rounds.map((x) => x[1])) * 1e3,
        bare_us: median(rounds.map((x) => x[2])) * 1e3, ratio: median(rounds.map((x) => x[0] / x[1])),
        ratio_bare: median(rounds.map((x) => x[0] / x[2])), sink, full: full(p), bare: bare(p),
        report: gpuocc.report(p)};"""


# Arguments the module would read wrong: a NUL ends a C string ("256\0abc" was answered as 256, "H100\0zz" as
# H100), and a string as run()'s input became as many zero bytes.  Refused: a gpuocc.Error (status 2) naming the
# field, run()'s answer with status 2, a TypeError for input that is not bytes.
REFUSALS = r"""
const tryReport = (p) => {
  try { return {value: gpuocc.report(p)}; }
  catch (e) { return {error: e.name, status: e.status, message: e.message, ours: e instanceof gpuocc.Error}; }
};
const tryRun = (args, input) => {
  try { const a = gpuocc.run(args, input); return {status: a.status, out: a.out, err: a.err}; }
  catch (e) { return {error: e.name, message: e.message}; }
};
const csv = "arch,threads,regs\nH100,256,64\n";
let sweep;
try { gpuocc.sweep({arch: "H100", threads: 256, regs: "32\0x"}, "regs"); sweep = {value: true}; }
catch (e) { sweep = {error: e.name, status: e.status, message: e.message}; }
return {
  threads: tryReport({arch: "H100", threads: "256\0abc", regs: 32}),
  arch: tryReport({arch: "H100\0zz", threads: 256, regs: 32}),
  key: tryReport({arch: "H100", "threads\0x": 256, regs: 32}),
  plain: tryReport({arch: "H100", threads: "256", regs: 32}),
  runArg: tryRun(["report", "--arch", "H100\0zz", "--threads", "256", "--regs", "32", "--json"]),
  runEquals: tryRun(["report", "--arch=H100", "--threads=256\0x", "--regs", "32", "--json"]),
  runString: tryRun(["batch"], csv),
  runNumbers: tryRun(["batch"], [97, 114, 99, 104]),
  runBytes: tryRun(["batch"], new TextEncoder().encode(csv)),
  runBuffer: tryRun(["batch"], new TextEncoder().encode(csv).buffer),
  runNone: tryRun(["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--json"]),
  sweep,
};
"""


def drive(plan):
    out = {"requests": [], "console_errors": [], "cases": [], "dom": [], "edit": None, "binaries": [],
           "buffers": [], "sweeps": []}
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic", "--window-size=800,600"):
        options.add_argument(flag)
    # every request the page makes (Network.requestWillBeSent in the performance log) and its console errors and
    # uncaught exceptions (SEVERE in the browser log)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    peak_rss = tree_rss_watch(driver.service.process)
    page_url = "file://" + plan["page"]

    def logs():
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                out["requests"].append(message["params"]["request"]["url"][:200])
        out["console_errors"] += [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]

    def wait_for(script, timeout, quiet=False):
        try:
            WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: d.execute_script("return " + script))
        except TimeoutException:
            if not quiet:
                raise

    def open_page(query):
        t0 = time.monotonic()
        driver.get(page_url + ("?" + query if query else ""))
        wait_for('document.querySelector("body[data-ready]") !== null', 20)
        logs()
        return round((time.monotonic() - t0) * 1000)

    def choose_file(path, timeout):
        driver.find_element(By.CSS_SELECTOR, "input[type=file][data-role=binary]").send_keys(path)
        wait_for("document.body.dataset.binaryDone !== undefined", timeout)

    try:
        driver.set_script_timeout(120)
        out["open_ms"] = open_page("")
        out["first_answer_ms"] = driver.execute_script("return Number(document.body.dataset.firstAnswerMs)")
        out["module_bytes"] = driver.execute_script(
            'return Math.floor(document.getElementById("gpuocc-module").textContent.trim().length * 3 / 4)')

        # the contract's report() on every case, in one evaluation; the plan's objects go as JSON text, since
        # chromedriver would pass them with their keys sorted (and the first refusal given is the one answered)
        out["cases"] = driver.execute_script("""return JSON.parse(arguments[0]).map((p) => {
            try { return {value: gpuocc.report(p)}; } catch (e) { return {status: e.status, message: e.message}; }
        });""", json.dumps(plan["cases"]))
        out["sweeps"] = driver.execute_script("""return JSON.parse(arguments[0]).map((s) => {
            try { return {value: gpuocc.sweep(s.params, s.axis)}; } catch (e) { return {status: e.status, message: e.message}; }
        });""", json.dumps(plan["sweeps"]))
        out["refusals"] = driver.execute_script(REFUSALS)

        # the page's own answers, for launches given by the link
        for query in plan["dom"]:
            open_page(query)
            wait_for("document.body.dataset.curvesDrawn !== undefined", 10, quiet=True)
            out["dom"].append({"query": query, **driver.execute_script(SHOWN)})

        # editing an input (selecting its text, typing over it) updates the link and the answer
        edit = plan["edit"]
        if edit:
            open_page(edit["query"])
            field = driver.find_element(By.CSS_SELECTOR, f"input[name={edit['field']}]")
            field.click()
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(Keys.BACKSPACE)
            field.send_keys(str(edit["value"]))
            # the link follows a moment after the last edit (web/page.js, linkSoon)
            wait_for(f"new URLSearchParams(location.search).get({json.dumps(edit['field'])}) === "
                     f"{json.dumps(str(edit['value']))}", 5, quiet=True)
            out["edit"] = {"search": driver.execute_script("return location.search"), **driver.execute_script(SHOWN)}
            out["redraw"] = driver.execute_async_script(REDRAW, edit.get("redraw", 30))

        # binaries chosen through the file input, and given to gpuocc.binary() as ArrayBuffers
        for b in plan["binaries"]:
            open_page(b.get("query", ""))
            choose_file(b["path"], 60)
            rows = driver.execute_script("""return [...document.querySelectorAll("[data-kernel]")].map((tr) => {
                const o = {name: tr.dataset.kernel};
                for (const td of tr.querySelectorAll("[data-field]")) o[td.dataset.field] = JSON.parse(td.dataset.value);
                return o;
            });""")
            status = driver.execute_script('return document.getElementById("binary-status").textContent')
            with open(b["path"], "rb") as f:
                data = base64.b64encode(f.read()).decode()
            records = driver.execute_async_script(RECORDS, data, json.dumps(b["params"]), b["name"])
            out["binaries"].append({"path": b["path"], "rows": rows, "status": status})
            out["buffers"].append({"path": b["path"], "records": records})

        # a large file (an archive padded to hundreds of MB) read while the page keeps drawing frames and
        # answering report()
        if plan.get("large"):
            open_page("")
            driver.execute_script(WATCH_LARGE)
            t0 = time.monotonic()
            choose_file(plan["large"]["path"], 240)
            ms = round((time.monotonic() - t0) * 1000)
            out["large"] = {**driver.execute_script(LARGE_DONE), "ms": ms}

        if plan.get("bench"):
            open_page("")
            bench = plan["bench"]
            out["bench"] = driver.execute_script(BENCH_JS, bench["full"], bench["bare"],
                                                  json.dumps(bench["params"]), bench["n"])
        logs()
    finally:
        peak_rss.stop()
        driver.quit()
    out["peak_rss"] = peak_rss.peak
    return out


# the "500 MB library" at half the size: the suite's time and memory stay modest (GPUOCC_WEB_LARGE_MB
# sets another size, e.g. 512 for the issue's own)
LARGE_MB = int(os.environ.get("GPUOCC_WEB_LARGE_MB", "256"))

with tempfile.TemporaryDirectory(prefix="gpuocc-web-") as tmp:
    if not BENCH:  # a large archive: a real cubin after LARGE_MB MiB of padding, written here, not stored
        large = os.path.join(tmp, "large.a")
        with open(large, "wb") as f:
            f.write(b"!<arch>\n")
            f.write(ar_member("padding.bin", bytes(LARGE_MB << 20)))
            with open(os.path.join(DATA, "kernels_sm90.cubin"), "rb") as c:
                f.write(ar_member("kernels.cubin", c.read()))
        plan["large"] = {"path": large}
        status, out, err = cli(["binary", large, "--threads", "256", "--json"])
        large_want = sorted(r["name"] for r in json.loads(out)) if status == 0 else ("status", status, err)
    try:
        got = drive(plan)
    except Exception:  # the browser failed (chromedriver, Chromium, a step's wait): say where, fail
        traceback.print_exc()
        check("the browser ran the plan", False)
        finish("web")

print(f"web: module {got['module_bytes']} bytes; page opened in {got['open_ms']} ms, first answer at "
      f"{got['first_answer_ms']} ms after its navigation began")
check("the module is under 500 KB (500,000 bytes)", got["module_bytes"] < 500_000, got["module_bytes"])
# loosely, as the redraw below: three times the budget (a second), since the suite's other tests share the cores
check("the first answer within a second of opening (loosely: under 3 s)", got["first_answer_ms"] < 3000,
      got["first_answer_ms"])
outside = [u for u in got["requests"] if not (u.startswith("file://" + os.path.abspath(PAGE)) or u.startswith("blob:"))]
check("no network request (only the page itself and its worker's blob)", not outside, outside[:5])
check("no console error", not got["console_errors"], got["console_errors"][:5])

if BENCH:
    b = got["bench"]
    full, report = b["full"], b["report"]
    regs_step = [st["new_value"] for st in report["next_steps"] if st["resource"] == "registers"]
    wrong = {k: (v, report.get(k)) for k, v in full.items() if k != "regs_next" and report.get(k) != v}
    check("the full formula is the library's answer for the bench launch", not wrong and regs_step == [full["regs_next"]],
          (wrong, regs_step, full["regs_next"]))
    check("the bare formula's blocks are the library's", b["bare"] == report["blocks_per_sm"], (b["bare"], report["blocks_per_sm"]))
    print(f"web bench: report() {b['report_us']:.2f} us; the full hand formula {b['full_us']:.4f} us: ratio "
          f"{b['ratio']:.1f}x ({'within' if b['ratio'] <= 50 else 'OVER'} the 50x target, docs/web.md); the bare "
          f"blocks formula {b['bare_us']:.4f} us: ratio {b['ratio_bare']:.1f}x (for scale); machine load "
          f"{os.getloadavg()[0]:.1f}")
    finish("web")

r = got["redraw"]
print(f"web: an edit recomputed and redrawn in {r['median_ms']:.1f} ms (median of {r['n']}; at most "
      f"{r['max_ms']:.1f} ms; one frame is 16 ms)")
check("an edit is recomputed and redrawn within a frame (loosely: median under 50 ms)", r["median_ms"] < 50, r)
check("the curves are still drawn after the edits", r["curves"] == ["threads", "regs", "smem", "barriers"], r["curves"])

g = got["large"]
want = large_want
shown = [p for p in g["progress"] if "bytes" in p and " of " in p]
print(f"web: a {LARGE_MB} MiB archive read in {g['ms']} ms: {g['frames']} frames drawn meanwhile, the longest gap "
      f"{g['maxGapMs']:.0f} ms, {g['reports']} report() calls answered, {len(shown)} progress updates shown; the "
      f"browser's processes at most {(got['peak_rss'] or 0) / 2**20:.0f} MiB resident over the whole run")
check("a large archive: its kernels listed as the CLI lists them", sorted(g["rows"]) == want, (g["rows"][:5], want[:5]))
check("a large archive does not freeze the page (frames and report() answers go on while the worker reads; "
      "loosely: no gap between frames over 1 s)", g["maxGapMs"] < 1000 and g["reports"] >= 5 and not g["failures"],
      {k: g[k] for k in ("maxGapMs", "reports", "failures", "frames")})
check("a large archive: progress is shown while it is read", len(shown) >= 2, g["progress"][:5])

bad = []
for p, (status, want, err), page in zip(cases, expected, got["cases"]):
    if want is not None:
        if page.get("value") != want:
            bad.append((p, "page", page, "cli", want))
    elif page.get("status") != status or page.get("message") != err:
        bad.append((p, "page", page, "cli", status, err))
check(f"report() is `gpuocc report --json` on {len(cases)} random launches (NVIDIA, AMD, Intel)", not bad, bad[:3])
check("refused launches were among them", answered < len(cases), answered)

for shown, p in zip(got["dom"], dom_cases):
    want = json.loads(cli(["report", *flags(p), "--json"])[1])
    wrong = {k: (v, want.get(k)) for k, v in shown["fields"].items() if want.get(k, "absent") != v}
    check(f"the page's data-value answers are the CLI's for ?{query(p)}", shown["fields"] and not wrong, wrong)
    check(f"every field shown for ?{query(p)}", {k for k, v in want.items() if v is not None} <= set(shown["fields"]),
          sorted({k for k, v in want.items() if v is not None} - set(shown["fields"])))
    axes = {"nvidia": ["threads", "regs", "smem", "barriers"], "amd": ["threads", "regs", "smem"],
            "intel": ["threads", "smem", "barriers", "sub_group", "grf"]}[want["vendor"]]
    check(f"the curves are drawn for ?{query(p)}", shown["curves"] == axes, shown["curves"])

e = got["edit"]
edited = dict(edit_from, regs=edit["value"])
want = json.loads(cli(["report", *flags(edited), "--json"])[1])
check("editing an input updates the link", "regs=32" in e["search"] and "arch=H100" in e["search"], e["search"])
check("editing an input updates the answer", e["fields"].get("regs") == 32 and
      all(e["fields"].get(k) == want[k] for k in ("blocks_per_sm", "occupancy", "limiters", "next_steps")),
      {k: (e["fields"].get(k), want[k]) for k in ("regs", "blocks_per_sm", "limiters")})

for b, shown, buf in zip(binaries, got["binaries"], got["buffers"]):
    status, out, err = cli(["binary", b["name"], *flags(b["params"]), "--json"], cwd=DATA)
    records = json.loads(out)
    check(f"{b['name']}: the CLI lists kernels", status == 0 and records, status)
    check(f"{b['name']}: gpuocc.binary() gives the CLI's records", buf["records"] == records,
          (buf["records"] if isinstance(buf["records"], dict) else len(buf["records"]), len(records)))
    # a bundle holds a kernel once per target: rows are compared as a sorted list, each by its shown columns
    key = lambda r: json.dumps([r["name"], r.get("arch"), r.get("short_name")])
    rows = sorted(shown["rows"], key=key)
    check(f"{b['name']}: the page lists the CLI's kernels", [r["name"] for r in rows] ==
          sorted(r["name"] for r in records), ([r["name"] for r in rows], shown["status"]))
    want = sorted(records, key=key)
    wrong = [(w["name"], k) for r, w in zip(rows, want) for k, v in r.items() if w.get(k) != v]
    check(f"{b['name']}: each row's values are the CLI's", rows and not wrong, wrong[:5])

# the refusals (REFUSALS): H100 at 256 threads and 32 registers is 8 blocks (65,536 registers / 8,192 a block,
# 64 warp slots / 8 warps); at 64 registers 4 (the seeds' Example 1)
r = got["refusals"]
for what, field, value in (("threads", "threads", r"256\x00abc"), ("arch", "arch", r"H100\x00zz"),
                           ("key", r"threads\x00x", r"threads\x00x")):
    g = r[what]
    check(f"report() refuses a {what} holding a NUL: gpuocc.Error, status 2, naming {field}",
          g.get("ours") and g.get("status") == 2 and
          g.get("message") == f"gpuocc: {field}: '{value}' holds a NUL character, which no argument can carry", g)
check("report() of the same launch without the NUL answers 8 blocks", r["plain"].get("value", {}).get("blocks_per_sm") == 8,
      r["plain"])
check("run() refuses an argument holding a NUL: status 2, naming its flag", r["runArg"].get("status") == 2
      and r["runArg"].get("out") == "" and r["runArg"]["err"].startswith("gpuocc: --arch: 'H100\\x00zz' holds a NUL"),
      r["runArg"])
check("run() refuses --flag=value holding a NUL, naming the flag", r["runEquals"].get("status") == 2
      and r["runEquals"]["err"].startswith("gpuocc: --threads: '--threads=256\\x00x' holds a NUL"), r["runEquals"])
check("sweep() refuses a value holding a NUL (gpuocc.Error, status 2)", r["sweep"].get("error") == "GpuoccError"
      and r["sweep"].get("status") == 2 and r["sweep"]["message"].startswith("gpuocc: regs: "), r["sweep"])
for what in ("runString", "runNumbers"):
    check(f"run() with input that is not bytes ({what}): a TypeError", r[what].get("error") == "TypeError"
          and "input must be bytes" in r[what].get("message", ""), r[what])
for what in ("runBytes", "runBuffer"):
    rows = r[what].get("out", "").splitlines()
    check(f"run() with input as bytes ({what}): the batch answers it (4 blocks)", r[what].get("status") == 0
          and len(rows) == 2 and rows[1].split(",")[3:5] == ["ok", "4"], r[what])
check("run() without input still answers", r["runNone"].get("status") == 0
      and json.loads(r["runNone"]["out"])["blocks_per_sm"] == 8, r["runNone"])

for s, page in zip(sweeps, got["sweeps"]):
    status, out, err = cli(["sweep", *flags(s["params"]), "--axis", s["axis"], "--json"])
    check(f"sweep({s['params']['arch']}, {s['axis']}) is `gpuocc sweep --json`", page.get("value") == json.loads(out),
          page.get("message"))
finish("web")
