"""Limits (SPIR-V 2.17), configurable through :class:`ValidatorOptions`: id bound, string
length, struct members and nesting, switch targets, function parameters and call arguments,
global and local variables, control-flow nesting. (Access-chain and composite index counts are
checked where those instructions are; execution modes per entry point in ``function``.)"""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 2.17"


def check(ctx) -> None:
    o = ctx.options
    if ctx.module.bound > o.max_id_bound:
        ctx.error("limits.id-bound", SEC,
                  f"Invalid SPIR-V.  The id bound {ctx.module.bound} is larger than the max id bound "
                  f"{o.max_id_bound}.")
    globals_count = 0
    for inst in ctx.insts:
        opc = inst.opcode
        if opc == op.TypeStruct:
            if len(inst.words) - 2 > o.max_struct_members:
                ctx.error("limits.struct-members", SEC,
                          f"Number of OpTypeStruct members ({len(inst.words) - 2}) has exceeded the limit "
                          f"({o.max_struct_members}).", inst)
            elif _struct_depth(ctx, inst.words[1], 0) > o.max_struct_depth:
                ctx.error("limits.struct-depth", SEC,
                          f"Structure Nesting Depth may not be larger than {o.max_struct_depth}.", inst)
        elif opc == op.Switch:
            pairs = (len(inst.words) - 3) // 2
            if pairs > o.max_switch_branches:
                ctx.error("limits.switch-branches", SEC,
                          f"Number of (literal, label) pairs in OpSwitch ({pairs}) exceeds the limit "
                          f"({o.max_switch_branches}).", inst)
        elif opc == op.TypeFunction and len(inst.words) - 3 > o.max_function_args:
            ctx.error("limits.function-parameters", SEC,
                      f"OpTypeFunction may not take more than {o.max_function_args} arguments.", inst)
        elif opc == op.FunctionCall and len(inst.words) - 4 > o.max_function_args:
            ctx.error("limits.function-parameters", SEC,
                      f"OpFunctionCall may not take more than {o.max_function_args} arguments.", inst)
        elif opc == op.ExtInst and len(inst.words) - 5 > o.max_function_args:
            ctx.error("limits.function-parameters", SEC,
                      f"OpExtInst may not take more than {o.max_function_args} arguments.", inst)
        elif opc == op.Variable and len(inst.words) > 3 and inst.words[3] != op.SC.Function:
            globals_count += 1
            if globals_count == o.max_global_variables + 1:
                ctx.error("limits.global-variables", SEC,
                          f"Number of Global Variables (Storage Class other than 'Function') exceeded the valid "
                          f"limit ({o.max_global_variables}).", inst)
        if len(inst.words) * 4 <= o.max_string_length:
            continue  # too short to hold a string over the limit
        for operand in inst.operands:
            if operand.kind == "LiteralString" and operand.count * 4 - 1 > o.max_string_length:
                if len(inst.value(inst.operands.index(operand)).encode()) > o.max_string_length:
                    ctx.error("limits.string-length", SEC,
                              f"Literal string is longer than {o.max_string_length} characters.", inst)
    table = len(ctx.grammar.operand_kinds["Decoration"].enumerants)
    for target, decorations in ctx.decorations.items():
        if len(decorations) > table:
            ctx.error("limits.decorations-per-id", SEC,
                      f"ID '{target}' has {len(decorations)} decorations; the limit is the size of the Decoration "
                      f"table ({table}).", decorations[-1][2])
            break
    for func in ctx.functions:
        count = sum(1 for b in func.blocks for i in b.instructions if i.opcode == op.Variable)
        if count > o.max_local_variables:
            ctx.error("limits.local-variables", SEC,
                      f"Number of local variables ('Function' Storage Class) exceeded the valid limit "
                      f"({o.max_local_variables}).", func.definition)
        _nesting(ctx, func)


def _struct_depth(ctx, sid, depth) -> int:
    if depth > ctx.options.max_struct_depth + 1:
        return depth
    t = ctx.type_inst(sid)
    best = depth + 1
    for m in t.words[2:]:
        mt = ctx.type_inst(m)
        while mt is not None and mt.opcode in (op.TypeArray, op.TypeRuntimeArray):
            mt = ctx.type_inst(mt.words[2])
        if mt is not None and mt.opcode == op.TypeStruct:
            best = max(best, _struct_depth(ctx, mt.words[1], depth + 1))
    return best


def _nesting(ctx, func) -> None:
    """Control-flow nesting depth: headers whose merge block has not been reached yet, in
    binary order (spirv-val measures the same with its construct tree)."""
    limit = ctx.options.max_control_flow_nesting_depth
    open_merges: list[int] = []
    for b in func.blocks:
        while b.id in open_merges:
            open_merges.remove(b.id)
        body = b.instructions
        if len(body) >= 2 and body[-2].opcode in op.MERGES:
            open_merges.append(body[-2].words[1])
            if len(open_merges) > limit:
                ctx.error("limits.control-flow-nesting", SEC,
                          f"Maximum Control Flow nesting depth exceeded ({limit}).", body[-2])
                return
