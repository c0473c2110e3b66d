"""The tally every Python test script keeps: check() counts a passed check or prints the failed one (its
detail cut at 1,500 characters); finish(label) prints the totals and exits 1 when any check failed.
The scripts run as `python3 tests/test_*.py`, so this folder is on their import path."""
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
