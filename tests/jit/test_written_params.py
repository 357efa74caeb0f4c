"""Which pointer parameters a kernel may write through (jit/written_params.py), and what the races
check makes of it (runtime/race_shadow.py): a buffer no work-item writes gets no shadow, and its
races are still found wherever a write can reach it (the same array bound to a written
parameter, an overlapping view, a pointer whose origin is lost)."""

from __future__ import annotations

import numpy as np
import pytest

import spirvkit
from spirvkit.clc.compiler import compile_cl
from spirvkit.jit.abi import CONTEXT
from spirvkit.jit.written_params import store_only_parameters, written_parameters
from spirvkit.runtime.race_shadow import RaceShadow

SOURCE = r"""
kernel void vadd(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
kernel void saxpy(float s, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = s * x[i] + y[i];
}
kernel void shift(global const float *a, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i + 1];
}
void put(global float *p, size_t i) { p[i] = 1; }
kernel void through_helper(global float *a, global float *b, global float *c) {
  size_t i = get_global_id(0);
  put(i & 1 ? a : c, i);                 // a or c, through a helper: both written
  c[i] += b[i];
}
global float *pick(global float *p, global float *q, int k) { return k ? p : q; }
kernel void returned(global float *a, global float *b, global float *c) {
  *pick(a, b, get_global_id(0) & 1) = c[0];     // a helper's result: a or b
}
kernel void lost_origin(global float *a, global float *b, global long *c) {
  global float *p = (global float *)(c[0] + (long)a);   // made from an integer: anywhere
  *p = b[0];
}
kernel void builtin_outputs(global float *a, global float *b, global float *c, global float *d) {
  size_t i = get_global_id(0);
  c[i] = fract(a[i], b + i);             // fract writes its pointer argument
  vstore2(vload2(0, d), 1, c);           // vload reads, vstore writes
}
kernel void atomics(global int *a, global int *b, global int *c) {
  atomic_inc(a);
  c[0] = atomic_load((global atomic_int *)b);
}
kernel void copies(global float *dst, global const float *src, local float *tile) {
  event_t e = async_work_group_copy(tile, src, 16, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(dst, tile, 16, 0);
  wait_group_events(1, &e);
}
kernel void enqueues(global float *a, global const float *b) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                 ^{ a[0] = b[0]; });                      // the child writes a
}
kernel void stored_pointer(global float *a, global float *b) {
  global float *private_copy[1];
  private_copy[0] = a;                   // a pointer stored to memory, loaded back: anywhere
  *private_copy[0] = b[0];
}
kernel void with_barrier(global float *out, local float *t) {
  t[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[0];          // store-only, but a barrier orders work-items
}
"""


@pytest.fixture(scope="module")
def program():
    return spirvkit.Program(compile_cl(SOURCE, "-cl-std=CL2.0 -g"))     # (atomic_load: OpenCL C 2.0)


@pytest.mark.parametrize("name, written", [
    ("vadd", {2}),
    ("saxpy", {2}),
    ("shift", {1}),
    ("through_helper", {0, 2}),
    ("returned", {0, 1}),
    ("lost_origin", None),
    ("builtin_outputs", {1, 2}),
    ("atomics", {0, 2}),
    ("copies", {0, 2}),                  # dst, and the __local tile
    ("stored_pointer", None),
    ("enqueues", None),
])
def test_written_parameters(program, name, written):
    module = program.module
    entry = module.entry_point(name)
    fn = next(f for f in module.functions if f.id == entry.function)
    found = written_parameters(module, fn)
    assert (None if found is None else set(found)) == written


@pytest.mark.parametrize("name, store_only", [
    ("vadd", {2}),
    ("saxpy", set()),                    # y is read too
    ("shift", {1}),
    ("through_helper", set()),           # a store through a pointer to a or c; c is read too
    ("returned", {0, 1}),                # stores through a pointer to a or b, both store-only
    ("lost_origin", set()),              # a store that may reach any buffer
    ("builtin_outputs", set()),          # fract and vstore2 write through their pointers
    ("atomics", {2}),                    # c (its atomics' fences keep it full: check_races.py)
    ("copies", set()),                   # async copies: group functions
    ("stored_pointer", set()),
    ("enqueues", set()),
    ("with_barrier", set()),
])
def test_store_only_parameters(program, name, store_only):
    """The parameters whose races the compact records follow (jit/check_races.py)."""
    module = program.module
    entry = module.entry_point(name)
    fn = next(f for f in module.functions if f.id == entry.function)
    assert set(store_only_parameters(module, fn)) == store_only


def _shadow(regions, race_free, unwritten=None):
    """A RaceShadow attached to a context listing ``regions`` ((base, end) pairs)."""
    ctx = np.zeros(CONTEXT["_words"], np.int64)
    table = np.array(regions, np.uint64)
    ctx[CONTEXT["regions"]] = table.ctypes.data
    ctx[CONTEXT["region_count"]] = len(regions)
    shadow = RaceShadow(0, frozenset(race_free), unwritten)
    shadow.attach(ctx)
    return shadow


def test_race_free_regions_get_no_shadow():
    shadow = _shadow([(4096, 8192), (16384, 20480), (32768, 36864)], {4096, 16384})
    assert shadow.checked_bytes == 4096
    assert sorted(shadow.table[:, 0][shadow.table[:, 0] != 0]) == [32768]


def test_reads_skip_the_check_only_when_every_unwritten_buffer_is_race_free():
    regions = [(4096, 8192), (16384, 20480)]
    assert _shadow(regions, {4096}, frozenset({4096})).unwritten_free
    assert not _shadow(regions, {4096}, None).unwritten_free            # the kernel may write any
    # an unwritten buffer overlapping a written one keeps its shadow: its reads are checked
    assert not _shadow([(4096, 8192), (4100, 8196)], {4100}, frozenset({4100})).unwritten_free


def test_overlapping_regions_share_one_shadow():
    # Two views of one array (bases 4096 and 4100) and a race-free view inside them: one shadow
    # covering all three, every base in the table, the same record for the same address.
    shadow = _shadow([(4096, 8192), (4100, 8196), (4200, 4300)], {4200})
    assert shadow.checked_bytes == 8196 - 4096
    rows = {int(r[0]): r for r in shadow.table if r[0]}
    assert sorted(rows) == [4096, 4100, 4200]
    assert len({int(r[2]) for r in rows.values()}) == 1      # one delta: one shadow


def test_race_free_group_of_overlapping_regions():
    shadow = _shadow([(4096, 8192), (4100, 8196)], {4096, 4100})
    assert shadow.checked_bytes == 0 and not shadow.table[:, 0].any()


def _races(found):
    return [f for f in found if f.kind == "races"]


def test_race_between_overlapping_views_is_found(program):
    # c[i] = a[i] + b[i] with a = x[1:], c = x[:-1]: work-item i reads x[i + 1], which
    # work-item i + 1 writes. The views have different bases: one shadow must cover both.
    n = 1024
    x = np.zeros(n + 1, np.float32)
    found = _races(program.kernel("vadd")((n,), (64,), x[1:], x[1:], x[:-1], checks="races", report=True))
    assert found      # (which side is reported first depends on the order the groups ran)


def test_same_array_read_and_written_keeps_its_shadow(program):
    # y = s * x + y with x and y the same array: x's parameter is never written, y's is, and
    # they share a buffer: no race (each work-item its own element), outputs exact.
    y = np.arange(256, dtype=np.float32)
    assert program.kernel("saxpy")((256,), (64,), np.float32(2), y, y, checks="all", report=True) == []
    np.testing.assert_array_equal(y, np.arange(256, dtype=np.float32) * 3)


def test_shifted_alias_of_a_read_only_parameter_races(program):
    # saxpy with x = y[1:]: x's parameter is never written, but its buffer overlaps y's.
    n = 512
    y = np.ones(n + 1, np.float32)
    found = _races(program.kernel("saxpy")((n,), (64,), np.float32(2), y[1:], y[:-1], checks="races",
                                            report=True))
    assert found


def test_same_array_for_a_read_only_and_a_written_parameter_races(program):
    # shift with a and c the same array: work-item i reads x[i + 1], which work-item i + 1
    # writes. a's parameter is never written, but its buffer is c's.
    x = np.arange(257, dtype=np.float32)
    found = _races(program.kernel("shift")((256,), (64,), x, x, checks="races", report=True))
    assert found


def test_write_through_lost_origin_still_races(program):
    # The pointer is made from an integer: the analysis gives up, every buffer keeps its shadow,
    # and every work-item writing a[0] through it is a race.
    a = np.zeros(64, np.float32)
    b = np.ones(64, np.float32)
    c = np.zeros(1, np.int64)
    found = _races(program.kernel("lost_origin")((64,), (64,), a, b, c, checks="races", report=True))
    assert found and found[0].argument.startswith("argument 0")


def test_stopped_writes_to_read_only_buffers_are_race_free(program):
    # With the access check on, writes to a read-only array are stopped (a finding each): the
    # buffer is race-free, so the findings are the access check's, not races.
    a = np.zeros(64, np.float32)
    a.flags.writeable = False
    b = np.ones(64, np.float32)
    c = np.zeros(64, np.float32)
    found = program.kernel("through_helper")((64,), (64,), a, b, c, checks="all", report=True)
    assert {f.kind for f in found} == {"access"}
    assert not a.any()
