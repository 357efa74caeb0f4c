"""Images, image formats and samplers, over spirvkit's own ``spirvkit.Image`` /
``spirvkit.Sampler`` (runtime/images.py): an Image's memory is a numpy array in the layout
spirvkit.Image takes, which kernels read, sample and write in place; the image copy commands
are in memory.py."""

from __future__ import annotations

import numpy as np

from ..errors import KernelArgumentError
from .constants import (addressing_mode, channel_order, channel_type, filter_mode, image_info, mem_flags,
                        mem_object_type, sampler_info, status_code)
from .errors import LogicError, RuntimeError, info_attribute
from .memory import MemoryObject
from .platform import Context

def _rt():
    """spirvkit's image support (runtime/images.py), imported on first use: it loads the JIT's
    ABI, and ``import spirvkit.cl`` stays cheap."""
    from ..runtime import images
    return images


# mem_object_type -> spirvkit's image type, the spatial dimensions and whether it is an array
_TYPES = {
    mem_object_type.IMAGE1D: ("1d", 1, False), mem_object_type.IMAGE1D_BUFFER: ("1d_buffer", 1, False),
    mem_object_type.IMAGE1D_ARRAY: ("1d_array", 1, True), mem_object_type.IMAGE2D: ("2d", 2, False),
    mem_object_type.IMAGE2D_ARRAY: ("2d_array", 2, True), mem_object_type.IMAGE3D: ("3d", 3, False),
}

# What the device reports (device_info.IMAGE2D_MAX_WIDTH ...) and Image enforces.
MAX_2D, MAX_3D, MAX_ARRAY, MAX_BUFFER = 16384, 2048, 2048, 1 << 27


class ImageFormat:
    """``ImageFormat(channel_order, channel_type)``, with ``channel_count``, ``dtype_size``
    and ``itemsize`` (bytes per pixel)."""

    def __init__(self, channel_order: int = 0, channel_type: int = 0):
        self.channel_order = channel_order
        self.channel_type = channel_type

    @property
    def _names(self) -> tuple[str, str]:
        return (channel_order.to_string(self.channel_order, "<unknown {}>"),
                channel_type.to_string(self.channel_type, "<unknown {}>"))

    @property
    def channel_count(self) -> int:
        order = self._names[0]
        if order not in _rt().CHANNEL_ORDERS:
            raise LogicError(f"unrecognized channel order {self.channel_order:#x}", "ImageFormat.channel_count",
                             status_code.INVALID_VALUE)
        return len(_rt().CHANNEL_ORDERS[order])

    @property
    def dtype_size(self) -> int:
        ctype = self._names[1]
        if ctype not in _rt().CHANNEL_TYPES:
            raise LogicError(f"unrecognized channel type {self.channel_type:#x}", "ImageFormat.dtype_size",
                             status_code.INVALID_VALUE)
        return np.dtype(_rt().CHANNEL_TYPES[ctype][0]).itemsize

    @property
    def itemsize(self) -> int:
        if self._names[1] in _rt().CHANNEL_TYPES and _rt().CHANNEL_TYPES[self._names[1]][1]:
            return self.dtype_size    # packed: one word per pixel
        return self.channel_count * self.dtype_size

    def __eq__(self, other):
        return (isinstance(other, ImageFormat) and self.channel_order == other.channel_order
                and self.channel_type == other.channel_type)

    def __hash__(self):
        return hash((self.channel_order, self.channel_type))

    def __repr__(self):
        return "ImageFormat({}, {})".format(*self._names)


def get_supported_image_formats(context: Context, flags: int, image_type: int) -> list[ImageFormat]:
    if not isinstance(context, Context):
        raise LogicError("the first argument must be a Context", "clGetSupportedImageFormats",
                         status_code.INVALID_CONTEXT)
    if image_type not in _TYPES:
        raise LogicError(f"image type {image_type!r} is not an image type", "clGetSupportedImageFormats",
                         status_code.INVALID_VALUE)
    return [ImageFormat(getattr(channel_order, o), getattr(channel_type, t))
            for o, t in _rt().supported_image_formats(_TYPES[image_type][0])]


def _access(flags: int) -> str:
    if flags & mem_flags.READ_ONLY:
        return "read_only"
    return "write_only" if flags & mem_flags.WRITE_ONLY else "read_write"


class Image(MemoryObject):
    """``Image(context, flags, format, shape=None, pitches=None, hostbuf=None, is_array=False,
    buffer=None)``: ``shape`` in OpenCL's order (width, height, depth; an array's layer count
    last), pyopencl's rules for the image type; ``hostbuf`` with ``COPY_HOST_PTR`` (host
    ``pitches`` in bytes honoured) or ``USE_HOST_PTR`` (the image *is* the host array's memory;
    tightly packed rows only); ``buffer`` makes a 1D buffer image over a Buffer's memory."""

    def __init__(self, context: Context, flags: int, format: ImageFormat, shape=None, pitches=None, hostbuf=None,
                 is_array: bool = False, buffer=None, desc=None):
        from .memory import Buffer, check_mem_flags, host_bytes

        routine = "clCreateImage"
        if desc is not None:   # pyopencl's checks and messages (the last one is pyopencl's too)
            for given, what in ((shape is not None, "shape"), (pitches is not None, "pitches"),
                                (is_array, "is_array"), (buffer is not None, "is_array")):
                if given:
                    raise TypeError(f"{what} may not be passed when using descriptor")
            shape, pitches, is_array, buffer = desc._image_arguments(routine)
        if not isinstance(context, Context):
            raise LogicError("the first argument must be a Context", routine, status_code.INVALID_CONTEXT)
        if shape is None and hostbuf is None:
            raise LogicError("'shape' must be passed if 'hostbuf' is not given", "Image", status_code.INVALID_VALUE)
        if shape is None:
            shape = np.asarray(hostbuf).shape   # pyopencl's rule: the host array's shape, as it is
        if hostbuf is None and pitches is not None:
            raise LogicError("'pitches' may only be given if 'hostbuf' is given", "Image", status_code.INVALID_VALUE)
        if buffer is not None and is_array:
            raise ValueError("'buffer' and 'is_array' are mutually exclusive")
        shape = tuple(int(s) for s in shape)
        if not 1 <= len(shape) <= 3:
            raise ValueError("images cannot have more than three dimensions")
        if buffer is not None and len(shape) != 1:
            raise TypeError(f"'buffer' argument is not supported for {len(shape)}D arrays")
        if is_array and len(shape) == 1:
            raise TypeError("array of zero-dimensional images not supported")
        kind = {(1, False): mem_object_type.IMAGE1D, (2, False): mem_object_type.IMAGE2D,
                (3, False): mem_object_type.IMAGE3D, (2, True): mem_object_type.IMAGE1D_ARRAY,
                (3, True): mem_object_type.IMAGE2D_ARRAY}[len(shape), bool(is_array)]
        if buffer is not None:
            kind = mem_object_type.IMAGE1D_BUFFER
        flags = check_mem_flags(int(flags), routine, hostbuf)
        if not isinstance(format, ImageFormat):
            raise LogicError(f"format must be an ImageFormat, not {type(format).__name__}", routine,
                             status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR)
        order, ctype = format._names
        if order not in _rt().CHANNEL_ORDERS or ctype not in _rt().CHANNEL_TYPES:
            raise LogicError(f"{format!r} is not a valid image format", routine,
                             status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR)
        image_type, spatial, arrayed = _TYPES[kind]
        if (order, ctype) not in _rt().supported_image_formats(image_type):
            raise RuntimeError(f"{format!r} is not supported for {mem_object_type.to_string(kind)} images "
                               "(cl.get_supported_image_formats lists those that are)", routine,
                               status_code.IMAGE_FORMAT_NOT_SUPPORTED)
        self._check_size(shape, kind, routine)
        dtype, packed = _rt().CHANNEL_TYPES[ctype]
        channels = 1 if packed else len(_rt().CHANNEL_ORDERS[order])
        array_shape = shape[::-1] + ((channels,) if channels > 1 else ())
        pixel = format.itemsize
        row, slice_ = shape[0] * pixel, shape[0] * pixel * (shape[1] if len(shape) > 1 else 1)
        nbytes = row * int(np.prod(shape[1:], dtype=np.int64))
        if hostbuf is not None and buffer is not None:
            raise LogicError("a 1D buffer image takes its memory from the buffer, not from a hostbuf", routine,
                             status_code.INVALID_HOST_PTR)

        if buffer is not None:
            if not isinstance(buffer, Buffer):
                raise LogicError("'buffer' must be a Buffer", routine, status_code.INVALID_MEM_OBJECT)
            if nbytes > buffer.size:
                raise LogicError(f"a {shape[0]}-pixel {format!r} image needs {nbytes} bytes; the buffer has "
                                 f"{buffer.size}", routine, status_code.INVALID_IMAGE_SIZE)
            texels = buffer._data[:nbytes].view(dtype).reshape(array_shape)
        elif flags & mem_flags.USE_HOST_PTR:
            host = host_bytes(hostbuf, routine, writable=True)
            pitches = _host_pitches(pitches, shape, row, slice_, routine)
            if pitches != (row, slice_)[:len(pitches)]:
                raise LogicError("not supported yet: USE_HOST_PTR images whose host rows or slices are padded "
                                 "(use COPY_HOST_PTR)", routine, status_code.INVALID_VALUE)
            if host.nbytes < nbytes:
                raise LogicError(f"the host buffer has {host.nbytes} bytes; the image needs {nbytes}", routine,
                                 status_code.INVALID_HOST_PTR)
            if host.ctypes.data % np.dtype(dtype).itemsize:
                raise LogicError("the host buffer is not aligned to the channel type", routine,
                                 status_code.INVALID_HOST_PTR)
            texels = host[:nbytes].view(dtype).reshape(array_shape)
        else:
            from .memory import aligned_bytes, rect_view

            memory = aligned_bytes(nbytes, routine)
            if hostbuf is not None:
                host = host_bytes(hostbuf, routine)
                hp = _host_pitches(pitches, shape, row, slice_, routine)
                region = (row,) + shape[1:] + (1,) * (3 - len(shape))
                memory.reshape(region[::-1])[...] = rect_view(host, (0, 0, 0), region, hp, routine, "the host data")
            texels = memory.view(dtype).reshape(array_shape)
        try:
            self._native = _rt().Image(texels, order, ctype, image_type, access=_access(flags))
        except KernelArgumentError as exc:   # the checks above make this one unreachable in practice
            raise LogicError(str(exc), routine, status_code.INVALID_IMAGE_DESCRIPTOR) from exc
        self.context = context
        self.flags = flags
        self.type = kind
        self.format = format
        self.size = nbytes
        self.offset = 0
        self.reference_count = 1
        self.map_count = 0
        self.buffer = buffer
        self.hostbuf = hostbuf if flags & mem_flags.USE_HOST_PTR else None
        self._dims = shape
        self._pixel = pixel

    @staticmethod
    def _check_size(shape: tuple, kind: int, routine: str) -> None:
        limits = {mem_object_type.IMAGE1D: (MAX_2D,), mem_object_type.IMAGE1D_BUFFER: (MAX_BUFFER,),
                  mem_object_type.IMAGE1D_ARRAY: (MAX_2D, MAX_ARRAY), mem_object_type.IMAGE2D: (MAX_2D, MAX_2D),
                  mem_object_type.IMAGE2D_ARRAY: (MAX_2D, MAX_2D, MAX_ARRAY),
                  mem_object_type.IMAGE3D: (MAX_3D, MAX_3D, MAX_3D)}[kind]
        if any(s < 1 or s > m for s, m in zip(shape, limits)):
            raise LogicError(f"image size {shape}: each dimension is 1 to {limits} here", routine,
                             status_code.INVALID_IMAGE_SIZE)

    # -- what pyopencl's Image tells ----------------------------------------------------------

    @property
    def width(self) -> int:
        return self._dims[0]

    @property
    def height(self) -> int:
        return self._dims[1] if self.type in (mem_object_type.IMAGE2D, mem_object_type.IMAGE2D_ARRAY,
                                              mem_object_type.IMAGE3D) else 0

    @property
    def depth(self) -> int:
        return self._dims[2] if self.type == mem_object_type.IMAGE3D else 0

    @property
    def array_size(self) -> int:
        return self._dims[-1] if self.type in (mem_object_type.IMAGE1D_ARRAY, mem_object_type.IMAGE2D_ARRAY) else 0

    @property
    def element_size(self) -> int:
        return self._pixel

    @property
    def row_pitch(self) -> int:
        return self._dims[0] * self._pixel

    @property
    def slice_pitch(self) -> int:
        if self.type in (mem_object_type.IMAGE1D, mem_object_type.IMAGE1D_BUFFER, mem_object_type.IMAGE2D):
            return 0
        return self.row_pitch * (self._dims[1] if self.type != mem_object_type.IMAGE1D_ARRAY else 1)

    num_mip_levels = 0
    num_samples = 0

    @property
    def shape(self) -> tuple:
        if self.type == mem_object_type.IMAGE2D:
            return (self.width, self.height)
        if self.type == mem_object_type.IMAGE3D:
            return (self.width, self.height, self.depth)
        raise LogicError("only images have shapes", "Image.shape", status_code.INVALID_VALUE)

    @property
    def host_ptr(self):
        return self._native.data.ctypes.data if self.flags & mem_flags.USE_HOST_PTR else None

    @property
    def int_ptr(self) -> int:
        return self._native.data.ctypes.data

    def get_image_info(self, param: int):
        return info_attribute(image_info, self, param, "clGetImageInfo")

    # -- the texels as bytes, for the copy commands ---------------------------------------------

    def _layout(self) -> tuple[tuple, tuple]:
        """The image's extent in pixels as (x, y, z) -- a 1D array's layers are its y, a 2D
        array's its z, as in OpenCL's origin and region -- and its (row, slice) pitches in bytes."""
        dims = self._dims + (1,) * (3 - len(self._dims))
        return dims, (dims[0] * self._pixel, dims[0] * dims[1] * self._pixel)

    def _bytes(self) -> np.ndarray:
        return self._native.data.reshape(-1).view(np.uint8)

    def __repr__(self):
        return f"<pyopencl.Image {mem_object_type.to_string(self.type)} {self._dims} {self.format!r}>"


def _host_pitches(pitches, shape, row: int, slice_: int, routine: str) -> tuple:
    """The host array's (row, slice) pitches in bytes: given, or those of tightly packed pixels."""
    given = tuple(int(p) for p in (pitches or ()))
    if len(given) > 2:
        raise LogicError(f"pitches {pitches}: at most (row_pitch, slice_pitch)", routine, status_code.INVALID_VALUE)
    given += (0,) * (2 - len(given))
    rp = given[0] or row
    sp = given[1] or rp * (shape[1] if len(shape) > 2 else 1)
    if rp < row or (len(shape) > 2 and sp < rp * shape[1]):
        raise LogicError(f"pitches ({rp}, {sp}) are smaller than a row ({row} bytes) or a slice", routine,
                         status_code.INVALID_VALUE)
    return (rp, sp) if len(shape) > 2 else (rp,)


class ImageDescriptor:
    """pyopencl's ``ImageDescriptor`` (cl_image_desc): set ``image_type``, ``shape`` (which,
    as in pyopencl, also sets ``array_size`` to its third number), ``array_size``, ``pitches``
    (row, slice) for a hostbuf, ``buffer`` for a 1D buffer image; pass it as ``Image(ctx,
    flags, format, desc=desc, hostbuf=...)``. Mipmaps and multisampling are not in OpenCL C
    here: ``num_mip_levels`` and ``num_samples`` must stay 0."""

    def __init__(self):
        self.image_type = 0
        self.image_width = self.image_height = self.image_depth = 0
        self.array_size = 0
        self.image_row_pitch = self.image_slice_pitch = 0
        self.num_mip_levels = self.num_samples = 0
        self.buffer = None

    @property
    def shape(self):
        raise AttributeError("ImageDescriptor.shape can be set, not read (as in pyopencl)")

    @shape.setter
    def shape(self, value) -> None:
        dims = tuple(int(v) for v in value)
        if not 1 <= len(dims) <= 3:
            raise ValueError("shape: 1 to 3 numbers")
        dims += (1,) * (3 - len(dims))
        self.image_width, self.image_height, self.image_depth = dims
        self.array_size = dims[2]

    @property
    def pitches(self):
        raise AttributeError("ImageDescriptor.pitches can be set, not read (as in pyopencl)")

    @pitches.setter
    def pitches(self, value) -> None:
        given = tuple(int(v) for v in value) + (0, 0)
        self.image_row_pitch, self.image_slice_pitch = given[:2]

    def _image_arguments(self, routine: str):
        """(shape, pitches, is_array, buffer) for Image, as clCreateImage reads the descriptor."""
        kind = self.image_type
        if kind not in _TYPES:
            raise LogicError(f"image_type {kind!r} is not an image type", routine, status_code.INVALID_VALUE)
        if self.num_mip_levels or self.num_samples:
            raise LogicError("num_mip_levels and num_samples must be 0", routine,
                             status_code.INVALID_IMAGE_DESCRIPTOR)
        w, h, d, n = self.image_width, self.image_height, self.image_depth, self.array_size
        mt = mem_object_type
        shape = {mt.IMAGE1D: (w,), mt.IMAGE1D_BUFFER: (w,), mt.IMAGE1D_ARRAY: (w, n), mt.IMAGE2D: (w, h),
                 mt.IMAGE2D_ARRAY: (w, h, n), mt.IMAGE3D: (w, h, d)}[kind]
        if min(shape) < 1:
            raise LogicError(f"image size {shape}: each dimension must be at least 1", routine,
                             status_code.INVALID_IMAGE_SIZE)
        pitches = tuple(p for p in (self.image_row_pitch, self.image_slice_pitch)) if self.image_row_pitch \
            or self.image_slice_pitch else None
        if kind == mt.IMAGE1D_BUFFER and self.buffer is None:
            raise LogicError("a 1D buffer image needs desc.buffer", routine, status_code.INVALID_IMAGE_DESCRIPTOR)
        if kind != mt.IMAGE1D_BUFFER and self.buffer is not None:
            raise LogicError("desc.buffer is for 1D buffer images", routine, status_code.INVALID_IMAGE_DESCRIPTOR)
        return shape, pitches, kind in (mt.IMAGE1D_ARRAY, mt.IMAGE2D_ARRAY), self.buffer


# The fill color's type by channel type: write_imagef / write_imagei / write_imageui's.
_SIGNED = {"SIGNED_INT8", "SIGNED_INT16", "SIGNED_INT32"}
_UNSIGNED = {"UNSIGNED_INT8", "UNSIGNED_INT16", "UNSIGNED_INT32"}
_FILL_KERNELS: dict = {}


_NORMALISED = {"UNORM_INT8": 255.0, "UNORM_INT16": 65535.0, "SNORM_INT8": 127.0, "SNORM_INT16": 32767.0}


def _fill_pixel(image: Image, color, routine: str) -> np.ndarray:
    """The bytes of one pixel of ``image``'s format holding ``color`` (four floats, ints or
    uints by the channel type, as clEnqueueFillImage reads them): written by a one-work-item
    write_image kernel, so the conversion is the device's own (OpenCL C §8.3) — except for the
    8- and 16-bit normalised types in linear orders, which PoCL's fill converts on the host by
    truncation (0.5 gives (uchar)127, where write_imagef's round-to-nearest-even gives 128):
    spirvkit.cl does the same, so that filled images hold what they hold on PoCL."""
    from .memory import host_bytes
    from .. import api
    from ..clc.compiler import compile_cl

    order, ctype = image.format._names
    suffix, dtype = ("i", np.int32) if ctype in _SIGNED else ("ui", np.uint32) if ctype in _UNSIGNED \
        else ("f", np.float32)
    raw = host_bytes(color, routine)
    if raw.nbytes < 16:
        raise LogicError(f"the fill color has {raw.nbytes} bytes; it is four 32-bit values", routine,
                         status_code.INVALID_VALUE)
    value = raw[:16].copy().view(dtype)
    if suffix not in _FILL_KERNELS:
        vec = {"f": "float4", "i": "int4", "ui": "uint4"}[suffix]
        source = (f"kernel void fill(write_only image1d_t img, {vec} color) {{ write_image{suffix}(img, 0, color); }}")
        _FILL_KERNELS[suffix] = api.Program(compile_cl(source, filename="<fill_image>")).kernel("fill")
    tdtype, packed = _rt().CHANNEL_TYPES[ctype]
    channels = 1 if packed else len(_rt().CHANNEL_ORDERS[order])
    if ctype in _NORMALISED and not order.startswith("s"):
        info = np.iinfo(tdtype)
        _, write = _rt().channel_maps(order)
        with np.errstate(invalid="ignore"):
            scaled = np.nan_to_num(np.trunc(value.astype(np.float64) * _NORMALISED[ctype]))
        parts = [0 if w == 4 else int(min(max(scaled[w], info.min), info.max)) for w in write[:channels]]
        return np.array(parts, tdtype).view(np.uint8)
    texel = np.zeros((1, channels) if channels > 1 else (1,), tdtype)
    _FILL_KERNELS[suffix](1, None, _rt().Image(texel, order, ctype, "1d", access="write_only"), value)
    return texel.reshape(-1).view(np.uint8)


def enqueue_fill_image(queue, mem: Image, color, origin, region, wait_for=None):
    """Fill a region (origin and region in pixels) with ``color``: a numpy array of four
    float32 for float, half and normalised formats, four int32 or uint32 for the integer ones,
    converted to the image's format and channel order as write_image does."""
    from .memory import _image_bytes, _image_region
    from .queue import run_command
    from .constants import command_type

    routine = "clEnqueueFillImage"
    if not isinstance(mem, Image):
        raise LogicError("expected an Image", routine, status_code.INVALID_MEM_OBJECT)
    o, r, p = _image_region(mem, origin, region, routine, "the fill region")
    target = _image_bytes(mem, o, r, p, routine, "the fill region")
    pixel = _fill_pixel(mem, color, routine)
    return run_command(queue, command_type.FILL_IMAGE, routine, wait_for,
                       lambda: target.__setitem__(Ellipsis, np.tile(pixel, r[0])))


def enqueue_map_image(queue, img: Image, flags: int, origin, region, shape, dtype, order="C", strides=None,
                      wait_for=None, is_blocking=True):
    """``(array, event, row_pitch, slice_pitch)``: ``array`` (``shape``, ``dtype``, ``strides``
    as given, as pyopencl builds it) views the image's own memory from the region's first
    pixel; the pitches are the image's (slice pitch 0 for 1D and 2D images). Unmap with
    ``array.base.release(queue)``. Unlike pyopencl, an array reaching past the image is refused
    (INVALID_VALUE)."""
    from .memory import _image_region, _memory_map_type
    from .queue import run_command
    from .constants import command_type

    routine = "clEnqueueMapImage"
    if not isinstance(img, Image):
        raise LogicError("expected an Image", routine, status_code.INVALID_MEM_OBJECT)
    o, _, (row, slice_) = _image_region(img, origin, region, routine, "the mapped region")
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(v) for v in shape)
    dtype = np.dtype(dtype)
    start = o[0] * img._pixel + o[1] * row + o[2] * slice_
    if strides is None:
        extent = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    else:
        strides = tuple(int(v) for v in strides)
        if len(strides) != len(shape) or min(strides, default=0) < 0:
            raise LogicError(f"strides {strides} do not fit shape {shape}", routine, status_code.INVALID_VALUE)
        extent = dtype.itemsize + sum((n - 1) * st for n, st in zip(shape, strides)) if min(shape, default=1) else 0
    memory = img._bytes()
    if extent <= 0 or start + extent > memory.nbytes:
        raise LogicError(f"an array of shape {shape} ({dtype}) from byte {start} reaches past the image's "
                         f"{memory.nbytes} bytes", routine, status_code.INVALID_VALUE)
    mapping = _memory_map_type(extent).from_buffer(memory, start)
    mapping._spirvkit_buffer, mapping._spirvkit_queue, mapping._spirvkit_released = img, queue, False
    array = np.ndarray(shape, dtype, buffer=mapping, order=order, strides=strides)
    event = run_command(queue, command_type.MAP_IMAGE, routine, wait_for, blocking=is_blocking)
    img.map_count += 1
    return array, event, img.row_pitch, img.slice_pitch


def create_image(context: Context, flags: int, format: ImageFormat, shape=None, pitches=None, hostbuf=None,
                 is_array: bool = False, buffer=None) -> Image:
    """pyopencl's ``create_image``: the same as ``Image(...)``."""
    return Image(context, flags, format, shape, pitches, hostbuf, is_array, buffer)


# dtype -> channel type, as pyopencl's image_from_array picks them
DTYPE_TO_CHANNEL_TYPE = {
    np.dtype(np.float32): channel_type.FLOAT, np.dtype(np.float16): channel_type.HALF_FLOAT,
    np.dtype(np.int8): channel_type.SIGNED_INT8, np.dtype(np.int16): channel_type.SIGNED_INT16,
    np.dtype(np.int32): channel_type.SIGNED_INT32, np.dtype(np.uint8): channel_type.UNSIGNED_INT8,
    np.dtype(np.uint16): channel_type.UNSIGNED_INT16, np.dtype(np.uint32): channel_type.UNSIGNED_INT32,
}
DTYPE_TO_CHANNEL_TYPE_NORM = {
    np.dtype(np.int8): channel_type.SNORM_INT8, np.dtype(np.int16): channel_type.SNORM_INT16,
    np.dtype(np.uint8): channel_type.UNORM_INT8, np.dtype(np.uint16): channel_type.UNORM_INT16,
}


def image_from_array(ctx: Context, ary: np.ndarray, num_channels: int | None = None, mode: str = "r",
                     norm_int: bool = False) -> Image:
    """A read-only (``mode="r"``) or write-only (``"w"``) image holding a copy of ``ary``:
    shape reversed into OpenCL's order, channels from ``num_channels`` (the last axis) or from
    a ``cltypes`` vector dtype, R/RG/RGB/RGBA order, channel type from the dtype (normalised
    integer types with ``norm_int``)."""
    from . import cltypes

    if not ary.flags.c_contiguous:
        raise ValueError("array must be C-contiguous")
    dtype = ary.dtype
    if num_channels is None:
        dtype, num_channels = cltypes.vec_type_to_scalar_and_count.get(dtype, (dtype, 1))
        shape, strides = ary.shape, ary.strides
    elif num_channels == 1:
        shape, strides = ary.shape, ary.strides
    else:
        if ary.shape[-1] != num_channels:
            raise RuntimeError("last dimension must be equal to number of channels", "image_from_array",
                               status_code.INVALID_VALUE)
        shape, strides = ary.shape[:-1], ary.strides[:-1]
    if mode == "r":
        flags = mem_flags.READ_ONLY
    elif mode == "w":
        flags = mem_flags.WRITE_ONLY
    else:
        raise ValueError(f"invalid value '{mode}' for 'mode'")
    order = {1: channel_order.R, 2: channel_order.RG, 3: channel_order.RGB, 4: channel_order.RGBA}.get(num_channels)
    table = DTYPE_TO_CHANNEL_TYPE_NORM if norm_int else DTYPE_TO_CHANNEL_TYPE
    if order is None or np.dtype(dtype) not in table:   # pyopencl: a KeyError from its tables
        raise KeyError(f"image_from_array: no image format for {num_channels} channels of {np.dtype(dtype)}"
                       f"{' (normalised)' if norm_int else ''}")
    return Image(ctx, flags | mem_flags.COPY_HOST_PTR, ImageFormat(order, table[np.dtype(dtype)]),
                 shape=shape[::-1], pitches=strides[::-1][1:], hostbuf=ary)


class Sampler:
    """``Sampler(context, normalized_coords, addressing_mode, filter_mode)`` or
    ``Sampler(context, properties)`` (a list of ``sampler_info`` key / value pairs, flattened)."""

    def __init__(self, context: Context, *args):
        routine = "clCreateSampler"
        if not isinstance(context, Context):
            raise LogicError("the first argument must be a Context", routine, status_code.INVALID_CONTEXT)
        if len(args) == 3:
            normalized, addressing, filtering = args
        elif len(args) == 1:
            props = list(args[0])
            if len(props) % 2:
                raise LogicError("sampler properties come in key, value pairs", routine, status_code.INVALID_VALUE)
            given = dict(zip(props[::2], props[1::2]))
            unknown = set(given) - {sampler_info.NORMALIZED_COORDS, sampler_info.ADDRESSING_MODE,
                                    sampler_info.FILTER_MODE}
            if unknown:
                raise LogicError(f"unknown sampler properties {sorted(unknown)}", routine, status_code.INVALID_VALUE)
            normalized = given.get(sampler_info.NORMALIZED_COORDS, True)
            addressing = given.get(sampler_info.ADDRESSING_MODE, addressing_mode.CLAMP)
            filtering = given.get(sampler_info.FILTER_MODE, filter_mode.NEAREST)
        else:
            raise TypeError("Sampler(context, normalized_coords, addressing_mode, filter_mode) or "
                            "Sampler(context, properties)")
        a_name = addressing_mode.to_string(addressing, "") if isinstance(addressing, (int, np.integer)) else ""
        f_name = filter_mode.to_string(filtering, "") if isinstance(filtering, (int, np.integer)) else ""
        if not a_name or not f_name:
            raise LogicError(f"addressing mode {addressing!r} or filter mode {filtering!r} is not a constant of "
                             "cl.addressing_mode / cl.filter_mode", routine, status_code.INVALID_VALUE)
        self.context = context
        self.normalized_coords = int(bool(normalized))   # get_info gives a cl_bool
        self.addressing_mode = int(addressing)
        self.filter_mode = int(filtering)
        self.reference_count = 1
        self._native = _rt().Sampler(bool(normalized), a_name, f_name)

    def get_info(self, param: int):
        return info_attribute(sampler_info, self, param, "clGetSamplerInfo")

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return (f"<pyopencl.Sampler normalized={self.normalized_coords} "
                f"{addressing_mode.to_string(self.addressing_mode)} {filter_mode.to_string(self.filter_mode)}>")


__all__ = ["Image", "ImageDescriptor", "ImageFormat", "Sampler", "create_image", "enqueue_fill_image",
           "enqueue_map_image", "get_supported_image_formats", "image_from_array"]
