"""Types (SPIR-V 2.16.1 U3, U22-U27, U29, U34; 2.16.3 K1; 3.32.6): uniqueness of non-aggregate
types, widths gated by capabilities, vector sizes, matrix columns, array lengths, struct members
and built-in members, forward pointers, function types."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 2.16.1"
SEC_TYPES = "SPIR-V 3.32.6"

# Aggregates and pointers may repeat (SPIRV-Tools exempts the same set: they can differ by
# decorations such as ArrayStride).
_MAY_REPEAT = frozenset({op.TypeArray, op.TypeRuntimeArray, op.TypeStruct, op.TypePointer})
if hasattr(op, "TypeUntypedPointerKHR"):
    _MAY_REPEAT |= {op.TypeUntypedPointerKHR}
if hasattr(op, "TypeStructContinuedINTEL"):
    _MAY_REPEAT |= {op.TypeStructContinuedINTEL}

_NUMERIC_OR_BOOL = frozenset({op.TypeInt, op.TypeFloat, op.TypeBool})


def check(ctx) -> None:
    seen: dict[tuple, int] = {}
    for inst in ctx.instructions_of(op.TYPE_OPCODES):
        opc = inst.opcode
        if opc not in _MAY_REPEAT and inst.result_id is not None:
            key = (opc, *inst.words[2:])
            if key in seen:
                ctx.error("types.unique", SEC,
                          f"Duplicate non-aggregate type declarations are not allowed. Opcode: "
                          f"{inst.opname[2:]} id: {inst.result_id}", inst)
                continue
            seen[key] = inst.result_id
        checker = _CHECKS.get(opc)
        if checker is not None:
            checker(ctx, inst)


def _int(ctx, inst) -> None:
    w = inst.words
    width, signedness = w[2], w[3]
    if signedness > 1:
        ctx.error("types.int-signedness", SEC_TYPES, f"OpTypeInt has invalid signedness: {signedness}", inst)
        return
    if signedness and ctx.is_kernel:
        ctx.error("types.kernel-int-signedness", "SPIR-V 2.16.3; OpenCL env 2.4",
                  "The Signedness in OpTypeInt must always be 0 when Kernel capability is used.", inst)
        return
    needed = {8: ("Int8", "StorageBuffer8BitAccess", "UniformAndStorageBuffer8BitAccess", "StoragePushConstant8"),
              16: ("Int16", "StorageBuffer16BitAccess", "UniformAndStorageBuffer16BitAccess",
                   "StoragePushConstant16", "StorageInputOutput16", "StorageUniform16",
                   "StorageUniformBufferBlock16"),
              32: (), 64: ("Int64",)}
    if width not in needed:
        if not ctx.has_capability("ArbitraryPrecisionIntegersINTEL"):
            ctx.error("types.int-width", SEC, f"Invalid number of bits ({width}) used for OpTypeInt.", inst)
        return
    caps = needed[width]
    if caps and not any(ctx.has_capability(c) for c in caps) and not _amd_int16(ctx, width):
        ctx.error("types.int-width", SEC,
                  f"Using a {width}-bit integer type requires the {caps[0]} capability, or an extension that "
                  f"explicitly enables {width}-bit integers.", inst)


def _amd_int16(ctx, width) -> bool:
    return width == 16 and "SPV_AMD_gpu_shader_int16" in ctx.extensions


def _float(ctx, inst) -> None:
    w = inst.words
    width = w[2]
    if len(w) > 3:  # an FP encoding (bfloat16, fp8): gated by its own capability
        return
    if width == 32:
        return
    if width == 16:
        caps = ("Float16", "Float16Buffer", "StorageBuffer16BitAccess", "UniformAndStorageBuffer16BitAccess",
                "StoragePushConstant16", "StorageInputOutput16", "StorageUniform16", "StorageUniformBufferBlock16")
        if not any(ctx.has_capability(c) for c in caps) and "SPV_AMD_gpu_shader_half_float" not in ctx.extensions:
            ctx.error("types.float-width", SEC,
                      "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an "
                      "extension that explicitly enables 16-bit floating point.", inst)
        return
    if width == 64:
        if not ctx.has_capability("Float64"):
            ctx.error("types.float-width", SEC,
                      "Using a 64-bit floating point type requires the Float64 capability.", inst)
        return
    ctx.error("types.float-width", SEC, f"Invalid number of bits ({width}) used for OpTypeFloat.", inst)


def _vector(ctx, inst) -> None:
    w = inst.words
    comp, count = w[2], w[3]
    if ctx.type_opcode(comp) not in _NUMERIC_OR_BOOL:
        ctx.error("types.vector-component", SEC,
                  f"OpTypeVector Component Type <id> {ctx.name(comp)} is not a scalar type.", inst)
        return
    if count in (2, 3, 4):
        return
    if count in (8, 16):
        if not ctx.has_capability("Vector16"):
            ctx.error("types.vector-size", SEC,
                      f"Having {count} components for OpTypeVector requires the Vector16 capability", inst)
        return
    ctx.error("types.vector-size", SEC, f"Illegal number of components ({count}) for OpTypeVector", inst)


def _matrix(ctx, inst) -> None:
    col, count = inst.words[2], inst.words[3]
    if ctx.type_opcode(col) != op.TypeVector:
        ctx.error("types.matrix-columns", SEC, "Columns in a matrix must be of type vector.", inst)
        return
    if not ctx.is_float_vector(col):
        ctx.error("types.matrix-columns", SEC,
                  "Matrix types can only be parameterized with floating-point types.", inst)
        return
    if count not in (2, 3, 4):
        ctx.error("types.matrix-columns", SEC,
                  "Matrix types can only be parameterized as having only 2, 3, or 4 columns.", inst)


def _element_type(ctx, inst, what) -> bool:
    elem = inst.words[2]
    if not ctx.is_type(elem):
        ctx.error("types.array-element", SEC_TYPES,
                  f"{what} Element Type <id> {ctx.name(elem)} is not a type.", inst)
        return False
    if ctx.type_opcode(elem) == op.TypeVoid:
        ctx.error("types.array-element", SEC_TYPES,
                  f"{what} Element Type <id> {ctx.name(elem)} is a void type.", inst)
        return False
    if ctx.is_shader and ctx.type_opcode(elem) == op.TypeRuntimeArray:
        ctx.error("types.array-element", SEC_TYPES,
                  f"{what} Element Type <id> {ctx.name(elem)} cannot be OpTypeRuntimeArray.", inst)
        return False
    return True


def _array(ctx, inst) -> None:
    if not _element_type(ctx, inst, "OpTypeArray"):
        return
    length = inst.words[3]
    d = ctx.defs.get(length)
    lopc = d.opcode if d is not None else None
    if lopc not in op.CONSTANT_OPCODES or not ctx.is_int_scalar(d.type_id):
        ctx.error("types.array-length", SEC_TYPES,
                  f"OpTypeArray Length <id> {ctx.name(length)} is not a scalar constant type.", inst)
        return
    if lopc in (op.Constant, op.SpecConstant) and len(d.words) > 3:
        value = d.value(2)
        width = ctx.bit_width(d.type_id)
        signed = ctx.type_inst(d.type_id).words[3] == 1
        if signed and value >> (width - 1) & 1:
            value -= 1 << width
        if value < 1:
            ctx.error("types.array-length", SEC_TYPES,
                      f"OpTypeArray Length <id> {ctx.name(length)} default value must be at least 1: found {value}",
                      inst)
    elif lopc == op.ConstantNull:
        ctx.error("types.array-length", SEC_TYPES,
                  f"OpTypeArray Length <id> {ctx.name(length)} default value must be at least 1: found 0", inst)


def _runtime_array(ctx, inst) -> None:
    _element_type(ctx, inst, "OpTypeRuntimeArray")


def _struct(ctx, inst) -> None:
    sid = inst.words[1]
    members = inst.words[2:]
    for i, m in enumerate(members):
        mopc = ctx.type_opcode(m)
        if mopc is None:
            if ctx.def_opcode(m) is None or ctx.def_opcode(m) == op.TypeForwardPointer:
                continue
            ctx.error("types.struct-member", SEC_TYPES,
                      f"Structure member type <id> {ctx.name(m)} is not a type.", inst)
            return
        if mopc == op.TypeVoid:
            ctx.error("types.struct-member", SEC_TYPES,
                      f"Structures cannot contain a void type (member {i}).", inst)
            return
        if ctx.is_shader and mopc == op.TypeRuntimeArray and i != len(members) - 1:
            ctx.error("types.struct-runtime-array", SEC_TYPES,
                      "In Shader, OpTypeRuntimeArray must only be used for the last member of an OpTypeStruct",
                      inst)
            return
        if mopc == op.TypeStruct and _has_builtin_members(ctx, m):
            ctx.error("types.struct-builtin", SEC,
                      f"Structure <id> {ctx.name(m)} contains members with BuiltIn decoration. Therefore this "
                      f"structure may not be contained as a member of another structure type. Structure <id> "
                      f"{ctx.name(sid)} contains structure <id> {ctx.name(m)}.", inst)
            return
    builtin_members = {m for d, _w, _i, m in ctx.decorations.get(sid, ()) if d == op.DEC.BuiltIn and m is not None}
    if builtin_members and len(builtin_members) != len(members):
        ctx.error("types.struct-builtin", SEC,
                  "When BuiltIn decoration is applied to a structure-type member, all members of that structure "
                  "type must also be decorated with BuiltIn (No allowed mixing of built-in variables and "
                  f"non-built-in variables within a single structure). Structure id {sid} does not meet this "
                  "requirement.", inst)


def _has_builtin_members(ctx, sid) -> bool:
    return any(d == op.DEC.BuiltIn and m is not None for d, _w, _i, m in ctx.decorations.get(sid, ()))


def _pointer(ctx, inst) -> None:
    pointee = inst.words[3]
    if not ctx.is_type(pointee) and ctx.def_opcode(pointee) is not None:
        ctx.error("types.pointer-type", SEC_TYPES,
                  f"OpTypePointer Type <id> {ctx.name(pointee)} is not a type.", inst)


def _function(ctx, inst) -> None:
    ret = inst.words[2]
    if not ctx.is_type(ret):
        ctx.error("types.function-type", SEC_TYPES,
                  f"OpTypeFunction Return Type <id> {ctx.name(ret)} is not a type.", inst)
        return
    if ctx.type_opcode(ret) == op.TypeFunction:
        ctx.error("types.function-type", SEC_TYPES,
                  f"OpTypeFunction Return Type <id> {ctx.name(ret)} cannot be OpTypeFunction.", inst)
        return
    for i, p in enumerate(inst.words[3:]):
        if not ctx.is_type(p):
            ctx.error("types.function-type", SEC_TYPES,
                      f"OpTypeFunction Parameter Type <id> {ctx.name(p)} is not a type.", inst)
            return
        if ctx.type_opcode(p) == op.TypeVoid:
            ctx.error("types.function-type", SEC_TYPES,
                      f"OpTypeFunction Parameter Type <id> {ctx.name(p)} cannot be OpTypeVoid.", inst)
            return


def _forward_pointer(ctx, inst) -> None:
    ptr, sc = inst.words[1], inst.words[2]
    d = ctx.defs.get(ptr)
    if d is None or d.opcode not in (op.TypePointer, getattr(op, "TypeUntypedPointerKHR", -1)):
        ctx.error("types.forward-pointer", SEC,
                  "Pointer type in OpTypeForwardPointer is not a pointer type.", inst)
        return
    if d.words[2] != sc:
        ctx.error("types.forward-pointer", SEC,
                  "Storage class in OpTypeForwardPointer does not match the pointer definition.", inst)
        return
    if d.opcode == op.TypePointer and ctx.type_opcode(d.words[3]) != op.TypeStruct:
        ctx.error("types.forward-pointer", SEC,
                  "Forward pointers must point to a structure", inst)


def _sampled_image(ctx, inst) -> None:
    if ctx.type_opcode(inst.words[2]) != op.TypeImage:
        ctx.error("types.sampled-image", SEC_TYPES,
                  "Sampled image type requires an image type", inst)


def _image(ctx, inst) -> None:
    sampled = inst.words[2]
    if ctx.type_opcode(sampled) not in (op.TypeVoid, op.TypeInt, op.TypeFloat):
        ctx.error("types.image", SEC_TYPES,
                  "Sampled Type must be OpTypeVoid or a scalar numerical type", inst)
        return
    w = inst.words
    if w[4] > 2:
        ctx.error("types.image", SEC_TYPES, f"Invalid Depth {w[4]} (must be 0, 1 or 2)", inst)
    elif w[5] > 1:
        ctx.error("types.image", SEC_TYPES, f"Invalid Arrayed {w[5]} (must be 0 or 1)", inst)
    elif w[6] > 1:
        ctx.error("types.image", SEC_TYPES, f"Invalid MS {w[6]} (must be 0 or 1)", inst)
    elif w[7] > 2:
        ctx.error("types.image", SEC_TYPES, f"Invalid Sampled {w[7]} (must be 0, 1, or 2)", inst)


_CHECKS = {
    op.TypeInt: _int,
    op.TypeFloat: _float,
    op.TypeVector: _vector,
    op.TypeMatrix: _matrix,
    op.TypeArray: _array,
    op.TypeRuntimeArray: _runtime_array,
    op.TypeStruct: _struct,
    op.TypePointer: _pointer,
    op.TypeFunction: _function,
    op.TypeForwardPointer: _forward_pointer,
    op.TypeSampledImage: _sampled_image,
    op.TypeImage: _image,
}
