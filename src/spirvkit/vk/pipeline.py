"""``ComputePipeline``: a GLCompute shader with its buffers bound, dispatched on the CPU.

Buffers are numpy arrays bound zero-copy by (set, binding): the shader reads and writes the
array's own memory. Every dispatch is bounds-checked unless ``unchecked=True``; a fault names
the binding, the invocation and the instruction.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np

from ..errors import KernelArgumentError, KernelFault, KernelInterrupted, KernelTimeout, SpirvkitError
from ..api import read_input
from ..jit.shader_interface import MAX_INVOCATION_ID
from ..spirv.module import Module

# SPIR-V version -> the Vulkan target environment that validates it.
_VULKAN_ENVS = {(1, 0): "vulkan1.0", (1, 1): "vulkan1.1", (1, 2): "vulkan1.1", (1, 3): "vulkan1.1",
                (1, 4): "vulkan1.1spv1.4", (1, 5): "vulkan1.2", (1, 6): "vulkan1.3"}
#: Invocations per subgroup unless the pipeline says otherwise (SubgroupSize reads it; the
#: last subgroup of a work-group may have fewer active invocations).
DEFAULT_SUBGROUP_SIZE = 32


def load_shader(source, target_env: str | None = None) -> Module:
    """A SPIR-V module from a Module, binary bytes, assembly text, or a path to either (.spvasm
    and .spvas files are assembled)."""
    if isinstance(source, Module):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        return Module.from_bytes(bytes(source))
    if isinstance(source, str) and ("\n" in source or source.lstrip().startswith(("Op", ";"))):
        return _assemble(source, target_env, "<assembly>")
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        data = read_input(path)
        if path.suffix in (".spvasm", ".spvas", ".asm"):
            return _assemble(data.decode("utf-8", "surrogateescape"), target_env, str(path))
        return Module.from_bytes(data)
    raise SpirvkitError(f"a shader is SPIR-V bytes, assembly text, a spirvkit.Module or a path, "
                        f"not {type(source).__name__}")


def _assemble(text: str, target_env: str | None, filename: str) -> Module:
    from ..spirv.text.assembler import assemble

    return Module.from_bytes(assemble(text, target_env or "vulkan1.0", filename=filename))


def vulkan_env(module: Module) -> str:
    return _VULKAN_ENVS.get(tuple(module.version), "vulkan1.3")


def validate_shader(module: Module, target_env: str | None = None) -> None:
    """Raises SpirvkitError with the first diagnostic unless the module is valid for Vulkan."""
    from ..validate import validate

    env = target_env or vulkan_env(module)
    problems = validate(module, env)
    if problems:
        raise SpirvkitError(f"the shader is not valid SPIR-V for {env}: {problems[0]}")


class ComputePipeline:
    """A compute shader ready to dispatch::

        pipe = ComputePipeline(spirv, entry="main", specialization={0: 64})
        pipe.bind(set=0, binding=0, resource=array)
        pipe.push_constants(np.array([3], np.uint32))
        pipe.dispatch(16)             # 16 x 1 x 1 work-groups
    """

    def __init__(self, shader, entry: str = "main", specialization: dict | None = None, *,
                 subgroup_size: int = DEFAULT_SUBGROUP_SIZE, validate: bool = True, target_env: str | None = None):
        from ..jit import target
        from ..jit.shader_compiler import shader_interface_of

        self.module = load_shader(shader, target_env)
        if validate:
            validate_shader(self.module, target_env)
        self.entry = entry
        self.specialization = {int(k): v for k, v in (specialization or {}).items()}
        if isinstance(subgroup_size, bool) or not isinstance(subgroup_size, (int, np.integer)) or subgroup_size < 1:
            raise KernelArgumentError(f"subgroup_size must be a positive integer, got {subgroup_size!r}")
        self.subgroup_size = int(subgroup_size)
        with target.foreground():
            self.interface = shader_interface_of(self.module, entry, self.specialization)
        self.local_size = self.interface.local_size
        self._bindings: dict[tuple[int, int], np.ndarray] = {}
        self._push: np.ndarray | None = None
        self._loaded: dict[str, object] = {}
        self._lock = threading.Lock()

    # ----- resources ----------------------------------------------------------------------
    @property
    def bindings(self) -> list[tuple[int, int, str]]:
        """(set, binding, 'storage' or 'uniform') of each buffer the shader uses."""
        return sorted((r.set, r.binding, r.kind) for r in self.interface.resources if r.kind != "push_constant")

    def bind(self, set: int = 0, binding: int = 0, resource=None) -> ComputePipeline:  # noqa: A002 (Vulkan's word)
        """Binds a C-contiguous numpy array (zero-copy) to the buffer at (set, binding)."""
        declared = {(r.set, r.binding): r for r in self.interface.resources if r.kind != "push_constant"}
        r = declared.get((set, binding))
        if r is None:
            listed = ", ".join(f"set {s} binding {b}" for s, b in sorted(declared)) or "none"
            raise KernelArgumentError(f"the shader uses no buffer at set {set} binding {binding} (it uses: {listed})")
        if not isinstance(resource, np.ndarray):
            raise KernelArgumentError(f"{r.describe()}: bind a numpy array, not {type(resource).__name__}")
        if not resource.flags.c_contiguous:
            raise KernelArgumentError(f"{r.describe()}: the array must be C-contiguous (bound zero-copy); "
                                      f"pass np.ascontiguousarray(a) and read results from that copy")
        if r.kind == "storage" and not resource.flags.writeable:
            raise KernelArgumentError(f"{r.describe()}: the array is read-only, and a storage buffer may be written")
        self._bindings[(set, binding)] = resource
        return self

    def push_constants(self, data) -> ComputePipeline:
        """The push constant bytes (bytes, or a numpy array / scalar whose bytes are taken)."""
        if isinstance(data, (bytes, bytearray, memoryview)):
            raw = np.frombuffer(bytes(data), np.uint8)
        elif isinstance(data, (np.ndarray, np.generic)):
            raw = np.frombuffer(np.ascontiguousarray(data).tobytes(), np.uint8)
        else:
            raise KernelArgumentError(f"push constants are bytes or a numpy array, not {type(data).__name__}")
        self._push = raw.copy()
        return self

    # ----- dispatch -----------------------------------------------------------------------
    def dispatch(self, gx: int, gy: int = 1, gz: int = 1, timeout: float | None = None,
                 unchecked: bool = False) -> None:
        """Runs gx x gy x gz work-groups of the shader's local size; returns when all are done."""
        from ..runtime.args import BoundArgs
        from ..runtime.launch import launch
        from ..runtime.ndrange import NDRange

        groups = []
        for name, g in (("gx", gx), ("gy", gy), ("gz", gz)):
            if isinstance(g, bool) or not isinstance(g, (int, np.integer)) or g < 1:
                raise KernelArgumentError(f"{name} must be a positive number of work-groups, got {g!r}")
            groups.append(int(g))
        for name, g, n in zip(("gx", "gy", "gz"), groups, self.local_size):
            if g * n > MAX_INVOCATION_ID + 1:
                raise KernelArgumentError(f"{name} = {g} work-groups of {n} make invocation ids past 2^31 - 1 "
                                          f"(the most a dispatch can have in one dimension)")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or not timeout > 0):
            raise KernelArgumentError(f"timeout must be a positive number of seconds, got {timeout!r}")
        block = np.zeros(self.interface.args_bytes, np.uint8)
        words = block.view(np.uint64)
        regions, keep = [], []
        # Buffers first, push constants last: the errors come in the order a user binds.
        arrays = {r.var_id: self._resource_array(r)
                  for r in sorted(self.interface.resources, key=lambda r: r.kind == "push_constant")}
        for r in self.interface.resources:
            array = arrays[r.var_id]
            base = array.ctypes.data
            end = base + array.nbytes
            words[r.offset // 8: r.offset // 8 + 3] = (base, base, end)
            regions.append((base, end, r.describe()))
            keep.append(array)
        loaded = self._kernel("unchecked" if unchecked else "checked")
        compiled = loaded.compiled
        bound = BoundArgs(block, regions, [], compiled.local_bytes, keep)
        local = self.local_size
        ndrange = NDRange(3, tuple(g * n for g, n in zip(groups, local)), local, (0, 0, 0))
        try:
            launch(loaded, ndrange, bound, None, timeout, self.entry, locate=lambda: self._kernel("report"),
                   sub_group_size=self.subgroup_size)
        except KernelFault as fault:
            message = str(fault).replace(f"in kernel {self.entry!r}, work-item global id",
                                         f"in compute shader {self.entry!r}, invocation GlobalInvocationId")
            raise KernelFault(message, kernel=fault.kernel, global_id=fault.global_id, site=fault.site,
                              buffer=fault.buffer, offset=fault.offset, size=fault.size) from None
        except (KernelTimeout, KernelInterrupted) as stop:
            raise type(stop)(str(stop).replace(f"kernel {self.entry!r}", f"compute shader {self.entry!r}")) from None

    def _resource_array(self, r) -> np.ndarray:
        if r.kind == "push_constant":
            array = self._push
            if array is None:
                raise KernelArgumentError(f"the shader uses push constants ({r.static_size} bytes): call "
                                          f"push_constants() before dispatch()")
            if array.nbytes < r.static_size:
                raise KernelArgumentError(f"{r.describe()} is {r.static_size} bytes; only {array.nbytes} were given")
            return array
        array = self._bindings.get((r.set, r.binding))
        if array is None:
            raise KernelArgumentError(f"{r.describe()} is not bound: call bind(set={r.set}, binding={r.binding}, "
                                      f"resource=array) before dispatch()")
        if array.nbytes < r.static_size:
            more = f" plus {r.runtime_stride} per runtime-array element" if r.runtime_stride else ""
            raise KernelArgumentError(f"{r.describe()}: the shader declares {r.static_size} bytes{more}; the "
                                      f"bound array has {array.nbytes}")
        return array

    def _kernel(self, mode: str):
        from ..jit import target
        from ..jit.shader_compiler import compile_shader
        from ..runtime.launch import LoadedKernel

        with self._lock:
            loaded = self._loaded.get(mode)
            if loaded is None:
                with target.foreground():
                    compiled, _ = compile_shader(self.module, self.entry, mode, self.specialization)
                loaded = self._loaded[mode] = LoadedKernel(compiled)
            return loaded

    def __repr__(self):
        x, y, z = self.local_size
        return f"<spirvkit.vk.ComputePipeline {self.entry!r} local size {x}x{y}x{z}>"
