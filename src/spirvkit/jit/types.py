"""SPIR-V types as the JIT sees them: the LLVM type, and what lowering needs to know.

Memory layout is LLVM's for the target's data layout, which is the C layout OpenCL asks for
(a 3-component vector occupies the size and alignment of 4 components).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from ..errors import NotSupportedError
from ..spirv.grammar import load_grammar
from ..spirv.module import Module
from ..spirv.names import OP

OP_TYPE_VOID, OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT = OP.TypeVoid, OP.TypeBool, OP.TypeInt, OP.TypeFloat
OP_TYPE_MATRIX = OP.TypeMatrix
OP_TYPE_VECTOR, OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_STRUCT = (OP.TypeVector, OP.TypeArray,
                                                                        OP.TypeRuntimeArray, OP.TypeStruct)
OP_TYPE_POINTER, OP_TYPE_FUNCTION, OP_TYPE_FORWARD_POINTER = OP.TypePointer, OP.TypeFunction, OP.TypeForwardPointer
OP_TYPE_EVENT, OP_TYPE_DEVICE_EVENT, OP_TYPE_RESERVE_ID, OP_TYPE_QUEUE = (OP.TypeEvent, OP.TypeDeviceEvent,
                                                                          OP.TypeReserveId, OP.TypeQueue)
OP_TYPE_OPAQUE, OP_TYPE_UNTYPED_POINTER = OP.TypeOpaque, OP.TypeUntypedPointerKHR
OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_SAMPLED_IMAGE = OP.TypeImage, OP.TypeSampler, OP.TypeSampledImage
OP_TYPE_PIPE = OP.TypePipe

_FLOAT_TYPES = {16: ir.HalfType(), 32: ir.FloatType(), 64: ir.DoubleType()}


@dataclass
class SpvType:
    """One SPIR-V type. ``kind`` is 'void', 'bool', 'int', 'float', 'vector', 'array', 'struct',
    'pointer', 'function', 'event', 'opaque', 'image', 'sampler', 'sampled_image', 'pipe' or
    'reserve_id'."""

    id: int
    kind: str
    llvm: ir.Type
    width: int = 0                       # int/float bit width
    signed: bool = False                 # OpTypeInt signedness (informative only in kernels)
    elem: SpvType | None = None          # vector/array element, pointee
    count: int = 0                       # vector/array length (0 for runtime arrays)
    members: list[SpvType] = field(default_factory=list)
    storage: str = ""                    # pointer storage class
    params: list[SpvType] = field(default_factory=list)  # function parameter types
    ret: SpvType | None = None           # function return type
    pointee_id: int = 0                  # pointer: the pointee's id (resolves forward pointers)
    name: str = ""                       # opaque/unsupported types: the defining opcode
    image: dict | None = None            # image types: dim, depth, arrayed, access (grammar names);
                                         # pipe types: access

    @property
    def scalar(self) -> SpvType:
        """The component type of a vector, the type itself otherwise."""
        return self.elem if self.kind == "vector" else self

    @property
    def is_float(self) -> bool:
        return self.scalar.kind == "float"

    @property
    def is_int(self) -> bool:
        return self.scalar.kind == "int"

    @property
    def is_bool(self) -> bool:
        return self.scalar.kind == "bool"

    def __repr__(self):
        return f"<SpvType %{self.id} {self.kind}>"


class TypeTable:
    """Every type of a module, built once, indexed by result id."""

    def __init__(self, module: Module, target_data, spec_values: dict | None = None):
        self.module = module
        self.spec_values = spec_values or {}   # SpecId -> value: array lengths may be spec constants
        self.target_data = target_data
        self.types: dict[int, SpvType] = {}
        self._structs: dict[int, ir.Type] = {}
        self._storage = load_grammar().operand_kinds["StorageClass"].by_value
        for inst in module.section("types_values"):
            if inst.opcode in _TYPE_OPS:
                self._define(inst)
        for t in self.types.values():  # pointers declared with OpTypeForwardPointer
            if t.kind == "pointer" and t.elem is None:
                t.elem = self.types.get(t.pointee_id)

    def __getitem__(self, type_id: int) -> SpvType:
        try:
            return self.types[type_id]
        except KeyError:
            raise NotSupportedError(f"type %{type_id} (not a type the executor knows)") from None

    def get(self, type_id: int) -> SpvType | None:
        return self.types.get(type_id)

    def size(self, t: SpvType) -> int:
        return abi_size(t.llvm, self.target_data)

    def align(self, t: SpvType) -> int:
        return abi_alignment(t.llvm, self.target_data)

    def member_offset(self, t: SpvType, index: int) -> int:
        return _element_offset(t.llvm, index, self.target_data)

    def _define(self, inst) -> None:
        w, op = inst.words, inst.opcode
        rid = inst.result_id
        if op == OP_TYPE_VOID:
            t = SpvType(rid, "void", ir.VoidType())
        elif op == OP_TYPE_BOOL:
            t = SpvType(rid, "bool", ir.IntType(1), width=1)
        elif op == OP_TYPE_INT:
            t = SpvType(rid, "int", ir.IntType(w[2]), width=w[2], signed=bool(w[3]))
        elif op == OP_TYPE_FLOAT:
            if len(w) > 3:
                raise NotSupportedError(f"OpTypeFloat with an encoding ({inst.opname})")
            if w[2] not in _FLOAT_TYPES:
                raise NotSupportedError(f"OpTypeFloat {w[2]}")
            t = SpvType(rid, "float", _FLOAT_TYPES[w[2]], width=w[2])
        elif op == OP_TYPE_VECTOR:
            elem = self[w[2]]
            t = SpvType(rid, "vector", ir.VectorType(elem.llvm, w[3]), elem=elem, count=w[3])
        elif op == OP_TYPE_MATRIX:
            # A matrix is an array of its column vectors (shader layouts: shader_layout.py).
            column = self[w[2]]
            t = SpvType(rid, "array", ir.ArrayType(column.llvm, w[3]), elem=column, count=w[3], name="OpTypeMatrix")
        elif op == OP_TYPE_ARRAY:
            elem = self[w[2]]
            n = self._constant_int(w[3])
            t = SpvType(rid, "array", ir.ArrayType(self._memory_type(elem), n), elem=elem, count=n)
        elif op == OP_TYPE_RUNTIME_ARRAY:
            elem = self[w[2]]
            t = SpvType(rid, "array", ir.ArrayType(self._memory_type(elem), 0), elem=elem, count=0)
        elif op == OP_TYPE_STRUCT:
            members = [self[m] for m in w[2:]]
            packed = self.module.has_decoration(rid, "CPacked")
            llvm = ir.LiteralStructType([self._memory_type(m) for m in members], packed=packed)
            t = SpvType(rid, "struct", llvm, members=members)
        elif op == OP_TYPE_POINTER:
            storage = self._storage[w[2]].name
            pointee = self.types.get(w[3])  # may be a forward reference (OpTypeForwardPointer)
            t = SpvType(rid, "pointer", ir.PointerType(), elem=pointee, storage=storage, pointee_id=w[3])
            forward = self.types.get(rid)
            if forward is not None:      # completes the placeholder that earlier types hold
                forward.elem, forward.pointee_id = pointee, w[3]
                return
        elif op == OP_TYPE_FORWARD_POINTER:
            # A struct may hold the pointer before its OpTypePointer: a placeholder now, completed
            # in place by the OpTypePointer (its pointee resolved once every type is defined).
            t = SpvType(w[1], "pointer", ir.PointerType(), storage=self._storage[w[2]].name)
            self.types[w[1]] = t
            return
        elif op == OP_TYPE_FUNCTION:
            ret = self[w[2]]
            params = [self[p] for p in w[3:]]
            t = SpvType(rid, "function", ir.VoidType(), ret=ret, params=params)
        elif op == OP_TYPE_IMAGE:
            # An image is the address of its descriptor (jit.abi.IMAGE); what the type says of
            # it is what kernel arguments are checked against and coordinates are read by.
            kinds = load_grammar().operand_kinds
            access = kinds["AccessQualifier"].by_value[w[9]].name if len(w) > 9 else "ReadOnly"
            t = SpvType(rid, "image", ir.PointerType(), name=inst.opname,
                        image={"dim": kinds["Dim"].by_value[w[3]].name, "depth": w[4], "arrayed": w[5],
                               "ms": w[6], "access": access})
        elif op == OP_TYPE_SAMPLER:
            # A sampler is its OpenCL C sampler_t value (CLK_* bits, jit.abi.SAMPLER_*).
            t = SpvType(rid, "sampler", ir.IntType(32), width=32, name=inst.opname)
        elif op == OP_TYPE_SAMPLED_IMAGE:
            image = self[w[2]]
            t = SpvType(rid, "sampled_image", ir.LiteralStructType([ir.PointerType(), ir.IntType(32)]),
                        elem=image, name=inst.opname, image=image.image)
        elif op == OP_TYPE_PIPE:
            # A pipe is the address of its descriptor (jit.abi.PIPE); its packet size is in the
            # instructions that use it (see ops_pipe.packet_sizes).
            access = load_grammar().operand_kinds["AccessQualifier"].by_value[w[2]].name
            t = SpvType(rid, "pipe", ir.PointerType(), name=inst.opname, image={"access": access})
        elif op == OP_TYPE_RESERVE_ID:
            # A reservation: (first slot << 32) | packet count (jit.abi.INVALID_RESERVE_ID: none).
            t = SpvType(rid, "reserve_id", ir.IntType(64), width=64, name=inst.opname)
        elif op in (OP_TYPE_EVENT, OP_TYPE_DEVICE_EVENT, OP_TYPE_QUEUE, OP_TYPE_OPAQUE):
            t = SpvType(rid, "opaque", ir.PointerType(), name=inst.opname)
        else:
            t = SpvType(rid, "unsupported", ir.VoidType(), name=inst.opname)
        self.types[rid] = t

    @staticmethod
    def _memory_type(t: SpvType) -> ir.Type:
        # A bool in memory takes a byte; LLVM's i1 already has a 1-byte alloc size.
        return t.llvm

    def _constant_int(self, const_id: int) -> int:
        inst = self.module.definition(const_id)
        if inst is not None and inst.opcode == OP.SpecConstantOp:   # shared arrays sized by WorkgroupSize
            from .constants import ConstantEvaluator

            return int(ConstantEvaluator(self.module, self, self.spec_values).value(const_id))
        if inst is None or inst.opcode not in (OP.Constant, OP.SpecConstant):
            raise NotSupportedError(f"array length %{const_id} that is not an integer constant")
        if inst.opcode == OP.SpecConstant:
            for d in self.module.decorations(const_id):
                if d.name == "SpecId" and d.operands[0] in self.spec_values:
                    return int(self.spec_values[d.operands[0]])
        return inst.value(2)


_TYPE_OPS = {OP_TYPE_VOID, OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_ARRAY,
             OP_TYPE_MATRIX, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER, OP_TYPE_FUNCTION, OP_TYPE_FORWARD_POINTER,
             OP_TYPE_EVENT, OP_TYPE_DEVICE_EVENT, OP_TYPE_RESERVE_ID, OP_TYPE_QUEUE, OP_TYPE_OPAQUE,
             25, 26, 27, 38, 322, 323}  # image, sampler, sampled image, pipe, pipe storage, named barrier


def c_type_name(t: SpvType) -> str:
    """How OpenCL C spells a type (for argument info and error messages)."""
    if t.kind == "pointer":
        return (c_type_name(t.elem) if t.elem is not None else "void") + "*"
    if t.kind == "vector":
        return f"{c_type_name(t.elem)}{t.count}"
    if t.kind == "int":
        return {8: "char", 16: "short", 32: "int", 64: "long"}.get(t.width, f"int{t.width}")
    if t.kind == "float":
        return {16: "half", 32: "float", 64: "double"}[t.width]
    if t.kind == "image":
        info = t.image
        name = "1d_buffer" if info["dim"] == "Buffer" else info["dim"].lower()
        return f"image{name}{'_array' if info['arrayed'] else ''}{'_depth' if info['depth'] else ''}_t"
    if t.kind == "sampler":
        return "sampler_t"
    return t.kind


# llvmlite answers size and alignment questions by parsing a module that uses the type (and
# under its global lock): asked thousands of times per kernel, they are worth remembering.
_layout_cache: dict[tuple, int] = {}


def _layout(kind: str, ty: ir.Type, target_data, *extra) -> int:
    key = (kind, str(ty), id(target_data), *extra)
    found = _layout_cache.get(key)
    if found is None:
        if kind == "size":
            found = ty.get_abi_size(target_data)
        elif kind == "align":
            found = ty.get_abi_alignment(target_data)
        else:
            found = ty.get_element_offset(target_data, *extra)
        _layout_cache[key] = found
    return found


def abi_size(ty: ir.Type, target_data) -> int:
    """The allocation size of an LLVM type (what a GEP steps by)."""
    return _layout("size", ty, target_data)


def abi_alignment(ty: ir.Type, target_data) -> int:
    return _layout("align", ty, target_data)


def element_offset(struct: ir.Type, index: int, target_data) -> int:
    """LLVM's offset of a struct member (what a GEP to it adds)."""
    return _layout("offset", struct, target_data, index)


def _element_offset(struct: ir.Type, index: int, target_data) -> int:
    """Byte offset of member ``index`` of an LLVM literal struct under C layout rules."""
    offset = 0
    for i, member in enumerate(struct.elements):
        if not struct.packed:
            align = abi_alignment(member, target_data)
            offset = (offset + align - 1) // align * align
        if i == index:
            return offset
        offset += abi_size(member, target_data)
    raise IndexError(index)
