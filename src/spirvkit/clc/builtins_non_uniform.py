"""The OpenCL C built-ins of the cl_khr_subgroup_* extensions beyond cl_khr_subgroups, lowered
to the GroupNonUniform family at Subgroup scope as clang-15 + llvm-spirv-15 lower them:

- cl_khr_subgroup_non_uniform_vote: ``sub_group_elect()`` → OpGroupNonUniformElect,
  ``sub_group_non_uniform_all/any(int)`` → OpGroupNonUniformAll/Any on ``predicate != 0``,
  ``sub_group_non_uniform_all_equal(x)`` → OpGroupNonUniformAllEqual (int 1/0 results);
- cl_khr_subgroup_ballot: ``sub_group_non_uniform_broadcast(x, uint id)`` (scalars and vectors)
  → OpGroupNonUniformBroadcast, ``sub_group_broadcast_first(x)`` → …BroadcastFirst,
  ``sub_group_ballot(int)`` → …Ballot (a uint4), ``sub_group_inverse_ballot``,
  ``sub_group_ballot_bit_extract``, ``sub_group_ballot_bit_count`` / ``_inclusive_scan`` /
  ``_exclusive_scan`` (…BallotBitCount Reduce/InclusiveScan/ExclusiveScan),
  ``sub_group_ballot_find_lsb/msb``, and ``get_sub_group_{eq,ge,gt,le,lt}_mask()`` (loads of
  the BuiltIn SubgroupEqMask … variables, uint4);
- cl_khr_subgroup_non_uniform_arithmetic: ``sub_group_non_uniform_{reduce,scan_inclusive,
  scan_exclusive}_{add,mul,min,max}`` (integers, float, half, double), ``…_{and,or,xor}``
  (integers) and ``…_logical_{and,or,xor}(int predicate)``;
- cl_khr_subgroup_shuffle (``sub_group_shuffle``, ``sub_group_shuffle_xor``) and
  cl_khr_subgroup_shuffle_relative (``sub_group_shuffle_up``, ``sub_group_shuffle_down``);
- cl_khr_subgroup_clustered_reduce: ``sub_group_clustered_reduce_{add,mul,min,max,and,or,xor}
  (gentype, uint clustersize)`` and ``…_logical_{and,or,xor}(int predicate, uint clustersize)``
  → the same instructions with ClusteredReduce and a constant ClusterSize (capability
  GroupNonUniformClustered, as llvm-spirv-15 declares it);
- cl_khr_subgroup_rotate: ``sub_group_rotate(gentype, int delta)`` and
  ``sub_group_clustered_rotate(gentype, int delta, uint clustersize)`` (scalars) →
  OpGroupNonUniformRotateKHR, with OpExtension "SPV_KHR_subgroup_rotate" and capability
  GroupNonUniformRotateKHR (llvm-spirv-15 needs ``--spirv-ext=+SPV_KHR_subgroup_rotate``).

The value overloads are clang's (opencl-c.h): char … ulong, float, half with cl_khr_fp16, double
with cl_khr_fp64; a bool argument is promoted to int; anything else has no matching function.
Each family exists where its extension is (OpenCL C 2.0 and later, as clang-15 defines the
macros for spir; ``-cl-ext=-cl_khr_subgroup_ballot`` takes one away): elsewhere the names are
undeclared. These instructions are SPIR-V 1.3: a module that uses them has version 1.3 at least
(llvm-spirv-15 raises the version the same way); an explicit ``--spirv-version`` below 1.3 is an
error. Before SPIR-V 1.5 OpGroupNonUniformBroadcast takes a constant id only, so a non-constant
(dynamically uniform, as the extension requires) id is lowered to OpGroupNonUniformShuffle,
which gives the same value.

``clustersize``: clang-15 declares it a plain ``uint`` parameter and accepts any value, but the
extensions require "an integer constant expression and a power of two" (behaviour is undefined
otherwise) and SPIR-V requires ClusterSize to come from a constant instruction (llvm-spirv-15
emits the variable, and spirv-val rejects the module): both are errors here, at the argument.
A float value given to the integer-only functions (``…_and`` …) is clang's ambiguous call (it
converts equally well to each integer overload).
"""

from __future__ import annotations

import re

from .sema import SemaError, check_implicit
from .types import BOOL, CHAR, DOUBLE, FLOAT, HALF, INT, LONG, SHORT, UCHAR, UINT, ULONG, USHORT, Vector

SUBGROUP = 3  # SPIR-V Scope
INTEGERS = (CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG)
GROUP_OPERATION = {"reduce": "Reduce", "scan_inclusive": "InclusiveScan", "scan_exclusive": "ExclusiveScan"}
# op → (signed integer, unsigned integer, float) instruction; None: no overload of that kind.
ARITHMETIC_OPS = {
    "add": ("IAdd", "IAdd", "FAdd"), "mul": ("IMul", "IMul", "FMul"), "min": ("SMin", "UMin", "FMin"),
    "max": ("SMax", "UMax", "FMax"), "and": ("BitwiseAnd", "BitwiseAnd", None),
    "or": ("BitwiseOr", "BitwiseOr", None), "xor": ("BitwiseXor", "BitwiseXor", None),
}
LOGICAL_OPS = {"logical_and": "LogicalAnd", "logical_or": "LogicalOr", "logical_xor": "LogicalXor"}
ARITHMETIC = re.compile(r"sub_group_non_uniform_(%s)_(%s)$" % (
    "|".join(GROUP_OPERATION), "|".join(list(LOGICAL_OPS) + list(ARITHMETIC_OPS))))
CLUSTERED = re.compile(r"sub_group_clustered_reduce_(%s)$" % "|".join(list(LOGICAL_OPS) + list(ARITHMETIC_OPS)))
ROTATE = {"sub_group_rotate": 2, "sub_group_clustered_rotate": 3}   # name → argument count
MASKS = {f"get_sub_group_{k}_mask": f"Subgroup{k.capitalize()}Mask" for k in ("eq", "ge", "gt", "le", "lt")}
BALLOT_COUNT = {"sub_group_ballot_bit_count": "Reduce", "sub_group_ballot_inclusive_scan": "InclusiveScan",
                "sub_group_ballot_exclusive_scan": "ExclusiveScan"}
SHUFFLES = {"sub_group_shuffle": ("OpGroupNonUniformShuffle", "cl_khr_subgroup_shuffle"),
            "sub_group_shuffle_xor": ("OpGroupNonUniformShuffleXor", "cl_khr_subgroup_shuffle"),
            "sub_group_shuffle_up": ("OpGroupNonUniformShuffleUp", "cl_khr_subgroup_shuffle_relative"),
            "sub_group_shuffle_down": ("OpGroupNonUniformShuffleDown", "cl_khr_subgroup_shuffle_relative")}
# The extension of each built-in name (the arithmetic ones by ARITHMETIC) and the capability
# its instruction needs (GroupNonUniform comes with each).
VOTE, BALLOT, ARITH = ("cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
                       "cl_khr_subgroup_non_uniform_arithmetic")
CLUSTER, ROTATION = "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"
EXTENSION = {"sub_group_elect": VOTE, "sub_group_non_uniform_all": VOTE, "sub_group_non_uniform_any": VOTE,
             "sub_group_non_uniform_all_equal": VOTE, "sub_group_non_uniform_broadcast": BALLOT,
             "sub_group_broadcast_first": BALLOT, "sub_group_ballot": BALLOT, "sub_group_inverse_ballot": BALLOT,
             "sub_group_ballot_bit_extract": BALLOT, "sub_group_ballot_find_lsb": BALLOT,
             "sub_group_ballot_find_msb": BALLOT, **{n: BALLOT for n in list(BALLOT_COUNT) + list(MASKS)},
             **{n: ext for n, (_, ext) in SHUFFLES.items()}, **{n: ROTATION for n in ROTATE}}
CAPABILITY = {VOTE: "GroupNonUniformVote", BALLOT: "GroupNonUniformBallot", ARITH: "GroupNonUniformArithmetic",
              "cl_khr_subgroup_shuffle": "GroupNonUniformShuffle",
              "cl_khr_subgroup_shuffle_relative": "GroupNonUniformShuffleRelative",
              CLUSTER: "GroupNonUniformClustered", ROTATION: "GroupNonUniformRotateKHR"}
# Capabilities codegen does not declare from ``non_uniform_capabilities``: declared at first use.
OWN_CAPABILITIES = ("GroupNonUniformClustered", "GroupNonUniformRotateKHR")
UINT4 = Vector(UINT, 4)
SPIRV_1_3 = (1, 3)


def _no_match(name, node):
    return SemaError(f"no matching function for call to '{name}'", node)


def extension_of(name: str) -> str | None:
    """The cl_khr_subgroup_* extension that declares built-in ``name`` (None: not one of them)."""
    if ARITHMETIC.match(name):
        return ARITH
    if CLUSTERED.match(name):
        return CLUSTER
    return EXTENSION.get(name)


class NonUniformMixin:
    """Mixed into CodeGen beside GroupsMixin, which asks ``non_uniform_builtin`` first."""

    def non_uniform_builtin(self, name, args, node):
        """The built-in's value; None when ``name`` is not one of these extensions' functions."""
        ext = extension_of(name)
        if ext is None:
            return None
        exts = self.unit.supported_extensions
        if self.cl_std < 200 or (exts is not None and ext not in exts):
            raise self.undeclared(name, node)
        # sub_group_elect is core GroupNonUniform; the rest need their extension's capability.
        self._need(ext, node, None if name == "sub_group_elect" else CAPABILITY[ext])
        if name in MASKS:
            if args:
                raise SemaError(f"too many arguments to function call, expected 0, have {len(args)}", node.args[0])
            var = self.builtin_var(MASKS[name], UINT4)
            return self.val(UINT4, self.f.op("OpLoad", self.spv(UINT4), var))
        m = ARITHMETIC.match(name)
        if m is not None:
            return self._arithmetic(name, args, node, GROUP_OPERATION[m.group(1)], m.group(2))
        m = CLUSTERED.match(name)
        if m is not None:
            return self._arithmetic(name, args, node, "ClusteredReduce", m.group(1))
        if name in ROTATE:
            return self._rotate(name, args, node)
        if name == "sub_group_elect":
            if args:
                raise SemaError(f"too many arguments to function call, expected 0, have {len(args)}", node.args[0])
            return self.bool_to_int(self.f.op("OpGroupNonUniformElect", self.b.type_bool(), self._scope()), INT)
        if name in ("sub_group_non_uniform_all", "sub_group_non_uniform_any"):
            opname = "OpGroupNonUniformAll" if name.endswith("all") else "OpGroupNonUniformAny"
            pred = self._predicate(args, node)
            return self.bool_to_int(self.f.op(opname, self.b.type_bool(), self._scope(), pred), INT)
        if name == "sub_group_ballot":
            pred = self._predicate(args, node)
            return self.val(UINT4, self.op("OpGroupNonUniformBallot", UINT4, self._scope(), pred))
        if name == "sub_group_non_uniform_all_equal":
            v = self._value(name, args, node, 1)
            return self.bool_to_int(self.f.op("OpGroupNonUniformAllEqual", self.b.type_bool(), self._scope(), v.id),
                                    INT)
        if name == "sub_group_broadcast_first":
            v = self._value(name, args, node, 1)
            return self.val(v.type, self.op("OpGroupNonUniformBroadcastFirst", v.type, self._scope(), v.id))
        if name == "sub_group_non_uniform_broadcast":
            v = self._value(name, args, node, 2, vectors=True)
            index = self._uint(args[1], node.args[1])
            if index.value is None:   # SPIR-V < 1.5: Broadcast's id must be a constant
                self._need(ext, node, CAPABILITY["cl_khr_subgroup_shuffle"])
                return self.val(v.type, self.op("OpGroupNonUniformShuffle", v.type, self._scope(), v.id, index.id))
            return self.val(v.type, self.op("OpGroupNonUniformBroadcast", v.type, self._scope(), v.id, index.id))
        if name in SHUFFLES:
            v = self._value(name, args, node, 2)
            index = self._uint(args[1], node.args[1])
            return self.val(v.type, self.op(SHUFFLES[name][0], v.type, self._scope(), v.id, index.id))
        # The ballot's own functions: a uint4 (and a uint index for bit_extract).
        count = 2 if name == "sub_group_ballot_bit_extract" else 1
        if len(args) != count:
            raise _no_match(name, node)
        check_implicit(args[0].type, UINT4, node.args[0], "passing")
        ballot = self.convert(args[0], UINT4, node.args[0]).id
        if name == "sub_group_inverse_ballot":
            return self.bool_to_int(self.f.op("OpGroupNonUniformInverseBallot", self.b.type_bool(), self._scope(),
                                              ballot), INT)
        if name == "sub_group_ballot_bit_extract":
            index = self._uint(args[1], node.args[1])
            return self.bool_to_int(self.f.op("OpGroupNonUniformBallotBitExtract", self.b.type_bool(), self._scope(),
                                              ballot, index.id), INT)
        if name in BALLOT_COUNT:
            operation = self.b.enum("GroupOperation", BALLOT_COUNT[name])
            return self.val(UINT, self.op("OpGroupNonUniformBallotBitCount", UINT, self._scope(), operation, ballot))
        opname = "OpGroupNonUniformBallotFindLSB" if name.endswith("lsb") else "OpGroupNonUniformBallotFindMSB"
        return self.val(UINT, self.op(opname, UINT, self._scope(), ballot))

    # -- helpers ----------------------------------------------------------------------------

    def _need(self, ext: str, node, capability: str | None) -> None:
        """Record GroupNonUniform and ``capability``; the module becomes SPIR-V 1.3 (an explicit
        lower version is an error at the first use)."""
        if self.b.version < SPIRV_1_3:
            if self.explicit_version:
                raise SemaError(f"'{ext}' built-ins need SPIR-V 1.3 (--spirv-version "
                                f"{self.b.version[0]}.{self.b.version[1]} given)", node)
            self.b.version = SPIRV_1_3
        self.non_uniform_capabilities.update(("GroupNonUniform",) + ((capability,) if capability else ()))
        if capability in OWN_CAPABILITIES:
            self.b.capability(capability)
        if capability == "GroupNonUniformRotateKHR":
            self.b.extension("SPV_KHR_subgroup_rotate")

    def _scope(self) -> int:
        return self.const(UINT, SUBGROUP).id

    def _predicate(self, args, node) -> int:
        """An ``int predicate`` argument (builtins_groups.predicate_argument) as bool."""
        return self.to_bool(self.predicate_argument(args, node), node)

    def _uint(self, v, node):
        if not v.type.is_scalar or v.type.is_void or v.type.is_pointer:
            raise SemaError(f"passing '{v.type}' to parameter of incompatible type 'uint'", node)
        return self.convert(v, UINT, node)

    def _value(self, name, args, node, count: int, *, vectors: bool = False, kinds=("int", "float")):
        """The value argument of a gentype overload set: an exact char … ulong / float / half /
        double (vectors of them where ``vectors``), a bool promoted to int."""
        if len(args) != count:
            raise _no_match(name, node)
        v = args[0]
        t = v.type
        if t == BOOL and "int" in kinds:
            return self.convert(v, INT, node.args[0])
        elem = t.element if (t.is_vector and vectors) else t if t.is_scalar else None
        if elem is not None and elem.is_float and "float" not in kinds:
            # A float converts to each integer overload equally well.
            raise SemaError(f"call to '{name}' is ambiguous", node)
        if elem is None or elem.kind not in kinds or elem == BOOL or \
                (elem.is_float and elem not in (FLOAT, HALF, DOUBLE)) or \
                (elem == HALF and not self.fp16) or (elem == DOUBLE and not self.fp64):
            raise _no_match(name, node)
        if elem.is_integer and elem not in INTEGERS:
            raise _no_match(name, node)
        return v

    def _arithmetic(self, name, args, node, operation: str, op: str):
        scope = self._scope()
        group_op = self.b.enum("GroupOperation", operation)
        clustered = operation == "ClusteredReduce"
        if op in LOGICAL_OPS:
            if clustered:    # int f(int predicate, uint clustersize): one declaration
                _count(args, node, 2)
                check_implicit(args[0].type, INT, node.args[0], "passing")
                pred = self.to_bool(self.convert(args[0], INT, node.args[0]), node)
                size = self._cluster_size(name, args[1], node.args[1])
                return self.bool_to_int(self.f.op("OpGroupNonUniform" + LOGICAL_OPS[op], self.b.type_bool(), scope,
                                                  group_op, pred, size), INT)
            pred = self._predicate(args, node)
            return self.bool_to_int(self.f.op("OpGroupNonUniform" + LOGICAL_OPS[op], self.b.type_bool(), scope,
                                              group_op, pred), INT)
        signed_op, unsigned_op, float_op = ARITHMETIC_OPS[op]
        v = self._value(name, args, node, 2 if clustered else 1, kinds=("int", "float") if float_op else ("int",))
        t = v.type
        opname = float_op if t.is_float else signed_op if t.signed else unsigned_op
        extra = (self._cluster_size(name, args[1], node.args[1], overloaded=True, call=node),) if clustered else ()
        return self.val(t, self.op("OpGroupNonUniform" + opname, t, scope, group_op, v.id, *extra))

    def _rotate(self, name, args, node):
        """sub_group_rotate(x, int delta), sub_group_clustered_rotate(x, int delta, uint
        clustersize): scalars only."""
        v = self._value(name, args, node, ROTATE[name])
        if not _plain_scalar(args[1].type):
            raise _no_match(name, node)
        delta = self.convert(args[1], INT, node.args[1]).id
        extra = (self._cluster_size(name, args[2], node.args[2], overloaded=True, call=node),) \
            if len(args) == 3 else ()
        return self.val(v.type, self.op("OpGroupNonUniformRotateKHR", v.type, self._scope(), v.id, delta, *extra))

    def _cluster_size(self, name, v, arg_node, *, overloaded: bool = False, call=None) -> int:
        """The ``uint clustersize`` argument: an integer constant expression and a power of two
        (see the module docstring), as a constant uint id."""
        if overloaded and not _plain_scalar(v.type):
            raise _no_match(name, call)
        check_implicit(v.type, UINT, arg_node, "passing")
        size = self.try_const_int(arg_node, self.scope)
        if size is None:
            raise SemaError(f"'clustersize' argument to '{name}' must be an integer constant expression", arg_node)
        size &= 0xFFFFFFFF
        if size == 0 or size & (size - 1):
            raise SemaError(f"'clustersize' argument to '{name}' must be a power of two (is {size})", arg_node)
        return self.const(UINT, size).id


def _plain_scalar(t) -> bool:
    return t.is_scalar and not t.is_void and not t.is_pointer


def _count(args, node, expected: int) -> None:
    """A call of a built-in with one declaration: clang's argument count messages."""
    if len(args) < expected:
        raise SemaError(f"too few arguments to function call, expected {expected}, have {len(args)}", node)
    if len(args) > expected:
        raise SemaError(f"too many arguments to function call, expected {expected}, have {len(args)}",
                        node.args[expected])


__all__ = ["NonUniformMixin", "extension_of"]
