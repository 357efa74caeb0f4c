"""Vulkan environment rules for compute (digest-vulkan-env.md §3, §3b): addressing model,
storage classes, initializers, UniformConstant and buffer variables, opaque types, images,
forbidden decorations, runtime arrays, entry points and workgroup size, built-in variables."""

from __future__ import annotations

from . import opcodes as op
from . import vulkan_graphics

SC, D = op.SC, op.DEC
_ALLOWED_CLASSES = {SC.UniformConstant, SC.Input, SC.Uniform, SC.Output, SC.Workgroup, SC.Private, SC.Function,
                    SC.PushConstant, SC.Image, SC.StorageBuffer, SC.PhysicalStorageBuffer}
for _n in ("CallableDataKHR", "IncomingCallableDataKHR", "RayPayloadKHR", "HitAttributeKHR",
           "IncomingRayPayloadKHR", "ShaderRecordBufferKHR", "TaskPayloadWorkgroupEXT", "TileImageEXT",
           "HitObjectAttributeNV", "NodePayloadAMDX", "TileAttachmentQCOM"):
    if hasattr(SC, _n):
        _ALLOWED_CLASSES.add(getattr(SC, _n))
_OPAQUE = frozenset({op.TypeImage, op.TypeSampler, op.TypeSampledImage}
                    | ({op.TypeAccelerationStructureKHR} if hasattr(op, "TypeAccelerationStructureKHR") else set()))
_COMPUTE_MODELS = {"GLCompute", "TaskNV", "MeshNV", "TaskEXT", "MeshEXT"}
# Compute built-ins and their types: (components, 32-bit int).
_COMPUTE_BUILTINS = {"NumWorkgroups": 3, "WorkgroupId": 3, "LocalInvocationId": 3, "GlobalInvocationId": 3,
                     "LocalInvocationIndex": 1, "WorkgroupSize": 3, "SubgroupSize": 1, "NumSubgroups": 1,
                     "SubgroupId": 1, "SubgroupLocalInvocationId": 1}


def check(ctx) -> None:
    if not ctx.env.is_vulkan:
        return
    _addressing(ctx)
    _extensions(ctx)
    for inst in ctx.insts:
        if inst.opcode == op.TypePointer and inst.words[2] not in _ALLOWED_CLASSES:
            ctx.error("vulkan.storage-class", "Vulkan env 3.10",
                      f"In Vulkan, storage class {SC.name(inst.words[2])} is not allowed", inst)
            return
        if inst.opcode == op.Variable:
            _variable(ctx, inst)
        elif inst.opcode == op.TypeStruct:
            _struct(ctx, inst)
        elif inst.opcode == op.TypeImage:
            _image(ctx, inst)
        elif inst.opcode in (op.Decorate, op.MemberDecorate):
            _decoration(ctx, inst)
        elif inst.opcode == op.Store:
            _store(ctx, inst)
        elif inst.opcode in _BIT_BASE_OPS:
            _bit_width_32(ctx, inst)
        elif inst.opcode == op.ImageQuerySizeLod or inst.opcode == op.ImageQueryLevels:
            _query_sampled(ctx, inst)
        elif inst.opcode == op.ImageTexelPointer:
            _texel_pointer_format(ctx, inst)
        if inst.opcode in _IMAGE_OPERAND_USERS:
            _image_operands(ctx, inst)
    _workgroup_size(ctx)
    _interface_decorations(ctx)
    _duplicate_builtin_inputs(ctx)
    _compute_output(ctx)
    _spec_array_rule(ctx)
    _workgroup_storage(ctx)
    _push_constants(ctx)
    vulkan_graphics.check(ctx)


# Per-vertex built-ins of the graphics stages: "Vulkan spec allows BuiltIn <name> to be only used
# for variables with Input or Output storage class" (VUID-<name>-<name>-04316 and its siblings).
_IN_OUT_BUILTINS = frozenset(getattr(op.BUILTIN, n) for n in ("Position", "PointSize", "ClipDistance", "CullDistance")
                             if hasattr(op.BUILTIN, n))


def _interface_decorations(ctx) -> None:
    """Vulkan's interface decoration rules (Standalone SPIR-V VUIDs of the current Vulkan spec; the
    project's older vulkan-spirv-env.txt does not carry them):

    * VUID-StandaloneSpirv-Component-04920: "The Component decoration value must not be greater
      than 3";
    * VUID-StandaloneSpirv-Location-04915: "The Location or Component decorations must not be used
      with BuiltIn";
    * VUID-StandaloneSpirv-Invariant-04677: "Variables decorated with Invariant and variables with
      structure types that have any members decorated with Invariant must be in the Output or Input
      storage class";
    * Position, PointSize, ClipDistance, CullDistance only on Input/Output variables (directly or
      as a member of the variable's structure type; VUID-PointSize-PointSize-04316 and siblings)."""
    for inst in ctx.instructions_of((op.Decorate, op.MemberDecorate)):
        dec_word = 2 if inst.opcode == op.Decorate else 3
        if inst.words[dec_word] == D.Component and len(inst.words) > dec_word + 1 and inst.words[dec_word + 1] > 3:
            ctx.error("vulkan.component", "VUID-StandaloneSpirv-Component-04920",
                      f"Component decoration value must not be greater than 3 (found {inst.words[dec_word + 1]})",
                      inst)
            return
    for inst in ctx.instructions_of((op.Variable,)):
        vid, sc = inst.words[2], inst.words[3]
        decs = {d: w for d, w, _i in ctx.decorations_of(vid)}
        if D.BuiltIn in decs and (D.Location in decs or D.Component in decs):
            ctx.error("vulkan.builtin-location", "VUID-StandaloneSpirv-Location-04915",
                      f"A BuiltIn variable ({ctx.name(vid)}) cannot have any Location or Component decorations", inst)
            return
        if sc in (SC.Input, SC.Output):
            continue
        builtin = decs.get(D.BuiltIn)
        if builtin and builtin[0] in _IN_OUT_BUILTINS:
            ctx.error("vulkan.builtin-storage-class", "VUID-PointSize-PointSize-04316",
                      f"Vulkan spec allows BuiltIn {op.BUILTIN.name(builtin[0])} to be only used for variables with "
                      f"Input or Output storage class", inst)
            return
        info = ctx.pointer_info(inst.words[1])
        struct = _pointee_strip_arrays(ctx, info[1]) if info is not None else None
        if struct is None or struct.opcode != op.TypeStruct:
            continue
        for m in range(len(struct.words) - 2):
            for d, w, _i in ctx.decorations_of(struct.words[1], m):
                if d == D.Invariant or (d == D.BuiltIn and w and w[0] in _IN_OUT_BUILTINS):
                    what = "Invariant" if d == D.Invariant else f"BuiltIn {op.BUILTIN.name(w[0])}"
                    ctx.error("vulkan.builtin-storage-class" if d == D.BuiltIn else "vulkan.decoration",
                              "VUID-StandaloneSpirv-Invariant-04677" if d == D.Invariant
                              else "VUID-PointSize-PointSize-04316",
                              f"Variable {ctx.name(vid)} has a structure member decorated {what}: it must be in the "
                              f"Input or Output storage class in the Vulkan environment", inst)
                    return


def _extensions(ctx) -> None:
    """§2 C3: "The application can pass a SPIR-V module to vkCreateShaderModule that uses the
    following SPIR-V extensions if ..." -- an OpExtension must name a SPIR-V extension of the Vulkan
    list (vk.xml <spirvextensions>). Whether its Vulkan extension is enabled, or its core version
    supported, is device state, not checked."""
    from .env import VULKAN_SPIRV_EXTENSIONS

    for inst in ctx.instructions_of((op.Extension,)):
        name = inst.value(0)
        if name not in VULKAN_SPIRV_EXTENSIONS:
            ctx.error("vulkan.extension", "Vulkan env 2 (C3)",
                      f"OpExtension \"{name}\" is not a SPIR-V extension the Vulkan environment lists", inst)
            return


def _addressing(ctx) -> None:
    if ctx.addressing_model not in (op.ADDRESSING.Logical, op.ADDRESSING.PhysicalStorageBuffer64):
        inst = next(i for i in ctx.instructions_of((op.MemoryModel,)))
        ctx.error("vulkan.addressing-model", "Vulkan env 3.3",
                  "Addressing model must be Logical or PhysicalStorageBuffer64 in the Vulkan environment.", inst)


def _pointee_strip_arrays(ctx, t):
    ti = ctx.type_inst(t)
    while ti is not None and ti.opcode in (op.TypeArray, op.TypeRuntimeArray):
        ti = ctx.type_inst(ti.words[2])
    return ti


def _variable(ctx, inst) -> None:
    info = ctx.pointer_info(inst.words[1])
    if info is None:
        return
    sc, pointee = info
    vid = inst.words[2]
    if len(inst.words) > 4:
        if sc == SC.Workgroup:
            # VUID-StandaloneSpirv-OpVariable-04734 (the current Vulkan spec; VK_KHR_zero_initialize_workgroup_memory,
            # core in 1.3, relaxed the older appendix's list): a Workgroup variable may be zero-initialised, with
            # OpConstantNull only. Whether the device enables the feature is not the module's to say, so every
            # Vulkan env accepts it, as spirv-val does.
            if ctx.def_opcode(inst.words[4]) != op.ConstantNull:
                ctx.error("vulkan.initializer", "Vulkan env 3.18, VUID-StandaloneSpirv-OpVariable-04734",
                          f"OpVariable, <id> {ctx.name(vid)}, initializers are limited to OpConstantNull in "
                          f"Workgroup storage class", inst)
                return
        elif sc not in (SC.Output, SC.Private, SC.Function):
            ctx.error("vulkan.initializer", "Vulkan env 3.18",
                      f"OpVariable, <id> {ctx.name(vid)}, has a disallowed initializer & storage class combination.\n"
                      f"From Vulkan spec:\nVariable declarations that include initializers must have one of the "
                      f"following storage classes: Output, Private, Function or Workgroup", inst)
            return
    base = _pointee_strip_arrays(ctx, pointee)
    if sc == SC.UniformConstant:
        if base is None or base.opcode not in _OPAQUE:
            ctx.error("vulkan.uniform-constant", "Vulkan env 3.19",
                      "Variables identified with the UniformConstant storage class are used only as handles to refer "
                      "to opaque resources. Such variables must be typed as OpTypeImage, OpTypeSampler, "
                      "OpTypeSampledImage, OpTypeAccelerationStructureKHR, or an array of one of these types.", inst)
            return
    if sc in (SC.Uniform, SC.StorageBuffer, SC.PushConstant):
        if base is None or base.opcode != op.TypeStruct:
            ctx.error("vulkan.buffer-variable", "Vulkan env 3b",
                      f"{SC.name(sc)} OpVariable <id> {ctx.name(vid)} has illegal type.\nFrom Vulkan spec:\n"
                      f"Variables identified with the {SC.name(sc)} storage class are used to access transparent "
                      f"buffer backed resources. Such variables must be typed as OpTypeStruct, or an array of this "
                      f"type", inst)
            return
        sid = base.words[1]
        block = ctx.has_decoration(sid, D.Block)
        buffer_block = ctx.has_decoration(sid, D.BufferBlock)
        if sc == SC.Uniform and not (block or buffer_block):
            ctx.error("vulkan.buffer-block", "Vulkan env 3b",
                      f"Uniform id '{vid}' is missing Block or BufferBlock decoration.", inst)
            return
        if sc in (SC.StorageBuffer, SC.PushConstant) and not block:
            ctx.error("vulkan.buffer-block", "Vulkan env 3b",
                      f"{SC.name(sc)} id '{vid}' is missing Block decoration.", inst)
            return
    if sc in (SC.UniformConstant, SC.Uniform, SC.StorageBuffer):
        for dec in (D.DescriptorSet, D.Binding):
            if not ctx.has_decoration(vid, dec):
                ctx.error("vulkan.descriptor-set-binding", "Vulkan env 3.38",
                          f"{SC.name(sc)} id '{vid}' is missing {D.name(dec)} decoration.", inst)
                return
    if ctx.type_opcode(pointee) == op.TypeRuntimeArray and (
            not ctx.has_capability("RuntimeDescriptorArray")
            or sc not in (SC.StorageBuffer, SC.Uniform, SC.UniformConstant)):
        # VUID-StandaloneSpirv-OpTypeRuntimeArray-04680: a bare runtime array is a descriptor array
        # (RuntimeDescriptorArray) of StorageBuffer, Uniform or UniformConstant resources.
        ctx.error("vulkan.runtime-array", "Vulkan env 3.39",
                  f"OpVariable, <id> {ctx.name(vid)}, is attempting to create memory for an illegal type, "
                  f"OpTypeRuntimeArray.", inst)
        return
    pt = ctx.type_inst(pointee)
    if pt is not None and pt.opcode == op.TypeStruct and any(
            ctx.type_opcode(m) == op.TypeRuntimeArray for m in pt.words[2:]):
        # 04680: "If an OpTypeStruct has an OpTypeRuntimeArray ... it must either have the storage class
        # StorageBuffer and be decorated with Block, or ... Uniform ... BufferBlock"
        if sc in (SC.StorageBuffer, getattr(SC, "PhysicalStorageBuffer", SC.StorageBuffer)):
            ok, need = ctx.has_decoration(pointee, D.Block), "Block"
        elif sc == SC.Uniform:
            ok, need = ctx.has_decoration(pointee, D.BufferBlock), "BufferBlock"
        else:
            ctx.error("vulkan.runtime-array", "Vulkan env 3.39",
                      "For Vulkan, OpTypeStruct variables containing OpTypeRuntimeArray must have storage class of "
                      "StorageBuffer, PhysicalStorageBuffer, or Uniform.", inst)
            return
        if not ok:
            ctx.error("vulkan.runtime-array", "Vulkan env 3.39",
                      f"For Vulkan, an OpTypeStruct variable containing an OpTypeRuntimeArray must be decorated with "
                      f"{need} if it has storage class {SC.name(sc)}.", inst)
            return
    if sc in (SC.Input, SC.Output) and _contains_psb_pointer(ctx, pointee, 0):
        ctx.error("vulkan.interface-psb-pointer", "Vulkan env (VUID-StandaloneSpirv-Input-09557)",
                  f"Input/Output interface variable id <{vid}> contains a PhysicalStorageBuffer pointer, which is not "
                  f"allowed.", inst)
        return
    _explicit_layout(ctx, inst, sc, pointee)


def _contains_psb_pointer(ctx, t, depth) -> bool:
    ti = ctx.type_inst(t)
    if ti is None or depth > 64:
        return False
    if ti.opcode == op.TypePointer:
        return ti.words[2] == getattr(SC, "PhysicalStorageBuffer", -1)
    if ti.opcode in (op.TypeArray, op.TypeRuntimeArray, op.TypeVector, op.TypeMatrix):
        return _contains_psb_pointer(ctx, ti.words[2], depth + 1)
    if ti.opcode == op.TypeStruct:
        return any(_contains_psb_pointer(ctx, m, depth + 1) for m in ti.words[2:])
    return False


_LAYOUT_DECORATIONS = frozenset({D.Block, D.BufferBlock, D.Offset, D.ArrayStride, D.MatrixStride, D.RowMajor,
                                 D.ColMajor} | {getattr(D, n) for n in ("OffsetIdEXT", "ArrayStrideIdEXT")
                                                if hasattr(D, n)})


def _layout_prohibited(ctx, sc, block) -> bool:
    """Storage classes whose memory has no explicit layout (VUID-StandaloneSpirv-None-10684):
    Workgroup (unless a Block with SPV_KHR_workgroup_memory_explicit_layout), UniformConstant, and
    from SPIR-V 1.5 Function and Private."""
    if sc == SC.Workgroup:
        return not (block and ctx.has_capability("WorkgroupMemoryExplicitLayoutKHR"))
    if sc == SC.UniformConstant:
        return True
    if sc in (SC.Function, SC.Private):
        return ctx.version > (1, 4)
    return False


def _explicit_layout(ctx, inst, sc, pointee) -> None:
    """VUID-StandaloneSpirv-None-10684: "explicit layout decorations must not be applied to ... types
    of variables in storage classes without an explicit layout" -- Block, BufferBlock, Offset,
    ArrayStride, MatrixStride, RowMajor and ColMajor anywhere in the variable's type."""
    block = ctx.type_opcode(pointee) == op.TypeStruct and ctx.has_decoration(pointee, D.Block)
    if not _layout_prohibited(ctx, sc, block):
        return
    stack, seen = [pointee], set()
    while stack:
        t = stack.pop()
        if t in seen:
            continue
        seen.add(t)
        ti = ctx.type_inst(t)
        if ti is None:
            continue
        if ti.opcode == op.TypePointer and not _layout_prohibited(ctx, ti.words[2], True):
            continue  # pointers into laid-out memory (PhysicalStorageBuffer, variable pointers) keep theirs
        for dec, _w, _i, _m in ctx.decorations.get(t, ()):
            if dec in _LAYOUT_DECORATIONS:
                ctx.error("vulkan.explicit-layout", "Vulkan env (VUID-StandaloneSpirv-None-10684)",
                          f"Invalid explicit layout decorations on type {ctx.name(t)}, the {SC.name(sc)} storage class "
                          f"has an explicit layout from the {D.name(dec)} decoration", inst)
                return
        if ti.opcode == op.TypeStruct:
            stack.extend(ti.words[2:])
        elif ti.opcode in (op.TypeArray, op.TypeRuntimeArray):
            stack.append(ti.words[2])
        elif ti.opcode == op.TypePointer:
            stack.append(ti.words[3])


def _struct(ctx, inst) -> None:
    sid = inst.words[1]
    members = inst.words[2:]
    for m in members:
        if ctx.type_opcode(m) in _OPAQUE or (ctx.type_opcode(m) in (op.TypeArray, op.TypeRuntimeArray)
                                             and _pointee_strip_arrays(ctx, m) is not None
                                             and _pointee_strip_arrays(ctx, m).opcode in _OPAQUE):
            ctx.error("vulkan.opaque-in-struct", "Vulkan env 3.20",
                      "In Vulkan, OpTypeStruct must not contain an opaque type.", inst)
            return
    if any(ctx.type_opcode(m) == op.TypeRuntimeArray for m in members):
        if not (ctx.has_decoration(sid, D.Block) or ctx.has_decoration(sid, D.BufferBlock)):
            ctx.error("vulkan.runtime-array", "Vulkan env 3.39",
                      "Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or "
                      "BufferBlock.", inst)


def _format_kind(name: str) -> str | None:
    """The Sampled Type a Vulkan image format needs (Vulkan env 5): 'int', 'uint' or 'float'."""
    if name == "Unknown":
        return None
    if name.endswith("ui"):
        return "uint"
    if name.endswith("i"):
        return "int"
    return "float"


def _image(ctx, inst) -> None:
    sampled_type, sampled = inst.words[2], inst.words[7]
    kind = _format_kind(ctx.enum_name("ImageFormat", inst.words[8]))
    st = ctx.type_inst(sampled_type)
    if kind is not None and st is not None:
        ok = (st.opcode == op.TypeFloat) if kind == "float" else (st.opcode == op.TypeInt)
        if not ok:
            ctx.error("vulkan.image-format", "Vulkan env 3.24",
                      f"The Sampled Type of image {ctx.name(inst.words[1])} must be a {'float' if kind == 'float' else 'int'} "
                      f"type to match Image Format {ctx.enum_name('ImageFormat', inst.words[8])}", inst)
            return
    t = ctx.type_inst(sampled_type)
    width_ok = t is not None and ((t.opcode == op.TypeFloat and t.words[2] == 32)
                                  or (t.opcode == op.TypeInt and t.words[2] in (32, 64)))
    if not width_ok:
        ctx.error("vulkan.image-sampled-type", "Vulkan env 3.22",
                  "Expected Sampled Type to be a 32-bit int, 64-bit int or 32-bit float scalar type for Vulkan "
                  "environment", inst)
    elif sampled not in (1, 2):
        ctx.error("vulkan.image-sampled", "Vulkan env 3.23", "Sampled must be 1 or 2 in the Vulkan environment.",
                  inst)


def _decoration(ctx, inst) -> None:
    dec_word = 2 if inst.opcode == op.Decorate else 3
    dec = inst.words[dec_word]
    if dec in (D.GLSLShared, D.GLSLPacked):
        ctx.error("vulkan.glsl-shared-packed", "Vulkan env 3.33",
                  f"{D.name(dec)} decoration is not allowed in the Vulkan environment", inst)
    elif dec == D.FPRoundingMode and inst.words[dec_word + 1] not in (0, 1):
        ctx.error("vulkan.fp-rounding-mode", "Vulkan env 3.36",
                  "In Vulkan, the FPRoundingMode mode must only by RTE or RTZ.", inst)
    elif dec == D.BuiltIn and inst.opcode == op.Decorate:
        _builtin(ctx, inst, op.BUILTIN.name(inst.words[3]))
    elif dec in (D.Flat, D.NoPerspective, D.Centroid, D.Sample, D.Invariant) and inst.opcode == op.Decorate:
        target = ctx.defs.get(inst.words[1])
        info = ctx.pointer_info(target.type_id) if target is not None and target.opcode == op.Variable else None
        if info is not None and info[0] not in (SC.Input, SC.Output):
            ctx.error("vulkan.decoration" if dec == D.Invariant else "decorations.interpolation",
                      "Vulkan env 3.34" if dec != D.Invariant else "Vulkan env 3.37",
                      f"Vulkan spec allows {D.name(dec)} only on variables in the Input or Output storage class", inst)
    elif dec in (D.DescriptorSet, D.Binding) and inst.opcode == op.Decorate:
        target = ctx.defs.get(inst.words[1])
        info = ctx.pointer_info(target.type_id) if target is not None and target.opcode == op.Variable else None
        if info is not None and info[0] not in (SC.StorageBuffer, SC.Uniform, SC.UniformConstant):
            ctx.error("vulkan.descriptor-set-binding", "Vulkan env 3.38",
                      f"{D.name(dec)} decoration on target <id> {ctx.name(inst.words[1])} must be in the StorageBuffer, "
                      f"Uniform, or UniformConstant storage class", inst)


def _builtin(ctx, inst, name) -> None:
    expected = _COMPUTE_BUILTINS.get(name)
    if expected is None:
        return
    target = ctx.defs.get(inst.words[1])
    if target is None:
        return
    if target.opcode == op.Variable:
        info = ctx.pointer_info(target.words[1])
        if info is None:
            return
        if name != "WorkgroupSize" and info[0] != SC.Input:
            ctx.error("vulkan.builtin", "Vulkan env 3.32",
                      f"Vulkan spec allows BuiltIn {name} to be only used for variables with Input storage class.",
                      inst)
            return
        t = info[1]
    else:
        t = target.type_id
    ok = ctx.is_int_scalar_or_vector(t) and ctx.bit_width(t) == 32 and ctx.dimension(t) == expected
    if expected == 1:
        ok = ok and ctx.is_int_scalar(t)
    if not ok:
        shape = "3-component 32-bit int vector" if expected == 3 else "int scalar"
        ctx.error("vulkan.builtin", "Vulkan env 3.32",
                  f"According to the Vulkan spec BuiltIn {name} variable needs to be a {shape}.", inst)


def _store(ctx, inst) -> None:
    info = ctx.pointer_info(ctx.type_of(inst.words[1]))
    if info is None:
        return
    sc, pointee = info
    base = _pointee_strip_arrays(ctx, ctx.type_of(inst.words[2]))
    if base is not None and base.opcode in _OPAQUE:
        ctx.error("vulkan.opaque-store", "Vulkan env 3.21",
                  "In the Vulkan environment, image, sampler and sampled image objects (and arrays of them) cannot "
                  "be stored", inst)
        return
    if sc != SC.Uniform:
        return
    root = _root_variable(ctx, inst.words[1])
    if root is None:
        return
    vinfo = ctx.pointer_info(root.words[1])
    base = _pointee_strip_arrays(ctx, vinfo[1]) if vinfo else None
    if base is not None and base.opcode == op.TypeStruct and ctx.has_decoration(base.words[1], D.Block):
        ctx.error("vulkan.uniform-block-store", "Vulkan env 3b",
                  "In the Vulkan environment, cannot store to Uniform Blocks", inst)


def _root_variable(ctx, pid):
    for _ in range(64):
        d = ctx.defs.get(pid)
        if d is None:
            return None
        if d.opcode == op.Variable:
            return d
        if d.opcode in (op.AccessChain, op.InBoundsAccessChain, op.PtrAccessChain, op.InBoundsPtrAccessChain,
                        op.CopyObject):
            pid = d.words[3]
        else:
            return None
    return None


def _workgroup_size(ctx) -> None:
    has_builtin = any(inst.opcode == op.Decorate and inst.words[2] == D.BuiltIn
                      and inst.words[3] == op.BUILTIN.WorkgroupSize for inst in ctx.insts)
    sized = {inst.words[1] for inst in ctx.insts
             if inst.opcode in (op.ExecutionMode, op.ExecutionModeId)
             and op.EXEC_MODE.name(inst.words[2]) in ("LocalSize", "LocalSizeId")}
    for inst in ctx.insts:
        if inst.opcode == op.EntryPoint and op.EXEC_MODEL.name(inst.words[1]) == "GLCompute":
            if inst.words[2] not in sized and not has_builtin:
                ctx.error("vulkan.workgroup-size", "Vulkan env 3.44",
                          "In the Vulkan environment, GLCompute execution model entry points require either the "
                          "LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be "
                          "specified.", inst)
                return


def _workgroup_storage(ctx) -> None:
    from .function import execution_models_by_function

    models = execution_models_by_function(ctx)
    workgroup_vars = {i.words[2] for i in ctx.insts if i.opcode == op.Variable and i.words[3] == SC.Workgroup}
    if not workgroup_vars:
        return
    for func in ctx.functions:
        fmodels = models.get(func.id, set())
        if not fmodels or fmodels <= _COMPUTE_MODELS:
            continue
        for b in func.blocks:
            for inst in b.instructions:
                if any(v in workgroup_vars for v in ctx.id_operands(inst)):
                    ctx.error("vulkan.workgroup-storage", "Vulkan env 3.11",
                              "Workgroup Storage Class is limited to MeshNV, TaskNV, and GLCompute execution model",
                              inst)
                    return


def _push_constants(ctx) -> None:
    push = {i.words[2] for i in ctx.insts if i.opcode == op.Variable and i.words[3] == SC.PushConstant}
    if len(push) < 2:
        return
    for inst in ctx.instructions_of((op.EntryPoint,)):
        interface = inst.words[inst.operands[2].offset + inst.operands[2].count:]
        used = [v for v in interface if v in push]
        if len(used) > 1:
            ctx.error("vulkan.push-constant", "Vulkan env 3b",
                      f"Entry point id '{inst.words[2]}' uses more than one PushConstant interface.", inst)
            return


def _duplicate_builtin_inputs(ctx) -> None:
    for inst in ctx.instructions_of((op.EntryPoint,)):
        seen = set()
        for v in inst.words[inst.operands[2].offset + inst.operands[2].count:]:
            d = ctx.defs.get(v)
            if d is None or d.opcode != op.Variable or d.words[3] != SC.Input:
                continue
            for dec, words, _i in ctx.decorations_of(v):
                if dec == D.BuiltIn and words:
                    if words[0] in seen:
                        ctx.error("vulkan.builtin", "Vulkan env 3.32",
                                  f"OpEntryPoint contains duplicate input variables with "
                                  f"{op.BUILTIN.name(words[0])} builtin", inst)
                        return
                    seen.add(words[0])


_BIT_BASE_OPS = frozenset({op.BitFieldInsert, op.BitFieldSExtract, op.BitFieldUExtract, op.BitReverse, op.BitCount})


def _bit_width_32(ctx, inst) -> None:
    if ctx.has_capability("BitInstructions"):
        return
    base = ctx.type_of(inst.words[3])
    if ctx.bit_width(base) != 32:
        ctx.error("vulkan.bit-width", "Vulkan env 3b",
                  f"Expected 32-bit int type for Base operand: {inst.opname[2:]}", inst)


def _image_type_of(ctx, value):
    t = ctx.type_inst(ctx.type_of(value))
    if t is not None and t.opcode == op.TypeSampledImage:
        t = ctx.type_inst(t.words[2])
    return t if t is not None and t.opcode == op.TypeImage else None


def _query_sampled(ctx, inst) -> None:
    t = _image_type_of(ctx, inst.words[3])
    if t is not None and t.words[7] != 1:
        ctx.error("vulkan.image-query", "Vulkan env 3.26",
                  f"{inst.opname} must only consume an Image operand whose type has its Sampled operand set to 1",
                  inst)


def _texel_pointer_format(ctx, inst) -> None:
    info = ctx.pointer_info(ctx.type_of(inst.words[3]))
    t = ctx.type_inst(info[1]) if info else None
    while t is not None and t.opcode in (op.TypeArray, op.TypeRuntimeArray):
        t = ctx.type_inst(t.words[2])
    if t is None or t.opcode != op.TypeImage:
        return
    fmt = ctx.enum_name("ImageFormat", t.words[8])
    if fmt not in ("R32i", "R32ui", "R32f", "R64i", "R64ui"):
        ctx.error("vulkan.image-texel-pointer", "Vulkan env 3.25",
                  "Expected the Image Format in Image to be R64i, R64ui, R32f, R32i, or R32ui for Vulkan environment",
                  inst)


def _compute_output(ctx) -> None:
    """VUID-StandaloneSpirv-None-04644: "If the Storage Class is Output, then it must not be used in
    the GLCompute ... Execution Model". Used means referenced by a function of the entry point's
    static call tree (as spirv-val reads it); a variable only listed in the interface is not used."""
    from .function import execution_models_by_function

    outputs = {i.words[2] for i in ctx.insts if i.opcode == op.Variable and i.words[3] == SC.Output}
    if not outputs or not ctx.interface_uses:
        return
    models = execution_models_by_function(ctx)
    for fi, used in sorted(ctx.interface_uses.items()):
        func = ctx.functions[fi]
        if "GLCompute" in models.get(func.id, ()) and used & outputs:
            ctx.error("vulkan.storage-class", "Vulkan env 3b",
                      f"Output storage class variable {ctx.name(min(used & outputs))} must not be used in the "
                      f"GLCompute execution model (VUID-StandaloneSpirv-None-04644)", func.definition)
            return


def _spec_array_rule(ctx) -> None:
    """Vulkan env 3.40: an array sized by a specialization constant is a variable's type only at
    the top level, unless the variable is in Function, Private or Workgroup storage."""
    for inst in ctx.insts:
        if inst.opcode != op.Variable or inst.words[3] in (SC.Function, SC.Private, SC.Workgroup):
            continue
        info = ctx.pointer_info(inst.words[1])
        if info is None or info[1] is None:
            continue
        stack = [(info[1], 0)]
        seen = set()
        while stack:
            t, depth = stack.pop()
            ti = ctx.type_inst(t)
            if ti is None or t in seen:
                continue
            seen.add(t)
            if ti.opcode == op.TypeArray:
                if depth > 0 and ctx.def_opcode(ti.words[3]) in op.SPEC_CONSTANT_OPCODES:
                    ctx.error("vulkan.spec-constant-array", "Vulkan env 3.40",
                              f"Variable {ctx.name(inst.words[2])} in {SC.name(inst.words[3])} storage contains an "
                              f"array sized by a specialization constant below its top-level type", inst)
                    return
                stack.append((ti.words[2], depth + 1))
            elif ti.opcode in (op.TypeRuntimeArray, op.TypeVector, op.TypeMatrix):
                stack.append((ti.words[2], depth + 1))
            elif ti.opcode == op.TypeStruct:
                stack.extend((m, depth + 1) for m in ti.words[2:])


_IMAGE_OPERAND_USERS = frozenset(d.opcode for d in op._g.instructions.values()
                                 if any(o.kind == "ImageOperands" for o in d.operands))
_GATHERS = frozenset(getattr(op, n) for n in ("ImageGather", "ImageDrefGather", "ImageSparseGather",
                                             "ImageSparseDrefGather"))
_OFFSET, _CONST_OFFSET, _CONST_OFFSETS = 0x10, 0x8, 0x20


def _image_operands(ctx, inst) -> None:
    """Vulkan env 3.29-3.31: at most one of Offset/ConstOffset/ConstOffsets; Offset only on
    gathers; a gather's Component is a constant."""
    mask = next((inst.words[o.offset] for o in inst.operands if o.kind == "ImageOperands"), 0)
    if bin(mask & (_OFFSET | _CONST_OFFSET | _CONST_OFFSETS)).count("1") > 1:
        ctx.error("vulkan.image-operands", "Vulkan env 3.29",
                  "Image Operands Offset, ConstOffset, ConstOffsets cannot be used together", inst)
    elif mask & _OFFSET and inst.opcode not in _GATHERS:
        ctx.error("vulkan.image-operands", "Vulkan env 3.30",
                  "Image Operand Offset can only be used with OpImage*Gather operations", inst)
    elif inst.opcode in (op.ImageGather, op.ImageSparseGather) and not ctx.is_constant_instruction(inst.words[5]):
        ctx.error("vulkan.image-operands", "Vulkan env 3.31",
                  f"{inst.opname}: Component Operand must be a constant", inst)

