"""Rule tests: one small module per rule that breaks exactly that rule; the validator must name
the rule (id and spec section) and point at the offending instruction. Where spirv-val knows the
rule too, it must reject the module as well (skipped when the peer is not installed)."""

from __future__ import annotations

import pytest
from peers import run_tool
from val_modules import kernel, offset_of, patch_word, shader

import spirvkit
from spirvkit.validate import validate

K, S = kernel, shader

# (case id, env, module text, expected rule, message fragment, offending opname, spirv-val rejects too)
CASES = [
    # -- layout ----------------------------------------------------------------------------------
    ("layout-order", "opencl2.2", K(annotations="OpCapability Int8"), "layout.section-order",
     "invalid layout section", "OpCapability", True),
    ("layout-two-memory-models", "opencl2.2", K(modes="OpMemoryModel Physical64 OpenCL"),
     "layout.section-order", "", "OpMemoryModel", True),
    ("layout-phi-first", "opencl2.2",
     K(body="OpBranch %b\n%b = OpLabel\n%x = OpIAdd %uint %uint_1 %uint_1\n%p = OpPhi %uint %uint_0 %entry"),
     "layout.phi-first", "OpPhi must appear", "OpPhi", True),
    ("layout-variables-first", "opencl2.2",
     K(body="%x = OpIAdd %uint %uint_1 %uint_1\n%v = OpVariable %_ptr_Function_uint Function"),
     "layout.function-variables-first", "first instructions", "OpVariable", True),
    ("layout-merge-placement", "vulkan1.0",
     S(body="OpSelectionMerge %m None\n%x = OpIAdd %uint %uint_1 %uint_1\nOpBranch %m\n%m = OpLabel"),
     "layout.merge-placement", "second-to-last", "OpSelectionMerge", True),
    ("layout-type-in-function", "opencl2.2", K(body="%t = OpTypeInt 16 0"), "layout.section-order",
     "cannot appear in a function", "OpTypeInt", True),
    # -- ids -------------------------------------------------------------------------------------
    ("ids-before-use", "opencl2.2",
     K(body="%a = OpIAdd %uint %b %uint_1\n%b = OpIAdd %uint %uint_1 %uint_1"),
     "ids.defined-before-use", "has not been defined", "OpIAdd", True),
    ("ids-type-as-value", "opencl2.2", K(body="%a = OpIAdd %uint %uint %uint_1"),
     "ids.operand-kind", "cannot be a type", "OpIAdd", True),
    ("ids-label-as-value", "opencl2.2", K(body="%a = OpIAdd %uint %entry %uint_1"),
     "ids.operand-kind", "requires a type", "OpIAdd", True),
    ("ids-dominance", "opencl2.2",
     K(body="OpBranchConditional %true %l %r\n%l = OpLabel\n%x = OpIAdd %uint %uint_1 %uint_1\nOpBranch %m\n"
            "%r = OpLabel\nOpBranch %m\n%m = OpLabel\n%y = OpIAdd %uint %x %uint_1",
       types="%true = OpConstantTrue %bool"),
     "ids.dominance", "does not dominate", "OpIAdd", True),
    ("ids-function-local", "opencl2.2",
     K(body="%x = OpIAdd %uint %uint_1 %uint_1",
       functions="%g = OpFunction %uint None %gty\n%gl = OpLabel\nOpReturnValue %x\nOpFunctionEnd",
       types="%gty = OpTypeFunction %uint"),
     "ids.function-local", "outside of its defining function", "OpReturnValue", True),
    # -- cfg -------------------------------------------------------------------------------------
    ("cfg-block-order", "opencl2.2",
     K(body="OpBranch %a\n%b = OpLabel\nOpReturn\n%a = OpLabel\nOpBranch %b\n%c = OpLabel"),
     "cfg.block-order", "before its dominator", "OpLabel", True),
    ("cfg-entry-targeted", "opencl2.2", K(body="OpBranch %entry\n%x = OpLabel"), "cfg.entry-block-target",
     "is targeted by", "OpLabel", True),
    ("cfg-condition-bool", "opencl2.2", K(body="OpBranchConditional %uint_1 %a %a\n%a = OpLabel"),
     "cfg.condition-type", "boolean", "OpBranchConditional", True),
    ("cfg-phi-count", "opencl2.2",
     K(body="OpBranch %b\n%b = OpLabel\n%p = OpPhi %uint %uint_0 %entry %uint_1 %entry"),
     "cfg.phi-predecessors", "predecessor count", "OpPhi", True),
    ("cfg-return-value-void", "opencl2.2", K(body="OpReturnValue %uint_1\n%x = OpLabel"),
     "cfg.return-type", "void return type", "OpReturnValue", True),
    ("cfg-structured-selection", "vulkan1.0",
     S(body="OpBranchConditional %true %a %b\n%a = OpLabel\nOpReturn\n%b = OpLabel",
       types="%true = OpConstantTrue %bool"),
     "cfg.structured-selection", "Selection must be structured", "OpBranchConditional", True),
    ("cfg-back-edge", "vulkan1.0",
     S(body="OpBranch %h\n%h = OpLabel\nOpSelectionMerge %m None\nOpBranchConditional %true %h %m\n%m = OpLabel",
       types="%true = OpConstantTrue %bool"),
     "cfg.back-edge-to-loop-header", "loop header", "OpBranchConditional", True),
    # -- capabilities ----------------------------------------------------------------------------
    ("caps-opcode", "vulkan1.0", S(body="%x = OpSizeOf %uint %float_1"), "capabilities.opcode",
     "requires one of these capabilities", "OpSizeOf", True),
    ("caps-operand", "opencl2.2", K(types="%p = OpTypePointer Input %uint\n%v = OpVariable %p Input",
                                     annotations="OpDecorate %v BuiltIn FragCoord"),
     "capabilities.operand", "requires one of these capabilities", "OpDecorate", True),
    ("caps-version", "spv1.0", K(types="%n = OpTypeNamedBarrier"), "capabilities.opcode",
     "NamedBarrier", "OpTypeNamedBarrier", True),
    ("caps-opencl-table", "opencl1.2", K(caps="OpCapability Pipes"), "opencl.capability-table",
     "not allowed by OpenCL 1.2", "OpCapability", True),
    ("caps-vulkan-table", "vulkan1.0", S(caps="OpCapability Kernel"), "vulkan.capability-table",
     "not allowed by Vulkan 1.0", "OpCapability", True),
    # -- types and constants -----------------------------------------------------------------------
    ("types-duplicate", "opencl2.2", K(types="%uint2 = OpTypeInt 32 0"), "types.unique",
     "Duplicate non-aggregate", "OpTypeInt", True),
    ("types-int-width", "vulkan1.0", S(types="%u8 = OpTypeInt 8 0"), "types.int-width", "Int8", "OpTypeInt", True),
    ("types-float-width", "opencl2.2", K(types="%f64 = OpTypeFloat 64"), "types.float-width", "Float64",
     "OpTypeFloat", True),
    ("types-vector-size", "opencl2.2", K(types="%v5 = OpTypeVector %uint 5"), "types.vector-size",
     "Illegal number of components", "OpTypeVector", True),
    ("types-vector16-cap", "vulkan1.0", S(types="%v8 = OpTypeVector %float 8"), "types.vector-size",
     "Vector16", "OpTypeVector", True),
    ("types-matrix", "vulkan1.0", S(types="%m = OpTypeMatrix %float 2"), "types.matrix-columns",
     "Columns in a matrix must be of type vector", "OpTypeMatrix", True),
    ("types-array-length", "opencl2.2", K(types="%a = OpTypeArray %uint %uint_0"), "types.array-length",
     "at least 1", "OpTypeArray", True),
    ("types-kernel-signedness", "opencl2.2", K(types="%int = OpTypeInt 32 1"), "types.kernel-int-signedness",
     "Signedness", "OpTypeInt", True),
    ("types-builtin-mixing", "vulkan1.0",
     S(types="%st = OpTypeStruct %uint %uint", annotations="OpMemberDecorate %st 0 BuiltIn LocalInvocationIndex"),
     "types.struct-builtin", "all members of that structure type", "OpTypeStruct", True),
    ("constants-bool", "opencl2.2", K(types="%t = OpConstantTrue %uint"), "constants.result-type",
     "is not a boolean type", "OpConstantTrue", True),
    ("constants-composite-count", "opencl2.2", K(types="%c = OpConstantComposite %v4uint %uint_0 %uint_1"),
     "constants.constituent-count", "count does not match", "OpConstantComposite", True),
    ("constants-null", "opencl2.2", K(types="%n = OpConstantNull %void"), "constants.null",
     "cannot have a null value", "OpConstantNull", True),
    ("constants-undef-void", "opencl2.2", K(types="%u = OpUndef %void"), "constants.undef-void",
     "void type", "OpUndef", True),
    # -- decorations -------------------------------------------------------------------------------
    ("dec-member-index", "opencl2.2", K(types="%st = OpTypeStruct %uint", annotations="OpMemberDecorate %st 3 Volatile"),
     "decorations.member-index", "out of bounds", "OpMemberDecorate", True),
    ("dec-spec-id-target", "opencl2.2", K(annotations="OpDecorate %uint_1 SpecId 3"), "decorations.target",
     "specialization constant", "OpDecorate", True),
    ("dec-repeated", "opencl2.2", K(annotations="OpDecorate %buf Alignment 4\nOpDecorate %buf Alignment 4"),
     "decorations.repeated", "multiple times", "OpDecorate", True),
    ("dec-restrict-aliased", "opencl2.2", K(annotations="OpDecorate %buf Restrict\nOpDecorate %buf Aliased"),
     "decorations.restrict-aliased", "Restrict and Aliased", "OpDecorate", True),
    ("dec-saturated-placement", "opencl2.2",
     K(annotations="OpDecorate %x SaturatedConversion", body="%x = OpIAdd %uint %uint_1 %uint_1"),
     "decorations.target", "conversion instruction", "OpDecorate", False),
    ("dec-fp-rounding-opencl3", "opencl3.0",
     K(annotations="OpDecorate %x FPRoundingMode RTE", body="%x = OpFAdd %float %float_1 %float_1"),
     "opencl.fp-rounding-mode", "OpConvertFToU", "OpDecorate", None),
    ("dec-block-layout-offset", "vulkan1.0",
     S(annotations="OpDecorate %st BufferBlock\nOpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0",
       types="%st = OpTypeStruct %uint\n%p = OpTypePointer Uniform %st\n%v = OpVariable %p Uniform"),
     "layout.block-offset-required", "Offset", None, True),
    ("dec-block-layout-align", "vulkan1.0",
     S(annotations="OpDecorate %st BufferBlock\nOpMemberDecorate %st 0 Offset 0\nOpMemberDecorate %st 1 Offset 2\n"
                   "OpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0",
       types="%st = OpTypeStruct %uint %uint\n%p = OpTypePointer Uniform %st\n%v = OpVariable %p Uniform"),
     "layout.block-offsets", "is not aligned to 4", None, True),
    # -- instructions ------------------------------------------------------------------------------
    ("arith-result", "opencl2.2", K(body="%x = OpFAdd %uint %uint_1 %uint_1"), "arithmetic.result-type",
     "Expected floating scalar or vector type as Result Type: FAdd", "OpFAdd", True),
    ("arith-operand", "opencl2.2", K(body="%x = OpIAdd %uint %float_1 %uint_1"), "arithmetic.operand-type",
     "operand index 2", "OpIAdd", True),
    ("arith-udiv", "opencl2.2", K(body="%x = OpUDiv %uint %uint_1 %float_1"), "arithmetic.operand-type",
     "UDiv", "OpUDiv", True),
    ("bits-shift", "opencl2.2", K(body="%x = OpShiftLeftLogical %uint %float_1 %uint_1"), "bits.operand-type",
     "Expected Base to be int scalar or vector", "OpShiftLeftLogical", True),
    ("logical-compare", "opencl2.2", K(body="%x = OpFOrdLessThan %uint %float_1 %float_1"),
     "logical.result-type", "bool scalar or vector", "OpFOrdLessThan", True),
    ("logical-select", "opencl2.2", K(body="%x = OpSelect %uint %uint_1 %uint_1 %uint_0"),
     "logical.operand-type", "condition", "OpSelect", True),
    ("conv-dimension", "opencl2.2", K(body="%x = OpConvertFToS %uint %v4float_c",
                                      types="%v4float_c = OpConstantNull %v4float"),
     "conversions.operand-type", "same dimension", "OpConvertFToS", True),
    ("conv-uconvert-width", "opencl2.2", K(body="%x = OpUConvert %uint %uint_1"), "conversions.operand-type",
     "different bit width", "OpUConvert", True),
    ("composite-extract", "opencl2.2", K(body="%x = OpCompositeExtract %uint %vc 7",
                                         types="%vc = OpConstantNull %v4uint"),
     "composite.index", "out of bounds", "OpCompositeExtract", True),
    ("composite-shuffle", "opencl2.2", K(body="%x = OpVectorShuffle %v4uint %vc %vc 0 1 2 9",
                                         types="%vc = OpConstantNull %v4uint"),
     "composite.operand-type", "out of bounds", "OpVectorShuffle", True),
    ("memory-load-type", "opencl2.2", K(body="%x = OpLoad %float %buf"), "memory.load-type",
     "does not match Pointer", "OpLoad", True),
    ("memory-store-type", "opencl2.2", K(body="OpStore %buf %float_1"), "memory.store-type",
     "does not match Object", "OpStore", True),
    ("memory-variable-sc", "opencl2.2", K(body="%v = OpVariable %_ptr_Function_uint Function",
                                          types="%g = OpVariable %_ptr_CrossWorkgroup_uint Workgroup"),
     "memory.variable-storage-class", "Storage class must match", "OpVariable", True),
    ("memory-access-chain", "opencl2.2",
     K(types="%st = OpTypeStruct %uint\n%ps = OpTypePointer CrossWorkgroup %st\n%g = OpVariable %ps CrossWorkgroup",
       body="%x = OpAccessChain %_ptr_CrossWorkgroup_uint %g %uint_2"),
     "memory.access-chain-struct-index", "out of bounds", "OpAccessChain", True),
    ("memory-aligned", "opencl2.2", K(body="%x = OpLoad %uint %buf Aligned 3"), "memory.aligned",
     "power of two", "OpLoad", True),
    ("function-call-args", "opencl2.2",
     K(body="%r = OpFunctionCall %void %g %uint_1",
       functions="%g = OpFunction %void None %gty\n%gp = OpFunctionParameter %float\n%gl = OpLabel\nOpReturn\n"
                 "OpFunctionEnd",
       types="%gty = OpTypeFunction %void %float"),
     "function.call-arguments", "Argument", "OpFunctionCall", True),
    ("function-recursion", "opencl2.2",
     K(body="%r = OpFunctionCall %void %g",
       functions="%g = OpFunction %void None %gty\n%gl = OpLabel\n%r2 = OpFunctionCall %void %g\nOpReturn\n"
                 "OpFunctionEnd",
       types="%gty = OpTypeFunction %void"),
     "function.no-recursion", "cycles", "OpFunction", False),
    ("function-entry-void", "vulkan1.0", None, "function.entry-point-void", "return type is not void",
     "OpEntryPoint", True),
    ("atomics-storage", "opencl2.2", K(body="%x = OpAtomicIAdd %uint %in %uint_1 %uint_0 %uint_1",
                                       types="%pin = OpTypePointer Input %uint\n%in = OpVariable %pin Input",
                                       interface="%in"),
     "opencl.atomic-storage-class", "storage class", "OpAtomicIAdd", True),
    ("atomics-value", "opencl2.2", K(body="%x = OpAtomicIAdd %uint %buf %uint_1 %uint_0 %float_1"),
     "atomics.value-type", "Value", "OpAtomicIAdd", True),
    ("semantics-two-orders", "opencl2.2", K(body="OpMemoryBarrier %uint_2 %sem", types="%sem = OpConstant %uint 6"),
     "semantics.one-order", "at most one", "OpMemoryBarrier", True),
    ("scope-shader-constant", "vulkan1.0",
     S(types="%pw = OpTypePointer Function %uint", body="%v = OpVariable %pw Function\n%s = OpLoad %uint %v\n"
                                                        "OpControlBarrier %s %uint_2 %uint_0"),
     "scopes.constant", "OpConstant", "OpControlBarrier", True),
    ("vulkan-memory-barrier", "vulkan1.0", S(body="OpMemoryBarrier %uint_1 %uint_0"),
     "vulkan.memory-barrier-semantics", "Acquire", "OpMemoryBarrier", True),
    ("vulkan-exec-scope", "vulkan1.0", S(body="OpControlBarrier %uint_1 %uint_1 %uint_0"),
     "vulkan.execution-scope", "Workgroup and Subgroup", "OpControlBarrier", True),
    ("vulkan-initializer", "vulkan1.0",
     S(types="%pw = OpTypePointer Workgroup %uint\n%w = OpVariable %pw Workgroup %uint_0"),
     "vulkan.initializer", "initializer", "OpVariable", True),
    ("vulkan-uniform-constant", "vulkan1.0",
     S(types="%pu = OpTypePointer UniformConstant %uint\n%u = OpVariable %pu UniformConstant",
       annotations="OpDecorate %u DescriptorSet 0\nOpDecorate %u Binding 0"),
     "vulkan.uniform-constant", "opaque resources", "OpVariable", True),
    ("vulkan-workgroup-size", "vulkan1.0", None, "vulkan.workgroup-size", "LocalSize", "OpEntryPoint", True),
    ("vulkan-addressing", "vulkan1.0", None, "vulkan.addressing-model", "Logical", "OpMemoryModel", True),
    ("opencl-addressing", "opencl2.2", None, "opencl.addressing-model", "Physical32 or Physical64",
     "OpMemoryModel", True),
    ("opencl-image-sampled-type", "opencl2.2",
     K(caps="OpCapability ImageBasic", types="%img = OpTypeImage %float 2D 0 0 0 0 Unknown ReadOnly"),
     "opencl.image-type", "OpTypeVoid", "OpTypeImage", True),
    ("opencl-atomic-scope-1.2", "opencl1.2", K(body="%x = OpAtomicIAdd %uint %buf %uint_2 %uint_0 %uint_1"),
     "opencl.atomic-scope", "Device", "OpAtomicIAdd", False),
    ("opencl-exec-scope", "opencl2.0", K(body="OpControlBarrier %uint_1 %uint_2 %uint_0"),
     "opencl.execution-scope", "Workgroup", "OpControlBarrier", False),
    ("opencl-builtin-input", "opencl2.2",
     K(types="%v3 = OpTypeVector %ulong 3\n%pv = OpTypePointer CrossWorkgroup %v3\n%gid = OpVariable %pv CrossWorkgroup",
       annotations="OpDecorate %gid BuiltIn GlobalInvocationId"),
     "opencl.builtin-storage-class", "Input", "OpVariable", False),
    ("extinst-opencl-std", "opencl2.2",
     K(caps='%cl = OpExtInstImport "OpenCL.std"', body="%x = OpExtInst %uint %cl sqrt %float_1"),
     "extinst.opencl-std", "float scalar or vector", "OpExtInst", True),
    ("extinst-glsl", "vulkan1.0",
     S(caps='%gl = OpExtInstImport "GLSL.std.450"', body="%x = OpExtInst %float %gl Floor %uint_1"),
     "extinst.glsl-std-450", "equal to Result Type", "OpExtInst", True),
    ("limits-struct-members", "opencl2.2", None, "limits.struct-members", "exceeded", "OpTypeStruct", False),
]

_SPECIAL = {
    "function-entry-void": lambda: S(types="%gty = OpTypeFunction %uint").replace(
        "%main = OpFunction %void None %fnty\n%entry = OpLabel\n\nOpReturn",
        "%main = OpFunction %uint None %gty\n%entry = OpLabel\n\nOpReturnValue %uint_0"),
    "vulkan-workgroup-size": lambda: S().replace("OpExecutionMode %main LocalSize 1 1 1\n", ""),
    "vulkan-addressing": lambda: S(caps="OpCapability Addresses").replace("Logical GLSL450", "Physical64 GLSL450"),
    "opencl-addressing": lambda: K().replace("OpCapability Addresses\n", "").replace("Physical64 OpenCL",
                                                                                      "Logical OpenCL"),
    "limits-struct-members": lambda: K(types="%big = OpTypeStruct " + " ".join(["%uint"] * 20)),
}


# Vulkan forbids the Addresses capability that a physical addressing model needs, so the
# capability table fires first.
_NOT_FIRST = {"vulkan-addressing"}


def _text(case_id, text):
    return _SPECIAL[case_id]() if text is None else text


def _assemble(text, env):
    asm_env = "spv1.6" if env == "opencl3.0" else env
    return spirvkit.assemble(text, asm_env)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_rule_fires(case):
    case_id, env, text, rule, fragment, opname, _peer = case
    binary = _assemble(_text(case_id, text), env)
    options = None
    if case_id == "limits-struct-members":
        options = spirvkit.ValidatorOptions(max_struct_members=16)
    if case_id in ("opencl-atomic-scope-1.2", "opencl-exec-scope"):
        options = spirvkit.ValidatorOptions(strict_opencl_version_rules=True)
    diagnostics = validate(binary, env, options=options, max_errors=None)
    assert diagnostics, f"{case_id}: no diagnostic"
    first = diagnostics[0]
    if case_id in _NOT_FIRST:  # the rule cannot be broken alone: check it is among the diagnostics
        first = next((d for d in diagnostics if d.rule == rule), first)
    assert first.rule == rule, f"{case_id}: {first}"
    assert fragment in first.message
    assert first.section
    if opname is not None:
        assert first.instruction is not None and opname in first.instruction
        assert first.word_offset == offset_of(binary, opname, _nth(binary, opname, first.word_offset))


def _nth(binary, opname, offset):
    from spirvkit import Module

    seen = 0
    for inst in Module.from_bytes(binary).instructions:
        if inst.opname == opname:
            if inst.offset == offset:
                return seen
            seen += 1
    return 0


# limits-struct-members uses a lowered validator limit, which spirv-val cannot be given.
PEER_CASES = [c for c in CASES if c[6] is not None and c[0] != "limits-struct-members"]


@pytest.mark.parametrize("case", PEER_CASES, ids=[c[0] for c in PEER_CASES])
def test_peer_agrees(case):
    """spirv-val rejects the same module where it implements the rule (True), and accepts it where
    the rule is one spirv-val does not check (False; listed in docs/validation-coverage.md)."""
    case_id, env, text, *_rest, peer_rejects = case
    binary = _assemble(_text(case_id, text), env)
    result = run_tool("spirv-val", ["--target-env", env, "-"], binary)
    assert (result.returncode != 0) == peer_rejects, result.stderr.decode()


def test_undefined_id():
    binary = spirvkit.assemble(K(body="%x = OpIAdd %uint %uint_1 %uint_1"), "opencl2.2")
    broken = patch_word(binary, "OpIAdd", 3, 500)
    d = validate(broken, "opencl2.2")
    assert d[0].rule == "ids.defined"


def test_max_errors_collects_more():
    text = K(types="%a = OpTypeVector %uint 5\n%b = OpTypeVector %uint 6")
    binary = spirvkit.assemble(text, "opencl2.2")
    assert len(validate(binary, "opencl2.2")) == 1
    assert len(validate(binary, "opencl2.2", max_errors=None)) == 2
    assert len(validate(binary, "opencl2.2", max_errors=5)) == 2


def test_subgroup_execution_scope_needs_cl_khr_subgroups_before_2_1():
    """OpenCL 1.2/2.0: "Scope for Execution is generally limited to: Workgroup" (OLD); Subgroup with
    cl_khr_subgroups, declared by the module (OLD) or the device's (``extensions``), as the memory
    scope (issue 20: no longer opt-in). 1.2's atomic scope is Device whatever the extensions."""
    text = K(types="%uint_3 = OpConstant %uint 3\n%seq_cst_wg = OpConstant %uint 0x110",
             body="OpControlBarrier %uint_3 %uint_2 %seq_cst_wg")
    binary = spirvkit.assemble(text, "opencl2.0")
    for env in ("opencl1.2", "opencl2.0"):
        assert validate(binary, env)[0].rule == "opencl.execution-scope"
        device = spirvkit.ValidatorOptions(extensions={"cl_khr_subgroups"})
        assert validate(binary, env, options=device) == []
    declared = spirvkit.assemble(K(caps='OpExtension "cl_khr_subgroups"', types="%uint_3 = OpConstant %uint 3",
                                   body="OpControlBarrier %uint_3 %uint_3 %uint_0"), "opencl2.0")
    assert validate(declared, "opencl2.0") == []
    assert validate(binary, "opencl2.1") == []
    atomic = spirvkit.assemble(K(body="%x = OpAtomicIAdd %uint %buf %uint_2 %uint_0 %uint_1"), "opencl1.2")
    assert validate(atomic, "opencl1.2")[0].rule == "opencl.atomic-scope"


def test_opencl3_feature_options():
    text = K(caps="OpCapability Pipes")
    binary = spirvkit.assemble(text, "spv1.0")
    assert validate(binary, "opencl3.0")[0].rule == "opencl.capability-table"
    assert validate(binary, "opencl3.0", options=spirvkit.ValidatorOptions(pipes=True)) == []
    assert validate(binary, "opencl2.2") == []
