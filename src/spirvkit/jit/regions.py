"""Kernels with barriers as barrier-delimited regions run by work-item loops.

A barrier splits the kernel into regions: region 0 runs from the entry, region k+1 from just
after the k-th barrier, each until the work-item reaches a barrier or returns. Each region is
lowered into its own function that returns where the work-item stopped; the group function
runs one region for every work-item in a loop (which LLVM can vectorise, as PoCL's work-item
loops), then the next region, until every work-item has returned.

What crosses a barrier lives in a per-work-item record (structure of arrays, so consecutive
work-items' values are adjacent): every SSA value that is live after some barrier is stored
there when defined and loaded where used, and the kernel's private variables live there too.
Barriers reached through a function call are inlined into the kernel first (inline_sync.py).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from llvmlite import ir

from ..spirv.module import Function
from .function import I1, I8, I32, I64, PTR, FunctionLowering, Ptr, successors
from . import collectives, private_shadows
from .collectives import is_collective, is_sync
from .collectives import operands as collective_operands
from .check_uninit import record_size   # (the uninitialized check doubles private variables)
from .intrinsics import intrinsic
from .loop_cuts import is_cut
from .types import abi_size

OP_PHI, OP_VARIABLE = 245, 59
DONE = 0xFFFFFFFF        # a work-item's state once it has returned
SLOT_ALIGN = 16


def live_after_barriers(fn: Function) -> set[int]:
    """The function-local values live just after some barrier (backward liveness on the CFG,
    phi operands counted as used at the end of their predecessor)."""
    local = {p.words[2] for p in fn.parameters}
    for block in fn.blocks:
        for inst in block.instructions:
            if inst.result_id is not None:
                local.add(inst.result_id)
    params = {p.words[2] for p in fn.parameters}
    local -= params                       # parameters reach every region as arguments
    by_id = {b.id: b for b in fn.blocks}
    succ = {b.id: [s for s in successors(b) if s in by_id] for b in fn.blocks}
    phi_uses: dict[tuple[int, int], set[int]] = {}   # (pred, block) -> ids used by block's phis on that edge
    gen: dict[int, set[int]] = {}
    kill: dict[int, set[int]] = {}
    for b in fn.blocks:
        used, defined = set(), set()
        for inst in b.instructions:
            if inst.opcode == OP_PHI:
                w = inst.words
                for i in range(3, len(w) - 1, 2):
                    if w[i] in local:
                        phi_uses.setdefault((w[i + 1], b.id), set()).add(w[i])
                defined.add(w[2])
                continue
            for u in inst.id_operands():
                if u in local and u not in defined:
                    used.add(u)
            if inst.result_id is not None:
                defined.add(inst.result_id)
        gen[b.id], kill[b.id] = used, defined
    phi_defs = {b.id: {i.words[2] for i in b.instructions if i.opcode == OP_PHI} for b in fn.blocks}
    live_in = {b.id: set() for b in fn.blocks}
    live_out = {b.id: set() for b in fn.blocks}
    changed = True
    while changed:
        changed = False
        for b in reversed(fn.blocks):
            out = set()
            for s in succ[b.id]:
                out |= live_in[s] - phi_defs[s]
                out |= phi_uses.get((b.id, s), set())
            new_in = gen[b.id] | (out - kill[b.id])
            if out != live_out[b.id] or new_in != live_in[b.id]:
                live_out[b.id], live_in[b.id] = out, new_in
                changed = True
    result: set[int] = set()
    for b in fn.blocks:
        live = set(live_out[b.id])
        for inst in reversed(b.instructions):
            if is_sync(inst):
                # After a collective its result is live too: the group function writes it.
                result |= live
            if inst.result_id is not None:
                live.discard(inst.result_id)
            if inst.opcode != OP_PHI:
                live |= {u for u in inst.id_operands() if u in local}
    return result


@dataclass
class Slot:
    """Where one value (or one part of a pointer) lives in the work-item records."""

    start: int          # bytes before this slot's array, per work-item (uniform: in the shared part)
    size: int
    llvm: ir.Type       # the type stored (i1 is stored as i8)
    uniform: bool = False   # one copy for the whole group


@dataclass
class RecordLayout:
    values: dict[int, list[Slot]] = field(default_factory=dict)   # spilled id -> its parts
    variables: dict[int, Slot] = field(default_factory=dict)      # private variable id -> storage
    shadows: dict[int, tuple[Slot, Slot]] = field(default_factory=dict)  # pointer-holding variables
    tables: dict[int, Slot] = field(default_factory=dict)   # structs/arrays holding pointers (private_shadows)
    invariant: set[int] = field(default_factory=set)   # never spilled: recomputed at region entry
    next_slots: dict[int, Slot] = field(default_factory=dict)   # uniform inductions' next values
    collective_inputs: dict[int, list[list[Slot]]] = field(default_factory=dict)   # offset -> operands' slots
    bytes_per_item: int = 0

    uniform_bytes: int = 0

    def add(self, llvm_type: ir.Type, size: int, uniform: bool = False) -> Slot:
        rounded = (size + SLOT_ALIGN - 1) // SLOT_ALIGN * SLOT_ALIGN
        if uniform:
            slot = Slot(self.uniform_bytes, size, llvm_type, True)
            self.uniform_bytes += rounded
        else:
            slot = Slot(self.bytes_per_item, size, llvm_type)
            self.bytes_per_item += rounded
        return slot


def record_layout(ml, fn: Function, uniform_inductions: set[int] = frozenset()) -> RecordLayout:
    layout = RecordLayout()
    td = ml.types.target_data
    for inst in fn.blocks[0].instructions:
        if inst.opcode == OP_VARIABLE:
            pointee = ml.types[inst.words[1]].elem
            layout.variables[inst.words[2]] = layout.add(pointee.llvm, record_size(ml, ml.types.size(pointee)))
            if pointee.kind == "pointer" and ml.checked:
                layout.shadows[inst.words[2]] = (layout.add(PTR, 8), layout.add(PTR, 8))
            if ml.checked and private_shadows.holds_pointers(pointee):
                table = private_shadows.table_type(ml.types.size(pointee))
                layout.tables[inst.words[2]] = layout.add(table, 8 * table.count)
    uniform = uniform_values(ml.builtins, fn, uniform_inductions)
    layout.invariant = invariant_values(ml, fn)
    # (The group computes a collective's result into one slot: kept whole.)
    collective_results = {i.result_id for block in fn.blocks for i in block.instructions if is_collective(i)}
    for block in fn.blocks:
        for inst in block.instructions:
            if is_collective(inst):
                slots = []
                for value_id in collective_operands(inst, ml):
                    t = ml.types[ml.module.definition(value_id).words[1]]
                    if t.kind == "pointer":     # address (and base, end when checking)
                        slots.append([layout.add(PTR, 8) for _ in range(3 if ml.checked else 1)])
                        continue
                    stored = I8 if t.llvm == I1 else t.llvm
                    slots.append([layout.add(stored, abi_size(stored, td))])
                layout.collective_inputs[inst.offset] = slots
    for value_id in sorted(live_after_barriers(fn)):
        inst = ml.module.definition(value_id)
        if inst is None or inst.opcode == OP_VARIABLE or value_id in layout.invariant:
            continue
        t = ml.types[inst.words[1]]
        same = value_id in uniform
        if t.kind == "pointer":
            layout.values[value_id] = [layout.add(PTR, 8, same) for _ in range(3 if ml.checked else 1)]
        elif _split_vector(t.llvm) and value_id not in collective_results:
            # A vector, one array per component: LLVM's loop vectoriser takes no vector-typed
            # instruction (a float4 loaded whole from the records would keep the work-item
            # loop scalar); component loads and stores it widens across the work-items.
            element = t.llvm.element
            layout.values[value_id] = [layout.add(element, abi_size(element, td), same) for _ in range(t.llvm.count)]
        else:
            stored = I8 if t.llvm == I1 else t.llvm
            layout.values[value_id] = [layout.add(stored, abi_size(stored, td), same)]
            if value_id in uniform_inductions:
                # Double-buffered: a pass reads the value its work-items entered with, and
                # each work-item that goes round again writes the next one in its own slot
                # (a plain vectorisable store; an early work-item must not advance the shared
                # value under the later ones). Between passes the scheduler copies one such
                # work-item's next value into the shared slot.
                layout.next_slots[value_id] = layout.add(stored, abi_size(stored, td))
    if ml.check_passes is not None and ml.check_passes.uninit is not None:
        ml.check_passes.uninit.spill_layout(layout)   # the values' shadows cross barriers too
    return layout


def _split_vector(t: ir.Type) -> bool:
    """Whether a value of LLVM type ``t`` is kept in the records one component per array: a
    vector of numbers (not of booleans)."""
    return isinstance(t, ir.VectorType) and isinstance(t.element, (ir.IntType, ir.FloatType, ir.DoubleType,
                                                                  ir.HalfType)) and \
        not (isinstance(t.element, ir.IntType) and t.element.width == 1)


def invariant_values(ml, fn: Function) -> set[int]:
    """Values fixed for the whole run of a work-item: pure instructions over parameters,
    constants, BuiltIn loads, private variables' addresses and other such values. They need no
    record slot: each region recomputes them at its entry (what LLVM would hoist anyway), so
    the work-item loops store and load less."""
    local = {i.result_id for b in fn.blocks for i in b.instructions if i.result_id is not None}
    invariant = {i.result_id for i in fn.blocks[0].instructions if i.opcode == OP_VARIABLE}
    changed = True
    while changed:
        changed = False
        for b in fn.blocks:
            for inst in b.instructions:
                rid = inst.result_id
                if rid is None or rid in invariant:
                    continue
                if inst.opname == "OpLoad":
                    ok = inst.words[3] in ml.builtins
                else:
                    ok = inst.opname in _PURE and all(u not in local or u in invariant for u in inst.id_operands())
                if ok:
                    invariant.add(rid)
                    changed = True
    return invariant


# BuiltIns that differ between the work-items of a group.
_PER_ITEM_BUILTINS = {"LocalInvocationId", "GlobalInvocationId", "LocalInvocationIndex", "GlobalLinearId",
                      "SubgroupLocalInvocationId", "SubgroupId", "SubgroupSize"}


def uniform_values(builtins: dict[int, str], fn: Function, inductions: set[int] = frozenset()) -> set[int]:
    """Values equal in every work-item of a group (a conservative divergence analysis): built
    from constants, parameters and group-wide BuiltIns by pure instructions, and loop-header
    phis of loops that contain a barrier (whose iterations the barrier rules make uniform).
    Such a value needs one slot per group, and its loads do not depend on the work-item, so
    LLVM hoists them out of the work-item loop."""
    from .function import reverse_postorder

    order = reverse_postorder(fn.blocks)
    rank = {b.id: i for i, b in enumerate(order)}
    barrier_ranks = [rank[b.id] for b in fn.blocks if b.id in rank   # real barriers, not loop cuts
                     and any(is_sync(i) and not is_cut(i) for i in b.instructions)]
    headers = set()
    for b in order:
        for s in successors(b):
            if s in rank and rank[s] <= rank[b.id] and any(rank[s] <= r <= rank[b.id] for r in barrier_ranks):
                headers.add(s)
    local = {i.result_id for b in fn.blocks for i in b.instructions if i.result_id is not None}
    uniform: set[int] = set(inductions)

    def is_uniform(u: int) -> bool:
        return u not in local or u in uniform

    changed = True
    while changed:
        changed = False
        for b in order:
            for inst in b.instructions:
                rid = inst.result_id
                if rid is None or rid in uniform:
                    continue
                name = inst.opname
                if name == "OpPhi":
                    ok = b.id in headers and all(is_uniform(inst.words[i]) for i in range(3, len(inst.words), 2))
                elif name == "OpLoad":
                    builtin = builtins.get(inst.words[3])
                    ok = builtin is not None and builtin not in _PER_ITEM_BUILTINS
                elif name in _PURE:
                    ok = all(is_uniform(u) for u in inst.id_operands())
                else:
                    ok = False
                if ok:
                    uniform.add(rid)
                    changed = True
    return uniform


# Instructions that only compute from their operands: a value they define before the region
# can be recomputed at the region's entry instead of kept in the record.
_PURE = {
    "OpIAdd", "OpISub", "OpIMul", "OpUDiv", "OpSDiv", "OpUMod", "OpSRem", "OpSMod", "OpSNegate", "OpNot",
    "OpShiftLeftLogical", "OpShiftRightLogical", "OpShiftRightArithmetic", "OpBitwiseAnd", "OpBitwiseOr",
    "OpBitwiseXor", "OpIEqual", "OpINotEqual", "OpULessThan", "OpSLessThan", "OpUGreaterThan", "OpSGreaterThan",
    "OpULessThanEqual", "OpSLessThanEqual", "OpUGreaterThanEqual", "OpSGreaterThanEqual", "OpSelect",
    "OpLogicalAnd", "OpLogicalOr", "OpLogicalNot", "OpLogicalEqual", "OpLogicalNotEqual",
    "OpUConvert", "OpSConvert", "OpBitcast", "OpCompositeExtract", "OpCompositeConstruct", "OpCopyObject",
    "OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain", "OpInBoundsPtrAccessChain",
    "OpPtrCastToGeneric", "OpGenericCastToPtr", "OpVectorShuffle",
}


class RegionState:
    """What a FunctionLowering needs to lower one region of a kernel."""

    def __init__(self, layout: RecordLayout, barrier_index: dict[int, int], records, count, item):
        self.layout = layout
        self.barrier_index = barrier_index     # barrier word offset -> region it resumes
        self.records, self.count, self.item = records, count, item
        self.pending_stores: list[int] = []
        self.defined_here: set[int] = set()    # ids this region function (re)defines
        self.at_entry: dict[int, object] = {}  # values fixed for the whole region, made at entry
        self.locals: set[int] = set()          # ids defined inside the kernel function

    def value(self, fl: FunctionLowering, value_id: int):
        """A value living across a barrier: fixed for the region if this region never redefines
        it (recomputed or loaded once, at entry), else loaded from the record where used."""
        if value_id in self.defined_here and value_id not in self.layout.next_slots:
            return self.load(fl, value_id)
        if value_id not in self.at_entry:
            saved = fl.builder
            fl.builder = fl.alloca_builder
            try:
                self.at_entry[value_id] = self._at_entry(fl, value_id)
            finally:
                fl.builder = saved
        return self.at_entry[value_id]

    def invariant(self, fl: FunctionLowering, value_id: int):
        """An invariant value (see invariant_values), computed once in the region's entry."""
        from .function import HANDLERS

        if value_id not in self.at_entry:
            if value_id in self.layout.variables:
                return fl.values[value_id]
            saved, saved_value = fl.builder, fl.values.get(value_id)
            fl.builder = fl.alloca_builder
            try:
                HANDLERS[fl.ml.module.definition(value_id).opcode](fl, fl.ml.module.definition(value_id))
                self.at_entry[value_id] = fl.values[value_id]
            finally:
                fl.builder = saved
                if saved_value is not None:
                    fl.values[value_id] = saved_value
        return self.at_entry[value_id]

    def _at_entry(self, fl: FunctionLowering, value_id: int):
        """The value, emitted in the region's entry: recomputed when pure, else loaded."""
        from .function import HANDLERS

        if value_id not in self.locals:
            return fl.get(value_id)
        if value_id in self.at_entry:
            return self.at_entry[value_id]
        inst = fl.ml.module.definition(value_id)
        if self._recomputable(fl, value_id, set()):
            for u in inst.id_operands():
                if u in self.locals and u not in self.layout.values:
                    fl.values[u] = self._at_entry(fl, u)
                elif u in self.layout.values:
                    self._at_entry(fl, u)         # cached: get() finds it there
            HANDLERS[inst.opcode](fl, inst)
            value = fl.values[value_id]
        else:
            value = self.load(fl, value_id)
        self.at_entry[value_id] = value
        return value

    def _recomputable(self, fl, value_id: int, seen: set) -> bool:
        if value_id in self.defined_here or value_id in seen:
            return False
        inst = fl.ml.module.definition(value_id)
        if inst.opname == "OpLoad":                       # only BuiltIn loads are pure
            return inst.words[3] in fl.ml.builtins
        if inst.opname not in _PURE:
            return False
        seen.add(value_id)
        for u in inst.id_operands():
            if u not in self.locals:
                continue
            if u in self.defined_here:
                return False
            if u not in self.layout.values and not self._recomputable(fl, u, seen):
                return False
        return True


    def collective(self, fl: FunctionLowering, inst) -> None:
        from .collectives import leave_operands

        leave_operands(fl, inst, self.layout.collective_inputs[inst.offset], self.barrier_index[inst.offset])

    def address(self, b: ir.IRBuilder, slot: Slot) -> ir.Value:
        if slot.uniform:   # after every work-item's arrays
            at = b.add(b.mul(ir.Constant(I64, self.layout.bytes_per_item), self.count), ir.Constant(I64, slot.start))
            return b.gep(self.records, [at], source_etype=I8)
        base = b.gep(self.records, [b.mul(ir.Constant(I64, slot.start), self.count)], source_etype=I8)
        return b.gep(base, [b.mul(self.item, ir.Constant(I64, slot.size))], source_etype=I8)

    def load(self, fl: FunctionLowering, value_id: int):
        b = fl.builder
        t = fl.types[fl.ml.module.definition(value_id).words[1]]
        parts = [b.load(self.address(b, s), typ=s.llvm) for s in self.layout.values[value_id]]
        for part in parts:
            fl.tag(part)
        if t.kind == "pointer":
            return Ptr(*parts) if len(parts) == 3 else Ptr(parts[0])
        if len(parts) > 1:   # a vector kept one array per component (see record_layout)
            value = ir.Constant(t.llvm, ir.Undefined)
            for k, part in enumerate(parts):
                value = b.insert_element(value, part, ir.Constant(I32, k))
            return value
        return b.trunc(parts[0], I1) if t.llvm == I1 else parts[0]

    def store(self, fl: FunctionLowering, value_id: int, value) -> None:
        b = fl.builder
        slots = self.layout.values[value_id]
        if value_id in self.layout.next_slots:
            slots = [self.layout.next_slots[value_id]]
        if isinstance(value, Ptr):
            null = ir.Constant(PTR, None)
            parts = [value.addr, value.base or null, value.end or null][:len(slots)]
        elif len(slots) > 1:  # a vector kept one array per component (see record_layout)
            parts = [b.extract_element(value, ir.Constant(I32, k)) for k in range(len(slots))]
        else:
            parts = [b.zext(value, I8) if value.type == I1 else value]
        for part, s in zip(parts, slots):
            fl.tag(b.store(part, self.address(b, s)))


def lower_region(fl: FunctionLowering, entry: ir.Block, start_label: int, start_index: int) -> None:
    """Lowers the blocks reachable from (start_label, start_index) without crossing a barrier."""
    fn = fl.spv_fn
    by_id = {b.id: b for b in fn.blocks}
    for b in fn.blocks:
        fl.blocks[b.id] = fl.fn.append_basic_block(f"b{b.id}")
    tail = fl.fn.append_basic_block(f"start{start_label}_{start_index}")
    start_block = by_id[start_label]
    tail_insts = start_block.instructions[start_index:]

    def stops(insts) -> bool:
        return any(is_sync(i) for i in insts)

    # Depth-first order from the start, not entering the successors of a block that stops at
    # a barrier; then reverse postorder so definitions come before uses.
    seen, post = set(), []
    stack = [(None, iter([] if stops(tail_insts) else successors(start_block)))]
    while stack:
        node, it = stack[-1]
        for s in it:
            if s not in seen and s in by_id:
                seen.add(s)
                nxt = [] if stops(by_id[s].instructions) else successors(by_id[s])
                stack.append((s, iter(nxt)))
                break
        else:
            stack.pop()
            if node is not None:
                post.append(by_id[node])
    order = list(reversed(post))
    fl.order = order
    fl.rank = {b.id: i + 1 for i, b in enumerate(order)}   # the start (tail) has rank 0
    region = fl.region
    region.locals = {i.result_id for b in fn.blocks for i in b.instructions if i.result_id is not None}
    region.defined_here = {i.result_id for i in tail_insts if i.result_id is not None}
    for b in order:
        region.defined_here |= {i.result_id for i in b.instructions if i.result_id is not None}
    if fl.guard is not None:     # the guard reads the region's values as the region does
        fl.guard.gfl.region.locals, fl.guard.gfl.region.defined_here = region.locals, region.defined_here
    fl.builder = ir.IRBuilder(entry)
    fl.builder.branch(tail)
    fl.alloca_builder.position_before(entry.terminator)
    for llvm_block, label, insts in [(tail, start_label, tail_insts)] + \
            [(fl.blocks[b.id], b.id, b.instructions) for b in order]:
        fl.builder.position_at_end(llvm_block)
        fl.current_label = label
        fl.current_rank = 0 if llvm_block is tail else fl.rank[label]
        fl.lower_instructions(insts)
    for b in fn.blocks:
        llvm_block = fl.blocks[b.id]
        if llvm_block.terminator is None:
            ir.IRBuilder(llvm_block).unreachable()
    fl.fill_phis()


def _region_function(kb, layout: RecordLayout, barrier_index: dict[int, int], index: int, start):
    """The region's function, region(ctx, ts, lx, ly, lz, flag, records, count, item, safe,
    params...) -> the state the work-item stops in, and its row guard function (None without
    one; see access_guard)."""
    from .access_guard import new_guard, wants_guards
    from .kernel import mark_inlined_launch_state

    ml = kb.ml
    fn = ir.Function(ml.llvm, ir.FunctionType(I32, ml.signature(kb.fn_type, [PTR, I64, I64, I1])),
                     name=f"spirvkit_region{index}")
    fn.linkage = "internal"
    # Inlined into the fast path only (see build_region_group), so each region is compiled
    # and vectorised once.
    mark_inlined_launch_state(fn)
    args = list(fn.args)
    fl = FunctionLowering(ml, kb.spv_fn, fn, args[:6], ml.split_params(kb.fn_type.params, args[10:]))
    fl.safe = args[9]
    entry = fn.append_basic_block("entry")
    ab = fl.alloca_builder = ir.IRBuilder(entry)
    fl.region = RegionState(layout, barrier_index, args[6], args[7], args[8])
    if wants_guards(ml):
        fl.guard, (records, count, item) = new_guard(ml, kb.spv_fn, kb.fn_type, f"spirvkit_region{index}_guard",
                                                     [PTR, I64, I64])
        fl.guard.gfl.region = RegionState(layout, barrier_index, records, count, item)
    fl.bind_params()
    for var_id, slot in layout.variables.items():
        addr = fl.region.address(ab, slot)
        end = ab.gep(addr, [ir.Constant(I64, ml.types.size(ml.types[ml.module.definition(var_id).words[1]].elem))],
                     source_etype=I8)   # (not slot.size: the uninitialized check doubles the slot)
        fl.values[var_id] = Ptr(addr, addr, end) if ml.checked else Ptr(addr)
    for var_id, (base_slot, end_slot) in layout.shadows.items():
        fl.pointer_shadows[var_id] = (fl.region.address(ab, base_slot), fl.region.address(ab, end_slot))
    for var_id, slot in layout.tables.items():   # (emptied where the variable is declared: ops_memory)
        fl.aggregate_shadows[var_id] = private_shadows.AggregateShadow(
            fl.values[var_id], fl.region.address(ab, slot), slot.size // 16,
            ml.types.size(ml.types[ml.module.definition(var_id).words[1]].elem))
    lower_region(fl, entry, *start)
    return fn, (fl.guard.fn if fl.guard is not None and fl.guard.finish() else None)


def advance_induction(b: ir.IRBuilder, fn: ir.Function, layout: RecordLayout, records, count, states,
                      looping: int, next_slot: Slot, shared_slot: Slot) -> None:
    """shared = next[i] for the first work-item i waiting at the loop's cut (they all computed
    the same next value); unchanged when none is (the loop is over)."""
    def waiting(i):
        return b.icmp_unsigned("==", b.load(b.gep(states, [i], source_etype=I32), typ=I32), ir.Constant(I32, looping))

    witness, found = collectives.first_waiting(b, fn, count, waiting)
    with b.if_then(found):
        per_item = b.gep(records, [b.mul(ir.Constant(I64, next_slot.start), count)], source_etype=I8)
        value = b.load(b.gep(per_item, [b.mul(witness, ir.Constant(I64, next_slot.size))], source_etype=I8),
                       typ=next_slot.llvm)
        shared = b.add(b.mul(ir.Constant(I64, layout.bytes_per_item), count), ir.Constant(I64, shared_slot.start))
        b.store(value, b.gep(records, [shared], source_etype=I8))


@contextmanager
def work_items(b: ir.IRBuilder, fn: ir.Function, sizes, name: str, ml):
    """Parallel loops over a group's work-items, z outermost: yields (lx, ly, lz, flat index).
    Nested loops rather than one loop over the flat index, so that lx is the vectorised
    loop's induction variable: accesses indexed by lx are then consecutive, by ly uniform."""
    from .loops import CountedLoop as _counted_loop

    sx, sy, sz = sizes
    with _counted_loop(b, fn, sz, f"{name}z", parallel=ml.parallel_loop()) as lz:
        with _counted_loop(b, fn, sy, f"{name}y", parallel=ml.parallel_loop()) as ly:
            row = b.mul(b.add(b.mul(lz, sy), ly), sx)
            with _counted_loop(b, fn, sx, f"{name}x", parallel=ml.parallel_loop()) as lx:
                yield lx, ly, lz, b.add(row, lx)


def build_region_group(kb) -> ir.Function:
    """group(ctx, ts) for a kernel with barriers: region after region, each over all items."""
    from .launch_words import load_pointer as _load_pointer, word as _word
    from .loops import CountedLoop as _counted_loop
    from .abi import CONTEXT, THREAD

    ml, spv_fn = kb.ml, kb.spv_fn
    layout = kb.layout
    # Regions after loop cuts are numbered first: the scheduler runs the lowest-numbered
    # region, so no real barrier is released while a work-item is still in a cut loop.
    barriers = [(block.id, i + 1, inst) for block in spv_fn.blocks
                for i, inst in enumerate(block.instructions) if is_sync(inst)]
    barriers.sort(key=lambda found: not is_cut(found[2]))
    # (Identical barriers compare equal: they are told apart by offset.)
    barrier_index = {inst.offset: k + 1 for k, (_, _, inst) in enumerate(barriers)}
    starts = [(spv_fn.blocks[0].id, 0)] + [(label, index) for label, index, _ in barriers]
    collective_at = {barrier_index[inst.offset]: inst for _, _, inst in barriers if is_collective(inst)}
    # The cut after a uniform induction variable's phi: the state of work-items still looping.
    cut_of_block = {label: barrier_index[inst.offset] for label, _, inst in barriers if is_cut(inst)}
    phi_block = {i.words[2]: block.id for block in spv_fn.blocks for i in block.instructions if i.opcode == OP_PHI}
    cut_state = {v: cut_of_block[phi_block[v]] for v in layout.next_slots}
    regions = [_region_function(kb, layout, barrier_index, r, start) for r, start in enumerate(starts)]

    fn, ctx, ts, b, args = kb.group_function()
    sx, sy, sz = kb.local_sizes(b, ts)
    count = b.mul(b.mul(sx, sy), sz)
    frames = _load_pointer(b, ts, THREAD["frames"])
    states = frames
    state_bytes = b.and_(b.add(b.mul(count, ir.Constant(I64, 4)), ir.Constant(I64, 63)), ir.Constant(I64, ~63))
    records = b.gep(frames, [state_bytes], source_etype=I8)
    flag, slow_flag = b.alloca(I8), b.alloca(I8)
    b.store(ir.Constant(I8, 0), flag)
    b.store(ir.Constant(I8, 0), slow_flag)
    current = b.alloca(I32)
    b.store(ir.Constant(I32, 0), current)
    # Whether every work-item waits in `current` (they all start in region 0). It is the
    # rule for real barriers, so the usual case runs the region for all work-items with no
    # per-item test: a loop LLVM vectorises without masks.
    together = b.alloca(I1)
    b.store(ir.Constant(I1, 1), together)
    lowest, highest = b.alloca(I32), b.alloca(I32)
    with _counted_loop(b, fn, count, "init") as i:
        b.store(ir.Constant(I32, 0), b.gep(states, [i], source_etype=I32))

    def tagged(inst):
        inst.set_metadata("llvm.access.group", ml.access_group)   # each item's state is its own
        return inst

    umin = intrinsic(ml.llvm, "llvm.umin", I32, [I32, I32])
    umax = intrinsic(ml.llvm, "llvm.umax", I32, [I32, I32])

    def note(state) -> None:
        b.store(b.call(umin, [b.load(lowest, typ=I32), state]), lowest)
        b.store(b.call(umax, [b.load(highest, typ=I32), state]), highest)

    head = fn.append_basic_block("region.head")
    done = fn.append_basic_block("region.done")
    b.branch(head)
    b.position_at_end(head)
    switch = b.switch(b.load(current, typ=I32), done)
    for r, region in enumerate(regions):
        block = fn.append_basic_block(f"region{r}")
        switch.add_case(ir.Constant(I32, r), block)
        b.position_at_end(block)
        b.store(ir.Constant(I32, DONE), lowest)
        b.store(ir.Constant(I32, 0), highest)
        if r in collective_at:   # everyone waits at this collective: the group's part first
            inst = collective_at[r]
            out = layout.values.get(inst.result_id)
            collectives.compute(kb, b, fn, ctx, ts, inst, layout.collective_inputs[inst.offset],
                                out[0] if out else None, states, records, count, (sx, sy, sz), r)

        region, guard = region

        def run(lx, ly, lz, i, inline=not ml.compact, safe=False):
            # The slow path (work-items in different states) calls the region out of line with
            # a fault flag of its own: the fast path's flag must not escape, or it could not
            # live in a register.
            state = b.call(region, [ctx, ts, lx, ly, lz, flag if inline else slow_flag, records, count, i,
                                    ir.Constant(I1, safe), *args],
                           attrs=("alwaysinline",) if inline else ("noinline",))
            tagged(b.store(state, b.gep(states, [i], source_etype=I32)))
            return state

        def nest(safe):
            with work_items(b, fn, (sx, sy, sz), f"r{r}", ml) as (lx, ly, lz, i):
                run(lx, ly, lz, i, safe=safe)

        with b.if_else(b.load(together, typ=I1)) as (all_items, some_items):
            with all_items:
                if guard is None:
                    nest(False)
                else:
                    zero = ir.Constant(I64, 0)
                    proved = b.call(guard, [ctx, ts, zero, zero, zero, flag, records, count, zero, *args])
                    with b.if_else(proved) as (checks_proved, not_proved):
                        with checks_proved:
                            nest(True)
                        with not_proved:
                            nest(False)
            with some_items:
                with work_items(b, fn, (sx, sy, sz), f"s{r}", ml) as (lx, ly, lz, i):
                    state = tagged(b.load(b.gep(states, [i], source_etype=I32), typ=I32))
                    with b.if_then(b.icmp_unsigned("==", state, ir.Constant(I32, r))):
                        run(lx, ly, lz, i, inline=False)
        # Where each work-item now waits (a separate pass: reductions in the work-item loop
        # itself can keep LLVM from vectorising it).
        with _counted_loop(b, fn, count, f"m{r}") as i:
            note(b.load(b.gep(states, [i], source_etype=I32), typ=I32))
        for value_id, next_slot in layout.next_slots.items():   # uniform inductions advance
            advance_induction(b, fn, layout, records, count, states, cut_state[value_id],
                              next_slot, layout.values[value_id][0])
        # The next region: the lowest state any work-item waits in (all equal in a kernel that
        # meets the barrier rules); DONE once they have all returned.
        low = b.load(lowest, typ=I32)
        if ml.check_passes is not None:   # the barriers check (check_barriers.py)
            ml.check_passes.rendezvous(kb, b, fn, ctx, ts, states, count, (sx, sy, sz), low,
                                       b.load(highest, typ=I32), barriers)
        b.store(low, current)
        b.store(b.icmp_unsigned("==", low, b.load(highest, typ=I32)), together)
        aborted = b.icmp_unsigned("!=", b.load_atomic(_word(b, ctx, CONTEXT["abort"]), "monotonic", 8, typ=I64),
                                  ir.Constant(I64, 0))
        b.cbranch(aborted, done, head)
    b.position_at_end(done)
    slot = _word(b, ts, THREAD["fault_flag"])
    raised = b.or_(b.load(flag, typ=I8), b.load(slow_flag, typ=I8))
    b.store(b.or_(b.load(slot, typ=I64), b.zext(raised, I64)), slot)
    b.ret_void()
    return fn
