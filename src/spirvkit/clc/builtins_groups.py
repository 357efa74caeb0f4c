"""Work-group built-ins (OpenCL C 2.0 §1.13.10 and §1.13.15) lowered as the OpenCL SPIR-V
environment expects, with Workgroup scope:

- ``work_group_all/any`` → OpGroupAll/OpGroupAny on ``x != 0``, giving int 1/0;
- ``work_group_broadcast(x, id…)`` → OpGroupBroadcast, the local id a size_t scalar or a
  2-/3-vector of them;
- ``work_group_{reduce,scan_inclusive,scan_exclusive}_{add,min,max}`` → OpGroup{I,F}Add,
  OpGroup{S,U,F}Min/Max with the Reduce/InclusiveScan/ExclusiveScan group operation;
- ``async_work_group_copy``, ``async_work_group_strided_copy`` → OpGroupAsyncCopy (a stride of 1
  for the plain copy; the stride applies to the global side, which OpGroupAsyncCopy takes as
  given), ``wait_group_events`` → OpGroupWaitEvents; ``prefetch`` is a hint and emits nothing.

Overloads as the spec lists them: collectives take int, uint, long, ulong, float and double
(half with cl_khr_fp16); a narrower integer argument is promoted as in a call to an int
parameter, a vector is rejected. Async copies take any scalar or vector element type.
"""

from __future__ import annotations

from .sema import SemaError
from .types import BOOL, EVENT_T, INT, SIZE_T, UINT, VOID, EventType, Vector, promote

WORKGROUP = 2  # SPIR-V Scope
GROUP_OPERATION = {"reduce": "Reduce", "scan_inclusive": "InclusiveScan", "scan_exclusive": "ExclusiveScan"}
COLLECTIVE_OPS = {"add": ("OpGroupIAdd", "OpGroupIAdd", "OpGroupFAdd"),
                  "min": ("OpGroupSMin", "OpGroupUMin", "OpGroupFMin"),
                  "max": ("OpGroupSMax", "OpGroupUMax", "OpGroupFMax")}


def _no_match(name, node):
    return SemaError(f"no matching function for call to '{name}'", node)


class GroupsMixin:
    """Mixed into CodeGen (codegen.py) beside BuiltinsMixin; ``builtin_call`` finds these as
    ``bi_<name>`` specials or through ``group_builtin``."""

    def scope_id(self) -> int:
        return self.const(UINT, WORKGROUP).id

    def group_value(self, name, args, node, count: int):
        """The collective's value argument, promoted; checks the argument count."""
        if self.cl_std < 200:  # OpenCL C 2.0 functions
            raise SemaError(f"use of undeclared identifier '{name}'", node)
        if len(args) != count:
            raise _no_match(name, node)
        v = args[0]
        t = v.type
        if not t.is_scalar or t.is_void or t.is_pointer:
            raise _no_match(name, node)
        if t == BOOL or (t.is_integer and t.bits < 32):
            v = self.convert(v, promote(t), node)
        elif t.is_float and t.bits == 16 and not self.fp16:
            raise _no_match(name, node)
        self.uses_groups = True
        return v

    def group_builtin(self, name, args, node):
        """work_group_{reduce,scan_*}_{add,min,max}; None when ``name`` is not one of them."""
        for prefix, operation in GROUP_OPERATION.items():
            head = "work_group_" + prefix + "_"
            if name.startswith(head) and name[len(head):] in COLLECTIVE_OPS:
                v = self.group_value(name, args, node, 1)
                t = v.type
                ops = COLLECTIVE_OPS[name[len(head):]]
                opname = ops[2] if t.is_float else ops[0] if t.signed else ops[1]
                group_op = self.b.enum("GroupOperation", operation)
                return self.val(t, self.op(opname, t, self.scope_id(), group_op, v.id))
        return None

    def _vote(self, name, args, node, opname):
        v = self.group_value(name, args, node, 1)
        pred = self.to_bool(v, node)
        vote = self.f.op(opname, self.b.type_bool(), self.scope_id(), pred)
        return self.val(INT, self.op("OpSelect", INT, vote, self.const(INT, 1).id, self.const(INT, 0).id))

    def bi_work_group_all(self, args, node):
        return self._vote("work_group_all", args, node, "OpGroupAll")

    def bi_work_group_any(self, args, node):
        return self._vote("work_group_any", args, node, "OpGroupAny")

    def bi_work_group_broadcast(self, args, node):
        if len(args) not in (2, 3, 4):
            raise _no_match("work_group_broadcast", node)
        v = self.group_value("work_group_broadcast", args[:1], node, 1)
        ids = []
        for a, a_node in zip(args[1:], node.args[1:]):
            if not (a.type.is_scalar and a.type.is_integer):
                raise _no_match("work_group_broadcast", node)
            ids.append(self.convert(a, SIZE_T, a_node).id)
        if len(ids) == 1:
            local_id = ids[0]
        else:
            local_id = self.op("OpCompositeConstruct", Vector(SIZE_T, len(ids)), ids)
        return self.val(v.type, self.op("OpGroupBroadcast", v.type, self.scope_id(), v.id, local_id))

    # -- async copies ---------------------------------------------------------------------

    def event_argument(self, v, node):
        """An event_t argument: an event value, or the literal 0 (no event to chain to)."""
        if isinstance(v.type, EventType):
            return v.id
        if v.type.is_scalar and v.type.is_integer and v.value == 0:
            return self.b.constant_null(self.spv(EVENT_T))
        raise SemaError(f"passing '{v.type}' to parameter of incompatible type 'event_t'", node)

    def _async_copy(self, name, args, node, strided: bool):
        if len(args) != (5 if strided else 4):
            raise _no_match(name, node)
        dst, src = args[0], args[1]
        if not (dst.type.is_pointer and src.type.is_pointer) or dst.type.pointee != src.type.pointee or \
                {dst.type.space, src.type.space} != {"global", "local"} or \
                not (dst.type.pointee.is_scalar or dst.type.pointee.is_vector) or dst.type.pointee.is_void:
            raise _no_match(name, node)
        count = self.convert(args[2], SIZE_T, node.args[2])
        stride = self.convert(args[3], SIZE_T, node.args[3]) if strided else self.const(SIZE_T, 1)
        event = self.event_argument(args[-1], node.args[-1])
        rid = self.op("OpGroupAsyncCopy", EVENT_T, self.scope_id(), dst.id, src.id, count.id, stride.id, event)
        return self.val(EVENT_T, rid)

    def bi_async_work_group_copy(self, args, node):
        return self._async_copy("async_work_group_copy", args, node, False)

    def bi_async_work_group_strided_copy(self, args, node):
        return self._async_copy("async_work_group_strided_copy", args, node, True)

    def bi_wait_group_events(self, args, node):
        if len(args) != 2 or not (args[0].type.is_scalar and args[0].type.is_integer) or \
                not (args[1].type.is_pointer and isinstance(args[1].type.pointee, EventType)):
            raise _no_match("wait_group_events", node)
        n = self.convert(args[0], INT, node.args[0])
        self.f.op("OpGroupWaitEvents", None, self.scope_id(), n.id, args[1].id)
        return self.val(VOID, None)

    def bi_prefetch(self, args, node):
        # A hint (§1.13.10) with no observable effect: checked, then nothing is emitted.
        if len(args) != 2 or not args[0].type.is_pointer or args[0].type.space != "global" or \
                not (args[1].type.is_scalar and args[1].type.is_integer):
            raise _no_match("prefetch", node)
        return self.val(VOID, None)


__all__ = ["GroupsMixin"]
