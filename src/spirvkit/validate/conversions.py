"""Conversion instructions (SPIR-V 3.32.11): result and input types of the numeric conversions,
saturating conversions, pointer conversions, generic casts and OpBitcast."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.11"
_GENERIC_TARGETS = frozenset({op.SC.Workgroup, op.SC.CrossWorkgroup, op.SC.Function})


def _n(inst) -> str:
    return inst.opname[2:]


def _err(ctx, inst, message, rule="conversions.operand-type") -> None:
    ctx.error(rule, SEC, message, inst)


def _coop(ctx, t) -> bool:
    return ctx.type_opcode(t) in _COOP


_COOP = frozenset(getattr(op, n) for n in ("TypeCooperativeMatrixKHR", "TypeCooperativeMatrixNV",
                                           "TypeCooperativeVectorNV") if hasattr(op, n))


def _numeric(result_kind, input_kind, different_width=False):
    """A checker for a numeric conversion: result_kind/input_kind are 'float', 'int' or 'uint'."""
    def is_kind(ctx, t, kind):
        if kind == "float":
            return ctx.is_float_scalar_or_vector(t)
        if kind == "uint":
            return ctx.is_int_scalar_or_vector(t) and ctx.is_unsigned_int_scalar(ctx.component_type(t))
        return ctx.is_int_scalar_or_vector(t)

    words = {"float": "float", "int": "int", "uint": "unsigned int"}

    def checker(ctx, inst):
        rtype = inst.words[1]
        if _coop(ctx, rtype):
            return
        if not is_kind(ctx, rtype, result_kind):
            rk = "floating" if result_kind == "float" else words[result_kind]
            _err(ctx, inst, f"Expected {rk} scalar or vector type as Result Type: {_n(inst)}",
                 "conversions.result-type")
            return
        t = ctx.type_of(inst.words[3])
        if not is_kind(ctx, t, "int" if input_kind == "int" else input_kind):
            _err(ctx, inst, f"Expected input to be {words[input_kind]} scalar or vector: {_n(inst)}")
        elif ctx.dimension(t) != ctx.dimension(rtype):
            _err(ctx, inst, f"Expected input to have the same dimension as Result Type: {_n(inst)}")
        elif different_width and ctx.bit_width(t) == ctx.bit_width(rtype):
            _err(ctx, inst, f"Expected input to have different bit width from Result Type: {_n(inst)}")
    return checker


def _quantize(ctx, inst) -> None:
    rtype = inst.words[1]
    if not ctx.is_float_scalar_or_vector(rtype) or ctx.bit_width(rtype) != 32:
        _err(ctx, inst, "Expected 32-bit float scalar or vector type as Result Type: QuantizeToF16",
             "conversions.result-type")
    elif ctx.type_of(inst.words[3]) != rtype:
        _err(ctx, inst, "Expected input type to be equal to Result Type: QuantizeToF16")


def _ptr_to_u(ctx, inst) -> None:
    if not ctx.is_int_scalar(inst.words[1]):
        _err(ctx, inst, "Expected unsigned int scalar type as Result Type: ConvertPtrToU", "conversions.result-type")
    elif not ctx.is_pointer(ctx.type_of(inst.words[3])):
        _err(ctx, inst, "Expected input to be a pointer: ConvertPtrToU")


def _u_to_ptr(ctx, inst) -> None:
    if not ctx.is_pointer(inst.words[1]):
        _err(ctx, inst, "Expected Result Type to be a pointer: ConvertUToPtr", "conversions.result-type")
    elif not ctx.is_int_scalar(ctx.type_of(inst.words[3])):
        _err(ctx, inst, "Expected int scalar as input: ConvertUToPtr")


def _pointees(ctx, inst):
    r = ctx.pointer_info(inst.words[1])
    i = ctx.pointer_info(ctx.type_of(inst.words[3]))
    return r, i


def _ptr_cast_to_generic(ctx, inst) -> None:
    r, i = _pointees(ctx, inst)
    if r is None:
        _err(ctx, inst, "Expected Result Type to be a pointer: PtrCastToGeneric", "conversions.result-type")
    elif r[0] != op.SC.Generic:
        _err(ctx, inst, "Expected Result Type to have storage class Generic: PtrCastToGeneric",
             "conversions.result-type")
    elif i is None:
        _err(ctx, inst, "Expected input to be a pointer: PtrCastToGeneric")
    elif i[0] not in _GENERIC_TARGETS:
        _err(ctx, inst, "Expected input to have storage class Workgroup, CrossWorkgroup or Function: PtrCastToGeneric")
    elif r[1] != i[1]:
        _err(ctx, inst, "Expected input and Result Type to point to the same type: PtrCastToGeneric")


def _generic_cast_to_ptr(ctx, inst) -> None:
    r, i = _pointees(ctx, inst)
    name = _n(inst)
    if r is None:
        _err(ctx, inst, f"Expected Result Type to be a pointer: {name}", "conversions.result-type")
    elif inst.opcode == op.GenericCastToPtr and r[0] not in _GENERIC_TARGETS:
        _err(ctx, inst, f"Expected Result Type to have storage class Workgroup, CrossWorkgroup or Function: {name}",
             "conversions.result-type")
    elif inst.opcode == op.GenericCastToPtrExplicit and r[0] != inst.words[4]:
        _err(ctx, inst, f"Expected Result Type to be of target storage class: {name}", "conversions.result-type")
    elif i is None:
        _err(ctx, inst, f"Expected input to be a pointer: {name}")
    elif i[0] != op.SC.Generic:
        _err(ctx, inst, f"Expected input to have storage class Generic: {name}")
    elif r[1] != i[1]:
        _err(ctx, inst, f"Expected input and Result Type to point to the same type: {name}")


def _bitcast(ctx, inst) -> None:
    rtype, itype = inst.words[1], ctx.type_of(inst.words[3])

    def kind(t):
        if ctx.is_pointer(t):
            return "pointer"
        if ctx.type_opcode(ctx.component_type(t)) in (op.TypeInt, op.TypeFloat):
            return "numeric"
        return None

    rk, ik = kind(rtype), kind(itype)
    if _coop(ctx, rtype):
        return
    if "pointer" in (rk, ik) and ctx.addressing_model == op.ADDRESSING.Logical:
        _err(ctx, inst, "Bitcast: in Logical addressing, pointers cannot be bitcast (SPIR-V 2.16.1 U5/U6)",
             "memory.logical-pointer")
        return
    if rk is None:
        _err(ctx, inst, "Expected Result Type to be a pointer or int or float vector or scalar type: Bitcast",
             "conversions.result-type")
    elif ik is None:
        _err(ctx, inst, "Expected input to be a pointer or int or float vector or scalar: Bitcast")
    elif rk == "numeric" and ik == "numeric":
        if ctx.dimension(rtype) * ctx.bit_width(rtype) != ctx.dimension(itype) * ctx.bit_width(itype):
            _err(ctx, inst, "Expected input to have the same total bit width as Result Type: Bitcast")
    elif rk != ik:
        numeric = itype if ik == "numeric" else rtype
        if not ctx.is_int_scalar(numeric) and not (ctx.version >= (1, 5) and ctx.is_int_vector(numeric)):
            _err(ctx, inst, "Expected input to be a pointer or int scalar if Result Type is pointer: Bitcast")


_CHECKS = {
    op.ConvertFToU: _numeric("uint", "float"),
    op.ConvertFToS: _numeric("int", "float"),
    op.ConvertSToF: _numeric("float", "int"),
    op.ConvertUToF: _numeric("float", "int"),
    op.UConvert: _numeric("uint", "int", different_width=True),
    op.SConvert: _numeric("int", "int", different_width=True),
    op.FConvert: _numeric("float", "float", different_width=True),
    op.SatConvertSToU: _numeric("int", "int"),
    op.SatConvertUToS: _numeric("int", "int"),
    op.QuantizeToF16: _quantize,
    op.ConvertPtrToU: _ptr_to_u,
    op.ConvertUToPtr: _u_to_ptr,
    op.PtrCastToGeneric: _ptr_cast_to_generic,
    op.GenericCastToPtr: _generic_cast_to_ptr,
    op.GenericCastToPtrExplicit: _generic_cast_to_ptr,
    op.Bitcast: _bitcast,
}


def check(ctx) -> None:
    checks = _CHECKS
    for inst in ctx.instructions_of(checks):
        checks[inst.opcode](ctx, inst)
