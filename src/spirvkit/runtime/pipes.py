"""Pipes: the host side of OpenCL C 2.0 pipe kernel arguments (§6.13.16).

``spirvkit.Pipe(packet, max_packets)`` is a FIFO of ``max_packets`` packets that kernels read
and write (jit/ops_pipe.py); its contents persist across launches, so one launch's writes are a
later launch's reads. ``packet`` is a numpy dtype (scalar, vector as a subarray dtype such as
``(np.float32, 4)``, or structured) or a size in bytes. The host inspects and fills it between
launches: ``len(pipe)`` (readable packets), ``pipe.packets()`` (them, in order, as a numpy
array; the pipe is unchanged), ``pipe.write(values)`` and ``pipe.read(n)``. The host must not
touch a pipe while a launch that uses it runs.

The descriptor (jit.abi.PIPE) and the packet ring are numpy arrays owned here; the launch
passes the descriptor's address.
"""

from __future__ import annotations

import numpy as np

from ..errors import KernelArgumentError
from ..jit.abi import PIPE

_WORD = {name: at for name, at in PIPE.items() if name != "_words"}


class Pipe:
    """A pipe kernel argument: ``Pipe(np.int32, 64)``, ``Pipe((np.float32, 4), 16)``,
    ``Pipe(12, 8)`` (12-byte packets, read back as bytes)."""

    def __init__(self, packet, max_packets: int):
        if isinstance(packet, bool) or not (isinstance(packet, (int, np.integer)) or _is_dtype(packet)):
            raise KernelArgumentError(f"Pipe needs a numpy dtype or a packet size in bytes, got {packet!r}")
        if isinstance(packet, (int, np.integer)):
            if packet < 1:
                raise KernelArgumentError(f"Pipe packet size must be positive, got {packet}")
            self.dtype = np.dtype((np.uint8, (int(packet),)))
        else:
            self.dtype = np.dtype(packet)
            if self.dtype.itemsize < 1:
                raise KernelArgumentError(f"Pipe packet type {self.dtype} has no size")
        if isinstance(max_packets, bool) or not isinstance(max_packets, (int, np.integer)) or \
                not 1 <= max_packets < 1 << 31:
            raise KernelArgumentError(f"Pipe max_packets must be an integer from 1 to 2**31 - 1, got {max_packets!r}")
        self.packet_size = self.dtype.itemsize
        self.max_packets = int(max_packets)
        # Slots start at a 128-byte boundary (any packet type's alignment).
        self._storage = np.zeros(self.packet_size * self.max_packets + 128, np.uint8)
        start = -self._storage.ctypes.data % 128
        self._data = self._storage[start:start + self.packet_size * self.max_packets]
        self._marks = np.zeros(self.max_packets, np.uint8)
        self.descriptor = np.zeros(PIPE["_words"], np.uint64)
        d = self.descriptor
        d[_WORD["packet_size"]] = self.packet_size
        d[_WORD["capacity"]] = self.max_packets
        d[_WORD["data"]] = self._data.ctypes.data
        d[_WORD["committed"]] = self._marks.ctypes.data

    # ----- inspection and host-side transfers ---------------------------------------------------
    def _count(self, name: str) -> int:
        return int(self.descriptor[_WORD[name]])

    def __len__(self) -> int:
        """The packets a read can take now (committed writes not yet reserved by a reader)."""
        return self._count("write_done") - self._count("read_reserved")

    @property
    def reserved(self) -> int:
        """Packets held by reservations not committed yet (reads and writes)."""
        return (self._count("write_reserved") - self._count("write_done")) + \
            (self._count("read_reserved") - self._count("read_done"))

    def _slots(self, first: int, n: int) -> np.ndarray:
        """The ring slots of n packets from running count ``first``."""
        return (first + np.arange(n)) % self.max_packets

    def packets(self) -> np.ndarray:
        """The readable packets, oldest first (a copy; the pipe is unchanged)."""
        rows = self._data.reshape(self.max_packets, self.packet_size)
        n = len(self)
        flat = np.ascontiguousarray(rows[self._slots(self._count("read_reserved"), n)]).reshape(-1)
        if self.dtype.subdtype is not None:   # e.g. (float32, 4): an (n, 4) array
            return flat.view(self.dtype.base).reshape((n, *self.dtype.shape))
        return flat.view(self.dtype)

    def write(self, values) -> None:
        """Appends packets from the host (all of them, or none if they do not fit)."""
        element = self.dtype.base if self.dtype.subdtype is not None else self.dtype
        values = np.ascontiguousarray(np.asarray(values, element))
        if values.nbytes % self.packet_size:
            raise KernelArgumentError(f"Pipe.write: {values.nbytes} bytes are not whole {self.packet_size}-byte "
                                      "packets")
        n = values.nbytes // self.packet_size
        free = self.max_packets - (self._count("write_reserved") - self._count("read_done"))
        if n > free:
            raise KernelArgumentError(f"Pipe.write: {n} packets do not fit ({free} free of {self.max_packets})")
        if self._count("write_reserved") != self._count("write_done"):
            raise KernelArgumentError("Pipe.write: a kernel's write reservation is still open")
        rows = self._data.reshape(self.max_packets, self.packet_size)
        rows[self._slots(self._count("write_done"), n)] = values.view(np.uint8).reshape(n, self.packet_size)
        for name in ("write_done", "write_reserved"):
            self.descriptor[_WORD[name]] += n

    def read(self, n: int | None = None) -> np.ndarray:
        """Removes and returns up to ``n`` readable packets (all of them by default)."""
        if self._count("read_reserved") != self._count("read_done"):
            raise KernelArgumentError("Pipe.read: a kernel's read reservation is still open")
        out = self.packets()[: len(self) if n is None else max(0, int(n))]
        for name in ("read_done", "read_reserved"):
            self.descriptor[_WORD[name]] += len(out)
        return out

    def __repr__(self):
        return f"Pipe({self.dtype}, {self.max_packets}; {len(self)} readable)"


def _is_dtype(value) -> bool:
    try:
        np.dtype(value)
    except TypeError:
        return False
    return not isinstance(value, str) or value != ""


def bind_pipe(value, slot, access: str, where: str) -> Pipe:
    """The Pipe passed for a pipe parameter, checked against the packet size the kernel uses."""
    if not isinstance(value, Pipe):
        qualifier = "read_only" if access == "ReadOnly" else "write_only"
        raise KernelArgumentError(f"{where} is a {qualifier} pipe: pass a spirvkit.Pipe, not {type(value).__name__}")
    if slot.size and slot.size != value.packet_size:
        raise KernelArgumentError(f"{where}: the kernel uses {slot.size}-byte packets, the Pipe has "
                                  f"{value.packet_size}-byte packets ({value.dtype})")
    return value
