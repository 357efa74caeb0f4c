"""Operand rules of the debug-information extended instruction sets, OpenCL.DebugInfo.100 and
NonSemantic.Shader.DebugInfo.100 (SPIR-V 3.32.4 leaves an extended instruction's operands to its
set's specification):

* a Base Type is a debug type (a DebugType* instruction, or DebugInfoNone, which producers use
  for ``void``);
* a Source operand is a DebugSource;
* DebugTypeArray's component counts are integer constants (32 or 64 bits) or debug variables;
* NonSemantic.Shader.DebugInfo.100 spells every number that OpenCL.DebugInfo.100 writes as a
  literal (versions, language, line and column numbers, flags, tags, encodings ...) as the <id> of
  a 32-bit unsigned integer OpConstant.

Where an extended instruction's result type must be OpTypeVoid and where debug instructions
may appear is checked in ``misc_instructions``.
"""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.4"
_SETS = ("OpenCL.DebugInfo.100", "NonSemantic.Shader.DebugInfo.100")

_DEBUG_TYPES = frozenset("""
DebugTypeBasic DebugTypePointer DebugTypeQualifier DebugTypeArray DebugTypeVector DebugTypedef
DebugTypeFunction DebugTypeEnum DebugTypeComposite DebugTypePtrToMember DebugTypeTemplate
DebugTypeTemplateParameter DebugTypeTemplateTemplateParameter DebugTypeTemplateParameterPack
DebugTypeMatrix DebugInfoNone
""".split())
_HAS_BASE_TYPE = frozenset("DebugTypePointer DebugTypeQualifier DebugTypeArray DebugTypeVector DebugTypedef".split())
_DEBUG_VARIABLES = frozenset({"DebugGlobalVariable", "DebugLocalVariable"})

# NonSemantic.Shader.DebugInfo.100: the operands that are ids of 32-bit unsigned OpConstants.
_UINT_CONSTANT_OPERANDS = {
    "DebugCompilationUnit": ("Version", "DWARF Version", "Language"),
    "DebugTypeBasic": ("Encoding", "Flags"),
    "DebugTypePointer": ("Storage Class", "Flags"),
    "DebugTypeQualifier": ("Type Qualifier",),
    "DebugTypeVector": ("Component Count",),
    "DebugTypedef": ("Line", "Column"),
    "DebugTypeFunction": ("Flags",),
    "DebugTypeEnum": ("Line", "Column", "Flags"),
    "DebugTypeComposite": ("Tag", "Line", "Column", "Flags"),
    "DebugTypeMember": ("Line", "Column", "Flags"),
    "DebugTypeInheritance": ("Flags",),
    "DebugTypeTemplateParameter": ("Line", "Column"),
    "DebugTypeTemplateTemplateParameter": ("Line", "Column"),
    "DebugTypeTemplateParameterPack": ("Line", "Column"),
    "DebugGlobalVariable": ("Line", "Column", "Flags"),
    "DebugFunctionDeclaration": ("Line", "Column", "Flags"),
    "DebugFunction": ("Line", "Column", "Flags", "Scope Line"),
    "DebugLexicalBlock": ("Line", "Column"),
    "DebugInlinedAt": ("Line",),
    "DebugLocalVariable": ("Line", "Column", "Flags", "Arg Number"),
    "DebugOperation": ("OpCode",),
    "DebugMacroDef": ("Line",),
    "DebugMacroUndef": ("Line",),
    "DebugImportedEntity": ("Tag", "Line", "Column"),
    "DebugLine": ("Line Start", "Line End", "Column Start", "Column End"),
    "DebugBuildIdentifier": ("Flags",),
    "DebugTypeMatrix": ("Vector Count",),
}


def check(ctx) -> None:
    for inst in ctx.instructions_of(op.EXT_INSTS):
        if len(inst.words) < 5:
            continue
        set_name = ctx.ext_imports.get(inst.words[3], "")
        if set_name not in _SETS:
            continue
        desc = getattr(inst.ext_set, "by_opcode", {}).get(inst.words[4])
        if desc is None:
            continue
        _check_instruction(ctx, inst, set_name, desc)


def _debug_name(ctx, id_: int, set_name: str) -> str | None:
    """The debug-info instruction name of the definition of ``id_`` (None if it is not one of
    ``set_name``'s instructions)."""
    d = ctx.defs.get(id_)
    if d is None or d.opcode not in op.EXT_INSTS or len(d.words) < 5:
        return None
    if ctx.ext_imports.get(d.words[3], "") != set_name:
        return None
    desc = getattr(d.ext_set, "by_opcode", {}).get(d.words[4])
    return desc.opname if desc is not None else None


def _operand_words(inst, desc) -> dict[str, list[int]]:
    """Operand name -> the words it covers (a '*' operand: all the remaining words)."""
    out: dict[str, list[int]] = {}
    w = inst.words
    pos = 5
    for spec in desc.operands:
        if pos >= len(w):
            break
        if spec.quantifier == "*":
            out[spec.name] = w[pos:]
            break
        out[spec.name] = [w[pos]]
        pos += 1
    return out


def _check_instruction(ctx, inst, set_name, desc) -> None:
    name = desc.opname
    operands = _operand_words(inst, desc)

    def fail(message):
        ctx.error("extinst.debug-info", SEC, f"{set_name} {name}: {message}", inst)

    non_semantic = set_name.startswith("NonSemantic.")
    if non_semantic:
        for operand in _UINT_CONSTANT_OPERANDS.get(name, ()):
            for value in operands.get(operand, ()):
                if not _is_uint32_constant(ctx, value):
                    fail(f"expected operand {operand} must be a result id of 32-bit unsigned OpConstant")
                    return
    if name in _HAS_BASE_TYPE:
        for value in operands.get("Base Type", ()):
            if _debug_name(ctx, value, set_name) not in _DEBUG_TYPES:
                fail("expected operand Base Type is not a valid debug type")
                return
    source = operands.get("Source")
    if source and name != "DebugSource" and _debug_name(ctx, source[0], set_name) != "DebugSource":
        fail("expected operand Source must be a result id of DebugSource")
        return
    if name == "DebugTypeArray":
        for value in operands.get("Component Counts", ()):
            if not _is_component_count(ctx, value, set_name):
                fail("Component Count must be OpConstant with a 32- or 64-bits integer scalar type or "
                     "DebugGlobalVariable or DebugLocalVariable")
                return


def _is_uint32_constant(ctx, value) -> bool:
    d = ctx.defs.get(value)
    if d is None or d.opcode != op.Constant:
        return False
    f = ctx.facts(d.words[1])
    return f[0] == op.TypeInt and f[4] == 32 and f[5] == 0


def _is_component_count(ctx, value, set_name) -> bool:
    d = ctx.defs.get(value)
    if d is None:
        return False
    if d.opcode == op.Constant:
        f = ctx.facts(d.words[1])
        return f[0] == op.TypeInt and f[4] in (32, 64)
    return _debug_name(ctx, value, set_name) in _DEBUG_VARIABLES
