"""Synchronisation anywhere in the call tree: the executor inlines, at the SPIR-V level, every
call from a kernel to a function that reaches a barrier, a work-group or sub-group collective,
an async copy or a group pipe reservation (see collectives.is_sync).

Why inline rather than suspend a called function: a work-group runs on one thread, region
after region (regions.py); a synchronisation point ends a region, and the group function does
the collective's work between two regions. Once the callees that synchronise are part of the
kernel's own body, barriers, collectives, async copies and group reservations in them get
exactly the kernel function's semantics and checks (the same region machinery, the same
divergence and bounds checks), and the work-item loops stay vectorisable. OpenCL forbids
recursion (§6.9), so the expansion is finite; a call cycle through a synchronising function is
refused with a clear error.

The copies get fresh ids; each copied instruction remembers the instruction it was copied from
(``origin``), so fault reports name the callee and its word offset. Calls to functions that do
not synchronise stay calls. The input module is not changed: a new Module shares the
instructions that did not change.
"""

from __future__ import annotations

from ..errors import NotSupportedError
from ..spirv.binary import Decoder, Instruction
from ..spirv.grammar import ID_KINDS
from ..spirv.module import Block, Module
from ..spirv.names import OP

OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING = OP.Decorate, OP.DecorateId, OP.DecorateString
OP_FUNCTION_CALL, OP_VARIABLE, OP_STORE, OP_COPY_MEMORY = OP.FunctionCall, OP.Variable, OP.Store, OP.CopyMemory
OP_PHI, OP_LABEL, OP_BRANCH, OP_RETURN, OP_RETURN_VALUE = OP.Phi, OP.Label, OP.Branch, OP.Return, OP.ReturnValue
OP_LINE, OP_NO_LINE = OP.Line, OP.NoLine
MAX_INLINED_CALLS = 10000     # a guard against an explosion of copies, far above real kernels


class InlinedInstruction(Instruction):
    """A copy of a callee's instruction inside the kernel: ``origin`` is (the instruction it was
    copied from, the callee's function id), for diagnostics."""

    __slots__ = ("origin",)

    def __init__(self, opcode, words, operands, offset, ext_set, origin):
        super().__init__(opcode, words, operands, offset, ext_set)
        self.origin = origin


def inline_sync_calls(module: Module, fn_id: int, sync_functions: set[int] | None = None) -> Module:
    """The module with every call that reaches a synchronisation point inlined into function
    ``fn_id`` (at any depth); ``module`` itself when there is none."""
    from .lowering import functions_with_barriers

    sync = functions_with_barriers(module) if sync_functions is None else sync_functions
    functions = {f.id: f for f in module.functions}
    target = functions[fn_id]
    if not any(_inlinable(inst, sync, functions) for b in target.blocks for inst in b.instructions):
        return module
    return _Inliner(module, functions, sync).run(target)


def _inlinable(inst, sync, functions) -> bool:
    if inst.opcode != OP_FUNCTION_CALL or inst.words[3] not in sync:
        return False
    callee = functions.get(inst.words[3])
    return callee is not None and bool(callee.blocks)


class _Inliner:
    def __init__(self, module: Module, functions: dict, sync: set[int]):
        self.module, self.functions, self.sync = module, functions, sync
        self.next_id = module.bound
        self.next_offset = sum(len(i.words) for i in module.instructions) + 5   # past the module's words
        self.decoder = Decoder()
        self.decorations: list[Instruction] = []   # copies of the callees' decorations
        self.entry_variables: list[Instruction] = []
        self.calls = 0

    def fresh(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def make(self, words: list[int], origin) -> InlinedInstruction:
        """A new instruction from its words (word count filled in)."""
        words = list(words)
        words[0] = (len(words) << 16) | words[0]
        inst = self.decoder.decode(words, self.next_offset)
        return self._wrap(inst.opcode, inst.words, inst.operands, inst.ext_set, origin)

    def _wrap(self, opcode, words, operands, ext_set, origin) -> InlinedInstruction:
        inst = InlinedInstruction(opcode, words, operands, self.next_offset, ext_set, origin)
        self.next_offset += len(words)
        return inst

    def copy(self, inst: Instruction, ids: dict[int, int], origin) -> InlinedInstruction:
        words = list(inst.words)
        for op in inst.operands:    # (the decoder splits OpPhi's and OpSwitch's pairs)
            if op.kind in ID_KINDS:
                for k in range(op.offset, op.offset + op.count):
                    words[k] = ids.get(words[k], words[k])
        return self._wrap(inst.opcode, words, inst.operands, inst.ext_set, origin)

    # ----- the expansion ----------------------------------------------------------------------
    def run(self, target) -> Module:
        self.root = target.id
        blocks = [(b.label, list(b.instructions), ()) for b in target.blocks]
        i = 0
        while i < len(blocks):
            label, insts, chain = blocks[i]
            at = next((k for k, inst in enumerate(insts) if _inlinable(inst, self.sync, self.functions)), None)
            if at is None:
                i += 1
                continue
            blocks[i:i + 1] = self.expand_call(blocks, label, insts, at, chain)
            # Scan the same block again: it now ends with the branch into the callee's copy.
        entry_label, entry_insts, _ = blocks[0]
        head = sum(1 for inst in entry_insts if inst.opcode == OP_VARIABLE)
        entry_insts[head:head] = self.entry_variables
        return self.module_with(target, blocks)

    def expand_call(self, blocks, label, insts, at, chain):
        call = insts[at]
        callee_id = call.words[3]
        callee = self.functions[callee_id]
        name = self.module.name(callee_id) or f"%{callee_id}"
        if callee_id in chain or callee_id == self.root:
            raise NotSupportedError(f"recursion through {name}, which synchronises the work-group (word "
                                    f"{call.offset}): OpenCL C forbids recursion")
        self.calls += 1
        if self.calls > MAX_INLINED_CALLS:
            raise NotSupportedError(f"more than {MAX_INLINED_CALLS} calls to functions that synchronise the "
                                    "work-group")
        inner_chain = chain + (callee_id,)
        ids: dict[int, int] = {}
        prologue: list[Instruction] = []     # at the start of the copy's first block
        for param, arg in zip(callee.parameters, call.words[4:]):
            pid = param.words[2]
            if any(d.name == "FuncParamAttr" and d.operands[0] == 2 for d in self.module.decorations(pid)):
                # A ByVal parameter: the callee works on its own copy of the pointee.
                copy_id = self.fresh()
                self.entry_variables.append(self.make([OP_VARIABLE, param.words[1], copy_id, 7], (param, callee_id)))
                prologue.append(self.make([OP_COPY_MEMORY, copy_id, arg], (call, callee_id)))
                ids[pid] = copy_id
            else:
                ids[pid] = arg
        for block in callee.blocks:
            ids[block.id] = self.fresh()
            for inst in block.instructions:
                if inst.result_id is not None:
                    ids[inst.result_id] = self.fresh()
        cont = self.fresh()
        returns: list[tuple[int, int]] = []   # (value, block) pairs for the result's phi
        copies = []
        for n, block in enumerate(callee.blocks):
            body = []
            for inst in block.instructions:
                origin = (inst, callee_id)
                if inst.opcode == OP_VARIABLE and n == 0:
                    var = self.copy(inst, ids, origin)
                    if len(var.words) > 4:   # an initializer: stored at each call, as C does
                        init = var.words[4]
                        var = self.make([OP_VARIABLE, var.words[1], var.words[2], var.words[3]], origin)
                        prologue.append(self.make([OP_STORE, var.words[2], init], origin))
                    self.entry_variables.append(var)
                    continue
                if inst.opcode == OP_RETURN:
                    body.append(self.make([OP_BRANCH, cont], origin))
                elif inst.opcode == OP_RETURN_VALUE:
                    returns.append((ids.get(inst.words[1], inst.words[1]), ids[block.id]))
                    body.append(self.make([OP_BRANCH, cont], origin))
                else:
                    body.append(self.copy(inst, ids, origin))
            if n == 0:
                body[0:0] = prologue
            copies.append((self.make([OP_LABEL, ids[block.id]], (block.label, callee_id)), body, inner_chain))
        self.copy_decorations(ids)
        old = label.words[1]
        # The original block's successors now come from the continuation block (first: a block
        # that loops to itself has its own phis retargeted, in ``insts``, before it is split).
        for succ in _successor_labels(insts[at + 1:]):
            self.retarget_phis(blocks, succ, old, cont)
        before = insts[:at] + [self.make([OP_BRANCH, ids[callee.blocks[0].id]], (call, None))]
        # An OpLine ends with its block: the continuation block repeats the one in force at the
        # call, so the instructions after the call keep their source location.
        line = next((i for i in reversed(insts[:at]) if i.opcode in (OP_LINE, OP_NO_LINE)), None)
        after = ([line] if line is not None and line.opcode == OP_LINE else []) + insts[at + 1:]
        head = []
        if call.words[1] != self._void_type(call) and returns:
            pairs = [w for value, pred in returns for w in (value, pred)]
            head.append(self.make([OP_PHI, call.words[1], call.words[2], *pairs], (call, None)))
        return [(label, before, chain)] + copies + \
            [(self.make([OP_LABEL, cont], (label, None)), head + after, chain)]

    def _void_type(self, call) -> int:
        t = self.module.definition(call.words[1])
        return call.words[1] if t is not None and t.opname == "OpTypeVoid" else -1

    def retarget_phis(self, blocks, succ: int, old: int, new: int) -> None:
        for k, (label, insts, chain) in enumerate(blocks):
            if label.words[1] != succ:
                continue
            for j, inst in enumerate(insts):
                if inst.opcode != OP_PHI:
                    continue
                words = list(inst.words)
                for p in range(4, len(words), 2):
                    if words[p] == old:
                        words[p] = new
                if words != inst.words:
                    origin = getattr(inst, "origin", (inst, None))
                    insts[j] = self._wrap(inst.opcode, words, inst.operands, inst.ext_set, origin)

    def copy_decorations(self, ids: dict[int, int]) -> None:
        """Decorations of the callee's results (SaturatedConversion, FPRoundingMode, Alignment
        ...) carry over to their copies."""
        for old, new in ids.items():
            if old == new:
                continue
            for d in self.module.decorations(old):
                if d.member is not None:
                    continue
                src = d.instruction
                if src.opcode in (OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING):
                    words = list(src.words)
                    words[1] = new
                    self.decorations.append(self._wrap(src.opcode, words, src.operands, src.ext_set, (src, None)))

    def module_with(self, target, blocks) -> Module:
        body = [target.definition, *target.parameters, *target.preamble]
        for label, insts, _ in blocks:
            body.append(label)
            body.extend(insts)
        body.append(target.end)
        old = self.module.instructions
        first = next(k for k, inst in enumerate(old) if inst is target.definition)
        last = next(k for k in range(first, len(old)) if old[k] is target.end)
        out = old[:first] + body + old[last + 1:]
        # The decorations of the copies go after the last annotation (the logical layout).
        annotations = [k for k, inst in enumerate(out[:first]) if inst.opcode in _ANNOTATIONS]
        at = annotations[-1] + 1 if annotations else 0
        out[at:at] = self.decorations
        m = self.module
        return Module(out, version=m.version, generator=m.generator, bound=self.next_id, schema=m.schema,
                      endian=m.endian)


_ANNOTATIONS = frozenset({71, 72, 73, 74, 75, 332, 5632, 5633})


def _successor_labels(insts) -> list[int]:
    if not insts:
        return []
    from .function import successors

    return successors(Block(insts[0], insts))   # only the terminator is read
