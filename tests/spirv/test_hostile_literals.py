"""Hostile number literals in SPIR-V assembly (issue 21): huge exponents, thousands of digits.

Each must give spirv-as' verdict (accepted with the same words, or refused) quickly, as a located
``AssemblyError``: never a hang, a ``ValueError`` from Python's int-conversion limit or a
traceback.
"""

from __future__ import annotations

import time

import pytest
from peers import run_tool

import spirvkit
from spirvkit import AssemblyError
from spirvkit.spirv.text.numbers import NumberError, parse_c_integer, parse_number

PRELUDE = """OpCapability Kernel
OpCapability Addresses
OpCapability Int64
OpCapability Float64
OpMemoryModel Physical32 OpenCL
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
"""

MANY = 5000  # past Python's 4300-digit limit on int(str)


def _module(type_name: str, literal: str) -> str:
    return PRELUDE + f"%c = OpConstant %{type_name} {literal}\n"


def _last_instruction(binary: bytes) -> list[int]:
    words = [int.from_bytes(binary[i : i + 4], "little") for i in range(0, len(binary), 4)]
    index = 5
    last = []
    while index < len(words):
        count = words[index] >> 16
        last = words[index : index + count]
        index += count
    return last


def _peer(text: str) -> list[int] | None:
    result = run_tool("spirv-as", ["--target-env", "spv1.0", "-o", "-", "-"], text.encode())
    return None if result.returncode else _last_instruction(result.stdout)


def _ours(text: str) -> list[int] | AssemblyError:
    try:
        return _last_instruction(spirvkit.assemble(text))
    except AssemblyError as e:
        return e


HOSTILE = [
    ("float", "1e999999999"),
    ("float", "-1e999999999"),
    ("float", "1e-999999999"),
    ("float", "-1e-999999999"),
    ("double", "1e999999999"),
    ("double", "1e-999999999"),
    ("float", "1e" + "9" * MANY),
    ("float", "1e-" + "9" * MANY),
    ("float", "1" * MANY),
    ("float", "1" * MANY + "e-4980"),  # 1.11e19: the digits fit once scaled
    ("double", "0." + "0" * MANY + "1e" + str(MANY + 1)),  # 1
    ("double", "1." + "0" * MANY + "1"),  # 1 after rounding
    ("float", "0x1p+" + "9" * MANY),
    ("float", "0x1p-" + "9" * MANY),
    ("double", "0x1p-1074"),
    ("double", "0x" + "1" * MANY + "p-" + "9" * MANY),
    ("double", "0x" + "1" * MANY + "p-20000"),  # 2^20000 * 2^-20000-ish: digits and exponent balance
    ("uint", "9" * MANY),
    ("uint", "0x" + "f" * MANY),
    ("uint", "0" + "7" * MANY),
    ("ulong", "0" * MANY + "17"),  # leading zeros do not count
    ("ulong", "0x" + "0" * MANY + "1"),
]


@pytest.mark.parametrize("type_name, literal", HOSTILE, ids=lambda v: v if len(v) < 20 else v[:12] + "...")
def test_hostile_literal_gets_spirv_as_verdict_quickly(type_name, literal):
    text = _module(type_name, literal)
    start = time.perf_counter()
    ours = _ours(text)
    assert time.perf_counter() - start < 2
    peer = _peer(text)
    if peer is None:
        assert isinstance(ours, AssemblyError), ours
        assert (ours.line, ours.column) == (text.count("\n"), len("%c = OpConstant %") + len(type_name) + 2)
    else:
        assert ours == peer


def test_huge_exponent_is_out_of_range_not_a_hang():
    with pytest.raises(AssemblyError, match=r"<input>:10:24: error: 32-bit float literal out of range: 1e999999999"):
        spirvkit.assemble(_module("float", "1e999999999"))


def test_long_integer_is_refused_before_conversion():
    with pytest.raises(NumberError, match=r"does not fit in 64 bits"):
        parse_c_integer("9" * MANY)
    with pytest.raises(AssemblyError, match=r"<input>:10:23: error: integer 9{40}\.\.\. \(5000 characters\) does not fit"):
        spirvkit.assemble(_module("uint", "9" * MANY))


def test_64_bit_boundaries_still_read():
    assert parse_c_integer("18446744073709551615") == (1 << 64) - 1
    assert parse_c_integer("0xffffffffffffffff") == (1 << 64) - 1
    assert parse_c_integer("01777777777777777777777") == (1 << 64) - 1
    with pytest.raises(NumberError):
        parse_number("18446744073709551616", "u64")
    assert parse_number("1.7976931348623157e308", "f64") == [0xFFFFFFFF, 0x7FEFFFFF]
    assert parse_number("4.9406564584124654e-324", "f64") == [1, 0]
    assert parse_number("2.4703282292062328e-324", "f64") == [1, 0]  # just above half: rounds up
