"""What machine a benchmark ran on: recorded with every result file."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path


def machine_info() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "nproc": usable,
        "cpu_count": os.cpu_count(),
        "cpu": cpu or platform.processor(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "loadavg_at_start": list(os.getloadavg()),  # other jobs on the machine skew every figure
    }
