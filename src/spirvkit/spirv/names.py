"""SPIR-V opcodes and enumerant values by name, read from the grammar so that code comparing
instruction words never types a grammar number by hand: ``OP.ConstantNull`` is OpConstantNull's
opcode, ``EXEC_MODE.LocalSize`` the LocalSize execution mode, ``SCOPE.Subgroup`` a Scope value.

The grammar is read at the first look-up, not at import (``import spirvkit`` stays cheap), and
each name is looked up once. validate/opcodes.py keeps the validator's own tables (opcode sets
by instruction class) in the same way."""

from __future__ import annotations

from .grammar import load_grammar


class Opcodes:
    """Opcode numbers by instruction name without its ``Op`` prefix (aliases too)."""

    def __getattr__(self, name: str) -> int:
        desc = load_grammar().by_name.get("Op" + name) if not name.startswith("_") else None
        if desc is None:
            raise AttributeError(f"the SPIR-V grammar has no instruction Op{name}")
        setattr(self, name, desc.opcode)
        return desc.opcode


class Enumerants:
    """The values of one operand kind's enumerants by name (``Enumerants("Scope").Workgroup``)."""

    def __init__(self, kind: str):
        self.kind = kind

    def __getattr__(self, name: str) -> int:
        found = None if name.startswith("_") else load_grammar().operand_kinds[self.kind].by_name.get(name)
        if found is None:
            raise AttributeError(f"the SPIR-V grammar has no {self.kind} {name}")
        setattr(self, name, found.value)
        return found.value

    def name(self, value: int) -> str:
        """The enumerant's name for ``value`` (the number itself when the grammar has none)."""
        found = load_grammar().operand_kinds[self.kind].by_value.get(value)
        return found.name if found else str(value)


OP = Opcodes()
EXEC_MODE = Enumerants("ExecutionMode")
SCOPE = Enumerants("Scope")
GROUP_OPERATION = Enumerants("GroupOperation")
FUNC_PARAM_ATTR = Enumerants("FunctionParameterAttribute")
DECORATION = Enumerants("Decoration")
