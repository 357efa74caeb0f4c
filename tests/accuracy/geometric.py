"""Accuracy sweep of the OpenCL.std geometric functions: cross, length, distance, normalize and
fast_length, fast_distance, fast_normalize, for every vector width (2, 3, 4; scalars too where
OpenCL.std allows them) and half, float, double.

    python -m tests.accuracy.geometric [--full] [--count N] [--types ...] [--write docs/accuracy.md]

Their bounds depend on the vector width n (environment spec ULP table, geometric rows, with the
column order of its footnote †): length 2.75+0.5n ulp (float), 5.5+n (double), 0.25+0.5n (half);
distance 2.5+2n / 5.5+2n / 2n; normalize 2+n / 4.5+n / 1+n per component; fast_length
8191.5+n, fast_distance 8191.5+2n, fast_normalize 8192+n (float only). cross has an absolute
bound, max^2 * 3 * EPS with max the largest input magnitude and EPS = FLT_EPSILON for float and
double, HALF_EPSILON for half: its error is reported in units of max^2 * EPS (bound 3).

Inputs (vectors, per width): components of similar magnitude at an exponent drawn over the whole
range (so some vectors are huge, some denormal: length must not overflow or underflow), components
of independent magnitudes, vectors at the overflow and underflow edges, and special values (+-0,
+-inf, NaN, denormals) sprinkled into components. References: long double (64-bit significand,
15-bit exponent: no double square over- or underflows there). The special cases of OpenCL C 6.13.5
(normalize of a zero vector, of infinite and NaN components; length of infinite components) are
checked exactly in ``EDGE_CASES``.

``--write`` replaces the "Geometric functions" section of the file (or appends it), leaving the
rest of docs/accuracy.md as the main sweep wrote it; the main sweep keeps this section when it
rewrites the file.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import zlib
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import numpy as np

import spirvkit

from .kernels import TYPES, _aligned_buffer
from .ulp import FORMATS, spec_ulp, ulp_error

LD = np.longdouble
SECTION_BEGIN = "<!-- geometric:begin -->"
SECTION_END = "<!-- geometric:end -->"
_WIDTH = {"half": 16, "float": 32, "double": 64}


@dataclass(frozen=True)
class Geometric:
    name: str
    operands: int
    vector_result: bool
    widths: tuple[int, ...]
    bounds: dict          # type -> (n -> bound), or None where the function does not exist


def _b(f, d, h):
    return {"float": f, "double": d, "half": h}


FUNCTIONS = {
    "cross": Geometric("cross", 2, True, (3, 4), _b(lambda n: 3.0, lambda n: 3.0, lambda n: 3.0)),
    "length": Geometric("length", 1, False, (1, 2, 3, 4),
                        _b(lambda n: 2.75 + 0.5 * n, lambda n: 5.5 + n, lambda n: 0.25 + 0.5 * n)),
    "distance": Geometric("distance", 2, False, (1, 2, 3, 4),
                          _b(lambda n: 2.5 + 2 * n, lambda n: 5.5 + 2 * n, lambda n: 2.0 * n)),
    "normalize": Geometric("normalize", 1, True, (1, 2, 3, 4),
                           _b(lambda n: 2.0 + n, lambda n: 4.5 + n, lambda n: 1.0 + n)),
    "fast_length": Geometric("fast_length", 1, False, (1, 2, 3, 4), _b(lambda n: 8191.5 + n, None, None)),
    "fast_distance": Geometric("fast_distance", 2, False, (1, 2, 3, 4), _b(lambda n: 8191.5 + 2 * n, None, None)),
    "fast_normalize": Geometric("fast_normalize", 1, True, (1, 2, 3, 4), _b(lambda n: 8192.0 + n, None, None)),
}
BOUND_TEXT = {
    "cross": {"float": "max²·3·FLT_EPS", "double": "max²·3·FLT_EPS", "half": "max²·3·HALF_EPS"},
    "length": {"float": "2.75+0.5n", "double": "5.5+n", "half": "0.25+0.5n"},
    "distance": {"float": "2.5+2n", "double": "5.5+2n", "half": "2n"},
    "normalize": {"float": "2+n", "double": "4.5+n", "half": "1+n"},
    "fast_length": {"float": "8191.5+n"}, "fast_distance": {"float": "8191.5+2n"},
    "fast_normalize": {"float": "8192+n"},
}


# ---------------------------------------------------------------------------------------------
# Kernels: work-item i loads n components of each operand (a flat array, stride n), builds the
# vector, applies the instruction and stores the result's components.

def kernel_source(name: str, type_name: str, n: int, operands: int, vector_result: bool) -> str:
    w = _WIDTH[type_name]
    vt = "%T" if n == 1 else "%V"
    rt = vt if vector_result else "%T"
    lines = ["OpCapability Addresses", "OpCapability Kernel", "OpCapability Int64", "OpCapability Float16",
             "OpCapability Float64", '%ext = OpExtInstImport "OpenCL.std"', "OpMemoryModel Physical64 OpenCL",
             'OpEntryPoint Kernel %main "main" %gidv', "OpDecorate %gidv BuiltIn GlobalInvocationId",
             "OpDecorate %gidv Constant", "%void = OpTypeVoid", f"%T = OpTypeFloat {w}", "%ulong = OpTypeInt 64 0"]
    if n > 1:
        lines.append(f"%V = OpTypeVector %T {n}")
    lines += ["%v3ulong = OpTypeVector %ulong 3", "%pIn = OpTypePointer Input %v3ulong",
              "%pT = OpTypePointer CrossWorkgroup %T",
              "%fn = OpTypeFunction %void " + " ".join(["%pT"] * (operands + 1)),
              "%gidv = OpVariable %pIn Input"]
    lines += [f"%ulong_{k} = OpConstant %ulong {k}" for k in sorted({n} | set(range(n)))]
    lines += ["%main = OpFunction %void None %fn"]
    lines += [f"%b{j} = OpFunctionParameter %pT" for j in range(operands + 1)]
    lines += ["%entry = OpLabel", "%g3 = OpLoad %v3ulong %gidv Aligned 32", "%gid = OpCompositeExtract %ulong %g3 0",
              f"%base = OpIMul %ulong %gid %ulong_{n}"]
    for k in range(n):
        lines.append(f"%i{k} = OpIAdd %ulong %base %ulong_{k}")
    for j in range(operands):
        for k in range(n):
            lines += [f"%p{j}_{k} = OpInBoundsPtrAccessChain %pT %b{j} %i{k}", f"%x{j}_{k} = OpLoad %T %p{j}_{k}"]
        if n > 1:
            lines.append(f"%v{j} = OpCompositeConstruct %V " + " ".join(f"%x{j}_{k}" for k in range(n)))
        else:
            lines.append(f"%v{j} = OpCopyObject %T %x{j}_0")
    args = " ".join(f"%v{j}" for j in range(operands))
    lines.append(f"%r = OpExtInst {rt} %ext {name} {args}")
    out = operands
    if vector_result and n > 1:
        for k in range(n):
            lines += [f"%r{k} = OpCompositeExtract %T %r {k}", f"%q{k} = OpInBoundsPtrAccessChain %pT %b{out} %i{k}",
                      f"OpStore %q{k} %r{k}"]
    elif vector_result:
        lines += [f"%q0 = OpInBoundsPtrAccessChain %pT %b{out} %i0", "OpStore %q0 %r"]
    else:
        lines += [f"%q = OpInBoundsPtrAccessChain %pT %b{out} %gid", "OpStore %q %r"]
    lines += ["OpReturn", "OpFunctionEnd"]
    return "\n".join(lines) + "\n"


_compiled: dict = {}


def run(name: str, type_name: str, n: int, inputs: list[np.ndarray]) -> np.ndarray:
    """inputs: (count, n) arrays of the type; returns (count, n) or (count,) results."""
    fn = FUNCTIONS[name]
    key = (name, type_name, n)
    if key not in _compiled:
        text = kernel_source(name, type_name, n, fn.operands, fn.vector_result)
        binary = spirvkit.assemble(text, target_env="opencl2.2")
        _compiled[key] = spirvkit.Program(binary).kernel("main").compile(unchecked=True)
    k = _compiled[key]
    count = len(inputs[0])
    dt = TYPES[type_name]
    ins = [_aligned_buffer(np.ascontiguousarray(x, dt).reshape(-1), 1) for x in inputs]
    out = _aligned_buffer(np.zeros(count * (n if fn.vector_result else 1), dt), 1)
    k(count, None, *ins, out, unchecked=True)
    return out.reshape(count, n) if fn.vector_result else out


# ---------------------------------------------------------------------------------------------
# Inputs and references

def vectors(type_name: str, n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    dt = np.dtype(TYPES[type_name])
    mant, emin, emax = FORMATS[dt]
    lo = emin - mant
    kind = rng.random(count)
    base = rng.integers(lo, emax + 1, size=(count, 1))
    edge = np.where(rng.random((count, 1)) < 0.5, rng.integers(emax - 4, emax + 1, size=(count, 1)),
                    rng.integers(lo, emin + 4, size=(count, 1)))
    exps = np.where(kind[:, None] < 0.5, base + rng.integers(-4, 5, size=(count, n)),
                    np.where(kind[:, None] < 0.8, rng.integers(lo, emax + 1, size=(count, n)),
                             edge + rng.integers(-2, 1, size=(count, n))))
    exps = np.clip(exps, lo, emax)
    with np.errstate(all="ignore"):
        vals = np.ldexp(rng.uniform(1, 2, size=(count, n)), exps) * rng.choice([-1.0, 1.0], size=(count, n))
        vals = vals.astype(dt)
    vals = np.where(np.isinf(vals), np.copysign(np.finfo(dt).max, vals), vals).astype(dt)
    # Special values in a few components.
    fi = np.finfo(dt)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, fi.smallest_subnormal, -fi.smallest_subnormal,
                         fi.max, -fi.max, fi.smallest_normal, 1.0, -1.0], dt)
    mask = rng.random((count, n)) < 0.02
    vals[mask] = rng.choice(specials, size=int(mask.sum()))
    return vals


def _length_ref(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        r = np.sqrt(np.sum(x * x, axis=-1))
    return np.where(np.isinf(x).any(axis=-1), LD(np.inf), r)


def _normalize_ref(x: np.ndarray) -> np.ndarray:
    inf = np.isinf(x)
    any_inf = inf.any(axis=-1, keepdims=True)
    with np.errstate(all="ignore"):
        x = np.where(any_inf, np.where(inf, np.copysign(LD(1), x), LD(0) * x), x)
        length = np.sqrt(np.sum(x * x, axis=-1, keepdims=True))
        r = x / length
    zero = (length == 0)
    return np.where(zero, x, r)


def reference(name: str, args: list[np.ndarray]) -> np.ndarray:
    with np.errstate(all="ignore"):   # inf - inf, NaN widening: the reference handles them
        return _reference(name, args)


def _reference(name: str, args: list[np.ndarray]) -> np.ndarray:
    base = name.removeprefix("fast_")
    x = [a.astype(LD) for a in args]
    if base == "length":
        return _length_ref(x[0])
    if base == "distance":
        return _length_ref(x[0] - x[1])
    if base == "normalize":
        return _normalize_ref(x[0])
    a, b = x
    pairs = ((1, 2, 2, 1), (2, 0, 0, 2), (0, 1, 1, 0))
    out = np.stack([a[:, i] * b[:, j] - a[:, k] * b[:, m] for i, j, k, m in pairs], axis=1)
    if args[0].dtype == np.float64:
        # Double products have 106 significant bits, long double 64: where the two products
        # cancel, recompute the difference exactly (float and half products are exact in long
        # double, their differences are off by 2^-64 of the products at most).
        for c, (i, j, k, m) in enumerate(pairs):
            scale = np.maximum(np.abs(a[:, i] * b[:, j]), np.abs(a[:, k] * b[:, m]))
            rows = np.flatnonzero(np.isfinite(scale) & (np.abs(out[:, c]) < scale * LD(2.0**-40)))
            for r in rows:
                out[r, c] = _exact_difference(args[0][r, i], args[1][r, j], args[0][r, k], args[1][r, m])
    return out


def _exact_difference(p, q, r, s) -> LD:
    """p*q - r*s exactly, rounded to long double (via a 30-digit decimal)."""
    exact = Fraction(float(p)) * Fraction(float(q)) - Fraction(float(r)) * Fraction(float(s))
    if exact == 0:
        return LD(0)
    with localcontext() as ctx:
        ctx.prec = 30
        return LD(f"{Decimal(exact.numerator) / Decimal(exact.denominator):.25e}")


# ---------------------------------------------------------------------------------------------
# Measuring

@dataclass
class Result:
    name: str
    type: str
    width: int
    count: int = 0
    max_err: float = 0.0
    bound: float = 0.0
    worst: str = ""
    failures: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def _fmt(v) -> str:
    return repr(float(v))


def measure(name: str, t: str, n: int, count: int, seed: int = 0) -> Result:
    fn = FUNCTIONS[name]
    bound = fn.bounds[t](n)
    rng = np.random.default_rng([seed, zlib.crc32(name.encode()), n, _WIDTH[t]])
    if name == "cross":
        args = [vectors(t, n, count, rng), vectors(t, n, count, rng)]
        # Cancellation-heavy cases: nearly parallel vectors.
        half = count // 4
        with np.errstate(all="ignore"):   # scaled copies may overflow: such rows just fail to fit
            args[1][:half] = (args[0][:half].astype(np.float64)
                              * rng.uniform(0.5, 2, size=(half, 1))).astype(TYPES[t])
    else:
        args = [vectors(t, n, count, rng) for _ in range(fn.operands)]
    got = run(name, t, n, args)
    ref = reference(name, args)
    dt = np.dtype(TYPES[t])
    if name == "cross":
        eps = LD(np.finfo(np.float16 if t == "half" else np.float32).eps)
        biggest = np.maximum(np.abs(args[0].astype(LD)).max(axis=1), np.abs(args[1].astype(LD)).max(axis=1))
        # The final rounding to the type (half an ulp of the exact component) is allowed on top:
        # no result can avoid it, and near the underflow threshold it exceeds max^2 * EPS.
        rounding = spec_ulp(np.where(np.isfinite(ref), ref, LD(1)), dt) / 2
        with np.errstate(all="ignore"):
            err3 = np.maximum(np.abs(got[:, :3].astype(LD) - ref) - rounding, 0) / (biggest[:, None] ** 2 * eps)
        finite = np.isfinite(args[0]).all(axis=1) & np.isfinite(args[1]).all(axis=1)
        # Inputs whose products overflow the type have no finite bound to meet; NaN results must
        # come from NaN references.
        fits = np.abs(ref).max(axis=1) <= LD(float(np.finfo(dt).max))
        nan_ok = np.isnan(got[:, :3]) == np.isnan(ref)
        err3 = np.where(np.isnan(ref), 0.0, err3)
        err3 = np.where(np.isnan(err3), 0.0, err3.astype(np.float64))   # NaN references: checked below
        err = np.where(finite & fits, err3.max(axis=1), 0.0)
        err = np.where(nan_ok.all(axis=1) | ~finite, err, np.inf)
        if n == 4:
            err = np.where((got[:, 3] == 0) & ~np.signbit(got[:, 3]), err, np.inf)
    else:
        e = ulp_error(got, ref, dt)
        err = e.max(axis=1) if e.ndim == 2 else e
    res = Result(name, t, n, count, bound=bound)
    worst = int(np.argmax(err))
    res.max_err = float(err[worst])
    fmt_args = "; ".join("(" + ", ".join(_fmt(v) for v in a[worst]) + ")" for a in args)
    shown_got = got[worst] if got.ndim == 1 else "(" + ", ".join(_fmt(v) for v in got[worst]) + ")"
    res.worst = f"{name}({fmt_args}) = {shown_got if got.ndim == 2 else _fmt(shown_got)}"
    bad = np.flatnonzero(err > bound)
    res.failures = [f"{name}({'; '.join(str(a[i].tolist()) for a in args)}) = {got[i].tolist()}: {err[i]:.3g}"
                    for i in bad[:5]]
    return res


# ---------------------------------------------------------------------------------------------
# Exact special cases (OpenCL C 6.13.5; ULP-table footnotes)

INF, NAN = math.inf, math.nan
EDGE_CASES = [
    ("normalize", [[0.0, 0.0, 0.0]], [0.0, 0.0, 0.0]),
    ("normalize", [[-0.0, 0.0, -0.0]], [-0.0, 0.0, -0.0]),
    ("normalize", [[INF, 1.0, -INF]], [1 / math.sqrt(2), 0.0, -1 / math.sqrt(2)]),
    ("normalize", [[-INF, 2.0, -3.0]], [-1.0, 0.0, -0.0]),
    ("normalize", [[NAN, 1.0, 2.0]], [NAN, NAN, NAN]),
    ("normalize", [[INF, NAN, 0.0]], [NAN, NAN, NAN]),
    ("normalize", [[0.0, -0.0]], [0.0, -0.0]),
    ("normalize", [[-5.0]], [-1.0]),
    ("length", [[INF, 1.0, 0.0]], INF),
    ("length", [[-INF, NAN, 0.0]], INF),
    ("length", [[NAN, 1.0, 0.0]], NAN),
    ("length", [[0.0, -0.0, 0.0]], 0.0),
    ("length", [[3.0, -4.0]], 5.0),
    ("distance", [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], 0.0),
    ("distance", [[4.0, 0.0], [1.0, -4.0]], 5.0),
    ("cross", [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [0.0, 0.0, 1.0]),
    ("cross", [[0.0, 1.0, 0.0, 7.0], [0.0, 0.0, 1.0, 9.0]], [1.0, 0.0, 0.0, 0.0]),
]


@dataclass
class Edge:
    text: str
    type: str
    ok: bool
    got: str


def check_edges(types) -> list[Edge]:
    out = []
    for name, args, expected in EDGE_CASES:
        n = len(args[0])
        exp = np.atleast_1d(np.array(expected, np.float64))
        for t in types:
            dt = TYPES[t]
            arrays = [np.array([a], dt) for a in args]
            got = np.atleast_1d(run(name, t, n, arrays)[0]).astype(np.float64)
            want = exp.astype(dt).astype(np.float64)
            if name == "normalize" and t != "half" and not np.isnan(want).any() and np.abs(want).max() < 1:
                ok = bool(np.all(np.abs(got - want) <= np.abs(want) * 4 * np.finfo(dt).eps)
                          and np.array_equal(np.signbit(got), np.signbit(want)))
            else:
                ok = bool(np.all((np.isnan(got) & np.isnan(want)) | ((got == want)
                                 & (np.signbit(got) == np.signbit(want)))))
            text = f"{name}({', '.join(_vec_text(a) for a in args)})"
            out.append(Edge(text, t, ok, _vec_text(got)))
    return out


def _vec_text(v) -> str:
    v = list(np.atleast_1d(v))
    return "(" + ", ".join(_num(x) for x in v) + ")" if len(v) > 1 else _num(v[0])


def _num(x) -> str:
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:g}" if x != 0 else ("-0" if math.copysign(1, x) < 0 else "0")


# ---------------------------------------------------------------------------------------------
# Report

def markdown(results: list[Result], edges: list[Edge], command: str) -> str:
    failed = [r for r in results if not r.passed]
    lines = [SECTION_BEGIN, "## Geometric functions", "",
             f"Generated by `{command}` (tests/accuracy/geometric.py). The geometric instructions for "
             "each vector width n (1 = the scalar form), on vectors with components of similar and of "
             "independent magnitudes over the whole range, at the overflow and underflow edges, and with "
             "special values; errors against long-double references. Bounds depend on n (environment spec "
             "ULP table, geometric rows). length, distance and normalize: max ulp (normalize: of any "
             "component). cross: the absolute error in units of max²·EPS (max = the largest input "
             "magnitude; EPS = FLT_EPSILON for float and double, HALF_EPSILON for half), bound 3, beyond "
             "the unavoidable final rounding of each component (half an ulp of the exact value: near the "
             "underflow threshold max²·EPS is smaller than the type's spacing).", "",
             f"**{len(results) - len(failed)} of {len(results)} function/type/width triples pass; "
             f"{sum(e.ok for e in edges)} of {len(edges)} special cases exact.**", "",
             "| function | type | n | inputs | max error | bound | pass | worst input |",
             "|---|---|---:|---:|---:|---|---|---|"]
    for r in results:
        unit = " (max²·EPS)" if r.name == "cross" else " ulp"
        bound = f"{BOUND_TEXT[r.name][r.type]} = {r.bound:g}{unit if r.name != 'cross' else ''}"
        worst = r.worst.replace("|", "\\|") if r.max_err > 0 else ""
        lines.append(f"| {r.name} | {r.type} | {r.width} | {r.count} | {r.max_err:.3g} | {bound} | "
                     f"{'pass' if r.passed else '**FAIL**'} | {worst} |")
    types = list(dict.fromkeys(e.type for e in edges))
    lines += ["", "### Geometric special cases", "",
              "OpenCL C 6.13.5: normalize returns an all-zero vector unchanged, makes every component NaN "
              "when one is NaN, and first maps infinite components to copysign(1, x) and the others to "
              "0·x; length of a vector with an infinite component is +inf (also with a NaN component, as "
              "C99 hypot); the w component of a 4-component cross is 0. Checked bit for bit (normalize's "
              "irrational results within 4 EPS).", "",
              "| case | " + " | ".join(types) + " |", "|---|" + "---|" * len(types)]
    by_case: dict = {}
    for e in edges:
        by_case.setdefault(e.text, {})[e.type] = e
    for text, per in by_case.items():
        cells = ["exact" if per[t].ok else f"**got {per[t].got}**" for t in types]
        lines.append(f"| `{text}` | " + " | ".join(cells) + " |")
    lines.append(SECTION_END)
    return "\n".join(lines) + "\n"


def replace_section(path: Path, section: str) -> None:
    text = path.read_text() if path.exists() else ""
    if SECTION_BEGIN in text and SECTION_END in text:
        head, rest = text.split(SECTION_BEGIN, 1)
        tail = rest.split(SECTION_END, 1)[1].lstrip("\n")
        text = head + section + tail
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section
    path.write_text(text)


def existing_section(path: Path) -> str:
    """The geometric section of a file, or '' (for the main sweep, which keeps it)."""
    try:
        text = path.read_text()
    except OSError:
        return ""
    if SECTION_BEGIN not in text or SECTION_END not in text:
        return ""
    return SECTION_BEGIN + text.split(SECTION_BEGIN, 1)[1].split(SECTION_END, 1)[0] + SECTION_END + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.accuracy.geometric", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--full", action="store_true", help="10^6 vectors per function, type and width")
    p.add_argument("--count", type=int)
    p.add_argument("--types", default="float,double,half")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--write", metavar="PATH")
    a = p.parse_args(argv)
    count = a.count or (1_000_000 if a.full else 10_000)
    types = [t for t in a.types.split(",") if t]
    results = []
    for name, fn in FUNCTIONS.items():
        for t in types:
            if fn.bounds[t] is None:
                continue
            for n in fn.widths:
                start = time.perf_counter()
                r = measure(name, t, n, count, a.seed)
                results.append(r)
                print(f"{name:<15} {t:<6} n={n} {r.count:>8}  max {r.max_err:8.3g}  bound {r.bound:<7g} "
                      f"{'ok' if r.passed else 'FAIL'}  {time.perf_counter() - start:5.1f}s", flush=True)
                for f in r.failures:
                    print(f"    {f}", flush=True)
    edges = check_edges(types)
    for e in edges:
        if not e.ok:
            print(f"special case wrong: {e.text} ({e.type}): got {e.got}")
    if a.write:
        shown = " ".join(argv if argv is not None else sys.argv[1:])
        replace_section(Path(a.write), markdown(results, edges, f"python -m tests.accuracy.geometric {shown}".strip()))
    return 1 if any(not r.passed for r in results) or any(not e.ok for e in edges) else 0


if __name__ == "__main__":
    sys.exit(main())
