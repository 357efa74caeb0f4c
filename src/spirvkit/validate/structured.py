"""Structured control-flow constructs for Shader modules (SPIR-V 2.11, C5-C7): a construct is
left only through its merge block, a break to the innermost enclosing loop's or switch's merge,
or a continue to the innermost loop's continue target; a case construct falls through to at most
one other case and is entered from at most one.

Constructs are computed from dominance as the spec defines them: a header's construct is what
it dominates minus what its merge block dominates."""

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
    return True


def _switch_targets(term) -> list[int]:
    return [term.words[o.offset] for o in term.operands[1:] if o.kind == "IdRef"]
