"""The OpenCL.std math instructions with a second result written through a pointer operand:
``sincos``, ``fract``, ``modf``, ``frexp``, ``remquo`` and ``lgamma_r``.

:func:`lower_pointer_math` emits both values (lane-wise like :mod:`.opencl_std`); the caller
(``ops_ext``) stores the second through the pointer with the ordinary checked store. Everything
is computed without memory (no libm call taking an ``int *``), so the work-item loops stay
vectorisable.
"""

from __future__ import annotations

import math

from llvmlite import ir

from .opencl_ir import (
    DOUBLE, FLOAT, _const, _copysign, _elem, _fabs, _float_bits, _int_like, _intrinsic, _is_half,
    _is_nan, _lanes, _splat, _with_elem,
)
from .opencl_std import lower_opencl_std

POINTER_MATH = frozenset({"sincos", "fract", "modf", "frexp", "remquo", "lgamma_r"})


def _is_inf(b, x):
    return b.fcmp_ordered("==", _fabs(b, x), _const(x.type, math.inf))


def _sincos(b, ty, x):
    return lower_opencl_std(b, "sin", ty, [x]), lower_opencl_std(b, "cos", ty, [x])


def _modf(b, ty, x):
    # *iptr = trunc(x); return copysign(isinf(x) ? 0 : x - *iptr, x)   (exact: x - trunc(x))
    ip = _intrinsic(b, "llvm.trunc", ty, [x])
    frac = b.select(_is_inf(b, x), _const(ty, 0.0), b.fsub(x, ip))
    return _copysign(b, frac, x), ip


def _fract(b, ty, x):
    # fmin(x - floor(x), largest value below 1): one rounding, never 1.0. Zeros keep their sign,
    # infinities give a zero of their sign, NaN gives NaN (minnum would drop it).
    mant, _ = _float_bits(ty)
    fl = _intrinsic(b, "llvm.floor", ty, [x])
    below_one = _const(ty, 1.0 - 2.0 ** -(mant + 1))
    fr = _intrinsic(b, "llvm.minnum", ty, [b.fsub(x, fl), below_one])
    fr = b.select(_is_inf(b, x), _copysign(b, _const(ty, 0.0), x), fr)
    fr = b.select(b.fcmp_ordered("==", x, _const(ty, 0.0)), x, fr)
    return b.select(_is_nan(b, x), x, fr), fl


def _frexp(b, ty, x, exp_ty):
    """(m, e) with x = m * 2^e, 0.5 <= |m| < 1, from the bit pattern; denormals are first scaled
    by 2^(mant+1) (exactly). Zeros, infinities and NaN give (x, 0). Half goes through float."""
    if _is_half(ty):
        m, e = _frexp(b, _with_elem(ty, FLOAT), b.fpext(x, _with_elem(ty, FLOAT)), exp_ty)
        return b.fptrunc(m, ty), e
    mant, total = _float_bits(ty)
    bias = (1 << (total - mant - 2)) - 1
    ity = _int_like(ty)
    min_normal = _const(ty, 2.0 ** (1 - bias))
    tiny = b.fcmp_ordered("<", _fabs(b, x), min_normal)
    scaled = b.select(tiny, b.fmul(x, _const(ty, 2.0 ** (mant + 1))), x)
    bits = b.bitcast(scaled, ity)
    field = b.and_(b.lshr(bits, _const(ity, mant)), _const(ity, (1 << (total - mant - 1)) - 1))
    e = b.sub(field, _const(ity, bias - 1))
    e = b.select(tiny, b.sub(e, _const(ity, mant + 1)), e)
    keep = ~(((1 << (total - mant - 1)) - 1) << mant) & ((1 << total) - 1)
    m_bits = b.or_(b.and_(bits, _const(ity, keep)), _const(ity, (bias - 1) << mant))
    m = b.bitcast(m_bits, ty)
    special = b.or_(b.or_(b.fcmp_ordered("==", x, _const(ty, 0.0)), _is_inf(b, x)), _is_nan(b, x))
    m = b.select(special, x, m)
    e = b.select(special, _const(ity, 0), e)
    width = _elem(ity).width
    e = b.trunc(e, exp_ty) if width > 32 else (b.sext(e, exp_ty) if width < 32 else e)
    return m, e


def _remquo(b, ty, x, y, quo_ty):
    """remainder(x, y) and the quotient's sign and low 7 bits. |x| is first reduced modulo
    128|y| (exactly, by fmod: the low 7 bits of the quotient survive), so the quotient n of the
    reduced operand is at most 128 and the rounded xr/|y| - r/|y| is within far less than 1/2
    of it."""
    if _is_half(ty):
        wide = _with_elem(ty, FLOAT)
        r, q = _remquo(b, wide, b.fpext(x, wide), b.fpext(y, wide), quo_ty)
        return b.fptrunc(r, ty), q
    rem = lower_opencl_std(b, "remainder", ty, [x, y])
    ax, ay = _fabs(b, x), _fabs(b, y)
    period = b.fmul(ay, _const(ty, 128.0))
    xr = b.select(_is_inf(b, period), ax, b.frem(ax, period))
    r = lower_opencl_std(b, "remainder", ty, [xr, ay])
    # n = (xr - r) / |y|, an integer; as xr/|y| - r/|y| so that xr - r cannot overflow.
    n = _intrinsic(b, "llvm.rint", ty, [b.fsub(b.fdiv(xr, ay), b.fdiv(r, ay))])
    n = b.fptosi(b.select(b.fcmp_ordered("ord", n, n), n, _const(ty, 0.0)), quo_ty)
    n = b.and_(n, _const(quo_ty, 127))
    negative = b.xor(b.fcmp_ordered("<", _copysign(b, _const(ty, 1.0), x), _const(ty, 0.0)),
                     b.fcmp_ordered("<", _copysign(b, _const(ty, 1.0), y), _const(ty, 0.0)))
    quo = b.select(negative, b.neg(n), n)
    # NaN remainder (x infinite, y zero, a NaN operand): quo = 0.
    quo = b.select(_is_nan(b, rem), _const(quo_ty, 0), quo)
    return rem, quo


def _lgamma_r(b, ty, x, sign_ty):
    """lgamma(x) and the sign of gamma(x): +1 for x > 0, for x < 0 non-integer -1 when floor(x)
    is odd; 0 at the poles (zeros, negative integers) and for -inf and NaN."""
    value = lower_opencl_std(b, "lgamma", ty, [x])
    work = _with_elem(ty, DOUBLE) if not isinstance(_elem(ty), ir.DoubleType) else ty
    xd = b.fpext(x, work) if work != ty else x
    zero = _const(work, 0.0)
    fl = _intrinsic(b, "llvm.floor", work, [xd])
    odd = b.fcmp_ordered("==", b.frem(fl, _const(work, 2.0)), _const(work, -1.0))
    pole = b.and_(b.fcmp_ordered("<=", xd, zero), b.fcmp_ordered("==", fl, xd))
    one, minus, none = _const(sign_ty, 1), _const(sign_ty, -1), _const(sign_ty, 0)
    sign = b.select(b.fcmp_ordered("<", xd, zero), b.select(odd, minus, one), one)
    sign = b.select(b.or_(pole, _is_nan(b, xd)), none, sign)
    return value, sign


def lower_pointer_math(b: ir.IRBuilder, name: str, result_type: ir.Type, args: list,
                       out_type: ir.Type) -> tuple[ir.Value, ir.Value]:
    """(result, value to store through the pointer) of OpenCL.std `name`; args are the operands
    without the pointer, out_type the pointee's LLVM type."""
    lanes = _lanes(result_type)
    if lanes is not None:
        args = [_splat(b, a, lanes) if _lanes(a.type) is None else a for a in args]
    if name == "sincos":
        return _sincos(b, result_type, args[0])
    if name == "modf":
        return _modf(b, result_type, args[0])
    if name == "fract":
        return _fract(b, result_type, args[0])
    if name == "frexp":
        return _frexp(b, result_type, args[0], out_type)
    if name == "remquo":
        return _remquo(b, result_type, args[0], args[1], out_type)
    return _lgamma_r(b, result_type, args[0], out_type)
