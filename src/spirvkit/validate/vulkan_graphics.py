"""Vulkan environment rules for graphics entry points (digest-vulkan-env.md §3, items 34, 35, 41,
42, and three Standalone SPIR-V rules of the current Vulkan spec): fragment origin modes,
PixelCenterInteger, Patch and interpolation decorations on stage interfaces, Location on
user-defined interface variables, Flat on integer fragment inputs, and no Location/Component
assigned twice in an interface. Called by ``vulkan.check`` (Vulkan envs only). (Item 43,
control-barrier scopes in graphics stages, is ``vulkan.execution-scope`` in ``atomics_barriers``.)"""

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
            _location_overlap(ctx, inst, model)


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


# -- Location and Component assignment ------------------------------------------------------------------

# Interfaces whose variables carry one more (outer) array level per vertex, which takes no
# locations: tessellation control inputs and outputs, tessellation evaluation and geometry inputs,
# mesh outputs (Vulkan "Location and Component Assignment"); Patch and PerPrimitive variables do not.
_ARRAYED = {("TessellationControl", SC.Input), ("TessellationControl", SC.Output),
            ("TessellationEvaluation", SC.Input), ("Geometry", SC.Input), ("MeshNV", SC.Output),
            ("MeshEXT", SC.Output)}


def _slots(ctx, type_id, location, component, out, limit=4096) -> int:
    """Append the (location, component) slots a value of ``type_id`` placed at ``location`` and
    ``component`` takes; return the number of locations it consumes. A 64-bit component takes two
    components, and a vector of more than four 32-bit-sized components runs on into the next
    location; matrix columns, array elements and struct members start at a new location each."""
    t = ctx.type_inst(type_id)
    if t is None or len(out) > limit:
        return 1
    opc = t.opcode
    if opc in (op.TypeInt, op.TypeFloat, op.TypeBool, op.TypeVector):
        f = ctx.facts(type_id)
        per = 2 if f[4] == 64 else 1
        for k in range(f[3] * per):
            c = component + k
            out.append((location + c // 4, c % 4))
        return (component + f[3] * per + 3) // 4
    if opc == op.TypeMatrix:
        used = 0
        for _ in range(t.words[3]):
            used += _slots(ctx, t.words[2], location + used, 0, out, limit)
        return used
    if opc == op.TypeArray:
        n = ctx.constant_value(t.words[3])
        used = 0
        for _ in range(n if isinstance(n, int) and 0 < n <= limit else 1):
            used += _slots(ctx, t.words[2], location + used, component, out, limit)
        return used
    if opc == op.TypeStruct:
        used = 0
        for m in t.words[2:]:
            used += _slots(ctx, m, location + used, 0, out, limit)
        return used
    return 1


def _location_overlap(ctx, inst, model) -> None:
    """VUID-StandaloneSpirv-OpEntryPoint-08721 / -08722: an entry point's Input (Output) interface
    does not assign the same component of the same location twice (fragment outputs: per Index)."""
    name_op = inst.operands[2] if len(inst.operands) > 2 else None
    if name_op is None:
        return
    taken: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    for v in dict.fromkeys(inst.words[name_op.offset + name_op.count:]):
        d = ctx.defs.get(v)
        if d is None or d.opcode != op.Variable or d.words[3] not in (SC.Input, SC.Output):
            continue
        if ctx.has_decoration(v, D.BuiltIn):
            continue
        info = ctx.pointer_info(d.words[1])
        type_id = info[1] if info is not None else None
        t = ctx.type_inst(type_id)
        if t is None:
            continue
        per_vertex = (model, d.words[3]) in _ARRAYED and not ctx.has_decoration(v, D.Patch) \
            and not ctx.has_decoration(v, getattr(D, "PerPrimitiveEXT", -1))
        if per_vertex and t.opcode in (op.TypeArray, op.TypeRuntimeArray):
            type_id, t = t.words[2], ctx.type_inst(t.words[2])
        if t is None or (t.opcode == op.TypeStruct and ctx.any_member_has(type_id, D.BuiltIn)):
            continue
        slots: list[tuple[int, int]] = []
        location = ctx.decoration_literal(v, D.Location)
        if location is not None:
            _slots(ctx, type_id, location, ctx.decoration_literal(v, D.Component) or 0, slots)
        elif t.opcode == op.TypeStruct:
            for m, member in enumerate(t.words[2:]):
                loc = ctx.decoration_literal(type_id, D.Location, m)
                if loc is None:
                    break  # 04919 (members of a Block without a variable Location each have one)
                _slots(ctx, member, loc, ctx.decoration_literal(type_id, D.Component, m) or 0, slots)
        index = ctx.decoration_literal(v, D.Index) or 0 if model == "Fragment" else 0
        seen = taken.setdefault((d.words[3], index), {})
        for slot in slots:
            if slot in seen and seen[slot] != v:
                kind = "input" if d.words[3] == SC.Input else "output"
                vuid = "08721" if d.words[3] == SC.Input else "08722"
                ctx.error("vulkan.interface-location-overlap", f"Vulkan env (VUID-StandaloneSpirv-OpEntryPoint-{vuid})",
                          f"Entry point {ctx.name(inst.words[2])} has conflicting {kind} location assignment at "
                          f"location {slot[0]}, component {slot[1]}: {ctx.name(seen[slot])} and {ctx.name(v)}", d)
                return
            seen[slot] = v
