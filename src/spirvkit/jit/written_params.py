"""Which pointer parameters a kernel may write through: the rest only read their buffers.

The races check needs no shadow for a buffer no work-item writes (two reads never race), so a
launch leaves out the shadow of a buffer bound only to parameters this analysis clears
(runtime/race_shadow.py): the shadow memory and the record-keeping of streaming kernels' inputs.

Every pointer value gets the set of kernel parameters it may point into (its roots), followed
through the instructions that derive one pointer from another (access chains, casts, OpSelect,
OpPhi), through calls (a callee's parameter has the roots of every argument passed for it; a
call's result, those of every value its callee returns), to a fixed point. A pointer made any
other way (loaded from memory, made from an integer, taken out of a composite) may point
anywhere. Then every instruction that may write through a pointer operand adds that operand's
roots; the only pointer operands known not to be written are those of the instructions below
that read (a load, the source of a copy, a comparison ...). One write through a pointer that may
point anywhere means any parameter may be written, and so does a kernel that enqueues others
(its children write what they will).
"""

from __future__ import annotations

from ..spirv.grammar import ID_KINDS
from ..spirv.names import OP

ANYWHERE = -1     # a root: the pointer may point into any buffer

# Instructions whose result has the roots of their pointer operands.
_DERIVING = frozenset((
    "OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain", "OpInBoundsPtrAccessChain",
    "OpUntypedAccessChainKHR", "OpUntypedInBoundsAccessChainKHR", "OpUntypedPtrAccessChainKHR",
    "OpUntypedInBoundsPtrAccessChainKHR", "OpCopyObject", "OpBitcast", "OpPtrCastToGeneric",
    "OpGenericCastToPtr", "OpGenericCastToPtrExplicit", "OpSelect", "OpPhi",
))
# Instructions that only read through (or compare, or merely name) their pointer operands.
_READING = frozenset((
    "OpLoad", "OpAtomicLoad", "OpPtrEqual", "OpPtrNotEqual", "OpPtrDiff", "OpConvertPtrToU",
    "OpGenericPtrMemSemantics", "OpLifetimeStart", "OpLifetimeStop", "OpReturnValue",
    "OpFunctionCall", "OpName", "OpDecorate", "OpUntypedArrayLengthKHR", "OpArrayLength",
    *_DERIVING,
))
# OpenCL.std instructions that only read through their pointers.
_READING_EXT = ("vload", "prefetch", "printf")
# Instructions that write through one operand (word index) and only read the others.
_WRITES_ONE = {"OpStore": 1, "OpCopyMemory": 1, "OpCopyMemorySized": 1, "OpGroupAsyncCopy": 4}


def reachable(module, kernel) -> list:
    """The kernel's function and every function it calls, directly or not."""
    by_id = {fn.id: fn for fn in module.functions}
    seen, todo = {kernel.id: kernel}, [kernel]
    while todo:
        for block in todo.pop().blocks:
            for inst in block.instructions:
                if inst.opcode == OP.FunctionCall and inst.words[3] in by_id and inst.words[3] not in seen:
                    seen[inst.words[3]] = by_id[inst.words[3]]
                    todo.append(by_id[inst.words[3]])
    return list(seen.values())


def written_parameters(module, kernel) -> frozenset | None:
    """The indices of the kernel's parameters it may write through (a ``Function``, the
    entry point's); None when a write through a pointer of unknown origin may reach any."""
    return pointer_roots(module, kernel)[1]


def pointer_roots(module, kernel) -> tuple[dict, frozenset | None]:
    """({pointer id: the parameters it may point into}, ``written_parameters``). A pointer
    into private, local or program-scope memory has no roots; one that may point anywhere has
    ANYWHERE among them."""
    functions = reachable(module, kernel)
    bodies = {fn.id: fn for fn in module.functions if fn.blocks}
    pointer = _PointerTypes(module)
    roots: dict[int, frozenset] = {param.words[2]: frozenset((i,))
                                   for i, param in enumerate(kernel.parameters) if pointer(param.words[2])}
    returns: dict[int, frozenset] = {}

    def of(value: int) -> frozenset:
        return roots.get(value, frozenset())

    def join(key: int, more: frozenset, table: dict) -> bool:
        old = table.get(key, frozenset())
        if more <= old:
            return False
        table[key] = old | more
        return True

    changed = True
    while changed:
        changed = False
        for fn in functions:
            for block in fn.blocks:
                for inst in block.instructions:
                    name = inst.opname
                    if name == "OpFunctionCall":
                        callee = bodies.get(inst.words[3])
                        if callee is not None:
                            for param, arg in zip(callee.parameters, inst.words[4:]):
                                if pointer(arg):
                                    changed |= join(param.words[2], of(arg), roots)
                            if pointer(inst.words[2]):
                                changed |= join(inst.words[2], returns.get(callee.id, frozenset()), roots)
                        elif pointer(inst.words[2]):
                            changed |= join(inst.words[2], frozenset((ANYWHERE,)), roots)
                        continue
                    if name == "OpReturnValue" and pointer(inst.words[1]):
                        changed |= join(fn.id, of(inst.words[1]), returns)
                        continue
                    result = inst.result_id
                    if result is None or inst.type_id is None or not pointer(result):
                        continue
                    if name in _DERIVING:
                        sources = [v for v in inst.id_operands()[1:] if pointer(v)]
                        found = frozenset().union(*map(of, sources)) if sources else frozenset((ANYWHERE,))
                    elif name in ("OpVariable", "OpUntypedVariableKHR", "OpUndef", "OpConstantNull"):
                        continue      # private, local or program-scope memory, or no memory
                    else:
                        found = frozenset((ANYWHERE,))
                    changed |= join(result, found, roots)

    written: set[int] = set()
    for fn in functions:
        for block in fn.blocks:
            for inst in block.instructions:
                if inst.opname == "OpEnqueueKernel":
                    written.add(ANYWHERE)     # the child kernels it enqueues write what they will
                for value in _written_operands(inst, bodies, pointer):
                    written |= of(value)
    return roots, (None if ANYWHERE in written else frozenset(written))


def _written_operands(inst, bodies: dict, pointer) -> list[int]:
    """The pointer operands ``inst`` may write through."""
    name = inst.opname
    if name in _WRITES_ONE:
        index = _WRITES_ONE[name]
        return [inst.words[index]] if index < len(inst.words) else []
    if name == "OpFunctionCall" and inst.words[3] not in bodies:
        return [v for v in inst.words[4:] if pointer(v)]     # a function without a body here
    if name in _READING:
        return []
    if name == "OpExtInst" and inst.ext_set is not None:
        desc = getattr(inst.ext_set, "by_opcode", {}).get(inst.words[4])
        if desc is not None and desc.opname.startswith(_READING_EXT):
            return []
    return [v for v in inst.id_operands() if pointer(v)]


class _PointerTypes:
    """pointer(id): whether value ``id`` is a pointer (cached per type)."""

    def __init__(self, module):
        self.module = module
        self.types: dict[int, bool] = {}

    def __call__(self, value: int) -> bool:
        inst = self.module.definition(value)
        if inst is None or inst.type_id is None:
            return False
        known = self.types.get(inst.type_id)
        if known is None:
            t = self.module.definition(inst.type_id)
            known = t is not None and t.opname in ("OpTypePointer", "OpTypeUntypedPointerKHR")
            self.types[inst.type_id] = known
        return known


# Instructions after which no work-item of a kernel is ordered with another: a kernel with any
# of them is not one that ``store_only_parameters`` clears.
_ORDERING_PREFIXES = ("OpControlBarrier", "OpMemoryBarrier", "OpGroup", "OpEnqueueKernel")
# Instructions through which a pointer's roots only flow on, or that touch no memory.
_FLOWING = _DERIVING | {"OpReturnValue", "OpLifetimeStart", "OpLifetimeStop"}


def store_only_parameters(module, kernel, found_roots: tuple | None = None) -> frozenset:
    """The indices of the parameters the kernel only stores to (plain ``OpStore``s, each through
    a pointer that points into such parameters alone), in a kernel without barriers, group
    functions, memory barriers or child kernels, where every access's pointer has known roots.
    (Atomics with acquire/release semantics order work-groups too: the races check, which knows
    them, uses no compact record in such a kernel: check_races.publishes.) Two work-items'
    accesses to such a buffer race exactly when they store to the same bytes: the races check
    keeps a 32-bit record per granule for it, half the usual. ``found_roots``: this kernel's
    ``pointer_roots``, when the caller has them."""
    roots, written = found_roots or pointer_roots(module, kernel)
    if written is None:
        return frozenset()
    functions = reachable(module, kernel)
    bodies = {fn.id: fn for fn in module.functions if fn.blocks}
    cleared = set(written)
    stores: list[frozenset] = []
    for fn in functions:
        for block in fn.blocks:
            for inst in block.instructions:
                name = inst.opname
                if name.startswith(_ORDERING_PREFIXES):
                    return frozenset()
                if name in _FLOWING or (name == "OpFunctionCall" and inst.words[3] in bodies):
                    continue      # (roots flow on to the result, the callee, the caller; or nowhere)
                for op in inst.operands:
                    value = inst.words[op.offset]
                    if op.kind not in ID_KINDS or op.kind == "IdResult" or value not in roots:
                        continue
                    found, index = roots[value], op.offset
                    if ANYWHERE in found:
                        return frozenset()
                    if name == "OpStore" and index == 1:
                        stores.append(found)
                    else:      # read, compared, copied, passed where it is not followed, stored as a value
                        cleared -= found
    changed = True
    while changed:        # a store through a pointer that may also point elsewhere
        changed = False
        for found in stores:
            if found & cleared and not found <= cleared:
                cleared -= found
                changed = True
    return frozenset(cleared)
