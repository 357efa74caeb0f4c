"""Functions and entry points (SPIR-V 3.32.9, 3.32.5, 2.16.1 U9-U12, U21, U33, U38; OpenCL env
2.9 and Vulkan env 3.2 no recursion): function types, parameters, calls, entry points,
execution modes, linkage."""

from __future__ import annotations

from . import opcodes as op
from .cfg import node_on_cycle

SEC = "SPIR-V 3.32.9"
SEC_U = "SPIR-V 2.16.1"
SEC_MODE = "SPIR-V 3.32.5"

# Execution modes that apply only to some execution models (compute-relevant ones and the
# fragment origin modes; SPIRV-Tools' ValidateExecutionMode has the full list).
_MODE_MODELS = {
    "LocalSize": ("GLCompute", "Kernel", "MeshNV", "TaskNV", "MeshEXT", "TaskEXT"),
    "LocalSizeId": ("GLCompute", "Kernel", "MeshNV", "TaskNV", "MeshEXT", "TaskEXT"),
    "LocalSizeHint": ("Kernel",),
    "LocalSizeHintId": ("Kernel",),
    "VecTypeHint": ("Kernel",),
    "ContractionOff": ("Kernel",),
    "SubgroupSize": ("Kernel",),
    "SubgroupsPerWorkgroup": ("Kernel",),
    "SubgroupsPerWorkgroupId": ("Kernel",),
    "Initializer": ("Kernel",),
    "Finalizer": ("Kernel",),
    "OriginUpperLeft": ("Fragment",),
    "OriginLowerLeft": ("Fragment",),
    "EarlyFragmentTests": ("Fragment",),
    "PixelCenterInteger": ("Fragment",),
    "DepthReplacing": ("Fragment",),
    "DepthGreater": ("Fragment",),
    "DepthLess": ("Fragment",),
    "DepthUnchanged": ("Fragment",),
}


def check(ctx) -> None:
    for func in ctx.functions:
        _function(ctx, func)
    for inst in ctx.instructions_of((op.FunctionCall,)):
        _call(ctx, inst)
    _entry_points(ctx)
    _execution_modes(ctx)
    _execution_mode_exclusivity(ctx)
    _linkage(ctx)
    if ctx.env.api != "universal":
        _no_recursion(ctx)
    check_execution_model_limits(ctx)
    _interfaces(ctx)
    _builtin_blocks_per_entry_point(ctx)


def _function(ctx, func) -> None:
    inst = func.definition
    if ctx.addressing_model == op.ADDRESSING.Logical and ctx.is_pointer(inst.words[1]) and not (
            ctx.has_capability("VariablePointers") or ctx.has_capability("VariablePointersStorageBuffer")):
        ctx.error("memory.logical-pointer", "SPIR-V 2.16.1",
                  "In Logical addressing, functions may not return a pointer (U6; needs VariablePointers)", inst)
        return
    ftype = ctx.type_inst(inst.words[4])
    if ftype is None or ftype.opcode != op.TypeFunction:
        ctx.error("function.type", SEC,
                  f"OpFunction Function Type <id> {ctx.name(inst.words[4])} is not a function type.", inst)
        return
    if ftype.words[2] != inst.words[1]:
        ctx.error("function.type", SEC,
                  f"OpFunction Result Type <id> {ctx.name(inst.words[1])} does not match the Function Type's "
                  f"return type <id> {ctx.name(ftype.words[2])}.", inst)
        return
    params = ftype.words[3:]
    if len(func.parameters) != len(params):
        ctx.error("function.parameters", SEC,
                  f"Function {ctx.name(func.id)} has {len(func.parameters)} OpFunctionParameter instructions but "
                  f"its type {ctx.name(ftype.words[1])} has {len(params)} parameters", inst)
        return
    for p, t in zip(func.parameters, params):
        if p.words[1] != t:
            ctx.error("function.parameters", SEC,
                      f"OpFunctionParameter Result Type <id> {ctx.name(p.words[1])} does not match the "
                      f"OpTypeFunction parameter type of the same index.", p)
            return


def _call(ctx, inst) -> None:
    w = inst.words
    callee = ctx.defs.get(w[3])
    if callee is None or callee.opcode != op.Function:
        ctx.error("function.call-target", SEC_U,
                  f"OpFunctionCall Function <id> {ctx.name(w[3])} is not a function.", inst)
        return
    if callee.words[1] != w[1]:
        ctx.error("function.call-result", SEC,
                  f"OpFunctionCall Result Type <id> {ctx.name(w[1])}s type does not match Function <id> "
                  f"{ctx.name(w[3])}s return type.", inst)
        return
    ftype = ctx.type_inst(callee.words[4])
    if ftype is None or ftype.opcode != op.TypeFunction:
        return
    params = ftype.words[3:]
    args = w[4:]
    if len(params) != len(args):
        ctx.error("function.call-arguments", SEC_U,
                  "OpFunctionCall Function <id>'s parameter count does not match the argument count.", inst)
        return
    for a, t in zip(args, params):
        if ctx.type_of(a) != t:
            ctx.error("function.call-arguments", SEC_U,
                      f"OpFunctionCall Argument <id> {ctx.name(a)}s type does not match Function <id> "
                      f"{ctx.name(w[3])}s parameter type.", inst)
            return


def _entry_points(ctx) -> None:
    names = set()
    called = {i.words[3] for i in ctx.instructions_of((op.FunctionCall,))}
    for inst in ctx.instructions_of((op.EntryPoint,)):
        model, fid = inst.words[1], inst.words[2]
        name = inst.value(2)
        f = ctx.defs.get(fid)
        if f is None or f.opcode != op.Function:
            ctx.error("function.entry-point", SEC_MODE,
                      f"OpEntryPoint Entry Point <id> {ctx.name(fid)} is not a function.", inst)
            continue
        if (model, name) in names:
            ctx.error("function.entry-point-name", SEC_MODE,
                      "Entry points cannot share the same name and ExecutionMode.", inst)
        names.add((model, name))
        if ctx.type_opcode(f.words[1]) != op.TypeVoid:
            ctx.error("function.entry-point-void", SEC_MODE,
                      f"OpEntryPoint Entry Point <id> {ctx.name(fid)}s function return type is not void.", inst)
        ftype = ctx.type_inst(f.words[4])
        if not ctx.is_kernel and ftype is not None and len(ftype.words) > 3:
            ctx.error("function.entry-point-parameters", SEC_MODE,
                      f"OpEntryPoint Entry Point <id> {ctx.name(fid)}s function parameter count is not zero.",
                      inst)
        if fid in called:
            ctx.error("function.entry-point-called", SEC_U,
                      f"A function ({ctx.name(fid)}) may not be targeted by both an OpEntryPoint instruction "
                      f"and an OpFunctionCall instruction.", inst)
        _interface_list(ctx, inst)


def _interface_list(ctx, inst) -> None:
    """OpEntryPoint: "Interface is a list of <id> of global OpVariable instructions. ... Before
    version 1.4, the interface's storage classes are limited to the Input and Output storage
    classes. Starting with version 1.4, the interface's storage classes are all storage classes used
    in declaring all global variables referenced by the entry point's call tree." And "It is
    invalid for an <id> to appear more than once" (SPIR-V 3.32.5, from 1.4)."""
    seen = set()
    for iid in inst.words[inst.operands[2].offset + inst.operands[2].count:]:
        d = ctx.defs.get(iid)
        if d is None or d.opcode not in (op.Variable, getattr(op, "UntypedVariableKHR", -1)):
            ctx.error("function.entry-point-interface", SEC_MODE,
                      f"Interfaces passed to OpEntryPoint must be variables. Found Op"
                      f"{ctx.grammar.instruction(d.opcode).opname[2:] if d else '?'}.", inst)
            return
        sc = d.words[3]
        if ctx.version >= (1, 4):
            if sc == op.SC.Function:
                ctx.error("function.entry-point-interface", SEC_MODE,
                          f"OpEntryPoint interfaces should only list global variables: {ctx.name(iid)} is a "
                          f"Function variable", inst)
                return
            if iid in seen:
                ctx.error("function.entry-point-interface", SEC_MODE,
                          f"In SPIR-V 1.4 or later, non-unique OpEntryPoint interface {ctx.name(iid)} is disallowed",
                          inst)
                return
            seen.add(iid)
        elif sc not in (op.SC.Input, op.SC.Output):
            ctx.error("function.entry-point-interface", SEC_MODE,
                      f"In SPIR-V 1.3 or earlier, OpEntryPoint interfaces must be OpVariables with Storage Class of "
                      f"Input(1) or Output(3). Found Storage Class {sc} ({op.SC.name(sc)}) for {ctx.name(iid)} of "
                      f"Entry Point id {inst.words[2]}.", inst)
            return


def _has_workgroup_size_builtin(ctx) -> bool:
    builtin = op.DEC.BuiltIn
    size = op.BUILTIN.WorkgroupSize
    return any(dec == builtin and words and words[0] == size
               for decs in ctx.decorations.values() for dec, words, _i, _m in decs)


def _execution_modes(ctx) -> None:
    models: dict[int, set[str]] = {}
    for inst in ctx.instructions_of((op.EntryPoint,)):
        models.setdefault(inst.words[2], set()).add(op.EXEC_MODEL.name(inst.words[1]))
    counts: dict[int, int] = {}
    seen_modes: set[tuple[int, int]] = set()
    for inst in ctx.insts:
        if inst.opcode not in (op.ExecutionMode, op.ExecutionModeId):
            continue
        key = (inst.words[1], inst.words[2])
        if key in seen_modes:
            ctx.error("function.execution-mode-repeated", SEC_MODE,
                      f"{op.EXEC_MODE.name(inst.words[2])} execution mode must not be specified multiple times per "
                      f"entry point", inst)
            continue
        seen_modes.add(key)
        target = inst.words[1]
        if target not in models:
            ctx.error("function.execution-mode-target", SEC_MODE,
                      f"{inst.opname} Entry Point <id> {ctx.name(target)} is not the Entry Point operand of an "
                      f"OpEntryPoint.", inst)
            continue
        counts[target] = counts.get(target, 0) + 1
        mode = op.EXEC_MODE.name(inst.words[2])
        # A zero size (spirv-val's rule too); not when a WorkgroupSize constant overrides LocalSize.
        if mode in ("LocalSize", "LocalSizeHint") and any(v == 0 for v in inst.words[3:6]) \
                and not (mode == "LocalSize" and _has_workgroup_size_builtin(ctx)):
            ctx.error("opencl.execution-mode" if ctx.env.is_opencl else "function.execution-mode-operands", SEC_MODE,
                      f"{mode}: the work-group size must be at least 1 in each dimension", inst)
        if mode == "VecTypeHint" and len(inst.words) > 3 and (inst.words[3] & 0xFFFF) > 6:
            ctx.error("decorations.execution-mode", SEC_MODE,
                      f"VecTypeHint: the data type (low 16 bits, {inst.words[3] & 0xFFFF}) must be 0..6 "
                      f"(char, short, int, long, half, float, double)", inst)
        allowed = _MODE_MODELS.get(mode)
        if allowed and not models[target] & set(allowed):
            ctx.error("function.execution-mode-model", SEC_MODE,
                      f"Execution mode {mode} can only be used with the {', '.join(allowed[:3])} execution "
                      f"model{'s' if len(allowed) > 1 else ''}.", inst)
        if inst.opcode == op.ExecutionModeId and not _mode_takes_ids(ctx, inst.words[2]):
            ctx.error("function.execution-mode-id", SEC_MODE,
                      "OpExecutionModeId is only valid when the Mode operand is an execution mode that takes Extra "
                      "Operands that are id operands.", inst)
        if inst.opcode == op.ExecutionMode and _mode_takes_ids(ctx, inst.words[2]):
            ctx.error("function.execution-mode-id", SEC_MODE,
                      f"{mode} execution mode takes <id> operands: use OpExecutionModeId", inst)
    limit = ctx.options.max_execution_modes_per_entry_point
    for target, n in counts.items():
        if n > limit:
            ctx.error("limits.execution-modes", "SPIR-V 2.17",
                      f"Entry point {ctx.name(target)} has {n} execution modes; the limit is {limit}.")


_TESSELLATION = ("TessellationControl", "TessellationEvaluation")
# S3 (SPIR-V 2.16.2, "Entry point and execution model"; the bullets the 1.0 text dump lost, as
# digest-spirv.md gives them): (execution models, mutually exclusive modes, exactly one required).
_EXCLUSIVE_MODES = (
    (("Fragment",), ("OriginUpperLeft", "OriginLowerLeft"), True),
    (("Fragment",), ("DepthGreater", "DepthLess", "DepthUnchanged"), False),
    (_TESSELLATION, ("SpacingEqual", "SpacingFractionalEven", "SpacingFractionalOdd"), False),
    (_TESSELLATION, ("Triangles", "Quads", "Isolines"), False),
    (_TESSELLATION, ("VertexOrderCw", "VertexOrderCcw"), False),
    (("Geometry",), ("InputPoints", "InputLines", "InputLinesAdjacency", "Triangles", "InputTrianglesAdjacency"),
     True),
    (("Geometry",), ("OutputPoints", "OutputLineStrip", "OutputTriangleStrip"), True),
)


def _execution_mode_exclusivity(ctx) -> None:
    """S3: a Fragment entry point sets exactly one of OriginUpperLeft/OriginLowerLeft and at most
    one of DepthGreater/DepthLess/DepthUnchanged; a tessellation entry point at most one spacing,
    one primitive and one vertex-order mode; a Geometry entry point exactly one input primitive and
    one output primitive mode. (A Vulkan fragment entry point without an origin is
    ``vulkan.origin``'s: Vulkan requires OriginUpperLeft in particular.)"""
    entries = ctx.instructions_of((op.EntryPoint,))
    if not entries:
        return
    modes: dict[int, set[str]] = {}
    for inst in ctx.instructions_of((op.ExecutionMode, op.ExecutionModeId)):
        modes.setdefault(inst.words[1], set()).add(op.EXEC_MODE.name(inst.words[2]))
    for inst in entries:
        model = op.EXEC_MODEL.name(inst.words[1])
        declared = modes.get(inst.words[2], set())
        for models, group, exactly_one in _EXCLUSIVE_MODES:
            if model not in models:
                continue
            n = len(declared.intersection(group))
            if n > 1 or (exactly_one and n == 0 and not (ctx.env.is_vulkan and model == "Fragment")):
                names = ", ".join(group[:-1]) + " or " + group[-1]
                ctx.error("function.execution-mode-exclusive", "SPIR-V 2.16.2",
                          f"{model} entry point {ctx.name(inst.words[2])} must set "
                          f"{'exactly' if exactly_one else 'at most'} one of the {names} execution modes "
                          f"({n} set)", inst)
                return


def _mode_takes_ids(ctx, value) -> bool:
    e = ctx.grammar.operand_kinds["ExecutionMode"].by_value.get(value)
    return e is not None and any(p in ("IdRef",) for p in e.parameters)


def _linkage(ctx) -> None:
    linkage = op.DEC.LinkageAttributes
    import_type = 1  # LinkageType Import
    entry_functions = {i.words[2] for i in ctx.instructions_of((op.EntryPoint,))}
    for func in ctx.functions:
        imported = any(d == linkage and w and w[-1] == import_type
                       for d, w, _i in ctx.decorations_of(func.id))
        if not func.blocks and not imported:
            ctx.error("function.declaration-import", SEC_U,
                      f"Function declaration (id {func.id}) must have a LinkageAttributes decoration with the "
                      f"Import Linkage type.", func.definition)
        elif func.blocks and imported:
            ctx.error("function.definition-import", SEC_U,
                      f"Function definition (id {func.id}) may not be decorated with Import Linkage type.",
                      func.definition)
        if func.id in entry_functions and any(d == linkage for d, _w, _i in ctx.decorations_of(func.id)):
            ctx.error("function.entry-point-linkage", SEC_U,
                      f"The LinkageAttributes Decoration (Linkage name: ...) cannot be applied to function id "
                      f"{func.id} because it is targeted by an OpEntryPoint instruction.", func.definition)
    for inst in ctx.insts:
        if inst.opcode == op.Variable and len(inst.words) > 4:
            if any(d == linkage and w and w[-1] == import_type for d, w, _i in ctx.decorations_of(inst.words[2])):
                ctx.error("function.import-initializer", SEC_U,
                          "A module-scope OpVariable with initialization value cannot be marked with the Import "
                          "Linkage Type.", inst)


def _no_recursion(ctx) -> None:
    calls: dict[int, list[int]] = {}
    for func in ctx.functions:
        callees = []
        for b in func.blocks:
            for inst in b.instructions:
                if inst.opcode == op.FunctionCall:
                    callees.append(inst.words[3])
        calls[func.id] = callees
    # Only calls to functions of the module count (an imported function has no body to recurse).
    recursive = node_on_cycle(calls, {f: [c for c in callees if c in calls] for f, callees in calls.items()})
    if recursive is not None:
        section = "OpenCL env 2.9" if ctx.env.is_opencl else "Vulkan env 3.2"
        ctx.error("function.no-recursion", section,
                  f"Entry points may not have a call graph with cycles (function {ctx.name(recursive)} is "
                  f"called recursively).", ctx.defs[recursive])


def execution_models_by_function(ctx) -> dict[int, set[str]]:
    """Function id -> names of the execution models of the entry points whose static call tree
    reaches it (cached on the context)."""
    cached = getattr(ctx, "_models_by_function", None)
    if cached is not None:
        return cached
    calls: dict[int, list[int]] = {}
    for func in ctx.functions:
        calls[func.id] = [i.words[3] for b in func.blocks for i in b.instructions if i.opcode == op.FunctionCall]
    result: dict[int, set[str]] = {}
    for inst in ctx.instructions_of((op.EntryPoint,)):
        model = op.EXEC_MODEL.name(inst.words[1])
        stack = [inst.words[2]]
        seen = set()
        while stack:
            f = stack.pop()
            if f in seen:
                continue
            seen.add(f)
            result.setdefault(f, set()).add(model)
            stack.extend(calls.get(f, ()))
    ctx._models_by_function = result
    return result


# Instructions limited to some execution models (SPIR-V 3.32: "only valid in the Fragment
# Execution Model", derivatives and implicit-LOD sampling also in compute with the derivative
# group capabilities).
_FRAGMENT_ONLY = frozenset(getattr(op, n) for n in ("Kill", "TerminateInvocation", "DemoteToHelperInvocation",
                                                  "IsHelperInvocationEXT") if hasattr(op, n))
_DERIVATIVE_LIKE = frozenset(d.opcode for d in op._g.instructions.values() if d.klass == "Derivative") | frozenset(
    getattr(op, n) for n in ("ImageSampleImplicitLod", "ImageSampleDrefImplicitLod", "ImageSampleProjImplicitLod",
                             "ImageSampleProjDrefImplicitLod", "ImageSparseSampleImplicitLod",
                             "ImageSparseSampleDrefImplicitLod", "ImageQueryLod") if hasattr(op, n))
_DERIVATIVE_CAPS = ("ComputeDerivativeGroupQuadsKHR", "ComputeDerivativeGroupLinearKHR",
                    "ComputeDerivativeGroupQuadsNV", "ComputeDerivativeGroupLinearNV")


def check_execution_model_limits(ctx) -> None:
    models = execution_models_by_function(ctx)
    compute_derivatives = any(ctx.has_capability(c) for c in _DERIVATIVE_CAPS)
    for func in ctx.functions:
        fmodels = models.get(func.id)
        if not fmodels:
            continue
        for b in func.blocks:
            for inst in b.instructions:
                opc = inst.opcode
                if opc in _FRAGMENT_ONLY:
                    allowed = {"Fragment"}
                elif opc in _DERIVATIVE_LIKE:
                    allowed = {"Fragment"} | ({"GLCompute", "MeshNV", "TaskNV", "MeshEXT", "TaskEXT"}
                                              if compute_derivatives else set())
                else:
                    continue
                if fmodels - allowed:
                    rule = "cfg.execution-model" if opc in _FRAGMENT_ONLY else "function.execution-model-limit"
                    ctx.error(rule, "SPIR-V 3.32",
                              f"{inst.opname} requires Fragment execution model (used from "
                              f"{', '.join(sorted(fmodels - allowed))})", inst)
                    return


def _interfaces(ctx) -> None:
    """The entry-point interface lists the Input/Output variables its call tree uses; from SPIR-V
    1.4, every module-scope variable it uses (SPIR-V 3.32.5 OpEntryPoint: "The set of Interface
    <id> must be equal to or a superset of the global OpVariable Result <id> referenced by the
    entry point's static call tree, within the interface's storage classes")."""
    # ids records, per function, the interface variables it uses (directly, or through module-scope
    # users such as OpSpecConstantOp access chains, as SPIRV-Tools counts them).
    by_index = ctx.interface_uses or {}
    if not by_index:
        return
    uses = {ctx.functions[fi].id: vs for fi, vs in by_index.items()}
    calls: dict[int, list[int]] = {}
    function_of = ctx.function_of_id
    for call in ctx.instructions_of((op.FunctionCall,)):
        fi = function_of.get(call.words[2])
        if fi is not None:
            calls.setdefault(ctx.functions[fi].id, []).append(call.words[3])
    for inst in ctx.instructions_of((op.EntryPoint,)):
        listed = set(inst.words[inst.operands[2].offset + inst.operands[2].count:])
        seen, stack = set(), [inst.words[2]]
        while stack:
            f = stack.pop()
            if f in seen:
                continue
            seen.add(f)
            missing = uses.get(f, set()) - listed
            if missing:
                v = min(missing)
                ctx.error("memory.entry-point-interface", SEC_MODE,
                          f"Interface variable id <{v}> is used by entry point '{inst.value(2)}' id <{inst.words[2]}>, "
                          f"but is not listed as an interface", inst)
                return
            stack.extend(calls.get(f, ()))


def _builtin_blocks_per_entry_point(ctx) -> None:
    """U35: at most one object of a struct type with BuiltIn members per storage class per entry
    point (checked on the interface list)."""
    for inst in ctx.instructions_of((op.EntryPoint,)):
        seen: set[int] = set()
        for v in inst.words[inst.operands[2].offset + inst.operands[2].count:]:
            d = ctx.defs.get(v)
            info = ctx.pointer_info(d.words[1]) if d is not None and d.opcode == op.Variable else None
            if info is None:
                continue
            t = ctx.type_inst(info[1])
            while t is not None and t.opcode in (op.TypeArray, op.TypeRuntimeArray):
                t = ctx.type_inst(t.words[2])
            if t is None or t.opcode != op.TypeStruct or not ctx.any_member_has(t.words[1], op.DEC.BuiltIn):
                continue
            if info[0] in seen:
                ctx.error("function.builtin-blocks", "SPIR-V 2.16.1",
                          f"Entry point '{inst.value(2)}' has more than one {op.SC.name(info[0])} object of a struct "
                          f"type with BuiltIn members", inst)
                return
            seen.add(info[0])
