"""SPIR-V binary -> assembly text, in SPIRV-Tools' format (spirv-dis output, byte for byte).

Options mirror spirv-dis: ``raw_id`` (--raw-id), ``indent`` (--no-indent), ``header``
(--no-header), ``offsets`` (--offsets: byte offset of each instruction in a trailing comment) and
``comment`` (--comment: section headings and decoration notes).
"""

from __future__ import annotations

from ..binary import HEADER_WORDS, Instruction, UnknownExtInstSet
from ..grammar import Grammar, load_grammar, mask_bits
from ..module import Module
from .names import FriendlyNames
from .numbers import format_number

_INDENT = 15
_COMMENT_COLUMN = 50
_MAX_CARRIED_ALIGNMENT = 256

_DECORATION_OPS = frozenset({71, 332, 72, 74, 75, 5632, 5633})
_DEBUG_OPS = frozenset({5, 6, 3, 2, 4, 7, 8, 317, 330})


def _visible_length(line: str) -> int:
    """The line length spirv-dis aligns comments by: UTF-8 bytes, not counting what it takes
    for colour codes (from an ESC byte up to the next 'm', even inside a string literal)."""
    data = line.encode("utf-8", "surrogateescape")
    if b"\x1b" not in data:
        return len(data)
    length = 0
    i = 0
    n = len(data)
    while i < n:
        if data[i] == 0x1B:
            i += 1
            while i < n and data[i] != 0x6D:  # 'm'
                i += 1
            i += 1
            continue
        length += 1
        i += 1
    return length


class _Formatter:
    def __init__(self, grammar: Grammar, name_of):
        self.grammar = grammar
        self.name_of = name_of
        self.kinds = grammar.operand_kinds

    def split(self, inst: Instruction) -> tuple[int | None, list[str]]:
        """(result id or None, the other operands as text)."""
        parts = []
        rid = None
        for i, op in enumerate(inst.operands):
            if op.kind == "IdResult":
                rid = inst.words[op.offset]
                continue
            parts.append(self.operand(inst, i))
        return rid, parts

    def line(self, inst: Instruction) -> str:
        """One instruction without indentation: ``%name = OpCode operands``."""
        rid, parts = self.split(inst)
        line = " ".join([inst.opname, *parts])
        return line if rid is None else f"%{self.name_of(rid)} = {line}"

    def operand(self, inst: Instruction, index: int) -> str:
        op = inst.operands[index]
        kind = op.kind
        w = inst.words
        if kind in ("IdRef", "IdResultType", "IdScope", "IdMemorySemantics", "IdResult"):
            return "%" + self.name_of(w[op.offset])
        if op.number is not None:
            return format_number(inst.value(index), op.number)
        if kind == "LiteralString":
            text = inst.value(index)
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if kind == "LiteralExtInstInteger":
            ext_set = inst.ext_set
            number = w[op.offset]
            if ext_set is not None and not isinstance(ext_set, UnknownExtInstSet) and ext_set.named_in_text:
                desc = ext_set.by_opcode.get(number)
                if desc is not None:
                    return desc.opname
            return str(number)
        if kind == "LiteralSpecConstantOpInteger":
            return self.grammar.instruction(w[op.offset]).opname[2:]
        okind = self.kinds.get(kind)
        ext_set = inst.ext_set
        if ext_set is not None and not isinstance(ext_set, UnknownExtInstSet) and kind in ext_set.operand_kinds:
            okind = ext_set.operand_kinds[kind]
        value = w[op.offset]
        if okind is None:
            return str(value)
        if okind.category == "BitEnum":
            return self.mask(okind, value)
        e = okind.by_value.get(value)
        return e.name if e else str(value)

    @staticmethod
    def mask(okind, value: int) -> str:
        names = []
        for bit in mask_bits(value):
            e = okind.by_value.get(bit)
            names.append(e.name if e else f"0x{bit:x}")
        if not names:
            e = okind.by_value.get(0)
            return e.name if e else "0"
        return "|".join(names)


def disassemble(
    binary: bytes | Module,
    *,
    raw_id: bool = False,
    indent: bool = True,
    header: bool = True,
    offsets: bool = False,
    comment: bool = False,
) -> str:
    """Disassemble a module (bytes or :class:`Module`) to SPIRV-Tools assembly text."""
    module = binary if isinstance(binary, Module) else Module.from_bytes(binary)
    grammar = load_grammar()
    instructions = module.instructions
    if raw_id:
        name_of = str
    else:
        name_of = FriendlyNames(instructions, grammar)
    fmt = _Formatter(grammar, name_of)
    ind = _INDENT if indent else 0
    out: list[str] = []
    if header:
        gen = module.generator
        tool = gen >> 16
        tool_name = grammar.generator_name(tool)
        if tool_name == "Unknown":
            tool_name += f"({tool})"
        out.append(
            f"; SPIR-V\n; Version: {module.version[0]}.{module.version[1]}\n"
            f"; Generator: {tool_name}; {gen & 0xFFFF}\n; Bound: {module.bound}\n; Schema: {module.schema}\n"
        )
    opnames = {}
    type_ops = {d.opcode for d in grammar.instructions.values() if d.klass == "Type-Declaration" and d.has_result}
    id_comments: dict[int, list[str]] = {}
    seen_decoration = seen_debug = seen_type = False
    last_align = 0
    byte_offset = HEADER_WORDS * 4
    pad_cache = {}
    for inst in instructions:
        opcode = inst.opcode
        opname = opnames.get(opcode)
        if opname is None:
            opname = opnames[opcode] = inst.opname
        if comment:
            if opcode == 54:
                out.append("\n" + " " * ind + "; Function " + name_of(inst.result_id) + "\n")
            if not seen_decoration and opcode in _DECORATION_OPS:
                seen_decoration = True
                out.append("\n" + " " * ind + "; Annotations\n")
            if not seen_debug and opcode in _DEBUG_OPS:
                seen_debug = True
                out.append("\n" + " " * ind + "; Debug Information\n")
            if not seen_type and opcode in type_ops:
                seen_type = True
                out.append("\n" + " " * ind + "; Types, variables and constants\n")
        rid, parts = fmt.split(inst)
        if rid is not None:
            id_name = name_of(rid)
            if ind:
                n = len(id_name)
                pad = pad_cache.get(n)
                if pad is None:
                    pad = pad_cache[n] = " " * max(0, ind - 4 - n)
                line = f"{pad}%{id_name} = {opname}"
            else:
                line = f"%{id_name} = {opname}"
        else:
            line = " " * ind + opname
        if parts:
            line += " " + " ".join(parts)
        comments = []
        if offsets:
            comments.append(f"0x{byte_offset:08x}")
        if comment:
            if opcode == 71:
                target = inst.words[1]
                id_comments.setdefault(target, []).append(" ".join(parts[1:]))
            if opcode == 5:
                comments.append(f"id %{inst.words[1]}")
            if rid is not None and rid in id_comments:
                comments.append(", ".join(id_comments[rid]))
        if comments:
            length = len(line) if line.isascii() and "\x1b" not in line else _visible_length(line)
            align = max(length + 2, last_align, _COMMENT_COLUMN)
            align = (align + 3) & ~3
            # spirv-dis carries an alignment over to later lines only up to column 256.
            last_align = min(align, _MAX_CARRIED_ALIGNMENT)
            line += " " * (align - length) + "; " + ", ".join(comments)
        else:
            last_align = 0
        out.append(line)
        out.append("\n")
        byte_offset += len(inst.words) * 4
    return "".join(out)
