"""Rules the second mutation search found missing (issue 20: ``tests/validate/gating_search.py``
with the ``decoration-kind`` and ``operand-version`` operators: every grammar decoration with
operands of its parameter kinds, through each decorate instruction, on each kind of target; version-
and capability-gated enumerants swapped into the operands of every instruction). spirv-val
rejected these modules and spirvkit accepted them:

* decorations no structure member takes (Uniform, UniformId, Index, AlignmentId, NoSignedWrap,
  NoUnsignedWrap, CounterBuffer), RelaxedPrecision on a type, Index outside the Output storage
  class, an OpDecorateId <id> parameter defined after its target;
* a ClusteredReduce without ClusterSize;
* image coordinates with fewer components than the image's dimensionality needs, and
  OpImageQuerySize(Lod) results with the wrong component count;
* Vulkan interface decorations: Component above 3, Location/Component on a BuiltIn variable,
  per-vertex built-ins (PointSize ...) and Invariant members outside Input/Output.

Each case is an invalid module and its valid twin: spirvkit reports the rule first on the invalid
one and nothing on the twin; spirv-val rejects the invalid one and accepts the twin."""

from __future__ import annotations

from peers import run_tool
from val_modules import image_kernel
from val_modules import rule_case_tests
from val_modules import kernel as K
from val_modules import shader as S

import spirvkit
from spirvkit.validate import validate

_STRUCT = "%st = OpTypeStruct %uint %float"


def _member(decoration: str, caps: str = "") -> str:
    return S(caps=caps, annotations=f"OpMemberDecorate %st 0 {decoration}", types=_STRUCT)


def _variable(decoration: str, sc: str = "Private", caps: str = "", interface: bool = False) -> str:
    return S(caps=caps, annotations=f"OpDecorate %v {decoration}", interface="%v" if interface else "",
             types=f"%pv = OpTypePointer {sc} %float\n%v = OpVariable %pv {sc}")


_CLUSTER = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\n" \
           "OpCapability GroupNonUniformClustered"
_SCOPES = "%uint_3 = OpConstant %uint 3\n%uint_4 = OpConstant %uint 4"


def _decorate_id(target: str) -> str:
    """UniformId's Scope <id> (%uint_3) against a target defined before or after it."""
    types = "%pf = OpTypePointer Function %uint"
    if target == "before":
        types = "%uint_3 = OpConstant %uint 3\n" + types
        return S(caps="OpCapability GroupNonUniform", annotations="OpDecorateId %x UniformId %uint_3", types=types,
                 body="%v = OpVariable %pf Function\n%x = OpLoad %uint %v")
    return S(caps="OpCapability GroupNonUniform", annotations="OpDecorateId %pf UniformId %uint_3",
             types=types + "\n%uint_3 = OpConstant %uint 3")


def _image_kernel(body: str) -> str:
    """A kernel taking a 2D image array (coordinates: u, v, layer)."""
    return image_kernel({"%im": "%img"}, body, types="%img = OpTypeImage %void 2D 0 1 0 0 Unknown ReadOnly")


_CL_TYPES = "%ulong_0 = OpConstant %ulong 0\n%v4 = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1"


def _vstoren(data: str) -> str:
    return K(caps='%cl = OpExtInstImport "OpenCL.std"', types=_CL_TYPES,
             body=f"%x = OpExtInst %void %cl vstoren {data} %ulong_0 %buf")


def _vloadn(n: str) -> str:
    return K(caps='%cl = OpExtInstImport "OpenCL.std"', types=_CL_TYPES,
             body=f"%x = OpExtInst %v4uint %cl vloadn %ulong_0 %buf {n}")


_PER_VERTEX = "OpMemberDecorate %pv_block 0 BuiltIn PointSize\nOpDecorate %pv_block Block"


def _builtin_member(sc: str) -> str:
    return S(annotations=_PER_VERTEX, interface="%pv_var" if sc == "Output" else "",
             types=f"%pv_block = OpTypeStruct %float\n%ppv = OpTypePointer {sc} %pv_block\n"
                   f"%pv_var = OpVariable %ppv {sc}")


def _invariant_member(sc: str) -> str:
    return S(annotations="OpMemberDecorate %blk 0 Invariant\nOpMemberDecorate %blk 0 Location 0" if sc == "Output"
             else "OpMemberDecorate %blk 0 Invariant",
             interface="%o" if sc == "Output" else "",
             types=f"%blk = OpTypeStruct %float\n%pb = OpTypePointer {sc} %blk\n%o = OpVariable %pb {sc}")


# (id, env, invalid module, valid twin, spirvkit rule)
CASES = [
    ("member-uniform", "spv1.6", _member("Uniform"), _member("RelaxedPrecision"), "decorations.member-target"),
    ("member-index", "spv1.0", _member("Index 0"), _member("Location 0"), "decorations.member-target"),
    ("member-no-signed-wrap", "spv1.4", _member("NoSignedWrap"), _member("Offset 0"), "decorations.member-target"),
    ("member-no-unsigned-wrap", "spv1.6", _member("NoUnsignedWrap"), _member("Volatile"),
     "decorations.member-target"),
    ("relaxed-precision-on-type", "spv1.0", S(annotations="OpDecorate %float RelaxedPrecision"),
     S(annotations="OpDecorate %x RelaxedPrecision", body="%x = OpFAdd %float %float_1 %float_1"),
     "decorations.target"),
    ("index-private", "vulkan1.0", _variable("Index 0"), _variable("Index 0", "Output", interface=True),
     "decorations.target"),
    ("decorate-id-parameter-after-target", "spv1.5", _decorate_id("after"), _decorate_id("before"),
     "decorations.decorate-id"),
    ("clustered-reduce-without-cluster-size", "spv1.3",
     S(caps=_CLUSTER, types=_SCOPES, body="%x = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1"),
     S(caps=_CLUSTER, types=_SCOPES,
       body="%x = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1 %uint_4"), "group.cluster-size"),
    ("image-read-coordinate-size", "opencl2.2", _image_kernel("%x = OpImageRead %v4float %im %c2"),
     _image_kernel("%x = OpImageRead %v4float %im %c4"), "image.operand-type"),
    # found by grammar-aware instruction insertion (the executor's lowering then failed)
    ("opencl-vstoren-scalar-data", "opencl2.2", _vstoren("%uint_1"), _vstoren("%v4"), "extinst.opencl-std"),
    ("opencl-vloadn-n-not-result-size", "opencl2.2", _vloadn("3"), _vloadn("4"), "extinst.opencl-std"),
    ("image-query-format-vector-result", "opencl2.2", _image_kernel("%x = OpImageQueryFormat %v4uint %im"),
     _image_kernel("%x = OpImageQueryFormat %uint %im"), "image.result-type"),
    ("image-query-order-not-an-image", "opencl2.2", _image_kernel("%x = OpImageQueryOrder %uint %uint_1"),
     _image_kernel("%x = OpImageQueryOrder %uint %im"), "image.operand-type"),
    ("image-query-size-components", "opencl2.2", _image_kernel("%x = OpImageQuerySizeLod %v2uint %im %uint_0"),
     _image_kernel("%x = OpImageQuerySizeLod %v3uint %im %uint_0"), "image.result-type"),
    ("vulkan-component-above-3", "vulkan1.0",
     _variable("Component 4", "Input", interface=True).replace("OpDecorate %v Component 4",
                                                                "OpDecorate %v Location 0\nOpDecorate %v Component 4"),
     _variable("Component 3", "Input", interface=True).replace("OpDecorate %v Component 3",
                                                                "OpDecorate %v Location 0\nOpDecorate %v Component 3"),
     "vulkan.component"),
    ("vulkan-builtin-with-location", "vulkan1.1",
     S(annotations="OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Location 0", interface="%gid",
       types="%v3uint = OpTypeVector %uint 3\n%pg = OpTypePointer Input %v3uint\n%gid = OpVariable %pg Input"),
     S(annotations="OpDecorate %gid BuiltIn GlobalInvocationId", interface="%gid",
       types="%v3uint = OpTypeVector %uint 3\n%pg = OpTypePointer Input %v3uint\n%gid = OpVariable %pg Input"),
     "vulkan.builtin-location"),
    ("vulkan-point-size-private", "vulkan1.0", _builtin_member("Private"), _builtin_member("Output"),
     "vulkan.builtin-storage-class"),
    ("vulkan-invariant-member-private", "vulkan1.2", _invariant_member("Private"), _invariant_member("Output"),
     "vulkan.decoration"),
]


test_invalid_module_breaks_the_rule, test_valid_twin_passes, test_spirv_val_agrees = rule_case_tests(CASES)


def test_ballot_bit_count_clustered_reduce_is_rejected():
    """OpGroupNonUniformBallotBitCount has no ClusterSize operand, so ClusteredReduce, whose
    ClusterSize "must be present", cannot be its Operation; spirvkit keeps its rule (Reduce,
    InclusiveScan or ExclusiveScan) where spirv-val 2025.5 accepts the module (spec_decided.py)."""
    caps = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformClustered"
    types = _SCOPES + "\n%v4uint = OpTypeVector %uint 4\n%m = OpConstantComposite %v4uint %uint_0 %uint_0 %uint_0 " \
                      "%uint_0"
    bad = spirvkit.assemble(S(caps=caps, types=types, body="%x = OpGroupNonUniformBallotBitCount %uint %uint_3 "
                                                   "ClusteredReduce %m"), "spv1.6")
    good = spirvkit.assemble(S(caps=caps, types=types, body="%x = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %m"),
                     "spv1.6")
    assert validate(bad, "spv1.6")[0].rule == "group.operation"
    assert validate(good, "spv1.6") == []
    assert run_tool("spirv-val", ["--target-env", "spv1.6", "-"], bad).returncode == 0


def test_index_outside_output_in_every_env():
    """"Index — Apply to a variable ... Only valid for the Output Storage Class and the Fragment
    Execution Model." (SPIR-V 3.20, 32): spirvkit applies it in every env; spirv-val only for Vulkan
    (spec_decided.py)."""
    bad = spirvkit.assemble(_variable("Index 0", "Input", interface=True), "spv1.0")
    assert validate(bad, "spv1.0")[0].rule == "decorations.target"
    assert run_tool("spirv-val", ["--target-env", "spv1.0", "-"], bad).returncode == 0


def test_kernel_unused():
    """The kernel template stays valid (a guard for the image cases' base)."""
    assert validate(spirvkit.assemble(K(), "opencl2.2"), "opencl2.2") == []


def test_search_operators_make_decodable_mutants():
    """The second search's operators yield mutants for a kernel source, in every OpenCL env for
    ``scope-env``, each a well-framed module (the search is a tool, this keeps it working)."""
    import gating_search

    from spirvkit import Module

    found = gating_search.candidates(["scope-env", "decoration-kind", "operand-version"], ["asm/k_atomics"])
    by_operator = {name: [c for c in found if c.operator == name]
                   for name in ("scope-env", "decoration-kind", "operand-version")}
    assert all(by_operator.values()), {k: len(v) for k, v in by_operator.items()}
    assert {c.env for c in by_operator["scope-env"]} >= {"opencl1.2", "opencl2.0", "opencl2.1"}
    for c in found[::25]:
        Module.from_bytes(c.data)
