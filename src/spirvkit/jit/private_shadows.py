"""Checked mode: the bounds of pointers kept inside private structs and arrays.

A pointer loaded from memory has lost its bounds; :meth:`FunctionLowering.ptr_from_address` finds
them again in the launch's region table, which holds the buffers and local memory but not a
work-item's private memory. A private variable of pointer type keeps a shadow of its pointer's
bounds (ops_memory.py). This module does the same for private variables whose type is a struct
or array holding pointers (``struct { int *p; } s; s.p = a;``, ``int *ps[2]``, an OpenCL C block
literal that captures a pointer to a private array): each such variable gets a shadow table, one
(base, end) entry per 8 bytes of the variable, so the pointer stored at byte offset ``o`` has its
bounds in entry ``o >> 3`` (two pointers never share an entry, even in a packed struct).

* A store of a pointer through an access chain of the variable (the pointer's region *is* the
  variable's, known at compile time) writes the entry; a load of a pointer reads it. An entry
  that is empty (never written, or overwritten by an untracked copy) falls back to the region
  table, as any loaded pointer does, so a buffer pointer kept in a private struct still works.
* A pointer computed some other way (``S *ps = &s; ps->p``) is compared with every tracked
  variable at run time, as the scalar shadows are.
* A whole struct loaded from a tracked variable carries its pointer members' bounds alongside
  (``FunctionLowering.value_shadows``: byte offset -> (base, end)); a store of it, an
  OpCompositeExtract of a member and OpCopyMemory between tracked variables keep them.
* Calls that pass pointers are inlined at the SPIR-V level in a module with such variables
  (:func:`calls_to_inline`), so a block's invoke function reads its literal in the kernel's own
  body, where the literal's shadow is known.

What is not tracked keeps losing its bounds, and an access through it faults with its location,
as before: never an unchecked access. An entry holds bounds some pointer really had, so even a
stale entry (an integer written over a pointer member) cannot let an access leave the object
those bounds describe. Kernels without pointers in private aggregates get no shadow code.
"""

from __future__ import annotations

from llvmlite import ir

I1, I8, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(64)
PTR = ir.PointerType()
NULL = ir.Constant(PTR, None)
ENTRY = 8                 # bytes of the variable one shadow entry covers
MAX_VALUE_LEAVES = 64     # pointer members a whole-value load or store carries bounds for

OP_TYPE_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER, OP_TYPE_FUNCTION = 28, 30, 32, 33
OP_FUNCTION, OP_VARIABLE = 54, 59
STORAGE_FUNCTION = 7


def holds_pointers(t, depth: int = 0) -> bool:
    """Whether a struct or array type has a pointer among its members, at any depth."""
    if depth > 16:
        return False
    if t.kind == "struct":
        return any(m.kind == "pointer" or holds_pointers(m, depth + 1) for m in t.members)
    if t.kind == "array":
        return t.elem is not None and (t.elem.kind == "pointer" or holds_pointers(t.elem, depth + 1))
    return False


def pointer_leaves(types, t, limit: int = MAX_VALUE_LEAVES) -> list[int] | None:
    """Byte offsets of the pointers inside a value of type ``t`` (None: more than ``limit``)."""
    found: list[int] = []

    def walk(t, at: int) -> bool:
        if t.kind == "pointer":
            found.append(at)
            return len(found) <= limit
        if t.kind == "struct":
            return all(walk(m, at + types.member_offset(t, i)) for i, m in enumerate(t.members)
                       if m.kind == "pointer" or holds_pointers(m))
        if t.kind == "array" and holds_pointers(t):
            step = types.size(t.elem)
            return all(walk(t.elem, at + k * step) for k in range(t.count))
        return True

    return found if walk(t, 0) else None


class AggregateShadow:
    """The shadow table of one private variable: ``entries`` pairs of pointers at ``table``."""

    __slots__ = ("var", "table", "entries", "size")

    def __init__(self, var, table, entries: int, size: int):
        self.var, self.table, self.entries, self.size = var, table, entries, size


def entries_for(size: int) -> int:
    return max(1, (size + ENTRY - 1) // ENTRY)


def declare(fl, var_id: int, var, table, size: int) -> None:
    """Registers the shadow ``table`` of the variable ``var`` (a Ptr) and empties it (where the
    variable is declared: every entry starts empty)."""
    shadow = AggregateShadow(var, table, entries_for(size), size)
    fl.aggregate_shadows[var_id] = shadow
    clear(fl, shadow)


def clear(fl, shadow: AggregateShadow) -> None:
    from .intrinsics import intrinsic

    memset = intrinsic(fl.ml.llvm, "llvm.memset", ir.VoidType(), [PTR, I8, I64, I1], overloads=[PTR, I64])
    fl.builder.call(memset, [shadow.table, ir.Constant(I8, 0), ir.Constant(I64, 16 * shadow.entries),
                             ir.Constant(I1, 0)])


def table_type(size: int) -> ir.Type:
    return ir.ArrayType(PTR, 2 * entries_for(size))


def owner(fl, ptr) -> AggregateShadow | None:
    """The tracked variable a pointer was derived from by access chains and casts (its region
    is the variable's own, the same LLVM value)."""
    from .function import Ptr   # (function.py imports this module's users: no cycle at load)
    base = ptr.base if isinstance(ptr, Ptr) else None
    if base is None:
        return None
    for shadow in fl.aggregate_shadows.values():
        if shadow.var.base is base:
            return shadow
    return None


def _entry(fl, shadow: AggregateShadow, addr, extra: int = 0):
    """The address of the entry for the pointer at ``addr`` (+ ``extra`` bytes) in ``shadow``'s
    variable, clamped into the table (a faulted access goes on in fast checked mode)."""
    b = fl.builder
    offset = b.sub(b.ptrtoint(addr, I64), b.ptrtoint(shadow.var.addr, I64))
    if extra:
        offset = b.add(offset, ir.Constant(I64, extra))
    index = b.lshr(offset, ir.Constant(I64, 3))
    last = ir.Constant(I64, shadow.entries - 1)
    index = b.select(b.icmp_unsigned("<=", index, last), index, last)
    return b.gep(shadow.table, [b.mul(index, ir.Constant(I64, 2))], source_etype=PTR)


def _inside(fl, shadow: AggregateShadow, addr):
    b = fl.builder
    offset = b.sub(b.ptrtoint(addr, I64), b.ptrtoint(shadow.var.addr, I64))
    return b.icmp_unsigned("<", offset, ir.Constant(I64, shadow.size))


def _write(fl, at, base, end, when=None) -> None:
    b = fl.builder
    second = b.gep(at, [ir.Constant(I64, 1)], source_etype=PTR)
    for slot, part in ((at, base), (second, end)):
        part = part if part is not None else NULL
        if when is not None:
            part = b.select(when, part, b.load(slot, typ=PTR))
        b.store(part, slot)


def _read(fl, at) -> tuple:
    b = fl.builder
    return b.load(at, typ=PTR), b.load(b.gep(at, [ir.Constant(I64, 1)], source_etype=PTR), typ=PTR)


def store_pointer(fl, ptr, value) -> None:
    """After a store of the pointer ``value`` (a Ptr) through ``ptr``: records its bounds."""
    if not fl.aggregate_shadows:
        return
    shadow = owner(fl, ptr)
    if shadow is not None:
        _write(fl, _entry(fl, shadow, ptr.addr), value.base, value.end)
        return
    for shadow in fl.aggregate_shadows.values():   # a computed pointer: any of them, or none
        _write(fl, _entry(fl, shadow, ptr.addr), value.base, value.end, _inside(fl, shadow, ptr.addr))


def load_pointer(fl, ptr, found):
    """The bounds of a pointer just loaded through ``ptr`` (``found``: the Ptr the region table
    gave it), or ``found`` itself when ``ptr`` reaches no tracked variable."""
    from .function import Ptr

    if not fl.aggregate_shadows:
        return found
    b = fl.builder
    shadow = owner(fl, ptr)
    candidates = [shadow] if shadow is not None else list(fl.aggregate_shadows.values())
    base, end = found.base, found.end
    for shadow in candidates:
        s_base, s_end = _read(fl, _entry(fl, shadow, ptr.addr))
        use = b.icmp_unsigned("!=", b.ptrtoint(s_base, I64), ir.Constant(I64, 0))
        if len(candidates) > 1:
            use = b.and_(use, _inside(fl, shadow, ptr.addr))
        base, end = b.select(use, s_base, base), b.select(use, s_end, end)
    return Ptr(found.addr, base, end)


def load_value(fl, ptr, t) -> dict | None:
    """A whole struct or array loaded through ``ptr``: its pointer members' bounds, by byte
    offset (None when it reaches no tracked variable)."""
    shadow = owner(fl, ptr) if fl.aggregate_shadows else None
    if shadow is None or not holds_pointers(t):
        return None
    leaves = pointer_leaves(fl.types, t)
    if leaves is None:
        return None
    return {at: _read(fl, _entry(fl, shadow, ptr.addr, at)) for at in leaves}


def store_value(fl, ptr, t, value_id: int) -> None:
    """After a store of a whole struct or array value through ``ptr``: its pointer members'
    bounds (empty entries where the value carries none: they fall back to the region table)."""
    if not fl.aggregate_shadows or not holds_pointers(t):
        return
    shadow = owner(fl, ptr)
    if shadow is None:
        return    # (a computed pointer to a tracked variable: its old entries stay; see above)
    carried = fl.value_shadows.get(value_id, {})
    leaves = pointer_leaves(fl.types, t)
    if leaves is None:
        clear(fl, shadow)
        return
    for at in leaves:
        _write(fl, _entry(fl, shadow, ptr.addr, at), *carried.get(at, (None, None)))


def extract(fl, composite_id: int, member_offset: int | None):
    """(base, end) carried for the pointer member at ``member_offset`` of a struct value."""
    carried = fl.value_shadows.get(composite_id)
    if carried is None or member_offset is None:
        return None
    return carried.get(member_offset)


def copy(fl, target, source, size) -> None:
    """After OpCopyMemory[Sized] of ``size`` bytes (i64): the target's entries follow."""
    if not fl.aggregate_shadows:
        return
    dst, src = owner(fl, target), owner(fl, source)
    if dst is None:
        return
    if src is None:
        clear(fl, dst)   # pointers from elsewhere: the region table finds buffer ones again
        return
    from .intrinsics import intrinsic

    b = fl.builder
    # Entries are copied whole; a copy between offsets that differ modulo 8 leaves some
    # mismatched, which can only cost a fault later, never a wrong access (see the docstring).
    first_dst, first_src = _entry(fl, dst, target.addr), _entry(fl, src, source.addr)
    entries = b.lshr(b.add(size, ir.Constant(I64, ENTRY - 1)), ir.Constant(I64, 3))
    for limit in (_room(fl, dst, first_dst), _room(fl, src, first_src)):
        entries = b.select(b.icmp_unsigned("<=", entries, limit), entries, limit)
    memmove = intrinsic(fl.ml.llvm, "llvm.memmove", ir.VoidType(), [PTR, PTR, I64, I1], overloads=[PTR, PTR, I64])
    b.call(memmove, [first_dst, first_src, b.mul(entries, ir.Constant(I64, 16)), ir.Constant(I1, 0)])


def _room(fl, shadow: AggregateShadow, at):
    """How many entries of ``shadow``'s table there are from ``at`` on."""
    b = fl.builder
    end = b.gep(shadow.table, [ir.Constant(I64, 2 * shadow.entries)], source_etype=PTR)
    return b.lshr(b.sub(b.ptrtoint(end, I64), b.ptrtoint(at, I64)), ir.Constant(I64, 4))


# ----- which calls are inlined -----------------------------------------------------------------
def calls_to_inline(module) -> set[int]:
    """Functions to inline into the kernel so that tracked shadows reach their pointers: in a
    module with a private struct or array variable holding pointers, every function with a
    pointer parameter (a block's invoke function takes its literal), except those on a call
    cycle (they stay calls: a pointer they load from a caller's struct faults, located), and
    every function that takes or returns such a struct by value."""
    defs = {inst.result_id: inst for inst in module.instructions if inst.result_id is not None}

    def holds(type_id: int, depth: int = 0) -> bool:
        inst = defs.get(type_id)
        if inst is None or depth > 16:
            return False
        if inst.opcode == OP_TYPE_POINTER:
            return depth > 0
        if inst.opcode == OP_TYPE_STRUCT:
            return any(holds(m, depth + 1) for m in inst.words[2:])
        if inst.opcode == OP_TYPE_ARRAY:
            return holds(inst.words[2], depth + 1)
        return False

    tracked = False
    for fn in module.functions:
        for block in fn.blocks[:1]:
            for inst in block.instructions:
                if inst.opcode == OP_VARIABLE and inst.words[3] == STORAGE_FUNCTION:
                    ptr_t = defs.get(inst.words[1])
                    if ptr_t is not None and ptr_t.opcode == OP_TYPE_POINTER and holds(ptr_t.words[3]):
                        tracked = True
    if not tracked:
        return set()
    recursive = module.recursive_functions()
    chosen = set()
    for fn in module.functions:
        fn_type = defs.get(fn.definition.words[4])
        params = fn_type.words[3:] if fn_type is not None and fn_type.opcode == OP_TYPE_FUNCTION else []
        ret = fn_type.words[2] if fn_type is not None and fn_type.opcode == OP_TYPE_FUNCTION else 0
        if fn.blocks and (any(getattr(defs.get(p), "opcode", None) == OP_TYPE_POINTER or holds(p) for p in params)
                          or holds(ret)) and fn.id not in recursive:
            chosen.add(fn.id)
    return chosen
