"""Forwarding single-store Function variables of shaders to their loads.

glslang (without -O) keeps every GLSL local in a Function variable: ``uint i =
gl_GlobalInvocationID.x; c[i] = a[i] + b[i];`` stores the id once and loads it three times. A
variable stored exactly once, in the entry block, and otherwise only loaded, holds that value
wherever it is loaded after the store (the entry block dominates every block). Its loads are
replaced by the stored value, which makes the buffer indices visible to the group guards
(access_guard.py only follows SSA values) and spares LLVM the memory traffic. The module keeps
every other instruction; the input module is not changed.
"""

from __future__ import annotations

import copy

from ..spirv.grammar import ID_KINDS
from ..spirv.module import Module

OP_NAME, OP_DECORATE, OP_MEMBER_NAME = 5, 71, 6
OP_VARIABLE, OP_LOAD, OP_STORE = 59, 61, 62


def forward_single_stores(module: Module, fn_id: int) -> Module:
    fn = next((f for f in module.functions if f.id == fn_id), None)
    if fn is None or not fn.blocks:
        return module
    first = fn.blocks[0].instructions
    variables = {i.words[2] for i in first if i.opcode == OP_VARIABLE and len(i.words) == 4}
    stores: dict[int, list] = {v: [] for v in variables}
    loads: dict[int, list] = {v: [] for v in variables}
    escaped: set[int] = set()
    for block in fn.blocks:
        for inst in block.instructions:
            if inst.opcode == OP_STORE and inst.words[1] in variables:
                stores[inst.words[1]].append(inst)
                escaped.update(v for v in _ids(inst)[1:] if v in variables)   # stored as a value
            elif inst.opcode == OP_LOAD and inst.words[3] in variables:
                loads[inst.words[3]].append(inst)
            elif inst.opcode != OP_VARIABLE:
                escaped.update(v for v in _ids(inst) if v in variables)
    position = {id(inst): n for n, inst in enumerate(first)}
    replace: dict[int, int] = {}
    dropped: set[int] = set()      # id() of the instructions that go
    for var in variables - escaped:
        if len(stores[var]) != 1 or id(stores[var][0]) not in position:
            continue
        store = stores[var][0]
        after = position[id(store)]
        if any(id(load) in position and position[id(load)] < after for load in loads[var]):
            continue   # a load in the entry block before the store reads the undefined value
        for load in loads[var]:
            replace[load.words[2]] = store.words[2]
            dropped.add(id(load))
        dropped.add(id(store))
        dropped.update(id(i) for i in first if i.opcode == OP_VARIABLE and i.words[2] == var)
    if not replace and not dropped:
        return module
    gone = set(replace) | {i.words[2] for i in first if id(i) in dropped and i.opcode == OP_VARIABLE}
    out = []
    for inst in module.instructions:
        if id(inst) in dropped:
            continue
        if inst.opcode in (OP_NAME, OP_DECORATE, OP_MEMBER_NAME) and inst.words[1] in gone:
            continue
        out.append(_renamed(inst, replace) if replace else inst)
    return Module(out, version=module.version, generator=module.generator, bound=module.bound,
                  schema=module.schema, endian=module.endian)


# Operand kinds of two words, and which of the two are ids.
_PAIRS = {"PairIdRefIdRef": (0, 1), "PairIdRefLiteralInteger": (0,), "PairLiteralIntegerIdRef": (1,)}


def _id_positions(inst) -> list[int]:
    """The word positions of the ids an instruction refers to (its result id excluded)."""
    out = []
    for op in inst.operands:
        if op.kind in ID_KINDS and op.kind != "IdResult":
            out.extend(range(op.offset, op.offset + op.count))
        elif op.kind in _PAIRS:
            out.extend(op.offset + k for k in _PAIRS[op.kind])
    return out


def _ids(inst) -> list[int]:
    return [inst.words[at] for at in _id_positions(inst)]


def _resolve(value: int, replace: dict[int, int]) -> int:
    while value in replace:        # a stored value that was itself a forwarded load
        value = replace[value]
    return value


def _renamed(inst, replace: dict[int, int]):
    positions = [at for at in _id_positions(inst) if inst.words[at] in replace]
    if not positions:
        return inst
    new = copy.copy(inst)
    new.words = list(inst.words)
    for at in positions:
        new.words[at] = _resolve(inst.words[at], replace)
    return new
