"""clang-15's default-on parentheses warnings, from the syntax tree.

clang checks these while it parses, on the expressions as written (a parenthesised operand is a
``ParenExpr`` and silences them), so they are a walk over the AST rather than a part of code
generation. Those clang-15 enables by default (``-Wlogical-op-parentheses`` for ``&&`` within
``||``, ``-Wbitwise-op-parentheses`` for ``&`` within ``|`` and ``X < Y < Z`` are off unless asked
for, so they are not here):

- ``-Wparentheses``: a bitwise ``& ^ |`` with a comparison on exactly one side and no bitwise
  operator on either (clang's "eager logical op" exemption): ``a < b ^ c``;
- ``-Wshift-op-parentheses``: ``+`` or ``-`` as an operand of ``<<`` (integer left operand) or
  ``>>``;
- ``-Wparentheses``: an arithmetic operator whose right operand looks boolean as the condition of
  ``?:``: ``a + (b < c) ? x : y``;
- ``-Wparentheses``: ``=`` or ``|=`` as the condition of ``if``/``while``/``do``/``for``;
- ``-Wparentheses-equality``: such a condition written ``((a == b))`` — extra parentheses not
  from a macro, around ``==`` whose left side is a modifiable lvalue.

Each warning is at clang's location (the operator) with clang's notes at the same place; inside
a macro both carry clang's "expanded from macro" notes. Where clang looks at types (an lvalue's
constness, a ``<<`` on a vector, a ``bool`` operand) the walk reads the declarations as written,
scope by scope; a name it cannot see (an enumerator, a typedef'd const) gets the answer that
does not warn.
"""

from __future__ import annotations

import re

from . import ast
from .source import Diagnostic, Note, expansion_location, located_diagnostic

COMPARISONS = {"<", ">", "<=", ">=", "==", "!="}
BITWISE = {"&", "^", "|"}
ARITHMETIC = {"*", "/", "%", "+", "-", "<<", ">>"}  # clang's IsArithmeticOp (BO_Mul .. BO_Shr)

# clang's -Wparentheses group: -Wno-parentheses turns these off too.
GROUPS = {"-Wparentheses": {"-Wparentheses", "-Wshift-op-parentheses", "-Wparentheses-equality",
                            "-Wlogical-not-parentheses", "-Wlogical-op-parentheses",
                            "-Wbitwise-op-parentheses", "-Wbitwise-conditional-parentheses",
                            "-Wdangling-else"}}

_VECTOR_NAME = re.compile(r"(char|uchar|short|ushort|int|uint|long|ulong|half|float|double|bool)(2|3|4|8|16)$")


def expand_groups(disabled: set[str]) -> set[str]:
    """The -W names a set of ``-Wno-`` names turns off, with clang's groups expanded."""
    out = set(disabled)
    for name in disabled:
        out |= GROUPS.get(name, set())
    return out


def parentheses_warnings(unit) -> list[Diagnostic]:
    """clang-15's default parentheses warnings for a translation unit, in source order."""
    walker = _Walker()
    walker.scopes.append({})
    try:
        for d in unit.decls or ():
            walker.top_level(d)
    except RecursionError:
        pass  # nesting this deep is an error code generation reports ("expression nesting too deep")
    return walker.found


def merge_in_source_order(first: list[Diagnostic], second: list[Diagnostic]) -> list[Diagnostic]:
    """Both lists (each in source order) as one, as clang emits them while it reads; each
    list keeps its own order, a diagnostic without a location stays after what preceded it."""
    out, i = [], 0
    for d in second:
        if d.loc is not None:
            while i < len(first) and (first[i].loc.line, first[i].loc.col) <= (d.loc.line, d.loc.col):
                out.append(first[i])
                i += 1
        out.append(d)
    return out + first[i:]


class _Sym:
    """What the walk needs to know about a declared name, read from its declared type."""

    __slots__ = ("const", "array", "pointer", "pointee_const", "vector", "boolean")

    def __init__(self, type_node) -> None:
        self.const = self.array = self.pointer = self.pointee_const = self.vector = self.boolean = False
        t = type_node
        if isinstance(t, ast.ArrayType):
            self.array = True
            while isinstance(t, ast.ArrayType):
                t = t.element
            self.pointee_const = _base_const(t)  # the elements (a subscript's lvalue)
            return
        if isinstance(t, ast.PointerType):
            self.pointer = True
            self.const = "const" in (t.qualifiers or ())
            self.pointee_const = _base_const(t.pointee)
            return
        if isinstance(t, ast.BaseType):
            self.const = _base_const(t)
            specs = t.specifiers or ()
            self.boolean = "bool" in specs
            self.vector = any(_VECTOR_NAME.match(s) for s in specs)
        else:  # a function
            self.const = True


def _base_const(t) -> bool:
    if isinstance(t, ast.BaseType):
        return "const" in (t.qualifiers or ()) or t.address_space == "constant"
    if isinstance(t, ast.PointerType):
        return "const" in (t.qualifiers or ())
    return False


def _strip(e):
    while isinstance(e, ast.Paren):
        e = e.expr
    return e


class _Walker:
    def __init__(self) -> None:
        self.found: list[Diagnostic] = []
        self.scopes: list[dict[str, _Sym]] = []

    # -- scopes ---------------------------------------------------------------------------------

    def declare(self, name, type_node) -> None:
        if name:
            self.scopes[-1][name] = _Sym(type_node)

    def lookup(self, name) -> _Sym | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def top_level(self, d) -> None:
        if isinstance(d, ast.FunctionDef):
            self.declare(d.decl.name, d.decl.type)
            fnode = d.decl.type
            while isinstance(fnode, ast.PointerType):
                fnode = fnode.pointee
            self.body(fnode, d.body)
        elif isinstance(d, ast.Decl):
            self.decl(d)

    def body(self, fnode, body) -> None:
        """A function's or block literal's body, its parameters in a scope around it."""
        self.scopes.append({})
        for p in getattr(fnode, "params", None) or ():
            self.declare(p.name, p.type)
        self.stmt(body)
        self.scopes.pop()

    def decl(self, d) -> None:
        if not isinstance(d, ast.Decl):  # _Static_assert among declarations
            self.visit(d)
            return
        if "typedef" in (d.storage or ()):
            return
        self.declare(d.name, d.type)
        if d.init is not None:
            self.visit(d.init)

    # -- statements: a condition is checked as soon as it is read, as clang does ---------------

    def stmt(self, s) -> None:
        if s is None:
            return
        if isinstance(s, ast.Compound):
            self.scopes.append({})
            for item in s.items or ():
                self.stmt(item)
            self.scopes.pop()
        elif isinstance(s, ast.DeclStmt):
            for d in s.decls or ():
                self.decl(d)
        elif isinstance(s, ast.Decl):
            self.decl(s)
        elif isinstance(s, ast.If):
            self.condition(s.cond)
            self.stmt(s.then)
            self.stmt(s.else_)
        elif isinstance(s, ast.While):
            self.condition(s.cond)
            self.stmt(s.body)
        elif isinstance(s, ast.DoWhile):
            self.stmt(s.body)
            self.condition(s.cond)
        elif isinstance(s, ast.For):
            self.scopes.append({})
            if isinstance(s.init, (ast.DeclStmt, ast.Decl)):
                self.stmt(s.init)
            elif s.init is not None:
                self.visit(s.init)
            if s.cond is not None:
                self.condition(s.cond)
            if s.step is not None:
                self.visit(s.step)
            self.stmt(s.body)
            self.scopes.pop()
        elif isinstance(s, (ast.Switch, ast.Case, ast.Default, ast.Label)):
            for field in ("cond", "value"):
                if getattr(s, field, None) is not None:
                    self.visit(getattr(s, field))
            self.stmt(s.body)
        elif isinstance(s, ast.ExprStmt):
            self.visit(s.expr)
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.visit(s.value)
        elif isinstance(s, ast.Node):
            self.visit(s)

    def condition(self, cond) -> None:
        """clang's DiagnoseAssignmentAsCondition, on an if/while/do/for condition."""
        self.visit(cond)
        if isinstance(cond, ast.Paren):
            inner = _strip(cond)
            if (cond.expansion is None and isinstance(inner, ast.BinaryOp) and inner.op == "=="
                    and self.modifiable(inner.lhs)):
                self.warn(inner, "equality comparison with extraneous parentheses", "-Wparentheses-equality",
                          ["remove extraneous parentheses around the comparison to silence this warning",
                           "use '=' to turn this equality comparison into an assignment"])
        elif isinstance(cond, ast.Assignment) and cond.op in ("=", "|="):
            last = ("use '!=' to turn this compound assignment into an inequality comparison" if cond.op == "|="
                    else "use '==' to turn this assignment into an equality comparison")
            self.warn(cond, "using the result of an assignment as a condition without parentheses",
                      "-Wparentheses", ["place parentheses around the assignment to silence this warning", last])

    # -- expressions: children first, as clang builds an operator after its operands -----------

    def visit(self, e) -> None:
        if e is None:
            return
        if isinstance(e, ast.StmtExpr):
            self.stmt(e.body)
            return
        if isinstance(e, ast.BlockLiteral):  # (its parameter types hold nothing to check)
            self.body(e.type, e.body)
            return
        for _, child in e.children():
            if isinstance(child, (ast.Compound, ast.DeclStmt)):
                self.stmt(child)
            else:
                self.visit(child)
        if isinstance(e, ast.BinaryOp):
            if e.op in BITWISE:
                self.bitwise(e)
            elif e.op in ("<<", ">>"):
                self.shift(e)
        elif isinstance(e, ast.Conditional):
            self.conditional(e)

    def bitwise(self, e) -> None:
        """clang's DiagnoseBitwisePrecedence."""
        lhs, rhs = e.lhs, e.rhs
        left = isinstance(lhs, ast.BinaryOp) and lhs.op in COMPARISONS
        right = isinstance(rhs, ast.BinaryOp) and rhs.op in COMPARISONS
        if left == right:
            return
        if any(isinstance(side, ast.BinaryOp) and side.op in BITWISE for side in (lhs, rhs)):
            return  # bitwise operators used as eager logical ones
        cmp = (lhs if left else rhs).op
        self.warn(e, f"{e.op} has lower precedence than {cmp}; {cmp} will be evaluated first", "-Wparentheses",
                  [f"place parentheses around the '{cmp}' expression to silence this warning",
                   f"place parentheses around the {e.op} expression to evaluate it first"])

    def shift(self, e) -> None:
        """clang's DiagnoseAdditionInShift: ``<<`` only with an integer (scalar) left operand."""
        if e.op == "<<" and not self.integral(e.lhs):
            return
        for side in (e.lhs, e.rhs):
            if isinstance(side, ast.BinaryOp) and side.op in ("+", "-"):
                self.warn(side, f"operator '{e.op}' has lower precedence than '{side.op}'; '{side.op}' will be "
                          "evaluated first", "-Wshift-op-parentheses",
                          [f"place parentheses around the '{side.op}' expression to silence this warning"])

    def conditional(self, e) -> None:
        """clang's DiagnoseConditionalPrecedence (at the '?')."""
        c = e.cond
        if not (isinstance(c, ast.BinaryOp) and c.op in ARITHMETIC and self.looks_boolean(c.rhs)):
            return
        self.warn(e, f"operator '?:' has lower precedence than '{c.op}'; '{c.op}' will be evaluated first",
                  "-Wparentheses", [f"place parentheses around the '{c.op}' expression to silence this warning",
                                    "place parentheses around the '?:' expression to evaluate it first"])

    # -- what clang reads from types ------------------------------------------------------------

    def looks_boolean(self, e) -> bool:
        e = _strip(e)
        if isinstance(e, ast.BinaryOp):
            return e.op in COMPARISONS or e.op in ("&&", "||")
        if isinstance(e, ast.UnaryOp):
            return e.op == "!"
        if isinstance(e, ast.Identifier):
            sym = self.lookup(e.name)
            return sym is not None and (sym.boolean or sym.pointer or sym.array)
        return False

    def integral(self, e) -> bool:
        e = _strip(e)
        if isinstance(e, (ast.VectorLiteral, ast.FloatLiteral)):
            return False
        if isinstance(e, ast.Identifier):
            sym = self.lookup(e.name)
            return sym is None or not (sym.vector or sym.pointer or sym.array)
        if isinstance(e, ast.Cast):
            return not (isinstance(e.to, ast.TypeName) and isinstance(e.to.type, ast.BaseType)
                        and any(_VECTOR_NAME.match(s) for s in e.to.type.specifiers or ()))
        return True

    def modifiable(self, e) -> bool:
        """clang's isModifiableLvalue, as far as the declarations as written tell."""
        e = _strip(e)
        if isinstance(e, ast.Identifier):
            sym = self.lookup(e.name)
            return sym is not None and not sym.const and not sym.array
        if isinstance(e, ast.Subscript) or (isinstance(e, ast.UnaryOp) and e.op == "*" and not e.postfix):
            base = _strip(e.base if isinstance(e, ast.Subscript) else e.operand)
            if isinstance(base, ast.Identifier):
                sym = self.lookup(base.name)
                if sym is None:
                    return False
                if sym.pointer or sym.array:
                    return not sym.pointee_const
                return sym.vector and not sym.const
            return True
        if isinstance(e, ast.Member):
            return True if e.arrow else self.modifiable(e.base)
        return False

    # -- reporting ------------------------------------------------------------------------------

    def warn(self, node, message: str, option: str, notes: list[str]) -> None:
        d = located_diagnostic("warning", message, node.loc, node.expansion, option)
        chain = list(d.notes)  # "expanded from macro" notes: clang repeats them after each note
        for text in notes:
            d.notes.append(Note(text, expansion_location(node.loc, node.expansion)))
            d.notes.extend(Note(n.message, n.loc) for n in chain)
        self.found.append(d)
