"""The uninitialized check (issue 18; jit/check_uninit.py): values read from memory never written
are reported where they are used, with clean twins that report nothing, outputs unchanged by
the check, buffers the host declares uninitialised (spirvkit.uninitialized), memcpy-like copies
(OpCopyMemory / OpCopyMemorySized, from SPIR-V assembly: the OpenCL C front end emits none),
printf arguments, the CLI, and nothing compiled in when the check is off.

The planted-fault suite with its clean twins is tests/data/checks/uninitialized.cl (run by
test_checks_suite.py with checks="all").
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import spirvkit
from spirvkit.jit.compiler import lower_kernel
from spirvkit.runtime.check_findings import launch_checks
from spirvkit.spirv.module import Module

SOURCE = r"""
kernel void private_branch(global int *out, int n) {
  int a[8];
  for (int i = 0; i < n; i++)
    a[i] = 2 * i;
  int r = 0;
  if (a[5] == 10)
    r = 1;
  out[get_global_id(0)] = r + a[0];
}

kernel void first_group_writes(global int *out) {
  local int tmp[8];
  size_t l = get_local_id(0);
  if (get_group_id(0) == 0)
    tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tmp[7 - l] > 3)
    out[get_global_id(0)] = 1;
}

kernel void every_group_writes(global int *out) {
  local int tmp[8];
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[7 - l] > 3;
}

kernel void copy_buffer(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2.0f;
}

kernel void fill_buffer(global float *buf) {
  size_t i = get_global_id(0);
  buf[i] = (float)i;
}

kernel void print_it(global int *out, int clean) {
  int x;
  if (clean)
    x = 4;
  if (get_global_id(0) == 0)
    printf("x=%d\n", x);
  out[get_global_id(0)] = 1;
}

kernel void off_the_end(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i + 1];
}

kernel void swizzles(global float4 *out, float k) {
  float4 v;
  v.xz = (float2)(k, 2.0f * k);
  float4 w = v.xxzz;
  out[get_global_id(0)] = w + (float4)(1.0f);
}
"""

COPIES = r"""
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %copies "copy_twice" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
   %ulong_16 = OpConstant %ulong 16
        %arr = OpTypeArray %uint %uint_4
    %ptr_arr = OpTypePointer Function %arr
   %ptr_uint = OpTypePointer Function %uint
  %gptr_uint = OpTypePointer CrossWorkgroup %uint
 %in_v3ulong = OpTypePointer Input %v3ulong
        %gid = OpVariable %in_v3ulong Input
         %fn = OpTypeFunction %void %gptr_uint %uint
     %copies = OpFunction %void None %fn
        %out = OpFunctionParameter %gptr_uint
      %count = OpFunctionParameter %uint
          %1 = OpLabel
        %src = OpVariable %ptr_arr Function
        %mid = OpVariable %ptr_arr Function
        %dst = OpVariable %ptr_arr Function
         %s0 = OpAccessChain %ptr_uint %src %uint_0
               OpStore %s0 %uint_1
         %s1 = OpAccessChain %ptr_uint %src %uint_1
               OpStore %s1 %uint_2
         %s2 = OpAccessChain %ptr_uint %src %uint_2
               OpStore %s2 %uint_3
         %sn = OpAccessChain %ptr_uint %src %count
               OpStore %sn %uint_4
               OpCopyMemory %mid %src
               OpCopyMemorySized %dst %mid %ulong_16
         %d3 = OpAccessChain %ptr_uint %dst %uint_3
          %v = OpLoad %uint %d3
         %g3 = OpLoad %v3ulong %gid
          %i = OpCompositeExtract %ulong %g3 0
          %o = OpPtrAccessChain %gptr_uint %out %i
               OpStore %o %v
               OpReturn
               OpFunctionEnd
"""

# A float3 widened to 4 lanes for a store, as clang and llvm-spirv pad it: lanes 0 1 2, then
# lane 3 from an OpUndef vector (or 0xFFFFFFFF). LANES is replaced by the test.
PADDED_STORE = r"""
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "padded_store" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
      %float = OpTypeFloat 32
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
    %v3float = OpTypeVector %float 3
    %v4float = OpTypeVector %float 4
    %float_1 = OpConstant %float 1
    %float_2 = OpConstant %float 2
     %undef3 = OpUndef %v3float
  %gptr_vec4 = OpTypePointer CrossWorkgroup %v4float
 %in_v3ulong = OpTypePointer Input %v3ulong
        %gid = OpVariable %in_v3ulong Input
         %fn = OpTypeFunction %void %gptr_vec4 %float
       %main = OpFunction %void None %fn
        %out = OpFunctionParameter %gptr_vec4
          %x = OpFunctionParameter %float
          %1 = OpLabel
         %v3 = OpCompositeConstruct %v3float %x %float_1 %float_2
         %v4 = OpVectorShuffle %v4float %v3 %undef3 LANES
         %g3 = OpLoad %v3ulong %gid
          %i = OpCompositeExtract %ulong %g3 0
          %o = OpPtrAccessChain %gptr_vec4 %out %i
               OpStore %o %v4
               OpReturn
               OpFunctionEnd
"""


@pytest.fixture(scope="module")
def program():
    return spirvkit.Program(spirvkit.compile_cl(SOURCE, ["-g"], filename="uninit.cl"))


def _run(kernel, *args, g=16, lsz=8):
    return kernel(g, lsz, *args, checks={"uninitialized"}, report=True)


def test_a_private_element_never_written_is_reported_where_it_decides(program):
    k = program.kernel("private_branch")
    out = np.zeros(16, np.int32)
    assert _run(k, out, 8) == [] and (out == 1).all()           # the clean twin, output exact
    [f] = _run(k, out, 5)
    assert (f.kind, f.location, f.count) == ("uninitialized", "uninit.cl:7:3", 16)
    assert f.what.startswith("uninitialized value used in a") and f.global_id == (0, 0, 0)
    assert "never written" in f.message and f.instruction.split()[0] in ("OpSelect", "OpBranchConditional")
    with pytest.raises(spirvkit.KernelCheckError) as err:
        k(16, 8, out, 5, checks={"uninitialized"})
    assert err.value.findings[0].what == f.what and "uninitialized" in str(err.value)


def test_outputs_are_the_same_with_the_check(program):
    k = program.kernel("private_branch")
    plain, checked = np.zeros(64, np.int32), np.zeros(64, np.int32)
    k(64, 16, plain, 8)
    assert _run(k, checked, 8, g=64, lsz=16) == []
    assert (plain == checked).all()
    k = program.kernel("swizzles")
    plain, checked = np.zeros((16, 4), np.float32), np.zeros((16, 4), np.float32)
    k(16, 8, plain, np.float32(1.5))
    assert _run(k, checked, np.float32(1.5)) == []     # lanes y and w are never used
    assert (plain == checked).all() and (checked == [2.5, 2.5, 4.0, 4.0]).all()


def test_local_memory_of_another_group_is_not_this_groups(program):
    """Local memory is not cleared between the groups a thread runs: what group 0 wrote is
    still there for group 1, but never written in group 1."""
    out = np.zeros(32, np.int32)
    [f] = _run(program.kernel("first_group_writes"), out, g=32, lsz=8)
    assert f.location == "uninit.cl:18:3" and f.count == 24       # groups 1, 2, 3
    assert _run(program.kernel("every_group_writes"), out, g=32, lsz=8) == []
    assert (out == (np.arange(32) % 8 < 4)).all()


def test_buffers_the_host_declares_uninitialized(program):
    buf = spirvkit.uninitialized(16, np.float32)
    assert isinstance(buf, np.ndarray) and buf.shape == (16,) and buf.dtype == np.float32
    assert buf.shadow().nbytes == buf.nbytes and not buf.shadow().any()    # one byte per byte
    out = np.zeros(16, np.float32)
    [f] = _run(program.kernel("copy_buffer"), buf, out)
    assert f.what == "uninitialized value stored to global memory" and f.space == "global"
    assert f.argument == "argument 1 ('out', __global)" and f.offset == 0 and f.size == 4
    assert _run(program.kernel("fill_buffer"), buf) == []              # a kernel writes it
    assert (buf.shadow() == 0xFF).all()
    assert _run(program.kernel("copy_buffer"), buf, out) == []         # then it is defined
    assert (out == 2 * np.arange(16)).all()
    half = spirvkit.uninitialized((2, 8), np.float32)
    assert _run(program.kernel("copy_buffer"), half[1], out[:8], g=8) == []   # a view is not tracked
    half.mark_initialized()                                           # the host wrote it
    assert _run(program.kernel("copy_buffer"), half.reshape(16), out) == []
    assert program.kernel("copy_buffer")(16, 8, spirvkit.uninitialized(16, np.float32), out) is None   # unchecked


def test_launches_without_marked_buffers_use_their_own_build(program):
    """A launch with no buffer marked uninitialised runs a build that tracks no global memory
    (check_passes.UNMARKED); the next launch with a marked one still finds its read."""
    k = spirvkit.Program(program.module.to_bytes()).kernel("copy_buffer")   # no variants yet
    out = np.zeros(16, np.float32)
    assert _run(k, np.arange(16, dtype=np.float32), out) == []
    modes = set(mode for mode, *_ in k._variants)
    assert any("unmarked" in mode for mode in modes)
    [f] = _run(k, spirvkit.uninitialized(16, np.float32), out)
    assert f.what == "uninitialized value stored to global memory"
    assert set(mode for mode, *_ in k._variants) - modes       # a build of its own
    assert _run(k, spirvkit.read_only(spirvkit.uninitialized(16, np.float32)), out)   # declared: still marked


def test_memcpy_like_copies_carry_undefined_bytes():
    kernel = spirvkit.Program(spirvkit.assemble(COPIES, target_env="opencl2.0")).kernel("copy_twice")
    out = np.zeros(8, np.uint32)
    assert _run(kernel, out, 3, g=8) == [] and (out == 4).all()
    [f] = _run(kernel, out, 0, g=8)    # element 3 never written, copied twice, then stored
    assert f.instruction.startswith("OpStore ") and f.argument == "argument 0 ('arg0', __global)"
    assert f.what == "uninitialized value stored to global memory" and f.count == 8


@pytest.mark.parametrize("lanes", ["0 1 2 4294967295", "0 1 2 3", "0 3 1 2"])
def test_lanes_of_an_undef_vector_are_undefined_except_float3_padding(lanes):
    """A shuffle lane taken from an OpUndef vector is undefined (stored to global memory: a
    finding), except lane 3 of a 3-element vector widened to 4 (padding, never a value)."""
    binary = spirvkit.assemble(PADDED_STORE.replace("LANES", lanes), target_env="opencl2.0")
    kernel = spirvkit.Program(binary).kernel("padded_store")
    out = np.zeros((8, 4), np.float32)
    found = _run(kernel, out, np.float32(3.0), g=8)
    if lanes == "0 3 1 2":      # lane 1 from the OpUndef: not padding
        [f] = found
        assert f.what == "uninitialized value stored to global memory" and f.count == 8
        assert f.instruction.startswith("OpStore ")
    else:
        assert found == [] and (out[:, :3] == [3, 1, 2]).all()


def test_a_printf_argument_is_a_use(program):
    out = np.zeros(8, np.int32)
    with spirvkit.capture_printf() as cap:
        assert _run(program.kernel("print_it"), out, 1, g=8) == []
    assert cap.text == "x=4\n"
    with spirvkit.capture_printf():
        [f] = _run(program.kernel("print_it"), out, 0, g=8)
    line = int(f.location.split(":")[1])
    assert f.what == "uninitialized value passed to printf" and "printf(" in SOURCE.splitlines()[line - 1]


def test_all_checks_include_it_and_the_cli_runs_it(tmp_path):
    assert "uninitialized" in launch_checks("all", False)
    (tmp_path / "k.cl").write_text(SOURCE)

    def cli(*args):
        r = subprocess.run([sys.executable, "-m", "spirvkit", *args], capture_output=True, text=True,
                           cwd=tmp_path, timeout=120)
        assert "Traceback" not in r.stderr
        return r

    assert cli("cc", "-g", "k.cl", "-o", "k.spv").returncode == 0
    r = cli("run", "k.spv", "-k", "private_branch", "--global", "8", "-a", "zeros:8", "-a", "5",
            "--check", "uninitialized")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith("k.cl:7:3: error: uninitialized value used in a ")
    assert lines[0].endswith("[check: uninitialized]")
    assert lines[1:3] == ["  if (a[5] == 10)", "  ^"]
    r = cli("run", "k.spv", "-k", "private_branch", "--global", "8", "-a", "zeros:8", "-a", "8",
            "--check", "uninitialized")
    assert r.returncode == 0 and "finding" not in r.stderr


def test_a_bounds_fault_with_the_check_is_located(program):
    """The faulting group is re-run with the report-mode build, which has the check too (its
    fault path used to give LLVM a phi with a wrong predecessor)."""
    out = np.zeros(8, np.int32)
    [fault] = _run(program.kernel("off_the_end"), np.arange(8, dtype=np.int32), out, g=8)
    assert (fault.kind, fault.what, fault.global_id) == ("bounds", "out-of-bounds read", (7, 0, 0))


@pytest.mark.parametrize("name", ["private_branch", "first_group_writes", "swizzles"])
def test_check_off_compiles_nothing_in(name):
    module = Module.from_bytes(spirvkit.compile_cl(SOURCE))
    text, ml, _ = lower_kernel(module, name, True)
    assert ml.check_passes is None and "uninit" not in text and "[2 x" not in text
    checked, ml, _ = lower_kernel(module, name, True, checks=frozenset({"uninitialized"}))
    assert ml.check_passes.uninit is not None and checked != text


def test_an_undefined_private_byte_reads_as_zero_under_the_check():
    # (Oclgrind's uninitialized_private_array) scratch[2] is never written: the finding is made,
    # and the value stored is 0 on every launch, as in Oclgrind, not whatever the stack held.
    source = """kernel void k(global const uint *idx, global float *out) {
      float scratch[4];
      for (int i = 0; i < 4; i++) scratch[idx[i]] = i;
      for (int i = 0; i < 4; i++) out[i] = scratch[i];
    }"""
    k = spirvkit.Program(spirvkit.compile_cl(source)).kernel("k")
    idx = np.array([0, 1, 3, 3], np.uint32)
    for _ in range(3):
        # garbage on the stack first: a launch whose private array holds other values
        k(1, None, np.array([0, 1, 2, 3], np.uint32), np.zeros(4, np.float32), checks="uninitialized", report=True)
        out = np.full(4, -1, np.float32)
        found = k(1, None, idx, out, checks="uninitialized", report=True)
        assert [f.kind for f in found] == ["uninitialized"]
        assert out.tolist() == [0.0, 1.0, 0.0, 3.0]
