"""Initialisers and constant expressions: integer constant expressions (array sizes, case
labels, enumerators, attributes), constant initialisers of program-scope and ``__constant``
variables (OpConstantComposite trees, designators included), and run-time initialisation of
locals (element-wise stores after zero-filling, as C requires for partly initialised
aggregates)."""

from __future__ import annotations

import struct

from ..spirv.builder import round_float
from . import ast
from .codegen_expr import expr_start, literal_bytes
from .sema import SemaError
from .types import (BOOL, CHAR, DOUBLE, FLOAT, INT, LONG, SIZE_T, UINT, ULONG, Array, CType, EventType, Pointer,
                    Vector, folded_int)

# A constant initializer is one OpConstantComposite tree with an id per element, so a huge array
# with a short initializer list (legal C: the rest is zero) cannot be one. Function-scope
# aggregates past FOLD_ELEMENTS are zero-filled and stored member by member instead; constant
# initializers past CONSTANT_ELEMENTS are refused, not expanded for minutes.
FOLD_ELEMENTS = 1 << 16
CONSTANT_ELEMENTS = 1 << 22


def scalar_count(t: CType) -> int:
    """How many scalars an aggregate holds (arrays of arrays multiplied out)."""
    if t.is_array:
        return (t.length or 0) * scalar_count(t.elem)
    if t.is_record:
        return sum(scalar_count(f[1]) for f in t.fields) if t.kind == "struct" else \
            max((scalar_count(f[1]) for f in t.fields), default=0)
    if t.is_vector:
        return t.n
    return 1


_LITERAL = {"int": INT, "unsigned int": UINT, "long": LONG, "unsigned long": ULONG, "float": FLOAT,
            "double": DOUBLE}


class InitializersMixin:
    # -- constant expressions ---------------------------------------------------------------

    def const_eval(self, node, scope):
        """The Python value of a constant expression, or None when it is not one."""
        k = type(node).__name__
        if k in ("IntegerLiteral", "CharLiteral"):
            return node.value
        if k == "FloatLiteral":
            v = node.value
            return round_float(v, 32) if node.type == "float" else v
        if k == "Paren":
            return self.const_eval(node.expr, scope)
        if k == "Identifier":
            sym = scope.lookup(node.name)
            if sym is not None and sym.kind == "enumconst":
                return sym.value
            return None
        if k == "UnaryOp":
            v = self.const_eval(node.operand, scope)
            if v is None:
                return None
            # ~ on a float is not folded: the expression's own code generation reports clang's error.
            return {"-": lambda: -v, "+": lambda: v, "~": lambda: ~v if isinstance(v, int) else None,
                    "!": lambda: int(not v)}.get(node.op, lambda: None)()
        if k == "BinaryOp":
            if node.op == ",":
                return None  # C99 6.6p3: a constant expression contains no comma operator
            a = self.const_eval(node.lhs, scope)
            if node.op in ("&&", "||") and a is not None:
                if node.op == "&&" and not a:
                    return 0
                if node.op == "||" and a:
                    return 1
            b = self.const_eval(node.rhs, scope)
            if a is None or b is None:
                return None
            try:
                return _binary(node.op, a, b)
            except (ZeroDivisionError, TypeError, ValueError):
                return None
        if k == "Conditional":
            c = self.const_eval(node.cond, scope)
            if c is None:
                return None
            return self.const_eval(node.then if c else node.else_, scope)
        if k == "Cast":
            v = self.const_eval(node.expr, scope)
            if v is None:
                return None
            try:
                t, _ = self.types.declarator(node.to.type, scope)
            except SemaError:
                return None
            return _convert_scalar(v, t) if t.is_scalar else None
        if k == "TypeTrait":
            if self.f is None and not isinstance(node.arg, ast.TypeName):
                return None
            return self.expr_TypeTrait(node).value
        if k == "Call" and isinstance(node.func, ast.Identifier):
            from .codegen_ops import BUILTIN_CONSTANTS
            name = node.func.name
            if name in BUILTIN_CONSTANTS and not node.args:
                return BUILTIN_CONSTANTS[name][1]
            if name in ("as_float", "as_double") and len(node.args) == 1:  # NAN is as_float(INT_MAX)
                v = self.const_eval(node.args[0], scope)
                if isinstance(v, int):
                    bits, int_fmt, float_fmt = (32, "<I", "<f") if name == "as_float" else (64, "<Q", "<d")
                    return struct.unpack(float_fmt, struct.pack(int_fmt, v & ((1 << bits) - 1)))[0]
            return None
        return None

    def const_splat(self, node, t, scope):
        """The element value of ``(vecN)(scalar)`` (a vector literal of one scalar, parsed as a
        cast) as a constant of vector type ``t``, or None."""
        inner = node
        while isinstance(inner, ast.Paren):
            inner = inner.expr
        if not isinstance(inner, ast.Cast):
            return None
        try:
            to, _ = self.types.declarator(inner.to.type, scope)
        except SemaError:
            return None
        v = self.const_eval(inner.expr, scope)
        if to != t or v is None:
            return None
        return _convert_scalar(v, t.elem)

    def try_const_int(self, node, scope):
        v = self.const_eval(node, scope)
        if v is None or isinstance(v, float):
            return None
        return int(v)

    def const_int(self, node, scope) -> int:
        v = self.try_const_int(node, scope)
        if v is None:
            raise SemaError("expression is not an integer constant expression", node)
        return v

    # -- aggregate shapes -------------------------------------------------------------------

    def init_length(self, init, t: Array) -> int:
        if isinstance(init, ast.StringLiteral):
            return len(literal_bytes(init.value)) + 1
        if isinstance(init, ast.InitList):
            n, pos = 0, 0
            for item in init.items:
                if isinstance(item, ast.Designated) and isinstance(item.designators[0], ast.IndexDesignator):
                    pos = self.const_int(item.designators[0].index, self.scope)
                pos += 1
                n = max(n, pos)
            if t.elem.is_record or t.elem.is_array or t.elem.is_vector:
                return n
            return n
        raise SemaError("array initializer must be an initializer list", init)

    @staticmethod
    def _members(t: CType):
        """(member count, type of member i) of an aggregate."""
        if t.is_array:
            return t.length, lambda i: t.elem
        if t.is_record:
            # A union takes one initializer: its first member's, or a designated member's.
            return (len(t.fields) if t.kind == "struct" else 1), lambda i: t.fields[i][1]
        if t.is_vector:
            return t.n, lambda i: t.elem
        return 1, lambda i: t

    def _designated_index(self, t, designator, scope) -> int:
        if isinstance(designator, _UnnamedMember):
            return designator.index
        if isinstance(designator, ast.FieldDesignator):
            if not t.is_record:
                raise SemaError(f"field designator '{designator.name}' does not refer to any field in type "
                                f"'{t}'", designator)
            found = t.field(designator.name)
            if found is None:
                raise SemaError(f"field designator '{designator.name}' does not refer to any field in type "
                                f"'{t}'", designator)
            return found[0]
        return self.const_int(designator.index, scope)

    def _slots(self, init, t, scope):
        """Flatten one initializer list for aggregate ``t`` into {member index: init node or
        nested list}, following C's brace elision."""
        count, member_t = self._members(t)
        items = list(init.items)
        slots: dict[int, object] = {}
        pos = 0
        union = t.is_record and t.kind == "union"
        while items:
            item = items.pop(0)
            designated = isinstance(item, ast.Designated)
            if designated:
                first = item.designators[0]
                if isinstance(first, ast.FieldDesignator) and t.is_record and t.field(first.name) is None:
                    path = t.field_path(first.name)
                    if path is not None:  # ".x" of a member of an unnamed member: through it
                        steps = [_UnnamedMember(i, first) for i, _, _ in path[:-1]]
                        item = ast.Designated(steps + list(item.designators), item.init, loc=item.loc)
                pos = self._designated_index(t, item.designators[0], scope)
                if t.is_array and count is not None and not 0 <= pos < count:
                    raise SemaError(f"array designator index ({pos}) exceeds array bounds ({count})"
                                    if pos >= 0 else f"array designator value '{pos}' is negative",
                                    item.designators[0])
                if len(item.designators) > 1:
                    rest = ast.Designated(item.designators[1:], item.init, loc=item.loc)
                    prev = slots.get(pos)
                    nested = prev if isinstance(prev, ast.InitList) else ast.InitList([], loc=item.loc)
                    nested.items = nested.items + [rest]
                    slots[pos] = nested
                    pos += 1
                    continue
                item = item.init
            if union:
                slots.clear()  # a union holds the member initialised last
            if count is not None and pos >= count and not (union and designated):
                what = "array" if t.is_array else t.kind if t.is_record else "vector"
                raise SemaError(f"excess elements in {what} initializer", item)
            mt = member_t(pos)
            if (mt.is_record or mt.is_array) and not isinstance(item, (ast.InitList, ast.StringLiteral)) and \
                    not self._is_whole(item, mt, scope):
                # Brace elision: this member takes as many items as it has scalars.
                n_inner, _ = self._members(mt)
                take = [item] + [items.pop(0) for _ in range(min(n_inner - 1, len(items)))]
                slots[pos] = ast.InitList(take, loc=item.loc)
            else:
                slots[pos] = item
            pos += 1
        return slots

    def _is_whole(self, node, t, scope) -> bool:
        """Whether an initializer expression is itself of aggregate type t (a struct copy)."""
        if self.f is None or not t.is_record:
            return False
        return isinstance(node, (ast.Identifier, ast.Call, ast.Member, ast.Subscript)) and \
            self.type_of(node) is t

    # -- constant initialisers (module scope) -----------------------------------------------

    def constant_initializer(self, init, t: CType, scope) -> int:
        if t.is_atomic:  # ATOMIC_VAR_INIT(value): the value type's constant
            return self.constant_initializer(init, t.value, scope)
        mt = self.spv(t, True)
        if isinstance(init, ast.StringLiteral) and t.is_array:
            data = literal_bytes(init.value) + b"\0"
            data = (data + b"\0" * t.length)[: t.length]
            return self.b.constant_composite(mt, [self.const(t.elem, c).id for c in data])
        if isinstance(init, ast.InitList):
            if t.is_scalar and init.items:
                return self.constant_initializer(init.items[0], t, scope)
            if scalar_count(t) > CONSTANT_ELEMENTS:
                raise SemaError(f"not supported yet: a constant initializer for {scalar_count(t)} elements "
                                f"(at most {CONSTANT_ELEMENTS})", init)
            count, member_t = self._members(t)
            slots = self._slots(init, t, scope)
            if t.is_record and t.kind == "union":
                return self.union_constant(init, t, scope)
            parts = []
            for i in range(count):
                sub_t = member_t(i)
                if i in slots:
                    parts.append(self.constant_initializer(slots[i], sub_t, scope))
                else:
                    parts.append(self.b.constant_null(self.spv(sub_t, True)))
            return self.b.constant_composite(mt, parts)
        if t.is_vector and isinstance(init, ast.VectorLiteral):
            vals = []
            for e in init.elements:
                v = self.const_eval(e, scope)
                if v is None:
                    raise SemaError("initializer element is not a compile-time constant", expr_start(e))
                vals.append(v)
            if len(vals) == 1:
                vals = vals * t.n
            if len(vals) != t.n:
                raise SemaError("vector literal of constant vectors: not supported yet", init)
            return self.b.constant_composite(mt, [self.const(t.elem, v).id for v in vals])
        v = self.const_eval(init, scope)
        if v is None and t.is_vector:
            v = self.const_splat(init, t, scope)
        if v is None:
            if t.is_pointer:
                return self.address_constant(init, t, scope)
            raise SemaError("initializer element is not a compile-time constant", expr_start(init))
        if t.is_pointer:
            if v == 0:
                return self.b.constant_null(mt)
            raise SemaError("not supported yet: non-null pointer constants", init)
        if t.is_vector:
            return self.const(t, v).id
        if t == BOOL:
            return self.b.constant(self.b.type_int(8), int(bool(v)))
        if not t.is_scalar:
            raise SemaError(f"initializing '{t}' with an expression of incompatible type", init)
        return self.const(t, v).id

    # -- run-time initialisation (function scope) -------------------------------------------

    def initialize(self, lv, init, decl=None) -> None:
        """``decl``: the declaration being initialised (clang reports a wrong type at its name)."""
        from .codegen_expr import LVal, is_null_event
        from .sema import check_implicit, conversion_message
        t = lv.type
        if isinstance(init, ast.StringLiteral) and t.is_array:
            self.f.op("OpStore", None, lv.ptr, self.constant_initializer(init, t, self.scope))
            return
        if not isinstance(init, ast.InitList):
            v = self.expr(init)
            if v.type.is_array:
                v = self.decay(v)
            if t.is_record:
                if v.type is not t:
                    raise SemaError(conversion_message("initializing", v.type, t), decl or init)
                self.store(lv, v)
                return
            if t.is_array:
                raise SemaError("array initializer must be an initializer list", init)
            if not (isinstance(t, EventType) and is_null_event(v)):
                check_implicit(v.type, t, init, "initializing", decl, warn=self.warn)
            self.store(lv, self.convert(v, t, init))
            return
        if t.is_scalar:
            if not init.items:
                raise SemaError("scalar initializer cannot be empty", init)
            self.initialize(lv, init.items[0])
            return
        # All-constant lists become one OpStore of a constant; others zero-fill then store
        # the members one by one.
        try:
            const = self._try_constant(init, t) if scalar_count(t) <= FOLD_ELEMENTS else None
        except SemaError:
            const = None
        if const is not None:
            self.f.op("OpStore", None, lv.ptr, const)
            return
        self.f.op("OpStore", None, lv.ptr, self.b.constant_null(self.spv(t, True)))
        slots = self._slots(init, t, self.scope)
        _, member_t = self._members(t)
        for i, sub in slots.items():
            mt = member_t(i)
            if t.is_record and t.kind == "union":
                ptr = self.f.op("OpBitcast", self.ptr_type(mt, lv.space), lv.ptr)
            elif t.is_vector:
                ptr = self.f.op("OpInBoundsAccessChain", self.ptr_type(mt, lv.space), lv.ptr, self.u32(i))
            else:
                ptr = self.f.op("OpInBoundsAccessChain", self.ptr_type(mt, lv.space), lv.ptr,
                                self.u32(i) if t.is_record else self.const(LONG, i).id)
            self.initialize(LVal(mt, ptr, lv.space), sub)

    def address_constant(self, init, t, scope) -> int:
        """An address constant (C99 6.6p9) into a program-scope variable: ``&g``, ``&arr[3]``,
        ``&s.b``, ``arr + 2``, ``&arr[1] + 1``, ``(global char *)&x + 4``. Evaluated to the
        variable and a byte offset, then emitted as llvm-spirv-15 does: the OpVariable itself,
        or OpSpecConstantOp InBoundsPtrAccessChain along the natural path to the offset (LLVM's
        constant folding finds it), else a byte PtrAccessChain between Bitcasts;
        PtrCastToGeneric for a generic pointer."""
        address = self._address_value(init, scope) if self.f is None else None
        if address is None:
            if self.f is not None and isinstance(init, ast.UnaryOp) and init.op == "&":
                raise SemaError("not supported yet: address constants in initializers of function-scope "
                                "variables", init)
            raise SemaError("initializer element is not a compile-time constant", expr_start(init))
        from .sema import check_implicit
        src = self.type_of(init)
        if src.is_array:
            src = Pointer(src.elem, address[0].space)
        check_implicit(src, t, init, "initializing", warn=self.warn)
        sym, offset, _ = address
        return self._emit_address(sym, offset, t)

    def _address_value(self, node, scope):
        """(variable symbol, byte offset, pointee type) of a constant pointer expression into a
        program-scope variable, or None when it is not one."""
        while isinstance(node, ast.Paren):
            node = node.expr
        if isinstance(node, ast.UnaryOp) and node.op == "&":
            return self._address_designator(node.operand, scope)
        if isinstance(node, ast.Cast):
            inner = self._address_value(node.expr, scope)
            try:
                to, _ = self.types.declarator(node.to.type, scope)
            except SemaError:
                return None
            return (inner[0], inner[1], to.pointee) if inner is not None and to.is_pointer else None
        if isinstance(node, ast.BinaryOp) and node.op in ("+", "-"):
            base, n = self._address_value(node.lhs, scope), self.try_const_int(node.rhs, scope)
            if base is None and node.op == "+":
                base, n = self._address_value(node.rhs, scope), self.try_const_int(node.lhs, scope)
            if base is None or n is None:
                return None
            step = max(base[2].size, 1) if not base[2].is_void else 1   # void *: GNU's 1
            return base[0], base[1] + (n if node.op == "+" else -n) * step, base[2]
        lvalue = self._address_designator(node, scope)
        if lvalue is not None and lvalue[2].is_array:   # an array decays to its first element
            return lvalue[0], lvalue[1], lvalue[2].elem
        return None

    def _address_designator(self, node, scope):
        """(variable symbol, byte offset, type) of an lvalue inside a program-scope global or
        constant variable (a member, an element: constant indices), or None."""
        while isinstance(node, ast.Paren):
            node = node.expr
        if isinstance(node, ast.Identifier):
            sym = scope.lookup(node.name)
            if sym is None or sym.kind != "var" or sym.space not in ("global", "constant"):
                return None
            return sym, 0, sym.type
        if isinstance(node, ast.Member):
            base = (self._address_value if node.arrow else self._address_designator)(node.base, scope)
            if base is None or not base[2].is_record or not base[2].complete:
                return None
            member = base[2].field(node.name)
            return None if member is None else (base[0], base[1] + member[2], member[1])
        if isinstance(node, ast.Subscript):
            base, i = self._address_value(node.base, scope), self.try_const_int(node.index, scope)
            if base is None:
                base, i = self._address_value(node.index, scope), self.try_const_int(node.base, scope)
            if base is None or i is None:
                return None
            return base[0], base[1] + i * base[2].size, base[2]
        if isinstance(node, ast.UnaryOp) and node.op == "*":
            return self._address_value(node.operand, scope)
        return None

    def _emit_address(self, sym, offset: int, t) -> int:
        space = sym.space
        target = self.ptr_type(t.pointee, space)
        path = self._natural_path(sym.type, offset, target, space)
        if path is not None:
            indices, result = path
            value = self.b.spec_constant_op(result, "InBoundsPtrAccessChain", sym.value, *indices) \
                if indices else sym.value
        else:   # no member or element starts there: a byte offset
            result = self.ptr_type(CHAR, space)
            value = self.b.spec_constant_op(result, "Bitcast", sym.value)
            if offset:
                value = self.b.spec_constant_op(result, "PtrAccessChain", value, self.const(LONG, offset).id)
        if result != target:
            value = self.b.spec_constant_op(target, "Bitcast", value)
        if t.space != space:
            value = self.b.spec_constant_op(self.spv(t), "PtrCastToGeneric", value)
        return value

    def _natural_path(self, vt, offset: int, target: int, space: str):
        """The InBoundsPtrAccessChain indices from a variable of type ``vt`` to the object at
        byte ``offset`` (of pointer type ``target`` when one starts there), and the chain's
        pointer type; ``([], ...)``: the variable itself; None when the offset falls inside a
        scalar, in padding or in a union."""
        if not vt.size:
            return None
        first, rest = divmod(offset, vt.size)
        indices, cur = [self.const(LONG, first).id], vt
        while rest:
            if cur.is_array and cur.elem.size:
                i, rest = divmod(rest, cur.elem.size)
                indices.append(self.const(LONG, i).id)
                cur = cur.elem
            elif cur.is_record and cur.kind == "struct" and cur.complete:
                at = [(i, ft, off) for i, (_, ft, off) in enumerate(cur.fields) if off <= rest < off + ft.size]
                if not at:
                    return None
                i, cur, off = at[-1]
                indices.append(self.u32(i))
                rest -= off
            else:
                return None
        extra, probe = [], cur   # the first element or member, when that is what is pointed to
        while self.ptr_type(probe, space) != target and (probe.is_array or (
                probe.is_record and probe.kind == "struct" and probe.complete and probe.fields)):
            extra.append(self.const(LONG, 0).id if probe.is_array else self.u32(0))
            probe = probe.elem if probe.is_array else probe.fields[0][1]
        if self.ptr_type(probe, space) == target:
            indices, cur = indices + extra, probe
        if len(indices) == 1 and first == 0:
            return [], self.ptr_type(vt, space)
        return indices, self.ptr_type(cur, space)

    def union_constant(self, init, t, scope) -> int:
        """A union constant: the bytes of its initialised member, in the words of the union's
        SPIR-V type (codegen.record_type: one array of the union's alignment word)."""
        data = self.constant_bytes(init, t, scope)
        tid = self.spv(t, True)
        if not t.size:
            return self.b.constant_composite(tid, [])
        word = {2: 16, 4: 32, 8: 64}.get(min(t.align, 8), 8) if t.align > 1 and t.size % t.align == 0 else 8
        wt = self.b.type_int(word)
        n = t.size * 8 // word
        words = [self.b.constant(wt, int.from_bytes(data[i * word // 8:(i + 1) * word // 8], "little"))
                 for i in range(n)]
        return self.b.constant_composite(tid, [self.b.constant_composite(self.b.type_array(wt, n), words)])

    def constant_bytes(self, init, t, scope) -> bytes:
        """The little-endian bytes of a constant initializer of type ``t`` (unions need them)."""
        if t.is_atomic:
            t = t.value
        if t.is_record or t.is_array or (t.is_vector and isinstance(init, ast.InitList)):
            buf = bytearray(t.size)
            if isinstance(init, ast.StringLiteral) and t.is_array:
                data = literal_bytes(init.value)[: t.length]
                buf[: len(data)] = data
                return bytes(buf)
            if not isinstance(init, ast.InitList):
                raise SemaError("initializer element is not a compile-time constant", expr_start(init))
            _, member_t = self._members(t)
            for i, sub in self._slots(init, t, scope).items():
                off = t.fields[i][2] if t.is_record else i * member_t(i).size
                data = self.constant_bytes(sub, member_t(i), scope)
                buf[off:off + len(data)] = data
            return bytes(buf)
        if t.is_vector:
            elems = init.elements if isinstance(init, ast.VectorLiteral) else [init]
            vals = [self.const_eval(e, scope) for e in elems]
            if vals == [None]:
                vals = [self.const_splat(init, t, scope)]
            if any(v is None for v in vals) or len(vals) not in (1, t.n):
                raise SemaError("initializer element is not a compile-time constant", expr_start(init))
            vals = vals * t.n if len(vals) == 1 else vals
            data = b"".join(_scalar_bytes(v, t.elem) for v in vals)
            return data + bytes(t.size - len(data))
        v = self.const_eval(init, scope)
        if v is None or not t.is_scalar:
            raise SemaError("initializer element is not a compile-time constant", expr_start(init))
        return _scalar_bytes(v, t)

    def _try_constant(self, init, t):
        for n in ast.walk(init):
            if isinstance(n, (ast.Identifier, ast.Call, ast.TypeTrait, ast.StringLiteral)):
                if isinstance(n, ast.Identifier):
                    sym = self.scope.lookup(n.name)
                    if sym is not None and sym.kind == "enumconst":
                        continue
                return None
        if t.is_record and t.kind == "union":
            return None
        return self.constant_initializer(init, t, self.scope)


def _binary(op, a, b):
    if op in ("/", "%") and not (isinstance(a, float) or isinstance(b, float)):
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return q if op == "/" else a - q * b
    return {
        "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b,
        "<<": lambda: a << b, ">>": lambda: a >> b, "&": lambda: a & b, "|": lambda: a | b,
        "^": lambda: a ^ b, "<": lambda: int(a < b), ">": lambda: int(a > b),
        "<=": lambda: int(a <= b), ">=": lambda: int(a >= b), "==": lambda: int(a == b),
        "!=": lambda: int(a != b), "&&": lambda: int(bool(a and b)), "||": lambda: int(bool(a or b)),
    }[op]()


__all__ = ["InitializersMixin", "CHAR", "SIZE_T", "Vector"]


def _scalar_bytes(v, t) -> bytes:
    if t.is_float:
        import numpy as np
        return np.array(v, {16: np.float16, 32: np.float32, 64: np.float64}[t.bits]).tobytes()
    n = max(t.bits // 8, 1)
    return (folded_int(v) & ((1 << (8 * n)) - 1)).to_bytes(n, "little")


def _convert_scalar(v, t):
    """A constant converted to the scalar type ``t`` as an explicit cast does (integers wrap,
    floats round to the type's precision); None for other types."""
    if t.is_integer and not t.is_bool:
        v = int(v)
        v &= (1 << t.bits) - 1
        return v - (1 << t.bits) if t.signed and v >> (t.bits - 1) else v
    if t.is_float:
        from .codegen_expr import round_to_float
        return round_to_float(float(v), t.bits)
    return None


class _UnnamedMember:
    """A designator step into an unnamed struct or union member (``{.x = 1}`` where ``x`` is a
    member of one), located at the designator it stands for."""

    def __init__(self, index: int, at):
        self.index = index
        self.loc, self.expansion = at.loc, getattr(at, "expansion", None)
