"""The rules that closed the last "not yet" rows of docs/validation-coverage.md (U31, U32, C5, C7's
order, S3, the Image Operands masks, Vulkan §2 C3 and item 36's 16-bit placement, OpenCL items 39
and 41). Each case is an invalid module and its valid twin: spirvkit reports the rule first on the
invalid one and nothing on the twin.

Differential part: where spirv-val (SPIRV-Tools 2025.5) checks the rule, it must reject the invalid
module and accept the twin (PEER_AGREES). Where it does not check the rule it accepts the invalid
module too (PEER_SILENT); the spec text that decides for spirvkit is then a note in
tests/validate/spec_decided.py, which the test requires. The OpenCL subgroup rules need device
extensions spirv-val cannot be told about (ValidatorOptions.extensions; spirv-val's OpenCL tables
reject the GroupNonUniform capabilities outright), so they are compared with nothing (PEER_NONE),
and their deciding text is a note as well.
"""

from __future__ import annotations

import pytest
import spec_decided
from peers import run_tool
from val_modules import kernel as K
from val_modules import shader as S

import spirvkit
from spirvkit.validate import ValidatorOptions, validate

PEER_AGREES, PEER_SILENT, PEER_NONE = "agrees", "silent", "none"
_TRUE = "%true = OpConstantTrue %bool"

# -- U31, U32 ---------------------------------------------------------------------------------------

_IMAGE_ARRAY = ("%img = OpTypeImage %float 2D 0 0 0 2 Rgba32f\n%arr = OpTypeArray %img %uint_2\n"
                "%parr = OpTypePointer UniformConstant %arr\n%iv = OpVariable %parr UniformConstant\n"
                "%v2int = OpTypeVector %int 2\n%ci = OpConstantNull %v2int")
_IMAGE_ARRAY_DECORATIONS = "OpDecorate %iv DescriptorSet 0\nOpDecorate %iv Binding 0"


def _extracted(body: str) -> str:
    return S(annotations=_IMAGE_ARRAY_DECORATIONS, types=_IMAGE_ARRAY,
             body="%a = OpLoad %arr %iv\n%i = OpCompositeExtract %img %a 1\n" + body)


def _aliased_parameter(pointee: str) -> str:
    return K(annotations="OpDecorate %p Aliased",
             types=f"%pv = OpTypePointer CrossWorkgroup {pointee}\n%ft = OpTypeFunction %void %pv",
             functions="%f = OpFunction %void None %ft\n%p = OpFunctionParameter %pv\n%e2 = OpLabel\nOpReturn\n"
                       "OpFunctionEnd")


# -- C5, C7 -----------------------------------------------------------------------------------------

def _cf(body: str) -> str:
    return S(types=_TRUE, body=body)


_LOOP_SELECTION = ("OpBranch %h\n%h = OpLabel\nOpLoopMerge %m %c None\nOpBranch %a\n%a = OpLabel\n"
                   "OpSelectionMerge {merge} None\nOpBranchConditional %true %x {merge}\n%x = OpLabel\n"
                   "OpBranch {merge}\n{extra}%c = OpLabel\nOpBranchConditional %true %h %m\n%m = OpLabel")
_NESTED_SELECTION = ("OpSelectionMerge %m None\nOpBranchConditional %true %h2 {outer}\n%h2 = OpLabel\n"
                     "OpSelectionMerge %m2 None\nOpBranchConditional %true %x {inner}\n%x = OpLabel\nOpBranch {inner}\n"
                     "{blocks}")
_SWITCH = "OpSelectionMerge %m None\nOpSwitch %uint_1 {default} {cases}\n{blocks}%m = OpLabel"
_FALL_THROUGH = "%a = OpLabel\nOpBranch %cc\n%b = OpLabel\nOpBranch %m\n%cc = OpLabel\nOpBranch %m\n"
_VIA_DEFAULT = ("%a = OpLabel\nOpBranch %d\n%d = OpLabel\nOpBranch %cc\n%b = OpLabel\nOpBranch %m\n%cc = OpLabel\n"
                "OpBranch %m\n")
_CASE_FROM_OUTSIDE = ("OpSelectionMerge %m1 None\nOpBranchConditional %true %s {other}\n%s = OpLabel\n"
                      "OpSelectionMerge %m None\nOpSwitch %uint_1 %m 1 %t\n%t = OpLabel\nOpBranch {out}\n%m = OpLabel\n"
                      "OpBranch %m1\n%m1 = OpLabel")

# -- S3 ---------------------------------------------------------------------------------------------

_STAGE = """OpCapability Shader
{caps}
OpMemoryModel Logical GLSL450
OpEntryPoint {model} %main "main"
{modes}
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%main = OpFunction %void None %fnty
%entry = OpLabel
OpReturn
OpFunctionEnd
"""


def _stage(model: str, *modes: str) -> str:
    caps = {"Geometry": "OpCapability Geometry", "TessellationControl": "OpCapability Tessellation",
            "TessellationEvaluation": "OpCapability Tessellation"}.get(model, "")
    return _STAGE.format(caps=caps, model=model, modes="\n".join(f"OpExecutionMode %main {m}" for m in modes))


_GEOMETRY = ("OutputVertices 1", "Invocations 1")

# -- Image Operands -----------------------------------------------------------------------------------

_IMAGES = """OpCapability Shader
OpCapability MinLod
OpCapability ImageGatherExtended
OpCapability StorageImageMultisample
OpCapability SampledBuffer
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpDecorate %msimg DescriptorSet 0
OpDecorate %msimg Binding 1
OpDecorate %cube DescriptorSet 0
OpDecorate %cube Binding 2
OpDecorate %buft DescriptorSet 0
OpDecorate %buft Binding 3
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2int = OpTypeVector %int 2
%v3int = OpTypeVector %int 3
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%uint_4 = OpConstant %uint 4
%c2f = OpConstantComposite %v2float %float_0 %float_1
%c3f = OpConstantComposite %v3float %float_0 %float_1 %float_0
%c2i = OpConstantComposite %v2int %int_0 %int_1
%c3i = OpConstantComposite %v3int %int_0 %int_1 %int_0
%arr4 = OpTypeArray %v2int %uint_4
%offs = OpConstantComposite %arr4 %c2i %c2i %c2i %c2i
%img2d = OpTypeImage %float 2D 0 0 0 1 Unknown
%si2d = OpTypeSampledImage %img2d
%psi2d = OpTypePointer UniformConstant %si2d
%tex = OpVariable %psi2d UniformConstant
%imgcube = OpTypeImage %float Cube 0 0 0 1 Unknown
%sicube = OpTypeSampledImage %imgcube
%psicube = OpTypePointer UniformConstant %sicube
%cube = OpVariable %psicube UniformConstant
%msi = OpTypeImage %float 2D 0 0 1 1 Unknown
%pms = OpTypePointer UniformConstant %msi
%msimg = OpVariable %pms UniformConstant
%bufi = OpTypeImage %float Buffer 0 0 0 1 Unknown
%sbufi = OpTypeSampledImage %bufi
%pbuf = OpTypePointer UniformConstant %sbufi
%buft = OpVariable %pbuf UniformConstant
%pvar = OpTypePointer Function %int
%main = OpFunction %void None %fnty
%entry = OpLabel
%var = OpVariable %pvar Function
%dyn = OpLoad %int %var
%dyn2 = OpCompositeConstruct %v2int %dyn %dyn
%s = OpLoad %si2d %tex
%sc = OpLoad %sicube %cube
%ms = OpLoad %msi %msimg
%sb = OpLoad %sbufi %buft
%i2d = OpImage %img2d %s
%r = {body}
OpReturn
OpFunctionEnd
"""


def _img(body: str) -> str:
    return _IMAGES.format(body=body)


_EXPLICIT = "OpImageSampleExplicitLod %v4float %s %c2f Lod %float_0"
_IMPLICIT = "OpImageSampleImplicitLod %v4float %s %c2f"
_GATHER = "OpImageGather %v4float %s %c2f %int_0"
_FETCH = "OpImageFetch %v4float %i2d %c2i"
_MS_FETCH = "OpImageFetch %v4float %ms %c2i Sample %int_0"

_TEXEL_MEMORY = """OpCapability Shader
OpCapability VulkanMemoryModel
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %simg
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %simg DescriptorSet 0
OpDecorate %simg Binding 0
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%v4float = OpTypeVector %float 4
%v2int = OpTypeVector %int 2
%workgroup = OpConstant %int 2
%c2i = OpConstantNull %v2int
%stimg = OpTypeImage %float 2D 0 0 0 2 Rgba32f
%pst = OpTypePointer UniformConstant %stimg
%simg = OpVariable %pst UniformConstant
%main = OpFunction %void None %fnty
%entry = OpLabel
%st = OpLoad %stimg %simg
%r = OpImageRead %v4float %st %c2i {operands} %workgroup
OpReturn
OpFunctionEnd
"""

# -- Vulkan 36 ----------------------------------------------------------------------------------------

_ROUNDING = """OpCapability Shader
OpCapability StorageBuffer16BitAccess
OpCapability Float16
OpExtension "SPV_KHR_16bit_storage"
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %h FPRoundingMode RTE
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%float_1 = OpConstant %float 1
%Buf = OpTypeStruct %half
%pbuf = OpTypePointer StorageBuffer %Buf
%psbh = OpTypePointer StorageBuffer %half
%pfh = OpTypePointer Function %half
%buf = OpVariable %pbuf StorageBuffer
%main = OpFunction %void None %fnty
%entry = OpLabel
%fv = OpVariable %pfh Function
%x = OpFAdd %float %float_1 %float_1
%sb = OpAccessChain %psbh %buf %uint_0
{body}
OpReturn
OpFunctionEnd
"""
_ROUNDED_STORE = "%h = OpFConvert %half %x\nOpStore %sb %h"

# -- OpenCL 39, 41 --------------------------------------------------------------------------------------

_SUBGROUP_EXTENSIONS = frozenset({
    "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_extended_types"})
_CL_TYPES = ("%uint_3 = OpConstant %uint 3\n%v3uint = OpTypeVector %uint 3\n%cv = OpConstantNull %v3uint\n"
             "%uchar = OpTypeInt 8 0\n%uc = OpConstant %uchar 1\n" + _TRUE)


def _cl(body: str, caps: str) -> str:
    return K(caps="OpCapability Int8\n" + caps, types=_CL_TYPES, body=body)


_ARITHMETIC = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic"
_SHUFFLE = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformShuffle"
_BALLOT = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformBallot"
_OPENCL3 = ValidatorOptions(extensions=_SUBGROUP_EXTENSIONS)
_OPENCL3_BASE = ValidatorOptions()

# (id, env, invalid, valid twin, rule, peer, options)
CASES = [
    # U31
    ("u31-extracted-image-other-block", "vulkan1.0",
     _extracted("OpBranch %n\n%n = OpLabel\n%r = OpImageRead %v4float %i %ci"),
     _extracted("%r = OpImageRead %v4float %i %ci"), "memory.extracted-image", PEER_SILENT, None),
    ("u31-extracted-image-not-image-instruction", "vulkan1.0",
     _extracted("%k = OpCopyObject %img %i\n%r = OpImageRead %v4float %k %ci"),
     _extracted("%r = OpImageRead %v4float %i %ci"), "memory.extracted-image", PEER_SILENT, None),
    # U32
    ("u32-aliased-member", "vulkan1.0",
     S(annotations="OpMemberDecorate %st 0 Aliased", types="%st = OpTypeStruct %uint"),
     S(types="%st = OpTypeStruct %uint"), "decorations.aliased", PEER_AGREES, None),
    ("u32-aliased-void-pointer", "spv1.0", _aliased_parameter("%void"), _aliased_parameter("%uint"),
     "decorations.aliased", PEER_SILENT, None),
    # C5
    ("c5-selection-merges-at-continue", "vulkan1.0",
     _cf(_LOOP_SELECTION.format(merge="%c", extra="")),
     _cf(_LOOP_SELECTION.format(merge="%y", extra="%y = OpLabel\nOpBranch %c\n")), "cfg.structured-nesting",
     PEER_AGREES, None),
    ("c5-inner-merge-after-outer-merge", "vulkan1.0",
     _cf(_NESTED_SELECTION.format(outer="%h2", inner="%m", blocks="%m = OpLabel\nOpBranch %m2\n%m2 = OpLabel")),
     _cf(_NESTED_SELECTION.format(outer="%m", inner="%m2", blocks="%m2 = OpLabel\nOpBranch %m\n%m = OpLabel")),
     "cfg.structured-nesting", PEER_AGREES, None),
    # C7
    ("c7-fall-through-order", "vulkan1.0",
     _cf(_SWITCH.format(default="%m", cases="1 %a 2 %b 3 %cc", blocks=_FALL_THROUGH)),
     _cf(_SWITCH.format(default="%m", cases="1 %a 2 %cc 3 %b", blocks=_FALL_THROUGH)), "cfg.structured-switch",
     PEER_AGREES, None),
    ("c7-fall-through-order-via-default", "vulkan1.0",
     _cf(_SWITCH.format(default="%d", cases="1 %a 2 %b 3 %cc", blocks=_VIA_DEFAULT)),
     _cf(_SWITCH.format(default="%d", cases="1 %b 2 %a 3 %cc", blocks=_VIA_DEFAULT)), "cfg.structured-switch",
     PEER_AGREES, None),
    ("c7-switch-dominates-cases", "vulkan1.0", _cf(_CASE_FROM_OUTSIDE.format(other="%t", out="%m1")),
     _cf(_CASE_FROM_OUTSIDE.format(other="%m1", out="%m")), "cfg.structured-switch", PEER_AGREES, None),
    # S3
    ("s3-fragment-origin-missing", "spv1.0", _stage("Fragment"), _stage("Fragment", "OriginLowerLeft"),
     "function.execution-mode-exclusive", PEER_AGREES, None),
    ("s3-fragment-two-origins", "spv1.0", _stage("Fragment", "OriginUpperLeft", "OriginLowerLeft"),
     _stage("Fragment", "OriginUpperLeft"), "function.execution-mode-exclusive", PEER_AGREES, None),
    ("s3-fragment-depth-modes", "vulkan1.0", _stage("Fragment", "OriginUpperLeft", "DepthGreater", "DepthLess"),
     _stage("Fragment", "OriginUpperLeft", "DepthGreater"), "function.execution-mode-exclusive", PEER_AGREES, None),
    ("s3-tessellation-spacing", "vulkan1.0",
     _stage("TessellationEvaluation", "SpacingEqual", "SpacingFractionalOdd", "Triangles"),
     _stage("TessellationEvaluation", "SpacingEqual", "Triangles"), "function.execution-mode-exclusive",
     PEER_AGREES, None),
    ("s3-tessellation-primitive", "vulkan1.0", _stage("TessellationEvaluation", "Quads", "Triangles"),
     _stage("TessellationEvaluation", "Quads"), "function.execution-mode-exclusive", PEER_AGREES, None),
    ("s3-tessellation-vertex-order", "vulkan1.0",
     _stage("TessellationControl", "VertexOrderCw", "VertexOrderCcw", "OutputVertices 3"),
     _stage("TessellationControl", "VertexOrderCw", "OutputVertices 3"), "function.execution-mode-exclusive",
     PEER_AGREES, None),
    ("s3-geometry-input-missing", "vulkan1.0", _stage("Geometry", "OutputPoints", *_GEOMETRY),
     _stage("Geometry", "InputPoints", "OutputPoints", *_GEOMETRY), "function.execution-mode-exclusive",
     PEER_AGREES, None),
    ("s3-geometry-two-outputs", "spv1.0",
     _stage("Geometry", "InputPoints", "OutputPoints", "OutputLineStrip", *_GEOMETRY),
     _stage("Geometry", "InputPoints", "OutputLineStrip", *_GEOMETRY), "function.execution-mode-exclusive",
     PEER_AGREES, None),
    # Image Operands (SPIR-V 3.14)
    ("image-operands-none", "vulkan1.0", _img(_IMPLICIT + " None"), _img(_IMPLICIT), "image.operands",
     PEER_SILENT, None),
    ("image-operands-explicit-lod-missing", "vulkan1.0",
     _img("OpImageSampleExplicitLod %v4float %s %c2f ConstOffset %c2i"),
     _img("OpImageSampleExplicitLod %v4float %s %c2f Lod|ConstOffset %float_0 %c2i"), "image.operands",
     PEER_SILENT, None),
    ("image-operands-bias-explicit", "vulkan1.0",
     _img("OpImageSampleExplicitLod %v4float %s %c2f Bias|Lod %float_1 %float_0"),
     _img(_IMPLICIT + " Bias %float_1"), "image.operands", PEER_AGREES, None),
    ("image-operands-bias-type", "vulkan1.0", _img(_IMPLICIT + " Bias %int_1"), _img(_IMPLICIT + " Bias %float_1"),
     "image.operands", PEER_AGREES, None),
    ("image-operands-bias-buffer", "vulkan1.0",
     _img("OpImageSampleImplicitLod %v4float %sb %float_0 Bias %float_1"), _img(_IMPLICIT + " Bias %float_1"),
     "image.operands", PEER_AGREES, None),
    ("image-operands-lod-implicit", "vulkan1.0", _img(_IMPLICIT + " Lod %float_0"), _img(_EXPLICIT),
     "image.operands", PEER_AGREES, None),
    ("image-operands-lod-sample-type", "vulkan1.0",
     _img("OpImageSampleExplicitLod %v4float %s %c2f Lod %int_0"), _img(_EXPLICIT), "image.operands",
     PEER_AGREES, None),
    ("image-operands-lod-fetch-type", "vulkan1.0", _img(_FETCH + " Lod %float_0"), _img(_FETCH + " Lod %int_0"),
     "image.operands", PEER_AGREES, None),
    ("image-operands-lod-multisampled", "spv1.0",
     _img("OpImageFetch %v4float %ms %c2i Lod %int_0"), _img(_MS_FETCH), "image.operands", PEER_AGREES, None),
    ("image-operands-lod-and-grad", "vulkan1.0",
     _img("OpImageSampleExplicitLod %v4float %s %c2f Lod|Grad %float_0 %c2f %c2f"),
     _img("OpImageSampleExplicitLod %v4float %s %c2f Grad %c2f %c2f"), "image.operands", PEER_AGREES, None),
    ("image-operands-grad-size", "vulkan1.0",
     _img("OpImageSampleExplicitLod %v4float %s %c2f Grad %c3f %c3f"),
     _img("OpImageSampleProjExplicitLod %v4float %s %c3f Grad %c2f %c2f"), "image.operands", PEER_AGREES, None),
    ("image-operands-grad-type", "vulkan1.0",
     _img("OpImageSampleExplicitLod %v4float %s %c2f Grad %c2i %c2i"),
     _img("OpImageSampleExplicitLod %v4float %s %c2f Grad %c2f %c2f"), "image.operands", PEER_AGREES, None),
    ("image-operands-grad-implicit", "vulkan1.0", _img(_IMPLICIT + " Grad %c2f %c2f"),
     _img("OpImageSampleExplicitLod %v4float %s %c2f Grad %c2f %c2f"), "image.operands", PEER_AGREES, None),
    ("image-operands-const-offset-not-constant", "vulkan1.0", _img(_IMPLICIT + " ConstOffset %dyn2"),
     _img(_IMPLICIT + " ConstOffset %c2i"), "image.operands", PEER_AGREES, None),
    ("image-operands-const-offset-size", "vulkan1.0", _img(_IMPLICIT + " ConstOffset %c3i"),
     _img(_IMPLICIT + " ConstOffset %c2i"), "image.operands", PEER_AGREES, None),
    ("image-operands-const-offset-cube", "vulkan1.0",
     _img("OpImageSampleImplicitLod %v4float %sc %c3f ConstOffset %c3i"),
     _img("OpImageSampleImplicitLod %v4float %sc %c3f"), "image.operands", PEER_AGREES, None),
    ("image-operands-offset-type", "vulkan1.0", _img(_GATHER + " Offset %c2f"), _img(_GATHER + " Offset %dyn2"),
     "image.operands", PEER_AGREES, None),
    ("image-operands-const-offsets-not-gather", "vulkan1.0", _img(_IMPLICIT + " ConstOffsets %offs"),
     _img(_GATHER + " ConstOffsets %offs"), "image.operands", PEER_AGREES, None),
    ("image-operands-const-offsets-type", "vulkan1.0", _img(_GATHER + " ConstOffsets %c2i"),
     _img(_GATHER + " ConstOffsets %offs"), "image.operands", PEER_AGREES, None),
    ("image-operands-sample-ms0", "vulkan1.0", _img(_FETCH + " Sample %int_0"), _img(_MS_FETCH), "image.operands",
     PEER_AGREES, None),
    ("image-operands-sample-not-fetch", "vulkan1.0", _img(_IMPLICIT + " Sample %int_0"), _img(_MS_FETCH),
     "image.operands", PEER_AGREES, None),
    ("image-operands-sample-type", "vulkan1.0", _img("OpImageFetch %v4float %ms %c2i Sample %float_0"),
     _img(_MS_FETCH), "image.operands", PEER_AGREES, None),
    ("image-operands-min-lod-with-lod", "vulkan1.0",
     _img("OpImageSampleExplicitLod %v4float %s %c2f Lod|MinLod %float_0 %float_0"),
     _img("OpImageSampleExplicitLod %v4float %s %c2f Grad|MinLod %c2f %c2f %float_0"), "image.operands",
     PEER_AGREES, None),
    ("image-operands-min-lod-type", "vulkan1.0", _img(_IMPLICIT + " MinLod %int_0"),
     _img(_IMPLICIT + " MinLod %float_0"), "image.operands", PEER_AGREES, None),
    ("image-operands-make-texel-available-read", "vulkan1.2",
     _TEXEL_MEMORY.format(operands="MakeTexelAvailable|NonPrivateTexel"),
     _TEXEL_MEMORY.format(operands="MakeTexelVisible|NonPrivateTexel"), "image.operands", PEER_AGREES, None),
    ("image-operands-make-texel-visible-private", "vulkan1.2", _TEXEL_MEMORY.format(operands="MakeTexelVisible"),
     _TEXEL_MEMORY.format(operands="MakeTexelVisible|NonPrivateTexel"), "image.operands", PEER_AGREES, None),
    # Vulkan §2 C3
    ("vk-c3-extension-not-listed", "vulkan1.0", S(caps='OpExtension "SPV_INTEL_subgroups"'),
     S(caps='OpExtension "SPV_KHR_storage_buffer_storage_class"'), "vulkan.extension", PEER_SILENT, None),
    ("vk-c3-extension-opencl-name", "vulkan1.1", S(caps='OpExtension "cl_khr_fp16"'),
     S(caps='OpExtension "SPV_KHR_16bit_storage"'), "vulkan.extension", PEER_SILENT, None),
    # Vulkan 36: FPRoundingMode as SPV_KHR_16bit_storage places it (and in every Shader module)
    ("vk36-rounding-not-fconvert", "vulkan1.1", _ROUNDING.format(body="%h = OpFAdd %float %x %x"),
     _ROUNDING.format(body=_ROUNDED_STORE), "vulkan.fp-rounding-mode", PEER_AGREES, None),
    ("vk36-rounding-store-storage-class", "vulkan1.1",
     _ROUNDING.format(body="%h = OpFConvert %half %x\nOpStore %fv %h"),
     _ROUNDING.format(body=_ROUNDED_STORE), "vulkan.fp-rounding-mode", PEER_AGREES, None),
    ("vk36-rounding-other-use", "vulkan1.1",
     _ROUNDING.format(body=_ROUNDED_STORE + "\n%y = OpFAdd %half %h %h"),
     _ROUNDING.format(body=_ROUNDED_STORE), "vulkan.fp-rounding-mode", PEER_AGREES, None),
    ("shader-rounding-other-use", "spv1.3",
     _ROUNDING.format(body=_ROUNDED_STORE + "\n%y = OpFAdd %half %h %h"),
     _ROUNDING.format(body=_ROUNDED_STORE), "decorations.fp-rounding-mode", PEER_AGREES, None),
    # OpenCL 39
    ("ocl39-cluster-size-without-capability", "opencl3.0",
     _cl("%r = OpGroupNonUniformIAdd %uint %uint_3 Reduce %uint_1 %uint_2", _ARITHMETIC),
     _cl("%r = OpGroupNonUniformIAdd %uint %uint_3 Reduce %uint_1", _ARITHMETIC), "opencl.group-cluster-size",
     PEER_NONE, _OPENCL3),
    ("ocl39-arithmetic-vector", "opencl3.0",
     _cl("%r = OpGroupNonUniformIAdd %v3uint %uint_3 Reduce %cv", _ARITHMETIC),
     _cl("%r = OpGroupNonUniformIAdd %uint %uint_3 Reduce %uint_1", _ARITHMETIC), "opencl.group-type", PEER_NONE,
     _OPENCL3),
    ("ocl39-logical-not-bool", "opencl3.0",
     _cl("%r = OpGroupNonUniformLogicalAnd %uint %uint_3 Reduce %uint_1", _ARITHMETIC),
     _cl("%r = OpGroupNonUniformLogicalAnd %bool %uint_3 Reduce %true", _ARITHMETIC), "opencl.group-type",
     PEER_NONE, _OPENCL3),
    # OpenCL 41
    ("ocl41-shuffle-vector", "opencl3.0", _cl("%r = OpGroupNonUniformShuffle %v3uint %uint_3 %cv %uint_0", _SHUFFLE),
     _cl("%r = OpGroupNonUniformShuffle %uint %uint_3 %uint_1 %uint_0", _SHUFFLE), "opencl.group-type", PEER_NONE,
     _OPENCL3),
    ("ocl41-broadcast-first-vector", "opencl3.0",
     _cl("%r = OpGroupNonUniformBroadcastFirst %v3uint %uint_3 %cv", _BALLOT),
     _cl("%r = OpGroupNonUniformBroadcast %v3uint %uint_3 %cv %uint_0", _BALLOT), "opencl.group-type", PEER_NONE,
     _OPENCL3),
    ("ocl41-group-broadcast-vector-base", "opencl3.0",
     _cl("%r = OpGroupBroadcast %v3uint %uint_3 %cv %uint_0", "OpCapability Groups"),
     _cl("%r = OpGroupBroadcast %uint %uint_3 %uint_1 %uint_0", "OpCapability Groups"), "opencl.group-type",
     PEER_NONE, _OPENCL3_BASE),
    ("ocl41-group-broadcast-vector-workgroup", "opencl3.0",
     _cl("%r = OpGroupBroadcast %v3uint %uint_2 %cv %uint_0", "OpCapability Groups"),
     _cl("%r = OpGroupBroadcast %v3uint %uint_3 %cv %uint_0", "OpCapability Groups"), "opencl.group-type",
     PEER_NONE, _OPENCL3),
    ("ocl41-group-iadd-char-base", "opencl3.0",
     _cl("%r = OpGroupIAdd %uchar %uint_3 Reduce %uc", "OpCapability Groups"),
     _cl("%r = OpGroupIAdd %uchar %uint_3 Reduce %uc", "OpCapability Groups"), "opencl.group-type", PEER_NONE,
     (_OPENCL3_BASE, _OPENCL3)),
]


def _options(case, valid: bool):
    options = case[6]
    if isinstance(options, tuple):
        return options[1] if valid else options[0]
    return options


def _assemble(text: str, env: str) -> bytes:
    return spirvkit.assemble(text, env)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_invalid_module_breaks_the_rule(case):
    case_id, env, invalid, _valid, rule, _peer, _opts = case
    diagnostics = validate(_assemble(invalid, env), env, options=_options(case, False), max_errors=None)
    assert diagnostics and diagnostics[0].rule == rule, f"{case_id}: {diagnostics[:2]}"
    assert diagnostics[0].section and diagnostics[0].instruction


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_valid_twin_passes(case):
    case_id, env, _invalid, valid, _rule, _peer, _opts = case
    assert validate(_assemble(valid, env), env, options=_options(case, True), max_errors=None) == [], case_id


@pytest.mark.parametrize("case", [c for c in CASES if c[5] != PEER_NONE],
                         ids=[c[0] for c in CASES if c[5] != PEER_NONE])
def test_spirv_val_verdicts(case):
    """PEER_AGREES: spirv-val rejects the invalid module and accepts the twin. PEER_SILENT: it
    accepts both (it does not check the rule)."""
    case_id, env, invalid, valid, _rule, peer, _opts = case
    for text, expect_valid in ((invalid, peer == PEER_SILENT), (valid, True)):
        result = run_tool("spirv-val", ["--target-env", env, "-"], _assemble(text, env))
        assert (result.returncode == 0) == expect_valid, f"{case_id}: {result.stderr.decode()}"


@pytest.mark.parametrize("case", [c for c in CASES if c[5] != PEER_AGREES],
                         ids=[c[0] for c in CASES if c[5] != PEER_AGREES])
def test_spec_text_decides(case):
    """A rule spirv-val does not check has its deciding spec quote in spec_decided.py."""
    case_id, env, invalid, _valid, _rule, _peer, _opts = case
    diagnostics = validate(_assemble(invalid, env), env, options=_options(case, False), max_errors=None)
    note = spec_decided.note_for(diagnostics[0])
    assert note is not None and note.quote.startswith(">"), f"{case_id}: no spec_decided note for {diagnostics[0]}"
