"""SPIR-V binary form: words <-> typed instructions.

Decoding is driven by the grammar: every operand of every instruction is typed (ids, literal
numbers whose width comes from the declared type, strings, enumerants with their parameters,
extended-instruction operands from the imported set's grammar). An instruction keeps its raw
words, so writing a decoded module back is byte-identical by construction, and the typed view
(``Instruction.operands``) is a list of (kind, offset, count) spans over those words, shared between
all instructions of one fixed-layout opcode.
"""

from __future__ import annotations

import sys
from array import array
from collections import namedtuple

from ..errors import BinaryError
from .grammar import ID_KINDS, ExtInstSet, Grammar, InstructionDesc, OperandSpec, load_grammar, mask_bits

MAGIC = 0x07230203
HEADER_WORDS = 5

# Opcodes whose decoding needs context from earlier instructions.
OP_EXT_INST_IMPORT = 11
OP_EXT_INST = 12
OP_TYPE_INT = 21
OP_TYPE_FLOAT = 22
OP_CONSTANT = 43
OP_SPEC_CONSTANT = 50
OP_SPEC_CONSTANT_OP = 52
OP_SWITCH = 251
OP_EXT_INST_WITH_FORWARD_REFS = 4433
EXT_INST_OPCODES = frozenset({OP_EXT_INST, OP_EXT_INST_WITH_FORWARD_REFS})


class Operand(namedtuple("Operand", ("kind", "offset", "count", "number"), defaults=(None,))):
    """One logical operand: its grammar kind (str) and the words it occupies in its instruction
    (offset, count).

    ``number`` is set for literal numbers whose form is known: 'u32', 'i64', 'f16', 'f32' ...
    (a namedtuple, not a typing.NamedTuple: importing typing would cost every command more than
    decoding a small module)
    """

    __slots__ = ()


_new = tuple.__new__  # builds an Operand without NamedTuple's slower constructor


class UnknownExtInstSet:
    """An imported set the headers have no grammar for: its instructions are kept as raw words.

    A ``NonSemantic.*`` set's instructions are known to take only ids (the spec says so), so they
    decode as ids, as SPIRV-Tools does.
    """

    def __init__(self, import_name: str):
        self.import_name = import_name
        self.is_non_semantic = import_name.startswith("NonSemantic.")


class Instruction:
    """One instruction: opcode, raw words (word 0 included), and typed operand spans.

    ``offset`` is the word offset of the instruction in its module (for diagnostics); ``ext_set``
    is the imported set for OpExtInst.
    """

    __slots__ = ("opcode", "words", "operands", "offset", "ext_set")

    def __init__(self, opcode: int, words: list[int], operands: tuple[Operand, ...], offset: int = 0, ext_set=None):
        self.opcode = opcode
        self.words = words
        self.operands = operands
        self.offset = offset
        self.ext_set = ext_set

    @property
    def desc(self) -> InstructionDesc | None:
        return load_grammar().instruction(self.opcode)

    @property
    def opname(self) -> str:
        desc = self.desc
        return desc.opname if desc else f"Op{self.opcode}"

    @property
    def result_id(self) -> int | None:
        ops = self.operands
        if ops:
            op = ops[0]
            if op.kind == "IdResult":
                return self.words[op.offset]
            if len(ops) > 1:
                op = ops[1]
                if op.kind == "IdResult":
                    return self.words[op.offset]
        return None

    @property
    def type_id(self) -> int | None:
        ops = self.operands
        if ops and ops[0].kind == "IdResultType":
            return self.words[ops[0].offset]
        return None

    def value(self, index: int):
        """The decoded value of operand ``index``: an int (id, integer, enumerant or raw float
        bits), a str for strings; wide numbers are joined low word first."""
        op = self.operands[index]
        if op.kind == "LiteralString":
            return decode_string(self.words, op.offset, op.count)
        if op.count == 1:
            return self.words[op.offset]
        value = 0
        for i in range(op.count - 1, -1, -1):
            value = (value << 32) | self.words[op.offset + i]
        return value

    def values(self) -> list:
        return [self.value(i) for i in range(len(self.operands))]

    def id_operands(self) -> list[int]:
        """Every id this instruction references (its result id excluded)."""
        w = self.words
        return [w[op.offset] for op in self.operands if op.kind in ID_KINDS and op.kind != "IdResult"]

    def __eq__(self, other):
        return isinstance(other, Instruction) and self.words == other.words

    def __hash__(self):
        return hash(tuple(self.words))

    def __repr__(self):
        return f"<{self.opname} {' '.join(map(str, self.words[1:]))}>"


def decode_string(words: list[int], offset: int, count: int) -> str:
    raw = array("I", words[offset : offset + count])
    if sys.byteorder != "little":
        raw.byteswap()
    data = raw.tobytes()
    end = data.find(b"\0")
    if end >= 0:
        data = data[:end]
    return data.decode("utf-8", "surrogateescape")


def encode_string(text: str) -> list[int]:
    """A literal string's words: UTF-8, nul-terminated, zero-padded to a whole word."""
    data = text.encode("utf-8", "surrogateescape") + b"\0"
    data += b"\0" * (-len(data) % 4)
    raw = array("I")
    raw.frombytes(data)
    if sys.byteorder != "little":
        raw.byteswap()
    return raw.tolist()


def bytes_to_words(data: bytes) -> tuple[list[int], str]:
    """The module's words in host order, and its endianness ('little' or 'big')."""
    if len(data) < HEADER_WORDS * 4:
        raise BinaryError(
            f"truncated header: a SPIR-V module starts with 5 words, found {len(data)} bytes", 0
        )
    first = int.from_bytes(data[:4], "little")
    if first == MAGIC:
        endian = "little"
    elif int.from_bytes(data[:4], "big") == MAGIC:
        endian = "big"
    else:
        raise BinaryError(f"invalid magic number 0x{first:08x} (expected 0x{MAGIC:08x}): not a SPIR-V binary", 0)
    if len(data) % 4:
        raise BinaryError(f"module size {len(data)} bytes is not a multiple of 4", len(data) // 4)
    words = array("I")
    words.frombytes(data)
    if endian != sys.byteorder:
        words.byteswap()
    return words.tolist(), endian


def words_to_bytes(words, endian: str = "little") -> bytes:
    raw = array("I", words)
    if endian != sys.byteorder:
        raw.byteswap()
    return raw.tobytes()


def _number_form(signed_or_float: str, width: int) -> str:
    return f"{signed_or_float}{width}"


# OpTypeFloat's FPEncoding operand (by grammar name) -> the literal form of its constants.
_ENCODING_FORMS = {"BFloat16KHR": "b16", "Float8E4M3EXT": "e8", "Float8E5M2EXT": "m8"}


def float_form(words: list[int]) -> str:
    """The literal form of an OpTypeFloat: 'f16'/'f32'/'f64', or an FPEncoding form."""
    if len(words) > 3:
        e = load_grammar().operand_kinds["FPEncoding"].by_value.get(words[3])
        form = _ENCODING_FORMS.get(e.name if e else "")
        if form is not None:
            return form
    return _number_form("f", words[2])


class Decoder:
    """Decodes instructions one after another, remembering the context later ones need: integer
    and float types (literal widths), value types (OpSwitch selectors) and imported sets."""

    def __init__(self, grammar: Grammar | None = None):
        self.grammar = grammar or load_grammar()
        self.number_types: dict[int, str] = {}  # type id -> 'u32', 'i8', 'f16' ...
        self.value_types: dict[int, int] = {}  # value id -> its type id
        self.ext_sets: dict[int, ExtInstSet | UnknownExtInstSet] = {}
        self.defined: dict[int, int] = {}  # result id -> word offset of its definition
        self._plans: dict[int, tuple[int, tuple[Operand, ...], tuple] | None] = {}
        # Layouts of general-path instructions, memoised by the words their decoding read:
        # opcode -> {reads: {key: (operands, ext_set)}} (see _key).
        self._memo: dict[int, dict[tuple, dict[tuple, tuple]]] = {}

    # -- fixed-layout fast path -------------------------------------------------------------------

    def _plan(self, desc: InstructionDesc):
        """For an opcode whose operands are all single words (ids, integers, parameterless
        enumerants) and present exactly once, the shared operand spans and enum checks."""
        spans = []
        checks = []
        for i, spec in enumerate(desc.operands):
            if spec.quantifier:
                return None
            if spec.kind in ID_KINDS or spec.kind == "LiteralInteger":
                pass
            else:
                kind = self.grammar.operand_kinds.get(spec.kind)
                if kind is None or kind.category != "ValueEnum":
                    return None
                if any(e.parameters for e in kind.enumerants):
                    return None
                checks.append((i + 1, kind))
            spans.append(Operand(spec.kind, i + 1, 1, "u32" if spec.kind == "LiteralInteger" else None))
        # What _remember needs, precomputed: the result id's word (0: none), whether a result type
        # precedes it, and whether the opcode feeds the decoding context (number types).
        kinds = [s.kind for s in spans]
        rid_word = kinds.index("IdResult") + 1 if "IdResult" in kinds[:2] else 0
        typed = kinds[:2] == ["IdResultType", "IdResult"]
        contextual = desc.opcode in (OP_TYPE_INT, OP_TYPE_FLOAT, OP_EXT_INST_IMPORT)
        return len(spans) + 1, tuple(spans), tuple(checks), rid_word, typed, contextual

    def decode(self, words: list[int], offset: int = 0) -> Instruction:
        """Decode one instruction from its words (word 0 included); ``offset`` is its word offset
        in the module, used in error messages."""
        opcode = words[0] & 0xFFFF
        try:
            plan = self._plans[opcode]
        except KeyError:
            desc = self.grammar.instruction(opcode)
            plan = self._plan(desc) if desc is not None else None
            self._plans[opcode] = plan
        if plan is not None and plan[0] == len(words):
            for index, kind in plan[2]:
                if words[index] not in kind.by_value:
                    raise BinaryError(
                        f"invalid {kind.name} operand {words[index]} in "
                        f"{self.grammar.instruction(opcode).opname}",
                        offset + index,
                    )
            inst = Instruction(opcode, words, plan[1], offset)
            # _remember's work for a fixed layout; anything unusual (an id 0, a second definition,
            # a context-feeding opcode) takes _remember itself, which reports it.
            rid_word = plan[3]
            if plan[5] or 0 in words or (rid_word and words[rid_word] in self.defined):
                self._remember(inst)
                return inst
            if rid_word:
                self.defined[words[rid_word]] = offset
                if plan[4]:
                    self.value_types[words[2]] = words[1]
            return inst
        else:
            inst = None
            memo = self._memo.get(opcode)
            if memo is not None:
                for reads, table in memo.items():
                    hit = table.get(self._key(words, reads))
                    if hit is not None:
                        inst = Instruction(opcode, words, hit[0], offset, hit[1])
                        break
            if inst is None:
                inst, reads = self._decode_general(opcode, words, offset)
                if reads is not None:
                    table = self._memo.setdefault(opcode, {}).setdefault(reads, {})
                    table[self._key(words, reads)] = (inst.operands, inst.ext_set)
        self._remember(inst)
        return inst

    def _key(self, words: list[int], reads: tuple[int, ...]) -> tuple:
        """The values the layout of an instruction depends on: its length, the words at
        ``reads`` (enumerants, masks, extended-instruction numbers) and, for the negative
        markers, context: -1 the OpConstant type's form, -2 the OpSwitch selector's form,
        -3 the imported set of an OpExtInst."""
        n = len(words)
        key = [n]
        for r in reads:
            if r >= 0:
                key.append(words[r] if r < n else None)
            elif n < 2:
                key.append(None)
            elif r == -1:
                key.append(self.number_types.get(words[1]))
            elif r == -2:
                key.append(self.number_types.get(self.value_types.get(words[1], -1)))
            else:
                key.append(self.ext_sets.get(words[3]) if n > 3 else None)
        return tuple(key)

    # -- general path ----------------------------------------------------------------------------

    def _decode_general(self, opcode: int, words: list[int], offset: int):
        """Decode by walking the grammar; returns the instruction and the word positions (and
        context markers, see _key) its layout depended on, or None if it cannot be memoised."""
        desc = self.grammar.instruction(opcode)
        if desc is None:
            raise BinaryError(f"unknown opcode {opcode}", offset)
        end = len(words)
        operands: list[Operand] = []
        add = operands.append
        reads: list[int] | None = []
        pending = list(reversed(desc.operands))  # a stack: next operand spec on top
        pos = 1
        ext_set = None
        ext_kinds = None
        while pending:
            spec = pending.pop()
            kind, quant = spec.kind, spec.quantifier
            if pos >= end:
                if quant:  # an optional or variadic operand that is absent
                    continue
                raise BinaryError(
                    f"{desc.opname}: missing operand '{spec.name or kind}' (instruction has {end} words)",
                    offset,
                )
            if quant == "*":
                pending.append(spec)  # consume as many as the words allow
            if kind in ID_KINDS:
                add(_new(Operand, (kind, pos, 1, None)))
                pos += 1
            elif kind == "LiteralString":
                count = self._string_words(words, pos, offset, desc.opname)
                add(_new(Operand, (kind, pos, count, None)))
                pos += count
                reads = None  # the layout depends on the string's length
            elif kind == "LiteralInteger":
                add(_new(Operand, (kind, pos, 1, "u32")))
                pos += 1
            elif kind == "LiteralFloat":
                add(_new(Operand, (kind, pos, 1, "f32")))
                pos += 1
            elif kind == "LiteralContextDependentNumber":
                form = self._constant_form(words, offset, desc.opname)
                count = self._number_words(form, offset)
                self._need(words, pos, count, offset, desc.opname)
                add(_new(Operand, (kind, pos, count, form)))
                pos += count
                if reads is not None:
                    reads.append(-1)
            elif kind == "PairLiteralIntegerIdRef" and opcode == OP_SWITCH:
                form = self._selector_form(words, offset)
                count = self._number_words(form, offset)
                self._need(words, pos, count + 1, offset, desc.opname)
                add(_new(Operand, ("LiteralInteger", pos, count, form)))
                add(_new(Operand, ("IdRef", pos + count, 1, None)))
                pos += count + 1
                if reads is not None and (not reads or reads[-1] != -2):
                    reads.append(-2)
            elif kind == "LiteralExtInstInteger":
                ext_set = self.ext_sets.get(words[3]) if len(words) > 3 else None
                number = words[pos]
                add(_new(Operand, (kind, pos, 1, None)))
                if reads is not None:
                    reads.extend((-3, pos))
                pos += 1
                more = self._ext_inst_operands(ext_set, number, words, offset)
                if more is None:  # an unknown set: the rest stays raw words
                    operands.extend(_new(Operand, ("LiteralInteger", p, 1, "u32")) for p in range(pos, end))
                    pos = end
                else:
                    ext_kinds = ext_set
                    # The extended instruction's own operands replace OpExtInst's generic
                    # "Operand 1, Operand 2, ..." list, so extra words are an error.
                    pending.clear()
                    pending.extend(reversed(more))
            elif kind == "LiteralSpecConstantOpInteger":
                inner = self.grammar.instruction(words[pos])
                if inner is None or not inner.has_result or not inner.has_type:
                    raise BinaryError(f"OpSpecConstantOp: invalid opcode {words[pos]}", offset + pos)
                add(_new(Operand, (kind, pos, 1, None)))
                if reads is not None:
                    reads.append(pos)
                pos += 1
                pending.extend(reversed(inner.operands[2:]))
            else:
                okind = self.grammar.kind(kind, ext_kinds) if ext_kinds else self.grammar.operand_kinds.get(kind)
                if okind is None:
                    raise BinaryError(f"{desc.opname}: operand kind {kind} is not in the grammar", offset + pos)
                if okind.category == "Composite":
                    pending.extend(OperandSpec(b) for b in reversed(okind.bases))
                    continue
                value = words[pos]
                add(_new(Operand, (kind, pos, 1, None)))
                if reads is not None:
                    reads.append(pos)
                pos += 1
                params = self._enum_parameters(okind, value, offset + pos - 1, desc.opname)
                pending.extend(OperandSpec(p) for p in reversed(params))
        if pos != end:
            raise BinaryError(
                f"{desc.opname}: {end - pos} word(s) left over after the last operand "
                f"(word count {end}, operands end at {pos})",
                offset + pos,
            )
        inst = Instruction(opcode, words, tuple(operands), offset, ext_set)
        return inst, (tuple(reads) if reads is not None else None)

    def _need(self, words, pos, count, offset, opname):
        if pos + count > len(words):
            raise BinaryError(f"{opname}: operand runs past the end of the instruction", offset + pos)

    def _string_words(self, words, pos, offset, opname) -> int:
        for i in range(pos, len(words)):
            w = words[i]
            if (w & 0xFF000000) == 0 or (w & 0xFF0000) == 0 or (w & 0xFF00) == 0 or (w & 0xFF) == 0:
                return i - pos + 1
        raise BinaryError(f"{opname}: literal string is not nul-terminated within the instruction", offset + pos)

    def _constant_form(self, words, offset, opname) -> str:
        type_id = words[1] if len(words) > 1 else 0
        form = self.number_types.get(type_id)
        if form is None:
            raise BinaryError(f"{opname}: type id {type_id} is not a scalar integer or float type", offset + 1)
        return form

    def _selector_form(self, words, offset) -> str:
        selector = words[1] if len(words) > 1 else 0
        form = self.number_types.get(self.value_types.get(selector, -1))
        if form is None or form[0] not in "iu":
            raise BinaryError(
                f"OpSwitch: selector %{selector} is not defined as a scalar integer before the switch", offset + 1
            )
        return form

    @staticmethod
    def _number_words(form: str, offset: int) -> int:
        width = int(form[1:])
        if form[0] not in "iuf":
            return 1  # an encoded float (bfloat16, fp8): one word
        if width > 64 or width == 0:
            raise BinaryError(f"unsupported {width}-bit literal number", offset)
        return 1 if width <= 32 else 2

    def _ext_inst_operands(self, ext_set, number, words, offset):
        if ext_set is None:
            raise BinaryError(f"OpExtInst: %{words[3] if len(words) > 3 else 0} is not an imported instruction set", offset + 3)
        if isinstance(ext_set, UnknownExtInstSet):
            if ext_set.is_non_semantic:
                return [_VARIADIC_ID]
            return None
        desc = ext_set.by_opcode.get(number)
        if desc is None:
            if ext_set.is_non_semantic:
                return [_VARIADIC_ID]
            raise BinaryError(f"OpExtInst: {ext_set.import_name} has no instruction {number}", offset + 4)
        return list(desc.operands)

    def _enum_parameters(self, okind, value, at, opname) -> list[str]:
        if okind.category == "ValueEnum":
            e = okind.by_value.get(value)
            if e is None:
                raise BinaryError(f"{opname}: invalid {okind.name} operand {value}", at)
            return list(e.parameters)
        params: list[str] = []
        if value == 0:
            if 0 not in okind.by_value:
                raise BinaryError(f"{opname}: invalid {okind.name} operand 0", at)
            return params
        for bit in mask_bits(value):
            e = okind.by_value.get(bit)
            if e is None:
                raise BinaryError(f"{opname}: invalid {okind.name} mask bit 0x{bit:x}", at)
            params.extend(e.parameters)
        return params

    # -- context ---------------------------------------------------------------------------------

    def _remember(self, inst: Instruction) -> None:
        opcode = inst.opcode
        w = inst.words
        ops = inst.operands
        if 0 in w:  # only then can an id be 0 (literals may be 0 too: look closer)
            for op in ops:
                if op.kind in ID_KINDS and w[op.offset] == 0:
                    raise BinaryError(f"{inst.opname}: id 0 is not a valid id ({op.kind})", inst.offset + op.offset)
        rid = inst.result_id
        if rid is not None:
            if rid in self.defined:
                raise BinaryError(
                    f"{inst.opname}: id {rid} is defined more than once (first at word {self.defined[rid]})",
                    inst.offset + (2 if inst.type_id is not None else 1),
                )
            self.defined[rid] = inst.offset
        if ops and ops[0].kind == "IdResultType" and len(ops) > 1 and ops[1].kind == "IdResult":
            self.value_types[w[2]] = w[1]
        if opcode == OP_TYPE_INT and len(w) >= 4:
            self.number_types[w[1]] = _number_form("i" if w[3] else "u", w[2])
        elif opcode == OP_TYPE_FLOAT and len(w) >= 3:
            self.number_types[w[1]] = float_form(w)
        elif opcode == OP_EXT_INST_IMPORT and len(w) >= 3:
            name = decode_string(w, 2, len(w) - 2)
            self.ext_sets[w[1]] = self.grammar.ext_inst_set(name) or UnknownExtInstSet(name)


_VARIADIC_ID = OperandSpec("IdRef", "*", "operand")


def split_instructions(words: list[int], start: int = HEADER_WORDS):
    """Yield (offset, end) of each instruction, checking word counts."""
    n = len(words)
    pos = start
    while pos < n:
        count = words[pos] >> 16
        if count == 0:
            raise BinaryError(f"instruction word count is 0 (opcode {words[pos] & 0xFFFF})", pos)
        end = pos + count
        if end > n:
            raise BinaryError(
                f"instruction word count {count} runs past the end of the module "
                f"({n - pos} words left)",
                pos,
            )
        yield pos, end
        pos = end
