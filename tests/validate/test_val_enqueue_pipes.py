"""Operand and result types of the device-side enqueue and pipe instructions (SPIR-V 3.32.22-23;
validate/enqueue_pipes.py), which spirv-val 2025.5 does not check (spec_decided.py). The
grammar-aware fuzz target found modules with, e.g., a pointer as OpSetUserEventStatus's event
that both validators accepted and the executor's lowering could not handle."""

from __future__ import annotations

import re

import pytest
from val_modules import kernel

import spirvkit
from spirvkit.validate import validate

CAPS = "OpCapability DeviceEnqueue\nOpCapability Pipes\nOpCapability Int8\nOpCapability GenericPointer"
TYPES = """%event = OpTypeDeviceEvent
%queue = OpTypeQueue
%rid = OpTypeReserveId
%rpipe = OpTypePipe ReadOnly
%wpipe = OpTypePipe WriteOnly
%uchar = OpTypeInt 8 0
%_ptr_Generic_uchar = OpTypePointer Generic %uchar
%_ptr_Function_uchar = OpTypePointer Function %uchar
%_ptr_Function_event = OpTypePointer Function %event
%uint_4 = OpConstant %uint 4
%uint_3 = OpConstant %uint 3
%fn_pipes = OpTypeFunction %void %rpipe %wpipe
%fn_event = OpTypeFunction %void %event %_ptr_Function_event"""

FUNCTIONS = """%pipes = OpFunction %void None %fn_pipes
%rp = OpFunctionParameter %rpipe
%wp = OpFunctionParameter %wpipe
%pe = OpLabel
%pv = OpVariable %_ptr_Function_uchar Function
%g = OpPtrCastToGeneric %_ptr_Generic_uchar %pv
{pipes}
OpReturn
OpFunctionEnd
%events = OpFunction %void None %fn_event
%ev = OpFunctionParameter %event
%evp = OpFunctionParameter %_ptr_Function_event
%ee = OpLabel
{events}
OpReturn
OpFunctionEnd"""

VALID_PIPES = """%r = OpReadPipe %uint %rp %g %uint_4 %uint_4
%id = OpReserveWritePipePackets %rid %wp %uint_2 %uint_4 %uint_4
%w = OpReservedWritePipe %uint %wp %id %uint_0 %g %uint_4 %uint_4
OpCommitWritePipe %wp %id %uint_4 %uint_4
%n = OpGetNumPipePackets %uint %rp %uint_4 %uint_4"""
VALID_EVENTS = """%u = OpCreateUserEvent %event
OpSetUserEventStatus %u %uint_0
%ok = OpIsValidEvent %bool %ev
OpRetainEvent %ev
OpReleaseEvent %ev
%q = OpGetDefaultQueue %queue
%m = OpEnqueueMarker %uint %q %uint_1 %evp %evp"""


def _module(pipes: str = VALID_PIPES, events: str = VALID_EVENTS) -> bytes:
    text = kernel(caps=CAPS, types=TYPES, functions=FUNCTIONS.format(pipes=pipes, events=events))
    return spirvkit.assemble(text, "opencl2.0")


CASES = [
    ("read-pipe-from-write-pipe", VALID_PIPES.replace("OpReadPipe %uint %rp", "OpReadPipe %uint %wp"), None,
     "pipe.operand-type", "OpReadPipe: Pipe must have a type of OpTypePipe with ReadOnly"),
    ("read-pipe-private-pointer", VALID_PIPES.replace("%rp %g", "%rp %pv"), None,
     "pipe.operand-type", "Pointer must have a type of OpTypePointer with a Generic Storage Class"),
    ("packet-size-64-bit", VALID_PIPES.replace("%r = OpReadPipe %uint %rp %g %uint_4", "%r = OpReadPipe %uint %rp %g %ulong_4"),
     None, "pipe.operand-type", "Packet Size must be a 32-bit integer type scalar"),
    ("alignment-not-dividing-size", VALID_PIPES.replace("OpGetNumPipePackets %uint %rp %uint_4 %uint_4",
                                                        "OpGetNumPipePackets %uint %rp %uint_3 %uint_2"),
     None, "pipe.operand-type", "Packet Alignment must evenly divide Packet Size"),
    ("reserve-result-not-reserve-id", VALID_PIPES.replace("OpReserveWritePipePackets %rid", "OpReserveWritePipePackets %uint")
     .replace("%w = OpReservedWritePipe %uint %wp %id %uint_0 %g %uint_4 %uint_4\nOpCommitWritePipe %wp %id %uint_4 %uint_4\n", ""),
     None, "pipe.result-type", "Result Type must be an OpTypeReserveId"),
    ("user-event-status-of-a-pointer", None, VALID_EVENTS.replace("OpSetUserEventStatus %u", "OpSetUserEventStatus %evp"),
     "enqueue.operand-type", "OpSetUserEventStatus: Event must have a type of OpTypeDeviceEvent"),
    ("user-event-status-64-bit", None, VALID_EVENTS.replace("OpSetUserEventStatus %u %uint_0", "OpSetUserEventStatus %u %ulong_4"),
     "enqueue.operand-type", "Status must be a 32-bit integer type scalar"),
    ("is-valid-event-int-result", None, VALID_EVENTS.replace("OpIsValidEvent %bool", "OpIsValidEvent %uint"),
     "enqueue.result-type", "Result Type must be a Boolean type"),
    ("marker-queue-not-a-queue", None, VALID_EVENTS.replace("OpEnqueueMarker %uint %q", "OpEnqueueMarker %uint %uint_0"),
     "enqueue.operand-type", "Queue must be of the type OpTypeQueue"),
    ("marker-wait-list-not-events", None, VALID_EVENTS.replace("%uint_1 %evp %evp", "%uint_1 %ev %evp"),
     "enqueue.operand-type", "Wait Events must be a pointer to OpTypeDeviceEvent"),
]

ULONG_4 = "%ulong_4 = OpConstant %ulong 4"   # only in the cases: an unused constant is fine


def test_valid_twins_pass():
    assert validate(_module(), "opencl2.0") == []


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_rule(case):
    _id, pipes, events, rule, text = case
    binary = spirvkit.assemble(kernel(caps=CAPS, types=TYPES + "\n" + ULONG_4, functions=FUNCTIONS.format(
        pipes=pipes or VALID_PIPES, events=events or VALID_EVENTS)), "opencl2.0")
    diagnostics = validate(binary, "opencl2.0", max_errors=None)
    assert diagnostics and diagnostics[0].rule == rule and text in diagnostics[0].message, diagnostics[:2]


def test_spirv_val_accepts_the_valid_twins():
    from peers import run_tool

    result = run_tool("spirv-val", ["--target-env", "opencl2.0", "-"], _module())
    assert result.returncode == 0, result.stderr.decode()


# OpEnqueueKernel, OpBuildNDRange and the kernel queries, on mutants of what cc writes for them.
ENQUEUE_SOURCE = """kernel void k(global int *o, int n) { size_t g[2] = {4, 2};
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(g), ^(local void *p){ o[0] = n; }, 16u);
  o[1] = get_kernel_work_group_size(^{ o[2] = 1; }); }"""

ENQUEUE_MUTANTS = [
    ("ndrange-size-32-bit", r"(OpBuildNDRange %\w+ )%\w+", r"\1%uint_2", "GlobalWorkSize must be a scalar or an array"),
    ("enqueue-result-64-bit", r"OpEnqueueKernel %uint", "OpEnqueueKernel %ulong", "Result Type must be a 32-bit"),
    ("enqueue-param-size-64-bit", r"(OpEnqueueKernel( %\w+){9} )%uint_\d+", r"\1%ulong_16",
     "Param Size must be a 32-bit integer"),
    ("enqueue-local-size-64-bit", r"(OpEnqueueKernel( %\w+){11} )%\w+", r"\1%ulong_16",
     "Local Size must be a 32-bit integer"),
    ("query-param-not-bytes", r"(OpGetKernelWorkGroupSize( %\w+){2} )%\w+", r"\1%uint_24",
     "Param must be a pointer to an 8-bit integer"),
]


@pytest.fixture(scope="module")
def enqueue_text():
    return spirvkit.disassemble(spirvkit.compile_cl(ENQUEUE_SOURCE, "-cl-std=CL2.0"))


def test_cc_enqueue_output_passes(enqueue_text):
    assert validate(spirvkit.assemble(enqueue_text, "opencl2.0"), "opencl2.0") == []


@pytest.mark.parametrize("case", ENQUEUE_MUTANTS, ids=[c[0] for c in ENQUEUE_MUTANTS])
def test_enqueue_rule(enqueue_text, case):
    _id, pattern, replacement, text = case
    mutant, count = re.subn(pattern, replacement, enqueue_text)
    assert count == 1, pattern
    diagnostics = validate(spirvkit.assemble(mutant, "opencl2.0"), "opencl2.0", max_errors=None)
    assert diagnostics and diagnostics[0].rule.startswith("enqueue.") and text in diagnostics[0].message, \
        diagnostics[:2]
