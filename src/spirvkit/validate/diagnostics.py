"""Validator diagnostics: one :class:`Diagnostic` per broken rule.

Every diagnostic names the rule (a stable id such as ``ids.defined-before-use``), the spec
section that states it, the offending instruction (disassembled with SPIRV-Tools friendly
names, so it reads like ``spirv-dis`` output) and its word offset in the module.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    """One validation error.

    ``rule`` is a stable id (``family.rule-name``); ``section`` the spec section that states the
    rule ("SPIR-V 2.16.1", "OpenCL env 2.3", "Vulkan env A.3"); ``word_offset`` the word offset
    of the offending instruction in the module (header included), or None for module-wide
    problems; ``instruction`` that instruction disassembled, or None.
    """

    rule: str
    section: str
    message: str
    word_offset: int | None = None
    instruction: str | None = None

    def __str__(self) -> str:
        text = f"error: {self.message} [{self.rule}, {self.section}]"
        if self.instruction:
            text += f"\n  {self.instruction}"
        if self.word_offset is not None:
            text += f"\n  at word {self.word_offset}"
        return text


class StopValidation(Exception):
    """Raised inside the validator when ``max_errors`` diagnostics have been collected."""


class InstructionPrinter:
    """Disassembles single instructions with the module's friendly names (built lazily: only a
    module that has an error pays for naming every id)."""

    def __init__(self, module):
        self.module = module
        self._formatter = None

    def __call__(self, inst) -> str | None:
        if inst is None:
            return None
        try:
            return self._fmt().line(inst)
        except Exception:  # a diagnostic must never fail because its instruction is odd
            return f"{inst.opname} " + " ".join(str(w) for w in inst.words[1:])

    def name(self, id_: int) -> str:
        try:
            return "%" + self._fmt().name_of(id_)
        except Exception:
            return f"%{id_}"

    def _fmt(self):
        if self._formatter is None:
            from ..spirv.grammar import load_grammar
            from ..spirv.text.disassembler import _Formatter
            from ..spirv.text.names import FriendlyNames

            grammar = load_grammar()
            self._formatter = _Formatter(grammar, FriendlyNames(self.module.instructions, grammar))
        return self._formatter
