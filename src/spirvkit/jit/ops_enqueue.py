"""Device-side enqueue (OpenCL C 2.0 §6.13.17; SPIR-V 3.32.22, OpEnqueueKernel ... OpBuildNDRange).

A kernel does not start its children itself: each enqueue writes a *record* of the command (the
Invoke function, flags, NDRange, wait list, local-memory sizes and a copy of the block literal)
into the launch's record arena, reserved with one atomic add, and returns at once. The runtime
reads the records once the launch has finished and runs the children from there
(runtime/device_queue.py), which satisfies every flag (a child may start after its parent
finishes whatever the flag says). No work-item takes the GIL or a lock: the arena and the event
slots are handed out by atomic counters in the queue descriptor (jit.abi.DEVICE_QUEUE), which
the runtime fills before the launch.

Events (clk_event_t) are the addresses of slots in the descriptor's event table (jit.abi.EVENT);
CLK_NULL_EVENT is all ones (clang + llvm-spirv) or null (cc's OpConstantNull): neither is a slot.
Retain, release, create_user_event, set_user_event_status and capture_event_profiling_info change
a slot with atomic operations; the runtime completes kernel and marker events, frees the slots
nobody holds and writes the profiling values (a capture of a command already complete writes them
itself, from the slot).

The routines here return OpenCL C's CLK_* codes (the values of clang's opencl-c-base.h): the
specific code for each failure, as a program compiled with -g would see.

llvm-spirv passes the ND Range operand as a pointer to the ndrange_t struct and each Local Size
as a pointer to a size_t, where the SPIR-V specification says the values themselves: both are
accepted.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError, SpirvError
from ..spirv.names import OP
from .abi import (CL_QUEUED, CL_SUBMITTED, CONTEXT, DEVICE_QUEUE, EVENT, EVENT_KERNEL, EVENT_MARKER, EVENT_USER,
                  PICKED_GROUP_ITEMS, PREFERRED_WORK_GROUP_SIZE_MULTIPLE, RECORD, RECORD_END, RECORD_KERNEL,
                  RECORD_MARKER)
from .function import I1, I8, I32, I64, PTR, FunctionLowering, Ptr, handles
from .loops import CountedLoop

# OpenCL C's enqueue codes (opencl-c-base.h).
CLK_SUCCESS = 0
CLK_ENQUEUE_FAILURE = -101
CLK_INVALID_QUEUE = -102
CLK_INVALID_NDRANGE = -160
CLK_INVALID_EVENT_WAIT_LIST = -57
CLK_DEVICE_QUEUE_FULL = -161
CLK_INVALID_ARG_SIZE = -51
CLK_EVENT_ALLOCATION_FAILURE = -100
CLK_OUT_OF_RESOURCES = -5
CLK_PROFILING_COMMAND_EXEC_TIME = 1
NULL_EVENT = (1 << 64) - 1        # CLK_NULL_EVENT: (clk_event_t)SIZE_MAX
EVENT_BYTES = EVENT["_words"] * 8


def invoke_kernel(module, fn_id: int):
    """The kernel entry point an Invoke function is launched as: the entry point itself, or the
    kernel whose entry wrapper only calls it (llvm-spirv makes the block's ``_kernel`` function
    an entry point and wraps it). None: no kernel runs it."""
    from .kernel import kernel_body

    for entry in module.entry_points:
        if entry.execution_model == "Kernel" and fn_id in (entry.function, kernel_body(module, entry.function)):
            return entry
    return None


def _invoke(fl: FunctionLowering, inst, fn_id: int):
    entry = invoke_kernel(fl.ml.module, fn_id)
    if entry is None:
        name = fl.ml.module.name(fn_id) or f"%{fn_id}"
        raise NotSupportedError(f"{inst.opname} (word {inst.offset}) of function {name}, which is no kernel entry "
                                f"point (spirvkit launches a block as the kernel that wraps its invoke function)")
    return entry


# ----- words of the descriptor, an event, a record ---------------------------------------------
def _at(b: ir.IRBuilder, base: ir.Value, layout: dict, name: str, extra: ir.Value | int = 0) -> ir.Value:
    at = ir.Constant(I64, layout[name])
    index = ir.Constant(I64, layout[name] + extra) if isinstance(extra, int) else b.add(at, extra)
    return b.gep(base, [index], source_etype=I64)


def _load(b, base, layout, name, extra=0):
    return b.load(_at(b, base, layout, name, extra), typ=I64)


def _queue(b: ir.IRBuilder, ctx: ir.Value) -> ir.Value:
    """The launch's device queue descriptor (null: none)."""
    return b.load(b.gep(ctx, [ir.Constant(I64, CONTEXT["device_queue"])], source_etype=I64), typ=PTR)


def _routine(ml, name: str, ret: ir.Type, params: list):
    full = f"spirvkit.enqueue_{name}"
    existing = ml.llvm.globals.get(full)
    if existing is not None:
        return existing, None
    fn = ir.Function(ml.llvm, ir.FunctionType(ret, params), name=full)
    fn.linkage = "internal"
    return fn, ir.IRBuilder(fn.append_basic_block("entry"))


def event_slot_fn(ml) -> ir.Function:
    """event_slot(ctx, handle) -> the event's slot, or null unless ``handle`` is a live event
    of this launch's queue (any other value, CLK_NULL_EVENT included, is not)."""
    fn, b = _routine(ml, "event_slot", PTR, [PTR, PTR])
    if b is None:
        return fn
    ctx, handle = fn.args
    null = ir.Constant(PTR, None)
    q = _queue(b, ctx)
    has_queue = fn.append_basic_block("queue")
    in_table = fn.append_basic_block("in_table")
    out = fn.append_basic_block("out")
    entry = b.block
    b.cbranch(b.icmp_unsigned("==", q, null), out, has_queue)
    b.position_at_end(has_queue)
    base = _load(b, q, DEVICE_QUEUE, "events")
    offset = b.sub(b.ptrtoint(handle, I64), base)
    span = b.mul(_load(b, q, DEVICE_QUEUE, "event_slots"), ir.Constant(I64, EVENT_BYTES))
    inside = b.and_(b.icmp_unsigned("<", offset, span),
                    b.icmp_unsigned("==", b.urem(offset, ir.Constant(I64, EVENT_BYTES)), ir.Constant(I64, 0)))
    b.cbranch(inside, in_table, out)
    b.position_at_end(in_table)
    live = b.load_atomic(_at(b, handle, EVENT, "live"), "monotonic", 8, typ=I64)
    found = b.select(b.icmp_unsigned("!=", live, ir.Constant(I64, 0)), handle, null)
    b.branch(out)
    b.position_at_end(out)
    result = b.phi(PTR)
    result.add_incoming(null, entry)
    result.add_incoming(null, has_queue)
    result.add_incoming(found, in_table)
    b.ret(result)
    return fn


def new_event_fn(ml) -> ir.Function:
    """new_event(ctx, kind, status) -> a new event's slot with one reference, or null when the
    queue has no free slot (CL_DEVICE_MAX_ON_DEVICE_EVENTS) or there is no queue."""
    fn, b = _routine(ml, "new_event", PTR, [PTR, I64, I64])
    if b is None:
        return fn
    ctx, kind, status = fn.args
    null = ir.Constant(PTR, None)
    q = _queue(b, ctx)
    take = fn.append_basic_block("take")
    got = fn.append_basic_block("got")
    none = fn.append_basic_block("none")
    b.cbranch(b.icmp_unsigned("==", q, null), none, take)
    b.position_at_end(take)
    i = b.atomic_rmw("add", _at(b, q, DEVICE_QUEUE, "free_next"), ir.Constant(I64, 1), "monotonic")
    b.cbranch(b.icmp_unsigned("<", i, _load(b, q, DEVICE_QUEUE, "free_count")), got, none)
    b.position_at_end(got)
    free = b.load(_at(b, q, DEVICE_QUEUE, "free_events"), typ=PTR)
    index = b.load(b.gep(free, [i], source_etype=I64), typ=I64)
    events = b.load(_at(b, q, DEVICE_QUEUE, "events"), typ=PTR)
    slot = b.gep(events, [b.mul(index, ir.Constant(I64, EVENT_BYTES))], source_etype=I8)
    for name, value in (("refs", ir.Constant(I64, 1)), ("status", status), ("kind", kind),
                        ("profile", ir.Constant(I64, 0))):
        b.store(value, _at(b, slot, EVENT, name))
    b.atomic_rmw("xchg", _at(b, slot, EVENT, "live"), ir.Constant(I64, 1), "release")
    b.ret(slot)
    b.position_at_end(none)
    b.ret(null)
    return fn


class _Exits:
    """A routine's early returns of an i32 code, merged in one block."""

    def __init__(self, fn: ir.Function, b: ir.IRBuilder):
        self.fn, self.b = fn, b
        self.out = fn.append_basic_block("out")
        self.incoming: list = []

    def unless(self, bad: ir.Value, code: int | ir.Value, before=None) -> None:
        """Returns ``code`` if ``bad``; ``before(builder)`` runs first on that path."""
        b = self.b
        fail = self.fn.append_basic_block("fail")
        go_on = self.fn.append_basic_block("ok")
        b.cbranch(bad, fail, go_on)
        b.position_at_end(fail)
        if before is not None:
            before(b)
        self.incoming.append((ir.Constant(I32, code) if isinstance(code, int) else code, b.block))
        b.branch(self.out)
        b.position_at_end(go_on)

    def finish(self, code: int) -> None:
        b = self.b
        self.incoming.append((ir.Constant(I32, code), b.block))
        b.branch(self.out)
        b.position_at_end(self.out)
        phi = b.phi(I32)
        for value, block in self.incoming:
            phi.add_incoming(value, block)
        b.ret(phi)


def enqueue_fn(ml) -> ir.Function:
    """enqueue(ctx, queue, kind, invoke, flags, ndrange[10], num_events, events, ret, gid[3],
    param, param_size, num_locals, locals) -> CLK_* code: validates the command as
    §6.13.17 lists the failures, then writes its record (and its event) or nothing."""
    fn, b = _routine(ml, "record", I32, [PTR, PTR, I64, I64, I64, PTR, I64, PTR, PTR, PTR, PTR, I64, I64, PTR])
    if b is None:
        return fn
    ctx, queue, kind, invoke, flags, ndr, nevents, events, ret, gid, param, psize, nlocal, locals = fn.args
    null = ir.Constant(PTR, None)
    zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
    exits = _Exits(fn, b)
    is_kernel = b.icmp_unsigned("==", kind, ir.Constant(I64, RECORD_KERNEL))
    # A marker without an event to return is a no-op (SPIR-V OpEnqueueMarker).
    exits.unless(b.and_(b.not_(is_kernel), b.icmp_unsigned("==", ret, null)), CLK_SUCCESS)
    q = _queue(b, ctx)
    exits.unless(b.or_(b.icmp_unsigned("==", q, null), b.icmp_unsigned("!=", queue, q)), CLK_INVALID_QUEUE)
    no_list = b.icmp_unsigned("==", events, null)
    none = b.icmp_unsigned("==", nevents, zero)
    exits.unless(b.or_(b.and_(b.not_(none), no_list), b.and_(none, b.not_(no_list))), CLK_INVALID_EVENT_WAIT_LIST)
    bad_event = b.alloca(I1)
    b.store(ir.Constant(I1, 0), bad_event)
    with CountedLoop(b, fn, nevents, "wait") as k:
        slot = b.call(event_slot_fn(ml), [ctx, b.load(b.gep(events, [k], source_etype=I64), typ=PTR)])
        b.store(b.or_(b.load(bad_event, typ=I1), b.icmp_unsigned("==", slot, null)), bad_event)
    exits.unless(b.load(bad_event, typ=I1), CLK_INVALID_EVENT_WAIT_LIST)

    def word(i):
        return b.load(b.gep(ndr, [ir.Constant(I64, i)], source_etype=I64), typ=I64)

    # Kernels: the flags, the ND-range (dims 1-3, positive global sizes, local sizes all given
    # or none, at most the device's work-group size) and the local-memory sizes.
    exits.unless(b.and_(is_kernel, b.icmp_unsigned(">", flags, ir.Constant(I64, 2))), CLK_ENQUEUE_FAILURE)
    dims = word(0)
    bad = b.icmp_unsigned(">", b.sub(dims, one), ir.Constant(I64, 2))
    local_given = b.icmp_unsigned("!=", word(7), zero)
    items = one
    for d in range(3):
        active = b.icmp_unsigned("<", ir.Constant(I64, d), dims)
        g, lsize = word(4 + d), word(7 + d)
        bad = b.or_(bad, b.and_(active, b.icmp_unsigned("==", g, zero)))
        bad = b.or_(bad, b.and_(b.and_(active, local_given), b.icmp_unsigned("==", lsize, zero)))
        items = b.mul(items, b.select(active, b.select(b.icmp_unsigned("<", lsize, g), lsize, g), one))
    max_items = _load(b, q, DEVICE_QUEUE, "max_work_group_size")
    bad = b.or_(bad, b.and_(local_given, b.icmp_unsigned(">", items, max_items)))
    exits.unless(b.and_(is_kernel, bad), CLK_INVALID_NDRANGE)
    total = b.alloca(I64)
    b.store(zero, total)
    zero_size, too_big = b.alloca(I1), b.alloca(I1)
    b.store(ir.Constant(I1, 0), zero_size)
    b.store(ir.Constant(I1, 0), too_big)
    local_mem = _load(b, q, DEVICE_QUEUE, "local_mem_size")
    with CountedLoop(b, fn, nlocal, "locals") as k:
        size = b.load(b.gep(locals, [k], source_etype=I64), typ=I64)
        b.store(b.or_(b.load(zero_size, typ=I1), b.icmp_unsigned("==", size, zero)), zero_size)
        # (Each size is tested alone first: their sum must not wrap round.)
        b.store(b.or_(b.load(too_big, typ=I1), b.icmp_unsigned(">", size, local_mem)), too_big)
        rounded = b.and_(b.add(size, ir.Constant(I64, 127)), ir.Constant(I64, ~127 & ((1 << 64) - 1)))
        b.store(b.add(b.load(total, typ=I64), rounded), total)
    exits.unless(b.load(zero_size, typ=I1), CLK_INVALID_ARG_SIZE)
    exits.unless(b.or_(b.load(too_big, typ=I1), b.icmp_unsigned(">", b.load(total, typ=I64), local_mem)),
                 CLK_OUT_OF_RESOURCES)

    # The host launch's command budget (runaway recursion), given back if this one fails.
    budget = _at(b, q, DEVICE_QUEUE, "commands_left")

    def give_back(bb):
        bb.atomic_rmw("add", budget, one, "monotonic")

    left = b.atomic_rmw("sub", budget, one, "monotonic")
    exits.unless(b.icmp_signed("<=", left, zero), CLK_OUT_OF_RESOURCES, give_back)
    wants_event = b.icmp_unsigned("!=", ret, null)
    event_kind = b.select(is_kernel, ir.Constant(I64, EVENT_KERNEL), ir.Constant(I64, EVENT_MARKER))
    handle = _maybe(b, fn, wants_event, lambda bb: bb.call(new_event_fn(ml), [ctx, event_kind,
                                                                            ir.Constant(I64, CL_QUEUED)]), null)
    exits.unless(b.and_(wants_event, b.icmp_unsigned("==", handle, null)), CLK_EVENT_ALLOCATION_FAILURE, give_back)

    padded = b.and_(b.add(psize, ir.Constant(I64, 7)), ir.Constant(I64, ~7 & ((1 << 64) - 1)))
    nbytes = b.add(b.mul(b.add(ir.Constant(I64, RECORD["_words"]), b.add(nevents, nlocal)), ir.Constant(I64, 8)),
                   padded)
    old = b.atomic_rmw("add", _at(b, q, DEVICE_QUEUE, "arena_used"), nbytes, "monotonic")
    cap = _load(b, q, DEVICE_QUEUE, "arena_capacity")
    arena = b.load(_at(b, q, DEVICE_QUEUE, "arena"), typ=PTR)

    def full(bb):
        # The first enqueue past the end marks where the records stop; later ones start past
        # the capacity. Its event (if any) goes back: the runtime frees slots not live.
        with bb.if_then(bb.icmp_unsigned("<", old, cap)):
            bb.store(ir.Constant(I64, RECORD_END), bb.gep(arena, [old], source_etype=I8))
        with bb.if_then(bb.icmp_unsigned("!=", handle, null)):
            bb.atomic_rmw("xchg", _at(bb, handle, EVENT, "live"), zero, "release")
        give_back(bb)

    exits.unless(b.icmp_unsigned(">", b.add(old, nbytes), cap), CLK_DEVICE_QUEUE_FULL, full)
    rec = b.gep(arena, [old], source_etype=I8)
    for name, value in (("kind", kind), ("bytes", nbytes), ("invoke", invoke), ("flags", flags),
                        ("num_events", nevents), ("num_locals", nlocal), ("param_size", psize),
                        ("event", b.ptrtoint(handle, I64))):
        b.store(value, _at(b, rec, RECORD, name))
    for d in range(3):
        component = b.load(b.gep(gid, [ir.Constant(I64, d)], source_etype=I64), typ=I64)
        b.store(component, _at(b, rec, RECORD, "enqueuer", d))
    for i in range(10):
        b.store(word(i), _at(b, rec, RECORD, "ndrange", i))
    tail = RECORD["_words"]
    with CountedLoop(b, fn, nevents, "copy_events") as k:
        b.store(b.load(b.gep(events, [k], source_etype=I64), typ=I64), b.gep(rec, [b.add(ir.Constant(I64, tail), k)],
                                                                             source_etype=I64))
    with CountedLoop(b, fn, nlocal, "copy_locals") as k:
        b.store(b.load(b.gep(locals, [k], source_etype=I64), typ=I64),
                b.gep(rec, [b.add(b.add(ir.Constant(I64, tail), nevents), k)], source_etype=I64))
    literal = b.gep(rec, [b.add(b.add(ir.Constant(I64, tail), nevents), nlocal)], source_etype=I64)
    with b.if_then(b.icmp_unsigned("!=", param, null)):
        from .intrinsics import intrinsic

        memcpy = intrinsic(ml.llvm, "llvm.memcpy", ir.VoidType(), [PTR, PTR, I64, I1], overloads=[PTR, PTR, I64])
        b.call(memcpy, [literal, param, psize, ir.Constant(I1, 0)])
    with b.if_then(wants_event):
        b.store(handle, ret)
    exits.finish(CLK_SUCCESS)
    return fn


def _maybe(b: ir.IRBuilder, fn: ir.Function, cond: ir.Value, emit, default: ir.Value) -> ir.Value:
    """``emit(builder)`` if ``cond``, else ``default``."""
    pre = b.block
    then = fn.append_basic_block("maybe")
    after = fn.append_basic_block("maybe_done")
    b.cbranch(cond, then, after)
    b.position_at_end(then)
    value = emit(b)
    last = b.block
    b.branch(after)
    b.position_at_end(after)
    phi = b.phi(value.type)
    phi.add_incoming(default, pre)
    phi.add_incoming(value, last)
    return phi


def event_op_fn(ml, name: str) -> ir.Function:
    """retain(ctx, handle, _), release(ctx, handle, _), set_status(ctx, handle, status),
    capture(ctx, handle, address): on a live event; nothing on any other handle."""
    fn, b = _routine(ml, name, ir.VoidType(), [PTR, PTR, I64])
    if b is None:
        return fn
    ctx, handle, value = fn.args
    slot = b.call(event_slot_fn(ml), [ctx, handle])
    with b.if_then(b.icmp_unsigned("!=", slot, ir.Constant(PTR, None))):
        kind = _load(b, slot, EVENT, "kind")
        if name == "retain":
            b.atomic_rmw("add", _at(b, slot, EVENT, "refs"), ir.Constant(I64, 1), "monotonic")
        elif name == "release":
            b.atomic_rmw("sub", _at(b, slot, EVENT, "refs"), ir.Constant(I64, 1), "monotonic")
        elif name == "set_status":
            # A user event's status is set once, from CL_SUBMITTED to CL_COMPLETE or an error.
            ok = b.and_(b.icmp_unsigned("==", kind, ir.Constant(I64, EVENT_USER)),
                        b.icmp_signed("<=", value, ir.Constant(I64, 0)))
            with b.if_then(ok):
                b.cmpxchg(_at(b, slot, EVENT, "status"), ir.Constant(I64, CL_SUBMITTED), value, "seq_cst", "monotonic")
        else:
            # capture: the times of a command already complete are written at once (the
            # work-item may read them next); else the runtime writes them when it completes.
            ok = b.icmp_unsigned("!=", kind, ir.Constant(I64, EVENT_USER))
            with b.if_then(ok):
                complete = _load(b, slot, EVENT, "complete_time")
                with b.if_else(b.icmp_unsigned("!=", complete, ir.Constant(I64, 0))) as (known, later):
                    with known:
                        out = b.inttoptr(value, PTR)
                        b.store(_load(b, slot, EVENT, "exec_time"), out, align=8)
                        b.store(complete, b.gep(out, [ir.Constant(I64, 1)], source_etype=I64), align=8)
                    with later:
                        b.store(value, _at(b, slot, EVENT, "profile"))
    b.ret_void()
    return fn


# ----- operands --------------------------------------------------------------------------------
def _u64(fl: FunctionLowering, value: ir.Value) -> ir.Value:
    if isinstance(value.type, ir.IntType) and value.type.width < 64:
        return fl.builder.zext(value, I64)
    return value


def _checked_address(fl: FunctionLowering, pointer_id: int, size: ir.Value | int, kind: str) -> ir.Value:
    """The address of an optional pointer operand: null when it is null, or when checked code
    finds [address, address + size) outside its region (the launch is then failing)."""
    ptr = fl.pointer(pointer_id)
    null = ir.Constant(PTR, None)
    inst = fl.ml.module.definition(pointer_id)
    if inst is not None and inst.opcode == OP.ConstantNull:
        return null
    if not isinstance(ptr, Ptr):
        raise NotSupportedError(f"{fl.current.opname} (word {fl.current.offset}) with a BuiltIn variable operand")
    if not fl.checked:
        return ptr.addr
    b = fl.builder
    pre = b.block
    test = fl.fn.append_basic_block("operand")
    done = fl.fn.append_basic_block("operand_done")
    b.cbranch(b.icmp_unsigned("==", ptr.addr, null), done, test)
    b.position_at_end(test)
    fl.check_access(ptr, size, kind)
    checked = fl.join_access(ptr.addr, null)
    b.branch(done)
    last = b.block
    b.position_at_end(done)
    phi = b.phi(PTR)
    phi.add_incoming(null, pre)
    phi.add_incoming(checked, last)
    return phi


def _type_of(fl: FunctionLowering, value_id: int):
    """The SPIR-V type of an operand (an instruction's result or a parameter)."""
    t = fl.ml.module.type_of(value_id)
    if t is None:
        raise NotSupportedError(f"operand %{value_id} of {fl.current.opname}")
    return fl.type(t.result_id)


def _struct_operand(fl: FunctionLowering, value_id: int) -> tuple[ir.Value, object]:
    """An ndrange_t operand as an LLVM struct value (loaded when it is a pointer) and its type."""
    t = _type_of(fl, value_id)
    if t.kind == "pointer":
        ptr = fl.pointer(value_id)
        st = t.elem
        if fl.checked:
            fl.check_access(ptr, fl.types.size(st), "load")
            loaded = fl.builder.load(ptr.addr, typ=st.llvm)
            return fl.join_access(loaded, ir.Constant(st.llvm, None)), st
        return fl.builder.load(ptr.addr, typ=st.llvm), st
    return fl.value(value_id), t


def _scalar_operand(fl: FunctionLowering, value_id: int) -> ir.Value:
    """An integer operand as i64; a pointer operand (llvm-spirv's Local Size) is loaded."""
    t = _type_of(fl, value_id)
    if t.kind != "pointer":
        return _u64(fl, fl.value(value_id))
    ptr = fl.pointer(value_id)
    size = fl.types.size(t.elem)
    if fl.checked:
        fl.check_access(ptr, size, "load")
        return _u64(fl, fl.join_access(fl.builder.load(ptr.addr, typ=t.elem.llvm), ir.Constant(t.elem.llvm, 0)))
    return _u64(fl, fl.builder.load(ptr.addr, typ=t.elem.llvm))


def _words_of_ndrange(fl: FunctionLowering, value_id: int) -> ir.Value:
    """An [10 x i64] slot holding the ndrange's dims, offset[3], global[3], local[3]."""
    from .intrinsics import opaque_alloca

    value, _t = _struct_operand(fl, value_id)
    b = fl.builder
    slot = opaque_alloca(fl.builder_at_entry(), ir.ArrayType(I64, 10), 8)
    b.store(_u64(fl, b.extract_value(value, 0)), b.gep(slot, [ir.Constant(I64, 0)], source_etype=I64))
    for member in range(1, 4):
        for d in range(3):
            part = _u64(fl, b.extract_value(value, [member, d]))
            b.store(part, b.gep(slot, [ir.Constant(I64, 1 + (member - 1) * 3 + d)], source_etype=I64))
    return slot


def _array(fl: FunctionLowering, values: list[ir.Value]) -> ir.Value:
    from .intrinsics import opaque_alloca

    slot = opaque_alloca(fl.builder_at_entry(), ir.ArrayType(I64, max(1, len(values))), 8)
    for i, v in enumerate(values):
        fl.builder.store(v, fl.builder.gep(slot, [ir.Constant(I64, i)], source_etype=I64))
    return slot


def _global_id(fl: FunctionLowering) -> ir.Value:
    from .builtins import _vector3

    return _array(fl, _vector3(fl, "GlobalInvocationId"))


def _result(fl: FunctionLowering, inst, value: ir.Value) -> None:
    t = fl.type(inst.words[1]).llvm
    b = fl.builder
    if value.type != t:
        value = b.trunc(value, t) if value.type.width > t.width else b.sext(value, t)
    fl.set(inst.result_id, value)


# ----- the instructions ------------------------------------------------------------------------
@handles("OpGetDefaultQueue")
def lower_get_default_queue(fl: FunctionLowering, inst) -> None:
    fl.set(inst.result_id, _queue(fl.builder, fl.ctx))


@handles("OpBuildNDRange")
def lower_build_ndrange(fl: FunctionLowering, inst) -> None:
    """{dims, offset[3], global[3], local[3]} from a scalar or 2/3-element array of sizes;
    unused dimensions: global size 1, local size and offset 0."""
    w = inst.words
    t = fl.type(w[1])
    b = fl.builder
    size_t = _type_of(fl, w[3])
    for operand, role in ((w[4], "LocalWorkSize"), (w[5], "GlobalWorkOffset")):
        if _type_of(fl, operand).id != size_t.id:
            # The SPIR-V spec asks all three of the same type; spirv-val does not check it.
            raise SpirvError(f"invalid module: OpBuildNDRange (word {inst.offset}): {role} %{operand} is not of "
                             f"GlobalWorkSize's type")
    if not (size_t.kind == "int" or size_t.kind == "array" and size_t.elem.kind == "int"):
        raise SpirvError(f"invalid module: OpBuildNDRange (word {inst.offset}): GlobalWorkSize must be an integer "
                         f"or an array of integers")
    dims = size_t.count if size_t.kind == "array" else 1
    elem = t.llvm.elements[2].element
    agg = ir.Constant(t.llvm, None)
    agg = b.insert_value(agg, ir.Constant(t.llvm.elements[0], dims), 0)
    for member, operand, fill in ((2, w[3], 1), (3, w[4], 0), (1, w[5], 0)):
        value = fl.value(operand)
        for d in range(3):
            if d < dims:
                part = b.extract_value(value, d) if dims > 1 or size_t.kind == "array" else value
                if part.type != elem:
                    part = b.zext(part, elem) if part.type.width < elem.width else b.trunc(part, elem)
            else:
                part = ir.Constant(elem, fill)
            agg = b.insert_value(agg, part, [member, d])
    fl.set(inst.result_id, agg)


@handles("OpEnqueueKernel")
def lower_enqueue_kernel(fl: FunctionLowering, inst) -> None:
    # Queue Flags NDRange NumEvents WaitEvents RetEvent Invoke Param ParamSize ParamAlign LocalSize...
    queue, flags, ndr, num, wait, ret_id, invoke, param_id, size_id = inst.words[3:12]
    _invoke(fl, inst, invoke)
    b = fl.builder
    nevents = _u64(fl, fl.value(num))
    ndrange = _words_of_ndrange(fl, ndr)
    events = _checked_address(fl, wait, b.mul(nevents, ir.Constant(I64, 8)), "load")
    ret = _checked_address(fl, ret_id, 8, "store")
    psize = _u64(fl, fl.value(size_id))
    param = _checked_address(fl, param_id, psize, "load")
    locals_ = [_scalar_operand(fl, v) for v in inst.words[13:]]
    status = fl.builder.call(enqueue_fn(fl.ml), [
        fl.ctx, fl.value(queue), ir.Constant(I64, RECORD_KERNEL), ir.Constant(I64, invoke), _u64(fl, fl.value(flags)),
        ndrange, nevents, events, ret, _global_id(fl), param, psize, ir.Constant(I64, len(locals_)),
        _array(fl, locals_)])
    _result(fl, inst, status)


@handles("OpEnqueueMarker")
def lower_enqueue_marker(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    nevents = _u64(fl, fl.value(w[4]))
    events = _checked_address(fl, w[5], b.mul(nevents, ir.Constant(I64, 8)), "load")
    ret = _checked_address(fl, w[6], 8, "store")
    ndrange = _array(fl, [ir.Constant(I64, 1)] + [ir.Constant(I64, 0)] * 9)
    null = ir.Constant(PTR, None)
    status = fl.builder.call(enqueue_fn(fl.ml), [
        fl.ctx, fl.value(w[3]), ir.Constant(I64, RECORD_MARKER), ir.Constant(I64, 0), ir.Constant(I64, 0), ndrange,
        nevents, events, ret, _global_id(fl), null, ir.Constant(I64, 0), ir.Constant(I64, 0), _array(fl, [])])
    _result(fl, inst, status)


@handles("OpCreateUserEvent")
def lower_create_user_event(fl: FunctionLowering, inst) -> None:
    b = fl.builder
    slot = b.call(new_event_fn(fl.ml), [fl.ctx, ir.Constant(I64, EVENT_USER), ir.Constant(I64, CL_SUBMITTED)])
    failed = b.icmp_unsigned("==", slot, ir.Constant(PTR, None))
    fl.set(inst.result_id, b.select(failed, b.inttoptr(ir.Constant(I64, NULL_EVENT), PTR), slot))


@handles("OpIsValidEvent")
def lower_is_valid_event(fl: FunctionLowering, inst) -> None:
    slot = fl.builder.call(event_slot_fn(fl.ml), [fl.ctx, fl.value(inst.words[3])])
    fl.set(inst.result_id, fl.builder.icmp_unsigned("!=", slot, ir.Constant(PTR, None)))


@handles("OpRetainEvent", "OpReleaseEvent")
def lower_retain_release(fl: FunctionLowering, inst) -> None:
    name = "retain" if inst.opname == "OpRetainEvent" else "release"
    fl.builder.call(event_op_fn(fl.ml, name), [fl.ctx, fl.value(inst.words[1]), ir.Constant(I64, 0)])


@handles("OpSetUserEventStatus")
def lower_set_user_event_status(fl: FunctionLowering, inst) -> None:
    status = fl.value(inst.words[2])
    status = fl.builder.sext(status, I64) if status.type.width < 64 else status
    fl.builder.call(event_op_fn(fl.ml, "set_status"), [fl.ctx, fl.value(inst.words[1]), status])


@handles("OpCaptureEventProfilingInfo")
def lower_capture_profiling(fl: FunctionLowering, inst) -> None:
    w = inst.words
    info = fl.ml.constants.value(w[2]) if fl.ml.module.definition(w[2]) is not None else None
    if info != CLK_PROFILING_COMMAND_EXEC_TIME:
        raise NotSupportedError(f"OpCaptureEventProfilingInfo (word {inst.offset}) with Profiling Info other than "
                                f"CmdExecTime (a constant 1)")
    address = _checked_address(fl, w[3], 16, "store")
    fl.builder.call(event_op_fn(fl.ml, "capture"), [fl.ctx, fl.value(w[1]), fl.builder.ptrtoint(address, I64)])


# ----- kernel queries --------------------------------------------------------------------------
def _required_items(module, entry) -> int | None:
    """Work-items of the group size the kernel requires (None: it requires none)."""
    size = module.local_size(entry.function)
    return None if size is None else size[0] * size[1] * size[2]


@handles("OpGetKernelWorkGroupSize", "OpGetKernelPreferredWorkGroupSizeMultiple")
def lower_kernel_work_group_query(fl: FunctionLowering, inst) -> None:
    entry = _invoke(fl, inst, inst.words[3])
    if inst.opname == "OpGetKernelPreferredWorkGroupSizeMultiple":
        required = _required_items(fl.ml.module, entry)
        multiple = PREFERRED_WORK_GROUP_SIZE_MULTIPLE
        value = ir.Constant(I64, min(required or multiple, multiple))
    else:
        value = _max_items(fl, entry)
    _result(fl, inst, value)


def pick_local_fn(ml) -> ir.Function:
    """pick(global, budget) -> the largest divisor of global at most min(global, budget) (1 for
    a budget of 1): runtime/ndrange._pick_local's choice for one dimension."""
    fn, b = _routine(ml, "pick_local", I64, [I64, I64])
    if b is None:
        return fn
    g, budget = fn.args
    one = ir.Constant(I64, 1)
    start = b.select(b.icmp_unsigned("<", g, budget), g, budget)
    start = b.select(b.icmp_unsigned("<=", budget, one), one, start)
    entry = b.block
    loop = fn.append_basic_block("try")
    out = fn.append_basic_block("found")
    b.branch(loop)
    b.position_at_end(loop)
    v = b.phi(I64)
    v.add_incoming(start, entry)
    divides = b.or_(b.icmp_unsigned("<=", v, one), b.icmp_unsigned("==", b.urem(g, v), ir.Constant(I64, 0)))
    v.add_incoming(b.sub(v, one), loop)
    b.cbranch(divides, out, loop)
    b.position_at_end(out)
    b.ret(b.select(b.icmp_unsigned("<", v, one), one, v))
    return fn


def _group_items(fl: FunctionLowering, ndrange: ir.Value) -> ir.Value:
    """Work-items per (whole) work-group of a launch of the ndrange words."""
    b = fl.builder

    def word(i):
        return b.load(b.gep(ndrange, [ir.Constant(I64, i)], source_etype=I64), typ=I64)

    one = ir.Constant(I64, 1)
    dims = word(0)
    given = b.icmp_unsigned("!=", word(7), ir.Constant(I64, 0))
    items, budget = one, ir.Constant(I64, PICKED_GROUP_ITEMS)
    for d in range(3):
        active = b.icmp_unsigned("<", ir.Constant(I64, d), dims)
        g = b.select(active, word(4 + d), one)
        lsize = b.select(active, word(7 + d), one)
        picked = b.call(pick_local_fn(fl.ml), [g, budget])
        size = b.select(given, b.select(b.icmp_unsigned("<", lsize, g), lsize, g), picked)
        budget = b.udiv(budget, b.select(b.icmp_unsigned("==", picked, ir.Constant(I64, 0)), one, picked))
        items = b.mul(items, size)
    return items


@handles("OpGetKernelNDrangeSubGroupCount", "OpGetKernelNDrangeMaxSubGroupSize")
def lower_sub_group_query(fl: FunctionLowering, inst) -> None:
    """Sub-groups of the launch's sub-group size (children inherit it; 0: one per group)."""
    _invoke(fl, inst, inst.words[4])
    b = fl.builder
    items = _group_items(fl, _words_of_ndrange(fl, inst.words[3]))
    size = fl.context_word("sub_group_config")
    zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
    per_group = b.icmp_unsigned("==", size, zero)
    safe = b.select(per_group, one, size)
    if inst.opname == "OpGetKernelNDrangeSubGroupCount":
        value = b.select(per_group, one, b.udiv(b.add(items, b.sub(safe, one)), safe))
    else:
        value = b.select(per_group, items, b.select(b.icmp_unsigned("<", safe, items), safe, items))
    _result(fl, inst, value)


def _max_items(fl: FunctionLowering, entry) -> ir.Value:
    """The largest work-group the Invoke kernel runs with: its required size, else the device's."""
    required = _required_items(fl.ml.module, entry)
    if required is not None:
        return ir.Constant(I64, required)
    b = fl.builder
    q = _queue(b, fl.ctx)
    return _maybe(b, fl.fn, b.icmp_unsigned("!=", q, ir.Constant(PTR, None)),
                  lambda bb: _load(bb, q, DEVICE_QUEUE, "max_work_group_size"), ir.Constant(I64, 0))


@handles("OpGetKernelLocalSizeForSubgroupCount", "OpGetKernelMaxNumSubgroups")
def lower_sub_group_dispatch_query(fl: FunctionLowering, inst) -> None:
    """SubgroupDispatch queries, with the launch's sub-group size s (0: one per work-group):
    the 1D local size giving Subgroup Count sub-groups (count * s, or 0 when larger than the
    kernel's largest work-group; with one sub-group per group, the largest work-group for a
    count of 1, else 0), and the most sub-groups a work-group can have."""
    count_query = inst.opname == "OpGetKernelLocalSizeForSubgroupCount"
    entry = _invoke(fl, inst, inst.words[4] if count_query else inst.words[3])
    b = fl.builder
    most = _max_items(fl, entry)
    size = fl.context_word("sub_group_config")
    zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
    per_group = b.icmp_unsigned("==", size, zero)
    if count_query:
        count = _u64(fl, fl.value(inst.words[3]))
        local = b.mul(count, size)
        fits = b.and_(b.icmp_unsigned("!=", count, zero), b.icmp_unsigned("<=", local, most))
        value = b.select(per_group, b.select(b.icmp_unsigned("==", count, one), most, zero),
                         b.select(fits, local, zero))
    else:
        safe = b.select(per_group, one, size)
        value = b.select(per_group, one, b.udiv(b.add(most, b.sub(safe, one)), safe))
    _result(fl, inst, value)
