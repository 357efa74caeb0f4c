"""OpExtInst: dispatch to the extended instruction set's lowering module."""

from __future__ import annotations

from ..errors import NotSupportedError
from .function import FunctionLowering, Ptr, handles
from .opencl_memory import VECTOR_MEMORY, lower_vector_memory


@handles("OpExtInst")
def lower_ext_inst(fl: FunctionLowering, inst) -> None:
    w = inst.words
    ext_set = inst.ext_set
    set_name = getattr(ext_set, "import_name", None) or fl.ml.module.ext_inst_imports.get(w[3], "?")
    if set_name.startswith("NonSemantic."):
        return  # no semantic effect by definition (debug info, shader-debug printf ...)
    if set_name == "GLSL.std.450":
        from .shader_glsl import lower_glsl_std

        lower_glsl_std(fl, inst)
        return
    if set_name != "OpenCL.std":
        raise NotSupportedError(f"extended instruction set {set_name}")
    desc = ext_set.by_opcode.get(w[4]) if hasattr(ext_set, "by_opcode") else None
    if desc is None:
        raise NotSupportedError(f"OpenCL.std instruction {w[4]}")
    name = desc.opname
    if name == "prefetch":
        # A hint only: the CPU's caches need no help, and a prefetch never faults (the operands
        # are already evaluated: SPIR-V operands are values, not expressions).
        return
    if name == "printf":
        from .opencl_printf import lower_printf

        lower_printf(fl, inst)
        return
    if name in VECTOR_MEMORY:
        lower_vector_memory(fl, inst, name)
        return
    from .opencl_pointer_math import POINTER_MATH, lower_pointer_math
    from .opencl_std import lower_opencl_std
    from .ops_memory import store

    if name in POINTER_MATH:
        # The last operand is the pointer the second result is stored through (checked store).
        *value_ids, ptr_id = w[5:]
        ptr = fl.pointer(ptr_id)
        pointee = fl.types[fl.ml.module.type_of(ptr_id).result_id].elem
        args = [fl.value(i) for i in value_ids]
        result, second = lower_pointer_math(fl.builder, name, fl.type(w[1]).llvm, args, pointee.llvm)
        store(fl, ptr, second, pointee)
        fl.set(w[2], result)
        return
    args = []
    for arg_id in w[5:]:
        value = fl.get(arg_id)
        if isinstance(value, Ptr):
            raise NotSupportedError(f"OpenCL.std {name} (pointer operands)")
        args.append(fl.value(arg_id))

    result_t = fl.type(w[1])
    fl.set(w[2], lower_opencl_std(fl.builder, name, result_t.llvm, args))
