"""Recorded peer results: what PoCL gave for each launch the tests make, stored once in
``tests/peers/records/*.json`` and read back by the tests on every machine.

A launch is identified by a digest of everything that decides its result: the source, the
kernel, the NDRange, the build options, and every argument (a buffer's dtype, shape and bytes;
an image's format, type, shape and bytes; a sampler's three modes). The tests regenerate their
inputs from seeds, so only outputs are stored: each buffer's or image's bytes after the launch,
exactly (zlib, base64), or ``"same"`` when the launch left them unchanged, and
the printed text for printf launches. A launch the peer could not do (build error, crash, hang)
is recorded with the reason, so that a test asking for it fails saying so.

Files are one per group (a test module, or the kernel corpus shared by two modules); each says
which PoCL and device produced it and with what command. ``python -m tests.peers.record``
rewrites them (tests/peers/record.py).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RECORDS = Path(__file__).with_name("records")
FORMAT = 1
COMMAND = "python -m tests.peers.record"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Launch:
    """One PoCL launch, as the tests ask for it. ``args`` in kernel-parameter order, each
    ``("buffer", array)``, ``("local", nbytes)``, ``("bytes", raw)``, ``("scalar", value)``,
    ``("image", {"order", "type", "image_type", "size", "cl_format", "data"})`` (``size`` as
    OpenCL's image descriptor has it: width, height, depth or layers) or ``("sampler",
    (normalized, addressing, filter))``."""

    source: str
    kernel: str
    global_size: tuple
    local_size: tuple | None
    offset: tuple | None
    options: str
    fresh: bool
    capture_stdout: bool
    args: list

    def key(self) -> str:
        described = []
        for kind, value in self.args:
            if kind == "buffer":
                described.append([kind, value.dtype.str, list(value.shape), _digest(value.tobytes())])
            elif kind == "local":
                described.append([kind, int(value)])
            elif kind == "bytes":
                described.append([kind, _digest(value)])
            elif kind == "image":
                data = value["data"]
                described.append([kind, value["order"], value["type"], value["image_type"], data.dtype.str,
                                  list(data.shape), _digest(data.tobytes())])
            elif kind == "sampler":
                described.append([kind, *value])
            else:
                described.append([kind, np.asarray(value).dtype.str, np.asarray(value).tobytes().hex()])
        text = json.dumps({
            "source": _digest(self.source.encode()), "kernel": self.kernel,
            "global": list(self.global_size), "local": None if self.local_size is None else list(self.local_size),
            "offset": None if self.offset is None else list(self.offset), "options": self.options,
            "fresh": self.fresh, "stdout": self.capture_stdout, "args": described,
        }, sort_keys=True)
        return _digest(text.encode())[:32]

    def wire(self) -> dict:
        """The request as the child process takes it."""
        return {"source": self.source, "kernel": self.kernel, "global": self.global_size,
                "local": self.local_size, "offset": self.offset, "options": self.options,
                "fresh": self.fresh, "capture_stdout": self.capture_stdout, "args": self.args}


def program_key(source: str) -> str:
    """The key of a whole pyopencl program's run (tests/peers/programs.py): its text decides
    what it prints."""
    return _digest(json.dumps({"program": _digest(source.encode())}).encode())[:32]


# --------------------------------------------------------------------------- images

# OpenCL's channel order and channel type values (cl.h), by the names without CL_.
CL_CHANNEL_ORDERS = {name: 0x10B0 + i for i, name in enumerate(
    ("R", "A", "RG", "RA", "RGB", "RGBA", "BGRA", "ARGB", "INTENSITY", "LUMINANCE", "Rx", "RGx", "RGBx",
     "DEPTH", "DEPTH_STENCIL", "sRGB", "sRGBx", "sRGBA", "sBGRA", "ABGR"))}
CL_CHANNEL_TYPES = {name: 0x10D0 + i for i, name in enumerate(
    ("SNORM_INT8", "SNORM_INT16", "UNORM_INT8", "UNORM_INT16", "UNORM_SHORT_565", "UNORM_SHORT_555",
     "UNORM_INT_101010", "SIGNED_INT8", "SIGNED_INT16", "SIGNED_INT32", "UNSIGNED_INT8", "UNSIGNED_INT16",
     "UNSIGNED_INT32", "HALF_FLOAT", "FLOAT"))}


def cl_image_format(order: str, ctype: str) -> tuple[int, int]:
    """(cl_channel_order, cl_channel_type) of a format named as spirvkit.Image names it."""
    return CL_CHANNEL_ORDERS[order], CL_CHANNEL_TYPES[ctype]


def _host_array(kind: str, value) -> np.ndarray | None:
    """The array whose contents after the launch are an argument's output (buffers, images)."""
    if kind == "buffer":
        return value
    return value["data"] if kind == "image" else None


# --------------------------------------------------------------------------- encoding


def encode_outputs(launch: Launch, buffers: dict, stdout: str | None) -> dict:
    """A record entry's result part: every buffer and image after the launch (or "same")."""
    outputs, dtypes = {}, {}
    for index, (kind, value) in enumerate(launch.args):
        value = _host_array(kind, value)
        if value is None:
            continue
        after = np.ascontiguousarray(buffers[index]).tobytes()
        if after == value.tobytes():
            outputs[str(index)] = "same"
        else:
            outputs[str(index)] = base64.b64encode(zlib.compress(after, 9)).decode("ascii")
            dtypes[str(index)] = value.dtype.str  # for the record command's reports only
    entry: dict = {"outputs": outputs, "dtypes": dtypes}
    if stdout is not None:
        entry["stdout"] = stdout
    return entry


def decode_outputs(launch: Launch, entry: dict) -> tuple[list, str | None]:
    """The buffers and images (numpy arrays shaped as the launch's inputs; None for other
    arguments) and the printed text of a record entry."""
    results: list = [None] * len(launch.args)
    for index, (kind, value) in enumerate(launch.args):
        value = _host_array(kind, value)
        if value is None:
            continue
        stored = entry["outputs"][str(index)]
        raw = value.tobytes() if stored == "same" else zlib.decompress(base64.b64decode(stored))
        results[index] = np.frombuffer(bytearray(raw), dtype=value.dtype).reshape(value.shape)
    return results, entry.get("stdout")


def output_bytes(entry: dict, index: str) -> bytes | None:
    stored = entry.get("outputs", {}).get(index)
    if stored is None or stored == "same":
        return None
    return zlib.decompress(base64.b64decode(stored))


# --------------------------------------------------------------------------- files


def group_path(group: str) -> Path:
    return RECORDS / f"{group}.json"


def read_group(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: record format {data.get('format')!r}, expected {FORMAT}")
    return data


def write_group(group: str, peer: dict, launches: dict) -> Path:
    path = group_path(group)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "format": FORMAT,
        "what": f"PoCL's results for the launches of the '{group}' tests, read by tests/pocl.py",
        "command": COMMAND,
        "peer": peer,
        "launches": dict(sorted(launches.items(), key=lambda item: (item[1].get("test", ""), item[0]))),
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return path


@functools.cache
def all_groups() -> dict[str, dict]:
    """Every record file, by group name."""
    return {path.stem: read_group(path) for path in sorted(RECORDS.glob("*.json"))}


@functools.cache
def index() -> dict[str, dict]:
    """Every recorded launch, by key."""
    found: dict[str, dict] = {}
    for data in all_groups().values():
        found.update(data["launches"])
    return found


def peer_facts(group: str) -> dict | None:
    data = all_groups().get(group)
    return None if data is None else data["peer"]
