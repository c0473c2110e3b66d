/* The page: the launch form, the answer, where each resource goes, the waves, the curves and the binary table,
   all from window.gpuocc.  Every number shown is the CLI's (report, waves and sweep JSON, in data-value where it
   is one of its fields); the page chooses the words (the vendor's own) and draws the pictures. */
(function () {
  const $ = (s, root) => (root || document).querySelector(s);
  const $$ = (s, root) => Array.from((root || document).querySelectorAll(s));
  const SVG = "http://www.w3.org/2000/svg";
  const form = $("#launch"), archSelect = $("#arch");
  let catalog = [], deviceOf = new Map(), firstAnswer = true, linkNote = "";
  /* the CLI's --model names, the default first (tools/cli.c; docs/amd.md, docs/intel.md) */
  const MODELS = {amd: ["compiler", "llvm19", "runtime"], intel: ["calculator", "runtime"]};
  /* report's own flags (its questions, setmaxnreg, the cluster and the grid): the curves are of the launch alone */
  const NOT_SWEEP = new Set(["setmaxnreg", "regs_fixed", "min_blocks", "blocks", "stage_bytes", "base_bytes",
                             "cluster", "cluster_nonportable", "gpc_sms", "grid_blocks"]);

  /* ---- words: each vendor's own (docs/amd.md and docs/intel.md, "Words"; the CLI's text) ---- */
  const WORDS = {
    nvidia: {block: "block", blocks: "blocks", warps: "warps", slot: "warp slots", unit: "SM", units: "SMs",
             input: {threads: "threads per block", regs: "registers per thread", smem_static: "static shared memory per block",
                     smem_dynamic: "dynamic shared memory per block", barriers: "barriers per block", grid_blocks: "blocks in the grid",
                     max_threads: "max threads per block",
                     min_blocks: "blocks per {unit} to reach", blocks: "blocks per {unit} to keep",
                     stage_bytes: "shared memory per pipeline stage", base_bytes: "shared memory beside the stages"},
             /* a next step's resource is the input it changes (docs/output.md, next_steps[].resource) */
             step: {warps: "threads per block", registers: "registers per thread", shared_memory: "shared memory per block",
                    barriers: "barriers per block", virtual_resources: "virtual resources per block"},
             res: {warps: "warps", registers: "registers", shared_memory: "shared memory", blocks: "the block cap",
                   barriers: "barriers", virtual_resources: "virtual resources"}},
    amd: {block: "workgroup", blocks: "workgroups", warps: "waves", slot: "wave slots", unit: "CU", units: "CUs",
          input: {threads: "threads per workgroup", regs: "VGPRs per lane", smem_static: "static LDS per workgroup",
                  smem_dynamic: "dynamic LDS per workgroup", grid_blocks: "workgroups in the grid",
                  max_threads: "max threads per workgroup",
                  min_blocks: "workgroups per {unit} to reach", blocks: "workgroups per {unit} to keep",
                  stage_bytes: "LDS per pipeline stage", base_bytes: "LDS beside the stages"},
          step: {warps: "threads per workgroup", registers: "VGPRs per lane", shared_memory: "LDS per workgroup",
                 sgprs: "SGPRs per wave", agprs: "AGPRs per lane"},
          res: {warps: "waves", registers: "VGPRs", shared_memory: "LDS", blocks: "the workgroup cap", barriers: "barriers",
                sgprs: "SGPRs"}},
    intel: {block: "work-group", blocks: "work-groups", warps: "hardware threads", slot: "hardware-thread slots",
            unit: "Xe-core", units: "Xe-cores",
            input: {threads: "work-items per work-group", smem_static: "static SLM per work-group",
                    smem_dynamic: "dynamic SLM per work-group", barriers: "barriers per work-group",
                    grid_blocks: "work-groups in the grid", min_blocks: "work-groups per {unit} to reach",
                    max_threads: "max work-items per work-group",
                    blocks: "work-groups per {unit} to keep", stage_bytes: "SLM per pipeline stage",
                    base_bytes: "SLM beside the stages"},
            step: {warps: "work-items per work-group", registers: "GRF per hardware thread", shared_memory: "SLM per work-group",
                   barriers: "barriers per work-group"},
            res: {warps: "hardware threads", registers: "GRF", shared_memory: "SLM", blocks: "the work-group cap",
                  barriers: "barriers"}},
  };
  /* one line under each input, in the vendor's words */
  const HINTS = {
    nvidia: {threads: "blockDim.x \u00d7 y \u00d7 z of the launch.",
             regs: "What ptxas reports (-Xptxas -v, or the binary below).",
             smem_static: "__shared__ arrays the kernel declares (ptxas's \"smem\"); sizes take 48K.",
             smem_dynamic: "The launch's third <<<>>> argument; sizes take 48K.",
             barriers: "Named barriers the kernel uses (bar.sync ids; ptxas reports them).",
             grid_blocks: "gridDim.x \u00d7 y \u00d7 z: the waves it runs in on this product.",
             max_threads: "__launch_bounds__'s maximum (maxThreadsPerBlock): a larger block fails to launch.",
             min_blocks: "__launch_bounds__'s minimum of blocks: whether the launch reaches it, and what prevents it.",
             blocks: "The most dynamic shared memory and registers per thread with which this many blocks still fit (1 with a stage size).",
             stage_bytes: "A pipeline stage's dynamic shared memory: the most stages that still fit (the dynamic shared memory above is left out); sizes take 32K.",
             base_bytes: "With a stage size: the dynamic shared memory beside the stages (default 0)."},
    amd: {threads: "The workgroup size (blockDim.x \u00d7 y \u00d7 z in HIP).",
          regs: "Arch VGPRs, as LLVM's remarks report them (\"VGPRs\").",
          smem_static: "LLVM's \"LDS Size\" (__shared__ arrays); sizes take 48K.",
          smem_dynamic: "The launch's dynamic LDS (HIP's sharedMemBytes); sizes take 48K.",
          grid_blocks: "Workgroups in the grid: the waves it runs in on this product.",
          max_threads: "The flat workgroup size maximum the kernel was compiled for (amdgpu_flat_work_group_size); none: the workgroup size.",
          min_blocks: "A minimum of workgroups the launch must reach: whether it does, and what prevents it.",
          blocks: "The most dynamic LDS and VGPRs per lane with which this many workgroups still fit (1 with a stage size).",
          stage_bytes: "A pipeline stage's dynamic LDS: the most stages that still fit (the dynamic LDS above is left out); sizes take 32K.",
          base_bytes: "With a stage size: the dynamic LDS beside the stages (default 0).",
          model: "compiler: today's LLVM occupancy; llvm19: LLVM 19's, as llc-19 prints it; runtime: what HIP's occupancy API answers."},
    intel: {threads: "The work-group size (local range) of the launch.",
            smem_static: "SLM the kernel declares; sizes take 48K.",
            smem_dynamic: "SLM the launch adds (local accessors); sizes take 48K.",
            barriers: "Barriers the kernel uses (default 1).",
            grid_blocks: "Work-groups in the grid: the waves it runs in on this product.",
            max_threads: "The kernel's CL_KERNEL_WORK_GROUP_SIZE: a larger work-group cannot be enqueued.",
            min_blocks: "A minimum of work-groups the launch must reach: whether it does, and what prevents it.",
            blocks: "The most dynamic SLM and GRF with which this many work-groups still fit (1 with a stage size).",
            stage_bytes: "A pipeline stage's dynamic SLM: the most stages that still fit (the dynamic SLM above is left out); sizes take 32K.",
            base_bytes: "With a stage size: the dynamic SLM beside the stages (default 0).",
            model: "calculator: Intel's GPU Occupancy Calculator; runtime: the compute runtime's count."},
  };
  /* a link's names: the CLI's flags with dashes as underscores; a vendor's own flag names the form's input */
  const ALIASES = {vgprs: ["amd", "regs"], lds: ["amd", "smem_static"], lds_dynamic: ["amd", "smem_dynamic"],
                   no_trap_handler: ["amd", "trap_handler"], no_optin: ["nvidia", "smem_optin"],
                   slm: ["intel", "smem_static"], slm_dynamic: ["intel", "smem_dynamic"]};
  const LINK_NAMES = {amd: {regs: "vgprs", smem_static: "lds", smem_dynamic: "lds_dynamic"},
                      intel: {smem_static: "slm", smem_dynamic: "slm_dynamic"}};

  function vendor() { return (deviceOf.get(archSelect.value) || {vendor: "nvidia"}).vendor; }
  /* the unit blocks are counted per: AMD's WGP where a workgroup spans one (gfx10 and later, not in CU mode) */
  function words(v, r) {
    const w = WORDS[v], d = deviceOf.get(archSelect.value) || {};
    if (v === "amd" && d.cus_per_wgp > 1 && !(r ? r.cu_mode : form.elements.cu_mode.checked))
      return {...w, unit: "WGP", units: "WGPs"};
    return w;
  }
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const el = (tag, props, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    e.append(...kids);
    return e;
  };
  const svgEl = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    /* geometry to a hundredth of a pixel; data-* values as they are */
    for (const [k, v] of Object.entries(attrs))
      e.setAttribute(k, typeof v === "number" && !k.startsWith("data-") ? +v.toFixed(2) : v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const percent = (o) => (100 * o).toFixed(1) + " %";
  /* bytes as a person reads them: whole KiB as KiB, else bytes */
  const bytes = (b) => b > 0 && b % 1024 === 0 ? b / 1024 + " KiB" : b + " B";

  /* the visible inputs' values as vocabulary names; empty and default values are left out */
  function params() {
    const p = {}, v = vendor();
    for (const e of form.elements) {
      if (!e.name || e.closest("[hidden]")) continue;
      if (e.type === "checkbox") {
        if (e.name === "smem_optin" && !e.checked) p.smem_optin = 0;
        if (e.name !== "smem_optin" && e.checked) p[e.name] = 1; /* cu_mode, regs_fixed, cluster_nonportable */
      } else if (e.value.trim() !== "") p[e.name] = e.value.trim();
    }
    if (v === "intel") delete p.regs;
    return p;
  }

  function show(v) {
    for (const e of $$("[data-vendors]", form)) e.hidden = !e.dataset.vendors.split(" ").includes(v);
    const model = form.elements.model, keep = model.value;
    model.replaceChildren(new Option("default (" + (MODELS[v] || [""])[0] + ")", ""),
                          ...(MODELS[v] || []).map((m) => new Option(m, m)));
    if ((MODELS[v] || []).includes(keep)) model.value = keep;
    relabel(v);
    for (const e of $$("[data-hint]", form)) e.textContent = HINTS[v][e.dataset.hint] || "";
    $("#source").textContent = (deviceOf.get(archSelect.value) || {}).source || "";
  }

  /* the inputs' labels in the vendor's words, the unit (CU or WGP) as the form now says */
  let labelled = "";
  function relabel(v) {
    const w = WORDS[v], unit = words(v).unit;
    if (labelled === v + unit) return;
    labelled = v + unit;
    for (const e of $$("[data-label]", form))
      e.textContent = cap((w.input[e.dataset.label] || e.dataset.label).replace("{unit}", unit));
  }

  /* The link follows the form a moment after the last edit: history.replaceState costs the browser 1-20 ms
     (Chromium hands it to its browser process), too much for every keystroke's frame.  Its names are the
     CLI's flags (AMD's vgprs and lds, Intel's slm), so a link reads as the command line does. */
  let linkTimer = 0;
  function link() {
    const names = LINK_NAMES[vendor()] || {}, p = params(), q = new URLSearchParams();
    for (const [k, v] of Object.entries(p)) {
      /* the trap handler off is the CLI's --no-trap-handler; on, the default, has no flag of its own; the
         shared-memory opt-in off is --no-optin */
      if (k === "trap_handler") q.append(v === "-1" ? "no_trap_handler" : k, v === "-1" ? "1" : v);
      else if (k === "smem_optin") q.append("no_optin", "1");
      else q.append(names[k] || k, v);
    }
    const s = q.toString();
    history.replaceState(null, "", location.pathname + (s ? "?" + s : ""));
  }
  function linkSoon() {
    clearTimeout(linkTimer);
    linkTimer = setTimeout(link, 150);
  }

  function set(e, key, value) {
    e.dataset.field = key;
    e.dataset.value = JSON.stringify(value);
  }

  function text(value) {
    if (value === null) return "\u2014";
    if (Array.isArray(value)) return value.length ? value.map(text).join(", ") : "none";
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  /* "registers", "registers and LDS", "waves, VGPRs and SGPRs" */
  const limiterWords = (w, list) => {
    const names = list.map((k) => w.res[k] || k.replace(/_/g, " "));
    return names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0] || "nothing";
  };

  /* ---- the answer ---- */
  function stepText(s, w, r) {
    const amount = (c, n) => c.resource === "shared_memory" ? bytes(n) : String(n);
    const change = (c) => (w.step[c.resource] || c.resource.replace(/_/g, " ")) + " " + amount(c, c.new_value + c.shed) +
                          " \u2192 " + amount(c, c.new_value);
    return cap([s, ...s.also].map(change).join(" and ")) + ": " + s.blocks_per_sm + " " +
           (s.blocks_per_sm === 1 ? w.block : w.blocks) + " per " + w.unit +
           " (now " + r.blocks_per_sm + ")";
  }

  function renderReport(r, err, exceeded, cliNotes) {
    const v = r.vendor, w = words(v, r);
    $("#report").hidden = false;
    $("#error").hidden = true;
    const where = r.sm_count ? r.sm_count + " " + w.units : w.unit + " count unknown: an architecture";
    $("#for").replaceChildren(el("b", {text: r.device}), " (" + r.arch + ", " + where + ")");
    for (const e of $$("[data-show]")) {
      const k = e.dataset.show, value = r[k];
      set(e, k, value);
      e.textContent = k === "occupancy" ? percent(value) : k === "limiters" ? limiterWords(w, value) : text(value);
    }
    $("[data-word=blocks-per]").textContent = w.blocks + " per " + w.unit;
    const d = deviceOf.get(archSelect.value) || {};
    /* AMD's waves per SIMD are the compiler's figure, whatever fits the unit: qualified as the CLI's text does */
    $("[data-word=warps-per]").textContent = w.warps + " per " + w.unit + (r.waves_per_simd === null ? ""
      : " (" + r.waves_per_simd + (d.waves_per_simd ? " of " + d.waves_per_simd : "") +
        " per SIMD, the compiler's: LLVM's \"Occupancy [waves/SIMD]\")");
    /* every field: the list is made again only when its keys change (another vendor, a field now null);
       else each value is written where it changed */
    const dl = $("#fields"), shown = Object.entries(r).filter(([k, value]) => value !== null || k === "exceeded");
    const dds = dl.getElementsByTagName("dd");
    if (dds.length !== shown.length || shown.some(([k], i) => dds[i].dataset.field !== k)) {
      dl.replaceChildren(...shown.flatMap(([k]) => {
        const dd = el("dd");
        dd.dataset.field = k;
        return [el("dt", {text: k}), dd];
      }));
    }
    shown.forEach(([k, value], i) => {
      const dd = dds[i], json = JSON.stringify(value), shownText = k === "next_steps" ? value.length + " (above)" : text(value);
      if (dd.dataset.value !== json) dd.dataset.value = json;
      if (dd.textContent !== shownText) dd.textContent = shownText;
    });
    const steps = $("#steps");
    set(steps, "next_steps", r.next_steps);
    steps.replaceChildren(...r.next_steps.map((s) => el("li", {text: stepText(s, w, r)})));
    if (!r.next_steps.length)
      steps.replaceChildren(el("li", {text: r.warps_per_sm >= r.max_warps_per_sm ? "Full occupancy: none needed."
        : r.blocks_per_sm ? "No single change gains a " + w.block + "." : "None: the launch cannot run as it is."}));
    /* each resource's own limit, in blocks per unit (the CLI's `limits` line) */
    const limits = [["warps", "limit_warps"], ["registers", "limit_regs"], ["shared_memory", "limit_smem"],
                    ["blocks", "limit_blocks"], ["barriers", "limit_barriers"], ["sgprs", "limit_sgprs"],
                    ["virtual_resources", "limit_virtual_resources"]].filter(([res, k]) => k in r && (r[k] !== null || !["sgprs", "virtual_resources"].includes(res)));
    $("#limits-title").textContent = cap(w.blocks) + " per " + w.unit + " each resource allows: ";
    $("#limits").replaceChildren(...limits.flatMap(([res, k], i) => {
      const b = el("b", {text: r[k] === null ? "no limit" : String(r[k])});
      set(b, k, r[k]);
      return [...(i ? ["; "] : []), (res === "blocks" ? w.block + " slots" : w.res[res] || res.replace(/_/g, " ")) + " ", b];
    }));
    /* the input over its limit, in the words of the CLI's `exceeded` line (the module's own text) */
    const over = $("#exceeded");
    over.hidden = r.exceeded === null;
    const [name, limit] = $$("[data-field]", over);
    set(name, "exceeded", r.exceeded);
    set(limit, "exceeded_limit", r.exceeded_limit);
    name.textContent = exceeded || (r.exceeded === null ? "" : r.exceeded + " (its limit " + r.exceeded_limit + ")");
    renderAnswers(r, w);
    /* the CLI's stderr line for a launch that cannot run ends with the same words: said once, above */
    const said = exceeded && err.endsWith(exceeded) && err.includes(": cannot run: ");
    /* and the notes of the CLI's text report (its `note` lines: 256 registers, more than ptxas allocates) */
    const notes = $("#notes"), all = [linkNote, said ? "" : err, cliNotes.trim()].filter((s) => s).join("\n");
    notes.hidden = !all;
    notes.textContent = all;
    renderBars(r, w);
  }

  /* What report's questions answer (docs/output.md), each value one of its JSON fields, in the order and the
     words of its text: the kernel as compiled (AMD), tensor memory, setmaxnreg, the inverse queries and the stages,
     the launch bounds' minimum, the cluster.  A group shows only when its question was asked. */
  function renderAnswers(r, w) {
    const rows = [], amd = r.vendor === "amd", intel = r.vendor === "intel";
    const add = (label, key, value, shown) => rows.push([label, key, value, shown]);
    const per = (n) => n + " " + (n === 1 ? w.block : w.blocks) + " per " + w.unit;
    const smem = amd ? "LDS" : intel ? "SLM" : "shared memory";
    if (amd) {
      if (r.flat_workgroup_size_min !== null)
        add("Compiled for workgroups of", "flat_workgroup_size_min", r.flat_workgroup_size_min,
            r.flat_workgroup_size_min + " to " + r.max_threads + " threads (amdgpu_flat_work_group_size)");
      if (r.waves_per_eu_min !== null || r.waves_per_eu_max !== null)
        add("Compiled with", "waves_per_eu_min", r.waves_per_eu_min, "amdgpu_waves_per_eu(" +
            [r.waves_per_eu_min, r.waves_per_eu_max].filter((n) => n !== null).join(", ") + ")");
      if (r.trap_handler === false) add("Trap handler", "trap_handler", false, "off: compiled with -mattr=-trap-handler");
    }
    if (intel && r.workgroups_per_gpu !== null)
      add("Work-groups resident on the GPU", "workgroups_per_gpu", r.workgroups_per_gpu,
          r.workgroups_per_gpu + (r.model === "runtime" ? " (the runtime's count for a cooperative launch)" : ""));
    if (r.tmem_holders_per_sm !== null) {
      add("Holding tensor memory at once", "tmem_holders_per_sm", r.tmem_holders_per_sm,
          per(r.tmem_holders_per_sm) + " (" + r.tmem_columns + " columns each)");
      add("Waiting at tcgen05.alloc", "tmem_waiting_blocks", r.tmem_waiting_blocks, String(r.tmem_waiting_blocks));
    }
    if (r.setmaxnreg !== null) {
      add("setmaxnreg", "setmaxnreg", r.setmaxnreg, r.setmaxnreg.join(", ") + " registers per thread, per warpgroup");
      add("Registers the warpgroups ask", "setmaxnreg_requested_regs", r.setmaxnreg_requested_regs,
          r.setmaxnreg_requested_regs + " (mean " + +r.setmaxnreg_mean_regs.toFixed(1) + " per thread)");
      add("The block's register pool", "setmaxnreg_pool_regs", r.setmaxnreg_pool_regs, String(r.setmaxnreg_pool_regs));
      add("Fits the pool", "setmaxnreg_fits", r.setmaxnreg_fits,
          r.setmaxnreg_fits ? "yes" : "no: a setmaxnreg.inc waits forever");
      if (r.setmaxnreg_unfixed)
        add("Warning", "setmaxnreg_unfixed", true, "no fixed register count recorded: ptxas ignores setmaxnreg unless " +
            "maxnreg, -maxrregcount or __launch_bounds__ with a minimum of blocks fixes it");
    }
    if (r.target_blocks !== null) {
      const n = per(r.target_blocks);
      add("Most dynamic " + smem + " for " + n, "smem_dynamic_available", r.smem_dynamic_available,
          r.smem_dynamic_available === null ? "none fits" : r.smem_dynamic_available + " B");
      add("Most " + (amd ? "VGPRs per lane" : intel ? "GRF" : "registers per thread") + " for " + n, "regs_max_for_blocks", r.regs_max_for_blocks,
          r.regs_max_for_blocks === null ? "no count fits" : String(r.regs_max_for_blocks));
      if (r.stage_bytes !== null)
        add("Most stages of " + r.stage_bytes + " B after " + r.base_bytes + " B, for " + n, "max_stages", r.max_stages,
            r.max_stages === null ? "none: the " + r.base_bytes + " B beside them alone do not fit" : String(r.max_stages));
    }
    if (r.min_blocks !== null) {
      add("Minimum of " + per(r.min_blocks), "min_blocks_reached", r.min_blocks_reached,
          (r.min_blocks_reached ? "reached (" : "not reached (") + r.blocks_per_sm + " fit)" +
          (r.min_blocks_preventing && r.min_blocks_preventing.length ? "; prevented by " + limiterWords(w, r.min_blocks_preventing) : ""));
    }
    if (r.cluster_x !== null) {
      add("Cluster", "cluster_verdict", r.cluster_verdict, r.cluster_x + "x" + r.cluster_y + "x" + r.cluster_z + " = " +
          r.cluster_blocks + " blocks: " + r.cluster_verdict + (r.cluster_blocks_max !== null ? " (at most " + r.cluster_blocks_max + ")" : ""));
      if (r.clusters_max !== null)
        add("Clusters resident at once", "clusters_max", r.clusters_max,
            (r.clusters_min === r.clusters_max ? String(r.clusters_max) : r.clusters_min + " to " + r.clusters_max) + ": " +
            (r.clusters_kind === "bound" ? "a bound over every GPC layout of the product (the SMs of each GPC give the exact count)"
             : "exact"));
      if (r.grid_blocks !== null)
        add("Grid", "grid_blocks", r.grid_blocks, r.grid_x + "x" + r.grid_y + "x" + r.grid_z + " blocks" +
            (r.waves !== null ? ", " + r.waves + " waves" : ""));
    }
    const box = $("#more");
    box.hidden = !rows.length;
    $("#answers").replaceChildren(...rows.flatMap(([label, key, value, shown]) => {
      const dd = el("dd", {text: shown});
      set(dd, key, value);
      return [el("dt", {text: label}), dd];
    }));
  }

  /* Where each resource goes: of the unit's whole, what this launch's resident blocks hold, what is free but
     held back (the limiter admits no more blocks though this resource has room for more), and what is left
     over (too little for one more block).  From the report's own figures: the blocks, each limit, the block's
     allocation and the unit's capacity. */
  function renderBars(r, w) {
    const d = deviceOf.get(archSelect.value) || {}, b = r.blocks_per_sm, rows = [];
    const add = (res, per, limit, whole, fmt) => {
      if (limit === null || !(per > 0) || !(whole > 0) || limit * per > whole) return;
      rows.push({res, used: b * per, held: (limit - b) * per, whole, fmt});
    };
    const num = (n) => String(n), kib = (n) => +(n / 1024).toFixed(1) + " KiB";
    const regs = (n) => n >= 8192 && n % 1024 === 0 ? n / 1024 + "K" : String(n);
    if (b > 0) {
      add("warps", r.warps_per_sm / b, r.limit_warps, r.max_warps_per_sm, num);
      /* NVIDIA: the SM's register file; AMD: its VGPRs (per lane of a 64-lane row, per SIMD) across the CU's
         SIMDs, or the WGP's two CUs'; the block's registers (regs_per_block) are counted the same way */
      if (r.vendor === "nvidia") add("registers", r.regs_per_block, r.limit_regs, d.regs_per_sm, regs);
      if (r.vendor === "amd" && d.vgprs_per_simd)
        add("registers", r.regs_per_block, r.limit_regs, d.vgprs_per_simd * 64 * d.simds_per_cu * (w.unit === "WGP" ? d.cus_per_wgp : 1), regs);
      add("shared_memory", r.smem_per_block, r.limit_smem, r.smem_per_sm, kib);
      add("blocks", 1, r.limit_blocks, r.limit_blocks, num);
      if (r.vendor !== "amd" && r.barriers > 0) add("barriers", r.barriers, r.limit_barriers, d.barriers_per_sm, num);
    }
    const box = $("#bars");
    box.replaceChildren(...rows.flatMap((x) => {
      const pc = (n) => (100 * n / x.whole) + "%";
      const bar = el("div", {class: "bar", role: "img", "data-resource": x.res,
        "aria-label": w.res[x.res] + ": " + x.fmt(x.used) + " of " + x.fmt(x.whole) + " held by this launch, " +
                      x.fmt(x.held) + " free but held back, " + x.fmt(x.whole - x.used - x.held) + " left over"},
        el("span", {class: "c-" + x.res, style: "width:" + pc(x.used)}),
        el("span", {class: "held", style: "width:" + pc(x.held)}));
      const name = x.res === "blocks" ? cap(w.block) + " slots" : cap(w.res[x.res]);
      return [el("span", {text: name}), bar, el("span", {class: "muted", text: x.fmt(x.used) + " of " + x.fmt(x.whole)})];
    }));
    box.style.gridTemplateColumns = "max-content minmax(60px, 1fr) max-content";
    $("#bars-key").replaceChildren(...(rows.length ? [
      el("span", {}, el("i", {style: "background: linear-gradient(90deg, var(--c-warps), var(--c-registers), var(--c-shared_memory))"}), "held by this launch's " + b + " " + (b === 1 ? w.block : w.blocks)),
      el("span", {}, el("i", {style: "background: var(--held)"}), "free, held back by " + limiterWords(w, r.limiters)),
      el("span", {}, el("i", {style: "background: var(--unused)"}), "left over: less than a " + w.block + " needs")]
      : [el("span", {text: b ? "" : "Nothing is held: no " + w.block + " fits."})]));
    $("#bars-title").textContent = "Where each resource of " + (/^[SX]/.test(w.unit) ? "an " : "a ") + w.unit + " goes";
  }

  /* ---- the waves of a grid: `gpuocc waves` on the blocks per SM the report gives ---- */
  let wavesShown = null;
  function renderWaves(r) {
    const box = $("#waves"), w = words(r.vendor, r);
    wavesShown = null;
    if (!r.blocks_per_sm) { box.replaceChildren(el("p", {class: "muted", text: "No " + w.block + " fits: no waves."})); return; }
    if (!r.sm_count) {
      box.replaceChildren(el("p", {class: "muted", text: "Waves need the " + w.unit + " count: choose a product, not an architecture."}));
      return;
    }
    if (r.grid_blocks === null) {
      box.replaceChildren(el("p", {class: "muted", text: "A full wave is " + r.sm_count * r.blocks_per_sm + " " + w.blocks +
        " (" + r.sm_count + " " + w.units + " \u00d7 " + r.blocks_per_sm + "). Give the " + w.input.grid_blocks + " for its waves."}));
      return;
    }
    const a = gpuocc.run(["waves", "--grid-blocks", String(r.grid_blocks), "--blocks-per-sm", String(r.blocks_per_sm),
                          "--sm-count", String(r.sm_count), "--json"]);
    if (a.status > 1) { box.replaceChildren(el("p", {id: "waves-error", text: a.err.trim()})); return; }
    const o = JSON.parse(a.out);
    /* peak: every full wave runs at the launch's occupancy; average: over the waves, as the share of the
       machine's time the grid uses (the CLI's efficiency) */
    const avg = r.occupancy * o.efficiency;
    const fig = (value, label, key, v) => {
      const b = el("b", {text: value});
      if (key) set(b, key, v);
      return el("div", {}, b, " ", el("span", {text: label}));
    };
    const figures = el("div", {class: "waves-figures"},
      fig(String(o.waves), o.waves === 1 ? "wave" : "waves", "waves.waves", o.waves),
      fig(percent(r.occupancy), "peak occupancy"),
      Object.assign(fig(percent(avg), "average over the waves"), {id: "waves-average"}),
      fig(percent(o.last_wave_utilization), "of the last wave filled", "waves.last_wave_utilization", o.last_wave_utilization));
    const verdict = el("p", {text: cap(o.verdict || "")});
    set(verdict, "waves.verdict", o.verdict);
    const chart = svgEl("svg", {class: "chart", "data-chart": "waves", role: "img",
      "aria-label": o.waves + " waves: " + o.full_waves + " full at " + percent(r.occupancy) + ", the last " +
                    percent(o.last_wave_utilization) + " full; average " + percent(avg)});
    const dl = el("dl", {class: "fields"});
    for (const [k, v] of Object.entries(o)) {
      if (k === "verdict" || k === "command" || v === null) continue;
      const dd = el("dd", {text: text(v)});
      set(dd, "waves." + k, v);
      dl.append(el("dt", {text: k}), dd);
    }
    const more = el("details", {}, el("summary", {text: "Every field, as gpuocc waves --json gives it"}), dl);
    box.replaceChildren(figures, chart, verdict, more);
    wavesShown = {chart, o, r, avg};
    drawWaves();
  }

  /* one column per wave (the full waves merged into one band past 48), its height the machine's occupancy in
     that wave; the average dashed */
  function drawWaves() {
    if (!wavesShown || !wavesShown.chart.isConnected) return;
    const {chart, o, r, avg} = wavesShown, W = Math.max(200, widthOf($("#waves"))), H = 96;
    const L = 46, R = 8, T = 8, B = 20, pw = W - L - R, ph = H - T - B;
    const y = (f) => T + ph * (1 - f);
    chart.setAttribute("viewBox", "0 0 " + W + " " + H);
    chart.setAttribute("height", H);
    const kids = [svgEl("rect", {class: "frame", x: L, y: T, width: pw, height: ph})];
    for (const f of [0, 0.5, 1]) {
      kids.push(svgEl("line", {class: "grid", x1: L, x2: L + pw, y1: y(f), y2: y(f)}));
      kids.push(svgEl("text", {x: L - 6, y: y(f) + 4, "text-anchor": "end"}, f * 100 + " %"));
    }
    const merged = o.waves > 48, n = merged ? 2 : o.waves, slot = pw / n;
    for (let i = 0; i < n; i++) {
      const last = i === n - 1 && o.last_wave_blocks > 0 && o.last_wave_blocks < o.blocks_per_wave;
      const f = r.occupancy * (last ? o.last_wave_utilization : 1);
      const x0 = L + slot * i + Math.min(2, slot * 0.1), wd = slot - 2 * Math.min(2, slot * 0.1);
      kids.push(svgEl("rect", {class: "wave" + (last ? " last" : ""), x: x0, y: y(f), width: Math.max(1, wd), height: y(0) - y(f)}));
    }
    const label = (x, s, anchor) => svgEl("text", {x, y: H - 5, "text-anchor": anchor}, s);
    if (merged) kids.push(label(L + slot / 2, "waves 1-" + o.full_waves, "middle"), label(L + slot * 1.5, "wave " + o.waves, "middle"));
    else kids.push(label(L, "wave 1", "start"), ...(o.waves > 1 ? [label(L + pw, "wave " + o.waves, "end")] : []));
    kids.push(svgEl("line", {class: "avg", x1: L, x2: L + pw, y1: y(avg), y2: y(avg)}));
    chart.replaceChildren(...kids);
  }

  function update() {
    const t0 = performance.now();
    /* the grid is the report's, as on the command line (`--grid-blocks`: N or XxYxZ, refused as the CLI
       refuses it); the waves are `gpuocc waves` on the count the report gives */
    const p = params();
    relabel(vendor());
    if (firstAnswer) link();
    else linkSoon();
    const a = gpuocc._report(p); /* report()'s fast way, with the CLI's stderr line (the notes) */
    if (a.status > 1) {
      $("#error").hidden = false;
      $("#error").textContent = [linkNote, a.err.trim()].filter((s) => s).join("\n");
      $("#report").hidden = true;
    } else {
      const r = a.value;
      renderReport(r, a.err.trim(), a.exceeded || "", a.notes || "");
      renderWaves(r);
      if (firstAnswer) {
        firstAnswer = false;
        /* since the page's navigation began (performance.now()'s origin): the wait a person sees */
        document.body.dataset.firstAnswerMs = String(Math.round(performance.now()));
      }
    }
    /* the curves in the same task, before the next frame is drawn (docs/web.md, "Size and speed") */
    const launch = Object.fromEntries(Object.entries(p).filter(([k]) => !NOT_SWEEP.has(k)));
    drawCurves(launch, a.status <= 1 ? a.value : null);
    document.body.dataset.lastUpdateMs = (performance.now() - t0).toFixed(2);
  }

  /* ---- the curves: `gpuocc sweep --steps` rows (the values where the answer changes), drawn here for the
     width they are shown at ---- */
  const AXES = {nvidia: ["threads", "regs", "smem", "barriers"], amd: ["threads", "regs", "smem"],
                intel: ["threads", "smem", "barriers", "sub_group", "grf"]};
  const AXIS_KEY = {threads: "threads", regs: "regs", smem: "smem_dynamic", barriers: "barriers", sub_group: "sub_group", grf: "grf"};
  const AXIS_INPUT = {threads: "threads", regs: "regs", smem: "smem_dynamic", barriers: "barriers"};
  const DISCRETE = new Set(["sub_group", "grf"]); /* a few values each: one column per value */
  let curvesKey = "", curves = []; /* [{axis, rows, lo, hi, figure, svg, caption}] */
  const panels = new Map(); /* axis -> {figure, svg, caption} kept from draw to draw */

  /* each axis up to the device's own bound (its catalog entry: threads per block, registers per thread,
     shared memory per SM, 16 barriers): the sweep answers 0 past what a launch may ask */
  function axisTo(axis, d) {
    return {threads: d.max_threads_per_block, regs: d.regs_per_thread_max, smem: d.smem_per_sm, barriers: 16}[axis];
  }

  function drawCurves(p, r) {
    const box = $("#curves"), v = r ? r.vendor : vendor(), d = deviceOf.get(archSelect.value) || {};
    const key = r ? JSON.stringify([p, v]) : "";
    if (key !== curvesKey) {
      curvesKey = key;
      curves = [];
      for (const axis of r ? AXES[v] : []) {
        let rows;
        const to = axisTo(axis, d);
        const extra = DISCRETE.has(axis) ? {} : to ? {steps: 1, to} : {steps: 1};
        try { rows = gpuocc.sweep({...p, ...extra}, axis); } catch (e) { continue; }
        if (!rows.length) continue;
        const x = AXIS_KEY[axis], lo = rows[0][x], hi = DISCRETE.has(axis) || !to ? rows[rows.length - 1][x] : to;
        let c = panels.get(axis);
        if (!c) {
          c = {caption: el("figcaption"), svg: svgEl("svg", {class: "chart", role: "img", "data-axis": axis})};
          c.figure = el("figure", {class: "curve"}, c.caption, c.svg);
          panels.set(axis, c);
        }
        curves.push({axis, rows, lo, hi, x, ...c});
      }
    }
    const figures = curves.map((c) => c.figure);
    if (figures.length !== box.children.length || figures.some((f, i) => box.children[i] !== f)) box.replaceChildren(...figures);
    /* no curves (a refused launch): no title or key of them either */
    $("#curves-section").hidden = !figures.length;
    if (r) drawCurveSet(r);
    document.body.dataset.curvesDrawn = String(box.children.length);
  }

  let curvesR = null;
  function drawCurveSet(r) {
    curvesR = r;
    const w = words(r.vendor, r), seen = new Set();
    let tie = false;
    for (const c of curves) {
      for (const row of c.rows) {
        row.limiters.forEach((k) => seen.add(k));
        tie = tie || row.limiters.length > 1;
      }
      drawCurve(c, r, w);
    }
    $("#curves-title").textContent = "Occupancy (% of " + w.slot + " per " + w.unit + ") as each input changes";
    $("#curves-key").replaceChildren(
      ...[...seen].map((k) => el("span", {}, el("i", {class: "line c-" + k}), "limited by " + (w.res[k] || k))),
      ...(tie ? [el("span", {}, el("i", {class: "dash"}), "dashes: a tie")] : []),
      el("span", {}, "\u25cb this launch"));
  }

  /* x ticks: a power of two of the axis' display unit (KiB for shared memory), as many as fit */
  function ticks(lo, hi, scale, most) {
    let step = 1;
    while ((hi - lo) / scale / step > most) step *= 2;
    const out = [];
    for (let t = Math.ceil(lo / scale / step) * step; t * scale <= hi; t += step) out.push(t);
    return out;
  }

  function drawCurve(c, r, w) {
    const {svg, rows, lo, hi, axis, x: key} = c;
    const W = Math.max(220, widthOf(c.figure) || 320), H = 170, L = 46, R = 18, T = 8, B = 22;
    const pw = W - L - R, ph = H - T - B, y = (o) => T + ph * (1 - o / 1.04);
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("height", H);
    const kids = [];
    for (const o of [0, 0.25, 0.5, 0.75, 1]) {
      kids.push(svgEl("line", {class: "grid", x1: L, x2: L + pw, y1: y(o), y2: y(o)}));
      if (o !== 0.25 && o !== 0.75) kids.push(svgEl("text", {x: L - 6, y: y(o) + 4, "text-anchor": "end"}, o * 100 + " %"));
    }
    kids.push(svgEl("rect", {class: "frame", x: L, y: T, width: pw, height: ph}));
    const now = axis === "regs" || axis === "threads" || axis === "barriers" || axis === "sub_group" || axis === "grf"
      ? r[key] : r.smem_dynamic;
    const name = (axis === "sub_group" ? "sub-group size" : axis === "grf" ? "GRF per hardware thread"
      : w.input[AXIS_INPUT[axis]]) + (axis === "smem" ? " (KiB)" : "");
    let marked = false;
    if (DISCRETE.has(axis)) {
      const slot = pw / rows.length, cw = Math.min(slot * 0.55, 56);
      rows.forEach((row, i) => {
        const cx = L + slot * (i + 0.5), isNow = row[key] === now, lim = row.limiters[0] || "warps";
        kids.push(svgEl("rect", {class: "col c-" + lim + (isNow ? " now-col" : ""), x: cx - cw / 2, y: y(row.occupancy),
                                 width: cw, height: y(0) - y(row.occupancy), "data-from": row[key], "data-occupancy": row.occupancy}));
        kids.push(svgEl("text", {x: cx, y: H - 6, "text-anchor": "middle"}, String(row[key])));
        if (isNow) {
          kids.push(svgEl("circle", {class: "now", cx, cy: y(r.occupancy), r: 4.5, "data-x": now, "data-occupancy": r.occupancy}));
          marked = true;
        }
      });
    } else {
      const span = hi + 1 - lo, px = (v) => L + (v - lo) / span * pw, scale = axis === "smem" ? 1024 : 1;
      for (const t of ticks(lo, hi, scale, Math.max(2, Math.floor(pw / 52)))) {
        const tx = px(t * scale + 0.5);
        kids.push(svgEl("line", {class: "grid", x1: tx, x2: tx, y1: T + ph, y2: T + ph + 4}));
        kids.push(svgEl("text", {x: tx, y: H - 6, "text-anchor": "middle"}, String(t)));
      }
      rows.forEach((row, i) => {
        /* a run narrower than 3 px (a single value: 0 bytes of dynamic LDS) is drawn 3 px wide, so it is seen */
        const x0 = px(row[key]), x1 = Math.max(x0 + 3, px(i + 1 < rows.length ? rows[i + 1][key] : hi + 1)), yy = y(row.occupancy);
        if (i > 0) kids.push(svgEl("line", {class: "riser", x1: x0, x2: x0, y1: y(rows[i - 1].occupancy), y2: yy}));
        const lim = row.limiters.length ? row.limiters : ["warps"];
        /* each run carries the sweep row it draws: where it starts, its occupancy */
        kids.push(svgEl("line", {class: "run c-" + lim[0], x1: x0, x2: x1, y1: yy, y2: yy, "data-from": row[key],
                                 "data-occupancy": row.occupancy}));
        if (lim.length > 1) kids.push(svgEl("line", {class: "tie c-" + lim[1], x1: x0, x2: x1, y1: yy, y2: yy}));
      });
      if (now >= lo && now <= hi) {
        const cx = px(now + 0.5);
        kids.push(svgEl("line", {class: "now-line", x1: cx, x2: cx, y1: T, y2: T + ph}));
        kids.push(svgEl("circle", {class: "now", cx, cy: y(r.occupancy), r: 4.5, "data-x": now, "data-occupancy": r.occupancy}));
        marked = true;
      }
    }
    svg.replaceChildren(...kids);
    const nowText = axis === "smem" ? bytes(now) : String(now);
    svg.setAttribute("aria-label", "Occupancy against " + name + (marked ? "; this launch at " + nowText + ": " + percent(r.occupancy) : ""));
    /* the axis is the dynamic part: the static part stays as given */
    const kept = axis === "smem" && r.smem_static ? " (static " + bytes(r.smem_static) + " kept)" : "";
    c.caption.replaceChildren(el("b", {text: cap(name)}),
      el("span", {text: (marked ? "this launch: " + nowText + " \u2192 " + percent(r.occupancy) : "this launch is off the axis") + kept}));
  }

  /* The widths the pictures are drawn at, as a ResizeObserver last saw them: reading an element's width after the
     page has been changed makes the browser lay it out there and then, once per curve on every edit; the observer
     hands them over after layout.  An element not yet seen is measured once.  A new width redraws the pictures
     from the rows kept (no new sweep). */
  const widths = new WeakMap();
  const sizes = new ResizeObserver((entries) => {
    let changed = false;
    for (const e of entries) {
      const width = Math.round(e.contentRect.width);
      if (widths.get(e.target) !== width) changed = widths.has(e.target) || changed;
      widths.set(e.target, width);
    }
    if (changed) {
      if (curvesR) drawCurveSet(curvesR);
      drawWaves();
    }
  });
  function widthOf(e) {
    if (!widths.has(e)) {
      widths.set(e, e.clientWidth);
      sizes.observe(e);
    }
    return widths.get(e);
  }

  /* ---- binaries ---- */
  const COLUMNS = ["short_name", "arch", "registers", "smem", "stack", "threads", "blocks_per_sm", "warps_per_sm",
                   "occupancy", "limiters", "status"];
  const HEADS = {
    nvidia: {registers: "Registers per thread", smem: "Static shared memory (B)", threads: "Threads per block",
             blocks_per_sm: "Blocks per SM", warps_per_sm: "Warps per SM"},
    amd: {registers: "VGPRs per lane", smem: "LDS (B)", threads: "Threads per workgroup",
          blocks_per_sm: "Workgroups per CU or WGP", warps_per_sm: "Waves per CU or WGP"},
    intel: {smem: "SLM (B)", threads: "Work-items per work-group",
            blocks_per_sm: "Work-groups per Xe-core", warps_per_sm: "Hardware threads per Xe-core"},
  };
  const HEAD = {short_name: "Kernel", arch: "Arch", grf: "GRF", stack: "Stack (B)", occupancy: "Occupancy", limiters: "Limited by", status: "Status",
                virtual_resources: "Virtual resources", tmem_cta_group: "tcgen05 CTA group", setmaxnreg_check: "setmaxnreg",
                launch_threads: "Launch threads", tmem_columns: "Tensor-memory columns", metadata: "Metadata"};
  /* the binary's own flags (docs/output.md, binary): a column only when some kernel has one (not null, not 0) */
  const OPTIONAL = ["virtual_resources", "tmem_cta_group", "setmaxnreg_check", "launch_threads", "tmem_columns", "metadata"];
  let records = [], sortKey = null, sortDown = false;

  function renderKernels() {
    const table = $("#kernels");
    /* the headers are made again: a sort button that had the focus gets it back (a keyboard sorts again) */
    const had = document.activeElement, focusKey = had && had.closest("#kernels thead") ? had.dataset.key : null;
    table.hidden = !records.length;
    const vendors = new Set(records.map((r) => r.vendor)), v = vendors.size === 1 ? [...vendors][0] : null;
    const head = el("tr"), extra = OPTIONAL.filter((k) => records.some((r) => r[k] !== null && r[k] !== undefined && r[k] !== 0));
    /* an Intel kernel's registers are its GRF per hardware thread (`grf`; its `registers` is null) */
    const regs = [...(records.some((r) => r.vendor !== "intel") ? ["registers"] : []),
                  ...(records.some((r) => r.vendor === "intel") ? ["grf"] : [])];
    const columns = [...COLUMNS.slice(0, -1).flatMap((k) => k === "registers" ? regs : [k]), ...extra,
                     COLUMNS[COLUMNS.length - 1]];
    for (const k of columns) {
      const b = el("button", {type: "button", "data-key": k, text: HEAD[k] || (v && HEADS[v] ? HEADS[v][k] : k.replace(/_/g, " "))});
      b.addEventListener("click", () => { sortDown = sortKey === k ? !sortDown : false; sortKey = k; renderKernels(); });
      const th = el("th", {"aria-sort": sortKey === k ? (sortDown ? "descending" : "ascending") : "none"}, b);
      head.append(th);
    }
    $("thead", table).replaceChildren(head);
    if (focusKey) { const b = $$("button", head).find((e) => e.dataset.key === focusKey); if (b) b.focus(); }
    const rows = records.slice();
    if (sortKey) {
      rows.sort((x, y) => {
        const a = x[sortKey], b = y[sortKey];
        const c = typeof a === "number" && typeof b === "number" ? a - b : text(a).localeCompare(text(b));
        return sortDown ? -c : c;
      });
    }
    $("tbody", table).replaceChildren(...rows.map((r) => {
      const tr = el("tr");
      tr.dataset.kernel = r.name;
      for (const k of columns) {
        const td = el("td");
        set(td, k, r[k]);
        td.textContent = k === "occupancy" && typeof r[k] === "number" ? percent(r[k])
          : k === "limiters" && Array.isArray(r[k]) && WORDS[r.vendor] ? limiterWords(WORDS[r.vendor], r[k]) : text(r[k]);
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
      deviceOf.set(d.name, d);
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
        if (probe.status === 0) deviceOf.set(name, JSON.parse(probe.out)[0]);
      }
      archSelect.value = known ? known.name : name;
    }
    const v = vendor();
    show(v);
    if ([...q.keys()].some((k) => k !== "arch")) /* a link gives the whole launch: the form's defaults go */
      for (const e of form.elements) if (e.name && e.name !== "arch") e.type === "checkbox" ? (e.checked = e.name === "smem_optin") : (e.value = "");
    const unread = [];
    for (const [given, value] of q) {
      if (given === "arch") continue;
      const alias = ALIASES[given], k = alias && alias[0] === v ? alias[1] : given;
      const e = alias && alias[0] !== v ? null : form.elements.namedItem(k);
      /* an input this device's vendor does not have (Intel's registers, AMD's carveout) is not read either */
      if (!e || !e.name || e.closest("[hidden]")) { unread.push(given); continue; }
      const on = !["0", "false", "no", ""].includes(value.toLowerCase());
      if (given === "no_trap_handler") { /* a switch: the select's off, or its default */
        e.value = on ? "-1" : "";
        continue;
      }
      if (given === "no_optin") { /* a switch: the opt-in's box cleared */
        e.checked = !on;
        continue;
      }
      if (e.type === "checkbox") e.checked = on;
      else {
        if (e.tagName === "SELECT" && ![...e.options].some((o) => o.value === value)) e.append(new Option(value, value));
        e.value = value;
      }
    }
    if (unread.length) linkNote = "Not read from the link: " + unread.join(", ") + " (no input of that name for this device)";
    if (v === "intel") form.elements.regs.value = "";
    /* the link's note stays until the first edit */
    /* a person's choice in a list fires input, then change; a script's (or a driver's) may fire change alone */
    let answered = null;
    form.addEventListener("input", (e) => { linkNote = ""; answered = e.target; if (e.target === archSelect) show(vendor()); update(); });
    form.addEventListener("change", (e) => {
      if (e.target === archSelect) { show(vendor()); update(); }
      else if (e.target.tagName === "SELECT" && answered !== e.target) { linkNote = ""; update(); }
      answered = null;
    });
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
