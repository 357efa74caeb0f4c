"""OpenCL.std instructions that read or write memory through a pointer operand: the vector
loads and stores (``vloadn``, ``vstoren`` and the half-precision forms). Each access is
bounds-checked like an OpLoad/OpStore."""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from .function import I32, I64, FunctionLowering
from .ops_convert import ROUNDING, narrow_float
from .types import abi_size

HALF = ir.HalfType()


def _element_address(fl: FunctionLowering, ptr, offset_id: int, stride: int, element: ir.Type):
    """p + offset * stride elements, as a Ptr keeping p's region."""
    b = fl.builder
    offset = fl.value(offset_id)
    if offset.type.width < 64:
        offset = b.zext(offset, I64)
    index = b.mul(offset, ir.Constant(I64, stride))
    return ptr.moved(b.gep(ptr.addr, [index], source_etype=element))


def _load_vector(fl: FunctionLowering, ptr, element: ir.Type, n: int) -> ir.Value:
    b = fl.builder
    size = abi_size(element, fl.types.target_data) * n
    vec_t = ir.ArrayType(element, n)   # no vector alignment: vloadn only needs element alignment
    align = abi_size(element, fl.types.target_data)
    if fl.checked:
        fl.check_access(ptr, size, "load")
        loaded = b.load(ptr.addr, typ=vec_t, align=align)
        fl.tag(loaded)
        raw = fl.join_access(loaded)
    else:
        raw = b.load(ptr.addr, typ=vec_t, align=align)
        fl.tag(raw)
    vec = ir.Constant(ir.VectorType(element, n), None)
    for i in range(n):
        vec = b.insert_element(vec, b.extract_value(raw, i), ir.Constant(I32, i))
    return vec


def _store_vector(fl: FunctionLowering, ptr, value: ir.Value, element: ir.Type, n: int) -> None:
    b = fl.builder
    size = abi_size(element, fl.types.target_data) * n
    arr = ir.Constant(ir.ArrayType(element, n), None)
    for i in range(n):
        lane = b.extract_element(value, ir.Constant(I32, i)) if isinstance(value.type, ir.VectorType) else value
        arr = b.insert_value(arr, lane, i)
    if fl.checked:
        fl.check_access(ptr, size, "store")
    fl.tag(b.store(arr, ptr.addr, align=abi_size(element, fl.types.target_data)))
    if fl.checked:
        fl.join_access()


def _scalar_type(t: ir.Type) -> ir.Type:
    return t.element if isinstance(t, ir.VectorType) else t


def lower_vector_memory(fl: FunctionLowering, inst, name: str) -> None:
    w = inst.words
    ops = w[5:]
    result_t = fl.type(w[1]).llvm if fl.type(w[1]).kind != "void" else None
    b = fl.builder
    if name == "vloadn":
        n = ops[2]
        element = _scalar_type(result_t)
        ptr = _element_address(fl, fl.pointer(ops[1]), ops[0], n, element)
        fl.set(w[2], _load_vector(fl, ptr, element, n))
    elif name == "vstoren":
        data = fl.value(ops[0])
        element = _scalar_type(data.type)
        n = data.type.count
        ptr = _element_address(fl, fl.pointer(ops[2]), ops[1], n, element)
        _store_vector(fl, ptr, data, element, n)
    elif name in ("vload_half", "vload_halfn", "vloada_halfn"):
        n = ops[2] if name != "vload_half" else 1
        stride = 4 if name == "vloada_halfn" and n == 3 else n
        ptr = _element_address(fl, fl.pointer(ops[1]), ops[0], stride, HALF)
        halves = _load_vector(fl, ptr, HALF, n)
        if n == 1:
            halves = b.extract_element(halves, ir.Constant(I32, 0))
        fl.set(w[2], b.fpext(halves, result_t))
    elif name.startswith("vstore"):
        data = fl.value(ops[0])
        mode = ROUNDING.get(ops[3]) if name.endswith("_r") else None
        n = data.type.count if isinstance(data.type, ir.VectorType) else 1
        stride = 4 if name.startswith("vstorea") and n == 3 else n
        half_t = ir.VectorType(HALF, n) if n > 1 else HALF
        narrowed = narrow_float(b, data, half_t, mode)
        ptr = _element_address(fl, fl.pointer(ops[2]), ops[1], stride, HALF)
        _store_vector(fl, ptr, narrowed, HALF, n)
    else:
        raise NotSupportedError(f"OpenCL.std {name}")


VECTOR_MEMORY = {"vloadn", "vstoren", "vload_half", "vload_halfn", "vloada_halfn", "vstore_half", "vstore_half_r",
                 "vstore_halfn", "vstore_halfn_r", "vstorea_halfn", "vstorea_halfn_r"}
