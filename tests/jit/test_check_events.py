"""The events check and async work-group copies under the checks (issue 18, jit/check_events.py):
planted faults -- a copy never waited for, a wait for the null event or for one already waited
for, work-items waiting for different events, a copy only some work-items reach, a copy partly
out of bounds, work-items touching a copy's memory before the group waits for it -- and their
clean twins (a wait, an event listed twice, chained copies, a double-buffered pipeline, strided copies,
more copies pending than the group's table keeps), with the outputs they must produce: the
same checked and unchecked for the clean kernels, and Oclgrind's for the faulty ones (a copy is
done where the group waits for it).

Kernels are OpenCL C compiled with ``spirvkit cc -g`` (the API's compile_cl with -g).
"""

from __future__ import annotations

import numpy as np
import pytest

import spirvkit
from jit.check_suite import compile_suite_file, location_line

SOURCE = r"""
kernel void unwaited(global const int *in, global int *out, local int *tmp) {
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);   // line 3
  out[get_global_id(0)] = in[get_global_id(0)] + 1;
}

kernel void waited(global const int *in, global int *out, local int *tmp) {
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[15 - get_local_id(0)];
}

kernel void waited_twice(global const int *in, global int *out, local int *tmp) {
  event_t e = async_work_group_copy(tmp, in, 16, 0);
  wait_group_events(1, &e);
  out[get_local_id(0)] = tmp[get_local_id(0)];
  wait_group_events(1, &e);                                                  // line 17
}

kernel void null_event(global int *out) {
  event_t e = 0;
  wait_group_events(1, &e);                                                  // line 22
  out[get_global_id(0)] = 1;
}

kernel void listed_twice(global const int *in, global int *out, local int *tmp) {
  event_t events[4];
  events[0] = async_work_group_copy(tmp, in, 1, 0);
  events[1] = events[0];
  events[2] = async_work_group_copy(tmp + 1, in + 1, 15, 0);
  events[3] = events[0];
  wait_group_events(4, events);
  out[get_local_id(0)] = tmp[15 - get_local_id(0)];
}

kernel void divergent_wait(global int *data, local int *tmp) {
  int i = get_local_id(0);
  event_t events[2];
  events[0] = async_work_group_copy(tmp, data, 1, 0);
  events[1] = async_work_group_copy(tmp + 1, data + 1, 1, 0);                // line 40
  wait_group_events(1, events + i);                                          // line 41
  data[1 - i] = tmp[i];
}

kernel void one_item_copies(global int *data, local int *tmp) {
  int i = get_local_id(0);
  event_t e = async_work_group_copy(tmp, data, get_local_size(0), 0);
  if (i == 0)
    e = async_work_group_copy(tmp, data, 1, e);                              // line 49
  wait_group_events(1, &e);
  data[get_local_size(0) - i - 1] = tmp[i];
}

kernel void partly_outside(local int *src, global int *dst) {
  int l = get_local_id(0);
  src[l] = l + 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(dst + 1, src, get_local_size(0), 0);     // line 58
  wait_group_events(1, &e);
}

kernel void target_written_first(global const int *in, global int *out, local int *tmp) {
  tmp[get_local_id(0)] = 0;
  event_t e = async_work_group_copy(tmp, in, 16, 0);                         // line 64
  wait_group_events(1, &e);
  out[get_local_id(0)] = tmp[get_local_id(0)];
}

kernel void source_written_while_pending(global int *out, local int *tmp) {
  tmp[get_local_id(0)] = (int)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, tmp, 16, 0);                        // line 72
  tmp[get_local_id(0)] = -1;
  wait_group_events(1, &e);
}

kernel void ordered(global int *out, local int *tmp) {
  tmp[get_local_id(0)] = (int)get_local_id(0);
  out[get_local_id(0)] = 7;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, tmp, 16, 0);
  wait_group_events(1, &e);
  out[get_local_id(0)] += 100;
  tmp[get_local_id(0)] = 0;
}

void fetch(local int *tile, global const int *in, int rows, event_t *e) {
  for (int r = 0; r < rows; r++)
    *e = async_work_group_copy(tile + 4 * r, in + 4 * r, 4, *e);
}

kernel void chained(global const int *in, global int *out, local int *tile) {
  event_t e = 0;
  fetch(tile, in + get_group_id(0) * 16, 4, &e);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[15 - get_local_id(0)];
}

kernel void strided(global const int *in, global int *out, local int *tile) {
  const size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  event_t e = async_work_group_strided_copy(tile, in + g, n, get_num_groups(0), 0);
  wait_group_events(1, &e);
  tile[l] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + g, tile, n, get_num_groups(0), 0);
  wait_group_events(1, &e);
}

kernel void many_pending(global const int *in, global int *out, local int *tile) {
  event_t events[40];
  for (int k = 0; k < 40; k++)
    events[k] = async_work_group_copy(tile + k, in + 39 - k, 1, 0);
  wait_group_events(40, events);
  out[get_local_id(0)] = tile[get_local_id(0)];
}

kernel void pipelined(global const int *in, global int *out, local int *tile) {
  const size_t l = get_local_id(0);
  int acc = 0;
  event_t e[2];
  e[0] = async_work_group_copy(tile, in, 16, 0);
  for (int k = 1; k <= 40; k++) {
    if (k < 40)
      e[k % 2] = async_work_group_copy(tile + 16 * (k % 2), in + 16 * k, 16, 0);
    wait_group_events(1, &e[(k - 1) % 2]);
    acc += tile[16 * ((k - 1) % 2) + l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[l] = acc;
}

kernel void many_waits(global const int *in, global int *out, local int *tile) {
  for (int k = 0; k < 100; k++) {
    event_t e = async_work_group_copy(tile, in + k, 1, 0);
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
      out[k] = tile[0] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("events") / "events.cl"
    path.write_text(SOURCE)
    return compile_suite_file(path)


def _line(f) -> int:
    return location_line(f.location)


def run(program, name, global_size, local_size, *args, checks="all"):
    return program.kernel(name)(global_size, local_size, *args, checks=checks, report=True)


def local(n):
    return spirvkit.LocalMemory(4 * n)


# ----- the events check ---------------------------------------------------------------------------

def test_a_copy_never_waited_for(program):
    data, out = np.arange(32, dtype=np.int32), np.zeros(32, np.int32)
    [f] = run(program, "unwaited", 32, 16, data, out, local(16))
    assert (f.kind, f.what, _line(f)) == ("events", "async copy never waited for", 3)
    assert f.global_id in ((0, 0, 0), (16, 0, 0)) and f.count == 2      # once per work-group
    assert "without waiting for the event of this async work-group copy" in f.message
    assert (out == data + 1).all()
    # Its clean twin, and the same kernel with the check off.
    assert run(program, "waited", 32, 16, data, out, local(16)) == []
    assert (out == data.reshape(2, 16)[:, ::-1].ravel()).all()
    assert run(program, "unwaited", 32, 16, data, out, local(16), checks={"races", "barriers"}) == []


def test_waits_for_invalid_events(program):
    data, out = np.arange(16, dtype=np.int32), np.zeros(16, np.int32)
    [f] = run(program, "waited_twice", 16, 16, data, out, local(16))
    assert (f.kind, f.what, _line(f)) == ("events", "wait for an invalid event", 17)
    assert "already waited for" in f.message
    assert (out == data).all()
    [f] = run(program, "null_event", 16, 16, out)
    assert (f.kind, _line(f)) == ("events", 22)
    assert (out == 1).all()
    # An event listed twice in one wait is fine (Oclgrind agrees).
    assert run(program, "listed_twice", 16, 16, data, out, local(16)) == []
    assert (out == data[::-1]).all()


def test_work_items_waiting_for_different_events(program):
    """Oclgrind's wait_event_divergent: the group waits for the first work-item's event, so the
    other copy is never done (nor waited for)."""
    data = np.arange(2, dtype=np.int32)
    found = run(program, "divergent_wait", 2, 2, data, local(2))
    assert {(f.kind, _line(f)) for f in found} == {("barriers", 41), ("events", 40)}
    [barrier] = [f for f in found if f.kind == "barriers"]
    assert {barrier.global_id, barrier.other_global_id} == {(0, 0, 0), (1, 0, 0)}
    assert list(data) == [0, 0]


def test_a_copy_only_one_work_item_reaches(program):
    """Oclgrind's async_copy_single_wi: the others wait for it at the wait, so it is done before
    they read the destination."""
    data = np.arange(4, dtype=np.int32)
    [f] = run(program, "one_item_copies", 4, 4, data, local(4))
    assert (f.kind, _line(f)) == ("barriers", 49)
    assert list(data) == [3, 2, 1, 0]


def test_a_copy_partly_out_of_bounds_copies_what_is_inside(program):
    """Oclgrind's async_copy_out_of_bounds: the element past the end is not written, the
    others are (with or without checks beyond bounds)."""
    dst = np.zeros(4, np.int32)
    found = run(program, "partly_outside", 4, 4, local(4), dst)
    assert [(f.kind, _line(f)) for f in found] == [("bounds", 58)]
    assert list(dst) == [0, 10, 11, 12]
    dst[:] = 0
    with pytest.raises(spirvkit.KernelFault):
        program.kernel("partly_outside")(4, 4, local(4), dst)
    assert list(dst) == [0, 10, 11, 12]


# ----- races with the copy ------------------------------------------------------------------------

def test_work_items_touching_a_pending_copy_race_with_it(program):
    data, out = np.arange(16, dtype=np.int32), np.zeros(16, np.int32)
    [f] = run(program, "target_written_first", 16, 16, data, out, local(16))
    assert (f.kind, _line(f), f.space) == ("races", 64, "local")
    assert f.message.startswith("an async work-group copy") and "a write by work-item" in f.message
    assert (out == data).all()
    [f] = run(program, "source_written_while_pending", 16, 16, out, local(16))
    assert (f.kind, _line(f), f.space) == ("races", 72, "local")
    # Its clean twin: a barrier before the copy, the wait before the accesses after it.
    assert run(program, "ordered", 16, 16, out, local(16)) == []
    assert (out == np.arange(16) + 100).all()


# ----- clean kernels: the same outputs checked and unchecked ---------------------------------------

CLEAN = [
    ("chained", 32, 16, lambda: [np.arange(32, dtype=np.int32), np.zeros(32, np.int32), local(16)]),
    ("strided", 64, 16, lambda: [np.arange(64, dtype=np.int32), np.zeros(64, np.int32), local(16)]),
    ("many_pending", 8, 8, lambda: [np.arange(40, dtype=np.int32), np.zeros(8, np.int32), local(40)]),
    ("pipelined", 16, 16, lambda: [np.arange(640, dtype=np.int32), np.zeros(16, np.int32), local(32)]),
    ("many_waits", 16, 16, lambda: [np.arange(100, dtype=np.int32), np.zeros(100, np.int32), local(1)]),
]


@pytest.mark.parametrize("name,gsize,lsize,make", CLEAN, ids=[c[0] for c in CLEAN])
def test_clean_kernels_report_nothing_and_compute_the_same(program, name, gsize, lsize, make):
    k = program.kernel(name)
    outputs = []
    for options in ({"unchecked": True}, {}, {"checks": "all", "report": True}):
        args = make()
        found = k(gsize, lsize, *args, **options)
        assert not found, "\n".join(f.summary() for f in found)
        outputs.append([a for a in args if isinstance(a, np.ndarray)])
    for other in outputs[1:]:
        for a, b in zip(outputs[0], other):
            assert (a == b).all()
    expected = {"chained": lambda i: i.reshape(2, 16)[:, ::-1].ravel(),
                "strided": lambda i: i + 1,
                "many_pending": lambda i: i[::-1][:8],
                "pipelined": lambda i: i.reshape(40, 16).sum(axis=0),
                "many_waits": lambda i: 2 * i}[name]
    assert (outputs[2][1] == expected(outputs[2][0])).all()


# ----- selection ----------------------------------------------------------------------------------

def test_events_is_a_check_of_its_own_and_part_of_all(program):
    from spirvkit.runtime.check_findings import launch_checks

    assert "events" in launch_checks("all", False)
    assert launch_checks("events", False) == {"events"}
    data, out = np.arange(32, dtype=np.int32), np.zeros(32, np.int32)
    [f] = run(program, "unwaited", 32, 16, data, out, local(16), checks={"events"})
    assert f.kind == "events"
    with pytest.raises(spirvkit.KernelCheckError) as info:
        program.kernel("unwaited")(32, 16, data, out, local(16), checks="events")
    assert "[events] async copy never waited for" in str(info.value)


def test_cli_check_events(tmp_path):
    from jit.test_checks_framework import _cli

    (tmp_path / "e.cl").write_text(SOURCE)
    assert _cli("cc", "-g", "-cl-std=CL2.0", "e.cl", "-o", "e.spv", cwd=tmp_path).returncode == 0
    r = _cli("run", "e.spv", "-k", "unwaited", "--global", "32", "--local", "16", "-a", "range:32:int32",
             "-a", "zeros:32:int32", "-a", "local:64", "--check", "events", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.splitlines()[:3] == [
        "e.cl:3:3: error: async copy never waited for in kernel 'unwaited', work-item (0, 0, 0) [check: events]",
        "  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);   // line 3",
        "  ^"]
    r = _cli("run", "e.spv", "-k", "unwaited", "--global", "32", "--local", "16", "-a", "range:32:int32",
             "-a", "zeros:32:int32", "-a", "local:64", "--check", "events,nonsense", cwd=tmp_path)
    assert r.returncode != 0 and "events" in r.stderr and "nonsense" in r.stderr
