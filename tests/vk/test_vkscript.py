"""``spirvkit amber`` on VkScript (scripts not starting with #!amber): sections, ssbo / uniform
ubo / push constant data written through each command's own type and layout, compute with an
entry point, probes with every comparator and tolerances (which can fail), and graphics parts
refused as "not supported yet". Scripts written for these tests."""

from __future__ import annotations

import numpy as np
import pytest

from spirvkit.vk import amber, glslang
from spirvkit.vk.vkscript import vk_type

# out[i] = float(in[i]) * pc.s + k[i & 1]: in and out storage buffers (0:0, 0:1), k a std140
# float[2] uniform buffer (1:2), s a push constant; the entry point is "run".
SHADER = """[compute shader spirv]
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "run" %gid
OpExecutionMode %main LocalSize 2 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %ru ArrayStride 4
OpDecorate %rf ArrayStride 4
OpDecorate %k2 ArrayStride 16
OpDecorate %In BufferBlock
OpMemberDecorate %In 0 Offset 0
OpDecorate %Out BufferBlock
OpMemberDecorate %Out 0 Offset 0
OpDecorate %K Block
OpMemberDecorate %K 0 Offset 0
OpDecorate %PC Block
OpMemberDecorate %PC 0 Offset 0
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %k DescriptorSet 1
OpDecorate %k Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%ru = OpTypeRuntimeArray %uint
%rf = OpTypeRuntimeArray %float
%k2 = OpTypeArray %float %u2
%In = OpTypeStruct %ru
%Out = OpTypeStruct %rf
%K = OpTypeStruct %k2
%PC = OpTypeStruct %float
%p_gid = OpTypePointer Input %v3uint
%p_in = OpTypePointer Uniform %In
%p_out = OpTypePointer Uniform %Out
%p_k = OpTypePointer Uniform %K
%p_pc = OpTypePointer PushConstant %PC
%p_u = OpTypePointer Uniform %uint
%p_f = OpTypePointer Uniform %float
%p_pcf = OpTypePointer PushConstant %float
%gid = OpVariable %p_gid Input
%in = OpVariable %p_in Uniform
%out = OpVariable %p_out Uniform
%k = OpVariable %p_k Uniform
%pc = OpVariable %p_pc PushConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%pi = OpAccessChain %p_u %in %u0 %i
%vi = OpLoad %uint %pi
%fi = OpConvertUToF %float %vi
%ps = OpAccessChain %p_pcf %pc %u0
%s = OpLoad %float %ps
%odd = OpBitwiseAnd %uint %i %u1
%pk = OpAccessChain %p_f %k %u0 %odd
%kv = OpLoad %float %pk
%prod = OpFMul %float %fi %s
%sum = OpFAdd %float %prod %kv
%po = OpAccessChain %p_f %out %u0 %i
OpStore %po %sum
OpReturn
OpFunctionEnd
"""

TEST = """
[test]
ssbo 0:0 subdata uint 0 1 2 3 \\
                        4
ssbo 1 16                         # binding 1 of set 0: 16 bytes
uniform ubo 1:2 float 0 10.0
uniform ubo 1:2 float 16 20.0     # std140: k[1] 16 bytes on
uniform float 0 0.5               # the push constant
compute entrypoint run
compute 2 1 1
probe ssbo float 0:1 0 == 10.5 21 11.5 22
tolerance 0.01
probe ssbo float 1 4 ~= 21.005
tolerance 1%
probe ssbo float 1 8 ~= 11.6 22.2
probe ssbo uint 0:0 0 < 2
probe ssbo uint 0:0 4 >= 2 3 4
probe ssbo uint 0:0 12 != 5
"""

AT = len(SHADER.splitlines()) + 2      # the line of a command after SHADER + "[test]\n"
PREAMBLE = ("# a VkScript\n[comment]\nwritten for spirvkit's tests\n"
            "[require]\nshaderFloat64\nVK_KHR_storage_buffer_storage_class\n")


def run(tmp_path, text: str):
    script = tmp_path / "t.vkscript"
    script.write_text(text)
    return script, amber.run_file(str(script))


def test_a_vkscript_runs_and_its_probes_hold(tmp_path):
    script, result = run(tmp_path, PREAMBLE + SHADER + TEST)
    assert result.ok, result.message
    assert result.expects == 6


@pytest.mark.parametrize("old, new, message", [
    ("== 10.5 21 11.5 22", "== 10.5 21 11.5 22.5",
     "ssbo 0:1 element 3 (value 3 from byte 0) is 22.0; expected EQ 22.5"),
    ("~= 21.005", "~= 21.02", "is 21.0; expected EQ 21.02 (tolerance 0.01)"),
    ("~= 11.6 22.2", "~= 11.6 22.3", "is 22.0; expected EQ 22.3 (tolerance 1%)"),
    ("uniform float 0 0.5", "uniform float 0 0.25", "is 10.25; expected EQ 10.5"),     # push constants used
    ("uniform ubo 1:2 float 16 20.0", "uniform ubo 1:2 float 4 20.0", "is 1.0; expected EQ 21"),   # std140 offset
    ("< 2", "< 1", "is 1; expected LT 1"),
    ("!= 5", "!= 4", "is 4; expected NE 4"),
])
def test_vkscript_probes_can_fail(tmp_path, old, new, message):
    text = PREAMBLE + SHADER + TEST
    assert text.count(old) == 1
    script, result = run(tmp_path, text.replace(old, new))
    assert not result.ok and "EXPECT failed" in result.message and message in result.message, result.message


def test_a_probe_uses_the_first_of_four_tolerances(tmp_path):
    # as Amber's verifier does: four tolerances are a framebuffer probe's channels
    text = (PREAMBLE + SHADER + TEST).replace("tolerance 0.01\n", "tolerance 0.01 5 5 5\n")
    script, result = run(tmp_path, text)
    assert result.ok, result.message
    script, result = run(tmp_path, text.replace("~= 21.005", "~= 21.5"))
    assert not result.ok and "is 21.0; expected EQ 21.5 (tolerance 0.01)" in result.message, result.message


@pytest.mark.parametrize("text, line, message", [
    ("[vertex shader passthrough]\n", 1, "not supported yet: [vertex shader passthrough] (graphics pipelines)"),
    ("# nothing\n[require]\nshaderFloat64\n", 1, "not supported yet: a VkScript without a [compute shader] section"),
    ("[require]\ngeometryShader\n", 2, "not supported yet: the requirement geometryShader"),
    (SHADER + "[test]\nclear\n", AT, "not supported yet: the VkScript command clear (graphics pipelines)"),
    (SHADER + "[test]\ndraw rect 0 0 1 1\n", AT, "not supported yet: the VkScript command draw"),
    (SHADER + "[test]\nssbo 0:0 subdata vec3 0 1 2\n", AT, "2 value(s) given: a non-zero multiple of 3 expected"),
    (SHADER + "[test]\nssbo 0:0 subdata quux 0 1\n", AT, "unknown VkScript data type 'quux'"),
    (SHADER + "[test]\nssbo 0:0 4\nuniform ubo 0:0 float 0 1\n", AT + 1,
     "binding 0:0 is used both as a storage and a uniform buffer"),
    (SHADER + "[test]\nprobe ssbo int 0:1 0 =~ 1\n", AT, "probe ssbo: unknown comparison '=~'"),
    (SHADER + "[test]\ntolerance 1 2\n", AT, "tolerance takes 1 or 4 values"),
    (SHADER + "[test]\ncompute 1 1\n", AT, "compute X Y Z"),
    (SHADER + "[frobnicate]\n", AT - 1, "unknown VkScript section [frobnicate]"),
])
def test_bad_or_graphics_vkscripts_are_located(tmp_path, text, line, message):
    script, result = run(tmp_path, text)
    assert not result.ok and result.message.startswith(f"{script}:{line}: ") and message in result.message, \
        result.message


def test_a_buffer_grows_to_the_block_the_shader_declares(tmp_path):
    # in[] gets 2 values only: 8 bytes; out gets no size at all. Amber's buffers are the data
    # written; the shader's blocks are runtime arrays here, so the bound sizes are those.
    text = PREAMBLE + SHADER + "[test]\nssbo 0:0 subdata uint 0 1 2\nssbo 0:1 8\nuniform ubo 1:2 float 0 0 0 0 0 " \
                                "1\nuniform float 0 2\ncompute entrypoint run\ncompute 1 1 1\n" \
                                "probe ssbo float 0:1 0 == 2 5\n"
    script, result = run(tmp_path, text)
    assert result.ok, result.message


def test_vkscript_data_types_and_layouts():
    assert (vk_type("int", "std430").name, vk_type("uint16_t", "std430").name) == ("int32", "uint16")
    assert (vk_type("vec3", "std430").stride, vk_type("vec3", "std430").components) == (16, 3)
    assert vk_type("i16vec2", "std430").dtype == np.int16 and vk_type("dvec4", "std430").stride == 32
    assert vk_type("vec", "std430").components == 4
    # matrices: columns 16 bytes apart in std140, by their rows in std430
    assert (vk_type("mat3x2", "std140").stride, vk_type("mat3x2", "std430").stride) == (16, 8)
    assert (vk_type("mat4", "std430").columns, vk_type("dmat2x3", "std430").stride) == (4, 32)
    # scalars are written one after another even in a uniform buffer (Amber's VkScript)
    assert vk_type("float", "std140").stride == 4


def test_a_glsl_vkscript_without_glslang_asks_for_the_extra(tmp_path, monkeypatch):
    monkeypatch.setattr(glslang, "glslang_path", lambda: None)
    script, result = run(tmp_path, "# GLSL\n[compute shader]\n#version 430\nvoid main() {}\n[test]\ncompute 1 1 1\n")
    assert not result.ok
    assert result.message == f"{script}:2: not supported yet: a GLSL shader needs glslangValidator: install spirvkit[glsl]"
