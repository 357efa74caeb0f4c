"""Inputs for the sweep: for each function and type, ``n`` operand tuples drawn (seeded) from

* the special values (+-0, +-inf, NaN, the smallest and largest denormals and normals, +-1,
  small integers and half-integers, values next to 1) and, for two- and three-operand
  functions, all pairs of them;
* random bit patterns (every class of value, uniform over the encodings; for half's unary
  functions every one of the 65536 encodings);
* log-uniform magnitudes over the whole range with both signs, and over [2^-20, 2^20];
* the function's interesting region: its domain (acos: [-1, 1]), near its poles and zeros
  (tan near multiples of pi/2, lgamma near negative integers, log near 1), the range where its
  result neither overflows nor underflows (exp, pow), huge arguments (sin, cos), and for the
  two-operand functions pairs that make those happen (pow with y*log2(x) over the exponent range,
  fmod with operands of close and far magnitudes, fma with cancelling addends).

Every draw is made in the swept type (values are rounded to it), so every input is representable.
"""

from __future__ import annotations

import zlib

import numpy as np

from .kernels import TYPES, np_type
from .ulp import FORMATS

LD = np.longdouble
PI = LD("3.14159265358979323846264338327950288")


def _finfo(t):
    dt = np.dtype(TYPES[t])
    mant, emin, emax = FORMATS[dt]
    return dt, mant, emin, emax


def specials(t: str) -> np.ndarray:
    dt, mant, emin, emax = _finfo(t)
    fi = np.finfo(dt)
    one_ulp = float(2.0 ** -mant)
    base = [0.0, np.inf, np.nan, fi.smallest_subnormal, fi.smallest_normal - fi.smallest_subnormal,
            fi.smallest_normal, fi.max, 1.0, 0.5, 2.0, 3.0, 10.0, 0.25, 1.5, 2.5, 4.5, 7.0, 100.0,
            1 + one_ulp, 1 - one_ulp / 2, 1 + 2 * one_ulp, 1 - one_ulp, float(np.pi), float(np.pi / 2),
            float(np.e), 1e-3, 2.0 ** (emax // 2)]
    values = np.array(base, dtype=dt)
    # A signaling NaN: OpenCL does not support them, so spirvkit treats them as quiet NaNs (and so
    # do the references: widening to long double quiets them).
    snan = np.array([(0x7C01, 0x7F800001, 0x7FF0000000000001)[dt.itemsize // 4]],
                    dtype={2: np.uint16, 4: np.uint32, 8: np.uint64}[dt.itemsize]).view(dt)
    return np.concatenate([values, -values, snan])


def _bits(t, n, rng):
    dt = np.dtype(TYPES[t])
    info = np.iinfo({2: np.uint16, 4: np.uint32, 8: np.uint64}[dt.itemsize])
    return rng.integers(0, info.max, n, dtype=info.dtype, endpoint=True).view(dt)


def _log_uniform(t, n, rng, lo_exp=None, hi_exp=None, signed=True):
    dt, mant, emin, emax = _finfo(t)
    lo = emin - mant if lo_exp is None else lo_exp
    hi = emax + 1 if hi_exp is None else hi_exp
    mag = np.exp2(rng.uniform(lo, hi, n).astype(LD))
    sign = rng.choice([-1, 1], n) if signed else 1
    with np.errstate(over="ignore"):
        return (sign * mag).astype(dt)


def _uniform(t, n, rng, lo, hi):
    return rng.uniform(lo, hi, n).astype(np.dtype(TYPES[t]))


def _neighbours(t, centres: np.ndarray, rng, spread=4):
    """Values within `spread` ulps of each (long double) centre, rounded to the type."""
    dt = np.dtype(TYPES[t])
    c = np.asarray(centres, LD).astype(dt)
    steps = rng.integers(-spread, spread + 1, len(c))
    out = c.copy()
    for _ in range(spread):
        move = steps > 0
        out = np.where(move, np.nextafter(out, dt.type(np.inf)), out)
        steps = steps - move
        move = steps < 0
        out = np.where(move, np.nextafter(out, dt.type(-np.inf)), out)
        steps = steps + move
    return out


def generic(t: str, n: int, rng) -> np.ndarray:
    """Whole-range values: random encodings, log-uniform magnitudes, moderate magnitudes."""
    k = n // 3
    return np.concatenate([_bits(t, k, rng), _log_uniform(t, k, rng),
                           _log_uniform(t, n - 2 * k, rng, -20, 20)])


# ---------------------------------------------------------------------------------------------
# Interesting regions of the one-operand functions: name -> (t, n, rng) -> array


def _near_pi_multiples(t, n, rng, half=True, max_k=2**20):
    k = rng.integers(-max_k, max_k, n).astype(LD)
    centres = k * (PI / 2 if half else PI)
    return _neighbours(t, centres, rng)


def _exp_range(scale):
    """exp-like functions: arguments from below the underflow to beyond the overflow."""
    def region(t, n, rng):
        _, mant, emin, emax = _finfo(t)
        lo, hi = (emin - mant - 2) / scale, (emax + 2) / scale
        return _uniform(t, n, rng, lo, hi)
    return region


def _gamma_region(t, n, rng):
    _, mant, emin, emax = _finfo(t)
    top = {"half": 12, "float": 40, "double": 180}[t]
    k = rng.integers(1, top, n // 2).astype(LD)
    near_poles = _neighbours(t, -k + rng.choice([0, 1e-3, -1e-3, 0.5], n // 2).astype(LD), rng)
    return np.concatenate([_uniform(t, n - n // 2, rng, -top, top), near_poles])


def _unit_interval(t, n, rng):
    edges = _neighbours(t, rng.choice([-1.0, 1.0], n // 4).astype(LD), rng, 16)
    return np.concatenate([_uniform(t, n - n // 4, rng, -1, 1), edges])


def _near_one(t, n, rng):
    _, mant, *_ = _finfo(t)
    close = 1 + _log_uniform(t, n // 2, rng, -mant - 1, -1).astype(LD)
    return np.concatenate([_neighbours(t, close, rng, 2), _log_uniform(t, n - n // 2, rng, signed=False)])


def _pi_scaled(t, n, rng):
    halves = rng.integers(-2**12, 2**12, n // 3).astype(LD) / 2
    return np.concatenate([_uniform(t, n - 2 * (n // 3), rng, -4, 4), _neighbours(t, halves, rng, 3),
                           _log_uniform(t, n // 3, rng, 0, FORMATS[np.dtype(TYPES[t])][0] + 2)])


def _trig(t, n, rng):
    return np.concatenate([_uniform(t, n // 3, rng, -7, 7), _near_pi_multiples(t, n // 3, rng),
                           _log_uniform(t, n - 2 * (n // 3), rng, 0, None)])


_REGIONS = {
    **{f: _trig for f in ("sin", "cos", "tan", "sincos", "half_sin", "half_cos", "half_tan",
                          "native_sin", "native_cos", "native_tan")},
    **{f: _unit_interval for f in ("asin", "acos", "asinpi", "acospi", "atanh")},
    **{f: _pi_scaled for f in ("sinpi", "cospi", "tanpi")},
    **{f: _near_one for f in ("log", "log2", "log10", "half_log", "half_log2", "half_log10",
                              "native_log", "native_log2", "native_log10", "acosh")},
    **{f: _exp_range(0.69314718) for f in ("exp", "expm1", "half_exp", "native_exp", "sinh",
                                           "cosh", "tanh")},
    **{f: _exp_range(1.0) for f in ("exp2", "half_exp2", "native_exp2")},
    **{f: _exp_range(3.3219281) for f in ("exp10", "half_exp10", "native_exp10")},
    **{f: _gamma_region for f in ("tgamma", "lgamma", "lgamma_r")},
    "log1p": lambda t, n, rng: np.concatenate([
        _log_uniform(t, n // 2, rng, None, 0), _neighbours(t, -1 + _log_uniform(
            t, n - n // 2, rng, -FORMATS[np.dtype(TYPES[t])][0], 0, signed=False).astype(LD), rng, 1)]),
    "erf": lambda t, n, rng: _uniform(t, n, rng, -6, 6),
    "erfc": lambda t, n, rng: _uniform(t, n, rng, -6, 30),
}


def _unary(name, t, n, rng):
    dt = np.dtype(TYPES[t])
    region = _REGIONS.get(name)
    parts = [specials(t)]
    if t == "half":  # every encoding
        parts.append(np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(dt))
    rest = max(n - sum(map(len, parts)), 0)
    if region is None:
        parts.append(generic(t, rest, rng))
    else:
        parts += [generic(t, rest // 2, rng), region(t, rest - rest // 2, rng)]
    # Never cut the special values or (half) the exhaustive encodings.
    return np.concatenate(parts)[:max(n, sum(map(len, parts[:2])))].astype(dt)


# ---------------------------------------------------------------------------------------------
# Two- and three-operand functions


def _special_pairs(t):
    s = specials(t)
    x, y = np.meshgrid(s, s)
    return x.ravel(), y.ravel()


def _int_operand(name, t, n, rng, x):
    """The int operand of ldexp / pown / rootn."""
    _, mant, emin, emax = _finfo(t)
    span = emax - emin + mant + 4
    small = rng.integers(-64 if name != "ldexp" else -span, 65 if name != "ldexp" else span + 1, n)
    extreme = rng.integers(-2**31, 2**31, n)
    with np.errstate(all="ignore"):
        log2x = np.log2(np.abs(x.astype(np.float64)))
        aimed = np.rint(rng.uniform(emin - mant, emax + 1, n) / np.where(log2x == 0, 1, log2x))
    if name == "rootn":
        aimed = np.rint(np.where(np.isfinite(log2x) & (log2x != 0), log2x, 1)
                        / rng.uniform(emin - mant, emax + 1, n))
    aimed = np.clip(np.nan_to_num(aimed), -2**31, 2**31 - 1)
    choice = rng.integers(0, 8, n)
    out = np.where(choice < 4, small, np.where(choice < 6, aimed, extreme))
    return out.astype(np.int32)


def _pair_regions(name, t, n, rng):
    """Domain-specific (x, y) pairs for the two-operand float functions."""
    dt, mant, emin, emax = _finfo(t)
    if name in ("pow", "powr", "half_powr", "native_powr"):
        x = _log_uniform(t, n, rng, signed=name == "pow")
        with np.errstate(all="ignore"):
            log2x = np.log2(np.abs(x.astype(np.float64)))
            y = rng.uniform(emin - mant, emax + 1, n) / np.where(log2x == 0, 1, log2x)
        ints = rng.integers(-64, 65, n)
        y = np.where(rng.integers(0, 3, n) == 0, ints, y).astype(dt)
        near_one = 1 + _log_uniform(t, n, rng, -mant, -4).astype(LD)
        x = np.where(rng.integers(0, 4, n) == 0, near_one.astype(dt), x)
        return x, y
    if name in ("fmod", "remainder", "remquo"):
        x = _log_uniform(t, n, rng, -20, 20)
        ratio = np.exp2(rng.uniform(-4, min(emax, 60), n))
        y = (x.astype(np.float64) / ratio * rng.choice([-1, 1], n)).astype(dt)
        return x, y
    if name in ("atan2", "atan2pi", "hypot"):
        x = _log_uniform(t, n, rng, -20, 20)
        y = (x.astype(np.float64) * np.exp2(rng.uniform(-30, 30, n))
             * rng.choice([-1, 1], n)).astype(dt)
        return x, y
    x = generic(t, n, rng)
    return x, generic(t, n, rng)


def sample(name: str, operands: tuple[str, ...], t: str, n: int, seed: int) -> list[np.ndarray]:
    """n (or a few more: every special value or pair is kept) operand tuples, one array per
    non-pointer operand, for function `name` on type t."""
    with np.errstate(over="ignore", invalid="ignore"):  # draws beyond the type become +-inf
        return _sample(name, operands, t, n, seed)


def _sample(name, operands, t, n, seed):
    rng = np.random.default_rng([seed, zlib.crc32(name.encode()), zlib.crc32(t.encode())])
    kinds = [k for k in operands if not k.startswith("p")]
    dt = np.dtype(TYPES[t])
    if kinds == ["F"]:
        return [_unary(name, t, n, rng)]
    if kinds == ["U"]:  # nan(nancode)
        info = np.iinfo(np_type("U", t))
        return [rng.integers(0, info.max, n, dtype=info.dtype, endpoint=True)]
    if kinds == ["F", "I"]:  # ldexp, pown, rootn
        x = np.concatenate([specials(t), _unary(name, t, n, rng)])[:max(n, 64)]
        k = _int_operand(name, t, len(x), rng, x)
        k[:len(specials(t))] = rng.integers(-3, 4, len(specials(t)))
        return [x, k]
    sx, sy = _special_pairs(t)
    rest = max(n - len(sx), 0)
    if kinds == ["F", "F"]:
        gx, gy = generic(t, rest // 2, rng), generic(t, rest // 2, rng)
        rx, ry = _pair_regions(name, t, rest - rest // 2, rng)
        return [np.concatenate(v).astype(dt) for v in ((sx, gx, rx), (sy, gy, ry))]
    # three operands (fma, mad, fclamp): special pairs with a third special, random triples and,
    # for fma/mad, addends that (nearly) cancel the product
    s = specials(t)
    sz = s[rng.integers(0, len(s), len(sx))]
    a, b = _log_uniform(t, rest, rng, -30, 30), _log_uniform(t, rest, rng, -30, 30)
    with np.errstate(all="ignore"):
        cancel = (-(a.astype(LD) * b.astype(LD))).astype(dt)
        cancel = _neighbours(t, cancel, rng, 3)
    c = np.where(rng.integers(0, 2, rest) == 0, cancel, _log_uniform(t, rest, rng, -60, 60))
    g = [generic(t, rest, rng) for _ in range(3)]
    pick = rng.integers(0, 2, rest) == 0
    a, b, c = (np.where(pick, u, v) for u, v in zip((a, b, c), g))
    return [np.concatenate(v).astype(dt) for v in ((sx, a), (sy, b), (sz, c))]
