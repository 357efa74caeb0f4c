"""Issue 20's validator items, each an invalid module and its valid twin:

* false positives spirvkit had: OpDecorateId with UniformId (a Scope <id>: the decorations taking
  <id>s come from the grammar's operand kinds), and a Vulkan Workgroup variable initialised with
  OpConstantNull (VUID-StandaloneSpirv-OpVariable-04734);
* false negatives: OpCopyMemory(Sized) with two memory-access operands before SPIR-V 1.4, and the
  OpenCL environment's scope, memory-order and width rules of atomics and barriers per version
  (OpenCL env 2.24, 2.27-2.30: the OLD 1.2-2.2 text and the NEW 3.0 text).

spirvkit must report the rule on the invalid module and nothing on its twin. spirv-val must give
the same verdicts where it checks the rule; the OpenCL env rules it does not check (docs/
validator-differences.md) it accepts both, and the test pins that too so the difference stays
documented rather than drifting."""

from __future__ import annotations

import pytest
from peers import run_tool
from val_modules import kernel as K
from val_modules import shader as S

import spirvkit
from spirvkit.validate import validate

_UNIFORM_ID = dict(caps="OpCapability GroupNonUniform", types="%uint_3 = OpConstant %uint 3\n"
                   "%pf = OpTypePointer Function %uint", body="%v = OpVariable %pf Function\n%x = OpLoad %uint %v")


def _uniform_id(opcode: str) -> str:
    return S(annotations=f"{opcode} %x UniformId %uint_3", **_UNIFORM_ID)


_EXPLICIT_LAYOUT = """OpCapability WorkgroupMemoryExplicitLayoutKHR
OpExtension "SPV_KHR_workgroup_memory_explicit_layout\""""


def _workgroup_init(init: str, explicit_layout: bool = False) -> str:
    """A Workgroup variable with an initializer; with SPV_KHR_workgroup_memory_explicit_layout a
    Block struct, as that extension lays Workgroup memory out."""
    if explicit_layout:
        return S(caps=_EXPLICIT_LAYOUT, interface="%w", annotations="OpDecorate %blk Block\n"
                 "OpMemberDecorate %blk 0 Offset 0",
                 types=f"%blk = OpTypeStruct %uint\n%pw = OpTypePointer Workgroup %blk\n%null = OpConstantNull %blk\n"
                       f"%one = OpConstantComposite %blk %uint_1\n%w = OpVariable %pw Workgroup {init}")
    return S(types=f"%pw = OpTypePointer Workgroup %uint\n%null = OpConstantNull %uint\n"
                   f"%one = OpConstant %uint 1\n%w = OpVariable %pw Workgroup {init}")


def _copy(operands: str, sized: bool = False) -> str:
    copy = "OpCopyMemorySized %a %b %ulong_4" if sized else "OpCopyMemory %a %b"
    return K(types="%ulong_4 = OpConstant %ulong 4",
             body=f"%a = OpVariable %_ptr_Function_uint Function\n%b = OpVariable %_ptr_Function_uint Function\n"
                  f"{copy} {operands}")


_SCOPES = "%uint_3 = OpConstant %uint 3\n%seq_cst = OpConstant %uint 0x10\n%seq_cst_wg = OpConstant %uint 0x110\n" \
          "%acq_rel_wg = OpConstant %uint 0x108"
_SUBGROUPS = 'OpExtension "cl_khr_subgroups"'


def _atomic(scope: str, semantics: str = "%uint_0", caps: str = "") -> str:
    return K(caps=caps, types=_SCOPES, body=f"%x = OpAtomicIAdd %uint %buf {scope} {semantics} %uint_1")


def _barrier(memory: str, semantics: str = "%seq_cst_wg", caps: str = "", opcode: str = "OpControlBarrier %uint_2"
             ) -> str:
    return K(caps=caps, types=_SCOPES, body=f"{opcode} {memory} {semantics}")


def _atomic_width(width: int, spirv_1_4: bool = False) -> str:
    caps = {8: "OpCapability Int8", 16: "OpCapability Int16"}.get(width, "")
    name = f"%i{width}"
    types = (f"{name} = OpTypeInt {width} 0\n%p{width} = OpTypePointer Workgroup {name}\n"
             f"%w{width} = OpVariable %p{width} Workgroup\n" if width != 32 else "%w32 = OpVariable %pwu Workgroup\n")
    return K(caps=caps, types="%pwu = OpTypePointer Workgroup %uint\n" + types,
             interface=f"%w{width}" if spirv_1_4 else "",
             body=f"%x = OpAtomicLoad {name if width != 32 else '%uint'} %w{width} %uint_1 %uint_0")


# (id, env, invalid module, valid twin, rule, spirv-val rejects the invalid one, env of the twin)
CASES = [
    ("uniform-id-decorate-id", "spv1.5", _uniform_id("OpDecorate"), _uniform_id("OpDecorateId"),
     "decorations.decorate-id", True, None),
    ("vulkan-workgroup-null-1.0", "vulkan1.0", _workgroup_init("%one"), _workgroup_init("%null"),
     "vulkan.initializer", True, None),
    ("vulkan-workgroup-null-explicit-layout-1.1spv1.4", "vulkan1.1spv1.4", _workgroup_init("%one", True),
     _workgroup_init("%null", True), "vulkan.initializer", True, None),
    ("vulkan-workgroup-null-explicit-layout-1.2", "vulkan1.2", _workgroup_init("%one", True),
     _workgroup_init("%null", True), "vulkan.initializer", True, None),
    ("copy-memory-two-operands-1.3", "spv1.3", _copy("Aligned 4 Aligned 4"), _copy("Aligned 4"),
     "memory.copy-access-operands", True, None),
    ("copy-memory-sized-two-operands-1.0", "spv1.0", _copy("Volatile Volatile", sized=True),
     _copy("Volatile", sized=True), "memory.copy-access-operands", True, None),
    ("copy-memory-two-operands-in-1.4", "spv1.3", _copy("Aligned 4 Nontemporal"), _copy("Aligned 4 Nontemporal"),
     "memory.copy-access-operands", True, "spv1.4"),
    # OpenCL env 2.27: "In an OpenCL 1.2 environment, for the Atomic Instructions, the Scope for
    # Memory must be Device, and the memory-order constraint in Memory Semantics must be Relaxed."
    ("opencl1.2-atomic-scope-workgroup", "opencl1.2", _atomic("%uint_2"), _atomic("%uint_1"),
     "opencl.atomic-scope", False, None),
    ("opencl1.2-atomic-scope-subgroup-with-cl_khr_subgroups", "opencl1.2", _atomic("%uint_3", caps=_SUBGROUPS),
     _atomic("%uint_1", caps=_SUBGROUPS), "opencl.atomic-scope", False, None),
    ("opencl1.2-atomic-order-seq-cst", "opencl1.2", _atomic("%uint_1", "%seq_cst"), _atomic("%uint_1", "%uint_0"),
     "opencl.atomic-order", False, None),
    ("opencl1.2-atomic-scope-cross-device", "opencl1.2", _atomic("%uint_0"), _atomic("%uint_1"),
     "opencl.atomic-scope", False, None),
    # OpenCL env 2.29: "In an OpenCL 1.2 environment, for the Barrier Instructions OpControlBarrier and
    # OpMemoryBarrier, the Scope for Memory must be Workgroup, and the memory-order constraint in
    # Memory Semantics must be SequentiallyConsistent." (the order bits only: 0x110 is SeqCst|Workgroup)
    ("opencl1.2-barrier-scope-device", "opencl1.2", _barrier("%uint_1"), _barrier("%uint_2"),
     "opencl.barrier-scope", False, None),
    ("opencl1.2-memory-barrier-scope-device", "opencl1.2", _barrier("%uint_1", opcode="OpMemoryBarrier"),
     _barrier("%uint_2", opcode="OpMemoryBarrier"), "opencl.barrier-scope", False, None),
    ("opencl1.2-barrier-order-acq-rel", "opencl1.2", _barrier("%uint_2", "%acq_rel_wg"), _barrier("%uint_2"),
     "opencl.barrier-order", False, None),
    ("opencl1.2-barrier-order-none", "opencl1.2", _barrier("%uint_2", "%uint_0"), _barrier("%uint_2", "%seq_cst"),
     "opencl.barrier-order", False, None),
    # NEW 5.2.11 cl_khr_subgroups: "for all instructions except Atomic Instructions in an OpenCL 1.2
    # environment, the Scope for Memory may be: Subgroup"
    ("opencl1.2-barrier-scope-subgroup", "opencl1.2", _barrier("%uint_3"), _barrier("%uint_3", caps=_SUBGROUPS),
     "opencl.barrier-scope", False, None),
    # OpenCL env 2.28/2.30: memory scope Subgroup "For OpenCL 2.1, OpenCL 2.2, or OpenCL 3.0 devices
    # supporting Subgroups" (or cl_khr_subgroups); OpenCL 2.0's list is CrossDevice, Device,
    # Workgroup, Invocation.
    ("opencl2.0-atomic-scope-subgroup", "opencl2.0", _atomic("%uint_3"), _atomic("%uint_3", caps=_SUBGROUPS),
     "opencl.atomic-scope", False, None),
    ("opencl2.0-atomic-scope-subgroup-in-2.1", "opencl2.0", _atomic("%uint_3"), _atomic("%uint_3"),
     "opencl.atomic-scope", False, "opencl2.1"),
    ("opencl2.0-barrier-scope-subgroup", "opencl2.0", _barrier("%uint_3"), _barrier("%uint_3", caps=_SUBGROUPS),
     "opencl.barrier-scope", False, None),
    # OpenCL env 2.24: "Only 32-bit integer types are supported for the Result Type and/or type of
    # Value for all Atomic Instructions."
    ("opencl2.0-atomic-width-16", "opencl2.0", _atomic_width(16), _atomic_width(32), "opencl.atomic-width", False,
     None),
    ("opencl1.2-atomic-width-8", "opencl1.2", _atomic_width(8), _atomic_width(32), "opencl.atomic-width", False,
     None),
    ("opencl2.2-atomic-width-16", "opencl2.2", _atomic_width(16), _atomic_width(32), "opencl.atomic-width", False,
     None),
]


def _assemble(text: str, env: str) -> bytes:
    return spirvkit.assemble(text, "spv1.6" if env == "opencl3.0" else env)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_invalid_module_breaks_the_rule(case):
    case_id, env, invalid, _valid, rule, _peer, _twin_env = case
    diagnostics = validate(_assemble(invalid, env), env, max_errors=None)
    assert diagnostics and diagnostics[0].rule == rule, f"{case_id}: {diagnostics[:2]}"
    assert diagnostics[0].section and diagnostics[0].instruction


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_valid_twin_passes(case):
    case_id, env, _invalid, valid, _rule, _peer, twin_env = case
    env = twin_env or env
    assert validate(_assemble(valid, env), env, max_errors=None) == [], case_id


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_spirv_val_verdicts(case):
    case_id, env, invalid, valid, _rule, peer_rejects, twin_env = case
    for text, text_env, expect_valid in ((invalid, env, not peer_rejects), (valid, twin_env or env, True)):
        result = run_tool("spirv-val", ["--target-env", text_env, "-"], _assemble(text, text_env))
        assert (result.returncode == 0) == expect_valid, f"{case_id}: {result.stderr.decode()}"


def test_opencl3_atomic_width_and_scopes():
    """NEW (OpenCL 3.0): the same width rule; Subgroup memory scope with the device's subgroups."""
    assert validate(_assemble(_atomic_width(16, True), "opencl3.0"), "opencl3.0")[0].rule == "opencl.atomic-width"
    assert validate(_assemble(_atomic_width(32, True), "opencl3.0"), "opencl3.0") == []
    subgroup = _assemble(_atomic("%uint_3"), "opencl3.0")
    assert validate(subgroup, "opencl3.0") == []
    no_subgroups = spirvkit.ValidatorOptions(subgroups=False)
    assert validate(subgroup, "opencl3.0", options=no_subgroups)[0].rule == "opencl.atomic-scope"


def test_cl_khr_subgroups_device_option():
    """The device's cl_khr_subgroups (ValidatorOptions.extensions) allows Subgroup memory scope
    like the module's OpExtension does, for barriers in 1.2 and atomics in 2.0, never for 1.2
    atomics."""
    options = spirvkit.ValidatorOptions(extensions={"cl_khr_subgroups"})
    assert validate(_assemble(_barrier("%uint_3"), "opencl1.2"), "opencl1.2", options=options) == []
    assert validate(_assemble(_atomic("%uint_3"), "opencl2.0"), "opencl2.0", options=options) == []
    assert validate(_assemble(_atomic("%uint_3"), "opencl1.2"), "opencl1.2",
                    options=options)[0].rule == "opencl.atomic-scope"


def test_decorations_taking_ids_come_from_the_grammar():
    """Every decoration whose grammar parameters include an <id> kind takes OpDecorateId."""
    from spirvkit.validate import opcodes as op
    from spirvkit.validate.decorations import _decoration_takes_ids

    class Ctx:
        grammar = op._g

    kinds = op._g.operand_kinds
    for e in kinds["Decoration"].enumerants:
        expected = any(kinds[p].category == "Id" for p in e.parameters)
        assert _decoration_takes_ids(Ctx, e.value) == expected, e.name
    assert _decoration_takes_ids(Ctx, kinds["Decoration"].by_name["UniformId"].value)
