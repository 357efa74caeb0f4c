"""Loads from a block literal are invariant: marking them so lets LLVM hoist them.

A kernel that device-side enqueue launches (jit/ops_enqueue.py) gets its captured values through
its first parameter, a pointer to the runtime's private copy of the block literal, which nothing
writes while the kernel runs. Each work-item reads the captures again, and LLVM cannot hoist
those loads out of the work-item loops by itself: a store through a captured pointer might, as
far as it knows, write the literal. A captured buffer pointer then stays a per-work-item value,
and the loop over work-items becomes gathers and scatters where a host launch of the same body
has plain vector loads. ``!invariant.load`` on the literal's loads says what is true (the memory
does not change while the kernel can read it), so LICM hoists them and the vectoriser sees the
buffers.

Only when it is safe: the kernel is the Invoke of an OpEnqueueKernel of the module, and no code
of the kernel writes through a pointer derived from the literal or lets one escape (stores it,
passes it anywhere but to a lowered function whose every call passes literal-derived values in
that position, or to the checks' own pointer arithmetic). Otherwise nothing is marked.
"""

from __future__ import annotations

from llvmlite import ir

from ..spirv.names import OP

OP_ENQUEUE_KERNEL = OP.EnqueueKernel


def enqueue_targets(module) -> set[int]:
    """The Invoke functions of the module's OpEnqueueKernel instructions."""
    return {inst.words[9] for fn in module.functions for block in fn.blocks for inst in block.instructions
            if inst.opcode == OP_ENQUEUE_KERNEL}


def mark_invariant_literal(ml, body: ir.Function, literal: ir.Argument) -> int:
    """Marks the loads from ``literal`` (a parameter of ``body``) and from the pointers derived
    from it, in ``body`` and the lowered functions it passes them to; returns how many (0: it
    could not prove the literal unwritten, nothing marked). A derived pointer may be kept in a
    private variable (-O0 code stores every parameter in one) that holds nothing else."""
    calls: dict[ir.Function, list] = {}
    for fn in ml.llvm.functions:
        for block in fn.blocks:
            for inst in block.instructions:
                if isinstance(inst, ir.CallInstr) and isinstance(inst.callee, ir.Function):
                    calls.setdefault(inst.callee, []).append(inst)
    derived: set = {literal}
    holders: set = set()       # allocas a derived pointer is stored in
    reached = [body]
    changed = True
    while changed:             # what is derived from the literal, to a fixed point
        changed = False
        for inst in _instructions(reached):
            new = None
            if isinstance(inst, ir.GEPInstr) and inst.pointer in derived:
                new = inst
            elif isinstance(inst, ir.LoadInstr) and inst.operands[0] in holders:
                new = inst
            elif (isinstance(inst, ir.StoreInstr) and inst.operands[0] in derived
                  and isinstance(inst.operands[1], ir.AllocaInstr) and inst.operands[1] not in holders):
                holders.add(inst.operands[1])
                changed = True
            elif isinstance(inst, ir.CallInstr) and _lowered(inst.callee):
                for k, arg in enumerate(inst.args):
                    if arg in derived and inst.callee.args[k] not in derived:
                        derived.add(inst.callee.args[k])
                        if inst.callee not in reached:
                            reached.append(inst.callee)
                        changed = True
            if new is not None and new not in derived:
                derived.add(new)
                changed = True
    loads = []
    for inst in _instructions(reached):   # every use of a derived value is a read
        used = [op for op in inst.operands if op in derived]
        if isinstance(inst, ir.StoreInstr):
            value, ptr = inst.operands
            if ptr in derived or (value in derived) != (ptr in holders):
                return 0
        elif not used:
            continue
        elif isinstance(inst, ir.GEPInstr) and inst.pointer in derived and inst.pointer not in inst.indices:
            continue
        elif isinstance(inst, ir.LoadInstr):
            loads.append(inst)
        elif isinstance(inst, ir.CastInstr) and inst.opname == "ptrtoint":
            continue                       # the bounds checks' arithmetic
        elif isinstance(inst, ir.CallInstr) and _lowered(inst.callee):
            for k, arg in enumerate(inst.args):
                if arg in derived and not all(c.args[k] in derived for c in calls.get(inst.callee, [])):
                    return 0               # the callee's parameter is sometimes something else
        else:
            return 0                       # selected, compared, passed to a routine or intrinsic ...
    if not loads:
        return 0
    empty = ml.llvm.add_metadata([])
    for load in loads:
        load.set_metadata("invariant.load", empty)
    return len(loads)


def _lowered(callee) -> bool:
    """A SPIR-V function lowered into the module (not a runtime routine or an intrinsic)."""
    return isinstance(callee, ir.Function) and bool(callee.blocks) and callee.name.startswith("spv")


def _instructions(functions):
    for fn in list(functions):
        for block in fn.blocks:
            yield from block.instructions


