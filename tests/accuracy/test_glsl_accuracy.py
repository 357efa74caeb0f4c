"""The GLSL.std.450 accuracy sweep (glsl_sweep.py) under pytest: 10^4 seeded inputs per
instruction through a GLCompute shader, each result within the Vulkan environment's bound
(glsl_bounds.py), the exact instructions exact; and the interval rules themselves."""

from __future__ import annotations

import numpy as np
import pytest

from spirvkit.jit.shader_glsl import MATRIX, OWN, REFUSED, SAME_AS_OPENCL
from spirvkit.spirv.grammar import load_grammar

from .glsl_bounds import Iv, allowed_error, hull
from .glsl_functions import CATALOGUE
from .glsl_sweep import SAMPLE_COUNT, measure

LD = np.longdouble


@pytest.mark.parametrize("name", [f.name for f in CATALOGUE])
def test_within_the_vulkan_bound(name):
    r = measure(name, SAMPLE_COUNT, seed=0)
    assert r.count >= SAMPLE_COUNT // 10, f"{name}: only {r.count} inputs checked"
    assert r.passed, f"{name}: worst {r.worst_ratio:.3g} x the allowed error:\n" + "\n".join(r.failures)
    if r.kind == "undefined":      # no bound to fail, but they are the OpenCL.std functions (<= 4 ulp)
        assert r.max_ulp <= 4, f"{name}: {r.max_ulp} ulp"


def test_every_float_instruction_of_the_set_is_swept_or_accounted_for():
    grammar = load_grammar().ext_inst_sets["GLSL.std.450"]
    implemented = set(SAME_AS_OPENCL) | set(OWN) | set(MATRIX) | {"Modf", "Frexp"}
    names = {d.opname for d in grammar.by_opcode.values()}
    swept = {f.name for f in CATALOGUE}
    not_float = {"SAbs", "SSign", "UMin", "SMin", "UMax", "SMax", "UClamp", "SClamp", "FindILsb", "FindSMsb",
                 "FindUMsb"}
    exact_elsewhere = {"Modf", "ModfStruct", "Frexp", "FrexpStruct", "Ldexp"} | {n for n in names if "ack" in n}
    assert names - swept - not_float - exact_elsewhere == set(REFUSED)
    assert swept <= implemented


def test_the_interval_rules():
    x = np.array([1.0, 3.0, 0.75], np.float32).astype(LD)
    third = Iv(x) / Iv.const(3.0, x)
    exact = x / 3
    # OpFDiv: 2.5 ulp either side of the quotient (computed with a rounded 3.0: exact here).
    ulp = np.array([2.0**-25, 2.0**-24, 2.0**-26], LD)   # at a power of two: the spacing below it
    np.testing.assert_allclose((exact - third.lo) / ulp, 2.5, rtol=1e-6)
    # Correct rounding may go either way: an inexact sum's interval is its two neighbours.
    s = Iv(np.array([1.0], LD)) + Iv(np.array([2.0**-30], LD))
    assert s.lo[0] == 1.0 and s.hi[0] == 1 + 2.0**-23
    # A division by an interval holding zero, a log of a negative: anything is permitted.
    assert (Iv(x) / Iv(np.array([-1, 0, 1], LD))).free[1]
    assert Iv(np.array([-1.0], LD)).log().free[0]
    e = allowed_error(exact, third)
    assert np.all(e > 0) and np.all(np.isfinite(e))
    wide = hull(Iv(np.array([1.0], LD)), Iv(np.array([2.0], LD)))
    assert (wide.lo[0], wide.hi[0]) == (1.0, 2.0)


def test_a_wrong_result_is_caught(monkeypatch):
    """The measure itself: a result one part in 2^10 off fails Exp's 3 + 2|x| ULP."""
    from . import glsl_sweep

    real = glsl_sweep.run

    def off(fn, args):
        with np.errstate(over="ignore"):
            return real(fn, args) * np.float32(1 + 2.0**-10)

    monkeypatch.setattr(glsl_sweep, "run", off)
    assert not measure("Exp", 2000, seed=0).passed
    assert not measure("Floor", 2000, seed=0).passed
