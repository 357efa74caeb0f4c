"""OpenCL.std lowering (spirvkit.jit.opencl_std), tested without the executor: each instruction is
lowered into a small element-wise kernel (tests/jit/llvm_harness.py), JIT-compiled for the host
and run on numpy arrays.

Float results are checked against references computed in long double (x87, 64-bit significand)
or exactly, within the OpenCL full-profile ULP bounds (OpenCL SPIR-V environment spec; digest in
/work/shared/spec/digest-opencl-env.md section 6); NaN must match NaN, infinities and the sign of
zero results must match. Integer results are checked exactly against Python integers.
"""

from __future__ import annotations

import math
import platform
import zlib
from fractions import Fraction

import numpy as np
import pytest
from jit.llvm_harness import compile_map
from llvmlite import ir

from spirvkit.errors import NotSupportedError
from spirvkit.jit import opencl_std
from spirvkit.jit.opencl_std import ensure_libm_loaded, lower_opencl_std

H, F, D = ir.HalfType(), ir.FloatType(), ir.DoubleType()
LD = np.longdouble
PI = LD("3.141592653589793238462643383279502884")
INF, NAN = math.inf, math.nan


def vec(elem, n):
    return ir.VectorType(elem, n) if n else elem


def rng_for(*key) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def lowered(name, result_type, arg_types, cpu=None):
    def emit(b, args):
        return lower_opencl_std(b, name, result_type, args)

    return compile_map(emit, result_type, arg_types, cpu=cpu)


def run_flat(kernel, result_type, arg_types, columns):
    """Run kernel on flat per-operand columns of equal length, padding to whole vectors."""
    lanes = result_type.count if isinstance(result_type, ir.VectorType) else 1
    n = len(columns[0])
    pad = (-n) % lanes
    padded = [np.concatenate([c, c[:1].repeat(pad)]) if pad else c for c in columns]
    return kernel(*padded).reshape(-1)[:n]


# ---------------------------------------------------------------------------------------------
# ULP measurement

FORMATS = {  # significand bits (without the implicit one), min normal exponent
    np.dtype(np.float16): (10, -14),
    np.dtype(np.float32): (23, -126),
    np.dtype(np.float64): (52, -1022),
}
NP_TYPES = {H: np.float16, F: np.float32, D: np.float64}


def ulp_errors(got: np.ndarray, ref: np.ndarray, dtype, check_zero_sign=True) -> np.ndarray:
    """|got - ref| in units of the last place of ref in dtype; 0 or inf for special values."""
    mant, emin = FORMATS[np.dtype(dtype)]
    ref = np.asarray(ref, dtype=LD)
    got_l = got.astype(LD)
    with np.errstate(all="ignore"):
        _, e = np.frexp(ref)
        ulp = np.ldexp(LD(1), np.maximum(e.astype(np.int64) - 1, emin) - mant)
        err = np.abs(got_l - ref) / ulp
        ref_rounded = ref.astype(dtype)
    special = ~np.isfinite(ref_rounded) | ~np.isfinite(got)
    same_special = (np.isnan(got) & np.isnan(ref)) | (got_l == ref_rounded.astype(LD))
    err = np.where(special, np.where(same_special, 0.0, np.inf), err)
    if check_zero_sign:
        bad_zero = (ref == 0) & (got == 0) & (np.signbit(ref) != np.signbit(got))
        err = np.where(bad_zero, np.inf, err)
    return err


def assert_within(name, inputs, got, ref, dtype, bound, check_zero_sign=True):
    err = ulp_errors(got, ref, dtype, check_zero_sign)
    worst = int(np.argmax(err))
    assert err[worst] <= bound, (
        f"{name}: {err[worst]:.3g} ulp > {bound} at inputs "
        f"{[repr(col[worst]) for col in inputs]}: got {got[worst]!r}, expected {ref[worst]!r}"
    )


# ---------------------------------------------------------------------------------------------
# Samples


def specials(dtype) -> np.ndarray:
    info = np.finfo(dtype)
    tiny = info.smallest_subnormal
    values = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0, 2.5, -2.5,
              3.0, -3.0, 0.25, -0.75, 4.5, 10.0, -7.0, 0.1, 1e-3, 100.0, tiny, -tiny, 3 * tiny,
              info.tiny, -info.tiny, info.max, -info.max, info.eps, 1 - info.epsneg]
    return np.array(values, dtype=np.float64).astype(dtype)


def random_values(dtype, domain, n, rng) -> np.ndarray:
    """n values of dtype: half uniform over the domain, half with log-uniform magnitudes (from
    the smallest denormal to the domain's edge, clipped into the domain)."""
    info = np.finfo(dtype)
    lo, hi = domain if domain else (-float(info.max), float(info.max))
    edge = max(abs(lo), abs(hi))
    uniform = rng.uniform(lo, hi, n - n // 2) if domain else rng.uniform(-100, 100, n - n // 2)
    mags = np.exp2(rng.uniform(math.log2(info.smallest_subnormal), math.log2(edge), n // 2))
    logs = np.clip(mags * rng.choice([-1.0, 1.0], n // 2), lo, hi)
    with np.errstate(over="ignore"):
        return np.concatenate([uniform, logs]).astype(dtype)


def float_inputs(dtype, domains, rng, n=256):
    """Columns for a function of len(domains) float operands: specials crossed with specials
    (for up to two operands) plus n random tuples."""
    sp = specials(dtype)
    if len(domains) == 1:
        base = [sp]
    elif len(domains) == 2:
        base = [np.repeat(sp, len(sp)), np.tile(sp, len(sp))]
    else:
        base = [np.roll(sp, k * 7) for k in range(len(domains))]
    rand = [random_values(dtype, d, n, rng) for d in domains]
    return [np.concatenate([b_, r]) for b_, r in zip(base, rand)]


# ---------------------------------------------------------------------------------------------
# Reference functions (long double in, long double out)


def _where(cond, a, b_):
    return np.where(cond, a, b_).astype(LD)


def ref_sinpi(x):
    k = np.rint(x)
    r = x - k
    s = np.sin(PI * r) * np.where(np.fmod(k, 2) != 0, -1, 1)
    return _where(r == 0, np.copysign(LD(0), x), s)


def ref_cospi(x):
    k = np.rint(x)
    r = np.abs(x - k)
    return (np.sin(PI * (LD(0.5) - r)) * np.where(np.fmod(k, 2) != 0, -1, 1) + LD(0)).astype(LD)


def ref_tanpi(x):
    k = np.rint(x)
    r = x - k
    odd = np.fmod(k, 2) != 0
    small = np.tan(PI * r)
    big = np.sign(r) / np.tan(PI * (LD(0.5) - np.abs(r)))
    t = _where(np.abs(r) <= 0.25, small, big)
    zero = np.copysign(LD(0), np.where(odd, -x, x))
    t = _where(r == 0, zero, t)
    half_inf = np.where(np.sign(r) * np.where(odd, -1, 1) > 0, LD(INF), LD(-INF))
    return _where(np.abs(r) == 0.5, half_inf, t)


_BERNOULLI = [Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30),
              Fraction(5, 66), Fraction(-691, 2730), Fraction(7, 6)]
_STIRLING = [LD(b.numerator) / LD(b.denominator * (2 * k + 2) * (2 * k + 1))
             for k, b in enumerate(_BERNOULLI)]


def _lgamma_pos(v):
    """(log|Gamma(v)|) for v >= 0.5 in long double: shift to z >= 30, then Stirling."""
    z, log_prod = LD(v), LD(0)
    while z < 30:
        log_prod += np.log(z)
        z += 1
    s = (z - LD(0.5)) * np.log(z) - z + np.log(2 * PI) / 2
    for k, c in enumerate(_STIRLING):
        s += c / z ** (2 * k + 1)
    return s - log_prod


def _tgamma_one(v):
    v = LD(v)
    if np.isnan(v) or v == -INF:
        return LD(NAN)
    if v == INF:
        return LD(INF)
    if v == 0:
        return np.copysign(LD(INF), v)
    if v < 0.5:
        if v == np.rint(v):
            return LD(NAN)
        return PI / (ref_sinpi(np.array([v]))[0] * _tgamma_one(1 - v))
    return np.exp(_lgamma_pos(v))


def ref_tgamma(x):
    return np.array([_tgamma_one(v) for v in x], dtype=LD)


def _lgamma_one(v):
    if np.isfinite(v) and v >= 0.5:
        return _lgamma_pos(v)
    try:
        return LD(math.lgamma(float(v)))
    except ValueError:  # poles: C gives +inf
        return LD(INF)


def ref_lgamma(x):
    return np.array([_lgamma_one(v) for v in x], dtype=LD)


def _math_map(fn):
    def ref(*cols):
        out = []
        for vals in zip(*cols):
            try:
                out.append(fn(*(float(v) for v in vals)))
            except (ValueError, OverflowError):
                out.append(NAN)
        return np.array(out, dtype=LD)

    return ref


def ref_powr(x, y):
    with np.errstate(all="ignore"):
        r = np.power(np.abs(x), y)
    bad = ((x < 0) | np.isnan(x) | np.isnan(y) | ((x == 0) & (y == 0))
           | (np.isinf(x) & (y == 0)) | ((x == 1) & np.isinf(y)))
    return _where(bad, LD(NAN), r)


def ref_fdim(x, y):
    return _where(x > y, x - y, _where(np.isnan(x) | np.isnan(y), LD(NAN), LD(0)))


def ref_mag(bigger):
    def ref(x, y):
        ax, ay = np.abs(x), np.abs(y)
        pick = np.fmax(x, y) if bigger else np.fmin(x, y)
        first, second = (ax > ay, ay > ax) if bigger else (ax < ay, ay < ax)
        return _where(first, x, _where(second, y, pick))

    return ref


def ref_sign(x):
    return _where(np.isnan(x), LD(0), _where(x == 0, x, np.sign(x)))


def ref_round(x):
    return np.copysign(np.floor(np.abs(x) + LD(0.5)), x)


def ref_logb(x):
    _, e = np.frexp(x)
    finite = _where(x == 0, LD(-INF), e.astype(LD) - 1)
    return _where(np.isfinite(x), finite, np.abs(x))


def ref_atan2pi(y, x):
    return np.arctan2(y, x) / PI


# name -> (reference, (half, float, double) ULP bounds, per-operand domains (None = anywhere))
CR = 0.5
ANY = None
FLOAT_FUNCS = {
    "acos": (np.arccos, (2, 4, 4), [(-1, 1)]),
    "acosh": (np.arccosh, (2, 4, 4), [ANY]),
    "acospi": (lambda x: np.arccos(x) / PI, (2, 5, 5), [(-1, 1)]),
    "asin": (np.arcsin, (2, 4, 4), [(-1, 1)]),
    "asinh": (np.arcsinh, (2, 4, 4), [ANY]),
    "asinpi": (lambda x: np.arcsin(x) / PI, (2, 5, 5), [(-1, 1)]),
    "atan": (np.arctan, (2, 5, 5), [ANY]),
    "atan2": (np.arctan2, (2, 6, 6), [ANY, ANY]),
    "atanh": (np.arctanh, (2, 5, 5), [(-1, 1)]),
    "atanpi": (lambda x: np.arctan(x) / PI, (2, 5, 5), [ANY]),
    "atan2pi": (ref_atan2pi, (2, 6, 6), [ANY, ANY]),
    "cbrt": (np.cbrt, (2, 2, 2), [ANY]),
    "ceil": (np.ceil, (CR, CR, CR), [ANY]),
    "copysign": (np.copysign, (0, 0, 0), [ANY, ANY]),
    "cos": (np.cos, (2, 4, 4), [ANY]),
    "cosh": (np.cosh, (2, 4, 4), [(-800, 800)]),
    "cospi": (ref_cospi, (2, 4, 4), [ANY]),
    "erfc": (_math_map(math.erfc), (4, 16, 16), [(-30, 30)]),
    "erf": (_math_map(math.erf), (4, 16, 16), [ANY]),
    "exp": (np.exp, (2, 3, 3), [(-800, 800)]),
    "exp2": (np.exp2, (2, 3, 3), [(-1100, 1100)]),
    "exp10": (lambda x: np.power(LD(10), x), (2, 3, 3), [(-330, 330)]),
    "expm1": (np.expm1, (2, 3, 3), [(-800, 800)]),
    "fabs": (np.abs, (0, 0, 0), [ANY]),
    "fdim": (ref_fdim, (CR, CR, CR), [ANY, ANY]),
    "floor": (np.floor, (CR, CR, CR), [ANY]),
    "fmax": (np.fmax, (0, 0, 0), [ANY, ANY]),
    "fmin": (np.fmin, (0, 0, 0), [ANY, ANY]),
    "fmod": (np.fmod, (0, 0, 0), [ANY, ANY]),
    "hypot": (np.hypot, (2, 4, 4), [ANY, ANY]),
    "lgamma": (ref_lgamma, (16, 16, 16), [(2.5, 1e4)]),
    "log": (np.log, (2, 3, 3), [ANY]),
    "log2": (np.log2, (2, 3, 3), [ANY]),
    "log10": (np.log10, (2, 3, 3), [ANY]),
    "log1p": (np.log1p, (2, 2, 2), [ANY]),
    "logb": (ref_logb, (0, 0, 0), [ANY]),
    "maxmag": (ref_mag(True), (0, 0, 0), [ANY, ANY]),
    "minmag": (ref_mag(False), (0, 0, 0), [ANY, ANY]),
    "pow": (np.power, (4, 16, 16), [(0, 1e3), (-200, 200)]),
    "powr": (ref_powr, (4, 16, 16), [(0, 1e3), (-200, 200)]),
    "remainder": (_math_map(math.remainder), (0, 0, 0), [ANY, ANY]),
    "rint": (np.rint, (CR, CR, CR), [ANY]),
    "round": (ref_round, (CR, CR, CR), [ANY]),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (1, 2, 2), [ANY]),
    "sin": (np.sin, (2, 4, 4), [ANY]),
    "sinh": (np.sinh, (2, 4, 4), [(-800, 800)]),
    "sinpi": (ref_sinpi, (2, 4, 4), [ANY]),
    "sqrt": (np.sqrt, (CR, 3, CR), [ANY]),
    "tan": (np.tan, (2, 5, 5), [ANY]),
    "tanh": (np.tanh, (2, 5, 5), [ANY]),
    "tanpi": (ref_tanpi, (2, 6, 6), [ANY]),
    "tgamma": (ref_tgamma, (4, 16, 16), [(-180, 180)]),
    "trunc": (np.trunc, (CR, CR, CR), [ANY]),
    "fmax_common": (np.fmax, (0, 0, 0), [ANY, ANY]),
    "fmin_common": (np.fmin, (0, 0, 0), [ANY, ANY]),
    "degrees": (lambda x: x * (180 / PI), (2, 2, 2), [ANY]),
    "radians": (lambda x: x * (PI / 180), (2, 2, 2), [ANY]),
    "sign": (ref_sign, (0, 0, 0), [ANY]),
    "step": (lambda e, x: _where(x < e, LD(0), LD(1)), (0, 0, 0), [ANY, ANY]),
}

# native_* / half_*: float only; implemented at full precision, so held to the full bounds.
RELAXED_REFS = {
    "cos": FLOAT_FUNCS["cos"], "sin": FLOAT_FUNCS["sin"], "tan": FLOAT_FUNCS["tan"],
    "exp": FLOAT_FUNCS["exp"], "exp2": FLOAT_FUNCS["exp2"], "exp10": FLOAT_FUNCS["exp10"],
    "log": FLOAT_FUNCS["log"], "log2": FLOAT_FUNCS["log2"], "log10": FLOAT_FUNCS["log10"],
    "sqrt": FLOAT_FUNCS["sqrt"], "rsqrt": FLOAT_FUNCS["rsqrt"], "powr": FLOAT_FUNCS["powr"],
    "divide": (lambda x, y: x / y, (CR, 2.5, CR), [ANY, ANY]),
    "recip": (lambda x: 1 / x, (CR, 2.5, CR), [ANY]),
}

# Functions whose result may be either zero for operands +0 and -0 (IEEE maxNum/minNum).
ZERO_SIGN_FREE = {"fmax", "fmin", "fmax_common", "fmin_common", "maxmag", "minmag"}
# Functions tested on their domain samples only (lgamma is implementation-defined: its
# relative error near its zeros at 1 and 2 is unbounded).
NO_SPECIALS = {"lgamma"}

FLOAT_VARIANTS = [("f32", F, 0), ("f32x4", F, 4), ("f64", D, 0), ("f64x3", D, 3),
                  ("f16", H, 0), ("f16x8", H, 8)]
BOUND_INDEX = {H: 0, F: 1, D: 2}


def check_float_function(name, ref, bounds, domains, elem, lanes, label):
    ty = vec(elem, lanes)
    dtype = NP_TYPES[elem]
    inputs = float_inputs(dtype, domains, rng_for(name, label))
    if name in NO_SPECIALS:
        inputs = [c[len(specials(dtype)) ** min(len(domains), 2):] for c in inputs]
    kernel = lowered(name, ty, [ty] * len(domains))
    got = run_flat(kernel, ty, [ty] * len(domains), inputs)
    with np.errstate(all="ignore"):
        expected = ref(*(c.astype(LD) for c in inputs))
    assert_within(f"{name} {label}", inputs, got, expected, dtype, bounds[BOUND_INDEX[elem]],
                  check_zero_sign=name not in ZERO_SIGN_FREE)


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
@pytest.mark.parametrize("name", sorted(FLOAT_FUNCS))
def test_float_function(name, label, elem, lanes):
    ref, bounds, domains = FLOAT_FUNCS[name]
    check_float_function(name, ref, bounds, domains, elem, lanes, label)


@pytest.mark.parametrize("label,lanes", [("f32", 0), ("f32x4", 4)])
@pytest.mark.parametrize("prefix", ["native", "half"])
@pytest.mark.parametrize("name", sorted(RELAXED_REFS))
def test_relaxed_function(prefix, name, label, lanes):
    ref, bounds, domains = RELAXED_REFS[name]
    check_float_function(f"{prefix}_{name}", ref, bounds, domains, F, lanes, label)


# ---------------------------------------------------------------------------------------------
# Float functions with exact or special references


def round_fraction(value: Fraction, dtype, negative_zero=False) -> float:
    """value correctly rounded (to nearest even) to dtype, returned as a Python float."""
    mant, emin = FORMATS[np.dtype(dtype)]
    if value == 0:
        return -0.0 if negative_zero else 0.0
    mag = abs(value)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - mant)
    rounded = round(value / quantum) * quantum
    limit = float(np.finfo(dtype).max)
    if abs(rounded) > limit:
        return math.copysign(INF, value)
    return float(rounded) if rounded != 0 else math.copysign(0.0, value)


def exact_fma(a, x, c, dtype) -> float:
    a, x, c = float(a), float(x), float(c)
    if not all(map(math.isfinite, (a, x, c))):
        with np.errstate(invalid="ignore"):
            return float(np.asarray(LD(a) * LD(x) + LD(c)).astype(dtype))
    product, total = Fraction(a) * Fraction(x), Fraction(a) * Fraction(x) + Fraction(c)
    product_negative_zero = product == 0 and (math.copysign(1, a) * math.copysign(1, x) < 0)
    neg_zero = total == 0 and product_negative_zero and math.copysign(1, c) < 0
    return round_fraction(total, dtype, neg_zero)


def fma_inputs(dtype, rng, n=400):
    """Triples where a*b and c overlap (cancellation, ties) as well as random ones."""
    a = random_values(dtype, (-4, 4), n, rng)
    x = random_values(dtype, (-4, 4), n, rng)
    with np.errstate(all="ignore"):
        near = (-(a.astype(np.float64) * x.astype(np.float64))).astype(dtype)
    c = np.where(rng.random(n) < 0.5, near, random_values(dtype, (-16, 16), n, rng)).astype(dtype)
    sp = specials(dtype)
    return [np.concatenate([a, sp, np.roll(sp, 3)]), np.concatenate([x, np.roll(sp, 5), sp]),
            np.concatenate([c, np.roll(sp, 11), np.roll(sp, 1)])]


def bits(arr):
    arr = np.asarray(arr)
    return arr.view(f"uint{arr.dtype.itemsize * 8}")


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
def test_fma_is_correctly_rounded(label, elem, lanes):
    ty, dtype = vec(elem, lanes), NP_TYPES[elem]
    cols = fma_inputs(dtype, rng_for("fma", label))
    got = run_flat(lowered("fma", ty, [ty] * 3), ty, [ty] * 3, cols)
    expected = np.array([exact_fma(*t, dtype) for t in zip(*cols)], dtype=dtype)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(got), nan)
    mismatch = np.nonzero(bits(got)[~nan] != bits(expected)[~nan])[0]
    assert mismatch.size == 0, [(c[~nan][mismatch[0]] for c in cols), got[~nan][mismatch[0]]]


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
def test_mad_is_fma_or_rounded_mul_add(label, elem, lanes):
    ty, dtype = vec(elem, lanes), NP_TYPES[elem]
    cols = fma_inputs(dtype, rng_for("mad", label))
    got = run_flat(lowered("mad", ty, [ty] * 3), ty, [ty] * 3, cols)
    fused = np.array([exact_fma(*t, dtype) for t in zip(*cols)], dtype=dtype)
    with np.errstate(all="ignore"):
        unfused = (cols[0] * cols[1]).astype(dtype) + cols[2]
    ok = (got == fused) | (got == unfused) | (np.isnan(got) & np.isnan(unfused))
    assert ok.all(), [c[~ok][0] for c in cols]


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
def test_fclamp_mix_smoothstep(label, elem, lanes):
    ty, dtype = vec(elem, lanes), NP_TYPES[elem]
    rng = rng_for("clamp", label)
    x = random_values(dtype, (-50, 50), 300, rng)
    lo, hi = np.sort(random_values(dtype, (-50, 50), 600, rng).reshape(2, 300), axis=0)
    edges = ([NAN, 5, -5], [0, 0, 0], [1, 1, 1])
    x, lo, hi = (np.concatenate([v, e]).astype(dtype) for v, e in zip((x, lo, hi), edges))
    got = run_flat(lowered("fclamp", ty, [ty] * 3), ty, [ty] * 3, [x, lo, hi])
    expected = np.fmin(np.fmax(x, lo), hi)
    assert np.array_equal(got, expected, equal_nan=True)

    a = rng.uniform(0, 1, x.size).astype(dtype)
    got = run_flat(lowered("mix", ty, [ty] * 3), ty, [ty] * 3, [lo, hi, a])
    expected = lo.astype(LD) + (hi.astype(LD) - lo.astype(LD)) * a.astype(LD)
    tolerance = {np.float16: 0.1, np.float32: 1e-3, np.float64: 1e-9}[dtype]
    assert np.all(np.abs(got - expected) <= tolerance * np.maximum(1, np.abs(expected)))

    lo, hi = lo[:300], (hi[:300] + np.asarray(1, dtype)).astype(dtype)  # e0 < e1
    xs = x[:300]
    got = run_flat(lowered("smoothstep", ty, [ty] * 3), ty, [ty] * 3, [lo, hi, xs])
    t = np.clip((xs.astype(LD) - lo) / (hi.astype(LD) - lo), 0, 1)
    expected = t * t * (3 - 2 * t)
    tolerance = {np.float16: 4e-3, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    assert np.all(np.abs(got - expected) <= tolerance)


INT_SAMPLES_N = [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 31, 127, -128, 1000, -1000, 2**31 - 1]


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
@pytest.mark.parametrize("name", ["ldexp", "pown", "rootn"])
def test_functions_with_int_operand(name, label, elem, lanes):
    ty, dtype = vec(elem, lanes), NP_TYPES[elem]
    ity = vec(ir.IntType(32), lanes)
    rng = rng_for(name, label)
    sp = specials(dtype)
    ints = np.array(INT_SAMPLES_N + [-(2**31), 200, -200, 1 << 20], dtype=np.int64)
    xs = np.concatenate([np.repeat(sp, ints.size), random_values(dtype, ANY, 300, rng)])
    small = rng.integers(-12, 13, 300) if name != "ldexp" else rng.integers(-1200, 1200, 300)
    ns = np.concatenate([np.tile(ints, sp.size), small])
    if name == "rootn":
        xs = np.concatenate([xs, random_values(dtype, (-1e4, 1e4), 200, rng)])
        ns = np.concatenate([ns, rng.integers(-9, 10, 200)])
    got = run_flat(lowered(name, ty, [ty, ity]), ty, [ty, ity], [xs, ns.astype(np.int32)])
    x_l, n_l = xs.astype(LD), ns.astype(LD)
    with np.errstate(all="ignore"):
        if name == "ldexp":
            expected, bound = np.ldexp(x_l, ns), CR
        elif name == "pown":
            expected, bound = np.power(x_l, n_l), (4, 16, 16)[BOUND_INDEX[elem]]
        else:
            odd = ns % 2 != 0
            root = np.power(np.abs(x_l), 1 / n_l)
            expected = np.where(odd, np.copysign(root, x_l), root)
            expected = np.where((ns == 0) | ((x_l < 0) & ~odd), LD(NAN), expected).astype(LD)
            bound = (4, 16, 16)[BOUND_INDEX[elem]]
    assert_within(f"{name} {label}", [xs, ns], got, expected, dtype, bound)


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
def test_ilogb(label, elem, lanes):
    ty, dtype = vec(elem, lanes), NP_TYPES[elem]
    ity = vec(ir.IntType(32), lanes)
    xs = np.concatenate([specials(dtype), random_values(dtype, ANY, 300, rng_for("ilogb", label))])
    got = run_flat(lowered("ilogb", ity, [ty]), ity, [ty], [xs]).view(np.int32)
    _, e = np.frexp(xs.astype(np.float64))
    expected = np.where(xs == 0, -(2**31), np.where(np.isfinite(xs), e - 1, 2**31 - 1))
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
def test_nan_carries_nancode(label, elem, lanes):
    ty, dtype = vec(elem, lanes), NP_TYPES[elem]
    width = np.dtype(dtype).itemsize * 8
    mant = FORMATS[np.dtype(dtype)][0]
    uty = vec(ir.IntType(width), lanes)
    codes = np.array([0, 1, 2, 5, (1 << mant) - 1, 1 << (mant - 1), (1 << width) - 1, 12345],
                     dtype=np.uint64).astype(f"uint{width}")
    got = run_flat(lowered("nan", ty, [uty]), ty, [uty], [codes])
    assert np.isnan(got).all()
    exponent_quiet = ((1 << (width - mant - 1)) - 1) << mant | 1 << (mant - 1)
    expected = (codes.astype(np.uint64) & ((1 << mant) - 1)) | exponent_quiet
    assert np.array_equal(bits(got).astype(np.uint64), expected)


@pytest.mark.parametrize("label,elem,lanes", FLOAT_VARIANTS, ids=[v[0] for v in FLOAT_VARIANTS])
def test_nextafter_matches_numpy(label, elem, lanes):
    ty, dtype = vec(elem, lanes), NP_TYPES[elem]
    x, y = float_inputs(dtype, [ANY, ANY], rng_for("nextafter", label))
    got = run_flat(lowered("nextafter", ty, [ty, ty]), ty, [ty, ty], [x, y])
    with np.errstate(over="ignore"):
        expected = np.where(x == y, y, np.nextafter(x, y))  # C: y when equal (numpy's half: x)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(bits(got)[~nan], bits(expected)[~nan])


# (name, operands, expected) from the spec's list of exact edge cases (section 6 of the digest).
EXACT_EDGES = [
    ("acospi", [1.0], 0.0), ("asinpi", [-0.0], -0.0), ("atanpi", [-0.0], -0.0),
    ("atanpi", [INF], 0.5), ("atanpi", [-INF], -0.5),
    ("atan2pi", [0.0, -0.0], 1.0), ("atan2pi", [-0.0, -0.0], -1.0),
    ("atan2pi", [0.0, 0.0], 0.0), ("atan2pi", [-0.0, 0.0], -0.0),
    ("atan2pi", [-0.0, -3.0], -1.0), ("atan2pi", [0.0, 3.0], 0.0),
    ("atan2pi", [-2.0, 0.0], -0.5), ("atan2pi", [2.0, -0.0], 0.5),
    ("atan2pi", [2.0, -INF], 1.0), ("atan2pi", [-2.0, INF], -0.0),
    ("atan2pi", [INF, 5.0], 0.5), ("atan2pi", [-INF, -INF], -0.75),
    ("atan2pi", [INF, INF], 0.25), ("atan2pi", [-INF, INF], -0.25),
    ("ceil", [-0.5], -0.0), ("trunc", [-0.5], -0.0), ("round", [-0.25], -0.0),
    ("round", [2.5], 3.0), ("round", [-2.5], -3.0), ("rint", [-0.5], -0.0), ("rint", [2.5], 2.0),
    ("cospi", [0.0], 1.0), ("cospi", [-0.0], 1.0), ("cospi", [0.5], 0.0), ("cospi", [-1.5], 0.0),
    ("cospi", [INF], NAN), ("cospi", [1.0], -1.0), ("cospi", [2.0**60], 1.0),
    ("sinpi", [-0.0], -0.0), ("sinpi", [3.0], 0.0), ("sinpi", [-3.0], -0.0),
    ("sinpi", [-INF], NAN), ("sinpi", [0.5], 1.0), ("sinpi", [-2.0**60], -0.0),
    ("tanpi", [-0.0], -0.0), ("tanpi", [INF], NAN), ("tanpi", [2.0], 0.0), ("tanpi", [-2.0], -0.0),
    ("tanpi", [1.0], -0.0), ("tanpi", [-1.0], 0.0), ("tanpi", [0.5], INF), ("tanpi", [1.5], -INF),
    ("tanpi", [-0.5], -INF), ("tanpi", [-1.5], INF),
    ("exp10", [0.0], 1.0), ("exp10", [-INF], 0.0), ("exp10", [INF], INF), ("exp10", [2.0], 100.0),
    ("fdim", [1.0, NAN], NAN), ("fdim", [NAN, 1.0], NAN), ("fdim", [1.0, 2.0], 0.0),
    ("fdim", [INF, INF], 0.0), ("fmod", [0.0, NAN], NAN), ("fmod", [-0.0, 2.0], -0.0),
    ("pow", [0.0, -INF], INF), ("pow", [-0.0, -INF], INF),
    ("powr", [2.0, 0.0], 1.0), ("powr", [0.0, -3.0], INF), ("powr", [-0.0, -3.0], INF),
    ("powr", [0.0, -INF], INF), ("powr", [-0.0, 2.0], 0.0), ("powr", [1.0, 7.5], 1.0),
    ("powr", [-1.0, 2.0], NAN), ("powr", [0.0, 0.0], NAN), ("powr", [INF, -0.0], NAN),
    ("powr", [1.0, INF], NAN), ("powr", [1.0, NAN], NAN), ("powr", [NAN, 0.0], NAN),
    ("powr", [2.0, NAN], NAN), ("half_powr", [0.0, 0.0], NAN), ("native_powr", [-1.0, 2.0], NAN),
    ("sign", [-0.0], -0.0), ("sign", [NAN], 0.0), ("sign", [-3.0], -1.0), ("sign", [1e-30], 1.0),
    ("step", [1.0, 1.0], 1.0), ("step", [1.0, 0.5], 0.0),
    ("maxmag", [-3.0, 2.0], -3.0), ("maxmag", [-2.0, 2.0], 2.0), ("minmag", [-2.0, 2.0], -2.0),
    ("minmag", [NAN, 2.0], 2.0), ("fmin", [NAN, 2.0], 2.0), ("fmax", [3.0, NAN], 3.0),
    ("rsqrt", [0.0], INF), ("rsqrt", [4.0], 0.5), ("rsqrt", [-1.0], NAN), ("rsqrt", [INF], 0.0),
    ("sqrt", [-0.0], -0.0), ("native_divide", [1.0, 4.0], 0.25), ("half_recip", [4.0], 0.25),
    ("copysign", [1.0, -0.0], -1.0), ("fabs", [-0.0], 0.0), ("logb", [0.0], -INF),
    ("remainder", [5.0, 2.0], 1.0), ("remainder", [7.0, 2.0], -1.0), ("remainder", [INF, 2.0], NAN),
    ("degrees", [0.0], 0.0), ("radians", [-0.0], -0.0), ("hypot", [INF, NAN], INF),
    ("tgamma", [5.0], 24.0), ("tgamma", [-0.0], -INF), ("tgamma", [-2.0], NAN),
]


@pytest.mark.parametrize("elem", [H, F, D], ids=["f16", "f32", "f64"])
def test_exact_edge_cases(elem):
    dtype = NP_TYPES[elem]
    cases: dict[str, list] = {}  # one kernel per function
    for name, operands, expected in EXACT_EDGES:
        if elem is not F and name.startswith(("half_", "native_")):
            continue
        with np.errstate(over="ignore"):
            representable = all(not math.isfinite(v) or float(dtype(v)) == v for v in operands)
        if representable:
            cases.setdefault(name, []).append((operands, expected))
    failures = []
    for name, group in cases.items():
        arity = len(group[0][0])
        columns = [np.array([ops[k] for ops, _ in group], dtype=dtype) for k in range(arity)]
        got = run_flat(lowered(name, elem, [elem] * arity), elem, [elem] * arity, columns)
        want = np.array([expected for _, expected in group], dtype=dtype)
        same = (np.isnan(got) & np.isnan(want)) | (bits(got) == bits(want))
        failures += [f"{name}{tuple(ops)} = {g!r}, expected {w!r}"
                     for (ops, _), g, w, ok in zip(group, got, want, same) if not ok]
    assert not failures, failures


# ---------------------------------------------------------------------------------------------
# Integer functions


def signed(v, width):
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def int_ref(name, width, *ops):
    """The exact result of integer instruction `name` (an int modulo 2^width, any sign)."""
    s = name.startswith("s_")
    vals = [signed(v, width) if s else v for v in ops]
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if s else (0, (1 << width) - 1)
    base = name[2:] if name[:2] in ("s_", "u_") else name
    mask = (1 << width) - 1
    match base, vals:
        case "abs", [x]:
            return abs(x)
        case "abs_diff", [x, y]:
            return abs(x - y)
        case "min", [x, y]:
            return min(x, y)
        case "max", [x, y]:
            return max(x, y)
        case "clamp", [x, a, b_]:
            return min(max(x, a), b_)
        case "mul_hi", [x, y]:
            return (x * y) >> width
        case "mad_hi", [x, y, z]:
            return ((x * y) >> width) + z
        case "mul24", [x, y]:
            return x * y
        case "mad24", [x, y, z]:
            return x * y + z
        case "add_sat", [x, y]:
            return min(max(x + y, lo), hi)
        case "sub_sat", [x, y]:
            return min(max(x - y, lo), hi)
        case "hadd", [x, y]:
            return (x + y) >> 1
        case "rhadd", [x, y]:
            return (x + y + 1) >> 1
        case "mad_sat", [x, y, z]:
            return min(max(x * y + z, lo), hi)
        case "popcount", [x]:
            return bin(x).count("1")
        case "clz", [x]:
            return width - x.bit_length()
        case "ctz", [x]:
            return (x & -x).bit_length() - 1 if x else width
        case "rotate", [x, n]:
            n %= width
            return ((x << n) | (x >> (width - n))) & mask
    raise AssertionError(name)


INT_BINARY = "abs_diff min max mul_hi add_sat sub_sat hadd rhadd".split()
INT_TERNARY = "clamp mad_hi mad_sat".split()
INT_NAMES = (
    [f"{p}_{n}" for p in "su" for n in ["abs"] + INT_BINARY + INT_TERNARY]
    + ["popcount", "clz", "ctz", "rotate"]
)
INT_VARIANTS = [("i8", 8, 0), ("i8x16", 8, 16), ("i16x2", 16, 2), ("i32", 32, 0),
                ("i32x4", 32, 4), ("i64", 64, 0), ("i64x3", 64, 3)]


def int_edges(width):
    m = (1 << width) - 1
    top = 1 << (width - 1)
    return [0, 1, 2, 3, m, m - 1, top, top - 1, top + 1, 0x55 * (m // 0xFF), m >> 4, 7, width,
            width + 1, 2 * width]


def int_inputs(width, arity, rng, n=200):
    e = int_edges(width)
    if arity == 1:
        base = [e]
    elif arity == 2:
        base = [[a for a in e for _ in e], [b_ for _ in e for b_ in e]]
    else:
        base = [e * len(e), [b_ for b_ in e for _ in e], list(reversed(e * len(e)))]
    rand = [[int(v) for v in rng.integers(0, 1 << width, n, dtype=np.uint64)] if width < 64
            else [int(v) for v in rng.integers(0, 2**63, n)] for _ in range(arity)]
    return [b_ + r for b_, r in zip(base, rand)]


def arity_of(name):
    base = name[2:] if name[:2] in ("s_", "u_") else name
    return 1 if base in ("abs", "popcount", "clz", "ctz") else 3 if base in INT_TERNARY else 2


def check_int(name, width, lanes, label, columns):
    ty = vec(ir.IntType(width), lanes)
    arity = len(columns)
    arrays = [np.array(c, dtype=object).astype(np.uint64).astype(f"uint{width}") if width < 64
              else np.array(c, dtype=np.uint64) for c in columns]
    got = run_flat(lowered(name, ty, [ty] * arity), ty, [ty] * arity, arrays)
    mask = (1 << width) - 1
    for i, ops in enumerate(zip(*columns)):
        want = int_ref(name, width, *ops) & mask
        assert int(got[i]) == want, f"{name} {label}{ops}: got {int(got[i])}, expected {want}"


@pytest.mark.parametrize("label,width,lanes", INT_VARIANTS, ids=[v[0] for v in INT_VARIANTS])
@pytest.mark.parametrize("name", INT_NAMES)
def test_integer_function(name, label, width, lanes):
    columns = int_inputs(width, arity_of(name), rng_for(name, label))
    if name.endswith("clamp"):  # min <= max is required
        s = name.startswith("s_")
        key = (lambda v: signed(v, width)) if s else (lambda v: v)
        pairs = [sorted(p, key=key) for p in zip(columns[1], columns[2])]
        columns = [columns[0], [p[0] for p in pairs], [p[1] for p in pairs]]
    check_int(name, width, lanes, label, columns)


@pytest.mark.parametrize("lanes", [0, 4, 3], ids=["i32", "i32x4", "i32x3"])
@pytest.mark.parametrize("name", ["s_mul24", "u_mul24", "s_mad24", "u_mad24"])
def test_24bit_multiplies(name, lanes):
    rng = rng_for(name, lanes)
    lo, hi = (-(1 << 23), 1 << 23) if name.startswith("s_") else (0, 1 << 24)
    ops = [[lo, hi - 1, 0, 1, -1 if lo else 5] + [int(v) for v in rng.integers(lo, hi, 200)]
           for _ in range(2)]
    ops = [[v % (1 << 32) for v in col] for col in ops]
    if "mad" in name:
        ops.append([int(v) for v in rng.integers(0, 1 << 32, len(ops[0]), dtype=np.uint64)])
    check_int(name, 32, lanes, str(lanes), ops)


@pytest.mark.parametrize("lanes", [0, 4, 3, 16])
@pytest.mark.parametrize("width", [8, 16, 32])
@pytest.mark.parametrize("name", ["s_upsample", "u_upsample"])
def test_upsample(name, width, lanes):
    narrow, wide = vec(ir.IntType(width), lanes), vec(ir.IntType(2 * width), lanes)
    rng = rng_for(name, width, lanes)
    e = int_edges(width)
    hi = [a for a in e for _ in e] + [int(v) for v in rng.integers(0, 1 << width, 100)]
    lo = [b_ for _ in e for b_ in e] + [int(v) for v in rng.integers(0, 1 << width, 100)]
    dt = f"uint{width}"
    got = run_flat(lowered(name, wide, [narrow, narrow]), wide, [narrow, narrow],
                   [np.array(hi).astype(dt), np.array(lo).astype(dt)])
    expected = [(h << width | l_) for h, l_ in zip(hi, lo)]
    assert [int(v) for v in got] == expected


@pytest.mark.parametrize("lanes", [0, 4])
@pytest.mark.parametrize("elem", [ir.IntType(16), ir.IntType(64), F, D], ids=str)
def test_bitselect_and_select(elem, lanes):
    ty = vec(elem, lanes)
    width = elem.width if isinstance(elem, ir.IntType) else (32 if elem is F else 64)
    ity = vec(ir.IntType(width), lanes)
    rng = rng_for("select", str(elem), lanes)
    dt = f"uint{width}"
    a, x, c = (rng.integers(0, 1 << min(width, 63), 64, dtype=np.uint64).astype(dt)
               for _ in range(3))
    c_edges = [0, 1, 1 << (width - 1), (1 << width) - 1, 2, 0, 1 << (width - 2), 3]
    c[:8] = np.array(c_edges, dtype=np.uint64).astype(dt)
    view = (lambda v: v) if isinstance(elem, ir.IntType) else (lambda v: v.view(NP_TYPES[elem]))
    got = run_flat(lowered("bitselect", ty, [ty] * 3), ty, [ty] * 3, [view(a), view(x), view(c)])
    assert np.array_equal(bits(got), (a & ~c) | (x & c))
    got = run_flat(lowered("select", ty, [ty, ty, ity]), ty, [ty, ty, ity], [view(a), view(x), c])
    take_x = (c >> (width - 1)) != 0 if lanes else c != 0
    assert np.array_equal(bits(got), np.where(take_x, x, a))


# ---------------------------------------------------------------------------------------------
# Interface


@pytest.mark.parametrize("name", ["frexp", "modf", "sincos", "printf", "vloadn", "prefetch", "no_such_function"])
def test_unsupported_raises(name):
    module = ir.Module()
    fn = ir.Function(module, ir.FunctionType(F, [F]), "f")
    b = ir.IRBuilder(fn.append_basic_block())
    with pytest.raises(NotSupportedError, match=f"not supported yet: OpenCL.std {name}"):
        lower_opencl_std(b, name, F, [fn.args[0]])


def test_every_required_function_is_supported():
    required = (
        "sqrt rsqrt fabs fmin fmax fma mad floor ceil round trunc exp exp2 log log2 pow sin cos "
        "tan atan2 tanh s_abs u_abs s_abs_diff u_abs_diff s_min u_min s_max u_max s_clamp "
        "u_clamp s_mul_hi u_mul_hi s_mad24 u_mad24 s_mul24 u_mul24 popcount clz ctz rotate "
        "s_add_sat u_add_sat s_sub_sat u_sub_sat s_hadd u_hadd s_rhadd u_rhadd s_mad_hi u_mad_hi "
        "s_mad_sat u_mad_sat s_upsample u_upsample"
    ).split()
    relaxed = "sqrt rsqrt exp exp2 log log2 powr sin cos tan divide recip exp10 log10".split()
    required += [f"{p}_{n}" for p in ("native", "half") for n in relaxed]
    assert set(required) <= opencl_std.SUPPORTED


def test_scalar_operand_is_splatted():
    ty, ity = vec(F, 4), ir.IntType(32)
    kernel = lowered("ldexp", ty, [ty, ity])
    got = kernel(np.arange(8, dtype=np.float32).reshape(2, 4), np.array([3, -1], dtype=np.int32))
    assert np.array_equal(got, [[0, 8, 16, 24], [2, 2.5, 3, 3.5]])


def test_declarations_are_reused():
    kernel = compile_map(
        lambda b, a: lower_opencl_std(b, "tan", F, [lower_opencl_std(b, "tan", F, a)]), F, [F]
    )
    text = str(kernel.module)
    assert text.count('declare float @"tanf"(') == 1
    got = kernel(np.array([0.5], np.float32))[0]
    assert got == pytest.approx(math.tan(math.tan(0.5)), rel=1e-6)


def test_half_runs_without_native_half_instructions():
    """On a CPU without F16C/AVX512-FP16, LLVM converts half via libgcc_s helpers
    (__extendhfsf2, __truncsfhf2); ensure_libm_loaded makes them resolvable (an unresolved
    symbol would be a segfault)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("baseline x86-64 code only")
    missing = ensure_libm_loaded()
    if missing:
        pytest.skip(f"runtime symbols not found: {missing}")
    h4 = vec(H, 4)
    kernel = lowered("sqrt", h4, [h4], cpu="x86-64")
    got = kernel(np.array([[4, 2, 0.25, 65504]], np.float16))
    assert np.array_equal(got, np.sqrt(np.array([[4, 2, 0.25, 65504]], np.float16)))
    fma = lowered("fma", H, [H, H, H], cpu="x86-64")  # double -> half: __truncdfhf2
    assert fma(*(np.array([v], np.float16) for v in (3, 5, 1)))[0] == 16
