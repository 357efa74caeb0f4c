"""Work-group (and sub-group) collectives: OpGroupAll/Any/Broadcast, the OpGroup* arithmetic
with Reduce, InclusiveScan and ExclusiveScan, and the GroupNonUniform family (their arithmetic
also with ClusteredReduce; OpGroupNonUniformRotateKHR of SPV_KHR_subgroup_rotate).

A collective needs every work-item's operand before any work-item can have its result, so it
is a synchronisation point like a barrier: in a kernel run region by region, the region ends at
the collective, each work-item leaving its operand in a slot of its record; between the passes
the group function combines the operands in local-id order and writes each work-item's result
into the record slot of the instruction's result; the next region starts right after the
collective and reads it like any value that crosses a barrier.

At Subgroup scope the same computation runs for each sub-group of the group: work-items of
consecutive local linear ids, the launch's sub-group size of them (the last sub-group of a group
may be smaller; by default a work-group is one sub-group).
Collectives in functions the kernel calls are inlined into it first (inline_sync.py). Group
pipe reservations and commits (ops_pipe.py) are collectives too.
"""

from __future__ import annotations

import contextlib
import functools

from llvmlite import ir

from ..errors import NotSupportedError, SpirvError
from ..spirv.names import GROUP_OPERATION, OP, SCOPE
from .function import I1, I8, I32, I64, PTR, FunctionLowering, Ptr, handles
from .intrinsics import intrinsic
from .launch_words import load_word, word
from .loops import CountedLoop
from .ops_pipe import GROUP_OPS as PIPE_GROUP_OPS

NON_UNIFORM_ARITHMETIC = tuple(
    f"OpGroupNonUniform{op}" for op in ("IAdd", "FAdd", "IMul", "FMul", "SMin", "UMin", "FMin", "SMax", "UMax",
                                        "FMax", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LogicalAnd",
                                        "LogicalOr", "LogicalXor"))
ARITHMETIC = ("OpGroupIAdd", "OpGroupFAdd", "OpGroupFMin", "OpGroupUMin", "OpGroupSMin",
              "OpGroupFMax", "OpGroupUMax", "OpGroupSMax") + NON_UNIFORM_ARITHMETIC
# The non-uniform family: the work-items that reach the instruction together take part (the
# active ones), which is what the group function sees as the waiting ones.
SHUFFLES = ("OpGroupNonUniformShuffle", "OpGroupNonUniformShuffleXor", "OpGroupNonUniformShuffleUp",
            "OpGroupNonUniformShuffleDown", "OpGroupNonUniformRotateKHR")
NON_UNIFORM = ("OpGroupNonUniformElect", "OpGroupNonUniformAll", "OpGroupNonUniformAny",
               "OpGroupNonUniformAllEqual", "OpGroupNonUniformBroadcast", "OpGroupNonUniformBroadcastFirst",
               "OpGroupNonUniformBallot") + SHUFFLES
# wait_group_events is one too: the group's copies are waited for when every work-item has
# reached the wait (the work-items that take no part in a divergent copy wait for it there, and
# the checks compare what each work-item waits for: check_events.py).
COLLECTIVES = ("OpGroupAll", "OpGroupAny", "OpGroupBroadcast", "OpGroupAsyncCopy", "OpGroupWaitEvents") + \
    ARITHMETIC + NON_UNIFORM + PIPE_GROUP_OPS
OP_CONTROL_BARRIER = OP.ControlBarrier
REDUCE, INCLUSIVE, EXCLUSIVE = GROUP_OPERATION.Reduce, GROUP_OPERATION.InclusiveScan, GROUP_OPERATION.ExclusiveScan
CLUSTERED_REDUCE = GROUP_OPERATION.ClusteredReduce
WORKGROUP, SUBGROUP = SCOPE.Workgroup, SCOPE.Subgroup


@functools.cache
def collective_opcodes() -> frozenset[int]:
    from ..spirv.grammar import load_grammar

    grammar = load_grammar()
    return frozenset(grammar.by_name[name].opcode for name in COLLECTIVES)


def is_collective(inst) -> bool:
    return inst.opcode in collective_opcodes()


def is_sync(inst) -> bool:
    """Whether every work-item of the group must reach ``inst`` together: a control barrier
    (or a loop cut, see loop_cuts) or a collective."""
    return inst.opcode == OP_CONTROL_BARRIER or inst.opcode in collective_opcodes()


def without_waits(module):
    """The module with its OpGroupWaitEvents turned into OpNop (``module`` itself when it has
    none): a build without checks beyond bounds does every copy when the group reaches it, so a
    wait has nothing to do, and is then no synchronisation point, which would cost the kernel a
    round of its work-item loops (checked builds keep it: check_events.py)."""
    from ..spirv.binary import Instruction
    from ..spirv.module import Module

    wait = OP.GroupWaitEvents
    if not any(inst.opcode == wait for inst in module.instructions):
        return module
    out = [Instruction(OP.Nop, [(1 << 16) | OP.Nop], (), offset=inst.offset) if inst.opcode == wait else inst
           for inst in module.instructions]
    return Module(out, version=module.version, generator=module.generator, bound=module.bound,
                  schema=module.schema, endian=module.endian)


@handles(*COLLECTIVES)
def lower_collective_outside_regions(fl: FunctionLowering, inst) -> None:
    # Calls that reach a collective are inlined into the kernel (inline_sync.py), which runs
    # region by region: a collective lowered anywhere else is outside any kernel's call tree.
    raise NotSupportedError(f"{inst.opname} (word {inst.offset}) outside a kernel's call tree")


def operands(inst, ml=None) -> list[int]:
    """The value operands a work-item contributes: [predicate] / [value, local id] / [X] /
    [destination, source, count, stride, event] / [number of events, events list]. A copy's
    event only in a build with checks beyond bounds (``ml``'s; only they follow events): the
    others do not keep a slot per work-item for it."""
    w = inst.words
    if inst.opname in ARITHMETIC:
        return [w[5]]
    if inst.opname in PIPE_GROUP_OPS:
        from .ops_pipe import group_operands
        return group_operands(inst)
    if inst.opname in ("OpGroupBroadcast", "OpGroupNonUniformBroadcast") + SHUFFLES:
        return [w[4], w[5]]
    if inst.opname == "OpGroupNonUniformElect":
        return []
    if inst.opname == "OpGroupAsyncCopy":
        return [w[4], w[5], w[6], w[7]] + ([w[8]] if ml is None or ml.check_passes is not None else [])
    if inst.opname == "OpGroupWaitEvents":
        return [w[2], w[3]]
    return [w[4]]


def scope_id(inst) -> int:
    """The execution scope operand (the first after the result, or the first of all for a
    group commit, which has no result)."""
    no_result = ("OpGroupCommitReadPipe", "OpGroupCommitWritePipe", "OpGroupWaitEvents")
    return inst.words[1] if inst.opname in no_result else inst.words[3]


def _scope_ok(fl: FunctionLowering, inst) -> None:
    scope_word = scope_id(inst)
    scope = fl.ml.constants.value(scope_word) if fl.ml.constants.is_constant(scope_word) else None
    if scope not in (WORKGROUP, SUBGROUP):
        raise NotSupportedError(f"{inst.opname} with execution scope {scope} (word {inst.offset}): only "
                                "Workgroup and Subgroup scope")
    if inst.opname == "OpGroupNonUniformRotateKHR" or (inst.opname in NON_UNIFORM_ARITHMETIC and
                                                        inst.words[4] == CLUSTERED_REDUCE):
        cluster_size(fl.ml, inst)     # checked while lowering the kernel, before any group function
    elif inst.opname in ARITHMETIC and inst.words[4] not in (REDUCE, INCLUSIVE, EXCLUSIVE):
        raise NotSupportedError(f"{inst.opname} with group operation {GROUP_OPERATION.name(inst.words[4])} "
                                f"(word {inst.offset})")


def cluster_size(ml, inst) -> int | None:
    """The ClusterSize of a ClusteredReduce or a clustered OpGroupNonUniformRotateKHR (None: a
    rotation without one). SPIR-V: it "must come from a constant instruction" (a module where it
    does not is invalid); behaviour is undefined unless it is at least 1 and a power of 2, so
    such a size is an error here rather than some arbitrary result."""
    index = 6    # after Execution, Operation, X (arithmetic) or Execution, Value, Delta (rotation)
    if len(inst.words) <= index:
        if inst.opname == "OpGroupNonUniformRotateKHR":
            return None
        raise SpirvError(f"invalid module: {inst.opname} (word {inst.offset}): ClusteredReduce without a "
                         "ClusterSize operand")
    word = inst.words[index]
    if not ml.constants.is_constant(word):
        raise SpirvError(f"invalid module: {inst.opname} (word {inst.offset}): ClusterSize must come from a "
                         "constant instruction")
    size = ml.constants.value(word)
    if not isinstance(size, int) or size < 1 or size & (size - 1):
        raise SpirvError(f"{inst.opname} (word {inst.offset}): ClusterSize {size} is not a power of 2 "
                         "(undefined behaviour in SPIR-V)")
    return size


def leave_operands(fl: FunctionLowering, inst, slots: list, state: int) -> None:
    """In a region: store this work-item's operands (a pointer as its address, base and end
    when checking) and end the region at the collective."""
    _scope_ok(fl, inst)
    b = fl.builder
    counted = _checked_event_count(fl, inst)
    for value_id, parts in zip(operands(inst), slots):
        if counted is not None and value_id == inst.words[2]:   # NumEvents, as the list allows
            fl.tag(b.store(counted, fl.region.address(b, parts[0])))
            continue
        v = fl.get(value_id)
        if isinstance(v, Ptr):
            null = ir.Constant(PTR, None)
            values = [v.addr, v.base or null, v.end or null][:len(parts)]
        else:
            value = fl.value(value_id)
            values = [b.zext(value, I8) if value.type == I1 else value]
        for value, slot in zip(values, parts):
            fl.tag(b.store(value, fl.region.address(b, slot)))
    b.ret(ir.Constant(I32, state))


def _checked_event_count(fl: FunctionLowering, inst):
    """OpGroupWaitEvents in a checked build: the group function reads NumEvents events from
    the list, so the list is bounds-checked here like a load of NumEvents * 8 bytes; a list too
    short is this work-item's bounds fault, and the group then reads none of it (0 events).
    None for other instructions and unchecked builds."""
    if inst.opname != "OpGroupWaitEvents" or not fl.checked:
        return None
    events = fl.get(inst.words[3])
    if not isinstance(events, Ptr) or events.base is None:
        return None
    b = fl.builder
    num = fl.value(inst.words[2])
    n = b.zext(num, I64) if num.type.width < 64 else num
    # (a count of 2**40 events or more is out of any list's bounds: no overflow in n * 8)
    size = b.select(b.icmp_unsigned("<", n, ir.Constant(I64, 1 << 40)), b.mul(n, ir.Constant(I64, 8)),
                    ir.Constant(I64, 1 << 62))
    fl.check_access(events, size, "load")
    return fl.join_access(num, ir.Constant(num.type, 0))


class GroupData:
    """Addresses of the per-work-item arrays of the records, for the group function."""

    def __init__(self, b: ir.IRBuilder, records, count):
        self.b, self.records, self.count = b, records, count

    def at(self, slot, i) -> ir.Value:
        b = self.b
        base = b.gep(self.records, [b.mul(ir.Constant(I64, slot.start), self.count)], source_etype=I8)
        return b.gep(base, [b.mul(i, ir.Constant(I64, slot.size))], source_etype=I8)


def _operation(opname: str) -> str:
    """IAdd, FMin, BitwiseAnd, LogicalOr ... of OpGroup* and OpGroupNonUniform* alike."""
    return opname.removeprefix("OpGroupNonUniform").removeprefix("OpGroup")


def combine(ml, b: ir.IRBuilder, opname: str, a, x):
    t = x.type
    op = _operation(opname)
    simple = {"IAdd": b.add, "FAdd": b.fadd, "IMul": b.mul, "FMul": b.fmul, "BitwiseAnd": b.and_,
              "BitwiseOr": b.or_, "BitwiseXor": b.xor, "LogicalAnd": b.and_, "LogicalOr": b.or_,
              "LogicalXor": b.xor}
    if op in simple:
        return simple[op](a, x)
    name = {"FMin": "llvm.minnum", "FMax": "llvm.maxnum", "UMin": "llvm.umin", "SMin": "llvm.smin",
            "UMax": "llvm.umax", "SMax": "llvm.smax"}[op]
    return b.call(intrinsic(ml.llvm, name, t, [t, t]), [a, x])


def identity(opname: str, t: ir.Type, exclusive: bool):
    """The operation's identity: the exclusive scan's first result, and the start of the rest
    (-0.0 for a float sum, so a sum of negative zeros stays -0.0)."""
    if isinstance(t, ir.VectorType):
        return ir.Constant(t, [identity(opname, t.element, exclusive)] * t.count)
    op = _operation(opname)
    if isinstance(t, ir.IntType):
        ones = (1 << t.width) - 1
        value = {"IAdd": 0, "UMin": ones, "SMin": ones >> 1, "UMax": 0, "SMax": 1 << (t.width - 1), "IMul": 1,
                 "BitwiseAnd": ones, "BitwiseOr": 0, "BitwiseXor": 0, "LogicalAnd": 1, "LogicalOr": 0,
                 "LogicalXor": 0}[op]
        return ir.Constant(t, value)
    if op == "FAdd":
        return ir.Constant(t, 0.0 if exclusive else -0.0)
    if op == "FMul":
        return ir.Constant(t, 1.0)
    return ir.Constant(t, float("inf") if op == "FMin" else float("-inf"))


def compute(kb, b: ir.IRBuilder, fn: ir.Function, ctx, ts, inst, in_slots: list, out_slot, states, records,
            count, sizes, state: int) -> None:
    """The group's part: combine the operands of the work-items waiting at the collective
    (state ``state``), in local linear id order, into each one's result slot. At Subgroup scope,
    each sub-group on its own: the work-items of local linear ids [k * n, min((k + 1) * n,
    count)) for the launch's sub-group size n."""
    ml = kb.ml
    data = GroupData(b, records, count)
    opname = inst.opname

    def waiting(i):
        return b.icmp_unsigned("==", b.load(b.gep(states, [i], source_etype=I32), typ=I32), ir.Constant(I32, state))

    def operand(parts, i):
        return b.load(data.at(parts[0], i), typ=parts[0].llvm)

    def result(value, i):
        if out_slot is not None:
            if out_slot.llvm == I8 and value.type == I1:
                value = b.zext(value, I8)
            b.store(value, data.at(out_slot, i))

    if opname == "OpGroupAsyncCopy":
        if ml.check_passes is not None:   # the barriers check: the same operands in every work-item
            ml.check_passes.same_operands(kb, b, fn, ctx, ts, inst, in_slots[:4], data, waiting, count, sizes)
        _async_copy(ml, kb.spv_fn, b, fn, ctx, ts, inst, in_slots, out_slot, data, waiting, count)
        return
    if opname == "OpGroupWaitEvents":
        # Nothing to compute: without checks every copy was done when the group reached it;
        # with them, the group's part of the wait (the copies it waits for, the checks) is done
        # at the rendezvous before this region (check_events.py).
        return
    # Accumulators at the function's entry: this code runs once per region pass and sub-group.
    entry = ir.IRBuilder(fn.entry_basic_block)
    entry.position_at_start(fn.entry_basic_block)
    from .abi import CONTEXT
    n = load_word(b, ctx, CONTEXT["sub_group_size"])
    max_size = None
    if opname == "OpGroupNonUniformRotateKHR":
        # SubgroupMaxSize (as builtins._scalar): the rotation's modulus when it has no ClusterSize.
        enqueued = b.mul(b.mul(load_word(b, ctx, CONTEXT["enqueued_local_size"]),
                               load_word(b, ctx, CONTEXT["enqueued_local_size"] + 1)),
                         load_word(b, ctx, CONTEXT["enqueued_local_size"] + 2))
        max_size = b.select(b.icmp_unsigned("<", n, enqueued), n, enqueued)
    if ml.constants.value(scope_id(inst)) == SUBGROUP:
        with CountedLoop(b, fn, b.udiv(b.add(count, b.sub(n, ir.Constant(I64, 1))), n), "subgroup") as k:
            lo = b.mul(k, n)
            end = b.add(lo, n)
            hi = b.select(b.icmp_unsigned("<", end, count), end, count)
            _combine_items(ml, b, entry, fn, inst, in_slots, sizes, lo, hi, waiting, operand, result, max_size)
    else:
        _combine_items(ml, b, entry, fn, inst, in_slots, sizes, ir.Constant(I64, 0), count, waiting, operand, result,
                       max_size)


def _item_loop(b: ir.IRBuilder, fn: ir.Function, lo, hi):
    """A loop class over the work-items [lo, hi): ``with items("name") as i: ...``."""
    class items(CountedLoop):
        def __init__(self, name):
            super().__init__(b, fn, b.sub(hi, lo), name)

        def __enter__(self):
            return b.add(lo, super().__enter__())
    return items


def _combine_items(ml, b: ir.IRBuilder, entry: ir.IRBuilder, fn: ir.Function, inst, in_slots, sizes, lo, hi,
                   waiting, operand, result, max_size) -> None:
    """The collective over the work-items [lo, hi) of the group (a work-group or a sub-group);
    ``max_size``: SubgroupMaxSize, for a rotation (None for the others)."""
    opname = inst.opname
    items = _item_loop(b, fn, lo, hi)

    if opname in PIPE_GROUP_OPS:
        from .ops_pipe import lower_group
        lower_group(ml, b, fn, inst, in_slots, lo, hi, items, waiting, operand, result)
        return

    if opname in NON_UNIFORM and opname not in ("OpGroupNonUniformBroadcast", "OpGroupNonUniformAll",
                                                "OpGroupNonUniformAny"):
        if opname == "OpGroupNonUniformRotateKHR":
            size = cluster_size(ml, inst)
            max_size = ir.Constant(I64, size) if size is not None else max_size
        _non_uniform(ml, b, entry, fn, opname, in_slots, lo, hi, items, waiting, operand, result, max_size)
        return

    if opname in ("OpGroupBroadcast", "OpGroupNonUniformBroadcast"):
        # The source work-item, from the first waiting work-item's local id operand (the same
        # in all of them).
        first, _ = first_waiting(b, fn, b.sub(hi, lo), lambda j: waiting(b.add(lo, j)))
        local = operand(in_slots[1], b.add(lo, first))
        sx, sy, _ = sizes
        if isinstance(local.type, ir.VectorType):
            parts = [b.zext(b.extract_element(local, ir.Constant(I32, k)), I64)
                     if local.type.element.width < 64 else b.extract_element(local, ir.Constant(I32, k))
                     for k in range(local.type.count)]
            index = parts[0]
            if len(parts) > 1:
                index = b.add(index, b.mul(parts[1], sx))
            if len(parts) > 2:
                index = b.add(index, b.mul(parts[2], b.mul(sx, sy)))
        else:
            index = b.zext(local, I64) if local.type.width < 64 else local
        inside = b.icmp_unsigned("<", index, b.sub(hi, lo))
        index = b.select(inside, index, ir.Constant(I64, 0))   # out of range: undefined; stay in bounds
        value = operand(in_slots[0], b.add(lo, index))
        with items("bcast") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return

    if opname in ("OpGroupAll", "OpGroupAny", "OpGroupNonUniformAll", "OpGroupNonUniformAny"):
        every = opname.endswith("All")
        acc = entry.alloca(I8)
        b.store(ir.Constant(I8, 1 if every else 0), acc)
        with items("vote") as i:
            with b.if_then(waiting(i)):
                p = operand(in_slots[0], i)
                old = b.load(acc, typ=I8)
                b.store(b.and_(old, p) if every else b.or_(old, p), acc)
        value = b.icmp_unsigned("!=", b.load(acc, typ=I8), ir.Constant(I8, 0))
        with items("votes") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return

    operation = inst.words[4]
    if operation == CLUSTERED_REDUCE:
        # Clusters of ClusterSize work-items of consecutive ids from the group's first, each
        # reduced on its own (the last may be partial; a ClusterSize beyond the group's size,
        # undefined behaviour in SPIR-V, makes the group one cluster).
        size = ir.Constant(I64, cluster_size(ml, inst))
        clusters = b.udiv(b.add(b.sub(hi, lo), b.sub(size, ir.Constant(I64, 1))), size)
        with CountedLoop(b, fn, clusters, "cluster") as k:
            c_lo = b.add(lo, b.mul(k, size))
            c_end = b.add(c_lo, size)
            c_hi = b.select(b.icmp_unsigned("<", c_end, hi), c_end, hi)
            _scan(ml, b, entry, opname, REDUCE, in_slots, _item_loop(b, fn, c_lo, c_hi), waiting, operand, result)
        return
    _scan(ml, b, entry, opname, operation, in_slots, items, waiting, operand, result)


def _scan(ml, b: ir.IRBuilder, entry: ir.IRBuilder, opname: str, operation: int, in_slots, items, waiting, operand,
          result) -> None:
    """Reduce, InclusiveScan or ExclusiveScan of the waiting work-items of ``items``, in order."""
    t = in_slots[0][0].llvm
    acc = entry.alloca(t)
    b.store(identity(opname, t, operation == EXCLUSIVE), acc)
    with items("scan") as i:
        with b.if_then(waiting(i)):
            before = b.load(acc, typ=t)
            after = combine(ml, b, opname, before, operand(in_slots[0], i))
            b.store(after, acc)
            if operation == INCLUSIVE:
                result(after, i)
            elif operation == EXCLUSIVE:
                result(before, i)
    if operation == REDUCE:
        total = b.load(acc, typ=t)
        with items("total") as i:
            with b.if_then(waiting(i)):
                result(total, i)


def _non_uniform(ml, b: ir.IRBuilder, entry: ir.IRBuilder, fn: ir.Function, opname: str, in_slots, lo, hi, items,
                 waiting, operand, result, rotation) -> None:
    """Elect, AllEqual, BroadcastFirst, Ballot, the shuffles and the rotation (``rotation``: its
    group size, an i64) over the waiting (active) work-items [lo, hi) of a sub-group (Broadcast,
    All, Any and the arithmetic are shared with OpGroup*)."""
    size = b.sub(hi, lo)
    first, _ = first_waiting(b, fn, size, lambda j: waiting(b.add(lo, j)))
    first = b.add(lo, first)
    if opname == "OpGroupNonUniformElect":
        with items("elect") as i:
            with b.if_then(waiting(i)):
                result(b.icmp_unsigned("==", i, first), i)
        return
    if opname == "OpGroupNonUniformBroadcastFirst":
        value = operand(in_slots[0], first)
        with items("bfirst") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return
    if opname == "OpGroupNonUniformAllEqual":
        value = operand(in_slots[0], first)
        same = entry.alloca(I1)
        b.store(ir.Constant(I1, 1), same)
        with items("alleq") as i:
            with b.if_then(waiting(i)):
                b.store(b.and_(b.load(same, typ=I1), _equal(b, operand(in_slots[0], i), value)), same)
        value = b.load(same, typ=I1)
        with items("alleqs") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return
    if opname == "OpGroupNonUniformBallot":
        # Bit k of the uint4: the predicate of sub-group local id k (k < 128).
        mask = entry.alloca(ir.VectorType(I32, 4))
        b.store(ir.Constant(ir.VectorType(I32, 4), [0] * 4), mask)
        with items("ballot") as i:
            k = b.sub(i, lo)
            voted = b.and_(waiting(i), b.icmp_unsigned("!=", operand(in_slots[0], i), ir.Constant(I8, 0)))
            with b.if_then(b.and_(voted, b.icmp_unsigned("<", k, ir.Constant(I64, 128)))):
                word = b.trunc(b.lshr(k, ir.Constant(I64, 5)), I32)
                bit = b.shl(ir.Constant(I32, 1), b.trunc(b.and_(k, ir.Constant(I64, 31)), I32))
                old = b.load(mask, typ=mask.allocated_type)
                b.store(b.insert_element(old, b.or_(b.extract_element(old, word), bit), word), mask)
        value = b.load(mask, typ=mask.allocated_type)
        with items("ballots") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return
    # The shuffles: each work-item reads the value of the one its operand names (an id out of
    # the sub-group, or an inactive one, is undefined: it reads its own, or a stale value).
    with items("shuffle") as i:
        with b.if_then(waiting(i)):
            arg = operand(in_slots[1], i)
            me = b.sub(i, lo)
            if opname == "OpGroupNonUniformRotateKHR":
                source = _rotated(b, me, arg, rotation)
            else:
                arg = b.zext(arg, I64) if arg.type.width < 64 else arg
                source = {"OpGroupNonUniformShuffle": lambda: arg,
                          "OpGroupNonUniformShuffleXor": lambda: b.xor(me, arg),
                          "OpGroupNonUniformShuffleUp": lambda: b.sub(me, arg),
                          "OpGroupNonUniformShuffleDown": lambda: b.add(me, arg)}[opname]()
            source = b.select(b.icmp_unsigned("<", source, size), source, me)
            result(operand(in_slots[0], b.add(lo, source)), i)


def _rotated(b: ir.IRBuilder, me: ir.Value, delta: ir.Value, size: ir.Value) -> ir.Value:
    """OpGroupNonUniformRotateKHR's source: ((me + Delta) mod R) + (me - me mod R) for the rotation
    group size R (ClusterSize, or SubgroupMaxSize in a Kernel module). SPIR-V writes it with
    masks, & (R - 1) and & ~(R - 1), which is the same for the power-of-2 R it assumes;
    cl_khr_subgroup_rotate says "the remainder of the division ... by the maximum subgroup
    size", which is this form, so a launch with a sub-group size that is not a power of 2 still
    rotates. Delta is unsigned; the sum wraps at Delta's width (32 bits at least, the width of
    the local id)."""
    width = max(32, delta.type.width)
    t = ir.IntType(width)
    me_w = b.trunc(me, t) if width < 64 else me
    delta = b.zext(delta, t) if delta.type.width < width else delta
    total = b.add(me_w, delta)
    total = b.zext(total, I64) if width < 64 else total
    return b.add(b.urem(total, size), b.sub(me, b.urem(me, size)))


def _equal(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """x == y, every component of a vector (floats: ordered equality)."""
    element = x.type.element if isinstance(x.type, ir.VectorType) else x.type
    eq = b.fcmp_ordered("==", x, y) if isinstance(element, (ir.FloatType, ir.DoubleType, ir.HalfType)) \
        else b.icmp_unsigned("==", x, y)
    if not isinstance(x.type, ir.VectorType):
        return eq
    out = b.extract_element(eq, ir.Constant(I32, 0))
    for k in range(1, x.type.count):
        out = b.and_(out, b.extract_element(eq, ir.Constant(I32, k)))
    return out


def first_waiting(b: ir.IRBuilder, fn: ir.Function, count, waiting) -> tuple[ir.Value, ir.Value]:
    """(index, found) of the first work-item for which ``waiting(i)`` holds (index 0 when none
    does). Usually the first of all, so the scan stops at once."""
    pre = b.block
    scan = fn.append_basic_block("first.scan")
    done = fn.append_basic_block("first.done")
    b.branch(scan)
    b.position_at_end(scan)
    i = b.phi(I64)
    i.add_incoming(ir.Constant(I64, 0), pre)
    at_end = b.icmp_unsigned(">=", i, count)
    hit = b.and_(b.not_(at_end), waiting(b.select(at_end, ir.Constant(I64, 0), i)))
    i.add_incoming(b.add(i, ir.Constant(I64, 1)), scan)
    b.cbranch(b.or_(hit, at_end), done, scan)
    b.position_at_end(done)
    return b.select(hit, i, ir.Constant(I64, 0)), hit


def _async_copy(ml, spv_fn, b: ir.IRBuilder, fn: ir.Function, ctx, ts, inst, in_slots, out_slot, data, waiting,
                count) -> None:
    """OpGroupAsyncCopy, for the group (the operands are the same in every work-item: the first
    waiting one's are used). The stride applies to the side that is not Workgroup memory.
    Checked builds test both ranges first: a range outside its buffer raises the fault flag
    (report builds record where) and only the elements inside both buffers are copied (as
    Oclgrind does); a copy another check found (a null or read-only target) is not done.
    Without checks beyond bounds the copy is done here, when the group reaches it; with them
    the events check keeps it until the group waits for its event (check_events.py)."""
    from .abi import THREAD

    first, _ = first_waiting(b, fn, count, waiting)
    dst_parts, src_parts = ([b.load(data.at(slot, first), typ=slot.llvm) for slot in parts] for parts in in_slots[:2])
    n = b.load(data.at(in_slots[2][0], first), typ=in_slots[2][0].llvm)
    stride = b.load(data.at(in_slots[3][0], first), typ=in_slots[3][0].llvm)
    n = b.zext(n, I64) if n.type.width < 64 else n
    stride = b.zext(stride, I64) if stride.type.width < 64 else stride
    dst_type = ml.types[ml.module.definition(inst.words[4]).words[1]]
    copy = GroupCopy(dst_parts[0], src_parts[0], n, stride, ir.Constant(I64, ml.types.size(dst_type.elem)),
                     ir.Constant(I1, dst_type.storage != "Workgroup"))
    whole, claimed, sides = ir.Constant(I1, 1), None, None
    if ml.checked:
        # Bytes each side spans: count elements, or (count - 1) * stride + 1 on the strided side;
        # a count or stride of 2**40 or more spans more than any buffer (no wrapping products).
        huge = ir.Constant(I64, 1 << 62)
        limit = ir.Constant(I64, 1 << 40)
        span_strided = b.select(b.icmp_unsigned("==", n, ir.Constant(I64, 0)), ir.Constant(I64, 0),
                                b.mul(b.add(b.mul(b.sub(n, ir.Constant(I64, 1)), stride), ir.Constant(I64, 1)),
                                      copy.esize))
        span_strided = b.select(b.or_(b.icmp_unsigned(">=", n, limit), b.icmp_unsigned(">=", stride, limit)),
                                huge, span_strided)
        span_plain = b.select(b.icmp_unsigned(">=", n, limit), huge, b.mul(n, copy.esize))
        dst_strided = copy.dst_strided.constant
        sides = [(*(b.ptrtoint(p, I64) for p in parts), span)
                 for parts, span in ((dst_parts, span_strided if dst_strided else span_plain),
                                     (src_parts, span_plain if dst_strided else span_strided))]
        if ml.check_passes is not None:   # checks beyond bounds: a finding skips the copy, no fault
            claimed = ml.check_passes.group_copy(b, ctx, ts, inst, spv_fn, sides)
        for (addr, base, end, span), kind in zip(sides, ("write", "read")):
            inside = b.and_(b.and_(b.icmp_unsigned(">=", addr, base), b.icmp_unsigned("<=", addr, end)),
                            b.icmp_unsigned("<=", span, b.sub(end, addr)))
            inside = b.or_(inside, b.icmp_unsigned("==", n, ir.Constant(I64, 0)))
            if claimed is not None:
                inside = b.or_(inside, claimed)
            with b.if_then(b.not_(inside), likely=False):
                slot = word(b, ts, THREAD["fault_flag"])
                b.store(b.or_(b.load(slot, typ=I64), ir.Constant(I64, 1)), slot)
                if ml.report_faults:
                    zero = ir.Constant(I64, 0)
                    b.call(ml.runtime("fault"), [ctx, ts, zero, zero, zero,
                                                 ir.Constant(I64, ml.site(inst, kind, spv_fn)), addr, base, end, span])
            whole = b.and_(whole, inside)
    events = ml.check_passes.events if ml.check_passes is not None else None
    if events is not None:
        event_in = b.load(data.at(in_slots[4][0], first), typ=in_slots[4][0].llvm)
        event = events.copy(b, fn, ctx, ts, inst, spv_fn, copy, sides, whole, claimed, event_in)
    else:
        with b.if_then(b.not_(claimed)) if claimed is not None else _nothing():
            copy.perform(ml, b, fn, whole, [s[1:3] for s in sides] if sides else None)
        event = ir.Constant(PTR, None)   # nothing to wait for
    if out_slot is not None:
        with CountedLoop(b, fn, count, "events") as i:
            with b.if_then(waiting(i)):
                b.store(event, data.at(out_slot, i))


class GroupCopy:
    """What an async copy moves: ``n`` elements of ``esize`` bytes (i64s) from ``src`` to ``dst``
    (pointers), every ``stride``-th element on the strided side (``dst_strided``, an i1: the
    destination is not Workgroup memory)."""

    def __init__(self, dst, src, n, stride, esize, dst_strided):
        self.dst, self.src, self.n, self.stride, self.esize, self.dst_strided = dst, src, n, stride, esize, dst_strided

    def perform(self, ml, b: ir.IRBuilder, fn: ir.Function, whole, bounds) -> None:
        """Copies the elements. ``whole`` (i1): both ranges lie inside their buffers (the plain
        loop); else, with ``bounds`` ((base, end) of the destination, of the source, i64s), only
        the elements inside both are copied."""
        def loop(name, clamp, first=None, count=None):
            with CountedLoop(b, fn, self.n if count is None else count, name) as j:
                i = j if first is None else b.add(first, j)
                far = b.mul(i, self.stride)
                d = b.gep(self.dst, [b.mul(b.select(self.dst_strided, far, i), self.esize)], source_etype=I8)
                s = b.gep(self.src, [b.mul(b.select(self.dst_strided, i, far), self.esize)], source_etype=I8)
                with b.if_then(clamp(d, s)) if clamp is not None else _nothing():
                    b.call(ml.llvm.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64]),
                           [d, s, self.esize, ir.Constant(I1, 0)])

        def plain():
            # Both sides contiguous (every async_work_group_copy; a strided copy of stride 1):
            # one memcpy of the whole range, else element by element.
            with b.if_else(b.icmp_unsigned("==", self.stride, ir.Constant(I64, 1))) as (contiguous, strided):
                with contiguous:
                    b.call(ml.llvm.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64]),
                           [self.dst, self.src, b.mul(self.n, self.esize), ir.Constant(I1, 0)])
                with strided:
                    loop("acopy", None)

        if bounds is None:
            plain()
            return

        def inside(p, base_end):
            at = b.ptrtoint(p, I64)
            base, end = base_end
            return b.and_(b.and_(b.icmp_unsigned(">=", at, base), b.icmp_unsigned("<=", at, end)),
                          b.icmp_unsigned("<=", self.esize, b.sub(end, at)))

        with b.if_else(whole) as (inside_both, clamped):
            with inside_both:
                plain()
            with clamped:
                # Only the elements whose contiguous side lies in its buffer can be inside both:
                # at most that buffer's length of them (a count of 2**64 - 1 must not loop).
                dst_plain = b.not_(self.dst_strided)
                at = b.ptrtoint(b.select(dst_plain, self.dst, self.src), I64)
                base = b.select(dst_plain, bounds[0][0], bounds[1][0])
                end = b.select(dst_plain, bounds[0][1], bounds[1][1])
                zero = ir.Constant(I64, 0)
                below = b.icmp_unsigned("<", at, base)
                first = b.select(below, b.udiv(b.add(b.sub(base, at), b.sub(self.esize, ir.Constant(I64, 1))),
                                               self.esize), zero)
                last = b.select(b.icmp_unsigned("<=", at, end), b.udiv(b.sub(end, at), self.esize), zero)
                last = b.select(b.icmp_unsigned("<", self.n, last), self.n, last)
                count = b.select(b.icmp_unsigned("<", first, last), b.sub(last, first), zero)
                loop("acopy.part", lambda d, s: b.and_(inside(d, bounds[0]), inside(s, bounds[1])), first, count)


def _nothing():
    return contextlib.nullcontext()


# ----- the ballot's bit operations: each work-item on its own uint4 ---------------------------
I128 = ir.IntType(128)


def _ballot_bits(fl: FunctionLowering, value_id: int) -> ir.Value:
    """A ballot (uint4, component 0 the low bits) as one i128."""
    return fl.builder.bitcast(fl.value(value_id), I128)


def _low_bits(b: ir.IRBuilder, n: ir.Value) -> ir.Value:
    """An i128 of the n (0..128) low bits set."""
    n = b.zext(n, I128) if n.type.width < 128 else n
    some = b.sub(b.shl(ir.Constant(I128, 1), n), ir.Constant(I128, 1))
    return b.select(b.icmp_unsigned("<", n, ir.Constant(I128, 128)), some, ir.Constant(I128, (1 << 128) - 1))


def _to(b: ir.IRBuilder, value: ir.Value, t: ir.Type) -> ir.Value:
    return b.trunc(value, t) if value.type.width > t.width else b.zext(value, t) if value.type.width < t.width else value


def _bit(b: ir.IRBuilder, bits: ir.Value, index: ir.Value) -> ir.Value:
    index = b.and_(_to(b, index, I128), ir.Constant(I128, 127))
    return b.trunc(b.lshr(bits, index), I1)


@handles("OpGroupNonUniformInverseBallot")
def lower_inverse_ballot(fl: FunctionLowering, inst) -> None:
    from .builtins import _scalar
    fl.set(inst.result_id, _bit(fl.builder, _ballot_bits(fl, inst.words[4]), _scalar(fl, "SubgroupLocalInvocationId")))


@handles("OpGroupNonUniformBallotBitExtract")
def lower_ballot_bit_extract(fl: FunctionLowering, inst) -> None:
    fl.set(inst.result_id, _bit(fl.builder, _ballot_bits(fl, inst.words[4]), fl.value(inst.words[5])))


@handles("OpGroupNonUniformBallotBitCount")
def lower_ballot_bit_count(fl: FunctionLowering, inst) -> None:
    """The bits of the sub-group (Reduce), of sub-group local ids up to this one's (InclusiveScan)
    or below it (ExclusiveScan)."""
    from .builtins import _scalar
    b = fl.builder
    operation = inst.words[4]
    if operation not in (REDUCE, INCLUSIVE, EXCLUSIVE):
        raise NotSupportedError(f"{inst.opname} with group operation {operation} (word {inst.offset})")
    if operation == REDUCE:
        n = _scalar(fl, "SubgroupSize")
    else:
        n = _scalar(fl, "SubgroupLocalInvocationId")
        if operation == INCLUSIVE:
            n = b.add(n, ir.Constant(I64, 1))
    bits = b.and_(_ballot_bits(fl, inst.words[5]), _low_bits(b, n))
    count = b.call(intrinsic(fl.ml.llvm, "llvm.ctpop", I128, [I128]), [bits])
    fl.set(inst.result_id, _to(b, count, fl.ml.types[inst.words[1]].llvm))


@handles("OpGroupNonUniformBallotFindLSB", "OpGroupNonUniformBallotFindMSB")
def lower_ballot_find(fl: FunctionLowering, inst) -> None:
    """The lowest (highest) set bit's index; undefined for an empty ballot (gives 128, -1)."""
    b = fl.builder
    bits = _ballot_bits(fl, inst.words[4])
    if inst.opname.endswith("LSB"):
        index = b.call(intrinsic(fl.ml.llvm, "llvm.cttz", I128, [I128, I1]), [bits, ir.Constant(I1, 0)])
    else:
        zeros = b.call(intrinsic(fl.ml.llvm, "llvm.ctlz", I128, [I128, I1]), [bits, ir.Constant(I1, 0)])
        index = b.sub(ir.Constant(I128, 127), zeros)
    fl.set(inst.result_id, _to(b, index, fl.ml.types[inst.words[1]].llvm))
