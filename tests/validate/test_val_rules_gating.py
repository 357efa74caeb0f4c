"""Rules added where spirv-val (SPIRV-Tools 2025.5) rejected modules spirvkit accepted: the 8/16-bit
storage capabilities, entry-point interfaces before and from SPIR-V 1.4, the Vulkan memory model's
scopes, semantics and memory operands, logical pointers (U5, U6, variable pointers), extension
versions and ext-inst capabilities, storage images, OpenCL.std pointer operands, bools in
variables, and the Vulkan layout, runtime-array and Location storage-class rules. Most were found
by ``tests/validate/gating_search.py`` (targeted mutations of the valid corpora: one capability
dropped or added, storage classes, scopes, semantics, interfaces, versions, memory model).

Each case is an invalid module and its valid twin: spirvkit reports the rule first on the invalid
one, naming the offending instruction and its word offset, and nothing on the twin; spirv-val
rejects the invalid module and accepts the twin (the ``F:case`` entries of
docs/validation-coverage.md).
"""

from __future__ import annotations

import pytest
from peers import run_tool
from val_modules import shader as S

import spirvkit
from spirvkit.validate import validate

# -- 8/16-bit types under the storage capabilities -----------------------------------------------------

_SMALL = """OpCapability Shader
OpCapability StorageBuffer16BitAccess
OpCapability StorageBuffer8BitAccess
{caps}
OpExtension "SPV_KHR_16bit_storage"
OpExtension "SPV_KHR_8bit_storage"
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpMemberDecorate %Buf 1 Offset 2
OpMemberDecorate %Buf 2 Offset 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
{annotations}
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%half = OpTypeFloat 16
%short = OpTypeInt 16 1
%uchar = OpTypeInt 8 0
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%float_1 = OpConstant %float 1
%Buf = OpTypeStruct %half %short %uchar
%pbuf = OpTypePointer StorageBuffer %Buf
%psbh = OpTypePointer StorageBuffer %half
%psbs = OpTypePointer StorageBuffer %short
%psbc = OpTypePointer StorageBuffer %uchar
%pfh = OpTypePointer Function %half
%pfc = OpTypePointer Function %uchar
%buf = OpVariable %pbuf StorageBuffer
{types}
%main = OpFunction %void None %fnty
%entry = OpLabel
{vars}
%h = OpAccessChain %psbh %buf %int_0
%s = OpAccessChain %psbs %buf %int_1
%c = OpAccessChain %psbc %buf %int_2
{body}
OpReturn
OpFunctionEnd
"""


def _small(caps: str = "", types: str = "", vars_: str = "", body: str = "", annotations: str = "") -> str:
    return _SMALL.format(caps=caps, types=types, vars=vars_, body=body, annotations=annotations)


_F16 = "OpCapability Float16"
_HALF_LOAD = "%x = OpLoad %half %h\n"

# -- interfaces ------------------------------------------------------------------------------------------

_GID = ("%v3uint = OpTypeVector %uint 3\n%pin = OpTypePointer Input %v3uint\n%gid = OpVariable %pin Input\n"
        "%pwg = OpTypePointer Workgroup %uint\n%wg = OpVariable %pwg Workgroup")
_GID_DEC = "OpDecorate %gid BuiltIn GlobalInvocationId"


def _iface(interface: str, body: str = "%g = OpLoad %v3uint %gid") -> str:
    return S(annotations=_GID_DEC, types=_GID, interface=interface, body=body)


_SPEC_ACCESS = """OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" {interface}
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%arr = OpTypeArray %uint %uint_4
%pa = OpTypePointer CrossWorkgroup %arr
%pu = OpTypePointer CrossWorkgroup %uint
%null = OpConstantNull %arr
%g = OpVariable %pa CrossWorkgroup %null
%e1 = OpSpecConstantOp %pu InBoundsAccessChain %g %uint_1
%fnty = OpTypeFunction %void
%main = OpFunction %void None %fnty
%entry = OpLabel
%x = OpLoad %uint %e1
OpReturn
OpFunctionEnd
"""

# -- the Vulkan memory model -------------------------------------------------------------------------------

_VMM = """OpCapability Shader
OpCapability VulkanMemoryModel
{caps}
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %v %w %pv
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%cross = OpConstant %uint 0
%device = OpConstant %uint 1
%workgroup = OpConstant %uint 2
%invocation = OpConstant %uint 4
%relaxed = OpConstant %uint 0
%acq_rel_wg = OpConstant %uint 0x108
%acq_wg = OpConstant %uint 0x102
%acq = OpConstant %uint 0x2
%volatile_acq_rel_wg = OpConstant %uint 0x8108
%pw = OpTypePointer Workgroup %uint
%pp = OpTypePointer Private %uint
%v = OpVariable %pw Workgroup
%w = OpVariable %pw Workgroup
%pv = OpVariable %pp Private
%main = OpFunction %void None %fnty
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"""
_DEVICE_SCOPE = "OpCapability VulkanMemoryModelDeviceScope"


def _vmm(body: str, caps: str = _DEVICE_SCOPE) -> str:
    return _VMM.format(caps=caps, body=body)


# -- logical pointers ------------------------------------------------------------------------------------------

_POINTERS = """OpCapability Shader
{caps}
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %arr ArrayStride 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %buf2 DescriptorSet 0
OpDecorate %buf2 Binding 1
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%true = OpConstantTrue %bool
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%pbuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%pwu = OpTypePointer Workgroup %uint
%pfu = OpTypePointer Function %uint
%buf = OpVariable %pbuf StorageBuffer
%buf2 = OpVariable %pbuf StorageBuffer
%wg = OpVariable %pwu Workgroup
%wg2 = OpVariable %pwu Workgroup
%S = OpTypeStruct %pu
{types}
%main = OpFunction %void None %fnty
%entry = OpLabel
%fv = OpVariable %pfu Function
%p = OpAccessChain %pu %buf %uint_0 %uint_0
%p2 = OpAccessChain %pu %buf2 %uint_0 %uint_0
{body}
OpReturn
OpFunctionEnd
{functions}
"""
_VPSB = "OpCapability VariablePointersStorageBuffer"
_VP = "OpCapability VariablePointers"


def _ptrs(body: str = "", caps: str = "", types: str = "", functions: str = "") -> str:
    return _POINTERS.format(caps=caps, types=types, body=body, functions=functions)


_CALLEE = ("%callee = OpFunction %void None %ft\n%param = OpFunctionParameter {ptype}\n%l = OpLabel\nOpReturn\n"
           "OpFunctionEnd")

# -- images ---------------------------------------------------------------------------------------------------

_IMAGES = """OpCapability Shader
{caps}
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %iv DescriptorSet 0
OpDecorate %iv Binding 0
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%int_0 = OpConstant %int 0
%v2int = OpTypeVector %int 2
%c2 = OpConstantNull %v2int
%v4uint = OpTypeVector %uint 4
%img = OpTypeImage %uint {dim} 0 0 {ms} 2 R32ui
%pimg = OpTypePointer UniformConstant %img
%iv = OpVariable %pimg UniformConstant
%ptexel = OpTypePointer {texel_class} %uint
%main = OpFunction %void None %fnty
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"""


def _images(body: str, caps: str = "", dim: str = "2D", ms: int = 0, texel_class: str = "Image") -> str:
    return _IMAGES.format(caps=caps, dim=dim, ms=ms, texel_class=texel_class, body=body)


_TEXEL = "%t = OpImageTexelPointer %ptexel %iv %c2 %uint_0\n%a = OpAtomicIAdd %uint %t %uint_1 %uint_0 %uint_1"

# -- OpenCL.std pointers ----------------------------------------------------------------------------------------

_CL_STD = """OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int8
OpCapability Float16Buffer
%std = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%uchar = OpTypeInt 8 0
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%ulong_0 = OpConstant %ulong 0
%float_1 = OpConstant %float 1
%p = OpTypePointer {sc} %float
%ph = OpTypePointer {sc} %half
%pc = OpTypePointer {sc} %uchar
%fnty = OpTypeFunction %void %p %ph %pc
%main = OpFunction %void None %fnty
%a = OpFunctionParameter %p
%h = OpFunctionParameter %ph
%c = OpFunctionParameter %pc
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"""


def _cl_std(sc: str, body: str) -> str:
    return _CL_STD.format(sc=sc, body=body)


# -- Vulkan layout and interface storage classes -------------------------------------------------------------------

_FRAGMENT = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %o
OpExecutionMode %main OriginUpperLeft
OpDecorate %o Location 0
OpDecorate %x {decoration}
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%po = OpTypePointer Output %v4
%o = OpVariable %po Output
%px = OpTypePointer {sc} {type}
%x = OpVariable %px {sc}
%main = OpFunction %void None %fnty
%entry = OpLabel
OpReturn
OpFunctionEnd
"""

_RTA_STRUCT = ("%rta = OpTypeRuntimeArray %uint\n%R = OpTypeStruct %rta\n%pr = OpTypePointer {sc} %R\n"
               "%r = OpVariable %pr {sc}")
_RTA_DECORATIONS = "OpDecorate %rta ArrayStride 4\nOpDecorate %R Block\nOpMemberDecorate %R 0 Offset 0"

_STRIDED_ARRAY = "%uint_4 = OpConstant %uint 4\n%arr = OpTypeArray %uint %uint_4\n%pa = OpTypePointer {sc} %arr"

_EXTENSION_VERSION = """OpCapability Shader
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%main = OpFunction %void None %fnty
%entry = OpLabel
OpReturn
OpFunctionEnd
"""

_INTERPOLATE = """OpCapability Shader
{caps}
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in
OpExecutionMode %main OriginUpperLeft
OpDecorate %in Location 0
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%float = OpTypeFloat 32
%pin = OpTypePointer Input %float
%in = OpVariable %pin Input
%main = OpFunction %void None %fnty
%entry = OpLabel
%r = OpExtInst %float %glsl InterpolateAtCentroid %in
OpReturn
OpFunctionEnd
"""

_BOOL_VAR = "%pb = OpTypePointer {sc} %bool\n%bv = OpVariable %pb {sc}"

_OUTPUT_VAR = "%po = OpTypePointer Output %float\n%o = OpVariable %po Output"
_STORE_OUTPUT = "%f = OpFunction %void None %fnty\n%fe = OpLabel\nOpStore %o %float_1\nOpReturn\nOpFunctionEnd"

_VERTEX_IO = """OpCapability Shader
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %a %b
OpDecorate %a Location 0
OpDecorate %b Location {lb}
{extra}
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%uint = OpTypeInt 32 0
%uint_2 = OpConstant %uint 2
%v4 = OpTypeVector %float 4
%v2 = OpTypeVector %float 2
%dv3 = OpTypeVector %double 3
%arr = OpTypeArray %float %uint_2
%m2 = OpTypeMatrix %v2 2
%pa = OpTypePointer {sc} {ta}
%pb = OpTypePointer {sc} {tb}
%a = OpVariable %pa {sc}
%b = OpVariable %pb {sc}
%main = OpFunction %void None %fnty
%entry = OpLabel
OpReturn
OpFunctionEnd
"""


def _io(lb: int, ta: str = "%v4", tb: str = "%v4", sc: str = "Input", extra: str = "") -> str:
    """A vertex shader with two interface variables: %a at Location 0, %b at Location ``lb``."""
    return _VERTEX_IO.format(lb=lb, ta=ta, tb=tb, sc=sc, extra=extra)


# (id, env, invalid, valid twin, rule)
CASES = [
    # 16-bit / 8-bit storage (SPIR-V 3.31; SPV_KHR_16bit_storage, SPV_KHR_8bit_storage)
    ("sb16-function-variable", "vulkan1.1", _small(vars_="%fv = OpVariable %pfh Function"),
     _small(caps=_F16, vars_="%fv = OpVariable %pfh Function"), "types.small-storage-class"),
    ("sb16-private-variable", "vulkan1.1", _small(types="%pph = OpTypePointer Private %half\n"
                                                        "%pv = OpVariable %pph Private"),
     _small(caps=_F16, types="%pph = OpTypePointer Private %half\n%pv = OpVariable %pph Private"),
     "types.small-storage-class"),
    ("sb16-workgroup-variable", "vulkan1.1", _small(types="%pwh = OpTypePointer Workgroup %short\n"
                                                          "%wv = OpVariable %pwh Workgroup"),
     _small(caps="OpCapability Int16", types="%pwh = OpTypePointer Workgroup %short\n%wv = OpVariable %pwh Workgroup"),
     "types.small-storage-class"),
    ("sb16-input-variable", "vulkan1.1", _small(types="%pih = OpTypePointer Input %half\n%iv = OpVariable %pih Input"),
     _small(caps="OpCapability StorageInputOutput16", types="%pih = OpTypePointer Input %half\n"
                                                            "%iv = OpVariable %pih Input"),
     "types.small-storage-class"),
    ("sb16-uniform-block", "vulkan1.1",
     _small(annotations="OpDecorate %U Block\nOpMemberDecorate %U 0 Offset 0\nOpDecorate %uv DescriptorSet 0\n"
                        "OpDecorate %uv Binding 1",
            types="%U = OpTypeStruct %half\n%pu = OpTypePointer Uniform %U\n%uv = OpVariable %pu Uniform"),
     _small(caps="OpCapability UniformAndStorageBuffer16BitAccess",
            annotations="OpDecorate %U Block\nOpMemberDecorate %U 0 Offset 0\nOpDecorate %uv DescriptorSet 0\n"
                        "OpDecorate %uv Binding 1",
            types="%U = OpTypeStruct %half\n%pu = OpTypePointer Uniform %U\n%uv = OpVariable %pu Uniform"),
     "types.small-storage-class"),
    ("sb8-function-variable", "vulkan1.1", _small(vars_="%fv = OpVariable %pfc Function"),
     _small(caps="OpCapability Int8", vars_="%fv = OpVariable %pfc Function"), "types.small-storage-class"),
    ("sb16-constant", "vulkan1.1", _small(types="%hc = OpConstant %half 1"),
     _small(caps=_F16, types="%hc = OpConstant %half 1"), "types.small-constant"),
    ("sb16-undef", "vulkan1.1", _small(types="%hu = OpUndef %half"), _small(caps=_F16, types="%hu = OpUndef %half"),
     "types.small-type-use"),
    ("sb16-arithmetic", "vulkan1.1", _small(body=_HALF_LOAD + "%y = OpFAdd %half %x %x"),
     _small(body=_HALF_LOAD + "%y = OpFConvert %float %x"), "types.small-type-use"),
    ("sb16-struct-load", "vulkan1.1", _small(body="%x = OpLoad %Buf %buf"),
     _small(body=_HALF_LOAD + "OpStore %h %x"), "types.small-type-use"),
    ("sb16-composite", "vulkan1.1",
     _small(types="%v2h = OpTypeVector %half 2", body=_HALF_LOAD + "%y = OpCompositeConstruct %v2h %x %x"),
     _small(caps=_F16, types="%v2h = OpTypeVector %half 2", body=_HALF_LOAD + "%y = OpCompositeConstruct %v2h %x %x"),
     "types.small-type-use"),
    ("sb16-bitcast", "vulkan1.1", _small(body="%x = OpLoad %short %s\n%y = OpBitcast %half %x"),
     _small(body="%x = OpLoad %short %s\n%y = OpSConvert %int %x"), "types.small-type-use"),
    ("sb16-copy-memory", "vulkan1.1", _small(body="OpCopyMemory %h %h"), _small(body=_HALF_LOAD + "OpStore %h %x"),
     "types.small-type-use"),
    # OpEntryPoint interfaces (SPIR-V 3.32.5)
    ("interface-pre-1.4-workgroup", "vulkan1.0", _iface("%gid %wg"), _iface("%gid"),
     "function.entry-point-interface"),
    ("interface-pre-1.4-missing-input", "vulkan1.0", _iface(""), _iface("%gid"), "memory.entry-point-interface"),
    ("interface-1.4-duplicate", "vulkan1.1spv1.4", _iface("%gid %gid"), _iface("%gid"),
     "function.entry-point-interface"),
    ("interface-1.4-through-spec-constant-op", "spv1.4", _SPEC_ACCESS.format(interface=""),
     _SPEC_ACCESS.format(interface="%g"), "memory.entry-point-interface"),
    # Vulkan memory model: scopes, semantics, memory operands (SPIR-V 3.25-3.27; SPV_KHR_vulkan_memory_model)
    ("vmm-device-scope", "vulkan1.2", _vmm("%x = OpAtomicLoad %uint %v %device %relaxed", caps=""),
     _vmm("%x = OpAtomicLoad %uint %v %device %relaxed"), "scopes.memory-device"),
    ("vmm-device-scope-load", "vulkan1.2",
     _vmm("%x = OpLoad %uint %v MakePointerVisible|NonPrivatePointer %device", caps=""),
     _vmm("%x = OpLoad %uint %v MakePointerVisible|NonPrivatePointer %workgroup", caps=""), "scopes.memory-device"),
    ("vmm-make-available-load", "vulkan1.2",
     _vmm("%x = OpLoad %uint %v MakePointerAvailable|NonPrivatePointer %device"),
     _vmm("%x = OpLoad %uint %v MakePointerVisible|NonPrivatePointer %device"), "memory.access-operands"),
    ("vmm-non-private-missing", "vulkan1.2", _vmm("OpStore %v %device MakePointerAvailable %device"),
     _vmm("OpStore %v %device MakePointerAvailable|NonPrivatePointer %device"), "memory.access-operands"),
    ("vmm-non-private-storage-class", "vulkan1.2", _vmm("OpStore %pv %device NonPrivatePointer"),
     _vmm("OpStore %v %device NonPrivatePointer"), "memory.access-operands"),
    ("vmm-memory-operand-scope", "vulkan1.2", _vmm("OpStore %v %device MakePointerAvailable|NonPrivatePointer %cross"),
     _vmm("OpStore %v %device MakePointerAvailable|NonPrivatePointer %workgroup"), "vulkan.memory-scope"),
    ("vmm-volatile-barrier", "vulkan1.2", _vmm("OpControlBarrier %workgroup %workgroup %volatile_acq_rel_wg"),
     _vmm("OpControlBarrier %workgroup %workgroup %acq_rel_wg"), "semantics.volatile-barrier"),
    ("vmm-invocation-ordered", "spv1.5", _vmm("%x = OpAtomicLoad %uint %v %invocation %acq_wg"),
     _vmm("%x = OpAtomicLoad %uint %v %invocation %relaxed"), "vulkan.memory-scope"),
    ("vmm-memory-barrier-relaxed", "spv1.5", _vmm("OpMemoryBarrier %workgroup %relaxed"),
     _vmm("OpMemoryBarrier %workgroup %acq_rel_wg"), "vulkan.memory-barrier-semantics"),
    ("vmm-control-barrier-no-storage", "spv1.5", _vmm("OpControlBarrier %workgroup %workgroup %acq"),
     _vmm("OpControlBarrier %workgroup %workgroup %acq_wg"), "vulkan.ordered-semantics-storage"),
    ("vmm-capability-glsl450", "spv1.5",
     S(caps="OpCapability VulkanMemoryModel\nOpExtension \"SPV_KHR_vulkan_memory_model\""),
     S(caps="OpExtension \"SPV_KHR_vulkan_memory_model\""), "capabilities.memory-model"),
    # extensions and extended instructions (SPIR-V 3.31)
    ("extension-version", "spv1.2", _EXTENSION_VERSION, _EXTENSION_VERSION, "capabilities.extension-version"),
    ("non-semantic-without-extension", "spv1.5", S(caps='%ns = OpExtInstImport "NonSemantic.Foo"'),
     S(caps='OpExtension "SPV_KHR_non_semantic_info"\n%ns = OpExtInstImport "NonSemantic.Foo"'),
     "capabilities.extension"),
    ("ext-inst-capability", "vulkan1.0", _INTERPOLATE.format(caps=""),
     _INTERPOLATE.format(caps="OpCapability InterpolationFunction"), "capabilities.ext-inst"),
    # logical pointers (SPIR-V 2.16.1 U5, U6; SPV_KHR_variable_pointers)
    ("u5-composite-of-pointer", "vulkan1.1", _ptrs("%q = OpCompositeConstruct %S %p"),
     _ptrs("%q = OpCopyObject %pu %p"), "memory.logical-pointer"),
    ("u5-select-workgroup-storage-buffer-only", "vulkan1.1", _ptrs("%q = OpSelect %pwu %true %wg %wg2", caps=_VPSB),
     _ptrs("%q = OpSelect %pwu %true %wg %wg2", caps=_VP), "memory.logical-pointer"),
    ("u6-extract-pointer", "vulkan1.1", _ptrs("%q = OpCompositeExtract %pu %su 0", types="%su = OpUndef %S"),
     _ptrs("%q = OpCopyObject %pu %p"), "memory.logical-pointer"),
    ("u6-null-pointer", "vulkan1.1", _ptrs(types="%n = OpConstantNull %pu"),
     _ptrs(types="%n = OpConstantNull %pu", caps=_VPSB), "memory.logical-pointer"),
    ("load-from-undef-pointer", "vulkan1.1", _ptrs("%x = OpLoad %uint %up", types="%up = OpUndef %pu"),
     _ptrs("%x = OpLoad %uint %p"), "memory.pointer-operand"),
    ("call-storage-buffer-pointer", "vulkan1.1",
     _ptrs("%r = OpFunctionCall %void %callee %p", types="%ft = OpTypeFunction %void %pu",
           functions=_CALLEE.format(ptype="%pu")),
     _ptrs("%r = OpFunctionCall %void %callee %p", caps=_VPSB, types="%ft = OpTypeFunction %void %pu",
           functions=_CALLEE.format(ptype="%pu")), "function.call-pointer-argument"),
    ("call-pointer-not-memory-object", "vulkan1.1",
     _ptrs("%q = OpCopyObject %pfu %fv\n%r = OpFunctionCall %void %callee %q", types="%ft = OpTypeFunction %void %pfu",
           functions=_CALLEE.format(ptype="%pfu")),
     _ptrs("%r = OpFunctionCall %void %callee %fv", types="%ft = OpTypeFunction %void %pfu",
           functions=_CALLEE.format(ptype="%pfu")), "function.call-pointer-argument"),
    ("variable-pointers-one-structure", "vulkan1.1", _ptrs("%q = OpSelect %pu %true %p %p2", caps=_VPSB),
     _ptrs("%q = OpSelect %pu %true %p %p2", caps=_VP), "memory.variable-pointer"),
    # images (SPIR-V 3.31, 3.32.8, 3.32.10)
    ("texel-pointer-storage-class", "vulkan1.0", _images(_TEXEL, texel_class="Workgroup"), _images(_TEXEL),
     "image.texel-pointer"),
    ("storage-image-multisample", "vulkan1.0", _images("%i = OpLoad %img %iv", ms=1),
     _images("%i = OpLoad %img %iv", caps="OpCapability StorageImageMultisample", ms=1), "image.capability"),
    ("storage-image-1d-read", "vulkan1.0",
     _images("%i = OpLoad %img %iv\n%r = OpImageRead %v4uint %i %int_0", caps="OpCapability Sampled1D", dim="1D"),
     _images("%i = OpLoad %img %iv\n%r = OpImageRead %v4uint %i %int_0", caps="OpCapability Image1D", dim="1D"),
     "image.capability"),
    # OpenCL.std pointer operands
    ("opencl-prefetch-storage-class", "opencl2.0",
     _cl_std("Workgroup", "%r = OpExtInst %void %std prefetch %a %ulong_0"),
     _cl_std("CrossWorkgroup", "%r = OpExtInst %void %std prefetch %a %ulong_0"), "extinst.opencl-std"),
    ("opencl-vstore-half-constant", "opencl2.0",
     _cl_std("UniformConstant", "%r = OpExtInst %void %std vstore_half %float_1 %ulong_0 %h"),
     _cl_std("CrossWorkgroup", "%r = OpExtInst %void %std vstore_half %float_1 %ulong_0 %h"), "extinst.opencl-std"),
    ("opencl-printf-format", "opencl2.0", _cl_std("CrossWorkgroup", "%r = OpExtInst %uint %std printf %c"),
     _cl_std("UniformConstant", "%r = OpExtInst %uint %std printf %c"), "extinst.opencl-std"),
    # bools in variables (SPIR-V 3.32.6 OpTypeBool)
    ("bool-input-variable", "vulkan1.0", S(types=_BOOL_VAR.format(sc="Input")),
     S(types=_BOOL_VAR.format(sc="Private")), "memory.variable-bool"),
    ("bool-storage-buffer-block", "spv1.3",
     S(caps='OpExtension "SPV_KHR_storage_buffer_storage_class"',
       annotations="OpDecorate %B Block\nOpMemberDecorate %B 0 Offset 0",
       types="%B = OpTypeStruct %bool\n%pb = OpTypePointer StorageBuffer %B\n%bv = OpVariable %pb StorageBuffer"),
     S(caps='OpExtension "SPV_KHR_storage_buffer_storage_class"',
       annotations="OpDecorate %B Block\nOpMemberDecorate %B 0 Offset 0",
       types="%B = OpTypeStruct %uint\n%pb = OpTypePointer StorageBuffer %B\n%bv = OpVariable %pb StorageBuffer"),
     "memory.variable-bool"),
    ("workgroup-block-1.4", "spv1.4",
     S(annotations="OpDecorate %B Block\nOpMemberDecorate %B 0 Offset 0", interface="%bv",
       types="%B = OpTypeStruct %uint\n%pb = OpTypePointer Workgroup %B\n%bv = OpVariable %pb Workgroup"),
     S(interface="%bv", types="%B = OpTypeStruct %uint\n%pb = OpTypePointer Workgroup %B\n"
                               "%bv = OpVariable %pb Workgroup"), "memory.workgroup-block"),
    # Vulkan: explicit layout, runtime arrays, Location/Component storage classes
    ("vulkan-workgroup-explicit-layout", "vulkan1.0",
     S(annotations="OpDecorate %arr ArrayStride 4", types=_STRIDED_ARRAY.format(sc="Workgroup")
       + "\n%wa = OpVariable %pa Workgroup"),
     S(types=_STRIDED_ARRAY.format(sc="Workgroup") + "\n%wa = OpVariable %pa Workgroup"), "vulkan.explicit-layout"),
    ("vulkan-private-explicit-layout-1.5", "vulkan1.2",
     S(annotations="OpDecorate %arr ArrayStride 4", types=_STRIDED_ARRAY.format(sc="Private")
       + "\n%pva = OpVariable %pa Private", interface="%pva"),
     S(types=_STRIDED_ARRAY.format(sc="Private") + "\n%pva = OpVariable %pa Private", interface="%pva"),
     "vulkan.explicit-layout"),
    ("vulkan-runtime-array-workgroup", "vulkan1.0",
     S(annotations=_RTA_DECORATIONS, types=_RTA_STRUCT.format(sc="Workgroup")),
     S(caps='OpExtension "SPV_KHR_storage_buffer_storage_class"',
       annotations=_RTA_DECORATIONS + "\nOpDecorate %r DescriptorSet 0\nOpDecorate %r Binding 0",
       types=_RTA_STRUCT.format(sc="StorageBuffer")), "vulkan.runtime-array"),
    ("vulkan-location-private", "vulkan1.0", _FRAGMENT.format(decoration="Location 1", sc="Private", type="%float"),
     _FRAGMENT.format(decoration="Invariant", sc="Output", type="%v4").replace("%o\n", "%o %x\n")
     .replace("OpDecorate %x Invariant", "OpDecorate %x Location 1"), "vulkan.location-storage-class"),
    # Location and Component assignment (VUID-StandaloneSpirv-OpEntryPoint-08721 / -08722): a
    # component of a location is assigned once per interface; arrays, matrices and 64-bit vectors
    # of three or four components take more than one location
    ("location-overlap-input", "vulkan1.0", _io(0), _io(1), "vulkan.interface-location-overlap"),
    ("location-overlap-output", "vulkan1.0", _io(0, sc="Output"), _io(1, sc="Output"),
     "vulkan.interface-location-overlap"),
    ("location-overlap-array", "vulkan1.0", _io(1, ta="%arr", tb="%float"), _io(2, ta="%arr", tb="%float"),
     "vulkan.interface-location-overlap"),
    ("location-overlap-matrix", "vulkan1.0", _io(1, ta="%m2", tb="%v2"), _io(2, ta="%m2", tb="%v2"),
     "vulkan.interface-location-overlap"),
    ("location-overlap-dvec3", "vulkan1.0", _io(1, ta="%dv3", tb="%float"), _io(2, ta="%dv3", tb="%float"),
     "vulkan.interface-location-overlap"),
    ("location-overlap-component", "vulkan1.0", _io(0, ta="%v2", tb="%v2", extra="OpDecorate %b Component 1"),
     _io(0, ta="%v2", tb="%v2", extra="OpDecorate %b Component 2"), "vulkan.interface-location-overlap"),
    # VUID-StandaloneSpirv-None-04644: Output is not used in GLCompute; listing one in the interface
    # without the call tree referencing it is not a use (as spirv-val reads "used in")
    ("vulkan-output-used-in-compute", "vulkan1.0",
     S(annotations="OpDecorate %o Location 0", interface="%o", types=_OUTPUT_VAR, body="OpStore %o %float_1"),
     S(annotations="OpDecorate %o Location 0", interface="%o", types=_OUTPUT_VAR), "vulkan.storage-class"),
    ("vulkan-output-used-in-compute-callee", "vulkan1.3",
     S(annotations="OpDecorate %o Location 0", interface="%o", types=_OUTPUT_VAR,
       body="%r = OpFunctionCall %void %f", functions=_STORE_OUTPUT),
     S(annotations="OpDecorate %o Location 0", interface="%o", types=_OUTPUT_VAR, functions=_STORE_OUTPUT),
     "vulkan.storage-class"),
    ("component-private", "spv1.0", _FRAGMENT.format(decoration="Component 1", sc="Private", type="%float"),
     _FRAGMENT.format(decoration="Location 1", sc="Private", type="%float"), "decorations.target"),
]

# The twin of "extension-version" is the same module at SPIR-V 1.3.
_TWIN_ENV = {"extension-version": "spv1.3"}


def _assemble(text: str, env: str) -> bytes:
    return spirvkit.assemble(text, env)


def _pairs(case):
    case_id, env, invalid, valid, _rule = case
    return (invalid, env), (valid, _TWIN_ENV.get(case_id, env))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_invalid_module_breaks_the_rule(case):
    case_id, _env, _invalid, _valid, rule = case
    (text, env), _twin = _pairs(case)
    diagnostics = validate(_assemble(text, env), env, max_errors=None)
    assert diagnostics and diagnostics[0].rule == rule, f"{case_id}: {diagnostics[:2]}"
    first = diagnostics[0]
    assert first.section and first.instruction and first.word_offset is not None, f"{case_id}: {first}"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_valid_twin_passes(case):
    _invalid, (text, env) = _pairs(case)
    assert validate(_assemble(text, env), env, max_errors=None) == [], case[0]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_spirv_val_agrees(case):
    for (text, env), expect_valid in zip(_pairs(case), (False, True)):
        result = run_tool("spirv-val", ["--target-env", env, "-"], _assemble(text, env))
        assert (result.returncode == 0) == expect_valid, f"{case[0]} ({env}): {result.stderr.decode()}"
