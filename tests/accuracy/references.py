"""High-precision references for the OpenCL.std math functions.

Every reference takes the operands as numpy arrays (floats already widened to ``longdouble``,
which holds every half, float and double value exactly; ints as int64) and the swept type's name,
and returns the (unrounded) result as a ``longdouble`` array:

* Where numpy has the function for ``longdouble`` it evaluates glibc's x87 ``long double`` libm
  (64-bit significand, error below 1 long-double ulp = 2^-11 double ulp = 2^-40 float ulp).
  For float and half that is the "float64/long double evaluation, treated as exact" of the sweep:
  an error of 2^-40 ulp can only matter in rare hard-to-round cases exactly at a rounding
  boundary, and the bounds are 0.5 ulp (CR) or more.
* Functions numpy lacks: erf, erfc, tgamma, lgamma use Python's ``math`` (double, within a few
  double ulps, i.e. ~2^-28 float ulp) for float and half, and mpmath at 96 bits for double; rootn
  uses mpmath for double (``powl(x, 1/n)`` would carry 1/n's rounding error, up to 0.35 double ulp
  near the exponent range). sinpi/cospi/tanpi and the *pi inverses reduce the argument exactly
  first, so the long-double pi's error stays relative.
* Exact functions (fmod, remainder, ldexp, nextafter, fma ...) are computed exactly.

Special values follow C99 Annex F and the OpenCL additions (the edge cases are also checked
separately, against values written from the spec, in ``edge_cases.py``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

LD = np.longdouble
PI = LD("3.14159265358979323846264338327950288")
_MP_PREC = 96


def _vectorize(fn, *arrays, out=LD):
    """fn applied elementwise (Python scalars in, Python float / longdouble out)."""
    result = np.empty(len(arrays[0]), dtype=out)
    for i, values in enumerate(zip(*arrays)):
        result[i] = fn(*values)
    return result


def _mpf_to_ld(v) -> LD:
    """An mpmath real (or +-inf / nan) rounded to long double's 64-bit significand."""
    if not mpmath.isfinite(v):
        return LD(float(v))
    if v == 0:
        return LD(0.0)
    with mpmath.workprec(64):
        v = +v
    sign, man, exp, bc = v._mpf_
    if exp + bc > 16384:  # beyond long double: a true overflow for every swept type
        r = LD(np.inf)
    elif exp + bc < -16440:  # below long double's denormals: keep a nonzero magnitude, since
        r = LD(np.finfo(LD).smallest_subnormal)  # an exact zero would demand a signed zero
    else:
        r = np.ldexp(LD(int(man)), int(exp))
    return -r if sign else r


def _with_mpmath(mp_fn, fallback):
    """A per-element reference: mp_fn(mpf x, ...) for finite operands, fallback(x, ...) (Python
    floats) for the rest and for operands where fallback says the result is exact."""

    def ref(*xs):
        floats = [float(x) for x in xs]
        quick = fallback(*floats)
        if quick is not None:
            return LD(quick)
        with mpmath.workprec(_MP_PREC):
            return _mpf_to_ld(mp_fn(*[mpmath.mpf(f) for f in floats]))

    return ref


# ---------------------------------------------------------------------------------------------
# Special functions


def _math_or_nan(fn, x):
    try:
        return fn(x)
    except (ValueError, OverflowError):
        return None


def _gamma_special(x):
    if math.isnan(x):
        return math.nan
    if x == 0:
        return math.copysign(math.inf, x)
    if x == -math.inf or (x < 0 and x == math.floor(x)):
        return math.nan
    if x > 200:  # beyond every type's range: a true overflow
        return math.inf
    return None


def _lgamma_special(x):
    if math.isnan(x):
        return math.nan
    if math.isinf(x) or (x <= 0 and x == math.floor(x)):
        return math.inf
    if x == 1 or x == 2:
        return 0.0
    return None


def tgamma(args, t):
    (x,) = args
    if t != "double":
        def one(v):
            special = _gamma_special(float(v))
            if special is not None:
                return special
            r = _math_or_nan(math.gamma, float(v))
            # math.gamma raises on overflow (a finite result too big for double): huge or tiny.
            return r if r is not None else (math.inf if v > 0 else 0.0)
        return _vectorize(one, x)
    return _vectorize(_with_mpmath(mpmath.gamma, _gamma_special), x)


def lgamma(args, t):
    (x,) = args
    if t != "double":
        def one(v):
            special = _lgamma_special(float(v))
            return special if special is not None else math.lgamma(float(v))
        return _vectorize(one, x)
    return _vectorize(_with_mpmath(lambda v: mpmath.re(mpmath.loggamma(v)), _lgamma_special), x)


def lgamma_sign(args, t):
    """The sign lgamma_r stores: the sign of gamma(x); 0 at the poles (0, negative integers)."""
    (x,) = args
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        pole = (x <= 0) & (x == np.floor(x))
        # gamma(x) < 0 exactly for x in (-2k-1, -2k), k >= 0.
        negative = (x < 0) & ~pole & (np.floor(x) % 2 == 1) & np.isfinite(x)
    # -inf: a pole-like case (lgamma(-inf) = +inf); OpenCL leaves the sign there unspecified.
    return np.where(pole | np.isnan(x), 0, np.where(negative, -1, 1)).astype(np.int64)


def _erf_special(fn):
    def special(x):
        if math.isnan(x) or math.isinf(x) or x == 0:
            return fn(x)
        return None
    return special


def erf(args, t):
    (x,) = args
    if t != "double":
        return _vectorize(lambda v: math.erf(float(v)), x)
    # |x| > 30: erf(x) = +-(1 - 1e-393), +-1 even in long double (and mpmath would crawl).
    special = _erf_special(math.erf)
    return _vectorize(_with_mpmath(mpmath.erf, lambda v: math.copysign(1.0, v) if abs(v) > 30 else
                                   special(v)), x)


def erfc(args, t):
    (x,) = args
    if t != "double":
        return _vectorize(lambda v: math.erfc(float(v)), x)
    # x > 40: erfc(x) < 1e-697 rounds to +0 in double (mpmath overflows on huge x); x < -30: 2.
    special = _erf_special(math.erfc)

    def quick(v):
        if v > 40:
            return 0.0
        if v < -30:
            return 2.0
        return special(v)
    return _vectorize(_with_mpmath(mpmath.erfc, quick), x)


# ---------------------------------------------------------------------------------------------
# pi-scaled trigonometry, with exact argument reduction


def _pi_reduce(x):
    """x = n/2 + r with |r| <= 1/4, exactly; q = n mod 4 (ints, 0 for non-finite x)."""
    finite = np.isfinite(x)
    xf = np.where(finite, x, 0)
    n = np.rint(2 * xf)
    r = xf - n / 2
    q = np.fmod(n, 4).astype(np.int64) % 4
    return r, q, finite


def sinpi(args, t):
    (x,) = args
    r, q, finite = _pi_reduce(x)
    s, c = np.sin(PI * r), np.cos(PI * r)
    out = np.select([q == 0, q == 1, q == 2], [s, c, -s], -c)
    out = np.where(out == 0, np.copysign(LD(0), x), out)  # sinpi(+-n) = +-0
    return np.where(finite, out, LD(np.nan))


def cospi(args, t):
    (x,) = args
    r, q, finite = _pi_reduce(x)
    s, c = np.sin(PI * r), np.cos(PI * r)
    out = np.select([q == 0, q == 1, q == 2], [c, -s, -c], s)
    out = np.where(out == 0, LD(0), out)  # cospi(n + 1/2) = +0
    return np.where(finite, out, LD(np.nan))


def tanpi(args, t):
    (x,) = args
    r, q, finite = _pi_reduce(x)
    with np.errstate(divide="ignore"):
        tr = np.tan(PI * r)
        out = np.where(q % 2 == 0, tr, -1 / tr)
    n = 2 * (x - r)  # the integer n of x = n/2 + r
    even_integer = (r == 0) & (q % 2 == 0)
    # tanpi(n) = copysign(0, n) for even n, copysign(0, -n) for odd n (n = x here).
    zero_sign = np.where(q == 0, x, -x)
    out = np.where(even_integer, np.copysign(LD(0), zero_sign), out)
    # tanpi(k + 1/2) = +inf for even k, -inf for odd k (k = floor(x)).
    pole = (r == 0) & (q % 2 == 1)
    k_even = np.where(finite, np.floor(np.where(finite, x, 0)) % 2 == 0, True)
    out = np.where(pole, np.where(k_even, LD(np.inf), LD(-np.inf)), out)
    del n
    return np.where(finite, out, LD(np.nan))


def asinpi(args, t):
    return np.arcsin(args[0]) / PI


def acospi(args, t):
    return np.arccos(args[0]) / PI


def atanpi(args, t):
    return np.arctan(args[0]) / PI


def atan2pi(args, t):
    return np.arctan2(args[0], args[1]) / PI


# ---------------------------------------------------------------------------------------------
# Powers


def _odd_integer(y):
    with np.errstate(invalid="ignore"):
        return np.isfinite(y) & (np.abs(np.fmod(y, 2)) == 1)


def pow_(args, t):
    x, y = args
    out = np.power(x, y)
    # glibc's powl gets pow(-inf, -2^63) wrong (inf): infinite bases by C99's rules instead.
    inf_base = np.isinf(x) & (y != 0) & ~np.isnan(y)
    out = np.where(inf_base, np.where(y < 0, LD(0), LD(np.inf)), out)
    # The sign is negative exactly for a negative base (-0 included) and an odd integer y.
    negative = np.signbit(x) & _odd_integer(y)
    return np.where(np.isnan(out), out, np.copysign(out, np.where(negative, -1, 1)))


def pown(args, t):
    x, n = args
    return np.power(x, n.astype(LD))


def powr(args, t):
    x, y = args
    base = np.where(x == 0, LD(0), x)  # powr(-0, y) is powr(+0, y)
    with np.errstate(all="ignore"):
        out = np.power(base, y)
    nan = (x < 0) | np.isnan(x) | np.isnan(y) | ((x == 0) & (y == 0)) \
        | (np.isinf(x) & (y == 0)) | ((x == 1) & np.isinf(y))
    return np.where(nan, LD(np.nan), out)


def _rootn_special(x, n):
    """rootn's exact cases (None elsewhere): n = 0, negative x with even n, zeros, infinities."""
    if n == 0 or math.isnan(x) or (x < 0 and n % 2 == 0):
        return math.nan
    if x == 0 or math.isinf(x):
        odd_sign = x if n % 2 else abs(x)  # the sign survives odd roots only
        if (x == 0) == (n < 0):
            return math.copysign(math.inf, odd_sign)
        return math.copysign(0.0, odd_sign)
    return None


def rootn(args, t):
    x, n = args
    if t != "double":
        with np.errstate(all="ignore"):
            out = np.copysign(np.power(np.abs(x), LD(1) / n.astype(LD)), x)
        special = _vectorize(lambda a, b: _rootn_special(float(a), int(b)) if
                             _rootn_special(float(a), int(b)) is not None else 0.0, x, n)
        has_special = _vectorize(lambda a, b: _rootn_special(float(a), int(b)) is not None,
                                 x, n, out=bool)
        return np.where(has_special, special, out)

    def one(a, b):
        a, b = float(a), int(b)
        special = _rootn_special(a, b)
        if special is not None:
            return LD(special)
        with mpmath.workprec(_MP_PREC):
            r = mpmath.root(mpmath.mpf(abs(a)), b) if b > 0 else 1 / mpmath.root(mpmath.mpf(abs(a)), -b)
            return _mpf_to_ld(-r if a < 0 else r)
    return _vectorize(one, x, n)


# ---------------------------------------------------------------------------------------------
# Exact operations


def _fraction_to_ld(q: Fraction) -> LD:
    """q rounded to about 70 bits, as a long double (which keeps 64 of them)."""
    if q == 0:
        return LD(0)
    e = abs(q.numerator).bit_length() - q.denominator.bit_length() - 70
    scaled = round(q / Fraction(2) ** e)
    return np.ldexp(LD(scaled), e)


def fma(args, t):
    a, b, c = args
    if t != "double":
        return a * b + c  # the product of two floats is exact in long double; one rounding
    def one(x, y, z):
        x, y, z = float(x), float(y), float(z)
        exact = None
        if all(map(math.isfinite, (x, y, z))):
            exact = Fraction(x) * Fraction(y) + Fraction(z)
        if exact is None or exact == 0:
            # inf/NaN rules need no precision; an exact zero sum takes IEEE's sign (RTE: +0
            # unless both terms are -0), which long double arithmetic gives
            return LD(x) * LD(y) + LD(z)
        return _fraction_to_ld(exact)
    return _vectorize(one, a, b, c)


def remainder(args, t):
    x, y = args
    def one(a, b):
        try:
            return math.remainder(float(a), float(b))
        except ValueError:
            return math.nan
    return _vectorize(one, x, y)


def ilogb(args, t):
    (x,) = args
    with np.errstate(all="ignore"):
        _, e = np.frexp(x)
    out = e.astype(np.int64) - 1
    # FP_ILOGB0 = INT_MIN and FP_ILOGBNAN = INT_MAX (clang's OpenCL headers); ilogb(inf) = INT_MAX.
    out = np.where(x == 0, -2**31, out)
    return np.where(np.isnan(x) | np.isinf(x), 2**31 - 1, out)


def logb(args, t):
    (x,) = args
    out = ilogb(args, t).astype(LD)
    out = np.where(x == 0, LD(-np.inf), out)
    return np.where(np.isinf(x), LD(np.inf), np.where(np.isnan(x), LD(np.nan), out))


def nan(args, t):
    return np.full(len(args[0]), LD(np.nan))


def fract(args, t):
    """(fract(x), floor(x)): fract = min(x - floor(x), largest value below 1)."""
    (x,) = args
    below_one = {"half": 1 - 2.0**-11, "float": 1 - 2.0**-24, "double": 1 - 2.0**-53}[t]
    fl = np.floor(x)
    with np.errstate(invalid="ignore"):
        fr = np.minimum(x - fl, LD(below_one))
    fr = np.where(np.isinf(x), np.copysign(LD(0), x), fr)
    fr = np.where(x == 0, x, fr)
    return fr, fl


def frexp(args, t):
    (x,) = args
    m, e = np.frexp(x)
    e = np.where(np.isfinite(x), e, 0).astype(np.int64)
    return m, e


def modf(args, t):
    (x,) = args
    ip = np.trunc(x)
    with np.errstate(invalid="ignore"):
        fr = np.copysign(np.where(np.isinf(x), LD(0), x - ip), x)
    return fr, ip


def remquo(args, t):
    """(remainder, the quotient's sign and low 7 bits): the quotient is x/y rounded to the nearest
    integer (ties to even), computed exactly (it can have hundreds of digits)."""
    x, y = args
    rem = remainder(args, t)

    def quotient(a, b):
        a, b = float(a), float(b)
        if not (math.isfinite(a) and math.isfinite(b)) or b == 0:
            return 0
        n = round(Fraction(a) / Fraction(b))  # round() of a Fraction: nearest, ties to even
        low = abs(n) % 128
        return -low if (a < 0) != (b < 0) else low
    return rem, _vectorize(quotient, x, y, out=np.int64)


def sincos(args, t):
    return np.sin(args[0]), np.cos(args[0])


def lgamma_r(args, t):
    return lgamma(args, t), lgamma_sign(args, t)
