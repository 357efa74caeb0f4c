"""The OpenCL C parser: C tokens → :mod:`clc.ast`, by hand-written recursive descent.

The grammar is C99 §6.5–6.9 with OpenCL C's additions (address-space, access and kernel
qualifiers, vector literals, ``vec_step``, attributes). Declarations, statements and
expressions live in three mixins (parse_decl.py, parse_stmt.py, parse_expr.py); this module
holds what they share: the token cursor, the typedef scopes (C's "lexer hack": whether
``T * x;`` declares or multiplies depends on whether ``T`` names a type there), diagnostics,
error recovery and the nesting limits.

Errors follow clang's wording and placement: a missing ``;`` is reported just after the token
it should follow, a missing ``)`` at the token found instead with a note at the ``(`` it would
close. After an error the parser skips to the end of the statement or declaration and goes
on, so one run reports many errors (at most 20, as clang's ``-ferror-limit``).

Recursion is bounded: brackets nest at most 256 deep (clang's ``-fbracket-depth``; deeper is a
located fatal error), statements 256 deep, and operator chains (``- - - x``, ``a = b = c``,
else-if and case-label chains) are parsed by loops, so no input can raise RecursionError.
"""

from __future__ import annotations

import sys

from . import ast
from .lexer import EOF, IDENTIFIER, PRAGMA_TOK, CToken, end_of_file
from .parse_decl import DeclarationsMixin
from .parse_expr import ExpressionsMixin
from .parse_stmt import StatementsMixin
from .source import Diagnostic, Note, SourceLocation, expansion_location, located_diagnostic


class Recover(Exception):
    """A syntax error has been reported; unwind to the nearest point that can resynchronise."""


class Stop(Exception):
    """A fatal error has been reported; parsing ends."""


class Parser(DeclarationsMixin, StatementsMixin, ExpressionsMixin):
    MAX_BRACKET_DEPTH = 256  # clang's default -fbracket-depth
    MAX_STATEMENT_DEPTH = 256
    MAX_ERRORS = 20  # clang's default -ferror-limit
    Recover = Recover  # the mixins catch it as self.Recover (they cannot import this module)

    def __init__(self, tokens: list[CToken], *, cl_std: str = "CL1.2", classifier=None,
                 suppress_warnings: bool = False, warnings_as_errors: bool = False,
                 diagnostics: list[Diagnostic] | None = None, error_limit: int = MAX_ERRORS):
        self.cl_std = cl_std
        self.error_limit = error_limit  # -ferror-limit=N (0: no limit)
        self.classifier = classifier  # for the tokens of a "#pragma unroll (expression)"
        self.suppress_warnings = suppress_warnings
        self.warnings_as_errors = warnings_as_errors
        self.diagnostics: list[Diagnostic] = diagnostics if diagnostics is not None else []
        self.errors = sum(d.severity != "warning" for d in self.diagnostics)
        # Pragmas are taken out of the token stream and remembered by the index of the token
        # they precede; statements and declarations pick them up (take_pragmas).
        self.toks: list[CToken] = []
        self.pragma_at: list[tuple[int, CToken]] = []
        for t in tokens:
            if t.kind == PRAGMA_TOK:
                self.pragma_at.append((len(self.toks), t))
            else:
                self.toks.append(t)
        self.toks.append(end_of_file(self.toks))
        self.pos = 0
        self._next_pragma = 0
        # name -> "typedef", "vector" (a typedef of a vector type: "(T)(a, b)" is a vector
        # literal) or "var" (any other ordinary identifier, which hides an outer typedef).
        self.scopes: list[dict[str, str]] = [{}]
        self.decl_sites: dict[str, object] = {}
        self.depth = 0  # brackets open
        self.stmt_depth = 0
        self.kr_functions: set[int] = set()  # ids of FunctionTypes with K&R parameter lists
        self._eof_reported = False  # "expected '}'" at the end of the file: once, not per level

    # -- the cursor --------------------------------------------------------------------------------
    @property
    def tok(self) -> CToken:
        return self.toks[self.pos]

    def peek(self, n: int = 1) -> CToken:
        i = self.pos + n
        return self.toks[i] if i < len(self.toks) else self.toks[-1]

    def advance(self) -> CToken:
        t = self.toks[self.pos]
        if t.kind != EOF:
            self.pos += 1
        return t

    def at(self, word: str) -> bool:
        return self.toks[self.pos].word == word

    def accept(self, word: str) -> CToken | None:
        t = self.toks[self.pos]
        if t.word == word:
            self.pos += 1
            return t
        return None

    def expect(self, word: str, message: str | None = None, *, after: bool = False,
               match: CToken | None = None) -> CToken:
        """Consume ``word`` or report ``message`` and raise Recover. ``after``: report just
        after the previous token (clang does so for a missing ';' or ':'), else at the token
        found; ``match``: the opening bracket this one closes (a "to match this" note)."""
        t = self.toks[self.pos]
        if t.word == word:
            self.pos += 1
            return t
        self.syntax_error(message or f"expected '{word}'", after=after, match=match)

    def syntax_error(self, message: str, *, after: bool = False, match: CToken | None = None,
                     tok: CToken | None = None):
        notes = [(f"to match this '{match.text}'", match)] if match is not None else []
        if after and tok is None and self.pos > 0:
            self.error_after(message, self.toks[self.pos - 1], notes)
        else:
            self.error(message, tok or self.tok, notes)
        raise Recover

    # -- scopes --------------------------------------------------------------------------------------
    def push_scope(self) -> None:
        self.scopes.append({})

    def pop_scope(self) -> None:
        self.scopes.pop()

    def declare(self, name: str | None, kind: str, node=None) -> None:
        if name:
            self.scopes[-1][name] = kind
            if node is not None:  # where it is declared, for a typo correction's note
                self.decl_sites[name] = node

    def visible_names(self) -> dict[str, str]:
        """Every name in scope with its kind (inner declarations hide outer ones)."""
        out: dict[str, str] = {}
        for scope in self.scopes:
            out.update(scope)
        return out

    def lookup(self, name: str) -> str | None:
        for scope in reversed(self.scopes):
            kind = scope.get(name)
            if kind is not None:
                return kind
        return None

    def is_typedef_name(self, t: CToken) -> bool:
        return t.kind == IDENTIFIER and self.lookup(t.text) in ("typedef", "vector")

    # -- diagnostics -----------------------------------------------------------------------------------
    def diag(self, severity: str, message: str, loc: SourceLocation | None, expansion=None,
             notes=(), option: str | None = None, fixit=None) -> None:
        if severity == "warning":
            if self.suppress_warnings:
                return
            if self.warnings_as_errors:
                severity = "error"
                option = f"-Werror,{option}" if option else "-Werror"
        d = located_diagnostic(severity, message, loc, expansion, option)
        # A "to match this '('" note points where the bracket appears in the file (the macro
        # invocation when a macro produced it), like the error itself.
        d.notes += [Note(text, expansion_location(t.loc, t.expansion)) for text, t in notes]
        d.fixit = fixit
        self.diagnostics.append(d)
        if severity != "warning":
            self.errors += 1
            if self.error_limit and self.errors >= self.error_limit and severity != "fatal error":
                self.diagnostics.append(Diagnostic("fatal error", "too many errors emitted, stopping now",
                                                   None, option="-ferror-limit="))
                raise Stop

    def error(self, message: str, t: CToken, notes=(), fixit=None) -> None:
        self.diag("error", message, t.loc, t.expansion, notes, fixit=fixit)

    def warning(self, message: str, t: CToken, option: str | None = None) -> None:
        self.diag("warning", message, t.loc, t.expansion, option=option)

    def error_after(self, message: str, t: CToken, notes=()) -> None:
        """An error located just past token ``t`` (where the missing token belongs)."""
        loc = t.loc
        if t.expansion is None and loc is not None and "\n" not in t.text:
            loc = SourceLocation(loc.file, loc.line, loc.col + len(t.text), loc.buffer, loc.phys_line)
        self.diag("error", message, loc, t.expansion, notes)

    def fatal(self, message: str, t: CToken, notes=()):
        self.diag("fatal error", message, t.loc, t.expansion)
        d = self.diagnostics[-1]
        d.notes += [Note(n, d.loc) for n in notes]  # clang puts these notes where the error is
        raise Stop

    # -- nesting limits ------------------------------------------------------------------------------
    def open_bracket(self, t: CToken) -> None:
        """Count an opening bracket; the matching ``close_bracket`` undoes it. After an error
        the catching statement restores the depth it saved."""
        self.depth += 1
        if self.depth > self.MAX_BRACKET_DEPTH:
            self.fatal(f"bracket nesting level exceeded maximum of {self.MAX_BRACKET_DEPTH}", t,
                       ["use -fbracket-depth=N to increase maximum nesting level"])

    def close_bracket(self) -> None:
        self.depth -= 1

    # -- recovery ------------------------------------------------------------------------------------
    def skip_to_sync(self, top_level: bool = False, stop_at_semicolon: bool = True) -> None:
        """Skip to just after the next ';' or to the next unmatched '}' (not consumed), jumping
        over bracketed groups; at file scope a finished '{…}' group also ends the skip (it
        was probably a function body)."""
        depth = 0
        while True:
            t = self.tok
            w = t.word
            if t.kind == EOF:
                return
            if w in ("(", "[", "{"):
                depth += 1
            elif w in (")", "]", "}"):
                if depth == 0:
                    if w == "}":
                        if top_level:
                            self.advance()
                        return
                else:
                    depth -= 1
                    if depth == 0 and w == "}" and top_level:
                        self.advance()
                        if self.at(";"):
                            self.advance()
                        return
            elif w == ";" and depth == 0 and stop_at_semicolon:
                self.advance()
                return
            self.advance()

    # -- pragmas -----------------------------------------------------------------------------------
    def take_pragmas(self) -> list[CToken]:
        """The pragma tokens that came before the current token and were not taken yet."""
        out = []
        table = self.pragma_at
        while self._next_pragma < len(table) and table[self._next_pragma][0] <= self.pos:
            t = table[self._next_pragma][1]
            self._next_pragma += 1
            if t.pragma is not None and t.pragma.kind != "other":
                out.append(t)
        return out

    def pragma_node(self, t: CToken) -> ast.Pragma:
        p = t.pragma
        kind = p.kind
        count_expr = None
        if kind == "extension":
            name, value = p.name, p.enabled
        elif kind == "fp_contract":
            name, value = None, p.value
        else:
            name, value = None, p.value
            if isinstance(value, list):  # "#pragma unroll (N*2)": an expression to fold later
                value, count_expr = None, self.sub_expression(value, t)
        return ast.Pragma(kind, name, value, count_expr, loc=t.loc, expansion=t.expansion)

    def sub_expression(self, pp_tokens, where: CToken):
        """Parse a constant expression from preprocessing tokens found outside the stream."""
        if self.classifier is None:
            return None
        toks = self.classifier.classify(pp_tokens)
        saved = (self.toks, self.pos)
        self.toks, self.pos = toks + [end_of_file(toks)], 0
        try:
            expr = self.parse_conditional()
            if self.tok.kind != EOF:
                self.error("extra tokens at end of '#pragma unroll' - ignored", self.tok)
            return expr
        except Recover:
            return None
        finally:
            self.toks, self.pos = saved

    # -- the translation unit ------------------------------------------------------------------------
    def parse_translation_unit(self, extensions=()) -> ast.TranslationUnit:
        first = self.toks[0]
        unit = ast.TranslationUnit([], list(extensions), self.cl_std, loc=first.loc)
        decls = unit.decls
        old_limit = sys.getrecursionlimit()
        # Python 3.11 runs Python-to-Python calls without growing the C stack, so a higher
        # limit is safe; the nesting limits above keep the real depth well under it.
        sys.setrecursionlimit(max(old_limit, 12000))
        try:
            while True:
                for p in self.take_pragmas():
                    self.file_scope_pragma(p, decls)
                if self.tok.kind == EOF:
                    break
                depth = self.depth
                try:
                    self.parse_external_declaration(decls)
                except Recover:
                    self.depth, self.stmt_depth = depth, 0
                    del self.scopes[1:]
                    self.skip_to_sync(top_level=True)
        except Stop:
            pass
        except RecursionError:  # a last guard: every deep construct has its own limit
            self.diagnostics.append(located_diagnostic("fatal error", "source is too deeply nested",
                                                       self.tok.loc, self.tok.expansion))
        finally:
            sys.setrecursionlimit(old_limit)
        return unit

    def file_scope_pragma(self, t: CToken, decls: list) -> None:
        node = self.pragma_node(t)
        if node.kind in ("unroll", "nounroll"):
            self.error(f"expected a for, while, or do-while loop to follow '#pragma {node.kind}'", self.tok)
            return
        decls.append(node)

    def parse_external_declaration(self, decls: list) -> None:
        t = self.tok
        if t.word == ";":  # an empty declaration: C99 forbids it, clang only warns with -pedantic
            self.advance()
            return
        if t.word == "}":
            self.advance()
            self.error("extraneous closing brace ('}')", t)
            return
        if not (self.is_declaration_start() or t.kind == IDENTIFIER):
            self.syntax_error("expected identifier or '('")
        decls.extend(self.parse_declaration(top_level=True))

