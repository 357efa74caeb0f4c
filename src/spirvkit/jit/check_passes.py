"""Dynamic checks beyond bounds: the one narrow interface the lowering calls.

Bounds checks are part of every checked access (FunctionLowering.check_access). The other
checks (issue 18: barriers, access, pointers, races, uninitialised values) are
instrumentation passes, one module each, that observe these events of the lowering:

- ``access``: a checked load, store, atomic or copy is about to happen (at the point where its
  bounds test is emitted). A pass records its findings and returns an i1 that is true when the
  access must then be skipped (never performed: the memory may really be read-only, the pointer
  null); the bounds fault path is not taken for it. A finding that is harmless to perform (a
  read of write-only memory, a misaligned load or store) is recorded but not claimed: the
  access happens, as on Oclgrind, so the outputs hold what it did.
- ``group_copy``: an async work-group copy, done once for the group (collectives.py), is about
  to happen: the same as ``access``, for both of its ranges.
- ``rendezvous``: in a kernel run region by region (regions.py), every work-item of the group
  has run up to its next barrier or collective, or returned.
- (async copies and their events: check_events.py keeps a build's copies until the group waits
  for them, at a ``rendezvous``, and reports the ``events`` findings.)
- ``exchanged``: an atomic compare-exchange has run; whether it wrote is known only now.

The races check (check_races.py) observes accesses and group copies without claiming them (a
race does not stop an access), after the other passes: an access they skip is not recorded.

A finding is recorded in the launch's findings table (CHECK_STATE below, filled by
runtime/check_findings.py): one record per *site* (instruction and kind), so findings are
deduplicated per (kind, instruction) for free; the first work-item to report a site fills the
record, the others only count. Recording is a call on a cold path: a kernel compiled with
checks beyond bounds is not vectorised across its accessing loops, which is the price of those
checks (the default, bounds-only build never contains any of this).
"""

from __future__ import annotations

from llvmlite import ir

from .abi import CONTEXT, THREAD, _layout

I1, I32, I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()

# The checks a launch can ask for; IMPLEMENTED are compiled in, the others are refused with a
# "not supported yet" error rather than silently accepted.
CHECK_NAMES = ("bounds", "races", "uninitialized", "barriers", "pointers", "access", "events")
IMPLEMENTED = ("bounds", "races", "barriers", "pointers", "access", "uninitialized", "events")
# Not a check: a build variant of "uninitialized" for launches where no buffer is marked
# uninitialised (the host marks them), so that its global memory needs no tracking.
UNMARKED = "unmarked"

# The check state of a launch (int64 words; CONTEXT["checks"] holds its address).
CHECK_STATE = _layout([
    ("findings", 1),        # address of the findings table: one FINDING record per site
    ("capacity", 1),        # records in it (the kernel's site count)
    ("read_only", 1),       # address of one word per kernel parameter: the region base of a
                            # buffer the kernel must not write (read-only array, spirvkit.read_only,
                            # __constant), else NOT_READ_ONLY
    ("races", 1),           # address of the races check's state (check_races.RACE_STATE), or 0
    ("uninit", 1),          # uninitialized check: one word per parameter, the base of a buffer the
                            # host made with spirvkit.uninitialized() (its shadow follows it), else
                            # NOT_READ_ONLY
    ("salt", 1),            # uninitialized check: varies the local-memory tags launch by launch
    ("write_only", 1),      # access check: one word per parameter, the region base of a buffer the
                            # host declared write-only (spirvkit.write_only), else NOT_READ_ONLY;
                            # 0 (no table) when the launch has none
])
NOT_READ_ONLY = -1          # never a region's base

# One finding record (int64 words).
FINDING = _layout([
    ("count", 1),           # times this site was reported (atomic add; 0: never)
    ("global_id", 3),       # the first reporting work-item
    ("address", 1),
    ("base", 1),            # the region the pointer was derived from
    ("end", 1),
    ("size", 1),            # bytes accessed
    ("detail", 1),          # check-specific: required alignment, or the other site (barriers)
    ("other_id", 3),        # barriers: a work-item that went elsewhere
])


def mode_checks(mode: str) -> tuple[str, frozenset]:
    """A compile mode ('checked', 'report', 'unchecked', optionally with '+check,check') split
    into its base mode and the checks beyond bounds it compiles in."""
    base, _, extra = mode.partition("+")
    return base, frozenset(c for c in extra.split(",") if c)


def mode_with_checks(base: str, checks) -> str:
    extra = sorted(set(checks) - {"bounds"})
    return base if not extra else f"{base}+{','.join(extra)}"


def pointer_operand(inst) -> int | None:
    """The pointer a load, store or atomic accesses memory through."""
    if inst is None:
        return None
    index = {"OpLoad": 3, "OpStore": 1, "OpAtomicStore": 1, "OpAtomicFlagClear": 1}.get(inst.opname)
    if index is None and inst.opname.startswith("OpAtomic"):
        index = 3
    return inst.words[index] if index is not None and index < len(inst.words) else None


def pointer_storage(fl, kind: str) -> str | None:
    """The storage class of the pointer the current load, store or atomic accesses memory
    through, when its type says (None for a copy, or an operand without a type here)."""
    pointer = pointer_operand(fl.current) if kind != "copy" else None
    t = fl.ml.module.type_of(pointer) if pointer is not None else None
    return fl.types[t.result_id].storage if t is not None else None


def _word(b: ir.IRBuilder, base: ir.Value, index: int) -> ir.Value:
    return b.gep(base, [ir.Constant(I64, index)], source_etype=I64)


class CheckPasses:
    """The passes a compile asked for, as the lowering sees them (``ml.check_passes``; None
    when only bounds are checked)."""

    def __init__(self, ml, checks: frozenset):
        from .check_access import AccessCheck
        from .check_barriers import BarrierCheck
        from .check_pointers import PointerCheck

        self.ml = ml
        self.checks = checks
        self.kernel_params = 0     # the kernel's parameter count (set by compiler.lower_kernel)
        self.kernel_function = None   # its SPIR-V function (the same)
        self.access_passes = []
        if "pointers" in checks:
            self.access_passes.append(PointerCheck(self))
        if "access" in checks:
            self.access_passes.append(AccessCheck(self))
        self.barriers = BarrierCheck(self) if "barriers" in checks else None
        self.uninit = None        # the uninitialized check (check_uninit.py): also sees every value
        if "uninitialized" in checks:
            from .check_uninit import UninitCheck

            self.uninit = UninitCheck(self)
            self.access_passes.append(self.uninit)
        from .check_events import EventCheck

        # Async copies and their events (check_events.py): kept until the group waits for them
        # in every build with checks beyond bounds; its findings only with "events".
        self.events = EventCheck(self)
        self.races = None
        if "races" in checks:   # called last: it observes the accesses the others let happen
            from .check_races import RaceCheck

            self.races = RaceCheck(self)

    # ----- events ---------------------------------------------------------------------------
    def access(self, fl, ptr, addr: ir.Value, base: ir.Value, end: ir.Value, size: ir.Value, kind: str,
               align: int | None = None):
        """Emits the passes' tests of one access; returns an i1, true when one of them found
        it (its finding is recorded there), or None when no pass looks at this access.
        ``align``: the alignment the instruction may assume (FunctionLowering.check_access)."""
        claimed = None
        for check in self.access_passes:
            found = check.access(fl, ptr, addr, base, end, size, kind, align)
            if found is not None:
                claimed = found if claimed is None else fl.builder.or_(claimed, found)
        if self.races is not None:
            self.races.access(fl, ptr, addr, base, end, size, kind, claimed)
        return claimed

    def group_copy(self, b: ir.IRBuilder, ctx, ts, inst, spv_fn, sides) -> ir.Value | None:
        """An async work-group copy (collectives.py), done once for the group: ``sides`` is
        ((addr, base, end, span) of the destination, the same of the source), as i64. Returns
        an i1, true when a pass found it (recorded, for the group's first work-item): the copy
        is then skipped."""
        claimed = None
        for check in self.access_passes:
            found = check.group_copy(self, b, ctx, ts, inst, spv_fn, sides)
            if found is not None:
                claimed = found if claimed is None else b.or_(claimed, found)
        # (The races check records the copy's accesses where the group waits for it: check_events.)
        return claimed

    def exchanged(self, fl, ptr, size: int, succeeded: ir.Value) -> None:
        """An atomic compare-exchange just ran (in bounds, not claimed): ``succeeded`` (i1) says
        whether it wrote (the races check counts only a successful one as a write)."""
        if self.races is not None:
            b = fl.builder
            addr, base, end = (b.ptrtoint(p, I64) for p in (ptr.addr, ptr.base, ptr.end))
            self.races.exchanged(fl, addr, base, end, ir.Constant(I64, size), succeeded)

    def same_operands(self, kb, b, fn, ctx, ts, inst, in_slots, data, waiting, count, sizes) -> None:
        """An async work-group copy about to be done for the group (collectives.py): the
        barriers check compares every waiting work-item's operands."""
        if self.barriers is not None:
            self.barriers.same_operands(kb, b, fn, ctx, ts, inst, in_slots, data, waiting, count, sizes)

    def report_group(self, b: ir.IRBuilder, ctx, ts, found, site: int, addr, base, end, size) -> None:
        """``report`` for a group operation (the work-item named is the group's first)."""
        zero = ir.Constant(I64, 0)
        with b.if_then(found, likely=False):
            b.call(self.recorder(), [ctx, ts, zero, zero, zero, ir.Constant(I64, site), addr, base, end,
                                     _i64(b, size), zero, zero, zero, zero])

    def rendezvous(self, kb, b, fn, ctx, ts, states, count, sizes, low, high, barriers) -> None:
        if self.barriers is not None:
            self.barriers.rendezvous(kb, b, fn, ctx, ts, states, count, sizes, low, high, barriers)
        self.events.rendezvous(kb, b, fn, ctx, ts, states, count, sizes, low, barriers)   # before races:
        if self.races is not None:      # the copies it does belong to the interval the wait ends
            self.races.rendezvous(b, ctx, ts, low, barriers)

    # ----- recording --------------------------------------------------------------------------
    def report(self, fl, found: ir.Value, site: int, addr, base, end, size, detail) -> None:
        """If ``found``: records a finding at ``site`` for the current work-item (a cold call)."""
        b = fl.builder
        zero = ir.Constant(I64, 0)
        with b.if_then(found, likely=False):
            b.call(self.recorder(), [fl.ctx, fl.ts, fl.lx, fl.ly, fl.lz, ir.Constant(I64, site),
                                     addr, base, end, _i64(b, size), _i64(b, detail), zero, zero, zero])

    def recorder(self) -> ir.Function:
        """finding(ctx, ts, lx, ly, lz, site, addr, base, end, size, detail, olx, oly, olz):
        counts the site and, for its first report, records the work-item (and ``o*``: the local
        ids of another one, for barriers) and the access."""
        fn = self.ml.llvm.globals.get("spirvkit.check.finding")
        if fn is not None:
            return fn
        fn = ir.Function(self.ml.llvm, ir.FunctionType(ir.VoidType(), [PTR, PTR] + [I64] * 12),
                         name="spirvkit.check.finding")
        fn.linkage = "internal"
        fn.attributes.add("noinline")
        fn.attributes.add("cold")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        ctx, ts, lx, ly, lz, site, addr, base, end, size, detail, olx, oly, olz = fn.args
        record = self._record(b, ctx, site)
        old = b.atomic_rmw("add", _word(b, record, FINDING["count"]), ir.Constant(I64, 1), "monotonic")
        with b.if_then(b.icmp_unsigned("==", old, ir.Constant(I64, 0))):
            for d, gid in enumerate(global_id(b, ctx, ts, (lx, ly, lz))):
                b.store(gid, _word(b, record, FINDING["global_id"] + d))
            for d, gid in enumerate(global_id(b, ctx, ts, (olx, oly, olz))):
                b.store(gid, _word(b, record, FINDING["other_id"] + d))
            for name, value in (("address", addr), ("base", base), ("end", end), ("size", size),
                                ("detail", detail)):
                b.store(value, _word(b, record, FINDING[name]))
        b.ret_void()
        return fn

    def _record(self, b: ir.IRBuilder, ctx, site) -> ir.Value:
        state = b.load(_word(b, ctx, CONTEXT["checks"]), typ=PTR)
        table = b.load(_word(b, state, CHECK_STATE["findings"]), typ=PTR)
        return b.gep(table, [b.mul(site, ir.Constant(I64, FINDING["_words"]))], source_etype=I64)


def global_id(b: ir.IRBuilder, ctx, ts, local_ids) -> list[ir.Value]:
    """The global id of the work-item with these local ids in the thread's current group."""
    out = []
    for d, local in enumerate(local_ids):
        group = b.load(_word(b, ts, THREAD["group_id"] + d), typ=I64)
        size = b.load(_word(b, ctx, CONTEXT["enqueued_local_size"] + d), typ=I64)
        offset = b.load(_word(b, ctx, CONTEXT["global_offset"] + d), typ=I64)
        out.append(b.add(b.add(b.mul(group, size), local), offset))
    return out


def _i64(b: ir.IRBuilder, value) -> ir.Value:
    if isinstance(value, int):
        return ir.Constant(I64, value)
    if value.type == PTR:
        return b.ptrtoint(value, I64)
    if value.type.width < 64:
        return b.zext(value, I64)
    return value
