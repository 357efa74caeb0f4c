"""The validator's driver: decode, index, then run the rule families in order.

Structural families (header, layout, ids) stop validation when they find an error: later
families assume a well-formed module (every id defined, every block terminated), and running
type rules over broken ids would only produce noise. The other families all run, so
``max_errors=None`` reports everything they find.
"""

from __future__ import annotations

import gc

from ..errors import BinaryError
from ..spirv.binary import decode_string
from ..spirv.module import Module
from . import opcodes as op
from .context import ValidationContext
from .diagnostics import Diagnostic, StopValidation
from .env import target_env as lookup_env
from .options import ValidatorOptions


def _load(module_or_bytes) -> tuple[Module | None, Diagnostic | None]:
    try:
        if isinstance(module_or_bytes, Module):
            return module_or_bytes, None
        if isinstance(module_or_bytes, (bytes, bytearray, memoryview)):
            return Module.from_bytes(bytes(module_or_bytes)), None
        words = [int(w) & 0xFFFFFFFF for w in module_or_bytes]
        return Module.from_words(words), None
    except BinaryError as e:
        rule, section = "binary.malformed", "SPIR-V 2.3"
        if "defined more than once" in e.message:
            rule, section = "ids.single-definition", "SPIR-V 2.16.1"
        elif "version" in e.message:
            rule, section = "binary.version", "SPIR-V 2.3"
        return None, Diagnostic(rule, section, e.message, e.word_offset, None)
    except (TypeError, ValueError, OverflowError) as e:
        return None, Diagnostic("binary.malformed", "SPIR-V 2.3", f"not a SPIR-V module: {e}", None, None)


def index_module(ctx: ValidationContext) -> None:
    """Definitions, capabilities (with the ones they imply, from the grammar), extensions,
    imports and the memory model; decorations, through decoration groups."""
    caps_kind = ctx.grammar.operand_kinds["Capability"]
    defs, pos = ctx.defs, ctx.def_pos
    bound = ctx.module.bound
    result_ids = ctx.result_ids
    for i, inst in enumerate(ctx.insts):
        rid = inst.result_id
        result_ids.append(rid)
        if rid is not None and rid not in defs:
            defs[rid] = inst
            pos[rid] = i
            if rid >= bound and ctx.over_bound is None:
                ctx.over_bound = inst
        opc = inst.opcode
        if opc == op.Capability and len(inst.words) > 1:
            e = caps_kind.by_value.get(inst.words[1])
            if e is not None:
                ctx.declared_capabilities.add(e.name)
                _add_capability(ctx, caps_kind, e)
        elif opc == op.Extension and len(inst.words) > 1:
            ctx.extensions.add(decode_string(inst.words, 1, len(inst.words) - 1))
        elif opc == op.ExtInstImport and len(inst.words) > 2:
            ctx.ext_imports[inst.words[1]] = decode_string(inst.words, 2, len(inst.words) - 2)
        elif opc == op.MemoryModel and ctx.addressing_model is None and len(inst.words) > 2:
            ctx.addressing_model, ctx.memory_model = inst.words[1], inst.words[2]
    _index_decorations(ctx)


def _add_capability(ctx, caps_kind, e) -> None:
    stack = [e]
    while stack:
        e = stack.pop()
        names = (e.name, *e.aliases)
        if e.name in ctx.capabilities:
            continue
        ctx.capabilities.update(names)
        for implied in e.capabilities:
            sub = caps_kind.by_name.get(implied)
            if sub is not None:
                stack.append(sub)


def _index_decorations(ctx: ValidationContext) -> None:
    groups: dict[int, list] = {}
    decorations = ctx.decorations
    for inst in ctx.insts:
        opc = inst.opcode
        w = inst.words
        if opc in (op.Decorate, op.DecorateId, op.DecorateString) and len(w) > 2:
            decorations.setdefault(w[1], []).append((w[2], w[3:], inst, None))
        elif opc in (op.MemberDecorate, op.MemberDecorateString) and len(w) > 3:
            decorations.setdefault(w[1], []).append((w[3], w[4:], inst, w[2]))
        elif opc == op.GroupDecorate and len(w) > 1:
            group = [d for d in decorations.get(w[1], ()) if d[3] is None]
            for target in w[2:]:
                decorations.setdefault(target, []).extend(group)
        elif opc == op.GroupMemberDecorate and len(w) > 1:
            group = [d for d in decorations.get(w[1], ()) if d[3] is None]
            for target, member in zip(w[2::2], w[3::2]):
                decorations.setdefault(target, []).extend((d[0], d[1], d[2], member) for d in group)
        elif opc == op.DecorationGroup:
            groups[w[1]] = decorations.get(w[1], [])


def _check_header(ctx: ValidationContext) -> None:
    version = ctx.version
    if not ctx.env.accepts_version(version, ctx.options):
        ctx.error(
            "env.spirv-version", "SPIR-V 2.3; OpenCL env 1; Vulkan env 1",
            "Invalid SPIR-V binary version %d.%d for target environment %s." % (*version, ctx.env.describe()),
        )
    inst = ctx.over_bound  # the first instruction whose result id is not below the bound (index_module)
    if inst is not None:
        bound = ctx.module.bound
        ctx.error("binary.id-bound", "SPIR-V 2.3",
                  f"Result <id> '{inst.result_id}' must be less than the ID bound '{bound}'.", inst)


def _stages():
    from . import (arithmetic, atomics_barriers, bits_logical, capabilities, cfg, composite, constants,
                   conversions, debug_info, decorations, enqueue_pipes, extinst, function, group, ids, image, layout,
                   limits, logical_pointers, memory, misc_instructions, opencl, small_types, types, vulkan)

    # (name, check, structural)
    return (
        ("header", _check_header, True),
        ("layout", layout.check, True),
        ("ids", ids.check, True),
        ("cfg", cfg.check, True),
        ("capabilities", capabilities.check, False),
        ("types", types.check, True),
        ("constants", constants.check, False),
        ("decorations", decorations.check, False),
        ("function", function.check, False),
        ("memory", memory.check, False),
        ("small_types", small_types.check, False),
        ("arithmetic", arithmetic.check, False),
        ("bits_logical", bits_logical.check, False),
        ("conversions", conversions.check, False),
        ("composite", composite.check, False),
        ("atomics_barriers", atomics_barriers.check, False),
        ("group", group.check, False),
        ("enqueue_pipes", enqueue_pipes.check, False),
        ("image", image.check, False),
        ("extinst", extinst.check, False),
        ("debug_info", debug_info.check, False),
        ("misc_instructions", misc_instructions.check, False),
        ("logical_pointers", logical_pointers.check, False),
        ("limits", limits.check, False),
        ("opencl", opencl.check, False),
        ("vulkan", vulkan.check, False),
    )


def validate(module_or_bytes, target_env: str = "spv1.6", *, options: ValidatorOptions | None = None,
             max_errors: int | None = 1) -> list[Diagnostic]:
    """Validate a SPIR-V module for ``target_env``; an empty list means valid.

    ``module_or_bytes`` is the binary (bytes/bytearray), a :class:`~spirvkit.Module` or a list of
    32-bit words. A malformed binary gives a diagnostic, not an exception; only an unknown
    ``target_env`` raises (ValueError). ``max_errors`` bounds how many diagnostics are collected
    (None: all).
    """
    env = lookup_env(target_env)
    options = options or ValidatorOptions()
    if max_errors is not None and max_errors < 1:
        max_errors = None
    # The validator's tables (dicts and sets of ids, per-layout caches) form no reference cycles:
    # keep the cyclic collector from rescanning the decoded module (120k instructions: ~15% of the
    # time) while they are built, as Module.from_words does while decoding.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _validate(module_or_bytes, env, options, max_errors)
    finally:
        if gc_was_enabled:
            gc.enable()


def _validate(module_or_bytes, env, options, max_errors) -> list[Diagnostic]:
    module, problem = _load(module_or_bytes)
    if problem is not None:
        return [problem]
    ctx = ValidationContext(module, env, options, max_errors)
    try:
        index_module(ctx)
        for _name, check, structural in _stages():
            before = len(ctx.diagnostics)
            check(ctx)
            if structural and len(ctx.diagnostics) > before:
                break
    except StopValidation:
        pass
    except RecursionError:
        ctx.diagnostics.append(Diagnostic("limits.nesting", "SPIR-V 2.17", "module nesting is too deep to validate"))
    except Exception as e:  # a validator bug: report it as a diagnostic rather than crash the caller
        ctx.diagnostics.append(
            Diagnostic("validator.internal-error", "-", f"internal validator error: {type(e).__name__}: {e}")
        )
    if max_errors is not None:
        del ctx.diagnostics[max_errors:]
    return ctx.diagnostics
