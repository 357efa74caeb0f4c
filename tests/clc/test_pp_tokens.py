"""The preprocessing-token lexer (C99 §6.4, translation phases 1–3)."""

from __future__ import annotations

import pytest

from spirvkit.clc.tokens import (CHAR, IDENT, INVALID, NUMBER, OTHER, PUNCT, STRING, LexError,
                                 char_constant_value, decode_escapes, lex)


def kinds_texts(src):
    return [(t.kind, t.text) for t in lex(src)[0]]


def texts(src):
    return [t.text for t in lex(src)[0]]


@pytest.mark.parametrize("number", [
    "1", "1.0f", "0x1p3f", "0x1P-3", "1.5h", "1e+10", "1E-5f", ".5", "2ul", "07u", "1..2",
    "0x1.fffffep127f", "1.0e-5F", "123LL", "1.f", "0x10DD",
])
def test_pp_numbers_are_one_token(number):
    assert kinds_texts(number) == [(NUMBER, number)]


def test_pp_number_stops_at_sign_without_exponent():
    assert texts("1+2 0x1e+3 1e+3") == ["1", "+", "2", "0x1e+3", "1e+3"]
    assert texts("a.5") == ["a", ".5"]


def test_identifiers_keywords_and_dollar():
    assert kinds_texts("__kernel float4 _x $y a1") == [
        (IDENT, "__kernel"), (IDENT, "float4"), (IDENT, "_x"), (IDENT, "$y"), (IDENT, "a1")]


def test_char_and_string_literals_with_escapes():
    src = r"""'a' '\'' '\\' '\n' L'x' "s\"t\\r" L"w" "" '\x41' '\101'"""
    assert kinds_texts(src) == [
        (CHAR, "'a'"), (CHAR, r"'\''"), (CHAR, r"'\\'"), (CHAR, r"'\n'"), (CHAR, "L'x'"),
        (STRING, r'"s\"t\\r"'), (STRING, 'L"w"'), (STRING, '""'), (CHAR, r"'\x41'"), (CHAR, r"'\101'")]


def test_unterminated_literals_are_invalid_tokens_not_errors():
    toks = lex("don't\nnext")[0]
    assert [(t.kind, t.text) for t in toks] == [(IDENT, "don"), (INVALID, "'t"), (IDENT, "next")]
    assert lex('"abc')[0][0].kind == INVALID


def test_longest_match_punctuators():
    assert texts("a+++++b") == ["a", "++", "++", "+", "b"]
    assert texts("x<<=y>>=z...w..v->u") == ["x", "<<=", "y", ">>=", "z", "...", "w", ".", ".", "v", "->", "u"]
    assert texts("a##b#c") == ["a", "##", "b", "#", "c"]


def test_digraphs():
    toks = lex("<: :> <% %> %: %:%:")[0]
    assert [t.text for t in toks] == ["<:", ":>", "<%", "%>", "%:", "%:%:"]
    assert [t.kind for t in toks] == [PUNCT] * 6
    assert toks[0].is_punct("[") and toks[3].is_punct("}") and toks[5].is_punct("##")


def test_stray_characters():
    assert kinds_texts("@ ` \\") == [(OTHER, "@"), (OTHER, "`"), (OTHER, "\\")]


def test_comments_become_whitespace():
    toks = lex("a/**/b // c\nd /* x\n y */ e")[0]
    assert [t.text for t in toks] == ["a", "b", "d", "e"]
    assert toks[1].has_space and not toks[0].has_space
    assert toks[2].at_bol and not toks[2].has_space
    # A comment spanning lines is one space: "e" does not start a line (C99 5.1.1.2 phase 3).
    assert toks[3].has_space and not toks[3].at_bol


def test_unterminated_comment_is_an_error_with_location():
    with pytest.raises(LexError) as info:
        lex("int x;\n  /* never closed\n", "f.cl")
    assert (info.value.loc.file, info.value.loc.line, info.value.loc.col) == ("f.cl", 2, 3)
    assert [t.text for t in info.value.tokens] == ["int", "x", ";"]


def test_line_splicing_keeps_physical_columns():
    toks = lex("ab\\\ncd ef\n  gh\\\n\\\nij k")[0]
    assert [(t.text, t.loc.line, t.loc.col) for t in toks] == [
        ("abcd", 1, 1), ("ef", 2, 4), ("ghij", 3, 3), ("k", 5, 4)]
    assert toks[2].at_bol and not toks[3].at_bol


def test_splice_with_crlf_and_trailing_spaces():
    toks = lex("a\\  \r\nb c")[0]
    assert [(t.text, t.loc.line, t.loc.col) for t in toks] == [("ab", 1, 1), ("c", 2, 3)]


def test_splice_inside_string_and_comment():
    assert texts('"ab\\\ncd" x') == ['"abcd"', "x"]
    assert texts("a // comment \\\n continued\nb") == ["a", "b"]


def test_trigraphs():
    src = "??=define X ??( ??) ??< ??> ??' ??! ??- ??/\ny"
    toks, logical = lex(src)
    assert [t.text for t in toks] == ["#", "define", "X", "[", "]", "{", "}", "^", "|", "~", "y"]
    assert toks[-1].loc.line == 2 and toks[-1].loc.col == 1  # ??/ + newline splices
    assert toks[3].loc.col == 13
    assert len(logical.trigraphs) == 9


def test_locations_and_flags():
    toks = lex("  int x;\n\tfloat y;", "k.cl")[0]
    assert [(t.text, t.loc.line, t.loc.col, t.at_bol, t.has_space) for t in toks] == [
        ("int", 1, 3, True, True), ("x", 1, 7, False, True), (";", 1, 8, False, False),
        ("float", 2, 2, True, True), ("y", 2, 8, False, True), (";", 2, 9, False, False)]
    assert toks[0].loc.file == "k.cl"


def test_decode_escapes():
    assert decode_escapes(r"a\n\t\x41\101\\\"\'\?") == ([97, 10, 9, 65, 65, 92, 34, 39, 63], None)
    assert decode_escapes(r"\x")[1] == "\\x used with no following hex digits"
    assert decode_escapes(r"\u00e9")[0] == [0xE9]
    assert decode_escapes("\\")[1] == "incomplete escape sequence"


def test_char_constant_values_as_in_if():
    assert char_constant_value("'a'") == (97, None)
    assert char_constant_value(r"'\377'") == (-1, None)  # char is signed in OpenCL C
    assert char_constant_value(r"'\xff'") == (-1, None)
    assert char_constant_value("'ab'") == (0x6162, None)
    assert char_constant_value("L'a'") == (97, None)
    assert char_constant_value("''")[1] == "empty character constant"


def test_random_text_never_raises_anything_but_lexerror():
    import random
    rng = random.Random(1234)
    alphabet = "ab1.+-*/\\\n\"' #<>:%?=()!\t\r\x00é"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(40)))
        try:
            toks, logical = lex(text)
        except LexError:
            continue
        for t in toks:
            assert t.loc.line >= 1 and t.loc.col >= 1
