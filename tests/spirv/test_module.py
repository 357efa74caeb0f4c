"""The module model: logical-layout sections, functions and blocks, id lookups (definition,
type_of, name, member_name, decorations through decoration groups), entry points with their
interfaces and summary(), on a hand-written module and on every corpus module."""

from __future__ import annotations

import struct

import pytest
from corpus import asm_files, binary_files, target_env_of
from peers import spirv_dis

import spirvkit
from spirvkit import Instruction, Module, Operand, SpirvError
from spirvkit.spirv.grammar import load_grammar
from spirvkit.spirv.module import SECTIONS

TEXT = """\
               OpCapability Shader
               OpCapability Int64
               OpExtension "SPV_KHR_storage_buffer_storage_class"
       %glsl = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %wg
               OpEntryPoint Fragment %frag "frag main" %color
               OpExecutionMode %main LocalSize 8 4 1
               OpExecutionMode %frag OriginUpperLeft
       %file = OpString "shader.comp"
               OpSource GLSL 450 %file
               OpName %main "main"
               OpName %Buf "Buf"
               OpMemberName %Buf 0 "count"
               OpMemberName %Buf 1 "data"
               OpName %buf "buf"
               OpName %buf "second name is ignored"
               OpModuleProcessed "spirvkit"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %Buf Block
               OpMemberDecorate %Buf 0 Offset 0
               OpMemberDecorate %Buf 1 Offset 16
               OpDecorate %arr ArrayStride 4
               OpDecorate %grp NonWritable
               OpDecorate %grp Restrict
        %grp = OpDecorationGroup
               OpGroupDecorate %grp %buf %buf2
               OpDecorate %mgrp RelaxedPrecision
       %mgrp = OpDecorationGroup
               OpGroupMemberDecorate %mgrp %Buf 1
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 3
               OpDecorateString %buf UserSemantic "my buffer"
               OpDecorate %ulong_big SpecId 7
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
    %v4float = OpTypeVector %float 4
     %uint_4 = OpConstant %uint 4
  %ulong_big = OpSpecConstant %ulong 0x100000002
        %arr = OpTypeArray %uint %uint_4
        %Buf = OpTypeStruct %uint %arr
%_ptr_StorageBuffer_Buf = OpTypePointer StorageBuffer %Buf
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
%_ptr_Output_v4float = OpTypePointer Output %v4float
        %buf = OpVariable %_ptr_StorageBuffer_Buf StorageBuffer
       %buf2 = OpVariable %_ptr_StorageBuffer_Buf StorageBuffer
        %gid = OpVariable %_ptr_Input_v3uint Input
         %wg = OpVariable %_ptr_Workgroup_uint Workgroup
      %color = OpVariable %_ptr_Output_v4float Output
        %fnv = OpTypeFunction %void
       %fnuu = OpTypeFunction %uint %uint %uint
       %main = OpFunction %void None %fnv
      %entry = OpLabel
          %g = OpLoad %v3uint %gid
          %x = OpCompositeExtract %uint %g 0
          %s = OpFunctionCall %uint %add %x %uint_4
               OpStore %wg %s
               OpBranch %exit
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
        %add = OpFunction %uint Pure %fnuu
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
               OpLine %file 10 2
      %start = OpLabel
        %sum = OpIAdd %uint %a %b
               OpReturnValue %sum
               OpFunctionEnd
       %frag = OpFunction %void None %fnv
         %f0 = OpLabel
               OpReturn
               OpFunctionEnd
"""


@pytest.fixture(scope="module")
def module() -> Module:
    return Module.from_bytes(spirvkit.assemble(TEXT, "spv1.3"))


@pytest.fixture(scope="module")
def ids(module) -> dict[str, int]:
    """%name -> id, read from the disassembly with --raw-id next to the friendly one."""
    raw = spirvkit.disassemble(module, raw_id=True, header=False).splitlines()
    named = TEXT.splitlines()
    out = {}
    for ours, src in zip(raw, named):
        if "=" in src:
            out[src.split("=")[0].strip().lstrip("%")] = int(ours.split("=")[0].strip().lstrip("%"))
    return out


def _opnames(instructions):
    return [i.opname for i in instructions]


def test_sections_in_logical_order(module):
    assert _opnames(module.section("capabilities")) == ["OpCapability"] * 2
    assert _opnames(module.section("extensions")) == ["OpExtension"]
    assert _opnames(module.section("ext_inst_imports")) == ["OpExtInstImport"]
    assert _opnames(module.section("memory_model")) == ["OpMemoryModel"]
    assert _opnames(module.section("entry_points")) == ["OpEntryPoint"] * 2
    assert _opnames(module.section("execution_modes")) == ["OpExecutionMode"] * 2
    assert _opnames(module.section("debug")) == (
        ["OpString", "OpSource", "OpName", "OpName", "OpMemberName", "OpMemberName", "OpName", "OpName", "OpModuleProcessed"]
    )
    annotations = _opnames(module.section("annotations"))
    assert annotations[:4] == ["OpDecorate", "OpDecorate", "OpMemberDecorate", "OpMemberDecorate"]
    assert annotations.count("OpDecorationGroup") == 2 and "OpGroupMemberDecorate" in annotations
    assert annotations[-2:] == ["OpDecorateString", "OpDecorate"]
    types = module.section("types_values")
    assert types[0].opname == "OpTypeVoid" and types[-1].opname == "OpTypeFunction"
    assert len(types) == 21
    assert module.section("functions") is module.functions
    assert [f.definition.opname for f in module.functions] == ["OpFunction"] * 3
    flat = [i for name in SECTIONS[:-1] for i in module.section(name)]
    assert flat == module.instructions[: len(flat)]
    with pytest.raises(KeyError):
        module.section("no_such_section")


def test_functions_and_blocks(module, ids):
    main, add, frag = module.functions
    assert main.id == ids["main"] and add.id == ids["add"] and frag.id == ids["frag"]
    assert main.result_type == ids["void"] and add.result_type == ids["uint"]
    assert main.function_type == ids["fnv"] and add.function_type == ids["fnuu"]
    assert main.parameters == [] and [p.result_id for p in add.parameters] == [ids["a"], ids["b"]]
    assert _opnames(add.preamble) == ["OpLine"]  # before the first label
    assert [b.id for b in main.blocks] == [ids["entry"], ids["exit"]]
    assert _opnames(main.blocks[0].instructions) == ["OpLoad", "OpCompositeExtract", "OpFunctionCall", "OpStore", "OpBranch"]
    assert main.blocks[0].terminator.opname == "OpBranch"
    assert main.blocks[1].terminator.opname == "OpReturn"
    assert add.blocks[0].terminator.opname == "OpReturnValue"
    assert all(f.end.opname == "OpFunctionEnd" for f in module.functions)
    assert frag.blocks[0].label.opname == "OpLabel" and len(frag.blocks) == 1


def test_definition_and_type_of(module, ids):
    assert module.definition(ids["uint"]).opname == "OpTypeInt"
    assert module.definition(ids["uint"]).words[2:] == [32, 0]
    assert module.definition(ids["sum"]).opname == "OpIAdd"
    assert module.type_of(ids["sum"]) is module.definition(ids["uint"])
    assert module.type_of(ids["buf"]) is module.definition(ids["_ptr_StorageBuffer_Buf"])
    assert module.type_of(ids["uint_4"]).opname == "OpTypeInt"
    assert module.type_of(ids["a"]) is module.definition(ids["uint"])
    assert module.type_of(ids["main"]) is module.definition(ids["void"])  # OpFunction's result type
    assert module.type_of(ids["uint"]) is None  # a type has no type
    assert module.type_of(ids["entry"]) is None
    assert module.definition(9999) is None and module.type_of(9999) is None
    big = module.definition(ids["ulong_big"])
    assert big.value(2) == 0x100000002 and big.operands[2].count == 2 and big.operands[2].number == "u64"


def test_names(module, ids):
    assert module.name(ids["main"]) == "main"
    assert module.name(ids["buf"]) == "buf"  # the first OpName wins
    assert module.name(ids["uint"]) is None
    assert module.member_name(ids["Buf"], 0) == "count"
    assert module.member_name(ids["Buf"], 1) == "data"
    assert module.member_name(ids["Buf"], 2) is None
    assert module.member_name(ids["buf"], 0) is None


def _decorations(module, id_, member=None):
    return [(d.name, d.operands) for d in module.decorations(id_, member)]


def test_decorations(module, ids):
    assert _decorations(module, ids["gid"]) == [("BuiltIn", [28])]
    assert _decorations(module, ids["Buf"]) == [("Block", [])]
    assert _decorations(module, ids["Buf"], 0) == [("Offset", [0])]
    assert _decorations(module, ids["Buf"], 1) == [("Offset", [16]), ("RelaxedPrecision", [])]
    assert _decorations(module, ids["arr"]) == [("ArrayStride", [4])]
    assert _decorations(module, ids["ulong_big"]) == [("SpecId", [7])]
    assert _decorations(module, ids["uint"]) == []
    # through the decoration group, then its own
    assert _decorations(module, ids["buf"]) == [
        ("NonWritable", []),
        ("Restrict", []),
        ("DescriptorSet", [0]),
        ("Binding", [3]),
        ("UserSemantic", ["my buffer"]),
    ]
    assert _decorations(module, ids["buf2"]) == [("NonWritable", []), ("Restrict", [])]
    # a group's own decorations are not reported as decorations of the group id
    assert module.decorations(ids["grp"]) == []
    assert module.has_decoration(ids["buf"], "Restrict")
    assert module.has_decoration(ids["Buf"], "RelaxedPrecision", member=1)
    assert not module.has_decoration(ids["Buf"], "RelaxedPrecision")
    assert not module.has_decoration(ids["buf2"], "Binding")
    group_decoration = module.decorations(ids["buf2"])[0]
    assert group_decoration.instruction.opname == "OpDecorate" and group_decoration.member is None
    assert group_decoration.instruction.words[1] == ids["grp"]


def test_entry_points(module, ids):
    main, frag = module.entry_points
    assert (main.execution_model, main.function, main.name) == ("GLCompute", ids["main"], "main")
    assert main.interface == [ids["gid"], ids["wg"]]
    assert (frag.execution_model, frag.function, frag.name) == ("Fragment", ids["frag"], "frag main")
    assert frag.interface == [ids["color"]]
    assert main.instruction.opname == "OpEntryPoint"
    assert module.entry_point("frag main") is not None and module.entry_point("frag main").function == ids["frag"]
    assert module.entry_point("nope") is None


def test_module_level_properties(module, ids):
    assert module.capabilities == ["Shader", "Int64"]
    assert module.extensions == ["SPV_KHR_storage_buffer_storage_class"]
    assert module.ext_inst_imports == {ids["glsl"]: "GLSL.std.450"}
    assert module.addressing_model == "Logical" and module.memory_model == "GLSL450"
    assert module.version == (1, 3) and module.generator == 0 and module.schema == 0
    assert module.bound == max(ids.values()) + 1
    assert len(module) == len(module.instructions) == len(list(module))


def test_summary(module):
    assert module.summary() == (
        f"SPIR-V 1.3, generator Khronos (0), bound {module.bound}\n"
        f"{len(module)} instructions, 3 functions\n"
        "capabilities: Shader, Int64\n"
        "extensions: SPV_KHR_storage_buffer_storage_class\n"
        "imports: GLSL.std.450\n"
        "memory model: Logical GLSL450\n"
        'entry point: GLCompute "main" (%2)\n'
        'entry point: Fragment "frag main" (%5)'
    )


def test_summary_of_a_minimal_module():
    module = Module.from_bytes(spirvkit.assemble("OpCapability Kernel\n", "spv1.0"))
    assert module.summary() == "SPIR-V 1.0, generator Khronos (0), bound 1\n1 instructions, 0 functions\ncapabilities: Kernel"
    empty = Module()
    assert empty.summary().splitlines()[-1] == "capabilities: -"
    assert empty.addressing_model is None and empty.memory_model is None and empty.entry_points == []


def test_generator_is_named_from_the_registry():
    binary = bytearray(spirvkit.assemble("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"))
    binary[8:12] = struct.pack("<I", (8 << 16) | 11)  # glslang, version 11
    module = Module.from_bytes(bytes(binary))
    assert module.generator == (8 << 16) | 11
    assert module.summary().startswith("SPIR-V 1.6, generator Khronos Glslang Reference Front End (8), bound ")


def test_a_module_built_in_python(module):
    fresh = Module(list(module.instructions), version=(1, 3))
    assert fresh.bound == module.bound  # computed from the result ids
    assert fresh.to_bytes() == module.to_bytes()
    fresh.bound = 1000
    assert fresh.header_words()[3] == 1000
    assert fresh.version_word == 0x00010300


def test_invalidate_after_editing():
    module = Module.from_bytes(spirvkit.assemble(TEXT, "spv1.3"))
    assert len(module.functions) == 3
    end = module.instructions.index(module.functions[1].definition)
    del module.instructions[end:]
    assert len(module.functions) == 3  # the views are cached ...
    module.invalidate()
    assert len(module.functions) == 1  # ... until invalidated
    assert module.name(module.functions[0].id) == "main"


def test_instruction_api(module, ids):
    inst = module.definition(ids["s"])
    assert inst.opname == "OpFunctionCall" and inst.opcode == 57
    assert inst.result_id == ids["s"] and inst.type_id == ids["uint"]
    assert inst.id_operands() == [ids["uint"], ids["add"], ids["x"], ids["uint_4"]]
    assert inst.values() == [ids["uint"], ids["s"], ids["add"], ids["x"], ids["uint_4"]]
    assert inst.operands[0] == Operand("IdResultType", 1, 1)
    assert inst.desc is load_grammar().instruction(57)
    name = next(i for i in module.section("debug") if i.opname == "OpName")
    assert name.value(1) == "main" and name.result_id is None and name.type_id is None
    assert inst == Instruction(57, list(inst.words), ())
    assert hash(inst) == hash(Instruction(57, list(inst.words), ()))
    assert repr(inst).startswith("<OpFunctionCall ")
    words = module.to_words()
    assert words[inst.offset : inst.offset + len(inst.words)] == inst.words


# -- every corpus module -----------------------------------------------------------------------------


def _corpus():
    params = []
    for path in asm_files():
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        try:
            binary = spirvkit.assemble(text, target_env_of(path))
            Module.from_bytes(binary)
        except SpirvError:
            continue  # e.g. immediate words spirv-dis rejects too
        params.append(pytest.param(binary, id=path.name))
    for path in binary_files():
        params.append(pytest.param(path.read_bytes(), id=f"{path.parent.name}/{path.name}"))
    return params


CORPUS = _corpus()


def test_corpus_is_not_empty():
    assert len(CORPUS) > 20


_SECTION_INDEX = {name: i for i, name in enumerate(SECTIONS)}


@pytest.mark.parametrize("binary", CORPUS)
def test_corpus_sections_partition_the_module(binary):
    module = Module.from_bytes(binary)
    pieces = []
    for name in SECTIONS[:-1]:
        pieces += [(_SECTION_INDEX[name], i) for i in module.section(name)]
    section_of = {id(i): s for s, i in pieces}
    function_of = {}
    for n, f in enumerate(module.functions):
        members = [f.definition, *f.parameters, *f.preamble]
        for block in f.blocks:
            members += [block.label, *block.instructions]
            assert block.label.opname == "OpLabel"
            assert all(i.opname != "OpLabel" for i in block.instructions)
        if f.end is not None:
            members.append(f.end)
        for i in members:
            function_of[id(i)] = n
        # a function is one contiguous run of the module
        first = module.instructions.index(f.definition)
        assert module.instructions[first : first + len(members)] == sorted(members, key=lambda i: i.offset)
        assert all(p.opname == "OpFunctionParameter" for p in f.parameters)
    # every instruction is in exactly one place
    assert len(section_of) + len(function_of) == len(module.instructions)
    assert all((id(i) in section_of) != (id(i) in function_of) for i in module.instructions)
    # module-level sections come in logical order, before the functions
    order = [section_of[id(i)] if id(i) in section_of else len(SECTIONS) for i in module.instructions]
    assert order == sorted(order)


@pytest.mark.parametrize("binary", CORPUS)
def test_corpus_lookups_are_consistent(binary):
    module = Module.from_bytes(binary)
    grammar = load_grammar()
    type_ops = {d.opcode for d in grammar.instructions.values() if d.klass == "Type-Declaration"}
    seen = set()
    for inst in module.instructions:
        rid = inst.result_id
        if rid is not None and rid not in seen:
            seen.add(rid)
            assert module.definition(rid) is inst
        if inst.type_id is not None and rid is not None and module.definition(inst.type_id) is not None:
            assert module.type_of(rid).opcode in type_ops
        if inst.opname == "OpName":
            assert module.name(inst.words[1]) is not None
        if inst.opname == "OpMemberName":
            assert module.member_name(inst.words[1], inst.words[2]) is not None
        if inst.opname in ("OpDecorate", "OpDecorateId", "OpDecorateString"):
            target = module.definition(inst.words[1])
            if target is None or target.opname != "OpDecorationGroup":
                names = [d.name for d in module.decorations(inst.words[1])]
                assert grammar.operand_kinds["Decoration"].by_value[inst.words[2]].name in names
        if inst.opname in ("OpMemberDecorate", "OpMemberDecorateString"):
            assert module.decorations(inst.words[1], inst.words[2])
    assert module.bound >= max(seen, default=0) + 1


@pytest.mark.parametrize("binary", CORPUS)
def test_corpus_entry_points_and_summary_agree_with_the_disassembly(binary):
    module = Module.from_bytes(binary)
    text = spirvkit.disassemble(binary, raw_id=True)
    entry_lines = [line.split() for line in text.splitlines() if line.split()[:1] == ["OpEntryPoint"]]
    assert len(entry_lines) == len(module.entry_points)
    for ep, words in zip(module.entry_points, entry_lines):
        assert words[1] == ep.execution_model
        assert words[2] == f"%{ep.function}"
        assert module.definition(ep.function).opname == "OpFunction"
        # the interface ids are what follows the (quoted) name
        tail = " ".join(words[3:])
        assert tail.endswith(" ".join(f"%{i}" for i in ep.interface))
        for var in ep.interface:
            definition = module.definition(var)
            assert definition is None or definition.opname in ("OpVariable", "OpUntypedVariableKHR")
    summary = module.summary().splitlines()
    assert summary[0] == (
        f"SPIR-V {module.version[0]}.{module.version[1]}, generator "
        f"{load_grammar().generator_name(module.generator >> 16)} ({module.generator >> 16}), bound {module.bound}"
    )
    assert summary[1] == f"{len(module.instructions)} instructions, {len(module.functions)} functions"
    assert sum(line.startswith("entry point: ") for line in summary) == len(module.entry_points)
    caps = [line.split()[1] for line in text.splitlines() if line.split()[:1] == ["OpCapability"]]
    assert module.capabilities == caps


def test_module_matches_spirv_dis_on_the_hand_written_module(module):
    assert spirvkit.disassemble(module) == spirv_dis(module.to_bytes())


def test_execution_modes_and_local_size(module, ids):
    assert module.local_size(ids["main"]) == (8, 4, 1)
    assert module.execution_mode(ids["main"], "LocalSize") == [8, 4, 1]
    assert module.execution_mode(ids["frag"], "OriginUpperLeft") == []
    assert module.local_size(ids["frag"]) is None
    assert module.execution_mode(ids["main"], "OriginUpperLeft") is None
