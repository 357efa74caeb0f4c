"""8- and 16-bit types under the storage-only capabilities (SPIR-V 3.31 Capability;
SPV_KHR_16bit_storage, SPV_KHR_8bit_storage).

In a Shader module, a 16-bit integer type without Int16, a 16-bit float type without Float16 or an
8-bit integer type without Int8 is allowed only by the storage capabilities, and each names where:
StorageBuffer16BitAccess "become members of a block residing in the StorageBuffer storage class,
the PhysicalStorageBuffer storage class, or the Uniform storage class with the BufferBlock
decoration"; UniformAndStorageBuffer16BitAccess adds the Uniform class with Block;
StoragePushConstant16 the PushConstant class; StorageInputOutput16 "the Input and Output storage
classes" (the 8-bit ones the same, without Input/Output; the WorkgroupMemoryExplicitLayout*BitAccess
ones the Workgroup class). SPV_KHR_16bit_storage's overview: such types "can only be used for
load, store and conversion operations" ("width-only conversions"). So, as SPIRV-Tools checks it:

* a variable containing such a type lives in a storage class its capabilities name
  (``types.small-storage-class``);
* no constant, undef or composite (construct, extract, insert, shuffle, transpose, copy-logical)
  is made of such a type, no numeric conversion other than a width-only one (FConvert, SConvert,
  UConvert) takes or gives one, loads and stores of one are of scalars, vectors or matrices, and
  OpCopyMemory copies none (``types.small-type-use``; constants: ``types.small-constant``);
* a value of such a type is used only by OpStore, OpCopyObject, the width-only conversions and
  decorations (``types.small-type-use``).

Only modules with such a limited type pay for these rules (one pass over the types first).
"""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.31 (16/8-bit storage capabilities)"
SC = op.SC

# Value users SPIRV-Tools allows for a value of a limited type (ValidateSmallTypeUses).
_ALLOWED_USERS = frozenset({op.Decorate, op.DecorateId, op.CopyObject, op.Store, op.FConvert, op.UConvert,
                            op.SConvert})
_COMPOSITE_MESSAGES = {
    op.CompositeConstruct: "Cannot create a composite containing 8- or 16-bit types",
    op.CompositeExtract: "Cannot extract from a composite of 8- or 16-bit types",
    op.CompositeInsert: "Cannot insert into a composite of 8- or 16-bit types",
    op.VectorShuffle: "Cannot shuffle a vector of 8- or 16-bit types",
    op.Transpose: "Cannot transpose matrices of 16-bit floats",
}
if hasattr(op, "CopyLogical"):
    _COMPOSITE_MESSAGES[op.CopyLogical] = "Cannot copy composites of 8- or 16-bit types"
_NUMERIC_CONVERSIONS = frozenset({op.ConvertFToU, op.ConvertFToS, op.ConvertSToF, op.ConvertUToF, op.Bitcast})
_LOADABLE = frozenset({op.TypeInt, op.TypeFloat, op.TypeVector, op.TypeMatrix})
_ELEMENT_AT_2 = frozenset({op.TypeVector, op.TypeMatrix, op.TypeArray, op.TypeRuntimeArray, op.TypeImage,
                           op.TypeSampledImage})

# (storage class) -> capabilities that allow a 16-bit (8-bit) type there; Uniform is special.
_ALLOWED_16 = {SC.StorageBuffer: ("StorageBuffer16BitAccess",), SC.PushConstant: ("StoragePushConstant16",),
               SC.Input: ("StorageInputOutput16",), SC.Output: ("StorageInputOutput16",),
               SC.Workgroup: ("WorkgroupMemoryExplicitLayout16BitAccessKHR",)}
_ALLOWED_8 = {SC.StorageBuffer: ("StorageBuffer8BitAccess",), SC.PushConstant: ("StoragePushConstant8",),
              SC.Workgroup: ("WorkgroupMemoryExplicitLayout8BitAccessKHR",)}
if hasattr(SC, "PhysicalStorageBuffer"):
    _ALLOWED_16[SC.PhysicalStorageBuffer] = _ALLOWED_16[SC.StorageBuffer]
    _ALLOWED_8[SC.PhysicalStorageBuffer] = _ALLOWED_8[SC.StorageBuffer]


def check(ctx) -> None:
    if not ctx.is_shader:
        return
    limited = _limited_scalars(ctx)
    if not limited:
        return
    small = _SmallTypes(ctx, limited)
    if not small.any:
        return
    for inst in ctx.insts:
        opc = inst.opcode
        rtype = inst.words[1] if inst.type_id is not None else None
        if opc == op.Variable:
            _variable(ctx, small, inst)
        elif rtype is not None and small.limited(rtype):
            if opc in op.CONSTANT_OPCODES:
                ctx.error("types.small-constant", SEC, "Cannot form constants of 8- or 16-bit types", inst)
            elif opc == op.Undef:
                ctx.error("types.small-type-use", SEC, "Cannot create undefined values with 8- or 16-bit types", inst)
            elif opc in _COMPOSITE_MESSAGES:
                ctx.error("types.small-type-use", SEC, _COMPOSITE_MESSAGES[opc], inst)
            elif opc == op.Load and ctx.type_opcode(rtype) not in _LOADABLE:
                ctx.error("types.small-type-use", SEC, "8- or 16-bit loads must be a scalar, vector or matrix type",
                          inst)
        if opc in _NUMERIC_CONVERSIONS and len(inst.words) > 3 and (
                (rtype is not None and small.limited(rtype)) or small.limited(ctx.type_of(inst.words[3]))):
            ctx.error("types.small-type-use", SEC, "8- or 16-bit types can only be used with width-only conversions",
                      inst)
        elif opc in (op.CopyMemory, op.CopyMemorySized) and len(inst.words) > 2:
            t = ctx.type_inst(ctx.type_of(inst.words[1]))
            while t is not None and t.opcode == op.TypePointer:
                t = ctx.type_inst(t.words[3])
            if t is not None and small.bits(t.words[1]):
                ctx.error("types.small-type-use", SEC, "Cannot copy memory of objects containing 8- or 16-bit types",
                          inst)
        elif opc == op.Store and len(inst.words) > 2:
            t = ctx.type_of(inst.words[2])
            if small.limited(t) and ctx.type_opcode(t) not in _LOADABLE:
                ctx.error("types.small-type-use", SEC, "8- or 16-bit stores must be a scalar, vector or matrix type",
                          inst)
    _uses(ctx, small)


def _limited_scalars(ctx) -> set[tuple[int, int]]:
    """(opcode, width) of the scalar kinds the module may use only as storage."""
    out = set()
    if not ctx.has_capability("Int16") and "SPV_AMD_gpu_shader_int16" not in ctx.extensions:
        out.add((op.TypeInt, 16))
    if not ctx.has_capability("Float16") and "SPV_AMD_gpu_shader_half_float" not in ctx.extensions:
        out.add((op.TypeFloat, 16))
    if not ctx.has_capability("Int8"):
        out.add((op.TypeInt, 8))
    return out


class _SmallTypes:
    """Which types contain a limited 16-bit or 8-bit scalar (through composites, pointers, images
    and function types, as SPIRV-Tools' ContainsType)."""

    def __init__(self, ctx, limited):
        self.ctx = ctx
        self.widths: dict[int, int] = {}  # type id -> bit set: 1 = has a limited 16-bit, 2 = a limited 8-bit
        for inst in ctx.instructions_of((op.TypeInt, op.TypeFloat)):
            if len(inst.words) > 2 and (inst.opcode, inst.words[2]) in limited:
                self.widths[inst.words[1]] = 1 if inst.words[2] == 16 else 2
        self.any = bool(self.widths)
        self._done: set[int] = set(self.widths)

    def bits(self, type_id) -> int:
        if type_id is None:
            return 0
        if type_id in self._done:
            return self.widths.get(type_id, 0)
        self._done.add(type_id)  # also guards against pointer cycles
        t = self.ctx.type_inst(type_id)
        result = 0
        if t is not None:
            opc = t.opcode
            if opc in _ELEMENT_AT_2:
                result = self.bits(t.words[2])
            elif opc == op.TypePointer:
                result = self.bits(t.words[3])
            elif opc in (op.TypeStruct, op.TypeFunction):
                for m in t.words[2:]:
                    result |= self.bits(m)
        if result:
            self.widths[type_id] = result
        return result

    def limited(self, type_id) -> bool:
        """Contains a limited type and is not itself a pointer (pointers to them are fine)."""
        return bool(self.bits(type_id)) and self.ctx.type_opcode(type_id) != op.TypePointer


def _variable(ctx, small, inst) -> None:
    info = ctx.pointer_info(inst.words[1])
    if info is None or info[1] is None:
        return
    sc, pointee = info
    bits = small.bits(pointee)
    if not bits:
        return
    underlying = ctx.type_inst(pointee)
    while underlying is not None and underlying.opcode == op.TypePointer:
        sc = underlying.words[2]
        underlying = ctx.type_inst(underlying.words[3])
    for bit, width, table, uniform_caps in ((1, 16, _ALLOWED_16, ("UniformAndStorageBuffer16BitAccess",
                                                                    "StorageBuffer16BitAccess")),
                                            (2, 8, _ALLOWED_8, ("UniformAndStorageBuffer8BitAccess",
                                                                "StorageBuffer8BitAccess"))):
        if not bits & bit:
            continue
        name = SC.name(sc)
        if sc == SC.Uniform:
            ok = ctx.has_capability(uniform_caps[0])
            if not ok and underlying is not None:
                block = underlying
                if block.opcode in (op.TypeArray, op.TypeRuntimeArray):
                    block = ctx.type_inst(block.words[2])
                ok = ctx.has_capability(uniform_caps[1]) and block is not None and \
                    ctx.has_decoration(block.words[1], op.DEC.BufferBlock)
        elif sc in table:
            ok = any(ctx.has_capability(c) for c in table[sc])
        else:
            ctx.error("types.small-storage-class", SEC,
                      f"Cannot allocate a variable containing a {width}-bit type in {name} storage class", inst)
            return
        if not ok:
            ctx.error("types.small-storage-class", SEC,
                      f"Allocating a variable containing a {width}-bit element in {name} storage class requires an "
                      f"additional capability", inst)
            return


def _uses(ctx, small) -> None:
    """A value of a limited type is used only by stores, OpCopyObject, width-only conversions and
    decorations (its users are reported, in module order)."""
    defs = ctx.defs
    values: dict[int, bool] = {}
    for inst in ctx.insts:
        if inst.opcode in _ALLOWED_USERS:
            continue
        for _i, offset, is_type in ctx.id_slots(inst):
            if is_type:
                continue
            vid = inst.words[offset]
            bad = values.get(vid)
            if bad is None:
                d = defs.get(vid)
                bad = values[vid] = (d is not None and d.type_id is not None and d.opcode not in op.TYPE_OPCODES
                                     and small.limited(d.words[1]))
            if bad:
                ctx.error("types.small-type-use", SEC,
                          f"Invalid use of 8- or 16-bit result {ctx.name(vid)}: only OpStore, OpCopyObject, width-only "
                          f"conversions and decorations may use it", inst)
                return
