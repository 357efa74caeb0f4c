"""Arrays of descriptors in shaders: ``buffer B { ... } bufs[N]`` (an OpTypeArray or
OpTypeRuntimeArray of Block structs bound at one set and binding), and arrays of images,
samplers and combined image samplers.

The variable's slot points to a host table with one entry per bound descriptor
(shader_interface.py): (base, end) of each buffer, or what the shader loads for an image or
sampler. The first index of an access chain into the variable picks the entry; checked code
bounds that index by the table (a fault there names the descriptor element, vk/pipeline.py words
it). A buffer's pointer then carries its own buffer's region, so accesses into it are checked
against that buffer alone. An image's entry is loaded and used at once, so an index outside the
table picks entry 0 after the fault is recorded (in unchecked code too): image instructions
never see a descriptor that is not one.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from .function import I8, I64, PTR, FunctionLowering, Ptr
from .shader_interface import BUFFER_ENTRY_BYTES


class DescriptorArrays:
    """The buffer elements picked so far in one lowering: chain id -> (addr, end, resource)."""

    def __init__(self, interface):
        self.interface = interface
        self.elements: dict[int, tuple] = {}

    def is_array(self, var_id: int) -> bool:
        r = self.interface.by_var.get(var_id)
        return r is not None and r.count is not None

    def element(self, fl: FunctionLowering, chain_id: int, table: Ptr, index_id: int) -> Ptr:
        """The pointer to the descriptor ``index_id`` picks from the table ``table`` points to:
        into the buffer for a buffer, to the table entry for an image or a sampler."""
        b = fl.builder
        index = fl.value(index_id)
        if not isinstance(index.type, ir.IntType):
            raise NotSupportedError(f"a descriptor index of type {index.type}")
        index = b.sext(index, I64) if index.type.width < 64 else index
        resource = self.interface.by_var[fl.ml.module.definition(chain_id).words[3]]
        if not resource.is_buffer:
            return self._opaque_entry(fl, resource, table, index)
        at = b.gep(table.addr, [b.mul(index, ir.Constant(I64, BUFFER_ENTRY_BYTES))], source_etype=I8)
        entry = table.moved(at)

        def words():
            return b.load(at, typ=PTR), b.load(b.gep(at, [ir.Constant(I64, 8)], source_etype=I8), typ=PTR)

        if fl.checked:
            fl.check_access(entry, BUFFER_ENTRY_BYTES, "load")
            addr, end = words()
            null = ir.Constant(PTR, None)
            addr_phi = fl.join_access(addr, null)
            # join_access merges one value; the end comes from the same in-bounds block.
            end_phi = b.phi(PTR)
            end_phi.add_incoming(end, addr_phi.incomings[0][1])
            end_phi.add_incoming(null, addr_phi.incomings[1][1])
            addr, end = addr_phi, end_phi
        else:
            addr, end = words()
        self.elements[chain_id] = (addr, end, resource)
        return Ptr(addr, addr, end) if fl.checked else Ptr(addr)

    def _opaque_entry(self, fl: FunctionLowering, resource, table: Ptr, index: ir.Value) -> Ptr:
        from .shader_memory import _slot_words

        b = fl.builder
        step = ir.Constant(I64, resource.entry_bytes)
        if fl.checked:
            fl.check_access(table.moved(b.gep(table.addr, [b.mul(index, step)], source_etype=I8)),
                            resource.entry_bytes, "load")
            fl.join_access()
        start, end = _slot_words(fl, resource)
        count = b.udiv(b.sub(b.ptrtoint(end, I64), b.ptrtoint(start, I64)), step)
        inside = b.icmp_unsigned("<", index, count)
        safe = b.select(inside, index, ir.Constant(I64, 0))
        return table.moved(b.gep(table.addr, [b.mul(safe, step)], source_etype=I8))

    def array_length(self, fl: FunctionLowering, inst) -> bool:
        """OpArrayLength of the runtime array ending one buffer of an array (False: not one)."""
        w = inst.words
        found = self.elements.get(w[3])
        if found is None:
            return False
        addr, end, resource = found
        if resource is None or not resource.runtime_stride:
            raise NotSupportedError("OpArrayLength of anything but a buffer's trailing runtime array")
        b = fl.builder
        block = resource_block(fl, resource)
        start = fl.ml.shader.layout.member_offset(block, w[4])
        room = b.sub(b.sub(b.ptrtoint(end, I64), b.ptrtoint(addr, I64)), ir.Constant(I64, start))
        negative = b.icmp_signed("<", room, ir.Constant(I64, 0))
        count = b.udiv(b.select(negative, ir.Constant(I64, 0), room), ir.Constant(I64, resource.runtime_stride))
        t = fl.type(w[1])
        fl.set(w[2], b.trunc(count, t.llvm) if t.width < 64 else count)
        return True


def resource_block(fl: FunctionLowering, resource):
    """The Block struct type of one element of a buffer descriptor array."""
    ptr_t = fl.types[fl.ml.module.definition(resource.var_id).words[1]]
    return ptr_t.elem.elem
