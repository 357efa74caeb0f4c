"""Opcode numbers by name, read from the grammar (``op.TypeInt`` is OpTypeInt's opcode), and the
opcode sets the rules share. Sets come from the grammar's instruction classes where the grammar
has one; the rest (terminators, branches) are the spec's own lists (§2.2.4 "Termination
instructions", "Branch instructions")."""

from __future__ import annotations

from ..spirv.grammar import load_grammar

_g = load_grammar()
for _desc in _g.instructions.values():
    globals().setdefault(_desc.opname[2:], _desc.opcode)
for _name, _desc in _g.by_name.items():  # aliases too (e.g. OpDecorateStringGOOGLE)
    if _name.startswith("Op"):
        globals().setdefault(_name[2:], _desc.opcode)


def _op(name: str) -> int:
    return _g.by_name[name].opcode


def _class(name: str) -> frozenset[int]:
    return frozenset(d.opcode for d in _g.instructions.values() if d.klass == name)


TYPE_OPCODES = _class("Type-Declaration")
CONSTANT_OPCODES = _class("Constant-Creation")
SPEC_CONSTANT_OPCODES = frozenset(
    d.opcode for d in _g.instructions.values() if d.klass == "Constant-Creation" and "Spec" in d.opname
)
ANNOTATION_OPCODES = _class("Annotation")
DEBUG_OPCODES = _class("Debug")

BRANCHES = frozenset({_op("OpBranch"), _op("OpBranchConditional"), _op("OpSwitch")})
RETURNS = frozenset({_op("OpReturn"), _op("OpReturnValue")})
TERMINATORS = BRANCHES | RETURNS | frozenset(
    _g.by_name[n].opcode
    for n in ("OpKill", "OpUnreachable", "OpTerminateInvocation", "OpIgnoreIntersectionKHR",
              "OpTerminateRayKHR", "OpEmitMeshTasksEXT")
    if n in _g.by_name
)
MERGES = frozenset({_op("OpSelectionMerge"), _op("OpLoopMerge")})
EXT_INSTS = frozenset(
    _g.by_name[n].opcode for n in ("OpExtInst", "OpExtInstWithForwardRefsKHR") if n in _g.by_name
)
# OpLine/OpNoLine may sit anywhere in a function body (and between types at module scope).
LINE_OPCODES = frozenset({_op("OpLine"), _op("OpNoLine")})


class _Enumerants:
    """Enumerant values of one operand kind by name, from the grammar: ``SC.Function``."""

    def __init__(self, kind: str):
        self._kind = _g.operand_kinds[kind]

    def __getattr__(self, name: str) -> int:
        e = self._kind.by_name.get(name)
        if e is None:
            raise AttributeError(name)
        return e.value

    def name(self, value: int) -> str:
        e = self._kind.by_value.get(value)
        return e.name if e else str(value)


SC = _Enumerants("StorageClass")
DEC = _Enumerants("Decoration")
BUILTIN = _Enumerants("BuiltIn")
EXEC_MODEL = _Enumerants("ExecutionModel")
EXEC_MODE = _Enumerants("ExecutionMode")
SCOPE = _Enumerants("Scope")
ADDRESSING = _Enumerants("AddressingModel")
MEMORY_MODEL = _Enumerants("MemoryModel")
DIM = _Enumerants("Dim")
GROUP_OPERATION = _Enumerants("GroupOperation")
ACCESS = _Enumerants("AccessQualifier")
