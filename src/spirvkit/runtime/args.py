"""Binding host values to kernel parameters: the argument block and the region table.

Buffers are passed zero-copy: the block holds the array's address and its [base, end) region,
which is what checked code compares every access against.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import KernelArgumentError, SpirvkitError
from ..jit.constants import coerce
from ..jit.kernel import ArgSlot
from ..jit.types import SpvType, TypeTable, c_type_name
from .images import bind_image, bind_sampler
from .limits import check_local_memory
from .pipes import bind_pipe

_DTYPES = {("int", 8): np.int8, ("int", 16): np.int16, ("int", 32): np.int32, ("int", 64): np.int64,
           ("float", 16): np.float16, ("float", 32): np.float32, ("float", 64): np.float64, ("bool", 1): np.bool_}


class LocalMemory:
    """A ``__local`` pointer argument: ``nbytes`` of work-group memory, fresh for each group."""

    def __init__(self, nbytes: int):
        if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 1:
            raise KernelArgumentError(f"LocalMemory needs a positive number of bytes, got {nbytes!r}")
        check_local_memory(int(nbytes), f"LocalMemory({int(nbytes)})")
        self.nbytes = int(nbytes)

    def __repr__(self):
        return f"LocalMemory({self.nbytes})"


class UninitializedArray(np.ndarray):
    """A numpy array whose contents the host declares uninitialised (see :func:`uninitialized`).

    Its memory is the first half of an allocation whose second half is its shadow for the
    uninitialized check (jit/check_uninit.py): one byte per byte, 0 while undefined, 0xFF once a
    kernel launched with that check has written it. The host's own writes are not seen: call
    :meth:`mark_initialized` after filling part of it on the host."""

    def __array_finalize__(self, obj):
        # Views and slices lose the marker: their shadow is not right after them.
        self._uninit_shadow = None

    def mark_initialized(self) -> None:
        if self._uninit_shadow is not None:
            self._uninit_shadow[:] = 0xFF

    def shadow(self) -> np.ndarray | None:
        """One byte per byte of the array: 0 undefined, 0xFF defined (None for a view)."""
        return self._uninit_shadow


def uninitialized(shape, dtype=np.float32) -> UninitializedArray:
    """A new array whose contents are uninitialised, like ``np.empty``: a launch with
    ``checks={"uninitialized"}`` reports the kernel's uses of its bytes before a kernel has
    written them (a launch without the check treats it as any array)."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64)) if np.ndim(shape) else int(shape)
    if count < 0 or dtype.itemsize == 0:
        raise KernelArgumentError(f"uninitialized: bad shape {shape!r} or dtype {dtype}")
    nbytes = count * dtype.itemsize
    raw = np.empty(2 * nbytes + 64, np.uint8)
    start = (-raw.ctypes.data) % 64
    data = raw[start: start + nbytes]
    array = data.view(dtype).reshape(shape).view(UninitializedArray)
    array._uninit_shadow = raw[start + nbytes: start + 2 * nbytes]
    array._uninit_shadow[:] = 0
    return array


def _uninit_marked(value) -> bool:
    """A whole array made by :func:`uninitialized` (not a view of one)."""
    return isinstance(value, UninitializedArray) and value._uninit_shadow is not None \
        and value._uninit_shadow.ctypes.data == value.ctypes.data + value.nbytes


def uninit_marked(value) -> bool:
    """Whether a launch argument is a buffer marked uninitialised (see ``_uninit_marked``),
    declared read-only or write-only or not."""
    return _uninit_marked(value.array if isinstance(value, DeclaredAccess) else value)


class DeclaredAccess:
    """A buffer argument with the access the host declares for one launch: made by
    :func:`read_only` or :func:`write_only` (the ``CL_MEM_READ_ONLY`` / ``CL_MEM_WRITE_ONLY`` of
    OpenCL's buffers). The kernel works on ``array`` itself (zero-copy: results land in it)."""

    __slots__ = ("array", "access")

    def __init__(self, array, access: str):
        if isinstance(array, DeclaredAccess):
            raise KernelArgumentError(f"{access}(): the buffer is already declared {array.access}")
        if not isinstance(array, np.ndarray):
            raise KernelArgumentError(f"{access}() takes the numpy array of a __global or __constant pointer "
                                      f"argument, not {type(array).__name__}")
        if access == "write_only" and not array.flags.writeable:
            raise KernelArgumentError("write_only(): the array is read-only (flags.writeable is False), so the "
                                      "kernel could not write it")
        self.array = array
        self.access = access

    def __repr__(self):
        return f"spirvkit.{self.access}(<{self.array.dtype} array of shape {self.array.shape}>)"


def read_only(array: np.ndarray) -> DeclaredAccess:
    """Declares a buffer argument read-only for a launch: the access check (on for a launch
    given one, unless ``unchecked=True``) reports every write to it and does not perform it.
    A read-only numpy array (``flags.writeable == False``) is read-only without this."""
    return DeclaredAccess(array, "read_only")


def write_only(array: np.ndarray) -> DeclaredAccess:
    """Declares a buffer argument write-only for a launch: the access check (on for a launch
    given one, unless ``unchecked=True``) reports every read of it (the read is still done, as
    Oclgrind does)."""
    return DeclaredAccess(array, "write_only")


def declares_access(value) -> bool:
    """Whether a launch argument declares the access check's business: a buffer declared
    read-only or write-only, or a read-only numpy array."""
    return isinstance(value, DeclaredAccess) or (isinstance(value, np.ndarray) and not value.flags.writeable)


@dataclass
class BoundArgs:
    block: np.ndarray                    # the argument block (bytes)
    regions: list[tuple[int, int, str]]  # (base, end, description) of every buffer
    local_args: list[tuple[int, int, str]]   # (offset in the local block, size, description)
    local_bytes: int                     # static work-group variables + __local arguments
    keep: list                           # objects that must outlive the launch
    constant_bytes: int = 0              # the arrays passed for __constant pointers
    # (parameter index, region base) of the buffers the kernel may not write (read-only arrays,
    # __constant arguments: the access check, jit/check_access.py), and of the other buffers.
    read_only: list[tuple[int, int]] = field(default_factory=list)
    buffers: list[tuple[int, int]] = field(default_factory=list)
    # (parameter index, region base) of the buffers made by uninitialized(): their shadow follows
    # them (the uninitialized check); and the bytes of local memory shadow added to local_bytes
    # by a launch with that check (0: none yet).
    uninit: list[tuple[int, int]] = field(default_factory=list)
    local_shadow: int = 0
    # (parameter index, region base) of the buffers declared write_only() (also in buffers).
    write_only: list[tuple[int, int]] = field(default_factory=list)
    # Bases of the buffers no work-item writes (the races check gives them no shadow), and of
    # those bound to parameters the kernel never writes through (None: it may write any).
    race_free: frozenset = frozenset()
    unwritten: frozenset | None = None


def scalar_dtype(t: SpvType):
    return _DTYPES.get((t.kind, t.width))


def describe(slot: ArgSlot) -> str:
    return f"argument {slot.index} ({slot.name!r})"


def bind(slots: list[ArgSlot], args_bytes: int, types: TypeTable, args: tuple, static_local: int,
         read_only_ok: bool = False, no_write: frozenset = frozenset(), written: frozenset | None = None) -> BoundArgs:
    """``read_only_ok``: the kernel was built with the access check (jit/check_access.py), which
    stops any write to a read-only array: those are accepted for every buffer parameter (else
    for ``__constant`` ones only). ``no_write``: the indices of the parameters the module
    declares the kernel never writes through (``FuncParamAttr NoWrite``, as llvm-spirv gives a
    ``const restrict`` pointer): they take read-only arrays in every mode, and the access check
    treats their buffers as read-only. ``written``: the indices of the parameters the kernel may
    write through (jit/written_params.py; None: any), for ``race_free``."""
    if len(args) != len(slots):
        names = ", ".join(s.name for s in slots)
        raise KernelArgumentError(f"the kernel takes {len(slots)} argument(s) ({names}), {len(args)} given")
    block = np.zeros(max(args_bytes, 16), np.uint8)
    words = block.view(np.uint64)
    regions, local_args, keep = [], [], []
    constant_bytes = 0
    read_only, buffers, uninit, write_only_ = [], [], [], []
    local_at = static_local
    for slot, value in zip(slots, args):
        t = types[slot.type_id]
        where = describe(slot)
        declared = None
        if isinstance(value, DeclaredAccess):
            if slot.kind != "buffer":
                raise KernelArgumentError(f"{where} is not a __global or __constant pointer: {value.access}() "
                                          f"declares the access of buffer arguments only")
            declared, value = value.access, value.array
        if slot.kind == "buffer" and value is None and slot.storage in _NULL_OK:
            words[slot.offset // 8: slot.offset // 8 + 3] = (0, 0, 0)   # a NULL buffer: no region
        elif slot.kind == "buffer":
            array = _buffer(value, slot, t, where, read_only_ok or slot.index in no_write)
            base = array.ctypes.data
            if slot.storage == "UniformConstant" or not array.flags.writeable or slot.index in no_write \
                    or declared == "read_only":
                read_only.append((slot.index, base))
            else:
                buffers.append((slot.index, base))
            if declared == "write_only":
                write_only_.append((slot.index, base))
            if _uninit_marked(array):
                uninit.append((slot.index, base))
            end = base + array.nbytes
            words[slot.offset // 8: slot.offset // 8 + 3] = (base, base, end)
            regions.append((base, end, where))
            keep.append(array)
            if slot.storage == "UniformConstant":
                constant_bytes += array.nbytes
        elif slot.kind == "local":
            if not isinstance(value, LocalMemory):
                raise KernelArgumentError(f"{where} is a __local pointer: pass spirvkit.LocalMemory(nbytes), "
                                          f"not {type(value).__name__}")
            local_at = (local_at + 127) // 128 * 128
            words[slot.offset // 8: slot.offset // 8 + 2] = (local_at, value.nbytes)
            local_args.append((local_at, value.nbytes, f"{where}, a __local buffer"))
            local_at += value.nbytes
        elif slot.kind == "image":
            image = bind_image(value, t, where)
            words[slot.offset // 8] = image.descriptor.ctypes.data
            base = image.data.ctypes.data
            # Its region names it in fault reports (image instructions check coordinates).
            regions.append((base, base + image.data.nbytes, f"{where}, {image.describe()}"))
            keep += [image, image.descriptor]
        elif slot.kind == "sampler":
            words[slot.offset // 8] = bind_sampler(value, where)
        elif slot.kind == "queue":
            from .queue_arg import check_queue_argument

            check_queue_argument(value, where)   # the address: DeviceQueue.bind_queue_arguments
        elif slot.kind == "pipe":
            pipe = bind_pipe(value, slot, t.image["access"], where)
            words[slot.offset // 8] = pipe.descriptor.ctypes.data
            keep.append(pipe)
        else:
            data = _value_bytes(value, t, where, types)
            block[slot.offset: slot.offset + len(data)] = np.frombuffer(data, np.uint8)
    race_free, unwritten = _race_free(read_only, buffers, written, read_only_ok)
    return BoundArgs(block, regions, local_args, (local_at + 63) // 64 * 64, keep, constant_bytes, read_only,
                     buffers, uninit, write_only=write_only_, race_free=race_free, unwritten=unwritten)


def _race_free(read_only: list, buffers: list, written: frozenset | None, stopped: bool) -> tuple:
    """(``race_free``, ``unwritten``): the bases of the buffers bound only to parameters no
    work-item writes through (not in ``written``, or read-only ones whose writes the access
    check stops: ``stopped``), and of the buffers bound to parameters not in ``written``."""
    if written is None and not stopped:
        return frozenset(), None
    bound = read_only + buffers
    free = bases_bound_only_to(bound, lambda index, base: not (written is None or index in written)
                               or (stopped and (index, base) in read_only))
    return free, None if written is None else frozenset(base for index, base in bound if index not in written)


def bases_bound_only_to(bound: list, chosen) -> frozenset:
    """The bases of the buffers every binding of which ((parameter index, base) pairs of
    ``bound``) is ``chosen(index, base)``: an array passed for two parameters is counted once
    for each."""
    return frozenset(base for _, base in bound) - {base for index, base in bound if not chosen(index, base)}


# Pointer parameters that take None: a NULL buffer, as clSetKernelArg allows for them.
_NULL_OK = ("CrossWorkgroup", "UniformConstant", "Generic")


def _buffer(value, slot: ArgSlot, t: SpvType, where: str, read_only_ok: bool = False) -> np.ndarray:
    if isinstance(value, LocalMemory):
        raise KernelArgumentError(f"{where} is a {_space(slot.storage)} pointer; LocalMemory is only for __local ones")
    if not isinstance(value, np.ndarray):
        none = " (or None for a NULL buffer)" if slot.storage in _NULL_OK else ""
        raise KernelArgumentError(f"{where} is a {_space(slot.storage)} pointer: pass a numpy array, "
                                  f"not {type(value).__name__}{none}")
    if not (value.flags.c_contiguous or value.flags.f_contiguous):
        raise KernelArgumentError(f"{where}: the array must be contiguous (use np.ascontiguousarray)")
    if slot.storage != "UniformConstant" and not value.flags.writeable and not read_only_ok:
        raise KernelArgumentError(f"{where}: the array is read-only but the kernel may write through a "
                                  f"{_space(slot.storage)} pointer, and unchecked=True launches do not stop "
                                  f"such writes (a checked launch accepts it: see the access check)")
    align = _alignment(t)
    if value.nbytes and value.ctypes.data % align:
        raise KernelArgumentError(f"{where}: the array's data is not aligned to {align} bytes, which its "
                                  f"element type needs")
    return value


_ALIGNMENTS: dict[int, tuple[SpvType, int]] = {}   # id(type) -> (the type, kept alive; alignment)


def _alignment(t: SpvType) -> int:
    """The alignment a buffer for pointer type ``t`` needs; memoised: an llvmlite query parses a
    module and takes llvmlite's global lock, which a background (tier-2) compile may hold for a
    few hundred ms, so that launches after the first make no LLVM call at all."""
    hit = _ALIGNMENTS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    if len(_ALIGNMENTS) > 4096:
        _ALIGNMENTS.clear()
    align = _query_alignment(t)
    _ALIGNMENTS[id(t)] = (t, align)
    return align


def _query_alignment(t: SpvType) -> int:
    elem = t.elem
    if elem is None or elem.kind in ("void", "opaque"):
        return 1
    try:
        from ..jit import target

        from ..jit.ops_memory import MAX_ASSUMED_ALIGNMENT

        return min(elem.llvm.get_abi_alignment(target.target_data()), MAX_ASSUMED_ALIGNMENT)
    except Exception:  # noqa: BLE001 - unsized pointee (e.g. an opaque struct): no requirement
        return 1


def _space(storage: str) -> str:
    return {"CrossWorkgroup": "__global", "UniformConstant": "__constant", "Workgroup": "__local",
            "Generic": "generic"}.get(storage, storage)


def _value_bytes(value, t: SpvType, where: str, types: TypeTable) -> bytes:
    size = types.size(t)
    if isinstance(value, (np.ndarray, np.void)) and getattr(value, "dtype", None) is not None \
            and value.dtype.names is not None:
        if t.kind != "struct":
            raise KernelArgumentError(f"{where} is a {c_type_name(t)}, got a structured value")
        data = value.tobytes()
        if len(data) != size:
            raise KernelArgumentError(f"{where}: the struct is {size} bytes in the kernel, the value "
                                      f"{len(data)} bytes (check field types, order and padding)")
        return data
    if t.kind in ("int", "float", "bool"):
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value[()]
        if isinstance(value, (np.ndarray, list, tuple)):
            raise KernelArgumentError(f"{where} is a {c_type_name(t)} scalar, got {type(value).__name__}")
        try:
            v = coerce(value, t, where)
        except SpirvkitError as exc:
            raise KernelArgumentError(str(exc)) from None
        return np.array(v if t.kind != "int" else v, dtype=_unsigned(t) if t.kind == "int" else scalar_dtype(t)) \
            .tobytes()
    if t.kind == "vector":
        dtype = scalar_dtype(t.elem)
        array = np.asarray(value)
        if array.shape != (t.count,):
            raise KernelArgumentError(f"{where} is a {c_type_name(t)}: pass an array of {t.count} elements, "
                                      f"got shape {array.shape}")
        data = bytearray(size)
        for i, element in enumerate(array.tolist()):
            b = _value_bytes(element, t.elem, f"{where}[{i}]", types)
            step = np.dtype(dtype).itemsize
            data[i * step:(i + 1) * step] = b
        return bytes(data)
    if t.kind in ("struct", "array"):
        data = bytes(np.asarray(value).tobytes()) if isinstance(value, (np.ndarray, np.void)) else None
        if data is None or len(data) != size:
            raise KernelArgumentError(f"{where} is a {size}-byte {t.kind}: pass a numpy structured value "
                                      f"of exactly that size")
        return data
    raise KernelArgumentError(f"{where}: parameters of type {t.kind} are not supported")


def _unsigned(t: SpvType):
    return {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[t.width]
