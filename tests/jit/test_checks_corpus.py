"""No false alarm on the kernel corpus: every case of tests/jit/kernel_cases.py (llvm-spirv and
spirvkit cc fixtures: reductions, scans, stencils, tiled matrix products with barriers,
collectives, atomics) runs with ``checks="all"``, reports no finding, and computes what PoCL
computed (its recorded results, as in test_kernel_corpus.py)."""

from __future__ import annotations

import pytest
from jit.kernel_cases import BASE_CASES, Buffer, Local, make_values
from jit.test_kernel_corpus import LAUNCH_TIMEOUT_S, compare_case, pocl_outputs

import spirvkit

CASES = [case for case in BASE_CASES if not case.printf]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_corpus_kernel_with_all_checks_matches_pocl(case):
    values = make_values(case)
    args = [spirvkit.LocalMemory(spec.nbytes) if isinstance(spec, Local) else value
            for spec, value in zip(case.args, values, strict=True)]
    kernel = spirvkit.Program(case.spv).kernel(case.kernel)
    extra = {} if case.global_offset is None else {"global_offset": case.global_offset}
    findings = kernel(case.global_size, case.local_size, *args, timeout=LAUNCH_TIMEOUT_S, checks="all",
                      report=True, **extra)
    assert findings == [], "\n".join(f.summary() for f in findings)
    got = [value if isinstance(spec, Buffer) else None for spec, value in zip(case.args, args, strict=True)]
    problems = compare_case(case, got, pocl_outputs(case))
    assert not problems, "\n".join(problems)


def test_the_corpus_has_kernels_with_barriers():
    assert sum(1 for case in CASES if "barrier" in case.source.read_text()) >= 10
