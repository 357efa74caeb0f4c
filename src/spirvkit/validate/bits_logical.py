"""Bit, relational and logical instructions (SPIR-V 3.32.14, 3.32.15): result and operand types
of shifts, bitwise ops, bit-field ops, the float classifications and comparisons, the integer
comparisons, the logical ops and OpSelect."""

from __future__ import annotations

from . import opcodes as op

SEC_BIT = "SPIR-V 3.32.14"
SEC_REL = "SPIR-V 3.32.15"


def _n(inst) -> str:
    return inst.opname[2:]


def _err(ctx, inst, message, section=SEC_BIT, rule="bits.operand-type") -> None:
    ctx.error(rule, section, message, inst)


# -- bit instructions ---------------------------------------------------------------------------

def _shift(ctx, inst) -> None:
    rtype = inst.words[1]
    if not ctx.is_int_scalar_or_vector(rtype):
        _err(ctx, inst, f"Expected int scalar or vector type as Result Type: {_n(inst)}", rule="bits.result-type")
        return
    base, shift = ctx.type_of(inst.words[3]), ctx.type_of(inst.words[4])
    if not ctx.is_int_scalar_or_vector(base):
        _err(ctx, inst, f"Expected Base to be int scalar or vector: {_n(inst)}")
    elif ctx.dimension(base) != ctx.dimension(rtype):
        _err(ctx, inst, f"Expected Base to have the same dimension as Result Type: {_n(inst)}")
    elif ctx.bit_width(base) != ctx.bit_width(rtype):
        _err(ctx, inst, f"Expected Base to have the same bit width as Result Type: {_n(inst)}")
    elif not ctx.is_int_scalar_or_vector(shift):
        _err(ctx, inst, f"Expected Shift to be int scalar or vector: {_n(inst)}")
    elif ctx.dimension(shift) != ctx.dimension(rtype):
        _err(ctx, inst, f"Expected Shift to have the same dimension as Result Type: {_n(inst)}")


def _bitwise(ctx, inst) -> None:
    rtype = inst.words[1]
    if not ctx.is_int_scalar_or_vector(rtype):
        _err(ctx, inst, f"Expected int scalar or vector type as Result Type: {_n(inst)}", rule="bits.result-type")
        return
    for index, v in enumerate(inst.words[3:], start=2):
        t = ctx.type_of(v)
        if not ctx.is_int_scalar_or_vector(t):
            _err(ctx, inst, f"Expected int scalar or vector as operand: {_n(inst)} operand index {index}")
            return
        if ctx.dimension(t) != ctx.dimension(rtype):
            _err(ctx, inst, f"Expected operands to have the same dimension as Result Type: {_n(inst)} operand "
                            f"index {index}")
            return
        if ctx.bit_width(t) != ctx.bit_width(rtype):
            _err(ctx, inst, f"Expected operands to have the same bit width as Result Type: {_n(inst)} operand "
                            f"index {index}")
            return


def _bit_field(ctx, inst) -> None:
    rtype = inst.words[1]
    if not ctx.is_int_scalar_or_vector(rtype):
        _err(ctx, inst, f"Expected Base Type to be equal to Result Type: {_n(inst)}", rule="bits.result-type")
        return
    if ctx.type_of(inst.words[3]) != rtype:
        _err(ctx, inst, f"Expected Base Type to be equal to Result Type: {_n(inst)}")
        return
    rest = inst.words[4:]
    if inst.opcode == op.BitFieldInsert:
        if ctx.type_of(rest[0]) != rtype:
            _err(ctx, inst, f"Expected Insert Type to be equal to Result Type: {_n(inst)}")
            return
        rest = rest[1:]
    for what, v in zip(("Offset", "Count"), rest):
        if not ctx.is_int_scalar(ctx.type_of(v)):
            _err(ctx, inst, f"Expected {what} Type to be int scalar: {_n(inst)}")
            return


def _bit_reverse(ctx, inst) -> None:
    rtype = inst.words[1]
    if not ctx.is_int_scalar_or_vector(rtype):
        _err(ctx, inst, f"Expected int scalar or vector type as Result Type: {_n(inst)}", rule="bits.result-type")
    elif ctx.type_of(inst.words[3]) != rtype:
        _err(ctx, inst, f"Expected Base Type to be equal to Result Type: {_n(inst)}")


def _bit_count(ctx, inst) -> None:
    rtype = inst.words[1]
    base = ctx.type_of(inst.words[3])
    if not ctx.is_int_scalar_or_vector(rtype):
        _err(ctx, inst, f"Expected int scalar or vector type as Result Type: {_n(inst)}", rule="bits.result-type")
    elif not ctx.is_int_scalar_or_vector(base):
        _err(ctx, inst, f"Expected Base Type to be int scalar or vector: {_n(inst)}")
    elif ctx.dimension(base) != ctx.dimension(rtype):
        _err(ctx, inst, f"Expected Base dimension to be equal to Result Type dimension: {_n(inst)}")


# -- relational and logical -----------------------------------------------------------------------

def _rel(ctx, inst, message, rule="logical.operand-type") -> None:
    ctx.error(rule, SEC_REL, message, inst)


def _any_all(ctx, inst) -> None:
    if not ctx.is_bool_scalar(inst.words[1]):
        _rel(ctx, inst, f"Expected bool scalar type as Result Type: {_n(inst)}", "logical.result-type")
    elif not ctx.is_bool_vector(ctx.type_of(inst.words[3])):
        _rel(ctx, inst, f"Expected operand to be vector bool: {_n(inst)}")


def _bool_result(ctx, inst) -> bool:
    if ctx.is_bool_scalar_or_vector(inst.words[1]):
        return True
    _rel(ctx, inst, f"Expected bool scalar or vector type as Result Type: {_n(inst)}", "logical.result-type")
    return False


def _float_class(ctx, inst) -> None:
    if not _bool_result(ctx, inst):
        return
    t = ctx.type_of(inst.words[3])
    if not ctx.is_float_scalar_or_vector(t):
        _rel(ctx, inst, f"Expected operand to be scalar or vector float: {_n(inst)}")
    elif ctx.dimension(t) != ctx.dimension(inst.words[1]):
        _rel(ctx, inst, f"Expected vector sizes of Result Type and the operand to be equal: {_n(inst)}")


def _float_compare(ctx, inst) -> None:
    if not _bool_result(ctx, inst):
        return
    left, right = ctx.type_of(inst.words[3]), ctx.type_of(inst.words[4])
    if not ctx.is_float_scalar_or_vector(left):
        _rel(ctx, inst, f"Expected operands to be scalar or vector float: {_n(inst)}")
    elif ctx.dimension(left) != ctx.dimension(inst.words[1]):
        _rel(ctx, inst, f"Expected vector sizes of Result Type and the operands to be equal: {_n(inst)}")
    elif left != right:
        _rel(ctx, inst, f"Expected left and right operands to have the same type: {_n(inst)}")


def _int_compare(ctx, inst) -> None:
    if not _bool_result(ctx, inst):
        return
    left, right = ctx.type_of(inst.words[3]), ctx.type_of(inst.words[4])
    for t in (left, right):
        if not ctx.is_int_scalar_or_vector(t) and not (ctx.is_pointer(t) and inst.opcode in _POINTER_COMPARES):
            _rel(ctx, inst, f"Expected operands to be scalar or vector int: {_n(inst)}")
            return
        if ctx.dimension(t) != ctx.dimension(inst.words[1]):
            _rel(ctx, inst, f"Expected vector sizes of Result Type and the operands to be equal: {_n(inst)}")
            return
    if ctx.bit_width(left) != ctx.bit_width(right):
        _rel(ctx, inst, f"Expected both operands to have the same component bit width: {_n(inst)}")


_POINTER_COMPARES = frozenset()


def _logical_binary(ctx, inst) -> None:
    if not _bool_result(ctx, inst):
        return
    if ctx.type_of(inst.words[3]) != inst.words[1] or ctx.type_of(inst.words[4]) != inst.words[1]:
        _rel(ctx, inst, f"Expected both operands to be of Result Type: {_n(inst)}")


def _logical_not(ctx, inst) -> None:
    if not _bool_result(ctx, inst):
        return
    if ctx.type_of(inst.words[3]) != inst.words[1]:
        _rel(ctx, inst, f"Expected operand to be of Result Type: {_n(inst)}")


def _select(ctx, inst) -> None:
    rtype = inst.words[1]
    opc = ctx.type_opcode(rtype)
    composite_ok = ctx.version >= (1, 4)
    scalar_or_vector = opc in (op.TypeInt, op.TypeFloat, op.TypeBool, op.TypeVector)
    if opc is None or opc == op.TypeVoid or (not scalar_or_vector and opc != op.TypePointer and not composite_ok):
        _rel(ctx, inst, "Expected scalar or vector type as Result Type: Select", "logical.result-type")
        return
    cond = ctx.type_of(inst.words[3])
    if not ctx.is_bool_scalar_or_vector(cond):
        _rel(ctx, inst, "Expected bool scalar or vector type as condition: Select")
        return
    if ctx.is_bool_vector(cond) or (ctx.version < (1, 4) and opc == op.TypeVector):
        if ctx.dimension(cond) != ctx.dimension(rtype) or opc != op.TypeVector and ctx.is_bool_vector(cond):
            _rel(ctx, inst, "Expected vector sizes of Result Type and the condition to be equal: Select")
            return
    if ctx.type_of(inst.words[4]) != rtype or ctx.type_of(inst.words[5]) != rtype:
        _rel(ctx, inst, "Expected both objects to be of Result Type: Select")


_CHECKS = {
    op.ShiftRightLogical: _shift, op.ShiftRightArithmetic: _shift, op.ShiftLeftLogical: _shift,
    op.BitwiseOr: _bitwise, op.BitwiseXor: _bitwise, op.BitwiseAnd: _bitwise, op.Not: _bitwise,
    op.BitFieldInsert: _bit_field, op.BitFieldSExtract: _bit_field, op.BitFieldUExtract: _bit_field,
    op.BitReverse: _bit_reverse, op.BitCount: _bit_count,
    op.Any: _any_all, op.All: _any_all,
    op.IsNan: _float_class, op.IsInf: _float_class, op.IsFinite: _float_class, op.IsNormal: _float_class,
    op.SignBitSet: _float_class,
    op.LessOrGreater: _float_compare, op.Ordered: _float_compare, op.Unordered: _float_compare,
    op.LogicalEqual: _logical_binary, op.LogicalNotEqual: _logical_binary, op.LogicalOr: _logical_binary,
    op.LogicalAnd: _logical_binary, op.LogicalNot: _logical_not, op.Select: _select,
}
for _name in ("FOrdEqual", "FUnordEqual", "FOrdNotEqual", "FUnordNotEqual", "FOrdLessThan", "FUnordLessThan",
              "FOrdGreaterThan", "FUnordGreaterThan", "FOrdLessThanEqual", "FUnordLessThanEqual",
              "FOrdGreaterThanEqual", "FUnordGreaterThanEqual"):
    _CHECKS[getattr(op, _name)] = _float_compare
for _name in ("IEqual", "INotEqual", "UGreaterThan", "SGreaterThan", "UGreaterThanEqual", "SGreaterThanEqual",
              "ULessThan", "SLessThan", "ULessThanEqual", "SLessThanEqual"):
    _CHECKS[getattr(op, _name)] = _int_compare


def check(ctx) -> None:
    checks = _CHECKS
    for inst in ctx.instructions_of(checks):
        checks[inst.opcode](ctx, inst)
