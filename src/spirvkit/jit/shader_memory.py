"""The lowering hooks of GLCompute shaders (``ml.shader``, called from lowering.py,
ops_memory.py, builtins.py and access_guard.py): resource variables as pointers into the bound
buffers, access chains, loads and stores in explicitly laid out memory, 32-bit invocation ids,
and OpArrayLength.

Values in registers keep the natural LLVM types; only accesses into explicitly laid out memory
differ: access chains add byte offsets from the decorations (shader_layout.py), and loads and
stores of composites whose explicit layout is not the natural one go member by member (a column
of a RowMajor matrix component by component).
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from .function import I8, I32, I64, PTR, FunctionLowering, Ptr, handles
from .shader_interface import RESOURCE_STORAGE, Resource, ShaderInterface
from .shader_layout import is_matrix
from .types import SpvType

INVOCATION_IDS = frozenset({"GlobalInvocationId", "LocalInvocationId", "WorkgroupId", "LocalInvocationIndex"})
EXPLICIT_STORAGE = frozenset({"StorageBuffer", "Uniform", "PushConstant", "PhysicalStorageBuffer"})
MAX_SPLIT_ELEMENTS = 4096   # a composite load/store split member by member, at most this many leaves


class ShaderLowering:
    """The shader facts a ModuleLowering consults (``ml.shader``)."""

    def __init__(self, interface: ShaderInterface):
        self.interface = interface
        self.layout = interface.layout
        self.matrix_of: dict[int, tuple] = {}   # pointer id -> the (MatrixStride, RowMajor) it points with
        self.strided_of: dict[int, int] = {}    # pointer id to a RowMajor matrix's column -> its row stride
        # Variable pointers: result id -> the pointer ids it may be (OpSelect, OpPhi, OpCopyObject).
        self.merges: dict[int, list[int]] = _pointer_merges(interface.module)
        self.lowered: set[int] = set()          # pointer ids whose access chain is lowered
        # SPV_KHR_workgroup_memory_explicit_layout: Workgroup Block variables alias one another
        # and are laid out by their decorations, as buffers are.
        self.workgroup_blocks: list[int] = _workgroup_blocks(interface.module)

    def before_group(self, ml, b: ir.IRBuilder, ts) -> None:
        """Zeroes the Workgroup variables initialised with OpConstantNull
        (VK_KHR_zero_initialize_workgroup_memory) before a work-group's first invocation runs:
        the group's Workgroup memory is its worker thread's, reused from group to group."""
        from .abi import THREAD
        from .intrinsics import intrinsic

        zeroed = [(ml.layout.local_offsets[i.words[2]], self._workgroup_size(ml.types[i.words[1]].elem, ml.types))
                  for i in ml.module.section("types_values")
                  if i.opcode == 59 and len(i.words) > 4 and i.words[2] in ml.layout.local_offsets]
        if not zeroed:
            return
        memset = intrinsic(ml.llvm, "llvm.memset", ir.VoidType(), [PTR, I8, I64, ir.IntType(1)], overloads=[PTR, I64])
        base = b.load(b.gep(ts, [ir.Constant(I64, THREAD["local_base"])], source_etype=I64), typ=PTR)
        for offset, size in zeroed:
            at = b.gep(base, [ir.Constant(I64, offset)], source_etype=I8)
            b.call(memset, [at, ir.Constant(I8, 0), ir.Constant(I64, size), ir.Constant(ir.IntType(1), 0)])

    def _workgroup_size(self, t: SpvType, types) -> int:
        return self.layout.size(t) if self.workgroup_blocks else types.size(t)

    def place_workgroup_blocks(self, layout) -> None:
        """Puts the aliasing Workgroup Block variables at one offset, after the other Workgroup
        variables, with room for the largest by its explicit layout (``layout``: the
        ModuleLowering's VariableLayout, before any function is lowered)."""
        if not self.workgroup_blocks:
            return
        types = self.interface.types
        sizes = [self.layout.size(types[self.interface.module.definition(v).words[1]].elem)
                 for v in self.workgroup_blocks]
        at = -(-layout.local_bytes // 16) * 16
        for v in self.workgroup_blocks:
            layout.local_offsets[v] = at
        layout.local_bytes = -(-(at + max(sizes)) // 64) * 64

    def storage_of(self, fl: FunctionLowering, pointer_id: int) -> str:
        inst = fl.ml.module.type_of(pointer_id)
        return fl.types[inst.result_id].storage if inst is not None else ""

    def is_explicit(self, fl: FunctionLowering, pointer_id: int) -> bool:
        storage = self.storage_of(fl, pointer_id)
        return storage in EXPLICIT_STORAGE or (storage == "Workgroup" and bool(self.workgroup_blocks))

    def module_variable(self, fl: FunctionLowering, inst, storage: str):
        """A resource variable's pointer: its slot's address and region; None when the
        variable is not a resource."""
        if storage == "Workgroup" and inst.words[2] in self.workgroup_blocks:
            # an aliasing block: its region is its explicit layout's size, not its natural one
            b = fl.builder_at_entry()
            base = fl.thread_word("local_base", builder=b, typ=PTR)
            addr = b.gep(base, [ir.Constant(I64, fl.ml.layout.local_offsets[inst.words[2]])], source_etype=I8)
            if not fl.checked:
                return Ptr(addr)
            size = self.layout.size(fl.types[inst.words[1]].elem)
            return Ptr(addr, addr, b.gep(addr, [ir.Constant(I64, size)], source_etype=I8))
        if storage not in RESOURCE_STORAGE:
            return None
        resource = self.interface.by_var.get(inst.words[2])
        if resource is None:
            raise NotSupportedError(f"the {storage} variable %{inst.words[2]}")
        addr, end = _slot_words(fl, resource)
        return Ptr(addr, addr, end) if fl.checked else Ptr(addr)

    def access_chain(self, fl: FunctionLowering, inst, base: Ptr, pointee: SpvType) -> None:
        """An access chain into explicitly laid out memory: byte offsets from the decorations."""
        w = inst.words
        b = fl.builder
        constant, offset = 0, None
        current = pointee
        mat, row_step = self.layout_of(w[3])   # row_step: a RowMajor matrix's column, a row apart
        indices = list(w[4:])
        element = None
        if inst.opname in ("OpPtrAccessChain", "OpInBoundsPtrAccessChain"):
            # Variable pointers: the Element operand steps whole pointees, by the ArrayStride of
            # the base's pointer type (which the Vulkan environment requires it to have).
            if row_step is not None:
                raise NotSupportedError(f"{inst.opname} from a pointer to a column of a RowMajor matrix")
            element = (indices.pop(0), self._pointer_stride(fl, inst))
        if self.descriptors.is_array(w[3]):   # an array of buffer descriptors (shader_descriptors.py)
            base, current = self.descriptors.element(fl, w[2], base, indices.pop(0)), pointee.elem
        steps = [element] if element is not None else []
        for index_id in indices:
            if current.kind == "struct":
                member = fl.ml.constants.value(index_id)
                constant += self.layout.member_offset(current, member)
                mat = self.layout.matrix_layout(current, member)
                current = current.members[member]
                continue
            if is_matrix(current):
                stride, row_major = self.layout.matrix(current, mat)
                step = current.elem.elem.width // 8 if row_major else stride
                row_step = stride if row_major else None
                mat = None
            elif current.kind == "array":
                step = self.layout.stride(current)
            elif current.kind == "vector":
                step = row_step if row_step is not None else current.elem.width // 8
                row_step = None
            else:
                raise NotSupportedError(f"{inst.opname} indexing into a {current.kind}")
            steps.append((index_id, step))
            current = current.elem
        for index_id, step in steps:
            index = fl.value(index_id)
            if isinstance(index, ir.Constant):   # indices are signed (as the GEP's sext makes them)
                value, width = int(index.constant), index.type.width
                constant += (value - (1 << width) if value >= 1 << (width - 1) else value) * step
            else:
                index = b.sext(index, I64) if index.type.width < 64 else index
                term = b.mul(index, ir.Constant(I64, step))
                offset = term if offset is None else b.add(offset, term)
        if row_step is not None:
            self.strided_of[w[2]] = row_step
        if mat is not None:
            self.matrix_of[w[2]] = mat
        self.lowered.add(w[2])
        total = ir.Constant(I64, constant) if offset is None else b.add(offset, ir.Constant(I64, constant))
        fl.set(w[2], base.moved(b.gep(base.addr, [total], source_etype=I8)))

    def load(self, fl: FunctionLowering, ptr: Ptr, t: SpvType, pointer_id: int | None, mat=None):
        from .ops_memory import load

        if pointer_id is not None:
            mat, row_step = self.layout_of(pointer_id)
            if row_step is not None:               # a column of a RowMajor matrix
                return self._strided_load(fl, ptr, t, row_step)
        if self.layout.natural(t, mat):
            return load(fl, ptr, t, _leaf_alignment(t), pointer_id=pointer_id)
        b = fl.builder
        value = ir.Constant(t.llvm, None)
        for index, part_ptr, part_t, part_mat in self._parts(fl, ptr, t, mat):
            if isinstance(part_ptr, list):       # a column of a RowMajor matrix: one load per component
                part = ir.Constant(part_t.llvm, None)
                for r, component_ptr in enumerate(part_ptr):
                    part = b.insert_element(part, self.load(fl, component_ptr, part_t.elem, None),
                                            ir.Constant(I32, r))
            else:
                part = self.load(fl, part_ptr, part_t, None, part_mat)
            value = (b.insert_element(value, part, ir.Constant(I32, index)) if t.kind == "vector"
                     else b.insert_value(value, part, index))
        return value

    def store(self, fl: FunctionLowering, ptr: Ptr, value, t: SpvType, pointer_id: int | None, mat=None) -> None:
        from .ops_memory import store

        b = fl.builder
        if pointer_id is not None:
            mat, row_step = self.layout_of(pointer_id)
            if row_step is not None:               # a column of a RowMajor matrix
                for r, component_ptr in enumerate(self._strided(fl, ptr, t, row_step)):
                    self.store(fl, component_ptr, b.extract_element(value, ir.Constant(I32, r)), t.elem, None)
                return
        if self.layout.natural(t, mat):
            store(fl, ptr, value, t, _leaf_alignment(t), pointer_id=pointer_id)
            return
        for index, part_ptr, part_t, part_mat in self._parts(fl, ptr, t, mat):
            part = (b.extract_element(value, ir.Constant(I32, index)) if t.kind == "vector"
                    else b.extract_value(value, index))
            if isinstance(part_ptr, list):
                for r, component_ptr in enumerate(part_ptr):
                    self.store(fl, component_ptr, b.extract_element(part, ir.Constant(I32, r)), part_t.elem, None)
            else:
                self.store(fl, part_ptr, part, part_t, None, part_mat)

    def layout_of(self, pointer_id: int) -> tuple:
        """(matrix layout, row step) a pointer points with: what its access chain found, or for
        a variable pointer (OpSelect, OpPhi, OpCopyObject of pointers) what every one of its
        sources points with. Sources not lowered yet (a loop's back edge) are left out: they
        derive from the others. Sources that disagree cannot be told apart at run time."""
        if pointer_id not in self.merges:
            return self.matrix_of.get(pointer_id), self.strided_of.get(pointer_id)
        seen, found, todo = set(), set(), [pointer_id]
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.add(p)
            if p in self.merges:
                todo.extend(self.merges[p])
            elif p in self.lowered:
                found.add((self.matrix_of.get(p), self.strided_of.get(p)))
        if len(found) > 1:
            raise NotSupportedError("a variable pointer (OpSelect / OpPhi) choosing between pointers into "
                                    "matrices of different layouts (MatrixStride, RowMajor)")
        return found.pop() if found else (None, None)

    def _pointer_stride(self, fl: FunctionLowering, inst) -> int:
        ptr_type = fl.ml.module.type_of(inst.words[3])
        for d in fl.ml.module.decorations(ptr_type.result_id):
            if d.name == "ArrayStride":
                return d.operands[0]
        pointee = fl.types[ptr_type.result_id].elem
        raise NotSupportedError(f"{inst.opname} through a pointer type with no ArrayStride decoration "
                                f"(the step between its {pointee.kind}s in the buffer is unknown)")

    def _strided(self, fl: FunctionLowering, ptr: Ptr, t: SpvType, stride: int) -> list:
        if t.kind != "vector":
            raise NotSupportedError(f"a {t.kind} access through a pointer to a column of a RowMajor matrix")
        b = fl.builder
        return [ptr.moved(b.gep(ptr.addr, [ir.Constant(I64, r * stride)], source_etype=I8)) for r in range(t.count)]

    def _strided_load(self, fl: FunctionLowering, ptr: Ptr, t: SpvType, stride: int):
        value = ir.Constant(t.llvm, None)
        for r, component_ptr in enumerate(self._strided(fl, ptr, t, stride)):
            value = fl.builder.insert_element(value, self.load(fl, component_ptr, t.elem, None), ir.Constant(I32, r))
        return value

    def _parts(self, fl: FunctionLowering, ptr: Ptr, t: SpvType, mat):
        """(index, pointer, type, matrix layout) of each member, element, column or component
        of a composite; a RowMajor matrix's columns come as lists of component pointers."""
        b = fl.builder

        def at(offset):
            return ptr.moved(b.gep(ptr.addr, [ir.Constant(I64, offset)], source_etype=I8))

        if t.kind == "struct":
            for i, m in enumerate(t.members):
                yield i, at(self.layout.member_offset(t, i)), m, self.layout.matrix_layout(t, i)
            return
        if t.kind not in ("array", "vector"):
            raise NotSupportedError(f"a {t.kind} in a buffer (explicitly laid out memory)")
        if t.count == 0 or t.count > MAX_SPLIT_ELEMENTS:
            raise NotSupportedError(f"a load or store of a whole {t.count}-element array with a padded layout")
        if is_matrix(t):
            stride, row_major = self.layout.matrix(t, mat)
            component = t.elem.elem.width // 8
            for c in range(t.count):
                if row_major:
                    yield c, [at(r * stride + c * component) for r in range(t.elem.count)], t.elem, None
                else:
                    yield c, at(c * stride), t.elem, None
            return
        step = self.layout.stride(t) if t.kind == "array" else t.elem.width // 8
        for i in range(t.count):
            yield i, at(i * step), t.elem, mat if t.kind == "array" else None

    def load_builtin(self, fl: FunctionLowering, ptr, t: SpvType):
        """The invocation ids as 32-bit values computed with no-wrap arithmetic (None: the shared
        built-in code does it). A dispatch keeps every id below 2^31 (pipeline.py), so the
        flags hold; they let LLVM see that ``buf[gl_GlobalInvocationID.x]`` walks the buffer
        consecutively across invocations, and vectorise the loop over them."""
        name = ptr.builtin
        scalar = t.elem if t.kind == "vector" else t
        if name not in INVOCATION_IDS or scalar.kind != "int" or scalar.width != 32:
            return None
        b = fl.builder
        flags = ("nsw", "nuw")
        local = [b.trunc(v, I32) for v in (fl.lx, fl.ly, fl.lz)]
        if name == "LocalInvocationIndex":
            sx, sy = (b.trunc(fl.thread_word("local_size", d), I32) for d in (0, 1))
            inner = b.add(b.mul(local[2], sy, flags=flags), local[1], flags=flags)
            return b.add(b.mul(inner, sx, flags=flags), local[0], flags=flags)
        if name == "LocalInvocationId":
            parts = local
        else:
            groups = [b.trunc(fl.thread_word("group_id", d), I32) for d in range(3)]
            if name == "WorkgroupId":
                parts = groups
            else:   # GlobalInvocationId (Vulkan has no global offset)
                sizes = [b.trunc(fl.context_word("enqueued_local_size", d), I32) for d in range(3)]
                parts = [b.add(b.mul(g, n, flags=flags), lid, flags=flags) for g, n, lid in zip(groups, sizes, local)]
        if t.kind == "vector":
            value = ir.Constant(t.llvm, None)
            for d in range(t.count):
                value = b.insert_element(value, parts[d], ir.Constant(I32, d))
            return value
        if ptr.index is None:
            return None
        if isinstance(ptr.index, ir.Constant):
            return parts[int(ptr.index.constant)]
        vec = ir.Constant(ir.VectorType(I32, 3), None)
        for d in range(3):
            vec = b.insert_element(vec, parts[d], ir.Constant(I32, d))
        return b.extract_element(vec, ptr.index)

    def check_copy(self, fl: FunctionLowering, target_id: int, source_id: int) -> int | None:
        """OpCopyMemory copies bytes: right only where both sides share one layout. Returns the
        bytes to copy when both sides are explicitly laid out (the pointee's explicit size,
        which std140 strides and Offsets make larger than its natural one), else None."""
        explicit = [self.is_explicit(fl, p) for p in (target_id, source_id)]
        if any(explicit):
            pointee = fl.types[fl.ml.module.type_of(target_id).result_id].elem
            special = any(p in self.strided_of or p in self.matrix_of for p in (target_id, source_id))
            if special or not (all(explicit) or self.layout.natural(pointee)):
                raise NotSupportedError("OpCopyMemory between a buffer and another storage "
                                        "class with a different layout")
            if all(explicit):
                return self.layout.size(pointee)
        return None


def _workgroup_blocks(module) -> list[int]:
    """The Workgroup variables of Block-decorated types, where the module declares
    WorkgroupMemoryExplicitLayoutKHR (the Vulkan environment then has every Workgroup variable
    be one, or none)."""
    if "WorkgroupMemoryExplicitLayoutKHR" not in module.capabilities:
        return []
    found = []
    for inst in module.section("types_values"):
        if inst.opcode != 59 or inst.words[3] != 4:     # OpVariable ... Workgroup
            continue
        pointee = module.definition(inst.words[1]).words[3]
        if any(d.name == "Block" for d in module.decorations(pointee)):
            found.append(inst.words[2])
    return found


def _pointer_merges(module) -> dict[int, list[int]]:
    """result id -> the pointer ids an OpSelect / OpPhi / OpCopyObject of pointers may yield."""
    pointer_types = {i.words[1] for i in module.section("types_values") if i.opcode == 32}
    merges = {}
    for fn in module.functions:
        for block in fn.blocks:
            for inst in block.instructions:
                if len(inst.words) < 4 or inst.words[1] not in pointer_types:
                    continue
                if inst.opcode == 169:            # OpSelect: condition, then the two pointers
                    merges[inst.words[2]] = list(inst.words[4:6])
                elif inst.opcode == 245:          # OpPhi: (value, parent) pairs
                    merges[inst.words[2]] = list(inst.words[3::2])
                elif inst.opcode == 83:           # OpCopyObject
                    merges[inst.words[2]] = [inst.words[3]]
    return merges


def _leaf_alignment(t: SpvType) -> int:
    """A buffer guarantees its members the alignment of their scalars only (std430)."""
    scalar = t.elem if t.kind in ("vector", "array") else t
    while scalar.kind in ("array", "vector", "struct"):
        scalar = scalar.members[0] if scalar.kind == "struct" else scalar.elem
    return max(1, scalar.width // 8)


def _slot_words(fl: FunctionLowering, resource: Resource):
    """A resource's (address, end), loaded from its argument-block slot in the entry block."""
    b = fl.builder_at_entry()
    block = fl.context_word("args", builder=b, typ=PTR)
    at = b.gep(block, [ir.Constant(I64, resource.offset)], source_etype=I8)
    addr = b.load(at, typ=PTR)
    end = b.load(b.gep(at, [ir.Constant(I64, 16)], source_etype=I8), typ=PTR)
    # The argument block does not change during a launch: saying so lets LLVM hoist these
    # loads out of the invocation loops, past the shader's own stores (which could alias it).
    invariant = fl.ml.llvm.add_metadata([])
    for load in (addr, end):
        load.set_metadata("invariant.load", invariant)
    return addr, end


@handles("OpArrayLength")
def lower_array_length(fl: FunctionLowering, inst) -> None:
    """The element count of a runtime array ending a buffer block: from the bound buffer's size."""
    w = inst.words
    shader = fl.ml.shader
    resource = shader.interface.by_var.get(w[3]) if shader is not None else None
    if resource is None and shader is not None and shader.descriptors.array_length(fl, inst):
        return   # a buffer of an array of descriptors (shader_descriptors.py)
    if resource is None or not resource.runtime_stride:
        raise NotSupportedError("OpArrayLength of anything but a buffer variable's trailing "
                                "runtime array")
    b = fl.builder
    addr, end = _slot_words(fl, resource)
    block = fl.types[fl.ml.module.type_of(w[3]).result_id].elem
    start = shader.layout.member_offset(block, w[4])
    room = b.sub(b.sub(b.ptrtoint(end, I64), b.ptrtoint(addr, I64)), ir.Constant(I64, start))
    negative = b.icmp_signed("<", room, ir.Constant(I64, 0))
    count = b.udiv(b.select(negative, ir.Constant(I64, 0), room), ir.Constant(I64, resource.runtime_stride))
    t = fl.type(w[1])
    fl.set(w[2], b.trunc(count, t.llvm) if t.width < 64 else count)
