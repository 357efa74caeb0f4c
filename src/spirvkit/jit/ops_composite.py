"""Composite instructions: construct, extract, insert, shuffles, dynamic vector access."""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError, SpirvError
from .function import I32, I64, FunctionLowering, Ptr, handles


@handles("OpCompositeConstruct")
def lower_composite_construct(fl: FunctionLowering, inst) -> None:
    w = inst.words
    t = fl.type(w[1])
    b = fl.builder
    parts = [fl.value(c) for c in w[3:]]
    agg = ir.Constant(t.llvm, None)
    if t.kind == "vector":
        lane = 0
        for part in parts:   # a vector is built from scalars and smaller vectors, in order
            if isinstance(part.type, ir.VectorType):
                for i in range(part.type.count):
                    agg = b.insert_element(agg, b.extract_element(part, ir.Constant(I32, i)), ir.Constant(I32, lane))
                    lane += 1
            else:
                agg = b.insert_element(agg, part, ir.Constant(I32, lane))
                lane += 1
    else:
        for i, part in enumerate(parts):
            agg = b.insert_value(agg, part, i)
    fl.set(w[2], agg)


def _path(fl: FunctionLowering, composite_type_id: int, indices: list[int]):
    """Splits an index path into the aggregate part (extractvalue) and a final vector lane."""
    t = fl.type(composite_type_id)
    aggregate = []
    for n, i in enumerate(indices):
        if t.kind == "vector":
            if n != len(indices) - 1:
                raise NotSupportedError("an index path that continues past a vector component")
            return aggregate, i
        aggregate.append(i)
        t = t.members[i] if t.kind == "struct" else t.elem
    return aggregate, None


@handles("OpCompositeExtract")
def lower_composite_extract(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    composite = fl.value(w[3])
    aggregate, lane = _path(fl, fl.ml.module.type_of(w[3]).result_id, list(w[4:]))
    value = b.extract_value(composite, aggregate) if aggregate else composite
    if lane is not None:
        value = b.extract_element(value, ir.Constant(I32, lane))
    if fl.type(w[1]).kind == "pointer":
        value = fl.ptr_from_address(value)
        if w[3] in fl.value_shadows:   # a member of a struct loaded from a private variable
            value = _carried(fl, w[3], list(w[4:]), value)
    fl.set(w[2], value)


def _carried(fl: FunctionLowering, composite_id: int, indices: list[int], found: Ptr) -> Ptr:
    """The bounds the loaded struct carries for the pointer member at ``indices`` (see
    private_shadows.py), else those the region table found."""
    t, at = fl.type(fl.ml.module.type_of(composite_id).result_id), 0
    for i in indices:
        if t.kind == "struct":
            at, t = at + fl.types.member_offset(t, i), t.members[i]
        else:
            at, t = at + i * fl.types.size(t.elem), t.elem
    carried = fl.value_shadows[composite_id].get(at)
    if carried is None:
        return found
    b = fl.builder
    use = b.icmp_unsigned("!=", b.ptrtoint(carried[0], I64), ir.Constant(I64, 0))
    return Ptr(found.addr, b.select(use, carried[0], found.base), b.select(use, carried[1], found.end))


@handles("OpCompositeInsert")
def lower_composite_insert(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    obj = fl.value(w[3])
    composite = fl.value(w[4])
    aggregate, lane = _path(fl, w[1], list(w[5:]))
    if lane is None:
        fl.set(w[2], b.insert_value(composite, obj, aggregate))
        return
    inner = b.extract_value(composite, aggregate) if aggregate else composite
    inner = b.insert_element(inner, obj, ir.Constant(I32, lane))
    fl.set(w[2], b.insert_value(composite, inner, aggregate) if aggregate else inner)


@handles("OpVectorExtractDynamic")
def lower_vector_extract_dynamic(fl: FunctionLowering, inst) -> None:
    w = inst.words
    vec, index = fl.value(w[3]), fl.value(w[4])
    b = fl.builder
    # An index past the end is undefined: clamp it so the lane read is one of the vector's.
    n = vec.type.count
    index = b.select(b.icmp_unsigned("<", index, ir.Constant(index.type, n)), index, ir.Constant(index.type, 0))
    fl.set(w[2], b.extract_element(vec, index))


@handles("OpVectorInsertDynamic")
def lower_vector_insert_dynamic(fl: FunctionLowering, inst) -> None:
    w = inst.words
    vec, comp, index = fl.value(w[3]), fl.value(w[4]), fl.value(w[5])
    b = fl.builder
    n = vec.type.count
    inside = b.icmp_unsigned("<", index, ir.Constant(index.type, n))
    safe = b.select(inside, index, ir.Constant(index.type, 0))
    inserted = b.insert_element(vec, comp, safe)
    fl.set(w[2], b.select(inside, inserted, vec))


def _widen(b: ir.IRBuilder, vec: ir.Value, count: int) -> ir.Value:
    n = vec.type.count
    if n == count:
        return vec
    mask = [ir.Constant(I32, i if i < n else n) for i in range(count)]
    return b.shuffle_vector(vec, ir.Constant(vec.type, None), ir.Constant(ir.VectorType(I32, count), mask))


@handles("OpVectorShuffle")
def lower_vector_shuffle(fl: FunctionLowering, inst) -> None:
    w = inst.words
    a, c = fl.value(w[3]), fl.value(w[4])
    b = fl.builder
    na, nc = a.type.count, c.type.count
    width = max(na, nc)
    a, c = _widen(b, a, width), _widen(b, c, width)
    mask = []
    for lane in w[5:]:
        if lane == 0xFFFFFFFF:
            mask.append(0)          # an undefined lane: any value will do
        elif lane < na:
            mask.append(lane)
        else:
            mask.append(lane - na + width)
    fl.set(w[2], b.shuffle_vector(a, c, ir.Constant(ir.VectorType(I32, len(mask)), [ir.Constant(I32, m) for m in mask])))


@handles("OpCopyObject", "OpCopyLogical")
def lower_copy_object(fl: FunctionLowering, inst) -> None:
    fl.set(inst.words[2], fl.get(inst.words[3]))


@handles("OpUndef")
def lower_undef(fl: FunctionLowering, inst) -> None:
    t = fl.type(inst.words[1])
    if t.kind == "pointer":
        null = ir.Constant(t.llvm, None)
        fl.set(inst.words[2], Ptr(null, null, null) if fl.checked else Ptr(null))
    else:
        # Any value is allowed; zero keeps a buggy kernel deterministic.
        fl.set(inst.words[2], ir.Constant(t.llvm, None))


@handles("OpSizeOf")
def lower_size_of(fl: FunctionLowering, inst) -> None:
    w = inst.words
    t = fl.ml.module.type_of(w[3])
    ptr_t = fl.types[t.result_id] if t is not None else None
    if ptr_t is None or ptr_t.kind != "pointer" or ptr_t.elem is None:
        # The SPIR-V spec asks a pointer to a concretely typed object; spirv-val does not check it.
        raise SpirvError(f"invalid module: OpSizeOf (word {inst.offset}): Pointer %{w[3]} is not a pointer to a "
                         f"typed object")
    fl.set(w[2], ir.Constant(fl.type(w[1]).llvm, fl.types.size(ptr_t.elem)))
