"""Image instructions shaders have and OpenCL kernels do not, on the OpenCL image core
(ops_image.py, image_formats.py, image_sampling.py).

Shaders reach their images, samplers and combined image samplers through UniformConstant
variables bound by (set, binding) (shader_interface.py): the loaded values are the ones the
OpenCL path has (an image descriptor's address, sampler bits, the pair), so OpImageRead,
OpImageWrite, OpSampledImage, OpImage, OpImageSampleExplicitLod and the size queries are the
OpenCL lowering. Vulkan's sampler state beyond OpenCL's (the border colour of CLAMP_TO_BORDER)
travels in the sampler bits (jit.abi.SAMPLER_BORDER*).
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from .function import FunctionLowering, handles
from .image_launch import FixedFormat
from .ops_image import lower_image_read


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


@handles("OpImageFetch")
def lower_image_fetch(fl: FunctionLowering, inst) -> None:
    """texelFetch of a sampled image or a uniform texel buffer: the texel at integer
    coordinates, unfiltered, as OpImageRead reads it (its operands sit where OpImageRead's do;
    a Lod other than constant 0 is not supported: images have one level)."""
    lower_image_read(fl, inst)


@handles("OpImageQueryLevels")
def lower_query_levels(fl: FunctionLowering, inst) -> None:
    """textureQueryLevels / imageQueryLevels: images here have one mip level."""
    fl.set(inst.words[2], ir.Constant(fl.type(inst.words[1]).llvm, 1))


@handles("OpImageTexelPointer")
def lower_image_texel_pointer(fl: FunctionLowering, inst) -> None:
    """A pointer to one texel of a storage image, for the atomic instructions (imageAtomic*):
    the texel's address in the image's memory, its region the image's. A coordinate outside
    the image is a fault in checked code (reported with the coordinate, as OpImageRead's) and,
    checked or not, points the atomic at a sink outside the image, so it changes no texel."""
    from .function import PTR, Ptr
    from .image_formats import descriptor_word, texel_address
    from .ops_image import _checked_coords, _integer_coords, _require_lod_zero, _Shape

    w = inst.words
    image_t = fl.types[fl.ml.module.type_of(w[3]).result_id].elem
    if image_t.kind != "image":
        raise NotSupportedError(f"OpImageTexelPointer through a pointer to a {image_t.kind}")
    _require_lod_zero(fl, inst, w[5])   # the Sample operand: images here have one sample
    fmt = fl.ml.image_launch.format_of(image_t) if fl.ml.image_launch is not None else None
    b = fl.builder
    table_entry = fl.pointer(w[3])
    desc = b.load(table_entry.addr, typ=PTR)
    shape = _Shape(image_t)
    xyz = _integer_coords(fl, shape, w[4])
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
