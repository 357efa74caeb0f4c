"""The native CPU target: LLVM initialisation, optimisation, object code and loading.

This is the one place that knows the JIT runs on the host CPU; a second backend (NVPTX) would
be a sibling of this module with the same three operations: ``describe``, ``compile_ir`` and
``load``.

Optimisation pipelines (``compile_ir(text, pipeline)``), the executor's two tiers:

* ``"quick"`` (tier 1, the first launch): the always-inliner (LLVM's O0 module pipeline),
  then LLVM's O1 *function simplification* pipeline on every function (SROA, early CSE,
  instcombine, simplifycfg, LICM, loop rotation, induction variables, ...): no loop vectoriser,
  no unrolling; code generation at opt level 1. A few to a few tens of ms.
* ``"quick-large"``: the same LLVM pipeline, for a first launch with many work-items (the host
  API's choice; the lowering may spend more on such a launch, e.g. on group guards).
* ``"quick-vector"`` (tier 1 for a large first launch of a kernel whose inner loops are turned
  inside out): LLVM's whole O1 pipeline with the loop vectoriser but no unrolling or
  interleaving; codegen opt level 1. Roughly 2-3x the cost of ``"quick"``, and within a few % of
  O3's run time on such kernels.
* ``"optimized"`` (tier 2): O3 with loop and SLP vectorisation and unrolling, codegen opt level 3.

None of them uses fast-math flags (the IR carries none), so every pipeline computes bit-identical
results; they differ in speed only.

Background compiles (``submit``): one worker thread runs tier-2 builds queued by the host API.
All LLVM work, foreground or background, is serialised on ``_lock`` (llvmlite drives LLVM's
global context); a background build takes the lock once per step (parse, optimise, emit, load)
and lets a waiting foreground compile go first between steps, so a first launch never waits for
more than one step of someone else's O3 build. The worker is a non-daemon thread that is told
to stop (through ``threading._register_atexit``) before the interpreter joins it at exit: it
finishes the step it is in, abandons the rest, and exits, so an exiting process never tears
LLVM down under a running compile (no crash) and never waits for a whole queue of builds (no
hang).
"""

from __future__ import annotations

import atexit
import collections
import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import functools
import os
import queue
import threading

import llvmlite
import llvmlite.binding as llvm

from ..errors import SpirvkitError
from .unmask import unmask

_lock = threading.Lock()   # every LLVM operation of spirvkit runs holding it

PIPELINES = ("quick", "quick-large", "quick-vector", "optimized")

# Compilations run so far, by pipeline ('background' counts the optimized ones run by the worker).
stats: collections.Counter = collections.Counter()


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


@functools.cache
def _quick_target_machine():
    """The target machine of the tier-1 pipelines: code generation at opt level 1 (greedy
    register allocation, SelectionDAG) costs a third of level 3 and runs about as fast here."""
    return _new_target_machine(opt=1)


def _new_target_machine(opt: int = 3):
    _initialise()
    target = llvm.Target.from_triple(triple())
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(),
                                        features=llvm.get_host_cpu_features().flatten(),
                                        opt=opt, reloc="pic", codemodel="jitdefault")


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


# ------------------------------------------------------------------------------------------------
# Serialising LLVM work: foreground first, background step by step, nothing once the process exits
# ------------------------------------------------------------------------------------------------

_state = threading.local()          # .background: this thread is the background worker
_waiting_lock = threading.Lock()
_foreground_waiting = 0
_foreground_idle = threading.Event()
_foreground_idle.set()
_closing = False


class BuildStopped(CompileError):
    """A background build abandoned because the interpreter is exiting (not a failure)."""


class _Closing(BaseException):
    """The interpreter is exiting: a background build stops at its next step. (A BaseException:
    no ``except Exception`` on the way may swallow it.)"""


@contextlib.contextmanager
def foreground():
    """Marks work a caller waits for (a first launch: Program setup, lowering, the tier-1
    compile): while any is in progress, the background worker does not start its next LLVM step.
    (Lowering queries LLVM outside ``_lock``, through llvmlite, which serialises every call on a
    lock of its own: a background step in progress would hold those queries up for its whole
    length.) A no-op in the worker itself."""
    global _foreground_waiting
    if getattr(_state, "background", False):
        yield
        return
    with _waiting_lock:
        _foreground_waiting += 1
        _foreground_idle.clear()
    try:
        yield
    finally:
        with _waiting_lock:
            _foreground_waiting -= 1
            if not _foreground_waiting:
                _foreground_idle.set()


def _wait_for_foreground() -> None:
    """(Background worker) Waits until no foreground work is in progress; stops once the process
    exits."""
    while not _foreground_idle.wait(0.05):
        if _closing:
            raise _Closing
    if _closing:
        raise _Closing


@contextlib.contextmanager
def _llvm_step():
    """Holds ``_lock`` for one step of LLVM work. In the background worker: first waits until no
    foreground work is in progress, and stops the build (``_Closing``) once the process exits."""
    if getattr(_state, "background", False):
        _wait_for_foreground()
        _lock.acquire()
        if _closing:
            _lock.release()
            raise _Closing
        try:
            yield
        finally:
            _lock.release()
    else:
        with foreground(), _lock:
            yield


# ------------------------------------------------------------------------------------------------
# Compiling
# ------------------------------------------------------------------------------------------------

def _parse(ir_text: str):
    try:
        mod = llvm.parse_assembly(ir_text)
        mod.verify()
    except RuntimeError as exc:
        raise CompileError(f"internal error: spirvkit generated invalid LLVM IR: {exc}") from None
    return mod


def _optimise(mod, tm, pipeline: str) -> None:
    if pipeline == "optimized":
        pto = llvm.create_pipeline_tuning_options(speed_level=3)
        pto.loop_vectorization = True
        pto.slp_vectorization = True
        pto.loop_unrolling = True
        pb = llvm.create_pass_builder(tm, pto)
        pb.getModulePassManager().run(mod, pb)
    elif pipeline == "quick-vector":
        pto = llvm.create_pipeline_tuning_options(speed_level=1)
        pto.loop_vectorization = True
        pto.slp_vectorization = False
        pto.loop_unrolling = False
        pto.loop_interleaving = False
        pb = llvm.create_pass_builder(tm, pto)
        pb.getModulePassManager().run(mod, pb)
    elif pipeline in ("quick", "quick-large"):
        # O0's module pipeline: the always-inliner (work-item bodies into their loops); then O1's function
        # simplification on each function, without O1's module-level loop vectoriser, unroller
        # and inliner (half of O1's time).
        pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=0))
        pb.getModulePassManager().run(mod, pb)
        simplify = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=1))
        fpm = simplify.getFunctionPassManager()
        for fn in mod.functions:
            if not fn.is_declaration:
                fpm.run(fn, simplify)
    else:
        raise ValueError(f"unknown pipeline {pipeline!r} (one of {', '.join(PIPELINES)})")


def _unmasked(mod):
    """The optimised module with its masked vector loads and stores versioned (unmask.py); the
    module itself when it has none (told by its declarations: printing it costs a tier-1 build)."""
    if not any(fn.name.startswith(("llvm.masked.load.", "llvm.masked.store.")) for fn in mod.functions):
        return mod
    text = str(mod)
    versioned = unmask(text)
    if versioned is text:
        return mod
    try:
        rewritten = llvm.parse_assembly(versioned)
        rewritten.verify()
    except RuntimeError:     # a form unmask.py misread (a bug): the masked code is only slower,
        stats["unmask-rejected"] += 1    # so it runs; the tests check this count stays 0
        return mod
    mod.close()
    return rewritten


def compile_ir(ir_text: str, pipeline: str = "optimized") -> bytes:
    """Verifies and optimises LLVM IR text with one of ``PIPELINES``; returns a relocatable
    object file. In the background worker, each step takes the LLVM lock on its own."""
    if pipeline not in PIPELINES:
        raise ValueError(f"unknown pipeline {pipeline!r} (one of {', '.join(PIPELINES)})")
    tm = target_machine() if pipeline == "optimized" else _quick_target_machine()
    if getattr(_state, "background", False):
        stats["background"] += 1
        with _llvm_step():
            mod = _parse(ir_text)
        with _llvm_step():
            _optimise(mod, tm, pipeline)
            mod = _unmasked(mod)
        with _llvm_step():
            obj = tm.emit_object(mod)
            mod.close()
    else:
        with _llvm_step():
            mod = _parse(ir_text)
            _optimise(mod, tm, pipeline)
            mod = _unmasked(mod)
            obj = tm.emit_object(mod)
            mod.close()
    stats[pipeline] += 1
    return obj


class LoadedObject:
    """An object file linked into the process; symbol addresses stay valid while it lives."""

    def __init__(self, obj: bytes):
        tm = _new_target_machine()   # the engine takes ownership of its target machine
        with _llvm_step():
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


# ------------------------------------------------------------------------------------------------
# The background worker
# ------------------------------------------------------------------------------------------------

_queue: queue.SimpleQueue = queue.SimpleQueue()
_worker: threading.Thread | None = None
_worker_lock = threading.Lock()
_pending: list = []                 # [future, fn] of the jobs not finished yet (in order)


def submit(fn) -> concurrent.futures.Future:
    """Runs ``fn()`` in the background worker (after the jobs queued before it); its result or
    exception lands in the returned future. A job that the exiting interpreter stopped is
    cancelled."""
    future: concurrent.futures.Future = concurrent.futures.Future()
    if _closing:
        future.cancel()
        return future
    job = [future, fn]
    with _worker_lock:
        _pending.append(job)
        _start_worker()
    _queue.put(job)
    return future


def _start_worker() -> None:
    global _worker
    if _worker is None or not _worker.is_alive():
        _worker = threading.Thread(target=_work, name="spirvkit-optimiser", daemon=False)
        _worker.start()


def _work() -> None:
    _state.background = True
    while True:
        job = _queue.get()
        if job is None or _closing:
            break
        future, fn = job
        # (A job re-queued in a forked child may already be marked running.)
        if not future.done() and (future.running() or future.set_running_or_notify_cancel()):
            try:
                _wait_for_foreground()   # (the job's lowering would slow a first launch down)
                result = fn()
            except _Closing:
                break
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
                future.set_exception(exc)
            else:
                future.set_result(result)
        with _worker_lock:
            if job in _pending:
                _pending.remove(job)
    # Stopping: what was not built fails with a clear reason (never an endless wait).
    with _worker_lock:
        left, _pending[:] = list(_pending), []
    for future, _fn in left:
        if not future.done():
            if future.running():
                future.set_exception(BuildStopped("the background build was stopped: the interpreter is exiting"))
            else:
                future.cancel()


def _stop_worker() -> None:
    """At interpreter exit, before non-daemon threads are joined: the worker finishes the LLVM
    step it is in and stops."""
    global _closing
    _closing = True
    _queue.put(None)


def pending_jobs() -> int:
    """How many background jobs are queued or running."""
    with _worker_lock:
        return len(_pending)


if hasattr(threading, "_register_atexit"):
    # Runs before the interpreter joins non-daemon threads (as concurrent.futures' workers do).
    threading._register_atexit(_stop_worker)
else:   # pragma: no cover - older interpreters: the join waits for the job in progress
    atexit.register(_stop_worker)


def _llvmlite_lock():
    """llvmlite's own lock, held around every call into LLVM (None if llvmlite changes)."""
    lock = getattr(getattr(llvm, "ffi", None), "lib", None)
    lock = getattr(lock, "_lock", None)
    return lock if hasattr(lock, "__enter__") and hasattr(lock, "__exit__") else None


def _before_fork() -> None:
    # No LLVM step of the worker half done, and no LLVM call of any thread in progress, in the
    # child (whose copies of those locks would otherwise stay held by a thread it does not have).
    _lock.acquire()
    llvmlite_lock = _llvmlite_lock()
    if llvmlite_lock is not None:
        llvmlite_lock.__enter__()


def _release_after_fork() -> None:
    llvmlite_lock = _llvmlite_lock()
    if llvmlite_lock is not None:
        llvmlite_lock.__exit__(None, None, None)
    _lock.release()


def _after_fork_in_parent() -> None:
    _release_after_fork()


def _after_fork_in_child() -> None:
    # The worker thread does not exist in the child: start a new one for the jobs that were
    # queued. (Locks another thread may have held at the fork are made anew.)
    global _worker, _queue, _worker_lock, _waiting_lock, _foreground_waiting, _foreground_idle
    _release_after_fork()
    _worker, _queue = None, queue.SimpleQueue()
    _worker_lock, _waiting_lock = threading.Lock(), threading.Lock()
    _foreground_waiting = 0
    _foreground_idle = threading.Event()
    _foreground_idle.set()
    if _pending and not _closing:
        with _worker_lock:
            _start_worker()
        for job in _pending:
            _queue.put(job)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                        after_in_child=_after_fork_in_child)
