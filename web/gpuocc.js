/* gpuocc in the page: the WebAssembly module (web/module.c: the CLI's commands, their output captured) with
   the few WASI calls it makes, and the automation contract window.gpuocc (docs/web.md).  The page asks the
   module exactly what a terminal asks `gpuocc`: report() is `gpuocc report --json` with the same flags, so
   its object is the CLI's, key for key.  A binary is read in a Worker (started from a Blob: file:// pages
   may start no other), so a large library never freezes the page. */
"use strict";

/* One instance of the module and a run() that executes `gpuocc ARGS...`; `files` (name -> Uint8Array) are
   what the command may open, `onRead(done, total)` hears of each read of one.  Used in the page and in the
   worker, whose source is built from this function's own text: it names nothing outside itself. */
function gpuoccRuntime(module) {
  const EBADF = 8, EINVAL = 28, ENOENT = 44, ESPIPE = 70;
  const enc = new TextEncoder(), dec = new TextDecoder();
  let inst = null, files = new Map(), opened = new Map(), nextFd = 4, onRead = null;
  /* views of the module's memory, made again only when it has grown (its buffer is then a new one) */
  let buffer = null, bytes = null, view = null, f64 = null, u32 = null;
  const fresh = () => {
    if (buffer !== inst.exports.memory.buffer) {
      buffer = inst.exports.memory.buffer;
      bytes = new Uint8Array(buffer);
      view = new DataView(buffer);
      f64 = new Float64Array(buffer);
      u32 = new Uint32Array(buffer);
    }
  };
  const u8 = () => (fresh(), bytes);
  const dv = () => (fresh(), view);
  const str = (p, n) => dec.decode(u8().subarray(p, p + n));
  /* a file is a Uint8Array, or (in the worker) a Blob read where the module reads it, synchronously
     (FileReaderSync), at most 16 MiB a read: no copy of the whole file beside the module's */
  const sizeOf = (d) => d instanceof Uint8Array ? d.length : d.size;
  const CHUNK = 1 << 24;
  const part = (d, from, to) => d instanceof Uint8Array ? d.subarray(from, to)
    : new Uint8Array(new FileReaderSync().readAsArrayBuffer(d.slice(from, Math.min(to, from + CHUNK))));
  const wasi = {
    proc_exit(code) { throw new Error("gpuocc: the module exited (" + code + ")"); },
    /* no environment: getenv() finds nothing (the CLI's test-only settings stay off in the page) */
    environ_sizes_get(count, size) { dv().setUint32(count, 0, true); dv().setUint32(size, 0, true); return 0; },
    environ_get() { return 0; },
    /* every clock is the page's monotonic one, in nanoseconds (binary's progress timing) */
    clock_time_get(id, precision, at) {
      dv().setBigUint64(at, BigInt(Math.round(performance.now() * 1e6)), true);
      return 0;
    },
    fd_close(fd) { opened.delete(fd); return 0; },
    fd_fdstat_set_flags() { return 0; },
    fd_fdstat_get(fd, at) {
      if (fd > 2 && fd !== 3 && !opened.has(fd)) return EBADF;
      const v = dv();
      v.setUint8(at, fd <= 2 ? 2 : fd === 3 ? 3 : 4); /* character device, directory, regular file */
      v.setUint16(at + 2, 0, true);
      v.setBigUint64(at + 8, 0xffffffffffffffffn, true);
      v.setBigUint64(at + 16, 0xffffffffffffffffn, true);
      return 0;
    },
    fd_filestat_get(fd, at) {
      const f = opened.get(fd);
      if (!f && fd !== 3 && fd > 2) return EBADF;
      const v = dv();
      for (let i = 0; i < 64; i += 8) v.setBigUint64(at + i, 0n, true);
      v.setUint8(at + 16, f ? 4 : fd === 3 ? 3 : 2);
      v.setBigUint64(at + 24, 1n, true);
      v.setBigUint64(at + 32, BigInt(f ? sizeOf(f.data) : 0), true);
      return 0;
    },
    fd_prestat_get(fd, at) { /* one preopened folder, "/", holding the files */
      if (fd !== 3) return EBADF;
      dv().setUint8(at, 0);
      dv().setUint32(at + 4, 1, true);
      return 0;
    },
    fd_prestat_dir_name(fd, at, n) {
      if (fd !== 3 || n < 1) return EBADF;
      u8()[at] = 47; /* "/" */
      return 0;
    },
    path_open(dirfd, dirflags, path, len, oflags, rightsBase, rightsInh, fdflags, fdOut) {
      if (dirfd !== 3) return EBADF;
      const data = files.get(str(path, len).replace(/^\/+/, ""));
      if (!data) return ENOENT;
      if (oflags & 1) return EINVAL; /* creating: nothing here is written */
      const fd = nextFd++;
      opened.set(fd, {data, pos: 0});
      dv().setUint32(fdOut, fd, true);
      return 0;
    },
    fd_read(fd, iovs, count, nread) {
      const f = opened.get(fd);
      if (!f) return fd === 0 ? (dv().setUint32(nread, 0, true), 0) : EBADF;
      let total = 0;
      for (let i = 0; i < count; i++) {
        const v = dv(), p = v.getUint32(iovs + 8 * i, true), n = v.getUint32(iovs + 8 * i + 4, true);
        const got = part(f.data, f.pos, f.pos + n);
        u8().set(got, p);
        f.pos += got.length;
        total += got.length;
        if (got.length < n) break; /* a short read: the module's stdio reads again */
      }
      dv().setUint32(nread, total, true);
      if (onRead) onRead(f.pos, sizeOf(f.data));
      return 0;
    },
    fd_seek(fd, offset, whence, out) {
      const f = opened.get(fd);
      if (!f) return fd <= 2 ? ESPIPE : EBADF;
      const base = whence === 0 ? 0 : whence === 1 ? f.pos : sizeOf(f.data);
      const to = base + Number(offset);
      if (to < 0) return EINVAL;
      f.pos = to;
      dv().setBigUint64(out, BigInt(to), true);
      return 0;
    },
    fd_write(fd, iovs, count, nwritten) { /* the commands write to memory streams; stray bytes are counted */
      let total = 0;
      for (let i = 0; i < count; i++) total += dv().getUint32(iovs + 8 * i + 4, true);
      dv().setUint32(nwritten, total, true);
      return fd === 1 || fd === 2 ? 0 : EBADF;
    },
  };
  function run(args, options) {
    const x = inst.exports, o = options || {};
    files = o.files || new Map();
    onRead = o.onRead || null;
    opened = new Map();
    nextFd = 4;
    /* the argument strings, NUL-terminated, written straight into one allocation; their pointers after */
    const all = ["gpuocc", ...args].map(String);
    const size = all.reduce((n, a) => n + 3 * a.length + 1, 0);
    const strings = x.gpuocc_web_alloc(size + 3 + 4 * all.length);
    const argv = (strings + size + 3) & ~3;
    const input = o.input || new Uint8Array(0), inPtr = x.gpuocc_web_alloc(input.length);
    let at = strings;
    for (let i = 0; i < all.length; i++) {
      const got = enc.encodeInto(all[i], u8().subarray(at, strings + size));
      u8()[at + got.written] = 0;
      dv().setUint32(argv + 4 * i, at, true);
      at += got.written + 1;
    }
    u8().set(input, inPtr);
    const answer = x.gpuocc_web_run(all.length, argv, inPtr, input.length);
    x.gpuocc_web_free(strings);
    x.gpuocc_web_free(inPtr);
    files = new Map();
    opened = new Map();
    if (!answer) throw new Error("gpuocc: out of memory");
    const v = dv();
    const r = {status: v.getInt32(answer, true), out: str(v.getUint32(answer + 4, true), v.getUint32(answer + 8, true)),
               err: str(v.getUint32(answer + 12, true), v.getUint32(answer + 16, true))};
    x.gpuocc_web_free_answer(answer);
    return r;
  }
  /* `gpuocc report ARGS...` through the module's own entry (web/module.c, gpuocc_web_report): the same
     command's code without its streams, the arguments written into one allocation kept between calls.  The
     object comes as a tape of JSON events (module.c says how), turned into the object here by code that
     knows no field: keys are the module's literals, decoded once each.  {status, value, err}; null when the
     module cannot answer so (--help, memory), and the caller runs the whole command. */
  let context = 0, arena = 0, arenaSize = 0;
  const keys = new Map();
  const text = (p, n) => { /* short ASCII without a TextDecoder call */
    if (n > 24) return str(p, n);
    const b = bytes;
    let s = "";
    for (let i = 0; i < n; i++) {
      const c = b[p + i];
      if (c > 127) return str(p, n);
      s += String.fromCharCode(c);
    }
    return s;
  };
  /* The outer object's keys as last seen, and a private object of those keys (the values of the first
     object with them, so that its fields' kinds are a report's) made by Object.fromEntries: V8 keeps that one
     in fast mode, and a copy of it ({...shape.blank}) too, where an
     object given 70 keys one by one becomes a dictionary (three times slower to build, slower to read).  The
     copy is used only when the keys come the same, in the same order; else the object is made again. */
  let shape = {keys: [], addrs: [], values: [], blank: {}};
  const keyAt = (p) => { /* a key's text from its address, read once */
    let key = keys.get(p);
    if (key === undefined) {
      const b = u8();
      let e = p;
      while (b[e] !== 0) e++;
      keys.set(p, key = str(p, e - p));
    }
    return key;
  };
  function values(tape, n, strings) {
    const t = f64, stack = [], addrs = shape.addrs, names = shape.keys;
    let i = tape >> 3, end = i + n, cur = null, array = null, key = null, root = null, v;
    /* the outer object's keys: while they come as the shape's, by position (no look-up); else listed */
    let at = 0, same = true, keysNow = null, addrsNow = null, slot = -1;
    const blankValues = shape.values;
    while (i < end) {
      const tag = t[i++];
      if (tag >= 16) { /* a key: 16 + its address */
        const p = tag - 16;
        slot = -1;
        if (cur !== root || cur === null) key = keyAt(p);
        else if (same && addrs[at] === p) key = names[slot = at++];
        else {
          if (same) { same = false; keysNow = names.slice(0, at); addrsNow = addrs.slice(0, at); }
          key = keyAt(p);
          keysNow.push(key);
          addrsNow.push(p);
        }
        continue;
      }
      if (tag === 2 || tag === 4) {
        cur = stack.pop();
        array = stack.pop();
        continue;
      }
      if (tag === 9) v = t[i++];
      else if (tag === 6) v = null;
      else if (tag === 10) { v = text(strings + t[i], t[i + 1]); i += 2; }
      else if (tag === 11) v = keyAt(t[i++]);
      else if (tag === 7) v = true;
      else if (tag === 8) v = false;
      else if (tag === 1) v = root === null ? {...shape.blank} : {};
      else if (tag === 3) v = [];
      else throw new Error("gpuocc: a bad value tape");
      if (array !== null) array.push(v);
      else if (slot >= 0) { /* an outer field in the shape's place: set only when not the blank's value */
        const b = blankValues[slot];
        if (v !== b || (v === 0 && 1 / v !== 1 / b)) cur[key] = v;
      } else if (cur !== null) cur[key] = v;
      else root = v;
      if (tag === 1 || tag === 3) {
        stack.push(array, cur);
        if (tag === 1) { cur = v; array = null; } else { array = v; cur = null; }
      }
    }
    if (root !== null && !Array.isArray(root) && !(same && at === addrs.length)) {
      /* another set of keys: the object in its own keys' order, and the shape for the next */
      if (same) { keysNow = names.slice(0, at); addrsNow = addrs.slice(0, at); }
      root = Object.fromEntries(keysNow.map((k) => [k, root[k]]));
      shape = {keys: keysNow, addrs: addrsNow, values: keysNow.map((k) => root[k]),
               blank: Object.fromEntries(keysNow.map((k) => [k, root[k]]))};
    }
    return root;
  }
  function report(args) {
    const x = inst.exports;
    if (!context && !(context = x.gpuocc_web_report_context())) return null;
    let size = 8 + 4 * (args.length + 1);
    for (let i = 0; i < args.length; i++) size += 3 * args[i].length + 1;
    if (size > arenaSize) {
      if (arena) x.gpuocc_web_free(arena);
      arenaSize = Math.max(1024, 2 * size);
      arena = x.gpuocc_web_alloc(arenaSize);
    }
    /* wasm is little-endian, as every browser's typed arrays are where a page runs (x86, ARM) */
    const b = u8(), w32 = u32, argv = arena >> 2, strings = arena + 4 * (args.length + 1);
    let at = strings;
    b.set(REPORT, at);
    w32[argv] = at;
    at += REPORT.length;
    for (let i = 0; i < args.length; i++) {
      const a = args[i], n = a.length;
      w32[argv + i + 1] = at;
      let j = 0; /* ASCII byte by byte (a TextEncoder call costs more than a short argument), the rest encoded */
      for (; j < n; j++) {
        const c = a.charCodeAt(j);
        if (c > 127) break;
        b[at + j] = c;
      }
      if (j < n) j += enc.encodeInto(a.slice(j), b.subarray(at + j, arena + arenaSize)).written;
      b[at + j] = 0;
      at += j + 1;
    }
    return answerOf(x.gpuocc_web_report(context, args.length + 1, arena));
  }
  function answerOf(answer) {
    if (!answer) return null;
    fresh();
    const w = u32, at4 = answer >> 2, status = w[at4] | 0, errLen = w[at4 + 4];
    const value = status <= 1 ? values(w[at4 + 1], w[at4 + 2], w[at4 + 5]) : null;
    /* the input over a limit as the text report's `exceeded` line says it (the module's cli_exceeded), and
       the text report's notes (cli_report_notes: its `note` lines) */
    const cString = (p) => {
      if (!p) return "";
      const b = u8();
      let e = p;
      while (b[e] !== 0) e++;
      return str(p, e - p);
    };
    return {status, value, err: errLen ? str(w[at4 + 3], errLen) : "", exceeded: cString(w[at4 + 7]),
            notes: cString(w[at4 + 8])};
  }
  /* The same through the module's numeric entry (gpuocc_web_report_values): no argument text.  The module
     says once which flags it takes by number (its report command's, in order: gpuocc_web_report_fields);
     `each(params, put)` calls put(flag, value) for each flag the params make (value undefined for a
     switch), and each one becomes a pair of numbers in one allocation kept between calls: its field's
     number and the value where it is an integer, else -1 - the number and the address of the value's text.
     null when a flag is none of the module's, or comes with a value where it takes none (or none where it
     takes one): the caller then sends the text, and the command's parser says what is wrong, as it does. */
  const PAIRS = 128, VALUES_SIZE = 8 * 2 * PAIRS + 4096;
  let fields = null, valuesArena = 0, pairs = 0, count = 0, textAt = 0, fits = true;
  const put = (flag, v) => {
    const f = fields.get(flag);
    if (f === undefined || f.sw !== (v === undefined) || count === PAIRS) { fits = false; return; }
    const at = pairs + 2 * count++;
    if (v === undefined || (typeof v === "number" && Number.isSafeInteger(v))) {
      f64[at] = f.n;
      f64[at + 1] = v === undefined ? 0 : v;
      return;
    }
    const s = typeof v === "string" ? v : String(v), b = bytes, end = valuesArena + VALUES_SIZE, n = s.length;
    if (textAt + n + 1 > end) { fits = false; return; }
    let j = 0;
    for (; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c > 127) break;
      b[textAt + j] = c;
    }
    if (j < n) {
      const got = enc.encodeInto(s.slice(j), b.subarray(textAt + j, end - 1));
      if (got.read < n - j) { fits = false; return; }
      j += got.written;
    }
    b[textAt + j] = 0;
    f64[at] = -1 - f.n;
    f64[at + 1] = textAt;
    textAt += j + 1;
  };
  function reportValues(params, each) {
    const x = inst.exports;
    if (!context && !(context = x.gpuocc_web_report_context())) return null;
    if (!fields) {
      const p = x.gpuocc_web_report_fields(context), b = u8();
      let e = p;
      while (b[e] !== 0) e++;
      fields = new Map(str(p, e - p).split("\n").filter((l) => l).map((l, n) =>
        l.endsWith("!") ? [l.slice(0, -1), {n, sw: true}] : [l, {n, sw: false}]));
      if (!(valuesArena = x.gpuocc_web_alloc(VALUES_SIZE))) return null;
    }
    fresh();
    pairs = valuesArena >> 3;
    textAt = valuesArena + 8 * 2 * PAIRS;
    count = 0;
    fits = true;
    each(params, put);
    if (!fits) return null;
    return answerOf(x.gpuocc_web_report_values(context, valuesArena, count));
  }
  const REPORT = enc.encode("report\0");
  return WebAssembly.instantiate(module, {wasi_snapshot_preview1: wasi}).then((i) => {
    inst = i;
    inst.exports._initialize();
    return {run, report, reportValues};
  });
}

/* The worker: binaries, read from a File (with progress) or an ArrayBuffer, answered by `gpuocc binary`. */
function gpuoccWorker() {
  let runtime = null;
  self.onmessage = async (e) => {
    const m = e.data;
    if (m.module) {
      runtime = await gpuoccRuntime(m.module);
      self.postMessage({ready: true});
      return;
    }
    try {
      let data;
      if (m.blob && typeof FileReaderSync !== "undefined") data = m.blob; /* read where the module reads it */
      else if (m.blob) { /* stream the file in, saying how much has arrived */
        data = new Uint8Array(m.blob.size);
        const reader = m.blob.stream().getReader();
        let pos = 0, last = 0;
        for (;;) {
          const {done, value} = await reader.read();
          if (done) break;
          data.set(value, pos);
          pos += value.length;
          if (pos - last > (1 << 22) || pos === data.length) {
            last = pos;
            self.postMessage({id: m.id, progress: {stage: "load", done: pos, total: data.length}});
          }
        }
      } else data = new Uint8Array(m.buffer);
      let lastRead = 0;
      const r = runtime.run(m.args, {files: new Map([[m.name, data]]), onRead(done, total) {
        if (done - lastRead > (1 << 22) || done === total) {
          lastRead = done;
          self.postMessage({id: m.id, progress: {stage: "read", done, total}});
        }
      }});
      self.postMessage({id: m.id, answer: r});
    } catch (err) {
      self.postMessage({id: m.id, failure: String(err && err.message || err)});
    }
  };
}

/* window.gpuocc: the contract (docs/web.md). */
(function () {
  const B64 = document.getElementById("gpuocc-module").textContent.trim();
  class GpuoccError extends Error {
    constructor(answer) {
      super(answer.err.trim() || "gpuocc: exit status " + answer.status);
      this.name = "GpuoccError";
      this.status = answer.status;
    }
  }
  /* a plain object of vocabulary names as the CLI's flags: threads: 256 -> --threads 256; smem_optin: 0 ->
     --no-optin; cu_mode and best_block: true -> the switch; null, undefined and "" -> left out */
  const SWITCHES = {cu_mode: "--cu-mode", best_block: "--best-block", steps: "--steps", regs_fixed: "--regs-fixed",
                    cluster_nonportable: "--cluster-nonportable", no_trap_handler: "--no-trap-handler"};
  const OFF = new Set([-1, "-1", false, "false", "off"]); /* trap_handler's off: the CLI's only flag for it */
  const FLAG = new Map(); /* key -> "--key" with '_' as '-', made once per key */
  /* put(flag, value) for each flag of the params, in their order (value undefined for a switch) */
  function eachFlag(params, put) {
    if (!params) return;
    for (const key of Object.keys(params)) {
      const value = params[key];
      if (value === null || value === undefined || value === "") continue;
      if (key === "smem_optin") {
        if (!value || value === "0" || value === "false") put("--no-optin", undefined);
      } else if (key === "trap_handler") {
        /* -1 is --no-trap-handler; 0 (the target's default) and 1 (on) are the same on every amdhsa target,
           the CLI's default, no flag; anything else goes as text, for the CLI to refuse */
        if (OFF.has(value)) put("--no-trap-handler", undefined);
        else if (![0, 1, "0", "1", true, "true", "on"].includes(value)) put("--trap-handler", value);
      } else if (key in SWITCHES) {
        if (value && value !== "0" && value !== "false") put(SWITCHES[key], undefined);
      } else {
        let flag = FLAG.get(key);
        if (flag === undefined) FLAG.set(key, flag = "--" + key.replace(/_/g, "-"));
        put(flag, value);
      }
    }
  }
  /* A NUL ends a C string: the module would read "256\0abc" as 256 and "H100\0zz" as H100.  An argument
     holding one is refused as the CLI refuses a bad flag (exit status 2, one stderr line naming the field),
     its invisible characters written \xNN there. */
  const escaped = (s) => s.replace(/[\x00-\x1f\x7f]/g, (c) => "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0"));
  const nulAnswer = (field, text) => ({status: 2, out: "", value: null,
    err: "gpuocc: " + field + ": '" + escaped(text) + "' holds a NUL character, which no argument can carry\n"});
  /* the refusal of params whose key or value holds a NUL (the key names the field), else null */
  function paramsRefusal(params) {
    if (!params) return null;
    for (const key of Object.keys(params)) {
      const value = params[key];
      if (key.includes("\0")) return nulAnswer(escaped(key), key);
      if (value !== null && value !== undefined && String(value).includes("\0")) return nulAnswer(key, String(value));
    }
    return null;
  }
  /* the same for run()'s arguments: the field is the flag (the one before a value, or the flag of --flag=value) */
  function argsRefusal(args) {
    for (let i = 0; i < args.length; i++) {
      const a = String(args[i]);
      if (!a.includes("\0")) continue;
      const before = i > 0 ? String(args[i - 1]) : "";
      const field = a.startsWith("-") ? escaped(a.split("=")[0])
                    : before.startsWith("-") && !before.includes("=") ? escaped(before) : "argument " + (i + 1);
      return nulAnswer(field, a);
    }
    return null;
  }
  /* run()'s input as bytes: none, a Uint8Array, an ArrayBuffer or another typed array (its bytes); anything else
     (a string would become as many zero bytes) is a TypeError */
  function inputBytes(input) {
    if (input === undefined || input === null) return undefined;
    if (input instanceof Uint8Array) return input;
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    const kind = typeof input === "object" ? Object.prototype.toString.call(input).slice(8, -1) : typeof input;
    throw new TypeError("gpuocc.run: input must be bytes (a Uint8Array, an ArrayBuffer or another typed array), "
                        + "not " + kind + (typeof input === "string" ? " (new TextEncoder().encode(text) gives its bytes)" : ""));
  }
  function flags(params) {
    const bad = paramsRefusal(params);
    if (bad) throw new GpuoccError(bad);
    const out = [];
    eachFlag(params, (flag, value) => {
      out.push(flag);
      if (value !== undefined) out.push(typeof value === "string" ? value : String(value));
    });
    return out;
  }
  let runtime = null, worker = null, nextId = 1;
  const waiting = new Map();
  function bytes() {
    const s = atob(B64), b = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
    return b;
  }
  const ready = WebAssembly.compile(bytes()).then(async (module) => {
    runtime = await gpuoccRuntime(module);
    const source = "\"use strict\";\nconst gpuoccRuntime = " + gpuoccRuntime.toString() + ";\n(" +
                   gpuoccWorker.toString() + ")();\n";
    worker = new Worker(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
    const started = new Promise((resolve) => { waiting.set(0, {resolve}); });
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.ready) { waiting.get(0).resolve(); waiting.delete(0); return; }
      const w = waiting.get(m.id);
      if (!w) return;
      if (m.progress) { if (w.onProgress) w.onProgress(m.progress); return; }
      waiting.delete(m.id);
      if (m.failure) w.reject(new Error(m.failure));
      else w.resolve(m.answer);
    };
    worker.postMessage({module});
    await started;
    return api;
  });
  function need() {
    if (!runtime) throw new Error("gpuocc: not ready yet (await gpuocc.ready)");
    return runtime;
  }
  /* `gpuocc ARGS...`: {status, out, err}, as a terminal sees them */
  function run(args, input) {
    if (!Array.isArray(args)) throw new TypeError("gpuocc.run: args must be an array of arguments");
    const bytes = inputBytes(input), bad = argsRefusal(args);
    if (bad) return {status: bad.status, out: bad.out, err: bad.err};
    return need().run(args, {input: bytes});
  }
  /* report(): the module's report entry (the object as values), else the whole command and its JSON text */
  function reportAnswer(params) {
    const bad = paramsRefusal(params);
    if (bad) return {status: bad.status, value: null, err: bad.err};
    const v = need().reportValues(params, eachFlag);
    if (v) return v;
    const args = [...flags(params), "--json"];
    const a = need().report(args);
    if (a) return a;
    const b = need().run(["report", ...args]);
    return {status: b.status, value: b.status <= 1 ? JSON.parse(b.out) : null, err: b.err};
  }
  function json(args) {
    const a = need().run(args);
    if (a.status !== 0 && a.status !== 1) throw new GpuoccError(a);
    return JSON.parse(a.out);
  }
  const api = {
    ready: null,
    flags,
    run,
    Error: GpuoccError,
    /* the object `gpuocc report --json` prints (exit 1, a launch that cannot run, is an answer too) */
    report(params) {
      const a = reportAnswer(params);
      if (a.status !== 0 && a.status !== 1) throw new GpuoccError(a);
      return a.value;
    },
    /* the page's own: report()'s answer as {status, value, err} (err: the CLI's stderr), not the contract */
    _report: reportAnswer,
    /* the rows `gpuocc sweep --axis AXIS --json` prints */
    sweep(params, axis) { return json(["sweep", ...flags(params), "--axis", axis, "--json"]); },
    /* the SVG `gpuocc plot --axis AXIS` draws */
    plot(params, axis) {
      const a = need().run(["plot", ...flags(params), "--axis", axis, "--output", "-"]);
      if (a.status !== 0) throw new GpuoccError(a);
      return a.out;
    },
    /* the catalog, as `gpuocc devices --json` prints it */
    devices() { return json(["devices", "--json"]); },
    /* the records `gpuocc binary FILE --json` prints, read in the worker; `data` an ArrayBuffer, a typed
       array or a File/Blob; options.name the file's name (default: the File's, else "binary"), options
       .onProgress({stage, done, total}) */
    async binary(data, params, options) {
      await ready;
      const o = options || {};
      const name = String(o.name || (data && data.name) || "binary").replace(/^-/, "./-");
      if (name.includes("\0")) throw new GpuoccError(nulAnswer("options.name", name));
      const args = ["binary", name, ...flags(params), "--json"];
      const id = nextId++;
      const answer = await new Promise((resolve, reject) => {
        waiting.set(id, {resolve, reject, onProgress: o.onProgress});
        if (data instanceof Blob) worker.postMessage({id, args, name, blob: data});
        else {
          const view = ArrayBuffer.isView(data) ? data : new Uint8Array(data);
          const copy = view.slice(); /* the caller keeps its buffer */
          worker.postMessage({id, args, name, buffer: copy.buffer}, [copy.buffer]);
        }
      });
      if (answer.status !== 0 && answer.status !== 1) throw new GpuoccError(answer);
      const records = JSON.parse(answer.out);
      if (answer.err) records.problems = answer.err.trim().split("\n");
      return records;
    },
  };
  api.ready = ready;
  window.gpuocc = api;
})();
