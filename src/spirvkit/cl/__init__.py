"""spirvkit.cl: a pyopencl-compatible host API on spirvkit's CPU executor.

Change ``import pyopencl as cl`` to ``import spirvkit.cl as cl``::

    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    a_g = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    prg = cl.Program(ctx, source).build()
    prg.vadd(queue, a.shape, None, a_g, b_g, c_g)
    cl.enqueue_copy(queue, c, c_g)

Names, signatures, defaults and error codes follow pyopencl. One platform ("spirvkit") with
one CPU device, whose limits are ``spirvkit.device_limits()``. ``cltypes`` has pyopencl's vector
dtypes (``cltypes.float4``, ``make_float4``), accepted for by-value vector arguments; any numpy
scalar of a by-value parameter's size is passed as its bytes, as pyopencl does.
``enqueue_map_buffer`` maps without copying (the array is the buffer's memory). Images
(``Image``, ``image_from_array``, ``create_image``, ``Sampler``) are ``spirvkit.Image`` /
``spirvkit.Sampler`` underneath: their reads, samples and writes are spirvkit's.

Execution is asynchronous, as on an OpenCL device: each queue runs its commands in order on a
thread of its own, one command at a time on the device (a kernel uses every core), and
``enqueue_*`` returns at once except for blocking transfers and maps (queue.py says how waits,
user events, callbacks and failures work). With ``PROFILING_ENABLE`` the events'
``profile.queued/submit/start/end`` are real nanosecond timestamps (``time.perf_counter_ns``).

Kernels are bounds-checked: an out-of-bounds access stops the launch, and the first wait that
covers it (``Event.wait``, ``finish``, a blocking copy) raises a ``cl.RuntimeError`` (code
``OUT_OF_RESOURCES``) carrying spirvkit's located ``KernelFault`` (kernel, work-item, buffer,
offset) as its message and ``__cause__``. Checks off: ``cl.Context(..., unchecked=True)``,
the environment variable ``SPIRVKIT_CL_UNCHECKED=1`` (for programs that cannot be changed), or
the build option ``-spirvkit-unchecked`` for one program.

Differences from pyopencl: an Error's ``what`` is the message text (pyopencl gives its error
record, whose ``str()`` is that text); ``program.kernel_name`` returns the same Kernel each time
(pyopencl makes a new one); a wrong argument count is a ``LogicError`` (INVALID_KERNEL_ARGS)
that is also a ``TypeError``, the type pyopencl raises there; copies and images whose host
array is too small for the region are refused (INVALID_VALUE) where pyopencl reads or writes
past the array.

Not supported yet (``AttributeError`` / ``LogicError`` saying "not supported yet"): SVM, pipes,
program binaries and linking, USE_HOST_PTR images with padded host rows, and the libraries above
the core (``pyopencl.array``, ``elementwise``, ``reduction``, ``scan``, ``clrandom``, ``tools``:
importing them raises ImportError "not supported yet: pyopencl.<module>").
"""

from __future__ import annotations

from .constants import (addressing_mode, build_status, channel_order, channel_type, command_execution_status,
                        command_queue_info, command_queue_properties, command_type, context_info,
                        device_exec_capabilities, device_fp_config, device_info, device_local_mem_type,
                        device_mem_cache_type, device_type, event_info, filter_mode, image_info,
                        kernel_arg_access_qualifier, kernel_arg_address_qualifier, kernel_arg_info,
                        kernel_arg_type_qualifier, kernel_info, kernel_work_group_info, map_flags, mem_flags, mem_info,
                        mem_migration_flags, mem_object_type, platform_info, profiling_info, program_build_info,
                        program_info, sampler_info, status_code)
from .errors import Error, LogicError, MemoryError, RuntimeError
from .images import (DTYPE_TO_CHANNEL_TYPE, DTYPE_TO_CHANNEL_TYPE_NORM, Image, ImageDescriptor, ImageFormat, Sampler,
                     create_image, enqueue_fill_image, enqueue_map_image, get_supported_image_formats,
                     image_from_array)
from . import cltypes
from .memory import (Buffer, MemoryObject, MemoryObjectHolder, enqueue_copy, enqueue_fill_buffer, enqueue_map_buffer,
                     enqueue_migrate_mem_objects)
from .platform import Context, Device, Platform, create_some_context, get_platforms
from .program import Kernel, LocalMemory, Program, create_program_with_il, enqueue_nd_range_kernel
from .queue import CommandQueue, Event, UserEvent, enqueue_barrier, enqueue_marker, wait_for_events

class CompilerWarning(UserWarning):
    """pyopencl's warning class for build logs."""


def get_cl_header_version() -> tuple[int, int]:
    return (3, 0)


# pyopencl names spirvkit.cl does not have yet: using one says so.
_NOT_YET = ("SVM", "SVMAllocation", "SVMMap", "SVMPointer", "svm_empty", "svm_empty_like", "csvm_empty",
            "csvm_empty_like", "fsvm_empty", "fsvm_empty_like", "enqueue_svm_memfill", "enqueue_svm_migrate_mem",
            "enqueue_fill", "svm_mem_flags", "Pipe", "pipe_info", "pipe_properties", "link_program",
            "create_program_with_built_in_kernels", "enqueue_copy_buffer_p2p_amd", "NannyEvent", "have_gl", "gl_context_info", "kernel_sub_group_info",
            "device_partition_property", "device_affinity_domain", "unload_platform_compiler")


def __getattr__(name: str):
    if name in _NOT_YET:
        raise AttributeError(f"not supported yet: pyopencl.{name} (spirvkit.cl)", name=name)
    raise AttributeError(f"module 'spirvkit.cl' has no attribute '{name}'", name=name)


VERSION = (2026, 1)   # the pyopencl release whose API this follows (programs may check cl.VERSION)
VERSION_TEXT = "2026.1 (spirvkit.cl)"

__all__ = [
    "Buffer", "CommandQueue", "CompilerWarning", "Context", "DTYPE_TO_CHANNEL_TYPE", "DTYPE_TO_CHANNEL_TYPE_NORM",
    "Device", "Error", "Event", "Image", "ImageDescriptor", "ImageFormat", "Kernel", "LocalMemory", "LogicError",
    "MemoryError", "MemoryObject", "MemoryObjectHolder", "Platform", "Program", "RuntimeError", "Sampler", "UserEvent",
    "addressing_mode", "build_status", "channel_order", "channel_type", "cltypes", "command_execution_status",
    "command_queue_info", "command_queue_properties", "command_type", "context_info", "create_image",
    "create_program_with_il", "create_some_context", "device_exec_capabilities", "device_fp_config", "device_info",
    "device_local_mem_type", "device_mem_cache_type", "device_type", "enqueue_barrier", "enqueue_copy",
    "enqueue_fill_buffer", "enqueue_fill_image", "enqueue_map_buffer", "enqueue_map_image", "enqueue_marker",
    "enqueue_migrate_mem_objects", "enqueue_nd_range_kernel", "event_info", "filter_mode", "get_cl_header_version",
    "get_platforms", "get_supported_image_formats", "image_from_array", "image_info", "kernel_arg_access_qualifier",
    "kernel_arg_address_qualifier", "kernel_arg_info", "kernel_arg_type_qualifier", "kernel_info",
    "kernel_work_group_info", "map_flags", "mem_flags", "mem_info", "mem_migration_flags", "mem_object_type",
    "platform_info", "profiling_info", "program_build_info", "program_info", "sampler_info", "status_code",
    "wait_for_events",
]
