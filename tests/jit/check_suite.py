"""The planted-fault kernel suite of the dynamic checks (tests/data/checks/, its README says
the notation): compiling the files with ``spirvkit cc -g`` and reading what each kernel expects."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import spirvkit

SUITE = Path(__file__).resolve().parents[1] / "data" / "checks"
CC_OPTIONS = ["-g", "-cl-std=CL2.0"]

_LAUNCH = re.compile(r"//\s*launch:\s*(\w+)\s+global=(\d+)\s+local=(\d+)\s+args=(\S+)")
_EXPECT = re.compile(r"//\s*expect:\s*(\w+)\s+(\w+)")


@dataclass
class SuiteKernel:
    file: str
    name: str
    global_size: int
    local_size: int
    args: list[str]
    expected: set = field(default_factory=set)   # (check kind, line)

    @property
    def id(self) -> str:
        return f"{Path(self.file).stem}:{self.name}"


def suite_kernels(path: Path) -> list[SuiteKernel]:
    kernels: dict[str, SuiteKernel] = {}
    expects = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        found = _LAUNCH.search(line)
        if found:
            name, g, lsize, args = found.groups()
            kernels[name] = SuiteKernel(str(path), name, int(g), int(lsize), args.split(","))
        for kind, name in _EXPECT.findall(line):
            expects.append((name, kind, number))
    for name, kind, number in expects:
        kernels[name].expected.add((kind, number))
    return list(kernels.values())


def compile_suite_file(path: Path) -> spirvkit.Program:
    binary = spirvkit.compile_cl(path.read_text(), CC_OPTIONS, filename=str(path))
    return spirvkit.Program(binary)


def make_arg(spec: str):
    """One argument of a ``// launch:`` line (see tests/data/checks/README.md)."""
    if spec == "null":
        return None
    if re.fullmatch(r"-?\d+", spec):
        return np.int32(int(spec))
    kind, count, *dtype = spec.split(":")
    if kind == "local":
        return spirvkit.LocalMemory(int(count))
    dt = np.dtype(dtype[0] if dtype else "int32")
    n = int(count)
    if kind == "zeros":
        return np.zeros(n, dt)
    if kind == "uninit":        # a buffer the host declares uninitialised (the uninitialized check)
        return spirvkit.uninitialized(n, dt)
    value = np.arange(n).astype(dt)
    if kind == "ro":
        value.flags.writeable = False
    elif kind == "wo":          # declared write-only by the host (the access check)
        return spirvkit.write_only(value)
    elif kind != "range":
        raise ValueError(f"unknown argument form {spec!r}")
    return value


def location_line(location: str | None) -> int | None:
    """The line of a 'file:line:col' location."""
    if not location:
        return None
    return int(location.rsplit(":", 2)[1])
