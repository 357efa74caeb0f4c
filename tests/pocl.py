"""PoCL's results for the executor's and the compiler's differential tests, from records.

PoCL cannot run on every machine (the pip wheel's LLVM 14 cannot build for newer CPUs, and
Debian's build crashes on some kernels), so its results are recorded once in
``tests/peers/records/`` (tests/peers/records.py) and this module reads them back; the pytest
process itself never loads an OpenCL driver. ``python -m tests.peers.record`` re-records them:
it runs the tests that use this module with ``SPIRVKIT_PEERS=record``, where every launch goes
to PoCL in a child process (tests/peers/pocl_client.py) and is written to a journal.

    outputs = pocl.run(path_or_source, "kernel", global_size, local_size,
                       [array, pocl.Local(256), np.int32(3), pocl.Value(raw_bytes)],
                       options="-cl-std=CL2.0", global_offset=None)

Arguments, in kernel-parameter order:

- a numpy array: a ``__global`` / ``__constant`` buffer, initialised from the array; its
  contents after the launch are returned at the same position of the result list;
- ``Local(nbytes)``: a ``__local`` pointer parameter;
- a numpy scalar: a by-value scalar;
- ``Value(data)``: any other by-value argument (vector, struct) as raw bytes in the device
  layout (a 3-wide vector takes 4 elements' room);
- ``Image(data, channel_order, channel_type, image_type)`` or a ``spirvkit.Image``: an image
  argument, made from ``data`` (shaped and typed as ``spirvkit.Image`` takes it; the names
  are the OpenCL ones without ``CL_``); its texels after the launch are returned, shaped as
  ``data``;
- ``Sampler(normalized, addressing, filter)`` or a ``spirvkit.Sampler``: a sampler argument.

The result list has a numpy array for every buffer and image argument and ``None`` elsewhere, and with
``capture_stdout=True`` the text the launch printed at the end. PoCL builds each (source,
options) once per recording session, unless ``fresh_program=True``: a source with program-scope
``__global`` variables that kernels modify needs a fresh program per launch so they start from
their initialisers.

A launch with no record (its source or inputs changed since recording) fails its test with the
command that records it; so does a launch PoCL could not do when it was recorded.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import spirvkit
from peers import records
from peers.pocl_client import PeerFailure, PoclClient
from peers.records import Launch

# How the tests reach PoCL: "auto" (the default: records; the live tests run where a PoCL
# works), "none" (as on a machine where no PoCL works: records, live tests skip) or "record"
# (set by the record command: every launch goes to the live PoCL and into the journal).
MODE = os.environ.get("SPIRVKIT_PEERS", "auto")  # checked in conftest.py


# Reference outputs by case, kept for the session by the test modules that share them (the
# kernel corpus is compared from tests/jit and tests/clc).
SESSION_RESULTS: dict[str, list] = {}


@dataclass(frozen=True)
class Local:
    """A ``__local`` pointer argument of ``nbytes`` bytes."""

    nbytes: int


@dataclass(frozen=True)
class Value:
    """A by-value argument given as raw bytes (vectors, structs)."""

    data: bytes


@dataclass(frozen=True, eq=False)
class Image:
    """An image argument: ``data`` as ``spirvkit.Image`` takes it (its shape gives the size;
    ``image_type`` defaults from it as there)."""

    data: np.ndarray
    channel_order: str = "RGBA"
    channel_type: str = "UNORM_INT8"
    image_type: str | None = None


@dataclass(frozen=True)
class Sampler:
    """A sampler argument, with the OpenCL names of the modes (``CLAMP_TO_EDGE``, ``LINEAR``)."""

    normalized: bool = False
    addressing: str = "CLAMP_TO_EDGE"
    filter: str = "NEAREST"


def _image_arg(image) -> tuple[str, dict]:
    """An image argument as the launch carries it, checked by spirvkit.Image's constructor."""
    if isinstance(image, Image):
        image = spirvkit.Image(image.data, image.channel_order, image.channel_type, image.image_type,
                               access="read_only")
    data, order, ctype = image.data, image.channel_order, image.channel_type
    return ("image", {"order": order, "type": ctype, "image_type": image.image_type, "size": image.shape,
                      "cl_format": records.cl_image_format(order, ctype),
                      "data": np.frombuffer(bytearray(data.tobytes()), data.dtype).reshape(data.shape)})


def _sampler_arg(sampler) -> tuple[str, tuple]:
    if isinstance(sampler, Sampler):
        return ("sampler", (bool(sampler.normalized), sampler.addressing, sampler.filter))
    return ("sampler", (sampler.normalized_coords, sampler.addressing_mode, sampler.filter_mode))


def _sizes(size) -> tuple[int, ...] | None:
    if size is None:
        return None
    if isinstance(size, int | np.integer):
        return (int(size),)
    return tuple(int(s) for s in size)


def make_launch(source: str | Path, kernel: str, global_size, local_size, args, *, options: str = "",
                global_offset=None, fresh_program: bool = False, capture_stdout: bool = False) -> Launch:
    if isinstance(source, Path):
        source = source.read_text(encoding="utf-8")
    wired = []
    for index, arg in enumerate(args):
        if isinstance(arg, np.ndarray) and arg.ndim > 0:
            if arg.nbytes == 0:
                raise ValueError(f"argument {index}: empty buffer")
            # Through bytes: numpy's copy of a structured array leaves its padding uninitialised,
            # and every byte is part of the launch's key.
            wired.append(("buffer", np.frombuffer(bytearray(arg.tobytes()), arg.dtype).reshape(arg.shape)))
        elif isinstance(arg, Local):
            wired.append(("local", arg.nbytes))
        elif isinstance(arg, Value):
            wired.append(("bytes", bytes(arg.data)))
        elif isinstance(arg, np.ndarray):  # 0-d (e.g. a structured scalar): raw bytes by value
            wired.append(("bytes", arg.tobytes()))
        elif isinstance(arg, np.generic):
            wired.append(("scalar", arg))
        elif isinstance(arg, Image | spirvkit.Image):
            wired.append(_image_arg(arg))
        elif isinstance(arg, Sampler | spirvkit.Sampler):
            wired.append(_sampler_arg(arg))
        else:
            raise TypeError(f"argument {index}: unsupported PoCL argument {arg!r}")
    return Launch(source, kernel, _sizes(global_size), _sizes(local_size), _sizes(global_offset), options,
                  fresh_program, capture_stdout, wired)


def current_test() -> str:
    """The running test's node id ("" outside a test)."""
    return os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]


def default_group() -> str:
    """The record group of a launch: the requesting test module (tests/clc/test_x.py -> clc.test_x)."""
    path = current_test().split("::", 1)[0]
    if path.startswith("tests/"):
        path = path[len("tests/"):]
    return path.removesuffix(".py").replace("/", ".") or "misc"


def _rerecord_hint() -> str:
    return f"re-record: {records.COMMAND} --only '{current_test().split('::')[-1]}'"


def run(source: str | Path, kernel: str, global_size, local_size, args, *, options: str = "",
        global_offset=None, fresh_program: bool = False, capture_stdout: bool = False,
        group: str | None = None) -> list:
    """PoCL's buffers after one launch of ``kernel`` (and the printed text, with
    ``capture_stdout``), from the records; from the live PoCL when recording."""
    return run_launch(make_launch(source, kernel, global_size, local_size, args, options=options,
                                  global_offset=global_offset, fresh_program=fresh_program,
                                  capture_stdout=capture_stdout), group)


def run_launch(launch: Launch, group: str | None = None) -> list:
    """``run`` for a launch already made (``make_launch``)."""
    key = launch.key()
    test = current_test()
    if test and "pocl" not in test.split("::")[-1].lower():
        # The record command selects the tests to run by this word (pytest -k pocl).
        pytest.fail(f"{test} uses PoCL's results, so its name must contain 'pocl'")
    if MODE == "record":
        entry = _record(launch, key, group or default_group())
    else:
        entry = records.index().get(key)
        if entry is None:
            pytest.fail(f"no recorded PoCL result for kernel {launch.kernel} (key {key}): its source, options "
                        f"or inputs changed since recording; {_rerecord_hint()}")
    if "failed" in entry:
        pytest.fail(f"PoCL could not run kernel {launch.kernel} when it was recorded ({entry['peer']}): "
                    f"{entry['failed']}")
    return results(launch, entry)


def results(launch: Launch, entry: dict) -> list:
    """A record entry as ``run`` returns it: the buffers, then the printed text if captured."""
    buffers, printed = records.decode_outputs(launch, entry)
    return [*buffers, printed] if launch.capture_stdout else buffers


def supports_non_uniform_work_groups(group: str = "kernel_corpus") -> bool:
    """OpenCL 2.0 non-uniform work-groups (global size not a multiple of the local size) on the
    PoCL that recorded ``group``; optional in OpenCL 3.0 (PoCL 3.0's CPU device lacks them)."""
    if MODE == "record":
        return bool(_client().probe()["non_uniform_work_groups"])
    facts = records.peer_facts(group)
    if facts is None:
        pytest.fail(f"no PoCL records for group {group!r}; re-record: {records.COMMAND}")
    return bool(facts["non_uniform_work_groups"])


# --------------------------------------------------------------------------- recording


@functools.cache
def _client() -> PoclClient:
    client = PoclClient(run_timeout=float(os.environ.get("SPIRVKIT_POCL_TIMEOUT", "120")))
    atexit.register(client.close)
    return client


def peer_label(facts: dict) -> str:
    return f"PoCL {facts['driver']} on {facts['device']}"


def _record(launch: Launch, key: str, group: str) -> dict:
    """Run ``launch`` on the live PoCL and append the result to the journal the record command
    named (SPIRVKIT_RECORD_JOURNAL)."""
    client = _client()
    facts = client.probe()  # PeerUnavailable ends the recording session's test here
    try:
        answer = client.run(launch.wire())
        entry = records.encode_outputs(launch, answer["buffers"], answer["stdout"])
    except PeerFailure as failure:
        entry = {"failed": str(failure)}
    entry = {"test": current_test(), "kernel": launch.kernel, "peer": peer_label(facts), **entry}
    journal = os.environ.get("SPIRVKIT_RECORD_JOURNAL")
    if journal:
        with open(journal, "a", encoding="utf-8") as out:
            out.write(json.dumps({"key": key, "group": group, "facts": client.facts or facts, "entry": entry}) + "\n")
    return entry
