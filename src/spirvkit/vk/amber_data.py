"""AmberScript buffer data: data types (``uint32``, ``vec3<float>``, formats such as
``R32G32_SFLOAT``), their std140/std430 layouts, and buffers as bytes laid out that way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import NotSupportedError, SpirvkitError

_SCALARS = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
            "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
            "float16": np.float16, "float": np.float32, "double": np.float64}
# A format's channels as stored: normalized and sRGB channels are their integers (Amber's DATA
# gives a R8G8B8A8_UNORM texel as 0..255 values).
_FORMAT_KINDS = {"SINT": "int", "UINT": "uint", "SFLOAT": "float", "UNORM": "uint", "SNORM": "int", "SRGB": "uint"}


@dataclass(frozen=True)
class DataType:
    """One element of a buffer: ``components`` scalars of ``dtype`` every ``stride`` bytes."""

    name: str
    dtype: np.dtype
    components: int
    stride: int
    format: str | None = None    # the Vulkan format name, for a FORMAT type (an image's texels)
    columns: int = 1             # a matrix type: its columns, each one element of ``components`` rows

    @property
    def is_float(self) -> bool:
        return self.dtype.kind == "f"

    def parse(self, token: str):
        """A literal of this type (ints accept 0x hex)."""
        try:
            if self.is_float:
                return float(token)
            return int(token, 0)
        except ValueError:
            raise SpirvkitError(f"{token!r} is not a {'number' if self.is_float else 'integer'}") from None


def data_type(name: str, layout: str = "std430") -> DataType:
    """``uint32``, ``vec4<float>`` ... in ``layout`` ('std430', 'std140' or 'packed' for
    FORMAT buffers)."""
    if re.fullmatch(r"(?:[RGBA]\d+)+_\w+", name):   # a format name as the data type
        return format_type(name)
    m = re.fullmatch(r"vec([234])<(\w+)>", name)
    matrix = re.fullmatch(r"mat([234])x([234])<(\w+)>", name)
    if m:
        count, scalar = int(m.group(1)), m.group(2)
    elif matrix:   # matCxR: C column vectors of R rows, laid out as an array of vecR
        column = data_type(f"vec{matrix.group(2)}<{matrix.group(3)}>", layout)
        return DataType(name, column.dtype, column.components, column.stride, columns=int(matrix.group(1)))
    elif name.startswith("mat"):
        raise NotSupportedError(f"matrix data type {name}")
    else:
        count, scalar = 1, name
    if scalar not in _SCALARS:
        raise SpirvkitError(f"unknown data type {name!r}")
    dtype = np.dtype(_SCALARS[scalar])
    size = dtype.itemsize
    if layout == "packed":
        stride = size * count
    else:
        stride = size * (4 if count == 3 else count)        # vec3 aligns as vec4
        if layout == "std140":
            stride = (stride + 15) // 16 * 16               # array elements round to 16 bytes
    return DataType(name, dtype, count, stride)


def format_type(fmt: str) -> DataType:
    """A Vulkan format name of equal-width channels (R32G32B32A32_SFLOAT, R8_UINT ...)."""
    m = re.fullmatch(r"((?:[RGBA]\d+)+)_(\w+)", fmt)
    if not m or m.group(2) not in _FORMAT_KINDS:
        raise NotSupportedError(f"buffer format {fmt}")
    widths = [int(w) for w in re.findall(r"\d+", m.group(1))]
    kind = _FORMAT_KINDS[m.group(2)]
    if len(set(widths)) != 1 or (kind == "float" and widths[0] not in (16, 32, 64)) or widths[0] not in (8, 16, 32, 64):
        raise NotSupportedError(f"buffer format {fmt}")
    scalar = {"float": {16: "float16", 32: "float", 64: "double"}[widths[0]] if kind == "float" else None,
              "int": f"int{widths[0]}", "uint": f"uint{widths[0]}"}[kind]
    name = scalar if len(widths) == 1 else f"vec{len(widths)}<{scalar}>"
    t = data_type(name, "packed")
    return DataType(t.name, t.dtype, t.components, t.stride, fmt)


def image_format(t: DataType) -> str:
    """The Vulkan format of an image whose texels are ``t`` (uint32 -> R32_UINT, vec4<float> ->
    R32G32B32A32_SFLOAT); a FORMAT type's own."""
    if t.format is not None:
        return t.format
    bits = t.dtype.itemsize * 8
    if t.stride != t.components * t.dtype.itemsize:
        raise NotSupportedError(f"an image of the padded data type {t.name}")
    kind = {"u": "UINT", "i": "SINT", "f": "SFLOAT"}[t.dtype.kind]
    return "".join(f"{c}{bits}" for c in "RGBA"[:t.components]) + "_" + kind


def amber_half(values: np.ndarray) -> np.ndarray:
    """float16 buffer values as Amber stores them: through float32, the mantissa truncated
    (float16_helper.cc's FloatToHexFloat16), not rounded to nearest. Scripts' expectations are
    computed from those inputs (the CTS's fp16 determinants differ by more than their tolerance
    otherwise). Amber's bit surgery is only meaningful for float16's normal range: zeros,
    subnormals, infinities, NaNs and overflows are converted exactly as IEEE rounds them."""
    with np.errstate(over="ignore"):     # beyond float16 (or float32): infinity, as IEEE has it
        single = values.astype(np.float32)
        half = single.astype(np.float16)
    bits = single.view(np.uint32)
    exponent = (bits >> 23) & 0xFF
    normal = (exponent >= 113) & (exponent <= 142)          # float16 exponents 1 .. 30
    truncated = ((bits >> 16) & 0x8000) | ((exponent - 112) << 10) & 0x7C00 | ((bits & 0x7FFFFF) >> 13)
    half[normal] = truncated[normal].astype(np.uint16).view(np.float16)
    return half


class Buffer:
    """An Amber buffer: bytes, read through its data type's layout."""

    def __init__(self, name: str, dtype: DataType, elements: int = 0):
        self.name, self.type = name, dtype
        try:
            self.data = np.zeros(elements * dtype.stride, np.uint8)
        except (MemoryError, ValueError):
            raise SpirvkitError(f"buffer {name}: {elements} elements of {dtype.stride} bytes do not fit in "
                                f"memory") from None
        self.image = None     # an IMAGE's shape (amber_images.ImageShape)

    @property
    def elements(self) -> int:
        return self.data.nbytes // self.type.stride

    def set_values(self, values: list) -> None:
        """Elements from a flat list of component values (padding stays zero)."""
        t = self.type
        count = -(-len(values) // t.components)
        self.data = np.zeros(count * t.stride, np.uint8)
        self.write(0, values)

    def write(self, first_element: int, values: list) -> None:
        if not len(values):     # (an empty DATA ... END: nothing to write)
            return
        t = self.type
        view = self._components()
        flat = np.array(values, dtype=np.float64 if t.is_float else object)
        n = len(values)
        target = view.reshape(-1)[first_element * t.components: first_element * t.components + n]
        if t.dtype == np.float16:
            target[:] = amber_half(flat)
        elif t.is_float:
            target[:] = flat.astype(t.dtype)
        else:
            bits = t.dtype.itemsize * 8
            target[:] = np.array([int(v) & ((1 << bits) - 1) for v in values], np.uint64).astype(
                np.dtype(f"u{t.dtype.itemsize}")).view(t.dtype)
        self._store(view)

    def values(self) -> np.ndarray:
        """The components of every element, in order (padding left out)."""
        return self._components().reshape(-1).copy()

    def _components(self) -> np.ndarray:
        t = self.type
        rows = self.elements
        raw = self.data[: rows * t.stride].reshape(rows, t.stride)
        return raw[:, : t.components * t.dtype.itemsize].copy().view(t.dtype).reshape(rows, t.components)

    def _store(self, comps: np.ndarray) -> None:
        t = self.type
        rows = self.elements
        raw = self.data[: rows * t.stride].reshape(rows, t.stride)
        raw[:, : t.components * t.dtype.itemsize] = comps.view(np.uint8).reshape(rows, -1)

    def values_at(self, byte_offset: int, count: int) -> np.ndarray:
        """``count`` component values from the element at ``byte_offset`` on."""
        t = self.type
        if byte_offset % t.stride:
            raise SpirvkitError(f"byte offset {byte_offset} of buffer {self.name} is not a multiple of its element "
                                f"size ({t.stride} bytes)")
        first = byte_offset // t.stride * t.components
        flat = self.values()
        if first + count > flat.size:
            raise SpirvkitError(f"reading {count} value(s) from byte {byte_offset} goes past the end of buffer "
                                f"{self.name} ({self.data.nbytes} bytes)")
        return flat[first: first + count]
