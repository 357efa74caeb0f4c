"""The OpenCL.std instructions with a pointer operand (spirvkit.jit.opencl_pointer_math), through
the executor: the second result lands where the pointer points (a private variable, a global
buffer), for scalars and vectors; the store is bounds-checked like an OpStore. Their accuracy
is measured by the sweep (tests/accuracy)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from jit.asm_kernel import GID, aligned, aligned_zeros, ld, simple, st

import spirvkit

STD = '%std = OpExtInstImport "OpenCL.std"'


def _private(name, t, ty):
    """A kernel out0[i] = name(x[i], &private), out1[i] = private."""
    body = f"%v = OpVariable %pFn_{ty} Function\n" + GID + ld("x", t, "a", "gid") + f"""
%r = OpExtInst %{t} %std {name} %x %v
%s = OpLoad %{ty} %v
""" + st("o0", "gid", t, "r") + st("o1", "gid", ty, "s")
    return simple([("a", f"pCW_{t}"), ("o0", f"pCW_{t}"), ("o1", f"pCW_{ty}")], body, gid=False,
                  imports=STD)


def test_sincos_vector_through_a_private_variable():
    k = _private("sincos", "v4float", "v4float")
    x = aligned(np.linspace(-10, 10, 64, dtype=np.float32).reshape(16, 4))
    s, c = aligned_zeros((16, 4), np.float32), aligned_zeros((16, 4), np.float32)
    k(16, None, x, s, c)
    np.testing.assert_allclose(s, np.sin(x), rtol=0, atol=2e-7)
    np.testing.assert_allclose(c, np.cos(x), rtol=0, atol=2e-7)


@pytest.mark.parametrize("t,dtype", [("double", np.float64), ("half", np.float16), ("float", np.float32)])
def test_frexp_scalar(t, dtype):
    k = _private("frexp", t, "uint")
    tiny = np.finfo(dtype).smallest_subnormal
    x = np.array([1.0, -3.0, 0.375, tiny, -0.0, np.inf, np.nan, 1000.0], dtype)
    m, e = np.zeros_like(x), np.zeros(8, np.uint32)
    k(8, None, x, m, e)
    ref_m, ref_e = np.frexp(x)
    ref_e = np.where(np.isfinite(x), ref_e, 0)
    np.testing.assert_array_equal(m, ref_m)
    assert np.signbit(m[4])
    np.testing.assert_array_equal(e.view(np.int32), ref_e)


def test_remquo_into_a_global_buffer():
    body = ld("x", "float", "a", "gid") + ld("y", "float", "b", "gid") + """
%q = OpInBoundsPtrAccessChain %pCW_uint %quo %gid
%r = OpExtInst %float %std remquo %x %y %q
""" + st("o", "gid", "float", "r")
    k = simple([("a", "pCW_float"), ("b", "pCW_float"), ("o", "pCW_float"), ("quo", "pCW_uint")],
               body, imports=STD)
    x = np.array([7.0, -7.0, 5.0, 1e30, 3.0, np.inf], np.float32)
    y = np.array([2.0, 2.0, -2.0, 3.0, 0.0, 1.0], np.float32)
    r, q = np.zeros(6, np.float32), np.zeros(6, np.uint32)
    k(6, None, x, y, r, q)
    for i in range(4):
        # The quotient x/y rounded to nearest even, exactly; remquo keeps its sign and low 7 bits.
        n = round(Fraction(float(x[i])) / Fraction(float(y[i])))
        assert r[i] == math.remainder(float(x[i]), float(y[i]))
        assert q.view(np.int32)[i] == math.copysign(abs(n) % 128, n)
    assert np.isnan(r[4]) and np.isnan(r[5]) and q[4] == 0 and q[5] == 0


def test_pointer_store_is_checked():
    """The store through the pointer operand faults like an OpStore when it is out of bounds."""
    body = ld("x", "float", "a", "gid") + """
%big = OpIAdd %ulong %gid %ulong_100
%p = OpInBoundsPtrAccessChain %pCW_float %c %big
%r = OpExtInst %float %std sincos %x %p
""" + st("o", "gid", "float", "r")
    k = simple([("a", "pCW_float"), ("o", "pCW_float"), ("c", "pCW_float")], body, imports=STD)
    with pytest.raises(spirvkit.KernelFault):
        k(4, None, np.zeros(4, np.float32), np.zeros(4, np.float32), np.zeros(4, np.float32))
