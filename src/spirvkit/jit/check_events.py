"""The events check, and the group's side of async work-group copies when checks are on.

An async work-group copy (OpGroupAsyncCopy) returns an event; wait_group_events
(OpGroupWaitEvents) waits for a list of them. Both are work-group functions (collectives.py):
the group's part runs when every work-item has reached them. Without checks beyond bounds a
copy is done when the group reaches it and the wait, with nothing left to do, is dropped
(collectives.without_waits: no synchronisation point, no cost). With them, the
group keeps a small table of its copies, per work-group run (allocas of the group function,
reset for every group), and does what Oclgrind does:

- Event identity. A copy given no event (0) gets a new one: the lowest id in 1..63 that no
  pending copy holds; a copy given an event joins it (async_work_group_copy(..., event) returns
  that event). The event value is the id. Ids beyond (more than 63 events pending at once) are
  UNTRACKED: such a copy is done at once and waits for it are not checked.
- The copy is done where the group waits for its event (copies in issue order), not where it is
  issued: a work-item that touches its memory anywhere between the barrier before the copy and
  the wait races with it, and the races check records the copy's accesses there, in the
  interval that ends at the wait (the copy itself orders nothing: check_races.fences). Work-items
  that took no part in a divergent copy wait for it too. A copy never waited for is never done
  (a kernel that does that is wrong: it is this check's finding). When the table is full
  (MAX_PENDING copies pending) a copy is done at once.
- ``events`` findings: a wait for an event no pending copy holds (0, one already waited for:
  Oclgrind's "invalid wait event"; an event listed twice in one wait is fine), and a
  work-group that returns with copies whose events nobody waited for.
- ``barriers`` findings: work-items of a group that wait for different lists of events (the
  group waits for the first waiting work-item's list, as Oclgrind does); work-items that do not
  all reach the wait are the barriers check's own finding.

The wait's part runs at the rendezvous of the round that stopped at it (check_passes), before
the races check starts the next interval: so the copies' accesses belong to the interval the
wait ends.
"""

from __future__ import annotations

from llvmlite import ir

from .check_passes import I1, I32, I64, PTR
from .collectives import GroupCopy, GroupData, first_waiting
from .intrinsics import intrinsic
from .loops import CountedLoop

MAX_EVENT = 63           # event ids 1..63 are tracked (one bit each of the pending mask)
UNTRACKED = 64           # the event of a copy done at once, not tracked
MAX_PENDING = 32         # copies kept until their wait
# One copy of the table (i64 words).
FIELDS = ("event", "site", "daddr", "dbase", "dend", "dspan", "saddr", "sbase", "send", "sspan",
          "count", "stride", "esize", "dst_strided", "whole")
F = {name: k for k, name in enumerate(FIELDS)}
# The findings' words (runtime/check_findings.py).
MESSAGES = {
    "unwaited event": "the work-group (of this work-item) returned without waiting for the event of this async "
                      "work-group copy: wait_group_events must wait for every copy's event",
    "invalid event": "wait_group_events waits for an event that no pending async work-group copy of the "
                     "work-group holds (0, or an event already waited for)",
}


class _GroupState:
    """The allocas of one group function (see the module docstring)."""

    def __init__(self, fn: ir.Function):
        entry = fn.entry_basic_block
        b = ir.IRBuilder(entry)
        b.position_at_start(entry)
        self.pending = b.alloca(I64, name="events.pending")      # bit k: event k has copies not waited for
        self.used = b.alloca(I64, name="events.used")            # table entries filled
        self.origin = b.alloca(ir.ArrayType(I64, MAX_EVENT + 1), name="events.origin")  # event -> copy's site
        self.table = b.alloca(ir.ArrayType(ir.ArrayType(I64, len(FIELDS)), MAX_PENDING), name="events.table")
        self.mask = b.alloca(I64, name="events.mask")
        self.flag = b.alloca(I1, name="events.flag")
        self.other = b.alloca(I64, name="events.other")
        self.differs = b.alloca(I1, name="events.differs")
        self.cursor = b.alloca(I64, name="events.cursor")
        b.store(ir.Constant(I64, 0), self.pending)
        b.store(ir.Constant(I64, 0), self.used)

    def field(self, b: ir.IRBuilder, entry, name: str):
        return b.gep(self.table, [ir.Constant(I32, 0), entry, ir.Constant(I32, F[name])])


def _c(value: int) -> ir.Constant:
    return ir.Constant(I64, value)


class EventCheck:
    def __init__(self, passes):
        self.passes = passes
        self._states: dict[str, _GroupState] = {}

    @property
    def reports(self) -> bool:
        return "events" in self.passes.checks

    def _state(self, fn: ir.Function) -> _GroupState:
        if fn.name not in self._states:
            self._states[fn.name] = _GroupState(fn)
        return self._states[fn.name]

    # ----- the copy ---------------------------------------------------------------------------
    def copy(self, b: ir.IRBuilder, fn, ctx, ts, inst, spv_fn, copy: GroupCopy, sides, whole, claimed, event_in):
        """The group reached an async copy (collectives._async_copy; its bounds and the other
        checks' findings tested): gives it its event, keeps it until the wait (or does it now
        when the table is full or the event untracked). Returns the event (a pointer)."""
        ml = self.passes.ml
        if sides is None:      # (checks beyond bounds come with bounds: never without them)
            copy.perform(ml, b, fn, whole, None)
            return ir.Constant(PTR, None)
        st = self._state(fn)
        pending = b.load(st.pending, typ=I64)
        given = b.ptrtoint(event_in, I64)
        free = b.and_(b.not_(pending), _c(~1))                   # ids 1..63 not pending
        lowest = b.call(intrinsic(ml.llvm, "llvm.cttz", I64, [I64, I1]), [free, ir.Constant(I1, 0)])
        fresh = b.select(b.icmp_unsigned("==", free, _c(0)), _c(UNTRACKED), lowest)
        event = b.select(b.icmp_unsigned("!=", given, _c(0)), given, fresh)
        tracked = b.and_(b.icmp_unsigned(">=", event, _c(1)), b.icmp_unsigned("<=", event, _c(MAX_EVENT)))
        with b.if_then(tracked):
            b.store(b.or_(pending, b.shl(_c(1), event)), st.pending)
            b.store(_c(ml.site(inst, "unwaited event", spv_fn)),
                    b.gep(st.origin, [ir.Constant(I32, 0), event]))
        done = b.not_(claimed) if claimed is not None else ir.Constant(I1, 1)
        bounds = [s[1:3] for s in sides]
        with b.if_then(done):
            used = b.load(st.used, typ=I64)
            keep = b.and_(tracked, b.icmp_unsigned("<", used, _c(MAX_PENDING)))
            with b.if_else(keep) as (later, now):
                with later:
                    values = {"event": event, "site": _c(ml.site(inst, "data race", spv_fn)),
                              "count": copy.n, "stride": copy.stride, "esize": copy.esize,
                              "dst_strided": b.zext(copy.dst_strided, I64), "whole": b.zext(whole, I64)}
                    for side, names in zip(sides, (("daddr", "dbase", "dend", "dspan"),
                                                   ("saddr", "sbase", "send", "sspan"))):
                        values.update(zip(names, side))
                    for name, value in values.items():
                        b.store(value, st.field(b, used, name))
                    b.store(b.add(used, _c(1)), st.used)
                with now:
                    copy.perform(ml, b, fn, whole, bounds)
        return b.inttoptr(event, PTR)

    # ----- the wait, and the group's end ---------------------------------------------------------
    def rendezvous(self, kb, b: ir.IRBuilder, fn, ctx, ts, states, count, sizes, low, barriers) -> None:
        """After a round: when the work-items wait at a wait_group_events, the group's part of it;
        when they have all returned, the events nobody waited for."""
        from .regions import DONE

        copies = any(inst.opname == "OpGroupAsyncCopy" for _, _, inst in barriers)
        waits = [(k + 1, inst) for k, (_, _, inst) in enumerate(barriers) if inst.opname == "OpGroupWaitEvents"]
        if not copies and not waits:
            return
        for state, inst in waits:
            with b.if_then(b.icmp_unsigned("==", low, ir.Constant(low.type, state))):
                self._wait(kb, b, fn, ctx, ts, states, count, sizes, low, inst)
        if self.reports:
            st = self._state(fn)
            pending = b.load(st.pending, typ=I64)
            unwaited = b.and_(b.icmp_unsigned("==", low, ir.Constant(low.type, DONE)),
                              b.icmp_unsigned("!=", pending, _c(0)))
            with b.if_then(unwaited, likely=False):
                cttz = intrinsic(self.passes.ml.llvm, "llvm.cttz", I64, [I64, I1])
                event = b.call(cttz, [pending, ir.Constant(I1, 0)])
                site = b.load(b.gep(st.origin, [ir.Constant(I32, 0), event]), typ=I64)
                zero = _c(0)
                b.call(self.passes.recorder(), [ctx, ts, zero, zero, zero, site, zero, zero, zero, zero, event,
                                                zero, zero, zero])

    def _wait(self, kb, b: ir.IRBuilder, fn, ctx, ts, states, count, sizes, low, inst) -> None:
        from .check_barriers import NO_SITE, _local_ids

        ml = self.passes.ml
        st = self._state(fn)
        # The records follow the work-items' states (regions.build_region_group's layout).
        state_bytes = b.and_(b.add(b.mul(count, _c(4)), _c(63)), _c(~63))
        data = GroupData(b, b.gep(states, [state_bytes], source_etype=ir.IntType(8)), count)
        num_slot, list_slots = (parts[0] for parts in kb.layout.collective_inputs[inst.offset])

        def waiting(i):
            return b.icmp_unsigned("==", b.load(b.gep(states, [i], source_etype=I32), typ=I32), low)

        def events_of(i):
            n = b.load(data.at(num_slot, i), typ=num_slot.llvm)
            return (b.zext(n, I64) if n.type.width < 64 else n), b.load(data.at(list_slots, i), typ=PTR)

        def event(events, j):
            return b.load(b.gep(events, [j], source_etype=I64), typ=I64)

        first, _ = first_waiting(b, fn, count, waiting)
        n_first, list_first = events_of(first)
        sx, sy, _ = sizes
        zero = _c(0)
        # The events the group waits for: the first work-item's list.
        pending = b.load(st.pending, typ=I64)
        b.store(zero, st.mask)
        b.store(ir.Constant(I1, 0), st.flag)
        with CountedLoop(b, fn, n_first, "wait.events") as j:
            e = event(list_first, j)
            tracked = b.and_(b.icmp_unsigned(">=", e, _c(1)), b.icmp_unsigned("<=", e, _c(MAX_EVENT)))
            bit = b.select(tracked, b.shl(_c(1), b.and_(e, _c(MAX_EVENT))), zero)
            valid = b.or_(b.icmp_unsigned("==", e, _c(UNTRACKED)), b.icmp_unsigned("!=", b.and_(pending, bit), zero))
            with b.if_then(b.not_(valid), likely=False):
                b.store(ir.Constant(I1, 1), st.flag)
                b.store(e, st.other)
            b.store(b.or_(b.load(st.mask, typ=I64), bit), st.mask)
        if self.reports:
            with b.if_then(b.load(st.flag, typ=I1), likely=False):
                site = _c(ml.site(inst, "invalid event", kb.spv_fn))
                b.call(self.passes.recorder(), [ctx, ts, *_local_ids(b, first, sx, sy), site, zero, zero, zero,
                                                zero, b.load(st.other, typ=I64), zero, zero, zero])
        if self.passes.barriers is not None:
            self._same_events(kb, b, fn, ctx, ts, st, count, sizes, waiting, events_of, event, first, n_first,
                              list_first, inst, NO_SITE, _local_ids)
        # The copies of those events, in issue order; the others move up, in the same order.
        mask = b.load(st.mask, typ=I64)
        used = b.load(st.used, typ=I64)
        b.store(zero, st.cursor)
        with CountedLoop(b, fn, used, "wait.copies") as r:
            e = b.load(st.field(b, r, "event"), typ=I64)
            hit = b.icmp_unsigned("!=", b.and_(mask, b.shl(_c(1), b.and_(e, _c(MAX_EVENT)))), zero)
            with b.if_else(hit) as (waited, kept):
                with waited:
                    self._perform(b, fn, ctx, ts, st, r)
                with kept:
                    to = b.load(st.cursor, typ=I64)
                    for name in FIELDS:
                        b.store(b.load(st.field(b, r, name), typ=I64), st.field(b, to, name))
                    b.store(b.add(to, _c(1)), st.cursor)
        b.store(b.load(st.cursor, typ=I64), st.used)
        b.store(b.and_(pending, b.not_(mask)), st.pending)

    def _perform(self, b: ir.IRBuilder, fn, ctx, ts, st, r) -> None:
        """Table entry ``r``: its accesses for the races check, then the copy."""
        ml = self.passes.ml

        def get(name):
            return b.load(st.field(b, r, name), typ=I64)

        sides = [tuple(get(n) for n in names) for names in (("daddr", "dbase", "dend", "dspan"),
                                                             ("saddr", "sbase", "send", "sspan"))]
        whole = b.trunc(get("whole"), I1)
        if self.passes.races is not None:
            self.passes.races.group_copy(b, ctx, ts, None, None, sides, None, site=get("site"))
        copy = GroupCopy(b.inttoptr(get("daddr"), PTR), b.inttoptr(get("saddr"), PTR), get("count"), get("stride"),
                         get("esize"), b.trunc(get("dst_strided"), I1))
        copy.perform(ml, b, fn, whole, [side[1:3] for side in sides])

    def _same_events(self, kb, b, fn, ctx, ts, st, count, sizes, waiting, events_of, event, first, n_first,
                     list_first, inst, no_site, local_ids) -> None:
        """The barriers check: every waiting work-item waits for the first one's list. A quick
        pass first (no early exit, no inner loop: counts and first events only, which settles
        the usual wait for one event), the exact scan only when it leaves a doubt."""
        one = ir.Constant(n_first.type, 1)

        def first_event(n, events, valid):
            # (Read only from a waiting work-item's list of one event or more: another
            # work-item's slots hold nothing of this wait, an empty list may be any pointer.)
            return event(b.select(b.and_(valid, b.icmp_unsigned(">=", n, one)), events, st.mask), _c(0))

        mine = first_event(n_first, list_first, ir.Constant(I1, 1))
        b.store(ir.Constant(I1, 0), st.flag)
        with CountedLoop(b, fn, count, "wait.quick") as i:
            n, events = events_of(i)
            here = waiting(i)
            doubt = b.or_(b.or_(b.icmp_unsigned("!=", n, n_first), b.icmp_unsigned(">", n, one)),
                          b.icmp_unsigned("!=", first_event(n, events, here), mine))
            b.store(b.or_(b.load(st.flag, typ=I1), b.and_(here, doubt)), st.flag)
        with b.if_then(b.load(st.flag, typ=I1), likely=False):
            b.store(ir.Constant(I1, 0), st.flag)
            with CountedLoop(b, fn, count, "wait.same") as i:
                with b.if_then(b.and_(waiting(i), b.not_(b.load(st.flag, typ=I1)))):
                    n, events = events_of(i)
                    b.store(b.icmp_unsigned("!=", n, n_first), st.differs)
                    with b.if_then(b.not_(b.load(st.differs, typ=I1))):
                        with CountedLoop(b, fn, n, "wait.same.events") as j:
                            with b.if_then(b.icmp_unsigned("!=", event(events, j), event(list_first, j))):
                                b.store(ir.Constant(I1, 1), st.differs)
                    with b.if_then(b.load(st.differs, typ=I1)):
                        b.store(ir.Constant(I1, 1), st.flag)
                        b.store(i, st.other)
        with b.if_then(b.load(st.flag, typ=I1), likely=False):
            sx, sy, _ = sizes
            zero = _c(0)
            site = _c(self.passes.ml.site(inst, "barrier arguments", kb.spv_fn))
            b.call(self.passes.recorder(), [ctx, ts, *local_ids(b, first, sx, sy), site, zero, zero, zero, zero,
                                            _c(no_site), *local_ids(b, b.load(st.other, typ=I64), sx, sy)])
