"""C99 preprocessing tokens (C99 §6.4) and the lexer that makes them from source text.

Translation phases 1 and 2 (trigraphs, backslash-newline splicing) are done first, keeping a
map from the spliced ("logical") text back to the physical text, so every token's column is
the real column in the file even after a splice. Then the logical text is cut into
preprocessing tokens; comments become whitespace. Each token records whether whitespace came
before it (``has_space``, needed for ``#`` stringification and ``-E`` output) and whether it
starts a line (``at_bol``, needed to recognise directives).

Numbers are C99 *pp-numbers*, so every OpenCL literal form (``1.0f``, ``0x1p3f``, ``1.5h``,
``2ul``) is one token; whether it is a valid literal is the parser's business. Digraphs are
lexed as punctuators keeping their spelling; :data:`DIGRAPHS` maps them to their meaning.
"""

from __future__ import annotations

import bisect
import re

from .source import MacroExpansion, SourceLocation

# Token kinds. Plain strings keep the tokens printable and cheap to compare.
IDENT = "identifier"
NUMBER = "number"
CHAR = "char"
STRING = "string"
PUNCT = "punct"
OTHER = "other"  # a stray character: a valid pp-token, an error only if it reaches the parser
INVALID = "invalid"  # an unterminated ' or " literal: an error only outside skipped groups
PRAGMA = "pragma"  # a pragma for the parser (tokens.Token.pragma holds it)

DIGRAPHS = {"<:": "[", ":>": "]", "<%": "{", "%>": "}", "%:": "#", "%:%:": "##"}

TRIGRAPHS = {"=": "#", "(": "[", "/": "\\", ")": "]", "'": "^", "<": "{", "!": "|", ">": "}", "-": "~"}


class Token:
    """One preprocessing token.

    ``loc`` is the spelling location; ``expansion`` the macro expansion it came out of (None
    for tokens read straight from a file). ``hideset`` holds the names of the macros that must
    not expand this token any more: the "painted blue" rule of C99 §6.10.3.4, as in Prosser's
    algorithm. ``offset`` is the start in the logical text of its file (-1 when synthesised).
    """

    __slots__ = ("kind", "text", "loc", "has_space", "at_bol", "hideset", "expansion",
                 "offset", "pragma")

    def __init__(self, kind: str, text: str, loc: SourceLocation, has_space: bool = False,
                 at_bol: bool = False, hideset: frozenset = frozenset(),
                 expansion: MacroExpansion | None = None, offset: int = -1, pragma=None):
        self.kind = kind
        self.text = text
        self.loc = loc
        self.has_space = has_space
        self.at_bol = at_bol
        self.hideset = hideset
        self.expansion = expansion
        self.offset = offset
        self.pragma = pragma

    def copy(self, **changes) -> "Token":
        t = Token(self.kind, self.text, self.loc, self.has_space, self.at_bol, self.hideset,
                  self.expansion, self.offset, self.pragma)
        for k, v in changes.items():
            setattr(t, k, v)
        return t

    def is_punct(self, spelling: str) -> bool:
        """True for the punctuator ``spelling``, also when written as its digraph."""
        return self.kind == PUNCT and (self.text == spelling or DIGRAPHS.get(self.text) == spelling)

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r}, {self.loc})"


class LexError(Exception):
    """Raised by the lexer with a location; the preprocessor turns it into a diagnostic."""

    def __init__(self, message: str, loc: SourceLocation):
        super().__init__(message)
        self.message = message
        self.loc = loc


_PUNCTUATORS = [
    "%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
    "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:",
]
_TOKEN_RE = re.compile(
    r"""(?P<ws>[ \t\f\v\r]+)
      | (?P<nl>\n)
      | (?P<lc>//[^\n]*)
      | (?P<bc>/\*)
      | (?P<chr>L?'(?:[^'\\\n]|\\.)*')
      | (?P<str>L?"(?:[^"\\\n]|\\.)*")
      | (?P<badq>L?['"](?:[^\\\n]|\\.)*\\?)
      | (?P<id>[A-Za-z_$][A-Za-z0-9_$]*)
      | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.$])*)
      | (?P<punct>""" + "|".join(re.escape(p) for p in _PUNCTUATORS) + r"""|[][(){}.&*+\-~!/%<>^|?:;=,#])
      | (?P<other>.)""",
    re.VERBOSE | re.DOTALL,
)
_KIND = {"chr": CHAR, "str": STRING, "badq": INVALID, "id": IDENT, "num": NUMBER,
         "punct": PUNCT, "other": OTHER}


class LogicalText:
    """The text after translation phases 1–2, with a map back to physical offsets."""

    __slots__ = ("text", "_logical_starts", "_physical_starts", "trigraphs")

    def __init__(self, physical: str, trigraphs: bool = True):
        self.trigraphs: list[tuple[int, str]] = []  # (physical offset, replacement) for warnings
        if "\\" not in physical and "??" not in physical:
            self.text = physical  # the common case: nothing to splice, identity map
            self._logical_starts = [0]
            self._physical_starts = [0]
            return
        pieces: list[str] = []
        lstarts, pstarts = [0], [0]
        logical = 0
        pos = 0
        pattern = re.compile(r"\?\?[=(/)'<!>-]|\\[ \t]*\r?\n" if trigraphs else r"\\[ \t]*\r?\n")
        for m in pattern.finditer(physical):
            start, end = m.span()
            if start < pos:
                continue
            pieces.append(physical[pos:start])
            logical += start - pos
            if m.group().startswith("??"):
                repl = TRIGRAPHS[m.group()[2]]
                self.trigraphs.append((start, repl))
                # A trigraph "??/" followed by a newline is a splice too (C99 5.1.1.2).
                if repl == "\\" and physical.startswith("\n", end):
                    end += 1
                    repl = ""
                elif repl == "\\" and physical.startswith("\r\n", end):
                    end += 2
                    repl = ""
                pieces.append(repl)
                logical += len(repl)
            # A splice (or trigraph) ends a contiguous stretch: the next logical character
            # maps to the physical character after it.
            lstarts.append(logical)
            pstarts.append(end)
            pos = end
        pieces.append(physical[pos:])
        self.text = "".join(pieces)
        self._logical_starts = lstarts
        self._physical_starts = pstarts

    def physical(self, offset: int) -> int:
        i = bisect.bisect_right(self._logical_starts, offset) - 1
        return self._physical_starts[i] + offset - self._logical_starts[i]


def lex(text: str, filename: str = "<source>", buffer: int = -1,
        line_col=None) -> tuple[list[Token], LogicalText]:
    """Cut ``text`` (one whole file) into preprocessing tokens.

    ``line_col(physical_offset) -> (line, col)`` converts offsets (a SourceBuffer's method);
    without it one is built here. Raises LexError for an unterminated ``/*`` comment, the only
    lexical error that cannot wait (everything else becomes an OTHER or INVALID token).
    """
    if line_col is None:
        from .source import SourceBuffer
        line_col = SourceBuffer(filename, text).line_col
    logical = LogicalText(text)
    src = logical.text
    physical = logical.physical
    tokens: list[Token] = []
    append = tokens.append
    has_space = False
    at_bol = True
    pos = 0
    n = len(src)
    match = _TOKEN_RE.match
    while pos < n:
        m = match(src, pos)
        group = m.lastgroup
        if group == "ws" or group == "lc":
            has_space = True
            pos = m.end()
            continue
        if group == "nl":
            at_bol = True
            has_space = False
            pos = m.end()
            continue
        if group == "bc":
            end = src.find("*/", pos + 2)
            if end < 0:
                line, col = line_col(physical(pos))
                err = LexError("unterminated /* comment", SourceLocation(filename, line, col, buffer, line))
                err.tokens, err.logical = tokens, logical  # what came before, for recovery
                raise err
            has_space = True
            pos = end + 2
            continue
        start, pos = m.span()
        line, col = line_col(physical(start))
        append(Token(_KIND[group], m.group(), SourceLocation(filename, line, col, buffer, line),
                     has_space, at_bol, offset=start))
        has_space = False
        at_bol = False
    return tokens, logical


def lex_fragment(text: str, loc: SourceLocation) -> list[Token]:
    """Tokens of a short piece of text made during preprocessing (a ``##`` paste, a
    ``_Pragma`` string, two adjacent tokens in ``-E`` output); every token is placed at
    ``loc``. Comments are skipped, so "/" pasted to "/" gives no token and the caller reports
    an invalid paste."""
    out = []
    pos, n = 0, len(text)
    has_space = False
    while pos < n:
        m = _TOKEN_RE.match(text, pos)
        group = m.lastgroup
        if group == "bc":
            end = text.find("*/", pos + 2)
            pos = n if end < 0 else end + 2
            has_space = True
            continue
        pos = m.end()
        if group in ("ws", "nl", "lc"):
            has_space = True
            continue
        out.append(Token(_KIND[group], m.group(), loc, has_space))
        has_space = False
    return out


_SIMPLE_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92,
                   "'": 39, '"': 34, "?": 63, "e": 27}


def decode_escapes(body: str) -> tuple[list[int], str | None]:
    """Code points of the characters of a char/string literal body (without quotes), and an
    error message for a malformed escape (None when fine). Octal and hex escapes give their
    value as is; the caller truncates to the character width."""
    values: list[int] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            values.append(ord(c))
            i += 1
            continue
        i += 1
        if i >= n:
            return values, "incomplete escape sequence"
        c = body[i]
        if c in _SIMPLE_ESCAPES:
            values.append(_SIMPLE_ESCAPES[c])
            i += 1
        elif c in "01234567":
            j = i
            while j < n and j < i + 3 and body[j] in "01234567":
                j += 1
            values.append(int(body[i:j], 8))
            i = j
        elif c == "x":
            j = i + 1
            while j < n and body[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 1:
                return values, "\\x used with no following hex digits"
            values.append(int(body[i + 1:j], 16))
            i = j
        elif c in "uU":
            width = 4 if c == "u" else 8
            digits = body[i + 1:i + 1 + width]
            if len(digits) != width or any(d not in "0123456789abcdefABCDEF" for d in digits):
                return values, "incomplete universal character name"
            values.append(int(digits, 16))
            i += 1 + width
        else:
            # clang accepts an unknown escape with a warning and uses the character itself.
            values.append(ord(c))
            i += 1
    return values, None


def char_constant_value(spelling: str) -> tuple[int, str | None]:
    """The int value of a character constant as ``#if`` sees it (OpenCL ``char`` is signed,
    so '\\xff' is -1, as with clang), plus an error message or None."""
    wide = spelling.startswith("L")
    body = spelling[2:-1] if wide else spelling[1:-1]
    if not body:
        return 0, "empty character constant"
    values, err = decode_escapes(body)
    if err:
        return 0, err
    if wide:
        return values[-1] & 0xFFFFFFFF if values[-1] < 1 << 31 else values[-1] - (1 << 32), None
    if len(values) == 1:
        v = values[0]
        if v > 0xFF:  # a non-ASCII source character: clang takes its UTF-8 bytes as a multi-char
            values = list(chr(v).encode("utf-8", "surrogatepass")) if v < 0x110000 else [v & 0xFF]
        else:
            return (v & 0xFF) - 256 if v & 0x80 else v, None
    # A multi-character constant: clang packs the bytes big-endian into an int.
    result = 0
    for v in values:
        result = ((result << 8) | (v & 0xFF)) & 0xFFFFFFFF
    return (result - (1 << 32) if result & 0x80000000 else result), None


def spell(tokens) -> str:
    """Tokens joined with single spaces where the source had whitespace (for messages)."""
    out = []
    for i, t in enumerate(tokens):
        if i and t.has_space:
            out.append(" ")
        out.append(t.text)
    return "".join(out)
