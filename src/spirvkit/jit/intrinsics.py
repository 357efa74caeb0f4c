"""Declaring LLVM intrinsics and atomic instructions llvmlite.ir cannot spell for opaque
pointers or overloaded names."""

from __future__ import annotations

from llvmlite import ir
from llvmlite.ir import instructions


def type_suffix(t: ir.Type) -> str:
    """LLVM's overload mangling: i32, f32, v4f32 ..."""
    if isinstance(t, ir.VectorType):
        return f"v{t.count}{type_suffix(t.element)}"
    if isinstance(t, ir.IntType):
        return f"i{t.width}"
    if isinstance(t, ir.HalfType):
        return "f16"
    if isinstance(t, ir.FloatType):
        return "f32"
    if isinstance(t, ir.DoubleType):
        return "f64"
    if isinstance(t, ir.PointerType):
        return "p0"
    raise TypeError(f"no intrinsic suffix for {t}")


def intrinsic(module: ir.Module, name: str, ret: ir.Type, args: list[ir.Type],
              overloads: list[ir.Type] | None = None) -> ir.Function:
    """Declares (once) ``name.<suffixes>`` with the given signature. ``overloads`` are the
    types that name the overload (default: the return type)."""
    suffixes = [type_suffix(t) for t in (overloads if overloads is not None else [ret])]
    full = ".".join([name, *suffixes])
    fn = module.globals.get(full)
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(ret, args), name=full)
    return fn


def opaque_alloca(b: ir.IRBuilder, ty: ir.Type, align: int) -> ir.Value:
    """An alloca seen as an untyped pointer: llvmlite types an alloca's result, and would then
    refuse stores of other types through it (legal with LLVM's opaque pointers)."""
    slot = b.alloca(ty)
    slot.align = align
    slot.type = ir.PointerType()   # what LLVM itself says: an alloca yields a plain ptr
    return slot


def store_atomic(b: ir.IRBuilder, value: ir.Value, ptr: ir.Value, ordering: str, align: int):
    st = instructions.StoreAtomicInstr(b.block, value, ptr, ordering, align)
    b._insert(st)
    return st
