"""C tokens from preprocessing tokens (C99 §6.4, translation phases 6–7) for OpenCL C.

The preprocessor hands over pp-tokens; here each becomes a :class:`CToken`: identifiers are
split into keywords and identifiers (the keyword set depends on ``-cl-std``), pp-numbers
become integer or floating constants with their value and C type (C99 §6.4.4.1 with
OpenCL's sizes: ``int`` 32 bits, ``long`` 64), character constants and string literals get
their decoded values, digraphs their meaning. Problems are reported through a ``diag``
callback, located at the offending character as clang does (``invalid digit '8' in octal
constant`` points at the 8), and the token still comes out, so parsing goes on.

Pragmas stay tokens of kind ``PRAGMA``: the parser attaches them to what follows.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..spirv.text.numbers import bounded_exponent, bounded_int, decimal_value
from .source import SourceLocation
from .tokens import CHAR, DIGRAPHS, IDENT, INVALID, NUMBER, PRAGMA, PUNCT, STRING, Token, decode_escapes

# CToken kinds.
KEYWORD = "keyword"
IDENTIFIER = "identifier"
INT_CONST = "int"
FLOAT_CONST = "float"
CHAR_CONST = "char"
STRING_LIT = "string"
PUNCTUATOR = "punct"
PRAGMA_TOK = "pragma"
OTHER_TOK = "other"  # a stray character ('@', '`', '\\'): never valid C, "expected …" later
EOF = "eof"

C99_KEYWORDS = frozenset("""
auto break case char const continue default do double else enum extern float for goto if inline
int long register restrict return short signed sizeof static struct switch typedef union unsigned
void volatile while _Bool _Complex _Imaginary
""".split())

# GNU spellings clang accepts in OpenCL C; the parser maps them to the C99 keyword.
GNU_ALIASES = {
    "__const": "const", "__const__": "const", "__restrict": "restrict", "__restrict__": "restrict",
    "__volatile": "volatile", "__volatile__": "volatile", "__inline": "inline",
    "__inline__": "inline", "__signed": "signed", "__signed__": "signed",
    "__alignof": "alignof", "__alignof__": "alignof", "_Alignof": "alignof",
    "__attribute": "__attribute__",
}

# OpenCL C keywords (spec §1.1.9, §1.5–1.7) in both spellings, mapped to the plain one.
OPENCL_QUALIFIERS = {
    "__global": "global", "global": "global", "__local": "local", "local": "local",
    "__constant": "constant", "constant": "constant", "__private": "private", "private": "private",
    "__read_only": "read_only", "read_only": "read_only", "__write_only": "write_only",
    "write_only": "write_only", "__read_write": "read_write", "read_write": "read_write",
    "__kernel": "kernel", "kernel": "kernel",
}
CL20_QUALIFIERS = {"__generic": "generic", "generic": "generic"}

SCALAR_TYPE_NAMES = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                     "float", "double", "half")
VECTOR_WIDTHS = (2, 3, 4, 8, 16)
VECTOR_TYPE_NAMES = frozenset(f"{t}{n}" for t in SCALAR_TYPE_NAMES for n in VECTOR_WIDTHS)

# Type names that are single keywords here. In clang most are typedefs from the implicit
# header; making them keywords lets the parser know them without that header.
OPENCL_TYPE_NAMES = frozenset({
    "bool", "half", "uchar", "ushort", "uint", "ulong", "size_t", "ptrdiff_t", "intptr_t",
    "uintptr_t", "image1d_t", "image1d_buffer_t", "image1d_array_t", "image2d_t",
    "image2d_array_t", "image3d_t", "image2d_depth_t", "image2d_array_depth_t",
    "image2d_msaa_t", "image2d_array_msaa_t", "image2d_msaa_depth_t",
    "image2d_array_msaa_depth_t", "sampler_t", "event_t", "cl_mem_fence_flags",
}) | VECTOR_TYPE_NAMES
CL20_TYPE_NAMES = frozenset({
    "queue_t", "clk_event_t", "reserve_id_t", "ndrange_t", "memory_order", "memory_scope",
    "kernel_enqueue_flags_t", "clk_profiling_info", "atomic_int", "atomic_uint", "atomic_long",
    "atomic_ulong", "atomic_float", "atomic_double", "atomic_intptr_t", "atomic_uintptr_t",
    "atomic_size_t", "atomic_ptrdiff_t", "atomic_flag",
})
OTHER_KEYWORDS = frozenset({"__attribute__", "__attribute", "vec_step", "uniform", "_Static_assert"})
CL20_OTHER_KEYWORDS = frozenset({"pipe"})


def keywords_for(cl_std: str) -> frozenset:
    """The identifiers that are keywords under ``-cl-std`` (normalized, e.g. "CL2.0")."""
    # generic/__generic are keywords in every version, as in clang; before 2.0 the parser
    # reports "OpenCL C version 1.2 does not support the 'generic' type qualifier".
    words = set(C99_KEYWORDS) | set(GNU_ALIASES) | set(OPENCL_QUALIFIERS) | OPENCL_TYPE_NAMES | OTHER_KEYWORDS \
        | set(CL20_QUALIFIERS)
    if cl_std >= "CL2.0":
        words |= CL20_TYPE_NAMES | CL20_OTHER_KEYWORDS
    return frozenset(words)


class CToken:
    """One C token. ``text`` is the spelling (a digraph is replaced by its meaning; a GNU or
    ``__``-prefixed keyword keeps its spelling, ``word`` gives the plain keyword: "global"
    for ``__global``, "const" for ``__const``), ``value``
    the decoded value of a constant, ``type`` a constant's C type as clang spells it."""

    __slots__ = ("kind", "text", "loc", "expansion", "value", "type", "pragma", "word")

    def __init__(self, kind, text, loc, expansion=None, value=None, type=None, pragma=None):
        self.kind = kind
        self.text = text
        self.loc = loc
        self.expansion = expansion
        self.value = value
        self.type = type
        self.pragma = pragma
        # What the parser compares against: a keyword's plain spelling or a punctuator; None
        # for identifiers and literals, so `tok.word == "("` needs no kind check.
        self.word = text if kind == PUNCTUATOR else None

    def __repr__(self) -> str:
        return f"CToken({self.kind}, {self.text!r}, {self.loc})"


def _shifted(loc: SourceLocation, chars: int) -> SourceLocation:
    """``loc`` moved right by ``chars`` columns on the same line (inside one token)."""
    return SourceLocation(loc.file, loc.line, loc.col + chars, loc.buffer, loc.phys_line)


class Classifier:
    """Turns pp-tokens into C tokens; ``diag(severity, message, loc, expansion, option)``
    receives the lexical diagnostics."""

    def __init__(self, cl_std: str, diag):
        self.keywords = keywords_for(cl_std)
        self.diag = diag

    def classify(self, tokens: list[Token]) -> list[CToken]:
        out = []
        keywords = self.keywords
        for t in tokens:
            kind = t.kind
            if kind == IDENT:
                if t.text in keywords:
                    c = CToken(KEYWORD, t.text, t.loc, t.expansion)
                    c.word = GNU_ALIASES.get(t.text) or OPENCL_QUALIFIERS.get(t.text) \
                        or CL20_QUALIFIERS.get(t.text) or t.text
                else:
                    c = CToken(IDENTIFIER, t.text, t.loc, t.expansion)
            elif kind == PUNCT:
                c = CToken(PUNCTUATOR, DIGRAPHS.get(t.text, t.text), t.loc, t.expansion)
            elif kind == NUMBER:
                c = self.number(t)
            elif kind == CHAR:
                c = self.char(t)
            elif kind == STRING:
                c = self.string(t)
            elif kind == PRAGMA:
                c = CToken(PRAGMA_TOK, t.text, t.loc, t.expansion, pragma=t.pragma)
            elif kind == INVALID:  # the preprocessor has reported it already
                continue
            else:
                c = CToken(OTHER_TOK, t.text, t.loc, t.expansion)
            out.append(c)
        return out

    def _error(self, t: Token, message: str, offset: int = 0, severity: str = "error", option=None):
        self.diag(severity, message, _shifted(t.loc, offset) if t.expansion is None else t.loc,
                  t.expansion, option)

    # -- numbers (C99 §6.4.4.1–2) ---------------------------------------------------------------
    def number(self, t: Token) -> CToken:
        text = t.text
        is_hex = text[:2] in ("0x", "0X")
        if "." in text or (is_hex and re.search(r"[pP]", text)) or (
                not is_hex and not text[:2] in ("0b", "0B") and re.search(r"[eE]", text)):
            return self.floating(t, is_hex)
        return self.integer(t, is_hex)

    def integer(self, t: Token, is_hex: bool) -> CToken:
        text = t.text
        if is_hex or text[:2] in ("0b", "0B"):
            base, start = (16, 2) if is_hex else (2, 2)
            digits = "0123456789abcdefABCDEF" if is_hex else "01"
        elif text.startswith("0"):
            base, start, digits = 8, 1, "01234567"
        else:
            base, start, digits = 10, 0, "0123456789"
        end = start
        while end < len(text) and text[end] in digits:
            end += 1
        if base == 8 and end < len(text) and text[end] in "89":
            self._error(t, f"invalid digit '{text[end]}' in octal constant", end)
            return CToken(INT_CONST, text, t.loc, t.expansion, 0, "int")
        suffix = text[end:]
        if end == start and base != 8:
            # "0x" alone: clang calls the x (and what follows) a suffix of the constant 0.
            self._error(t, f"invalid suffix '{text[1:]}' on integer constant", 1)
            return CToken(INT_CONST, text, t.loc, t.expansion, 0, "int")
        low = suffix.lower()
        if low not in ("", "u", "l", "ul", "lu", "ll", "ull", "llu") or "lL" in suffix or "Ll" in suffix:
            self._error(t, f"invalid suffix '{suffix}' on integer constant", end)
            return CToken(INT_CONST, text, t.loc, t.expansion, 0, "int")
        value = bounded_int(text[start:end], base)  # 2**64 when too long: "too large" below
        unsigned, is_long = "u" in low, "l" in low
        return CToken(INT_CONST, text, t.loc, t.expansion, value,
                      self._integer_type(t, value, base == 10, unsigned, is_long))

    def _integer_type(self, t: Token, value: int, decimal: bool, unsigned: bool, is_long: bool) -> str:
        """The first type of C99 §6.4.4.1's list that holds ``value`` (no long long: OpenCL's
        long is already 64 bits)."""
        if unsigned:
            candidates = ["unsigned long"] if is_long else ["unsigned int", "unsigned long"]
        elif decimal:
            candidates = ["long"] if is_long else ["int", "long"]
        else:
            candidates = ["long", "unsigned long"] if is_long else ["int", "unsigned int", "long", "unsigned long"]
        limits = {"int": 2**31 - 1, "unsigned int": 2**32 - 1, "long": 2**63 - 1, "unsigned long": 2**64 - 1}
        for c in candidates:
            if value <= limits[c]:
                return c
        if value <= 2**64 - 1:
            # A decimal constant past LONG_MAX: C99 has no type for it; clang takes it as
            # unsigned and warns.
            self._error(t, "integer literal is too large to be represented in a signed integer type, "
                        "interpreting as unsigned", severity="warning", option="-Wimplicitly-unsigned-literal")
            return "unsigned long"
        self._error(t, "integer literal is too large to be represented in any integer type")
        return "unsigned long"

    def floating(self, t: Token, is_hex: bool) -> CToken:
        text = t.text
        m = (_HEX_FLOAT if is_hex else _DEC_FLOAT).match(text)
        bad = CToken(FLOAT_CONST, text, t.loc, t.expansion, 0.0, "double")
        if m is None or (not m.group("int") and not m.group("frac")):
            self._error(t, "invalid floating constant")  # e.g. "1.2.3"
            return bad
        exp_at = m.start("exp")
        if m.group("exp") and not m.group("expdigits"):
            self._error(t, "exponent has no digits", exp_at)
            return bad
        if is_hex and not m.group("exp"):
            self._error(t, "hexadecimal floating constant requires an exponent", m.end("frac"))
            return bad
        suffix = text[m.end():]
        ctype = {"": "double", "f": "float", "F": "float", "h": "half", "H": "half",
                 "l": "long double", "L": "long double"}.get(suffix)
        if ctype is None:
            self._error(t, f"invalid suffix '{suffix}' on floating constant", m.end())
            return bad
        mant = (m.group("int") or "") + (m.group("frac") or "")
        if is_hex:
            exact = _hex_value(mant, len(m.group("frac") or ""), (m.group("sign") or "") + (m.group("expdigits") or ""))
        else:
            exact = decimal_value(text[:m.end()])  # decided from the exponent: 1e999999999 is quick
        value = float("inf") if exact is None else round_to_type(exact, ctype)
        nonzero = mant.strip("0") != ""
        if value == float("inf") or (value == 0 and nonzero):  # clang's -Wliteral-range
            large = value != 0
            limit = _LITERAL_LIMITS.get(ctype, _LITERAL_LIMITS["double"])[0 if large else 1]
            self._error(t, f"magnitude of floating-point constant too {'large' if large else 'small'} for type "
                        f"'{ctype}'; {'maximum' if large else 'minimum'} is {limit}", severity="warning",
                        option="-Wliteral-range")
        return CToken(FLOAT_CONST, text, t.loc, t.expansion, value, ctype)

    # -- characters and strings (C99 §6.4.4.4, §6.4.5) ---------------------------------------------
    def char(self, t: Token) -> CToken:
        wide = t.text.startswith("L")
        body = t.text[2:-1] if wide else t.text[1:-1]
        values, err = decode_escapes(body)
        if not body:
            self._error(t, "empty character constant")
            values = [0]
        elif err:
            self._error(t, err, (2 if wide else 1) + body.find("\\"))
        elif len(values) > 1 or (not wide and values[0] > 0xFF and not body.startswith("\\")):
            self._error(t, "multi-character character constant", severity="warning", option="-Wmultichar")
        from .tokens import char_constant_value
        value, _ = char_constant_value(t.text) if body and not err else (0, None)
        return CToken(CHAR_CONST, t.text, t.loc, t.expansion, value, "int")

    def string(self, t: Token) -> CToken:
        if t.text.startswith("L"):
            self._error(t, "not supported yet: wide string literals")
            return CToken(STRING_LIT, t.text, t.loc, t.expansion, b"")
        out = bytearray()
        for m in _STRING_PIECE.finditer(t.text[1:-1]):
            piece = m.group()
            if not piece.startswith("\\"):
                out += piece.encode("utf-8", "surrogatepass")
                continue
            values, err = decode_escapes(piece)
            if err:
                self._error(t, err, 1 + m.start())
                continue
            v = values[0]
            if piece[1] in "uU":
                out += chr(v).encode("utf-8", "surrogatepass") if v < 0x110000 else b"?"
            elif v > 0xFF:
                kind = "hex" if piece[1] == "x" else "octal"
                self._error(t, f"{kind} escape sequence out of range", 1 + m.start())
            else:
                out.append(v)
        return CToken(STRING_LIT, t.text, t.loc, t.expansion, bytes(out))


_DEC_FLOAT = re.compile(r"(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?P<exp>[eE](?P<sign>[+-]?)(?P<expdigits>[0-9]*))?")
_HEX_FLOAT = re.compile(r"0[xX](?P<int>[0-9a-fA-F]*)(?:\.(?P<frac>[0-9a-fA-F]*))?"
                        r"(?P<exp>[pP](?P<sign>[+-]?)(?P<expdigits>[0-9]*))?")
_STRING_PIECE = re.compile(r"\\(?:[0-7]{1,3}|x[0-9a-fA-F]*|u[0-9a-fA-F]{0,4}|U[0-9a-fA-F]{0,8}|.?)|[^\\]+", re.DOTALL)

# clang's largest and smallest magnitudes per type in its -Wliteral-range warnings
_LITERAL_LIMITS = {"double": ("1.7976931348623157E+308", "4.9406564584124654E-324"),
                   "float": ("3.40282347E+38", "1.40129846E-45"), "half": ("65504", "5.9605E-8")}
_BINARY_MAGNITUDE_BOUND = 2000  # past 2^+-2000 every type here overflows or underflows


def _hex_value(mant: str, frac_digits: int, exp_text: str) -> Fraction | None:
    """The exact value of a hex float's digits times 2^exponent; None when too large for any
    type, 0 when too small, decided before a huge power of two is built."""
    digits = int(mant, 16)
    exponent = bounded_exponent(exp_text, mant) - 4 * frac_digits
    magnitude = digits.bit_length() + exponent
    if digits == 0 or magnitude < -_BINARY_MAGNITUDE_BOUND:
        return Fraction(0)
    if magnitude > _BINARY_MAGNITUDE_BOUND:
        return None
    return Fraction(digits) * Fraction(2) ** exponent


# (significand bits including the hidden one, minimum normal exponent, maximum exponent)
_FORMATS = {"float": (24, -126, 127), "half": (11, -14, 15)}


def round_to_type(exact: Fraction, ctype: str) -> float:
    """``exact`` correctly rounded (to nearest, ties to even) to ``ctype``, as a Python float.
    Rounding the decimal text straight to float avoids the double rounding of going through
    double first (e.g. 1.00000005960464477539062500001f)."""
    if ctype not in _FORMATS:
        try:
            return exact.numerator / exact.denominator  # int/int true division rounds correctly
        except OverflowError:
            return float("inf")
    if exact == 0:
        return 0.0
    p, emin, emax = _FORMATS[ctype]
    e = exact.numerator.bit_length() - exact.denominator.bit_length()
    if Fraction(2) ** e > exact:
        e -= 1
    quantum = max(e, emin) - (p - 1)
    scaled = exact / Fraction(2) ** quantum
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2):
        n += 1
    result = Fraction(n) * Fraction(2) ** quantum
    if result >= Fraction(2) ** (emax + 1):
        return float("inf")
    return float(result)


def end_of_file(tokens: list[CToken]) -> CToken:
    """The EOF token: placed just after the last token, where clang reports a missing '}'."""
    if not tokens:
        return CToken(EOF, "", None)
    last = tokens[-1]
    loc = last.loc
    if last.expansion is None and loc is not None and "\n" not in last.text:
        loc = _shifted(loc, len(last.text))
    return CToken(EOF, "", loc, last.expansion)
