"""Device-side enqueue (SPIR-V 3.32.22) and pipe (3.32.23) instructions: the types of their
results and operands, as each instruction's text states them ("Queue must be of the type
OpTypeQueue", "Packet Size must be a 32-bit integer type scalar", ...). spirv-val 2025.5 checks
none of these (tests/validate/spec_decided.py); the executor's lowering relies on them, and the
grammar-aware fuzz target found modules that broke it without them.

Not checked here: Invoke's function type and the operands that name functions (``ids``), the
Execution scopes of the group forms (``atomics_barriers`` / ``opencl``), the provenance rules
("an event that was produced by OpCreateUserEvent"), which no static check can decide."""

from __future__ import annotations

from . import opcodes as op

ENQUEUE_SEC = "SPIR-V 3.32.22"
PIPE_SEC = "SPIR-V 3.32.23"


def _int32(ctx, t) -> bool:
    return ctx.is_int_scalar(t) and ctx.bit_width(t) == 32


def _pointee(ctx, t):
    info = ctx.pointer_info(t)
    return info if info is not None and info[1] is not None else None


def _pointer_to(kind):
    def check(ctx, t) -> bool:
        info = _pointee(ctx, t)
        return info is not None and ctx.type_opcode(info[1]) == kind
    return check


def _int8_pointer(storage=None):
    def check(ctx, t) -> bool:
        info = _pointee(ctx, t)
        return (info is not None and (storage is None or info[0] == storage) and ctx.is_int_scalar(info[1])
                and ctx.bit_width(info[1]) == 8)
    return check


def _pipe(*access):
    def check(ctx, t) -> bool:
        ti = ctx.type_inst(t)
        return ti is not None and ti.opcode == op.TypePipe and len(ti.words) > 2 and ti.words[2] in access
    return check


def _of(kind):
    return lambda ctx, t: ctx.type_opcode(t) == kind


def _generic_pointer(ctx, t) -> bool:
    info = ctx.pointer_info(t)
    return info is not None and info[0] == op.SC.Generic


def _ndrange_size(ctx, t) -> bool:
    """A scalar, or an array of 2 or 3, of the addressing model's integer width."""
    width = 32 if ctx.addressing_model == op.ADDRESSING.Physical32 else 64
    ti = ctx.type_inst(t)
    if ti is not None and ti.opcode == op.TypeArray:
        if ctx.constant_value(ti.words[3]) not in (2, 3):
            return False
        t = ti.words[2]
    return ctx.is_int_scalar(t) and ctx.bit_width(t) == width


# What each operand must be: (word index, test, the spec's words). Word 1 of an instruction
# with a result is its Result Type (tested as a type); every other operand is tested by its type.
_INT32 = (_int32, "must be a 32-bit integer type scalar")
_EVENT = (_of(op.TypeDeviceEvent), "must have a type of OpTypeDeviceEvent")
_EVENT_PTR = (_pointer_to(op.TypeDeviceEvent), "must be a pointer to OpTypeDeviceEvent")
_RESERVE = (_of(op.TypeReserveId), "must have a type of OpTypeReserveId")
_PARAM = (_int8_pointer(), "must be a pointer to an 8-bit integer type scalar")


def _ndrange(ctx, t) -> bool:
    """The ND range struct, or (as SPIRV-LLVM-Translator writes it, and spirv-val and the executor
    accept) a pointer to one."""
    info = _pointee(ctx, t)
    return ctx.type_opcode(info[1] if info is not None else t) == op.TypeStruct


def _local_size(ctx, t) -> bool:
    """A 32-bit integer, or (SPIRV-LLVM-Translator) a pointer to the array of sizes."""
    info = _pointee(ctx, t)
    return _int32(ctx, t) or (info is not None and ctx.is_int_scalar(info[1]))


_NDRANGE = (_ndrange, "must be an OpTypeStruct whose members are as described by the Result Type of OpBuildNDRange")
_READ = (_pipe(op.ACCESS.ReadOnly), "must have a type of OpTypePipe with ReadOnly access qualifier")
_WRITE = (_pipe(op.ACCESS.WriteOnly), "must have a type of OpTypePipe with WriteOnly access qualifier")
_EITHER = (_pipe(op.ACCESS.ReadOnly, op.ACCESS.WriteOnly),
           "must have a type of OpTypePipe with ReadOnly or WriteOnly access qualifier")
_POINTER = (_generic_pointer, "must have a type of OpTypePointer with a Generic Storage Class")


def _packet(size_word):
    return [("Packet Size", size_word, *_INT32), ("Packet Alignment", size_word + 1, *_INT32)]


_RULES = {
    "OpEnqueueMarker": [("Result Type", 1, *_INT32), ("Queue", 3, _of(op.TypeQueue), "must be of the type OpTypeQueue"),
                        ("Num Events", 4, *_INT32), ("Wait Events", 5, *_EVENT_PTR), ("Ret Event", 6, *_EVENT_PTR)],
    "OpEnqueueKernel": [("Result Type", 1, *_INT32), ("Queue", 3, _of(op.TypeQueue), "must be of the type OpTypeQueue"),
                        ("Flags", 4, lambda ctx, t: ctx.is_int_scalar(t), "must be an integer type scalar"),
                        ("ND Range", 5, *_NDRANGE), ("Num Events", 6, *_INT32), ("Wait Events", 7, *_EVENT_PTR),
                        ("Ret Event", 8, *_EVENT_PTR), ("Param", 10, *_PARAM), ("Param Size", 11, *_INT32),
                        ("Param Align", 12, *_INT32), ("Local Size", "13+", _local_size,
                                                       "must be a 32-bit integer type scalar")],
    "OpGetKernelNDrangeSubGroupCount": [("Result Type", 1, *_INT32), ("ND Range", 3, *_NDRANGE),
                                        ("Param", 5, *_PARAM), ("Param Size", 6, *_INT32),
                                        ("Param Align", 7, *_INT32)],
    "OpGetKernelWorkGroupSize": [("Result Type", 1, *_INT32), ("Param", 4, *_PARAM), ("Param Size", 5, *_INT32),
                                 ("Param Align", 6, *_INT32)],
    "OpRetainEvent": [("Event", 1, *_EVENT)],
    "OpCreateUserEvent": [("Result Type", 1, _of(op.TypeDeviceEvent), "must be OpTypeDeviceEvent")],
    "OpIsValidEvent": [("Result Type", 1, lambda ctx, t: ctx.is_bool_scalar(t), "must be a Boolean type"),
                       ("Event", 3, *_EVENT)],
    "OpSetUserEventStatus": [("Event", 1, *_EVENT), ("Status", 2, *_INT32)],
    "OpCaptureEventProfilingInfo": [("Event", 1, *_EVENT),
                                    ("Profiling Info", 2, lambda ctx, t: ctx.is_int_scalar(t),
                                     "must be an integer type scalar"),
                                    ("Value", 3, _int8_pointer(op.SC.CrossWorkgroup),
                                     "must be a pointer to a scalar 8-bit integer type in the CrossWorkgroup "
                                     "Storage Class")],
    "OpGetDefaultQueue": [("Result Type", 1, _of(op.TypeQueue), "must be an OpTypeQueue")],
    "OpBuildNDRange": [("Result Type", 1, _of(op.TypeStruct), "must be an OpTypeStruct"),
                       ("GlobalWorkSize", 3, _ndrange_size, "must be a scalar or an array with 2 or 3 components "
                        "of the addressing model's integer width")],
    "OpReadPipe": [("Result Type", 1, *_INT32), ("Pipe", 3, *_READ), ("Pointer", 4, *_POINTER), *_packet(5)],
    "OpWritePipe": [("Result Type", 1, *_INT32), ("Pipe", 3, *_WRITE), ("Pointer", 4, *_POINTER), *_packet(5)],
    "OpReservedReadPipe": [("Result Type", 1, *_INT32), ("Pipe", 3, *_READ), ("Reserve Id", 4, *_RESERVE),
                           ("Index", 5, *_INT32), ("Pointer", 6, *_POINTER), *_packet(7)],
    "OpReservedWritePipe": [("Result Type", 1, *_INT32), ("Pipe", 3, *_WRITE), ("Reserve Id", 4, *_RESERVE),
                            ("Index", 5, *_INT32), ("Pointer", 6, *_POINTER), *_packet(7)],
    "OpReserveReadPipePackets": [("Result Type", 1, _of(op.TypeReserveId), "must be an OpTypeReserveId"),
                                 ("Pipe", 3, *_READ), ("Num Packets", 4, *_INT32), *_packet(5)],
    "OpReserveWritePipePackets": [("Result Type", 1, _of(op.TypeReserveId), "must be an OpTypeReserveId"),
                                  ("Pipe", 3, *_WRITE), ("Num Packets", 4, *_INT32), *_packet(5)],
    "OpCommitReadPipe": [("Pipe", 1, *_READ), ("Reserve Id", 2, *_RESERVE), *_packet(3)],
    "OpCommitWritePipe": [("Pipe", 1, *_WRITE), ("Reserve Id", 2, *_RESERVE), *_packet(3)],
    "OpIsValidReserveId": [("Result Type", 1, lambda ctx, t: ctx.is_bool_scalar(t), "must be a Boolean type"),
                           ("Reserve Id", 3, *_RESERVE)],
    "OpGetNumPipePackets": [("Result Type", 1, *_INT32), ("Pipe", 3, *_EITHER), *_packet(4)],
    "OpGroupReserveReadPipePackets": [("Result Type", 1, _of(op.TypeReserveId), "must be an OpTypeReserveId"),
                                      ("Pipe", 4, *_READ), ("Num Packets", 5, *_INT32), *_packet(6)],
    "OpGroupReserveWritePipePackets": [("Result Type", 1, _of(op.TypeReserveId), "must be an OpTypeReserveId"),
                                       ("Pipe", 4, *_WRITE), ("Num Packets", 5, *_INT32), *_packet(6)],
    "OpGroupCommitReadPipe": [("Pipe", 2, *_READ), ("Reserve Id", 3, *_RESERVE), *_packet(4)],
    "OpGroupCommitWritePipe": [("Pipe", 2, *_WRITE), ("Reserve Id", 3, *_RESERVE), *_packet(4)],
}
# Instructions whose operands read the same as another's.
for _same, _as in (("OpGetKernelNDrangeMaxSubGroupSize", "OpGetKernelNDrangeSubGroupCount"),
                   ("OpGetKernelPreferredWorkGroupSizeMultiple", "OpGetKernelWorkGroupSize"),
                   ("OpReleaseEvent", "OpRetainEvent"), ("OpGetMaxPipePackets", "OpGetNumPipePackets")):
    _RULES[_same] = _RULES[_as]

_BY_OPCODE = {op._g.by_name[name].opcode: rules for name, rules in _RULES.items() if name in op._g.by_name}
_PIPE_OPS = frozenset(op._g.by_name[n].opcode for n in _RULES if "Pipe" in n or "ReserveId" in n)


def check(ctx) -> None:
    for inst in ctx.insts:
        rules = _BY_OPCODE.get(inst.opcode)
        if rules is None:
            continue
        pipe = inst.opcode in _PIPE_OPS
        section, family = (PIPE_SEC, "pipe") if pipe else (ENQUEUE_SEC, "enqueue")
        wrong = _first_wrong(ctx, inst, rules)
        if wrong is not None:
            name, text = wrong
            kind = "result-type" if name == "Result Type" else "operand-type"
            ctx.error(f"{family}.{kind}", section, f"{inst.opname}: {name} {text}", inst)
        elif pipe and not _alignment_divides_size(ctx, inst, rules):
            ctx.error("pipe.operand-type", section, f"{inst.opname}: Packet Alignment must evenly divide Packet Size",
                      inst)


def _first_wrong(ctx, inst, rules):
    """(operand name, what it must be) of the first operand that breaks its rule, or None."""
    for name, word, test, text in rules:
        words = range(13, len(inst.words)) if word == "13+" else (word,) if word < len(inst.words) else ()
        for w in words:
            t = inst.words[w] if name == "Result Type" else ctx.type_of(inst.words[w])
            if not test(ctx, t):
                return name, text
    return None


def _alignment_divides_size(ctx, inst, rules) -> bool:
    """"Packet Alignment must evenly divide Packet Size" (decided when both are constants)."""
    at = next((w for n, w, *_ in rules if n == "Packet Size"), None)
    if at is None or at + 1 >= len(inst.words):
        return True
    size, align = ctx.constant_value(inst.words[at]), ctx.constant_value(inst.words[at + 1])
    return size is None or align is None or (align != 0 and size % align == 0)
