"""The resource limits of spirvkit's CPU device, checked before a launch allocates anything.

They play the part of OpenCL's device queries (``spirvkit.device_limits()`` gives them under
their ``CL_DEVICE_*`` names): a kernel (or its arguments) that asks for more raises
:class:`~spirvkit.errors.LimitError` naming the limit, the amount asked for and the kernel, as
``clEnqueueNDRangeKernel`` fails with ``CL_OUT_OF_RESOURCES`` instead of the process running out
of memory or stack. The compiler's limits (bracket nesting, error count) are enforced where they
arise, in ``clc/``; they are listed here so one query shows them all.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..errors import LimitError

# CL_DEVICE_LOCAL_MEM_SIZE: __local memory of one work-group (the kernel's __local variables and
# its LocalMemory arguments together). OpenCL requires at least 32 KiB; GPUs have 48-64 KiB,
# CPU implementations more (each group's local memory is ordinary RAM here, one copy per worker
# thread).
LOCAL_MEM_SIZE = 4 * 1024 * 1024

# Private memory of one work-item: its function-scope variables along the deepest call path
# (OpenCL has no device query for it; clGetKernelWorkGroupInfo's CL_KERNEL_PRIVATE_MEM_SIZE is
# the per-kernel figure). They live on the worker thread's stack, which launch.py sizes from
# this limit, or, for a kernel split at barriers, in a per-work-item record (its suspended
# frame) that a launch keeps for every work-item of a group.
PRIVATE_MEM_SIZE = 16 * 1024 * 1024

# The records of a group's work-items together (PRIVATE_MEM_SIZE times up to MAX_WORK_GROUP_SIZE
# would be 64 GiB): one arena per worker thread.
GROUP_PRIVATE_MEM_SIZE = 1024 * 1024 * 1024

# CL_DEVICE_MAX_WORK_GROUP_SIZE: work-items per group (ndrange.py refuses a larger local size as
# OpenCL's CL_INVALID_WORK_GROUP_SIZE, a KernelArgumentError). Each work-item of a group split at
# barriers keeps a record; 4096 is what CPU implementations report (PoCL, Intel).
MAX_WORK_GROUP_SIZE = 4096

# CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: the kernel's program-scope __constant data and the arrays
# passed for its __constant pointer arguments together. OpenCL requires at least 64 KiB; the
# constant space is ordinary memory here (arguments are passed zero-copy), so spirvkit allows
# as much as PoCL's CPU device does for typical tables, and refuses only absurd sizes.
MAX_CONSTANT_BUFFER_SIZE = 64 * 1024 * 1024

# CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (OpenCL 2.0, at least 64 KiB): program-scope __global
# variables. spirvkit counts them together, since they share one block per program.
MAX_GLOBAL_VARIABLE_SIZE = 64 * 1024 * 1024

# CL_DEVICE_MAX_PARAMETER_SIZE: the kernel's parameters together, as OpenCL sizes them (a pointer,
# image or sampler the size of a pointer, a value its type's size). OpenCL requires at least 1024
# bytes; CPU implementations report 4096 (Intel) or more.
MAX_PARAMETER_SIZE = 4096

# Device-side enqueue (runtime/device_queue.py). CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: the bytes of
# the device queue, which holds the commands enqueued and not yet started: each takes
# device_queue.record_bytes() (its header, wait list, local-memory sizes and a copy of its
# block literal). OpenCL requires at least 256 KiB; an enqueue_kernel (or enqueue_marker) that
# finds the queue full returns CLK_DEVICE_QUEUE_FULL (-161) and enqueues nothing.
QUEUE_ON_DEVICE_MAX_SIZE = 256 * 1024

# CL_DEVICE_MAX_ON_DEVICE_EVENTS: clk_event_t objects alive at once in one host launch's tree
# (OpenCL requires at least 1024); past it enqueue_kernel returns CLK_EVENT_ALLOCATION_FAILURE
# (-100) and create_user_event CLK_NULL_EVENT.
MAX_ON_DEVICE_EVENTS = 1024

# The commands (kernels and markers) one host launch and all its descendants may enqueue in
# total (no OpenCL query): it ends runaway recursion, which the queue size alone would not (a
# child that enqueues one grandchild keeps the queue nearly empty). Past it enqueue_kernel
# returns CLK_OUT_OF_RESOURCES (-5).
MAX_ENQUEUED_COMMANDS = 16384

# The largest module the JIT lowers, in 32-bit words (16 MiB of SPIR-V, about a thousand times
# the largest kernel of the test corpus): lowering and LLVM's compile time grow with it, and a
# kernel past it would take many minutes before its first launch.
MAX_MODULE_WORDS = 4 * 1024 * 1024


@dataclass(frozen=True)
class DeviceLimits:
    """The device's limits, named after OpenCL's ``clGetDeviceInfo`` queries (lower case, without
    the ``CL_DEVICE_`` prefix) where OpenCL has one. Sizes are in bytes."""

    max_work_group_size: int
    max_work_item_sizes: tuple[int, int, int]
    local_mem_size: int
    private_mem_size: int              # per work-item (no CL query; see PRIVATE_MEM_SIZE)
    max_constant_buffer_size: int
    max_global_variable_size: int
    max_parameter_size: int
    max_module_words: int              # the JIT's largest module (SPIR-V words)
    bracket_depth: int                 # the compiler's nesting limit (clang's -fbracket-depth)
    error_limit: int                   # errors before the compiler stops (clang's -ferror-limit)
    queue_on_device_max_size: int = QUEUE_ON_DEVICE_MAX_SIZE   # device queue bytes
    max_on_device_events: int = MAX_ON_DEVICE_EVENTS
    max_enqueued_commands: int = MAX_ENQUEUED_COMMANDS   # per host launch (no CL query)

    def as_dict(self) -> dict:
        return asdict(self)


def device_limits() -> DeviceLimits:
    """The limits a launch (and the OpenCL C compiler) enforces."""
    from ..clc.parser import Parser
    from ..clc.preprocessor import PreprocessorOptions

    return DeviceLimits(MAX_WORK_GROUP_SIZE, (MAX_WORK_GROUP_SIZE,) * 3, LOCAL_MEM_SIZE, PRIVATE_MEM_SIZE,
                        MAX_CONSTANT_BUFFER_SIZE, MAX_GLOBAL_VARIABLE_SIZE, MAX_PARAMETER_SIZE, MAX_MODULE_WORDS,
                        Parser.MAX_BRACKET_DEPTH, PreprocessorOptions().error_limit, QUEUE_ON_DEVICE_MAX_SIZE,
                        MAX_ON_DEVICE_EVENTS, MAX_ENQUEUED_COMMANDS)


def _size(n: int) -> str:
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit} ({n} bytes)"
    return f"{n} bytes"


def _refuse(what: str, needs: str, has: str, limit: str) -> None:
    raise LimitError(f"{what} needs {needs}; the device has {has} ({limit}, spirvkit.device_limits())")


def check_local_memory(nbytes: int, what: str) -> None:
    """Refuse ``what`` (a kernel, or a LocalMemory argument) asking for ``nbytes`` of local
    memory past LOCAL_MEM_SIZE."""
    if nbytes > LOCAL_MEM_SIZE:
        _refuse(what, f"{_size(nbytes)} of __local memory per work-group", _size(LOCAL_MEM_SIZE),
                "CL_DEVICE_LOCAL_MEM_SIZE")


def check_kernel(kernel: str, resources) -> None:
    """The static needs of ``kernel`` (a ``jit.resources.KernelResources``), checked before it
    is lowered: what it declares, whatever its arguments."""
    what = f"kernel '{kernel}'"
    if resources.module_words > MAX_MODULE_WORDS:
        _refuse(what, f"a module of {resources.module_words} words to be compiled", f"a JIT limit of "
                f"{MAX_MODULE_WORDS} words", "max_module_words")
    if resources.private_bytes > PRIVATE_MEM_SIZE:
        _refuse(what, f"{_size(resources.private_bytes)} of private memory per work-item", _size(PRIVATE_MEM_SIZE),
                "private_mem_size")
    if resources.parameter_bytes > MAX_PARAMETER_SIZE:
        _refuse(what, f"{resources.parameter_bytes} bytes of parameters", f"{MAX_PARAMETER_SIZE} bytes",
                "CL_DEVICE_MAX_PARAMETER_SIZE")
    if resources.constant_bytes > MAX_CONSTANT_BUFFER_SIZE:
        _refuse(what, f"{_size(resources.constant_bytes)} of program-scope __constant data",
                _size(MAX_CONSTANT_BUFFER_SIZE), "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE")
    if resources.global_bytes > MAX_GLOBAL_VARIABLE_SIZE:
        _refuse(what, f"{_size(resources.global_bytes)} of program-scope __global variables",
                _size(MAX_GLOBAL_VARIABLE_SIZE), "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE")
    check_local_memory(resources.local_bytes, what)


def check_constant_arguments(kernel: str, program_bytes: int, argument_bytes: int) -> None:
    """The __constant arrays of a launch and the program's __constant data together."""
    if program_bytes + argument_bytes > MAX_CONSTANT_BUFFER_SIZE:
        _refuse(f"kernel '{kernel}'", f"{_size(program_bytes + argument_bytes)} of __constant memory "
                f"({_size(argument_bytes)} of it in __constant arguments)", _size(MAX_CONSTANT_BUFFER_SIZE),
                "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE")


def check_launch(kernel: str, local_bytes: int, frame_bytes: int, group_items: int = 1) -> None:
    """The limits a launch of ``kernel`` must respect, checked before its memory is allocated."""
    what = f"kernel '{kernel}'"
    check_local_memory(local_bytes, what)
    if frame_bytes > PRIVATE_MEM_SIZE:
        _refuse(what, f"{_size(frame_bytes)} of private memory per work-item", _size(PRIVATE_MEM_SIZE),
                "private_mem_size")
    if frame_bytes * group_items > GROUP_PRIVATE_MEM_SIZE:
        _refuse(f"{what} in work-groups of {group_items} work-items", f"{_size(frame_bytes * group_items)} of "
                f"private memory kept across barriers per work-group ({_size(frame_bytes)} per work-item)",
                _size(GROUP_PRIVATE_MEM_SIZE), "spirvkit.runtime.limits.GROUP_PRIVATE_MEM_SIZE")
