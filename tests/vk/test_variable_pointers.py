"""Variable pointers (variable_pointers.spvasm: OpSelect and OpPhi of StorageBuffer pointers,
OpPtrAccessChain by the pointer type's ArrayStride, a pointer function parameter) and
PhysicalStorageBuffer64 with device addresses (buffer_reference.comp, compiled once with glslang:
tests/data/vk/regenerate.sh): results against numpy models, out-of-bounds accesses through
either kind of pointer located in checked mode."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from spirvkit import KernelArgumentError, KernelFault, NotSupportedError
from spirvkit.vk import ComputePipeline, device_address

DATA = Path(__file__).parent.parent / "data" / "vk"
N = 8


def _variable_pointer_inputs(extra: int):
    rng = np.random.default_rng(3)
    a = rng.integers(-20, 20, N + extra).astype(np.float32)
    b = rng.integers(-20, 20, N + extra).astype(np.float32)
    items = np.zeros((N, 8), np.float32)        # Item {vec3 @0; float w @16}, stride 32
    items[:, 4] = rng.integers(-50, 50, N) / 4
    items[:, :3] = 99                           # the vec3 is never read
    return a, b, items


@pytest.mark.parametrize("unchecked", [False, True])
def test_select_phi_ptr_access_chain_and_pointer_parameters(unchecked):
    a, b, items = _variable_pointer_inputs(extra=2)
    out = np.zeros((N, 4), np.float32)
    p = ComputePipeline(DATA / "variable_pointers.spvasm", target_env="vulkan1.1")
    p.bind(0, 0, a).bind(0, 1, b).bind(0, 2, items).bind(0, 3, out).dispatch(2, unchecked=unchecked)
    i = np.arange(N)
    np.testing.assert_array_equal(out[:, 0], np.where(a[:N] > b[:N], a[:N], b[:N]))
    np.testing.assert_array_equal(out[:, 1], a[i] + a[i + 1] + a[i + 2])
    np.testing.assert_array_equal(out[:, 2], 2 * items[:, 4])
    np.testing.assert_array_equal(out[:, 3], 0)


def test_a_walk_past_the_buffer_end_is_located():
    a, b, items = _variable_pointer_inputs(extra=1)   # the last invocation's walk reads a[N + 1]
    p = ComputePipeline(DATA / "variable_pointers.spvasm", target_env="vulkan1.1")
    p.bind(0, 0, a).bind(0, 1, b).bind(0, 2, items).bind(0, 3, np.zeros((N, 4), np.float32))
    with pytest.raises(KernelFault, match=r"out-of-bounds read .* invocation GlobalInvocationId \(7, 0, 0\): "
                                          r"of 4 byte\(s\) at byte offset 36 of set 0 binding 0"):
        p.dispatch(2)


def test_ptr_access_chain_without_an_array_stride_says_so():
    text = (DATA / "variable_pointers.spvasm").read_text().replace("OpDecorate %ptr_f ArrayStride 4\n", "")
    p = ComputePipeline(text, target_env="vulkan1.1", validate=False)
    a, b, items = _variable_pointer_inputs(extra=2)
    p.bind(0, 0, a).bind(0, 1, b).bind(0, 2, items).bind(0, 3, np.zeros((N, 4), np.float32))
    with pytest.raises(NotSupportedError, match="OpPtrAccessChain through a pointer type with no ArrayStride"):
        p.dispatch(2)


def _linked_list(values):
    """Nodes {Node next @0; float value @8; int pad @12} (std430, 16 bytes) linked in order."""
    nodes = np.zeros((len(values), 2), np.uint64)
    base = device_address(nodes)
    nodes[:-1, 0] = base + 16 * np.arange(1, len(values), dtype=np.uint64)
    nodes[:, 1:].view(np.float32)[:, 0] = values
    return nodes, base


@pytest.mark.parametrize("unchecked", [False, True])
def test_physical_storage_buffer_pointers_in_push_constants_and_a_linked_list(unchecked):
    n = 20
    src = np.random.default_rng(1).integers(-100, 100, n).astype(np.float32)
    dst = np.zeros(n + 2, np.float32)
    nodes, head = _linked_list([1.5, 2.5, 3.5, -0.25])
    p = ComputePipeline(DATA / "buffer_reference.spv")
    assert p.bindings == []        # every buffer is reached through an address
    p.push_constants(struct.pack("<QQQI4x", device_address(src), device_address(dst), head, n))
    p.dispatch(2, unchecked=unchecked)
    np.testing.assert_array_equal(dst[:n], src * 2 + np.arange(n))
    assert (dst[n], dst[n + 1]) == (7.25, 4)       # the list's sum and length
    p.push_constants(struct.pack("<QQQI4x", device_address(src), device_address(dst), 0, 3))
    dst[:] = 0
    p.dispatch(1, unchecked=unchecked)
    assert (dst[3], dst[4]) == (0, 0)              # a null list: no hops


def test_physical_storage_buffer_accesses_are_bounds_checked():
    src = np.zeros(20, np.float32)
    short = np.zeros(21, np.float32)               # one element short of n + 2
    nodes, head = _linked_list([1.0])
    p = ComputePipeline(DATA / "buffer_reference.spv")
    p.push_constants(struct.pack("<QQQI4x", device_address(src), device_address(short), head, 20))
    with pytest.raises(KernelFault, match=r"out-of-bounds write .* GlobalInvocationId \(0, 0, 0\): of 4 byte\(s\) "
                                          r"at byte offset 84 of the buffer at device address 0x[0-9a-f]+ "
                                          r"\(84 bytes\)"):
        p.dispatch(2)
    stray = np.zeros(30, np.float32)               # never given a device address
    p.push_constants(struct.pack("<QQQI4x", device_address(src), stray.ctypes.data, head, 20))
    with pytest.raises(KernelFault, match="through a pointer that points into no buffer"):
        p.dispatch(2)
    nodes[0, 0] = 8                                # a link to an address no buffer has
    p.push_constants(struct.pack("<QQQI4x", device_address(src), device_address(stray), head, 20))
    with pytest.raises(KernelFault, match="out-of-bounds read"):
        p.dispatch(2)


def test_device_address_needs_a_contiguous_writeable_array():
    with pytest.raises(KernelArgumentError, match="C-contiguous"):
        device_address(np.zeros((4, 4), np.float32)[:, 1])
    ro = np.zeros(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(KernelArgumentError, match="read-only"):
        device_address(ro)
    with pytest.raises(KernelArgumentError, match="numpy array"):
        device_address(b"1234")


@pytest.mark.parametrize("unchecked", [False, True])
def test_ptr_access_chain_in_workgroup_memory_through_a_parameter(unchecked):
    p = ComputePipeline(DATA / "workgroup_ptr_access_chain.spvasm", target_env="vulkan1.1")
    out = np.zeros(8, np.uint32)
    p.bind(0, 0, out).dispatch(1, unchecked=unchecked)
    np.testing.assert_array_equal(out, [1, 4, 9, 16, 25, 36, 49, 0])


# OpSelect of pointers to columns of matrices: spirv-val forbids it ("must not point to a column
# of a matrix"); without the validator the executor gathers a RowMajor column through the
# selected pointer, and refuses a choice between two layouts it could not tell apart.
SELECT_COLUMN = """               OpCapability Shader
               OpCapability VariablePointers
               OpExtension "SPV_KHR_variable_pointers"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %M 0 Offset 0
               OpMemberDecorate %M 0 RowMajor
               OpMemberDecorate %M 0 MatrixStride 8
               OpMemberDecorate %M 1 Offset 16
               OpMemberDecorate %M 1 ColMajor
               OpMemberDecorate %M 1 MatrixStride 8
               OpMemberDecorate %M 2 Offset 32
               OpDecorate %M Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
       %mat2 = OpTypeMatrix %v2float 2
          %M = OpTypeStruct %mat2 %mat2 %v2float
      %ptr_M = OpTypePointer StorageBuffer %M
     %ptr_v2 = OpTypePointer StorageBuffer %v2float
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
      %true = OpConstantTrue %bool
        %buf = OpVariable %ptr_M StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %pa = OpAccessChain %ptr_v2 %buf %uint_0 %uint_0
         %pb = OpAccessChain %ptr_v2 %buf %OTHER
        %sel = OpSelect %ptr_v2 %true %pa %pb
          %v = OpLoad %v2float %sel
         %po = OpAccessChain %ptr_v2 %buf %uint_2
               OpStore %po %v
               OpReturn
               OpFunctionEnd
"""


def test_selected_matrix_column_pointers_without_the_validator():
    from spirvkit import SpirvkitError

    with pytest.raises(SpirvkitError, match="must not point to a column or a component of a column of a matrix"):
        ComputePipeline(SELECT_COLUMN.replace("%OTHER", "%uint_0 %uint_1"), target_env="vulkan1.1")
    same = ComputePipeline(SELECT_COLUMN.replace("%OTHER", "%uint_0 %uint_1"), target_env="vulkan1.1",
                           validate=False)
    b = np.arange(10, dtype=np.float32)
    same.bind(0, 0, b).dispatch(1)
    assert tuple(b[8:]) == (0, 2)            # column 0 of the RowMajor matrix: b[0], b[2]
    mixed = ComputePipeline(SELECT_COLUMN.replace("%OTHER", "%uint_1 %uint_0"), target_env="vulkan1.1",
                            validate=False)
    with pytest.raises(NotSupportedError, match="choosing between pointers into matrices of different layouts"):
        mixed.bind(0, 0, b).dispatch(1)


@pytest.mark.parametrize("unchecked", [False, True])
def test_pointer_arithmetic_uvec2_addresses_table_of_addresses_and_atomics_through_references(unchecked):
    cells = np.array([1.5, -2.0, 0.25, 8.0], np.float32)
    # Addresses of views inside one array: the array is the buffer, the views die at once.
    table = np.array([device_address(cells[k:k + 1]) for k in range(4)], np.uint64)
    assert list(table - table[0]) == [0, 4, 8, 12]
    out = np.zeros(64, np.float32)
    counter = np.zeros(2, np.uint32)         # {uint n; float total}
    address = device_address(counter)
    p = ComputePipeline(DATA / "buffer_reference2.spv")
    p.bind(0, 0, table).push_constants(struct.pack("<IIQ", address & 0xFFFFFFFF, address >> 32, device_address(out)))
    p.dispatch(2, unchecked=unchecked)
    i = np.arange(64)
    np.testing.assert_array_equal(out, cells[i % 4] * 10 + i)
    assert counter[0] == 64 and counter[1:].view(np.float32)[0] == 16 * cells.sum()
