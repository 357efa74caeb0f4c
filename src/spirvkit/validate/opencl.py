"""OpenCL environment rules (digest-opencl-env.md §2): execution, addressing and memory models,
OpExtension names old vs new, extended instruction sets, images, kernel signatures, built-in
variables, atomic and barrier scopes and orders per OpenCL version, group instruction scopes.
(Capability tables per version/profile are in ``capabilities``; integer signedness is K1 in
``types``; recursion in ``function``; atomic storage classes in ``atomics_barriers``.)"""

from __future__ import annotations

from . import opcodes as op
from .atomics_barriers import (ACQ_REL, ACQUIRE, ATOMICS, ORDER_BITS, RELEASE, SCOPED_OPCODES, SEQ_CST, eval_int32,
                               scope_operands)

SC, D, S = op.SC, op.DEC, op.SCOPE
_KNOWN_SETS = ("OpenCL.std", "OpenCL.DebugInfo.100")
# "Allowed types for OpenCL kernel arguments are: OpTypeInt, OpTypeFloat, OpTypeStruct, OpTypeVector,
# OpTypePointer, OpTypeSampler, OpTypeImage, OpTypePipe, OpTypeQueue" (OLD Kernel Arguments; NEW 2.8.2):
# no arrays (C arrays decay to pointers), events or bools.
_KERNEL_PARAM_TYPES = frozenset({op.TypeInt, op.TypeFloat, op.TypeStruct, op.TypeVector, op.TypePointer,
                                 op.TypeSampler, op.TypeImage, op.TypePipe, op.TypeQueue})
_KERNEL_POINTER_CLASSES = frozenset({SC.CrossWorkgroup, SC.Workgroup, SC.UniformConstant, SC.Function, SC.Generic})
_ALLOWED_IMAGE_SHAPES = {("1D", 0, 0), ("1D", 0, 1), ("2D", 0, 0), ("2D", 1, 0), ("2D", 0, 1), ("2D", 1, 1),
                         ("3D", 0, 0), ("Buffer", 0, 0)}
_GROUP_ASYNC = frozenset({op.GroupAsyncCopy, op.GroupWaitEvents})
_GROUP_CLASSES = frozenset({"Group", "Non-Uniform"})
# OpenCL C builtin -> (components, size_t-typed) (digest §5 table).
_BUILTIN_SHAPES = {"WorkDim": (1, False), "GlobalSize": (3, True), "GlobalInvocationId": (3, True),
                   "WorkgroupSize": (3, True), "EnqueuedWorkgroupSize": (3, True), "LocalInvocationId": (3, True),
                   "NumWorkgroups": (3, True), "WorkgroupId": (3, True), "GlobalOffset": (3, True),
                   "GlobalLinearId": (1, True), "LocalInvocationIndex": (1, True), "SubgroupSize": (1, False),
                   "SubgroupMaxSize": (1, False), "NumSubgroups": (1, False), "NumEnqueuedSubgroups": (1, False),
                   "SubgroupId": (1, False), "SubgroupLocalInvocationId": (1, False),
                   # cl_khr_subgroup_ballot (NEW 5.2.16): "the supported variable type is an OpTypeVector
                   # with four Component Count components of OpTypeInt, with Width equal to 32"
                   **{f"Subgroup{m}Mask": (4, False) for m in ("Eq", "Ge", "Gt", "Le", "Lt")}}


def cl_extensions(ctx) -> frozenset[str]:
    """The OpenCL extensions whose rules apply: the device's (``ValidatorOptions.extensions``) and,
    in the OLD environments (1.2-2.2), the ones the module declares: "To enable the behavior
    described for an extension, a SPIR-V module must declare use of the extension using
    OpExtension" (OLD, OpenCL Extensions). The NEW document (3.0) reverses this: "there is never a
    need to declare use of an OpenCL extension" (NEW 5.1), and a cl_* OpExtension is an error
    there (``opencl.extension-name``)."""
    declared = {e for e in ctx.extensions if e.startswith(("cl_", "cles_"))} if ctx.env.api_version != (3, 0) \
        else set()
    return frozenset(ctx.options.extensions) | declared


def check(ctx) -> None:
    if not ctx.env.is_opencl:
        return
    _models(ctx)
    _extensions(ctx)
    extensions = cl_extensions(ctx)
    for inst in ctx.instructions_of((op.TypeImage, op.ImageWrite, op.ImageRead, op.ImageSampleExplicitLod,
                                     op.ImageFetch, op.ImageQuerySizeLod, op.EntryPoint, op.Variable)):
        if inst.opcode == op.TypeImage:
            _image_type(ctx, inst)
        elif inst.opcode == op.ImageWrite:
            _image_write(ctx, inst, extensions)
        elif inst.opcode in (op.ImageRead, op.ImageSampleExplicitLod, op.ImageFetch, op.ImageQuerySizeLod):
            if inst.opcode != op.ImageQuerySizeLod:
                _const_offset(ctx, inst)
            _image_lod(ctx, inst, extensions)
        elif inst.opcode == op.EntryPoint:
            _kernel_signature(ctx, inst)
        elif inst.opcode == op.Variable:
            _variable(ctx, inst)
    _scopes(ctx)
    _group_types(ctx)


def _models(ctx) -> None:
    for inst in ctx.instructions_of((op.EntryPoint,)):
        if op.EXEC_MODEL.name(inst.words[1]) != "Kernel":
            ctx.error("opencl.execution-model", "OpenCL env 2.1",
                      "In the OpenCL environment, the Execution Model of an OpEntryPoint must be Kernel.", inst)
            return
    mm = next((i for i in ctx.instructions_of((op.MemoryModel,))), None)
    if mm is None:
        return
    addressing = op.ADDRESSING.name(mm.words[1])
    bits = ctx.options.address_bits if ctx.env.api_version == (3, 0) else None
    allowed = {32: ("Physical32",), 64: ("Physical64",)}.get(bits, ("Physical32", "Physical64"))
    if addressing not in allowed:
        ctx.error("opencl.addressing-model", "OpenCL env 2.2",
                  f"Addressing model must be {' or '.join(allowed)} in the OpenCL environment.", mm)
    elif op.MEMORY_MODEL.name(mm.words[2]) != "OpenCL":
        ctx.error("opencl.memory-model", "OpenCL env 2.3", "Memory model must be OpenCL in the OpenCL environment.",
                  mm)


def _extensions(ctx) -> None:
    new_doc = ctx.env.api_version == (3, 0)
    for inst in ctx.instructions_of((op.Extension, op.ExtInstImport)):
        if inst.opcode == op.Extension:
            name = inst.value(0)
            if new_doc and name.startswith(("cl_", "cles_")):
                ctx.error("opencl.extension-name", "OpenCL env 2.8",
                          f"OpExtension \"{name}\": OpenCL 3.0 modules name SPIR-V extensions (SPV_*) only; OpenCL "
                          f"extensions are never declared with OpExtension", inst)
                return
        elif inst.opcode == op.ExtInstImport:
            name = inst.value(1)
            if name not in _KNOWN_SETS and not name.startswith("NonSemantic."):
                ctx.error("opencl.ext-inst-set", "OpenCL env 2.7",
                          f"OpExtInstImport \"{name}\": the OpenCL environment supports only the OpenCL.std (and "
                          f"OpenCL.DebugInfo.100) extended instruction sets", inst)
                return


def _image_type(ctx, inst) -> None:
    w = inst.words
    sampled_type, dim, depth, arrayed, ms, sampled, fmt = w[2], w[3], w[4], w[5], w[6], w[7], w[8]
    dim_name = op.DIM.name(dim)

    def fail(message, rule="opencl.image-type", section="OpenCL env 2.11"):
        ctx.error(rule, section, message, inst)

    if ctx.type_opcode(sampled_type) != op.TypeVoid:
        fail("Sampled Type must be OpTypeVoid in the OpenCL environment.")
    elif sampled != 0:
        fail("Sampled must be 0 in the OpenCL environment.", section="OpenCL env 2.12")
    elif ms != 0:
        fail("MS must be 0 in the OpenCL environment.", section="OpenCL env 2.13")
    elif arrayed and dim_name not in ("1D", "2D"):
        fail("In the OpenCL environment, Arrayed may only be set to 1 when Dim is either 1D or 2D.",
             section="OpenCL env 2.14")
    elif fmt != 0:
        fail("Format must be Unknown in the OpenCL environment.", section="OpenCL env 2.15")
    elif len(w) < 10:
        fail("In the OpenCL environment, the optional Access Qualifier must be present.", section="OpenCL env 2.16")
    elif (dim_name, depth, arrayed) not in _ALLOWED_IMAGE_SHAPES:
        fail(f"Image type (Dim {dim_name}, Depth {depth}, Arrayed {arrayed}) is not allowed in the OpenCL "
             f"environment.", section="OpenCL env 2.17")


def _image_write(ctx, inst, extensions) -> None:
    image_type = ctx.type_inst(ctx.type_of(inst.words[1]))
    if image_type is not None and image_type.opcode == op.TypeImage and op.DIM.name(image_type.words[3]) == "3D" \
            and "cl_khr_3d_image_writes" not in extensions:
        ctx.error("opencl.image-write-3d", "OpenCL env 2.20",
                  "OpImageWrite to a 3D image needs the cl_khr_3d_image_writes extension "
                  "(ValidatorOptions.extensions)", inst)
        return
    if len(inst.words) > 4:
        mask = inst.words[4]
        mipmap = "cl_khr_mipmap_image_writes" in extensions
        if mask & ~(0x2 if mipmap else 0):  # only Lod (0x2), and only with cl_khr_mipmap_image_writes
            ctx.error("opencl.image-write-operands", "OpenCL env 2.18",
                      "In the OpenCL environment, OpImageWrite takes no Image Operands except Lod (with "
                      "cl_khr_mipmap_image_writes).", inst)


def _const_offset(ctx, inst) -> None:
    if inst.opcode == op.ImageFetch and ctx.env.api_version == (3, 0):
        return  # NEW dropped OpImageFetch from the ban
    ops = inst.operands
    for i, o in enumerate(ops):
        if o.kind == "ImageOperands" and inst.words[o.offset] & 0x8:  # ConstOffset
            ctx.error("opencl.image-const-offset", "OpenCL env 2.19",
                      f"{inst.opname}: ConstOffset image operand is not allowed in the OpenCL environment.", inst)
            return


_LOD = 0x2  # ImageOperands Lod
_MIPMAP = frozenset({"cl_khr_mipmap_image", "cl_khr_mipmap_image_writes"})  # _writes implies mipmap_image


def _image_lod(ctx, inst, extensions) -> None:
    """cl_khr_mipmap_image: "the environment must accept non-zero optional Lod Image Operands for
    ... OpImageSampleExplicitLod, OpImageRead, OpImageQuerySizeLod" (NEW 5.2.9; OLD adds
    OpImageFetch). Without it a level of detail other than 0 is not accepted, and OpImageRead takes
    no Lod at all: SPIR-V allows Lod only on explicit-lod instructions and OpImageFetch (3.14), the
    extension is what adds OpImageRead. Only a constant Lod can be checked."""
    if extensions & _MIPMAP:
        return
    if inst.opcode == op.ImageQuerySizeLod:
        lod = inst.words[4] if len(inst.words) > 4 else None
    else:
        ops = inst.operands
        mask_at = next((i for i, o in enumerate(ops) if o.kind == "ImageOperands"), None)
        if mask_at is None or not inst.words[ops[mask_at].offset] & _LOD:
            return
        if inst.opcode == op.ImageRead:
            ctx.error("opencl.image-lod", "OpenCL env NEW 5.2.9",
                      "OpImageRead: the Lod Image Operand needs the cl_khr_mipmap_image extension (SPIR-V allows "
                      "Lod only on explicit-lod instructions and OpImageFetch)", inst)
            return
        lod = inst.words[ops[mask_at].offset + 1] if ops[mask_at].offset + 1 < len(inst.words) else None
    if lod is None:
        return
    d = ctx.defs.get(lod)
    if d is None or d.opcode not in (op.Constant, op.ConstantNull):
        return
    value = list(d.words[3:]) if d.opcode == op.Constant else []
    if value and ctx.is_float_scalar(d.words[1]):
        value[-1] &= 0x7FFFFFFF  # -0.0 is a zero level of detail too
    if any(value):
        ctx.error("opencl.image-lod", "OpenCL env NEW 5.2.9",
                  f"{inst.opname}: a non-zero Lod needs the cl_khr_mipmap_image extension "
                  f"(ValidatorOptions.extensions)", inst)


def _kernel_signature(ctx, inst) -> None:
    f = ctx.defs.get(inst.words[2])
    if f is None or f.opcode != op.Function:
        return
    ftype = ctx.type_inst(f.words[4])
    if ftype is None:
        return
    for p in ftype.words[3:]:
        t = ctx.type_inst(p)
        if t is None or t.opcode not in _KERNEL_PARAM_TYPES:
            what = ctx.grammar.instruction(t.opcode).opname if t is not None else "?"
            ctx.error("opencl.kernel-parameter", "OpenCL env 2.22",
                      f"Kernel parameter type {ctx.name(p)} ({what}) is not allowed for an OpenCL kernel argument.",
                      inst)
            return
        bad = _struct_or_vector_member(ctx, t) if t.opcode in (op.TypeStruct, op.TypeVector) else None
        if bad is not None:
            ctx.error("opencl.kernel-parameter", "OpenCL env 2.22",
                      f"Kernel parameter type {ctx.name(p)} holds a {bad}: the members of a structure kernel "
                      f"argument are OpTypeInt, OpTypeFloat, OpTypeStruct, OpTypeVector or OpTypePointer, and a "
                      f"vector's components integers or floats (a host API representation)", inst)
            return
        if t.opcode == op.TypeFloat and t.words[2] != 32 and not _float_param_ok(ctx, t.words[2]):
            ctx.error("opencl.kernel-parameter", "OpenCL env 2.22",
                      f"Kernel parameter type {ctx.name(p)} is a {t.words[2]}-bit float: OpenCL kernel float "
                      f"arguments are 32-bit", inst)
            return
        if t.opcode == op.TypePointer and t.words[2] == SC.Function and not _byval(ctx, f, ftype.words[3:].index(p)):
            ctx.error("opencl.kernel-parameter", "OpenCL env 2.22",
                      f"Kernel pointer parameter {ctx.name(p)} has storage class Function; only a by-value "
                      f"aggregate (FuncParamAttr ByVal) may be passed that way", inst)
            return
        if t.opcode == op.TypePointer and t.words[2] not in _KERNEL_POINTER_CLASSES:
            ctx.error("opencl.kernel-parameter", "OpenCL env 2.22",
                      f"Kernel pointer parameter {ctx.name(p)} has storage class {SC.name(t.words[2])}; OpenCL kernel "
                      f"arguments point to CrossWorkgroup, Workgroup or UniformConstant memory.", inst)
            return


_STRUCT_MEMBER_TYPES = frozenset({op.TypeInt, op.TypeFloat, op.TypeStruct, op.TypeVector, op.TypePointer})


def _struct_or_vector_member(ctx, t, depth: int = 0) -> str | None:
    """The opname of the first member type a structure kernel argument may not hold ("For
    OpTypeStruct parameters, supported structure Member Types are: OpTypeInt, OpTypeFloat,
    OpTypeStruct, OpTypeVector, OpTypePointer", OLD and NEW 2.8.2), looking into nested structures
    and vector components (bool vectors have no host representation); None when all are allowed."""
    if t is None or depth > 64:
        return None
    if t.opcode == op.TypeVector:
        c = ctx.type_inst(t.words[2])
        return None if c is None or c.opcode in (op.TypeInt, op.TypeFloat) else "vector of " + \
            ctx.grammar.instruction(c.opcode).opname
    for member in t.words[2:]:
        m = ctx.type_inst(member)
        if m is None:
            continue
        if m.opcode not in _STRUCT_MEMBER_TYPES:
            return ctx.grammar.instruction(m.opcode).opname
        if m.opcode in (op.TypeStruct, op.TypeVector):
            bad = _struct_or_vector_member(ctx, m, depth + 1)
            if bad is not None:
                return bad
    return None


def _variable(ctx, inst) -> None:
    vid = inst.words[2]
    builtin = next((w[0] for d, w, _i in ctx.decorations_of(vid) if d == D.BuiltIn and w), None)
    if builtin is None:
        if ctx.env.api_version == (3, 0) and inst.words[3] == SC.CrossWorkgroup and \
                not ctx.options.program_scope_global_variables:
            ctx.error("opencl.program-scope-variable", "OpenCL env 3",
                      "Program-scope CrossWorkgroup variables need a device with program scope global variables.",
                      inst)
        return
    name = op.BUILTIN.name(builtin)
    if inst.words[3] != SC.Input:
        ctx.error("opencl.builtin-storage-class", "OpenCL env 2.23",
                  f"BuiltIn {name} variable must be in the Input storage class in the OpenCL environment.", inst)
        return
    shape = _BUILTIN_SHAPES.get(name)
    info = ctx.pointer_info(inst.words[1])
    if shape is None or info is None:
        return
    count, size_t = shape
    t = info[1]
    width = 64 if ctx.addressing_model == op.ADDRESSING.Physical64 else 32
    ok = ctx.is_int_scalar_or_vector(t) and ctx.dimension(t) == count and \
        (count == 1) == ctx.is_int_scalar(t) and ctx.bit_width(t) == (width if size_t else 32)
    if not ok:
        what = ("size_t" if size_t else "uint") + (f" vector of {count}" if count > 1 else "")
        ctx.error("opencl.builtin-type", "OpenCL env 2.23",
                  f"BuiltIn {name} variable must be of type {what} (OpenCL env built-in variables table).", inst)


# -- scopes and memory orders ------------------------------------------------------------------------

def _order_name(value) -> str:
    if value & SEQ_CST:
        return "SequentiallyConsistent"
    if value & (ACQUIRE | RELEASE | ACQ_REL):
        return "AcquireRelease"
    return "Relaxed"


def _scopes(ctx) -> None:
    api = ctx.env.api_version
    o = ctx.options
    # cl_khr_subgroups: the device has it (options.extensions) or, in the OLD documents, the module
    # declares it ("a SPIR-V module must declare use of the extension using OpExtension").
    cl_subgroups = "cl_khr_subgroups" in cl_extensions(ctx)
    # Subgroup execution and memory scope: "For OpenCL 2.1, OpenCL 2.2, or OpenCL 3.0 devices
    # supporting Subgroups" (NEW 4), or cl_khr_subgroups (NEW 5.2.11; OLD: "the environment will
    # generally allow the scope for Execution to include: Subgroup"). OpenCL 1.2 and 2.0: "Scope for
    # Execution is generally limited to: Workgroup" (OLD).
    subgroups = api in ((2, 1), (2, 2)) or (api == (3, 0) and o.subgroups) or cl_subgroups
    for inst in ctx.instructions_of(SCOPED_OPCODES):
        desc = inst.desc
        if desc is None:
            continue
        is_atomic = inst.opcode in ATOMICS
        # OpMemoryNamedBarrier (cl_khr_subgroup_named_barrier, 2.1+) takes the barriers' memory scopes
        is_barrier = inst.opcode in (op.ControlBarrier, op.MemoryBarrier, _op("MemoryNamedBarrier"))
        is_group = desc.klass in _GROUP_CLASSES
        known = {}
        for role, _index, value_id in scope_operands(ctx, inst):
            _is_int, is_const, value = eval_int32(ctx, value_id)
            if not is_const:
                continue
            known.setdefault(role, value)
            if role == "exec":
                _exec_scope(ctx, inst, value, is_group, subgroups)
            elif role == "memory" and is_atomic:
                _atomic_scope(ctx, inst, value, subgroups)
            elif role == "memory" and is_barrier:
                _fence_scope(ctx, inst, value, subgroups)
            elif role in ("semantics", "equal", "unequal"):
                _order(ctx, inst, value, is_atomic, is_barrier)
        if is_atomic:
            _atomic_width(ctx, inst)
        if is_atomic and o.strict_opencl_version_rules and api != (3, 0):
            _int64_atomic_workgroup_memory(ctx, inst, known)


_FLOAT16_ATOMIC_CAPABILITIES = tuple(c for c in op._g.operand_kinds["Capability"].by_name
                                     if c.startswith("AtomicFloat16"))


def _atomic_width(ctx, inst) -> None:
    """OLD and NEW (digest rule 24): "Only 32-bit integer types are supported for the Result Type
    and/or type of Value for all Atomic Instructions."; "When the Int64Atomics capability is
    declared, 64-bit integer types are valid" (64 bits without it: ``atomics.int64``). Float
    atomics (OpenCL C 2.0 atomic_float, SPV_EXT_shader_atomic_float_*) are left to their 32- and
    64-bit widths; 16-bit floats need the SPV_EXT_shader_atomic_float16_add capabilities."""
    if inst.opcode in (op.AtomicFlagTestAndSet, op.AtomicFlagClear):
        return
    t = ctx.type_of(inst.words[4]) if inst.opcode == op.AtomicStore else inst.words[1]
    width = ctx.bit_width(t)
    if not (ctx.is_int_scalar(t) or ctx.is_float_scalar(t)) or width in (32, 64):
        return
    if ctx.is_float_scalar(t) and width == 16 and any(ctx.has_capability(c) for c in _FLOAT16_ATOMIC_CAPABILITIES):
        return
    kind = "integer" if ctx.is_int_scalar(t) else "floating-point"
    _fail(ctx, inst, "opencl.atomic-width", "OpenCL env 2.24",
          f"{width}-bit {kind} atomics are not supported in the OpenCL environment: \"Only 32-bit integer types are "
          f"supported for the Result Type and/or type of Value for all Atomic Instructions\" (64-bit with "
          f"Int64Atomics)")


_WORKGROUP_MEMORY = 0x100  # MemorySemantics WorkgroupMemory


def _int64_atomic_workgroup_memory(ctx, inst, known) -> None:
    """OLD (cl_khr_int64_base/extended_atomics): "When the WorkgroupMemory Memory Semantic is used
    the Scope must be Workgroup." (for the 64-bit atomics the extensions add)."""
    width = ctx.bit_width(inst.words[1]) if inst.opcode != op.AtomicStore else \
        ctx.bit_width(ctx.type_of(inst.words[4]))
    if width != 64 or "memory" not in known or not known.get("semantics", 0) & _WORKGROUP_MEMORY:
        return
    if known["memory"] != S.Workgroup:
        _fail(ctx, inst, "opencl.int64-atomic-scope", "OpenCL env OLD, cl_khr_int64_base_atomics",
              f"64-bit atomics with WorkgroupMemory semantics must use scope Workgroup (found "
              f"{S.name(known['memory'])})")


def _fail(ctx, inst, rule, section, message) -> None:
    ctx.error(rule, section, f"{inst.opname[2:]}: {message}", inst)


def _exec_scope(ctx, inst, value, is_group, subgroups) -> None:
    api = ctx.env.api_version
    name = S.name(value)
    if inst.opcode in _GROUP_ASYNC:
        if value != S.Workgroup:
            _fail(ctx, inst, "opencl.execution-scope", "OpenCL env 2.32",
                  "execution scope must be Workgroup in the OpenCL environment")
        return
    allowed = {S.Workgroup} | ({S.Subgroup} if subgroups else set())
    if is_group and api == (3, 0) and not ctx.options.work_group_collective_functions:
        allowed.discard(S.Workgroup)
    if value not in allowed:
        _fail(ctx, inst, "opencl.execution-scope", "OpenCL env 2.33-2.35",
              f"execution scope {name} is not allowed in the OpenCL %d.%d environment (Workgroup%s only)"
              % (*api, " or Subgroup" if subgroups else ""))


def _atomic_scope(ctx, inst, value, subgroups) -> None:
    api = ctx.env.api_version
    name = S.name(value)
    if api == (1, 2):
        # "In an OpenCL 1.2 environment, for the Atomic Instructions, the Scope for Memory must be
        # Device" (no extension widens it: cl_khr_subgroups' memory Subgroup excludes 1.2 atomics)
        if value != S.Device:
            _fail(ctx, inst, "opencl.atomic-scope", "OpenCL env 2.27",
                  f"atomic memory scope must be Device in the OpenCL 1.2 environment (found {name})")
        return
    allowed = {S.CrossDevice, S.Device, S.Workgroup} | ({S.Subgroup} if subgroups else set())
    if api == (3, 0):
        allowed = {getattr(S, n) for n in ctx.options.atomic_scopes if hasattr(S, n)} & (allowed | {S.Subgroup})
        if not ctx.options.subgroups:
            allowed.discard(S.Subgroup)
    if value not in allowed:
        _fail(ctx, inst, "opencl.atomic-scope", "OpenCL env 2.28",
              f"atomic memory scope {name} is not allowed in the OpenCL %d.%d environment" % api)


def _fence_scope(ctx, inst, value, subgroups) -> None:
    api = ctx.env.api_version
    name = S.name(value)
    if api == (1, 2):
        # "In an OpenCL 1.2 environment, for the Barrier Instructions OpControlBarrier and
        # OpMemoryBarrier, the Scope for Memory must be Workgroup"; cl_khr_subgroups: "for all
        # instructions except Atomic Instructions in an OpenCL 1.2 environment, the Scope for Memory
        # may be: Subgroup" (NEW 5.2.11)
        if value not in ({S.Workgroup, S.Subgroup} if subgroups else {S.Workgroup}):
            _fail(ctx, inst, "opencl.barrier-scope", "OpenCL env 2.29",
                  f"barrier memory scope must be Workgroup%s in the OpenCL 1.2 environment (found {name})"
                  % (" or Subgroup" if subgroups else ""))
        return
    allowed = {S.CrossDevice, S.Device, S.Workgroup, S.Invocation} | ({S.Subgroup} if subgroups else set())
    if api == (3, 0):
        allowed = {getattr(S, n) for n in ctx.options.fence_scopes if hasattr(S, n)} & (allowed | {S.Subgroup})
        if not ctx.options.subgroups:
            allowed.discard(S.Subgroup)
    if value not in allowed:
        _fail(ctx, inst, "opencl.barrier-scope", "OpenCL env 2.30",
              f"barrier memory scope {name} is not allowed in the OpenCL %d.%d environment" % api)


def _order(ctx, inst, value, is_atomic, is_barrier) -> None:
    api = ctx.env.api_version
    order = _order_name(value & ORDER_BITS)
    if api == (1, 2):
        # "... the memory-order constraint in Memory Semantics must be Relaxed" (atomics) / "must be
        # SequentiallyConsistent" (barriers): the order bits only, storage-class bits may be set
        if is_atomic and order != "Relaxed":
            _fail(ctx, inst, "opencl.atomic-order", "OpenCL env 2.27",
                  f"atomic memory order must be Relaxed in the OpenCL 1.2 environment (found {order})")
        elif is_barrier and order != "SequentiallyConsistent":
            _fail(ctx, inst, "opencl.barrier-order", "OpenCL env 2.29",
                  f"barrier memory order must be SequentiallyConsistent in the OpenCL 1.2 environment (found {order})")
        return
    if api == (3, 0):
        allowed = ctx.options.atomic_orders if is_atomic else ctx.options.fence_orders
        if (is_atomic or is_barrier) and order not in allowed:
            _fail(ctx, inst, "opencl.memory-order", "OpenCL env 2.28",
                  f"memory order {order} is not supported by the device (options.atomic_orders/fence_orders)")


def _op(name) -> int:
    return getattr(op, name, -1)


# digest rules 39 and 41 (OpenCL env NEW 5.2.14-5.2.20, 5.2.27): the Value/X types of the subgroup
# and uniform group instructions, and ClusterSize only with GroupNonUniformClustered.
_NU_SCALAR = frozenset(_op(n) for n in ("GroupNonUniformShuffle", "GroupNonUniformShuffleXor",
                                        "GroupNonUniformShuffleUp", "GroupNonUniformShuffleDown",
                                        "GroupNonUniformAllEqual", "GroupNonUniformBroadcastFirst"))
_NU_BROADCAST = _op("GroupNonUniformBroadcast")
_NU_LOGICAL = frozenset(_op(n) for n in ("GroupNonUniformLogicalAnd", "GroupNonUniformLogicalOr",
                                         "GroupNonUniformLogicalXor"))
_NU_ARITHMETIC = frozenset(_op("GroupNonUniform" + n) for n in (
    "IAdd", "FAdd", "IMul", "FMul", "SMin", "UMin", "FMin", "SMax", "UMax", "FMax", "BitwiseAnd", "BitwiseOr",
    "BitwiseXor")) | _NU_LOGICAL
_GROUP_TYPED = frozenset({op.GroupIAdd, op.GroupFAdd, op.GroupSMin, op.GroupUMin, op.GroupFMin, op.GroupSMax,
                          op.GroupUMax, op.GroupFMax})
_UNIFORM_LOGICAL = frozenset(_op(n) for n in ("GroupLogicalAndKHR", "GroupLogicalOrKHR", "GroupLogicalXorKHR"))
_UNIFORM_ARITHMETIC = frozenset(_op(n) for n in ("GroupIMulKHR", "GroupFMulKHR", "GroupBitwiseAndKHR",
                                                 "GroupBitwiseOrKHR", "GroupBitwiseXorKHR")) | _UNIFORM_LOGICAL
_GROUP_TYPE_OPCODES = tuple(o for o in (*_NU_SCALAR, _NU_BROADCAST, *_NU_ARITHMETIC, op.GroupBroadcast, *_GROUP_TYPED,
                                        *_UNIFORM_ARITHMETIC) if o >= 0)
_VECTOR_SIZES = frozenset({2, 3, 4, 8, 16})
# NEW 5.2.16: "For the instructions OpGroupNonUniformInverseBallot, OpGroupNonUniformBallotBitExtract,
# OpGroupNonUniformBallotBitCount, OpGroupNonUniformBallotFindLSB, and OpGroupNonUniformBallotFindMSB,
# the valid type for Value is an OpTypeVector with four Component Count components of OpTypeInt,
# with Width equal to 32 and Signedness equal to 0" (opcode -> word of Value).
_BALLOT_VALUE = {_op(n): w for n, w in (("GroupNonUniformInverseBallot", 4), ("GroupNonUniformBallotBitExtract", 4),
                                        ("GroupNonUniformBallotBitCount", 5), ("GroupNonUniformBallotFindLSB", 4),
                                        ("GroupNonUniformBallotFindMSB", 4)) if _op(n) >= 0}


def _group_types(ctx) -> None:
    extended = "cl_khr_subgroup_extended_types" in cl_extensions(ctx)
    clustered = ctx.has_capability("GroupNonUniformClustered")
    for inst in ctx.instructions_of((*_GROUP_TYPE_OPCODES, *_BALLOT_VALUE)):
        opc, w = inst.opcode, inst.words
        name = inst.opname
        if opc in _BALLOT_VALUE:
            t = ctx.type_of(w[_BALLOT_VALUE[opc]]) if len(w) > _BALLOT_VALUE[opc] else None
            ok = t is not None and ctx.is_int_vector(t) and ctx.dimension(t) == 4 and ctx.bit_width(t) == 32
            section, want = "OpenCL env NEW 5.2.16", "a vector of four 32-bit integers (uint4)"
        elif opc in _NU_ARITHMETIC:
            if len(w) > 6 and not clustered:
                ctx.error("opencl.group-cluster-size", "OpenCL env 2.39",
                          f"{name}: the optional ClusterSize operand must not be present unless the "
                          f"GroupNonUniformClustered capability is declared", inst)
                return
            ok = _bool_scalar(ctx, w[5]) if opc in _NU_LOGICAL else _numeric_scalar(ctx, w[5])
            section = "OpenCL env 2.39"
            want = "OpTypeBool" if opc in _NU_LOGICAL else "an integer or floating-point scalar"
        elif opc in _NU_SCALAR:
            ok, section, want = _numeric_scalar(ctx, w[4]), "OpenCL env 2.41", "an integer or floating-point scalar"
        elif opc == _NU_BROADCAST:
            ok, section = _numeric_scalar_or_vector(ctx, w[4]), "OpenCL env 2.41"
            want = "an integer or floating-point scalar, or a vector of 2, 3, 4, 8 or 16 of them"
        elif opc in _UNIFORM_ARITHMETIC:
            ok = _bool_scalar(ctx, w[5]) if opc in _UNIFORM_LOGICAL else _numeric_scalar(ctx, w[5], (32, 64))
            section = "OpenCL env 2.41"
            want = "OpTypeBool" if opc in _UNIFORM_LOGICAL else "a 32- or 64-bit integer or a floating-point scalar"
        else:  # OpGroupBroadcast and the OpGroup* reductions: cl_khr_subgroup_extended_types at Subgroup scope
            ext = extended and ctx.constant_value(w[3]) == S.Subgroup
            value = w[4] if opc == op.GroupBroadcast else w[5]
            widths = None if ext else (32, 64)
            ok = _numeric_scalar(ctx, value, widths) or (
                ext and opc == op.GroupBroadcast and _numeric_scalar_or_vector(ctx, value))
            section = "OpenCL env 2.41"
            want = ("an integer or floating-point scalar" + (", or a vector of 2, 3, 4, 8 or 16 of them"
                                                               if opc == op.GroupBroadcast else "")
                    if ext else "a 32- or 64-bit integer or a floating-point scalar (more types need "
                                "cl_khr_subgroup_extended_types and Subgroup scope)")
        if not ok:
            ctx.error("opencl.group-type", section,
                      f"{name}: in the OpenCL environment the value operand must be {want}", inst)
            return


def _numeric_scalar(ctx, value, int_widths=None) -> bool:
    """An OpTypeInt (of ``int_widths``, when given) or OpTypeFloat scalar value."""
    t = ctx.type_of(value)
    f = ctx.facts(t)
    if f[0] == op.TypeFloat:
        return True
    return f[0] == op.TypeInt and (int_widths is None or f[4] in int_widths)


def _numeric_scalar_or_vector(ctx, value) -> bool:
    f = ctx.facts(ctx.type_of(value))
    if f[0] in (op.TypeInt, op.TypeFloat):
        return True
    return f[0] == op.TypeVector and f[2] in (op.TypeInt, op.TypeFloat) and f[3] in _VECTOR_SIZES


def _bool_scalar(ctx, value) -> bool:
    return ctx.is_bool_scalar(ctx.type_of(value))


def _float_param_ok(ctx, width) -> bool:
    """OLD env docs: float kernel arguments are 32-bit, but "environments that support extensions
    or optional features may allow additional types in an entry point's parameter list": a
    module that declares Float64 (Float16) targets a device with cl_khr_fp64 (cl_khr_fp16),
    whose kernels take double (half) arguments, as spirv-val accepts and every such device runs.
    OpenCL 3.0 devices with fp16/fp64 (the options) take them too."""
    if (width == 64 and "Float64" in ctx.declared_capabilities
            or width == 16 and "Float16" in ctx.declared_capabilities):
        return True
    if ctx.env.api_version != (3, 0):
        return False
    return (width == 16 and ctx.options.fp16) or (width == 64 and ctx.options.fp64)


def _byval(ctx, function, index) -> bool:
    # the function's parameters follow its OpFunction in order
    start = ctx.def_pos[function.words[2]]
    params = []
    for inst in ctx.insts[start + 1:]:
        if inst.opcode != op.FunctionParameter:
            break
        params.append(inst)
    if index >= len(params):
        return False
    byval = 2  # FunctionParameterAttribute ByVal
    return any(d == D.FuncParamAttr and w and w[0] == byval for d, w, _i in ctx.decorations_of(params[index].words[2]))
