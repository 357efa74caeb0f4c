"""Buffers (real device memory: numpy byte arrays the kernels read and write in place) and the
copy and fill commands."""

from __future__ import annotations

import builtins
import ctypes

import numpy as np

from .constants import command_type, mem_flags, mem_info, mem_object_type, status_code
from .errors import LogicError, MemoryError, RuntimeError, info_attribute
from .platform import Context
from .queue import CommandQueue, run_command

_ALIGN = 128    # CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes
_ACCESS = mem_flags.READ_WRITE | mem_flags.WRITE_ONLY | mem_flags.READ_ONLY
_HOST_ACCESS = mem_flags.HOST_WRITE_ONLY | mem_flags.HOST_READ_ONLY | mem_flags.HOST_NO_ACCESS
_KNOWN = _ACCESS | _HOST_ACCESS | mem_flags.USE_HOST_PTR | mem_flags.ALLOC_HOST_PTR | mem_flags.COPY_HOST_PTR


def host_bytes(obj, routine: str, writable: bool = False) -> np.ndarray:
    """The bytes of a host object supporting the buffer protocol, as a uint8 view (no copy)."""
    try:
        view = memoryview(obj)
    except TypeError:
        raise LogicError(f"{type(obj).__name__} does not support the buffer protocol", routine,
                         status_code.INVALID_VALUE) from None
    if not view.contiguous:
        raise LogicError("the host buffer is not contiguous", routine, status_code.INVALID_VALUE)
    if writable and view.readonly:
        raise LogicError("the host buffer is read-only", routine, status_code.INVALID_VALUE)
    return np.frombuffer(view.cast("B") if view.ndim != 1 or view.format != "B" else view, np.uint8)


def aligned_bytes(nbytes: int, routine: str = "create_buffer") -> np.ndarray:
    """Fresh zeroed device memory, aligned as the device says (mem_base_addr_align)."""
    try:
        raw = np.zeros(nbytes + _ALIGN, np.uint8)
    except (ValueError, builtins.MemoryError):
        raise MemoryError(f"cannot allocate {nbytes} bytes", routine,
                          status_code.MEM_OBJECT_ALLOCATION_FAILURE) from None
    skip = -raw.ctypes.data % _ALIGN
    return raw[skip:skip + nbytes]


def check_mem_flags(flags: int, routine: str, hostbuf=None) -> int:
    """A valid combination of ``mem_flags``, with a ``hostbuf`` exactly when they use one."""
    if flags & ~_KNOWN or bin(flags & _ACCESS).count("1") > 1 or bin(flags & _HOST_ACCESS).count("1") > 1 \
            or (flags & mem_flags.USE_HOST_PTR and flags & (mem_flags.COPY_HOST_PTR | mem_flags.ALLOC_HOST_PTR)):
        raise LogicError(f"invalid mem_flags combination {flags:#x}", routine, status_code.INVALID_VALUE)
    uses_host = flags & (mem_flags.USE_HOST_PTR | mem_flags.COPY_HOST_PTR)
    if hostbuf is not None and not uses_host:
        raise LogicError("'hostbuf' was passed, but no memory flags to make use of it", routine,
                         status_code.INVALID_HOST_PTR)
    if uses_host and hostbuf is None:
        raise LogicError("USE_HOST_PTR / COPY_HOST_PTR need a hostbuf", routine, status_code.INVALID_HOST_PTR)
    return flags


class MemoryObject:
    """What Buffer and Image share (pyopencl's ``MemoryObject`` / ``MemoryObjectHolder``)."""

    def get_info(self, param: int):
        return info_attribute(mem_info, self, param, "clGetMemObjectInfo")

    def release(self) -> None:
        """Freed when unreferenced."""


MemoryObjectHolder = MemoryObject


class Buffer(MemoryObject):
    """``Buffer(context, flags, size=0, hostbuf=None)``: ``COPY_HOST_PTR`` copies ``hostbuf``,
    ``USE_HOST_PTR`` makes the buffer *be* ``hostbuf``'s memory (kernels write the host array),
    otherwise fresh zeroed memory."""

    def __init__(self, context: Context, flags: int, size: int = 0, hostbuf=None):
        routine = "create_buffer"
        if not isinstance(context, Context):
            raise LogicError("the first argument must be a Context", routine, status_code.INVALID_CONTEXT)
        flags = check_mem_flags(int(flags), routine, hostbuf)
        size = int(size)
        host = None
        if hostbuf is not None:
            host = host_bytes(hostbuf, routine, writable=bool(flags & mem_flags.USE_HOST_PTR))
            if size == 0:
                size = host.nbytes
            elif size > host.nbytes:
                raise LogicError("specified size is greater than host buffer size", "Buffer",
                                 status_code.INVALID_VALUE)
        if size <= 0:
            raise LogicError(f"buffer size must be positive, got {size}", routine, status_code.INVALID_BUFFER_SIZE)
        if flags & mem_flags.USE_HOST_PTR:
            self._data = host[:size]
            self.hostbuf = hostbuf
        else:
            self._data = aligned_bytes(size)
            if host is not None:
                self._data[:] = host[:size]
            self.hostbuf = None
        self.context = context
        self.flags = flags
        self.size = size
        self.offset = 0
        self.associated_memobject = None   # the parent, for a sub-buffer
        self.type = mem_object_type.BUFFER
        self.reference_count = 1
        self.map_count = 0

    def get_sub_region(self, origin: int, size: int, flags: int = 0) -> Buffer:
        """A sub-buffer (clCreateSubBuffer, CL_BUFFER_CREATE_TYPE_REGION): ``size`` bytes of this
        buffer's memory from ``origin``, itself (kernels and copies through it change this
        buffer). ``origin`` must be a multiple of the device's mem_base_addr_align (128 bytes);
        access and host-access flags left out are inherited, narrower ones must be compatible,
        the host-pointer flags are inherited and cannot be given."""
        routine = "clCreateSubBuffer"
        if self.associated_memobject is not None:
            raise LogicError("a sub-buffer cannot be divided again", routine, status_code.INVALID_MEM_OBJECT)
        flags, origin, size = int(flags), int(origin), int(size)
        host_ptr = mem_flags.USE_HOST_PTR | mem_flags.ALLOC_HOST_PTR | mem_flags.COPY_HOST_PTR
        if flags & ~_KNOWN or flags & host_ptr or bin(flags & _ACCESS).count("1") > 1 \
                or bin(flags & _HOST_ACCESS).count("1") > 1:
            raise LogicError(f"invalid sub-buffer flags {flags:#x}", routine, status_code.INVALID_VALUE)
        access, host = flags & _ACCESS or self.flags & _ACCESS, flags & _HOST_ACCESS or self.flags & _HOST_ACCESS
        refused = {mem_flags.WRITE_ONLY: mem_flags.READ_WRITE | mem_flags.READ_ONLY,
                   mem_flags.READ_ONLY: mem_flags.READ_WRITE | mem_flags.WRITE_ONLY,
                   mem_flags.HOST_WRITE_ONLY: mem_flags.HOST_READ_ONLY,
                   mem_flags.HOST_READ_ONLY: mem_flags.HOST_WRITE_ONLY,
                   mem_flags.HOST_NO_ACCESS: mem_flags.HOST_READ_ONLY | mem_flags.HOST_WRITE_ONLY}
        if refused.get(self.flags & _ACCESS, 0) & access or refused.get(self.flags & _HOST_ACCESS, 0) & host:
            raise LogicError(f"sub-buffer flags {flags:#x} allow what the buffer's {self.flags:#x} do not", routine,
                             status_code.INVALID_VALUE)
        if size == 0:
            raise LogicError("a sub-buffer of 0 bytes", routine, status_code.INVALID_BUFFER_SIZE)
        if origin < 0 or size < 0 or origin + size > self.size:
            raise LogicError(f"bytes {origin}..{origin + size} lie outside the {self.size}-byte buffer", routine,
                             status_code.INVALID_VALUE)
        if origin % _ALIGN:
            raise RuntimeError(f"origin {origin} is not a multiple of the device's {_ALIGN}-byte "
                               "mem_base_addr_align", routine, status_code.MISALIGNED_SUB_BUFFER_OFFSET)
        sub = Buffer.__new__(Buffer)
        sub._data = self._data[origin:origin + size]
        sub.hostbuf = self.hostbuf
        sub.context, sub.size, sub.offset, sub.associated_memobject = self.context, size, origin, self
        sub.flags = access | host | self.flags & host_ptr
        sub.type, sub.reference_count, sub.map_count = mem_object_type.BUFFER, 1, 0
        return sub

    def __getitem__(self, index) -> Buffer:
        """``buf[start:stop]``: ``get_sub_region(start, stop - start)`` with this buffer's flags
        but COPY_HOST_PTR (as pyopencl does: a USE_HOST_PTR buffer therefore cannot be sliced)."""
        routine = "Buffer.__getitem__"
        if not isinstance(index, slice):
            raise LogicError("Buffer slice must be a slice object", routine, status_code.INVALID_VALUE)
        start, stop, step = index.indices(self.size)
        if step != 1:
            raise LogicError("Buffer slice must have stride 1", routine, status_code.INVALID_VALUE)
        if stop <= start:
            raise LogicError("Buffer slice have end > start", routine, status_code.INVALID_VALUE)
        return self.get_sub_region(start, stop - start, self.flags & ~mem_flags.COPY_HOST_PTR)

    @property
    def host_ptr(self):
        return self._data.ctypes.data if self.flags & mem_flags.USE_HOST_PTR else None

    @property
    def int_ptr(self) -> int:
        return self._data.ctypes.data

    def __repr__(self):
        return f"<pyopencl.Buffer {self.size} bytes>"


def _range(buf: Buffer, offset: int, nbytes: int, routine: str, what: str) -> np.ndarray:
    if offset < 0 or nbytes < 0 or offset + nbytes > buf.size:
        raise LogicError(f"{what}: bytes {offset}..{offset + nbytes} lie outside the {buf.size}-byte buffer",
                         routine, status_code.INVALID_VALUE)
    return buf._data[offset:offset + nbytes]


def enqueue_copy(queue: CommandQueue, dest, src, **kwargs):
    """pyopencl's ``enqueue_copy``, by the kinds of ``dest`` and ``src``:

    - host -> buffer (``dst_offset=0``, or the older ``device_offset``), buffer -> host
      (``src_offset=0``), rectangular with ``buffer_origin``, ``host_origin``, ``region``
      (bytes, rows, slices), ``buffer_pitches``, ``host_pitches``;
    - buffer -> buffer (``byte_count``, ``src_offset``, ``dst_offset``), rectangular with
      ``src_origin``, ``dst_origin``, ``region``, ``src_pitches``, ``dst_pitches``;
    - host <-> image (``origin``, ``region`` in pixels, ``pitches`` of the host array in bytes),
      buffer -> image (``offset``, ``origin``, ``region``), image -> buffer (``origin``,
      ``region``, ``offset``), image -> image (``src_origin``, ``dest_origin``, ``region``);

    ``wait_for`` for each, ``is_blocking`` (default True) for those with host memory on one
    side. Returns the Event."""
    from .images import Image

    wait_for = kwargs.pop("wait_for", None)
    blocking = bool(kwargs.pop("is_blocking", True))
    if isinstance(dest, Image) or isinstance(src, Image):
        return _copy_image(queue, dest, src, wait_for, blocking, kwargs)
    if isinstance(src, Buffer) and isinstance(dest, Buffer):
        if "src_origin" in kwargs or "region" in kwargs:
            return _copy_rect(queue, dest, src, wait_for, blocking, **kwargs)
        return _copy_buffer(queue, dest, src, wait_for, **kwargs)
    if isinstance(dest, Buffer) or isinstance(src, Buffer):
        if "buffer_origin" in kwargs or "region" in kwargs:
            return _copy_rect(queue, dest, src, wait_for, blocking, **kwargs)
    if isinstance(dest, Buffer):
        routine = "clEnqueueWriteBuffer"
        offset = _offset(kwargs, "dst_offset")
        _no_more(kwargs, routine)
        host = host_bytes(src, routine)
        target = _range(dest, offset, host.nbytes, routine, "the host data")
        return run_command(queue, command_type.WRITE_BUFFER, routine, wait_for,
                           lambda: target.__setitem__(slice(None), host), blocking)
    if isinstance(src, Buffer):
        routine = "clEnqueueReadBuffer"
        offset = _offset(kwargs, "src_offset")
        _no_more(kwargs, routine)
        host = host_bytes(dest, routine, writable=True)
        source = _range(src, offset, host.nbytes, routine, "the host array")
        return run_command(queue, command_type.READ_BUFFER, routine, wait_for,
                           lambda: host.__setitem__(slice(None), source), blocking)
    raise LogicError(f"enqueue_copy between {type(dest).__name__} and {type(src).__name__}: one side must be a "
                     f"Buffer or an Image", "enqueue_copy", status_code.INVALID_VALUE)


def _required(kwargs: dict, name: str, routine: str):
    if name not in kwargs:
        raise TypeError(f"{routine}: the '{name}' argument is required")
    return kwargs.pop(name)


def _image_region(image, origin, region, routine: str, what: str) -> tuple[tuple, tuple, tuple]:
    """(origin, region) of an image copy in pixels, checked against the image, padded to three
    numbers (a 2D image's z is 0 and 1, a 1D one's y and z), and the image's pitches."""
    dims, pitches = image._layout()
    origin = tuple(int(v) for v in origin)
    region = tuple(int(v) for v in region)
    if not 1 <= len(origin) <= 3 or len(origin) != len(region):
        raise LogicError(f"{what}: origin {origin} and region {region} must have 1 to 3 numbers each", routine,
                         status_code.INVALID_VALUE)
    origin += (0,) * (3 - len(origin))
    region += (1,) * (3 - len(region))
    if min(region) <= 0 or min(origin) < 0 or any(o + r > d for o, r, d in zip(origin, region, dims)):
        raise LogicError(f"{what}: origin {origin[:len(image._dims)]} + region {region[:len(image._dims)]} lies "
                         f"outside the {'x'.join(map(str, image._dims))} image", routine, status_code.INVALID_VALUE)
    return origin, region, pitches


def _image_bytes(image, origin, region, pitches, routine: str, what: str) -> np.ndarray:
    """The bytes of an image region, as a (slices, rows, bytes) view of its memory."""
    px = image._pixel
    return rect_view(image._bytes(), (origin[0] * px, origin[1], origin[2]), (region[0] * px, region[1], region[2]),
                     pitches, routine, what)


def _copy_image(queue, dest, src, wait_for, blocking: bool, kw: dict):
    from .images import Image

    if isinstance(dest, Image) and isinstance(src, Image):
        routine, command = "clEnqueueCopyImage", command_type.COPY_IMAGE
        region = _required(kw, "region", routine)
        src_origin, dest_origin = _required(kw, "src_origin", routine), _required(kw, "dest_origin", routine)
        if src.format != dest.format:
            raise RuntimeError(f"the images' formats differ: {src.format!r} and {dest.format!r}", routine,
                               status_code.IMAGE_FORMAT_MISMATCH)
        so, sr, sp = _image_region(src, src_origin, region, routine, "the source")
        do, dr, dp = _image_region(dest, dest_origin, region, routine, "the destination")
        if src is dest and all(a < b + r and b < a + r for a, b, r in zip(so, do, sr)):
            raise RuntimeError("source and destination regions overlap", routine, status_code.MEM_COPY_OVERLAP)
        source = _image_bytes(src, so, sr, sp, routine, "the source")
        target = _image_bytes(dest, do, dr, dp, routine, "the destination")
        blocking = False
    elif isinstance(dest, Image) and isinstance(src, Buffer):
        routine, command = "clEnqueueCopyBufferToImage", command_type.COPY_BUFFER_TO_IMAGE
        offset = int(_required(kw, "offset", routine))
        o, r, p = _image_region(dest, _required(kw, "origin", routine), _required(kw, "region", routine), routine,
                                "the image region")
        target = _image_bytes(dest, o, r, p, routine, "the image region")
        source = rect_view(src._data, (offset, 0, 0), target.shape[::-1], None, routine, "the buffer")
        blocking = False
    elif isinstance(src, Image) and isinstance(dest, Buffer):
        routine, command = "clEnqueueCopyImageToBuffer", command_type.COPY_IMAGE_TO_BUFFER
        o, r, p = _image_region(src, _required(kw, "origin", routine), _required(kw, "region", routine), routine,
                                "the image region")
        offset = int(_required(kw, "offset", routine))
        source = _image_bytes(src, o, r, p, routine, "the image region")
        target = rect_view(dest._data, (offset, 0, 0), source.shape[::-1], None, routine, "the buffer")
        blocking = False
    else:
        writing = isinstance(dest, Image)
        image, host = (dest, src) if writing else (src, dest)
        if isinstance(host, Buffer) or not _is_host(host):
            raise LogicError(f"enqueue_copy between {type(dest).__name__} and {type(src).__name__}: not a pair "
                             "pyopencl copies", "enqueue_copy", status_code.INVALID_VALUE)
        routine = "clEnqueueWriteImage" if writing else "clEnqueueReadImage"
        command = command_type.WRITE_IMAGE if writing else command_type.READ_IMAGE
        o, r, p = _image_region(image, _required(kw, "origin", routine), _required(kw, "region", routine), routine,
                                "the image region")
        pitches = tuple(kw.pop("pitches", None) or ())
        if len(pitches) > 2:
            raise LogicError(f"pitches {pitches}: at most (row_pitch, slice_pitch)", routine,
                             status_code.INVALID_VALUE)
        device = _image_bytes(image, o, r, p, routine, "the image region")
        local = rect_view(host_bytes(host, routine, writable=not writing), (0, 0, 0), device.shape[::-1], pitches,
                          routine, "the host array")
        source, target = (local, device) if writing else (device, local)
    _no_more(kw, routine)
    return run_command(queue, command, routine, wait_for, lambda: target.__setitem__(Ellipsis, source), blocking)


def _is_host(obj) -> bool:
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def _offset(kwargs: dict, name: str) -> int:
    """The buffer-side byte offset of a host copy: ``src_offset`` / ``dst_offset`` as pyopencl
    names it now, or its older ``device_offset``."""
    if name in kwargs and "device_offset" in kwargs:
        raise TypeError(f"pass {name} or device_offset, not both")
    return int(kwargs.pop(name, kwargs.pop("device_offset", 0)))


def _no_more(kwargs: dict, routine: str) -> None:
    if kwargs:
        raise TypeError(f"{routine}: unexpected keyword arguments {', '.join(sorted(kwargs))}")


def _copy_buffer(queue, dest: Buffer, src: Buffer, wait_for, byte_count=None, src_offset=0, dst_offset=0):
    routine = "clEnqueueCopyBuffer"
    if byte_count is None or byte_count < 0:
        byte_count = min(src.size, dest.size)    # pyopencl's default, whatever the offsets
    byte_count, src_offset, dst_offset = int(byte_count), int(src_offset), int(dst_offset)
    source = _range(src, src_offset, byte_count, routine, "the source")
    target = _range(dest, dst_offset, byte_count, routine, "the destination")
    if src is dest and abs(src_offset - dst_offset) < byte_count:
        raise RuntimeError("source and destination regions overlap", routine, status_code.MEM_COPY_OVERLAP)
    return run_command(queue, command_type.COPY_BUFFER, routine, wait_for,
                       lambda: target.__setitem__(slice(None), source))


def enqueue_fill_buffer(queue: CommandQueue, mem: Buffer, pattern, offset: int, size: int, wait_for=None):
    """Fill ``size`` bytes from ``offset`` with ``pattern`` (a numpy scalar or array) repeated."""
    routine = "clEnqueueFillBuffer"
    if not isinstance(mem, Buffer):
        raise LogicError("expected a Buffer", routine, status_code.INVALID_MEM_OBJECT)
    if isinstance(pattern, np.generic):
        pattern = np.array(pattern)
    pat = host_bytes(pattern, routine).copy()
    offset, size = int(offset), int(size)
    if pat.nbytes not in (1, 2, 4, 8, 16, 32, 64, 128) or offset % pat.nbytes or size % pat.nbytes:
        raise LogicError(f"pattern of {pat.nbytes} bytes: it must be 1..128 bytes, a power of two, dividing "
                         f"offset {offset} and size {size}", routine, status_code.INVALID_VALUE)
    target = _range(mem, offset, size, routine, "the fill")
    return run_command(queue, command_type.FILL_BUFFER, routine, wait_for,
                       lambda: target.__setitem__(slice(None), np.tile(pat, size // pat.nbytes)))


def _memory_map_type(nbytes: int):
    """A ctypes byte array type (it lends numpy its memory, and becomes the mapped array's
    ``base``) with pyopencl's MemoryMap methods."""
    return type("MemoryMap", (ctypes.c_ubyte * nbytes,), {
        "release": _release_map, "__enter__": lambda self: self, "__exit__": lambda self, *exc: self.release()})


def _release_map(self, queue=None, wait_for=None):
    """Unmap (the data was the buffer's own memory all along); returns the Event."""
    buf = self._spirvkit_buffer
    if self._spirvkit_released:
        raise LogicError("the map was released already", "MemoryMap.release", status_code.INVALID_VALUE)
    self._spirvkit_released = True
    buf.map_count -= 1
    return run_command(queue or self._spirvkit_queue, command_type.UNMAP_MEM_OBJECT, "clEnqueueUnmapMemObject",
                       wait_for)


def enqueue_map_buffer(queue: CommandQueue, buf: Buffer, flags: int, offset: int, shape, dtype, order="C",
                       strides=None, wait_for=None, is_blocking=True):
    """``(array, event)``: ``array`` views the buffer's memory itself (zero-copy); unmap with
    ``array.base.release(queue)`` or ``with array.base: ...``."""
    routine = "clEnqueueMapBuffer"
    if not isinstance(buf, Buffer):
        raise LogicError("expected a Buffer", routine, status_code.INVALID_MEM_OBJECT)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    offset = int(offset)
    _range(buf, offset, nbytes, routine, "the mapped region")
    if nbytes == 0:
        raise LogicError("the mapped region is empty", routine, status_code.INVALID_VALUE)
    mapping = _memory_map_type(nbytes).from_buffer(buf._data, offset)
    mapping._spirvkit_buffer, mapping._spirvkit_queue, mapping._spirvkit_released = buf, queue, False
    array = np.ndarray(shape, dtype, buffer=mapping, order=order, strides=strides)
    event = run_command(queue, command_type.MAP_BUFFER, routine, wait_for, blocking=is_blocking)
    buf.map_count += 1
    return array, event


def rect_view(data: np.ndarray, origin, region, pitches, routine: str, what: str) -> np.ndarray:
    """The bytes of a rectangular region (origin and region[0] in bytes, rows, slices), as a
    (slices, rows, bytes) view of ``data``; pitches default to the region's own."""
    origin = tuple(int(v) for v in origin) + (0,) * (3 - len(origin))
    region = tuple(int(v) for v in region) + (1,) * (3 - len(region))
    pitches = tuple(int(v) for v in (pitches or ())) + (0,) * (2 - len(pitches or ()))
    row = pitches[0] or region[0]
    slice_ = pitches[1] or row * region[1]
    if min(region) <= 0 or row < region[0] or slice_ < row * region[1] or min(origin) < 0:
        raise LogicError(f"{what}: bad region {region} or pitches ({row}, {slice_})", routine,
                         status_code.INVALID_VALUE)
    start = origin[0] + origin[1] * row + origin[2] * slice_
    end = start + (region[2] - 1) * slice_ + (region[1] - 1) * row + region[0]
    if end > data.nbytes:
        raise LogicError(f"{what}: the region ends at byte {end}, past the {data.nbytes} bytes", routine,
                         status_code.INVALID_VALUE)
    return np.lib.stride_tricks.as_strided(data[start:end], shape=region[::-1], strides=(slice_, row, 1))


def _copy_rect(queue, dest, src, wait_for, blocking: bool, region, **kw):
    """Rectangular copies: buffer ↔ host (``buffer_origin``, ``host_origin``, ``buffer_pitches``,
    ``host_pitches``) and buffer → buffer (``src_origin``, ``dst_origin``, ``src_pitches``,
    ``dst_pitches``)."""
    if isinstance(src, Buffer) and isinstance(dest, Buffer):
        routine = "clEnqueueCopyBufferRect"
        source = rect_view(src._data, kw.pop("src_origin"), region, kw.pop("src_pitches", None), routine,
                            "the source")
        target = rect_view(dest._data, kw.pop("dst_origin"), region, kw.pop("dst_pitches", None), routine,
                            "the destination")
        command = command_type.COPY_BUFFER_RECT
        blocking = False
    elif isinstance(dest, Buffer) or isinstance(src, Buffer):
        writing = isinstance(dest, Buffer)
        routine = "clEnqueueWriteBufferRect" if writing else "clEnqueueReadBufferRect"
        buf, host = (dest, src) if writing else (src, dest)
        device = rect_view(buf._data, kw.pop("buffer_origin"), region, kw.pop("buffer_pitches", None), routine,
                            "the buffer region")
        local = rect_view(host_bytes(host, routine, writable=not writing), kw.pop("host_origin"), region,
                           kw.pop("host_pitches", None), routine, "the host region")
        source, target = (local, device) if writing else (device, local)
        command = command_type.WRITE_BUFFER_RECT if writing else command_type.READ_BUFFER_RECT
    else:
        raise LogicError("a rectangular copy needs a Buffer on one side at least", "enqueue_copy",
                         status_code.INVALID_VALUE)
    _no_more(kw, routine)
    return run_command(queue, command, routine, wait_for, lambda: target.__setitem__(Ellipsis, source), blocking)


def enqueue_migrate_mem_objects(queue: CommandQueue, mem_objects, flags: int = 0, wait_for=None):
    """Nothing moves: device memory is host memory here. Checks its arguments; its Event."""
    routine = "clEnqueueMigrateMemObjects"
    objects = list(mem_objects)
    if not objects or not all(isinstance(m, MemoryObject) for m in objects):
        raise LogicError("mem_objects must be a non-empty list of memory objects", routine,
                         status_code.INVALID_MEM_OBJECT)
    return run_command(queue, command_type.MIGRATE_MEM_OBJECTS, routine, wait_for)
