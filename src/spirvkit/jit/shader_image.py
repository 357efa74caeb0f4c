"""Image instructions shaders have and OpenCL kernels do not, on the OpenCL image core
(ops_image.py, image_formats.py, image_sampling.py, image_cube.py).

Shaders reach their images, samplers and combined image samplers through UniformConstant
variables bound by (set, binding) (shader_interface.py): the loaded values are the ones the
OpenCL path has (an image descriptor's address, sampler bits, the pair). Vulkan's sampler state
beyond OpenCL's (border colour, min filter, mipmap mode, LOD clamp, depth comparison) travels in
the sampler bits (jit.abi.SAMPLER_*). A mipmapped or multisampled image's descriptor is one block
per level or sample (jit.abi.IMAGE's levels / samples), so a level's or sample's texels are the
single-level code on its block.

Here: sampling with Vulkan's level-of-detail selection (Lod, Grad, MinLod, ConstOffset), depth
comparison (OpImageSampleDrefExplicitLod), gathers (OpImageGather, OpImageDrefGather with
ConstOffset / ConstOffsets), reads, writes and fetches at a level (Lod) or sample (Sample), the
level, sample and per-level size queries, and cube images. Implicit-LOD instructions are refused:
a compute shader has no derivatives to choose a level from. A handler reached while compiling an
OpenCL kernel hands the instruction to ops_image.py, unchanged.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError, SpirvkitError
from .abi import (IMAGE, SAMPLER_LINEAR, SAMPLER_MAX_LOD_SHIFT, SAMPLER_MIN_LINEAR, SAMPLER_MIN_LOD_SHIFT,
                  SAMPLER_MIPMAP_LINEAR, SAMPLER_NEAREST)
from .function import I32, I64, FunctionLowering, handles
from .image_formats import F32, V4F, V4I, descriptor_word
from .image_launch import FixedFormat
from .intrinsics import intrinsic
from .ops_image import (_checked_coords, _components, _format, _functions, _image_type, _integer_coords, _is_integer,
                        _result, lower_image_read, lower_image_write, lower_query_size, lower_sample, set_sizes,
                        texel_operand)


class ShaderImageFormats:
    """The image formats a dispatch fixes, by image type (``ml.image_launch``, as
    image_launch.LaunchImages is for kernels): the pipeline passes (image type id, format
    words) for each image type whose bound images all share one format, so texel reads and
    writes through that type are straight-line code for it. Samplers stay run-time values (they
    are table entries, not parameters)."""

    def __init__(self, formats: tuple = ()):
        self.formats = {type_id: FixedFormat(tuple(words)) for type_id, words in formats}
        self.sampler_bits: dict[int, int] = {}

    def format_of(self, t) -> FixedFormat | None:
        if t.kind == "sampled_image":
            t = t.elem
        return self.formats.get(t.id)


# ----- image operands ----------------------------------------------------------------------------
# SPIR-V's ImageOperands bits, with the ids each takes.
_OPERANDS = {0x1: ("Bias", 1), 0x2: ("Lod", 1), 0x4: ("Grad", 2), 0x8: ("ConstOffset", 1), 0x10: ("Offset", 1),
             0x20: ("ConstOffsets", 1), 0x40: ("Sample", 1), 0x80: ("MinLod", 1),
             0x100: ("MakeTexelAvailable", 1), 0x200: ("MakeTexelVisible", 1), 0x400: ("NonPrivateTexel", 0),
             0x800: ("VolatileTexel", 0), 0x1000: ("SignExtend", 0), 0x2000: ("ZeroExtend", 0),
             0x4000: ("Nontemporal", 0), 0x10000: ("Offsets", 1)}
# Operands that change nothing here: memory-model hints (one memory, no caches), and the
# sign/zero-extend hints (the format decides).
_HINTS = {"MakeTexelAvailable", "MakeTexelVisible", "NonPrivateTexel", "VolatileTexel", "SignExtend", "ZeroExtend",
          "Nontemporal"}


def _operands(inst, at: int, allowed: set[str]) -> dict[str, list[int]]:
    """The image operands from word ``at``: name -> ids; one outside ``allowed`` (and the
    hints) is not supported yet."""
    w = inst.words
    out: dict[str, list[int]] = {}
    if at >= len(w):
        return out
    mask, k = w[at], at + 1
    for bit in sorted(_OPERANDS):
        if not mask & bit:
            continue
        name, count = _OPERANDS[bit]
        if name not in allowed and name not in _HINTS:
            raise NotSupportedError(f"{inst.opname} with the {name} image operand (word {inst.offset})")
        out[name] = list(w[k:k + count])
        k += count
    if mask & ~sum(_OPERANDS):
        raise NotSupportedError(f"{inst.opname} with image operands {mask:#x} (word {inst.offset})")
    return out


def _constant_ints(fl: FunctionLowering, value_id: int, inst, what: str) -> tuple[int, ...]:
    """The components of an integer constant (scalar or vector): ConstOffset / ConstOffsets."""
    module = fl.ml.module
    d = module.definition(value_id)
    if d is None:
        raise NotSupportedError(f"{inst.opname} with a {what} that is not a constant (word {inst.offset})")
    if d.opcode == 46:                      # OpConstantNull
        t = fl.types[d.words[1]]
        return (0,) * (t.count if t.kind == "vector" else 1)
    if d.opcode == 43:                      # OpConstant
        t = fl.types[d.words[1]]
        v = d.words[3]
        return (v - (1 << 32) if t.signed and v >> 31 else v,)
    if d.opcode == 44:                      # OpConstantComposite
        return tuple(c for part in d.words[3:] for c in _constant_ints(fl, part, inst, what))
    raise NotSupportedError(f"{inst.opname} with a {what} that is not a constant (word {inst.offset})")


def is_shader(fl: FunctionLowering) -> bool:
    return isinstance(fl.ml.image_launch, ShaderImageFormats)


class _ShaderShape:
    """Coordinates of a shader image type: spatial axes, arrayed (a cube is a direction, and
    read / written as a 2D array of faces), multisampled."""

    def __init__(self, t, sampling: bool = False):
        info = t.image
        self.dim, self.cube = info["dim"], info["dim"] == "Cube"
        self.spatial = {"1D": 1, "Buffer": 1, "2D": 2, "3D": 3, "Cube": 3 if sampling else 2}.get(info["dim"])
        if self.spatial is None:
            raise NotSupportedError(f"images of Dim {info['dim']}")
        self.arrayed = bool(info["arrayed"]) or (self.cube and not sampling)
        self.ms = bool(info.get("ms"))

    @property
    def coords(self) -> int:
        return self.spatial + self.arrayed


def _block(fl: FunctionLowering, desc: ir.Value, index: ir.Value) -> ir.Value:
    """The descriptor block of mip level (or sample) ``index`` (jit.abi.IMAGE's levels)."""
    return fl.builder.gep(desc, [fl.builder.mul(index, ir.Constant(I64, IMAGE["_words"]))], source_etype=I64)


def _as_i32(fl: FunctionLowering, v: ir.Value) -> ir.Value:
    b = fl.builder
    return b.trunc(v, I32) if v.type.width > 32 else (b.sext(v, I32) if v.type.width < 32 else v)


def _as_i64(fl: FunctionLowering, v: ir.Value) -> ir.Value:
    return fl.builder.sext(v, I64) if v.type.width < 64 else v


def _level_or_sample(fl: FunctionLowering, desc, ops: dict, xyz: list):
    """(descriptor block, coordinates) of an access with a Lod or Sample operand: a level or
    sample the image does not have makes the coordinate x = -1, outside every image (a fault
    in checked code, no access either way)."""
    b = fl.builder
    for name, word in (("Lod", "levels"), ("Sample", "samples")):
        if name in ops:
            index = _as_i64(fl, fl.value(ops[name][0]))
            ok = b.icmp_unsigned("<", index, descriptor_word(b, desc, word))
            desc = _block(fl, desc, b.select(ok, index, ir.Constant(I64, 0)))
            xyz = [b.select(ok, xyz[0], ir.Constant(I64, -1))] + xyz[1:]
    return desc, xyz


# ----- texel reads and writes ----------------------------------------------------------------------
def _texel_access(fl: FunctionLowering, inst, image_id: int, coord_id: int, ops_at: int, allowed: set[str]):
    """(shape, level/sample block, fixed format, coordinates inside, i1 inside) of a read,
    write or fetch."""
    ops = _operands(inst, ops_at, allowed)
    t = _image_type(fl, image_id)
    shape = _ShaderShape(t)
    if shape.ms and "Sample" not in ops:
        raise NotSupportedError(f"{inst.opname} of a multisampled image without the Sample operand")
    desc = fl.value(image_id)
    xyz = _integer_coords(fl, shape, coord_id)
    if "ConstOffset" in ops:
        offset = _constant_ints(fl, ops["ConstOffset"][0], inst, "ConstOffset")
        xyz = [fl.builder.add(c, ir.Constant(I64, o)) for c, o in zip(xyz, offset)] + xyz[len(offset):]
    desc, xyz = _level_or_sample(fl, desc, ops, xyz)
    kind = "image write" if inst.opname == "OpImageWrite" else "image read"
    safe, inside = _checked_coords(fl, desc, shape, xyz, kind)
    return shape, desc, _format(fl, t), safe, inside


@handles("OpImageFetch", "OpImageRead")
def lower_shader_image_read(fl: FunctionLowering, inst) -> None:
    """texelFetch / imageLoad: the texel at integer coordinates, unfiltered, at a mip level
    (Lod), a sample (Sample) and a constant offset (ConstOffset, fetches)."""
    if not is_shader(fl):
        lower_image_read(fl, inst)
        return
    w = inst.words
    allowed = {"Lod", "ConstOffset", "Sample"} if inst.opname == "OpImageFetch" else {"Sample"}
    _, desc, fmt, safe, _ = _texel_access(fl, inst, w[3], w[4], 5, allowed)
    result_t = fl.type(w[1])
    texels, _ = _functions(fl)
    color = fl.builder.call(texels.get("load_int" if _is_integer(result_t) else "load_float", fmt), [desc, *safe])
    fl.set(w[2], _result(fl, result_t, color))


@handles("OpImageWrite")
def lower_shader_image_write(fl: FunctionLowering, inst) -> None:
    """imageStore, with the Sample operand of multisampled storage images."""
    if not is_shader(fl):
        lower_image_write(fl, inst)
        return
    w = inst.words
    _, desc, fmt, safe, inside = _texel_access(fl, inst, w[1], w[2], 4, {"Sample"})
    b = fl.builder
    integer, color = texel_operand(fl, w[3])
    texels, _ = _functions(fl)
    with b.if_then(inside):
        b.call(texels.get("store_int" if integer else "store_float", fmt), [desc, *safe, color])


# ----- sampling ---------------------------------------------------------------------------------
@handles("OpImageSampleImplicitLod", "OpImageSampleDrefImplicitLod", "OpImageSampleProjImplicitLod",
         "OpImageSampleProjDrefImplicitLod", "OpImageQueryLod")
def lower_implicit_lod(fl: FunctionLowering, inst) -> None:
    raise NotSupportedError(f"{inst.opname} (word {inst.offset}): implicit level-of-detail needs screen-space "
                            f"derivatives, which compute shaders do not have; use an explicit Lod or Grad")


@handles("OpImageSampleExplicitLod")
def lower_shader_sample(fl: FunctionLowering, inst) -> None:
    if not is_shader(fl):
        lower_sample(fl, inst)
        return
    _sample(fl, inst, 5)


@handles("OpImageSampleDrefExplicitLod")
def lower_sample_dref(fl: FunctionLowering, inst) -> None:
    """textureLod / textureGrad of a shadow sampler: the filtered depth comparison."""
    _sample(fl, inst, 6, dref=inst.words[5])


@handles("OpImageGather", "OpImageDrefGather")
def lower_gather(fl: FunctionLowering, inst) -> None:
    """textureGather (a component of the 2x2 footprint's four texels at the base level) and
    textureGather of a shadow sampler (their comparisons)."""
    w = inst.words
    if inst.opname == "OpImageGather":
        component = _constant_ints(fl, w[5], inst, "Component")[0]
        if not 0 <= component <= 3:
            raise SpirvkitError(f"{inst.opname} (word {inst.offset}): Component {component} is not 0 to 3")
        _sample(fl, inst, 6, gather=component)
    else:
        _sample(fl, inst, 6, gather=0, dref=w[5])


def _float(fl: FunctionLowering, v: ir.Value) -> ir.Value:
    b = fl.builder
    if isinstance(v.type, ir.IntType):
        return b.sitofp(v, F32)
    return b.fpext(v, F32) if isinstance(v.type, ir.HalfType) else v


def _sample(fl: FunctionLowering, inst, ops_at: int, dref: int | None = None, gather: int | None = None) -> None:
    """Vulkan's sampling ("Texel Filtering", "Level-of-Detail Operation"): lambda from the
    Lod operand, or log2(max(rho_x, rho_y)) of the Grad operand's derivatives scaled by the
    level-0 size; clamped to [max(minLod, MinLod), maxLod]; mag_filter where lambda <= 0,
    min_filter above; the level d' = clamp(lambda, 0, levels - 1), nearest
    d = ceil(d' + 0.5) - 1 or linear between floor(d') and the next level by frac(d')."""
    w = inst.words
    b = fl.builder
    # Offset (a run-time offset) is for gathers only in Vulkan (VUID-StandaloneSpirv-Offset-04663).
    allowed = {"ConstOffsets", "ConstOffset", "Offset"} if gather is not None else {"Lod", "Grad", "ConstOffset",
                                                                                    "MinLod"}
    ops = _operands(inst, ops_at, allowed)
    sampled_t = _image_type(fl, w[3])
    shape = _ShaderShape(sampled_t, sampling=True)
    if shape.ms:
        raise NotSupportedError(f"{inst.opname} of a multisampled image")
    if gather is not None and shape.dim not in ("2D", "Cube"):
        raise SpirvkitError(f"{inst.opname} (word {inst.offset}) of a {shape.dim} image (gathers take 2D and Cube "
                            f"images)")
    if shape.cube and ({"ConstOffset", "ConstOffsets", "Offset"} & ops.keys()):   # (the validator refuses them)
        raise NotSupportedError(f"{inst.opname} of a cube image with an offset (word {inst.offset})")
    if dref is not None and shape.dim == "3D":
        raise SpirvkitError(f"{inst.opname} (word {inst.offset}) of a 3D image (Vulkan has no 3D depth comparison)")
    pair = fl.value(w[3])
    desc, bits = b.extract_value(pair, 0), b.extract_value(pair, 1)
    coords = [_float(fl, c) for c in _components(fl, w[4], shape.coords)]
    coords += [ir.Constant(F32, 0.0)] * ((4 if shape.cube else 3) - len(coords))
    extra = [_float(fl, fl.value(dref))] if dref is not None else []
    result_t = fl.type(w[1])
    integer = _is_integer(result_t)
    _, sampling = _functions(fl)
    fmt = _format(fl, sampled_t)

    def sample_fn(offset=None):
        return sampling.get(shape.spatial, shape.arrayed, integer, fmt, offset, gather, dref is not None, shape.cube)

    if gather is not None:
        if "ConstOffsets" in ops:
            # Result k is texel (i0, j0) of the footprint at offset k (the gather's last
            # component), as GLSL's textureGatherOffsets and SPIR-V's ConstOffsets say.
            offsets = _constant_ints(fl, ops["ConstOffsets"][0], inst, "ConstOffsets")
            color = ir.Constant(V4I if integer else V4F, None)
            for k in range(4):
                one = b.call(sample_fn(tuple(offsets[2 * k:2 * k + 2])), [desc, bits, *coords, *extra])
                color = b.insert_element(color, b.extract_element(one, ir.Constant(I32, 3)), ir.Constant(I32, k))
        elif "Offset" in ops:
            offsets = [_as_i32(fl, c) for c in _components(fl, ops["Offset"][0], 2)]
            color = b.call(sample_fn("dynamic"), [desc, bits, *coords, *extra, *offsets])
        else:
            offset = _constant_ints(fl, ops["ConstOffset"][0], inst, "ConstOffset") if "ConstOffset" in ops else None
            color = b.call(sample_fn(offset), [desc, bits, *coords, *extra])
        fl.set(w[2], _result(fl, result_t, color))
        return
    offset = _constant_ints(fl, ops["ConstOffset"][0], inst, "ConstOffset") if "ConstOffset" in ops else None
    lam = _lambda(fl, ops, desc, shape, coords)
    field = lambda shift: b.uitofp(b.and_(b.lshr(bits, ir.Constant(I32, shift)), ir.Constant(I32, 0xFF)), F32)  # noqa
    steps = ir.Constant(F32, 1.0 / 16)
    lo, hi = b.fmul(field(SAMPLER_MIN_LOD_SHIFT), steps), b.fmul(field(SAMPLER_MAX_LOD_SHIFT), steps)
    if "MinLod" in ops:
        lo = _maxnum(fl, lo, _float(fl, fl.value(ops["MinLod"][0])))
    lam = _minnum(fl, _maxnum(fl, lam, lo), hi)
    # The filter: mag_filter's LINEAR bit where lambda <= 0, min_filter's above.
    minify = b.fcmp_ordered(">", lam, ir.Constant(F32, 0.0))
    min_linear = b.icmp_unsigned("!=", b.and_(bits, ir.Constant(I32, SAMPLER_MIN_LINEAR)), ir.Constant(I32, 0))
    linear = b.select(minify, min_linear,
                      b.icmp_unsigned("!=", b.and_(bits, ir.Constant(I32, SAMPLER_LINEAR)), ir.Constant(I32, 0)))
    cleared = b.and_(bits, ir.Constant(I32, ~(SAMPLER_LINEAR | SAMPLER_NEAREST)))
    bits = b.or_(cleared, b.select(linear, ir.Constant(I32, SAMPLER_LINEAR), ir.Constant(I32, SAMPLER_NEAREST)))
    # The level.
    q = b.sub(descriptor_word(b, desc, "levels"), ir.Constant(I64, 1))
    fq = b.sitofp(q, F32)
    d = _minnum(fl, _maxnum(fl, lam, ir.Constant(F32, 0.0)), fq)
    mip_linear = b.icmp_unsigned("!=", b.and_(bits, ir.Constant(I32, SAMPLER_MIPMAP_LINEAR)), ir.Constant(I32, 0))
    if integer:
        mip_linear = ir.Constant(ir.IntType(1), 0)   # integer formats filter nearest only
    nearest_level = b.fsub(_call(fl, "llvm.ceil", b.fadd(d, ir.Constant(F32, 0.5))), ir.Constant(F32, 1.0))
    hi_level = _call(fl, "llvm.floor", d)
    delta = b.fsub(d, hi_level)
    first = b.fptosi(b.select(mip_linear, hi_level, nearest_level), I64)
    first = b.select(b.icmp_signed("<", first, ir.Constant(I64, 0)), ir.Constant(I64, 0), first)
    color = b.call(sample_fn(offset), [_block(fl, desc, first), bits, *coords, *extra])
    blend = b.and_(mip_linear, b.fcmp_ordered(">", delta, ir.Constant(F32, 0.0)))
    start = b.block
    with b.if_then(blend):
        second_level = b.add(first, ir.Constant(I64, 1))
        second_level = b.select(b.icmp_signed(">", second_level, q), q, second_level)
        second = b.call(sample_fn(offset), [_block(fl, desc, second_level), bits, *coords, *extra])
        splat = lambda v: b.shuffle_vector(b.insert_element(ir.Constant(V4F, None), v, ir.Constant(I32, 0)),  # noqa
                                           ir.Constant(V4F, None), ir.Constant(ir.VectorType(I32, 4), [0] * 4))
        mixed = b.fadd(b.fmul(splat(b.fsub(ir.Constant(F32, 1.0), delta)), color), b.fmul(splat(delta), second)) \
            if not integer else color
        blended_end = b.block
    phi = b.phi(color.type)
    phi.add_incoming(color, start)
    phi.add_incoming(mixed, blended_end)
    fl.set(w[2], _result(fl, result_t, phi))


def _call(fl: FunctionLowering, name: str, v: ir.Value) -> ir.Value:
    return fl.builder.call(intrinsic(fl.ml.llvm, name, v.type, [v.type]), [v])


def _maxnum(fl, a, b_):
    return fl.builder.call(intrinsic(fl.ml.llvm, "llvm.maxnum", F32, [F32, F32]), [a, b_])


def _minnum(fl, a, b_):
    return fl.builder.call(intrinsic(fl.ml.llvm, "llvm.minnum", F32, [F32, F32]), [a, b_])


def _lambda(fl: FunctionLowering, ops: dict, desc, shape: _ShaderShape, coords: list) -> ir.Value:
    """lambda_base: the Lod operand, or log2(max(rho_x, rho_y)) with rho the length of the
    Grad derivative scaled by the level-0 size per axis (Vulkan's isotropic rho_max; a cube's
    derivatives first carried onto the face the direction selects); 0 without either."""
    b = fl.builder
    if "Lod" in ops:
        return _float(fl, fl.value(ops["Lod"][0]))
    if "Grad" not in ops:
        return ir.Constant(F32, 0.0)
    face = None
    if shape.cube:
        from .image_cube import CubeFace

        face = CubeFace(b, lambda v: _call(fl, "llvm.fabs", v), coords[:3])
    rho = []
    for gid in ops["Grad"]:
        total = ir.Constant(F32, 0.0)
        derivative = [_float(fl, c) for c in _components(fl, gid, shape.spatial)]
        if face is not None:
            derivative = list(face.derivative(derivative))
        for axis, c in enumerate(derivative):
            scaled = b.fmul(c, b.sitofp(descriptor_word(b, desc, "size", axis), F32))
            total = b.fadd(total, b.fmul(scaled, scaled))
        rho.append(_call(fl, "llvm.sqrt", total))
    return _call(fl, "llvm.log2", _maxnum(fl, rho[0], rho[1]))


# ----- queries ----------------------------------------------------------------------------------
@handles("OpImageQueryLevels")
def lower_query_levels(fl: FunctionLowering, inst) -> None:
    """textureQueryLevels: the image's mip levels."""
    _query_word(fl, inst, "levels")


@handles("OpImageQuerySamples")
def lower_query_samples(fl: FunctionLowering, inst) -> None:
    """imageSamples / textureSamples: the samples per texel of a multisampled image."""
    _query_word(fl, inst, "samples")


def _query_word(fl: FunctionLowering, inst, word: str) -> None:
    w = inst.words
    elem = fl.type(w[1]).llvm
    value = descriptor_word(fl.builder, fl.value(w[3]), word)
    fl.set(w[2], fl.builder.trunc(value, elem) if elem.width < 64 else value)


@handles("OpImageQuerySizeLod", "OpImageQuerySize")
def lower_shader_query_size(fl: FunctionLowering, inst) -> None:
    """textureSize / imageSize: the sizes of a level (Lod), a cube's face size and, for cube
    arrays, the cube count."""
    if not is_shader(fl):
        lower_query_size(fl, inst)
        return
    w = inst.words
    b = fl.builder
    t = _image_type(fl, w[3])
    shape = _ShaderShape(t)
    desc = fl.value(w[3])
    if inst.opname == "OpImageQuerySizeLod":
        lod = _as_i64(fl, fl.value(w[4]))
        last = b.sub(descriptor_word(b, desc, "levels"), ir.Constant(I64, 1))
        desc = _block(fl, desc, b.select(b.icmp_unsigned(">", lod, last), last, lod))   # outside: undefined
    dims = list(range(shape.spatial)) + ([2] if shape.arrayed and not (shape.cube and not t.image["arrayed"]) else [])
    values = [descriptor_word(b, desc, "size", d) for d in dims]
    if shape.cube and t.image["arrayed"]:
        values[-1] = b.udiv(values[-1], ir.Constant(I64, 6))
    set_sizes(fl, inst, values)


@handles("OpImageTexelPointer")
def lower_image_texel_pointer(fl: FunctionLowering, inst) -> None:
    """A pointer to one texel of a storage image, for the atomic instructions (imageAtomic*):
    the texel's address in the image's memory, its region the image's. A coordinate outside
    the image is a fault in checked code (reported with the coordinate, as OpImageRead's) and,
    checked or not, points the atomic at a sink outside the image, so it changes no texel."""
    from .function import PTR, Ptr
    from .image_formats import descriptor_word, texel_address
    from .ops_image import _require_lod_zero

    w = inst.words
    image_t = fl.types[fl.ml.module.type_of(w[3]).result_id].elem
    if image_t.kind != "image":
        raise NotSupportedError(f"OpImageTexelPointer through a pointer to a {image_t.kind}")
    fmt = fl.ml.image_launch.format_of(image_t) if fl.ml.image_launch is not None else None
    b = fl.builder
    table_entry = fl.pointer(w[3])
    desc = b.load(table_entry.addr, typ=PTR)
    shape = _ShaderShape(image_t)
    xyz = _integer_coords(fl, shape, w[4])
    if shape.ms:   # the Sample operand picks the sample's descriptor block
        desc, xyz = _level_or_sample(fl, desc, {"Sample": [w[5]]}, xyz)
    else:
        _require_lod_zero(fl, inst, w[5])   # Sample 0 on a single-sampled image
    _, inside = _checked_coords(fl, desc, shape, xyz, "image atomic")
    addr = texel_address(b, desc, *xyz, fmt)
    addr = b.select(inside, addr, _sink(fl))
    if not fl.checked:
        fl.set(w[2], Ptr(addr))
        return
    data = b.inttoptr(descriptor_word(b, desc, "data"), PTR)
    end = b.inttoptr(descriptor_word(b, desc, "data_end"), PTR)
    fl.set(w[2], Ptr(addr, data, end))


def _sink(fl: FunctionLowering) -> ir.Value:
    """Where an atomic on a texel outside its image goes: a word no image has."""
    module = fl.ml.llvm
    name = "spirvkit.image.atomic_sink"
    sink = module.globals.get(name)
    if sink is None:
        sink = ir.GlobalVariable(module, ir.IntType(64), name=name)
        sink.linkage = "internal"
        sink.initializer = ir.Constant(ir.IntType(64), 0)
        sink.align = 8
    return sink
