"""The OpenCL environment rules per version that the second reading of both environment texts
(issue 20; the table is docs/opencl-env-rules.md) found unchecked, each an invalid module and its
valid twin:

* execution scope Subgroup on OpenCL 1.2 and 2.0 only with cl_khr_subgroups (OLD 1.2/2.0 "Scope for
  Execution is generally limited to: Workgroup"; NEW 4 and 5.2.11), as the memory scope already was;
  OpGroupAsyncCopy/OpGroupWaitEvents stay Workgroup even then;
* atomic memory scope Invocation in every 2.x version (NEW 4: the atomics' list has no Invocation),
  execution scope other than Workgroup/Subgroup;
* cl_khr_mipmap_image: a non-zero Lod on OpImageSampleExplicitLod/OpImageQuerySizeLod, and any Lod on
  OpImageRead, need the extension (NEW 5.2.9, OLD cl_khr_mipmap_image);
* OLD: a cl_khr_* extension the module declares with OpExtension enables its rules
  (cl_khr_3d_image_writes, cl_khr_subgroups ...);
* cl_khr_subgroup_ballot: the ballot family's Value and the Subgroup*Mask built-ins are uint4
  (NEW 5.2.16);
* OpMemoryNamedBarrier's memory scope is a barrier's (NEW 4; gated by ``fence_scopes`` on 3.0).

spirvkit must report the rule on the invalid module and nothing on its twin; spirv-val's verdicts
are pinned: where it checks a rule it rejects the invalid module too, where it does not (the
environment's own rules, docs/validator-differences.md) it accepts both."""

from __future__ import annotations

import pytest
from peers import run_tool
from val_modules import image_kernel
from val_modules import kernel as K

import spirvkit
from spirvkit.validate import validate

_TYPES = "%uint_3 = OpConstant %uint 3\n%uint_4 = OpConstant %uint 4\n%seq_cst_wg = OpConstant %uint 0x110\n" \
         "%_ptr_Workgroup_uint = OpTypePointer Workgroup %uint"
_SUBGROUPS = 'OpExtension "cl_khr_subgroups"'


def _k(body: str, caps: str = "", types: str = "") -> str:
    return K(caps=caps, types=_TYPES + ("\n" + types if types else ""), body=body)


def _async_copy(scope: str, caps: str = "") -> str:
    return _k(f"%e = OpGroupAsyncCopy %event {scope} %lv %buf %ulong_1 %ulong_1 %null_event", caps,
              "%event = OpTypeEvent\n%ulong_1 = OpConstant %ulong 1\n%null_event = OpConstantNull %event\n"
              "%lv = OpVariable %_ptr_Workgroup_uint Workgroup")


def _image(body: str, caps: str = "") -> str:
    """A kernel taking a read-only 2D image, a sampler and a write-only 3D image."""
    return image_kernel({"%im": "%img", "%sm": "%smp", "%im3": "%img3"}, body, caps,
                        "%float_m0 = OpConstant %float -0.0\n%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n"
                        "%img3 = OpTypeImage %void 3D 0 0 0 0 Unknown WriteOnly\n%smp = OpTypeSampler\n"
                        "%simg = OpTypeSampledImage %img")


def _struct_argument(members: str) -> str:
    """A kernel whose one argument is passed as the OpTypeStruct itself (not a ByVal pointer)."""
    text = K(types=f"%uint_4 = OpConstant %uint 4\n%arr = OpTypeArray %uint %uint_4\n%v2bool = OpTypeVector %bool 2\n"
                   f"%v2uint = OpTypeVector %uint 2\n%inner = OpTypeStruct %uint {members}\n"
                   f"%st = OpTypeStruct %float %inner\n%fnst = OpTypeFunction %void %st")
    return text.replace("%main = OpFunction %void None %fnty\n%buf = OpFunctionParameter %_ptr_CrossWorkgroup_uint",
                        "%main = OpFunction %void None %fnst\n%arg = OpFunctionParameter %st")


def _argument(type_: str) -> str:
    """A kernel whose one argument has type ``type_`` (an id of _struct_argument's types, or %event)."""
    return _struct_argument("%uint").replace("%fnst = OpTypeFunction %void %st",
                                             f"%event = OpTypeEvent\n%fnst = OpTypeFunction %void {type_}") \
        .replace("%arg = OpFunctionParameter %st", f"%arg = OpFunctionParameter {type_}")


_SAMPLE = "%si = OpSampledImage %simg %im %sm\n%x = OpImageSampleExplicitLod %v4float %si %fc2 Lod {lod}"
_3D_WRITES = 'OpExtension "cl_khr_3d_image_writes"'
_MIPMAP = spirvkit.ValidatorOptions(extensions={"cl_khr_mipmap_image"})

# (id, env, invalid module, valid twin, rule, spirv-val rejects the invalid one)
CASES = [
    # OLD, OpenCL 1.2 / 2.0 Validation Rules: "Scope for Execution is generally limited to:
    # Workgroup"; cl_khr_subgroups (declared with OpExtension, OLD) adds Subgroup.
    ("opencl1.2-exec-scope-subgroup", "opencl1.2", _k("OpControlBarrier %uint_3 %uint_2 %seq_cst_wg"),
     _k("OpControlBarrier %uint_3 %uint_2 %seq_cst_wg", _SUBGROUPS), "opencl.execution-scope", False),
    ("opencl2.0-exec-scope-subgroup", "opencl2.0", _k("OpControlBarrier %uint_3 %uint_2 %uint_0"),
     _k("OpControlBarrier %uint_3 %uint_2 %uint_0", _SUBGROUPS), "opencl.execution-scope", False),
    ("opencl2.0-group-exec-scope-subgroup", "opencl2.0",
     _k("%x = OpGroupIAdd %uint %uint_3 Reduce %uint_1", "OpCapability Groups"),
     _k("%x = OpGroupIAdd %uint %uint_2 Reduce %uint_1", "OpCapability Groups"), "opencl.execution-scope", False),
    # NEW 5.2.11: "for all instructions except OpGroupAsyncCopy and OpGroupWaitEvents the Scope for
    # Execution may be: Subgroup"
    ("opencl2.0-async-copy-subgroup-with-cl_khr_subgroups", "opencl2.0", _async_copy("%uint_3", _SUBGROUPS),
     _async_copy("%uint_2", _SUBGROUPS), "opencl.execution-scope", False),
    ("opencl2.2-async-copy-subgroup", "opencl2.2", _async_copy("%uint_3"), _async_copy("%uint_2"),
     "opencl.execution-scope", False),
    # NEW 4: "For all other instructions, Scope for Execution must be one of: Workgroup, Subgroup"
    ("opencl2.1-exec-scope-invocation", "opencl2.1", _k("OpControlBarrier %uint_4 %uint_2 %uint_0"),
     _k("OpControlBarrier %uint_3 %uint_2 %uint_0"), "opencl.execution-scope", False),
    ("opencl2.2-exec-scope-device", "opencl2.2", _k("OpControlBarrier %uint_1 %uint_1 %uint_0"),
     _k("OpControlBarrier %uint_2 %uint_1 %uint_0"), "opencl.execution-scope", False),
    # NEW 4, atomics (2.0+): Scope for Memory is CrossDevice, Device, Workgroup (Subgroup on 2.1+):
    # never Invocation, which the barriers' list has.
    ("opencl2.0-atomic-scope-invocation", "opencl2.0", _k("%x = OpAtomicIAdd %uint %buf %uint_4 %uint_0 %uint_1"),
     _k("%x = OpAtomicIAdd %uint %buf %uint_0 %uint_0 %uint_1"), "opencl.atomic-scope", False),
    ("opencl2.2-atomic-scope-invocation", "opencl2.2", _k("%x = OpAtomicLoad %uint %buf %uint_4 %uint_0"),
     _k("OpMemoryBarrier %uint_4 %uint_0\n%x = OpAtomicLoad %uint %buf %uint_3 %uint_0"), "opencl.atomic-scope",
     False),
    # cl_khr_mipmap_image (NEW 5.2.9): non-zero Lod with the extension only; OpImageRead takes a Lod
    # only through it (SPIR-V 3.14: Lod is for explicit-lod instructions and OpImageFetch), and
    # spirv-val rejects that one too.
    ("opencl2.0-sample-lod-1", "opencl2.0", _image(_SAMPLE.format(lod="%float_1")),
     _image(_SAMPLE.format(lod="%float_m0")), "opencl.image-lod", False),
    ("opencl2.2-query-size-lod-1", "opencl2.2", _image("%x = OpImageQuerySizeLod %v2uint %im %uint_1"),
     _image("%x = OpImageQuerySizeLod %v2uint %im %uint_0"), "opencl.image-lod", False),
    ("opencl1.2-read-lod", "opencl1.2", _image("%x = OpImageRead %v4float %im %c2 Lod %uint_0"),
     _image("%x = OpImageRead %v4float %im %c2"), "opencl.image-lod", True),
    # OLD and NEW 2.8.2: "For OpTypeStruct parameters, supported structure Member Types are: OpTypeInt,
    # OpTypeFloat, OpTypeStruct, OpTypeVector, OpTypePointer"; "OpenCL kernel argument types must
    # have a representation in the OpenCL host API" (no bool vectors)
    ("opencl2.0-kernel-struct-bool-member", "opencl2.0", _struct_argument("%bool"), _struct_argument("%ulong"),
     "opencl.kernel-parameter", False),
    ("opencl2.2-kernel-struct-array-member", "opencl2.2", _struct_argument("%arr"), _struct_argument("%v2uint"),
     "opencl.kernel-parameter", False),
    ("opencl1.2-kernel-struct-bool-vector-member", "opencl1.2", _struct_argument("%v2bool"),
     _struct_argument("%v2uint"), "opencl.kernel-parameter", False),
    # the list has no OpTypeArray (C arrays decay to pointers) and no OpTypeEvent
    ("opencl2.2-kernel-array-argument", "opencl2.2", _argument("%arr"), _argument("%v2uint"),
     "opencl.kernel-parameter", False),
    ("opencl2.0-kernel-event-argument", "opencl2.0", _argument("%event"), _argument("%st"),
     "opencl.kernel-parameter", False),
    # OLD cl_khr_3d_image_writes: "and use of the extension is declared in the module using OpExtension"
    ("opencl2.0-3d-write-declared", "opencl2.0", _image("OpImageWrite %im3 %c4 %texel"),
     _image("OpImageWrite %im3 %c4 %texel", _3D_WRITES), "opencl.image-write-3d", False),
]


def _assemble(text: str, env: str) -> bytes:
    return spirvkit.assemble(text, "spv1.6" if env == "opencl3.0" else env)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_invalid_module_breaks_the_rule(case):
    case_id, env, invalid, _valid, rule, _peer = case
    diagnostics = validate(_assemble(invalid, env), env, max_errors=None)
    assert diagnostics and diagnostics[0].rule == rule, f"{case_id}: {diagnostics[:2]}"
    assert diagnostics[0].section and diagnostics[0].instruction


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_valid_twin_passes(case):
    case_id, env, _invalid, valid, _rule, _peer = case
    assert validate(_assemble(valid, env), env, max_errors=None) == [], case_id


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_spirv_val_verdicts(case):
    case_id, env, invalid, valid, _rule, peer_rejects = case
    for text, expect_valid in ((invalid, not peer_rejects), (valid, True)):
        result = run_tool("spirv-val", ["--target-env", env, "-"], _assemble(text, env))
        assert (result.returncode == 0) == expect_valid, f"{case_id}: {result.stderr.decode()}"


def test_mipmap_extension_allows_lod():
    """With cl_khr_mipmap_image on the device (or _writes, which implies it) every Lod is accepted."""
    for body in (_SAMPLE.format(lod="%float_1"), "%x = OpImageQuerySizeLod %v2uint %im %uint_1",
                 "%x = OpImageRead %v4float %im %c2 Lod %uint_1"):
        binary = _assemble(_image(body), "opencl2.0")
        assert validate(binary, "opencl2.0", options=_MIPMAP) == [], body
        writes = spirvkit.ValidatorOptions(extensions={"cl_khr_mipmap_image_writes"})
        assert validate(binary, "opencl2.0", options=writes) == [], body
        # OLD: declaring the extension in the module enables it; NEW (3.0): never declared
        declared = _assemble(_image(body, 'OpExtension "cl_khr_mipmap_image"'), "opencl2.0")
        assert validate(declared, "opencl2.0") == [], body
        assert validate(declared, "opencl3.0")[0].rule == "opencl.extension-name"


_BALLOT = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformBallot"
_BALLOT_TYPES = "%v4ulong = OpTypeVector %ulong 4\n%ulong_0 = OpConstant %ulong 0\n" \
                "%mask64 = OpConstantComposite %v4ulong %ulong_0 %ulong_0 %ulong_0 %ulong_0\n" \
                "%mask = OpConstantComposite %v4uint %uint_0 %uint_0 %uint_0 %uint_0"


@pytest.mark.parametrize("instruction", [
    "%x = OpGroupNonUniformInverseBallot %bool %uint_3 {m}",
    "%x = OpGroupNonUniformBallotBitExtract %bool %uint_3 {m} %uint_0",
    "%x = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce {m}",
    "%x = OpGroupNonUniformBallotFindLSB %uint %uint_3 {m}",
    "%x = OpGroupNonUniformBallotFindMSB %uint %uint_3 {m}",
])
def test_ballot_value_is_uint4(instruction):
    """NEW 5.2.16: "the valid type for Value is an OpTypeVector with four Component Count components
    of OpTypeInt, with Width equal to 32" (spirv-val, for SPIR-V 1.6, takes any integer width)."""
    invalid = _assemble(_k(instruction.format(m="%mask64"), _BALLOT, _BALLOT_TYPES), "opencl3.0")
    valid = _assemble(_k(instruction.format(m="%mask"), _BALLOT, _BALLOT_TYPES), "opencl3.0")
    options = spirvkit.ValidatorOptions(extensions={"cl_khr_subgroup_ballot"})
    assert validate(invalid, "opencl3.0", options=options)[0].rule == "opencl.group-type"
    assert validate(valid, "opencl3.0", options=options) == []
    for binary in (invalid, valid):
        assert run_tool("spirv-val", ["--target-env", "spv1.6", "-"], binary).returncode == 0


def _mask_builtin(vector: str) -> bytes:
    text = K(caps=_BALLOT, interface="%m", annotations="OpDecorate %m BuiltIn SubgroupLtMask",
             types=f"{_BALLOT_TYPES}\n%pm = OpTypePointer Input {vector}\n%m = OpVariable %pm Input",
             body=f"%x = OpLoad {vector} %m")
    return _assemble(text, "opencl3.0")


def test_subgroup_mask_builtins_are_uint4():
    """NEW 5.2.16: "For built-in variables decorated with SubgroupEqMask, SubgroupGeMask,
    SubgroupGtMask, SubgroupLeMask, or SubgroupLtMask, the supported variable type is an
    OpTypeVector with four Component Count components of OpTypeInt, with Width equal to 32"."""
    options = spirvkit.ValidatorOptions(extensions={"cl_khr_subgroup_ballot"})
    assert validate(_mask_builtin("%v4ulong"), "opencl3.0", options=options)[0].rule == "opencl.builtin-type"
    assert validate(_mask_builtin("%v4uint"), "opencl3.0", options=options) == []
    assert run_tool("spirv-val", ["--target-env", "spv1.6", "-"], _mask_builtin("%v4uint")).returncode == 0


def _named_barrier(scope: str) -> bytes:
    text = _k(f"%b = OpNamedBarrierInitialize %nb %uint_1\nOpMemoryNamedBarrier %b {scope} %seq_cst_wg",
              "OpCapability NamedBarrier", "%nb = OpTypeNamedBarrier")
    return _assemble(text, "opencl3.0")


def test_named_barrier_memory_scope_is_a_fence_scope():
    """OpMemoryNamedBarrier's Memory scope follows the barriers' list (NEW 4): on an OpenCL 3.0
    device, the scopes of CL_DEVICE_ATOMIC_FENCE_CAPABILITIES (``fence_scopes``)."""
    options = spirvkit.ValidatorOptions(extensions={"cl_khr_subgroup_named_barrier"},
                                        fence_scopes=frozenset({"Workgroup"}))
    assert validate(_named_barrier("%uint_1"), "opencl3.0", options=options)[0].rule == "opencl.barrier-scope"
    assert validate(_named_barrier("%uint_2"), "opencl3.0", options=options) == []


def test_opencl3_fence_and_atomic_capabilities():
    """NEW 4: on a 3.0 device each memory scope and order is allowed only if the device reports it
    in CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES (atomics) / CL_DEVICE_ATOMIC_FENCE_CAPABILITIES (barriers)."""
    minimal = spirvkit.ValidatorOptions(atomic_scopes=frozenset({"Workgroup"}), atomic_orders=frozenset({"Relaxed"}),
                                        fence_scopes=frozenset({"Workgroup"}), fence_orders=frozenset({"Relaxed"}))
    cases = [("%x = OpAtomicIAdd %uint %buf %uint_1 %uint_0 %uint_1", "%x = OpAtomicIAdd %uint %buf %uint_2 %uint_0 "
              "%uint_1", "opencl.atomic-scope"),
             ("%x = OpAtomicIAdd %uint %buf %uint_2 %seq_cst_wg %uint_1",
              "%x = OpAtomicIAdd %uint %buf %uint_2 %uint_0 %uint_1", "opencl.memory-order"),
             ("OpMemoryBarrier %uint_1 %uint_0", "OpMemoryBarrier %uint_2 %uint_0", "opencl.barrier-scope"),
             ("OpMemoryBarrier %uint_2 %seq_cst_wg", "OpMemoryBarrier %uint_2 %uint_0", "opencl.memory-order")]
    for invalid, valid, rule in cases:
        assert validate(_assemble(_k(invalid), "opencl3.0"), "opencl3.0", options=minimal)[0].rule == rule, invalid
        assert validate(_assemble(_k(valid), "opencl3.0"), "opencl3.0", options=minimal) == [], valid
        assert validate(_assemble(_k(invalid), "opencl3.0"), "opencl3.0") == [], invalid


def test_program_scope_variables_need_the_device_feature():
    """OpenCL 3.0: a program-scope CrossWorkgroup variable needs a device with program scope global
    variables (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE != 0, ``program_scope_global_variables``)."""
    binary = _assemble(_k("", types="%g = OpVariable %_ptr_CrossWorkgroup_uint CrossWorkgroup"), "opencl3.0")
    without = spirvkit.ValidatorOptions(program_scope_global_variables=False)
    assert validate(binary, "opencl3.0", options=without)[0].rule == "opencl.program-scope-variable"
    assert validate(binary, "opencl3.0") == []


@pytest.mark.parametrize("env", ["opencl1.2", "opencl2.0", "opencl2.2"])
def test_double_kernel_argument_with_float64(env):
    # OLD 2.8.2: "For OpTypeFloat parameters, Width must be 32", then "Environments that support
    # extensions or optional features may allow additional types in an entry point's parameter
    # list": a module declaring Float64 is for a cl_khr_fp64 device, whose kernels take doubles
    # (clang + llvm-spirv-15 and spirvkit cc emit them; spirv-val accepts them).
    text = _argument("%double").replace("%fnst = ", "%double = OpTypeFloat 64\n%fnst = ") \
        .replace("OpCapability Kernel", "OpCapability Kernel\nOpCapability Float64", 1)
    binary = _assemble(text, env)
    assert validate(binary, target_env=env) == []
    assert run_tool("spirv-val", ["--target-env", env, "-"], binary).returncode == 0
    # A half argument where the module has only Float16Buffer (no cl_khr_fp16 device): refused.
    half = _assemble(text.replace("OpCapability Float64", "OpCapability Float16Buffer")
                     .replace("%double = OpTypeFloat 64", "%double = OpTypeFloat 16"), env)
    assert [p.rule for p in validate(half, target_env=env)] == ["opencl.kernel-parameter"]
