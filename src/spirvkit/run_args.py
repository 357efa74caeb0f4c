"""Kernel arguments written as text (``spirvkit run --arg ...``) and summaries of results.

Argument forms, one ``--arg`` per kernel parameter, in order:

- ``file.npy``                         an array loaded from a .npy file
- ``zeros:N``, ``ones:N``, ``range:N``  generated arrays of N elements (``range`` = 0, 1, 2 ...)
- ``random:N[:SEED]``                  uniform [0, 1) floats or [0, 100) integers, seeded (default 0)
- ``full:N:VALUE``                     N copies of VALUE
- ``local:NBYTES``                     a ``__local`` buffer
- ``5``, ``-2``, ``0.25``              a by-value scalar
- ``1,2,3,4``                          a by-value vector
- ``image2d:RGBA:UNORM_INT8:SOURCE``   an image (``image1d``, ``image1d_buffer``, ``image1d_array``,
                                       ``image2d``, ``image2d_array``, ``image3d``; the channel order and
                                       type as the OpenCL names without ``CL_``); SOURCE is a .npy file or
                                       a generator whose shape is the image's array shape, e.g.
                                       ``image2d:RGBA:FLOAT:zeros:64x64x4`` (see ``spirvkit.Image``)
- ``sampler:norm,REPEAT,LINEAR``        a sampler: ``norm`` or ``unnorm``, an addressing mode (NONE,
                                       CLAMP_TO_EDGE, CLAMP, REPEAT, MIRRORED_REPEAT), a filter mode
                                       (NEAREST, LINEAR)
- ``pipe:DTYPE:MAX_PACKETS[:SOURCE]``   a pipe of MAX_PACKETS packets of DTYPE (a numpy type name), empty
                                       or holding SOURCE's elements (a .npy file or a generator, e.g.
                                       ``pipe:int32:64:range:16``); the readable packets are reported
- ``queue``                             a device queue for a ``queue_t`` parameter (``spirvkit.DeviceQueue``)
- ``ro:SPEC``, ``wo:SPEC``              a buffer SPEC (a .npy file or a generator) declared read-only or
                                       write-only for the launch (``spirvkit.read_only`` / ``write_only``:
                                       the ``access`` check reports writes to it / reads of it)

A generated array's element type is the pointer parameter's pointee type (``float*`` ->
float32); append ``:DTYPE`` to choose another (``range:1024:int32``). N may be a shape:
``zeros:64x64``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .errors import KernelArgumentError
from .runtime.args import LocalMemory, scalar_dtype

_GENERATORS = ("zeros", "ones", "range", "random", "full")


def _shape(text: str, where: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(p) for p in text.lower().split("x"))
    except ValueError:
        raise KernelArgumentError(f"{where}: {text!r} is not a size (N or NxM)") from None
    if not shape or any(n < 0 for n in shape):
        raise KernelArgumentError(f"{where}: {text!r} is not a size")
    return shape


def _dtype(text: str, where: str):
    try:
        return np.dtype(text)
    except TypeError:
        raise KernelArgumentError(f"{where}: unknown element type {text!r}") from None


def default_dtype(program, kernel, index: int):
    """The numpy dtype of a pointer parameter's pointee (float32 when it cannot tell)."""
    fn_type = program.types[kernel._spv_fn.function_type]
    t = fn_type.params[index]
    elem = t.elem if t.kind == "pointer" else t
    if elem is not None and elem.kind == "vector":
        elem = elem.elem
    dtype = scalar_dtype(elem) if elem is not None else None
    return np.dtype(dtype) if dtype is not None else np.dtype(np.float32)


def parse_arg(spec: str, program, kernel, index: int):
    """The host value for parameter ``index`` written as ``spec``."""
    info = kernel.args[index]
    where = f"--arg {index + 1} ({info.name})"
    declared = spec[:3].lower()
    if declared in ("ro:", "wo:"):
        from .runtime.args import read_only, write_only

        value = parse_arg(spec[3:], program, kernel, index)
        if not isinstance(value, np.ndarray) or info.address_space not in ("global", "constant"):
            raise KernelArgumentError(f"{where}: {declared} declares the access of a __global or __constant "
                                      f"buffer (a .npy file or a generator), not of {spec[3:]!r}")
        return read_only(value) if declared == "ro:" else write_only(value)
    if spec.lower().startswith("local:"):
        try:
            return LocalMemory(int(spec.split(":", 1)[1]))
        except ValueError:
            raise KernelArgumentError(f"{where}: local:NBYTES needs a number of bytes") from None
    head = spec.split(":", 1)[0].lower()
    if head.startswith("image"):
        return _image(spec, where)
    if head == "sampler":
        return _sampler(spec, where)
    if head == "pipe":
        return _pipe(spec, where)
    if spec == "queue":
        from .runtime.queue_arg import DeviceQueue
        return DeviceQueue()
    if head in _GENERATORS:
        return _generate(spec, where, default_dtype(program, kernel, index))
    if spec.endswith(".npy"):
        try:
            return np.ascontiguousarray(np.load(spec, allow_pickle=False))
        except (OSError, ValueError) as exc:
            raise KernelArgumentError(f"{where}: cannot load {spec}: {exc}") from None
    if info.address_space != "private":
        raise KernelArgumentError(f"{where} is a {info.address_space} pointer ({info.type}): give a .npy file, "
                                  f"a generator ({', '.join(g + ':N' for g in _GENERATORS)}) or local:NBYTES")
    return _literal(spec, where, default_dtype(program, kernel, index))


def _image(spec: str, where: str):
    from .runtime.images import CHANNEL_TYPES, Image

    parts = spec.split(":", 3)
    if len(parts) < 4:
        raise KernelArgumentError(f"{where}: an image is imageTYPE:ORDER:CHANNEL_TYPE:SOURCE, "
                                  f"e.g. image2d:RGBA:UNORM_INT8:file.npy")
    kind, order, ctype, source = parts
    if ctype not in CHANNEL_TYPES:
        raise KernelArgumentError(f"{where}: unknown channel type {ctype!r}; one of {', '.join(CHANNEL_TYPES)}")
    if source.split(":", 1)[0].lower() in _GENERATORS:
        data = _generate(source, where, np.dtype(CHANNEL_TYPES[ctype][0]))
    else:
        try:
            data = np.ascontiguousarray(np.load(source, allow_pickle=False))
        except (OSError, ValueError) as exc:
            raise KernelArgumentError(f"{where}: cannot load {source}: {exc}") from None
    try:
        return Image(data, order, ctype, image_type=kind[len("image"):].lower())
    except KernelArgumentError as exc:
        raise KernelArgumentError(f"{where}: {exc}") from None


def _sampler(spec: str, where: str):
    from .runtime.images import Sampler

    fields = spec.split(":", 1)[1].split(",") if ":" in spec else []
    if len(fields) != 3 or fields[0].lower() not in ("norm", "unnorm"):
        raise KernelArgumentError(f"{where}: a sampler is sampler:norm|unnorm,ADDRESSING,FILTER, "
                                  f"e.g. sampler:norm,REPEAT,LINEAR")
    try:
        return Sampler(fields[0].lower() == "norm", fields[1].upper(), fields[2].upper())
    except KernelArgumentError as exc:
        raise KernelArgumentError(f"{where}: {exc}") from None


def _pipe(spec: str, where: str):
    from .runtime.pipes import Pipe

    parts = spec.split(":", 3)
    if len(parts) < 3:
        raise KernelArgumentError(f"{where}: a pipe is pipe:DTYPE:MAX_PACKETS[:SOURCE], e.g. pipe:int32:64")
    dtype = _dtype(parts[1], where)
    try:
        pipe = Pipe(dtype, int(parts[2]))
        if len(parts) == 4:
            source = parts[3]
            if source.split(":", 1)[0].lower() in _GENERATORS:
                pipe.write(_generate(source, where, dtype))
            else:
                pipe.write(np.load(source, allow_pickle=False))
    except ValueError:
        raise KernelArgumentError(f"{where}: {parts[2]!r} is not a number of packets") from None
    except OSError as exc:
        raise KernelArgumentError(f"{where}: cannot load {parts[3]}: {exc}") from None
    except KernelArgumentError as exc:
        raise KernelArgumentError(f"{where}: {exc}") from None
    return pipe


def _generate(spec: str, where: str, dtype):
    parts = spec.split(":")
    kind = parts[0].lower()
    if len(parts) < 2:
        raise KernelArgumentError(f"{where}: {kind} needs a size, e.g. {kind}:1024")
    shape = _shape(parts[1], where)
    rest = parts[2:]
    value = seed = None
    if kind == "full":
        if not rest:
            raise KernelArgumentError(f"{where}: full:N:VALUE needs a value")
        value, rest = rest[0], rest[1:]
    if kind == "random" and rest and rest[0].isdigit():
        seed, rest = int(rest[0]), rest[1:]
    if rest:
        dtype = _dtype(rest[0], where)
    if kind == "zeros":
        return np.zeros(shape, dtype)
    if kind == "ones":
        return np.ones(shape, dtype)
    if kind == "range":
        return np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)
    if kind == "full":
        return np.full(shape, _number(value, where), dtype)
    rng = np.random.default_rng(seed or 0)
    if dtype.kind == "f":
        return rng.random(shape).astype(dtype)
    return rng.integers(0, 100, shape).astype(dtype)


def _number(text: str, where: str):
    try:
        return int(text, 0)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise KernelArgumentError(f"{where}: {text!r} is not a number") from None


def _literal(spec: str, where: str, dtype):
    if "," in spec:
        return np.array([_number(p, where) for p in spec.split(",")]).astype(dtype)
    return _number(spec, where)


def parse_sizes(text: str | None, what: str):
    if text is None:
        return None
    try:
        sizes = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise KernelArgumentError(f"{what} must be 1 to 3 comma-separated integers, got {text!r}") from None
    return sizes if len(sizes) > 1 else sizes[0]


def summarize(name: str, array: np.ndarray) -> str:
    flat = array.reshape(-1)
    head = np.array2string(flat[:8], precision=6, separator=", ", max_line_width=200)
    if flat.size > 8:
        head = head[:-1] + ", ...]"
    stats = ""
    if flat.size and array.dtype.kind in "iufb":
        with np.errstate(all="ignore"):
            stats = f" min {flat.min()} max {flat.max()} mean {flat.astype(np.float64).mean():.6g}"
    return f"{name}: {array.dtype}{list(array.shape)}{stats}\n  {head}"


def output_path(directory: str, index: int, name: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "_-" else "_" for c in name) or "arg"
    return Path(directory) / f"{index}_{safe}.npy"
