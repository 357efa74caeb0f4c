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

# Races the races check must report, and nothing else: compare-and-swap loops that take their
# first guess with a plain read of a location other work-items change atomically. The OpenCL
# memory model calls a plain read racing with an atomic write a data race (a benign one here:
# a stale guess only costs the loop a turn), as Oclgrind does.
PLAIN_READ_OF_ATOMICS = {"atomic_cmpxchg_loops": {"sum", "mx", "fsum"}, "atom64_global": {"g"}}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_corpus_kernel_with_all_checks_matches_pocl(case):
    values = make_values(case)
    args = [spirvkit.LocalMemory(spec.nbytes) if isinstance(spec, Local) else value
            for spec, value in zip(case.args, values, strict=True)]
    kernel = spirvkit.Program(case.spv).kernel(case.kernel)
    extra = {} if case.global_offset is None else {"global_offset": case.global_offset}
    findings = kernel(case.global_size, case.local_size, *args, timeout=LAUNCH_TIMEOUT_S, checks="all",
                      report=True, **extra)
    expected = PLAIN_READ_OF_ATOMICS.get(case.kernel, set())
    races = [f for f in findings if f.kind == "races" and (
        (f.message.startswith("a read of ") and "conflicts with an atomic write" in f.message)
        # (the other side's record may hold its own atomic write too: "an atomic write and a read")
        or (f.message.startswith("an atomic access of ") and ("conflicts with a read by" in f.message or
                                                              "conflicts with an atomic write and a read by"
                                                              in f.message)))]
    assert [f for f in findings if f not in races] == [], "\n".join(f.summary() for f in findings)
    assert {f.argument.split("'")[1] for f in races} == expected
    got = [value if isinstance(spec, Buffer) else None for spec, value in zip(case.args, args, strict=True)]
    problems = compare_case(case, got, pocl_outputs(case))
    assert not problems, "\n".join(problems)


def test_the_corpus_has_kernels_with_barriers():
    assert sum(1 for case in CASES if "barrier" in case.source.read_text()) >= 10
