#!/usr/bin/env python3
"""CSV round trips: what `gpuocc report --csv` and `gpuocc sweep --csv` write, `gpuocc batch` reads back and
answers the same (docs/output.md: the sweep's rows are batch's rows; report's CSV uses batch's short names).
Expected counts are worked by hand from the rules of docs/model.md, docs/amd.md and docs/intel.md, never read from
gpuocc.
Usage: test_cli_roundtrip.py GPUOCC"""
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


def table(text):
    r = csv.reader(io.StringIO(text, newline=""))
    header = next(r)
    return header, [dict(zip(header, row)) for row in r]


def problems(err):
    """stderr lines other than the notices naming the output columns batch echoes without reading, or replaces"""
    return [ln for ln in err.splitlines() if not ln.startswith(("gpuocc: header: columns not read:",
                                                                 "gpuocc: header: columns replaced by"))]


# ---- report --csv | batch ----
# Each case: report's flags, then by hand the blocks per SM, every resource whose limit equals it (`limiters`,
# compared as a set: docs/output.md fixes the names, not their order) and the occupancy (six decimals).  Limits
# not named are above the count; a barrier count of 0 or 1 (the defaults) never binds here.
#  H100 (sm_90: 64 warps, 32 blocks, 65536 registers in 4 sub-partitions, 228 KiB carveout, 64 barriers),
#   256 threads = 8 warps, 64 registers: P = roundup(64 x 32, 256) = 2048 per warp;
#   registers floor(floor(65536 / 4) / 2048) x 4 / 8 = 8 x 4 / 8 = 4; warps 64 / 8 = 8; shared memory
#   roundup(0 + 1 KiB reserved, 128) = 1024, 233472 / 1024 = 228; blocks 32; barriers 64 / 1 = 64.
#   4 blocks by the registers; 4 x 8 = 32 of 64 warps = 0.5.
#  MI300X (gfx942: 8 wave slots per SIMD, 4 SIMDs, 512 VGPRs at granule 8), 256 threads = 4 wave64 waves,
#   64 VGPRs: min(512 / 64, 8) = 8 waves per SIMD, x 4 SIMDs / 4 waves = 8 workgroups; the slots allow the same
#   8 x 4 / 4 = 8; barriers 16; no LDS, no SGPRs given.  8 by warps and registers; 32 of 32 waves = 1.0.
#  gfx906 (10 slots, 256 VGPRs at granule 4), 256 threads, 16 VGPRs, 102 SGPRs, without the trap handler:
#   SGPRs 800 / round_up(102, 16) = 800 / 112 = 7 waves per SIMD (with the trap handler's 16 more: 800 / 128
#   = 6), VGPRs min(256 / 16, 10) = 10, slots 10: 7 x 4 SIMDs / 4 waves per workgroup = 7 workgroups by the
#   SGPRs; 28 of 40 waves = 0.7.  A CSV that loses --no-trap-handler gives 6.
#  gfx900, 256 threads, 16 VGPRs, amdgpu_waves_per_eu(1, 3), flat workgroup size 1..256 (docs/amd.md, "Waves
#   per EU"): the request is kept (1 >= ceil(4 waves / 4 SIMDs), 3 <= 10); VGPRs at least
#   1 + min(budget(3) - 4, budget(4)) = 1 + min(84 - 4, 64) = 65 (budget(M) = floor(256 / M) rounded down to
#   4), 256 / round_up(65, 4) = 256 / 68 = 3 waves: 3 x 4 / 4 = 3 workgroups; SGPRs at least
#   min(round_down(800 / 4 - 16, 16) + 1, 102) = 102, 800 / (112 + 16) = 6 waves = 6 workgroups; slots 10.
#   3 by the registers; 12 of 40 waves = 0.3 (without the attribute: 10 slots -> 10).
#  pvc (Xe-core: 8 XVEs x 8 threads = 64 hardware threads, 64 work-groups, 64 barrier registers), 256
#   work-items at sub-group 16 = 16 threads per work-group: 64 / 16 = 4 work-groups by the hardware threads
#   (`warps`); no SLM, 128 GRF; 16 x 4 = 64 of 64 threads = 1.0.
#  B200 (sm_100: as H100 for these rules, 128 virtual resources per SM), 256 threads, 64 registers, 64 virtual
#   resources: the registers allow 4 blocks (as H100), the virtual resources 128 / 64 = 2: 2 blocks;
#   2 x 8 = 16 of 64 warps = 0.25.  A CSV that loses the virtual resources gives 4.
REPORTS = [
    (["--arch", "H100", "--threads", "256", "--regs", "64"], 4, {"registers"}, "0.500000"),
    (["--arch", "MI300X", "--threads", "256", "--vgprs", "64"], 8, {"warps", "registers"}, "1.000000"),
    (["--arch", "gfx906", "--threads", "256", "--vgprs", "16", "--sgprs", "102", "--no-trap-handler"], 7,
     {"sgprs"}, "0.700000"),
    (["--arch", "gfx900", "--threads", "256", "--vgprs", "16", "--waves-per-eu", "1,3",
      "--flat-workgroup-size", "1,256"], 3, {"registers"}, "0.300000"),
    (["--arch", "pvc", "--threads", "256"], 4, {"warps"}, "1.000000"),
    (["--arch", "B200", "--threads", "256", "--regs", "64", "--virtual-resources", "64"], 2,
     {"virtual_resources"}, "0.250000"),
]
for flags, blocks, limiters, occupancy in REPORTS:
    name = " ".join(flags)
    rc, rep, err = run(["report"] + flags + ["--csv"])
    _, rrows = table(rep)
    r = rrows[0] if rrows else {}
    check(f"report {name}: {blocks} blocks by {sorted(limiters)}, occupancy {occupancy}",
          rc == 0 and r.get("blocks_per_sm") == str(blocks) and set(r.get("limiters", "").split("|")) == limiters
          and r.get("occupancy") == occupancy, (rc, r, err))
    rc, out, err = run(["batch"], rep)
    header, brows = table(out)
    b = brows[0] if brows else {}
    check(f"report {name} | batch: answered the same, no problem named", rc == 0 and not problems(err)
          and b.get("status") == "ok" and b.get("blocks_per_sm") == str(blocks)
          and b.get("occupancy") == occupancy and set(b.get("limiters", "").split("|")) == limiters,
          (rc, err, b))

# "not given" is an empty cell (batch's and the JSON's null), never -1: max_threads, sgprs, waves per EU, the
# flat workgroup minimum; the trap handler as the C field and batch's column (-1 without it, 0 the default)
rc, rep, _ = run(["report", "--arch", "MI300X", "--threads", "256", "--vgprs", "64", "--csv"])
r = table(rep)[1][0]
# (docs/output.md, "gpuocc report": a launch input not given is an empty cell; `trap_handler` in CSV is -1 with
# --no-trap-handler, else 0)
check("report --csv: inputs not given are empty cells",
      all(r[k] == "" for k in ("max_threads", "sgprs", "waves_per_eu_min", "waves_per_eu_max",
                               "flat_workgroup_size_min")), r)
check("report --csv: the trap handler's default is 0, as batch reads it", r["trap_handler"] == "0", r)
rc, rep, _ = run(["report", "--arch", "gfx906", "--threads", "256", "--vgprs", "16", "--no-trap-handler", "--csv"])
check("report --csv: --no-trap-handler is -1", table(rep)[1][0]["trap_handler"] == "-1", rep)
rc, rep, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "64", "--max-threads", "512", "--csv"])
check("report --csv: a given max_threads is its value", table(rep)[1][0]["max_threads"] == "512", rep)

# report's own inputs that batch does not read (setmaxnreg, min_blocks, --blocks, --stage-bytes): an empty
# cell is no input; a value is named on stderr (exit 1), as a header of that column always was
rc, rep, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "64", "--min-blocks", "2", "--csv"])
rc, out, err = run(["batch"], rep)
# the launch is the H100 case above (4 blocks); --min-blocks checks a count and changes none (docs/model.md)
check("report --min-blocks | batch: the minimum named, not dropped silently",
      rc == 1 and any("column 'min_blocks' is not read by gpuocc batch" in ln for ln in problems(err))
      and table(out)[1][0]["blocks_per_sm"] == "4", (rc, err))
# report's output columns are echoed and named in the one notice, not taken for typos of an input
rc, rep, _ = run(["report", "--arch", "H100", "--threads", "256", "--regs", "64", "--grid-blocks", "264", "--csv"])
rc, out, err = run(["batch"], rep)
not_read = [ln.split(": ", 3)[3].split(", ") for ln in err.splitlines()
            if ln.startswith("gpuocc: header: columns not read: ")]
check("report --grid-blocks | batch: 'waves' is an output column, no near miss",
      rc == 0 and not problems(err) and len(not_read) == 1 and "waves" in not_read[0], (rc, err))

# ---- sweep --csv | batch: every launch input the sweep was given is a column, so each row reads back as the
# same launch.  A lost column changes the answer for virtual_resources (below) and dvgpr (above 128 VGPRs, 0
# workgroups with blocks of 16, docs/amd.md), not for tmem_columns, which changes no count: that one is
# checked by batch refusing it on a device without tensor memory.
SWEEPS = [
    (["--arch", "B200", "--threads", "256", "--regs", "64", "--virtual-resources", "64", "--axis", "threads"],
     "virtual_resources", "64"),
    (["--arch", "B200", "--threads", "256", "--regs", "64", "--tmem-columns", "256", "--axis", "threads"],
     "tmem_columns", "256"),
    (["--arch", "gfx1200", "--threads", "256", "--vgprs", "64", "--dvgpr", "16", "--axis", "regs"], "dvgpr", "16"),
]
for flags, column, value in SWEEPS:
    name = " ".join(flags)
    rc, sw, err = run(["sweep"] + flags + ["--csv"])
    _, srows = table(sw)
    check(f"sweep {name}: the {column} column carries {value}", rc == 0 and srows
          and all(r.get(column) == value for r in srows), (rc, err, srows[:1]))
    rc, out, err = run(["batch"], sw)
    _, brows = table(out)
    same = len(brows) == len(srows) and all(
        b["status"] == "ok" and b["blocks_per_sm"] == s["blocks_per_sm"] and b["limiters"] == s["limiters"]
        and b["occupancy"] == s["occupancy"] and b["regs_per_block"] == s["regs_per_block"]
        for b, s in zip(brows, srows))
    check(f"sweep {name} | batch: every row answered the same", rc == 0 and not problems(err) and same,
          (rc, err, [(s["blocks_per_sm"], b["blocks_per_sm"]) for s, b in zip(srows, brows)][:4]))
# B200, 64 registers, 64 virtual resources, threads 32 to 1024 by 32 (W = 1 to 32 warps): the virtual resources
# allow 128 / 64 = 2 blocks; the registers floor(floor(65536 / 4) / 2048) x 4 / W = floor(32 / W) (the per-block
# check 2048 x roundup(W, 4) <= 65536 holds to W = 32); warps floor(64 / W) >= 2, blocks 32, shared memory 228,
# barriers 64 all above.  So 2 blocks by the virtual resources alone to W = 10 (32 / 10 = 3), tied with the
# registers from W = 11 to 16 (32 / 16 = 2), 1 block by the registers from W = 17 (544 threads) on.
def vr_row(warps):
    regs = 32 // warps
    return (str(min(2, regs)), {"virtual_resources"} if regs > 2 else
            {"registers", "virtual_resources"} if regs == 2 else {"registers"})


rc, sw, _ = run(["sweep"] + SWEEPS[0][0] + ["--csv"])
rows = table(sw)[1]
got = [(r["threads"], r["blocks_per_sm"], set(r["limiters"].split("|"))) for r in rows]
want = [(str(32 * w),) + vr_row(w) for w in range(1, 33)]
check("sweep B200 --virtual-resources 64: 2 blocks to 512 threads, 1 above, the limiters by hand",
      got == want, [(g, w) for g, w in zip(got, want) if g != w][:4] or (len(got), len(want)))
# the same rows on H100 (sm_90: no tensor memory): batch reads tmem_columns and refuses each row (docs/model.md,
# "Tensor memory": GPUOCC_ERR_TMEM, batch status `tmem`); a sweep that lost the column would be answered
rc, sw, _ = run(["sweep"] + SWEEPS[1][0] + ["--csv"])
rc, out, err = run(["batch"], sw.replace("\nB200,", "\nH100,"))
rows = table(out)[1]
check("sweep --tmem-columns 256 | batch on H100: every row refused, the column was read",
      rc == 1 and len(rows) == 32 and all(r["status"] == "tmem" and r["exceeded"] == "tmem_columns"
                                          for r in rows), (rc, rows[:1], err[:300]))
# not given: an empty cell (batch's 0, none), and null in JSON (docs/output.md, "gpuocc sweep")
rc, sw, _ = run(["sweep", "--arch", "A100", "--threads", "256", "--axis", "regs", "--csv"])
first = table(sw)[1][0]
check("sweep without them: virtual_resources and tmem_columns empty",
      first.get("virtual_resources") == "" and first.get("tmem_columns") == "", first)
rc, sw, _ = run(["sweep", "--arch", "gfx1200", "--threads", "256", "--axis", "regs", "--json"])
first = json.loads(sw)[0] if rc == 0 else {}
check("sweep --json without --dvgpr: dvgpr null", "dvgpr" in first and first["dvgpr"] is None, first)

# ---- batch on a batch's or a sweep's output: each result column once, this run's answer in it ----
def unique_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"repeated keys: {sorted(k for k in set(keys) if keys.count(k) > 1)}")
    return dict(pairs)


rc, sw, _ = run(["sweep", "--arch", "A100", "--threads", "256", "--axis", "regs", "--csv"])
rc1, once, err1 = run(["batch"], sw)
header = table(once)[0]
check("batch on a sweep: no column name twice", rc1 == 0 and len(header) == len(set(header)),
      sorted(h for h in set(header) if header.count(h) > 1))
rc2, twice, _ = run(["batch"], once)
# the registers axis runs 0 to 255 by 1 (docs/model.md, "Sweeps"): 256 rows
check("batch on its own output: the same output, 256 rows", rc2 == 0 and twice == once
      and len(table(once)[1]) == 256, (twice[:300], once[:300]))
rc, js, _ = run(["batch", "--json"], sw)
try:
    objs = [json.loads(ln, object_pairs_hook=unique_keys) for ln in js.splitlines()]
except ValueError as e:
    objs = [str(e)]
# A100 (sm_80: 64 warp slots, 32 blocks, no register limit at regs 0, no barrier limit before cc 9.0, shared
# memory roundup(1 KiB reserved, 128) = 1024 of 164 KiB = 164): 256 threads = 8 warps, 64 / 8 = 8 blocks.
# Input cells are echoed as strings in JSON (docs/output.md, "gpuocc batch"), so regs is "0".
check("batch --json on a sweep: each key once", rc == 0 and objs and isinstance(objs[0], dict)
      and objs[0]["regs"] == "0" and objs[0]["blocks_per_sm"] == 8, objs[:1])
# a stale answer in the input is replaced, not echoed beside the fresh one: H100, 256 threads, 64 registers, 4
# (the first report case).  The notices (docs/output.md, "Columns not read") are compared as sets of names: the
# page fixes their wording, not the order of the names.
rc, out, err = run(["batch"], "arch,threads,regs,blocks_per_sm,status,note\nH100,256,64,99,bad,keep\n")
h, rows = table(out)
notices = {ln.split(": ", 3)[2]: set(ln.split(": ", 3)[3].split(", ")) for ln in err.splitlines()
           if ln.startswith("gpuocc: header: ") and ln.count(": ") >= 3}
check("a stale blocks_per_sm replaced by the answer, other columns echoed",
      rc == 0 and h.count("blocks_per_sm") == 1 and h.count("status") == 1 and rows[0]["blocks_per_sm"] == "4"
      and rows[0]["status"] == "ok" and rows[0]["note"] == "keep"
      and notices.get("columns replaced by this run's answers") == {"blocks_per_sm", "status"}
      and notices.get("columns not read") == {"note"}, (h, rows, err))

finish("cli-roundtrip")
