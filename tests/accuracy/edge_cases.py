"""The edge cases that must be exact (no ulp allowance): the OpenCL SPIR-V environment spec's
list of requirements beyond C99 (digest section 6, "Edge cases beyond C99") and a selection of
the C99 Annex F special values that list says apply to everything else. Expected values are
written here from those texts; each case runs through the same kernels as the sweep, for every
type, and must match bit for bit up to NaN payloads (the sign of zero included).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import kernels
from .functions import FUNCTIONS
from .kernels import TYPES
from .ulp import same_value

inf, nan = float("inf"), float("nan")
# Values that stand for "any value of the class": a finite x > 0, a non-integer, etc.
X, Y = 1.75, 3.0


def _pm(f, *rest):
    """The case for +0 and -0 (and the same sign in the result): f(+-0) = +-0."""
    return [(f, (0.0, *rest), 0.0), (f, (-0.0, *rest), -0.0)]


CASES: list[tuple[str, tuple, object]] = [
    # ---- OpenCL additions
    ("acospi", (1.0,), 0.0), ("acospi", (1.5,), nan), ("acospi", (-2.0,), nan),
    ("asinpi", (1.5,), nan), *_pm("asinpi"), *_pm("atanpi"),
    ("atanpi", (inf,), 0.5), ("atanpi", (-inf,), -0.5),
    ("atan2pi", (0.0, -0.0), 1.0), ("atan2pi", (-0.0, -0.0), -1.0),
    ("atan2pi", (0.0, 0.0), 0.0), ("atan2pi", (-0.0, 0.0), -0.0),
    ("atan2pi", (0.0, -X), 1.0), ("atan2pi", (-0.0, -X), -1.0),
    ("atan2pi", (0.0, X), 0.0), ("atan2pi", (-0.0, X), -0.0),
    ("atan2pi", (-X, 0.0), -0.5), ("atan2pi", (-X, -0.0), -0.5),
    ("atan2pi", (X, 0.0), 0.5), ("atan2pi", (X, -0.0), 0.5),
    ("atan2pi", (X, -inf), 1.0), ("atan2pi", (-X, -inf), -1.0),
    ("atan2pi", (X, inf), 0.0), ("atan2pi", (-X, inf), -0.0),
    ("atan2pi", (inf, X), 0.5), ("atan2pi", (-inf, -X), -0.5),
    ("atan2pi", (inf, -inf), 0.75), ("atan2pi", (-inf, -inf), -0.75),
    ("atan2pi", (inf, inf), 0.25), ("atan2pi", (-inf, inf), -0.25),
    ("ceil", (-0.5,), -0.0), ("trunc", (-0.75,), -0.0), ("round", (-0.25,), -0.0),
    ("round", (-0.5,), -1.0), ("round", (2.5,), 3.0), ("rint", (-0.5,), -0.0),
    ("rint", (-0.25,), -0.0), ("rint", (2.5,), 2.0), ("rint", (3.5,), 4.0),
    ("cospi", (0.0,), 1.0), ("cospi", (-0.0,), 1.0), ("cospi", (0.5,), 0.0),
    ("cospi", (-2.5,), 0.0), ("cospi", (7.5,), 0.0), ("cospi", (inf,), nan), ("cospi", (-inf,), nan),
    *_pm("sinpi"), ("sinpi", (3.0,), 0.0), ("sinpi", (-3.0,), -0.0), ("sinpi", (4.0,), 0.0),
    ("sinpi", (-4.0,), -0.0), ("sinpi", (inf,), nan), ("sinpi", (-inf,), nan),
    *_pm("tanpi"), ("tanpi", (inf,), nan), ("tanpi", (-inf,), nan),
    ("tanpi", (2.0,), 0.0), ("tanpi", (-2.0,), -0.0), ("tanpi", (3.0,), -0.0), ("tanpi", (-3.0,), 0.0),
    ("tanpi", (0.5,), inf), ("tanpi", (1.5,), -inf), ("tanpi", (2.5,), inf), ("tanpi", (-0.5,), -inf),
    ("tanpi", (-1.5,), inf),
    ("exp10", (0.0,), 1.0), ("exp10", (-0.0,), 1.0), ("exp10", (-inf,), 0.0), ("exp10", (inf,), inf),
    ("fdim", (X, nan), nan), ("fdim", (nan, X), nan), ("fmod", (0.0, nan), nan), ("fmod", (-0.0, nan), nan),
    ("nextafter", (-0.0, X), "min_denorm"), ("nextafter", (0.0, -X), "-min_denorm"),
    ("pow", (0.0, -inf), inf), ("pow", (-0.0, -inf), inf),
    ("pown", (0.0, 0), 1.0), ("pown", (nan, 0), 1.0), ("pown", (inf, 0), 1.0), ("pown", (-X, 0), 1.0),
    ("pown", (0.0, -3), inf), ("pown", (-0.0, -3), -inf), ("pown", (-0.0, -2), inf),
    ("pown", (-0.0, 2), 0.0), ("pown", (-0.0, 3), -0.0), ("pown", (0.0, 3), 0.0),
    ("powr", (X, 0.0), 1.0), ("powr", (X, -0.0), 1.0), ("powr", (0.0, -X), inf),
    ("powr", (-0.0, -X), inf), ("powr", (0.0, -inf), inf), ("powr", (-0.0, -inf), inf),
    ("powr", (0.0, X), 0.0), ("powr", (-0.0, Y), 0.0), ("powr", (1.0, X), 1.0), ("powr", (1.0, -Y), 1.0),
    ("powr", (-X, Y), nan), ("powr", (0.0, 0.0), nan), ("powr", (-0.0, -0.0), nan),
    ("powr", (inf, 0.0), nan), ("powr", (1.0, inf), nan), ("powr", (1.0, -inf), nan),
    ("powr", (X, nan), nan), ("powr", (0.0, nan), nan), ("powr", (nan, X), nan), ("powr", (nan, 0.0), nan),
    ("rootn", (0.0, -3), inf), ("rootn", (-0.0, -3), -inf), ("rootn", (-0.0, -2), inf),
    ("rootn", (-0.0, 2), 0.0), ("rootn", (-0.0, 3), -0.0), ("rootn", (0.0, 3), 0.0),
    ("rootn", (-X, 2), nan), ("rootn", (X, 0), nan), ("rootn", (-8.0, 3), -2.0),
    ("fract", (0.0,), (0.0, 0.0)), ("fract", (-0.0,), (-0.0, -0.0)), ("fract", (inf,), (0.0, inf)),
    ("fract", (-inf,), (-0.0, -inf)), ("fract", (nan,), (nan, nan)), ("fract", ("-min_denorm",), ("below_one", -1.0)),
    ("frexp", (inf,), (inf, 0)), ("frexp", (-inf,), (-inf, 0)), ("frexp", (nan,), (nan, 0)),
    ("lgamma_r", (0.0,), (inf, 0)), ("lgamma_r", (-2.0,), (inf, 0)),
    ("modf", (inf,), (0.0, inf)), ("modf", (-inf,), (-0.0, -inf)), ("modf", (-2.5,), (-0.5, -2.0)),
    ("remquo", (inf, X), (nan, 0)), ("remquo", (X, 0.0), (nan, 0)), ("remquo", (nan, X), (nan, 0)),
    ("remquo", (X, nan), (nan, 0)),
    # ---- C99 Annex F (a selection)
    *_pm("sin"), ("sin", (inf,), nan), ("cos", (0.0,), 1.0), ("cos", (-0.0,), 1.0), ("cos", (-inf,), nan),
    *_pm("tan"), ("tan", (inf,), nan), *_pm("asin"), ("asin", (1.5,), nan), ("acos", (1.0,), 0.0),
    ("acos", (-1.5,), nan), *_pm("atan"), ("atan2", (0.0, 0.0), 0.0), ("atan2", (-0.0, 0.0), -0.0),
    ("atan2", (0.0, X), 0.0), ("atan2", (-0.0, X), -0.0),
    *_pm("sinh"), ("sinh", (inf,), inf), ("sinh", (-inf,), -inf), ("cosh", (-0.0,), 1.0),
    ("cosh", (-inf,), inf), *_pm("tanh"), ("tanh", (inf,), 1.0), ("tanh", (-inf,), -1.0),
    *_pm("asinh"), ("asinh", (-inf,), -inf), ("acosh", (1.0,), 0.0), ("acosh", (0.5,), nan),
    ("acosh", (inf,), inf), *_pm("atanh"), ("atanh", (1.0,), inf), ("atanh", (-1.0,), -inf),
    ("atanh", (1.5,), nan),
    ("exp", (0.0,), 1.0), ("exp", (-0.0,), 1.0), ("exp", (-inf,), 0.0), ("exp", (inf,), inf),
    ("exp2", (-0.0,), 1.0), ("exp2", (-inf,), 0.0), ("exp2", (inf,), inf), ("exp2", (3.0,), 8.0),
    *_pm("expm1"), ("expm1", (-inf,), -1.0), ("expm1", (inf,), inf),
    ("log", (0.0,), -inf), ("log", (-0.0,), -inf), ("log", (1.0,), 0.0), ("log", (-X,), nan),
    ("log", (inf,), inf), ("log2", (-0.0,), -inf), ("log2", (1.0,), 0.0), ("log2", (-X,), nan),
    ("log2", (8.0,), 3.0), ("log10", (0.0,), -inf), ("log10", (1.0,), 0.0), ("log10", (-X,), nan),
    ("log10", (100.0,), 2.0),
    *_pm("log1p"), ("log1p", (-1.0,), -inf), ("log1p", (-1.5,), nan), ("log1p", (inf,), inf),
    *_pm("sqrt"), ("sqrt", (-X,), nan), ("sqrt", (inf,), inf), ("sqrt", (4.0,), 2.0),
    *_pm("cbrt"), ("cbrt", (inf,), inf), ("cbrt", (-inf,), -inf), ("cbrt", (-8.0,), -2.0),
    ("hypot", (inf, nan), inf), ("hypot", (nan, -inf), inf), ("hypot", (-X, 0.0), X),
    ("hypot", (3.0, 4.0), 5.0),
    ("pow", (X, 0.0), 1.0), ("pow", (nan, -0.0), 1.0), ("pow", (inf, 0.0), 1.0),
    ("pow", (0.0, -3.0), inf), ("pow", (-0.0, -3.0), -inf), ("pow", (-0.0, -2.0), inf),
    ("pow", (-0.0, 3.0), -0.0), ("pow", (0.0, 2.0), 0.0), ("pow", (-1.0, inf), 1.0),
    ("pow", (-1.0, -inf), 1.0), ("pow", (1.0, nan), 1.0), ("pow", (1.0, -X), 1.0),
    ("pow", (-X, 0.5), nan), ("pow", (0.5, -inf), inf), ("pow", (2.0, -inf), 0.0),
    ("pow", (-inf, -3.0), -0.0), ("pow", (-inf, 3.0), -inf), ("pow", (2.0, 3.0), 8.0),
    *_pm("erf"), ("erf", (inf,), 1.0), ("erf", (-inf,), -1.0), ("erfc", (-inf,), 2.0), ("erfc", (inf,), 0.0),
    ("tgamma", (0.0,), inf), ("tgamma", (-0.0,), -inf), ("tgamma", (-2.0,), nan), ("tgamma", (-inf,), nan),
    ("tgamma", (inf,), inf), ("tgamma", (5.0,), 24.0),
    ("lgamma", (1.0,), 0.0), ("lgamma", (2.0,), 0.0), ("lgamma", (0.0,), inf), ("lgamma", (-0.0,), inf),
    ("lgamma", (-inf,), inf), ("lgamma", (-3.0,), inf),
    *_pm("ceil"), ("ceil", (inf,), inf), *_pm("floor"), ("floor", (-inf,), -inf), ("floor", (-0.5,), -1.0),
    *_pm("trunc"), *_pm("round"), *_pm("rint"),
    *_pm("fmod", X), ("fmod", (inf, X), nan), ("fmod", (X, 0.0), nan), ("fmod", (X, inf), X),
    ("fmod", (-X, -inf), -X), ("remainder", (X, 0.0), nan), ("remainder", (-inf, X), nan),
    ("remainder", (5.0, 2.0), 1.0), ("remainder", (7.0, 2.0), -1.0),
    ("fmax", (nan, X), X), ("fmax", (X, nan), X), ("fmin", (nan, -X), -X), ("fmin", (X, nan), X),
    ("copysign", (X, -0.0), -X), ("copysign", (-inf, 0.0), inf), ("fabs", (-0.0,), 0.0),
    ("logb", (0.0,), -inf), ("logb", (-0.0,), -inf), ("logb", (-inf,), inf), ("logb", (8.0,), 3.0),
    ("ilogb", (0.0,), -2**31), ("ilogb", (nan,), 2**31 - 1), ("ilogb", (inf,), 2**31 - 1),
    ("ilogb", (-8.0,), 3),
    *_pm("ldexp", 5), ("ldexp", (inf, -5), inf), ("ldexp", (-inf, 5), -inf), ("ldexp", (1.0, 3), 8.0),
    ("nextafter", (X, X), X), ("nextafter", (nan, X), nan), ("nextafter", (X, nan), nan),
    ("fma", (inf, 0.0, X), nan), ("fma", (X, X, nan), nan),
    ("sincos", (-0.0,), (-0.0, 1.0)), ("sincos", (inf,), (nan, nan)),
]


def _value(v, t, kind):
    dt = np.dtype(TYPES[t])
    if isinstance(v, str):
        fi = np.finfo(dt)
        sign = -1 if v.startswith("-") else 1
        v = v.lstrip("-")
        named = {"min_denorm": fi.smallest_subnormal, "below_one": 1 - fi.epsneg}
        return dt.type(sign * named[v])
    return kernels.np_type(kind, t).type(v)


@dataclass
class EdgeResult:
    text: str
    type: str
    expected: str
    got: str
    ok: bool | None  # None: spirvkit does not support the function yet


def _show(values) -> str:
    return ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values)


def check(types, names=None) -> list[EdgeResult]:
    """Run every edge case (of the functions in `names`, default all) for every type."""
    by_fn: dict[str, list] = {}
    for fn, args, expected in CASES:
        if names is None or fn in names:
            by_fn.setdefault(fn, []).append((args, expected))
    out = []
    for fn_name, cases in by_fn.items():
        fn = FUNCTIONS[fn_name]
        ins = [k for k in fn.operands if not k.startswith("p")]
        for t in types:
            if fn.bounds[t] is None:
                continue
            args = [np.array([_value(c[0][i], t, k) for c in cases]) for i, k in enumerate(ins)]
            outs = kernels.run(fn_name, t, fn.operands, fn.result, args)
            for j, (case_args, expected) in enumerate(cases):
                exp = expected if isinstance(expected, tuple) else (expected,)
                exp_vals = [_value(v, t, k) for v, k in zip(exp, fn.outputs)]
                text = f"{fn_name}({', '.join(map(str, case_args))})"
                if isinstance(outs, str):
                    out.append(EdgeResult(text, t, _show(exp_vals), "—", None))
                    continue
                got = [o[j] for o in outs]
                ok = all(bool(same_value(g, e)) for g, e in zip(got, exp_vals))
                out.append(EdgeResult(text, t, _show(exp_vals), _show(got), ok))
    return out
