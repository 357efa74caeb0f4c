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
                       SAMPLER_BORDER_WHITE, SAMPLER_LINEAR, SAMPLER_NEAREST, SAMPLER_NORMALIZED)
from ..runtime import images as cl_images

_KINDS = {"UNORM": "UNORM_INT", "SNORM": "SNORM_INT", "UINT": "UNSIGNED_INT", "SINT": "SIGNED_INT",
          "SFLOAT": None, "SRGB": "UNORM_INT"}
_SPIRV_SUFFIX = {"UNORM": "", "SNORM": "Snorm", "UINT": "ui", "SINT": "i", "SFLOAT": "f"}
# vk.Image dims -> the OpenCL image type underneath.
DIMS = {"1d": "1d", "2d": "2d", "3d": "3d", "buffer": "1d_buffer", "1d_array": "1d_array", "2d_array": "2d_array"}


class VkFormat:
    """A Vulkan format of equal-width channels: R8G8B8A8_UNORM, B8G8R8A8_SRGB, R32_UINT ..."""

    def __init__(self, name: str):
        m = re.fullmatch(r"((?:[RGBA]\d+)+)_(UNORM|SNORM|UINT|SINT|SFLOAT|SRGB)", name)
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
        if self.kind == "SRGB" or self.order not in ("R", "RG", "RGBA"):
            return None
        return self.order.lower().capitalize() + str(self.width) + _SPIRV_SUFFIX[self.kind]


class Image(cl_images.Image):
    """A Vulkan image over a numpy array, zero-copy: ``Image(data, "R8G8B8A8_UNORM", dim="2d")``.

    ``data`` has shape (w, c) for 1d and buffer (texel buffers), (h, w, c) for 2d, (d, h, w, c)
    for 3d, (layers, w, c) for 1d_array, (layers, h, w, c) for 2d_array, the channel axis left
    out for one-channel formats; its dtype is the format's component type (uint8 for
    R8G8B8A8_UNORM, float32 for R32G32B32A32_SFLOAT, float16 for SFLOAT16 ...). ``dim``
    defaults from ``data.ndim`` (1d, 2d or 3d)."""

    def __init__(self, data, format: str = "R8G8B8A8_UNORM", dim: str | None = None):  # noqa: A002 (Vulkan's word)
        if not isinstance(data, np.ndarray):
            raise KernelArgumentError(f"Image takes a numpy array, not {type(data).__name__}")
        try:
            fmt = VkFormat(format)
        except NotSupportedError as e:
            raise KernelArgumentError(f"Image: not supported yet: {str(e).removeprefix('not supported yet: ')}") \
                from None
        channel_axis = fmt.channels > 1
        if dim is None:
            dim = {1: "1d", 2: "2d", 3: "3d"}.get(data.ndim - channel_axis)
        if dim not in DIMS:
            raise KernelArgumentError(f"Image: dim is one of {', '.join(DIMS)}, not {dim!r} (array of shape "
                                      f"{data.shape})")
        spatial = {"1d": 1, "buffer": 1, "2d": 2, "3d": 3, "1d_array": 1, "2d_array": 2}[dim]
        arrayed = int(dim.endswith("_array"))
        if data.dtype != fmt.dtype:
            raise KernelArgumentError(f"Image: a {format} image holds {fmt.dtype.name} components, got a "
                                      f"{data.dtype} array")
        if data.ndim != spatial + arrayed + channel_axis or (channel_axis and data.shape[-1] != fmt.channels) \
                or 0 in data.shape:
            axes = ("layers, " if arrayed else "") + {1: "w", 2: "h, w", 3: "d, h, w"}[spatial]
            want = f"({axes}, {fmt.channels})" if channel_axis else f"({axes})"
            raise KernelArgumentError(f"Image: a {dim} {format} image's array has shape {want}, got {data.shape}")
        if not data.flags.c_contiguous:
            raise KernelArgumentError("Image: the array must be C-contiguous (use np.ascontiguousarray)")
        self._data = data
        self.format = fmt
        self.vk_dim = dim
        self.channel_order, self.channel_type, self.image_type = fmt.cl_order, fmt.cl_type, DIMS[dim]
        self.access = "read_write" if data.flags.writeable else "read_only"
        self.dim, self.arrayed, self.depth = cl_images.IMAGE_TYPES[self.image_type][0], arrayed, 0
        # (width, height, depth), an array's layers last (the z of the texel address, as OpenCL's)
        sizes = list(reversed(data.shape[arrayed:arrayed + spatial])) + [1] * (3 - spatial)
        if arrayed:
            sizes[2] = data.shape[0]
        self.size = tuple(sizes)
        self.descriptor = self._descriptor(fmt.channels)
        # What a shader is compiled for (jit/shader_image.py): the format's descriptor words.
        self.format_words = tuple(int(self.descriptor[IMAGE[name]]) for name in IMAGE_FORMAT)

    def describe(self) -> str:
        size = "x".join(str(s) for s in self.shape)
        what = "texel buffer" if self.vk_dim == "buffer" else f"{self.vk_dim.replace('_', ' ')} image"
        return f"a {what} of {size} {self.format.name}"

    def __repr__(self):
        return f"vk.Image({self.format.name}, {self.vk_dim}, size {self.shape})"


FILTERS = ("nearest", "linear")
ADDRESS_MODES = {"clamp_to_edge": 1, "clamp_to_border": 2, "repeat": 3, "mirrored_repeat": 4,
                 "mirror_clamp_to_edge": None, "mirrored_clamp_to_edge": None}
BORDER_COLORS = {"float_transparent_black": 0, "int_transparent_black": 0,
                 "float_opaque_black": SAMPLER_BORDER_OPAQUE, "int_opaque_black": SAMPLER_BORDER_OPAQUE,
                 "float_opaque_white": SAMPLER_BORDER_OPAQUE | SAMPLER_BORDER_WHITE,
                 "int_opaque_white": SAMPLER_BORDER_OPAQUE | SAMPLER_BORDER_WHITE}


class Sampler:
    """Vulkan sampler state, in AmberScript's lower-case names::

        Sampler(mag_filter="linear", address_mode_u="clamp_to_border", border_color="float_opaque_white")

    Images have one mip level and the shader samples at Lod 0, where Vulkan filters with
    ``mag_filter`` (``min_filter`` and the LOD settings are kept, and change nothing). The
    address modes of the axes an image has must be the same (not supported yet otherwise);
    ``mirror_clamp_to_edge`` and depth comparison are not supported yet."""

    def __init__(self, mag_filter: str = "nearest", min_filter: str = "nearest", address_mode_u: str = "repeat",
                 address_mode_v: str = "repeat", address_mode_w: str = "repeat",
                 border_color: str = "float_transparent_black", normalized_coords: bool = True,
                 compare: bool = False, min_lod: float = 0.0, max_lod: float = 1.0):
        for name, value in (("mag_filter", mag_filter), ("min_filter", min_filter)):
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
        if compare:
            raise NotSupportedError("samplers with depth comparison (COMPARE on)")
        if not normalized_coords and any(m not in ("clamp_to_edge", "clamp_to_border") for m in modes):
            raise KernelArgumentError("Sampler: unnormalized coordinates take the clamp_to_edge and clamp_to_border "
                                      "address modes only (Vulkan's rule)")
        self.mag_filter, self.min_filter = mag_filter, min_filter
        self.address_modes = modes
        self.border_color = border_color
        self.normalized_coords = bool(normalized_coords)
        self.min_lod, self.max_lod = min_lod, max_lod

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
        return (SAMPLER_NORMALIZED * self.normalized_coords | mode << SAMPLER_ADDRESS_SHIFT
                | (SAMPLER_LINEAR if self.mag_filter == "linear" else SAMPLER_NEAREST)
                | SAMPLER_BORDER | BORDER_COLORS[self.border_color])

    def __repr__(self):
        return (f"vk.Sampler(mag_filter={self.mag_filter!r}, address_modes={self.address_modes}, "
                f"border_color={self.border_color!r}, normalized_coords={self.normalized_coords})")
