"""Pipes (OpenCL C 2.0 §6.13.16): the ``pipe`` type, ``reserve_id_t`` and the pipe built-ins,
checked as clang-15's Sema checks them (SemaChecking's OpenCL pipe built-ins: the first argument
a pipe of the right access, the packet pointer's pointee the packet type, reservation ids and
counts of the right type) and lowered as clang-15 + llvm-spirv-15 lower them:

- ``read_pipe(p, ptr)`` / ``write_pipe(p, ptr)`` → OpReadPipe / OpWritePipe, the pointer cast to
  a Generic ``uchar *``, with the packet's size and alignment as constant operands;
- ``read_pipe(p, rid, index, ptr)`` / ``write_pipe(...)`` → OpReservedReadPipe / OpReservedWritePipe;
- ``reserve_{read,write}_pipe`` → OpReserve{Read,Write}PipePackets, ``commit_{read,write}_pipe`` →
  OpCommit{Read,Write}Pipe; the ``work_group_`` and ``sub_group_`` (cl_khr_subgroups) forms →
  OpGroupReserve*/OpGroupCommit* with Workgroup or Subgroup scope;
- ``get_pipe_num_packets`` / ``get_pipe_max_packets`` → OpGetNumPipePackets / OpGetMaxPipePackets;
- ``is_valid_reserve_id`` → OpIsValidReserveId.

A pipe is a parameter's value, never an object (like an image): no variable, field, pointer or
array holds one, and no operator takes one. reserve_id_t values live in private variables; they
cannot be kernel parameters or program-scope variables (§6.13.16).
"""

from __future__ import annotations

import copy

from . import ast
from .sema import SemaError, not_supported
from .types import BOOL, INT, RESERVE_ID_T, UINT, VOID, Pointer, PipeType, ReserveIdType

WORKGROUP, SUBGROUP = 2, 3   # SPIR-V Scope
_GROUP_SCOPES = {"": None, "work_group_": WORKGROUP, "sub_group_": SUBGROUP}


def pipe_type(resolver, node, scope):
    """The declarator's result for a BaseType written with ``pipe``: (PipeType, qualifiers)."""
    packet_node = copy.copy(node)
    packet_node.qualifiers = tuple(q for q in node.qualifiers if q not in ("pipe", "const", "volatile"))
    packet_node.access = None
    packet_node.address_space = None
    packet, _ = resolver.declarator(packet_node, scope)
    if packet.is_pointer:
        raise SemaError("pipes packet types cannot be of reference type", node.type_tok or node)
    access = node.access or "read_only"
    if access == "read_write":
        # (clang's message, trailing space included)
        raise SemaError(f"access qualifier 'read_write' can not be used for '{PipeType(packet)}' ", node)
    return PipeType(packet, access), {"space": node.address_space, "const": False, "access": node.access,
                                      "volatile": False}


class PipesMixin:
    """Mixed into CodeGen (codegen.py) beside BuiltinsMixin: ``builtin_call`` finds these as
    ``bi_<name>`` specials."""

    # -- checks, clang's ---------------------------------------------------------------------
    def pipe_array_variable(self, decl, pipe, scope) -> SemaError:
        """clang-15's error for a variable that is an array of pipes (``pipe int q[2];``), at its
        name: its type, with the object's address space, may only be a parameter's (clang-15
        accepts such an array as a parameter, or in a typedef: those stay "not supported yet")."""
        node, dims = decl.type, []
        while isinstance(node, ast.ArrayType):
            n = self.try_const_int(node.size, scope) if node.size is not None else None
            dims.append(f"[{n}]" if n is not None else "[]")
            node = node.element
        space = getattr(node, "address_space", None) or \
            ("global" if scope is self.globals and self.cl_std >= 200 else "private")
        where = f"__{space} " if space != "private" else ""   # (the project's messages leave out __private)
        return SemaError(f"type '{where}{pipe}{''.join(dims)}' can only be used as a function parameter in OpenCL",
                         decl)

    def _pipe(self, name, args, node, access: str | None):
        """The first argument: a pipe (of ``access``, when given)."""
        if not args or not args[0].type.is_pipe:
            raise SemaError(f"first argument to '{name}' must be a pipe type", node)
        if access is not None and args[0].type.access != access:
            raise SemaError(f"invalid pipe access modifier (expecting {access})", node.args[0])
        return args[0]

    def _invalid_argument(self, name, expecting: str, v, arg_node, node):
        return SemaError(f"invalid argument type to function '{name}' (expecting '{expecting}' having "
                         f"'{self.operand_spelling(v, arg_node)}')", node)

    def _packet_pointer(self, name, pipe, v, arg_node, node) -> int:
        """The packet pointer argument, as the Generic ``uchar *`` the pipe instructions take."""
        packet = pipe.type.packet
        t = v.type
        if isinstance(arg_node, ast.Identifier):   # an array, as written (builtin_call decayed it)
            sym = self.scope.lookup(arg_node.name)
            if sym is not None and sym.type.is_array:
                raise SemaError(f"invalid argument type to function '{name}' (expecting '{packet} *' having "
                                f"'{sym.type}')", node)
        if not (t.is_pointer and t.pointee == packet):
            raise self._invalid_argument(name, f"{packet} *", v, arg_node, node)
        if t.space == "constant":
            # clang-15 accepts it; llvm-spirv-15 refuses the cast to generic, and so does SPIR-V.
            raise not_supported(f"a __constant packet pointer in '{name}' (a __constant pointer cannot be "
                                "cast to the generic address space)", arg_node)
        from .types import UCHAR
        ptr = v.id
        if t.space != "generic":
            ptr = self.f.op("OpBitcast", self.spv(Pointer(UCHAR, t.space)), ptr)
            return self.f.op("OpPtrCastToGeneric", self.spv(Pointer(UCHAR, "generic")), ptr)
        return self.f.op("OpBitcast", self.spv(Pointer(UCHAR, "generic")), ptr)

    def _reserve_id(self, name, v, arg_node, node) -> int:
        if not isinstance(v.type, ReserveIdType):
            raise self._invalid_argument(name, "reserve_id_t", v, arg_node, node)
        return v.id

    def _unsigned(self, name, v, arg_node, node) -> int:
        if not (v.type.is_scalar and v.type.is_integer) or v.type == BOOL:
            raise self._invalid_argument(name, "unsigned int", v, arg_node, node)
        return self.convert(v, UINT, arg_node).id

    def _packet_operands(self, pipe) -> tuple[int, int]:
        packet = pipe.type.packet
        return self.const(UINT, packet.size).id, self.const(UINT, packet.align).id

    @staticmethod
    def _count(name, args, node, expected: int) -> None:
        if len(args) < expected:
            raise SemaError(f"too few arguments to function call, expected {expected}, have {len(args)}", node)
        if len(args) > expected:
            raise SemaError(f"too many arguments to function call, expected {expected}, have {len(args)}",
                            node.args[expected])

    # -- read_pipe, write_pipe -----------------------------------------------------------------
    def _read_write(self, name, args, node, reading: bool):
        if len(args) not in (2, 4):
            raise SemaError(f"invalid number of arguments to function: '{name}'", node)
        pipe = self._pipe(name, args, node, "read_only" if reading else "write_only")
        size, align = self._packet_operands(pipe)
        verb = "Read" if reading else "Write"
        if len(args) == 2:
            ptr = self._packet_pointer(name, pipe, args[1], node.args[1], node)
            return self.val(INT, self.op(f"Op{verb}Pipe", INT, pipe.id, ptr, size, align))
        rid = self._reserve_id(name, args[1], node.args[1], node)
        index = self._unsigned(name, args[2], node.args[2], node)
        ptr = self._packet_pointer(name, pipe, args[3], node.args[3], node)
        return self.val(INT, self.op(f"OpReserved{verb}Pipe", INT, pipe.id, rid, index, ptr, size, align))

    def bi_read_pipe(self, args, node):
        return self._read_write("read_pipe", args, node, True)

    def bi_write_pipe(self, args, node):
        return self._read_write("write_pipe", args, node, False)

    # -- reservations --------------------------------------------------------------------------
    def _reserve(self, prefix, args, node, reading: bool):
        verb = "read" if reading else "write"
        name = f"{prefix}reserve_{verb}_pipe"
        scope = self._group_scope(prefix, name, node)
        self._count(name, args, node, 2)
        pipe = self._pipe(name, args, node, f"{verb}_only")
        count = self._unsigned(name, args[1], node.args[1], node)
        size, align = self._packet_operands(pipe)
        verb = verb.capitalize()
        if scope is None:
            rid = self.op(f"OpReserve{verb}PipePackets", RESERVE_ID_T, pipe.id, count, size, align)
        else:
            rid = self.op(f"OpGroupReserve{verb}PipePackets", RESERVE_ID_T, self.const(UINT, scope).id, pipe.id,
                          count, size, align)
        return self.val(RESERVE_ID_T, rid)

    def _commit(self, prefix, args, node, reading: bool):
        verb = "read" if reading else "write"
        name = f"{prefix}commit_{verb}_pipe"
        scope = self._group_scope(prefix, name, node)
        self._count(name, args, node, 2)
        pipe = self._pipe(name, args, node, f"{verb}_only")
        rid = self._reserve_id(name, args[1], node.args[1], node)
        size, align = self._packet_operands(pipe)
        verb = verb.capitalize()
        if scope is None:
            self.f.op(f"OpCommit{verb}Pipe", None, pipe.id, rid, size, align)
        else:
            self.f.op(f"OpGroupCommit{verb}Pipe", None, self.const(UINT, scope).id, pipe.id, rid, size, align)
        return self.val(VOID, None)

    def _group_scope(self, prefix, name, node):
        # (clang-15 declares the sub_group_ forms with the other pipe built-ins, cl_khr_subgroups
        # or not.)
        scope = _GROUP_SCOPES[prefix]
        if scope is not None:
            self.uses_groups = True
        return scope

    def bi_reserve_read_pipe(self, args, node):
        return self._reserve("", args, node, True)

    def bi_reserve_write_pipe(self, args, node):
        return self._reserve("", args, node, False)

    def bi_work_group_reserve_read_pipe(self, args, node):
        return self._reserve("work_group_", args, node, True)

    def bi_work_group_reserve_write_pipe(self, args, node):
        return self._reserve("work_group_", args, node, False)

    def bi_sub_group_reserve_read_pipe(self, args, node):
        return self._reserve("sub_group_", args, node, True)

    def bi_sub_group_reserve_write_pipe(self, args, node):
        return self._reserve("sub_group_", args, node, False)

    def bi_commit_read_pipe(self, args, node):
        return self._commit("", args, node, True)

    def bi_commit_write_pipe(self, args, node):
        return self._commit("", args, node, False)

    def bi_work_group_commit_read_pipe(self, args, node):
        return self._commit("work_group_", args, node, True)

    def bi_work_group_commit_write_pipe(self, args, node):
        return self._commit("work_group_", args, node, False)

    def bi_sub_group_commit_read_pipe(self, args, node):
        return self._commit("sub_group_", args, node, True)

    def bi_sub_group_commit_write_pipe(self, args, node):
        return self._commit("sub_group_", args, node, False)

    # -- queries -------------------------------------------------------------------------------
    def _query(self, name, opname, args, node):
        if not args:
            raise SemaError("too few arguments to function call, expected 1, have 0", node)
        pipe = self._pipe(name, args, node, None)
        self._count(name, args, node, 1)
        size, align = self._packet_operands(pipe)
        return self.val(UINT, self.op(opname, UINT, pipe.id, size, align))

    def bi_get_pipe_num_packets(self, args, node):
        return self._query("get_pipe_num_packets", "OpGetNumPipePackets", args, node)

    def bi_get_pipe_max_packets(self, args, node):
        return self._query("get_pipe_max_packets", "OpGetMaxPipePackets", args, node)

    def bi_is_valid_reserve_id(self, args, node):
        self._count("is_valid_reserve_id", args, node, 1)
        v = args[0]
        if not isinstance(v.type, ReserveIdType):
            raise SemaError(f"passing '{self.operand_spelling(v, node.args[0])}' to parameter of incompatible "
                            "type 'reserve_id_t'", node.args[0])
        return self.val(BOOL, self.op("OpIsValidReserveId", BOOL, v.id))


__all__ = ["PipesMixin", "pipe_type"]
