"""The races check (issue 18, jit/check_races.py): planted data races -- within a work-group in
local and global memory, between work-groups, write-write and read-write, atomic against plain,
through a helper function, in a loop -- each reported with both work-items, its memory, argument
and byte offset, and its OpenCL C line; and clean twins that must report nothing: barrier-
separated phases (a reduction tree, a scan, a double-buffered stencil), atomics only, disjoint
bytes of one word, each work-item its own element. The outputs stay what they are unchecked.

Kernels are OpenCL C compiled with ``spirvkit cc -g`` (the API's compile_cl with -g).
"""

from __future__ import annotations

import numpy as np
import pytest
from jit.test_checks_framework import _cli

import spirvkit
from jit.check_suite import compile_suite_file, location_line

SOURCE = r"""
// ----- planted races ------------------------------------------------------------------------
kernel void local_write_write(global int *out) {
  local int shared_value;
  shared_value = get_local_id(0);                  // every work-item writes it: line 5
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared_value >= 0;
}

kernel void local_read_write(global int *out) {
  local int t[64];
  size_t l = get_local_id(0);
  t[l] = l;                                         // line 13
  out[get_global_id(0)] = t[(l + 1) % get_local_size(0)];   // no barrier before: line 14
}

kernel void global_write_write(global int *out) {
  out[get_global_id(0) / 2] = 7;                    // two work-items, one element: line 18
}

kernel void global_same_value(global int *flag) {
  flag[0] = 1;                                      // the same value still races: line 22
}

kernel void between_groups(global int *out) {
  if (get_local_id(0) == 0)
    out[0] += get_group_id(0);                      // one work-item per group: line 27
}

kernel void between_groups_read(global int *data, global int *out) {
  size_t g = get_group_id(0), n = get_num_groups(0);
  if (get_local_id(0) == 0)
    data[g] = (int)g;                               // line 33
  out[get_global_id(0)] = data[(g + 1) % n];        // the next group's element: line 34
}

kernel void atomic_against_plain(global int *counter) {
  if (get_local_id(0) == 0)
    counter[0] = 100;                               // line 39
  else
    atomic_add(counter, 1);                         // line 41
}

void put(global int *p, int v) {
  *p = v;                                           // line 45
}

kernel void through_helper(global int *out) {
  put(&out[get_global_id(0) % 3], 1);
}

kernel void in_a_loop(global int *out, int n) {
  local int acc[16];
  size_t l = get_local_id(0);
  acc[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < n; k++)
    acc[(l + k) % 16] += 1;                         // neighbours meet from k = 1: line 58
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = acc[l];
}

kernel void wide_store(global float *out) {
  size_t i = get_global_id(0);
  vstore4((float4)(1.0f), 0, out + i * 2);          // 16 bytes, overlapping the next: line 65
}

kernel void reduce_no_barrier(global const int *in, global int *out) {
  local int t[64];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1)
    if (l < s)
      t[l] += t[l + s];                             // the barrier in the loop is missing: line 75
  if (l == 0)
    out[get_group_id(0)] = t[0];
}

// ----- clean twins --------------------------------------------------------------------------
kernel void vadd(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

kernel void local_broadcast(global int *out) {
  local int shared_value;
  if (get_local_id(0) == 0)
    shared_value = get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared_value;
}

kernel void local_exchange(global int *out) {
  local int t[64];
  size_t l = get_local_id(0);
  t[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[(l + 1) % get_local_size(0)];
}

kernel void reduce(global const int *in, global int *out) {
  local int t[64];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = t[0];
}

kernel void scan(global const int *in, global int *out) {
  local int buf[2][64];
  size_t l = get_local_id(0), n = get_local_size(0);
  int from = 0;
  buf[0][l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 1; d < n; d <<= 1) {
    int to = 1 - from;
    buf[to][l] = l >= d ? buf[from][l] + buf[from][l - d] : buf[from][l];
    barrier(CLK_LOCAL_MEM_FENCE);
    from = to;
  }
  out[get_global_id(0)] = buf[from][l];
}

kernel void stencil(global const float *in, global float *out, int steps) {
  local float a[66], b[66];
  local float *cur = a, *next = b;
  size_t l = get_local_id(0) + 1;
  cur[l] = in[get_global_id(0)];
  if (l == 1) { cur[0] = 0.0f; cur[65] = 0.0f; next[0] = 0.0f; next[65] = 0.0f; }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 0; s < steps; s++) {
    next[l] = 0.25f * cur[l - 1] + 0.5f * cur[l] + 0.25f * cur[l + 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    local float *t = cur; cur = next; next = t;
  }
  out[get_global_id(0)] = cur[l];
}

kernel void atomics_only(global int *counter, global int *hist, global const int *in) {
  atomic_add(counter, 1);
  atomic_inc(&hist[in[get_global_id(0)] & 7]);
  atomic_max(&counter[1], (int)get_global_id(0));
}

kernel void bytes(global uchar *out) {
  local uchar b[64];
  size_t l = get_local_id(0);
  b[l] = (uchar)(l * 3);                            // neighbours' bytes of one word
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = b[l ^ 1];
}

kernel void halves(global short *out) {
  out[get_global_id(0)] = (short)get_global_id(0);
}

kernel void local_per_group(global int *out) {
  local int t[64];                                  // reused by the groups a thread runs
  size_t l = get_local_id(0);
  t[l] = get_global_id(0);
  out[get_global_id(0)] = t[l] + 1;
}

kernel void last_group_sums(global const int *in, global int *partial, global uint *ticket,
                            global int *total) {
  // The fence-and-ticket hand-over between groups (a kernel with a global fence is checked
  // within groups only).
  local int t[64];
  local int last;
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) {
    partial[get_group_id(0)] = t[0];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    last = atomic_inc(ticket) == get_num_groups(0) - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (last && l == 0) {
    int s = 0;
    for (uint g = 0; g < get_num_groups(0); g++)
      s += partial[g];
    *total = s;
  }
}

kernel void transpose_tiled(global const float *in, global float *out, int n) {
  local float tile[8][9];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t gx = get_group_id(0) * 8, gy = get_group_id(1) * 8;
  tile[ly][lx] = in[(gy + ly) * n + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * n + gy + lx] = tile[lx][ly];
}

kernel void transpose_no_barrier(global const float *in, global float *out, int n) {
  local float tile[8][9];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t gx = get_group_id(0) * 8, gy = get_group_id(1) * 8;
  tile[ly][lx] = in[(gy + ly) * n + gx + lx];
  out[(gx + ly) * n + gy + lx] = tile[lx][ly];
}

kernel void fenced_phases(global int *g, global int *out, int flags) {
  local int t[16];
  size_t l = get_local_id(0);
  t[l] = (int)l;
  g[l] = (int)l;
  if (flags == 1)
    barrier(CLK_LOCAL_MEM_FENCE);
  else if (flags == 2)
    barrier(CLK_GLOBAL_MEM_FENCE);
  else
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[l] = t[15 - l] + g[15 - l];                   // line 227
}

kernel void copy_then_wait(global const int *in, global int *out) {
  local int t[16];
  event_t e = async_work_group_copy(t, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = t[15 - get_local_id(0)];
}

kernel void read_before_wait(global const int *in, global int *out) {
  local int t[16];
  event_t e = async_work_group_copy(t, in + get_group_id(0) * 16, 16, 0);
  out[get_global_id(0)] = t[15 - get_local_id(0)];  // line 240
  wait_group_events(1, &e);
}

kernel void write_source_before_wait(global int *out) {
  local int t[16];
  t[get_local_id(0)] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + get_group_id(0) * 16, t, 16, 0);
  t[get_local_id(0)] = 0;                           // line 249
  wait_group_events(1, &e);
}

kernel void strided_copy(global const int *in, global int *out) {
  local int t[16];
  event_t e = async_work_group_strided_copy(t, in + get_group_id(0), 16, get_num_groups(0), 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = t[get_local_id(0)];
}

kernel void write_after_shared_reads(global int *out, int n) {
  local int t[1];
  int x = 0;
  if (get_local_id(0) == 0)
    t[0] = 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < n; k++) {       // the group runs it turn by turn: all read, then 0 writes
    if (k == 1 && get_local_id(0) == 0)
      t[0] = 1;                       // line 268
    else
      x += t[0];                      // line 270
  }
  out[get_global_id(0)] = x;
}

kernel void many_buffers(global int *b0, global int *b1, global int *b2, global int *b3, global int *b4,
                         global int *b5, global int *b6, global int *b7, global int *b8, int racy) {
  size_t i = get_global_id(0);
  b0[i] = 0; b1[i] = 1; b2[i] = 2; b3[i] = 3; b4[i] = 4; b5[i] = 5; b6[i] = 6; b7[i] = 7;
  if (racy)
    b8[i / 2] = 8;                                  // line 280
  else
    b8[i] = 8;
}

kernel void private_scratch(global int *out) {
  int p[8];
  for (int k = 0; k < 8; k++)
    p[k] = k * (int)get_global_id(0);
  out[get_global_id(0)] = p[get_global_id(0) % 8];
}

// ----- store-only buffers (compact records), also passed for a parameter that reads ----------
kernel void copy_into(global const int *src, global int *dst) {
  dst[get_global_id(0)] = src[get_global_id(0)];
}

kernel void copy_halves(global const int *src, global int *dst) {
  dst[get_global_id(0) / 2] = src[get_global_id(0)];
}

kernel void store_bytes(global char *out) {
  out[get_global_id(0)] = 1;                        // neighbours store disjoint bytes of a word
}
"""



@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("races") / "races.cl"
    path.write_text(SOURCE)
    return compile_suite_file(path)


def _line(f) -> int:
    return location_line(f.location)


def races(program, name, global_size, local_size, *args):
    findings = program.kernel(name)(global_size, local_size, *args, checks={"races"}, report=True)
    assert all(f.kind == "races" and f.what == "data race" and f.kernel == name for f in findings)
    return findings


# ----- planted races ----------------------------------------------------------------------------

def test_local_write_write(program):
    out = np.zeros(128, np.int32)
    [f] = races(program, "local_write_write", 128, 64, out)
    assert _line(f) == 5 and f.space == "local" and f.offset == 0 and f.size == 4
    assert f.message.startswith("a write of 4 byte(s)") and "conflicts with a write by work-item" in f.message
    assert "same work-group with no barrier between them" in f.message
    # both sides named: two different work-items of one group
    assert f.other_global_id != f.global_id and f.other_global_id[0] // 64 == f.global_id[0] // 64
    assert f.count == 2 * 63      # every work-item but the first of each group
    assert (out == 1).all()


def test_local_read_write_both_directions(program):
    out = np.zeros(128, np.int32)
    found = {_line(f): f for f in races(program, "local_read_write", 128, 64, out)}
    assert set(found) == {13, 14}
    write, read = found[13], found[14]
    assert write.message.startswith("a write") and "conflicts with a read by" in write.message
    assert read.message.startswith("a read") and "conflicts with a write by" in read.message
    # work-item l + 1 writes what l read; 0 reads 63's element after it was written? no: 63
    # reads element 0, written by work-item 0 earlier in the same interval
    assert write.other_global_id[0] == write.global_id[0] - 1
    assert read.global_id[0] % 64 == 63 and read.other_global_id[0] % 64 == 0
    assert write.offset == 4 * (write.global_id[0] % 64)
    assert write.space == read.space == "local"


def test_global_write_write_names_the_argument_and_offset(program):
    out = np.zeros(32, np.int32)
    [f] = races(program, "global_write_write", 64, 16, out)
    assert _line(f) == 18 and f.space == "global" and f.argument == "argument 0 ('out', __global)"
    assert f.global_id[0] % 2 == 1 and f.other_global_id == (f.global_id[0] - 1, 0, 0)
    assert f.offset == 4 * (f.global_id[0] // 2) and f.count == 32
    assert f.instruction.startswith("OpStore at word ")
    assert (out == 7).all()


def test_writes_of_the_same_value_still_race(program):
    [f] = races(program, "global_same_value", 16, 16, np.zeros(1, np.int32))
    assert _line(f) == 22 and f.count == 15


def test_race_between_work_groups(program):
    out = np.zeros(1, np.int32)
    found = races(program, "between_groups", 8 * 32, 32, out)
    assert {_line(f) for f in found} == {27}
    assert all("in another work-group" in f.message for f in found)
    for f in found:
        assert f.global_id[0] % 32 == 0 and f.other_global_id[0] % 32 == 0
        assert f.global_id[0] // 32 != f.other_global_id[0] // 32
        assert f.argument == "argument 0 ('out', __global)" and f.offset == 0


def test_read_of_another_groups_element(program):
    data, out = np.zeros(8, np.int32), np.zeros(8 * 16, np.int32)
    found = races(program, "between_groups_read", 8 * 16, 16, data, out)
    assert found and all("in another work-group" in f.message for f in found)
    assert {_line(f) for f in found} <= {33, 34}
    for f in found:   # the element of group g is touched by groups g and g - 1 only
        g, h = f.global_id[0] // 16, f.other_global_id[0] // 16
        assert (g - h) % 8 in (1, 7)


def test_atomic_against_plain(program):
    counter = np.zeros(1, np.int32)
    found = {_line(f): f for f in races(program, "atomic_against_plain", 16, 16, counter)}
    assert set(found) == {41}      # work-item 0 stores first; the others' atomics meet its write
    [f] = found.values()
    assert f.message.startswith("an atomic access") and "conflicts with a write by work-item (0, 0, 0)" in f.message
    # (the first atomic replaces work-item 0's record: the others meet only atomics after it)
    assert f.count >= 1 and f.other_global_id == (0, 0, 0) and counter[0] == 115


def test_race_through_a_helper_function(program):
    out = np.zeros(3, np.int32)
    [f] = races(program, "through_helper", 12, 12, out)
    assert _line(f) == 45 and "function put" in f.instruction
    assert f.global_id[0] % 3 == f.other_global_id[0] % 3 and f.global_id != f.other_global_id
    assert f.count == 9


def test_race_in_a_loop(program):
    out = np.zeros(16, np.int32)
    assert races(program, "in_a_loop", 16, 16, out, np.int32(1)) == []   # one turn: each its own
    assert (out == 1).all()
    found = races(program, "in_a_loop", 16, 16, out, np.int32(3))
    assert {_line(f) for f in found} == {58} and (out == 3).all()
    assert all(f.space == "local" for f in found)


def test_a_wide_store_overlapping_the_next(program):
    out = np.zeros(2 * 16 + 2, np.float32)
    [f] = races(program, "wide_store", 16, 16, out)
    assert _line(f) == 65 and f.size == 16 and f.other_global_id == (f.global_id[0] - 1, 0, 0)


def test_reduction_without_its_barrier(program):
    data = np.arange(128, dtype=np.int32)
    found = races(program, "reduce_no_barrier", 128, 64, data, np.zeros(2, np.int32))
    assert {_line(f) for f in found} == {75}


def test_a_write_after_reads_by_several_work_items(program):
    """The record keeps one reader (work-item 0 itself here); the others' reads are kept as bytes
    read by someone: its write still races with them."""
    out = np.zeros(16, np.int32)
    assert races(program, "write_after_shared_reads", 16, 16, out, np.int32(1)) == []
    found = {_line(f): f for f in races(program, "write_after_shared_reads", 16, 16, out, np.int32(2))}
    assert set(found) == {268, 270}
    write = found[268]
    assert write.global_id == (0, 0, 0) and write.other_global_id is None
    assert "conflicts with a read by another work-item (its id was not kept)" in write.message
    assert found[270].other_global_id == (0, 0, 0)
    assert out[0] == 5 and (out[1:] == 6).all()


# ----- clean twins ------------------------------------------------------------------------------

def test_each_work_item_its_own_element(program):
    n = 4096
    a, b = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    assert races(program, "vadd", n, 64, a, b, c) == []
    assert (c == a + 1).all()


def test_barrier_separated_phases(program):
    out = np.zeros(256, np.int32)
    assert races(program, "local_broadcast", 256, 64, out) == []
    assert (out == np.repeat(np.arange(4), 64)).all()
    assert races(program, "local_exchange", 256, 64, out) == []
    assert (out == (np.arange(256) + 1) % 64).all()


def test_reduction_tree(program):
    data = np.arange(64 * 32, dtype=np.int32)
    out = np.zeros(32, np.int32)
    assert races(program, "reduce", data.size, 64, data, out) == []
    assert (out == data.reshape(32, 64).sum(axis=1)).all()


def test_scan(program):
    data = np.arange(64 * 8, dtype=np.int32) % 7
    out = np.zeros_like(data)
    assert races(program, "scan", data.size, 64, data, out) == []
    assert (out == np.cumsum(data.reshape(8, 64), axis=1).ravel()).all()


def test_double_buffered_stencil(program):
    data = np.random.default_rng(1).random(64 * 4).astype(np.float32)
    out = np.zeros_like(data)
    assert races(program, "stencil", data.size, 64, data, out, np.int32(5)) == []
    expected = np.zeros_like(data)
    program.kernel("stencil")(data.size, 64, data, expected, np.int32(5), unchecked=True)
    assert (out == expected).all()


def test_atomics_only(program):
    counter, hist = np.zeros(2, np.int32), np.zeros(8, np.int32)
    values = np.arange(1024, dtype=np.int32)
    assert races(program, "atomics_only", 1024, 64, counter, hist, values) == []
    assert counter[0] == 1024 and counter[1] == 1023 and (hist == 128).all()


def test_disjoint_bytes_of_one_word(program):
    out = np.zeros(256, np.uint8)
    assert races(program, "bytes", 256, 64, out) == []
    assert (out == ((np.arange(256) % 64 ^ 1) * 3).astype(np.uint8)).all()
    halves = np.zeros(256, np.int16)
    assert races(program, "halves", 256, 64, halves) == []
    assert (halves == np.arange(256)).all()


def test_local_memory_reused_by_the_groups_of_a_thread(program):
    """Local memory is one block per worker thread: what an earlier group left is stale."""
    out = np.zeros(64 * 64, np.int32)
    assert races(program, "local_per_group", out.size, 64, out) == []
    assert (out == np.arange(out.size) + 1).all()


def test_fence_hand_over_between_groups(program):
    data = np.arange(64 * 16, dtype=np.int32)
    partial, ticket, total = np.zeros(16, np.int32), np.zeros(1, np.uint32), np.zeros(1, np.int32)
    assert races(program, "last_group_sums", data.size, 64, data, partial, ticket, total) == []
    assert total[0] == data.sum()


def test_many_buffers_each_its_own_shadow(program):
    """Nine buffers in the region table (a hash table with collisions): each access finds its own."""
    buffers = [np.full(64, -1, np.int32) for _ in range(9)]
    assert races(program, "many_buffers", 64, 16, *buffers, np.int32(0)) == []
    assert all((buf == k).all() for k, buf in enumerate(buffers))
    [f] = races(program, "many_buffers", 64, 16, *buffers, np.int32(1))
    assert _line(f) == 280 and f.argument == "argument 8 ('b8', __global)"


def test_private_memory_is_not_shared(program):
    out = np.zeros(64, np.int32)
    assert races(program, "private_scratch", 64, 64, out) == []
    assert (out == np.arange(64) * (np.arange(64) % 8)).all()


def test_large_launch_on_several_threads(program):
    """Many groups over the worker threads: still no false alarm, still every race."""
    n = 1 << 16
    data = np.arange(n, dtype=np.int32) % 5
    out = np.zeros(n // 64, np.int32)
    assert races(program, "reduce", n, 64, data, out) == []
    assert (out == data.reshape(-1, 64).sum(axis=1)).all()
    out = np.zeros(n // 2, np.int32)
    [f] = races(program, "global_write_write", n, 64, out)
    assert f.count == n // 2


def test_two_dimensional_groups(program):
    n = 32
    data = np.arange(n * n, dtype=np.float32)
    out = np.zeros_like(data)
    assert races(program, "transpose_tiled", (n, n), (8, 8), data, out, np.int32(n)) == []
    assert (out.reshape(n, n) == data.reshape(n, n).T).all()
    found = races(program, "transpose_no_barrier", (n, n), (8, 8), data, out, np.int32(n))
    assert found and all(f.space == "local" for f in found)
    for f in found:   # both sides in one 8x8 group, told apart in both dimensions
        assert f.global_id[2] == 0 and f.other_global_id[2] == 0
        assert (f.global_id[0] // 8, f.global_id[1] // 8) == (f.other_global_id[0] // 8, f.other_global_id[1] // 8)
        assert f.global_id != f.other_global_id


def test_global_offset_and_a_partial_last_group(program):
    out = np.zeros(64, np.int32)
    found = program.kernel("global_write_write")(100, 16, out, global_offset=4, checks={"races"}, report=True)
    [f] = found
    assert f.global_id[0] >= 4 and f.other_global_id[0] >= 4
    assert f.global_id[0] // 2 == f.other_global_id[0] // 2 and f.global_id != f.other_global_id
    c = np.zeros(100, np.float32)
    assert races(program, "vadd", 100, 16, np.ones(100, np.float32), np.ones(100, np.float32), c) == []
    assert (c == 2).all()


def test_a_barrier_orders_only_the_memory_its_fence_names(program):
    """barrier(CLK_LOCAL_MEM_FENCE) does not order global memory, nor the global fence local."""
    g, out = np.zeros(16, np.int32), np.zeros(16, np.int32)
    assert races(program, "fenced_phases", 16, 16, g, out, np.int32(3)) == []
    assert (out == 2 * (15 - np.arange(16))).all()
    for flags, space in ((1, "global"), (2, "local")):
        found = races(program, "fenced_phases", 16, 16, g, out, np.int32(flags))
        assert {(_line(f), f.space) for f in found} == {(227, space)}
        assert (out == 2 * (15 - np.arange(16))).all()


def test_async_work_group_copies(program):
    data = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    assert races(program, "copy_then_wait", 64, 16, data, out) == []
    assert (out == (data.reshape(4, 16)[:, ::-1]).ravel()).all()
    assert races(program, "strided_copy", 64, 16, data, out) == []
    assert (out == data.reshape(16, 4).T.ravel()).all()
    # The group's copy is done, and its accesses recorded, where the group waits for its event
    # (check_events.py, as Oclgrind does): the race is found there, at the copy's line, naming
    # the work-item that touched its memory since the last barrier.
    [f] = races(program, "read_before_wait", 64, 16, data, out)
    assert _line(f) == 239 and f.space == "local" and f.other_global_id is not None
    assert f.message.startswith("an async work-group copy") and "conflicts with a read by work-item" in f.message
    [f] = races(program, "write_source_before_wait", 64, 16, out)
    assert _line(f) == 248 and "conflicts with a write by work-item" in f.message
    assert (out == 0).all()        # (the copy was done at the wait, after the racing writes)


# ----- selection, default build, CLI --------------------------------------------------------------

def test_all_includes_races(program):
    from spirvkit.runtime.check_findings import launch_checks

    assert "races" in launch_checks("all", False)
    found = program.kernel("global_write_write")(64, 16, np.zeros(32, np.int32), checks="all", report=True)
    assert [(f.kind, _line(f)) for f in found] == [("races", 18)]


def test_launch_raises_one_error_after_running_to_completion(program):
    out = np.zeros(32, np.int32)
    with pytest.raises(spirvkit.KernelCheckError) as info:
        program.kernel("global_write_write")(64, 16, out, checks={"races"})
    [f] = info.value.findings
    assert f.kind == "races" and "data race" in str(info.value) and (out == 7).all()


def test_default_build_has_no_race_instrumentation(program):
    from spirvkit.jit.compiler import lower_kernel

    plain, _, _ = lower_kernel(program.module, "vadd", True, None)
    checked, _, _ = lower_kernel(program.module, "vadd", True, None, checks=frozenset({"races"}))
    assert "spirvkit.check.race" not in plain and "spirvkit.check.race" in checked
    # and the default launch never reports a race
    assert program.kernel("global_write_write")(64, 16, np.zeros(32, np.int32)) is None


@pytest.fixture
def shadows(monkeypatch):
    """The RaceShadow of every launch, once attached."""
    from spirvkit.runtime import race_shadow

    seen = []
    attach = race_shadow.RaceShadow.attach

    def spy(self, ctx):
        address = attach(self, ctx)
        seen.append(self)
        return address

    monkeypatch.setattr(race_shadow.RaceShadow, "attach", spy)
    return seen


def test_shadow_of_a_store_only_buffer_is_its_size(program, shadows):
    """vadd writes c only, by plain stores, and has no barrier: c keeps compact (32-bit)
    records, as many bytes as c; a and b, which no work-item writes, get no shadow
    (jit/written_params.py)."""
    n = 1 << 16
    a, b, c = (np.zeros(n, np.float32) for _ in range(3))
    races(program, "vadd", n, 64, a, b, c)
    [shadow] = shadows
    buffers = 4 * n
    # c, and the module's program-scope variables (no local memory in this kernel)
    assert buffers <= shadow.checked_bytes < buffers + 16 * 1024
    [compact] = [s for s in shadow.shadows if s.dtype == np.uint32]
    assert compact.nbytes == buffers
    # (the program-scope variables' full records, twice their bytes, and the table)
    assert shadow.shadow_bytes <= buffers + 2 * (shadow.checked_bytes - buffers) + 16 * 1024


def test_shadow_of_a_buffer_read_and_written_is_twice_its_size(program, shadows):
    n, groups = 1 << 14, 64
    data, out = np.zeros(groups, np.int32), np.zeros(n, np.int32)
    races(program, "between_groups_read", n, n // groups, data, out)
    [shadow] = shadows
    full = [s for s in shadow.shadows if s.dtype == np.int64 and s.size == groups]   # data's
    assert full and shadow.shadow_bytes >= 2 * data.nbytes + out.nbytes


def test_store_only_buffer_bound_to_a_reading_parameter_too(program, shadows):
    """The same array for ``src`` (read) and ``dst`` (store-only): full records for both, and the
    compact stores take the full helper. No work-item touches another's element: no finding."""
    data = np.arange(256, dtype=np.int32)
    assert races(program, "copy_into", 256, 64, data, data) == []
    assert all(s.dtype == np.int64 for s in shadows[0].shadows)
    assert (data == np.arange(256)).all()
    # Two work-items store to each element: a race, found through the full records too.
    data = np.arange(256, dtype=np.int32)
    found = races(program, "copy_halves", 256, 64, data, data)
    assert any(f.message.startswith("a write of 4 byte(s)") and "conflicts with a write by work-item" in f.message
               for f in found)
    # Apart, dst keeps compact records and the same race is found.
    found = races(program, "copy_halves", 256, 64, np.arange(256, dtype=np.int32), np.zeros(128, np.int32))
    assert [f.message.split(" by work-item")[0] for f in found] == \
        ["a write of 4 byte(s) at byte offset 0 of argument 1 ('dst', __global) conflicts with a write"]
    assert found[0].other_global_id == (found[0].global_id[0] ^ 1, 0, 0) and found[0].count == 128


def test_store_only_disjoint_bytes_of_a_word_do_not_race(program):
    out = np.zeros(256, np.int8)
    assert races(program, "store_bytes", 256, 64, out) == []
    assert (out == 1).all()


def test_cli_check_races(tmp_path):
    (tmp_path / "r.cl").write_text(SOURCE)
    assert _cli("cc", "-g", "-cl-std=CL2.0", "r.cl", "-o", "r.spv", cwd=tmp_path).returncode == 0
    r = _cli("run", "r.spv", "-k", "global_write_write", "--global", "16", "--local", "16", "-a", "zeros:8",
             "--check", "races", cwd=tmp_path)
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith("r.cl:18:") and "error: data race in kernel 'global_write_write'" in lines[0]
    assert lines[0].endswith("[check: races]") and "out[get_global_id(0) / 2] = 7;" in lines[1]
    r = _cli("run", "r.spv", "-k", "vadd", "--global", "8", "-a", "range:8", "-a", "range:8", "-a", "zeros:8",
             "--check", "races", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
