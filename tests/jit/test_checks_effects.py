"""What a finding does to the launch: the offending access is skipped (a read-only array and a
NULL buffer are never touched, the process never crashes), the rest of the launch runs; and
what the checks cost when they are off (nothing is compiled in)."""

from __future__ import annotations

import numpy as np
import pytest

import spirvkit
from spirvkit.jit.compiler import lower_kernel
from spirvkit.spirv.module import Module

SOURCE = r"""
kernel void writes(global int *ro, global int *out) {
  size_t i = get_global_id(0);
  ro[i] = 1;
  atomic_add(ro + i, 5);
  out[i] = ro[i] + 1;
}

kernel void copies_in(global int *ro, global int *out) {
  local int tmp[16];
  tmp[get_local_id(0)] = 9;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(ro + 16 * get_group_id(0), tmp, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = 2;
}

kernel void null_everywhere(global int *p, global float4 *v, global int *out) {
  size_t i = get_global_id(0);
  p[i] = 1;
  v[i] = (float4)(1.0f);
  out[i] = p[i] + atomic_inc(p) + (int)v[i].x;
}

kernel void barrier_in_loop(global int *out, int n) {
  local int tmp[8];
  int acc = 0;
  for (int k = 0; k <= (int)get_local_id(0) % 2 + n; k++) {
    tmp[get_local_id(0)] = k;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += tmp[0];
  }
  out[get_global_id(0)] = acc;
}
"""


@pytest.fixture(scope="module")
def program():
    return spirvkit.Program(spirvkit.compile_cl(SOURCE, ["-g", "-cl-std=CL2.0"], filename="effects.cl"))


def _read_only(n, value=0):
    a = np.full(n, value, np.int32)
    a.flags.writeable = False
    return a


def test_writes_to_read_only_memory_never_happen(program):
    ro = np.frombuffer(bytes(64 * 4), np.int32)    # really read-only memory: a write would crash
    assert not ro.flags.writeable
    out = np.zeros(64, np.int32)
    findings = program.kernel("writes")(64, 16, ro, out, report=True)
    assert [(f.kind, f.instruction.split()[0], f.count) for f in findings] == [
        ("access", "OpStore", 64), ("access", "OpAtomicIAdd", 64)]
    assert (out == 1).all() and not ro.any()


def test_async_copy_into_read_only_memory_is_skipped(program):
    ro, out = _read_only(32, 4), np.zeros(32, np.int32)
    [f] = program.kernel("copies_in")(32, 16, ro, out, report=True)
    assert (f.kind, f.instruction.split()[0], f.count) == ("access", "OpGroupAsyncCopy", 2)
    assert (ro == 4).all() and (out == 2).all()
    assert program.kernel("copies_in")(32, 16, w := np.zeros(32, np.int32), out, report=True) == []
    assert (w == 9).all()                                    # the clean twin copies


def test_null_buffers_are_never_dereferenced(program):
    out = np.zeros(8, np.int32)
    findings = program.kernel("null_everywhere")(8, 8, None, None, out, checks={"pointers"}, report=True)
    assert {(f.what, f.instruction.split()[0]) for f in findings} == {
        ("null dereference", "OpStore"), ("null dereference", "OpLoad"), ("null dereference", "OpAtomicIIncrement")}
    assert all(f.count == 8 and f.offset is not None for f in findings)
    assert (out == 0).all()   # the skipped loads and the atomic give 0


def test_unchecked_still_takes_none_and_runs_a_kernel_that_tests_it():
    p = spirvkit.Program(spirvkit.compile_cl(
        "kernel void k(global int *p, global int *o) { o[get_global_id(0)] = p ? p[0] : 3; }"))
    out = np.zeros(4, np.int32)
    p.kernel("k")(4, None, None, out, unchecked=True)
    assert (out == 3).all()
    with pytest.raises(spirvkit.KernelArgumentError, match=r"argument 1 \('o'\).*numpy array, not str \(or None for a NULL buffer\)"):
        p.kernel("k")(4, None, None, "x")


def test_barrier_divergence_in_a_loop_still_finishes(program):
    out = np.zeros(16, np.int32)
    [f] = program.kernel("barrier_in_loop")(16, 8, out, 2, checks={"barriers"}, report=True, timeout=20)
    assert f.what == "barrier divergence" and f.count == 2    # once per work-group
    assert f.global_id[0] % 2 == 1 and f.other_global_id[0] % 2 == 0


@pytest.mark.parametrize("name", ["writes", "copies_in", "null_everywhere", "barrier_in_loop"])
def test_checks_off_compile_nothing_in(name):
    """The default (bounds-only) and report builds contain none of the checks' code, which a
    build with checks does."""
    module = Module.from_bytes(spirvkit.compile_cl(SOURCE, ["-cl-std=CL2.0"]))
    for report in (False, True):
        text, ml, _ = lower_kernel(module, name, True, report_faults=report)
        assert "spirvkit.check." not in text and ml.check_passes is None
        assert not any(s.kind in ("barrier", "null dereference", "misaligned", "read-only write") for s in ml.sites)
    text, ml, _ = lower_kernel(module, name, True, checks=frozenset({"barriers", "pointers", "access"}))
    assert "spirvkit.check.finding" in text
