"""The executor on address constants (issue 20): OpSpecConstantOp access chains and casts over a
CrossWorkgroup or UniformConstant OpVariable, in hand-written SPIR-V (tests/jit/asm_kernel.py).

Such a chain folds to (variable, byte offset): AccessChain and InBoundsAccessChain index into
the variable's type, PtrAccessChain and InBoundsPtrAccessChain first step over whole pointees
(a negative Element too), Bitcast, PtrCastToGeneric and GenericCastToPtr keep the address. A
program-scope variable initialised with one gets the address when the program's globals block is
made; a __constant variable an address constant involves lives in that block. Used in code, the
chain is the variable's address plus the offset.
"""

from __future__ import annotations

import numpy as np
import pytest

from jit.asm_kernel import ld, program, simple, st
from spirvkit.errors import NotSupportedError

MODES = pytest.mark.parametrize("unchecked", [False, True], ids=["checked", "unchecked"])

# S: {uint at 0, ushort at 4, uint[8] at 8}
TYPES = """
%arr8 = OpTypeArray %uint %uint_8
%S = OpTypeStruct %uint %ushort %arr8
%pCW_arr8 = OpTypePointer CrossWorkgroup %arr8
%pUC_arr8 = OpTypePointer UniformConstant %arr8
%pCW_S = OpTypePointer CrossWorkgroup %S
%pair = OpTypeArray %pCW_uint %uint_2
%pCW_pair = OpTypePointer CrossWorkgroup %pair
%data = OpConstantComposite %arr8 %uint_10 %uint_11 %uint_12 %uint_13 %uint_14 %uint_15 %uint_16 %uint_17
%tdata = OpConstantComposite %arr8 %uint_100 %uint_200 %uint_300 %uint_400 %uint_500 %uint_600 %uint_700 %uint_800
%sdata = OpConstantComposite %S %uint_1 %ushort_2 %data
%g = OpVariable %pCW_arr8 CrossWorkgroup %data
%s = OpVariable %pCW_S CrossWorkgroup %sdata
%t = OpVariable %pUC_arr8 UniformConstant %tdata
%g3 = OpSpecConstantOp %pCW_uint InBoundsAccessChain %g %uint_3
%g1 = OpSpecConstantOp %pCW_uint PtrAccessChain %g3 %ulong_m2
%s_arr5 = OpSpecConstantOp %pCW_uint InBoundsPtrAccessChain %s %ulong_0 %uint_2 %uint_5
%s_short = OpSpecConstantOp %pCW_ushort AccessChain %s %uint_1
%g_bytes = OpSpecConstantOp %pCW_uchar Bitcast %g
%g_byte12 = OpSpecConstantOp %pCW_uchar PtrAccessChain %g_bytes %ulong_12
%g_word3 = OpSpecConstantOp %pCW_uint Bitcast %g_byte12
%t2 = OpSpecConstantOp %pUC_uint InBoundsPtrAccessChain %t %ulong_0 %ulong_2
%t_next = OpSpecConstantOp %pUC_uint InBoundsPtrAccessChain %t2 %ulong_1
%gen = OpSpecConstantOp %pGen_uint PtrCastToGeneric %g1
%back = OpSpecConstantOp %pCW_uint GenericCastToPtr %gen
%two = OpConstantComposite %pair %g3 %s_arr5
%v_g1 = OpVariable %pCW_pCW_uint CrossWorkgroup %g1
%v_s_arr5 = OpVariable %pCW_pCW_uint CrossWorkgroup %s_arr5
%v_s_short = OpVariable %pCW_pCW_ushort CrossWorkgroup %s_short
%v_word3 = OpVariable %pCW_pCW_uint CrossWorkgroup %g_word3
%v_t2 = OpVariable %pCW_pUC_uint CrossWorkgroup %t2
%v_t_next = OpVariable %pUC_pUC_uint UniformConstant %t_next
%v_gen = OpVariable %pCW_pGen_uint CrossWorkgroup %gen
%v_back = OpVariable %pCW_pCW_uint CrossWorkgroup %back
%v_two = OpVariable %pCW_pair CrossWorkgroup %two
"""

# (what the kernel stores in o[i], expected)
READS = [
    ("""%p0 = OpLoad %pCW_uint %v_g1
%r0 = OpLoad %uint %p0""", 11),
    ("""%p1 = OpLoad %pCW_uint %v_s_arr5
%r1 = OpLoad %uint %p1""", 15),
    ("""%p2 = OpLoad %pCW_ushort %v_s_short
%h2 = OpLoad %ushort %p2
%r2 = OpUConvert %uint %h2""", 2),
    ("""%p3 = OpLoad %pCW_uint %v_word3
%r3 = OpLoad %uint %p3""", 13),
    ("""%p4 = OpLoad %pUC_uint %v_t2
%r4 = OpLoad %uint %p4""", 300),
    ("""%p5 = OpLoad %pUC_uint %v_t_next
%r5 = OpLoad %uint %p5""", 400),
    ("""%p6 = OpLoad %pGen_uint %v_gen
%r6 = OpLoad %uint %p6""", 11),
    ("""%p7 = OpLoad %pCW_uint %v_back
%r7 = OpLoad %uint %p7""", 11),
    ("""%p8 = OpInBoundsPtrAccessChain %pCW_pCW_uint %v_two %ulong_0 %ulong_1
%q8 = OpLoad %pCW_uint %p8
%r8 = OpLoad %uint %q8""", 15),
    ("%r9 = OpLoad %uint %s_arr5", 15),                # the chain used in code
    ("%r10 = OpLoad %uint %t_next", 400),
    ("""%p11 = OpInBoundsPtrAccessChain %pCW_uint %g3 %ulong_2
%r11 = OpLoad %uint %p11""", 15),
]


@MODES
def test_address_constants_fold_to_variable_and_offset(unchecked):
    body = "".join(read + "\n" + st("o", f"ulong_{i}", "uint", f"r{i}") for i, (read, _) in enumerate(READS))
    k = simple([("o", "pCW_uint")], body, types=TYPES, gid=False)
    o = np.zeros(len(READS), np.uint32)
    k(1, None, o, unchecked=unchecked)
    assert o.tolist() == [expected for _, expected in READS]


def test_relocated_constants_shared_by_kernels():
    """A __constant variable that an address constant reaches lives in the program's globals
    block: both kernels see one copy, and the pointer loaded from memory equals its address."""
    fns = []
    for name in ("a", "b"):
        fns.append(f"""%{name} = OpFunction %void None %fn_k
%{name}_o = OpFunctionParameter %pCW_ulong
%{name}_entry = OpLabel
%{name}_p = OpLoad %pUC_uint %v_t2
%{name}_addr = OpConvertPtrToU %ulong %{name}_p
%{name}_t2 = OpConvertPtrToU %ulong %t2
%{name}_diff = OpISub %ulong %{name}_addr %{name}_t2
OpStore %{name}_o %{name}_diff
OpReturn
OpFunctionEnd""")
    prog = program("\n".join(fns), types=TYPES + "%fn_k = OpTypeFunction %void %pCW_ulong", entry_points=("a", "b"))
    for name in ("a", "b"):
        o = np.ones(1, np.uint64)
        prog.kernel(name)(1, None, o)
        assert o[0] == 0


def test_chain_over_something_else_not_supported():
    types = """%nul = OpConstantNull %pCW_uint
%bad = OpSpecConstantOp %pCW_uint InBoundsPtrAccessChain %nul %ulong_1
%v_bad = OpVariable %pCW_pCW_uint CrossWorkgroup %bad
"""
    k = simple([("o", "pCW_uint")], ld("x", "uint", "o", "ulong_0"), types=types, gid=False)
    with pytest.raises(NotSupportedError, match="not supported yet: OpSpecConstantOp InBoundsPtrAccessChain of a "
                                                "pointer other than a program-scope variable's address"):
        k(1, None, np.zeros(1, np.uint32))
