"""The OpenCL.std accuracy sweep: run every math function through spirvkit for half, float and
double and measure its error against a high-precision reference (see ``__init__.py``).

    python -m tests.accuracy.sweep [--full] [--count N] [--only FN ...] [--types float,double,half]
                                   [--seed S] [--width W] [--write docs/accuracy.md]

Without ``--full`` each function gets about 10^4 inputs per type (the pytest sample); ``--full``
makes it 10^6 (``--count`` sets any other number). Exits with status 1 when a bound is exceeded
or an edge case is wrong.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import edge_cases, kernels
from .functions import CR, FUNCTIONS, ID, MAD, swept_names
from .inputs import sample
from .kernels import TYPES
from .references import LD
from .ulp import ulp_error

SAMPLE_COUNT = 10_000
FULL_COUNT = 1_000_000
# A correctly rounded result is within 0.5 ulp of the exact value; the long-double reference may
# be off by 2^-11 ulp (double), so CR passes up to 0.5 + 2^-10.
CR_LIMIT = 0.5 + 2.0**-10


@dataclass
class Result:
    name: str
    type: str
    count: int = 0
    status: str = "measured"  # measured | unsupported | undefined
    max_ulp: float = 0.0
    bound: object = None
    worst: str = ""
    note: str = ""
    seconds: float = 0.0
    failures: list = field(default_factory=list)

    @property
    def passed(self) -> bool | None:
        if self.status != "measured":
            return None
        return not self.failures


def limit_of(bound) -> float:
    """The largest error a bound allows (inf for implementation-defined)."""
    if bound == CR:
        return CR_LIMIT
    if bound in (ID, MAD):
        return np.inf
    return float(bound)


def _fmt(v) -> str:
    if isinstance(v, (np.integer, int)):
        return str(int(v))
    v = float(v)
    return repr(v) if not np.isfinite(v) or v == 0 else f"{v!r} ({v.hex()})"


def _mad_error(args, got, t):
    """Distance of mad's result from the nearer of the fused and the unfused value, in ulps."""
    dt = TYPES[t]
    a, b, c = (x.astype(dt) for x in args)
    fused = FUNCTIONS["fma"].reference([x.astype(LD) for x in args], t)
    with np.errstate(all="ignore"):
        unfused = (a * b + c) if t != "half" else (a * b).astype(dt) + c
    e_fused = ulp_error(got, fused, dt)
    e_fused = np.where(e_fused <= CR_LIMIT, 0.0, e_fused)
    exact_unfused = (got == unfused) | (np.isnan(got) & np.isnan(unfused))
    return np.where(exact_unfused, 0.0, e_fused)


def _output_errors(fn, t, args, outs, refs) -> list[np.ndarray]:
    """Per-output error arrays: ulps for float outputs, 0/inf for int outputs."""
    dt = TYPES[t]
    errs = []
    for kind, got, ref in zip(fn.outputs, outs, refs):
        if kind == "I":
            if fn.name == "remquo":  # the sign and the low 7 bits of the quotient
                ok = (np.sign(got) == np.sign(ref)) & (np.abs(got) % 128 == np.abs(ref) % 128)
                ok |= ~np.isfinite(refs[0].astype(np.float64)) | (ref == 0)
            elif fn.name == "lgamma_r":  # the sign; unspecified for NaN
                ok = (got == ref) | np.isnan(args[0])
            else:
                ok = got.astype(np.int64) == ref
            # A wrong int is a failure whatever the float bound (lgamma_r's sign is exact).
            errs.append(np.where(ok, 0.0, np.nan))
        elif fn.bounds[t] == MAD:
            errs.append(_mad_error(args, got, t))
        else:
            err = ulp_error(got, ref, dt)
            if not fn.zero_sign:
                err = np.where((got == 0) & (ref == 0), 0.0, err)
            errs.append(err)
    return errs


def measure(name: str, t: str, count: int, seed: int = 0, width: int = 1) -> Result:
    """Run function `name` for type t on about `count` inputs and measure it (with the
    instruction's vector form of `width` lanes when width > 1)."""
    fn = FUNCTIONS[name]
    bound = fn.bounds[t]
    res = Result(name, t, bound=bound)
    if bound is None:
        res.status = "undefined"
        return res
    start = time.perf_counter()
    args = sample(name, fn.operands, t, count, seed)
    outs = kernels.run(name, t, fn.operands, fn.result, args, width)
    if isinstance(outs, str):
        res.status, res.note = "unsupported", outs
        return res
    with np.errstate(invalid="ignore"):  # numpy warns about NaNs widened to long double
        wide = [a.astype(LD) if a.dtype.kind == "f" else a.astype(np.int64) for a in args]
        refs = fn.reference(wide, t)
    refs = refs if isinstance(refs, tuple) else (refs,)
    with np.errstate(invalid="ignore"):
        errs = _output_errors(fn, t, args, outs, refs)
    stacked = np.stack(errs)
    wrong_int = np.isnan(stacked).any(axis=0)
    err = np.nanmax(np.where(np.isnan(stacked), np.inf, stacked), axis=0)
    res.count = len(args[0])
    worst = int(np.argmax(err))
    res.max_ulp = float(err[worst])
    got = ", ".join(_fmt(o[worst]) for o in outs)
    want = ", ".join(_fmt(r[worst].astype(np.float64) if r.dtype.kind == "f" else r[worst])
                     for r in refs)
    res.worst = f"{name}({', '.join(_fmt(a[worst]) for a in args)}) = {got}; exact {want}"
    limit = limit_of(bound)
    bad = np.flatnonzero((err > limit) | wrong_int)
    res.failures = [
        f"{name}({', '.join(_fmt(a[i]) for a in args)}) = "
        f"{', '.join(_fmt(o[i]) for o in outs)}: {err[i]:.3g} ulp"
        for i in bad[:5]
    ] + ([f"... {len(bad) - 5} more"] if len(bad) > 5 else [])
    res.seconds = time.perf_counter() - start
    return res


def run_sweep(names, types, count, seed=0, progress=None, width=1) -> list[Result]:
    results = []
    for name in names:
        for t in types:
            r = measure(name, t, count, seed, width)
            results.append(r)
            if progress:
                progress(r)
    return results


# ---------------------------------------------------------------------------------------------
# Report


def _bound_text(bound) -> str:
    if bound == ID:
        return "impl-defined"
    if bound == CR:
        return "CR (0.5)"
    return str(bound)


def _ulp_text(r: Result) -> str:
    if r.status != "measured":
        return "—"
    if r.max_ulp == np.inf:
        return "inf (wrong special value)"
    return f"{r.max_ulp:.3g}"


def markdown(results: list[Result], edges: list, command: str, count_note: str) -> str:
    measured = [r for r in results if r.status == "measured"]
    failed = [r for r in measured if not r.passed]
    unsupported = [r for r in results if r.status == "unsupported"]
    lines = [
        "# OpenCL.std accuracy",
        "",
        "Generated by `" + command + "` (tests/accuracy). " + count_note,
        "",
        "Every math instruction of the OpenCL.std extended instruction set (the grammar's opcodes "
        "0–94, with the `half_*` and `native_*` forms) and the common functions that have ULP "
        "bounds, run through spirvkit (one kernel per function and type, built from SPIR-V "
        "assembly, one launch over all inputs) and compared with a high-precision reference "
        "(long double libm, exact arithmetic, or mpmath: see tests/accuracy/references.py). "
        "Errors are in ulps as the OpenCL SPIR-V environment spec defines them, measured against "
        "the unrounded reference; bounds are the full-profile ones (CR = correctly rounded: "
        "≤ 0.5 ulp; 0 = exact). `native_*` and `lgamma` are implementation-defined: their error "
        "is reported, never failed. `mad` passes when each result is either the fused or the "
        "unfused (multiply, round, add, round) value. Inputs: special values and their pairs, "
        "random encodings, log-uniform magnitudes over the whole range, and each function's "
        "interesting region (poles, zeros, huge arguments, overflow thresholds); for half every "
        "encoding of a one-operand function.",
        "",
        f"**{len(measured) - len(failed)} of {len(measured)} measured function/type pairs pass; "
        f"{len(unsupported)} are not supported yet; "
        f"{sum(1 for e in edges if e.ok)} of {len(edges)} edge cases exact.**",
        "",
        "| function | type | inputs | max ulp | bound | pass | worst input |",
        "|---|---|---:|---:|---|---|---|",
    ]
    for r in results:
        if r.status == "undefined":
            continue
        if r.status == "unsupported":
            lines.append(f"| {r.name} | {r.type} | — | — | {_bound_text(r.bound)} | "
                         f"not supported yet | |")
            continue
        verdict = ("reported" if r.bound == ID else "pass") if r.passed else "**FAIL**"
        worst = r.worst.replace("|", "\\|") if r.max_ulp > 0 else ""
        lines.append(f"| {r.name} | {r.type} | {r.count} | {_ulp_text(r)} | "
                     f"{_bound_text(r.bound)} | {verdict} | {worst} |")
    # Correctly rounded and exact functions either meet their bound or fail; rank the others.
    ranked = sorted((r for r in measured if not isinstance(r.bound, str) and r.bound > 0),
                    key=lambda r: -r.max_ulp / limit_of(r.bound))
    lines += ["", "## Closest to their bounds", "",
              "The functions with a numeric ulp bound, by the fraction of it they use.", "",
              "| function | type | max ulp | bound | fraction of bound |", "|---|---|---:|---|---:|"]
    for r in ranked[:12]:
        lines.append(f"| {r.name} | {r.type} | {_ulp_text(r)} | {_bound_text(r.bound)} | "
                     f"{r.max_ulp / limit_of(r.bound):.2f} |")
    types = list(dict.fromkeys(e.type for e in edges))
    lines += ["", "## Edge cases", "",
              "The exact values the spec requires beyond the ULP bounds (its list of additional "
              "requirements, and C99 Annex F for the rest), checked bit for bit (NaN payloads "
              "aside; the sign of zero included) for every type. Expected values are shown for "
              "float (the other types expect the same value rounded to them).", "",
              "| case | expected | " + " | ".join(types) + " |",
              "|---|---|" + "---|" * len(types)]
    by_case: dict[str, dict] = {}
    for e in edges:
        by_case.setdefault(e.text, {})[e.type] = e

    def cell(e):
        if e is None:
            return "n/a"
        if e.ok is None:
            return "not supported yet"
        return "exact" if e.ok else f"**got {e.got}**"
    for text, per_type in by_case.items():
        shown = per_type.get("float") or next(iter(per_type.values()))
        lines.append(f"| `{text}` | {shown.expected} | "
                     + " | ".join(cell(per_type.get(t)) for t in types) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.accuracy.sweep", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--full", action="store_true", help=f"{FULL_COUNT} inputs per function and type")
    p.add_argument("--count", type=int, help="inputs per function and type")
    p.add_argument("--counts", default="", help="per-type counts, e.g. double=200000 (overrides)")
    p.add_argument("--only", nargs="+", metavar="FN", help="just these functions")
    p.add_argument("--types", default="float,double,half")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--width", type=int, default=1, choices=(1, 2, 3, 4, 8, 16),
                   help="run the vector forms with this many lanes (default: scalar)")
    p.add_argument("--write", metavar="PATH", help="write the markdown table there")
    p.add_argument("--note", default="", help="text added under the heading of the written table")
    a = p.parse_args(argv)
    count = a.count or (FULL_COUNT if a.full else SAMPLE_COUNT)
    per_type = {k: int(v) for k, v in (kv.split("=") for kv in a.counts.split(",") if kv)}
    types = [t.strip() for t in a.types.split(",") if t.strip()]
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        p.error(f"unknown types {unknown}; choose from {list(TYPES)}")
    names = swept_names()
    if a.only:
        bad = [n for n in a.only if n not in names]
        if bad:
            p.error(f"not swept functions: {bad}")
        names = [n for n in names if n in a.only]

    def progress(r: Result):
        if r.status == "undefined":
            return
        state = ("not supported yet" if r.status == "unsupported" else
                 f"{r.count:>8} inputs  max {_ulp_text(r):>8} ulp  bound {_bound_text(r.bound):<12} "
                 f"{'ok' if r.passed else 'FAIL'}  {r.seconds:5.1f}s")
        print(f"{r.name:<14} {r.type:<6} {state}", flush=True)
        for f in r.failures:
            print(f"    {f}", flush=True)

    results = []
    for t in types:
        results += run_sweep(names, [t], per_type.get(t, count), a.seed, progress, a.width)
    order = {n: i for i, n in enumerate(names)}
    results.sort(key=lambda r: (order[r.name], types.index(r.type)))
    edges = edge_cases.check(types, names)
    for e in edges:
        if e.ok is False:
            print(f"edge case wrong: {e.text} ({e.type}): expected {e.expected}, got {e.got}")
    failed = [r for r in results if r.passed is False]
    wrong_edges = [e for e in edges if e.ok is False]
    print(f"{len(failed)} function/type pairs over their bound; {len(wrong_edges)} edge cases wrong")
    if a.write:
        shown = list(argv if argv is not None else sys.argv[1:])
        if "--note" in shown:  # the note is printed below the command anyway
            i = shown.index("--note")
            del shown[i:i + 2]
        command = "python -m tests.accuracy.sweep " + " ".join(shown)
        counts = ", ".join(f"{t}: {per_type.get(t, count)}" for t in types)
        note = f"Requested inputs per function ({counts}; the tables give the actual counts, which include every special value or pair). {a.note}"
        from .geometric import existing_section
        kept = existing_section(Path(a.write))   # written by tests/accuracy/geometric.py
        with open(a.write, "w") as f:
            f.write(markdown(results, edges, command.strip(), note.strip()) + ("\n" + kept if kept else ""))
    return 1 if failed or wrong_edges else 0


if __name__ == "__main__":
    sys.exit(main())
