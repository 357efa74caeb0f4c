"""Macro definitions and their expansion (C99 §6.10.3).

The expansion algorithm is Dave Prosser's (the one the C standard's rules were written from,
also used by chibicc and 8cc): every token carries a *hideset*, the names of the macros it came
out of. A name in its own hideset is never expanded again (the "painted blue" rule), and a
function-like invocation's result gets the hideset ``(HS(name) ∩ HS(')')) ∪ {name}``, which is
what makes the standard's examples (``f(f(z))``, ``t(t(g)(0) + t)(1)`` …) come out right.

Expansion never recurses on the Python stack for chains of macros (results are pushed back
onto the input and rescanned); only argument pre-expansion nests, and it is bounded by
``MAX_NESTING`` so hostile input ends in a located error, not a RecursionError.
"""

from __future__ import annotations

from .source import MacroExpansion, SourceLocation, expansion_location
from .tokens import CHAR, IDENT, INVALID, NUMBER, PUNCT, STRING, Token, lex_fragment

MAX_NESTING = 100  # nested macro arguments being pre-expanded (f(f(f(...)))): ~4 frames each
MAX_TOKENS = 20_000_000  # tokens produced by expansion in one compilation: stops exponential bombs


class Fatal(Exception):
    """Stops preprocessing after a fatal diagnostic has been recorded."""


class Macro:
    """A ``#define``: ``params`` is None for an object-like macro; for a variadic one the last
    parameter is ``__VA_ARGS__`` (or the GNU-style named one). ``builtin`` names a dynamic
    macro such as ``__LINE__``, whose value the preprocessor computes at each use."""

    __slots__ = ("name", "params", "variadic", "body", "loc", "builtin", "index")

    def __init__(self, name: str, params: tuple[str, ...] | None, variadic: bool,
                 body: list[Token], loc: SourceLocation | None, builtin: str | None = None):
        self.name = name
        self.params = params
        self.variadic = variadic
        self.body = body
        self.loc = loc
        self.builtin = builtin
        self.index = {p: i for i, p in enumerate(params)} if params else {}

    def same_as(self, other: "Macro") -> bool:
        """C99 §6.10.3p2: a redefinition is allowed only if identical, whitespace included
        (any whitespace counts as the same)."""
        if (self.params, self.variadic, len(self.body)) != (other.params, other.variadic, len(other.body)):
            return False
        for i, (a, b) in enumerate(zip(self.body, other.body)):
            if a.text != b.text or (i and a.has_space != b.has_space):
                return False
        return True

    def definition_text(self) -> str:
        """The ``#define`` line as ``-dM`` prints it (for tests and debugging)."""
        head = self.name
        if self.params is not None:
            ps = list(self.params)
            if self.variadic:
                ps[-1] = "..." if ps[-1] == "__VA_ARGS__" else ps[-1] + "..."
            head += "(" + ",".join(ps) + ")"
        body = "".join((" " if i and t.has_space else "") + t.text for i, t in enumerate(self.body))
        return f"#define {head} {body}"


class ListSource:
    """A token source over a fixed list (a macro argument, an ``#if`` line)."""

    __slots__ = ("_stack", "collecting")

    def __init__(self, tokens: list[Token]):
        self._stack = tokens[::-1]
        self.collecting = False

    def next(self) -> Token | None:
        return self._stack.pop() if self._stack else None

    def peek(self) -> Token | None:
        return self._stack[-1] if self._stack else None

    def push(self, tokens: list[Token]) -> None:
        self._stack.extend(reversed(tokens))


class MacroExpander:
    """Holds the macro table and expands tokens read from a source (see ListSource for the
    interface: ``next``, ``peek``, ``push`` and a ``collecting`` flag).

    ``diag(severity, message, loc, expansion=None, option=None, notes=())`` reports;
    ``builtin(name, token)`` gives the token a dynamic macro expands to.
    """

    def __init__(self, diag, builtin):
        self.macros: dict[str, Macro] = {}
        self.diag = diag
        self.builtin = builtin
        self.in_if = False  # inside an #if line: `defined` is an operator
        self.nesting = 0
        self.produced = 0
        self.max_tokens = MAX_TOKENS

    # -- the expansion loop -----------------------------------------------------------------
    def expand_next(self, src) -> Token | None:
        """The next fully macro-expanded token from ``src`` (None at its end)."""
        carry_space = carry_bol = False
        while True:
            tok = src.next()
            if tok is None:
                return None
            if tok.kind == IDENT:
                name = tok.text
                if self.in_if and name == "defined":
                    tok = self._defined(tok, src)
                else:
                    macro = self.macros.get(name)
                    if macro is not None and name not in tok.hideset:
                        if macro.builtin is not None:
                            tok = self.builtin(macro.builtin, tok)
                        else:
                            body = self._expand_macro(macro, tok, src)
                            # None: a function-like name without '(' is an ordinary token.
                            if body is not None:
                                if body:
                                    src.push(body)
                                else:
                                    # An empty expansion still separates tokens (-E prints
                                    # "a E b" as "a b"), and may have started a line.
                                    carry_space = carry_space or tok.has_space
                                    carry_bol = carry_bol or tok.at_bol
                                continue
            if (carry_space and not tok.has_space) or (carry_bol and not tok.at_bol):
                tok = tok.copy(has_space=tok.has_space or carry_space, at_bol=tok.at_bol or carry_bol)
            return tok

    def expand_all(self, tokens: list[Token]) -> list[Token]:
        """Every token of ``tokens`` fully expanded, in isolation (C99 §6.10.3.1 for
        arguments; also ``#if``, ``#include`` and ``#line`` operands)."""
        self.nesting += 1
        try:
            if self.nesting > MAX_NESTING:
                first = tokens[0] if tokens else None
                self.diag("fatal error", "macro arguments nested too deeply",
                          first.loc if first else None, first.expansion if first else None)
                raise Fatal
            src = ListSource(tokens)
            out = []
            while (t := self.expand_next(src)) is not None:
                out.append(t)
            return out
        finally:
            self.nesting -= 1

    def _expand_macro(self, macro: Macro, tok: Token, src) -> list[Token] | None:
        if macro.params is None:
            body = self._substitute(macro, tok, None, tok.hideset | {macro.name})
        else:
            nxt = src.peek()
            if nxt is None or not nxt.is_punct("("):
                return None
            collected = self._collect_args(macro, tok, src)
            if collected is None:
                return []
            args, rparen = collected
            body = self._substitute(macro, tok, args, (tok.hideset & rparen.hideset) | {macro.name},
                                    expansion_location(rparen.loc, rparen.expansion))
        self.produced += len(body)
        if self.produced > self.max_tokens:
            self.diag("fatal error", "macro expansion produced too many tokens", tok.loc, tok.expansion)
            raise Fatal
        if body:
            body[0] = body[0].copy(has_space=tok.has_space, at_bol=tok.at_bol)
        return body

    def _defined(self, tok: Token, src) -> Token:
        """``defined X`` / ``defined(X)`` in #if: 1 or 0, read without expanding X."""
        nxt = src.next()
        paren = nxt is not None and nxt.is_punct("(")
        if paren:
            nxt = src.next()
        value = "0"
        if nxt is None or nxt.kind != IDENT:
            self.diag("error", "macro name must be an identifier" if nxt is not None else "macro name missing",
                      (nxt or tok).loc, (nxt or tok).expansion)
            if nxt is not None and not nxt.is_punct(")"):
                src.push([nxt])
        else:
            value = "1" if nxt.text in self.macros else "0"
            if paren:
                close = src.next()
                if close is None or not close.is_punct(")"):
                    self.diag("error", "missing ')' after 'defined'", (close or nxt).loc, (close or nxt).expansion)
                    if close is not None:
                        src.push([close])
        return Token(NUMBER, value, tok.loc, tok.has_space, tok.at_bol, tok.hideset, tok.expansion)

    # -- arguments ---------------------------------------------------------------------------
    def _collect_args(self, macro: Macro, name_tok: Token, src):
        src.next()  # the '('
        nparams = len(macro.params)
        args: list[list[Token]] = [[]]
        depth = 0
        src.collecting = True
        try:
            while True:
                t = src.next()
                if t is None:
                    self.diag("error", "unterminated function-like macro invocation",
                              name_tok.loc, name_tok.expansion,
                              notes=[("macro '%s' defined here" % macro.name, macro.loc)])
                    return None
                if t.at_bol:  # a newline inside the arguments is just whitespace
                    t = t.copy(at_bol=False, has_space=True)
                if t.kind == PUNCT:
                    if t.text == "(":
                        depth += 1
                    elif t.text == ")":
                        if depth == 0:
                            rparen = t
                            break
                        depth -= 1
                    elif t.text == "," and depth == 0 and not (macro.variadic and len(args) == nparams):
                        args.append([])
                        continue
                args[-1].append(t)
        finally:
            src.collecting = False
        if nparams == 0:
            if len(args) == 1 and not args[0]:
                return [], rparen
            bad = args[0][0] if args[0] else rparen
            self._arg_count_error("too many", macro, bad)
            return None
        if len(args) < nparams:
            if macro.variadic and len(args) == nparams - 1:
                args.append([])  # f(a) for f(a, ...): an empty variadic part (C2x, GNU)
            else:
                self._arg_count_error("too few", macro, rparen)
                return None
        elif len(args) > nparams:
            extra = args[nparams]
            self._arg_count_error("too many", macro, extra[0] if extra else rparen)
            return None
        return args, rparen

    def _arg_count_error(self, which: str, macro: Macro, at: Token) -> None:
        self.diag("error", f"{which} arguments provided to function-like macro invocation",
                  at.loc, at.expansion, notes=[(f"macro '{macro.name}' defined here", macro.loc)])

    # -- substitution (C99 §6.10.3.1–3) ----------------------------------------------------------
    def _substitute(self, macro: Macro, name_tok: Token, args, hideset: frozenset,
                    end: SourceLocation | None = None) -> list[Token]:
        exp = MacroExpansion(macro.name, name_tok.loc, macro.loc, name_tok.expansion, end)
        body = macro.body
        index = macro.index if args is not None else {}
        expanded: dict[int, list[Token]] = {}
        out: list[Token] = []
        placemarker = False  # the left operand of a following ## is an empty argument
        i, n = 0, len(body)

        def param_of(t: Token) -> int | None:
            return index.get(t.text) if t.kind == IDENT and index else None

        def copies(tokens, first_space=None):
            res = [t.copy(hideset=t.hideset | hideset, at_bol=False) for t in tokens]
            if res and first_space is not None:
                res[0].has_space = first_space
            return res

        while i < n:
            t = body[i]
            if args is not None and t.is_punct("#") and i + 1 < n and param_of(body[i + 1]) is not None:
                out.append(self._stringify(args[param_of(body[i + 1])], t, exp, hideset))
                placemarker = False
                i += 2
                continue
            if t.is_punct("##") and i + 1 < n:
                rhs_tok = body[i + 1]
                i += 2
                p = param_of(rhs_tok)
                if p is not None:
                    rhs = copies(args[p], rhs_tok.has_space)
                    if (macro.variadic and p == len(macro.params) - 1 and out and not placemarker
                            and out[-1].is_punct(",")):
                        # GNU ", ## __VA_ARGS__": the comma goes away with empty variadic args.
                        if not rhs:
                            out.pop()
                        out.extend(rhs)
                        continue
                elif (args is not None and rhs_tok.is_punct("#") and i < n
                      and param_of(body[i]) is not None):
                    rhs = [self._stringify(args[param_of(body[i])], rhs_tok, exp, hideset)]
                    i += 1
                else:
                    rhs = [rhs_tok.copy(hideset=rhs_tok.hideset | hideset, expansion=exp, at_bol=False)]
                if placemarker or not out:
                    out.extend(rhs)
                    placemarker = not rhs
                elif rhs:
                    out[-1:] = self._paste(out[-1], rhs[0], t, exp) + rhs[1:]
                continue
            p = param_of(t)
            if p is not None:
                if i + 1 < n and body[i + 1].is_punct("##"):
                    raw = args[p]
                    out.extend(copies(raw, t.has_space))
                    placemarker = not raw
                else:
                    if p not in expanded:
                        expanded[p] = self.expand_all(args[p])
                    out.extend(copies(expanded[p], t.has_space))
                    placemarker = False
                i += 1
                continue
            out.append(t.copy(hideset=t.hideset | hideset, expansion=exp, at_bol=False))
            placemarker = False
            i += 1
        return out

    def _stringify(self, tokens: list[Token], hash_tok: Token, exp, hideset) -> Token:
        parts = []
        for k, t in enumerate(tokens):
            if k and (t.has_space or t.at_bol):
                parts.append(" ")
            if t.kind in (STRING, CHAR, INVALID):
                parts.append(t.text.replace("\\", "\\\\").replace('"', '\\"'))
            else:
                parts.append(t.text)
        text = "".join(parts)
        trailing = len(text) - len(text.rstrip("\\"))
        if trailing % 2:
            self.diag("warning", "invalid string literal, ignoring final '\\'", hash_tok.loc, exp)
            text = text[:-1]
        return Token(STRING, '"' + text + '"', hash_tok.loc, hash_tok.has_space, False,
                     hash_tok.hideset | hideset, exp)

    def _paste(self, lhs: Token, rhs: Token, op: Token, exp) -> list[Token]:
        text = lhs.text + rhs.text
        toks = lex_fragment(text, lhs.loc)
        if len(toks) == 1 and toks[0].text == text and toks[0].kind != INVALID:
            return [Token(toks[0].kind, text, lhs.loc, lhs.has_space, False, lhs.hideset, exp)]
        self.diag("error", f"pasting formed '{text}', an invalid preprocessing token", op.loc, exp)
        return [lhs, rhs]
