#!/usr/bin/env python3
"""One rule, every interface: a seeded random differential of `gpuocc report`, `gpuocc batch`, Python's
occupancy() and Python's batch() against the C call itself (gpuocc_occupancy through ctypes, no Python
logic in between).  Random launches over every catalog device and every kernel field of the vocabulary
(docs/vocabulary.md): each vendor's own fields, now and then over a limit, and now and then another
vendor's field (NVIDIA's carveout, opt-in and opt-in maximum away from their defaults on AMD and Intel too), AMD's
ROCm release without the runtime model and waves per EU with MIN above MAX, and NVIDIA's launch bound.  The
opt-in maximum has no CLI flag or batch column: its launches are compared in Python only.  Every interface must give the C call's answer: its status (a refusal: report's exit 2,
batch's status word, Python's gpuocc.Error name), and for an answer the blocks per SM, the limiters, and
the input over a limit with its limit (exceeded, exceeded_limit) when the launch cannot run.

Usage: test_differential.py GPUOCC [SEED] [LAUNCHES_PER_DEVICE]   (GPUOCC_LIBRARY and PYTHONPATH set)"""
import ctypes
import json
import random
import subprocess
import sys

from checks import check, finish

GPUOCC = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 35
PER_DEVICE = int(sys.argv[3]) if len(sys.argv) > 3 else 6

try:
    import gpuocc
    from gpuocc._library import library, _CDevice, _CKernel, _CResult
except Exception as e:  # sanitized builds: the library cannot load into this Python
    print(f"SKIP: the library does not load into this Python ({e.__class__.__name__}: {e})")
    sys.exit(77)

VENDOR_NVIDIA, VENDOR_AMD, VENDOR_INTEL = 1, 2, 3
# the vocabulary's kernel fields: short name -> C field of gpuocc_kernel
C_FIELD = {"threads": "threads_per_block", "regs": "regs_per_thread", "smem_static": "smem_static_bytes",
           "smem_dynamic": "smem_dynamic_bytes", "barriers": "barriers", "carveout": "carveout_percent",
           "smem_optin": "smem_optin", "smem_dynamic_max": "smem_dynamic_max_bytes",
           "max_threads": "max_threads_per_block", "agprs": "agprs", "sgprs": "sgprs",
           "wave_size": "wave_size", "cu_mode": "cu_mode", "model": "model", "rocm": "rocm_version",
           "sub_group": "sub_group", "grf": "grf", "virtual_resources": "virtual_resources",
           "tmem_columns": "tmem_columns", "dvgpr": "dvgpr", "trap_handler": "trap_handler",
           "waves_per_eu_min": "waves_per_eu_min", "waves_per_eu_max": "waves_per_eu_max",
           "flat_workgroup_size_min": "flat_workgroup_size_min"}
# GPUOCC_MODEL_*: "runtime" is HIP's (2) but on an Intel device, where it is the compute runtime's (4)
MODEL_CODE = {"compiler": 1, "runtime": 2, "calculator": 3, "llvm19": 5}
# fields of one vendor (non-zero values of another vendor's are refused by every call)
NVIDIA_ONLY = ("virtual_resources", "tmem_columns", "carveout", "smem_optin", "smem_dynamic_max")
PYTHON_ONLY = ("smem_dynamic_max",)  # no CLI flag, no batch column
AMD_ONLY = ("agprs", "sgprs", "wave_size", "cu_mode", "rocm", "dvgpr", "trap_handler", "waves_per_eu_min",
            "waves_per_eu_max", "flat_workgroup_size_min")
INTEL_ONLY = ("sub_group", "grf")


def devices():
    for i in range(library.gpuocc_catalog_count()):
        name = library.gpuocc_catalog_name(i).decode()
        d = _CDevice()
        d.size = ctypes.sizeof(d)
        assert library.gpuocc_catalog_device(i, ctypes.byref(d)) == 0
        yield name, d


def foreign(rnd, vendor):
    """Another vendor's field at a value its own vendor accepts."""
    choices = {VENDOR_NVIDIA: AMD_ONLY + INTEL_ONLY, VENDOR_AMD: NVIDIA_ONLY + INTEL_ONLY,
               VENDOR_INTEL: NVIDIA_ONLY + AMD_ONLY}[vendor]
    name = rnd.choice(choices)
    value = {"virtual_resources": rnd.randint(1, 64), "tmem_columns": 32 << rnd.randint(0, 4),
             "carveout": rnd.randint(0, 100), "smem_optin": 0, "smem_dynamic_max": rnd.choice([0, 4096, 1 << 20]),
             "agprs": rnd.randint(1, 64), "sgprs": rnd.randint(1, 100), "wave_size": rnd.choice([32, 64]),
             "cu_mode": 1, "rocm": "6.2", "dvgpr": rnd.choice([16, 32]), "trap_handler": -1,
             "waves_per_eu_min": rnd.randint(1, 4), "waves_per_eu_max": rnd.randint(4, 10),
             "flat_workgroup_size_min": rnd.randint(1, 64), "sub_group": rnd.choice([8, 16, 32]),
             "grf": rnd.choice([128, 256])}[name]
    return name, value


def launch(rnd, name, d):
    """A random launch on device d: a dict of vocabulary names (unset fields keep their defaults)."""
    v = d.vendor
    # mostly launches that run, now and then one over a limit
    l = {"threads": rnd.choice([rnd.randint(1, 1100), 32 * rnd.randint(1, 32), 64 * rnd.randint(1, 16)])}
    if v != VENDOR_INTEL:
        l["regs"] = rnd.choice([rnd.randint(0, 300), 8 * rnd.randint(1, 16), 4 * rnd.randint(1, 16)])
    l["smem_static"] = rnd.choice([0, 0, 1024 * rnd.randint(0, 48), rnd.randint(0, 70000)])
    l["smem_dynamic"] = rnd.choice([0, 0, 1024 * rnd.randint(0, 64), rnd.randint(0, 250000)])
    if v == VENDOR_NVIDIA:
        l["barriers"] = rnd.choice([1, 1, rnd.randint(0, 16), rnd.randint(0, 18)])
        if rnd.random() < 0.3:
            l["carveout"] = rnd.choice([-1, rnd.randint(0, 100)])
        if rnd.random() < 0.2:
            l["smem_optin"] = 0
        if rnd.random() < 0.3 and d.virtual_resources_per_sm:
            l["virtual_resources"] = rnd.randint(0, 140)
        if rnd.random() < (0.5 if d.tmem_columns_per_sm else 0.05):
            l["tmem_columns"] = 32 << rnd.randint(0, 4)
        if rnd.random() < 0.2:  # the kernel's __launch_bounds__ maximum
            l["max_threads"] = rnd.choice([l["threads"], 1024, 256, rnd.randint(1, 1024)])
    elif v == VENDOR_AMD:
        for field, p, values in (("agprs", 0.2, lambda: rnd.randint(0, 128)), ("sgprs", 0.3, lambda: rnd.randint(0, 110)),
                                 ("wave_size", 0.2, lambda: rnd.choice([32, 64])), ("cu_mode", 0.1, lambda: 1),
                                 ("model", 0.3, lambda: rnd.choice(["compiler", "llvm19", "runtime"])),
                                 ("dvgpr", 0.1, lambda: rnd.choice([16, 32])), ("trap_handler", 0.15, lambda: -1)):
            if rnd.random() < p:
                l[field] = values()
        if l.get("model") == "runtime" and rnd.random() < 0.5:
            l["rocm"] = rnd.choice(["6.2", "7.0", "5.7"])
        elif rnd.random() < 0.05:  # a release without the runtime model
            l["rocm"] = rnd.choice(["6.2", "7.0"])
        if rnd.random() < 0.25:
            l["max_threads"] = rnd.choice([l["threads"], 1024, 256, rnd.randint(1, 1024)])
            if rnd.random() < 0.4:
                l["flat_workgroup_size_min"] = rnd.randint(1, l["threads"])
        if rnd.random() < 0.15:
            lo = rnd.randint(1, 6)
            l["waves_per_eu_min"], l["waves_per_eu_max"] = lo, rnd.randint(lo, 12)
        elif rnd.random() < 0.05:  # MIN above MAX
            hi = rnd.randint(1, 8)
            l["waves_per_eu_min"], l["waves_per_eu_max"] = rnd.randint(hi + 1, 10), hi
    else:
        if rnd.random() < 0.5:
            l["sub_group"] = rnd.choice([8, 16, 32])
        if rnd.random() < 0.5:
            l["grf"] = rnd.choice([128, 256, 96, 160, 192])
        if rnd.random() < 0.3:
            l["model"] = rnd.choice(["calculator", "runtime"])
        l["barriers"] = rnd.choice([1, 1, 0, rnd.randint(0, 40)])
        if rnd.random() < 0.2:  # the kernel's largest work-group
            l["max_threads"] = rnd.choice([l["threads"], 1024, 256, rnd.randint(1, 1024)])
    if rnd.random() < 0.08:
        field, value = foreign(rnd, v)
        l[field] = value
        if field == "rocm":
            l["model"] = "runtime"  # a release is a release of HIP's rules: with its model, as every interface asks
    return l


def c_value(vendor, field, value):
    if field == "model":
        return 4 if vendor == VENDOR_INTEL and value == "runtime" else MODEL_CODE[value]
    if field == "rocm":
        major, minor = value.split(".")
        return int(major) * 100 + int(minor)
    return value


def c_call(d, l):
    """gpuocc_occupancy itself: (status name, result)."""
    k = _CKernel()
    library.gpuocc_kernel_init(ctypes.byref(k))
    for field, value in l.items():
        setattr(k, C_FIELD[field], c_value(d.vendor, field, value))
    r = _CResult()
    r.size = ctypes.sizeof(r)
    status = library.gpuocc_occupancy(ctypes.byref(d), ctypes.byref(k), ctypes.byref(r))
    return library.gpuocc_status_name(status).decode(), r


def input_name(code):
    return library.gpuocc_input_name(code).decode() if code else None


def want(status, r):
    """What every interface must say: the status, and for an answer the blocks, limiters and the input over a
    limit; for a refusal the input it names."""
    names = tuple(gpuocc.limiter_names(r.limiters)) if status == "ok" else ()
    return (status, r.blocks_per_sm if status == "ok" else None, names, input_name(r.exceeded),
            r.exceeded_limit if r.exceeded else None)


def report_flags(l):
    flags = []
    for field, value in l.items():
        if field == "smem_optin":
            if not value:
                flags.append("--no-optin")
        elif field == "cu_mode":
            if value:
                flags.append("--cu-mode")
        elif field == "trap_handler":
            if value == -1:
                flags.append("--no-trap-handler")
        elif field == "waves_per_eu_min":
            flags += ["--waves-per-eu", f"{value}" + (f",{l['waves_per_eu_max']}" if "waves_per_eu_max" in l else "")]
        elif field == "waves_per_eu_max":
            if "waves_per_eu_min" not in l:  # another vendor's, alone: refused whichever minimum
                flags += ["--waves-per-eu", f"1,{value}"]
        elif field == "flat_workgroup_size_min":
            flags += ["--flat-workgroup-size", f"{value},{l.get('max_threads', 1024)}"]
        elif field == "max_threads" and "flat_workgroup_size_min" in l:
            continue
        else:
            flags += ["--" + field.replace("_", "-"), str(value)]
    return flags


def report(name, l):
    p = subprocess.run([GPUOCC, "report", "--arch", name, "--json"] + report_flags(l), capture_output=True, text=True)
    if p.returncode == 2:
        return ("refused", p.stderr.strip())
    o = json.loads(p.stdout)
    return ("ok", o["blocks_per_sm"], tuple(o["limiters"]), o.get("exceeded"), o.get("exceeded_limit"))


def py_kernel(l):
    args = dict(l)
    args["threads"] = l["threads"]
    if "smem_optin" in args:
        args["smem_optin"] = bool(args["smem_optin"])
    return gpuocc.kernel(**args)


def py_occupancy(name, l):
    try:
        r = gpuocc.occupancy(name, py_kernel(l))
    except gpuocc.Error as e:
        return (e.name, None, (), e.exceeded, e.exceeded_limit)
    return ("ok", r.blocks_per_sm, tuple(r.limiters), r.exceeded, r.exceeded_limit)


BATCH_COLUMNS = ("threads", "regs", "smem_static", "smem_dynamic", "barriers", "virtual_resources", "tmem_columns")


def py_batch(name, l):
    """batch() of the launch as its own base kernel, its values as columns too."""
    try:
        kern = py_kernel(l)
        columns = {c: [l[c]] for c in BATCH_COLUMNS if c in l}
        out = gpuocc.batch(name, kern=kern, **columns)
    except gpuocc.Error as e:
        return (e.name, None, (), e.exceeded, e.exceeded_limit)
    status = gpuocc.status_name(out["status"][0])
    if status != "ok":
        return (status, None, (), out["exceeded"][0], out["exceeded_limit"][0])
    return ("ok", out["blocks_per_sm"][0], tuple(gpuocc.limiter_names(out["limiters"][0])), out["exceeded"][0],
            out["exceeded_limit"][0])


rnd = random.Random(SEED)
rows = []
for name, d in devices():
    for _ in range(PER_DEVICE):
        l = launch(rnd, name, d)
        rows.append((name, d, l, want(*c_call(d, l))))

# gpuocc batch: every launch one row of one run, the vocabulary's column names
columns = sorted({f for _, _, l, _ in rows for f in l} - set(PYTHON_ONLY))
lines = [",".join(["arch"] + columns)]
for name, d, l, _ in rows:
    lines.append(",".join([f'"{name}"'] + [str(l[c]) if c in l else "" for c in columns]))
p = subprocess.run([GPUOCC, "batch", "--json"], input="\n".join(lines) + "\n", capture_output=True, text=True)
batch_rows = [json.loads(line) for line in p.stdout.splitlines()]
check("gpuocc batch: one row per launch", len(batch_rows) == len(rows), f"{len(batch_rows)} of {len(rows)}: {p.stderr[-500:]}")

mismatch = {"report": [], "batch": [], "python occupancy": [], "python batch": []}
refusals = answers = cannot_run = python_only = 0
for (name, d, l, w), b in zip(rows, batch_rows):
    cli = not any(f in l for f in PYTHON_ONLY)
    python_only += not cli
    status, blocks, limiters, exceeded, limit = w
    refusals += status != "ok"
    answers += status == "ok"
    cannot_run += status == "ok" and blocks == 0
    # report: an answer prints it; a refusal is a usage error (exit 2) naming one of the launch's flags (the
    # first it checks, which is the library's input when only one is refused)
    got = report(name, l) if cli else None
    ok = not cli or (got[0] == "refused" and any(got[1].startswith(f"gpuocc: {flag}") for flag in report_flags(l))
          if status != "ok" else got == ("ok", blocks, limiters, exceeded, limit))
    if not ok:
        mismatch["report"].append((name, l, w, got))
    got_b = (b["status"], b["blocks_per_sm"], tuple(b["limiters"] or ()), b["exceeded"], b["exceeded_limit"])
    if cli and got_b != w:
        mismatch["batch"].append((name, l, w, got_b, b.get("error")))
    got_p = py_occupancy(name, l)
    if got_p != w:
        mismatch["python occupancy"].append((name, l, w, got_p))
    got_pb = py_batch(name, l)
    if got_pb != w:
        mismatch["python batch"].append((name, l, w, got_pb))

print(f"test_differential: {len(rows)} launches on {len({r[0] for r in rows})} devices, seed {SEED}: "
      f"{answers} answered ({cannot_run} cannot run), {refusals} refused; {python_only} in Python only")
for where, bad in mismatch.items():
    check(f"{where} gives the C call's answer for every launch", not bad,
          f"{len(bad)} differ, e.g. " + "\n  ".join(repr(m) for m in bad[:4]))
finish("test_differential")
