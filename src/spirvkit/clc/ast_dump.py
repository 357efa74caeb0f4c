"""Text forms of the AST: a clang ``-ast-dump``-like tree (:func:`dump`), C spellings of
types as written (:func:`type_to_str`) and fully parenthesized expressions
(:func:`expr_to_str`), for tests and debugging.

All three work with explicit stacks: a tree the parser could build (10,000 terms of
``a + a + …``) must print without RecursionError.
"""

from __future__ import annotations

from . import ast


# -- types --------------------------------------------------------------------------------------
def type_to_str(t, name: str = "") -> str:
    """The C spelling of a type chain around ``name`` ("" for an abstract type):
    ``int *(*)[3]``, ``__global float *const restrict p``, ``void (int, float)``."""
    inner = name
    while True:
        if isinstance(t, (ast.PointerType, ast.BlockPointerType)):
            space = getattr(t, "address_space", None)
            quals = " ".join((["__" + space] if space else []) + list(t.qualifiers))
            inner = ("*" if isinstance(t, ast.PointerType) else "^") + quals + (" " if quals and inner else "") + inner
            t = t.pointee
            if isinstance(t, (ast.ArrayType, ast.FunctionType)):
                inner = f"({inner})"
        elif isinstance(t, ast.ArrayType):
            inside = " ".join(list(t.qualifiers) + (["static"] if t.is_static else []))
            size = expr_to_str(t.size) if t.size is not None else ""
            inner += f"[{inside}{' ' if inside and size else ''}{size}]"
            t = t.element
        elif isinstance(t, ast.FunctionType):
            params = [type_to_str(p.type) for p in t.params]  # clang leaves the names out
            if t.variadic:
                params.append("...")
            if not params and not t.empty_parens:
                params = ["void"]
            inner += "(" + ", ".join(params) + ")"
            t = t.result
        elif isinstance(t, ast.BaseType):
            base = base_type_to_str(t)
            return base + (" " + inner if inner else "")
        elif t is None:  # a block literal's inferred result type
            return inner
        else:
            return "<?>" + (" " + inner if inner else "")


def base_type_to_str(t) -> str:
    words = list(t.qualifiers)
    if t.address_space:
        words.append("__" + t.address_space)
    if t.access:
        words.append("__" + t.access)
    if t.record is not None:
        r = t.record
        kind = r.kind if isinstance(r, ast.RecordDecl) else "enum"
        words.append(f"{kind} {r.name}" if r.name else f"{kind} (anonymous)")
    elif t.typedef_name is not None:
        words.append(t.typedef_name)
    else:
        words.extend(t.specifiers)
    return " ".join(words)


# -- expressions -----------------------------------------------------------------------------------
def expr_to_str(e) -> str:
    """An expression with every operation parenthesized (``a + b * c`` is
    ``(a + (b * c))``); the source's own parentheses are implied by the result."""
    out: list[str] = []
    stack: list = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.append(x)
        elif x is None:
            out.append("<null>")
        else:
            stack.extend(reversed(_pieces(x)))
    return "".join(out)


def _joined(nodes, sep=", ") -> list:
    parts: list = []
    for i, n in enumerate(nodes):
        if i:
            parts.append(sep)
        parts.append(n)
    return parts


def _pieces(x) -> list:
    k = type(x).__name__
    if k == "Identifier":
        return [x.name]
    if k in ("IntegerLiteral", "FloatLiteral", "CharLiteral", "StringLiteral"):
        return [x.text]
    if k == "Paren":
        return [x.expr]
    if k == "BinaryOp":
        return ["(", x.lhs, ", " if x.op == "," else f" {x.op} ", x.rhs, ")"]
    if k == "Assignment":
        return ["(", x.lhs, f" {x.op} ", x.rhs, ")"]
    if k == "Conditional":
        return ["(", x.cond, " ? ", x.then, " : ", x.else_, ")"]
    if k == "UnaryOp":
        return ["(", x.operand, x.op, ")"] if x.postfix else ["(", x.op, x.operand, ")"]
    if k == "Cast":
        return ["((", type_to_str(x.to.type), ")", x.expr, ")"]
    if k == "VectorLiteral":
        return [f"({type_to_str(x.to.type)})("] + _joined(x.elements) + [")"]
    if k == "CompoundLiteral":
        return [f"({type_to_str(x.to.type)})", x.init]
    if k == "TypeTrait":
        arg = f"({type_to_str(x.arg.type)})" if isinstance(x.arg, ast.TypeName) else x.arg
        return [f"{x.op}(", arg, ")"] if isinstance(arg, ast.Node) else [x.op, arg]
    if k == "Call":
        return [x.func, "("] + _joined(x.args) + [")"]
    if k == "Subscript":
        return [x.base, "[", x.index, "]"]
    if k == "Member":
        return [x.base, "->" if x.arrow else ".", x.name]
    if k == "InitList":
        return ["{"] + _joined(x.items) + ["}"]
    if k == "Designated":
        return [p for d in x.designators for p in (["." + d.name] if isinstance(d, ast.FieldDesignator)
                                                   else ["[", d.index, "]"])] + [" = ", x.init]
    if k == "TypeName":
        return [type_to_str(x.type)]
    if k == "AsType":
        return ["__builtin_astype(", x.expr, ", ", x.to, ")"]
    if k == "BlockLiteral":
        return ["^" + type_to_str(x.type) + " {...}"]
    if k == "StmtExpr":
        return ["({...})"]
    return [f"<{k}>"]


# -- the tree -----------------------------------------------------------------------------------------
class _Line:
    """A dump line that is not a node (a type operand, a loop's pragma)."""

    def __init__(self, text: str, kids=()):
        self.text = text
        self.kids = list(kids)


def dump(node, main_file: str | None = None) -> str:
    """The clang ``-ast-dump``-like tree under ``node``: one line per node with its kind, its
    ``<line:col>`` (prefixed with the file when it is not ``main_file``) and its details."""
    if main_file is None and node.loc is not None:
        main_file = node.loc.file
    seen: set[int] = set()  # shared base types: show a struct definition once
    lines = []
    stack = [(node, "", "")]
    while stack:
        item, lead, indent = stack.pop()
        if isinstance(item, _Line):
            label, kids = item.text, item.kids
        else:
            label, kids = _describe(item, main_file, seen)
        lines.append(lead + label)
        for i in range(len(kids) - 1, -1, -1):
            last = i == len(kids) - 1
            stack.append((kids[i], indent + ("`-" if last else "|-"), indent + ("  " if last else "| ")))
    return "\n".join(lines)


def _where(n, main_file) -> str:
    loc = n.loc
    if loc is None:
        return ""
    if loc.file != main_file:
        return f" <{loc.file}:{loc.line}:{loc.col}>"
    return f" <{loc.line}:{loc.col}>"


def _type_kids(t, seen) -> list:
    """The struct/enum definitions written inside a declaration's type, shown as children."""
    while not isinstance(t, ast.BaseType):
        if t is None or isinstance(t, ast.FunctionType):
            return []
        t = t.element if isinstance(t, ast.ArrayType) else t.pointee
    r = t.record
    if r is None or id(r) in seen:
        return []
    body = r.fields if isinstance(r, ast.RecordDecl) else r.enumerators
    if body is None:
        return []
    seen.add(id(r))
    return [r]


def _describe(n, main_file, seen):
    k = type(n).__name__
    head = k + _where(n, main_file)
    kids = [c for _, c in n.children()]
    if k == "TranslationUnit":
        return f"{k} {n.cl_std}", kids
    if k == "FunctionDef":
        d = n.decl
        extra = "".join(f" {w}" for w in d.funcspecs + d.storage)
        params = [_Line(f"ParamDecl{_where(p, main_file)} {p.name or ''} '{type_to_str(p.type)}'".replace("  ", " "),
                        list(p.attributes)) for p in d.type.params]
        return f"{head} {d.name} '{type_to_str(d.type)}'{extra}", list(d.attributes) + params + [n.body]
    if k in ("Decl", "ParamDecl", "FieldDecl"):
        name = f" {n.name}" if n.name else ""
        extra = "".join(f" {w}" for w in getattr(n, "funcspecs", ()) + getattr(n, "storage", ()))
        kids = _type_kids(n.type, seen) + list(n.attributes)
        if k == "Decl" and n.init is not None:
            kids.append(n.init)
        if k == "FieldDecl" and n.bitwidth is not None:
            kids.append(n.bitwidth)
        return f"{head}{name} '{type_to_str(n.type)}'{extra}", kids
    if k == "TypeName":
        return f"{head} '{type_to_str(n.type)}'", _type_kids(n.type, seen)
    if k == "RecordDecl":
        name = n.name or "(anonymous)"
        return f"{head} {n.kind} {name}{' definition' if n.fields is not None else ''}", \
            list(n.attributes) + list(n.fields or ())
    if k == "EnumDecl":
        return f"{head} {n.name or '(anonymous)'}", list(n.attributes) + list(n.enumerators or ())
    if k in ("Enumerator", "Attribute", "Label", "FieldDesignator"):
        return f"{head} {n.name}", kids
    if k == "Goto":
        return f"{head} {n.label}", kids
    if k == "Pragma":
        bits = [b for b in (n.name, None if n.value is None else str(n.value)) if b is not None]
        return f"{head} {n.kind}{''.join(' ' + b for b in bits)}", kids
    if k in ("While", "DoWhile", "For"):
        extra = [_Line(f"Pragma {p.kind}" + (f" {p.value}" if p.value is not None else ""),
                       [p.count_expr] if p.count_expr is not None else []) for p in n.pragmas]
        body_kids = [c for f, c in n.children() if not f.startswith(("pragmas", "attributes"))]
        if k == "For":  # show absent clauses, so the children's roles stay clear
            body_kids = [c if c is not None else _Line("<<<NULL>>>") for c in (n.init, n.cond, n.step, n.body)]
        return head, extra + list(n.attributes) + body_kids
    if k == "Identifier":
        return f"{head} {n.name}", kids
    if k in ("IntegerLiteral", "FloatLiteral", "CharLiteral"):
        return f"{head} '{n.type}' {n.value!r}", kids
    if k == "StringLiteral":
        return f"{head} {n.text}", kids
    if k == "UnaryOp":
        return f"{head} {'postfix' if n.postfix else 'prefix'} '{n.op}'", kids
    if k in ("BinaryOp", "Assignment"):
        return f"{head} '{n.op}'", kids
    if k == "Member":
        return f"{head} {'->' if n.arrow else '.'}{n.name}", kids
    if k in ("Cast", "VectorLiteral", "CompoundLiteral"):
        rest = [c for f, c in n.children() if f != "to"]
        return f"{head} '{type_to_str(n.to.type)}'", _type_kids(n.to.type, seen) + rest
    if k == "BlockLiteral":
        return f"{head} '{type_to_str(n.type)}'", [_Line(f"ParamDecl{_where(p, main_file)} {p.name} "
                                                         f"'{type_to_str(p.type)}'") for p in n.type.params] + [n.body]
    if k == "TypeTrait":
        if isinstance(n.arg, ast.TypeName):
            return f"{head} {n.op} '{type_to_str(n.arg.type)}'", _type_kids(n.arg.type, seen)
        return f"{head} {n.op}", kids
    return head, kids
