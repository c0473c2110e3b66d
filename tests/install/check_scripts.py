#!/usr/bin/env python3
"""scripts/check, run with a stand-in `meson` first on PATH (it records each call and writes the test logs
it is told to): it configures only its own folders (build-check, build-check-san, build-check-tsan), never
the user's build/; and it always ends with its summary line "check: N passed, N failed, N skipped", also
when a folder has no test log (a failed setup: counted as one failure), never with a traceback.

Usage: check_scripts.py SOURCE_ROOT"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

source = pathlib.Path(sys.argv[1])
FAKE = r'''#!/bin/sh
# the stand-in meson: record the call; `meson test -C DIR` writes DIR's log when DIR is in $FAKE_LOGS
echo "$*" >> "$FAKE_CALLS"
if [ "$1" = setup ]; then
    for a in "$@"; do case $a in setup|--reconfigure|-*) ;; *) mkdir -p "$a"; break ;; esac; done
fi
if [ "$1" = test ] && [ "$2" = -C ]; then
    case " $FAKE_LOGS " in *" $3 "*)
        mkdir -p "$3/meson-logs"
        printf '{"name": "a", "result": "OK"}\n{"name": "b", "result": "SKIP"}\n{"name": "c", "result": "OK"}\n' \
            > "$3/meson-logs/testlog.json" ;;
    esac
fi
exit 0
'''
with tempfile.TemporaryDirectory() as tmp:
    tree = pathlib.Path(tmp) / "tree"
    (tree / "scripts").mkdir(parents=True)
    shutil.copy(source / "scripts" / "check", tree / "scripts" / "check")
    (tree / "build").mkdir()  # the user's build folder: must stay untouched
    (tree / "build" / "mine").write_text("user's build\n")
    bindir = pathlib.Path(tmp) / "bin"
    bindir.mkdir()
    (bindir / "meson").write_text(FAKE)
    (bindir / "meson").chmod(0o755)
    calls = pathlib.Path(tmp) / "calls"

    def check(logs):
        calls.write_text("")
        env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}", FAKE_CALLS=str(calls),
                   FAKE_LOGS=logs)
        run = subprocess.run(["sh", str(tree / "scripts" / "check")], capture_output=True, text=True, env=env,
                             cwd=tmp, timeout=60)
        return run, calls.read_text().splitlines()

    run, made = check("")
    named = {w for c in made for w in c.split() if w.startswith("build")}
    if "build" in named or any(w.startswith("build/") for w in named):
        sys.exit(f"scripts/check touches the user's build/: {made}")
    if not {"build-check", "build-check-san", "build-check-tsan"} <= named:
        sys.exit(f"scripts/check does not use its own folders: {made}")
    if (tree / "build" / "mine").read_text() != "user's build\n" or len(list((tree / "build").iterdir())) != 1:
        sys.exit("the user's build/ changed")
    last = run.stdout.strip().splitlines()[-1:] if run.stdout.strip() else []
    if "Traceback" in run.stderr or last != ["check: 0 passed, 3 failed, 0 skipped"] or run.returncode == 0:
        sys.exit(f"no test logs: expected the summary 0 passed, 3 failed (status 1), got status {run.returncode}:\n"
                 f"{run.stdout}{run.stderr}")
    print(f"no test logs: {last[0]}, status {run.returncode}")
    # every folder with its log: 2 OK and 1 SKIP each
    run, made = check("build-check build-check-san build-check-tsan")
    last = run.stdout.strip().splitlines()[-1:]
    if last != ["check: 6 passed, 0 failed, 3 skipped"] or run.returncode != 0:
        sys.exit(f"three logs: expected 6 passed, 0 failed, 3 skipped (status 0):\n{run.stdout}{run.stderr}")
    # one log missing (say the sanitized setup failed): the others still counted
    run, made = check("build-check build-check-tsan")
    last = run.stdout.strip().splitlines()[-1:]
    if last != ["check: 4 passed, 1 failed, 2 skipped"] or run.returncode == 0:
        sys.exit(f"two logs: expected 4 passed, 1 failed, 2 skipped (status 1):\n{run.stdout}{run.stderr}")
    print(f"three logs: 6 passed, 3 skipped; two: {last[0]}")
print("scripts/check: its own folders, always its summary")
