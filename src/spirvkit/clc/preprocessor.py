"""The OpenCL C preprocessor: C99 §6.10 plus OpenCL's predefined macros and pragmas.

``preprocess(source, filename, options=...)`` gives the token list the parser reads;
``preprocess_to_text`` gives clang ``-E`` style text. Errors do not stop at the first one:
each is recorded (``#error`` too, as in clang) and a :class:`CompileError` listing all of them
is raised at the end; a fatal error (missing include, nesting limits) stops at once.

Pragmas the compiler cares about (``OPENCL EXTENSION``, ``OPENCL FP_CONTRACT``, ``unroll``,
``nounroll``) come out as ``PRAGMA`` tokens at the place the directive was, so the parser can
attach them to the statement that follows; ``Preprocessor.extension_events`` also lists every
``#pragma OPENCL EXTENSION`` with its location. Other pragmas come out as PRAGMA tokens of
kind ``"other"`` (``-E`` prints them; the parser ignores them).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import CompileError
from .directives import DirectivesMixin
from .macros import Fatal, Macro, MacroExpander
from .predefined import enabled_extensions, normalize_std, predefined_source
from .source import (Diagnostic, Note, SourceLocation, SourceManager, compile_error,
                     expansion_location, line_location, located_diagnostic)
from .tokens import IDENT, INVALID, NUMBER, STRING, LexError, Token, lex

_PREDEFINED_CACHE: dict = {}

_BUILTINS = ("__FILE__", "__LINE__", "__DATE__", "__TIME__", "__COUNTER__",
             "__INCLUDE_LEVEL__", "__BASE_FILE__")


@dataclass
class PreprocessorOptions:
    """The preprocessor's share of clang's options (see ``from_args``)."""

    cl_std: str = "CL1.2"  # the digest's M1 default, as clang's
    include_dirs: Sequence[str] = ()  # -I, searched in order after the includer's directory
    system_include_dirs: Sequence[str] = ()  # searched last, for both "" and <>
    defines: Sequence[str] = ()  # -D: "NAME", "NAME=VALUE", "F(x)=VALUE"
    undefines: Sequence[str] = ()  # -U, applied after all -D
    extensions: Sequence[str] = ()  # -cl-ext edits: "+name", "-name", "-all"
    fast_relaxed_math: bool = False  # -cl-fast-relaxed-math
    suppress_warnings: bool = False  # -w
    warnings_as_errors: bool = False  # -Werror
    warn_unknown_pragmas: bool = False  # -Wunknown-pragmas (off by default, as in clang)
    max_include_depth: int = 200  # clang's limit
    max_expansion_tokens: int = 20_000_000  # stops "macro bombs" with an error, not a hang
    timestamp: float | None = None  # seconds since the epoch for __DATE__/__TIME__
    predefined: bool = True  # False: none of the OpenCL/target macros (like -undef)
    error_limit: int = 20  # -ferror-limit=N: stop after N errors (clang's default 20; 0: no limit)

    @classmethod
    def from_args(cls, args: str | Sequence[str]) -> "PreprocessorOptions":
        """Options from a clang-style command line; options for other phases are ignored,
        so the same string can be given to the whole compiler."""
        argv = split_command_line(args) if isinstance(args, str) else list(args)
        opts = cls()
        defines, undefines, incs, exts = [], [], [], []
        i = 0
        while i < len(argv):
            a = argv[i]
            for flag, target in (("-D", defines), ("-U", undefines), ("-I", incs)):
                if a.startswith(flag):
                    value = a[2:]
                    if not value and i + 1 < len(argv):
                        i += 1
                        value = argv[i]
                    target.append(value)
                    break
            else:
                if a.startswith("-cl-std="):
                    opts.cl_std = a.split("=", 1)[1]
                elif a.startswith("-cl-ext="):
                    exts.append(a.split("=", 1)[1])
                elif a in ("-cl-fast-relaxed-math",):
                    opts.fast_relaxed_math = True
                elif a == "-w":
                    opts.suppress_warnings = True
                elif a == "-Werror":
                    opts.warnings_as_errors = True
                elif a == "-Wunknown-pragmas":
                    opts.warn_unknown_pragmas = True
                elif a.startswith("-ferror-limit=") and a[len("-ferror-limit="):].isdigit():
                    opts.error_limit = int(a[len("-ferror-limit="):])
            i += 1
        opts.defines, opts.undefines, opts.include_dirs, opts.extensions = defines, undefines, incs, exts
        return opts


def split_command_line(text: str) -> list[str]:
    """An options string split into arguments as clang splits one (LLVM's GNU command-line
    tokenizer, used for response files): whitespace separates; a backslash takes the next
    character literally; '...' and "..." group (a backslash escapes inside either); an
    unterminated quote runs to the end of the string, without an error, as in clang."""
    args: list[str] = []
    token: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            token.append(text[i + 1])
            i += 2
            continue
        if c in "'\"":
            i += 1
            while i < n and text[i] != c:
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                token.append(text[i])
                i += 1
            i += 1
            continue
        if c in " \t\r\n\v\f":
            if token:
                args.append("".join(token))
                token = []
            i += 1
            continue
        token.append(c)
        i += 1
    if token:
        args.append("".join(token))
    return args


@dataclass
class Pragma:
    """A pragma for the parser. ``kind``: "extension" (``name``, ``enabled``), "fp_contract"
    (``value`` ON/OFF/DEFAULT), "unroll" (``value``: the count as an int, None for a bare
    ``#pragma unroll``, or the macro-expanded tokens of an expression the parser must fold),
    "nounroll", or "other" (``tokens`` as written; the parser ignores these)."""

    kind: str
    tokens: list[Token]
    name: str | None = None
    enabled: bool | None = None
    value: object = None


@dataclass
class ExtensionEvent:
    """One accepted ``#pragma OPENCL EXTENSION``: the state of ``name`` from ``loc`` on."""

    loc: object
    name: str
    enabled: bool


@dataclass
class _Cond:
    loc: object
    active: bool  # the current group is being read
    taken: bool  # some group of this #if has been taken
    seen_else: bool = False


@dataclass
class _Frame:
    tokens: list[Token]
    name: str  # the file's name as written/found; __FILE__ until a #line
    directory: str
    buffer: int
    logical: object
    pos: int = 0
    presumed: str = ""
    line_delta: int = 0
    conds: list[_Cond] = field(default_factory=list)
    once_key: str | None = None


class Preprocessor(DirectivesMixin):
    """One translation unit's preprocessing state. ``warnings`` lists the warnings (as
    :class:`Diagnostic` objects) of the last run; ``sources`` maps buffers for rendering."""

    def __init__(self, options: PreprocessorOptions | None = None):
        self.options = options or PreprocessorOptions()
        self.sources = SourceManager()
        self.expander = MacroExpander(self._diag_expander, self._builtin)
        self.expander.max_tokens = self.options.max_expansion_tokens
        self.diagnostics: list[Diagnostic] = []
        self.extension_events: list[ExtensionEvent] = []
        self.extension_state: dict[str, bool] = {}
        self.line_markers: list[tuple[int, int, str, int]] = []  # (output index, flag, file, line)
        self._frames: list[_Frame] = []
        self._pending: list[Token] = []
        self._out: list[Token] = []
        self._once: set[str] = set()
        self._counter = 0
        self._main_file = "<source>"
        self.collecting = False
        try:
            self.cl_std = normalize_std(self.options.cl_std)
        except ValueError as e:
            raise CompileError(str(e), rendered=f"error: {e}") from None
        self.supported_extensions = enabled_extensions(self.options.extensions, self.cl_std)

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    # -- diagnostics ---------------------------------------------------------------------------
    def diag(self, severity: str, message: str, loc, expansion=None, option: str | None = None,
             notes=()) -> None:
        if severity == "warning":
            if self.options.suppress_warnings:
                return
            if self.options.warnings_as_errors:
                severity = "error"
                option = f"-Werror,{option}" if option else "-Werror"
        d = located_diagnostic(severity, message, loc, expansion, option)
        d.notes += [Note(m, at) for m, at in notes]
        self.diagnostics.append(d)

    def diag_at(self, severity: str, message: str, tok: Token | None, option: str | None = None, notes=()):
        if tok is None:
            self.diag(severity, message, None, None, option, notes)
        else:
            self.diag(severity, message, tok.loc, tok.expansion, option, notes)

    def _diag_expander(self, severity, message, loc, expansion=None, option=None, notes=()):
        self.diag(severity, message, loc, expansion, option, notes)

    def fatal(self, message: str, tok: Token | None):
        self.diag_at("fatal error", message, tok)
        raise Fatal

    # -- entry point -----------------------------------------------------------------------------
    def run(self, source: str, filename: str = "<source>") -> list[Token]:
        """Preprocess one translation unit; raises CompileError if any error was reported."""
        self._main_file = filename
        self._timestamp = self.options.timestamp
        if self._timestamp is None:
            epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
            self._timestamp = float(epoch) if epoch.isdigit() else time.time()
        try:
            for name in _BUILTINS:
                self.expander.macros[name] = Macro(name, None, False, [], None, builtin=name)
            if self.options.predefined:
                self._predefine()
            lines = []
            for d in self.options.defines:
                name, eq, value = d.partition("=")
                lines.append(f"#define {name} {value if eq else '1'}")
            lines += [f"#undef {u}" for u in self.options.undefines]
            if lines:
                self._run_silently("<command line>", "\n".join(lines) + "\n")
            self._push_file(source, filename, os.path.dirname(filename) or ".")  # "./x.h", as clang
            self._out = []
            self.line_markers = [(0, 0, filename, 1)]
            self._read_all(self._out)
        except Fatal:
            pass
        except RecursionError:  # a last guard; every known deep path has its own limit
            self.diag("fatal error", "nesting too deep for the preprocessor", None)
        if any(d.severity != "warning" for d in self.diagnostics):
            raise compile_error(self.diagnostics, self.sources)
        return self._out

    def _predefine(self) -> None:
        """Define the ``<built-in>`` macros. Reading ~300 #defines costs a few milliseconds,
        so the resulting table is cached per configuration (Macro objects are never mutated;
        the buffer is re-added first, so the locations in the cached macros stay valid)."""
        key = (self.cl_std, self.options.fast_relaxed_math, tuple(self.supported_extensions))
        cached = _PREDEFINED_CACHE.get(key)
        if cached is None:
            text = predefined_source(self.cl_std, fast_relaxed_math=self.options.fast_relaxed_math,
                                     extensions=self.supported_extensions)
            before = set(self.expander.macros)
            self._run_silently("<built-in>", text)
            macros = {k: v for k, v in self.expander.macros.items() if k not in before}
            if not self.diagnostics:
                _PREDEFINED_CACHE[key] = (text, macros)
            return
        text, macros = cached
        self.sources.add("<built-in>", text)
        self.expander.macros.update(macros)

    def _run_silently(self, name: str, text: str) -> None:
        """Read a predefines buffer: it may only define macros; it yields no tokens."""
        self._push_file(text, name, ".")
        sink: list[Token] = []
        self._read_all(sink)
        if sink:
            self.diag_at("error", f"{name} produced tokens", sink[0])

    def _read_all(self, out: list[Token]) -> None:
        expand = self.expander.expand_next
        while True:
            tok = expand(self)
            if tok is None:
                return
            if tok.kind == IDENT and tok.text == "_Pragma" and "_Pragma" not in self.expander.macros:
                tok = self.pragma_operator(tok)
                if tok is None:
                    continue
            elif tok.kind == INVALID:
                quote = "'" if tok.text.lstrip("L").startswith("'") else '"'
                self.diag_at("error", f"missing terminating {quote} character", tok)
                continue
            out.append(tok)

    # -- the token source the expander reads (ListSource's interface) ---------------------------
    def next(self) -> Token | None:
        if self._pending:
            return self._pending.pop()
        return self._next_from_file()

    def peek(self) -> Token | None:
        if self._pending:
            return self._pending[-1]
        if not self._frames:
            return None
        f = self._frames[-1]
        return f.tokens[f.pos] if f.pos < len(f.tokens) else None

    def push(self, tokens: list[Token]) -> None:
        self._pending.extend(reversed(tokens))

    def _next_from_file(self) -> Token | None:
        while self._frames:
            f = self._frames[-1]
            if f.pos >= len(f.tokens):
                if self.collecting:
                    return None  # macro arguments never run past the end of a file
                if not self._pop_file():
                    return None
                continue
            t = f.tokens[f.pos]
            f.pos += 1
            if t.at_bol and (t.text == "#" or t.text == "%:") and t.kind != STRING:
                produced = self.directive(f, t)
                if produced is not None:
                    return produced
                continue
            return self.remap(f, t)
        return None

    def remap(self, f: _Frame, t: Token) -> Token:
        """A token with its presumed location, once a #line changed this file's numbering."""
        if f.line_delta == 0 and f.presumed == f.name:
            return t
        loc = t.loc
        return t.copy(loc=type(loc)(f.presumed, loc.phys_line + f.line_delta, loc.col, loc.buffer, loc.phys_line))

    # -- files -------------------------------------------------------------------------------------
    def _push_file(self, text: str, name: str, directory: str, once_key: str | None = None) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]  # a UTF-8 byte order mark is not source text (clang skips it too)
        buf = self.sources.add(name, text)
        buffer = self.sources.buffers[buf]
        try:
            tokens, logical = lex(text, name, buf, buffer.line_col)
        except LexError as e:
            self.diag("error", e.message, e.loc)
            tokens, logical = e.tokens, e.logical
        for offset, repl in logical.trigraphs:
            line, col = buffer.line_col(offset)
            self.diag("warning", f"trigraph converted to '{repl}' character",
                      SourceLocation(name, line, col, buf, line), option="-Wtrigraphs")
        self._frames.append(_Frame(tokens, name, directory, buf, logical, presumed=name, once_key=once_key))

    def _pop_file(self) -> bool:
        """End the current file; False when it was the outermost one being read."""
        f = self._frames[-1]
        for cond in f.conds:
            self.diag("error", "unterminated conditional directive", cond.loc)
        f.conds.clear()
        if len(self._frames) == 1 or f.name in ("<built-in>", "<command line>"):
            self._frames.pop()
            return False
        self._frames.pop()
        parent = self._frames[-1]
        nxt = parent.tokens[parent.pos] if parent.pos < len(parent.tokens) else None
        line = (nxt.loc.phys_line + parent.line_delta) if nxt is not None else 1
        self.line_markers.append((len(self._out), 2, parent.presumed, line))
        return True

    def include_file(self, path: str, tok: Token) -> None:
        if len(self._frames) > self.options.max_include_depth:
            self.fatal("#include nested too deeply", tok)
        key = os.path.realpath(path)
        if key in self._once:
            return
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as e:
            self.fatal(f"cannot open file '{path}': {e.strerror}", tok)
        self._push_file(data.decode("utf-8", errors="replace"), path, _directory_of(path), key)
        self.line_markers.append((len(self._out), 1, path, 1))

    def mark_once(self, f: _Frame) -> None:
        if f.once_key is not None:
            self._once.add(f.once_key)

    # -- dynamic macros -----------------------------------------------------------------------------
    def _builtin(self, name: str, tok: Token) -> Token:
        where = expansion_location(tok.loc, tok.expansion)
        if name == "__LINE__":
            kind, text = NUMBER, str(line_location(tok.loc, tok.expansion).line)
        elif name in ("__FILE__", "__BASE_FILE__"):
            file = where.file if name == "__FILE__" else self._main_file
            kind, text = STRING, '"' + file.replace("\\", "\\\\").replace('"', '\\"') + '"'
        elif name == "__COUNTER__":
            kind, text = NUMBER, str(self._counter)
            self._counter += 1
        elif name == "__INCLUDE_LEVEL__":
            kind, text = NUMBER, str(max(len(self._frames) - 1, 0))
        else:
            stamp = time.localtime(self._timestamp) if "SOURCE_DATE_EPOCH" not in os.environ \
                else time.gmtime(self._timestamp)
            if name == "__DATE__":
                text = time.strftime("%b ", stamp) + f"{stamp.tm_mday:2d} {stamp.tm_year}"
            else:
                text = time.strftime("%H:%M:%S", stamp)
            kind, text = STRING, f'"{text}"'
        return Token(kind, text, tok.loc, tok.has_space, tok.at_bol, tok.hideset, tok.expansion)


def _directory_of(path: str) -> str:
    """The directory "" includes are searched from first. clang spells an include of the main
    file's directory "./inc/a.h" but one from inside "./inc" as "inc/b.h"; __FILE__ shows
    these spellings, so we form them the same way."""
    d = os.path.dirname(path)
    return d[2:] if d.startswith("./") else (d or ".")


def preprocess(source: str, filename: str = "<source>", *,
               options: PreprocessorOptions | None = None,
               diagnostics: list | None = None) -> list[Token]:
    """Preprocess OpenCL C ``source``; returns the tokens for the parser (PRAGMA tokens
    included). Raises CompileError listing every error. Warnings go to ``diagnostics``."""
    pp = Preprocessor(options)
    try:
        return pp.run(source, filename)
    finally:
        if diagnostics is not None:
            diagnostics.extend(pp.warnings)


def preprocess_to_text(source: str, filename: str = "<source>", *,
                       options: PreprocessorOptions | None = None,
                       diagnostics: list | None = None, line_markers: bool = True) -> str:
    """``clang -E`` style output (``line_markers=False`` is ``-E -P``)."""
    from .pp_output import tokens_to_text
    pp = Preprocessor(options)
    try:
        tokens = pp.run(source, filename)
    finally:
        if diagnostics is not None:
            diagnostics.extend(pp.warnings)
    return tokens_to_text(tokens, pp.line_markers if line_markers else None, filename)
