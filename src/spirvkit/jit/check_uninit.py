"""The uninitialized check: values read from memory that was never written, reported where they
are used (a branch or switch condition, a select condition, an address or index, a store to
global memory, a printf argument), as Memcheck and Oclgrind do, not on every copy.

Memory shadow: one byte per byte of tracked memory, right after the memory it describes, so
that a pointer's [base, end) region finds it without a lookup:

- private variables are allocated twice their size (ops_memory, regions' records, ByVal
  copies): the shadow of ``addr`` is at ``addr + (end - base)``; it is cleared (undefined) where
  the variable is declared;
- ``__local`` memory: the launch doubles the thread's local block (CheckState); the shadow of
  ``addr`` is at ``addr + local_bytes / 2``;
- ``__global`` buffers the host made with ``spirvkit.uninitialized(shape, dtype)``: the array
  is the first half of an allocation whose second half is its shadow (runtime/args.py); the
  check state lists their bases, one word per kernel parameter.

Other memory (ordinary buffers, ``__constant``, program-scope variables) is always defined.

A shadow byte is defined when it is 0xFF, or, in local memory, when it holds the tag of the
current work-group (1..254, from the group id and a per-launch salt): local memory is not
cleared between the groups a thread runs, so a stale byte from another group reads as
undefined without any per-group reset (a tag that comes round again 254 groups later can only
hide a finding, never make one up). Undefined bytes are 0.

Value shadow: each SSA value read from memory (and each OpUndef) gets a shadow, an i1 per
scalar, an i1 per lane of a vector, an i1 per byte of a struct or array (up to 256 bytes;
larger aggregate values are not tracked), kept in ``fl.uninit_values``; arithmetic ORs its
operands' shadows lane by lane, composite and shuffle instructions move lanes and bytes, so a
partly written vector or a struct with padding only reports the parts actually used. A store
writes the value's shadow to memory's shadow (a copy: no report), unless the memory is
untracked global memory: then an undefined value stored is a finding. Values that cross a
barrier in a kernel run region by region keep their shadow in the work-item record (a byte per
lane); calls are inlined (compiler.lower_kernel) so shadows follow parameters and results.
What is not tracked is taken as defined: this check never guesses "undefined".
"""

from __future__ import annotations

from llvmlite import ir

from .abi import CONTEXT, THREAD
from .check_passes import CHECK_STATE, I1, I32, I64, PTR, UNMARKED, _word
from .constants import OP_UNDEF
from .function import Ptr
from .intrinsics import intrinsic
from .runtime_ir import STORAGE_GLOBAL, STORAGE_LOCAL

I8 = ir.IntType(8)
OP_PHI = 245
DEFINED = 0xFF
MAX_AGGREGATE = 256          # bytes of an aggregate value shadowed byte by byte
_RMW_VALUE = {"OpAtomicExchange": 6, "OpAtomicIAdd": 6, "OpAtomicISub": 6, "OpAtomicSMin": 6, "OpAtomicUMin": 6,
              "OpAtomicSMax": 6, "OpAtomicUMax": 6, "OpAtomicAnd": 6, "OpAtomicOr": 6, "OpAtomicXor": 6,
              "OpAtomicFAddEXT": 6, "OpAtomicFMinEXT": 6, "OpAtomicFMaxEXT": 6}
# Instructions whose result shadow is not the OR of their operands'.
_NO_RESULT = {"OpVariable", "OpFunctionCall", "OpFunctionParameter", "OpLabel", "OpSampledImage", "OpImage",
              "OpGroupAsyncCopy", "OpGroupWaitEvents", "OpCopyMemory", "OpCopyMemorySized", "OpStore",
              "OpAtomicStore", "OpPtrDiff", "OpPtrEqual", "OpPtrNotEqual"}


def functions_to_inline(module) -> set[int]:
    """With the check on, every call is inlined into the kernel (but those on a call cycle), so
    that values keep their shadows through parameters and results: lowered functions take and
    return plain values, whose shadows would be lost at the call."""
    recursive = module.recursive_functions()
    return {fn.id for fn in module.functions if fn.blocks and fn.id not in recursive}


def doubled(ml, llvm_type: ir.Type) -> ir.Type:
    """The type a private variable is allocated as: twice itself when the check is on."""
    passes = ml.check_passes
    if passes is None or passes.uninit is None:
        return llvm_type
    return ir.ArrayType(llvm_type, 2)


def record_size(ml, size: int) -> int:
    """The bytes a private variable takes in a region kernel's work-item record."""
    passes = ml.check_passes
    return size * 2 if passes is not None and passes.uninit is not None else size


class UninitCheck:
    def __init__(self, passes):
        self.passes = passes
        self.ml = passes.ml
        # No buffer of the launch is marked uninitialised (check_passes.UNMARKED): global memory
        # is all defined, and its accesses fold away.
        self.global_untracked = UNMARKED in passes.checks

    # ----- value shadows --------------------------------------------------------------------
    def shape(self, t) -> ir.Type | None:
        if t is None:
            return None
        if t.kind in ("int", "float", "bool", "pointer"):
            return I1
        if t.kind == "vector" and t.count:
            return ir.VectorType(I1, t.count)
        if t.kind in ("struct", "array"):
            try:
                size = self.ml.types.size(t)
            except Exception:  # noqa: BLE001 - unsized: not tracked
                return None
            return ir.VectorType(I1, size) if 0 < size <= MAX_AGGREGATE else None
        return None

    @staticmethod
    def _ones(shape: ir.Type) -> ir.Constant:
        if isinstance(shape, ir.VectorType):
            return ir.Constant(shape, [ir.Constant(I1, 1)] * shape.count)
        return ir.Constant(shape, 1)

    def shadow(self, fl, value_id: int, t=None):
        """The shadow of a value (None: defined, or not tracked)."""
        region = fl.region
        if region is not None and value_id in region.layout.values:
            return self._spilled(fl, value_id)
        table = _table(fl)
        if value_id in table:
            return table[value_id]
        inst = self.ml.module.definition(value_id)
        if inst is not None and inst.opcode == OP_UNDEF:
            # An undefined scalar (what an optimiser makes of an uninitialised variable) is
            # undefined; an undefined vector is what compilers pad 3-element vectors with (a
            # float3 is stored as a float4 shuffled from it and an OpUndef): its lanes count
            # as defined, or every such store would be a finding, except where lanes are
            # inserted into it or shuffled with others (a vector variable partly written: see
            # _undef_base, _shuffle).
            shape = self.shape(t if t is not None else self.ml.types.get(inst.words[1]))
            return self._ones(shape) if shape == I1 else None
        return None

    def _undef_base(self, fl, value_id: int, shape):
        """The shadow of the vector an OpCompositeInsert writes a lane into: an OpUndef vector
        there is a variable whose other lanes were never written."""
        inst = self.ml.module.definition(value_id)
        if inst is not None and inst.opcode == OP_UNDEF and isinstance(shape, ir.VectorType):
            return self._ones(shape)
        return self.shadow(fl, value_id)

    def _undef_vector(self, value_id: int, lanes: int):
        """All lanes undefined when ``value_id`` is an OpUndef vector (else None)."""
        inst = self.ml.module.definition(value_id)
        if inst is not None and inst.opcode == OP_UNDEF and lanes > 1:
            return self._ones(ir.VectorType(I1, lanes))
        return None

    def _type_of(self, value_id: int):
        tdef = self.ml.module.type_of(value_id)
        return self.ml.types.get(tdef.result_id) if tdef is not None else None

    @staticmethod
    def any(b, s):
        if s is None:
            return None
        if isinstance(s.type, ir.VectorType):
            return b.icmp_unsigned("!=", b.bitcast(s, ir.IntType(s.type.count)), ir.Constant(ir.IntType(s.type.count), 0))
        return s

    def _fit(self, b, s, shape):
        """Shadow ``s`` given the shape ``shape``: lane by lane when they match, else any-to-all."""
        if s is None or shape is None:
            return None
        if s.type == shape:
            return s
        u = self.any(b, s)
        if isinstance(shape, ir.VectorType):
            return b.select(u, self._ones(shape), ir.Constant(shape, None))
        return u

    # ----- kernels run region by region (regions.py) -----------------------------------------
    def spill_layout(self, layout) -> None:
        """A record slot for the shadow of each value kept across barriers (per work-item ones:
        a group-uniform value is made of ids and sizes, never undefined)."""
        from .collectives import is_collective

        layout.uninit_slots = {}
        for value_id, slots in layout.values.items():
            if slots[0].uniform or value_id in layout.next_slots:
                continue
            inst = self.ml.module.definition(value_id)
            if inst is None or is_collective(inst):   # (computed by the group, not lowered here)
                continue
            shape = self.shape(self._type_of(value_id))
            if shape == I1:
                layout.uninit_slots[value_id] = layout.add(I8, 1)
            elif isinstance(shape, ir.VectorType):
                layout.uninit_slots[value_id] = layout.add(ir.VectorType(I8, shape.count), shape.count)

    def _spilled(self, fl, value_id: int):
        """A value kept across barriers: its shadow from the record, read where the region reads
        the value (at entry when the region never redefines it, else where it is used)."""
        region = fl.region
        slot = getattr(region.layout, "uninit_slots", {}).get(value_id)
        if slot is None:
            return None
        here = value_id in region.defined_here and value_id not in region.layout.next_slots
        cache = _table(fl).setdefault("spilled", {})
        if not here and value_id in cache:
            return cache[value_id]
        b = fl.builder if here else fl.alloca_builder
        raw = b.load(region.address(b, slot), typ=slot.llvm)
        s = b.trunc(raw, I1) if slot.llvm == I8 else b.trunc(raw, ir.VectorType(I1, slot.llvm.count))
        if not here:
            cache[value_id] = s
        return s

    def _spill(self, fl, value_id: int, s) -> None:
        slot = getattr(fl.region.layout, "uninit_slots", {}).get(value_id)
        if slot is None:
            return
        b = fl.builder
        if s is None:
            raw = ir.Constant(slot.llvm, None)
        else:
            raw = b.zext(s, slot.llvm)
        fl.tag(b.store(raw, fl.region.address(b, slot)))

    # ----- the lowering's events ------------------------------------------------------------
    def before(self, fl, inst) -> None:
        """Uses of undefined values, reported before the instruction consumes them."""
        name = inst.opname
        w = inst.words
        b = fl.builder
        if name == "OpBranchConditional" and w[2] != w[3]:
            self._use(fl, self.shadow(fl, w[1]), "uninitialized branch", used=w[1])
        elif name == "OpSwitch":
            self._use(fl, self.shadow(fl, w[1]), "uninitialized branch", used=w[1])
        elif name == "OpSelect":
            self._use(fl, self.any(b, self.shadow(fl, w[3])), "uninitialized select", used=w[3])
        elif name == "OpLoad" or (name.startswith("OpAtomic") and name not in ("OpAtomicStore", "OpAtomicFlagClear")):
            self._address(fl, w[3])
        elif name in ("OpStore", "OpAtomicStore", "OpAtomicFlagClear", "OpCopyMemory", "OpCopyMemorySized"):
            self._address(fl, w[1])
            if name.startswith("OpCopyMemory"):
                self._address(fl, w[2])
        elif name == "OpExtInst" and _ext_name(inst) == "printf":   # its arguments are used (printed)
            found = None
            for arg in w[6:]:
                u = self.any(b, self.shadow(fl, arg))
                if u is not None:
                    found = u if found is None else b.or_(found, u)
            self._use(fl, found, "uninitialized argument")

    def _address(self, fl, pointer_id: int) -> None:
        s = self.shadow(fl, pointer_id)
        if s is not None:
            self._use(fl, self.any(fl.builder, s), "uninitialized address", used=pointer_id)

    def _use(self, fl, u, kind: str, addr=None, base=None, end=None, size=0, used=None) -> None:
        if u is None or (isinstance(u, ir.Constant) and not u.constant):
            return
        zero = ir.Constant(I64, 0)
        self.passes.report(fl, u, fl.site(kind), addr or zero, base or zero, end or zero, size, 0)
        if used is not None:
            # Reported once: the value counts as defined from here on (as Memcheck does), so
            # what is computed from it does not report the same mistake again. (Lowered later
            # is not always dominated by this use: that can only hide a finding.)
            _table(fl)[used] = None

    def after(self, fl, inst) -> None:
        """The shadow of the instruction's result."""
        rid = inst.result_id
        name = inst.opname
        if name == "OpVariable":
            self._declare(fl, inst)
            return
        if name.startswith("OpCopyMemory"):
            self._copy(fl, inst)
            return
        if rid is None or inst.type_id is None:
            return
        pending = getattr(fl, "uninit_loaded", None)
        if pending is not None:
            fl.uninit_loaded = None
            if pending[0] is inst:
                self._result(fl, inst, pending[1])
                return
        t = self.ml.types.get(inst.type_id)
        shape = self.shape(t)
        if name in _NO_RESULT or name in ("OpLoad",) or name.startswith("OpAtomic") or shape is None:
            self._result(fl, inst, None)
            return
        b = fl.builder
        w = inst.words
        s = None
        if name == "OpPhi":
            s = self._phi(fl, inst, shape)
        elif name == "OpCompositeExtract":
            s = self._extract(fl, b, w[3], list(w[4:]), shape)
        elif name == "OpCompositeInsert":
            s = self._insert(fl, b, w[4], w[3], list(w[5:]), shape)
        elif name == "OpCompositeConstruct":
            s = self._construct(fl, b, t, list(w[3:]), shape)
        elif name == "OpVectorShuffle":
            s = self._shuffle(fl, b, w[3], w[4], list(w[5:]), shape)
        elif name == "OpVectorExtractDynamic":
            vec = self.shadow(fl, w[3])
            s = self._or(b, [b.extract_element(vec, fl.value(w[4])) if vec is not None and
                             isinstance(vec.type, ir.VectorType) else self.any(b, vec),
                             self.any(b, self.shadow(fl, w[4]))], shape)
        elif name == "OpVectorInsertDynamic":
            vec = self._fit(b, self._undef_base(fl, w[3], shape), shape) or ir.Constant(shape, None)
            comp = self.any(b, self.shadow(fl, w[4])) or ir.Constant(I1, 0)
            s = b.insert_element(vec, comp, fl.value(w[5]))
            idx = self.any(b, self.shadow(fl, w[5]))
            s = self._or(b, [s, idx], shape)
        elif name == "OpSelect":
            cond = self.shadow(fl, w[3])
            pick = b.select(fl.value(w[3]), self._fit(b, self.shadow(fl, w[4]), shape) or ir.Constant(shape, None),
                            self._fit(b, self.shadow(fl, w[5]), shape) or ir.Constant(shape, None)) \
                if not isinstance(fl.get(w[4]), Ptr) else self._or(b, [self.shadow(fl, w[4]), self.shadow(fl, w[5])], shape)
            s = self._or(b, [pick, cond], shape)
        elif name == "OpUndef":
            s = self._ones(shape) if shape == I1 else None
        else:
            ids = inst.id_operands()
            if inst.type_id is not None and ids and ids[0] == inst.type_id:
                ids = ids[1:]
            s = self._or(b, [self.shadow(fl, i) for i in ids], shape)
        self._result(fl, inst, s)

    def _result(self, fl, inst, s) -> None:
        rid = inst.result_id
        region = fl.region
        if region is not None and rid in region.layout.values:
            if inst.opcode == OP_PHI:
                getattr(fl, "uninit_spills", None) or setattr(fl, "uninit_spills", [])
                fl.uninit_spills.append((rid, s, fl.builder.block))   # (stored in finish)
            else:
                self._spill(fl, rid, s)
        elif s is not None:
            _table(fl)[rid] = s

    def _or(self, b, shadows, shape):
        out = None
        for s in shadows:
            s = self._fit(b, s, shape)
            if s is not None:
                out = s if out is None else b.or_(out, s)
        return out

    def _phi(self, fl, inst, shape):
        phi = fl.builder.phi(shape)
        getattr(fl, "uninit_phis", None) or setattr(fl, "uninit_phis", [])
        fl.uninit_phis.append((inst, phi, shape))
        return phi

    def finish(self, fl) -> None:
        """After the body: the shadow phis' incoming values (as fill_phis does for values)."""
        b = fl.builder
        for inst, phi, shape in getattr(fl, "uninit_phis", None) or []:
            w = inst.words
            for i in range(3, len(w) - 1, 2):   # (one entry per incoming pair, as fill_phis)
                pred = fl.block_end.get(w[i + 1])
                if pred is None:
                    continue
                b.position_before(pred.terminator)
                s = self._fit(b, self.shadow(fl, w[i]), shape)
                phi.add_incoming(s if s is not None else ir.Constant(shape, None), pred)
        fl.uninit_phis = []
        saved = fl.builder
        for value_id, s, block in getattr(fl, "uninit_spills", None) or []:
            # After the block's phis, which must stay first.
            fl.builder = ir.IRBuilder(block)
            fl.builder.position_before(next(i for i in block.instructions if not isinstance(i, ir.PhiInstr)))
            self._spill(fl, value_id, s)
        fl.builder = saved
        fl.uninit_spills = []

    # composite helpers -----------------------------------------------------------------------
    def _bytes_of(self, b, s, t):
        """A value shadow as one i1 per byte of its type (for aggregates)."""
        size = self.ml.types.size(t)
        shape = ir.VectorType(I1, size)
        if s is None:
            return ir.Constant(shape, None)
        if isinstance(s.type, ir.VectorType) and s.type.count == size:
            return s
        if t.kind == "vector" and isinstance(s.type, ir.VectorType):
            es = self.ml.types.size(t.elem)
            lanes = b.sext(s, ir.VectorType(ir.IntType(es), s.type.count))
            raw = b.bitcast(lanes, ir.VectorType(I1, es * s.type.count))
            if es * s.type.count == size:
                return raw
            mask = [ir.Constant(I32, i if i < es * s.type.count else 0) for i in range(size)]
            return b.shuffle_vector(raw, raw, ir.Constant(ir.VectorType(I32, size), mask))
        return self._fit(b, self.any(b, s), shape)

    def _from_bytes(self, b, bytes_, t, shape):
        if isinstance(shape, ir.VectorType) and shape.count == bytes_.type.count and t.kind != "vector":
            return bytes_
        if t.kind == "vector":
            es = self.ml.types.size(t.elem)
            n = shape.count
            part = _slice(b, bytes_, 0, es * n)
            return b.icmp_unsigned("!=", b.bitcast(part, ir.VectorType(ir.IntType(es), n)),
                                   ir.Constant(ir.VectorType(ir.IntType(es), n), None))
        return self._fit(b, self.any(b, bytes_), shape)

    def _member(self, t, index: int):
        """(byte offset, type) of member ``index`` of an aggregate type."""
        if t.kind == "struct":
            return self.ml.types.member_offset(t, index), t.members[index]
        return index * self.ml.types.size(t.elem), t.elem

    def _extract(self, fl, b, comp_id, indices, shape):
        t = self._type_of(comp_id)
        s = self.shadow(fl, comp_id)
        if s is None or t is None:
            return None
        for n, index in enumerate(indices):
            if t.kind == "vector":
                s = b.extract_element(s, ir.Constant(I32, index)) if isinstance(s.type, ir.VectorType) else s
                return self._fit(b, s, shape)
            if t.kind not in ("struct", "array") or not isinstance(s.type, ir.VectorType):
                return self._fit(b, self.any(b, s), shape)
            offset, inner = self._member(t, index)
            size = self.ml.types.size(inner)
            part = _slice(b, s, offset, size)
            inner_shape = self.shape(inner) if n + 1 < len(indices) else shape
            if inner_shape is None:
                return None
            s, t = self._from_bytes(b, part, inner, inner_shape), inner
        return self._fit(b, s, shape)

    def _insert(self, fl, b, comp_id, obj_id, indices, shape):
        t = self._type_of(comp_id)
        whole = self._undef_base(fl, comp_id, shape) if t is not None and t.kind == "vector" else \
            self.shadow(fl, comp_id)
        part = self.shadow(fl, obj_id)
        if whole is None and part is None:
            return None
        if t is None:
            return None
        if t.kind == "vector" and len(indices) == 1 and isinstance(shape, ir.VectorType):
            whole = self._fit(b, whole, shape) or ir.Constant(shape, None)
            return b.insert_element(whole, self.any(b, part) or ir.Constant(I1, 0), ir.Constant(I32, indices[0]))
        if t.kind not in ("struct", "array") or not isinstance(shape, ir.VectorType):
            return self._or(b, [whole, part], shape)
        whole = whole if whole is not None and whole.type == shape else self._fit(b, whole, shape) or \
            ir.Constant(shape, None)
        offset, inner = 0, t
        for index in indices:     # the byte range of the member replaced
            o, inner = self._member(inner, index)
            offset += o
            if inner.kind not in ("struct", "array"):
                break
        new = self._bytes_of(b, part, inner)
        return _splice(b, whole, new, offset)

    def _construct(self, fl, b, t, parts, shape):
        shadows = [self.shadow(fl, p) for p in parts]
        if all(s is None for s in shadows):
            return None
        if t.kind == "vector":
            out = ir.Constant(shape, None)
            lane = 0
            for p, s in zip(parts, shadows):
                pt = self._type_of(p)
                count = pt.count if pt is not None and pt.kind == "vector" else 1
                for k in range(count):
                    v = s if s is None or not isinstance(s.type, ir.VectorType) else b.extract_element(s, ir.Constant(I32, k))
                    if v is not None and lane < shape.count:
                        out = b.insert_element(out, v, ir.Constant(I32, lane))
                    lane += 1
            return out
        out = ir.Constant(shape, None)
        for index, (p, s) in enumerate(zip(parts, shadows)):
            if s is None:
                continue
            offset, inner = self._member(t, index)
            out = _splice(b, out, self._bytes_of(b, s, inner), offset)
        return out

    def _shuffle(self, fl, b, v1, v2, components, shape):
        t1, t2 = self._type_of(v1), self._type_of(v2)
        n1 = t1.count if t1 is not None and t1.kind == "vector" else 1
        n2 = t2.count if t2 is not None and t2.kind == "vector" else 1
        # Lanes taken from an OpUndef vector are undefined (a swizzle writing some lanes of a
        # vector variable, f.xzw = ..., leaves the others so), except the padding that widens a
        # 3-element vector to 4 lanes (v1's lanes 0 1 2, then lane 3 from the OpUndef v2 or
        # 0xFFFFFFFF): that lane is never a value (see shadow()).
        undef1, undef2 = (self._undef_vector(v, n) for v, n in ((v1, n1), (v2, n2)))
        s1 = undef1 if undef1 is not None else self.shadow(fl, v1)
        s2 = undef2 if undef2 is not None else self.shadow(fl, v2)
        if s1 is None and s2 is None:
            return None
        padding = n1 == 3 and len(components) == 4 and list(components[:3]) == [0, 1, 2]
        s1 = self._fit(b, s1, ir.VectorType(I1, n1)) or ir.Constant(ir.VectorType(I1, n1), None)
        s2 = self._fit(b, s2, ir.VectorType(I1, n2)) or ir.Constant(ir.VectorType(I1, n2), None)
        out = ir.Constant(shape, None)
        for lane, c in enumerate(components):
            if c == 0xFFFFFFFF or (padding and lane == 3 and c >= n1):
                v = ir.Constant(I1, 0)       # a lane left undefined: padding (see shadow())
            elif c < n1:
                v = b.extract_element(s1, ir.Constant(I32, c))
            else:
                v = b.extract_element(s2, ir.Constant(I32, c - n1))
            out = b.insert_element(out, v, ir.Constant(I32, lane))
        return out

    # ----- memory ---------------------------------------------------------------------------
    def _storage(self, pointer_id: int | None) -> str:
        if pointer_id is None:
            return "Generic"
        t = self._type_of(pointer_id)
        return getattr(t, "storage", None) or "Generic"

    def _tag(self, b, ctx, ts):
        """The current work-group's tag (1..254) in local memory's shadow."""
        linear = None
        for d in reversed(range(3)):
            gid = b.load(_word(b, ts, THREAD["group_id"] + d), typ=I64)
            linear = gid if linear is None else \
                b.add(b.mul(linear, b.load(_word(b, ctx, CONTEXT["num_groups"] + d), typ=I64)), gid)
        state = b.load(_word(b, ctx, CONTEXT["checks"]), typ=PTR)
        salt = b.load(_word(b, state, CHECK_STATE["salt"]), typ=I64)
        tag = b.add(b.urem(b.add(linear, salt), ir.Constant(I64, 254)), ir.Constant(I64, 1))
        return b.trunc(tag, I8)

    def _marked(self, b, bases, base):
        """Whether ``base`` is a buffer the host marked uninitialised."""
        found = ir.Constant(I1, 0)
        if self.global_untracked:
            return found
        for marked in bases:
            found = b.or_(found, b.icmp_unsigned("==", base, marked))
        return found

    def _launch_values(self, b, ctx, ts, fl=None):
        """(local shadow offset, this group's tag, the marked buffers' bases): launch and group
        constants, loaded once in the function's entry block when lowering one."""
        cached = getattr(fl, "uninit_launch", None) if fl is not None else None
        if cached is not None:
            return cached
        at = fl.alloca_builder if fl is not None else b
        half = at.lshr(at.load(_word(at, ts, THREAD["local_bytes"]), typ=I64), ir.Constant(I64, 1))
        bases = []
        if self.passes.kernel_params and not self.global_untracked:
            state = at.load(_word(at, ctx, CONTEXT["checks"]), typ=PTR)
            table = at.load(_word(at, state, CHECK_STATE["uninit"]), typ=PTR)
            bases = [at.load(_word(at, table, k), typ=I64) for k in range(self.passes.kernel_params)]
        values = (half, self._tag(at, ctx, ts), bases)
        if fl is not None:
            fl.uninit_launch = values
        return values

    def locate(self, b, ctx, ts, storage: str, addr, base, end, size, fl=None):
        """(tracked: i1, shadow address: i64, defined marker: i8) of an access of ``size`` bytes
        at ``addr`` in region [base, end); tracked is false unless it is also in bounds."""
        length = b.sub(end, base)
        in_bounds = b.and_(b.icmp_unsigned("<=", b.sub(addr, base), b.sub(length, size)),
                           b.icmp_unsigned(">=", length, size))
        defined = ir.Constant(I8, DEFINED)
        if storage == "Function":
            return in_bounds, b.add(addr, length), defined
        if storage not in ("Workgroup", "CrossWorkgroup", "Generic"):
            return ir.Constant(I1, 0), addr, defined
        half, tag, bases = self._launch_values(b, ctx, ts, fl)
        if storage == "Workgroup":
            return in_bounds, b.add(addr, half), tag
        if storage == "CrossWorkgroup":
            return b.and_(in_bounds, self._marked(b, bases, base)), b.add(addr, length), defined
        where = b.call(self.ml.runtime("storage_of"), [ctx, ts, b.inttoptr(base, PTR)])
        local = b.icmp_unsigned("==", where, ir.Constant(I32, STORAGE_LOCAL))
        global_ = b.icmp_unsigned("==", where, ir.Constant(I32, STORAGE_GLOBAL))
        tracked = b.and_(in_bounds, b.select(global_, self._marked(b, bases, base), ir.Constant(I1, 1)))
        shadow = b.select(local, b.add(addr, half), b.add(addr, length))
        return tracked, shadow, b.select(local, tag, defined)

    def _load_shadow(self, b, tracked, at, marker, nbytes: int):
        """<nbytes x i1>: true where the byte is undefined (0 bytes when not tracked)."""
        vt = ir.VectorType(I8, nbytes)
        # (the load sits under a branch: an untracked or out-of-bounds address is never read)
        here = b.block
        then = b.append_basic_block("uninit_load")
        done = b.append_basic_block("uninit_loaded")
        b.cbranch(tracked, then, done)
        b.position_at_end(then)
        raw = b.load(b.inttoptr(at, PTR), typ=vt, align=1)
        ff = ir.Constant(vt, [ir.Constant(I8, DEFINED)] * nbytes)
        tag = b.insert_element(ir.Constant(vt, None), marker, ir.Constant(I32, 0))
        tag = b.shuffle_vector(tag, tag, ir.Constant(ir.VectorType(I32, nbytes), [ir.Constant(I32, 0)] * nbytes))
        undefined = b.and_(b.icmp_unsigned("!=", raw, ff), b.icmp_unsigned("!=", raw, tag))
        b.branch(done)
        b.position_at_end(done)
        phi = b.phi(ir.VectorType(I1, nbytes))
        phi.add_incoming(undefined, then)
        phi.add_incoming(ir.Constant(ir.VectorType(I1, nbytes), None), here)
        return phi

    def _store_shadow(self, b, tracked, at, marker, undefined_bytes):
        nbytes = undefined_bytes.type.count
        vt = ir.VectorType(I8, nbytes)
        with b.if_then(tracked, likely=True):
            tag = b.insert_element(ir.Constant(vt, None), marker, ir.Constant(I32, 0))
            tag = b.shuffle_vector(tag, tag, ir.Constant(ir.VectorType(I32, nbytes), [ir.Constant(I32, 0)] * nbytes))
            b.store(b.select(undefined_bytes, ir.Constant(vt, None), tag), b.inttoptr(at, PTR), align=1)

    def _value_bytes(self, b, s, t):
        """A value's shadow as <bytes x i1> over the bytes its load or store touches."""
        n = self._access_bytes(t)
        shape = ir.VectorType(I1, n)
        if s is None:
            return ir.Constant(shape, None)
        if t.kind == "vector" and isinstance(s.type, ir.VectorType):
            es = self.ml.types.size(t.elem)
            return b.bitcast(b.sext(s, ir.VectorType(ir.IntType(es), s.type.count)), shape)
        if isinstance(s.type, ir.VectorType) and s.type.count == n:
            return s
        return self._fit(b, self.any(b, s), shape)

    def _access_bytes(self, t) -> int:
        if t.kind == "vector":
            return self.ml.types.size(t.elem) * t.count
        if t.kind == "pointer":
            return 8
        return self.ml.types.size(t)

    def _bytes_to_value(self, b, bytes_, t):
        shape = self.shape(t)
        if shape is None:
            return None
        if t.kind == "vector":
            es = self.ml.types.size(t.elem)
            it = ir.VectorType(ir.IntType(es), t.count)
            return b.icmp_unsigned("!=", b.bitcast(bytes_, it), ir.Constant(it, None))
        if shape == bytes_.type:
            return bytes_
        return self.any(b, bytes_)

    def access(self, fl, ptr, addr, base, end, size, kind: str, align=None):
        """A checked load, store or atomic: moves shadows between memory and values."""
        inst = fl.current
        if inst is None:
            return None
        name, w, b = inst.opname, inst.words, fl.builder
        if name == "OpLoad":
            t = fl.types[w[1]]
            if self._access_bytes(t) > MAX_AGGREGATE * 4 or self.shape(t) is None:
                return None
            tracked, at, marker = self.locate(b, fl.ctx, fl.ts, self._storage(w[3]), addr, base, end,
                                              _const(self._access_bytes(t)), fl)
            loaded = self._load_shadow(b, tracked, at, marker, self._access_bytes(t))
            fl.uninit_loaded = (inst, self._bytes_to_value(b, loaded, t))
            return None
        if name == "OpStore":
            vt = self._type_of(w[2])
            if vt is None:
                return None
            n = self._access_bytes(vt)
            tracked, at, marker = self.locate(b, fl.ctx, fl.ts, self._storage(w[1]), addr, base, end, _const(n), fl)
            if n > MAX_AGGREGATE * 4:     # a large aggregate value: not tracked, so defined
                memset = intrinsic(self.ml.llvm, "llvm.memset", ir.VoidType(), [PTR, I8, I64, I1],
                                   overloads=[PTR, I64])
                with b.if_then(tracked):
                    b.call(memset, [b.inttoptr(at, PTR), marker, _const(n), ir.Constant(I1, 0)])
                return None
            undefined = self._value_bytes(b, self.shadow(fl, w[2], vt), vt)
            if undefined is not None:
                self._store_shadow(b, tracked, at, marker, undefined)
                # An undefined value stored where it is not tracked (global memory): a use.
                u = self.any(b, self._data_bytes(b, undefined, vt))
                if u is not None and not (isinstance(u, ir.Constant) and not u.constant):
                    length = b.sub(end, base)
                    in_bounds = b.and_(b.icmp_unsigned("<=", b.sub(addr, base), b.sub(length, size)),
                                       b.icmp_unsigned(">=", length, size))
                    self._use(fl, b.and_(b.and_(u, b.not_(tracked)), in_bounds), "uninitialized store",
                              addr, base, end, size)
            return None
        if kind == "atomic" and name.startswith("OpAtomic"):
            self._atomic(fl, inst, addr, base, end)
            return None
        if kind == "store":      # an OpenCL.std store (vstoren, frexp's pointer): now defined
            self._define(fl, addr, base, end, size)
        return None

    def _data_bytes(self, b, undefined, t):
        """The bytes of an aggregate that hold data (padding does not count as a use)."""
        if t.kind not in ("struct", "array"):
            return undefined
        mask = [0] * undefined.type.count
        self._mark_data(t, 0, mask)
        return b.and_(undefined, ir.Constant(undefined.type, [ir.Constant(I1, m) for m in mask]))

    def _mark_data(self, t, offset, mask):
        if t.kind == "struct":
            for i, m in enumerate(t.members):
                self._mark_data(m, offset + self.ml.types.member_offset(t, i), mask)
        elif t.kind == "array":
            es = self.ml.types.size(t.elem)
            for i in range(t.count or 0):
                self._mark_data(t.elem, offset + i * es, mask)
        else:
            n = self._access_bytes(t)
            for i in range(offset, min(offset + n, len(mask))):
                mask[i] = 1

    def _define(self, fl, addr, base, end, size, storage="Generic"):
        b = fl.builder
        if not isinstance(size, ir.Constant):
            return
        n = size.constant
        if not 0 < n <= MAX_AGGREGATE * 4:
            return
        tracked, at, marker = self.locate(b, fl.ctx, fl.ts, storage, addr, base, end, size, fl)
        self._store_shadow(b, tracked, at, marker, ir.Constant(ir.VectorType(I1, n), None))

    def _atomic(self, fl, inst, addr, base, end) -> None:
        name, w, b = inst.opname, inst.words, fl.builder
        pointer = w[1] if name in ("OpAtomicStore", "OpAtomicFlagClear") else w[3]
        t = self._type_of(pointer)
        t = t.elem if t is not None else None
        if t is None or t.kind not in ("int", "float"):
            return
        n = self._access_bytes(t)
        tracked, at, marker = self.locate(b, fl.ctx, fl.ts, self._storage(pointer), addr, base, end, _const(n), fl)
        if name in ("OpAtomicStore", "OpAtomicFlagClear"):
            value = self.shadow(fl, w[4]) if name == "OpAtomicStore" else None
            self._store_shadow(b, tracked, at, marker, self._value_bytes(b, value, t))
            return
        old = self.any(b, self._load_shadow(b, tracked, at, marker, n))
        fl.uninit_loaded = (inst, old)
        if name == "OpAtomicLoad":
            return
        value = w[_RMW_VALUE[name]] if name in _RMW_VALUE else (w[7] if "CompareExchange" in name else None)
        new = old if name != "OpAtomicExchange" else None
        if value is not None:
            v = self.any(b, self.shadow(fl, value))
            new = v if new is None else (new if v is None else b.or_(new, v))
        self._store_shadow(b, tracked, at, marker, self._fit(b, new, ir.VectorType(I1, n))
                           if new is not None else ir.Constant(ir.VectorType(I1, n), None))

    def _declare(self, fl, inst) -> None:
        """A private variable's shadow: undefined, or defined by its initializer."""
        w = inst.words
        ptr = fl.values.get(w[2])
        t = self.ml.types[w[1]].elem
        if not isinstance(ptr, Ptr) or ptr.end is None or t is None:
            return
        b = fl.builder
        size = self.ml.types.size(t)
        memset = intrinsic(self.ml.llvm, "llvm.memset", ir.VoidType(), [PTR, I8, I64, I1], overloads=[PTR, I64])
        b.call(memset, [ptr.end, ir.Constant(I8, DEFINED if len(w) > 4 else 0), ir.Constant(I64, size),
                        ir.Constant(I1, 0)])
        if len(w) <= 4:
            # Its bytes start as 0, as Oclgrind's fresh memory does: a launch with this check
            # reads the same (reported) value from an undefined byte every time, not stack garbage.
            b.call(memset, [ptr.base if ptr.base is not None else ptr.addr, ir.Constant(I8, 0), ir.Constant(I64, size),
                            ir.Constant(I1, 0)])

    def byval(self, builder, end, size: int) -> None:
        """A ByVal copy (function.py): defined, as the caller's value was passed."""
        memset = intrinsic(self.ml.llvm, "llvm.memset", ir.VoidType(), [PTR, I8, I64, I1], overloads=[PTR, I64])
        builder.call(memset, [end, ir.Constant(I8, DEFINED), ir.Constant(I64, size), ir.Constant(I1, 0)])

    def _copy(self, fl, inst) -> None:
        """OpCopyMemory(Sized): the target's shadow becomes the source's (memcpy of shadows),
        or defined when the source is not tracked."""
        w = inst.words
        b = fl.builder
        target, source = fl.pointer(w[1]), fl.pointer(w[2])
        if not isinstance(target, Ptr) or not isinstance(source, Ptr) or target.base is None:
            return
        if inst.opname == "OpCopyMemorySized":
            size = fl.value(w[3])
            if size.type.width < 64:
                size = b.zext(size, I64)
        else:
            t = self._type_of(w[1])
            size = ir.Constant(I64, self.ml.types.size(t.elem))
        parts = []
        for ptr, pid in ((target, w[1]), (source, w[2])):
            parts.append(self.locate(b, fl.ctx, fl.ts, self._storage(pid),
                                     b.ptrtoint(ptr.addr, I64), b.ptrtoint(ptr.base, I64),
                                     b.ptrtoint(ptr.end, I64), size, fl))
        (t_ok, t_at, t_mark), (s_ok, s_at, _) = parts
        memmove = intrinsic(self.ml.llvm, "llvm.memmove", ir.VoidType(), [PTR, PTR, I64, I1],
                            overloads=[PTR, PTR, I64])
        memset = intrinsic(self.ml.llvm, "llvm.memset", ir.VoidType(), [PTR, I8, I64, I1], overloads=[PTR, I64])
        with b.if_then(t_ok):
            with b.if_else(s_ok) as (both, only_target):
                with both:
                    b.call(memmove, [b.inttoptr(t_at, PTR), b.inttoptr(s_at, PTR), size, ir.Constant(I1, 0)])
                with only_target:
                    b.call(memset, [b.inttoptr(t_at, PTR), t_mark, size, ir.Constant(I1, 0)])

    def group_copy(self, passes, b, ctx, ts, inst, spv_fn, sides):
        """An async work-group copy: its destination is now defined."""
        addr, base, end, span = sides[0]
        storage = self._storage(inst.words[4])
        tracked, at, marker = self.locate(b, ctx, ts, storage, addr, base, end, span)
        memset = intrinsic(self.ml.llvm, "llvm.memset", ir.VoidType(), [PTR, I8, I64, I1], overloads=[PTR, I64])
        with b.if_then(tracked):
            b.call(memset, [b.inttoptr(at, PTR), marker, span, ir.Constant(I1, 0)])
        return None


def _const(n: int) -> ir.Constant:
    return ir.Constant(I64, n)


def _table(fl) -> dict:
    table = getattr(fl, "uninit_values", None)
    if table is None:
        table = fl.uninit_values = {}
    return table


def _ext_name(inst) -> str | None:
    ext_set = inst.ext_set
    desc = ext_set.by_opcode.get(inst.words[4]) if hasattr(ext_set, "by_opcode") else None
    return desc.opname if desc is not None else None


def _slice(b, vec, offset: int, size: int):
    if offset == 0 and size == vec.type.count:
        return vec
    mask = ir.Constant(ir.VectorType(I32, size), [ir.Constant(I32, offset + i) for i in range(size)])
    return b.shuffle_vector(vec, vec, mask)


def _splice(b, whole, part, offset: int):
    """``whole`` with ``part``'s bytes at ``offset``."""
    n, size = whole.type.count, part.type.count
    if offset == 0 and size == n:
        return part
    wide = b.shuffle_vector(part, part, ir.Constant(ir.VectorType(I32, n),
                                                     [ir.Constant(I32, i if i < size else 0) for i in range(n)]))
    mask = [ir.Constant(I32, n + i - offset if offset <= i < offset + size else i) for i in range(n)]
    return b.shuffle_vector(whole, wide, ir.Constant(ir.VectorType(I32, n), mask))
