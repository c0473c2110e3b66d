#!/usr/bin/env python3
"""Every subcommand: output that cannot be written is exit 3; --help and -h work;
a typo gets a suggestion.  Usage: test_cli_io.py GPUOCC DATA_DIR"""
import errno
import os
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC, DATA = sys.argv[1], sys.argv[2]


BATCH = "arch,threads,regs\nH100,256,64\n"
# One answerable invocation of every subcommand (stdin given where the command reads it).
EVERY = {
    "report": (["--example"], None),
    "devices": ([], None),
    "batch": ([], BATCH),
    "sweep": (["--arch", "A100", "--threads", "256", "--axis", "regs"], None),
    "plot": (["--arch", "A100", "--threads", "256", "--regs", "64", "--output", "-"], None),
    "latency": (["--warps-per-sm", "32", "--latency-cycles", "400", "--throughput-per-cycle", "4"], None),
    "bandwidth": (["--arch", "A100", "--warps-per-sm", "32", "--bytes-per-warp", "256"], None),
    "spill": (["--work-cycles", "256", "--spill-accesses", "2", "--spill-latency-cycles", "300"], None),
    "tradeoff": (["--arch", "A100", "--threads", "256", "--regs", "128"], None),
    "waves": (["--grid-blocks", "300", "--sm-count", "132", "--blocks-per-sm", "2"], None),
    "divergence": (["--threads", "100"], None),
    "roofline": (["--flops", "2", "--bytes", "12", "--peak-gflops", "19500", "--peak-gbps", "2039"], None),
    "ptxas": (["--threads", "256", os.path.join(DATA, "ptxas_sm90.log")], None),
    "remarks": (["--arch", "gfx942", "--threads", "256", os.path.join(DATA, "remarks", "gfx942.log")], None),
    "binary": (["--threads", "256", os.path.join(DATA, "units_rdc_zstd.o")], None),
    "cubin": (["--threads", "256", os.path.join(DATA, "kernels_sm90.cubin")], None),
    "diagnose": (["--stall", "long_scoreboard", "--occupancy", "0.25"], None),
}

listed = subprocess.run([GPUOCC, "--help"], capture_output=True, text=True).stdout
commands = [l.split()[0] for l in listed.split("commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()]
check("every listed command has a case here", sorted(commands) == sorted(EVERY), f"{commands}")

for name, (args, stdin) in EVERY.items():
    ok = subprocess.run([GPUOCC, name] + args, input=stdin, capture_output=True, text=True)
    check(f"{name} runs", ok.returncode == 0 and ok.stdout, ok.stderr)
    with open("/dev/full", "w") as full:
        p = subprocess.run([GPUOCC, name] + args, input=stdin, stdout=full, stderr=subprocess.PIPE, text=True)
    check(f"{name} >/dev/full", p.returncode == 3 and "output" in p.stderr, f"{p.returncode} {p.stderr}")
    # the reason, as the system words it, whichever write failed first (one line)
    check(f"{name} >/dev/full says why", p.stderr.strip().endswith(os.strerror(errno.ENOSPC))
          and len(p.stderr.splitlines()) == 1, p.stderr)
    # stdout closed (>&-): the shell form, so the descriptor is really closed
    p = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", GPUOCC, name] + args, input=stdin,
                       capture_output=True, text=True)
    check(f"{name} >&-", p.returncode == 3 and "output" in p.stderr, f"{p.returncode} {p.stderr}")
    for flag in ("--help", "-h"):
        h = subprocess.run([GPUOCC, name, flag], capture_output=True, text=True)
        check(f"{name} {flag}", h.returncode == 0 and h.stdout.startswith(f"usage: gpuocc {name}")
              and "examples:" in h.stdout and not h.stderr, h.stdout + h.stderr)
        # each example in the help runs as written (exit 0 or 1), except those reading files or pipes
        if flag == "--help":
            ex = h.stdout.split("examples:\n", 1)[-1].split("\n\n", 1)[0]
            for line in ex.splitlines():
                argv = line.split()
                if argv[:1] != ["gpuocc"] or any(c in line for c in "<|") or any("." in a for a in argv[2:] if not a[0].isdigit()):
                    continue
                e = subprocess.run([GPUOCC] + argv[1:], capture_output=True, text=True)
                check(f"example '{line}'", e.returncode in (0, 1) and e.stdout, e.stderr)
    with open("/dev/full", "w") as full:
        p = subprocess.run([GPUOCC, name, "--help"], stdout=full, stderr=subprocess.PIPE, text=True)
    check(f"{name} --help >/dev/full", p.returncode == 3, p.stderr)

# plot's --output file: the same reason when its writes fail
p = subprocess.run([GPUOCC, "plot", "--arch", "A100", "--threads", "256", "--regs", "64", "--output", "/dev/full"],
                   capture_output=True, text=True)
check("plot --output /dev/full says why", p.returncode == 3 and p.stderr.strip().endswith(os.strerror(errno.ENOSPC))
      and len(p.stderr.splitlines()) == 1 and "--output" in p.stderr, f"{p.returncode} {p.stderr}")

for args in (["--help"], ["--version"]):
    with open("/dev/full", "w") as full:
        p = subprocess.run([GPUOCC] + args, stdout=full, stderr=subprocess.PIPE, text=True)
    check(f"{args[0]} >/dev/full", p.returncode == 3, p.stderr)

# A reader that goes away early (`gpuocc ... | head -c 10`): the writes fail with EPIPE and the command exits 3
# with its line on stderr, instead of dying of SIGPIPE (-13 here, 141 in a shell).  Each output is far larger
# than a pipe's buffer: A100's dynamic shared memory axis at step 1 has about 160,000 points, the batch
# 50,000 rows.  Python starts children with SIGPIPE's default action, as a shell does.
with tempfile.TemporaryDirectory() as d:
    big = os.path.join(d, "big.csv")
    with open(big, "w") as f:
        f.write("arch,threads,regs\n" + "H100,256,64\n" * 50000)
    for args in (["sweep", "--arch", "A100", "--threads", "256", "--axis", "smem", "--step", "1"],
                 ["sweep", "--arch", "A100", "--threads", "256", "--axis", "smem", "--step", "1", "--csv"],
                 ["batch", big], ["batch", big, "--json"]):
        p = subprocess.Popen([GPUOCC] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        head = p.stdout.read(10)
        p.stdout.close()
        err = p.stderr.read().decode()
        rc = p.wait()
        label = " ".join("FILE" if a == big else a for a in args)
        check(f"{label} | head -c 10: exit 3, one line", len(head) == 10 and rc == 3
              and err.startswith("gpuocc: output: cannot write") and len(err.splitlines()) == 1, (rc, err))
        check(f"{label} | head -c 10: says why", err.strip().endswith(os.strerror(errno.EPIPE)), err)

# did you mean: flags, commands, devices (one line, exit 2)
for args, want in [
    (["report", "--threds", "256"], "did you mean '--threads'"),
    (["reprot", "--example"], "did you mean 'report'"),
    (["waves", "--grid-blcks", "3"], "did you mean '--grid-blocks'"),
    (["report", "--arch", "H1000", "--threads", "32", "--regs", "32"], "did you mean 'H100'"),
    # A name that begins a known one is preferred over a closer edit (H10 is H100's start, not A10)
    (["report", "--arch", "H10", "--threads", "256"], "did you mean 'H100'"),
    # and a flag that begins several (--smem-dynamic, --smem-static) names one of those, not --slm
    (["report", "--arch", "H100", "--threads", "256", "--smem", "16K"], "did you mean '--smem-dynamic'"),
]:
    p = subprocess.run([GPUOCC] + args, capture_output=True, text=True)
    check(f"suggest {args}", p.returncode == 2 and want in p.stderr and len(p.stderr.strip().splitlines()) == 1,
          p.stderr)

finish("test_cli_io")
