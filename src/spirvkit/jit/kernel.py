"""Kernel entry code: the argument block, the work-group function and the launch driver.

A kernel without barriers becomes a loop nest over the work-items of a group that calls the
(inlined) kernel body, which LLVM can unroll and vectorise. A kernel with barriers (or
collectives, async copies, group pipe reservations; those in called functions are inlined into
it first, see inline_sync.py) is split into regions between barriers, each run by a work-item
loop (regions.py); so is a kernel whose inner loops are worth turning inside out (loop_cuts.py).
The work-items' records between regions live in an arena in the thread state.

Exported symbol: ``spirvkit_run(ctx, ts)`` takes work-groups from the context's dispenser until
none is left or the launch aborts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from llvmlite import ir

from ..errors import NotSupportedError
from ..spirv.names import OP
from .abi import ABORT_FAULT, CONTEXT, THREAD
from .function import I1, I8, I64, PTR, FunctionLowering
from .launch_words import load_pointer as _load_pointer, load_word as _load_word, word as _word
from .loops import CountedLoop as _counted_loop
from .lowering import mark_launch_state
from .types import SpvType

RUN_SYMBOL = "spirvkit_run"




@dataclass
class ArgSlot:
    """Where a kernel argument sits in the argument block, and what kind it is."""

    index: int
    name: str
    kind: str              # 'buffer' (global/constant/generic pointer), 'local', 'value', 'byval',
                           # 'image' (descriptor address), 'sampler' (sampler_t bits), 'pipe'
                           # (descriptor address; size: its packet size)
    storage: str           # pointer storage class ('' for values)
    offset: int            # byte offset in the argument block
    size: int              # bytes in the block (values), pointee size (pointers)
    type_id: int

    def to_json(self) -> dict:
        return self.__dict__.copy()


def arg_layout(ml, spv_fn) -> tuple[list[ArgSlot], int]:
    """The argument block layout of a kernel: slots and total size."""
    slots, at = [], 0
    fn_type = ml.types[spv_fn.function_type]
    for i, (param, t) in enumerate(zip(spv_fn.parameters, fn_type.params)):
        name = ml.module.name(param.words[2]) or f"arg{i}"
        byval = t.kind == "pointer" and _is_byval(ml.module, param.words[2])
        if byval:
            # A struct passed by value: compilers hand the kernel a pointer to a private copy.
            kind, size, align = "byval", ml.types.size(t.elem), max(ml.types.align(t.elem), 8)
            slot_bytes = size
        elif t.kind == "pointer":
            if t.storage == "Workgroup":
                kind, size, align, slot_bytes = "local", 0, 8, 16
            elif t.storage in ("CrossWorkgroup", "UniformConstant", "Generic"):
                kind, size, align, slot_bytes = "buffer", 0, 8, 24
            else:
                raise NotSupportedError(f"kernel parameter {name} is a pointer to {t.storage} memory")
            if t.elem is not None and t.elem.kind not in ("void", "opaque", "function"):
                size = ml.types.size(t.elem)
        elif t.kind in ("int", "float", "vector", "struct", "array", "bool"):
            kind, size, align = "value", ml.types.size(t), ml.types.align(t)
            slot_bytes = size
        elif t.kind in ("image", "sampler"):
            # An image: the address of its descriptor; a sampler: its sampler_t bits (the
            # slot is loaded as the type's LLVM value, like a by-value argument).
            kind, size, align, slot_bytes = t.kind, 8, 8, 8
        elif t.kind == "pipe":
            # The address of its descriptor; size: the packet size the kernel's pipe
            # instructions use (0: none uses it), checked against the argument at launch.
            from .ops_pipe import packet_sizes

            sizes = {size for size, _ in packet_sizes(ml.module, spv_fn)[i]}
            kind, size, align, slot_bytes = "pipe", sizes.pop() if len(sizes) == 1 else 0, 8, 8
        elif t.kind == "opaque" and t.name == "OpTypeQueue":
            # queue_t: the address of the launch's device queue descriptor, as get_default_queue
            # gives (runtime/queue_arg.py).
            kind, size, align, slot_bytes = "queue", 8, 8, 8
        else:
            raise NotSupportedError(f"kernel parameter {name} of type {t.kind} {t.name}".rstrip())
        at = (at + align - 1) // align * align
        slots.append(ArgSlot(i, name, kind, t.storage if t.kind == "pointer" and not byval else "", at, size,
                             t.elem.id if byval else t.id))
        at += slot_bytes
    return slots, (at + 15) // 16 * 16


def _unwrap(spv_functions: dict, fn):
    """The function that does the work: llvm-spirv makes each kernel's entry point a wrapper
    that only calls the kernel's body with its own parameters. Looking through it lets a body
    with barriers be split into regions (the wrapper's call would otherwise be one)."""
    if len(fn.blocks) != 1:
        return fn
    insts = [i for i in fn.blocks[0].instructions if i.opcode not in (8, 317)]   # OpLine, OpNoLine
    if len(insts) != 2 or insts[0].opcode != 57 or insts[1].opcode != 253:       # OpFunctionCall, OpReturn
        return fn
    call = insts[0]
    callee = spv_functions.get(call.words[3])
    params = [p.words[2] for p in fn.parameters]
    if callee is None or not callee.blocks or call.words[4:] != params or callee.function_type != fn.function_type:
        return fn
    return callee


@dataclass
class KernelPlan:
    """How a kernel runs, decided before lowering (the API asks too: region kernels are
    compiled per local size)."""

    fn: object              # the SPIR-V function that does the work, with its loop cuts
    has_barriers: bool
    uses_regions: bool      # work-item loops region by region (else: one loop)
    uniform_inductions: set = dataclasses.field(default_factory=set)   # see loop_cuts


def plan_kernel(module, entry_fn_id: int, builtins=None, barrier_functions=None, spv_functions=None) -> KernelPlan:
    """Barriers (and collectives): work-item loops per region; those reached through calls are
    inlined into the kernel first (inline_sync.py, called by compiler.lower_kernel). Inner loops
    worth turning inside out (see loop_cuts) make a kernel a region kernel even without
    barriers."""
    from .loop_cuts import with_loop_cuts
    from .lowering import builtin_variables, functions_with_barriers
    from .regions import uniform_values

    if barrier_functions is None:
        barrier_functions = functions_with_barriers(module)
    if spv_functions is None:
        spv_functions = {f.id: f for f in module.functions}
    fn = _unwrap(spv_functions, spv_functions[entry_fn_id])
    has_barriers = fn.id in barrier_functions
    if has_barriers and any(f in barrier_functions for f in _callees(fn)):
        # The compiler inlines these calls first (inline_sync.py): the kernel then runs region
        # by region like one whose barriers are all in its own body.
        return KernelPlan(fn, True, True)
    uniform = uniform_values(builtin_variables(module) if builtins is None else builtins, fn)
    cut, inductions = with_loop_cuts(fn, uniform, module)
    return KernelPlan(cut, has_barriers, has_barriers or cut is not fn, inductions)


def kernel_body(module, entry_fn_id: int) -> int:
    """The id of the function that does a kernel's work (see _unwrap)."""
    return _unwrap({f.id: f for f in module.functions}, next(f for f in module.functions if f.id == entry_fn_id)).id


def _callees(fn) -> set[int]:
    return {inst.words[3] for block in fn.blocks for inst in block.instructions if inst.opcode == OP.FunctionCall}


def mark_inlined_launch_state(fn: ir.Function) -> None:
    """mark_launch_state for a function inlined into a work-item loop (a body, a region), but
    without ``noalias``: the inliner turns a noalias parameter into an
    ``llvm.experimental.noalias.scope.decl`` call at the call site, inside the loop, and that call
    counts as a memory access outside the loop's access group, so LLVM no longer takes the loop
    for a parallel one (``Loop::isAnnotatedParallel``): the vectoriser then adds run-time alias
    checks between the buffers, or gives up. The group function's noalias parameters (around the
    loops) tell LLVM the same for the whole group."""
    mark_launch_state(fn)
    for arg in fn.args[:2]:
        arg.attributes.discard("noalias")


def _is_byval(module, param_id: int) -> bool:
    return any(d.name == "FuncParamAttr" and d.operands[0] == 2 for d in module.decorations(param_id))


class KernelBuilder:
    """Builds the entry code of one kernel into a ModuleLowering's LLVM module."""

    def __init__(self, ml, entry_fn_id: int):
        self.ml = ml
        plan = plan_kernel(ml.module, entry_fn_id, ml.builtins, ml.barrier_functions, ml.spv_functions)
        self.spv_fn = plan.fn
        self.fn_type: SpvType = ml.types[self.spv_fn.function_type]
        self.slots, self.args_bytes = arg_layout(ml, self.spv_fn)
        self.has_barriers = plan.has_barriers
        self.uses_regions = plan.uses_regions
        self.uniform_inductions = plan.uniform_inductions
        self.layout = None
        self.frame_bytes = 0

    def build(self) -> None:
        if self.uses_regions:
            from .regions import build_region_group, record_layout

            self.layout = record_layout(self.ml, self.spv_fn, self.uniform_inductions)
            # Per work-item: its record and state; the group's uniform values are counted per
            # item too (small), which keeps the runtime's arena arithmetic one number.
            self.frame_bytes = self.layout.bytes_per_item + self.layout.uniform_bytes + 4
            group = build_region_group(self)
        else:   # plan_kernel makes every kernel with barriers a region kernel
            assert not self.has_barriers
            group = self._group_loop(*self._body())
        self._driver(group)

    # ----- arguments ------------------------------------------------------------------------
    def _load_args(self, b: ir.IRBuilder, ctx, ts) -> list[ir.Value]:
        """The kernel's parameters as LLVM values, flattened as lowered functions take them."""
        block = _load_pointer(b, ctx, CONTEXT["args"])
        values = []
        for slot, t in zip(self.slots, self.fn_type.params):
            at = b.gep(block, [ir.Constant(I64, slot.offset)], source_etype=I8)
            if slot.kind == "buffer":
                # A buffer argument points at its base: one value for both lets LLVM reduce
                # each bounds check to a test on the index.
                addr = _load_pointer(b, at, 0)
                end = _load_pointer(b, at, 2)
                values.extend([addr, addr, end] if self.ml.checked else [addr])
            elif slot.kind == "local":
                local_base = _load_pointer(b, ts, THREAD["local_base"])
                addr = b.gep(local_base, [_load_word(b, at, 0)], source_etype=I8)
                end = b.gep(addr, [_load_word(b, at, 1)], source_etype=I8)
                values.extend([addr, addr, end] if self.ml.checked else [addr])
            elif slot.kind == "byval":
                # The callee copies a ByVal argument (FunctionLowering.bind_params).
                end = b.gep(at, [ir.Constant(I64, slot.size)], source_etype=I8)
                values.extend([at, at, end] if self.ml.checked else [at])
            elif slot.kind == "sampler" and self.ml.image_launch and slot.index in self.ml.image_launch.sampler_bits:
                # A sampler the launch fixes (jit/image_launch.py): sampled reads fold its modes.
                values.append(ir.Constant(t.llvm, self.ml.image_launch.sampler_bits[slot.index]))
            else:
                values.append(b.load(at, typ=t.llvm, align=1))
        return values

    def local_sizes(self, b: ir.IRBuilder, ts) -> list[ir.Value]:
        """This group's size in each dimension: constants when compiled for one local size."""
        return [self.ml.fixed_word("local_size", d) or _load_word(b, ts, THREAD["local_size"] + d)
                for d in range(3)]

    def group_function(self):
        """The group function's shell, group(ctx, ts): (fn, ctx, ts, builder, kernel args)."""
        fn = ir.Function(self.ml.llvm, ir.FunctionType(ir.VoidType(), [PTR, PTR]), name="spirvkit_group")
        fn.linkage = "internal"
        mark_launch_state(fn)
        ctx, ts = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        return fn, ctx, ts, b, self._load_args(b, ctx, ts)

    # ----- without barriers -----------------------------------------------------------------
    def _body(self):
        """The kernel body as body(ctx, ts, lx, ly, lz, flag, safe, params...), inlined into the
        work-item loop, and its row guard function (None without one; see access_guard)."""
        from .access_guard import new_guard, wants_guards

        ml = self.ml
        fn = ir.Function(ml.llvm, ir.FunctionType(ml.return_type(self.fn_type.ret), ml.signature(self.fn_type, [I1])),
                         name="spirvkit_body")
        fn.linkage = "internal"
        fn.attributes.add("alwaysinline")
        mark_inlined_launch_state(fn)
        args = list(fn.args)
        fl = FunctionLowering(ml, self.spv_fn, fn, args[:6], ml.split_params(self.fn_type.params, args[7:]))
        fl.safe = args[6]
        if wants_guards(ml):
            fl.guard, _ = new_guard(ml, self.spv_fn, self.fn_type, "spirvkit_body_guard")
        entry = fn.append_basic_block("entry")
        fl.alloca_builder = ir.IRBuilder(entry)
        fl.bind_params()
        fl.lower_body(entry, entry)
        guard = fl.guard.fn if fl.guard is not None and fl.guard.finish() else None
        return fn, guard

    def _group_loop(self, body: ir.Function, guard: ir.Function | None) -> ir.Function:
        """group(ctx, ts): for z, y, x in this group's local size: body(...); without the
        checks the group's guard proves unnecessary when it holds."""
        fn, ctx, ts, b, args = self.group_function()
        sizes = self.local_sizes(b, ts)
        # The fault flag lives in a local slot while the group runs, so once the body is
        # inlined it becomes a register (an or-reduction the vectoriser handles).
        flag = b.alloca(I8)   # a byte: the narrow or-reduction keeps vectors wide
        b.store(ir.Constant(I8, 0), flag)

        def nest(depth: int, ids: list, safe: bool):
            if depth < 0:
                b.call(body, [ctx, ts, ids[0], ids[1], ids[2], flag, ir.Constant(I1, safe), *args])
                return
            # A row of constant length (a build for one local size) stays a loop until the
            # vectoriser has seen it: LLVM's full unroller ran first, unrolled a 16-item row,
            # and the vectoriser then took the loop over rows, with a gather per access (a
            # branch-free 5-point stencil ran 10x slower than PoCL). The vectoriser interleaves
            # by itself; keeping rows rolled changed no other benchmark kernel.
            keep_rolled = depth == 0 and isinstance(sizes[0], ir.Constant)
            with _counted_loop(b, fn, sizes[depth], f"l{'xyz'[depth]}",
                               parallel=self.ml.parallel_loop(keep_rolled)) as i:
                ids[depth] = i
                nest(depth - 1, ids, safe)

        if guard is None:
            nest(2, [None, None, None], False)
        else:
            zero = ir.Constant(I64, 0)
            with b.if_else(b.call(guard, [ctx, ts, zero, zero, zero, flag, *args])) as (proved, not_proved):
                with proved:
                    nest(2, [None, None, None], True)
                with not_proved:
                    nest(2, [None, None, None], False)
        slot = _word(b, ts, THREAD["fault_flag"])
        b.store(b.or_(b.load(slot, typ=I64), b.zext(b.load(flag, typ=I8), I64)), slot)
        b.ret_void()
        return fn

    # ----- the launch driver ----------------------------------------------------------------
    def _driver(self, group: ir.Function) -> None:
        fn = ir.Function(self.ml.llvm, ir.FunctionType(ir.VoidType(), [PTR, PTR]), name=RUN_SYMBOL)
        ctx, ts = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        loop = fn.append_basic_block("next")
        work = fn.append_basic_block("work")
        out = fn.append_basic_block("out")
        total = _load_word(b, ctx, CONTEXT["total_groups"])
        groups = [_load_word(b, ctx, CONTEXT["num_groups"] + d) for d in range(3)]
        enq = [self.ml.fixed_word("enqueued_local_size", d) or _load_word(b, ctx, CONTEXT["enqueued_local_size"] + d)
               for d in range(3)]
        gsize = [_load_word(b, ctx, CONTEXT["global_size"] + d) for d in range(3)]
        chunk = _load_word(b, ctx, CONTEXT["group_chunk"])
        b.branch(loop)
        # Take `chunk` groups per atomic add (the dispenser's cache line then moves between
        # cores rarely), and check for an abort before each group.
        b.position_at_end(loop)
        aborted = b.icmp_unsigned("!=", b.load_atomic(_word(b, ctx, CONTEXT["abort"]), "monotonic", 8, typ=I64),
                                  ir.Constant(I64, 0))
        first = b.atomic_rmw("add", _word(b, ctx, CONTEXT["next_group"]), chunk, "monotonic")
        inner = fn.append_basic_block("inner")
        last = b.add(first, chunk)
        last = b.select(b.icmp_unsigned("<", last, total), last, total)
        # The chunk's first group id by division; the next ones by counting (a division per
        # group cost as much as a small group's work-item loop).
        rest = b.udiv(first, groups[0])
        start = (b.urem(first, groups[0]), b.urem(rest, groups[1]), b.udiv(rest, groups[1]))
        entry_block = b.block
        b.cbranch(b.or_(aborted, b.icmp_unsigned(">=", first, total)), out, inner)
        b.position_at_end(inner)
        g = b.phi(I64)
        g.add_incoming(first, entry_block)
        ids = [b.phi(I64) for _ in range(3)]
        for phi, value in zip(ids, start):
            phi.add_incoming(value, entry_block)
        aborted = b.icmp_unsigned("!=", b.load_atomic(_word(b, ctx, CONTEXT["abort"]), "monotonic", 8, typ=I64),
                                  ir.Constant(I64, 0))
        b.cbranch(aborted, out, work)
        b.position_at_end(work)
        gx, gy, gz = ids
        for d, gid in enumerate((gx, gy, gz)):
            b.store(gid, _word(b, ts, THREAD["group_id"] + d))
            # The last group in a dimension may be smaller (non-uniform work-groups).
            if self.ml.local_size is None:
                left = b.sub(gsize[d], b.mul(gid, enq[d]))
                size = b.select(b.icmp_unsigned("<", left, enq[d]), left, enq[d])
            else:
                size = enq[d]   # compiled for a uniform NDRange: every group is whole
            b.store(size, _word(b, ts, THREAD["local_size"] + d))
        if self.ml.shader is not None:   # zero-initialised Workgroup variables (shader_memory.py)
            self.ml.shader.before_group(self.ml, b, ts)
        b.call(group, [ctx, ts])
        if self.ml.checked and not self.ml.report_faults:
            # A fault flag raised in this group: stop the launch and name the group, which the
            # runtime re-runs in report mode to locate the access.
            flag_slot = _word(b, ts, THREAD["fault_flag"])
            faulted = b.icmp_unsigned("!=", b.load(flag_slot, typ=I64), ir.Constant(I64, 0))
            with b.if_then(faulted, likely=False):
                b.store(ir.Constant(I64, 0), flag_slot)
                old = b.cmpxchg(_word(b, ctx, CONTEXT["abort"]), ir.Constant(I64, 0), ir.Constant(I64, ABORT_FAULT),
                                "seq_cst", "seq_cst")
                with b.if_then(b.extract_value(old, 1)):
                    b.store(g, _word(b, ctx, CONTEXT["fault_group"]))
                    b.store(ir.Constant(I64, -1), _word(b, ctx, CONTEXT["fault_site"]))
        following = b.add(g, ir.Constant(I64, 1))
        g.add_incoming(following, b.block)
        one, zero = ir.Constant(I64, 1), ir.Constant(I64, 0)
        x_next = b.add(gx, one)
        x_wraps = b.icmp_unsigned("==", x_next, groups[0])
        y_next = b.select(x_wraps, b.add(gy, one), gy)
        y_wraps = b.icmp_unsigned("==", y_next, groups[1])
        for phi, value in zip(ids, (b.select(x_wraps, zero, x_next), b.select(y_wraps, zero, y_next),
                                    b.select(y_wraps, b.add(gz, one), gz))):
            phi.add_incoming(value, b.block)
        b.cbranch(b.icmp_unsigned("<", following, last), inner, loop)
        b.position_at_end(out)
        b.ret_void()
