"""Lowering of the OpenCL.std integer instructions (``s_*``/``u_*``, ``popcount``, ``clz``,
``ctz``, ``rotate``) and the bitwise ``bitselect``/``select``. Signedness comes from the
name prefix; everything works lane-wise on scalars and ``<N x iM>`` vectors."""

from __future__ import annotations

from llvmlite import ir

from .opencl_ir import I1, Emitter, _const, _elem, _int_like, _intrinsic, _lanes, _width, _with_elem


def _smin(b, x, y, signed):
    cmp = b.icmp_signed if signed else b.icmp_unsigned
    return b.select(cmp("<", x, y), x, y)


def _smax(b, x, y, signed):
    cmp = b.icmp_signed if signed else b.icmp_unsigned
    return b.select(cmp(">", x, y), x, y)


def _shr(b, x, n, signed):
    return b.ashr(x, n) if signed else b.lshr(x, n)


def _ext(b, x, ty, signed):
    return b.sext(x, ty) if signed else b.zext(x, ty)


def _wide(ty):
    return _with_elem(ty, ir.IntType(2 * _width(ty)))


def _mul_hi(b, x, y, signed):
    # The high half of the 2n-bit product.
    wide = _wide(x.type)
    product = b.mul(_ext(b, x, wide, signed), _ext(b, y, wide, signed))
    return b.trunc(b.lshr(product, _const(wide, _width(x.type))), x.type)


def _int_ops(signed: bool) -> dict[str, Emitter]:
    """The s_ (signed) or u_ (unsigned) integer emitters, keyed by the name without prefix."""
    s = signed

    def abs_(b, ty, args):
        if not s:
            return args[0]
        # INT_MIN stays INT_MIN, i.e. 2^(n-1) read as unsigned.
        return _intrinsic(b, "llvm.abs", ty, [args[0], _const(I1, 0)], [ty])

    def abs_diff(b, ty, args):
        # The wrapped difference of the larger minus the smaller is the exact unsigned result.
        x, y = args
        return b.select(_cmp(b, ">", x, y), b.sub(x, y), b.sub(y, x))

    def _cmp(b, op, x, y):
        return (b.icmp_signed if s else b.icmp_unsigned)(op, x, y)

    def hadd(b, ty, args):
        # (x >> 1) + (y >> 1) + (x & y & 1): no overflow.
        x, y = args
        one = _const(ty, 1)
        return b.add(b.add(_shr(b, x, one, s), _shr(b, y, one, s)), b.and_(b.and_(x, y), one))

    def rhadd(b, ty, args):
        x, y = args
        one = _const(ty, 1)
        return b.add(b.add(_shr(b, x, one, s), _shr(b, y, one, s)), b.and_(b.or_(x, y), one))

    def clamp(b, ty, args):
        x, lo, hi = args
        return _smin(b, _smax(b, x, lo, s), hi, s)

    def mad_sat(b, ty, args):
        # a*b + c fits in 2n bits; clamp there, then narrow.
        wide = _wide(ty)
        a, x, c = (_ext(b, v, wide, s) for v in args)
        full = b.add(b.mul(a, x), c)
        n = _width(ty)
        lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if s else (0, (1 << n) - 1)
        clamped = _smin(b, _smax(b, full, _const(wide, lo), s), _const(wide, hi), s)
        return b.trunc(clamped, ty)

    def upsample(b, ty, args):
        # (hi << n) | lo in 2n bits; hi's extension bits are shifted out, so sign does not matter.
        hi, lo = args
        n = _width(hi.type)
        return b.or_(b.shl(b.zext(hi, ty), _const(ty, n)), b.zext(lo, ty))

    sat = "s" if s else "u"
    return {
        "abs": abs_,
        "abs_diff": abs_diff,
        "min": lambda b, ty, a: _smin(b, a[0], a[1], s),
        "max": lambda b, ty, a: _smax(b, a[0], a[1], s),
        "clamp": clamp,
        "mul_hi": lambda b, ty, a: _mul_hi(b, a[0], a[1], s),
        "mad_hi": lambda b, ty, a: b.add(_mul_hi(b, a[0], a[1], s), a[2]),
        # 24-bit operands are the caller's promise; the low 32 bits of the product are the result.
        "mul24": lambda b, ty, a: b.mul(a[0], a[1]),
        "mad24": lambda b, ty, a: b.add(b.mul(a[0], a[1]), a[2]),
        "add_sat": lambda b, ty, a: _intrinsic(b, f"llvm.{sat}add.sat", ty, a),
        "sub_sat": lambda b, ty, a: _intrinsic(b, f"llvm.{sat}sub.sat", ty, a),
        "hadd": hadd,
        "rhadd": rhadd,
        "mad_sat": mad_sat,
        "upsample": upsample,
    }


def _bitselect(b, ty, args):
    # Each result bit is b's where c's bit is 1, a's elsewhere; floats as their bit patterns.
    ity = _int_like(ty) if not isinstance(_elem(ty), ir.IntType) else ty
    a, x, c = (b.bitcast(v, ity) if v.type != ity else v for v in args)
    bits = b.or_(b.and_(a, b.not_(c)), b.and_(x, c))
    return b.bitcast(bits, ty) if ity != ty else bits


def _select(b, ty, args):
    # Scalar: c != 0 ? b : a. Vector: per lane, the most significant bit of c decides.
    a, x, c = args
    zero = _const(c.type, 0)
    cond = b.icmp_signed("<", c, zero) if _lanes(ty) else b.icmp_unsigned("!=", c, zero)
    return b.select(cond, x, a)


INT_EMITTERS: dict[str, Emitter] = {
    **{f"s_{name}": emit for name, emit in _int_ops(True).items()},
    **{f"u_{name}": emit for name, emit in _int_ops(False).items()},
    "popcount": lambda b, ty, a: _intrinsic(b, "llvm.ctpop", ty, a),
    # is_zero_poison = false: clz(0) = ctz(0) = the bit width.
    "clz": lambda b, ty, a: _intrinsic(b, "llvm.ctlz", ty, [a[0], _const(I1, 0)], [ty]),
    "ctz": lambda b, ty, a: _intrinsic(b, "llvm.cttz", ty, [a[0], _const(I1, 0)], [ty]),
    # fshl(v, v, i) rotates left by i modulo the width.
    "rotate": lambda b, ty, a: _intrinsic(b, "llvm.fshl", ty, [a[0], a[0], a[1]]),
    "bitselect": _bitselect,
    "select": _select,
}
