"""Debug and extension-instruction rules that no other family owns (SPIR-V 3.32.2, 3.32.4):
OpMemberName targets a struct member, OpExtInst names an OpExtInstImport, OpLine names an
OpString, OpSizeOf takes a pointer."""

from __future__ import annotations

from . import opcodes as op


_DEBUG_SETS = ("OpenCL.DebugInfo.100", "NonSemantic.Shader.DebugInfo.100", "DebugInfo")
# Debug-info instructions that may sit inside a function (the rest describe the program and
# belong between the types and the functions).
_IN_FUNCTION = {"DebugScope", "DebugNoScope", "DebugDeclare", "DebugValue", "DebugLine", "DebugNoLine",
                "DebugFunctionDefinition"}


def check_debug_info(ctx) -> None:
    in_function = False
    for inst in ctx.insts:
        if inst.opcode == op.Function:
            in_function = True
        elif inst.opcode == op.FunctionEnd:
            in_function = False
        if inst.opcode not in op.EXT_INSTS or len(inst.words) < 5:
            continue
        set_name = ctx.ext_imports.get(inst.words[3], "")
        if set_name not in _DEBUG_SETS:
            continue
        desc = getattr(inst.ext_set, "by_opcode", {}).get(inst.words[4])
        name = desc.opname if desc else str(inst.words[4])
        if ctx.type_opcode(inst.words[1]) != op.TypeVoid:
            ctx.error("extinst.debug-info", "SPIR-V 3.32.4",
                      f"{set_name} {name}: expected result type must be a result id of OpTypeVoid", inst)
            return
        allowed = _IN_FUNCTION if set_name.startswith("NonSemantic") else _IN_FUNCTION - {
            "DebugLine", "DebugNoLine", "DebugFunctionDefinition"}
        if in_function and name not in allowed:
            ctx.error("layout.debug-info", "SPIR-V 2.4",
                      "Debug info extension instructions other than DebugScope, DebugNoScope, DebugDeclare, "
                      "DebugValue must appear between section 9 (types, constants, global variables) and section 10 "
                      "(function declarations)", inst)
            return


def check(ctx) -> None:
    check_sampled_image_uses(ctx)
    check_debug_info(ctx)
    for inst in ctx.insts:
        opc = inst.opcode
        if opc == op.MemberName:
            _member_name(ctx, inst)
        elif opc == op.ExtInst:
            if ctx.def_opcode(inst.words[3]) != op.ExtInstImport:
                ctx.error("extinst.set", "SPIR-V 3.32.4",
                          f"OpExtInst Set <id> {ctx.name(inst.words[3])} is not an OpExtInstImport", inst)
        elif opc == op.Line:
            if ctx.def_opcode(inst.words[1]) != op.String:
                ctx.error("debug.line-file", "SPIR-V 3.32.2",
                          f"OpLine Target <id> {ctx.name(inst.words[1])} is not an OpString.", inst)
        elif opc == op.Source and len(inst.operands) > 2 and inst.operands[2].kind == "IdRef":
            if ctx.def_opcode(inst.words[inst.operands[2].offset]) != op.String:
                ctx.error("debug.source-file", "SPIR-V 3.32.2", "OpSource File <id> must be an OpString", inst)


_OPAQUE_EXTRACTED = frozenset({op.TypeImage, op.TypeSampler})
# The instructions that operate on images and samplers (OpSampledImage, OpImage*, ...).
_IMAGE_INSTRUCTIONS = frozenset(d.opcode for d in op._g.instructions.values() if d.klass == "Image")


def check_sampled_image_uses(ctx) -> None:
    """U30: an OpSampledImage result is used only in its own block, never by OpPhi/OpSelect.
    U31: an image or sampler extracted from a composite (OpCompositeExtract, whose literal indexes
    are always dynamically uniform) is used only in its own block and only by image instructions
    (so never by OpPhi/OpSelect)."""
    block_of, extracted = {}, {}
    for inst in ctx.instructions_of((op.SampledImage, op.CompositeExtract)):
        rid = inst.words[2]
        if inst.opcode == op.SampledImage:
            block_of[rid] = ctx.block_of_id.get(rid)
        elif ctx.type_opcode(inst.words[1]) in _OPAQUE_EXTRACTED:
            extracted[rid] = ctx.block_of_id.get(rid)
    if not block_of and not extracted:
        return
    for func in ctx.functions:
        for b in func.blocks:
            for inst in b.instructions:
                for v in ctx.id_operands(inst):
                    if v in block_of:
                        if block_of[v] != b.id or inst.opcode in (op.Phi, op.Select):
                            ctx.error("memory.sampled-image", "SPIR-V 2.16.1",
                                      f"All OpSampledImage instructions must be in the same block in which their "
                                      f"Result <id> are consumed (and never by OpPhi or OpSelect). OpSampledImage "
                                      f"Result Type <id> {ctx.name(v)} has a consumer in a different basic block.",
                                      inst)
                            return
                    elif v in extracted and not _extracted_use_ok(ctx, inst, b.id, extracted[v]):
                        why = (f"it is consumed in block {ctx.name(b.id)}, not in the block that extracts it"
                               if b.id != extracted[v] else f"{inst.opname} is not an image instruction")
                        ctx.error("memory.extracted-image", "SPIR-V 2.16.1",
                                  f"An image or sampler extracted from a composite must be consumed in the same "
                                  f"block, only by image instructions (never by OpPhi or OpSelect): {ctx.name(v)}: "
                                  f"{why}", inst)
                        return


def _extracted_use_ok(ctx, inst, block, defining_block) -> bool:
    if inst.opcode in op.EXT_INSTS and ctx.ext_imports.get(inst.words[3], "").startswith(
            ("NonSemantic.", "OpenCL.DebugInfo", "DebugInfo")):
        return True  # debug information describes the value, it does not consume it
    return block == defining_block and inst.opcode in _IMAGE_INSTRUCTIONS


def _member_name(ctx, inst) -> None:
    t = ctx.defs.get(inst.words[1])
    if t is None or t.opcode != op.TypeStruct:
        ctx.error("debug.member-name", "SPIR-V 3.32.2",
                  f"OpMemberName Type <id> {ctx.name(inst.words[1])} is not a struct type.", inst)
        return
    count = len(t.words) - 2
    if inst.words[2] >= count:
        ctx.error("debug.member-name", "SPIR-V 3.32.2",
                  f"OpMemberName Member <id> {ctx.name(inst.words[1])} index is larger than Type <id> "
                  f"{ctx.name(inst.words[1])}s member count.", inst)
