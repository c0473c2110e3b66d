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

finish("cli-tune")
