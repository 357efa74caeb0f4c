"""Vulkan environment rules for graphics entry points (digest-vulkan-env.md §3, items 34, 35, 41,
42, and two Standalone SPIR-V rules of the current Vulkan spec): fragment origin modes,
PixelCenterInteger, Patch and interpolation decorations on stage interfaces, Location on
user-defined interface variables, Flat on integer fragment inputs. Called by ``vulkan.check``
(Vulkan envs only). (Item 43, control-barrier scopes in graphics stages, is
``vulkan.execution-scope`` in ``atomics_barriers``.)"""

from __future__ import annotations

from . import opcodes as op

SC, D = op.SC, op.DEC
GRAPHICS_MODELS = frozenset({"Vertex", "TessellationControl", "TessellationEvaluation", "Geometry", "Fragment"})
_PATCH_FORBIDDEN = frozenset({"Vertex", "Geometry", "Fragment"})
_INTERPOLATION = (D.Flat, D.NoPerspective, D.Sample, D.Centroid)


def check(ctx) -> None:
    entries = [(inst, op.EXEC_MODEL.name(inst.words[1])) for inst in ctx.instructions_of((op.EntryPoint,))]
    if not any(model in GRAPHICS_MODELS for _inst, model in entries):
        return
    _execution_modes(ctx, entries)
    for inst, model in entries:
        if model in GRAPHICS_MODELS:
            _interface(ctx, inst, model)


def _execution_modes(ctx, entries) -> None:
    """41: OriginLowerLeft is forbidden and fragment entry points declare OriginUpperLeft; 42:
    PixelCenterInteger is forbidden."""
    modes: dict[int, set[str]] = {}
    for inst in ctx.instructions_of((op.ExecutionMode,)):
        mode = op.EXEC_MODE.name(inst.words[2])
        modes.setdefault(inst.words[1], set()).add(mode)
        if mode in ("OriginLowerLeft", "PixelCenterInteger"):
            rule, section = (("vulkan.origin", "Vulkan env 3.41") if mode == "OriginLowerLeft"
                             else ("vulkan.pixel-center-integer", "Vulkan env 3.42"))
            ctx.error(rule, section, f"In the Vulkan environment, the {mode} execution mode must not be used.", inst)
            return
    for inst, model in entries:
        if model == "Fragment" and "OriginUpperLeft" not in modes.get(inst.words[2], ()):
            ctx.error("vulkan.origin", "Vulkan env 3.41",
                      f"In the Vulkan environment, the Fragment entry point {ctx.name(inst.words[2])} requires an "
                      f"OriginUpperLeft execution mode.", inst)
            return


def _interface(ctx, inst, model) -> None:
    name_op = inst.operands[2] if len(inst.operands) > 2 else None
    if name_op is None:
        return
    for v in inst.words[name_op.offset + name_op.count:]:
        d = ctx.defs.get(v)
        if d is None or d.opcode != op.Variable or d.words[3] not in (SC.Input, SC.Output):
            continue
        if not (_patch(ctx, inst, model, v, d) and _interpolation(ctx, inst, model, v, d)
                and _location_and_flat(ctx, inst, model, v, d)):
            return


def _patch(ctx, inst, model, v, d) -> bool:
    """35: Patch is not used on the interface of vertex, geometry or fragment entry points."""
    if model in _PATCH_FORBIDDEN and (ctx.has_decoration(v, D.Patch) or _member_has(ctx, d, D.Patch)):
        ctx.error("vulkan.patch", "Vulkan env 3.35",
                  f"Patch decoration on {ctx.name(v)}, in the interface of {model} entry point "
                  f"{ctx.name(inst.words[2])}, is not allowed (only tessellation stages).", d)
        return False
    return True


def _interpolation(ctx, inst, model, v, d) -> bool:
    """34, as the current spec words it (VUID-StandaloneSpirv-Flat-06201/06202): no Flat,
    NoPerspective, Sample or Centroid on a vertex shader's inputs or a fragment shader's outputs."""
    stage_io = (model == "Vertex" and d.words[3] == SC.Input) or (model == "Fragment" and d.words[3] == SC.Output)
    if stage_io and any(ctx.has_decoration(v, dec) for dec in _INTERPOLATION):
        which = "input of a Vertex" if model == "Vertex" else "output of a Fragment"
        ctx.error("decorations.interpolation", "Vulkan env 3.34",
                  f"Flat, NoPerspective, Sample and Centroid must not be used on the {which} entry point "
                  f"({ctx.name(v)}).", d)
        return False
    return True


def _member_has(ctx, d, decoration) -> bool:
    struct = _pointee_strip_arrays(ctx, d)
    return struct is not None and struct.opcode == op.TypeStruct and ctx.any_member_has(struct.words[1], decoration)


def _pointee_strip_arrays(ctx, d):
    info = ctx.pointer_info(d.words[1])
    t = ctx.type_inst(info[1]) if info is not None and info[1] is not None else None
    while t is not None and t.opcode in (op.TypeArray, op.TypeRuntimeArray):
        t = ctx.type_inst(t.words[2])
    return t


def _location_and_flat(ctx, inst, model, v, d) -> bool:
    """User-defined Input/Output variables of a graphics entry point's interface have a Location
    (VUID-StandaloneSpirv-Location-04916), and a fragment shader's integer or 64-bit float Input
    is Flat (VUID-StandaloneSpirv-Flat-04744)."""
    if ctx.has_decoration(v, D.BuiltIn):
        return True
    t = _pointee_strip_arrays(ctx, d)
    if t is None:
        return True
    pointee = t.words[1]
    is_struct = t.opcode == op.TypeStruct
    if is_struct and ctx.any_member_has(pointee, D.BuiltIn):
        return True
    located = ctx.has_decoration(v, D.Location) or (
        is_struct and all(ctx.has_decoration(pointee, D.Location, m) for m in range(len(t.words) - 2)))
    if not located:
        ctx.error("vulkan.interface-location", "Vulkan env (VUID-StandaloneSpirv-Location-04916)",
                  f"Variable must be decorated with a location: {ctx.name(v)} in the interface of "
                  f"{model} entry point {ctx.name(inst.words[2])}", d)
        return False
    if model == "Fragment" and d.words[3] == SC.Input and not is_struct and not ctx.has_decoration(v, D.Flat):
        f = ctx.facts(pointee)
        if f[2] == op.TypeInt or (f[2] == op.TypeFloat and f[4] == 64):
            ctx.error("vulkan.interface-flat", "Vulkan env (VUID-StandaloneSpirv-Flat-04744)",
                      f"Fragment OpEntryPoint Input interface variable {ctx.name(v)} with integer or "
                      f"64-bit float type must have a Flat decoration", d)
            return False
    return True
