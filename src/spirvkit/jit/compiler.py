"""SPIR-V kernel -> native code, with the facts the runtime needs to launch it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..errors import NotSupportedError, SpirvkitError
from ..spirv.module import Module
from . import target
from .block_literal import enqueue_targets, mark_invariant_literal
from .image_launch import LaunchImages
from .inline_sync import inline_sync_calls
from .kernel import ArgSlot, KernelBuilder, kernel_body
from .lowering import ModuleLowering, Site, functions_with_barriers
from .private_shadows import calls_to_inline


@dataclass
class CompiledKernel:
    name: str
    object: bytes
    mode: str                             # 'checked', 'unchecked' or 'report' (see compile_kernel),
                                          # '+check,...': with checks beyond bounds
    slots: list[ArgSlot]
    args_bytes: int
    has_barriers: bool
    sites: list[Site]
    local_bytes: int                      # work-group variables (before __local arguments)
    globals_bytes: int                    # program-scope variables
    global_init: list[tuple[int, bytes]] = field(default_factory=list)
    frame_bytes: int = 0                  # per work-item record of a region-split kernel
    constants: dict[str, str] = field(default_factory=dict)   # program-scope __constant symbols
    local_size: tuple | None = None       # compiled for this local size only (uniform NDRanges)
    printf: list = field(default_factory=list)   # printf sites: {"format", "args"} (runtime/printf.py)
    global_relocs: list = field(default_factory=list)   # (at, pointer size, target offset) in the globals
    store_only: list = field(default_factory=list)   # parameters whose buffers keep compact race records

    def metadata(self) -> dict:
        return {
            "name": self.name, "mode": self.mode, "args_bytes": self.args_bytes,
            "has_barriers": self.has_barriers, "local_bytes": self.local_bytes,
            "globals_bytes": self.globals_bytes,
            "global_init": [(at, data.hex()) for at, data in self.global_init], "frame_bytes": self.frame_bytes,
            "constants": self.constants, "local_size": self.local_size,
            "slots": [s.to_json() for s in self.slots], "sites": [asdict(s) for s in self.sites],
            "printf": self.printf, "global_relocs": self.global_relocs, "store_only": self.store_only,
        }

    @classmethod
    def from_metadata(cls, meta: dict, obj: bytes) -> CompiledKernel:
        return cls(meta["name"], obj, meta["mode"], [ArgSlot(**s) for s in meta["slots"]], meta["args_bytes"],
                   meta["has_barriers"], [Site(**s) for s in meta["sites"]], meta["local_bytes"],
                   meta["globals_bytes"], [(at, bytes.fromhex(h)) for at, h in meta["global_init"]],
                   meta["frame_bytes"], meta["constants"],
                   tuple(meta["local_size"]) if meta.get("local_size") else None, meta.get("printf", []),
                   [tuple(r) for r in meta.get("global_relocs", [])], meta.get("store_only", []))


def check_kernel_module(module: Module) -> None:
    """The execution environment the executor implements: Kernel entry points, physical
    addressing, the OpenCL memory model."""
    if module.memory_model not in ("OpenCL", None):
        raise NotSupportedError(f"memory model {module.memory_model} (the CPU executor runs OpenCL kernels)")
    if module.addressing_model not in ("Physical64", "Physical32", None):
        raise NotSupportedError(f"addressing model {module.addressing_model} (kernels use Physical32/64)")


def lower_kernel(module: Module, name: str, checked: bool, spec_values: dict | None = None,
                 report_faults: bool = False, local_size: tuple | None = None, guards: bool = True,
                 compact: bool = False, images: tuple | None = None, checks: frozenset = frozenset()):
    """The LLVM module (as text) and the kernel facts, before native compilation. ``guards``:
    give checked work-item loops their group guards (jit/access_guard.py), which cost compile
    time (a second copy of the loops) and pay off on launches with many work-groups.
    ``compact``: the least code to compile (a region kernel's work-item loops call each region
    rather than inlining it: one copy of each region instead of two). ``images``: the formats
    and samplers of a launch to compile for (jit/image_launch.py; None: any)."""
    check_kernel_module(module)
    entry = module.entry_point(name)
    if entry is None or entry.execution_model != "Kernel":
        kernels = [e.name for e in module.entry_points if e.execution_model == "Kernel"]
        raise SpirvkitError(f"no kernel named {name!r}; the module's kernels: {', '.join(kernels) or 'none'}")
    # Synchronisation in called functions: those calls are inlined first (see inline_sync); in
    # checked mode, so are calls that may read pointers kept in a caller's private struct or
    # block literal, whose bounds only the caller's body knows (private_shadows).
    if not checks - {"bounds"}:   # a wait synchronises only for the checks (collectives.without_waits)
        from .collectives import without_waits

        module = without_waits(module)
    inlined = functions_with_barriers(module) | (calls_to_inline(module) if checked else set())
    if "uninitialized" in checks:   # values keep their shadows through calls (check_uninit.py)
        from .check_uninit import functions_to_inline

        inlined |= functions_to_inline(module)
    module = inline_sync_calls(module, kernel_body(module, entry.function), inlined)
    ml = ModuleLowering(module, target.target_data(), target.triple(), checked, spec_values, report_faults,
                        local_size, target.function_attributes(), guards, compact)
    if checks - {"bounds"}:   # the dynamic checks beyond bounds (check_passes.py)
        from .check_passes import CheckPasses

        ml.check_passes = CheckPasses(ml, frozenset(checks))
    if images:
        ml.image_launch = LaunchImages(images, ml.types[ml.spv_functions[entry.function].function_type].params)
    kb = KernelBuilder(ml, entry.function)
    if ml.check_passes is not None:
        ml.check_passes.kernel_params = len(kb.slots)   # the access check's read-only words
        ml.check_passes.kernel_function = kb.spv_fn     # what the races check scans for fences
    kb.build()
    body = ml.llvm.globals.get("spirvkit_body")
    if body is not None and kb.slots and enqueue_targets(module) & {entry.function, kb.spv_fn.id}:
        # A block enqueued on the device: its literal's loads are invariant (block_literal.py).
        mark_invariant_literal(ml, body, body.args[7])
    return ml.llvm_text(), ml, kb


MODES = ("checked", "unchecked", "report")


def compile_kernel(module: Module, name: str, mode: str = "checked", spec_values: dict | None = None,
                   local_size: tuple | None = None, pipeline: str = "optimized",
                   images: tuple | None = None) -> CompiledKernel:
    """``mode``: 'checked' (bounds checks raise a flag: fast), 'unchecked' (no checks) or
    'report' (checks that record exactly where a fault happened: used to re-run a group).
    ``local_size``: compile for launches whose every group has this size (None: any).
    ``pipeline``: one of ``target.PIPELINES``: 'optimized' (tier 2, O3) or the tier-1 'quick' /
    'quick-large' / 'quick-vector' pipelines of the first launch (same results, cheaper to
    compile). Group guards (jit/access_guard.py) double the work-item loops: they are built for
    the optimised tier and for large first launches ('quick-large'), where their run-time gain
    outweighs their compile time; the small first launches ('quick') get compact code.
    ``images``: compile for a launch's image formats and samplers (jit/image_launch.py)."""
    from .check_passes import mode_checks

    base, checks = mode_checks(mode)   # 'checked+barriers,pointers': the checks beyond bounds
    checked = base != "unchecked"
    ir_text, ml, kb = lower_kernel(module, name, checked, spec_values, report_faults=base == "report",
                                   local_size=local_size, guards=pipeline in ("optimized", "quick-large"),
                                   compact=pipeline == "quick", images=images, checks=checks)
    obj = target.compile_ir(ir_text, pipeline)
    races = ml.check_passes.races if ml.check_passes is not None else None
    return CompiledKernel(name, obj, mode, kb.slots, kb.args_bytes, kb.has_barriers, ml.sites,
                          ml.layout.local_bytes, ml.layout.globals_bytes, ml.layout.global_init, kb.frame_bytes,
                          ml.constant_names, ml.local_size, ml.printf_sites, ml.layout.global_relocs,
                          sorted(races.store_only) if races is not None else [])
