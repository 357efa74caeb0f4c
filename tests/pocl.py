"""Running OpenCL C on PoCL's CPU device through pyopencl: the reference side of the
executor's differential tests (tests/jit/test_kernel_corpus.py).

PoCL comes from the test extras (``pyopencl`` + ``pocl-binary-distribution``). A test that
needs it skips when it is missing and says which peer; under CI (``CI=true``) a missing peer is
a failure instead, so CI can never go green by skipping the comparisons (as tests/peers.py).

    outputs = pocl.run(path_or_source, "kernel", global_size, local_size,
                       [array, pocl.Local(256), np.int32(3), pocl.Value(raw_bytes)],
                       options="-cl-std=CL2.0", global_offset=None)

Arguments, in kernel-parameter order:

- a numpy array: a ``__global`` / ``__constant`` buffer, initialised from the array; its
  contents after the launch are returned at the same position of the result list;
- ``Local(nbytes)``: a ``__local`` pointer parameter;
- a numpy scalar: a by-value scalar;
- ``Value(data)``: any other by-value argument (vector, struct) as raw bytes in the device
  layout (a 3-wide vector takes 4 elements' room).

The result list has a numpy array for every buffer argument and ``None`` elsewhere. The
context and queue are made once per session, and so is each program (per source and options)
unless ``fresh_program=True``: a source with program-scope ``__global`` variables that kernels
modify needs a fresh program per launch so they start from their initialisers.
"""

from __future__ import annotations

import functools
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest


def _missing(what: str):
    message = f"peer not installed: {what} (install the test extras: pip install -e '.[test]')"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@dataclass(frozen=True)
class Local:
    """A ``__local`` pointer argument of ``nbytes`` bytes."""

    nbytes: int


@dataclass(frozen=True)
class Value:
    """A by-value argument given as raw bytes (vectors, structs)."""

    data: bytes


class _Device:
    def __init__(self, cl, context, queue):
        self.cl = cl
        self.context = context
        self.queue = queue
        self.device = context.devices[0]


@functools.cache
def _find_device() -> _Device | str:
    """The PoCL CPU device, or a message saying what is missing (not cached as an exception,
    so that every test skips with the message)."""
    try:
        import pyopencl as cl
    except ImportError:
        return "pyopencl (Python OpenCL bindings)"
    try:
        platforms = cl.get_platforms()
    except cl.Error:
        platforms = []
    for platform in platforms:
        if "Portable Computing Language" not in platform.name and "pocl" not in platform.name.lower():
            continue
        for device in platform.get_devices():
            # PoCL 3.x calls its CPU device "pthread-<cpu>", PoCL >= 4 "cpu-<arch>-...".
            if device.name.startswith(("pthread", "cpu")):
                context = cl.Context([device])
                return _Device(cl, context, cl.CommandQueue(context))
    return "the PoCL OpenCL platform with its CPU device (pocl-binary-distribution)"


def device():
    """The session's PoCL (context, queue, device) holder; skips (fails under CI) if absent."""
    found = _find_device()
    if isinstance(found, str):
        _missing(found)
    return found


def extensions() -> set[str]:
    return set(device().device.extensions.split())


def supports_non_uniform_work_groups() -> bool:
    """OpenCL 2.0 non-uniform work-groups (global size not a multiple of the local size);
    optional in OpenCL 3.0, and PoCL 3.0's CPU device does not have them."""
    dev = device()
    try:
        return bool(dev.device.get_info(dev.cl.device_info.NON_UNIFORM_WORK_GROUP_SUPPORT))
    except (AttributeError, dev.cl.Error):
        return dev.device.version.startswith("OpenCL 2.")


def _sizes(size) -> tuple[int, ...] | None:
    if size is None:
        return None
    if isinstance(size, int | np.integer):
        return (int(size),)
    return tuple(int(s) for s in size)


_PROGRAMS: dict[tuple[str, str], object] = {}
SESSION_RESULTS: dict[str, list] = {}   # reference outputs by case, for every test module


def build(source: str, options: str = "", *, reuse: bool = True):
    """A built PoCL program. With ``reuse`` the session keeps one program per (source, options);
    sources whose program-scope ``__global`` variables a launch changes need a fresh one."""
    dev = device()
    key = (source, options)
    if reuse and key in _PROGRAMS:
        return _PROGRAMS[key]
    with warnings.catch_warnings():
        # pyopencl warns with the build log when the compiler printed anything at all.
        warnings.simplefilter("ignore")
        program = dev.cl.Program(dev.context, source).build(options=options)
    if reuse:
        _PROGRAMS[key] = program
    return program


def run(source: str | Path, kernel: str, global_size, local_size, args, *, options: str = "",
        global_offset=None, fresh_program: bool = False) -> list[np.ndarray | None]:
    """Build ``source`` (OpenCL C text, or a path to a .cl file) on PoCL, launch ``kernel``
    once and return the contents of every buffer argument afterwards. ``fresh_program``
    builds a new program (program-scope variables back at their initialisers) instead of
    reusing the session's."""
    dev = device()
    cl = dev.cl
    if isinstance(source, Path):
        source = source.read_text(encoding="utf-8")
    program = build(source, options, reuse=not fresh_program)
    knl = cl.Kernel(program, kernel)
    mf = cl.mem_flags
    cl_args, buffers = [], []
    for index, arg in enumerate(args):
        if isinstance(arg, np.ndarray) and arg.ndim > 0:
            host = np.ascontiguousarray(arg)
            if host.nbytes == 0:
                raise ValueError(f"argument {index}: empty buffer")
            buf = cl.Buffer(dev.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
            cl_args.append(buf)
            buffers.append((index, buf, host))
        elif isinstance(arg, Local):
            cl_args.append(cl.LocalMemory(arg.nbytes))
        elif isinstance(arg, Value):
            cl_args.append(np.frombuffer(arg.data, dtype=np.uint8))
        elif isinstance(arg, np.ndarray):  # 0-d (e.g. a structured scalar): raw bytes by value
            cl_args.append(np.frombuffer(arg.tobytes(), dtype=np.uint8))
        elif isinstance(arg, np.generic):
            cl_args.append(arg)
        else:
            raise TypeError(f"argument {index}: unsupported PoCL argument {arg!r}")
    knl.set_args(*cl_args)
    cl.enqueue_nd_range_kernel(dev.queue, knl, _sizes(global_size), _sizes(local_size),
                               global_work_offset=_sizes(global_offset))
    results: list[np.ndarray | None] = [None] * len(args)
    for index, buf, host in buffers:
        out = np.empty_like(host)
        cl.enqueue_copy(dev.queue, out, buf)
        results[index] = out
    dev.queue.finish()
    return results
