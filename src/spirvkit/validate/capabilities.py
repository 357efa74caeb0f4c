"""Capability, extension and version gating (SPIR-V 2.16.1 U2, 3.31): every opcode, operand
enumerant and mask bit needs one of the capabilities the grammar lists for it (declared directly
or implied), an enabling extension where the grammar names one, and a module version inside its
[version, lastVersion] range. Also the env's capability tables (OpenCL env 3, Vulkan env 2)."""

from __future__ import annotations

from ..spirv.grammar import mask_bits
from . import env as env_tables
from . import opcodes as op

SEC = "SPIR-V 2.16.1"
SEC_CAPS = "SPIR-V 3.31"

# BuiltIn values whose mere mention in a decoration needs no capability (SPIRV-Tools does the
# same: the capability is needed only when the built-in is actually used).
_FREE_BUILTINS = frozenset({"PointSize", "ClipDistance", "CullDistance"})
_SIXTEEN_BIT_STORAGE = ("StorageBuffer16BitAccess", "StorageUniformBufferBlock16", "StorageUniform16",
                        "UniformAndStorageBuffer16BitAccess", "StoragePushConstant16", "StorageInputOutput16")


def _v(version) -> str:
    return "%d.%d" % version


def check(ctx) -> None:
    free_rounding = any(ctx.has_capability(c) for c in _SIXTEEN_BIT_STORAGE)
    checked_opcodes: dict[int, bool] = {}
    ok_enumerants: set[tuple[str, int]] = set()  # (kind, value) already found fine (not for OpCapability)
    slots_of: dict[tuple[int, int], tuple] = {}
    keep = []  # the keyed objects stay alive, so their id() stays unique
    for inst in ctx.insts:
        opc = inst.opcode
        if opc not in checked_opcodes:
            checked_opcodes[opc] = _check_opcode(ctx, inst)
        elif not checked_opcodes[opc]:
            continue  # report one bad opcode once
        key = (id(inst.operands), id(inst.ext_set))
        slots = slots_of.get(key)
        if slots is None:
            slots = slots_of[key] = _enum_slots(ctx, inst)
            keep.append(inst)
        if not slots:
            continue
        w = inst.words
        for index, offset, okind in slots:
            value = w[offset]
            key = (okind.name, value)
            if key in ok_enumerants:
                continue
            before = len(ctx.diagnostics)
            if okind.is_mask:
                for bit in mask_bits(value):
                    e = okind.by_value.get(bit)
                    if e is not None:
                        _check_enumerant(ctx, inst, index, okind.name, e, bit, free_rounding)
            else:
                e = okind.by_value.get(value)
                if e is not None:
                    _check_enumerant(ctx, inst, index, okind.name, e, value, free_rounding)
            if len(ctx.diagnostics) == before and opc != op.Capability and not _CONTEXT_DEPENDENT.get(okind.name):
                ok_enumerants.add(key)
    _check_env_capabilities(ctx)
    _check_ext_inst_capabilities(ctx)
    if ctx.has_capability("VulkanMemoryModel") and ctx.memory_model is not None \
            and ctx.memory_model != op.MEMORY_MODEL.Vulkan:
        # SPV_KHR_vulkan_memory_model: the capability comes with the memory model it declares
        inst = next(iter(ctx.instructions_of((op.MemoryModel,))), None)
        ctx.error("capabilities.memory-model", SEC_CAPS,
                  "VulkanMemoryModelKHR capability must only be specified if the VulkanKHR memory model is used.", inst)
    _check_extension_versions(ctx)
    _check_non_semantic_imports(ctx)


def _check_ext_inst_capabilities(ctx) -> None:
    """Extended instructions the set's grammar gates on a capability (GLSL.std.450's InterpolateAt*
    need InterpolationFunction, Pack/UnpackDouble2x32 Float64)."""
    for inst in ctx.instructions_of(op.EXT_INSTS):
        desc = getattr(inst.ext_set, "by_opcode", {}).get(inst.words[4]) if len(inst.words) > 4 else None
        if desc is not None and desc.capabilities and not any(ctx.has_capability(c) for c in desc.capabilities):
            ctx.error("capabilities.ext-inst", SEC,
                      f"{inst.ext_set.import_name} {desc.opname} requires capability {' or '.join(desc.capabilities)}",
                      inst)
            return


# Extensions whose specifications require a minimum SPIR-V version ("Dependencies: This extension
# requires SPIR-V 1.4", ...). SPIRV-Tools 2025.5 checks exactly these (checked against every
# extension the grammar names); SPV_KHR_vulkan_memory_model's 1.3 dependency is SPIRV-Tools PR 6042.
EXTENSION_MIN_VERSION = {
    "SPV_KHR_vulkan_memory_model": (1, 3), "SPV_QCOM_cooperative_matrix_conversion": (1, 3),
    "SPV_KHR_workgroup_memory_explicit_layout": (1, 4), "SPV_EXT_mesh_shader": (1, 4),
    "SPV_NV_shader_invocation_reorder": (1, 4), "SPV_EXT_shader_invocation_reorder": (1, 4),
    "SPV_NV_cluster_acceleration_structure": (1, 4), "SPV_NV_linear_swept_spheres": (1, 4),
    "SPV_QCOM_image_processing": (1, 4), "SPV_QCOM_image_processing2": (1, 4),
}


def _check_extension_versions(ctx) -> None:
    for inst in ctx.instructions_of((op.Extension,)):
        name = inst.value(0)
        need = EXTENSION_MIN_VERSION.get(name)
        if need is not None and ctx.version < need:
            ctx.error("capabilities.extension-version", SEC_CAPS,
                      f"{name} extension requires SPIR-V version {_v(need)} or later.", inst)
            return


def _check_non_semantic_imports(ctx) -> None:
    """SPV_KHR_non_semantic_info: "OpExtInstImport ... a name with the prefix "NonSemantic." ... This
    extension adds" that kind of set; before SPIR-V 1.6 (where the extension is core) it must be
    declared to import one."""
    if ctx.version >= (1, 6) or "SPV_KHR_non_semantic_info" in ctx.extensions:
        return
    for inst in ctx.instructions_of((op.ExtInstImport,)):
        if ctx.ext_imports.get(inst.words[1], "").startswith("NonSemantic."):
            ctx.error("capabilities.extension", SEC_CAPS,
                      "NonSemantic extended instruction sets cannot be declared without SPV_KHR_non_semantic_info "
                      "(core from SPIR-V 1.6).", inst)
            return


def _enum_slots(ctx, inst) -> tuple:
    """(operand index, word offset, operand kind) of the enumerant operands of an instruction
    (an extended instruction set's own kinds excluded)."""
    kinds = ctx.grammar.operand_kinds
    own = getattr(inst.ext_set, "operand_kinds", {}) if inst.ext_set is not None else {}
    slots = []
    for index, operand in enumerate(inst.operands):
        okind = kinds.get(operand.kind)
        if okind is None or not okind.is_enum or operand.kind in own:
            continue
        slots.append((index, operand.offset, okind))
    return tuple(slots)


# Enumerants whose check depends on the instruction (a BuiltIn in a decoration, the
# FPRoundingMode decoration in Vulkan): not cached.
_CONTEXT_DEPENDENT = {"Decoration": True, "BuiltIn": True}


def _check_opcode(ctx, inst) -> bool:
    desc = ctx.grammar.instruction(inst.opcode)
    if desc is None:
        return True
    if desc.capabilities and not any(ctx.has_capability(c) for c in desc.capabilities):
        ctx.error("capabilities.opcode", SEC,
                  f"Opcode {desc.opname[2:]} requires one of these capabilities: {' '.join(desc.capabilities)}",
                  inst)
        return False
    version = ctx.version
    if desc.last_version is not None and desc.last_version < version:
        ctx.error("capabilities.version", SEC_CAPS,
                  f"{desc.opname} requires SPIR-V version {_v(desc.last_version)} or earlier", inst)
        return False
    if desc.capabilities and desc.opname != "OpTerminateInvocation":
        return True
    if not desc.extensions:
        if desc.version is None:
            ctx.error("capabilities.version", SEC_CAPS, f"{desc.opname} is reserved for future use.", inst)
            return False
        if version < desc.version:
            ctx.error("capabilities.version", SEC_CAPS,
                      f"{desc.opname} requires SPIR-V version {_v(desc.version)} at minimum.", inst)
            return False
    elif not any(x in ctx.extensions for x in desc.extensions):
        if desc.version is None:
            ctx.error("capabilities.extension", SEC_CAPS,
                      f"{desc.opname} requires one of the following extensions: {' '.join(desc.extensions)}",
                      inst)
            return False
        if version < desc.version:
            ctx.error("capabilities.version", SEC_CAPS,
                      f"{desc.opname} requires SPIR-V version {_v(desc.version)} at minimum or one of the "
                      f"following extensions: {' '.join(desc.extensions)}", inst)
            return False
    return True


def _check_enumerant(ctx, inst, index, kind, e, value, free_rounding) -> None:
    if kind == "BuiltIn" and e.name in _FREE_BUILTINS:
        return
    if kind == "FPRoundingMode" and free_rounding:
        return
    caps = e.capabilities
    if kind == "Decoration" and e.name == "FPRoundingMode":
        if free_rounding:
            return
        if ctx.env.is_vulkan:
            caps = _SIXTEEN_BIT_STORAGE
    if inst.opcode != op.Capability and caps and not any(ctx.has_capability(c) for c in caps):
        ctx.error("capabilities.operand", SEC,
                  f"Operand {index + 1} of {inst.opname[2:]} requires one of these capabilities: "
                  f"{' '.join(caps)}", inst)
        return
    version = ctx.version
    reserved = e.version is None
    last = e.last_version
    if not reserved and e.version <= version and (last is None or version <= last):
        return
    where = f"{_ordinal(index)} operand of {inst.opname[2:]}: operand {e.name}({value})"
    if last is not None and last < version:
        ctx.error("capabilities.version", SEC_CAPS, f"{where} requires SPIR-V version {_v(last)} or earlier", inst)
    elif not reserved and not e.extensions:
        ctx.error("capabilities.version", SEC_CAPS, f"{where} requires SPIR-V version {_v(e.version)} or later",
                  inst)
    elif e.extensions and not any(x in ctx.extensions for x in e.extensions):
        ctx.error("capabilities.extension", SEC_CAPS,
                  f"{where} requires one of these extensions: {' '.join(e.extensions)}", inst)


def _ordinal(index: int) -> str:
    n = index + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _enabled_by_extension(ctx, name: str) -> bool:
    e = ctx.grammar.operand_kinds["Capability"].by_name.get(name)
    return e is not None and any(x in ctx.extensions for x in e.extensions)


def _check_env_capabilities(ctx) -> None:
    env = ctx.env
    if env.api == "universal":
        return
    kind = ctx.grammar.operand_kinds["Capability"]
    for inst in ctx.instructions_of((op.Capability,)):
        e = kind.by_value.get(inst.words[1])
        if e is None or _enabled_by_extension(ctx, e.name):
            continue
        if env.is_opencl:
            allowed = env_tables.opencl_capability_allowed(env, ctx.options, e.name, ctx.declared_capabilities)
            if not allowed:
                version = "%d.%d" % env.api_version
                ctx.error("opencl.capability-table", "OpenCL env 3",
                          f"Capability {e.name} is not allowed by OpenCL {version} {env.profile} Profile "
                          f"specification (or requires extension or capability)", inst)
        elif not env_tables.vulkan_capability_allowed(env, e.name):
            ctx.error("vulkan.capability-table", "Vulkan env 2",
                      f"Capability {e.name} is not allowed by Vulkan {'%d.%d' % env.api_version} "
                      f"specification (or requires extension)", inst)
