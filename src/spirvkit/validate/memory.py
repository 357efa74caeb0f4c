"""Memory instructions (SPIR-V 3.32.8; 2.16.1 U4-U6, U13, U36): OpVariable, OpLoad, OpStore,
OpCopyMemory(Sized), the access chains, OpArrayLength, and the Logical-addressing pointer rules."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.8"
SEC_U = "SPIR-V 2.16.1"
SEC_MEM_OPS = "SPIR-V 3.26"

_READ_ONLY = frozenset({op.SC.UniformConstant, op.SC.Input, op.SC.PushConstant})
_CHAINS = frozenset({op.AccessChain, op.InBoundsAccessChain, op.PtrAccessChain, op.InBoundsPtrAccessChain})
_PTR_CHAINS = frozenset({op.PtrAccessChain, op.InBoundsPtrAccessChain})
_VULKAN_PTR_CHAIN_CLASSES = frozenset({op.SC.Workgroup, op.SC.StorageBuffer,
                                       getattr(op.SC, "PhysicalStorageBuffer", op.SC.StorageBuffer)})
# OpTypeBool: "If they are stored (in conjunction with OpVariable), they can only be used with logical
# addressing operations, not physical, and only with non-externally visible shader Storage Classes:
# Workgroup, CrossWorkgroup, Private, and Function" (SPIR-V 3.32.6), widened as SPIRV-Tools widens
# it: UniformConstant, the ray-tracing payload classes, and Input/Output built-ins.
_BOOL_CLASSES = frozenset({op.SC.Workgroup, op.SC.CrossWorkgroup, op.SC.Private, op.SC.Function,
                           op.SC.UniformConstant} | {getattr(op.SC, n) for n in (
                               "RayPayloadKHR", "IncomingRayPayloadKHR", "HitAttributeKHR", "CallableDataKHR",
                               "IncomingCallableDataKHR", "TaskPayloadWorkgroupEXT", "HitObjectAttributeNV",
                               "NodePayloadAMDX") if hasattr(op.SC, n)})


def check(ctx) -> None:
    # The Vulkan memory model's operand bits need its capability (reported by capabilities.py
    # without it), and the Aligned rule concerns PhysicalStorageBuffer pointers only.
    access_rules = ctx.has_capability("VulkanMemoryModel") or any(
        t.words[2] == _PHYSICAL_STORAGE_BUFFER for t in ctx.instructions_of((op.TypePointer,)))
    for inst in ctx.instructions_of(set(_CHECKS) | _MEMORY_ACCESS_USERS):
        checker = _CHECKS.get(inst.opcode)
        if checker is not None:
            checker(ctx, inst)
        if inst.opcode in _MEMORY_ACCESS_USERS:
            _aligned(ctx, inst)
            if access_rules:
                _memory_access(ctx, inst)


_MEMORY_ACCESS_USERS = frozenset({op.Load, op.Store, op.CopyMemory, op.CopyMemorySized})
_MA = op._g.operand_kinds["MemoryAccess"].by_name
_ALIGNED = _MA["Aligned"].value
_MAKE_AVAILABLE = _MA["MakePointerAvailable"].value if "MakePointerAvailable" in _MA else 0
_MAKE_VISIBLE = _MA["MakePointerVisible"].value if "MakePointerVisible" in _MA else 0
_NON_PRIVATE = _MA["NonPrivatePointer"].value if "NonPrivatePointer" in _MA else 0
_NON_PRIVATE_CLASSES = frozenset({op.SC.Uniform, op.SC.Workgroup, op.SC.CrossWorkgroup, op.SC.Generic, op.SC.Image,
                                  op.SC.StorageBuffer, getattr(op.SC, "PhysicalStorageBuffer", op.SC.StorageBuffer)})
_PHYSICAL_STORAGE_BUFFER = getattr(op.SC, "PhysicalStorageBuffer", -1)


def _memory_access(ctx, inst) -> None:
    """The Memory Operands of OpLoad, OpStore and OpCopyMemory(Sized) (SPIR-V 3.26 Memory Operands;
    SPV_KHR_vulkan_memory_model): MakePointerAvailable is for writes and MakePointerVisible for reads,
    each with NonPrivatePointer and a valid memory scope (the scope rules of 3.27, the Vulkan memory
    model's Device-scope capability, the Vulkan env's scope list); NonPrivatePointer only on pointers
    to memory other invocations can see; PhysicalStorageBuffer accesses are Aligned."""
    w = inst.words
    opc = inst.opcode
    if opc in (op.Load,):
        classes = [_storage_class(ctx, w[3])]
    elif opc == op.Store:
        classes = [_storage_class(ctx, w[1])]
    else:
        classes = [_storage_class(ctx, w[1]), _storage_class(ctx, w[2])]
    masks = []  # (mask, [scope ids])
    for o in inst.operands:
        if o.kind == "MemoryAccess":
            masks.append((w[o.offset], []))
        elif o.kind == "IdScope" and masks:
            masks[-1][1].append(w[o.offset])
    if not masks:
        if _PHYSICAL_STORAGE_BUFFER in classes:
            ctx.error("memory.aligned", SEC, "Memory accesses with PhysicalStorageBuffer must use Aligned.", inst)
        return
    from .atomics_barriers import _scope

    two = len(masks) > 1
    for n, (mask, scopes) in enumerate(masks[:2]):
        scopes = list(scopes)
        for bit, what in ((_MAKE_AVAILABLE, "MakePointerAvailableKHR"), (_MAKE_VISIBLE, "MakePointerVisibleKHR")):
            if not bit or not mask & bit:
                continue
            if (opc, bit) in ((op.Load, _MAKE_AVAILABLE), (op.Store, _MAKE_VISIBLE)):
                ctx.error("memory.access-operands", SEC_MEM_OPS, f"{what} cannot be used with {inst.opname}.", inst)
                return
            if two and (n, bit) in ((0, _MAKE_VISIBLE), (1, _MAKE_AVAILABLE)):
                ctx.error("memory.access-operands", SEC_MEM_OPS,
                          f"{'Target' if n == 0 else 'Source'} memory access must not include {what}", inst)
                return
            if not mask & _NON_PRIVATE:
                ctx.error("memory.access-operands", SEC_MEM_OPS,
                          f"NonPrivatePointerKHR must be specified if {what} is specified.", inst)
                return
            if scopes:
                before = len(ctx.diagnostics)
                _scope(ctx, inst, "memory", scopes.pop(0), set())
                if len(ctx.diagnostics) > before:
                    return
        if mask & _NON_PRIVATE and any(sc is not None and sc not in _NON_PRIVATE_CLASSES for sc in classes):
            ctx.error("memory.access-operands", SEC_MEM_OPS,
                      "NonPrivatePointerKHR requires a pointer in Uniform, Workgroup, CrossWorkgroup, Generic, Image "
                      "or StorageBuffer storage classes.", inst)
            return
        if not mask & _ALIGNED and _PHYSICAL_STORAGE_BUFFER in classes:
            ctx.error("memory.aligned", SEC, "Memory accesses with PhysicalStorageBuffer must use Aligned.", inst)
            return


def _storage_class(ctx, pointer_id):
    info = ctx.pointer_info(ctx.type_of(pointer_id))
    return info[0] if info is not None else None


def _aligned(ctx, inst) -> None:
    ops = inst.operands
    for i, o in enumerate(ops):
        if o.kind == "MemoryAccess" and inst.words[o.offset] & _ALIGNED and i + 1 < len(ops):
            value = inst.words[ops[i + 1].offset]
            if value == 0 or value & (value - 1):
                ctx.error("memory.aligned", SEC, f"Memory accesses Aligned operand value {value} is not a power of two.",
                          inst)
                return


def _logical(ctx) -> bool:
    return ctx.addressing_model == op.ADDRESSING.Logical


def _variable_pointers(ctx) -> bool:
    return ctx.has_capability("VariablePointers") or ctx.has_capability("VariablePointersStorageBuffer")


def _variable(ctx, inst) -> None:
    w = inst.words
    rtype, sc = w[1], w[3]
    info = ctx.pointer_info(rtype)
    if info is None:
        ctx.error("memory.variable-type", SEC,
                  f"OpVariable Result Type <id> {ctx.name(rtype)} is not a pointer type.", inst)
        return
    if info[0] != sc:
        ctx.error("memory.variable-storage-class", SEC, "Storage class must match result type storage class", inst)
        return
    pointee = info[1]
    if sc == op.SC.Generic:
        ctx.error("memory.variable-storage-class", SEC, "OpVariable storage class cannot be Generic", inst)
        return
    if len(w) > 4:
        init = w[4]
        d = ctx.defs.get(init)
        is_global_var = d is not None and d.opcode == op.Variable and d.words[3] != op.SC.Function
        if d is None or (d.opcode not in op.CONSTANT_OPCODES and not is_global_var
                         and not (d.opcode == op.Undef)):
            ctx.error("memory.variable-initializer", SEC,
                      f"OpVariable Initializer <id> {ctx.name(init)} is not a constant or module-scope variable.",
                      inst)
            return
        if pointee is not None and d.type_id != pointee:
            if not (is_global_var and ctx.type_of(init) == pointee):
                ctx.error("memory.variable-initializer", SEC,
                          "Initializer type must match the type pointed to by the Result Type", inst)
                return
        if sc == op.SC.Input:
            ctx.error("memory.variable-initializer", SEC,
                      f"OpVariable, <id> {ctx.name(w[2])}, initializer are not allowed for Input", inst)
            return
    if pointee is not None and sc not in _BOOL_CLASSES:
        io = sc in (op.SC.Input, op.SC.Output)
        if not (io and ctx.has_decoration(w[2], op.DEC.BuiltIn)) and _contains_bool(ctx, pointee, io, 0):
            if io:
                ctx.error("memory.variable-bool", "SPIR-V 3.32.6",
                          "If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage "
                          "Classes it requires a BuiltIn decoration", inst)
            else:
                ctx.error("memory.variable-bool", "SPIR-V 3.32.6",
                          "If OpTypeBool is stored in conjunction with OpVariable, it can only be used with "
                          "non-externally visible shader Storage Classes: Workgroup, CrossWorkgroup, Private, "
                          "Function, Input, Output, RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, "
                          "CallableDataKHR, IncomingCallableDataKHR, NodePayloadAMDX, or UniformConstant", inst)
            return
    if sc == op.SC.Workgroup and ctx.version >= (1, 4) and ctx.type_opcode(pointee) == op.TypeStruct \
            and ctx.has_decoration(pointee, op.DEC.Block) \
            and not ctx.has_capability("WorkgroupMemoryExplicitLayoutKHR") and _in_an_interface(ctx, w[2]):
        # Block on a Workgroup variable's type is SPV_KHR_workgroup_memory_explicit_layout's (checked, as
        # SPIRV-Tools does, on the entry points' interface variables)
        ctx.error("memory.workgroup-block", SEC,
                  "Workgroup Storage Class variables can't be decorated with Block unless declaring the "
                  "WorkgroupMemoryExplicitLayoutKHR capability.", inst)
        return
    if _logical(ctx) and pointee is not None and not _variable_pointers(ctx):
        if ctx.type_opcode(pointee) in (op.TypePointer,) and sc not in (op.SC.PhysicalStorageBuffer,):
            if not ctx.has_capability("PhysicalStorageBufferAddresses"):
                ctx.error("memory.logical-pointer-variable", SEC_U,
                          "In Logical addressing, variables may not allocate a pointer type", inst)


# U6 as OpLoad/OpStore see it: in the Logical model their Pointer comes from an instruction that
# can make a logical pointer (SPIRV-Tools' spvOpcodeReturnsLogicalPointer / ...VariablePointer).
_RETURNS_LOGICAL_POINTER = frozenset(getattr(op, n) for n in (
    "Variable", "UntypedVariableKHR", "AccessChain", "InBoundsAccessChain", "UntypedAccessChainKHR",
    "UntypedInBoundsAccessChainKHR", "FunctionParameter", "ImageTexelPointer", "CopyObject",
    "AllocateNodePayloadsAMDX", "RawAccessChainNV") if hasattr(op, n))
_RETURNS_VARIABLE_POINTER = _RETURNS_LOGICAL_POINTER | frozenset(getattr(op, n) for n in (
    "Select", "Phi", "FunctionCall", "PtrAccessChain", "UntypedPtrAccessChainKHR", "Load", "ConstantNull")
    if hasattr(op, n))


def _in_an_interface(ctx, vid) -> bool:
    for ep in ctx.instructions_of((op.EntryPoint,)):
        if vid in ep.words[ep.operands[2].offset + ep.operands[2].count:]:
            return True
    return False


def _contains_bool(ctx, t, skip_builtin, depth) -> bool:
    """SPIRV-Tools' ContainsInvalidBool: a bool inside vectors, matrices, arrays and structs (a
    struct with BuiltIn members does not count for Input/Output)."""
    ti = ctx.type_inst(t)
    if ti is None or depth > 64:
        return False
    if skip_builtin and ctx.has_decoration(t, op.DEC.BuiltIn) or skip_builtin and ti.opcode == op.TypeStruct \
            and ctx.any_member_has(t, op.DEC.BuiltIn):
        return False
    opc = ti.opcode
    if opc == op.TypeBool:
        return True
    if opc in (op.TypeVector, op.TypeMatrix, op.TypeArray, op.TypeRuntimeArray):
        return _contains_bool(ctx, ti.words[2], skip_builtin, depth + 1)
    if opc == op.TypeStruct:
        return any(_contains_bool(ctx, m, skip_builtin, depth + 1) for m in ti.words[2:])
    return False


def _pointer_operand(ctx, inst, pid, what="Pointer"):
    ptype = ctx.type_of(pid)
    info = ctx.pointer_info(ptype)
    if info is None:
        ctx.error("memory.pointer-operand", SEC_U,
                  f"{inst.opname} {what} <id> {ctx.name(pid)} is not a logical pointer.", inst)
    elif _logical(ctx) and inst.opcode in (op.Load, op.Store) and ctx.def_opcode(pid) not in (
            _RETURNS_VARIABLE_POINTER if _variable_pointers(ctx) else _RETURNS_LOGICAL_POINTER):
        ctx.error("memory.pointer-operand", SEC_U,
                  f"{inst.opname} {what} <id> {ctx.name(pid)} is not a logical pointer.", inst)
        return None
    return info


def _load(ctx, inst) -> None:
    w = inst.words
    info = _pointer_operand(ctx, inst, w[3])
    if info is None or info[1] is None:
        return
    if info[1] != w[1]:
        ctx.error("memory.load-type", SEC,
                  f"OpLoad Result Type <id> {ctx.name(w[1])} does not match Pointer <id> {ctx.name(w[3])}s type.",
                  inst)


def _store(ctx, inst) -> None:
    w = inst.words
    info = _pointer_operand(ctx, inst, w[1])
    if info is None:
        return
    sc, pointee = info
    if pointee is not None and ctx.type_opcode(pointee) == op.TypeVoid:
        ctx.error("memory.store-type", SEC, f"OpStore Pointer <id> {ctx.name(w[1])}s type is void.", inst)
        return
    if sc in _READ_ONLY:
        ctx.error("memory.store-read-only", SEC, f"OpStore Pointer <id> {ctx.name(w[1])} storage class is read-only",
                  inst)
        return
    obj_type = ctx.type_of(w[2])
    if obj_type is None:
        ctx.error("memory.store-type", SEC, f"OpStore Object <id> {ctx.name(w[2])}s type is void.", inst)
        return
    if pointee is not None and obj_type != pointee:
        ctx.error("memory.store-type", SEC,
                  f"OpStore Pointer <id> {ctx.name(w[1])}s type does not match Object <id> {ctx.name(w[2])}s type.",
                  inst)


def _copy_memory(ctx, inst) -> None:
    w = inst.words
    if ctx.version < (1, 4) and sum(o.kind == "MemoryAccess" for o in inst.operands) > 1:
        # "Before version 1.4, at most one memory operands mask can be provided." (OpCopyMemory and
        # OpCopyMemorySized, SPIR-V 3.32.8 in the unified specification: the Source mask is new in 1.4)
        ctx.error("memory.copy-access-operands", SEC,
                  f"{inst.opname[2:]} with two memory access operands requires SPIR-V 1.4 or later", inst)
        return
    target = _pointer_operand(ctx, inst, w[1], "Target")
    source = _pointer_operand(ctx, inst, w[2], "Source")
    if target is None or source is None:
        return
    if target[0] in _READ_ONLY:
        ctx.error("memory.store-read-only", SEC, f"Target operand <id> {ctx.name(w[1])} storage class is read-only",
                  inst)
        return
    if inst.opcode == op.CopyMemory and target[1] is not None and source[1] is not None and target[1] != source[1]:
        ctx.error("memory.copy-type", SEC,
                  f"Target <id> {ctx.name(w[1])}s type does not match Source <id> {ctx.name(w[2])}s type.", inst)
    if inst.opcode == op.CopyMemorySized:
        if not ctx.is_int_scalar(ctx.type_of(w[3])):
            ctx.error("memory.copy-size", SEC, f"Size <id> {ctx.name(w[3])} must be a scalar integer type.", inst)
        elif ctx.def_opcode(w[3]) == op.ConstantNull or ctx.constant_value(w[3]) == 0:
            ctx.error("memory.copy-size", SEC, f"Size operand <id> {ctx.name(w[3])} cannot be a constant zero.", inst)


def _access_chain(ctx, inst) -> None:
    w = inst.words
    name = inst.opname
    rinfo = ctx.pointer_info(w[1])
    if rinfo is None:
        found = ctx.type_inst(w[1])
        found_name = ctx.grammar.instruction(found.opcode).opname if found else "?"
        ctx.error("memory.access-chain-result", SEC,
                  f"The Result Type of {name} <id> {ctx.name(w[2])} must be OpTypePointer. Found {found_name}.", inst)
        return
    binfo = ctx.pointer_info(ctx.type_of(w[3]))
    if binfo is None:
        ctx.error("memory.access-chain-base", SEC,
                  f"The Base <id> {ctx.name(w[3])} in {name} instruction must be a pointer.", inst)
        return
    if rinfo[0] != binfo[0]:
        ctx.error("memory.access-chain-storage-class", SEC,
                  f"The result pointer storage class and base pointer storage class in {name} do not match.", inst)
        return
    indexes = list(w[4:])
    if inst.opcode in _PTR_CHAINS and ctx.is_shader and not ctx.has_decoration(ctx.type_of(w[3]), op.DEC.ArrayStride) \
            and (binfo[0] in (op.SC.StorageBuffer, op.SC.PhysicalStorageBuffer, op.SC.Uniform, op.SC.PushConstant)
                 or (binfo[0] == op.SC.Workgroup and ctx.has_capability("WorkgroupMemoryExplicitLayoutKHR"))):
        # Explicitly laid-out storage classes (Workgroup only with SPV_KHR_workgroup_memory_explicit_layout)
        ctx.error("memory.access-chain-base", SEC, f"{name} must have a Base whose type is decorated with ArrayStride",
                  inst)
        return
    if inst.opcode in _PTR_CHAINS and ctx.env.is_vulkan and binfo[0] not in _VULKAN_PTR_CHAIN_CLASSES:
        ctx.error("vulkan.ptr-access-chain", "Vulkan env (VUID-StandaloneSpirv-Base-07650)",
                  f"{name} Base operand must point to Workgroup, StorageBuffer, or PhysicalStorageBuffer storage class",
                  inst)
        return
    if inst.opcode in _PTR_CHAINS:
        indexes.pop(0)  # Element: SPIRV-Tools does not constrain its type, nor do we
    limit = ctx.options.max_access_chain_indexes
    if len(indexes) > limit:
        ctx.error("limits.access-chain-indexes", "SPIR-V 2.17",
                  f"The number of indexes in {name} may not exceed {limit}. Found {len(indexes)} indexes.", inst)
        return
    current = binfo[1]
    if current is None:
        return
    for i in indexes:
        t = ctx.type_inst(current)
        if t is None:
            return
        if not ctx.is_int_scalar(ctx.type_of(i)):
            ctx.error("memory.access-chain-index", SEC, f"Indexes passed to {name} must be of type integer.", inst)
            return
        if t.opcode in (op.TypeArray, op.TypeRuntimeArray, op.TypeVector, op.TypeMatrix):
            current = t.words[2]
        elif t.opcode == op.TypeStruct:
            value = ctx.constant_value(i)
            if ctx.def_opcode(i) != op.Constant or value is None:
                ctx.error("memory.access-chain-struct-index", SEC,
                          f"The <id> passed to {name} to index into a structure must be an OpConstant.", inst)
                return
            members = t.words[2:]
            if value >= len(members):
                ctx.error("memory.access-chain-struct-index", SEC,
                          f"Index is out of bounds: {name} cannot find index {value} into the structure <id> "
                          f"{ctx.name(t.words[1])}. This structure has {len(members)} members. Largest valid index "
                          f"is {len(members) - 1}.", inst)
                return
            current = members[value]
        else:
            ctx.error("memory.access-chain-walk", SEC,
                      f"{name} reached non-composite type while indexes still remain to be traversed.", inst)
            return
    if rinfo[1] is not None and current != rinfo[1]:
        rt = ctx.type_inst(rinfo[1])
        ct = ctx.type_inst(current)
        ctx.error("memory.access-chain-result", SEC,
                  f"{name} result type ({_opname(ctx, rt)}) does not match the type that results from indexing into "
                  f"the base <id> ({_opname(ctx, ct)}).", inst)


def _opname(ctx, t) -> str:
    return ctx.grammar.instruction(t.opcode).opname if t is not None else "?"


def _array_length(ctx, inst) -> None:
    w = inst.words
    if not (ctx.is_int_scalar(w[1]) and ctx.bit_width(w[1]) == 32 and ctx.is_unsigned_int_scalar(w[1])):
        ctx.error("memory.array-length", SEC,
                  f"The Result Type of OpArrayLength <id> {ctx.name(w[2])} must be OpTypeInt with width 32 and "
                  f"signedness 0.", inst)
        return
    info = ctx.pointer_info(ctx.type_of(w[3]))
    st = ctx.type_inst(info[1]) if info else None
    if st is None or st.opcode != op.TypeStruct:
        ctx.error("memory.array-length", SEC,
                  f"The Structure's type in OpArrayLength <id> {ctx.name(w[2])} must be a pointer to an OpTypeStruct.",
                  inst)
        return
    members = st.words[2:]
    if w[4] != len(members) - 1 or ctx.type_opcode(members[-1]) != op.TypeRuntimeArray:
        ctx.error("memory.array-length", SEC,
                  f"The array member in OpArrayLength <id> {ctx.name(w[2])} must be the last member of the struct.",
                  inst)


def _logical_pointer_select(ctx, inst) -> None:
    if ctx.addressing_model == op.ADDRESSING.Logical and ctx.is_pointer(inst.words[1]) \
            and not _variable_pointers(ctx):
        ctx.error("memory.logical-pointer", SEC_U,
                  f"Using pointers with {inst.opname} requires capability VariablePointers or "
                  f"VariablePointersStorageBuffer", inst)


def _generic_ptr_mem_semantics(ctx, inst) -> None:
    info = ctx.pointer_info(ctx.type_of(inst.words[3]))
    if info is None or info[0] != op.SC.Generic:
        ctx.error("memory.generic-pointer", SEC,
                  "GenericPtrMemSemantics: expected Pointer to point to the Generic storage class", inst)
    elif not (ctx.is_int_scalar(inst.words[1]) and ctx.bit_width(inst.words[1]) == 32):
        ctx.error("memory.generic-pointer", SEC,
                  "GenericPtrMemSemantics: expected Result Type to be a 32-bit integer", inst)


def _texel_pointer_sample(ctx, inst) -> None:
    """OpImageTexelPointer: "[Sample] must be a valid <id> for the value 0 if the OpTypeImage has
    MS of 0." A Sample whose value is known (a constant) is checked."""
    if len(inst.words) < 6:
        return
    info = ctx.pointer_info(ctx.type_of(inst.words[3]))
    image = ctx.type_inst(info[1]) if info is not None and info[1] is not None else None
    while image is not None and image.opcode in (op.TypeArray, op.TypeRuntimeArray):
        image = ctx.type_inst(image.words[2])
    if image is None or image.opcode != op.TypeImage or image.words[6] != 0:
        return
    value = ctx.constant_value(inst.words[5])
    if value is not None and value != 0:
        ctx.error("memory.texel-pointer-sample", SEC,
                  f"Expected Sample for Image with MS 0 to be a valid <id> for the value 0 (it is {value})", inst)


_CHECKS = {
    op.ImageTexelPointer: _texel_pointer_sample,
    op.Select: _logical_pointer_select,
    op.Phi: _logical_pointer_select,
    op.GenericPtrMemSemantics: _generic_ptr_mem_semantics,
    op.Variable: _variable,
    op.Load: _load,
    op.Store: _store,
    op.CopyMemory: _copy_memory,
    op.CopyMemorySized: _copy_memory,
    op.ArrayLength: _array_length,
}
for _c in _CHAINS:
    _CHECKS[_c] = _access_chain
