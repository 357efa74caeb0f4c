"""The assembler's fast path (spirv/text/assembler_fast.py) and fast tokenizer against the general
path they stand in for: the same words, or the same located error, on the .spvasm texts of
tests/data, on mutants of them, and on a generated module like the benchmark's; the tokenizer's
str.split() route against the regular expression it replaces."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from spirvkit.errors import AssemblyError
from spirvkit.spirv.binary import MAGIC, words_to_bytes
from spirvkit.spirv.grammar import load_grammar
from spirvkit.spirv.target_env import spirv_version_for
from spirvkit.spirv.text import assembler as asm_mod
from spirvkit.spirv.text.assembler import GENERATOR_WORD, Assembler, assemble
from spirvkit.spirv.text.assembler_fast import fast_words

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TARGET_ENV = "spv1.6"


def general(text: str, target_env: str = TARGET_ENV):
    """The general path alone, as assemble() ran before the fast path: ('ok', bytes) or
    ('error', message with its location)."""
    major, minor = spirv_version_for(target_env)
    try:
        asm = Assembler(text, "<input>", load_grammar(), False, (major, minor))
        body = asm.assemble()
    except AssemblyError as e:
        return "error", str(e)
    return "ok", words_to_bytes([MAGIC, (major << 16) | (minor << 8), GENERATOR_WORD, asm.bound, 0] + body)


def public(text: str, target_env: str = TARGET_ENV):
    try:
        return "ok", assemble(text, target_env)
    except AssemblyError as e:
        return "error", str(e)


def fast_engages(text: str) -> bool:
    return fast_words(Assembler(text, "<input>", load_grammar(), False, (1, 6))) is not None


def corpus() -> list[str]:
    return [p.read_text(encoding="utf-8", errors="surrogateescape") for p in sorted(DATA.rglob("*.spvasm"))]


# -- tokenizer ---------------------------------------------------------------------------------


def test_other_space_class_is_every_blank_split_knows_but_a_token_does_not():
    others = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() and chr(c) not in " \t\r\n")
    assert all(asm_mod._OTHER_SPACE_RE.fullmatch(ch) for ch in others)
    assert not any(asm_mod._OTHER_SPACE_RE.fullmatch(chr(c)) for c in range(sys.maxunicode + 1)
                   if chr(c) not in others)
    assert asm_mod._ASCII_OTHER_SPACES == "".join(ch for ch in others if ch.isascii())


def test_tokenizer_matches_the_regex_on_tricky_texts():
    rng = random.Random(19)
    alphabet = ['"', '"', ";", "\\", " ", " ", "\t", "\r", "\n", "\n", "a", "b", "%", "=", "Op", "1", "\x0b",
                "\x1f", "\xa0", "\u2028", "é", "\udc80"]
    cases = ['', ' ', '"', '""', '"a""b"', 'a"b c"d', '"x";c\n"y"', ';only', 'x;"y"\nz', '"a;b" c', '"open',
             'a "b"', '"b" a', 'a"b"', '"b"a', '"a" "b"', '"a"\n"b"', '"a";c', 'a;"b"\n"c"', ';"\n"x"', 'x ;c\n"s";d\n"t"', '"u', '%x = OpName %y "n"', '"\\"" x']
    plain = [ch for ch in alphabet if ch not in "\\\x0b\x1f\xa0\u2028"]  # the str.split() route
    for _ in range(4000):
        cases.append("".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 30))))
        cases.append("".join(rng.choice(plain) for _ in range(rng.randrange(1, 30))))
    for text in cases:
        assert asm_mod._tokenize(text) == asm_mod._regex_tokenize(text), repr(text)


def test_tokenizer_matches_the_regex_on_the_corpus():
    texts = corpus()
    assert len(texts) > 100
    for text in texts:
        assert asm_mod._tokenize(text) == asm_mod._regex_tokenize(text)


# -- fast path against the general one -----------------------------------------------------------


def test_fast_path_matches_general_on_the_corpus():
    engaged = 0
    for text in corpus():
        expected = general(text)
        assert public(text) == expected
        if expected[0] == "ok" and fast_engages(text):
            engaged += 1
    assert engaged > 100  # the comparison above is mostly of the fast path, not of general vs itself


def test_fast_path_matches_general_on_mutants():
    sys.path.insert(0, str(ROOT))
    try:
        from tests.fuzz.asm import mutate
    finally:
        sys.path.remove(str(ROOT))
    texts = corpus()
    rng = random.Random(2024)
    compared = 0
    for _ in range(1500):
        text = mutate(rng, texts)
        if text is None:
            continue
        assert public(text) == general(text), text
        compared += 1
    assert compared > 1000


def test_fast_path_matches_general_with_lines_moved():
    """Moved lines mention ids in other orders (forward references, a type first mentioned by
    the instruction it types) and mostly still assemble: the numbering must stay the same."""
    texts = corpus()
    rng = random.Random(7)
    engaged = 0
    for _ in range(800):
        lines = rng.choice(texts).split("\n")
        for _ in range(rng.randrange(1, 4)):
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
        text = "\n".join(lines)
        assert public(text) == general(text), text
        engaged += fast_engages(text)
    assert engaged > 300


def _bench_module(n: int) -> str:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_spirv
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return bench_spirv.generate_module(n, 7)[0]


def test_fast_path_matches_general_on_a_generated_module():
    text = _bench_module(6000)
    assert fast_engages(text)
    assert public(text, "spv1.2") == general(text, "spv1.2")


@pytest.mark.parametrize(
    "text",
    [
        # a result type first mentioned by the instruction it types: token order numbers it after
        # the result, the general path before it
        "OpCapability Kernel\nOpMemoryModel Logical OpenCL\n%x = OpUndef %t\n%t = OpTypeInt 32 0\n",
        # an id mentioned (by OpName) before its type: numbering by token order still agrees
        'OpCapability Kernel\nOpMemoryModel Logical OpenCL\nOpName %x "x"\n%t = OpTypeInt 32 0\n%x = OpUndef %t\n',
        # immediates, raw words, preserved-style numbers, an undefined id, a duplicate definition
        "OpCapability Kernel\n!0x00020011 !6\n",
        "OpCapability Kernel\n%t = OpTypeInt 32 0\n%x = OpIAdd !5 %y %z\n",
        "OpCapability Kernel\n%t = OpTypeInt 32 0\n%x = OpUndef %t\n%x = OpUndef %t\n",
        "OpCapability Kernel\n%t = OpTypeInt 32 0\n%x = OpUndef %u\n",
        "OpCapability Kernel\n%t = OpTypeInt 32 0\n%x = OpUndef %t extra\n",
        "OpCapability Kernel\nOpName %t \"a\\\"b\"\n%t = OpTypeInt 32 0\n",
        "OpCapability Kernel\n%t = OpTypeInt 32 0\n%c = OpConstant %t 4294967295\n%d = OpConstant %t 0x10\n",
        "OpCapability Kernel\n%t = OpTypeFloat 32\n%c = OpConstant %t 1\n%d = OpConstant %t -2.5e3\n",
        "OpCapability Kernel\n%t = OpTypeInt 64 0\n%c = OpConstant %t 7\n%d = OpConstant %t 123456789012\n",
        '%e = OpExtInstImport "OpenCL.std"\n%t = OpTypeFloat 32\n%c = OpConstant %t 1\n'
        "%x = OpExtInst %t %e sqrt %c\n%y = OpExtInst %t %e sqrt %c %c\n",
        '%e = OpExtInstImport "OpenCL.std"\n%t = OpTypeFloat 32\n%c = OpConstant %t 1\n%x = OpExtInst %t %c sqrt %c\n',
        "OpCapability Kernel\n%t = OpTypeInt 32 0\n%p = OpTypePointer Function %t\n"
        "%v = OpVariable %p Function\n%l = OpLoad %t %v Aligned 4\nOpStore %v %l Volatile|Aligned 8\n"
        "%m = OpLoad %t %v Aligned\n",
        "OpCapability Kernel\n%x = OpTypeVoid\n" + "OpName %x " + '"' + "y" * 300000 + '"\n',
        "%a = OpTypeVoid\n%b = OpTypeFunction %a " + " ".join(["%a"] * 70000) + "\n",
        "OpCapability Kernel OpCapability Addresses OpMemoryModel Physical64 OpenCL",
        "junk OpCapability Kernel\n",
        "%x = OpCapability Kernel\n",
        "OpTypeVoid\n",
        "%t = OpTypeInt 32 0\n%x = OpUndef",
        "%t = OpTypeInt 32 0 ; comment\n%x = OpUndef %t ; \"q\"\nOpName %x \"a;b\"",
        'OpName %x "é\udc80"\n%x = OpTypeVoid\n',
        'OpName %x "\ud800"\n%x = OpTypeVoid\n',
        "%x.y = OpTypeVoid\n",
        "%t = OpTypeInt 32 0\n%s = OpTypeStruct %t %t\nOpMemberDecorate %s 1 Offset 4\nOpDecorate %s Alignment 8\n",
    ],
)
def test_fast_path_matches_general_on_edge_cases(text):
    for env in ("spv1.0", "spv1.6"):
        assert public(text, env) == general(text, env)


def test_fast_float_literals_read_as_parse_number_reads_them():
    import struct

    from spirvkit.spirv.text.assembler_fast import _decimal_float_words
    from spirvkit.spirv.text.numbers import NumberError, parse_number

    rng = random.Random(5)
    tokens = ["1", "1.", ".5", "-0.0", "0", "1e5", "1E-5", "+2.5", "3.4028235e38", "3.4028236e38", "1.1754944e-38",
              "1.1754942e-38", "1e-45", "1.7976931348623157e308", "1.7976931348623159e308", "2.2250738585072014e-308",
              "4.9e-324", "9" * 60, "0x1p3", "nan", "inf", "1_0", "--1", "1e"]
    for _ in range(20000):
        x = rng.uniform(-1, 1) * 10.0 ** rng.randrange(-45, 40)
        tokens += [repr(x), f"{x:.9g}", f"{x:.6e}", f"{x:.17g}"]
        if abs(x) >= 3.4e38:
            continue
        # exactly halfway between two 32-bit floats (and next to it): double rounding's trap
        f = struct.unpack("<I", struct.pack("<f", x))[0] & 0x7FFFFFFE
        if 0 < f >> 23 < 0xFE:
            lo, hi = (struct.unpack("<f", struct.pack("<I", b))[0] for b in (f, f + 1))
            tokens += [repr((lo + hi) / 2), f"{(lo + hi) / 2:.25g}", f"{(lo + hi) / 2:.9g}"]
    checked = 0
    for token in tokens:
        for form, width in (("f32", 32), ("f64", 64)):
            found = _decimal_float_words(token, width)
            if found is None:
                continue
            checked += 1
            try:
                expected = parse_number(token, form)
            except NumberError:
                expected = None
            assert found == expected, (token, form)
    assert checked > 100000


@pytest.mark.parametrize("width,signed", [(32, 0), (32, 1), (64, 0), (16, 0)])
def test_fast_switch_matches_general(width, signed):
    head = (f"OpCapability Kernel\nOpCapability Int64\nOpCapability Int16\n%t = OpTypeInt {width} {signed}\n"
            "%v = OpTypeVoid\n%f = OpTypeFunction %v\n%s = OpUndef %t\n%fn = OpFunction %v None %f\n%a = OpLabel\n")
    tail = "%b = OpLabel\nOpReturn\n%c = OpLabel\nOpReturn\n%d = OpLabel\nOpReturn\nOpFunctionEnd\n"
    for switch in ("OpSwitch %s %b", "OpSwitch %s %b 1 %c", "OpSwitch %s %b 1 %c 70000 %d", "OpSwitch %s %b 1",
                   "OpSwitch %s %b 0x10 %c", "OpSwitch %s %b 1 %c 2", "OpSwitch %s %b 1 2", "OpSwitch %b %s 1 %c"):
        text = head + switch + "\n" + tail
        assert public(text) == general(text), switch
