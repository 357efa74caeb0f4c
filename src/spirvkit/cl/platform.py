"""The one platform and device spirvkit offers (its CPU executor), and contexts on it."""

from __future__ import annotations

import os

from .._version import __version__
from .constants import context_info, device_info, device_type, platform_info, status_code
from .errors import LogicError, RuntimeError, info_attribute

_EXTENSIONS = ("cl_khr_byte_addressable_store cl_khr_fp64 cl_khr_fp16 cl_khr_int64_base_atomics "
               "cl_khr_int64_extended_atomics cl_khr_global_int32_base_atomics "
               "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
               "cl_khr_local_int32_extended_atomics cl_khr_il_program cl_khr_subgroups cl_khr_subgroup_ballot "
               "cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_shuffle "
               "cl_khr_subgroup_shuffle_relative cl_khr_subgroup_clustered_reduce cl_khr_subgroup_rotate")


UNCHECKED_ENV = "SPIRVKIT_CL_UNCHECKED"


class _OneOfAKind:
    """There is one platform and one device: any two instances of the class are equal."""

    def __eq__(self, other):
        return type(other) is type(self)

    def __hash__(self):
        return hash(type(self))


class Platform(_OneOfAKind):
    """spirvkit's platform: one CPU device."""

    name = "spirvkit"
    vendor = "spirvkit"
    profile = "FULL_PROFILE"
    version = f"OpenCL 3.0 spirvkit {__version__}"
    extensions = "cl_khr_icd cl_khr_il_program"
    host_timer_resolution = 1
    int_ptr = 1

    def get_devices(self, device_type: int = device_type.ALL) -> list[Device]:
        if device_type == _ALL or device_type & (_CPU | _DEFAULT):
            return [_DEVICE]
        return []   # pyopencl turns clGetDeviceIDs' DEVICE_NOT_FOUND into an empty list

    def get_info(self, param: int):
        return info_attribute(platform_info, self, param, "clGetPlatformInfo")

    def __repr__(self):
        return f"<pyopencl.Platform '{self.name}' at spirvkit>"


class Device(_OneOfAKind):
    """spirvkit's CPU device; its limits are ``spirvkit.device_limits()``."""

    name = "spirvkit CPU"
    vendor = "spirvkit"
    vendor_id = 0
    type = device_type.CPU
    profile = "FULL_PROFILE"
    version = "OpenCL 3.0 spirvkit"
    driver_version = __version__
    opencl_c_version = "OpenCL C 1.2 spirvkit"
    il_version = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5 SPIR-V_1.6"
    extensions = _EXTENSIONS
    max_work_item_dimensions = 3
    address_bits = 64
    endian_little = True
    available = True
    compiler_available = True
    linker_available = False
    image_support = True
    image2d_max_width = image2d_max_height = 16384     # images.py enforces these sizes
    image3d_max_width = image3d_max_height = image3d_max_depth = 2048
    image_max_array_size = 2048
    image_max_buffer_size = 1 << 27
    max_read_image_args = 128
    max_write_image_args = 64
    max_samplers = 16
    # Vector widths: 1, spirvkit vectorises across work-items, so scalar code is what it prefers.
    preferred_vector_width_char = preferred_vector_width_short = preferred_vector_width_int = 1
    preferred_vector_width_long = preferred_vector_width_float = preferred_vector_width_double = 1
    preferred_vector_width_half = 1
    native_vector_width_char = native_vector_width_short = native_vector_width_int = 1
    native_vector_width_long = native_vector_width_float = native_vector_width_double = 1
    native_vector_width_half = 1
    error_correction_support = False
    host_unified_memory = True
    local_mem_type = 2          # CL_GLOBAL: local memory is ordinary RAM
    mem_base_addr_align = 1024  # bits
    profiling_timer_resolution = 1
    max_clock_frequency = 0
    queue_properties = 3        # out-of-order accepted (runs in order), profiling

    # max_work_group_size, local_mem_size, ...: from spirvkit.device_limits() (below the class)

    @property
    def global_mem_size(self) -> int:
        try:
            return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            return 4 << 30

    @property
    def max_mem_alloc_size(self) -> int:
        return max(self.global_mem_size // 4, 128 << 20)

    @property
    def max_compute_units(self) -> int:
        return os.cpu_count() or 1

    @property
    def platform(self) -> Platform:
        return _PLATFORM

    def get_info(self, param: int):
        return info_attribute(device_info, self, param, "clGetDeviceInfo")

    def __repr__(self):
        return f"<pyopencl.Device '{self.name}' on '{_PLATFORM.name}'>"


def _limit(name: str) -> property:
    def get(self):
        from ..runtime.limits import device_limits
        value = getattr(device_limits(), name)
        return list(value) if isinstance(value, tuple) else value
    get.__name__ = name
    return property(get, doc=f"CL_DEVICE_{name.upper()}, from spirvkit.device_limits()")


for _name in ("max_work_group_size", "max_work_item_sizes", "local_mem_size", "max_constant_buffer_size",
              "max_global_variable_size", "max_parameter_size"):
    setattr(Device, _name, _limit(_name))

_ALL, _CPU, _DEFAULT = device_type.ALL, device_type.CPU, device_type.DEFAULT
_PLATFORM = Platform()
_DEVICE = Device()


def get_platforms() -> list[Platform]:
    return [_PLATFORM]


class Context:
    """A context on spirvkit's device: ``Context()``, ``Context([device])``,
    ``Context(dev_type=cl.device_type.CPU)``."""

    def __init__(self, devices=None, properties=None, dev_type=None, *, unchecked=None):
        if devices is not None and dev_type is not None:
            raise LogicError("one of 'devices' or 'dev_type' must be None", "Context", status_code.INVALID_VALUE)
        if devices is not None:
            devices = list(devices)
            if not devices or not all(isinstance(d, Device) for d in devices):
                raise LogicError("devices must be a non-empty list of spirvkit devices", "clCreateContext",
                                 status_code.INVALID_DEVICE)
        elif dev_type is not None:
            devices = _PLATFORM.get_devices(dev_type)
            if not devices:
                raise RuntimeError("no device of that type", "clCreateContextFromType", status_code.DEVICE_NOT_FOUND)
        else:
            devices = [_DEVICE]
        self.devices = devices[:1]
        self.properties = properties or []
        # Bounds checks off for every kernel of this context: unchecked=True, or the environment
        # variable, which reaches programs that cannot be changed.
        if unchecked is None:
            unchecked = os.environ.get(UNCHECKED_ENV, "") not in ("", "0")
        self.unchecked = bool(unchecked)

    @property
    def num_devices(self) -> int:
        return len(self.devices)

    @property
    def reference_count(self) -> int:
        return 1

    def get_info(self, param: int):
        return info_attribute(context_info, self, param, "clGetContextInfo")

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return f"<pyopencl.Context on {self.devices!r}>"


def create_some_context(interactive: bool | None = None, answers: list[str] | None = None) -> Context:
    """A context on spirvkit's device. ``PYOPENCL_CTX`` (``'0'``, ``'0:0'``, or a platform-name
    substring) is honoured: it must select platform 0 / device 0; nothing is asked
    interactively, as there is nothing to choose."""
    choice = os.environ.get("PYOPENCL_CTX")
    if answers is None and choice:
        answers = [a for a in choice.split(":")]
    for level, answer in enumerate(answers or []):
        answer = answer.strip()
        if not answer:
            continue
        names = [_PLATFORM.name] if level == 0 else [_DEVICE.name]
        if answer.isdigit():
            if int(answer) != 0:
                raise RuntimeError(f"{'platform' if level == 0 else 'device'} {answer} does not exist "
                                   f"(spirvkit has one platform with one device)", "create_some_context",
                                   status_code.INVALID_VALUE)
        elif not any(answer.lower() in n.lower() for n in names):
            raise RuntimeError(f"no {'platform' if level == 0 else 'device'} matches {answer!r} "
                               f"(spirvkit offers {names[0]!r})", "create_some_context", status_code.INVALID_VALUE)
    return Context([_DEVICE])
