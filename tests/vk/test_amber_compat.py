"""Amber behaviours that public scripts (VK-GL-CTS, google/amber) rely on, each reproduced by a
script written for these tests: ES GLSL shaders (#version on their first line), float16 DATA
stored as Amber stores it, RUN TIMED_EXECUTION, SPIR-V 1.4 assembly under VK_KHR_spirv_1_4,
Workgroup explicit layout, and robust buffer access refused as "not supported yet"."""

from __future__ import annotations

import numpy as np
import pytest

from spirvkit.vk import amber, glslang
from spirvkit.vk.amber_data import amber_half

from vk.test_amber import PIPELINE, PRELUDE, fails_at
from vk.test_workgroup_layout import ALIASING


def run(tmp_path, text: str):
    script = tmp_path / "t.amber"
    script.write_text(text)
    return amber.run_file(str(script))


def test_an_es_glsl_shader_compiles_and_its_errors_keep_script_lines(tmp_path):
    if glslang.glslang_path() is None:
        pytest.skip("glslangValidator is not installed (pip install spirvkit[glsl])")
    shader = ("#!amber\nSHADER compute s GLSL\n#version 310 es\nlayout(local_size_x = 2) in;\n"
              "layout(binding = 0) buffer B { uint v[]; } b;\n"
              "void main() { b.v[gl_LocalInvocationIndex] += 5u; }\nEND\n")
    body = ("BUFFER buf DATA_TYPE uint32 DATA 1 2 END\nPIPELINE compute p\n  ATTACH s\n"
            "  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\nRUN p 1 1 1\nEXPECT buf IDX 0 EQ 6 7\n")
    result = run(tmp_path, shader + body)
    assert result.ok, result.message
    result = run(tmp_path, shader.replace("+= 5u", "+= nope") + body)
    assert not result.ok and f"{tmp_path / 't.amber'}:6: 'nope' : undeclared identifier" in result.message, \
        result.message


def test_float16_data_is_truncated_as_amber_stores_it(tmp_path):
    # 1 + 0.75 ulp: nearest rounding gives 1 + 1 ulp, Amber's FloatToHexFloat16 truncates to 1
    text = "#!amber\nBUFFER h DATA_TYPE float16 DATA 1.000732421875 -2.00146484375 END\nEXPECT h IDX 0 EQ 1 -2\n"
    assert run(tmp_path, text).ok
    result = run(tmp_path, text.replace("EQ 1 -2", "EQ 1.0009765625 -2.001953125"))
    assert not result.ok and "h element 0 (value 0 from byte 0) is 1.0; expected EQ 1.0009765625" in result.message
    # outside float16's normal range, values are converted as IEEE rounds them
    special = np.array([0.0, -0.0, 1e-6, 6.1e-5, 65536.0, 1e9, np.inf, np.nan])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(amber_half(special)[:-1].view(np.uint16),
                                      special[:-1].astype(np.float16).view(np.uint16))
    assert np.isnan(amber_half(special)[-1])
    normal = np.array([3.14159, -1234.567, 0.1, 60000.0])
    truncated = (normal.astype(np.float32).view(np.uint32) >> 13) & 0x3FF
    np.testing.assert_array_equal(amber_half(normal).view(np.uint16) & 0x3FF, truncated)


def test_run_timed_execution_runs_the_pipeline(tmp_path):
    assert run(tmp_path, PRELUDE + PIPELINE + "RUN TIMED_EXECUTION p 2 1 1\nEXPECT y IDX 0 EQ 3.75\n").ok
    result = run(tmp_path, PRELUDE + PIPELINE + "RUN TIMED_EXECUTION p 2 1 1\nEXPECT y IDX 0 EQ 3.5\n")
    assert not result.ok and "EXPECT failed" in result.message


def test_robust_buffer_access_is_not_supported_yet(tmp_path):
    text = PRELUDE + PIPELINE.replace("END\n", "  SHADER_OPTIMIZATION s\n    --graphics-robust-access\n  END\nEND\n", 1)
    assert "--graphics-robust-access" in text
    fails_at(tmp_path, text, "    --graphics-robust-access",
             "not supported yet: SHADER_OPTIMIZATION --graphics-robust-access")


WORKGROUP_LAYOUT = ("#!amber\nDEVICE_EXTENSION VK_KHR_spirv_1_4\n"
                    "DEVICE_EXTENSION VK_KHR_workgroup_memory_explicit_layout\n"
                    "SHADER compute s SPIRV-ASM" + ALIASING + "END\n"
                    "BUFFER out DATA_TYPE uint32 SIZE 4 FILL 99\nPIPELINE compute p\n  ATTACH s\n"
                    "  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n"
                    "RUN p 2 1 1\nEXPECT out IDX 0 EQ 21 51 7 99\n")


def test_spirv_1_4_assembly_and_workgroup_explicit_layout(tmp_path):
    # VK_KHR_spirv_1_4 makes SPIR-V 1.4 the assembly default: the entry point lists every global
    # and StorageBuffer needs no extension there
    result = run(tmp_path, WORKGROUP_LAYOUT)
    assert result.ok, result.message
    result = run(tmp_path, WORKGROUP_LAYOUT.replace("DEVICE_EXTENSION VK_KHR_spirv_1_4\n", ""))
    assert not result.ok and "not valid SPIR-V for vulkan1.0" in result.message, result.message
    result = run(tmp_path, WORKGROUP_LAYOUT.replace("EQ 21 51 7", "EQ 21 41 7"))
    assert not result.ok and "out element 1 (value 1 from byte 0) is 51; expected EQ 41" in result.message


def test_an_empty_data_block_is_an_empty_buffer(tmp_path):
    # (found by mutating public scripts: once an internal error)
    result = run(tmp_path, "#!amber\nBUFFER b DATA_TYPE uint32 DATA\nEND\nEXPECT b IDX 0 EQ 1\n")
    assert not result.ok and "reading 1 value(s) from byte 0 goes past the end of buffer b (0 bytes)" in result.message, \
        result.message
