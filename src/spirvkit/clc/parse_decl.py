"""Declarations (C99 §6.7, §6.9 with OpenCL C's qualifiers and attributes): a mixin of Parser.

Declaration specifiers may come in any order (``const global float``, ``float const``); type
keywords are checked as they come, with clang's "cannot combine with previous 'X' declaration
specifier". A declarator is parsed into a list of derivations (pointer, array, function)
that ``build_type`` applies to the base type, innermost first, so ``int *(*p)[3]`` becomes a
pointer to an array of 3 pointers to int.

The declarators of one declaration share one BaseType node (``int a, *b;``): a struct
defined there is one definition, whichever declarator sema reaches first.
"""

from __future__ import annotations

from . import ast
from .lexer import (CL20_TYPE_NAMES, EOF, IDENTIFIER, KEYWORD, OPENCL_TYPE_NAMES, STRING_LIT,
                    VECTOR_TYPE_NAMES)
from .parse_expr import BOOL_LITERALS
from .typo import closest

STORAGE_CLASSES = frozenset({"typedef", "extern", "static", "auto", "register"})
FUNCTION_SPECIFIERS = frozenset({"inline", "kernel"})
CV_QUALIFIERS = frozenset({"const", "volatile", "restrict"})
ADDRESS_SPACES = frozenset({"global", "local", "constant", "private", "generic"})
ACCESS_QUALIFIERS = frozenset({"read_only", "write_only", "read_write"})
BASIC_TYPE_WORDS = frozenset({"void", "char", "short", "int", "long", "float", "double", "signed",
                              "unsigned", "_Bool", "bool", "half", "_Complex", "_Imaginary"})
# Type keywords that name a whole type by themselves (uint, float4, size_t, image2d_t …).
WHOLE_TYPE_WORDS = (OPENCL_TYPE_NAMES | CL20_TYPE_NAMES) - {"bool", "half"}
# For typo correction (typo.py): the type names clang's opencl-c-base.h declares as typedefs
# (the image, sampler, event and queue types are clang builtin types, not candidates), and the
# keywords clang offers where a statement starts with an identifier followed by another.
HEADER_TYPEDEFS = frozenset({"size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "uchar", "ushort", "uint", "ulong",
                             "cl_mem_fence_flags"}) | VECTOR_TYPE_NAMES
HEADER_TYPEDEFS_CL20 = frozenset(n for n in CL20_TYPE_NAMES if n.startswith(("atomic_", "memory_")))
CORRECTABLE_KEYWORDS = frozenset({
    "char", "const", "double", "enum", "float", "int", "long", "short", "signed", "struct", "union", "unsigned",
    "void", "volatile", "extern", "inline", "static", "typedef", "half", "bool", "return", "if", "else", "while",
    "for", "do", "switch", "case", "default", "break", "continue", "goto", "sizeof"})
TAG_WORDS = frozenset({"struct", "union", "enum"})
TYPE_WORDS = BASIC_TYPE_WORDS | WHOLE_TYPE_WORDS
QUALIFIER_WORDS = CV_QUALIFIERS | ADDRESS_SPACES | ACCESS_QUALIFIERS | {"pipe", "uniform"}
TYPE_NAME_START = TYPE_WORDS | TAG_WORDS | QUALIFIER_WORDS | {"__attribute__"}
DECLARATION_START = TYPE_NAME_START | STORAGE_CLASSES | FUNCTION_SPECIFIERS | {"_Static_assert"}

# The largest valid combinations of basic type keywords (C99 §6.7.2p2, with OpenCL's bool and
# half); a set of keywords is valid while it fits inside one of them.
_TYPE_COMBINATIONS = [
    {"signed": 1, "char": 1}, {"unsigned": 1, "char": 1},
    {"signed": 1, "short": 1, "int": 1}, {"unsigned": 1, "short": 1, "int": 1},
    {"signed": 1, "long": 2, "int": 1}, {"unsigned": 1, "long": 2, "int": 1},
    {"long": 1, "double": 1, "_Complex": 1}, {"float": 1, "_Complex": 1}, {"void": 1},
    {"_Bool": 1}, {"bool": 1}, {"half": 1},
]

# Attributes the compiler knows (the OpenCL ones of spec §1.7 and §1.11, and clang's common
# function and type attributes); any other is warned about and ignored, as clang does.
# name -> (min args, max args), None for "any number".
KNOWN_ATTRIBUTES = {
    "reqd_work_group_size": (3, 3), "work_group_size_hint": (3, 3), "vec_type_hint": (1, 1),
    "intel_reqd_sub_group_size": (1, 1), "nosvm": (0, 0), "aligned": (0, 1), "packed": (0, 0),
    "endian": (1, 1), "opencl_unroll_hint": (0, 1), "ext_vector_type": (1, 1),
    "overloadable": (0, 0), "noinline": (0, 0), "always_inline": (0, 0), "const": (0, 0),
    "pure": (0, 0), "unused": (0, 0), "used": (0, 0), "noreturn": (0, 0), "convergent": (0, 0),
    "deprecated": (0, 1), "weak": (0, 0), "nodebug": (0, 0), "cold": (0, 0), "hot": (0, 0),
    "flatten": (0, 0), "visibility": (1, 1), "section": (1, 1), "may_alias": (0, 0),
    "transparent_union": (0, 0), "warn_unused_result": (0, 0), "format": None,
    "address_space": (1, 1), "max_work_group_size": (3, 3), "max_global_work_dim": (1, 1),
    "blocks": (1, 1),   # what __block stands for (predefined.py); codegen refuses it (§6.12.5)
}


_NOT_SIGNABLE = ("void", "float", "double", "_Bool", "bool", "half")


def _fits(counts: dict) -> bool:
    return any(all(n <= combo.get(w, 0) for w, n in counts.items()) for combo in _TYPE_COMBINATIONS)


class _Specs:
    """Declaration specifiers as they are read (not an AST node)."""

    __slots__ = ("first", "storage", "funcspecs", "words", "typedef_name", "record",
                 "qualifiers", "address_space", "access", "attributes", "implicit_int",
                 "first_sign_tok", "restrict_tok", "type_tok")

    def __init__(self, first):
        self.first = first
        self.storage: list[str] = []
        self.funcspecs: list[str] = []
        self.words: list[str] = []
        self.typedef_name: str | None = None
        self.record = None
        self.qualifiers: list[str] = []
        self.address_space: str | None = None
        self.access: str | None = None
        self.attributes: list = []
        self.implicit_int = False
        self.first_sign_tok = first
        self.restrict_tok = None
        self.type_tok = None

    def has_type(self) -> bool:
        return bool(self.words) or self.typedef_name is not None or self.record is not None

    def base(self, attributes=()) -> ast.BaseType:
        f = self.first
        return ast.BaseType(tuple(self.words), self.typedef_name, self.record, tuple(self.qualifiers),
                            self.address_space, self.access, list(attributes), self.restrict_tok, self.type_tok,
                            loc=f.loc, expansion=f.expansion)


class DeclarationsMixin:
    # -- what starts what ----------------------------------------------------------------------
    def is_declaration_start(self, t=None) -> bool:
        t = t or self.tok
        if t.kind == KEYWORD:
            return t.word in DECLARATION_START
        return self.is_typedef_name(t)

    def is_type_name_start(self, t) -> bool:
        if t.kind == KEYWORD:
            return t.word in TYPE_NAME_START
        return self.is_typedef_name(t)

    # -- declaration specifiers ----------------------------------------------------------------------
    def parse_decl_specs(self, context: str) -> _Specs:
        """``context``: "top", "block", "param", "field" or "typename"."""
        s = _Specs(self.tok)
        while True:
            t = self.tok
            w = t.word
            if t.kind == KEYWORD:
                if w == "__attribute__":
                    s.attributes += self.parse_attributes()
                    continue
                if w in TAG_WORDS:
                    if s.has_type():
                        self.error(f"cannot combine with previous '{self._type_spelling(s)}' declaration specifier", t)
                        s.words, s.typedef_name = [], None
                    s.record = self.parse_enum() if w == "enum" else self.parse_record()
                    continue
                if w in TYPE_WORDS:
                    if "typedef" in s.storage and s.has_type() and w in WHOLE_TYPE_WORDS:
                        break  # "typedef unsigned int uint;": the declarator names a built-in type
                    self.add_type_word(s, t)
                elif w in STORAGE_CLASSES:
                    self._add_storage(s, t, context)
                elif w in FUNCTION_SPECIFIERS:
                    if w in s.funcspecs:
                        self.warning(f"duplicate '{t.text}' declaration specifier", t, "-Wduplicate-decl-specifier")
                    else:
                        s.funcspecs.append(w)
                elif w in CV_QUALIFIERS or w == "pipe":
                    if w == "restrict" and s.restrict_tok is None:
                        s.restrict_tok = t
                    if w in s.qualifiers:
                        self.warning(f"duplicate '{t.text}' declaration specifier", t, "-Wduplicate-decl-specifier")
                    else:
                        s.qualifiers.append(w)
                elif w in ADDRESS_SPACES:
                    if self._address_space_supported(t):
                        if s.address_space is not None and s.address_space != w:
                            self.error("multiple address spaces specified for type", t)
                        s.address_space = w
                elif w in ACCESS_QUALIFIERS:
                    if s.access is not None and s.access != w:
                        self.error("multiple access qualifiers", t)
                    s.access = w
                elif w == "uniform":
                    self.error("not supported yet: the 'uniform' qualifier", t)
                else:
                    break
                self.advance()
            elif t.kind == IDENTIFIER and not s.has_type():
                kind = self.lookup(t.text)
                if kind in ("typedef", "vector"):
                    s.typedef_name = t.text
                    self.advance()
                elif kind is None and context != "typename" and self._looks_like_unknown_type(context):
                    self._unknown_type_name(t, statement_start=context == "block" and t is s.first)
                    s.words = ["int"]  # go on as if it were int, to find the next errors
                    self.advance()
                else:
                    break
            else:
                break
        if not s.has_type():
            s.words = ["int"]
            s.implicit_int = True
            if "pipe" in s.qualifiers:   # an error for a pipe (clang: at the declarator)
                self.error("missing actual type specifier for pipe", self.tok)
            elif context in ("top", "field", "param") or s.storage or s.qualifiers or s.address_space:
                self.warning("type specifier missing, defaults to 'int'; ISO C99 and later do not "
                             "support implicit int", s.first, "-Wimplicit-int")
        return s

    def _unknown_type_name(self, t, statement_start: bool) -> None:
        """clang's error for an undeclared name where a type belongs. Where it starts a statement
        ("flaot x = 1;") clang reads it as an expression: "use of undeclared identifier", unless
        its typo correction finds a type name ("unknown type name 'sizet'; did you mean
        'size_t'?"); a keyword or a variable it finds is suggested after the first message."""
        if not statement_start:
            self.error(f"unknown type name '{t.text}'", t)
            return
        names = self.visible_names()
        types = {n for n, k in names.items() if k in ("typedef", "vector")} | HEADER_TYPEDEFS
        if self.cl_std >= "CL2.0":
            types |= HEADER_TYPEDEFS_CL20
        others = {n for n, k in names.items() if k == "var"} | CORRECTABLE_KEYWORDS
        best, tied = closest(t.text, types | others, statement_start=True)
        if best is None or tied:
            if tied:  # clang's delayed correction of an ambiguous name ends the expression first
                self.error_after("expected ';' after expression", t)
            self.error(f"use of undeclared identifier '{t.text}'", t)
            return
        site = self.decl_sites.get(best) if best in names else None
        notes = [(f"'{best}' declared here", site)] if getattr(site, "loc", None) is not None else []
        first = "unknown type name" if best in types else "use of undeclared identifier"
        self.error(f"{first} '{t.text}'; did you mean '{best}'?", t, notes=notes,
                   fixit=(len(t.text), best) if t.expansion is None else None)

    def _looks_like_unknown_type(self, context: str) -> bool:
        """An undeclared identifier where a type belongs: "foo x", "foo *x" (the latter only
        where no expression can be, e.g. at file scope or in a parameter list)."""
        nxt = self.peek()
        if nxt.kind == IDENTIFIER:
            return True
        return context in ("top", "param", "field") and nxt.word == "*"

    def add_type_word(self, s: _Specs, t) -> None:
        w = t.word
        if s.typedef_name is not None or s.record is not None or (s.words and (
                w in WHOLE_TYPE_WORDS or s.words[0] in WHOLE_TYPE_WORDS)):
            self.error(f"cannot combine with previous '{self._type_spelling(s)}' declaration specifier", t)
            return
        counts: dict[str, int] = {}
        for x in s.words + [w]:
            counts[x] = counts.get(x, 0) + 1
        if w not in WHOLE_TYPE_WORDS and not _fits(counts):
            sign = next((x for x in ("signed", "unsigned") if x in counts), None)
            other = next((x for x in counts if x in _NOT_SIGNABLE), None)
            if sign and other:
                at = t if w == sign else s.first_sign_tok
                self.error(f"'{other}' cannot be signed or unsigned", at)
            else:
                self.error(f"cannot combine with previous '{self._type_spelling(s)}' declaration specifier", t)
            return
        if w in ("signed", "unsigned"):
            s.first_sign_tok = t
        if s.type_tok is None:
            s.type_tok = t
        s.words.append(w)

    @staticmethod
    def _type_spelling(s: _Specs) -> str:
        if s.typedef_name is not None:
            return s.typedef_name
        if s.record is not None:
            return s.record.kind if isinstance(s.record, ast.RecordDecl) else "enum"
        return " ".join(s.words)

    def _add_storage(self, s: _Specs, t, context: str) -> None:
        w = t.word
        if w in ("auto", "register"):  # §1.8: typedef, extern and static only (clang's error, at the word)
            self.error(f"OpenCL C version {self.cl_std[2:]} does not support the '{t.text}' storage class "
                       "specifier", t)
        elif context in ("field", "typename"):
            self.error("type name does not allow storage class to be specified", t)
        elif w in s.storage:
            self.warning(f"duplicate '{t.text}' declaration specifier", t, "-Wduplicate-decl-specifier")
        elif s.storage:
            self.error(f"cannot combine with previous '{s.storage[0]}' declaration specifier", t)
        else:
            s.storage.append(w)

    # -- attributes (GNU syntax, spec §1.11) ---------------------------------------------------------
    def parse_attributes(self) -> list:
        out = []
        while self.at("__attribute__"):
            self.advance()
            lp1 = self.expect("(", "expected '(' after 'attribute'")
            self.open_bracket(lp1)
            lp2 = self.expect("(", "expected '(' after 'attribute'")
            self.open_bracket(lp2)
            while not self.at(")"):
                if self.accept(","):
                    continue
                out.append(self.parse_attribute())
                if not self.accept(","):
                    break
            self.expect(")", match=lp2)
            self.close_bracket()
            self.expect(")", match=lp1)
            self.close_bracket()
        return out

    def parse_attribute(self):
        t = self.tok
        if t.kind not in (IDENTIFIER, KEYWORD):
            self.syntax_error("expected identifier")
        self.advance()
        name = t.text
        if len(name) > 4 and name.startswith("__") and name.endswith("__"):
            name = name[2:-2]  # __aligned__ is aligned
        args = []
        if self.at("("):
            lp = self.advance()
            self.open_bracket(lp)
            if name == "vec_type_hint":
                args.append(self.parse_type_name())
            else:
                while not self.at(")"):
                    args.append(self.parse_assignment())
                    if not self.accept(","):
                        break
            self.expect(")", match=lp)
            self.close_bracket()
        arity = KNOWN_ATTRIBUTES.get(name, "unknown")
        if arity == "unknown":
            self.warning(f"unknown attribute '{name}' ignored", t, "-Wunknown-attributes")
        elif arity is not None:
            lo, hi = arity
            if not lo <= len(args) <= hi:
                if lo == hi:
                    text = {0: "takes no arguments", 1: "takes one argument"}.get(lo, f"requires exactly {lo} arguments")
                else:
                    text = f"takes no more than {hi} argument{'s' if hi != 1 else ''}"
                self.error(f"'{name}' attribute {text}", t)
        return ast.Attribute(name, args, loc=t.loc, expansion=t.expansion)

    # -- declarations -----------------------------------------------------------------------------
    def parse_declaration(self, top_level: bool = False, attributes=()) -> list:
        """One declaration up to its ';' (or a function definition); the Decl/FunctionDef list."""
        start = self.tok
        if start.word == "_Static_assert":
            return [self.parse_static_assert()]
        specs = self.parse_decl_specs("top" if top_level else "block")
        specs.attributes[:0] = attributes
        storage, funcspecs = tuple(specs.storage), tuple(specs.funcspecs)
        base = specs.base()
        if self.at(";"):
            self.advance()
            if specs.record is None or (specs.record.name is None and isinstance(specs.record, ast.RecordDecl)):
                self.warning("declaration does not declare anything", start, "-Wmissing-declarations")
            return [ast.Decl(None, storage, funcspecs, base, None, specs.attributes, loc=start.loc,
                             expansion=start.expansion)]
        is_typedef = "typedef" in storage
        out = []
        while True:
            name_tok, derivs = self.parse_declarator("no", keyword_name=is_typedef)
            attrs = specs.attributes + self.parse_attributes()
            type_ = self.build_type(base, derivs)
            name = name_tok.text if name_tok is not None else None
            where = name_tok or start
            decl = ast.Decl(name, storage, funcspecs, type_, None, attrs, loc=where.loc, expansion=where.expansion)
            if top_level and not out and isinstance(type_, ast.FunctionType) and not is_typedef and (
                    self.at("{") or (self.is_declaration_start() and self._is_kr(type_))):
                return [self.parse_function_body(decl, start)]
            if not top_level and isinstance(type_, ast.FunctionType) and not is_typedef and self.at("{"):
                self.syntax_error("function definition is not allowed here")
            self.declare(name, self._declared_kind(decl) if is_typedef else "var", decl)
            if self.accept("="):
                decl.init = self.parse_initializer()
            out.append(decl)
            if not self.accept(","):
                break
        self.expect(";", "expected ';' after top level declarator" if top_level
                    else "expected ';' at end of declaration", after=True)
        return out

    def parse_static_assert(self):
        kw = self.advance()
        lp = self.expect("(", "expected '(' after '_Static_assert'")
        self.open_bracket(lp)
        cond = self.parse_conditional()
        message = None
        if self.accept(","):
            if self.tok.kind != STRING_LIT:
                self.syntax_error("expected string literal for diagnostic message in static_assert")
            message = self.parse_primary()
        self.expect(")", match=lp)
        self.close_bracket()
        self.expect(";", "expected ';' after static_assert", after=True)
        return ast.StaticAssert(cond, message, loc=kw.loc, expansion=kw.expansion)

    def _declared_kind(self, decl) -> str:
        """"vector" for a typedef of a vector type, so "(T)(a, b)" is a vector literal."""
        t = decl.type
        if isinstance(t, ast.BaseType) and (
                (len(t.specifiers) == 1 and t.specifiers[0] in VECTOR_TYPE_NAMES)
                or (t.typedef_name is not None and self.lookup(t.typedef_name) == "vector")
                or any(a.name == "ext_vector_type" for a in decl.attributes)):
            return "vector"
        return "typedef"

    def _is_kr(self, ft) -> bool:
        return id(ft) in self.kr_functions

    def parse_function_body(self, decl, start):
        self.declare(decl.name, "var", decl)
        while self.is_declaration_start():  # K&R parameter declarations, already reported
            self.push_scope()
            try:
                self.parse_declaration()
            finally:
                self.pop_scope()
        if not self.at("{"):
            # K&R parameter declarations ("int f(a) int a; {…}") do not exist in OpenCL C.
            self.syntax_error("expected function body after function declarator")
        self.push_scope()
        try:
            for p in decl.type.params:
                self.declare(p.name, "var")
            body = self.parse_compound(new_scope=False)
        finally:
            self.pop_scope()
        return ast.FunctionDef(decl, body, loc=start.loc, expansion=start.expansion)

    # -- declarators ------------------------------------------------------------------------------------
    def parse_declarator(self, abstract: str, keyword_name: bool = False):
        """(name token or None, derivations). ``abstract``: "no" (a name is required), "yes"
        (a type name: no name), "maybe" (a parameter)."""
        derivs: list = []
        while True:
            t = self.tok
            if t.word == "*":
                self.advance()
                derivs.append(("ptr",) + self.parse_pointer_qualifiers() + (t,))
            elif t.word == "^":  # a block pointer (spec §1.12); sema rejects blocks
                self.advance()
                quals, _, _ = self.parse_pointer_qualifiers()
                derivs.append(("block", quals, t))
            else:
                break
        name_tok, inner = None, None
        t = self.tok
        if abstract != "yes" and ((t.kind == IDENTIFIER and t.text not in BOOL_LITERALS) or (
                keyword_name and t.kind == KEYWORD and t.word in WHOLE_TYPE_WORDS)):
            name_tok = self.advance()
        elif t.word == "(" and self._paren_is_nested_declarator(abstract):
            self.advance()
            self.open_bracket(t)
            name_tok, inner = self.parse_declarator(abstract, keyword_name)
            self.expect(")", match=t)
            self.close_bracket()
        elif abstract == "no":
            self.syntax_error("expected identifier or '('")
        suffixes = []
        while True:
            t = self.tok
            if t.word == "[":
                suffixes.append(self.parse_array_suffix())
            elif t.word == "(":
                self.advance()
                suffixes.append(("func", self.parse_parameters(t), t))
            else:
                break
        derivs.extend(reversed(suffixes))
        if inner:
            derivs.extend(inner)
        return name_tok, derivs

    def _paren_is_nested_declarator(self, abstract: str) -> bool:
        """After a declarator's '(': a nested declarator, or a parameter list? ("int (*)(int)"
        vs "int (int)")."""
        if abstract == "no":
            return True
        nxt = self.peek()
        if nxt.word in ("*", "^", "["):
            return True
        if nxt.word == "(":
            return True
        return abstract == "maybe" and nxt.kind == IDENTIFIER and not self.is_typedef_name(nxt)

    def parse_pointer_qualifiers(self):
        quals, aspace, attrs = [], None, []
        while True:
            t = self.tok
            w = t.word
            if t.kind != KEYWORD:
                break
            if w in CV_QUALIFIERS:
                if w in quals:
                    self.warning(f"duplicate '{t.text}' declaration specifier", t, "-Wduplicate-decl-specifier")
                else:
                    quals.append(w)
            elif w in ADDRESS_SPACES:
                if self._address_space_supported(t):
                    if aspace is not None and aspace != w:
                        self.error("multiple address spaces specified for type", t)
                    aspace = w
            elif w == "__attribute__":
                attrs += self.parse_attributes()
                continue
            else:
                break
            self.advance()
        return tuple(quals), aspace, attrs

    def _address_space_supported(self, t) -> bool:
        """``generic``/``__generic`` before OpenCL C 2.0: clang's error, and the qualifier is
        dropped (the declaration goes on with the default address space)."""
        if t.word == "generic" and self.cl_std < "CL2.0":
            self.error(f"OpenCL C version {self.cl_std[2:]} does not support the '{t.text}' type qualifier", t)
            return False
        return True

    def parse_array_suffix(self):
        lb = self.advance()
        self.open_bracket(lb)
        is_static = bool(self.accept("static"))
        quals = []
        while self.tok.kind == KEYWORD and self.tok.word in CV_QUALIFIERS:
            quals.append(self.advance().word)
        is_static = is_static or bool(self.accept("static"))
        size = None
        if self.at("*") and self.peek().word == "]":
            self.error("variable length arrays are not supported in OpenCL", self.tok)
            self.advance()
        elif not self.at("]"):
            size = self.parse_assignment()
        self.expect("]", match=lb)
        self.close_bracket()
        return ("array", size, tuple(quals), is_static, lb)

    def parse_parameters(self, lparen):
        """The parameter list after ``lparen``, as a FunctionType without its result."""
        self.open_bracket(lparen)
        params, variadic, kr = [], False, False
        empty = self.at(")")
        self.push_scope()  # prototype scope: "int f(int T, T x)" sees the parameter T
        try:
            while not empty:
                if self.at("..."):
                    variadic = True
                    self.advance()
                    break
                start = self.tok
                if start.kind == IDENTIFIER and not self.is_typedef_name(start) and self.peek().word in (",", ")"):
                    # C99's identifier lists ("int f(a, b) int a, b; {…}"), obsolete in C and
                    # unused in OpenCL C: reported, then read as int parameters to go on.
                    if not params:
                        kr = True
                        self.error("not supported yet: K&R-style parameter lists (give each parameter "
                                   "its type in the parentheses)", start)
                    self.advance()
                    params.append(ast.ParamDecl(start.text, ast.BaseType(("int",), None, None, (), None, None, [],
                                                                         loc=start.loc), [], loc=start.loc))
                    if not self.accept(","):
                        break
                    continue
                if not self.is_declaration_start() and not (
                        start.kind == IDENTIFIER and self._looks_like_unknown_type("param")):
                    self.syntax_error("expected parameter declarator")
                specs = self.parse_decl_specs("param")
                name_tok, derivs = self.parse_declarator("maybe")
                attrs = specs.attributes + self.parse_attributes()
                where = name_tok or start
                p = ast.ParamDecl(name_tok.text if name_tok else None, self.build_type(specs.base(), derivs),
                                  attrs, loc=where.loc, expansion=where.expansion)
                self.declare(p.name, "var", p)
                params.append(p)
                if not self.accept(","):
                    break
            self.expect(")", match=lparen)
        finally:
            self.pop_scope()
        self.close_bracket()
        if len(params) == 1 and params[0].name is None and _is_plain_void(params[0].type):
            params = []  # "f(void)": no parameters
        ft = ast.FunctionType(None, params, variadic, empty, loc=lparen.loc, expansion=lparen.expansion)
        if kr:
            self.kr_functions.add(id(ft))  # the AST keeps ft alive, so the id stays unique
        return ft

    def build_type(self, base, derivs):
        t = base
        for d in derivs:
            kind = d[0]
            if kind == "ptr":
                _, quals, aspace, attrs, tok = d
                t = ast.PointerType(t, quals, aspace, attrs, loc=tok.loc, expansion=tok.expansion)
            elif kind == "block":
                _, quals, tok = d
                t = ast.BlockPointerType(t, quals, loc=tok.loc, expansion=tok.expansion)
            elif kind == "array":
                _, size, quals, is_static, tok = d
                t = ast.ArrayType(t, size, quals, is_static, loc=tok.loc, expansion=tok.expansion)
            else:
                d[1].result = t
                t = d[1]
        return t

    def parse_type_name(self):
        """A type name (C99 §6.7.6), as in casts, sizeof and vec_type_hint."""
        start = self.tok
        specs = self.parse_decl_specs("typename")
        _, derivs = self.parse_declarator("yes")
        base = specs.base(specs.attributes)
        return ast.TypeName(self.build_type(base, derivs), loc=start.loc, expansion=start.expansion)

    def is_vector_type_name(self, tn) -> bool:
        t = tn.type
        return isinstance(t, ast.BaseType) and (
            (len(t.specifiers) == 1 and t.specifiers[0] in VECTOR_TYPE_NAMES)
            or (t.typedef_name is not None and self.lookup(t.typedef_name) == "vector")
            or any(a.name == "ext_vector_type" for a in t.attributes))

    # -- initializers (C99 §6.7.8) ------------------------------------------------------------------
    def parse_initializer(self):
        if self.at("{"):
            return self.parse_init_list()
        return self.parse_assignment()

    def parse_init_list(self):
        lb = self.advance()
        self.open_bracket(lb)
        depth = self.depth
        items = []
        try:
            while not self.at("}"):
                if self.at(".") or self.at("["):
                    items.append(self.parse_designation())
                else:
                    items.append(self.parse_initializer())
                if not self.accept(","):
                    break
            self.expect("}", match=lb)
        except self.Recover:
            # As clang: skip to this list's '}' and go on after it; the error is reported.
            self.depth = depth
            self.skip_to_sync(stop_at_semicolon=False)
            if not self.accept("}"):
                raise
        self.close_bracket()
        return ast.InitList(items, loc=lb.loc, expansion=lb.expansion)

    def parse_designation(self):
        first = self.tok
        designators = []
        while True:
            t = self.tok
            if t.word == ".":
                self.advance()
                n = self.tok
                if n.kind != IDENTIFIER:
                    self.syntax_error("expected a field designator, such as '.field = 4'")
                self.advance()
                designators.append(ast.FieldDesignator(n.text, loc=n.loc, expansion=n.expansion))
            elif t.word == "[":
                self.advance()
                self.open_bracket(t)
                index = self.parse_conditional()
                if self.at("..."):
                    self.error("not supported yet: array range designators", self.tok)
                    self.advance()
                    self.parse_conditional()
                self.expect("]", match=t)
                self.close_bracket()
                designators.append(ast.IndexDesignator(index, loc=t.loc, expansion=t.expansion))
            else:
                break
        if not self.at("=") and designators and not self.at(",") and not self.at("}") and all(
                isinstance(d, ast.IndexDesignator) for d in designators):
            self.warning("use of GNU 'missing =' extension in designator", self.tok, "-Wgnu-designator")
        else:
            self.expect("=", "expected '=' or another designator")
        return ast.Designated(designators, self.parse_initializer(), loc=first.loc, expansion=first.expansion)

    # -- struct, union, enum (C99 §6.7.2.1–3) -----------------------------------------------------
    def _tag_head(self):
        """``struct``/``union``/``enum``, its attributes and its optional tag: (keyword token,
        attributes, tag name or None, tag token or None)."""
        kw = self.advance()
        attrs = self.parse_attributes()
        name_tok = self.advance() if self.tok.kind == IDENTIFIER else None
        return kw, attrs, name_tok.text if name_tok else None, name_tok

    def parse_record(self):
        kw, attrs, name, name_tok = self._tag_head()
        fields = None
        if self.at("{"):
            lb = self.advance()
            self.open_bracket(lb)
            fields = []
            while not self.at("}") and self.tok.kind != EOF:
                if self.accept(";"):
                    continue
                depth, scopes = self.depth, len(self.scopes)
                try:
                    fields.extend(self.parse_field_declaration())
                except self.Recover:
                    self.depth = depth
                    del self.scopes[scopes:]
                    self.skip_to_sync()
            self.expect("}", match=lb)
            self.close_bracket()
        elif name is None:
            self.syntax_error(f"declaration of anonymous {kw.word} must be a definition")
        attrs += self.parse_attributes()
        return ast.RecordDecl(kw.word, name, fields, attrs, name_tok, loc=kw.loc, expansion=kw.expansion)

    def parse_field_declaration(self) -> list:
        start = self.tok
        specs = self.parse_decl_specs("field")
        base = specs.base()
        out = []
        if self.at(";"):
            if isinstance(specs.record, ast.RecordDecl) and specs.record.name is None:
                out.append(ast.FieldDecl(None, base, None, specs.attributes, loc=start.loc, expansion=start.expansion))
            else:
                self.warning("declaration does not declare anything", start, "-Wmissing-declarations")
            self.advance()
            return out
        while True:
            name_tok, derivs = (None, []) if self.at(":") else self.parse_declarator("no")
            width = None
            if self.at(":"):
                colon = self.advance()
                width = self.parse_conditional()
                self.error("bit-fields are not supported in OpenCL", name_tok or colon)  # spec §1.9
            attrs = specs.attributes + self.parse_attributes()
            where = name_tok or start
            out.append(ast.FieldDecl(name_tok.text if name_tok else None, self.build_type(base, derivs), width,
                                     attrs, loc=where.loc, expansion=where.expansion))
            if not self.accept(","):
                break
        if self.at("}"):
            # clang only warns and goes on: the ';' before '}' is obviously missing.
            self.diag("warning", "expected ';' at end of declaration list", *self._end_of_previous())
        else:
            self.expect(";", "expected ';' at end of declaration list", after=True)
        return out

    def _end_of_previous(self):
        t = self.toks[self.pos - 1]
        loc = t.loc
        if t.expansion is None:
            loc = type(loc)(loc.file, loc.line, loc.col + len(t.text), loc.buffer, loc.phys_line)
        return loc, t.expansion

    def parse_enum(self):
        kw, attrs, name, name_tok = self._tag_head()
        enumerators = None
        if self.at("{"):
            lb = self.advance()
            self.open_bracket(lb)
            enumerators = []
            while not self.at("}"):
                t = self.tok
                if t.kind != IDENTIFIER:
                    self.syntax_error("expected identifier")
                self.advance()
                value = self.parse_conditional() if self.accept("=") else None
                enumerators.append(ast.Enumerator(t.text, value, loc=t.loc, expansion=t.expansion))
                self.declare(t.text, "var")
                if self.accept(","):
                    continue
                if self.tok.kind == IDENTIFIER:
                    self.error_after("missing ',' between enumerators", self.toks[self.pos - 1])
                    continue
                break
            self.expect("}", match=lb)
            self.close_bracket()
        elif name is None:
            self.syntax_error("expected identifier or '{'")
        attrs += self.parse_attributes()
        return ast.EnumDecl(name, enumerators, attrs, name_tok, loc=kw.loc, expansion=kw.expansion)


def _is_plain_void(t) -> bool:
    return isinstance(t, ast.BaseType) and t.specifiers == ("void",) and not t.qualifiers \
        and t.address_space is None
