"""OpenCL.std ``printf``: each call appends a record to the launch's printf buffer.

The format string must be a literal in the constant address space, resolvable at compile time
(OpenCL C 2.0 section 6.13.13): it is read here from the module's UniformConstant variable, parsed
and checked against the argument types, and becomes a *printf site* of the kernel (format and
argument kinds, in ``ModuleLowering.printf_sites``; they travel in the compiled kernel's metadata).
A malformed call becomes the constant -1 and prints nothing. A valid one reserves its record with
one atomic add on the context's ``printf_used`` word (work-groups run on several threads), writes
it when it fits and returns 0, else counts itself in ``printf_dropped`` and returns -1. The record
layout and the host side (formatting, output order) are in :mod:`spirvkit.runtime.printf`.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from ..spirv.names import OP
from .abi import CONTEXT
from .function import I8, I32, I64, PTR, FunctionLowering
from .printf_format import HEADER_BYTES, argument_slot_bytes, conversions_match, parse_format

DOUBLE = ir.DoubleType()
_OP_VARIABLE, _OP_SPEC_OP, _OP_COPY_OBJECT, _OP_BITCAST = OP.Variable, OP.SpecConstantOp, OP.CopyObject, OP.Bitcast
_OP_ACCESS_CHAINS = (65, 66, 67, 70)   # OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain, OpInBounds...
_OP_PTR_CASTS = (121, 122)             # OpPtrCastToGeneric, OpGenericCastToPtr


def constant_string(fl: FunctionLowering, value_id: int) -> str | None:
    """The bytes (as latin-1 text, up to the first NUL) a pointer points to when it is the address
    of (an element of) an initialised UniformConstant variable, found through access chains with
    constant indices and pointer casts; None otherwise."""
    ml = fl.ml
    module, types = ml.module, ml.types
    offset = 0
    for _ in range(64):   # a chain of address computations, never a cycle in valid SPIR-V
        inst = module.definition(value_id)
        if inst is None:
            return None
        op, w = inst.opcode, list(inst.words)
        if op == _OP_SPEC_OP:   # OpSpecConstantOp: the wrapped opcode, then its operands
            op, w = w[3], w[:3] + w[4:]
        if op == _OP_VARIABLE:
            ptr_t = types[w[1]]
            if ptr_t.storage != "UniformConstant" or len(w) <= 4:
                return None
            data = ml.constants.to_bytes(ml.constants.value(w[4]), ptr_t.elem)
            if not 0 <= offset <= len(data):
                return None
            text = data[offset:]
            end = text.find(b"\0")
            return (text if end < 0 else text[:end]).decode("latin-1")
        if op in (_OP_COPY_OBJECT, _OP_BITCAST) or op in _OP_PTR_CASTS:
            value_id = w[3]
            continue
        if op in _OP_ACCESS_CHAINS:
            base = w[3]
            step = _chain_offset(fl, types[module.type_of(base).result_id], w[4:], ptr_chain=op in (67, 70))
            if step is None:
                return None
            offset += step
            value_id = base
            continue
        return None
    return None


def _chain_offset(fl: FunctionLowering, ptr_t, indices: list[int], ptr_chain: bool) -> int | None:
    """Byte offset of an access chain with constant indices into arrays and vectors."""
    types, constants = fl.ml.types, fl.ml.constants
    t = ptr_t.elem
    total = 0
    for k, index_id in enumerate(indices):
        if not constants.is_constant(index_id):
            return None
        index = constants.value(index_id)
        if not isinstance(index, int):
            return None
        if k == 0 and ptr_chain:
            total += index * types.size(t)
            continue
        if t is None or t.kind not in ("array", "vector"):
            return None
        t = t.elem
        total += index * types.size(t)
    return total


def _argument_kind(fl: FunctionLowering, value_id: int) -> list:
    t = fl.types[fl.ml.module.type_of(value_id).result_id]
    if t.kind in ("int", "bool"):
        return ["i", max(t.width, 1)]
    if t.kind == "float":
        return ["f", t.width]
    if t.kind == "pointer":
        return ["p", constant_string(fl, value_id)]
    if t.kind == "vector" and t.elem.kind in ("int", "float") and t.elem.width >= 8:
        return ["vi" if t.elem.kind == "int" else "vf", t.elem.width, t.count]
    return ["?"]


def _global_linear_id(fl: FunctionLowering) -> ir.Value:
    """The work-item's global linear id (without the global offset): the output order key."""
    b = fl.builder
    linear = None
    for d in (2, 1, 0):
        local = (fl.lx, fl.ly, fl.lz)[d]
        gid = b.add(b.mul(fl.thread_word("group_id", d), fl.context_word("enqueued_local_size", d)), local)
        linear = gid if linear is None else b.add(b.mul(linear, fl.context_word("global_size", d)), gid)
    return linear


def _context_slot(fl: FunctionLowering, name: str) -> ir.Value:
    return fl.builder.gep(fl.ctx, [ir.Constant(I64, CONTEXT[name])], source_etype=I64)


def _store_argument(b: ir.IRBuilder, at: ir.Value, kind: list, value: ir.Value) -> None:
    if kind[0] in ("vi", "vf"):
        step = kind[1] // 8
        for i in range(kind[2]):
            lane = b.extract_element(value, ir.Constant(I32, i))
            b.store(lane, b.gep(at, [ir.Constant(I64, i * step)], source_etype=I8), align=1)
        return
    if kind[0] == "f":
        if not isinstance(value.type, ir.DoubleType):
            value = b.fpext(value, DOUBLE)
    elif kind[0] == "p":
        value = b.ptrtoint(value, I64)
    elif value.type.width < 64:
        value = b.zext(value, I64)
    b.store(value, at, align=8)


def lower_printf(fl: FunctionLowering, inst) -> None:
    w = inst.words
    fmt_id, arg_ids = w[5], list(w[6:])
    fmt = constant_string(fl, fmt_id)
    if fmt is None:
        raise NotSupportedError("printf with a format that is not a string literal in the constant address "
                                "space (OpenCL C 6.13.13: the format must be resolvable at compile time)")
    result_t = fl.type(w[1]).llvm
    kinds = [_argument_kind(fl, a) for a in arg_ids]
    pieces = parse_format(fmt.encode("latin-1"))
    if pieces is None or not conversions_match(pieces, kinds):
        fl.set(w[2], ir.Constant(result_t, -1))   # undefined behaviour: print nothing, fail
        return
    ml = fl.ml
    # Only the arguments the format consumes are stored (the rest are evaluated and ignored).
    consumed = len([p for p in pieces if not isinstance(p, str)])
    kinds = kinds[:consumed]
    site = len(ml.printf_sites)
    ml.printf_sites.append({"format": fmt, "args": kinds})
    size = HEADER_BYTES + sum(argument_slot_bytes(k) for k in kinds)

    b = fl.builder
    values = [fl.value(a) for a in arg_ids[:consumed]]
    gid = _global_linear_id(fl)
    start = b.atomic_rmw("add", _context_slot(fl, "printf_used"), ir.Constant(I64, size), "monotonic")
    capacity = b.load(_context_slot(fl, "printf_capacity"), typ=I64)
    fits = b.icmp_unsigned("<=", b.add(start, ir.Constant(I64, size)), capacity)
    write = fl.fn.append_basic_block("printf.write")
    full = fl.fn.append_basic_block("printf.full")
    done = fl.fn.append_basic_block("printf.done")
    b.cbranch(fits, write, full)

    b.position_at_end(write)
    base = b.load(_context_slot(fl, "printf_buffer"), typ=PTR)
    record = b.gep(base, [start], source_etype=I8)
    b.store(ir.Constant(I32, site), record, align=8)
    b.store(ir.Constant(I32, size), b.gep(record, [ir.Constant(I64, 4)], source_etype=I8), align=4)
    b.store(gid, b.gep(record, [ir.Constant(I64, 8)], source_etype=I8), align=8)
    at = HEADER_BYTES
    for kind, value in zip(kinds, values):
        _store_argument(b, b.gep(record, [ir.Constant(I64, at)], source_etype=I8), kind, value)
        at += argument_slot_bytes(kind)
    b.branch(done)

    b.position_at_end(full)
    b.atomic_rmw("add", _context_slot(fl, "printf_dropped"), ir.Constant(I64, 1), "monotonic")
    b.branch(done)

    b.position_at_end(done)
    result = b.phi(result_t)
    result.add_incoming(ir.Constant(result_t, 0), write)
    result.add_incoming(ir.Constant(result_t, -1), full)
    fl.set(w[2], result)
