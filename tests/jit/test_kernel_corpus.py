"""Differential tests of the CPU executor against PoCL on the kernel corpus (issue 3).

Every case of tests/jit/kernel_cases.py runs twice with the same seeded inputs: the ``.cl``
source on PoCL (its recorded results: tests/pocl.py) and the committed ``.spv`` fixture on
``spirvkit.Program``. Integer outputs must be equal; float outputs within the case's ULP bound
(NaN matches NaN, -0.0 matches +0.0).

``test_pocl_reference`` runs only the PoCL half (and checks every compared buffer was written):
``pytest tests/jit/test_kernel_corpus.py -k pocl_reference``. PoCL results are cached per
session, so the differential test reuses them, and variants of a fixture (``.O0``,
``.spir32``) share one PoCL run.
"""

from __future__ import annotations

import difflib
import re

import numpy as np
import pocl
import pytest
from jit.kernel_cases import (
    BASE_CASES,
    CASES,
    EXACT,
    KERNELS,
    Bitwise,
    Buffer,
    Case,
    Exact,
    Fields,
    Interleaved,
    Local,
    Rel,
    Scalar,
    Struct,
    Ulp,
    Vector,
    make_values,
)
from ulp import ulp_distance

import spirvkit

# --------------------------------------------------------------------------- running

# One cache for the session, kept in the shared ``pocl`` module: this module can be imported
# twice under two names (pytest's, and ``jit.test_kernel_corpus`` from tests/clc), and a second
# PoCL run of a kernel that changes program-scope variables would not start from their
# initialisers (PoCL keeps them across rebuilds of the same source).
_POCL_RESULTS: dict[str, list] = pocl.SESSION_RESULTS
LAUNCH_TIMEOUT_S = 10.0


def _pocl_args(case: Case, values: list) -> list:
    args = []
    for spec, value in zip(case.args, values, strict=True):
        if isinstance(spec, Buffer):
            args.append(value)  # pocl.run copies it
        elif isinstance(spec, Local):
            args.append(pocl.Local(spec.nbytes))
        elif isinstance(spec, Scalar):
            args.append(value)
        elif isinstance(spec, Vector):
            vec = np.asarray(value)
            if vec.size == 3:  # a 3-wide vector argument takes the room of 4
                vec = np.concatenate([vec, np.zeros(1, vec.dtype)])
            args.append(pocl.Value(vec.tobytes()))
        elif isinstance(spec, Struct):
            args.append(pocl.Value(np.asarray(value).tobytes()))
        else:
            raise TypeError(spec)
    return args


def _pocl_can_run(case: Case) -> bool:
    return not case.pocl_missing and (not case.non_uniform or pocl.supports_non_uniform_work_groups())


def pocl_launch(case: Case, values: list) -> pocl.Launch:
    """The case's launch on PoCL (printf cases capture the printed text)."""
    return pocl.make_launch(case.source, case.kernel, case.global_size, case.local_size, _pocl_args(case, values),
                            options=case.options, global_offset=case.global_offset,
                            fresh_program=case.has_program_scope_globals, capture_stdout=bool(case.printf))


def pocl_outputs(case: Case) -> list:
    """PoCL's buffers after the launch (None for non-buffer arguments), cached per session; for
    printf cases the printed text follows. Where PoCL cannot run a case (non-uniform
    work-groups), the case's Python oracle stands in."""
    if case.ref_key not in _POCL_RESULTS:
        values = make_values(case)
        if _pocl_can_run(case):
            result = pocl.run_launch(pocl_launch(case, values), group="kernel_corpus")
            if case.pocl_fixup is not None:
                result = case.pocl_fixup(values, result)
        elif case.oracle is not None:
            result = case.oracle(values)
        else:
            pytest.skip(f"{case.id}: PoCL cannot run it ({case.pocl_missing or 'no non-uniform work-groups'}) "
                        "and the case has no oracle")
        _POCL_RESULTS[case.ref_key] = result
    return _POCL_RESULTS[case.ref_key]


def spirvkit_outputs(case: Case) -> list:
    values = make_values(case)
    args = []
    for spec, value in zip(case.args, values, strict=True):
        if isinstance(spec, Local):
            args.append(spirvkit.LocalMemory(spec.nbytes))
        else:
            args.append(value)
    kernel = spirvkit.Program(case.spv).kernel(case.kernel)
    extra = {} if case.global_offset is None else {"global_offset": case.global_offset}
    # Every case runs in well under a second; a hang (a barrier the executor gets wrong)
    # fails the one case instead of stalling the suite.
    printed: list[str] = []
    if case.printf:
        extra["printf"] = printed
    kernel(case.global_size, case.local_size, *args, timeout=LAUNCH_TIMEOUT_S, **extra)
    out = [value if isinstance(spec, Buffer) else None for spec, value in zip(case.args, args, strict=True)]
    return [*out, "".join(printed)] if case.printf else out


def compare_printf(case: Case, got: str, ref: str) -> list[str]:
    """The printed text: equal, or (mode "lines") the same lines in any order."""
    if case.printf == "lines":
        got_lines, ref_lines = sorted(got.splitlines(True)), sorted(ref.splitlines(True))
    else:
        got_lines, ref_lines = got.splitlines(True), ref.splitlines(True)
    if got_lines == ref_lines:
        return []
    diff = "".join(difflib.unified_diff(ref_lines, got_lines, "PoCL", "spirvkit", n=1))
    return [f"{case.id}: printf output differs ({case.printf}):\n{diff[:4000]}"]


# --------------------------------------------------------------------------- comparing


def _lanes(cmp, a: np.ndarray) -> np.ndarray:
    lanes = getattr(cmp, "lanes", None)
    return a if lanes is None else a[..., :lanes]


def _describe(where: str, bad: np.ndarray, got: np.ndarray, ref: np.ndarray, extra: str = "") -> str:
    idx = np.argwhere(bad)
    shown = "; ".join(
        f"{tuple(int(v) for v in i)}: got {got[tuple(i)]!r} expected {ref[tuple(i)]!r}" for i in idx[:6])
    return f"{where}: {len(idx)} of {bad.size} elements differ{extra}: {shown}"


def compare(cmp, got: np.ndarray, ref: np.ndarray, where: str) -> list[str]:
    """Problems found comparing ``got`` (spirvkit) with ``ref`` (PoCL); empty when they agree."""
    if isinstance(cmp, Interleaved):
        k = len(cmp.cmps)
        problems = []
        for j, sub in enumerate(cmp.cmps):
            problems += compare(sub, got[j::k], ref[j::k], f"{where}[{j}::{k}]")
        return problems
    if ref.dtype.names is not None:
        chosen = cmp.cmps if isinstance(cmp, Fields) else {}
        problems = []
        for name in ref.dtype.names:
            problems += compare(chosen.get(name, EXACT), got[name], ref[name], f"{where}.{name}")
        return problems
    if ref.dtype.subdtype is not None:  # never: numpy expands subarray fields
        raise AssertionError(ref.dtype)
    got, ref = _lanes(cmp, got), _lanes(cmp, ref)
    if isinstance(cmp, Bitwise) or ref.dtype.kind in "iub":
        g = got.view(f"u{ref.dtype.itemsize}") if ref.dtype.kind == "f" else got
        r = ref.view(f"u{ref.dtype.itemsize}") if ref.dtype.kind == "f" else ref
        bad = g != r
        return [_describe(where, bad, got, ref)] if bad.any() else []
    if isinstance(cmp, Exact):
        cmp = Ulp(0)
    if isinstance(cmp, Ulp):
        dist = ulp_distance(got, ref)
        bad = dist > cmp.allowed
        if bad.any():
            worst = int(dist.max()) if dist.max() != np.iinfo(np.uint64).max else "NaN mismatch"
            return [_describe(where, bad, got, ref, f" by more than {cmp.allowed} ulp (worst {worst})")]
        return []
    if isinstance(cmp, Rel):
        with np.errstate(invalid="ignore", over="ignore"):
            g, r = got.astype(np.float64), ref.astype(np.float64)
            close = np.abs(g - r) <= cmp.atol + cmp.rtol * np.abs(r)
            close |= (g == r) | (np.isnan(g) & np.isnan(r))
        bad = ~close
        return [_describe(where, bad, got, ref, f" beyond rtol {cmp.rtol} atol {cmp.atol}")] if bad.any() else []
    raise TypeError(f"unknown comparison {cmp!r}")


# --------------------------------------------------------------------------- tests


def _unique_reference_cases() -> list[Case]:
    seen, out = set(), []
    for case in CASES:
        if case.ref_key not in seen:
            seen.add(case.ref_key)
            out.append(case)
    return out


@pytest.mark.parametrize("case", _unique_reference_cases(), ids=lambda c: c.ref_key)
def test_pocl_reference(case):
    """PoCL builds and runs the .cl source, and writes every buffer the case compares."""
    outputs = pocl_outputs(case)
    before = make_values(case)
    if case.oracle is not None and _pocl_can_run(case):
        expected = case.oracle(before)
        for index, spec in enumerate(case.args):
            if isinstance(spec, Buffer) and spec.is_output:
                problems = compare(spec.cmp, expected[index], outputs[index], f"oracle of {case.id} argument {index}")
                assert not problems, "\n".join(problems)
    for index, spec in enumerate(case.args):
        if isinstance(spec, Buffer) and spec.is_output:
            assert outputs[index].tobytes() != before[index].tobytes(), (
                f"{case.id}: PoCL left output argument {index} untouched: the case table is wrong")


def compare_case(case: Case, got: list, ref: list, where: str = "") -> list[str]:
    """Problems found comparing every output buffer (and the printed text) of a case."""
    problems = []
    for index, spec in enumerate(case.args):
        if isinstance(spec, Buffer) and spec.is_output:
            problems += compare(spec.cmp, got[index], ref[index], f"{case.id} argument {index}{where}")
    if case.printf:
        problems += compare_printf(case, got[-1], ref[-1])
    return problems


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_kernel_matches_pocl(case):
    problems = compare_case(case, spirvkit_outputs(case), pocl_outputs(case))
    assert not problems, "\n".join(problems)


_KERNEL_DEF = re.compile(r"^\s*(?:__)?kernel\s+void\s+(\w+)", re.MULTILINE)


def _defined_kernels() -> set[tuple[str, str]]:
    found = set()
    for path in KERNELS.glob("*.cl"):
        for name in _KERNEL_DEF.findall(path.read_text(encoding="utf-8")):
            found.add((path.stem, name))
    return found


def test_corpus_has_at_least_60_kernels_all_covered():
    defined = _defined_kernels()
    assert len(defined) >= 60, f"only {len(defined)} kernels in {KERNELS}"
    covered = {(case.source_stem, case.kernel) for case in BASE_CASES}
    assert defined - covered == set(), f"kernels without a case: {sorted(defined - covered)}"
    assert covered - defined == set(), f"cases naming no kernel: {sorted(covered - defined)}"


def test_every_fixture_is_used_and_exists():
    fixtures = {path.name[: -len(".spv")] for path in KERNELS.glob("*.spv")}
    used = {case.fixture for case in CASES}
    assert fixtures - used == set(), f"fixtures no case runs: {sorted(fixtures - used)}"
    assert used - fixtures == set(), f"cases whose fixture is missing: {sorted(used - fixtures)}"
    for case in CASES:
        assert case.source.exists(), case.source


def test_manifest_lists_every_fixture():
    rows = [line.split("\t") for line in (KERNELS / "MANIFEST.tsv").read_text().splitlines() if line]
    assert sorted(row[0] for row in rows) == sorted(p.name for p in KERNELS.glob("*.spv"))
    for row in rows:
        assert row[4] in ("valid", "invalid"), row
        assert (row[4] == "valid") == row[6].startswith("validity"), row


def test_case_ids_are_unique():
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


@pytest.mark.parametrize("case", BASE_CASES, ids=lambda c: c.ref_key)
def test_inputs_are_deterministic(case):
    first, second = make_values(case), make_values(case)
    for a, b in zip(first, second, strict=True):
        if isinstance(a, np.ndarray | np.generic):
            assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
