"""Images and samplers on the host: formats, the ``Image`` and ``Sampler`` arguments, and the
descriptor a kernel reads an image through (its layout is ``jit.abi.IMAGE``).

Names follow the OpenCL host API without the ``CL_`` prefix; the values a kernel's queries
return (OpImageQueryOrder / OpImageQueryFormat) are SPIR-V's enumerants, taken from the grammar
by name. The channel layouts and the combinations allowed are the OpenCL C 2.0 spec's
(§6.13.14.7, "Mapping image channels to color values") and the OpenCL 2.0 API's list of
formats every device supports, plus the packed and sRGB ones it lists as optional.
"""

from __future__ import annotations

import numpy as np

from ..errors import KernelArgumentError
from ..jit.abi import IMAGE, IMAGE_FORMAT, SAMPLER_ADDRESS_SHIFT, SAMPLER_LINEAR, SAMPLER_NEAREST, SAMPLER_NORMALIZED
from ..jit.types import c_type_name

# Channel order -> the stored components, in memory order: r g b a, i(ntensity), l(uminance),
# d(epth), x (padding, read as nothing, written as 0).
CHANNEL_ORDERS = {
    "R": "r", "A": "a", "RG": "rg", "RA": "ra", "RGB": "rgb", "RGBA": "rgba", "BGRA": "bgra",
    "ARGB": "argb", "ABGR": "abgr", "INTENSITY": "i", "LUMINANCE": "l", "Rx": "rx", "RGx": "rgx",
    "RGBx": "rgbx", "DEPTH": "d", "sRGB": "rgb", "sRGBx": "rgbx", "sRGBA": "rgba", "sBGRA": "bgra",
}

# Channel type -> (numpy dtype of one stored component, or of the whole texel when packed; packed)
CHANNEL_TYPES = {
    "SNORM_INT8": (np.int8, False), "SNORM_INT16": (np.int16, False),
    "UNORM_INT8": (np.uint8, False), "UNORM_INT16": (np.uint16, False),
    "UNORM_SHORT_565": (np.uint16, True), "UNORM_SHORT_555": (np.uint16, True),
    "UNORM_INT_101010": (np.uint32, True),
    "SIGNED_INT8": (np.int8, False), "SIGNED_INT16": (np.int16, False), "SIGNED_INT32": (np.int32, False),
    "UNSIGNED_INT8": (np.uint8, False), "UNSIGNED_INT16": (np.uint16, False),
    "UNSIGNED_INT32": (np.uint32, False),
    "HALF_FLOAT": (np.float16, False), "FLOAT": (np.float32, False),
}

_NORM = ("SNORM_INT8", "SNORM_INT16", "UNORM_INT8", "UNORM_INT16")
_INTEGER = ("SIGNED_INT8", "SIGNED_INT16", "SIGNED_INT32", "UNSIGNED_INT8", "UNSIGNED_INT16", "UNSIGNED_INT32")
_ALL = _NORM + _INTEGER + ("HALF_FLOAT", "FLOAT")
_PACKED = ("UNORM_SHORT_565", "UNORM_SHORT_555", "UNORM_INT_101010")
_8BIT = ("UNORM_INT8", "SNORM_INT8", "SIGNED_INT8", "UNSIGNED_INT8")

# The combinations that work (OpenCL 2.0 API §5.3.2.1, and the optional formats of its tables).
FORMATS = {
    **{order: _ALL for order in ("R", "A", "RG", "RA", "RGBA", "Rx", "RGx")},
    "INTENSITY": _NORM + ("HALF_FLOAT", "FLOAT"), "LUMINANCE": _NORM + ("HALF_FLOAT", "FLOAT"),
    "RGB": _PACKED, "RGBx": _PACKED,
    "BGRA": _8BIT, "ARGB": _8BIT, "ABGR": _8BIT,
    "sRGB": ("UNORM_INT8",), "sRGBx": ("UNORM_INT8",), "sRGBA": ("UNORM_INT8",), "sBGRA": ("UNORM_INT8",),
    "DEPTH": ("UNORM_INT16", "FLOAT"),
}

# Image type -> (SPIR-V Dim, Arrayed, Depth, spatial dimensions). Depth images are the DEPTH
# order's; "2d" with a DEPTH image means the depth image type.
IMAGE_TYPES = {
    "1d": ("1D", 0, 0, 1), "1d_buffer": ("Buffer", 0, 0, 1), "1d_array": ("1D", 1, 0, 1),
    "2d": ("2D", 0, 0, 2), "2d_array": ("2D", 1, 0, 2), "3d": ("3D", 0, 0, 3),
    "2d_depth": ("2D", 0, 1, 2), "2d_array_depth": ("2D", 1, 1, 2),
}

ADDRESSING_MODES = ("NONE", "CLAMP_TO_EDGE", "CLAMP", "REPEAT", "MIRRORED_REPEAT")
FILTER_MODES = ("NEAREST", "LINEAR")


def _spirv_enumerant(kind: str, opencl_name: str) -> int:
    """SPIR-V's value for an OpenCL channel order or type: the grammar's enumerant whose name
    is the OpenCL one without underscores, ignoring case (UNORM_INT_101010 -> UnormInt101010)."""
    from ..spirv.grammar import load_grammar

    wanted = opencl_name.replace("_", "").lower()
    for e in load_grammar().operand_kinds[kind].by_value.values():
        if e.name.replace("_", "").lower() == wanted:
            return e.value
    raise KeyError(opencl_name)


def _channel_type_code(name: str) -> int:
    """The descriptor's channel type: SPIR-V's enumerant, or the code of a Vulkan packed format
    OpenCL has no channel type for (jit.image_formats.VULKAN_PACKED)."""
    from ..jit.image_formats import VULKAN_PACKED

    return VULKAN_PACKED[name] if name in VULKAN_PACKED else _spirv_enumerant("ImageChannelDataType", name)


def supported_image_formats(image_type: str = "2d") -> list[tuple[str, str]]:
    """The (channel order, channel type) pairs that images of ``image_type`` may have."""
    _image_type_info(image_type, "supported_image_formats")
    if IMAGE_TYPES[image_type][2]:
        return [("DEPTH", ctype) for ctype in FORMATS["DEPTH"]]
    with_depth = image_type in ("2d", "2d_array")   # a DEPTH image passed as a 2d one is a depth image
    return [(order, ctype) for order, types in FORMATS.items() for ctype in types
            if order != "DEPTH" or with_depth]


def _image_type_info(image_type, where: str):
    if image_type not in IMAGE_TYPES:
        raise KernelArgumentError(f"{where}: unknown image type {image_type!r}; one of {', '.join(IMAGE_TYPES)}")
    return IMAGE_TYPES[image_type]


class Image:
    """An image over a numpy array (zero-copy: kernels read and write ``data`` in place).

    ``data``'s shape is the image's size in numpy order, then the channels when the order has
    more than one and the type is not packed: 1d / 1d_buffer (w, c), 2d (h, w, c), 3d
    (d, h, w, c), 1d_array (layers, w, c), 2d_array (layers, h, w, c). Its dtype is the
    channel type's (UNORM_INT8 uint8, HALF_FLOAT float16 ..., one uint16/uint32 per texel for
    the packed types). ``image_type`` defaults from ``data.ndim``. ``access``: 'read_only',
    'write_only' or 'read_write' (default: read_write, or read_only for a read-only array)."""

    def __init__(self, data, channel_order: str = "RGBA", channel_type: str = "UNORM_INT8",
                 image_type: str | None = None, access: str | None = None):
        if not isinstance(data, np.ndarray):
            raise KernelArgumentError(f"Image takes a numpy array, not {type(data).__name__}")
        if channel_order not in CHANNEL_ORDERS:
            raise KernelArgumentError(f"Image: unknown channel order {channel_order!r}; one of "
                                      f"{', '.join(CHANNEL_ORDERS)}")
        if channel_type not in CHANNEL_TYPES:
            raise KernelArgumentError(f"Image: unknown channel type {channel_type!r}; one of "
                                      f"{', '.join(CHANNEL_TYPES)}")
        if channel_type not in FORMATS[channel_order]:
            raise KernelArgumentError(f"Image: the format {channel_order}/{channel_type} is not supported; "
                                      f"{channel_order} images take {', '.join(FORMATS[channel_order])}")
        dtype, packed = CHANNEL_TYPES[channel_type]
        channels = 1 if packed else len(CHANNEL_ORDERS[channel_order])
        channel_axis = channels > 1
        if image_type is None:
            spatial = data.ndim - channel_axis
            image_type = {1: "1d", 2: "2d", 3: "3d"}.get(spatial)
            if image_type is None:
                raise KernelArgumentError(f"Image: a {channel_order}/{channel_type} image's array has 1 to 3 "
                                          f"spatial axes{' and a channel axis' if channel_axis else ''}; "
                                          f"got shape {data.shape}")
        dim, arrayed, depth, spatial = _image_type_info(image_type, "Image")
        if depth and channel_order != "DEPTH":
            raise KernelArgumentError(f"Image: a {image_type} image has the DEPTH channel order")
        if access not in (None, "read_only", "write_only", "read_write"):
            raise KernelArgumentError(f"Image: access is 'read_only', 'write_only' or 'read_write', not {access!r}")
        check_image_array(data, dtype, channel_type, f"{image_type} {channel_order}/{channel_type}", spatial, arrayed,
                          channels if channel_axis else 0, packed=packed)
        if access is None:
            access = "read_write" if data.flags.writeable else "read_only"
        elif access != "read_only" and not data.flags.writeable:
            raise KernelArgumentError(f"Image: the array is read-only, so the image cannot be {access}")
        self._data = data
        self.channel_order, self.channel_type, self.image_type, self.access = (channel_order, channel_type,
                                                                               image_type, access)
        self.dim, self.arrayed, self.depth = dim, arrayed, depth
        spatial_shape = data.shape[:data.ndim - channel_axis]
        sizes = list(reversed(spatial_shape[arrayed:]))          # width, height, depth
        sizes += [1] * (3 - len(sizes))
        if arrayed:
            sizes[spatial] = spatial_shape[0]   # the layers: y of a 1D array, z of a 2D array
            if spatial == 1:
                sizes = [sizes[0], 1, sizes[1]]   # kept as z: the layer pitch is the slice pitch
        self.size = tuple(sizes)
        self.descriptor = self._descriptor(channels)
        # What a kernel is compiled for (jit/image_launch.py): the format's descriptor words.
        self.format_words = tuple(int(self.descriptor[IMAGE[name]]) for name in IMAGE_FORMAT)

    @property
    def data(self) -> np.ndarray:
        return self._data

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def shape(self) -> tuple:
        """The size a kernel's queries see: width, height, depth / array size as the type has them."""
        spatial = IMAGE_TYPES[self.image_type][3]
        dims = list(self.size[:spatial])
        if self.arrayed:
            dims.append(self.size[2])
        return tuple(dims)

    def _descriptor(self, channels: int) -> np.ndarray:
        return descriptor_words(self._data, self.size, channels, self.channel_order, self.channel_type)

    def describe(self) -> str:
        size = "×".join(str(s) for s in self.shape)
        return f"a {self.image_type} {self.channel_order}/{self.channel_type} image of {size}"

    def __repr__(self):
        return (f"Image({self.image_type}, {self.channel_order}/{self.channel_type}, shape {self.shape}, "
                f"{self.access})")


def check_image_array(data: np.ndarray, dtype, type_name: str, image_name: str, spatial: int, arrayed: int,
                      channels: int, samples: int = 0, packed: bool = False) -> None:
    """Raises KernelArgumentError unless ``data`` can hold an image of ``image_name``: its
    dtype, its shape ([samples,] [layers,] spatial sizes, [channels] when ``channels``) and
    C-contiguous (images are bound zero-copy)."""
    if data.dtype != dtype:
        raise KernelArgumentError(f"Image: a {type_name} image holds {np.dtype(dtype).name} "
                                  f"{'texels' if packed else 'components'}, got a {data.dtype} array")
    ndim = bool(samples) + arrayed + spatial + bool(channels)
    if data.ndim != ndim or (channels and data.shape[-1] != channels) or (samples and data.shape[0] != samples) \
            or 0 in data.shape:
        axes = ("samples, " if samples else "") + ("layers, " if arrayed else "") + \
            {1: "w", 2: "h, w", 3: "d, h, w"}[spatial]
        want = f"({axes}, {channels})" if channels else f"({axes})"
        raise KernelArgumentError(f"Image: a {image_name} image's array has shape {want}, got {data.shape}")
    if not data.flags.c_contiguous:
        raise KernelArgumentError("Image: the array must be C-contiguous (use np.ascontiguousarray)")


def descriptor_words(data: np.ndarray, size: tuple, channels: int, channel_order: str, channel_type: str,
                     levels: int = 1, samples: int = 1) -> np.ndarray:
    """The descriptor of an image over ``data`` (jit.abi.IMAGE) of ``size`` (width, height,
    depth / layers) texels: one block; a Vulkan image with mip levels or samples has one such
    block per level or sample (vk/resources.py)."""
    w, h, _ = size
    elem = data.itemsize * channels
    words = np.zeros(IMAGE["_words"], np.int64)
    words[IMAGE["data"]] = data.ctypes.data
    words[IMAGE["data_end"]] = data.ctypes.data + data.nbytes
    words[IMAGE["size"]: IMAGE["size"] + 3] = size
    words[IMAGE["elem_bytes"]] = elem
    words[IMAGE["row_pitch"]] = elem * w
    words[IMAGE["slice_pitch"]] = elem * w * h
    words[IMAGE["channel_type"]] = _channel_type_code(channel_type)
    words[IMAGE["channel_order"]] = _spirv_enumerant("ImageChannelOrder", channel_order)
    words[IMAGE["channels"]] = channels
    read_map, write_map = channel_maps(channel_order)
    words[IMAGE["read_map"]] = int.from_bytes(bytes(read_map), "little")
    words[IMAGE["write_map"]] = int.from_bytes(bytes(write_map), "little")
    words[IMAGE["border_alpha"]] = border_alpha(channel_order)
    words[IMAGE["srgb"]] = int(channel_order.startswith("s"))
    words[IMAGE["levels"]] = levels
    words[IMAGE["samples"]] = samples
    return words


def channel_maps(order: str) -> tuple[list[int], list[int]]:
    """(read map, write map): for each of r, g, b, a the stored component it reads (4: 0.0,
    5: 1.0), after the OpenCL C table: R -> (r, 0, 0, 1), INTENSITY -> (I, I, I, I),
    LUMINANCE -> (L, L, L, 1) ...; for each stored component the r, g, b, a one it is written
    from (4: zero, for padding)."""
    stored = CHANNEL_ORDERS[order]
    sources = {"r": "rild", "g": "gil", "b": "bil", "a": "ai"}
    read = []
    for k, component in enumerate("rgba"):
        found = next((stored.index(s) for s in sources[component] if s in stored), None)
        read.append(found if found is not None else (5 if component == "a" else 4))
    write = ["rgba".index(c) if c in "rgba" else (0 if c in "ild" else 4) for c in stored]
    write += [4] * (4 - len(write))
    return read, write


def border_alpha(order: str) -> int:
    """The border colour's alpha (OpenCL C 2.0 §6.13.14.3, "Determining the border color"):
    0 for orders with alpha or padding, 1 for R, RG, RGB, LUMINANCE (and sRGB, DEPTH: orders
    without alpha the spec's list leaves out)."""
    return 1 if order in ("R", "RG", "RGB", "LUMINANCE", "sRGB", "DEPTH") else 0


class Sampler:
    """A sampler argument: ``Sampler(normalized_coords=False, addressing_mode="CLAMP_TO_EDGE",
    filter_mode="NEAREST")``, with the OpenCL names of the modes."""

    def __init__(self, normalized_coords: bool = False, addressing_mode: str = "CLAMP_TO_EDGE",
                 filter_mode: str = "NEAREST"):
        if addressing_mode not in ADDRESSING_MODES:
            raise KernelArgumentError(f"Sampler: unknown addressing mode {addressing_mode!r}; one of "
                                      f"{', '.join(ADDRESSING_MODES)}")
        if filter_mode not in FILTER_MODES:
            raise KernelArgumentError(f"Sampler: unknown filter mode {filter_mode!r}; one of {', '.join(FILTER_MODES)}")
        self.normalized_coords = bool(normalized_coords)
        self.addressing_mode = addressing_mode
        self.filter_mode = filter_mode

    @property
    def bits(self) -> int:
        """The sampler as OpenCL C's sampler_t value (CLK_* bits)."""
        return (SAMPLER_NORMALIZED * self.normalized_coords
                | ADDRESSING_MODES.index(self.addressing_mode) << SAMPLER_ADDRESS_SHIFT
                | (SAMPLER_LINEAR if self.filter_mode == "LINEAR" else SAMPLER_NEAREST))

    def __repr__(self):
        return (f"Sampler(normalized_coords={self.normalized_coords}, addressing_mode={self.addressing_mode!r}, "
                f"filter_mode={self.filter_mode!r})")


def launch_key(args) -> tuple:
    """The image formats and samplers a launch's arguments fix (jit/image_launch.py): an entry
    ``(index, "image", format words)`` per Image, ``(index, "sampler", bits)`` per Sampler."""
    key = []
    for i, value in enumerate(args):
        if isinstance(value, Image):
            key.append((i, "image", value.format_words))
        elif isinstance(value, Sampler):
            key.append((i, "sampler", value.bits))
    return tuple(key)


def bind_image(value, t, where: str) -> Image:
    """Checks an image argument against the kernel parameter's image type and access."""
    if not isinstance(value, Image):
        raise KernelArgumentError(f"{where} is an {c_type_name(t)}: pass a spirvkit.Image, "
                                  f"not {type(value).__name__}")
    want = (t.image["dim"], t.image["arrayed"])
    depth = bool(value.depth or value.channel_order == "DEPTH")
    if (value.dim, value.arrayed) != want or depth != bool(t.image["depth"]):
        raise KernelArgumentError(f"{where} is an {c_type_name(t)}, got {value.describe()}")
    access = t.image["access"]
    if access in ("ReadOnly", "ReadWrite") and value.access == "write_only":
        raise KernelArgumentError(f"{where} is a {_access(access)} {c_type_name(t)}: the image is write_only")
    if access in ("WriteOnly", "ReadWrite") and value.access == "read_only":
        raise KernelArgumentError(f"{where} is a {_access(access)} {c_type_name(t)}: the image is read_only")
    return value


def bind_sampler(value, where: str) -> int:
    if not isinstance(value, Sampler):
        raise KernelArgumentError(f"{where} is a sampler_t: pass a spirvkit.Sampler, not {type(value).__name__}")
    return value.bits


def _access(qualifier: str) -> str:
    return {"ReadOnly": "read_only", "WriteOnly": "write_only", "ReadWrite": "read_write"}.get(qualifier, qualifier)


def fault_coordinates(address_word: int, size_word: int) -> tuple[int, ...]:
    """The coordinate of an image access outside its image, from the fault record (packed by
    jit/ops_image.py: x and y in the address word, z and which of x, y, z the image has in the size
    word); a layer is the last coordinate."""
    def signed(v: int) -> int:
        v &= 0xFFFFFFFF
        return v - (1 << 32) if v >> 31 else v

    used = (size_word >> 32) & 7
    xyz = (signed(address_word), signed(address_word >> 32), signed(size_word))
    return tuple(c for d, c in enumerate(xyz) if used >> d & 1)


def image_fault_detail(address_word: int, size_word: int, image: str) -> str:
    coordinate = fault_coordinates(address_word, size_word)
    shown = coordinate[0] if len(coordinate) == 1 else coordinate
    return f"at coordinate {shown}, outside {image}"
