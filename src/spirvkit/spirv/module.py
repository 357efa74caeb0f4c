"""The module model: a SPIR-V module as its header plus its instructions, with the logical-layout
sections (SPIR-V 1.0 §2.4) and id lookups computed from them.

The flat instruction list is the truth (so a decoded module writes back byte-identical); sections,
functions/blocks and the lookup index are views built on first use. After editing
``module.instructions`` call :meth:`Module.invalidate`.
"""

from __future__ import annotations

import gc
from pathlib import Path

from ..errors import BinaryError
from .binary import (
    HEADER_WORDS,
    MAGIC,
    Decoder,
    Instruction,
    bytes_to_words,
    decode_string,
    split_instructions,
    words_to_bytes,
)
from .grammar import load_grammar
from .records import ValueRecord

# Logical layout sections, in order (SPIR-V 1.0 §2.4).
SECTIONS = (
    "capabilities",
    "extensions",
    "ext_inst_imports",
    "memory_model",
    "entry_points",
    "execution_modes",
    "debug",
    "annotations",
    "types_values",
    "functions",
)

_SECTION_OF_OPCODE = {
    17: "capabilities",  # OpCapability
    10: "extensions",  # OpExtension
    11: "ext_inst_imports",  # OpExtInstImport
    14: "memory_model",  # OpMemoryModel
    15: "entry_points",  # OpEntryPoint
    16: "execution_modes",  # OpExecutionMode
    331: "execution_modes",  # OpExecutionModeId
    2: "debug",  # OpSourceContinued
    3: "debug",  # OpSource
    4: "debug",  # OpSourceExtension
    5: "debug",  # OpName
    6: "debug",  # OpMemberName
    7: "debug",  # OpString
    330: "debug",  # OpModuleProcessed
    71: "annotations",  # OpDecorate
    72: "annotations",  # OpMemberDecorate
    73: "annotations",  # OpDecorationGroup
    74: "annotations",  # OpGroupDecorate
    75: "annotations",  # OpGroupMemberDecorate
    332: "annotations",  # OpDecorateId
    5632: "annotations",  # OpDecorateString
    5633: "annotations",  # OpMemberDecorateString
}

OP_NAME, OP_MEMBER_NAME = 5, 6
OP_ENTRY_POINT = 15
OP_DECORATE, OP_MEMBER_DECORATE, OP_DECORATION_GROUP = 71, 72, 73
OP_GROUP_DECORATE, OP_GROUP_MEMBER_DECORATE = 74, 75
OP_DECORATE_ID, OP_DECORATE_STRING, OP_MEMBER_DECORATE_STRING = 332, 5632, 5633
OP_FUNCTION, OP_FUNCTION_PARAMETER, OP_FUNCTION_END = 54, 55, 56
OP_LABEL = 248


class Block(ValueRecord):
    _fields = ("label", "instructions")

    def __init__(self, label: Instruction, instructions: list[Instruction] | None = None):
        self.label = label
        self.instructions = [] if instructions is None else instructions

    @property
    def id(self) -> int:
        return self.label.words[1]

    @property
    def terminator(self) -> Instruction | None:
        return self.instructions[-1] if self.instructions else None


class Function(ValueRecord):
    _fields = ("definition", "parameters", "preamble", "blocks", "end")

    def __init__(self, definition: Instruction, parameters: list[Instruction] | None = None,
                 preamble: list[Instruction] | None = None, blocks: list[Block] | None = None,
                 end: Instruction | None = None):
        self.definition = definition
        self.parameters = [] if parameters is None else parameters
        self.preamble = [] if preamble is None else preamble  # e.g. OpLine before the first label
        self.blocks = [] if blocks is None else blocks
        self.end = end

    @property
    def id(self) -> int:
        return self.definition.words[2]

    @property
    def result_type(self) -> int:
        return self.definition.words[1]

    @property
    def function_type(self) -> int:
        return self.definition.words[4]


class EntryPoint(ValueRecord):
    _fields = ("execution_model", "function", "name", "interface", "instruction")

    def __init__(self, execution_model: str, function: int, name: str, interface: list[int], instruction: Instruction):
        self.execution_model = execution_model
        self.function = function
        self.name = name
        self.interface = interface
        self.instruction = instruction


class Decoration(ValueRecord):
    """One decoration applied to an id (or a struct member): its name and literal/id operands."""

    _fields = ("name", "operands", "instruction", "member")

    def __init__(self, name: str, operands: list, instruction: Instruction, member: int | None = None):
        self.name = name
        self.operands = operands
        self.instruction = instruction
        self.member = member


class Module:
    """A SPIR-V module."""

    def __init__(
        self,
        instructions: list[Instruction] | None = None,
        *,
        version: tuple[int, int] = (1, 0),
        generator: int = 0,
        bound: int | None = None,
        schema: int = 0,
        endian: str = "little",
    ):
        self.instructions: list[Instruction] = instructions if instructions is not None else []
        self.version = version
        self.generator = generator
        self._bound = bound
        self.schema = schema
        self.endian = endian
        self._sections = None
        self._index = None

    # -- binary ----------------------------------------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Module:
        """Decode a binary module (either endianness). Raises :class:`BinaryError` with the word
        offset of the first problem."""
        words, endian = bytes_to_words(bytes(data))
        return cls.from_words(words, endian=endian)

    @classmethod
    def from_words(cls, words: list[int], endian: str = "little") -> Module:
        if len(words) < HEADER_WORDS:
            raise BinaryError(f"truncated header: {len(words)} words, a module needs 5", 0)
        if words[0] != MAGIC:
            raise BinaryError(f"invalid magic number 0x{words[0]:08x}", 0)
        version_word = words[1]
        version = ((version_word >> 16) & 0xFF, (version_word >> 8) & 0xFF)
        if version_word & 0xFF0000FF or not (1, 0) <= version <= load_grammar().version:
            newest = "%d.%d" % load_grammar().version
            raise BinaryError(
                f"invalid or unsupported SPIR-V version word 0x{version_word:08x} "
                f"(versions 1.0 to {newest} are known)",
                1,
            )
        decoder = Decoder()
        decode = decoder.decode
        # Decoding allocates objects that form no cycles: keep the cyclic collector from
        # rescanning the growing module again and again (a large share of the decode time).
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            instructions = [decode(words[pos:end], pos) for pos, end in split_instructions(words)]
        finally:
            if gc_was_enabled:
                gc.enable()
        return cls(
            instructions,
            version=((version_word >> 16) & 0xFF, (version_word >> 8) & 0xFF),
            generator=words[2],
            bound=words[3],
            schema=words[4],
            endian=endian,
        )

    @classmethod
    def from_file(cls, path: str | Path) -> Module:
        return cls.from_bytes(Path(path).read_bytes())

    @property
    def bound(self) -> int:
        if self._bound is not None:
            return self._bound
        return max((i.result_id or 0 for i in self.instructions), default=0) + 1

    @bound.setter
    def bound(self, value: int | None) -> None:
        self._bound = value

    @property
    def version_word(self) -> int:
        return (self.version[0] << 16) | (self.version[1] << 8)

    def header_words(self) -> list[int]:
        return [MAGIC, self.version_word, self.generator, self.bound, self.schema]

    def to_words(self) -> list[int]:
        words = self.header_words()
        for inst in self.instructions:
            words.extend(inst.words)
        return words

    def to_bytes(self, endian: str | None = None) -> bytes:
        """The binary form, in the module's own endianness unless ``endian`` says otherwise."""
        return words_to_bytes(self.to_words(), endian or self.endian)

    def __len__(self) -> int:
        return len(self.instructions)

    def __iter__(self):
        return iter(self.instructions)

    # -- sections --------------------------------------------------------------------------------

    def invalidate(self) -> None:
        """Forget computed sections and lookups (call after editing ``instructions``)."""
        self._sections = None
        self._index = None

    def _build_sections(self):
        sections: dict[str, list] = {name: [] for name in SECTIONS}
        functions: list[Function] = sections["functions"]
        current: Function | None = None
        for inst in self.instructions:
            op = inst.opcode
            if current is None:
                if op == OP_FUNCTION:
                    current = Function(inst)
                    functions.append(current)
                else:
                    sections[_SECTION_OF_OPCODE.get(op, "types_values")].append(inst)
                continue
            if op == OP_FUNCTION_END:
                current.end = inst
                current = None
            elif op == OP_LABEL:
                current.blocks.append(Block(inst))
            elif current.blocks:
                current.blocks[-1].instructions.append(inst)
            elif op == OP_FUNCTION_PARAMETER:
                current.parameters.append(inst)
            else:
                current.preamble.append(inst)
        self._sections = sections
        return sections

    def section(self, name: str) -> list:
        """The instructions of one logical-layout section (see :data:`SECTIONS`); for
        ``"functions"`` the list of :class:`Function`."""
        sections = self._sections or self._build_sections()
        return sections[name]

    @property
    def functions(self) -> list[Function]:
        return self.section("functions")

    @property
    def capabilities(self) -> list[str]:
        kind = load_grammar().operand_kinds["Capability"]
        return [_enum_name(kind, i.words[1]) for i in self.section("capabilities")]

    @property
    def extensions(self) -> list[str]:
        return [decode_string(i.words, 1, len(i.words) - 1) for i in self.section("extensions")]

    @property
    def ext_inst_imports(self) -> dict[int, str]:
        return {i.words[1]: decode_string(i.words, 2, len(i.words) - 2) for i in self.section("ext_inst_imports")}

    @property
    def addressing_model(self) -> str | None:
        mm = self.section("memory_model")
        return _enum_name(load_grammar().operand_kinds["AddressingModel"], mm[0].words[1]) if mm else None

    @property
    def memory_model(self) -> str | None:
        mm = self.section("memory_model")
        return _enum_name(load_grammar().operand_kinds["MemoryModel"], mm[0].words[2]) if mm else None

    @property
    def entry_points(self) -> list[EntryPoint]:
        kind = load_grammar().operand_kinds["ExecutionModel"]
        result = []
        for inst in self.section("entry_points"):
            name_op = inst.operands[2]
            name = inst.value(2)
            interface = inst.words[name_op.offset + name_op.count :]
            result.append(EntryPoint(_enum_name(kind, inst.words[1]), inst.words[2], name, list(interface), inst))
        return result

    def entry_point(self, name: str) -> EntryPoint | None:
        for ep in self.entry_points:
            if ep.name == name:
                return ep
        return None

    # -- lookups ---------------------------------------------------------------------------------

    def _build_index(self):
        definitions: dict[int, Instruction] = {}
        names: dict[int, str] = {}
        member_names: dict[tuple[int, int], str] = {}
        decorations: dict[int, list[Decoration]] = {}
        groups: dict[int, list[Decoration]] = {}
        grammar = load_grammar()
        dkind = grammar.operand_kinds["Decoration"]
        for inst in self.instructions:
            rid = inst.result_id
            if rid is not None:
                definitions.setdefault(rid, inst)
            op = inst.opcode
            if op == OP_NAME:
                names.setdefault(inst.words[1], inst.value(1))
            elif op == OP_MEMBER_NAME:
                member_names.setdefault((inst.words[1], inst.words[2]), inst.value(2))
            elif op in (OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING):
                target = inst.words[1]
                d = Decoration(_enum_name(dkind, inst.words[2]), inst.values()[2:], inst)
                (groups if target in groups else decorations).setdefault(target, []).append(d)
            elif op in (OP_MEMBER_DECORATE, OP_MEMBER_DECORATE_STRING):
                d = Decoration(_enum_name(dkind, inst.words[3]), inst.values()[3:], inst, inst.words[2])
                decorations.setdefault(inst.words[1], []).append(d)
            elif op == OP_DECORATION_GROUP:
                groups[inst.words[1]] = decorations.pop(inst.words[1], [])
            elif op == OP_GROUP_DECORATE:
                for target in inst.words[2:]:
                    decorations.setdefault(target, []).extend(groups.get(inst.words[1], []))
            elif op == OP_GROUP_MEMBER_DECORATE:
                pairs = inst.words[2:]
                for target, member in zip(pairs[::2], pairs[1::2]):
                    for d in groups.get(inst.words[1], []):
                        decorations.setdefault(target, []).append(
                            Decoration(d.name, d.operands, d.instruction, member)
                        )
        self._index = (definitions, names, member_names, decorations)
        return self._index

    def _lookup(self):
        return self._index or self._build_index()

    def definition(self, id: int) -> Instruction | None:
        """The instruction whose result is ``id``."""
        return self._lookup()[0].get(id)

    def type_of(self, id: int) -> Instruction | None:
        """The type declaration of value ``id`` (None for ids that have no type)."""
        inst = self.definition(id)
        if inst is None or inst.type_id is None:
            return None
        return self.definition(inst.type_id)

    def name(self, id: int) -> str | None:
        return self._lookup()[1].get(id)

    def member_name(self, id: int, member: int) -> str | None:
        return self._lookup()[2].get((id, member))

    def decorations(self, id: int, member: int | None = None) -> list[Decoration]:
        """Decorations of ``id`` (through decoration groups too); with ``member``, those of that
        struct member; with neither, only the id's own (non-member) decorations."""
        return [d for d in self._lookup()[3].get(id, []) if d.member == member]

    def has_decoration(self, id: int, name: str, member: int | None = None) -> bool:
        return any(d.name == name for d in self.decorations(id, member))

    def execution_mode(self, fn_id: int, mode: str) -> list[int] | None:
        """The operand words of entry point ``fn_id``'s execution mode ``mode`` (an ExecutionMode
        name: literals for an OpExecutionMode, ids for an OpExecutionModeId), None without it."""
        value = load_grammar().operand_kinds["ExecutionMode"].by_name[mode].value
        for inst in self.section("execution_modes"):
            if inst.words[1] == fn_id and inst.words[2] == value:
                return inst.words[3:]
        return None

    def local_size(self, fn_id: int) -> tuple[int, int, int] | None:
        """The work-group size entry point ``fn_id`` requires (its LocalSize execution mode:
        OpenCL C's reqd_work_group_size), None when it requires none."""
        words = self.execution_mode(fn_id, "LocalSize")
        return tuple(words[:3]) if words is not None else None

    def recursive_functions(self) -> set[int]:
        """The functions on a cycle of the call graph (OpFunctionCall): those a lowering that
        inlines calls must leave as calls."""
        call = load_grammar().by_name["OpFunctionCall"].opcode
        calls = {fn.id: {inst.words[3] for b in fn.blocks for inst in b.instructions if inst.opcode == call}
                 for fn in self.functions}

        def on_cycle(start: int) -> bool:
            seen, todo = set(), list(calls.get(start, ()))
            while todo:
                f = todo.pop()
                if f == start:
                    return True
                if f not in seen:
                    seen.add(f)
                    todo.extend(calls.get(f, ()))
            return False

        return {fn.id for fn in self.functions if on_cycle(fn.id)}

    def summary(self) -> str:
        """A short human-readable description (used by ``spirvkit dis --summary`` and the
        README's main job)."""
        lines = [
            f"SPIR-V {self.version[0]}.{self.version[1]}, generator "
            f"{load_grammar().generator_name(self.generator >> 16)} ({self.generator >> 16}), bound {self.bound}",
            f"{len(self.instructions)} instructions, {len(self.functions)} functions",
            f"capabilities: {', '.join(self.capabilities) or '-'}",
        ]
        if self.extensions:
            lines.append(f"extensions: {', '.join(self.extensions)}")
        if self.ext_inst_imports:
            lines.append(f"imports: {', '.join(self.ext_inst_imports.values())}")
        if self.addressing_model:
            lines.append(f"memory model: {self.addressing_model} {self.memory_model}")
        for ep in self.entry_points:
            lines.append(f"entry point: {ep.execution_model} \"{ep.name}\" (%{ep.function})")
        return "\n".join(lines)


def _enum_name(kind, value: int) -> str:
    e = kind.by_value.get(value)
    return e.name if e else str(value)
