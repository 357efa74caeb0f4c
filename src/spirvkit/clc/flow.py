"""Control flow of a function body, for clang's ``-Wreturn-type``.

A small control-flow graph of the statements (clang's CFG at statement granularity): each
statement is a node, ``return`` ends a path, and conditions whose value is known at compile
time (``while (1)``, ``if (0)``, a switch on a constant; recorded by the code generator in
``known`` while it walks the body, so names resolve in their own scopes) keep only the edge
they take, as clang's CFG builder prunes them. :func:`fall_through` then says what clang's
``CheckFallThrough`` says: whether the end of the body is reachable and, if so, whether some
``return`` is reachable too ("does not return a value" vs "… in all control paths").
"""

from __future__ import annotations

from . import ast

NEVER, MAYBE, ALWAYS = "never", "maybe", "always"


class _Graph:
    def __init__(self, known: dict):
        self.known = known  # id(node) -> True / False / int (a switch selector or case value)
        self.succ: list[list[int]] = [[]]  # node 0: falling off the end of the body
        self.returns: list[int] = []
        self.labels: dict[str, int] = {}

    def new(self, succs=()) -> int:
        self.succ.append(list(succs))
        return len(self.succ) - 1

    def label(self, name: str) -> int:
        if name not in self.labels:
            self.labels[name] = self.new()
        return self.labels[name]

    def build(self, s, nxt: int, brk, cont, cases) -> int:
        """The entry node of statement ``s`` whose normal successor is ``nxt``; ``brk``/``cont``
        the targets of break/continue, ``cases`` the case list of the enclosing switch."""
        k = type(s).__name__
        if k == "Compound":
            for item in reversed(s.items):
                nxt = self.build(item, nxt, brk, cont, cases)
            return nxt
        if k == "Return":
            n = self.new()
            self.returns.append(n)
            return n
        if k == "If":
            c = self.known.get(id(s))
            then = self.build(s.then, nxt, brk, cont, cases)
            other = self.build(s.else_, nxt, brk, cont, cases) if s.else_ is not None else nxt
            return self.new(_branch(c, then, other))
        if k in ("While", "For"):
            head = self.new()
            step = self.new([head]) if k == "For" and s.step is not None else head
            body = self.build(s.body, step, nxt, step, cases)
            c = True if k == "For" and s.cond is None else self.known.get(id(s))
            self.succ[head] = _branch(c, body, nxt)
            return self.new([head])  # the init / the jump into the loop
        if k == "DoWhile":
            test = self.new()
            body = self.build(s.body, test, nxt, test, cases)
            self.succ[test] = _branch(self.known.get(id(s)), body, nxt)
            return self.new([body])
        if k == "Switch":
            inner: list = []
            body = self.build(s.body, nxt, nxt, cont, inner)
            del body  # reached only through its case labels
            selector = self.known.get(id(s))
            default = [n for node, n in inner if isinstance(node, ast.Default)]
            if isinstance(selector, int) and not isinstance(selector, bool):
                hits = [n for node, n in inner if isinstance(node, ast.Case) and self.known.get(id(node)) == selector]
                return self.new(hits[:1] or default[:1] or [nxt])
            return self.new([n for _, n in inner] + ([] if default else [nxt]))
        if k in ("Case", "Default"):
            n = self.build(s.body, nxt, brk, cont, cases) if s.body is not None else nxt
            entry = self.new([n])
            if cases is not None:
                cases.append((s, entry))
            return entry
        if k == "Label":
            n = self.build(s.body, nxt, brk, cont, cases) if s.body is not None else nxt
            entry = self.label(s.name)
            self.succ[entry] = [n]
            return entry
        if k == "Goto":
            return self.new([self.label(s.label)])
        if k == "Break":
            return self.new([brk] if brk is not None else [])
        if k == "Continue":
            return self.new([cont] if cont is not None else [])
        return self.new([nxt])  # declarations, expressions, pragmas, ';'


def _branch(c, yes: int, no: int) -> list[int]:
    if c is None:
        return [yes, no]
    return [yes] if c else [no]


def fall_through(body, known: dict) -> str:
    """NEVER (the end of ``body`` is unreachable), MAYBE (it is reachable and so is a
    ``return``) or ALWAYS (it is reachable and no ``return`` is)."""
    g = _Graph(known)
    start = g.build(body, 0, None, None, None)
    seen = {start}
    stack = [start]
    while stack:
        for m in g.succ[stack.pop()]:
            if m not in seen:
                seen.add(m)
                stack.append(m)
    if 0 not in seen:
        return NEVER
    return MAYBE if any(r in seen for r in g.returns) else ALWAYS
