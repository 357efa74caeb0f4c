"""Work-group (and sub-group) collectives: OpGroupAll/Any/Broadcast and the OpGroup* arithmetic
with Reduce, InclusiveScan and ExclusiveScan.

A collective needs every work-item's operand before any work-item can have its result, so it
is a synchronisation point like a barrier: in a kernel run region by region, the region ends at
the collective, each work-item leaving its operand in a slot of its record; between the passes
the group function combines the operands in local-id order and writes each work-item's result
into the record slot of the instruction's result; the next region starts right after the
collective and reads it like any value that crosses a barrier.

The runtime has one sub-group per work-group, so Subgroup scope is the same computation.
Collectives in functions the kernel calls (which run as coroutines) are not supported yet.
"""

from __future__ import annotations

import functools

from llvmlite import ir

from ..errors import NotSupportedError
from .function import I1, I8, I32, I64, FunctionLowering, handles
from .intrinsics import intrinsic

ARITHMETIC = ("OpGroupIAdd", "OpGroupFAdd", "OpGroupFMin", "OpGroupUMin", "OpGroupSMin",
              "OpGroupFMax", "OpGroupUMax", "OpGroupSMax")
COLLECTIVES = ("OpGroupAll", "OpGroupAny", "OpGroupBroadcast") + ARITHMETIC
OP_CONTROL_BARRIER = 224
REDUCE, INCLUSIVE, EXCLUSIVE = 0, 1, 2


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


@handles(*COLLECTIVES)
def lower_collective_outside_regions(fl: FunctionLowering, inst) -> None:
    raise NotSupportedError(f"{inst.opname} in a function the kernel calls (word {inst.offset}): "
                            "work-group collectives are supported in the kernel function itself")


def operands(inst) -> list[int]:
    """The value operands a work-item contributes: [predicate] / [value, local id] / [X]."""
    w = inst.words
    if inst.opname in ARITHMETIC:
        return [w[5]]
    if inst.opname == "OpGroupBroadcast":
        return [w[4], w[5]]
    return [w[4]]


def _scope_ok(fl: FunctionLowering, inst) -> None:
    scope = fl.ml.constants.value(inst.words[3]) if fl.ml.constants.is_constant(inst.words[3]) else None
    if scope not in (2, 3):   # Workgroup, Subgroup
        raise NotSupportedError(f"{inst.opname} with execution scope {scope} (word {inst.offset}): only "
                                "Workgroup and Subgroup scope")
    if inst.opname in ARITHMETIC and inst.words[4] not in (REDUCE, INCLUSIVE, EXCLUSIVE):
        raise NotSupportedError(f"{inst.opname} with group operation {inst.words[4]} (word {inst.offset})")


def leave_operands(fl: FunctionLowering, inst, slots: list, state: int) -> None:
    """In a region: store this work-item's operands and end the region at the collective."""
    _scope_ok(fl, inst)
    b = fl.builder
    for value_id, slot in zip(operands(inst), slots):
        value = fl.value(value_id)
        if value.type == I1:
            value = b.zext(value, I8)
        fl.tag(b.store(value, fl.region.address(b, slot)))
    b.ret(ir.Constant(I32, state))


class GroupData:
    """Addresses of the per-work-item arrays of the records, for the group function."""

    def __init__(self, b: ir.IRBuilder, records, count):
        self.b, self.records, self.count = b, records, count

    def at(self, slot, i) -> ir.Value:
        b = self.b
        base = b.gep(self.records, [b.mul(ir.Constant(I64, slot.start), self.count)], source_etype=I8)
        return b.gep(base, [b.mul(i, ir.Constant(I64, slot.size))], source_etype=I8)


def combine(ml, b: ir.IRBuilder, opname: str, a, x):
    t = x.type
    if opname == "OpGroupIAdd":
        return b.add(a, x)
    if opname == "OpGroupFAdd":
        return b.fadd(a, x)
    name = {"OpGroupFMin": "llvm.minnum", "OpGroupFMax": "llvm.maxnum", "OpGroupUMin": "llvm.umin",
            "OpGroupSMin": "llvm.smin", "OpGroupUMax": "llvm.umax", "OpGroupSMax": "llvm.smax"}[opname]
    return b.call(intrinsic(ml.llvm, name, t, [t, t]), [a, x])


def identity(opname: str, t: ir.Type, exclusive: bool):
    """The operation's identity: the exclusive scan's first result, and the start of the rest
    (-0.0 for a float sum, so a sum of negative zeros stays -0.0)."""
    if isinstance(t, ir.IntType):
        ones = (1 << t.width) - 1
        value = {"OpGroupIAdd": 0, "OpGroupUMin": ones, "OpGroupSMin": ones >> 1, "OpGroupUMax": 0,
                 "OpGroupSMax": 1 << (t.width - 1)}[opname]
        return ir.Constant(t, value)
    if opname == "OpGroupFAdd":
        return ir.Constant(t, 0.0 if exclusive else -0.0)
    return ir.Constant(t, float("inf") if opname == "OpGroupFMin" else float("-inf"))


def compute(kb, b: ir.IRBuilder, fn: ir.Function, inst, in_slots: list, out_slot, states, records, count,
            sizes, state: int) -> None:
    """The group's part: combine the operands of the work-items waiting at the collective
    (state ``state``), in local linear id order, into each one's result slot."""
    from .kernel import _counted_loop

    ml = kb.ml
    data = GroupData(b, records, count)
    opname = inst.opname

    def waiting(i):
        return b.icmp_unsigned("==", b.load(b.gep(states, [i], source_etype=I32), typ=I32), ir.Constant(I32, state))

    def operand(slot, i):
        return b.load(data.at(slot, i), typ=slot.llvm)

    def result(value, i):
        if out_slot is not None:
            if out_slot.llvm == I8 and value.type == I1:
                value = b.zext(value, I8)
            b.store(value, data.at(out_slot, i))

    if opname == "OpGroupBroadcast":
        # The source work-item, from the first waiting work-item's local id operand (the same
        # in all of them).
        first = _first_waiting(b, fn, count, waiting)
        local = operand(in_slots[1], first)
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
        inside = b.icmp_unsigned("<", index, count)
        index = b.select(inside, index, ir.Constant(I64, 0))   # out of range: undefined; stay in bounds
        value = operand(in_slots[0], index)
        with _counted_loop(b, fn, count, "bcast") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return

    if opname in ("OpGroupAll", "OpGroupAny"):
        acc = b.alloca(I8)
        b.store(ir.Constant(I8, 1 if opname == "OpGroupAll" else 0), acc)
        with _counted_loop(b, fn, count, "vote") as i:
            with b.if_then(waiting(i)):
                p = operand(in_slots[0], i)
                old = b.load(acc, typ=I8)
                b.store(b.and_(old, p) if opname == "OpGroupAll" else b.or_(old, p), acc)
        value = b.icmp_unsigned("!=", b.load(acc, typ=I8), ir.Constant(I8, 0))
        with _counted_loop(b, fn, count, "votes") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return

    operation = inst.words[4]
    t = in_slots[0].llvm
    acc = b.alloca(t)
    b.store(identity(opname, t, operation == EXCLUSIVE), acc)
    with _counted_loop(b, fn, count, "scan") as i:
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
        with _counted_loop(b, fn, count, "total") as i:
            with b.if_then(waiting(i)):
                result(total, i)


def _first_waiting(b: ir.IRBuilder, fn: ir.Function, count, waiting) -> ir.Value:
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
    return b.select(hit, i, ir.Constant(I64, 0))
