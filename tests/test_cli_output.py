#!/usr/bin/env python3
"""docs/output.md is the list of every CSV column and JSON key of every subcommand: run each section's
"Checked with" commands and check that every key they print is documented there, and that every subcommand
`gpuocc --help` lists has a section.  A subcommand or a field added without its documentation fails here.
Usage: test_cli_output.py GPUOCC SOURCE_ROOT"""
import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys

from checks import check, finish

GPUOCC, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]


doc = open(os.path.join(ROOT, "docs", "output.md"), encoding="utf-8").read()
sections = {}
for part in re.split(r"^## ", doc, flags=re.M)[1:]:
    title, body = part.split("\n", 1)
    m = re.fullmatch(r"gpuocc (\w+)", title.strip())
    if not m:
        continue
    fields = set(re.findall(r"^\| `([^`]+)` \|", body, flags=re.M))
    runs = re.findall(r"^Checked with: `([^`]+)`", body, flags=re.M)
    sections[m.group(1)] = (fields, runs, "No CSV or JSON output" in body)

listed = subprocess.run([GPUOCC, "--help"], capture_output=True, text=True).stdout
commands = [l.split()[0] for l in listed.split("commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()]
for c in commands:
    check(f"{c} has a section in docs/output.md", c in sections)
    check(f"{c} has a 'Checked with' command (or says it has no CSV or JSON output)",
          bool(sections.get(c, (0, [], 0))[1]) or sections.get(c, (0, [], 0))[2])


def json_keys(value, prefix=""):
    """The keys of an object, nested arrays of objects as key[].field."""
    keys = set()
    for k, v in value.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            keys.add(prefix + k)
            for x in v:
                keys |= json_keys(x, prefix + k + "[].")
        else:
            keys.add(prefix + k)
    return keys


for name, (fields, runs, _) in sections.items():
    for cmd in runs:
        argv = shlex.split(cmd)
        check(f"'{cmd}' runs gpuocc {name}", argv[:2] == ["gpuocc", name])
        p = subprocess.run([GPUOCC] + argv[1:], capture_output=True, text=True, cwd=ROOT)
        check(f"'{cmd}' answers", p.returncode in (0, 1) and p.stdout, p.stderr)
        out = p.stdout.strip()
        if not out:
            continue
        keys = set()
        if out[0] in "[{":
            try:
                docs = json.loads(out)
            except ValueError:  # JSON lines
                docs = [json.loads(l) for l in out.splitlines()]
            for d in docs if isinstance(docs, list) else [docs]:
                keys |= json_keys(d)
        else:
            keys = set(next(csv.reader(io.StringIO(out))))
        # batch echoes its input's own columns; the doc's `*` row stands for them
        extra = {k for k in keys - fields - ({"tag"} if "*" in fields else set())
                 if not any(f.startswith(k + "[].") for f in fields)}
        check(f"'{cmd}': every key documented", not extra, sorted(extra))

finish("test_cli_output")
