#!/usr/bin/env python3
"""The gpuocc command line: outputs checked against hand-derived values, errors name the field."""
import csv
import io
import json
import subprocess
import sys

from checks import check, finish

GPUOCC = sys.argv[1]


def run(args, stdin=None):
    p = subprocess.run([GPUOCC] + args, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# seeds' Example 2 on A100: 3 blocks, 37.5 %, shared memory
rc, out, _ = run(["report", "--arch", "A100", "--threads", "256", "--regs", "32", "--smem-static", "48K", "--json"])
j = json.loads(out)
check("report rc", rc == 0)
check("report blocks", j["blocks_per_sm"] == 3, out)
check("report occupancy", abs(j["occupancy"] - 0.375) < 1e-9)
check("report limiter", j["limiters"] == ["shared_memory"])
# 4 blocks need <= 167936 / 4 = 41984 allocated = 40960 + 1 KiB reserved; registers (8) and warps (8) allow 4
check("report next step", j["next_steps"] == [{"resource": "shared_memory", "new_value": 40960, "shed": 8192,
                                               "blocks_per_sm": 4, "also": []}], out)

# The README's example is a tie (registers and shared memory at 4): no single step, one joint step
# (docs/model.md: 5 blocks need 48 registers, 1638 -> 1536 per warp, and <= 233472 / 5 = 46694 -> 46592 allocated)
rc, out, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "64", "--smem-dynamic", "48K"])
check("example tie said", "no single change gains a block (registers and shared_memory tie at 4)" in out, out)
check("example joint step", "registers per thread: 64 -> 48 (shed 16) and shared memory per block (bytes): "
      "49152 -> 45568 (shed 3584) for 5 blocks/SM" in out, out)
rc, out, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "48", "--smem-dynamic", "45568",
                  "--json"])
check("example joint step holds", json.loads(out)["blocks_per_sm"] == 5, out)
rc, out, _ = run(["report", "--arch", "MI300X", "--threads", "1024", "--vgprs", "64", "--agprs", "64"])
check("MI300X: AGPRs are the lever, VGPRs never 0", "AGPRs per lane: 64 -> 0 (shed 64) for 2 blocks/CU" in out
      and "VGPRs per lane: 64 -> 0" not in out, out)
rc, out, _ = run(["report", "--arch", "T4", "--threads", "768", "--regs", "64"])
check("T4 768 threads: no registers step", "registers per thread" not in out.split("full wave")[1], out)
check("report unlimited barriers", j["limit_barriers"] is None)

rc, out, _ = run(["report", "--example"])
check("example", rc == 0 and "occupancy   50.0 %" in out, out)

# bad values: one line naming the field, exit 2
for args, field in [
    (["report", "--arch", "H100", "--threads", "0", "--regs", "3"], "--threads"),
    (["report", "--arch", "H999", "--threads", "32", "--regs", "3"], "--arch"),
    (["report", "--arch", "H100", "--threads", "32", "--regs", "-1"], "--regs"),
    (["report", "--arch", "H100", "--threads", "32", "--regs", "3", "--carveout", "101"], "--carveout"),
    (["report", "--arch", "H100", "--threads", "32", "--regs", "3", "--smem-dynamic", "12Q"], "--smem-dynamic"),
    (["report", "--arch", "H100", "--threads", "32"], "--regs"),
    (["report", "--bogus"], "--bogus"),
    (["frobnicate"], "frobnicate"),
]:
    rc, out, err = run(args)
    lines = err.strip().splitlines()
    check(f"error {field}", rc == 2 and len(lines) == 1 and lines[0].startswith(f"gpuocc: {field}:"), err)

# batch: hand-derived rows; a bad row does not stop the batch
rows = "arch,threads,regs,smem_static,smem_dynamic,barriers,carveout,smem_optin\n" \
       "A100,256,64,0,0,1,-1,1\n" \
       "H100,256,32,0,0,16,-1,1\n" \
       "A100,0,3,0,0,1,-1,1\n" \
       "H100,256,32,0,100K,1,-1,0\n" \
       "A100,256,32,0,20K,1,50,1\n"
rc, out, _ = run(["batch"], rows)
check("batch rc", rc == 1)  # a bad row: answered in part
table = list(csv.DictReader(io.StringIO(out)))
check("batch rows", len(table) == 5, out)
if len(table) == 5:
    check("batch ex1", table[0]["status"] == "ok" and table[0]["blocks_per_sm"] == "4"
          and table[0]["limiters"] == "registers" and table[0]["limit_smem"] == "164"
          and table[0]["smem_per_block"] == "1024", str(table[0]))
    check("batch barriers", table[1]["blocks_per_sm"] == "4" and table[1]["limiters"] == "barriers", str(table[1]))
    check("batch bad row", table[2]["status"] == "threads" and table[2]["blocks_per_sm"] == "")
    check("batch no optin", table[3]["blocks_per_sm"] == "0" and table[3]["limiters"] == "shared_memory")
    check("batch carveout", table[4]["limit_smem"] == "4", str(table[4]))
    check("batch echo", table[0]["arch"] == "A100" and table[4]["carveout"] == "50")
rc, out, err = run(["batch"], "arch,threads\nA100,32\n")
check("batch missing column", rc == 2 and "regs" in err, err)

rc, out, _ = run(["devices", "--json"])
devs = json.loads(out)
check("devices", rc == 0 and any(d["name"] == "H100 SXM" and d["sm_count"] == 132 for d in devs))
check("devices sources", all(d["source"] for d in devs))
# filters: each one that matches nothing is named on stderr, with the nearest name; exit 1 when another filter
# matched (the table of those), 2 when none did (nothing on stdout)
rc, out, err = run(["devices", "H100", "H1000", "--json"])
lines = err.strip().splitlines()
check("devices H100 H1000: exit 1, H1000 named once", rc == 1 and len(lines) == 1 and "H1000" in lines[0]
      and "did you mean 'H100'" in lines[0], (rc, err))
names = [d["name"] for d in json.loads(out)] if out else []
check("devices H100 H1000: the H100 products", "H100 SXM" in names and all("H100" in n for n in names), out)
rc, out, err = run(["devices", "H100", "sm_90", "MI300X"])
check("devices: every filter matched: exit 0, nothing on stderr", rc == 0 and not err and "MI300X" in out, err)
rc, out, err = run(["devices", "H1000", "gfx9999"])
lines = err.strip().splitlines()
check("devices H1000 gfx9999: exit 2, each named", rc == 2 and not out and len(lines) == 2 and "H1000" in lines[0]
      and "gfx9999" in lines[1], (rc, out, err))
rc, out, err = run(["devices", "", "H100"])
check("devices '': a usage error that says why", rc == 2 and not out and
      err == "gpuocc: devices: an empty name matches no device (leave it out to list them all)\n", (rc, err))

# a flag given twice is a usage error naming it (the last value silently won): in either form, switches too, in
# every command's own flags
for args, flag in [(["report", "--arch", "H100", "--threads", "256", "--threads", "128", "--regs", "32"], "--threads"),
                   (["report", "--arch", "H100", "--threads=256", "--regs", "32", "--threads", "64"], "--threads"),
                   (["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--json", "--json"], "--json"),
                   (["sweep", "--arch", "A100", "--threads", "256", "--axis", "regs", "--axis", "threads"], "--axis"),
                   (["latency", "--warps-per-sm", "32", "--latency-cycles", "400", "--latency-cycles", "500",
                     "--throughput-per-cycle", "4"], "--latency-cycles"),
                   (["batch", "--max-record-bytes", "64", "--max-record-bytes", "128"], "--max-record-bytes")]:
    rc, out, err = run(args, stdin="arch,threads\nH100,256\n")
    check(f"{args[0]} {flag} twice: usage error", rc == 2 and not out and err == f"gpuocc: {flag}: given twice\n",
          (rc, out, err))

# 0 is the default of wave_size, sub_group and grf (docs/vocabulary.md: the device's wave, its sub-group of 16,
# 128 GRF), in the report's flags and batch's cells alike, as in C and Python
for arch, zero, default in [("gfx942", ["--vgprs", "32", "--wave-size", "0"], ["--vgprs", "32", "--wave-size", "64"]),
                            ("pvc", ["--sub-group", "0", "--grf", "0"], ["--sub-group", "16", "--grf", "128"])]:
    rc0, out0, err0 = run(["report", "--arch", arch, "--threads", "256", *zero, "--json"])
    rc1, out1, _ = run(["report", "--arch", arch, "--threads", "256", *default, "--json"])
    same = rc0 == rc1 == 0 and {k: v for k, v in json.loads(out0).items() if k not in ("wave_size", "sub_group", "grf")} \
        == {k: v for k, v in json.loads(out1).items() if k not in ("wave_size", "sub_group", "grf")}
    check(f"report {' '.join(zero)}: the default", same, (rc0, err0))
    cols = [zero[i][2:].replace("-", "_") for i in range(0, len(zero), 2)]
    vals = [zero[i + 1] for i in range(0, len(zero), 2)]
    rc, out, err = run(["batch"], stdin=f"arch,threads,{','.join(cols)}\n{arch},256,{','.join(vals)}\n")
    row = next(csv.DictReader(io.StringIO(out)), {})
    check(f"batch {' '.join(cols)} 0: the default", rc == 0 and row.get("status") == "ok"
          and row.get("blocks_per_sm") == str(json.loads(out1)["blocks_per_sm"]), (rc, out, err))

# models: seeds' Examples 7 and 8, the waves example, lanes of Example 5
rc, out, _ = run(["latency", "--warps-per-sm", "32", "--latency-cycles", "400", "--throughput-per-cycle", "4", "--ilp", "50", "--json"])
j = json.loads(out)
check("latency", rc == 0 and j["in_flight"] == 1600 and j["warps_needed"] == 32 and "hidden" in j["verdict"], out)
rc, out, _ = run(["latency", "--arch", "A100", "--warps-per-sm", "32", "--json"])
j = json.loads(out)
# A100 with the DRAM pipe: the bandwidth law (docs/models.md). 90 % of the attainable 1908 GB/s needs
# 0.9 x 1908 B/ns x (1.69 x 391.49 ns + 9 x 210 / (8 x 2039 / 5120) ns) in flight, over 108 SMs x 128 B
check("latency table", rc == 0 and abs(j["warps_needed"] - 0.9 * 1908 * (1.69 * 552 / 1.41 + 9 * 210 / (8 * 2039 / 5120))
                                       / (108 * 128)) < 0.01
      and j["model"] == "loaded" and "exposed" in j["verdict"], out)
rc, out, _ = run(["spill", "--work-cycles", "256", "--spill-accesses", "2", "--spill-latency-cycles", "300", "--json"])
check("spill", rc == 0 and json.loads(out)["slowdown"] == 3.34375, out)
rc, out, _ = run(["waves", "--grid-blocks", "300", "--sm-count", "132", "--blocks-per-sm", "2", "--json"])
j = json.loads(out)
check("waves", rc == 0 and j["waves"] == 2 and j["last_wave_blocks"] == 36 and "13.6 %" in j["verdict"], out)
rc, out, _ = run(["divergence", "--threads", "1", "--json"])
check("lanes", rc == 0 and json.loads(out)["lane_efficiency"] == 0.03125, out)
rc, out, _ = run(["divergence", "--paths", "16:10,16:10", "--json"])
check("paths", rc == 0 and json.loads(out)["thread_inst_per_inst"] == 16, out)
rc, out, _ = run(["roofline", "--flops", "2", "--bytes", "12", "--peak-gflops", "19500", "--peak-gbps", "2039", "--json"])
check("roofline", rc == 0 and json.loads(out)["bound"] == "memory", out)
rc, out, _ = run(["diagnose", "--stall", "math_pipe_throttle", "--occupancy", "0.2", "--json"])
check("diagnose", rc == 0 and json.loads(out)["occupancy_helps"] is False, out)
rc, out, _ = run(["tradeoff", "--arch", "A100", "--threads", "256", "--regs", "128", "--json"])
j = json.loads(out)
check("tradeoff", rc == 0 and [s["regs"] for s in j["steps"]] == [80, 64, 48, 40, 32], out)
for args, field in [
    (["latency", "--warps-per-sm", "32", "--latency-cycles", "0", "--throughput-per-cycle", "4"], "--latency-cycles"),
    (["latency", "--warps-per-sm", "32", "--latency-cycles", "nan", "--throughput-per-cycle", "4"], "--latency-cycles"),
    (["waves", "--grid-blocks", "0", "--sm-count", "4", "--blocks-per-sm", "1"], "--grid-blocks"),
    (["diagnose", "--stall", "sleepy", "--occupancy", "0.5"], "--stall"),
    (["spill", "--arch", "T4", "--spill-loads", "8", "--spill-stores", "8", "--grid-threads", "10"], "--l2-bandwidth-gbps"),
]:
    rc, out, err = run(args)
    lines = err.strip().splitlines()
    check(f"model error {field}", rc == 2 and len(lines) == 1 and lines[0].startswith(f"gpuocc: {field}:"), err)
# An unknown stall reason lists the valid ones (the library's names), on the one line
rc, out, err = run(["diagnose", "--stall", "memory", "--occupancy", "0.5"])
lines = err.strip().splitlines()
check("diagnose --stall memory: lists the reasons", rc == 2 and len(lines) == 1 and "'memory'" in lines[0]
      and all(r in lines[0] for r in ("long_scoreboard", "short_scoreboard", "barrier", "mio_throttle",
                                      "lg_throttle", "math_pipe_throttle", "not_selected", "no_instruction")), err)

# ptxas: a whole build log in, one row per kernel (values from the captured CUDA 13 log)
import os

data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
rc, out, _ = run(["ptxas", "--threads", "256", "--json", os.path.join(data, "ptxas_sm90.log")])
rows = {r["short_name"]: r for r in json.loads(out)}
check("ptxas rows", rc == 0 and len(rows) == 7, out)
check("ptxas spilling", rows.get("spilling", {}).get("blocks_per_sm") == 4 and rows["spilling"]["spill_stores"] == 52, out)
rc, out, err = run(["ptxas", "--threads", "32"], "ptxas info    : Compiling entry function 'k' for 'sm_90'\n")
# the record is named and skipped; with nothing else read, no kernel (exit 2)
check("ptxas truncated", rc == 2 and "line 1: kernel 'k' skipped" in err and "no kernel found" in err and
      len(err.strip().splitlines()) == 2, err)

# ptxas: the target's variant in `arch`, as `gpuocc binary` prints it for the same compile.  ptxas_setmaxnreg.log is
# the report of `nvcc -cubin -arch=sm_90a -Xptxas -v` that made setmaxnreg_sm90a.cubin, ptxas_tcgen05.log that of
# `ptxas -arch=sm_100a -v` for tcgen05_sm100a.cubin (tests/cuda/capture.sh): every kernel "for 'sm_90a'" /
# "for 'sm_100a'"
for log, binary, arch in (("ptxas_setmaxnreg.log", "setmaxnreg_sm90a.cubin", "sm_90a"),
                          ("ptxas_tcgen05.log", "tcgen05_sm100a.cubin", "sm_100a")):
    rc, out, _ = run(["ptxas", os.path.join(data, log), "--threads", "128", "--json"])
    from_log = {r["name"]: r["arch"] for r in json.loads(out)} if rc == 0 else {}
    rc2, out2, _ = run(["binary", os.path.join(data, binary), "--threads", "128", "--json"])
    from_binary = {r["name"]: r["arch"] for r in json.loads(out2)} if rc2 == 0 else {}
    check(f"ptxas {log}: arch {arch}", len(from_log) == 4 and set(from_log.values()) == {arch}, out)
    check(f"ptxas {log}: the arch of gpuocc binary {binary}", from_log == from_binary, (from_log, from_binary))
# ptxas's own report of one kernel for sm_90, then sm_90a (CUDA 13.0: `nvcc -arch sm_90 -Xptxas -v -c k.cu`, then
# -arch sm_90a, stderr as printed): the text, CSV and JSON rows say which, and so does a vendor mismatch
variant_log = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z4axpyfPKfPfi' for 'sm_90'
ptxas info    : Function properties for _Z4axpyfPKfPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers
ptxas info    : Compile time = 16.305 ms
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z4axpyfPKfPfi' for 'sm_90a'
ptxas info    : Function properties for _Z4axpyfPKfPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers
ptxas info    : Compile time = 6.134 ms
"""
rc, out, _ = run(["ptxas", "--threads", "256", "--json"], variant_log)
check("ptxas sm_90 / sm_90a: JSON arch", rc == 0 and [r["arch"] for r in json.loads(out)] == ["sm_90", "sm_90a"], out)
rc, out, _ = run(["ptxas", "--threads", "256", "--csv"], variant_log)
table = list(csv.DictReader(io.StringIO(out)))
check("ptxas sm_90 / sm_90a: CSV arch", rc == 0 and [r["arch"] for r in table] == ["sm_90", "sm_90a"], out)
rc, out, _ = run(["ptxas", "--threads", "256"], variant_log)
check("ptxas sm_90 / sm_90a: text arch", rc == 0 and [line.split()[1] for line in out.splitlines()[1:]] ==
      ["sm_90", "sm_90a"], out)
rc, out, err = run(["ptxas", "--threads", "256", "--arch", "MI300X"], variant_log)
check("ptxas sm_90a on MI300X: built for sm_90a", rc == 1 and
      "built for sm_90 (NVIDIA), cannot run on MI300X" in err and "built for sm_90a (NVIDIA), cannot run on MI300X" in err, err)

# cubin: the same kernels from the binary (expected values by hand from the register rule and the source)
cubin = os.path.join(data, "kernels_sm90.cubin")
rc, out, _ = run(["cubin", cubin, "--threads", "256", "--json"])
crows = {r["short_name"]: r for r in json.loads(out)}
check("cubin rows", rc == 0 and len(crows) == 7, out)
# register_heavy: 43 regs -> 1536 per warp -> 10 warps per sub-partition -> 40 warps -> 5 blocks of 8 warps
rh = crows.get("register_heavy", {})
check("cubin launch bounds", rh.get("max_threads") == 256 and rh.get("min_blocks") == 2 and rh.get("max_regs") == 128, out)
check("cubin occupancy", rh.get("blocks_per_sm") == 5 and rh.get("limiters") == ["registers"], out)
check("cubin spills unknown", crows.get("spilling", {}).get("spill_stores", 0) is None, out)
check("cubin cluster", crows.get("cluster_kernel", {}).get("cluster_x") == 2, out)
check("cubin and ptxas agree", all(
    crows[k][f] == rows[k][f] for k in rows for f in ("registers", "barriers", "smem", "stack", "blocks_per_sm", "limiters")), out)
rc, out, _ = run(["cubin", cubin, "--threads", "512", "--json"])
check("cubin beyond launch bounds", rc == 0 and {r["short_name"]: r for r in json.loads(out)}["register_heavy"]["status"] == "exceeds_launch_bounds", out)
rc, out, _ = run(["cubin", cubin, "--best-block", "--json"])
check("cubin best block within bounds", rc == 0 and {r["short_name"]: r for r in json.loads(out)}["register_heavy"]["threads"] == 256, out)
rc, out, _ = run(["cubin", os.path.join(data, "units.fatbin"), "--threads", "128", "--csv"])
lines = out.strip().splitlines()
check("cubin fatbinary csv", rc == 0 and len(lines) == 7 and lines[0].startswith("name,short_name,arch,registers"), out)
rc, out, err = run(["cubin", os.path.join(data, "units_zstd.fatbin"), "--threads", "128", "--json"])
check("cubin compressed", rc == 0 and len(json.loads(out)) == 2 and err == "", err)
rc, out, err = run(["cubin", os.path.join(data, "ptxas_sm90.log"), "--threads", "128"])
check("cubin not a binary", rc == 2 and "ptxas_sm90.log" in err and "format" in err, err)
# --arch: the sm_80 binary asked about H100; named_barriers at 128 threads: 2048 / 128 = 16 blocks by warps,
# 64 barriers / 4 = 16 by barriers, a tie
rc, out, _ = run(["cubin", os.path.join(data, "kernels_sm80.cubin"), "--threads", "128", "--arch", "H100", "--json"])
nb = {r["short_name"]: r for r in json.loads(out)}.get("named_barriers", {})
check("cubin --arch", rc == 0 and nb.get("arch") == "sm_90" and nb.get("blocks_per_sm") == 16 and nb.get("limiters") == ["warps", "barriers"], out)
rc, out, err = run(["cubin", "--threads", "128"])
check("cubin needs a file", rc == 2 and "FILE" in err, err)

# An unlimited resource reads "no limit", never "none" (which reads as zero blocks)
rc, out, _ = run(["report", "--arch", "MI300X", "--threads", "1024", "--vgprs", "64"])
check("no limit, not none", "blocks no limit" in out and "blocks none" not in out, out)

# Launches that cannot run.  More named barriers than a block may use (PTX ids 0..15: 16) and
# static shared memory over the 48 KiB static limit are errors (exit 2, one stderr line naming the flag and
# the limit), not block counts: on base 0938ac9 both were answered (H100: 3 blocks each)
rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--barriers", "17"])
check("17 barriers exit 2", rc == 2 and out == "", (rc, out))
check("17 barriers one line", err == "gpuocc: --barriers: 17 is more than the 16 named barriers a block may use "
      "(PTX barrier ids 0..15)\n", err)
rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--barriers", "16", "--json"])
check("16 barriers answered", rc == 0 and json.loads(out)["blocks_per_sm"] == 4, (rc, out))  # 64 / 16
rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--smem-static", "64K"])
check("64K static exit 2", rc == 2 and out == "", (rc, out))
check("64K static one line", err == "gpuocc: --smem-static: 65536 B is more than the static shared-memory limit "
      "of 49152 B per block; more needs dynamic shared memory and the opt-in\n", err)
rc, out, err = run(["report", "--arch", "A100", "--threads", "256", "--regs", "32", "--smem-static", "48K"])
check("48K static answered", rc == 0, (rc, err))
# a batch row of each: its status and error cell, the other rows answered
rc, out, err = run(["batch", "-"], "arch,threads,regs,smem_static,smem_dynamic,barriers\n"
                   "H100,256,32,0,0,17\nH100,256,32,65536,0,1\nH100,256,32,0,9223372036854775807,1\n"
                   "H100,256,32,0,0,16\n")
rows = list(csv.DictReader(io.StringIO(out)))
check("batch rc 1", rc == 1, (rc, err))
check("batch barriers row", rows[0]["status"] == "exceeded" and rows[0]["error"] ==
      "barriers: 17 is more than the 16 named barriers a block may use (PTX barrier ids 0..15)", rows[0])
check("batch static row", rows[1]["status"] == "exceeded" and rows[1]["error"].startswith(
      "smem_static: 65536 B is more than the static shared-memory limit of 49152 B per block"), rows[1])
# the block's total overflows: the dynamic cell carries it, not "launch" (messages)
check("batch overflow blames smem_dynamic", rows[2]["status"] == "overflow" and
      rows[2]["error"].startswith("smem_dynamic: "), rows[2])
check("batch 16 barriers row", rows[3]["status"] == "ok" and rows[3]["blocks_per_sm"] == "4", rows[3])
# 0 blocks as NVIDIA's header answers, kept, with the limit named: the report's `exceeded` fields, its text
# line and the stderr line (H100: 1024 threads per block, 256 registers per thread, 227 KiB opt-in per block)
for flag, value, field, limit, phrase in [
        ("--threads", "2000", "threads", 1024, "threads 2000 is over the block's thread limit 1024"),
        # 8 warps of 256 registers a thread: 8 x 8192 = the 65536 a block may hold; more needs 300 > 256 anyway
        ("--regs", "300", "regs", 256,
         "regs 300 is over 256, the most registers per thread with which one block of 256 threads fits"),
        ("--smem-dynamic", "300K", "smem_dynamic", 232448,
         "smem_dynamic 307200 B is over the 232448 B left of the per-block shared-memory limit 232448 B (opt-in)"),
        # B200 (cc 10.0): 128 virtual resources an SM (docs/model.md)
        ("--virtual-resources", "200", "virtual_resources", 128, "virtual_resources 200 is over the 128 an SM has")]:
    arch = "B200" if flag == "--virtual-resources" else "H100"
    base = {"--threads": "256", "--regs": "32"}
    base[flag] = value
    args = ["report", "--arch", arch] + [x for item in base.items() for x in item]
    rc, out, err = run(args + ["--json"])
    j = json.loads(out)
    check(f"{flag} 0 blocks", rc == 1 and j["blocks_per_sm"] == 0, (rc, out))
    check(f"{flag} exceeded", j["exceeded"] == field and j["exceeded_limit"] == limit, out)
    check(f"{flag} stderr names it", err.rstrip("\n").endswith(": " + phrase) and err.count("\n") == 1, err)
    rc, out, err = run(args)
    check(f"{flag} text line", "exceeded    " + phrase + "\n" in out, out)
# the same names in `gpuocc batch`: the columns exceeded, exceeded_limit before `line` and `error` (which stay
# last), for a 0-block row and for a refused row; empty / null otherwise
src = ("arch,threads,regs,smem_static,smem_dynamic,barriers\nH100,2000,32,0,0,0\nH100,256,300,0,0,0\n"
       "H100,256,32,0,300K,0\nH100,256,32,0,0,17\nH100,256,32,64K,0,0\nH100,256,32,0,0,0\nH100,x,32,0,0,0\n"
       "MI300X,2048,32,0,0,\n")
want = [("threads", "1024"), ("regs", "256"), ("smem_dynamic", "232448"), ("barriers", "16"),
        ("smem_static", "49152"), ("", ""), ("", ""), ("threads", "1024")]
rc, out, err = run(["batch", "-"], src)
header = out.split("\n")[0].split(",")
check("batch exceeded columns before line, error", header[-7:] == ["limit_sgprs", "workgroups_per_gpu",
                                                                    "limit_virtual_resources", "exceeded",
                                                                    "exceeded_limit", "line", "error"], header)
rows = list(csv.DictReader(io.StringIO(out)))
check("batch exceeded cells", [(r["exceeded"], r["exceeded_limit"]) for r in rows] == want, rows)
check("batch 0-block rows ok", [r["status"] for r in rows] ==
      ["ok", "ok", "ok", "exceeded", "exceeded", "ok", "parse", "ok"], rows)
rc, out, err = run(["batch", "--json", "-"], src)
objs = [json.loads(line) for line in out.splitlines()]
check("batch json exceeded", [(o["exceeded"], o["exceeded_limit"]) for o in objs] ==
      [(f or None, int(l) if l else None) for f, l in want], objs)
rc, out, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--json"])
check("exceeded null when blocks fit", json.loads(out)["exceeded"] is None and
      json.loads(out)["exceeded_limit"] is None, out)

# Hand-derived (docs/model.md).  Tensor memory on B200: 128 threads at 32 registers fit 16 blocks
# (warps 64 / 4), 128 columns each: floor(512 / 128) = 4 hold tensor memory, 12 wait at tcgen05.alloc
rc, out, _ = run(["report", "--arch", "B200", "--threads", "128", "--regs", "32", "--tmem-columns", "128", "--json"])
j = json.loads(out)
check("tmem blocks unchanged", rc == 0 and j["blocks_per_sm"] == 16, out)
check("tmem holders", j["tmem_columns"] == 128 and j["tmem_holders_per_sm"] == 4 and j["tmem_waiting_blocks"] == 12,
      out)
rc, out, _ = run(["report", "--arch", "B200", "--threads", "128", "--regs", "32", "--tmem-columns", "128"])
check("tmem text", "4 block(s) hold tensor memory at once; 12 of the 16 resident wait at tcgen05.alloc" in out, out)
for arch in ("H100", "RTX 5090"):
    rc, out, err = run(["report", "--arch", arch, "--threads", "128", "--regs", "32", "--tmem-columns", "128"])
    check(f"tmem refused on {arch}", rc == 2 and err.startswith("gpuocc: --tmem-columns: ") and
          "has no tensor memory" in err, err)
rc, out, err = run(["report", "--arch", "B200", "--threads", "128", "--regs", "32", "--tmem-columns", "96"])
check("tmem columns a power of two", rc == 2 and "power of two from 32 to 512" in err, err)
rc, out, err = run(["report", "--arch", "MI300X", "--threads", "128", "--vgprs", "32", "--tmem-columns", "128"])
check("tmem NVIDIA only", rc == 2 and "--tmem-columns" in err, err)
# setmaxnreg's golden case: 384 threads at 168, producer 40, consumers 232: 64512 of 64512, mean 168; H100
# fits 1 block (168 x 32 = 5376 registers per warp, 3 warps per sub-partition, 12 per SM)
rc, out, _ = run(["report", "--arch", "H100", "--threads", "384", "--regs", "168", "--setmaxnreg", "40,232,232",
                  "--regs-fixed", "--json"])
j = json.loads(out)
check("setmaxnreg fits", rc == 0 and j["setmaxnreg"] == [40, 232, 232] and j["setmaxnreg_fits"] is True, out)
check("setmaxnreg pool", j["setmaxnreg_pool_regs"] == 64512 and j["setmaxnreg_requested_regs"] == 64512 and
      abs(j["setmaxnreg_mean_regs"] - 168) < 1e-9 and j["setmaxnreg_unfixed"] is False and j["blocks_per_sm"] == 1,
      out)
rc, out, _ = run(["report", "--arch", "H100", "--threads", "384", "--regs", "168", "--setmaxnreg", "40,240,232"])
check("setmaxnreg over the pool", "65536 of the block's 64512 registers" in out and "does not fit" in out and
      "\nwarning     no fixed register count recorded" in out, out)
for args, phrase in [(["--setmaxnreg", "40,232"], "2 values for 384 threads"),
                     (["--setmaxnreg", "40,230,232"], "multiple of 8 from 24 to 256"),
                     (["--regs-fixed"], "only with --setmaxnreg")]:
    rc, out, err = run(["report", "--arch", "H100", "--threads", "384", "--regs", "168"] + args)
    check(f"setmaxnreg refused {args}", rc == 2 and phrase in err, err)
rc, out, err = run(["report", "--arch", "A100", "--threads", "384", "--regs", "168", "--setmaxnreg", "40,232,232"])
check("setmaxnreg before cc 9.0", rc == 2 and "before cc 9.0" in err, err)
# launch bounds (256, 4) at 64 registers on H100: 4 fit; 60000 B dynamic (61056 allocated) leaves 3 in 233472
rc, out, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "64", "--min-blocks", "4", "--json"])
j = json.loads(out)
check("min blocks reached", j["min_blocks"] == 4 and j["min_blocks_reached"] is True and
      j["min_blocks_preventing"] == [], out)
rc, out, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "64", "--smem-dynamic", "60000",
                  "--min-blocks", "4", "--json"])
j = json.loads(out)
check("min blocks prevented", j["min_blocks_reached"] is False and j["min_blocks_preventing"] == ["shared_memory"],
      out)
# AMD gfx12 dynamic VGPRs: 256 threads at 128 VGPRs, 5 workgroups static, 8 with blocks of 16 (no VGPR limit)
rc, out, _ = run(["report", "--arch", "gfx1200", "--threads", "256", "--vgprs", "128", "--dvgpr", "16", "--json"])
j = json.loads(out)
check("dvgpr", rc == 0 and j["dvgpr"] == 16 and j["blocks_per_sm"] == 8 and j["limit_regs"] is None, out)
for arch, extra in (("gfx942", []), ("H100", []), ("gfx1200", ["--wave-size", "64"])):
    rc, out, err = run(["report", "--arch", arch, "--threads", "256", "--vgprs", "128", "--dvgpr", "16"] + extra)
    check(f"dvgpr refused on {arch} {extra}", rc == 2, (rc, err))
rc, out, err = run(["report", "--arch", "gfx1200", "--threads", "256", "--vgprs", "128", "--dvgpr", "8"])
check("dvgpr 16 or 32", rc == 2 and "expected 16 or 32" in err, err)

# --max-threads on NVIDIA: the kernel's __launch_bounds__ maximum, as the library applies it.  H100, 32 registers:
# 256 threads are 8 warps and 8 x 32 x 32 = 8192 registers, 65536 / 8192 = 8 blocks (and 64 / 8 warps = 8);
# 512 threads are over a bound of 256: 0 blocks, exit 1, exceeded threads with the bound as its limit.
rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--max-threads", "256", "--json"])
j = json.loads(out) if rc == 0 else {}
check("NVIDIA --max-threads within the bound", (rc, j.get("blocks_per_sm"), j.get("max_threads"), j.get("exceeded"))
      == (0, 8, 256, None), (rc, out, err))
rc, out, err = run(["report", "--arch", "H100", "--threads", "512", "--regs", "32", "--max-threads", "256", "--json"])
j = json.loads(out) if out else {}
check("NVIDIA --max-threads: a larger block fits none", (rc, j.get("blocks_per_sm"), j.get("exceeded"),
      j.get("exceeded_limit")) == (1, 0, "threads", 256), (rc, out, err))
rc, out, err = run(["report", "--arch", "H100", "--threads", "512", "--regs", "32", "--max-threads", "256"])
check("NVIDIA --max-threads said as the launch bound", rc == 1 and "launch bound 256" in out, (rc, out, err))
# --flat-workgroup-size stays AMD's
rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "32", "--flat-workgroup-size", "1,256"])
check("--flat-workgroup-size AMD only", rc == 2 and err.startswith("gpuocc: --flat-workgroup-size") and "AMD only" in err,
      (rc, err))
# Intel: the kernel's largest work-group (CL_KERNEL_WORK_GROUP_SIZE); B580 (Xe2, 8 XVEs x 8 threads), sub-group
# 16: 256 work-items = 16 threads, 64 / 16 = 4 work-groups; above a maximum of 128 none, exit 1
rc, out, err = run(["report", "--arch", "B580", "--threads", "256", "--max-threads", "256", "--json"])
check("--max-threads on Intel at the block", rc == 0 and json.loads(out)["blocks_per_sm"] == 4
      and json.loads(out)["max_threads"] == 256, (rc, out, err))
rc, out, err = run(["report", "--arch", "B580", "--threads", "256", "--max-threads", "128"])
check("--max-threads on Intel below the block", rc == 1 and "largest work-group 128" in out + err, (rc, out, err))
rc, out, err = run(["report", "--help"])
check("--max-threads help: both vendors", "__launch_bounds__ on NVIDIA" in out + err, out + err)

finish("cli")
