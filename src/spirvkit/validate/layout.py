"""Logical layout (SPIR-V 2.4, 2.16.1 U1, U9, U14, U17-U19): section order, one memory model,
function and block structure. Builds ``ctx.functions`` (with blocks) for the later families."""

from __future__ import annotations

from ..spirv.module import Block, Function
from . import opcodes as op

SEC = "SPIR-V 2.4"
_FUNCTION_SC = op.SC.Function

# Module-scope sections in order; each opcode names the sections it may appear in.
(CAPS, EXTS, IMPORTS, MEMMODEL, ENTRY, EXECMODE, DEBUG1, DEBUG2, DEBUG3, ANNOT, TYPES, FUNCS) = range(12)
SECTION_NAMES = ("capabilities", "extensions", "extended instruction imports", "memory model",
                 "entry points", "execution modes", "debug (strings and sources)", "debug (names)",
                 "debug (module processed)", "annotations", "types, constants and global variables",
                 "functions")

_SECTION_OF = {
    op.Capability: (CAPS,),
    op.Extension: (EXTS,),
    op.ExtInstImport: (IMPORTS,),
    op.MemoryModel: (MEMMODEL,),
    op.EntryPoint: (ENTRY,),
    op.ExecutionMode: (EXECMODE,),
    op.ExecutionModeId: (EXECMODE,),
    op.SourceContinued: (DEBUG1,),
    op.Source: (DEBUG1,),
    op.SourceExtension: (DEBUG1,),
    op.String: (DEBUG1,),
    op.Name: (DEBUG2,),
    op.MemberName: (DEBUG2,),
    op.ModuleProcessed: (DEBUG3,),
    op.Line: (TYPES, FUNCS),
    op.NoLine: (TYPES, FUNCS),
    op.Variable: (TYPES,),
    op.Undef: (TYPES,),
    op.Function: (FUNCS,),
}
for _a in op.ANNOTATION_OPCODES:
    _SECTION_OF[_a] = (ANNOT,)
for _t in op.TYPE_OPCODES | op.CONSTANT_OPCODES:
    _SECTION_OF[_t] = (TYPES,)
for _o in ("UntypedVariableKHR", "ConstantFunctionPointerINTEL", "AsmTargetINTEL", "AsmINTEL",
           "GraphConstantARM"):
    if hasattr(op, _o):
        _SECTION_OF[getattr(op, _o)] = (TYPES,)

# Instructions that may only appear inside a function body.
_MODULE_ONLY_IN_FUNCTION_ERROR = frozenset(_SECTION_OF) - {op.Line, op.NoLine, op.Variable, op.Undef}
# Opcodes that need more than "append to the open block" inside a function (see check()).
_GENERAL_IN_BLOCK = (frozenset({op.FunctionEnd, op.Function, op.FunctionParameter, op.Label, op.ExtInst, op.Variable,
                                op.Phi}) | op.LINE_OPCODES | _MODULE_ONLY_IN_FUNCTION_ERROR | op.MERGES | op.TERMINATORS
                     | op.EXT_INSTS)


def _is_non_semantic(ctx, inst) -> bool:
    if inst.opcode not in op.EXT_INSTS or len(inst.words) < 4:
        return False
    name = ctx.ext_imports.get(inst.words[3], "")
    return name.startswith("NonSemantic.") or "DebugInfo" in name


def check(ctx) -> None:
    state = _Layout(ctx)
    general = _GENERAL_IN_BLOCK
    for inst in ctx.insts:
        block = state.block
        if block is not None and inst.opcode not in general:
            # The common case, an ordinary instruction inside an open block (what in_function and
            # in_block would do with it).
            block.instructions.append(inst)
            state.in_first_block_vars = False
            continue
        state.step(inst)
    state.finish()


class _Layout:
    def __init__(self, ctx):
        self.ctx = ctx
        self.section = CAPS
        self.memory_models = 0
        self.func: Function | None = None
        self.block: Block | None = None  # the open (unterminated) block
        self.seen_definition = False
        self.in_first_block_vars = True
        self.merges: list[int] = []  # positions of merge instructions in the open block

    def error(self, rule, message, inst, section=SEC):
        self.ctx.error(rule, section, message, inst)

    # -- module scope --------------------------------------------------------------------------

    def step(self, inst) -> None:
        if self.func is not None:
            self.in_function(inst)
            return
        opc = inst.opcode
        allowed = _SECTION_OF.get(opc)
        if allowed is None and _is_non_semantic(self.ctx, inst):
            allowed = (TYPES,)
        if allowed is None:
            if opc == op.Label:
                self.error("layout.label-in-function", "Label must be in a function", inst, "SPIR-V 2.16.1")
            elif opc == op.FunctionEnd:
                self.error("layout.function-end", "OpFunctionEnd without a matching OpFunction", inst)
            else:
                self.error("layout.section-order",
                           f"{inst.opname} cannot appear outside a function", inst)
            return
        target = next((s for s in allowed if s >= self.section), None)
        if target is None:
            self.error("layout.section-order",
                       f"{inst.opname} is in an invalid layout section: it belongs in the "
                       f"{SECTION_NAMES[allowed[0]]} section, which comes before the "
                       f"{SECTION_NAMES[self.section]} section", inst)
            return
        self.section = target
        if opc == op.MemoryModel:
            self.memory_models += 1
            if self.memory_models > 1:
                self.error("layout.one-memory-model", "OpMemoryModel should only be provided once.", inst)
        elif opc == op.Variable and len(inst.words) > 3 and inst.words[3] == _FUNCTION_SC:
            self.error("layout.function-variable-scope",
                       "Variables can not have a function[7] storage class outside of a function", inst,
                       "SPIR-V 3.32.8")
        elif opc == op.Function:
            self.open_function(inst)

    def open_function(self, inst) -> None:
        self.func = Function(inst)
        self.block = None
        self.in_first_block_vars = True

    # -- function scope ------------------------------------------------------------------------

    def in_function(self, inst) -> None:
        func = self.func
        opc = inst.opcode
        if opc == op.FunctionEnd:
            self.close_function(inst)
            return
        if opc == op.Function:
            self.error("layout.function-nesting", "Cannot declare a function in a function body", inst)
            return
        if opc == op.FunctionParameter:
            if func.blocks:
                self.error("layout.function-parameter",
                           "Function parameters must only appear immediately after the function definition",
                           inst)
                return
            func.parameters.append(inst)
            return
        if opc == op.Label:
            if self.block is not None:
                self.error("layout.block-terminator",
                           f"Block {self.ctx.name(self.block.id)} is not terminated before the next label",
                           inst, "SPIR-V 2.16.1")
                return
            if not func.blocks:
                self.declare_definition(inst)
            self.block = Block(inst)
            self.merges = []
            func.blocks.append(self.block)
            return
        if opc in op.LINE_OPCODES or (opc == op.ExtInst and _is_non_semantic(self.ctx, inst)):
            if self.block is not None:
                self.block.instructions.append(inst)
            elif opc == op.ExtInst:
                self.error("layout.block-label", "Non-semantic OpExtInst within function definition must appear in "
                                                 "a block", inst, "SPIR-V 2.4")
            else:
                func.preamble.append(inst)
            return
        if opc in _MODULE_ONLY_IN_FUNCTION_ERROR:
            self.error("layout.section-order", f"{inst.opname} cannot appear in a function", inst)
            return
        if self.block is None:
            what = "function declaration" if not func.blocks else "block"
            self.error("layout.block-label",
                       f"{inst.opname} must appear in a block (a block starts with OpLabel; "
                       f"this one follows a {'terminator' if func.blocks else what})", inst, "SPIR-V 2.16.1")
            return
        self.in_block(inst)

    def declare_definition(self, inst) -> None:
        self.seen_definition = True

    def in_block(self, inst) -> None:
        opc = inst.opcode
        block = self.block
        body = block.instructions
        if opc == op.Variable:
            if not self.in_first_block_vars or len(self.func.blocks) != 1:
                self.error("layout.function-variables-first",
                           "All OpVariable instructions in a function must be the first instructions in "
                           "the first block", inst)
            elif len(inst.words) > 3 and inst.words[3] != _FUNCTION_SC:
                self.error("layout.function-variable-scope",
                           "Variables must have a function[7] storage class inside of a function", inst,
                           "SPIR-V 3.32.8")
        else:
            self.in_first_block_vars = False
        if opc == op.Phi:
            if any(i.opcode not in op.LINE_OPCODES and i.opcode != op.Phi for i in body):
                self.error("layout.phi-first",
                           "OpPhi must appear within a non-entry block before all non-OpPhi instructions "
                           "(except for OpLine, which can be mixed with OpPhi).", inst)
        body.append(inst)
        if opc in op.MERGES:
            self.merges.append(len(body) - 1)
        elif opc in op.TERMINATORS:
            if self.merges:
                self.check_merge_placement(block, self.merges)
                self.merges = []
            self.block = None

    def check_merge_placement(self, block, merges) -> None:
        body = block.instructions
        term = body[-1]
        for k in merges:
            inst = body[k]
            if k != len(body) - 2:
                self.error("layout.merge-placement",
                           f"{inst.opname} must be the second-to-last instruction in its block.", inst,
                           "SPIR-V 3.32.17")
            elif inst.opcode == op.SelectionMerge and term.opcode not in (op.BranchConditional, op.Switch):
                self.error("layout.merge-placement",
                           "OpSelectionMerge must immediately precede either an OpBranchConditional or "
                           "OpSwitch instruction.", inst, "SPIR-V 3.32.17")
            elif inst.opcode == op.LoopMerge and term.opcode not in (op.Branch, op.BranchConditional):
                self.error("layout.merge-placement",
                           "OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional "
                           "instruction.", inst, "SPIR-V 3.32.17")

    def close_function(self, end) -> None:
        func = self.func
        if self.block is not None:
            self.error("layout.block-terminator",
                       f"Block {self.ctx.name(self.block.id)} is missing a termination instruction",
                       end, "SPIR-V 2.16.1")
        elif func.preamble and not func.blocks:
            self.error("layout.block-label", "A function body must start with a block (OpLabel)",
                       func.preamble[0], "SPIR-V 2.16.1")
        if not func.blocks and self.seen_definition:
            self.error("layout.declarations-first",
                       "Function declarations must appear before function definitions.", func.definition)
        func.end = end
        self.ctx.functions.append(func)
        self.func = None
        self.block = None

    def finish(self) -> None:
        ctx = self.ctx
        if self.func is not None:
            ctx.error("layout.function-end", SEC, "Missing OpFunctionEnd at the end of the module",
                      self.func.definition)
        if self.memory_models == 0:
            ctx.error("layout.memory-model", SEC, "Missing required OpMemoryModel instruction.")
        has_entry = any(i.opcode == op.EntryPoint for i in ctx.insts)
        if not has_entry and not ctx.has_capability("Linkage"):
            ctx.error("layout.entry-point-required", "SPIR-V 2.16.1",
                      "No OpEntryPoint instruction was found. This is only allowed if the Linkage "
                      "capability is being used.")

