"""``ComputePipeline``: a GLCompute shader with its buffers bound, dispatched on the CPU.

Buffers are numpy arrays bound zero-copy by (set, binding): the shader reads and writes the
array's own memory. Every dispatch is bounds-checked unless ``unchecked=True``; a fault names
the binding, the invocation and the instruction.

Tiers, as for OpenCL kernels (spirvkit.api): a pipeline's first dispatch runs a quick build
(LLVM's cheap tier-1 pipeline, "quick-large" from ``spirvkit.api.LARGE_LAUNCH`` invocations on:
2-5x less compile time than O3), its second queues the optimised build (O3) in the background,
and each dispatch runs the best build ready; both compute bit-identical results.
``SPIRVKIT_JIT=optimized`` compiles O3 at the first dispatch, ``quick`` never does.
``ComputePipeline.tier`` tells which tier the last dispatch ran; ``ComputePipeline.compile()``
gets the optimised build now (for timings).
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import numpy as np

from ..errors import (KernelArgumentError, KernelFault, KernelInterrupted, KernelTimeout, NotSupportedError,
                      SpirvkitError)
from ..inputs import read_input
from ..jit.shader_interface import MAX_INVOCATION_ID
from ..spirv.module import Module
from .device_address import addressed_buffers

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
        self._loaded: dict[tuple, _Build] = {}   # (mode, image formats) -> its builds
        self._lock = threading.Lock()
        self.tier: int | None = None              # the tier the last dispatch ran: 1 quick, 2 optimised

    # ----- resources ----------------------------------------------------------------------
    @property
    def bindings(self) -> list[tuple[int, int, str]]:
        """(set, binding, kind) of each descriptor the shader uses: 'storage', 'uniform',
        'storage_image', 'sampled_image', 'combined_image_sampler', 'sampler',
        'uniform_texel_buffer' or 'storage_texel_buffer'."""
        return sorted((r.set, r.binding, r.kind) for r in self.interface.resources if r.kind != "push_constant")

    def bind(self, set: int = 0, binding: int = 0, resource=None) -> ComputePipeline:  # noqa: A002 (Vulkan's word)
        """Binds the descriptor at (set, binding): a C-contiguous numpy array (a storage or
        uniform buffer, zero-copy), a ``spirvkit.vk.Image`` (storage or sampled image, texel
        buffer), a ``spirvkit.vk.Sampler``, an ``(Image, Sampler)`` pair (combined image
        sampler), or a list of those for an array of descriptors."""
        declared = {(r.set, r.binding): r for r in self.interface.resources if r.kind != "push_constant"}
        r = declared.get((set, binding))
        if r is None:
            listed = ", ".join(f"set {s} binding {b}" for s, b in sorted(declared)) or "none"
            raise KernelArgumentError(f"the shader uses no descriptor at set {set} binding {binding} (it uses: "
                                      f"{listed})")
        if r.count is None:
            _check_descriptor(r, resource, r.describe(), self._sampler_axes())
        else:
            if not isinstance(resource, (list, tuple)) or (r.kind == "combined_image_sampler"
                                                           and _is_pair(resource)):
                raise KernelArgumentError(f"{r.describe()} is an array of descriptors: bind a list, not "
                                          f"{type(resource).__name__}")
            if (r.count and len(resource) != r.count) or not resource:
                want = f"{r.count}" if r.count else "at least 1"
                raise KernelArgumentError(f"{r.describe()}: the shader declares {want} descriptor(s); the list has "
                                          f"{len(resource)}")
            for i, element in enumerate(resource):
                _check_descriptor(r, element, r.describe(i), self._sampler_axes())
            resource = list(resource)
        self._bindings[(set, binding)] = resource
        return self

    def _sampler_axes(self) -> int:
        """The dimensions a separate sampler addresses: those of the shader's sampled images."""
        axes = [_IMAGE_AXES.get(r.element.image["dim"], 3) for r in self.interface.resources
                if r.kind == "sampled_image"]
        return max(axes, default=3)

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
        tables: dict[str, tuple] = {}   # a table's region description -> (resource, entry bytes)
        # Buffers first, push constants last: the errors come in the order a user binds.
        for r in sorted(self.interface.resources, key=lambda r: r.kind == "push_constant"):
            if r.uses_table:
                array = self._table(r, regions, keep)
                tables[f"the descriptors of {r.describe()}"] = (r, r.entry_bytes)
                regions.append((array.ctypes.data, array.ctypes.data + array.nbytes,
                                f"the descriptors of {r.describe()}"))
            else:
                array = self._resource_array(r)
                regions.append((array.ctypes.data, array.ctypes.data + array.nbytes, r.describe()))
            base = array.ctypes.data
            words[r.offset // 8: r.offset // 8 + 3] = (base, base, base + array.nbytes)
            keep.append(array)
        for base, end, what, array in addressed_buffers():   # PhysicalStorageBuffer pointers' targets
            regions.append((base, end, what))
            keep.append(array)
        formats = self._image_formats()
        invocations = int(np.prod(groups)) * int(np.prod(self.local_size))
        loaded = self._kernel("unchecked" if unchecked else "checked", formats, invocations)
        compiled = loaded.compiled
        bound = BoundArgs(block, regions, [], compiled.local_bytes, keep)
        local = self.local_size
        ndrange = NDRange(3, tuple(g * n for g, n in zip(groups, local)), local, (0, 0, 0))
        try:
            launch(loaded, ndrange, bound, None, timeout, self.entry, locate=lambda: self._kernel("report", formats),
                   sub_group_size=self.subgroup_size)
        except KernelFault as fault:
            message = str(fault).replace(f"in kernel {self.entry!r}, work-item global id",
                                         f"in compute shader {self.entry!r}, invocation GlobalInvocationId")
            if fault.buffer in tables:   # an index past an array of descriptors
                r, entry = tables[fault.buffer]
                count = len(self._bindings[(r.set, r.binding)]) if r.count is not None else 1
                message = _descriptor_index_fault(message, fault, r, entry, count)
            raise KernelFault(message, kernel=fault.kernel, global_id=fault.global_id, site=fault.site,
                              buffer=fault.buffer, offset=fault.offset, size=fault.size) from None
        except (KernelTimeout, KernelInterrupted) as stop:
            raise type(stop)(str(stop).replace(f"kernel {self.entry!r}", f"compute shader {self.entry!r}")) from None

    def _table(self, r, regions: list, keep: list) -> np.ndarray:
        """The host table of an opaque resource or an array of descriptors (shader_interface.py):
        one entry per descriptor, as the shader loads it."""
        bound = self._bindings.get((r.set, r.binding))
        if bound is None:
            raise KernelArgumentError(f"{r.describe()} is not bound: call bind(set={r.set}, binding={r.binding}, "
                                      f"resource=...) before dispatch()")
        elements = bound if r.count is not None else [bound]
        if r.kind == "sampler":
            return np.array([e.bits(self._sampler_axes()) for e in elements], np.uint32)
        table = np.zeros((len(elements), r.entry_bytes // 8), np.uint64)
        for i, e in enumerate(elements):
            where = r.describe(i if r.count is not None else None)
            if r.is_buffer:
                array = self._buffer_array(r, e, where)
                table[i] = (array.ctypes.data, array.ctypes.data + array.nbytes)
                regions.append((array.ctypes.data, array.ctypes.data + array.nbytes, where))
                keep.append(array)
                continue
            image, sampler = e if r.kind == "combined_image_sampler" else (e, None)
            table[i, 0] = image.descriptor.ctypes.data
            if sampler is not None:
                table[i, 1] = sampler.bits(_IMAGE_AXES.get(r.element.image["dim"], 3))
            base = image.memory.ctypes.data   # every mip level / sample
            regions.append((base, base + image.memory.nbytes, f"{where}, {image.describe()}"))
            keep += [image, image.descriptor]
        return table

    def _buffer_array(self, r, array: np.ndarray, where: str) -> np.ndarray:
        if array.nbytes < r.static_size:
            more = f" plus {r.runtime_stride} per runtime-array element" if r.runtime_stride else ""
            raise KernelArgumentError(f"{where}: the shader declares {r.static_size} bytes{more}; the "
                                      f"bound array has {array.nbytes}")
        return array

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
        return self._buffer_array(r, array, r.describe())

    def _image_formats(self) -> tuple:
        """(image type id, format words) of each image type whose bound images share one format:
        the shader is compiled for them (jit/shader_image.py), one build per combination."""
        found: dict[int, set] = {}
        for r in self.interface.resources:
            if r.element is None or r.kind == "sampler":
                continue
            bound = self._bindings.get((r.set, r.binding))
            images = [e[0] if isinstance(e, tuple) else e for e in (bound if r.count is not None else [bound])]
            image_type = r.element.elem if r.element.kind == "sampled_image" else r.element
            found.setdefault(image_type.id, set()).update(i.format_words for i in images)
        return tuple(sorted((type_id, next(iter(words))) for type_id, words in found.items() if len(words) == 1))

    def compile(self, optimized: bool = True, unchecked: bool = False) -> "ComputePipeline":
        """Builds now what the next dispatch in this mode runs: with ``optimized``, the O3 build
        (waiting for one in progress in the background), so that timed dispatches run it from
        the first on. Call it after binding the images (a build is per bound image format)."""
        from ..jit import target
        from ..jit.shader_compiler import compile_shader
        from ..runtime.launch import LoadedKernel

        mode = "unchecked" if unchecked else "checked"
        images = [r for r in self.interface.resources if r.element is not None and r.kind != "sampler"]
        formats = self._image_formats() if all((r.set, r.binding) in self._bindings for r in images) else ()
        if not optimized:
            self._kernel(mode, formats)
            return self
        with self._lock:
            current = self._loaded.get((mode, formats))
            if current is not None and current.tier == 2:
                return self
            if current is not None and current.future is not None and not current.failed:
                compiled = current.future.result()
                current.future = None
            else:
                with target.foreground():
                    compiled = compile_shader(self.module, self.entry, mode, self.specialization, pipeline="optimized",
                                              image_formats=formats)[0]
            loaded = LoadedKernel(compiled)
            if current is None:
                self._loaded[(mode, formats)] = _Build(loaded, 2)
            else:
                current.loaded, current.tier = loaded, 2
        return self

    def _kernel(self, mode: str, formats: tuple = (), invocations: int = 0):
        """The build a dispatch in ``mode`` of ``invocations`` runs (see "Tiers" in the module
        docstring)."""
        from ..api import LARGE_LAUNCH, jit_policy
        from ..jit import target
        from ..jit.shader_compiler import compile_shader
        from ..runtime.launch import LoadedKernel

        policy = jit_policy()
        # Report-mode builds (re-running a faulting group to locate the fault) are always quick.
        tiered = policy == "tiered" and mode != "report"

        def build(pipeline: str):
            return compile_shader(self.module, self.entry, mode, self.specialization, pipeline=pipeline,
                                  image_formats=formats)[0]

        with self._lock:
            current = self._loaded.get((mode, formats))
            if current is None:
                # a large first dispatch: the tier-1 pipeline whose code runs loops faster
                quick = "quick-large" if invocations >= LARGE_LAUNCH else "quick"
                pipeline = "optimized" if policy == "optimized" and mode != "report" else quick
                with target.foreground():
                    compiled = build(pipeline)
                current = self._loaded[(mode, formats)] = _Build(LoadedKernel(compiled), 2 if pipeline == "optimized"
                                                                 else 1)
            elif tiered and current.tier == 1 and not current.failed:
                if current.future is None:
                    current.future = target.submit(lambda: build("optimized"))
                elif current.future.done():
                    future, current.future = current.future, None
                    if not future.cancelled():      # (cancelled: the interpreter is exiting)
                        try:
                            compiled = future.result()
                        except BaseException:
                            current.failed = True   # raised once; later dispatches keep the quick build
                            raise
                        current.loaded, current.tier = LoadedKernel(compiled), 2
            if mode != "report":
                self.tier = current.tier
            return current.loaded

    def __repr__(self):
        x, y, z = self.local_size
        return f"<spirvkit.vk.ComputePipeline {self.entry!r} local size {x}x{y}x{z}>"


class _Build:
    """A pipeline's builds for one (mode, image formats): the one dispatches run now, its tier,
    and the optimised build in progress."""

    __slots__ = ("loaded", "tier", "future", "failed")

    def __init__(self, loaded, tier: int):
        self.loaded, self.tier, self.future, self.failed = loaded, tier, None, False


_IMAGE_AXES = {"1D": 1, "Buffer": 1, "2D": 2, "3D": 3, "Cube": 3, "Rect": 2}


def _descriptor_index_fault(message: str, fault: KernelFault, r, entry: int, count: int) -> str:
    """A fault in the table of an array of descriptors, reworded: the index, not the bytes."""
    detail = f"of {fault.size} byte(s) at byte offset {fault.offset} of {fault.buffer} ({count * entry} bytes)"
    bound = f", {count} bound" if r.count == 0 else ""
    message = message.replace(detail, f"index {fault.offset // entry} of {r.describe()}{bound}")
    return re.sub(r"^out-of-bounds \w+( access)?", "out-of-bounds descriptor index", message)


def _is_pair(value) -> bool:
    from .resources import Image, Sampler

    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Image)
            and isinstance(value[1], Sampler))


def _check_descriptor(r, value, where: str, sampler_axes: int) -> None:
    """Raises KernelArgumentError unless ``value`` may be bound as the descriptor ``r``."""
    from .resources import Image, Sampler, check_image_type

    if r.is_buffer:
        if not isinstance(value, np.ndarray):
            raise KernelArgumentError(f"{where}: bind a numpy array, not {type(value).__name__}")
        if not value.flags.c_contiguous:
            raise KernelArgumentError(f"{where}: the array must be C-contiguous (bound zero-copy); "
                                      f"pass np.ascontiguousarray(a) and read results from that copy")
        if r.kind == "storage" and not value.flags.writeable:
            raise KernelArgumentError(f"{where}: the array is read-only, and a storage buffer may be written")
        return
    if r.kind == "sampler":
        if not isinstance(value, Sampler):
            raise KernelArgumentError(f"{where}: bind a spirvkit.vk.Sampler, not {type(value).__name__}")
        value.bits(sampler_axes)   # its address modes must be usable
        return
    if r.kind == "combined_image_sampler":
        if not _is_pair(value):
            raise KernelArgumentError(f"{where}: bind an (Image, Sampler) pair, not {type(value).__name__}")
        image, sampler = value
        sampler.bits(_IMAGE_AXES.get(r.element.image["dim"], 3))
    else:
        image = value
    if not isinstance(image, Image):
        raise KernelArgumentError(f"{where}: bind a spirvkit.vk.Image, not {type(image).__name__}")
    info = r.element.image
    if info["dim"] not in ("1D", "2D", "3D", "Buffer", "Cube"):
        raise NotSupportedError(f"{where}: images of Dim {info['dim']}")
    check_image_type(image, info, where)
    if r.kind in ("storage_image", "storage_texel_buffer") and not image.data.flags.writeable:
        raise KernelArgumentError(f"{where}: the image's array is read-only, and a storage image may be written")
    sampled, declared = r.texels, r.image_format
    if sampled != image.format.numeric:
        raise KernelArgumentError(f"{where}: the shader reads it as {sampled} texels; {image.describe()} has "
                                  f"{image.format.numeric} ones")
    if declared not in ("Unknown", None) and declared != image.format.spirv_format:
        raise KernelArgumentError(f"{where}: the shader declares the image format {declared}; got "
                                  f"{image.describe()}")
