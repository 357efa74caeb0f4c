"""Two host threads launching one kernel at once: each launch has scratch memory of its own.

A compiled kernel keeps its workers' thread states, ``__local`` memory and frame arenas for
reuse between launches (runtime/launch.py); two launches at once from two Python threads (two
spirvkit.cl queues, or a program's own threads) must not share them. The kernel rotates a
work-group's values through ``__local`` memory many times, with a tag per launch: a launch that
saw the other's local memory or had its thread state reset under it would give wrong values.
"""

from __future__ import annotations

import threading

import numpy as np

import spirvkit
import spirvkit.cl as cl

SOURCE = """
kernel void rotate(global int *out, int tag, int rounds) {
    local int lb[64];
    int lid = get_local_id(0);
    lb[lid] = tag * 1000 + lid;
    for (int r = 0; r < rounds; r++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        int v = lb[(lid + 1) % 64];
        barrier(CLK_LOCAL_MEM_FENCE);
        lb[lid] = v;
    }
    out[get_global_id(0)] = lb[lid];
}
"""
GROUPS, ROUNDS = 64, 200


def expected(tag: int) -> np.ndarray:
    lid = np.tile(np.arange(64), GROUPS)
    return tag * 1000 + (lid + ROUNDS) % 64


def run_in_threads(launch_one, threads: int = 2, repeats: int = 4) -> list[str]:
    problems = []

    def work(tag):
        try:
            for _ in range(repeats):
                out = launch_one(tag)
                if not np.array_equal(out, expected(tag)):
                    problems.append(f"launch with tag {tag}: {int((out != expected(tag)).sum())} wrong values")
        except Exception as exc:  # reported, not lost in the thread
            problems.append(f"launch with tag {tag}: {exc!r}")

    ts = [threading.Thread(target=work, args=(tag,)) for tag in range(1, threads + 1)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return problems


def test_one_native_kernel_launched_from_two_threads_at_once():
    kernel = spirvkit.Program(spirvkit.compile_cl(SOURCE)).kernel("rotate")

    def launch(tag):
        out = np.zeros(64 * GROUPS, np.int32)
        kernel(64 * GROUPS, 64, out, np.int32(tag), np.int32(ROUNDS))
        return out

    launch(1)  # compiled once, before the threads race
    assert run_in_threads(launch) == []


def test_one_cl_kernel_from_two_queues_at_once():
    """spirvkit.cl runs one command at a time on the device (queue.py), so this held before the
    per-thread scratch too; it guards the pyopencl-level promise if that changes."""
    ctx = cl.Context(dev_type=cl.device_type.ALL)
    prg = cl.Program(ctx, SOURCE).build()
    queues = {1: cl.CommandQueue(ctx), 2: cl.CommandQueue(ctx)}
    kernels = {tag: prg.rotate for tag in queues}  # one Kernel object, as pyopencl's program.rotate

    def launch(tag):
        out = np.zeros(64 * GROUPS, np.int32)
        buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
        kernels[tag](queues[tag], (64 * GROUPS,), (64,), buf, np.int32(tag), np.int32(ROUNDS))
        cl.enqueue_copy(queues[tag], out, buf)
        return out

    launch(1)
    assert run_in_threads(launch) == []
