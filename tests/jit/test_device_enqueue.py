"""Device-side enqueue in the executor (OpenCL C 2.0 §6.13.17, SPIR-V 3.32.22; issue 15, item 3).

The kernels are tests/data/enqueue/enqueue.cl as clang-15 + llvm-spirv-15 compiled them
(enqueue.spv, the command in tests/data/enqueue/README.md). PoCL's CPU device has no device-side
enqueue, so the expected values come from the spec's semantics, modelled here: a child runs
after its parent's launch (every flag allows that), a command waits for its wait list's events,
a kernel's event completes when it and all its descendants have, a marker's when its wait list
has; the queue holds a documented number of bytes of records (runtime/limits.py) and refuses
more with CLK_DEVICE_QUEUE_FULL; a fault in a child names it and the launches that enqueued it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spirvkit
from spirvkit.errors import ExecutionError, KernelFault
from spirvkit.runtime import limits
from spirvkit.runtime.device_queue import record_bytes

DATA = Path(__file__).resolve().parents[1] / "data" / "enqueue"
SPV = DATA / "enqueue.spv"

# OpenCL C's codes (opencl-c-base.h).
CLK_SUCCESS, CLK_INVALID_EVENT_WAIT_LIST, CLK_DEVICE_QUEUE_FULL = 0, -57, -161
CLK_INVALID_ARG_SIZE, CLK_OUT_OF_RESOURCES = -51, -5


@pytest.fixture(scope="module")
def program():
    return spirvkit.Program(SPV)


@pytest.mark.parametrize("env", ["opencl2.0", "opencl2.2"])
def test_fixture_validates(env):
    assert spirvkit.validate(SPV.read_bytes(), env, max_errors=None) == []


@pytest.mark.parametrize("unchecked", [False, True])
def test_simple_child_runs_after_the_parent(program, unchecked):
    a = np.full(24, -1, np.int32)
    program.kernel("simple")(24, 8, a, np.int32(24), unchecked=unchecked)
    # The parent writes a[i] = i; the child, which runs after it, adds 10.
    assert a.tolist() == [i + 10 for i in range(24)]


def test_captures_of_every_kind(program):
    out = np.full(12, -7, np.int32)
    src = np.array([0.5, 6.0, 2.0, 3.0], np.float32)
    pair = np.zeros((), np.dtype([("x", np.int32), ("y", np.float32)]))
    pair["x"], pair["y"] = 9, 1.5
    long_value = (1 << 33) | 5
    program.kernel("captures")(1, 1, out, src, np.int8(-3), np.int16(300), np.int64(long_value), np.float32(2.25),
                               1.25, np.array([1, 2, 3, 4], np.int32), pair)
    expected = [-3, 300, np.int64(long_value).astype(np.int32), int(2.25 * 2), int(1.25 * 4), 1 + 2 + 3 + 4, 9,
                int(1.5 * 10), 5 + 6 + 7, 6,
                1,    # the captured __constant pointer is null
                0]    # enqueue_marker(q, 0, NULL, NULL) through the captured queue: a successful no-op
    assert out.tolist() == [int(v) for v in expected]


def _fill_range_model(a, lo, hi, depth):
    if hi - lo <= 4:
        for i in range(lo, hi):
            a[i] = i * 2 + depth
        return
    mid = (lo + hi) // 2
    _fill_range_model(a, lo, mid, depth + 1)
    _fill_range_model(a, mid, hi, depth + 1)


@pytest.mark.parametrize("n", [1, 4, 37, 100])
def test_recursive_subdivision(program, n):
    a = np.full(n, -1, np.int32)
    program.kernel("subdivide")(1, 1, a, np.int32(n))
    expected = [-1] * n
    _fill_range_model(expected, 0, n, 0)
    assert a.tolist() == expected


@pytest.mark.parametrize("flag", [0, 1, 2], ids=["NO_WAIT", "WAIT_KERNEL", "WAIT_WORK_GROUP"])
def test_every_flag_sees_the_whole_parent(program, flag):
    # Each group's child sums what every work-item of the parent wrote: a child starting
    # after the parent has finished satisfies each flag.
    a = np.zeros(64, np.int32)
    out = np.zeros(4, np.int32)
    program.kernel("flags")(64, 16, a, out, np.int32(flag))
    assert out.tolist() == [sum(range(1, 65))] * 4


def test_events_markers_and_profiling(program):
    log = np.zeros(48, np.int32)
    status = np.full(8, 99, np.int32)
    prof = np.zeros(2, np.uint64)
    program.kernel("events")(1, 1, log, status, prof)
    # A (1) enqueues a grandchild (11); B (2) waits for A's event, which completes only once
    # the grandchild has; C (3) waits for a marker on A and B.
    assert log[0] == 4 and log[1:5].tolist() == [1, 11, 2, 3]
    assert status[:5].tolist() == [CLK_SUCCESS] * 4 + [1]      # four enqueues; is_valid_event(ea)
    # A wait list that is NULL with a count, or a count of 0 with a list.
    assert status[6:8].tolist() == [CLK_INVALID_EVENT_WAIT_LIST] * 2
    assert log[40] == 0 and log[41] == 0
    # END - START of A's launch, COMPLETE - START including its grandchild.
    assert 0 < prof[0] <= prof[1]


def test_profiling_asked_after_completion(program):
    prof = np.zeros(8, np.uint64)
    status = np.full(2, 99, np.int32)
    program.kernel("late_capture")(1, 1, prof, status)
    assert status.tolist() == [CLK_SUCCESS, CLK_SUCCESS]
    assert prof[4:].tolist() == [1, 1, 1, 1]
    assert 0 < prof[0] <= prof[1]


def test_marker_without_wait_list(program):
    log = np.zeros(16, np.int32)
    program.kernel("marker_all")(1, 1, log)
    # A (1) and B (2) run in the order enqueued; the marker waits for both, A's child (11)
    # included, before C (3). The marker A enqueues waits for nothing of its own ancestors.
    assert log[0] == 4 and log[1:5].tolist() == [1, 2, 11, 3]
    assert log[10] == CLK_SUCCESS and log[11] == CLK_SUCCESS


def test_user_event_set_by_a_sibling(program):
    log = np.zeros(8, np.int32)
    status = np.full(4, 99, np.int32)
    program.kernel("user_events")(1, 1, log, status)
    assert status[:3].tolist() == [1, CLK_SUCCESS, CLK_SUCCESS]
    # The child waiting on the user event runs after the sibling that sets it.
    assert log[:3].tolist() == [2, 1, 2]


def test_user_event_error_status_stops_its_waiter(program):
    log = np.zeros(4, np.int32)
    with pytest.raises(ExecutionError, match=r"__user_event_error_block_invoke_kernel.*not run.*-5"):
        program.kernel("user_event_error")(1, 1, log)
    assert log[:2].tolist() == [1, 0]


def test_user_event_never_set_is_reported(program):
    log = np.zeros(4, np.int32)
    with pytest.raises(ExecutionError, match=r"never complete.*__user_event_never_block_invoke_kernel"):
        program.kernel("user_event_never")(1, 1, log)
    assert log[1] == 0


def test_event_allocation_failure(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ON_DEVICE_EVENTS", 0)
    program = spirvkit.Program(SPV)   # its device queue is made with the lowered limit
    log = np.zeros(8, np.int32)
    status = np.full(4, 99, np.int32)
    program.kernel("user_events")(1, 1, log, status)
    # create_user_event gives CLK_NULL_EVENT, which is no valid event: the enqueue that waits
    # on it fails; set_user_event_status on it does nothing.
    assert status[:3].tolist() == [0, CLK_INVALID_EVENT_WAIT_LIST, CLK_SUCCESS]
    assert log[:2].tolist() == [1, 1]


@pytest.mark.parametrize("sub_group_size", [None, 4, 5])
def test_kernel_queries(program, sub_group_size):
    out = np.zeros(12, np.uint32)
    program.kernel("queries")(1, 1, out, sub_group_size=sub_group_size)
    max_items = spirvkit.device_limits().max_work_group_size
    # ndrange_1D(64, 16): groups of 16 work-items, in sub-groups of the launch's size.
    count, largest = (1, 16) if sub_group_size is None else (-(-16 // sub_group_size), sub_group_size)
    assert out[:6].tolist() == [max_items, 8, max_items, 8, count, largest]
    assert out[10] == 0 and out[11] == 0   # the queried blocks never ran


def _pick_local(g):
    budget, out = 256, []
    for v in g:
        best = max(d for d in range(1, min(v, budget) + 1) if v % d == 0) if budget > 1 else 1
        out.append(best)
        budget //= best
    return out


SHAPES = [  # (global, local or None, offset or None) of shapes(which)
    ((10,), None, None), ((12,), (4,), None), ((12,), (4,), (3,)),
    ((4, 6), None, None), ((4, 6), (2, 3), None), ((4, 6), (2, 3), (1, 2)),
    ((2, 3, 4), None, None), ((2, 3, 4), (1, 3, 2), None), ((2, 3, 4), (1, 3, 2), (5, 6, 7)),
]


@pytest.mark.parametrize("which", range(len(SHAPES)))
def test_ndrange_shapes(program, which):
    glob, local, offset = SHAPES[which]
    dims = len(glob)
    local = list(local or _pick_local(glob))
    offset = list(offset or (0,) * dims)
    pad = 3 - dims
    g3, l3, o3 = list(glob) + [1] * pad, local + [1] * pad, offset + [0] * pad
    expected = np.full((30, 16), -1, np.int32)
    for z in range(g3[2]):
        for y in range(g3[1]):
            for x in range(g3[0]):
                gid = [x + o3[0], y + o3[1], z + o3[2]]
                k = (z * g3[1] + y) * g3[0] + x
                expected[k] = [dims, *gid, x % l3[0], y % l3[1], z % l3[2], *g3, *l3, *o3]
    out = np.full(30 * 16, -1, np.int32)
    program.kernel("shapes")(1, 1, out, np.int32(which))
    assert out.reshape(30, 16).tolist() == expected.tolist()


def test_local_memory_block_parameters(program):
    out = np.full(12, 7, np.int32)
    src = np.arange(32, dtype=np.int32) * 3 - 5
    program.kernel("local_args")(1, 1, out, src)
    sums = [int(src[8 * g: 8 * g + 8].sum()) for g in range(4)]
    assert out[:8].tolist() == sums + [2 * s for s in sums]
    # A local-memory size of 0 is refused, and so is one past the device's local memory; those
    # blocks never run.
    assert out[8] == CLK_INVALID_ARG_SIZE and out[9] == 7
    assert out[10] == CLK_OUT_OF_RESOURCES and out[11] == 7


def test_full_queue(monkeypatch):
    # flood's block literal: size, align, invoke and the captured pointer, 24 bytes.
    per_command = record_bytes(0, 0, 24)
    monkeypatch.setattr(limits, "QUEUE_ON_DEVICE_MAX_SIZE", 40 * per_command + per_command // 2)
    program = spirvkit.Program(SPV)
    status = np.full(256, 99, np.int32)
    hits = np.zeros(1, np.int32)
    program.kernel("flood")(256, 32, status, hits)
    assert (status == CLK_SUCCESS).sum() == 40
    assert (status == CLK_DEVICE_QUEUE_FULL).sum() == 256 - 40
    assert hits[0] == 40      # what was enqueued ran, nothing else


def test_default_queue_size(program):
    limits_ = spirvkit.device_limits()
    assert limits_.queue_on_device_max_size == limits.QUEUE_ON_DEVICE_MAX_SIZE >= 256 * 1024   # OpenCL's minimum
    assert limits_.max_on_device_events >= 1024
    status = np.full(2048, 99, np.int32)
    hits = np.zeros(1, np.int32)
    program.kernel("flood")(2048, 64, status, hits)
    fits = limits_.queue_on_device_max_size // record_bytes(0, 0, 24)
    assert (status == CLK_SUCCESS).sum() == fits == hits[0]
    assert (status == CLK_DEVICE_QUEUE_FULL).sum() == 2048 - fits


def test_runaway_recursion_is_bounded(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ENQUEUED_COMMANDS", 100)
    program = spirvkit.Program(SPV)
    count = np.zeros(1, np.int32)
    program.kernel("runaway")(1, 1, count)
    # The host launch and 100 descendants ran; the 101st enqueue failed (CLK_OUT_OF_RESOURCES).
    assert count[0] == 101


def test_fault_in_a_child_names_it_and_its_parent(program):
    a = np.zeros(8, np.int32)
    with pytest.raises(KernelFault) as info:
        program.kernel("child_fault")(1, 1, a, np.int32(8))
    fault = info.value
    assert fault.kernel == "__child_fault_block_invoke_kernel"
    assert fault.global_id == (8, 0, 0) and fault.offset == 32 and fault.size == 4
    text = str(fault)
    assert "out-of-bounds write in kernel '__child_fault_block_invoke_kernel'" in text
    assert "of the host launch of 'child_fault'" in text
    assert "enqueued by work-item (0, 0, 0) of the host launch of 'child_fault'" in text
    assert fault.enqueued_by == ["child_fault"]


def test_the_program_runs_again_after_a_fault(program):
    a = np.zeros(8, np.int32)
    with pytest.raises(KernelFault):
        program.kernel("child_fault")(1, 1, a, np.int32(8))
    b = np.full(5, -1, np.int32)
    program.kernel("simple")(5, 5, b, np.int32(5))
    assert b.tolist() == [10, 11, 12, 13, 14]


# The SPIR-V specification's own forms, which llvm-spirv does not make: an ND Range operand
# that is the struct itself (not a pointer to it), a Local Size that is a value, an Invoke that
# is the entry point itself; and the SubgroupDispatch queries.
_SPEC_FORM_TYPES = """
%queue_t = OpTypeQueue
%devev = OpTypeDeviceEvent
%pGen_devev = OpTypePointer Generic %devev
%null_ev = OpConstantNull %pGen_devev
%arr3 = OpTypeArray %ulong %ulong_3
%ndrange_t = OpTypeStruct %uint %arr3 %arr3 %arr3
%fn_child = OpTypeFunction %void %pGen_uchar %pWG_uchar
%fn_main = OpTypeFunction %void %pCW_uint
%pGen_pCW_uint = OpTypePointer Generic %pCW_uint
"""

_SPEC_FORM_FUNCTIONS = """
%child = OpFunction %void None %fn_child
%lit = OpFunctionParameter %pGen_uchar
%scratch = OpFunctionParameter %pWG_uchar
%child_entry = OpLabel
%gids = OpLoad %v3ulong %GlobalInvocationId
%cgid = OpCompositeExtract %ulong %gids 0
%lids = OpLoad %v3ulong %LocalInvocationId
%lid = OpCompositeExtract %ulong %lids 0
%lit_p = OpBitcast %pGen_pCW_uint %lit
%dst = OpLoad %pCW_uint %lit_p Aligned 8
%s_p = OpInBoundsPtrAccessChain %pWG_uchar %scratch %ulong_63
OpStore %s_p %uchar_7
%s_v = OpLoad %uchar %s_p
%s_w = OpUConvert %uint %s_v
%lid32 = OpUConvert %uint %lid
%gid32 = OpUConvert %uint %cgid
%t1 = OpIMul %uint %lid32 %uint_1000
%t2 = OpIAdd %uint %t1 %gid32
%t3 = OpIMul %uint %s_w %uint_100000
%v = OpIAdd %uint %t2 %t3
%o_p = OpInBoundsPtrAccessChain %pCW_uint %dst %cgid
OpStore %o_p %v
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn_main
%out = OpFunctionParameter %pCW_uint
%main_entry = OpLabel
%slot = OpVariable %pFn_pCW_uint Function
OpStore %slot %out Aligned 8
%q = OpGetDefaultQueue %queue_t
%nd = OpBuildNDRange %ndrange_t %ulong_8 %ulong_4 %ulong_0
%lit_fn = OpBitcast %pFn_uchar %slot
%lit_gen = OpPtrCastToGeneric %pGen_uchar %lit_fn
%r = OpEnqueueKernel %uint %q %uint_1 %nd %uint_0 %null_ev %null_ev %child %lit_gen %uint_8 %uint_8 %uint_64
%ls = OpGetKernelLocalSizeForSubgroupCount %uint %uint_2 %child %lit_gen %uint_8 %uint_8
%mx = OpGetKernelMaxNumSubgroups %uint %child %lit_gen %uint_8 %uint_8
%wg = OpGetKernelWorkGroupSize %uint %child %lit_gen %uint_8 %uint_8
%cnt = OpGetKernelNDrangeSubGroupCount %uint %nd %child %lit_gen %uint_8 %uint_8
%r_p = OpInBoundsPtrAccessChain %pCW_uint %out %ulong_16
OpStore %r_p %r
%ls_p = OpInBoundsPtrAccessChain %pCW_uint %out %ulong_17
OpStore %ls_p %ls
%mx_p = OpInBoundsPtrAccessChain %pCW_uint %out %ulong_18
OpStore %mx_p %mx
%wg_p = OpInBoundsPtrAccessChain %pCW_uint %out %ulong_19
OpStore %wg_p %wg
%cnt_p = OpInBoundsPtrAccessChain %pCW_uint %out %ulong_20
OpStore %cnt_p %cnt
OpReturn
OpFunctionEnd
"""


@pytest.mark.parametrize("sub_group_size", [None, 4])
def test_specification_forms_and_sub_group_dispatch_queries(sub_group_size):
    from jit.asm_kernel import build

    binary = build(_SPEC_FORM_FUNCTIONS, types=_SPEC_FORM_TYPES, capabilities=("DeviceEnqueue", "SubgroupDispatch"),
                   entry_points=("main", "child"))
    assert spirvkit.validate(binary, "opencl2.2", max_errors=None) == []
    out = np.full(24, 9, np.uint32)
    spirvkit.Program(binary).kernel("main")(1, 1, out, sub_group_size=sub_group_size)
    # ndrange(global 8, local 4): local ids 0-3; the 64-byte local block holds its byte 63.
    assert out[:8].tolist() == [7 * 100000 + (i % 4) * 1000 + i for i in range(8)]
    max_items = spirvkit.device_limits().max_work_group_size
    if sub_group_size is None:   # one sub-group per work-group
        assert out[16:21].tolist() == [CLK_SUCCESS, 0, 1, max_items, 1]
    else:
        assert out[16:21].tolist() == [CLK_SUCCESS, 2 * 4, max_items // 4, max_items, 1]


def test_block_literal_loads_are_invariant_unless_written():
    """jit/block_literal.py: a child's loads of its captures are marked invariant (so LLVM hoists
    them out of the work-item loops), but not in a kernel that writes its literal."""
    from jit.asm_kernel import build
    from spirvkit.jit.compiler import lower_kernel

    module = spirvkit.Module.from_bytes(SPV.read_bytes())
    for checked in (True, False):
        text, _, _ = lower_kernel(module, "__simple_block_invoke_kernel", checked)
        assert "!invariant.load" in text
    writes = _SPEC_FORM_FUNCTIONS.replace("OpStore %o_p %v\n", "OpStore %o_p %v\nOpStore %lit_p %dst\n")
    binary = build(writes, types=_SPEC_FORM_TYPES, capabilities=("DeviceEnqueue", "SubgroupDispatch"),
                   entry_points=("main", "child"))
    text, _, _ = lower_kernel(spirvkit.Module.from_bytes(binary), "child", True)
    assert "!invariant.load" not in text
    out = np.full(24, 9, np.uint32)
    spirvkit.Program(binary).kernel("main")(1, 1, out)
    assert out[:8].tolist() == [7 * 100000 + (i % 4) * 1000 + i for i in range(8)]


# ----- spirvkit cc's own kernels: what the conformance suite's device_execution tests need --------

def _cc(source: str) -> spirvkit.Program:
    return spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0"))


_WIDE = """
void spread(global int *hits, global int *status, int level) {
  atomic_inc(&hits[get_global_id(0)]);
  if (level == 0) return;
  int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4),
                         ^{ spread(hits, status, level - 1); });
  if (r != CLK_SUCCESS) atomic_inc(&status[0]);
}
kernel void wide(global int *hits, global int *status, int level) { spread(hits, status, level); }
"""


def test_a_wide_recursion_stays_within_the_queue():
    # 64 work-items, each a tree of fan-out 4 and depth 4: 4096 leaves enqueued at the last level.
    # Run breadth first they would all wait in the queue at once (more than its 256 KiB); past half
    # of it the newest commands run first, so every enqueue succeeds.
    hits, status = np.zeros(64, np.int32), np.zeros(1, np.int32)
    _cc(_WIDE).kernel("wide")(64, 64, hits, status, np.int32(4))
    expected = np.zeros(64, np.int64)
    expected[:] = 1                    # the host launch
    for depth in range(1, 5):          # each work-item of a child launch of 4 counts its own id
        expected[:4] += 64 * 4 ** (depth - 1)
    assert status[0] == 0
    assert hits.tolist() == expected.tolist()


def test_a_queue_passed_from_the_host():
    source = """
    kernel void k(global int *o, queue_t q, queue_t q2) {
      size_t i = get_global_id(0);
      o[i] = -1;
      int a = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ o[i] += 11; });
      int b = enqueue_kernel(q2, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{ o[i] += 100; });
      if (a != CLK_SUCCESS || b != CLK_SUCCESS) o[i] = -1000;
    }
    """
    program = _cc(source)
    k = program.kernel("k")
    assert [a.type for a in k.args[1:]] == ["queue_t", "queue_t"]
    out = np.zeros(8, np.int32)
    k(8, 4, out, spirvkit.DeviceQueue(), spirvkit.DeviceQueue.default)
    assert out.tolist() == [110] * 8
    from spirvkit.errors import KernelArgumentError
    with pytest.raises(KernelArgumentError, match=r"argument 1 \('q'\) is a queue_t: pass a spirvkit.DeviceQueue"):
        k(8, 4, out, 0, spirvkit.DeviceQueue())


def test_profiling_of_a_complete_command_is_readable_at_once():
    # The times of a command already complete are written by capture_event_profiling_info itself,
    # so the work-item that asks reads them next (the conformance suite's after-execution test).
    source = """
    kernel void k(global ulong *times, global int *ok) {
      clk_event_t e;
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), 0, NULL, &e, ^{ });
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &e, NULL, ^{
        capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, times);
        ok[0] = times[0] > 0 && times[1] >= times[0];
        release_event(e);
      });
    }
    """
    times, ok = np.zeros(2, np.uint64), np.zeros(1, np.int32)
    _cc(source).kernel("k")(1, 1, times, ok)
    assert ok[0] == 1 and 0 < times[0] <= times[1]


def test_spirvkit_run_passes_a_queue(tmp_path):
    import subprocess
    import sys

    spv = tmp_path / "q.spv"
    spv.write_bytes(spirvkit.compile_cl("kernel void k(global int *o, queue_t q) { size_t i = get_global_id(0); "
                                        "enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), "
                                        "^{ o[i] = (int)i * 3; }); }", "-cl-std=CL2.0"))
    result = subprocess.run([sys.executable, "-m", "spirvkit", "run", str(spv), "--kernel", "k", "--global", "4",
                             "--arg", "zeros:4", "--arg", "queue"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "[0, 3, 6, 9]" in result.stdout
