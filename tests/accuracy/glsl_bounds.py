"""The Vulkan environment's precision rules as interval arithmetic (Vulkan SPIR-V environment,
"Precision and Operation of SPIR-V Instructions"; digest-vulkan-env.md section 4), single
precision:

* OpFAdd, OpFSub, OpFMul and conversions are *correctly rounded* in Vulkan's sense: the exact
  value if representable, else the nearest float above or the nearest below (either);
* OpFDiv: 2.5 ULP for |y| in [2^-126, 2^126]; exp, exp2: 3 + 2|x| ULP; log, log2: 3 ULP outside
  [0.5, 2], absolute error < 2^-21 inside; inversesqrt: 2 ULP;
* fma, pow, sqrt and every GLSL.std.450 instruction "defined in terms of" these *inherit* from
  their formula: evaluating the formula under the rules above gives a range of permitted values
  [Fmin, Fmax]; the result must lie in [x - E, x + E], E = max(|x - Fmin|, |x - Fmax|) for the
  exact result x. A NaN among the permitted values permits any result.

``Iv`` evaluates a formula on intervals [lo, hi] of ``longdouble`` arrays (one element per
input), widening each operation by what its rule permits. The interval it ends with contains
every value the rules permit (an enclosure: where a formula uses one rounded intermediate twice,
the two uses widen independently, which can only make the bound a little looser). An element
whose interval is not finite (a NaN, an infinity, a division by an interval holding 0) is
*free*: the rules permit any result there.
"""

from __future__ import annotations

import numpy as np

from .ulp import spec_ulp

LD = np.longdouble
F32 = np.float32
MIN_DIV, MAX_DIV = LD(2.0) ** -126, LD(2.0) ** 126


def _round_down(v):
    """The largest float <= v (longdouble in, longdouble out; -inf below -max)."""
    with np.errstate(all="ignore"):
        f = v.astype(F32)
        f = np.where(f.astype(LD) > v, np.nextafter(f, F32(-np.inf)), f)
    return f.astype(LD)


def _round_up(v):
    with np.errstate(all="ignore"):
        f = v.astype(F32)
        f = np.where(f.astype(LD) < v, np.nextafter(f, F32(np.inf)), f)
    return f.astype(LD)


def _ulp(v):
    with np.errstate(all="ignore"):
        return spec_ulp(np.where(np.isfinite(v), v, LD(1)), F32)


class Iv:
    """An interval per element; NaN endpoints mark elements where any result is permitted."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi=None):
        self.lo = np.asarray(lo, LD)
        self.hi = self.lo if hi is None else np.asarray(hi, LD)

    @staticmethod
    def const(c: float, like) -> Iv:
        """A constant of a formula: a float literal, rounded either way from the exact value."""
        v = np.full(np.shape(like), LD(c))
        return Iv(_round_down(v), _round_up(v))

    @property
    def free(self):
        return ~(np.isfinite(self.lo) & np.isfinite(self.hi))

    # --- correctly rounded operations -------------------------------------------------------
    def _rounded(self, lo, hi) -> Iv:
        return Iv(_round_down(lo), _round_up(hi))

    def __add__(self, other: Iv) -> Iv:
        with np.errstate(all="ignore"):
            return self._rounded(self.lo + other.lo, self.hi + other.hi)

    def __sub__(self, other: Iv) -> Iv:
        with np.errstate(all="ignore"):
            return self._rounded(self.lo - other.hi, self.hi - other.lo)

    def __neg__(self) -> Iv:
        return Iv(-self.hi, -self.lo)

    def __mul__(self, other: Iv) -> Iv:
        with np.errstate(all="ignore"):
            products = [self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi]
            lo, hi = np.minimum.reduce(products), np.maximum.reduce(products)
        return self._rounded(lo, hi)

    # --- operations with ULP bounds ---------------------------------------------------------
    def __truediv__(self, other: Iv) -> Iv:
        """OpFDiv: 2.5 ULP where |y| is in [2^-126, 2^126]; undefined (free) elsewhere."""
        with np.errstate(all="ignore"):
            mag_lo = np.minimum(np.abs(other.lo), np.abs(other.hi))
            mag_hi = np.maximum(np.abs(other.lo), np.abs(other.hi))
            ok = (np.sign(other.lo) == np.sign(other.hi)) & (mag_lo >= MIN_DIV) & (mag_hi <= MAX_DIV)
            quotients = [self.lo / other.lo, self.lo / other.hi, self.hi / other.lo, self.hi / other.hi]
            lo, hi = np.minimum.reduce(quotients), np.maximum.reduce(quotients)
            lo, hi = lo - LD(2.5) * _ulp(lo), hi + LD(2.5) * _ulp(hi)
        return Iv(np.where(ok, lo, np.nan), np.where(ok, hi, np.nan))

    def _monotone(self, fn, lo_ulps, hi_ulps) -> Iv:
        with np.errstate(all="ignore"):
            lo, hi = fn(self.lo), fn(self.hi)
            return Iv(lo - lo_ulps * _ulp(lo), hi + hi_ulps * _ulp(hi))

    def exp(self) -> Iv:
        return self._monotone(np.exp, 3 + 2 * np.abs(self.lo), 3 + 2 * np.abs(self.hi))

    def exp2(self) -> Iv:
        return self._monotone(np.exp2, 3 + 2 * np.abs(self.lo), 3 + 2 * np.abs(self.hi))

    def _log(self, fn) -> Iv:
        """log, log2: 3 ULP outside [0.5, 2], absolute error 2^-21 inside; undefined for x <= 0."""
        with np.errstate(all="ignore"):
            lo, hi = fn(self.lo), fn(self.hi)
            slack_lo = np.where((self.lo >= 0.5) & (self.lo <= 2), LD(2.0) ** -21, 3 * _ulp(lo))
            slack_hi = np.where((self.hi >= 0.5) & (self.hi <= 2), LD(2.0) ** -21, 3 * _ulp(hi))
            ok = self.lo > 0
        return Iv(np.where(ok, lo - slack_lo, np.nan), np.where(ok, hi + slack_hi, np.nan))

    def log(self) -> Iv:
        return self._log(np.log)

    def log2(self) -> Iv:
        return self._log(np.log2)

    def inversesqrt(self) -> Iv:
        """2 ULP; undefined for x <= 0."""
        with np.errstate(all="ignore"):
            lo, hi = 1 / np.sqrt(self.hi), 1 / np.sqrt(self.lo)
            ok = self.lo > 0
            return Iv(np.where(ok, lo - 2 * _ulp(lo), np.nan), np.where(ok, hi + 2 * _ulp(hi), np.nan))

    def sqrt(self) -> Iv:
        """Inherited from 1.0 / inversesqrt(x) (sqrt(0) = 0 exactly: IEEE behaviour)."""
        root = Iv.const(1.0, self.lo) / self.inversesqrt()
        zero = (self.lo == 0) & (self.hi == 0)
        return Iv(np.where(zero, 0, root.lo), np.where(zero, 0, root.hi))

    # --- exact operations and selections ----------------------------------------------------
    def floor(self) -> Iv:
        return Iv(np.floor(self.lo), np.floor(self.hi))

    def clamp(self, lo: float, hi: float) -> Iv:
        return Iv(np.clip(self.lo, lo, hi), np.clip(self.hi, lo, hi))

    def select_negative(self, if_negative: Iv, otherwise: Iv) -> Iv:
        """self < 0 ? if_negative : otherwise; both are permitted where the sign is uncertain."""
        neg, pos = self.hi < 0, self.lo >= 0
        lo = np.where(neg, if_negative.lo, np.where(pos, otherwise.lo, np.minimum(if_negative.lo, otherwise.lo)))
        hi = np.where(neg, if_negative.hi, np.where(pos, otherwise.hi, np.maximum(if_negative.hi, otherwise.hi)))
        return Iv(lo, hi)


def hull(*ivs: Iv) -> Iv:
    """The union of the ranges of equivalent formulas: the rules let an implementation rewrite a
    formula by associativity, commutativity and distributivity, and each rewrite's permitted
    values are permitted (E is measured from the smallest and largest of them all)."""
    with np.errstate(invalid="ignore"):
        return Iv(np.minimum.reduce([iv.lo for iv in ivs]), np.maximum.reduce([iv.hi for iv in ivs]))


def dot(a: list[Iv], b: list[Iv]) -> Iv:
    """OpDot / GLSL dot: inherited from the multiplies and adds, in lane order."""
    total = a[0] * b[0]
    for x, y in zip(a[1:], b[1:]):
        total = total + x * y
    return total


def allowed_error(x, iv: Iv):
    """E = max(|x - Fmin|, |x - Fmax|) per element (inf where any result is permitted). Results
    below the smallest normal may also be flushed to zero (Vulkan lets every instruction but
    loads, stores and moves flush denormals)."""
    with np.errstate(all="ignore"):
        e = np.maximum(np.abs(x - iv.lo), np.abs(x - iv.hi))
        e = np.where(iv.free | ~np.isfinite(x), np.inf, e)
        tiny = LD(np.finfo(F32).tiny)
        return np.where(np.abs(x) < tiny, np.maximum(e, tiny), e)
