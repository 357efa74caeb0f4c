"""Vulkan images and samplers on the host: ``Image`` (storage images, sampled images, texel
buffers) over a numpy array in a Vulkan format, and ``Sampler`` with Vulkan's sampler state.

Both are the OpenCL runtime's objects underneath (runtime/images.py): an image's descriptor and
texel conversions are the OpenCL environment's, which Vulkan's match for the formats here
(UNORM/SNORM by 2^b - 1 / 2^(b-1) - 1 with -1 clamping, sRGB, integer and float channels, and
missing components read as 0 and alpha 1). A Vulkan format maps to an OpenCL channel order and
type; the SPIR-V image format a shader declares for a storage image must be the bound image's.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import KernelArgumentError, NotSupportedError
from ..jit.abi import (IMAGE, IMAGE_FORMAT, SAMPLER_ADDRESS_SHIFT, SAMPLER_BORDER, SAMPLER_BORDER_OPAQUE,
                       SAMPLER_BORDER_WHITE, SAMPLER_COMPARE, SAMPLER_COMPARE_SHIFT, SAMPLER_LINEAR,
                       SAMPLER_MAX_LOD_SHIFT, SAMPLER_MIN_LINEAR, SAMPLER_MIN_LOD_SHIFT, SAMPLER_MIPMAP_LINEAR,
                       SAMPLER_NEAREST, SAMPLER_NORMALIZED)
from ..runtime import images as cl_images

_KINDS = {"UNORM": "UNORM_INT", "SNORM": "SNORM_INT", "UINT": "UNSIGNED_INT", "SINT": "SIGNED_INT",
          "SFLOAT": None, "SRGB": "UNORM_INT"}
_SPIRV_SUFFIX = {"UNORM": "", "SNORM": "Snorm", "UINT": "ui", "SINT": "i", "SFLOAT": "f"}
# vk.Image dims -> the OpenCL image type underneath.
DIMS = {"1d": "1d", "2d": "2d", "3d": "3d", "buffer": "1d_buffer", "1d_array": "1d_array", "2d_array": "2d_array",
        "cube": "2d_array", "cube_array": "2d_array"}
SPATIAL = {"1d": 1, "buffer": 1, "2d": 2, "3d": 3, "1d_array": 1, "2d_array": 2, "cube": 2, "cube_array": 2}


_DEPTH_FORMATS = {"D16_UNORM": "R16_UNORM", "D32_SFLOAT": "R32_SFLOAT"}
# Packed formats: (descriptor channel type, channel order, kind, SPIR-V ImageFormat).
_PACKED_FORMATS = {"A2B10G10R10_UNORM_PACK32": ("A2B10G10R10_UNORM", "RGBA", "UNORM", "Rgb10A2"),
                   "A2B10G10R10_UINT_PACK32": ("A2B10G10R10_UINT", "RGBA", "UINT", "Rgb10a2ui"),
                   "B10G11R11_UFLOAT_PACK32": ("B10G11R11_UFLOAT", "RGB", "UFLOAT", "R11fG11fB10f")}


class VkFormat:
    """A Vulkan format: equal-width channels (R8G8B8A8_UNORM, B8G8R8A8_SRGB, R32_UINT ...), the
    depth formats D16_UNORM and D32_SFLOAT, and the packed A2B10G10R10_UNORM_PACK32,
    A2B10G10R10_UINT_PACK32 and B10G11R11_UFLOAT_PACK32 (a uint32 per texel)."""

    def __init__(self, name: str):
        # Depth formats read as their one R channel (depth comparison: image_sampling.py).
        self.depth = name in _DEPTH_FORMATS
        if name in _PACKED_FORMATS:   # one uint32 per texel (jit.image_formats.VULKAN_PACKED)
            self.cl_type, self.cl_order, kind, self._spirv = _PACKED_FORMATS[name]
            self.name, self.order, self.kind, self.width = name, self.cl_order, kind, 32
            self.dtype, self.channels, self.packed = np.dtype(np.uint32), 1, True
            return
        self.packed = False
        m = re.fullmatch(r"((?:[RGBA]\d+)+)_(UNORM|SNORM|UINT|SINT|SFLOAT|SRGB)", _DEPTH_FORMATS.get(name, name))
        if not m:
            raise NotSupportedError(f"the image format {name}")
        channels = re.findall(r"([RGBA])(\d+)", m.group(1))
        order = "".join(c for c, _ in channels)
        widths = {int(w) for _, w in channels}
        kind = m.group(2)
        width = widths.pop() if len(widths) == 1 else None
        cl_order = {"R": "R", "RG": "RG", "RGB": "RGB", "RGBA": "RGBA", "BGRA": "BGRA"}.get(order)
        if kind == "SRGB":
            cl_order = {"RGBA": "sRGBA", "BGRA": "sBGRA"}.get(order)
        if kind == "SFLOAT":
            cl_type = {16: "HALF_FLOAT", 32: "FLOAT"}.get(width)
        else:
            cl_type = f"{_KINDS[kind]}{width}" if width in (8, 16) or (width == 32 and kind in ("UINT", "SINT")) \
                else None
        if cl_order is None or cl_type is None or cl_type not in cl_images.CHANNEL_TYPES:
            raise NotSupportedError(f"the image format {name}")
        self.name, self.order, self.kind, self.width = name, order, kind, width
        self.cl_order, self.cl_type = cl_order, cl_type
        self.dtype = np.dtype(cl_images.CHANNEL_TYPES[cl_type][0])
        self.channels = len(order)

    @property
    def numeric(self) -> str:
        """'float', 'int' or 'uint': the sampled type a shader reads this format as."""
        return {"UINT": "uint", "SINT": "int"}.get(self.kind, "float")

    @property
    def spirv_format(self) -> str | None:
        """The SPIR-V ImageFormat enumerant naming this format (Rgba8, R32ui ...), if one does."""
        if self.packed:
            return self._spirv
        if self.kind == "SRGB" or self.depth or self.order not in ("R", "RG", "RGBA"):
            return None
        return self.order.lower().capitalize() + str(self.width) + _SPIRV_SUFFIX[self.kind]


SAMPLE_COUNTS = (1, 2, 4, 8, 16, 32, 64)   # VkSampleCountFlagBits


class Image(cl_images.Image):
    """A Vulkan image over a numpy array: ``Image(data, "R8G8B8A8_UNORM", dim="2d")``.

    ``data`` has shape (w, c) for 1d and buffer (texel buffers), (h, w, c) for 2d, (d, h, w, c)
    for 3d, (layers, w, c) for 1d_array, (layers, h, w, c) for 2d_array, (6, h, w, c) for cube
    and (6 * cubes, h, w, c) for cube_array (layer = 6 * cube + face, faces in Vulkan's order
    +X, -X, +Y, -Y, +Z, -Z), the channel axis left out for one-channel formats; its dtype is
    the format's component type (uint8 for R8G8B8A8_UNORM, float32 for R32G32B32A32_SFLOAT,
    float16 for SFLOAT16 ...). ``dim`` defaults from ``data.ndim`` (1d, 2d or 3d).

    Mip levels: ``data`` may be a list of arrays, level 0 first, each level's spatial sizes
    max(1, size >> level) (layers unchanged), and ``mip_levels`` asks for that many levels (those
    not given start as zeros). A one-level image is zero-copy; a mipmapped one keeps its levels in
    one array of its own (``levels[k]`` are views of it: read results there).

    ``samples`` > 1 makes a multisampled 2d / 2d_array image (one level): ``data`` then has a
    leading samples axis, (samples, h, w, c) / (samples, layers, h, w, c)."""

    def __init__(self, data, format: str = "R8G8B8A8_UNORM", dim: str | None = None,  # noqa: A002 (Vulkan's word)
                 mip_levels: int | None = None, samples: int = 1):
        given = list(data) if isinstance(data, (list, tuple)) else [data]
        if not given or not all(isinstance(a, np.ndarray) for a in given):
            raise KernelArgumentError(f"Image takes a numpy array, not {type(data).__name__} (a list holds one numpy "
                                      f"array per mip level)")
        try:
            fmt = VkFormat(format)
        except NotSupportedError as e:
            raise KernelArgumentError(f"Image: not supported yet: {str(e).removeprefix('not supported yet: ')}") \
                from None
        channel_axis = fmt.channels > 1
        if samples not in SAMPLE_COUNTS:
            raise KernelArgumentError(f"Image: samples is one of {', '.join(map(str, SAMPLE_COUNTS))}, not {samples!r}")
        ms_axis = int(samples > 1)
        base = given[0]
        if dim is None:
            dim = {1: "1d", 2: "2d", 3: "3d"}.get(base.ndim - channel_axis - ms_axis)
        if dim not in DIMS:
            raise KernelArgumentError(f"Image: dim is one of {', '.join(DIMS)}, not {dim!r} (array of shape "
                                      f"{base.shape})")
        spatial, arrayed = SPATIAL[dim], int(dim.endswith("_array") or dim == "cube")
        if samples > 1 and dim not in ("2d", "2d_array"):
            raise KernelArgumentError(f"Image: multisampled images are 2d or 2d_array, not {dim}")
        cl_images.check_image_array(base, fmt.dtype, format, f"{dim} {format}", spatial, arrayed,
                                    fmt.channels if channel_axis else 0, samples if ms_axis else 0)
        lead = base.shape[ms_axis:ms_axis + arrayed + spatial]
        layers = lead[0] if arrayed else 1
        extent = tuple(reversed(lead[arrayed:]))   # width, height, depth
        if dim.startswith("cube"):
            if extent[0] != extent[1]:
                raise KernelArgumentError(f"Image: a {dim} image's faces are square; got {extent[0]}x{extent[1]}")
            if layers % 6 or (dim == "cube" and layers != 6):
                raise KernelArgumentError(f"Image: a {dim} image has {'6' if dim == 'cube' else 'a multiple of 6'} "
                                          f"layers (faces), got {layers}")
        most = max(extent).bit_length()   # floor(log2(largest size)) + 1 (Vulkan's mipLevels limit)
        levels = len(given) if mip_levels is None else mip_levels
        if not isinstance(levels, int) or isinstance(levels, bool) or not 1 <= levels <= most \
                or len(given) > levels:
            raise KernelArgumentError(f"Image: a {'x'.join(map(str, extent))} image has 1 to {most} mip levels; "
                                      f"asked for {mip_levels if mip_levels is not None else len(given)}"
                                      f"{f' with {len(given)} given' if len(given) > 1 else ''}")
        if levels > 1 and (samples > 1 or dim == "buffer"):
            raise KernelArgumentError(f"Image: a {'multisampled' if samples > 1 else 'texel buffer'} image has one "
                                      f"mip level")
        shapes = [self._level_shape(base.shape, k, ms_axis + arrayed, spatial) for k in range(levels)]
        for k, array in enumerate(given[1:], 1):
            if array.dtype != fmt.dtype or array.shape != shapes[k]:
                raise KernelArgumentError(f"Image: mip level {k} of this image is a {fmt.dtype.name} array of shape "
                                          f"{shapes[k]}, got a {array.dtype} array of shape {array.shape}")
        if levels == 1:
            views = [base]
        else:   # one array of its own holding every level, so regions and faults see one image
            sizes = [int(np.prod(sh)) for sh in shapes]
            store = np.zeros(sum(sizes), fmt.dtype)
            offsets = np.cumsum([0] + sizes)
            views = [store[offsets[k]:offsets[k + 1]].reshape(shapes[k]) for k in range(levels)]
            for view, array in zip(views, given):
                view[...] = array
            base = store
        self._data = views[0]
        self.memory = base if levels > 1 else views[0]
        self.levels = views
        self.samples = samples
        self.format = fmt
        self.vk_dim = dim
        self.channel_order, self.channel_type, self.image_type = fmt.cl_order, fmt.cl_type, DIMS[dim]
        self.access = "read_write" if base.flags.writeable else "read_only"
        self.dim = {"cube": "Cube", "cube_array": "Cube"}.get(dim, cl_images.IMAGE_TYPES[self.image_type][0])
        self.arrayed, self.depth = int(arrayed and dim != "cube"), 0
        self.size = self._size(views[0].shape[ms_axis:], spatial, arrayed)
        blocks = []
        for k, view in enumerate(views if samples == 1 else list(views[0])):   # a block per level or sample
            blocks.append(cl_images.descriptor_words(view, self._size(view.shape[ms_axis * (samples == 1):], spatial,
                                                                      arrayed),
                                                     fmt.channels, fmt.cl_order, fmt.cl_type, levels, samples))
        self.descriptor = np.concatenate(blocks)
        # What a shader is compiled for (jit/shader_image.py): the format's descriptor words.
        self.format_words = tuple(int(self.descriptor[IMAGE[name]]) for name in IMAGE_FORMAT)

    @staticmethod
    def _level_shape(shape: tuple, level: int, lead: int, spatial: int) -> tuple:
        return (shape[:lead] + tuple(max(1, s >> level) for s in shape[lead:lead + spatial])
                + shape[lead + spatial:])

    @staticmethod
    def _size(shape: tuple, spatial: int, arrayed: int) -> tuple:
        """(width, height, depth) of a level's array, an array's layers last (the z of the
        texel address, as OpenCL's)."""
        sizes = list(reversed(shape[arrayed:arrayed + spatial])) + [1] * (3 - spatial)
        if arrayed:
            sizes[2] = shape[0]
        return tuple(sizes)

    @property
    def mip_levels(self) -> int:
        return len(self.levels)

    @property
    def shape(self) -> tuple:
        """The size a shader's queries see at level 0 (cubes: a face's, and the cube count)."""
        if self.vk_dim.startswith("cube"):
            w, h, layers = self.size
            return (w, h, layers // 6) if self.vk_dim == "cube_array" else (w, h)
        return super().shape

    def describe(self) -> str:
        size = "x".join(str(s) for s in self.shape)
        what = "texel buffer" if self.vk_dim == "buffer" else f"{self.vk_dim.replace('_', ' ')} image"
        more = (f", {self.mip_levels} mip levels" if self.mip_levels > 1 else "") + \
            (f", {self.samples} samples" if self.samples > 1 else "")
        return f"a {what} of {size} {self.format.name}{more}"

    def __repr__(self):
        return f"vk.Image({self.format.name}, {self.vk_dim}, size {self.shape}, levels {self.mip_levels})"


def check_image_type(image: Image, info: dict, where: str) -> None:
    """Raises KernelArgumentError unless ``image`` is an image of the shader's image type
    (``info``: the type's dim, arrayed, ms), naming both."""
    declared = f"{info['dim']}{' arrayed' * bool(info['arrayed'])}{' multisampled' * bool(info.get('ms'))}"
    if (image.dim, bool(image.arrayed), image.samples > 1) != (info["dim"], bool(info["arrayed"]),
                                                                bool(info.get("ms"))):
        raise KernelArgumentError(f"{where}: the shader declares a {declared} image; got {image.describe()}")


FILTERS = ("nearest", "linear")
ADDRESS_MODES = {"clamp_to_edge": 1, "clamp_to_border": 2, "repeat": 3, "mirrored_repeat": 4,
                 "mirror_clamp_to_edge": None, "mirrored_clamp_to_edge": None}
BORDER_COLORS = {"float_transparent_black": 0, "int_transparent_black": 0,
                 "float_opaque_black": SAMPLER_BORDER_OPAQUE, "int_opaque_black": SAMPLER_BORDER_OPAQUE,
                 "float_opaque_white": SAMPLER_BORDER_OPAQUE | SAMPLER_BORDER_WHITE,
                 "int_opaque_white": SAMPLER_BORDER_OPAQUE | SAMPLER_BORDER_WHITE}


COMPARE_OPS = ("never", "less", "equal", "less_or_equal", "greater", "not_equal", "greater_or_equal",
               "always")   # VkCompareOp's order: bit 0 passes on less, bit 1 on equal, bit 2 on greater
LOD_STEPS = 16   # minLod / maxLod are kept in 1/16 of a level (jit.abi.SAMPLER_MIN_LOD_SHIFT)


class Sampler:
    """Vulkan sampler state, in AmberScript's lower-case names::

        Sampler(mag_filter="linear", min_filter="linear", mipmap_mode="linear",
                address_mode_u="clamp_to_border", border_color="float_opaque_white")

    Level-of-detail selection is Vulkan's: ``lambda = clamp(lod, min_lod, max_lod)``,
    ``mag_filter`` for lambda <= 0 and ``min_filter`` above, the level by ``mipmap_mode``
    (nearest or linear between two levels). ``min_lod`` and ``max_lod`` are kept in 1/16 of a
    level (0 to 15.9375); with unnormalized coordinates they are 0 (Vulkan's rule: level 0,
    ``mag_filter``). ``compare`` with ``compare_op`` (never, less, equal, less_or_equal,
    greater, not_equal, greater_or_equal, always) is depth comparison for the Dref
    instructions. The address modes of the axes an image has must be the same (not supported
    yet otherwise); ``mirror_clamp_to_edge`` is not supported yet."""

    def __init__(self, mag_filter: str = "nearest", min_filter: str = "nearest", address_mode_u: str = "repeat",
                 address_mode_v: str = "repeat", address_mode_w: str = "repeat",
                 border_color: str = "float_transparent_black", normalized_coords: bool = True,
                 compare: bool = False, min_lod: float = 0.0, max_lod: float = 1.0, mipmap_mode: str = "nearest",
                 compare_op: str = "never"):
        for name, value in (("mag_filter", mag_filter), ("min_filter", min_filter), ("mipmap_mode", mipmap_mode)):
            if value not in FILTERS:
                raise KernelArgumentError(f"Sampler: {name} is one of {', '.join(FILTERS)}, not {value!r}")
        modes = (address_mode_u, address_mode_v, address_mode_w)
        for axis, mode in zip("uvw", modes):
            if mode not in ADDRESS_MODES:
                raise KernelArgumentError(f"Sampler: address_mode_{axis} is one of {', '.join(ADDRESS_MODES)}, "
                                          f"not {mode!r}")
        if border_color not in BORDER_COLORS:
            raise KernelArgumentError(f"Sampler: border_color is one of {', '.join(BORDER_COLORS)}, not "
                                      f"{border_color!r}")
        if compare_op not in COMPARE_OPS:
            raise KernelArgumentError(f"Sampler: compare_op is one of {', '.join(COMPARE_OPS)}, not {compare_op!r}")
        for name, value in (("min_lod", min_lod), ("max_lod", max_lod)):
            if not isinstance(value, (int, float)) or not value >= 0:
                raise KernelArgumentError(f"Sampler: {name} is a level of detail >= 0, not {value!r}")
        if max_lod < min_lod:
            raise KernelArgumentError(f"Sampler: max_lod ({max_lod}) is below min_lod ({min_lod})")
        if not normalized_coords:
            if any(m not in ("clamp_to_edge", "clamp_to_border") for m in modes):
                raise KernelArgumentError("Sampler: unnormalized coordinates take the clamp_to_edge and "
                                          "clamp_to_border address modes only (Vulkan's rule)")
            if compare:
                raise KernelArgumentError("Sampler: unnormalized coordinates take no depth comparison (Vulkan's rule)")
            min_lod = max_lod = 0.0   # Vulkan's rule: level 0, filtered by mag_filter
        self.mag_filter, self.min_filter, self.mipmap_mode = mag_filter, min_filter, mipmap_mode
        self.address_modes = modes
        self.border_color = border_color
        self.normalized_coords = bool(normalized_coords)
        self.min_lod, self.max_lod = min_lod, max_lod
        self.compare, self.compare_op = bool(compare), compare_op

    def bits(self, axes: int = 3) -> int:
        """The sampler as the executor's sampler bits (jit.abi.SAMPLER_*) for an image of ``axes``
        dimensions."""
        used = set(self.address_modes[:axes])
        if len(used) > 1:
            raise NotSupportedError(f"a sampler with different address modes per axis "
                                    f"({', '.join(self.address_modes[:axes])})")
        mode = ADDRESS_MODES[used.pop()]
        if mode is None:
            raise NotSupportedError("the mirror_clamp_to_edge address mode")
        top = LOD_STEPS * LOD_STEPS - 1

        def lod(value: float) -> int:
            return min(top, round(value * LOD_STEPS))

        return (SAMPLER_NORMALIZED * self.normalized_coords | mode << SAMPLER_ADDRESS_SHIFT
                | (SAMPLER_LINEAR if self.mag_filter == "linear" else SAMPLER_NEAREST)
                | SAMPLER_MIN_LINEAR * (self.min_filter == "linear")
                | SAMPLER_MIPMAP_LINEAR * (self.mipmap_mode == "linear")
                | SAMPLER_COMPARE * self.compare | COMPARE_OPS.index(self.compare_op) << SAMPLER_COMPARE_SHIFT
                | lod(self.min_lod) << SAMPLER_MIN_LOD_SHIFT | lod(self.max_lod) << SAMPLER_MAX_LOD_SHIFT
                | SAMPLER_BORDER | BORDER_COLORS[self.border_color])

    def __repr__(self):
        return (f"vk.Sampler(mag_filter={self.mag_filter!r}, min_filter={self.min_filter!r}, "
                f"mipmap_mode={self.mipmap_mode!r}, address_modes={self.address_modes}, "
                f"border_color={self.border_color!r}, normalized_coords={self.normalized_coords}, "
                f"lod=[{self.min_lod}, {self.max_lod}], compare={self.compare_op if self.compare else 'off'})")
