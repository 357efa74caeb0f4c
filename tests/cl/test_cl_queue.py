"""spirvkit.cl: command queues, events, markers, barriers and profiling."""

import numpy as np
import pytest

import spirvkit.cl as cl


def test_queue_basics(ctx):
    q = cl.CommandQueue(ctx)
    assert q.device == ctx.devices[0] and q.context is ctx and q.properties == 0
    assert q.get_info(cl.command_queue_info.CONTEXT) is ctx
    q.flush()
    q.finish()
    with cl.CommandQueue(ctx, ctx.devices[0], cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE) as q2:
        ev = cl.enqueue_marker(q2)
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE   # finish() on exit


def test_bad_queues(ctx):
    with pytest.raises(cl.LogicError) as info:
        cl.CommandQueue(ctx, properties=cl.command_queue_properties.ON_DEVICE)
    assert info.value.code == cl.status_code.INVALID_QUEUE_PROPERTIES
    with pytest.raises(TypeError):
        cl.CommandQueue(ctx, properties=None)
    with pytest.raises(cl.LogicError) as info:
        cl.CommandQueue("not a context")
    assert info.value.code == cl.status_code.INVALID_CONTEXT


def test_profiling_gives_ordered_timestamps(ctx):
    q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 1 << 20)
    first = cl.enqueue_fill_buffer(q, buf, np.uint8(1), 0, 1 << 20)
    second = cl.enqueue_copy(q, np.empty(1 << 20, np.uint8), buf, wait_for=[first])
    p = first.profile
    assert p.queued <= p.submit <= p.start <= p.end <= second.profile.start <= second.profile.end
    assert first.get_profiling_info(cl.profiling_info.END) == p.end
    assert p.end > p.start


def test_profiling_needs_the_queue_property(ctx):
    ev = cl.enqueue_marker(cl.CommandQueue(ctx))
    with pytest.raises(cl.RuntimeError) as info:
        ev.profile.start
    assert info.value.code == cl.status_code.PROFILING_INFO_NOT_AVAILABLE


def test_events_markers_barriers(ctx):
    q = cl.CommandQueue(ctx)
    a = cl.enqueue_marker(q)
    b = cl.enqueue_barrier(q, wait_for=[a])
    cl.wait_for_events([a, b])
    a.wait()
    assert b.command_type == cl.command_type.BARRIER and b.command_queue is q
    assert a.get_info(cl.event_info.COMMAND_EXECUTION_STATUS) == cl.command_execution_status.COMPLETE
    with pytest.raises(cl.LogicError) as info:
        cl.enqueue_marker(q, wait_for=["nope"])
    assert info.value.code == cl.status_code.INVALID_EVENT_WAIT_LIST
    with pytest.raises(cl.LogicError):
        cl.wait_for_events([])
    with pytest.raises(cl.LogicError) as info:
        cl.enqueue_marker(ctx)
    assert info.value.code == cl.status_code.INVALID_COMMAND_QUEUE


SLOW = """
__kernel void spin(__global float *x, int n) {
    float v = x[get_global_id(0)];
    for (int i = 0; i < n; i++) v = v * 0.5f + 1.0f;
    x[get_global_id(0)] = v;
}
__kernel void oob(__global int *x) { x[get_global_id(0) + 1] = 7; }
__kernel void inc(__global int *x) { x[get_global_id(0)] += 1; }
"""


@pytest.fixture(scope="module")
def slow(ctx):
    return cl.Program(ctx, SLOW).build()


def test_kernels_run_asynchronously(ctx, slow):
    q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    x = np.ones(64, np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR, hostbuf=x)
    ev = slow.spin(q, x.shape, None, buf, np.int32(1_000_000))
    # The launch (and its first compilation) happens on the device thread: enqueue has returned.
    s = cl.command_execution_status
    assert ev.command_execution_status in (s.QUEUED, s.SUBMITTED, s.RUNNING)
    with pytest.raises(cl.RuntimeError) as info:
        ev.profile.end
    assert info.value.code == cl.status_code.PROFILING_INFO_NOT_AVAILABLE
    ev.wait()
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE
    assert x[0] != 1 and ev.profile.end > ev.profile.start >= ev.profile.submit >= ev.profile.queued


def test_in_order_events_and_blocking_reads(ctx, slow):
    q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    a = np.zeros(16, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    events = [slow.inc(q, a.shape, None, buf) for _ in range(5)]
    out = np.empty_like(a)
    cl.enqueue_copy(q, out, buf)                      # blocking: every kernel before it has run
    assert (out == 5).all()
    assert all(e.command_execution_status == cl.command_execution_status.COMPLETE for e in events)
    assert all(p.profile.end <= n.profile.start for p, n in zip(events, events[1:]))
    later = np.empty_like(a)
    ev = cl.enqueue_copy(q, later, buf, is_blocking=False)
    ev.wait()
    assert (later == 5).all()


def test_a_fault_surfaces_at_the_next_wait_and_stops_the_queue(ctx, slow):
    q = cl.CommandQueue(ctx)
    a = np.zeros(4, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    bad = slow.oob(q, (4,), None, buf)
    after = slow.inc(q, (4,), None, buf)              # in order after the fault: not run
    out = np.zeros_like(a)
    with pytest.raises(cl.RuntimeError) as info:
        cl.enqueue_copy(q, out, buf)                  # the first wait covering the fault raises it
    assert info.value.code == cl.status_code.OUT_OF_RESOURCES and "'oob'" in info.value.what
    assert bad.command_execution_status == cl.status_code.OUT_OF_RESOURCES
    assert after.command_execution_status == cl.status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    q.finish()                                        # reported once: the queue goes on
    slow.inc(q, (4,), None, buf)
    cl.enqueue_copy(q, out, buf)
    assert out.tolist() == [1, 8, 8, 8]
    with pytest.raises(cl.RuntimeError):
        bad.wait()                                    # an event keeps its error


def test_waiting_on_a_failed_event_of_another_queue(ctx, slow):
    q1, q2 = cl.CommandQueue(ctx), cl.CommandQueue(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    bad = slow.oob(q1, (4,), None, buf)
    dependent = cl.enqueue_marker(q2, wait_for=[bad])
    with pytest.raises(cl.RuntimeError):
        cl.wait_for_events([dependent])
    assert dependent.command_execution_status == cl.status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    q1.finish()                                       # the fault was raised once, by the wait above
    with pytest.raises(cl.RuntimeError):
        bad.wait()


def test_checks_off_for_a_context(ctx, monkeypatch):
    # A read one element past a buffer: a located fault when checked; unchecked, it runs (the
    # buffer's allocation has room past its end: aligned_bytes over-allocates).
    src = "__kernel void past(__global int *x, __global int *y) { x[0] = y[get_global_id(0) + 1]; }"
    checked = cl.Program(ctx, src).build()
    q = cl.CommandQueue(ctx)
    x, y = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    with pytest.raises(cl.RuntimeError, match="'past'"):
        checked.past(q, (4,), None, x, y).wait()
    assert not ctx.unchecked
    for context in (cl.Context(unchecked=True), _env_context(monkeypatch)):
        assert context.unchecked
        q = cl.CommandQueue(context)
        x, y = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4), cl.Buffer(context, cl.mem_flags.READ_WRITE, 16)
        cl.Program(context, src).build().past(q, (4,), None, x, y).wait()


def _env_context(monkeypatch):
    monkeypatch.setenv("SPIRVKIT_CL_UNCHECKED", "1")
    return cl.create_some_context(interactive=False)


def test_user_events_hold_commands_back(ctx, slow):
    q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    gate = cl.UserEvent(ctx)
    assert gate.command_type == cl.command_type.USER
    assert gate.command_execution_status == cl.command_execution_status.SUBMITTED
    a = np.zeros(4, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR, hostbuf=a)
    ev = slow.inc(q, (4,), None, buf, wait_for=[gate])
    seen = []
    ev.set_callback(cl.command_execution_status.COMPLETE, seen.append)
    other = cl.enqueue_marker(cl.CommandQueue(ctx))   # another queue is not held back
    other.wait()
    assert ev.command_execution_status != cl.command_execution_status.COMPLETE and (a == 0).all()
    gate.set_status(cl.command_execution_status.COMPLETE)
    ev.wait()
    assert (a == 1).all() and seen == [cl.command_execution_status.COMPLETE]
    late = []
    ev.set_callback(cl.command_execution_status.COMPLETE, late.append)   # already complete: called now
    assert late == [cl.command_execution_status.COMPLETE]
    with pytest.raises(cl.LogicError):
        gate.set_status(cl.command_execution_status.COMPLETE)
    with pytest.raises(cl.LogicError, match="not supported yet"):
        ev.set_callback(cl.command_execution_status.RUNNING, late.append)


def test_a_failed_user_event_fails_its_dependents(ctx):
    q = cl.CommandQueue(ctx)
    gate = cl.UserEvent(ctx)
    ev = cl.enqueue_marker(q, wait_for=[gate])
    gate.set_status(-1)
    with pytest.raises(cl.RuntimeError) as info:
        ev.wait()
    assert info.value.code == cl.status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    with pytest.raises(cl.LogicError):
        cl.UserEvent(cl.UserEvent(ctx)).set_status(1)
