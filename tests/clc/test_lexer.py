"""C tokens from preprocessing tokens: keywords per -cl-std, constants typed and valued as
C99 §6.4.4 says with OpenCL's sizes, lexical errors located like clang's."""

from __future__ import annotations

import math

import pytest

from spirvkit.clc import PreprocessorOptions, preprocess
from spirvkit.clc.lexer import (CHAR_CONST, FLOAT_CONST, IDENTIFIER, INT_CONST, KEYWORD,
                                PUNCTUATOR, STRING_LIT, Classifier, round_to_type)


def lex(src: str, cl_std: str = "CL2.0"):
    diags = []
    pp = preprocess(src, "t.cl", options=PreprocessorOptions(cl_std=cl_std, predefined=False))
    toks = Classifier(cl_std, lambda *a: diags.append(a)).classify(pp)
    return toks, [(sev, msg, loc.col) for sev, msg, loc, *_ in diags]


def one(src: str, cl_std: str = "CL2.0"):
    toks, diags = lex(src, cl_std)
    assert len(toks) == 1, toks
    return toks[0], diags


# -- keywords -----------------------------------------------------------------------------------

@pytest.mark.parametrize("word, plain", [
    ("__kernel", "kernel"), ("kernel", "kernel"), ("__global", "global"), ("global", "global"),
    ("__local", "local"), ("__constant", "constant"), ("__private", "private"),
    ("__read_only", "read_only"), ("write_only", "write_only"), ("__read_write", "read_write"),
    ("__const", "const"), ("__restrict__", "restrict"), ("__inline__", "inline"),
    ("__attribute", "__attribute__"), ("_Alignof", "alignof"), ("__alignof__", "alignof"),
    ("float4", "float4"), ("uchar16", "uchar16"), ("double3", "double3"), ("half8", "half8"),
    ("size_t", "size_t"), ("ptrdiff_t", "ptrdiff_t"), ("intptr_t", "intptr_t"),
    ("uintptr_t", "uintptr_t"), ("image2d_t", "image2d_t"), ("sampler_t", "sampler_t"),
    ("event_t", "event_t"), ("bool", "bool"), ("half", "half"), ("vec_step", "vec_step"),
    ("uint", "uint"), ("while", "while"), ("sizeof", "sizeof"),
])
def test_keywords(word, plain):
    t, _ = one(word)
    assert (t.kind, t.word, t.text) == (KEYWORD, plain, word)


@pytest.mark.parametrize("word", ["atomic_int", "atomic_flag", "queue_t",
                                  "clk_event_t", "reserve_id_t", "ndrange_t", "pipe", "memory_order"])
def test_cl20_keywords_are_identifiers_in_cl12(word):
    assert one(word, "CL2.0")[0].kind == KEYWORD
    assert one(word, "CL1.2")[0].kind == IDENTIFIER


@pytest.mark.parametrize("word", ["generic", "__generic"])
def test_generic_is_a_keyword_in_every_version(word):
    # As in clang: before 2.0 the parser reports "OpenCL C version 1.2 does not support the
    # 'generic' type qualifier" instead of taking it for a name.
    assert one(word, "CL2.0")[0].kind == KEYWORD
    assert one(word, "CL1.2")[0].kind == KEYWORD


def test_identifiers_and_punctuators():
    toks, _ = lex("float5 x_1 <: :> <% %> ->")
    assert [t.kind for t in toks] == [IDENTIFIER, IDENTIFIER] + [PUNCTUATOR] * 5
    assert [t.text for t in toks[2:]] == ["[", "]", "{", "}", "->"]  # digraphs mean their punctuator
    assert toks[0].word is None  # identifiers never compare equal to a keyword or punctuator


def test_locations_are_exact():
    toks, _ = lex("int\n  x =\t0x1f;")
    assert [(t.loc.line, t.loc.col) for t in toks] == [(1, 1), (2, 3), (2, 5), (2, 7), (2, 11)]


# -- integer constants (C99 §6.4.4.1; int is 32 bits, long 64, no long long) ------------------------

@pytest.mark.parametrize("text, value, ctype", [
    ("0", 0, "int"), ("7", 7, "int"), ("2147483647", 2**31 - 1, "int"),
    ("2147483648", 2**31, "long"),  # decimal: int, long — never unsigned int
    ("9223372036854775807", 2**63 - 1, "long"),
    ("0x7fffffff", 2**31 - 1, "int"), ("0x80000000", 2**31, "unsigned int"),  # hex/octal: int, uint, long, ulong
    ("0xffffffff", 2**32 - 1, "unsigned int"), ("0x100000000", 2**32, "long"),
    ("0x7fffffffffffffff", 2**63 - 1, "long"), ("0x8000000000000000", 2**63, "unsigned long"),
    ("017", 15, "int"), ("037777777777", 2**32 - 1, "unsigned int"), ("0b101", 5, "int"),
    ("1u", 1, "unsigned int"), ("4294967295U", 2**32 - 1, "unsigned int"),
    ("4294967296u", 2**32, "unsigned long"), ("1l", 1, "long"), ("2147483648L", 2**31, "long"),
    ("0xffffffffl", 2**32 - 1, "long"), ("0xffffffffffffffffl", 2**64 - 1, "unsigned long"),
    ("1ul", 1, "unsigned long"), ("1LU", 1, "unsigned long"), ("1uLL", 1, "unsigned long"),
    ("1ll", 1, "long"), ("0XABCDEFu", 0xABCDEF, "unsigned int"),
])
def test_integer_constants(text, value, ctype):
    t, diags = one(text)
    assert (t.kind, t.value, t.type, diags) == (INT_CONST, value, ctype, [])


def test_decimal_past_long_max_is_unsigned_with_a_warning():
    t, diags = one("9223372036854775808")
    assert (t.value, t.type) == (2**63, "unsigned long")
    assert diags == [("warning", "integer literal is too large to be represented in a signed integer type, "
                      "interpreting as unsigned", 1)]


@pytest.mark.parametrize("text, message, col", [
    ("08", "invalid digit '8' in octal constant", 2),
    ("0129", "invalid digit '9' in octal constant", 4),
    ("0x", "invalid suffix 'x' on integer constant", 2),
    ("1uu", "invalid suffix 'uu' on integer constant", 2),
    ("5u8", "invalid suffix 'u8' on integer constant", 2),
    ("1lL", "invalid suffix 'lL' on integer constant", 2),
    ("12abc", "invalid suffix 'abc' on integer constant", 3),
    ("18446744073709551616", "integer literal is too large to be represented in any integer type", 1),
])
def test_integer_errors(text, message, col):
    _, diags = one(text)
    assert diags == [("error", message, col)]


# -- floating constants (C99 §6.4.4.2 and OpenCL's h suffix) ---------------------------------------

@pytest.mark.parametrize("text, value, ctype", [
    ("1.0", 1.0, "double"), ("1.", 1.0, "double"), (".5", 0.5, "double"), ("1e3", 1000.0, "double"),
    ("2.5E-1", 0.25, "double"), ("1.0f", 1.0, "float"), ("0.1f", 0.10000000149011612, "float"),
    ("1e10F", 1e10, "float"), ("0x1p3", 8.0, "double"), ("0x1.8p1f", 3.0, "float"),
    ("0x.8p0", 0.5, "double"), ("1.5h", 1.5, "half"), ("0.1h", 0.0999755859375, "half"),
    ("1.0L", 1.0, "long double"), ("0.1", 0.1, "double"),
])
def test_float_constants(text, value, ctype):
    t, diags = one(text)
    assert (t.kind, t.value, t.type, diags) == (FLOAT_CONST, value, ctype, [])


def test_float_suffix_rounds_once_from_the_decimal_text():
    # Through double first this would round to 1+2^-24 and then (a tie) to 1.0.
    t, _ = one("1.00000005960464477539062500001f")
    assert t.value == 1.0 + 2.0**-23


@pytest.mark.parametrize("text, value", [
    ("1e39f", math.inf), ("1e-45f", 2.0**-149), ("3.4028235e38f", 3.4028234663852886e38),
    ("65504.0h", 65504.0), ("65520.0h", math.inf), ("3e-8h", 2.0**-24), ("2e-8h", 0.0),
    ("1e400", math.inf),
])
def test_float_range_ends(text, value):
    assert one(text)[0].value == value


def test_round_to_type_ties_to_even():
    from fractions import Fraction
    assert round_to_type(Fraction(1) + Fraction(1, 2**24), "float") == 1.0
    assert round_to_type(Fraction(1) + Fraction(3, 2**24), "float") == 1.0 + 2.0**-22


@pytest.mark.parametrize("text, message, col", [
    ("1e", "exponent has no digits", 2), ("1.0e+", "exponent has no digits", 4),
    ("0x1p", "exponent has no digits", 4), ("0x1.8", "hexadecimal floating constant requires an exponent", 6),
    ("1.0ff", "invalid suffix 'ff' on floating constant", 4), ("2.5x", "invalid suffix 'x' on floating constant", 4),
])
def test_float_errors(text, message, col):
    _, diags = one(text)
    assert diags == [("error", message, col)]


# -- character constants and strings (C99 §6.4.4.4, §6.4.5) ----------------------------------------

@pytest.mark.parametrize("text, value", [
    ("'a'", 97), ("'\\n'", 10), ("'\\0'", 0), ("'\\xff'", -1), ("'\\377'", -1), ("'\\x7f'", 127),
    ("'\\''", 39), ("'\"'", 34), ("'\\\\'", 92), ("'\\a'", 7),
])
def test_char_constants(text, value):
    t, diags = one(text)
    assert (t.kind, t.value, t.type, diags) == (CHAR_CONST, value, "int", [])


def test_multichar_constant_warns():
    t, diags = one("'ab'")
    assert t.value == 0x6162
    assert diags == [("warning", "multi-character character constant", 1)]


def test_empty_char_constant():
    _, diags = one("''")
    assert diags == [("error", "empty character constant", 1)]


@pytest.mark.parametrize("text, value", [
    ('"abc"', b"abc"), ('"a\\tb\\n"', b"a\tb\n"), ('"\\x41\\101\\0"', b"AA\0"), ('""', b""),
    ('"\u00e9"', b"\xc3\xa9"), ('"\\u00e9"', b"\xc3\xa9"), ('"%d\\\\"', b"%d\\"),
])
def test_string_literals(text, value):
    t, diags = one(text)
    assert (t.kind, t.value, diags) == (STRING_LIT, value, [])


def test_string_escape_out_of_range():
    _, diags = one('"\\x141"')
    assert diags == [("error", "hex escape sequence out of range", 2)]
