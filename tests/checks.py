"""The tally every Python test script keeps: check() counts a passed check or prints the failed one (its
detail cut at 1,500 characters); finish(label) prints the totals and exits 1 when any check failed.
The scripts run as `python3 tests/test_*.py`, so this folder is on their import path."""
import importlib.machinery
import importlib.util
import os
import shutil
import sys

_tally = {"passed": 0, "failed": 0}


def check(name, cond, detail=""):
    if cond:
        _tally["passed"] += 1
    else:
        _tally["failed"] += 1
        print(f"FAIL {name} {str(detail)[:1500]}")


def finish(label):
    print(f"{label}: {_tally['passed']} passed, {_tally['failed']} failed")
    sys.exit(1 if _tally["failed"] else 0)


def load_script(path, name):
    """One of scripts/ (files without a .py suffix, such as scripts/plot-images) as a module."""
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def browser_or_skip(label, page):
    """What the page's browser tests need, or their skip (77) saying what to install: the built page,
    Chromium (as scripts/plot-images finds it), chromedriver and selenium.  Returns (chromium, chromedriver)."""
    def skip(why):
        print(f"{label}: {why}; skipped")
        sys.exit(77)
    if not os.path.exists(page):
        skip(f"{page} not built (meson compile web; it needs apt-get install clang-19 lld-19 wasi-libc "
             "libclang-rt-19-dev-wasm32)")
    scripts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts")
    chromium = load_script(os.path.join(scripts, "plot-images"), "plot_images").chromium()
    if not chromium:
        skip("chromium not found (apt-get install chromium)")
    chromedriver = shutil.which("chromedriver")
    if not chromedriver:
        skip("chromedriver not found (apt-get install chromium-driver)")
    if importlib.util.find_spec("selenium") is None:
        skip(f"selenium not found for {sys.executable} (apt-get install python3-selenium; Meson runs this test "
             "with /usr/bin/python3)")
    return chromium, chromedriver
