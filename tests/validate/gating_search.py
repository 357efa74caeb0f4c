"""Targeted mutation search for validator false negatives in the capability-gating areas.

Every valid module of the project's corpora (``mutations.valid_sources()``), in its own env and the
other envs spirv-val accepts it in (the verdict cache), gets systematic edits aimed at the rules
that gate features on capabilities, storage classes, scopes and versions:

* ``cap-drop``       remove one OpCapability (each in turn)
* ``ext-drop``       remove one OpExtension (each in turn)
* ``storage-class``  move one pointer type (and the OpVariables of that type) to another storage class
* ``scope``          point one Scope operand at a constant of another scope value
* ``semantics``      add or remove one memory-semantics bit of one operand
* ``interface-add``  add one module-scope variable to an OpEntryPoint's interface
* ``interface-drop`` remove one variable from an OpEntryPoint's interface
* ``version``        rewrite the header's SPIR-V version (within the env's range)
* ``memory-model``   switch a Logical GLSL450 module to the Vulkan memory model
* ``int-width``      make one OpTypeInt/OpTypeFloat 8-, 16- or 64-bit
* ``cap-add``        declare one more capability (with its enabling extension)
* ``var-add``        declare a new variable of one of the module's data types in one storage class

Aimed at the scope, decoration and version families (issue 20):

* ``scope-env``      Kernel modules in *every* OpenCL env their version fits (not only the ones
                     spirv-val accepts the source in): one scope operand set to each scope value, or
                     one memory-semantics operand's order set to each order (storage bits kept)
* ``decoration-kind`` every decoration of the grammar, with operands made from the grammar's
                     parameter kinds (literals, <id>s, Scope <id>s, strings, enumerants), through
                     OpDecorate, OpDecorateId and OpDecorateString (right and wrong instruction),
                     on a variable, a function-local result, a type, or a structure member
* ``operand-version`` a version-gated operand of an instruction: an enumerant or mask bit with a
                     minimum SPIR-V version or a required capability, swapped into an operand of
                     its kind, with the header version set to the one before that minimum (and
                     left as it is); an optional trailing mask (memory access, image operands)
                     added where the grammar allows one, OpCopyMemory(Sized)'s second included

Then it compares spirvkit's verdict with spirv-val's for the same env and counts the false
negatives (spirv-val rejects, spirvkit accepts) and false positives (the reverse), grouped by
spirv-val's / spirvkit's message; a false positive whose every spirvkit diagnostic is decided by
quoted spec text (``spec_decided.NOTES``) is counted apart, as spec-decided. spirv-val's verdicts
are cached under ``--cache`` (a scratch file outside the repository by default) so a rerun after a
validator change is quick::

    .venv/bin/python tests/validate/gating_search.py               # counts and groups
    .venv/bin/python tests/validate/gating_search.py --list fn     # every false negative
    .venv/bin/python tests/validate/gating_search.py --operator cap-drop --list fp

Deterministic: the same corpora give the same mutants (sampling is seeded by source, env and
operator). Not a test: a tool for finding the rules to add (see docs/validator-differences.md).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import struct
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mutations  # noqa: E402
from mutations import ENV_MAX_VERSION, _View  # noqa: E402

from spirvkit.spirv.grammar import load_grammar  # noqa: E402

OP_CAPABILITY, OP_EXTENSION, OP_MEMORY_MODEL, OP_ENTRY_POINT = 17, 10, 14, 15
OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_POINTER, OP_CONSTANT, OP_VARIABLE = 21, 22, 32, 43, 59
STORAGE_CLASSES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12)  # the core classes, AtomicCounter/Image left out
SCOPES = (0, 1, 2, 3, 4, 5)
SEMANTIC_BITS = (0x2, 0x4, 0x8, 0x10, 0x40, 0x80, 0x100, 0x200, 0x800, 0x1000, 0x2000, 0x4000, 0x8000)
PER_OPERATOR_CAP = 40  # most mutants per (source, env, operator); the rest are sampled away


@dataclass(frozen=True)
class Candidate:
    id: str
    source: str
    env: str
    operator: str
    note: str
    data: bytes = field(repr=False)

    @property
    def key(self) -> str:
        return hashlib.sha256(self.data).hexdigest()[:24] + "@" + self.env


def _pack(words) -> list[int]:
    words = list(words)
    words[0] = (len(words) << 16) | (words[0] & 0xFFFF)
    return words


def _string_words(text: str) -> list[int]:
    raw = text.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 4)
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


# -- operators: each yields (replace, note) pairs for View.frame ------------------------------------


def m_cap_drop(v: _View, env: str):
    for n, inst in enumerate(v.insts):
        if inst.opcode == OP_CAPABILITY:
            yield {n: []}, f"drop OpCapability {_enum('Capability', inst.words[1])}"


def m_ext_drop(v, env):
    for n, inst in enumerate(v.insts):
        if inst.opcode == OP_EXTENSION:
            yield {n: []}, f"drop OpExtension {inst.value(0)}"


def m_storage_class(v, env):
    for n, inst in enumerate(v.insts):
        if inst.opcode != OP_TYPE_POINTER:
            continue
        ptr, old = inst.words[1], inst.words[2]
        users = [k for k, i in enumerate(v.insts) if i.opcode == OP_VARIABLE and i.words[1] == ptr]
        for new in STORAGE_CLASSES:
            if new == old:
                continue
            replace = {n: [v.words[n][:2] + [new] + v.words[n][3:]]}
            for k in users:
                replace[k] = [v.words[k][:3] + [new] + v.words[k][4:]]
            yield replace, f"pointer %{ptr}: {_enum('StorageClass', old)} -> {_enum('StorageClass', new)}"


def _scope_operands(v, kind):
    for n, inst in enumerate(v.insts):
        for o in inst.operands:
            if o.kind == kind:
                yield n, inst, o


def _constant_for(v, n_use, old_id, value, extra):
    """(id, inserts) of a 32-bit int constant with ``value``: an existing one, or a new one placed
    right after the constant ``old_id`` (same type)."""
    for cid, cval in v.int_constants.items():
        if cval == value:
            return cid, {}
    at = next((k for k, i in enumerate(v.insts) if i.opcode == OP_CONSTANT and i.words[2] == old_id), None)
    if at is None:
        return None, {}
    new_id = v.bound + extra
    return new_id, {at: [v.words[at], [OP_CONSTANT, v.words[at][1], new_id, value]]}


def _constant_operand_mutants(v, kind: str, new_values, describe):
    """Point one ``kind`` operand (IdScope, IdMemorySemantics) whose value is a known 32-bit
    constant at a constant of each value ``new_values(old)`` gives (reused or added)."""
    for n, inst, o in _scope_operands(v, kind):
        old = inst.words[o.offset]
        if old not in v.int_constants:
            continue
        value0 = v.int_constants[old]
        for value in new_values(value0):
            if value == value0:
                continue
            cid, replace = _constant_for(v, n, old, value, 0)
            if cid is None:
                continue
            words = list(v.words[n])
            words[o.offset] = cid
            replace = dict(replace)
            replace[n] = [words]
            yield replace, f"#{n} {inst.opname}: {describe(value0, value)}"


def m_scope(v, env):
    yield from _constant_operand_mutants(v, "IdScope", lambda _old: SCOPES,
                                         lambda a, b: f"scope {_enum('Scope', a)} -> {_enum('Scope', b)}")


def _semantics_note(a, b):
    return f"semantics {a:#x} -> {b:#x}"


def m_semantics(v, env):
    yield from _constant_operand_mutants(v, "IdMemorySemantics", lambda old: [old ^ bit for bit in SEMANTIC_BITS],
                                         _semantics_note)


def _globals(v):
    return [(n, i) for n, i in enumerate(v.insts) if i.opcode == OP_VARIABLE and i.words[3] != 7]


def _entry_points(v):
    out = []
    for n, inst in enumerate(v.insts):
        if inst.opcode == OP_ENTRY_POINT:
            name_words = len(_string_words(inst.value(2)))
            out.append((n, 3 + name_words))  # index of the first interface word
    return out


def m_interface_add(v, env):
    for n, first in _entry_points(v):
        listed = set(v.words[n][first:])
        for _k, var in _globals(v):
            vid = var.words[2]
            if vid in listed or var.words[1] not in v.defined_set:
                continue
            yield {n: [v.words[n] + [vid]]}, f"entry point #{n}: add %{vid} ({_enum('StorageClass', var.words[3])})"


def m_interface_drop(v, env):
    for n, first in _entry_points(v):
        words = v.words[n]
        for k in range(first, len(words)):
            yield {n: [words[:k] + words[k + 1:]]}, f"entry point #{n}: drop %{words[k]}"


def m_version(v, env):
    top = ENV_MAX_VERSION[env]
    for minor in range(0, top[1] + 1):
        if (1, minor) == (v.header[1] >> 16 & 0xFF, v.header[1] >> 8 & 0xFF):
            continue
        yield {"version": (1, minor)}, f"version -> 1.{minor}"


def m_memory_model(v, env):
    mm = next((n for n, i in enumerate(v.insts) if i.opcode == OP_MEMORY_MODEL), None)
    if mm is None or v.insts[mm].words[2] == 3:
        return
    caps_end = max(n for n, i in enumerate(v.insts) if i.opcode == OP_CAPABILITY)
    have = {i.words[1] for i in v.insts if i.opcode == OP_CAPABILITY}
    exts = {i.value(0) for i in v.insts if i.opcode == OP_EXTENSION}
    for with_device_scope in (False, True):
        add = [[OP_CAPABILITY, 5345]] if 5345 not in have else []
        if with_device_scope and 5346 not in have:
            add.append([OP_CAPABILITY, 5346])
        replace = {caps_end: [v.words[caps_end], *add]}
        if "SPV_KHR_vulkan_memory_model" not in exts:
            replace[caps_end].append([OP_EXTENSION, *_string_words("SPV_KHR_vulkan_memory_model")])
        replace[mm] = [[OP_MEMORY_MODEL, v.insts[mm].words[1], 3]]
        yield replace, "memory model -> Vulkan" + (" (+VulkanMemoryModelDeviceScope)" if with_device_scope else "")


def m_int_width(v, env):
    for n, inst in enumerate(v.insts):
        if inst.opcode in (OP_TYPE_INT, OP_TYPE_FLOAT) and len(inst.words) >= 3:
            for width in (8, 16, 64):
                if width == inst.words[2] or (inst.opcode == OP_TYPE_FLOAT and width == 8):
                    continue
                words = list(v.words[n])
                words[2] = width
                yield {n: [words]}, f"#{n} {inst.opname} %{inst.words[1]}: width {inst.words[2]} -> {width}"


_ADDED_CAPABILITIES = ("VulkanMemoryModel", "VulkanMemoryModelDeviceScope", "Int8", "Int16", "Int64", "Float16",
                       "Float64", "Linkage", "Kernel", "Shader", "Addresses", "VariablePointers",
                       "VariablePointersStorageBuffer", "GroupNonUniform", "StorageBuffer16BitAccess",
                       "StorageBuffer8BitAccess", "Int64Atomics", "GenericPointer", "Groups", "DeviceEnqueue",
                       "Pipes", "ImageBasic", "Float16Buffer", "SubgroupDispatch", "PhysicalStorageBufferAddresses")


def m_cap_add(v, env):
    """Add one capability (and the extension that enables it, where the grammar names one)."""
    g = load_grammar()
    kind = g.operand_kinds["Capability"]
    have = {i.words[1] for i in v.insts if i.opcode == OP_CAPABILITY}
    exts = {i.value(0) for i in v.insts if i.opcode == OP_EXTENSION}
    last = max(n for n, i in enumerate(v.insts) if i.opcode == OP_CAPABILITY)
    for name in _ADDED_CAPABILITIES:
        e = kind.by_name.get(name)
        if e is None or e.value in have:
            continue
        words = [[OP_CAPABILITY, e.value]]
        if e.extensions and not exts & set(e.extensions):
            words.append([OP_EXTENSION, *_string_words(e.extensions[0])])
        yield {last: [v.words[last], *words]}, f"add OpCapability {name}"


def m_var_add(v, env):
    """Declare one new variable of a data type of the module in one storage class (a new
    OpTypePointer and OpVariable: module scope, or first in the first function for Function)."""
    data_types = [i.words[1] for i in v.insts if i.opcode in (20, 21, 22, 23, 24, 28, 29, 30)]
    first_fn = next((n for n, i in enumerate(v.insts) if i.opcode == 54), None)
    if first_fn is None or not data_types:
        return
    first_label = next(n for n in range(first_fn, len(v.insts)) if v.insts[n].opcode == 248)
    last_global = first_fn - 1
    for t in data_types:
        for sc in (7, 6, 4, 1, 3, 12, 2, 9, 5, 0):
            ptr, var = v.bound, v.bound + 1
            replace = {last_global: [v.words[last_global], [OP_TYPE_POINTER, ptr, sc, t]]}
            if sc == 7:
                replace[first_label] = [v.words[first_label], [OP_VARIABLE, ptr, var, sc]]
            else:
                replace[last_global].append([OP_VARIABLE, ptr, var, sc])
            yield replace, f"new {_enum('StorageClass', sc)} variable of %{t}"


_ORDERS = (0x0, 0x2, 0x4, 0x8, 0x10)  # Relaxed, Acquire, Release, AcquireRelease, SequentiallyConsistent


def m_scope_env(v, env):
    """Every scope value on one scope operand, every memory order on one semantics operand (its
    storage-class bits kept); run in every OpenCL env (``ALL_ENVS``)."""
    yield from m_scope(v, env)
    yield from _constant_operand_mutants(v, "IdMemorySemantics",
                                         lambda old: [(old & ~0x1E) | order for order in _ORDERS], _semantics_note)


OP_DECORATE, OP_MEMBER_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING = 71, 72, 332, 5632
OP_TYPE_STRUCT, OP_FUNCTION = 30, 54


def _operand_words(v, kind: str, extra: int):
    """Words for one operand of grammar kind ``kind`` (None when the module cannot supply one):
    an <id> of an existing 32-bit constant of a suitable value, a literal, a string or the first
    enumerant; ``extra`` numbers new ids."""
    g = load_grammar()
    k = g.operand_kinds.get(kind)
    consts = v.int_constants
    if kind in ("IdScope",):
        return next(([c] for c, val in consts.items() if val in (2, 3)), None)
    if kind == "IdMemorySemantics":
        return next(([c] for c, val in consts.items() if val == 0), None)
    if kind.startswith("Id"):
        return next(([c] for c, val in consts.items() if val in (1, 4, 16)), None)
    if kind == "LiteralString":
        return _string_words("x")
    if kind.startswith("Literal"):
        return [4]
    if k is not None and k.enumerants:
        e = k.enumerants[min(1, len(k.enumerants) - 1)]
        return None if e.parameters else [e.value]
    return None


def _decoration_targets(v):
    """(id, member or None, what) targets: a module-scope variable, a result inside a function,
    a type, a structure member."""
    out = []
    var = next((i.words[2] for i in v.insts if i.opcode == OP_VARIABLE), None)
    if var is not None:
        out.append((var, None, "variable"))
    in_fn = False
    for i in v.insts:
        if i.opcode == OP_FUNCTION:
            in_fn = True
        elif in_fn and i.result_id is not None and i.opcode not in (OP_VARIABLE, 248, 55):
            out.append((i.result_id, None, "result"))
            break
    if v.types:
        out.append((v.types[0], None, "type"))
    struct_ = next((i.words[1] for i in v.insts if i.opcode == OP_TYPE_STRUCT and len(i.words) > 2), None)
    if struct_ is not None:
        out.append((struct_, 0, "member"))
    return out


def m_decoration_kind(v, env):
    """Each grammar decoration with operands of its parameter kinds, through the instruction its
    operands call for and through the others."""
    g = load_grammar()
    at = v.annotation_end
    targets = _decoration_targets(v)
    if not targets:
        return
    for e in g.operand_kinds["Decoration"].enumerants:
        params = []
        for kind in e.parameters:
            words = _operand_words(v, kind, 0)
            if words is None:
                break
            params += words
        else:
            takes_id = any(g.operand_kinds[k].category == "Id" for k in e.parameters if k in g.operand_kinds)
            takes_string = "LiteralString" in e.parameters
            for target, member, what in targets:
                if member is not None:
                    forms = [(OP_MEMBER_DECORATE, "OpMemberDecorate")]
                else:
                    forms = [(OP_DECORATE, "OpDecorate")]
                    forms.append((OP_DECORATE_ID, "OpDecorateId") if not takes_id else (OP_DECORATE, "OpDecorate"))
                    if takes_id:
                        forms.append((OP_DECORATE_ID, "OpDecorateId"))
                    if takes_string:
                        forms.append((OP_DECORATE_STRING, "OpDecorateString"))
                for opcode, opname in dict.fromkeys(forms):
                    head = [opcode, target] + ([member] if member is not None else [])
                    words = head + [e.value] + params
                    yield {at: [words, v.words[at]] if at < len(v.words) else [words]}, \
                        f"{opname} {what} %{target} {e.name}"


def _version_gated(kind: str):
    """Enumerants of ``kind`` with a minimum version above 1.0 or a capability, without parameters
    (their operand words cannot be guessed) unless they are Literal/Id ones."""
    k = load_grammar().operand_kinds.get(kind)
    if k is None or not k.enumerants:
        return []
    return [e for e in k.enumerants if (e.version or (1, 0)) > (1, 0) or e.capabilities or e.extensions]


def m_operand_version(v, env):
    """Swap a version- or capability-gated enumerant into an operand of its kind (mask bits ORed
    in), with the header version set below the enumerant's minimum and left as it is; add an
    optional trailing memory-access / image-operands mask where the grammar has one."""
    g = load_grammar()
    top = ENV_MAX_VERSION[env]
    here = (v.header[1] >> 16 & 0xFF, v.header[1] >> 8 & 0xFF)
    for n, inst in enumerate(v.insts):
        desc = g.instruction(inst.opcode)
        if desc is None or desc.klass in ("Annotation", "Debug"):
            continue
        for o in inst.operands:
            k = g.operand_kinds.get(o.kind)
            if k is None or not k.enumerants or o.count != 1 or o.kind == "Capability":
                continue
            for e in _version_gated(o.kind):
                if e.parameters:
                    continue
                words = list(v.words[n])
                old = words[o.offset]
                words[o.offset] = (old | e.value) if k.is_mask else e.value
                if words[o.offset] == old:
                    continue
                minimum = e.version or (1, 0)
                versions = [None]
                if minimum > (1, 0) and minimum[1] - 1 >= 0 and (1, minimum[1] - 1) != here:
                    versions.append((1, minimum[1] - 1))
                for version in versions:
                    replace = {n: [words]}
                    if version is not None:
                        replace["version"] = version
                    yield replace, f"#{n} {inst.opname}: {o.kind} {e.name}" + (
                        f" @1.{version[1]}" if version else "")
        # an optional trailing mask the instruction leaves out, or a second one (OpCopyMemory*)
        spec = desc.operands
        present = len(inst.operands)
        optional = present < len(spec) and spec[present].quantifier == "?" and \
            spec[present].kind in ("MemoryAccess", "ImageOperands")
        second_copy_mask = inst.opcode in (63, 64) and inst.operands[-1].kind == "MemoryAccess" and \
            sum(1 for x in inst.operands if x.kind == "MemoryAccess") == 1
        if not (optional or second_copy_mask):
            continue
        masks = ((0x4000, "ZeroExtend", []),) if optional and spec[present].kind == "ImageOperands" else \
            ((0x1, "Volatile", []), (0x2, "Aligned 4", [4]), (0x4, "Nontemporal", []))  # Nontemporal: 1.4
        for bits, label, extra in masks:
            for version in (None, (1, 3)):
                if version is not None and (here < (1, 4) or top < (1, 4)):
                    continue  # the 1.3 variant only for a 1.4+ module, whose 1.4 features may break it
                replace = {n: [v.words[n] + [bits] + extra]}
                if version is not None:
                    replace["version"] = version
                yield replace, f"#{n} {inst.opname}: add mask {label}" + (" @1.3" if version else "")


OPERATORS = {
    "cap-drop": m_cap_drop,
    "ext-drop": m_ext_drop,
    "storage-class": m_storage_class,
    "scope": m_scope,
    "semantics": m_semantics,
    "interface-add": m_interface_add,
    "interface-drop": m_interface_drop,
    "version": m_version,
    "memory-model": m_memory_model,
    "int-width": m_int_width,
    "cap-add": m_cap_add,
    "var-add": m_var_add,
    "scope-env": m_scope_env,
    "decoration-kind": m_decoration_kind,
    "operand-version": m_operand_version,
}
# operators whose mutants go to every env of the source's kind its version fits, not only the
# envs spirv-val accepts the source in (the env's own rules differ per version)
ALL_ENVS = {"scope-env": mutations.KERNEL_ENVS}


def _enum(kind: str, value: int) -> str:
    e = load_grammar().operand_kinds[kind].by_value.get(value)
    return e.name if e else str(value)


def _frame(v: _View, replace: dict) -> bytes | None:
    version = replace.pop("version", None)
    data = v.frame({k: [_pack(w) for w in ws] for k, ws in replace.items()})
    if version is not None:
        header = list(struct.unpack_from("<5I", data))
        header[1] = (version[0] << 16) | (version[1] << 8)
        data = struct.pack("<5I", *header) + data[20:]
    return data


def candidates(operators=None, sources=None) -> list[Candidate]:
    verdicts = mutations.load_verdicts()
    out, keys = [], set()
    for source in mutations.valid_sources():
        if sources and not any(s in source.name for s in sources):
            continue
        view = _View(source.data)
        own_envs = mutations.source_envs(source, verdicts)
        version = (view.header[1] >> 16 & 0xFF, view.header[1] >> 8 & 0xFF)
        for env in dict.fromkeys([*own_envs, *(e for envs in ALL_ENVS.values() for e in envs)]):
            for name, function in OPERATORS.items():
                if operators and name not in operators:
                    continue
                if name in ALL_ENVS:
                    if env not in ALL_ENVS[name] or source.kind != "kernel" or version > ENV_MAX_VERSION[env]:
                        continue
                elif env not in own_envs:
                    continue
                made = list(function(view, env))
                if len(made) > PER_OPERATOR_CAP:
                    made = random.Random(f"{source.name}|{env}|{name}").sample(made, PER_OPERATOR_CAP)
                for k, (replace, note) in enumerate(made):
                    data = _frame(view, dict(replace))
                    if data is None or data == source.data:
                        continue
                    c = Candidate(f"{source.name}:{name}:{k}@{env}", source.name, env, name, note, data)
                    if c.key not in keys:
                        keys.add(c.key)
                        out.append(c)
    return out


# -- comparing ---------------------------------------------------------------------------------------


class Peer:
    def __init__(self, cache_path: Path):
        from peers import spirv_tool

        self.val = spirv_tool("spirv-val")
        self.cache_path = cache_path
        self.cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
        self.tmp = tempfile.TemporaryDirectory(prefix="spirvkit-gating-")
        self.file = Path(self.tmp.name) / "m.spv"

    def verdict(self, c: Candidate) -> tuple[bool, str]:
        hit = self.cache.get(c.key)
        if hit is None:
            self.file.write_bytes(c.data)
            r = subprocess.run([self.val, "--target-env", c.env, str(self.file)], capture_output=True, timeout=60)
            text = (r.stderr + r.stdout).decode("utf-8", "replace")
            message = next((ln for ln in text.splitlines() if ln.startswith("error")), text.strip()[:200])
            hit = self.cache[c.key] = [r.returncode == 0, "" if r.returncode == 0 else message]
        return bool(hit[0]), hit[1]

    def save(self):
        self.cache_path.write_text(json.dumps(self.cache))


def normalise(message: str) -> str:
    message = re.sub(r"^error: (line \d+: )?", "", message)
    message = re.sub(r"\[VUID[^]]*\] *", "", message)
    message = re.sub(r"'[^']*'", "'…'", message)
    message = re.sub(r"%\w+", "%…", message)
    message = re.sub(r"\d+", "N", message)
    return " ".join(message.split()[:12])


def run(operators=None, sources=None, cache=None, listing=None, examples=0) -> dict:
    from spirvkit.validate import validate

    import spec_decided

    peer = Peer(Path(cache or Path(tempfile.gettempdir()) / "spirvkit-gating-verdicts.json"))
    found = candidates(operators, sources)
    fn, fp, decided = [], [], []
    per_op = defaultdict(lambda: [0, 0, 0, 0])  # total, fn, fp, fp decided by spec text
    for n, c in enumerate(found):
        theirs, message = peer.verdict(c)
        diags = validate(c.data, c.env, max_errors=1)
        ours = not diags
        row = per_op[c.operator]
        row[0] += 1
        if ours and not theirs:
            fn.append((c, message))
            row[1] += 1
        elif theirs and not ours:
            every = validate(c.data, c.env, max_errors=20)
            item = (c, f"[{diags[0].rule}] {diags[0].message}")
            if all(spec_decided.note_for(d) is not None for d in every):
                decided.append(item)
                row[3] += 1
            else:
                fp.append(item)
                row[2] += 1
        if n % 2000 == 0:
            peer.save()
    peer.save()
    agree = len(found) - len(fn) - len(fp) - len(decided)
    print(f"{len(found)} mutants from {len(mutations.valid_sources())} sources: "
          f"{len(fn)} false negatives (spirv-val rejects, spirvkit accepts), "
          f"{len(fp)} false positives (spirvkit rejects, spirv-val accepts), "
          f"{len(decided)} more rejections spirv-val does not share, each decided by quoted spec text; "
          f"raw agreement {agree / max(1, len(found)):.2%}, "
          f"with the spec-decided ones {(agree + len(decided)) / max(1, len(found)):.2%}")
    for name, (total, nfn, nfp, ndec) in sorted(per_op.items()):
        print(f"  {name:15} {total:6} mutants  {nfn:4} FN  {nfp:4} FP  {ndec:4} spec-decided")
    for label, items in (("false negatives", fn), ("false positives", fp), ("spec-decided", decided)):
        groups = Counter(normalise(m) for _c, m in items)
        if groups:
            print(f"\n{label} by message:")
            for g, count in groups.most_common():
                print(f"  {count:5}  {g}")
                for c, m in [x for x in items if normalise(x[1]) == g][:examples]:
                    print(f"           {c.id}  ({c.note})\n             {m}")
    if listing:
        for c, m in {"fn": fn, "fp": fp, "decided": decided}[listing]:
            print(f"{c.id}\t{c.note}\n    {m}")
    return {"mutants": len(found), "fn": len(fn), "fp": len(fp), "decided": len(decided)}


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--operator", action="append", choices=sorted(OPERATORS))
    parser.add_argument("--source", action="append", help="only sources whose name contains this")
    parser.add_argument("--cache", help="spirv-val verdict cache (default: in the temp dir)")
    parser.add_argument("--list", choices=("fn", "fp", "decided"),
                        help="print every false negative / positive / spec-decided rejection")
    parser.add_argument("--examples", type=int, default=0, help="print this many mutants per group")
    args = parser.parse_args(argv)
    run(args.operator, args.source, args.cache, args.list, args.examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
