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
    k(64, 16, a, sub_group_size=4)                   # sub-groups of 4 (default: one per work-group)
    with spirvkit.capture_printf() as out: k(...)    # or captured: out.calls, out.text
    k.compile(optimized=True)                        # the fully optimised build, now (see "Tiers")

Arguments, in kernel-parameter order: a numpy array for a ``__global``/``__constant`` pointer
(zero-copy: results land in the array), ``LocalMemory(nbytes)`` for a ``__local`` pointer, a
numpy scalar or Python number for a by-value scalar (converted to the parameter's type and
range-checked), a 1-D array of n elements for a by-value vector, a numpy structured scalar for a
by-value struct, a ``spirvkit.Image`` for an image (zero-copy over its array) and a
``spirvkit.Sampler`` for a ``sampler_t`` (see runtime/images.py and docs/images.md).

Tiers. A kernel's first launch runs a *quick* build (tier 1: a cheap LLVM pipeline, compiled in
a few to a few tens of ms; with the loop vectoriser for a kernel with inner loops turned inside
out whose launch has at least ``LARGE_LAUNCH`` work-items). Its second launch queues the *optimised* build (tier 2:
LLVM O3) in a background thread, and each launch runs the best build that is ready; both tiers
compute bit-identical results. A tier-2 build is compiled for its launches' local size where
that pays (``Kernel._specialised_size``). Only tier-2 objects go to the on-disk cache, and a cached tier-2
object skips tier 1 altogether. ``SPIRVKIT_JIT`` chooses: ``tiered`` (default), ``optimized``
(O3 at the first launch, as a synchronous compile) or ``quick`` (tier 1 only, no background
thread). ``Kernel.compile(optimized=True)`` gets the optimised build now (waiting for a
background build in progress); ``Kernel.tier`` tells which tier the last launch ran. A failed
background build is raised (``CompileError``) by the next launch, which then does not run; later
launches keep the quick build.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import gc
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import KernelArgumentError, SpirvkitError
from .inputs import read_input  # noqa: F401 - vk/pipeline.py imports it from here for now
from .jit import cache, target
from .jit.compiler import CompiledKernel, compile_kernel
from .jit.target import CompileError
from .jit.constants import ConstantEvaluator
from .jit.kernel import plan_kernel
from .jit.resources import kernel_resources
from .jit.types import TypeTable, c_type_name
from .jit.written_params import written_parameters
from .jit.check_passes import UNMARKED, mode_checks, mode_with_checks
from .runtime.args import LocalMemory, bind, declares_access, uninit_marked
from .runtime.check_findings import launch_checks
from .runtime.images import launch_key
from .runtime.launch import LoadedKernel, launch
from .runtime.limits import check_constant_arguments, check_kernel
from .runtime.ndrange import make_ndrange
from .spirv.module import Module
from .spirv.names import FUNC_PARAM_ATTR, OP

__all__ = ["Program", "Kernel", "LocalMemory", "ArgInfo"]

JIT_POLICIES = ("tiered", "optimized", "quick")
# A first launch of at least this many work-items is "large": its run time weighs as much as the
# compile's (the benchmark kernels' quick launches have at most 65536 work-items, their full-size
# ones 200704 and up, apart from the 4096 of n-body and 65536 of the two reductions). Its tier-1
# build is "quick-large" (scalar; the lowering may spend more on it), or "quick-vector" for a
# kernel whose inner loops are turned inside out (a uniform-bound loop around the work-item loop,
# as in a naive matmul; no barriers): vectorising across work-items then saves far more than it
# costs (full sizes: matmul_naive 210 ms first launch with it, 370 without), where on other
# kernels the scalar build, 2-3x cheaper to compile, ran about as fast (stencil 112 ms first
# launch against 188 vectorised, Black-Scholes 64 against 133).
LARGE_LAUNCH = 1 << 17
# The launch of a kernel variant that queues its optimised build (the first launch never does:
# a kernel run once, as in the test suite or `spirvkit run`, never pays for O3).
OPTIMIZE_AT_LAUNCH = 2
# Distinct local sizes a kernel without regions or a required size gets optimised builds for (per
# kernel object); launches with further sizes share the build for any local size. Such a kernel
# is specialised only for speed, and an application that varies its local size (local_size=None
# with changing global sizes) should not pay an O3 compile for each.
SPECIALISED_SIZES = 8
# Such a kernel is specialised only for groups whose rows (dimension 0) are shorter than this:
# a build for any size runs its main vector loop (on AVX-512, 16 lanes unrolled 4 times: 64
# work-items) only on longer rows. On longer ones specialising did not help, and cost the
# benchmark's vector add, saxpy and Black-Scholes (groups of 256) up to a quarter more CPU time.
SHORT_ROW = 64


# The cached tier-1 builds a first launch may use, best first, by the pipeline it would compile.
_TIER1_REUSE = {"quick": ("quick-vector", "quick-large", "quick"), "quick-large": ("quick-vector", "quick-large"),
                "quick-vector": ("quick-vector",)}


_gc_lock = threading.Lock()
_gc_pausers = 0
_gc_was_enabled = False


@contextlib.contextmanager
def _gc_paused():
    """No cyclic garbage collection while a kernel compiles (in any thread): lowering makes
    hundreds of thousands of small objects, and the collections they set off took a quarter to a
    third of the lowering's time. (Left as it was if the application turned the collector off.)"""
    global _gc_pausers, _gc_was_enabled
    with _gc_lock:
        if not _gc_pausers:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pausers += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pausers -= 1
            if not _gc_pausers and _gc_was_enabled:
                gc.enable()


def jit_policy() -> str:
    """``SPIRVKIT_JIT``: 'tiered' (default), 'optimized' or 'quick' (see the module docstring)."""
    value = os.environ.get("SPIRVKIT_JIT", "").strip().lower() or "tiered"
    if value not in JIT_POLICIES:
        raise SpirvkitError(f"SPIRVKIT_JIT={value!r}: expected one of {', '.join(JIT_POLICIES)}")
    return value


@dataclass(frozen=True)
class ArgInfo:
    """A kernel parameter as the host sees it."""

    index: int
    name: str
    type: str              # OpenCL C spelling where the module records it (kernel_arg_type), else derived
    address_space: str     # 'global', 'constant', 'local', 'generic' or 'private' (by value)
    size: int              # by-value size in bytes; pointee size for pointers (0 if unknown)
    # clang's kernel_arg_type_qual spelling ("restrict const", "volatile", "pipe", "": none) where
    # the module records it (cc always; llvm-spirv with
    # --preserve-ocl-kernel-arg-type-metadata-through-string), else None.
    type_qualifiers: str | None = None


_SPACES = {"CrossWorkgroup": "global", "UniformConstant": "constant", "Workgroup": "local", "Generic": "generic",
           "": "private"}


class Program:
    """A SPIR-V module ready to run its kernels."""

    def __init__(self, source, spec_constants: dict[int, object] | None = None, sub_group_size: int | None = None):
        """``sub_group_size``: the default of its kernels' launches (see ``Kernel.__call__``)."""
        self.module, self._bytes = _load(source)
        self.spec_constants = dict(spec_constants or {})
        self.sub_group_size = _sub_group_size(sub_group_size)
        with target.foreground():
            self.types = _HostTypes(self.module, target.target_data(), self.spec_constants)
            ConstantEvaluator(self.module, self.types, self.spec_constants)  # rejects unknown SpecIds now
        self._kernels: dict[str, Kernel] = {}
        self._globals: np.ndarray | None = None
        self._lock = threading.Lock()
        # Device-side enqueue: a device queue per host launch (kept for the next one), and the
        # kernel that runs each Invoke function.
        self.device_enqueue = "DeviceEnqueue" in self.module.capabilities
        self._queues: list = []
        self._invoked: dict[int, str] = {}

    @property
    def kernel_names(self) -> list[str]:
        return [e.name for e in self.module.entry_points if e.execution_model == "Kernel"]

    def kernel(self, name: str) -> Kernel:
        k = self._kernels.get(name)
        if k is None:
            if name not in self.kernel_names:
                listed = ", ".join(self.kernel_names) or "none"
                raise SpirvkitError(f"no kernel named {name!r} in the module; its kernels: {listed}")
            with target.foreground():
                k = self._kernels[name] = Kernel(self, name)
        return k

    def _compiled(self, name: str, mode: str, local_size: tuple | None = None,
                  pipeline: str = "optimized", images: tuple = ()) -> CompiledKernel:
        """The kernel built with ``pipeline`` (for the image formats and samplers ``images``,
        jit/image_launch.py): from the cache (tier-1 builds: memory only), else compiled and stored."""
        optimized = pipeline == "optimized"
        key = cache.cache_key(self._bytes, name, mode, self.spec_constants, local_size, pipeline, images)
        compiled = cache.lookup(key, disk=optimized)
        if compiled is None:
            with _gc_paused():
                try:
                    compiled = compile_kernel(self.module, name, mode, self.spec_constants, local_size,
                                              pipeline=pipeline, images=images)
                except SpirvkitError:
                    raise
                except Exception as exc:
                    raise self._invalid_module_error() or exc
            cache.store(key, compiled, disk=optimized)
        return compiled

    def _invalid_module_error(self) -> SpirvkitError | None:
        """Why a module the lowering could not handle is invalid (None if it is valid: then the
        failure is spirvkit's own). Modules are not validated before they run, so that the
        executor tolerates the known slips of other compilers (llvm-spirv's blocks out of
        dominance order); one the lowering chokes on is judged by the validator instead, and the
        user gets its located diagnostic, not an internal error."""
        from .errors import BinaryError
        from .validate import validate

        major, minor = self.module.version
        problems = validate(self._bytes, f"spv{major}.{minor}")
        if not problems:
            return None
        first = problems[0]
        return BinaryError(f"invalid module, which the executor cannot run: {first.message} [{first.rule}] "
                           f"({first.instruction})", first.word_offset)

    # -- device-side enqueue ------------------------------------------------------------------

    def _enqueued_kernel(self, invoke: int) -> str:
        """The kernel that runs a block's Invoke function (the lowering checked there is one)."""
        name = self._invoked.get(invoke)
        if name is None:
            from .jit.ops_enqueue import invoke_kernel

            name = self._invoked[invoke] = invoke_kernel(self.module, invoke).name
        return name

    @contextlib.contextmanager
    def _launch_queue(self, kernel: str, block, slots):
        """The device queue of a host launch of ``kernel`` (None when the program enqueues
        nothing), its queue_t arguments bound in the argument ``block``; one of the program's
        spare queues, given back at the end."""
        if not self.device_enqueue:
            yield None
            return
        from .runtime.device_queue import LaunchQueue

        with self._lock:
            queue = self._queues.pop() if self._queues else None
        if queue is None:
            queue = LaunchQueue()
        else:
            queue.reset()
        try:
            queue.bind_queue_arguments(block, slots)
            queue.start_root(kernel, self._enqueued_kernel)
            yield queue
        finally:
            with self._lock:
                if len(self._queues) < 4:
                    self._queues.append(queue)

    def _run_enqueued(self, queue, mode: str, printf, sub_group_size, command, timeout) -> None:
        """Launches a kernel command of ``queue`` (a child of a host launch)."""
        name = command.name
        kernel = self.kernel(name)
        ndrange = queue.child_ndrange(command, kernel.required_local_size)
        size = kernel._specialised_size(ndrange)
        x, y, z = ndrange.global_size
        loaded = kernel._launch_object(mode, size, x * y * z)
        compiled = loaded.compiled
        bound = queue.bind_child(command, compiled.slots, compiled.local_bytes, name)
        launch(loaded, ndrange, bound, self._globals_block(compiled), timeout, name,
               locate=lambda: kernel._launch_object(mode_with_checks("report", mode_checks(mode)[1]), size),
               printf=printf, sub_group_size=sub_group_size, device_queue=queue)

    def _cached(self, name: str, mode: str, local_size: tuple | None, pipeline: str,
                images: tuple = ()) -> CompiledKernel | None:
        key = cache.cache_key(self._bytes, name, mode, self.spec_constants, local_size, pipeline, images)
        return cache.lookup(key, disk=pipeline == "optimized")

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


class _HostTypes(TypeTable):
    """The program's types as the host API sees them (argument binding at every launch), with
    sizes and alignments memoised: each llvmlite query parses a module, and waits for llvmlite's
    global lock, which a background compile may hold for a few hundred ms."""

    def __init__(self, *args):
        super().__init__(*args)
        self._sizes: dict[int, tuple] = {}    # id(type) -> (the type, kept alive; size)
        self._aligns: dict[int, tuple] = {}

    def size(self, t) -> int:
        hit = self._sizes.get(id(t))
        if hit is None or hit[0] is not t:
            hit = self._sizes[id(t)] = (t, super().size(t))
        return hit[1]

    def align(self, t) -> int:
        hit = self._aligns.get(id(t))
        if hit is None or hit[0] is not t:
            hit = self._aligns[id(t)] = (t, super().align(t))
        return hit[1]


class _Variant:
    """One build target of a kernel (a checking mode and a local size): the object its launches
    run now, that object's tier, its launch count and the optimised build in progress."""

    __slots__ = ("loaded", "tier", "launches", "future", "failed")

    def __init__(self, loaded: LoadedKernel, tier: int):
        self.loaded = loaded
        self.tier = tier
        self.launches = 0
        self.future: concurrent.futures.Future | None = None
        self.failed = False


class Kernel:
    """One kernel of a :class:`Program`; call it to launch."""

    def __init__(self, program: Program, name: str):
        self.program = program
        self.name = name
        self._variants: dict[tuple, _Variant] = {}
        self._lock = threading.Lock()
        self.tier: int | None = None   # the tier the last launch ran: 1 quick build, 2 optimised
        entry = program.module.entry_point(name)
        fn = next(f for f in program.module.functions if f.id == entry.function)
        self._spv_fn = fn
        self.required_local_size = program.module.local_size(entry.function)
        plan = plan_kernel(program.module, entry.function)
        self._uses_regions = plan.uses_regions
        self._loop_cuts = plan.uses_regions and not plan.has_barriers   # inner loops turned inside out
        self.args = _arg_infos(program, name, fn)
        self._no_write = _no_write_parameters(program.module, fn)
        self._written: tuple | None = None    # (the parameters it may write through,): see _written_parameters
        self._resources = None   # its static needs, checked against the device's limits before a build
        self._sizes: set[tuple] = set()   # the local sizes it was specialised for (see _specialised_size)

    def _checked_resources(self):
        """What the kernel declares (private, constant, global and local memory, parameters, module
        size), refused with a LimitError before anything is compiled or allocated."""
        if self._resources is None:
            r = kernel_resources(self.program.module, self.program.types, self._spv_fn.id, len(self.program._bytes) // 4)
            check_kernel(self.name, r)
            self._resources = r
        return self._resources

    def _written_parameters(self) -> frozenset | None:
        """The parameters the kernel may write through (None: any), for the races check's
        shadow (jit/written_params.py); worked out on the first launch that needs it."""
        if self._written is None:
            self._written = (written_parameters(self.program.module, self._spv_fn),)
        return self._written[0]

    # -- tiers ----------------------------------------------------------------------------------

    def _variant(self, mode: str, local_size: tuple | None, work_items: int | None, policy: str,
                 images: tuple = ()) -> _Variant:
        """The variant for (mode, local size), made on first use (call holding ``_lock``): an
        optimised build from the cache if there is one (memory or disk), else per ``policy``
        the optimised build compiled now or a quick one. Report-mode builds (re-running a
        faulting group) are always quick."""
        v = self._variants.get((mode, local_size, images))
        if v is None:
            with target.foreground():
                v = self._variants[(mode, local_size, images)] = self._first_variant(mode, local_size, work_items,
                                                                                     policy, images)
        return v

    def _first_variant(self, mode: str, local_size: tuple | None, work_items: int | None, policy: str,
                       images: tuple) -> _Variant:
        prog = self.program
        if not _is_report(mode):
            compiled = prog._cached(self.name, mode, local_size, "optimized", images)
            if compiled is None and policy == "optimized":
                compiled = prog._compiled(self.name, mode, local_size, "optimized", images)
            if compiled is not None:
                return _Variant(LoadedKernel(compiled), 2)
            generic = self._variants.get((mode, None, images)) if local_size is not None else None
            if generic is not None and generic.tier == 2 and self._quick_size(local_size) is None:
                return generic   # compile(optimized=True) without a local size: its build serves
        pipeline = self._tier1_pipeline(mode, work_items)
        quick_size = self._quick_size(local_size)
        compiled = None
        for p in _TIER1_REUSE[pipeline]:   # a tier-1 build made for a larger launch serves too
            compiled = compiled or prog._cached(self.name, mode, quick_size, p, images)
        if compiled is None:
            compiled = prog._compiled(self.name, mode, quick_size, pipeline, images)
        return _Variant(LoadedKernel(compiled), 1)

    def _quick_size(self, local_size: tuple | None) -> tuple | None:
        """The local size a tier-1 build of the variant for ``local_size`` is compiled for: that
        size for a kernel run region by region or with a required size (constant trip counts
        are worth it even to a quick build), else none, so that one quick build serves every
        local size and a first launch never compiles more than one."""
        return local_size if self._uses_regions or self.required_local_size else None

    def _tier1_pipeline(self, mode: str, work_items: int | None) -> str:
        """The tier-1 pipeline of a first launch of ``work_items`` (``None``: unknown, as in
        ``compile()``): 'quick' for a small launch, else 'quick-vector' for a kernel with inner
        loops turned inside out and 'quick-large' for others (see ``LARGE_LAUNCH``)."""
        if _is_report(mode) or (work_items is not None and work_items < LARGE_LAUNCH):
            return "quick"
        return "quick-vector" if self._loop_cuts else "quick-large"

    def _launch_object(self, mode: str, local_size: tuple | None, work_items: int | None = None,
                       images: tuple = ()) -> LoadedKernel:
        """The object a launch runs: the best build ready. Counts the launch; the
        ``OPTIMIZE_AT_LAUNCH``-th queues the optimised build in the background."""
        policy = jit_policy()
        with self._lock:
            v = self._variant(mode, local_size, work_items, policy, images)
            if _is_report(mode):
                return v.loaded
            v.launches += 1
            self._advance(v, mode, local_size, policy, images)
            self.tier = v.tier
            return v.loaded

    def _advance(self, v: _Variant, mode: str, local_size: tuple | None, policy: str, images: tuple = ()) -> None:
        """Moves a tier-1 variant on (holding ``_lock``): takes a finished optimised build, raises
        a failed one (once), or queues one."""
        if v.tier == 2:
            return
        future = v.future
        if future is not None:
            if not future.done():
                return
            v.future = None
            if future.cancelled() or isinstance(future.exception(), target.BuildStopped):
                return   # the interpreter is exiting
            exc = future.exception()
            if exc is not None:
                v.failed = True
                raise CompileError(
                    f"kernel {self.name!r}: its optimised (tier-2) build failed in the background, so this "
                    f"launch did not run; later launches use the quick build (SPIRVKIT_JIT=quick avoids the "
                    f"optimised build). The error: {type(exc).__name__}: {exc}") from exc
            v.loaded, v.tier = future.result(), 2
        elif v.failed:
            return
        elif policy == "optimized":
            with target.foreground():
                v.loaded = LoadedKernel(self.program._compiled(self.name, mode, local_size, "optimized", images))
            v.tier = 2
        elif policy == "tiered" and v.launches >= OPTIMIZE_AT_LAUNCH:
            v.future = target.submit(functools.partial(self._optimized_build, mode, local_size, images))

    def _optimized_build(self, mode: str, local_size: tuple | None, images: tuple = ()) -> LoadedKernel:
        """The background job: the O3 build (from the cache if another Program of the same
        module made it meanwhile), stored in the cache and linked. Takes no lock of the kernel."""
        return LoadedKernel(self.program._compiled(self.name, mode, local_size, "optimized", images))

    def _launch_checks(self, checks, unchecked: bool, args) -> frozenset:
        """The checks beyond bounds of a launch's build: those ``checks=`` names, the access
        check for arguments that declare their access, and the UNMARKED build of the
        uninitialized check when no argument is a buffer marked uninitialised."""
        extra = launch_checks(checks, unchecked)
        if not unchecked and _declares_access(self.args, args):
            extra |= {"access"}
        if "uninitialized" in extra and not any(map(uninit_marked, args)):
            extra |= {UNMARKED}     # global memory needs no tracking (check_passes.UNMARKED)
        return extra

    def compile(self, unchecked: bool = False, local_size=None, optimized: bool = False, args=(),
                checks=None) -> Kernel:
        """Compiles now rather than at the first launch (for launches with ``local_size``, when
        the kernel is one that spirvkit compiles per local size, or one whose launches of that
        size already run: see ``_specialised_size``; else a build for any local size, which
        launches then use unless they have their own).

        ``optimized=False``: the build a first launch would make (a quick tier-1 build, or the
        optimised one if cached). ``optimized=True``: the fully optimised (tier-2, O3) build,
        which launches use from then on; waits for a background build in progress, and raises
        its error if it failed. ``args``: the launches' arguments, for a kernel with images or
        samplers, which is compiled for their formats and samplers (only those are looked at).
        ``checks``: the build for launches with these dynamic checks (see ``__call__``)."""
        mode = mode_with_checks("unchecked" if unchecked else "checked", self._launch_checks(checks, unchecked, args))
        images = launch_key(args)
        self._checked_resources()
        size = None
        if local_size is not None:
            dims = (local_size,) if isinstance(local_size, int) else tuple(local_size)
            size = self._specialised_size(make_ndrange(dims, dims, None, self.required_local_size))
        policy = jit_policy()
        with self._lock:
            if size is not None and self._quick_size(size) is None and (mode, size, images) not in self._variants:
                # Specialised only for speed, and no launch has used that size yet: the launches
                # it is for may have partial groups (which one cannot know here), so the build
                # for any size, which whole-group launches then use too (_first_variant).
                size = None
            if optimized and (mode, size, images) not in self._variants:
                policy = "optimized"
            v = self._variant(mode, size, None, policy, images)
            future = v.future
        if not optimized or v.tier == 2:
            return self
        if future is not None:
            concurrent.futures.wait([future])
        with self._lock:
            if v.tier == 1 and v.future is not None and v.future.done():
                self._advance(v, mode, size, policy, images)   # raises the background build's error
            if v.tier == 1:
                with target.foreground():
                    v.loaded = LoadedKernel(self.program._compiled(self.name, mode, size, "optimized", images))
                v.tier, v.future, v.failed = 2, None, False
        return self

    def _specialised_size(self, ndrange) -> tuple | None:
        """The local size to compile for (the variant's key): the launch's, for NDRanges whose
        every group is whole (one compilation then serves every group), so that work-item loops
        have constant trip counts and local ids known ranges. As PoCL does: on a 16-wide row
        LLVM's vector loop (16 lanes, unrolled 4 times) never ran in a build for any size and
        a remainder loop did all the work (the stencil benchmark took 16% more CPU time). A
        kernel run region by region or with a required size is compiled per local size at
        every tier; another only for its optimised build (``_quick_size``), only for rows
        shorter than ``SHORT_ROW`` and for at most ``SPECIALISED_SIZES`` sizes."""
        if any(g % l for g, l in zip(ndrange.global_size, ndrange.local_size)):
            return None
        size = tuple(ndrange.local_size)
        if self._uses_regions or self.required_local_size:
            return size
        if size[0] >= SHORT_ROW:
            return None
        with self._lock:
            if size not in self._sizes:
                if len(self._sizes) >= SPECIALISED_SIZES:
                    return None
                self._sizes.add(size)
        return size

    def __call__(self, global_size, local_size=None, *args, global_offset=None, unchecked: bool = False,
                 timeout: float | None = None, printf=None, sub_group_size: int | None = None,
                 checks=None, report: bool = False):
        """``sub_group_size``: work-items per sub-group, taken in local linear id order (the last
        sub-group of a work-group may be smaller); None: the Program's, by default one sub-group
        per work-group.

        ``checks``: the dynamic checks of this launch (README, "Dynamic checks"): None (bounds
        only, the default), "all", or names among bounds, barriers, pointers, access, races,
        uninitialized (an unknown name raises). Bounds are checked in every launch
        but ``unchecked=True`` ones, which take no other check. A launch with checks beyond
        bounds runs to completion, then raises one ``KernelCheckError`` listing its findings;
        with ``report=True`` it returns that list instead (empty: nothing found). A read-only
        array (``flags.writeable == False``) passed for a ``__global`` pointer, or a buffer the
        host declares ``spirvkit.read_only(a)`` or ``spirvkit.write_only(a)``, turns the access
        check on for the launch: a write to a read-only buffer is a finding, and is not
        performed; a read of a write-only one is a finding, and is performed. ``unchecked=True``
        launches ignore those declarations."""
        extra = self._launch_checks(checks, unchecked, args)
        mode = mode_with_checks("unchecked" if unchecked else "checked", extra)
        report_mode = mode_with_checks("report", extra)
        ndrange = make_ndrange(global_size, local_size, global_offset, self.required_local_size)
        sub_group_size = _sub_group_size(sub_group_size) or self.program.sub_group_size
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or not timeout > 0 or timeout != timeout):
            raise KernelArgumentError(f"timeout must be a positive number of seconds, got {timeout!r}")
        resources = self._checked_resources()
        size = self._specialised_size(ndrange)
        x, y, z = ndrange.global_size
        # Compiled for the formats of its images and its samplers (jit/image_launch.py).
        images = launch_key(args)
        loaded = self._launch_object(mode, size, x * y * z, images)
        compiled = loaded.compiled
        bound = bind(compiled.slots, compiled.args_bytes, self.program.types, args, compiled.local_bytes,
                     read_only_ok="access" in extra, no_write=self._no_write,
                     written=self._written_parameters() if "races" in extra else None)
        check_constant_arguments(self.name, resources.constant_bytes, bound.constant_bytes)
        program = self.program
        # Device-side enqueue: the children run once this launch is over, until none is left
        # (runtime/device_queue.py); the call returns when the last descendant has finished.
        deadline = None if timeout is None else time.monotonic() + float(timeout)
        with program._launch_queue(self.name, bound.block, compiled.slots) as queue:
            found = launch(loaded, ndrange, bound, program._globals_block(compiled), timeout, self.name,
                           locate=lambda: self._launch_object(report_mode, size, images=images), printf=printf,
                           sub_group_size=sub_group_size, device_queue=queue, report=report)
            if queue is not None:
                queue.drain(functools.partial(program._run_enqueued, queue, mode, printf, sub_group_size), deadline)
        return found if report else None

    def __repr__(self):
        params = ", ".join(f"{a.type} {a.name}" for a in self.args)
        return f"<spirvkit.Kernel {self.name}({params})>"


def _is_report(mode: str) -> bool:
    """A report-mode build (re-running a faulting group), with or without checks beyond bounds."""
    return mode.partition("+")[0] == "report"


def _no_write_parameters(module: Module, fn) -> frozenset:
    """Parameters decorated ``FuncParamAttr NoWrite`` (the kernel promises not to write through
    them: llvm-spirv marks ``const restrict`` pointers so)."""
    no_write = FUNC_PARAM_ATTR.NoWrite
    return frozenset(i for i, param in enumerate(fn.parameters)
                     if any(d.name == "FuncParamAttr" and d.operands[0] == no_write
                            for d in module.decorations(param.words[2])))


def _declares_access(infos: list[ArgInfo], args: tuple) -> bool:
    """Whether a buffer is declared read_only() or write_only(), or a read-only numpy array is
    passed for a pointer the kernel may write through (the access check's business)."""
    return any(declares_access(value) and not (isinstance(value, np.ndarray) and info.address_space == "constant")
               for info, value in zip(infos, args))


def _sub_group_size(value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise KernelArgumentError(f"sub_group_size must be a positive integer, got {value!r}")
    return int(value)


def _load(source) -> tuple[Module, bytes]:
    if isinstance(source, Module):
        return source, source.to_bytes()
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        return Module.from_bytes(data), data
    if isinstance(source, str) and ("\n" in source or ("kernel" in source and "(" in source)):
        # OpenCL C source text: compiled on the fly (a path never holds a newline or "(").
        from .clc.compiler import compile_cl
        data = compile_cl(source, "-g", filename="<source>")   # OpLine: findings and faults are located
        return Module.from_bytes(data), data
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        data = read_input(path)
        if path.suffix == ".cl":
            from .clc.compiler import compile_cl
            data = compile_cl(data.decode("utf-8", "surrogateescape"), "-g", filename=str(path))
        return Module.from_bytes(data), data
    raise SpirvkitError(f"Program takes SPIR-V bytes, a spirvkit.Module or a path, not {type(source).__name__}")


def _arg_infos(program: Program, name: str, fn) -> list[ArgInfo]:
    module, types = program.module, program.types
    declared = _kernel_arg_strings(module, "kernel_arg_type", name) or []
    qualifiers = _kernel_arg_strings(module, "kernel_arg_type_qual", name)
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
        quals = qualifiers[i] if qualifiers is not None and i < len(qualifiers) else None
        infos.append(ArgInfo(i, pname, type_name, space, size, quals))
    return infos


def _kernel_arg_strings(module: Module, what: str, name: str) -> list[str] | None:
    """The per-parameter strings of the ``<what>.<kernel>.<s1>,<s2>,`` OpString that OpenCL C
    compilers leave in the module for clang's kernel argument metadata (``kernel_arg_type``,
    ``kernel_arg_type_qual``); None when the module has none."""
    prefix = f"{what}.{name}."
    for inst in module.section("debug"):
        if inst.opcode == OP.String:
            text = inst.value(1)
            if text.startswith(prefix):
                items = text[len(prefix):].split(",")
                return items[:-1] if items and items[-1] == "" else items
    return None
