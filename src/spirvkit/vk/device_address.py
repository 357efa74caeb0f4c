"""Buffer device addresses (VK_KHR_buffer_device_address) for PhysicalStorageBuffer64 shaders.

``device_address(array)`` is the address a shader reaches a numpy array's memory by (the array's
own memory: zero-copy, as bound buffers are). The array is registered while it lives: every
dispatch lists the registered arrays as regions, so that in checked mode an access through a
PhysicalStorageBuffer pointer is checked against the buffer it points into, and one that points
into no buffer, or runs past the end of its buffer, stops the dispatch with the invocation and
the instruction. Unchecked dispatches trust the addresses, as a Vulkan driver does.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from ..errors import KernelArgumentError

_lock = threading.Lock()
# (address, bytes) -> the array owning that memory (weakly: registering keeps no array alive).
_registered: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def device_address(array: np.ndarray) -> int:
    """The device address of a C-contiguous, writeable numpy array (an integer to put in push
    constants or buffers, where the shader declares a PhysicalStorageBuffer pointer or a
    uint64_t). Valid while the array lives."""
    if not isinstance(array, np.ndarray):
        raise KernelArgumentError(f"device_address() takes a numpy array, not {type(array).__name__}")
    if not array.flags.c_contiguous:
        raise KernelArgumentError("device_address(): the array must be C-contiguous (shaders use its own memory)")
    if not array.flags.writeable:
        raise KernelArgumentError("device_address(): the array is read-only, and a shader may write "
                                  "through a device address")
    if array.nbytes == 0:
        raise KernelArgumentError("device_address(): the array is empty (a buffer has at least one byte)")
    # A view's memory belongs to the array that owns it, and lives as long as that array: the
    # owner is the buffer (a view's address is an address inside it), so device_address(a[k:])
    # stays valid after the temporary view is gone, and views of one array share one region.
    owner = array
    while isinstance(owner.base, np.ndarray) and owner.base.flags.c_contiguous:
        owner = owner.base
    with _lock:
        _registered[(owner.ctypes.data, owner.nbytes)] = owner
    return array.ctypes.data


def addressed_buffers() -> list[tuple[int, int, str, np.ndarray]]:
    """(base, end, description, array) of every live array given a device address."""
    with _lock:
        items = list(_registered.items())
    return [(base, base + size, f"the buffer at device address {base:#x}", owner)
            for (base, size), owner in items]
