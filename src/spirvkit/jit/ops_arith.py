"""Arithmetic, bit, relational and logical instructions.

Where LLVM's instruction has undefined behaviour that SPIR-V does not (integer division by
zero and INT_MIN / -1 trap on x86; shifts by the bit width or more are poison), the operands are
made safe first: a kernel that divides by zero gets an unspecified value, never a crashed
process. Floating-point operations carry no fast-math flags, so nothing is ever contracted or
reassociated (``ContractionOff`` holds trivially; ``mad`` is the place contraction is allowed).
"""

from __future__ import annotations

from llvmlite import ir

from .function import I1, FunctionLowering, Ptr, handles
from .intrinsics import intrinsic


def _operands(fl: FunctionLowering, inst, count: int):
    return [fl.value(i) for i in inst.words[3:3 + count]]


def _splat(b: ir.IRBuilder, value: ir.Value, like: ir.Type) -> ir.Value:
    """A scalar broadcast to a vector type (or the value itself if already a vector)."""
    if not isinstance(like, ir.VectorType) or isinstance(value.type, ir.VectorType):
        return value
    undef = ir.Constant(ir.VectorType(value.type, 1), None)
    one = b.insert_element(undef, value, ir.Constant(ir.IntType(32), 0))
    return b.shuffle_vector(one, undef, ir.Constant(ir.VectorType(ir.IntType(32), like.count), None))


def constant_like(ty: ir.Type, value) -> ir.Constant:
    """A constant of ``ty`` (a scalar or a vector of it) with every lane equal to ``value``."""
    scalar = ty.element if isinstance(ty, ir.VectorType) else ty
    if isinstance(scalar, ir.HalfType) and isinstance(value, float) and abs(value) > 65504.0:
        value = float("inf") if value > 0 else float("-inf")   # rounds to infinity in half
    if isinstance(ty, ir.VectorType):
        return ir.Constant(ty, [ir.Constant(ty.element, value)] * ty.count)
    return ir.Constant(ty, value)


_SIMPLE = {
    "OpIAdd": "add", "OpISub": "sub", "OpIMul": "mul",
    "OpFAdd": "fadd", "OpFSub": "fsub", "OpFMul": "fmul", "OpFDiv": "fdiv", "OpFRem": "frem",
    "OpBitwiseOr": "or_", "OpBitwiseXor": "xor", "OpBitwiseAnd": "and_",
    "OpLogicalOr": "or_", "OpLogicalAnd": "and_",
}


@handles(*_SIMPLE)
def lower_simple_binary(fl: FunctionLowering, inst) -> None:
    a, b = _operands(fl, inst, 2)
    fl.set(inst.words[2], getattr(fl.builder, _SIMPLE[inst.opname])(a, b))


@handles("OpSNegate")
def lower_snegate(fl, inst):
    (a,) = _operands(fl, inst, 1)
    fl.set(inst.words[2], fl.builder.sub(constant_like(a.type, 0), a))


@handles("OpFNegate")
def lower_fnegate(fl, inst):
    (a,) = _operands(fl, inst, 1)
    fl.set(inst.words[2], fl.builder.fneg(a))


@handles("OpNot")
def lower_not(fl, inst):
    (a,) = _operands(fl, inst, 1)
    fl.set(inst.words[2], fl.builder.not_(a))


@handles("OpLogicalNot")
def lower_logical_not(fl, inst):
    (a,) = _operands(fl, inst, 1)
    fl.set(inst.words[2], fl.builder.not_(a))


def _safe_divisor(b: ir.IRBuilder, a: ir.Value, d: ir.Value, signed: bool) -> ir.Value:
    """The divisor with the trapping cases replaced: 0 -> 1, and for signed division -1 -> 1
    (the caller fixes the quotient for -1 itself)."""
    zero = b.icmp_unsigned("==", d, constant_like(d.type, 0))
    if signed:
        zero = b.or_(zero, b.icmp_signed("==", d, constant_like(d.type, -1)))
    return b.select(zero, constant_like(d.type, 1), d)


@handles("OpUDiv", "OpUMod")
def lower_unsigned_division(fl, inst):
    a, d = _operands(fl, inst, 2)
    b = fl.builder
    safe = _safe_divisor(b, a, d, signed=False)
    fl.set(inst.words[2], b.udiv(a, safe) if inst.opname == "OpUDiv" else b.urem(a, safe))


@handles("OpSDiv", "OpSRem", "OpSMod")
def lower_signed_division(fl, inst):
    a, d = _operands(fl, inst, 2)
    b = fl.builder
    minus_one = b.icmp_signed("==", d, constant_like(d.type, -1))
    safe = _safe_divisor(b, a, d, signed=True)
    if inst.opname == "OpSDiv":
        # x / -1 == -x (wrapping for INT_MIN), computed without the trapping idiv.
        result = b.select(minus_one, b.sub(constant_like(a.type, 0), a), b.sdiv(a, safe))
    else:
        rem = b.srem(a, safe)
        if inst.opname == "OpSMod":   # the result takes the sign of the divisor
            zero = constant_like(a.type, 0)
            differ = b.icmp_signed("<", b.xor(rem, d), zero)
            adjust = b.and_(differ, b.icmp_unsigned("!=", rem, zero))
            rem = b.select(adjust, b.add(rem, d), rem)
        result = b.select(minus_one, constant_like(a.type, 0), rem)
    fl.set(inst.words[2], result)


@handles("OpFMod")
def lower_fmod(fl, inst):
    a, d = _operands(fl, inst, 2)
    b = fl.builder
    rem = b.frem(a, d)
    zero = constant_like(a.type, 0.0)
    sign_differs = b.xor(b.fcmp_ordered("<", rem, zero), b.fcmp_ordered("<", d, zero))
    adjust = b.and_(sign_differs, b.fcmp_ordered("!=", rem, zero))
    fl.set(inst.words[2], b.select(adjust, b.fadd(rem, d), rem))


def _shift_amount(b: ir.IRBuilder, base: ir.Value, amount: ir.Value) -> ir.Value:
    """The shift count resized to the base's width and taken modulo the width (OpenCL's rule;
    SPIR-V leaves larger counts undefined and LLVM would make them poison)."""
    bt, at = base.type, amount.type
    bw = (bt.element if isinstance(bt, ir.VectorType) else bt).width
    aw = (at.element if isinstance(at, ir.VectorType) else at).width
    if aw > bw:
        amount = b.trunc(amount, bt if not isinstance(at, ir.VectorType) else ir.VectorType(bt.element, at.count))
    elif aw < bw:
        amount = b.zext(amount, bt if not isinstance(at, ir.VectorType) else ir.VectorType(bt.element, at.count))
    amount = _splat(b, amount, bt)
    return b.and_(amount, constant_like(bt, bw - 1))


@handles("OpShiftLeftLogical", "OpShiftRightLogical", "OpShiftRightArithmetic")
def lower_shift(fl, inst):
    base, amount = _operands(fl, inst, 2)
    b = fl.builder
    amount = _shift_amount(b, base, amount)
    op = {"OpShiftLeftLogical": b.shl, "OpShiftRightLogical": b.lshr, "OpShiftRightArithmetic": b.ashr}
    fl.set(inst.words[2], op[inst.opname](base, amount))


@handles("OpVectorTimesScalar")
def lower_vector_times_scalar(fl, inst):
    v, s = _operands(fl, inst, 2)
    fl.set(inst.words[2], fl.builder.fmul(v, _splat(fl.builder, s, v.type)))


@handles("OpDot")
def lower_dot(fl, inst):
    x, y = _operands(fl, inst, 2)
    b = fl.builder
    prod = b.fmul(x, y)
    total = b.extract_element(prod, ir.Constant(ir.IntType(32), 0))
    for i in range(1, x.type.count):
        total = b.fadd(total, b.extract_element(prod, ir.Constant(ir.IntType(32), i)))
    fl.set(inst.words[2], total)


def _widen(ty: ir.Type, factor: int = 2) -> ir.Type:
    if isinstance(ty, ir.VectorType):
        return ir.VectorType(ir.IntType(ty.element.width * factor), ty.count)
    return ir.IntType(ty.width * factor)


@handles("OpIAddCarry", "OpISubBorrow", "OpUMulExtended", "OpSMulExtended")
def lower_extended(fl, inst):
    a, c = _operands(fl, inst, 2)
    b = fl.builder
    ty = a.type
    width = (ty.element if isinstance(ty, ir.VectorType) else ty).width
    wide = _widen(ty)
    if inst.opname in ("OpIAddCarry", "OpISubBorrow"):
        low = b.add(a, c) if inst.opname == "OpIAddCarry" else b.sub(a, c)
        flag = b.icmp_unsigned("<", low, a) if inst.opname == "OpIAddCarry" else b.icmp_unsigned("<", a, c)
        high = b.zext(flag, ty)
    else:
        ext = b.sext if inst.opname == "OpSMulExtended" else b.zext
        product = b.mul(ext(a, wide), ext(c, wide))
        low = b.trunc(product, ty)
        high = b.trunc(b.lshr(product, constant_like(wide, width)), ty)
    result_t = fl.type(inst.words[1]).llvm
    agg = b.insert_value(ir.Constant(result_t, None), low, 0)
    fl.set(inst.words[2], b.insert_value(agg, high, 1))


@handles("OpBitReverse")
def lower_bit_reverse(fl, inst):
    (a,) = _operands(fl, inst, 1)
    fn = intrinsic(fl.ml.llvm, "llvm.bitreverse", a.type, [a.type])
    fl.set(inst.words[2], fl.builder.call(fn, [a]))


@handles("OpBitCount")
def lower_bit_count(fl, inst):
    (a,) = _operands(fl, inst, 1)
    b = fl.builder
    count = b.call(intrinsic(fl.ml.llvm, "llvm.ctpop", a.type, [a.type]), [a])
    fl.set(inst.words[2], _resize_int(b, count, fl.type(inst.words[1]).llvm))


def _resize_int(b: ir.IRBuilder, value: ir.Value, ty: ir.Type) -> ir.Value:
    vw = (value.type.element if isinstance(value.type, ir.VectorType) else value.type).width
    tw = (ty.element if isinstance(ty, ir.VectorType) else ty).width
    if vw == tw:
        return value
    return b.trunc(value, ty) if vw > tw else b.zext(value, ty)


def _bit_mask(b, offset, count, ty):
    """((1 << count) - 1) << offset, with count == width giving all ones."""
    width = (ty.element if isinstance(ty, ir.VectorType) else ty).width
    ones = constant_like(ty, -1)
    # ones >> (width - count), done in two steps so count == 0 works without a full-width shift.
    shift = b.sub(constant_like(ty, width), count)
    full = b.icmp_unsigned(">=", shift, constant_like(ty, width))
    mask = b.select(full, constant_like(ty, 0), b.lshr(ones, b.select(full, constant_like(ty, 0), shift)))
    return b.shl(mask, offset)


def _field_operands(fl, inst, first: int):
    b = fl.builder
    base = fl.value(inst.words[first])
    offset = _splat(b, _resize_int(b, fl.value(inst.words[first + 1]), base.type.element
                                   if isinstance(base.type, ir.VectorType) else base.type), base.type)
    count = _splat(b, _resize_int(b, fl.value(inst.words[first + 2]), base.type.element
                                  if isinstance(base.type, ir.VectorType) else base.type), base.type)
    return base, offset, count


@handles("OpBitFieldInsert")
def lower_bit_field_insert(fl, inst):
    b = fl.builder
    base = fl.value(inst.words[3])
    insert = fl.value(inst.words[4])
    scalar = base.type.element if isinstance(base.type, ir.VectorType) else base.type
    offset = _splat(b, _resize_int(b, fl.value(inst.words[5]), scalar), base.type)
    count = _splat(b, _resize_int(b, fl.value(inst.words[6]), scalar), base.type)
    mask = _bit_mask(b, offset, count, base.type)
    shifted = b.and_(b.shl(insert, offset), mask)
    fl.set(inst.words[2], b.or_(b.and_(base, b.not_(mask)), shifted))


@handles("OpBitFieldUExtract", "OpBitFieldSExtract")
def lower_bit_field_extract(fl, inst):
    b = fl.builder
    base, offset, count = _field_operands(fl, inst, 3)
    ty = base.type
    width = (ty.element if isinstance(ty, ir.VectorType) else ty).width
    # Move the field to the top, then shift it down (arithmetically for the signed form).
    up = b.sub(constant_like(ty, width), b.add(offset, count))
    empty = b.icmp_unsigned("==", count, constant_like(ty, 0))
    top = b.shl(base, b.and_(up, constant_like(ty, width - 1)))
    down = b.and_(b.sub(constant_like(ty, width), count), constant_like(ty, width - 1))
    field = b.ashr(top, down) if inst.opname == "OpBitFieldSExtract" else b.lshr(top, down)
    fl.set(inst.words[2], b.select(empty, constant_like(ty, 0), field))


_ICMP = {
    "OpIEqual": ("u", "=="), "OpINotEqual": ("u", "!="),
    "OpUGreaterThan": ("u", ">"), "OpUGreaterThanEqual": ("u", ">="),
    "OpULessThan": ("u", "<"), "OpULessThanEqual": ("u", "<="),
    "OpSGreaterThan": ("s", ">"), "OpSGreaterThanEqual": ("s", ">="),
    "OpSLessThan": ("s", "<"), "OpSLessThanEqual": ("s", "<="),
    "OpLogicalEqual": ("u", "=="), "OpLogicalNotEqual": ("u", "!="),
}
_FCMP = {
    "OpFOrdEqual": ("o", "=="), "OpFUnordEqual": ("u", "=="),
    "OpFOrdNotEqual": ("o", "!="), "OpFUnordNotEqual": ("u", "!="),
    "OpFOrdLessThan": ("o", "<"), "OpFUnordLessThan": ("u", "<"),
    "OpFOrdGreaterThan": ("o", ">"), "OpFUnordGreaterThan": ("u", ">"),
    "OpFOrdLessThanEqual": ("o", "<="), "OpFUnordLessThanEqual": ("u", "<="),
    "OpFOrdGreaterThanEqual": ("o", ">="), "OpFUnordGreaterThanEqual": ("u", ">="),
    "OpLessOrGreater": ("o", "!="), "OpOrdered": ("o", "ord"), "OpUnordered": ("u", "uno"),
}


@handles(*_ICMP)
def lower_icmp(fl, inst):
    a, c = _operands(fl, inst, 2)
    kind, op = _ICMP[inst.opname]
    b = fl.builder
    fl.set(inst.words[2], b.icmp_signed(op, a, c) if kind == "s" else b.icmp_unsigned(op, a, c))


@handles(*_FCMP)
def lower_fcmp(fl, inst):
    a, c = _operands(fl, inst, 2)
    kind, op = _FCMP[inst.opname]
    b = fl.builder
    fl.set(inst.words[2], b.fcmp_ordered(op, a, c) if kind == "o" else b.fcmp_unordered(op, a, c))


@handles("OpIsNan", "OpIsInf", "OpIsFinite", "OpIsNormal", "OpSignBitSet")
def lower_float_class(fl, inst):
    (x,) = _operands(fl, inst, 1)
    b = fl.builder
    ty = x.type
    scalar = ty.element if isinstance(ty, ir.VectorType) else ty
    width = {ir.HalfType: 16, ir.FloatType: 32, ir.DoubleType: 64}[type(scalar)]
    mantissa = {16: 10, 32: 23, 64: 52}[width]
    int_t = ir.VectorType(ir.IntType(width), ty.count) if isinstance(ty, ir.VectorType) else ir.IntType(width)
    bits = b.bitcast(x, int_t)
    magnitude = b.and_(bits, constant_like(int_t, (1 << (width - 1)) - 1))
    exp_all = ((1 << (width - 1)) - 1) >> mantissa << mantissa
    name = inst.opname
    if name == "OpIsNan":
        r = b.icmp_unsigned(">", magnitude, constant_like(int_t, exp_all))
    elif name == "OpIsInf":
        r = b.icmp_unsigned("==", magnitude, constant_like(int_t, exp_all))
    elif name == "OpIsFinite":
        r = b.icmp_unsigned("<", magnitude, constant_like(int_t, exp_all))
    elif name == "OpIsNormal":
        exponent = b.lshr(magnitude, constant_like(int_t, mantissa))
        max_exp = exp_all >> mantissa
        r = b.and_(b.icmp_unsigned("!=", exponent, constant_like(int_t, 0)),
                   b.icmp_unsigned("!=", exponent, constant_like(int_t, max_exp)))
    else:
        r = b.icmp_signed("<", bits, constant_like(int_t, 0))
    fl.set(inst.words[2], r)


@handles("OpAny", "OpAll")
def lower_any_all(fl, inst):
    (v,) = _operands(fl, inst, 1)
    b = fl.builder
    if not isinstance(v.type, ir.VectorType):
        fl.set(inst.words[2], v)
        return
    name = "llvm.vector.reduce.or" if inst.opname == "OpAny" else "llvm.vector.reduce.and"
    fn = intrinsic(fl.ml.llvm, name, I1, [v.type], overloads=[v.type])
    fl.set(inst.words[2], b.call(fn, [v]))


@handles("OpSelect")
def lower_select(fl, inst):
    w = inst.words
    cond = fl.value(w[3])
    a, c = fl.get(w[4]), fl.get(w[5])
    b = fl.builder
    if isinstance(a, Ptr) or isinstance(c, Ptr):
        a, c = fl.pointer(w[4]), fl.pointer(w[5])
        if fl.checked:
            parts = [b.select(cond, x, y) for x, y in zip((a.addr, a.base, a.end), (c.addr, c.base, c.end))]
            fl.set(w[2], Ptr(*parts))
        else:
            fl.set(w[2], Ptr(b.select(cond, a.addr, c.addr)))
        return
    fl.set(w[2], b.select(cond, a, c))

