"""SPV_KHR_workgroup_memory_explicit_layout: Workgroup Block variables alias one another and are
laid out by their Offset / ArrayStride decorations (checked and unchecked); and OpCopyMemory
between explicitly laid out buffers copies the whole explicit layout (a std140 array is four
times its natural size). Shaders written for these tests."""

from __future__ import annotations

import numpy as np
import pytest

from spirvkit.vk import ComputePipeline

# Eight invocations fill Whole.w[i] = 10 i + 1; after a barrier invocation 0 reads the aliasing
# Pair block (a at byte 8 = w[2], b at byte 20 = w[5]: past Pair's natural size), writes Pair.a
# and reads it back through Whole.w[2].
ALIASING = """
OpCapability Shader
OpCapability WorkgroupMemoryExplicitLayoutKHR
OpExtension "SPV_KHR_workgroup_memory_explicit_layout"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid %whole %pair %out
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %lid BuiltIn LocalInvocationIndex
OpDecorate %arr8 ArrayStride 4
OpDecorate %Whole Block
OpMemberDecorate %Whole 0 Offset 0
OpDecorate %Pair Block
OpMemberDecorate %Pair 0 Offset 8
OpMemberDecorate %Pair 1 Offset 20
OpDecorate %arr4 ArrayStride 4
OpDecorate %Out Block
OpMemberDecorate %Out 0 Offset 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u4 = OpConstant %uint 4
%u7 = OpConstant %uint 7
%u8 = OpConstant %uint 8
%u10 = OpConstant %uint 10
%u264 = OpConstant %uint 264
%arr8 = OpTypeArray %uint %u8
%arr4 = OpTypeArray %uint %u4
%Whole = OpTypeStruct %arr8
%Pair = OpTypeStruct %uint %uint
%Out = OpTypeStruct %arr4
%p_in = OpTypePointer Input %uint
%p_whole = OpTypePointer Workgroup %Whole
%p_pair = OpTypePointer Workgroup %Pair
%p_wu = OpTypePointer Workgroup %uint
%p_out = OpTypePointer StorageBuffer %Out
%p_su = OpTypePointer StorageBuffer %uint
%lid = OpVariable %p_in Input
%whole = OpVariable %p_whole Workgroup
%pair = OpVariable %p_pair Workgroup
%out = OpVariable %p_out StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %lid
%ten = OpIMul %uint %i %u10
%v = OpIAdd %uint %ten %u1
%wi = OpAccessChain %p_wu %whole %u0 %i
OpStore %wi %v
OpControlBarrier %u2 %u2 %u264
%first = OpIEqual %bool %i %u0
OpSelectionMerge %done None
OpBranchConditional %first %read %done
%read = OpLabel
%pa = OpAccessChain %p_wu %pair %u0
%pb = OpAccessChain %p_wu %pair %u1
%a = OpLoad %uint %pa
%b = OpLoad %uint %pb
%o0 = OpAccessChain %p_su %out %u0 %u0
%o1 = OpAccessChain %p_su %out %u0 %u1
%o2 = OpAccessChain %p_su %out %u0 %u2
OpStore %o0 %a
OpStore %o1 %b
OpStore %pa %u7
%w2 = OpAccessChain %p_wu %whole %u0 %u2
%back = OpLoad %uint %w2
OpStore %o2 %back
OpBranch %done
%done = OpLabel
OpReturn
OpFunctionEnd
"""

# OpCopyMemory of a whole Uniform block (four floats 16 bytes apart, std140) into a storage
# buffer of the same block type.
STD140_COPY = """
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %src %dst
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 16
OpDecorate %Block Block
OpMemberDecorate %Block 0 Offset 0
OpDecorate %src DescriptorSet 0
OpDecorate %src Binding 0
OpDecorate %dst DescriptorSet 0
OpDecorate %dst Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%u4 = OpConstant %uint 4
%arr = OpTypeArray %float %u4
%Block = OpTypeStruct %arr
%p_uniform = OpTypePointer Uniform %Block
%p_storage = OpTypePointer StorageBuffer %Block
%src = OpVariable %p_uniform Uniform
%dst = OpVariable %p_storage StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
OpCopyMemory %dst %src
OpReturn
OpFunctionEnd
"""


@pytest.mark.parametrize("unchecked", [False, True])
def test_workgroup_blocks_alias_with_their_explicit_offsets(unchecked):
    out = np.full(4, 99, np.uint32)
    ComputePipeline(ALIASING, target_env="vulkan1.2").bind(0, 0, out).dispatch(3, unchecked=unchecked)
    # w[2] = 21 and w[5] = 51 read through Pair; Pair.a = 7 read back through Whole.w[2]
    np.testing.assert_array_equal(out, [21, 51, 7, 99])


@pytest.mark.parametrize("unchecked", [False, True])
def test_copy_memory_between_buffers_copies_the_explicit_layout(unchecked):
    src = np.arange(1, 17, dtype=np.float32)          # 4 floats 16 bytes apart, with padding between
    dst = np.zeros(16, np.float32)
    p = ComputePipeline(STD140_COPY, target_env="vulkan1.2")
    p.bind(0, 0, src).bind(0, 1, dst).dispatch(1, unchecked=unchecked)
    np.testing.assert_array_equal(dst[::4], [1, 5, 9, 13])
