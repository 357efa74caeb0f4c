"""The accuracy sweep (tests/accuracy/sweep.py) as tests: the same code, on a seeded sample of
10^4 inputs per function and type by default, 10^6 in the slow variant (``pytest -m slow`` or
SPIRVKIT_FULL=1). A function fails when one input is beyond its full-profile bound; every edge
case must be exact.
"""

from __future__ import annotations


import numpy as np
import pytest

from spirvkit.jit.opencl_pointer_math import POINTER_MATH
from spirvkit.jit.opencl_std import SUPPORTED as _SUPPORTED

from . import edge_cases
from .functions import FUNCTIONS, swept_names
from .kernels import TYPES
from .sweep import CR_LIMIT, FULL_COUNT, SAMPLE_COUNT, measure
from .ulp import ulp_error
from full_run import require_full_run  # noqa: E402  (tests/ is on sys.path: conftest.py)

# What the lowering claims to implement: a sweep entry of one of these may not be unsupported.
SUPPORTED = _SUPPORTED | POINTER_MATH
PAIRS = [(name, t) for name in swept_names() for t in TYPES if FUNCTIONS[name].bounds[t] is not None]


def _check(result):
    if result.status == "unsupported":
        # Allowed only for what the lowering does not claim to implement.
        assert result.name not in SUPPORTED, result.note
        pytest.skip(f"not supported yet: {result.note}")
    assert result.count >= SAMPLE_COUNT
    assert result.passed, (f"{result.name} ({result.type}): max {result.max_ulp:.3g} ulp over the "
                           f"bound {result.bound}:\n" + "\n".join(result.failures))


@pytest.mark.parametrize("name,type_name", PAIRS, ids=[f"{n}-{t}" for n, t in PAIRS])
def test_within_bound(name, type_name):
    _check(measure(name, type_name, SAMPLE_COUNT, seed=0))


# The vector forms: the same sample through 2/3/4/8/16-lane vectors (the width cycling over the
# functions keeps the run short; lane-wise lowering is the same code for every width, and 3-lane
# vectors also test the 4-element memory layout).
WIDTHS = [(name, t, (2, 3, 4, 8, 16)[i % 5]) for i, (name, t) in enumerate(PAIRS)]


@pytest.mark.parametrize("name,type_name,width", WIDTHS, ids=[f"{n}-{t}-v{w}" for n, t, w in WIDTHS])
def test_vector_forms_within_bound(name, type_name, width):
    _check(measure(name, type_name, SAMPLE_COUNT, seed=2, width=width))


@pytest.mark.slow
@pytest.mark.parametrize("name,type_name", PAIRS, ids=[f"{n}-{t}" for n, t in PAIRS])
def test_within_bound_full(name, type_name, request):
    require_full_run(request, "full sweep")
    _check(measure(name, type_name, FULL_COUNT, seed=1))


def test_edge_cases_exact():
    results = edge_cases.check(list(TYPES))
    wrong = [f"{e.text} ({e.type}): expected {e.expected}, got {e.got}" for e in results if e.ok is False]
    assert not wrong, "\n".join(wrong)
    # Every case ran, except those of functions spirvkit does not implement yet.
    skipped = {e.text.split("(")[0] for e in results if e.ok is None}
    assert not skipped & SUPPORTED


def test_sweep_covers_the_grammar():
    """Every math instruction of the grammar is swept (a new one without an entry fails)."""
    names = swept_names()
    assert {"sin", "half_sin", "native_sin", "sincos", "remquo", "lgamma_r"} <= set(names)
    assert len(PAIRS) >= 3 * 67 + 28


def test_kernels_are_valid_spirv():
    """The sweep's generated modules pass spirv-val (one per operand signature and type)."""
    from jit.asm_kernel import check_valid

    from .kernels import assemble

    seen = set()
    for name, t in PAIRS:
        fn = FUNCTIONS[name]
        key = (fn.operands, fn.result, t)
        if key not in seen:
            seen.add(key)
            for width in (1, 16):
                check_valid(assemble(name, t, fn.operands, fn.result, width), "opencl2.2")
    assert len(seen) >= 10


def test_measurement_catches_errors():
    """The measure itself: one ulp off, a wrong zero sign, a NaN for a number, a finite value for
    an infinite reference are all caught; a correctly rounded result is within CR."""
    ref = np.array([1 / 3, 0.0, 2.0, np.inf, 1e300], dtype=np.longdouble)
    with np.errstate(over="ignore"):
        exact = ref.astype(np.float32)
    err = ulp_error(exact, ref, np.float32)
    assert err[0] <= 0.5 and err[1] == 0 and err[2] == 0 and err[3] == 0 and err[4] == 0
    off = np.array([np.nextafter(exact[0], np.float32(1)), -0.0, np.nan, 3e38, 3e38], np.float32)
    err = ulp_error(off, ref, np.float32)
    assert 0.5 < err[0] <= 1.5 and err[1] == np.inf and err[2] == np.inf and err[3] == np.inf
    assert err[4] > 1e6  # 3e38 for 1e300 (coarser ulps above the largest finite value)
    # The spec's ulp at a power of two is the spacing below it: the next value above is 2 ulps off.
    assert ulp_error(np.array([np.nextafter(np.float32(2), np.float32(3))]),
                     np.array([2], np.longdouble), np.float32)[0] == 2.0
    # Overflow allowance: inf for a reference just under the largest finite value passes.
    big = np.array([np.finfo(np.float32).max], np.longdouble)
    assert ulp_error(np.array([np.inf], np.float32), big, np.float32)[0] <= 1.0
    assert CR_LIMIT < 0.51
