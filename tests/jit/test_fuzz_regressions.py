"""Executor findings of the fuzz driver (tests/fuzz, issue 21): modules that the validator (and
spirv-val) accept, whose lowering raised a Python exception; each now ends in a clean error."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import spirvkit

DATA = Path(__file__).resolve().parents[1] / "data" / "fuzz"


def _launch(name: str):
    binary = (DATA / name).read_bytes()
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    program = spirvkit.Program(binary)
    kernel = program.kernel(program.kernel_names[0])
    args = [spirvkit.LocalMemory(256) if a.address_space == "local" else
            np.zeros(64, np.uint32) if a.address_space != "private" else 1 for a in kernel.args]
    kernel(16, None, *args, timeout=5)


def _in_child(code: str, name: str, timeout: float = 300) -> str:
    """Runs ``code`` (given the reproducer's path as argv[1]) in a child process, so that a
    regression that crashes or hangs fails the test instead of the test run; its stdout."""
    r = subprocess.run([sys.executable, "-c", code, str(DATA / name)], capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


@pytest.mark.parametrize("name, message", [
    ("ptr_access_chain_pointer_index.spv", r"an access chain index of type ptr \(not an integer scalar\)"),
    # (the mutant's async copies also took the BuiltIn as their Event: set back to the null event
    # when the validator learnt OpGroupAsyncCopy's operand rules, so the module stays valid)
    ("bitcast_builtin_pointer.spv", r"OpBitcast of a pointer to a BuiltIn variable"),
    # the grammar target: an OpCopyMemorySized from a BuiltIn input variable
    ("copy_memory_builtin.spv", r"OpCopyMemorySized to or from a BuiltIn variable"),
    ("atomic_flag_builtin.spv", r"the BuiltIn variable GlobalInvocationId used as memory"),
    # the grammar target: OpConvertPtrToU of the WorkgroupId variable
    ("convert_builtin_pointer.spv", r"using the address of a BuiltIn variable \(WorkgroupId\) as a value"),
    # the grammar target: an OpImageWrite with float coordinates (valid SPIR-V): an AttributeError
    ("image_write_float_coords.spv", r"OpImageWrite \(word 700\) with floating-point coordinates"),
])
def test_lowering_refuses_what_it_cannot_lower(name, message):
    with pytest.raises(spirvkit.NotSupportedError, match=message):
        _launch(name)


@pytest.mark.parametrize("name", ["volatile_vector_store.spv", "misaligned_vector_store.spv"])
def test_a_mutant_does_not_kill_the_process(name):
    # volatile_vector_store: a mutant (volatile on a uint2 store) made LLVM abort the process ("Do
    # not know how to widen this operator's operand": an atomic store of a vector).
    # misaligned_vector_store (the grammar target): an Aligned 16 uint4 store through an 8-aligned
    # address became an aligned SSE store, which faults; vector accesses now assume at most their
    # component's alignment. Each runs in a child process, so that a regression fails this test
    # instead of killing the test run.
    code = ("import sys, numpy as np, spirvkit\n"
            "b = open(sys.argv[1], 'rb').read()\n"
            "p = spirvkit.Program(b)\n"
            "for name in p.kernel_names:\n"
            "    k = p.kernel(name)\n"
            "    args = [np.zeros(64, np.uint32) if a.address_space != 'private' else 1 for a in k.args]\n"
            "    try:\n"
            "        k(16, None, *args, timeout=20)\n"
            "    except spirvkit.SpirvkitError as e:\n"   # a located fault is a fine outcome
            "        print(type(e).__name__)\n"
            "print('ran')\n")
    assert "ran" in _in_child(code, name).splitlines()


def test_volatile_vector_loads_and_stores_move_every_component():
    source = """kernel void k(global uint2 *a, global float2 *f, global uchar4 *c, global short3 *s3) {
      volatile global uint2 *va = a; volatile global float2 *vf = f; volatile global uchar4 *vc = c;
      volatile global short3 *vs = s3;
      va[1] = va[0] + (uint2)(1, 2); vf[1] = vf[0] * 2.0f; vc[1] = vc[0] + (uchar4)(1);
      vs[1] = vs[0] + (short3)(1); }"""
    a, f = np.array([5, 6, 0, 0], np.uint32), np.array([1.5, 2.5, 0, 0], np.float32)
    c, s = np.array([1, 2, 3, 4, 0, 0, 0, 0], np.uint8), np.array([1, 2, 3, 0, 0, 0, 0, 0], np.int16)
    spirvkit.Program(spirvkit.compile_cl(source)).kernel("k")(1, None, a, f, c, s)
    assert a.tolist() == [5, 6, 6, 8] and f.tolist() == [1.5, 2.5, 3.0, 5.0]
    assert c.tolist() == [1, 2, 3, 4, 2, 3, 4, 5] and s.tolist() == [1, 2, 3, 0, 2, 3, 4, 0]


@pytest.mark.parametrize("name, message", [
    # a shuffle2 whose X and Y operands differ in type (uint4 and uint2) broke lowering with a
    # TypeError while the validator lacked OpenCL.std's shuffle operand rules
    ("shuffle2_operand_types.spv", r"word 655: .*shuffle2: expected operands X and Y to be of the same type"),
    # a frexp whose exponent operand is an integer (a pointer cast to ulong): an AttributeError
    # while the validator did not require that operand to be a pointer
    ("frexp_integer_operand.spv", r"word 1038: .*frexp: expected the last operand to be a pointer"),
])
def test_an_invalid_mutant_is_refused_with_the_validator_s_reason(name, message):
    # (the grammar target) both validators reject these now, and the launch names the rule and
    # the instruction.
    binary = (DATA / name).read_bytes()
    assert [e.rule for e in spirvkit.validate(binary, target_env="opencl2.2")] == ["extinst.opencl-std"]
    program = spirvkit.Program(binary)
    kernel = program.kernel(program.kernel_names[0])
    args = [spirvkit.LocalMemory(256) if a.address_space == "local" else
            np.zeros(64, np.uint32) if a.address_space != "private" else 1 for a in kernel.args]
    with pytest.raises(spirvkit.BinaryError, match=message + r" \[extinst.opencl-std\]"):
        kernel(16, None, *args, timeout=5)


_BUILTIN_POINTER = """OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%bool = OpTypeBool
%ulong = OpTypeInt 64 0
%v3 = OpTypeVector %ulong 3
%pin = OpTypePointer Input %v3
%pf = OpTypePointer Function %pin
%pg = OpTypePointer CrossWorkgroup %ulong
%gid = OpVariable %pin Input
%true = OpConstantTrue %bool
%fn = OpTypeFunction %void %pg
%hfn = OpTypeFunction %ulong %pin
%h = OpFunction %ulong None %hfn
%hp = OpFunctionParameter %pin
%hl = OpLabel
%hv = OpLoad %v3 %hp
%hx = OpCompositeExtract %ulong %hv 0
OpReturnValue %hx
OpFunctionEnd
%k = OpFunction %void None %fn
%out = OpFunctionParameter %pg
%l = OpLabel
%var = OpVariable %pf Function
{body}
OpStore %out %r
OpReturn
OpFunctionEnd
"""
_LOAD_X = "%v = OpLoad %v3 %s\n%r = OpCompositeExtract %ulong %v 0"


@pytest.mark.parametrize("body", [
    "%r = OpConvertPtrToU %ulong %gid",
    "%s = OpSelect %pin %true %gid %gid\n" + _LOAD_X,
    "%r = OpFunctionCall %ulong %h %gid",
    "OpBranch %m\n%m = OpLabel\n%s = OpPhi %pin %gid %l\n" + _LOAD_X,
    "OpStore %var %gid\n%s = OpLoad %pin %var\n" + _LOAD_X,
], ids=["convert", "select", "call", "phi", "store"])
@pytest.mark.parametrize("unchecked", [False, True])
def test_a_builtin_variable_s_address_is_refused_wherever_it_goes(body, unchecked):
    # Valid modules (spirv-val agrees) that use a BuiltIn input's address as a value: each
    # raised AttributeError somewhere in lowering before BuiltinPtr refused every such use.
    binary = spirvkit.assemble(_BUILTIN_POINTER.format(body=body), target_env="spv1.2")
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    with pytest.raises(spirvkit.NotSupportedError, match=r"the address of a BuiltIn variable \(GlobalInvocationId\)"):
        spirvkit.Program(binary).kernel("k")(4, None, np.zeros(4, np.uint64), unchecked=unchecked)


def test_a_builtin_variable_copied_or_chained_is_still_read():
    for body in ("%s = OpCopyObject %pin %gid\n" + _LOAD_X, "%s = OpCopyObject %pin %gid\n%t = OpCopyObject %pin %s\n"
                 "%v = OpLoad %v3 %t\n%r = OpCompositeExtract %ulong %v 0"):
        out = np.zeros(4, np.uint64)
        spirvkit.Program(spirvkit.assemble(_BUILTIN_POINTER.format(body=body), target_env="spv1.2")).kernel("k")(
            1, None, out, global_offset=(7,))
        assert out.tolist() == [7, 0, 0, 0]


_IMAGE_WRITE = """kernel void k(write_only image2d_t img, uint a) { int2 c = (int2)(get_global_id(0), 0);
  write_imageui(img, c, (uint4)(a, a + 1, a + 2, a + 3)); }"""


@pytest.mark.parametrize("lanes, want", [("0 1", [5, 6, 0, 1]), ("0 1 2", [5, 6, 7, 1]), (None, [5, 6, 7, 8])])
def test_an_image_write_takes_a_texel_of_any_lane_count(lanes, want):
    # The grammar target wrote a uint2 texel (image_write_uint2_texel.spv; valid for both
    # validators): lowering passed it where the format's store takes a uint4 (a TypeError). Lanes
    # past the texel's are 0, alpha 1.
    text = spirvkit.disassemble(spirvkit.compile_cl(_IMAGE_WRITE, "-cl-std=CL2.0"), raw_id=False)
    if lanes is not None:
        count = len(lanes.split())
        vector = f"%v{count}uint"
        decl = "" if count == 2 else f"{vector} = OpTypeVector %uint {count}\n"
        text = text.replace("%v4uint = OpTypeVector %uint 4\n", f"%v4uint = OpTypeVector %uint 4\n{decl}")
        text = re.sub(r"OpImageWrite %img (%\w+) (%\w+)",
                      lambda m: f"%t = OpVectorShuffle {vector} {m[2]} {m[2]} {lanes}\nOpImageWrite %img {m[1]} %t", text)
    binary = spirvkit.assemble(text, target_env="spv1.2")
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    img = spirvkit.Image(np.zeros((1, 4, 4), np.uint32), channel_order="RGBA", channel_type="UNSIGNED_INT32",
                         access="write_only")
    for unchecked in (False, True):
        spirvkit.Program(binary).kernel("k")(4, None, img, np.uint32(5), unchecked=unchecked)
        assert img.data[0].tolist() == [want] * 4


def test_the_fuzz_image_write_reproducer_builds():
    binary = (DATA / "image_write_uint2_texel.spv").read_bytes()
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    program = spirvkit.Program(binary)
    for name in program.kernel_names:
        program.kernel(name).compile()   # lowering and LLVM (raised a TypeError)


def test_build_ndrange_operands_of_another_type_are_an_invalid_module():
    # (the grammar target) an OpBuildNDRange whose LocalWorkSize was another ndrange struct:
    # spirv-val accepts it (it does not check that the three sizes share a type); lowering raised
    # an AttributeError. Now the launch names the instruction and the rule.
    binary = (DATA / "build_ndrange_struct_operand.spv").read_bytes()
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    with pytest.raises(spirvkit.SpirvError, match=r"OpBuildNDRange \(word 900\): LocalWorkSize %101 is not of "
                                                  r"GlobalWorkSize's type"):
        spirvkit.Program(binary).kernel("parent").compile()


def test_a_wait_for_more_events_than_its_list_holds_is_a_bounds_fault():
    # (the exec target, once it also launched with checks="all") a mutant's OpGroupWaitEvents
    # asks for 2**31 - 1 events from a list of one: the group's wait, which reads the list in
    # checked builds, read far past it and killed the process. The list is now bounds-checked
    # like a load of NumEvents * 8 bytes. In a child process: a regression must fail this test,
    # not kill the run.
    code = ("import numpy as np, spirvkit, sys\n"
            "p = spirvkit.Program(open(sys.argv[1], 'rb').read())\n"
            "k = p.kernel('async_copy')\n"
            "for checks in ('events', 'races', 'all'):\n"
            "    found = k(16, 1, np.zeros(64, np.float32), np.zeros(64, np.float32), spirvkit.LocalMemory(256),\n"
            "              np.uint32(1), checks=checks, report=True, timeout=20)\n"
            "    print(checks, [(f.kind, f.what, f.instruction.split(' at ')[0], f.size) for f in found])\n")
    out = _in_child(code, "wait_events_count_beyond_list.spv")
    for checks in ("events", "races", "all"):
        assert f"{checks} [('bounds', 'out-of-bounds read', 'OpGroupWaitEvents', {(2**31 - 1) * 8})" in out


def test_an_async_copy_of_2_64_minus_1_elements_is_a_fault_not_a_hang():
    # (the grammar target) a mutant's async copies take 2**64 - 1 elements, one of them strided:
    # a copy partly outside its buffers copies the elements inside both, element by element, and
    # that loop ran over the whole count (no answer after 60 s). It now runs only over the
    # elements whose contiguous side lies in its buffer; the spans no longer wrap either. In a
    # child process with a time limit: a regression must fail this test, not hang the run.
    binary = (DATA / "async_copy_count_all_ones.spv").read_bytes()
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    code = ("import numpy as np, spirvkit, sys\n"
            "k = spirvkit.Program(open(sys.argv[1], 'rb').read()).kernel('async_copy')\n"
            "for checks in (None, 'all'):\n"
            "    try:\n"
            "        k(16, 4, np.zeros(64, np.float32), np.zeros(64, np.float32), spirvkit.LocalMemory(256),\n"
            "          np.uint32(3), checks=checks, timeout=20)\n"
            "    except spirvkit.KernelFault as e:\n"
            "        print(checks, str(e).splitlines()[0][:60])\n")
    assert _in_child(code, "async_copy_count_all_ones.spv", timeout=120).splitlines() == [
        f"{c} out-of-bounds write in kernel 'async_copy', work-item global" for c in ("None", "all")]


def test_size_of_a_non_pointer_is_an_invalid_module():
    # (the exec target) an OpSizeOf of an integer: spirv-val accepts it (the spec asks a pointer
    # to a typed object); lowering raised an AttributeError. The launch names the instruction.
    binary = (DATA / "size_of_integer_operand.spv").read_bytes()
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    with pytest.raises(spirvkit.SpirvError, match=r"OpSizeOf \(word 568\): Pointer %40 is not a pointer"):
        spirvkit.Program(binary).kernel("int_builtins_int").compile()


def test_a_select_of_mixed_operand_types_is_refused_by_the_validator():
    # (the grammar target, checks="all") a select whose operand B was a float, its Result Type
    # a uint16: an AssertionError in llvmlite while the validator checked only operand C. Both
    # validators now reject it, and no kernel of the module breaks with a Python exception.
    binary = (DATA / "select_operand_types.spv").read_bytes()
    [error] = spirvkit.validate(binary, target_env="opencl2.2")
    assert error.rule == "extinst.opencl-std"
    assert "select: expected operand B type to be equal to Result Type" in str(error)
    with pytest.raises(spirvkit.BinaryError, match=r"word 1224: .*select: expected operand B type to be equal"):
        spirvkit.Program(binary).kernel("vec_short_int").compile()
