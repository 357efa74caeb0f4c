"""The assembler's fast path: a whole module at once, for text with nothing unusual in it.

Most of a module is instructions whose operands are ids, plain literal integers, enumerants,
masks, strings and constants. Here the ids are numbered up front, by loops that run in C: the
general assembler numbers ids in order of first mention as it reads operands, which is token
order except that a result id comes after its result type, so token order gives the same numbers
unless an instruction is the first to mention its result type (checked as we go). One ``map``
then turns every token into its id number (None for a token that is no id), and each instruction
is written from its opcode's plan, most as slices of that list. An instruction no plan covers
(OpExtInstImport, OpTypeInt, an operand spelled unusually ...) goes to the general
:class:`~.assembler.Assembler`, which shares the id numbers.

Anything this path cannot vouch for (a token that is no id where an id goes, a duplicate or
missing definition, an immediate ``!<integer>``, an error from the general path, an instruction
too long) makes it give up and return None: the caller then assembles the whole text with the
general path, from the start, which gives the same words or the same located error as before
this path existed. tests/spirv/test_assembler_fast.py compares the two.
"""

from __future__ import annotations

import operator
import re
import struct
import sys
from array import array
from itertools import compress, count

from ...errors import AssemblyError
from ..binary import EXT_INST_OPCODES, encode_string
from ..grammar import ID_KINDS, mask_bits
from ..names import OP
from .numbers import _DEC_FLOAT_RE, NumberError, parse_number

_OP_RE = re.compile(r"Op[A-Z]")  # what starts an instruction, as in assembler._instruction_starts
_IDS_RE = re.compile(r"(?:%[A-Za-z0-9_]+\n)*\Z")  # every distinct id token, one per line
_NO_LIMIT = 1 << 30  # a variadic plan's most operands (a longer instruction overflows its word)
# A string's nul terminator and padding to a whole word, by its length in bytes mod 4.
_PADDING = (b"\0\0\0\0", b"\0\0\0", b"\0\0", b"\0")

_OP_EXT_INST = OP.ExtInst
_OP_CONSTANT, _OP_SPEC_CONSTANT = OP.Constant, OP.SpecConstant
_OP_SWITCH = OP.Switch
# Opcodes left to the general path: it records what they define (an extended instruction set,
# the number form of an integer or float type).
_GENERAL_ONLY = (EXT_INST_OPCODES - {_OP_EXT_INST}) | {OP.ExtInstImport, OP.TypeInt, OP.TypeFloat}

# Operand codes of a plan (this path's tails, the general path's planned reading: assembler.py).
_ID, _INT, _STRING, _NUMBER, _VALUE, _MASK, _RESULT = range(7)


class _GiveUp(Exception):
    """Something the fast path cannot vouch for: the general path assembles the whole text."""


def _id_shape(specs) -> tuple[int, int, int] | None:
    """(fewest operands, most operands, group) when ``specs`` are ids only: leading plain ids,
    then optional ids or one variadic run of ids (group 1) or id pairs (group 2)."""
    lead = 0
    while lead < len(specs) and specs[lead].kind in ID_KINDS and not specs[lead].quantifier:
        lead += 1
    rest = specs[lead:]
    if not rest:
        return lead, lead, 1
    if all(s.quantifier == "?" and s.kind in ID_KINDS for s in rest):
        return lead, lead + len(rest), 1
    if len(rest) == 1 and rest[0].quantifier == "*":
        if rest[0].kind in ID_KINDS:
            return lead, _NO_LIMIT, 1
        if rest[0].kind == "PairIdRefIdRef":
            return lead, _NO_LIMIT, 2
    if all(s.quantifier for s in rest):
        return lead, lead, 1  # only the leading ids present: the optional rest is absent
    return None


def operand_plan(desc, specs, grammar, result: int = _ID) -> tuple | None:
    """(code, quantifier, operand kind) per operand of ``specs``, or None where one is beyond
    the plans (``result``: the code of an IdResult). A quantified operand may be followed only
    by quantified ones (positional reading stays unambiguous), and only ids and integers may
    repeat."""
    plan = []
    quantified = False
    for spec in specs:
        kind, quant = spec.kind, spec.quantifier
        okind = None
        if kind == "IdResult":
            code = result
        elif kind in ID_KINDS:
            code = _ID
        elif kind == "LiteralInteger":
            code = _INT
        elif kind == "LiteralString":
            code = _STRING
        elif kind == "LiteralContextDependentNumber" and desc.opcode in (_OP_CONSTANT, _OP_SPEC_CONSTANT):
            code = _NUMBER
        else:
            okind = grammar.operand_kinds.get(kind)
            if okind is None or okind.category not in ("ValueEnum", "BitEnum"):
                return None
            code = _VALUE if okind.category == "ValueEnum" else _MASK
        if quantified and not quant or (quant == "*" and code not in (_ID, _INT)):
            return None
        quantified = quantified or bool(quant)
        plan.append((code, quant, okind))
    return tuple(plan)


def _parameter_codes(kinds, grammar) -> tuple | None:
    """An enumerant's parameters as tail codes, reversed (to pop), or None where one is beyond
    the plans."""
    codes = []
    for kind in kinds:
        if kind in ID_KINDS:
            codes.append((_ID, "", None))
        elif kind == "LiteralInteger":
            codes.append((_INT, "", None))
        elif kind == "LiteralString":
            codes.append((_STRING, "", None))
        else:
            okind = grammar.operand_kinds.get(kind)
            if okind is None or okind.category not in ("ValueEnum", "BitEnum"):
                return None
            codes.append((_VALUE if okind.category == "ValueEnum" else _MASK, "", okind))
    codes.reverse()
    return tuple(codes)


def _enumerant(okind, token: str, grammar) -> tuple | None:
    """An enumerant (or mask: names joined by '|') operand's value and the codes of its
    parameters (reversed), or None."""
    if okind.category == "ValueEnum":
        enumerant = okind.by_name.get(token)
        if enumerant is None:
            return None
        value, kinds = enumerant.value, enumerant.parameters
    else:
        value = 0
        for part in token.split("|"):
            enumerant = okind.by_name.get(part)
            if enumerant is None:
                return None
            value |= enumerant.value
        kinds = [p for bit in mask_bits(value) for p in okind.by_value[bit].parameters]
    codes = _parameter_codes(kinds, grammar)
    return None if codes is None else (value, codes)


def _plain_u32(token: str) -> int | None:
    """A literal integer in plain decimal below 10**9 (no sign, no leading zero, no other base),
    which every integer form reads as itself; None for any other spelling."""
    if token.isdecimal() and token.isascii() and len(token) <= 9 and (token[0] != "0" or token == "0"):
        return int(token)
    return None


_PACK_D, _UNPACK_Q = struct.Struct("<d").pack, struct.Struct("<Q").unpack
_PACK_F, _UNPACK_I = struct.Struct("<f").pack, struct.Struct("<I").unpack
_FLT_MIN, _FLT_MAX = 1.1754943508222875e-38, 3.4028234663852886e38
_DBL_MIN, _DBL_MAX = 2.2250738585072014e-308, 1.7976931348623157e308


def _decimal_float_words(token: str, width: int) -> list[int] | None:
    """A decimal float literal's words for a 32- or 64-bit float, by float() (correctly rounded,
    to nearest even, as numbers.parse_float rounds the exact value), where the value is normal
    in the width: the words parse_number gives. None for the rest (other spellings, zero,
    subnormals, overflow, very long literals), which parse_number reads. A 32-bit value goes
    through a double: rounding twice gives the same float unless the double falls exactly
    halfway between two floats, which is left to parse_number too."""
    if len(token) > 40 or not _DEC_FLOAT_RE.match(token):
        return None
    x = float(token)
    magnitude = abs(x)
    if width == 64:
        if not _DBL_MIN <= magnitude <= _DBL_MAX:
            return None
        bits = _UNPACK_Q(_PACK_D(x))[0]
        return [bits & 0xFFFFFFFF, bits >> 32]
    if not _FLT_MIN <= magnitude < _FLT_MAX:
        return None
    if _UNPACK_Q(_PACK_D(x))[0] & 0x1FFFFFFF == 0x10000000:  # the 29 bits a float drops: a tie
        return None
    return [_UNPACK_I(_PACK_F(x))[0]]


class _PlainIntegers(dict):
    """Plain decimal literal -> its value (None for any other spelling), found once per token."""

    def __missing__(self, token: str) -> int | None:
        value = self[token] = _plain_u32(token)
        return value


def fast_words(asm) -> array | None:
    """The module's instruction words (host order), or None for the general path to do it all.
    ``asm`` is a fresh general Assembler on the text: its tokens, grammar and target version, and
    the encoder of whatever instruction the plans here do not cover."""
    if sys.byteorder != "little" or asm.preserved:
        return None  # strings go in as little-endian bytes; preserved ids number differently
    tokens = asm.tokens
    n = len(tokens)
    if not n:
        return None

    # Every distinct token in order of first mention (one pass in C), hence the ids, numbered
    # in that order, and the opcode names. Every id token must be a well-formed id. ``numbers``
    # maps every token to its id number (None for a token that is no id).
    numbers = dict.fromkeys(tokens)
    ids = []
    opnames = set()
    op_re = _OP_RE.match
    for token in numbers:
        first = token[0]
        if first == "%":
            ids.append(token)
        elif first == "O" and op_re(token):
            opnames.add(token)
    if ids and not _IDS_RE.match("\n".join(ids) + "\n"):
        return None
    numbers.update(zip(ids, count(1)))
    id_count = len(ids)
    del ids
    vals = list(map(numbers.__getitem__, tokens))

    # Instruction starts, as _instruction_starts finds them: tokens matching Op[A-Z], moved back
    # over '%result =' where one precedes.
    cands = list(compress(count(), map(opnames.__contains__, tokens)))
    if not cands:
        return None
    results = [c >= 2 and tokens[c - 1] == "=" and tokens[c - 2][:1] == "%" for c in cands]
    starts = list(map(operator.sub, cands, map((2).__mul__, results)))
    if starts[0] != 0:
        return None  # text before the first opcode: an immediate instruction, or an error
    ends = starts[1:]
    ends.append(n)

    # The general path's state, shared: ids already numbered, instruction starts known.
    flags = bytearray(n + 1)
    for s in starts:
        flags[s] = 1
    asm.starts_instruction = flags
    asm.named_ids = numbers
    asm.next_id = id_count + 1
    asm.bound = id_count + 1

    grammar = asm.grammar
    by_name = grammar.by_name
    version_allows = asm.version_allows
    value_types = asm.value_types
    number_types = asm.number_types
    ext_sets = asm.ext_sets
    ext_plans: dict[tuple, tuple | None] = {}
    ints = _PlainIntegers()
    int_of = ints.__getitem__
    enumerants: dict[tuple, tuple | None] = {}  # (kind name, token) -> (value, parameter codes)
    out = array("I")
    append = out.append
    extend = out.extend

    def general(start: int, end: int) -> None:
        asm.pos = start
        try:
            words = asm.instruction()
        except AssemblyError:
            raise _GiveUp from None
        if asm.pos != end or asm.saw_immediate_instruction:
            raise _GiveUp
        extend(words)

    def plan_of(opname: str) -> tuple:
        """(opcode, has result, has type, fewest, most, group, lead, tail, special) for an
        opcode's name: the operand counts (fewest to most, in steps of group) for which the
        operands are all ids; the codes of the operands after the ``lead`` leading ids (None
        where they are beyond the plans); special: "switch" (OpSwitch), "string" (OpName and
        the like: ids, then a string) or, where the tail is literal integers only, their
        (fewest, most) count. Opcode 0 where the general path encodes it."""
        desc = by_name.get(opname)
        if desc is None or desc.opcode in _GENERAL_ONLY or not version_allows(desc):
            # the general path encodes it (or says why not)
            return (0, None, desc is not None and desc.has_type, -1, -1, 1, 0, None, None)
        specs = [s for s in desc.operands if s.kind != "IdResult"]
        fewest, most, group = _id_shape(specs) or (-1, -1, 1)
        lead = 0
        while lead < len(specs) and specs[lead].kind in ID_KINDS and not specs[lead].quantifier:
            lead += 1
        tail = None if desc.opcode == _OP_EXT_INST else operand_plan(desc, specs[lead:], grammar)
        special = None  # the commonest tails, written without tail_words()
        if desc.opcode == _OP_SWITCH:
            special = "switch"
        elif tail == ((_STRING, "", None),) and not desc.has_result:
            special = "string"  # OpName and the like
        elif tail and all(code == _INT for code, _, _ in tail):  # OpLine, OpCompositeExtract ...
            quants = [quant for _, quant, _ in tail]
            special = (quants.count(""), _NO_LIMIT if "*" in quants else len(quants))
        return (desc.opcode, desc.has_result, desc.has_type, fewest, most, group, lead, tail, special)

    def ext_plan(set_id, name: str):
        """(instruction number, fewest, most, group) of an extended instruction taking ids only."""
        ext_set = ext_sets.get(set_id)
        desc = getattr(ext_set, "by_name", {}).get(name) if ext_set is not None else None
        if desc is None:
            return None
        shape = _id_shape(desc.operands)
        return None if shape is None else (desc.opcode, *shape)

    def tail_words(c: int, e: int, lead: int, tail: tuple, typed: bool) -> bool:
        """Appends the operands from the tail on (the leading ids are written); False, with
        nothing appended, where any operand is beyond the plans."""
        words = []
        pos = c + 1 + lead
        k = 0
        count_ = len(tail)
        params = []  # a stack, as the general path's pending operands
        while True:
            if params:
                code, quant, okind = params.pop()
            elif k < count_:
                code, quant, okind = tail[k]
                k += 1
                if quant == "*":
                    k -= 1  # variadic: read again while operands remain
            else:
                break
            if pos >= e:
                if quant:
                    if quant == "*":
                        k += 1
                    continue
                return False
            token = tokens[pos]
            pos += 1
            if code == _ID:
                value = vals[pos - 1]
                if value is None:
                    return False
                words.append(value)
            elif code == _INT:
                value = int_of(token)
                if value is None:
                    return False
                words.append(value)
            elif code == _VALUE or code == _MASK:
                key = (okind.name, token)
                found = enumerants.get(key, False)
                if found is False:
                    found = enumerants[key] = _enumerant(okind, token, grammar)
                if found is None:
                    return False
                words.append(found[0])
                if found[1]:
                    params.extend(found[1])
            elif code == _STRING:
                if len(token) < 2 or token[0] != '"' or token[-1] != '"' or "\\" in token:
                    return False
                try:
                    words.extend(encode_string(token[1:-1]))
                except UnicodeEncodeError:
                    return False
            else:  # _NUMBER: OpConstant's value, typed by its (already defined) result type
                form = number_types.get(vals[c + 1]) if typed else None
                if form is None:
                    return False
                if form[0] == "f":
                    found = _decimal_float_words(token, 32 if form == "f32" else 64) if form in ("f32", "f64") else None
                else:
                    found = int_of(token)
                    if found is not None:
                        found = [found] if form[1:] == "32" else [found, 0] if form[1:] == "64" else None
                if found is None:
                    try:
                        found = parse_number(token, form)
                    except NumberError:
                        return False
                words.extend(found)
        if pos != e:
            return False
        extend(words)
        return True

    # A result type must be mentioned before the instruction it types (else its number, given in
    # token order, may differ): a type an earlier instruction defined was (known[id] = 1); any
    # other is looked up in where each id is first mentioned, found then.
    known = bytearray(id_count + 1)
    first_mention = None

    plans = {opname: plan_of(opname) for opname in opnames}
    try:
        for c, r, e, plan in zip(cands, results, ends, map(plans.__getitem__, map(tokens.__getitem__, cands))):
            op, has_result, typed, fewest, most, group, lead, tail, special = plan
            if r:
                vx = vals[c - 2]
                if typed:
                    vt = vals[c + 1]
                    if not known[vt]:
                        if first_mention is None:
                            first_mention = {}
                            for i, token in enumerate(tokens):
                                if token[0] == "%":
                                    first_mention.setdefault(token, i)
                        if first_mention[tokens[c + 1]] == c + 1:
                            raise _GiveUp
                    value_types[vx] = vt
                else:
                    known[vx] = 1
            if has_result is not r or not op:
                general(c - 2 if r else c, e)  # it encodes it, or reports what is wrong
                continue
            k = e - c - 1  # operand tokens
            if r:
                if typed:
                    if fewest <= k <= most and not (k - fewest) % group:
                        extend((((k + 2) << 16) | op, vt, vx))
                        extend(vals[c + 2 : e])
                        continue
                    mark = len(out)
                    if op == _OP_EXT_INST:
                        if k >= 3:
                            key = (vals[c + 2], tokens[c + 3])
                            found = ext_plans.get(key, False)
                            if found is False:
                                found = ext_plans[key] = ext_plan(*key)
                            if found is not None:
                                number, lo, hi, grp = found
                                if lo <= k - 3 <= hi and not (k - 3 - lo) % grp:
                                    extend((((k + 2) << 16) | op, vt, vx, vals[c + 2], number))
                                    extend(vals[c + 4 : e])
                                    continue
                    elif tail is not None:
                        if special is not None and special[0] <= k - lead <= special[1]:
                            literals = list(map(int_of, tokens[c + 1 + lead : e]))
                            if None not in literals:
                                extend((((k + 2) << 16) | op, vt, vx))
                                extend(vals[c + 2 : c + 1 + lead])
                                extend(literals)
                                continue
                        extend((0, vt, vx))
                        extend(vals[c + 2 : c + 1 + lead])
                        if tail_words(c, e, lead, tail, True):
                            out[mark] = ((len(out) - mark) << 16) | op
                            continue
                        del out[mark:]
                    general(c - 2, e)
                    continue
                if fewest <= k <= most and not (k - fewest) % group:
                    append(((k + 2) << 16) | op)
                    append(vx)
                    extend(vals[c + 1 : e])
                    continue
                if tail is not None:
                    if special is not None and special[0] <= k - lead <= special[1]:
                        literals = list(map(int_of, tokens[c + 1 + lead : e]))
                        if None not in literals:
                            append(((k + 2) << 16) | op)
                            append(vx)
                            extend(vals[c + 1 : c + 1 + lead])
                            extend(literals)
                            continue
                    mark = len(out)
                    append(0)
                    append(vx)
                    extend(vals[c + 1 : c + 1 + lead])
                    if tail_words(c, e, lead, tail, False):
                        out[mark] = ((len(out) - mark) << 16) | op
                        continue
                    del out[mark:]
                general(c - 2, e)
                continue
            if fewest <= k <= most and not (k - fewest) % group:
                append(((k + 1) << 16) | op)
                extend(vals[c + 1 : e])
                continue
            if special == "string" and k == lead + 1:  # OpName and the like: ids, then a string
                token = tokens[c + k]
                if len(token) > 1 and token[0] == '"' and token[-1] == '"' and "\\" not in token:
                    try:
                        data = token[1:-1].encode("utf-8", "surrogateescape")
                    except UnicodeEncodeError:
                        data = None
                    if data is not None:
                        data += _PADDING[len(data) & 3]
                        append(((1 + lead + len(data) // 4) << 16) | op)
                        extend(vals[c + 1 : c + k])
                        out.frombytes(data)
                        continue
            if special == "switch" and k > 2 and not k % 2:  # literals typed by the selector
                form = number_types.get(value_types.get(vals[c + 1]))
                if form is not None and form[0] in "iu" and form[1:] in ("32", "64"):
                    literals = list(map(int_of, tokens[c + 3 : e : 2]))
                    if None not in literals:
                        labels = vals[c + 4 : e : 2]
                        step = 2 if form[1:] == "32" else 3  # a 64-bit literal: its high word is 0
                        cases = [0] * (len(labels) * step)
                        cases[0::step] = literals
                        cases[step - 1 :: step] = labels
                        append(((len(cases) + 3) << 16) | op)
                        extend(vals[c + 1 : c + 3])
                        extend(cases)
                        continue
            if tail is not None:
                if special.__class__ is tuple and special[0] <= k - lead <= special[1]:
                    literals = list(map(int_of, tokens[c + 1 + lead : e]))
                    if None not in literals:
                        append(((k + 1) << 16) | op)
                        extend(vals[c + 1 : c + 1 + lead])
                        extend(literals)
                        continue
                mark = len(out)
                append(0)
                extend(vals[c + 1 : c + 1 + lead])
                if tail_words(c, e, lead, tail, False):
                    out[mark] = ((len(out) - mark) << 16) | op
                    continue
                del out[mark:]
            general(c, e)
    except (_GiveUp, TypeError, OverflowError, IndexError):
        # TypeError: a token that is no id where an id goes (its value is None); OverflowError:
        # an instruction of more than 65535 words; IndexError: the text ends before an operand.
        return None

    # Every id defined exactly once (the general path reports a duplicate or a missing one).
    defined = [vals[c - 2] for c, r in zip(cands, results) if r]
    if len(defined) != id_count or len(set(defined)) != len(defined):
        return None
    return out
