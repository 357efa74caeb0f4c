"""More rule tests (same shape as test_val_rules.py): one module per rule, the rule id expected
first. Modules here are written whole where the templates do not fit."""

from __future__ import annotations

import pytest
from val_modules import kernel as K
from val_modules import shader as S

import spirvkit
from spirvkit.validate import validate

_SSBO = """OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %rt ArrayStride 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0"""
_SSBO_TYPES = """%rt = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rt
%pbuf = OpTypePointer StorageBuffer %Buf
%buf = OpVariable %pbuf StorageBuffer
%psb_uint = OpTypePointer StorageBuffer %uint"""
_TRUE = "%true = OpConstantTrue %bool"

CASES = [
    # universal
    ("u4-logical-pointer-variable", "vulkan1.0",
     S(types="%pf = OpTypePointer Function %uint\n%ppf = OpTypePointer Function %pf",
       body="%v = OpVariable %ppf Function"), "memory.logical-pointer-variable"),
    ("u6-logical-pointer-select", "vulkan1.0",
     S(types="%pf = OpTypePointer Function %uint\n" + _TRUE,
       body="%a = OpVariable %pf Function\n%b = OpVariable %pf Function\n%s = OpSelect %pf %true %a %b"),
     "memory.logical-pointer"),
    ("u10-declaration-import", "spv1.0",
     K(caps="OpCapability Linkage", types="%dty = OpTypeFunction %void\n%d = OpFunction %void None %dty\n"
                                           "OpFunctionEnd"), "function.declaration-import"),
    ("u13-import-initializer", "spv1.0",
     K(caps="OpCapability Linkage", annotations='OpDecorate %g LinkageAttributes "g" Import',
       types="%g = OpVariable %_ptr_CrossWorkgroup_uint CrossWorkgroup %uint_1"), "function.import-initializer"),
    ("u17-block-label", "opencl2.2", K(body="OpBranch %n\n%x = OpIAdd %uint %uint_1 %uint_1\n%n = OpLabel"),
     "layout.block-label"),
    ("u18-missing-terminator", "opencl2.2", K(body="OpBranch %n\n%n = OpLabel\n%m = OpLabel"),
     "layout.block-terminator"),
    ("u21-call-non-function", "opencl2.2", None, "function.call-target"),
    ("u29-forward-pointer", "spv1.0",
     K(types="OpTypeForwardPointer %fp CrossWorkgroup\n%fp = OpTypePointer CrossWorkgroup %uint"),
     "types.forward-pointer"),
    ("u30-sampled-image-block", "vulkan1.0",
     S(annotations="OpDecorate %iv DescriptorSet 0\nOpDecorate %iv Binding 0\nOpDecorate %sv DescriptorSet 0\n"
                   "OpDecorate %sv Binding 1",
       types="%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n%smp = OpTypeSampler\n%si = OpTypeSampledImage %img\n"
             "%pimg = OpTypePointer UniformConstant %img\n%psmp = OpTypePointer UniformConstant %smp\n"
             "%iv = OpVariable %pimg UniformConstant\n%sv = OpVariable %psmp UniformConstant\n"
             "%v2 = OpTypeVector %float 2\n%c = OpConstantNull %v2",
       body="%i = OpLoad %img %iv\n%s = OpLoad %smp %sv\n%x = OpSampledImage %si %i %s\nOpBranch %n\n%n = OpLabel\n"
            "%r = OpImageSampleExplicitLod %v4float %x %c Lod %float_1"),
     "memory.sampled-image"),
    ("u33-linkage-entry", "spv1.0",
     K(caps="OpCapability Linkage", annotations='OpDecorate %main LinkageAttributes "main" Export'),
     "function.entry-point-linkage"),
    ("u34-builtin-struct-nested", "vulkan1.0",
     S(types="%bs = OpTypeStruct %uint\n%outer = OpTypeStruct %bs",
       annotations="OpMemberDecorate %bs 0 BuiltIn LocalInvocationIndex"), "types.struct-builtin"),
    ("c1-merge-unique", "vulkan1.0",
     S(types=_TRUE, body="OpSelectionMerge %m None\nOpBranchConditional %true %a %m\n%a = OpLabel\n"
                         "OpSelectionMerge %m None\nOpBranchConditional %true %b %m\n%b = OpLabel\nOpBranch %m\n"
                         "%m = OpLabel"), "cfg.merge-unique"),
    ("c6-structured-exit", "vulkan1.0",
     S(types=_TRUE, body="OpSelectionMerge %m None\nOpBranchConditional %true %a %m\n%a = OpLabel\n"
                         "OpSelectionMerge %m2 None\nOpBranchConditional %true %in %m\n%in = OpLabel\nOpBranch %m2\n"
                         "%m2 = OpLabel\nOpBranch %m\n%m = OpLabel"), "cfg.structured-exit"),
    ("c7-switch-fallthrough", "vulkan1.0",
     S(body="OpSelectionMerge %m None\nOpSwitch %uint_1 %m 1 %a 2 %b 3 %cc\n%a = OpLabel\nOpBranch %cc\n"
            "%b = OpLabel\nOpBranch %cc\n%cc = OpLabel\nOpBranch %m\n%m = OpLabel"), "cfg.structured-switch"),
    ("s1-irreducible", "vulkan1.0",
     S(types=_TRUE, body="OpSelectionMerge %m None\nOpBranchConditional %true %a %b\n%a = OpLabel\nOpBranch %b\n"
                         "%b = OpLabel\nOpBranch %a\n%m = OpLabel"), None),
    ("s11-row-col-major", "vulkan1.0",
     S(types="%m4 = OpTypeMatrix %v4float 4\n%st = OpTypeStruct %m4",
       annotations="OpMemberDecorate %st 0 RowMajor\nOpMemberDecorate %st 0 ColMajor"), "decorations.row-col-major"),
    ("s12-block-bufferblock", "vulkan1.0", S(types="%st = OpTypeStruct %uint",
                                             annotations="OpDecorate %st Block\nOpDecorate %st BufferBlock"),
     "decorations.block-bufferblock"),
    ("limits-id-bound", "opencl2.2", K(), "limits.id-bound"),
    ("limits-function-params", "opencl2.2",
     K(types="%many = OpTypeFunction %void " + " ".join(["%uint"] * 9)), "limits.function-parameters"),
    # OpenCL environment
    ("ocl1-execution-model", "opencl2.2", None, "~opencl.execution-model"),
    ("ocl3-memory-model", "opencl2.2", K().replace("Physical64 OpenCL", "Physical64 GLSL450"), None),
    ("ocl8-extension-name", "opencl3.0", K(caps='OpExtension "cl_khr_fp16"'), "opencl.extension-name"),
    ("ocl7-ext-inst-set", "opencl2.2", K(caps='%g = OpExtInstImport "GLSL.std.450"'), "opencl.ext-inst-set"),
    ("ocl16-access-qualifier", "opencl2.2",
     K(caps="OpCapability ImageBasic", types="%img = OpTypeImage %void 2D 0 0 0 0 Unknown"), "opencl.image-type"),
    ("ocl17-image-shape", "opencl2.2",
     K(caps="OpCapability ImageBasic", types="%img = OpTypeImage %void 3D 1 0 0 0 Unknown ReadOnly"),
     "opencl.image-type"),
    ("ocl22-kernel-param-float", "opencl2.2",
     # a half argument in a module with only Float16Buffer (with Float64/Float16 declared, double
     # and half arguments are the device's optional types: test_env_rules_by_version.py)
     K(caps="OpCapability Float16Buffer", types="%double = OpTypeFloat 16\n%kty = OpTypeFunction %void %double",
       functions="%k2 = OpFunction %void None %kty\n%kp = OpFunctionParameter %double\n%kl = OpLabel\nOpReturn\n"
                 "OpFunctionEnd").replace('OpEntryPoint Kernel %main "main"',
                                          'OpEntryPoint Kernel %main "main"\nOpEntryPoint Kernel %k2 "k2"'),
     "opencl.kernel-parameter"),
    ("ocl32-async-copy-scope", "opencl2.2",
     K(types="%ev = OpTypeEvent\n%evn = OpConstantNull %ev\n%pw = OpTypePointer Workgroup %uint\n"
             "%w = OpVariable %pw Workgroup",
       body="%e = OpGroupAsyncCopy %ev %uint_3 %w %buf %ulong_1 %ulong_1 %evn",
       ).replace("%float_1 = OpConstant %float 1", "%float_1 = OpConstant %float 1\n%ulong_1 = OpConstant %ulong 1\n"
                                                   "%uint_3 = OpConstant %uint 3"),
     "opencl.execution-scope"),
    # image instructions
    ("image-query-result", "opencl2.2",
     K(caps="OpCapability ImageBasic", types="%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n"
                                             "%pimg = OpTypePointer UniformConstant %img\n"
                                             "%iv = OpVariable %pimg UniformConstant",
       body="%i = OpLoad %img %iv\n%q = OpImageQuerySize %float %i"), "image.result-type"),
    ("image-read-image-type", "opencl2.2", K(caps="OpCapability ImageBasic", body="%r = OpImageRead %v4uint %uint_1 %uint_0"),
     "image.operand-type"),
    # Vulkan environment
    ("vk10-storage-class", "vulkan1.0", S(types="%pc = OpTypePointer CrossWorkgroup %uint"), "vulkan.storage-class"),
    ("vk11-workgroup-in-fragment", "vulkan1.0", None, "vulkan.workgroup-storage"),
    ("vk20-opaque-in-struct", "vulkan1.0", S(types="%smp = OpTypeSampler\n%st = OpTypeStruct %smp"),
     "vulkan.opaque-in-struct"),
    ("vk22-image-sampled-type", "vulkan1.0", S(types="%img = OpTypeImage %v4float 2D 0 0 0 1 Unknown"),
     "types.image"),
    ("vk23-image-sampled", "vulkan1.0", S(types="%img = OpTypeImage %float 2D 0 0 0 0 Unknown"),
     "vulkan.image-sampled"),
    ("vk24-image-format", "vulkan1.0", S(types="%img = OpTypeImage %uint 2D 0 0 0 2 Rgba32f"), "vulkan.image-format"),
    ("vk33-glsl-shared", "vulkan1.0", S(types="%st = OpTypeStruct %uint", annotations="OpDecorate %st GLSLShared"),
     "vulkan.glsl-shared-packed"),
    ("vk36-fp-rounding-mode", "vulkan1.1",
     S(caps="OpCapability StorageBuffer16BitAccess\nOpExtension \"SPV_KHR_16bit_storage\"",
       annotations="OpDecorate %x FPRoundingMode RTP", body="%x = OpFAdd %float %float_1 %float_1"),
     "vulkan.fp-rounding-mode"),
    ("vk39-runtime-array-block", "vulkan1.0", S(types="%rt = OpTypeRuntimeArray %uint\n%st = OpTypeStruct %rt"),
     "vulkan.runtime-array"),
    ("vk44-workgroup-size-builtin-type", "vulkan1.0",
     S(types="%pin = OpTypePointer Input %float\n%li = OpVariable %pin Input", interface="%li",
       annotations="OpDecorate %li BuiltIn LocalInvocationIndex"), "vulkan.builtin"),
    ("vk3b-ssbo-block", "vulkan1.1",
     S(annotations="OpMemberDecorate %Buf 0 Offset 0\nOpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0",
       types="%Buf = OpTypeStruct %uint\n%pbuf = OpTypePointer StorageBuffer %Buf\n%buf = OpVariable %pbuf StorageBuffer"),
     "vulkan.buffer-block"),
    ("vk3b-descriptor-binding", "vulkan1.1",
     S(annotations=_SSBO.replace("OpDecorate %buf Binding 0", ""), types=_SSBO_TYPES), "vulkan.descriptor-set-binding"),
    ("vk3b-bit-width", "vulkan1.1",
     S(caps="OpCapability Int16", types="%ushort = OpTypeInt 16 0\n%us = OpConstant %ushort 1",
       body="%x = OpBitReverse %ushort %us"), "vulkan.bit-width"),
    ("vk13-atomic-load-release", "vulkan1.1",
     S(annotations="OpDecorate %w Coherent", types="%pw = OpTypePointer Workgroup %uint\n%w = OpVariable %pw Workgroup\n"
                                                   "%sem = OpConstant %uint 260",
       body="%x = OpAtomicLoad %uint %w %uint_2 %sem"), "semantics.order"),
    ("vk3b-uniform-block-store", "vulkan1.0",
     S(annotations="OpDecorate %U Block\nOpMemberDecorate %U 0 Offset 0\nOpDecorate %u DescriptorSet 0\n"
                   "OpDecorate %u Binding 0",
       types="%U = OpTypeStruct %uint\n%pu = OpTypePointer Uniform %U\n%u = OpVariable %pu Uniform\n"
             "%pum = OpTypePointer Uniform %uint\n%int_0 = OpConstant %int 0",
       body="%m = OpAccessChain %pum %u %int_0\nOpStore %m %uint_1"), "vulkan.uniform-block-store"),
    ("vk29-image-offsets", "vulkan1.0",
     S(caps="OpCapability ImageGatherExtended",
       annotations="OpDecorate %iv DescriptorSet 0\nOpDecorate %iv Binding 0",
       types="%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n%si = OpTypeSampledImage %img\n"
             "%psi = OpTypePointer UniformConstant %si\n%iv = OpVariable %psi UniformConstant\n"
             "%v2 = OpTypeVector %float 2\n%c = OpConstantNull %v2\n%v2i = OpTypeVector %int 2\n"
             "%o = OpConstantNull %v2i",
       body="%s = OpLoad %si %iv\n%r = OpImageGather %v4float %s %c %uint_0 Offset|ConstOffset %o %o"),
     "vulkan.image-operands"),
    ("ocl26-int64-atomic-workgroup-memory", "opencl2.0", None, "opencl.int64-atomic-scope"),
    ("vk45-ballot-bit-count", "vulkan1.1",
     S(caps="OpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformClustered", types="%v4uint = OpTypeVector %uint 4\n%b = OpConstantNull %v4uint\n"
                                                       "%uint_3 = OpConstant %uint 3",
       body="%x = OpGroupNonUniformBallotBitCount %uint %uint_3 ClusteredReduce %b"), "group.operation"),
]

_INT64_ATOMICS = frozenset({"cl_khr_int64_base_atomics"})  # a device extension: enables Int64Atomics


def _int64_atomic(scope: str) -> str:
    return K(caps="OpCapability Int64Atomics",
             types="%pwl = OpTypePointer Workgroup %ulong\n%w = OpVariable %pwl Workgroup\n"
                   "%ulong_1 = OpConstant %ulong 1\n%sem = OpConstant %uint 256",
             body=f"%x = OpAtomicIAdd %ulong %w {scope} %sem %ulong_1")


_SPECIAL = {
    "ocl26-int64-atomic-workgroup-memory": lambda: _int64_atomic("%uint_1"),
    "u21-call-non-function": lambda: K(body="%r = OpFunctionCall %void %uint_1"),
    "ocl1-execution-model": lambda: K(caps="OpCapability Shader").replace('OpEntryPoint Kernel %main "main"',
                                                                        'OpEntryPoint GLCompute %main "main"'),
    "vk11-workgroup-in-fragment": lambda: S(
        types="%pw = OpTypePointer Workgroup %uint\n%w = OpVariable %pw Workgroup",
        body="%x = OpLoad %uint %w").replace('OpEntryPoint GLCompute %main "main"',
                                             'OpEntryPoint Fragment %main "main"').replace(
        "OpExecutionMode %main LocalSize 1 1 1", "OpExecutionMode %main OriginUpperLeft"),
}


def _options(case_id):
    if case_id == "limits-id-bound":
        return spirvkit.ValidatorOptions(max_id_bound=10)
    if case_id == "limits-function-params":
        return spirvkit.ValidatorOptions(max_function_args=8)
    if case_id.startswith("ocl26"):
        return spirvkit.ValidatorOptions(strict_opencl_version_rules=True, extensions=_INT64_ATOMICS)
    return None


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_rule_fires(case):
    case_id, env, text, rule = case
    text = _SPECIAL[case_id]() if text is None else text
    binary = spirvkit.assemble(text, "spv1.6" if env == "opencl3.0" else env)
    diagnostics = validate(binary, env, options=_options(case_id), max_errors=None)
    assert diagnostics, case_id
    if rule is None:  # the rule's own id varies with what fires first; the verdict is what counts
        return
    if rule.startswith("~"):  # the module cannot break the rule alone: it is among the diagnostics
        assert rule[1:] in [d.rule for d in diagnostics], diagnostics
        return
    assert diagnostics[0].rule == rule, f"{case_id}: {diagnostics[0]}"


def test_ocl26_rule_is_strict_only_and_scope_workgroup_passes():
    """OLD rule 26 applies with strict_opencl_version_rules (the OLD document's extension rule);
    Workgroup scope satisfies it."""
    strict = spirvkit.ValidatorOptions(strict_opencl_version_rules=True, extensions=_INT64_ATOMICS)
    device = spirvkit.assemble(_int64_atomic("%uint_1"), "opencl2.0")
    workgroup = spirvkit.assemble(_int64_atomic("%uint_2"), "opencl2.0")
    assert validate(device, "opencl2.0", options=spirvkit.ValidatorOptions(extensions=_INT64_ATOMICS)) == []
    assert validate(workgroup, "opencl2.0", options=strict) == []
    # without the device extension the capability table rejects Int64Atomics (spirv-val too)
    assert validate(workgroup, "opencl2.0")[0].rule == "opencl.capability-table"
