/* The browser half of tests/test_web.py: opens build/web/index.html from file:// in headless Chromium
   (puppeteer-core), runs the plan's steps, and prints one JSON object of what the page answered; the
   Python half compares it with the CLI's answers.  Usage: node drive.cjs PUPPETEER_DIR CHROMIUM PLAN.json */
"use strict";
const fs = require("fs");
const [puppeteerDir, chromium, planPath] = process.argv.slice(2);
const puppeteer = require(puppeteerDir);
const plan = JSON.parse(fs.readFileSync(planPath, "utf8"));
const pageUrl = "file://" + plan.page;

(async () => {
  const out = {requests: [], console_errors: [], cases: [], dom: [], edit: null, binaries: [], buffers: [], sweeps: []};
  const browser = await puppeteer.launch({executablePath: chromium, headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--disable-quic"]});
  const page = await browser.newPage();
  page.on("request", (r) => out.requests.push(r.url().slice(0, 200)));
  page.on("console", (m) => { if (m.type() === "error") out.console_errors.push(m.text()); });
  page.on("pageerror", (e) => out.console_errors.push("pageerror: " + e.message));
  const open = async (query) => {
    const t0 = Date.now();
    await page.goto(pageUrl + (query ? "?" + query : ""));
    await page.waitForSelector("body[data-ready]", {timeout: 20000});
    return Date.now() - t0;
  };
  out.open_ms = await open("");
  out.first_answer_ms = await page.evaluate(() => Number(document.body.dataset.firstAnswerMs));
  out.module_bytes = await page.evaluate(() => Math.floor(document.getElementById("gpuocc-module").textContent.trim().length * 3 / 4));

  /* the contract's report() on every case, in one evaluation */
  out.cases = await page.evaluate((cases) => cases.map((p) => {
    try { return {value: gpuocc.report(p)}; } catch (e) { return {status: e.status, message: e.message}; }
  }), plan.cases);

  out.sweeps = await page.evaluate((sweeps) => sweeps.map((s) => {
    try { return {value: gpuocc.sweep(s.params, s.axis)}; } catch (e) { return {status: e.status, message: e.message}; }
  }), plan.sweeps);

  /* the page's own answers, for launches given by the link */
  const shown = () => page.evaluate(() => {
    const o = {};
    for (const el of document.querySelectorAll("#report [data-field]")) o[el.dataset.field] = JSON.parse(el.dataset.value);
    return {fields: o, error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
            curves: [...document.querySelectorAll("svg[data-axis]")].map((s) => s.dataset.axis)};
  });
  for (const q of plan.dom) {
    await open(q);
    await page.waitForFunction(() => document.body.dataset.curvesDrawn !== undefined, {timeout: 10000}).catch(() => {});
    out.dom.push({query: q, ...(await shown())});
  }

  /* editing an input updates the link and the answer */
  if (plan.edit) {
    await open(plan.edit.query);
    const sel = "input[name=" + plan.edit.field + "]";
    await page.click(sel, {clickCount: 3});
    await page.keyboard.press("Backspace");
    await page.type(sel, String(plan.edit.value));
    /* the link follows a moment after the last edit (web/page.js, linkSoon) */
    await page.waitForFunction((f, v) => new URLSearchParams(location.search).get(f) === v, {timeout: 5000},
                               plan.edit.field, String(plan.edit.value)).catch(() => {});
    out.edit = {search: await page.evaluate(() => location.search), ...(await shown())};
    /* an edit's cost: from the input event to the report and the curves laid out (a forced layout), each
       edit in its own task after a frame; registers, threads and shared memory in turn */
    out.redraw = await page.evaluate(async (n) => {
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
    }, plan.edit.redraw || 30);
  }

  /* binaries chosen through the file input, and given to gpuocc.binary() as ArrayBuffers */
  for (const b of plan.binaries) {
    await open(b.query || "");
    const input = await page.$("input[type=file][data-role=binary]");
    await input.uploadFile(b.path);
    await page.waitForFunction(() => document.body.dataset.binaryDone !== undefined, {timeout: 60000});
    const rows = await page.evaluate(() => [...document.querySelectorAll("[data-kernel]")].map((tr) => {
      const o = {name: tr.dataset.kernel};
      for (const td of tr.querySelectorAll("[data-field]")) o[td.dataset.field] = JSON.parse(td.dataset.value);
      return o;
    }));
    const status = await page.evaluate(() => document.getElementById("binary-status").textContent);
    const b64 = fs.readFileSync(b.path).toString("base64");
    const records = await page.evaluate(async (data, params, name) => {
      const s = atob(data), bytes = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
      try { return Array.from(await gpuocc.binary(bytes.buffer, params, {name})); } catch (e) { return {status: e.status, message: e.message}; }
    }, b64, b.params, b.name);
    out.binaries.push({path: b.path, rows, status});
    out.buffers.push({path: b.path, records});
  }

  /* a large file (an archive padded to hundreds of MB) read while the page keeps drawing frames and
     answering report(): the gaps between animation frames, the report() calls answered, the progress shown */
  if (plan.large) {
    await open("");
    await page.evaluate(() => {
      const w = window.__large = {frames: 0, maxGapMs: 0, reports: 0, failures: 0, progress: [], done: false};
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
        .observe(status, {childList: true, characterData: true, subtree: true});
    });
    const t0 = Date.now();
    const input = await page.$("input[type=file][data-role=binary]");
    await input.uploadFile(plan.large.path);
    await page.waitForFunction(() => document.body.dataset.binaryDone !== undefined, {timeout: 240000});
    const ms = Date.now() - t0;
    out.large = await page.evaluate(() => {
      window.__large.done = true;
      const rows = [...document.querySelectorAll("[data-kernel]")].map((tr) => tr.dataset.kernel);
      return {...window.__large, rows, done: document.body.dataset.binaryDone};
    });
    out.large.ms = ms;
  }

  if (plan.bench) {
    await open("");
    out.bench = await page.evaluate((fullSource, bareSource, p, n) => {
      const full = new Function("return " + fullSource)(), bare = new Function("return " + bareSource)();
      let sink = 0;
      /* the three in turn, seven rounds, each run in batches of 100 for at least 40 ms a round (the clock's
         grain is 0.1 ms) after a warm-up of n calls; each figure the median of its rounds, each ratio the median
         of the rounds' ratios (a round's three share the machine's load of the moment) */
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
              report: gpuocc.report(p)};
    }, plan.bench.full, plan.bench.bare, plan.bench.params, plan.bench.n);
  }
  await browser.close();
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error("drive.cjs: " + (e && e.stack || e)); process.exit(1); });
