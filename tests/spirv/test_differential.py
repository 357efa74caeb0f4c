"""Differential tests against SPIRV-Tools 2025.5: our assembler, disassembler and binary
round trip must agree with spirv-as / spirv-dis on every module of the corpora."""

from __future__ import annotations

import pytest
from corpus import asm_files, binary_files, target_env_of
from peers import run_tool, spirv_as, spirv_dis

import spirvkit
from spirvkit.spirv.module import Module

DIS_OPTIONS = {
    "default": ({}, []),
    "raw-id": ({"raw_id": True}, ["--raw-id"]),
    "no-header-no-indent": ({"header": False, "indent": False}, ["--no-header", "--no-indent"]),
    "offsets-comment": ({"offsets": True, "comment": True}, ["--offsets", "--comment"]),
}


def _without_generator(binary: bytes) -> bytes:
    return binary[:8] + binary[12:]


@pytest.mark.parametrize("path", asm_files(), ids=lambda p: p.name)
def test_assembler_matches_spirv_as(path):
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    env = target_env_of(path)
    expected = spirv_as(text, env)
    ours = spirvkit.assemble(text, env, filename=str(path))
    assert _without_generator(ours) == _without_generator(expected)


@pytest.mark.parametrize("path", asm_files(), ids=lambda p: p.name)
def test_assembler_preserve_numeric_ids_matches(path):
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    env = target_env_of(path)
    expected = spirv_as(text, env, ["--preserve-numeric-ids"])
    ours = spirvkit.assemble(text, env, preserve_numeric_ids=True)
    assert _without_generator(ours) == _without_generator(expected)


def _corpus_binaries():
    for path in asm_files():
        yield pytest.param(path, id=path.name)
    for path in binary_files():
        yield pytest.param(path, id=f"{path.parent.name}/{path.name}")


def _binary(path) -> bytes:
    if path.suffix == ".spv":
        return path.read_bytes()
    return spirv_as(path.read_text(encoding="utf-8", errors="surrogateescape"), target_env_of(path))


def _rejected_by_spirv_dis(binary: bytes) -> bool:
    return run_tool("spirv-dis", ["-"], binary).returncode != 0


@pytest.mark.parametrize("option", list(DIS_OPTIONS))
@pytest.mark.parametrize("path", list(_corpus_binaries()))
def test_disassembler_matches_spirv_dis(path, option):
    binary = _binary(path)
    ours_options, theirs_options = DIS_OPTIONS[option]
    if _rejected_by_spirv_dis(binary):
        # A binary spirv-as writes but spirv-dis cannot read (e.g. an invalid enumerant spelled
        # with !<integer>): we must reject it too, with our error type.
        with pytest.raises(spirvkit.SpirvError):
            spirvkit.disassemble(binary, **ours_options)
        return
    assert spirvkit.disassemble(binary, **ours_options) == spirv_dis(binary, theirs_options)


@pytest.mark.parametrize("path", list(_corpus_binaries()))
def test_binary_round_trip_is_identical(path):
    binary = _binary(path)
    if _rejected_by_spirv_dis(binary):
        with pytest.raises(spirvkit.BinaryError):
            Module.from_bytes(binary)
        return
    module = Module.from_bytes(binary)
    assert module.to_bytes() == binary


@pytest.mark.parametrize("path", list(_corpus_binaries()))
def test_disassembly_reassembles_like_spirv_as(path):
    """Text that spirv-dis prints (friendly names) assembles to the same binary with both tools."""
    binary = _binary(path)
    if _rejected_by_spirv_dis(binary):
        with pytest.raises(spirvkit.SpirvError):
            spirvkit.disassemble(binary)
        return
    text = spirv_dis(binary)
    version = Module.from_bytes(binary).version
    env = f"spv{version[0]}.{version[1]}"
    assert _without_generator(spirvkit.assemble(text, env)) == _without_generator(spirv_as(text, env))
