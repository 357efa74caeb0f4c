"""The OpenCL C abstract syntax tree, its node kinds defined by one table (as pycparser's
``_c_ast.cfg``).

Each line of :data:`NODE_TABLE` is ``Name: field, field*, field**``: a plain field holds a
value (a name, an operator, a tuple of keywords), ``*`` marks a child node (or None), ``**`` a
list of child nodes (or None, e.g. the fields of a forward-declared struct). Every node also
has ``loc`` (the :class:`~spirvkit.clc.source.SourceLocation` of its first token, as spelled)
and ``expansion`` (the macro expansion that token came from, or None), which is what
``source.located_diagnostic`` needs to report an error at the node the way clang does.

The tree is what was written, with no types resolved: a typedef name is a name, a swizzle
``v.xyzw`` is a :class:`Member`, ``(float4)(a, b)`` is a :class:`VectorLiteral` whatever
``float4`` turns out to mean. Semantic analysis gives meaning to all of it.

Types as written are a chain of type nodes (pycparser's TypeDecl/PtrDecl/ArrayDecl/FuncDecl):
``int *(*p)[3]`` is ``PointerType(ArrayType(PointerType(BaseType(int)), 3))``.
"""

from __future__ import annotations

NODE_TABLE = """
# -- top level
# extensions: the preprocessor's ExtensionEvents; sources: the SourceManager that renders
# diagnostics located in this unit; supported_extensions: the extension names supported for this
# -cl-std after -cl-ext edits (None: not known, all of spirvkit's).
TranslationUnit: decls**, extensions, cl_std, sources, supported_extensions
FunctionDef: decl*, body*
# Pragma: kind "extension" (name, value True/False), "fp_contract" (value "ON"/"OFF"/
#   "DEFAULT"), "unroll" (value: count or None; count_expr when the count is an expression),
#   "nounroll".
Pragma: kind, name, value, count_expr*

# -- declarations. storage: tuple of "typedef"/"extern"/"static"/"auto"/"register";
#    funcspecs: tuple of "kernel"/"inline"; name None for an abstract or absent declarator.
Decl: name, storage, funcspecs, type*, init*, attributes**
ParamDecl: name, type*, attributes**
FieldDecl: name, type*, bitwidth*, attributes**
TypeName: type*
# _Static_assert(cond, "message") (C11; clang accepts it in OpenCL C): sema evaluates it.
StaticAssert: cond*, message*
Attribute: name, args**

# -- types as written. specifiers: the type keywords in order ("unsigned", "int"; "float4");
#    qualifiers: tuple of "const"/"volatile"/"restrict"/"pipe"; address_space: "global",
#    "local", "constant", "private", "generic" or None; access: "read_only"/… or None.
# restrict_tok: the 'restrict' token, if any (clang reports a misplaced restrict there);
# type_tok: the first type-specifier token (where clang reports a type that needs an extension).
BaseType: specifiers, typedef_name, record*, qualifiers, address_space, access, attributes**, restrict_tok, type_tok
PointerType: pointee*, qualifiers, address_space, attributes**
BlockPointerType: pointee*, qualifiers
ArrayType: element*, size*, qualifiers, is_static
FunctionType: result*, params**, variadic, empty_parens
# name_tok: the name's token (clang reports a redefinition there), or None.
RecordDecl: kind, name, fields**, attributes**, name_tok
EnumDecl: name, enumerators**, attributes**, name_tok
Enumerator: name, value*

# -- initializers
InitList: items**
Designated: designators**, init*
FieldDesignator: name
IndexDesignator: index*

# -- statements. Loops carry the "#pragma unroll/nounroll" that preceded them and their
#    statement attributes (opencl_unroll_hint).
# end: the closing '}' token (where clang reports -Wreturn-type), or None.
Compound: items**, end
DeclStmt: decls**
ExprStmt: expr*
NullStmt:
If: cond*, then*, else_*
Switch: cond*, body*
Case: value*, body*
Default: body*
While: cond*, body*, pragmas**, attributes**
DoWhile: body*, cond*, pragmas**, attributes**
For: init*, cond*, step*, body*, pragmas**, attributes**
Goto: label
Label: name, body*
Break:
Continue:
Return: value*

# -- expressions. UnaryOp.op: "+", "-", "!", "~", "*", "&", "++", "--" (postfix says which
#    side); TypeTrait.op: "sizeof", "vec_step", "alignof" with a TypeName or expression.
Identifier: name
IntegerLiteral: value, type, text
FloatLiteral: value, type, text
CharLiteral: value, type, text
StringLiteral: value, text
Paren: expr*
UnaryOp: op, operand*, postfix
BinaryOp: op, lhs*, rhs*
Assignment: op, lhs*, rhs*
Conditional: cond*, then*, else_*
Cast: to*, expr*
# lparen: the '(' token of the element list (clang reports a wrong element count there).
VectorLiteral: to*, elements**, lparen
CompoundLiteral: to*, init*
TypeTrait: op, arg*
# __builtin_astype(expr, type-name): clang's built-in behind as_<type>, CLK_NULL_EVENT and
#   CLK_NULL_RESERVE_ID; to: a TypeName.
AsType: expr*, to*
Call: func*, args**
Subscript: base*, index*
Member: base*, name, arrow, op_loc
# A block (spec §1.12, "^(int x) { … }"): type is a FunctionType whose result is None (the
# return type is inferred). Parsed so sema can say "not supported yet" with its location.
BlockLiteral: type*, body*
# A GNU statement expression "({ stmt; …; expr; })": clang accepts it in OpenCL C (macros in
# image-processing kernels use it); its value is that of the last expression statement.
StmtExpr: body*
"""


class Node:
    """Base of every AST node. ``field_names`` lists all fields, ``child_fields`` those
    holding nodes (``list_fields`` the ones holding lists of nodes)."""

    __slots__ = ("loc", "expansion")
    field_names: tuple = ()
    child_fields: tuple = ()
    list_fields: frozenset = frozenset()

    def children(self):
        """(field name, child) pairs in field order; list fields give ``name[i]``."""
        for f in self.child_fields:
            v = getattr(self, f)
            if v is None:
                continue
            if f in self.list_fields:
                for i, c in enumerate(v):
                    if isinstance(c, Node):
                        yield f"{f}[{i}]", c
            elif isinstance(v, Node):
                yield f, v

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.field_names)
        return f"{type(self).__name__}({inner})"


def _make(name: str, spec: list[str]) -> type:
    fields, children, lists = [], [], set()
    for item in spec:
        plain = item.rstrip("*")
        fields.append(plain)
        if item.endswith("**"):
            children.append(plain)
            lists.add(plain)
        elif item.endswith("*"):
            children.append(plain)

    def __init__(self, *args, loc=None, expansion=None, **kwargs):
        if len(args) > len(fields):
            raise TypeError(f"{name} takes {len(fields)} fields")
        for f, v in zip(fields, args):
            setattr(self, f, v)
        for f in fields[len(args):]:
            setattr(self, f, kwargs.pop(f, [] if f in lists and f not in _NULLABLE_LISTS else None))
        if kwargs:
            raise TypeError(f"{name} has no field {next(iter(kwargs))!r}")
        self.loc = loc
        self.expansion = expansion

    return type(name, (Node,), {
        "__slots__": tuple(fields), "__init__": __init__, "field_names": tuple(fields),
        "child_fields": tuple(children), "list_fields": frozenset(lists),
        "__doc__": f"{name}({', '.join(spec)})",
    })


# List fields whose "absent" value is None rather than an empty list: a struct declared
# without a body has fields None, with an empty body [].
_NULLABLE_LISTS = {"fields", "enumerators"}

NODE_KINDS: dict[str, type] = {}
for _line in NODE_TABLE.splitlines():
    _line = _line.strip()
    if not _line or _line.startswith("#"):
        continue
    _name, _, _rest = _line.partition(":")
    NODE_KINDS[_name] = _make(_name, [f.strip() for f in _rest.split(",") if f.strip()])
globals().update(NODE_KINDS)

TranslationUnit = NODE_KINDS["TranslationUnit"]  # names for linters and readers; all are above
FunctionDef, Pragma, Decl, ParamDecl, FieldDecl, StaticAssert = (NODE_KINDS[n] for n in (
    "FunctionDef", "Pragma", "Decl", "ParamDecl", "FieldDecl", "StaticAssert"))
TypeName, Attribute, BaseType, PointerType, ArrayType = (NODE_KINDS[n] for n in (
    "TypeName", "Attribute", "BaseType", "PointerType", "ArrayType"))
FunctionType, RecordDecl, EnumDecl, Enumerator = (NODE_KINDS[n] for n in (
    "FunctionType", "RecordDecl", "EnumDecl", "Enumerator"))
InitList, Designated, FieldDesignator, IndexDesignator = (NODE_KINDS[n] for n in (
    "InitList", "Designated", "FieldDesignator", "IndexDesignator"))
Compound, DeclStmt, ExprStmt, NullStmt, If, Switch, Case, Default = (NODE_KINDS[n] for n in (
    "Compound", "DeclStmt", "ExprStmt", "NullStmt", "If", "Switch", "Case", "Default"))
While, DoWhile, For, Goto, Label, Break, Continue, Return = (NODE_KINDS[n] for n in (
    "While", "DoWhile", "For", "Goto", "Label", "Break", "Continue", "Return"))
Identifier, IntegerLiteral, FloatLiteral, CharLiteral, StringLiteral, Paren = (NODE_KINDS[n] for n in (
    "Identifier", "IntegerLiteral", "FloatLiteral", "CharLiteral", "StringLiteral", "Paren"))
UnaryOp, BinaryOp, Assignment, Conditional, Cast, VectorLiteral = (NODE_KINDS[n] for n in (
    "UnaryOp", "BinaryOp", "Assignment", "Conditional", "Cast", "VectorLiteral"))
CompoundLiteral, TypeTrait, Call, Subscript, Member, BlockLiteral = (NODE_KINDS[n] for n in (
    "CompoundLiteral", "TypeTrait", "Call", "Subscript", "Member", "BlockLiteral"))
BlockPointerType = NODE_KINDS["BlockPointerType"]

STATEMENT_KINDS = frozenset({"Compound", "DeclStmt", "ExprStmt", "NullStmt", "If", "Switch", "Case",
                             "Default", "While", "DoWhile", "For", "Goto", "Label", "Break",
                             "Continue", "Return"})
TYPE_KINDS = frozenset({"BaseType", "PointerType", "BlockPointerType", "ArrayType", "FunctionType"})


def walk(node: Node):
    """Every node under ``node`` (itself first), depth first, each once, without recursion
    (trees can be deep: a long else-if chain). The declarators of one declaration share
    their BaseType; it is visited once, under the first."""
    stack = [node]
    seen: set[int] = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        yield n
        stack.extend(reversed([c for _, c in n.children()]))
