"""The pointers check: null dereferences and misaligned accesses.

A null pointer has the empty region at address 0: a ``None`` argument (a NULL buffer, as
OpenCL allows) binds (0, 0, 0), and a pointer made from the integer 0 finds no region and gets
(0, 0). An access through a pointer whose region base is 0 (the null pointer, or one computed
from it by an offset) is a "null dereference" finding, reported instead of the bounds fault it
would otherwise be, and skipped.

An access is misaligned when its address is not a multiple of the alignment the instruction
may assume, which the lowering passes with the access event (:func:`stated_alignment`): its
``Aligned`` memory operand when it has one, else the ABI alignment of the type loaded or
stored (OpenCL C requires every object to be aligned to its type, vectors to their size); an
atomic's is its size. A misaligned load or store is reported and still performed, as Oclgrind
does (with this check compiled in, the lowering emits loads and stores with no alignment
promise: :func:`performs_misaligned`), so the outputs hold what the kernel did; a misaligned
atomic is skipped (it cannot be done atomically). Copies and the OpenCL.std vloadn/vstoren
(which only need the element's alignment) are not tested.
"""

from __future__ import annotations

from llvmlite import ir

from .check_passes import I64


def enabled(fl) -> bool:
    passes = fl.ml.check_passes
    return passes is not None and "pointers" in passes.checks


def stated_alignment(fl, t, explicit: int | None, pointer_id: int | None) -> int | None:
    """The alignment a load or store of type ``t`` (None: a pointer) through ``pointer_id``
    may assume, for the access event: its ``Aligned`` operand ``explicit``, else its type's
    (nothing for a member of a packed struct); None when the pointers check is not compiled in
    (nothing to test, and nothing to compute)."""
    if not enabled(fl):
        return None
    if explicit:
        return int(explicit)
    if pointer_id is not None and _into_packed(fl.ml.module, pointer_id):
        return 1          # a member of a packed struct: no alignment (unless Aligned says one)
    return 8 if t is None or t.kind == "pointer" else fl.types.align(t)


def performs_misaligned(fl, volatile: bool = False) -> bool:
    """Whether a load or store is emitted with no alignment promise (align 1): with the pointers
    check on, a misaligned one is reported and still performed, and LLVM must not be told it is
    aligned (an aligned SSE move of a misaligned address faults). A volatile access keeps its
    alignment: it is emitted as an atomic, which must be aligned."""
    return not volatile and enabled(fl)


class PointerCheck:
    def __init__(self, passes):
        self.passes = passes

    def group_copy(self, passes, b, ctx, ts, inst, spv_fn, sides):
        """An async work-group copy from or to a null pointer (a copy of 0 elements is fine)."""
        found = None
        for addr, base, end, span in sides:
            null = b.and_(b.icmp_unsigned("==", base, ir.Constant(I64, 0)),
                          b.icmp_unsigned("!=", span, ir.Constant(I64, 0)))
            passes.report_group(b, ctx, ts, null, passes.ml.site(inst, "null dereference", spv_fn), addr, base, end,
                                span)
            found = null if found is None else b.or_(found, null)
        return found

    def access(self, fl, ptr, addr, base, end, size, kind: str, align: int | None = None):
        b = fl.builder
        null = b.icmp_unsigned("==", base, ir.Constant(I64, 0))
        self.passes.report(fl, null, fl.site("null dereference"), addr, base, end, size, 0)
        if align is None and kind == "atomic" and isinstance(size, ir.Constant):
            align = int(size.constant)     # an atomic object is aligned to its size
        if align is None or align <= 1 or align & (align - 1) or kind not in ("load", "store", "atomic"):
            return null
        misaligned = b.icmp_unsigned("!=", b.and_(addr, ir.Constant(I64, align - 1)), ir.Constant(I64, 0))
        misaligned = b.and_(misaligned, b.not_(null))
        self.passes.report(fl, misaligned, fl.site("misaligned"), addr, base, end, size, align)
        return b.or_(null, misaligned) if kind == "atomic" else null


_CHAINS = {"OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain", "OpInBoundsPtrAccessChain"}
_CASTS = {"OpBitcast", "OpCopyObject", "OpPtrCastToGeneric", "OpGenericCastToPtr", "OpGenericCastToPtrExplicit"}
_OP_TYPE_VECTOR, _OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY, _OP_TYPE_STRUCT, _OP_TYPE_POINTER = 23, 28, 29, 30, 32


def _into_packed(module, pointer_id: int, depth: int = 8) -> bool:
    """Whether the pointer was derived by indexing into a struct decorated CPacked (C's
    ``__attribute__((packed))``: its members sit at any byte), through access chains and casts."""
    inst = module.definition(pointer_id)
    if inst is None or depth == 0:
        return False
    if inst.opname in _CASTS:
        return _into_packed(module, inst.words[3], depth - 1)
    if inst.opname not in _CHAINS:
        return False
    pointer_type = module.definition(module.type_of(inst.words[3]).result_id)
    current = module.definition(pointer_type.words[3]) if pointer_type.opcode == _OP_TYPE_POINTER else None
    indices = list(inst.words[5:] if inst.opname in ("OpPtrAccessChain", "OpInBoundsPtrAccessChain") else inst.words[4:])
    for index in indices:      # the types it indexes into, outermost first
        if current is None:
            break
        if current.opcode == _OP_TYPE_STRUCT:
            if any(d.name == "CPacked" for d in module.decorations(current.words[1])):
                return True
            member = module.definition(index)
            if member is None or member.opname != "OpConstant":
                break
            current = module.definition(current.words[2 + member.words[3]])
        elif current.opcode in (_OP_TYPE_VECTOR, _OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY):
            current = module.definition(current.words[2])
        else:
            break
    return _into_packed(module, inst.words[3], depth - 1)
