"""The catalogue of swept functions: every math instruction of the OpenCL.std grammar (opcodes
0-94, the math family, with the half_* and native_* forms) and the common functions with ULP
bounds (degrees, radians, fclamp, fmax_common, fmin_common, sign, step), each with its operand
kinds, its reference and its full-profile bound per type (OpenCL SPIR-V environment spec's ULP
table; digest section 6).

Bounds: a number is the max ulp; ``CR`` (correctly rounded) is 0.5 ulp; ``0`` means the result is
exact; ``ID`` (implementation-defined: lgamma, native_*) is measured and reported, never failed;
``fma or mul+add`` (mad) passes when each result is the fused or the unfused value; ``None``: the
instruction does not exist for the type (half_* and native_* are float-only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import references as R
from .references import LD, PI

CR, ID, MAD = "CR", "ID", "fma or mul+add"


@dataclass(frozen=True)
class Function:
    name: str
    operands: tuple[str, ...]  # kinds: F, I, U; pF / pI for pointer (second result) operands
    result: str  # F or I
    reference: object  # (args, type) -> longdouble array, or a tuple with the pointer results
    bounds: dict  # type -> bound (number, CR, ID, MAD, or None when not defined)
    # False where the sign of a zero result is unspecified (C99 lets fmax(-0, +0) be either).
    zero_sign: bool = True

    @property
    def outputs(self) -> tuple[str, ...]:
        return (self.result,) + tuple(k[1:] for k in self.operands if k.startswith("p"))


def _b(double, float_, half):
    return {"double": double, "float": float_, "half": half}


def _np(ufunc):
    return lambda args, t: ufunc(*args)


_UNARY_NUMPY = {
    "acos": (np.arccos, (4, 4, 2)), "acosh": (np.arccosh, (4, 4, 2)),
    "asin": (np.arcsin, (4, 4, 2)), "asinh": (np.arcsinh, (4, 4, 2)),
    "atan": (np.arctan, (5, 5, 2)), "atanh": (np.arctanh, (5, 5, 2)),
    "cbrt": (np.cbrt, (2, 2, 2)), "ceil": (np.ceil, (CR, CR, CR)),
    "cos": (np.cos, (4, 4, 2)), "cosh": (np.cosh, (4, 4, 2)),
    "exp": (np.exp, (3, 3, 2)), "exp2": (np.exp2, (3, 3, 2)), "expm1": (np.expm1, (3, 3, 2)),
    "fabs": (np.fabs, (0, 0, 0)), "floor": (np.floor, (CR, CR, CR)),
    "log": (np.log, (3, 3, 2)), "log2": (np.log2, (3, 3, 2)), "log10": (np.log10, (3, 3, 2)),
    "log1p": (np.log1p, (2, 2, 2)), "rint": (np.rint, (CR, CR, CR)),
    "sin": (np.sin, (4, 4, 2)), "sinh": (np.sinh, (4, 4, 2)), "sqrt": (np.sqrt, (CR, 3, CR)),
    "tan": (np.tan, (5, 5, 2)), "tanh": (np.tanh, (5, 5, 2)), "trunc": (np.trunc, (CR, CR, CR)),
}


def _round(args, t):  # half-way cases away from zero; -0.5 < x < 0 gives -0
    (x,) = args
    return np.copysign(np.floor(np.abs(x) + LD(0.5)), x)


def _exp10(args, t):
    return np.power(LD(10), args[0])


def _rsqrt(args, t):
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 / np.sqrt(args[0])


def _recip(args, t):
    with np.errstate(divide="ignore"):
        return 1 / args[0]


def _divide(args, t):
    with np.errstate(divide="ignore", invalid="ignore"):
        return args[0] / args[1]


def _fdim(args, t):
    x, y = args
    return np.where(np.isnan(x) | np.isnan(y), LD(np.nan), np.where(x > y, x - y, LD(0)))


def _mag(bigger):
    def ref(args, t):
        x, y = args
        ax, ay = np.abs(x), np.abs(y)
        fallback = np.fmax(x, y) if bigger else np.fmin(x, y)
        first = ax > ay if bigger else ax < ay
        second = ax < ay if bigger else ax > ay
        return np.where(first, x, np.where(second, y, fallback))
    return ref


def _sign(args, t):
    (x,) = args
    return np.where(np.isnan(x), LD(0), np.where(x > 0, LD(1), np.where(x < 0, LD(-1), x)))


def _step(args, t):
    edge, x = args
    return np.where(x < edge, LD(0), LD(1))


def _fclamp(args, t):
    x, lo, hi = args
    return np.fmin(np.fmax(x, lo), hi)


def _nextafter(args, t):
    from .kernels import TYPES
    dt = TYPES[t]
    x, y = (a.astype(dt) for a in args)
    # C99: nextafter(x, y) is y when x == y (so nextafter(-0, +0) = +0); numpy's half version
    # returns x there.
    return np.where(x == y, y, np.nextafter(x, y)).astype(LD)


def _fmod(args, t):
    with np.errstate(invalid="ignore"):
        return np.fmod(args[0], args[1])


def _ldexp(args, t):
    x, k = args
    # k beyond +-2^14 over- or underflows every type; clip it so long double does not overflow
    # differently (the clipped product is still far beyond the type's range).
    return np.ldexp(x, np.clip(k, -20000, 20000).astype(np.int32))


def _with_errstate(ref):
    def wrapped(args, t):
        with np.errstate(all="ignore"):
            return ref(args, t)
    return wrapped


def _catalogue() -> dict[str, Function]:
    fns: dict[str, Function] = {}

    def add(name, operands, ref, bounds, result="F", zero_sign=True):
        fns[name] = Function(name, tuple(operands), result, _with_errstate(ref), bounds, zero_sign)

    for name, (ufunc, bounds) in _UNARY_NUMPY.items():
        add(name, "F", _np(ufunc), _b(*bounds))
    add("acospi", "F", R.acospi, _b(5, 5, 2))
    add("asinpi", "F", R.asinpi, _b(5, 5, 2))
    add("atanpi", "F", R.atanpi, _b(5, 5, 2))
    add("atan2", "FF", _np(np.arctan2), _b(6, 6, 2))
    add("atan2pi", "FF", R.atan2pi, _b(6, 6, 2))
    add("copysign", "FF", _np(np.copysign), _b(0, 0, 0))
    add("cospi", "F", R.cospi, _b(4, 4, 2))
    add("sinpi", "F", R.sinpi, _b(4, 4, 2))
    add("tanpi", "F", R.tanpi, _b(6, 6, 2))
    add("erf", "F", R.erf, _b(16, 16, 4))
    add("erfc", "F", R.erfc, _b(16, 16, 4))
    add("exp10", "F", _exp10, _b(3, 3, 2))
    add("fdim", "FF", _fdim, _b(CR, CR, CR))
    add("fma", "FFF", R.fma, _b(CR, CR, CR))
    add("fmax", "FF", _np(np.fmax), _b(0, 0, 0), zero_sign=False)
    add("fmin", "FF", _np(np.fmin), _b(0, 0, 0), zero_sign=False)
    add("fmod", "FF", _fmod, _b(0, 0, 0))
    add("fract", ("F", "pF"), R.fract, _b(CR, CR, CR))
    add("frexp", ("F", "pI"), R.frexp, _b(0, 0, 0))
    add("hypot", "FF", _np(np.hypot), _b(4, 4, 2))
    add("ilogb", "F", R.ilogb, _b(0, 0, 0), result="I")
    add("ldexp", "FI", _ldexp, _b(CR, CR, CR))
    add("lgamma", "F", R.lgamma, _b(ID, ID, ID))
    add("lgamma_r", ("F", "pI"), R.lgamma_r, _b(ID, ID, ID))
    add("logb", "F", R.logb, _b(0, 0, 0))
    add("mad", "FFF", R.fma, _b(MAD, MAD, MAD))
    add("maxmag", "FF", _mag(True), _b(0, 0, 0), zero_sign=False)
    add("minmag", "FF", _mag(False), _b(0, 0, 0), zero_sign=False)
    add("modf", ("F", "pF"), R.modf, _b(0, 0, 0))
    add("nan", "U", R.nan, _b(0, 0, 0))
    add("nextafter", "FF", _nextafter, _b(0, 0, 0))
    add("pow", "FF", R.pow_, _b(16, 16, 4))
    add("pown", "FI", R.pown, _b(16, 16, 4))
    add("powr", "FF", R.powr, _b(16, 16, 4))
    add("remainder", "FF", R.remainder, _b(0, 0, 0))
    add("remquo", ("F", "F", "pI"), R.remquo, _b(0, 0, 0))
    add("rootn", "FI", R.rootn, _b(16, 16, 4))
    add("round", "F", _round, _b(CR, CR, CR))
    add("rsqrt", "F", _rsqrt, _b(2, 2, 1))
    add("sincos", ("F", "pF"), R.sincos, _b(4, 4, 2))
    add("tgamma", "F", R.tgamma, _b(16, 16, 4))
    relaxed = {"cos": "F", "divide": "FF", "exp": "F", "exp2": "F", "exp10": "F", "log": "F",
               "log2": "F", "log10": "F", "powr": "FF", "recip": "F", "rsqrt": "F", "sin": "F",
               "sqrt": "F", "tan": "F"}
    own = {"divide": _divide, "recip": _recip}
    for base, operands in relaxed.items():
        ref = own.get(base) or fns[base].reference
        add(f"half_{base}", operands, ref, _b(None, 8192, None))
        add(f"native_{base}", operands, ref, _b(None, ID, None))
    # Common functions with ULP bounds (mix and smoothstep have absolute-error or
    # implementation-defined bounds and are not swept).
    add("degrees", "F", lambda a, t: a[0] * (LD(180) / PI), _b(2, 2, 2))
    add("radians", "F", lambda a, t: a[0] * (PI / LD(180)), _b(2, 2, 2))
    add("fclamp", "FFF", _fclamp, _b(0, 0, 0), zero_sign=False)
    add("fmax_common", "FF", _np(np.fmax), _b(0, 0, 0), zero_sign=False)
    add("fmin_common", "FF", _np(np.fmin), _b(0, 0, 0), zero_sign=False)
    add("sign", "F", _sign, _b(0, 0, 0))
    add("step", "FF", _step, _b(0, 0, 0))
    return fns


FUNCTIONS = _catalogue()


def math_family() -> list[str]:
    """The math instructions of the OpenCL.std grammar (opcodes 0-94), in opcode order."""
    from spirvkit.spirv.grammar import load_grammar

    ext = load_grammar().ext_inst_set("OpenCL.std")
    return [d.opname for op, d in sorted(ext.by_opcode.items()) if op <= 94]


def swept_names() -> list[str]:
    """Every swept function: the grammar's math family, then the common functions above.
    Fails loudly if the grammar has a math instruction the catalogue lacks."""
    names = math_family()
    missing = [n for n in names if n not in FUNCTIONS]
    if missing:
        raise KeyError(f"math instructions without a sweep entry: {missing}")
    return names + [n for n in FUNCTIONS if n not in names]
