"""``python -m tests.fuzz --target binary|asm|clc|exec|grammar|programs --seconds N --seed S [--out DIR] [--workers K]``
(see tests/fuzz/__init__.py). Exits 1 if the run found anything."""

from __future__ import annotations

import argparse
import sys

from .driver import TARGETS, fuzz


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    p.add_argument("--target", required=True, choices=TARGETS)
    p.add_argument("--seconds", type=float, default=60.0, help="how long to generate inputs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="where reproducers go (default: a new temporary directory)")
    p.add_argument("--workers", type=int, default=1, help="child processes running inputs")
    p.add_argument("--shrink-seconds", type=float, default=60.0, help="time to shrink each finding")
    args = p.parse_args(argv)
    report = fuzz(args.target, args.seconds, args.seed, args.out, args.workers, args.shrink_seconds)
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
