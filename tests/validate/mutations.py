"""Seeded, systematic mutation of the valid corpora: the invalid half of the validator's
differential test (issue 5, "How it is checked").

Every mutant is a whole SPIR-V binary made from one valid module of the project's corpora by one
instruction-level edit: drop, duplicate, swap or move an instruction; give a result another type;
point an id operand at another id; change a storage class, a scope or memory-semantics operand
(or the constant behind it); add, remove or alter a decoration; replace an opcode by another of
the same operand shape; change a literal. Mutants are framed correctly (word counts are right,
the header's Bound covers every id), so they reach the validator's rules rather than the binary
reader. ``raw_corruptions`` makes the other kind, for the fuzz test: truncated files, random
words, bad headers, huge or zero word counts.

Everything is deterministic: the random choices are seeded by the source module's name, the
target environment and the operator, so a mutant id (``source:operator:n@env``) names the same
bytes on every machine and every run.

Run it to see what it makes, or to refresh the committed spirv-val verdicts::

    .venv/bin/python tests/validate/mutations.py                  # counts per operator and env
    .venv/bin/python tests/validate/mutations.py --refresh-verdicts  # rewrite the verdict cache

The verdict cache (``tests/data/invalid/mutant_verdicts.json``) holds spirv-val's verdict for
every mutant, keyed by :attr:`Mutant.key` (a hash of the bytes plus the env), and for every
source module the other environments it is valid in: those spirv-val accepts it in, less those
whose own rules (which spirv-val does not check) it breaks according to spirvkit -- an OpenCL C
2.0 kernel with Workgroup-scope atomics passes ``spirv-val --target-env opencl1.2`` but breaks
the OpenCL 1.2 environment's rule that atomics use Device scope. Those are listed under
"dropped" with spirvkit's reason, and a test keeps that list honest. The tests read the cache
instead of starting thousands of spirv-val processes, and check a seeded sample of it against
live spirv-val.
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
import struct
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
DATA = TESTS / "data"
VERDICTS_PATH = DATA / "invalid" / "mutant_verdicts.json"

for _p in (str(TESTS), str(ROOT / "src")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from spirvkit import Module, assemble  # noqa: E402
from spirvkit.spirv.grammar import load_grammar  # noqa: E402

MAGIC = 0x07230203

# -- the valid corpora --------------------------------------------------------------------------

#: Environments a kernel / shader module may be checked in, besides its own: kept when the SPIR-V
#: version fits (spirv-val's max version per env) and spirv-val accepts the unmutated module.
ENV_MAX_VERSION = {
    **{f"spv1.{m}": (1, m) for m in range(7)},
    "opencl1.2": (1, 0), "opencl1.2embedded": (1, 0),
    "opencl2.0": (1, 0), "opencl2.0embedded": (1, 0),
    "opencl2.1": (1, 0), "opencl2.1embedded": (1, 0),
    "opencl2.2": (1, 2), "opencl2.2embedded": (1, 2),
    "vulkan1.0": (1, 0), "vulkan1.1": (1, 3), "vulkan1.1spv1.4": (1, 4),
    "vulkan1.2": (1, 5), "vulkan1.3": (1, 6),
}
KERNEL_ENVS = ("opencl1.2", "opencl1.2embedded", "opencl2.0", "opencl2.0embedded", "opencl2.1",
               "opencl2.2", "opencl2.2embedded")
SHADER_ENVS = ("vulkan1.0", "vulkan1.1", "vulkan1.1spv1.4", "vulkan1.2", "vulkan1.3")


@dataclass(frozen=True)
class Source:
    """One valid module of the corpora and the environment it is valid in."""

    name: str           # corpus-relative, e.g. "asm/k_atomics", "clc/atomics", "bench/saxpy"
    path: Path
    env: str            # the env its corpus validates it in (spirv-val accepts it there)
    data: bytes = field(repr=False)

    @property
    def version(self) -> tuple[int, int]:
        word = int.from_bytes(self.data[4:8], "little")
        return (word >> 16) & 0xFF, (word >> 8) & 0xFF

    @property
    def kind(self) -> str:
        return "kernel" if _is_kernel(self.data) else "shader"

    def candidate_envs(self) -> list[str]:
        """Other environments to try it in (before asking spirv-val which accept it)."""
        family = KERNEL_ENVS if self.kind == "kernel" else SHADER_ENVS
        envs = [e for e in (*family, f"spv1.{self.version[1]}", "spv1.6")
                if e != self.env and ENV_MAX_VERSION[e] >= self.version]
        return list(dict.fromkeys(envs))


def _is_kernel(data: bytes) -> bool:
    words = struct.unpack_from(f"<{len(data) // 4}I", data)
    pos = 5
    while pos < len(words):
        count, opcode = words[pos] >> 16, words[pos] & 0xFFFF
        if opcode == 17 and words[pos + 1] == 6:  # OpCapability Kernel
            return True
        if opcode not in (17, 10, 11, 14) or count == 0:
            return False
        pos += count
    return False


def _manifest(path: Path) -> list[list[str]]:
    with path.open(newline="") as f:
        return [row for row in csv.reader(f, delimiter="\t") if row]


def _asm_header(path: Path) -> dict[str, str]:
    head = {}
    for line in path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()[:12]:
        if line.startswith(";") and ":" in line:
            key, value = line[1:].split(":", 1)
            head[key.strip()] = value.strip()
    return head


@lru_cache(maxsize=1)
def valid_sources() -> tuple[Source, ...]:
    """Every module the corpora say spirv-val accepts, with that env (the corpus' own word)."""
    sources: list[Source] = []
    for path in sorted((DATA / "asm").glob("*.spvasm")):
        head = _asm_header(path)
        if head.get("expect") != "valid" or "as-flags" in head:
            continue
        data = assemble(path.read_text(encoding="utf-8"), head.get("target-env", "spv1.0"))
        sources.append(Source(f"asm/{path.stem}", path, head.get("val-env", head["target-env"]), data))
    for row in _manifest(DATA / "clc" / "MANIFEST.tsv"):
        if row[4] == "valid":
            path = DATA / "clc" / row[0]
            sources.append(Source(f"clc/{path.stem}", path, "opencl2.2", path.read_bytes()))
    for row in _manifest(DATA / "glsl" / "MANIFEST.tsv"):
        if row[3] == "valid":
            path = DATA / "glsl" / row[0]
            sources.append(Source(f"glsl/{path.stem}", path, row[2], path.read_bytes()))
    for row in _manifest(DATA / "kernels" / "MANIFEST.tsv"):
        if row[4] == "valid":
            path = DATA / "kernels" / row[0]
            sources.append(Source(f"kernels/{path.stem}", path, row[-1], path.read_bytes()))
    for path in sorted((ROOT / "benchmarks" / "kernels").glob("*.spv")):
        sources.append(Source(f"bench/{path.stem}", path, "opencl2.2", path.read_bytes()))
    return tuple(sources)


# -- mutants --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    id: str          # "<source>:<operator>:<n>@<env>"
    source: str
    env: str
    operator: str
    note: str        # what was changed, e.g. "drop #12 OpStore"
    data: bytes = field(repr=False)

    @property
    def key(self) -> str:
        return hashlib.sha256(self.data).hexdigest()[:20] + "@" + self.env


class _View:
    """A decoded module as per-instruction word lists, with the lookups the operators need."""

    def __init__(self, data: bytes):
        module = Module.from_bytes(data)
        self.header = list(struct.unpack_from("<5I", data))
        self.insts = module.instructions
        self.words = [list(i.words) for i in self.insts]
        self.chunks = [struct.pack(f"<{len(w)}I", *w) for w in self.words]
        g = load_grammar()
        self.types: list[int] = []
        self.defined: list[int] = []
        self.int_constants: dict[int, int] = {}   # id -> value of 32-bit integer OpConstants
        self.int32_types = set()
        self.annotation_end = 0                   # index just past the annotations section
        self.first_type = None
        self.ext_imports = {}
        for n, inst in enumerate(self.insts):
            rid = inst.result_id
            if rid is not None:
                self.defined.append(rid)
            desc = g.instruction(inst.opcode)
            if desc is None:
                continue
            if desc.klass == "Type-Declaration" and rid is not None:
                self.types.append(rid)
                if self.first_type is None:
                    self.first_type = n
                if inst.opcode == 21 and inst.words[2] == 32:
                    self.int32_types.add(rid)
            if desc.klass == "Annotation":
                self.annotation_end = n + 1
            if inst.opcode == 43 and inst.words[1] in self.int32_types and len(inst.words) == 4:
                self.int_constants[inst.words[2]] = inst.words[3]
            if inst.opcode == 11:
                self.ext_imports[rid] = inst.value(1)
        if self.annotation_end == 0:
            self.annotation_end = self.first_type if self.first_type is not None else len(self.insts)
        self.defined_set = set(self.defined)
        self.bound = self.header[3]

    def frame(self, replace: dict[int, list[list[int]]]) -> bytes:
        """The module with instruction n replaced by the word lists replace[n] (none = dropped;
        several = inserted), and the header's Bound raised over every id it now uses."""
        g = load_grammar()
        bound = self.bound
        parts = []
        for n, chunk in enumerate(self.chunks):
            if n not in replace:
                parts.append(chunk)
                continue
            for words in replace[n]:
                words = list(words)
                words[0] = (len(words) << 16) | (words[0] & 0xFFFF)
                parts.append(struct.pack(f"<{len(words)}I", *words))
                desc = g.instruction(words[0] & 0xFFFF)
                if desc is not None and desc.has_result:
                    at = 2 if desc.has_type else 1
                    if at < len(words) and words[at] >= bound:
                        bound = words[at] + 1
        header = list(self.header)
        header[3] = max(bound, header[3])
        return struct.pack("<5I", *header) + b"".join(parts)


def _operands_of(inst, kinds: tuple[str, ...]):
    return [op for op in inst.operands if op.kind in kinds]


_STORAGE_CLASSES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
_SCOPE_VALUES = (0, 1, 2, 3, 4, 5, 7)
_SEMANTICS_VALUES = (0x0, 0x2, 0x4, 0x8, 0x10, 0x6, 0x40, 0x100, 0x110, 0x210, 0x200, 0x102, 0x104, 0x108,
                     0x48, 0x808, 0x1000, 0x80, 0x8000)
# (decoration, literal operand values or None for no operand); chosen to hit real rules.
_DECORATIONS = (
    (0, None), (1, 7), (2, None), (3, None), (4, None), (5, None), (6, 4), (6, 0), (7, 16), (10, None),
    (11, 28), (11, 24), (11, 31), (11, 0), (14, None), (18, None), (19, None), (20, None), (21, None),
    (22, None), (23, None), (24, None), (25, None), (26, None), (28, None), (30, 0), (33, 0), (34, 0),
    (35, 0), (35, 3), (38, 2), (38, 4), (39, 0), (39, 2), (40, 1), (42, None), (44, 16), (44, 3),
    (4469, None), (4470, None), (5300, None),
)


def op_drop(v: _View, rng: random.Random):
    n = rng.randrange(len(v.insts))
    return {n: []}, f"drop #{n} {v.insts[n].opname}"


def op_duplicate(v, rng):
    n = rng.randrange(len(v.insts))
    return {n: [v.words[n], v.words[n]]}, f"duplicate #{n} {v.insts[n].opname}"


def op_swap(v, rng):
    n = rng.randrange(len(v.insts) - 1)
    if v.words[n] == v.words[n + 1]:
        return None
    return {n: [v.words[n + 1]], n + 1: [v.words[n]]}, f"swap #{n} {v.insts[n].opname} with {v.insts[n + 1].opname}"


def op_move(v, rng):
    n, m = rng.randrange(len(v.insts)), rng.randrange(len(v.insts))
    if abs(n - m) < 2:
        return None
    if m < n:
        return {m: [v.words[n], v.words[m]], n: []}, f"move #{n} {v.insts[n].opname} before #{m}"
    return {n: [], m: [v.words[m], v.words[n]]}, f"move #{n} {v.insts[n].opname} after #{m}"


def op_result_type(v, rng):
    n = rng.randrange(len(v.insts))
    inst = v.insts[n]
    if inst.type_id is None or len(v.types) < 2:
        return None
    new = rng.choice(v.types)
    if new == inst.type_id:
        return None
    words = list(v.words[n])
    words[1] = new
    return {n: [words]}, f"#{n} {inst.opname}: result type %{inst.type_id} -> %{new}"


def op_id_operand(v, rng):
    n = rng.randrange(len(v.insts))
    inst = v.insts[n]
    ops = _operands_of(inst, ("IdRef", "IdScope", "IdMemorySemantics"))
    if not ops:
        return None
    op = rng.choice(ops)
    old = inst.words[op.offset]
    roll = rng.random()
    if roll < 0.1:
        new = v.bound  # an id no instruction defines
    elif roll < 0.4 and v.types:
        new = rng.choice(v.types)
    else:
        new = rng.choice(v.defined)
    if new == old:
        return None
    words = list(v.words[n])
    words[op.offset] = new
    return {n: [words]}, f"#{n} {inst.opname}: operand %{old} -> %{new}"


def op_storage_class(v, rng):
    candidates = [n for n, i in enumerate(v.insts) if _operands_of(i, ("StorageClass",))]
    if not candidates:
        return None
    n = rng.choice(candidates)
    inst = v.insts[n]
    op = _operands_of(inst, ("StorageClass",))[0]
    old = inst.words[op.offset]
    new = rng.choice([s for s in _STORAGE_CLASSES if s != old])
    words = list(v.words[n])
    words[op.offset] = new
    return {n: [words]}, f"#{n} {inst.opname}: storage class {old} -> {new}"


def _scope_like(v, rng, kind: str, values, label: str):
    candidates = [n for n, i in enumerate(v.insts) if _operands_of(i, (kind,))]
    if not candidates:
        return None
    n = rng.choice(candidates)
    inst = v.insts[n]
    op = rng.choice(_operands_of(inst, (kind,)))
    old = inst.words[op.offset]
    if rng.random() < 0.5 and old in v.int_constants:
        # change the constant's value (every user of it changes too)
        at = next(k for k, i in enumerate(v.insts) if i.opcode == 43 and i.words[2] == old)
        new_value = rng.choice([x for x in values if x != v.int_constants[old]])
        words = list(v.words[at])
        words[3] = new_value
        return {at: [words]}, f"{label} constant %{old}: {v.int_constants[old]} -> {new_value}"
    others = [c for c, val in v.int_constants.items() if c != old]
    if not others:
        return None
    new = rng.choice(others)
    words = list(v.words[n])
    words[op.offset] = new
    return {n: [words]}, f"#{n} {inst.opname}: {label} %{old} -> %{new} ({v.int_constants[new]})"


def op_scope(v, rng):
    return _scope_like(v, rng, "IdScope", _SCOPE_VALUES, "scope")


def op_semantics(v, rng):
    return _scope_like(v, rng, "IdMemorySemantics", _SEMANTICS_VALUES, "semantics")


def op_decoration_add(v, rng):
    targets = [i for i in v.defined if i not in v.types] if rng.random() < 0.7 else v.types
    if not targets:
        return None
    target = rng.choice(targets)
    decoration, literal = rng.choice(_DECORATIONS)
    words = [0, target, decoration] + ([] if literal is None else [literal])
    words[0] = 71  # OpDecorate
    at = v.annotation_end if v.annotation_end < len(v.insts) else len(v.insts) - 1
    return {at: [words, v.words[at]]}, f"add OpDecorate %{target} {decoration} {literal if literal is not None else ''}"


def op_decoration_remove(v, rng):
    candidates = [n for n, i in enumerate(v.insts) if i.opcode in (71, 72, 332, 5632, 5633)]
    if not candidates:
        return None
    n = rng.choice(candidates)
    return {n: []}, f"remove #{n} {v.insts[n].opname} {' '.join(map(str, v.words[n][1:]))}"


def op_decoration_alter(v, rng):
    candidates = [n for n, i in enumerate(v.insts) if i.opcode in (71, 72)]
    if not candidates:
        return None
    n = rng.choice(candidates)
    words = list(v.words[n])
    at = 2 if words[0] & 0xFFFF == 71 else 3
    if len(words) > at + 1 and rng.random() < 0.5:
        old = words[at + 1]
        words[at + 1] = rng.choice([0, 1, 2, 3, 4, 7, 8, 64, 0xFFFF, old + 1, old ^ 1])
        if words[at + 1] == old:
            return None
        return {n: [words]}, f"#{n} decoration {words[at]} literal {old} -> {words[at + 1]}"
    decoration, literal = rng.choice(_DECORATIONS)
    if decoration == words[at]:
        return None
    old = words[at]
    words = words[: at] + [decoration] + ([] if literal is None else [literal])
    return {n: [words]}, f"#{n} decoration {old} -> {decoration}"


@lru_cache(maxsize=1)
def _same_shape_opcodes() -> dict[int, tuple[int, ...]]:
    g = load_grammar()
    shapes: dict[tuple, list[int]] = {}
    for opcode, desc in g.instructions.items():
        if desc.klass in ("@exclude",):
            continue
        shapes.setdefault(tuple((o.kind, o.quantifier) for o in desc.operands), []).append(opcode)
    return {op: tuple(x for x in group if x != op) for group in shapes.values() for op in group if len(group) > 1}


def op_opcode(v, rng):
    table = _same_shape_opcodes()
    candidates = [n for n, i in enumerate(v.insts) if i.opcode in table]
    if not candidates:
        return None
    n = rng.choice(candidates)
    inst = v.insts[n]
    core = [op for op in table[inst.opcode] if op < 4096]
    new = rng.choice(core if core and rng.random() < 0.8 else table[inst.opcode])
    words = list(v.words[n])
    words[0] = (words[0] & 0xFFFF0000) | new
    name = load_grammar().instruction(new).opname
    return {n: [words]}, f"#{n} {inst.opname} -> {name}"


def op_ext_inst(v, rng):
    candidates = [n for n, i in enumerate(v.insts) if i.opcode == 12 and isinstance(v.ext_imports.get(i.words[3]), str)]
    if not candidates:
        return None
    n = rng.choice(candidates)
    words = list(v.words[n])
    old = words[4]
    words[4] = rng.choice([old + 1, max(old - 1, 0), rng.randrange(0, 200)])
    if words[4] == old:
        return None
    return {n: [words]}, f"#{n} OpExtInst {v.ext_imports[words[3]]} {old} -> {words[4]}"


_LITERAL_KINDS = ("LiteralInteger", "LiteralContextDependentNumber", "LiteralExtInstInteger",
                  "LiteralSpecConstantOpInteger")


def op_literal(v, rng):
    candidates = [n for n, i in enumerate(v.insts) if _operands_of(i, _LITERAL_KINDS)]
    if not candidates:
        return None
    # an opcode first, then one of its instructions: compilers' modules are mostly loads and
    # stores with Aligned literals, which would otherwise get nearly every literal mutant
    by_opcode: dict[int, list[int]] = {}
    for n in candidates:
        by_opcode.setdefault(v.insts[n].opcode, []).append(n)
    n = rng.choice(by_opcode[rng.choice(sorted(by_opcode))])
    inst = v.insts[n]
    op = rng.choice(_operands_of(inst, _LITERAL_KINDS))
    words = list(v.words[n])
    old = words[op.offset]
    choice = rng.randrange(6)
    new = (old + 1, old - 1 if old else 3, 0, 0xFFFFFFFF, old ^ (1 << rng.randrange(32)), rng.choice((1, 5, 8, 16, 64, 128)))[choice]
    new &= 0xFFFFFFFF
    if new == old:
        return None
    words[op.offset] = new
    return {n: [words]}, f"#{n} {inst.opname}: literal {old} -> {new}"


OPERATORS = {
    "drop": op_drop,
    "duplicate": op_duplicate,
    "swap": op_swap,
    "move": op_move,
    "result-type": op_result_type,
    "id-operand": op_id_operand,
    "storage-class": op_storage_class,
    "scope": op_scope,
    "semantics": op_semantics,
    "decoration-add": op_decoration_add,
    "decoration-remove": op_decoration_remove,
    "decoration-alter": op_decoration_alter,
    "opcode": op_opcode,
    "ext-inst": op_ext_inst,
    "literal": op_literal,
}

#: Mutants per operator for a source in its own env, and per secondary env (rotating operators).
PER_OPERATOR = 3
PER_SECONDARY_ENV = 4


def mutate(source: Source, env: str, operator: str, count: int, view: _View | None = None) -> list[Mutant]:
    view = view or _View(source.data)
    rng = random.Random(f"{source.name}|{env}|{operator}")
    function = OPERATORS[operator]
    made, seen = [], {source.data}
    for _attempt in range(count * 12):
        if len(made) == count:
            break
        result = function(view, rng)
        if result is None:
            continue
        replace, note = result
        data = view.frame(replace)
        if data in seen:
            continue
        seen.add(data)
        made.append(Mutant(f"{source.name}:{operator}:{len(made)}@{env}", source.name, env, operator, note, data))
    return made


def load_verdicts() -> dict:
    if VERDICTS_PATH.exists():
        return json.loads(VERDICTS_PATH.read_text())
    return {"spirv-val": None, "sources": {}, "verdicts": {}}


def source_envs(source: Source, verdicts: dict | None = None) -> list[str]:
    """The source's own env, then the others spirv-val accepts it in (from the verdict cache)."""
    verdicts = verdicts if verdicts is not None else load_verdicts()
    others = verdicts.get("sources", {}).get(source.name, [])
    return [source.env] + [e for e in others if e != source.env]


@lru_cache(maxsize=1)
def all_mutants() -> tuple[Mutant, ...]:
    """Every mutant of every valid source, in a fixed order, distinct by (bytes, env)."""
    verdicts = load_verdicts()
    out: list[Mutant] = []
    keys: set[str] = set()
    operators = list(OPERATORS)
    for source in valid_sources():
        view = _View(source.data)
        envs = source_envs(source, verdicts)
        batches = [mutate(source, envs[0], op, PER_OPERATOR, view) for op in operators]
        for k, env in enumerate(envs[1:]):
            rot = [operators[(k * PER_SECONDARY_ENV + j) % len(operators)] for j in range(PER_SECONDARY_ENV)]
            batches += [mutate(source, env, op, 1, view) for op in rot]
        for batch in batches:
            for m in batch:
                if m.key not in keys:
                    keys.add(m.key)
                    out.append(m)
    return tuple(out)


def sample(mutants, n: int, seed: int = 5) -> list[Mutant]:
    mutants = list(mutants)
    if n >= len(mutants):
        return mutants
    return random.Random(seed).sample(mutants, n)


# -- raw corruption (fuzz) ------------------------------------------------------------------------


def raw_corruptions(data: bytes, name: str, count: int = 24) -> list[tuple[str, bytes]]:
    """Corrupted binaries that need not be framed at all: truncations, random words, bad
    headers, zero and huge word counts, odd lengths."""
    rng = random.Random(f"raw|{name}")
    words = list(struct.unpack_from(f"<{len(data) // 4}I", data))
    out: list[tuple[str, bytes]] = []

    def pack(ws):
        return struct.pack(f"<{len(ws)}I", *ws)

    # instruction starts, to hit word-count words on purpose
    starts, pos = [], 5
    while pos < len(words) and words[pos] >> 16:
        starts.append(pos)
        pos += words[pos] >> 16
    out.append(("empty", b""))
    out.append(("three-bytes", data[:3]))
    out.append(("header-only", data[:20]))
    out.append(("half-header", data[:12]))
    out.append(("odd-length", data + b"\x01"))
    out.append(("bad-magic", pack([0xDEADBEEF] + words[1:])))
    out.append(("byte-swapped-magic-only", pack([0x03022307] + words[1:])))
    out.append(("version-9.9", pack(words[:1] + [0x00090900] + words[2:])))
    out.append(("version-low-byte", pack(words[:1] + [words[1] | 0x01] + words[2:])))
    out.append(("bound-zero", pack(words[:3] + [0] + words[4:])))
    out.append(("bound-huge", pack(words[:3] + [0xFFFFFFFF] + words[4:])))
    out.append(("schema-nonzero", pack(words[:4] + [7] + words[5:])))
    for k in range(4):
        cut = rng.randrange(21, len(data))
        out.append((f"truncate-{k}", data[:cut]))
    for k in range(3):
        at = rng.choice(starts)
        ws = list(words)
        ws[at] = (0xFFFF << 16) | (ws[at] & 0xFFFF)
        out.append((f"huge-word-count-{k}", pack(ws)))
        ws = list(words)
        ws[at] = ws[at] & 0xFFFF
        out.append((f"zero-word-count-{k}", pack(ws)))
        ws = list(words)
        ws[at] = (1 << 16) | rng.randrange(0, 0x10000)
        out.append((f"one-word-random-opcode-{k}", pack(ws)))
    for k in range(max(0, count - len(out))):
        ws = list(words)
        for _ in range(1 + k % 4):
            ws[rng.randrange(5, len(ws))] = rng.getrandbits(32) if k % 2 else rng.randrange(0, 64)
        out.append((f"random-words-{k}", pack(ws)))
    out.append(("garbage-tail", data + pack([rng.getrandbits(32) for _ in range(7)])))
    out.append(("big-endian", struct.pack(f">{len(words)}I", *words)))
    return out


# -- command line ----------------------------------------------------------------------------------


#: Rule families of the environments' own rules: the ones spirv-val does not check in full.
ENV_RULE_FAMILIES = ("opencl.", "vulkan.")


def env_rule_rejection(data: bytes, env: str) -> str:
    """Why an env spirv-val accepts a source in is still not one of its envs: spirvkit's
    validator rejects it there, and *only* for that environment's own rules (OpenCL 1.2's atomic
    scopes, OpenCL 2.0's work-group-only execution scope ...), which spirv-val does not check.
    '' when the env is kept: spirvkit accepts it, is not built yet, or rejects it for a core rule
    (a validator bug that the valid-corpus test must then show, so the env stays)."""
    try:
        from spirvkit.validate import validate
    except ImportError:
        return ""
    diags = validate(data, env, max_errors=20)
    if diags and all(d.rule.startswith(ENV_RULE_FAMILIES) for d in diags):
        first = diags[0]
        return f"{first.rule} ({first.section}): {first.message}"
    return ""


def refresh_verdicts(progress=True) -> dict:
    """Ask spirv-val about every source in every candidate env and every mutant; write the cache."""
    import subprocess
    import tempfile

    from peers import spirv_tool

    val = spirv_tool("spirv-val")
    version = subprocess.run([val, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    old = load_verdicts()
    cache = old.get("verdicts", {}) if old.get("spirv-val") == version else {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.spv"

        def valid(data: bytes, env: str) -> bool:
            path.write_bytes(data)
            return subprocess.run([val, "--target-env", env, str(path)], capture_output=True).returncode == 0

        sources, dropped = {}, {}
        for source in valid_sources():
            sources[source.name] = []
            for env in source.candidate_envs():
                if not valid(source.data, env):
                    continue
                reason = env_rule_rejection(source.data, env)
                if reason:
                    dropped.setdefault(source.name, {})[env] = reason
                else:
                    sources[source.name].append(env)
        VERDICTS_PATH.write_text(json.dumps({"spirv-val": version, "sources": sources, "dropped": dropped, "verdicts": {}}))
        all_mutants.cache_clear()
        mutants = all_mutants()
        verdicts = {}
        for n, m in enumerate(mutants):
            if m.key not in cache:
                cache[m.key] = int(valid(m.data, m.env))
            verdicts[m.key] = cache[m.key]
            if progress and n % 500 == 0:
                print(f"  {n}/{len(mutants)}", file=sys.stderr)
    result = {"spirv-val": version, "sources": sources, "dropped": dropped, "verdicts": dict(sorted(verdicts.items()))}
    VERDICTS_PATH.write_text(json.dumps(result, indent=0, sort_keys=False) + "\n")
    return result


def main(argv=None) -> int:
    import argparse
    from collections import Counter

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refresh-verdicts", action="store_true",
                        help=f"run spirv-val on every mutant and rewrite {VERDICTS_PATH.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    if args.refresh_verdicts:
        result = refresh_verdicts()
        print(f"wrote {len(result['verdicts'])} verdicts to {VERDICTS_PATH.relative_to(ROOT)}")
    mutants = all_mutants()
    print(f"{len(valid_sources())} valid sources, {len(mutants)} distinct mutants "
          f"({len({m.data for m in mutants})} distinct binaries)")
    for label, counter in (("operator", Counter(m.operator for m in mutants)), ("env", Counter(m.env for m in mutants))):
        print(f"by {label}: " + ", ".join(f"{k} {v}" for k, v in sorted(counter.items())))
    verdicts = load_verdicts()["verdicts"]
    known = [verdicts[m.key] for m in mutants if m.key in verdicts]
    if known:
        print(f"spirv-val verdicts cached for {len(known)}: {known.count(0)} invalid, {known.count(1)} valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
