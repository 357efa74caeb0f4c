"""Images and samplers in the compiler (OpenCL C 2.0 §6.12.14, §6.13.14; issue 14, item 1).

Every image built-in of §6.13.14 compiles for every image type and access qualifier it is
declared for, and the module passes spirv-val (--target-env opencl2.2) and spirvkit's own
validator; a module's disassembly has the shape clang-15 + llvm-spirv-15 give the same source;
sampler constants become OpConstantSampler with the CLK_* flags' fields; the CLK_* constants
have their OpenCL values; the restrictions are rejected with clang-15's first error and its
line:col (``clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header
-fsyntax-only``, recorded when these tests were written; as in the other test_lang_* files, the
``__private`` clang writes before a type is left out). Running image kernels is the executor's
part (tests/jit, tests/runtime).
"""

from __future__ import annotations

import subprocess

import pytest
from lang_support import check_rejected
from peers import spirv_tool

import spirvkit
from spirvkit.clc.builtins import IMAGE_FAMILIES, candidates
from spirvkit.clc.images import sampler_fields
from spirvkit.validate.options import ValidatorOptions

# The device extensions the 3D writes and depth images need (OpenCL SPIR-V environment §7;
# clang-15 declares their built-ins for spir, and so does spirvkit cc).
IMAGE_EXTENSIONS = ValidatorOptions(extensions=frozenset({"cl_khr_3d_image_writes", "cl_khr_depth_images"}))

NAMES = sorted({name for names, *_ in IMAGE_FAMILIES for name in names.split()})


def _spelling(t) -> str:
    """A parameter or result type as OpenCL C writes it."""
    return f"{t.access} {t.name}" if t.is_image else str(t)


def _call_source(name: str) -> str:
    """One kernel per overload of ``name``: its image (and sampler) as parameters, the other
    arguments made from the kernel's index, the result stored."""
    kernels = []
    for i, ov in enumerate(candidates(name, 200)):
        params, args, body = [], [], []
        for j, p in enumerate(ov.params):
            if p.is_image or p.is_sampler:
                params.append(f"{_spelling(p)} a{j}")
                args.append(f"a{j}")
            else:
                body.append(f"  {p} v{j} = ({p})(n + {j});")
                args.append(f"v{j}")
        call = f"{name}({', '.join(args)})"
        if str(ov.result) != "void":
            params.append(f"global {ov.result} *o")
            body.append(f"  *o = {call};")
        else:
            body.append(f"  {call};")
        kernels.append(f"kernel void k{i}({', '.join(params + ['int n'])}) {{\n" + "\n".join(body) + "\n}")
    return "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" + "\n".join(kernels) + "\n"


def _validated(source: str, tmp_path, options: str = "-cl-std=CL2.0") -> bytes:
    binary = spirvkit.compile_cl(source, options)
    path = tmp_path / "k.spv"
    path.write_bytes(binary)
    result = subprocess.run([spirv_tool("spirv-val"), "--target-env", "opencl2.2", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert spirvkit.validate(binary, target_env="opencl2.2", options=IMAGE_EXTENSIONS) == []
    return binary


def _lines(binary: bytes) -> list[str]:
    return [line.split("=", 1)[-1].strip() for line in spirvkit.disassemble(binary).splitlines()]


def test_the_table_is_clang_15s_core_set():
    # clang-15's opencl-c.h for CL2.0 declares 262 of these without the mipmap (lod, gradient)
    # and msaa forms; per name as counted there.
    counts = {name: len(candidates(name, 200)) for name in NAMES}
    assert counts == {
        "get_image_array_size": 9, "get_image_channel_data_type": 24, "get_image_channel_order": 24,
        "get_image_depth": 3, "get_image_dim": 15, "get_image_height": 15, "get_image_width": 24,
        "read_imagef": 30, "read_imageh": 22, "read_imagei": 22, "read_imageui": 22, "write_imagef": 16,
        "write_imageh": 12, "write_imagei": 12, "write_imageui": 12}


@pytest.mark.parametrize("name", NAMES)
def test_every_overload_compiles_and_validates(name, tmp_path):
    binary = _validated(_call_source(name), tmp_path)
    lines = _lines(binary)
    expected = {"read_image": ("OpImageRead",), "write_image": ("OpImageWrite",),
                "get_image_channel_data_type": ("OpImageQueryFormat",),
                "get_image_channel_order": ("OpImageQueryOrder",)}
    for prefix, ops in expected.items():
        if name.startswith(prefix):
            assert any(line.startswith(ops[0]) for line in lines), ops
    if name.startswith("read_image"):
        assert any(line.startswith("OpImageSampleExplicitLod") and "Lod %float_0" in line for line in lines)
    if name.startswith("get_image_") and "channel" not in name:
        assert any(line.startswith("OpImageQuerySizeLod") for line in lines)


SHAPE_SOURCE = """const sampler_t gs = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
kernel void k(read_only image2d_t a, write_only image2d_t b, sampler_t s, global float4 *out,
              read_write image3d_t c, image1d_buffer_t d, image2d_array_depth_t e) {
  const sampler_t ls = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), 1);
  float4 v = read_imagef(a, s, (float2)(0.5f, 0.5f));
  v += read_imagef(a, ls, p);
  v += read_imagef(a, gs, p);
  v += read_imagef(a, p);
  int4 iv = read_imagei(a, s, p);
  write_imagef(b, p, v);
  write_imagei(b, p, iv);
  out[0] = (float4)(get_image_width(a), get_image_height(a), get_image_channel_data_type(a),
                    get_image_channel_order(a));
  int4 dim3 = get_image_dim(c);
  out[1] = (float4)(dim3.z, get_image_depth(c), get_image_array_size(e), get_image_width(d));
  out[2] = read_imagef(c, (int4)(1, 2, 3, 0));
  write_imagef(c, (int4)(1, 2, 3, 0), v);
  out[3] = read_imagef(d, 2) + read_imagef(e, s, (float4)(1.0f, 2.0f, 3.0f, 0.0f));
}
"""


def test_module_shape_matches_llvm_spirv(tmp_path):
    # The instructions below are those clang-15 + llvm-spirv-15 (--spirv-max-version=1.2) give
    # SHAPE_SOURCE, by their disassembly (ids aside).
    binary = _validated(SHAPE_SOURCE, tmp_path)
    lines = _lines(binary)
    for cap in ("ImageBasic", "ImageReadWrite", "LiteralSampler", "SampledBuffer"):
        assert f"OpCapability {cap}" in lines
    for inst in ("OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly", "OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly",
                 "OpTypeImage %void 3D 0 0 0 0 Unknown ReadWrite", "OpTypeImage %void Buffer 0 0 0 0 Unknown ReadOnly",
                 "OpTypeImage %void 2D 1 1 0 0 Unknown ReadOnly", "OpTypeSampler"):
        assert any(line.startswith(inst) for line in lines), inst
    samplers = sorted(line.split(" ", 2)[2] for line in lines if line.startswith("OpConstantSampler"))
    assert samplers == ["Clamp 0 Nearest", "Repeat 1 Linear"]
    # image and sampler parameters are used as they are (never stored in a variable)
    assert not any(line.startswith("OpTypePointer") and "Image" in line for line in lines)
    assert sum(line.startswith("OpSampledImage") for line in lines) == 5
    assert sum(line.startswith("OpImageSampleExplicitLod") and line.endswith("Lod %float_0") for line in lines) == 5
    assert any(line.startswith("OpImageSampleExplicitLod %v4uint") for line in lines)  # read_imagei
    assert sum(line.startswith("OpImageRead") for line in lines) == 3
    assert sum(line.startswith("OpImageWrite") for line in lines) == 3
    # queries: sizes at Lod 0 (the buffer image has none), the channel queries offset by CLK_SNORM_INT8 / CLK_R
    assert any(line.startswith("OpImageQuerySizeLod %v2uint") and line.endswith("%uint_0") for line in lines)
    assert any(line.startswith("OpImageQuerySizeLod %v3ulong") for line in lines)  # array_size is a size_t
    assert any(line.startswith("OpImageQuerySize %uint") for line in lines)
    assert any(line.startswith("OpIAdd %uint") and line.endswith("%uint_4304") for line in lines)
    assert any(line.startswith("OpIAdd %uint") and line.endswith("%uint_4272") for line in lines)
    assert any(line.startswith("OpVectorShuffle %v4uint") and line.endswith("0 1 2 3") for line in lines)
    # a depth image samples a float4 and keeps .x
    assert any(line.startswith("OpCompositeExtract %float") for line in lines)
    assert 'OpString "kernel_arg_type.k.image2d_t,image2d_t,sampler_t,float4*,image3d_t,image1d_buffer_t,' \
           'image2d_array_depth_t,"' in lines


def test_one_dimensional_images_declare_sampled1d(tmp_path):
    source = """kernel void k(read_only image1d_t a, write_only image1d_array_t b, sampler_t s) {
  write_imagef(b, (int2)(1, 2), read_imagef(a, s, 0.5f));
}"""
    lines = _lines(_validated(source, tmp_path))
    assert "OpCapability Sampled1D" in lines
    assert "OpCapability ImageReadWrite" not in lines and "OpCapability LiteralSampler" not in lines


@pytest.mark.parametrize("flags, fields", [
    ("CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST", "None 0 Nearest"),
    ("CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR", "ClampToEdge 0 Linear"),
    ("CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST", "Clamp 1 Nearest"),
    ("CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR", "Repeat 1 Linear"),
    ("CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST", "RepeatMirrored 1 Nearest"),
    ("CLK_ADDRESS_CLAMP", "Clamp 0 Nearest"),  # no filter bits: NEAREST (images.FILTER)
])
@pytest.mark.parametrize("where", ["program", "kernel", "argument"])
def test_constant_samplers(flags, fields, where, tmp_path):
    decl = f"const sampler_t s = {flags};"
    sampler = "s" if where != "argument" else f"({flags})"
    body = f"  *o = read_imagef(a, {sampler}, (float2)(0.5f));"
    source = (decl if where == "program" else "") + "\nkernel void k(read_only image2d_t a, global float4 *o) {\n" + \
        (f"  {decl}\n" if where == "kernel" else "") + body + "\n}\n"
    lines = _lines(_validated(source, tmp_path))
    assert [line.split(" ", 2)[2] for line in lines if line.startswith("OpConstantSampler")] == [fields]
    assert "OpCapability LiteralSampler" in lines


def test_sampler_forms(tmp_path):
    # __constant at program scope, a non-const kernel-scope one (clang accepts it), one in an
    # inner block, a sampler passed on to a function, an integer constant passed for one, and an
    # uninitialised one (OpUndef, as clang + llvm-spirv give).
    source = """constant sampler_t cs = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
float4 f(read_only image2d_t a, sampler_t s) { return read_imagef(a, s, (int2)(0)); }
kernel void k(read_only image2d_t a, sampler_t arg, global float4 *o) {
  sampler_t ns = CLK_FILTER_LINEAR;
  if (o) { const sampler_t bs = CLK_ADDRESS_REPEAT | CLK_NORMALIZED_COORDS_TRUE | CLK_FILTER_LINEAR;
           o[0] = read_imagef(a, bs, (float2)(0.5f)); }
  sampler_t undefined;
  o[1] = f(a, cs) + f(a, ns) + f(a, arg) + f(a, CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST);
  o[2] = read_imagef(a, undefined, (int2)(0));
}
"""
    lines = _lines(_validated(source, tmp_path))
    assert len([line for line in lines if line.startswith("OpConstantSampler")]) == 4
    assert any(line.startswith("OpUndef %") for line in lines)
    assert sum(line.startswith("OpFunctionCall") for line in lines) == 4


def test_read_write_images_and_fence(tmp_path):
    source = """kernel void k(read_write image2d_t a, read_write image2d_array_depth_t d, global float *o) {
  write_imagef(a, (int2)(0), read_imagef(a, (int2)(1)));
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  write_imagef(d, (int4)(0), read_imagef(d, (int4)(1)) + 1.0f);
  *o = get_image_array_size(d);
}"""
    lines = _lines(_validated(source, tmp_path))
    assert "OpCapability ImageReadWrite" in lines
    assert "OpMemoryBarrier %uint_4 %uint_2056" in lines  # work_item scope, AcquireRelease | ImageMemory
    assert any(line.startswith("OpImageRead %float") for line in lines)  # a depth image reads a float


def test_half_images(tmp_path):
    source = """#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(read_only image2d_t a, write_only image3d_t b, sampler_t s) {
  half4 h = read_imageh(a, s, (float2)(0.5f)) + read_imageh(a, (int2)(1));
  write_imageh(b, (int4)(0), h);
}"""
    lines = _lines(_validated(source, tmp_path))
    assert any(line.startswith("OpImageSampleExplicitLod %v4half") for line in lines)


def test_image_arguments_to_functions_and_sizeof(tmp_path):
    source = """int w(read_only image2d_t a) { return get_image_width(a); }
void put(write_only image2d_t b, int2 p, float4 v) { write_imagef(b, p, v); }
kernel void k(read_only image2d_t a, write_only image2d_t b, global long *o) {
  put(b, (int2)(w(a)), (float4)(1.0f));
  o[0] = sizeof(a) + sizeof(sampler_t) + sizeof(image3d_t);
}"""
    lines = _lines(_validated(source, tmp_path))
    assert any(line.startswith("OpFunctionCall") and line.count("%") == 3 for line in lines)
    assert "OpConstant %ulong 24" in lines or any("%ulong_24" in line for line in lines)


CLK_VALUES = {
    "CLK_ADDRESS_NONE": 0, "CLK_ADDRESS_CLAMP_TO_EDGE": 2, "CLK_ADDRESS_CLAMP": 4, "CLK_ADDRESS_REPEAT": 6,
    "CLK_ADDRESS_MIRRORED_REPEAT": 8, "CLK_NORMALIZED_COORDS_FALSE": 0, "CLK_NORMALIZED_COORDS_TRUE": 1,
    "CLK_FILTER_NEAREST": 0x10, "CLK_FILTER_LINEAR": 0x20,
    "CLK_SNORM_INT8": 0x10D0, "CLK_SNORM_INT16": 0x10D1, "CLK_UNORM_INT8": 0x10D2, "CLK_UNORM_INT16": 0x10D3,
    "CLK_UNORM_SHORT_565": 0x10D4, "CLK_UNORM_SHORT_555": 0x10D5, "CLK_UNORM_INT_101010": 0x10D6,
    "CLK_SIGNED_INT8": 0x10D7, "CLK_SIGNED_INT16": 0x10D8, "CLK_SIGNED_INT32": 0x10D9,
    "CLK_UNSIGNED_INT8": 0x10DA, "CLK_UNSIGNED_INT16": 0x10DB, "CLK_UNSIGNED_INT32": 0x10DC,
    "CLK_HALF_FLOAT": 0x10DD, "CLK_FLOAT": 0x10DE, "CLK_UNORM_INT24": 0x10DF,
    "CLK_R": 0x10B0, "CLK_A": 0x10B1, "CLK_RG": 0x10B2, "CLK_RA": 0x10B3, "CLK_RGB": 0x10B4, "CLK_RGBA": 0x10B5,
    "CLK_BGRA": 0x10B6, "CLK_ARGB": 0x10B7, "CLK_INTENSITY": 0x10B8, "CLK_LUMINANCE": 0x10B9, "CLK_Rx": 0x10BA,
    "CLK_RGx": 0x10BB, "CLK_RGBx": 0x10BC, "CLK_DEPTH": 0x10BD, "CLK_DEPTH_STENCIL": 0x10BE,
    "CLK_sRGB": 0x10BF, "CLK_sRGBx": 0x10C0, "CLK_sRGBA": 0x10C1, "CLK_sBGRA": 0x10C2, "CLK_ABGR": 0x10C3,
    "CLK_IMAGE_MEM_FENCE": 0x04,
}


def test_clk_constants_have_their_opencl_values():
    # The values of clang-15's opencl-c-base.h (= cl.h's CL_* values); checked at compile time.
    source = "\n".join(f"_Static_assert({name} == {value}, \"{name}\");" for name, value in CLK_VALUES.items())
    spirvkit.compile_cl(source + "\nkernel void k(global int *o) { }\n", "-cl-std=CL2.0")


def test_sampler_fields_of_every_flag_combination():
    for norm in (0, 1):
        for address, mode in enumerate(("None", "ClampToEdge", "Clamp", "Repeat", "RepeatMirrored")):
            for flt, fmode in ((0x10, "Nearest"), (0x20, "Linear")):
                assert sampler_fields(norm | address << 1 | flt) == (mode, bool(norm), fmode)
    for bad in (0x0A | 0x10, 0x0E | 0x10, 0x30):
        with pytest.raises(ValueError):
            sampler_fields(bad)


IMG = "kernel void k(read_only image2d_t a, write_only image2d_t b, read_write image2d_t c, sampler_t s, " \
      "global float4 *o, int x) {{\n{}\n}}\n"

# (name, source, clang-15's first error (less "__private "), line, col[, options]). Every
# expectation below was recorded from clang-15 -fsyntax-only on that source.
REJECTED = [
    ("local_image", IMG.format("  image2d_t l;"),
     "type '__read_only image2d_t' can only be used as a function parameter in OpenCL", 2, 13),
    ("local_image_access", IMG.format("  write_only image2d_t l;"),
     "'write_only' attribute only applies to parameters and typedefs", 2, 3),
    ("program_scope_image", "image2d_t g;\n",
     "type '__global __read_only image2d_t' can only be used as a function parameter in OpenCL", 1, 11),
    ("constant_image", "constant image2d_t g;\n",
     "type '__constant __read_only image2d_t' can only be used as a function parameter in OpenCL", 1, 20),
    ("program_scope_image_1_2", "image2d_t g;\n",
     "type '__read_only image2d_t' can only be used as a function parameter in OpenCL", 1, 11, "-cl-std=CL1.2"),
    ("image_field", "struct S { image2d_t img; };\n",
     "the '__read_only image2d_t' type cannot be used to declare a structure or union field", 1, 22),
    ("sampler_field", "struct S { sampler_t s; };\n",
     "the 'sampler_t' type cannot be used to declare a structure or union field", 1, 22),
    ("image_return", "image2d_t f(image2d_t a) { return a; }\n",
     "declaring function return value of type '__read_only image2d_t' is not allowed ", 1, 11),
    ("sampler_return", "sampler_t f(sampler_t s) { return s; }\n",
     "declaring function return value of type 'sampler_t' is not allowed ", 1, 11),
    ("image_array_parameter", "kernel void k(read_only image2d_t a[2]) { }\n",
     "array of '__read_only image2d_t' type is invalid in OpenCL", 1, 36),
    ("image_array_local", IMG.format("  image2d_t l[2];"),
     "array of '__read_only image2d_t' type is invalid in OpenCL", 2, 14),
    ("sampler_array", IMG.format("  const sampler_t l[2] = {0, 0};"),
     "array of 'const sampler_t' type is invalid in OpenCL", 2, 20),
    ("image_pointer_parameter", "kernel void k(read_only image2d_t *a) { }\n",
     "pointer to type '__read_only image2d_t' is invalid in OpenCL", 1, 36),
    ("sampler_pointer_parameter", "kernel void k(sampler_t *s) { }\n",
     "pointer to type 'sampler_t' is invalid in OpenCL", 1, 26),
    ("sampler_pointer_local", IMG.format("  sampler_t *p;"), "pointer to type 'sampler_t' is invalid in OpenCL", 2, 14),
    ("image_assignment", IMG.format("  a = a;"),
     "invalid operands to binary expression ('__read_only image2d_t' and '__read_only image2d_t')", 2, 5),
    ("image_to_int", IMG.format("  *o = a;"),
     "invalid operands to binary expression ('__global float4' and '__read_only image2d_t')", 2, 6),
    ("sampler_assignment", IMG.format("  sampler_t t = CLK_FILTER_NEAREST;\n  t = s;"),
     "invalid operands to binary expression ('sampler_t' and 'sampler_t')", 3, 5),
    ("sampler_assign_int", IMG.format("  sampler_t t = CLK_FILTER_NEAREST;\n  t = 0;"),
     "invalid operands to binary expression ('sampler_t' and 'int')", 3, 5),
    ("image_compare", IMG.format("  o[0].x = a == a;"),
     "invalid operands to binary expression ('__read_only image2d_t' and '__read_only image2d_t')", 2, 14),
    ("sampler_arithmetic", IMG.format("  o[0].x = s + 1;"),
     "invalid operands to binary expression ('sampler_t' and 'int')", 2, 14),
    ("image_negate", IMG.format("  o[0].x = -a;"),
     "invalid argument type '__read_only image2d_t' to unary expression", 2, 12),
    ("image_not", IMG.format("  o[0].x = !a;"),
     "invalid argument type '__read_only image2d_t' to unary expression", 2, 12),
    ("image_address", IMG.format("  o[0].x = (long)&a;"),
     "invalid argument type '__read_only image2d_t' to unary expression", 2, 18),
    ("image_cast", IMG.format("  o[0].x = (int)a;"),
     "operand of type '__read_only image2d_t' where arithmetic or pointer type is required", 2, 17),
    ("image_conditional", IMG.format("  o[0].x = get_image_width(x ? a : a);"),
     "incompatible operand types ('__read_only image2d_t' and '__read_only image2d_t')", 2, 30),
    ("sampler_conditional", IMG.format("  *o = read_imagef(a, x ? s : s, (int2)(0));"),
     "incompatible operand types ('sampler_t' and 'sampler_t')", 2, 25),
    ("write_read_only", IMG.format("  write_imagef(a, (int2)(0), (float4)(0.0f));"),
     "no matching function for call to 'write_imagef' (with 16 candidate functions)", 2, 3),
    ("read_write_only", IMG.format("  *o = read_imagef(b, (int2)(0));"),
     "no matching function for call to 'read_imagef' (with 30 candidate functions)", 2, 8),
    ("sampler_read_write_image", IMG.format("  *o = read_imagef(c, s, (int2)(0));"),
     "no matching function for call to 'read_imagef' (with 30 candidate functions)", 2, 8),
    ("sampler_read_buffer_image", "kernel void k(read_only image1d_buffer_t a, sampler_t s, global float4 *o) {\n"
     "  *o = read_imagef(a, s, 0);\n}\n",
     "no matching function for call to 'read_imagef' (with 30 candidate functions)", 2, 8),
    ("wrong_coordinates", "kernel void k(read_only image3d_t a, global float4 *o) {\n"
     "  *o = read_imagef(a, (int2)(0, 0));\n}\n",
     "no matching function for call to 'read_imagef' (with 30 candidate functions)", 2, 8),
    ("depth_read_imagei", "kernel void k(read_only image2d_depth_t a, global int4 *o) {\n"
     "  *o = read_imagei(a, (int2)(0, 0));\n}\n",
     "no matching function for call to 'read_imagei' (with 22 candidate functions)", 2, 8),
    ("depth_write_float4", "kernel void k(write_only image2d_depth_t a) {\n"
     "  write_imagef(a, (int2)(0), (float4)(0));\n}\n",
     "no matching function for call to 'write_imagef' (with 16 candidate functions)", 2, 3),
    ("default_access_is_read_only", "kernel void k(image2d_t a) {\n  write_imagef(a, (int2)(0), (float4)(0));\n}\n",
     "no matching function for call to 'write_imagef' (with 16 candidate functions)", 2, 3),
    ("helper_access_mismatch", "void f(write_only image2d_t a) { }\nkernel void k(read_only image2d_t a) {\n"
     "  f(a);\n}\n",
     "passing '__read_only image2d_t' to parameter of incompatible type '__write_only image2d_t'", 3, 5),
    ("access_on_int", "kernel void k(read_only int a) { }\n",
     "access qualifier can only be used for pipe and image type", 1, 15),
    ("access_on_pointer", "kernel void k(read_only global int *a) { }\n",
     "access qualifier can only be used for pipe and image type", 1, 15),
    ("multiple_access", "kernel void k(read_only write_only image2d_t a) { }\n", "multiple access qualifiers", 1, 25),
    ("read_write_in_1_2", "kernel void k(read_write image2d_t a) { }\n",
     "access qualifier 'read_write' can not be used for '__read_write image2d_t' prior to OpenCL C version 2.0 "
     "or in version 3.0 and without __opencl_c_read_write_images feature", 1, 15, "-cl-std=CL1.2"),
    ("image_address_space", "kernel void k(global image2d_t a) { }\n",
     "parameter may not be qualified with an address space", 1, 32),
    ("global_sampler_not_const", "sampler_t s = CLK_FILTER_NEAREST;\n",
     "global sampler requires a const or constant address space qualifier", 1, 11),
    ("global_space_sampler", "global sampler_t s = CLK_FILTER_NEAREST;\n",
     "sampler type cannot be used with the __local and __global address space qualifiers", 1, 18),
    ("local_space_sampler", IMG.format("  local sampler_t l;"),
     "sampler type cannot be used with the __local and __global address space qualifiers", 2, 19),
    ("constant_sampler_uninitialised", "constant sampler_t s;\n",
     "variable in constant address space must be initialized", 1, 20),
    ("sampler_from_float", "constant sampler_t s = 1.5f;\n",
     "initializing '__constant sampler_t' with an expression of incompatible type 'float'", 1, 20),
]


@pytest.mark.parametrize("case", REJECTED, ids=[c[0] for c in REJECTED])
def test_restrictions_rejected_as_clang_does(case):
    name, source, message, line, col, *options = case
    check_rejected(source, message, line, col, *options)


def test_sampler_from_a_run_time_value_is_an_error():
    # clang-15 accepts it in Sema and then fails in CodeGen ("internal error: could not emit
    # constant value"): a sampler needs the CLK_* flags at compile time.
    check_rejected(IMG.format("  sampler_t t = x;"), "sampler_t initializer is not a compile-time constant (a sampler "
                   "is made from CLK_* flags)", 2, 17)
    check_rejected(IMG.format("  *o = read_imagef(a, x, (int2)(0));"), "sampler_t initializer is not a "
                   "compile-time constant (a sampler is made from CLK_* flags)", 2, 23)


def test_meaningless_sampler_flags_are_an_error():
    # clang-15 accepts them for spir; llvm-spirv-15 then writes an invalid sampler.
    check_rejected("constant sampler_t s = CLK_ADDRESS_MIRRORED_REPEAT + 2 | CLK_FILTER_NEAREST;\n",
                   "sampler initializer 0x1A is not a valid combination of CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_* "
                   "and CLK_FILTER_* flags", 1, 24)


def test_msaa_images_are_not_supported_yet():
    check_rejected("kernel void k(read_only image2d_msaa_t a) { }\n",
                   "not supported yet: image type 'image2d_msaa_t' (cl_khr_gl_msaa_sharing)", 1, 15)
