"""Atomic instructions on global and local memory (32- and 64-bit, integer and float).

Work-groups run on several threads at once, so every atomic is a real LLVM atomic. The memory
order comes from the semantics operand when it is a constant (Relaxed -> monotonic), and is
sequentially consistent otherwise.
"""

from __future__ import annotations

from llvmlite import ir

from .function import FunctionLowering, handles
from .intrinsics import store_atomic

_ACQUIRE, _RELEASE, _ACQ_REL, _SEQ_CST = 0x2, 0x4, 0x8, 0x10


def _ordering(fl: FunctionLowering, semantics_id: int, kind: str = "rmw") -> str:
    if not fl.ml.constants.is_constant(semantics_id):
        order = "seq_cst"
    else:
        sem = fl.ml.constants.value(semantics_id) or 0
        if sem & _SEQ_CST:
            order = "seq_cst"
        elif sem & _ACQ_REL or (sem & _ACQUIRE and sem & _RELEASE):
            order = "acq_rel"
        elif sem & _ACQUIRE:
            order = "acquire"
        elif sem & _RELEASE:
            order = "release"
        else:
            order = "monotonic"
    if kind == "load" and order in ("release", "acq_rel"):
        return "acquire" if order == "acq_rel" else "monotonic"
    if kind == "store" and order in ("acquire", "acq_rel"):
        return "release" if order == "acq_rel" else "monotonic"
    if kind == "failure":
        return {"release": "monotonic", "acq_rel": "acquire"}.get(order, order)
    return order


def _checked(fl: FunctionLowering, ptr, t, emit):
    """Runs ``emit()`` (which emits the atomic and returns its value) behind a bounds check."""
    if not fl.checked:
        return emit()
    fl.check_access(ptr, fl.types.size(t), "atomic")
    value = emit()
    return fl.join_access(value)


_RMW = {
    "OpAtomicExchange": "xchg", "OpAtomicIAdd": "add", "OpAtomicISub": "sub",
    "OpAtomicSMin": "min", "OpAtomicUMin": "umin", "OpAtomicSMax": "max", "OpAtomicUMax": "umax",
    "OpAtomicAnd": "and", "OpAtomicOr": "or", "OpAtomicXor": "xor",
    "OpAtomicFAddEXT": "fadd", "OpAtomicFMinEXT": "fmin", "OpAtomicFMaxEXT": "fmax",
}


@handles(*_RMW)
def lower_atomic_rmw(fl: FunctionLowering, inst) -> None:
    w = inst.words
    t = fl.type(w[1])
    ptr = fl.pointer(w[3])
    order = _ordering(fl, w[5])
    value = fl.value(w[6])
    fl.set(w[2], _checked(fl, ptr, t, lambda: fl.builder.atomic_rmw(_RMW[inst.opname], ptr.addr, value, order)))


@handles("OpAtomicIIncrement", "OpAtomicIDecrement")
def lower_atomic_step(fl: FunctionLowering, inst) -> None:
    w = inst.words
    t = fl.type(w[1])
    ptr = fl.pointer(w[3])
    order = _ordering(fl, w[5])
    op = "add" if inst.opname == "OpAtomicIIncrement" else "sub"
    one = ir.Constant(t.llvm, 1)
    fl.set(w[2], _checked(fl, ptr, t, lambda: fl.builder.atomic_rmw(op, ptr.addr, one, order)))


@handles("OpAtomicLoad")
def lower_atomic_load(fl: FunctionLowering, inst) -> None:
    w = inst.words
    t = fl.type(w[1])
    ptr = fl.pointer(w[3])
    order = _ordering(fl, w[5], "load")
    size = fl.types.size(t)
    fl.set(w[2], _checked(fl, ptr, t, lambda: fl.builder.load_atomic(ptr.addr, order, size, typ=t.llvm)))


@handles("OpAtomicStore")
def lower_atomic_store(fl: FunctionLowering, inst) -> None:
    w = inst.words
    ptr = fl.pointer(w[1])
    order = _ordering(fl, w[3], "store")
    value = fl.value(w[4])
    t = fl.types[fl.ml.module.type_of(w[4]).result_id]
    size = fl.types.size(t)
    if fl.checked:
        fl.check_access(ptr, size, "atomic")
    store_atomic(fl.builder, value, ptr.addr, order, size)
    if fl.checked:
        fl.join_access()


@handles("OpAtomicCompareExchange", "OpAtomicCompareExchangeWeak")
def lower_atomic_compare_exchange(fl: FunctionLowering, inst) -> None:
    w = inst.words
    t = fl.type(w[1])
    ptr = fl.pointer(w[3])
    success = _ordering(fl, w[5])
    failure = _ordering(fl, w[6], "failure")
    if success == "monotonic" and failure != "monotonic":
        success = failure   # LLVM wants success at least as strong as failure
    value, comparator = fl.value(w[7]), fl.value(w[8])

    def emit():
        pair = fl.builder.cmpxchg(ptr.addr, comparator, value, success, failure)
        passes = fl.ml.check_passes
        if fl.checked and passes is not None:   # the races check: only a success writes
            passes.exchanged(fl, ptr, fl.types.size(t), fl.builder.extract_value(pair, 1))
        return fl.builder.extract_value(pair, 0)

    fl.set(w[2], _checked(fl, ptr, t, emit))


@handles("OpAtomicFlagTestAndSet")
def lower_atomic_flag_test_and_set(fl: FunctionLowering, inst) -> None:
    w = inst.words
    ptr = fl.pointer(w[3])
    order = _ordering(fl, w[5])
    i32 = ir.IntType(32)
    b = fl.builder

    def emit():
        return b.atomic_rmw("xchg", ptr.addr, ir.Constant(i32, 1), order)

    if fl.checked:
        fl.check_access(ptr, 4, "atomic")
        old = fl.join_access(emit())
    else:
        old = emit()
    fl.set(w[2], b.icmp_unsigned("!=", old, ir.Constant(i32, 0)))


@handles("OpAtomicFlagClear")
def lower_atomic_flag_clear(fl: FunctionLowering, inst) -> None:
    w = inst.words
    ptr = fl.pointer(w[1])
    order = _ordering(fl, w[3], "store")
    if fl.checked:
        fl.check_access(ptr, 4, "atomic")
    store_atomic(fl.builder, ir.Constant(ir.IntType(32), 0), ptr.addr, order, 4)
    if fl.checked:
        fl.join_access()
