"""AmberScript images and samplers: the ``IMAGE`` and ``SAMPLER`` commands, an Amber buffer's
bytes seen as a ``spirvkit.vk.Image`` for a binding, and the ``EQ_HISTOGRAM_EMD_BUFFER``
comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import KernelArgumentError, NotSupportedError, SpirvkitError
from .amber_data import Buffer, DataType, data_type, format_type, image_format
from .resources import Image, Sampler

# The image and descriptor features the executor has (DEVICE_FEATURE / DEVICE_EXTENSION accept them).
FEATURES = {"shaderStorageImageExtendedFormats", "shaderStorageImageReadWithoutFormat",
            "shaderStorageImageWriteWithoutFormat", "shaderUniformBufferArrayDynamicIndexing",
            "shaderSampledImageArrayDynamicIndexing", "shaderStorageBufferArrayDynamicIndexing",
            "shaderStorageImageArrayDynamicIndexing"} | {
    f"DescriptorIndexingFeatures.{name}" for name in (
        "runtimeDescriptorArray", "shaderUniformBufferArrayNonUniformIndexing",
        "shaderSampledImageArrayNonUniformIndexing", "shaderStorageBufferArrayNonUniformIndexing",
        "shaderStorageImageArrayNonUniformIndexing", "shaderUniformTexelBufferArrayDynamicIndexing",
        "shaderStorageTexelBufferArrayDynamicIndexing", "shaderUniformTexelBufferArrayNonUniformIndexing",
        "shaderStorageTexelBufferArrayNonUniformIndexing")}
EXTENSIONS = {"VK_EXT_descriptor_indexing", "VK_KHR_maintenance3"}
DIMENSIONS = {"DIM_1D": "1d", "DIM_2D": "2d", "DIM_3D": "3d"}
_SHADER_DIMS = {"1D": "1d", "2D": "2d", "3D": "3d", "Buffer": "buffer"}


@dataclass
class ImageShape:
    """What an IMAGE command says of its buffer: dimensionality and size."""

    dim: str          # '1d', '2d' or '3d'
    width: int
    height: int
    depth: int
    mip_levels: int = 1   # the buffer's bytes are level 0; the others live in the image (image_of)


def parse_image(tokens: list[str]) -> tuple[DataType, ImageShape, list[str]]:
    """``IMAGE name`` arguments (tokens after the name, in any order) up to the initializer:
    the texel type, the shape and the initializer tokens left. Raises SpirvkitError in Amber's
    words."""
    rest = list(tokens)
    texel, dim, sizes = None, None, {}
    while rest and rest[0] not in ("FILL", "SERIES_FROM", "DATA", "FILE"):
        word = rest.pop(0)
        if word in ("FORMAT", "DATA_TYPE"):
            if not rest:
                raise SpirvkitError(f"IMAGE {word}: the {word.lower()} is missing")
            texel = format_type(rest.pop(0)) if word == "FORMAT" else data_type(rest.pop(0), "packed")
        elif word in DIMENSIONS:
            dim = DIMENSIONS[word]
        elif word in ("WIDTH", "HEIGHT", "DEPTH", "MIP_LEVELS", "SAMPLES"):
            try:
                value = int(rest.pop(0), 0)
                if value < 1:
                    raise ValueError
            except (IndexError, ValueError):
                raise SpirvkitError(f"expected positive IMAGE {word}") from None
            if word == "SAMPLES" and value != 1:
                # spirvkit.vk has multisampled images; Amber's initial data for them is its own.
                raise NotSupportedError("multisampled IMAGEs (SAMPLES) in Amber scripts")
            sizes[word] = value
        else:
            raise SpirvkitError(f"unknown IMAGE command provided: {word}")
    if texel is None:
        raise SpirvkitError("IMAGE needs a FORMAT or a DATA_TYPE")
    if dim is None:
        raise SpirvkitError("IMAGE needs DIM_1D, DIM_2D or DIM_3D")
    needed = {"1d": ("WIDTH",), "2d": ("WIDTH", "HEIGHT"), "3d": ("WIDTH", "HEIGHT", "DEPTH")}[dim]
    for word in needed:
        if word not in sizes:
            raise SpirvkitError(f"expected IMAGE {word}")
    shape = ImageShape(dim, sizes["WIDTH"], sizes.get("HEIGHT", 1), sizes.get("DEPTH", 1), sizes.get("MIP_LEVELS", 1))
    most = max(shape.width, shape.height if dim != "1d" else 1, shape.depth if dim == "3d" else 1).bit_length()
    if shape.mip_levels > most:
        raise SpirvkitError(f"IMAGE MIP_LEVELS {shape.mip_levels}: a {shape.width}x{shape.height}"
                            f"{f'x{shape.depth}' if dim == '3d' else ''} image has at most {most}")
    return texel, shape, rest


SAMPLER_OPTIONS = {"MAG_FILTER": "mag_filter", "MIN_FILTER": "min_filter", "ADDRESS_MODE_U": "address_mode_u",
                   "ADDRESS_MODE_V": "address_mode_v", "ADDRESS_MODE_W": "address_mode_w",
                   "BORDER_COLOR": "border_color", "MIN_LOD": "min_lod", "MAX_LOD": "max_lod"}


def parse_sampler(tokens: list[str]) -> Sampler:
    """``SAMPLER name`` options (tokens after the name). Raises SpirvkitError in Amber's words."""
    options: dict = {}
    rest = list(tokens)
    while rest:
        word = rest.pop(0)
        if word in ("NORMALIZED_COORDS", "UNNORMALIZED_COORDS"):
            options["normalized_coords"] = word == "NORMALIZED_COORDS"
        elif word == "COMPARE" and rest:
            value = rest.pop(0)
            if value not in ("on", "off"):
                raise SpirvkitError(f"invalid COMPARE value {value}")
            options["compare"] = value == "on"
        elif word == "COMPARE_OP" and rest:
            options["compare_op"] = rest.pop(0)
        elif word in SAMPLER_OPTIONS and rest:
            value = rest.pop(0)
            if word in ("MIN_LOD", "MAX_LOD"):
                try:
                    options[SAMPLER_OPTIONS[word]] = float(value)
                except ValueError:
                    raise SpirvkitError(f"invalid {word} value {value}") from None
            else:
                options[SAMPLER_OPTIONS[word]] = value
        else:
            raise SpirvkitError(f"unexpected sampler parameter {word}")
    if options.get("normalized_coords") is False:
        options["min_lod"] = options["max_lod"] = 0.0   # as Amber: unnormalized coordinates use level 0
    # Amber's samplers take their mipmap mode from MIN_FILTER (VkSamplerMipmapMode has no
    # AmberScript word of its own).
    options["mipmap_mode"] = options.get("min_filter", "nearest")
    try:
        return Sampler(**options)
    except KernelArgumentError as e:
        raise SpirvkitError(str(e).removeprefix("Sampler: ")) from None


def image_of(buffer: Buffer, shader_dim: str, where: str) -> Image:
    """The buffer's bytes as an image of the dimensionality the shader declares (zero-copy). An
    IMAGE has its own; a BUFFER is a row of its elements (a 1D or 2D image one texel high, or
    a texel buffer)."""
    dim = _SHADER_DIMS.get(shader_dim)
    if dim is None:
        raise NotSupportedError(f"{where}: images of Dim {shader_dim}")
    fmt = image_format(buffer.type)
    shape = buffer.image
    if shape is None:
        shape = ImageShape("buffer" if dim == "buffer" else dim, buffer.elements, 1, 1)
        if dim == "3d":
            raise SpirvkitError(f"{where}: the shader declares a 3D image; buffer {buffer.name} is no IMAGE DIM_3D")
    elif dim != "buffer" and shape.dim != dim:
        raise SpirvkitError(f"{where}: the shader declares a {shader_dim} image; {buffer.name} is an IMAGE "
                            f"DIM_{shape.dim.upper()}")
    t = buffer.type
    texels = shape.width * shape.height * shape.depth
    data = buffer.data[: texels * t.stride].view(t.dtype)
    channels = (t.components,) if t.components > 1 else ()
    if dim == "buffer":
        dims = (texels,)
    else:
        dims = {"1d": (shape.width,), "2d": (shape.height, shape.width),
                "3d": (shape.depth, shape.height, shape.width)}[dim]
    if shape.mip_levels == 1 or dim == "buffer":
        return Image(data.reshape(dims + channels), fmt, dim)
    return _mipmapped(buffer, data.reshape(dims + channels), fmt, dim, shape.mip_levels)


def _mipmapped(buffer: Buffer, level0: np.ndarray, fmt: str, dim: str, levels: int) -> Image:
    """An IMAGE with MIP_LEVELS: the buffer's bytes are level 0, the other levels start as
    zeros. The image keeps every level in one array of its own, so the buffer's bytes become a
    view of that array's level 0 (EXPECT reads what shaders wrote there), and the image is
    kept with the buffer while its bytes stay that view (the other levels persist between RUNs)."""
    kept = getattr(buffer, "_mip_image", None)
    if kept is not None and kept[1] is buffer.data and kept[0].vk_dim == dim:
        return kept[0]
    if level0.nbytes != buffer.data.nbytes:
        raise NotSupportedError(f"IMAGE {buffer.name} with MIP_LEVELS and more bytes than its level 0")
    image = Image(level0, fmt, dim, mip_levels=levels)
    buffer.data = image.levels[0].reshape(-1).view(np.uint8)
    buffer._mip_image = (image, buffer.data)
    return image


def histogram_emd(a: Buffer, b: Buffer) -> float:
    """The largest earth mover's distance between the two buffers' per-channel histograms of
    256 bins, each normalised by its element count and the distance by the bin count: the
    measure Amber's EQ_HISTOGRAM_EMD_BUFFER compares with its tolerance (8-bit, four-channel
    formats only)."""
    for buf in (a, b):
        t = buf.type
        if t.dtype != np.uint8 or t.components != 4 or t.stride != 4:
            raise SpirvkitError(f"EQ_HISTOGRAM_EMD_BUFFER compares 8-bit four-channel formats; buffer {buf.name} "
                                f"is {t.format or t.name}")
    if a.type.format != b.type.format or a.elements != b.elements:
        raise SpirvkitError(f"buffers {a.name} and {b.name} have a different format or size")
    worst = 0.0
    texels_a = a.data[: a.elements * 4].reshape(-1, 4)
    texels_b = b.data[: b.elements * 4].reshape(-1, 4)
    for c in range(4):
        ha = np.bincount(texels_a[:, c], minlength=256) / max(a.elements, 1)
        hb = np.bincount(texels_b[:, c], minlength=256) / max(b.elements, 1)
        worst = max(worst, float(np.sum(np.abs(np.cumsum(ha - hb)))) / 256)
    return worst


DEFAULT_PROBE_TOLERANCE = 0.002   # Amber's, on colours scaled to 0..1


def probe(buffer: Buffer, rect: tuple, rgba: list, tolerance: list) -> str | None:
    """Amber's image probe: every texel of the rectangle (x, y, w, h) has the colour ``rgba``
    (0..1; three values leave alpha unchecked) within the tolerance (absolute, or a percentage
    of the expected value). Normalized and sRGB channels are scaled to 0..1 (sRGB decoded to
    linear); integer and float channels compare as they are. None, or why not."""
    x, y, w, h = rect
    t = buffer.type
    shape = buffer.image
    if shape is None and t.format is None:
        raise SpirvkitError(f"an image probe reads an IMAGE or a FORMAT buffer; {buffer.name} is a DATA_TYPE buffer")
    width, height = (shape.width, shape.height) if shape is not None else (buffer.elements, 1)
    if shape is not None and shape.dim == "3d":
        raise NotSupportedError(f"image probes of the 3D image {buffer.name}")
    if x + w > width or y + h > height or not w or not h:
        raise SpirvkitError(f"the probe's rectangle ({x}, {y}) + {w}x{h} leaves image {buffer.name} "
                            f"({width}x{height})")
    fmt = image_format(t)
    kind = fmt.rsplit("_", 1)[1]
    letters = [c for c in fmt.split("_")[0] if c.isalpha()]
    texels = buffer.data[: width * height * t.stride].view(t.dtype).reshape(height, width, t.components)
    values = texels[y:y + h, x:x + w].astype(np.float64)
    bits = t.dtype.itemsize * 8
    if kind in ("UNORM", "SRGB"):
        values = values / (2 ** bits - 1)
    elif kind == "SNORM":
        values = values / (2 ** (bits - 1) - 1)
    if kind == "SRGB":
        colour = [k for k, c in enumerate(letters) if c != "A"]
        part = values[..., colour]
        values[..., colour] = np.where(part <= 0.04045, part / 12.92, ((part + 0.055) / 1.055) ** 2.4)
    # As Amber: four tolerances are per channel, fewer mean the first for all.
    tol = [(DEFAULT_PROBE_TOLERANCE, False)] * 4 if not tolerance else \
        (tolerance if len(tolerance) == 4 else [tolerance[0]] * 4)
    bad = np.zeros(values.shape[:2], bool)
    for k, letter in enumerate(letters):
        channel = "RGBA".index(letter)
        if channel >= len(rgba):
            continue   # EQ_RGB: alpha unchecked
        limit, percent = tol[channel]
        allowed = abs(rgba[channel]) * limit / 100 if percent else limit
        bad |= np.abs(values[..., k] - rgba[channel]) > allowed
    if not bad.any():
        return None
    j, i = (int(v) for v in np.argwhere(bad)[0])
    got = {letter: values[j, i, k] for k, letter in enumerate(letters)}
    shown = ", ".join(f"{got.get(c, 1.0 if c == 'A' else 0.0) * 255:g}" for c in "RGBA"[:len(rgba)])
    want = ", ".join(f"{v * 255:g}" for v in rgba)
    return (f"{buffer.name} texel ({x + i}, {y + j}) is ({shown}) (0..255); expected ({want}); "
            f"{int(bad.sum())} of {w * h} texel(s) differ")
