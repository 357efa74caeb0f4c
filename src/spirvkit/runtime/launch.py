"""Running a compiled kernel over an NDRange on all cores.

Each worker thread calls the kernel's ``spirvkit_run(ctx, ts)``, which takes work-groups from
an atomic dispenser in the launch context until none is left. ctypes releases the GIL for the
call, so the threads run truly in parallel. The main thread only waits: it is the one that
sees Ctrl-C and the timeout, and it stops the launch by setting the context's abort word,
which the JIT'd code polls at every loop back edge and between work-groups.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import os
import threading
import time

import numpy as np

from ..errors import KernelCheckError, KernelFault, KernelInterrupted, KernelTimeout
from ..jit.abi import ABORT_CANCEL, ABORT_FAULT, CONTEXT, THREAD
from ..jit.compiler import CompiledKernel
from ..jit.kernel import RUN_SYMBOL
from ..jit.target import LoadedObject
from .args import BoundArgs
from .check_findings import CheckState, fault_finding, has_checks
from .limits import PRIVATE_MEM_SIZE, check_launch
from .ndrange import NDRange
from .printf import PrintfBuffer

_RUN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)

_pool_lock = threading.Lock()
_pool: concurrent.futures.ThreadPoolExecutor | None = None
# A work-item's private variables live on its worker thread's stack: each worker gets room for
# the limit (checked before a launch) and 8 MiB for the runtime's and LLVM's own frames. The
# platform default (8 MiB from RLIMIT_STACK, often less) would let a kernel within the limit
# crash the process. Stack pages are only reserved, not used, until a kernel touches them.
WORKER_STACK_BYTES = PRIVATE_MEM_SIZE + 8 * 1024 * 1024
_stack_lock = threading.Lock()


def worker_count() -> int:
    env = os.environ.get("SPIRVKIT_THREADS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _workers() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(worker_count(), thread_name_prefix="spirvkit")
        return _pool


def _forget_workers_in_child() -> None:
    """A forked child has none of the pool's threads: it makes a pool of its own."""
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_workers_in_child)


class LoadedKernel:
    """A compiled kernel linked into the process, with reusable per-thread scratch memory."""

    def __init__(self, compiled: CompiledKernel):
        self.compiled = compiled
        self.object = LoadedObject(compiled.object)
        self.run = _RUN(self.object.address(RUN_SYMBOL))
        self.frame_bytes = compiled.frame_bytes      # the work-items' records between regions
        # Per host thread: two Python threads may launch this kernel at once.
        self._per_thread = threading.local()

    def scratch(self, count: int, local_bytes: int, items: int) -> list[dict]:
        """Thread states, local memory and frame arenas for ``count`` workers (the calling host
        thread's own: another thread's launch of this kernel never touches them)."""
        own = self._per_thread.__dict__.setdefault("scratch", [])
        while len(own) < count:
            # 64 words each: two threads' states never share a cache line.
            own.append({"ts": np.zeros(max(THREAD["_words"], 64), np.int64),
                        "local": np.zeros(0, np.uint8), "frames": np.zeros(0, np.uint8)})
        frames_needed = self.frame_bytes * items + 128
        for s in own[:count]:
            if s["local"].nbytes < local_bytes + 128:
                s["local"] = np.zeros(local_bytes + 128, np.uint8)
            if s["frames"].nbytes < frames_needed:
                s["frames"] = np.zeros(frames_needed + 64, np.uint8)
            ts = s["ts"]
            ts[:] = 0
            ts[THREAD["local_base"]] = _aligned(s["local"], 128)
            ts[THREAD["local_bytes"]] = local_bytes
            ts[THREAD["frames"]] = _aligned(s["frames"], 64)
            ts[THREAD["frame_bytes"]] = self.frame_bytes
        return own[:count]


def _aligned(array: np.ndarray, align: int) -> int:
    """The first ``align``-aligned address in ``array`` (allocated with ``align`` bytes spare)."""
    addr = array.ctypes.data
    return (addr + align - 1) // align * align


def launch(kernel: LoadedKernel, ndrange: NDRange, bound: BoundArgs, globals_block: np.ndarray | None,
           timeout: float | None, name: str, locate=None, printf=None, sub_group_size: int | None = None,
           device_queue=None, report: bool = False) -> list | None:
    """Runs the kernel over the NDRange. ``locate()`` gives the report-mode kernel, used to
    re-run the one work-group whose fault flag a checked launch found set. ``printf``: where the
    kernel's printf output goes (see runtime/printf.py); it is written when the launch ends.
    ``sub_group_size``: work-items per sub-group (None: one sub-group per work-group).
    ``device_queue``: the host launch's runtime.device_queue.LaunchQueue, for a kernel that may
    enqueue children: they are collected from it when the launch has finished (and run by its
    ``drain``, not here).

    A kernel built with checks beyond bounds (runtime/check_findings.py) runs to completion (a
    bounds fault still stops it) and then raises one KernelCheckError with its findings.
    ``report``: returns the findings instead (a list, empty when there were none; a bounds
    fault is one of them), else None."""
    check_launch(name, bound.local_bytes, kernel.frame_bytes, ndrange.group_items)  # before anything is allocated
    ctx = np.zeros(CONTEXT["_words"], np.int64)
    ctx[CONTEXT["work_dim"]] = ndrange.work_dim
    ctx[CONTEXT["global_size"]: CONTEXT["global_size"] + 3] = ndrange.global_size
    ctx[CONTEXT["global_offset"]: CONTEXT["global_offset"] + 3] = ndrange.global_offset
    ctx[CONTEXT["enqueued_local_size"]: CONTEXT["enqueued_local_size"] + 3] = ndrange.local_size
    ctx[CONTEXT["num_groups"]: CONTEXT["num_groups"] + 3] = ndrange.num_groups
    ctx[CONTEXT["total_groups"]] = ndrange.total_groups
    ctx[CONTEXT["sub_group_size"]] = sub_group_size or ndrange.group_items
    ctx[CONTEXT["sub_group_config"]] = sub_group_size or 0
    ctx[CONTEXT["args"]] = bound.block.ctypes.data
    regions = list(bound.regions)
    if globals_block is not None and globals_block.nbytes:
        base = globals_block.ctypes.data
        ctx[CONTEXT["globals"]] = base
        regions.append((base, base + globals_block.nbytes, "program-scope variables"))
    table = np.array([(b, e) for b, e, _ in regions] or [(0, 0)], np.uint64)
    ctx[CONTEXT["regions"]] = table.ctypes.data
    ctx[CONTEXT["region_count"]] = len(regions)
    if device_queue is not None:
        device_queue.attach(ctx, regions)
    checks = CheckState(kernel.compiled, bound) if has_checks(kernel.compiled) else None
    if checks is not None:
        checks.attach(ctx)
    printf_buffer = None
    if kernel.compiled.printf:
        printf_buffer = PrintfBuffer(kernel.compiled.printf)
        printf_buffer.attach(ctx, CONTEXT)

    count = min(worker_count(), ndrange.total_groups)
    # Enough chunks per thread to balance uneven groups, few enough to keep the atomic rare.
    ctx[CONTEXT["group_chunk"]] = max(1, ndrange.total_groups // (count * 64))
    scratch = kernel.scratch(count, bound.local_bytes, ndrange.group_items)
    deadline = None if timeout is None else time.monotonic() + float(timeout)
    stopped = _run_workers(kernel, ctx, scratch, deadline)

    if int(ctx[CONTEXT["abort"]]) == ABORT_FAULT and int(ctx[CONTEXT["fault_site"]]) < 0 and locate is not None:
        # A checked launch only knows which group faulted: re-run that group with the
        # report-mode kernel, which records the work-item, instruction and address.
        group = int(ctx[CONTEXT["fault_group"]])
        kernel = locate()
        rerun_checks = CheckState(kernel.compiled, bound) if has_checks(kernel.compiled) else None
        if rerun_checks is not None:
            # Its own table (its sites differ; what it finds again, the first run found), with
            # the read-only regions still protected. Kept alive while the re-run reads it.
            rerun_checks.attach(ctx)
        printed = int(ctx[CONTEXT["printf_used"]]), int(ctx[CONTEXT["printf_dropped"]])
        ctx[CONTEXT["abort"]] = 0
        ctx[CONTEXT["next_group"]] = group
        ctx[CONTEXT["total_groups"]] = group + 1
        ctx[CONTEXT["group_chunk"]] = 1
        scratch = kernel.scratch(1, bound.local_bytes, ndrange.group_items)
        # The re-run (after the report build's compilation) gets the timeout afresh: one group.
        rerun_deadline = None if timeout is None else time.monotonic() + float(timeout)
        rerun_stopped = _run_workers(kernel, ctx, scratch, rerun_deadline)
        stopped = rerun_stopped or stopped
        del rerun_checks
        # The group's printf calls already ran once: drop the re-run's records.
        ctx[CONTEXT["printf_used"]], ctx[CONTEXT["printf_dropped"]] = printed
        if int(ctx[CONTEXT["abort"]]) != ABORT_FAULT:
            gx, gy = ndrange.num_groups[0], ndrange.num_groups[1]
            coords = (group % gx, group // gx % gy, group // (gx * gy))
            why = (f"re-running the group to locate it was stopped ({rerun_stopped})" if rerun_stopped else
                   "re-running the group did not reproduce it (the kernel's data had changed)")
            raise KernelFault(f"out-of-bounds access in kernel {name!r}, work-group {coords}; {why}",
                              kernel=name, global_id=None, site=None, buffer="", offset=-1, size=0)
    del table  # the native code no longer reads it
    if printf_buffer is not None:   # before any fault is raised: output up to a fault helps most
        printf_buffer.emit(int(ctx[CONTEXT["printf_used"]]), int(ctx[CONTEXT["printf_dropped"]]), printf, name)

    abort = int(ctx[CONTEXT["abort"]])
    findings = None
    if checks is not None:
        findings = checks.collect(name, bound, regions, scratch, kernel.compiled)
    if abort == ABORT_FAULT:
        fault = _fault(ctx, kernel, bound, regions, scratch, name)
        if not findings and not report:
            raise fault
        findings = [fault_finding(fault)] + (findings or [])
        if not report:
            raise KernelCheckError(name, findings) from fault
        return findings
    if stopped == "timeout":
        raise KernelTimeout(f"kernel {name!r} ran longer than its timeout of {timeout} s and was stopped")
    if stopped == "interrupt":
        raise KernelInterrupted(f"kernel {name!r} was interrupted (Ctrl-C)")
    if device_queue is not None:
        device_queue.collect()
    if findings and not report:
        raise KernelCheckError(name, findings)
    return (findings or []) if report else None


def _run_workers(kernel: LoadedKernel, ctx: np.ndarray, scratch: list[dict], deadline) -> str | None:
    """Runs the workers to completion; returns 'timeout' or 'interrupt' if it stopped them."""
    ctx_addr = ctx.ctypes.data
    pool = _workers()
    # The pool starts its threads in submit(); the stack size applies to threads started
    # while it is set (a process-wide setting: put back at once).
    with _stack_lock:
        previous = threading.stack_size(WORKER_STACK_BYTES)
        try:
            futures = [pool.submit(kernel.run, ctx_addr, s["ts"].ctypes.data) for s in scratch]
        finally:
            threading.stack_size(previous)
    stopped = None
    try:
        while True:
            wait = 0.05 if deadline is None else max(0.0, min(0.05, deadline - time.monotonic()))
            _, pending = concurrent.futures.wait(futures, timeout=wait)
            if not pending:
                break
            if deadline is not None and time.monotonic() >= deadline and stopped is None:
                stopped = "timeout"
                ctx[CONTEXT["abort"]] = ABORT_CANCEL
    except KeyboardInterrupt:
        stopped = "interrupt"
        ctx[CONTEXT["abort"]] = ABORT_CANCEL
        concurrent.futures.wait(futures)
    for f in futures:
        f.result()
    return stopped


def _fault(ctx: np.ndarray, kernel: LoadedKernel, bound: BoundArgs, regions, scratch, name: str) -> KernelFault:
    compiled = kernel.compiled
    site = compiled.sites[int(ctx[CONTEXT["fault_site"]])]
    gid = tuple(int(v) for v in ctx[CONTEXT["fault_global_id"]: CONTEXT["fault_global_id"] + 3])
    addr, base, end, size = (int(np.uint64(ctx[CONTEXT[k]])) for k in
                             ("fault_address", "fault_base", "fault_end", "fault_size"))
    buffer = _describe_region(base, end, regions, bound, scratch, kernel)
    offset = addr - base
    what = {"load": "read", "store": "write", "atomic": "atomic access", "copy": "copy"}.get(site.kind, site.kind)
    if site.kind.startswith("image"):
        from .images import image_fault_detail

        detail = image_fault_detail(addr, size, buffer)
    elif base == end == 0:
        detail = f"through a NULL pointer (address {addr:#x}): a null dereference"
    elif base == end:
        detail = f"through a pointer that points into no buffer (address {addr:#x})"
    else:
        detail = f"of {size} byte(s) at byte offset {offset} of {buffer} ({end - base} bytes)"
        # Inside the buffer: an access chain's array index was out of range (jit/array_bounds.py).
        if base <= addr and addr + size <= end:
            detail += ", outside the array it indexes (an array index out of range)"
    where = f"{site.opname} at word {site.word_offset} in function {site.function}"
    if site.line:
        where = f"{site.line}: {where}"
    message = (f"out-of-bounds {what} in kernel {name!r}, work-item global id {gid}: {detail}\n"
               f"  instruction: {where}")
    return KernelFault(message, kernel=name, global_id=gid, site=site, buffer=buffer, offset=offset, size=size)


def _describe_region(base: int, end: int, regions, bound: BoundArgs, scratch, kernel) -> str:
    """What the faulting pointer pointed into, in the user's terms."""
    for b, e, description in regions:
        if b == base and e == end:
            return description
    for s in scratch:
        local = int(s["ts"][THREAD["local_base"]])
        if local <= base < local + bound.local_bytes:
            at = base - local
            for offset, _size, description in bound.local_args:
                if offset == at:
                    return description
            return "a __local variable"
    for symbol, name in kernel.compiled.constants.items():
        if kernel.object.global_address(symbol) == base:
            return f"the program-scope __constant variable {name}"
    return "a private variable"
