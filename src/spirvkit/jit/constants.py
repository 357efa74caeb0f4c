"""Constants and specialization constants, evaluated on the host.

Every constant is first evaluated to a Python value (int, float, bool, list for composites,
None for a null/undef) so that OpSpecConstantOp can be folded once the specialization values
are known; then it becomes an LLVM constant, or bytes for a program-scope variable's initial
value.
"""

from __future__ import annotations

import math
import struct

import numpy as np
from llvmlite import ir

from ..errors import NotSupportedError, SpirvError, SpirvkitError
from ..spirv.names import DECORATION, OP
from .types import SpvType, TypeTable, _element_offset

OP_CONSTANT_TRUE, OP_CONSTANT_FALSE, OP_CONSTANT, OP_CONSTANT_COMPOSITE = OP.ConstantTrue, OP.ConstantFalse, OP.Constant, OP.ConstantComposite
OP_CONSTANT_SAMPLER, OP_CONSTANT_NULL = OP.ConstantSampler, OP.ConstantNull
OP_SPEC_TRUE, OP_SPEC_FALSE, OP_SPEC_CONSTANT, OP_SPEC_COMPOSITE, OP_SPEC_OP = OP.SpecConstantTrue, OP.SpecConstantFalse, OP.SpecConstant, OP.SpecConstantComposite, OP.SpecConstantOp
OP_UNDEF = OP.Undef
OP_VARIABLE = OP.Variable


class GlobalAddress:
    """The value of an address in a program-scope variable in a constant initialiser (``global
    int *p = &g;``, ``&arr[3]``, ``&s.b``, ``(global char *)&x + 1``): the variable and a byte
    offset into it (OpSpecConstantOp access chains and casts over the OpVariable fold to it).
    Only known once the runtime has placed the variables, so it is written as a relocation (see
    to_bytes)."""

    __slots__ = ("var_id", "offset")

    def __init__(self, var_id: int, offset: int = 0):
        self.var_id = var_id
        self.offset = offset

CONSTANT_OPS = {OP_CONSTANT_TRUE, OP_CONSTANT_FALSE, OP_CONSTANT, OP_CONSTANT_COMPOSITE, OP_CONSTANT_NULL,
                OP_SPEC_TRUE, OP_SPEC_FALSE, OP_SPEC_CONSTANT, OP_SPEC_COMPOSITE, OP_SPEC_OP, OP_UNDEF,
                OP_CONSTANT_SAMPLER}

_FLOAT_CODES = {16: "e", 32: "f", 64: "d"}


class SpecializationError(SpirvkitError):
    """A specialization constant id or value the module cannot take."""


def bits_to_float(bits: int, width: int) -> float:
    return struct.unpack("<" + _FLOAT_CODES[width], bits.to_bytes(width // 8, "little"))[0]


def float_to_bits(value: float, width: int) -> int:
    return int.from_bytes(struct.pack("<" + _FLOAT_CODES[width], value), "little")


class ConstantEvaluator:
    """Evaluates the module's constants, with specialization values applied."""

    def __init__(self, module, types: TypeTable, spec_values: dict[int, object] | None = None):
        self.module = module
        self.types = types
        self.cache: dict[int, object] = {}
        self.spec_ids: dict[int, int] = {}      # result id -> SpecId
        for inst in module.section("annotations"):
            if inst.opcode == OP.Decorate and inst.words[2] == DECORATION.SpecId:
                self.spec_ids[inst.words[1]] = inst.words[3]
        self.spec_values = dict(spec_values or {})
        known = set(self.spec_ids.values())
        unknown = sorted(set(self.spec_values) - known)
        if unknown:
            raise SpecializationError(
                f"no specialization constant has SpecId {', '.join(map(str, unknown))} "
                f"(the module's SpecIds: {', '.join(map(str, sorted(known))) or 'none'})")

    def is_constant(self, value_id: int) -> bool:
        inst = self.module.definition(value_id)
        return inst is not None and inst.opcode in CONSTANT_OPS

    def value(self, value_id: int):
        if value_id in self.cache:
            return self.cache[value_id]
        inst = self.module.definition(value_id)
        result = self._evaluate(inst)
        self.cache[value_id] = result
        return result

    def _evaluate(self, inst):
        op, w = inst.opcode, inst.words
        if op in (OP_CONSTANT_TRUE, OP_CONSTANT_FALSE):
            return op == OP_CONSTANT_TRUE
        if op in (OP_SPEC_TRUE, OP_SPEC_FALSE):
            default = op == OP_SPEC_TRUE
            return bool(self._override(w[2], default, self.types[w[1]]))
        if op == OP_CONSTANT:
            return self._literal(self.types[w[1]], inst.value(2))
        if op == OP_SPEC_CONSTANT:
            t = self.types[w[1]]
            return self._override(w[2], self._literal(t, inst.value(2)), t)
        if op in (OP_CONSTANT_COMPOSITE, OP_SPEC_COMPOSITE):
            self._check_constituent_count(inst)
            return [self.value(c) for c in w[3:]]
        if op in (OP_CONSTANT_NULL, OP_UNDEF):
            return None
        if op == OP_SPEC_OP:
            return fold_spec_op(self, inst)
        if op == OP_VARIABLE and self.types[w[1]].storage in ("CrossWorkgroup", "UniformConstant"):
            return GlobalAddress(w[2])
        raise NotSupportedError(f"{inst.opname} as a constant")

    def _check_constituent_count(self, inst) -> None:
        """A composite constant must have one constituent per element or member of its type
        (the validator's constants.constituent-count); a module run without validation is
        refused here, before a wrongly sized constant is built."""
        t = self.types[inst.words[1]]
        expected = len(t.members) if t.kind == "struct" else t.count if t.kind in ("vector", "array") else None
        got = len(inst.words) - 3
        if expected is not None and got != expected:
            raise SpirvError(f"invalid module: {inst.opname} %{inst.words[2]} has {got} constituents, but its type "
                             f"%{inst.words[1]} ({t.kind}) has {expected} (spirvkit val reports this)")

    def _literal(self, t: SpvType, raw: int):
        if t.kind == "float":
            return bits_to_float(raw, t.width)
        return raw  # integers are kept as unsigned bit patterns

    def _override(self, result_id: int, default, t: SpvType):
        spec_id = self.spec_ids.get(result_id)
        if spec_id is None or spec_id not in self.spec_values:
            return default
        return coerce(self.spec_values[spec_id], t, f"specialization constant SpecId {spec_id}")

    # ----- to LLVM --------------------------------------------------------------------------
    def llvm(self, value_id: int, t: SpvType) -> ir.Constant:
        return to_llvm(self.value(value_id), t)

    def to_bytes(self, value, t: SpvType, relocations: list | None = None) -> bytes:
        """The in-memory image of a constant (program-scope variable initialisers). Addresses of
        program-scope variables in it are left zero and listed in ``relocations`` as (byte
        offset in the image, pointer size, variable id, byte offset in that variable)."""
        size = self.types.size(t)
        out = bytearray(size)
        self._write(out, 0, value, t, relocations)
        return bytes(out)

    def _write(self, out: bytearray, at: int, value, t: SpvType, relocations=None) -> None:
        if value is None:
            return  # null: already zero
        if isinstance(value, GlobalAddress):
            if relocations is None:
                raise NotSupportedError("the address of a program-scope variable in this initialiser")
            relocations.append((at, self.types.size(t), value.var_id, value.offset))
            return
        if t.kind in ("int", "bool"):
            n = max(1, t.width // 8) if t.kind == "int" else 1
            out[at:at + n] = (int(value) & ((1 << (8 * n)) - 1)).to_bytes(n, "little")
        elif t.kind == "float":
            n = t.width // 8
            out[at:at + n] = float_to_bits(value, t.width).to_bytes(n, "little")
        elif t.kind in ("vector", "array"):
            step = self.types.size(t.elem) if t.kind == "array" else self.types.size(t.elem)
            for i, v in enumerate(value):
                self._write(out, at + i * step, v, t.elem, relocations)
        elif t.kind == "struct":
            for i, (v, m) in enumerate(zip(value, t.members)):
                self._write(out, at + _element_offset(t.llvm, i, self.types.target_data), v, m, relocations)
        else:
            raise NotSupportedError(f"an initialiser of type {t.kind} {t.name}".rstrip())


def coerce(value, t: SpvType, what: str):
    """A host value converted to type t, range-checked (specialization, by-value arguments)."""
    if t.kind == "bool":
        if not isinstance(value, (bool, int, np.bool_, np.integer)) or int(value) not in (0, 1):
            raise SpecializationError(f"{what}: expected a bool, got {value!r}")
        return bool(value)
    if t.kind == "int":
        if isinstance(value, (float, np.floating)) or not isinstance(value, (int, np.integer)):
            raise SpecializationError(f"{what}: expected an integer for a {t.width}-bit integer, got {value!r}")
        v = int(value)
        if not -(1 << (t.width - 1)) <= v < (1 << t.width):
            raise SpecializationError(f"{what}: {v} does not fit in {t.width} bits")
        return v & ((1 << t.width) - 1)
    if t.kind == "float":
        if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool):
            raise SpecializationError(f"{what}: expected a number for a {t.width}-bit float, got {value!r}")
        return float(np.dtype({16: np.float16, 32: np.float32, 64: np.float64}[t.width]).type(value))
    raise SpecializationError(f"{what}: values of type {t.kind} cannot be set")


def to_llvm(value, t: SpvType) -> ir.Constant:
    if value is None:
        if t.kind == "reserve_id":   # the null reserve id is the invalid one (CLK_NULL_RESERVE_ID)
            from .abi import INVALID_RESERVE_ID

            return ir.Constant(t.llvm, INVALID_RESERVE_ID)
        return ir.Constant(t.llvm, None)
    if t.kind == "bool":
        return ir.Constant(t.llvm, int(bool(value)))
    if t.kind == "int":
        return ir.Constant(t.llvm, int(value) & ((1 << t.width) - 1))
    if t.kind == "float":
        if math.isfinite(value):
            return ir.Constant(t.llvm, value)
        bits = float_to_bits(value, t.width)
        return ir.Constant(ir.IntType(t.width), bits).bitcast(t.llvm)
    if t.kind == "vector":
        return ir.Constant(t.llvm, [to_llvm(v, t.elem) for v in value])
    if t.kind == "array":
        return ir.Constant(t.llvm, [to_llvm(v, t.elem) for v in value])
    if t.kind == "struct":
        return ir.Constant(t.llvm, [to_llvm(v, m) for v, m in zip(value, t.members)])
    raise NotSupportedError(f"a constant of type {t.kind} {t.name}".rstrip())


# ----- OpSpecConstantOp ---------------------------------------------------------------------
def _signed(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def _int_binary(name: str, a: int, b: int, width: int):
    mask = (1 << width) - 1
    sa, sb = _signed(a, width), _signed(b, width)
    if name == "IAdd":
        return (a + b) & mask
    if name == "ISub":
        return (a - b) & mask
    if name == "IMul":
        return (a * b) & mask
    if name in ("UDiv", "UMod", "SDiv", "SRem", "SMod") and b & mask == 0:
        raise NotSupportedError(f"OpSpecConstantOp {name} by zero")
    if name == "UDiv":
        return (a & mask) // (b & mask)
    if name == "UMod":
        return (a & mask) % (b & mask)
    if name == "SDiv":
        q = abs(sa) // abs(sb)
        return (q if (sa < 0) == (sb < 0) else -q) & mask
    if name == "SRem":
        r = abs(sa) % abs(sb)
        return (r if sa >= 0 else -r) & mask
    if name == "SMod":
        r = abs(sa) % abs(sb)
        r = r if sa >= 0 else -r
        if r and (r < 0) != (sb < 0):
            r += sb
        return r & mask
    if name == "ShiftLeftLogical":
        return (a << (b % width)) & mask if b < width else 0
    if name == "ShiftRightLogical":
        return (a & mask) >> b if b < width else 0
    if name == "ShiftRightArithmetic":
        return (sa >> min(b, width - 1)) & mask
    if name == "BitwiseOr":
        return a | b
    if name == "BitwiseXor":
        return a ^ b
    if name == "BitwiseAnd":
        return a & b
    comparisons = {
        "IEqual": a == b, "INotEqual": a != b,
        "ULessThan": a < b, "UGreaterThan": a > b, "ULessThanEqual": a <= b, "UGreaterThanEqual": a >= b,
        "SLessThan": sa < sb, "SGreaterThan": sa > sb, "SLessThanEqual": sa <= sb, "SGreaterThanEqual": sa >= sb,
    }
    if name in comparisons:
        return comparisons[name]
    return NotImplemented


def _float_binary(name: str, a: float, b: float, width: int):
    dt = {16: np.float16, 32: np.float32, 64: np.float64}[width]
    x, y = dt(a), dt(b)
    with np.errstate(all="ignore"):
        if name == "FAdd":
            return float(x + y)
        if name == "FSub":
            return float(x - y)
        if name == "FMul":
            return float(x * y)
        if name == "FDiv":
            return float(x / y)
        if name == "FRem":
            return float(np.fmod(x, y))
        if name == "FMod":
            r = np.fmod(x, y)
            return float(r + y if r and (r < 0) != (y < 0) else r)
    return NotImplemented


def fold_spec_op(ev: ConstantEvaluator, inst):
    """Folds OpSpecConstantOp once the specialization values are known."""
    from ..spirv.grammar import load_grammar

    w = inst.words
    t = ev.types[w[1]]
    desc = load_grammar().instruction(w[3])
    name = desc.opname[2:] if desc else str(w[3])
    operands = w[4:]

    if name == "CompositeExtract":
        v = ev.value(operands[0])
        for index in operands[1:]:
            v = v[index] if v is not None else None
        return v
    if name == "CompositeInsert":
        obj, comp = ev.value(operands[0]), ev.value(operands[1])
        target_t = t
        comp = _copy(comp if comp is not None else _null_of(target_t))
        return _insert(comp, operands[2:], obj)
    if name == "VectorShuffle":
        a = ev.value(operands[0]) or _null_of(ev.types[ev.module.type_of(operands[0]).result_id])
        b = ev.value(operands[1]) or _null_of(ev.types[ev.module.type_of(operands[1]).result_id])
        both = list(a) + list(b)
        return [both[i] if i != 0xFFFFFFFF else 0 for i in operands[2:]]
    if name == "Select":
        c, x, y = (ev.value(o) for o in operands[:3])
        if isinstance(c, list):
            return [xi if ci else yi for ci, xi, yi in zip(c, x, y)]
        return x if c else y

    if name in _ADDRESS_OPS and t.kind == "pointer":
        return _fold_address(ev, name, operands)

    args = [ev.value(o) for o in operands]
    arg_types = [ev.types[ev.module.type_of(o).result_id] for o in operands]
    return _elementwise(name, t, arg_types, args)


_ADDRESS_OPS = {"AccessChain", "InBoundsAccessChain", "PtrAccessChain", "InBoundsPtrAccessChain", "Bitcast",
                "PtrCastToGeneric", "GenericCastToPtr"}


def _fold_address(ev: ConstantEvaluator, name: str, operands) -> GlobalAddress:
    """An address constant over a program-scope variable (what llvm-spirv emits for ``&arr[3]``,
    ``&s.b``, ``(global char *)&x + 1``): the variable and a byte offset into it."""
    base = ev.value(operands[0])
    if base is None and not name.endswith("AccessChain"):
        return None   # a cast of a null pointer is null (llvm-spirv's capture-free block literals)
    if not isinstance(base, GlobalAddress):
        raise NotSupportedError(f"OpSpecConstantOp {name} of a pointer other than a program-scope "
                                "variable's address")
    if not name.endswith("AccessChain"):
        return base   # casts keep the address
    t = ev.types[ev.module.type_of(operands[0]).result_id].elem
    offset, indices = base.offset, list(operands[1:])
    if name.endswith("PtrAccessChain"):   # the Element operand steps over whole pointees
        offset += _index(ev, indices.pop(0)) * ev.types.size(t)
    for index_id in indices:
        i = _index(ev, index_id)
        if t.kind == "struct":
            offset += _element_offset(t.llvm, i, ev.types.target_data)
            t = t.members[i]
        elif t.kind in ("array", "vector"):
            offset += i * ev.types.size(t.elem)
            t = t.elem
        else:
            raise SpirvError(f"invalid module: OpSpecConstantOp {name} indexes into a {t.kind}")
    return GlobalAddress(base.var_id, offset)


def _index(ev: ConstantEvaluator, index_id: int) -> int:
    """An access chain's constant index, as the signed integer it is."""
    return _signed(ev.value(index_id) or 0, ev.types[ev.module.type_of(index_id).result_id].width)


def _elementwise(name: str, t: SpvType, arg_types: list[SpvType], args: list):
    if t.kind == "vector":
        n = t.count
        cols = [a if isinstance(a, list) else [a] * n if a is not None else [0] * n for a in args]
        scalar_types = [at.scalar for at in arg_types]
        return [_scalar_op(name, t.elem, scalar_types, [c[i] for c in cols]) for i in range(n)]
    return _scalar_op(name, t, arg_types, [0 if a is None else a for a in args])


def _scalar_op(name: str, t: SpvType, arg_types: list[SpvType], args: list):
    src = arg_types[0] if arg_types else t
    if name in ("SNegate", "Not"):
        v = args[0]
        return (-v if name == "SNegate" else ~v) & ((1 << t.width) - 1)
    if name == "FNegate":
        return -args[0]
    if name == "LogicalNot":
        return not args[0]
    logical = {"LogicalOr": lambda a, b: a or b, "LogicalAnd": lambda a, b: a and b,
               "LogicalEqual": lambda a, b: a == b, "LogicalNotEqual": lambda a, b: a != b}
    if name in logical:
        return bool(logical[name](bool(args[0]), bool(args[1])))
    if name in ("UConvert", "SConvert"):
        v = _signed(args[0], src.width) if name == "SConvert" else args[0] & ((1 << src.width) - 1)
        return v & ((1 << t.width) - 1)
    if name == "FConvert":
        return float(np.dtype({16: np.float16, 32: np.float32, 64: np.float64}[t.width]).type(args[0]))
    if name == "QuantizeToF16":
        return float(np.float32(np.float16(args[0])))
    if name in ("ConvertSToF", "ConvertUToF"):
        v = _signed(args[0], src.width) if name == "ConvertSToF" else args[0]
        return float(np.dtype({16: np.float16, 32: np.float32, 64: np.float64}[t.width]).type(v))
    if name in ("ConvertFToS", "ConvertFToU"):
        v = args[0]
        if not math.isfinite(v):
            raise NotSupportedError(f"OpSpecConstantOp {name} of {v}")
        return int(v) & ((1 << t.width) - 1)
    if len(args) == 2 and src.kind == "int":
        r = _int_binary(name, args[0], args[1], src.width)
        if r is not NotImplemented:
            return r
    if len(args) == 2 and src.kind == "float":
        r = _float_binary(name, args[0], args[1], src.width)
        if r is not NotImplemented:
            return r
    raise NotSupportedError(f"OpSpecConstantOp {name}")


def _null_of(t: SpvType):
    if t.kind in ("vector", "array"):
        return [_null_of(t.elem) for _ in range(t.count)]
    if t.kind == "struct":
        return [_null_of(m) for m in t.members]
    return 0.0 if t.kind == "float" else 0


def _copy(v):
    return [_copy(x) for x in v] if isinstance(v, list) else v


def _insert(composite, indices, obj):
    if not indices:
        return obj
    composite[indices[0]] = _insert(composite[indices[0]], indices[1:], obj)
    return composite
