"""Constants and specialization constants (SPIR-V 3.32.7, 2.12, 2.16.1 U28): result types,
constituent counts and types of composites, null-able types, OpSpecConstantOp opcodes, OpUndef."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.7"

_COMPOSITES = frozenset({op.TypeVector, op.TypeMatrix, op.TypeArray, op.TypeStruct})
_COOP = frozenset(getattr(op, n) for n in ("TypeCooperativeMatrixKHR", "TypeCooperativeMatrixNV",
                                           "TypeCooperativeVectorNV") if hasattr(op, n))
_NULLABLE = frozenset({op.TypeBool, op.TypeInt, op.TypeFloat, op.TypeVector, op.TypeMatrix, op.TypeArray,
                       op.TypeStruct, op.TypePointer, op.TypeEvent, op.TypeDeviceEvent, op.TypeReserveId,
                       op.TypeQueue, op.TypeImage, op.TypeSampler, op.TypeSampledImage, op.TypePipe}) | _COOP
for _n in ("TypeUntypedPointerKHR", "TypeAccelerationStructureKHR", "TypeRayQueryKHR", "TypeNamedBarrier",
           "TypePipeStorage", "TypeTensorARM"):
    if hasattr(op, _n):
        _NULLABLE |= {getattr(op, _n)}

# OpSpecConstantOp opcodes (SPIR-V 2.12): always, Shader-only and Kernel-only.
_SPEC_ALWAYS = {"SConvert", "FConvert", "UConvert", "SNegate", "Not", "IAdd", "ISub", "IMul", "UDiv", "SDiv",
                "UMod", "SRem", "SMod", "ShiftRightLogical", "ShiftRightArithmetic", "ShiftLeftLogical",
                "BitwiseOr", "BitwiseXor", "BitwiseAnd", "VectorShuffle", "CompositeExtract",
                "CompositeInsert", "LogicalOr", "LogicalAnd", "LogicalNot", "LogicalEqual", "LogicalNotEqual",
                "Select", "IEqual", "INotEqual", "ULessThan", "SLessThan", "UGreaterThan", "SGreaterThan",
                "ULessThanEqual", "SLessThanEqual", "UGreaterThanEqual", "SGreaterThanEqual",
                "QuantizeToF16", "ConvertFToS", "ConvertSToF", "ConvertFToU", "ConvertUToF", "ConvertPtrToU",
                "ConvertUToPtr", "GenericCastToPtr", "PtrCastToGeneric", "Bitcast", "FNegate", "FAdd", "FSub",
                "FMul", "FDiv", "FRem", "FMod", "AccessChain", "InBoundsAccessChain", "PtrAccessChain",
                "InBoundsPtrAccessChain", "CooperativeMatrixLengthKHR", "CooperativeMatrixLengthNV",
                "SDot", "UDot", "SUDot", "SDotAccSat", "UDotAccSat", "SUDotAccSat"}
_SPEC_ALLOWED = frozenset(getattr(op, n) for n in _SPEC_ALWAYS if hasattr(op, n))


def check(ctx) -> None:
    for inst in ctx.instructions_of(_CHECKS):
        _CHECKS[inst.opcode](ctx, inst)


def _bool(ctx, inst) -> None:
    if not ctx.is_bool_scalar(inst.words[1]):
        ctx.error("constants.result-type", SEC,
                  f"{inst.opname} Result Type <id> {ctx.name(inst.words[1])} is not a boolean type.", inst)


def _scalar(ctx, inst) -> None:
    t = inst.words[1]
    if not (ctx.is_int_scalar(t) or ctx.is_float_scalar(t)):
        ctx.error("constants.result-type", SEC,
                  f"{inst.opname} Result Type <id> {ctx.name(t)} is not a scalar integer or floating point type.",
                  inst)
        return
    width = ctx.bit_width(t)
    if width < 32 and len(inst.words) == 4:
        word = inst.words[3]
        high = word >> width
        signed = ctx.is_int_scalar(t) and ctx.type_inst(t).words[3] == 1
        expected = ((1 << (32 - width)) - 1) if signed and (word >> (width - 1)) & 1 else 0
        if high != expected:
            ctx.error("constants.literal-high-bits", "SPIR-V 2.2.1",
                      f"The high-order bits of a literal number in instruction <id> {inst.words[2]} must be 0 for a "
                      f"floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when "
                      f"Signedness is 1", inst)


def _constituent_ok(ctx, inst, cid) -> bool:
    d = ctx.defs.get(cid)
    if d is None:
        return False
    if d.opcode == op.Variable and ctx.is_kernel and d.words[3] != op.SC.Function:
        return True  # Kernel: the address of a global is a constant (llvm-spirv emits such tables)
    # SPIRV-Tools accepts any constant (specialization constants included) or OpUndef here.
    return d.opcode in op.CONSTANT_OPCODES or d.opcode == op.Undef


def _composite(ctx, inst) -> None:
    rtype = inst.words[1]
    t = ctx.type_inst(rtype)
    name = inst.opname
    if t is None or (t.opcode not in _COMPOSITES and t.opcode not in _COOP):
        ctx.error("constants.result-type", SEC,
                  f"{name} Result Type <id> {ctx.name(rtype)} is not a composite type.", inst)
        return
    parts = inst.words[3:]
    for c in parts:
        if not _constituent_ok(ctx, inst, c):
            what = "a constant or undef" if inst.opcode == op.ConstantComposite else "a constant"
            ctx.error("constants.constituent", SEC, f"{name} Constituent <id> {ctx.name(c)} is not {what}.", inst)
            return
    expected = _expected_types(ctx, t, len(parts))
    if expected is None:
        return
    if len(expected) != len(parts):
        ctx.error("constants.constituent-count", SEC,
                  f"{name} Constituent <id> count does not match Result Type <id> {ctx.name(rtype)}s "
                  f"{_what(t)} count.", inst)
        return
    for c, want in zip(parts, expected):
        if ctx.type_of(c) != want:
            ctx.error("constants.constituent-type", SEC,
                      f"{name} Constituent <id> {ctx.name(c)}s type does not match Result Type <id> "
                      f"{ctx.name(rtype)}s {_what(t)} type.", inst)
            return


def _what(t) -> str:
    return {op.TypeVector: "vector component", op.TypeMatrix: "matrix column", op.TypeArray: "array element",
            op.TypeStruct: "struct member"}.get(t.opcode, "element")


def _expected_types(ctx, t, n):
    """The constituent types a composite of type ``t`` takes (None when unknown). A count other
    than ``n`` is only reported, so such a list is cut at ``n + 1`` (a fuzzed array length of 2**32
    must not allocate that many entries)."""
    w = t.words
    if t.opcode in (op.TypeVector, op.TypeMatrix):
        return [w[2]] * min(w[3], n + 1)
    if t.opcode == op.TypeStruct:
        return list(w[2:])
    if t.opcode == op.TypeArray:
        # A 64-bit length is checked too (SPIRV-Tools skips it, and then a launch could not
        # build the constant); a spec-constant length has no value until specialization.
        length = ctx.constant_value(w[3])
        if length is None:
            return None
        return [w[2]] * min(length, n + 1)
    return None


def _sampler(ctx, inst) -> None:
    if ctx.type_opcode(inst.words[1]) != op.TypeSampler:
        ctx.error("constants.result-type", SEC,
                  f"OpConstantSampler Result Type <id> {ctx.name(inst.words[1])} is not a sampler type.", inst)


def _null(ctx, inst) -> None:
    t = ctx.type_inst(inst.words[1])
    if t is None or t.opcode not in _NULLABLE or not _nullable_members(ctx, t, 0):
        ctx.error("constants.null", SEC,
                  f"OpConstantNull Result Type <id> {ctx.name(inst.words[1])} cannot have a null value.", inst)


def _nullable_members(ctx, t, depth) -> bool:
    if depth > 64 or t is None or t.opcode not in _NULLABLE:
        return False
    if t.opcode in (op.TypeArray, op.TypeVector, op.TypeMatrix):
        return _nullable_members(ctx, ctx.type_inst(t.words[2]), depth + 1)
    if t.opcode == op.TypeStruct:
        return all(_nullable_members(ctx, ctx.type_inst(m), depth + 1) for m in t.words[2:])
    return True


_KERNEL_SPEC_OPS = frozenset(getattr(op, n) for n in (
    "ConvertFToS", "ConvertSToF", "ConvertFToU", "ConvertUToF", "ConvertPtrToU", "ConvertUToPtr", "GenericCastToPtr",
    "PtrCastToGeneric", "Bitcast", "FNegate", "FAdd", "FSub", "FMul", "FDiv", "FRem", "FMod", "AccessChain",
    "InBoundsAccessChain", "PtrAccessChain", "InBoundsPtrAccessChain"))


def _spec_op(ctx, inst) -> None:
    inner = inst.words[3]
    if ctx.addressing_model == op.ADDRESSING.Logical and ctx.is_pointer(inst.words[1]):
        ctx.error("memory.logical-pointer", "SPIR-V 2.16.1", "Instruction may not return a logical pointer", inst)
        return
    name = ctx.grammar.instruction(inner).opname[2:] if ctx.grammar.instruction(inner) else str(inner)
    if inner in _KERNEL_SPEC_OPS and not ctx.is_kernel:
        ctx.error("constants.spec-constant-op", "SPIR-V 2.12",
                  f"Specialization constant operation {name} requires Kernel capability", inst)
        return
    if inner == op.QuantizeToF16 and not ctx.is_shader:
        ctx.error("constants.spec-constant-op", "SPIR-V 2.12",
                  f"Specialization constant operation {name} requires Shader capability", inst)
        return
    if inner == op.UConvert and ctx.version < (1, 4) and not ctx.is_kernel \
            and "SPV_AMD_gpu_shader_int16" not in ctx.extensions:
        ctx.error("constants.spec-constant-op", "SPIR-V 2.12",
                  "Prior to SPIR-V 1.4, specialization constant operation UConvert requires Kernel capability or "
                  "extension SPV_AMD_gpu_shader_int16", inst)
        return
    if inner not in _SPEC_ALLOWED:
        ctx.error("constants.spec-constant-op", "SPIR-V 2.12",
                  f"Specialization constant operation {ctx.grammar.instruction(inner).opname[2:]} is not allowed "
                  f"in OpSpecConstantOp", inst)
        return
    for c in inst.words[4:]:
        d = ctx.defs.get(c)
        if d is not None and d.type_id is not None and d.opcode not in op.CONSTANT_OPCODES \
                and d.opcode not in (op.Undef, op.Variable) and inner not in _LITERAL_OPERANDS:
            ctx.error("constants.spec-constant-op", "SPIR-V 2.12",
                      f"OpSpecConstantOp operand {ctx.name(c)} must be a constant, undef or global variable",
                      inst)
            return


_LITERAL_OPERANDS = frozenset({op.VectorShuffle, op.CompositeExtract, op.CompositeInsert})


def _undef(ctx, inst) -> None:
    if ctx.type_opcode(inst.words[1]) == op.TypeVoid:
        ctx.error("constants.undef-void", "SPIR-V 3.32.1", "Cannot create undefined values with void type", inst)


_CHECKS = {
    op.ConstantTrue: _bool, op.ConstantFalse: _bool, op.SpecConstantTrue: _bool, op.SpecConstantFalse: _bool,
    op.Constant: _scalar, op.SpecConstant: _scalar,
    op.ConstantComposite: _composite, op.SpecConstantComposite: _composite,
    op.ConstantSampler: _sampler, op.ConstantNull: _null, op.SpecConstantOp: _spec_op, op.Undef: _undef,
}
