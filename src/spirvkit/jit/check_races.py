"""The races check: conflicting accesses to global or local memory that nothing orders.

Two accesses to the same byte conflict when at least one writes and they are not both atomic
(a write of the value already there still counts, as the OpenCL memory model says; an atomic
compare-exchange writes only when it succeeds: it is recorded as an atomic read, then as an
atomic write once it has succeeded, ``exchanged``). They
race when nothing orders them: they come from different work-items of one work-group within
one barrier interval, or from different work-groups of the launch (global memory only: a
launch cannot order its groups).

Shadow memory. Every 4-byte granule of a checked buffer has one 64-bit record (so the shadow is
twice the bytes it covers), the last access to it that matters:

    bits  0-3   PA  bytes of the granule the recorded work-item plainly (non-atomically)
                    accessed in its interval
    bits  4-7   PW  ... plainly wrote
    bit   8     AA  it accessed the granule atomically (an atomic covers its whole granule:
                    OpenCL's atomics are 4 or 8 bytes, aligned)
    bit   9     AW  ... atomically wrote it
    bits 10-13  SR  bytes plainly read, in the same interval, by other work-items (not kept);
                    always bytes the recorded work-item accessed too
    bit  14     SX  another work-item atomically wrote the granule in the same interval (the
                    previous record's, when this one replaced it; not kept)
    bits 15-18  GA  bytes the recorded work-item's group plainly accessed before this record
                    (its other work-items, its earlier intervals): ordered for the group, not
                    for the other groups of the launch
    bits 19-22  GW  ... plainly wrote
    bits 23-34      the interval (the thread's count of barriers, 12 bits)
    bit  35         the access was the group's async copy, not a work-item's
    bits 36-63      the work-item: group linear id * group size + local linear id (28 bits;
                    for a copy, the group's first work-item)

A granule's record is 0 until first accessed (PA or AA is never empty in a real record). Byte
masks keep neighbouring work-items' stores to different bytes of one word apart. An access
compares itself with the record (a few masks, see ``_conflict``), reports a race, and stores the
updated record. Work-items run one after another, so the record of a granule every work-item
accesses ends up naming the last of them: SX keeps what the others did that a plain access of
the last one races with (each does ``atomic_inc``, the last then reads the counter plainly), GA
and GW what its group did before, that another group races with (one work-item initialises a
counter plainly, a barrier, every work-item increments it atomically: the barrier orders the
group's own atomics, not another group's). Records are read and written with single 64-bit
atomic loads and stores: concurrent groups may lose each other's updates (a race then goes
unreported), but every record always describes accesses that really happened, which is what
keeps false alarms out.
When two work-items access disjoint bytes of a granule, the later one's record replaces the
earlier one: a race on those bytes may then be missed, never invented.

Compact records. A kernel without barriers, group functions or fences orders none of its
work-items, so two accesses to a buffer it only stores to (written_params.store_only_parameters:
plain stores, through pointers into such buffers alone) race exactly when different work-items
store to the same bytes. Each granule of such a buffer has a 32-bit record instead (its shadow is
as large as the buffer, not twice): bits 0-3 the bytes the recorded work-item stored, bits 4-31
the work-item (the same 28 bits). A store by another work-item to bytes the record holds is a
race; the record then names the later one. A buffer that is also bound to a parameter that is
not store-only keeps full records (its table entry says which), and its compact stores take
the full helper.

Intervals. A kernel with barriers runs region by region (regions.py): every barrier (or
collective) is a ``rendezvous``, where this check advances the thread's interval count of the
memory the barrier's fence names (CLK_LOCAL_MEM_FENCE: local memory, CLK_GLOBAL_MEM_FENCE:
global memory; a collective, or a barrier naming neither, both). A record from the same group
and interval, by another work-item, is concurrent; from the same group and an earlier interval,
ordered by a barrier. Loop cuts (the rounds the executor adds itself, loop_cuts.py) order
nothing: the work-items of a loop without a barrier run it turn by turn in lockstep, yet their
turns are concurrent, so a round that stops at a cut does not advance the count. The count
wraps at 12 bits, so a group that has run that many barrier rounds stops being checked within
itself (until its next group) rather than risk comparing a record 4096 rounds old as current.
A kernel without barriers runs each group in one interval.

Local memory is one block per worker thread, reused by its groups: a record left there by
another group is stale, not a race. Global memory records are kept for the launch; a lookup
from a pointer's region base to its shadow is a small open-addressing hash table (the runtime
fills it, runtime/race_shadow.py). Private memory is not checked (nobody else can see it),
nor __constant (nobody can write it), nor an access another check stopped.

Async work-group copies. The group's copy is done where the group waits for its event
(check_events.py, as Oclgrind does) and recorded there (``group_copy``) as an access of its
own, by the group rather than by a work-item, in the interval the wait ends (issuing a copy
orders nothing: ``fences``; the wait is a barrier on both memories): a work-item that touches
its memory between the barrier before the copy and the wait races with it. A strided side
(async_work_group_strided_copy with a stride above 1) is not recorded: only whole spans are.

Fences. Work-groups may still hand data to each other through global memory with fences and
atomics (the last group to take a ticket sums what the others wrote, a lock). Telling such
ordered pairs from races needs the happens-before of every fence and atomic; instead, a kernel
whose code has a global-memory fence (OpMemoryBarrier, or an atomic with acquire/release
ordering, on CrossWorkgroup memory) is checked for races within work-groups only: the races
between groups it might have go unreported rather than its hand-overs being reported.

Work-item ids are kept modulo 2**28, so in a launch of more work-items than that a race may be
attributed to a work-item 2**28 ids away, or missed.
"""

from __future__ import annotations

import contextlib

from llvmlite import ir

from .abi import CONTEXT, THREAD, _layout
from .check_passes import CHECK_STATE, I1, I64, PTR, _word, pointer_operand, pointer_storage
from .intrinsics import store_atomic
from .loop_cuts import is_cut
from .written_params import ANYWHERE, pointer_roots, reachable, store_only_parameters

I32 = ir.IntType(32)

# The launch's race state (int64 words; CHECK_STATE["races"] holds its address).
RACE_STATE = _layout([
    ("table", 1),            # region hash table: TABLE_ENTRY words per slot; base 0: empty slot
    ("table_mask", 1),       # slots - 1 (a power of two, at least 2)
    ("table_shift", 1),      # 64 - log2(slots)
    ("next_thread", 1),      # thread blocks handed out (atomic add)
    ("thread_capacity", 1),
    ("threads", 1),          # address of the thread blocks (THREAD_BLOCK words each)
    ("local_shadow", 1),     # address of the local-memory shadows, one per thread block
    ("local_stride", 1),     # bytes of one of them
    ("local_limit", 1),      # bytes of a group's local memory they cover (the kernel's own: not
                             # the uninitialized check's shadow that may follow them in the block)
    ("unwritten_free", 1),   # 1: every parameter the kernel never writes through is bound to a
                             # buffer nothing writes (reads through them skip the check)
])
TABLE_ENTRY = _layout([
    ("base", 1), ("end", 1),
    ("delta", 1),            # shadow of addr: delta + (addr >> 2) * 8 (a compact one: * 4)
    ("compact", 1),          # 1: compact records (see Compact records above)
])
THREAD_BLOCK = _layout([
    ("epoch_local", 1),      # the current interval of local memory (count of barriers that
                             # fence it, wrapping at EPOCH_BITS)
    ("epoch_global", 1),     # ... of global memory
    ("rounds", 1),           # barrier rounds since the current group started
    ("group", 1),            # that group's linear id + 1
    ("saturated", 1),        # 1: the group has had too many rounds to compare intervals
    ("local_delta", 1),      # this thread's local-memory shadow, as a TABLE_ENTRY delta
    ("local_limit", 1),      # RACE_STATE's local_limit (a cache line per thread)
])
HASH_MULTIPLIER = 0x9E3779B97F4A7C15

# The record's fields (see Shadow memory above).
PA_SHIFT, PW_SHIFT, AA_SHIFT, AW_SHIFT, SR_SHIFT, SX_SHIFT, GA_SHIFT, GW_SHIFT = 0, 4, 8, 9, 10, 14, 15, 19
EPOCH_SHIFT, EPOCH_BITS = 23, 12
COPY_SHIFT = 35
ITEM_SHIFT, ITEM_BITS = 36, 28
OWN_FIELDS = 0x3FF               # PA, PW, AA, AW: what the recorded work-item itself did
# The record's work-item, interval, and the fields that say other work-items were there too (SR,
# SX): equal to an access's identity, the record is that work-item's alone in its interval.
_IDENTITY_FIELDS = ~(OWN_FIELDS | (0xF << GA_SHIFT) | (0xF << GW_SHIFT)) & ((1 << 64) - 1)
_WRITE_FIELDS = (0xF << PW_SHIFT) | (1 << AW_SHIFT) | (1 << SX_SHIFT)   # a write is recorded
GRANULE = 4
COMPACT_ITEM_SHIFT = 4           # a compact record: bytes written (bits 0-3), its work-item above


def table_slot(base: int, shift: int) -> int:
    """The hash table slot a region base starts probing at (the JIT'd lookup computes the same)."""
    return (((base >> 4) * HASH_MULTIPLIER) & ((1 << 64) - 1)) >> shift


def _c(value: int) -> ir.Constant:
    return ir.Constant(I64, value)


class RaceCheck:
    def __init__(self, passes):
        self.passes = passes
        self._copy_calls = 0     # a copy checks its target, then its source
        self._between_groups = None   # see Fences above (known once the kernel is)
        self._roots = None            # (see roots)
        self._store_only = None       # (see store_only)

    # ----- events -------------------------------------------------------------------------------
    def access(self, fl, ptr, addr, base, end, size, kind: str, claimed) -> None:
        """Checks and records the access in the shadow (the helper, inlined), unless another
        check's finding (``claimed``, an i1 or None) skips it. A race does not stop the access."""
        write, atomic = self._kind(fl, kind)
        if write is None or not self._may_be_shared(fl, kind):
            return
        b = fl.builder
        if not write and self._reads_unwritten(fl):
            # Through parameters the kernel never writes: their buffers have no shadow (nothing
            # to record) when the launch bound them to buffers nothing writes.
            fixed = _Fixed(fl.ml, b)
            state = fixed.load(_word(b, fixed.load(_word(b, fl.ctx, CONTEXT["checks"]), PTR), CHECK_STATE["races"]), PTR)
            free = b.icmp_unsigned("!=", fixed.load(_word(b, state, RACE_STATE["unwritten_free"])), _c(0))
            claimed = free if claimed is None else b.or_(claimed, free)
        helper = self._compact_helper() if self._compact_store(fl, kind) else self._helper(write, atomic)
        with b.if_then(b.not_(claimed)) if claimed is not None else contextlib.nullcontext():
            b.call(helper, [fl.ctx, fl.ts, fl.lx, fl.ly, fl.lz, _c(fl.site("data race")), addr, base, end, size])

    def rendezvous(self, b: ir.IRBuilder, ctx, ts, low, barriers) -> None:
        """After a round of a region kernel: when the work-items wait at a real barrier (the
        lowest state ``low`` is not a loop cut, see check_barriers.py), a new interval starts
        for the memory its fence covers."""
        table = self._fence_table(barriers)
        block = self._thread_block(b, ctx, ts)
        done = b.icmp_unsigned(">", low, ir.Constant(low.type, len(barriers)))   # DONE: all returned
        index = b.zext(b.select(done, ir.Constant(low.type, 0), low), I64)
        fenced = b.select(done, _c(FENCE_LOCAL | FENCE_GLOBAL),
                          b.load(b.gep(table, [_c(0), index]), typ=I64))
        with b.if_then(b.and_(b.icmp_unsigned("!=", fenced, _c(0)), b.icmp_unsigned("!=", block, _c(0)))):
            words = b.inttoptr(block, PTR)
            for name, bit in (("epoch_local", FENCE_LOCAL), ("epoch_global", FENCE_GLOBAL)):
                slot = _word(b, words, THREAD_BLOCK[name])
                old = b.load(slot, typ=I64)
                advanced = b.and_(b.add(old, _c(1)), _c((1 << EPOCH_BITS) - 1))
                covered = b.icmp_unsigned("!=", b.and_(fenced, _c(bit)), _c(0))
                b.store(b.select(covered, advanced, old), slot)
            group = b.add(_group_linear(b, ctx, ts), _c(1))
            same = b.icmp_unsigned("==", b.load(_word(b, words, THREAD_BLOCK["group"]), typ=I64), group)
            rounds = b.select(same, b.add(b.load(_word(b, words, THREAD_BLOCK["rounds"]), typ=I64), _c(1)), _c(1))
            b.store(group, _word(b, words, THREAD_BLOCK["group"]))
            b.store(rounds, _word(b, words, THREAD_BLOCK["rounds"]))
            saturated = b.icmp_unsigned(">=", rounds, _c((1 << EPOCH_BITS) - 1))
            b.store(b.zext(saturated, I64), _word(b, words, THREAD_BLOCK["saturated"]))

    def group_copy(self, b: ir.IRBuilder, ctx, ts, inst, spv_fn, sides, claimed, site=None) -> None:
        """An async work-group copy about to happen (unless ``claimed``): its destination is
        written and its source read by the group. ``sides``: (addr, base, end, span) of each;
        ``site``: an i64, when the copy is done where the group waits for it (check_events.py)."""
        site = _c(self.passes.ml.site(inst, "data race", spv_fn)) if site is None else site
        zero = _c(0)
        (_, _, _, dst_span), (_, _, _, src_span) = sides
        with b.if_then(b.not_(claimed)) if claimed is not None else contextlib.nullcontext():
            for (addr, base, end, span), other_span, write in ((sides[0], src_span, True), (sides[1], dst_span, False)):
                # A side longer than the other is strided: its span has gaps the copy skips.
                whole = b.select(b.icmp_unsigned("<=", span, other_span), span, zero)
                b.call(self._helper(write, False, copy=True), [ctx, ts, zero, zero, zero, site, addr, base, end, whole])

    def exchanged(self, fl, addr, base, end, size, succeeded) -> None:
        """After an atomic compare-exchange (on its in-bounds path): when it succeeded
        (``succeeded``, an i1), it also wrote, and is recorded as an atomic write. A failed one
        stays the atomic read ``access`` recorded: it conflicts with no plain read."""
        if not self._may_be_shared(fl, "atomic"):
            return
        b = fl.builder
        with b.if_then(succeeded):
            b.call(self._helper(True, True), [fl.ctx, fl.ts, fl.lx, fl.ly, fl.lz, _c(fl.site("data race")),
                                              addr, base, end, size])

    def _fence_table(self, barriers) -> ir.GlobalVariable:
        """Region state -> the memory its barrier fences (FENCE_* bits; 0 for a loop cut)."""
        ml = self.passes.ml
        values = [0] + [0 if is_cut(inst) else fences(ml.module, inst) for _, _, inst in barriers]
        array = ir.ArrayType(I64, len(values))
        table = ir.GlobalVariable(ml.llvm, array, ml.llvm.get_unique_name("spirvkit.check.race_fences"))
        table.global_constant = True
        table.linkage = "internal"
        table.initializer = ir.Constant(array, values)
        return table

    @property
    def between_groups(self) -> bool:
        """Whether races between work-groups are reported (the kernel has no global fence)."""
        if self._between_groups is None:
            ml = self.passes.ml
            kernel = self.passes.kernel_function
            functions = reachable(ml.module, kernel) if kernel is not None else ml.module.functions
            self._between_groups = not publishes(ml.module, functions)
        return self._between_groups

    @property
    def roots(self) -> tuple[dict, frozenset | None]:
        """jit/written_params.py's pointer_roots of the kernel (worked out once, when needed)."""
        if self._roots is None:
            self._roots = pointer_roots(self.passes.ml.module, self.passes.kernel_function)
        return self._roots

    @property
    def store_only(self) -> frozenset:
        """The parameters whose buffers keep compact records (see Compact records above)."""
        if self._store_only is None:
            kernel = self.passes.kernel_function
            self._store_only = (store_only_parameters(self.passes.ml.module, kernel, self.roots)
                                if kernel is not None and self.between_groups else frozenset())
        return self._store_only

    def _compact_store(self, fl, kind: str) -> bool:
        """Whether the current access is a plain store into store-only parameters alone."""
        if kind != "store" or fl.current is None or fl.current.opname != "OpStore" or not self.store_only:
            return False
        found = self.roots[0].get(pointer_operand(fl.current))
        return bool(found) and found <= self.store_only

    # ----- what an access is ------------------------------------------------------------------
    def _kind(self, fl, kind: str):
        """(writes, atomic) of the current access; (None, None) for one this check ignores."""
        if kind == "load":
            return False, False
        if kind == "store":
            return True, False
        if kind == "atomic":
            # A compare-exchange reads here; it writes only when it succeeds (``exchanged``).
            name = fl.current.opname if fl.current is not None else ""
            return name not in ("OpAtomicLoad", *_COMPARE_EXCHANGE), True
        if kind == "copy":
            self._copy_calls += 1
            return self._copy_calls % 2 == 1, False
        return None, None

    def _may_be_shared(self, fl, kind: str) -> bool:
        """False when the instruction's pointer is known to be private (Function, Private) or
        __constant memory: no other work-item can write it."""
        return pointer_storage(fl, kind) not in ("Function", "Private", "UniformConstant")

    def _reads_unwritten(self, fl) -> bool:
        """Whether the current instruction's pointer points only into parameters the kernel
        never writes through (jit/written_params.py)."""
        pointer = pointer_operand(fl.current)
        if pointer is None or self.passes.kernel_function is None:
            return False
        roots, written = self.roots
        found = roots.get(pointer)
        return bool(found) and written is not None and ANYWHERE not in found and not found & written

    # ----- the JIT'd helpers ------------------------------------------------------------------
    def _thread_block(self, b: ir.IRBuilder, ctx, ts) -> ir.Value:
        """This thread's block (an i64 address; 0 when none could be had), claimed on first use."""
        slot = _word(b, ts, THREAD["check_races"])
        block = b.load(slot, typ=I64)
        fresh = b.icmp_unsigned("==", block, _c(0))
        before = b.block
        with b.if_then(fresh, likely=False):
            claimed = b.call(self._claimer(), [ctx, ts])
            claimed_block = b.block
        out = b.phi(I64)
        out.add_incoming(block, before)
        out.add_incoming(claimed, claimed_block)
        return out

    def _claimer(self) -> ir.Function:
        """claim(ctx, ts) -> block: hands this thread a block (and its local-memory shadow)."""
        ml = self.passes.ml
        fn = ml.llvm.globals.get("spirvkit.check.race_claim")
        if fn is not None:
            return fn
        fn = ir.Function(ml.llvm, ir.FunctionType(I64, [PTR, PTR]), name="spirvkit.check.race_claim")
        fn.linkage = "internal"
        fn.attributes.add("noinline")
        fn.attributes.add("cold")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        ctx, ts = fn.args
        state = _race_state(b, ctx)
        index = b.atomic_rmw("add", _word(b, state, RACE_STATE["next_thread"]), _c(1), "monotonic")
        full = b.icmp_unsigned(">=", index, b.load(_word(b, state, RACE_STATE["thread_capacity"]), typ=I64))
        with b.if_then(full, likely=False):
            b.ret(_c(0))      # (never: the runtime makes a block per worker) no checking then
        threads = b.load(_word(b, state, RACE_STATE["threads"]), typ=I64)
        block = b.add(threads, b.mul(index, _c(THREAD_BLOCK["_words"] * 8)))
        shadow = b.add(b.load(_word(b, state, RACE_STATE["local_shadow"]), typ=I64),
                       b.mul(index, b.load(_word(b, state, RACE_STATE["local_stride"]), typ=I64)))
        local_base = b.load(_word(b, ts, THREAD["local_base"]), typ=I64)
        delta = b.sub(shadow, b.mul(b.lshr(local_base, _c(2)), _c(8)))
        b.store(delta, _word(b, b.inttoptr(block, PTR), THREAD_BLOCK["local_delta"]))
        b.store(b.load(_word(b, state, RACE_STATE["local_limit"]), typ=I64),
                _word(b, b.inttoptr(block, PTR), THREAD_BLOCK["local_limit"]))
        b.store(block, _word(b, ts, THREAD["check_races"]))
        b.ret(block)
        return fn

    def _access_function(self, name: str, *attributes: str) -> ir.Function:
        """The module's function ``name`` of an access's arguments (ctx, ts, lx, ly, lz, site,
        addr, base, end, size), declared now (no blocks yet) if it has none."""
        ml = self.passes.ml
        fn = ml.llvm.globals.get(name)
        if fn is None:
            fn = ir.Function(ml.llvm, ir.FunctionType(ir.VoidType(), [PTR, PTR] + [I64] * 8), name=name)
            fn.linkage = "internal"
            for attribute in attributes:
                fn.attributes.add(attribute)
        return fn

    def _helper(self, write: bool, atomic: bool, copy: bool = False) -> ir.Function:
        """race(ctx, ts, lx, ly, lz, site, addr, base, end, size): checks one access against the
        shadow and records it there (one helper per kind of access: its tests fold)."""
        ml = self.passes.ml
        fn = self._access_function(f"spirvkit.check.race.{'w' if write else 'r'}{'a' if atomic else 'p'}"
                                   f"{'.copy' if copy else ''}", "alwaysinline")
        if fn.blocks:
            return fn
        ctx, ts, lx, ly, lz, site, addr, base, end, size = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        leave = fn.append_basic_block("leave")
        block = self._thread_block(b, ctx, ts)
        start = fn.append_basic_block("start")
        b.cbranch(b.or_(b.icmp_unsigned("==", block, _c(0)), b.icmp_unsigned("==", size, _c(0))), leave, start)
        b.position_at_end(start)
        words = b.inttoptr(block, PTR)

        # Local memory (this thread's block), or a global region of the table, or neither.
        fixed = _Fixed(ml, b)     # words that stay the same for the whole launch
        local_base = fixed.load(_word(b, ts, THREAD["local_base"]))
        local_bytes = fixed.load(_word(b, ts, THREAD["local_bytes"]))
        local_offset = b.sub(addr, local_base)
        is_local = b.icmp_unsigned("<", local_offset, local_bytes)
        local = fn.append_basic_block("local")
        lookup = fn.append_basic_block("lookup")
        b.cbranch(is_local, local, lookup)

        b.position_at_end(local)
        local_limit = b.load(_word(b, words, THREAD_BLOCK["local_limit"]), typ=I64)
        local_fits = b.icmp_unsigned("<=", b.add(local_offset, size), local_limit)
        local_delta = b.load(_word(b, words, THREAD_BLOCK["local_delta"]), typ=I64)
        found = fn.append_basic_block("found")
        b.cbranch(local_fits, found, leave)

        b.position_at_end(lookup)
        entry = _table_entry(b, fn, fixed, ctx, base, leave)
        global_delta = fixed.load(_word(b, entry, TABLE_ENTRY["delta"]))
        hit = b.block
        b.cbranch(_inside(b, fixed, entry, addr, base, size), found, leave)

        # Who and when this access is.
        b.position_at_end(found)
        delta = b.phi(I64)
        delta.add_incoming(local_delta, local)
        delta.add_incoming(global_delta, hit)
        in_local = b.phi(I1)
        in_local.add_incoming(ir.Constant(I1, 1), local)
        in_local.add_incoming(ir.Constant(I1, 0), hit)
        me, group_start, items = _work_item(b, ctx, ts, lx, ly, lz, fixed)
        item_mask = _c((1 << ITEM_BITS) - 1)
        epoch = b.select(in_local, b.load(_word(b, words, THREAD_BLOCK["epoch_local"]), typ=I64),
                         b.load(_word(b, words, THREAD_BLOCK["epoch_global"]), typ=I64))
        saturated = b.icmp_unsigned("!=", b.load(_word(b, words, THREAD_BLOCK["saturated"]), typ=I64), _c(0))
        who = b.or_(b.shl(me, _c(1)), _c(int(copy)))     # bits COPY_SHIFT and up
        identity = b.or_(b.shl(who, _c(COPY_SHIFT)), b.shl(epoch, _c(EPOCH_SHIFT)))
        first = b.lshr(addr, _c(2))
        last = b.lshr(b.add(addr, b.sub(size, _c(1))), _c(2))
        body = fn.append_basic_block("granule")
        b.branch(body)

        # One granule: its byte mask, the record, the comparison, the new record.
        b.position_at_end(body)
        granule = b.phi(I64)
        granule.add_incoming(first, found)
        bytes_ = _granule_bytes(b, granule, first, addr, size)
        slot = b.inttoptr(b.add(delta, b.shl(granule, _c(3))), PTR)
        record = b.load_atomic(slot, "monotonic", 8, typ=I64)
        if atomic:
            masks = _c((1 << AA_SHIFT) | ((1 << AW_SHIFT) if write else 0))
        else:
            masks = b.or_(bytes_, b.shl(bytes_, _c(PW_SHIFT))) if write else bytes_
        # The common cases, with nothing to compare: a granule nobody has accessed yet (a
        # streaming kernel's every access), one this work-item alone has accessed in this
        # interval (a read-modify-write), and, in local memory, one last accessed before the
        # latest barrier or by another group (a record that orders nothing: it is replaced).
        following_block = fn.append_basic_block("granule.next")
        known_block = fn.append_basic_block("granule.known")
        seen_block = fn.append_basic_block("granule.seen")
        mine_alone = b.and_(b.icmp_unsigned("==", b.and_(record, _c(_IDENTITY_FIELDS)), identity), b.not_(saturated))
        peers = b.icmp_unsigned("<", b.and_(b.sub(b.lshr(record, _c(ITEM_SHIFT)), group_start), item_mask), items)
        now = b.icmp_unsigned("==", b.and_(b.lshr(record, _c(EPOCH_SHIFT)), _c((1 << EPOCH_BITS) - 1)), epoch)
        stale = b.and_(in_local, b.not_(b.and_(b.and_(peers, now), b.not_(saturated))))
        known = b.or_(b.or_(b.icmp_unsigned("==", record, _c(0)), mine_alone), stale)
        if not write and not atomic:
            # And a plain read of bytes the recorded work-item of its group read in this
            # interval, with no write there (a tile in local memory that a work-group reads
            # after a barrier, a stencil's neighbours): nothing can conflict; the record keeps
            # its work-item and notes the read in SR (what the comparison below would store,
            # without it). Already noted: nothing to store.
            read_block = fn.append_basic_block("granule.read")
            shared_block = fn.append_basic_block("granule.shared")
            b.cbranch(known, known_block, read_block)
            b.position_at_end(read_block)
            read_only = b.icmp_unsigned("==", b.and_(record, _c(_WRITE_FIELDS)), _c(0))
            inside = b.icmp_unsigned("==", b.and_(b.lshr(record, _c(PA_SHIFT)), bytes_), bytes_)
            seen_before = b.and_(b.and_(b.and_(peers, now), b.and_(read_only, inside)), b.not_(saturated))
            b.cbranch(seen_before, shared_block, seen_block)
            b.position_at_end(shared_block)
            itself = b.icmp_unsigned("==", b.lshr(record, _c(COPY_SHIFT)), who)
            noted = b.select(itself, record, b.or_(record, b.shl(bytes_, _c(SR_SHIFT))))
            with b.if_then(b.icmp_unsigned("!=", noted, record)):
                store_atomic(b, noted, slot, "monotonic", 8)
            b.branch(following_block)
        else:
            b.cbranch(known, known_block, seen_block)
        b.position_at_end(known_block)
        gained = b.or_(b.select(stale, _c(0), record), b.or_(identity, masks))
        with b.if_then(b.icmp_unsigned("!=", gained, record)):
            store_atomic(b, gained, slot, "monotonic", 8)
        b.branch(following_block)
        b.position_at_end(seen_block)

        def field(shift, width=0xF):
            return b.and_(b.lshr(record, _c(shift)), _c(width))

        def whole(shift):     # a one-bit field, as a mask of the granule's bytes
            return b.mul(field(shift, 1), _c(0xF))

        zero = _c(0)
        plain, plain_written, shared_read, group_read, group_written = (
            field(s) for s in (PA_SHIFT, PW_SHIFT, SR_SHIFT, GA_SHIFT, GW_SHIFT))
        atomic_accessed, atomic_written, shared_atomic = (whole(s) for s in (AA_SHIFT, AW_SHIFT, SX_SHIFT))
        accessed = b.or_(plain, atomic_accessed)
        written = b.or_(plain_written, atomic_written)
        other = b.lshr(record, _c(ITEM_SHIFT))
        same_item = b.icmp_unsigned("==", b.lshr(record, _c(COPY_SHIFT)), who)
        same_group = b.icmp_unsigned("<", b.and_(b.sub(other, group_start), item_mask), items)
        same_epoch = b.and_(b.icmp_unsigned("==", b.and_(b.lshr(record, _c(EPOCH_SHIFT)),
                                                          _c((1 << EPOCH_BITS) - 1)), epoch),
                            b.not_(saturated))
        within = b.and_(same_group, same_epoch)
        between = self.between_groups
        concurrent = b.and_(b.icmp_unsigned("!=", accessed, _c(0)),
                            b.select(in_local, within, b.or_(b.not_(same_group), within)) if between else within)
        by_other = b.and_(concurrent, b.not_(same_item))
        merge = b.and_(concurrent, same_item)
        # What this access conflicts with: the recorded work-item's own accesses (it is named),
        # its group's earlier ones (another group's access: the group is named), other
        # work-items' reads (a write: not named).
        own = b.and_(bytes_, _conflict(b, write, atomic, accessed, written, plain, plain_written))
        past = zero
        if between:
            earlier_read, earlier_written = (b.select(b.or_(same_group, in_local), zero, mask)
                                             for mask in (group_read, group_written))
            past = b.and_(bytes_, _conflict(b, write, atomic, earlier_read, earlier_written,
                                            earlier_read, earlier_written))
        readers = b.and_(bytes_, shared_read) if write else zero
        race_other = b.and_(by_other, b.icmp_unsigned("!=", b.or_(b.or_(own, past), readers), zero))
        # The recorded work-item's own access after other work-items' in its interval: a write
        # of bytes they read, a plain access of a granule they wrote atomically.
        race_reader = b.and_(merge, b.icmp_unsigned("!=", readers, zero))
        race_atomic = ir.Constant(I1, 0)
        if not atomic:
            race_atomic = b.and_(merge, b.icmp_unsigned("!=", b.and_(bytes_, shared_atomic), zero))
        with b.if_then(b.or_(race_other, b.or_(race_reader, race_atomic)), likely=False):
            group_side = b.and_(record, _c(~(OWN_FIELDS | (0xF << SR_SHIFT) | (1 << SX_SHIFT)) & ((1 << 64) - 1)))
            other_side = b.select(b.icmp_unsigned("!=", own, zero), record,
                                  b.select(b.icmp_unsigned("!=", past, zero), group_side,
                                           b.shl(readers, _c(SR_SHIFT))))
            detail = b.select(race_other, other_side,
                              b.select(race_reader, b.shl(readers, _c(SR_SHIFT)), _c(1 << SX_SHIFT)))
            b.call(self.passes.recorder(), [ctx, ts, lx, ly, lz, site, addr, base, end, size, detail,
                                            zero, zero, zero])
        mine = b.or_(identity, masks)
        # A record replacing another: the other's atomic write when they were concurrent (SX);
        # its group's plain accesses when it is the same group (GA, GW).
        wrote_atomically = b.and_(by_other, b.icmp_unsigned("!=", atomic_written, zero))
        mine = b.or_(mine, b.shl(b.zext(wrote_atomically, I64), _c(SX_SHIFT)))
        if between:
            history = b.or_(b.shl(b.or_(group_read, plain), _c(GA_SHIFT)),
                            b.shl(b.or_(group_written, plain_written), _c(GW_SHIFT)))
            mine = b.or_(mine, b.select(same_group, history, zero))
        updated = b.select(merge, b.or_(record, masks), mine)
        if not write:
            # Another work-item's read of bytes the recorded one also accessed: keep that record
            # (it names a work-item a later write would race with), noting the plain read in SR.
            overlap = b.and_(bytes_, accessed)
            keep = b.and_(b.and_(by_other, b.not_(race_other)), b.icmp_unsigned("!=", overlap, zero))
            kept = record if atomic else b.or_(record, b.shl(overlap, _c(SR_SHIFT)))
            updated = b.select(keep, kept, updated)
        # A local record is this thread's own: stored whatever it holds (no branch to mispredict).
        # A global one only when it changes, so that an access that adds nothing does not
        # overwrite what a concurrent group just stored there.
        with b.if_then(b.or_(in_local, b.icmp_unsigned("!=", updated, record))):
            store_atomic(b, updated, slot, "monotonic", 8)
        b.branch(following_block)
        b.position_at_end(following_block)
        following = b.add(granule, _c(1))
        granule.add_incoming(following, following_block)
        b.cbranch(b.icmp_unsigned("<=", following, last), body, leave)

        b.position_at_end(leave)
        b.ret_void()
        return fn


    def _compact_helper(self) -> ir.Function:
        """race.compact(ctx, ts, lx, ly, lz, site, addr, base, end, size): a plain store into a
        store-only parameter's buffer (see Compact records), the same arguments as ``_helper``.
        A region that keeps full records after all (the buffer is also bound to a parameter that
        is not store-only) gets the full helper, out of line."""
        ml = self.passes.ml
        fn = self._access_function("spirvkit.check.race.compact", "alwaysinline")
        if fn.blocks:
            return fn
        ctx, ts, lx, ly, lz, site, addr, base, end, size = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        leave = fn.append_basic_block("leave")
        start = fn.append_basic_block("start")
        b.cbranch(b.icmp_unsigned("==", size, _c(0)), leave, start)
        b.position_at_end(start)
        fixed = _Fixed(ml, b)
        entry = _table_entry(b, fn, fixed, ctx, base, leave)
        delta = fixed.load(_word(b, entry, TABLE_ENTRY["delta"]))
        compact = b.icmp_unsigned("!=", fixed.load(_word(b, entry, TABLE_ENTRY["compact"])), _c(0))
        inside = _inside(b, fixed, entry, addr, base, size)
        records = fn.append_basic_block("compact")
        full = fn.append_basic_block("full")
        b.cbranch(inside, records, leave)
        b.position_at_end(full)
        b.call(self._outlined_store(), list(fn.args))
        b.branch(leave)
        b.position_at_end(records)
        me = _work_item(b, ctx, ts, lx, ly, lz, fixed)[0]
        first = b.lshr(addr, _c(2))
        last = b.lshr(b.add(addr, b.sub(size, _c(1))), _c(2))
        body = fn.append_basic_block("granule")
        b.cbranch(compact, body, full)
        before = records
        b.position_at_end(body)
        granule = b.phi(I64)
        granule.add_incoming(first, before)
        bytes_ = _granule_bytes(b, granule, first, addr, size)
        slot = b.inttoptr(b.add(delta, b.shl(granule, _c(2))), PTR)
        record = b.zext(b.load_atomic(slot, "monotonic", 4, typ=I32), I64)
        owner = b.lshr(record, _c(COMPACT_ITEM_SHIFT))
        mine = b.icmp_unsigned("==", owner, me)
        written = b.and_(record, _c(0xF))
        race = b.and_(b.not_(mine), b.icmp_unsigned("!=", b.and_(written, bytes_), _c(0)))
        with b.if_then(race, likely=False):
            # The other side as a full record: its work-item's plain write of those bytes.
            other = b.or_(b.or_(written, b.shl(written, _c(PW_SHIFT))), b.shl(owner, _c(ITEM_SHIFT)))
            zero = _c(0)
            b.call(self.passes.recorder(), [ctx, ts, lx, ly, lz, site, addr, base, end, size, other,
                                            zero, zero, zero])
        updated = b.select(mine, b.or_(record, bytes_), b.or_(bytes_, b.shl(me, _c(COMPACT_ITEM_SHIFT))))
        with b.if_then(b.icmp_unsigned("!=", updated, record)):
            store_atomic(b, b.trunc(updated, I32), slot, "monotonic", 4)
        following = b.add(granule, _c(1))
        granule.add_incoming(following, b.block)
        b.cbranch(b.icmp_unsigned("<=", following, last), body, leave)
        b.position_at_end(leave)
        b.ret_void()
        return fn

    def _outlined_store(self) -> ir.Function:
        """The full helper of a plain store, out of line (a compact store's rare other path)."""
        fn = self._access_function("spirvkit.check.race.wp.outlined", "noinline", "cold")
        if fn.blocks:
            return fn
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        b.call(self._helper(True, False), list(fn.args))
        b.ret_void()
        return fn


# Memory semantics bits (SPIR-V MemorySemanticsMask).
_ORDERING = 0x2 | 0x4 | 0x8 | 0x10      # Acquire, Release, AcquireRelease, SequentiallyConsistent
_WORKGROUP = 0x100
_CROSS_WORKGROUP = 0x200
FENCE_LOCAL, FENCE_GLOBAL = 1, 2        # the memory a barrier orders (the fence table's bits)


def fences(module, inst) -> int:
    """FENCE_* bits of the memory a barrier orders: what its semantics name (CLK_LOCAL_MEM_FENCE,
    CLK_GLOBAL_MEM_FENCE); both for a work-group function, a barrier naming neither memory, or
    semantics not known at compile time."""
    if inst.opname == "OpGroupAsyncCopy":
        return 0     # issuing a copy orders nothing: its wait does (check_events.py)
    if inst.opname != "OpControlBarrier" or len(inst.words) < 4:
        return FENCE_LOCAL | FENCE_GLOBAL
    value = module.definition(inst.words[3])
    if value is None or value.opname != "OpConstant":
        return FENCE_LOCAL | FENCE_GLOBAL
    semantics = value.words[3]
    bits = (FENCE_LOCAL if semantics & _WORKGROUP else 0) | (FENCE_GLOBAL if semantics & _CROSS_WORKGROUP else 0)
    return bits or FENCE_LOCAL | FENCE_GLOBAL
# Where an instruction's memory semantics operands are (word indices).
_SEMANTICS = {"OpMemoryBarrier": (2,), "OpAtomicStore": (3,), "OpAtomicFlagClear": (3,),
              "OpAtomicCompareExchange": (5, 6), "OpAtomicCompareExchangeWeak": (5, 6)}


_COMPARE_EXCHANGE = ("OpAtomicCompareExchange", "OpAtomicCompareExchangeWeak")


def publishes(module, functions) -> bool:
    """Whether these functions have a fence (or an ordered atomic) on global memory: a way for
    work-groups to order their accesses that this check does not follow."""
    for fn in functions:
        for block in fn.blocks:
            for inst in block.instructions:
                name = inst.opname
                if name != "OpMemoryBarrier" and not name.startswith("OpAtomic"):
                    continue
                for index in _SEMANTICS.get(name, (5,)):
                    if index >= len(inst.words):
                        continue
                    value = module.definition(inst.words[index])
                    if value is None or value.opname != "OpConstant":
                        return True      # not known at compile time: it may be a fence
                    bits = value.words[3]
                    if bits & _CROSS_WORKGROUP and (bits & _ORDERING or name == "OpMemoryBarrier"):
                        return True
    return False


def _conflict(b: ir.IRBuilder, write: bool, atomic: bool, accessed, written, plain, plain_written):
    """The recorded bytes this access conflicts with: at least one side writes, not both atomic."""
    if write:
        return accessed if not atomic else plain
    return plain_written if atomic else written


def _table_entry(b: ir.IRBuilder, fn: ir.Function, fixed, ctx, base, leave: ir.Block) -> ir.Value:
    """The region table's entry for region ``base`` (a pointer to its words), in the block the
    builder is left in; to ``leave`` when the table has none (private memory, or local)."""
    state = fixed.load(_word(b, fixed.load(_word(b, ctx, CONTEXT["checks"]), PTR), CHECK_STATE["races"]), PTR)
    table = fixed.load(_word(b, state, RACE_STATE["table"]), PTR)
    mask = fixed.load(_word(b, state, RACE_STATE["table_mask"]))
    shift = fixed.load(_word(b, state, RACE_STATE["table_shift"]))
    first_slot = b.lshr(b.mul(b.lshr(base, _c(4)), _c(HASH_MULTIPLIER)), shift)
    before = b.block
    probe = fn.append_basic_block("probe")
    b.branch(probe)
    b.position_at_end(probe)
    index = b.phi(I64)
    index.add_incoming(first_slot, before)
    entry = b.gep(table, [b.mul(index, _c(TABLE_ENTRY["_words"]))], source_etype=I64)
    key = fixed.load(_word(b, entry, TABLE_ENTRY["base"]))
    hit = fn.append_basic_block("hit")
    miss = fn.append_basic_block("miss")
    b.cbranch(b.icmp_unsigned("==", key, base), hit, miss)
    b.position_at_end(miss)
    step = fn.append_basic_block("step")
    b.cbranch(b.icmp_unsigned("==", key, _c(0)), leave, step)   # not a global region
    b.position_at_end(step)
    index.add_incoming(b.and_(b.add(index, _c(1)), mask), step)
    b.branch(probe)
    b.position_at_end(hit)
    return entry


def _inside(b: ir.IRBuilder, fixed, entry, addr, base, size) -> ir.Value:
    """Whether the access lies inside its table entry's region (another check may have let an
    out-of-bounds one through: it has no record)."""
    region_end = fixed.load(_word(b, entry, TABLE_ENTRY["end"]))
    return b.and_(b.icmp_unsigned(">=", addr, base), b.icmp_unsigned("<=", b.add(addr, size), region_end))


def _granule_bytes(b: ir.IRBuilder, granule, first, addr, size) -> ir.Value:
    """The mask of the bytes of ``granule`` the access [addr, addr + size) covers."""
    at = b.shl(granule, _c(2))
    low = b.select(b.icmp_unsigned("==", granule, first), b.and_(addr, _c(3)), _c(0))
    high = b.sub(b.add(addr, size), at)
    high = b.select(b.icmp_unsigned("<", high, _c(GRANULE)), high, _c(GRANULE))
    return b.and_(b.sub(b.shl(_c(1), high), _c(1)), b.not_(b.sub(b.shl(_c(1), low), _c(1))))


def _race_state(b: ir.IRBuilder, ctx) -> ir.Value:
    state = b.load(_word(b, ctx, CONTEXT["checks"]), typ=PTR)
    return b.load(_word(b, state, CHECK_STATE["races"]), typ=PTR)


def _work_item(b: ir.IRBuilder, ctx, ts, lx, ly, lz, fixed) -> tuple:
    """(the work-item's id in records, its group's first, the work-items in a group)."""
    sx, sy, sz = (fixed.load(_word(b, ctx, CONTEXT["enqueued_local_size"] + d)) for d in range(3))
    items = b.mul(b.mul(sx, sy), sz)
    item_mask = _c((1 << ITEM_BITS) - 1)
    group_start = b.and_(b.mul(_group_linear(b, ctx, ts, fixed), items), item_mask)
    me = b.and_(b.add(group_start, b.add(b.mul(b.add(b.mul(lz, sy), ly), sx), lx)), item_mask)
    return me, group_start, items


class _Fixed:
    """Loads of words fixed for the whole launch (the context, the thread's local block, the
    race state and its table), marked ``!invariant.load`` so LLVM may hoist them past the
    shadow's stores, which it could not tell apart from them otherwise."""

    def __init__(self, ml, b: ir.IRBuilder):
        self.b, self.empty = b, ml.llvm.add_metadata([])

    def load(self, ptr, typ=I64) -> ir.Value:
        value = self.b.load(ptr, typ=typ)
        value.set_metadata("invariant.load", self.empty)
        return value


def _group_linear(b: ir.IRBuilder, ctx, ts, fixed=None) -> ir.Value:
    gx, gy, gz = (b.load(_word(b, ts, THREAD["group_id"] + d), typ=I64) for d in range(3))
    load = fixed.load if fixed is not None else (lambda ptr: b.load(ptr, typ=I64))
    nx, ny = (load(_word(b, ctx, CONTEXT["num_groups"] + d)) for d in range(2))
    return b.add(b.mul(b.add(b.mul(gz, ny), gy), nx), gx)
