"""The ``grammar`` target: grammar-aware mutants of the valid SPIR-V binaries of tests/data. Where
``binary`` flips words (and so mostly tests the decoder), this one inserts whole instructions
into function bodies, or replaces one by another of its class, with operands of the kinds the
grammar names: ids usable at that point (of the result type, most of the time), enumerants with
their parameters, literals. The mutants reach the validator's deeper rules, and the few it
accepts run through the executor (as in ``exec``): a module that passes the validator must run or
fail cleanly. Found the validator's missing OpImageQueryFormat/Order and OpGroupAsyncCopy rules,
whose modules then broke the lowering."""

from __future__ import annotations

import struct

from . import binary
from .binary import instruction_starts, to_bytes, words_of

# The driver's protocol (driver.py): the seeds are binary's, and the shrinker deletes words, as
# for binaries.
corpus, split, join = binary.corpus, binary.split, binary.join

TIMEOUT = 60.0
SUFFIX = ".spv"
ENVS = ("opencl2.2", "vulkan1.2", "spv1.6", "opencl1.2", "vulkan1.0")
RUN_ENV = "opencl2.2"

# Instruction classes that make sense inside a block (no types, decorations or module-level
# declarations), and the instructions of those classes that have a fixed place.
KEEP_CLASSES = frozenset({"Arithmetic", "Bit", "Relational_and_Logical", "Conversion", "Composite", "Memory",
                          "Atomic", "Function", "Group", "Non-Uniform", "Miscellaneous", "Barrier", "Image",
                          "Device-Side_Enqueue", "Pipe"})
PLACED = frozenset({"OpFunction", "OpFunctionEnd", "OpLabel", "OpFunctionParameter", "OpVariable", "OpPhi"})
OP_LABEL, OP_FUNCTION, OP_PARAMETER, OP_CAPABILITY = 248, 54, 55, 17
NOT_BEFORE = frozenset({245, 59, 8, 317})                               # OpPhi, OpVariable, OpLine, OpNoLine
BLOCK_END = frozenset({246, 247, 249, 250, 251, 252, 253, 254, 255})   # merges and terminators
INTERESTING = (0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 255, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
               0x3F800000, 0x7FC00000)

_grammar = None


def _g():
    global _grammar
    if _grammar is None:
        from spirvkit.spirv.grammar import load_grammar

        g = load_grammar()
        _grammar = (g, [d for d in g.instructions.values() if d.klass in KEEP_CLASSES and d.opname not in PLACED],
                    {d.opcode for d in g.instructions.values() if d.klass == "Type-Declaration"},
                    {d.opcode for d in g.instructions.values() if d.klass == "Constant-Creation"},
                    {e.value: e.name for e in g.operand_kinds["Capability"].enumerants})
    return _grammar


def _result_id(g, inst):
    d = g.instructions.get(inst[0] & 0xFFFF)
    if d is None or not d.has_result:
        return None
    k = 2 if d.has_type else 1
    return inst[k] if k < len(inst) else None


def _string(text: str) -> list[int]:
    b = text.encode() + b"\0"
    b += b"\0" * (-len(b) % 4)
    return list(struct.unpack(f"<{len(b) // 4}I", b))


class _Maker:
    """Builds one instruction's words from its grammar entry."""

    def __init__(self, rng, g, types, consts, bound):
        self.rng, self.g, self.types, self.consts, self.bound = rng, g, types, consts, bound
        self.ids, self.typed, self.want = [], {}, None

    def operand(self, kind: str, out: list[int]) -> None:
        rng = self.rng
        if kind == "IdResultType":
            with_values = [t for t in self.types if self.typed.get(t)]
            self.want = rng.choice(with_values if with_values and rng.random() < 0.9 else self.types)
            out.append(self.want)
        elif kind == "IdResult":
            out.append(self.bound)
            self.bound += 1
        elif kind in ("IdScope", "IdMemorySemantics"):
            out.append(rng.choice(self.consts or self.ids))
        elif kind.startswith("Id"):
            same = self.typed.get(self.want)
            if same and rng.random() < 0.75:
                out.append(rng.choice(same))
            else:
                out.append(rng.choice(self.ids) if rng.random() < 0.97 else rng.randrange(1, self.bound + 2))
        elif kind == "LiteralString":
            out.extend(_string(rng.choice(("", "x", "main", "GLSL.std.450", "a" * 9))))
        elif kind.startswith("Literal"):
            out.append(rng.choice(INTERESTING) if rng.random() < 0.5 else rng.randrange(0, 64))
        elif kind.startswith("Pair"):
            out.append(rng.choice(self.ids) if kind.startswith("PairIdRef") else rng.randrange(0, 8))
            out.append(rng.choice(self.ids) if kind.endswith("IdRef") else rng.randrange(0, 8))
        else:
            k = self.g.operand_kinds.get(kind)
            if k is None or not k.enumerants:
                out.append(rng.randrange(0, 8))
            elif k.is_mask:
                chosen = [e for e in k.enumerants if e.value and rng.random() < 0.15]
                out.append(sum(e.value for e in chosen) & 0xFFFFFFFF)
                for e in chosen:
                    for p in e.parameters:
                        self.operand(p, out)
            else:
                e = rng.choice(k.enumerants)
                out.append(e.value)
                for p in e.parameters:
                    self.operand(p, out)

    def instruction(self, desc) -> list[int]:
        self.want = None
        out = [0]
        for spec in desc.operands:
            if spec.quantifier == "?" and self.rng.random() < 0.5:
                continue
            for _ in range(self.rng.randrange(0, 4) if spec.quantifier == "*" else 1):
                self.operand(spec.kind, out)
        out[0] = (len(out) << 16) | desc.opcode
        return out


def _slots(insts) -> list[int]:
    """Where an instruction may go: after a block's OpPhi/OpVariable, up to its merge or terminator."""
    out, inside, start = [], False, 0
    for i, x in enumerate(insts):
        opcode = x[0] & 0xFFFF
        if opcode == OP_LABEL:
            inside, start = True, i + 1
        elif inside and opcode in NOT_BEFORE:
            start = i + 1
        elif inside and opcode in BLOCK_END:
            out.extend(range(start, i + 1))
            inside = False
    return out


def _usable(g, insts, at, globals_, type_of, maker) -> None:
    """The ids an instruction at ``at`` may use: module-level values, the function's parameters and
    the values defined before it in its block (all dominate it), grouped by type."""
    block = max(i for i in range(at + 1) if i == 0 or insts[i - 1][0] & 0xFFFF == OP_LABEL)
    fn = at
    while fn > 0 and insts[fn][0] & 0xFFFF != OP_FUNCTION:
        fn -= 1
    params = [x[2] for x in insts[fn:at] if x[0] & 0xFFFF == OP_PARAMETER]
    local = [r for r in (_result_id(g, x) for x in insts[block:at]) if r]
    maker.ids = globals_ + params + local or globals_
    maker.typed = {}
    for i in maker.ids:
        if i in type_of:
            maker.typed.setdefault(type_of[i], []).append(i)


def _mutant(rng, words: list[int]) -> list[int] | None:
    g, keep, type_ops, const_ops, cap_names = _g()
    insts = [words[s: s + (words[s] >> 16)] for s in instruction_starts(words)]
    insts = [x for x in insts if x]
    have = {cap_names.get(x[1]) for x in insts if x[0] & 0xFFFF == OP_CAPABILITY and len(x) > 1}
    version = ((words[1] >> 16) & 0xFF, (words[1] >> 8) & 0xFF)
    pool = [d for d in keep if (not d.capabilities or set(d.capabilities) & have)
            and (d.version is None or d.version <= version) and not d.extensions]
    first_fn = next((i for i, x in enumerate(insts) if x[0] & 0xFFFF == OP_FUNCTION), len(insts))
    type_of = {x[2]: x[1] for x in insts if len(x) > 2 and (d := g.instructions.get(x[0] & 0xFFFF)) is not None
               and d.has_type}
    results = [(x[0] & 0xFFFF, _result_id(g, x)) for x in insts]
    types = [r for o, r in results if r and o in type_ops]
    consts = [r for o, r in results if r and o in const_ops]
    globals_ = [r for o, r in results[:first_fn] if r and o not in type_ops]
    slots = _slots(insts)
    if not slots or not types or not pool:
        return None
    maker = _Maker(rng, g, types, consts, words[3])
    for _ in range(rng.choice((1, 1, 2, 3))):
        at = rng.choice(slots)
        _usable(g, insts, at, globals_, type_of, maker)
        if rng.random() < 0.7:
            insts.insert(at, maker.instruction(rng.choice(pool)))
        else:   # another instruction of the same class, keeping the result id later ones use
            old = g.instructions.get(insts[at][0] & 0xFFFF)
            same = [d for d in pool if old is not None and d.klass == old.klass and d.has_result == old.has_result]
            if not same:
                continue
            new = maker.instruction(rng.choice(same))
            rid = _result_id(g, insts[at])
            if rid and _result_id(g, new):
                new[2 if g.instructions[new[0] & 0xFFFF].has_type else 1] = rid
            insts[at] = new
        slots = _slots(insts)
    out = list(words[:5])
    out[3] = maker.bound
    for x in insts:
        out.extend(x)
    return out


def mutate(rng, seeds: list[bytes]) -> bytes | None:
    words = _mutant(rng, words_of(rng.choice(seeds)))
    return None if words is None else to_bytes(words)


def execute(data: bytes) -> tuple[str, str]:
    import zlib

    import spirvkit

    from . import exec_kernels

    env = ENVS[zlib.crc32(data) % len(ENVS)]
    spirvkit.disassemble(data)
    if spirvkit.validate(data, target_env=env):
        return "error", f"invalid for {env}"
    if spirvkit.validate(data, target_env=RUN_ENV):
        return "ok", f"valid for {env}"
    return exec_kernels.execute(data)
