"""Implicit barriers at the heads of a barrier kernel's inner loops (loop interchange).

A kernel split into regions runs each region as a loop over the work-items. A loop of the
kernel inside a region then sits *inside* the work-item loop, and LLVM vectorises innermost
loops only: the kernel loop runs one work-item at a time (a grid-stride reduction walks memory
with a stride of the global size, one element per iteration). Cutting the region at the kernel
loop's header turns it inside out: each region pass runs one iteration of the kernel loop for
every work-item, and the work-item loop becomes the innermost, vectorisable loop (the idea of
PoCL's implicit loop barriers). A second cut at the block the loop exits to keeps the code after
the loop out of the loop's region (it may hold what LLVM's vectoriser refuses, such as a float4
stored whole, which would keep the loop's work-item loop scalar).

A cut is not a barrier: it synchronises nothing, so it is always legal to run the work-items
waiting at cuts. The group scheduler numbers the cut regions before the real barriers' and runs
the lowest-numbered region first, so a real barrier is only released once no work-item is
still in a cut loop. Work-items that leave the loop early just wait; the scheduler's slow path
runs only those still looping.

Only loops for which this pays are cut: innermost loops without barriers whose exit test
compares an induction variable with a group-uniform step against a group-uniform bound, so the
work-items' trip counts differ by little; but not loops of a few iterations fixed at compile
time (a 3x3 filter's), which LLVM unrolls inside the work-item loop: cut, each iteration would
be a pass over the work-items' records.
"""

from __future__ import annotations

from ..spirv.binary import Instruction
from ..spirv.module import Block, Function
from ..spirv.names import OP
from .collectives import is_sync
from .function import successors

OP_CONTROL_BARRIER, OP_PHI, OP_BRANCH_CONDITIONAL = OP.ControlBarrier, OP.Phi, OP.BranchConditional
OP_LINE, OP_NO_LINE, OP_IADD, OP_ISUB, OP_CONSTANT, OP_TYPE_INT = OP.Line, OP.NoLine, OP.IAdd, OP.ISub, OP.Constant, OP.TypeInt
SHORT_LOOP = 8   # constant trip counts up to this are left to LLVM's unroller
_COMPARES = {170, 171, 172, 173, 174, 175, 176, 177, 178, 179}   # OpIEqual .. OpSLessThanEqual


def is_cut(inst) -> bool:
    """Whether a barrier instruction is a synthetic loop cut (they have negative offsets)."""
    return inst.offset < 0


def with_loop_cuts(fn: Function, uniform: set[int], module=None) -> tuple[Function, set[int]]:
    """A copy of ``fn`` with a synthetic OpControlBarrier after the phis of each loop header
    worth cutting and of the block each such loop exits to (``fn`` itself when there is none),
    and the uniform induction variables of the cut loops whose exit is uniform (see
    uniform_inductions). ``module``: where constants are looked up (without it, short constant
    loops are cut too)."""
    headers, inductions, exits = _cuttable_headers(fn, uniform, module)
    if not headers:
        return fn, set()
    blocks = []
    cuts = 0
    for block in fn.blocks:
        if block.id not in headers and block.id not in exits:
            blocks.append(block)
            continue
        insts = block.instructions
        at = 0
        for k, inst in enumerate(insts):
            if inst.opcode == OP_PHI:
                at = k + 1
            elif inst.opcode not in (OP_LINE, OP_NO_LINE):
                break
        cuts += 1
        cut = Instruction(OP_CONTROL_BARRIER, [(1 << 16) | OP_CONTROL_BARRIER], (), offset=-cuts)
        blocks.append(Block(block.label, insts[:at] + [cut] + insts[at:]))
    return fn.replace(blocks=blocks), inductions


def _cuttable_headers(fn: Function, uniform: set[int], module=None) -> tuple[set[int], set[int], set[int]]:
    """The headers of the loops to cut, their uniform inductions, and the exit blocks to cut
    (after their phis): the block a cut loop leaves to. A cut there keeps the code after the
    loop out of the loop's region, whose work-item loop LLVM then vectorises without it (that
    code may hold what the vectoriser refuses: a float4 stored whole)."""
    from .function import reverse_postorder

    by_id = {b.id: b for b in fn.blocks}
    order = reverse_postorder(fn.blocks)
    rank = {b.id: i for i, b in enumerate(order)}
    preds: dict[int, list[int]] = {b.id: [] for b in fn.blocks}
    for b in fn.blocks:
        for s in successors(b):
            if s in preds:
                preds[s].append(b.id)
    loops: dict[int, set[int]] = {}          # header -> blocks of its loop (all its back edges)
    for b in order:
        for s in successors(b):
            if s in rank and rank[s] <= rank[b.id]:
                body = loops.setdefault(s, {s})
                stack = [b.id]
                while stack:
                    x = stack.pop()
                    if x not in body:
                        body.add(x)
                        stack.extend(preds[x])
    defs = {i.result_id: i for b in fn.blocks for i in b.instructions if i.result_id is not None}
    cut, inductions, exit_cuts = set(), set(), set()
    for header, body in loops.items():
        if any(h != header and h in body for h in loops):
            continue                                            # not innermost
        if any(is_sync(i) for x in body for i in by_id[x].instructions):
            continue
        exiting = [x for x in body if any(s not in body for s in successors(by_id[x]))]
        exits = [by_id[x].terminator for x in exiting]
        if len(exits) == 1 and exits[0].opcode == OP_BRANCH_CONDITIONAL and \
                _uniform_progress(defs.get(exits[0].words[1]), by_id[header], body, defs, uniform) and \
                not _short_constant_loop(defs.get(exits[0].words[1]), by_id[header], body, defs, module):
            cut.add(header)
            inductions |= uniform_inductions(defs.get(exits[0].words[1]), by_id[header], body, defs, uniform)
            leaves = [t for t in successors(by_id[exiting[0]]) if t not in body]
            if len(leaves) == 1 and leaves[0] in by_id:
                exit_cuts.add(leaves[0])
    return cut, inductions, exit_cuts - cut


def uniform_inductions(cond, header: Block, body: set[int], defs: dict, uniform: set[int]) -> set[int]:
    """The header phis that hold the same value in every work-item still in the loop, when the
    loop's exit test is itself uniform (so the work-items enter, iterate and leave together):
    induction variables with a uniform start and a uniform step. The scheduler keeps them in
    one slot per group, which lets LLVM see the addresses they index as uniform or consecutive
    across the work-items, instead of gathering.

    Empty when the exit test is not uniform: work-items leaving at different passes must each
    keep the value they left with."""
    phis = [i for i in header.instructions if i.opcode == OP_PHI]

    def uniform_iv(phi) -> bool:
        w = phi.words
        for i in range(3, len(w) - 1, 2):
            if w[i + 1] in body:
                update = defs.get(w[i])
                if update is None or update.opcode not in (OP_IADD, OP_ISUB) or phi.words[2] not in update.words[3:5]:
                    return False
                others = [u for u in update.words[3:5] if u != phi.words[2]]
                if not others or not all(_is_uniform(u, defs, uniform) for u in others):
                    return False
            elif not _is_uniform(w[i], defs, uniform):
                return False
        return True

    ivs = {p.words[2] for p in phis if uniform_iv(p)}
    a, b = cond.words[3], cond.words[4]

    def steps_uniformly(v: int) -> bool:      # the IV, or the IV's update, in the exit test
        if v in ivs:
            return True
        inst = defs.get(v)
        return inst is not None and inst.opcode in (OP_IADD, OP_ISUB) and \
            any(u in ivs for u in inst.words[3:5]) and all(u in ivs or _is_uniform(u, defs, uniform)
                                                          for u in inst.words[3:5])

    exit_uniform = (steps_uniformly(a) and _is_uniform(b, defs, uniform)) or \
        (steps_uniformly(b) and _is_uniform(a, defs, uniform))
    return ivs if exit_uniform else set()


def _uniform_progress(cond, header: Block, body: set[int], defs: dict, uniform: set[int]) -> bool:
    """Whether ``cond`` compares an induction variable of the loop, stepped by a uniform value,
    with a uniform bound."""
    if cond is None or cond.opcode not in _COMPARES:
        return False
    a, b = cond.words[3], cond.words[4]
    return (_is_uniform(b, defs, uniform) and _is_induction(a, header, body, defs, uniform)) or \
        (_is_uniform(a, defs, uniform) and _is_induction(b, header, body, defs, uniform))


def _short_constant_loop(cond, header: Block, body: set[int], defs: dict, module) -> bool:
    """Whether the loop's exit test compares a header phi (or its update) that starts at a
    constant and steps by a constant with a constant bound at most SHORT_LOOP steps away."""
    if module is None:
        return False
    for iv, bound in ((cond.words[3], cond.words[4]), (cond.words[4], cond.words[3])):
        end = _constant_int(module, bound)
        phi = defs.get(iv)
        if end is None or phi is None:
            continue
        if phi.opcode in (OP_IADD, OP_ISUB):   # the update in the test
            phi = next((defs[u] for u in phi.words[3:5] if u in defs and defs[u].opcode == OP_PHI), None)
        if phi is None or phi.opcode != OP_PHI or not any(phi is i for i in header.instructions):
            continue
        start = step = None
        w = phi.words
        for i in range(3, len(w) - 1, 2):
            if w[i + 1] not in body:
                start = _constant_int(module, w[i])
                continue
            update = defs.get(w[i])
            if update is None or update.opcode not in (OP_IADD, OP_ISUB):
                return False
            steps = [_constant_int(module, u) for u in update.words[3:5] if u != phi.words[2]]
            if len(steps) != 1 or not steps[0]:
                return False
            step = steps[0] if update.opcode == OP_IADD else -steps[0]
        if start is None or step is None:
            return False
        trips = (end - start) // step
        return 0 <= trips <= SHORT_LOOP
    return False


def _constant_int(module, value: int) -> int | None:
    """The signed value of an integer OpConstant, else None."""
    inst = module.definition(value)
    if inst is None or inst.opcode != OP_CONSTANT:
        return None
    t = module.definition(inst.words[1])
    if t is None or t.opcode != OP_TYPE_INT:
        return None
    width = t.words[2]
    v = inst.words[3] | (inst.words[4] << 32 if width > 32 and len(inst.words) > 4 else 0)
    return v - (1 << width) if v >> (width - 1) & 1 else v


def _is_uniform(value: int, defs: dict, uniform: set[int]) -> bool:
    return value not in defs or value in uniform


def _is_induction(value: int, header: Block, body: set[int], defs: dict, uniform: set[int]) -> bool:
    inst = defs.get(value)
    if inst is not None and inst.opcode in (OP_IADD, OP_ISUB):
        step_ok = any(_is_uniform(u, defs, uniform) for u in inst.words[3:5])
        return step_ok and any(_is_header_phi(u, header, body, defs, uniform, value) for u in inst.words[3:5])
    return _is_header_phi(value, header, body, defs, uniform, None)


def _is_header_phi(value: int, header: Block, body: set[int], defs: dict, uniform: set[int], step) -> bool:
    """A phi of the header whose value from inside the loop is ``step`` (or, when ``step`` is
    None, any uniformly stepped update of the phi)."""
    inst = defs.get(value)
    if inst is None or inst.opcode != OP_PHI or not any(inst is i for i in header.instructions):
        return False
    w = inst.words
    for i in range(3, len(w) - 1, 2):
        if w[i + 1] not in body:
            continue
        update = defs.get(w[i])
        if step is not None:
            if w[i] != step:
                return False
        elif update is None or update.opcode not in (OP_IADD, OP_ISUB) or value not in update.words[3:5] or \
                not any(_is_uniform(u, defs, uniform) for u in update.words[3:5] if u != value):
            return False
    return True
