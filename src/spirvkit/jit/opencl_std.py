"""Lowering of the ``OpenCL.std`` extended instruction set to LLVM IR (llvmlite.ir), for the JIT.

Entry point: :func:`lower_opencl_std` emits the IR for one ``OpExtInst`` at a builder's position.
Operands and results are LLVM scalars (``half``/``float``/``double``, ``iN``) or ``<N x T>``
vectors; everything works lane-wise. This module holds the floating-point (math and common)
instructions; the integer ones are in :mod:`.opencl_integer`, the geometric ones and
``shuffle``/``shuffle2`` in :mod:`.opencl_geometric`, those with a pointer operand
(``sincos``, ``frexp`` ...) in :mod:`.opencl_pointer_math`, the shared IR helpers in
:mod:`.opencl_ir`. Accuracy is measured by the sweep in ``tests/accuracy`` (``docs/accuracy.md``).

Precision strategy (bounds: OpenCL SPIR-V environment spec, full profile, see
``/work/shared/spec/digest-opencl-env.md`` section 6):

* Operations LLVM has an intrinsic for (``llvm.sqrt``, ``llvm.fma``, ``llvm.sin`` ...) use it; the
  transcendental ones become libm calls (``sinf``, ``sin``) per lane, which glibc keeps within the
  OpenCL bounds. The others call the libm function lane by lane (:func:`.opencl_ir._per_lane`).
* ``half`` is computed in ``float`` and rounded once at the end: ``float`` has more than 2*11+2
  significand bits, so correctly rounded ops stay correctly rounded and the rest stay far inside the
  half bounds. Exceptions, which must not be double rounded: ``fma`` (computed in ``double``, where
  a half product is exact), ``mad`` (half ``fmul`` + ``fadd``, each rounded, as the spec allows),
  ``nan`` and ``nextafter`` (bit patterns).
* A few ``float`` functions without a good ``float`` libm counterpart (``sinpi``, ``rootn``,
  ``pown``, ``asinpi`` ...) are computed in ``double`` and rounded once.
* ``native_*`` and ``half_*`` are the full-precision functions (their bounds are looser).
* glibc follows IEEE 754-2008 for signaling NaNs (``pow(sNaN, 0)``, ``hypot(inf, sNaN)`` are NaN);
  OpenCL has no signaling NaNs and requires C99's exact results for every NaN, so ``pow``,
  ``pown`` and ``hypot`` select those results explicitly.

Runtime symbols: MCJIT resolves external symbols with ``dlsym`` over the process's *global* symbol
namespace and silently resolves an unknown symbol to address 0, so a missing one is a segfault at
call time, not an error at link time. On Linux, libm is already global because the Python
executable links it, so ``sinf``/``tanf``/``atan2f`` resolve without help. The half conversion
helpers LLVM calls when the CPU lacks native conversions (``__extendhfsf2``, ``__truncsfhf2``, and
``__truncdfhf2`` without AVX512-FP16) live in libgcc_s, which is loaded only privately (as a
dependency of libllvmlite), so they do *not* resolve. Call :func:`ensure_libm_loaded` once before
compiling: it makes libm and libgcc_s global for LLVM's resolver.
"""

from __future__ import annotations

import ctypes.util
import math

from llvmlite import ir

from spirvkit.errors import NotSupportedError

from .opencl_geometric import GEOMETRIC_EMITTERS
from .opencl_integer import INT_EMITTERS
from .opencl_ir import (
    DOUBLE, I1, Emitter, _const, _copysign, _elem, _fabs, _float_bits, _int_like, _intrinsic,
    _is_half, _is_nan, _lanes, _libm, _libm_call, _pow, _promote_half, _select_chain, _splat,
    _sqrt, _to_int32, _unary_intrinsic, _via_double, _width, _with_elem,
)

# Symbols the JIT'd code may need that live in shared libraries, and a sample of each library's.
_RUNTIME_LIBRARIES = {"m": "sinf", "gcc_s": "__truncsfhf2"}
_runtime_missing: tuple[str, ...] | None = None


def ensure_libm_loaded() -> tuple[str, ...]:
    """Make libm and libgcc_s symbols visible to the JIT's symbol resolver (idempotent).

    Returns the names of the sample symbols that still cannot be found (empty when all is well),
    so a caller can refuse to run half-precision code rather than crash.
    """
    global _runtime_missing
    if _runtime_missing is None:
        import llvmlite.binding as llvm

        missing = []
        for lib, sample in _RUNTIME_LIBRARIES.items():
            path = ctypes.util.find_library(lib)
            if path:
                try:
                    llvm.load_library_permanently(path)
                except RuntimeError:
                    pass
            if not llvm.address_of_symbol(sample):
                missing.append(sample)
        _runtime_missing = tuple(missing)
    return _runtime_missing


# ---------------------------------------------------------------------------------------------
# Floating-point emitters. Each takes (builder, result type, operands); half is already promoted.


def _fmin(b, ty, args):
    return _intrinsic(b, "llvm.minnum", ty, args)


def _fmax(b, ty, args):
    return _intrinsic(b, "llvm.maxnum", ty, args)


def _fma(b, ty, args):
    # A half fma in float would be rounded twice; in double the half product is exact and the sum
    # is rounded once to double, from which rounding to half gives the correctly rounded result.
    if _is_half(ty):
        wide = [b.fpext(a, _with_elem(ty, DOUBLE)) for a in args]
        return b.fptrunc(_intrinsic(b, "llvm.fma", wide[0].type, wide), ty)
    return _intrinsic(b, "llvm.fma", ty, args)


def _mad(b, ty, args):
    # The spec allows fma or mul+add with each rounded; plain fmul/fadd keep that for half too
    # (LLVM rounds each half operation).
    a, x, c = args
    return b.fadd(b.fmul(a, x), c)


def _rsqrt(b, ty, args):
    # 1/sqrt(x): two correctly rounded operations, within the 2 ulp bound.
    return b.fdiv(_const(ty, 1.0), _sqrt(b, args[0]))


def _divide(b, ty, args):
    return b.fdiv(args[0], args[1])


def _recip(b, ty, args):
    return b.fdiv(_const(ty, 1.0), args[0])


def _exp10(b, ty, args):
    # pow(10, x) with an exact base is within glibc pow's 1 ulp; exp10 is not in every libm.
    return _pow(b, _const(ty, 10.0), args[0])


def _fclamp(b, ty, args):
    x, lo, hi = args
    return _fmin(b, ty, [_fmax(b, ty, [x, lo]), hi])


def _fdim(b, ty, args):
    # x - y when x > y, +0 otherwise; NaN operands fail the ordered compare and give x - y = NaN.
    x, y = args
    return b.select(b.fcmp_ordered("<=", x, y), _const(ty, 0.0), b.fsub(x, y))


def _cbrt(b, ty, args):
    """libm cbrt, plus for double one Newton step: glibc's double cbrt is not always within the
    2 ulp bound (2.2 ulp measured with glibc 2.36). The residual y^3 - x is formed accurately with
    fma (y^3 as a double-double); |x| is scaled by 2^-+600 (its cube root by 2^-+200, exactly)
    so that no step under- or overflows. The result is within about 0.5 ulp."""
    (x,) = args
    y0 = _libm_call(b, "cbrt", ty, [x])
    if not isinstance(_elem(ty), ir.DoubleType):
        return y0
    ax = _fabs(b, x)
    tiny = b.fcmp_ordered("<", ax, _const(ty, 2.0**-600))
    huge = b.fcmp_ordered(">", ax, _const(ty, 2.0**600))

    def pick(small, big):  # the power of two for tiny / huge / other |x|
        return b.select(tiny, _const(ty, small), b.select(huge, _const(ty, big), _const(ty, 1.0)))

    xs = b.fmul(x, pick(2.0**600, 2.0**-600))
    y = b.fmul(y0, pick(2.0**200, 2.0**-200))  # = cbrt(xs), exactly scaled

    def fma(p, q, r):
        return _intrinsic(b, "llvm.fma", ty, [p, q, r])

    y2 = b.fmul(y, y)
    y2_lo = fma(y, y, b.fneg(y2))  # y*y = y2 + y2_lo exactly
    y3 = b.fmul(y2, y)
    y3_lo = fma(y2, y, b.fneg(y3))  # y2*y = y3 + y3_lo exactly
    # y^3 - x: y3 - x is exact (Sterbenz), the low parts are tiny corrections.
    residual = b.fadd(b.fadd(b.fsub(y3, xs), y3_lo), b.fmul(y2_lo, y))
    refined = b.fsub(y, b.fdiv(residual, b.fmul(_const(ty, 3.0), y2)))
    refined = b.fmul(refined, pick(2.0**-200, 2.0**200))
    # Zeros, infinities and NaN make the step NaN; keep libm's (exact) answer for them.
    return b.select(b.fcmp_ordered("ord", refined, refined), refined, y0)


def _hypot(b, ty, args):
    # hypot(+-inf, y) = +inf even for a NaN y (C99 F.9.4.3); glibc returns NaN when y is a
    # signaling NaN, which OpenCL treats as any NaN.
    x, y = args
    inf = _const(ty, math.inf)
    either_inf = b.or_(b.fcmp_ordered("==", _fabs(b, x), inf), b.fcmp_ordered("==", _fabs(b, y), inf))
    return b.select(either_inf, inf, _libm_call(b, "hypot", ty, args))


def _remainder(b, ty, args):
    # libm remainder, except that a zero result takes x's sign (C99 F.9.7.2 via fmod's rule):
    # glibc's double remainder returns +-0 of the wrong sign for some denormal y.
    x, _ = args
    r = _libm_call(b, "remainder", ty, args)
    is_zero = b.fcmp_ordered("==", r, _const(ty, 0.0))
    return b.select(is_zero, _copysign(b, _const(ty, 0.0), x), r)


def _fmod(b, ty, args):
    return b.frem(args[0], args[1])  # frem is C fmod (exact)


def _magnitude_pick(fallback: Emitter, bigger: bool) -> Emitter:
    """maxmag / minmag: the operand of larger (smaller) magnitude, fmax/fmin when equal or NaN."""

    def emit(b, ty, args):
        x, y = args
        ax, ay = _fabs(b, x), _fabs(b, y)
        op = ">" if bigger else "<"
        other = "<" if bigger else ">"
        return _select_chain(
            b,
            [(b.fcmp_ordered(op, ax, ay), x), (b.fcmp_ordered(other, ax, ay), y)],
            fallback(b, ty, args),
        )

    return emit


def _sign(b, ty, args):
    # 1.0 for x > 0, -1.0 for x < 0, x itself for +-0, +0 for NaN.
    (x,) = args
    return _select_chain(
        b,
        [
            (b.fcmp_ordered(">", x, _const(ty, 0.0)), _const(ty, 1.0)),
            (b.fcmp_ordered("<", x, _const(ty, 0.0)), _const(ty, -1.0)),
            (_is_nan(b, x), _const(ty, 0.0)),
        ],
        x,
    )


def _step(b, ty, args):
    edge, x = args
    return b.select(b.fcmp_ordered("<", x, edge), _const(ty, 0.0), _const(ty, 1.0))


def _smoothstep(b, ty, args):
    # t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2t)
    e0, e1, x = args
    t = b.fdiv(b.fsub(x, e0), b.fsub(e1, e0))
    t = _fclamp(b, ty, [t, _const(ty, 0.0), _const(ty, 1.0)])
    return b.fmul(b.fmul(t, t), b.fsub(_const(ty, 3.0), b.fmul(_const(ty, 2.0), t)))


def _mix(b, ty, args):
    x, y, a = args
    return b.fadd(x, b.fmul(b.fsub(y, x), a))


def _scale(factor: float) -> Emitter:
    # One multiplication by a rounded constant: within the 2 ulp bound of degrees/radians.
    return lambda b, ty, args: b.fmul(args[0], _const(ty, factor))


def _nan(b, ty, args):
    # nan(nancode): a quiet NaN carrying nancode's low significand bits.
    (code,) = args
    mant, total = _float_bits(ty)
    ity = _int_like(ty)
    exponent_and_quiet = ((1 << (total - mant - 1)) - 1) << mant | 1 << (mant - 1)
    if _width(code.type) != total:
        code = b.zext(code, ity) if _width(code.type) < total else b.trunc(code, ity)
    bits = b.or_(b.and_(code, _const(ity, (1 << mant) - 1)), _const(ity, exponent_and_quiet))
    return b.bitcast(bits, ty)


def _nextafter(b, ty, args):
    # On the sign-magnitude bit pattern, +1 moves away from zero and -1 towards it; from +-0 the
    # result is the smallest denormal with y's sign. Exact for every type, half included.
    x, y = args
    ity = _int_like(ty)
    zero = _const(ty, 0.0)
    away_from_zero = b.icmp_unsigned(
        "==", b.fcmp_ordered("<", x, y), b.fcmp_ordered(">", x, zero)
    )
    step = b.select(away_from_zero, _const(ity, 1), _const(ity, -1))
    stepped = b.bitcast(b.add(b.bitcast(x, ity), step), ty)
    smallest = _copysign(b, b.bitcast(_const(ity, 1), ty), y)
    return _select_chain(
        b,
        [
            (b.fcmp_unordered("uno", x, y), b.fadd(x, y)),
            (b.fcmp_ordered("==", x, y), y),
            (b.fcmp_ordered("==", x, zero), smallest),
        ],
        stepped,
    )


def _ilogb(b, ty, args):
    # glibc gives INT_MIN for NaN; clang's OpenCL headers define FP_ILOGBNAN as INT_MAX.
    (x,) = args
    result = _libm_call(b, "ilogb", ty, [x])
    return b.select(_is_nan(b, x), _const(ty, 2**31 - 1), result)


def _ldexp(b, ty, args):
    x, k = args
    return _libm_call(b, "ldexp", ty, [x, _to_int32(b, k)])


def _pow_c99(b, ty, args):
    """llvm.pow, plus pow(x, +-0) = 1 and pow(+1, y) = 1 for every x and y: glibc's pow returns
    NaN for a signaling NaN there (IEEE 754-2008), but OpenCL does not support signaling NaNs
    and requires 1 "for any x" (the sweep feeds random encodings, signaling NaNs among them)."""
    x, y = args
    one = _const(ty, 1.0)
    exact_one = b.or_(b.fcmp_ordered("==", y, _const(ty, 0.0)), b.fcmp_ordered("==", x, one))
    return b.select(exact_one, one, _pow(b, x, y))


def _pown(b, ty, args):
    # pow with an exactly converted integer exponent keeps pow's C99 edge cases; pown(x, 0) = 1
    # for every x, signaling NaNs included.
    x, n = args
    is_zero = b.icmp_signed("==", n, _const(n.type, 0))
    return b.select(is_zero, _const(ty, 1.0), _pow(b, x, b.sitofp(n, ty)))


def _powr(b, ty, args):
    # pow(|x|, y) except where powr is NaN: x < 0, NaN operands, 0^0, inf^0 and 1^inf.
    x, y = args
    inf = _const(ty, math.inf)
    is_zero = lambda v: b.fcmp_ordered("==", v, _const(ty, 0.0))
    bad = [
        b.fcmp_ordered("<", x, _const(ty, 0.0)),
        b.fcmp_unordered("uno", x, y),
        b.and_(is_zero(x), is_zero(y)),
        b.and_(b.fcmp_ordered("==", x, inf), is_zero(y)),
        b.and_(b.fcmp_ordered("==", x, _const(ty, 1.0)), b.fcmp_ordered("==", _fabs(b, y), inf)),
    ]
    any_bad = bad[0]
    for cond in bad[1:]:
        any_bad = b.or_(any_bad, cond)
    return b.select(any_bad, _const(ty, math.nan), _pow(b, _fabs(b, x), y))


def _rootn(b, ty, args):
    """x^(1/n) as pow(|x|, q), q = fl(1/n), corrected for q's rounding error d = q*n - 1 (exact by
    fma): x^(1/n) = x^q * x^(-q*d/(1+d)) ~ r * (1 - q*d*log|x|). Without it double results near
    the exponent range are hundreds of ulp off. The sign is x's for odd n; NaN for x < 0 with even
    n and for n = 0."""
    x, n = args
    nf = b.sitofp(n, ty)
    q = b.fdiv(_const(ty, 1.0), nf)
    ax = _fabs(b, x)
    r = _pow(b, ax, q)
    d = _intrinsic(b, "llvm.fma", ty, [q, nf, _const(ty, -1.0)])
    corr = b.fmul(b.fmul(q, d), _intrinsic(b, "llvm.log", ty, [ax]))
    # A correction is only needed (and only finite) for finite nonzero |x|.
    usable = b.fcmp_ordered("<", _fabs(b, corr), _const(ty, 1.0))
    corr = b.select(usable, corr, _const(ty, 0.0))
    refined = _intrinsic(b, "llvm.fma", ty, [b.fneg(r), corr, r])
    r = b.select(b.fcmp_ordered("==", corr, _const(ty, 0.0)), r, refined)
    odd = b.trunc(n, _with_elem(n.type, I1))
    r = b.select(odd, _copysign(b, r, x), r)
    nan_cases = b.or_(
        b.icmp_signed("==", n, _const(n.type, 0)),
        b.and_(b.fcmp_ordered("<", x, _const(ty, 0.0)), b.not_(odd)),
    )
    return b.select(nan_cases, _const(ty, math.nan), r)


def _over_pi(stem: str) -> Emitter:
    """asinpi, acospi, atanpi: f(x) / pi. Dividing by fl(pi) (not multiplying by fl(1/pi)) keeps
    atan(inf)/pi = fl(pi/2)/fl(pi) exactly 0.5."""
    return lambda b, ty, args: b.fdiv(_libm_call(b, stem, ty, args), _const(ty, math.pi))


def _atan2pi(b, ty, args):
    y, x = args
    result = b.fdiv(_libm_call(b, "atan2", ty, args), _const(ty, math.pi))
    # atan2pi(+-inf, +-inf) must be exactly +-0.25 / +-0.75, which the division may miss.
    inf = _const(ty, math.inf)
    both_inf = b.and_(
        b.fcmp_ordered("==", _fabs(b, y), inf), b.fcmp_ordered("==", _fabs(b, x), inf)
    )
    quarter = b.select(b.fcmp_ordered(">", x, _const(ty, 0.0)), _const(ty, 0.25), _const(ty, 0.75))
    return b.select(both_inf, _copysign(b, quarter, y), result)


def _pi_reduce(b, ty, x):
    """Split x = n/2 + r exactly, |r| <= 1/4. Returns (x', r, q, pi*r) with q = n mod 4 as a float
    in [0, 4) (NaN for infinite x) and x' = x except that finite |x| >= 2^53, always an even
    integer, becomes a zero of x's sign (so 2x cannot overflow)."""
    ax = _fabs(b, x)
    huge = b.and_(
        b.fcmp_ordered(">=", ax, _const(ty, 2.0**53)),
        b.fcmp_ordered("!=", ax, _const(ty, math.inf)),
    )
    x = b.select(huge, _copysign(b, _const(ty, 0.0), x), x)
    n = _intrinsic(b, "llvm.rint", ty, [b.fmul(x, _const(ty, 2.0))])
    r = b.fsub(x, b.fmul(n, _const(ty, 0.5)))  # exact (Sterbenz)
    q = b.frem(n, _const(ty, 4.0))
    q = b.select(b.fcmp_ordered("<", q, _const(ty, 0.0)), b.fadd(q, _const(ty, 4.0)), q)
    return x, r, q, b.fmul(r, _const(ty, math.pi))


def _by_quadrant(b, ty, q, values):
    """values[q] for q in 0..3 (values[3] also for a NaN q)."""
    cases = [(b.fcmp_ordered("==", q, _const(ty, float(k))), v) for k, v in enumerate(values[:3])]
    return _select_chain(b, cases, values[3])


def _sinpi(b, ty, args):
    x, r, q, pr = _pi_reduce(b, ty, args[0])
    s = _intrinsic(b, "llvm.sin", ty, [pr])
    c = _intrinsic(b, "llvm.cos", ty, [pr])
    result = _by_quadrant(b, ty, q, [s, c, b.fneg(s), b.fneg(c)])
    # sinpi(n) is a zero with the sign of n (integers: r = 0 with an even quadrant).
    zero = _const(ty, 0.0)
    integer = b.and_(
        b.fcmp_ordered("==", r, zero), b.fcmp_ordered("==", b.frem(q, _const(ty, 2.0)), zero)
    )
    return b.select(integer, _copysign(b, zero, x), result)


def _cospi(b, ty, args):
    _, _, q, pr = _pi_reduce(b, ty, args[0])
    s = _intrinsic(b, "llvm.sin", ty, [pr])
    c = _intrinsic(b, "llvm.cos", ty, [pr])
    result = _by_quadrant(b, ty, q, [c, b.fneg(s), b.fneg(c), s])
    # cospi(n + 1/2) is +0: adding +0.0 turns -0 into +0 and changes nothing else.
    return b.fadd(result, _const(ty, 0.0))


def _tanpi(b, ty, args):
    x, r, q, pr = _pi_reduce(b, ty, args[0])
    t = _libm_call(b, "tan", ty, [pr])
    cot = b.fdiv(_const(ty, -1.0), t)
    result = _by_quadrant(b, ty, q, [t, cot, t, cot])
    # Exact cases: tanpi(n) = copysign(0, n) for even n and copysign(0, -n) for odd n;
    # tanpi(n + 1/2) = +inf for even n, -inf for odd n.
    r_zero = b.fcmp_ordered("==", r, _const(ty, 0.0))
    zero = _const(ty, 0.0)
    exact = _by_quadrant(
        b,
        ty,
        q,
        [_copysign(b, zero, x), _const(ty, math.inf), _copysign(b, zero, b.fneg(x)),
         _const(ty, -math.inf)],
    )
    return b.select(r_zero, exact, result)


# Names that map straight onto an LLVM intrinsic of the same operand types.
_FLOAT_INTRINSICS = {
    "sqrt": "llvm.sqrt",
    "fabs": "llvm.fabs",
    "floor": "llvm.floor",
    "ceil": "llvm.ceil",
    "round": "llvm.round",  # half away from zero, as OpenCL round
    "trunc": "llvm.trunc",
    "rint": "llvm.rint",  # default (nearest even) rounding mode
    "exp": "llvm.exp",
    "exp2": "llvm.exp2",
    "log": "llvm.log",
    "log2": "llvm.log2",
    "log10": "llvm.log10",
    "sin": "llvm.sin",
    "cos": "llvm.cos",
    "copysign": "llvm.copysign",
}

# Names computed by the libm function of the same name (float: name + "f"), lane by lane.
_LIBM_FUNCTIONS = (
    "tan atan2 tanh asin acos atan sinh cosh asinh acosh atanh expm1 log1p erf erfc "
    "tgamma lgamma logb"
).split()

_FLOAT_EMITTERS: dict[str, Emitter] = {
    **{name: _unary_intrinsic(base) for name, base in _FLOAT_INTRINSICS.items()},
    **{name: _libm(name) for name in _LIBM_FUNCTIONS},
    "fmin": _fmin,
    "fmax": _fmax,
    "fmin_common": _fmin,
    "fmax_common": _fmax,
    "fclamp": _fclamp,
    "fma": _fma,
    "mad": _mad,
    "rsqrt": _rsqrt,
    "divide": _divide,
    "recip": _recip,
    "exp10": _exp10,
    "fdim": _fdim,
    "hypot": _hypot,
    "remainder": _remainder,
    "cbrt": _cbrt,
    "fmod": _fmod,
    "maxmag": _magnitude_pick(_fmax, bigger=True),
    "minmag": _magnitude_pick(_fmin, bigger=False),
    "sign": _sign,
    "step": _step,
    "smoothstep": _smoothstep,
    "mix": _mix,
    "degrees": _scale(180.0 / math.pi),
    "radians": _scale(math.pi / 180.0),
    "nan": _nan,
    "nextafter": _nextafter,
    "ilogb": _ilogb,
    "ldexp": _ldexp,
    "pow": _pow_c99,
    "pown": _via_double(_pown),
    "powr": _powr,
    "rootn": _via_double(_rootn),
    "asinpi": _via_double(_over_pi("asin")),
    "acospi": _via_double(_over_pi("acos")),
    "atanpi": _via_double(_over_pi("atan")),
    "atan2pi": _via_double(_atan2pi),
    "sinpi": _via_double(_sinpi),
    "cospi": _via_double(_cospi),
    "tanpi": _via_double(_tanpi),
}

# Functions that must see half operands as they are (see the module docstring).
_NATIVE_HALF = {"fma", "mad", "nan", "nextafter"}

# native_* and half_* forms: the full-precision function (their bounds are looser).
_RELAXED = "cos divide exp exp2 exp10 log log2 log10 powr recip rsqrt sin sqrt tan".split()
_ALIASES = {f"{prefix}_{name}": name for prefix in ("native", "half") for name in _RELAXED}


def _build_table() -> dict[str, Emitter]:
    table = dict(INT_EMITTERS)
    for name, emit in _FLOAT_EMITTERS.items():
        table[name] = emit if name in _NATIVE_HALF else _promote_half(emit)
    for alias, name in _ALIASES.items():
        table[alias] = table[name]
    table.update(GEOMETRIC_EMITTERS)   # they handle half themselves (computed in double)
    return table


_EMITTERS = _build_table()

SUPPORTED = frozenset(_EMITTERS)


def lower_opencl_std(
    b: ir.IRBuilder, name: str, result_type: ir.Type, args: list[ir.Value]
) -> ir.Value:
    """Emit IR for OpenCL.std instruction `name` (grammar opname, e.g. 'sqrt', 's_abs',
    'u_mul_hi', 'native_sin') at the builder's position and return its value of result_type.

    Operands are LLVM values of the grammar's types; a scalar operand of a vector instruction is
    splatted. Raises NotSupportedError for instructions not implemented here (those with pointer
    operands, vload/vstore and printf are lowered by ops_ext's other modules)."""
    emit = _EMITTERS.get(name)
    if emit is None:
        raise NotSupportedError(f"OpenCL.std {name}")
    lanes = _lanes(result_type)
    if lanes is not None:
        args = [_splat(b, a, lanes) if _lanes(a.type) is None else a for a in args]
    return emit(b, result_type, list(args))
