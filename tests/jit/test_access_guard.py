"""Group guards (jit/access_guard.py): a work-group whose affine accesses the guard proves in
bounds runs without their checks; every other group keeps them.

The kernels below put the one bad access at a corner of the group's box of local ids (where
the guard evaluates offsets), or make the machine's 32/64-bit arithmetic wrap where the exact
value the guard computes would not: each must still fault, at the right work-item, with the
memory around the buffers untouched. In bounds, checked and unchecked runs agree.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spirvkit
from spirvkit.jit.compiler import lower_kernel

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "guard"
SOURCE = FIXTURES / "access_guard.cl"   # access_guard.spv: clang-15 -O2 (regenerate.sh there)


GUARD = 16   # words of zeros around each buffer: they must stay zero


@pytest.fixture(autouse=True)
def optimised_builds(monkeypatch):
    """Guards are built for the optimised tier (and large first launches): every launch here
    compiles that way (SPIRVKIT_JIT=optimized), or these tests would not test them."""
    monkeypatch.setenv("SPIRVKIT_JIT", "optimized")


@pytest.fixture(scope="module", params=["clang", "spirvkit-cc"])
def program(request):
    """The kernels as clang -O2 compiles them (SSA indices: the guard covers them) and as
    ``spirvkit cc`` does: both must fault where they should."""
    if request.param == "clang":
        return spirvkit.Program(FIXTURES / "access_guard.spv")
    return spirvkit.Program(SOURCE)


def _buffer(n):
    whole = np.zeros(n + 2 * GUARD, np.int32)
    return whole, whole[GUARD:GUARD + n]


def _untouched(whole, n):
    return not whole[:GUARD].any() and not whole[GUARD + n:].any()


def test_the_guard_covers_affine_accesses():
    program = spirvkit.Program(FIXTURES / "access_guard.spv")
    for name, guards in (("shift1d", 1), ("grid2d", 1), ("local_corner", 2)):
        text = lower_kernel(program.module, name, True, local_size=(8, 1, 1))[0]
        assert text.count("_guard\"(") >= guards + 1, name     # the definitions and their calls
        assert "_guard" not in lower_kernel(program.module, name, False, local_size=(8, 1, 1))[0]


# kernel, global size, local size, (buffer length, args) in bounds, the same out of bounds, and
# the faulting work-item
CASES = {
    "last_x": ("shift1d", 64, 16, (65, (1,)), (65, (2,)), (63, 0, 0)),
    "last_y": ("grid2d", (8, 8), (4, 4), (64, (8,)), (63, (8,)), (7, 7, 0)),
    "last_xyz": ("box3d", (4, 4, 4), (2, 2, 2), (64, (4, 4)), (63, (4, 4)), (3, 3, 3)),
    "first_negative": ("before", 32, 16, (32, (0,)), (32, (-1,)), (0, 0, 0)),
    "zext_wrap": ("zext_wrap", 16, 16, (16, (0,)), (16, (1,)), (0, 0, 0)),
    "sext_wrap": ("sext_wrap", 16, 16, (16, (0,)), (16, (0x7FFFFFFF,)), (1, 0, 0)),
    "mask_wrap": ("mask_wrap", 16, 16, (16, (0,)), (16, (1,)), (0, 0, 0)),
    "mul_wrap": ("mul_wrap", 16, 16, (16, (1,)), (16, (0x80000000,)), (1, 0, 0)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_in_bounds_checked_and_unchecked_agree(program, case):
    name, gsize, lsize, (n, good), _, _ = CASES[case]
    outs = []
    for unchecked in (False, True):
        whole, a = _buffer(n)
        program.kernel(name)(gsize, lsize, a, *good, unchecked=unchecked)
        assert _untouched(whole, n)
        outs.append(a.copy())
    assert (outs[0] == outs[1]).all() and outs[0].any()


@pytest.mark.parametrize("case", list(CASES))
def test_a_corner_out_of_bounds_still_faults(program, case):
    name, gsize, lsize, _, (n, bad), faulty = CASES[case]
    whole, a = _buffer(n)
    with pytest.raises(spirvkit.KernelFault) as info:
        program.kernel(name)(gsize, lsize, a, *bad)
    assert _untouched(whole, n)
    assert info.value.global_id == faulty


def test_a_value_shared_with_an_access_the_guard_gave_up_keeps_its_range_test(program):
    k = program.kernel("memo")
    whole, a = _buffer(16)
    b = np.zeros(256, np.int32)
    k(16, 16, a, b, 0)
    assert (a == 1).all() and _untouched(whole, 16)
    with pytest.raises(spirvkit.KernelFault) as info:
        k(16, 16, a, b, 1)
    assert info.value.global_id == (0, 0, 0) and _untouched(whole, 16)


def test_non_uniform_groups_and_global_offsets(program):
    """The last group of 50 items in groups of 16 has 2; with an offset of 3 the ids run from 3
    to 52: a buffer of 53 elements fits them all, 52 does not (only the last item faults)."""
    k = program.kernel("shift1d")
    for unchecked in (False, True):
        whole, a = _buffer(53)
        k(50, 16, a, 0, global_offset=(3,), unchecked=unchecked)
        assert (a[3:] == np.arange(3, 53) + 1).all() and not a[:3].any() and _untouched(whole, 53)
    whole, a = _buffer(52)
    with pytest.raises(spirvkit.KernelFault) as info:
        k(50, 16, a, 0, global_offset=(3,))
    assert info.value.global_id == (52, 0, 0) and _untouched(whole, 52)


def test_local_memory_corner_faults(program):
    k = program.kernel("local_corner")
    whole, out = _buffer(32)
    k(32, 16, out, spirvkit.LocalMemory(16 * 4), 0)
    assert (out == np.tile(np.arange(1, 17), 2)).all() and _untouched(whole, 32)
    with pytest.raises(spirvkit.KernelFault) as info:
        k(32, 16, out, spirvkit.LocalMemory(16 * 4), 1)
    assert info.value.global_id == (15, 0, 0) and _untouched(whole, 32)



HUGE_STRIDE = """
kernel void huge_stride(global int *o, long k) {
    o[(long)get_global_id(0) * k] = 1;
}
"""
# 28 * WRAP_7 = 2**64 + 12: in groups of 8, the byte offset 4 * k * 7 of the last work-item
# wraps to 12 in 64 bits, while work-item 1's, 4 * k, is about 2**64 / 7.
WRAP_7 = (2**64 + 12) // 28


@pytest.mark.parametrize("k", [WRAP_7, 1 << 60, -(1 << 60)])
def test_a_guard_number_beyond_64_bits_does_not_prove_the_group(k):
    """Offsets whose exact values leave 64 bits: with k = WRAP_7 the group's largest offset,
    wrapped to 64 bits, would look in bounds (12 bytes) and the group would run unchecked:
    work-item 1 would write about 2**61 bytes past the buffer (a crash). The guard must not
    prove the group (its products are bounded), and the per-item check faults at work-item 1."""
    prog = spirvkit.Program(spirvkit.compile_cl(HUGE_STRIDE, "-cl-std=CL2.0"))
    whole, a = _buffer(8)
    with pytest.raises(spirvkit.KernelFault, match="out-of-bounds write") as info:
        prog.kernel("huge_stride")(8, 8, a, np.int64(k))
    assert info.value.global_id == (1, 0, 0) and _untouched(whole, 8)
