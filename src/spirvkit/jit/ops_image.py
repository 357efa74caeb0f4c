"""Image instructions as the OpenCL SPIR-V environment defines them (chapter 7): sampler-less
reads and writes, sampled reads (Lod 0), queries, and constant samplers.

An image value is the address of its descriptor (``jit.abi.IMAGE``), a sampler its sampler_t
bits, a sampled image the pair. Texel conversions are in :mod:`.image_formats`, addressing and
filtering in :mod:`.image_sampling`.

Reads without a sampler and writes must use coordinates inside the image (the spec leaves
others undefined): in checked mode one outside is a fault, reported like an out-of-bounds
buffer access with the coordinate; a read then returns texel 0 and a write stores nothing. In
unchecked mode coordinates are still tested (a compare and a select: no image access can leave
its image), with the same results.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from ..spirv.names import OP
from .abi import SAMPLER_ADDRESS_SHIFT, SAMPLER_LINEAR, SAMPLER_NEAREST, SAMPLER_NORMALIZED
from .function import I8, I32, I64, FunctionLowering, handles
from .image_formats import F16, F32, V4F, V4I, TexelFunctions, descriptor_word
from .image_sampling import SamplingFunctions

_LOD, _SIGN_EXTEND, _ZERO_EXTEND = 0x2, 0x1000, 0x2000


def constant_sampler(inst) -> ir.Constant:
    """OpConstantSampler: its sampler_t bits (addressing mode, normalized, filter)."""
    addressing, normalized, filter_mode = inst.words[3:6]
    bits = (SAMPLER_NORMALIZED * bool(normalized) | addressing << SAMPLER_ADDRESS_SHIFT
            | (SAMPLER_LINEAR if filter_mode else SAMPLER_NEAREST))
    return ir.Constant(I32, bits)


def _functions(fl: FunctionLowering) -> tuple[TexelFunctions, SamplingFunctions]:
    ml = fl.ml
    if ml.image_functions is None:
        texels = TexelFunctions(ml.llvm)
        ml.image_functions = (texels, SamplingFunctions(ml.llvm, texels))
    return ml.image_functions


class _Shape:
    """What an image type says about coordinates: spatial dimensions, arrayed."""

    def __init__(self, t):
        info = t.image
        self.spatial = {"1D": 1, "Buffer": 1, "2D": 2, "3D": 3}.get(info["dim"])
        if self.spatial is None:
            raise NotSupportedError(f"images of Dim {info['dim']} (OpenCL has 1D, 2D, 3D and Buffer)")
        self.arrayed = bool(info["arrayed"])

    @property
    def coords(self) -> int:
        return self.spatial + self.arrayed


def _image_type(fl: FunctionLowering, value_id: int):
    return fl.types[fl.ml.module.type_of(value_id).result_id]


def _components(fl: FunctionLowering, value_id: int, count: int) -> list[ir.Value]:
    """The first ``count`` components of a scalar or vector operand."""
    v = fl.value(value_id)
    b = fl.builder
    if not isinstance(v.type, ir.VectorType):
        return [v]
    return [b.extract_element(v, ir.Constant(I32, i)) for i in range(min(count, v.type.count))]


def _check_lod(fl: FunctionLowering, inst, at: int) -> None:
    """Image operands from word ``at``: only a Lod of constant 0 (no mipmaps), and the
    sign/zero-extend hints (the channel type decides)."""
    w = inst.words
    if at >= len(w):
        return
    mask = w[at]
    if mask & ~(_LOD | _SIGN_EXTEND | _ZERO_EXTEND):
        raise NotSupportedError(f"{inst.opname} with image operands {mask:#x} (only Lod 0)")
    if mask & _LOD:
        _require_lod_zero(fl, inst, w[at + 1])


def _require_lod_zero(fl: FunctionLowering, inst, lod_id: int) -> None:
    lod = fl.ml.module.definition(lod_id)   # OpConstant 0 / 0.0, or OpConstantNull
    if lod is None or lod.opcode not in (OP.Constant, OP.ConstantNull) or \
            (lod.opcode == OP.Constant and any(lod.words[3:])):
        raise NotSupportedError(f"{inst.opname} with a Lod other than constant 0 (mipmapped images)")


def _image_operand(fl: FunctionLowering, inst, image_at: int, operands_at: int):
    """(shape, descriptor address, fixed format or None) of the instruction's image, its image
    operands checked."""
    _check_lod(fl, inst, operands_at)
    image_id = inst.words[image_at]
    t = _image_type(fl, image_id)
    return _Shape(t), fl.value(image_id), _format(fl, t)


def _format(fl: FunctionLowering, t):
    """The format the launch fixes for images of type ``t`` (jit/image_launch.py), or None."""
    launch = fl.ml.image_launch
    return launch.format_of(t) if launch is not None else None


# ----- sampler-less reads and writes ------------------------------------------------------------
def _integer_coords(fl: FunctionLowering, shape: _Shape, coord_id: int) -> list[ir.Value]:
    """(x, y, z) as i64 (the layer of an array as z), and how many the image uses."""
    b = fl.builder
    comps = _components(fl, coord_id, shape.coords)
    if not all(isinstance(c.type, ir.IntType) for c in comps):
        # (SPIR-V lets a sampler-less access take float coordinates; OpenCL C never writes them)
        raise NotSupportedError(f"{fl.current.opname} (word {fl.current.offset}) with floating-point coordinates")
    comps = [b.sext(c, I64) if c.type.width < 64 else c for c in comps]
    zero = ir.Constant(I64, 0)
    x = comps[0]
    y = comps[1] if shape.spatial >= 2 else zero
    z = comps[2] if shape.spatial == 3 else (comps[shape.spatial] if shape.arrayed else zero)
    return [x, y, z]


def _checked_coords(fl: FunctionLowering, desc, shape: _Shape, xyz: list, kind: str):
    """(coordinates inside the image, i1 inside): raises the fault flag (or records the fault)
    in checked mode when the coordinate is outside."""
    b = fl.builder
    used = [0] + ([1] if shape.spatial >= 2 else []) + ([2] if shape.spatial == 3 or shape.arrayed else [])
    inside = None
    safe = list(xyz)
    for d in used:
        ok = b.icmp_unsigned("<", xyz[d], descriptor_word(b, desc, "size", d))
        inside = ok if inside is None else b.and_(inside, ok)
        safe[d] = b.select(ok, xyz[d], ir.Constant(I64, 0))
    if fl.checked:
        _fault_unless(fl, desc, inside, xyz, sum(1 << d for d in used), kind)
    return safe, inside


def _fault_unless(fl: FunctionLowering, desc, inside, xyz: list, used: int, kind: str) -> None:
    """The fault path of an image access (as FunctionLowering.check_access has it for
    buffers). The report names the coordinate: the fault's address word holds x and y (32 bits
    each), its size word z and which of x, y, z the image has, as bits 32-34
    (runtime.images.fault_coordinates)."""
    b = fl.builder
    if not fl.ml.report_faults:
        flag = b.or_(b.load(fl.flag, typ=I8), b.zext(b.not_(inside), I8))
        b.store(flag, fl.flag)
        return
    with b.if_then(b.not_(inside), likely=False):
        mask = ir.Constant(I64, 0xFFFFFFFF)
        packed = b.or_(b.and_(xyz[0], mask), b.shl(xyz[1], ir.Constant(I64, 32)))
        size = b.or_(b.and_(xyz[2], mask), ir.Constant(I64, used << 32))
        b.call(fl.ml.runtime("fault"), [fl.ctx, fl.ts, fl.lx, fl.ly, fl.lz, ir.Constant(I64, fl.site(kind)), packed,
                                        descriptor_word(b, desc, "data"), descriptor_word(b, desc, "data_end"), size])


def _is_integer(t) -> bool:
    return t.scalar.kind == "int"


def _result(fl: FunctionLowering, t, color: ir.Value) -> ir.Value:
    """A <4 x float | i32> colour as the instruction's result type: half4 (read_imageh), or
    the scalar of a depth image's read."""
    b = fl.builder
    if t.kind != "vector":
        return b.extract_element(color, ir.Constant(I32, 0))
    if t.scalar.kind == "float" and t.scalar.width == 16:
        color = b.fptrunc(color, ir.VectorType(F16, 4))
    if t.count != 4:
        color = b.shuffle_vector(color, color, ir.Constant(ir.VectorType(I32, t.count), list(range(t.count))))
    return color


@handles("OpImageRead")
def lower_image_read(fl: FunctionLowering, inst) -> None:
    w = inst.words
    shape, desc, fmt = _image_operand(fl, inst, 3, 5)
    result_t = fl.type(w[1])
    safe, _ = _checked_coords(fl, desc, shape, _integer_coords(fl, shape, w[4]), "image read")
    texels, _ = _functions(fl)
    color = fl.builder.call(texels.get("load_int" if _is_integer(result_t) else "load_float", fmt), [desc, *safe])
    fl.set(w[2], _result(fl, result_t, color))


@handles("OpImageWrite")
def lower_image_write(fl: FunctionLowering, inst) -> None:
    w = inst.words
    shape, desc, fmt = _image_operand(fl, inst, 1, 4)
    b = fl.builder
    safe, inside = _checked_coords(fl, desc, shape, _integer_coords(fl, shape, w[2]), "image write")
    integer, color = texel_operand(fl, w[3])
    texels, _ = _functions(fl)
    with b.if_then(inside):          # outside the image: nothing is written
        b.call(texels.get("store_int" if integer else "store_float", fmt), [desc, *safe, color])


def texel_operand(fl: FunctionLowering, texel_id: int) -> tuple[bool, ir.Value]:
    """OpImageWrite's Texel as (integer?, the 4 x 32-bit vector a format's store function
    takes). SPIR-V lets the Texel be a scalar (a depth image's) or a vector of any width and
    lane count; the format keeps the channels it has, so lanes past the Texel's are left 0 (and
    alpha 1), and 16- or 64-bit lanes are converted (a grammar-fuzz mutant wrote a uint2)."""
    b = fl.builder
    texel_t = fl.types[fl.ml.module.type_of(texel_id).result_id]
    integer = _is_integer(texel_t)
    value = fl.value(texel_id)
    scalar = texel_t.scalar
    lanes = texel_t.count if texel_t.kind == "vector" else 1
    if integer:
        elem, out = I32, ir.Constant(V4I, [0, 0, 0, 1])
    else:
        elem, out = F32, ir.Constant(V4F, [0.0, 0.0, 0.0, 1.0])
    for k in range(min(lanes, 4)):
        x = b.extract_element(value, ir.Constant(I32, k)) if texel_t.kind == "vector" else value
        if integer and scalar.width < 32:
            x = b.sext(x, elem) if scalar.signed else b.zext(x, elem)
        elif integer and scalar.width > 32:
            x = b.trunc(x, elem)
        elif not integer and scalar.width < 32:
            x = b.fpext(x, elem)
        elif not integer and scalar.width > 32:
            x = b.fptrunc(x, elem)
        out = b.insert_element(out, x, ir.Constant(I32, k))
    return integer, out


# ----- sampled reads ----------------------------------------------------------------------------
@handles("OpSampledImage")
def lower_sampled_image(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    pair = ir.Constant(fl.type(w[1]).llvm, None)
    pair = b.insert_value(pair, fl.value(w[3]), 0)
    fl.set(w[2], b.insert_value(pair, fl.value(w[4]), 1))


@handles("OpImage")
def lower_image(fl: FunctionLowering, inst) -> None:
    fl.set(inst.words[2], fl.builder.extract_value(fl.value(inst.words[3]), 0))


@handles("OpImageSampleExplicitLod")
def lower_sample(fl: FunctionLowering, inst) -> None:
    w = inst.words
    _check_lod(fl, inst, 5)
    sampled_t = _image_type(fl, w[3])
    shape = _Shape(sampled_t)   # the sampled image type carries its image's facts
    b = fl.builder
    pair = fl.value(w[3])
    desc, bits = b.extract_value(pair, 0), b.extract_value(pair, 1)
    components = _components(fl, w[4], shape.coords)
    if isinstance(components[0].type, ir.IntType):
        # Integer coordinates take NEAREST samplers only (OpenCL C 2.0 §6.13.14.2); with a
        # LINEAR one the result is undefined: the texel the coordinate names, as PoCL reads it
        # (and as kernels that pass a LINEAR sampler with integer coordinates expect).
        bits = b.or_(b.and_(bits, ir.Constant(I32, ~SAMPLER_LINEAR)), ir.Constant(I32, SAMPLER_NEAREST))
    coords = []
    for c in components:
        coords.append(b.sitofp(c, F32) if isinstance(c.type, ir.IntType) else
                      (b.fpext(c, F32) if isinstance(c.type, ir.HalfType) else c))
    coords += [ir.Constant(F32, 0.0)] * (3 - len(coords))
    result_t = fl.type(w[1])
    _, sampling = _functions(fl)
    color = b.call(sampling.get(shape.spatial, shape.arrayed, _is_integer(result_t), _format(fl, sampled_t)),
                   [desc, bits, *coords])
    fl.set(w[2], _result(fl, result_t, color))


# ----- queries ----------------------------------------------------------------------------------
@handles("OpImageQuerySizeLod", "OpImageQuerySize")
def lower_query_size(fl: FunctionLowering, inst) -> None:
    """Width, height, depth as the type has them; an array's layer count last."""
    w = inst.words
    if inst.opname == "OpImageQuerySizeLod":
        _require_lod_zero(fl, inst, w[4])
    shape = _Shape(_image_type(fl, w[3]))
    desc = fl.value(w[3])
    b = fl.builder
    dims = list(range(shape.spatial)) + ([2] if shape.arrayed else [])
    set_sizes(fl, inst, [descriptor_word(b, desc, "size", d) for d in dims])


def set_sizes(fl: FunctionLowering, inst, values: list[ir.Value]) -> None:
    """A size query's result: the i64 sizes as its scalar or vector type."""
    w = inst.words
    b = fl.builder
    result_t = fl.type(w[1])
    elem = result_t.scalar.llvm
    values = [b.trunc(v, elem) if elem.width < 64 else v for v in values]
    if result_t.kind != "vector":
        fl.set(w[2], values[0])
        return
    out = ir.Constant(result_t.llvm, None)
    for i, v in enumerate(values[:result_t.count]):
        out = b.insert_element(out, v, ir.Constant(I32, i))
    fl.set(w[2], out)


@handles("OpImageQueryFormat", "OpImageQueryOrder")
def lower_query_format(fl: FunctionLowering, inst) -> None:
    """SPIR-V's ImageChannelDataType / ImageChannelOrder value (OpenCL C adds CLK_'s base)."""
    w = inst.words
    b = fl.builder
    field = "channel_type" if inst.opname == "OpImageQueryFormat" else "channel_order"
    word = descriptor_word(b, fl.value(w[3]), field, fmt=_format(fl, _image_type(fl, w[3])))
    elem = fl.type(w[1]).llvm
    fl.set(w[2], b.trunc(word, elem) if elem.width < 64 else word)
