"""The resource limits of spirvkit's CPU device, checked before a launch allocates anything.

They play the part of OpenCL's device queries: a kernel (or its ``__local`` arguments) that
asks for more raises :class:`~spirvkit.errors.LimitError` naming the limit, the amount asked
for and the kernel, as ``clEnqueueNDRangeKernel`` fails with ``CL_OUT_OF_RESOURCES`` instead of
the process running out of memory.
"""

from __future__ import annotations

from ..errors import LimitError

# CL_DEVICE_LOCAL_MEM_SIZE: __local memory of one work-group (the kernel's __local variables and
# its LocalMemory arguments together). OpenCL requires at least 32 KiB; GPUs have 48-64 KiB,
# CPU implementations more (each group's local memory is ordinary RAM here, one copy per worker
# thread).
LOCAL_MEM_SIZE = 4 * 1024 * 1024

# Private memory of one work-item that a launch keeps for it across barriers (its suspended
# frame), per work-item.
PRIVATE_MEM_SIZE = 16 * 1024 * 1024


def _size(n: int) -> str:
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit} ({n} bytes)"
    return f"{n} bytes"


def check_local_memory(nbytes: int, what: str) -> None:
    """Refuse ``what`` (a kernel, or a LocalMemory argument) asking for ``nbytes`` of local
    memory past LOCAL_MEM_SIZE."""
    if nbytes > LOCAL_MEM_SIZE:
        raise LimitError(f"{what} needs {_size(nbytes)} of __local memory per work-group; the device has "
                         f"{_size(LOCAL_MEM_SIZE)} (CL_DEVICE_LOCAL_MEM_SIZE, spirvkit.runtime.limits)")


def check_launch(kernel: str, local_bytes: int, frame_bytes: int) -> None:
    """The limits a launch of ``kernel`` must respect, checked before its memory is allocated."""
    check_local_memory(local_bytes, f"kernel '{kernel}'")
    if frame_bytes > PRIVATE_MEM_SIZE:
        raise LimitError(f"kernel '{kernel}' needs {_size(frame_bytes)} of private memory per work-item; the "
                         f"device has {_size(PRIVATE_MEM_SIZE)} (spirvkit.runtime.limits.PRIVATE_MEM_SIZE)")
