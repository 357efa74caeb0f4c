"""Logical pointers (SPIR-V 2.16.1 U5, U6, and the variable-pointer rules; 3.32.9 OpFunctionCall).

"If the Logical addressing model is selected: ... A pointer can only be an operand to the following
instructions: OpLoad, OpStore, OpAccessChain, OpInBoundsAccessChain, OpFunctionCall,
OpImageTexelPointer, OpCopyMemory, OpCopyObject, all OpAtomic instructions, extended
instruction-set instructions that are explicitly identified as taking pointer operands" (U5) and "A
pointer can only be the Result <id> of the following instructions: OpVariable, OpAccessChain,
OpInBoundsAccessChain, OpFunctionParameter, OpImageTexelPointer, OpCopyObject" (U6), widened, where
the VariablePointersStorageBuffer / VariablePointers capability is declared, to OpSelect, OpPhi,
OpPtrAccessChain, OpPtrEqual, OpPtrNotEqual, OpPtrDiff, OpReturnValue (operands) and OpSelect, OpPhi,
OpFunctionCall, OpPtrAccessChain, OpLoad, OpConstantNull, OpFunction (results) -- for pointers into
StorageBuffer (VariablePointersStorageBuffer) or Workgroup (VariablePointers) only.

The lists are applied as SPIRV-Tools 2025.5 applies them (validate_logical_pointers): in the Logical
and PhysicalStorageBuffer64 addressing models, to every pointer that is not a PhysicalStorageBuffer
pointer; OpArrayLength, OpCopyMemorySized, the annotations and debug names (which only name an id),
OpUndef and the extension instructions defined on pointers (untyped pointers, cooperative matrices,
ray tracing, mesh shading ...) are allowed too. Also checked:

* the pointer arguments of OpFunctionCall in the Logical model: in the UniformConstant, Function,
  Private, Workgroup or AtomicCounter storage classes (StorageBuffer with a variable-pointers
  capability), and memory object declarations unless they are variable pointers;
* variable pointers (SPV_KHR_variable_pointers): with only VariablePointersStorageBuffer, an
  OpSelect/OpPhi chooses pointers into one structure; a variable pointer does not point to an
  array of Block/BufferBlock structs, to an object containing a matrix, or into a matrix column;
  OpArrayLength's Structure is not a variable pointer.

OpSelect/OpPhi without any variable-pointers capability, OpBitcast, functions returning pointers
and OpSpecConstantOp results are reported by memory.py, conversions.py, function.py and
constants.py; this module leaves those cases to them.
"""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 2.16.1"
SC = op.SC
_PSB = getattr(SC, "PhysicalStorageBuffer", -1)


def _ops(*names) -> frozenset[int]:
    return frozenset(getattr(op, n) for n in names if hasattr(op, n))


# Instructions that may take a logical pointer operand without a variable-pointers capability.
_OPERAND_ALLOWED = _ops(
    "Load", "Store", "AccessChain", "InBoundsAccessChain", "FunctionCall", "ImageTexelPointer", "CopyMemory",
    "CopyObject", "ArrayLength", "ExtInst", "Decorate", "DecorateId", "GroupDecorate", "EntryPoint", "Name",
    "DecorateString", "UntypedArrayLengthKHR", "UntypedAccessChainKHR", "UntypedInBoundsAccessChainKHR",
    "CopyMemorySized", "CooperativeMatrixLoadKHR", "CooperativeMatrixLoadNV", "CooperativeMatrixStoreKHR",
    "CooperativeMatrixStoreNV", "TraceRayKHR", "ExecuteCallableKHR", "RayQueryConfirmIntersectionKHR",
    "RayQueryInitializeKHR", "RayQueryTerminateKHR", "RayQueryGenerateIntersectionKHR", "RayQueryProceedKHR",
    "RayQueryGetIntersectionTypeKHR", "RayQueryGetRayTMinKHR", "RayQueryGetRayFlagsKHR",
    "RayQueryGetIntersectionTKHR", "RayQueryGetIntersectionInstanceCustomIndexKHR",
    "RayQueryGetIntersectionInstanceIdKHR", "RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR",
    "RayQueryGetIntersectionGeometryIndexKHR", "RayQueryGetIntersectionPrimitiveIndexKHR",
    "RayQueryGetIntersectionBarycentricsKHR", "RayQueryGetIntersectionFrontFaceKHR",
    "RayQueryGetIntersectionCandidateAABBOpaqueKHR", "RayQueryGetIntersectionObjectRayDirectionKHR",
    "RayQueryGetIntersectionObjectRayOriginKHR", "RayQueryGetWorldRayDirectionKHR", "RayQueryGetWorldRayOriginKHR",
    "RayQueryGetIntersectionObjectToWorldKHR", "RayQueryGetIntersectionWorldToObjectKHR",
    "RayQueryGetIntersectionTriangleVertexPositionsKHR", "RayQueryGetClusterIdNV", "HitObjectGetClusterIdNV",
    "TraceMotionNV", "TraceRayMotionNV", "RayQueryGetIntersectionSpherePositionNV",
    "RayQueryGetIntersectionSphereRadiusNV", "RayQueryGetIntersectionLSSPositionsNV",
    "RayQueryGetIntersectionLSSRadiiNV", "RayQueryGetIntersectionLSSHitValueNV", "RayQueryIsSphereHitNV",
    "RayQueryIsLSSHitNV", "HitObjectGetSpherePositionNV", "HitObjectGetSphereRadiusNV",
    "HitObjectGetLSSPositionsNV", "HitObjectGetLSSRadiiNV", "HitObjectIsSphereHitNV", "HitObjectIsLSSHitNV",
    "RawAccessChainNV", "CooperativeMatrixLoadTensorNV", "CooperativeMatrixStoreTensorNV",
    "CooperativeVectorLoadNV", "CooperativeVectorStoreNV", "CooperativeVectorMatrixMulNV",
    "CooperativeVectorMatrixMulAddNV", "CooperativeVectorOuterProductAccumulateNV",
    "CooperativeVectorReduceSumAccumulateNV", "EmitMeshTasksEXT", "EnqueueNodePayloadsAMDX",
    "NodePayloadArrayLengthAMDX", "IsNodePayloadValidAMDX", "FinishWritingNodePayloadAMDX", "GraphEntryPointARM",
    "BufferPointerEXT", "UntypedImageTexelPointerEXT",
) | frozenset(d.opcode for d in op._g.instructions.values()
              if "HitObject" in d.opname or "ReorderThread" in d.opname)
# ... and with a variable-pointers capability, for StorageBuffer / Workgroup pointers.
_OPERAND_VARIABLE = _ops("ReturnValue", "PtrAccessChain", "PtrEqual", "PtrNotEqual", "PtrDiff", "Select", "Phi",
                         "Variable", "UntypedPtrAccessChainKHR")
# Instructions that may return a logical pointer without a variable-pointers capability ...
_RESULT_ALLOWED = _ops("Variable", "AccessChain", "InBoundsAccessChain", "FunctionParameter", "ImageTexelPointer",
                       "CopyObject", "Undef", "UntypedAccessChainKHR", "UntypedInBoundsAccessChainKHR",
                       "UntypedVariableKHR", "RawAccessChainNV", "AllocateNodePayloadsAMDX", "BufferPointerEXT",
                       "UntypedImageTexelPointerEXT")
# ... and with one.
_RESULT_VARIABLE = _ops("Select", "Phi", "FunctionCall", "PtrAccessChain", "Load", "ConstantNull", "Function",
                        "UntypedPtrAccessChainKHR")
_ATOMICS = frozenset(d.opcode for d in op._g.instructions.values() if d.klass == "Atomic")
# Reported by other families in the Logical model when no variable-pointers capability is declared
# (see the docstring): pointer operands, pointer results.
_OPERANDS_REPORTED_ELSEWHERE = _ops("Select", "Phi", "Bitcast")
_RESULTS_REPORTED_ELSEWHERE = _ops("Select", "Phi", "Bitcast", "SpecConstantOp", "Function")
# Instructions that make a variable pointer (SPIRV-Tools' IsVariablePointer).
_MAKES_VARIABLE = _ops("PtrAccessChain", "UntypedPtrAccessChainKHR", "UntypedInBoundsPtrAccessChainKHR", "Load",
                       "Select", "Phi", "FunctionCall", "ConstantNull")
_CHAINS = _ops("AccessChain", "InBoundsAccessChain", "PtrAccessChain")
_CALL_CLASSES = frozenset({SC.UniformConstant, SC.Function, SC.Private, SC.Workgroup, SC.AtomicCounter})


def check(ctx) -> None:
    model = ctx.addressing_model
    if model not in (op.ADDRESSING.Logical, getattr(op.ADDRESSING, "PhysicalStorageBuffer64", -1)):
        return
    lp = _LogicalPointers(ctx)
    if not lp.pointer_types:
        return
    vpsb = ctx.has_capability("VariablePointersStorageBuffer")
    vp = ctx.has_capability("VariablePointers")
    others = model == op.ADDRESSING.Logical and not vpsb  # the other families report some cases
    skip_operands = _OPERANDS_REPORTED_ELSEWHERE if others else frozenset()
    skip_results = _RESULTS_REPORTED_ELSEWHERE if others else frozenset()
    for inst in ctx.insts:
        opc = inst.opcode
        sc = lp.first_pointer_operand(inst)
        if sc is not None and opc not in _OPERAND_ALLOWED and opc not in skip_operands:
            if opc in _OPERAND_VARIABLE:
                if not _variable_ok(sc, vpsb, vp):
                    ctx.error("memory.logical-pointer", SEC,
                              "Instruction may only have a logical pointer operand in the StorageBuffer or Workgroup "
                              "storage classes with appropriate variable pointers capability", inst)
            elif opc not in _ATOMICS:
                ctx.error("memory.logical-pointer", SEC, "Instruction may not have a logical pointer operand (U5)",
                          inst)
        if inst.type_id is not None and opc not in skip_results:
            rsc = lp.pointer_class(inst.words[1])
            if rsc is not None and opc not in _RESULT_ALLOWED:
                if opc in _RESULT_VARIABLE:
                    if not _variable_ok(rsc, vpsb, vp):
                        ctx.error("memory.logical-pointer", SEC,
                                  "Instruction may only return a logical pointer in the StorageBuffer or Workgroup "
                                  "storage classes with appropriate variable pointers capability", inst)
                else:
                    ctx.error("memory.logical-pointer", SEC, "Instruction may not return a logical pointer (U6)", inst)
    if model == op.ADDRESSING.Logical:
        for inst in ctx.instructions_of((op.FunctionCall,)):
            _call_arguments(ctx, inst, vpsb, vp)
    if vpsb:
        _VariablePointers(ctx, lp, vp).check()


def _variable_ok(sc, vpsb, vp) -> bool:
    return (vpsb and sc == SC.StorageBuffer) or (vp and sc == SC.Workgroup)


class _LogicalPointers:
    def __init__(self, ctx):
        self.ctx = ctx
        # logical pointer type id -> its storage class
        self.pointer_types: dict[int, int] = {}
        for t in ctx.instructions_of((op.TypePointer, getattr(op, "TypeUntypedPointerKHR", -1))):
            if t.words[2] != _PSB:
                self.pointer_types[t.words[1]] = t.words[2]
        self._ref_slots: dict[int, tuple] = {}
        self._keep = []

    def pointer_class(self, type_id):
        return self.pointer_types.get(type_id)

    def value_class(self, vid):
        d = self.ctx.defs.get(vid)
        if d is None or d.type_id is None:
            return None
        return self.pointer_types.get(d.words[1])

    def ref_offsets(self, inst) -> tuple:
        """Word offsets of the IdRef operands (per operand layout)."""
        key = id(inst.operands)
        slots = self._ref_slots.get(key)
        if slots is None:
            slots = self._ref_slots[key] = tuple(o.offset for o in inst.operands if o.kind == "IdRef")
            self._keep.append(inst.operands)
        return slots

    def first_pointer_operand(self, inst):
        w = inst.words
        defs = self.ctx.defs
        types = self.pointer_types
        for offset in self.ref_offsets(inst):
            d = defs.get(w[offset])
            if d is not None and d.type_id is not None:
                sc = types.get(d.words[1])
                if sc is not None:
                    return sc
        return None


def _call_arguments(ctx, inst, vpsb, vp) -> None:
    """OpFunctionCall's pointer arguments in the Logical model (SPIR-V 2.16.1: "Any pointer operand
    to an OpFunctionCall must point into one of the following storage classes: UniformConstant,
    Function, Private, Workgroup, AtomicCounter" and "be a memory object declaration")."""
    callee = ctx.defs.get(inst.words[3])
    ftype = ctx.type_inst(callee.words[4]) if callee is not None and callee.opcode == op.Function else None
    if ftype is None or ftype.opcode != op.TypeFunction:
        return
    for arg, ptype in zip(inst.words[4:], ftype.words[3:]):
        t = ctx.type_inst(ptype)
        if t is None or t.opcode != op.TypePointer:
            continue
        sc = t.words[2]
        if sc == SC.StorageBuffer:
            if not vpsb:
                ctx.error("function.call-pointer-argument", SEC,
                          f"StorageBuffer pointer operand {ctx.name(arg)} requires a variable pointers capability",
                          inst)
                return
        elif sc not in _CALL_CLASSES:
            ctx.error("function.call-pointer-argument", SEC,
                      f"Invalid storage class for pointer operand {ctx.name(arg)}", inst)
            return
        d = ctx.defs.get(arg)
        if d is not None and d.opcode not in (op.Variable, op.FunctionParameter) and not (
                (vpsb and sc == SC.StorageBuffer) or (vp and sc == SC.Workgroup) or sc == SC.UniformConstant):
            ctx.error("function.call-pointer-argument", SEC,
                      f"Pointer operand {ctx.name(arg)} must be a memory object declaration", inst)
            return


class _VariablePointers:
    """SPV_KHR_variable_pointers' restrictions, traced the way SPIRV-Tools traces them."""

    def __init__(self, ctx, lp, vp):
        self.ctx, self.lp, self.vp = ctx, lp, vp
        self.memo: dict[int, bool] = {}
        self._uses = None
        self._params = None
        self._returns = None

    # -- which values are variable pointers ------------------------------------------------------

    def is_variable(self, inst) -> bool:
        rid = inst.result_id
        if rid is None:
            return False
        hit = self.memo.get(rid)
        if hit is not None:
            return hit
        self.memo[rid] = False
        result = False
        opc = inst.opcode
        ctx = self.ctx
        if opc in _MAKES_VARIABLE:
            result = True
        elif opc == op.FunctionParameter:
            if self.lp.pointer_class(inst.words[1]) is not None:
                for arg in self.call_arguments(inst):
                    d = ctx.defs.get(arg)
                    if d is not None and self.is_variable(d):
                        result = True
                        break
        else:
            for offset in self.lp.ref_offsets(inst):
                d = ctx.defs.get(inst.words[offset])
                if d is not None and self.lp.value_class(d.result_id) is not None and self.is_variable(d):
                    result = True
                    break
        self.memo[rid] = result
        return result

    # -- the module's use and call graphs, built on demand ---------------------------------------

    def uses(self) -> dict[int, list]:
        if self._uses is None:
            self._uses = {}
            for inst in self.ctx.insts:
                w = inst.words
                for _i, offset, is_type in self.ctx.id_slots(inst):
                    if not is_type:
                        self._uses.setdefault(w[offset], []).append((inst, offset))
        return self._uses

    def call_arguments(self, param) -> list[int]:
        if self._params is None:
            self._params = {}
            for func in self.ctx.functions:
                for n, p in enumerate(func.parameters):
                    self._params[p.words[2]] = (func.id, n)
        where = self._params.get(param.words[2])
        if where is None:
            return []
        fid, n = where
        out = []
        for user, offset in self.uses().get(fid, ()):
            if user.opcode == op.FunctionCall and offset == 3 and len(user.words) > 4 + n:
                out.append(user.words[4 + n])
        return out

    def returned_values(self, fid) -> list[int]:
        if self._returns is None:
            self._returns = {}
            for func in self.ctx.functions:
                vals = []
                for b in func.blocks:
                    for inst in b.instructions:
                        if inst.opcode == op.ReturnValue:
                            vals.append(inst.words[1])
                self._returns[func.id] = vals
        return self._returns.get(fid, [])

    def trace(self, start, checker) -> bool:
        """Visit the instructions a variable pointer may come from (SPIRV-Tools'
        TraceVariablePointers); stop and return False when ``checker`` does."""
        ctx = self.ctx
        defs = ctx.defs
        stack, seen = [start], set()
        while stack:
            inst = stack.pop()
            if inst is None or id(inst) in seen:
                continue
            seen.add(id(inst))
            if not checker(inst):
                return False
            opc, w = inst.opcode, inst.words
            nxt = []
            if opc in _CHAINS:
                nxt.append(w[3])
            elif opc == op.Phi:
                nxt.extend(w[3::2])
            elif opc == op.Select:
                nxt.extend(w[4:6])
            elif opc == op.FunctionParameter:
                nxt.extend(self.call_arguments(inst))
            elif opc == op.FunctionCall:
                nxt.extend(self.returned_values(w[3]))
            elif opc in (op.CopyObject, op.Load):
                nxt.append(w[3])
            elif opc == op.Store:
                nxt.append(w[1])
            elif opc == op.Variable and w[3] in (SC.Function, SC.Private):
                if len(w) > 4:
                    nxt.append(w[4])
                store_stack = list(self.uses().get(w[2], ()))
                store_seen = set()
                while store_stack:
                    user, offset = store_stack.pop()
                    if id(user) in store_seen:
                        continue
                    store_seen.add(id(user))
                    if user.opcode == op.Store and offset == 1:
                        nxt.append(user.words[2])
                    elif user.result_id is not None:
                        store_stack.extend(self.uses().get(user.result_id, ()))
            stack.extend(defs.get(v) for v in nxt)
        return True

    # -- the rules -------------------------------------------------------------------------------

    def check(self) -> None:
        ctx, lp = self.ctx, self.lp
        for inst in ctx.insts:
            if inst.opcode == op.ArrayLength and len(inst.words) > 3:
                d = ctx.defs.get(inst.words[3])
                if d is not None and self.is_variable(d):
                    ctx.error("memory.variable-pointer", SEC, "Pointer operand must not be a variable pointer", inst)
                    return
                continue
            if inst.type_id is None or lp.pointer_class(inst.words[1]) is None or not self.is_variable(inst):
                continue
            if not self.vp and inst.opcode in (op.Select, op.Phi) and not self._one_structure(inst):
                return
            t = ctx.type_inst(inst.words[1])
            if t is None or t.opcode != op.TypePointer:
                continue
            pointee = ctx.type_inst(t.words[3])
            if pointee is None:
                continue
            if _block_array(ctx, pointee):
                ctx.error("memory.variable-pointer", SEC,
                          "Variable pointer must not point to an array of Block- or BufferBlock-decorated structs",
                          inst)
                return
            if _contains_matrix(ctx, pointee):
                ctx.error("memory.variable-pointer", SEC,
                          "Variable pointer must not point to an object that is or contains a matrix", inst)
                return
            if ctx.is_float_scalar_or_vector(pointee.words[1]) and not self.trace(inst, self._not_into_matrix):
                ctx.error("memory.variable-pointer", SEC,
                          "Variable pointer must not point to a column or a component of a column of a matrix", inst)
                return

    def _one_structure(self, inst) -> bool:
        sources = set()

        def checker(i) -> bool:
            if i.opcode == op.Variable and i.words[3] in (SC.StorageBuffer, SC.Workgroup):
                sources.add(i.words[2])
            return len(sources) <= 1

        if not self.trace(inst, checker):
            self.ctx.error("memory.variable-pointer", SEC,
                           "Variable pointers must point into the same structure (or OpConstantNull)", inst)
            return False
        return True

    def _not_into_matrix(self, inst) -> bool:
        ctx = self.ctx
        if inst.opcode not in _CHAINS:
            return True
        info = ctx.pointer_info(ctx.type_of(inst.words[3]))
        current = ctx.type_inst(info[1]) if info is not None and info[1] is not None else None
        if current is None:
            return True
        if current.opcode == op.TypeMatrix:
            return False
        start = 5 if inst.opcode == op.PtrAccessChain else 4
        for index in inst.words[start:]:
            if current.opcode == op.TypeStruct:
                value = ctx.constant_value(index) or 0
                members = current.words[2:]
                current = ctx.type_inst(members[value]) if value < len(members) else None
            elif current.opcode in (op.TypeArray, op.TypeRuntimeArray, op.TypeVector, op.TypeMatrix):
                current = ctx.type_inst(current.words[2])
            else:
                current = None
            if current is None:
                return True
            if current.opcode == op.TypeMatrix:
                return False
        return True


def _block_array(ctx, t) -> bool:
    if t.opcode not in (op.TypeArray, op.TypeRuntimeArray):
        return False
    element = ctx.type_inst(t.words[2])
    return element is not None and element.opcode == op.TypeStruct and (
        ctx.has_decoration(element.words[1], op.DEC.Block) or ctx.has_decoration(element.words[1], op.DEC.BufferBlock))


def _contains_matrix(ctx, t, depth=0) -> bool:
    if t is None or depth > 64:
        return False
    if t.opcode == op.TypeMatrix:
        return True
    if t.opcode in (op.TypeArray, op.TypeRuntimeArray, op.TypeVector):
        return _contains_matrix(ctx, ctx.type_inst(t.words[2]), depth + 1)
    if t.opcode == op.TypeStruct:
        return any(_contains_matrix(ctx, ctx.type_inst(m), depth + 1) for m in t.words[2:])
    return False
