"""Error of a result in units in the last place, by the spec's definition (OpenCL SPIR-V
environment spec; digest section 6):

* If the infinitely precise result x lies strictly between two consecutive finite floats a < b,
  ulp(x) = b - a. Otherwise (x is representable) ulp(x) is the distance between the two non-equal
  finite floats nearest x: for a power of two that is the spacing *below* it (half the spacing
  above), in the denormal range the denormal spacing, for 0 the smallest denormal.
* The exponent is unbounded above: a reference beyond the largest finite value keeps getting
  coarser ulps, so a finite result far from an overflowing reference is far off.
* "Overflow is allowed": a result of +-inf for a finite reference is measured as if it were the
  value one ulp past the largest finite value (2^(emax+1)), so it passes where that value would.
* NaN results match NaN references (error 0) and nothing else (error inf). An infinite reference
  (an exact pole or infinite input) is met only by the same infinity. A zero reference (exactly
  zero: the references have a far larger exponent range than the tested types, so a zero
  reference is never an underflow) also requires the sign of zero.

References are numpy ``longdouble`` (x87: 64-bit significand, 15-bit exponent) arrays: their own
error is at most about 2^-11 double ulp (2^-40 float ulp), far below the bounds.
"""

from __future__ import annotations

import numpy as np

LD = np.longdouble

# dtype -> (significand bits without the implicit one, exponent of the smallest normal,
#           exponent of the largest finite value)
FORMATS = {
    np.dtype(np.float16): (10, -14, 15),
    np.dtype(np.float32): (23, -126, 127),
    np.dtype(np.float64): (52, -1022, 1023),
}


def spec_ulp(ref: np.ndarray, dtype) -> np.ndarray:
    """ulp(ref) in dtype by the spec's definition, for finite longdouble references."""
    mant, emin, _ = FORMATS[np.dtype(dtype)]
    mag = np.abs(ref)
    frac, e = np.frexp(mag)  # mag = frac * 2^e, frac in [0.5, 1)
    e = e.astype(np.int64) - 1  # mag in [2^e, 2^(e+1))
    # An exact power of two is representable: the spacing below it is the smaller neighbour gap.
    e = np.where((frac == 0.5) & (e - 1 >= emin), e - 1, e)
    return np.ldexp(LD(1), np.maximum(e, emin) - mant)


def ulp_error(got: np.ndarray, ref: np.ndarray, dtype) -> np.ndarray:
    """Elementwise error of got (dtype) against ref (longdouble, unrounded) in spec ulps:
    a float64 array, 0 for matching special values, inf for mismatching ones."""
    dtype = np.dtype(dtype)
    mant, emin, emax = FORMATS[dtype]
    got = np.asarray(got, dtype)
    ref = np.asarray(ref, LD)
    g = got.astype(LD)
    ref_nan, got_nan = np.isnan(ref), np.isnan(got)
    ref_inf = np.isinf(ref)
    with np.errstate(all="ignore"):
        # A result of +-inf for a finite reference counts as +-2^(emax+1).
        past_max = np.ldexp(LD(1), emax + 1)
        g = np.where(np.isinf(g) & ~ref_inf, np.copysign(past_max, g), g)
        ulp = spec_ulp(np.where(np.isfinite(ref), ref, LD(1)), dtype)
        err = (np.abs(g - ref) / ulp).astype(np.float64)
        # A reference that rounds to infinity (beyond max + half an ulp) is met by that infinity.
        max_finite = np.ldexp(LD(2) - np.ldexp(LD(1), -mant), emax)
        to_inf = np.abs(ref) >= max_finite + np.ldexp(LD(1), emax - mant - 1)
        err = np.where(to_inf & np.isinf(got) & (np.sign(got) == np.sign(ref)), 0.0, err)
    err = np.where(ref_inf, np.where(got.astype(LD) == ref, 0.0, np.inf), err)
    zero_sign = (ref == 0) & (got == 0) & (np.signbit(ref) != np.signbit(got))
    err = np.where(zero_sign, np.inf, err)
    err = np.where(ref_nan | got_nan, np.where(ref_nan & got_nan, 0.0, np.inf), err)
    return err


def same_value(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Exact equality for the edge cases: NaN matches any NaN, zeros must agree in sign."""
    got, expected = np.asarray(got), np.asarray(expected)
    if got.dtype.kind != "f":
        return got == expected
    both_nan = np.isnan(got) & np.isnan(expected)
    return both_nan | ((got == expected) & (np.signbit(got) == np.signbit(expected)))
