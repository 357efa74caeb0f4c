"""Expressions: typing (OpenCL C rules from sema.py) and emission together.

An expression gives a :class:`Val` (an rvalue: C type, SPIR-V id, and its Python value when it
is a constant) or, where an object is needed, an :class:`LVal` (a pointer and the object's
type; a swizzle lvalue also lists the vector components it names). Scalar ``bool`` values are
OpTypeBool; in memory they are one byte (load/store convert).
"""

from __future__ import annotations

from ..spirv.builder import round_float
from . import ast
from .codegen_ops import COMPARE, OperatorsMixin
from .sema import SemaError, conversion_message, did_you_mean, not_supported, swizzle_indices, undeclared
from .typo import correct
from .types import (BOOL, CHAR, DOUBLE, FLOAT, INT, LONG, SIZE_T, UINT, ULONG, VOID, Array, CType,
                    EventType, Pointer, Scalar, Vector, vector_of)


def literal_bytes(value) -> bytes:
    """A string literal's bytes (the lexer gives bytes; str is accepted too)."""
    return value.encode("utf-8", "surrogateescape") if isinstance(value, str) else bytes(value)


def round_to_float(value: float, bits: int) -> float:
    """``value`` rounded (to nearest even) to a binary16/32/64 float."""
    if bits == 64:
        return value
    import numpy as np
    with np.errstate(over="ignore"):
        return float(np.float32(value) if bits == 32 else np.float16(value))


class _AtOperator:
    """Stands for a Member node in diagnostics clang places at its '.' or '->'."""

    def __init__(self, node):
        self.loc = node.op_loc or node.loc
        self.expansion = node.expansion


class Val:
    """``origin``: for a value read from an object (or returned as an atomic type), the LVal
    (or a stand-in with ``type``/``space``/``const``) clang would still see as the operand's
    type: atomic operands are refused by the operators, and the message names the lvalue's
    address space."""
    __slots__ = ("type", "id", "value", "origin")

    def __init__(self, ctype, vid, value=None):
        self.type, self.id, self.value = ctype, vid, value
        self.origin = None


class LVal:
    """``volatile``: reached through a pointer to volatile (only diagnostics spell it)."""
    __slots__ = ("type", "ptr", "space", "swizzle", "const", "type_base", "volatile")

    def __init__(self, ctype, ptr, space, swizzle=None, const=False, volatile=False):
        self.type, self.ptr, self.space, self.swizzle, self.const = ctype, ptr, space, swizzle, const
        self.volatile = volatile


_LITERAL_TYPES = {"int": INT, "unsigned int": UINT, "long": LONG, "unsigned long": ULONG,
                  "float": FLOAT, "double": DOUBLE, "char": INT, "half": Scalar("float", 16), "bool": BOOL}
def is_null_event(v) -> bool:
    """An integer constant 0 (``false`` too): clang-15 initialises and casts an event_t from it (a
    null event), though it refuses to assign one."""
    return v.type.is_scalar and v.type.is_integer and v.value == 0


def _limits(t: Scalar) -> tuple[int, int]:
    if t.signed:
        return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1
    return 0, (1 << t.bits) - 1


class ExpressionsMixin(OperatorsMixin):
    # -- helpers ----------------------------------------------------------------------------

    def op(self, name, ctype, *operands) -> int:
        return self.f.op(name, self.spv(ctype), *operands)

    def bool_type(self, n: int) -> int:
        return self.b.type_bool() if n == 1 else self.b.type_vector(self.b.type_bool(), n)

    def load(self, lv: LVal) -> Val:
        if lv.type.is_atomic:  # lvalue conversion of an atomic object: a seq_cst atomic load
            return self.atomic_read(lv)
        if lv.swizzle is not None:
            base = Val(lv.type_base, self.f.op("OpLoad", self.spv(lv.type_base), lv.ptr))
            return self.shuffle(base, lv.swizzle)
        t = lv.type
        if t.element.is_float and t.element.bits == 16:
            self.uses_half_values = True
        if t == BOOL:
            byte = self.f.op("OpLoad", self.b.type_int(8), lv.ptr)
            return Val(BOOL, self.f.op("OpINotEqual", self.b.type_bool(), byte, self.b.constant(self.b.type_int(8), 0)))
        return Val(t, self.f.op("OpLoad", self.spv(t, True), lv.ptr))

    def store(self, lv: LVal, v: Val) -> None:
        if lv.swizzle is not None:
            base_t = lv.type_base
            old = self.f.op("OpLoad", self.spv(base_t), lv.ptr)
            n = base_t.n
            comps = list(range(n))
            for k, i in enumerate(lv.swizzle):
                if i < n:  # a 3-vector's .hi/.odd also name the w it does not have (§1.1.7)
                    comps[i] = n + k
            src = v.id
            if len(lv.swizzle) == 1:
                new = self.f.op("OpCompositeInsert", self.spv(base_t), src, old, lv.swizzle[0])
            else:
                new = self.f.op("OpVectorShuffle", self.spv(base_t), old, src, comps)
            self.f.op("OpStore", None, lv.ptr, new)
            return
        vid = v.id
        if lv.type == BOOL:
            i8 = self.b.type_int(8)
            vid = self.f.op("OpSelect", i8, vid, self.b.constant(i8, 1), self.b.constant(i8, 0))
        self.f.op("OpStore", None, lv.ptr, vid)

    def shuffle(self, v: Val, idx: list[int]) -> Val:
        elem = v.type.elem
        if len(idx) == 1:
            return Val(elem, self.op("OpCompositeExtract", elem, v.id, idx[0]))
        t = Vector(elem, len(idx))
        return Val(t, self.op("OpVectorShuffle", t, v.id, v.id, idx))

    def to_bool(self, v: Val, node) -> int:
        """A scalar's truth value as OpTypeBool (C: compares unequal to 0)."""
        t = v.type
        if t == BOOL:
            return v.id
        if t.is_pointer:
            u = self.f.op("OpConvertPtrToU", self.b.type_int(64), v.id)
            return self.f.op("OpINotEqual", self.b.type_bool(), u, self.b.constant(self.b.type_int(64), 0))
        if not t.is_scalar or t.is_void:
            raise SemaError(f"statement requires expression of scalar type ('{t}' invalid)", node)
        zero = self.const(t, 0).id
        return self.f.op("OpFUnordNotEqual" if t.is_float else "OpINotEqual", self.b.type_bool(), v.id, zero)

    def cond(self, node) -> int:
        """A condition as OpTypeBool, without the int 0/1 round trip for comparisons."""
        while isinstance(node, ast.Paren):
            node = node.expr
        if isinstance(node, ast.BinaryOp) and node.op in COMPARE:
            r = self.compare(node)
            if r[0] is not None:
                return r[0]
        if isinstance(node, ast.UnaryOp) and node.op == "!":
            inner = self.expr(node.operand)
            self.check_atomic_unary(inner, node.operand, node)
            if inner.type.is_scalar or inner.type.is_pointer:
                return self.f.op("OpLogicalNot", self.b.type_bool(), self.to_bool(inner, node.operand))
        if isinstance(node, ast.BinaryOp) and node.op in ("&&", "||"):
            v = self.logical(node)
            if v.type == INT:
                return self.to_bool(v, node)
        return self.to_bool(self.expr(node), node)

    # -- conversions ------------------------------------------------------------------------

    def convert(self, v: Val, to: CType, node, explicit: bool = False) -> Val:
        if to.is_atomic:  # initialising an atomic object (or parameter, result): its value type
            to = to.value
        src = v.type
        if src == to:
            if src.is_pointer and src is not to:
                return Val(to, v.id, v.value)
            return v
        if to == VOID:
            return Val(VOID, None)
        if to.is_vector:
            if src.is_vector:
                # §1.2.2: no casts between vector types (clang: ext-vector types).
                raise SemaError(f"invalid conversion between ext-vector type '{to}' and '{src}'"
                                if explicit else conversion_message("assigning to", src, to), node)
            if not src.is_arithmetic:
                raise SemaError(f"invalid conversion from '{src}' to '{to}'", node)
            e = self.convert(v, to.elem, node, explicit)
            if explicit and src == BOOL and to.elem.is_integer:  # §1.2.2: a cast of true gives -1
                e = self.const(to.elem, -e.value) if e.value is not None else \
                    Val(to.elem, self.op("OpSNegate", to.elem, e.id))
            if e.value is not None:
                return self.const(to, e.value)
            return Val(to, self.op("OpCompositeConstruct", to, [e.id] * to.n))
        if (isinstance(to, EventType) or getattr(to, "null_from_zero", False)) and is_null_event(v):
            return Val(to, self.b.constant_null(self.spv(to)), 0)
        if to.is_sampler and src.is_scalar and src.is_integer:  # §6.13.14.1: CLK_* flags make a sampler
            return self.constant_sampler(v, node)
        if to.is_pointer:
            if src.is_pointer:
                return self.pointer_cast(v, to, node, explicit)
            if src.is_block and explicit:  # (void *)b: the Generic pointer to b's literal
                if to.space != "generic":
                    raise not_supported(f"casting a block to '{to}'", node)
                return Val(to, self.op("OpBitcast", to, v.id))
            if src.is_integer:
                if v.value == 0:
                    return self.const(to, 0)
                wide = self.convert(v, ULONG, node)
                return Val(to, self.op("OpConvertUToPtr", to, wide.id))
            if src.is_array:
                return self.convert(self.decay(v), to, node, explicit)
            raise SemaError(f"invalid conversion from '{src}' to '{to}'", node)
        if src.is_pointer and to.is_scalar and to.is_integer:
            if to == BOOL:
                return Val(BOOL, self.to_bool(v, node))
            u = Val(ULONG, self.f.op("OpConvertPtrToU", self.b.type_int(64), v.id))
            return self.convert(u, to, node)
        if not (src.is_scalar and to.is_scalar) or src.is_void:
            raise SemaError(f"{'invalid conversion' if explicit else 'incompatible types'} from '{src}' to '{to}'"
                            if not src.is_record else f"operand of type '{src}' where arithmetic or pointer type "
                            "is required", node)
        if v.value is not None and not (src.is_float and not to.is_float and v.value != v.value):
            value = v.value
            if to == BOOL:
                return self.const(BOOL, bool(value))
            if to.is_float:  # rounded to the destination's precision, so later folding sees it
                return self.const(to, round_to_float(float(value), to.bits))
            if src.is_float:
                if value in (float("inf"), float("-inf")):
                    value = 0
                value = int(value)
            return self.const(to, int(value))
        return Val(to, self.scalar_convert(v.id, src, to))

    def scalar_convert(self, vid: int, src: Scalar, to: Scalar, rounding: str | None = None,
                       sat: bool = False, n: int = 1) -> int:
        """One conversion instruction (scalars or vectors of n), with the decorations of
        convert_<type>_sat_<mode>."""
        def ty(s):
            return self.spv(vector_of(s, n))
        if src.is_bool if hasattr(src, "is_bool") else False:
            if to.is_bool:
                return vid
            one = self.const(vector_of(to, n), 1).id
            zero = self.const(vector_of(to, n), 0).id
            return self.f.op("OpSelect", ty(to), vid, one, zero)
        if to.kind == "bool":
            zero = self.const(vector_of(src, n), 0).id
            return self.f.op("OpFUnordNotEqual" if src.is_float else "OpINotEqual", self.bool_type(n), vid, zero)
        if 16 in (src.bits, to.bits) and "float" in (src.kind, to.kind):
            self.uses_half_values = True
        if src.is_float and to.is_float:
            if src.bits == to.bits:
                return vid
            rid = self.f.op("OpFConvert", ty(to), vid)
        elif src.is_float:
            rid = self.f.op("OpConvertFToS" if to.signed else "OpConvertFToU", ty(to), vid)
        elif to.is_float:
            rid = self.f.op("OpConvertSToF" if src.signed else "OpConvertUToF", ty(to), vid)
        else:
            if sat and (src.signed != to.signed or src.bits > to.bits):
                rid = self.f.op("OpSatConvertSToU" if src.signed else "OpSatConvertUToS", ty(to), vid) \
                    if src.signed != to.signed and src.bits <= to.bits else None
                if rid is None:
                    # Saturate with clamps in the source type, then truncate (SPIR-V's
                    # SatConvert only changes signedness).
                    lo, hi = _limits(to)
                    slo, shi = _limits(src)
                    lo, hi = max(lo, slo), min(hi, shi)
                    vt = vector_of(src, n)
                    fn = "s_clamp" if src.signed else "u_clamp"
                    clamped = self.ext_inst(fn, vt, [vid, self.const(vt, lo).id, self.const(vt, hi).id])
                    return self.scalar_convert(clamped, src, to, n=n)
                return rid
            if src.bits == to.bits:
                return vid
            if to.bits < src.bits:
                rid = self.f.op("OpUConvert", ty(to), vid)
            else:
                rid = self.f.op("OpSConvert" if src.signed else "OpUConvert", ty(to), vid)
            return rid
        if sat and src.is_float and not to.is_float:
            self.b.decorate(rid, "SaturatedConversion")
        if rounding and (src.is_float or to.is_float) and not (
                to.is_float and src.is_float and to.bits > src.bits):
            if src.is_float and not to.is_float and rounding != "RTZ":
                # float→int rounds by rint/floor/ceil first: FPRoundingMode on FToS/FToU is
                # legal but the executor and peers agree on this form.
                pass
            self.b.decorate(rid, "FPRoundingMode", self.b.enum("FPRoundingMode", rounding))
        return rid

    def ext_inst(self, name: str, ctype: CType, args) -> int:
        return self.f.op("OpExtInst", self.spv(ctype), self.ext, self.b.ext_inst_number("OpenCL.std", name),
                         list(args))

    def pointer_cast(self, v: Val, to: Pointer, node, explicit: bool) -> Val:
        src = v.type
        if v.value == 0 and src.pointee.is_void:
            return self.const(to, 0)
        vid = v.id
        if src.space != to.space:
            if to.space == "generic" and src.space in ("global", "local", "private"):
                vid = self.f.op("OpPtrCastToGeneric", self.spv(Pointer(src.pointee, "generic")), vid)
            elif src.space == "generic" and explicit and to.space in ("global", "local", "private"):
                vid = self.f.op("OpGenericCastToPtr", self.spv(Pointer(src.pointee, to.space)), vid)
            else:
                raise SemaError(conversion_message("casting" if explicit else "assigning to", src, to, "space"),
                                node)
        if self.spv(Pointer(src.pointee, to.space)) != self.spv(to):
            vid = self.op("OpBitcast", to, vid)
        return Val(to, vid)

    def decay(self, v) -> Val:
        """An array lvalue (or an array-typed Val holding a pointer) → pointer to its first
        element."""
        t = v.type
        ptr = v.ptr if isinstance(v, LVal) else v.id
        space = v.space if isinstance(v, LVal) else "private"
        pt = Pointer(t.elem, space)
        zero = self.const(LONG, 0).id
        return Val(pt, self.op("OpPtrAccessChain", pt, ptr, zero, zero))

    # -- expression dispatch ----------------------------------------------------------------

    def expr(self, node, discard: bool = False) -> Val:
        kind = type(node).__name__
        if kind in ("Identifier", "Subscript", "Member") or (kind == "UnaryOp" and node.op == "*"):
            lv = self.lvalue(node)
            if isinstance(lv, Val):
                return lv
            if lv.type.is_array:
                return self.decay(lv)
            if lv.type.is_function:
                raise SemaError("function pointers are not allowed", node)
            self.check_half_load(lv, node)
            v = self.load(lv)
            v.origin = lv
            return v
        handler = getattr(self, "expr_" + kind, None)
        if handler is None:
            raise not_supported(f"expression '{kind}'", node)
        return handler(node)

    def check_half_load(self, lv, node) -> None:
        """§1.1.1: without cl_khr_fp16 a half is read only through vload_half (clang's error,
        located at the start of the expression as clang does)."""
        if self.is_half_valued(lv.type):
            raise SemaError(f"loading directly from pointer to type '__{lv.space} {lv.type}' requires "
                            "cl_khr_fp16. Use vector data load builtin functions instead", expr_start(node))

    def undeclared(self, name: str, node) -> SemaError:
        """"use of undeclared identifier" with clang's typo correction; a name that starts an
        expression statement is corrected more strictly (clang's non-delayed correction)."""
        loc = getattr(node, "loc", None)
        return undeclared(name, node, self.scope, statement_start=loc is not None and loc == self.statement_start)

    def lvalue(self, node, for_store=False):
        kind = type(node).__name__
        if kind == "Paren":
            return self.lvalue(node.expr, for_store)
        if kind == "Identifier":
            sym = self.scope.lookup(node.name)
            if sym is None:
                from .builtins import candidates
                if candidates(node.name, self.cl_std) is not None:
                    raise SemaError("builtin functions must be called", node)
                raise self.undeclared(node.name, node)
            if sym.kind == "enumconst":
                return self.const(sym.type, sym.value)
            if sym.kind in ("func", "overloads"):
                raise SemaError("function pointers are not allowed", node)
            if sym.kind == "typedef":
                raise SemaError(f"unexpected type name '{node.name}': expected expression", node)
            lv = self.captured(sym, node)  # a variable a block literal copies (blocks.py)
            if lv is not None:
                return lv
            if sym.type.is_opaque:  # an image or sampler names its value (a parameter, a constant sampler)
                v = Val(sym.type, sym.value)
                v.origin = LVal(sym.type, None, "private")  # an lvalue still, to the diagnostics
                return v
            return LVal(sym.type, sym.value, sym.space, const=sym.const)
        if kind == "UnaryOp" and node.op == "*":
            p = self.expr(node.operand)
            if p.type.is_pipe or p.type.is_block:   # (clang's wording for a pipe; §6.12.5 for a block)
                raise SemaError(f"invalid argument type '{p.type}' to unary expression", node)
            if not p.type.is_pointer:
                raise SemaError(f"indirection requires pointer operand ('{p.type}' invalid)", node)
            if p.type.pointee.is_void:
                raise SemaError("indirection of a 'void *' pointer", node)
            return LVal(p.type.pointee, p.id, p.type.space, const=p.type.const, volatile=p.type.volatile)
        if kind == "Subscript":
            return self.subscript(node)
        if kind == "Member":
            return self.member(node)
        if kind == "CompoundLiteral":
            return self.compound_literal(node)
        # Any other expression of record type: materialise it in a temporary.
        v = self.expr(node)
        if for_store:
            return v  # not an lvalue: the caller reports it at its operator, as clang does
        if v.type.is_record or v.type.is_vector:
            tmp = self.f.variable(self.ptr_type(v.type, "private"))
            self.f.op("OpStore", None, tmp, v.id)
            return LVal(v.type, tmp, "private")
        return v

    def subscript(self, node):
        base_node, index_node = node.base, node.index
        base = self.lvalue(base_node) if not isinstance(base_node, ast.Paren) else self.lvalue(base_node.expr)
        if isinstance(base, LVal) and base.type.is_vector and base.swizzle is None:
            idx = self.convert(self.expr(index_node), INT, index_node)
            ptr = self.f.op("OpInBoundsAccessChain", self.ptr_type(base.type.elem, base.space), base.ptr, idx.id)
            return LVal(base.type.elem, ptr, base.space, const=base.const, volatile=base.volatile)
        if isinstance(base, LVal) and base.type.is_array:
            idx = self.expr(index_node)
            if not idx.type.is_integer or not idx.type.is_scalar:
                raise SemaError("array subscript is not an integer", index_node)
            i64 = self.convert(idx, LONG, index_node)
            pt = Pointer(base.type.elem, base.space)
            ptr = self.op("OpAccessChain", pt, base.ptr, i64.id)
            return LVal(base.type.elem, ptr, base.space, const=base.const, volatile=base.volatile)
        b = base if isinstance(base, Val) else (self.decay(base) if base.type.is_array else self.load(base))
        idx = self.expr(index_node)
        if not b.type.is_pointer and idx.type.is_pointer:
            b, idx = idx, b
        if b.type.is_vector:
            i = self.convert(idx, INT, index_node)
            return Val(b.type.elem, self.op("OpVectorExtractDynamic", b.type.elem, b.id, i.id))
        if not b.type.is_pointer:
            raise SemaError("subscripted value is not an array, pointer, or vector", node)
        if not (idx.type.is_scalar and idx.type.is_integer):
            raise SemaError("array subscript is not an integer", index_node)
        p = self.pointer_add(b, idx, node)
        return LVal(p.type.pointee, p.id, p.type.space, const=p.type.const, volatile=p.type.volatile)

    def pointer_add(self, p: Val, idx: Val, node, negate=False) -> Val:
        if p.type.pointee.is_void or p.type.pointee.is_function:
            raise SemaError("arithmetic on a pointer to void", node)
        i = self.convert(idx, LONG, node)
        iid = i.id
        if negate:
            iid = self.op("OpSNegate", LONG, iid)
        return Val(p.type, self.op("OpPtrAccessChain", p.type, p.id, iid))

    def member(self, node):
        if node.arrow:
            p = self.expr(node.base)
            if not p.type.is_pointer:
                raise SemaError(f"member reference type '{p.type}' is not a pointer; did you mean to use '.'?", node)
            base = LVal(p.type.pointee, p.id, p.type.space, const=p.type.const, volatile=p.type.volatile)
        else:
            base = self.lvalue(node.base)
        t = base.type
        at_op = _AtOperator(node)
        if t.is_vector:
            idx = swizzle_indices(node.name, t, at_op, self.cl_std)
            if isinstance(base, Val):
                return self.shuffle(base, idx)
            if base.swizzle is not None:
                idx = [base.swizzle[i] for i in idx]
                t_base = base.type_base
            else:
                t_base = t
            # (repeated components are fine in an rvalue; an assignment checks for them)
            lv = LVal(vector_of(t.elem, len(idx)), base.ptr, base.space, idx, base.const)
            lv.type_base = t_base
            return lv
        if not t.is_record:
            raise SemaError(f"member reference base type '{t}' is not a structure or union", at_op)
        if not t.complete:
            raise SemaError(f"incomplete definition of type '{t}'", node)
        path = t.field_path(node.name)
        if path is None:
            message = f"no member named '{node.name}' in '{t}'"
            decls = {f.name: f for f in getattr(getattr(t, "node", None), "fields", None) or () if f.name}
            best = correct(node.name, decls)
            if best is None:
                raise SemaError(message, node)
            raise did_you_mean(message, node.name, best, node, decls[best])
        for i, ft, off in path:  # more than one step through unnamed members
            if isinstance(base, Val):
                if t.kind != "struct":
                    return None
                base = Val(ft, self.op("OpCompositeExtract", ft, base.id, i))
            else:
                if t.kind == "union":
                    ptr = self.f.op("OpBitcast", self.ptr_type(ft, base.space), base.ptr)
                else:
                    ptr = self.f.op("OpInBoundsAccessChain", self.ptr_type(ft, base.space), base.ptr, self.u32(i))
                base = LVal(ft, ptr, base.space, const=base.const, volatile=base.volatile)
            t = ft
        return base

    # -- leaves -----------------------------------------------------------------------------

    def expr_IntegerLiteral(self, node) -> Val:
        return self.const(_LITERAL_TYPES.get(node.type, INT), node.value)

    def expr_CharLiteral(self, node) -> Val:
        return self.const(INT, node.value)

    def expr_FloatLiteral(self, node) -> Val:
        t = _LITERAL_TYPES.get(node.type, DOUBLE)
        if self.is_half_valued(t):
            raise SemaError("half precision constant requires cl_khr_fp16", node)
        if t == DOUBLE and not self.fp64:
            self.warn("double precision constant requires cl_khr_fp64, casting to single precision", node)
        if t == DOUBLE and (self.single_precision_constants or not self.fp64):   # -cl-single-precision-constant
            return self.const(FLOAT, round_float(node.value, 32))  # inf past FLT_MAX, as in clang
        return self.const(t, node.value)

    def expr_StringLiteral(self, node) -> Val:
        data = node.value.encode("utf-8", "surrogateescape") if isinstance(node.value, str) else bytes(node.value)
        data += b"\0"
        t = Array(CHAR, len(data))
        init = self.b.constant_composite(self.spv(t, True), [self.const(CHAR, c).id for c in data])
        var = self.b.global_variable(self.ptr_type(t, "constant"), "UniformConstant", init)
        self.b.decorate(var, "Constant")
        self.module_vars.append(var)
        return self.decay(LVal(t, var, "constant"))

    def expr_Paren(self, node) -> Val:
        return self.expr(node.expr)

    def expr_TypeTrait(self, node) -> Val:
        arg = node.arg
        if isinstance(arg, ast.TypeName):
            t, _ = self.types.declarator(arg.type, self.scope)
        elif isinstance(arg, ast.StringLiteral) or (isinstance(arg, ast.Paren) and
                                                    isinstance(arg.expr, ast.StringLiteral)):
            lit = arg if isinstance(arg, ast.StringLiteral) else arg.expr  # an array, not a pointer
            t = Array(CHAR, len(literal_bytes(lit.value)) + 1)
        else:
            t = self.type_of(arg)
        if node.op == "vec_step":
            if not (t.is_scalar or t.is_vector) or t.is_void:
                raise SemaError(f"'vec_step' requires built-in scalar or vector type, '{t}' invalid", node)
            return self.const(INT, 4 if t.width == 3 else t.width)
        where = node if isinstance(arg, ast.TypeName) else arg  # clang: at an expression operand
        if t.is_void:  # 1 in GNU C; an error in OpenCL C (clang: -pedantic-errors is implied)
            raise SemaError(f"invalid application of '{node.op}' to a void type", where)
        if t.is_function:
            raise SemaError("invalid application of 'sizeof' to a function type", where)
        return self.const(SIZE_T, t.size if node.op == "sizeof" else t.align)

    def type_of(self, node) -> CType:
        """The type of an expression without emitting it (sizeof): emitted into a scratch
        function that is thrown away."""
        while isinstance(node, ast.Paren):
            node = node.expr
        saved_f = self.f
        from ..spirv.builder import FunctionBuilder
        scratch = FunctionBuilder(self.b, self.b.type_void(), [], "None", None)
        self.f = scratch
        first_id = self.b._next_id
        marks = {s: len(insts) for s, insts in self.b.sections.items()}
        try:
            # An lvalue operand is not loaded (so sizeof(*p) of a half *p needs no cl_khr_fp16).
            is_lvalue = isinstance(node, (ast.Identifier, ast.Subscript, ast.Member)) or (
                isinstance(node, ast.UnaryOp) and node.op == "*")
            lv = self.lvalue(node) if is_lvalue else self.expr(node)
            return lv.type
        finally:
            self.f = saved_f
            self._forget_scratch_references(first_id, marks)

    def _forget_scratch_references(self, first_id: int, marks: dict) -> None:
        """Drops the decorations and names that the thrown-away scratch function's values got
        (e.g. SaturatedConversion on a convert_*_sat inside sizeof); those of module-level
        declarations made meanwhile (types, constants, built-in variables) stay."""
        grammar = self.b.grammar
        declared = set()
        for section, insts in self.b.sections.items():
            if section in ("annotations", "debug_names", "functions"):
                continue
            for words in insts[marks[section]:]:
                desc = grammar.instruction(words[0] & 0xFFFF)
                if desc is not None and desc.has_result:
                    declared.add(words[2] if desc.has_type else words[1])
        for section in ("annotations", "debug_names"):
            insts = self.b.sections[section]
            insts[marks[section]:] = [w for w in insts[marks[section]:]
                                      if len(w) < 2 or w[1] < first_id or w[1] in declared]


def expr_start(node):
    """The node whose location is the first token of expression ``node`` (clang's begin
    location): the base of a subscript or member access, the left operand of a binary
    operator, the operand of a postfix operator."""
    while True:
        k = type(node).__name__
        if k in ("Subscript", "Member"):
            node = node.base
        elif k in ("BinaryOp", "Assignment"):
            node = node.lhs
        elif k == "UnaryOp" and node.postfix:
            node = node.operand
        elif k == "Conditional":
            node = node.cond
        elif k == "Call":
            node = node.func
        else:
            return node
