"""Atomics, barriers, scopes and memory semantics (SPIR-V 3.32.18, 3.32.20, 3.25, 3.27; 2.16.1
U40, U41; 2.16.2 S13; Vulkan env 3.4-3.8, 3.12-3.17, 3.46): atomic result, pointer and value
types and storage classes; scope and memory-semantics operands of every instruction that has
them (a 32-bit integer, an OpConstant under Shader, a valid enumerant, at most one ordering bit,
the instruction-specific ordering rules), and the Vulkan scope and semantics rules."""

from __future__ import annotations

from . import opcodes as op

SEC_ATOMIC = "SPIR-V 3.32.18"
SEC_BARRIER = "SPIR-V 3.32.20"
SEC_SCOPE = "SPIR-V 3.27"
SEC_SEM = "SPIR-V 3.25"
SEC_VK = "Vulkan env 3"

_SEM = {e.name: e.value for e in op._g.operand_kinds["MemorySemantics"].enumerants}
ACQUIRE, RELEASE, ACQ_REL, SEQ_CST = _SEM["Acquire"], _SEM["Release"], _SEM["AcquireRelease"], \
    _SEM["SequentiallyConsistent"]
ORDER_BITS = ACQUIRE | RELEASE | ACQ_REL | SEQ_CST
VULKAN_STORAGE_BITS = _SEM["UniformMemory"] | _SEM["WorkgroupMemory"] | _SEM["ImageMemory"] | \
    _SEM.get("OutputMemory", 0)
_VALID_SCOPES = frozenset(e.value for e in op._g.operand_kinds["Scope"].enumerants)

ATOMICS = frozenset(d.opcode for d in op._g.instructions.values() if d.klass == "Atomic")
_FLOAT_OK = frozenset({op.AtomicLoad, op.AtomicStore, op.AtomicExchange}) | frozenset(
    getattr(op, n) for n in ("AtomicFAddEXT", "AtomicFMinEXT", "AtomicFMaxEXT") if hasattr(op, n))
_FLOAT_ONLY = frozenset(getattr(op, n) for n in ("AtomicFAddEXT", "AtomicFMinEXT", "AtomicFMaxEXT")
                        if hasattr(op, n))


# Opcodes that have a scope or memory-semantics operand (from the grammar).
SCOPED_OPCODES = frozenset(d.opcode for d in op._g.instructions.values()
                           if any(o.kind in ("IdScope", "IdMemorySemantics") for o in d.operands))


def scope_operands(ctx, inst):
    """(role, operand index, id) of the scope and semantics operands: role is 'exec', 'memory',
    'scope' (another scope) or 'semantics'/'equal'/'unequal'."""
    desc = ctx.grammar.instruction(inst.opcode)
    if desc is None:
        return []
    out = []
    for index, operand in enumerate(inst.operands):
        if operand.kind == "IdScope":
            spec = desc.operands[index] if index < len(desc.operands) else None
            name = spec.name if spec is not None else ""
            role = {"Execution": "exec", "Memory": "memory"}.get(name, "scope")
            out.append((role, index, inst.words[operand.offset]))
        elif operand.kind == "IdMemorySemantics":
            spec = desc.operands[index] if index < len(desc.operands) else None
            role = {"Equal": "equal", "Unequal": "unequal"}.get(spec.name if spec else "", "semantics")
            out.append((role, index, inst.words[operand.offset]))
    return out


def eval_int32(ctx, id_):
    """(is a 32-bit int, is an OpConstant, value) as SPIRV-Tools' EvalInt32IfConst."""
    t = ctx.type_of(id_)
    if not ctx.is_int_scalar(t) or ctx.bit_width(t) != 32:
        return False, False, 0
    d = ctx.defs.get(id_)
    if d is not None and d.opcode == op.Constant:
        return True, True, d.words[3]
    return True, False, 0


def check(ctx) -> None:
    from .function import execution_models_by_function

    models = execution_models_by_function(ctx)
    for func in ctx.functions:
        fmodels = models.get(func.id, set())
        for b in func.blocks:
            for inst in b.instructions:
                opc = inst.opcode
                if opc in ATOMICS:
                    _atomic(ctx, inst)
                elif opc == op.ControlBarrier and ctx.version < (1, 3):
                    allowed = {"TessellationControl", "GLCompute", "Kernel", "MeshNV", "TaskNV", "MeshEXT",
                               "TaskEXT"}
                    if fmodels and not fmodels & allowed:
                        ctx.error("barriers.execution-model", SEC_BARRIER,
                                  "OpControlBarrier requires one of the following Execution Models: "
                                  "TessellationControl, GLCompute, Kernel, MeshNV or TaskNV", inst)
                if inst.opcode not in SCOPED_OPCODES:
                    continue
                if inst.desc is not None and inst.desc.klass == "Group":
                    _group_scope(ctx, inst)
                if inst.desc is None or inst.desc.klass not in _SCOPED_CLASSES:
                    continue  # SPIRV-Tools checks scopes only on these classes; OpenCL's group rules are in opencl
                for role, index, value in scope_operands(ctx, inst):
                    if role in ("exec", "memory", "scope"):
                        _scope(ctx, inst, role, value, fmodels)
                    else:
                        _semantics(ctx, inst, role, value)


_SCOPED_CLASSES = frozenset({"Atomic", "Barrier", "Non-Uniform"})


def _group_scope(ctx, inst) -> None:
    """"Execution ... must be either Workgroup or Subgroup" (SPIR-V 3.32.21, every group instruction)."""
    for role, _index, value_id in scope_operands(ctx, inst):
        if role != "exec":
            continue
        _is_int, is_const, value = eval_int32(ctx, value_id)
        if is_const and value not in (op.SCOPE.Workgroup, op.SCOPE.Subgroup):
            ctx.error("group.execution-scope", "SPIR-V 3.32.21",
                      f"{_name(inst)}: Execution scope must be Workgroup or Subgroup", inst)


def _name(inst) -> str:
    return inst.opname[2:]


def _scope(ctx, inst, role, value_id, models) -> None:
    is_int, is_const, value = eval_int32(ctx, value_id)
    name = _name(inst)
    if not is_int:
        ctx.error("scopes.type", SEC_SCOPE, f"{name}: expected scope to be a 32-bit int", inst)
        return
    if not is_const:
        if ctx.is_shader and not ctx.has_capability("CooperativeMatrixNV"):
            ctx.error("scopes.constant", "SPIR-V 2.16.2",
                      "Scope ids must be OpConstant when Shader capability is present", inst)
        return
    if value not in _VALID_SCOPES:
        ctx.error("scopes.value", SEC_SCOPE, f"Invalid scope value: {value}", inst)
        return
    if role == "memory":
        if value == getattr(op.SCOPE, "QueueFamily", -1):
            # "QueueFamily ... requires VulkanMemoryModel"; with it there is nothing more to check
            if not ctx.has_capability("VulkanMemoryModel"):
                ctx.error("scopes.memory", SEC_SCOPE,
                          f"{name}: Memory Scope QueueFamilyKHR requires capability VulkanMemoryModelKHR", inst)
            return
        if value == op.SCOPE.Device and ctx.has_capability("VulkanMemoryModel") and \
                not ctx.has_capability("VulkanMemoryModelDeviceScope"):
            # SPV_KHR_vulkan_memory_model: "If the VulkanMemoryModelDeviceScopeKHR capability is not declared,
            # the Device scope must not be used" (also the Vulkan memory model's availability/visibility rules)
            ctx.error("scopes.memory-device", SEC_SCOPE,
                      f"{name}: Use of device scope with VulkanKHR memory model requires the "
                      f"VulkanMemoryModelDeviceScopeKHR capability", inst)
            return
    if ctx.env.is_vulkan:
        _vulkan_scope(ctx, inst, role, value, models)
    elif role == "exec" and _is_non_uniform(inst) and value not in (op.SCOPE.Subgroup, op.SCOPE.Workgroup):
        ctx.error("scopes.execution", SEC_SCOPE, f"{name}: Execution scope is limited to Subgroup or Workgroup", inst)


def _is_non_uniform(inst) -> bool:
    desc = inst.desc
    return desc is not None and desc.klass == "Non-Uniform"


def _vulkan_scope(ctx, inst, role, value, models) -> None:
    name = _name(inst)
    S = op.SCOPE
    if role == "exec":
        if _is_non_uniform(inst) and value != S.Subgroup:
            ctx.error("vulkan.execution-scope", "Vulkan env 3.9",
                      f"{name}: in Vulkan environment Execution scope is limited to Subgroup", inst)
        elif value not in (S.Workgroup, S.Subgroup):
            ctx.error("vulkan.execution-scope", "Vulkan env 3.4",
                      f"{name}: in Vulkan environment Execution Scope is limited to Workgroup and Subgroup", inst)
        elif value == S.Workgroup and models and not models & {"GLCompute", "TessellationControl", "TaskNV", "MeshNV",
                                                                "TaskEXT", "MeshEXT"}:
            ctx.error("vulkan.execution-scope", "Vulkan env 3.5",
                      f"{name}: in Vulkan environment, Workgroup execution scope is only for TaskNV, MeshNV, "
                      f"TessellationControl, and GLCompute execution models", inst)
    elif role == "memory":
        # VUID-StandaloneSpirv-None-04638 (the current form of the appendix's list) and -07951
        allowed = {S.Device, S.Workgroup, S.Subgroup, S.Invocation, getattr(S, "QueueFamily", S.Device),
                   getattr(S, "ShaderCallKHR", S.Device)}
        if value not in allowed:
            ctx.error("vulkan.memory-scope", "Vulkan env 3.6",
                      f"{name}: in Vulkan environment Memory Scope is limited to Device, QueueFamily, Workgroup, "
                      f"ShaderCallKHR, Subgroup, or Invocation", inst)
        elif value == S.Subgroup and ctx.env.api_version == (1, 0) and not (
                ctx.has_capability("SubgroupBallotKHR") or ctx.has_capability("SubgroupVoteKHR")):
            ctx.error("vulkan.memory-scope", "Vulkan env 3.6",
                      f"{name}: in Vulkan 1.0 environment Memory Scope can not be Subgroup without SubgroupBallotKHR "
                      f"or SubgroupVoteKHR declared", inst)
        elif value == S.Workgroup and models and not models & {"GLCompute", "TaskNV", "MeshNV", "TaskEXT",
                                                                "MeshEXT", "TessellationControl"}:
            ctx.error("vulkan.memory-scope", "Vulkan env 3.7",
                      f"{name}: in Vulkan environment, Workgroup Memory Scope is limited to MeshNV, TaskNV, and "
                      f"GLCompute execution model", inst)


def _semantics(ctx, inst, role, value_id) -> None:
    name = _name(inst)
    is_int, is_const, value = eval_int32(ctx, value_id)
    if not is_int:
        ctx.error("semantics.type", SEC_SEM, f"{name}: expected Memory Semantics to be a 32-bit int", inst)
        return
    if not is_const:
        if ctx.is_shader and not ctx.has_capability("CooperativeMatrixNV"):
            ctx.error("semantics.constant", "SPIR-V 2.16.2",
                      "Memory Semantics ids must be OpConstant when Shader capability is present", inst)
        return
    orders = bin(value & ORDER_BITS).count("1")
    if orders > 1:
        ctx.error("semantics.one-order", SEC_SEM,
                  f"{name}: Memory Semantics can have at most one of the following bits set: Acquire, Release, "
                  f"AcquireRelease or SequentiallyConsistent", inst)
        return
    if value & _SEM["UniformMemory"] and not ctx.is_shader:
        ctx.error("semantics.capability", SEC_SEM, f"{name}: Memory Semantics UniformMemory requires capability Shader",
                  inst)
        return
    for bit, need in (("MakeAvailable", RELEASE | ACQ_REL), ("MakeVisible", ACQUIRE | ACQ_REL)):
        if value & _SEM.get(bit, 0):
            if not ctx.has_capability("VulkanMemoryModel"):
                ctx.error("semantics.capability", SEC_SEM,
                          f"{name}: Memory Semantics {bit}KHR requires capability VulkanMemoryModelKHR", inst)
                return
            if not value & need:
                which = "Release" if bit == "MakeAvailable" else "Acquire"
                ctx.error("semantics.make-available-visible", SEC_SEM,
                          f"{name}: {bit}KHR Memory Semantics also requires either {which} or AcquireRelease Memory "
                          f"Semantics", inst)
                return
    if value & _SEM.get("OutputMemory", 0) and not ctx.has_capability("VulkanMemoryModel"):
        ctx.error("semantics.capability", SEC_SEM,
                  f"{name}: Memory Semantics OutputMemoryKHR requires capability VulkanMemoryModelKHR", inst)
        return
    if value & _SEM.get("Volatile", 0) and not ctx.has_capability("VulkanMemoryModel"):
        ctx.error("semantics.capability", SEC_SEM,
                  f"{name}: Memory Semantics Volatile requires capability VulkanMemoryModelKHR", inst)
        return
    if value & _SEM.get("Volatile", 0) and inst.opcode in (op.ControlBarrier, op.MemoryBarrier):
        # Volatile: "This access cannot be eliminated, duplicated, or combined with other accesses" --
        # a memory access's property, which a barrier has not (SPIR-V 3.25; VUID-StandaloneSpirv-
        # MemorySemantics-10874)
        ctx.error("semantics.volatile-barrier", SEC_SEM,
                  f"{name}: Memory Semantics with Volatile bit set must not be used with barrier instructions", inst)
        return
    if ctx.memory_model == op.MEMORY_MODEL.Vulkan and value & SEQ_CST:
        ctx.error("semantics.vulkan-memory-model", SEC_SEM,
                  f"{name}: SequentiallyConsistent memory semantics cannot be used with the VulkanKHR memory model.",
                  inst)
        return
    opc = inst.opcode
    if opc == op.AtomicFlagClear and value & (ACQUIRE | ACQ_REL):
        ctx.error("semantics.order", SEC_ATOMIC,
                  "Memory Semantics Acquire and AcquireRelease cannot be used with AtomicFlagClear", inst)
        return
    # OpAtomicStore/OpAtomicLoad order rules (3.32.18) hold in every env; Vulkan adds
    # SequentiallyConsistent below.
    # (In a Vulkan env the Vulkan rule is reported too: both documents state it.)
    if opc == op.AtomicStore and value & (ACQUIRE | ACQ_REL):
        ctx.error("semantics.order", SEC_ATOMIC,
                  "AtomicStore: Memory Semantics Acquire and AcquireRelease cannot be used with AtomicStore", inst)
        if not ctx.env.is_vulkan:
            return
    if opc == op.AtomicLoad and value & (RELEASE | ACQ_REL):
        ctx.error("semantics.order", SEC_ATOMIC,
                  "AtomicLoad: Memory Semantics Release and AcquireRelease cannot be used with AtomicLoad", inst)
        if not ctx.env.is_vulkan:
            return
    if role == "unequal" and value & (RELEASE | ACQ_REL):
        ctx.error("semantics.order", SEC_ATOMIC,
                  f"{name}: Memory Semantics Release and AcquireRelease cannot be used for operand Unequal", inst)
        return
    if role == "unequal":
        equal = eval_int32(ctx, inst.words[5])
        if equal[1] and _strength(value) > _strength(equal[2]):
            ctx.error("semantics.order", SEC_ATOMIC,
                      f"{name} Unequal Memory Semantics must not use a stronger memory order than the "
                      f"corresponding Equal Memory Semantics", inst)
            return
    if ctx.env.is_vulkan:
        _vulkan_semantics(ctx, inst, value, orders)
    elif ctx.memory_model == op.MEMORY_MODEL.Vulkan:
        # SPIRV-Tools applies the Vulkan memory model's semantics rules in every env once the module
        # uses that model (the model is the Vulkan API's, SPV_KHR_vulkan_memory_model).
        if _invocation_scope_ordered(ctx, inst, value):
            return
        if inst.opcode == op.MemoryBarrier and not orders:
            ctx.error("vulkan.memory-barrier-semantics", "Vulkan env 3.15",
                      f"{name}: MemorySemantics must not use Relaxed memory order with MemoryBarrier", inst)
        elif orders and not value & VULKAN_STORAGE_BITS:
            ctx.error("vulkan.ordered-semantics-storage", "Vulkan env 3.14",
                      f"{name}: Memory Semantics with a non-relaxed memory order (Acquire, Release, or AcquireRelease) "
                      f"must have at least one Vulkan-supported storage class semantics bit set (UniformMemory, "
                      f"WorkgroupMemory, ImageMemory, or OutputMemory)", inst)
        elif value & VULKAN_STORAGE_BITS and not orders:
            ctx.error("vulkan.relaxed-storage-semantics", "Vulkan env 3.14",
                      f"{name}: Memory Semantics with at least one Vulkan-supported storage class semantics bit set "
                      f"(UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory "
                      f"order (Acquire, Release, or AcquireRelease)", inst)


def _invocation_scope_ordered(ctx, inst, value) -> bool:
    """Invocation memory scope with memory semantics (reported; True when it was). In a Vulkan env,
    the appendix: "Invocation — Only valid if memory semantics is None" (Vulkan env 3.8: no bit at
    all); with the Vulkan memory model in other envs, as SPIRV-Tools applies the model's rule there:
    "Memory Semantics must be Relaxed" (no ordering bit)."""
    memory = [v for role, _i, v in scope_operands(ctx, inst) if role == "memory"]
    vulkan = ctx.env.is_vulkan
    if memory and (value if vulkan else value & ORDER_BITS):
        _is_int, is_const, scope = eval_int32(ctx, memory[0])
        if is_const and scope == op.SCOPE.Invocation:
            ctx.error("vulkan.memory-scope", "Vulkan env 3.8",
                      f"{_name(inst)}: Vulkan specification requires Memory Semantics to be "
                      f"{'None' if vulkan else 'Relaxed'} if used with Invocation Memory Scope", inst)
            return True
    return False


def _strength(value) -> int:
    if value & SEQ_CST:
        return 3
    if value & ACQ_REL:
        return 2
    return 1 if value & (ACQUIRE | RELEASE) else 0


def _vulkan_semantics(ctx, inst, value, orders) -> None:
    name = _name(inst)
    opc = inst.opcode
    if value & SEQ_CST:
        ctx.error("vulkan.sequentially-consistent", "Vulkan env 3.14",
                  f"{name}: Memory Semantics with SequentiallyConsistent memory order must not be used in the Vulkan "
                  f"API", inst)
        return
    if _invocation_scope_ordered(ctx, inst, value):
        return
    storage = bool(value & VULKAN_STORAGE_BITS)
    if opc == op.MemoryBarrier:
        if not orders:
            ctx.error("vulkan.memory-barrier-semantics", "Vulkan env 3.15",
                      f"{name}: Vulkan specification requires Memory Semantics to have one of the following bits "
                      f"set: Acquire, Release, AcquireRelease or SequentiallyConsistent", inst)
            return
        if not storage:
            ctx.error("vulkan.memory-barrier-semantics", "Vulkan env 3.15",
                      f"{name}: expected Memory Semantics to include a Vulkan-supported storage class", inst)
            return
    if opc == op.ControlBarrier and orders and not storage:
        ctx.error("vulkan.control-barrier-semantics", "Vulkan env 3.16",
                  f"{name}: expected Memory Semantics to include a Vulkan-supported storage class if Memory "
                  f"Semantics is not None", inst)
        return
    if opc == op.AtomicLoad and value & (RELEASE | ACQ_REL | SEQ_CST):
        ctx.error("vulkan.atomic-load-semantics", "Vulkan env 3.13",
                  "Vulkan spec disallows OpAtomicLoad with Memory Semantics Release, AcquireRelease and "
                  "SequentiallyConsistent", inst)
        return
    if opc == op.AtomicStore and value & (ACQUIRE | ACQ_REL | SEQ_CST):
        ctx.error("vulkan.atomic-store-semantics", "Vulkan env 3.12",
                  "Vulkan spec disallows OpAtomicStore with Memory Semantics Acquire, AcquireRelease and "
                  "SequentiallyConsistent", inst)
        return
    if orders and not storage and opc != op.ControlBarrier:
        ctx.error("vulkan.ordered-semantics-storage", "Vulkan env 3.14",
                  f"{name}: Memory Semantics with a non-relaxed memory order (Acquire, Release, or AcquireRelease) "
                  f"must have at least one Vulkan-supported storage class semantics bit set (UniformMemory, "
                  f"WorkgroupMemory, ImageMemory, or OutputMemory)", inst)
        return
    if storage and not orders:
        ctx.error("vulkan.relaxed-storage-semantics", "Vulkan env 3.14",
                  f"{name}: Memory Semantics with at least one Vulkan-supported storage class semantics bit set "
                  f"(UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory "
                  f"order (Acquire, Release, or AcquireRelease)", inst)


# -- atomic instructions ---------------------------------------------------------------------------

_OPENCL_ATOMIC_CLASSES = frozenset({op.SC.Function, op.SC.Workgroup, op.SC.CrossWorkgroup, op.SC.Generic})
_VULKAN_ATOMIC_CLASSES = frozenset({op.SC.Uniform, op.SC.Workgroup, op.SC.Image, op.SC.StorageBuffer,
                                    op.SC.PhysicalStorageBuffer} |
                                   ({op.SC.TaskPayloadWorkgroupEXT} if hasattr(op.SC, "TaskPayloadWorkgroupEXT")
                                    else set()))
_UNIVERSAL_ATOMIC_CLASSES = _VULKAN_ATOMIC_CLASSES | {op.SC.CrossWorkgroup, op.SC.Generic, op.SC.AtomicCounter,
                                                      op.SC.Function}


def _atomic(ctx, inst) -> None:
    name = _name(inst)
    opc = inst.opcode
    w = inst.words
    if opc in (op.AtomicStore,):
        value_type = ctx.type_of(w[4])
        pointer = w[1]
        result_type = None
    else:
        if inst.type_id is None:
            return  # an atomic without a result besides Store (none in the core grammar)
        result_type = w[1]
        pointer = w[3]
        value_type = result_type
    if opc == op.AtomicFlagTestAndSet:
        if not ctx.is_bool_scalar(result_type):
            ctx.error("atomics.result-type", SEC_ATOMIC, f"{name}: expected Result Type to be bool scalar type", inst)
            return
    elif opc == op.AtomicFlagClear:
        pass
    else:
        is_int = ctx.is_int_scalar(value_type)
        is_float = ctx.is_float_scalar(value_type)
        what = "Result Type" if result_type is not None else "Value type"
        if opc in _FLOAT_ONLY and not is_float:
            ctx.error("atomics.result-type", SEC_ATOMIC, f"{name}: expected {what} to be float scalar type", inst)
            return
        if opc not in _FLOAT_ONLY and not (is_int or (is_float and opc in _FLOAT_OK)):
            kinds = "integer or float scalar type" if opc in _FLOAT_OK else "integer scalar type"
            ctx.error("atomics.result-type", "SPIR-V 2.16.1", f"{name}: expected {what} to be {kinds}", inst)
            return
        if is_int and ctx.bit_width(value_type) == 64 and not ctx.has_capability("Int64Atomics"):
            ctx.error("atomics.int64", "SPIR-V 2.16.1", f"{name}: 64-bit atomics require the Int64Atomics capability",
                      inst)
            return
    info = ctx.pointer_info(ctx.type_of(pointer))
    if info is None:
        ctx.error("atomics.pointer", SEC_ATOMIC, f"{name}: expected Pointer to be of type OpTypePointer", inst)
        return
    sc, pointee = info
    if opc in (op.AtomicFlagTestAndSet, op.AtomicFlagClear):
        if pointee is not None and not (ctx.is_int_scalar(pointee) and ctx.bit_width(pointee) == 32):
            ctx.error("atomics.pointer", SEC_ATOMIC,
                      f"{name}: expected Pointer to point to a value of 32-bit integer type", inst)
            return
    elif pointee is not None and pointee != value_type:
        if result_type is None:
            msg = f"{name}: expected Value type and the type pointed to by Pointer to be the same"
        else:
            msg = f"{name}: expected Pointer to point to a value of type Result Type"
        ctx.error("atomics.pointer", SEC_ATOMIC, msg, inst)
        return
    if not _storage_class_ok(ctx, inst, sc):
        return
    _atomic_values(ctx, inst, value_type)


def _storage_class_ok(ctx, inst, sc) -> bool:
    name = _name(inst)
    if ctx.env.is_opencl:
        if sc not in _OPENCL_ATOMIC_CLASSES:
            ctx.error("opencl.atomic-storage-class", "OpenCL env 2.25",
                      f"{name}: storage class must be Function, Workgroup, CrossWorkGroup or Generic in the OpenCL "
                      f"environment.", inst)
            return False
    elif ctx.env.is_vulkan:
        if sc not in _VULKAN_ATOMIC_CLASSES:
            ctx.error("vulkan.atomic-storage-class", "Vulkan env 3b",
                      f"{name}: Vulkan spec only allows storage classes for atomic to be: Uniform, Workgroup, Image, "
                      f"StorageBuffer, PhysicalStorageBuffer or TaskPayloadWorkgroupEXT.", inst)
            return False
    elif sc not in _UNIVERSAL_ATOMIC_CLASSES:
        ctx.error("atomics.storage-class", "SPIR-V 2.16.1",
                  f"{name}: expected Pointer Storage Class to be Uniform, Workgroup, CrossWorkgroup, Generic, "
                  f"AtomicCounter, Image or StorageBuffer", inst)
        return False
    if sc == op.SC.Function and ctx.is_shader:
        ctx.error("atomics.storage-class", "SPIR-V 2.16.1",
                  f"{name}: Function storage class forbidden when the Shader capability is declared.", inst)
        return False
    return True


def _atomic_values(ctx, inst, value_type) -> None:
    opc = inst.opcode
    w = inst.words
    name = _name(inst)
    values = []
    if opc in (op.AtomicStore,):
        pass
    elif opc in (op.AtomicCompareExchange, op.AtomicCompareExchangeWeak):
        values = [("Value", w[7]), ("Comparator", w[8])]
    elif len(w) > 6 and opc not in (op.AtomicFlagTestAndSet, op.AtomicFlagClear, op.AtomicLoad,
                                    op.AtomicIIncrement, op.AtomicIDecrement):
        values = [("Value", w[6])]
    for what, v in values:
        if ctx.type_of(v) != value_type:
            ctx.error("atomics.value-type", SEC_ATOMIC, f"{name}: expected {what} to be of type Result Type", inst)
            return
