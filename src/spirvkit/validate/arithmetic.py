"""Arithmetic instructions (SPIR-V 3.32.13; 2.16.1 U39): result and operand types of the float,
integer, vector/matrix and extended (carry, borrow, wide multiply) arithmetic instructions."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.13"

_FLOAT_OPS = frozenset({op.FAdd, op.FSub, op.FMul, op.FDiv, op.FRem, op.FMod, op.FNegate})
_UNSIGNED_OPS = frozenset({op.UDiv, op.UMod})
_INT_OPS = frozenset({op.IAdd, op.ISub, op.IMul, op.SDiv, op.SRem, op.SMod, op.SNegate})
_EXTENDED = frozenset({op.IAddCarry, op.ISubBorrow, op.UMulExtended, op.SMulExtended})


def _name(inst) -> str:
    return inst.opname[2:]


def _value_operands(inst):
    """(operand index as spirv-val counts it, id) of the value operands."""
    return [(i + 2, inst.words[3 + i]) for i in range(len(inst.words) - 3)]


def _coop(ctx, t) -> bool:
    return ctx.type_opcode(t) in _COOP_TYPES


_COOP_TYPES = frozenset(getattr(op, n) for n in ("TypeCooperativeMatrixKHR", "TypeCooperativeMatrixNV",
                                                 "TypeCooperativeVectorNV") if hasattr(op, n))


def _operands_of_result_type(ctx, inst, rtype) -> None:
    for index, v in _value_operands(inst):
        if ctx.type_of(v) != rtype:
            ctx.error("arithmetic.operand-type", SEC,
                      f"Expected arithmetic operands to be of Result Type: {_name(inst)} operand index {index}", inst)
            return


def _float_op(ctx, inst) -> None:
    rtype = inst.words[1]
    if _coop(ctx, rtype):
        return
    if not ctx.is_float_scalar_or_vector(rtype):
        ctx.error("arithmetic.result-type", SEC,
                  f"Expected floating scalar or vector type as Result Type: {_name(inst)}", inst)
        return
    _operands_of_result_type(ctx, inst, rtype)


def _unsigned_op(ctx, inst) -> None:
    rtype = inst.words[1]
    if _coop(ctx, rtype):
        return
    comp = ctx.component_type(rtype)
    if not ctx.is_int_scalar_or_vector(rtype) or not ctx.is_unsigned_int_scalar(comp):
        ctx.error("arithmetic.result-type", SEC,
                  f"Expected unsigned int scalar or vector type as Result Type: {_name(inst)}", inst)
        return
    _operands_of_result_type(ctx, inst, rtype)


def _int_op(ctx, inst) -> None:
    rtype = inst.words[1]
    words = inst.words
    type_of = ctx.type_of
    if all(type_of(v) == rtype for v in words[3:]) and ctx.is_int_scalar_or_vector(rtype):
        return  # the common case: every operand has the (integer) result type
    if _coop(ctx, rtype):
        return
    if not ctx.is_int_scalar_or_vector(rtype):
        ctx.error("arithmetic.result-type", SEC,
                  f"Expected int scalar or vector type as Result Type: {_name(inst)}", inst)
        return
    rf = ctx.facts(rtype)
    dim, width = rf[3], rf[4]
    type_of = ctx.type_of
    for index, v in _value_operands(inst):
        t = type_of(v)
        if t == rtype:
            continue  # the common case: same type as the result
        if not ctx.is_int_scalar_or_vector(t):
            ctx.error("arithmetic.operand-type", SEC,
                      f"Expected int scalar or vector type as operand: {_name(inst)} operand index {index}", inst)
            return
        if ctx.dimension(t) != dim:
            ctx.error("arithmetic.operand-type", SEC,
                      f"Expected arithmetic operands to have the same dimension as Result Type: {_name(inst)} "
                      f"operand index {index}", inst)
            return
        if ctx.bit_width(t) != width:
            ctx.error("arithmetic.operand-type", SEC,
                      f"Expected arithmetic operands to have the same bit width as Result Type: {_name(inst)} "
                      f"operand index {index}", inst)
            return


def _dot(ctx, inst) -> None:
    rtype = inst.words[1]
    if not ctx.is_float_scalar(rtype):
        ctx.error("arithmetic.result-type", SEC, "Expected float scalar type as Result Type: Dot", inst)
        return
    first = None
    for index, v in _value_operands(inst):
        t = ctx.type_of(v)
        if not ctx.is_float_vector(t):
            ctx.error("arithmetic.operand-type", SEC, f"Expected float vector as operand: Dot operand index {index}",
                      inst)
            return
        if ctx.component_type(t) != rtype:
            ctx.error("arithmetic.operand-type", SEC,
                      f"Expected component type to be equal to Result Type: Dot operand index {index}", inst)
            return
        if first is None:
            first = ctx.dimension(t)
        elif ctx.dimension(t) != first:
            ctx.error("arithmetic.operand-type", SEC, "Expected operands to have the same number of components: Dot",
                      inst)
            return


def _vector_times_scalar(ctx, inst) -> None:
    rtype = inst.words[1]
    if not ctx.is_float_vector(rtype):
        ctx.error("arithmetic.result-type", SEC, "Expected float vector type as Result Type: VectorTimesScalar", inst)
        return
    if ctx.type_of(inst.words[3]) != rtype:
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected vector operand type to be equal to Result Type: VectorTimesScalar", inst)
        return
    if ctx.type_of(inst.words[4]) != ctx.component_type(rtype):
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected scalar operand type to be equal to the component type of the vector operand: "
                  "VectorTimesScalar", inst)


def _matrix_times_scalar(ctx, inst) -> None:
    rtype = inst.words[1]
    t = ctx.type_inst(rtype)
    if t is None or t.opcode != op.TypeMatrix:
        if not _coop(ctx, rtype):
            ctx.error("arithmetic.result-type", SEC, "Expected float matrix type as Result Type: MatrixTimesScalar",
                      inst)
        return
    if ctx.type_of(inst.words[3]) != rtype:
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected matrix operand type to be equal to Result Type: MatrixTimesScalar", inst)
        return
    if ctx.type_of(inst.words[4]) != ctx.component_type(t.words[2]):
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected scalar operand type to be equal to the component type of the matrix operand: "
                  "MatrixTimesScalar", inst)


def _matrix_shape(ctx, type_id):
    """(columns, column type) of a matrix type, or None."""
    t = ctx.type_inst(type_id)
    if t is None or t.opcode != op.TypeMatrix:
        return None
    return t.words[3], t.words[2]


def _vector_times_matrix(ctx, inst) -> None:
    rtype, vec, mat = inst.words[1], inst.words[3], inst.words[4]
    shape = _matrix_shape(ctx, ctx.type_of(mat))
    if not ctx.is_float_vector(rtype) or not ctx.is_float_vector(ctx.type_of(vec)) or shape is None:
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected float vector Result Type and Vector, and a float matrix Matrix: VectorTimesMatrix", inst)
        return
    cols, col_type = shape
    if ctx.type_of(vec) != col_type or ctx.dimension(rtype) != cols or \
            ctx.component_type(rtype) != ctx.component_type(col_type):
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected number of columns of the matrix to be equal to Result Type vector size, and the vector "
                  "to match the matrix column type: VectorTimesMatrix", inst)


def _matrix_times_vector(ctx, inst) -> None:
    rtype, mat, vec = inst.words[1], inst.words[3], inst.words[4]
    shape = _matrix_shape(ctx, ctx.type_of(mat))
    if not ctx.is_float_vector(rtype) or shape is None or not ctx.is_float_vector(ctx.type_of(vec)):
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected float vector Result Type and Vector, and a float matrix Matrix: MatrixTimesVector", inst)
        return
    cols, col_type = shape
    if col_type != rtype or ctx.dimension(ctx.type_of(vec)) != cols:
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected the matrix column type to equal Result Type and the vector size to equal the number of "
                  "matrix columns: MatrixTimesVector", inst)


def _matrix_times_matrix(ctx, inst) -> None:
    r = _matrix_shape(ctx, inst.words[1])
    left = _matrix_shape(ctx, ctx.type_of(inst.words[3]))
    right = _matrix_shape(ctx, ctx.type_of(inst.words[4]))
    if r is None or left is None or right is None:
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected float matrix Result Type, LeftMatrix and RightMatrix: MatrixTimesMatrix", inst)
        return
    if left[1] != r[1] or right[0] != r[0] or ctx.dimension(right[1]) != left[0]:
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected matrix dimensions to agree (Result columns = RightMatrix columns, Result column type = "
                  "LeftMatrix column type, RightMatrix column size = LeftMatrix columns): MatrixTimesMatrix", inst)


def _outer_product(ctx, inst) -> None:
    r = _matrix_shape(ctx, inst.words[1])
    if r is None:
        ctx.error("arithmetic.result-type", SEC, "Expected float matrix type as Result Type: OuterProduct", inst)
        return
    cols, col_type = r
    if ctx.type_of(inst.words[3]) != col_type:
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected column type of Result Type to be equal to the type of Vector 1: OuterProduct", inst)
        return
    t2 = ctx.type_of(inst.words[4])
    if not ctx.is_float_vector(t2) or ctx.dimension(t2) != cols or \
            ctx.component_type(t2) != ctx.component_type(col_type):
        ctx.error("arithmetic.operand-type", SEC,
                  "Expected number of columns of the matrix to be equal to the vector size of Vector 2: OuterProduct",
                  inst)


def _extended(ctx, inst) -> None:
    name = _name(inst)
    t = ctx.type_inst(inst.words[1])
    if t is None or t.opcode != op.TypeStruct:
        ctx.error("arithmetic.result-type", SEC, f"Expected a struct as Result Type: {name}", inst)
        return
    members = t.words[2:]
    if len(members) != 2:
        ctx.error("arithmetic.result-type", SEC, f"Expected Result Type struct to have two members: {name}", inst)
        return
    unsigned = inst.opcode in (op.IAddCarry, op.ISubBorrow, op.UMulExtended)
    m = members[0]
    ok = ctx.is_int_scalar_or_vector(m) and (not unsigned or ctx.is_unsigned_int_scalar(ctx.component_type(m))
                                             or ctx.is_kernel)
    if not ok:
        kind = "unsigned integer" if unsigned else "integer"
        ctx.error("arithmetic.result-type", SEC,
                  f"Expected Result Type struct member types to be {kind} scalar or vector: {name}", inst)
        return
    if members[1] != m:
        ctx.error("arithmetic.result-type", SEC, f"Expected Result Type struct member types to be identical: {name}",
                  inst)
        return
    for v in inst.words[3:]:
        if ctx.type_of(v) != m:
            ctx.error("arithmetic.operand-type", SEC, f"Expected both operands to be of Result Type member type: {name}",
                      inst)
            return


_CHECKS = {
    op.Dot: _dot,
    op.VectorTimesScalar: _vector_times_scalar,
    op.MatrixTimesScalar: _matrix_times_scalar,
    op.VectorTimesMatrix: _vector_times_matrix,
    op.MatrixTimesVector: _matrix_times_vector,
    op.MatrixTimesMatrix: _matrix_times_matrix,
    op.OuterProduct: _outer_product,
}
for _o in _FLOAT_OPS:
    _CHECKS[_o] = _float_op
for _o in _UNSIGNED_OPS:
    _CHECKS[_o] = _unsigned_op
for _o in _INT_OPS:
    _CHECKS[_o] = _int_op
for _o in _EXTENDED:
    _CHECKS[_o] = _extended


def check(ctx) -> None:
    checks = _CHECKS
    for inst in ctx.instructions_of(checks):
        checks[inst.opcode](ctx, inst)
