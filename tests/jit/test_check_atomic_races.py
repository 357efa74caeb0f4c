"""The races check on atomics (issue 18, jit/check_races.py): plain accesses that race with other
work-items' atomics although the shadow's record names only the last work-item to touch a
granule -- the last of a group's atomic increments then reading the counter plainly (work-items
run one after another, so the record names the reader itself), and a counter initialised
plainly before a barrier that orders only its own group's atomics, not another group's -- and
the clean twins that must report nothing: the same with the barrier that orders them, each group
its own counter, a failed compare-exchange against plain reads (it does not write), disjoint
bytes of one word written by different groups over several intervals, atomics-only reductions,
and a last-group hand-over through acquire/release atomics.

Kernels are this file's own OpenCL C, compiled with ``spirvkit.compile_cl`` (-g: OpLine).
"""

from __future__ import annotations

import numpy as np
import pytest
from jit.test_check_races import _line, races

import spirvkit

SOURCE = r"""
// ----- planted races ------------------------------------------------------------------------
kernel void count_then_read(global int *counter, global int *out) {
  atomic_inc(counter);
  if (get_local_id(0) == get_local_size(0) - 1)
    out[0] = *counter;                              // the others' increments race: line 6
}

kernel void count_then_reset(global int *counter) {
  atomic_inc(counter);
  if (get_local_id(0) == get_local_size(0) - 1)
    *counter = 0;                                   // line 12
}

int bump(local int *n) { return atomic_add(n, 2); }

kernel void local_count_then_read(global int *out) {
  local int n;
  if (get_local_id(0) == 0)
    n = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 2; k++)
    bump(&n);
  if (get_local_id(0) == get_local_size(0) - 1)
    out[get_group_id(0)] = n;                       // no barrier after the increments: line 25
}

kernel void read_then_others_count(global int *counter, global int *out) {
  atomic_inc(counter);
  if (get_local_id(0) == 0)
    out[0] = *counter;                              // line 31
}

kernel void init_then_count(global int *counter) {
  if (get_global_id(0) == 0)
    *counter = 0;                                   // line 36
  barrier(CLK_GLOBAL_MEM_FENCE);                    // orders group 0 only
  atomic_inc(counter);                              // line 38
}

kernel void read_then_count(global int *counter, global int *out) {
  if (get_global_id(0) == 0)
    out[0] = *counter;                              // line 43
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_inc(counter);                              // line 45
}

kernel void exchanged_then_read(global int *word, global int *out) {
  if (get_local_id(0) == 0)
    atomic_cmpxchg(word, 0, 9);                     // succeeds: it writes, line 50
  out[get_local_id(0)] = *word;                     // line 51
}

// ----- clean twins --------------------------------------------------------------------------
kernel void count_barrier_read(global int *counter, global int *out) {
  atomic_inc(counter);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == get_local_size(0) - 1)
    out[0] = *counter;
}

kernel void local_count_barrier_read(global int *out) {
  local int n;
  if (get_local_id(0) == 0)
    n = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 2; k++)
    bump(&n);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = n;
}

kernel void own_counter(global int *counters, global int *out) {
  size_t g = get_group_id(0);
  if (get_local_id(0) == 0)
    counters[g] = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_add(&counters[g], (int)get_local_id(0));
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[g] = counters[g];
}

kernel void failed_exchange(global int *word, global int *out) {
  if (get_local_id(0) == 0)
    atomic_cmpxchg(word, 1, 9);                     // the word is 0: it fails, writing nothing
  out[get_local_id(0)] = *word;
}

kernel void group_bytes(global uchar *bytes) {
  size_t g = get_group_id(0);                       // one work-item per group: group g owns byte g
  bytes[g] = (uchar)g;
  barrier(CLK_GLOBAL_MEM_FENCE);
  bytes[g] += 1;
}

kernel void group_sums(global const int *data, global int *total, local int *sums) {
  size_t l = get_local_id(0), n = get_local_size(0);
  sums[l] = data[get_global_id(0)];
  for (size_t s = n / 2; s > 0; s /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < s)
      sums[l] += sums[l + s];
  }
  if (l == 0)
    atomic_add(total, sums[0]);
}

kernel void last_group_adds(global const int *data, global int *partial, global atomic_uint *ticket,
                            global int *total) {
  size_t g = get_group_id(0), groups = get_num_groups(0);
  if (get_local_id(0) == 0) {
    int s = 0;
    for (size_t k = 0; k < get_local_size(0); k++)
      s += data[g * get_local_size(0) + k];
    partial[g] = s;
    uint taken = atomic_fetch_add_explicit(ticket, 1u, memory_order_acq_rel, memory_scope_device);
    if (taken == groups - 1) {
      int t = 0;
      for (size_t h = 0; h < groups; h++)
        t += partial[h];
      *total = t;
    }
  }
}

kernel void tile_steps(global int *a, global int *b, int steps) {
  size_t l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  for (int t = 0; t < steps; t++) {                 // each group its own tile of both buffers
    global int *src = t & 1 ? b : a, *dst = t & 1 ? a : b;
    dst[base + l] = src[base + (l + 1) % n] + 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

kernel void tile_steps_halo(global int *a, global int *b, int steps) {
  size_t l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  for (int t = 0; t < steps; t++) {                 // the last work-item reads the next tile
    global int *src = t & 1 ? b : a, *dst = t & 1 ? a : b;
    dst[base + l] = src[(base + l + 1) % get_global_size(0)] + 1;   // line 140
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

kernel void flag_hand_over(global int *data, global atomic_int *flag, global int *out) {
  if (get_local_id(0) != 0)
    return;
  if (get_group_id(0) == 0) {                       // the writer: data, then the flag (release)
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  } else if (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 1) {
    out[0] = data[0];                               // ordered after the write: no race
  } else {
    out[0] = -1;                                    // (this group ran first)
  }
}

kernel void fence_hand_over(global int *data, global atomic_int *flag, global int *out) {
  if (get_local_id(0) != 0)
    return;
  if (get_group_id(0) == 0) {
    data[0] = 42;
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_device);
  } else if (atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device) == 1) {
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
    out[0] = data[0];
  } else {
    out[0] = -1;
  }
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("atomic_races") / "atomic_races.cl"
    path.write_text(SOURCE)
    return spirvkit.Program(spirvkit.compile_cl(SOURCE, ["-g", "-cl-std=CL2.0"], filename=str(path)))


# ----- planted races ----------------------------------------------------------------------------

@pytest.mark.parametrize("size", [2, 16])
def test_last_work_item_reads_the_counter(program, size):
    """The reader's own increment replaces the others' in the record: the record still says
    another work-item wrote the counter atomically in this interval."""
    counter, out = np.zeros(1, np.int32), np.zeros(1, np.int32)
    [f] = races(program, "count_then_read", size, size, counter, out)
    assert _line(f) == 6 and f.global_id == (size - 1, 0, 0) and f.other_global_id is None
    assert f.space == "global" and f.offset == 0 and f.size == 4
    assert f.message.startswith("a read of 4 byte(s)")
    assert "conflicts with an atomic write by another work-item" in f.message
    assert counter[0] == size and out[0] == size


def test_last_work_item_resets_the_counter(program):
    counter = np.zeros(1, np.int32)
    [f] = races(program, "count_then_reset", 16, 16, counter)
    assert _line(f) == 12 and f.global_id == (15, 0, 0) and f.message.startswith("a write of 4 byte(s)")
    assert counter[0] == 0


def test_local_counter_through_a_helper_in_a_loop(program):
    out = np.zeros(4, np.int32)
    found = races(program, "local_count_then_read", 64, 16, out)
    assert {_line(f) for f in found} == {25} and found[0].space == "local"
    assert found[0].global_id[0] % 16 == 15
    assert (out == 64).all()


def test_first_work_item_reads_before_the_others_count(program):
    """The reader is the record's work-item when the others' increments come: it is named."""
    counter, out = np.zeros(1, np.int32), np.zeros(1, np.int32)
    [f] = races(program, "read_then_others_count", 16, 16, counter, out)
    assert f.global_id == (1, 0, 0) and f.other_global_id == (0, 0, 0)
    assert "conflicts with an atomic write and a read by work-item (0, 0, 0)" in f.message
    assert counter[0] == 16 and out[0] == 1


def _between_groups(found, plain_line: int, atomic_line: int, plain_kind: str):
    """Groups run in whichever order the worker threads take them: the group that does the
    plain access either meets another group's atomics in the record, or leaves its access in
    the record's group history for the other group's atomics to meet."""
    assert found and {_line(f) for f in found} <= {plain_line, atomic_line}
    for f in found:
        if _line(f) == atomic_line:   # against the history of group 0 (work-item 0's group)
            assert f.global_id[0] >= 4 and f.other_global_id is None
            assert f"conflicts with {plain_kind} by work-group (0, 0, 0), in another work-group" in f.message
        else:
            assert f.global_id == (0, 0, 0) and f.other_global_id[0] >= 4


@pytest.mark.parametrize("repeat", range(3))
def test_initialised_before_a_barrier_that_orders_one_group(program, repeat):
    counter = np.full(1, 5, np.int32)
    found = races(program, "init_then_count", 8, 4, counter)
    _between_groups(found, 36, 38, "a write")
    assert 4 <= counter[0] <= 8


@pytest.mark.parametrize("repeat", range(3))
def test_read_before_a_barrier_that_orders_one_group(program, repeat):
    counter, out = np.zeros(1, np.int32), np.zeros(1, np.int32)
    found = races(program, "read_then_count", 8, 4, counter, out)
    _between_groups(found, 43, 45, "a read")
    assert counter[0] == 8


def test_successful_exchange_against_plain_reads(program):
    word, out = np.zeros(1, np.int32), np.zeros(16, np.int32)
    found = races(program, "exchanged_then_read", 16, 16, word, out)
    assert found and {_line(f) for f in found} == {51}
    assert all(f.other_global_id == (0, 0, 0) for f in found)
    assert word[0] == 9


# ----- clean twins ------------------------------------------------------------------------------

def test_barrier_between_the_atomics_and_the_read(program):
    counter, out = np.zeros(1, np.int32), np.zeros(1, np.int32)
    assert races(program, "count_barrier_read", 16, 16, counter, out) == []
    assert counter[0] == 16 and out[0] == 16
    out = np.zeros(64, np.int32)
    assert races(program, "local_count_barrier_read", 64, 16, out) == []
    assert (out == 64).all()


def test_each_group_its_own_counter(program):
    counters, out = np.full(8, -1, np.int32), np.zeros(8, np.int32)
    assert races(program, "own_counter", 64, 8, counters, out) == []
    assert (out == 28).all()


def test_failed_exchange_does_not_write(program):
    word, out = np.zeros(1, np.int32), np.full(16, -1, np.int32)
    assert races(program, "failed_exchange", 16, 16, word, out) == []
    assert word[0] == 0 and (out == 0).all()


def test_groups_own_disjoint_bytes_over_several_intervals(program):
    data = np.zeros(16, np.uint8)
    assert races(program, "group_bytes", 16, 1, data) == []
    assert (data == np.arange(16) + 1).all()


def test_reduction_with_one_atomic_per_group(program):
    data = np.arange(1024, dtype=np.int32)
    total = np.zeros(1, np.int32)
    assert races(program, "group_sums", 1024, 64, data, total, spirvkit.LocalMemory(64 * 4)) == []
    assert total[0] == data.sum()


def test_groups_double_buffer_their_own_tiles(program):
    """Each group's history of plain accesses (every step's) meets no other group's."""
    a, b = np.arange(64, dtype=np.int32), np.zeros(64, np.int32)
    assert races(program, "tile_steps", 64, 8, a, b, np.int32(4)) == []
    expected = np.arange(64).reshape(8, 8)
    for _ in range(4):
        expected = np.roll(expected, -1, axis=1) + 1
    assert (a == expected.ravel()).all()


def test_groups_reading_each_others_tiles(program):
    a, b = np.arange(64, dtype=np.int32), np.zeros(64, np.int32)
    found = races(program, "tile_steps_halo", 64, 8, a, b, np.int32(4))
    assert found and {_line(f) for f in found} == {140}
    assert all(f.global_id[0] % 8 == 7 or f.global_id[0] % 8 == 0 for f in found)


def test_last_group_hand_over_through_acquire_release(program):
    data = np.arange(16 * 8, dtype=np.int32)
    partial, ticket, total = np.zeros(8, np.int32), np.zeros(1, np.uint32), np.zeros(1, np.int32)
    assert races(program, "last_group_adds", data.size, 16, data, partial, ticket, total) == []
    assert total[0] == data.sum() and ticket[0] == 8


@pytest.mark.parametrize("name", ["flag_hand_over", "fence_hand_over"])
def test_release_acquire_hand_over_between_groups(program, name):
    """Group 1 reads the data only after an acquire that read group 0's release: ordered (when
    group 1 runs first it reads nothing). The check leaves such kernels' groups unchecked
    against each other rather than follow every fence."""
    for _ in range(3):
        data, flag, out = np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(1, np.int32)
        assert races(program, name, 32, 16, data, flag, out) == []
        assert data[0] == 42 and flag[0] == 1 and out[0] in (42, -1)


def test_local_shadow_covers_the_kernels_local_memory_only(program, monkeypatch):
    """With the uninitialized check on too, the local block also holds that check's shadow of
    it: the races shadow covers the kernel's own local memory, not that shadow."""
    from spirvkit.runtime import race_shadow

    seen = []
    attach = race_shadow.RaceShadow.attach

    def spy(self, ctx):
        seen.append(self)
        return attach(self, ctx)

    monkeypatch.setattr(race_shadow.RaceShadow, "attach", spy)
    for checks in ({"races"}, "all", {"races", "uninitialized"}):
        out = np.zeros(64, np.int32)
        kernel = program.kernel("local_count_then_read")
        found = [f for f in kernel(64, 16, out, checks=checks, report=True) if f.kind == "races"]
        assert found and {_line(f) for f in found} == {25} and (out[:4] == 64).all()
    races_only, everything, two = (shadow.local_bytes for shadow in seen)
    assert 4 <= races_only == everything == two < 128
