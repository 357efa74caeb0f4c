"""OpGroupAsyncCopy / OpGroupWaitEvents operand rules (SPIR-V 3.32.21), which spirv-val 2025.5 does
not check (spec_decided.py): found by grammar-aware fuzzing, where a mutant with a bool "event"
and bool "pointers" passed both validators and then broke the executor's lowering."""

from __future__ import annotations

import numpy as np
import pytest
from val_modules import kernel

import spirvkit
from spirvkit.validate import validate

TYPES = """%event = OpTypeEvent
%_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
%_ptr_Function_event = OpTypePointer Function %event
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
%arr = OpTypeArray %uint %uint_2
%_ptr_Workgroup_arr = OpTypePointer Workgroup %arr
%lv = OpVariable %_ptr_Workgroup_arr Workgroup
%ulong_1 = OpConstant %ulong 1
%null_event = OpConstantNull %event
%true = OpConstantTrue %bool"""

PRE = """%ev = OpVariable %_ptr_Function_event Function
%l = OpAccessChain %_ptr_Workgroup_uint %lv %uint_0"""

VALID = "%e = OpGroupAsyncCopy %event %uint_2 %l %buf %ulong_1 %ulong_1 %null_event"

CASES = [
    ("result-not-event", "%e = OpGroupAsyncCopy %uint %uint_2 %l %buf %ulong_1 %ulong_1 %null_event",
     "group.result-type", "Result Type must be an OpTypeEvent"),
    ("destination-not-pointer", "%e = OpGroupAsyncCopy %event %uint_2 %true %buf %ulong_1 %ulong_1 %null_event",
     "group.operand-type", "Destination must be a pointer"),
    ("source-other-type", "%f = OpBitcast %_ptr_CrossWorkgroup_float %buf\n"
     "%e = OpGroupAsyncCopy %event %uint_2 %l %f %ulong_1 %ulong_1 %null_event",
     "group.operand-type", "type of Source must be the same"),
    ("both-workgroup", "%e = OpGroupAsyncCopy %event %uint_2 %l %l %ulong_1 %ulong_1 %null_event",
     "group.operand-type", "Workgroup and the other in CrossWorkgroup"),
    ("count-32-bit-in-physical64", "%e = OpGroupAsyncCopy %event %uint_2 %l %buf %uint_1 %ulong_1 %null_event",
     "group.operand-type", "Num Elements must be a 64-bit"),
    ("event-operand-not-event", "%e = OpGroupAsyncCopy %event %uint_2 %l %buf %ulong_1 %ulong_1 %uint_0",
     "group.operand-type", "Event must have a type of OpTypeEvent"),
    ("wait-count-64-bit", f"{VALID}\nOpStore %ev %e\nOpGroupWaitEvents %uint_2 %ulong_1 %ev",
     "group.operand-type", "Num Events must be a 32-bit"),
    ("wait-list-not-events", f"{VALID}\nOpGroupWaitEvents %uint_2 %uint_1 %l",
     "group.operand-type", "Events List must be a pointer to OpTypeEvent"),
]


def _module(body: str) -> bytes:
    return spirvkit.assemble(kernel(types=TYPES, body=f"{PRE}\n{body}"), "opencl2.2")


def test_valid_copy_and_wait_pass():
    assert validate(_module(f"{VALID}\nOpStore %ev %e\nOpGroupWaitEvents %uint_2 %uint_1 %ev"), "opencl2.2") == []


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_rule(case):
    _id, body, rule, text = case
    diagnostics = validate(_module(body), "opencl2.2", max_errors=None)
    assert diagnostics and diagnostics[0].rule == rule and text in diagnostics[0].message, diagnostics[:2]


def test_executor_refuses_the_mutant_cleanly():
    """The module that broke the lowering: a clean validation error from Program, not a traceback."""
    binary = _module("%e = OpGroupAsyncCopy %bool %uint_2 %true %true %true %true %true")
    with pytest.raises(spirvkit.SpirvkitError, match=r"invalid module, which the executor cannot run: .*"
                                                      r"\[group\.result-type\]"):
        spirvkit.Program(binary).kernel("main")(1, None, np.zeros(4, "u4"))
