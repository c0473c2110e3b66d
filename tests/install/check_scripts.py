#!/usr/bin/env python3
"""scripts/check, run with a stand-in `meson` first on PATH (it records each call and writes the test logs
it is told to): it configures only its own folders (build-check, build-check-san, build-check-tsan, and
build-check-i386 where gcc -m32 and Criterion's i386 package are installed, else one skip), never the
user's build/; and it always ends with its summary line "check: N passed, N failed, N skipped", also
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
    # the 32-bit build runs where its tools are (a fourth folder), else it is one skip, said on stderr
    i386 = "build-check-i386" in named
    if not i386 and "32-bit build skipped" not in run.stderr:
        sys.exit(f"no 32-bit build and no word of it: {run.stderr}")
    folders, skip = (4, 0) if i386 else (3, 1)
    if "Traceback" in run.stderr or last != [f"check: 0 passed, {folders} failed, {skip} skipped"] or run.returncode == 0:
        sys.exit(f"no test logs: expected the summary 0 passed, {folders} failed, {skip} skipped (status 1), got "
                 f"status {run.returncode}:\n{run.stdout}{run.stderr}")
    print(f"no test logs: {last[0]}, status {run.returncode}")
    # every folder with its log: 2 OK and 1 SKIP each
    run, made = check("build-check build-check-san build-check-tsan build-check-i386")
    last = run.stdout.strip().splitlines()[-1:]
    want = f"check: {2 * folders} passed, 0 failed, {folders + skip} skipped"
    if last != [want] or run.returncode != 0:
        sys.exit(f"every log: expected {want} (status 0):\n{run.stdout}{run.stderr}")
    # one log missing (say the sanitized setup failed): the others still counted
    run, made = check("build-check build-check-tsan build-check-i386")
    last = run.stdout.strip().splitlines()[-1:]
    want = f"check: {2 * folders - 2} passed, 1 failed, {folders - 1 + skip} skipped"
    if last != [want] or run.returncode == 0:
        sys.exit(f"one log missing: expected {want} (status 1):\n{run.stdout}{run.stderr}")
    print(f"every log: {2 * folders} passed; one missing: {last[0]}")
print("scripts/check: its own folders, always its summary")
