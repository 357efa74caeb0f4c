"""The host API: ``Program``, ``Kernel``, ``LocalMemory``.

::

    import numpy as np, spirvkit
    prog = spirvkit.Program("vadd.spv")              # bytes, a Module, or a path to a .spv file
    prog = spirvkit.Program(spirv, spec_constants={3: 7})   # SpecId -> value
    k = prog.kernel("vadd")
    k.args                                           # [ArgInfo(name, type, address_space, ...)]
    k(global_size, local_size, a, b, c)              # sizes: int or tuple of 1-3 ints; None = runtime picks
    k(1024, 64, a, b, c, global_offset=(16,), unchecked=False, timeout=5.0)
    k(64, None, a, printf=lines)                     # printf output: a list, file or callable (default stdout)
    with spirvkit.capture_printf() as out: k(...)    # or captured: out.calls, out.text

Arguments, in kernel-parameter order: a numpy array for a ``__global``/``__constant`` pointer
(zero-copy: results land in the array), ``LocalMemory(nbytes)`` for a ``__local`` pointer, a
numpy scalar or Python number for a by-value scalar (converted to the parameter's type and
range-checked), a 1-D array of n elements for a by-value vector, a numpy structured scalar for a
by-value struct.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import KernelArgumentError, SpirvkitError
from .jit import cache, target
from .jit.compiler import CompiledKernel, compile_kernel
from .jit.constants import ConstantEvaluator
from .jit.kernel import plan_kernel
from .jit.types import TypeTable, c_type_name
from .runtime.args import LocalMemory, bind
from .runtime.launch import LoadedKernel, launch
from .runtime.ndrange import make_ndrange
from .spirv.module import Module

__all__ = ["Program", "Kernel", "LocalMemory", "ArgInfo"]


@dataclass(frozen=True)
class ArgInfo:
    """A kernel parameter as the host sees it."""

    index: int
    name: str
    type: str              # OpenCL C spelling where the module records it (kernel_arg_type), else derived
    address_space: str     # 'global', 'constant', 'local', 'generic' or 'private' (by value)
    size: int              # by-value size in bytes; pointee size for pointers (0 if unknown)


_SPACES = {"CrossWorkgroup": "global", "UniformConstant": "constant", "Workgroup": "local", "Generic": "generic",
           "": "private"}


class Program:
    """A SPIR-V module ready to run its kernels."""

    def __init__(self, source, spec_constants: dict[int, object] | None = None):
        self.module, self._bytes = _load(source)
        self.spec_constants = dict(spec_constants or {})
        self.types = TypeTable(self.module, target.target_data(), self.spec_constants)
        ConstantEvaluator(self.module, self.types, self.spec_constants)  # rejects unknown SpecIds now
        self._kernels: dict[str, Kernel] = {}
        self._globals: np.ndarray | None = None
        self._lock = threading.Lock()

    @property
    def kernel_names(self) -> list[str]:
        return [e.name for e in self.module.entry_points if e.execution_model == "Kernel"]

    def kernel(self, name: str) -> Kernel:
        k = self._kernels.get(name)
        if k is None:
            if name not in self.kernel_names:
                listed = ", ".join(self.kernel_names) or "none"
                raise SpirvkitError(f"no kernel named {name!r} in the module; its kernels: {listed}")
            k = self._kernels[name] = Kernel(self, name)
        return k

    def _compiled(self, name: str, mode: str, local_size: tuple | None = None) -> CompiledKernel:
        key = cache.cache_key(self._bytes, name, mode, self.spec_constants, local_size)
        compiled = cache.lookup(key)
        if compiled is None:
            compiled = compile_kernel(self.module, name, mode, self.spec_constants, local_size)
            cache.store(key, compiled)
        return compiled

    def _globals_block(self, compiled: CompiledKernel) -> np.ndarray | None:
        """Program-scope variables: one block per program, shared by its kernels, initialised
        once, kept across launches (OpenCL 2.0 program-scope globals)."""
        if not compiled.globals_bytes:
            return None
        with self._lock:
            if self._globals is None:
                block = np.zeros(compiled.globals_bytes, np.uint8)
                for at, data in compiled.global_init:
                    block[at:at + len(data)] = np.frombuffer(data, np.uint8)
                for at, size, offset in compiled.global_relocs:   # `global int *p = &g;`
                    address = (block.ctypes.data + offset).to_bytes(size, "little")
                    block[at:at + size] = np.frombuffer(address, np.uint8)
                self._globals = block
            return self._globals


class Kernel:
    """One kernel of a :class:`Program`; call it to launch."""

    def __init__(self, program: Program, name: str):
        self.program = program
        self.name = name
        self._loaded: dict[tuple, LoadedKernel] = {}
        self._lock = threading.Lock()
        entry = program.module.entry_point(name)
        fn = next(f for f in program.module.functions if f.id == entry.function)
        self._spv_fn = fn
        self.required_local_size = _required_local_size(program.module, entry.function)
        self._uses_regions = plan_kernel(program.module, entry.function).uses_regions
        self.args = _arg_infos(program, name, fn)

    def _loaded_kernel(self, mode: str, local_size: tuple | None = None) -> LoadedKernel:
        with self._lock:
            loaded = self._loaded.get((mode, local_size))
            if loaded is None:
                compiled = self.program._compiled(self.name, mode, local_size)
                loaded = self._loaded[(mode, local_size)] = LoadedKernel(compiled)
            return loaded

    def _specialised_size(self, ndrange) -> tuple | None:
        """The local size to compile for: a kernel run region by region (barriers, or inner loops
        turned inside out) or with a required work-group size is compiled once per local size,
        so its work-item loops have constant trip counts and its local ids known ranges; only
        for NDRanges whose every group is whole (one compilation then serves every group)."""
        if not (self._uses_regions or self.required_local_size):
            return None
        if any(g % l for g, l in zip(ndrange.global_size, ndrange.local_size)):
            return None
        return tuple(ndrange.local_size)

    def compile(self, unchecked: bool = False, local_size=None) -> Kernel:
        """Compiles now rather than at the first launch (for launches with ``local_size``, when
        the kernel is one that spirvkit compiles per local size: see ``__call__``)."""
        mode = "unchecked" if unchecked else "checked"
        size = None
        if local_size is not None:
            dims = (local_size,) if isinstance(local_size, int) else tuple(local_size)
            size = self._specialised_size(make_ndrange(dims, dims, None, self.required_local_size))
        self._loaded_kernel(mode, size)
        return self

    def __call__(self, global_size, local_size=None, *args, global_offset=None, unchecked: bool = False,
                 timeout: float | None = None, printf=None):
        ndrange = make_ndrange(global_size, local_size, global_offset, self.required_local_size)
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or not timeout > 0 or timeout != timeout):
            raise KernelArgumentError(f"timeout must be a positive number of seconds, got {timeout!r}")
        size = self._specialised_size(ndrange)
        loaded = self._loaded_kernel("unchecked" if unchecked else "checked", size)
        compiled = loaded.compiled
        bound = bind(compiled.slots, compiled.args_bytes, self.program.types, args, compiled.local_bytes)
        launch(loaded, ndrange, bound, self.program._globals_block(compiled), timeout, self.name,
               locate=lambda: self._loaded_kernel("report", size), printf=printf)

    def __repr__(self):
        params = ", ".join(f"{a.type} {a.name}" for a in self.args)
        return f"<spirvkit.Kernel {self.name}({params})>"


def _load(source) -> tuple[Module, bytes]:
    if isinstance(source, Module):
        return source, source.to_bytes()
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        return Module.from_bytes(data), data
    if isinstance(source, str) and ("\n" in source or ("kernel" in source and "(" in source)):
        # OpenCL C source text: compiled on the fly (a path never holds a newline or "(").
        from .clc.compiler import compile_cl
        data = compile_cl(source, filename="<source>")
        return Module.from_bytes(data), data
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise SpirvkitError(f"{path}: cannot read: {exc.strerror}") from None
        if path.suffix == ".cl":
            from .clc.compiler import compile_cl
            data = compile_cl(data.decode("utf-8", "surrogateescape"), filename=str(path))
        return Module.from_bytes(data), data
    raise SpirvkitError(f"Program takes SPIR-V bytes, a spirvkit.Module or a path, not {type(source).__name__}")


def _required_local_size(module: Module, fn_id: int):
    for inst in module.section("execution_modes"):
        # OpExecutionMode %fn LocalSize x y z  (LocalSize = 17)
        if inst.opcode == 16 and inst.words[1] == fn_id and inst.words[2] == 17:
            return tuple(inst.words[3:6])
    return None


def _arg_infos(program: Program, name: str, fn) -> list[ArgInfo]:
    module, types = program.module, program.types
    declared = _kernel_arg_types(module, name)
    fn_type = types[fn.function_type]
    infos = []
    for i, (param, t) in enumerate(zip(fn.parameters, fn_type.params)):
        pname = module.name(param.words[2]) or f"arg{i}"
        if t.kind == "pointer" and t.storage == "Function":   # a struct passed by value (ByVal)
            t = t.elem
        space = _SPACES.get(t.storage, t.storage.lower()) if t.kind == "pointer" else "private"
        type_name = declared[i] if i < len(declared) else c_type_name(t)
        size = 0
        try:
            size = types.size(t.elem if t.kind == "pointer" else t) if (t.kind != "pointer" or t.elem) else 0
        except Exception:  # noqa: BLE001 - an opaque pointee has no size
            size = 0
        infos.append(ArgInfo(i, pname, type_name, space, size))
    return infos


def _kernel_arg_types(module: Module, name: str) -> list[str]:
    """Type names from the ``kernel_arg_type.<kernel>.<t1>,<t2>,`` OpString that OpenCL C
    compilers (llvm-spirv) leave in the module."""
    prefix = f"kernel_arg_type.{name}."
    for inst in module.section("debug"):
        if inst.opcode == 7:  # OpString
            text = inst.value(1)
            if text.startswith(prefix):
                return [t for t in text[len(prefix):].split(",") if t]
    return []
