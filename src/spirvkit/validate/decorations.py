"""Decorations (SPIR-V 3.32.3, 3.20, 2.16.1 U32-U35, U42; 2.18.2): decoration targets (what
each decoration may apply to), member decorations on structs with the member in range,
decoration groups, OpDecorate vs OpDecorateId, repeated decorations, Restrict/Aliased
conflicts, FPRoundingMode and SaturatedConversion placement, FuncParamAttr, Alignment."""

from __future__ import annotations

from . import block_layout
from . import opcodes as op

SEC = "SPIR-V 3.32.3"
SEC_DEC = "SPIR-V 3.20"

D = op.DEC
_MEMORY_OBJECT = {D.Restrict, D.Aliased, D.Volatile, D.Coherent, D.NonWritable, D.NonReadable,
                  D.RestrictPointer, D.AliasedPointer, D.NoPerspective, D.Flat, D.Patch, D.Centroid,
                  D.Sample, D.XfbBuffer, D.XfbStride, D.Component, D.Stream}
_VARIABLE_ONLY = {D.Invariant, D.Constant, D.Location, D.Index, D.Binding, D.DescriptorSet,
                  D.InputAttachmentIndex}
_STRUCT_ONLY = {D.Block, D.BufferBlock, D.GLSLShared, D.GLSLPacked, D.CPacked}
# Decorations that may legitimately appear several times on one target (they carry different
# parameters that add up: several parameter attributes, several semantic strings ...).
_REPEATABLE = {D.FuncParamAttr}
for _n in ("UserSemantic", "UserTypeGOOGLE", "CacheControlLoadINTEL", "CacheControlStoreINTEL",
           "MemoryINTEL", "HlslSemanticGOOGLE"):
    if hasattr(D, _n):
        _REPEATABLE.add(getattr(D, _n))
_CONVERSIONS_TO_FLOAT = frozenset({op.ConvertFToU, op.ConvertFToS, op.ConvertSToF, op.ConvertUToF, op.FConvert})
# "must be applied only to conversion instructions to integer types, not including the
# OpSatConvertUToS and OpSatConvertSToU instructions" (SPIR-V 3.20, SaturatedConversion).
_SATURATING = frozenset({op.ConvertFToU, op.ConvertFToS, op.UConvert, op.SConvert, op.ConvertPtrToU})
_NOT_ON_MEMBERS = frozenset({D.SpecId, D.Block, D.BufferBlock, D.GLSLShared, D.GLSLPacked, D.CPacked, D.ArrayStride,
                             D.Constant, D.SaturatedConversion, D.FuncParamAttr, D.FPRoundingMode, D.FPFastMathMode,
                             D.LinkageAttributes, D.Alignment, D.DescriptorSet, D.Binding, D.InputAttachmentIndex,
                             D.NoContraction, D.Index}) | frozenset(
    # "Apply to an object" / "to an instruction" / "to a pointer" in the unified specification (SPIR-V
    # 1.0's text still let Uniform decorate a member; the later texts and spirv-val do not)
    getattr(D, n) for n in ("Uniform", "UniformId", "AlignmentId", "NoSignedWrap", "NoUnsignedWrap", "CounterBuffer")
    if hasattr(D, n))
_WRAP_TARGETS = frozenset({op.IAdd, op.ISub, op.IMul, op.ShiftLeftLogical, op.SNegate, op.ExtInst})
_VARIABLES = frozenset({op.Variable, getattr(op, "UntypedVariableKHR", -1)})


_ANNOTATIONS = (op.Decorate, op.DecorateId, op.DecorateString, op.MemberDecorate, op.MemberDecorateString,
                op.GroupDecorate, op.GroupMemberDecorate)


def check(ctx) -> None:
    groups = {i.words[1] for i in ctx.instructions_of((op.DecorationGroup,))}
    for inst in ctx.instructions_of(_ANNOTATIONS):
        opc = inst.opcode
        if opc in (op.Decorate, op.DecorateId, op.DecorateString):
            _decorate(ctx, inst, groups)
        elif opc in (op.MemberDecorate, op.MemberDecorateString):
            _member_decorate(ctx, inst)
        elif opc == op.GroupDecorate:
            _group_decorate(ctx, inst, groups)
        elif opc == op.GroupMemberDecorate:
            _group_member_decorate(ctx, inst, groups)
    _group_uses(ctx, groups)
    _repeats_and_conflicts(ctx)
    block_layout.check(ctx)


def _decoration_takes_ids(ctx, value) -> bool:
    """The decoration's grammar parameters include an <id> operand kind (IdRef, IdScope, ...)."""
    kinds = ctx.grammar.operand_kinds
    e = kinds["Decoration"].by_value.get(value)
    return e is not None and any(p in kinds and kinds[p].category == "Id" for p in e.parameters)


def _decorate(ctx, inst, groups) -> None:
    target, dec = inst.words[1], inst.words[2]
    takes_ids = _decoration_takes_ids(ctx, dec)
    if inst.opcode == op.Decorate and takes_ids:
        ctx.error("decorations.decorate-id", SEC,
                  f"Decoration {D.name(dec)} takes <id> parameters and must be applied with OpDecorateId", inst)
        return
    if inst.opcode == op.DecorateString and not _decoration_takes_strings(ctx, dec):
        ctx.error("decorations.decorate-string", SEC,
                  "Decorations that don't take string parameters may not be used with OpDecorateString", inst)
        return
    if inst.opcode == op.DecorateId and not takes_ids:
        ctx.error("decorations.decorate-id", SEC,
                  "Decorations that don't take ID parameters may not be used with OpDecorateId", inst)
        return
    if target in groups:
        return
    d = ctx.defs.get(target)
    if d is None:
        return
    if inst.opcode == op.DecorateId and _id_parameter_after_target(ctx, inst, target):
        return
    before = len(ctx.diagnostics)
    _target_rules(ctx, inst, dec, d)
    if len(ctx.diagnostics) == before and dec in (D.Location, D.Component):
        _location_storage_class(ctx, inst, dec, d)


def _id_parameter_after_target(ctx, inst, target) -> bool:
    """OpDecorateId's <id> parameters are defined before its target, as spirv-val requires
    ("Parameter <ID> ... must appear earlier in the binary than the target"): the parameter (a
    Scope, an alignment, a counter buffer) describes the target, and SPIR-V 2.4 lays a module out
    so that one pass sees an id defined before what relies on it (the annotation itself may
    forward-reference both: "Target ... can potentially be any <id> that is a forward reference",
    3.32.3)."""
    at = ctx.def_pos.get(target)
    if at is None:
        return False
    for o in inst.operands[2:]:
        if o.kind.startswith("Id") and o.count == 1:
            param = inst.words[o.offset]
            where = ctx.def_pos.get(param)
            if where is not None and where > at:
                ctx.error("decorations.decorate-id", SEC,
                          f"Parameter <ID> {ctx.name(param)} must appear earlier in the binary than the target "
                          f"{ctx.name(target)} of {inst.opname}", inst)
                return True
    return False


_IN_OUT = frozenset({op.SC.Input, op.SC.Output})
# VUID-StandaloneSpirv-Location-06672: "The Location or Component decorations must only be used with
# the Input, Output, RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, HitObjectAttributeNV,
# CallableDataKHR, IncomingCallableDataKHR, or ShaderRecordBufferKHR storage classes."
_VULKAN_LOCATION_CLASSES = _IN_OUT | frozenset(
    getattr(op.SC, n) for n in ("RayPayloadKHR", "IncomingRayPayloadKHR", "HitAttributeKHR", "HitObjectAttributeNV",
                                "HitObjectAttributeEXT", "CallableDataKHR", "IncomingCallableDataKHR",
                                "ShaderRecordBufferKHR") if hasattr(op.SC, n))


def _location_storage_class(ctx, inst, dec, d) -> None:
    """Component: "Apply to an object ... in the Input or Output storage class" (SPIR-V 3.20:
    "Component — Apply to a variable or a structure-type member to assign it a component number
    within a location" of the shader interface); Location and Component, in Vulkan, only on the
    interface storage classes (VUID-StandaloneSpirv-Location-06672)."""
    info = ctx.pointer_info(d.type_id) if d.opcode in _VARIABLES else None
    if info is None:
        return
    sc = info[0]
    if ctx.env.is_vulkan and sc not in _VULKAN_LOCATION_CLASSES:
        ctx.error("vulkan.location-storage-class", "Vulkan env (VUID-StandaloneSpirv-Location-06672)",
                  f"{D.name(dec)} decoration must not be applied to this storage class ({op.SC.name(sc)})", inst)
    elif dec == D.Component and sc not in _IN_OUT and ctx.is_shader:
        ctx.error("decorations.target", SEC_DEC,
                  f"Target of Component decoration is invalid: must point to a Storage Class of Input(1) or Output(3). "
                  f"Found Storage Class {sc}", inst)


def _target_rules(ctx, inst, dec, d) -> None:
    def fail(what):
        ctx.error("decorations.target", SEC_DEC,
                  f"{D.name(dec)} decoration on target <id> {ctx.name(d.result_id)} {what}", inst)

    opc = d.opcode
    if dec == D.SpecId:
        if opc not in (op.SpecConstant, op.SpecConstantTrue, op.SpecConstantFalse):
            fail("must be a scalar specialization constant")
    elif dec in _STRUCT_ONLY:
        if opc != op.TypeStruct:
            fail("must be a structure type")
    elif dec == D.ArrayStride:
        if opc not in (op.TypeArray, op.TypeRuntimeArray, op.TypePointer, getattr(op, "TypeUntypedPointerKHR", -1)):
            fail("must be an array or pointer type")
    elif dec == D.BuiltIn:
        if opc not in _VARIABLES and opc not in op.CONSTANT_OPCODES:
            ctx.error("decorations.target", SEC_DEC, "BuiltIns can only target variables, structure members or "
                                                     "constants", inst)
        elif ctx.is_shader and inst.words[3] == op.BUILTIN.WorkgroupSize:
            if opc not in op.CONSTANT_OPCODES:
                fail("must be a constant for WorkgroupSize")
        elif opc not in _VARIABLES:
            fail("must be a variable")
    elif dec in _MEMORY_OBJECT:
        if opc not in _VARIABLES and opc != op.FunctionParameter:
            fail("must be a memory object declaration")
        elif not ctx.is_pointer(d.type_id):
            fail("must be a pointer type")
        elif dec == D.Aliased and ctx.type_opcode(ctx.pointer_info(d.type_id)[1]) == op.TypeVoid:
            # U32: "The Aliased Decoration can only be applied to intermediate objects that are
            # pointers to non-void types." (SPIR-V 2.16.1; 3.20 names variables as targets too.)
            ctx.error("decorations.aliased", "SPIR-V 2.16.1",
                      f"Aliased decoration on {ctx.name(d.result_id)}: it applies only to pointers to non-void types",
                      inst)
        elif dec in (D.NonWritable, D.NonReadable) and not _writable_target_ok(ctx, d):
            ctx.error("decorations.target", SEC_DEC,
                      f"Target of {D.name(dec)} decoration is invalid: must point to a storage image, uniform "
                      f"block, or storage buffer" + (", or variable in Private or Function storage class"
                                                      if ctx.version >= (1, 4) else ""), inst)
    elif dec in _VARIABLE_ONLY:
        if opc not in _VARIABLES:
            fail("must be a variable")
        elif dec == D.Index and opc == op.Variable and d.words[3] != op.SC.Output:
            # "Index — Apply to a variable ... Only valid for the Output Storage Class and the
            # Fragment Execution Model." (SPIR-V 3.20, 32)
            fail("must be in the Output storage class")
    elif dec == D.RelaxedPrecision and ctx.grammar.instruction(opc) is not None and \
            ctx.grammar.instruction(opc).klass == "Type-Declaration":
        # SPIR-V 2.14 Relaxed Precision: the decoration applies to variables, function parameters,
        # structure members and the results of instructions, never to a type
        ctx.error("decorations.target", "SPIR-V 2.14", "RelaxPrecision decoration cannot be applied to a type", inst)
    elif dec in (D.RowMajor, D.ColMajor, D.MatrixStride, D.Offset):
        ctx.error("decorations.target", SEC_DEC,
                  f"{D.name(dec)} can only be applied to structure members", inst)
    elif dec == D.FuncParamAttr:
        # "a function return value or parameter attribute" (3.20): a parameter, or the function
        # (its return value). SPIRV-Tools does not check this.
        # Only memory objects that are plainly no parameter (variables) are rejected: the text names
        # no target list, so other targets are left alone, as SPIRV-Tools leaves all of them.
        if opc in _VARIABLES:
            fail("must be a function parameter (or a function, for its return value), not a variable")
    elif dec in (D.Uniform, getattr(D, "UniformId", -1)):
        if d.type_id is None:
            ctx.error("decorations.target", SEC_DEC, f"{D.name(dec)} decoration applied to a non-object", inst)
        elif ctx.type_opcode(d.type_id) == op.TypeVoid:
            ctx.error("decorations.target", SEC_DEC, f"{D.name(dec)} decoration applied to a value with void type",
                      inst)
    elif dec in (D.NoSignedWrap, D.NoUnsignedWrap):
        if opc not in _WRAP_TARGETS:
            ctx.error("decorations.target", SEC_DEC,
                      f"{D.name(dec)} decoration may not be applied to {ctx.grammar.instruction(opc).opname[2:]}", inst)
    elif dec == D.FPRoundingMode and not ctx.is_shader:
        # SPIR-V 3.16 (every version): "Associate a rounding mode to a floating-point conversion
        # instruction"; the OpenCL 3.0 env document (rule 37) lists the five. SPIRV-Tools checks
        # only the shader form (16-bit stores). Shaders are left to that form.
        if opc not in _CONVERSIONS_TO_FLOAT:
            ctx.error("opencl.fp-rounding-mode" if ctx.env.is_opencl else "decorations.target",
                      "OpenCL env 2.37, SPIR-V 3.16" if ctx.env.is_opencl else "SPIR-V 3.16",
                      f"FPRoundingMode decoration on target <id> {ctx.name(d.result_id)} must be the result of "
                      f"OpConvertFToU, OpConvertFToS, OpConvertSToF, OpConvertUToF or OpFConvert", inst)
    elif dec == D.FPRoundingMode:
        _fp_rounding_mode_shader(ctx, inst, d)
    elif dec == D.Alignment:
        # SPIR-V 3.20: "Apply to a pointer." (SPIRV-Tools does not check the target.)
        if d.type_id is None or not ctx.is_pointer(d.type_id):
            fail("must be a pointer")
    elif dec == D.SaturatedConversion:
        if opc not in _SATURATING:
            fail("must be the result of a conversion instruction")


_ROUNDING_STORAGE = frozenset({op.SC.StorageBuffer, op.SC.Uniform, op.SC.PushConstant, op.SC.Input, op.SC.Output,
                               getattr(op.SC, "PhysicalStorageBuffer", -1)})


def _fp_rounding_mode_shader(ctx, inst, d) -> None:
    """FPRoundingMode in a Shader module, as SPV_KHR_16bit_storage defines it and the Vulkan
    environment requires (Vulkan env 3.36: "only ... for the floating-point conversion instructions
    as described in the SPV_KHR_16bit_storage SPIR-V extension"): on an OpFConvert whose result is
    used only as the Object of OpStores through pointers to 16-bit float scalars or vectors in
    StorageBuffer, PhysicalStorageBuffer, Uniform, PushConstant, Input or Output storage."""
    rule, section = (("vulkan.fp-rounding-mode", "Vulkan env 3.36") if ctx.env.is_vulkan
                     else ("decorations.fp-rounding-mode", "SPIR-V 3.16; SPV_KHR_16bit_storage"))
    value = d.result_id

    def fail(what):
        ctx.error(rule, section, f"FPRoundingMode decoration on {ctx.name(value)}: {what}", inst)

    if d.opcode != op.FConvert:
        return fail("it can be applied only to a width-only conversion of a floating-point value (OpFConvert)")
    for use in _uses(ctx, value):
        if use.opcode == op.FConvert or use.opcode in _ANNOTATIONS or use.opcode in op.DEBUG_OPCODES \
                or (use.opcode in op.EXT_INSTS and ctx.ext_imports.get(use.words[3], "").startswith("NonSemantic.")):
            continue
        if use.opcode != op.Store or use.words[2] != value or use.words[1] == value:
            return fail("it can be applied only to the Object operand of an OpStore")
        info = ctx.pointer_info(ctx.type_of(use.words[1]))
        if info is None or info[1] is None:
            continue  # a bad pointer is the store's own error
        if not (ctx.is_float_scalar_or_vector(info[1]) and ctx.bit_width(info[1]) == 16):
            return fail("it can be applied only to the Object operand of an OpStore through a pointer to a 16-bit "
                        "floating-point scalar or vector")
        if info[0] not in _ROUNDING_STORAGE:
            return fail("it can be applied only to the Object operand of an OpStore in the StorageBuffer, "
                        "PhysicalStorageBuffer, Uniform, PushConstant, Input or Output storage class")


def _uses(ctx, value):
    index = getattr(ctx, "_uses_index", None)
    if index is None:
        index = {}
        for i in ctx.insts:
            for v in ctx.id_operands(i):
                index.setdefault(v, []).append(i)
        ctx._uses_index = index
    return index.get(value, ())


def _writable_target_ok(ctx, d) -> bool:
    """NonWritable/NonReadable targets (SPIR-V 3.20): a pointer to a uniform block, a storage
    buffer or a storage image; from SPIR-V 1.4 also Function/Private variables."""
    sc, pointee = ctx.pointer_info(d.type_id)
    if ctx.version >= (1, 4) and sc in (op.SC.Function, op.SC.Private):
        return True
    t = ctx.type_inst(pointee)
    while t is not None and t.opcode in (op.TypeArray, op.TypeRuntimeArray):
        t = ctx.type_inst(t.words[2])
    if t is None:
        return False
    if t.opcode == op.TypeImage:
        return sc == op.SC.UniformConstant and t.words[7] in (0, 2)
    if t.opcode != op.TypeStruct:
        return False
    block = ctx.has_decoration(t.words[1], D.Block)
    buffer_block = ctx.has_decoration(t.words[1], D.BufferBlock)
    if sc == op.SC.Uniform:
        return block or buffer_block
    return sc in (op.SC.StorageBuffer, op.SC.PhysicalStorageBuffer) and block


def _decoration_takes_strings(ctx, value) -> bool:
    e = ctx.grammar.operand_kinds["Decoration"].by_value.get(value)
    return e is not None and "LiteralString" in e.parameters


def _member_decorate(ctx, inst) -> None:
    struct, member = inst.words[1], inst.words[2]
    if inst.opcode == op.MemberDecorateString and not _decoration_takes_strings(ctx, inst.words[3]):
        ctx.error("decorations.decorate-string", SEC,
                  "Decorations that don't take string parameters may not be used with OpMemberDecorateString", inst)
        return
    t = ctx.defs.get(struct)
    if t is None or t.opcode != op.TypeStruct:
        ctx.error("decorations.member-target", SEC,
                  f"{inst.opname} Structure type <id> {ctx.name(struct)} is not a struct type.", inst)
        return
    count = len(t.words) - 2
    dec = inst.words[3]
    if dec == D.Aliased:
        # U32: Aliased applies to objects (pointers to non-void types), never to structure members.
        ctx.error("decorations.aliased", "SPIR-V 2.16.1", "Aliased cannot be applied to structure members", inst)
        return
    if dec in _NOT_ON_MEMBERS:
        ctx.error("decorations.member-target", SEC_DEC, f"{D.name(dec)} cannot be applied to structure members", inst)
        return
    if member >= count:
        ctx.error("decorations.member-index", SEC,
                  f"Index {member} provided in {inst.opname} for struct <id> {ctx.name(struct)} is out of bounds. "
                  f"The structure has {count} members. Largest valid index is {count - 1}.", inst)


def _group_decorate(ctx, inst, groups) -> None:
    group = inst.words[1]
    if group not in groups:
        ctx.error("decorations.group", SEC,
                  f"OpGroupDecorate Decoration group <id> {ctx.name(group)} is not a decoration group.", inst)
        return
    for target in inst.words[2:]:
        if target in groups:
            ctx.error("decorations.group", SEC, "OpGroupDecorate may not target OpDecorationGroup <id> "
                                                f"{ctx.name(target)}", inst)
            return


def _group_member_decorate(ctx, inst, groups) -> None:
    group = inst.words[1]
    if group not in groups:
        ctx.error("decorations.group", SEC,
                  f"OpGroupMemberDecorate Decoration group <id> {ctx.name(group)} is not a decoration group.", inst)
        return
    pairs = inst.words[2:]
    for struct, member in zip(pairs[::2], pairs[1::2]):
        t = ctx.defs.get(struct)
        if t is None or t.opcode != op.TypeStruct:
            ctx.error("decorations.member-target", SEC,
                      f"OpGroupMemberDecorate Structure type <id> {ctx.name(struct)} is not a struct type.", inst)
            return
        count = len(t.words) - 2
        if member >= count:
            ctx.error("decorations.member-index", SEC,
                      f"Index {member} provided in OpGroupMemberDecorate for struct <id> {ctx.name(struct)} is out of "
                      f"bounds. The structure has {count} members. Largest valid index is {count - 1}.", inst)
            return


def _group_uses(ctx, groups) -> None:
    if not groups:
        return
    allowed = {op.Name, op.GroupDecorate, op.Decorate, op.DecorateId, op.GroupMemberDecorate,
               op.DecorateString}
    for inst in ctx.insts:
        if inst.opcode in allowed:
            continue
        for v in ctx.id_operands(inst):
            if v in groups:
                ctx.error("decorations.group-use", SEC,
                          "Result id of OpDecorationGroup can only be targeted by OpName, OpGroupDecorate, "
                          "OpDecorate, OpDecorateId, and OpGroupMemberDecorate", inst)
                return


def _repeats_and_conflicts(ctx) -> None:
    for target, decorations in ctx.decorations.items():
        seen = {}
        for dec, _words, inst, member in decorations:
            if inst.opcode in (op.GroupDecorate, op.GroupMemberDecorate):
                continue
            key = (dec, member)
            if key in seen and dec not in _REPEATABLE and seen[key] is not inst:
                where = f" (member {member})" if member is not None else ""
                ctx.error("decorations.repeated", SEC_DEC,
                          f"ID '{target}' decorated with {D.name(dec)}{where} multiple times is not allowed.",
                          inst)
                return
            seen[key] = inst
        by_member: dict = {}
        for dec, _w, inst, member in decorations:
            by_member.setdefault(member, {})[dec] = inst
        for member, decs in by_member.items():
            for a, b, rule, section in _EXCLUSIVE:
                if a in decs and b in decs:
                    where = f" (member {member})" if member is not None else ""
                    ctx.error(rule, section,
                              f"ID '{target}'{where} is decorated with both {D.name(a)} and {D.name(b)}; at most "
                              f"one is allowed.", decs[b])
                    return


_EXCLUSIVE = ((D.Restrict, D.Aliased, "decorations.restrict-aliased", "SPIR-V 2.18.2"),
              (D.RestrictPointer, D.AliasedPointer, "decorations.restrict-aliased", "SPIR-V 2.18.2"),
              (D.RowMajor, D.ColMajor, "decorations.row-col-major", "SPIR-V 2.16.2"),
              (D.Block, D.BufferBlock, "decorations.block-bufferblock", "SPIR-V 2.16.2"),
              (D.Flat, D.NoPerspective, "decorations.interpolation", "SPIR-V 2.16.2"),
              (D.Patch, D.Centroid, "decorations.interpolation", "SPIR-V 2.16.2"),
              (D.Patch, D.Sample, "decorations.interpolation", "SPIR-V 2.16.2"),
              (D.Centroid, D.Sample, "decorations.interpolation", "SPIR-V 2.16.2"))
