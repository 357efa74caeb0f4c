"""Conversions, with the ``FPRoundingMode`` and ``SaturatedConversion`` decorations.

LLVM converts with round-to-nearest-even (int and double to float) and truncation (float to
int). Directed modes are built on top: convert, compare the result with the exact source, and
step one ulp when it landed on the wrong side.

Float to integer: a ``SaturatedConversion`` (``convert_T_sat``) clamps, NaN giving 0 (LLVM's
``fpto[su]i.sat``). Without it, a NaN or a value whose truncation does not fit is undefined in
OpenCL C (§6.2.3.3); LLVM would make it poison. spirvkit gives instead, on every host, what the
x86-64 (AVX-512) instructions that PoCL's code uses give, so that programs relying on it print
what they print on PoCL (docs/conversions.md):

- ``int`` / ``long``: the "integer indefinite" value, INT_MIN / LONG_MIN (``cvttss2si``);
- ``uint`` / ``ulong``: all ones, UINT_MAX / ULONG_MAX (``vcvttss2usi``);
- ``char``, ``uchar``, ``short``, ``ushort``: converted to ``int`` as above, then truncated to
  the low bits (300.0f gives (uchar)44, NaN gives 0), as scalar x86 code does.

PoCL's vectorised code is not consistent for the narrow types: at some vector widths (and in the
lanes its work-group vectoriser packs) LLVM narrows with ``packssdw`` / ``packusdw``, which
clamp instead. tests/jit/test_convert_x86.py lists where.

The value is a select between the saturating conversion and the constant, so it is never
poison.
"""

from __future__ import annotations

import struct

from llvmlite import ir

from ..errors import NotSupportedError
from .intrinsics import intrinsic
from .ops_arith import constant_like
from .runtime_ir import STORAGE_GLOBAL, STORAGE_LOCAL, STORAGE_PRIVATE
from .function import PTR, BuiltinPtr, FunctionLowering, Ptr, handles

ROUNDING = {0: "RTE", 1: "RTZ", 2: "RTP", 3: "RTN"}


def _decorations(fl: FunctionLowering, result_id: int) -> tuple[str | None, bool]:
    mode, saturated = None, False
    for d in fl.ml.module.decorations(result_id):
        if d.name == "FPRoundingMode":
            mode = ROUNDING.get(d.operands[0])
        elif d.name == "SaturatedConversion":
            saturated = True
    return mode, saturated


def _scalar(ty: ir.Type) -> ir.Type:
    return ty.element if isinstance(ty, ir.VectorType) else ty


def _like(ty: ir.Type, scalar: ir.Type) -> ir.Type:
    return ir.VectorType(scalar, ty.count) if isinstance(ty, ir.VectorType) else scalar


def _float_width(ty: ir.Type) -> int:
    return {ir.HalfType: 16, ir.FloatType: 32, ir.DoubleType: 64}[type(_scalar(ty))]


def _intrinsic(fl: FunctionLowering, name: str, types: list[ir.Type]) -> ir.Function:
    """Intrinsics whose overloads are named by ``types``: unary ones (fabs, rint ...) take and
    return types[0]; the saturating conversions return types[0] from types[1]."""
    if len(types) == 2:
        return intrinsic(fl.ml.llvm, name, types[0], [types[1]], overloads=types)
    arity = 2 if name == "llvm.copysign" else 1
    return intrinsic(fl.ml.llvm, name, types[0], [types[0]] * arity)


def _step(b: ir.IRBuilder, f: ir.Value, up: ir.Value) -> ir.Value:
    """f moved one ulp towards +inf where ``up``, towards -inf elsewhere (f finite or inf,
    never NaN where used)."""
    width = _float_width(f.type)
    int_t = _like(f.type, ir.IntType(width))
    bits = b.bitcast(f, int_t)
    negative = b.icmp_signed("<", bits, constant_like(int_t, 0))
    is_zero = b.icmp_unsigned("==", b.and_(bits, constant_like(int_t, (1 << (width - 1)) - 1)),
                              constant_like(int_t, 0))
    # Magnitude grows when moving away from zero: up on a positive value, down on a negative.
    grow = b.xor(up, negative)
    moved = b.select(grow, b.add(bits, constant_like(int_t, 1)), b.sub(bits, constant_like(int_t, 1)))
    # From zero: the smallest denormal with the sign of the direction.
    smallest = b.select(up, constant_like(int_t, 1), constant_like(int_t, (1 << (width - 1)) | 1))
    return b.bitcast(b.select(is_zero, smallest, moved), f.type)


def _direct(b: ir.IRBuilder, f: ir.Value, above: ir.Value, below: ir.Value, mode: str, source_negative):
    """Corrects a round-to-nearest result ``f`` to the directed ``mode``, given whether f is
    above or below the exact value."""
    if mode == "RTP":
        return b.select(below, _step(b, f, constant_like(_like(f.type, ir.IntType(1)), 1)), f)
    if mode == "RTN":
        return b.select(above, _step(b, f, constant_like(_like(f.type, ir.IntType(1)), 0)), f)
    # RTZ: above on a positive value -> down; below on a negative value -> up.
    down = b.and_(above, b.not_(source_negative))
    up = b.and_(below, source_negative)
    f = b.select(down, _step(b, f, constant_like(_like(f.type, ir.IntType(1)), 0)), f)
    return b.select(up, _step(b, f, constant_like(_like(f.type, ir.IntType(1)), 1)), f)


@handles("OpConvertFToS", "OpConvertFToU")
def lower_float_to_int(fl, inst):
    w = inst.words
    x = fl.value(w[3])
    target = fl.type(w[1]).llvm
    mode, saturated = _decorations(fl, w[2])
    b = fl.builder
    if mode in ("RTE", "RTP", "RTN"):
        name = {"RTE": "llvm.rint", "RTP": "llvm.ceil", "RTN": "llvm.floor"}[mode]
        x = b.call(_intrinsic(fl, name, [x.type]), [x])
    if isinstance(_scalar(x.type), ir.HalfType):
        # Widen first (exact): LLVM's x86 lowering of fpto*i.sat from half mishandles NaN.
        x = b.fpext(x, _like(x.type, ir.FloatType()))
    signed = inst.opname == "OpConvertFToS"
    if saturated:
        sat = "llvm.fptosi.sat" if signed else "llvm.fptoui.sat"
        fl.set(w[2], b.call(_intrinsic(fl, sat, [target, x.type]), [x]))
        return
    bits = _scalar(target).width
    if bits < 32:  # through int, then the low bits (as scalar x86 code: cvttss2si, then a narrow store)
        wide = _x86_float_to_int(fl, x, _like(target, ir.IntType(32)), True)
        fl.set(w[2], b.trunc(wide, target))
    else:
        fl.set(w[2], _x86_float_to_int(fl, x, target, signed))


def _x86_float_to_int(fl, x: ir.Value, target: ir.Type, signed: bool) -> ir.Value:
    """x (float or double) truncated to the 32- or 64-bit integer ``target``: the exact value
    where it fits, else (NaN too) INT_MIN-like for signed and all ones for unsigned — what
    cvttss2si / vcvttss2usi give. Built from a saturating conversion and a select: no poison."""
    b = fl.builder
    bits = _scalar(target).width
    ftype = _scalar(x.type)
    if signed:
        low, high, bad = -(2.0 ** (bits - 1)), 2.0 ** (bits - 1), 1 << (bits - 1)
    else:
        low, high, bad = 0.0, 2.0 ** bits, (1 << bits) - 1
    # The truncation fits when low - 1 < x < high. low - 1 is exact in the source type unless
    # it rounds to low, and then nothing lies strictly between the two: x >= low says the same.
    below = int(low) - 1
    exact = (_f32(below) if isinstance(ftype, ir.FloatType) else float(below)) == below
    fits_low = (b.fcmp_ordered(">", x, constant_like(x.type, float(below))) if exact
                else b.fcmp_ordered(">=", x, constant_like(x.type, low)))
    fits = b.and_(fits_low, b.fcmp_ordered("<", x, constant_like(x.type, high)))
    sat = "llvm.fptosi.sat" if signed else "llvm.fptoui.sat"
    value = b.call(_intrinsic(fl, sat, [target, x.type]), [x])
    return b.select(fits, value, constant_like(target, bad))


def _f32(v: int) -> float:
    """v rounded to single precision."""
    return struct.unpack("<f", struct.pack("<f", float(v)))[0]


@handles("OpConvertSToF", "OpConvertUToF")
def lower_int_to_float(fl, inst):
    w = inst.words
    x = fl.value(w[3])
    target = fl.type(w[1]).llvm
    mode, _ = _decorations(fl, w[2])
    b = fl.builder
    signed = inst.opname == "OpConvertSToF"
    f = b.sitofp(x, target) if signed else b.uitofp(x, target)
    if mode in (None, "RTE"):
        fl.set(w[2], f)
        return
    # Convert back (saturating) and compare with the exact source.
    bits = _scalar(x.type).width
    wide = b.fpext(f, _like(f.type, ir.FloatType())) if isinstance(_scalar(f.type), ir.HalfType) else f
    back = b.call(_intrinsic(fl, "llvm.fptosi.sat" if signed else "llvm.fptoui.sat", [x.type, wide.type]), [wide])
    limit = float(2 ** (bits - 1 if signed else bits))
    overflow = b.fcmp_ordered(">=", f, constant_like(f.type, limit))
    if signed:
        above = b.or_(overflow, b.icmp_signed(">", back, x))
        below = b.and_(b.not_(overflow), b.icmp_signed("<", back, x))
        negative = b.icmp_signed("<", x, constant_like(x.type, 0))
    else:
        above = b.or_(overflow, b.icmp_unsigned(">", back, x))
        below = b.and_(b.not_(overflow), b.icmp_unsigned("<", back, x))
        negative = constant_like(_like(x.type, ir.IntType(1)), 0)
    fl.set(w[2], _direct(b, f, above, below, mode, negative))


@handles("OpFConvert")
def lower_float_convert(fl, inst):
    w = inst.words
    x = fl.value(w[3])
    target = fl.type(w[1]).llvm
    mode, _ = _decorations(fl, w[2])
    b = fl.builder
    src_w, dst_w = _float_width(x.type), _float_width(target)
    if dst_w == src_w:
        fl.set(w[2], x)
        return
    if dst_w > src_w:
        fl.set(w[2], b.fpext(x, target))
        return
    fl.set(w[2], narrow_float(b, x, target, mode))


def narrow_float(b: ir.IRBuilder, x: ir.Value, target: ir.Type, mode: str | None) -> ir.Value:
    """x converted to the narrower float type ``target`` with rounding ``mode`` (None = RTE)."""
    r = b.fptrunc(x, target)
    if mode in (None, "RTE"):
        return r
    back = b.fpext(r, x.type)
    above = b.fcmp_ordered(">", back, x)
    below = b.fcmp_ordered("<", back, x)
    negative = b.fcmp_ordered("<", x, constant_like(x.type, 0.0))
    return _direct(b, r, above, below, mode, negative)


@handles("OpQuantizeToF16")
def lower_quantize(fl, inst):
    w = inst.words
    x = fl.value(w[3])
    b = fl.builder
    half = _like(x.type, ir.HalfType())
    q = b.fpext(b.fptrunc(x, half), x.type)
    tiny = b.fcmp_ordered("<", b.call(_intrinsic(fl, "llvm.fabs", [x.type]), [q]), constant_like(x.type, 2.0 ** -14))
    zero = b.call(_intrinsic(fl, "llvm.copysign", [x.type]), [constant_like(x.type, 0.0), q])
    fl.set(w[2], b.select(tiny, zero, q))


def _clamp_int(b, x, lo, hi, signed: bool):
    less, greater = ((lambda p, q: b.icmp_signed("<", p, q)), (lambda p, q: b.icmp_signed(">", p, q))) if signed \
        else ((lambda p, q: b.icmp_unsigned("<", p, q)), (lambda p, q: b.icmp_unsigned(">", p, q)))
    if lo is not None:
        x = b.select(less(x, lo), lo, x)
    if hi is not None:
        x = b.select(greater(x, hi), hi, x)
    return x


@handles("OpUConvert", "OpSConvert", "OpSatConvertSToU", "OpSatConvertUToS")
def lower_int_convert(fl, inst):
    w = inst.words
    x = fl.value(w[3])
    target = fl.type(w[1]).llvm
    _, saturated = _decorations(fl, w[2])
    b = fl.builder
    src, dst = _scalar(x.type).width, _scalar(target).width
    name = inst.opname
    source_signed = name in ("OpSConvert", "OpSatConvertSToU")
    if name in ("OpSatConvertSToU", "OpSatConvertUToS"):
        saturated = True
        dest_signed = name == "OpSatConvertUToS"
    else:
        dest_signed = source_signed
    if saturated:
        # Clamp in the source width (widened by one bit's worth where needed) to the
        # destination's range, then resize.
        if dest_signed:
            d_lo, d_hi = -(1 << (dst - 1)), (1 << (dst - 1)) - 1
        else:
            d_lo, d_hi = 0, (1 << dst) - 1
        s_lo, s_hi = (-(1 << (src - 1)), (1 << (src - 1)) - 1) if source_signed else (0, (1 << src) - 1)
        lo = constant_like(x.type, d_lo) if d_lo > s_lo else None
        hi = constant_like(x.type, d_hi) if d_hi < s_hi else None
        x = _clamp_int(b, x, lo, hi, source_signed)
    if dst < src:
        result = b.trunc(x, target)
    elif dst > src:
        result = b.sext(x, target) if source_signed else b.zext(x, target)
    else:
        result = x
    fl.set(w[2], result)


def _as_integer(b: ir.IRBuilder, value: ir.Value) -> ir.Value:
    """An integer vector as the integer scalar of its total width (LLVM's inttoptr and ptrtoint
    take scalars only)."""
    if not isinstance(value.type, ir.VectorType):
        return value
    return b.bitcast(value, ir.IntType(value.type.count * value.type.element.width))


@handles("OpBitcast")
def lower_bitcast(fl, inst):
    """Every OpBitcast shape of SPIR-V 3.32.11: between numerical scalars and vectors of the same
    total width, and between a pointer and an integer scalar or (SPIR-V 1.5) integer vector of the
    pointer's width (Physical64: ulong, uint2; Physical32: uint), through ptrtoint/inttoptr of the
    integer of that width."""
    w = inst.words
    target_t = fl.type(w[1])
    source = fl.get(w[3])
    b = fl.builder
    if isinstance(source, BuiltinPtr):   # a built-in input is a launch-state word, not memory
        raise NotSupportedError("OpBitcast of a pointer to a BuiltIn variable")
    if target_t.kind == "pointer":
        if isinstance(source, Ptr):
            fl.set(w[2], source)        # pointers are untyped in LLVM: nothing to do
        else:
            fl.set(w[2], fl.ptr_from_address(_as_integer(b, source)))
        return
    if isinstance(source, Ptr):
        target = target_t.llvm
        width = target.count * target.element.width if isinstance(target, ir.VectorType) else target.width
        address = b.ptrtoint(source.addr, ir.IntType(width))
        fl.set(w[2], address if address.type == target else b.bitcast(address, target))
        return
    fl.set(w[2], b.bitcast(source, target_t.llvm))


@handles("OpConvertPtrToU")
def lower_ptr_to_u(fl, inst):
    w = inst.words
    fl.set(w[2], fl.builder.ptrtoint(fl.pointer(w[3]).addr, fl.type(w[1]).llvm))


@handles("OpConvertUToPtr")
def lower_u_to_ptr(fl, inst):
    w = inst.words
    fl.set(w[2], fl.ptr_from_address(fl.builder.inttoptr(fl.value(w[3]), PTR)))


@handles("OpPtrCastToGeneric", "OpGenericCastToPtr")
def lower_generic_cast(fl, inst):
    w = inst.words
    fl.set(w[2], fl.pointer(w[3]))


_STORAGE_CODE = {"Workgroup": STORAGE_LOCAL, "CrossWorkgroup": STORAGE_GLOBAL, "Function": STORAGE_PRIVATE}


@handles("OpGenericCastToPtrExplicit")
def lower_generic_cast_explicit(fl, inst):
    """to_global / to_local / to_private: NULL unless the pointer is in that storage class."""
    w = inst.words
    ptr = fl.pointer(w[3])
    storage = fl.ml.storage_name(w[4])
    if storage not in _STORAGE_CODE:
        raise NotSupportedError(f"OpGenericCastToPtrExplicit to {storage}")
    b = fl.builder
    actual = b.call(fl.ml.runtime("storage_of"), [fl.ctx, fl.ts, ptr.addr])
    match = b.icmp_unsigned("==", actual, ir.Constant(ir.IntType(32), _STORAGE_CODE[storage]))
    null = ir.Constant(PTR, None)
    if fl.checked:
        fl.set(w[2], Ptr(*(b.select(match, part, null) for part in (ptr.addr, ptr.base, ptr.end))))
    else:
        fl.set(w[2], Ptr(b.select(match, ptr.addr, null)))


@handles("OpGenericPtrMemSemantics")
def lower_generic_semantics(fl, inst):
    w = inst.words
    ptr = fl.pointer(w[3])
    b = fl.builder
    actual = b.call(fl.ml.runtime("storage_of"), [fl.ctx, fl.ts, ptr.addr])
    i32 = ir.IntType(32)
    local = b.icmp_unsigned("==", actual, ir.Constant(i32, STORAGE_LOCAL))
    glob = b.icmp_unsigned("==", actual, ir.Constant(i32, STORAGE_GLOBAL))
    # WorkgroupMemory = 0x100, CrossWorkgroupMemory = 0x200
    sem = b.select(local, ir.Constant(i32, 0x100), b.select(glob, ir.Constant(i32, 0x200), ir.Constant(i32, 0)))
    fl.set(w[2], sem)
