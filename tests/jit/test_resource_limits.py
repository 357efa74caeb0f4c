"""Device resource limits (issue 21, spirvkit.runtime.limits): a kernel whose __local memory
(its own variables and its LocalMemory arguments together) passes CL_DEVICE_LOCAL_MEM_SIZE
raises LimitError naming the limit, the amount and the kernel, before anything is allocated,
never a MemoryError."""

from __future__ import annotations

import numpy as np
import pytest

import spirvkit
from spirvkit.runtime.limits import LOCAL_MEM_SIZE


def _kernel(source: str) -> spirvkit.Kernel:
    return spirvkit.Program(source).kernel("k")


def test_huge_local_array_is_refused_before_allocation():
    k = _kernel("kernel void k(global int *p) { local int a[0xFFFFFFFF][1024]; a[p[0]][0] = 1; p[0] = a[0][0]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 16\.0 TiB \(17592186040320 bytes\) of "
                                                 r"__local memory per work-group; the device has 4\.0 MiB"):
        k(4, None, np.zeros(4, np.int32))


def test_local_memory_argument_past_the_limit():
    with pytest.raises(spirvkit.LimitError, match=r"LocalMemory\(100000000\) needs 95\.4 MiB"):
        spirvkit.LocalMemory(100_000_000)
    assert spirvkit.LocalMemory(LOCAL_MEM_SIZE).nbytes == LOCAL_MEM_SIZE


def test_variables_and_arguments_count_together():
    k = _kernel("kernel void k(global int *p, local int *l) { local int a[1000000]; a[p[0]] = 1; l[0] = a[0]; "
                "p[0] = l[0]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 4\.8 MiB"):
        k(4, None, np.zeros(4, np.int32), spirvkit.LocalMemory(1_000_000))
    out = np.zeros(4, np.int32)
    k(4, None, out, spirvkit.LocalMemory(16))  # 4 MB of variables: within the limit
    assert out[0] == 1


def test_limit_error_is_a_spirvkit_error():
    assert issubclass(spirvkit.LimitError, spirvkit.SpirvkitError)


# -- every limit, queryable and refused before a build ---------------------------------------------

def test_device_limits_are_queryable():
    limits = spirvkit.device_limits()
    assert limits.local_mem_size == LOCAL_MEM_SIZE >= 32 * 1024          # OpenCL's minimums
    assert limits.max_constant_buffer_size >= 64 * 1024
    assert limits.max_parameter_size >= 1024
    assert limits.max_global_variable_size >= 64 * 1024
    assert limits.max_work_group_size == 4096 and limits.max_work_item_sizes == (4096, 4096, 4096)
    assert limits.bracket_depth == 256 and limits.error_limit == 20   # clang's defaults
    assert limits.as_dict()["private_mem_size"] == limits.private_mem_size


def test_private_memory_past_the_limit():
    # 20 MB of private array: past the limit, refused before the build; on the thread's stack
    # it would have crashed the process.
    k = _kernel("kernel void k(global int *p) { int a[5000000]; a[p[0]] = 1; p[1] = a[p[2]]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 19\.1 MiB \(20000000 bytes\) of private memory "
                                                 r"per work-item; the device has 16\.0 MiB"):
        k(4, None, np.zeros(4, np.int32))


def test_private_memory_counts_the_deepest_call_path():
    k = _kernel("int f(global int *p) { int a[3000000]; a[p[0]] = 1; return a[p[2]]; }\n"
                "int g(global int *p) { int b[1000000]; b[p[0]] = 1; return b[p[2]] + f(p); }\n"
                "kernel void k(global int *p) { int c[1000000]; c[p[0]] = 1; p[1] = c[p[2]] + g(p) + f(p); }")
    with pytest.raises(spirvkit.LimitError, match=r"needs 19\.1 MiB \(20000000 bytes\) of private memory"):
        k(4, None, np.zeros(4, np.int32))


def test_private_memory_within_the_limit_runs_on_the_worker_stack():
    # 15 MB of private array per work-item: more than a default 8 MiB thread stack holds.
    n = 15_000_000 // 4
    k = _kernel(f"kernel void k(global int *p, global const int *q) {{ int a[{n}]; for (int i = 0; i < {n}; i++) "
                f"a[i] = i ^ q[0]; p[get_global_id(0)] = a[q[0] + {n} - 1]; }}")
    out = np.zeros(2, np.int32)
    k(2, None, out, np.zeros(1, np.int32), unchecked=True)
    assert list(out) == [n - 1, n - 1]


def test_huge_private_array_of_a_barrier_kernel():
    k = _kernel("kernel void k(global int *p) { int a[0x7FFFFFFF]; a[p[0]] = 1; barrier(CLK_LOCAL_MEM_FENCE); "
                "p[1] = a[p[2]]; }")
    with pytest.raises(spirvkit.LimitError, match=r"needs 8\.0 GiB .* of private memory per work-item"):
        k(4, 4, np.zeros(4, np.int32))


_CONSTANT_TABLE = """
    OpCapability Addresses
    OpCapability Kernel
    OpCapability Int8
    OpCapability Int64
    OpMemoryModel Physical64 OpenCL
    OpEntryPoint Kernel %k "k"
    %uchar = OpTypeInt 8 0
    %uint = OpTypeInt 32 0
    %ulong = OpTypeInt 64 0
    %size = OpConstant %uint 134217728
    %arr = OpTypeArray %uchar %size
    %null = OpConstantNull %arr
    %ptr_c = OpTypePointer UniformConstant %arr
    %t = OpVariable %ptr_c UniformConstant %null
    %ptr_g = OpTypePointer CrossWorkgroup %uchar
    %ptr_cu = OpTypePointer UniformConstant %uchar
    %void = OpTypeVoid
    %fn = OpTypeFunction %void %ptr_g
    %ulong_0 = OpConstant %ulong 0
    %k = OpFunction %void None %fn
    %p = OpFunctionParameter %ptr_g
    %entry = OpLabel
    %at = OpAccessChain %ptr_cu %t %ulong_0
    %v = OpLoad %uchar %at
    OpStore %p %v
    OpReturn
    OpFunctionEnd
"""


def test_program_scope_constant_data_past_the_limit():
    # A 128 MiB __constant table (OpConstantNull): refused before its initialiser is lowered.
    binary = spirvkit.assemble(_CONSTANT_TABLE, target_env="opencl2.2")
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    k = spirvkit.Program(binary).kernel("k")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 128\.0 MiB \(134217728 bytes\) of program-scope "
                                                 r"__constant data; the device has 64\.0 MiB .*"
                                                 r"CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE"):
        k(1, None, np.zeros(4, np.int8))


def test_constant_arguments_count_with_the_program_data():
    k = _kernel("constant int t[4] = {1, 2, 3, 4}; kernel void k(global int *p, constant int *c) "
                "{ p[0] = c[p[1]] + t[p[1]]; }")
    out = np.zeros(4, np.int32)
    k(1, None, out, np.ones(16, np.int32))
    assert out[0] == 2
    big = np.zeros(spirvkit.device_limits().max_constant_buffer_size // 4, np.int32)
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 64\.0 MiB \(67108880 bytes\) of __constant memory "
                                                 r"\(64\.0 MiB \(67108864 bytes\) of it in __constant arguments\)"):
        k(1, None, out, big)


def test_program_scope_global_variables_past_the_limit():
    k = spirvkit.Program(spirvkit.compile_cl("global long g[0x40000000]; kernel void k(global long *p) { g[p[0]] = 1; "
                                             "p[1] = g[p[2]]; }", "-cl-std=CL2.0")).kernel("k")
    with pytest.raises(spirvkit.LimitError, match=r"needs 8\.0 GiB \(8589934592 bytes\) of program-scope __global "
                                                 r"variables.*CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE"):
        k(1, None, np.zeros(4, np.int64))


def test_parameter_size_past_the_limit():
    k = _kernel("typedef struct { int v[2000]; } S; kernel void k(global int *p, S s) { p[0] = s.v[p[1]]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 8008 bytes of parameters; the device has 4096 "
                                                 r"bytes \(CL_DEVICE_MAX_PARAMETER_SIZE"):
        k(1, None, np.zeros(4, np.int32), np.zeros(1, [("v", np.int32, 2000)]))


def test_work_group_size_past_the_limit():
    k = _kernel("kernel void k(global int *p) { p[0] = 1; }")
    with pytest.raises(spirvkit.KernelArgumentError, match=r"8192 work-items; the limit is 4096 "
                                                          r"\(CL_DEVICE_MAX_WORK_GROUP_SIZE"):
        k(8192, 8192, np.zeros(4, np.int32))


def test_module_too_large_for_the_jit(monkeypatch):
    from spirvkit.runtime import limits

    monkeypatch.setattr(limits, "MAX_MODULE_WORDS", 100)
    k = _kernel("kernel void k(global int *p) { p[0] = p[1] * p[2] + p[3]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs a module of \d+ words to be compiled; the device "
                                                 r"has a JIT limit of 100 words"):
        k.compile()


def test_region_records_of_a_group_past_the_limit(monkeypatch):
    from spirvkit.runtime import limits

    monkeypatch.setattr(limits, "GROUP_PRIVATE_MEM_SIZE", 1024)
    k = _kernel("kernel void k(global int *p) { int a[64]; a[p[0]] = 1; barrier(CLK_LOCAL_MEM_FENCE); p[1] = a[p[2]]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' in work-groups of 64 work-items needs .* of private "
                                                 r"memory kept across barriers per work-group"):
        k(64, 64, np.zeros(4, np.int32))


def test_private_array_whose_size_overflows_64_bits():
    # Fuzz finding (exec, seed 7): a private [2139095040 x [2139095040 x uint]] array has more
    # bytes than LLVM's 64-bit ABI size holds (it read as negative, passed the limit, and the
    # launch died of SIGBUS on the worker's stack).
    text = """
        OpCapability Addresses
        OpCapability Kernel
        OpCapability Int64
        OpMemoryModel Physical64 OpenCL
        OpEntryPoint Kernel %k "k"
        %uint = OpTypeInt 32 0
        %ulong = OpTypeInt 64 0
        %n = OpConstant %ulong 2139095040
        %row = OpTypeArray %uint %n
        %square = OpTypeArray %row %n
        %ptr_f = OpTypePointer Function %square
        %ptr_g = OpTypePointer CrossWorkgroup %uint
        %void = OpTypeVoid
        %fn = OpTypeFunction %void %ptr_g
        %k = OpFunction %void None %fn
        %p = OpFunctionParameter %ptr_g
        %entry = OpLabel
        %m = OpVariable %ptr_f Function
        OpReturn
        OpFunctionEnd
    """
    binary = spirvkit.assemble(text, target_env="opencl2.2")
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    k = spirvkit.Program(binary).kernel("k")
    with pytest.raises(spirvkit.LimitError, match=r"needs 16646400\.0 TiB \(18302910360610406400 bytes\) of private"):
        k(16, None, np.zeros(4, np.int32))
