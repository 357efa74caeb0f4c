"""The access check: writes to memory the kernel must not write, reads of memory it must not read.

A buffer is read-only for a launch when the host passed a read-only numpy array for it
(``a.flags.writeable == False``) or declared it so (``spirvkit.read_only(a)``), when the module
says the kernel never writes it (``FuncParamAttr NoWrite``) or when it is a ``__constant``
argument; it is write-only when the host declared it so (``spirvkit.write_only(a)``, as
``CL_MEM_WRITE_ONLY`` does on a device). The runtime lists the region base of each such
argument in the check state's ``read_only`` and ``write_only`` words (one per kernel parameter,
NOT_READ_ONLY for the others).

A write (a store, an atomic other than a load, the target of a copy) whose pointer's region is
read-only is a "read-only write" finding and is not performed: the memory may really be
read-only. A read (a load, any atomic but a store, the source of a copy) whose pointer's region
is write-only is a "write-only read" finding and is still performed, as Oclgrind does: the
memory is there, and the kernel goes on with what it holds. A load that only feeds
OpCompositeInserts stored back through the same pointer is how compilers write part of a
vector or struct (``out[i].x = 42``): that is a write, not a read
(:meth:`AccessCheck._partial_writes`).

The parameter count is fixed per kernel, so each test is a few compares of the pointer's region
base with loop-invariant words: LLVM hoists the loads, and for a pointer derived from a
parameter the compare itself.
"""

from __future__ import annotations

from llvmlite import ir

from .abi import CONTEXT
from .check_passes import CHECK_STATE, I1, I64, PTR, _word, pointer_storage

_READ_ONLY_ATOMICS = {"OpAtomicLoad"}                                  # atomics that only read
_WRITE_ONLY_ATOMICS = {"OpAtomicStore", "OpAtomicFlagClear"}           # ... and that only write


class AccessCheck:
    def __init__(self, passes):
        self.passes = passes
        self._copy_calls = 0     # a copy checks its target, then its source
        self._partial: dict[int, frozenset] = {}   # function id -> _partial_writes

    def _sides(self, fl, kind: str) -> tuple[bool, bool]:
        """(reads, writes) for an access event of this kind (called once per event)."""
        if kind == "load":
            inst, fn = fl.current, fl.spv_fn
            origin = getattr(inst, "origin", None)   # a callee's instruction inlined (inline_sync.py)
            if origin is not None:
                inst, fn = origin[0], fl.ml.spv_functions.get(origin[1], fn)
            partial = inst is not None and inst.opname == "OpLoad" and \
                inst.result_id in self._partial_writes(fl.ml.module, fn)
            return not partial, False
        if kind == "store":
            return False, True
        if kind == "atomic":
            name = fl.current.opname if fl.current is not None else ""
            return name not in _WRITE_ONLY_ATOMICS, name not in _READ_ONLY_ATOMICS
        if kind == "copy":
            self._copy_calls += 1
            target = self._copy_calls % 2 == 1
            return not target, target
        return False, False

    def _partial_writes(self, module, fn) -> frozenset:
        """The result ids of the OpLoads in ``fn`` whose value is used once, by a chain of
        OpCompositeInserts or OpVectorShuffles that keep its lanes in place (each used once)
        that an OpStore writes back through the same pointer."""
        found = self._partial.get(fn.id)
        if found is not None:
            return found
        insts = [inst for block in fn.blocks for inst in block.instructions]
        defs = {inst.result_id: inst for inst in insts if inst.result_id is not None}
        uses: dict[int, int] = {}
        for inst in insts:   # (a literal equal to an id counts too: it only makes this stricter)
            for word in inst.words[1:]:
                uses[word] = uses.get(word, 0) + 1
            if inst.result_id is not None:
                uses[inst.result_id] -= 1     # its own definition

        def load_written_back(value_id: int, pointer: int, depth: int) -> int | None:
            inst = defs.get(value_id)
            if inst is None or uses.get(value_id) != 1 or depth > 16:
                return None
            if inst.opname == "OpLoad":
                return value_id if depth and inst.words[3] == pointer else None
            for operand in _carried(module, defs, inst):
                load = load_written_back(operand, pointer, depth + 1)
                if load is not None:
                    return load
            return None

        found = set()
        for store in insts:
            if store.opname == "OpStore":
                load = load_written_back(store.words[2], store.words[1], 0)
                if load is not None:
                    found.add(load)
        self._partial[fn.id] = found = frozenset(found)
        return found

    def _listed(self, b, ctx, base, table_name: str):
        """An i1: the region base is one of the launch's ``table_name`` words (None: no parameters)."""
        count = self.passes.kernel_params
        if not count:
            return None
        found = None
        for word in _load_words(b, ctx, table_name, count):
            hit = b.icmp_unsigned("==", base, word)
            found = hit if found is None else b.or_(found, hit)
        return found

    def _listed_if_any(self, b, ctx, base, table_name: str):
        """``_listed`` for a table the runtime leaves out (address 0) when it lists nothing, as
        the write-only one of a launch without write-only buffers: then only that test is made
        (for every load, it is most of this check's cost)."""
        if not self.passes.kernel_params:
            return None
        state = b.load(_word(b, ctx, CONTEXT["checks"]), typ=PTR)
        table = b.load(_word(b, state, CHECK_STATE[table_name]), typ=PTR)
        before = b.block
        with b.if_then(b.icmp_unsigned("!=", b.ptrtoint(table, I64), ir.Constant(I64, 0)), likely=False):
            listed = self._listed(b, ctx, base, table_name)
            inside = b.block
        found = b.phi(I1)
        found.add_incoming(listed, inside)
        found.add_incoming(ir.Constant(I1, 0), before)
        return found

    def group_copy(self, passes, b, ctx, ts, inst, spv_fn, sides):
        """An async work-group copy into read-only memory (skipped), or out of write-only memory
        (reported, and done)."""
        (addr, base, end, span), (src_addr, src_base, src_end, src_span) = sides
        zero = ir.Constant(I64, 0)
        found = self._listed(b, ctx, base, "read_only")
        if found is not None:   # (a copy of 0 elements writes nothing)
            found = b.and_(found, b.icmp_unsigned("!=", span, zero))
            passes.report_group(b, ctx, ts, found, passes.ml.site(inst, "read-only write", spv_fn), addr, base, end,
                                span)
        read = self._listed_if_any(b, ctx, src_base, "write_only")
        if read is not None:
            read = b.and_(read, b.icmp_unsigned("!=", src_span, zero))
            passes.report_group(b, ctx, ts, read, passes.ml.site(inst, "write-only read", spv_fn), src_addr,
                                src_base, src_end, src_span)
        return found

    def access(self, fl, ptr, addr, base, end, size, kind: str, align=None):
        reads, writes = self._sides(fl, kind)
        b = fl.builder
        claimed = None
        if not self.passes.kernel_params:   # (after _sides: it counts the events of a copy)
            return None
        if pointer_storage(fl, kind) in ("Function", "Private", "Workgroup"):
            return None     # private or __local memory: never a buffer the host passed

        if writes:
            claimed = self._listed(b, fl.ctx, base, "read_only")
            self.passes.report(fl, claimed, fl.site("read-only write"), addr, base, end, size, 0)
        if reads:
            read = self._listed_if_any(b, fl.ctx, base, "write_only")
            self.passes.report(fl, read, fl.site("write-only read"), addr, base, end, size, 0)   # not claimed
        return claimed


def _carried(module, defs, inst) -> list[int]:
    """The operands an OpCompositeInsert or OpVectorShuffle passes on with their lanes in place
    or not at all (the composite it inserts into; a shuffle operand none of whose lanes moves)."""
    if inst.opname == "OpCompositeInsert":
        return [inst.words[4]]
    if inst.opname != "OpVectorShuffle" or inst.words[3] == inst.words[4]:
        return []
    first, second, components = inst.words[3], inst.words[4], inst.words[5:]
    source = defs.get(first) or module.definition(first)
    vector = module.definition(source.words[1]) if source is not None else None
    if vector is None or vector.opname != "OpTypeVector":
        return []
    n = vector.words[3]
    in_place = {first: all(c == i for i, c in enumerate(components) if c < n),
                second: all(c - n == i for i, c in enumerate(components) if n <= c != 0xFFFFFFFF)}
    return [operand for operand in (first, second) if in_place[operand]]


def _load_words(b, ctx, table_name: str, count: int) -> list:
    """The ``count`` words of the launch's ``table_name`` table (CHECK_STATE)."""
    state = b.load(_word(b, ctx, CONTEXT["checks"]), typ=PTR)
    table = b.load(_word(b, state, CHECK_STATE[table_name]), typ=PTR)
    return [b.load(_word(b, table, k), typ=I64) for k in range(count)]
