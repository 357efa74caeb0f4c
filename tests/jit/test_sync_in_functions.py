"""Synchronisation anywhere in the call tree (issue 15, item 4): barriers, work-group and
sub-group collectives, async copies and group pipe reservations inside functions the kernel
calls, at depth 1 to 3, with the semantics they have in the kernel function itself.

The executor inlines the calls that reach a synchronisation point (jit/inline_sync.py) and runs
the kernel region by region. The kernels are tests/data/pipes/sync_in_functions.cl, compiled
by clang-15 at -O0 + llvm-spirv-15 (every helper stays a called function; command in
tests/data/pipes/README.md) and by ``spirvkit cc``; expected values come from Python models of
the collectives over each work-group (sub-group: consecutive local ids, the launch's size).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spirvkit
from jit.asm_kernel import build
from spirvkit.errors import KernelFault, NotSupportedError

DATA = Path(__file__).resolve().parents[1] / "data" / "pipes"


@pytest.fixture(scope="module", params=["clang", "cc"])
def program(request):
    if request.param == "clang":
        return spirvkit.Program(DATA / "sync_in_functions.spv")
    source = (DATA / "sync_in_functions.cl").read_text()
    return spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0", filename="sync_in_functions.cl"))


def test_the_clang_fixture_really_calls_its_helpers():
    module = spirvkit.Module.from_file(DATA / "sync_in_functions.spv")
    names = {module.name(f.id) for f in module.functions}
    assert {"level1", "level2", "level3", "fetch", "rotate_left", "sub_group_mix", "through", "emit_group"} <= names


def depth3_model(x: np.ndarray, local: int) -> np.ndarray:
    out = np.zeros_like(x)
    for g in range(0, len(x), local):
        group = x[g:g + local]
        n = len(group)
        for lid in range(n):
            out[g + lid] = sum(group[n - 1 - lid] + i + (group + i).sum() + 1000 * (lid + 1) for i in range(2))
    return out


@pytest.mark.parametrize("n,local", [(16, 8), (24, 6), (7, 7), (12, 12)])
@pytest.mark.parametrize("unchecked", [False, True])
def test_barriers_and_collectives_three_calls_deep(program, n, local, unchecked):
    x = (np.arange(n, dtype=np.int32) * 7) % 23
    out = np.zeros(n, np.int32)
    program.kernel("depth3")(n, local, x, out, spirvkit.LocalMemory(4 * local), unchecked=unchecked)
    assert out.tolist() == depth3_model(x, local).tolist()


@pytest.mark.parametrize("local", [4, 5, 8])
def test_async_copy_in_a_helper(program, local):
    n = local * 3
    src = np.arange(n, dtype=np.float32) * 1.5
    dst = np.zeros(n, np.float32)
    program.kernel("async_in_helper")(n, local, src, dst, spirvkit.LocalMemory(4 * local))
    t = src.reshape(3, local)
    expected = np.roll(t, -1, axis=1) + t[:, :1]
    assert dst.tolist() == expected.reshape(-1).tolist()


def test_async_copy_in_a_helper_is_bounds_checked(program):
    src = np.zeros(8, np.float32)
    with pytest.raises(KernelFault) as info:
        # The copy's destination, a local buffer of 2 floats, is smaller than the group.
        program.kernel("async_in_helper")(8, 4, src, np.zeros(8, np.float32), spirvkit.LocalMemory(8))
    assert "fetch" in str(info.value)   # the fault names the helper the copy is in


def sub_groups_model(x: np.ndarray, local: int, sub: int) -> np.ndarray:
    out = np.zeros_like(x)
    for g in range(0, len(x), local):
        group = x[g:g + local]
        flag = 1000000 if (group == 3).any() else 0
        for s in range(0, len(group), sub):
            part = group[s:s + sub]
            for k, v in enumerate(part):
                out[g + s + k] = part.max() * 100 + part[:k].sum() + part[0] * 10000 + flag
    return out


@pytest.mark.parametrize("local,sub", [(8, 4), (6, 4), (8, 8), (5, 1)])
def test_sub_group_and_work_group_collectives_two_calls_deep(program, local, sub):
    n = local * 3
    x = ((np.arange(n, dtype=np.int32) * 5) % 11) - 2
    out = np.zeros(n, np.int32)
    program.kernel("sub_groups_in_helper")(n, local, x, out, sub_group_size=sub)
    assert out.tolist() == sub_groups_model(x, local, sub).tolist()


def test_group_pipe_reservation_in_a_helper(program):
    pipe = spirvkit.Pipe(np.int32, 20)
    program.kernel("pipe_group_in_helper")(24, 8, pipe)   # 3 groups of 8: 2 reservations fit
    runs = [tuple(pipe.packets()[k:k + 8].tolist()) for k in (0, 8)]
    assert len(pipe) == 16
    assert all(run in [tuple(range(g * 24, g * 24 + 24, 3)) for g in range(3)] for run in runs)
    assert runs[0] != runs[1]


RECURSIVE = """
%rec = OpFunction %void None %fn_void_uint
%n = OpFunctionParameter %uint
%r0 = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
%more = OpINotEqual %bool %n %uint_0
OpBranchConditional %more %again %done
%again = OpLabel
%m = OpISub %uint %n %uint_1
%c = OpFunctionCall %void %rec %m
OpBranch %done
%done = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn_void
%e = OpLabel
%call = OpFunctionCall %void %rec %uint_2
OpReturn
OpFunctionEnd
"""


def test_recursion_through_a_barrier_is_refused_clearly():
    binary = build(RECURSIVE, types="%fn_void_uint = OpTypeFunction %void %uint", validate=False)
    with pytest.raises(NotSupportedError, match="recursion through rec, which synchronises the work-group"):
        spirvkit.Program(binary).kernel("main")(4, 4)
