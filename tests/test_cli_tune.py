#!/usr/bin/env python3
"""Where people tune: `gpuocc report`'s inverse queries (--blocks, --stage-bytes, --base-bytes), against
values derived by hand from the rules (docs/model.md)."""
import csv
import io
import json
import os
import subprocess
import sys

from checks import check, finish

GPUOCC = sys.argv[1]
KIB = 1024


def run(args):
    p = subprocess.run([GPUOCC] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def report_json(args):
    rc, out, err = run(["report"] + args + ["--json"])
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, {}, err + out


INVERSE = ["target_blocks", "smem_dynamic_available", "regs_max_for_blocks", "stage_bytes", "base_bytes", "max_stages"]

# H100, 256 threads at 128 registers (2 blocks/SM), one block asked: the opt-in limit, 227 KiB of dynamic
# shared memory; 255 registers (8 warps x 8192 = 65536, the file); 8 KiB + 6 x 32 KiB = 200 KiB fit, 7 stages
# would be 232 KiB
rc, j, err = report_json(["--arch", "H100", "--threads", "256", "--regs", "128", "--stage-bytes", "32K",
                          "--base-bytes", "8K", "--blocks", "1"])
check("H100 stages: exit 0", rc == 0, err)
check("H100 stages: fields", [j.get(k) for k in INVERSE] == [1, 227 * KIB, 255, 32 * KIB, 8 * KIB, 6], j)
check("H100 stages: the launch itself unchanged", j.get("blocks_per_sm") == 2 and j.get("smem_dynamic") == 0, j)
# --blocks defaults to 1 with --stage-bytes; --smem-dynamic is ignored by the inverse queries
rc, j2, err = report_json(["--arch", "H100", "--threads", "256", "--regs", "128", "--stage-bytes", "32K",
                           "--base-bytes", "8K", "--smem-dynamic", "100K"])
check("H100 stages: --blocks 1 by default, --smem-dynamic ignored",
      [j2.get(k) for k in INVERSE] == [j.get(k) for k in INVERSE], j2)
# A100, 2 blocks: 164 KiB / 2 = 82 KiB a block less 1 KiB reserved = 81 KiB; registers: 16 warps share
# 65536 -> 4096 a warp = 128 a thread.  Stages of 16 KiB: 5
rc, j, err = report_json(["--arch", "A100", "--threads", "256", "--regs", "32", "--stage-bytes", "16K",
                          "--blocks", "2"])
check("A100 2 blocks", [j.get(k) for k in INVERSE] == [2, 81 * KIB, 128, 16 * KIB, 0, 5], j)
# --blocks alone: the two inverse queries, no stages
rc, j, err = report_json(["--arch", "A100", "--threads", "256", "--regs", "32", "--blocks", "2"])
check("A100 --blocks alone", [j.get(k) for k in INVERSE] == [2, 81 * KIB, 128, None, None, None] and rc == 0, j)
# without the flags every inverse field is null
rc, j, err = report_json(["--arch", "A100", "--threads", "256", "--regs", "32"])
check("no inverse flags: null", all(k in j and j[k] is None for k in INVERSE), j)

# not even the base fits 2 blocks (82 KiB > 81 KiB): max_stages null, exit 1, the flag named on stderr
rc, j, err = report_json(["--arch", "A100", "--threads", "256", "--regs", "32", "--stage-bytes", "1K",
                          "--base-bytes", "82K", "--blocks", "2"])
check("A100 base too large: exit 1", rc == 1, (rc, err))
check("A100 base too large: max_stages null, the others answered",
      j.get("max_stages") is None and j.get("smem_dynamic_available") == 81 * KIB and j.get("regs_max_for_blocks") == 128, j)
check("A100 base too large: stderr", "--stage-bytes" in err and "never fit" in err, err)
# 9 blocks of 8 warps need 72 of H100's 64 warp slots: no shared memory or register count helps
rc, j, err = report_json(["--arch", "H100", "--threads", "256", "--regs", "32", "--blocks", "9"])
check("H100 9 blocks: exit 1, null", rc == 1 and j.get("smem_dynamic_available") is None and
      j.get("regs_max_for_blocks") is None and j.get("target_blocks") == 9, (rc, j, err))
check("H100 9 blocks: stderr", "--blocks" in err and "never fit" in err, err)

# usage errors (exit 2, the flag named)
for args, flag in [(["--base-bytes", "1K"], "--base-bytes"), (["--stage-bytes", "0"], "--stage-bytes"),
                   (["--blocks", "0"], "--blocks"), (["--stage-bytes", "12Q"], "--stage-bytes")]:
    rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "32"] + args)
    check(f"usage {' '.join(args)}", rc == 2 and flag in err and err.count("\n") == 1, (rc, err))

# AMD: MI300X, 2 workgroups of 4 waves: 64 KiB of LDS per CU / 2 = 32 KiB; 8 waves on 4 SIMDs = 2 each,
# 512 VGPRs / 2 = 256 (also the most a lane addresses); stages of 4 KiB: 8; after 1 KiB, 7
rc, out, err = run(["report", "--arch", "MI300X", "--threads", "256", "--vgprs", "32", "--stage-bytes", "4K",
                    "--blocks", "2", "--csv"])
row = next(csv.DictReader(io.StringIO(out)), {})
check("MI300X csv", [row.get(k) for k in INVERSE] == ["2", "32768", "256", "4096", "0", "8"] and rc == 0, out)
rc, j, err = report_json(["--arch", "MI300X", "--threads", "256", "--vgprs", "32", "--stage-bytes", "4K",
                          "--base-bytes", "1K", "--blocks", "2"])
check("MI300X base 1 KiB", j.get("max_stages") == 7, j)
# Intel: DG2, 4 work-groups: 128 KiB of SLM per Xe-core, each rounded up to an allowed size: 32 KiB; stages of
# 10 KiB: 3 (30 KiB -> 32 KiB; 40 KiB would round up to 64 KiB)
rc, j, err = report_json(["--arch", "dg2", "--threads", "256", "--sub-group", "16", "--stage-bytes", "10K",
                          "--blocks", "4"])
check("DG2", j.get("smem_dynamic_available") == 32 * KIB and j.get("max_stages") == 3, j)

# text
rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "128", "--stage-bytes", "32K",
                    "--base-bytes", "8K"])
check("text: inverse line", "for 1       blocks/SM: at most 232448 B dynamic shared memory, at most 255 registers "
      "per thread" in out, out)
check("text: stages line", "stages      6 of 32768 B after 8192 B (204800 B dynamic shared memory) still fit 1 "
      "blocks/SM" in out, out)

# Blackwell's records in binary rows: tests/data/tcgen05_sm100a.cubin (tests/cuda/tcgen05.ptx, ptxas 13.0): EIATTR
# 0x4a = 128 on tm_one and tm_two, 0x51 on tm_one, 0x52 on tm_two, 0x54 on smr (a dump of .nv.info).  sm_100: 64
# warp slots, 65,536 registers, 128 virtual resources per SM (docs/model.md).
CUBIN = os.path.join(sys.argv[2], "tcgen05_sm100a.cubin")
rc, out, err = run(["binary", CUBIN, "--threads", "128", "--json"])
rows = {r["short_name"]: r for r in json.loads(out)} if rc == 0 else {}
check("tcgen05 cubin: exit 0", rc == 0, err)
# tm_one, tm_two: 128 of the SM's 128 virtual resources a block: 1 block (4 of 64 warps)
for name, group in (("tm_one", 1), ("tm_two", 2)):
    r = rows.get(name, {})
    check(f"{name}: virtual resources limit", (r.get("virtual_resources"), r.get("tmem_cta_group"), r.get("blocks_per_sm"),
                                               r.get("limiters"), r.get("setmaxnreg"), r.get("setmaxnreg_check"))
          == (128, group, 1, ["virtual_resources"], 0, None), r)
# smr: 128 registers x 128 threads = 16,384 a block: 4 blocks; one warpgroup: the setmaxnreg check holds
r = rows.get("smr", {})
check("smr: setmaxnreg", (r.get("setmaxnreg"), r.get("setmaxnreg_check"), r.get("blocks_per_sm"), r.get("virtual_resources"))
      == (1, "ok", 4, 0), r)
# plain: 8 registers, 4 warps: the 64 warp slots give 16 blocks
check("plain", (rows.get("plain", {}).get("blocks_per_sm"), rows.get("plain", {}).get("setmaxnreg_check")) == (16, None),
      rows.get("plain"))
check("no json: metadata null", all(r.get("metadata") is None and r.get("launch_threads") is None for r in rows.values()))
# 96 threads: not a whole warpgroup for setmaxnreg
rc, out, err = run(["binary", CUBIN, "--threads", "96", "--json"])
rows96 = {r["short_name"]: r for r in json.loads(out)} if rc == 0 else {}
check("smr at 96 threads: warpgroups", rows96.get("smr", {}).get("setmaxnreg_check") == "warpgroups", rows96.get("smr"))
# the flag wins: 64 virtual resources a block, 2 blocks
rc, out, err = run(["binary", CUBIN, "--threads", "128", "--virtual-resources", "64", "--json"])
rows64 = {r["short_name"]: r for r in json.loads(out)} if rc == 0 else {}
check("--virtual-resources wins", rows64.get("tm_one", {}).get("blocks_per_sm") == 2, rows64.get("tm_one"))
# CSV: the record columns after the Intel ones
rc, out, err = run(["binary", CUBIN, "--threads", "128", "--csv"])
csv_rows = {r["short_name"]: r for r in csv.DictReader(io.StringIO(out))}
check("csv record columns", [csv_rows.get("tm_two", {}).get(k) for k in
                             ("virtual_resources", "tmem_cta_group", "setmaxnreg", "setmaxnreg_check", "metadata")]
      == ["128", "2", "0", "", ""], csv_rows.get("tm_two"))

# setmaxnreg under each way of fixing the count at entry: tests/data/setmaxnreg_sm90a.cubin (tests/cuda/setmaxnreg.cu,
# nvcc 13.0 -arch=sm_90a) and its ptxas -v log: the two kernels without __maxnreg__ or a minimum of blocks get
# C7508 ("'setmaxnreg' ignored; unable to determine register count at entry") and no record of it; the log's
# "Used N registers" are the registers
import re  # noqa: E402

log = open(os.path.join(sys.argv[2], "ptxas_setmaxnreg.log")).read()
used = dict(re.findall(r"Compiling entry function '_Z\d+(\w+?)Pf'.*?Used (\d+) registers", log, re.S))
check("setmaxnreg log: two C7508 warnings", log.count("(C7508)") == 2 and len(used) == 4, used)
SMR = os.path.join(sys.argv[2], "setmaxnreg_sm90a.cubin")
rc, out, err = run(["binary", SMR, "--threads", "384", "--json"])
rows = {r["short_name"]: r for r in json.loads(out)} if rc == 0 else {}
check("setmaxnreg records where ptxas kept it", {n: (r["setmaxnreg"], r["registers"]) for n, r in rows.items()}
      == {"fixed_maxnreg": (1, int(used["fixed_maxnreg"])), "fixed_bounds": (1, int(used["fixed_bounds"])),
          "bound_only": (0, int(used["bound_only"])), "unbounded": (0, int(used["unbounded"]))}, rows)
# 384 threads = 3 warpgroups on sm_90: ok; the kernels without the record are not checked
check("setmaxnreg_check at 3 warpgroups", {n: r["setmaxnreg_check"] for n, r in rows.items()}
      == {"fixed_maxnreg": "ok", "fixed_bounds": "ok", "bound_only": None, "unbounded": None}, rows)
# the table says it on the row: 96 threads are part of a warpgroup; A100 (cc 8.0) has no setmaxnreg
for flags, word in ((["--threads", "96"], "warpgroups"), (["--threads", "128", "--arch", "A100"], "arch")):
    rc, out, err = run(["binary", SMR] + flags)
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    check(f"table: setmaxnreg {word}", rc == 0 and all(lines.get(n, "").endswith(f"(setmaxnreg: {word})")
                                                       for n in ("fixed_maxnreg", "fixed_bounds"))
          and not any("setmaxnreg" in lines.get(n, "") for n in ("bound_only", "unbounded")), out)
    rc, out, err = run(["binary", SMR, "--csv"] + flags)
    check(f"csv: setmaxnreg_check {word}", sorted(r["setmaxnreg_check"] for r in csv.DictReader(io.StringIO(out)))
          == ["", "", word, word], out)

# gpuocc binary DIR on a Triton cache: tests/data/triton_cache, written by Triton 3.9.0's triton.compile for named
# targets without a GPU (tests/triton/make_cache.py; the triton suite compiles it again).  Each json paired with
# its binary; the launch (num_warps x warp size, maxnreg, tmem_size, shared) from the json, the resources from the
# binary.  Values by hand from the rules (docs/model.md) and the files' own fields.
CACHE = os.path.join(sys.argv[2], "triton_cache")
rc, out, err = run(["binary", CACHE, "--json"])
check("triton cache: exit 0, nothing on stderr", rc == 0 and err == "", (rc, err))
cache_rows = json.loads(out) if rc == 0 else []
by_dir = {os.path.basename(os.path.dirname(r["file"]))[:6]: r for r in cache_rows}
check("triton cache: one row per binary, intermediates and manifests not reported", len(cache_rows) == 5 and
      all(r["file"].endswith((".cubin", ".hsaco")) for r in cache_rows), [r["file"] for r in cache_rows])
check("triton cache: each row names its json", all(r["metadata"] == r["file"].rsplit(".", 1)[0] + ".json"
                                                     for r in cache_rows), [r["metadata"] for r in cache_rows])
# add, sm_80, num_warps 4: 128 threads; 28 registers -> 1024 a warp x 4: 16 blocks, as the 64 warp slots allow
r = by_dir.get("W2QMIW", {})
check("add sm_80", (r.get("threads"), r.get("threads_from"), r.get("launch_threads"), r.get("blocks_per_sm"),
                    r.get("limiters")) == (128, "metadata", 128, 16, ["warps", "registers"]), r)
# add, sm_90, num_warps 8, maxnreg 128: 256 threads, the cap read from the json; 8 blocks of 8 warps
r = by_dir.get("FQVQRT", {})
check("add sm_90 maxnreg", (r.get("threads"), r.get("max_regs"), r.get("blocks_per_sm"), r.get("limiters"))
      == (256, 128, 8, ["warps"]), r)
# mm, sm_90, 8 warps, 194 registers -> 6208 rounded to 6400 a warp x 8 = 51,200: 1 block; shared 65,536 dynamic
# (+1 KiB reserved: 3 of 228 KiB) does not limit
r = by_dir.get("ZTEYS5", {})
check("mm sm_90", (r.get("threads"), r.get("smem_dynamic"), r.get("blocks_per_sm"), r.get("limiters"))
      == (256, 65536, 1, ["registers"]), r)
# mm, sm_100, 4 warps, tcgen05: the cubin's 128 virtual resources a block -> 1; the json's 128 columns of tensor
# memory and 65,552 bytes of shared memory
r = by_dir.get("Y2FJ7D", {})
check("mm sm_100", (r.get("arch"), r.get("threads"), r.get("virtual_resources"), r.get("tmem_columns"),
                    r.get("smem_dynamic"), r.get("blocks_per_sm"), r.get("limiters"))
      == ("sm_100a", 128, 128, 128, 65552, 1, ["virtual_resources"]), r)
# add, gfx942 (.hsaco), num_warps 4 x wave 64 = 256 work-items: 4 waves a workgroup, 32 wave slots per CU: 8
r = by_dir.get("OEOB7Y", {})
check("add gfx942", (r.get("vendor"), r.get("threads"), r.get("threads_from"), r.get("blocks_per_sm"))
      == ("amd", 256, "metadata", 8), r)
# flags win over the json: --threads
rc, out, err = run(["binary", CACHE, "--threads", "64", "--json"])
check("--threads wins", rc == 0 and all(r["threads"] == 64 and r["threads_from"] == "flag" for r in json.loads(out)))

import shutil  # noqa: E402
import tempfile  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    cache = os.path.join(tmp, "cache")
    shutil.copytree(CACHE, cache)
    # a json without its binary, a binary without its json: each said, never guessed; the others still print
    os.remove(os.path.join(cache, "W2QMIWP6JYK5BYJ7M5NTMJZF7YWMPMNJAWI5CER3343TUGHI5KYA", "add.cubin"))
    os.remove(os.path.join(cache, "FQVQRTOMYTGF6TBYTVBOATWILPQ2MU3AJ2TH2OGUIVKALTEPTJUA", "add.json"))
    rc, out, err = run(["binary", cache, "--json"])
    got = json.loads(out) if out else []
    check("unpaired: exit 1", rc == 1, (rc, err))
    check("unpaired json said", "W2QMIWP6JYK5BYJ7M5NTMJZF7YWMPMNJAWI5CER3343TUGHI5KYA/add.json: no binary beside it" in err, err)
    check("unpaired binary said", "FQVQRTOMYTGF6TBYTVBOATWILPQ2MU3AJ2TH2OGUIVKALTEPTJUA/add.cubin: no Triton json beside it"
          in err, err)
    lone = [r for r in got if "FQVQRT" in r["file"]]
    # without its json the kernel's launch is what the binary records: its bound (Triton writes maxntid 256)
    check("unpaired binary: read without metadata", len(lone) == 1 and lone[0]["metadata"] is None and
          lone[0]["threads_from"] == "launch_bound" and lone[0]["threads"] == 256, lone)
    check("unpaired: the other rows print", len(got) == 4, [r["file"] for r in got])
    # a json naming another kernel, and one that is not Triton's
    mm = os.path.join(cache, "ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q", "mm.json")
    meta = json.load(open(mm))
    json.dump(dict(meta, name="other"), open(mm, "w"))
    bad = os.path.join(cache, "Y2FJ7DKRH5MGK2ZRMNLZSCESS2UNSJVC4WUPWRU4BH6PCGY243MA", "mm.json")
    open(bad, "w").write('{"name": "mm", "shared": 1')
    rc, out, err = run(["binary", cache, "--csv"])
    check("json naming another kernel said", "names kernel 'other'" in err, err)
    check("broken json said", "mm.json: not a Triton kernel's metadata" in err, err)
    rows = list(csv.DictReader(io.StringIO(out)))
    check("their binaries read without metadata", sum(1 for r in rows if "mm.cubin" in r["file"] and r["metadata"] == "") == 2,
          [(r["file"], r["metadata"]) for r in rows])
    check("csv: the json's columns", any(r["metadata"].endswith("add.hsaco".replace(".hsaco", ".json")) and
                                         r["launch_threads"] == "256" and r["smem_dynamic"] == "0" for r in rows), rows)

    # clusters: num_ctas 2 (Triton 3.9), or an older Triton's cluster_dims, where the cubin records none
    cl = os.path.join(tmp, "clusters")
    shutil.copytree(os.path.join(CACHE, "ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q"), os.path.join(cl, "a"))
    shutil.copytree(os.path.join(CACHE, "ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q"), os.path.join(cl, "b"))
    for sub, change in (("a", {"num_ctas": 2}), ("b", {"cluster_dims": [1, 2, 1]})):
        path = os.path.join(cl, sub, "mm.json")
        json.dump(dict(json.load(open(path)), **change), open(path, "w"))
    rc, out, err = run(["binary", cl, "--json"])
    cl_rows = json.loads(out) if rc == 0 else []
    check("clusters from the json", [(r["cluster_x"], r["cluster_y"], r["cluster_z"], r["cluster_verdict"]) for r in cl_rows]
          == [(2, 1, 1, "legal"), (1, 2, 1, "legal")], (rc, err, cl_rows))

    # a CuPy kernel-cache file: the cubin's MD5 in 32 hex digits, then the cubin; read past the prefix
    import hashlib  # noqa: E402
    cubin = open(os.path.join(sys.argv[2], "kernels_sm80.cubin"), "rb").read()
    cupy = os.path.join(tmp, "cupy_kernel.cubin")
    open(cupy, "wb").write(hashlib.md5(cubin).hexdigest().encode() + cubin)
    rc, a, err = run(["binary", cupy, "--threads", "128", "--csv"])
    rc2, b, _ = run(["binary", os.path.join(sys.argv[2], "kernels_sm80.cubin"), "--threads", "128", "--csv"])
    strip = lambda text: [line.rsplit(",", 1)[0] for line in text.splitlines()]  # all but the file
    check("CuPy cache file: the cubin's rows", rc == 0 and strip(a) == strip(b) and len(strip(a)) > 2, (rc, err, a[:300]))

finish("cli-tune")
