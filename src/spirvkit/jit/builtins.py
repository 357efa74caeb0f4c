"""BuiltIn input variables of the Kernel execution model, computed from the launch state.

The local id arrives as three arguments of every lowered function; the group id and this
group's size live in the thread state; the rest of the NDRange is in the launch context.
Dimensions at or above ``work_dim`` read as the runtime fills them: size 1, id 0.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from .function import I32, I64, BuiltinPtr, FunctionLowering


def _vector3(fl: FunctionLowering, name: str) -> list[ir.Value]:
    """The three i64 components of a 3-vector builtin."""
    b = fl.builder
    if name == "LocalInvocationId":
        return [fl.lx, fl.ly, fl.lz]
    if name == "WorkgroupId":
        return [fl.thread_word("group_id", d) for d in range(3)]
    if name == "WorkgroupSize":
        return [fl.thread_word("local_size", d) for d in range(3)]
    if name == "EnqueuedWorkgroupSize":
        return [fl.context_word("enqueued_local_size", d) for d in range(3)]
    if name == "GlobalSize":
        return [fl.context_word("global_size", d) for d in range(3)]
    if name == "GlobalOffset":
        return [fl.context_word("global_offset", d) for d in range(3)]
    if name == "NumWorkgroups":
        return [fl.context_word("num_groups", d) for d in range(3)]
    if name == "GlobalInvocationId":
        ids = []
        for d, local in enumerate((fl.lx, fl.ly, fl.lz)):
            group = fl.thread_word("group_id", d)
            size = fl.context_word("enqueued_local_size", d)
            ids.append(b.add(b.add(b.mul(group, size), local), fl.context_word("global_offset", d)))
        return ids
    raise KeyError(name)


def _scalar(fl: FunctionLowering, name: str) -> ir.Value:
    b = fl.builder
    if name == "WorkDim":
        return fl.context_word("work_dim")
    if name == "LocalInvocationIndex":
        sx, sy = fl.thread_word("local_size", 0), fl.thread_word("local_size", 1)
        return b.add(b.mul(b.add(b.mul(fl.lz, sy), fl.ly), sx), fl.lx)
    if name == "GlobalLinearId":
        gid = _vector3(fl, "GlobalInvocationId")
        off = [fl.context_word("global_offset", d) for d in range(3)]
        gsx, gsy = fl.context_word("global_size", 0), fl.context_word("global_size", 1)
        x, y, z = (b.sub(g, o) for g, o in zip(gid, off))
        return b.add(b.mul(b.add(b.mul(z, gsy), y), gsx), x)
    # Sub-groups of n work-items of consecutive local linear ids (the launch's sub-group size,
    # at least 1); the last one of a group may be smaller.
    n = fl.context_word("sub_group_size")
    if name == "SubgroupLocalInvocationId":
        return b.urem(_scalar(fl, "LocalInvocationIndex"), n)
    if name == "SubgroupId":
        return b.udiv(_scalar(fl, "LocalInvocationIndex"), n)
    count = b.mul(b.mul(fl.thread_word("local_size", 0), fl.thread_word("local_size", 1)),
                  fl.thread_word("local_size", 2))
    enqueued = b.mul(b.mul(fl.context_word("enqueued_local_size", 0), fl.context_word("enqueued_local_size", 1)),
                     fl.context_word("enqueued_local_size", 2))
    if name == "SubgroupSize":
        if fl.ml.shader is not None:
            return n   # Vulkan: the device's sub-group size, whatever the group's size
        return _umin(b, n, b.sub(count, b.mul(_scalar(fl, "SubgroupId"), n)))
    if name == "SubgroupMaxSize":
        return _umin(b, n, enqueued)
    if name in ("NumSubgroups", "NumEnqueuedSubgroups"):
        items = count if name == "NumSubgroups" else enqueued
        return b.udiv(b.add(items, b.sub(n, ir.Constant(I64, 1))), n)
    raise KeyError(name)


MASKS = ("SubgroupEqMask", "SubgroupGeMask", "SubgroupGtMask", "SubgroupLeMask", "SubgroupLtMask")
I128 = ir.IntType(128)


def _mask(fl: FunctionLowering, name: str) -> ir.Value:
    """A sub-group mask (uint4, component 0 the low bits): the bits of the sub-group local ids
    equal to this one's, or >=, >, <=, < it, and below SubgroupSize (the Vulkan definition, which
    the OpenCL cl_khr_subgroup_ballot masks share); ids from 128 on have no bit."""
    b = fl.builder
    lid = b.zext(_scalar(fl, "SubgroupLocalInvocationId"), I128)
    size = b.zext(_scalar(fl, "SubgroupSize"), I128)

    def below(n):   # bits [0, n), n <= 128 or not
        ones = ir.Constant(I128, (1 << 128) - 1)
        return b.select(b.icmp_unsigned("<", n, ir.Constant(I128, 128)),
                        b.sub(b.shl(ir.Constant(I128, 1), n), ir.Constant(I128, 1)), ones)

    one = ir.Constant(I128, 1)
    le = below(b.add(lid, one))
    bits = {"SubgroupEqMask": lambda: b.xor(le, below(lid)), "SubgroupLeMask": lambda: le,
            "SubgroupLtMask": lambda: below(lid),
            "SubgroupGeMask": lambda: b.and_(below(size), b.not_(below(lid))),
            "SubgroupGtMask": lambda: b.and_(below(size), b.not_(le))}[name]()
    return b.bitcast(bits, ir.VectorType(I32, 4))


def _umin(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.select(b.icmp_unsigned("<", x, y), x, y)


def _resize(b: ir.IRBuilder, value: ir.Value, ty: ir.Type) -> ir.Value:
    if ty.width < 64:
        return b.trunc(value, ty)
    return value


def load(fl: FunctionLowering, ptr: BuiltinPtr, t) -> ir.Value:
    """The value an OpLoad of a BuiltIn variable (or one component of it) produces."""
    b = fl.builder
    name = ptr.builtin
    if fl.ml.shader is not None:   # 32-bit invocation ids computed without wrapping (shader_memory)
        value = fl.ml.shader.load_builtin(fl, ptr, t)
        if value is not None:
            return value
    try:
        if name in MASKS:
            mask = _mask(fl, name)
            if ptr.index is None:
                return mask
            return b.extract_element(mask, b.trunc(ptr.index, I32) if ptr.index.type.width > 32 else ptr.index)
        if t.kind == "vector":
            parts = _vector3(fl, name)
            vec = ir.Constant(t.llvm, None)
            for d in range(t.count):
                vec = b.insert_element(vec, _resize(b, parts[d], t.elem.llvm), ir.Constant(I32, d))
            return vec
        if ptr.index is not None:
            parts = _vector3(fl, name)
            index = ptr.index
            if isinstance(index, ir.Constant):
                return _resize(b, parts[index.constant], t.llvm)
            vec = ir.Constant(ir.VectorType(I64, 3), None)
            for d in range(3):
                vec = b.insert_element(vec, parts[d], ir.Constant(I32, d))
            return _resize(b, b.extract_element(vec, index), t.llvm)
        return _resize(b, _scalar(fl, name), t.llvm)
    except KeyError:
        raise NotSupportedError(f"the BuiltIn {name}") from None
