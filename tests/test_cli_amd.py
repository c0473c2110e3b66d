#!/usr/bin/env python3
"""The command line's AMD vocabulary (report, devices, batch, sweep): every expected value derived by hand from
the rules of docs/amd.md and the device figures it cites, never from gpuocc's own output.
Usage: test_cli_amd.py GPUOCC"""
import csv
import io
import json
import os
import re
import subprocess
import sys

from checks import check, finish

GPUOCC = sys.argv[1]


def run(args, stdin=None):
    p = subprocess.run([GPUOCC] + args, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def report(*args):
    rc, out, err = run(["report"] + list(args) + ["--json"])
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, {}, err


# MI300X (gfx942: 4 SIMDs, 8 wave slots per SIMD, 512 unified VGPRs per lane in granules of 8, 64 KiB LDS per CU,
# 304 CUs), 256 threads = 4 wave64, 128 VGPRs, 0 AGPRs, 32 SGPRs, 32 KiB static LDS.
#   VGPRs: 512 / 128 = 4 waves per SIMD -> 4 x 4 SIMDs / 4 waves = 4 workgroups
#   SGPRs: 32 <= 80 -> 10 waves, capped at 8 -> 8 x 4 / 4 = 8 workgroups
#   LDS: 65536 / 32768 = 2 workgroups; slots: 8 x 4 / 4 = 8; barriers: 16
#   -> 2 workgroups per CU, 8 waves of 32 (25 %), limited by LDS.
#   LLVM's waves/SIMD: LDS allows min(2, 8) workgroups = 8 waves over 4 SIMDs = 2; min(2, 8, 4, 8) = 2.
rc, j, err = report("--arch", "MI300X", "--threads", "256", "--vgprs", "128", "--agprs", "0", "--sgprs", "32",
                    "--lds", "32K")
want = {"vendor": "amd", "arch": "gfx942", "sm_count": 304, "regs": 128, "agprs": 0, "sgprs": 32,
        "smem_static": 32768, "wave_size": 64, "model": "compiler", "blocks_per_sm": 2, "warps_per_sm": 8,
        "max_warps_per_sm": 32, "waves_per_simd": 2, "limiters": ["shared_memory"], "limit_regs": 4,
        "limit_sgprs": 8, "limit_smem": 2, "limit_warps": 8, "limit_barriers": 16, "limit_blocks": None,
        "barriers": None, "carveout": None, "smem_optin": None, "smem_per_sm": 65536}
check("MI300X report", rc == 0 and all(j.get(k) == v for k, v in want.items()),
      {k: (j.get(k), v) for k, v in want.items() if j.get(k) != v})
check("MI300X occupancy", abs(j.get("occupancy", -1) - 0.25) < 1e-9, j)
rc, out, _ = run(["report", "--arch", "MI300X", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--lds",
                  "32K"])
check("MI300X text", rc == 0 and "(gfx942, 304 CUs" in out and "waves/SIMD  2 of 8" in out and "blocks/CU   2" in out,
      out)
# --regs is the same field as --vgprs, --smem-static as --lds
rc2, j2, _ = report("--arch", "MI300X", "--threads", "256", "--regs", "128", "--sgprs", "32", "--smem-static", "32K")
check("NVIDIA names of the shared fields", rc2 == 0 and j2.get("blocks_per_sm") == 2 and j2.get("waves_per_simd") == 2,
      j2)

# gfx906 (10 slots per SIMD, 256 VGPRs in granules of 4; SGPRs: 800 / (round_up(S, 16) + 16 for the trap
# handler)), 256 threads, 64 VGPRs, 102 SGPRs, no LDS: VGPRs 256 / 64 = 4 waves -> 4 workgroups; SGPRs
# 800 / (112 + 16) = 6 waves -> 6 x 4 / 4 = 6; slots 10; barriers 16.
rc, j, _ = report("--arch", "gfx906", "--threads", "256", "--vgprs", "64", "--sgprs", "102")
check("gfx906 SGPR limit", rc == 0 and j.get("blocks_per_sm") == 4 and j.get("limit_sgprs") == 6
      and j.get("waves_per_simd") == 4 and j.get("limiters") == ["registers"] and j.get("sm_count") is None
      and j.get("trap_handler") is True, j)
# With 16 VGPRs: 256 / 16 = 16 waves, capped at 10; SGPRs 102 -> 6 waves = 6 workgroups: the SGPRs limit.
rc, j, _ = report("--arch", "gfx906", "--threads", "256", "--vgprs", "16", "--sgprs", "102")
check("gfx906 SGPRs limit", rc == 0 and j.get("blocks_per_sm") == 6 and j.get("limiters") == ["sgprs"]
      and j.get("waves_per_simd") == 6, j)
# without the trap handler 800 / 112 = 7; LLVM 19's table (--model llvm19) says 7 for 101 and more too
rc, j, _ = report("--arch", "gfx906", "--threads", "256", "--vgprs", "16", "--sgprs", "102", "--no-trap-handler")
check("--no-trap-handler", rc == 0 and j.get("blocks_per_sm") == 7 and j.get("waves_per_simd") == 7
      and j.get("trap_handler") is False, j)
rc, j, _ = report("--arch", "gfx906", "--threads", "256", "--vgprs", "16", "--sgprs", "102", "--model", "llvm19")
check("--model llvm19", rc == 0 and j.get("blocks_per_sm") == 7 and j.get("waves_per_simd") == 7
      and j.get("model") == "llvm19", j)
# 88 SGPRs: LLVM 19's table 9 waves; today's LLVM 800 / (96 + 16) = 7 (occupancy-levels.ll, GFX9TRAP)
rc, j, _ = report("--arch", "gfx900", "--threads", "64", "--vgprs", "1", "--sgprs", "88", "--max-threads", "64")
rc2, j2, _ = report("--arch", "gfx900", "--threads", "64", "--vgprs", "1", "--sgprs", "88", "--max-threads", "64",
                    "--model", "llvm19")
check("the two LLVM generations", rc == 0 and rc2 == 0 and j.get("waves_per_simd") == 7
      and j2.get("waves_per_simd") == 9, (j, j2))
# --flat-workgroup-size: LLVM's best case over the range; gfx900, LDS 8252 bytes (rounded to 8704: 7 workgroups
# per CU), 1..96 -> 2-wave workgroups: 7 x 2 = 14 waves -> 4 per SIMD (occupancy-levels.ll); the launch of 96
# threads holds 7 workgroups
rc, j, _ = report("--arch", "gfx900", "--threads", "96", "--vgprs", "1", "--lds", "8252", "--flat-workgroup-size",
                  "1,96", "--no-trap-handler")
check("--flat-workgroup-size", rc == 0 and j.get("waves_per_simd") == 4 and j.get("blocks_per_sm") == 7
      and j.get("max_threads") == 96 and j.get("flat_workgroup_size_min") == 1, j)
# a flat maximum past the device's 1024 is taken as --max-threads takes it (the library's range, not the CLI's):
# the same answer both ways; the launch of 96 threads with 8704 bytes of LDS still holds 7 workgroups
rc, j, err = report("--arch", "gfx900", "--threads", "96", "--vgprs", "1", "--lds", "8252", "--flat-workgroup-size",
                    "1,2048", "--no-trap-handler")
rc2, j2, _ = report("--arch", "gfx900", "--threads", "96", "--vgprs", "1", "--lds", "8252", "--max-threads", "2048",
                    "--no-trap-handler")
check("--flat-workgroup-size past 1024", rc == 0 and rc2 == 0 and j.get("blocks_per_sm") == 7
      and j.get("max_threads") == 2048 and {**j, "flat_workgroup_size_min": None} == {**j2, "flat_workgroup_size_min": None},
      (rc, err, j, j2))
# --waves-per-eu 1,3 on gfx900, flat 1..256: LLVM gives a wave 65 VGPRs (68 allocated), 3 waves per SIMD
rc, j, _ = report("--arch", "gfx900", "--threads", "256", "--vgprs", "16", "--max-threads", "256", "--waves-per-eu",
                  "1,3")
check("--waves-per-eu", rc == 0 and j.get("waves_per_simd") == 3 and j.get("blocks_per_sm") == 3
      and j.get("regs_per_block") == 68 * 64 * 4 and j.get("waves_per_eu_min") == 1 and j.get("waves_per_eu_max") == 3, j)
for args, flag in [(["--waves-per-eu", "4,3"], "--waves-per-eu"), (["--waves-per-eu", "0"], "--waves-per-eu"),
                   (["--flat-workgroup-size", "64"], "--flat-workgroup-size"),
                   (["--flat-workgroup-size", "1,128", "--max-threads", "256"], "--max-threads"),
                   (["--flat-workgroup-size", "512,1024"], "--threads"), (["--model", "llvm20"], "--model")]:
    rc, out, err = run(["report", "--arch", "gfx900", "--threads", "256", "--vgprs", "16"] + args)
    check(f"usage {args}", rc == 2 and err.startswith(f"gpuocc: {flag}:"), (rc, err))
for args in (["--no-trap-handler"], ["--waves-per-eu", "2"], ["--model", "llvm19"]):
    rc, out, err = run(["report", "--arch", "H100", "--threads", "256", "--regs", "16"] + args)
    check(f"AMD only {args}", rc == 2 and "AMD only" in err, (rc, err))

# gfx1100 in wave32 (the default; WGP mode: 4 SIMDs, 16 slots each, 1536 VGPRs per lane in granules of 24 for
# wave32, 128 KiB LDS per WGP), 256 threads = 8 waves, 96 VGPRs, 16 KiB LDS:
#   VGPRs 1536 / 96 = 16 waves -> 16 x 4 / 8 = 8; slots 64 / 8 = 8; LDS 131072 / 16384 = 8; barriers 32
#   -> 8 workgroups per WGP, 64 of 64 waves; LLVM: LDS allows 8 = 64 waves / 4 SIMDs = 16 waves/SIMD.
rc, j, _ = report("--arch", "gfx1100", "--threads", "256", "--vgprs", "96", "--lds", "16K")
check("gfx1100 wave32", rc == 0 and j.get("wave_size") == 32 and j.get("blocks_per_sm") == 8
      and j.get("waves_per_simd") == 16 and j.get("occupancy") == 1.0
      and j.get("limiters") == ["warps", "registers", "shared_memory"], j)
# The runtime's answer, wave64 (HIP: cap 16 waves per SIMD; comgr granule 12 of 768 wave64 VGPRs: 768 / 96 = 8
# waves; 4 SIMDs x 8 x 64 / 256 = 8 blocks; newest rules: the LDS of the WGP, 131072 / 16384 = 8).  Before ROCm 7
# the budget is one workgroup's limit: 65536 / 16384 = 4 blocks.
rc, j, _ = report("--arch", "gfx1100", "--threads", "256", "--vgprs", "96", "--lds", "16K", "--wave-size", "64",
                  "--model", "runtime")
check("gfx1100 runtime", rc == 0 and j.get("model") == "runtime" and j.get("blocks_per_sm") == 8
      and j.get("limiters") == ["registers", "shared_memory"] and j.get("rocm") is None, j)
rc, j, _ = report("--arch", "gfx1100", "--threads", "256", "--vgprs", "96", "--lds", "16K", "--wave-size", "64",
                  "--model", "runtime", "--rocm", "6.2")
check("gfx1100 runtime ROCm 6.2", rc == 0 and j.get("blocks_per_sm") == 4 and j.get("rocm") == "6.2"
      and j.get("limiters") == ["shared_memory"], j)
# CSV: the same keys as NVIDIA's report, the other vendor's fields empty
rc, out, _ = run(["report", "--arch", "gfx1100", "--threads", "256", "--vgprs", "96", "--csv"])
rows = list(csv.reader(io.StringIO(out)))
_, nv, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "64", "--csv"])
nrows = list(csv.reader(io.StringIO(nv)))
check("CSV header is the same for both vendors", rc == 0 and rows[0] == nrows[0], (rows[:1], nrows[:1]))
r, n = dict(zip(rows[0], rows[1])), dict(zip(nrows[0], nrows[1]))
check("CSV: not applicable is empty", r["carveout"] == "" and n["agprs"] == "" and n["model"] == ""
      and n["limit_sgprs"] == "-1" and r["sgprs"] == "", (r, n))  # sgprs not given: empty, as batch reads it

# flags of the other vendor: exit 2, the flag named
for args, flag in [(["--arch", "H100", "--threads", "256", "--vgprs", "64"], "--vgprs"),
                   (["--lds", "1K", "--arch", "H100", "--threads", "256", "--regs", "64"], "--lds"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--carveout", "50"], "--carveout"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--no-optin"], "--no-optin"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--barriers", "2"], "--barriers"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--regs", "64"], "--regs"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--rocm", "6.2"], "--rocm"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--model", "runtime", "--rocm", "6"],
                    "--rocm"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--wave-size", "32"], "--wave-size"),
                   (["--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--model", "hip"], "--model"),
                   (["--arch", "gfx906", "--threads", "256", "--vgprs", "64", "--agprs", "8"], "--agprs"),
                   (["--arch", "MI300X", "--threads", "256"], "--vgprs")]:
    rc, out, err = run(["report"] + args)
    check(f"usage error names {flag}: {' '.join(args)}", rc == 2 and out == "" and err.startswith(f"gpuocc: {flag}:")
          and len(err.strip().splitlines()) == 1, (rc, err))
# a workgroup larger than the flat maximum the kernel was compiled for does not launch (HIP refuses it): the
# library's answer, 0 workgroups with threads over 256, as for a workgroup over the device's own maximum
rc, j, err = report("--arch", "MI300X", "--threads", "512", "--vgprs", "64", "--max-threads", "256")
check("above the flat maximum: cannot run, threads over 256", rc == 1 and j and j["blocks_per_sm"] == 0
      and (j["exceeded"], j["exceeded_limit"]) == ("threads", 256) and "over" in err, (rc, j, err))
# the input over a limit in AMD's own words, with its limit derived by hand (docs/amd.md's figures): MI300X,
# 1024 threads = 16 wave64, 4 per SIMD, 512 unified VGPRs a lane: 128 a wave; AGPRs after 100 arch VGPRs: 28;
# 64 KiB of LDS a workgroup; 1024 threads the largest workgroup
for args, exceeded, limit, words in [
        (["--threads", "1024", "--vgprs", "200"], "regs", 128,
         "VGPRs 200 is over 128, the most VGPRs per lane with which one workgroup of 1024 threads fits"),
        (["--threads", "1024", "--vgprs", "100", "--agprs", "120"], "agprs", 28,
         "AGPRs 120 is over 28, the most AGPRs per lane with which one workgroup of 1024 threads fits (beside 100 VGPRs)"),
        (["--threads", "256", "--vgprs", "64", "--lds", "70K"], "smem_static", 65536,
         "LDS 71680 B is over the 65536 B one workgroup may have"),
        (["--threads", "2048", "--vgprs", "64"], "threads", 1024, "threads 2048 is over the largest workgroup, 1024 threads")]:
    rc, j, err = report("--arch", "MI300X", *args)
    check(f"over a limit in AMD's words: {' '.join(args)}", rc == 1 and j.get("blocks_per_sm") == 0
          and (j.get("exceeded"), j.get("exceeded_limit")) == (exceeded, limit) and err.strip().endswith(words)
          and not re.search(r"\bblock\b|smem|agprs|regs ", err), (rc, j.get("exceeded"), j.get("exceeded_limit"), err))
# the barriers axis on AMD: every point would be the same answer (AMD's rules count no named barriers), refused
# as --barriers is; the other axes sweep
for command in (["sweep"], ["sweep", "--steps"], ["plot", "--terminal"]):  # plot takes --regs, not --vgprs
    regs = ["--regs" if command[0] == "plot" else "--vgprs", "64"]
    rc, out, err = run(command + ["--arch", "MI300X", "--threads", "256", *regs, "--axis", "barriers"])
    check(f"{' '.join(command)} --axis barriers on AMD: usage error", rc == 2 and out == "" and
          err.startswith("gpuocc: --axis: barriers: NVIDIA and Intel only") and len(err.strip().splitlines()) == 1, (rc, err))
    rc, out, err = run(command + ["--arch", "MI300X", "--threads", "256", *regs, "--axis", "regs"])
    check(f"{' '.join(command)} --axis regs on AMD answers", rc == 0 and out != "" and err == "", (rc, err))
# VGPRs a lane cannot address (gfx942: 512 unified, 256 arch): the launch cannot run, exit 1
rc, j, err = report("--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--agprs", "300")
check("too many AGPRs: 0 blocks, exit 1", rc == 1 and j.get("blocks_per_sm") == 0 and "cannot run" in err, (rc, j, err))
# the flat workgroup maximum enters LLVM's occupancy: MI300X, 64 threads, 16 KiB LDS: compiled for 64 threads,
# LDS allows 4 workgroups of 1 wave = 4 waves over 4 SIMDs = 1 wave/SIMD; compiled for 1024 (16 waves each),
# min(4, 32 / 16 = 2) = 2 workgroups x 16 waves / 4 SIMDs = 8.
rc, j, _ = report("--arch", "MI300X", "--threads", "64", "--vgprs", "8", "--lds", "16K")
rc2, j2, _ = report("--arch", "MI300X", "--threads", "64", "--vgprs", "8", "--lds", "16K", "--max-threads", "1024")
check("flat maximum", j.get("waves_per_simd") == 1 and j2.get("waves_per_simd") == 8 and j2.get("max_threads") == 1024
      and j.get("blocks_per_sm") == j2.get("blocks_per_sm") == 4, (j, j2))

# devices: AMD entries with their fields
rc, out, _ = run(["devices", "MI300X", "--json"])
d = json.loads(out) if rc == 0 else []
check("devices MI300X", len(d) == 1 and d[0]["vendor"] == "amd" and d[0]["arch"] == "gfx942" and d[0]["sm_count"] == 304
      and d[0]["simds_per_cu"] == 4 and d[0]["waves_per_simd"] == 8 and d[0]["vgprs_per_simd"] == 512
      and d[0]["vgpr_granule"] == 8 and d[0]["agpr_file"] == "unified" and d[0]["wave_sizes"] == [64]
      and d[0]["sgprs_per_simd"] == 800 and "regs_per_sm" not in d[0], d)
rc, out, _ = run(["devices", "gfx1100", "--json"])
d = json.loads(out) if rc == 0 else []
check("devices gfx1100", any(e["name"] == "gfx1100" and e["wave_sizes"] == [32, 64] and e["cus_per_wgp"] == 2
                             and e["sm_count"] is None for e in d) and all(e["arch"] == "gfx1100" for e in d), d)
rc, out, _ = run(["devices", "sm_90", "--json"])
check("an NVIDIA architecture does not match AMD targets", rc == 0 and all(e["vendor"] == "nvidia" for e in json.loads(out)),
      out[:300])
rc, out, _ = run(["devices"])
check("devices table: one header per vendor", rc == 0 and out.count("\nname ") == 2 and "gfx942 " in out
      and "sm_966" not in out, out[-500:])

# batch: AMD rows with their columns, NVIDIA rows beside them; the values are those derived above
src = ("arch,threads,regs,agprs,sgprs,smem_static,smem_dynamic,wave_size,max_threads,carveout,rocm,id\n"
       "MI300X,256,128,0,32,32K,,,,,,a\n"                  # MI300X above: 2 workgroups, 2 waves/SIMD, LDS
       "gfx906,256,16,,102,,,,,,,b\n"                      # gfx906 above: SGPRs limit, 6
       "gfx1100,256,96,,,16K,,,,,,c\n"                     # gfx1100 wave32 above: 8, 16 waves/SIMD
       "MI300X,64,8,,,8K,8K,,1024,,,d\n"                   # LDS 64K / 16K = 4; LLVM: static only, flat 1024: 8
       "H100,256,64,,,,,,,,,e\n"                           # the seeds' Example 1: 4 blocks, registers
       "H100,256,64,4,,,,,,,,f\n"                          # an AMD cell on an NVIDIA row
       "MI300X,256,64,,,,,,,50,,g\n"                       # an NVIDIA cell on an AMD row
       "MI300X,256,64,,,,,32,,,,h\n"                       # gfx942 runs wave64 only
       "gfx906,256,64,8,,,,,,,,i\n"                        # no AGPRs on gfx906
       "MI300X,512,64,,,,,,256,,,j\n"                      # above the flat maximum: cannot run
       "MI300X,256,64,,,,,,,,6.2,k\n")                     # rocm without model runtime
rc, out, err = run(["batch"], src)
t = list(csv.reader(io.StringIO(out)))
hdr = t[0] if t else []
rows = {dict(zip(hdr, r))["id"]: dict(zip(hdr, r)) for r in t[1:]} if hdr else {}
check("batch exit 1 (bad rows)", rc == 1, err)
check("batch header: AMD results before exceeded, line and error", hdr[-9:] == [
      "model", "waves_per_simd", "limit_sgprs", "workgroups_per_gpu", "limit_virtual_resources", "exceeded",
      "exceeded_limit", "line", "error"], hdr)
check("batch rows have the header's width", all(len(r) == len(hdr) for r in t[1:]), t)
exp = {"a": ("2", "2", "8", "shared_memory", "compiler"), "b": ("6", "6", "6", "sgprs", "compiler"),
       "c": ("8", "16", "-1", "warps|registers|shared_memory", "compiler"), "d": ("4", "8", "-1", "shared_memory", "compiler"),
       "e": ("4", "", "-1", "registers", "")}
for k, (blocks, waves, lsg, lim, model) in exp.items():
    r = rows.get(k, {})
    check(f"batch row {k}", r.get("status") == "ok" and r.get("blocks_per_sm") == blocks and r.get("waves_per_simd") == waves
          and r.get("limit_sgprs") == lsg and r.get("limiters") == lim and r.get("model") == model, r)
# a bad row's status and input are the library's (gfx906 has no AGPRs: the input gpuocc_occupancy names; a
# release without its model: rocm); NVIDIA's carveout the library refuses on AMD too, with no input to name
for k, col, status, exceeded in [("f", "agprs", "argument", "agprs"), ("g", "carveout", "argument", ""),
                                 ("h", "wave_size", "argument", "wave_size"), ("i", "agprs", "argument", "agprs"),
                                 ("k", "rocm", "argument", "rocm")]:
    r = rows.get(k, {})
    check(f"batch bad row {k} names {col}", r.get("status") == status and r.get("error", "").startswith(col + ":")
          and r.get("exceeded") == exceeded and r.get("blocks_per_sm") == "" and r.get("model") == "", r)
r = rows.get("j", {})
check("batch row j above the flat maximum: 0 workgroups, threads over 256", r.get("status") == "ok"
      and r.get("blocks_per_sm") == "0" and (r.get("exceeded"), r.get("exceeded_limit")) == ("threads", "256"), r)
errs = err.strip().splitlines()
check("batch: the id column named once as not read, then one stderr line per bad row",
      errs[:1] == ["gpuocc: header: columns not read: id"] and len(errs) == 6
      and all(e.startswith("gpuocc: line ") for e in errs[1:]), err)
# the compiler inputs as columns: row x as --no-trap-handler (7), row y LLVM 19's table (7), row z waves per EU
# 1,3 on a flat range 1..256 (3), row w a flat minimum above the launch (an error naming the column)
src = ("arch,threads,regs,sgprs,model,trap_handler,waves_per_eu_min,waves_per_eu_max,max_threads,flat_workgroup_size_min\n"
       "gfx906,256,16,102,,-1,,,,\ngfx906,256,16,102,llvm19,,,,,\ngfx900,256,16,,,,1,3,256,1\n"
       "gfx900,64,16,,,,,,256,128\n")
rc, out, err = run(["batch"], src)
t = list(csv.reader(io.StringIO(out)))
col = {n: i for i, n in enumerate(t[0])} if t else {}
check("batch compiler inputs", rc == 1 and [r[col["blocks_per_sm"]] for r in t[1:4]] == ["7", "7", "3"]
      and [r[col["waves_per_simd"]] for r in t[1:4]] == ["7", "7", "3"]
      and t[4][col["error"]].startswith("flat_workgroup_size_min:"), (t, err))
# a model column of the input: its cells choose, and the results do not repeat it
src = "arch,threads,regs,smem_static,wave_size,model,rocm\ngfx1100,256,96,16K,64,runtime,6.2\ngfx1100,256,96,16K,64,runtime,\n"
rc, out, _ = run(["batch"], src)
t = list(csv.reader(io.StringIO(out)))
check("batch with a model column", rc == 0 and t[0].count("model") == 1 and [r[t[0].index("blocks_per_sm")] for r in t[1:]]
      == ["4", "8"], t)
rc, out, _ = run(["batch", "--json"], "arch,threads,regs,sgprs,smem_static\nMI300X,256,128,32,32K\nH100,256,64,,\n")
objs = [json.loads(l) for l in out.splitlines()]
check("batch JSON", rc == 0 and objs[0]["model"] == "compiler" and objs[0]["waves_per_simd"] == 2
      and objs[0]["limit_sgprs"] == 8 and objs[1]["model"] is None and objs[1]["waves_per_simd"] is None
      and objs[1]["limit_sgprs"] is None, objs)

# sweep: MI300X, 256 threads (4 waves), 16 KiB LDS (65536 / 16384 = 4 workgroups), VGPRs 0..256 by 32: the VGPRs
# allow 4 SIMDs x min(8, 512 / v) / 4 = min(8, 512 / v) workgroups: none for 0, 8 (32, 64), 5 (96), 4 (128),
# 3 (160), 2 (192, 224, 256); LLVM's waves/SIMD are the same numbers capped by LDS (4).
rc, out, err = run(["sweep", "--arch", "MI300X", "--threads", "256", "--lds", "16K", "--axis", "regs", "--from", "0",
                    "--to", "256", "--step", "32", "--csv"])
t = list(csv.reader(io.StringIO(out)))
hdr = t[0] if t else []
pts = [dict(zip(hdr, r)) for r in t[1:]]
check("AMD sweep", rc == 0 and [p["blocks_per_sm"] for p in pts] == ["4", "4", "4", "4", "4", "3", "2", "2", "2"]
      and [p["waves_per_simd"] for p in pts] == ["4", "4", "4", "4", "4", "3", "2", "2", "2"]
      and all(p["model"] == "compiler" and p["arch"] == "MI300X" for p in pts), (err, pts[:2]))
# its rows are batch's: the launch columns fed to batch give the same results
launch = hdr[:hdr.index("status")] if "status" in hdr else []
src = ",".join(launch) + "\n" + "".join(",".join(r[:len(launch)]) + "\n" for r in t[1:])
rc, bout, _ = run(["batch"], src)
bt = list(csv.reader(io.StringIO(bout)))
check("AMD sweep rows join with batch output", rc == 0 and bt and bt[0][:-4] == hdr
      and [r[:-4] for r in bt[1:]] == t[1:], (bt[:2], t[:2]))
rc, out, err = run(["sweep", "--arch", "gfx906", "--threads", "256", "--vgprs", "16", "--axis", "regs", "--from", "100",
                    "--to", "102", "--sgprs", "102", "--json"])
pts = json.loads(out) if rc == 0 else []
check("AMD sweep JSON", [(p["blocks_per_sm"], p["limit_sgprs"], p["waves_per_simd"]) for p in pts] == [(2, 6, 2)] * 3
      and pts[0]["sgprs"] == 102 and pts[0]["regs"] == 100, (err, pts))
# --steps: 129 VGPRs round to 136 (512 / 136 = 3 workgroups), 169 to 176 (2)
rc, out, err = run(["sweep", "--arch", "MI300X", "--threads", "256", "--lds", "16K", "--axis", "regs", "--steps", "--csv"])
steps = [(r["regs"], r["blocks_per_sm"]) for r in csv.DictReader(io.StringIO(out))]
check("AMD steps", rc == 0 and steps[:1] == [("0", "4")] and ("129", "3") in steps and ("169", "2") in steps,
      (err, steps))

# remarks: the fixtures clang-19 printed (tests/data/remarks/capture.sh); each figure checked against a plain
# reading of the same text here, and gpuocc's waves/SIMD (--model llvm19) against LLVM's where the launch is what the kernel was
# compiled for (flat maxima from kernels.cl and agprs.cl; OpenCL's default is 256)
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "remarks")
LABELS = {"SGPRs": "sgprs", "VGPRs": "vgprs", "AGPRs": "agprs", "ScratchSize [bytes/lane]": "scratch",
          "Occupancy [waves/SIMD]": "llvm_waves_per_simd", "SGPRs Spill": "sgpr_spills", "VGPRs Spill": "vgpr_spills",
          "LDS Size [bytes/block]": "smem_static", "Dynamic Stack": "dynamic_stack"}


def llvm_said(path):
    kernels = []
    for line in open(path, encoding="utf-8"):
        m = re.search(r"remark: (?:\S+:\d+:\d+: )?\s*([A-Za-z][^:]*): (.*?)(?: \[-Rpass-analysis=kernel-resource-usage\])?$",
                      line.rstrip("\n"))
        if not m or re.match(r"\s*\d+ \|", line):
            continue
        if m.group(1) == "Function Name":
            kernels.append({"name": m.group(2)})
        elif m.group(1) in LABELS:
            v = m.group(2)
            kernels[-1][LABELS[m.group(1)]] = {"True": 1, "False": 0}.get(v, None) if "Stack" in m.group(1) else int(v)
    return kernels


FLAT = {"lds_16k": 256, "vgpr_97": 128, "vgpr_200_wg1024": 1024, "sgpr_heavy": 64, "plain": 256, "lds_48k_wave": 64,
        "with_call": 256, "agpr_mix": 256, "agpr_only": 512}
for log, arch in [("gfx942.log", "MI300X"), ("gfx1100.log", "gfx1100"), ("gfx906_llc.log", "gfx906")]:
    want = llvm_said(os.path.join(DATA, log))
    check(f"{log}: read here", len(want) in (7, 9), want)
    for flat in sorted(set(FLAT.values())):
        rc, out, err = run(["remarks", os.path.join(DATA, log), "--arch", arch, "--threads", str(flat),
                            "--max-threads", str(flat), "--model", "llvm19", "--json"])
        got = json.loads(out) if rc == 0 else []
        check(f"{log} at {flat}: one row per kernel", rc == 0 and [g["name"] for g in got] == [w["name"] for w in want],
              (rc, err))
        for g, w in zip(got, want):
            same = all(g[k] == w.get(k, None) for k in LABELS.values())
            check(f"{log} {w['name']}: every figure as LLVM printed it", same and g["status"] == "ok",
                  {k: (g[k], w.get(k)) for k in LABELS.values() if g[k] != w.get(k)})
            if FLAT[w["name"]] == flat:
                check(f"{log} {w['name']}: gpuocc's waves/SIMD = LLVM's", g["waves_per_simd"] == w["llvm_waves_per_simd"],
                      (g["waves_per_simd"], w["llvm_waves_per_simd"]))
rc, out, err = run(["remarks", os.path.join(DATA, "hip_two_targets.log"), "--arch", "gfx942", "--threads", "256", "--csv"])
t = list(csv.reader(io.StringIO(out)))
check("remarks CSV (two targets' remarks: exit 1, every row kept)", rc == 1 and "line 23: kernel '_Z5saxpyPfPKff' again" in err and t[0][:3] == ["name", "short_name", "arch"] and t[0][-1] == "file"
      and [r[1] for r in t[1:]] == ["saxpy", "_Z5tiledILi1024EEvPf", "saxpy", "_Z5tiledILi1024EEvPf"] and all(len(r) == len(t[0]) for r in t), t)
# One clang command for gfx942 and gfx1100 (capture.sh): each target's remarks in turn, naming neither; LLVM's
# Occupancy lines say 16 and 12 (gfx1100, lines 1-22), then 8 and 4 (gfx942, lines 23-46).  Read with one --arch,
# the second run of remarks is named on stderr (the line, the first one, --arch, what to do), exit 1, every row kept.
TWO = os.path.join(DATA, "hip_light_heavy.log")
want = llvm_said(TWO)
check("hip_light_heavy.log: LLVM's occupancy per target", [w["llvm_waves_per_simd"] for w in want] == [16, 12, 8, 4], want)
for arch in ("gfx1100", "gfx942", "MI300X"):
    rc, out, err = run(["remarks", TWO, "--arch", arch, "--threads", "256", "--json"])
    got = json.loads(out) if out else []
    check(f"two targets' remarks, --arch {arch}: every row, exit 1", rc == 1 and
          [(g["name"], g["line"]) for g in got] == [("_Z5lightPfPKf", 1), ("_Z5heavyPfPKfi", 12), ("_Z5lightPfPKf", 23),
                                                    ("_Z5heavyPfPKfi", 35)], (rc, err))
    check(f"two targets' remarks, --arch {arch}: the second run named once, with what to do", err ==
          f"gpuocc: {TWO}: line 23: kernel '_Z5lightPfPKf' again (first at line 1): another compile's remarks start "
          f"here (clang prints each --offload-arch's in turn and names none), yet every row is answered for --arch "
          f"{arch}; give each target's remarks on their own (one --offload-arch per compile)\n", err)
# What it says to do gives LLVM's answers: each target's remarks on their own, at HIP's flat workgroup size (1024)
lines = open(TWO, encoding="utf-8").readlines()
for arch, part, llvm in [("gfx1100", lines[:22], want[:2]), ("gfx942", lines[22:], want[2:])]:
    rc, out, err = run(["remarks", "-", "--arch", arch, "--threads", "256", "--max-threads", "1024", "--model", "llvm19",
                        "--json"], "".join(part))
    got = json.loads(out) if rc == 0 else []
    check(f"{arch}'s remarks alone: LLVM's waves/SIMD, exit 0", rc == 0 and err == "" and
          [g["waves_per_simd"] for g in got] == [w["llvm_waves_per_simd"] for w in llvm], (rc, err, got))
# The key is the whole "Function Name" line: the same name at another location is another kernel; a third run
# is named too; the llc form (no location) by its name
K = "{0}: remark: Function Name: {1} [-Rpass-analysis=kernel-resource-usage]\n" \
    "{0}: remark:     SGPRs: 8 [-Rpass-analysis=kernel-resource-usage]\n" \
    "{0}: remark:     VGPRs: 4 [-Rpass-analysis=kernel-resource-usage]\n" \
    "{0}: remark:     Occupancy [waves/SIMD]: 8 [-Rpass-analysis=kernel-resource-usage]\n"
rc, out, err = run(["remarks", "--arch", "gfx942", "--threads", "64", "--csv"], K.format("a.cl:1:1", "k") + K.format("b.cl:1:1", "k"))
check("remarks: one name at two locations, no notice", rc == 0 and err == "" and out.count("\n") == 3, (rc, err))
rc, out, err = run(["remarks", "--arch", "gfx942", "--threads", "64", "--csv"], K.format("a.cl:1:1", "k") * 3)
check("remarks: three runs, two notices", rc == 1 and out.count("\n") == 4 and
      [l.split(": kernel")[0] for l in err.splitlines()] == ["gpuocc: -: line 5", "gpuocc: -: line 9"] and
      "(first at line 5)" in err.splitlines()[1], (rc, err))
L = "remark: <unknown>:0:0: Function Name: {0}\nremark: <unknown>:0:0:     SGPRs: 8\nremark: <unknown>:0:0:     VGPRs: 4\n" \
    "remark: <unknown>:0:0:     Occupancy [waves/SIMD]: 8\n"
rc, out, err = run(["remarks", "--arch", "gfx906", "--threads", "64", "--csv"], L.format("k") + L.format("j") + L.format("k"))
check("remarks: llc's form, the name again", rc == 1 and err.startswith("gpuocc: -: line 9: kernel 'k' again (first at line 1)"),
      (rc, err))
for args, flag, code in [(["--threads", "256"], "--arch", 2), (["--arch", "H100", "--threads", "256"], "--arch", 2),
                         (["--arch", "gfx942"], "--threads", 2)]:
    rc, out, err = run(["remarks", os.path.join(DATA, "gfx942.log")] + args)
    check(f"remarks usage {args}", rc == code and out == "" and err.startswith(f"gpuocc: {flag}:"), (rc, err))
rc, out, err = run(["remarks", "--arch", "gfx942", "--threads", "256"], "no remarks here\n")
check("remarks: no kernel, exit 2", rc == 2 and "no kernel" in err, (rc, err))
rc, out, err = run(["remarks", "--arch", "gfx942", "--threads", "256"],
                   "remark: k.cl:1:0: Function Name: k\nremark: k.cl:1:0:     SGPRs: 8\n")
check("remarks: cut off, exit 2 naming the line", rc == 2 and "-: line 1:" in err, (rc, err))
rc, out, err = run(["remarks", os.path.join(DATA, "gfx942.log"), "/nonexistent.log", "--arch", "gfx942", "--threads", "64",
                    "--json"])
check("remarks: one unreadable file of two, exit 1", rc == 1 and len(json.loads(out)) == 9 and "/nonexistent.log" in err,
      (rc, err))

finish("test_cli_amd")
