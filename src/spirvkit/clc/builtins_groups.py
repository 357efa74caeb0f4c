"""Work-group built-ins (OpenCL C 2.0 §1.13.10 and §1.13.15) and the cl_khr_subgroups
sub-group built-ins, lowered as the OpenCL SPIR-V environment expects (and as clang-15 +
llvm-spirv-15 lower them), with Workgroup or Subgroup scope:

- ``{work,sub}_group_all/any`` → OpGroupAll/OpGroupAny on ``(int)x != 0``, giving int 1/0;
- ``work_group_broadcast(x, id…)`` → OpGroupBroadcast, the local id a size_t scalar or a
  2-/3-vector of them; ``sub_group_broadcast(x, id)`` the same with one uint sub-group local id;
- ``{work,sub}_group_{reduce,scan_inclusive,scan_exclusive}_{add,min,max}`` → OpGroup{I,F}Add,
  OpGroup{S,U,F}Min/Max with the Reduce/InclusiveScan/ExclusiveScan group operation;
- ``sub_group_barrier(flags[, scope])`` → OpControlBarrier with Subgroup execution scope (memory
  scope Workgroup unless given);
- ``async_work_group_copy``, ``async_work_group_strided_copy`` → OpGroupAsyncCopy (a stride of 1
  for the plain copy; the stride applies to the global side, which OpGroupAsyncCopy takes as
  given), ``wait_group_events`` → OpGroupWaitEvents; ``prefetch`` is a hint and emits nothing.

The collectives are one family over two scopes (``COLLECTIVE``), overloaded as the specs list
them: int, uint, long, ulong, float and double (half with cl_khr_fp16); a narrower integer
argument is promoted as in a call to an int parameter, a vector is rejected (vectors and 8/16-bit
types are cl_khr_subgroup_extended_types, not supported). The work-group functions exist from
OpenCL C 2.0, the sub-group ones where cl_khr_subgroups is (2.0 and later, unless
``-cl-ext=-cl_khr_subgroups``); elsewhere their names are undeclared, as in clang. Async copies
take any scalar or vector element type.
"""

from __future__ import annotations

import re

from .builtins_lower import C11_SCOPE, SEQ_CST, fence_bits
from .sema import SemaError, check_implicit
from .types import BOOL, EVENT_T, INT, SIZE_T, UINT, VOID, EventType, Vector, promote

WORKGROUP, SUBGROUP = 2, 3  # SPIR-V Scope
SCOPES = {"work_group": WORKGROUP, "sub_group": SUBGROUP}
GROUP_OPERATION = {"reduce": "Reduce", "scan_inclusive": "InclusiveScan", "scan_exclusive": "ExclusiveScan"}
COLLECTIVE_OPS = {"add": ("OpGroupIAdd", "OpGroupIAdd", "OpGroupFAdd"),
                  "min": ("OpGroupSMin", "OpGroupUMin", "OpGroupFMin"),
                  "max": ("OpGroupSMax", "OpGroupUMax", "OpGroupFMax")}
# <scope>_all / _any / _broadcast / _<operation>_<op>, for each scope.
COLLECTIVE = re.compile(r"(%s)_(?:(all|any|broadcast)|(%s)_(%s))$" % (
    "|".join(SCOPES), "|".join(GROUP_OPERATION), "|".join(COLLECTIVE_OPS)))


def _no_match(name, node):
    return SemaError(f"no matching function for call to '{name}'", node)


class GroupsMixin:
    """Mixed into CodeGen (codegen.py) beside BuiltinsMixin; ``builtin_call`` finds these as
    ``bi_<name>`` specials or through ``group_builtin``."""

    def scope_id(self, scope: int = WORKGROUP) -> int:
        return self.const(UINT, scope).id

    def require_group_functions(self, name, node, scope: int) -> None:
        """Undeclared (clang's error) where the scope's functions do not exist."""
        available = self.cl_std >= 200 if scope == WORKGROUP else self.subgroups
        if not available:
            raise SemaError(f"use of undeclared identifier '{name}'", node)

    def group_value(self, name, args, node, count: int, scope: int = WORKGROUP):
        """The collective's value argument, promoted; checks the argument count."""
        self.require_group_functions(name, node, scope)
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
        """A work-group or sub-group collective (``COLLECTIVE``); None when ``name`` is not one."""
        m = COLLECTIVE.match(name)
        if m is None:
            return self.non_uniform_builtin(name, args, node)   # builtins_non_uniform.py
        scope = SCOPES[m.group(1)]
        if m.group(2) == "broadcast":
            return self._broadcast(name, args, node, scope)
        if m.group(2):
            return self._vote(name, args, node, "OpGroupAll" if m.group(2) == "all" else "OpGroupAny", scope)
        v = self.group_value(name, args, node, 1, scope)
        t = v.type
        ops = COLLECTIVE_OPS[m.group(4)]
        opname = ops[2] if t.is_float else ops[0] if t.signed else ops[1]
        group_op = self.b.enum("GroupOperation", GROUP_OPERATION[m.group(3)])
        return self.val(t, self.op(opname, t, self.scope_id(scope), group_op, v.id))

    def predicate_argument(self, args, node):
        """The argument of a built-in ``int f(int predicate)``: one declaration, so clang diagnoses
        the call as a plain one; the argument converts to int (a long or a float is truncated)."""
        if len(args) > 1:
            raise SemaError("too many arguments to function call, expected single argument 'predicate', have "
                            f"{len(args)} arguments", node.args[1])
        if not args:
            raise SemaError("too few arguments to function call, single argument 'predicate' was not specified",
                            node)
        check_implicit(args[0].type, INT, node.args[0], "passing")
        return self.convert(args[0], INT, node.args[0])

    def _vote(self, name, args, node, opname, scope):
        # int <scope>_all/any(int predicate)
        self.require_group_functions(name, node, scope)
        v = self.predicate_argument(args, node)
        self.uses_groups = True
        pred = self.to_bool(v, node)
        vote = self.f.op(opname, self.b.type_bool(), self.scope_id(scope), pred)
        return self.val(INT, self.op("OpSelect", INT, vote, self.const(INT, 1).id, self.const(INT, 0).id))

    def _broadcast(self, name, args, node, scope):
        # work_group_broadcast(x, size_t local_id[, y[, z]]); sub_group_broadcast(x, uint id).
        if len(args) not in ((2, 3, 4) if scope == WORKGROUP else (2,)):
            self.require_group_functions(name, node, scope)
            raise _no_match(name, node)
        v = self.group_value(name, args[:1], node, 1, scope)
        id_type = SIZE_T if scope == WORKGROUP else UINT
        ids = []
        for a, a_node in zip(args[1:], node.args[1:]):
            if not a.type.is_scalar or a.type.is_void or a.type.is_pointer:
                raise _no_match(name, node)
            ids.append(self.convert(a, id_type, a_node).id)
        if len(ids) == 1:
            local_id = ids[0]
        else:
            local_id = self.op("OpCompositeConstruct", Vector(SIZE_T, len(ids)), ids)
        return self.val(v.type, self.op("OpGroupBroadcast", v.type, self.scope_id(scope), v.id, local_id))

    def bi_sub_group_barrier(self, args, node):
        # As work_group_barrier, at Subgroup execution scope; the memory scope is Workgroup
        # unless the memory_scope argument says otherwise (llvm-spirv-15 does the same).
        self.require_group_functions("sub_group_barrier", node, SUBGROUP)
        if len(args) not in (1, 2):
            raise _no_match("sub_group_barrier", node)
        sem = SEQ_CST | fence_bits(self._flags(args[0], node))
        scope = C11_SCOPE.get(self._flags(args[1], node), WORKGROUP) if len(args) == 2 else WORKGROUP
        self.f.op("OpControlBarrier", None, self.u32(SUBGROUP), self.u32(scope), self.u32(sem))
        return self.val(VOID, None)

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
