"""The validator's public API: inputs it accepts, the Diagnostic format, max_errors, target
envs, and robustness (malformed and mutated binaries give diagnostics, never exceptions)."""

from __future__ import annotations

import random
import struct

import pytest
from val_corpus import corpus, load
from val_modules import kernel

import spirvkit
from spirvkit import Module
from spirvkit.validate import TARGET_ENVS, Diagnostic, ValidatorOptions, validate


def _valid_binary():
    return spirvkit.assemble(kernel(), "opencl2.2")


def test_package_attribute_is_the_function():
    assert spirvkit.validate(_valid_binary(), "opencl2.2") == []
    assert "validate" in spirvkit.__all__
    from spirvkit.validate.env import target_env  # the subpackage is still importable

    assert target_env("opencl2.2").max_spirv == (1, 2)


@pytest.mark.parametrize("form", ["bytes", "bytearray", "module", "words"])
def test_input_forms(form):
    binary = _valid_binary()
    value = {"bytes": binary, "bytearray": bytearray(binary), "module": Module.from_bytes(binary),
             "words": list(struct.unpack(f"<{len(binary) // 4}I", binary))}[form]
    assert validate(value, "opencl2.2") == []


def test_unknown_env_raises_value_error():
    with pytest.raises(ValueError):
        validate(_valid_binary(), "opencl9.9")


@pytest.mark.parametrize("env", sorted(TARGET_ENVS))
def test_every_env_is_accepted(env):
    result = validate(_valid_binary(), env)
    assert isinstance(result, list)


def test_universal_aliases():
    assert validate(_valid_binary(), "universal1.2") == validate(_valid_binary(), "spv1.2")


def test_diagnostic_format():
    d = Diagnostic("ids.defined", "SPIR-V 2.16.1", "ID '5[%x]' has not been defined", 42, "%y = OpIAdd %uint %x %x")
    assert str(d) == ("error: ID '5[%x]' has not been defined [ids.defined, SPIR-V 2.16.1]\n"
                      "  %y = OpIAdd %uint %x %x\n  at word 42")
    assert str(Diagnostic("layout.memory-model", "SPIR-V 2.4", "Missing")) == \
        "error: Missing [layout.memory-model, SPIR-V 2.4]"
    with pytest.raises(AttributeError):
        d.rule = "x"  # frozen


def test_version_outside_env():
    binary = spirvkit.assemble(kernel(), "spv1.3")
    d = validate(binary, "opencl2.0")
    assert d[0].rule == "env.spirv-version" and "1.3" in d[0].message
    assert validate(binary, "opencl3.0") == []
    assert validate(binary, "opencl3.0", options=ValidatorOptions(spirv_versions=((1, 0),)))


@pytest.mark.parametrize("data", [b"", b"\x00" * 3, b"garbage!" * 5, b"\x03\x02\x23\x07" + b"\x00" * 7,
                                  struct.pack("<5I", 0x07230203, 0x00010000, 0, 10, 0) + b"\xff\xff\xff\xff"])
def test_malformed_binaries_give_diagnostics(data):
    d = validate(data, "spv1.6")
    assert d and d[0].rule.startswith(("binary.", "layout.", "ids."))


def test_mutated_binaries_never_raise():
    """Fuzz: random word edits of corpus modules give a list of Diagnostics, never an exception."""
    rng = random.Random(5)
    sources = [load(p, k) for _label, p, k, _env, valid in corpus()[:60] if valid]
    for _ in range(400):
        data = bytearray(rng.choice(sources))
        for _edit in range(rng.randint(1, 3)):
            pos = rng.randrange(5, len(data) // 4) * 4
            choice = rng.random()
            if choice < 0.5:
                data[pos:pos + 4] = struct.pack("<I", rng.choice([0, 1, 2, 3, 7, 0xFFFF, rng.getrandbits(32)]))
            elif choice < 0.75:
                del data[pos:pos + 4]
            else:
                data[pos:pos] = data[pos:pos + 4]
        env = rng.choice(["spv1.6", "opencl2.2", "vulkan1.2", "opencl3.0"])
        result = validate(bytes(data), env, max_errors=None)
        assert isinstance(result, list)
        assert all(isinstance(d, Diagnostic) and d.rule != "validator.internal-error" for d in result), result
