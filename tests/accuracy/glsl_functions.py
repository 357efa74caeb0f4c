"""The catalogue of the GLSL.std.450 accuracy sweep (glsl_sweep.py): every floating-point
instruction of the set with its operand shapes, its reference and its bound in the Vulkan
environment's precision rules (glsl_bounds.py), single precision.

Bounds (``kind``):

* ``table``: the precision table names the instruction (Exp, Exp2, Log, Log2, InverseSqrt) or
  derives it (Sqrt: inherited from 1/InverseSqrt; Pow: from Exp2(y Log2 x); Fma: from OpFMul
  then OpFAdd);
* ``formula``: "defined in terms of" table operations, so the bound is inherited from the
  formula the GLSL.std.450 specification gives (Radians, Sinh, FMix, Length, Refract, ...);
* ``exact``: the result is defined exactly (Floor, FMin, FClamp, Step ...);
* ``undefined``: the Vulkan environment gives no precision (Sin, Cos, Tan, Asin, Acos, Atan,
  Atan2): measured and reported, never failed (later Vulkan revisions bound sin and cos by an
  absolute error of 2^-11 on [-pi, pi] and atan by 4096 ULP; the table reports these too).

A formula is written once, on a namespace ``m`` of operations: ``EXACT`` evaluates it in long
double (the reference where numpy has no long-double function), ``BOUND`` on intervals (the
permitted range). Shapes: ``s`` a float, ``v3``/``v4`` vectors, ``m4`` a 4x4 matrix; vectors are
lists of components, matrices lists of columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .glsl_bounds import Iv, dot, hull

LD = np.longdouble
PI = LD("3.14159265358979323846264338327950288")


class _Exact:
    @staticmethod
    def const(c, like):
        return np.full(np.shape(like), LD(c))

    exp, exp2, log, log2, sqrt, floor = (staticmethod(f) for f in (np.exp, np.exp2, np.log, np.log2, np.sqrt,
                                                                    np.floor))

    @staticmethod
    def inversesqrt(x):
        return 1 / np.sqrt(x)

    @staticmethod
    def clamp(x, lo, hi):
        return np.clip(x, lo, hi)

    @staticmethod
    def select_negative(c, a, b):
        return np.where(c < 0, a, b)

    @staticmethod
    def dot(a, b):
        return sum(x * y for x, y in zip(a, b))


class _Bound:
    const = staticmethod(Iv.const)
    dot = staticmethod(dot)
    # Called as m.exp(x): through the instance these are bound methods of _Bound, so staticmethod.

    exp, exp2, log, log2 = (staticmethod(f) for f in (Iv.exp, Iv.exp2, Iv.log, Iv.log2))
    sqrt, inversesqrt, floor = (staticmethod(f) for f in (Iv.sqrt, Iv.inversesqrt, Iv.floor))

    @staticmethod
    def clamp(x, lo, hi):
        return x.clamp(lo, hi)

    @staticmethod
    def select_negative(c, a, b):
        return c.select_negative(a, b)


EXACT, BOUND = _Exact(), _Bound()


# ----- formulas (the GLSL.std.450 specification's definitions) ---------------------------------
def _sinh(m, x):
    return (m.exp(x) - m.exp(-x)) / m.const(2, x)


def _cosh(m, x):
    return (m.exp(x) + m.exp(-x)) / m.const(2, x)


def _tanh(m, x):
    return (m.exp(x) - m.exp(-x)) / (m.exp(x) + m.exp(-x))


def _asinh(m, x):
    return m.log(x + m.sqrt(x * x + m.const(1, x)))


def _acosh(m, x):
    return m.log(x + m.sqrt(x * x - m.const(1, x)))


def _atanh(m, x):
    one = m.const(1, x)
    return m.const(0.5, x) * m.log((one + x) / (one - x))


def _mix(m, x, y, a):
    """x (1 - a) + y a; its distributive rewrite x + (y - x) a (OpenCL's mix) is as permitted."""
    weighted = x * (m.const(1, a) - a) + y * a
    return hull(weighted, x + (y - x) * a) if m is BOUND else weighted


def _smoothstep(m, e0, e1, x):
    t = m.clamp((x - e0) / (e1 - e0), 0, 1)
    return t * t * (m.const(3, x) - m.const(2, x) * t)


def _length(m, v):
    return m.sqrt(m.dot(v, v))


def _cross(m, a, b):
    return [a[1] * b[2] - b[1] * a[2], a[2] * b[0] - b[2] * a[0], a[0] * b[1] - b[0] * a[1]]


def _reflect(m, i, n):
    d = m.const(2, i[0]) * m.dot(n, i)
    return [ik - d * nk for ik, nk in zip(i, n)]


def _refract(m, i, n, eta):
    d = m.dot(n, i)
    one = m.const(1, eta)
    k = one - eta * eta * (one - d * d)
    zero = m.const(0, eta)
    if m is BOUND:
        with np.errstate(invalid="ignore"):
            root = Iv(np.maximum(k.lo, 0), np.maximum(k.hi, 0)).sqrt()   # the k >= 0 branch
    else:
        root = np.sqrt(np.maximum(k, 0))
    scale = eta * d + root
    return [m.select_negative(k, zero, eta * ik - scale * nk) for ik, nk in zip(i, n)]


def _faceforward(m, n, i, nref):
    d = m.dot(nref, i)
    return [m.select_negative(d, nk, -nk) for nk in n]


def _det(m, a, rows, cols):
    """Cofactor expansion along the first row, as the executor computes it (ops_matrix.py);
    a[c][r] is column c, row r."""
    if len(rows) == 2:
        (r0, r1), (c0, c1) = rows, cols
        return a[c0][r0] * a[c1][r1] - a[c1][r0] * a[c0][r1]
    total = None
    for k, c in enumerate(cols):
        term = a[c][rows[0]] * _det(m, a, rows[1:], cols[:k] + cols[k + 1:])
        total = term if total is None else (total - term if k % 2 else total + term)
    return total


def _determinant(m, a):
    return _det(m, a, [0, 1, 2, 3], [0, 1, 2, 3])


def _inverse(m, a):
    det = _determinant(m, a)
    out = []
    for c in range(4):
        column = []
        for r in range(4):
            minor = _det(m, a, [i for i in range(4) if i != c], [j for j in range(4) if j != r])
            column.append((-minor if (r + c) % 2 else minor) / det)
        out.append(column)
    return out


@dataclass(frozen=True)
class GlslFunction:
    name: str
    operands: tuple[str, ...]
    result: str
    kind: str                  # table | formula | exact | undefined
    bound: str                 # the bound as the table in docs states it
    formula: object = None     # (m, *args) -> value: the bound (and reference if no ``exact``)
    exact: object = None       # (*args as long double) -> the exact result
    sample_as: str = ""        # the OpenCL.std sweep function whose inputs fit (scalars)


def _round_either(x):
    """GLSL Round: the direction of a .5 is the implementation's (both are exact answers)."""
    return np.trunc(x + np.where(x < 0, LD(-0.5), LD(0.5))), np.rint(x)


CATALOGUE = [
    GlslFunction("Exp", ("s",), "s", "table", "3 + 2·\\|x\\| ULP", lambda m, x: m.exp(x), np.exp, "exp"),
    GlslFunction("Exp2", ("s",), "s", "table", "3 + 2·\\|x\\| ULP", lambda m, x: m.exp2(x), np.exp2, "exp2"),
    GlslFunction("Log", ("s",), "s", "table", "3 ULP outside [0.5, 2]; abs. 2^-21 inside",
                 lambda m, x: m.log(x), np.log, "log"),
    GlslFunction("Log2", ("s",), "s", "table", "3 ULP outside [0.5, 2]; abs. 2^-21 inside",
                 lambda m, x: m.log2(x), np.log2, "log2"),
    GlslFunction("InverseSqrt", ("s",), "s", "table", "2 ULP", lambda m, x: m.inversesqrt(x),
                 lambda x: 1 / np.sqrt(x), "rsqrt"),
    GlslFunction("Sqrt", ("s",), "s", "table", "inherited from 1.0 / inversesqrt(x)", lambda m, x: m.sqrt(x),
                 np.sqrt, "sqrt"),
    GlslFunction("Pow", ("s", "s"), "s", "table", "inherited from exp2(y · log2(x))",
                 lambda m, x, y: m.exp2(y * m.log2(x)), lambda x, y: np.power(x, y), "pow"),
    GlslFunction("Fma", ("s", "s", "s"), "s", "table", "inherited from a · b + c",
                 lambda m, a, b, c: a * b + c, lambda a, b, c: a * b + c, "fma"),
    GlslFunction("Radians", ("s",), "s", "formula", "inherited from π/180 · x",
                 lambda m, x: m.const(PI / 180, x) * x, lambda x: x * (PI / 180), "radians"),
    GlslFunction("Degrees", ("s",), "s", "formula", "inherited from 180/π · x",
                 lambda m, x: m.const(180 / PI, x) * x, lambda x: x * (180 / PI), "degrees"),
    GlslFunction("Sinh", ("s",), "s", "formula", "inherited from (e^x − e^−x) / 2", _sinh, np.sinh, "sinh"),
    GlslFunction("Cosh", ("s",), "s", "formula", "inherited from (e^x + e^−x) / 2", _cosh, np.cosh, "cosh"),
    GlslFunction("Tanh", ("s",), "s", "formula", "inherited from sinh(x) / cosh(x)", _tanh, np.tanh, "tanh"),
    GlslFunction("Asinh", ("s",), "s", "formula", "inherited from log(x + sqrt(x² + 1))", _asinh, np.arcsinh,
                 "asinh"),
    GlslFunction("Acosh", ("s",), "s", "formula", "inherited from log(x + sqrt(x² − 1))", _acosh, np.arccosh,
                 "acosh"),
    GlslFunction("Atanh", ("s",), "s", "formula", "inherited from ½ · log((1 + x) / (1 − x))", _atanh,
                 np.arctanh, "atanh"),
    GlslFunction("FMix", ("s", "s", "s"), "s", "formula", "inherited from x · (1 − a) + y · a",
                 _mix, None, "fclamp"),
    GlslFunction("SmoothStep", ("s", "s", "s"), "s", "formula", "inherited from t · t · (3 − 2t)", _smoothstep,
                 None, ""),
    GlslFunction("Fract", ("s",), "s", "formula", "inherited from x − floor(x)", lambda m, x: x - m.floor(x),
                 None, "floor"),
    GlslFunction("Length", ("v4",), "s", "formula", "inherited from sqrt(dot(x, x))", _length, None, ""),
    GlslFunction("Distance", ("v4", "v4"), "s", "formula", "inherited from length(p0 − p1)",
                 lambda m, a, b: _length(m, [x - y for x, y in zip(a, b)]), None, ""),
    GlslFunction("Normalize", ("v4",), "v4", "formula", "inherited from x / length(x)",
                 lambda m, v: [c / _length(m, v) for c in v], None, ""),
    GlslFunction("Cross", ("v3", "v3"), "v3", "formula", "inherited from its products and differences", _cross,
                 None, ""),
    GlslFunction("Reflect", ("v4", "v4"), "v4", "formula", "inherited from I − 2 · dot(N, I) · N", _reflect,
                 None, ""),
    GlslFunction("Refract", ("v4", "v4", "s"), "v4", "formula", "inherited from its formula (k < 0: 0)",
                 _refract, None, ""),
    GlslFunction("FaceForward", ("v4", "v4", "v4"), "v4", "formula", "inherited from dot(Nref, I) < 0 ? N : −N",
                 _faceforward, None, ""),
    GlslFunction("Determinant", ("m4",), "s", "formula", "inherited from the cofactor expansion", _determinant,
                 None, ""),
    GlslFunction("MatrixInverse", ("m4",), "m4", "formula", "inherited from cofactors / determinant", _inverse,
                 None, ""),
    # Exact results.
    GlslFunction("Floor", ("s",), "s", "exact", "exact", exact=np.floor, sample_as="floor"),
    GlslFunction("Ceil", ("s",), "s", "exact", "exact", exact=np.ceil, sample_as="ceil"),
    GlslFunction("Trunc", ("s",), "s", "exact", "exact", exact=np.trunc, sample_as="trunc"),
    GlslFunction("RoundEven", ("s",), "s", "exact", "exact", exact=np.rint, sample_as="rint"),
    GlslFunction("Round", ("s",), "s", "exact", "exact (a .5 either way)", exact=_round_either, sample_as="round"),
    GlslFunction("FAbs", ("s",), "s", "exact", "exact", exact=np.abs, sample_as="fabs"),
    GlslFunction("FSign", ("s",), "s", "exact", "exact", exact=np.sign, sample_as="sign"),
    GlslFunction("FMin", ("s", "s"), "s", "exact", "exact", exact=np.fmin, sample_as="fmin"),
    GlslFunction("FMax", ("s", "s"), "s", "exact", "exact", exact=np.fmax, sample_as="fmax"),
    GlslFunction("NMin", ("s", "s"), "s", "exact", "exact", exact=np.fmin, sample_as="fmin"),
    GlslFunction("NMax", ("s", "s"), "s", "exact", "exact", exact=np.fmax, sample_as="fmax"),
    GlslFunction("FClamp", ("s", "s", "s"), "s", "exact", "exact", exact=lambda x, lo, hi: np.fmin(np.fmax(x, lo), hi),
                 sample_as="fclamp"),
    GlslFunction("NClamp", ("s", "s", "s"), "s", "exact", "exact", exact=lambda x, lo, hi: np.fmin(np.fmax(x, lo), hi),
                 sample_as="fclamp"),
    GlslFunction("Step", ("s", "s"), "s", "exact", "exact", exact=lambda e, x: np.where(x < e, LD(0), LD(1)),
                 sample_as="step"),
    # No precision in the Vulkan environment.
    GlslFunction("Sin", ("s",), "s", "undefined", "undefined (later: abs. 2^-11 on [−π, π])", exact=np.sin,
                 sample_as="sin"),
    GlslFunction("Cos", ("s",), "s", "undefined", "undefined (later: abs. 2^-11 on [−π, π])", exact=np.cos,
                 sample_as="cos"),
    GlslFunction("Tan", ("s",), "s", "undefined", "undefined (later: inherited from sin/cos)", exact=np.tan,
                 sample_as="tan"),
    GlslFunction("Asin", ("s",), "s", "undefined", "undefined", exact=np.arcsin, sample_as="asin"),
    GlslFunction("Acos", ("s",), "s", "undefined", "undefined", exact=np.arccos, sample_as="acos"),
    GlslFunction("Atan", ("s",), "s", "undefined", "undefined (later: 4096 ULP)", exact=np.arctan, sample_as="atan"),
    GlslFunction("Atan2", ("s", "s"), "s", "undefined", "undefined (later: 4096 ULP)", exact=np.arctan2,
                 sample_as="atan2"),
]
BY_NAME = {f.name: f for f in CATALOGUE}
