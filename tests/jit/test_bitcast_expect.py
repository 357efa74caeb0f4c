"""The executor on issue 20's instructions, in hand-written SPIR-V (tests/jit/asm_kernel.py):

* OpBitcast between a pointer and an integer scalar or vector of the pointer's width, both ways
  (SPIR-V 3.32.11 in the unified specification: from SPIR-V 1.5, or with
  SPV_KHR_physical_storage_buffer, a pointer converts to "another pointer, int scalar or 32-bit
  int vector" of its width, as spirv-val words it; before 1.5 to a pointer or an int scalar):
  Physical64 ulong and uint2, Physical32 uint;
* OpExpectKHR (SPV_KHR_expect_assume) on integer and bool scalars and vectors: its result is the
  Value whatever ExpectedValue says.
"""

from __future__ import annotations

import numpy as np
import pytest

import spirvkit
from jit.asm_kernel import check_valid, kernel_function, ld, simple, source, st

MODES = pytest.mark.parametrize("unchecked", [False, True], ids=["checked", "unchecked"])

SHAPES_64 = ("ulong", "v2uint")
SHAPES_32 = ("uint",)
ENV = "spv1.5"


@MODES
@pytest.mark.parametrize("shape", SHAPES_64)
def test_pointer_bitcast_round_trip_physical64(shape, unchecked):
    """a → shape → pointer: loads through the pointer made back read a; the shape read as a ulong
    is the address OpConvertPtrToU gives."""
    body = f"""%v = OpBitcast %{shape} %a
%back = OpBitcast %pCW_uint %v
%as_ulong = OpBitcast %ulong %v
%addr = OpConvertPtrToU %ulong %a
%diff = OpISub %ulong %as_ulong %addr
""" + ld("x", "uint", "back", "gid") + st("o", "gid", "uint", "x") + st("d", "gid", "ulong", "diff")
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint"), ("d", "pCW_ulong")], body, env=ENV)
    a = np.arange(1, 9, dtype=np.uint32) * 0x01010101
    o = np.zeros_like(a)
    d = np.ones(len(a), np.uint64)
    k(len(a), None, a, o, d, unchecked=unchecked)
    assert o.tolist() == a.tolist()
    assert d.tolist() == [0] * len(a)


@MODES
@pytest.mark.parametrize("shape", SHAPES_64)
def test_integer_vector_to_pointer_physical64(shape, unchecked):
    """An address computed as a ulong, bitcast to the shape and from it to a pointer, reads the
    element it addresses."""
    body = f"""%base = OpConvertPtrToU %ulong %a
%off = OpIMul %ulong %gid %ulong_4
%addr = OpIAdd %ulong %base %off
%v = OpBitcast %{shape} %addr
%p = OpBitcast %pCW_uint %v
%x = OpLoad %uint %p
""" + st("o", "gid", "uint", "x")
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body, env=ENV)
    a = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.uint32)
    o = np.zeros_like(a)
    k(len(a), None, a, o, unchecked=unchecked)
    assert o.tolist() == a.tolist()


def _physical32_kernel(shape: str) -> spirvkit.Kernel:
    """A Physical32 module (pointers are 32 bits): the asm_kernel helper writes Physical64, so the
    memory model is swapped and the kernel uses no size_t built-ins."""
    body = f"""%v = OpBitcast %{shape} %a
%as_uint = OpBitcast %uint %v
%addr = OpConvertPtrToU %uint %a
%diff = OpISub %uint %as_uint %addr
%back = OpBitcast %pCW_uint %v
%back_addr = OpConvertPtrToU %uint %back
%diff_back = OpISub %uint %back_addr %addr
""" + st("o", "uint_0", "uint", "diff") + st("o", "uint_1", "uint", "diff_back")
    fn, fn_type = kernel_function([("a", "pCW_uint"), ("o", "pCW_uint")], body, gid=False)
    text = source(fn, types=fn_type, env=ENV).replace("OpMemoryModel Physical64 OpenCL",
                                                      "OpMemoryModel Physical32 OpenCL")
    binary = spirvkit.assemble(text, target_env=ENV)
    check_valid(binary, ENV, text)
    return spirvkit.Program(binary).kernel("main")


@MODES
@pytest.mark.parametrize("shape", SHAPES_32)
def test_pointer_bitcast_physical32(shape, unchecked):
    """Physical32: the pointer as a 32-bit integer is OpConvertPtrToU's address,
    and the pointer made back from it has that address again."""
    k = _physical32_kernel(shape)
    a = np.arange(4, dtype=np.uint32)
    o = np.full(2, 7, np.uint32)
    k(1, None, a, o, unchecked=unchecked)
    assert o.tolist() == [0, 0]


_EXPECT = dict(capabilities=("ExpectAssumeKHR",), extensions=("SPV_KHR_expect_assume",))


@MODES
def test_expect_scalars_and_vectors(unchecked):
    """OpExpectKHR yields its Value: uint and ulong scalars, a uint4 and a bool (whose expected
    value is wrong for some inputs, which must not matter)."""
    body = ld("x", "uint", "a", "gid") + """%e = OpExpectKHR %uint %x %uint_0
%xl = OpUConvert %ulong %x
%el = OpExpectKHR %ulong %xl %ulong_7
%elt = OpUConvert %uint %el
%vec = OpCompositeConstruct %v4uint %x %e %elt %uint_1
%ev = OpExpectKHR %v4uint %vec %cv
%small = OpULessThan %bool %x %uint_5
%eb = OpExpectKHR %bool %small %true
%c0 = OpCompositeExtract %uint %ev 0
%c1 = OpCompositeExtract %uint %ev 1
%c2 = OpCompositeExtract %uint %ev 2
%c3 = OpCompositeExtract %uint %ev 3
%s01 = OpIAdd %uint %c0 %c1
%s012 = OpIAdd %uint %s01 %c2
%s = OpIAdd %uint %s012 %c3
%r = OpSelect %uint %eb %s %uint_1000
""" + st("o", "gid", "uint", "r")
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body,
               types="%cv = OpConstantComposite %v4uint %uint_1 %uint_0 %uint_1 %uint_0", **_EXPECT)
    a = np.array([0, 1, 4, 5, 9, 0xFFFF], np.uint32)
    o = np.zeros_like(a)
    k(len(a), None, a, o, unchecked=unchecked)
    assert o.tolist() == [3 * x + 1 if x < 5 else 1000 for x in a.tolist()]


@MODES
def test_expect_bool_vector(unchecked):
    body = ld("x", "uint", "a", "gid") + """%vx = OpCompositeConstruct %v2uint %x %x
%lt = OpULessThan %v2bool %vx %lim
%e = OpExpectKHR %v2bool %lt %tt
%b0 = OpCompositeExtract %bool %e 0
%b1 = OpCompositeExtract %bool %e 1
%r0 = OpSelect %uint %b0 %uint_1 %uint_0
%r1 = OpSelect %uint %b1 %uint_2 %uint_0
%r = OpIAdd %uint %r0 %r1
""" + st("o", "gid", "uint", "r")
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body,
               types="%lim = OpConstantComposite %v2uint %uint_3 %uint_6\n"
                     "%tt = OpConstantComposite %v2bool %true %true", **_EXPECT)
    a = np.array([0, 3, 5, 6, 8], np.uint32)
    o = np.zeros_like(a)
    k(len(a), None, a, o, unchecked=unchecked)
    assert o.tolist() == [(1 if x < 3 else 0) + (2 if x < 6 else 0) for x in a.tolist()]
