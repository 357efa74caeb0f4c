"""Checked mode: an array inside a struct or inside another array is bounded by that array.

The bounds check of an access tests the allocation (the variable, the buffer, the __local
block): ``s.b[i]`` with ``struct { int a; char b[2]; } s`` and i = 2 lands in the struct's
padding, i = 4 in the next member, and both pass it. An out-of-range index of an access chain
into an array is undefined behaviour in SPIR-V (and in OpenCL C, C99 6.5.6), and Oclgrind
reports it ("Index (2) exceeds static array size (2)"), so the access chain bounds such an
index by the array's length.

What is bounded, and what is not:

* The array indexes of OpAccessChain / OpInBoundsAccessChain into an array of constant
  length: each must be in [0, length). ``spirvkit cc`` writes ``s.b[i]`` so.
* Not OpPtrAccessChain / OpInBoundsPtrAccessChain: their Element is pointer arithmetic (``p[k]``,
  ``(char *)&s + k``, a pointer to a struct's first member walked past it), which keeps the
  allocation's bounds, and a pointer made by one forgets the array (``moved`` gives a plain
  Ptr). Their other indexes are not bounded either: llvm-spirv writes every LLVM GEP as one,
  and LLVM's GEP indexes are not bounded by their arrays (only the allocation is): its
  optimiser folds pointer arithmetic into the last index (clang -O2 turns the walk ``int *p =
  (int *)&q; p[3]`` over ``struct { int v[3]; int x; } q`` into ``gep %Q, %q, 0, 0, 3``), so an
  index past its array there is no fault of the program's.
* Not the first index into a whole variable (``a[i]`` of ``int a[4]``): the allocation check
  is that same test.
* Only in private, __local and generic memory, where the issue's faults live (a struct of the
  kernel's own): a __global or __constant buffer may hold a struct that ends in a one-element
  array the host allocated longer (the "struct hack"), so those keep the buffer's bounds, and
  so does such a last one-element array reached through a generic pointer.
* The index is tested where the pointer is used (a load, store or atomic through it, or
  through a cast of it), not where it is made: ``&a[N]``, one past the end, is a valid pointer
  that must not be dereferenced. Sized copies (memcpy) keep the allocation's bounds: they walk
  an object's bytes whatever the pointer's type.

The test is on the indexes themselves (``i <u length``), not on addresses, so LLVM folds it
against a loop bound, and a group guard (access_guard.py) proves it for a whole work-group as
it proves the allocation's bounds. An access wider than what remains of the array element the
pointer is in (a cast to a larger type) also tests its end against the array's end.
"""

from __future__ import annotations

from llvmlite import ir

from .function import I64, Ptr

BOUNDED_STORAGE = {"Function", "Workgroup", "Generic"}


class ArrayPtr(Ptr):
    """A pointer made by access chains that index arrays: ``ok`` (i1) holds when every such
    index is in range; then [addr, addr + room) lies inside the innermost such array, which
    ends at ``inner_end``."""

    __slots__ = ("ok", "inner_end", "room")

    def __init__(self, addr, base, end, ok, inner_end, room: int):
        super().__init__(addr, base, end)
        self.ok, self.inner_end, self.room = ok, inner_end, room

    def moved(self, addr) -> Ptr:
        return Ptr(addr, self.base, self.end)     # pointer arithmetic: the allocation's bounds

    def narrow(self, fl, addr, size, kind: str, ok):
        """(ok and this pointer's array test, whether a group guard may prove the result)."""
        if kind == "copy":
            return ok, True
        b = fl.builder
        inside = self.ok
        fixed = size.constant if isinstance(size, ir.Constant) else None
        if fixed is None or fixed > self.room:
            fits = b.icmp_unsigned("<=", b.add(addr, size), b.ptrtoint(self.inner_end, I64))
            return b.and_(ok, b.and_(inside, fits)), False
        return b.and_(ok, inside), True


def bounded_indexes(ml, inst) -> list[tuple[int, int]]:
    """(word position, array length) of the indexes of an access chain that are bounded by
    their array (see the module's notes). The same list for the lowering and the group guard."""
    if ml.shader is not None or inst.opname not in ("OpAccessChain", "OpInBoundsAccessChain"):
        return []
    ptr_t = _pointer_type(ml, inst.words[3])
    if ptr_t is None or ptr_t.storage not in BOUNDED_STORAGE or ptr_t.elem is None:
        return []
    base_def = ml.module.definition(inst.words[3])
    whole = base_def is not None and base_def.opname == "OpVariable"
    # A generic pointer may point into a __global buffer: there, a struct's last member of one
    # element may be the struct hack (see the module's notes), also when an earlier chain
    # picked the member (``spirvkit cc`` writes ``h->data[i]`` as two chains).
    generic = ptr_t.storage == "Generic"
    hack = generic and base_def is not None and base_def.opname in _CHAINS and _picks_last_member(ml, base_def)
    found, current = [], ptr_t.elem
    for at in range(4, len(inst.words)):
        if current.kind == "struct":
            member = ml.constants.value(inst.words[at])
            hack = generic and member == len(current.members) - 1
            current = current.members[member]
        elif current.kind in ("array", "vector"):
            if current.kind == "array" and current.count > 0 and not (whole and at == 4) and \
                    not (hack and current.count == 1):
                found.append((at, current.count))
            current, hack = current.elem, False
        else:
            break
    return found


_CHAINS = ("OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain", "OpInBoundsPtrAccessChain")


def _pointer_type(ml, pointer_id: int):
    t = ml.module.type_of(pointer_id)
    ptr_t = ml.types[t.result_id] if t is not None else None
    return ptr_t if ptr_t is not None and ptr_t.kind == "pointer" else None


def _picks_last_member(ml, chain) -> bool:
    """Whether an access chain's last index picks the last member of a struct."""
    ptr_t = _pointer_type(ml, chain.words[3])
    current = ptr_t.elem if ptr_t is not None else None
    first = 5 if chain.opname in _CHAINS[2:] else 4
    last = False
    for at in range(first, len(chain.words)):
        if current is None or current.kind not in ("struct", "array", "vector"):
            return False
        if current.kind == "struct":
            member = ml.constants.value(chain.words[at])
            last, current = member == len(current.members) - 1, current.members[member]
        else:
            last, current = False, current.elem
    return last


def derive(fl, inst, base: Ptr, pointee, gep_indices: list, addr) -> Ptr:
    """The pointer an access chain makes (``gep_indices``: its GEP's, 0 first), with the array
    test of its bounded indexes and of those of the chain it extends."""
    if not fl.checked:
        return base.moved(addr)
    if inst.opname not in ("OpAccessChain", "OpInBoundsAccessChain"):
        return base.moved(addr)     # an Element: pointer arithmetic
    inherit = isinstance(base, ArrayPtr)
    bounded = dict(bounded_indexes(fl.ml, inst))
    if not bounded and not inherit:
        return base.moved(addr)
    b, types = fl.builder, fl.types
    ok, inner_end, room = (base.ok, base.inner_end, base.room) if inherit else (None, None, 0)
    current = pointee
    for k, at in enumerate(range(4, len(inst.words)), start=1):
        index = gep_indices[k]
        if current.kind == "struct":
            member = fl.ml.constants.value(inst.words[at])
            room -= types.member_offset(current, member)
            current = current.members[member]
        elif current.kind == "array" and at in bounded:
            length = bounded[at]
            start = gep_indices[:k]
            array_end = b.gep(base.addr, start + [ir.Constant(I64, length)], source_etype=pointee.llvm)
            tests = [b.icmp_unsigned("<", index, ir.Constant(I64, length))]
            if ok is not None and room < types.size(current):
                # (a cast made this array reach past the element the chain was in)
                tests.append(b.icmp_unsigned("<=", b.ptrtoint(array_end, I64), b.ptrtoint(inner_end, I64)))
            for test in tests:
                ok = test if ok is None else b.and_(ok, test)
            inner_end, room = array_end, types.size(current.elem)
            current = current.elem
        elif current.kind == "array" and current.count == 0:
            room = -(1 << 62)      # a runtime array: anywhere past here (the end is tested)
            current = current.elem
        else:        # the first index into a whole variable, a vector component: the address
            room -= types.size(current) - types.size(current.elem)    # moves on by at most this
            current = current.elem
    if ok is None:
        return base.moved(addr)
    return ArrayPtr(addr, base.base, base.end, ok, inner_end, room)
