"""IR helpers shared by the OpenCL.std lowering modules (:mod:`.opencl_std`,
:mod:`.opencl_integer`, :mod:`.opencl_pointer_math`): element and vector types, constants,
intrinsic and libm calls (lane by lane where libm has no vector form), and the precision
wrappers that compute half in float and some float functions in double."""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir

Emitter = Callable[[ir.IRBuilder, ir.Type, list], ir.Value]

FLOAT = ir.FloatType()
DOUBLE = ir.DoubleType()
I1 = ir.IntType(1)
I32 = ir.IntType(32)


# ---------------------------------------------------------------------------------------------
# Type and constant helpers


def _lanes(ty: ir.Type) -> int | None:
    return ty.count if isinstance(ty, ir.VectorType) else None


def _elem(ty: ir.Type) -> ir.Type:
    return ty.element if isinstance(ty, ir.VectorType) else ty


def _with_elem(ty: ir.Type, elem: ir.Type) -> ir.Type:
    """The type of ty's shape (scalar or same lane count) with element type elem."""
    return ir.VectorType(elem, ty.count) if isinstance(ty, ir.VectorType) else elem


def _is_half(ty: ir.Type) -> bool:
    return isinstance(_elem(ty), ir.HalfType)


def _is_float(ty: ir.Type) -> bool:
    return isinstance(_elem(ty), ir.FloatType)


def _width(ty: ir.Type) -> int:
    return _elem(ty).width


def _mangle(ty: ir.Type) -> str:
    """The overload suffix LLVM intrinsic names use: f32, i64, v4f32 ..."""
    if isinstance(ty, ir.VectorType):
        return f"v{ty.count}{_mangle(ty.element)}"
    return ty.intrinsic_name


def _const(ty: ir.Type, value) -> ir.Constant:
    """A constant of ty; for a vector type, value in every lane."""
    return ir.Constant(ty, value)


def _float_bits(ty: ir.Type) -> tuple[int, int]:
    """(significand bits without the implicit one, total bits) of ty's float element."""
    elem = _elem(ty)
    if isinstance(elem, ir.HalfType):
        return 10, 16
    if isinstance(elem, ir.FloatType):
        return 23, 32
    return 52, 64


def _int_like(ty: ir.Type) -> ir.Type:
    """The integer type with the bit layout of float type ty (for bitcasts)."""
    return _with_elem(ty, ir.IntType(_float_bits(ty)[1]))


def _splat(b: ir.IRBuilder, value: ir.Value, lanes: int) -> ir.Value:
    vty = ir.VectorType(value.type, lanes)
    one = b.insert_element(_const(vty, ir.Undefined), value, _const(I32, 0))
    return b.shuffle_vector(one, _const(vty, ir.Undefined), _const(ir.VectorType(I32, lanes), 0))


def _to_int32(b: ir.IRBuilder, value: ir.Value) -> ir.Value:
    """An integer operand the libm signature wants as int (ldexp's k, pown's n)."""
    width = _width(value.type)
    if width == 32:
        return value
    target = _with_elem(value.type, I32)
    return b.trunc(value, target) if width > 32 else b.sext(value, target)


# ---------------------------------------------------------------------------------------------
# Declarations and calls


def _declare(module: ir.Module, name: str, fnty: ir.FunctionType) -> ir.Function:
    """The module's function `name`, declared with fnty if it is not there yet."""
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    return ir.Function(module, fnty, name)


def _intrinsic(b: ir.IRBuilder, base: str, ret: ir.Type, args: list, overloads=None) -> ir.Value:
    """Call LLVM intrinsic `base` overloaded on `overloads` (default: the result type)."""
    suffix = ".".join(_mangle(t) for t in (overloads if overloads is not None else [ret]))
    fnty = ir.FunctionType(ret, [a.type for a in args])
    return b.call(_declare(b.module, f"{base}.{suffix}", fnty), args)


def _per_lane(b: ir.IRBuilder, ty: ir.Type, args: list, scalar: Emitter) -> ir.Value:
    """Apply a scalar emitter to every lane: extract each vector operand's lane, emit, insert."""
    lanes = _lanes(ty)
    if lanes is None:
        return scalar(b, ty, args)
    result = _const(ty, ir.Undefined)
    for i in range(lanes):
        index = _const(I32, i)
        lane_args = [
            b.extract_element(a, index) if isinstance(a.type, ir.VectorType) else a for a in args
        ]
        result = b.insert_element(result, scalar(b, ty.element, lane_args), index)
    return result


def _libm_call(b: ir.IRBuilder, stem: str, ret: ir.Type, args: list) -> ir.Value:
    """Call libm's `stem` (double) or `stem`f (float), chosen by the first operand, lane by lane."""

    def scalar(b, sty, sargs):
        name = stem + ("f" if isinstance(sargs[0].type, ir.FloatType) else "")
        fnty = ir.FunctionType(sty, [a.type for a in sargs])
        return b.call(_declare(b.module, name, fnty), sargs)

    return _per_lane(b, ret, args, scalar)


def _libm(stem: str) -> Emitter:
    return lambda b, ty, args: _libm_call(b, stem, ty, args)


def _unary_intrinsic(base: str) -> Emitter:
    return lambda b, ty, args: _intrinsic(b, base, ty, args)


def _select_chain(b: ir.IRBuilder, cases: list, default: ir.Value) -> ir.Value:
    """cases = [(cond, value), ...]: the value of the first true cond, else default."""
    result = default
    for cond, value in reversed(cases):
        result = b.select(cond, value, result)
    return result


# ---------------------------------------------------------------------------------------------
# Precision wrappers


def _promote_half(emit: Emitter) -> Emitter:
    """Compute a half function in float (operands fpext'ed, result rounded once)."""

    def emitter(b, ty, args):
        if not _is_half(ty) and not any(_is_half(a.type) for a in args):
            return emit(b, ty, args)
        wide = [b.fpext(a, _with_elem(a.type, FLOAT)) if _is_half(a.type) else a for a in args]
        if not _is_half(ty):
            return emit(b, ty, wide)
        return b.fptrunc(emit(b, _with_elem(ty, FLOAT), wide), ty)

    return emitter


def _via_double(emit: Emitter) -> Emitter:
    """Compute a float function in double and round once (for functions whose float formula would
    lose too much, e.g. argument reduction by pi)."""

    def emitter(b, ty, args):
        if not _is_float(ty):
            return emit(b, ty, args)
        wide = [b.fpext(a, _with_elem(a.type, DOUBLE)) if _is_float(a.type) else a for a in args]
        return b.fptrunc(emit(b, _with_elem(ty, DOUBLE), wide), ty)

    return emitter


def _fabs(b, x):
    return _intrinsic(b, "llvm.fabs", x.type, [x])


def _copysign(b, x, y):
    return _intrinsic(b, "llvm.copysign", x.type, [x, y])


def _sqrt(b, x):
    return _intrinsic(b, "llvm.sqrt", x.type, [x])


def _pow(b, x, y):
    return _intrinsic(b, "llvm.pow", x.type, [x, y])


def _is_nan(b, x):
    return b.fcmp_unordered("uno", x, x)
