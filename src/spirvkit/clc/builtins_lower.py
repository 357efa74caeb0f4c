"""Lowering of built-in calls to the SPIR-V the OpenCL environment expects: BuiltIn Input
variables for work-item functions, OpenCL.std ext-insts for the library, OpConvert* with
SaturatedConversion/FPRoundingMode for convert_*, OpBitcast for as_*, OpControlBarrier /
OpMemoryBarrier for synchronisation, OpAtomic* for legacy and C11 atomics."""

from __future__ import annotations

import math

from . import ast
from .builtins import (C11_FETCH, LEGACY_ATOMICS, SUB_GROUP_ITEM, WORK_ITEM, WORK_ITEM_SCALAR, candidates, parse_as,
                       parse_convert, parse_vload, resolve, unsupported_family)
from .codegen_expr import expr_start
from .enqueue import ENQUEUE_BUILTINS
from .sema import SemaError, not_supported
from .types import (BOOL, DOUBLE, FLOAT, HALF, INT, LONG, SIZE_T, STORAGE_CLASS, UINT, ULONG, VOID, CType, Pointer,
                    Scalar, Vector, atomic_name, relational_result, vector_of)

# Memory semantics bits (SPIR-V): the order, then the storage classes a fence covers.
SEQ_CST, ACQ_REL, ACQUIRE, RELEASE = 0x10, 0x8, 0x2, 0x4
WORKGROUP_MEMORY, CROSS_WORKGROUP_MEMORY, IMAGE_MEMORY = 0x100, 0x200, 0x800
SCOPE = {"work_item": 4, "work_group": 2, "device": 1, "all_svm_devices": 0, "sub_group": 3}
C11_SCOPE = {0: 4, 1: 2, 2: 1, 3: 0, 4: 3}  # memory_scope_* value -> SPIR-V Scope
C11_ORDER = {0: 0, 2: ACQUIRE, 3: RELEASE, 4: ACQ_REL, 5: SEQ_CST}
def cmpxchg_orders(success: int, failure: int) -> tuple[int, int]:
    """A compare-exchange's (success, failure) orders as SPIR-V requires them: a failure order of
    release or acq_rel is undefined in C11 (clang lowers them to relaxed and acquire), and the
    Unequal semantics must not be stronger than the Equal ones (SPIR-V 3.32.18), so a stronger
    failure order strengthens the success order, which is always a correct implementation."""
    failure = {RELEASE: 0, ACQ_REL: ACQUIRE}.get(failure, failure)
    if failure == SEQ_CST:
        success = SEQ_CST
    elif failure == ACQUIRE and success in (0, RELEASE):
        success = ACQUIRE if success == 0 else ACQ_REL
    return success, failure


ROUNDING_OPS = {"RTE": "rint", "RTZ": "trunc", "RTP": "ceil", "RTN": "floor"}


def fence_bits(flags: int) -> int:
    bits = 0
    if flags & 1:
        bits |= WORKGROUP_MEMORY
    if flags & 2:
        bits |= CROSS_WORKGROUP_MEMORY
    if flags & 4:
        bits |= IMAGE_MEMORY
    return bits


class BuiltinsMixin:
    def builtin_call(self, name: str, node):
        if name in ENQUEUE_BUILTINS:  # (its block arguments are no plain values)
            if self.cl_std < 200:
                raise self.undeclared(name, node)
            return self.enqueue_builtin(name, node)
        args = [self.expr(a) for a in node.args]
        args = [self.decay(a) if a.type.is_array else a for a in args]
        special = getattr(self, "bi_" + name, None)
        if special is not None:
            return special(args, node)
        if name in WORK_ITEM or name in WORK_ITEM_SCALAR:
            return self.work_item(name, args, node)
        conv = parse_convert(name)
        if conv is not None:
            return self.convert_builtin(name, conv, args, node)
        as_t = parse_as(name)
        if as_t is not None:
            return self.as_type(name, as_t, args, node)
        vl = parse_vload(name)
        if vl is not None:
            return self.vload_store(name, vl, args, node)
        if name.startswith(("atomic_", "atom_")):
            return self.atomic(name, args, node)
        if name.startswith(("work_group_", "sub_group_", "get_sub_group_")):
            result = self.group_builtin(name, args, node)
            if result is not None:
                return result
        overloads = candidates(name, self.cl_std)
        if overloads is None:
            what = unsupported_family(name)
            if what is not None:
                raise not_supported(f"{what} ('{name}')", node)
            raise self.undeclared(name, node)
        ov, message, count = resolve(name, overloads, [a.type for a in args])
        if ov is None:
            raise SemaError(f"{message} (with {count} candidate function{'s' if count != 1 else ''})"
                            if "no matching" in message else message, node)
        conv_args = []
        for a, p, n in zip(args, ov.params, node.args):
            conv_args.append(self.convert(a, p, n))
        return self.lower_overload(ov, conv_args, node)

    def lower_overload(self, ov, args, node):
        kind, data, name = ov.lower, ov.data, ov.name
        if kind.startswith("image_"):
            return self.lower_image(ov, args, node)  # images.py
        ids = [a.id for a in args]
        if kind in ("ext_splat", "ext_su_splat"):
            # The scalar operands of mixed forms (fmax(v, s)) are splatted to the vector.
            t = ov.result if ov.result.is_vector else args[0].type
            ids = [self.convert(a, t, node).id if a.type.is_scalar and t.is_vector and a.type == t.element
                   else a.id for a in args]
            kind = kind[:-6]
        if kind == "ext":
            return self.val(ov.result, self.ext_inst(data or name, ov.result, ids))
        if kind == "ext_su":
            elem = args[0].type.element
            return self.val(ov.result, self.ext_inst(("s_" if elem.signed else "u_") + name, ov.result, ids))
        if kind == "dot":
            if args[0].type.is_vector:
                return self.val(ov.result, self.op("OpDot", ov.result, *ids))
            return self.val(ov.result, self.op("OpFMul", ov.result, *ids))
        if kind == "compare":
            opname = {"isequal": "OpFOrdEqual", "isnotequal": "OpFUnordNotEqual", "isgreater": "OpFOrdGreaterThan",
                      "isgreaterequal": "OpFOrdGreaterThanEqual", "isless": "OpFOrdLessThan",
                      "islessequal": "OpFOrdLessThanEqual", "islessgreater": "OpFOrdNotEqual",
                      "isordered": "OpOrdered", "isunordered": "OpUnordered"}[name]
            return self.mask_result(self.f.op(opname, self.bool_type(args[0].type.width), *ids), args[0].type)
        if kind == "classify":
            opname = {"isfinite": "OpIsFinite", "isinf": "OpIsInf", "isnan": "OpIsNan", "isnormal": "OpIsNormal",
                      "signbit": "OpSignBitSet"}[name]
            return self.mask_result(self.f.op(opname, self.bool_type(args[0].type.width), *ids), args[0].type)
        if kind == "anyall":
            t = args[0].type
            neg = self.f.op("OpSLessThan", self.bool_type(t.width), ids[0], self.const(t, 0).id)
            if t.is_vector:
                neg = self.f.op("OpAny" if name == "any" else "OpAll", self.b.type_bool(), neg)
            return self.bool_to_int(neg, INT)
        raise not_supported(f"built-in '{name}'", node)

    def mask_result(self, c: int, t: CType):
        if t.is_vector:
            return self.select_mask(c, relational_result(t))
        return self.bool_to_int(c, INT)

    # -- work-item functions ----------------------------------------------------------------

    def builtin_var(self, builtin: str, ctype: CType) -> int:
        var = self.builtin_vars.get(builtin)
        if var is None:
            var = self.b.global_variable(self.b.type_pointer("Input", self.spv(ctype)), "Input", None,
                                         f"__spirv_BuiltIn{builtin}")
            self.b.decorate(var, "BuiltIn", self.b.enum("BuiltIn", builtin))
            self.b.decorate(var, "Constant")
            self.builtin_vars[builtin] = var
        return var

    def work_item(self, name, args, node):
        if name in WORK_ITEM_SCALAR:
            if name in SUB_GROUP_ITEM:
                self.require_group_functions(name, node, SCOPE["sub_group"])  # cl_khr_subgroups
            if args:  # clang reports at the first argument
                raise SemaError(f"too many arguments to function call, expected 0, have {len(args)}", node.args[0])
            builtin, t = WORK_ITEM_SCALAR[name]
            var = self.builtin_var(builtin, t)
            return self.val(t, self.f.op("OpLoad", self.spv(t), var))
        if len(args) != 1:
            raise SemaError(f"too {'few' if not args else 'many'} arguments to function call, expected 1, "
                            f"have {len(args)}", node)
        builtin, default = WORK_ITEM[name]
        vt = Vector(ULONG, 3)
        var = self.builtin_var(builtin, vt)
        dim = self.convert(args[0], UINT, node.args[0])
        vec = self.f.op("OpLoad", self.spv(vt), var)
        if dim.value is not None:
            if 0 <= dim.value < 3:
                return self.val(SIZE_T, self.op("OpCompositeExtract", ULONG, vec, dim.value))
            return self.const(SIZE_T, default)
        # Out-of-range dimensions give 0 (ids) or 1 (sizes), §1.13.1.
        ok = self.f.op("OpULessThan", self.b.type_bool(), dim.id, self.u32(3))
        safe = self.f.op("OpSelect", self.b.type_int(32), ok, dim.id, self.u32(0))
        got = self.op("OpVectorExtractDynamic", ULONG, vec, safe)
        return self.val(SIZE_T, self.op("OpSelect", ULONG, ok, got, self.const(ULONG, default).id))

    # -- conversions ------------------------------------------------------------------------

    def convert_builtin(self, name, conv, args, node):
        elem, n, sat, rounding = conv
        if len(args) != 1:
            raise SemaError(f"no matching function for call to '{name}'", node)
        src = args[0].type
        if not (src.is_scalar or src.is_vector) or src.is_void or src.element == BOOL or src.width != n:
            raise SemaError(f"no matching function for call to '{name}'", node)
        to = vector_of(elem, n)
        s = src.element
        if s == elem and not (rounding and False):
            return self.val(to, args[0].id)
        vid = args[0].id
        if s.is_float and not elem.is_float:
            if rounding and rounding != "RTZ":
                vid = self.ext_inst(ROUNDING_OPS[rounding], src, [vid])
            if sat:
                return self.val(to, self.float_to_int_sat(vid, s, elem, n))
            return self.val(to, self.scalar_convert(vid, s, elem, n=n))
        mode = rounding if (elem.is_float and (not s.is_float or elem.bits < s.bits)) else None
        return self.val(to, self.scalar_convert(vid, s, elem, rounding=mode, sat=sat, n=n))

    def float_to_int_sat(self, vid, s, elem, n):
        """Saturating float→int: OpConvertFToS/U with SaturatedConversion (NaN → 0)."""
        rid = self.f.op("OpConvertFToS" if elem.signed else "OpConvertFToU", self.spv(vector_of(elem, n)), vid)
        self.b.decorate(rid, "SaturatedConversion")
        return rid

    def as_type(self, name, to, args, node):
        if len(args) != 1:
            raise SemaError(f"no matching function for call to '{name}'", node)
        src = args[0].type
        if not (src.is_scalar or src.is_vector) or src.size != to.size or src.element == BOOL:
            raise SemaError(f"invalid reinterpretation: sizes of '{to}' and '{src}' must match", node)
        if src == to:
            return self.val(to, args[0].id)
        if src.width == 3 or to.width == 3:
            # A 3-vector is reinterpreted as the 4-vector whose room it takes: 4 ↔ 3 keeps the
            # bits of the first three components (§1.2.4); other widths are implementation-defined.
            vid = args[0].id
            if src.width == 3:
                vid = self.op("OpVectorShuffle", Vector(src.element, 4), vid, vid, [0, 1, 2, 0])
            wide = Vector(to.element, 4) if to.width == 3 else to
            vid = self.op("OpBitcast", wide, vid)
            if to.width == 3:
                vid = self.op("OpVectorShuffle", to, vid, vid, [0, 1, 2])
            return self.val(to, vid)
        if any(t.element.bits == 16 and t.element.is_float for t in (src, to)):
            self.uses_half_values = True
        return self.val(to, self.op("OpBitcast", to, args[0].id))

    def expr_AsType(self, node):
        """``__builtin_astype(e, T)``: as_T for scalars and vectors; to clk_event_t or
        reserve_id_t (CLK_NULL_EVENT, CLK_NULL_RESERVE_ID) from a constant, the type's null value
        (the executor's invalid handle: SPIR-V has no conversion of bits to these types)."""
        to, _ = self.types.declarator(node.to.type, self.scope)
        v = self.expr(node.expr)
        if v.type.is_array:
            v = self.decay(v)
        src = v.type
        if to.size != src.size or to == VOID or src == VOID:
            origin = v.origin
            shown = (f"{src}__{origin.space}" if src.is_pointer else f"__{origin.space} {src}") \
                if origin is not None and getattr(origin, "space", None) else str(src)
            raise SemaError(f"invalid reinterpretation: sizes of '{to}' and '{shown}' must match", node)
        if (to.is_scalar or to.is_vector) and (src.is_scalar or src.is_vector):
            return self.as_type("__builtin_astype", to, [v], node)
        if str(to) in ("clk_event_t", "reserve_id_t") and (src.is_scalar or src.is_pointer) and \
                self.astype_constant(node.expr) is not None:
            return self.val(to, self.b.constant_null(self.spv(to)))
        raise not_supported(f"__builtin_astype from '{src}' to '{to}'", node)

    def astype_constant(self, node):
        """The integer under the casts of a constant operand (``(void *)(__SIZE_MAX__)``), or None."""
        while isinstance(node, (ast.Paren, ast.Cast)):
            node = node.expr
        return self.try_const_int(node, self.scope)

    # -- vload / vstore ---------------------------------------------------------------------

    def vload_store(self, name, parsed, args, node):
        base, n, mode = parsed
        store = base.startswith("vstore")
        need = 3 if store else 2
        if len(args) != need:
            raise SemaError(f"no matching function for call to '{name}'", node)
        ptr = args[-1]
        if not ptr.type.is_pointer:
            raise SemaError(f"no matching function for call to '{name}'", node)
        offset = self.convert(args[-2], SIZE_T, node.args[-2])
        pointee = ptr.type.pointee
        half = "half" in base
        if store and ptr.type.space == "constant":
            raise SemaError(f"no matching function for call to '{name}'", node)
        if half:
            if not (pointee.is_scalar and pointee.is_float and pointee.bits == 16):
                raise SemaError(f"no matching function for call to '{name}'", node)
        elif not (pointee.is_scalar and not pointee.is_void and pointee != BOOL):
            raise SemaError(f"no matching function for call to '{name}'", node)
        if not store:
            t = vector_of(FLOAT if half else pointee, n)
            opname = {"vload": "vloadn", "vload_half": "vload_half" if n == 1 else "vload_halfn",
                      "vloada_half": "vloada_halfn"}[base]
            extra = [] if opname == "vload_half" else [n]
            return self.val(t, self.ext_inst(opname, t, [offset.id, ptr.id] + extra))
        data = args[0]
        dt = data.type
        if half:
            if not (dt.element.is_float and dt.element.bits in (32, 64)) or dt.width != n:
                raise SemaError(f"no matching function for call to '{name}'", node)
        elif dt != vector_of(pointee, n):
            if dt.is_vector and dt.width == n and dt.element != pointee:
                raise SemaError(f"no matching function for call to '{name}'", node)
            data = self.convert(data, vector_of(pointee, n), node.args[0])
        if half:
            suffix = "" if n == 1 else "n"
            opname = ("vstorea_halfn" if base == "vstorea_half" else "vstore_half" + suffix) + ("_r" if mode else "")
            ops = [data.id, offset.id, ptr.id]
            if mode:
                ops.append(self.b.enum("FPRoundingMode", mode))
        else:
            opname, ops = "vstoren", [data.id, offset.id, ptr.id]
        self.f.op("OpExtInst", self.b.type_void(), self.ext, self.b.ext_inst_number("OpenCL.std", opname), ops)
        return self.val(VOID, None)

    # -- synchronisation --------------------------------------------------------------------

    def _flags(self, v, node) -> int:
        if v.value is None:
            raise SemaError("the memory fence flags must be a compile-time constant (not supported yet: "
                            "run-time fence flags)", node)
        value = v.value
        if isinstance(value, float):
            # A float argument converts to cl_mem_fence_flags; out of range it is undefined
            # (C99 6.3.1.4; clang warns and passes poison): no fence bits then.
            value = int(value) if math.isfinite(value) and -2.0 ** 63 <= value < 2.0 ** 64 else 0
        return int(value) & 0xFFFFFFFF

    def bi_barrier(self, args, node):
        if len(args) != 1:
            raise SemaError("no matching function for call to 'barrier'", node)
        sem = SEQ_CST | fence_bits(self._flags(args[0], node))
        self.f.op("OpControlBarrier", None, self.u32(2), self.u32(2), self.u32(sem))
        return self.val(VOID, None)

    def bi_work_group_barrier(self, args, node):
        if len(args) not in (1, 2):
            raise SemaError("no matching function for call to 'work_group_barrier'", node)
        sem = SEQ_CST | fence_bits(self._flags(args[0], node))
        scope = C11_SCOPE.get(self._flags(args[1], node), 2) if len(args) == 2 else 2
        self.f.op("OpControlBarrier", None, self.u32(2), self.u32(scope), self.u32(sem))
        return self.val(VOID, None)

    def _fence(self, args, node, order):
        if len(args) != 1:
            raise SemaError("no matching function for call to 'mem_fence'", node)
        sem = order | fence_bits(self._flags(args[0], node))
        self.f.op("OpMemoryBarrier", None, self.u32(2), self.u32(sem))
        return self.val(VOID, None)

    def bi_mem_fence(self, args, node):
        return self._fence(args, node, SEQ_CST)

    def bi_read_mem_fence(self, args, node):
        return self._fence(args, node, ACQUIRE)

    def bi_write_mem_fence(self, args, node):
        return self._fence(args, node, RELEASE)

    def bi_atomic_work_item_fence(self, args, node):
        if len(args) != 3:
            raise SemaError("no matching function for call to 'atomic_work_item_fence'", node)
        sem = C11_ORDER.get(self._flags(args[1], node), SEQ_CST) | fence_bits(self._flags(args[0], node))
        self.f.op("OpMemoryBarrier", None, self.u32(C11_SCOPE.get(self._flags(args[2], node), 1)), self.u32(sem))
        return self.val(VOID, None)

    def bi_shuffle(self, args, node, name="shuffle"):
        # shuffle(x, mask), shuffle2(x, y, mask): x and y of one type
        if len(args) != (2 if name == "shuffle" else 3):
            raise SemaError(f"no matching function for call to '{name}'", node)
        vecs, mask = args[:-1], args[-1]
        if not all(v.type.is_vector for v in args) or vecs[-1].type != vecs[0].type or \
                mask.type.element.signed or mask.type.element.bits != vecs[0].type.element.bits:
            raise SemaError(f"no matching function for call to '{name}'", node)
        t = Vector(vecs[0].type.elem, mask.type.n)
        return self.val(t, self.ext_inst(name, t, [v.id for v in args]))

    def bi_shuffle2(self, args, node):
        return self.bi_shuffle(args, node, "shuffle2")

    def _generic_argument(self, args, node, name):
        """The one pointer argument of to_global/to_local/to_private/get_fence (§1.13.9): a
        generic pointer, or a named one that converts to generic; never constant."""
        if self.cl_std < 200:
            raise SemaError(f"use of undeclared identifier '{name}'", node)
        if len(args) != 1:
            raise SemaError(f"too {'few' if not args else 'many'} arguments to function call, expected 1, have "
                            f"{len(args)}", node)
        if not args[0].type.is_pointer or args[0].type.space == "constant":
            arg = node.args[0]
            text = f"{arg.name} " if isinstance(arg, ast.Identifier) else ""
            raise SemaError(f"invalid argument {text}to function: '{name}', expecting a generic pointer argument",
                            node.args[0])
        return args[0]

    def bi_to_global(self, args, node, space="global"):
        p = self._generic_argument(args, node, f"to_{space}")
        t = Pointer(p.type.pointee, space)
        if p.type.space != "generic":  # statically known: the pointer itself, or NULL
            return self.val(t, p.id) if p.type.space == space else self.const(t, 0)
        rid = self.op("OpGenericCastToPtrExplicit", t, args[0].id, self.b.enum("StorageClass", STORAGE_CLASS[space]))
        return self.val(t, rid)

    def bi_to_local(self, args, node):
        return self.bi_to_global(args, node, "local")

    def bi_to_private(self, args, node):
        return self.bi_to_global(args, node, "private")

    def bi_printf(self, args, node):
        """printf (§1.13.13) → OpenCL.std printf, returning int. The format is a string literal
        (the spec's rule; it lands in the constant address space); the other arguments get C's
        default argument promotions (float/half to double, bool/char/short to int); vectors and
        pointers pass as they are."""
        if not args:
            raise SemaError("too few arguments to function call, expected at least 1, have 0", node)
        fmt = node.args[0]
        while isinstance(fmt, ast.Paren):
            fmt = fmt.expr
        if not isinstance(fmt, ast.StringLiteral):
            raise SemaError("format string is not a string literal", node.args[0])
        ids = [args[0].id]
        for v, a in zip(args[1:], node.args[1:]):
            t = v.type
            if t.is_scalar and not t.is_void and not t.is_pointer:
                if t.is_float and t.bits < 64:
                    v = self.convert(v, DOUBLE, a)
                elif t == BOOL or (t.is_integer and t.bits < 32):
                    v = self.convert(v, INT, a)
            elif not (t.is_vector or t.is_pointer):
                raise SemaError(f"cannot pass object of non-trivial type '{t}' through variadic function", a)
            ids.append(v.id)
        return self.val(INT, self.ext_inst("printf", INT, ids))

    def bi_get_fence(self, args, node):
        p = self._generic_argument(args, node, "get_fence")
        if p.type.space != "generic":
            return self.const(UINT, {"global": 2, "local": 1}.get(p.type.space, 0))
        # WorkgroupMemory (0x100) / CrossWorkgroupMemory (0x200) >> 8 = CLK_LOCAL (1) / CLK_GLOBAL (2)
        sem = self.f.op("OpGenericPtrMemSemantics", self.b.type_int(32), p.id)
        return self.val(UINT, self.op("OpShiftRightLogical", UINT, sem, self.const(UINT, 8).id))

    # -- atomics ----------------------------------------------------------------------------

    def atomic(self, name, args, node):
        legacy = name[len("atom_"):] if name.startswith("atom_") else name[len("atomic_"):]
        if name.startswith("atom_") or legacy in LEGACY_ATOMICS:
            # Device scope, relaxed: the OpenCL 1.2 environment requires exactly that of every
            # atomic (env spec 2.27), and a global atomic is visible across work-groups (llvm-spirv-15
            # emits Workgroup here, which the 1.2 environment does not allow).
            return self.atomic_op(name, legacy, args, node, scope=1, order=0)
        c11 = name[len("atomic_"):]
        explicit = c11.endswith("_explicit")
        if explicit:
            c11 = c11[: -len("_explicit")]
        return self.atomic_c11(name, c11, explicit, args, node)

    def _atomic_pointer(self, name, p, node, c11=False, flag=False, fetch=False):
        """The value type the atomic built-in ``name`` works on, from its pointer argument.
        The C11 built-ins take pointers to atomic types, the legacy ones pointers to plain
        integers; given the other kind, clang converts the pointer with a warning
        (-Wincompatible-pointer-types), and so does this."""
        pointee = p.type.pointee if p.type.is_pointer else None
        t = pointee.value if pointee is not None and pointee.is_atomic else pointee
        if t is None or not (t.is_scalar and t.is_integer or t.is_float) or t.bits not in (32, 64):
            raise SemaError(f"no matching function for call to '{name}'", node)
        if flag and not (t.is_integer and t.bits == 32) or fetch and t.is_float:
            raise SemaError(f"no matching function for call to '{name}'", node)
        if p.type.space == "constant":
            # No overload takes a __constant pointer (legacy: __global/__local; C11: generic,
            # which __constant does not convert to): clang finds no viable candidate.
            raise SemaError(f"no matching function for call to '{name}'", node)
        if c11 and not pointee.is_atomic:
            space = "__generic " if self.cl_std >= 200 else ""
            target = "atomic_flag" if flag else atomic_name(t)
            self.warn(f"incompatible pointer types passing '{p.type}' to parameter of type "
                      f"'volatile {space}{target} *'", expr_start(node.args[0]), "-Wincompatible-pointer-types")
        elif not c11 and pointee.is_atomic:
            space = f"__{p.type.space} " if p.type.space != "private" else ""
            self.warn(f"incompatible pointer types passing '{p.type}' to parameter of type "
                      f"'volatile {space}{t.with_signed(t.signed)} *'", expr_start(node.args[0]),
                      "-Wincompatible-pointer-types")
        if t.bits == 64:
            self.uses_int64_atomics = True
        return t

    def atomic_read(self, lv):
        """Reading an atomic object as a value (C11 lvalue conversion): clang's seq_cst atomic
        load, at device scope as the non-explicit built-ins (a private object: a plain load)."""
        t = lv.type.value
        if lv.space == "private":
            return self.val(t, self.f.op("OpLoad", self.spv(t, True), lv.ptr))
        if t.bits == 64:
            self.uses_int64_atomics = True
        sem = SEQ_CST | self._storage_semantics(lv.space)
        return self.val(t, self.op("OpAtomicLoad", t, lv.ptr, self.u32(1), self.u32(sem)))

    def atomic_op(self, name, op, args, node, scope, order, extra=None):
        if op not in LEGACY_ATOMICS:
            raise SemaError(f"use of undeclared identifier '{name}'", node)
        if not args:
            raise SemaError(f"no matching function for call to '{name}'", node)
        p = self._legacy_atomic_pointer(name, op, args, node)
        t = self._atomic_pointer(name, p, node)
        if t.is_float and op != "xchg":
            raise SemaError(f"no matching function for call to '{name}'", node)
        nargs = {"inc": 1, "dec": 1, "cmpxchg": 3}.get(op, 2)
        if len(args) != nargs:
            raise SemaError(f"no matching function for call to '{name}'", node)
        sem = self._storage_semantics(p.type.space) | order
        sc, sm = self.u32(scope), self.u32(sem)
        vals = [self.convert(a, t, n).id for a, n in zip(args[1:], node.args[1:])]
        opname = LEGACY_ATOMICS[op]
        if opname in ("min", "max"):
            opname = ("OpAtomicS" if t.signed else "OpAtomicU") + ("Min" if op == "min" else "Max")
        if op in ("inc", "dec"):
            rid = self.op(opname, t, p.id, sc, sm)
        elif op == "cmpxchg":
            rid = self.op(opname, t, p.id, sc, sm, sm, vals[1], vals[0])
        else:
            rid = self.op(opname, t, p.id, sc, sm, vals[0])
        return self.val(t, rid)

    def _legacy_atomic_pointer(self, name, op, args, node):
        """The pointer argument of an OpenCL 1.x atomic, as the overload clang chooses takes it.
        Their overloads take int and uint pointers (atom_* also long and ulong ones, from
        cl_khr_int64_*_atomics; atomic_xchg also float): a pointer to another type converts to
        any of them (C's incompatible pointer conversion, with clang's warning), so the value
        arguments choose — ``atomic_add(float_ptr, 1)`` is the int one — and a tie (no value
        argument, or ``atomic_add(long_ptr, 1L)``) is ambiguous."""
        from .builtins import Overload, resolve
        p = args[0]
        pointee = p.type.pointee if p.type.is_pointer else None
        if pointee is None or pointee.is_atomic or pointee.is_void:
            return p
        types = [INT, UINT] + ([LONG, ULONG] if name.startswith("atom_") else []) + \
            ([FLOAT] if name == "atomic_xchg" else [])
        if pointee in types:
            return p
        values = [a.type for a in args[1:]]
        best, message, _ = resolve(name, [Overload(name, (t,) * len(values), t, None, t) for t in types], values)
        if best is None:
            raise SemaError(message, node)
        t = best.data
        to = Pointer(t, p.type.space, volatile=True)
        space = f"__{p.type.space} " if p.type.space != "private" else ""
        self.warn(f"incompatible pointer types passing '{p.type}' to parameter of type 'volatile {space}{t} *'",
                  expr_start(node.args[0]), "-Wincompatible-pointer-types")
        return self.val(to, self.op("OpBitcast", to, p.id))

    @staticmethod
    def _storage_semantics(space):
        return {"local": WORKGROUP_MEMORY, "global": CROSS_WORKGROUP_MEMORY}.get(space, 0)

    def atomic_c11(self, name, op, explicit, args, node):
        base_args = {"init": 2, "store": 2, "load": 1, "exchange": 2, "compare_exchange_strong": 3,
                     "compare_exchange_weak": 3, "flag_test_and_set": 1, "flag_clear": 1}
        if op.startswith("fetch_"):
            n = 2
        elif op in base_args:
            n = base_args[op]
        else:
            raise SemaError(f"use of undeclared identifier '{name}'", node)
        if len(args) < n or (not explicit and len(args) != n) or len(args) > n + (3 if "compare" in op else 2):
            raise SemaError(f"no matching function for call to '{name}'", node)
        p = args[0]
        t = self._atomic_pointer(name, p, node, c11=True, flag=op.startswith("flag_"), fetch=op.startswith("fetch_"))
        extra = args[n:]
        orders = [self._flags(a, node) for a in extra if True][: 2 if "compare" in op else 1]
        scope_v = extra[-1] if len(extra) > (2 if "compare" in op else 1) else None
        order = C11_ORDER.get(orders[0], SEQ_CST) if orders else SEQ_CST
        scope = C11_SCOPE.get(self._flags(scope_v, node), 1) if scope_v is not None else 1
        sem = order | (self._storage_semantics(p.type.space) if order else 0)
        sc, sm = self.u32(scope), self.u32(sem)
        vals = [self.convert(a, t, nd).id for a, nd in zip(args[1:n], node.args[1:n])]
        if op == "init":
            self.f.op("OpStore", None, p.id, vals[0])
            return self.val(VOID, None)
        if op == "store":
            self.f.op("OpAtomicStore", None, p.id, sc, sm, vals[0])
            return self.val(VOID, None)
        if op == "load":
            return self.val(t, self.op("OpAtomicLoad", t, p.id, sc, sm))
        if op == "exchange":
            return self.val(t, self.op("OpAtomicExchange", t, p.id, sc, sm, vals[0]))
        if op.startswith("compare_exchange"):
            expected_ptr = args[1]
            if not expected_ptr.type.is_pointer:
                raise SemaError(f"no matching function for call to '{name}'", node)
            desired = self.convert(args[2], t, node.args[2]).id
            fail = C11_ORDER.get(orders[1], 0) if len(orders) > 1 else 0
            order, fail = cmpxchg_orders(order, fail)
            sm = self.u32(order | (self._storage_semantics(p.type.space) if order else 0))
            sm_fail = self.u32(fail | (self._storage_semantics(p.type.space) if fail else 0))
            expected = self.op("OpLoad", t, expected_ptr.id)
            old = self.op("OpAtomicCompareExchange", t, p.id, sc, sm, sm_fail, desired, expected)
            ok = self.f.op("OpIEqual", self.b.type_bool(), old, expected)
            self.f.op("OpStore", None, expected_ptr.id, old)
            return self.val(BOOL, ok)
        if op.startswith("fetch_"):
            what = op[len("fetch_"):]
            if what not in C11_FETCH or t.is_float:
                raise SemaError(f"no matching function for call to '{name}'", node)
            opname = C11_FETCH[what]
            if opname in ("min", "max"):
                opname = ("OpAtomicS" if t.signed else "OpAtomicU") + ("Min" if what == "min" else "Max")
            return self.val(t, self.op(opname, t, p.id, sc, sm, vals[0]))
        if op == "flag_test_and_set":
            old = self.op("OpAtomicExchange", INT, p.id, sc, sm, self.const(INT, 1).id)
            return self.val(BOOL, self.f.op("OpINotEqual", self.b.type_bool(), old, self.const(INT, 0).id))
        if op == "flag_clear":
            self.f.op("OpAtomicStore", None, p.id, sc, sm, self.const(INT, 0).id)
            return self.val(VOID, None)
        raise not_supported(f"'{name}'", node)


__all__ = ["BuiltinsMixin", "HALF", "LONG", "Scalar", "ast"]
