"""Promotion of private variables to SSA values (the "mem2reg" pass of ``spirvkit cc``).

Code generation writes every local variable and parameter of a function as an ``OpVariable`` in
Function storage with an ``OpStore``/``OpLoad`` around each use (clang -O0 style). This pass
rewrites the variables that are plain values into SSA form, the classic construction of Cytron
et al. ("Efficiently computing static single assignment form and the control dependence graph",
1991):

1. *Candidates*: an ``OpVariable`` in Function storage whose pointee is a scalar, vector or
   pointer type, that carries no decoration other than an alignment, and whose every use is an
   ``OpLoad`` or ``OpStore`` with the variable as the pointer operand and no ``Volatile`` memory
   access. Anything else (an access chain, a call argument, ``OpCopyMemory``, a cast to generic,
   the address stored as a value, a debug-info instruction naming it) leaves it in memory.
2. *Phi placement* at the iterated dominance frontier of the blocks that store the variable,
   for the variables loaded in some block before being stored there ("semi-pruned" SSA of
   Briggs et al.). The CFG and dominator tree are the validator's (:class:`FunctionCFG`).
3. *Renaming* along the dominator tree: a load becomes the reaching definition (the last store,
   a phi, the ``OpVariable``'s initializer, or ``OpUndef`` of the type when nothing was stored);
   uses of the load are rewritten, the loads, stores and variables are removed.
4. *Clean-up*: phis whose reachable incoming values are all one value (or the phi itself) are
   replaced by it, and phis that no remaining instruction needs are dropped.

Unreachable blocks keep valid code: their loads see the stores of their own block, or ``OpUndef``;
a phi's operand for an unreachable predecessor is ``OpUndef``. Structured-control-flow merges
(``OpSelectionMerge``/``OpLoopMerge``), ``OpLine`` and the blocks' order are left as they are; a
new ``OpPhi`` goes first in its block, with one (value, parent) pair per predecessor in the order
of the CFG's predecessor list. ``OpName``/``OpDecorate`` of removed variables are removed.

The pass works on the :class:`ModuleBuilder`'s word lists (no decoding of the whole module); an
instruction is decoded (by :class:`spirv.binary.Decoder`) only when one of its words equals an id
the pass is interested in, to tell its id operands from literals.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..spirv.binary import Decoder, Instruction
from ..spirv.builder import ModuleBuilder
from ..spirv.grammar import ID_KINDS, load_grammar
from ..validate import opcodes as op
from ..validate.cfg import FunctionCFG

_G = load_grammar()
OP_LINE, OP_NO_LINE = op.Line, op.NoLine
OP_NAME = op.Name
OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING = op.Decorate, op.DecorateId, op.DecorateString
OP_GROUP_DECORATE = op.GroupDecorate
OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_POINTER = op.TypeInt, op.TypeFloat, op.TypePointer
OP_FUNCTION, OP_FUNCTION_END, OP_LABEL = op.Function, op.FunctionEnd, op.Label
OP_VARIABLE, OP_LOAD, OP_STORE, OP_PHI, OP_SWITCH = op.Variable, op.Load, op.Store, op.Phi, op.Switch
# Pointees kept as SSA values: scalars, vectors and pointers (structs and arrays stay in memory).
VALUE_TYPES = frozenset({op.TypeBool, op.TypeInt, op.TypeFloat, op.TypeVector, op.TypePointer})
STORAGE_FUNCTION = _G.enumerant("StorageClass", "Function").value
VOLATILE = _G.enumerant("MemoryAccess", "Volatile").value
# Decorations that say nothing once the variable is gone (an alignment of its memory).
DROPPABLE_DECORATIONS = frozenset(_G.enumerant("Decoration", n).value for n in
                                  ("Alignment", "AlignmentId", "MaxByteOffset", "MaxByteOffsetId"))
_REF_KINDS = ID_KINDS - {"IdResult", "IdResultType"}
_LAYOUTS: dict[int, tuple[int, ...] | None] = {}   # word 0 -> its fixed id positions, or None


@dataclass
class PromotionStats:
    """What one run of :func:`promote_private_variables` did (summed over the functions)."""

    promoted: int = 0      # OpVariables rewritten into SSA values
    kept: int = 0          # Function-storage OpVariables left in memory
    loads: int = 0         # OpLoads removed
    stores: int = 0        # OpStores removed
    phis: int = 0          # OpPhis inserted (after clean-up)


class _Block:
    """One block as the pass sees it, shaped for :class:`FunctionCFG` (``id``, ``instructions``,
    ``terminator``)."""

    __slots__ = ("id", "label", "instructions", "terminator")

    def __init__(self, label: list[int]):
        self.id = label[1]
        self.label = label
        self.instructions: list[list[int]] = []
        self.terminator = None


class _Function:
    __slots__ = ("head", "blocks", "end")

    def __init__(self, head):
        self.head = head          # OpFunction and its OpFunctionParameters
        self.blocks: list[_Block] = []
        self.end = None


class _Phi:
    """A phi placed for variable ``var``: its id, type and the value along each reachable edge."""

    __slots__ = ("var", "id", "type", "incoming")

    def __init__(self, var: int, pid: int, type_id: int):
        self.var, self.id, self.type = var, pid, type_id
        self.incoming: dict[int, int] = {}    # predecessor label -> value


class _ModuleFacts:
    """What the pass needs from outside the functions: pointer types, decorated ids, and a
    decoder primed with the imported sets and number types."""

    def __init__(self, b: ModuleBuilder):
        self.builder = b
        self.pointee: dict[int, int] = {}        # Function-storage pointer type -> promotable pointee
        value_types = set()
        self.decoder = Decoder(_G)
        for w in b.sections["ext_inst_imports"]:
            self.decoder.decode(w)
        types = b.sections["types_values"]
        self.types = types
        for w in types:
            opc = w[0] & 0xFFFF
            if opc in VALUE_TYPES:
                value_types.add(w[1])
                if opc == OP_TYPE_INT or opc == OP_TYPE_FLOAT:
                    self.decoder.decode(w)
        for w in types:
            if (w[0] & 0xFFFF) == OP_TYPE_POINTER and w[2] == STORAGE_FUNCTION and w[3] in value_types:
                self.pointee[w[1]] = w[3]
        self.pinned: set[int] = set()   # ids with a decoration that keeps them in memory
        for w in b.sections["annotations"]:
            opc = w[0] & 0xFFFF
            if opc in (OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING):
                if w[2] not in DROPPABLE_DECORATIONS:
                    self.pinned.add(w[1])
            elif opc == OP_GROUP_DECORATE:
                self.pinned.update(w[2:])
        self._operands: dict[int, tuple] = {}   # id(words) -> decoded operand spans
        self.local_type = lambda value: None     # the current function's type lookup
        self._undef: dict[int, int] = {}

    def undef(self, type_id: int) -> int:
        u = self._undef.get(type_id)
        if u is None:
            u = self._undef[type_id] = self.builder.undef(type_id)
        return u

    def decoded(self, words: list[int]) -> Instruction:
        """``words`` decoded (once: the decoder remembers definitions)."""
        key = id(words)
        hit = self._operands.get(key)
        if hit is not None:
            return Instruction(words[0] & 0xFFFF, words, hit[0], 0, hit[1])
        if (words[0] & 0xFFFF) == OP_SWITCH and words[1] not in self.decoder.value_types:
            # The literals' width is the selector's: tell the decoder its type.
            self.decoder.value_types[words[1]] = self.local_type(words[1])
        inst = self.decoder.decode(words)
        self._operands[key] = (inst.operands, inst.ext_set)
        return inst

    def ref_positions(self, words: list[int]):
        """The word positions of the ids ``words`` refers to (result and result type excluded)."""
        head = words[0]
        fixed = _LAYOUTS.get(head, False)
        if fixed is False:
            fixed = _LAYOUTS[head] = _fixed_ref_positions(head & 0xFFFF, head >> 16)
        if fixed is not None:
            return fixed
        return [o.offset for o in self.decoded(words).operands if o.kind in _REF_KINDS]


def _fixed_ref_positions(opcode: int, count: int) -> tuple[int, ...] | None:
    """The id-operand positions of every ``count``-word instruction of ``opcode`` when its
    layout does not depend on its words (single-word operands, optional ones absent, a trailing
    list of ids); None when the words must be decoded to tell."""
    desc = _G.instruction(opcode)
    if desc is None:
        return None
    positions: list[int] = []
    pos = 1
    for spec in desc.operands:
        kind, quant = spec.kind, spec.quantifier
        if pos >= count:
            if quant:
                continue
            return None
        if quant == "*" and kind in _REF_KINDS and spec is desc.operands[-1]:
            positions.extend(range(pos, count))
            pos = count
            continue
        if quant:
            return None
        if kind in _REF_KINDS:
            positions.append(pos)
        elif kind not in ("IdResult", "IdResultType", "LiteralInteger"):
            okind = _G.operand_kinds.get(kind)
            if okind is None or okind.category != "ValueEnum" or any(e.parameters for e in okind.enumerants):
                return None
        pos += 1
    return tuple(positions) if pos == count else None


def _split_functions(words: list[list[int]]) -> list[_Function]:
    functions: list[_Function] = []
    fn = None
    for w in words:
        opc = w[0] & 0xFFFF
        if opc == OP_FUNCTION:
            fn = _Function([w])
            functions.append(fn)
        elif opc == OP_LABEL:
            fn.blocks.append(_Block(w))
        elif opc == OP_FUNCTION_END:
            fn.end = w
        elif fn.blocks:
            fn.blocks[-1].instructions.append(w)
        else:
            fn.head.append(w)
    return functions


def _join(functions: list[_Function]) -> list[list[int]]:
    out: list[list[int]] = []
    for fn in functions:
        out.extend(fn.head)
        for blk in fn.blocks:
            out.append(blk.label)
            out.extend(blk.instructions)
        out.append(fn.end)
    return out


class _FunctionPromotion:
    """The pass over one function."""

    def __init__(self, facts: _ModuleFacts, fn: _Function, stats: PromotionStats):
        self.facts = facts
        self.fn = fn
        self.stats = stats
        self.repl: dict[int, int] = {}          # removed load -> its value
        self.phi_sites: list[tuple[list[int], int]] = []   # (words, position) holding a new phi's id
        self.phis: dict[int, _Phi] = {}

    # -- 1. candidates -------------------------------------------------------------------------

    def candidates(self) -> dict[int, tuple[int, int | None]]:
        """var -> (pointee type, initializer) for the Function variables that may be promoted."""
        facts = self.facts
        cands: dict[int, tuple[int, int | None]] = {}
        kept = 0
        for w in self.fn.blocks[0].instructions:
            opc = w[0] & 0xFFFF
            if opc == OP_VARIABLE:
                pointee = facts.pointee.get(w[1])
                if pointee is not None and w[2] not in facts.pinned:
                    cands[w[2]] = (pointee, w[4] if len(w) > 4 else None)
                else:
                    kept += 1
            elif opc != OP_LINE and opc != OP_NO_LINE:
                break
        self.stats.kept += kept
        return cands

    def scan(self, cands):
        """Drop the candidates used other than by a plain load/store; per remaining variable the
        blocks that store it, and the set of variables loaded before a store in some block."""
        blocked: set[int] = set()
        stores: dict[int, list[int]] = {v: [] for v in cands}
        exposed: set[int] = set()
        keys = cands.keys()
        ref_positions = self.facts.ref_positions
        for blk in self.fn.blocks:
            stored = set()
            for w in blk.instructions:
                opc = w[0] & 0xFFFF
                if opc == OP_LOAD:
                    p = w[3]
                    if p in cands:
                        if len(w) > 4 and w[4] & VOLATILE:
                            blocked.add(p)
                        if p not in stored:
                            exposed.add(p)
                elif opc == OP_STORE:
                    p = w[1]
                    if w[2] in cands:
                        blocked.add(w[2])
                    if p in cands:
                        if len(w) > 3 and w[3] & VOLATILE:
                            blocked.add(p)
                        if p not in stored:
                            stored.add(p)
                            stores[p].append(blk.id)
                elif opc == OP_VARIABLE or opc == OP_LINE or keys.isdisjoint(w):
                    continue
                else:
                    for pos in ref_positions(w):
                        if w[pos] in cands:
                            blocked.add(w[pos])
        for v in blocked:
            del cands[v]
        self.stats.kept += len(blocked)
        return stores, exposed

    # -- 2. phi placement --------------------------------------------------------------------------

    def cfg(self) -> FunctionCFG:
        facts = self.facts
        for blk in self.fn.blocks:
            w = blk.instructions[-1] if blk.instructions else None
            if w is None:
                continue
            opc = w[0] & 0xFFFF
            if opc == OP_SWITCH:
                blk.terminator = facts.decoded(w)
            else:
                blk.terminator = Instruction(opc, w, ())
        return FunctionCFG(self.fn)

    def type_of(self, value: int) -> int | None:
        """The type of a local value or constant (for an OpSwitch selector; rare, so a search)."""
        facts = self.facts
        for w in self.fn.head[1:]:
            if w[2] == value:
                return w[1]
        for blk in self.fn.blocks:
            for w in blk.instructions:
                if len(w) > 2 and w[2] == value:
                    desc = _G.instruction(w[0] & 0xFFFF)
                    if desc is not None and desc.has_type and desc.has_result:
                        return w[1]
        for w in facts.types:
            if len(w) > 2 and w[2] == value:
                return w[1]
        return None

    def place_phis(self, cfg: FunctionCFG, cands, stores, exposed) -> dict[int, list[_Phi]]:
        idom = cfg.idom
        frontier: dict[int, set[int]] = {}
        for b in cfg.postorder:
            preds = [p for p in cfg.pred[b] if p in idom]
            if len(preds) < 2:
                continue
            stop = idom[b]
            for p in preds:
                while p != stop:
                    frontier.setdefault(p, set()).add(b)
                    p = idom[p]
        at: dict[int, list[_Phi]] = {}
        if not frontier:
            return at
        fresh_id = self.facts.builder.fresh_id
        for v, (pointee, _) in cands.items():
            if v not in exposed:
                continue   # never read before a store of the same block: no value crosses blocks
            work = [b for b in stores[v] if b in frontier]
            seen = set(work)
            has = set()
            while work:
                for y in frontier.get(work.pop(), ()):
                    if y not in has:
                        has.add(y)
                        phi = _Phi(v, fresh_id(), pointee)
                        at.setdefault(y, []).append(phi)
                        self.phis[phi.id] = phi
                        if y not in seen:
                            seen.add(y)
                            work.append(y)
        return at

    # -- 3. renaming -----------------------------------------------------------------------------

    def rewrite(self, w: list[int]) -> None:
        """Replace the removed loads ``w`` refers to by their values."""
        repl, phis = self.repl, self.phis
        for pos in self.facts.ref_positions(w):
            v = repl.get(w[pos])
            if v is not None:
                while v in repl:    # only in unreachable code: a load stored before it was renamed
                    v = repl[v]
                w[pos] = v
                if v in phis:
                    self.phi_sites.append((w, pos))

    def rename_block(self, blk: _Block, cands, cur: dict, undo: list | None) -> None:
        repl = self.repl
        facts = self.facts
        kept = []
        loads = stores = 0
        for w in blk.instructions:
            opc = w[0] & 0xFFFF
            if opc == OP_LOAD and w[3] in cands:
                p = w[3]
                v = cur.get(p)
                if v is None:
                    pointee, init = cands[p]
                    v = init if init is not None else facts.undef(pointee)
                repl[w[2]] = v
                loads += 1
                continue
            if opc == OP_STORE and w[1] in cands:
                p = w[1]
                v = repl.get(w[2], w[2])
                if undo is not None:
                    undo.append((p, cur.get(p)))
                cur[p] = v
                stores += 1
                continue
            if opc == OP_VARIABLE and w[2] in cands:
                continue
            if repl and opc != OP_PHI and opc != OP_LINE and not repl.keys().isdisjoint(w):
                self.rewrite(w)
            kept.append(w)
        blk.instructions = kept
        self.stats.loads += loads
        self.stats.stores += stores

    def rename(self, cfg: FunctionCFG, cands, phis_at: dict[int, list[_Phi]]) -> None:
        facts = self.facts
        children: dict[int, list[int]] = {}
        for b, d in cfg.idom.items():
            if b != d:
                children.setdefault(d, []).append(b)
        order = cfg.order
        for kids in children.values():
            kids.sort(key=order.__getitem__)
        block = cfg.block
        cur: dict[int, int] = {}
        todo: list = [cfg.entry]
        while todo:
            item = todo.pop()
            if isinstance(item, list):          # leaving a block: restore the definitions
                for v, old in reversed(item):
                    if old is None:
                        cur.pop(v, None)
                    else:
                        cur[v] = old
                continue
            undo: list = []
            for phi in phis_at.get(item, ()):
                undo.append((phi.var, cur.get(phi.var)))
                cur[phi.var] = phi.id
            self.rename_block(block[item], cands, cur, undo)
            for s in cfg.succ[item]:
                for phi in phis_at.get(s, ()):
                    v = cur.get(phi.var)
                    if v is None:
                        pointee, init = cands[phi.var]
                        v = init if init is not None else facts.undef(pointee)
                    phi.incoming[item] = v
            todo.append(undo)
            todo.extend(reversed(children.get(item, ())))
        # Unreachable blocks: their loads see their own block's stores, or undef.
        unreachable = [blk for blk in self.fn.blocks if blk.id not in cfg.reachable]
        for blk in unreachable:
            self.rename_block(blk, cands, {}, None)
        # Phis written by code generation: operands may come along back edges (renamed later
        # than the phi's block); unreachable blocks may use loads of later unreachable blocks.
        repl = self.repl
        if not repl:
            return
        phis = self.phis
        for blk in self.fn.blocks:
            reachable = blk.id in cfg.reachable
            for w in blk.instructions:
                opc = w[0] & 0xFFFF
                if opc == OP_PHI:
                    for pos in range(3, len(w), 2):
                        v = repl.get(w[pos])
                        if v is not None:
                            while v in repl:
                                v = repl[v]
                            w[pos] = v
                            if v in phis:
                                self.phi_sites.append((w, pos))
                elif not reachable and opc != OP_LINE and not repl.keys().isdisjoint(w):
                    self.rewrite(w)

    # -- 4. clean-up -----------------------------------------------------------------------------

    def finish_phis(self, cfg: FunctionCFG, phis_at: dict[int, list[_Phi]]) -> None:
        phis = self.phis
        if not phis:
            return
        # Trivial phis (Braun et al. 2013, §3.1): one value besides the phi itself on the
        # reachable edges. Repeat: removing one can make others trivial.
        same: dict[int, int] = {}

        def final(v: int) -> int:
            while v in same:
                v = same[v]
            return v

        changed = True
        while changed:
            changed = False
            for phi in phis.values():
                if phi.id in same:
                    continue
                values = {final(v) for v in phi.incoming.values()} - {phi.id}
                if len(values) == 1:
                    same[phi.id] = values.pop()
                    changed = True
        # Live phis: named by a kept instruction, or by a live phi.
        live: set[int] = set()
        work = []
        for w, pos in self.phi_sites:
            v = w[pos] = final(w[pos])
            if v in phis and v not in live:
                live.add(v)
                work.append(v)
        while work:
            for v in phis[work.pop()].incoming.values():
                v = final(v)
                if v in phis and v not in live:
                    live.add(v)
                    work.append(v)
        pred = cfg.pred
        undef = self.facts.undef
        count = 0
        for blk in self.fn.blocks:
            placed = phis_at.get(blk.id)
            if not placed:
                continue
            new = []
            for phi in placed:
                if phi.id not in live:
                    continue
                words = [((3 + 2 * len(pred[blk.id])) << 16) | OP_PHI, phi.type, phi.id]
                for p in pred[blk.id]:
                    v = phi.incoming.get(p)
                    words += (final(v) if v is not None else undef(phi.type), p)
                new.append(words)
            count += len(new)
            blk.instructions[:0] = new
        self.stats.phis += count

    def run(self) -> set[int]:
        """Promote; returns the removed ids (variables and loads)."""
        if not self.fn.blocks:
            return set()
        self.facts.local_type = self.type_of
        cands = self.candidates()
        if not cands:
            return set()
        stores, exposed = self.scan(cands)
        if not cands:
            return set()
        cfg = self.cfg()
        phis_at = self.place_phis(cfg, cands, stores, exposed)
        self.rename(cfg, cands, phis_at)
        self.finish_phis(cfg, phis_at)
        self.stats.promoted += len(cands)
        return set(cands).union(self.repl)


def promote_private_variables(b: ModuleBuilder) -> PromotionStats:
    """Rewrite the promotable Function-storage variables of every function of ``b`` into SSA
    values (see the module's docstring); edits ``b``'s sections in place."""
    stats = PromotionStats()
    words = b.sections["functions"]
    if not any((w[0] & 0xFFFF) == OP_VARIABLE for w in words):
        return stats
    facts = _ModuleFacts(b)
    functions = _split_functions(words)
    removed: set[int] = set()
    for fn in functions:
        removed |= _FunctionPromotion(facts, fn, stats).run()
    if not removed:
        return stats
    b.sections["functions"] = _join(functions)
    # Names and decorations of the removed ids (alignments of the variables; none of the loads
    # are named or decorated by the code generator, but another producer might).
    b.sections["debug_names"] = [w for w in b.sections["debug_names"]
                                 if (w[0] & 0xFFFF) != OP_NAME or w[1] not in removed]
    b.sections["annotations"] = [w for w in b.sections["annotations"]
                                 if (w[0] & 0xFFFF) not in (OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING)
                                 or w[1] not in removed]
    return stats


__all__ = ["PromotionStats", "promote_private_variables"]
