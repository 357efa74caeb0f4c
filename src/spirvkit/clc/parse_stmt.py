"""Statements (C99 §6.8) and the pragmas attached to them: a mixin of Parser.

``#pragma unroll`` / ``nounroll`` (and ``__attribute__((opencl_unroll_hint))``) belong to the
loop that follows; anything else after them is clang's "expected a for, while, or do-while
loop" error. ``#pragma OPENCL FP_CONTRACT`` and ``OPENCL EXTENSION`` inside a function become
:class:`~spirvkit.clc.ast.Pragma` items of the compound statement, in order, so sema sees
where they take effect.

Chains that real code makes long — ``else if``, ``case 1: case 2: …`` — are parsed by loops;
other nesting counts against ``MAX_STATEMENT_DEPTH``.
"""

from __future__ import annotations

from . import ast
from .lexer import EOF, IDENTIFIER

_LOOPS = (ast.For, ast.While, ast.DoWhile)


class StatementsMixin:
    def parse_compound(self, new_scope: bool = True):
        lb = self.advance()
        self.open_bracket(lb)
        if new_scope:
            self.push_scope()
        items: list = []
        seen = False  # a declaration or statement came before: FP_CONTRACT is too late here
        try:
            while True:
                loop_pragmas = []
                for p in self.take_pragmas():
                    node = self.pragma_node(p)
                    if node.kind in ("unroll", "nounroll"):
                        loop_pragmas.append(node)
                        continue
                    if node.kind == "fp_contract" and seen:
                        self.error("'#pragma OPENCL FP_CONTRACT' can only appear at file scope or at the "
                                   "start of a compound statement", p)
                    items.append(node)
                t = self.tok
                if t.word == "}":
                    if loop_pragmas:
                        self._expected_loop(loop_pragmas[0], t)
                    end = t
                    break
                if t.kind == EOF:
                    if not self._eof_reported:
                        self._eof_reported = True
                        self.error("expected '}'", t, [("to match this '{'", lb)])
                    raise self.Recover
                depth, stmt_depth, scopes = self.depth, self.stmt_depth, len(self.scopes)
                try:
                    items.append(self.parse_block_item(loop_pragmas))
                    seen = True
                except self.Recover:
                    self.depth, self.stmt_depth = depth, stmt_depth
                    del self.scopes[scopes:]
                    self.skip_to_sync()
            self.advance()
        finally:
            if new_scope:
                self.pop_scope()
        self.close_bracket()
        return ast.Compound(items, end, loc=lb.loc, expansion=lb.expansion)

    def _expected_loop(self, pragma, t) -> None:
        self.error(f"expected a for, while, or do-while loop to follow '#pragma {pragma.kind}'", t)

    def parse_block_item(self, loop_pragmas=()):
        t = self.tok
        attributes = []
        if t.word == "__attribute__":
            attributes = self.parse_attributes()
            t = self.tok
        if self.is_declaration_start(t) and self.peek().word != ":" or (
                t.kind == IDENTIFIER and self.peek().kind == IDENTIFIER and self.lookup(t.text) is None):
            if loop_pragmas:
                self._expected_loop(loop_pragmas[0], t)
            return ast.DeclStmt(self.parse_declaration(attributes=attributes), loc=t.loc, expansion=t.expansion)
        return self.parse_statement(loop_pragmas, attributes)

    def parse_statement(self, loop_pragmas=None, attributes=()):
        if loop_pragmas is None:
            loop_pragmas = []
            for p in self.take_pragmas():
                node = self.pragma_node(p)
                if node.kind in ("unroll", "nounroll"):
                    loop_pragmas.append(node)
                elif node.kind == "fp_contract":
                    self.error("'#pragma OPENCL FP_CONTRACT' can only appear at file scope or at the "
                               "start of a compound statement", p)
        if not attributes and self.at("__attribute__"):
            attributes = self.parse_attributes()
        self.stmt_depth += 1
        if self.stmt_depth > self.MAX_STATEMENT_DEPTH:
            self.fatal(f"statement nesting level exceeded maximum of {self.MAX_STATEMENT_DEPTH}", self.tok)
        try:
            t = self.tok
            node = self._statement(t)
        finally:
            self.stmt_depth -= 1
        if isinstance(node, _LOOPS):
            node.pragmas = loop_pragmas
            node.attributes = list(attributes)
        else:
            if loop_pragmas:
                self._expected_loop(loop_pragmas[0], t)
            for a in attributes:
                if a.name == "opencl_unroll_hint":
                    self.error("'opencl_unroll_hint' attribute only applies to 'for', 'while', and 'do' "
                               "statements", t)
                else:
                    self.warning(f"'{a.name}' attribute ignored", t, "-Wignored-attributes")
        return node

    def _statement(self, t):
        w = t.word
        handler = _DISPATCH.get(w) if w is not None else None
        if handler is not None:
            return handler(self, t)
        if t.kind == IDENTIFIER and self.peek().word == ":":
            return self.parse_labeled(t)
        if w == "}":
            self.syntax_error("expected statement")
        expr = self.parse_expression()
        self.expect(";", "expected ';' after expression", after=True)
        return ast.ExprStmt(expr, loc=t.loc, expansion=t.expansion)

    def _node(self, cls, t, *fields):
        return cls(*fields, loc=t.loc, expansion=t.expansion)

    def parse_paren_condition(self, kw):
        lp = self.expect("(", f"expected '(' after '{kw.text}'")
        self.open_bracket(lp)
        cond = self.parse_expression()
        self.expect(")", match=lp)
        self.close_bracket()
        return cond

    def parse_if(self, t):
        root = prev = None
        while True:
            kw = self.advance()
            cond = self.parse_paren_condition(kw)
            then = self.parse_statement()
            node = self._node(ast.If, kw, cond, then, None)
            if prev is None:
                root = node
            else:
                prev.else_ = node
            prev = node
            if not self.accept("else"):
                return root
            if not self.at("if"):
                node.else_ = self.parse_statement()
                return root

    def parse_switch(self, t):
        self.advance()
        cond = self.parse_paren_condition(t)
        return self._node(ast.Switch, t, cond, self.parse_statement())

    def parse_while(self, t):
        self.advance()
        cond = self.parse_paren_condition(t)
        return self._node(ast.While, t, cond, self.parse_statement())

    def parse_do(self, t):
        self.advance()
        body = self.parse_statement()
        w = self.tok
        if not self.at("while"):
            self.syntax_error("expected 'while' in do/while loop")
        self.advance()
        cond = self.parse_paren_condition(w)
        self.expect(";", "expected ';' after do/while statement", after=True)
        return self._node(ast.DoWhile, t, body, cond)

    def parse_for(self, t):
        self.advance()
        lp = self.expect("(", "expected '(' after 'for'")
        self.open_bracket(lp)
        self.push_scope()  # a declaration in the first clause is scoped to the loop
        try:
            init = None
            first = self.tok
            if self.accept(";"):
                pass
            elif self.is_declaration_start(first):
                init = ast.DeclStmt(self.parse_declaration(), loc=first.loc, expansion=first.expansion)
            else:
                init = self.parse_expression()
                self.expect(";", "expected ';' in 'for' statement specifier")
            cond = None if self.at(";") else self.parse_expression()
            self.expect(";", "expected ';' in 'for' statement specifier")
            step = None if self.at(")") else self.parse_expression()
            self.expect(")", match=lp)
            self.close_bracket()
            body = self.parse_statement()
        finally:
            self.pop_scope()
        return self._node(ast.For, t, init, cond, step, body)

    def parse_goto(self, t):
        self.advance()
        label = self.tok
        if label.word == "*":
            self.syntax_error("not supported yet: computed goto")
        if label.kind != IDENTIFIER:
            self.syntax_error("expected identifier")
        self.advance()
        self.expect(";", "expected ';' after goto statement", after=True)
        return self._node(ast.Goto, t, label.text)

    def parse_break(self, t):
        self.advance()
        self.expect(";", "expected ';' after break statement")  # clang: at the next token
        return self._node(ast.Break, t)

    def parse_continue(self, t):
        self.advance()
        self.expect(";", "expected ';' after continue statement")
        return self._node(ast.Continue, t)

    def parse_return(self, t):
        self.advance()
        value = None if self.at(";") else self.parse_expression()
        self.expect(";", "expected ';' after return statement", after=True)
        return self._node(ast.Return, t, value)

    def parse_null(self, t):
        self.advance()
        return self._node(ast.NullStmt, t)

    def parse_labeled(self, t):
        """``case``/``default``/``name:`` labels, as many as are stacked, then their
        statement; each label node holds the next."""
        chain = []
        while True:
            t = self.tok
            if t.word == "case":
                self.advance()
                value = self.parse_conditional()
                if self.at("..."):
                    self.syntax_error("not supported yet: case ranges")
                self.expect(":", "expected ':' after 'case'", after=True)
                chain.append(self._node(ast.Case, t, value, None))
            elif t.word == "default":
                self.advance()
                self.expect(":", "expected ':' after 'default'", after=True)
                chain.append(self._node(ast.Default, t, None))
            elif t.kind == IDENTIFIER and self.peek().word == ":":
                self.advance()
                self.advance()
                chain.append(self._node(ast.Label, t, t.text, None))
                if self.at("__attribute__"):
                    self.parse_attributes()  # label attributes (unused, …) have no effect
            else:
                break
        if self.at("}"):
            self.syntax_error("expected statement")
        if self.is_declaration_start() and not (self.tok.kind == IDENTIFIER and self.peek().word == ":"):
            # C99 allows only a statement after a label; clang (C2x) accepts a declaration.
            d = self.tok
            body = ast.DeclStmt(self.parse_declaration(), loc=d.loc, expansion=d.expansion)
        else:
            body = self.parse_statement()
        for node in reversed(chain):
            node.body = body
            body = node
        return body


_DISPATCH = {
    "{": lambda self, t: self.parse_compound(), "if": StatementsMixin.parse_if,
    "switch": StatementsMixin.parse_switch, "while": StatementsMixin.parse_while,
    "do": StatementsMixin.parse_do, "for": StatementsMixin.parse_for,
    "goto": StatementsMixin.parse_goto, "break": StatementsMixin.parse_break,
    "continue": StatementsMixin.parse_continue, "return": StatementsMixin.parse_return,
    "case": StatementsMixin.parse_labeled, "default": StatementsMixin.parse_labeled,
    ";": StatementsMixin.parse_null,
}
