"""Programs (OpenCL C source built with ``spirvkit.compile_cl``, or SPIR-V), kernels and their
launch, over the native ``spirvkit.Program`` / ``Kernel``."""

from __future__ import annotations

import shlex
import warnings

import numpy as np

from ..errors import CompileError, KernelArgumentError, KernelFault, LimitError, SpirvkitError
from .constants import (build_status, command_type, kernel_arg_access_qualifier, kernel_arg_address_qualifier,
                        kernel_arg_info, kernel_arg_type_qualifier, kernel_info, kernel_work_group_info,
                        program_build_info, program_info, status_code)
from .errors import LogicError, RuntimeError, info_attribute
from .constants import mem_flags
from .images import Image, Sampler
from .memory import Buffer
from .platform import Context
from .queue import run_command

UNCHECKED_OPTION = "-spirvkit-unchecked"   # a build option: launch this program's kernels without bounds checks
_ACCESS_NAMES = {"ReadOnly": "read_only", "WriteOnly": "write_only", "ReadWrite": "read_write"}


class LocalMemory:
    """A ``__local`` pointer argument of ``size`` bytes."""

    def __init__(self, size: int):
        self.size = int(size)

    def __repr__(self):
        return f"LocalMemory({self.size})"


class Program:
    """``Program(context, source)`` (build it with ``.build(options=...)``) or
    ``Program(context, il_bytes)`` for a SPIR-V module."""

    def __init__(self, context: Context, src, binaries=None):
        if binaries is not None:
            raise LogicError("not supported yet: programs from device binaries (use SPIR-V IL)",
                             "clCreateProgramWithBinary", status_code.INVALID_BINARY)
        if not isinstance(context, Context):
            raise LogicError("the first argument must be a Context", "clCreateProgram", status_code.INVALID_CONTEXT)
        self.context = context
        self._native = None
        self._kernels: dict[str, Kernel] = {}
        self._log = ""
        self._options = ""
        self._status = build_status.NONE
        self.unchecked = False
        if isinstance(src, str):
            self.source, self.il = src, None
        elif isinstance(src, (bytes, bytearray, memoryview)):
            data = bytes(src)
            if len(data) < 20 or len(data) % 4 or data[:4] not in (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03"):
                raise LogicError("not a SPIR-V module (bad magic number or length)", "clCreateProgramWithIL",
                                 status_code.INVALID_VALUE)
            self.source, self.il = None, data
        else:
            raise TypeError(f"Program takes OpenCL C source (str) or SPIR-V IL (bytes), not {type(src).__name__}")

    def build(self, options=(), devices=None, cache_dir=None) -> Program:
        from ..api import Program as NativeProgram

        opts = shlex.split(options) if isinstance(options, str) else [str(o) for o in options or ()]
        self.unchecked = UNCHECKED_OPTION in opts
        opts = [o for o in opts if o != UNCHECKED_OPTION]
        self._options = " ".join(opts)
        try:
            if self.source is not None:
                from ..clc.compiler import compile_cl
                diagnostics: list = []
                binary = compile_cl(self.source, opts, diagnostics=diagnostics)
                self._log = "\n".join(str(d) for d in diagnostics)
            else:
                binary = self.il
            self._native = NativeProgram(binary)
        except SpirvkitError as exc:
            self._status = build_status.ERROR
            self._log = str(exc)
            device = (devices or self.context.devices)[0]
            code = _build_failure_code(exc)
            raise RuntimeError(f"clBuildProgram failed: {status_code.to_string(code)}\n\nBuild on {device!r}:\n\n"
                               f"{self._log}\n\n(options: {self._options})", "clBuildProgram", code) from exc
        self._status = build_status.SUCCESS
        self._kernels = {}
        return self

    def _built(self, routine: str):
        if self._native is None:
            raise LogicError("the program has not been built", routine, status_code.INVALID_PROGRAM_EXECUTABLE)
        return self._native

    @property
    def kernel_names(self) -> str:
        return ";".join(self._built("clGetProgramInfo").kernel_names)

    @property
    def num_kernels(self) -> int:
        return len(self._built("clGetProgramInfo").kernel_names)

    @property
    def devices(self):
        return list(self.context.devices)

    def get_info(self, param: int):
        name = program_info.to_string(param, "")
        if name == "IL":
            return self.il if self.il is not None else self._built("clGetProgramInfo")._bytes
        if not name or not hasattr(type(self), name.lower()) and name not in ("SOURCE", "CONTEXT"):
            raise LogicError(f"unknown or unsupported parameter {param!r}", "clGetProgramInfo",
                             status_code.INVALID_VALUE)
        return getattr(self, name.lower())

    def get_build_info(self, device, param: int):
        if param == program_build_info.LOG:
            return self._log
        if param == program_build_info.STATUS:
            return self._status
        if param == program_build_info.OPTIONS:
            return self._options
        if param == program_build_info.BINARY_TYPE:
            return 4 if self._native is not None else 0   # CL_PROGRAM_BINARY_TYPE_EXECUTABLE
        raise LogicError(f"unknown parameter {param!r}", "clGetProgramBuildInfo", status_code.INVALID_VALUE)

    def all_kernels(self) -> list[Kernel]:
        return [self._kernel(n) for n in self._built("clCreateKernelsInProgram").kernel_names]

    def _kernel(self, name: str) -> Kernel:
        k = self._kernels.get(name)
        if k is None:
            k = self._kernels[name] = Kernel(self, name)
        return k

    def __getattr__(self, name: str):
        if name.startswith("__") or "_native" not in self.__dict__:
            raise AttributeError(name)
        if self._native is None and self._status == build_status.NONE:
            warnings.warn("Pre-build attribute access defeats compiler caching.", UserWarning, stacklevel=2)
            self.build()    # as pyopencl does
        try:
            return self._kernel(name)
        except LogicError as exc:
            raise AttributeError(f"'{name}' was not found as a program info attribute or as a kernel name") from exc


def _build_failure_code(exc: SpirvkitError) -> int:
    """INVALID_BUILD_OPTIONS for a bad option (the compiler locates it on its command line, or
    names the option's value), else BUILD_PROGRAM_FAILURE."""
    if isinstance(exc, CompileError) and (exc.file == "<command line>" or exc.message.startswith("invalid value")):
        return status_code.INVALID_BUILD_OPTIONS
    return status_code.BUILD_PROGRAM_FAILURE


class _ArgCountError(LogicError, TypeError):
    """A launch with the wrong number of arguments (pyopencl raises a TypeError there)."""


class Kernel:
    """``Kernel(program, name)``: set its arguments, then enqueue it, or call it."""

    def __init__(self, program: Program, name: str):
        native = program._built("clCreateKernel")
        if name not in native.kernel_names:
            raise LogicError(f"no kernel named {name!r}; the program has: {', '.join(native.kernel_names) or 'none'}",
                             "clCreateKernel", status_code.INVALID_KERNEL_NAME)
        self.program = program
        self.context = program.context
        self.function_name = name
        self._native = native.kernel(name)
        self._args: list = [_UNSET] * len(self._native.args)
        self._scalar_dtypes: list | None = None

    @property
    def num_args(self) -> int:
        return len(self._native.args)

    @property
    def attributes(self) -> str:
        req = self._native.required_local_size
        return f"reqd_work_group_size({req[0]},{req[1]},{req[2]})" if req else ""

    def get_info(self, param: int):
        return info_attribute(kernel_info, self, param, "clGetKernelInfo")

    def get_work_group_info(self, param: int, device):
        routine = "clGetKernelWorkGroupInfo"
        if param == kernel_work_group_info.WORK_GROUP_SIZE:
            return device.max_work_group_size
        if param == kernel_work_group_info.COMPILE_WORK_GROUP_SIZE:
            return list(self._native.required_local_size or (0, 0, 0))
        if param == kernel_work_group_info.PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
            from ..jit.abi import PREFERRED_WORK_GROUP_SIZE_MULTIPLE   # here: importing spirvkit.cl stays cheap

            return PREFERRED_WORK_GROUP_SIZE_MULTIPLE
        if param in (kernel_work_group_info.LOCAL_MEM_SIZE, kernel_work_group_info.PRIVATE_MEM_SIZE):
            try:
                r = self._native._checked_resources()
            except LimitError as exc:
                raise RuntimeError(str(exc), routine, status_code.OUT_OF_RESOURCES) from exc
            local = r.local_bytes + sum(a.size for a in self._args if isinstance(a, LocalMemory))
            return local if param == kernel_work_group_info.LOCAL_MEM_SIZE else r.private_bytes
        raise LogicError(f"unknown or unsupported parameter {param!r}", routine, status_code.INVALID_VALUE)

    def get_arg_info(self, index: int, param: int):
        """NAME, TYPE_NAME, ADDRESS_QUALIFIER, ACCESS_QUALIFIER and TYPE_QUALIFIER (for a program
        built from source; a SPIR-V module does not carry it: KERNEL_ARG_INFO_NOT_AVAILABLE)."""
        routine = "clGetKernelArgInfo"
        if not 0 <= index < self.num_args:
            raise LogicError(f"argument index {index}: kernel '{self.function_name}' has {self.num_args} arguments",
                             routine, status_code.INVALID_ARG_INDEX)
        info = self._native.args[index]
        if param == kernel_arg_info.NAME:
            return info.name
        if param == kernel_arg_info.TYPE_NAME:
            return info.type
        if param == kernel_arg_info.ADDRESS_QUALIFIER:
            return getattr(kernel_arg_address_qualifier, info.address_space.upper(),
                           kernel_arg_address_qualifier.GLOBAL)
        if param == kernel_arg_info.ACCESS_QUALIFIER:
            if not info.type.startswith("image"):
                return kernel_arg_access_qualifier.NONE
            return getattr(kernel_arg_access_qualifier, _ACCESS_NAMES[self._image_access(index)].upper())
        if param == kernel_arg_info.TYPE_QUALIFIER:
            return self._type_qualifier(index, routine)
        raise LogicError(f"parameter {kernel_arg_info.to_string(param, '{}')}: not supported yet", routine,
                         status_code.INVALID_VALUE)

    def _type_qualifier(self, index: int, routine: str) -> int:
        """The qualifier bits of the compiler's kernel_arg_type_qual words (api.ArgInfo)."""
        quals = self._native.args[index].type_qualifiers
        if self.program.source is None or quals is None:
            raise RuntimeError("a program made from SPIR-V IL has no type qualifiers for its kernel arguments",
                               routine, status_code.KERNEL_ARG_INFO_NOT_AVAILABLE)
        bits = kernel_arg_type_qualifier.NONE
        for word in quals.split():
            bits |= getattr(kernel_arg_type_qualifier, word.upper(), kernel_arg_type_qualifier.NONE)
        return bits

    def _param_type(self, index: int):
        native = self._native
        return native.program.types[native._spv_fn.function_type].params[index]

    def _image_access(self, index: int) -> str:
        """ReadOnly, WriteOnly or ReadWrite: an image parameter's access qualifier."""
        return self._param_type(index).image["access"]

    def _image_kind(self, index: int) -> tuple:
        t = self._param_type(index)
        return (t.image["dim"], t.image["arrayed"])

    # -- arguments --------------------------------------------------------------------------

    def set_scalar_arg_dtypes(self, dtypes) -> None:
        dtypes = list(dtypes)
        if len(dtypes) != self.num_args:
            raise LogicError(f"{len(dtypes)} dtypes for a kernel of {self.num_args} arguments",
                             "Kernel.set_scalar_arg_dtypes", status_code.INVALID_VALUE)
        self._scalar_dtypes = [None if d is None else np.dtype(d) for d in dtypes]

    set_arg_types = set_scalar_arg_dtypes

    def set_arg(self, index: int, value) -> None:
        routine = "clSetKernelArg"
        if not 0 <= index < self.num_args:
            raise LogicError(f"argument index {index}: kernel '{self.function_name}' has {self.num_args} arguments",
                             routine, status_code.INVALID_ARG_INDEX)
        info = self._native.args[index]
        where = f"argument {index} ('{info.name}') of kernel '{self.function_name}'"
        dtype = self._scalar_dtypes[index] if self._scalar_dtypes else None
        if dtype is not None and not isinstance(value, (Buffer, LocalMemory, Image, Sampler)):
            value = np.asarray(value, dtype=dtype)[()]
        if info.type.startswith("image"):
            if not isinstance(value, Image):
                raise LogicError(f"{where} is an {info.type}: pass a cl.Image, not {type(value).__name__}", routine,
                                 status_code.INVALID_MEM_OBJECT)
            access = self._image_access(index)
            if (access in ("ReadOnly", "ReadWrite") and value.flags & mem_flags.WRITE_ONLY) or \
                    (access in ("WriteOnly", "ReadWrite") and value.flags & mem_flags.READ_ONLY):
                raise LogicError(f"{where} is a {_ACCESS_NAMES[access]} {info.type}; the image was made "
                                 f"{'WRITE_ONLY' if value.flags & mem_flags.WRITE_ONLY else 'READ_ONLY'}", routine,
                                 status_code.INVALID_ARG_VALUE)
            native_image = value._native
            native_kind = (native_image.dim, native_image.arrayed)
            if native_kind != self._image_kind(index):
                raise LogicError(f"{where} is an {info.type}, got {native_image.describe()}", routine,
                                 status_code.INVALID_ARG_VALUE)
        elif info.type == "sampler_t":
            if not isinstance(value, Sampler):
                raise LogicError(f"{where} is a sampler_t: pass a cl.Sampler, not {type(value).__name__}", routine,
                                 status_code.INVALID_SAMPLER)
        elif isinstance(value, (Image, Sampler)):
            raise LogicError(f"{where} is a {info.type}, not an image or sampler", routine,
                             status_code.INVALID_ARG_VALUE)
        elif info.address_space == "local":
            if not isinstance(value, LocalMemory):
                raise LogicError(f"{where} is a __local pointer: pass cl.LocalMemory(nbytes)", routine,
                                 status_code.INVALID_ARG_VALUE)
            if value.size <= 0:
                raise LogicError(f"{where}: LocalMemory of {value.size} bytes", routine, status_code.INVALID_ARG_SIZE)
        elif info.address_space in ("global", "constant", "generic"):
            if not (isinstance(value, Buffer) or value is None):
                # pyopencl passes other buffer-like values by value: the wrong size for a pointer
                raise LogicError(f"{where} is a {info.address_space} pointer: pass a cl.Buffer, not "
                                 f"{type(value).__name__}", routine, status_code.INVALID_ARG_SIZE)
        elif isinstance(value, (Buffer, LocalMemory)):
            raise LogicError(f"{where} is passed by value ({info.type}), not a memory object", routine,
                             status_code.INVALID_ARG_VALUE)
        elif isinstance(value, (np.generic, np.ndarray)):
            if info.size and value.nbytes != info.size:
                raise LogicError(f"{where} is {info.size} bytes ({info.type}); the value given is {value.nbytes} "
                                 f"bytes ({value.dtype})", routine, status_code.INVALID_ARG_SIZE)
        else:
            raise LogicError(f"{where} ({info.type}): pass a numpy scalar such as np.int32(n), or declare its "
                             f"dtype with set_scalar_arg_dtypes; got {type(value).__name__}", "Kernel.set_arg",
                             status_code.INVALID_VALUE)
        self._args[index] = value

    def set_args(self, *args) -> None:
        if len(args) != self.num_args:
            raise _ArgCountError(f"kernel '{self.function_name}' has {self.num_args} arguments, {len(args)} given",
                                 "Kernel.set_args", status_code.INVALID_KERNEL_ARGS)
        for i, value in enumerate(args):
            self.set_arg(i, value)

    def __call__(self, queue, global_size, local_size, *args, global_offset=None, g_times_l=False,
                 allow_empty_ndrange=False, wait_for=None):
        self.set_args(*args)
        return enqueue_nd_range_kernel(queue, self, global_size, local_size, global_offset, wait_for,
                                       g_times_l=g_times_l, allow_empty_ndrange=allow_empty_ndrange)

    def _native_args(self) -> list:
        from ..api import LocalMemory as NativeLocalMemory

        out = []
        for i, value in enumerate(self._args):
            if value is _UNSET:
                raise LogicError(f"argument {i} ('{self._native.args[i].name}') of kernel '{self.function_name}' "
                                 f"is not set", "clEnqueueNDRangeKernel", status_code.INVALID_KERNEL_ARGS)
            if isinstance(value, Buffer):
                value = value._data
            elif isinstance(value, (Image, Sampler)):
                value = value._native
            elif isinstance(value, LocalMemory):
                value = NativeLocalMemory(value.size)
            elif isinstance(value, (np.generic, np.ndarray)):
                value = _by_value(value, self._native.args[i].type)
            out.append(value)
        return out

    def __repr__(self):
        return f"<pyopencl.Kernel {self.function_name}>"


_UNSET = object()


# OpenCL C scalar type -> numpy dtype, to pass a scalar's bytes as pyopencl does
_SCALAR_DTYPES = {"char": np.int8, "uchar": np.uint8, "unsigned char": np.uint8, "short": np.int16,
                  "ushort": np.uint16, "unsigned short": np.uint16, "int": np.int32, "uint": np.uint32,
                  "unsigned int": np.uint32, "long": np.int64, "ulong": np.uint64, "unsigned long": np.uint64,
                  "size_t": np.uint64, "ptrdiff_t": np.int64, "intptr_t": np.int64, "uintptr_t": np.uint64,
                  "half": np.float16, "float": np.float32, "double": np.float64}


def _by_value(value, type_name: str):
    """A by-value argument as the native kernel takes it. pyopencl passes a numpy value's bytes
    whatever its dtype (``np.float32`` for an ``int`` parameter is its bit pattern), so a scalar
    of the parameter's size is reinterpreted as the parameter's type."""
    dtype = _SCALAR_DTYPES.get(type_name.replace("const ", "").strip())
    if dtype is not None and value.dtype.names is None and value.size == 1 and value.dtype != dtype:
        return np.frombuffer(np.ascontiguousarray(value).tobytes(), dtype)[0]
    return _vector_value(value)


def _vector_value(value):
    """A ``cltypes`` vector (a structured scalar with fields s0, s1, ...) as the plain array of
    its elements (without a 3-vector's padding) that a by-value vector parameter takes; any other
    value as it is."""
    fields = value.dtype.fields
    if not fields or "s0" not in fields or value.shape not in ((), (1,)):
        return value
    count = sum(1 for n in value.dtype.names if n[0] == "s" and n[1:].isdigit())
    return np.frombuffer(value.tobytes(), fields["s0"][0])[:count]


def _sizes(value, what: str) -> tuple:
    if value is None:
        return None
    t = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(t) <= 3 or not all(isinstance(v, (int, np.integer)) for v in t):
        raise LogicError(f"{what} must be 1 to 3 ints, got {value!r}", "clEnqueueNDRangeKernel",
                         status_code.INVALID_WORK_DIMENSION)
    return tuple(int(v) for v in t)


def enqueue_nd_range_kernel(queue, kernel: Kernel, global_work_size, local_work_size, global_work_offset=None,
                            wait_for=None, g_times_l=False, allow_empty_ndrange=False):
    routine = "clEnqueueNDRangeKernel"
    g = _sizes(global_work_size, "global_work_size")
    lsz = _sizes(local_work_size, "local_work_size")
    off = _sizes(global_work_offset, "global_work_offset")
    device = queue.device
    if lsz is not None:
        if len(lsz) != len(g):
            raise LogicError(f"local size {lsz} and global size {g} differ in dimensions", "enqueue_nd_range_kernel",
                             status_code.INVALID_VALUE)
        if g_times_l:
            g = tuple(a * b for a, b in zip(g, lsz))
    if off is not None and len(off) != len(g):
        raise LogicError(f"global offset {off} and global size {g} differ in dimensions", routine,
                         status_code.INVALID_GLOBAL_OFFSET)
    if any(v < 0 for v in g):
        raise LogicError(f"global size {g}", routine, status_code.INVALID_GLOBAL_WORK_SIZE)
    if 0 in g:   # OpenCL 2.1 on: an empty NDRange is a no-op
        return run_command(queue, command_type.NDRANGE_KERNEL, routine, wait_for)
    if lsz is not None:
        if any(v <= 0 for v in lsz) or int(np.prod(lsz)) > device.max_work_group_size:
            raise LogicError(f"local size {lsz}: {int(np.prod(lsz))} work-items; the device allows "
                             f"{device.max_work_group_size}", routine, status_code.INVALID_WORK_GROUP_SIZE)
        if any(v > m for v, m in zip(lsz, device.max_work_item_sizes)):
            raise LogicError(f"local size {lsz} exceeds max_work_item_sizes", routine,
                             status_code.INVALID_WORK_ITEM_SIZE)
        if any(a % b for a, b in zip(g, lsz)):
            raise LogicError(f"global size {g} is not a multiple of local size {lsz}", routine,
                             status_code.INVALID_WORK_GROUP_SIZE)
        req = kernel._native.required_local_size
        if req and tuple(lsz) + (1,) * (3 - len(lsz)) != tuple(req):
            raise LogicError(f"local size {lsz} differs from the kernel's reqd_work_group_size{tuple(req)}",
                             routine, status_code.INVALID_WORK_GROUP_SIZE)
    args = kernel._native_args()
    name = kernel.function_name
    try:   # what the kernel declares against the device's limits: refused now, as OpenCL would
        resources = kernel._native._checked_resources()
    except LimitError as exc:
        raise RuntimeError(str(exc), routine, status_code.OUT_OF_RESOURCES) from exc
    local = resources.local_bytes + sum(a.size for a in kernel._args if isinstance(a, LocalMemory))
    if local > device.local_mem_size:
        raise RuntimeError(f"kernel '{name}' needs {local} bytes of local memory; the device has "
                           f"{device.local_mem_size}", routine, status_code.OUT_OF_RESOURCES)
    unchecked = kernel.program.unchecked or kernel.context.unchecked

    def launch():
        try:
            kernel._native(g, lsz, *args, global_offset=off, unchecked=unchecked)
        except KernelFault as exc:
            raise RuntimeError(f"kernel '{name}' faulted: {exc}", routine, status_code.OUT_OF_RESOURCES) from exc
        except LimitError as exc:
            raise RuntimeError(str(exc), routine, status_code.OUT_OF_RESOURCES) from exc
        except KernelArgumentError as exc:
            raise LogicError(f"kernel '{name}': {exc}", routine, status_code.INVALID_ARG_VALUE) from exc
        except SpirvkitError as exc:
            raise RuntimeError(f"kernel '{name}': {exc}", routine, status_code.INVALID_OPERATION) from exc

    return run_command(queue, command_type.NDRANGE_KERNEL, routine, wait_for, launch)


def create_program_with_il(context: Context, il: bytes) -> Program:
    return Program(context, bytes(il))
