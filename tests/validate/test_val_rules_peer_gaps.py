"""Rules added where spirv-val rejected mutants spirvkit accepted (docs/validator-differences.md,
"spirv-val was right"; and C3's loop header without a back edge), and the one relaxed rule: each case is an invalid module and its valid
twin. spirvkit must report the rule on the first and nothing on the second, and spirv-val must
give the same verdicts (so neither the rule nor its twin drifts from the reference)."""

from __future__ import annotations

from val_modules import rule_case_tests
from val_modules import kernel as K
from val_modules import shader as S

_GLSL = 'OpExtInstImport "GLSL.std.450"'


def _glsl(body: str, types: str = "") -> str:
    return S(caps=f"%glsl = {_GLSL}", types="%v2float = OpTypeVector %float 2\n%c2 = OpConstantNull %v2float\n"
             + types, body=body)


def _fragment(text: str) -> str:
    return text.replace('OpEntryPoint GLCompute %main "main"', 'OpEntryPoint Fragment %main "main"').replace(
        "OpExecutionMode %main LocalSize 1 1 1", "OpExecutionMode %main OriginUpperLeft")


_STORAGE_IMAGE = ("%img = OpTypeImage %float 2D 0 0 0 {sampled} {fmt}\n%pimg = OpTypePointer UniformConstant %img\n"
                  "%iv = OpVariable %pimg UniformConstant\n%v2int = OpTypeVector %int 2\n%ci = OpConstantNull %v2int")


def _fetch(sampled: int) -> str:
    fmt = "Unknown" if sampled == 1 else "Rgba32f"
    return S(types=_STORAGE_IMAGE.format(sampled=sampled, fmt=fmt),
             body="%i = OpLoad %img %iv\n%r = OpImageFetch %v4float %i %ci")


def _query_lod(coordinate: str) -> str:
    return _fragment(S(caps="OpCapability ImageQuery",
                       types="%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n%si = OpTypeSampledImage %img\n"
                             "%psi = OpTypePointer UniformConstant %si\n%iv = OpVariable %psi UniformConstant\n"
                             "%v2float = OpTypeVector %float 2\n%v2int = OpTypeVector %int 2\n"
                             "%cf = OpConstantNull %v2float\n%ci = OpConstantNull %v2int",
                       body=f"%s = OpLoad %si %iv\n%r = OpImageQueryLod %v2float %s {coordinate}"))


def _texel_pointer(sample: str) -> str:
    return S(types="%img = OpTypeImage %uint 2D 0 0 0 2 R32ui\n%pimg = OpTypePointer UniformConstant %img\n"
                   "%iv = OpVariable %pimg UniformConstant\n%v2int = OpTypeVector %int 2\n%ci = OpConstantNull %v2int\n"
                   "%pti = OpTypePointer Image %uint\n%int_0 = OpConstant %int 0\n%int_3 = OpConstant %int 3",
             body=f"%p = OpImageTexelPointer %pti %iv %ci {sample}\n"
                  "%x = OpAtomicIAdd %uint %p %uint_1 %uint_0 %uint_1")


_CL_DEBUG = """OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
%dbg = OpExtInstImport "OpenCL.DebugInfo.100"
OpMemoryModel Physical64 OpenCL
%file = OpString "k.cl"
%sname = OpString "float"
OpSource OpenCL_C 200000
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uint_32 = OpConstant %uint 32
%src = OpExtInst %void %dbg DebugSource %file
%cu = OpExtInst %void %dbg DebugCompilationUnit 65536 4 %src OpenCL_C
{debug}
"""
_CL_DEBUG_BASIC = "%flt = OpExtInst %void %dbg DebugTypeBasic %sname %uint_32 Float"

_NS_DEBUG = """OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "k.comp"
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%version = OpConstant %{version_type} 100
%src = OpExtInst %void %dbg DebugSource %file
%cu = OpExtInst %void %dbg DebugCompilationUnit %version %uint_4 %src %uint_2
%main = OpFunction %void None %fnty
%entry = OpLabel
OpReturn
OpFunctionEnd
"""

_FRAGMENT_INPUT = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in
OpExecutionMode %main OriginUpperLeft
{decorations}
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%{scalar_name} = {scalar}
%pin = OpTypePointer Input %{scalar_name}
%in = OpVariable %pin Input
%main = OpFunction %void None %fnty
%entry = OpLabel
OpReturn
OpFunctionEnd
"""


def _workgroup_size_override(override: bool) -> str:
    annotations = "OpDecorate %wgs BuiltIn WorkgroupSize" if override else ""
    types = ("%v3uint = OpTypeVector %uint 3\n%wgs = OpConstantComposite %v3uint %uint_1 %uint_1 %uint_1"
             if override else "")
    return S(annotations=annotations, types=types).replace("LocalSize 1 1 1", "LocalSize 1 0 1")


_LOOP = """OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %c
%c = OpLabel
{continue_branch}
%m = OpLabel"""


def _loop(back_edge: bool) -> str:
    branch = "OpBranchConditional %true %h %m" if back_edge else "OpBranch %m"
    return S(types="%true = OpConstantTrue %bool", body=_LOOP.format(continue_branch=branch))


_OCL = 'OpExtInstImport "OpenCL.std"'


def _geometric(call: str) -> str:
    return K(caps=f"%ocl = {_OCL}", types="%double = OpTypeFloat 64\n%v4 = OpConstantNull %v4float",
             body=call).replace("OpCapability Int64", "OpCapability Int64\nOpCapability Float64")


def _ocl(body: str) -> str:
    """A kernel calling OpenCL.std (grammar-fuzz mutants that broke lowering once: a shuffle2
    whose X and Y differed, a frexp whose exponent operand was an integer)."""
    return K(caps=f"%ocl = {_OCL}", types="%v4 = OpConstantNull %v4float\n%m4 = OpConstantNull %v4uint\n"
                                           "%v4ulong = OpTypeVector %ulong 4\n%l4 = OpConstantNull %v4ulong",
             body=body)


def _shuffle(call: str) -> str:
    return _ocl(f"%r = OpExtInst %v4float %ocl {call}")


# (id, env, invalid module, valid twin, rule of the invalid one)
CASES = [
    ("glsl-pack-result", "vulkan1.0", _glsl("%r = OpExtInst %float %glsl PackHalf2x16 %c2"),
     _glsl("%r = OpExtInst %uint %glsl PackHalf2x16 %c2"), "extinst.glsl-std-450"),
    ("glsl-pack-operand", "vulkan1.0", _glsl("%r = OpExtInst %uint %glsl PackSnorm4x8 %c2"),
     _glsl("%r = OpExtInst %uint %glsl PackSnorm4x8 %c4", "%c4 = OpConstantNull %v4float"), "extinst.glsl-std-450"),
    ("glsl-unpack-operand", "vulkan1.0", _glsl("%r = OpExtInst %v2float %glsl UnpackHalf2x16 %float_1"),
     _glsl("%r = OpExtInst %v2float %glsl UnpackHalf2x16 %uint_1"), "extinst.glsl-std-450"),
    ("glsl-interpolate-sample", "vulkan1.0",
     _fragment(S(caps=f"OpCapability InterpolationFunction\n%glsl = {_GLSL}", interface="%in",
                 annotations="OpDecorate %in Location 0",
                 types="%pin = OpTypePointer Input %float\n%in = OpVariable %pin Input",
                 body="%r = OpExtInst %float %glsl InterpolateAtSample %in %float_1")),
     _fragment(S(caps=f"OpCapability InterpolationFunction\n%glsl = {_GLSL}", interface="%in",
                 annotations="OpDecorate %in Location 0",
                 types="%pin = OpTypePointer Input %float\n%in = OpVariable %pin Input",
                 body="%r = OpExtInst %float %glsl InterpolateAtSample %in %int_1\n")).replace(
         "%float_1 = OpConstant %float 1", "%float_1 = OpConstant %float 1\n%int_1 = OpConstant %int 1"),
     "extinst.glsl-std-450"),
    ("image-fetch-sampled", "spv1.0", _fetch(2), _fetch(1), "image.operand-type"),
    ("image-query-lod-coordinate", "spv1.0", _query_lod("%ci"), _query_lod("%cf"), "image.operand-type"),
    ("texel-pointer-sample", "spv1.0", _texel_pointer("%int_3"), _texel_pointer("%int_0"),
     "memory.texel-pointer-sample"),
    ("opencl-std-normalize", "opencl2.2", _geometric("%r = OpExtInst %float %ocl normalize %v4"),
     _geometric("%r = OpExtInst %v4float %ocl normalize %v4"), "extinst.opencl-std"),
    ("opencl-std-length", "opencl2.2", _geometric("%r = OpExtInst %double %ocl length %v4"),
     _geometric("%r = OpExtInst %float %ocl length %v4"), "extinst.opencl-std"),
    ("opencl-std-shuffle2-operands", "opencl2.2", _shuffle("shuffle2 %v4 %m4 %m4"), _shuffle("shuffle2 %v4 %v4 %m4"),
     "extinst.opencl-std"),
    ("opencl-std-shuffle-mask", "opencl2.2", _shuffle("shuffle %v4 %uint_0"), _shuffle("shuffle %v4 %m4"),
     "extinst.opencl-std"),
    ("opencl-std-shuffle-mask-width", "opencl2.2", _shuffle("shuffle %v4 %l4"), _shuffle("shuffle %v4 %m4"),
     "extinst.opencl-std"),
    ("opencl-std-shuffle-x", "opencl2.2", _shuffle("shuffle %float_1 %m4"), _shuffle("shuffle %v4 %m4"),
     "extinst.opencl-std"),
    # (the grammar target with checks: a select whose B was a float, its Result Type a uint vector)
    ("opencl-std-select-b", "opencl2.2", _ocl("%r = OpExtInst %v4uint %ocl select %m4 %v4 %m4"),
     _ocl("%r = OpExtInst %v4uint %ocl select %m4 %m4 %m4"), "extinst.opencl-std"),
    ("opencl-std-select-c-width", "opencl2.2", _ocl("%r = OpExtInst %v4uint %ocl select %m4 %m4 %l4"),
     _ocl("%r = OpExtInst %v4uint %ocl select %m4 %m4 %m4"), "extinst.opencl-std"),
    ("opencl-std-select-c-lanes", "opencl2.2", _ocl("%r = OpExtInst %v4float %ocl select %v4 %v4 %uint_0"),
     _ocl("%r = OpExtInst %v4float %ocl select %v4 %v4 %m4"), "extinst.opencl-std"),
    ("opencl-std-frexp-pointer", "opencl2.2", _ocl("%r = OpExtInst %float %ocl frexp %float_1 %uint_0"),
     _ocl("%v = OpVariable %_ptr_Function_uint Function\n%r = OpExtInst %float %ocl frexp %float_1 %v"),
     "extinst.opencl-std"),
    ("function-type-result", "opencl2.2", K(types="%u = OpUndef %fnty"), K(types="%u = OpUndef %uint"),
     "ids.operand-kind"),
    ("debug-base-type", "spv1.0",
     _CL_DEBUG.format(debug="%ptr = OpExtInst %void %dbg DebugTypePointer %sname CrossWorkgroup None"),
     _CL_DEBUG.format(debug=_CL_DEBUG_BASIC + "\n%ptr = OpExtInst %void %dbg DebugTypePointer %flt CrossWorkgroup "
                                              "None"), "extinst.debug-info"),
    ("debug-array-count", "spv1.0",
     _CL_DEBUG.format(debug=_CL_DEBUG_BASIC + "\n%arr = OpExtInst %void %dbg DebugTypeArray %flt %flt"),
     _CL_DEBUG.format(debug=_CL_DEBUG_BASIC + "\n%arr = OpExtInst %void %dbg DebugTypeArray %flt %uint_32"),
     "extinst.debug-info"),
    ("debug-forward-reference", "spv1.0",
     _CL_DEBUG.format(debug="%expr = OpExtInst %void %dbg DebugExpression %deref\n"
                            "%deref = OpExtInst %void %dbg DebugOperation Deref"),
     _CL_DEBUG.format(debug="%deref = OpExtInst %void %dbg DebugOperation Deref\n"
                            "%expr = OpExtInst %void %dbg DebugExpression %deref"), "ids.defined-before-use"),
    ("non-semantic-debug-constant", "vulkan1.1", _NS_DEBUG.format(version_type="int"),
     _NS_DEBUG.format(version_type="uint"), "extinst.debug-info"),
    ("vulkan-interface-location", "vulkan1.0",
     _FRAGMENT_INPUT.format(decorations="", scalar_name="float", scalar="OpTypeFloat 32"),
     _FRAGMENT_INPUT.format(decorations="OpDecorate %in Location 0", scalar_name="float", scalar="OpTypeFloat 32"),
     "vulkan.interface-location"),
    ("vulkan-interface-flat", "vulkan1.0",
     _FRAGMENT_INPUT.format(decorations="OpDecorate %in Location 0", scalar_name="int", scalar="OpTypeInt 32 1"),
     _FRAGMENT_INPUT.format(decorations="OpDecorate %in Location 0\nOpDecorate %in Flat", scalar_name="int",
                            scalar="OpTypeInt 32 1"), "vulkan.interface-flat"),
    ("loop-without-back-edge", "vulkan1.0", _loop(False), _loop(True), "cfg.one-back-edge"),
    ("local-size-zero", "vulkan1.0", _workgroup_size_override(False), _workgroup_size_override(True),
     "function.execution-mode-operands"),
]


test_invalid_module_breaks_the_rule, test_valid_twin_passes, test_spirv_val_agrees = rule_case_tests(CASES)
