"""GLSL.std.450 Determinant and MatrixInverse (glsl_matrix.comp, compiled once with glslang:
tests/data/vk/regenerate.sh) against numpy's LU-based determinant and inverse, and the
instructions a compute shader cannot run (IMix, InterpolateAt*) refused with their reason."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spirvkit import NotSupportedError
from spirvkit.vk import ComputePipeline

DATA = Path(__file__).parent.parent / "data" / "vk"


def _std430(fields):
    """A structured dtype with std430 offsets: (name, scalar dtype, columns, rows, count);
    a matrix's columns are vectors of ``rows`` (vec3 aligned as vec4)."""
    names, formats, offsets, at = [], [], [], 0
    for name, dt, cols, rows, count in fields:
        size = np.dtype(dt).itemsize
        col_align = size * (4 if rows == 3 else rows)
        at = -(-at // col_align) * col_align
        names.append(name)
        formats.append((dt, (count, cols, col_align // size)) if cols else (dt, (count,)))
        offsets.append(at)
        at += count * (cols * col_align if cols else size)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": at})


IN = _std430([("m2", np.float32, 2, 2, 8), ("m3", np.float32, 3, 3, 8), ("m4", np.float32, 4, 4, 8),
              ("d3", np.float64, 3, 3, 8)])
OUT = _std430([("det2", np.float32, 0, 1, 8), ("det3", np.float32, 0, 1, 8), ("det4", np.float32, 0, 1, 8),
               ("ddet3", np.float64, 0, 1, 8), ("i2", np.float32, 2, 2, 8), ("i3", np.float32, 3, 3, 8),
               ("i4", np.float32, 4, 4, 8), ("di3", np.float64, 3, 3, 8)])


@pytest.mark.parametrize("unchecked", [False, True])
def test_determinant_and_inverse_match_numpy(unchecked):
    rng = np.random.default_rng(16)
    src = np.zeros(1, IN)
    mats = {}
    for name, n in (("m2", 2), ("m3", 3), ("m4", 4), ("d3", 3)):
        # Well-conditioned matrices (a dominant diagonal), column-major as the shader reads them.
        a = rng.uniform(-1, 1, (8, n, n)) + np.eye(n) * 3
        a[7] = np.eye(n)[::-1] * 2          # a permutation: det +-2^n, an exact inverse
        mats[name] = a
        src[name][0][:, :, :n] = a.transpose(0, 2, 1)   # [matrix][column][row]
    dst = np.zeros(1, OUT)
    p = ComputePipeline(DATA / "glsl_matrix.spv")
    p.bind(0, 0, src.view(np.uint8)).bind(0, 1, dst.view(np.uint8)).dispatch(2, unchecked=unchecked)
    # Float matrices are computed in double (ops_matrix.py): within an ulp or so of the exact
    # value for the matrix the shader read.
    for det, inv, name, rtol in (("det2", "i2", "m2", 2e-7), ("det3", "i3", "m3", 2e-7),
                                 ("det4", "i4", "m4", 2e-7), ("ddet3", "di3", "d3", 1e-14)):
        a = mats[name].astype(src[name].dtype.base)      # what the shader saw
        a64 = a.astype(np.float64)
        n = a.shape[1]
        np.testing.assert_allclose(dst[det][0], np.linalg.det(a64), rtol=rtol)
        got = dst[inv][0][:, :, :n].transpose(0, 2, 1)
        np.testing.assert_allclose(got, np.linalg.inv(a64), rtol=rtol, atol=rtol * 1e-3)
        # The permutation's inverse is exact: its transpose divided by 4.
        np.testing.assert_array_equal(got[7], np.eye(n)[::-1] / 2)
        np.testing.assert_array_equal(dst[det][0][7], np.linalg.det(np.eye(n)[::-1] * 2).round())


SHADER = """               OpCapability Shader
               OpCapability InterpolationFunction
          %std = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %S 0 Offset 0
               OpDecorate %S Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
        %int = OpTypeInt 32 1
        %rta = OpTypeRuntimeArray %float
          %S = OpTypeStruct %rta
      %ptr_s = OpTypePointer StorageBuffer %S
        %buf = OpVariable %ptr_s StorageBuffer
      %ptr_f = OpTypePointer StorageBuffer %float
      %int_0 = OpConstant %int 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpAccessChain %ptr_f %buf %int_0 %int_0
          %x = OpLoad %float %p
          %m = OpExtInst %float %std {call}
               OpStore %p %m
               OpReturn
               OpFunctionEnd
"""


@pytest.mark.parametrize("call, why", [
    ("InterpolateAtCentroid %p", "InterpolateAtCentroid .fragment-shader only, not valid in a GLCompute shader"),
    ("InterpolateAtSample %p %int_0", "InterpolateAtSample .fragment-shader only"),
    ("InterpolateAtOffset %p %x", "InterpolateAtOffset .fragment-shader only"),
])
def test_fragment_only_instructions_are_refused_with_the_reason(call, why):
    # spirv-val rejects them in GLCompute (the Input storage class they need); without the
    # validator the executor still says why it cannot run them.
    with pytest.raises(NotSupportedError, match=f"not supported yet: GLSL.std.450 {why}"):
        p = ComputePipeline(SHADER.replace("{call}", call), target_env="vulkan1.1spv1.4", validate=False)
        p.bind(0, 0, np.zeros(4, np.float32)).dispatch(1)


def test_imix_is_refused_as_removed_from_the_specification():
    with pytest.raises(NotSupportedError, match="IMix .opcode 47 is reserved: IMix was removed"):
        p = ComputePipeline(DATA / "imix.spvasm", target_env="vulkan1.0")
        p.bind(0, 0, np.zeros(4, np.int32)).dispatch(1)


# An AmberScript of matrix data types (mat3x3<float>: columns of vec3 padded to 16 bytes, std430)
# around Determinant and MatrixInverse. The shader is tests/data/vk/glsl_matrix_amber.comp's
# SPIR-V (glslangValidator -V --target-env vulkan1.0, then spirvkit dis without names).
AMBER_MATRICES = """#!amber
SHADER compute inverse SPIRV-ASM
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
               OpExecutionMode %main LocalSize 2 1 1
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
               OpDecorate %_runtimearr_float ArrayStride 4
               OpMemberDecorate %Det 0 Offset 0
               OpDecorate %Det BufferBlock
               OpDecorate %_ DescriptorSet 0
               OpDecorate %_ Binding 1
               OpDecorate %_runtimearr_mat3v3float ArrayStride 48
               OpMemberDecorate %In 0 ColMajor
               OpMemberDecorate %In 0 NonWritable
               OpMemberDecorate %In 0 Offset 0
               OpMemberDecorate %In 0 MatrixStride 16
               OpDecorate %In BufferBlock
               OpDecorate %__0 DescriptorSet 0
               OpDecorate %__0 Binding 0
               OpDecorate %_runtimearr_mat3v3float_0 ArrayStride 48
               OpMemberDecorate %Inv 0 ColMajor
               OpMemberDecorate %Inv 0 Offset 0
               OpMemberDecorate %Inv 0 MatrixStride 16
               OpDecorate %Inv BufferBlock
               OpDecorate %__1 DescriptorSet 0
               OpDecorate %__1 Binding 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_0 = OpConstant %uint 0
%_ptr_Input_uint = OpTypePointer Input %uint
      %float = OpTypeFloat 32
%_runtimearr_float = OpTypeRuntimeArray %float
        %Det = OpTypeStruct %_runtimearr_float
%_ptr_Uniform_Det = OpTypePointer Uniform %Det
          %_ = OpVariable %_ptr_Uniform_Det Uniform
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
    %v3float = OpTypeVector %float 3
%mat3v3float = OpTypeMatrix %v3float 3
%_runtimearr_mat3v3float = OpTypeRuntimeArray %mat3v3float
         %In = OpTypeStruct %_runtimearr_mat3v3float
%_ptr_Uniform_In = OpTypePointer Uniform %In
        %__0 = OpVariable %_ptr_Uniform_In Uniform
%_ptr_Uniform_mat3v3float = OpTypePointer Uniform %mat3v3float
%_ptr_Uniform_float = OpTypePointer Uniform %float
%_runtimearr_mat3v3float_0 = OpTypeRuntimeArray %mat3v3float
        %Inv = OpTypeStruct %_runtimearr_mat3v3float_0
%_ptr_Uniform_Inv = OpTypePointer Uniform %Inv
        %__1 = OpVariable %_ptr_Uniform_Inv Uniform
     %uint_2 = OpConstant %uint 2
     %uint_1 = OpConstant %uint 1
%gl_WorkGroupSize = OpConstantComposite %v3uint %uint_2 %uint_1 %uint_1
       %main = OpFunction %void None %3
          %5 = OpLabel
          %i = OpVariable %_ptr_Function_uint Function
         %14 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
         %15 = OpLoad %uint %14
               OpStore %i %15
         %23 = OpLoad %uint %i
         %30 = OpLoad %uint %i
         %32 = OpAccessChain %_ptr_Uniform_mat3v3float %__0 %int_0 %30
         %33 = OpLoad %mat3v3float %32
         %34 = OpExtInst %float %1 Determinant %33
         %36 = OpAccessChain %_ptr_Uniform_float %_ %int_0 %23
               OpStore %36 %34
         %41 = OpLoad %uint %i
         %42 = OpLoad %uint %i
         %43 = OpAccessChain %_ptr_Uniform_mat3v3float %__0 %int_0 %42
         %44 = OpLoad %mat3v3float %43
         %45 = OpExtInst %mat3v3float %1 MatrixInverse %44
         %46 = OpAccessChain %_ptr_Uniform_mat3v3float %__1 %int_0 %41
               OpStore %46 %45
               OpReturn
               OpFunctionEnd
END

BUFFER m DATA_TYPE mat3x3<float> DATA
2 0 0   0 4 0   0 0 0.5
0 1 0   0 0 3   -2 0 0
END
BUFFER det DATA_TYPE float SIZE 2 FILL 7
BUFFER inv DATA_TYPE mat3x3<float> SIZE 2 FILL 9

PIPELINE compute p
  ATTACH inverse
  BIND BUFFER m AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER det AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER inv AS storage DESCRIPTOR_SET 0 BINDING 2
END
RUN p 1 1 1
EXPECT det IDX 0 EQ 4 -6
EXPECT inv IDX 0 EQ 0.5 0 0   0 0.25 0   0 0 2
EXPECT inv IDX 48 TOLERANCE 1e-7 EQ 0 0 -0.5   1 0 0   0 0.3333333 0
"""


def test_amber_matrix_data_types_around_determinant_and_inverse(tmp_path):
    from spirvkit.vk import amber

    script = tmp_path / "matrices.amber"
    script.write_text(AMBER_MATRICES)
    result = amber.run_file(str(script))
    assert result.ok, result.message
    # A wrong expectation is caught at its component (the padding of each column is skipped).
    script.write_text(AMBER_MATRICES.replace("EQ 0.5 0 0   0 0.25 0", "EQ 0.5 0 0   0 0.5 0"))
    result = amber.run_file(str(script))
    assert not result.ok and "component" in result.message, result.message
