"""Expressions (C99 §6.5 with OpenCL C's vector literals and ``vec_step``): a mixin of Parser.

Binary operators are parsed by precedence climbing over one table. Chains that need no
brackets — prefix operators and casts (``- - - x``, ``(int)(float)x``), assignments
(``a = b = c``), conditionals (``a ? b : c ? d : e``) — are collected by loops and folded, so
their length costs no recursion; only brackets nest, and those are counted.

``(T)(a, b, c)`` with ``T`` a vector type (a vector type keyword, or a typedef of one) is a
:class:`~spirvkit.clc.ast.VectorLiteral`; ``(T)(a)`` is a cast of a parenthesized
expression. Either is complete at its ')': as in clang, ``(float4)(v).x`` takes ``.x`` of the
converted vector. For any other type ``(T)(a, b)`` is a cast of a comma expression.

Node locations follow clang's: an operator node is at its operator, a call at its '(', a
subscript at its '[', a member access at the member name.
"""

from __future__ import annotations

from . import ast
from .lexer import CHAR_CONST, FLOAT_CONST, IDENTIFIER, INT_CONST, STRING_LIT

BINARY_PRECEDENCE = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}
ASSIGNMENT_OPERATORS = frozenset({"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="})
PREFIX_OPERATORS = frozenset({"+", "-", "!", "~", "*", "&", "++", "--"})
TYPE_TRAITS = frozenset({"sizeof", "vec_step", "alignof"})
# OpenCL C's bool constants: keywords in clang (no header, no macro: __bool_true_false_are_defined
# stays undefined), of type bool, so sizeof(true) is 1.
BOOL_LITERALS = {"true": 1, "false": 0}


class ExpressionsMixin:
    def _at(self, cls, t, *fields):
        return cls(*fields, loc=t.loc, expansion=t.expansion)

    def parse_expression(self):
        """expression: assignment-expression (',' assignment-expression)*"""
        e = self.parse_assignment()
        while self.at(","):
            t = self.advance()
            e = self._at(ast.BinaryOp, t, ",", e, self.parse_assignment())
        return e

    def parse_assignment(self):
        lhs = self.parse_conditional()
        if self.tok.word not in ASSIGNMENT_OPERATORS:
            return lhs
        chain = []
        while self.tok.word in ASSIGNMENT_OPERATORS:
            op = self.advance()
            chain.append((lhs, op))
            lhs = self.parse_conditional()
        result = lhs
        for target, op in reversed(chain):  # right-associative
            result = self._at(ast.Assignment, op, op.word, target, result)
        return result

    def parse_conditional(self):
        cond = self.parse_binary(1)
        if not self.at("?"):
            return cond
        parts = []
        while self.at("?"):
            q = self.advance()
            # "a ?: b" (GNU, accepted by clang): then is None, meaning the condition's value.
            then = None if self.at(":") else self.parse_expression()
            if not self.at(":"):
                self.syntax_error("expected ':'", match=q)
            self.advance()
            parts.append((cond, then, q))
            cond = self.parse_binary(1)
        result = cond
        for c, then, q in reversed(parts):  # right-associative
            result = self._at(ast.Conditional, q, c, then, result)
        return result

    def parse_binary(self, min_prec: int):
        lhs = self.parse_cast()
        prec_of = BINARY_PRECEDENCE.get
        while True:
            t = self.toks[self.pos]
            prec = prec_of(t.word)
            if prec is None or prec < min_prec:
                return lhs
            if t.word == "^" and self.peek().word == "^":  # not a block literal: §1.3 reserves ^^
                self.syntax_error("^^ is a reserved operator in OpenCL", tok=t)
            self.pos += 1
            rhs = self.parse_binary(prec + 1)  # left-associative: the right side binds tighter
            lhs = ast.BinaryOp(t.word, lhs, rhs, loc=t.loc, expansion=t.expansion)

    def parse_cast(self):
        """cast-expression and unary-expression: prefix operators, casts and type traits are
        collected, the operand parsed, then they are applied innermost first."""
        prefix = []
        while True:
            t = self.tok
            w = t.word
            if w in PREFIX_OPERATORS:
                self.advance()
                prefix.append(("op", w, t))
                continue
            if w in TYPE_TRAITS:
                self.advance()
                if self.at("(") and self.is_type_name_start(self.peek()):
                    lp = self.advance()
                    tn = self._parenthesized_type_name(lp)
                    if not self.at("{"):
                        operand = self._at(ast.TypeTrait, t, w, tn)
                        break
                    prefix.append(("trait", w, t))
                    operand = self.parse_postfix_suffixes(self._compound_literal(tn, lp))
                    break
                if self.is_type_name_start(self.tok):
                    self.syntax_error(f"expected parentheses around type name in {t.text} expression", after=True)
                prefix.append(("trait", w, t))
                continue
            if w == "(" and self.is_type_name_start(self.peek()):
                lp = self.advance()
                tn = self._parenthesized_type_name(lp)
                if self.at("{"):
                    operand = self.parse_postfix_suffixes(self._compound_literal(tn, lp))
                    break
                # "(char2)(bool)x" is a cast of a cast, not a vector literal.
                if self.at("(") and self.is_vector_type_name(tn) and not self.is_type_name_start(self.peek()):
                    operand = self.parse_postfix_suffixes(self._vector_literal(tn, lp))
                    break
                prefix.append(("cast", tn, lp))
                continue
            operand = self.parse_postfix_suffixes(self.parse_primary())
            break
        for kind, what, t in reversed(prefix):
            if kind == "op":
                operand = ast.UnaryOp(what, operand, False, loc=t.loc, expansion=t.expansion)
            elif kind == "trait":
                operand = ast.TypeTrait(what, operand, loc=t.loc, expansion=t.expansion)
            else:
                operand = ast.Cast(what, operand, loc=t.loc, expansion=t.expansion)
        return operand

    def _parenthesized_type_name(self, lp):
        self.open_bracket(lp)
        tn = self.parse_type_name()
        self.expect(")", match=lp)
        self.close_bracket()
        return tn

    def _compound_literal(self, tn, lp):
        return self._at(ast.CompoundLiteral, lp, tn, self.parse_init_list())

    def _vector_literal(self, tn, type_lp):
        lp = self.advance()
        self.open_bracket(lp)
        elements = [self.parse_assignment()]
        while self.accept(","):
            elements.append(self.parse_assignment())
        self.expect(")", match=lp)
        self.close_bracket()
        if len(elements) == 1:
            return self._at(ast.Cast, type_lp, tn, self._at(ast.Paren, lp, elements[0]))
        return self._at(ast.VectorLiteral, type_lp, tn, elements, lp)

    def parse_postfix_suffixes(self, e):
        while True:
            t = self.toks[self.pos]
            w = t.word
            if w == "[":
                self.advance()
                self.open_bracket(t)
                index = self.parse_expression()
                self.expect("]", match=t)
                self.close_bracket()
                e = self._at(ast.Subscript, t, e, index)
            elif w == "(":
                self.advance()
                self.open_bracket(t)
                args = []
                if not self.at(")"):
                    if isinstance(e, ast.Identifier) and e.name == "__builtin_offsetof" and \
                            self.is_type_name_start(self.tok):  # its first argument is a type name
                        args.append(self.parse_type_name())
                    else:
                        args.append(self.parse_assignment())
                    while self.accept(","):
                        args.append(self.parse_assignment())
                self.expect(")", match=t)
                self.close_bracket()
                e = self._at(ast.Call, t, e, args)
            elif w == "." or w == "->":
                self.advance()
                name = self.tok
                if name.kind != IDENTIFIER:
                    self.syntax_error("expected identifier")
                self.advance()
                # op_loc: clang reports vector-component errors at the '.' / '->'.
                e = self._at(ast.Member, name, e, name.text, w == "->", t.loc)
            elif w == "++" or w == "--":
                self.advance()
                e = self._at(ast.UnaryOp, t, w, e, True)
            else:
                return e

    def parse_primary(self):
        t = self.tok
        k = t.kind
        if k == IDENTIFIER:
            self.advance()
            if t.text == "__builtin_astype" and self.at("("):   # a keyword in clang, with a type argument
                lp = self.advance()
                self.open_bracket(lp)
                e = self.parse_assignment()
                self.expect(",", "expected ','", after=True)
                if not self.is_type_name_start(self.tok):
                    self.syntax_error("expected a type")
                to = self.parse_type_name()
                self.expect(")", match=lp)
                self.close_bracket()
                return self._at(ast.AsType, t, e, to)
            if t.text in BOOL_LITERALS:  # keywords of type bool in clang's OpenCL C (LangOpts.Bool)
                return self._at(ast.IntegerLiteral, t, BOOL_LITERALS[t.text], "bool", t.text)
            return self._at(ast.Identifier, t, t.text)
        if k == INT_CONST:
            self.advance()
            return self._at(ast.IntegerLiteral, t, t.value, t.type, t.text)
        if k == FLOAT_CONST:
            self.advance()
            return self._at(ast.FloatLiteral, t, t.value, t.type, t.text)
        if k == CHAR_CONST:
            self.advance()
            return self._at(ast.CharLiteral, t, t.value, t.type, t.text)
        if k == STRING_LIT:
            # Adjacent string literals are one (translation phase 6).
            parts = [self.advance()]
            while self.tok.kind == STRING_LIT:
                parts.append(self.advance())
            value = b"".join(p.value for p in parts)
            return self._at(ast.StringLiteral, t, value, " ".join(p.text for p in parts))
        if t.word == "(" and self.peek().word == "{":
            self.advance()
            self.open_bracket(t)
            body = self.parse_compound()
            self.expect(")", match=t)
            self.close_bracket()
            return self._at(ast.StmtExpr, t, body)
        if t.word == "(":
            self.advance()
            self.open_bracket(t)
            inner = self.parse_expression()
            self.expect(")", match=t)
            self.close_bracket()
            return self._at(ast.Paren, t, inner)
        if t.word == "^":
            return self.parse_block_literal(t)
        self.syntax_error("expected expression")

    def parse_block_literal(self, caret):
        """``^ { … }``, ``^(params) { … }`` or, with the result type written, ``^int (params) { … }``
        and ``^int { … }`` (spec §1.12; clang's block-id)."""
        self.advance()
        if self.at("("):
            ft = self.parse_parameters(self.advance())
        elif not self.at("{"):
            specs = self.parse_decl_specs("typename")
            _, derivs = self.parse_declarator("yes")
            ft = self.build_type(specs.base(specs.attributes), derivs)
            if not isinstance(ft, ast.FunctionType):
                ft = ast.FunctionType(ft, [], False, True, loc=caret.loc, expansion=caret.expansion)
        else:
            ft = ast.FunctionType(None, [], False, True, loc=caret.loc, expansion=caret.expansion)
        if not self.at("{"):
            self.syntax_error("expected '{' in block literal")  # "^int (int x) {…}" too
        self.push_scope()
        try:
            for p in ft.params:
                self.declare(p.name, "var")
            body = self.parse_compound(new_scope=False)
        finally:
            self.pop_scope()
        return self._at(ast.BlockLiteral, caret, ft, body)
