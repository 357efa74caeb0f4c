"""OpenCL.std geometric functions, shuffle/shuffle2 and prefetch.

The numerics run through the IR harness (tests/jit/llvm_harness.py: the lowering alone, on numpy
arrays) against long-double references, within the full-profile bounds of the environment spec's
ULP table (geometric rows) and with the special cases of OpenCL C 6.13.5; the accuracy sweep
(tests/accuracy/geometric.py) measures the same functions on many more inputs. shuffle, shuffle2
and prefetch run as SPIR-V assembly kernels through the executor.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from jit.asm_kernel import aligned_zeros, ld, simple, st
from jit.llvm_harness import compile_map
from llvmlite import ir

from spirvkit.jit.opencl_std import lower_opencl_std

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from accuracy.ulp import ulp_error  # noqa: E402

H, F, D = ir.HalfType(), ir.FloatType(), ir.DoubleType()
NP = {H: np.float16, F: np.float32, D: np.float64}
LD = np.longdouble
BOUNDS = {  # (length, distance, normalize) in ulp for n components
    F: (lambda n: 2.75 + 0.5 * n, lambda n: 2.5 + 2 * n, lambda n: 2 + n),
    D: (lambda n: 5.5 + n, lambda n: 5.5 + 2 * n, lambda n: 4.5 + n),
    H: (lambda n: 0.25 + 0.5 * n, lambda n: 2 * n, lambda n: 1 + n),
}
MODES = pytest.mark.parametrize("unchecked", [False, True], ids=["checked", "unchecked"])


def vec(elem, n):
    return ir.VectorType(elem, n) if n > 1 else elem


def kernel(name, result_type, arg_types):
    return compile_map(lambda b, args: lower_opencl_std(b, name, result_type, args), result_type, arg_types)


def run(name, elem, n, result_n, *inputs):
    k = kernel(name, vec(elem, result_n), [vec(elem, n)] * len(inputs))
    arrays = [np.asarray(x, NP[elem]).reshape(len(x), n) if n > 1 else np.asarray(x, NP[elem]) for x in inputs]
    return k(*arrays)


def random_vectors(elem, n, count, seed):
    """Components of similar magnitude at exponents over the whole range, plus independent ones."""
    rng = np.random.default_rng(seed)
    info = np.finfo(NP[elem])
    emin, emax = int(np.log2(info.smallest_subnormal)), int(info.maxexp) - 1
    base = rng.integers(emin, emax, size=(count, 1))
    exps = np.where(rng.random((count, n)) < 0.7, base + rng.integers(-3, 3, size=(count, n)),
                    rng.integers(emin, emax, size=(count, n)))
    vals = np.ldexp(rng.uniform(1, 2, size=(count, n)), np.clip(exps, emin, emax - 1))
    vals *= rng.choice([-1.0, 1.0], size=(count, n))
    with np.errstate(over="ignore"):
        return vals.astype(NP[elem])


def length_ref(x):
    x = x.astype(LD)
    with np.errstate(all="ignore"):
        r = np.sqrt(np.sum(x * x, axis=-1))
    return np.where(np.isinf(x).any(axis=-1), LD(np.inf), r)


@pytest.mark.parametrize("elem", [F, D, H], ids=["float", "double", "half"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_length_distance_normalize_accuracy(elem, n):
    x = random_vectors(elem, n, 4000, seed=n)
    y = random_vectors(elem, n, 4000, seed=n + 10)
    flat = (lambda a: a[:, 0]) if n == 1 else (lambda a: a)
    bl, bd, bn = (f(n) for f in BOUNDS[elem])

    got = run("length", elem, n, 1, flat(x))
    assert ulp_error(got, length_ref(x), NP[elem]).max() <= bl

    got = run("distance", elem, n, 1, flat(x), flat(y))
    assert ulp_error(got, length_ref(x.astype(LD) - y.astype(LD)), NP[elem]).max() <= bd

    got = run("normalize", elem, n, n, flat(x)).reshape(-1, n)
    with np.errstate(all="ignore"):
        ref = x.astype(LD) / length_ref(x)[:, None]
    err = ulp_error(got, ref, NP[elem])
    assert err.max() <= bn, (err.max(), x[np.argmax(err.max(axis=-1))])


@pytest.mark.parametrize("elem", [F, D, H], ids=["float", "double", "half"])
def test_no_overflow_or_underflow(elem):
    """length, distance and normalize scale huge and tiny vectors (spec 6.13.5)."""
    info = np.finfo(NP[elem])
    big = float(info.max) / 2
    tiny = float(info.smallest_subnormal) * 3
    x = np.array([[big, big, 0.0], [tiny, tiny * 2, -tiny * 2], [big, -big, big]], NP[elem])
    ref = length_ref(x)
    got = run("length", elem, 3, 1, x)
    finite_ref = ref < LD(float(info.max))
    assert np.all(np.isfinite(got[finite_ref]))
    assert ulp_error(got, ref, NP[elem]).max() <= BOUNDS[elem][0](3)
    got = run("normalize", elem, 3, 3, x).reshape(-1, 3)
    ref_n = x.astype(LD) / ref[:, None]
    assert ulp_error(got, ref_n, NP[elem]).max() <= BOUNDS[elem][2](3)


@pytest.mark.parametrize("elem", [F, D, H], ids=["float", "double", "half"])
def test_normalize_special_cases(elem):
    inf, nan = math.inf, math.nan
    x = np.array([[0.0, -0.0, 0.0], [-0.0, -0.0, -0.0], [inf, 1.0, -inf], [nan, 1.0, 2.0],
                  [inf, nan, 0.0], [0.0, -inf, 5.0]], NP[elem])
    got = run("normalize", elem, 3, 3, x).reshape(-1, 3)
    # Zero vectors come back unchanged, signs of zero included.
    assert np.array_equal(np.signbit(got[:2]), np.signbit(x[:2])) and not got[:2].any()
    r = np.float64(np.array(1 / math.sqrt(2), NP[elem]))
    assert np.allclose(got[2].astype(float), [r, 0.0, -r], rtol=2e-3)
    assert not np.signbit(got[2][1])            # 0 * 1.0 = +0
    assert np.isnan(got[3]).all() and np.isnan(got[4]).all()
    assert got[5].tolist() == [0.0, -1.0, 0.0]
    got = run("length", elem, 3, 1, x)
    assert got[0] == 0 and got[2] == inf and np.isnan(got[3]) and got[4] == inf


@pytest.mark.parametrize("elem", [F, D, H], ids=["float", "double", "half"])
@pytest.mark.parametrize("n", [3, 4])
def test_cross(elem, n):
    rng = np.random.default_rng(n)
    x = rng.uniform(-100, 100, size=(2000, n)).astype(NP[elem])
    y = rng.uniform(-100, 100, size=(2000, n)).astype(NP[elem])
    x[:5, :3] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [50, 50, 1], [3, 3, 3]]
    got = run("cross", elem, n, n, x, y).reshape(-1, n)
    a, b = x.astype(LD), y.astype(LD)
    ref = np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1], a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                    a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=1)
    biggest = np.maximum(np.abs(a).max(axis=1), np.abs(b).max(axis=1))
    eps = LD(np.finfo(np.float16).eps if elem is H else np.finfo(np.float32).eps)
    abs_err = np.abs(got[:, :3].astype(LD) - ref).max(axis=1)
    assert np.all(abs_err <= biggest ** 2 * 3 * eps)
    # float and double: each component is the exact value correctly rounded or nearly so.
    assert ulp_error(got[:, :3], ref, NP[elem]).max() <= (0.5 + 1e-3 if elem is not D else 1.5)
    if n == 4:
        assert np.all(got[:, 3] == 0) and not np.signbit(got[:, 3]).any()


def test_fast_forms_are_within_their_bounds():
    x = random_vectors(F, 4, 2000, seed=7)
    got = run("fast_length", F, 4, 1, x)
    assert ulp_error(got, length_ref(x), np.float32).max() <= 8191.5 + 4
    got = run("fast_normalize", F, 4, 4, x).reshape(-1, 4)
    with np.errstate(all="ignore"):
        ref = x.astype(LD) / length_ref(x)[:, None]
    assert ulp_error(got, ref, np.float32).max() <= 8192 + 4
    y = random_vectors(F, 4, 2000, seed=8)
    got = run("fast_distance", F, 4, 1, x, y)
    assert ulp_error(got, length_ref(x.astype(LD) - y.astype(LD)), np.float32).max() <= 8191.5 + 8


# ---------------------------------------------------------------------------------------------
# shuffle, shuffle2, prefetch through the executor

STD = '%std = OpExtInstImport "OpenCL.std"'


@MODES
@pytest.mark.parametrize("m,n", [(4, 4), (2, 8), (8, 2), (16, 16), (4, 16)])
def test_shuffle_dynamic_mask_uses_low_bits(unchecked, m, n):
    body = (ld("x", f"v{m}uint", "a", "gid") + ld("y", f"v{m}uint", "b", "gid") + ld("k", f"v{n}uint", "c", "gid")
            + f"%r1 = OpExtInst %v{n}uint %std shuffle %x %k\n"
            + f"%r2 = OpExtInst %v{n}uint %std shuffle2 %x %y %k\n"
            + st("o1", "gid", f"v{n}uint", "r1") + st("o2", "gid", f"v{n}uint", "r2"))
    k = simple([("a", f"pCW_v{m}uint"), ("b", f"pCW_v{m}uint"), ("c", f"pCW_v{n}uint"), ("o1", f"pCW_v{n}uint"),
                ("o2", f"pCW_v{n}uint")], body, imports=STD)
    count = 64
    rng = np.random.default_rng(m * 100 + n)
    a, b = aligned_zeros((count, m), np.uint32), aligned_zeros((count, m), np.uint32)
    a[:] = rng.integers(0, 1 << 32, size=(count, m))
    b[:] = rng.integers(0, 1 << 32, size=(count, m))
    c = aligned_zeros((count, n), np.uint32)
    c[:] = rng.integers(0, 1 << 32, size=(count, n))   # high bits set: only the low ones count
    o1, o2 = aligned_zeros((count, n), np.uint32), aligned_zeros((count, n), np.uint32)
    k(count, None, a, b, c, o1, o2, unchecked=unchecked)
    both = np.concatenate([a, b], axis=1)
    rows = np.arange(count)[:, None]
    assert np.array_equal(o1, a[rows, c % m])
    assert np.array_equal(o2, both[rows, c % (2 * m)])


@MODES
def test_shuffle_constant_mask_and_float_elements(unchecked):
    types = "%mask = OpConstantComposite %v4uint %uint_7 %uint_0 %uint_0xffffffff %uint_2"
    body = (ld("x", "v4float", "a", "gid") + ld("y", "v4float", "b", "gid")
            + "%r1 = OpExtInst %v4float %std shuffle %x %mask\n"
            + "%r2 = OpExtInst %v4float %std shuffle2 %x %y %mask\n"
            + st("o1", "gid", "v4float", "r1") + st("o2", "gid", "v4float", "r2"))
    k = simple([("a", "pCW_v4float"), ("b", "pCW_v4float"), ("o1", "pCW_v4float"), ("o2", "pCW_v4float")], body,
               imports=STD, types=types)
    a, b, o1, o2 = (aligned_zeros((8, 4), np.float32) for _ in range(4))
    a[:] = np.arange(32).reshape(8, 4)
    b[:] = -np.arange(32).reshape(8, 4)
    k(8, None, a, b, o1, o2, unchecked=unchecked)
    assert np.array_equal(o1, a[:, [3, 0, 3, 2]])
    assert np.array_equal(o2, np.concatenate([a, b], axis=1)[:, [7, 0, 7, 2]])


@MODES
def test_prefetch_is_a_no_op_that_never_faults(unchecked):
    # prefetch of a range far beyond the buffer (and of a null pointer) must not fault.
    types = "%null = OpConstantNull %pCW_uint"
    body = ("%big = OpIAdd %ulong %gid %ulong_1000000\n"
            "%pf1 = OpExtInst %void %std prefetch %a %big\n"
            "%pf2 = OpExtInst %void %std prefetch %null %ulong_4\n"
            + ld("x", "uint", "a", "gid") + "%y = OpIAdd %uint %x %uint_1\n" + st("a", "gid", "uint", "y"))
    k = simple([("a", "pCW_uint")], body, imports=STD, types=types)
    a = np.arange(16, dtype=np.uint32)
    k(16, None, a, unchecked=unchecked)
    assert np.array_equal(a, np.arange(16) + 1)
