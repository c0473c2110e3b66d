"""The tally every Python test script keeps: check() counts a passed check or prints the failed one (its
detail cut at 1,500 characters); finish(label) prints the totals and exits 1 when any check failed.
The scripts run as `python3 tests/test_*.py`, so this folder is on their import path."""
import importlib.machinery
import importlib.util
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
