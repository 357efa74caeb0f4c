"""SPIR-V assembly text -> binary, accepting what spirv-as accepts and producing the same words.

The text format is SPIRV-Tools': ``%name = OpXxx operands`` or ``OpXxx operands``; ``;`` starts a
comment; ids are ``%`` followed by ``[A-Za-z0-9_]+`` and numbered in order of first appearance
(or kept, with ``preserve_numeric_ids``); enumerants by name, masks ``A|B``, extended instructions
by name; ``!<integer>`` writes a raw word wherever an operand (or a whole instruction) may stand.

Every error is an :class:`AssemblyError` located at ``file:line:col``.
"""

from __future__ import annotations

import bisect
import itertools
import re

from ...errors import AssemblyError
from ..binary import EXT_INST_OPCODES, MAGIC, UnknownExtInstSet, encode_string, float_form, words_to_bytes
from ..grammar import ID_KINDS, Grammar, OperandSpec, load_grammar, mask_bits
from ..names import OP
from ..target_env import DEFAULT_TARGET_ENV, spirv_version_for
from .assembler_fast import _ID, _INT, _MASK, _NUMBER, _RESULT, _STRING, _VALUE, fast_words, operand_plan
from .numbers import NumberError, parse_c_integer, infer_form, parse_number

#: The generator word spirvkit writes: tool id 0 (spirvkit has no registered tool id yet).
GENERATOR_WORD = 0

# A word runs to the next blank or ';', but a double-quoted string stays whole and a backslash
# escapes the next character (SPIRV-Tools' getWord). Blanks are the only characters no
# alternative matches, so findall sees every other character.
_WORD = r'(?:[^ \t\r\n;"\\]+|\\[\s\S]?|"(?:[^"\\]|\\[\s\S])*(?:"|\Z))+'
_TOKEN_RE = re.compile(r";[^\n]*|(" + _WORD + r")")
_ID_RE = re.compile(r"[A-Za-z0-9_]+\Z")
_OP_RE = re.compile(r"Op[A-Z]")
_UNKNOWN_RE = re.compile(r"OpUnknown\(([0-9a-fA-FxX]+),([0-9a-fA-FxX]+)\)\Z")

_REF_KINDS = frozenset({"IdRef", "IdResultType", "IdScope", "IdMemorySemantics"})

# Operand codes of the fast path's plans (see _operand_plan).
# (the codes operand_plan gives: one plan reader for both paths)
_P_ID, _P_RESULT, _P_INT, _P_STRING, _P_NUMBER, _P_VALUE, _P_MASK = _ID, _RESULT, _INT, _STRING, _NUMBER, _VALUE, _MASK
# A plan for ids only: (_ALL_IDS, (operand tokens, where the result id goes), the general plan).
_ALL_IDS = object()
# Opcodes the fast path leaves to the general one: extended instructions (their operands depend
# on the set), OpExtInstImport (it records the set), OpSwitch (literals typed by the selector).
_GENERAL_ONLY = EXT_INST_OPCODES | {OP.ExtInstImport, OP.Switch}


def _operand_plan(desc, grammar: Grammar) -> tuple | None:
    """How the fast path reads ``desc``'s operands: (code, quantifier, operand kind) per operand
    slot; None for an opcode it does not handle. A quantified slot may be followed only by
    quantified ones (positional reading stays unambiguous)."""
    if desc.opcode in _GENERAL_ONLY:
        return None
    plan = operand_plan(desc, desc.operands, grammar, result=_P_RESULT)
    if plan is None:
        return None
    if all(code in (_P_ID, _P_RESULT) and not quant for code, quant, _ in plan):
        codes = [code for code, _, _ in plan]
        result_at = codes.index(_P_RESULT) if _P_RESULT in codes else None
        return (_ALL_IDS, (len(plan) - (result_at is not None), result_at), tuple(plan))
    return tuple(plan)


def _parameter_plan(kinds: tuple[str, ...]) -> list | None:
    """The plan of an enumerant's parameters (ids and literal integers only), or None."""
    plan = []
    for kind in kinds:
        if kind in ID_KINDS:
            plan.append((_P_ID, "", None))
        elif kind == "LiteralInteger":
            plan.append((_P_INT, "", None))
        else:
            return None
    return plan
_CIV = OperandSpec("CIV", "*")  # after !<integer>: a literal number, a string or an id
_RESULT = OperandSpec("IdResult")
_VARIADIC_ID = OperandSpec("IdRef", "*")


class _Source:
    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self.line_starts = None  # found when an error needs them

    def error(self, message: str, index: int) -> AssemblyError:
        if self.line_starts is None:
            self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self.line_starts, index) - 1
        start = self.line_starts[line]
        end = self.text.find("\n", start)
        source_line = self.text[start : end if end >= 0 else len(self.text)]
        return AssemblyError(message, self.filename, line + 1, index - start + 1, source_line.rstrip("\r"))


# Blanks str.split() splits on but a token does not end at: with one of these in the text, only
# _TOKEN_RE tokenizes it right (a test checks these against str.isspace).
_ASCII_OTHER_SPACES = "\x0b\x0c\x1c\x1d\x1e\x1f"
_OTHER_SPACE_RE = re.compile("[\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_COMMENT_RE = re.compile(r";[^\n]*")
_BLANKS = " \t\r\n"


def _tokenize(text: str) -> list[str]:
    """The tokens _TOKEN_RE finds, several times faster: str.split() between the strings (and
    with the comments taken out) gives the same list where there is no backslash, no unusual
    blank, no string glued to other text and no comment holding a quote; otherwise _TOKEN_RE."""
    if "\\" in text:
        return _regex_tokenize(text)
    if text.isascii():
        if any(blank in text for blank in _ASCII_OTHER_SPACES):
            return _regex_tokenize(text)
    elif _OTHER_SPACE_RE.search(text):
        return _regex_tokenize(text)
    parts = text.split('"')  # outside, string, outside, ..., outside (or string, if unterminated)
    tokens: list[str] = []
    extend = tokens.extend
    last = len(parts) - 1
    for i in range(0, len(parts), 2):
        outside = parts[i]
        if ";" in outside:
            if i < last and outside.find("\n", outside.rindex(";")) < 0:
                return _regex_tokenize(text)  # a comment runs on into a string
            extend(_COMMENT_RE.sub(" ", outside).split())
        else:
            extend(outside.split())
        if i < last:
            # A word runs on through a string: let _TOKEN_RE have a string glued to other text.
            if outside[-1:] not in _BLANKS or (not outside and i):
                return _regex_tokenize(text)
            after = parts[i + 2] if i + 2 <= last else None
            if after is None:
                tokens.append('"' + parts[i + 1])  # unterminated: it runs to the end of the text
                break
            if after[:1] not in _BLANKS and after[:1] != ";" or (not after and i + 2 < last):
                return _regex_tokenize(text)
            tokens.append('"' + parts[i + 1] + '"')
    return tokens


def _regex_tokenize(text: str) -> list[str]:
    return [word for word in _TOKEN_RE.findall(text) if word]


def _token_starts(text: str) -> list[int]:
    """Character offsets of the tokens (only needed to locate an error)."""
    return [m.start(1) for m in _TOKEN_RE.finditer(text) if m.group(1)]


def _instruction_starts(tokens: list[str]) -> bytearray:
    """flags[i] is 1 where token i begins an instruction: an opcode, or '%id = Opcode'."""
    flags = bytearray(len(tokens) + 1)
    # The candidates, found by a loop that runs in C: tokens starting with "Op".
    for i in itertools.compress(itertools.count(), map(str.startswith, tokens, itertools.repeat("Op"))):
        if _OP_RE.match(tokens[i]):
            if i >= 2 and tokens[i - 1] == "=" and tokens[i - 2][:1] == "%":
                flags[i - 2] = 1
            else:
                flags[i] = 1
    return flags


def _unquote(token: str) -> str | None:
    """The value of a quoted string token (backslash escapes the next character), or None."""
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        return None
    out = []
    escaping = False
    for ch in token[1:-1]:
        if ch == "\\" and not escaping:
            escaping = True
            continue
        out.append(ch)
        escaping = False
    if escaping:
        return None
    return "".join(out)


def _looks_numeric(token: str) -> bool:
    """spvTextToLiteral's classification: digits, at most one '.', and '-' only first."""
    if not token or token == "-":
        return False
    periods = 0
    for i, ch in enumerate(token):
        if ch == ".":
            periods += 1
        elif ch == "-":
            if i:
                return False
        elif not ch.isdigit() or not ch.isascii():
            return False
    return periods <= 1


class Assembler:
    def __init__(
        self, text: str, filename: str, grammar: Grammar, preserve_numeric_ids: bool, version=(1, 6),
        tokens: list[str] | None = None,
    ):
        self.source = _Source(text, filename)
        self.version = version
        self.grammar = grammar
        self.tokens = _tokenize(text) if tokens is None else tokens
        self.starts_instruction: bytearray | None = None  # assemble() or the fast path sets it
        self._starts = None
        self.pos = 0
        self.named_ids: dict[str, int] = {}
        self.first_use: dict[int, int] = {}  # id -> token index of first mention
        self.defined: dict[int, int] = {}  # id -> token index of its definition
        self.next_id = 1
        self.saw_immediate_instruction = False
        self.bound = 1
        self.preserved: set[int] = set()
        if preserve_numeric_ids:
            for token in self.tokens:
                if token.startswith("%") and _ID_RE.match(token, 1):
                    try:
                        value = parse_c_integer(token[1:])
                    except NumberError:
                        continue
                    if 0 <= value < 1 << 32:
                        self.preserved.add(value)
        self.number_types: dict[int, str] = {}
        self.other_types: set[int] = set()
        self.value_types: dict[int, int] = {}
        self.ext_sets: dict[int, object] = {}
        self._plans: dict[int, tuple | None] = {}
        self._ready: dict[str, tuple] = {}  # opcode name -> (desc, plan) for the fast path

    # -- helpers ---------------------------------------------------------------------------------

    def error(self, message: str, token_index: int | None = None) -> AssemblyError:
        if token_index is None:
            token_index = self.pos
        if self._starts is None:
            self._starts = _token_starts(self.source.text)
        if token_index < len(self._starts):
            index = self._starts[token_index]
        else:
            index = len(self.source.text)
        return self.source.error(message, index)

    def id_operand(self, token: str, token_index: int) -> int:
        """The id a '%name' token stands for, assigning the next free id on first mention."""
        found = self.named_ids.get(token)
        if found is not None:
            return found
        if not token.startswith("%"):
            raise self.error(f"expected an id (starting with %), found '{token}'", token_index)
        name = token[1:]
        if not _ID_RE.match(name):
            raise self.error(f"invalid id '{token}': ids are % followed by letters, digits and _", token_index)
        if self.preserved:
            try:
                value = parse_c_integer(name)
            except NumberError:
                value = None
            if value in self.preserved:
                self.bound = max(self.bound, value + 1)
                self.first_use.setdefault(value, token_index)
                return value
        found = self.next_id
        self.next_id += 1
        while found in self.preserved:
            found = self.next_id
            self.next_id += 1
        self.named_ids[token] = found
        if found >= self.bound:
            self.bound = found + 1
        if found not in self.first_use:
            self.first_use[found] = token_index
        return found

    def operand_available(self) -> bool:
        return self.pos < len(self.tokens) and not self.starts_instruction[self.pos]

    # -- instructions ----------------------------------------------------------------------------

    def assemble(self) -> list[int]:
        if self.starts_instruction is None:
            self.starts_instruction = _instruction_starts(self.tokens)
        words: list[int] = []
        tokens = self.tokens
        n = len(tokens)
        ready = self._ready
        planned = self.planned_instruction
        while self.pos < n:
            # Straight to the fast path for an opcode instruction() has checked before.
            start = self.pos
            token = tokens[start]
            if token[0] == "%":
                entry = ready.get(tokens[start + 2]) if start + 2 < n and tokens[start + 1] == "=" else None
                if entry is not None and entry[0].has_result:
                    found = planned(entry[0], entry[1], start + 2, start)
                    if found is not None:
                        words.extend(found)
                        continue
            else:
                entry = ready.get(token)
                if entry is not None and not entry[0].has_result:
                    found = planned(entry[0], entry[1], start, None)
                    if found is not None:
                        words.extend(found)
                        continue
            words.extend(self.instruction())
        if self.saw_immediate_instruction:
            return words  # raw instructions may define ids we cannot see
        for id_, token_index in self.first_use.items():
            if id_ not in self.defined:
                raise self.error(f"undefined id %{self.tokens[token_index].lstrip('%').split()[0]}", token_index)
        return words

    def instruction(self) -> list[int]:
        tokens = self.tokens
        start = self.pos
        token = tokens[start]
        if token.startswith("!"):
            return self.immediate_instruction()
        if token.startswith("OpUnknown("):
            return self.unknown_instruction()
        result_token = None
        if _OP_RE.match(token):
            op_index = start
        else:
            if not token.startswith("%"):
                raise self.error(f"expected an opcode or a result id at the start of an instruction, found '{token}'")
            result_token = start
            if start + 1 >= len(tokens):
                raise self.error("expected '=' after the result id, found end of text", start + 1)
            if tokens[start + 1] != "=":
                raise self.error(f"expected '=' after the result id, found '{tokens[start + 1]}'", start + 1)
            if start + 2 >= len(tokens):
                raise self.error("expected an opcode, found end of text", start + 2)
            op_index = start + 2
            if not _OP_RE.match(tokens[op_index]):
                raise self.error(f"invalid opcode '{tokens[op_index]}' (opcodes start with 'Op')", op_index)
        opname = tokens[op_index]
        desc = self.grammar.by_name.get(opname)
        if desc is None:
            raise self.error(f"unknown opcode '{opname}'", op_index)
        if not self.version_allows(desc):
            raise self.error(
                f"{desc.opname} needs SPIR-V {desc.version[0]}.{desc.version[1]}; the target is "
                f"SPIR-V {self.version[0]}.{self.version[1]}",
                op_index,
            )
        if desc.has_result and result_token is None:
            raise self.error(f"{desc.opname} produces a result: write '%name = {desc.opname} ...'", op_index)
        if not desc.has_result and result_token is not None:
            raise self.error(f"{desc.opname} has no result id, but one is assigned", result_token)
        plan = self._plans.get(desc.opcode, False)
        if plan is False:
            plan = self._plans[desc.opcode] = _operand_plan(desc, self.grammar)
        if plan is not None:
            self._ready[opname] = (desc, plan)  # checked: assemble() may go straight to the fast path
            words = self.planned_instruction(desc, plan, op_index, result_token)
            if words is not None:
                return words
        self.inst_words = words = [0]
        self.opcode = opcode = desc.opcode
        self.ext_set = None
        n = len(tokens)
        flags = self.starts_instruction
        named = self.named_ids
        pending = list(reversed(desc.operands))
        pos = op_index + 1
        while pending:
            spec = pending.pop()
            kind = spec.kind
            if kind == "IdResult" and result_token is not None:
                words.append(self.result_id(result_token))
                continue
            available = pos < n and not flags[pos]
            quant = spec.quantifier
            if quant == "*" and kind != "CIV":
                if not available:
                    continue
                pending.append(spec)
            elif not available:
                if quant:
                    continue
                what = "end of text" if pos >= n else "the next instruction"
                raise self.error(f"{desc.opname}: expected operand '{spec.name or kind}', found {what}", pos)
            if kind in _REF_KINDS:
                token = tokens[pos]
                if token[0] != "!":
                    value = named.get(token)
                    words.append(value if value is not None else self.id_operand(token, pos))
                    pos += 1
                    if len(words) == 4 and opcode in EXT_INST_OPCODES:  # OpExtInst's set operand
                        self.ext_set = self.ext_sets.get(words[3])
                        if self.ext_set is None:
                            raise self.error(f"{token} is not an imported extended instruction set", pos - 1)
                    continue
            self.pos = pos
            self.operand(spec, pending)
            pos = self.pos
        self.pos = pos
        self.record(desc, words, start)
        if len(words) > 0xFFFF:
            raise self.error(f"{desc.opname}: instruction too long ({len(words)} words, the limit is 65535)", start)
        words[0] = (len(words) << 16) | desc.opcode
        return words

    def version_allows(self, desc) -> bool:
        """spirv-as refuses a core opcode newer than the target version, unless a capability
        or extension can enable it (those are left to the validator)."""
        if desc.capabilities or desc.extensions:
            return True
        return desc.version is not None and desc.version <= self.version

    def planned_instruction(self, desc, plan: tuple, op_index: int, result_token) -> list[int] | None:
        """The common cases done quickly, by the opcode's plan: ids, literal integers in plain
        decimal, plain strings, constants, enumerants and masks (with id or integer parameters).
        First every operand but the ids is read without side effects; anything unusual (an
        immediate, a missing or extra operand, a literal or name to complain about) returns None
        for the general path to handle, or report, from the same place. Only then are the ids
        numbered, in operand order as the general path numbers them."""
        tokens = self.tokens
        first = op_index + 1
        end = self.starts_instruction.find(1, first)
        if end < 0:
            end = len(tokens)
        if plan[0] is _ALL_IDS:  # ids only, all named before: no operand loop
            count, result_at = plan[1]
            if end - first == count:
                get = self.named_ids.get
                ids = [get(t) for t in tokens[first:end]]
                if None not in ids:
                    if result_at is not None:
                        ids.insert(result_at, self.result_id(result_token))
                    words = [((len(ids) + 1) << 16) | desc.opcode, *ids]
                    self.pos = end
                    self.record(desc, words, op_index if result_token is None else result_token)
                    return words
            plan = plan[2]
        words = [0]
        ids = []  # (word index, token index; -1 for the result id)
        pos = first
        k = 0
        count = len(plan)
        params = None
        while True:
            if params:
                code, quant, okind = params.pop()
            elif k < count:
                code, quant, okind = plan[k]
                k += 1
                if quant == "*":
                    k -= 1  # variadic: read again while operands remain
            else:
                break
            if code == _P_RESULT:
                ids.append((len(words), -1))
                words.append(0)
                continue
            if pos >= end:
                if quant:
                    if quant == "*":
                        k += 1
                    continue
                return None
            token = tokens[pos]
            pos += 1
            if code == _P_ID:
                if token[0] != "%":
                    return None
                ids.append((len(words), pos - 1))
                words.append(0)
            elif code == _P_INT:
                if not (token.isdecimal() and token.isascii() and len(token) <= 9 and (token[0] != "0" or token == "0")):
                    return None
                words.append(int(token))
            elif code == _P_VALUE:
                e = okind.by_name.get(token)
                if e is None:
                    return None
                words.append(e.value)
                if e.parameters:
                    params = _parameter_plan(e.parameters)
                    if params is None:
                        return None
                    params.reverse()
            elif code == _P_MASK:
                value = 0
                by_name = okind.by_name
                for part in token.split("|"):
                    e = by_name.get(part)
                    if e is None:
                        return None
                    value |= e.value
                words.append(value)
                kinds = [p for bit in mask_bits(value) for p in okind.by_value[bit].parameters]
                if kinds:
                    params = _parameter_plan(kinds)
                    if params is None:
                        return None
                    params.reverse()
            elif code == _P_STRING:
                if len(token) < 2 or token[0] != '"' or token[-1] != '"' or "\\" in token:
                    return None
                try:
                    words.extend(encode_string(token[1:-1]))
                except UnicodeEncodeError:
                    return None
            else:  # _P_NUMBER: OpConstant's value, typed by its (already defined) result type
                type_id = self.named_ids.get(tokens[ids[0][1]]) if ids and ids[0][1] >= 0 else None
                form = self.number_types.get(type_id)
                if form is None:
                    return None
                try:
                    words.extend(parse_number(token, form))
                except NumberError:
                    return None
        if pos != end:
            return None
        named = self.named_ids
        for index, at in ids:
            if at < 0:
                words[index] = self.result_id(result_token)
            else:
                token = tokens[at]
                value = named.get(token)
                words[index] = value if value is not None else self.id_operand(token, at)
        start = op_index if result_token is None else result_token
        if len(words) > 0xFFFF:
            raise self.error(f"{desc.opname}: instruction too long ({len(words)} words, the limit is 65535)", start)
        words[0] = (len(words) << 16) | desc.opcode
        self.pos = end
        self.record(desc, words, start)
        return words

    def immediate_instruction(self) -> list[int]:
        start = self.pos
        self.saw_immediate_instruction = True
        words = [self.immediate(self.tokens[start])]
        self.pos += 1
        self.inst_words = words
        self.opcode = None
        self.ext_set = None
        while self.operand_available():
            if self.tokens[self.pos] == "=":
                raise self.error(f"{self.tokens[start]} not allowed before '='")
            self.civ()
        return words

    def unknown_instruction(self) -> list[int]:
        """``OpUnknown(opcode, word count)`` followed by raw operands (literals, strings, ids)."""
        start = self.pos
        spelled = ""
        while self.pos < len(self.tokens):
            spelled += self.tokens[self.pos]
            self.pos += 1
            if ")" in spelled:
                break
        m = _UNKNOWN_RE.match(spelled)
        if m is None:
            raise self.error("expected OpUnknown(<opcode>, <word count>)", start)
        try:
            opcode, count = parse_c_integer(m.group(1)), parse_c_integer(m.group(2))
        except NumberError:
            opcode = count = -1
        if not (0 <= opcode <= 0xFFFF and 0 <= count <= 0xFFFF):
            raise self.error("OpUnknown: the opcode and word count must be 16-bit unsigned integers", start)
        self.saw_immediate_instruction = True
        words = [(count << 16) | opcode]
        self.inst_words = words
        self.opcode = None
        self.ext_set = None
        while len(words) < count and self.operand_available():
            self.civ()
        if len(words) != count:
            raise self.error(
                f"OpUnknown({opcode}, {count}): the instruction has {len(words)} words, not {count}", start
            )
        return words

    def string_words(self, value: str) -> list[int]:
        try:
            return encode_string(value)
        except UnicodeEncodeError as e:  # a lone surrogate that stands for no byte
            raise self.error(f"string literal holds a character UTF-8 cannot encode: {value[e.start]!r}") from None

    def immediate(self, token: str) -> int:
        try:
            value = parse_c_integer(token[1:])
        except NumberError:
            value = -1
        if not 0 <= value < 1 << 32:
            raise self.error(f"invalid immediate integer: {token}")
        return value

    def result_id(self, token_index: int) -> int:
        token = self.tokens[token_index]
        value = self.id_operand(token, token_index)
        if value in self.defined:
            first = self.error("", self.defined[value])
            raise self.error(
                f"duplicate definition of {token} (first defined at line {first.line}, column {first.column})",
                token_index,
            )
        self.defined[value] = token_index
        return value

    # -- operands --------------------------------------------------------------------------------

    def operand(self, spec: OperandSpec, pending: list) -> None:
        token = self.tokens[self.pos]
        kind = spec.kind
        words = self.inst_words
        if token.startswith("!") and kind != "CIV":
            words.append(self.immediate(token))
            self.pos += 1
            # What follows is no longer typed: literals, strings or ids, but a result id
            # still to come keeps its place.
            rest = []
            while pending:
                s = pending.pop()
                if s.kind == "IdResult":
                    rest.append(_RESULT)
                    break
                rest.append(_CIV)
            pending[:] = [_CIV] + list(reversed(rest))
            return
        if kind == "CIV":
            self.civ()
            pending.append(spec)
            return
        if kind in ID_KINDS:
            words.append(self.id_operand(token, self.pos))
            self.pos += 1
            if self.opcode in EXT_INST_OPCODES and len(words) == 4:
                ext_set = self.ext_sets.get(words[3])
                if ext_set is None:
                    raise self.error(f"{token} is not an imported extended instruction set")
                self.ext_set = ext_set
            return
        if kind == "LiteralString":
            value = _unquote(token)
            if value is None:
                if _looks_numeric(token):
                    raise self.error(f"expected a literal string, found the number '{token}'")
                if token.startswith('"'):
                    raise self.error("unterminated string literal")
                raise self.error(f"expected a quoted literal string, found '{token}'")
            if self.opcode == 11:  # OpExtInstImport
                self.ext_sets[words[1]] = self.grammar.ext_inst_set(value) or UnknownExtInstSet(value)
            words.extend(self.string_words(value))
            self.pos += 1
            return
        if kind == "LiteralInteger":
            self.number(token, "u32")
            return
        if kind == "LiteralFloat":
            self.number(token, "f32")
            return
        if kind == "LiteralContextDependentNumber":
            form = self.number_types.get(words[1]) if self.opcode in (43, 50) else None
            if form is None:
                raise self.error(
                    "the type of an OpConstant or OpSpecConstant must be a scalar integer or float type "
                    "defined before it"
                )
            self.number(token, form)
            return
        if kind == "PairLiteralIntegerIdRef" and self.opcode == 251:  # OpSwitch target
            form = self.number_types.get(self.value_types.get(words[1], -1))
            if form is None or form[0] not in "iu":
                raise self.error("the OpSwitch selector must be a value of scalar integer type defined before it")
            self.number(token, form)
            pending.append(OperandSpec("IdRef"))
            return
        if kind == "LiteralExtInstInteger":
            self.ext_inst_number(token, pending)
            return
        if kind == "LiteralSpecConstantOpInteger":
            desc = self.grammar.by_name.get("Op" + token)
            if desc is None or not (desc.has_type and desc.has_result):
                raise self.error(f"invalid opcode for OpSpecConstantOp: '{token}'")
            words.append(desc.opcode)
            self.pos += 1
            pending.extend(reversed(desc.operands[2:]))
            return
        okind = self.grammar.kind(kind, self.ext_set if not isinstance(self.ext_set, UnknownExtInstSet) else None)
        if okind.category == "Composite":
            pending.extend(OperandSpec(b) for b in reversed(okind.bases))
            return
        if okind.category == "BitEnum":
            value = 0
            for part in token.split("|"):
                e = okind.by_name.get(part)
                if e is None:
                    raise self.error(f"invalid {okind.name} operand '{part}'")
                value |= e.value
            words.append(value)
            self.pos += 1
            params = [p for bit in mask_bits(value) for p in okind.by_value[bit].parameters]
            pending.extend(OperandSpec(p) for p in reversed(params))
            return
        e = okind.by_name.get(token)
        if e is None:
            raise self.error(f"invalid {okind.name} operand '{token}'")
        words.append(e.value)
        self.pos += 1
        pending.extend(OperandSpec(p) for p in reversed(e.parameters))

    def number(self, token: str, form: str) -> None:
        try:
            self.inst_words.extend(parse_number(token, form))
        except NumberError as e:
            raise self.error(str(e)) from None
        self.pos += 1

    def civ(self) -> None:
        token = self.tokens[self.pos]
        if token.startswith("!"):
            self.inst_words.append(self.immediate(token))
            self.pos += 1
        elif token.startswith("%"):
            self.inst_words.append(self.id_operand(token, self.pos))
            self.pos += 1
        elif token.startswith('"'):
            value = _unquote(token)
            if value is None:
                raise self.error("unterminated string literal")
            self.inst_words.extend(self.string_words(value))
            self.pos += 1
        else:
            self.number(token, infer_form(token))

    def ext_inst_number(self, token: str, pending: list) -> None:
        ext_set = self.ext_set
        if ext_set is not None and not isinstance(ext_set, UnknownExtInstSet):
            desc = ext_set.by_name.get(token)
            if desc is not None:
                self.inst_words.append(desc.opcode)
                self.pos += 1
                pending.clear()  # its own operands replace OpExtInst's generic operand list
                pending.extend(reversed(desc.operands))
                return
            if not ext_set.is_non_semantic:
                raise self.error(f"invalid extended instruction name '{token}' for {ext_set.import_name}")
        self.number(token, "u32")
        pending.clear()
        if ext_set is not None and ext_set.is_non_semantic:
            pending.append(_VARIADIC_ID)
        else:
            pending.append(_CIV)  # an unknown set: its operands are raw words

    # -- context ---------------------------------------------------------------------------------

    def record(self, desc, words: list[int], start: int) -> None:
        opcode = desc.opcode
        if opcode == 21 and len(words) == 4:
            self.number_types[words[1]] = ("i" if words[3] else "u") + str(words[2])
        elif opcode == 22 and len(words) in (3, 4):
            self.number_types[words[1]] = float_form(words)
        elif desc.has_type and desc.has_result and len(words) > 2:
            self.value_types[words[2]] = words[1]


def assemble(
    text: str,
    target_env: str = DEFAULT_TARGET_ENV,
    *,
    preserve_numeric_ids: bool = False,
    filename: str = "<input>",
) -> bytes:
    """Assemble SPIR-V assembly text (SPIRV-Tools format) to a binary module.

    ``target_env`` picks the SPIR-V version in the header, as with ``spirv-as --target-env``.
    Raises :class:`~spirvkit.errors.AssemblyError` with ``file:line:col`` on bad input.
    """
    major, minor = spirv_version_for(target_env)
    grammar = load_grammar()
    assembler = Assembler(text, filename, grammar, preserve_numeric_ids, (major, minor))
    body = fast_words(assembler)
    if body is not None:
        header = [MAGIC, (major << 16) | (minor << 8), GENERATOR_WORD, assembler.bound, 0]
        return words_to_bytes(header) + body.tobytes()  # fast_words runs on little-endian hosts only
    # The general path, from the start (the fast path may have used this assembler).
    assembler = Assembler(text, filename, grammar, preserve_numeric_ids, (major, minor), assembler.tokens)
    body = assembler.assemble()
    header = [MAGIC, (major << 16) | (minor << 8), GENERATOR_WORD, assembler.bound, 0]
    return words_to_bytes(header + body)
