"""Control flow and calls: branches, switches, phis, returns, function calls, barriers."""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from .function import PTR, FunctionLowering, Ptr, handles


@handles("OpNop", "OpLine", "OpNoLine", "OpSelectionMerge", "OpLoopMerge", "OpLifetimeStart", "OpLifetimeStop",
         "OpSource", "OpSourceContinued", "OpName", "OpModuleProcessed", "OpAssumeTrueKHR")
def lower_nothing(fl: FunctionLowering, inst) -> None:
    """Instructions with no run-time effect (merge hints, debug info, lifetime hints)."""


@handles("OpExpectKHR")
def lower_expect(fl: FunctionLowering, inst) -> None:
    """SPV_KHR_expect_assume: the Value, with ExpectedValue as LLVM's branch-weight hint
    (llvm.expect, defined for integer and bool scalars and vectors)."""
    from .intrinsics import intrinsic

    w = inst.words
    value, expected = fl.value(w[3]), fl.value(w[4])
    fn = intrinsic(fl.builder.module, "llvm.expect", value.type, [value.type, value.type])
    fl.set(w[2], fl.builder.call(fn, [value, expected]))


@handles("OpBranch")
def lower_branch(fl: FunctionLowering, inst) -> None:
    target = inst.words[1]
    if fl.is_back_edge(target):
        fl.poll_abort()
    fl.end_block()
    fl.builder.branch(fl.blocks[target])


@handles("OpBranchConditional")
def lower_branch_conditional(fl: FunctionLowering, inst) -> None:
    w = inst.words
    if fl.is_back_edge(w[2]) or fl.is_back_edge(w[3]):
        fl.poll_abort()
    cond = fl.value(w[1])
    fl.end_block()
    if w[2] == w[3]:
        fl.builder.branch(fl.blocks[w[2]])
        return
    branch = fl.builder.cbranch(cond, fl.blocks[w[2]], fl.blocks[w[3]])
    if len(w) == 6:
        branch.set_weights([w[4], w[5]])


@handles("OpSwitch")
def lower_switch(fl: FunctionLowering, inst) -> None:
    w = inst.words
    cases = [(inst.value(i), w[inst.operands[i + 1].offset]) for i in range(2, len(inst.operands), 2)]
    if fl.is_back_edge(w[2]) or any(fl.is_back_edge(label) for _, label in cases):
        fl.poll_abort()
    selector = fl.value(w[1])
    fl.end_block()
    switch = fl.builder.switch(selector, fl.blocks[w[2]])
    seen = set()
    for literal, label in cases:
        literal &= (1 << selector.type.width) - 1
        if literal in seen:  # duplicate case values are invalid SPIR-V; keep the first
            continue
        seen.add(literal)
        switch.add_case(ir.Constant(selector.type, literal), fl.blocks[label])


@handles("OpPhi")
def lower_phi(fl: FunctionLowering, inst) -> None:
    t = fl.type(inst.words[1])
    b = fl.builder
    if t.kind == "pointer":
        if fl.checked:
            phis = [b.phi(PTR), b.phi(PTR), b.phi(PTR)]
            fl.set(inst.words[2], Ptr(*phis))
        else:
            phis = [b.phi(PTR)]
            fl.set(inst.words[2], Ptr(phis[0]))
    else:
        phis = [b.phi(t.llvm)]
        fl.set(inst.words[2], phis[0])
        incoming = set(inst.words[3::2])
        if len(incoming) == 1 and fl.value_shadows.get(min(incoming)) is not None:
            # an inlined call's struct result (inline_sync.py): its pointers' bounds go with it
            fl.value_shadows[inst.words[2]] = fl.value_shadows[min(incoming)]
    fl.pending_phis.append((inst, phis))


@handles("OpReturn")
def lower_return(fl: FunctionLowering, inst) -> None:
    fl.end_block()
    fl.emit_return(None)


@handles("OpReturnValue")
def lower_return_value(fl: FunctionLowering, inst) -> None:
    value = fl.get(inst.words[1])
    fl.end_block()
    fl.emit_return(value)


@handles("OpUnreachable", "OpKill", "OpTerminateInvocation")
def lower_unreachable(fl: FunctionLowering, inst) -> None:
    # Reaching OpUnreachable is undefined behaviour. Rather than let LLVM assume it away (and
    # make a buggy kernel do anything), the work-item just returns.
    fl.end_block()
    fl.emit_return(None, aborting=True)


@handles("OpFunctionCall")
def lower_call(fl: FunctionLowering, inst) -> None:
    w = inst.words
    callee_id = w[3]
    args = [fl.get(a) for a in w[4:]]
    callee = fl.ml.function(callee_id)
    flat = [fl.ctx, fl.ts, fl.lx, fl.ly, fl.lz, fl.flag]
    fn_type = fl.types[fl.ml.spv_functions[callee_id].function_type]
    for arg_id, value, p in zip(w[4:], args, fn_type.params):
        if p.kind == "pointer":
            ptr = fl.pointer(arg_id)
            flat.extend([ptr.addr, ptr.base, ptr.end] if fl.checked else [ptr.addr])
        else:
            flat.append(value)
    result = fl.builder.call(callee, flat)
    ret = fn_type.ret
    if ret.kind == "pointer":
        if fl.checked:
            result = Ptr(*(fl.builder.extract_value(result, i) for i in range(3)))
        else:
            result = Ptr(result)
    if ret.kind != "void":
        fl.set(w[2], result)


@handles("OpControlBarrier")
def lower_control_barrier(fl: FunctionLowering, inst) -> None:
    # A work-group runs on one thread, region after region, so
    # a barrier needs no hardware fence: the return between regions already orders every
    # work-item's accesses before the next region's.
    if fl.region is not None:
        # End of this region: report which region the work-item resumes in.
        fl.builder.ret(ir.Constant(ir.IntType(32), fl.region.barrier_index[inst.offset]))
        return
    # Calls that reach a barrier are inlined into the kernel (inline_sync.py), so every barrier
    # a kernel runs is lowered inside one of its regions.
    raise NotSupportedError("OpControlBarrier outside the kernel's call tree")


@handles("OpMemoryBarrier")
def lower_memory_barrier(fl: FunctionLowering, inst) -> None:
    # The work-items of a group share a thread, and other groups may only be observed through
    # atomics (which carry their own ordering): keeping the compiler from moving accesses
    # across the fence is all that is needed.
    fl.builder.fence("seq_cst", "singlethread")

