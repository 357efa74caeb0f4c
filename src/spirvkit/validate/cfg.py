"""Control flow: blocks and terminators (SPIR-V 2.16.1 U15-U20), OpPhi, OpBranchConditional,
OpSwitch and OpReturn(Value) operand rules (3.32.17), block order (U16), and for Shader the
structured control-flow rules of 2.11 (S1, S2, C1-C4). Also builds each function's CFG with its
dominator tree, which ``ids`` uses for dominance of definitions over uses (U8)."""

from __future__ import annotations

from . import opcodes as op
from . import structured

SEC = "SPIR-V 2.16.1"
SEC_CF = "SPIR-V 2.11"
SEC_INST = "SPIR-V 3.32.17"


def branch_targets(inst) -> list[int]:
    """The labels a terminator may branch to, in operand order (no merge targets)."""
    w = inst.words
    opc = inst.opcode
    if opc == op.Branch:
        return [w[1]] if len(w) > 1 else []
    if opc == op.BranchConditional:
        return list(w[2:4])
    if opc == op.Switch:
        return [w[o.offset] for o in inst.operands[1:] if o.kind == "IdRef"]
    return []


class FunctionCFG:
    """The blocks of one function, their edges, and the dominator tree of the reachable part."""

    def __init__(self, func):
        self.func = func
        self.blocks = func.blocks
        self.order = {b.id: i for i, b in enumerate(func.blocks)}
        self.block = {b.id: b for b in func.blocks}
        self.succ: dict[int, list[int]] = {}
        self.pred: dict[int, list[int]] = {b.id: [] for b in func.blocks}
        for b in func.blocks:
            targets = list(dict.fromkeys(branch_targets(b.terminator))) if b.instructions else []
            self.succ[b.id] = targets
            for t in targets:
                if t in self.pred:
                    self.pred[t].append(b.id)
        self.entry = func.blocks[0].id if func.blocks else None
        self.postorder = self._postorder()
        self.reachable = set(self.postorder)
        self.idom = self._dominators()
        self._number_tree()

    def _postorder(self) -> list[int]:
        if self.entry is None:
            return []
        seen = {self.entry}
        out = []
        stack = [(self.entry, iter(self.succ[self.entry]))]
        while stack:
            node, it = stack[-1]
            for s in it:
                if s not in seen and s in self.succ:
                    seen.add(s)
                    stack.append((s, iter(self.succ[s])))
                    break
            else:
                stack.pop()
                out.append(node)
        return out

    def _dominators(self) -> dict[int, int]:
        # Cooper, Harvey & Kennedy, "A Simple, Fast Dominance Algorithm".
        rpo = list(reversed(self.postorder))
        if not rpo:
            return {}
        number = {b: i for i, b in enumerate(rpo)}
        idom = {rpo[0]: rpo[0]}
        changed = True
        while changed:
            changed = False
            for b in rpo[1:]:
                new = None
                for p in self.pred[b]:
                    if p not in idom:
                        continue
                    if new is None:
                        new = p
                        continue
                    a, c = p, new
                    while a != c:
                        while number[a] > number[c]:
                            a = idom[a]
                        while number[c] > number[a]:
                            c = idom[c]
                    new = a
                if new is not None and idom.get(b) != new:
                    idom[b] = new
                    changed = True
        return idom

    def _number_tree(self) -> None:
        """Pre/post numbers of the dominator tree: a dominates b iff a's interval holds b's."""
        children: dict[int, list[int]] = {}
        for b, d in self.idom.items():
            if b != d:
                children.setdefault(d, []).append(b)
        self.pre: dict[int, int] = {}
        self.post: dict[int, int] = {}
        if self.entry is None or self.entry not in self.idom:
            return
        counter = 0
        stack = [(self.entry, iter(children.get(self.entry, ())))]
        self.pre[self.entry] = counter
        while stack:
            node, it = stack[-1]
            child = next(it, None)
            if child is None:
                stack.pop()
                counter += 1
                self.post[node] = counter
            else:
                counter += 1
                self.pre[child] = counter
                stack.append((child, iter(children.get(child, ()))))

    def dominates(self, a: int, b: int) -> bool:
        """Whether block a dominates block b (both reachable; False otherwise)."""
        if a not in self.pre or b not in self.pre:
            return False
        return self.pre[a] <= self.pre[b] and self.post[b] <= self.post[a]


def build_all(ctx) -> None:
    """Check branch targets, then build ``ctx.cfgs`` (one FunctionCFG per function)."""
    ctx.cfgs = []
    label_function = {}
    for fi, func in enumerate(ctx.functions):
        for b in func.blocks:
            label_function[b.id] = fi
    bad = False
    for fi, func in enumerate(ctx.functions):
        for b in func.blocks:
            term = b.terminator
            for t in branch_targets(term):
                if ctx.def_opcode(t) != op.Label:
                    ctx.error("cfg.branch-target-label", SEC,
                              f"'Target Label' operands for {term.opname} must be the ID of an OpLabel "
                              f"instruction ({ctx.name(t)} is not)", term)
                    bad = True
                elif label_function.get(t) != fi:
                    ctx.error("cfg.branch-target-function", SEC,
                              f"Block {ctx.name(t)} is referenced but not defined in function "
                              f"{ctx.name(func.id)}", term)
                    bad = True
    if not bad:
        ctx.cfgs = [FunctionCFG(f) for f in ctx.functions]


def check(ctx) -> None:
    for cfg in getattr(ctx, "cfgs", ()):
        _check_entry_not_targeted(ctx, cfg)
        _check_block_order(ctx, cfg)
        for b in cfg.blocks:
            for inst in b.instructions:
                checker = _INSTRUCTION_CHECKS.get(inst.opcode)
                if checker is not None:
                    checker(ctx, cfg, b, inst)
        if ctx.is_shader:
            before = len(ctx.diagnostics)
            _check_structured(ctx, cfg)
            if len(ctx.diagnostics) == before:
                structured.check(ctx, cfg)
            _check_reducible(ctx, cfg, "cfg.structured-loop", SEC_CF,
                             "Shader: every cycle must pass through a loop header (irreducible control flow)")
        elif ctx.env.is_opencl and ctx.env.api_version == (3, 0) and not ctx.options.allow_irreducible_control_flow:
            _check_reducible(ctx, cfg, "opencl.irreducible-control-flow", "OpenCL env 2.10",
                             "irreducible control flow is not supported by the device "
                             "(ValidatorOptions.allow_irreducible_control_flow)")


def _check_entry_not_targeted(ctx, cfg) -> None:
    if cfg.entry is not None and cfg.pred.get(cfg.entry):
        ctx.error("cfg.entry-block-target", SEC,
                  f"First block {ctx.name(cfg.entry)} of function {ctx.name(cfg.func.id)} is targeted by "
                  f"block {ctx.name(cfg.pred[cfg.entry][0])}", cfg.block[cfg.entry].label)


def _check_block_order(ctx, cfg) -> None:
    for b in cfg.blocks:
        d = cfg.idom.get(b.id)
        if d is None or d == b.id:
            continue
        if cfg.order[d] > cfg.order[b.id]:
            ctx.error("cfg.block-order", SEC,
                      f"Block {ctx.name(b.id)} appears in the binary before its dominator {ctx.name(d)}",
                      b.label)


# -- instructions -------------------------------------------------------------------------------

def _phi(ctx, cfg, block, inst) -> None:
    w = inst.words
    if (len(w) - 3) % 2:
        ctx.error("cfg.phi-operands", SEC_INST,
                  "OpPhi does not have an equal number of incoming values and basic blocks.", inst)
        return
    if ctx.type_opcode(w[1]) == op.TypeVoid:
        ctx.error("cfg.phi-type", SEC_INST, "OpPhi must not have void result type", inst)
        return
    preds = set(cfg.pred.get(block.id, ()))
    if (len(w) - 3) // 2 != len(preds):
        ctx.error("cfg.phi-predecessors", SEC_INST,
                  f"OpPhi's number of incoming blocks ({(len(w) - 3) // 2}) does not match block's "
                  f"predecessor count ({len(preds)}).", inst)
        return
    seen = set()
    for value, parent in zip(w[3::2], w[4::2]):
        if ctx.type_of(value) != w[1]:
            ctx.error("cfg.phi-type", SEC_INST,
                      f"OpPhi's result type {ctx.name(w[1])} does not match incoming value {ctx.name(value)} "
                      f"type {ctx.type_name(ctx.type_of(value))}.", inst)
            return
        if ctx.def_opcode(parent) != op.Label:
            ctx.error("cfg.phi-parent", SEC_INST,
                      f"OpPhi's incoming basic block {ctx.name(parent)} is not an OpLabel.", inst)
            return
        if parent not in preds:
            ctx.error("cfg.phi-parent", SEC_INST,
                      f"OpPhi's incoming basic block {ctx.name(parent)} is not a predecessor of "
                      f"{ctx.name(block.id)}.", inst)
            return
        if parent in seen:
            ctx.error("cfg.phi-parent", SEC_INST,
                      f"OpPhi references incoming basic block {ctx.name(parent)} multiple times.", inst)
            return
        seen.add(parent)


def _branch_conditional(ctx, cfg, block, inst) -> None:
    w = inst.words
    if len(w) not in (4, 6):
        ctx.error("cfg.branch-weights", SEC_INST,
                  "OpBranchConditional requires either 3 or 5 parameters", inst)
        return
    if not ctx.is_bool_scalar(ctx.type_of(w[1])):
        ctx.error("cfg.condition-type", SEC_INST,
                  "Condition operand for OpBranchConditional must be of boolean type", inst)


def _switch(ctx, cfg, block, inst) -> None:
    selector_type = ctx.type_of(inst.words[1])
    if not ctx.is_int_scalar(selector_type):
        ctx.error("cfg.switch-selector", SEC_INST, "Selector type must be OpTypeInt", inst)
        return
    literals = [inst.value(i) for i, o in enumerate(inst.operands) if o.kind == "LiteralInteger"]
    if len(literals) != len(set(literals)):
        ctx.error("cfg.switch-literals", SEC_INST,
                  "OpSwitch has duplicate case literals (each literal must be unique)", inst)


def _return(ctx, cfg, block, inst) -> None:
    if ctx.type_opcode(cfg.func.result_type) != op.TypeVoid:
        ctx.error("cfg.return-type", SEC_INST,
                  "OpReturn can only be called from a function with void return type.", inst)


def _return_value(ctx, cfg, block, inst) -> None:
    value = inst.words[1]
    vtype = ctx.type_of(value)
    rtype = cfg.func.result_type
    if ctx.type_opcode(rtype) == op.TypeVoid:
        ctx.error("cfg.return-type", SEC_INST,
                  "OpReturnValue cannot be used in a function with void return type.", inst)
    elif vtype != rtype:
        ctx.error("cfg.return-type", SEC_INST,
                  f"OpReturnValue Value <id> {ctx.name(value)}s type does not match OpFunction's return "
                  f"type.", inst)


_INSTRUCTION_CHECKS = {
    op.Phi: _phi,
    op.BranchConditional: _branch_conditional,
    op.Switch: _switch,
    op.Return: _return,
    op.ReturnValue: _return_value,
}


# -- structured control flow (Shader) -------------------------------------------------------------

def _merge_of(block):
    body = block.instructions
    if len(body) >= 2 and body[-2].opcode in op.MERGES:
        return body[-2]
    return None


def _check_structured(ctx, cfg) -> None:
    merge_owner: dict[int, int] = {}
    loop_headers = {}
    for b in cfg.blocks:
        merge = _merge_of(b)
        if merge is None:
            continue
        target = merge.words[1]
        if target in merge_owner:
            ctx.error("cfg.merge-unique", SEC_CF,
                      f"Block {ctx.name(target)} is already a merge block for another header", merge)
            return
        merge_owner[target] = b.id
        if merge.opcode == op.LoopMerge:
            loop_headers[b.id] = merge
        if b.id in cfg.reachable and target in cfg.reachable and not cfg.dominates(b.id, target):
            ctx.error("cfg.header-dominates-merge", SEC_CF,
                      f"Header block {ctx.name(b.id)} doesn't dominate its merge block {ctx.name(target)}", merge)
            return
    _check_back_edges(ctx, cfg, loop_headers)
    _check_structured_selections(ctx, cfg)


def _check_back_edges(ctx, cfg, loop_headers) -> None:
    back_edges: dict[int, list[int]] = {}
    for b in cfg.postorder:
        for s in cfg.succ[b]:
            if s in cfg.reachable and cfg.dominates(s, b):
                if s not in loop_headers:
                    ctx.error("cfg.back-edge-to-loop-header", SEC_CF,
                              f"Back-edges ({ctx.name(b)} -> {ctx.name(s)}) can only be formed between a "
                              f"block and a loop header.", cfg.block[b].terminator)
                    return
                back_edges.setdefault(s, []).append(b)
    for header, merge in loop_headers.items():
        if header not in cfg.reachable:
            continue
        count = len(back_edges.get(header, ()))
        continue_target = merge.words[2]
        # "each loop header having exactly one back edge branching to it" (SPIR-V 2.11). With no
        # back edge, only when the continue target is reachable: an unreachable continue construct
        # (a loop whose body always leaves it) cannot branch back.
        if count > 1 or (count == 0 and continue_target in cfg.reachable):
            ctx.error("cfg.one-back-edge", SEC_CF,
                      f"Loop header {ctx.name(header)} is targeted by {count} back-edge blocks but the "
                      f"standard requires exactly one", merge)
            return
        if continue_target in cfg.reachable and not cfg.dominates(header, continue_target):
            ctx.error("cfg.header-dominates-continue", SEC_CF,
                      f"The continue construct with the continue target {ctx.name(continue_target)} is not "
                      f"dominated by its loop header {ctx.name(header)}", merge)
            return


def _check_structured_selections(ctx, cfg) -> None:
    seen: set[int] = set()
    for bid in reversed(cfg.postorder):
        block = cfg.block[bid]
        term = block.terminator
        merge = _merge_of(block)
        if merge is not None:
            seen.add(merge.words[1])
            if merge.opcode == op.LoopMerge:
                seen.add(merge.words[2])
        if term.opcode == op.BranchConditional:
            t, f = term.words[2], term.words[3]
            t_new = t not in seen
            seen.add(t)
            f_new = f not in seen
            seen.add(f)
            if (merge is None or merge.opcode == op.LoopMerge) and t_new and f_new:
                ctx.error("cfg.structured-selection", SEC, "Selection must be structured", term)
                return
        elif term.opcode == op.Switch:
            if merge is None or merge.opcode != op.SelectionMerge:
                ctx.error("cfg.structured-selection", SEC,
                          "OpSwitch must be preceded by an OpSelectionMerge instruction", term)
                return
            seen.update(branch_targets(term))


def _check_reducible(ctx, cfg, rule, section, message) -> None:
    """A CFG is reducible when removing its back edges (edges to a dominator) leaves no cycle."""
    forward = {b: [s for s in cfg.succ[b] if s in cfg.reachable and not cfg.dominates(s, b)]
               for b in cfg.reachable}
    node = node_on_cycle(cfg.postorder, forward)
    if node is not None:
        ctx.error(rule, section, f"Block {ctx.name(node)}: {message}", cfg.block[node].label)


def node_on_cycle(roots, successors: dict) -> int | None:
    """A node on a cycle of the directed graph ``successors`` (node -> successor list, nodes
    missing from it have none) reachable from ``roots``; None when it is acyclic. Iterative,
    so deep graphs cannot overflow the Python stack."""
    state: dict[int, int] = {}   # 1 = on the DFS stack, 2 = done
    for root in roots:
        if root in state:
            continue
        stack = [(root, iter(successors.get(root, ())))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return nxt
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(successors.get(nxt, ()))))
    return None
