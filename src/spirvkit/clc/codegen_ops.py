"""Operators with OpenCL C semantics (spec §1.3–1.4): component-wise on vectors with scalar
splat, relational results -1/0 on vectors and 1/0 on scalars, shift counts modulo the bit
width, short-circuit logic only on scalars, ``?:`` with a vector condition as ``select``;
plus casts, vector literals, assignments and calls."""

from __future__ import annotations

from ..spirv.builder import round_float
from . import ast
from .sema import (Scope, SemaError, Symbol, arithmetic_result, check_implicit, conversion_message,
                   is_null_pointer_constant, not_supported)
from .types import (BOOL, DOUBLE, FLOAT, INT, LONG, PTRDIFF_T, VOID, Array, CType, Pointer, ReserveIdType, Vector,
                    promote, relational_result, vector_of)

ARITH = {"+": ("OpIAdd", "OpIAdd", "OpFAdd"), "-": ("OpISub", "OpISub", "OpFSub"),
         "*": ("OpIMul", "OpIMul", "OpFMul"), "/": ("OpSDiv", "OpUDiv", "OpFDiv"),
         "%": ("OpSRem", "OpUMod", None), "&": ("OpBitwiseAnd",) * 2 + (None,),
         "|": ("OpBitwiseOr",) * 2 + (None,), "^": ("OpBitwiseXor",) * 2 + (None,),
         "<<": ("OpShiftLeftLogical",) * 2 + (None,),
         ">>": ("OpShiftRightArithmetic", "OpShiftRightLogical", None)}
COMPARE = {"<": ("OpSLessThan", "OpULessThan", "OpFOrdLessThan"),
           ">": ("OpSGreaterThan", "OpUGreaterThan", "OpFOrdGreaterThan"),
           "<=": ("OpSLessThanEqual", "OpULessThanEqual", "OpFOrdLessThanEqual"),
           ">=": ("OpSGreaterThanEqual", "OpUGreaterThanEqual", "OpFOrdGreaterThanEqual"),
           "==": ("OpIEqual", "OpIEqual", "OpFOrdEqual"),
           "!=": ("OpINotEqual", "OpINotEqual", "OpFUnordNotEqual")}


def pick(table, t: CType) -> str | None:
    e = t.element
    return table[2] if e.is_float else table[0] if e.signed else table[1]


def _operand_node(node):
    while isinstance(node, ast.Paren):
        node = node.expr
    return node


def _keeps_type(node) -> bool:
    """Whether an operand expression is one whose Val.origin is the type clang sees: an object
    (an lvalue) or a call (whose result may be of an atomic type); a cast or any other operator
    makes a new rvalue of the value type."""
    node = _operand_node(node)
    return isinstance(node, (ast.Identifier, ast.Subscript, ast.Member, ast.Call)) or (
        isinstance(node, ast.UnaryOp) and node.op == "*")


def lvalue_spelling(lv) -> str:
    """An lvalue's type as clang prints it: const, volatile, its address space (but
    ``__private``, which the project's diagnostics leave out)."""
    space = getattr(lv, "space", None)
    quals = [q for q in ("const", "volatile") if getattr(lv, q, False)]
    if space not in (None, "private"):
        quals.append(f"__{space}")
    return " ".join(quals + [str(lv.type)])


class OperatorsMixin:
    # -- atomic operands (§6.13.11: atomic objects are used only through the built-ins) ---------

    @staticmethod
    def is_atomic_operand(v, node) -> bool:
        origin = getattr(v, "origin", None)
        return origin is not None and origin.type.is_atomic and _keeps_type(node)

    @staticmethod
    def operand_spelling(v, node) -> str:
        origin = getattr(v, "origin", None)
        return lvalue_spelling(origin) if origin is not None and _keeps_type(node) else str(v.type)

    def check_atomic_operands(self, node, a, b, lhs=None, rhs=None) -> None:
        """clang (Sema's CreateBuiltinBinOp): no binary operator takes an atomic operand, on
        either side; at the operator."""
        lhs = node.lhs if lhs is None else lhs
        rhs = node.rhs if rhs is None else rhs
        if self.is_atomic_operand(a, lhs) or self.is_atomic_operand(b, rhs):
            raise SemaError(f"invalid operands to binary expression ('{self.operand_spelling(a, lhs)}' and "
                            f"'{self.operand_spelling(b, rhs)}')", node)

    def check_atomic_unary(self, v, operand, node) -> None:
        if self.is_atomic_operand(v, operand):
            raise SemaError(f"invalid argument type '{self.operand_spelling(v, operand)}' to unary expression", node)

    # -- unary ------------------------------------------------------------------------------

    def expr_UnaryOp(self, node):
        op = node.op
        if op == "&":
            lv = self.lvalue(node.operand)
            if lv.type.is_block:  # §6.12.5: nor a block
                raise SemaError(f"invalid argument type '{lv.type}' to unary expression", node)
            if lv.type.is_opaque:  # §6.12.14: an image or sampler has no address
                raise SemaError(f"invalid argument type '{lv.type}' to unary expression", node)
            inner = node.operand
            while isinstance(inner, ast.Paren):
                inner = inner.expr
            if not (isinstance(inner, (ast.Identifier, ast.Subscript, ast.Member, ast.CompoundLiteral,
                                       ast.StringLiteral)) or (isinstance(inner, ast.UnaryOp) and inner.op == "*")):
                lv = self.val(lv.type, None)  # a temporary (a vector literal, a call's result): an rvalue
            if not hasattr(lv, "ptr"):
                raise SemaError("cannot take the address of an rvalue of type "
                                f"'{lv.type}'", node)
            if lv.swizzle is not None:
                raise SemaError("address of vector element requested", node)
            t = Pointer(lv.type, lv.space, lv.const)
            from .codegen_expr import Val
            return Val(t, lv.ptr)
        if op in ("++", "--"):
            return self.increment(node)
        v = self.expr(node.operand)
        self.check_atomic_unary(v, node.operand, node)
        t = v.type
        if t.is_opaque or isinstance(t, ReserveIdType):
            raise SemaError(f"invalid argument type '{t}' to unary expression", node)
        if op == "!":
            if t.is_vector:  # §1.3.7: floating-point vectors too (-1 where the component == 0)
                rt = relational_result(t)
                c = self.f.op("OpFOrdEqual" if t.element.is_float else "OpIEqual", self.bool_type(t.n), v.id,
                              self.const(t, 0).id)
                return self.select_mask(c, rt)
            b = self.to_bool(v, node.operand)
            return self.bool_to_int(self.f.op("OpLogicalNot", self.b.type_bool(), b), INT)
        if not (t.is_arithmetic or t.is_vector):
            raise SemaError(f"invalid argument type '{t}' to unary expression", node)
        rt = promote(t) if t.is_scalar else t
        v = self.convert(v, rt, node)
        if op == "+":
            return v
        if op == "-":
            if v.value is not None:
                return self.const(rt, -v.value)
            return self.val(rt, self.op("OpFNegate" if rt.element.is_float else "OpSNegate", rt, v.id))
        if op == "~":
            if rt.element.is_float:
                raise SemaError(f"invalid argument type '{t}' to unary expression", node)
            if v.value is not None:
                return self.const(rt, ~v.value)
            return self.val(rt, self.op("OpNot", rt, v.id))
        raise not_supported(f"unary operator '{op}'", node)

    def val(self, t, vid):
        from .codegen_expr import Val
        return Val(t, vid)

    def bool_to_int(self, b: int, t: CType):
        return self.val(t, self.f.op("OpSelect", self.spv(t), b, self.const(t, 1).id, self.const(t, 0).id))

    def select_mask(self, c: int, rt: CType):
        """-1/0 of ``rt`` (a signed int vector) from a bool vector."""
        return self.val(rt, self.f.op("OpSelect", self.spv(rt), c, self.const(rt, -1).id, self.const(rt, 0).id))

    def increment(self, node):
        lv = self.lvalue(node.operand, for_store=True)
        if lv.type.is_atomic:
            raise SemaError(f"invalid argument type '{lvalue_spelling(lv)}' to unary expression", node)
        self.check_assignable(lv, node.operand, node)
        self.check_half_load(lv, node.operand)  # clang-15 misses this one
        old = self.load(lv)
        t = old.type
        if t.is_pointer:
            new = self.pointer_add(old, self.const(LONG, 1), node, negate=node.op == "--")
        else:
            if not (t.is_arithmetic or t.is_vector) or t == BOOL:
                raise SemaError(f"cannot increment value of type '{t}'", node)
            if t.element.is_float:  # §6.3.3 excludes them; clang accepts silently: a warning
                self.warn(f"'{node.op}' on a value of floating-point type '{t}' is not supported by OpenCL C "
                          "(spec section 6.3.3)", node, "-Wopencl-float-increment")
            opn = ("OpFAdd" if t.element.is_float else "OpIAdd") if node.op == "++" else \
                ("OpFSub" if t.element.is_float else "OpISub")
            new = self.val(t, self.op(opn, t, old.id, self.const(t, 1).id))
        self.store(lv, new)
        return old if node.postfix else new

    # -- binary -----------------------------------------------------------------------------

    def operands(self, node):
        a, b = self.expr(node.lhs), self.expr(node.rhs)
        self.check_atomic_operands(node, a, b)
        if a.type.is_array:
            a = self.decay(a)
        return a, b

    def common(self, a, b, node, op):
        # No exception for literals: §1.2.6 makes `float4 * 2.0` and `char4 + 1` errors, and
        # clang-15 (hence PoCL) rejects both; -cl-single-precision-constant makes 2.0 a float.
        return arithmetic_result(a.type, b.type, node, op)

    def expr_BinaryOp(self, node):
        op = node.op
        if op in ("&&", "||"):
            return self.logical(node)
        if op == ",":
            a = self.expr(node.lhs, discard=True)
            b = self.expr(node.rhs)
            self.check_atomic_operands(node, a, b)
            return b
        if op in COMPARE:
            c, v = self.compare(node)
            return v
        a, b = self.operands(node)
        return self.arith(op, a, b, node)

    def arith(self, op, a, b, node):
        ta, tb = a.type, b.type
        if op in ("+", "-") and (ta.is_pointer or tb.is_pointer):
            return self.pointer_arith(op, a, b, node)
        if op in ("<<", ">>"):
            return self.shift(op, a, b, node)
        t = self.common(a, b, node, op)
        opname = pick(ARITH[op], t)
        if opname is None:
            raise SemaError(f"invalid operands to binary expression ('{ta}' and '{tb}')", node)
        a, b = self.convert(a, t, node.lhs), self.convert(b, t, node.rhs)
        if a.value is not None and b.value is not None and t.is_scalar:
            folded = _fold(op, a.value, b.value, t)
            if folded is not None:
                return self.const(t, folded)
        return self.val(t, self.op(opname, t, a.id, b.id))

    def shift(self, op, a, b, node):
        ta, tb = a.type, b.type
        if ta.is_scalar and tb.is_vector:  # clang checks this first
            raise SemaError(f"requested shift is a vector of type '{tb}' but the first operand is not a "
                            f"vector ('{ta}')", node)
        if ta.is_vector or tb.is_vector:  # clang's vector-operand check names the floating-point one
            bad = ta if ta.is_vector and ta.element.is_float else tb if tb.is_vector and tb.element.is_float else None
            if bad is not None:
                raise SemaError(f"used type '{bad}' where integer is required", node)
        if ta.element.is_float or tb.element.is_float or not (ta.is_arithmetic or ta.is_vector) or \
                not (tb.is_arithmetic or tb.is_vector):
            raise SemaError(f"invalid operands to binary expression ('{ta}' and '{tb}')", node)
        if ta.is_scalar and tb.is_vector:
            raise SemaError(f"requested shift is a vector of type '{tb}' but the first operand is not a "
                            f"vector ('{ta}')", node)
        t = promote(ta) if ta.is_scalar else ta
        a = self.convert(a, t, node.lhs)
        if tb.is_vector and tb.width != t.width:
            raise SemaError(f"vector operands do not have the same number of elements ('{ta}' and '{tb}')", node)
        if tb.is_vector:
            b = self.val(t, self.scalar_convert(b.id, tb.element, t.element, n=t.width)) \
                if tb.element != t.element else self.val(t, b.id)
        else:
            b = self.convert(b, t, node.rhs)
        # The count is taken modulo the width (§1.3): mask it.
        mask = self.const(t, t.element.bits - 1)
        if b.value is not None and a.value is not None and t.is_scalar:
            return self.const(t, _fold(op, a.value, b.value & (t.bits - 1), t))
        count = self.op("OpBitwiseAnd", t, b.id, mask.id)
        return self.val(t, self.op(pick(ARITH[op], t), t, a.id, count))

    def pointer_arith(self, op, a, b, node):
        ta, tb = a.type, b.type
        if ta.is_pointer and tb.is_pointer:
            if ta.space != tb.space and "generic" not in (ta.space, tb.space):  # §1.5.6
                raise SemaError(f"arithmetic operation with operands of type  ('{ta}' and '{tb}') which are "
                                "pointers to non-overlapping address spaces", node)
            if op != "-" or ta.pointee != tb.pointee:
                raise SemaError(f"invalid operands to binary expression ('{ta}' and '{tb}')", node)
            ua = self.f.op("OpConvertPtrToU", self.b.type_int(64), a.id)
            ub = self.f.op("OpConvertPtrToU", self.b.type_int(64), b.id)
            diff = self.op("OpISub", LONG, ua, ub)
            size = max(ta.pointee.size, 1)
            return self.val(PTRDIFF_T, self.op("OpSDiv", LONG, diff, self.const(LONG, size).id))
        if tb.is_pointer:
            if op == "-":
                raise SemaError(f"invalid operands to binary expression ('{ta}' and '{tb}')", node)
            a, b = b, a
        if not (b.type.is_scalar and b.type.is_integer):
            raise SemaError(f"invalid operands to binary expression ('{ta}' and '{tb}')", node)
        return self.pointer_add(a, b, node, negate=op == "-")

    def compare(self, node):
        """(OpTypeBool id or None, the C value): scalars give int 1/0, vectors -1/0."""
        a, b = self.operands(node)
        if b.type.is_array:
            b = self.decay(b)
        ta, tb = a.type, b.type
        op = node.op
        if ta.is_pointer or tb.is_pointer:
            if ta.is_pointer and tb.is_pointer and ta.space != tb.space and "generic" not in (ta.space, tb.space) \
                    and not is_null_pointer_constant(node.lhs, ta) and not is_null_pointer_constant(node.rhs, tb):
                raise SemaError(f"comparison between  ('{ta}' and '{tb}') which are pointers to non-overlapping "
                                "address spaces", node)
            ua = self.f.op("OpConvertPtrToU", self.b.type_int(64), a.id) if ta.is_pointer else \
                self.convert(a, LONG, node).id
            ub = self.f.op("OpConvertPtrToU", self.b.type_int(64), b.id) if tb.is_pointer else \
                self.convert(b, LONG, node).id
            c = self.f.op(COMPARE[op][1], self.b.type_bool(), ua, ub)
            return c, self.bool_to_int(c, INT)
        t = self.common(a, b, node, op)
        a, b = self.convert(a, t, node.lhs), self.convert(b, t, node.rhs)
        if t == BOOL:
            a, b = self.convert(a, INT, node), self.convert(b, INT, node)
            t = INT
        opname = pick(COMPARE[op], t)
        if t.is_vector:
            c = self.f.op(opname, self.bool_type(t.n), a.id, b.id)
            return None, self.select_mask(c, relational_result(t))
        c = self.f.op(opname, self.b.type_bool(), a.id, b.id)
        return c, self.bool_to_int(c, INT)

    def logical(self, node):
        a = self.expr(node.lhs)
        if self.is_atomic_operand(a, node.lhs):
            self.check_atomic_operands(node, a, self.expr(node.rhs))
        if a.type.is_vector or (a.type.is_scalar and self.type_of(node.rhs).is_vector):
            # §1.3.7: on vectors (floating-point ones too) both sides are evaluated, component-wise
            # x != 0 (NaN counts as true, as in C), giving -1/0.
            b = self.expr(node.rhs)
            self.check_atomic_operands(node, a, b)
            t = self.common(a, b, node, node.op)
            a, b = self.convert(a, t, node.lhs), self.convert(b, t, node.rhs)
            bt = self.bool_type(t.n)
            ne = "OpFUnordNotEqual" if t.element.is_float else "OpINotEqual"
            ca = self.f.op(ne, bt, a.id, self.const(t, 0).id)
            cb = self.f.op(ne, bt, b.id, self.const(t, 0).id)
            c = self.f.op("OpLogicalAnd" if node.op == "&&" else "OpLogicalOr", bt, ca, cb)
            return self.select_mask(c, relational_result(t))
        ca = self.to_bool(a, node.lhs)
        f = self.f
        start = f.current.label
        rhs_l, end_l = f.new_label(), f.new_label()
        if node.op == "&&":
            f.op("OpBranchConditional", None, ca, rhs_l, end_l)
        else:
            f.op("OpBranchConditional", None, ca, end_l, rhs_l)
        f.start_block(rhs_l)
        if _keeps_type(node.rhs):  # (cond() would read it the same way)
            b = self.expr(node.rhs)
            self.check_atomic_operands(node, a, b)
            cb = self.to_bool(b, node.rhs)
        else:
            cb = self.cond(node.rhs)
        rhs_end = f.current.label
        f.branch(end_l)
        f.start_block(end_l)
        short = self.b.constant_bool(node.op == "||")
        c = f.op("OpPhi", self.b.type_bool(), short, start, cb, rhs_end)
        return self.bool_to_int(c, INT)

    def check_block_operands(self, node) -> None:
        """§6.12.5: no block in '?:'. clang-15 checks only operands that call a block (Sema's
        checkBlockType), at the call; it crashes on a selected block, refused here too."""
        found = []
        for operand in (node.then, node.else_):
            if isinstance(operand, ast.Call) and self.block_callee(operand.func):
                found.append(operand.func)  # (clang: at the call's start)
            elif operand is not None and self.block_callee(operand):
                found.append(operand)
        for operand in found:  # a block the operand may not refer to is reported first, as clang
            callee = _operand_node(operand)
            if isinstance(callee, ast.Identifier):
                self.captured(self.scope.lookup(callee.name), callee)
        for operand in found[:-1]:
            self.error(SemaError("block type cannot be used as expression in ternary expression in OpenCL", operand))
        if found:
            raise SemaError("block type cannot be used as expression in ternary expression in OpenCL", found[-1])

    # -- assignment -------------------------------------------------------------------------

    def check_assignable(self, lv, target, node) -> None:
        """An lvalue that may be written; the errors are clang's, at the operator (``node``)."""
        if not hasattr(lv, "ptr"):
            raise SemaError("expression is not assignable", node)
        if lv.ptr in self.captured_ptrs and isinstance(_operand_node(target), ast.Identifier):
            raise SemaError("variable is not assignable (missing __block type specifier)", node)
        if lv.const or lv.space == "constant":
            while isinstance(target, ast.Paren):
                target = target.expr
            if isinstance(target, ast.Identifier) and lv.space != "constant":
                sym = self.scope.lookup(target.name)
                raise SemaError(f"cannot assign to variable '{target.name}' with const-qualified type "
                                f"'const {lv.type}'", node,
                                notes=[(f"variable '{target.name}' declared const here", getattr(sym, "node", None))])
            raise SemaError("read-only variable is not assignable", node)

    def check_atomic_assignment(self, node, lv, rhs) -> None:
        """clang: `=` with an atomic object on either side is refused (only ATOMIC_VAR_INIT
        initialises one), a compound assignment is an invalid binary operation."""
        lhs_atomic = lv.type.is_atomic and hasattr(lv, "ptr")
        if lhs_atomic or self.is_atomic_operand(rhs, node.rhs):
            if node.op == "=":
                raise SemaError("atomic variable can be assigned to a variable only in global address space", node)
            lhs = lvalue_spelling(lv) if hasattr(lv, "ptr") else str(lv.type)
            raise SemaError(f"invalid operands to binary expression ('{lhs}' and "
                            f"'{self.operand_spelling(rhs, node.rhs)}')", node)

    def check_opaque_assignment(self, node, lv, rhs) -> None:
        """§6.12.14: no assignment, simple or compound, takes an image or a sampler (clang's
        error, at the operator)."""
        if lv.type.is_opaque or rhs.type.is_opaque:
            lhs = lvalue_spelling(lv) if hasattr(lv, "ptr") else str(lv.type)
            raise SemaError(f"invalid operands to binary expression ('{lhs}' and "
                            f"'{self.operand_spelling(rhs, node.rhs)}')", node)

    def expr_Assignment(self, node):
        lv = self.lvalue(node.lhs, for_store=True)
        if lv.type.is_block:  # a block variable is const (§6.12.3): clang's error, at the operator
            raise SemaError(f"invalid operands to binary expression ('{lv.type}' and '{self.expr(node.rhs).type}')",
                            node)
        if lv.type.is_opaque:
            self.check_opaque_assignment(node, lv, self.expr(node.rhs))
        if lv.type.is_atomic:  # (before the other checks on the left side, as clang)
            self.check_atomic_assignment(node, lv, self.expr(node.rhs))
        self.check_assignable(lv, node.lhs, node)
        if self.is_half_valued(lv.type):  # clang's wording and place (the '=')
            raise SemaError(f"assigning directly to pointer to type '{lv.type}' requires "
                            "cl_khr_fp16. Use vector data store builtin functions instead", node)
        if lv.type.is_array:
            raise SemaError(f"array type '{lv.type}' is not assignable", node)
        if lv.swizzle is not None and len(set(lv.swizzle)) != len(lv.swizzle):
            raise SemaError("vector is not assignable (contains duplicate components)", node)
        rhs = self.expr(node.rhs)
        self.check_opaque_assignment(node, lv, rhs)
        self.check_atomic_assignment(node, lv, rhs)
        if node.op != "=":
            old = self.load(lv)
            op = node.op[:-1]
            if op in ("+", "-") and old.type.is_pointer:
                new = self.pointer_arith(op, old, rhs, node)
            else:
                fake = ast.BinaryOp(op, node.lhs, node.rhs, loc=node.loc, expansion=node.expansion)
                new = self.arith(op, old, rhs, fake)
            value = self.convert(new, lv.type, node, explicit=True) if not (
                new.type.is_vector and not lv.type.is_vector) else None
            if value is None:
                raise SemaError(f"assigning to '{lv.type}' from incompatible type '{new.type}'", node)
        else:
            if rhs.type.is_array:
                rhs = self.decay(rhs)
            if lv.type.is_record:
                if rhs.type is not lv.type:
                    raise SemaError(f"assigning to '{lv.type}' from incompatible type '{rhs.type}'", node)
                value = rhs
            else:
                check_implicit(rhs.type, lv.type, node.rhs, where=node, warn=self.warn)
                value = self.convert(rhs, lv.type, node.rhs)
        self.store(lv, value)
        return value

    # -- conditional ------------------------------------------------------------------------

    def expr_Conditional(self, node):
        self.check_block_operands(node)
        c = self.expr(node.cond)
        if c.type.is_vector:
            if c.type.element.is_float:
                raise SemaError(f"used type '{c.type}' where floating point type is not allowed", node)
            a = c if node.then is None else self.expr(node.then)  # GNU "c ?: b" reuses c
            b = self.expr(node.else_)
            t = self.common(a, b, node, "?:") if (a.type.is_vector or b.type.is_vector) else c.type
            if not t.is_vector:
                t = Vector(t, c.type.width)
            a, b = self.convert(a, t, node.then or node.cond), self.convert(b, t, node.else_)
            if t.width != c.type.width:
                raise SemaError("vector condition type and result type do not have the same number of "
                                "elements", node)
            # select(): the MSB of each condition component picks (§1.4).
            bt = self.bool_type(t.n)
            msb = self.f.op("OpSLessThan", bt, c.id, self.const(c.type, 0).id)
            return self.val(t, self.op("OpSelect", t, msb, a.id, b.id))
        cb = self.to_bool(c, node.cond)
        f = self.f
        then_l, else_l, end_l = f.new_label(), f.new_label(), f.new_label()
        f.op("OpBranchConditional", None, cb, then_l, else_l)
        f.start_block(then_l)
        a = c if node.then is None else self.expr(node.then)  # GNU "c ?: b" reuses c
        then_block = f.current
        f.start_block(else_l)
        b = self.expr(node.else_)
        else_block = f.current
        ta, tb = a.type, b.type
        if ta.is_array:
            ta = Pointer(ta.elem, "private")
        if ta == VOID or tb == VOID:
            t = VOID
        elif ta.is_pointer and tb.is_pointer and is_null_pointer_constant(node.else_, tb):
            t = ta  # "p ? q : NULL" has q's type (C99 6.5.15p6)
        elif ta.is_pointer and tb.is_pointer and node.then is not None and is_null_pointer_constant(node.then, ta):
            t = tb
        elif ta.is_pointer and tb.is_pointer and ta.space != tb.space:
            if "generic" not in (ta.space, tb.space) or "constant" in (ta.space, tb.space):  # §1.5.6
                raise SemaError(f"conditional operator with the second and third operands of type  ('{ta}' and "
                                f"'{tb}') which are pointers to non-overlapping address spaces", node)
            t = ta if ta.space == "generic" else tb
        elif ta.is_pointer or tb.is_pointer:
            t = ta if ta.is_pointer else tb
        elif ta.is_opaque or tb.is_opaque:  # clang: even for two of the same image or sampler type
            raise SemaError(f"incompatible operand types ('{ta}' and '{tb}')", node)
        elif ta.is_record or tb.is_record:
            if ta is not tb:
                raise SemaError(f"incompatible operand types ('{ta}' and '{tb}')", node)
            t = ta
        else:
            t = self.common(a, b, node, "?:")
        # Conversions go at the end of each arm (the arms' own blocks).
        f.current = else_block
        b = self.convert(b, t, node.else_) if t != VOID else b
        else_end = f.current.label
        f.branch(end_l)
        f.current = then_block
        a = self.convert(a, t, node.then or node.cond) if t != VOID else a
        then_end = f.current.label
        f.branch(end_l)
        # then_block's instructions were appended after else was started: keep block order
        # valid (then before else) - both are plain blocks listed in start order already.
        f.start_block(end_l)
        if t == VOID:
            return self.val(VOID, None)
        return self.val(t, f.op("OpPhi", self.spv(t), a.id, then_end, b.id, else_end))

    # -- casts and literals -----------------------------------------------------------------

    def expr_Cast(self, node):
        to, _ = self.types.declarator(node.to.type, self.scope)
        if self.is_half_valued(to):  # §1.1.1: no half values without cl_khr_fp16
            from .codegen_expr import expr_start
            raise SemaError(f"casting to type '{to}' is not allowed", expr_start(node.expr))
        v = self.expr(node.expr)
        if v.type.is_array:
            v = self.decay(v)
        if to == VOID:
            return self.val(VOID, None)
        if v.type.is_opaque and to != v.type:
            raise SemaError(f"operand of type '{v.type}' where arithmetic or pointer type is required", node.expr)
        if to.is_record or to.is_array or to.is_atomic:
            raise SemaError(f"used type '{to}' where arithmetic or pointer type is required", node)
        return self.convert(v, to, node, explicit=True)

    def expr_VectorLiteral(self, node):
        t, _ = self.types.declarator(node.to.type, self.scope)
        if not t.is_vector:
            # "(int)(a, b)" is a cast of a comma expression.
            inner = node.elements
            v = None
            for e in inner:
                v = self.expr(e)
            return self.convert(v, t, node, explicit=True)
        parts = [self.expr(e) for e in node.elements]
        if len(parts) == 1 and parts[0].type.is_scalar:
            return self.convert(parts[0], t, node, explicit=True)
        ids, count, consts = [], 0, []
        for e, p in zip(node.elements, parts):
            if count >= t.n:  # clang: at the first element that does not fit
                raise SemaError("excess elements in vector initializer", e)
            if p.type.is_vector:
                if p.type.elem != t.elem:
                    raise SemaError(f"initializing '{t.elem}' with an expression of incompatible type '{p.type}'", e)
                ids.append(p.id)
                count += p.type.n
                consts = None
            else:
                p = self.convert(p, t.elem, e)
                ids.append(p.id)
                count += 1
                if consts is not None:
                    consts.append(p.value)
        if count != t.n:
            raise SemaError(f"{'too few' if count < t.n else 'excess'} elements in vector initialization "
                            f"(expected {t.n} elements, have {count})", node.lparen or node)
        if consts is not None and all(c is not None for c in consts):
            return self.val(t, self.b.constant_composite(self.spv(t), ids))
        return self.val(t, self.op("OpCompositeConstruct", t, ids))

    def compound_literal(self, node):
        from .codegen_expr import LVal
        t, _ = self.types.declarator(node.to.type, self.scope)
        if t.is_array and t.length is None:
            t = Array(t.elem, self.init_length(node.init, t))
        var = self.f.variable(self.ptr_type(t, "private"))
        lv = LVal(t, var, "private")
        self.initialize(lv, node.init)
        return lv

    def expr_CompoundLiteral(self, node):
        lv = self.compound_literal(node)
        return self.decay(lv) if lv.type.is_array else self.load(lv)

    def offsetof(self, node):
        """``__builtin_offsetof(T, member.designator[i])`` (the parser gives it as a call)."""
        from .types import SIZE_T
        if len(node.args) != 2:
            raise SemaError("expected a type and a member designator in '__builtin_offsetof'", node)
        tnode, designator = node.args
        if isinstance(tnode, ast.TypeName):
            t, _ = self.types.declarator(tnode.type, self.scope)
        elif isinstance(tnode, ast.Identifier):
            t = self.types.named(tnode.name, tnode, self.scope)
        else:
            raise SemaError("expected a type", tnode)
        path = []
        d = designator
        while not isinstance(d, ast.Identifier):
            if isinstance(d, ast.Member) and not d.arrow:
                path.append(("field", d.name, d))
                d = d.base
            elif isinstance(d, ast.Subscript):
                path.append(("index", d.index, d))
                d = d.base
            else:
                raise SemaError("expected a member designator", d)
        path.append(("field", d.name, d))
        offset = 0
        for kind, what, where in reversed(path):
            if kind == "field":
                if not t.is_record or t.field(what) is None:
                    raise SemaError(f"no member named '{what}' in '{t}'", where)
                _, t, off = t.field(what)
                offset += off
            else:
                if not t.is_array:
                    raise SemaError("subscripted value is not an array", where)
                offset += self.const_int(what, self.scope) * t.elem.size
                t = t.elem
        return self.const(SIZE_T, offset)

    def expr_StmtExpr(self, node):
        """``({ …; e; })``: the statements in a scope of their own; the value is that of a last
        expression statement (an rvalue, as in GCC), else void."""
        if self.f is None:
            raise SemaError("statement expression not allowed at file scope", node)
        items = node.body.items
        last = items[-1] if items and isinstance(items[-1], ast.ExprStmt) else None
        saved = self.scope
        self.scope = Scope(saved)
        try:
            self.statement_list(items[:-1] if last is not None else items)
            if last is None:
                return self.val(VOID, None)
            return self.expr(last.expr)
        finally:
            self.scope = saved

    # -- calls ------------------------------------------------------------------------------

    def expr_Call(self, node):
        fn = node.func
        while isinstance(fn, ast.Paren):
            fn = fn.expr
        if self.block_callee(fn):
            return self.block_call(node)
        if isinstance(fn, ast.Conditional):  # (c ? b1 : b2)(x): §6.12.5
            self.check_block_operands(fn)
        if isinstance(fn, ast.UnaryOp) and fn.op == "*" and self.block_callee(fn.operand):
            self.lvalue(fn)  # (*b)(x): clang's error on the '*'
        if isinstance(fn, ast.BinaryOp) and fn.op == "," and self.block_callee(fn.rhs):
            raise not_supported("calling a block that is not a block literal or a block variable", fn)
        if not isinstance(fn, ast.Identifier):
            raise SemaError("called object is not a function (function pointers are not allowed)", node)
        if fn.name == "__builtin_offsetof":
            return self.offsetof(node)
        if fn.name == "__builtin_expect" and self.scope.lookup(fn.name) is None:
            # clang's ``long __builtin_expect(long exp, long c)`` (likely/unlikely macros): a hint
            # with no effect here; the value is ``exp``.
            if len(node.args) != 2:
                raise SemaError(f"too {'few' if len(node.args) < 2 else 'many'} arguments to function call, "
                                f"expected 2, have {len(node.args)}", node)
            exp, hint = (self.expr(a) for a in node.args)
            for v, a in ((exp, node.args[0]), (hint, node.args[1])):
                check_implicit(v.type, LONG, a, "passing", warn=self.warn)
            return self.convert(exp, LONG, node.args[0])
        if fn.name in BUILTIN_CONSTANTS and not node.args:  # INFINITY, HUGE_VALF, HUGE_VAL
            t, value = BUILTIN_CONSTANTS[fn.name]
            return self.const(t, value)
        sym = self.scope.lookup(fn.name)
        pre = None  # the arguments, evaluated already to choose among overloads
        if sym is not None and sym.kind == "overloads":
            sym, pre = self.choose_overload(fn, sym, node)
        if sym is None or sym.kind != "func":
            if sym is not None and sym.kind == "var":
                raise SemaError(f"called object type '{sym.type}' is not a function or function pointer", node)
            try:
                return self.builtin_call(fn.name, node)
            except SemaError as exc:
                if exc.node is node:  # clang places overload and declaration errors at the callee's name
                    exc.node = fn
                raise
        info = sym.value
        ftype = sym.type
        if len(node.args) != len(ftype.params):
            few = len(node.args) < len(ftype.params)
            raise SemaError(f"too {'few' if few else 'many'} arguments to function call, expected "
                            f"{len(ftype.params)}, have {len(node.args)}", node)
        args = [self.call_argument(self.expr(a) if pre is None else pre[k], pt, a)
                for k, (a, pt) in enumerate(zip(node.args, ftype.params))]
        callee = info.id
        if info.is_kernel:  # the kernel's plain-function copy (codegen.emit_called_kernels)
            if info.callable_id is None:
                info.callable_id = self.b.fresh_id()
            callee = info.callable_id
        self.fn_info.calls.append((info.name, node))
        rid = self.f.op("OpFunctionCall", self.spv(ftype.result), callee, args)
        rt = ftype.result
        if rt.is_atomic:  # an rvalue of atomic type: read as its value, refused by the operators
            v = self.val(rt.value, rid)
            v.origin = self.val(rt, None)
            return v
        return self.val(rt, rid)

    def call_argument(self, v, pt, node) -> int:
        """The id of argument ``v`` converted to its parameter's type ``pt`` (of a function or a
        block), with clang's errors at the argument."""
        if v.type.is_array:
            v = self.decay(v)
        if pt.is_record:
            if v.type is not pt:
                raise SemaError(conversion_message("passing", v.type, pt), node)
            return v.id
        check_implicit(v.type, pt, node, "passing", warn=self.warn)
        if v.type.is_pointer and pt.is_pointer and not _space_ok(v.type.space, pt.space):
            raise SemaError(conversion_message("passing", v.type, pt, "space"), node)
        return self.convert(v, pt, node).id

    def choose_overload(self, fn, sym, node):
        """The declaration of an overloadable function a call resolves to (a "func" Symbol), by
        the built-ins' ranking of argument conversions, and the arguments it evaluated."""
        from .builtins import Overload, resolve
        if len(sym.value) == 1:  # one candidate: checked as a plain function's call (clang's words)
            info = sym.value[0]
            return Symbol(fn.name, "func", info.type, info, node=info.node), None
        values = []
        for a in node.args:
            v = self.expr(a)
            values.append(self.decay(v) if v.type.is_array else v)
        candidates = [Overload(fn.name, info.type.params, info.type.result, None, info) for info in sym.value]
        best, message, count = resolve(fn.name, candidates, [v.type for v in values])
        if best is None:
            raise SemaError(message, fn)
        info = best.data
        return Symbol(fn.name, "func", info.type, info, node=info.node), values


def _space_ok(src: str, dst: str) -> bool:
    return src == dst or (dst == "generic" and src != "constant")


# The clang builtins opencl-c-base.h's INFINITY/HUGE_VAL* expand to (predefined.py).
BUILTIN_CONSTANTS = {"__builtin_inff": (FLOAT, float("inf")), "__builtin_huge_valf": (FLOAT, float("inf")),
                     "__builtin_huge_val": (DOUBLE, float("inf"))}


def _fold(op, a, b, t):
    """Constant folding of scalar arithmetic in the type's own width (None: leave it)."""
    try:
        if t.is_float:
            if op == "+":
                r = a + b
            elif op == "-":
                r = a - b
            elif op == "*":
                r = a * b
            else:
                return None
            if t.bits == 32:
                r = round_float(r, 32)  # inf past FLT_MAX, as the operation gives at run time
            return r
        bits = t.bits
        if op in ("/", "%"):
            if b == 0:
                return None
            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            r = q if op == "/" else a - q * b
        elif op == "<<":
            r = a << b
        elif op == ">>":
            r = a >> b
        else:
            r = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}[op]
        r &= (1 << bits) - 1
        if t.signed and r >> (bits - 1):
            r -= 1 << bits
        return r
    except (OverflowError, KeyError):
        return None


__all__ = ["OperatorsMixin", "ARITH", "COMPARE", "pick", "vector_of"]
