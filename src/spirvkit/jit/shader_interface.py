"""GLCompute shaders: what an entry point needs from the host (its buffers by set and binding,
its push constants, its local size), and the checks of what the executor supports.

A shader reaches its buffers through module-scope variables in the StorageBuffer, Uniform and
PushConstant storage classes, bound by (set, binding), not through kernel parameters. Each such
variable gets a slot in the launch's argument block holding (base, base, end) of the host
array bound to it, the same three words an OpenCL buffer argument has, so checked code bounds
every access exactly as it does for kernels.

Memory in those storage classes has an explicit layout (shader_layout.py); the lowering hooks
that access it are in shader_memory.py.

Images, samplers and combined image samplers are UniformConstant variables; arrays of
descriptors (buffers or images) are variables of an array type. Their slot's words are
(table, table, table end) of a host table with one entry per descriptor, as the shader loads
it: an image's descriptor address, a sampler's bits, both for a combined image sampler, and
(base, end) for a buffer in an array (shader_descriptors.py indexes those).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotSupportedError, SpirvkitError
from ..spirv.module import Module
from ..spirv.names import OP, Enumerants
from .shader_layout import ExplicitLayout
from .types import SpvType

MAX_INVOCATION_ID = 2**31 - 1   # per dimension: ids fit a signed 32-bit int (see shader_memory.load_builtin)
RESOURCE_STORAGE = frozenset({"StorageBuffer", "Uniform", "PushConstant", "UniformConstant"})
BUFFER_ENTRY_BYTES = 16   # (base, end) of one buffer in an array of descriptors
SLOT_BYTES = 24        # (address, base, end), as a kernel's buffer argument

DECORATION, BUILTIN, STORAGE = Enumerants("Decoration"), Enumerants("BuiltIn"), Enumerants("StorageClass")


KIND_NAMES = {"storage": "storage buffer", "uniform": "uniform buffer", "storage_image": "storage image",
              "sampled_image": "sampled image", "combined_image_sampler": "combined image sampler",
              "sampler": "sampler", "uniform_texel_buffer": "uniform texel buffer",
              "storage_texel_buffer": "storage texel buffer"}


@dataclass
class Resource:
    """A buffer the shader declares: where it is bound and what it needs."""

    var_id: int
    name: str
    kind: str              # 'storage', 'uniform' or 'push_constant'
    set: int | None
    binding: int | None
    offset: int            # of its (address, base, end) slot in the argument block
    static_size: int       # bytes the block declares (a runtime array counted empty)
    runtime_stride: int    # the stride of its trailing runtime array (0: none)
    count: int | None = None   # an array of descriptors: its length (0: a runtime array); None: one
    element: SpvType | None = None   # images and samplers: the image / sampler / sampled image type
    entry_bytes: int = 0   # the size of one entry of the host table (opaque resources, arrays)
    texels: str = ""       # images: 'float', 'int' or 'uint', the Sampled Type's kind
    image_format: str | None = None   # images: the ImageFormat the type declares ('Unknown', 'Rgba8' ...)

    @property
    def is_buffer(self) -> bool:
        return self.kind in ("storage", "uniform")

    @property
    def uses_table(self) -> bool:
        """Whether the slot points to a host table of descriptors (see the module doc)."""
        return self.count is not None or not self.is_buffer and self.kind != "push_constant"

    def describe(self, element: int | None = None) -> str:
        if self.kind == "push_constant":
            return f"the push constant block{self._named()}"
        what = KIND_NAMES[self.kind]
        if self.count is not None and element is None:
            size = "a runtime array of" if self.count == 0 else f"an array of {self.count}"
            return f"set {self.set} binding {self.binding} ({size} {what}s{self._named()})"
        at = f" element {element}" if element is not None else ""
        return f"set {self.set} binding {self.binding}{at} ({what}{self._named()})"

    def _named(self) -> str:
        return f" {self.name!r}" if self.name else ""


class ShaderInterface:
    """What one GLCompute entry point needs from the host: its buffers, its local size."""

    def __init__(self, module: Module, entry_name: str, types, constants):
        entry = compute_entry(module, entry_name)
        check_shader_module(module)
        self.module, self.entry, self.types, self.constants = module, entry, types, constants
        self.layout = ExplicitLayout(module, types)
        self.local_size = self._local_size()
        self.resources: list[Resource] = []
        used = _used_ids(module)
        at = 0
        for inst in module.section("types_values"):
            if inst.opcode != OP.Variable:
                continue
            ptr_t = types[inst.words[1]]
            if ptr_t.storage not in RESOURCE_STORAGE or inst.words[2] not in used:
                continue
            self.resources.append(self._resource(inst.words[2], ptr_t, at))
            at += SLOT_BYTES
        self.args_bytes = max(16, at)
        self.by_var = {r.var_id: r for r in self.resources}
        seen: dict[tuple, Resource] = {}
        for r in self.resources:
            key = ("push",) if r.kind == "push_constant" else (r.set, r.binding)
            if key in seen:
                raise NotSupportedError(f"{r.describe()} and {seen[key].describe()} share a binding (aliased "
                                        f"descriptors)")
            seen[key] = r

    def _resource(self, var_id: int, ptr_t: SpvType, at: int) -> Resource:
        module = self.module
        name = module.name(var_id) or ""
        block = ptr_t.elem
        count = None
        if block.kind == "array" and ptr_t.storage != "PushConstant":   # an array of descriptors
            count, block = block.count, block.elem
        decorations = {d.name: d.operands for d in module.decorations(var_id)}
        if ptr_t.storage == "UniformConstant":
            return self._opaque(var_id, name, block, count, decorations, at)
        if block.kind != "struct":
            raise NotSupportedError(f"a {ptr_t.storage} variable of type {block.kind} (a Block struct expected)")
        if ptr_t.storage == "PushConstant":
            kind = "push_constant"
        elif ptr_t.storage == "StorageBuffer" or module.has_decoration(block.id, "BufferBlock"):
            kind = "storage"
        else:
            kind = "uniform"
        set_, binding = decorations.get("DescriptorSet", [0])[0], decorations.get("Binding", [None])[0]
        if kind != "push_constant" and binding is None:
            raise SpirvkitError(f"the {ptr_t.storage} variable {name or f'%{var_id}'} has no Binding decoration")
        last = block.members[-1] if block.members else None
        stride = self.layout.stride(last) if last is not None and last.kind == "array" and last.count == 0 else 0
        return Resource(var_id, name, kind, set_ if kind != "push_constant" else None,
                        binding if kind != "push_constant" else None, at, self.layout.size(block), stride,
                        count, None, BUFFER_ENTRY_BYTES if count is not None else 0)

    def _opaque(self, var_id: int, name: str, t: SpvType, count, decorations: dict, at: int) -> Resource:
        """An image, sampler or combined image sampler (or an array of them)."""
        if t.kind == "sampler":
            kind = "sampler"
        elif t.kind == "sampled_image":   # GLSL's samplerBuffer: a uniform texel buffer (no sampler)
            kind = "uniform_texel_buffer" if t.image["dim"] == "Buffer" else "combined_image_sampler"
        elif t.kind == "image":
            words = self.module.definition(t.id).words
            if words[7] not in (1, 2):
                raise NotSupportedError(f"an image variable ({name or f'%{var_id}'}) whose type does not say "
                                        f"whether it is sampled or storage (Sampled {words[7]})")
            texel = t.image["dim"] == "Buffer"
            kind = ("uniform_texel_buffer" if texel else "sampled_image") if words[7] == 1 else \
                ("storage_texel_buffer" if texel else "storage_image")
        else:
            raise NotSupportedError(f"a UniformConstant variable of type {t.kind} in a shader")
        binding = decorations.get("Binding", [None])[0]
        if binding is None:
            raise SpirvkitError(f"the UniformConstant variable {name or f'%{var_id}'} has no Binding decoration")
        resource = Resource(var_id, name, kind, decorations.get("DescriptorSet", [0])[0], binding, at, 0, 0, count,
                            t, self.types.size(t))
        if kind != "sampler":
            from ..spirv.grammar import load_grammar

            image = t.elem if t.kind == "sampled_image" else t
            words = self.module.definition(image.id).words
            scalar = self.types[words[2]]
            resource.texels = "float" if scalar.kind == "float" else ("int" if scalar.signed else "uint")
            resource.image_format = load_grammar().operand_kinds["ImageFormat"].by_value[words[8]].name
        return resource

    def _local_size(self) -> tuple[int, int, int]:
        """The WorkgroupSize built-in constant when there is one (it overrides the modes), else
        LocalSizeId (specialisable), else LocalSize."""
        module = self.module
        for inst in module.section("annotations"):
            if (inst.opcode == OP.Decorate and inst.words[2] == DECORATION.BuiltIn
                    and inst.words[3] == BUILTIN.WorkgroupSize):
                target = module.definition(inst.words[1])
                if target is not None and target.opcode != OP.Variable:
                    return _size3(self.constants.value(inst.words[1]), "the WorkgroupSize constant")
        fn = self.entry.function
        words = module.execution_mode(fn, "LocalSize")
        if words is not None:
            return _size3(words[:3], "LocalSize")
        ids = module.execution_mode(fn, "LocalSizeId")
        if ids is not None:
            return _size3([self.constants.value(i) for i in ids[:3]], "LocalSizeId")
        raise SpirvkitError(f"entry point {self.entry.name!r} declares no LocalSize, LocalSizeId or WorkgroupSize")


def _size3(values, what: str) -> tuple[int, int, int]:
    out = tuple(int(v) for v in values)
    if len(out) != 3 or any(v < 1 for v in out):
        raise SpirvkitError(f"{what} must be three positive sizes, got {out}")
    return out


def _used_ids(module: Module) -> set[int]:
    """Ids some function instruction refers to (a resource nothing uses needs no binding)."""
    used: set[int] = set()
    for fn in module.functions:
        for block in fn.blocks:
            for inst in block.instructions:
                used.update(inst.words[1:])
    return used


def compute_entry(module: Module, name: str):
    entry = module.entry_point(name)
    if entry is None or entry.execution_model != "GLCompute":
        names = [e.name for e in module.entry_points if e.execution_model == "GLCompute"]
        raise SpirvkitError(f"no GLCompute entry point named {name!r}; the module's: {', '.join(names) or 'none'}")
    return entry


def check_shader_module(module: Module) -> None:
    if module.addressing_model not in ("Logical", "PhysicalStorageBuffer64"):
        raise NotSupportedError(f"addressing model {module.addressing_model} in a shader "
                                f"(Logical and PhysicalStorageBuffer64 are)")
    if module.memory_model not in ("GLSL450", "Vulkan", "Simple"):
        raise NotSupportedError(f"memory model {module.memory_model} for a shader")
    for inst in module.section("types_values"):
        if inst.opcode == OP.Variable and len(inst.words) > 4 and inst.words[3] == STORAGE.Workgroup:   # initialised
            init = module.definition(inst.words[4])
            if init is None or init.opcode != OP.ConstantNull:
                raise NotSupportedError("a Workgroup variable initialised with another value than OpConstantNull")
