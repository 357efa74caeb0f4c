"""The native CPU target: LLVM initialisation, optimisation, object code and loading.

This is the one place that knows the JIT runs on the host CPU; a second backend (NVPTX) would
be a sibling of this module with the same three operations: ``describe``, ``compile_ir`` and
``load``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import threading

import llvmlite
import llvmlite.binding as llvm

from ..errors import SpirvkitError

_lock = threading.Lock()


class CompileError(SpirvkitError):
    """LLVM rejected the code spirvkit generated: a bug in spirvkit, reported with context."""


@functools.cache
def _initialise() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    # Math routines (sinf, tan, ...) are called from the JIT'd code: make libm's symbols
    # visible to the loader whatever the Python binary itself links.
    for lib in ("m", "gcc_s", "c"):   # libgcc_s: half-precision conversion helpers (__truncsfhf2 ...)
        path = ctypes.util.find_library(lib)
        if path:
            llvm.load_library_permanently(path)


@functools.cache
def target_machine():
    """The compiling target machine (shared; never handed to an execution engine)."""
    return _new_target_machine()


def _new_target_machine():
    _initialise()
    target = llvm.Target.from_triple(triple())
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(),
                                        features=llvm.get_host_cpu_features().flatten(),
                                        opt=3, reloc="pic", codemodel="jitdefault")


@functools.cache
def triple() -> str:
    _initialise()
    return llvm.get_process_triple()


@functools.cache
def describe() -> dict:
    """What a compiled object depends on (part of the kernel cache key)."""
    _initialise()
    return {"triple": triple(), "cpu": llvm.get_host_cpu_name(),
            "features": llvm.get_host_cpu_features().flatten(), "llvmlite": llvmlite.__version__}


@functools.cache
def function_attributes() -> tuple[str, ...]:
    """LLVM function attributes for code on this CPU. With AVX-512, LLVM still prefers
    256-bit vectors unless told otherwise; work-item loops with bounds checks (64-bit index
    arithmetic per lane) ran up to 10% faster with full-width vectors."""
    features = llvm.get_host_cpu_features()
    if features.get("avx512f") and features.get("avx512bw") and features.get("avx512vl"):
        return ('"prefer-vector-width"="512"',)
    return ()


@functools.cache
def target_data():
    # One instance for the process: llvmlite disposes a TargetData when its wrapper dies.
    return target_machine().target_data


def compile_ir(ir_text: str) -> bytes:
    """Verifies and optimises LLVM IR text; returns a relocatable object file."""
    tm = target_machine()
    with _lock:   # LLVM's global state (parsing contexts, pass registries) is not thread-safe
        try:
            mod = llvm.parse_assembly(ir_text)
            mod.verify()
        except RuntimeError as exc:
            raise CompileError(f"internal error: spirvkit generated invalid LLVM IR: {exc}") from None
        pto = llvm.create_pipeline_tuning_options(speed_level=3)
        pto.loop_vectorization = True
        pto.slp_vectorization = True
        pto.loop_unrolling = True
        pb = llvm.create_pass_builder(tm, pto)
        pb.getModulePassManager().run(mod, pb)
        return tm.emit_object(mod)


class LoadedObject:
    """An object file linked into the process; symbol addresses stay valid while it lives."""

    def __init__(self, obj: bytes):
        tm = _new_target_machine()   # the engine takes ownership of its target machine
        with _lock:
            self.engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), tm)
            objref = llvm.ObjectFileRef.from_data(obj)
            self.engine.add_object_file(objref)
            objref._owned = True   # the engine took the object file over: do not free it twice
            self.engine.finalize_object()

    def global_address(self, symbol: str) -> int:
        return self.engine.get_global_value_address(symbol)

    def address(self, symbol: str) -> int:
        addr = self.engine.get_function_address(symbol)
        if not addr:
            raise CompileError(f"internal error: symbol {symbol} missing from the compiled kernel")
        return addr
