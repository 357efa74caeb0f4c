"""Group and subgroup instructions (SPIR-V 3.32.21, non-uniform 3.32.24): result and value
types of the work-group/sub-group collectives, GroupOperation operands. (Execution scopes are
checked in ``atomics_barriers`` and, per OpenCL version, in ``opencl``.)"""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.21"

_BOOL_OPS = frozenset({op.GroupAll, op.GroupAny})
_ARITH = {op.GroupIAdd: "int", op.GroupFAdd: "float", op.GroupFMin: "float", op.GroupUMin: "int",
          op.GroupSMin: "int", op.GroupFMax: "float", op.GroupUMax: "int", op.GroupSMax: "int"}


_BALLOT_UVEC4 = frozenset(getattr(op, n) for n in ("GroupNonUniformBallot",) if hasattr(op, n))
_SCAN_OPS = frozenset({op.GROUP_OPERATION.Reduce, op.GROUP_OPERATION.InclusiveScan,
                       op.GROUP_OPERATION.ExclusiveScan})
_CLUSTERED_REDUCE = op.GROUP_OPERATION.ClusteredReduce
# The non-uniform scans and reductions whose grammar ends in the optional ClusterSize operand
# (opcode -> word index of ClusterSize).
_CLUSTERED = {d.opcode: len(d.operands) for d in op._g.instructions.values()
              if d.operands and d.operands[-1].name == "ClusterSize" and d.operands[-1].quantifier == "?"}


_ROTATE = getattr(op, "GroupNonUniformRotateKHR", -1)


def _async_copy(ctx, inst) -> None:
    """OpGroupAsyncCopy (SPIR-V 3.32.21): an event result; Destination and Source pointers to one
    numeric scalar or vector type, one in Workgroup and the other in CrossWorkgroup storage;
    Num Elements and Stride integers of the addressing model's width; Event an event."""
    w = inst.words
    if len(w) < 9:
        return

    def fail(message):
        ctx.error("group.operand-type", SEC, f"OpGroupAsyncCopy: {message}", inst)

    if ctx.type_opcode(w[1]) != op.TypeEvent:
        ctx.error("group.result-type", SEC, "OpGroupAsyncCopy: Result Type must be an OpTypeEvent object", inst)
        return
    dst, src = ctx.pointer_info(ctx.type_of(w[4])), ctx.pointer_info(ctx.type_of(w[5]))
    if dst is None or dst[1] is None or ctx.type_opcode(ctx.component_type(dst[1])) not in (op.TypeInt, op.TypeFloat):
        return fail("Destination must be a pointer to a scalar or vector of floating-point type or integer type")
    if src is None or src[1] != dst[1]:
        return fail("the type of Source must be the same as Destination")
    if {dst[0], src[0]} != {op.SC.Workgroup, op.SC.CrossWorkgroup}:
        return fail("one of Destination and Source must be in Workgroup and the other in CrossWorkgroup "
                    "storage")
    width = 32 if ctx.addressing_model == op.ADDRESSING.Physical32 else 64
    for index, name in ((6, "Num Elements"), (7, "Stride")):
        t = ctx.type_of(w[index])
        if not ctx.is_int_scalar(t) or ctx.bit_width(t) != width:
            return fail(f"{name} must be a {width}-bit integer type scalar")
    if ctx.type_opcode(ctx.type_of(w[8])) != op.TypeEvent:
        fail("Event must have a type of OpTypeEvent")


def _wait_events(ctx, inst) -> None:
    """OpGroupWaitEvents: "Num Events must be a 32-bit integer type scalar. Events List must be a
    pointer to OpTypeEvent." """
    w = inst.words
    if len(w) < 4:
        return
    t = ctx.type_of(w[2])
    if not ctx.is_int_scalar(t) or ctx.bit_width(t) != 32:
        ctx.error("group.operand-type", SEC, "OpGroupWaitEvents: Num Events must be a 32-bit integer type scalar",
                  inst)
        return
    events = ctx.pointer_info(ctx.type_of(w[3]))
    if events is None or events[1] is None or ctx.type_opcode(events[1]) != op.TypeEvent:
        ctx.error("group.operand-type", SEC, "OpGroupWaitEvents: Events List must be a pointer to OpTypeEvent", inst)


def _check_cluster_size(ctx, inst) -> None:
    """A present ClusterSize: a constant instruction (SPIR-V 3.32.24; spirv-val's wording), for
    a rotation also a power of 2 of at least 1 (SPV_KHR_subgroup_rotate)."""
    cluster = inst.words[_CLUSTERED[inst.opcode]]
    if inst.opcode == _ROTATE:
        if not ctx.is_constant_instruction(cluster):
            ctx.error("group.cluster-size", "SPV_KHR_subgroup_rotate",
                      f"{inst.opname[2:]}: ClusterSize must come from a constant instruction.", inst)
            return
        value = ctx.constant_value(cluster)
        if value is not None and (value < 1 or value & (value - 1)):
            ctx.error("group.cluster-size", "SPV_KHR_subgroup_rotate",
                      f"{inst.opname[2:]}: Behavior is undefined unless ClusterSize is at least 1 and a "
                      f"power of 2.", inst)
    elif not ctx.is_constant_instruction(cluster):
        ctx.error("group.cluster-size", "SPIR-V 3.32.24",
                  f"{inst.opname[2:]}: ClusterSize must be a constant instruction", inst)


def check(ctx) -> None:
    for inst in ctx.insts:
        opc = inst.opcode
        if opc in _CLUSTERED and len(inst.words) > _CLUSTERED[opc]:
            _check_cluster_size(ctx, inst)
        if opc in _CLUSTERED and opc != _ROTATE and len(inst.words) > 4 and inst.words[4] == _CLUSTERED_REDUCE \
                and len(inst.words) <= _CLUSTERED[opc]:
            # Group Operation ClusteredReduce: "... The ClusterSize operand must be present." (SPIR-V
            # 3.28 in the unified specification; GroupNonUniformClustered)
            ctx.error("group.cluster-size", "SPIR-V 3.28",
                      f"{inst.opname[2:]}: ClusterSize must be present when Operation is ClusteredReduce", inst)
        elif opc in _BALLOT_UVEC4:
            t = inst.words[1]
            if not (ctx.is_int_vector(t) and ctx.dimension(t) == 4 and ctx.bit_width(t) == 32
                    and ctx.is_unsigned_int_scalar(ctx.component_type(t))):
                ctx.error("group.result-type", "SPIR-V 3.32.24",
                          f"{inst.opname[2:]}: Expected Result Type to be a vector of four components of integer "
                          f"type scalar", inst)
        elif opc == getattr(op, "GroupNonUniformBallotBitCount", -1):
            if inst.words[4] not in _SCAN_OPS:
                ctx.error("group.operation", "SPIR-V 3.32.24",
                          "GroupNonUniformBallotBitCount: Group Operation must be Reduce, InclusiveScan, or "
                          "ExclusiveScan", inst)
        elif opc in _BOOL_OPS:
            if not ctx.is_bool_scalar(inst.words[1]) or not ctx.is_bool_scalar(ctx.type_of(inst.words[4])):
                ctx.error("group.operand-type", SEC,
                          f"{inst.opname}: Result Type and Predicate must be boolean scalars", inst)
        elif opc in _ARITH:
            kind = _ARITH[opc]
            rtype = inst.words[1]
            ok = ctx.is_int_scalar_or_vector(rtype) if kind == "int" else ctx.is_float_scalar_or_vector(rtype)
            if not ok:
                ctx.error("group.operand-type", SEC,
                          f"{inst.opname}: Result Type must be a{'n integer' if kind == 'int' else ' floating-point'} "
                          f"scalar or vector", inst)
            elif ctx.type_of(inst.words[5]) != rtype:
                ctx.error("group.operand-type", SEC, f"{inst.opname}: X must be of Result Type", inst)
        elif opc == op.GroupAsyncCopy:
            _async_copy(ctx, inst)
        elif opc == op.GroupWaitEvents:
            _wait_events(ctx, inst)
        elif opc == op.GroupBroadcast:
            if ctx.type_of(inst.words[4]) != inst.words[1]:
                ctx.error("group.operand-type", SEC, "OpGroupBroadcast: Value must be of Result Type", inst)
            else:
                local = ctx.type_of(inst.words[5])
                if not ctx.is_int_scalar_or_vector(local) or ctx.dimension(local) > 3:
                    ctx.error("group.operand-type", SEC,
                              "OpGroupBroadcast: LocalId must be an integer scalar or a vector of 2 or 3 integers",
                              inst)
