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
from .function import I1, I8, I32, I64, PTR, FunctionLowering, Ptr, handles
from .intrinsics import intrinsic

ARITHMETIC = ("OpGroupIAdd", "OpGroupFAdd", "OpGroupFMin", "OpGroupUMin", "OpGroupSMin",
              "OpGroupFMax", "OpGroupUMax", "OpGroupSMax")
COLLECTIVES = ("OpGroupAll", "OpGroupAny", "OpGroupBroadcast", "OpGroupAsyncCopy") + ARITHMETIC
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


@handles("OpGroupWaitEvents")
def lower_wait_events(fl: FunctionLowering, inst) -> None:
    # An async copy is complete when the group passes it (see compute), so there is nothing
    # to wait for.
    return None


def operands(inst) -> list[int]:
    """The value operands a work-item contributes: [predicate] / [value, local id] / [X] /
    [destination, source, count, stride]."""
    w = inst.words
    if inst.opname in ARITHMETIC:
        return [w[5]]
    if inst.opname == "OpGroupBroadcast":
        return [w[4], w[5]]
    if inst.opname == "OpGroupAsyncCopy":
        return [w[4], w[5], w[6], w[7]]
    return [w[4]]


def _scope_ok(fl: FunctionLowering, inst) -> None:
    scope = fl.ml.constants.value(inst.words[3]) if fl.ml.constants.is_constant(inst.words[3]) else None
    if scope not in (2, 3):   # Workgroup, Subgroup
        raise NotSupportedError(f"{inst.opname} with execution scope {scope} (word {inst.offset}): only "
                                "Workgroup and Subgroup scope")
    if inst.opname in ARITHMETIC and inst.words[4] not in (REDUCE, INCLUSIVE, EXCLUSIVE):
        raise NotSupportedError(f"{inst.opname} with group operation {inst.words[4]} (word {inst.offset})")


def leave_operands(fl: FunctionLowering, inst, slots: list, state: int) -> None:
    """In a region: store this work-item's operands (a pointer as its address, base and end
    when checking) and end the region at the collective."""
    _scope_ok(fl, inst)
    b = fl.builder
    for value_id, parts in zip(operands(inst), slots):
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


def compute(kb, b: ir.IRBuilder, fn: ir.Function, ctx, ts, inst, in_slots: list, out_slot, states, records,
            count, sizes, state: int) -> None:
    """The group's part: combine the operands of the work-items waiting at the collective
    (state ``state``), in local linear id order, into each one's result slot."""
    from .kernel import _counted_loop

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
        _async_copy(ml, kb.spv_fn, b, fn, ctx, ts, inst, in_slots, out_slot, data, waiting, count)
        return

    if opname == "OpGroupBroadcast":
        # The source work-item, from the first waiting work-item's local id operand (the same
        # in all of them).
        first, _ = first_waiting(b, fn, count, waiting)
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
    t = in_slots[0][0].llvm
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
    """OpGroupAsyncCopy, done at once by the group (the operands are the same in every
    work-item: the first waiting one's are used). The stride applies to the side that is not
    Workgroup memory. Checked builds test both ranges first; a range outside its buffer raises
    the fault flag (report builds record where) and copies nothing."""
    from .kernel import _counted_loop, _word
    from .abi import THREAD

    first, _ = first_waiting(b, fn, count, waiting)
    dst_parts, src_parts = ([b.load(data.at(slot, first), typ=slot.llvm) for slot in parts] for parts in in_slots[:2])
    n = b.load(data.at(in_slots[2][0], first), typ=in_slots[2][0].llvm)
    stride = b.load(data.at(in_slots[3][0], first), typ=in_slots[3][0].llvm)
    n = b.zext(n, I64) if n.type.width < 64 else n
    stride = b.zext(stride, I64) if stride.type.width < 64 else stride
    dst_type = ml.types[ml.module.definition(inst.words[4]).words[1]]
    esize = ml.types.size(dst_type.elem)
    dst_strided = dst_type.storage != "Workgroup"
    elem_bytes = ir.Constant(I64, esize)
    if ml.checked:
        # Bytes each side spans: count elements, or (count - 1) * stride + 1 on the strided side.
        span_strided = b.select(b.icmp_unsigned("==", n, ir.Constant(I64, 0)), ir.Constant(I64, 0),
                                b.mul(b.add(b.mul(b.sub(n, ir.Constant(I64, 1)), stride), ir.Constant(I64, 1)),
                                      elem_bytes))
        span_plain = b.mul(n, elem_bytes)
        ok = ir.Constant(I1, 1)
        for parts, span, kind in ((dst_parts, span_strided if dst_strided else span_plain, "write"),
                                  (src_parts, span_plain if dst_strided else span_strided, "read")):
            addr, base, end = (b.ptrtoint(p, I64) for p in parts)
            inside = b.and_(b.icmp_unsigned(">=", addr, base),
                            b.icmp_unsigned("<=", span, b.sub(end, addr)))
            inside = b.or_(inside, b.icmp_unsigned("==", n, ir.Constant(I64, 0)))
            with b.if_then(b.not_(inside), likely=False):
                slot = _word(b, ts, THREAD["fault_flag"])
                b.store(b.or_(b.load(slot, typ=I64), ir.Constant(I64, 1)), slot)
                if ml.report_faults:
                    zero = ir.Constant(I64, 0)
                    b.call(ml.runtime("fault"), [ctx, ts, zero, zero, zero,
                                                 ir.Constant(I64, ml.site(inst, kind, spv_fn)), addr, base, end, span])
            ok = b.and_(ok, inside)
        go = ok
    else:
        go = ir.Constant(I1, 1)
    with b.if_then(go):
        dst, src = dst_parts[0], src_parts[0]
        with _counted_loop(b, fn, n, "acopy") as i:
            far = b.mul(i, stride)
            d = b.gep(dst, [b.mul(far if dst_strided else i, elem_bytes)], source_etype=I8)
            s = b.gep(src, [b.mul(i if dst_strided else far, elem_bytes)], source_etype=I8)
            b.call(ml.llvm.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64]),
                   [d, s, elem_bytes, ir.Constant(I1, 0)])
    if out_slot is not None:    # the event: nothing to wait for
        with _counted_loop(b, fn, count, "events") as i:
            with b.if_then(waiting(i)):
                b.store(ir.Constant(out_slot.llvm, None), data.at(out_slot, i))
