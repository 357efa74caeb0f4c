"""``spirvkit amber``: scripts that pass, an EXPECT that fails (exit 1 naming its line and the first
differing value), and bad or unsupported scripts (a located message, exit 1, no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spirvkit.vk import amber, glslang

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
    if glslang.glslang_path() is None:
        assert not result.ok and "install spirvkit[glsl]" in result.message
    else:
        assert result.ok, result.message
        assert result.expects == 5
    monkeypatch.setattr(glslang, "glslang_path", lambda: None)
    result = amber.run_file(str(path))
    assert not result.ok
    assert result.message == f"{path}:4: not supported yet: a GLSL shader needs glslangValidator: install spirvkit[glsl]"


def test_a_glslang_that_hangs_or_cannot_start_is_a_located_failure(monkeypatch, tmp_path):
    path = AMBER / "workgroup_ids_glsl.amber"
    hang = tmp_path / "glslangValidator"
    hang.write_text("#!/bin/sh\nexec sleep 30\n")
    hang.chmod(0o755)
    monkeypatch.setattr(glslang, "glslang_path", lambda: str(hang))
    monkeypatch.setattr(glslang, "GLSLANG_TIMEOUT", 1)
    result = amber.run_file(str(path))
    assert not result.ok
    assert result.message == f"{path}:4: glslangValidator did not finish within 1 s"
    hang.chmod(0o644)   # not executable: the OS refuses to start it
    result = amber.run_file(str(path))
    assert not result.ok and result.message.startswith(f"{path}:4: cannot run glslangValidator ({hang}): ")


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
    ("no_header", "BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\n",   # a VkScript (test_vkscript.py) with no shader
     ":1: not supported yet: a VkScript without a [compute shader] section"),
    ("graphics", "#!amber\nPIPELINE graphics g\nEND\n", ":2: not supported yet: graphics pipelines"),
    ("vertex", "#!amber\nSHADER vertex v PASSTHROUGH\n", ":2: not supported yet: vertex shaders"),
    ("command", "#!amber\nFROB x\n", ":2: not supported yet: the AmberScript command FROB"),
    ("size", "#!amber\nBUFFER b DATA_TYPE uint32 SIZE x FILL 0\n", ":2: SIZE: the SIZE must be an integer"),
    ("data_end", "#!amber\nBUFFER b DATA_TYPE float DATA\n1 2\n", ":2: DATA has no END"),
    ("data_value", "#!amber\nBUFFER b DATA_TYPE int32 DATA\n1 2.5\nEND\n", ":3: '2.5' is not a integer"),
    ("matrix", "#!amber\nBUFFER b DATA_TYPE mat4x5<float> SIZE 1 FILL 0\n", ":2: not supported yet: matrix data"),
    ("type", "#!amber\nBUFFER b DATA_TYPE quux SIZE 1 FILL 0\n", ":2: unknown data type 'quux'"),
    ("expect_buffer", "#!amber\nEXPECT nope IDX 0 EQ 1\n", ":2: EXPECT: unknown buffer 'nope'"),
    ("feature", "#!amber\nDEVICE_FEATURE RayTracingPipelineFeaturesKHR.rayTracingPipeline\n",
     ":2: not supported yet: DEVICE_FEATURE RayTracingPipelineFeaturesKHR.rayTracingPipeline"),
    ("clear", "#!amber\nCLEAR p\n", ":2: not supported yet: CLEAR (graphics pipelines)"),
    ("shader_end", "#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\n", ":2: SHADER s has no END"),
    ("bad_asm", "#!amber\nSHADER compute s SPIRV-ASM\nOpFrobnicate\nEND\n", ":3:1: error: unknown opcode 'OpFrobnicate'"),
    ("format", "#!amber\nBUFFER img FORMAT B10G11R11_UFLOAT_PACK32 SIZE 4 FILL 0\n",
     ":2: not supported yet: buffer format B10G11R11_UFLOAT_PACK32"),
    ("framebuffer", "#!amber\nBUFFER img FORMAT R8G8B8A8_UNORM\n",
     ":2: not supported yet: a BUFFER without DATA or SIZE (image buffers)"),
    ("series_vector", "#!amber\nBUFFER v DATA_TYPE vec2<float> SIZE 4 SERIES_FROM 0 INC_BY 1\n",
     ":2: not supported yet: SERIES_FROM for the vector type vec2<float>"),
]


def test_bad_scripts_using_the_shader(tmp_path):
    cases = [
        (PRELUDE + PIPELINE.replace("  BIND BUFFER y AS storage DESCRIPTOR_SET 0 BINDING 2\n", "") + "RUN p 2 1 1\n",
         "RUN p 2 1 1", "set 0 binding 2 (storage buffer) is not bound"),
        (PRELUDE + PIPELINE + "RUN p 2 1 1\nEXPECT y IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0\n", "EXPECT y IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0",
         "an image probe reads an IMAGE or a FORMAT buffer; y is a DATA_TYPE buffer"),
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
        (PRELUDE + PIPELINE.replace("AS uniform", "AS sampled_image") + "RUN p 2 1 1\n", "RUN p 2 1 1",
         "buffer scale is bound AS sampled_image at set 0 binding 0, where the shader declares a uniform buffer"),
        (PRELUDE + PIPELINE.replace("AS uniform", "AS depth_stencil") + "RUN p 2 1 1\n",
         "  BIND BUFFER scale AS depth_stencil DESCRIPTOR_SET 0 BINDING 0", "not supported yet: BIND BUFFER ... AS "
         "depth_stencil"),
    ]
    for text, at, message in cases:
        fails_at(tmp_path, text, at, message)


def fails_at(tmp_path, text: str, at: str, message: str) -> None:
    """The script ``text`` fails with ``message``, located at its line ``at``."""
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
    if glslang.glslang_path() is None:
        pytest.skip("glslangValidator is not installed (pip install spirvkit[glsl])")
    script = tmp_path / "bad_glsl.amber"
    script.write_text("#!amber\nSHADER compute s GLSL\n#version 450\nvoid main() { x = 1; }\nEND\n")
    result = amber.run_file(str(script))
    assert not result.ok and result.message.startswith(f"{script}:2: the GLSL shader does not compile")
    assert f"{script}:4: 'x' : undeclared identifier" in result.message


# ----- images, samplers, arrays of descriptors, files ---------------------------------------------
IMAGE_SCRIPTS = {"images_asm.amber": 6, "sample_asm.amber": 15, "texel_buffers_asm.amber": 1,
                 "desc_array_asm.amber": 1, "image_array_asm.amber": 2, "files_asm.amber": 6, "fill_asm.amber": 6,
                 "mips_compare_asm.amber": 4}


def test_image_and_descriptor_array_scripts_pass():
    paths = [AMBER / name for name in IMAGE_SCRIPTS]
    done = spirvkit_amber(*paths)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [f"PASS {p}: {n} EXPECT(s) held" for p, n in zip(paths, IMAGE_SCRIPTS.values())] \
        + [f"total: {len(paths)} of {len(paths)} script(s) passed"]


@pytest.mark.parametrize("name, old, new, message", [
    # each script's expectations can fail: one expected value changed
    ("images_asm.amber", "EXPECT counts IDX 0 EQ 7 8 9 10 17", "EXPECT counts IDX 0 EQ 7 8 9 10 16",
     "counts element 4 (value 4 from byte 0) is 17; expected EQ 16"),
    ("sample_asm.amber", "EXPECT result IDX 160 TOLERANCE 0.00001 EQ 1 1 1 1",
     "EXPECT result IDX 160 TOLERANCE 0.00001 EQ 1 1 1 0", "result element 10 component 3 (value 3 from byte 160) is 1.0"),
    ("texel_buffers_asm.amber", "EQ 18 34 60", "EQ 18 34 61", "sums element 2 (value 2 from byte 0) is 60"),
    ("desc_array_asm.amber", "DESCRIPTOR_OFFSET 0 8 0", "DESCRIPTOR_OFFSET 0 4 0", "total element 0"),
    ("image_array_asm.amber", "DATA 1 END", "DATA 0 END", "o1 element 0 (value 0 from byte 0) is 0.0; expected EQ 1000"),
    ("files_asm.amber", "TOLERANCE 0.001", "TOLERANCE 0.0009",
     "the histogram EMD of colours against nudged is 0.000976562, above the tolerance 0.0009"),
    ("fill_asm.amber", "EXPECT img IDX 0 2 SIZE 1 2 EQ_RGBA 0 128 255 0", "EXPECT img IDX 0 2 SIZE 2 2 EQ_RGBA 0 128 255 0",
     "img texel (1, 2) is (85, 128, 255, 0) (0..255); expected (0, 128, 255, 0); 2 of 4 texel(s) differ"),
    ("fill_asm.amber", "TOLERANCE 0.6 0.004 0.004 0 EQ_RGBA 128 128", "TOLERANCE 0.6 0.003 0.004 0 EQ_RGBA 128 127",
     "img texel (0, 2) is (0, 128, 255, 0) (0..255); expected (128, 127, 255, 0)"),
    ("mips_compare_asm.amber", "COMPARE on COMPARE_OP less", "COMPARE on COMPARE_OP greater",
     "out element 3 component 0 (value 0 from byte 48) is 1.0; expected EQ 0.0"),
    ("mips_compare_asm.amber", "EXPECT out IDX 32 EQ 3 2 2 0", "EXPECT out IDX 32 EQ 1 2 2 0",
     "out element 2"),
    ("fill_asm.amber", "EXPECT img IDX 3 2 SIZE 1 2 EQ_RGB 255 128 255", "EXPECT img IDX 3 2 SIZE 1 2 EQ_RGB 255 128 250",
     "img texel (3, 2) is (255, 128, 255) (0..255); expected (255, 128, 250)"),
])
def test_image_script_expectations_can_fail(tmp_path, name, old, new, message):
    text = (AMBER / name).read_text()
    assert text.count(old) == 1
    script = tmp_path / name
    script.write_text(text.replace(old, new))
    if name == "files_asm.amber":
        (tmp_path / "files").symlink_to(AMBER / "files")
    result = amber.run_file(str(script))
    assert not result.ok and "EXPECT failed" in result.message and message in result.message, result.message


IMAGE_PRELUDE = "#!amber\nIMAGE img FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2 HEIGHT 2 FILL 0\nSAMPLER s\n"
BAD_IMAGES = [
    ("image_name", "#!amber\nIMAGE FORMAT R8G8B8A8_UNORM\n", ":2: missing IMAGE name"),
    ("image_command", "#!amber\nIMAGE i OTHER\n", ":2: unknown IMAGE command provided: OTHER"),
    ("image_width", "#!amber\nIMAGE i DATA_TYPE uint32 DIM_3D HEIGHT 2 DEPTH 2 FILL 0\n", ":2: expected IMAGE WIDTH"),
    ("image_depth", "#!amber\nIMAGE i DATA_TYPE uint32 DIM_3D WIDTH 2 HEIGHT 2 FILL 0\n", ":2: expected IMAGE DEPTH"),
    ("image_height_value", "#!amber\nIMAGE i DATA_TYPE uint32 DIM_2D WIDTH 2 HEIGHT x\n",
     ":2: expected positive IMAGE HEIGHT"),
    ("image_data_size", "#!amber\nIMAGE i DATA_TYPE float DIM_2D WIDTH 2 HEIGHT 2 DATA\n1 2 3\nEND\n",
     ":2: Elements provided in data does not match size specified: 4 specified vs 3 provided"),
    ("image_mips", "#!amber\nIMAGE i FORMAT R8G8B8A8_UNORM MIP_LEVELS 3 DIM_2D WIDTH 2 HEIGHT 2\n",
     ":2: IMAGE MIP_LEVELS 3: a 2x2 image has at most 2"),
    ("image_samples", "#!amber\nIMAGE i FORMAT R8G8B8A8_UNORM SAMPLES 4 DIM_2D WIDTH 2 HEIGHT 2\n",
     ":2: not supported yet: multisampled IMAGEs (SAMPLES) in Amber scripts"),
    ("image_format", "#!amber\nIMAGE i FORMAT D32_SFLOAT_S8_UINT DIM_2D WIDTH 2 HEIGHT 2\n",
     ":2: not supported yet: buffer format D32_SFLOAT_S8_UINT"),
    ("sampler_param", "#!amber\nSAMPLER s MAG_FILTER linear \\\n  FOO\n", ":2: unexpected sampler parameter FOO"),
    ("sampler_filter", "#!amber\nSAMPLER s MAG_FILTER foo\n", ":2: mag_filter is one of nearest, linear, not 'foo'"),
    ("sampler_unnormalized", "#!amber\nSAMPLER s UNNORMALIZED_COORDS\n",
     ":2: unnormalized coordinates take the clamp_to_edge and clamp_to_border address modes only"),
    ("sampler_compare", "#!amber\nSAMPLER s COMPARE on COMPARE_OP lesser\n",
     ":2: compare_op is one of never, less"),
    ("bind_sampler_unknown", IMAGE_PRELUDE + "PIPELINE compute p\n  BIND SAMPLER t DESCRIPTOR_SET 0 BINDING 0\nEND\n",
     ":5: BIND: unknown sampler 't'"),
    ("bind_combined_no_sampler", IMAGE_PRELUDE + "PIPELINE compute p\n  BIND BUFFER img AS combined_image_sampler "
     "DESCRIPTOR_SET 0 BINDING 0\nEND\n", ":5: BIND ... AS combined_image_sampler needs SAMPLER name"),
    ("bind_mip", IMAGE_PRELUDE + "PIPELINE compute p\n  BIND BUFFER img AS sampled_image DESCRIPTOR_SET 0 BINDING 0 "
     "BASE_MIP_LEVEL 1\nEND\n", ":5: not supported yet: BASE_MIP_LEVEL other than 0"),
    ("bind_array_offsets", IMAGE_PRELUDE + "BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\nPIPELINE compute p\n"
     "  BIND BUFFER_ARRAY b b AS storage DESCRIPTOR_SET 0 BINDING 0 DESCRIPTOR_OFFSET 0\nEND\n",
     ":6: DESCRIPTOR_OFFSET: 2 value(s) expected, one per buffer"),
    ("bind_image_offset", IMAGE_PRELUDE + "PIPELINE compute p\n  BIND BUFFER img AS storage_image DESCRIPTOR_SET 0 "
     "BINDING 0 DESCRIPTOR_OFFSET 4\nEND\n", ":5: DESCRIPTOR_OFFSET / DESCRIPTOR_RANGE / OFFSET bind buffers"),
    ("bind_dynamic", IMAGE_PRELUDE + "BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\nPIPELINE compute p\n"
     "  BIND BUFFER b AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0\nEND\n",
     ":6: BIND ... AS storage_dynamic needs OFFSET"),
    ("virtual_shader", "#!amber\nSHADER compute s SPIRV-ASM VIRTUAL_FILE nope.spvasm\n",
     ":2: SHADER s: no VIRTUAL_FILE 'nope.spvasm'"),
    ("virtual_end", "#!amber\nVIRTUAL_FILE a.txt\n1 2\n", ":2: VIRTUAL_FILE a.txt has no END"),
    ("file_missing", "#!amber\nBUFFER b DATA_TYPE uint32 SIZE 4 FILE TEXT missing.txt\n",
     ":2: FILE missing.txt: cannot read"),
    ("file_short", "#!amber\nVIRTUAL_FILE v.txt\n1 2\nEND\nBUFFER b DATA_TYPE uint32 SIZE 4 FILE TEXT v.txt\n",
     ":5: FILE v.txt has 2 values; the buffer needs 4"),
    ("file_png", "#!amber\nBUFFER b FORMAT R8G8B8A8_UNORM SIZE 4 FILE PNG a.png\n",
     ":2: not supported yet: FILE PNG"),
    ("emd_format", "#!amber\nBUFFER a DATA_TYPE uint32 SIZE 4 FILL 0\nEXPECT a EQ_HISTOGRAM_EMD_BUFFER a TOLERANCE 0\n",
     ":3: EQ_HISTOGRAM_EMD_BUFFER compares 8-bit four-channel formats; buffer a is uint32"),
    ("emd_tolerance", "#!amber\nBUFFER a DATA_TYPE uint32 SIZE 4 FILL 0\nEXPECT a EQ_HISTOGRAM_EMD_BUFFER a\n",
     ":3: EXPECT a EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE t"),
    ("probe_outside", IMAGE_PRELUDE + "EXPECT img IDX 1 1 SIZE 2 1 EQ_RGBA 0 0 0 0\n",
     ":4: the probe's rectangle (1, 1) + 2x1 leaves image img (2x2)"),
    ("probe_values", IMAGE_PRELUDE + "EXPECT img IDX 0 0 EQ_RGBA 0 0 0\n", ":4: EQ_RGBA takes 4 values (0 to 255), got 3"),
    ("probe_shape", IMAGE_PRELUDE + "EXPECT img IDX 0 0 1 EQ_RGB 0 0 0\n", ":4: EXPECT name IDX x y [SIZE w h]"),
    ("probe_3d", "#!amber\nIMAGE v FORMAT R8G8B8A8_UNORM DIM_3D WIDTH 2 HEIGHT 2 DEPTH 2\nEXPECT v IDX 0 0 EQ_RGB 0 0 0\n",
     ":3: not supported yet: image probes of the 3D image v"),
]


@pytest.mark.parametrize("name, text, message", BAD + BAD_IMAGES, ids=[b[0] for b in BAD + BAD_IMAGES])
def test_bad_scripts_give_located_errors(tmp_path, name, text, message):
    script = tmp_path / f"{name}.amber"
    script.write_text(text)
    result = amber.run_file(str(script))
    assert not result.ok
    assert result.message.startswith(str(script)) and message in result.message, result.message
    assert "Traceback" not in result.message and "internal error" not in result.message


def test_image_bindings_that_do_not_fit_the_shader(tmp_path):
    text = (AMBER / "sample_asm.amber").read_text()
    cases = [
        (text.replace("BIND BUFFER tex AS sampled_image", "BIND BUFFER tex AS storage_image"), "RUN p 5 1 1",
         "buffer tex is bound AS storage_image at set 0 binding 1, where the shader declares a sampled image"),
        (text.replace("IMAGE tex FORMAT R8G8B8A8_UNORM DIM_2D", "IMAGE tex FORMAT R8G8B8A8_UINT DIM_2D"), "RUN p 5 1 1",
         "the shader reads it as float texels; a 2d image of 2x2 R8G8B8A8_UINT has uint ones"),
        (text.replace("ADDRESS_MODE_V clamp_to_border", "ADDRESS_MODE_V repeat"), "RUN p 5 1 1",
         "not supported yet: a sampler with different address modes per axis (clamp_to_border, repeat)"),
        (text.replace("IMAGE tex FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2 HEIGHT 2",
                      "IMAGE tex FORMAT R8G8B8A8_UNORM DIM_3D WIDTH 2 HEIGHT 1 DEPTH 2"), "RUN p 5 1 1",
         "the shader declares a 2D image; tex is an IMAGE DIM_3D"),
    ]
    for body, at, message in cases:
        fails_at(tmp_path, body, at, message)
