"""Preprocessing directives (C99 §6.10.1–6.10.9) and pragmas, as a mixin of Preprocessor.

Kept apart from preprocessor.py only for size; the methods use the Preprocessor's state
(frames, expander, diagnostics). Diagnostic texts follow clang's so users can search them.
"""

from __future__ import annotations

import os

from .macros import Macro
from .pp_expr import Evaluator, ExprError
from .predefined import KNOWN_EXTENSIONS
from .tokens import IDENT, NUMBER, PRAGMA, PUNCT, STRING, Token, lex_fragment, spell

_CONDITIONALS = ("if", "ifdef", "ifndef", "elif", "else", "endif")


def _line_tokens(f, start: int) -> tuple[list[Token], int]:
    """The tokens from ``start`` up to the end of that logical line, and the next position."""
    toks = f.tokens
    end = start
    n = len(toks)
    while end < n and not toks[end].at_bol:
        end += 1
    return toks[start:end], end


class DirectivesMixin:
    # -- dispatch -------------------------------------------------------------------------------
    def directive(self, f, hash_tok: Token):
        """Handle the directive starting at ``hash_tok``; returns a PRAGMA token or None."""
        raw, f.pos = _line_tokens(f, f.pos)
        hash_tok = self.remap(f, hash_tok)
        line = [self.remap(f, t) for t in raw]
        if not line:
            return None  # the null directive
        head = line[0]
        if head.kind == NUMBER:  # "# 33 "file"": a GNU line marker, as -E writes them
            self.do_line(f, hash_tok, line, gnu=True)
            return None
        name = head.text if head.kind == IDENT else ""
        args = line[1:]
        if name in _CONDITIONALS:
            self.conditional(f, name, head, args)
            return None
        handler = {"define": self.do_define, "undef": self.do_undef, "include": self.do_include,
                   "line": self.do_line_directive, "error": self.do_error, "warning": self.do_error,
                   "pragma": self.do_pragma}.get(name)
        if handler is None:
            self.diag_at("error", "invalid preprocessing directive", head)
            return None
        return handler(f, head, args)

    # -- conditional inclusion (§6.10.1) -----------------------------------------------------------
    def conditional(self, f, name: str, head: Token, args: list[Token]) -> None:
        from .preprocessor import _Cond
        if name in ("if", "ifdef", "ifndef"):
            if name == "if":
                value = self.eval_if(head, args)
            else:
                value = self.macro_name(head, args, name) in self.expander.macros
                if name == "ifndef":
                    value = not value
            f.conds.append(_Cond(head.loc, value, value))
            if not value:
                self.skip_group(f)
            return
        if not f.conds:
            self.diag_at("error", f"#{name} without #if", head)
            return
        cond = f.conds[-1]
        if name == "endif":
            if args:
                self.diag_at("warning", "extra tokens at end of #endif directive", args[0], "-Wextra-tokens")
            f.conds.pop()
            return
        if cond.seen_else:
            self.diag_at("error", f"#{name} after #else", head)
        if name == "else":
            cond.seen_else = True
            if args:
                self.diag_at("warning", "extra tokens at end of #else directive", args[0], "-Wextra-tokens")
        if cond.taken:
            # A group was already taken: skip this one without evaluating its condition.
            cond.active = False
            self.skip_group(f)
            return
        value = True if name == "else" else self.eval_if(head, args)
        cond.active = cond.taken = value
        if not value:
            self.skip_group(f)

    def skip_group(self, f) -> None:
        """Skip tokens up to the #elif/#else/#endif that ends the current group; nested
        conditionals are only counted, and nothing in between is diagnosed."""
        toks = f.tokens
        n = len(toks)
        depth = 0
        pos = f.pos
        while pos < n:
            t = toks[pos]
            pos += 1
            if not (t.at_bol and (t.text == "#" or t.text == "%:") and t.kind == PUNCT):
                continue
            if pos >= n or toks[pos].at_bol or toks[pos].kind != IDENT:
                continue
            word = toks[pos].text
            if word in ("if", "ifdef", "ifndef"):
                depth += 1
            elif word == "endif":
                if depth == 0:
                    f.pos = pos - 1
                    return
                depth -= 1
            elif word in ("elif", "else") and depth == 0:
                f.pos = pos - 1
                return
        f.pos = n  # end of file: _pop_file reports the unterminated conditional

    def eval_if(self, head: Token, args: list[Token]) -> bool:
        if not args:
            self.diag_at("error", f"#{head.text} with no expression", head)
            return False
        self.expander.in_if = True
        try:
            tokens = self.expander.expand_all(args)
        finally:
            self.expander.in_if = False
        try:
            return Evaluator(tokens, lambda m, t: self.diag_at("warning", m, t, "-Winteger-overflow")).evaluate()
        except ExprError as e:
            self.diag_at("error", e.message, e.token or head)
            return False

    def macro_name(self, head: Token, args: list[Token], directive: str) -> str | None:
        if not args:
            self.diag_at("error", "macro name missing", head)
            return None
        name = args[0]
        if name.kind != IDENT:
            self.diag_at("error", "macro name must be an identifier", name)
            return None
        if len(args) > 1:
            self.diag_at("warning", f"extra tokens at end of #{directive} directive", args[1], "-Wextra-tokens")
        return name.text

    # -- macro definition (§6.10.3) -------------------------------------------------------------
    def do_define(self, f, head: Token, args: list[Token]):
        if not args:
            self.diag_at("error", "macro name missing", head)
            return None
        name_tok = args[0]
        if name_tok.kind != IDENT:
            self.diag_at("error", "macro name must be an identifier", name_tok)
            return None
        name = name_tok.text
        if name == "defined":
            self.diag_at("error", "'defined' cannot be used as a macro name", name_tok)
            return None
        rest = args[1:]
        params = None
        variadic = False
        if rest and rest[0].text == "(" and not rest[0].has_space:
            parsed = self._parse_params(rest)
            if parsed is None:
                return None
            params, variadic, used = parsed
            body = rest[used:]
        else:
            body = rest
            if body and not body[0].has_space:
                self.diag_at("warning", "ISO C99 requires whitespace after the macro name", body[0],
                             "-Wc99-extensions")
        if body:
            body = [body[0].copy(has_space=False)] + body[1:]
        if not self._check_body(body, params, variadic):
            return None
        macro = Macro(name, params, variadic, body, name_tok.loc)
        old = self.expander.macros.get(name)
        if old is not None:
            if old.builtin is not None:
                self.diag_at("warning", "redefining builtin macro", name_tok, "-Wbuiltin-macro-redefined")
            elif not old.same_as(macro):
                self.diag_at("warning", f"'{name}' macro redefined", name_tok, "-Wmacro-redefined",
                             notes=[("previous definition is here", old.loc)])
        self.expander.macros[name] = macro
        return None

    def _parse_params(self, rest: list[Token]):
        """Parse ``(a, b, ...)`` after a macro name; returns (params, variadic, tokens used)."""
        params: list[str] = []
        variadic = False
        n = len(rest)
        i = 1
        if i < n and rest[i].text == ")":
            return (), False, 2
        while True:
            if i >= n:
                self.diag_at("error", "missing ')' in macro parameter list", rest[-1])
                return None
            t = rest[i]
            i += 1
            if t.text == "...":
                params.append("__VA_ARGS__")
                variadic = True
            elif t.kind == IDENT:
                if t.text in params:
                    self.diag_at("error", f"duplicate macro parameter name '{t.text}'", t)
                    return None
                if t.text == "__VA_ARGS__":
                    self.diag_at("error", "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro", t)
                    return None
                params.append(t.text)
                if i < n and rest[i].text == "...":  # GNU named variadic: args...
                    variadic = True
                    i += 1
            else:
                self.diag_at("error", "invalid token in macro parameter list", t)
                return None
            if i >= n:
                self.diag_at("error", "missing ')' in macro parameter list", rest[-1])
                return None
            sep = rest[i]
            i += 1
            if sep.text == ")":
                return tuple(params), variadic, i
            if sep.text != "," or variadic:
                self.diag_at("error", "missing ')' in macro parameter list" if variadic
                             else "expected comma in macro parameter list", sep)
                return None

    def _check_body(self, body: list[Token], params, variadic: bool) -> bool:
        if body and body[0].is_punct("##"):
            self.diag_at("error", "'##' cannot appear at start of macro expansion", body[0])
            return False
        if body and body[-1].is_punct("##"):
            self.diag_at("error", "'##' cannot appear at end of macro expansion", body[-1])
            return False
        for i, t in enumerate(body):
            if params is not None and t.is_punct("#"):
                nxt = body[i + 1] if i + 1 < len(body) else None
                if nxt is None or nxt.kind != IDENT or nxt.text not in params:
                    self.diag_at("error", "'#' is not followed by a macro parameter", t)
                    return False
            if t.kind == IDENT and t.text == "__VA_ARGS__" and not (variadic and "__VA_ARGS__" in params):
                self.diag_at("warning", "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                             t, "-Wpedantic")
        return True

    def do_undef(self, f, head: Token, args: list[Token]):
        name = self.macro_name(head, args, "undef")
        if name is None:
            return None
        old = self.expander.macros.get(name)
        if old is not None and old.builtin is not None:
            self.diag_at("warning", "undefining builtin macro", args[0], "-Wbuiltin-macro-redefined")
        if name == "defined":
            self.diag_at("error", "'defined' cannot be used as a macro name", args[0])
            return None
        self.expander.macros.pop(name, None)
        return None

    # -- source file inclusion (§6.10.2) -----------------------------------------------------------
    def do_include(self, f, head: Token, args: list[Token]):
        spelled = self._header_name(f, args)
        if spelled is None:
            args = self.expander.expand_all(args)  # the computed form: #include MACRO
            spelled = self._header_name(None, args)
        if spelled is None:
            self.diag_at("error", "expected \"FILENAME\" or <FILENAME>", args[0] if args else head)
            return None
        name, angled = spelled
        if not name:
            self.diag_at("error", "empty filename", args[0])
            return None
        dirs = ([] if angled else [f.directory]) + list(self.options.include_dirs) \
            + list(self.options.system_include_dirs)
        candidates = [name] if os.path.isabs(name) else [os.path.join(d, name) for d in dirs]
        for path in candidates:
            if os.path.isfile(path):
                self.include_file(path, head)
                return None
        self.fatal(f"'{name}' file not found", args[0])
        return None

    @staticmethod
    def _header_name(f, args: list[Token]):
        if not args:
            return None
        first = args[0]
        if first.kind == STRING and first.text.startswith('"'):
            return first.text[1:-1], False
        if first.text == "<":
            close = next((i for i, t in enumerate(args) if t.text == ">"), None)
            if close is None:
                return None
            if f is not None and first.offset >= 0 and args[close].offset >= 0:
                # Read the raw characters: a header name is not a token sequence (C99 6.4.7).
                return f.logical.text[first.offset + 1:args[close].offset], True
            return spell(args[1:close]), True
        return None

    # -- line control, diagnostics (§6.10.4–5) ---------------------------------------------------
    def do_line_directive(self, f, head: Token, args: list[Token]):
        self.do_line(f, head, args, gnu=False)
        return None

    def do_line(self, f, head: Token, args: list[Token], gnu: bool) -> None:
        toks = args if gnu else self.expander.expand_all(args)
        if not toks or toks[0].kind != NUMBER or not toks[0].text.isdigit():
            self.diag_at("error", "#line directive requires a positive integer argument",
                         toks[0] if toks else head)
            return
        number = int(toks[0].text)
        if number > 2147483647:
            self.diag_at("error", "line number out of range", toks[0])
            return
        name = f.presumed
        if len(toks) > 1:
            if toks[1].kind != STRING or not toks[1].text.startswith('"'):
                self.diag_at("error", "invalid filename for #line directive", toks[1])
                return
            name = toks[1].text[1:-1].replace("\\\\", "\\")
            if len(toks) > 2 and not gnu:
                self.diag_at("warning", "extra tokens at end of #line directive", toks[2], "-Wextra-tokens")
        # The line after the directive gets `number`.
        last = (args[-1] if args else head).loc.phys_line
        f.line_delta = number - (last + 1)
        f.presumed = name
        self.line_markers.append((len(self._out), 0, name, number))

    def do_error(self, f, head: Token, args: list[Token]):
        # clang prints the rest of the line as written, spacing and comments included.
        message = spell(args)
        if f is not None and head.offset >= 0:
            text = f.logical.text
            start = head.offset + len(head.text)
            end = text.find("\n", start)
            message = text[start:end if end >= 0 else len(text)].strip()
        if head.text == "error":
            self.diag_at("error", message, head)
        else:
            self.diag_at("warning", message, head, "-W#warnings")
        return None

    # -- pragmas (§6.10.6, OpenCL C §1.10) ---------------------------------------------------------
    def do_pragma(self, f, head: Token, args: list[Token]):
        return self.handle_pragma(f, head, args)

    def pragma_operator(self, tok: Token):
        """``_Pragma("...")`` (C99 §6.10.9): destringize and handle as a #pragma line."""
        lparen = self.expander.expand_next(self)
        string = self.expander.expand_next(self) if lparen is not None and lparen.is_punct("(") else None
        rparen = self.expander.expand_next(self) if string is not None and string.kind == STRING else None
        if rparen is None or not rparen.is_punct(")"):
            self.diag_at("error", "_Pragma takes a parenthesized string literal", tok)
            return None
        body = string.text[2:-1] if string.text.startswith("L") else string.text[1:-1]
        body = body.replace('\\"', '"').replace("\\\\", "\\")
        where = tok.copy(at_bol=True)
        return self.handle_pragma(None, where, lex_fragment(body, tok.loc), expansion=tok.expansion)

    def handle_pragma(self, f, head: Token, args: list[Token], expansion=None):
        from .preprocessor import ExtensionEvent, Pragma
        first = args[0].text if args else ""
        if first == "once":
            if f is not None and len(self._frames) == 1:
                self.diag_at("warning", "#pragma once in main file", head, "-Wpragma-once-outside-header")
            if f is not None:
                self.mark_once(f)
            return None
        pragma = Pragma("other", args)
        second = args[1].text if len(args) > 1 else ""
        if first == "OPENCL" and second == "EXTENSION":
            # No macro replacement after OPENCL (spec §1.10).
            self._extension_pragma(pragma, args, head)
            if pragma.kind == "extension":
                self.extension_state[pragma.name] = pragma.enabled
                self.extension_events.append(ExtensionEvent(head.loc, pragma.name, pragma.enabled))
        elif first in ("OPENCL", "STDC") and second == "FP_CONTRACT":
            value = args[2].text if len(args) > 2 else ""
            if value in ("ON", "OFF", "DEFAULT"):
                pragma.kind, pragma.value = "fp_contract", value
            else:
                self.diag_at("warning", "expected 'ON' or 'OFF' or 'DEFAULT' in pragma",
                             args[2] if len(args) > 2 else args[-1], "-Wunknown-pragmas")
        elif first in ("unroll", "nounroll"):
            rest = self.expander.expand_all(args[1:])
            pragma.tokens = args[:1] + rest
            pragma.kind = first
            if first == "unroll":
                inner = rest[1:-1] if len(rest) >= 2 and rest[0].text == "(" and rest[-1].text == ")" else rest
                if len(inner) == 1 and inner[0].kind == NUMBER and inner[0].text.isdigit():
                    pragma.value = int(inner[0].text)
                elif inner:
                    pragma.value = inner  # an expression: the parser evaluates it
        elif first == "message" and len(args) >= 2:
            msg = [t for t in self.expander.expand_all(args[1:]) if t.kind == STRING]
            text = "".join(t.text[1:-1] for t in msg)
            self.diag_at("warning", text, args[0], "-W#pragma-messages")
        elif first not in ("OPENCL", "STDC", "clang", "GCC", "omp") and self.options.warn_unknown_pragmas:
            self.diag_at("warning", "unknown pragma ignored", args[0] if args else head, "-Wunknown-pragmas")
        return Token(PRAGMA, spell(pragma.tokens), head.loc, True, True, expansion=expansion, pragma=pragma)

    def _extension_pragma(self, pragma, args: list[Token], head: Token) -> None:
        if len(args) < 3 or args[2].kind != IDENT:
            self.diag_at("warning", "expected identifier - ignoring", args[2] if len(args) > 2 else args[-1],
                         "-Wignored-pragmas")
            return
        name_tok = args[2]
        if len(args) < 4 or args[3].text != ":":
            self.diag_at("warning", "expected ':' - ignoring", args[3] if len(args) > 3 else name_tok,
                         "-Wignored-pragmas")
            return
        behavior = args[4].text if len(args) > 4 else ""
        if behavior not in ("enable", "disable", "begin", "end", "require"):
            self.diag_at("warning", "expected 'enable', 'disable', 'begin' or 'end' - ignoring",
                         args[4] if len(args) > 4 else args[3], "-Wignored-pragmas")
            return
        name = name_tok.text
        enabled = behavior in ("enable", "begin", "require")
        if name == "all":
            if enabled:
                # (at the name, as clang reports it)
                self.diag_at("warning", "expected 'disable' - ignoring", name_tok, "-Wignored-pragmas")
                return
            for ext in list(self.extension_state):
                self.extension_state[ext] = False
        elif name not in KNOWN_EXTENSIONS and name not in self.supported_extensions:
            self.diag_at("warning", f"unknown OpenCL extension '{name}' - ignoring", name_tok, "-Wignored-pragmas")
            return
        elif enabled and name not in self.supported_extensions:
            self.diag_at("warning", f"unsupported OpenCL extension '{name}' - ignoring", name_tok,
                         "-Wignored-pragmas")
            return
        pragma.kind, pragma.name, pragma.enabled = "extension", name, enabled
