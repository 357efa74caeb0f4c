"""Ids (SPIR-V 2.16.1 U7, U8, U37; 2.4 forward references): every id is defined, defined before
use except where §2.4 allows a forward reference, of the right kind (a type where a type is
expected, a value where a value is), used only inside its function, and its definition
dominates its uses (with the CFG and dominator tree of ``cfg``)."""

from __future__ import annotations

from . import cfg as cfg_module
from . import opcodes as op

SEC = "SPIR-V 2.16.1"
SEC_LAYOUT = "SPIR-V 2.4"
SEC_TYPE_FUNCTION = "SPIR-V 3.32.6"

_ALL = None  # every id operand may be a forward reference


def _forward_rule(opcode: int):
    """Which operand indexes (grammar order, result type/id included) may forward-reference
    (SPIRV-Tools' spvOperandCanBeForwardDeclaredFunction)."""
    if opcode in op.TYPE_OPCODES:
        return _ALL
    return _FORWARD.get(opcode, ())


_FORWARD = {
    op.ExecutionMode: _ALL, op.ExecutionModeId: _ALL, op.EntryPoint: _ALL, op.Name: _ALL,
    op.MemberName: _ALL, op.SelectionMerge: _ALL, op.Decorate: _ALL, op.MemberDecorate: _ALL,
    op.DecorateId: _ALL, op.DecorateString: _ALL, op.MemberDecorateString: _ALL, op.Branch: _ALL,
    op.LoopMerge: _ALL,
    op.GroupDecorate: "not0", op.GroupMemberDecorate: "not0", op.BranchConditional: "not0",
    op.Switch: "not0",
    op.FunctionCall: (2,), op.Phi: "gt1", op.EnqueueKernel: (8,),
    op.GetKernelNDrangeSubGroupCount: (3,), op.GetKernelNDrangeMaxSubGroupSize: (3,),
    op.GetKernelWorkGroupSize: (2,), op.GetKernelPreferredWorkGroupSizeMultiple: (2,),
}
if hasattr(op, "ExtInstWithForwardRefsKHR"):
    _FORWARD[op.ExtInstWithForwardRefsKHR] = _ALL


# Debug-info instructions may name functions before they are defined (DebugFunction's function:
# "Operands that are an OpFunction", SPIR-V 2.4), and a DebugTypeComposite its members (the
# debug-info specifications: the members name their parent, so one of the two must come first).
# Any other forward reference, from one debug-info instruction to another included, is an error.
_DEBUG_TYPE_COMPOSITE = 10  # in OpenCL.DebugInfo.100 and NonSemantic.Shader.DebugInfo.100


def _debug_forward_ok(inst, d) -> bool:
    if d.opcode == op.Function:
        return True
    return d.opcode in op.EXT_INSTS and len(inst.words) > 4 and inst.words[4] == _DEBUG_TYPE_COMPOSITE


def _may_forward(rule, index: int) -> bool:
    if rule is _ALL:
        return True
    if rule == "not0":
        return index != 0
    if rule == "gt1":
        return index > 1
    return index in rule


# Instructions whose id operands may name a type (SPIRV-Tools' IdPass exemptions).
_TYPE_OPERANDS_OK = (op.TYPE_OPCODES | op.DEBUG_OPCODES | op.ANNOTATION_OPCODES
                     | {op.Function, op.Line, op.NoLine})
for _n in ("CooperativeMatrixLengthNV", "CooperativeMatrixLengthKHR", "UntypedArrayLengthKHR",
           "UntypedVariableKHR", "UntypedAccessChainKHR", "UntypedInBoundsAccessChainKHR",
           "UntypedPtrAccessChainKHR", "UntypedInBoundsPtrAccessChainKHR", "SizeOf"):
    if hasattr(op, _n):
        _TYPE_OPERANDS_OK = _TYPE_OPERANDS_OK | {getattr(op, _n)}
# Instructions whose id operands may name untyped results (labels, imports, strings, groups ...).
_UNTYPED_OPERANDS_OK = (_TYPE_OPERANDS_OK | op.BRANCHES | op.MERGES | op.EXT_INSTS
                        | {op.Phi, op.ExtInstImport, op.EntryPoint, op.ExecutionMode, op.ExecutionModeId})


def check(ctx) -> None:
    _check_ids(ctx)
    if ctx.diagnostics:
        return
    before = len(ctx.diagnostics)
    cfg_module.build_all(ctx)
    if len(ctx.diagnostics) == before:
        _check_dominance(ctx)


def _is_debug_ext_inst(ctx, inst) -> bool:
    if inst.opcode not in op.EXT_INSTS or len(inst.words) < 4:
        return False
    name = ctx.ext_imports.get(inst.words[3], "")
    return name.startswith("NonSemantic.") or "DebugInfo" in name


def _locate_functions(ctx) -> None:
    """Record the function and block of every function-local id (parameters have no block)."""
    insts, rids, def_pos = ctx.insts, ctx.result_ids, ctx.def_pos
    n = len(insts)
    function_of, block_of = ctx.function_of_id, ctx.block_of_id
    for fi, func in enumerate(ctx.functions):
        pos = def_pos.get(func.id)
        if pos is None or insts[pos] is not func.definition or len(rids) != n:
            _locate_function_slowly(ctx, fi, func)
            continue
        label = None
        for pos in range(pos + 1, n):
            inst = insts[pos]
            opc = inst.opcode
            if opc == op.FunctionEnd:
                break
            if opc == op.Label:
                label = inst.words[1]
            rid = rids[pos]
            if rid is not None:
                function_of[rid] = fi
                if label is not None:
                    block_of[rid] = label
    for func in ctx.functions:
        function_of.pop(func.id, None)  # functions are module-scope ids


def _locate_function_slowly(ctx, fi, func) -> None:
    """The same from the function's parsed blocks (when its instructions are not one contiguous
    run of the module's list)."""
    for p in func.parameters:
        ctx.function_of_id[p.words[2]] = fi
    for b in func.blocks:
        ctx.function_of_id[b.id] = fi
        ctx.block_of_id[b.id] = b.id
        for inst in b.instructions:
            rid = inst.result_id
            if rid is not None:
                ctx.function_of_id[rid] = fi
                ctx.block_of_id[rid] = b.id


def _check_ids(ctx) -> None:
    _locate_functions(ctx)
    defs, def_pos = ctx.defs, ctx.def_pos
    get_pos = def_pos.get
    bound = ctx.module.bound
    function_of = ctx.function_of_id
    get_function = function_of.get
    # Ids whose uses need a closer look (types, functions, untyped results): most operands name
    # typed values and pass with a dictionary lookup.
    special = {rid for rid, d in defs.items() if _needs_kind_check(d)}
    # Interface variables (and module-scope values made from them): their uses in each function are
    # recorded for the entry-point interface rule (function._interfaces).
    watched: dict[int, frozenset] = {}
    before_1_4 = ctx.version < (1, 4)
    for v in ctx.instructions_of((op.Variable,)):
        sc = v.words[3] if len(v.words) > 3 else op.SC.Function
        if sc != op.SC.Function and (not before_1_4 or sc in (op.SC.Input, op.SC.Output)):
            watched[v.words[2]] = frozenset((v.words[2],))
    special |= watched.keys()
    interface_uses: dict[int, set[int]] = {}
    ctx.interface_uses = interface_uses
    id_slots = ctx.id_slots
    cached_slots = ctx._id_slots.get
    not_checked_for_scope = op.ANNOTATION_OPCODES | op.DEBUG_OPCODES
    current_function = None
    forward_declared: set[int] = set()
    fstart = {id(f.definition): fi for fi, f in enumerate(ctx.functions)}
    for pos, inst in enumerate(ctx.insts):
        opc = inst.opcode
        if opc == op.Function:
            current_function = fstart.get(id(inst))
        elif opc == op.TypeForwardPointer and len(inst.words) > 1:
            forward_declared.add(inst.words[1])
        slots = cached_slots(id(inst.operands))
        if slots is None:
            slots = id_slots(inst)
        if not slots:
            if opc == op.FunctionEnd:
                current_function = None
            continue
        rule = None
        w = inst.words
        debug_ext = None
        scoped = opc not in not_checked_for_scope
        for index, offset, is_result_type in slots:
            value = w[offset]
            p = get_pos(value)
            if p is None:
                if value >= bound:
                    ctx.error("ids.defined", SEC,
                              f"ID {value} is out of bounds (the module's ID bound is {bound})", inst)
                else:
                    ctx.error("ids.defined", SEC, f"ID {ctx.name(value)} has not been defined", inst)
                continue
            if p >= pos:
                d = defs[value]
                if rule is None:
                    rule = _forward_rule(opc)
                if debug_ext is None:
                    debug_ext = _is_debug_ext_inst(ctx, inst)
                if rule is _ALL and opc in op.TYPE_OPCODES and opc != op.TypeForwardPointer \
                        and value not in forward_declared:
                    ctx.error("ids.defined-before-use", SEC_LAYOUT,
                              f"Operand {ctx.name(value)} requires a previous definition", inst)
                    continue
                if not _may_forward(rule, index) and not (debug_ext and _debug_forward_ok(inst, d)):
                    ctx.error("ids.defined-before-use", SEC_LAYOUT,
                              f"ID {ctx.name(value)} has not been defined", inst)
                    continue
            if is_result_type:
                d = defs[value]
                if d.opcode not in op.TYPE_OPCODES:
                    ctx.error("ids.result-type", SEC, f"ID {ctx.name(value)} is not a type id", inst)
                elif d.opcode == op.TypeFunction:
                    # "OpFunction is the only valid use of OpTypeFunction." (SPIR-V 3.32.6)
                    ctx.error("ids.operand-kind", SEC_TYPE_FUNCTION,
                              f"Invalid use of function type result id {ctx.name(value)}.", inst)
                continue
            if value in special:
                vs = watched.get(value)
                if vs is None:
                    _check_operand_kind(ctx, inst, value, defs[value])
                elif current_function is not None:
                    interface_uses.setdefault(current_function, set()).update(vs)
                elif inst.result_id is not None:  # a module-scope user: its uses are the variable's
                    rid = inst.result_id
                    watched[rid] = watched.get(rid, frozenset()) | vs
                    special.add(rid)
            if scoped:
                fi = get_function(value)
                if fi is not None and current_function != fi:
                    where = ctx.functions[current_function].id if current_function is not None else None
                    user = f"used in function {ctx.name(where)}" if where is not None else "used at module scope"
                    ctx.error("ids.function-local", SEC,
                              f"ID {ctx.name(value)} defined in function {ctx.name(ctx.functions[fi].id)} is "
                              f"{user}: it is used outside of its defining function", inst)
        if opc == op.FunctionEnd:
            current_function = None


def _needs_kind_check(d) -> bool:
    """Whether _check_operand_kind can say anything about a use of the id ``d`` defines."""
    return d.opcode in op.TYPE_OPCODES or d.opcode == op.Function or d.type_id is None


_FUNCTION_TYPE_USERS = frozenset({op.Function, op.TypePointer, op.TypeFunction}) | op.ANNOTATION_OPCODES | op.DEBUG_OPCODES \
    | op.EXT_INSTS
_FUNCTION_USERS = frozenset({op.FunctionCall, op.EntryPoint, op.ExecutionMode, op.ExecutionModeId, op.EnqueueKernel,
                             op.GetKernelNDrangeSubGroupCount, op.GetKernelNDrangeMaxSubGroupSize,
                             op.GetKernelWorkGroupSize, op.GetKernelPreferredWorkGroupSizeMultiple}) \
    | op.ANNOTATION_OPCODES | op.DEBUG_OPCODES | op.EXT_INSTS
for _n in ("ConstantFunctionPointerINTEL", "FunctionPointerCallINTEL", "GetKernelMaxNumSubgroups",
           "GetKernelLocalSizeForSubgroupCount", "CreatePipeFromPipeStorage"):
    if hasattr(op, _n):
        _FUNCTION_USERS |= {getattr(op, _n)}


def _check_operand_kind(ctx, inst, value, d) -> None:
    opc = inst.opcode
    if d.opcode == op.TypeFunction and opc not in _FUNCTION_TYPE_USERS:
        ctx.error("ids.operand-kind", SEC, f"Invalid use of function type result id {ctx.name(value)}.", inst)
        return
    if d.opcode == op.Function and opc not in _FUNCTION_USERS:
        ctx.error("ids.operand-kind", SEC, f"Invalid use of function result id {ctx.name(value)}.", inst)
        return
    if d.opcode in op.TYPE_OPCODES:
        if opc not in _TYPE_OPERANDS_OK and not _is_debug_ext_inst(ctx, inst) and not _spec_op_ok(inst):
            ctx.error("ids.operand-kind", SEC, f"Operand {ctx.name(value)} cannot be a type", inst)
        return
    if d.type_id is None and opc not in _UNTYPED_OPERANDS_OK and not _is_debug_ext_inst(ctx, inst):
        ctx.error("ids.operand-kind", SEC, f"Operand {ctx.name(value)} requires a type", inst)


def _spec_op_ok(inst) -> bool:
    return inst.opcode == op.SpecConstantOp and len(inst.words) > 3 and inst.words[3] in _TYPE_OPERANDS_OK


# -- dominance ----------------------------------------------------------------------------------

def _check_dominance(ctx) -> None:
    block_of = ctx.block_of_id
    get_block = block_of.get
    id_slots = ctx.id_slots
    defs = ctx.defs
    for cfg in ctx.cfgs:
        reachable = cfg.reachable
        for b in cfg.blocks:
            bid = b.id
            use_reachable = bid in reachable
            for inst in b.instructions:
                if inst.opcode == op.Phi:
                    _check_phi_dominance(ctx, cfg, inst)
                    continue
                if not use_reachable:
                    continue
                w = inst.words
                for _index, offset, _rt in id_slots(inst):
                    value = w[offset]
                    def_block = get_block(value)
                    if def_block is None or def_block == bid or defs[value].opcode == op.Label:
                        continue
                    if not cfg.dominates(def_block, bid):
                        ctx.error("ids.dominance", SEC,
                                  f"ID {ctx.name(value)} defined in block {ctx.name(def_block)} does not "
                                  f"dominate its use in block {ctx.name(bid)}", inst)
                        return


def _check_phi_dominance(ctx, cfg, inst) -> None:
    w = inst.words
    for value, parent in zip(w[3::2], w[4::2]):
        def_block = ctx.block_of_id.get(value)
        if def_block is None or ctx.def_opcode(value) == op.Label or parent not in cfg.reachable:
            continue
        if not cfg.dominates(def_block, parent):
            ctx.error("ids.dominance", SEC,
                      f"In OpPhi instruction {ctx.name(inst.words[2])}, ID {ctx.name(value)} definition does "
                      f"not dominate its parent {ctx.name(parent)}", inst)
            return
