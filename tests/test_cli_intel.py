#!/usr/bin/env python3
"""Intel in the CLI: the sweep and plot axes sub_group and grf, Intel's words in every text a
person reads (report, sweep, plot, the stderr line of a launch that cannot run), Intel's sweep rows (its
launch columns, read back by `gpuocc batch`), and batch's workgroups_per_gpu.  Every expected number is
derived by hand from docs/intel.md's rules and the catalog constants docs/intel.md and docs/sources.md give
(I1: the calculator's device table; I3: the runtime's Xe3 threads per XVE), never from gpuocc's output.
Usage: test_cli_intel.py GPUOCC"""
import csv
import io
import json
import re
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC = sys.argv[1]


def run(args, stdin=None):
    p = subprocess.run([GPUOCC] + args, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def answers(args):
    """(value, blocks_per_sm, warps_per_sm, occupancy, limiters) of a sweep's CSV rows, the axis' column."""
    axis = args[args.index("--axis") + 1]
    column = {"smem": "smem_dynamic", "slm": "smem_dynamic", "sub-group": "sub_group"}.get(axis, axis)
    rc, out, err = run(["sweep"] + args + ["--csv"])
    return rc, [(int(r[column]), int(r["blocks_per_sm"]), int(r["warps_per_sm"]), float(r["occupancy"]),
                 r["limiters"]) for r in rows(out)], err


# ---- the sub_group axis ----
# dg2 (I1 Xe-HPG): 16 XVEs x 8 threads = 128 hardware threads per Xe-core, 128 KB SLM, WG cap 128, 128 barrier
# registers, sub-groups 8, 16, 32.  256 work-items with 32 KB SLM: SLM 128 / 32 = 4 work-groups.
#   sub-group 8:  ceil(256 / 8) = 32 threads per WG, 128 / 32 = 4 -> 4 WGs (threads = SLM), 128 threads, 100 %
#   sub-group 16: 16 threads, 128 / 16 = 8 -> SLM's 4, 64 threads, 50 %
#   sub-group 32: 8 threads, 16 -> 4, 32 threads, 25 %
rc, got, err = answers(["--arch", "dg2", "--threads", "256", "--slm", "32K", "--axis", "sub_group"])
check("dg2 sub_group sweep", rc == 0 and got == [(8, 4, 128, 1.0, "warps|shared_memory"),
                                                 (16, 4, 64, 0.5, "shared_memory"),
                                                 (32, 4, 32, 0.25, "shared_memory")], (rc, got, err))
# pvc (I1 Xe-HPC): sub-groups 16 and 32 only, so 8 is no point; 8 XVEs x 8 = 64 threads, 128 KB SLM.
# 512 work-items, 64 KB SLM (a size of its own): SLM 2 WGs.  sub-group 16: 32 threads, 64 / 32 = 2 -> 2 WGs,
# 64 threads, 100 % (threads = SLM); 32: 16 threads, 4 -> 2, 32 threads, 50 %.
rc, got, err = answers(["--arch", "pvc", "--threads", "512", "--slm", "64K", "--axis", "sub-group"])
check("pvc sub_group sweep: the device's sizes only", rc == 0 and got == [(16, 2, 64, 1.0, "warps|shared_memory"),
                                                                         (32, 2, 32, 0.5, "shared_memory")],
      (rc, got, err))
rc, got, err = answers(["--arch", "pvc", "--threads", "512", "--axis", "sub_group", "--from", "8", "--to", "8"])
check("pvc sub_group 8 alone: no point, exit 2", rc == 2 and "sub-group" in err, (rc, got, err))

# ---- the grf axis ----
# pvc, 256 work-items (16 threads per WG): 128 GRF: 64 / 16 = 4 WGs, 100 %; 256 GRF (large GRF halves the
# threads): 32 / 16 = 2 WGs, 32 of 64 threads, 50 %, limited by the GRF mode (`registers`).
rc, got, err = answers(["--arch", "pvc", "--threads", "256", "--axis", "grf"])
check("pvc grf sweep", rc == 0 and got == [(128, 4, 64, 1.0, "warps"), (256, 2, 32, 0.5, "registers")],
      (rc, got, err))
# tgllp (I6: no large GRF, grf_max 128): one point.
rc, got, err = answers(["--arch", "tgllp", "--threads", "256", "--axis", "grf"])
check("tgllp grf sweep: 128 only", rc == 0 and [g[0] for g in got] == [128], (rc, got, err))
# ptl with the runtime's model (I3: Xe3 threads per XVE 10 up to 96 GRF, 8 to 128, 6 to 160, 5 to 192, 4 to
# 256; 8 XVEs), 256 work-items = 16 threads per WG; occupancy over the full 8 x 10 = 80 threads:
#   32..96: 80 / 16 = 5 WGs, 80 threads, 100 %; 128: 64 / 16 = 4, 80 %; 160: 48 / 16 = 3, 60 %;
#   192: 40 / 16 = 2, 40 %; 224, 256: 32 / 16 = 2, 40 %
rc, got, err = answers(["--arch", "ptl", "--threads", "256", "--axis", "grf", "--model", "runtime"])
want = [(g, 5, 80, 1.0, "warps") for g in (32, 64, 96)] + [(128, 4, 64, 0.8, "registers"),
                                                         (160, 3, 48, 0.6, "registers"),
                                                         (192, 2, 32, 0.4, "registers"),
                                                         (224, 2, 32, 0.4, "registers"),
                                                         (256, 2, 32, 0.4, "registers")]
check("ptl runtime grf sweep (Xe3 table)", rc == 0 and got == want, (rc, got, err))
# its steps at unit resolution: the first GRF count of each row of the table past the first
rc, got, err = answers(["--arch", "ptl", "--threads", "256", "--axis", "grf", "--model", "runtime", "--steps",
                        "--from", "1"])
check("ptl runtime grf steps", rc == 0 and [g[:3] for g in got] == [(1, 5, 80), (97, 4, 64), (129, 3, 48),
                                                                   (161, 2, 32)], (rc, got, err))

# ---- axes that do not apply ----
rc, out, err = run(["sweep", "--arch", "pvc", "--threads", "256", "--axis", "regs"])
check("regs axis refused on Intel", rc == 2 and "grf" in err and out == "", (rc, out, err))
for arch in ("A100", "MI300X"):
    for axis in ("sub_group", "grf"):
        rc, out, err = run(["sweep", "--arch", arch, "--threads", "256", "--regs", "32", "--axis", axis])
        check(f"{axis} axis refused on {arch}", rc == 2 and "Intel only" in err and out == "", (rc, out, err))
rc, out, err = run(["plot", "--arch", "A100", "--threads", "256", "--regs", "32", "--axis", "grf", "--terminal"])
check("plot grf axis refused on NVIDIA", rc == 2 and "Intel only" in err, (rc, out, err))

# ---- Intel's sweep rows are batch's: its launch columns, read back ----
rc, out, err = run(["sweep", "--arch", "max-1550", "--threads", "512", "--slm", "64K", "--axis", "sub_group",
                    "--csv"])
swept = rows(out)
launch = ["arch", "threads", "sub_group", "grf", "smem_static", "smem_dynamic", "barriers", "max_threads", "model"]
check("Intel sweep: Intel's launch columns", rc == 0 and out.splitlines()[0].split(",")[:10] == launch + ["status"],
      (rc, out[:300], err))
src = ",".join(launch) + "\n" + "".join(",".join(r[c] for c in launch) + "\n" for r in swept)
rc, out, err = run(["batch"], src)
back = rows(out)
results = [k for k in swept[0] if k not in launch] if swept else []
check("Intel sweep rows read back by batch", rc == 0 and len(back) == len(swept) == 2 and
      all(b[k] == s[k] for b, s in zip(back, swept) for k in results), (rc, out, err))
# max-1550: 128 Xe-cores; the calculator's GPU-wide count is blocks_per_sm x 128 = 2 x 128 = 256 for both
check("Intel sweep workgroups_per_gpu", [r["workgroups_per_gpu"] for r in swept] == ["256", "256"], swept)

# ---- batch: workgroups_per_gpu ----
# max-1550 (128 Xe-cores), pvc's rules:
#  calculator, 256 work-items, no SLM: 64 / 16 = 4 WGs per Xe-core -> 4 x 128 = 512
#  runtime, 128 work-items (8 threads), 48 KB SLM (a runtime size, I5): per GPU min(128 x 64 / 8 = 1024,
#    floor(64 / 8) x 128 = 1024, 128 x (32 barrier registers / 1) = 4096, 128 x 128 KB / 48 KB = 341) = 341
#  runtime, 512 work-items (32 threads), 48 KB: min(128 x 64 / 32 = 256, 2 x 128, 4096, 341) = 256
#  pvc (no Xe-core count): unknown; A100: not Intel's
src = ("arch,threads,regs,sub_group,grf,slm,model\n"
       "max-1550,256,,16,128,0,calculator\nmax-1550,128,,16,128,48K,runtime\nmax-1550,512,,16,128,48K,runtime\n"
       "pvc,256,,,,,\nA100,256,32,,,,\n")
rc, out, err = run(["batch"], src)
got = [r.get("workgroups_per_gpu") for r in rows(out)]
check("batch workgroups_per_gpu (CSV)", rc == 0 and got == ["512", "341", "256", "", ""], (rc, out, err))
check("batch workgroups_per_gpu after limit_sgprs, then limit_virtual_resources, exceeded, line and error",
      out.splitlines()[0].endswith(",limit_sgprs,workgroups_per_gpu,limit_virtual_resources,exceeded,exceeded_limit,line,error"), out[:400])
rc, out, err = run(["batch", "--json"], src)
got = [json.loads(line).get("workgroups_per_gpu", "missing") for line in out.splitlines()]
check("batch workgroups_per_gpu (JSON)", rc == 0 and got == [512, 341, 256, None, None], (rc, out, err))
rc, out, err = run(["batch", "--json"], "arch,threads,sub_group\nmax-1550,0,16\n")
check("batch workgroups_per_gpu null on a bad row", rc == 1 and json.loads(out)["workgroups_per_gpu"] is None,
      (rc, out, err))

# ---- Intel's words ----
# NVIDIA's and AMD's words a person must not read about an Intel device ("GRF registers" is Intel's own)
NVIDIA_WORDS = re.compile(r"\bblocks?\b|\bwarps?\b|(?<!GRF )\bregisters\b|shared memory|\bSMs?\b|multiprocessor|"
                          r"\bthreads/block\b|\bworkgroups?\b|\bwaves?\b|\bLDS\b|\bCUs?\b|shared_memory")


def nvidia_words(text):
    return sorted(set(NVIDIA_WORDS.findall(text)))


# pvc, 512 work-items, 64 KB SLM, 256 GRF, barriers: 32 threads per WG; threads 64 / 32 = 2, large GRF 32 / 32
# = 1, SLM 128 / 64 = 2, cap 64, barriers 64 -> 1 WG, limited by the GRF mode; 32 of 64 threads, 50 %.
rc, out, err = run(["report", "--arch", "pvc", "--threads", "512", "--sub-group", "16", "--slm", "64K", "--grf",
                    "256", "--barriers", "1"])
check("report pvc: Intel's words", rc == 0 and nvidia_words(out) == [] and "limited by  GRF\n" in out and
      "limits      hardware threads 2, GRF 1, SLM 2, work-group cap 64, barriers 64 (work-groups per Xe-core)\n"
      in out and "32 of 64 hardware threads per Xe-core" in out, (nvidia_words(out), out))
# its next step: 256 work-items (16 threads): threads 4, GRF 32 / 16 = 2, SLM 2 -> 2 work-groups
check("report pvc: next step in Intel's words",
      "next step   work-items per work-group: 512 -> 256 (shed 256) for 2 work-groups/Xe-core\n" in out, out)
# dg2, 64 work-items (4 threads), 60 KB SLM (rounded to 64 KB, I1 TG_SLM_Sizes): SLM 2 WGs; 32 KB gives 4
rc, out, err = run(["report", "--arch", "dg2", "--threads", "64", "--slm", "60K"])
check("report dg2 SLM-bound: Intel's words", rc == 0 and nvidia_words(out) == [] and "limited by  SLM\n" in out and
      "SLM per work-group (bytes): 61440 -> 32768 (shed 28672) for 4 work-groups/Xe-core" in out,
      (nvidia_words(out), out))
# a launch that cannot run: tgllp has no large GRF (grf_max 128, I6); its limit named, in Intel's words
rc, out, err = run(["report", "--arch", "tgllp", "--threads", "64", "--grf", "256"])
check("report tgllp grf 256: cannot run, Intel's words", rc == 1 and nvidia_words(out + err) == [] and
      "0 work-groups fit on an Xe-core (limited by GRF)" in err and "exceeded    grf 256" in out,
      (nvidia_words(out + err), out, err))
rc, out, err = run(["report", "--arch", "tgllp", "--threads", "64", "--grf", "256", "--json"])
j = json.loads(out) if out else {}
check("report JSON: exceeded grf", (j.get("exceeded"), j.get("exceeded_limit"), j.get("limiters")) ==
      ("grf", 128, ["registers"]), j)
# dg2: 64 KB per work-group at most (I1): 100 KB cannot run
rc, out, err = run(["report", "--arch", "dg2", "--threads", "64", "--slm", "100K", "--json"])
j = json.loads(out) if out else {}
check("report JSON: exceeded SLM", (j.get("exceeded"), j.get("exceeded_limit")) == ("smem_static", 65536), j)
rc, out, err = run(["report", "--arch", "dg2", "--threads", "2048"])
check("report dg2 2048 work-items: Intel's words", rc == 1 and nvidia_words(out + err) == [] and
      "largest work-group, 1024 work-items" in err, (nvidia_words(out + err), err))
# the runtime's model: no work-group cap ("no limit" in Intel's words)
rc, out, err = run(["report", "--arch", "max-1550", "--threads", "128", "--slm", "48K", "--model", "runtime"])
check("report runtime: Intel's words, 341 work-groups", rc == 0 and nvidia_words(out) == [] and
      "work-group cap no limit" in out and "GPU         341 work-groups resident" in out, (nvidia_words(out), out))

for args in (["--axis", "threads"], ["--axis", "slm", "--to", "8K"], ["--axis", "sub_group"], ["--axis", "grf"],
             ["--axis", "barriers"], ["--axis", "threads", "--steps"]):
    rc, out, err = run(["sweep", "--arch", "dg2", "--threads", "256", "--slm", "16K"] + args)
    check(f"sweep text {args}: Intel's words", rc == 0 and nvidia_words(out) == [] and
          "WGs/Xe-core" in out.splitlines()[1], (nvidia_words(out), out[:600]))
rc, out, err = run(["sweep", "--arch", "pvc", "--threads", "512", "--slm", "64K", "--axis", "sub_group"])
check("sweep text: limiters in Intel's words",
      out.splitlines()[2:] == ["         16           2         64    100.0%  hardware threads|SLM",
                               "         32           2         32     50.0%  SLM"], out)

rc, out, err = run(["plot", "--arch", "dg2", "--threads", "256", "--slm", "16K", "--terminal"])
check("plot terminal: Intel's words and panels", rc == 0 and nvidia_words(out) == [] and
      "Occupancy against work-group size" in out and "Occupancy against GRF size" in out and
      "Occupancy against SLM" in out, (nvidia_words(out), out[:800]))
with tempfile.TemporaryDirectory() as tmp:
    for axis in ([], ["--axis", "sub_group"], ["--axis", "grf"], ["--axis", "barriers"]):
        path = f"{tmp}/p.svg"
        rc, out, err = run(["plot", "--arch", "max-1550", "--threads", "256", "--slm", "16K", "--output", path] + axis)
        svg = open(path, encoding="utf-8").read() if rc == 0 else ""
        text = " ".join(re.findall(r"<(?:text|title)[^>]*>([^<]*)<", svg))
        check(f"plot SVG {axis}: Intel's words", rc == 0 and nvidia_words(text) == [] and
              "work-groups/Xe-core" in text and "hardware threads/Xe-core" in text, (rc, err, nvidia_words(text)))
rc, out, err = run(["plot", "--arch", "pvc", "--threads", "256", "--terminal", "--axis", "grf"])
check("plot terminal grf: the two GRF modes", rc == 0 and "128 to 256" in out and "this launch" in out, out)
rc, out, err = run(["plot", "--arch", "pvc", "--threads", "256", "--output", "-", "--chart", "tradeoff"])
check("plot --chart refused on Intel", rc == 2 and "Intel" in err, (rc, err))

# a launch that fits no work-group names its input in Intel's words, with the most that fits (by hand: pvc, 8
# XVEs of 8 threads; 1024 work-items = 64 threads need the 128-GRF mode, 256 leaves 32; the runtime's 32 barriers
# per Xe-core on Max 1550)
for args, exceeded, limit, words in [
        (["--arch", "pvc", "--threads", "1024", "--grf", "256"], "grf", 128,
         "grf 256 is over 128, the most GRF registers per hardware thread with which one work-group of 1024 work-items fits"),
        (["--arch", "Max 1550", "--threads", "16", "--barriers", "33", "--model", "runtime"], "barriers", 32,
         "barriers 33 is over the 32 an Xe-core has (the runtime's)")]:
    rc, out, err = run(["report", *args, "--json"])
    j = json.loads(out) if out else {}
    check(f"over a limit in Intel's words: {' '.join(args)}", rc == 1 and j.get("blocks_per_sm") == 0
          and (j.get("exceeded"), j.get("exceeded_limit")) == (exceeded, limit) and err.strip().endswith(words),
          (rc, j.get("exceeded"), j.get("exceeded_limit"), err))

finish("test_cli_intel")
