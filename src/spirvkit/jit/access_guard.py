"""Group guards: one test per work-group that makes most of its bounds checks unnecessary.

In checked mode every access is tested, per work-item. Most kernels index their buffers with
expressions affine in the local ids (``a[get_global_id(0)]``, ``B[k * N + col]``): base +
cx*lx + cy*ly + cz*lz, whose extremes over a work-group (a box of local ids) follow from the
signs of the coefficients. The guard function computes each such access's byte offset in that
form, in exact 128-bit arithmetic, and is true when its whole range lies inside the access's
buffer; the work-item loops then run
a version of the body in which those accesses are not tested (the others still are). A guard
that fails (a group that really goes out of bounds, or only would on a path it does not take)
costs nothing but the test: that group runs with every check.

Soundness rests on three facts. (1) Each offset the guard evaluates is built only from
additions, subtractions, multiplications by group-invariant values and constant shifts of
the local ids, so it is affine in them and its range is [base + sum of the negative terms
c*(size-1), base + sum of the positive ones]. (2) The machine computes
in 32- or 64-bit wrapping arithmetic; the guard computes the exact value, which is congruent
to the machine's, and checks it lies in range wherever the machine widens it (a sign or zero
extension, a 32-bit GEP index) or uses it as an offset: there the machine value equals the
exact one. Multiplications' operands and results are checked to stay below 2**62 over the
whole group (so their coefficients, times a dimension's extent, do too, and sums of a few such
values stay far below 2**127): 128 bits never overflow. A coefficient of a dimension of
extent 1 is never bounded, but never counts either (it is multiplied by 0). (3) Everything else the offset depends on is fixed while the group (or, in a kernel
with barriers, the region) runs: kernel arguments, the NDRange, module variables' addresses,
values of the group that the region only reads (loaded from their slots when the guard
runs, as the region loads them at entry). A value that reaches the region through the
work-item records is never recomputed from its definition: it may stem from an earlier
iteration of a loop.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import SpirvkitError
from .array_bounds import bounded_indexes
from .function import HANDLERS, I1, I64, FunctionLowering, Ptr
from .types import abi_size, element_offset

I128 = ir.IntType(128)
LIMIT = 1 << 62

# BuiltIns that differ between the work-items of a group (the others are fixed for it).
_ITEM_VECTORS = {"GlobalInvocationId", "LocalInvocationId"}
_ITEM_SCALARS = {"LocalInvocationIndex", "GlobalLinearId"}
# Per work-item, but not affine in the local ids (a remainder or quotient by the sub-group size).
_ITEM_NOT_AFFINE = {"SubgroupLocalInvocationId", "SubgroupId", "SubgroupSize"}

# Group-invariant integer instructions the guard may recompute (no traps: no division).
_RECOMPUTE = {
    "OpIAdd", "OpISub", "OpIMul", "OpSNegate", "OpNot", "OpShiftLeftLogical", "OpShiftRightLogical",
    "OpShiftRightArithmetic", "OpBitwiseAnd", "OpBitwiseOr", "OpBitwiseXor", "OpUConvert", "OpSConvert",
    "OpBitcast", "OpCopyObject", "OpCompositeExtract", "OpSelect", "OpIEqual", "OpINotEqual",
    "OpULessThan", "OpSLessThan", "OpUGreaterThan", "OpSGreaterThan", "OpULessThanEqual",
    "OpSLessThanEqual", "OpUGreaterThanEqual", "OpSGreaterThanEqual",
}
_POINTER_CASTS = {"OpBitcast", "OpCopyObject", "OpPtrCastToGeneric", "OpGenericCastToPtr"}
_CHAINS = {"OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain", "OpInBoundsPtrAccessChain"}


class _NotAffine(Exception):
    """The access's offset is not an affine function of the local ids over group-invariant
    values."""


class _Node:
    """An integer value in the guard: group-invariant (``machine``: the value as the body has
    it) or affine in the local ids (``base``: the exact i128 value at local id (0, 0, 0);
    ``coef``: its coefficients for lx, ly, lz, each a Python int or an i128 value)."""

    __slots__ = ("machine", "base", "coef", "width")

    def __init__(self, width: int, machine=None, base=None, coef=None):
        self.width, self.machine, self.base, self.coef = width, machine, base, coef

    def same_value(self, width: int) -> _Node:
        return _Node(width, self.machine, self.base, self.coef)

    @property
    def varies(self) -> bool:
        return self.machine is None


class AccessGuard:
    """Builds the guard function of one work-item body while that body is lowered.

    ``fn`` takes the body's parameters (without its ``safe`` flag; the local ids and flat
    index it is called with are not used); ``gfl`` lowers group-invariant values into it.
    """

    def __init__(self, ml, gfl: FunctionLowering, fn: ir.Function):
        self.ml, self.gfl, self.fn = ml, gfl, fn
        self.b = gfl.builder
        # The group's extent in each dimension (largest local id): a Python int when the build
        # fixes the local size.
        self.sizes, self.spans = [], []
        for d in range(3):
            fixed = ml.fixed_word("local_size", d)
            if fixed is not None:
                self.sizes.append(fixed.constant)
                self.spans.append(fixed.constant - 1)
            else:
                size = self.b.zext(gfl.thread_word("local_size", d), I128)
                self.sizes.append(size)
                self.spans.append(self.b.sub(size, ir.Constant(I128, 1)))
        self.conds: list[ir.Value] = []
        self.nodes: dict[int, _Node | None] = {}
        self.pointers: dict[int, tuple | None] = {}
        self.params = {p.words[2] for p in gfl.spv_fn.parameters}
        self.td = ml.types.target_data
        self.covered = 0

    # ----- the result -----------------------------------------------------------------------
    def finish(self) -> bool:
        """Ends the guard function; False when it covers no access (then it is not used)."""
        b = self.b
        ok = ir.Constant(I1, 1)
        for cond in self.conds:
            ok = b.and_(ok, cond)
        b.ret(ok)
        return self.covered > 0

    # ----- accesses -------------------------------------------------------------------------
    def cover(self, pointer_id: int, size: int) -> bool:
        """Adds the test that an access of ``size`` bytes through ``pointer_id`` stays in its
        buffer for the whole group; False (and no test) when the guard cannot decide it."""
        if not isinstance(size, int):
            return False
        conds_before, nodes_before, pointers_before = len(self.conds), set(self.nodes), set(self.pointers)
        try:
            found = self._pointer(pointer_id)
            if found is None:
                raise _NotAffine
            ptr, offset = found
            b = self.b
            start = b.sub(b.ptrtoint(ptr.addr, I64), b.ptrtoint(ptr.base, I64))
            length = self._exact(b.sub(b.ptrtoint(ptr.end, I64), b.ptrtoint(ptr.base, I64)))
            room = b.sub(length, ir.Constant(I128, size))
            low, high = self._range(self._add(_Node(64, machine=start), offset))
            self.conds.append(b.icmp_signed(">=", low, ir.Constant(I128, 0)))
            self.conds.append(b.icmp_signed("<=", high, room))
        except (_NotAffine, SpirvkitError, KeyError, IndexError, AttributeError, TypeError):
            # Not provable here (or a shape this evaluator does not know): the access keeps
            # its check. What was emitted into the guard for it is dead code; the values
            # evaluated on the way are forgotten with the range tests they added, so that a
            # later access using them evaluates them (and adds their tests) again.
            del self.conds[conds_before:]
            for memo, before in ((self.nodes, nodes_before), (self.pointers, pointers_before)):
                for key in set(memo) - before:
                    del memo[key]
            return False
        self.covered += 1
        return True

    def _pointer(self, pid: int):
        """(the leaf pointer, its byte offset from that pointer's address as a _Node)."""
        if pid in self.pointers:
            return self.pointers[pid]
        self.pointers[pid] = None          # cycles (pointer phis) are not affine
        result = self._pointer_uncached(pid)
        self.pointers[pid] = result
        return result

    def _pointer_uncached(self, pid: int):
        inst = self.ml.module.definition(pid)
        if inst is None:
            raise _NotAffine
        name = inst.opname
        if self._carried(pid):
            if not self._row_invariant_leaf(pid, inst):
                raise _NotAffine
            return self._leaf_pointer(pid)
        if name in _CHAINS:
            found = self._pointer(inst.words[3])
            if found is None:
                raise _NotAffine
            ptr, offset = found
            return ptr, self._chain_offset(inst, offset)
        if name in _POINTER_CASTS and self._is_pointer(inst.words[3]):
            return self._pointer(inst.words[3])
        if self._row_invariant_leaf(pid, inst):
            return self._leaf_pointer(pid)
        raise _NotAffine

    def _leaf_pointer(self, pid: int):
        value = self.gfl.get(pid)
        if not isinstance(value, Ptr) or value.base is None:
            raise _NotAffine
        return value, _Node(64, machine=ir.Constant(I64, 0))

    def _carried(self, value_id: int) -> bool:
        """A value a region gets from the work-item records (it crossed a barrier): it may
        have been computed from other values than the ones current now (an earlier iteration
        of a loop), so it is never recomputed from its definition, only read as it is."""
        region = self.gfl.region
        return region is not None and value_id in region.layout.values

    def _is_pointer(self, value_id: int) -> bool:
        t = self.ml.module.type_of(value_id)
        return t is not None and self.ml.types[t.result_id].kind == "pointer"

    def _row_invariant_leaf(self, pid: int, inst) -> bool:
        """Kernel parameters, module variables, and values a region only reads."""
        if pid in self.params:
            return True
        if inst.opname == "OpVariable":     # module variables (function ones are per item)
            storage = self.ml.types[inst.words[1]].storage
            if self.ml.shader is not None and storage in ("StorageBuffer", "Uniform", "PushConstant"):
                return True                 # a shader's buffers (shader_interface.py): bound for the launch
            return storage in ("CrossWorkgroup", "Workgroup", "UniformConstant")
        region = self.gfl.region
        if region is not None and pid in region.layout.values:
            slots = region.layout.values[pid]
            return slots[0].uniform and (pid not in region.defined_here or pid in region.layout.next_slots)
        return False

    def _chain_offset(self, inst, offset: _Node) -> _Node:
        ml = self.ml
        base_type = ml.types[ml.module.type_of(inst.words[3]).result_id].elem
        if base_type is None:
            raise _NotAffine
        if ml.shader is not None and ml.shader.descriptors.is_array(inst.words[3]):
            raise _NotAffine   # the first index picks a descriptor of an array (shader_descriptors.py)
        if ml.shader is not None and ml.shader.storage_of(self.gfl, inst.words[3]) in ("StorageBuffer", "Uniform",
                                                                                        "PushConstant"):
            return self._explicit_chain_offset(inst, base_type, offset)
        indices = list(inst.words[4:])
        total = offset
        if inst.opname in ("OpPtrAccessChain", "OpInBoundsPtrAccessChain"):
            total = self._add(total, self._scaled(indices.pop(0), abi_size(base_type.llvm, self.td)))
        # The indexes bounded by their array (array_bounds.py): the body tests them with the
        # allocation's bounds, so the guard proves them too, for the whole group.
        bounded = dict(bounded_indexes(ml, inst))
        first = len(inst.words) - len(indices)
        current = base_type
        for at, index_id in enumerate(indices, start=first):
            if at in bounded:
                self._within(self._index(index_id), 0, bounded[at])
            if current.kind == "struct":
                member = ml.constants.value(index_id)
                step = element_offset(current.llvm, member, self.td)
                total = self._add(total, _Node(64, machine=ir.Constant(I64, step)))
                current = current.members[member]
            elif current.kind in ("array", "vector"):
                total = self._add(total, self._scaled(index_id, abi_size(current.elem.llvm, self.td)))
                current = current.elem
            else:
                raise _NotAffine
        return total

    def _explicit_chain_offset(self, inst, base_type, offset: _Node) -> _Node:
        """A chain into a shader's buffer: the offsets its explicit layout gives (as
        shader_memory.ShaderLowering.access_chain computes them); none through a matrix."""
        from .shader_layout import is_matrix

        layout = self.ml.shader.layout
        total, current = offset, base_type
        for index_id in inst.words[4:]:
            if current.kind == "struct":
                member = self.ml.constants.value(index_id)
                total = self._add(total, _Node(64, machine=ir.Constant(I64, layout.member_offset(current, member))))
                current = current.members[member]
            elif is_matrix(current) or current.kind not in ("array", "vector"):
                raise _NotAffine
            else:
                step = layout.stride(current) if current.kind == "array" else current.elem.width // 8
                total = self._add(total, self._scaled(index_id, step))
                current = current.elem
        return total

    def _scaled(self, index_id: int, stride: int) -> _Node:
        """index * stride, the index sign-extended to 64 bits as the body's GEP does."""
        return self._mul(self._index(index_id), _Node(64, machine=ir.Constant(I64, stride)))

    def _index(self, index_id: int) -> _Node:
        node = self._node(index_id)
        if node.width < 64:
            node = self._extend(node, 64, signed=True)
        return node

    # ----- integer values ---------------------------------------------------------------------
    def _node(self, value_id: int) -> _Node:
        if value_id in self.nodes:
            node = self.nodes[value_id]
            if node is None:
                raise _NotAffine
            return node
        self.nodes[value_id] = None
        node = self._node_uncached(value_id)
        self.nodes[value_id] = node
        if not node.varies and value_id not in self.gfl.values:
            self.gfl.values[value_id] = node.machine   # for instructions recomputed from it
        return node

    def _node_uncached(self, value_id: int) -> _Node:
        ml, gfl = self.ml, self.gfl
        inst = ml.module.definition(value_id)
        if inst is None or inst.result_id != value_id:
            raise _NotAffine
        t = ml.types[inst.words[1]] if inst.opname not in ("OpVariable",) else None
        if t is None or t.kind != "int":
            raise _NotAffine
        width = t.width
        name = inst.opname
        if self._carried(value_id) and not self._row_invariant_leaf(value_id, inst):
            raise _NotAffine
        builtin = self._builtin(inst)
        if builtin is not None:
            return builtin
        if value_id in self.params or self._row_invariant_leaf(value_id, inst) or name in (
                "OpConstant", "OpSpecConstant", "OpConstantNull"):
            return _Node(width, machine=gfl.get(value_id) if value_id not in self.params else gfl.values[value_id])
        if name not in _RECOMPUTE:
            raise _NotAffine
        operands = [u for u in inst.id_operands() if u != inst.words[1]]
        if name == "OpCompositeExtract":
            raise _NotAffine       # only BuiltIn vectors (above) are taken apart here
        if name == "OpSelect":
            if not self._invariant_bool(operands[0]) or any(self._node(u).varies for u in operands[1:]):
                raise _NotAffine
            return self._recompute(inst, width)
        nodes = [self._node(u) for u in operands]
        if not any(n.varies for n in nodes):
            return self._recompute(inst, width)
        if name == "OpIAdd":
            return self._add(*nodes)
        if name == "OpISub":
            return self._add(nodes[0], self._neg(nodes[1]))
        if name == "OpSNegate":
            return self._neg(nodes[0])
        if name == "OpIMul":
            return self._mul(*nodes)
        if name == "OpShiftLeftLogical":
            amount = ml.module.definition(operands[1])
            if amount is None or amount.opname != "OpConstant":
                raise _NotAffine
            shift = ml.constants.value(operands[1])
            if not 0 <= shift < width:
                raise _NotAffine
            return self._mul(nodes[0], _Node(64, machine=ir.Constant(I64, 1 << shift)))
        if name in ("OpUConvert", "OpSConvert"):
            if width > nodes[0].width:
                return self._extend(nodes[0], width, signed=name == "OpSConvert")
            return nodes[0].same_value(width)    # narrowing: congruent
        if name in ("OpBitcast", "OpCopyObject"):
            return nodes[0].same_value(width)
        if name == "OpBitwiseAnd":
            return self._masked(operands, nodes)
        if name == "OpBitwiseOr":
            return self._disjoint_or(operands, nodes)
        raise _NotAffine

    def _disjoint_or(self, operands, nodes) -> _Node:
        """x | c for a constant c < 2**k, compilers' 2*i + 1 (``(i << 1) | 1``): x + c when x is
        a multiple of 2**k over the whole group (no bit of c meets one of x), which holds when
        x's base and coefficients are multiples of 2**k: the guard checks that. (The machine's
        low k bits of x are the exact value's, so the machine's x | c stays congruent to x + c.)"""
        varying, const_id = (nodes[0], operands[1]) if nodes[0].varies else (nodes[1], operands[0])
        const_def = self.ml.module.definition(const_id)
        if const_def is None or const_def.opname != "OpConstant":
            raise _NotAffine
        c = self.ml.constants.value(const_id) % (1 << varying.width)
        if c >= 1 << (varying.width - 1):
            raise _NotAffine
        mask = (1 << c.bit_length()) - 1
        b = self.b
        for coef in varying.coef:
            if isinstance(coef, int):
                if coef & mask:
                    raise _NotAffine
            else:
                self.conds.append(b.icmp_unsigned("==", b.and_(coef, ir.Constant(I128, mask)), ir.Constant(I128, 0)))
        self.conds.append(b.icmp_unsigned("==", b.and_(varying.base, ir.Constant(I128, mask)), ir.Constant(I128, 0)))
        return self._add(varying, _Node(varying.width, machine=ir.Constant(ir.IntType(varying.width), c)))

    def _masked(self, operands, nodes) -> _Node:
        """x & (2**k - 1), compilers' zero extension of a narrower value (clang writes
        (size_t)(uint)gid so): x itself when x is in [0, 2**k), which the guard checks."""
        varying, mask_id = (nodes[0], operands[1]) if nodes[0].varies else (nodes[1], operands[0])
        mask_def = self.ml.module.definition(mask_id)
        if mask_def is None or mask_def.opname != "OpConstant":
            raise _NotAffine
        mask = self.ml.constants.value(mask_id) % (1 << varying.width)
        if mask == 0 or mask & (mask + 1):
            raise _NotAffine
        self._within(varying, 0, mask + 1)
        return varying.same_value(varying.width)

    def _invariant_bool(self, value_id: int) -> bool:
        """A select's condition, recomputed when row-invariant (a scalar comparison of
        row-invariant integers)."""
        t = self.ml.module.type_of(value_id)
        inst = self.ml.module.definition(value_id)
        if t is None or self.ml.types[t.result_id].kind != "bool" or inst.opname not in _RECOMPUTE:
            return False
        operands = [u for u in inst.id_operands() if u != inst.words[1]]
        try:
            if any(self._node(u).varies for u in operands):
                return False
        except _NotAffine:
            return False
        self._recompute(inst, 1)
        return True

    def _builtin(self, inst):
        """A component of a BuiltIn input: affine in the local ids when it depends on them."""
        from . import builtins

        ml, gfl = self.ml, self.gfl
        if inst.opname == "OpCompositeExtract" and len(inst.words) == 5:
            source = ml.module.definition(inst.words[3])
            if source is None or source.opname != "OpLoad" or source.words[3] not in ml.builtins:
                return None
            name, component = ml.builtins[source.words[3]], inst.words[4]
        elif inst.opname == "OpLoad" and inst.words[3] in ml.builtins:
            name, component = ml.builtins[inst.words[3]], None
        elif inst.opname == "OpLoad":
            chain = ml.module.definition(inst.words[3])
            if chain is None or chain.opname not in _CHAINS or len(chain.words) != 5 or chain.words[3] not in ml.builtins:
                return None
            index = ml.module.definition(chain.words[4])
            if index is None or index.opname != "OpConstant":
                raise _NotAffine
            name, component = ml.builtins[chain.words[3]], ml.constants.value(chain.words[4])
        else:
            return None
        t = ml.types[inst.words[1]]
        if t.kind != "int" or name in _ITEM_NOT_AFFINE:
            raise _NotAffine
        varies = (name in _ITEM_VECTORS and component is not None) or (name in _ITEM_SCALARS and component is None)
        if not varies:
            index = None if component is None else ir.Constant(I64, component)
            return _Node(t.width, machine=builtins.load(gfl, builtins.BuiltinPtr(name, index), t))
        saved = gfl.lx, gfl.ly, gfl.lz
        try:
            gfl.lx = gfl.ly = gfl.lz = ir.Constant(I64, 0)
            wide = builtins._vector3(gfl, name)[component] if component is not None else builtins._scalar(gfl, name)
        finally:
            gfl.lx, gfl.ly, gfl.lz = saved
        base = self.b.zext(wide, I128)      # ids and sizes are below 2**63
        if component is not None:           # a component of a global or local id
            coef = [int(d == component) for d in range(3)]
        elif name == "GlobalLinearId":      # ((gz - oz) * gsy + (gy - oy)) * gsx + (gx - ox)
            gsx, gsy = (self.b.zext(gfl.context_word("global_size", d), I128) for d in range(2))
            coef = [1, gsx, self.b.mul(gsx, gsy)]
        else:                               # the local linear id
            coef = [1, self.sizes[0], self._times(self.sizes[0], self.sizes[1])]
        return _Node(t.width, base=base, coef=coef)

    def _recompute(self, inst, width: int) -> _Node:
        """A row-invariant value, lowered into the guard as the body lowers it."""
        gfl = self.gfl
        HANDLERS[inst.opcode](gfl, inst)
        value = gfl.values[inst.result_id]
        return _Node(width, machine=value)

    # ----- exact arithmetic -------------------------------------------------------------------
    def _exact(self, machine: ir.Value) -> ir.Value:
        """A machine value as an exact number (one representative of its residue: signed)."""
        return self.b.sext(machine, I128) if machine.type.width < 128 else machine

    def _value(self, x) -> ir.Value:
        return ir.Constant(I128, x) if isinstance(x, int) else x

    def _plus(self, x, y):
        if isinstance(x, int) and isinstance(y, int):
            return x + y
        if x == 0 or y == 0:
            return y if x == 0 else x
        return self.b.add(self._value(x), self._value(y))

    def _times(self, x, y):
        if isinstance(x, int) and isinstance(y, int):
            return x * y
        if x == 0 or y == 0:
            return 0
        if x == 1 or y == 1:
            return y if x == 1 else x
        return self.b.mul(self._value(x), self._value(y))

    def _affine(self, node: _Node) -> tuple:
        """(base, coefficients) of a node, a group-invariant one too."""
        if node.varies:
            return node.base, node.coef
        return self._exact(node.machine), [0, 0, 0]

    def _range(self, node: _Node) -> tuple[ir.Value, ir.Value]:
        """The least and greatest exact value of an affine node over the group."""
        b = self.b
        base, coef = self._affine(node)
        low = high = base
        for c, span in zip(coef, self.spans):
            term = self._times(c, span)
            if isinstance(term, int):
                if term < 0:
                    low = b.add(low, self._value(term))
                elif term > 0:
                    high = b.add(high, self._value(term))
                continue
            negative = b.icmp_signed("<", term, ir.Constant(I128, 0))
            low = b.add(low, b.select(negative, term, ir.Constant(I128, 0)))
            high = b.add(high, b.select(negative, ir.Constant(I128, 0), term))
        return low, high

    def _within(self, node: _Node, low: int, end: int) -> None:
        """Requires every value of the node over the group to lie in [low, end)."""
        b = self.b
        least, greatest = self._range(node)
        self.conds.append(b.icmp_signed(">=", least, ir.Constant(I128, low)))
        self.conds.append(b.icmp_signed("<", greatest, ir.Constant(I128, end)))

    def _bounded(self, node: _Node) -> _Node:
        """Requires |value| < 2**62 over the group: the operand and the result of each
        multiplication (see the module's notes on overflow)."""
        self._within(node, -LIMIT + 1, LIMIT)
        return node

    def _add(self, a: _Node, c: _Node) -> _Node:
        width = max(a.width, c.width)
        if not a.varies and not c.varies:
            return _Node(width, machine=self.b.add(self._widen(a.machine, width), self._widen(c.machine, width)))
        (a0, ac), (c0, cc) = self._affine(a), self._affine(c)
        return _Node(width, base=self.b.add(a0, c0), coef=[self._plus(x, y) for x, y in zip(ac, cc)])

    def _neg(self, a: _Node) -> _Node:
        if not a.varies:
            return _Node(a.width, machine=self.b.neg(a.machine))
        return _Node(a.width, base=self.b.neg(a.base), coef=[self._times(x, -1) for x in a.coef])

    def _mul(self, a: _Node, c: _Node) -> _Node:
        if a.varies and c.varies:
            raise _NotAffine
        width = max(a.width, c.width)
        if not a.varies and not c.varies:
            return _Node(width, machine=self.b.mul(self._widen(a.machine, width), self._widen(c.machine, width)))
        varying = self._bounded(a if a.varies else c)
        factor = (c if a.varies else a).machine
        if isinstance(factor, ir.Constant) and isinstance(factor.constant, int):
            bits = factor.type.width            # a constant: its signed value, foldable
            m = factor.constant % (1 << bits)
            m = m - (1 << bits) if m >> (bits - 1) else m
        else:
            m = self._exact(factor)
        product = _Node(width, base=self.b.mul(varying.base, self._value(m)),
                        coef=[self._times(x, m) for x in varying.coef])
        return self._bounded(product)

    def _widen(self, value: ir.Value, width: int) -> ir.Value:
        # Only reached for operands of one SPIR-V instruction's type, or GEP arithmetic on
        # values already extended to 64 bits.
        return value if value.type.width == width else self.b.sext(value, ir.IntType(width))

    def _extend(self, node: _Node, width: int, signed: bool) -> _Node:
        """A widening conversion: the machine keeps the exact value only if it fits the
        source width (checked over the whole group)."""
        b = self.b
        if not node.varies:
            extend = b.sext if signed else b.zext
            return _Node(width, machine=extend(node.machine, ir.IntType(width)))
        low, end = (-(1 << (node.width - 1)), 1 << (node.width - 1)) if signed else (0, 1 << node.width)
        self._within(node, low, end)
        return node.same_value(width)


def new_guard(ml, spv_fn, fn_type, name: str, extra_types=()) -> tuple[AccessGuard, list]:
    """A guard function for a work-item body with the body's parameters (the hidden ones,
    ``extra_types``, the kernel's), without its ``safe`` flag; returns the guard and the
    guard function's ``extra_types`` arguments."""
    from .lowering import mark_launch_state

    fn = ir.Function(ml.llvm, ir.FunctionType(I1, ml.signature(fn_type, extra_types)), name=name)
    fn.linkage = "internal"
    mark_launch_state(fn)
    args = list(fn.args)
    extra_end = 6 + len(extra_types)
    gfl = FunctionLowering(ml, spv_fn, fn, args[:6], ml.split_params(fn_type.params, args[extra_end:]))
    gfl.builder = gfl.alloca_builder = ir.IRBuilder(fn.append_basic_block("entry"))
    gfl.bind_params()
    return AccessGuard(ml, gfl, fn), args[6:extra_end]


def wants_guards(ml) -> bool:
    """Group guards pay off in the fast checked mode only (report mode re-runs one group), and
    only when the compile asks for them (see compiler.lower_kernel)."""
    return ml.checked and not ml.report_faults and ml.guards
