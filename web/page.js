/* The page: the launch form, the report, the curves and the binary table, all from window.gpuocc; the page
   formats no answer of its own (each value shown is the CLI's JSON value, in data-value). */
(function () {
  const $ = (s, root) => (root || document).querySelector(s);
  const $$ = (s, root) => Array.from((root || document).querySelectorAll(s));
  const form = $("#launch"), archSelect = $("#arch");
  let catalog = [], vendorOf = new Map(), sourceOf = new Map(), firstAnswer = true;
  const MODELS = {amd: ["compiler", "runtime"], intel: ["calculator", "runtime"]};
  const UNITS = {nvidia: ["blocks per SM", "warps per SM"], amd: ["blocks per CU/WGP", "waves per CU/WGP"],
                 intel: ["work-groups per Xe-core", "hardware threads per Xe-core"]};
  const NOT_REPORT = new Set(["grid_blocks"]); /* the form's own inputs that are not `report` flags */

  function vendor() { return vendorOf.get(archSelect.value) || "nvidia"; }

  /* the visible inputs' values as vocabulary names; empty and default values are left out */
  function params(all) {
    const p = {}, v = vendor();
    for (const el of form.elements) {
      if (!el.name || el.closest("[hidden]")) continue;
      if (!all && NOT_REPORT.has(el.name)) continue;
      if (el.type === "checkbox") {
        if (el.name === "smem_optin" && !el.checked) p.smem_optin = 0;
        if (el.name === "cu_mode" && el.checked) p.cu_mode = 1;
      } else if (el.value.trim() !== "") p[el.name] = el.value.trim();
    }
    if (v === "intel") delete p.regs;
    return p;
  }

  function show(v) {
    for (const el of $$("[data-vendors]", form)) el.hidden = !el.dataset.vendors.split(" ").includes(v);
    const model = form.elements.model, keep = model.value;
    model.replaceChildren(new Option("default (" + (MODELS[v] || [""])[0] + ")", ""),
                          ...(MODELS[v] || []).map((m) => new Option(m, m)));
    if ((MODELS[v] || []).includes(keep)) model.value = keep;
    $("#unit-blocks").textContent = UNITS[v][0];
    $("#unit-warps").textContent = UNITS[v][1];
    $("#source").textContent = sourceOf.get(archSelect.value) || "";
  }

  /* The link follows the form a moment after the last edit: history.replaceState costs the browser 1-20 ms
     (Chromium hands it to its browser process), too much for every keystroke's frame. */
  let linkTimer = 0;
  function link() {
    const q = new URLSearchParams(params(true)).toString();
    history.replaceState(null, "", location.pathname + (q ? "?" + q : ""));
  }
  function linkSoon() {
    clearTimeout(linkTimer);
    linkTimer = setTimeout(link, 150);
  }

  function set(el, key, value) {
    el.dataset.field = key;
    el.dataset.value = JSON.stringify(value);
  }

  function text(value) {
    if (value === null) return "\u2014";
    if (Array.isArray(value)) return value.length ? value.map(text).join(", ") : "none";
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  function stepText(s) {
    const change = (c) => c.resource + " " + (c.new_value + c.shed) + " \u2192 " + c.new_value;
    return [s, ...s.also].map(change).join(" and ") + ": " + s.blocks_per_sm + " blocks";
  }

  function renderReport(r, err) {
    $("#report").hidden = false;
    $("#error").hidden = true;
    for (const el of $$("[data-show]")) {
      const k = el.dataset.show, v = r[k];
      set(el, k, v);
      el.textContent = k === "occupancy" ? (100 * v).toFixed(1) + " %" : text(v);
    }
    /* every field: the list is made again only when its keys change (another vendor, a field now null);
       else each value is written where it changed */
    const dl = $("#fields"), shown = Object.entries(r).filter(([k, v]) => v !== null || k === "exceeded");
    const dds = dl.getElementsByTagName("dd");
    if (dds.length !== shown.length || shown.some(([k], i) => dds[i].dataset.field !== k)) {
      dl.replaceChildren(...shown.flatMap(([k]) => {
        const dt = document.createElement("dt"), dd = document.createElement("dd");
        dt.textContent = k;
        dd.dataset.field = k;
        return [dt, dd];
      }));
    }
    shown.forEach(([k, v], i) => {
      const dd = dds[i], value = JSON.stringify(v), shownText = k === "next_steps" ? v.length + " (below)" : text(v);
      if (dd.dataset.value !== value) dd.dataset.value = value;
      if (dd.textContent !== shownText) dd.textContent = shownText;
    });
    const steps = $("#steps");
    set(steps, "next_steps", r.next_steps);
    steps.replaceChildren(...r.next_steps.map((s) => {
      const li = document.createElement("li");
      li.textContent = stepText(s);
      return li;
    }));
    if (!r.next_steps.length) steps.replaceChildren(Object.assign(document.createElement("li"),
      {textContent: r.warps_per_sm >= r.max_warps_per_sm ? "full occupancy: none needed" : "no single change gains a block"}));
    const notes = $("#notes");
    notes.hidden = !err;
    notes.textContent = err;
  }

  function renderWaves(r, all) {
    const w = $("#waves");
    if (!all.grid_blocks || !r.blocks_per_sm) {
      w.replaceChildren();
      w.textContent = r.sm_count && r.blocks_per_sm ? "a full wave: " + r.sm_count * r.blocks_per_sm +
        " blocks (" + r.sm_count + " \u00d7 " + r.blocks_per_sm + "); give the grid's blocks for its waves" : "give a product (its unit count) and the grid's blocks";
      return;
    }
    const a = gpuocc.run(["waves", "--grid-blocks", all.grid_blocks, "--blocks-per-sm", String(r.blocks_per_sm),
                          ...(r.sm_count ? ["--sm-count", String(r.sm_count)] : ["--arch", all.arch]), "--json"]);
    if (a.status > 1) { w.textContent = a.err.trim(); return; }
    const o = JSON.parse(a.out), verdict = document.createElement("p"), dl = document.createElement("dl");
    verdict.textContent = o.verdict || "";
    set(verdict, "waves.verdict", o.verdict);
    dl.className = "fields";
    for (const [k, v] of Object.entries(o)) {
      if (k === "verdict" || k === "command" || v === null) continue;
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k;
      set(dd, "waves." + k, v);
      dd.textContent = text(v);
      dl.append(dt, dd);
    }
    const more = document.createElement("details");
    more.append(Object.assign(document.createElement("summary"), {textContent: "every field (as gpuocc waves --json)"}), dl);
    w.replaceChildren(verdict, more);
  }

  function update() {
    const t0 = performance.now();
    const all = params(true), p = params(false);
    if (firstAnswer) link();
    else linkSoon();
    const a = gpuocc._report(p); /* report()'s fast way, with the CLI's stderr line (the notes) */
    if (a.status > 1) {
      $("#error").hidden = false;
      $("#error").textContent = a.err.trim();
      $("#report").hidden = true;
    } else {
      const r = a.value;
      renderReport(r, a.err.trim());
      renderWaves(r, all);
      if (firstAnswer) {
        firstAnswer = false;
        /* since the page's navigation began (performance.now()'s origin): the wait a person sees */
        document.body.dataset.firstAnswerMs = String(Math.round(performance.now()));
      }
    }
    /* the curves in the same task, before the next frame is drawn (docs/web.md, "Size and speed") */
    drawCurves(p, a.status <= 1);
    document.body.dataset.lastUpdateMs = (performance.now() - t0).toFixed(2);
  }

  /* Each axis keeps its element; a curve whose SVG text is the same as the one shown is left as it is, so an
     edit redraws only the curves it changed (the marker of the launch moves on every curve whose launch
     changed).  Each curve is one `gpuocc plot` run: the very SVG the CLI draws. */
  const curveShown = new Map(); /* axis -> {div, svg} */
  function drawCurves(p, ok) {
    /* the axes `gpuocc plot` draws for the vendor (Intel: its GRF and sub-group in place of registers) */
    const box = $("#curves");
    const axes = ok ? {nvidia: ["threads", "regs", "smem", "barriers"], amd: ["threads", "regs", "smem"],
                       intel: ["threads", "smem", "barriers", "sub_group", "grf"]}[vendor()] : [];
    const divs = [];
    for (const axis of axes) {
      let svg;
      try { svg = gpuocc.plot(p, axis); } catch (e) { continue; }
      let c = curveShown.get(axis);
      if (!c) {
        c = {div: document.createElement("div"), svg: null};
        c.div.className = "curve";
        curveShown.set(axis, c);
      }
      if (c.svg !== svg) {
        c.div.innerHTML = svg.replace(/^<\?xml[^>]*>\s*/, "");
        const el = $("svg", c.div);
        el.dataset.axis = axis;
        el.setAttribute("role", "img");
        c.svg = svg;
      }
      divs.push(c.div);
    }
    if (divs.length !== box.children.length || divs.some((d, i) => box.children[i] !== d)) box.replaceChildren(...divs);
    document.body.dataset.curvesDrawn = String(box.children.length);
  }

  /* ---- binaries ---- */
  const COLUMNS = ["short_name", "arch", "registers", "smem", "stack", "threads", "blocks_per_sm", "warps_per_sm",
                   "occupancy", "limiters", "status"];
  let records = [], sortKey = null, sortDown = false;

  function renderKernels() {
    const table = $("#kernels");
    table.hidden = !records.length;
    const head = document.createElement("tr");
    for (const k of COLUMNS) {
      const th = document.createElement("th"), b = document.createElement("button");
      b.type = "button";
      b.textContent = k;
      b.addEventListener("click", () => { sortDown = sortKey === k ? !sortDown : false; sortKey = k; renderKernels(); });
      th.setAttribute("aria-sort", sortKey === k ? (sortDown ? "descending" : "ascending") : "none");
      th.append(b);
      head.append(th);
    }
    $("thead", table).replaceChildren(head);
    const rows = records.slice();
    if (sortKey) {
      rows.sort((x, y) => {
        const a = x[sortKey], b = y[sortKey];
        const c = typeof a === "number" && typeof b === "number" ? a - b : text(a).localeCompare(text(b));
        return sortDown ? -c : c;
      });
    }
    $("tbody", table).replaceChildren(...rows.map((r) => {
      const tr = document.createElement("tr");
      tr.dataset.kernel = r.name;
      for (const k of COLUMNS) {
        const td = document.createElement("td");
        set(td, k, r[k]);
        td.textContent = k === "occupancy" && typeof r[k] === "number" ? (100 * r[k]).toFixed(1) + " %" : text(r[k]);
        if (k === "short_name") td.title = r.name + " (" + r.file + ")";
        tr.append(td);
      }
      return tr;
    }));
  }

  async function readBinary(file) {
    const status = $("#binary-status"), bar = $("#progress");
    status.textContent = "reading " + file.name + " (" + file.size + " bytes)";
    bar.hidden = false;
    bar.value = 0;
    const p = $("#best-block").checked ? {best_block: 1} : {threads: form.elements.threads.value || 256};
    try {
      const got = await gpuocc.binary(file, p, {name: file.name, onProgress(g) {
        bar.value = g.total ? (g.stage === "load" ? 0.5 : 1) * g.done / g.total : 0;
        status.textContent = (g.stage === "load" ? "loading " : "reading ") + file.name + ": " + g.done + " of " + g.total + " bytes";
      }});
      records = Array.from(got);
      status.textContent = file.name + ": " + records.length + " kernels" + (got.problems ? "; " + got.problems.join("; ") : "");
      document.body.dataset.binaryDone = String(records.length);
    } catch (e) {
      records = [];
      status.textContent = e.message;
      document.body.dataset.binaryDone = "error";
    }
    bar.hidden = true;
    renderKernels();
  }

  /* ---- start ---- */
  gpuocc.ready.then(() => {
    catalog = gpuocc.devices();
    const groups = {};
    for (const d of catalog) {
      vendorOf.set(d.name, d.vendor);
      sourceOf.set(d.name, d.source);
      const g = d.vendor + " " + d.kind;
      if (!groups[g]) {
        groups[g] = document.createElement("optgroup");
        groups[g].label = {nvidia: "NVIDIA", amd: "AMD", intel: "Intel"}[d.vendor] + (d.kind === "arch" ? " architectures" : " products");
      }
      groups[g].append(new Option(d.name + (d.kind === "product" ? " (" + d.arch + ")" : ""), d.name));
    }
    archSelect.append(...Object.values(groups));
    archSelect.value = catalog.some((d) => d.name === "H100 SXM") ? "H100 SXM" : catalog[0].name;
    const q = new URLSearchParams(location.search);
    if (q.has("arch")) {
      const name = q.get("arch"), known = catalog.find((d) => d.name.toLowerCase() === name.toLowerCase());
      if (!known) {
        archSelect.prepend(new Option(name, name));
        const probe = gpuocc.run(["devices", name, "--json"]);
        if (probe.status === 0) vendorOf.set(name, JSON.parse(probe.out)[0].vendor);
      }
      archSelect.value = known ? known.name : name;
    }
    show(vendor());
    if ([...q.keys()].some((k) => k !== "arch")) /* a link gives the whole launch: the form's defaults go */
      for (const el of form.elements) if (el.name && el.name !== "arch") el.type === "checkbox" ? (el.checked = el.name === "smem_optin") : (el.value = "");
    for (const [k, v] of q) {
      const el = form.elements[k];
      if (!el || k === "arch") continue;
      if (el.type === "checkbox") el.checked = !["0", "false", "no", ""].includes(v.toLowerCase());
      else {
        if (el.tagName === "SELECT" && ![...el.options].some((o) => o.value === v)) el.append(new Option(v, v));
        el.value = v;
      }
    }
    if (vendor() === "intel" && !q.has("regs")) form.elements.regs.value = "";
    form.addEventListener("input", (e) => { if (e.target === archSelect) show(vendor()); update(); });
    form.addEventListener("change", (e) => { if (e.target === archSelect) { show(vendor()); update(); } });
    form.addEventListener("submit", (e) => e.preventDefault());
    $("#binary").addEventListener("change", (e) => { if (e.target.files[0]) readBinary(e.target.files[0]); });
    const drop = $("#drop");
    for (const t of ["dragenter", "dragover"]) document.addEventListener(t, (e) => { e.preventDefault(); drop.classList.add("over"); });
    document.addEventListener("dragleave", () => drop.classList.remove("over"));
    document.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      if (e.dataTransfer.files[0]) readBinary(e.dataTransfer.files[0]);
    });
    update();
    document.body.dataset.ready = "1";
  }, (e) => {
    $("#error").hidden = false;
    $("#error").textContent = "gpuocc could not start: " + e.message;
  });
})();
