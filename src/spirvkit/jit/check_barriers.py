"""The barriers check: every work-item of a group must reach the same barrier (or work-group
collective) the same number of times.

An async work-group copy is a collective too, done once for the group with the first work-item's
operands: work-items that pass it another destination, source, count or stride (a size or
offset computed from the local id) are reported as divergence at it (``same_operands``).

A kernel with barriers runs region by region (regions.py): after each round every work-item
has stopped at a barrier or collective, and its state is the region that barrier resumes, or
DONE once it has returned. The group function already takes the lowest and highest state of
the round to pick the next region; this check compares them: a group whose work-items stopped
in different states did not all reach one barrier (divergent control flow around it, two
different barriers, a barrier in a loop with different trip counts: some items wait at it
while others have left the loop). That costs one compare per round; finding the two
work-items to name is a scan done only when they differ.

Loop cuts (loop_cuts.py) are barriers the executor adds itself, where work-items may
legitimately wait in different states; they are numbered first, so a round whose lowest state
is a cut is not checked (once the lowest state is a real barrier or DONE, all must be equal).
"""

from __future__ import annotations

from llvmlite import ir

from .collectives import first_waiting
from .loop_cuts import is_cut
from .regions import DONE

I32, I64 = ir.IntType(32), ir.IntType(64)

NO_SITE = -1   # the state is a loop cut (not checked) or DONE: the work-item has returned


class BarrierCheck:
    def __init__(self, passes):
        self.passes = passes
        self.table = None     # state -> site of its barrier (an LLVM constant array)
        self.cuts = 0

    def _site_table(self, kb, barriers) -> ir.GlobalVariable:
        """One site per real barrier (kind 'barrier'), as a table indexed by region state."""
        if self.table is None:
            ml = self.passes.ml
            sites = [NO_SITE]
            for _, _, inst in barriers:
                if is_cut(inst):
                    self.cuts += 1
                    sites.append(NO_SITE)
                else:
                    sites.append(ml.site(inst, "barrier", kb.spv_fn))
            array = ir.ArrayType(I64, len(sites))
            table = ir.GlobalVariable(ml.llvm, array, ml.llvm.get_unique_name("spirvkit.check.barrier_sites"))
            table.global_constant = True
            table.linkage = "internal"
            table.initializer = ir.Constant(array, sites)
            self.table = table
        return self.table

    def rendezvous(self, kb, b: ir.IRBuilder, fn, ctx, ts, states, count, sizes, low, high, barriers) -> None:
        """After a round: records a finding when the work-items stopped in different states."""
        table = self._site_table(kb, barriers)
        diverged = b.and_(b.icmp_unsigned("!=", low, high),
                          b.icmp_unsigned(">", low, ir.Constant(I32, self.cuts)))
        with b.if_then(diverged, likely=False):
            def at(state):
                return lambda i: b.icmp_unsigned("==", b.load(b.gep(states, [i], source_etype=I32), typ=I32), state)

            first, _ = first_waiting(b, fn, count, at(low))
            other, _ = first_waiting(b, fn, count, at(high))

            def site_of(state):
                return b.load(b.gep(table, [ir.Constant(I64, 0), b.zext(state, I64)]), typ=I64)

            returned = b.icmp_unsigned("==", high, ir.Constant(I32, DONE))
            other_site = b.select(returned, ir.Constant(I64, NO_SITE),
                                  site_of(b.select(returned, ir.Constant(I32, 0), high)))
            sx, sy, _ = sizes
            zero = ir.Constant(I64, 0)
            b.call(self.passes.recorder(), [ctx, ts, *_local_ids(b, first, sx, sy), site_of(low),
                                            zero, zero, zero, zero, other_site, *_local_ids(b, other, sx, sy)])

    def same_operands(self, kb, b: ir.IRBuilder, fn, ctx, ts, inst, in_slots, data, waiting, count, sizes) -> None:
        """A work-group function whose operands every work-item must pass alike (an async copy:
        the group does it once, with the first waiting work-item's): records a finding naming
        that work-item and the first one that passed another destination, source, count or
        stride. The group still copies with the first one's operands."""
        first, _ = first_waiting(b, fn, count, waiting)
        slots = [parts[0] for parts in in_slots]     # (a pointer's first part: its address)

        def as_int(value):
            return b.ptrtoint(value, I64) if isinstance(value.type, ir.PointerType) else value

        def differs(i):
            out = ir.Constant(ir.IntType(1), 0)
            for slot in slots:
                mine = as_int(b.load(data.at(slot, i), typ=slot.llvm))
                theirs = as_int(b.load(data.at(slot, first), typ=slot.llvm))
                out = b.or_(out, b.icmp_unsigned("!=", mine, theirs))
            return b.and_(waiting(i), out)

        other, found = first_waiting(b, fn, count, differs)
        with b.if_then(found, likely=False):
            site = ir.Constant(I64, self.passes.ml.site(inst, "barrier arguments", kb.spv_fn))
            sx, sy, _ = sizes
            zero = ir.Constant(I64, 0)
            b.call(self.passes.recorder(), [ctx, ts, *_local_ids(b, first, sx, sy), site, zero, zero, zero, zero,
                                            ir.Constant(I64, NO_SITE), *_local_ids(b, other, sx, sy)])


def _local_ids(b: ir.IRBuilder, flat, sx, sy) -> list[ir.Value]:
    """The local ids of the work-item with local linear index ``flat``."""
    return [b.urem(flat, sx), b.urem(b.udiv(flat, sx), sy), b.udiv(flat, b.mul(sx, sy))]
