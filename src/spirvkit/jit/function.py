"""Lowering one SPIR-V function body to LLVM IR: values, blocks, control flow and calls.

The instruction families live in their own modules (``ops_*.py``) and register their handlers
in :data:`HANDLERS`; this module owns what every family relies on: the value map, pointers with
their bounds, block ordering, phis, and the fault and abort paths.

Every lowered function takes six hidden leading parameters: the launch context, the thread
state, the work-item's local id (x, y, z) and the address of the fault flag (checked mode). In checked mode a pointer is carried as a
:class:`Ptr` of three LLVM values (address, region base, region end), so every access can be
checked against the buffer the pointer was derived from.
"""

from __future__ import annotations

import contextlib
from typing import Callable

from llvmlite import ir

from ..errors import NotSupportedError
from ..spirv.binary import Instruction
from ..spirv.module import Function
from ..spirv.names import OP
from .abi import CONTEXT, THREAD
from .types import SpvType

I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()

HANDLERS: dict[int, Callable] = {}


def handles(*opnames: str):
    """Registers the decorated function as the lowering of the named opcodes."""
    from ..spirv.grammar import load_grammar

    grammar = load_grammar()

    def register(fn):
        for name in opnames:
            HANDLERS[grammar.by_name[name].opcode] = fn
        return fn

    return register


class Ptr:
    """A pointer value: its address and, when checking, the [base, end) of its region."""

    __slots__ = ("addr", "base", "end")

    def __init__(self, addr: ir.Value, base: ir.Value | None = None, end: ir.Value | None = None):
        self.addr, self.base, self.end = addr, base, end

    def moved(self, addr: ir.Value) -> Ptr:
        return Ptr(addr, self.base, self.end)


class BuiltinPtr:
    """A pointer into a BuiltIn input variable (or one component of it)."""

    __slots__ = ("builtin", "index")

    def __init__(self, builtin: str, index: ir.Value | None = None):
        self.builtin, self.index = builtin, index

    def __getattr__(self, name: str):
        # A BuiltIn input is a launch-state word, not memory: beyond OpLoad, access chains and
        # copies it has no address to convert, compare, select or store (grammar-fuzz mutants
        # took OpConvertPtrToU of one, and selected and stored one), so whatever asks for a
        # pointer's parts (addr, base, end, its LLVM type) gets this error.
        raise NotSupportedError(f"using the address of a BuiltIn variable ({self.builtin}) as a value")


class FunctionLowering:
    """Lowers the body of one SPIR-V function into an LLVM function (or inline into another)."""

    def __init__(self, ml, spv_fn: Function, llvm_fn: ir.Function, hidden: list[ir.Value],
                 params: list):
        self.ml = ml                      # the ModuleLowering: types, constants, functions
        self.types = ml.types
        self.checked = ml.checked
        self.spv_fn = spv_fn
        self.fn = llvm_fn
        self.ctx, self.ts, self.lx, self.ly, self.lz, self.flag = hidden
        self.params = params              # lowered values of the SPIR-V parameters
        self.values: dict[int, object] = {}
        self.blocks: dict[int, ir.Block] = {}
        self.block_end: dict[int, ir.Block] = {}   # SPIR-V label -> LLVM block ending it
        self.pending_phis: list[tuple[Instruction, list]] = []
        self.order: list = []
        self.builder: ir.IRBuilder | None = None
        self.alloca_builder: ir.IRBuilder | None = None
        self.return_block: ir.Block | None = None
        self.return_phis: list | None = None
        self.current: Instruction | None = None
        self.pointer_shadows: dict[int, tuple] = {}  # private pointer-holding variables
        self.aggregate_shadows: dict = {}   # private structs/arrays holding pointers (private_shadows)
        self.value_shadows: dict[int, dict] = {}   # their whole values' pointer bounds, by byte offset
        self.region = None                # RegionState when lowering one region of a kernel
        self.guard = None                 # AccessGuard of a work-item body with a row guard
        self.safe = None                  # that body's flag: the row guard held (i1)

    # ----- values ---------------------------------------------------------------------------
    def set(self, result_id: int, value) -> None:
        self.values[result_id] = value

    def get(self, value_id: int):
        """The lowered value of an id: a local result, a parameter, or a module-level value."""
        if self.region is not None:
            if value_id in self.region.layout.values:
                return self.region.value(self, value_id)   # lives across a barrier
            if value_id in self.region.layout.invariant:
                return self.region.invariant(self, value_id)   # the same in every region
        value = self.values.get(value_id)
        if value is None:
            value = self.ml.global_value(value_id, self)
        return value

    def value(self, value_id: int) -> ir.Value:
        """The value of an id as one LLVM value (a pointer gives its address)."""
        v = self.get(value_id)
        if isinstance(v, (Ptr, BuiltinPtr)):
            return v.addr
        return v

    def pointer(self, value_id: int):
        v = self.get(value_id)
        if isinstance(v, (Ptr, BuiltinPtr)):
            return v
        return self.ptr_from_address(v)

    def type(self, type_id: int) -> SpvType:
        return self.types[type_id]

    def ptr_from_address(self, addr: ir.Value) -> Ptr:
        """A pointer whose provenance is lost (loaded from memory, made from an integer): in
        checked mode its region is found by searching the launch's region table."""
        if addr.type != PTR:
            addr = self.builder.inttoptr(addr, PTR)
        if not self.checked:
            return Ptr(addr)
        region = self.builder.call(self.ml.runtime("find_region"), [self.ctx, self.ts, addr])
        return Ptr(addr, self.builder.extract_value(region, 0), self.builder.extract_value(region, 1))

    def bind_params(self) -> None:
        byval = {inst.words[2] for inst in self.spv_fn.parameters
                 if any(d.name == "FuncParamAttr" and d.operands[0] == 2
                        for d in self.ml.module.decorations(inst.words[2]))}
        for inst, value in zip(self.spv_fn.parameters, self.params):
            pid = inst.words[2]
            if pid in byval and isinstance(value, Ptr):
                value = self._byval_copy(value, self.types[inst.words[1]].elem)
            self.values[pid] = value

    def _byval_copy(self, source: Ptr, pointee: SpvType) -> Ptr:
        """A ByVal parameter: the callee works on its own copy of the pointed-to value."""
        from .intrinsics import intrinsic, opaque_alloca

        ab = self.alloca_builder
        size = self.types.size(pointee)
        from .check_uninit import doubled

        slot = opaque_alloca(ab, doubled(self.ml, pointee.llvm), max(self.types.align(pointee), 8))
        memcpy = intrinsic(self.ml.llvm, "llvm.memcpy", ir.VoidType(), [PTR, PTR, I64, I1], overloads=[PTR, PTR, I64])
        ab.call(memcpy, [slot, source.addr, ir.Constant(I64, size), ir.Constant(I1, 0)])
        if not self.checked:
            return Ptr(slot)
        end = ab.gep(slot, [ir.Constant(I64, size)], source_etype=I8)
        if self.ml.check_passes is not None and self.ml.check_passes.uninit is not None:
            self.ml.check_passes.uninit.byval(ab, end, size)
        return Ptr(slot, slot, end)

    def builder_at_entry(self) -> ir.IRBuilder:
        """A builder in the function's entry block, for values every block may use."""
        return self.alloca_builder

    # ----- context fields -------------------------------------------------------------------
    def context_word(self, name: str, index: int = 0, builder=None, typ=I64) -> ir.Value:
        return self._launch_word(self.ctx, CONTEXT, name, index, builder, typ)

    def thread_word(self, name: str, index: int = 0, builder=None, typ=I64) -> ir.Value:
        return self._launch_word(self.ts, THREAD, name, index, builder, typ)

    def _launch_word(self, base, layout: dict, name: str, index: int, builder, typ) -> ir.Value:
        """A word of the launch context or thread state, or the constant this compilation
        fixes it to (the local size of a per-local-size build)."""
        fixed = self.ml.fixed_word(name, index)
        if fixed is not None:
            return fixed
        b = builder or self.builder
        slot = b.gep(base, [ir.Constant(I64, layout[name] + index)], source_etype=I64)
        return b.load(slot, typ=typ)

    # ----- lowering driver ------------------------------------------------------------------
    def lower_body(self, entry: ir.Block, alloca_block: ir.Block) -> None:
        """Lowers all blocks; ``entry`` is where control enters the body."""
        spv_blocks = self.spv_fn.blocks
        for b in spv_blocks:
            self.blocks[b.id] = self.fn.append_basic_block(f"b{b.id}")
        self.order = reverse_postorder(spv_blocks)
        self.rank = {b.id: i for i, b in enumerate(self.order)}
        self.builder = ir.IRBuilder(entry)
        self.builder.branch(self.blocks[spv_blocks[0].id])
        if self.alloca_builder is None:
            self.alloca_builder = ir.IRBuilder(alloca_block)
        if self.alloca_builder.block is entry:
            self.alloca_builder.position_before(entry.terminator)
        for b in self.order:
            self.builder.position_at_end(self.blocks[b.id])
            self.current_label = b.id
            self.current_rank = self.rank[b.id]
            self.lower_instructions(b.instructions)
        # Blocks unreachable from the entry are never lowered: give them a terminator.
        for b in spv_blocks:
            llvm_block = self.blocks[b.id]
            if llvm_block.terminator is None and b.id not in self.rank:
                ir.IRBuilder(llvm_block).unreachable()
        self.fill_phis()

    def lower_instructions(self, instructions) -> None:
        region = self.region
        for inst in instructions:
            self.current = inst
            if region is not None and region.pending_stores and inst.opcode != 245:
                self._store_region_values()   # after the block's phis, which must stay first
            if region is not None and inst.offset in region.layout.collective_inputs:
                region.collective(self, inst)   # leaves the operands; the region ends here
                break
            handler = HANDLERS.get(inst.opcode)
            if handler is None:
                raise NotSupportedError(f"{inst.opname} (word {inst.offset})")
            uninit = self.ml.check_passes.uninit if self.ml.check_passes is not None else None
            if uninit is not None:       # the uninitialized check follows values (check_uninit.py)
                uninit.before(self, inst)
            handler(self, inst)
            if uninit is not None:
                uninit.after(self, inst)
            if region is not None:
                rid = inst.result_id
                if rid is not None and rid in region.layout.values:
                    region.pending_stores.append(rid)
                    if inst.opcode != OP.Phi:
                        self._store_region_values()
                if self.builder.block.terminator is not None and inst.opcode == OP.ControlBarrier:
                    break    # a barrier ends the region here

    def _store_region_values(self) -> None:
        region = self.region
        pending, region.pending_stores = region.pending_stores, []
        for rid in pending:
            region.store(self, rid, self.values[rid])

    def tag(self, inst) -> None:
        """Marks a plain load or store as a member of the work-item loops' access group."""
        inst.set_metadata("llvm.access.group", self.ml.access_group)

    def end_block(self) -> None:
        """Records the LLVM block that ends the current SPIR-V block (phi predecessors)."""
        self.block_end[self.current_label] = self.builder.block

    def fill_phis(self) -> None:
        for inst, phis in self.pending_phis:
            w = inst.words
            for i in range(3, len(w) - 1, 2):
                label = w[i + 1]
                pred = self.block_end.get(label)
                if pred is None:
                    continue  # an unreachable predecessor
                self.builder.position_before(pred.terminator)   # where a reload would go
                incoming = self.get(w[i])
                parts = incoming_parts(incoming, len(phis), self, pred)
                for phi, part in zip(phis, parts):
                    phi.add_incoming(part, pred)
        if self.ml.check_passes is not None and self.ml.check_passes.uninit is not None:
            self.ml.check_passes.uninit.finish(self)   # its shadow phis (check_uninit.py)

    # ----- checks ---------------------------------------------------------------------------
    def site(self, kind: str) -> int:
        return self.ml.site(self.current, kind, self.spv_fn)

    def check_access(self, ptr: Ptr, size: ir.Value | int, kind: str, pointer_id: int | None = None,
                     align: int | None = None) -> None:
        """Branches to the fault path unless [addr, addr+size) lies in ptr's region. After the
        call the builder is on the in-bounds path; the caller emits the access there and must
        call :meth:`join_access` to merge with the faulted path. ``pointer_id``: the SPIR-V
        pointer, when the access is a plain load or store through it (see access_guard).
        ``align``: the alignment the instruction may assume, which the pointers check tests
        (check_pointers.stated_alignment; None: an atomic's is its size, others have none)."""
        if isinstance(ptr, BuiltinPtr):   # (BuiltIn inputs are values, read with OpLoad, not memory)
            raise NotSupportedError(f"the BuiltIn variable {ptr.builtin} used as memory ({kind})")
        b = self.builder
        if isinstance(size, int):
            size = ir.Constant(I64, size)
        addr = b.ptrtoint(ptr.addr, I64)
        base = b.ptrtoint(ptr.base, I64)
        end = b.ptrtoint(ptr.end, I64)
        # In bounds iff the offset from the base is at most (length - size), as unsigned numbers:
        # an address below the base wraps to a huge offset. The length test does not depend on
        # the address, so LLVM hoists it; what is left per access is one subtract and one
        # compare, on the index itself once addr and base share their origin.
        offset = b.sub(addr, base)
        length = b.sub(end, base)
        fits = b.icmp_unsigned(">=", length, size)
        ok = b.and_(b.icmp_unsigned("<=", offset, b.sub(length, size)), fits)
        provable = True
        narrow = getattr(ptr, "narrow", None)    # made by indexing an array: its own bounds too
        if narrow is not None:                   # (jit/array_bounds.py)
            ok, provable = narrow(self, addr, size, kind, ok)
        if provable and self.guard is not None and pointer_id is not None and \
                self.guard.cover(pointer_id, size.constant):
            ok = b.or_(ok, self.safe)   # the row guard proved it: no test in the guarded loop
        passes = self.ml.check_passes   # checks beyond bounds (jit/check_passes.py): a finding
        claimed = passes.access(self, ptr, addr, base, end, size, kind, align) if passes is not None else None
        if claimed is not None:         # skips the access and is not a bounds fault
            ok = b.and_(ok, b.not_(claimed))
        ok_block = self.fn.append_basic_block("in_bounds")
        bad_block = self.fn.append_basic_block("fault")
        join = self.fn.append_basic_block("access_done")
        if not self.ml.report_faults:
            # Fast checked mode: only raise the thread's fault flag (no call on the path, so the
            # work-item loop still vectorises, with masked accesses). The runtime re-runs the
            # faulting group in report mode to say exactly where.
            raised = b.load(self.flag, typ=I8)
            bad = b.not_(ok) if claimed is None else b.and_(b.not_(ok), b.not_(claimed))
            flag = b.or_(raised, b.zext(bad, I8))
            b.store(flag, self.flag)
        branch = b.cbranch(ok, ok_block, bad_block)
        branch.set_weights([1 << 20, 1])
        b.position_at_end(bad_block)
        if self.ml.report_faults:
            with b.if_then(b.not_(claimed)) if claimed is not None else contextlib.nullcontext():
                b.call(self.ml.runtime("fault"), [self.ctx, self.ts, self.lx, self.ly, self.lz,
                                                  ir.Constant(I64, self.site(kind)), addr, base, end, size])
        self._access = (b.block, join)   # (the if_then above split the fault path: its last block)
        b.branch(join)
        b.position_at_end(ok_block)

    def join_access(self, value: ir.Value | None = None, fallback: ir.Value | None = None):
        """Ends a checked access started by :meth:`check_access`; returns the loaded value (or
        ``fallback`` on the faulted path, which only runs once the launch is already failing)."""
        bad_block, join = self._access
        b = self.builder
        done = b.block
        b.branch(join)
        b.position_at_end(join)
        if value is None:
            return None
        phi = b.phi(value.type)
        phi.add_incoming(value, done)
        phi.add_incoming(fallback if fallback is not None else ir.Constant(value.type, None), bad_block)
        return phi

    def poll_abort(self) -> None:
        """Leaves the function if the launch was aborted (fault, timeout, Ctrl-C): emitted on
        loop back edges so no work-item can spin forever."""
        b = self.builder
        slot = b.gep(self.ctx, [ir.Constant(I64, CONTEXT["abort"])], source_etype=I64)
        flag = b.load_atomic(slot, "monotonic", 8, typ=I64)
        stop = b.icmp_unsigned("!=", flag, ir.Constant(I64, 0))
        go_on = self.fn.append_basic_block("continue")
        leave = self.fn.append_basic_block("abort")
        branch = b.cbranch(stop, leave, go_on)
        branch.set_weights([1, 1 << 20])
        b.position_at_end(leave)
        self.emit_return(None, aborting=True)
        b.position_at_end(go_on)

    def is_back_edge(self, target: int) -> bool:
        return self.rank.get(target, 1 << 30) <= self.current_rank

    # ----- returns --------------------------------------------------------------------------
    def emit_return(self, value, aborting: bool = False) -> None:
        """Returns from the SPIR-V function. ``value`` is None for OpReturn or an abort."""
        b = self.builder
        if self.region is not None:                  # a region: the work-item is done
            b.ret(ir.Constant(I32, 0xFFFFFFFF))
            return
        if self.return_block is not None:           # inlined body: jump to exit
            if self.return_phis:
                parts = (incoming_parts(value, len(self.return_phis), self, b.block) if value is not None
                         else [ir.Constant(p.type, None) for p in self.return_phis])
                for phi, part in zip(self.return_phis, parts):
                    phi.add_incoming(part, b.block)
            b.branch(self.return_block)
            return
        ret_type = self.fn.function_type.return_type
        if isinstance(ret_type, ir.VoidType):
            b.ret_void()
        elif value is None:
            b.ret(ir.Constant(ret_type, None))
        elif isinstance(value, Ptr):
            if self.checked:
                agg = ir.Constant(ret_type, None)
                for i, part in enumerate((value.addr, value.base, value.end)):
                    agg = b.insert_value(agg, part, i)
                b.ret(agg)
            else:
                b.ret(value.addr)
        else:
            b.ret(value)


def incoming_parts(value, count: int, fl: FunctionLowering, pred: ir.Block) -> list[ir.Value]:
    """The LLVM values a (possibly pointer) value contributes to ``count`` phis."""
    if count == 1:
        return [value.addr if isinstance(value, (Ptr, BuiltinPtr)) else value]
    if isinstance(value, BuiltinPtr):
        return [value.addr]   # (not supported: raises)
    if isinstance(value, Ptr):
        if value.base is None:   # an undef/null pointer constant: no region
            null = ir.Constant(PTR, None)
            return [value.addr, null, null]
        return [value.addr, value.base, value.end]
    null = ir.Constant(PTR, None)
    if isinstance(value, ir.Constant):   # OpUndef / OpConstantNull pointer
        return [value, null, null]
    raise NotSupportedError(f"pointer phi operand {value!r}")


def reverse_postorder(blocks) -> list:
    """Blocks in reverse postorder from the first: every block after its dominators, so
    definitions are lowered before their uses even when the binary orders blocks otherwise."""
    by_id = {b.id: b for b in blocks}
    seen, post = set(), []
    stack = [(blocks[0], iter(successors(blocks[0])))]
    seen.add(blocks[0].id)
    while stack:
        block, succ = stack[-1]
        for s in succ:
            if s not in seen and s in by_id:
                seen.add(s)
                stack.append((by_id[s], iter(successors(by_id[s]))))
                break
        else:
            post.append(block)
            stack.pop()
    post.reverse()
    return post


_OP_BRANCH, _OP_BRANCH_CONDITIONAL, _OP_SWITCH = 249, 250, 251


def successors(block) -> list[int]:
    term = block.terminator
    if term is None:
        return []
    w = term.words
    if term.opcode == _OP_BRANCH:
        return [w[1]]
    if term.opcode == _OP_BRANCH_CONDITIONAL:
        return [w[2], w[3]]
    if term.opcode == _OP_SWITCH:
        step = term.operands[2].count + 1 if len(term.operands) > 2 else 2
        return [w[2]] + [w[i + step - 1] for i in range(3, len(w), step)]
    return []
