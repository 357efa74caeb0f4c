"""Work-item loops LLVM vectorises (issue 19: the kernel benchmark's streaming and n-body
kernels): what spirvkit hands LLVM must not stop it, and the results stay right.

* A body inlined into a work-item loop has no ``noalias`` parameters: the inliner would put an
  ``llvm.experimental.noalias.scope.decl`` call in the loop, which makes LLVM doubt the loop is
  parallel and add run-time alias checks between the buffers (jit/kernel.py).
* A loop turned inside out (loop_cuts.py) keeps its float4 values one array per component in
  the work-item records, and the code after it in a region of its own: a vector-typed
  instruction anywhere in the loop's region kept its work-item loop scalar (regions.py).
* The innermost work-item loop of a build for a fixed local size stays a loop until the
  vectoriser has seen it: LLVM fully unrolled a 16-iteration row first and then vectorised the
  *rows* loop, with a gather per access (a branch-free 5-point stencil ran 10x slower than
  PoCL; jit/kernel.py).
* ``(i << 1) | 1``, clang's 2*i + 1, is affine for the group guard (access_guard.py), and a
  group that goes out of bounds through it still faults.

Fixture: tests/data/loops/work_item_loops.cl, compiled by regenerate.sh there (clang-15 -O2).
"""

from __future__ import annotations

import re
from pathlib import Path

import llvmlite.binding as llvm
import numpy as np
import pytest

import spirvkit
from spirvkit.errors import KernelFault
from spirvkit.jit import target
from spirvkit.jit.compiler import lower_kernel

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "loops" / "work_item_loops.spv"


@pytest.fixture(scope="module")
def program():
    return spirvkit.Program(FIXTURE)


def _optimised_ir(program, name: str, checked: bool, local_size) -> str:
    return _optimised_ir_of(program.module, name, checked, local_size)


def _optimised_ir_of(module, name: str, checked: bool, local_size) -> str:
    """The kernel's LLVM IR after the optimised (tier-2) pipeline."""
    text = lower_kernel(module, name, checked, local_size=local_size)[0]
    mod = llvm.parse_assembly(text)
    target._optimise(mod, target.target_machine(), "optimized")
    return str(mod)


@pytest.mark.parametrize("local_size", [None, (16, 4, 1)])
def test_the_stencil_loop_is_vectorised_without_alias_checks(program, local_size):
    # (Compiled for a fixed local size, the body's noalias parameters made LLVM add them.)
    ir = _optimised_ir(program, "stencil2d", False, local_size)
    assert "vector.body" in ir
    assert "vector.memcheck" not in ir


_ROWS = """kernel void rows(global const float *in, global float *out, uint width) {
  size_t i = (get_global_id(1) + 1) * width + get_global_id(0) + 1;
  out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}"""


@pytest.mark.parametrize("checked", [False, True])
@pytest.mark.parametrize("local_size", [(16, 16, 1), (8, 8, 1), (32, 4, 1)])
def test_a_fixed_size_row_is_vectorised_along_the_row(local_size, checked):
    module = spirvkit.Program(spirvkit.compile_cl(_ROWS)).module
    ir = _optimised_ir_of(module, "rows", checked, local_size)
    # (a row of one vector's length leaves no loop: LLVM folds the single vector iteration)
    assert re.search(r"= load <(8|16) x float>", ir)
    assert "masked.gather" not in ir and "masked.scatter" not in ir


def test_the_stencil_runs_right(program):
    w, h = 64, 48
    grid = np.random.default_rng(1).random((h, w), dtype=np.float32)
    want = np.zeros_like(grid)
    want[1:-1, 1:-1] = np.float32(0.5) * grid[1:-1, 1:-1] + np.float32(0.125) * (
        grid[1:-1, :-2] + grid[1:-1, 2:] + grid[:-2, 1:-1] + grid[2:, 1:-1])
    for unchecked in (False, True):
        out = np.zeros_like(grid)
        program.kernel("stencil2d")((w, h), (16, 4), grid, out, np.uint32(w), np.uint32(h), unchecked=unchecked)
        np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("checked", [False, True])
def test_the_float4_pair_loop_is_vectorised(program, checked):
    # The square root of the loop's body, on a vector: the work-item loop of the loop's
    # region was vectorised (before, it stayed scalar: llvm.sqrt.f32 only).
    ir = _optimised_ir(program, "pairs", checked, (64, 1, 1))
    assert "@llvm.sqrt.v" in ir


def test_the_float4_pair_loop_runs_right(program):
    n = 256
    rng = np.random.default_rng(2)
    pos = rng.uniform(-1.0, 1.0, (n, 4)).astype(np.float32)
    p = pos.astype(np.float64)
    d = p[None, :, :3] - p[:, None, :3]
    w = p[None, :, 3] * ((d * d).sum(axis=2) + 0.01) ** -1.5
    want = np.concatenate([(w[:, :, None] * d).sum(axis=1), p[:, 3:]], axis=1)
    for unchecked in (False, True):
        acc = np.zeros_like(pos)
        program.kernel("pairs")(n, 64, pos, acc, np.uint32(n), unchecked=unchecked)
        np.testing.assert_allclose(acc, want, rtol=1e-4, atol=1e-4)


def test_the_guard_covers_an_odd_index(program):
    text = lower_kernel(program.module, "odd", True, local_size=(8, 1, 1))[0]
    # Its definition and its call (a guard that covers no access is never called).
    assert text.count('spirvkit_body_guard"(') >= 2


def test_odd_elements_in_bounds_and_a_fault_out_of_bounds(program, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_JIT", "optimized")   # the guarded (tier-2) build
    n = 64
    data = np.arange(2 * n, dtype=np.int32)
    want = np.zeros(2 * n, np.int32)
    want[1::2] = data[1::2] + 1
    for unchecked in (False, True):
        out = np.zeros(2 * n, np.int32)
        program.kernel("odd")(n, 8, data, out, unchecked=unchecked)
        np.testing.assert_array_equal(out, want)
    # One element short: the last work-item's write is out of bounds; its group's guard fails
    # and the group runs with every check.
    whole = np.zeros(2 * n - 1 + 16, np.int32)
    out = whole[:2 * n - 1]
    with pytest.raises(KernelFault) as info:
        program.kernel("odd")(n, 8, data, out)
    assert info.value.global_id == (n - 1, 0, 0)
    assert not whole[2 * n - 1:].any()


@pytest.mark.parametrize("global_size", [(64, 24, 6), (63, 23, 5)], ids=["uniform", "non-uniform"])
def test_group_ids_counted_along_a_chunk_of_groups(program, global_size):
    # 1152 (960) groups: the workers take several at a time, crossing rows and planes of
    # groups; the last group of each dimension is smaller in the non-uniform range.
    local = (4, 2, 1)
    gx, gy, gz = global_size
    out = np.zeros(6 * gx * gy * gz, np.uint32)
    program.kernel("group_ids")(global_size, local, out)
    z, y, x = np.meshgrid(np.arange(gz), np.arange(gy), np.arange(gx), indexing="ij")
    want = np.zeros((gz, gy, gx, 6), np.uint32)
    for d, (ids, size, lsz) in enumerate(zip((x, y, z), global_size, local)):
        want[..., d] = ids // lsz
        want[..., 3 + d] = np.minimum(lsz, size - ids // lsz * lsz)
    np.testing.assert_array_equal(out.reshape(gz, gy, gx, 6), want)
