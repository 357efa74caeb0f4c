"""``spirvkit amber``: scripts that pass, an EXPECT that fails (exit 1 naming its line and the first
differing value), and bad or unsupported scripts (a located message, exit 1, no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spirvkit.vk import amber

AMBER = Path(__file__).parent.parent / "data" / "amber"
SAXPY = (AMBER / "saxpy_asm.amber").read_text()
# The shader and buffers of saxpy_asm.amber, for scripts that add their own commands.
PRELUDE = SAXPY.split("PIPELINE compute p", 1)[0]
PIPELINE = "PIPELINE compute p" + SAXPY.split("PIPELINE compute p", 1)[1].split("REPEAT", 1)[0]


def spirvkit_amber(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spirvkit", "amber", *map(str, paths)], capture_output=True,
                          text=True, timeout=300)


def test_passing_scripts_exit_0():
    scripts = [AMBER / "saxpy_asm.amber", AMBER / "vec3_hex.amber", AMBER / "alias_hex.amber"]
    done = spirvkit_amber(*scripts)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [f"PASS {scripts[0]}: 11 EXPECT(s) held", f"PASS {scripts[1]}: 1 EXPECT(s) held",
                                        f"PASS {scripts[2]}: 3 EXPECT(s) held", "total: 3 of 3 script(s) passed"]


def test_glsl_script_runs_with_glslang_or_asks_for_the_extra(monkeypatch):
    path = AMBER / "workgroup_ids_glsl.amber"
    result = amber.run_file(str(path))
    if amber.glslang_path() is None:
        assert not result.ok and "install spirvkit[glsl]" in result.message
    else:
        assert result.ok, result.message
        assert result.expects == 5
    monkeypatch.setattr(amber, "glslang_path", lambda: None)
    result = amber.run_file(str(path))
    assert not result.ok
    assert result.message == f"{path}:4: not supported yet: a GLSL shader needs glslangValidator: install spirvkit[glsl]"


def test_failing_expect_names_its_line_and_first_differing_value(tmp_path):
    script = tmp_path / "fail.amber"
    script.write_text(PRELUDE + PIPELINE + "RUN p 2 1 1\nEXPECT y IDX 0 EQ 3.75\nEXPECT y IDX 4 EQ 5 6.5 7.5\n")
    line = script.read_text().splitlines().index("EXPECT y IDX 4 EQ 5 6.5 7.5") + 1
    done = spirvkit_amber(script)
    assert done.returncode == 1
    assert done.stderr.strip() == (f"FAIL {script}:{line}: EXPECT failed: y element 2 (value 1 from byte 4) is 6.25; "
                                   f"expected EQ 6.5")
    good = AMBER / "saxpy_asm.amber"
    both = spirvkit_amber(good, script)
    assert both.returncode == 1
    lines = both.stdout.splitlines()
    assert lines[0].startswith(f"PASS {good}") and lines[1].startswith(f"FAIL {script}:{line}: EXPECT failed")
    assert lines[2] == "total: 1 of 2 script(s) passed"


def test_tolerance_and_comparators_can_fail(tmp_path):
    cases = {"EXPECT y IDX 16 TOLERANCE 0.1% EQ 8.8": "is 8.75; expected EQ 8.8 (tolerance 0.1%)",
             "EXPECT y IDX 0 GT 3.75": "is 3.75; expected GT 3.75",
             "EXPECT y IDX 28 NE 12.5": "element 7 (value 0 from byte 28) is 12.5; expected NE 12.5",
             "EXPECT y RMSE_BUFFER z TOLERANCE 0.5": "RMSE of y against z is",
             "EXPECT y EQ_BUFFER z": "y and z differ at value 0: 3.75 != 7.0"}
    for expect, message in cases.items():
        script = tmp_path / "t.amber"
        script.write_text(PRELUDE + PIPELINE + "RUN p 2 1 1\n" + expect + "\n")
        result = amber.run_file(str(script))
        assert not result.ok and "EXPECT failed" in result.message and message in result.message, result.message


BAD = [
    ("no_header", "BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\n", ":1: not supported yet: VkScript"),
    ("graphics", "#!amber\nPIPELINE graphics g\nEND\n", ":2: not supported yet: graphics pipelines"),
    ("vertex", "#!amber\nSHADER vertex v PASSTHROUGH\n", ":2: not supported yet: vertex shaders"),
    ("command", "#!amber\nFROB x\n", ":2: not supported yet: the AmberScript command FROB"),
    ("size", "#!amber\nBUFFER b DATA_TYPE uint32 SIZE x FILL 0\n", ":2: SIZE: the SIZE must be an integer"),
    ("data_end", "#!amber\nBUFFER b DATA_TYPE float DATA\n1 2\n", ":2: DATA has no END"),
    ("data_value", "#!amber\nBUFFER b DATA_TYPE int32 DATA\n1 2.5\nEND\n", ":3: '2.5' is not a integer"),
    ("matrix", "#!amber\nBUFFER b DATA_TYPE mat4x4<float> SIZE 1 FILL 0\n", ":2: not supported yet: matrix data"),
    ("type", "#!amber\nBUFFER b DATA_TYPE quux SIZE 1 FILL 0\n", ":2: unknown data type 'quux'"),
    ("expect_buffer", "#!amber\nEXPECT nope IDX 0 EQ 1\n", ":2: EXPECT: unknown buffer 'nope'"),
    ("feature", "#!amber\nDEVICE_FEATURE VariablePointerFeatures.variablePointers\n",
     ":2: not supported yet: DEVICE_FEATURE VariablePointerFeatures.variablePointers"),
    ("clear", "#!amber\nCLEAR p\n", ":2: not supported yet: CLEAR (graphics pipelines)"),
    ("shader_end", "#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\n", ":2: SHADER s has no END"),
    ("bad_asm", "#!amber\nSHADER compute s SPIRV-ASM\nOpFrobnicate\nEND\n", ":3:1: error: unknown opcode 'OpFrobnicate'"),
    ("format", "#!amber\nBUFFER img FORMAT R8G8B8A8_UNORM\n", ":2: not supported yet: buffer format R8G8B8A8_UNORM"),
    ("series_vector", "#!amber\nBUFFER v DATA_TYPE vec2<float> SIZE 4 SERIES_FROM 0 INC_BY 1\n",
     ":2: not supported yet: SERIES_FROM for the vector type vec2<float>"),
]


@pytest.mark.parametrize("name, text, message", BAD, ids=[b[0] for b in BAD])
def test_bad_scripts_give_located_errors(tmp_path, name, text, message):
    script = tmp_path / f"{name}.amber"
    script.write_text(text)
    result = amber.run_file(str(script))
    assert not result.ok
    assert result.message.startswith(str(script)) and message in result.message, result.message
    assert "Traceback" not in result.message


def test_bad_scripts_using_the_shader(tmp_path):
    cases = [
        (PRELUDE + PIPELINE.replace("  BIND BUFFER y AS storage DESCRIPTOR_SET 0 BINDING 2\n", "") + "RUN p 2 1 1\n",
         "RUN p 2 1 1", "set 0 binding 2 (storage buffer) is not bound"),
        (PRELUDE + PIPELINE + "RUN p 2 1 1\nEXPECT y IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0\n", "EXPECT y IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0",
         "not supported yet: EXPECT with image coordinates"),
        (PRELUDE + PIPELINE + "RUN p 2 1 1 DRAW_RECT\n", "RUN p 2 1 1 DRAW_RECT", "RUN pipeline x y z"),
        (PRELUDE + PIPELINE + "RUN p 3 1 1\n", "RUN p 3 1 1", "out-of-bounds read in compute shader 'main', "
         "invocation GlobalInvocationId (8, 0, 0): of 4 byte(s) at byte offset 32 of set 0 binding 1"),
        (PRELUDE + PIPELINE + "EXPECT y IDX 2 EQ 1\n", "EXPECT y IDX 2 EQ 1", "not a multiple of its element size"),
        (PRELUDE + PIPELINE + "EXPECT y IDX 32 EQ 1\n", "EXPECT y IDX 32 EQ 1", "goes past the end of buffer y"),
        (PRELUDE + PIPELINE.replace("SPECIALIZE 3 AS float 0.25", "SPECIALIZE 9 AS float 0.25") + "RUN p 2 1 1\n",
         "RUN p 2 1 1", "no specialization constant has SpecId 9"),
        (PRELUDE + "PIPELINE compute q\n  BIND BUFFER x AS storage DESCRIPTOR_SET 0 BINDING 1\nEND\n",
         "PIPELINE compute q", "PIPELINE q has no ATTACHed shader"),
        (PRELUDE + PIPELINE.replace("BINDING 2\n", "BINDING 2 DESCRIPTOR_OFFSET 64\n") + "RUN p 2 1 1\n",
         "RUN p 2 1 1", "DESCRIPTOR_OFFSET 64 / DESCRIPTOR_RANGE None lie outside buffer y (32 bytes)"),
        (PRELUDE + PIPELINE.replace("BINDING 2\n", "BINDING 2 DESCRIPTOR_OFFSET 8\n") + "RUN p 2 1 1\n",
         "RUN p 2 1 1", "out-of-bounds write in compute shader 'main', invocation GlobalInvocationId (6, 0, 0)"),
        (PRELUDE + PIPELINE.replace("x AS storage", "x AS uniform") + "RUN p 2 1 1\n", "RUN p 2 1 1",
         "buffer x is bound AS uniform at set 0 binding 1, where the shader declares a storage buffer"),
        (PRELUDE + PIPELINE.replace("AS uniform", "AS sampled_image") + "RUN p 2 1 1\n",
         "  BIND BUFFER scale AS sampled_image DESCRIPTOR_SET 0 BINDING 0", "not supported yet: BIND BUFFER ... AS "
         "sampled_image"),
    ]
    for text, at, message in cases:
        script = tmp_path / "t.amber"
        script.write_text(text)
        line = text.splitlines().index(at) + 1
        result = amber.run_file(str(script))
        assert not result.ok and result.message.startswith(f"{script}:{line}: ") and message in result.message, \
            (result.message, line)


def test_unreadable_file_and_cli_never_prints_a_traceback(tmp_path):
    done = spirvkit_amber(tmp_path / "missing.amber")
    assert done.returncode == 1 and "cannot read" in done.stderr and "Traceback" not in done.stderr


def test_glsl_compile_errors_name_the_script_line(tmp_path):
    if amber.glslang_path() is None:
        pytest.skip("glslangValidator is not installed (pip install spirvkit[glsl])")
    script = tmp_path / "bad_glsl.amber"
    script.write_text("#!amber\nSHADER compute s GLSL\n#version 450\nvoid main() { x = 1; }\nEND\n")
    result = amber.run_file(str(script))
    assert not result.ok and result.message.startswith(f"{script}:2: the GLSL shader does not compile")
    assert f"{script}:4: 'x' : undeclared identifier" in result.message
