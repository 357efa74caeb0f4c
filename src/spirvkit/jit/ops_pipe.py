"""Pipes (OpenCL C 2.0 §6.13.16; SPIR-V OpReadPipe ... OpGroupCommitWritePipe).

A pipe value is the address of its descriptor (jit.abi.PIPE), which runtime/pipes.py owns and
keeps across launches. The descriptor is shared by every work-group of a launch, and the groups
run on several threads: every change of its counts happens in small routines written here in
LLVM IR, under the descriptor's spin lock (the critical sections are a few instructions; the
packet copies of a reservation run outside the lock, on slots that belong to the reservation).

Semantics: a read from a pipe with no readable packet and a write to a full pipe fail with a
negative result; a reservation of n packets is all or nothing (n > 0, or it fails); packets
become readable when their reservation is committed, in the order they were reserved; reading
frees slots when the read reservation is committed. The group forms (OpGroupReserve*,
OpGroupCommit*) are collectives (collectives.py): the group's part reserves or commits once for
the work-group or for each sub-group, with the first waiting work-item's operands.

The packet size operand of each instruction says the size the kernel expects; the runtime
checks the pipe argument's packet size against it when the kernel is launched (see
packet_sizes), so the lowered code copies a constant number of bytes.
"""

from __future__ import annotations

from llvmlite import ir

from ..spirv.names import OP
from .abi import INVALID_RESERVE_ID, PIPE
from .function import I1, I8, I32, I64, PTR, FunctionLowering, handles
from .loops import CountedLoop

GROUP_OPS = ("OpGroupReserveReadPipePackets", "OpGroupReserveWritePipePackets", "OpGroupCommitReadPipe",
             "OpGroupCommitWritePipe")
INVALID = ir.Constant(I64, INVALID_RESERVE_ID)

# Where the pipe operand is, by opcode name (the packet size and alignment are always the last
# two operands).
_PIPE_OPERAND = {
    "OpReadPipe": 3, "OpWritePipe": 3, "OpReservedReadPipe": 3, "OpReservedWritePipe": 3,
    "OpReserveReadPipePackets": 3, "OpReserveWritePipePackets": 3, "OpCommitReadPipe": 1,
    "OpCommitWritePipe": 1, "OpGetNumPipePackets": 3, "OpGetMaxPipePackets": 3,
    "OpGroupReserveReadPipePackets": 4, "OpGroupReserveWritePipePackets": 4, "OpGroupCommitReadPipe": 2,
    "OpGroupCommitWritePipe": 2,
}


# ----- the routines, in LLVM IR ---------------------------------------------------------------
def _word(b: ir.IRBuilder, pipe, name: str) -> ir.Value:
    return b.gep(pipe, [ir.Constant(I64, PIPE[name])], source_etype=I64)


def _load(b, pipe, name):
    return b.load(_word(b, pipe, name), typ=I64)


def _routine(ml, name: str, ret: ir.Type, params: list):
    """(function, builder at its entry, created): the module's routine ``name``."""
    full = f"spirvkit.pipe_{name}"
    existing = ml.llvm.globals.get(full)
    if existing is not None:
        return existing, None, False
    fn = ir.Function(ml.llvm, ir.FunctionType(ret, params), name=full)
    fn.linkage = "internal"
    return fn, ir.IRBuilder(fn.append_basic_block("entry")), True


def _lock(b: ir.IRBuilder, fn: ir.Function, pipe) -> None:
    spin = fn.append_basic_block("lock.spin")
    held = fn.append_basic_block("lock.held")
    b.branch(spin)
    b.position_at_end(spin)
    old = b.cmpxchg(_word(b, pipe, "lock"), ir.Constant(I64, 0), ir.Constant(I64, 1), "acquire", "monotonic")
    b.cbranch(b.extract_value(old, 1), held, spin)
    b.position_at_end(held)


def _unlock(b: ir.IRBuilder, pipe) -> None:
    # (llvmlite's store_atomic needs typed pointers: an exchange does the release store.)
    b.atomic_rmw("xchg", _word(b, pipe, "lock"), ir.Constant(I64, 0), "release")


def reserve_fn(ml) -> ir.Function:
    """reserve(pipe, reading, n) -> reserve id: n packets to read (readable ones) or to write
    (free slots), all or none."""
    fn, b, new = _routine(ml, "reserve", I64, [PTR, I1, I64])
    if not new:
        return fn
    pipe, reading, n = fn.args
    _lock(b, fn, pipe)
    cap = _load(b, pipe, "capacity")
    read_done, read_reserved = _load(b, pipe, "read_done"), _load(b, pipe, "read_reserved")
    write_done, write_reserved = _load(b, pipe, "write_done"), _load(b, pipe, "write_reserved")
    room = b.select(reading, b.sub(write_done, read_reserved), b.sub(cap, b.sub(write_reserved, read_done)))
    ok = b.and_(b.icmp_unsigned("!=", n, ir.Constant(I64, 0)), b.icmp_unsigned("<=", n, room))
    start = b.select(reading, read_reserved, write_reserved)
    with b.if_then(ok):
        with b.if_else(reading) as (then, otherwise):
            with then:
                b.store(b.add(read_reserved, n), _word(b, pipe, "read_reserved"))
            with otherwise:
                b.store(b.add(write_reserved, n), _word(b, pipe, "write_reserved"))
    _unlock(b, pipe)
    rid = b.or_(b.shl(b.urem(start, b.select(b.icmp_unsigned("==", cap, ir.Constant(I64, 0)), ir.Constant(I64, 1),
                                                  cap)), ir.Constant(I64, 32)), n)
    b.ret(b.select(ok, rid, INVALID))
    return fn


def commit_fn(ml) -> ir.Function:
    """commit(pipe, reading, rid): marks the reservation's slots done, then advances the done
    count over the marked slots in reservation order (an invalid id commits nothing)."""
    fn, b, new = _routine(ml, "commit", ir.VoidType(), [PTR, I1, I64])
    if not new:
        return fn
    pipe, reading, rid = fn.args
    valid = fn.append_basic_block("valid")
    out = fn.append_basic_block("out")
    b.cbranch(b.icmp_unsigned("==", rid, INVALID), out, valid)
    b.position_at_end(valid)
    _lock(b, fn, pipe)
    cap = _load(b, pipe, "capacity")
    marks = b.load(_word(b, pipe, "committed"), typ=PTR)
    first = b.lshr(rid, ir.Constant(I64, 32))
    count = b.and_(rid, ir.Constant(I64, 0xFFFFFFFF))
    with CountedLoop(b, fn, count, "mark") as k:
        b.store(ir.Constant(I8, 1), b.gep(marks, [b.urem(b.add(first, k), cap)], source_etype=I8))
    done_word = b.select(reading, _word(b, pipe, "read_done"), _word(b, pipe, "write_done"))
    limit = b.select(reading, _load(b, pipe, "read_reserved"), _load(b, pipe, "write_reserved"))
    pre = b.block
    scan = fn.append_basic_block("advance")
    step = fn.append_basic_block("advance.step")
    stop = fn.append_basic_block("advance.stop")
    start = b.load(done_word, typ=I64)
    b.branch(scan)
    b.position_at_end(scan)
    done = b.phi(I64)
    done.add_incoming(start, pre)
    mark = b.gep(marks, [b.urem(done, cap)], source_etype=I8)
    more = b.icmp_unsigned("<", done, limit)
    # (A slot at the limit is never read: the limit test comes first.)
    check = fn.append_basic_block("advance.check")
    b.cbranch(more, check, stop)
    b.position_at_end(check)
    b.cbranch(b.icmp_unsigned("!=", b.load(mark, typ=I8), ir.Constant(I8, 0)), step, stop)
    b.position_at_end(step)
    b.store(ir.Constant(I8, 0), mark)
    done.add_incoming(b.add(done, ir.Constant(I64, 1)), step)
    b.branch(scan)
    b.position_at_end(stop)
    b.store(done, done_word)
    _unlock(b, pipe)
    b.branch(out)
    b.position_at_end(out)
    b.ret_void()
    return fn


def slot_fn(ml) -> ir.Function:
    """slot(pipe, rid, index) -> the address of packet ``index`` of a reservation (null for an
    invalid id or an index outside it). No lock: the slots belong to the reservation."""
    fn, b, new = _routine(ml, "slot", PTR, [PTR, I64, I64])
    if not new:
        return fn
    pipe, rid, index = fn.args
    count = b.and_(rid, ir.Constant(I64, 0xFFFFFFFF))
    ok = b.and_(b.icmp_unsigned("!=", rid, INVALID), b.icmp_unsigned("<", index, count))
    cap = _load(b, pipe, "capacity")
    slot = b.urem(b.add(b.lshr(rid, ir.Constant(I64, 32)), index), b.select(ok, cap, ir.Constant(I64, 1)))
    data = b.load(_word(b, pipe, "data"), typ=PTR)
    addr = b.gep(data, [b.mul(slot, _load(b, pipe, "packet_size"))], source_etype=I8)
    b.ret(b.select(ok, addr, ir.Constant(PTR, None)))
    return fn


def transfer_fn(ml) -> ir.Function:
    """transfer(pipe, reading, mem, size) -> 0, or -1 when the pipe is empty (reading) or full:
    one packet, reserved, copied and committed."""
    fn, b, new = _routine(ml, "transfer", I32, [PTR, I1, PTR, I64])
    if not new:
        return fn
    pipe, reading, mem, size = fn.args
    rid = b.call(reserve_fn(ml), [pipe, reading, ir.Constant(I64, 1)])
    ok = b.icmp_unsigned("!=", rid, INVALID)
    with b.if_then(ok):
        slot = b.call(slot_fn(ml), [pipe, rid, ir.Constant(I64, 0)])
        _copy(ml, b, b.select(reading, mem, slot), b.select(reading, slot, mem), size)
        b.call(commit_fn(ml), [pipe, reading, rid])
    b.ret(b.select(ok, ir.Constant(I32, 0), ir.Constant(I32, -1)))
    return fn


def num_packets_fn(ml) -> ir.Function:
    fn, b, new = _routine(ml, "num_packets", I64, [PTR])
    if not new:
        return fn
    (pipe,) = fn.args
    _lock(b, fn, pipe)
    n = b.sub(_load(b, pipe, "write_done"), _load(b, pipe, "read_reserved"))
    _unlock(b, pipe)
    b.ret(n)
    return fn


def _copy(ml, b: ir.IRBuilder, dst, src, size) -> None:
    memcpy = ml.llvm.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64])
    b.call(memcpy, [dst, src, size, ir.Constant(I1, 0)])


# ----- the instructions -----------------------------------------------------------------------
def _packet_size(fl: FunctionLowering, inst) -> int:
    return fl.ml.constants.value(inst.words[-2])


def _result(fl: FunctionLowering, inst, value: ir.Value) -> None:
    t = fl.types[inst.words[1]].llvm
    if value.type != t:
        value = fl.builder.trunc(value, t) if value.type.width > t.width else fl.builder.sext(value, t)
    fl.set(inst.result_id, value)


def _count(fl: FunctionLowering, value_id: int) -> ir.Value:
    v = fl.value(value_id)
    return fl.builder.zext(v, I64) if v.type.width < 64 else v


def _checked_memory(fl: FunctionLowering, inst, pointer_id: int, reading: bool, emit) -> ir.Value:
    """``emit(address)`` -> i32 result, for a packet at the pointer operand, checked (a read
    from the pipe stores a packet there; a write loads one); -1 on the faulted path."""
    size = _packet_size(fl, inst)
    ptr = fl.pointer(pointer_id)
    if not fl.checked:
        return emit(ptr.addr)
    fl.check_access(ptr, size, "store" if reading else "load")
    return fl.join_access(emit(ptr.addr), ir.Constant(I32, -1))


@handles("OpReadPipe", "OpWritePipe")
def lower_read_write_pipe(fl: FunctionLowering, inst) -> None:
    reading = inst.opname == "OpReadPipe"
    pipe = fl.value(inst.words[3])
    size = ir.Constant(I64, _packet_size(fl, inst))
    result = _checked_memory(fl, inst, inst.words[4], reading, lambda addr: fl.builder.call(
        transfer_fn(fl.ml), [pipe, ir.Constant(I1, reading), addr, size]))
    _result(fl, inst, result)


@handles("OpReservedReadPipe", "OpReservedWritePipe")
def lower_reserved_read_write(fl: FunctionLowering, inst) -> None:
    reading = inst.opname == "OpReservedReadPipe"
    w = inst.words
    pipe, rid, index = fl.value(w[3]), fl.value(w[4]), _count(fl, w[5])
    size = ir.Constant(I64, _packet_size(fl, inst))

    def emit(addr):
        b = fl.builder
        slot = b.call(slot_fn(fl.ml), [pipe, rid, index])
        ok = b.icmp_unsigned("!=", slot, ir.Constant(PTR, None))
        with b.if_then(ok):
            _copy(fl.ml, b, addr if reading else slot, slot if reading else addr, size)
        return b.select(ok, ir.Constant(I32, 0), ir.Constant(I32, -1))

    _result(fl, inst, _checked_memory(fl, inst, w[6], reading, emit))


@handles("OpReserveReadPipePackets", "OpReserveWritePipePackets")
def lower_reserve(fl: FunctionLowering, inst) -> None:
    reading = inst.opname == "OpReserveReadPipePackets"
    rid = fl.builder.call(reserve_fn(fl.ml), [fl.value(inst.words[3]), ir.Constant(I1, reading),
                                              _count(fl, inst.words[4])])
    fl.set(inst.result_id, rid)


@handles("OpCommitReadPipe", "OpCommitWritePipe")
def lower_commit(fl: FunctionLowering, inst) -> None:
    reading = inst.opname == "OpCommitReadPipe"
    fl.builder.call(commit_fn(fl.ml), [fl.value(inst.words[1]), ir.Constant(I1, reading), fl.value(inst.words[2])])


@handles("OpIsValidReserveId")
def lower_is_valid(fl: FunctionLowering, inst) -> None:
    fl.set(inst.result_id, fl.builder.icmp_unsigned("!=", fl.value(inst.words[3]), INVALID))


@handles("OpGetNumPipePackets", "OpGetMaxPipePackets")
def lower_pipe_query(fl: FunctionLowering, inst) -> None:
    pipe = fl.value(inst.words[3])
    if inst.opname == "OpGetNumPipePackets":
        n = fl.builder.call(num_packets_fn(fl.ml), [pipe])
    else:
        n = _load(fl.builder, pipe, "capacity")
    _result(fl, inst, n)


def group_operands(inst) -> list[int]:
    """What a work-item contributes to a group reservation or commit: [pipe, count or id]."""
    w = inst.words
    return [w[4], w[5]] if "Reserve" in inst.opname else [w[2], w[3]]


def lower_group(ml, b: ir.IRBuilder, fn: ir.Function, inst, in_slots, lo, hi, items, waiting, operand,
                result) -> None:
    """The group's part of a group reservation or commit over the work-items [lo, hi) of a
    work-group or sub-group: done once, with the first waiting work-item's operands (the spec
    requires the same in all of them); a reservation's id goes to every waiting work-item."""
    from .collectives import first_waiting

    first, found = first_waiting(b, fn, b.sub(hi, lo), lambda j: waiting(b.add(lo, j)))
    first = b.add(lo, first)
    reading = ir.Constant(I1, "Read" in inst.opname)
    if "Reserve" in inst.opname:
        rid = b.alloca(I64)   # (in the group function: once per pass, small)
        b.store(INVALID, rid)
        with b.if_then(found):
            count = operand(in_slots[1], first)
            count = b.zext(count, I64) if count.type.width < 64 else count
            b.store(b.call(reserve_fn(ml), [operand(in_slots[0], first), reading, count]), rid)
        value = b.load(rid, typ=I64)
        with items("reserved") as i:
            with b.if_then(waiting(i)):
                result(value, i)
        return
    with b.if_then(found):
        b.call(commit_fn(ml), [operand(in_slots[0], first), reading, operand(in_slots[1], first)])


# ----- what the kernel expects of a pipe argument ---------------------------------------------
def packet_sizes(module, fn) -> dict[int, set[tuple[int, int]]]:
    """Parameter index -> the (packet size, alignment) pairs of the pipe instructions that use
    that parameter of ``fn`` (through private variables, copies and calls)."""
    from ..spirv.grammar import load_grammar

    grammar = load_grammar()
    ops = {grammar.by_name[name].opcode: (name, at) for name, at in _PIPE_OPERAND.items()}
    functions = {f.id: f for f in module.functions}
    memo: dict[tuple[int, int], set] = {}

    def constant(value_id):
        inst = module.definition(value_id)
        return inst.words[3] if inst is not None and inst.opcode == OP.Constant else 0

    def uses(fn_id: int, param: int) -> set:
        key = (fn_id, param)
        if key in memo:
            return memo[key]
        memo[key] = found = set()
        f = functions.get(fn_id)
        if f is None or not f.blocks or param >= len(f.parameters):
            return found
        aliases, variables = {f.parameters[param].words[2]}, set()
        changed = True
        while changed:
            changed = False
            for block in f.blocks:
                for inst in block.instructions:
                    w = inst.words
                    if inst.opcode == OP.Store and w[2] in aliases and w[1] not in variables:
                        variables.add(w[1])
                        changed = True
                    elif inst.opcode in (OP.Load, OP.CopyObject) and w[3] in (variables if inst.opcode == OP.Load else aliases) \
                            and w[2] not in aliases:
                        aliases.add(w[2])
                        changed = True
        for block in f.blocks:
            for inst in block.instructions:
                w = inst.words
                if inst.opcode in ops:
                    if w[ops[inst.opcode][1]] in aliases:
                        found.add((constant(w[-2]), constant(w[-1])))
                elif inst.opcode == OP.FunctionCall:
                    for k, arg in enumerate(w[4:]):
                        if arg in aliases:
                            found |= uses(w[3], k)
        return found

    return {k: uses(fn.id, k) for k in range(len(fn.parameters))}

