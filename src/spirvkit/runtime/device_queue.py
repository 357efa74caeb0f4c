"""The device queue of one host launch: the children its kernels enqueue, run to the last one.

A launch that may enqueue (its module declares DeviceEnqueue) gets the queue's descriptor in
its context (jit.abi.DEVICE_QUEUE). Its work-items write command records into the descriptor's
arena and take event slots from its free list, natively and without the GIL
(jit/ops_enqueue.py). When the launch has finished, :meth:`LaunchQueue.collect` turns the
records into :class:`Command` objects; :meth:`LaunchQueue.drain` (called once the host launch
is over) then runs them one launch at a time, each one's children collected in turn, until none
is left.

Order. A child runs after its parent's launch has finished, which satisfies every
kernel_enqueue_flags_t value (NO_WAIT, WAIT_KERNEL, WAIT_WORK_GROUP: "implementations may not
schedule kernel launch earlier than the point specified", never later); a command waits for the
events of its wait list to complete; a marker without a wait list waits for every command
enqueued before it (but the ones that enqueued it). A kernel is complete (its event CL_COMPLETE)
when its launch and all the kernels it enqueued are, to any depth (§6.13.17, "Determining when a
parent kernel has finished execution"); its markers are not kernels and do not hold it up (they
may wait for commands that wait for it). Of the commands ready, the one enqueued first runs
first while at most half of the queue is taken, the one enqueued last once more is (see
:meth:`LaunchQueue.drain`). A command whose wait list holds an event
with an error status is not run and its event takes that status; the host call then raises
:class:`~spirvkit.errors.ExecutionError` naming it, as OpenCL would make the parent's status
an error; so does a command whose events never complete (a user event nobody sets).

Bounds (runtime/limits.py): the records of the commands not yet finished share
QUEUE_ON_DEVICE_MAX_SIZE bytes (a launch's arena holds what is left; an enqueue past it returns
CLK_DEVICE_QUEUE_FULL); events share MAX_ON_DEVICE_EVENTS slots; one host launch and its
descendants enqueue at most MAX_ENQUEUED_COMMANDS commands (then CLK_OUT_OF_RESOURCES). Memory
therefore stays bounded however deep a recursion goes.

Faults. A child's launch is an ordinary launch over the host launch's buffers (its region
table is the host launch's, plus the copy of its block literal), so bounds checks apply as
anywhere; a fault is reported as the usual KernelFault, with the chain of launches that
enqueued it.
"""

from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import ExecutionError, KernelFault, KernelTimeout, NotSupportedError
from ..jit.abi import (CL_COMPLETE, CL_RUNNING, CONTEXT, DEVICE_QUEUE, EVENT, EVENT_USER, RECORD, RECORD_END,
                       RECORD_KERNEL, RECORD_MARKER)
from . import limits
from .args import BoundArgs
from .ndrange import NDRange, make_ndrange

EVENT_WORDS = EVENT["_words"]


def record_bytes(num_events: int, num_locals: int, param_size: int) -> int:
    """Bytes of the queue one command takes: its record header, wait list, local-memory sizes
    and block literal (as jit/ops_enqueue.py writes them)."""
    return (RECORD["_words"] + num_events + num_locals) * 8 + (param_size + 7) // 8 * 8


@dataclass(eq=False)
class Command:
    """A kernel or marker enqueued on the device (or the host launch itself, kind 0)."""

    seq: int
    kind: int                       # RECORD_KERNEL, RECORD_MARKER, or 0 for the host launch
    name: str                       # the kernel's name ('' for a marker)
    parent: Command | None
    enqueuer: tuple = (0, 0, 0)     # global id of the work-item that enqueued it
    invoke: int = 0
    ndrange: tuple = ()             # dims, offset[3], global[3], local[3]
    wait: list = field(default_factory=list)     # event slots
    prior: list = field(default_factory=list)    # a marker without a wait list: the commands before it
    event: int | None = None        # its event slot
    locals: list = field(default_factory=list)   # local-memory sizes of its `local void *` parameters
    literal: np.ndarray | None = None
    nbytes: int = 0                 # its share of the queue
    open_children: int = 0
    ran: bool = False
    done: bool = False
    status: int = 0                 # CL_COMPLETE or the error it ended with
    start: int = 0
    end: int = 0

    def describe(self) -> str:
        if self.kind == 0:
            return f"the host launch of kernel {self.name!r}"
        what = f"kernel {self.name!r}" if self.kind == RECORD_KERNEL else "a marker"
        return f"{what} enqueued by work-item {self.enqueuer} of {self.parent.describe()}"


class LaunchQueue:
    """The queue, events and commands of one host launch and its descendants (the device queue
    every queue_t argument of the launch stands for: runtime/queue_arg.DeviceQueue is only the
    host's handle to it)."""

    def __init__(self):
        # The limits are read now (a test may lower them for one queue).
        self.capacity = limits.QUEUE_ON_DEVICE_MAX_SIZE
        self.max_events = limits.MAX_ON_DEVICE_EVENTS
        self.max_commands = limits.MAX_ENQUEUED_COMMANDS
        self.descriptor = np.zeros(DEVICE_QUEUE["_words"], np.int64)
        self.arena = np.zeros(self.capacity + 64, np.uint8)   # the end marker may fall just past it
        self.events = np.zeros((self.max_events, EVENT_WORDS), np.int64)
        self.free_slots = np.zeros(self.max_events, np.int64)
        self.waiters = np.zeros(self.max_events, np.int64)    # pending commands waiting on each slot
        self.reset()

    def reset(self) -> None:
        """Empty, for a new host launch."""
        self.events[:] = 0
        self.waiters[:] = 0
        self.free = list(range(self.max_events))
        self.times: dict[int, tuple[int, int]] = {}   # complete kernels' events: (END, COMPLETE) - START
        self.live: set[int] = set()
        self.pending: list[Command] = []       # enqueued, not yet run
        self.unfinished: dict[int, Command] = {}   # enqueued, not yet complete (by seq, in order)
        self.pending_bytes = 0
        self.commands_left = self.max_commands
        self.seq = 0
        self.current: Command | None = None
        self.root: Command | None = None
        self.root_regions: list = []
        self.failures: list[str] = []

    # ----- around each launch -----------------------------------------------------------------
    def start_root(self, name: str, kernel_name) -> None:
        """A host launch of kernel ``name`` begins; ``kernel_name(invoke id)``: the kernel that
        runs a block."""
        self.root = Command(0, 0, name, None)
        self.current = self.root
        self.kernel_name = kernel_name

    def attach(self, ctx: np.ndarray, regions: list) -> None:
        """Before a launch: its context gets the descriptor, with the room left in the queue."""
        if self.current is self.root:
            # A child's buffers are the host launch's (its captured pointers point into them).
            self.root_regions = [(b, e, f"{what} of the host launch of {self.root.name!r}") for b, e, what in regions]
        d, L = self.descriptor, DEVICE_QUEUE
        count = len(self.free)
        self.free_slots[:count] = self.free
        d[L["arena"]] = self.arena.ctypes.data
        d[L["arena_capacity"]] = max(0, self.capacity - self.pending_bytes)
        d[L["arena_used"]] = 0
        d[L["commands_left"]] = self.commands_left
        d[L["events"]] = self.events.ctypes.data
        d[L["event_slots"]] = self.max_events
        d[L["free_events"]] = self.free_slots.ctypes.data
        d[L["free_count"]] = count
        d[L["free_next"]] = 0
        d[L["max_work_group_size"]] = limits.MAX_WORK_GROUP_SIZE
        d[L["local_mem_size"]] = limits.LOCAL_MEM_SIZE
        ctx[CONTEXT["device_queue"]] = self.descriptor.ctypes.data

    def bind_queue_arguments(self, block: np.ndarray, slots) -> None:
        """The host launch's ``queue_t`` parameters (runtime/queue_arg.py) hold this queue."""
        words = block.view(np.uint64)
        for slot in slots:
            if slot.kind == "queue":
                words[slot.offset // 8] = self.descriptor.ctypes.data

    def collect(self) -> None:
        """After a launch: its event slots and command records."""
        d, L = self.descriptor, DEVICE_QUEUE
        count = len(self.free)
        taken = min(int(d[L["free_next"]]), count)
        handed = self.free_slots[:taken].tolist()
        self.free = self.free_slots[taken:count].tolist()
        for slot in handed:
            (self.live.add if self.events[slot, EVENT["live"]] else self.free.append)(slot)
        for slot in np.flatnonzero(self.events[:, EVENT["profile"]]).tolist():
            self._deliver_profile(slot)    # a capture asked after its command completed
        self.commands_left = int(d[L["commands_left"]])
        parent = self.current
        words = self.arena.view(np.int64)
        used = min(int(d[L["arena_used"]]), int(d[L["arena_capacity"]]))
        at = 0
        base = int(self.events.ctypes.data)
        while at < used:
            w = at // 8
            kind = int(words[w])
            if kind == RECORD_END:
                break
            n_bytes = int(words[w + RECORD["bytes"]])
            nevents, nlocals = int(words[w + RECORD["num_events"]]), int(words[w + RECORD["num_locals"]])
            psize = int(words[w + RECORD["param_size"]])
            tail = w + RECORD["_words"]
            handle = int(words[w + RECORD["event"]])
            self.seq += 1
            invoke = int(words[w + RECORD["invoke"]])
            cmd = Command(self.seq, kind, self.kernel_name(invoke) if kind == RECORD_KERNEL else "", parent,
                          tuple(int(v) for v in words[w + RECORD["enqueuer"]: w + RECORD["enqueuer"] + 3]),
                          invoke,
                          tuple(int(v) for v in words[w + RECORD["ndrange"]: w + RECORD["ndrange"] + 10]),
                          [(int(h) - base) // (EVENT_WORDS * 8) for h in words[tail: tail + nevents]],
                          event=(handle - base) // (EVENT_WORDS * 8) if handle else None,
                          locals=[int(v) for v in words[tail + nevents: tail + nevents + nlocals]],
                          nbytes=n_bytes)
            start = (tail + nevents + nlocals) * 8
            cmd.literal = self.arena[start: start + psize].copy()
            if kind == RECORD_MARKER and not cmd.wait:
                # Every command enqueued before it, but its own ancestors (which complete only
                # after it).
                ancestors = _ancestors(cmd)
                cmd.prior = [c for c in self.unfinished.values() if c not in ancestors]
            for slot in cmd.wait:
                self.waiters[slot] += 1
            if kind == RECORD_KERNEL:
                # A parent completes with its child kernels (markers are not kernels: a child's
                # marker may wait for commands that wait for the child).
                parent.open_children += 1
            self.pending.append(cmd)
            self.unfinished[cmd.seq] = cmd
            self.pending_bytes += n_bytes
            at += n_bytes

    # ----- running the commands -----------------------------------------------------------------
    def drain(self, run_kernel, deadline: float | None) -> None:
        """Runs every command, children included; ``run_kernel(command, timeout)`` launches a
        kernel command (and collects what it enqueues). Raises ExecutionError for commands not
        run."""
        self.root.ran = True
        self._finish_if_done(self.root)
        while self.pending:
            # Breadth-first while the queue has room; past half of it, the newest ready command
            # first (depth-first), so a wide recursion drains its deepest commands before its
            # shallow ones add more: the pending records stay within the queue (a launch starts
            # with at least half of it free) instead of growing with the recursion's width.
            deep_first = self.pending_bytes > self.capacity // 2
            for cmd in (reversed(self.pending) if deep_first else self.pending):
                state = self._readiness(cmd)
                if state is not None:
                    break
            else:
                self._stuck()
            self.pending.remove(cmd)
            self.pending_bytes -= cmd.nbytes
            for slot in cmd.wait:
                self.waiters[slot] -= 1
            if state < 0:      # an event of its wait list failed: not run
                self.failures.append(f"{cmd.describe()} was not run: an event of its wait list has the error "
                                     f"status {state}")
                cmd.status = state
            elif cmd.kind == RECORD_KERNEL:
                self._run(cmd, run_kernel, deadline)
            cmd.ran = True
            self._finish_if_done(cmd)
        self._free_events()
        if self.failures:
            raise ExecutionError("device-side enqueue: " + "; ".join(self.failures))

    def _readiness(self, cmd: Command) -> int | None:
        """None: waiting; 0: ready; < 0: an event it waits for failed."""
        for slot in cmd.wait:
            status = int(self.events[slot, EVENT["status"]])
            if status < 0:
                return status
            if status > 0:
                return None
        if any(not c.done for c in cmd.prior):
            return None
        return 0

    def _stuck(self) -> None:
        names = "; ".join(c.describe() for c in self.pending[:4])
        more = f" and {len(self.pending) - 4} more" if len(self.pending) > 4 else ""
        raise ExecutionError(f"device-side enqueue: {len(self.pending)} command(s) wait for events that never "
                             f"complete (a user event nobody sets?): {names}{more}")

    def _run(self, cmd: Command, run_kernel, deadline: float | None) -> None:
        timeout = None
        if deadline is not None:
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                raise KernelTimeout(f"{cmd.describe()} did not start before the host launch's timeout")
        if cmd.event is not None:
            self.events[cmd.event, EVENT["status"]] = CL_RUNNING
        self.current = cmd
        cmd.start = time.perf_counter_ns()
        try:
            run_kernel(cmd, timeout)
        except KernelFault as fault:
            raise _enqueued_fault(fault, cmd) from None
        finally:
            self.current = None
            cmd.literal = None    # (a long chain of unfinished ancestors keeps no copies)
        cmd.end = time.perf_counter_ns()

    def _finish_if_done(self, cmd: Command) -> None:
        """A command whose launch and descendants are done is complete; so, then, may its
        parent be."""
        while cmd is not None and cmd.ran and not cmd.done and cmd.open_children == 0:
            cmd.done = True
            if cmd.kind:
                del self.unfinished[cmd.seq]
            cmd.literal = None
            complete = time.perf_counter_ns()
            if cmd.event is not None:
                self.events[cmd.event, EVENT["status"]] = cmd.status
                if cmd.status == CL_COMPLETE:
                    times = (max(1, cmd.end - cmd.start), max(1, complete - cmd.start))
                    self.times[cmd.event] = times
                    # a later capture of it writes these at once (jit/ops_enqueue.py)
                    self.events[cmd.event, EVENT["exec_time"]:EVENT["complete_time"] + 1] = times
                    self._deliver_profile(cmd.event)
            parent = cmd.parent
            if parent is None or cmd.kind == RECORD_MARKER:
                break
            parent.open_children -= 1
            cmd = parent
        if len(self.free) < self.max_events // 2:
            self._free_events()

    def _deliver_profile(self, slot: int) -> None:
        """CL_PROFILING_COMMAND_END - START and COMPLETE - START, in ns, written where
        capture_event_profiling_info asked, once the command is complete: into a buffer of the
        host launch, checked here too (the launch that asked has ended; a pointer to anything
        else would now be stale)."""
        address = int(self.events[slot, EVENT["profile"]])
        if not address or slot not in self.times:
            return
        self.events[slot, EVENT["profile"]] = 0
        end, complete = self.times[slot]
        if not any(b <= address and address + 16 <= e for b, e, _ in self.root_regions):
            self.failures.append(f"capture_event_profiling_info's value {address:#x} is not 16 bytes inside a "
                                 f"buffer of the host launch: the times were not written")
            return
        times = np.array([max(0, end), max(0, complete)], np.uint64)
        ctypes.memmove(address, times.ctypes.data, 16)

    def _free_events(self) -> None:
        """Slots nobody holds any more: released, complete (or a user event) and waited on by
        no pending command."""
        for slot in list(self.live):
            e = self.events[slot]
            if (e[EVENT["refs"]] <= 0 and self.waiters[slot] == 0
                    and (e[EVENT["kind"]] == EVENT_USER or e[EVENT["status"]] <= 0)):
                e[:] = 0
                self.times.pop(slot, None)
                self.live.discard(slot)
                self.free.append(slot)

    # ----- a child's launch ---------------------------------------------------------------------
    def child_ndrange(self, cmd: Command, required_local) -> NDRange:
        n = cmd.ndrange
        dims = n[0]
        offset, glob, local = n[1:1 + dims], n[4:4 + dims], n[7:7 + dims]
        return make_ndrange(tuple(glob), tuple(local) if local[0] else None, tuple(offset), required_local)

    def bind_child(self, cmd: Command, slots, static_local: int, name: str) -> BoundArgs:
        """The argument block of a block kernel: a copy of its literal (a buffer whose region
        fault reports name) and its local-memory parameters."""
        if (not slots or slots[0].kind != "buffer" or len(slots) != 1 + len(cmd.locals)
                or any(s.kind != "local" for s in slots[1:])):
            raise NotSupportedError(f"enqueuing kernel {name!r}, whose parameters are not a block literal "
                                    f"followed by {len(cmd.locals)} __local pointer(s)")
        block = np.zeros(max(slots[-1].offset + 24, 16), np.uint8)
        words = block.view(np.uint64)
        literal = cmd.literal if cmd.literal.nbytes else np.zeros(8, np.uint8)
        base = literal.ctypes.data
        end = base + cmd.literal.nbytes
        words[slots[0].offset // 8: slots[0].offset // 8 + 3] = (base, base, end)
        regions = self.root_regions + [(base, end, f"the block literal of kernel {name!r}")]
        local_at, local_args = static_local, []
        for slot, size in zip(slots[1:], cmd.locals):
            local_at = (local_at + 127) // 128 * 128
            words[slot.offset // 8: slot.offset // 8 + 2] = (local_at, size)
            local_args.append((local_at, size, f"the __local block parameter {slot.index} of kernel {name!r}"))
            local_at += size
        return BoundArgs(block, regions, local_args, (local_at + 63) // 64 * 64, [literal])


def _enqueued_fault(fault: KernelFault, cmd: Command) -> KernelFault:
    """The fault of a child, with the launches that enqueued it."""
    chain = []
    parent = cmd
    while parent is not None and parent.kind:
        chain.append(f"  {parent.name!r} was enqueued by work-item {parent.enqueuer} of "
                     + (f"the host launch of {parent.parent.name!r}" if not parent.parent.kind
                        else f"{parent.parent.name!r}"))
        parent = parent.parent
    message = f"{fault}\n" + "\n".join(chain)
    new = KernelFault(message, kernel=fault.kernel, global_id=fault.global_id, site=fault.site, buffer=fault.buffer,
                      offset=fault.offset, size=fault.size)
    new.enqueued_by = [c.name for c in _ancestors(cmd)]
    return new


def _ancestors(cmd: Command) -> list[Command]:
    out = []
    while cmd.parent is not None:
        cmd = cmd.parent
        out.append(cmd)
    return out
