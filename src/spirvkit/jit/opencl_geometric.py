"""OpenCL.std geometric functions (``cross``, ``length``, ``distance``, ``normalize`` and their
``fast_*`` forms) and the vector permutations ``shuffle`` / ``shuffle2``, lowered to LLVM IR.

Operands are scalars or vectors of 2-4 (geometric) or 2-16 (shuffle) lanes. Accuracy and
special cases (OpenCL C 2.0 section 6.13.5; environment spec ULP table, geometric rows):

* ``half`` and ``float`` are computed in ``double`` and rounded once at the end. The squares of
  floats are exact in double and cannot over- or underflow there (FLT_MAX^2 ~ 1e77,
  denormal^2 ~ 1e-90), so no scaling is needed and the results are within about 0.5 ulp, far
  inside the bounds (length 2.75+0.5n, normalize 2+n, distance 2.5+2n ulp for float).
* ``double`` scales the components by a power of two before squaring, so neither huge nor tiny
  vectors over- or underflow ("must not overflow or suffer extraordinary underflow loss"), then
  accumulates the squares with fma. length and distance use 2^-600 when the largest magnitude is
  above 2^500 and 2^600 when it is below 2^-500 (their result is dominated by the largest
  component); normalize brings the largest magnitude to [1, 2) exactly, since its small
  components are results of their own. Powers of two are exact: the scaling costs no accuracy.
* ``length`` of a vector with an infinite component is +inf even when another is NaN (as C99
  ``hypot``); otherwise a NaN component gives NaN.
* ``normalize``: an all-zero vector is returned unchanged (signs of zero kept); a NaN component
  makes every component NaN; infinite components first become ``copysign(1, x)`` and the finite
  ones ``0 * x``, then the vector is normalized (spec text, section 6.13.5).
* ``fast_*`` (float only) use the full-precision forms: their 8192-ulp bounds allow that.
* ``cross``: float and half products are exact in double, so each component is one rounding of
  the exact value; double uses the fma difference of products (Kahan), within about 1.5 ulp of
  each component, with each vector scaled by a power of two so that no product over- or
  underflows where the result does not. The w component of a 4-component result is +0.
* ``shuffle(x, mask)``: result[i] = x[mask[i] mod m] (m = x's lane count: only the low log2(m)
  bits of each mask component count, spec 6.13.12); ``shuffle2(x, y, mask)`` indexes the
  concatenation of x and y with mask[i] mod 2m. For a 3-lane source (not allowed by OpenCL C, but
  expressible in SPIR-V) the remainder keeps the index in range instead of reading past the end.
"""

from __future__ import annotations

import math

from llvmlite import ir

from .opencl_ir import DOUBLE, I32, Emitter, _const, _elem, _fabs, _intrinsic, _lanes, _sqrt


def _parts(b: ir.IRBuilder, v: ir.Value) -> list[ir.Value]:
    """The lanes of a vector (or the scalar itself) as scalars."""
    n = _lanes(v.type)
    if n is None:
        return [v]
    return [b.extract_element(v, _const(I32, i)) for i in range(n)]


def _vector(b: ir.IRBuilder, ty: ir.Type, parts: list[ir.Value]) -> ir.Value:
    if _lanes(ty) is None:
        return parts[0]
    out = _const(ty, ir.Undefined)
    for i, p in enumerate(parts):
        out = b.insert_element(out, p, _const(I32, i))
    return out


def _is_double(ty: ir.Type) -> bool:
    return isinstance(_elem(ty), ir.DoubleType)


def _widen(b: ir.IRBuilder, xs: list[ir.Value]) -> list[ir.Value]:
    return [x if isinstance(x.type, ir.DoubleType) else b.fpext(x, DOUBLE) for x in xs]


def _narrow(b: ir.IRBuilder, x: ir.Value, elem: ir.Type) -> ir.Value:
    return x if isinstance(elem, ir.DoubleType) else b.fptrunc(x, elem)


def _fma(b, x, y, z):
    return _intrinsic(b, "llvm.fma", DOUBLE, [x, y, z])


def _sum_of_squares(b: ir.IRBuilder, xs: list[ir.Value]) -> ir.Value:
    acc = b.fmul(xs[0], xs[0])
    for x in xs[1:]:
        acc = _fma(b, x, x, acc)
    return acc


def _any(b: ir.IRBuilder, conds: list[ir.Value]) -> ir.Value:
    out = conds[0]
    for c in conds[1:]:
        out = b.or_(out, c)
    return out


def _scale_factors(b: ir.IRBuilder, xs: list[ir.Value]) -> tuple[ir.Value, ir.Value]:
    """(s, 1/s): powers of two bringing the largest |x| of double components into [2^-500, 2^500]
    when it is outside (NaN components are ignored by maxnum; they propagate through the sum)."""
    m = _fabs(b, xs[0])
    for x in xs[1:]:
        m = _intrinsic(b, "llvm.maxnum", DOUBLE, [m, _fabs(b, x)])
    big = b.fcmp_ordered(">", m, _const(DOUBLE, 2.0**500))
    small = b.fcmp_ordered("<", m, _const(DOUBLE, 2.0**-500))

    def pick(for_big, for_small):
        return b.select(big, _const(DOUBLE, for_big), b.select(small, _const(DOUBLE, for_small), _const(DOUBLE, 1.0)))

    return pick(2.0**-600, 2.0**600), pick(2.0**600, 2.0**-600)


def _to_unit_exponent(b: ir.IRBuilder, xs: list[ir.Value]) -> list[ir.Value]:
    """Double components scaled by the power of two that brings the largest magnitude into
    [1, 2). normalize needs this exact scaling, not _scale_factors' coarse one: its results are
    x_i / |x|, so a component far smaller than the largest must not underflow unless its result
    does (with a coarse factor, a result that is a small normal number would be computed from a
    denormal, losing digits). Two factors 2^k1 * 2^k2 cover every exponent; a product that
    underflows in the first step underflows in the result too (both factors are < 1 then)."""
    m = _fabs(b, xs[0])
    for x in xs[1:]:
        m = _intrinsic(b, "llvm.maxnum", DOUBLE, [m, _fabs(b, x)])
    # Denormal maxima first become normal (exactly), so the exponent field gives the scale.
    pre = b.select(b.fcmp_ordered("<", m, _const(DOUBLE, 2.0**-1000)), _const(DOUBLE, 2.0**200),
                   _const(DOUBLE, 1.0))
    i64 = ir.IntType(64)
    biased = b.and_(b.lshr(b.bitcast(b.fmul(m, pre), i64), _const(i64, 52)), _const(i64, 0x7FF))
    k = b.sub(_const(i64, 1023), biased)            # in [-1024, 1023]
    k1 = b.ashr(k, _const(i64, 1))
    k2 = b.sub(k, k1)                               # both in [-512, 512]

    def power(e):
        return b.bitcast(b.shl(b.add(e, _const(i64, 1023)), _const(i64, 52)), DOUBLE)

    a, c = power(k1), power(k2)
    return [b.fmul(b.fmul(b.fmul(x, pre), a), c) for x in xs]


def _length_wide(b: ir.IRBuilder, xs: list[ir.Value], scaled: bool, infinite: list[ir.Value]) -> ir.Value:
    """sqrt(sum x_i^2) of double components; +inf when one of the `infinite` flags is set."""
    if scaled:
        s, back = _scale_factors(b, xs)
        r = b.fmul(_sqrt(b, _sum_of_squares(b, [b.fmul(x, s) for x in xs])), back)
    else:
        r = _sqrt(b, _sum_of_squares(b, xs))
    return b.select(_any(b, infinite), _const(DOUBLE, math.inf), r)


def _is_inf(b, x):
    return b.fcmp_ordered("==", _fabs(b, x), _const(DOUBLE, math.inf))


def _length(b, ty, args):
    xs = _widen(b, _parts(b, args[0]))
    return _narrow(b, _length_wide(b, xs, _is_double(args[0].type), [_is_inf(b, x) for x in xs]), _elem(ty))


def _distance(b, ty, args):
    # float/half differences are (almost always exactly) representable in double. A double
    # difference that overflows means the distance overflows too -- unless another component is
    # NaN: only a difference of an infinite input counts as an infinite component (inf - inf is
    # NaN, as in length(p - q)).
    ps, qs = _widen(b, _parts(b, args[0])), _widen(b, _parts(b, args[1]))
    xs = [b.fsub(p, q) for p, q in zip(ps, qs)]
    infinite = [b.and_(_is_inf(b, x), b.or_(_is_inf(b, p), _is_inf(b, q))) for x, p, q in zip(xs, ps, qs)]
    return _narrow(b, _length_wide(b, xs, _is_double(args[0].type), infinite), _elem(ty))


def _normalize(b, ty, args):
    (v,) = args
    elem = _elem(ty)
    xs = _widen(b, _parts(b, v))
    one, zero, inf = _const(DOUBLE, 1.0), _const(DOUBLE, 0.0), _const(DOUBLE, math.inf)
    infinite = [b.fcmp_ordered("==", _fabs(b, x), inf) for x in xs]
    any_inf = _any(b, infinite)
    # Infinite components: copysign(1, x); the others 0 * x (NaN stays NaN, making all NaN).
    replaced = [b.select(is_inf, _intrinsic(b, "llvm.copysign", DOUBLE, [one, x]), b.fmul(zero, x))
                for is_inf, x in zip(infinite, xs)]
    xs = [b.select(any_inf, r, x) for r, x in zip(replaced, xs)]
    if _is_double(v.type):
        xs = _to_unit_exponent(b, xs)
    total = _sum_of_squares(b, xs)
    norm = _sqrt(b, total)
    out = [_narrow(b, b.fdiv(x, norm), elem) for x in xs]
    result = _vector(b, ty, out)
    # An all-zero vector is returned as it is (a NaN sum compares unordered: not zero).
    return b.select(b.fcmp_ordered("==", total, zero), v, result)


def _difference_of_products(b, a, x, c, y, exact: bool):
    """a*x - c*y: one rounding of the exact value when the products are exact (widened float and
    half), else Kahan's fma algorithm (error within 1.5 ulp)."""
    if exact:
        return b.fsub(b.fmul(a, x), b.fmul(c, y))
    w = b.fmul(c, y)
    err = _fma(b, b.fneg(c), y, w)          # w - c*y, exactly
    kahan = b.fadd(_fma(b, a, x, b.fneg(w)), err)
    # An infinite product makes the correction inf - inf = NaN: the plain difference is right.
    plain = b.fsub(b.fmul(a, x), w)
    return b.select(b.fcmp_ordered("ord", kahan, kahan), kahan, plain)


def _cross(b, ty, args):
    elem = _elem(ty)
    p = _widen(b, _parts(b, args[0])[:3])
    q = _widen(b, _parts(b, args[1])[:3])
    exact = not isinstance(elem, ir.DoubleType)
    if not exact:
        # Double products may over- or underflow where the result does not: scale each vector
        # by a power of two first (the bound is absolute, max^2 * 3 * FLT_EPSILON, so components
        # far below a vector's largest may lose digits to underflow) and scale back at the end.
        sp, back_p = _scale_factors(b, p)
        sq, back_q = _scale_factors(b, q)
        p = [b.fmul(x, sp) for x in p]
        q = [b.fmul(x, sq) for x in q]
    comps = [
        _difference_of_products(b, p[1], q[2], p[2], q[1], exact),
        _difference_of_products(b, p[2], q[0], p[0], q[2], exact),
        _difference_of_products(b, p[0], q[1], p[1], q[0], exact),
    ]
    if not exact:
        # Opposite factors (2^600 * 2^-600) cancel before they touch the result, which could
        # overflow or underflow in between; equal ones are applied one after the other.
        same = b.fcmp_ordered("==", back_p, back_q)
        first = b.select(same, back_p, b.fmul(back_p, back_q))
        second = b.select(same, back_q, _const(DOUBLE, 1.0))
        comps = [b.fmul(b.fmul(c, first), second) for c in comps]
    out = [_narrow(b, c, elem) for c in comps]
    out += [_const(elem, 0.0)] * ((_lanes(ty) or 3) - 3)
    return _vector(b, ty, out)


def _lane_index(b: ir.IRBuilder, index: ir.Value, count: int) -> ir.Value:
    """mask component -> a lane number below count (the low bits only, per the spec)."""
    if count & (count - 1) == 0:
        return b.and_(index, _const(index.type, count - 1))
    return b.urem(index, _const(index.type, count))


def _constant_lanes(mask: ir.Value) -> list[int] | None:
    """The integer lanes of a constant mask vector, or None when it is not a plain constant."""
    if not isinstance(mask, ir.Constant) or not isinstance(mask.constant, (list, tuple)):
        return None
    lanes = []
    for c in mask.constant:
        value = c.constant if isinstance(c, ir.Constant) else c
        if not isinstance(value, int):
            return None   # undef lanes and the like: take the general path
        lanes.append(value)
    return lanes


def _shuffle_from(b, ty, source: ir.Value, count: int, mask: ir.Value) -> ir.Value:
    known = _constant_lanes(mask)
    if known is not None:
        # Constant masks (the usual case): one shufflevector LLVM can match to a permute.
        lanes = [i % count for i in known]
        if _lanes(ty) is None:
            return b.extract_element(source, _const(I32, lanes[0]))
        return b.shuffle_vector(source, _const(source.type, ir.Undefined),
                                ir.Constant(ir.VectorType(I32, len(lanes)), lanes))
    picked = [b.extract_element(source, _lane_index(b, i, count)) for i in _parts(b, mask)]
    return _vector(b, ty, picked)


def _shuffle(b, ty, args):
    x, mask = args
    return _shuffle_from(b, ty, x, _lanes(x.type) or 1, mask)


def _shuffle2(b, ty, args):
    x, y, mask = args
    m = _lanes(x.type) or 1
    both = b.shuffle_vector(x, y, ir.Constant(ir.VectorType(I32, 2 * m), list(range(2 * m))))
    return _shuffle_from(b, ty, both, 2 * m, mask)


GEOMETRIC_EMITTERS: dict[str, Emitter] = {
    "cross": _cross,
    "length": _length,
    "distance": _distance,
    "normalize": _normalize,
    "fast_length": _length,
    "fast_distance": _distance,
    "fast_normalize": _normalize,
    "shuffle": _shuffle,
    "shuffle2": _shuffle2,
}
