"""Pipes in the executor and the host API (OpenCL C 2.0 §6.13.16; issue 15, item 1).

The kernels are tests/data/pipes/pipes.cl, run twice: as clang-15 + llvm-spirv-15 compiled
them (pipes.spv, the command in tests/data/pipes/README.md) and as ``spirvkit cc`` compiles
them. Expected values come from the spec's semantics, modelled here: a pipe is a FIFO of at
most ``max_packets`` packets; a read from an empty pipe and a write to a full one return a
negative value and change nothing; a reservation of n packets succeeds whole or not at all;
packets are readable once their reservation is committed, in reservation order; the contents
persist from one launch to the next. Which work-items win when a pipe fills up depends on the
order the executor runs them in, so those checks are on counts, on the multiset of packets and
on the shape a reservation gives (a work-group's packets contiguous, in local id order).
"""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
import pytest

import spirvkit
from spirvkit.errors import KernelArgumentError, KernelFault

DATA = Path(__file__).resolve().parents[1] / "data" / "pipes"
ITEM = np.dtype([("id", np.int32), ("x", np.float32)])


@pytest.fixture(scope="module", params=["clang", "cc"])
def program(request):
    if request.param == "clang":
        return spirvkit.Program(DATA / "pipes.spv")
    source = (DATA / "pipes.cl").read_text()
    return spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0", filename="pipes.cl"))


def _runs(values, length):
    """The packets cut into runs of ``length``."""
    return [tuple(values[k:k + length]) for k in range(0, len(values), length)]


def test_producer_consumer_across_launches(program):
    pipe = spirvkit.Pipe(np.int32, 32)
    src = np.arange(100, 140, dtype=np.int32)
    status = np.full(40, 7, np.int32)
    program.kernel("producer")(40, 8, src, pipe, status)
    # 32 writes fit, the other 8 find the pipe full.
    assert (status == 0).sum() == 32 and (status < 0).sum() == 8
    assert len(pipe) == 32
    written = pipe.packets()
    assert sorted(written.tolist()) == sorted(src[status == 0].tolist())

    dst = np.zeros(50, np.int32)
    status = np.full(50, 7, np.int32)
    program.kernel("consumer")(50, 10, pipe, dst, status)
    assert (status == 0).sum() == 32 and (status < 0).sum() == 18
    assert sorted(dst[status == 0].tolist()) == sorted(written.tolist())
    assert (dst[status < 0] == -1).all()          # a failed read leaves the destination alone
    assert len(pipe) == 0 and pipe.packets().shape == (0,)

    # The ring wrapped: the same pipe takes a new round.
    program.kernel("producer")(20, 4, src[:20], pipe, status[:20])
    assert (status[:20] == 0).all() and sorted(pipe.packets().tolist()) == src[:20].tolist()


def test_first_in_first_out_across_launches(program):
    pipe = spirvkit.Pipe(np.int32, 8)
    pipe.write(np.arange(5, dtype=np.int32) * 3)
    got = []
    for _ in range(7):
        dst, status = np.zeros(1, np.int32), np.zeros(1, np.int32)
        program.kernel("consumer")(1, 1, pipe, dst, status)
        got.append(int(dst[0]) if status[0] == 0 else None)
    assert got == [0, 3, 6, 9, 12, None, None]


def test_write_to_a_full_pipe_fails_and_changes_nothing(program):
    pipe = spirvkit.Pipe(np.int32, 3)
    pipe.write([1, 2, 3])
    status = np.zeros(4, np.int32)
    program.kernel("producer")(4, 2, np.arange(4, dtype=np.int32), pipe, status)
    assert (status < 0).all()
    assert pipe.packets().tolist() == [1, 2, 3]


def test_work_item_reservations_are_all_or_nothing(program):
    # Room for 7 packets, 5 work-items wanting 2 each: 3 reservations fit, whole.
    pipe = spirvkit.Pipe(np.int32, 7)
    ok = np.full(5, 7, np.int32)
    program.kernel("reserve_writer")(5, 1, pipe, ok)
    winners = np.flatnonzero(ok)
    assert len(winners) == 3 and set(ok.tolist()) == {0, 1}
    assert len(pipe) == 6
    assert sorted(_runs(pipe.packets().tolist(), 2)) == sorted((g * 10, g * 10 + 1) for g in winners)

    dst = np.full((4, 2), 9, np.int32)
    ok = np.full(4, 7, np.int32)
    program.kernel("reserve_reader")(4, 2, pipe, dst, ok)
    assert ok.sum() == 3
    assert sorted(map(tuple, dst[ok == 1].tolist())) == sorted((g * 10, g * 10 + 1) for g in winners)
    assert dst[ok == 0].tolist() == [[-1, -1]]
    assert len(pipe) == 0


def test_work_group_reservations(program):
    # 4 groups of 8 want 8 slots each; 20 slots hold 2 whole reservations.
    pipe = spirvkit.Pipe(np.int32, 20)
    ok = np.full(32, 7, np.int32)
    program.kernel("group_writer")(32, 8, pipe, ok)
    groups = ok.reshape(4, 8)
    assert set(groups.min(axis=1) == groups.max(axis=1)) == {True}   # a group wins or loses whole
    winners = np.flatnonzero(groups[:, 0])
    assert len(winners) == 2
    runs = _runs(pipe.packets().tolist(), 8)
    assert sorted(runs) == [tuple(range(g * 8, g * 8 + 8)) for g in sorted(winners)]

    dst = np.full(24, 9, np.int32)
    ok = np.full(24, 7, np.int32)
    program.kernel("group_reader")(24, 8, pipe, dst, ok)
    rows = ok.reshape(3, 8)
    assert rows.sum() == 16 and set(rows.min(axis=1) == rows.max(axis=1)) == {True}
    read = dst.reshape(3, 8)
    assert sorted(tuple(r) for r, good in zip(read.tolist(), rows[:, 0]) if good) == sorted(runs)
    assert (read[rows[:, 0] == 0] == -1).all()
    assert len(pipe) == 0


def test_sub_group_reservations(program):
    # Sub-groups of 4 in groups of 8: 4 reservations of 4 packets, room for 2 of them.
    pipe = spirvkit.Pipe(np.int32, 10)
    ok = np.full(16, 7, np.int32)
    program.kernel("sub_group_writer")(16, 8, pipe, ok, sub_group_size=4)
    sub = ok.reshape(4, 4)
    assert set(sub.min(axis=1) == sub.max(axis=1)) == {True} and sub[:, 0].sum() == 2
    runs = _runs(pipe.packets().tolist(), 4)
    assert sorted(runs) == [tuple(range(s * 4, s * 4 + 4)) for s in np.flatnonzero(sub[:, 0])]

    dst = np.full(8, 9, np.int32)
    program.kernel("sub_group_reader")(8, 8, pipe, dst, sub_group_size=4)
    assert sorted(_runs(dst.tolist(), 4)) == sorted(runs)


def test_packet_counts(program):
    source, sink = spirvkit.Pipe(np.int32, 9), spirvkit.Pipe(np.int32, 3)
    source.write(np.arange(5))
    o = np.zeros(4, np.uint32)
    program.kernel("counts")(1, 1, source, sink, o)
    assert o.tolist() == [5, 9, 0, 3]


def test_struct_packets_through_a_helper_function(program):
    source, sink = spirvkit.Pipe(ITEM, 8), spirvkit.Pipe(ITEM, 8)
    items = np.array([(i, i * 0.5) for i in range(5)], ITEM)
    source.write(items)
    moved = np.zeros(8, np.int32)
    program.kernel("stage")(8, 4, source, sink, moved)
    assert moved.sum() == 5
    out = sink.packets()
    assert out.dtype == ITEM
    assert sorted(out.tolist()) == [(i + 1000, i * 1.0) for i in range(5)]


def test_many_parallel_work_groups_share_a_pipe(program):
    # One work-item per group, so the groups run on every worker thread at once: the pipe's
    # lock must lose no packet and duplicate none.
    n, capacity = 3000, 2500
    pipe = spirvkit.Pipe(np.int32, capacity)
    src = np.arange(n, dtype=np.int32)
    status = np.zeros(n, np.int32)
    program.kernel("producer")(n, 1, src, pipe, status)
    assert (status == 0).sum() == capacity
    packets = pipe.packets()
    assert collections.Counter(packets.tolist()) == collections.Counter(src[status == 0].tolist())
    dst, status = np.zeros(n, np.int32), np.zeros(n, np.int32)
    program.kernel("consumer")(n, 1, pipe, dst, status)
    assert (status == 0).sum() == capacity
    assert collections.Counter(dst[status == 0].tolist()) == collections.Counter(packets.tolist())


def test_unchecked_launches_behave_the_same(program):
    pipe = spirvkit.Pipe(np.int32, 4)
    status = np.zeros(6, np.int32)
    program.kernel("producer")(6, 3, np.arange(6, dtype=np.int32), pipe, status, unchecked=True)
    assert (status == 0).sum() == 4 and len(pipe) == 4


def test_a_packet_pointer_out_of_bounds_is_a_fault(program):
    pipe = spirvkit.Pipe(np.int32, 8)
    pipe.write(np.arange(8))
    dst, status = np.zeros(2, np.int32), np.zeros(4, np.int32)
    with pytest.raises(KernelFault):
        program.kernel("consumer")(4, 4, pipe, dst, status)


# ----- argument binding ---------------------------------------------------------------------------
def test_wrong_arguments_name_the_parameter():
    program = spirvkit.Program(spirvkit.compile_cl((DATA / "pipes.cl").read_text(), "-cl-std=CL2.0"))
    consumer = program.kernel("consumer")
    dst, status = np.zeros(4, np.int32), np.zeros(4, np.int32)
    with pytest.raises(KernelArgumentError, match=r"argument 0 \('in'\): the kernel uses 4-byte packets, "
                                                  r"the Pipe has 8-byte packets"):
        consumer(4, 4, spirvkit.Pipe(np.int64, 4), dst, status)
    with pytest.raises(KernelArgumentError, match=r"argument 0 \('in'\) is a read_only pipe: pass a "
                                                  r"spirvkit.Pipe, not ndarray"):
        consumer(4, 4, dst, dst, status)
    with pytest.raises(KernelArgumentError, match=r"argument 1 \('dst'\) is a __global pointer: pass a numpy "
                                                  r"array, not Pipe"):
        consumer(4, 4, spirvkit.Pipe(np.int32, 4), spirvkit.Pipe(np.int32, 4), status)
    with pytest.raises(KernelArgumentError, match=r"argument 1 \('out'\) is a write_only pipe"):
        program.kernel("producer")(4, 4, dst, None, status)


def test_the_clang_fixture_checks_the_packet_size_too():
    program = spirvkit.Program(DATA / "pipes.spv")
    with pytest.raises(KernelArgumentError, match=r"argument 0 .*the kernel uses 8-byte packets, the Pipe has "
                                                  r"4-byte packets"):
        program.kernel("stage")(1, 1, spirvkit.Pipe(np.int32, 4), spirvkit.Pipe(ITEM, 4), np.zeros(1, np.int32))


# ----- the host side ------------------------------------------------------------------------------
def test_host_writes_and_reads():
    pipe = spirvkit.Pipe(np.int32, 4)
    assert len(pipe) == 0 and pipe.max_packets == 4 and pipe.packet_size == 4
    pipe.write([1, 2, 3])
    assert pipe.read(2).tolist() == [1, 2]
    pipe.write([4, 5, 6])
    assert pipe.packets().tolist() == [3, 4, 5, 6]
    with pytest.raises(KernelArgumentError, match="do not fit"):
        pipe.write([7])
    assert pipe.read().tolist() == [3, 4, 5, 6] and len(pipe) == 0


def test_vector_and_byte_packets():
    vectors = spirvkit.Pipe((np.float32, 4), 3)
    vectors.write(np.arange(8, dtype=np.float32))
    assert vectors.packet_size == 16 and vectors.packets().shape == (2, 4)
    raw = spirvkit.Pipe(12, 2)
    raw.write(np.arange(12, dtype=np.uint8))
    assert raw.packets().shape == (1, 12)
    with pytest.raises(KernelArgumentError, match="whole 12-byte packets"):
        raw.write(np.arange(5, dtype=np.uint8))


@pytest.mark.parametrize("args", [(0, 4), (np.int32, 0), (np.int32, 2 ** 31), ("nonsense", 4), (True, 4),
                                  (np.int32, 1.5)])
def test_bad_pipe_construction(args):
    with pytest.raises(KernelArgumentError):
        spirvkit.Pipe(*args)


def test_spirvkit_run_takes_pipe_arguments(capsys, tmp_path):
    from spirvkit.cli import main

    spv = str(DATA / "pipes.spv")
    assert main(["run", spv, "--kernel", "consumer", "--global", "6", "--local", "3",
                 "--arg", "pipe:int32:16:range:4", "--arg", "zeros:6", "--arg", "zeros:6"]) == 0
    out = capsys.readouterr().out
    assert "(pipe): int32[0]" in out                      # all four packets read
    assert "[ 0,  1,  2,  3, -1, -1]" in out
    assert main(["run", spv, "--kernel", "producer", "--global", "6", "--arg", "range:6",
                 "--arg", "pipe:int32:4", "--arg", "zeros:6", "--out", str(tmp_path)]) == 0
    assert "(pipe): int32[4]" in capsys.readouterr().out
    assert sorted(np.load(tmp_path / "1_arg1.npy").tolist()) == [0, 1, 2, 3]
    assert main(["run", spv, "--kernel", "producer", "--global", "6", "--arg", "range:6",
                 "--arg", "pipe:int32", "--arg", "zeros:6"]) == 1
    assert "a pipe is pipe:DTYPE:MAX_PACKETS[:SOURCE]" in capsys.readouterr().err
