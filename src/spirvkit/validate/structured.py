"""Structured control-flow constructs for Shader modules (SPIR-V 2.11, C5-C7): a construct that
contains a header contains its merge block (C5); a construct is left only through its merge
block, a break to the innermost enclosing loop's or switch's merge, or a continue to the
innermost loop's continue target (C6); an OpSwitch block dominates its case constructs, a case
construct falls through to at most one other case and is entered from at most one, and a case
that falls through to another immediately precedes it in the OpSwitch's target list (C7).

Constructs are computed from dominance as the spec defines them: a header's construct is what
it dominates minus what its merge block dominates; a continue construct is what the continue
target dominates and the back-edge block post-dominates; a loop construct leaves its continue
construct out; a case construct is what its OpSwitch target dominates minus what the OpSwitch's
merge block dominates."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 2.11"


class _Construct:
    __slots__ = ("header", "kind", "merge", "continue_target", "blocks")

    def __init__(self, header, kind, merge, continue_target, blocks):
        self.header, self.kind, self.merge = header, kind, merge
        self.continue_target, self.blocks = continue_target, blocks


def _constructs(cfg) -> list[_Construct]:
    out = []
    for b in cfg.blocks:
        if b.id not in cfg.reachable or len(b.instructions) < 2:
            continue
        merge_inst = b.instructions[-2]
        if merge_inst.opcode not in op.MERGES:
            continue
        merge = merge_inst.words[1]
        if merge_inst.opcode == op.LoopMerge:
            kind, cont = "loop", merge_inst.words[2]
        else:
            kind = "switch" if b.terminator.opcode == op.Switch else "selection"
            cont = None
        blocks = {x for x in cfg.reachable if cfg.dominates(b.id, x)
                  and not (merge in cfg.reachable and cfg.dominates(merge, x))}
        out.append(_Construct(b.id, kind, merge, cont, blocks))
    return out


def check(ctx, cfg) -> None:
    constructs = _constructs(cfg)
    if not constructs:
        return
    containing: dict[int, list[_Construct]] = {}
    for c in constructs:
        for x in c.blocks:
            containing.setdefault(x, []).append(c)
    for chain in containing.values():  # innermost first: smaller constructs are nested deeper
        chain.sort(key=lambda c: len(c.blocks))
    for c in constructs:
        if c.kind == "switch" and not _switch_dominates_cases(ctx, cfg, c):
            return
    for bid in cfg.postorder:
        chain = containing.get(bid, [])
        for succ in cfg.succ[bid]:
            exited = [c for c in chain if succ not in c.blocks]
            if exited and not _legal_exit(chain, exited, succ):
                ctx.error("cfg.structured-exit", SEC,
                          f"Block {ctx.name(bid)} exits the {exited[0].kind} construct headed by "
                          f"{ctx.name(exited[0].header)} through {ctx.name(succ)}, which is not its merge block, a "
                          f"break to the innermost loop or switch, or a continue", cfg.block[bid].terminator)
                return
    if not _check_nesting(ctx, cfg, constructs):
        return
    for c in constructs:
        if c.kind == "switch" and not _check_cases(ctx, cfg, c):
            return


def _legal_exit(chain, exited, succ) -> bool:
    if len(exited) == 1 and succ == exited[0].merge:
        return True
    innermost_loop = next((c for c in chain if c.kind == "loop"), None)
    innermost_breakable = next((c for c in chain if c.kind in ("loop", "switch")), None)
    if innermost_breakable is not None and succ == innermost_breakable.merge:
        return True  # break
    if innermost_loop is not None and succ in (innermost_loop.continue_target, innermost_loop.header):
        return True  # continue (or the back edge from the continue construct)
    return False


def _continue_construct(cfg, loop) -> set[int] | None:
    """The continue construct of a loop: the blocks its Continue Target dominates and its back-edge
    block B post-dominates. Within the loop (what the header dominates minus what the merge
    dominates), a block is post-dominated by B when it reaches B and reaches neither a function exit
    nor a branch out of the loop without passing B. None when the loop has no single reachable back
    edge (C3 is checked elsewhere)."""
    cont = loop.continue_target
    if cont not in cfg.reachable:
        return set()
    region = loop.blocks
    back = [p for p in cfg.pred[loop.header] if p in region and cfg.dominates(loop.header, p)]
    if len(back) != 1:
        return None
    b = back[0]
    succ, pred = cfg.succ, cfg.pred
    escapes = {x for x in region if x != b and (not succ[x] or any(t not in region for t in succ[x]))}
    stack = list(escapes)
    while stack:
        for p in pred[stack.pop()]:
            if p != b and p in region and p not in escapes:
                escapes.add(p)
                stack.append(p)
    reaches_b = {b}
    stack = [b]
    while stack:
        for p in pred[stack.pop()]:
            if p in region and p not in reaches_b:
                reaches_b.add(p)
                stack.append(p)
    return {x for x in reaches_b if x not in escapes and cfg.dominates(cont, x)}


def _check_nesting(ctx, cfg, constructs) -> bool:
    """C5: "if a construct contains another header block, then it also contains that header's
    corresponding merge block" (SPIR-V 2.11), for selection, loop, continue and case constructs.
    A loop whose Continue Target is its header has no loop construct apart from its continue
    construct, so neither is checked for it."""
    merges = {c.header: c.merge for c in constructs}
    # (kind, the header that declares the construct, its blocks)
    checked = []
    for c in constructs:
        if c.kind != "loop":
            checked.append((c.kind, c.header, c.blocks))
            if c.kind == "switch":
                term = cfg.block[c.header].terminator
                for t in dict.fromkeys(_switch_targets(term)):
                    if t != c.merge and t in c.blocks:
                        checked.append(("case", c.header, {x for x in c.blocks if cfg.dominates(t, x)}))
            continue
        if c.continue_target == c.header:
            continue
        cont = _continue_construct(cfg, c)
        if cont is None:
            continue
        checked.append(("loop", c.header, c.blocks - cont))
        checked.append(("continue", c.header, cont))
    headers = set(merges)
    for kind, owner, blocks in checked:
        for header in sorted(headers & blocks, key=cfg.order.__getitem__):
            merge = merges[header]
            if header != owner and merge in cfg.reachable and merge not in blocks:
                ctx.error("cfg.structured-nesting", SEC,
                          f"Header block {ctx.name(header)} is contained in the {kind} construct headed by "
                          f"{ctx.name(owner)}, but its merge block {ctx.name(merge)} is not",
                          cfg.block[header].label)
                return False
    return True


def _switch_dominates_cases(ctx, cfg, switch) -> bool:
    """C7: "an OpSwitch block dominates all its defined case constructs" (SPIR-V 2.11)."""
    term = cfg.block[switch.header].terminator
    for t in dict.fromkeys(_switch_targets(term)):
        if t != switch.merge and t in cfg.reachable and not cfg.dominates(switch.header, t):
            ctx.error("cfg.structured-switch", SEC,
                      f"Switch header {ctx.name(switch.header)} does not dominate its case construct "
                      f"{ctx.name(t)}", term)
            return False
    return True


def _check_cases(ctx, cfg, switch) -> bool:
    term = cfg.block[switch.header].terminator
    targets = [t for t in dict.fromkeys(_switch_targets(term)) if t != switch.merge and t in cfg.reachable]
    case_of = {}
    for t in targets:
        for x in cfg.reachable:
            if cfg.dominates(t, x) and not (switch.merge in cfg.reachable and cfg.dominates(switch.merge, x)):
                case_of.setdefault(x, t)
    entered_from: dict[int, set[int]] = {}
    branches_to: dict[int, set[int]] = {}
    for x, case in case_of.items():
        for succ in cfg.succ[x]:
            if succ in targets and succ != case:
                entered_from.setdefault(succ, set()).add(case)
                branches_to.setdefault(case, set()).add(succ)
    for target, sources in entered_from.items():
        if len(sources) > 1:
            ctx.error("cfg.structured-switch", SEC,
                      f"Multiple case constructs have branches to the case construct that targets {ctx.name(target)}",
                      term)
            return False
    for case, dests in branches_to.items():
        if len(dests) > 1:
            ctx.error("cfg.structured-switch", SEC,
                      f"Case construct that targets {ctx.name(case)} has branches to multiple other case construct "
                      f"targets", term)
            return False
    return _check_case_order(ctx, term, switch, {case: next(iter(d)) for case, d in branches_to.items()})


def _check_case_order(ctx, term, switch, falls_to) -> bool:
    """C7: "if Target T1 branches to Target T2, or if Target T1 branches to the Default and the
    Default branches to Target T2, then T1 must immediately precede T2 in the list of the OpSwitch
    Target operands" (SPIR-V 2.11). Consecutive operands naming the same T1 count as one."""
    if not falls_to:
        return True
    labels = _switch_targets(term)
    default, listed = labels[0], labels[1:]
    default_listed = default in listed
    for i, t in enumerate(listed):
        if t == switch.merge or t not in falls_to:
            continue
        if i > 0 and listed[i - 1] == t:
            continue  # the run of operands naming t is checked at its first one
        to = falls_to[t]
        if to == default and not default_listed:
            to = falls_to.get(default)
            if to is None:
                continue  # T1 falls through to the Default only: no order to keep
        j = i
        while j + 1 < len(listed) and listed[j + 1] == t:
            j += 1
        if j + 1 >= len(listed) or listed[j + 1] != to:
            ctx.error("cfg.structured-switch", SEC,
                      f"Case construct that targets {ctx.name(t)} has branches to the case construct that targets "
                      f"{ctx.name(to)}, but does not immediately precede it in the OpSwitch's target list", term)
            return False
    return True


def _switch_targets(term) -> list[int]:
    return [term.words[o.offset] for o in term.operands[1:] if o.kind == "IdRef"]
