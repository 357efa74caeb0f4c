"""Command queues and events. Each queue runs its commands on a thread of its own, in the
order they were enqueued (so an in-order queue's events complete in order; an out-of-order
queue, accepted, runs in order too), one command at a time on the whole device (kernels use
every core already); a command whose ``wait_for`` events (of other queues, or user events)
are not complete waits for them. ``enqueue_*`` returns at once with the command's Event,
except the blocking ones (``is_blocking=True``, the default of host transfers and maps), which
wait for their command. A command that fails (a kernel fault) fails its Event; the commands
after it in its queue, and those waiting for it, are not run (status
EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), and the error is raised by the first wait that
covers it: ``Event.wait``, ``wait_for_events``, ``finish`` or a blocking command. At exit,
the queues are drained before the interpreter goes (a kernel must not outlive its buffers)."""

from __future__ import annotations

import atexit
import queue as _fifo
import threading
import time
import weakref

import numpy as np

from .constants import (command_execution_status, command_queue_info, command_queue_properties, command_type,
                        event_info, profiling_info, status_code)
from .errors import Error, LogicError, RuntimeError, info_attribute
from .platform import Context, Device

_DEVICE = threading.Lock()          # one command runs on the device at a time
_SHUTDOWN = threading.Event()       # set at exit: commands still waiting for a user event are dropped
_WORKERS: set = set()


class _Worker:
    """A queue's thread, started on its first command; it ends when the queue is collected."""

    def __init__(self):
        self._fifo: _fifo.SimpleQueue = _fifo.SimpleQueue()
        self._thread: threading.Thread | None = None

    def submit(self, event: Event) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="spirvkit.cl queue", daemon=True)
            _WORKERS.add(self)
            self._thread.start()
        self._fifo.put(event)

    def _run(self) -> None:
        while (event := self._fifo.get()) is not None:
            event._execute()
        _WORKERS.discard(self)

    def stop(self) -> None:
        self._fifo.put(None)


@atexit.register
def _drain() -> None:
    _SHUTDOWN.set()
    for worker in list(_WORKERS):
        worker.stop()
        if worker._thread is not None:
            worker._thread.join()


class CommandQueue:
    """``CommandQueue(context, device=None, properties=None)``; usable as a context manager
    (``finish()`` on exit)."""

    def __init__(self, context: Context, device: Device | None = None, properties=0):
        if not isinstance(context, Context):
            raise LogicError("the first argument must be a Context", "clCreateCommandQueue",
                             status_code.INVALID_CONTEXT)
        if device is not None and device not in context.devices:
            raise LogicError("the device is not in the context", "clCreateCommandQueue", status_code.INVALID_DEVICE)
        if not isinstance(properties, (int, np.integer)):   # pyopencl: properties=None is a TypeError
            raise TypeError(f"CommandQueue properties must be an int, not {type(properties).__name__}")
        properties = int(properties)
        known = (command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE | command_queue_properties.PROFILING_ENABLE)
        if properties & ~known:
            raise LogicError(f"unsupported queue properties {properties:#x}", "clCreateCommandQueue",
                             status_code.INVALID_QUEUE_PROPERTIES)
        self.context = context
        self.device = device or context.devices[0]
        self.properties = properties
        self.reference_count = 1
        self._last: Event | None = None      # the latest command enqueued
        self._failed: Event | None = None    # a failed command whose error nobody has seen yet
        self._worker = _Worker()
        self._enqueue = threading.Lock()     # host threads enqueueing at once keep one order
        weakref.finalize(self, self._worker.stop)

    @property
    def _profiling(self) -> bool:
        return bool(self.properties & command_queue_properties.PROFILING_ENABLE)

    def finish(self) -> None:
        """Waits for every command enqueued so far; raises the error of one that failed."""
        last = self._last
        if last is not None:
            last._done.wait()
        self._raise_failure()

    def flush(self) -> None:
        """Every command is submitted to the device thread when it is enqueued."""

    def _raise_failure(self) -> None:
        failed, self._failed = self._failed, None
        if failed is not None and not _reported(failed._error):
            failed._report()

    def get_info(self, param: int):
        return info_attribute(command_queue_info, self, param, "clGetCommandQueueInfo")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.finish()

    def __repr__(self):
        return f"<pyopencl.CommandQueue on {self.device!r}>"


def _reported(error: BaseException) -> bool:
    return getattr(error, "_spirvkit_reported", False)


class _Profile:
    """``event.profile.start`` etc.: nanosecond timestamps (``time.perf_counter_ns``)."""

    def __init__(self, event: Event):
        self._event = event

    def __getattr__(self, name: str):
        param = getattr(profiling_info, name.upper(), None)
        if param is None:
            raise AttributeError(name)
        return self._event.get_profiling_info(param)


class Event:
    """A command's event: QUEUED when enqueued, SUBMITTED once its queue's thread takes it,
    RUNNING, then COMPLETE, or a negative error code if the command failed or could not run
    because one it waited for failed."""

    def __init__(self, queue: CommandQueue, command: int, work=None, wait_for=()):
        self._start(queue, queue.context, command, command_execution_status.QUEUED)
        self._work = work
        self._after = list(wait_for)
        self._previous = queue._last      # in-order: a failure before it stops it too

    def _start(self, queue, context, command: int, status: int) -> None:
        self.command_queue = queue
        self.command_type = command
        self.context = context
        self.reference_count = 1
        self._status = status
        self._work = self._previous = None
        self._after: list = []
        self._error: BaseException | None = None
        self._done = threading.Event()
        self._callbacks: list = []
        self._lock = threading.Lock()
        now = time.perf_counter_ns()
        self._times = [now, now, now, now]   # queued, submit, start, end

    @property
    def command_execution_status(self) -> int:
        return self._status

    def _execute(self) -> None:
        """Runs the command on its queue's thread (the commands before it there have run)."""
        self._times[1] = time.perf_counter_ns()
        self._status = command_execution_status.SUBMITTED
        for e in self._after:
            while not e._done.wait(0.05):
                if _SHUTDOWN.is_set() and isinstance(e, UserEvent):
                    self._finish(command_execution_status.QUEUED)   # dropped at exit: never set
                    return
        # What it waits for explicitly must have succeeded; the command before it in the queue,
        # unless its error has been raised to the host already (the program went on after it).
        cause = next((e for e in self._after if e._error is not None), None)
        if cause is None and self._previous is not None and self._previous._error is not None \
                and not _reported(self._previous._error):
            cause = self._previous
        if cause is not None:
            self._fail(cause._error, status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
            self._finish(self._status)
            return
        with _DEVICE:
            self._status = command_execution_status.RUNNING
            self._times[2] = time.perf_counter_ns()
            try:
                if self._work is not None:
                    self._work()
            except Error as exc:
                self._fail(exc, exc.code)
            except BaseException as exc:  # noqa: BLE001 - a bug must reach the host thread, not kill this one
                self._fail(exc, status_code.OUT_OF_RESOURCES)
            else:
                self._status = command_execution_status.COMPLETE
            self._times[3] = time.perf_counter_ns()
        self._finish(self._status)

    def _finish(self, status: int) -> None:
        self._status = status
        self._work = self._previous = None
        self._after = []
        with self._lock:
            self._done.set()
            callbacks, self._callbacks = self._callbacks, []
        for wanted, callback in callbacks:
            _call_back(callback, status)

    def set_callback(self, type: int, cb) -> None:
        """Calls ``cb(status)`` once the command completes (or fails), on its queue's thread;
        only ``command_execution_status.COMPLETE`` callbacks are supported."""
        if type != command_execution_status.COMPLETE:
            raise LogicError(f"not supported yet: callbacks for execution status "
                             f"{command_execution_status.to_string(type, '{}')} (COMPLETE only)",
                             "clSetEventCallback", status_code.INVALID_VALUE)
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append((type, cb))
                return
        _call_back(cb, self._status)

    def _fail(self, error: BaseException, code: int) -> None:
        self._error = error
        self._status = code if code < 0 else status_code.OUT_OF_RESOURCES
        self._times[3] = time.perf_counter_ns()
        queue = self.command_queue
        if queue._failed is None:
            queue._failed = self

    def _report(self) -> None:
        """Raises the error this event carries (once it has run)."""
        self._done.wait()
        if self._error is not None:
            self._error._spirvkit_reported = True
            raise self._error

    @property
    def profile(self) -> _Profile:
        return _Profile(self)

    def get_profiling_info(self, param: int) -> int:
        if not self.command_queue._profiling:
            raise RuntimeError("the queue was not created with PROFILING_ENABLE", "clGetEventProfilingInfo",
                               status_code.PROFILING_INFO_NOT_AVAILABLE)
        order = (profiling_info.QUEUED, profiling_info.SUBMIT, profiling_info.START, profiling_info.END)
        if param == profiling_info.COMPLETE:
            param = profiling_info.END
        if param not in order:
            raise LogicError(f"unknown parameter {param!r}", "clGetEventProfilingInfo", status_code.INVALID_VALUE)
        if not self._done.is_set():
            raise RuntimeError("the command has not completed yet", "clGetEventProfilingInfo",
                               status_code.PROFILING_INFO_NOT_AVAILABLE)
        return self._times[order.index(param)]

    def get_info(self, param: int):
        return info_attribute(event_info, self, param, "clGetEventInfo")

    def wait(self) -> None:
        """Blocks until the command has run; raises its error if it failed."""
        self._report()

    def __repr__(self):
        return (f"<pyopencl.Event {command_type.to_string(self.command_type, '{}')} "
                f"{command_execution_status.to_string(self._status, 'error {}')}>")


def _call_back(callback, status: int) -> None:
    try:
        callback(status)
    except Exception:  # noqa: BLE001 - as in OpenCL, a callback's failure is the callback's own
        import traceback
        traceback.print_exc()


class UserEvent(Event):
    """``UserEvent(context)``: an event the host completes with ``set_status(COMPLETE)`` (or
    fails with a negative status), which commands can wait for."""

    def __init__(self, context: Context):
        if not isinstance(context, Context):
            raise LogicError("the first argument must be a Context", "clCreateUserEvent", status_code.INVALID_CONTEXT)
        self._start(None, context, command_type.USER, command_execution_status.SUBMITTED)

    def set_status(self, status: int) -> None:
        routine = "clSetUserEventStatus"
        if self._done.is_set():
            raise LogicError("the user event's status was set already", routine, status_code.INVALID_OPERATION)
        if status != command_execution_status.COMPLETE and status >= 0:
            raise LogicError(f"a user event's status is COMPLETE or negative, not {status}", routine,
                             status_code.INVALID_VALUE)
        if status < 0:
            self._error = RuntimeError(f"a user event was given status {status}", routine,
                                       status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        self._times[2] = self._times[3] = time.perf_counter_ns()
        self._finish(int(status))

    def get_profiling_info(self, param: int) -> int:
        raise RuntimeError("a user event has no profiling information", "clGetEventProfilingInfo",
                           status_code.PROFILING_INFO_NOT_AVAILABLE)


def wait_for_events(events) -> None:
    for event in _check_wait_list(list(events), "clWaitForEvents", allow_empty=False):
        event._report()


def _check_wait_list(wait_for, routine: str, allow_empty: bool = True) -> list:
    events = [] if wait_for is None else list(wait_for)
    if not events and not allow_empty:
        raise LogicError("the event list is empty", routine, status_code.INVALID_VALUE)
    for e in events:
        if not isinstance(e, Event):
            raise LogicError(f"wait_for holds {type(e).__name__}, not an Event", routine,
                             status_code.INVALID_EVENT_WAIT_LIST)
    return events


def run_command(queue: CommandQueue, command: int, routine: str, wait_for, work=None,
                blocking: bool = False) -> Event:
    """Enqueues ``work()`` as a command of ``queue``, to run once every command before it and
    ``wait_for`` have; its Event. ``blocking``: wait for it, and raise its error or that of a
    command before it."""
    if not isinstance(queue, CommandQueue):
        raise LogicError(f"expected a CommandQueue, got {type(queue).__name__}", routine,
                         status_code.INVALID_COMMAND_QUEUE)
    wait_for = _check_wait_list(wait_for, routine)
    with queue._enqueue:
        event = Event(queue, command, work, wait_for)
        queue._last = event
        queue._worker.submit(event)
    if blocking:
        event._done.wait()
        queue._raise_failure()
        event._report()
    return event


def enqueue_marker(queue: CommandQueue, wait_for=None) -> Event:
    return run_command(queue, command_type.MARKER, "clEnqueueMarkerWithWaitList", wait_for)


def enqueue_barrier(queue: CommandQueue, wait_for=None) -> Event:
    return run_command(queue, command_type.BARRIER, "clEnqueueBarrierWithWaitList", wait_for)
