#!/usr/bin/env python3
"""Instructions per call under callgrind against the baseline in tests/bench/instructions.txt.

usage: callgrind_check.py DRIVER BASELINE BUILD_KEY

DRIVER is tests/bench/bench_instructions.c built; BUILD_KEY names the compiler and the build's optimization
(meson.build passes e.g. "gcc-12.2.0 O2"): instruction counts belong to one compiler and flags, so only the
baseline lines of that key are compared.  Fails when a query's count passes its baseline by more than 10%;
exits 77 (skipped) with the reason when valgrind is absent, the driver cannot count (no callgrind.h), or the
baseline has no line for this build (it prints the lines to add).  Queries named header* (the driver counts
NVIDIA's cuda_occupancy.h on the same launches when it is installed) have no baseline: each of gpuocc's
single-call counts is printed against the header's count of the same device order, as a ratio.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
TOLERANCE = 0.10


def main():
    driver, baseline_path, key = sys.argv[1], sys.argv[2], sys.argv[3]
    valgrind = shutil.which("valgrind")
    if not valgrind:
        print("SKIP: valgrind is not installed")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out, driver],
                             capture_output=True, text=True)
        if run.returncode == SKIP:
            print("SKIP:", run.stdout.strip())
            return SKIP
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            print("FAIL: the driver failed under valgrind (status %d)" % run.returncode)
            return 1
        launches = int(re.search(r"launches (\d+)", run.stdout).group(1))
        counts = {}
        for path in glob.glob(out + "*"):
            text = open(path).read()
            trigger = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
            total = re.search(r"^(?:totals|summary): (\d+)", text, re.M)
            if trigger and total:
                counts[trigger.group(1)] = int(total.group(1)) / launches
    baseline = {}
    for line in open(baseline_path):
        fields = line.split("#")[0].split()
        if len(fields) == 4 and " ".join(fields[:2]) == key:
            baseline[fields[2]] = float(fields[3])
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "unknown"
    print("instructions per call (callgrind Ir / %d launches; build %s; load %s, which does not move them)"
          % (launches, key, load))
    failed = 0
    for name in sorted(counts):
        got = counts[name]
        want = baseline.get(name)
        reference = counts.get("header_mixed" if name.endswith("_mixed") else "header")
        against = ("   %.2fx the header's %.0f" % (got / reference, reference)
                   if reference and not name.startswith("header") else "")
        if name.startswith("header"):
            print("  %-16s %7.1f   (the reference: NVIDIA's cuda_occupancy.h)" % (name, got))
            continue
        if want is None:
            print("  %-16s %7.1f   no baseline%s" % (name, got, against))
            continue
        ratio = got / want
        ok = ratio <= 1 + TOLERANCE
        failed += not ok
        print("  %-16s %7.1f   baseline %7.1f   ratio %.3f  target <= %.2f  %s%s"
              % (name, got, want, ratio, 1 + TOLERANCE, "met" if ok else "NOT met", against))
    if not baseline:
        print("SKIP: no baseline for build '%s' in %s; lines to add:" % (key, baseline_path))
        for name in sorted(counts):
            if not name.startswith("header"):
                print("%s %s %.0f" % (key, name, counts[name]))
        return SKIP
    missing = [name for name in baseline if name not in counts]
    if missing:
        print("FAIL: no count for", ", ".join(missing))
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
