"""The dynamic checks on the planted-fault kernel suite (tests/data/checks/): every expected
finding is reported, with its kind and at its line, and the clean twins report none.

The kernels are OpenCL C compiled with ``spirvkit cc -g`` (OpLine: findings carry their
file:line:col); each runs with ``checks="all"`` and ``report=True``.
"""

from __future__ import annotations

import pytest
from jit.check_suite import SUITE, compile_suite_file, location_line, make_arg, suite_kernels

_PROGRAMS: dict = {}


def _program(path):
    if path not in _PROGRAMS:
        _PROGRAMS[path] = compile_suite_file(path)
    return _PROGRAMS[path]


CASES = [k for path in sorted(SUITE.glob("*.cl")) for k in suite_kernels(path)]


def test_the_suite_has_faults_and_clean_twins_of_every_check():
    kinds = {kind for k in CASES for kind, _ in k.expected}
    assert kinds >= {"barriers", "access", "pointers", "uninitialized", "races"}
    assert sum(not k.expected for k in CASES) >= 10     # clean twins
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES, ids=[k.id for k in CASES])
def test_suite_kernel(case):
    from pathlib import Path

    kernel = _program(Path(case.file)).kernel(case.name)
    args = [make_arg(spec) for spec in case.args]
    findings = kernel(case.global_size, case.local_size, *args, checks="all", report=True, timeout=20)
    got = {(f.kind, location_line(f.location)) for f in findings}
    assert got == case.expected, "\n".join(f.summary() for f in findings)
    for f in findings:
        assert f.kernel == case.name and f.location.startswith(case.file)
        assert f.global_id is not None and len(f.global_id) == 3
        assert f.count >= 1 and f.instruction
