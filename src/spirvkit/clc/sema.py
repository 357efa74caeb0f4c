"""Semantic rules of OpenCL C that do not depend on code generation: types as written → CType,
scopes and name lookup, integer constant expressions, swizzle selectors, the usual arithmetic
conversions with the OpenCL vector rules (§1.2.6) and implicit-conversion checks, with clang's
wording for the diagnostics.

Errors are raised as :class:`SemaError` carrying the AST node; the code generator turns them
into located diagnostics and goes on with the next statement, so one run reports them all.
"""

from __future__ import annotations

from . import ast
from .types import (ATOMIC_TYPES, BOOL, BUILTIN_TYPEDEFS, CHAR, DOUBLE, ENQUEUE_TYPES, EVENT_T, FLOAT, HALF,
                    IMAGE_GEOMETRY, INT, LONG, RESERVE_ID_T, SAMPLER_T, SHORT, UCHAR, UINT, ULONG, USHORT, VOID, Array,
                    Block, CType, EventType, Function, Image, Pointer, Record, Scalar, Vector, common_scalar, rank,
                    type_from_name)


class SemaError(Exception):
    """``option``: the warning flag clang shows for an error that is a warning turned into an
    error by default (``[-Wreturn-type]``, ``[-Wint-conversion]``)."""

    def __init__(self, message: str, node=None, option: str | None = None, notes=(), fixit=None):
        super().__init__(message)
        self.message = message
        self.node = node
        self.option = option
        self.notes = list(notes)  # (message, node) pairs: clang's "note: previous definition is here"
        self.fixit = fixit  # (length replaced, replacement): printed under the caret


def undeclared(name: str, node, scope: "Scope", *, statement_start: bool = False) -> SemaError:
    """clang's "use of undeclared identifier", with its typo correction among the variables,
    functions and enumerators in scope (builtins are not candidates, as in clang-15)."""
    from .typo import correct

    visible: dict[str, Symbol] = {}
    s = scope
    while s is not None:
        for n, sym in s.names.items():
            if sym.kind in ("var", "func", "overloads", "enumconst"):
                visible.setdefault(n, sym)
        s = s.parent
    best = correct(name, visible, statement_start=statement_start)
    if best is None:
        return SemaError(f"use of undeclared identifier '{name}'", node)
    return did_you_mean(f"use of undeclared identifier '{name}'", name, best, node, visible[best].node)


def did_you_mean(message: str, typo: str, best: str, node, declared_at) -> SemaError:
    """``message``; did you mean '``best``'? with clang's fix-it and "declared here" note."""
    notes = [(f"'{best}' declared here", declared_at)] if getattr(declared_at, "loc", None) is not None else []
    return SemaError(f"{message}; did you mean '{best}'?", node, notes=notes, fixit=(len(typo), best))


def not_supported(what: str, node) -> SemaError:
    return SemaError(f"not supported yet: {what}", node)


# -- scopes -------------------------------------------------------------------------------

class Symbol:
    """A named entity: ``kind`` is "var", "func", "overloads" (``value``: the FuncInfos of an
    overloadable function), "typedef", "enumconst"."""

    __slots__ = ("name", "kind", "type", "value", "space", "node", "const")

    def __init__(self, name, kind, ctype, value=None, space="private", node=None, const=False):
        self.name, self.kind, self.type, self.value = name, kind, ctype, value
        self.space, self.node, self.const = space, node, const


class Scope:
    def __init__(self, parent: "Scope | None" = None):
        self.parent = parent
        self.names: dict[str, Symbol] = {}
        self.tags: dict[str, CType] = {}
        self.enums: dict[str, object] = {}  # enum tag -> the EnumDecl that defined it

    def lookup(self, name: str) -> Symbol | None:
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def lookup_tag(self, name: str):
        s = self
        while s is not None:
            if name in s.tags:
                return s.tags[name]
            s = s.parent
        return None


# -- types as written ---------------------------------------------------------------------

_WORD_TYPES = {
    ("char",): CHAR, ("signed", "char"): CHAR, ("unsigned", "char"): UCHAR,
    ("short",): SHORT, ("short", "int"): SHORT, ("signed", "short"): SHORT,
    ("unsigned", "short"): USHORT, ("unsigned", "short", "int"): USHORT,
    ("int",): INT, ("signed",): INT, ("signed", "int"): INT, ("unsigned",): UINT,
    ("unsigned", "int"): UINT, ("long",): LONG, ("long", "int"): LONG, ("signed", "long"): LONG,
    ("unsigned", "long"): ULONG, ("unsigned", "long", "int"): ULONG, ("float",): FLOAT,
    ("double",): DOUBLE, ("half",): HALF, ("void",): VOID, ("bool",): BOOL, ("_Bool",): BOOL,
}
ENUM_LIKE = {"memory_order": INT, "memory_scope": INT, "cl_mem_fence_flags": UINT}


class TypeResolver:
    """Turns AST type chains into CTypes; needs the scope (typedefs, tags) and a constant
    evaluator (array sizes)."""

    def __init__(self, sema):
        self.sema = sema
        self.cl_std = sema.cl_std
        self._anonymous: dict[int, Record] = {}  # id(RecordDecl) -> its type, for unnamed records
        self._warned: set[int] = set()  # id(BaseType)s warned about: a type is resolved more than once

    def base(self, node, scope: Scope) -> CType:
        if node.record is not None:
            t = self.record(node.record, scope)
        elif node.typedef_name is not None:
            t = self.named(node.typedef_name, node, scope)
        else:
            words = tuple(w for w in node.specifiers if w not in ("__attribute__",))
            key = tuple(sorted(words, key=["unsigned", "signed", "short", "long", "char", "int"].index)) \
                if all(w in ("unsigned", "signed", "short", "long", "char", "int") for w in words) else words
            t = _WORD_TYPES.get(key) or _WORD_TYPES.get(words)
            if t is None and len(words) == 1:
                t = self.named(words[0], node, scope)
            if t is None:
                if words.count("long") > 1:
                    raise SemaError("'long long' is reserved in OpenCL C", node)
                # Table 4 reserves long double, complex and imaginary types (clang-15 accepts them)
                if "long" in words and "double" in words:
                    raise SemaError("'long double' is reserved in OpenCL C", node)
                for word in ("_Complex", "_Imaginary"):
                    if word in words:
                        raise SemaError(f"'{word}' is reserved in OpenCL C", node)
                raise SemaError(f"unknown type '{' '.join(words)}'", node)
            if not self.sema.fp64 and t.element.is_float and t.element.bits == 64:  # -cl-ext=-cl_khr_fp64
                raise SemaError("use of type 'double' requires cl_khr_fp64 support", node.type_tok or node)
        return t

    def named(self, name: str, node, scope: Scope) -> CType:
        if name in IMAGE_GEOMETRY:
            return Image(name)  # read_only unless an access qualifier says otherwise (declarator)
        if name.startswith("image") and name.endswith("_t"):
            raise not_supported(f"image type '{name}' (cl_khr_gl_msaa_sharing)", node)
        if name == "sampler_t":
            return SAMPLER_T
        if name in ENUM_LIKE:
            return ENUM_LIKE[name]
        if self.cl_std >= 200 and name in ENQUEUE_TYPES:  # §6.13.17 (enqueue.py)
            return ENQUEUE_TYPES[name]
        if name == "event_t":
            return EVENT_T
        if name == "reserve_id_t":
            return RESERVE_ID_T
        if name in ATOMIC_TYPES:  # their own types (clang: _Atomic(T)), the value type's layout
            t = ATOMIC_TYPES[name]
            if not self.sema.fp64 and t.value == DOUBLE:
                # without cl_khr_fp64 the header does not declare it
                raise SemaError(f"unknown type name '{name}'", getattr(node, "type_tok", None) or node)
            return t
        sym = scope.lookup(name)
        if sym is not None and sym.kind == "typedef":
            return sym.type
        t = type_from_name(name)
        if t is None:
            raise SemaError(f"unknown type name '{name}'", node)
        if name in BUILTIN_TYPEDEFS:
            return BUILTIN_TYPEDEFS[name]
        return t

    def record(self, node, scope: Scope) -> CType:
        if isinstance(node, ast.EnumDecl):
            value = -1
            if node.name and node.enumerators is not None:
                old = scope.enums.get(node.name)
                if old is not None and old is not node:
                    raise SemaError(f"redefinition of '{node.name}'", node.name_tok or node)
                scope.enums[node.name] = node
            if node.enumerators is not None:
                for e in node.enumerators:
                    value = self.sema.const_int(e.value, scope) if e.value is not None else value + 1
                    old = scope.names.get(e.name)
                    if old is not None and old.node is not e:  # (the same enum read twice is fine)
                        raise SemaError(f"redefinition of enumerator '{e.name}'" if old.kind == "enumconst"
                                        else f"redefinition of '{e.name}' as different kind of symbol", e)
                    scope.names[e.name] = Symbol(e.name, "enumconst", INT, value, node=e)
            return UINT if node.enumerators and min(
                (s.value for s in scope.names.values() if s.kind == "enumconst"), default=0) >= 0 else INT
        existing = scope.lookup_tag(node.name) if node.name else None
        if node.fields is None:  # a reference or forward declaration
            if existing is not None:
                return existing
            rec = Record(node.kind, node.name)
            scope.tags[node.name] = rec
            return rec
        if node.name and node.name in scope.tags and existing.complete:
            if getattr(existing, "node", None) is node:  # `struct S {…} a, b;` resolves it per name
                return existing
            raise SemaError(f"redefinition of '{node.name}'", node.name_tok or node)
        if not node.name:
            # `union { … } a, b;` resolves the definition per declarator: one type for all of them.
            done = self._anonymous.get(id(node))
            if done is not None and done.node is node:
                return done
        rec = existing if (existing is not None and node.name in scope.tags
                           and not existing.complete) else Record(node.kind, node.name)
        rec.node = node
        if not node.name:
            self._anonymous[id(node)] = rec
        if node.name:
            scope.tags[node.name] = rec
        members = []
        packed = any(a.name in ("packed", "__packed__") for a in node.attributes or ())
        for f in node.fields:
            if f.bitwidth is not None:
                raise SemaError("bit-fields are not supported in OpenCL", f.bitwidth)
            ft, fq = self.declarator(f.type, scope)
            if fq["space"]:  # §1.5.6: struct members carry no address space
                raise SemaError("field may not be qualified with an address space", f)
            inner = ft
            while inner.is_array:
                inner = inner.elem
            if inner.is_pipe:
                if fq["access"] is not None:   # clang: at the qualifier, the field's first token
                    raise SemaError(f"'{fq['access']}' attribute only applies to parameters and typedefs", f.type)
                raise not_supported("a pipe in a structure or union", f)   # (clang-15 accepts it)
            if isinstance(inner, EventType) or inner.is_opaque or inner.is_block:  # §1.9 #16, §6.12.14, §6.12.5
                raise SemaError(f"the '{inner}' type cannot be used to declare a structure or union field", f)
            if ft.is_record and not ft.complete:
                raise SemaError(f"field has incomplete type '{ft}'", f)
            if ft.is_array and ft.length is None:
                raise SemaError("flexible array members are not supported in OpenCL", f)
            members.append((f.name, ft))
        rec.define(members, packed=packed)
        return rec

    def declarator(self, node, scope: Scope) -> tuple[CType, dict]:
        """The CType of a type chain, and its outermost qualifiers: {'space', 'const',
        'access'}. The address space of a BaseType applies to the object declared; a pointer's
        pointee space is the space written on the pointee."""
        if isinstance(node, ast.BaseType):
            if "pipe" in node.qualifiers:
                from .pipes import pipe_type
                return pipe_type(self, node, scope)
            t = self.base(node, scope)
            if "restrict" in node.qualifiers and not t.is_pointer:   # a typedef'd pointer may be restrict
                raise SemaError(f"restrict requires a pointer or reference ('{t}' is invalid)",
                                node.restrict_tok or node)
            if node.access is not None or t.is_image:
                t = self.image_access(t, node)
            q = {"space": node.address_space, "const": "const" in node.qualifiers,
                 "access": node.access, "volatile": "volatile" in node.qualifiers}
            if node.typedef_name is not None:   # the typedef's own qualifiers apply too
                sym = scope.lookup(node.typedef_name)
                tq = sym.value if sym is not None and sym.kind == "typedef" and isinstance(sym.value, dict) else None
                if tq:
                    if tq.get("space") and q["space"]:
                        if tq["space"] != q["space"]:
                            raise SemaError("multiple address spaces specified for type", node)
                        if id(node) not in self._warned:
                            self._warned.add(id(node))
                            self.sema.warn("multiple identical address spaces specified for type", node,
                                           "-Wduplicate-decl-specifier")
                    q["space"] = q["space"] or tq.get("space")
                    q["const"] = q["const"] or tq.get("const", False)
                    q["volatile"] = q["volatile"] or tq.get("volatile", False)
            return t, q
        if isinstance(node, ast.PointerType):
            if isinstance(node.pointee, ast.BaseType) and "pipe" in node.pointee.qualifiers:   # pipe int *p
                if node.pointee.address_space is not None:   # `pipe global int *p`: clang's first error
                    raise _at_name(SemaError("parameter may not be qualified with an address space", node))
                raise SemaError("pipes packet types cannot be of reference type", node.pointee.type_tok or node)
            pointee, q = self.declarator(node.pointee, scope)
            if pointee.is_function:
                raise SemaError("pointers to functions are not allowed", node)
            if pointee.is_opaque:  # §6.12.14: images and samplers are never pointed to
                raise _at_name(SemaError(f"pointer to type '{_spelled(pointee, q)}' is invalid in OpenCL", node))
            if pointee.is_block:  # §6.12.5: nor are blocks
                raise _at_name(SemaError(f"pointer to type '{pointee}' is invalid in OpenCL", node))
            space = q["space"] or self.default_pointee_space()
            p = Pointer(pointee, space, q["const"], q.get("volatile", False))
            return p, {"space": node.address_space, "const": "const" in node.qualifiers, "access": None}
        if isinstance(node, ast.ArrayType):
            elem, q = self.declarator(node.element, scope)
            if elem.is_pipe:
                alias = getattr(node.element, "typedef_name", None) if isinstance(node.element, ast.BaseType) \
                    else None
                if alias:   # clang-15: any array of a pipe typedef, at the '['
                    raise SemaError(f"array of '{alias}' (aka '{elem}') type is invalid in OpenCL", node)
                # clang-15 accepts an array of pipes as a parameter (or in a typedef); a variable is
                # its error at the name (pipes.pipe_array_variable, from CodeGen.decl_type)
                exc = not_supported("arrays of pipes", node)
                exc.pipe_array = elem
                raise exc
            if elem.is_opaque or elem.is_block:  # §6.12.14, §6.12.5: nor put in arrays (clang: at the '[')
                raise SemaError(f"array of '{elem if elem.is_block else _spelled(elem, q)}' type is invalid in "
                                "OpenCL", node)
            length = None
            if node.size is not None:
                length = self.sema.try_const_int(node.size, scope)
                if length is None:
                    from .codegen_expr import expr_start
                    raise SemaError("variable length arrays are not supported in OpenCL", expr_start(node.size))
                if length <= 0:
                    raise SemaError("array size must be greater than zero" if length == 0 else
                                    "array size is negative", node.size)
                # clang's limit (ConstantArrayType::getMaxSizeBits): the array's bytes must be
                # addressable in 61 bits with a 64-bit size_t.
                elem_size = elem.size if isinstance(getattr(type(elem), "size", None), property) else 1
                if length * max(elem_size or 1, 1) >= 1 << 61:
                    raise SemaError(f"array is too large ({length} elements)", node.size)
            return Array(elem, length), q
        if isinstance(node, ast.FunctionType):
            result, _ = self.declarator(node.result, scope)
            if result.is_array or result.is_function:
                spelled = getattr(node.result, "typedef_name", None) or result  # as written, as clang
                raise SemaError(f"function cannot return {'array' if result.is_array else 'function'} type "
                                f"'{spelled}'", node)
            if result.is_block:  # §6.12.5: no function or block returns a block (the trailing space is clang's)
                name = getattr(node.result, "typedef_name", None)
                spelled = f"'{name}' (aka '{result}')" if name else f"'{result}'"
                raise _at_name(SemaError(f"declaring function return value of type {spelled} is not allowed ", node))
            params = []
            only_void = len(node.params) == 1 and node.params[0].name is None
            for p in node.params:
                try:
                    pt, _ = self.declarator(p.type, scope)
                except SemaError as exc:  # an error clang places at a parameter's name
                    if getattr(exc, "at_name", False) and p.name is not None:
                        exc.node, exc.at_name = p, False
                    raise
                if pt.is_block:  # §6.12.5: blocks are not parameters (of functions, kernels or blocks)
                    raise SemaError(f"declaring function parameter of type '{pt}' is not allowed", p)
                if pt == VOID and not only_void:
                    raise SemaError("argument may not have 'void' type" if p.name else
                                    "'void' must be the first and only parameter if specified", p)
                params.append(adjust_parameter(pt))
            if node.variadic:
                err = SemaError("invalid prototype, variadic arguments are not allowed in OpenCL", node)
                err.at_name = True  # clang reports it at the declared name (codegen.decl_type)
                raise err
            return Function(result, tuple(params)), {"space": None, "const": False, "access": None}
        if isinstance(node, ast.BlockPointerType):  # §6.12: R (^)(P...), a const pointer to a literal
            if self.cl_std < 200:
                raise SemaError(BLOCKS_DISABLED, node)
            fn, _ = self.declarator(node.pointee, scope)
            if not fn.is_function:
                raise SemaError("block pointer to non-function type is invalid", node)
            return Block(fn.result, fn.params, declared=True), {"space": None, "const": True, "access": None}
        raise SemaError(f"unexpected type node {type(node).__name__}", node)

    def image_access(self, t: CType, node) -> CType:
        """The access qualifier written before a type (§6.6): images only (pipes are not
        supported); read_write from OpenCL C 2.0 (clang-15's wording for earlier versions)."""
        access = node.access
        if not t.is_image:
            raise SemaError("access qualifier can only be used for pipe and image type", node)
        if access is None:
            return t
        if access == "read_write" and self.cl_std < 200:
            raise SemaError(f"access qualifier 'read_write' can not be used for '__read_write {t.name}' prior to "
                            "OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images "
                            "feature", node)
        return Image(t.name, access)

    def default_pointee_space(self) -> str:
        # §1.5.4 (1.x: private) versus §1.5.5 (2.0: generic); the language version decides.
        return "generic" if self.cl_std >= 200 else "private"


BLOCKS_DISABLED = ("blocks support disabled - compile with -fblocks or for OpenCL C 2.0 or OpenCL C 3.0 with "
                   "__opencl_c_device_enqueue feature")


def _at_name(exc: SemaError) -> SemaError:
    exc.at_name = True  # clang reports it at the declared name (codegen.decl_type, parameters above)
    return exc


def _spelled(t: CType, q: dict) -> str:
    return f"const {t}" if q.get("const") else str(t)


def adjust_parameter(t: CType) -> CType:
    """Array parameters are pointers (C99 6.7.5.3)."""
    if isinstance(t, Array):
        return Pointer(t.elem, "private")
    return t


# -- swizzles -----------------------------------------------------------------------------

_XYZW = {"x": 0, "y": 1, "z": 2, "w": 3}
_RGBA = {"r": 0, "g": 1, "b": 2, "a": 3}


def swizzle_indices(name: str, t: Vector, node, cl_std: int) -> list[int]:
    """The component indices a selector names (§1.1.7), or a clang-worded error."""
    n = t.n
    if name in ("lo", "hi", "even", "odd"):
        half = (n + 1) // 2 if n != 3 else 2
        full = 4 if n == 3 else n
        if name == "lo":
            return list(range(half))
        if name == "hi":
            return list(range(half, full))
        return list(range(0 if name == "even" else 1, full, 2))
    if name[0] in "sS" and len(name) > 1 and all(c in "0123456789abcdefABCDEF" for c in name[1:]):
        idx = [int(c, 16) for c in name[1:]]
    elif all(c in _XYZW for c in name):
        idx = [_XYZW[c] for c in name]
    elif all(c in _RGBA for c in name):
        if cl_std < 300:
            raise SemaError(f"vector component name '{name}' is an OpenCL C version 3.0 feature", node)
        idx = [_RGBA[c] for c in name]
    else:  # clang names the first character that does not belong to the first one's set
        if name[0] in "sS":
            bad = next((c for c in name[1:] if c not in "0123456789abcdefABCDEF"), name)
        else:
            group = _XYZW if name[0] in _XYZW else _RGBA if name[0] in _RGBA else {}
            bad = next((c for c in name if c not in group), name)
        raise SemaError(f"illegal vector component name '{bad}'", node)
    if name[0] not in "sS" and n > 4:
        raise SemaError(f"vector component access exceeds type '{t}'", node)
    for i in idx:
        if i >= n:
            raise SemaError(f"vector component access exceeds type '{t}'", node)
    if len(idx) not in (1, 2, 3, 4, 8, 16):
        raise SemaError(f"vector component access has invalid length {len(idx)}.  Supported: "
                        "1,2,3,4,8,16.", node)
    return idx


# -- conversions --------------------------------------------------------------------------

def arithmetic_result(a: CType, b: CType, node, op: str) -> CType:
    """The common type of a binary arithmetic operation (§1.2.6)."""
    if a.is_vector and b.is_vector:
        if a != b:
            raise SemaError(f"implicit conversions between vector types ('{a}' and '{b}') are not permitted", node)
        return a
    if a.is_vector or b.is_vector:
        v, s = (a, b) if a.is_vector else (b, a)
        if not s.is_scalar or s.is_void:
            raise SemaError(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        if rank(s) > rank(v.element):
            raise SemaError("scalar operand type has greater rank than the type of the vector element. "
                            f"('{a}' and '{b}')", node)
        return v
    if not (a.is_arithmetic and b.is_arithmetic):
        raise SemaError(f"invalid operands to binary expression ('{a}' and '{b}')", node)
    return common_scalar(a, b)


def conversion_message(what: str, src, dst, kind: str = "incompatible") -> str:
    """clang's wording for a conversion that is not allowed, by context ``what`` ("assigning to",
    "initializing", "returning", "passing", "casting"); ``kind``: "incompatible" (the types),
    "space" (the pointer's address space), "int to pointer", "pointer to int"."""
    if kind == "space":
        return {"assigning to": f"assigning '{src}' to '{dst}'",
                "initializing": f"initializing '{dst}' with an expression of type '{src}'",
                "returning": f"returning '{src}' from a function with result type '{dst}'",
                "passing": f"passing '{src}' to parameter of type '{dst}'",
                "casting": f"casting '{src}' to type '{dst}'"}[what] + " changes address space of pointer"
    if kind in ("int to pointer", "pointer to int"):
        prefix = ("incompatible integer to pointer conversion " if kind == "int to pointer" else
                  "incompatible pointer to integer conversion ")
        return prefix + {"assigning to": f"assigning to '{dst}' from '{src}'",
                         "initializing": f"initializing '{dst}' with an expression of type '{src}'",
                         "returning": f"returning '{src}' from a function with result type '{dst}'",
                         "passing": f"passing '{src}' to parameter of type '{dst}'"}[what]
    return {"assigning to": f"assigning to '{dst}' from incompatible type '{src}'",
            "initializing": f"initializing '{dst}' with an expression of incompatible type '{src}'",
            "returning": f"returning '{src}' from a function with incompatible result type '{dst}'",
            "passing": f"passing '{src}' to parameter of incompatible type '{dst}'",
            "casting": f"casting '{src}' to incompatible type '{dst}'"}[what]


def check_implicit(src: CType, dst: CType, node, what: str = "assigning to", where=None, warn=None) -> None:
    """Whether ``src`` converts implicitly to ``dst`` (assignment, argument, return):
    scalar ↔ scalar, scalar → vector (splat), pointer compatibility by address space.
    ``where``: the node to report at when not ``node`` (clang reports an initialization at the
    declared name). ``warn(message, node, option)``: where clang's warnings for an accepted
    conversion go (a pointer to an atomic type from a pointer to its value type, or back)."""
    where = node if where is None else where
    if dst.is_atomic:  # initialising an atomic object takes its value type (assignment is refused before)
        dst = dst.value
    if src == dst:
        return
    if dst.is_vector:
        if src.is_vector:
            raise SemaError(conversion_message(what, src, dst), where)
        if src.is_arithmetic:
            return
    if dst.is_scalar and not dst.is_void and src.is_scalar and not src.is_void:
        return
    if dst.is_pointer and src.is_pointer:
        if is_null_pointer_constant(node, src):
            return  # NULL, ((void*)0), converts to a pointer into any address space (C99 6.3.2.3)
        if not address_space_convertible(src.space, dst.space):
            raise SemaError(conversion_message(what, src, dst, "space"), where)
        if warn is not None and src.pointee.is_atomic != dst.pointee.is_atomic and not (
                src.pointee.is_void or dst.pointee.is_void):
            warn(incompatible_pointers_message(what, src, dst), where, "-Wincompatible-pointer-types")
        if src.const and not dst.const:
            return  # clang warns (-Wincompatible-pointer-types-discards-qualifiers)
        return
    if dst.is_pointer and src.is_scalar and src.is_integer and is_null_constant(node):
        return
    if dst.is_pointer and src.is_scalar and src.is_integer:  # clang: an error (-Wint-conversion)
        raise SemaError(conversion_message(what, src, dst, "int to pointer"), where, "-Wint-conversion")
    if dst.is_scalar and src.is_pointer and dst.is_integer:
        if dst.kind == "bool":
            return
        raise SemaError(conversion_message(what, src, dst, "pointer to int"), where, "-Wint-conversion")
    if dst.is_record and src is dst:
        return
    if getattr(dst, "null_from_zero", False) and src.is_scalar and src.is_integer and is_null_constant(node):
        return  # queue_t from CLK_NULL_QUEUE (0)
    if dst.is_sampler and src.is_scalar and src.is_integer and what != "assigning to":
        return  # an integer constant initialises a sampler_t (§6.13.14.1; codegen_expr.convert)
    raise SemaError(conversion_message(what, src, dst), where)


def incompatible_pointers_message(what: str, src, dst) -> str:
    """clang's -Wincompatible-pointer-types warning, by context (as conversion_message)."""
    return "incompatible pointer types " + {
        "assigning to": f"assigning to '{dst}' from '{src}'",
        "initializing": f"initializing '{dst}' with an expression of type '{src}'",
        "returning": f"returning '{src}' from a function with result type '{dst}'",
        "passing": f"passing '{src}' to parameter of type '{dst}'"}[what]


def is_null_constant(node) -> bool:
    """A literal 0 (C99 §6.3.2.3: an integer constant expression with value 0); NULL is
    ``((void*)0)`` in OpenCL C, so literals are the integer case that occurs in practice."""
    while isinstance(node, (ast.Paren, ast.Cast)):
        node = node.expr
    return isinstance(node, (ast.IntegerLiteral, ast.CharLiteral)) and node.value == 0


def is_null_pointer_constant(node, t: CType) -> bool:
    """C99 6.3.2.3p3: an integer constant 0, or one cast to ``void *`` (NULL is ``((void*)0)``),
    which clang lets convert to and compare with a pointer in any address space."""
    if t.is_pointer and not (t.pointee.is_void and t.space in ("private", "generic") and not t.const):
        return False
    return (t.is_pointer or (t.is_scalar and t.is_integer)) and is_null_constant(node)


def address_space_convertible(src: str, dst: str) -> bool:
    if src == dst:
        return True
    return dst == "generic" and src in ("global", "local", "private")


__all__ = ["SemaError", "Scope", "Symbol", "TypeResolver", "swizzle_indices", "arithmetic_result",
           "check_implicit", "not_supported", "Array", "Function", "Pointer", "Record", "Scalar",
           "Vector"]
