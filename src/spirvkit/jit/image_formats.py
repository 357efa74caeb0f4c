"""Texels in memory <-> colour values: the conversion rules of the OpenCL SPIR-V environment
(§7.4) for every channel type, and the channel-order mapping of OpenCL C 2.0 §6.13.14.7.

Each routine is one LLVM function per module and format. A launch usually fixes the formats
(jit/image_launch.py): the routine for a fixed format is straight-line code for its channel type
and order, inlined where it is used. Where the format is known only when the kernel runs (two
images of one type with different formats, or a build made before any launch), the generic
routine switches on the descriptor's channel type (``jit.abi.IMAGE``) and maps components
through the descriptor's read/write maps. Both compute the same values. Callers pass
coordinates already inside the image.

Rounding: reads of normalized types divide exactly (``x / 255.0f``, correctly rounded: within
the spec's 1.5 ulp, and exact at 0, the maximum and -1); writes scale, clamp and round to
nearest even in double, where ``255 * x`` of a float is exact, so they give the spec's
``f_preferred`` exactly. NaN writes as 0 (the spec leaves it to the implementation).
"""

from __future__ import annotations

import math
import struct

from llvmlite import ir

from .abi import IMAGE, IMAGE_FORMAT
from .image_launch import FixedFormat
from .intrinsics import intrinsic

I8, I16, I32, I64 = ir.IntType(8), ir.IntType(16), ir.IntType(32), ir.IntType(64)
F16, F32, F64 = ir.HalfType(), ir.FloatType(), ir.DoubleType()
PTR = ir.PointerType()
V4F, V4I = ir.VectorType(F32, 4), ir.VectorType(I32, 4)


# Vulkan's packed formats that OpenCL has no channel type for (vk/resources.py): descriptor
# channel-type codes of their own, past SPIR-V's ImageChannelDataType values (only Vulkan
# images have them, and shaders have no OpImageQueryFormat). A2B10G10R10: r in bits 0-9, g
# 10-19, b 20-29, a 30-31; B10G11R11_UFLOAT: r 0-10, g 11-21 (unsigned 11-bit floats: 5-bit
# exponent, 6-bit mantissa), b 22-31 (5-bit exponent, 5-bit mantissa).
VULKAN_PACKED = {"A2B10G10R10_UNORM": 0x10001, "A2B10G10R10_UINT": 0x10002, "B10G11R11_UFLOAT": 0x10003}
_RGB10A2 = [(0, 10), (10, 10), (20, 10), (30, 2)]
_UFLOAT = [(0, 6), (11, 6), (22, 5)]   # (shift, mantissa bits); the exponent is 5 bits above them


def channel_type(name) -> int:
    """The descriptor's channel-type code: SPIR-V's ImageChannelDataType value, or a
    VULKAN_PACKED code."""
    if name in VULKAN_PACKED:
        return VULKAN_PACKED[name]
    from ..spirv.grammar import load_grammar

    return load_grammar().operand_kinds["ImageChannelDataType"].by_name[name].value


def descriptor_word(b: ir.IRBuilder, desc: ir.Value, name: str, index: int = 0,
                    fmt: FixedFormat | None = None) -> ir.Value:
    """A word of an image descriptor (i64): a constant when ``fmt`` fixes it. Descriptors do not
    change during a launch, which the loads tell LLVM (!invariant.load), so it may merge and
    hoist them across the kernel's stores."""
    if fmt is not None and name in IMAGE_FORMAT:
        return ir.Constant(I64, fmt.word(name))
    slot = b.gep(desc, [ir.Constant(I64, IMAGE[name] + index)], source_etype=I64)
    load = b.load(slot, typ=I64)
    load.set_metadata("invariant.load", b.module.add_metadata([]))
    return load


def texel_address(b: ir.IRBuilder, desc: ir.Value, x: ir.Value, y: ir.Value, z: ir.Value,
                  fmt: FixedFormat | None = None) -> ir.Value:
    offset = b.add(b.add(b.mul(x, descriptor_word(b, desc, "elem_bytes", fmt=fmt)),
                         b.mul(y, descriptor_word(b, desc, "row_pitch"))),
                   b.mul(z, descriptor_word(b, desc, "slice_pitch")))
    return b.gep(b.inttoptr(descriptor_word(b, desc, "data"), PTR), [offset], source_etype=I8)


def srgb_to_linear(x: int) -> float:
    """§7.4.5: the linear value of an 8-bit sRGB code, computed in double from the exact x/255
    and rounded once to float (well within the spec's accuracy bound)."""
    r = x / 255
    y = r / 12.92 if r <= 0.04045 else ((r + 0.055) / 1.055) ** 2.4
    return struct.unpack("f", struct.pack("f", y))[0]


def linear_to_srgb(y: float) -> float:
    """§7.4.5 c_sRGB, with the "- 0.055" the spec's text dropped (the sRGB standard has it, and
    without it 1.0 would encode as 1.055)."""
    if math.isnan(y) or y < 0:
        return 0.0
    if y < 0.0031308:
        return 12.92 * y
    if y <= 1:
        return 1.055 * y ** (1 / 2.4) - 0.055
    return 1.0


class TexelFunctions:
    """The per-module texel routines, made on first use for each format (None: generic):

    - ``load_float(desc, x, y, z) -> <4 x float>`` (normalized, half, float and packed types)
    - ``load_int(desc, x, y, z) -> <4 x i32>`` (signed and unsigned integer types, unconverted)
    - ``store_float(desc, x, y, z, <4 x float>)``, ``store_int(desc, x, y, z, <4 x i32>)``
    """

    def __init__(self, module: ir.Module):
        self.module = module
        self.cache: dict[tuple, ir.Function] = {}

    def get(self, name: str, fmt: FixedFormat | None = None) -> ir.Function:
        fn = self.cache.get((name, fmt))
        if fn is None:
            fn = self.cache[(name, fmt)] = getattr(self, "_" + name)(fmt)
        return fn

    def _function(self, name: str, ret: ir.Type, params: list[ir.Type], fmt: FixedFormat | None):
        suffix = f".{fmt.tag}" if fmt is not None else ""
        fn = ir.Function(self.module, ir.FunctionType(ret, params), name=f"spirvkit.image.{name}{suffix}")
        fn.linkage = "internal"
        if fmt is not None:   # a few instructions: inlined, they vectorise with the kernel's code
            fn.attributes.add("alwaysinline")
        return fn, ir.IRBuilder(fn.append_basic_block("entry"))

    def _intrinsic(self, name: str, ty: ir.Type, args: list, b: ir.IRBuilder) -> ir.Value:
        return b.call(intrinsic(self.module, name, ty, [a.type for a in args]), args)

    # ----- reads ----------------------------------------------------------------------------
    def _load_float(self, fmt: FixedFormat | None) -> ir.Function:
        fn, b = self._function("load_float", V4F, [PTR, I64, I64, I64], fmt)
        desc, x, y, z = fn.args
        addr = texel_address(b, desc, x, y, z, fmt)
        if fmt is None:
            last = b.sub(descriptor_word(b, desc, "channels"), ir.Constant(I64, 1))
            srgb = b.icmp_unsigned("!=", descriptor_word(b, desc, "srgb"), ir.Constant(I64, 0))
        else:   # srgb None: not an sRGB order
            last, srgb = None, (ir.Constant(ir.IntType(1), 1) if fmt.word("srgb") else None)
        table = self._srgb_table() if srgb is not None else None

        def component(b, c, ty):
            return self._component(b, addr, c, ty, last, fmt)

        def normalized(b, ty, signed, scale):
            out = []
            for c in range(4):
                raw = component(b, c, ty)
                v = b.fdiv(b.sitofp(raw, F32) if signed else b.uitofp(raw, F32), ir.Constant(F32, scale))
                if signed:   # -128/127 < -1.0: max(-1.0, x/127)
                    v = b.select(b.fcmp_ordered("<", v, ir.Constant(F32, -1.0)), ir.Constant(F32, -1.0), v)
                elif ty is I8 and c < 3 and srgb is not None:
                    # sRGB orders (UNORM_INT8 only): r, g, b through the table, alpha linear.
                    linear = b.load(b.gep(table, [ir.Constant(I64, 0), b.zext(raw, I64)],
                                          source_etype=table.value_type), typ=F32)
                    v = b.select(srgb, linear, v)
                out.append(v)
            return out

        def packed(b, ty, fields):
            word = b.load(addr, typ=ty)
            out = []
            for shift, bits in fields:
                field = b.and_(b.lshr(word, ir.Constant(ty, shift)), ir.Constant(ty, (1 << bits) - 1))
                out.append(b.fdiv(b.uitofp(field, F32), ir.Constant(F32, (1 << bits) - 1)))
            return out + [ir.Constant(F32, 1.0)]

        cases = {
            "UnormInt8": lambda b: normalized(b, I8, False, 255.0),
            "UnormInt16": lambda b: normalized(b, I16, False, 65535.0),
            "SnormInt8": lambda b: normalized(b, I8, True, 127.0),
            "SnormInt16": lambda b: normalized(b, I16, True, 32767.0),
            # Packed: r in the high bits (OpenCL 2.0 API §5.3.1.1, "Image Format Descriptor").
            "UnormShort565": lambda b: packed(b, I16, [(11, 5), (5, 6), (0, 5)]),
            "UnormShort555": lambda b: packed(b, I16, [(10, 5), (5, 5), (0, 5)]),
            "UnormInt101010": lambda b: packed(b, I32, [(20, 10), (10, 10), (0, 10)]),
            "HalfFloat": lambda b: [b.fpext(component(b, c, F16), F32) for c in range(4)],
            "Float": lambda b: [component(b, c, F32) for c in range(4)],
            # Vulkan's packed formats ("Fixed-Point Data Conversions", "Unsigned 11-Bit / 10-Bit
            # Floating-Point Numbers").
            "A2B10G10R10_UNORM": lambda b: packed(b, I32, _RGB10A2)[:4],
            "B10G11R11_UFLOAT": lambda b: self._unpack_ufloat(b, b.load(addr, typ=I32)),
        }
        raw = self._switch(fn, b, descriptor_word(b, desc, "channel_type", fmt=fmt), cases, F32)
        b.ret(self._swizzle(b, desc, raw, F32, 1.0, fmt))
        return fn

    def _load_int(self, fmt: FixedFormat | None) -> ir.Function:
        fn, b = self._function("load_int", V4I, [PTR, I64, I64, I64], fmt)
        desc, x, y, z = fn.args
        addr = texel_address(b, desc, x, y, z, fmt)
        last = None if fmt is not None else b.sub(descriptor_word(b, desc, "channels"), ir.Constant(I64, 1))

        def widened(b, ty, signed):
            out = []
            for c in range(4):
                raw = self._component(b, addr, c, ty, last, fmt)
                out.append(raw if ty is I32 else (b.sext(raw, I32) if signed else b.zext(raw, I32)))
            return out

        cases = {
            "SignedInt8": lambda b: widened(b, I8, True), "SignedInt16": lambda b: widened(b, I16, True),
            "SignedInt32": lambda b: widened(b, I32, True), "UnsignedInt8": lambda b: widened(b, I8, False),
            "UnsignedInt16": lambda b: widened(b, I16, False), "UnsignedInt32": lambda b: widened(b, I32, False),
            "A2B10G10R10_UINT": lambda b: self._fields(b, b.load(addr, typ=I32), _RGB10A2),
        }
        raw = self._switch(fn, b, descriptor_word(b, desc, "channel_type", fmt=fmt), cases, I32)
        b.ret(self._swizzle(b, desc, raw, I32, 1, fmt))
        return fn

    @staticmethod
    def _fields(b: ir.IRBuilder, word: ir.Value, fields: list) -> list[ir.Value]:
        return [b.and_(b.lshr(word, ir.Constant(I32, shift)), ir.Constant(I32, (1 << bits) - 1))
                for shift, bits in fields]

    def _unpack_ufloat(self, b: ir.IRBuilder, word: ir.Value) -> list[ir.Value]:
        """r, g, b of B10G11R11_UFLOAT, alpha 1: an unsigned float of a 5-bit exponent (bias 15)
        and m mantissa bits is 0 / denormal m * 2^(-14 - mb) at exponent 0, INF / NaN at 31,
        else (1 + m / 2^mb) * 2^(e - 15) (built as the float's bits: exact)."""
        out = []
        for shift, mb in _UFLOAT:
            m = b.and_(b.lshr(word, ir.Constant(I32, shift)), ir.Constant(I32, (1 << mb) - 1))
            e = b.and_(b.lshr(word, ir.Constant(I32, shift + mb)), ir.Constant(I32, 31))
            mantissa = b.shl(m, ir.Constant(I32, 23 - mb))
            normal = b.or_(b.shl(b.add(e, ir.Constant(I32, 127 - 15)), ir.Constant(I32, 23)), mantissa)
            special = b.or_(ir.Constant(I32, 255 << 23), mantissa)
            bits = b.select(b.icmp_unsigned("==", e, ir.Constant(I32, 31)), special, normal)
            value = b.bitcast(bits, F32)
            denormal = b.fmul(b.uitofp(m, F32), ir.Constant(F32, 2.0 ** (-14 - mb)))
            out.append(b.select(b.icmp_unsigned("==", e, ir.Constant(I32, 0)), denormal, value))
        return out + [ir.Constant(F32, 1.0)]

    def _pack_ufloat(self, b: ir.IRBuilder, v: ir.Value, mb: int) -> ir.Value:
        """One component of B10G11R11_UFLOAT: negative values and -0 give 0, NaN a NaN, +INF
        INF, finite values round to nearest even, to the largest finite value above it (the
        spec's "rounded to the closest representable finite value"). The rounding is
        rint(x / q) * q with q the format's quantum at x's exponent: exact in float."""
        bits = b.bitcast(v, I32)
        exponent = b.sub(b.lshr(b.and_(bits, ir.Constant(I32, 0x7FFFFFFF)), ir.Constant(I32, 23)),
                         ir.Constant(I32, 127))
        floor_e = b.select(b.icmp_signed("<", exponent, ir.Constant(I32, -14)), ir.Constant(I32, -14), exponent)
        floor_e = b.select(b.icmp_signed(">", floor_e, ir.Constant(I32, 15)), ir.Constant(I32, 15), floor_e)
        quantum = b.bitcast(b.shl(b.add(b.sub(floor_e, ir.Constant(I32, mb)), ir.Constant(I32, 127)),
                                  ir.Constant(I32, 23)), F32)
        top = (2.0 - 2.0 ** -mb) * 2.0 ** 15
        rounded = b.fmul(self._intrinsic("llvm.rint", F32, [b.fdiv(v, quantum)], b), quantum)
        rounded = b.select(b.fcmp_ordered(">", rounded, ir.Constant(F32, top)), ir.Constant(F32, top), rounded)
        rb = b.bitcast(rounded, I32)
        re = b.sub(b.lshr(rb, ir.Constant(I32, 23)), ir.Constant(I32, 127))
        normal = b.or_(b.shl(b.add(re, ir.Constant(I32, 15)), ir.Constant(I32, mb)),
                       b.and_(b.lshr(rb, ir.Constant(I32, 23 - mb)), ir.Constant(I32, (1 << mb) - 1)))
        denormal = b.fptoui(b.fmul(rounded, ir.Constant(F32, 2.0 ** (14 + mb))), I32)
        code = b.select(b.icmp_signed("<", re, ir.Constant(I32, -14)), denormal, normal)
        code = b.select(b.fcmp_ordered(">", v, ir.Constant(F32, 0.0)), code, ir.Constant(I32, 0))   # <= 0, NaN: 0
        infinity = ir.Constant(I32, 31 << mb)
        code = b.select(b.fcmp_ordered("==", v, ir.Constant(F32, float("inf"))), infinity, code)
        return b.select(b.fcmp_unordered("uno", v, v), ir.Constant(I32, (31 << mb) | ((1 << mb) - 1)), code)

    @staticmethod
    def _component(b: ir.IRBuilder, addr, c: int, ty: ir.Type, last, fmt: FixedFormat | None) -> ir.Value:
        """Stored component c of the texel at ``addr`` (the last one again past the count, which
        is ``last`` + 1, or the fixed format's)."""
        if fmt is not None:
            index = ir.Constant(I64, min(c, fmt.word("channels") - 1))
        else:
            index = b.select(b.icmp_unsigned("<", ir.Constant(I64, c), last), ir.Constant(I64, c), last)
        return b.load(b.gep(addr, [index], source_etype=ty), typ=ty)

    def _switch(self, fn, b: ir.IRBuilder, key: ir.Value, cases: dict, elem: ir.Type) -> list[ir.Value]:
        """Emits a switch over channel types; each case gives four stored components (the
        default, a type this routine does not read, gives zeros: the read is undefined). A
        fixed channel type emits its case alone."""
        if isinstance(key, ir.Constant):
            emit = next((e for name, e in cases.items() if channel_type(name) == key.constant), None)
            return emit(b) if emit is not None else [ir.Constant(elem, 0)] * 4
        done = fn.append_basic_block("converted")
        default = fn.append_basic_block("other_type")
        switch = b.switch(key, default)
        incoming = []
        for name, emit in cases.items():
            block = fn.append_basic_block(name)
            switch.add_case(ir.Constant(I64, channel_type(name)), block)
            b.position_at_end(block)
            values = emit(b)
            incoming.append((values, b.block))
            b.branch(done)
        b.position_at_end(default)
        b.branch(done)
        b.position_at_end(done)
        out = []
        for c in range(4):
            phi = b.phi(elem)
            for values, block in incoming:
                phi.add_incoming(values[c], block)
            phi.add_incoming(ir.Constant(elem, 0), default)
            out.append(phi)
        return out

    def _swizzle(self, b: ir.IRBuilder, desc, stored: list, elem: ir.Type, one, fmt: FixedFormat | None) -> ir.Value:
        """r, g, b, a from the stored components by the descriptor's read map (4: 0, 5: 1)."""
        choices = stored + [ir.Constant(elem, 0), ir.Constant(elem, one)]
        out = ir.Constant(ir.VectorType(elem, 4), None)
        if fmt is not None:
            read_map = fmt.word("read_map")
            for k in range(4):
                out = b.insert_element(out, choices[read_map >> (8 * k) & 0xFF], ir.Constant(I32, k))
            return out
        vector = ir.Constant(ir.VectorType(elem, 6), None)
        for i, v in enumerate(choices):
            vector = b.insert_element(vector, v, ir.Constant(I32, i))
        read_map = descriptor_word(b, desc, "read_map")
        for k in range(4):
            index = b.and_(b.lshr(read_map, ir.Constant(I64, 8 * k)), ir.Constant(I64, 0xFF))
            out = b.insert_element(out, b.extract_element(vector, index), ir.Constant(I32, k))
        return out

    def _srgb_table(self) -> ir.GlobalVariable:
        name = "spirvkit.image.srgb_to_linear"
        table = self.module.globals.get(name)
        if table is None:
            ty = ir.ArrayType(F32, 256)
            table = ir.GlobalVariable(self.module, ty, name=name)
            table.linkage = "internal"
            table.global_constant = True
            table.initializer = ir.Constant(ty, [ir.Constant(F32, srgb_to_linear(x)) for x in range(256)])
        return table

    # ----- writes ---------------------------------------------------------------------------
    def _unswizzle(self, b: ir.IRBuilder, desc, color: ir.Value, elem: ir.Type,
                   fmt: FixedFormat | None) -> list[ir.Value]:
        """The values of the four stored components, by the descriptor's write map (4: 0)."""
        if fmt is not None:
            write_map = fmt.word("write_map")
            picks = [write_map >> (8 * c) & 0xFF for c in range(4)]
            return [ir.Constant(elem, 0) if k > 3 else b.extract_element(color, ir.Constant(I32, k)) for k in picks]
        choices = ir.Constant(ir.VectorType(elem, 6), None)
        for i in range(4):
            choices = b.insert_element(choices, b.extract_element(color, ir.Constant(I32, i)), ir.Constant(I32, i))
        for i in (4, 5):
            choices = b.insert_element(choices, ir.Constant(elem, 0), ir.Constant(I32, i))
        write_map = descriptor_word(b, desc, "write_map")
        return [b.extract_element(choices, b.and_(b.lshr(write_map, ir.Constant(I64, 8 * c)), ir.Constant(I64, 0xFF)))
                for c in range(4)]

    def _store_components(self, fn, b: ir.IRBuilder, desc, addr, values: list, ty: ir.Type,
                          fmt: FixedFormat | None) -> None:
        """Stores the first ``channels`` of four components (each branch-guarded: the texel
        has only its own components' bytes)."""
        count = descriptor_word(b, desc, "channels", fmt=fmt)
        for c, v in enumerate(values):
            if c == 0:
                b.store(v, addr)
                continue
            if isinstance(count, ir.Constant):
                if c < count.constant:
                    b.store(v, b.gep(addr, [ir.Constant(I64, c)], source_etype=ty))
                continue
            with b.if_then(b.icmp_unsigned("<", ir.Constant(I64, c), count)):
                b.store(v, b.gep(addr, [ir.Constant(I64, c)], source_etype=ty))

    def _to_normalized(self, b: ir.IRBuilder, v: ir.Value, scale: float, lo: float, hi: float, ty) -> ir.Value:
        """§7.4.1.4: round_to_nearest_even(max(lo, min(hi, scale * x))), exactly (in double);
        NaN gives 0."""
        d = b.fmul(b.fpext(v, F64), ir.Constant(F64, scale))
        d = b.select(b.fcmp_ordered(">", d, ir.Constant(F64, hi)), ir.Constant(F64, hi), d)
        d = b.select(b.fcmp_ordered("<", d, ir.Constant(F64, lo)), ir.Constant(F64, lo), d)
        d = b.select(b.fcmp_unordered("uno", d, d), ir.Constant(F64, 0.0), d)
        return b.trunc(b.fptosi(self._intrinsic("llvm.rint", F64, [d], b), I32), ty)

    def _linear_to_srgb(self, b: ir.IRBuilder, v: ir.Value) -> ir.Value:
        """c_sRGB (see linear_to_srgb), in double."""
        d = b.fpext(v, F64)
        low = b.fmul(d, ir.Constant(F64, 12.92))
        power = self._intrinsic("llvm.pow", F64, [d, ir.Constant(F64, 1 / 2.4)], b)
        high = b.fsub(b.fmul(power, ir.Constant(F64, 1.055)), ir.Constant(F64, 0.055))
        r = b.select(b.fcmp_ordered("<", d, ir.Constant(F64, 0.0031308)), low, high)
        r = b.select(b.fcmp_ordered(">", d, ir.Constant(F64, 1.0)), ir.Constant(F64, 1.0), r)
        r = b.select(b.fcmp_unordered("uge", ir.Constant(F64, 0.0), d), ir.Constant(F64, 0.0), r)  # y < 0, NaN
        r = b.select(b.fcmp_ordered("==", d, ir.Constant(F64, 0.0)), ir.Constant(F64, 0.0), r)
        return b.fptrunc(r, F32)

    def _encode_srgb(self, b: ir.IRBuilder, color: ir.Value) -> ir.Value:
        for k in range(3):   # alpha stays linear
            value = self._linear_to_srgb(b, b.extract_element(color, ir.Constant(I32, k)))
            color = b.insert_element(color, value, ir.Constant(I32, k))
        return color

    def _store_float(self, fmt: FixedFormat | None) -> ir.Function:
        fn, b = self._function("store_float", ir.VoidType(), [PTR, I64, I64, I64, V4F], fmt)
        desc, x, y, z, color = fn.args
        addr = texel_address(b, desc, x, y, z, fmt)
        if fmt is not None:
            color = self._encode_srgb(b, color) if fmt.word("srgb") else color
        else:
            srgb = b.icmp_unsigned("!=", descriptor_word(b, desc, "srgb"), ir.Constant(I64, 0))
            entry = b.block
            encode = fn.append_basic_block("srgb")
            join = fn.append_basic_block("encoded")
            b.cbranch(srgb, encode, join)
            b.position_at_end(encode)
            encoded = self._encode_srgb(b, color)
            b.branch(join)
            b.position_at_end(join)
            phi = b.phi(V4F)
            phi.add_incoming(encoded, encode)
            phi.add_incoming(color, entry)
            color = phi
        values = self._unswizzle(b, desc, color, F32, fmt)

        def normalized(b, ty, scale, lo, hi):
            converted = [self._to_normalized(b, v, scale, lo, hi, ty) for v in values]
            self._store_components(fn, b, desc, addr, converted, ty, fmt)

        def packed(b, ty, fields):
            word = ir.Constant(ty, 0)
            for v, (shift, bits) in zip(values, fields):
                top = float((1 << bits) - 1)
                field = self._to_normalized(b, v, top, 0.0, top, ty)
                word = b.or_(word, b.shl(field, ir.Constant(ty, shift)))
            b.store(word, addr)

        cases = {
            "UnormInt8": lambda b: normalized(b, I8, 255.0, 0.0, 255.0),
            "UnormInt16": lambda b: normalized(b, I16, 65535.0, 0.0, 65535.0),
            "SnormInt8": lambda b: normalized(b, I8, 127.0, -128.0, 127.0),
            "SnormInt16": lambda b: normalized(b, I16, 32767.0, -32768.0, 32767.0),
            "UnormShort565": lambda b: packed(b, I16, [(11, 5), (5, 6), (0, 5)]),
            "UnormShort555": lambda b: packed(b, I16, [(10, 5), (5, 5), (0, 5)]),
            "UnormInt101010": lambda b: packed(b, I32, [(20, 10), (10, 10), (0, 10)]),
            # §7.4.2: float -> half rounds to nearest even (fptrunc), keeps INF and NaN.
            "HalfFloat": lambda b: self._store_components(fn, b, desc, addr, [b.fptrunc(v, F16) for v in values], F16,
                                                          fmt),
            "Float": lambda b: self._store_components(fn, b, desc, addr, values, F32, fmt),
            "A2B10G10R10_UNORM": lambda b: packed(b, I32, _RGB10A2),
            "B10G11R11_UFLOAT": lambda b: b.store(self._or_fields(
                b, [self._pack_ufloat(b, v, mb) for v, (_, mb) in zip(values, _UFLOAT)], [0, 11, 22]), addr),
        }
        self._store_switch(fn, b, descriptor_word(b, desc, "channel_type", fmt=fmt), cases)
        return fn

    def _store_int(self, fmt: FixedFormat | None) -> ir.Function:
        fn, b = self._function("store_int", ir.VoidType(), [PTR, I64, I64, I64, V4I], fmt)
        desc, x, y, z, color = fn.args
        addr = texel_address(b, desc, x, y, z, fmt)
        values = self._unswizzle(b, desc, color, I32, fmt)

        def saturated(b, ty, signed):
            # §7.4.4: clamp(x, min, max) of the type, as a signed or an unsigned 32-bit value.
            out = []
            for v in values:
                if ty is not I32:
                    if signed:
                        lo, hi = -(1 << (ty.width - 1)), (1 << (ty.width - 1)) - 1
                        v = b.select(b.icmp_signed(">", v, ir.Constant(I32, hi)), ir.Constant(I32, hi), v)
                        v = b.select(b.icmp_signed("<", v, ir.Constant(I32, lo)), ir.Constant(I32, lo), v)
                    else:
                        hi = (1 << ty.width) - 1
                        v = b.select(b.icmp_unsigned(">", v, ir.Constant(I32, hi)), ir.Constant(I32, hi), v)
                    v = b.trunc(v, ty)
                out.append(v)
            self._store_components(fn, b, desc, addr, out, ty, fmt)

        cases = {
            "SignedInt8": lambda b: saturated(b, I8, True), "SignedInt16": lambda b: saturated(b, I16, True),
            "SignedInt32": lambda b: saturated(b, I32, True), "UnsignedInt8": lambda b: saturated(b, I8, False),
            "UnsignedInt16": lambda b: saturated(b, I16, False), "UnsignedInt32": lambda b: saturated(b, I32, False),
            # A2B10G10R10_UINT: each field clamped to its maximum, as an unsigned value.
            "A2B10G10R10_UINT": lambda b: b.store(self._or_fields(b, [
                b.select(b.icmp_unsigned(">", v, ir.Constant(I32, (1 << bits) - 1)), ir.Constant(I32, (1 << bits) - 1), v)
                for v, (_, bits) in zip(values, _RGB10A2)], [shift for shift, _ in _RGB10A2]), addr),
        }
        self._store_switch(fn, b, descriptor_word(b, desc, "channel_type", fmt=fmt), cases)
        return fn

    @staticmethod
    def _or_fields(b: ir.IRBuilder, fields: list, shifts: list) -> ir.Value:
        word = ir.Constant(I32, 0)
        for v, shift in zip(fields, shifts):
            word = b.or_(word, b.shl(v, ir.Constant(I32, shift)))
        return word

    def _store_switch(self, fn, b: ir.IRBuilder, key: ir.Value, cases: dict) -> None:
        if isinstance(key, ir.Constant):   # a fixed channel type: its case alone
            emit = next((e for name, e in cases.items() if channel_type(name) == key.constant), None)
            if emit is not None:
                emit(b)
            b.ret_void()
            return
        done = fn.append_basic_block("stored")
        switch = b.switch(key, done)   # another type: the write is undefined; nothing is stored
        for name, emit in cases.items():
            block = fn.append_basic_block(name)
            switch.add_case(ir.Constant(I64, channel_type(name)), block)
            b.position_at_end(block)
            emit(b)
            b.branch(done)
        b.position_at_end(done)
        b.ret_void()

