"""Memory: variables, loads, stores, access chains, copies, pointer comparisons.

Every load, store and copy goes through :meth:`FunctionLowering.check_access` in checked mode.
A pointer kept in a private variable (the ``%p.addr`` slots of unoptimised code) keeps its
region in two shadow slots next to the variable, so loading it back does not lose its bounds.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from . import array_bounds, builtins, private_shadows
from .function import I32, I64, PTR, BuiltinPtr, FunctionLowering, Ptr, handles
from .intrinsics import intrinsic, opaque_alloca, store_atomic
from .check_uninit import doubled   # (private variables carry their shadow when it is on)
from .check_pointers import performs_misaligned, stated_alignment

_VOLATILE, _ALIGNED = 0x1, 0x2


def memory_access(words: list[int], at: int) -> tuple[bool, int | None]:
    """(volatile, alignment) from an optional MemoryAccess operand starting at ``at``."""
    if at >= len(words):
        return False, None
    mask = words[at]
    return bool(mask & _VOLATILE), (words[at + 1] if mask & _ALIGNED else None)


@handles("OpVariable")
def lower_variable(fl: FunctionLowering, inst) -> None:
    w = inst.words
    ptr_t = fl.type(w[1])
    if ptr_t.storage != "Function" and not (ptr_t.storage == "Private" and fl.ml.shader is not None):
        # (a shader's Private variables are moved into its entry function: shader_compiler.py)
        raise NotSupportedError(f"a function-scope OpVariable in storage class {ptr_t.storage}")
    pointee = ptr_t.elem
    ab = fl.alloca_builder
    if fl.region is not None:
        # A kernel split at barriers keeps its private variables in the work-item record;
        # the region's entry already made the pointer. Only the initializer is left to do.
        init = fl.get(w[4]) if len(w) > 4 else None
        if init is not None:
            fl.builder.store(init.addr if isinstance(init, Ptr) else init, fl.values[w[2]].addr)
        shadow = fl.pointer_shadows.get(w[2])
        if shadow is not None:
            null = ir.Constant(PTR, None)
            has = isinstance(init, Ptr) and init.base is not None
            fl.builder.store(init.base if has else null, shadow[0])
            fl.builder.store(init.end if has else null, shadow[1])
        if w[2] in fl.aggregate_shadows:   # (its table is in the record too: regions.py)
            private_shadows.clear(fl, fl.aggregate_shadows[w[2]])
        return
    # The Alignment decoration counts too: accesses may say Aligned 16 on a packed struct (a
    # block literal that llvm-spirv decorates CPacked holds a vector or double member).
    declared = [d.operands[0] for d in fl.ml.module.decorations(w[2]) if d.name == "Alignment"]
    slot = opaque_alloca(ab, doubled(fl.ml, pointee.llvm), max(fl.types.align(pointee), 4, min(max(declared, default=0),
                                                                                MAX_ASSUMED_ALIGNMENT)))
    if len(w) > 4:
        init = fl.get(w[4])
        ab.store(init.addr if isinstance(init, Ptr) else init, slot)
    if not fl.checked:
        fl.set(w[2], Ptr(slot))
        return
    end = ab.gep(slot, [ir.Constant(I64, fl.types.size(pointee))], source_etype=ir.IntType(8))
    fl.set(w[2], Ptr(slot, slot, end))
    if private_shadows.holds_pointers(pointee):
        size = fl.types.size(pointee)
        table = opaque_alloca(ab, private_shadows.table_type(size), 8)
        private_shadows.declare(fl, w[2], fl.values[w[2]], table, size)   # (an initializer is constant:
                                                                            # its pointers are in the table)
    if pointee.kind == "pointer":
        shadow = (ab.alloca(PTR), ab.alloca(PTR))
        null = ir.Constant(PTR, None)
        init = fl.get(w[4]) if len(w) > 4 else None
        for s, part in zip(shadow, (init.base, init.end) if isinstance(init, Ptr) and init.base is not None
                           else (null, null)):
            ab.store(part, s)
        fl.pointer_shadows[w[2]] = shadow


MAX_ASSUMED_ALIGNMENT = 16


def _alignment(fl: FunctionLowering, t, explicit: int | None) -> int:
    """The alignment an access may assume: what the module says, but at most 16 bytes, the
    alignment numpy gives every array (so a float8 buffer need not be 32-byte aligned;
    unaligned vector loads cost nothing on current x86), and for a vector at most its
    component's: a vector address that breaks the module's promise (an Aligned 16 uint4 store
    through a ulong pointer) must not become an aligned SSE access, which faults the process."""
    cap = fl.types.align(t.elem) if getattr(t, "kind", None) == "vector" else MAX_ASSUMED_ALIGNMENT
    return min(explicit or fl.types.align(t), MAX_ASSUMED_ALIGNMENT, cap)


@handles("OpLoad")
def lower_load(fl: FunctionLowering, inst) -> None:
    w = inst.words
    t = fl.type(w[1])
    ptr = fl.pointer(w[3])
    if isinstance(ptr, BuiltinPtr):
        fl.set(w[2], builtins.load(fl, ptr, t))
        return
    if fl.ml.shader is not None and fl.ml.shader.is_explicit(fl, w[3]):   # buffer layouts
        fl.set(w[2], fl.ml.shader.load(fl, ptr, t, w[3]))
        return
    volatile, align = memory_access(w, 4)
    fl.set(w[2], load(fl, ptr, t, align, volatile, shadow=fl.pointer_shadows.get(w[3]), pointer_id=w[3]))
    if fl.checked and fl.aggregate_shadows and t.kind in ("struct", "array"):
        carried = private_shadows.load_value(fl, ptr, t)
        if carried is not None:
            fl.value_shadows[w[2]] = carried


def _volatile_vector_int(llvm_t, size: int):
    """The integer type a small vector is accessed as when volatile: LLVM's code generators
    cannot widen an atomic access of a vector type (an abort, found by the exec fuzzer), so
    ``volatile uint2`` moves as one i64."""
    if not isinstance(llvm_t, ir.VectorType):
        return None
    e = llvm_t.element
    bits = e.width if isinstance(e, ir.IntType) else {ir.HalfType: 16, ir.FloatType: 32, ir.DoubleType: 64}.get(type(e))
    return ir.IntType(8 * size) if bits and bits % 8 == 0 and bits * llvm_t.count == 8 * size else None


def _emit_load(fl: FunctionLowering, ptr: Ptr, llvm_t, size: int, align: int, volatile: bool):
    if performs_misaligned(fl, volatile):   # the pointers check lets a misaligned load happen
        align = 1
    # A volatile load must happen exactly as written: a relaxed atomic load gives that (llvmlite
    # cannot spell 'load volatile').
    if volatile and size in (1, 2, 4, 8) and align >= size:
        as_int = _volatile_vector_int(llvm_t, size)
        if as_int is None:
            return fl.builder.load_atomic(ptr.addr, "monotonic", align, typ=llvm_t)
        return fl.builder.bitcast(fl.builder.load_atomic(ptr.addr, "monotonic", align, typ=as_int), llvm_t)
    value = fl.builder.load(ptr.addr, typ=llvm_t, align=align)
    fl.tag(value)
    return value


def load(fl: FunctionLowering, ptr: Ptr, t, align=None, volatile=False, shadow=None, pointer_id=None):
    b = fl.builder
    llvm_t = PTR if t.kind == "pointer" else t.llvm
    size = fl.types.size(t)
    if fl.checked:
        fl.check_access(ptr, size, "load", pointer_id, stated_alignment(fl, t, align, pointer_id))
        value = fl.join_access(_emit_load(fl, ptr, llvm_t, size, _alignment(fl, t, align), volatile))
    else:
        value = _emit_load(fl, ptr, llvm_t, size, _alignment(fl, t, align), volatile)
    if t.kind != "pointer":
        return value
    if not fl.checked:
        return Ptr(value)
    if shadow is not None:
        return Ptr(value, b.load(shadow[0], typ=PTR), b.load(shadow[1], typ=PTR))
    found = fl.ptr_from_address(value)
    # Loaded through a computed pointer (`int **pp = &p; **pp`): if that pointer is the address
    # of one of this function's pointer-holding variables, the pointer's region is in the
    # variable's shadow (private variables are not in the launch's region table).
    base, end = found.base, found.end
    for var_id, (base_slot, end_slot) in fl.pointer_shadows.items():
        here = b.icmp_unsigned("==", b.ptrtoint(ptr.addr, I64), b.ptrtoint(fl.values[var_id].addr, I64))
        base = b.select(here, b.load(base_slot, typ=PTR), base)
        end = b.select(here, b.load(end_slot, typ=PTR), end)
    # ... or a pointer member of a private struct or array (private_shadows.py).
    return private_shadows.load_pointer(fl, ptr, Ptr(value, base, end))


@handles("OpStore")
def lower_store(fl: FunctionLowering, inst) -> None:
    w = inst.words
    ptr = fl.pointer(w[1])
    if isinstance(ptr, BuiltinPtr):
        raise NotSupportedError(f"a store to the BuiltIn variable {ptr.builtin}")
    value = fl.get(w[2])
    t = fl.types[fl.ml.module.type_of(w[2]).result_id] if not isinstance(value, Ptr) else None
    if fl.ml.shader is not None and t is not None and fl.ml.shader.is_explicit(fl, w[1]):   # buffer layouts
        fl.ml.shader.store(fl, ptr, value, t, w[1])
        return
    volatile, align = memory_access(w, 3)
    store(fl, ptr, value, t, align, volatile, pointer_id=w[1])
    shadow = fl.pointer_shadows.get(w[1])
    if shadow is not None:
        p = fl.pointer(w[2])
        null = ir.Constant(PTR, None)
        fl.builder.store(p.base if p.base is not None else null, shadow[0])
        fl.builder.store(p.end if p.end is not None else null, shadow[1])
    elif isinstance(value, Ptr) and fl.checked and fl.pointer_shadows:
        # A pointer stored through a computed pointer (`*pp = &y`) may land in a pointer-holding
        # variable: keep that variable's shadow up to date.
        b = fl.builder
        null = ir.Constant(PTR, None)
        for var_id, slots in fl.pointer_shadows.items():
            here = b.icmp_unsigned("==", b.ptrtoint(ptr.addr, I64), b.ptrtoint(fl.values[var_id].addr, I64))
            for slot, part in zip(slots, (value.base, value.end)):
                b.store(b.select(here, part if part is not None else null, b.load(slot, typ=PTR)), slot)
    if fl.checked and fl.aggregate_shadows and shadow is None:
        stored = fl.types[fl.ml.module.type_of(w[2]).result_id]
        if stored.kind == "pointer":
            private_shadows.store_pointer(fl, ptr, fl.pointer(w[2]))
        else:
            private_shadows.store_value(fl, ptr, stored, w[2])


def store(fl: FunctionLowering, ptr: Ptr, value, t, align=None, volatile=False, pointer_id=None) -> None:
    b = fl.builder
    if isinstance(value, Ptr):
        raw, size, natural = value.addr, 8, 8
    else:
        raw, size, natural = value, fl.types.size(t), _alignment(fl, t, None)
    stated = stated_alignment(fl, None if isinstance(value, Ptr) else t, align, pointer_id)
    align = _alignment(fl, t, align) if align and not isinstance(value, Ptr) else \
        (min(align, MAX_ASSUMED_ALIGNMENT) if align else None)
    if fl.checked:
        fl.check_access(ptr, size, "store", pointer_id, stated)
    if performs_misaligned(fl, volatile):   # the pointers check lets a misaligned store happen
        align = natural = 1
    if volatile and size in (1, 2, 4, 8) and (align or natural) >= size:
        as_int = _volatile_vector_int(raw.type, size)
        store_atomic(b, raw if as_int is None else b.bitcast(raw, as_int), ptr.addr, "monotonic",
                     align or natural)   # see _emit_load
    elif not volatile and size > BULK_STORE_BYTES and isinstance(raw, ir.Constant) and \
            isinstance(raw.type, ir.ArrayType | ir.LiteralStructType | ir.IdentifiedStructType):
        _store_constant_aggregate(fl, ptr, raw, size)
    else:
        fl.tag(b.store(raw, ptr.addr, align=align or natural))
    if fl.checked:
        fl.join_access()


# A store of a large constant aggregate (a zero-filled or initialised private array) as one LLVM
# store takes the code generator time linear in its elements with a large constant: a 20,000-float
# array took 35 s. As memset / memcpy from a constant it is one call.
BULK_STORE_BYTES = 256


def _store_constant_aggregate(fl: FunctionLowering, ptr: Ptr, value: ir.Constant, size: int) -> None:
    b = fl.builder
    length = ir.Constant(I64, size)
    if value.constant is None:   # OpConstantNull: zeroinitializer
        memset = intrinsic(fl.ml.llvm, "llvm.memset", ir.VoidType(), [PTR, ir.IntType(8), I64, ir.IntType(1)],
                           overloads=[PTR, I64])
        fl.tag(b.call(memset, [ptr.addr, ir.Constant(ir.IntType(8), 0), length, ir.Constant(ir.IntType(1), 0)]))
        return
    module = b.module
    data = ir.GlobalVariable(module, value.type, module.get_unique_name("aggregate_init"))
    data.global_constant = True
    data.linkage = "private"
    data.unnamed_addr = True
    data.initializer = value
    memcpy = intrinsic(fl.ml.llvm, "llvm.memcpy", ir.VoidType(), [PTR, PTR, I64, ir.IntType(1)],
                       overloads=[PTR, PTR, I64])
    fl.tag(b.call(memcpy, [ptr.addr, data, length, ir.Constant(ir.IntType(1), 0)]))


def _pointee(fl: FunctionLowering, pointer_id: int):
    ptr_t = fl.types[fl.ml.module.type_of(pointer_id).result_id]
    if ptr_t.elem is None:
        raise NotSupportedError(f"a pointer to an unknown type (%{ptr_t.pointee_id})")
    return ptr_t.elem


def _index(fl: FunctionLowering, value_id: int) -> ir.Value:
    """An array/vector index as i64 (SPIR-V indices are signed)."""
    v = fl.value(value_id)
    if not isinstance(v.type, ir.IntType):
        # SPIRV-Tools (and so spirvkit's validator) leave an OpPtrAccessChain's Element operand
        # unconstrained: a fuzz mutant indexed with a pointer.
        raise NotSupportedError(f"an access chain index of type {v.type} (not an integer scalar)")
    if v.type.width < 64:
        return fl.builder.sext(v, I64)
    return v


@handles("OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain", "OpInBoundsPtrAccessChain")
def lower_access_chain(fl: FunctionLowering, inst) -> None:
    w = inst.words
    base = fl.pointer(w[3])
    indices = list(w[4:])
    has_element = inst.opname in ("OpPtrAccessChain", "OpInBoundsPtrAccessChain")
    if isinstance(base, BuiltinPtr):
        if has_element or len(indices) != 1 or base.index is not None:
            raise NotSupportedError(f"{inst.opname} into the BuiltIn variable {base.builtin}")
        fl.set(w[2], BuiltinPtr(base.builtin, fl.value(indices[0])))
        return
    pointee = _pointee(fl, w[3])
    if fl.ml.shader is not None and (fl.ml.shader.is_explicit(fl, w[3])    # Offset / ArrayStride,
                                     or fl.ml.shader.descriptors.is_array(w[3])):   # arrays of descriptors
        fl.ml.shader.access_chain(fl, inst, base, pointee)
        return
    gep_indices = [_index(fl, indices.pop(0)) if has_element else ir.Constant(I64, 0)]
    current = pointee
    for index_id in indices:
        if current.kind == "struct":
            member = fl.ml.constants.value(index_id)
            gep_indices.append(ir.Constant(I32, member))
            current = current.members[member]
        elif current.kind in ("array", "vector"):
            gep_indices.append(_index(fl, index_id))
            current = current.elem
        else:
            raise NotSupportedError(f"{inst.opname} indexing into a {current.kind}")
    # Without checks, the InBounds forms promise what LLVM's inbounds means; with checks a
    # wrong promise must still reach the check, so no inbounds there.
    inbounds = inst.opname.startswith("OpInBounds") and not fl.checked
    addr = fl.builder.gep(base.addr, gep_indices, inbounds=inbounds, source_etype=pointee.llvm)
    fl.set(w[2], array_bounds.derive(fl, inst, base, pointee, gep_indices, addr))   # (an array's own bounds)


@handles("OpCopyMemory", "OpCopyMemorySized")
def lower_copy_memory(fl: FunctionLowering, inst) -> None:
    w = inst.words
    target, source = fl.pointer(w[1]), fl.pointer(w[2])
    if isinstance(target, BuiltinPtr) or isinstance(source, BuiltinPtr):
        # (BuiltIn inputs are values computed per work-item, not memory: they are read with OpLoad)
        raise NotSupportedError(f"{inst.opname} to or from a BuiltIn variable")
    explicit_size = fl.ml.shader.check_copy(fl, w[1], w[2]) if fl.ml.shader is not None else None
    b = fl.builder
    if inst.opname == "OpCopyMemorySized":
        size = fl.value(w[3])
        if size.type.width < 64:
            size = b.zext(size, I64)
    else:   # a shader's buffers: their explicit layout's size
        size = ir.Constant(I64, explicit_size if explicit_size is not None else fl.types.size(_pointee(fl, w[1])))
    if fl.checked:
        fl.check_access(target, size, "copy")
        outer = fl._access
        fl.check_access(source, size, "copy")
    memmove = intrinsic(fl.ml.llvm, "llvm.memmove", ir.VoidType(), [PTR, PTR, I64, ir.IntType(1)],
                        overloads=[PTR, PTR, I64])
    b.call(memmove, [target.addr, source.addr, size, ir.Constant(ir.IntType(1), 0)])
    if fl.checked:
        fl.join_access()
        fl._access = outer
        fl.join_access()
        private_shadows.copy(fl, target, source, size)


@handles("OpPtrEqual", "OpPtrNotEqual")
def lower_ptr_compare(fl: FunctionLowering, inst) -> None:
    w = inst.words
    a, c = fl.pointer(w[3]).addr, fl.pointer(w[4]).addr
    op = "==" if inst.opname == "OpPtrEqual" else "!="
    fl.set(w[2], fl.builder.icmp_unsigned(op, a, c))


@handles("OpPtrDiff")
def lower_ptr_diff(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    a = b.ptrtoint(fl.pointer(w[3]).addr, I64)
    c = b.ptrtoint(fl.pointer(w[4]).addr, I64)
    size = fl.types.size(_pointee(fl, w[3])) or 1
    diff = b.sdiv(b.sub(a, c), ir.Constant(I64, size))
    fl.set(w[2], b.trunc(diff, fl.type(w[1]).llvm) if fl.type(w[1]).width < 64 else diff)
