"""GLCompute shader -> native code, through the kernel path: the same ModuleLowering, work-group
driver, regions and checks, with the shader's interface (shader_interface.py) in place of kernel
parameters. A shader is always compiled for its one local size (Vulkan work-groups are whole).
"""

from __future__ import annotations

from ..errors import NotSupportedError
from ..spirv.module import Module
from . import ops_matrix, shader_glsl, shader_image, shader_memory, target  # noqa: F401 (register handlers)
from .compiler import CompiledKernel
from .constants import ConstantEvaluator
from .inline_sync import inline_sync_calls
from .kernel import KernelBuilder
from .lowering import ModuleLowering
from .shader_descriptors import DescriptorArrays
from .shader_interface import ShaderInterface, check_shader_module, compute_entry
from .shader_memory import ShaderLowering
from .shader_ssa import forward_single_stores
from .types import TypeTable

OP_VARIABLE, OP_LABEL = 59, 248


def shader_interface_of(module: Module, entry: str, spec_values: dict | None = None) -> ShaderInterface:
    """The entry point's interface, with the specialisation applied (local size, block sizes)."""
    compute_entry(module, entry)
    check_shader_module(module)   # before the types: matrices are not in the TypeTable
    types = TypeTable(module, target.target_data(), spec_values)
    return ShaderInterface(module, entry, types, ConstantEvaluator(module, types, spec_values))


def private_as_function(module: Module, entry_fn: int) -> Module:
    """Private variables are per invocation, like Function ones: each becomes a variable of the
    entry function's first block (so a kernel split at barriers keeps it in the invocation's
    record). The calls were inlined first; one used from another function is not supported yet."""
    private = {}
    for inst in module.section("types_values"):
        if inst.opcode == OP_VARIABLE and module.definition(inst.words[1]).words[2] == 6:   # Private
            private[inst.words[2]] = inst
    if not private:
        return module
    functions = {f.id: f for f in module.functions}
    for fn_id in _reachable(functions, entry_fn) - {entry_fn}:
        fn = functions[fn_id]
        for block in fn.blocks:
            for inst in block.instructions:
                shared = private.keys() & set(inst.words[1:])
                if shared:
                    var = shared.pop()
                    raise NotSupportedError(f"the Private variable "
                                            f"{module.name(var) or f'%{var}'} used outside the entry point's "
                                            f"function")
    entry = next(f for f in module.functions if f.id == entry_fn)
    first_label = entry.blocks[0].id
    out = []
    moved = list(private.values())
    inserted = False
    for inst in module.instructions:
        if inst.opcode == OP_VARIABLE and inst.words[2] in private:
            continue
        out.append(inst)
        if not inserted and inst.opcode == OP_LABEL and inst.words[1] == first_label:
            out.extend(moved)
            inserted = True
    return Module(out, version=module.version, generator=module.generator, bound=module.bound,
                  schema=module.schema, endian=module.endian)


def _reachable(functions: dict, entry_fn: int) -> set[int]:
    """The functions the entry point calls, directly or not (uncalled ones are never lowered)."""
    seen, todo = set(), [entry_fn]
    while todo:
        fn_id = todo.pop()
        if fn_id in seen or fn_id not in functions:
            continue
        seen.add(fn_id)
        todo.extend(i.words[3] for b in functions[fn_id].blocks for i in b.instructions if i.opcode == 57)
    return seen


def lower_shader(module: Module, entry: str, checked: bool, spec_values: dict | None = None,
                 report_faults: bool = False, guards: bool = True, image_formats: tuple = ()):
    """The LLVM module text, the ModuleLowering, the KernelBuilder and the interface.
    ``image_formats``: (image type id, format words) pairs a dispatch fixes (shader_image.py)."""
    interface = shader_interface_of(module, entry, spec_values)
    entry_fn = interface.entry.function
    # Every call is inlined (shaders cannot recurse): Private variables used by helper functions
    # then live in the entry function, and barriers anywhere split it into regions.
    module = inline_sync_calls(module, entry_fn, {f.id for f in module.functions})
    module = private_as_function(module, entry_fn)
    module = forward_single_stores(module, entry_fn)
    ml = ModuleLowering(module, target.target_data(), target.triple(), checked, spec_values, report_faults,
                        interface.local_size, target.function_attributes(), guards, False)
    # The lowering's interface sees this module's types (the rewrites above kept every id).
    interface = ShaderInterface(module, entry, ml.types, ml.constants)
    ml.shader = ShaderLowering(interface)
    ml.shader.place_workgroup_blocks(ml.layout)
    ml.shader.descriptors = DescriptorArrays(interface)
    ml.image_launch = shader_image.ShaderImageFormats(image_formats)
    kb = KernelBuilder(ml, entry_fn)
    if kb.slots:
        raise NotSupportedError("a GLCompute entry point with parameters")
    kb.build()
    return ml.llvm_text(), ml, kb, interface


def compile_shader(module: Module, entry: str, mode: str = "checked", spec_values: dict | None = None,
                   pipeline: str = "optimized", image_formats: tuple = ()) -> tuple[CompiledKernel, ShaderInterface]:
    """``mode`` as for compile_kernel: 'checked', 'unchecked' or 'report'; ``image_formats`` as
    for lower_shader."""
    ir_text, ml, kb, interface = lower_shader(module, entry, mode != "unchecked", spec_values,
                                              report_faults=mode == "report", guards=pipeline == "optimized",
                                              image_formats=image_formats)
    obj = target.compile_ir(ir_text, pipeline)
    compiled = CompiledKernel(entry, obj, mode, [], interface.args_bytes, kb.has_barriers, ml.sites,
                              ml.layout.local_bytes, ml.layout.globals_bytes, ml.layout.global_init, kb.frame_bytes,
                              ml.constant_names, ml.local_size, ml.printf_sites, ml.layout.global_relocs)
    return compiled, interface
