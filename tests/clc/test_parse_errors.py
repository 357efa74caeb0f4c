"""Syntax errors: clang's wording and placement (file:line:col, source line, caret), several
errors per file, and hard limits instead of crashes.

Every expected text below is what clang-15 prints for the same file
(``clang-15 -x cl -cl-std=CL2.0 -fsyntax-only``); the tests never run clang.
"""

from __future__ import annotations

import pytest

from spirvkit.clc import parse
from spirvkit.errors import CompileError

K = "kernel void f(global int *p) { "  # 31 columns: the body's first token is at column 32


def diagnostics(src: str, **kw) -> list[str]:
    with pytest.raises(CompileError) as info:
        parse(src, "t.cl", options="-cl-std=CL2.0", **kw)
    return [f"{d.loc.line}:{d.loc.col}: {d.severity}: {d.message}" if d.loc else f"{d.severity}: {d.message}"
            for d in info.value.diagnostics]


CASES = [
    (K + "int x = 1 p[0] = x; }", ["1:41: error: expected ';' at end of declaration"]),
    (K + "p[0] = 1 }", ["1:40: error: expected ';' after expression"]),
    (K + "p[0] = ; }", ["1:39: error: expected expression"]),
    (K + "p[0] = (1 + 2; }", ["1:45: error: expected ')'"]),
    (K + "if p[0] = 1; }", ["1:35: error: expected '(' after 'if'"]),
    (K + "p[0] = 1;", ["1:41: error: expected '}'"]),
    ("int x", ["1:6: error: expected ';' after top level declarator"]),
    (K + "for (int i = 0; i < 4 i++) p[i] = 0; }", ["1:54: error: expected ';' in 'for' statement specifier"]),
    (K + "while (1) }", ["1:42: error: expected statement"]),
    (K + "do p[0]=1; while (0) }", ["1:52: error: expected ';' after do/while statement"]),
    (K + "switch (p[0]) { case 1 p[0]=2; } }", ["1:54: error: expected ':' after 'case'"]),
    (K + "switch (p[0]) { default p[0] = 1; } }", ["1:55: error: expected ':' after 'default'"]),
    (K + "int a[3 = {0}; }", ["1:42: error: expected expression"]),
    ("struct S { int a; int b: 3; };", ["1:23: error: bit-fields are not supported in OpenCL"]),
    (K + "p[0] = f(1, ); }", ["1:44: error: expected expression"]),
    (K + "p[0] = p[1; }", ["1:42: error: expected ']'"]),
    (K + "p. = 1; }", ["1:35: error: expected identifier"]),
    (K + "p->; }", ["1:35: error: expected identifier"]),
    (K + "int = 3; }", ["1:36: error: expected identifier or '('"]),
    (K + "goto ; }", ["1:37: error: expected identifier"]),
    ("void f(global int *p) { return 1 }", ["1:33: error: expected ';' after return statement"]),
    (K + "return }", ["1:39: error: expected expression"]),
    (K + "p[0] = 1 +* ; }", ["1:44: error: expected expression"]),
    (K + "p[0] = 1; } }", ["1:44: error: extraneous closing brace ('}')"]),
    ("}", ["1:1: error: extraneous closing brace ('}')"]),
    (K + "else p[0] = 1; }", ["1:32: error: expected expression"]),
    (K + "p[0] = sizeof(int; }", ["1:49: error: expected ')'"]),
    ("enum E { A, B C };", ["1:14: error: missing ',' between enumerators"]),
    (K + "int a = 1 ? 2 ; }", ["1:46: error: expected ':'"]),
    (K + "int x = @; }", ["1:40: error: expected expression"]),
    (K + "float4 v = (float4)(1.0f, 2.0f; }", ["1:62: error: expected ')'"]),
    ("int a, ;", ["1:8: error: expected identifier or '('"]),
    (K + "p[0] = ) ; }", ["1:39: error: expected expression"]),
    ("void f(int a b) {}", ["1:14: error: expected ')'"]),
    ("int int x;", ["1:5: error: cannot combine with previous 'int' declaration specifier"]),
    ("long long long x;", ["1:11: error: cannot combine with previous 'long long' declaration specifier"]),
    (K + "unsigned float x; }", ["1:32: error: 'float' cannot be signed or unsigned"]),
    (K + "for (int i = 0; i < 4; i++ p[i] = 0; }", ["1:59: error: expected ')'"]),
    ("foo x;", ["1:1: error: unknown type name 'foo'"]),
    (K + "int x; x = 1 2; }", ["1:44: error: expected ';' after expression"]),
    (K + "if (p[0]) else p[0] = 1; }", ["1:42: error: expected expression"]),
    (K + "int x = (int)); }", ["1:45: error: expected expression"]),
    (K + "label: }", ["1:39: error: expected statement"]),
    (K + "while (1) { break p; continue } }", ["1:50: error: expected ';' after break statement",
                                             "1:62: error: expected ';' after continue statement"]),
    ("kernel __attribute__((reqd_work_group_size(1,1))) void f(global int *p) {}",
     ["1:23: error: 'reqd_work_group_size' attribute requires exactly 3 arguments"]),
    ("int a[3] = {1,2,3}", ["1:19: error: expected ';' after top level declarator"]),
    (K + "int x = sizeof int; }", ["1:46: error: expected parentheses around type name in sizeof expression"]),
    (K + "int i; for (i = 0; i < 4; i++) { } } int", ["1:72: error: expected identifier or '('"]),
    (K + "global local int *q; }", ["1:39: error: multiple address spaces specified for type"]),
    (K + "int x = 08; int y = 0x; }", ["1:41: error: invalid digit '8' in octal constant",
                                     "1:53: error: invalid suffix 'x' on integer constant"]),
    (K + "int x = 0x1p; float y = 1e; float z = 1.0ff; }", [
        "1:43: error: exponent has no digits", "1:57: error: exponent has no digits",
        "1:73: error: invalid suffix 'ff' on floating constant"]),
    (K + "int y = 1u8; }", ["1:41: error: invalid suffix 'u8' on integer constant"]),
    (K + "int x = 0x1.8; }", ["1:45: error: hexadecimal floating constant requires an exponent"]),
    (K + "p[0] = (p[0]; }", ["1:44: error: expected ')'"]),
]


@pytest.mark.parametrize("src, want", CASES, ids=[f"e{i:02d}" for i in range(len(CASES))])
def test_clang_messages_and_locations(src, want):
    assert diagnostics(src) == want


def test_rendering_has_source_line_caret_and_notes():
    with pytest.raises(CompileError) as info:
        parse(K + "p[0] = (1 + 2; }", "t.cl")
    text = str(info.value)
    assert text == ("t.cl:1:45: error: expected ')'\n"
                    "kernel void f(global int *p) { p[0] = (1 + 2; }\n"
                    "                                            ^\n"
                    "t.cl:1:39: note: to match this '('\n"
                    "kernel void f(global int *p) { p[0] = (1 + 2; }\n"
                    "                                      ^\n"
                    "1 error generated.")
    e = info.value
    assert (e.file, e.line, e.col, e.message) == ("t.cl", 1, 45, "expected ')'")


def test_error_inside_a_macro_expansion_is_reported_where_the_macro_is_used():
    src = "#define BAD(x) (x +)\nkernel void f(global int *p) {\n  p[0] = BAD(1);\n}"
    with pytest.raises(CompileError) as info:
        parse(src, "t.cl")
    d = info.value.diagnostics[0]
    assert (d.loc.line, d.loc.col, d.message) == (3, 10, "expected expression")
    assert [(n.message, n.loc.line) for n in d.notes] == [("expanded from macro 'BAD'", 1)]


def test_errors_in_several_functions_are_all_reported():
    src = ("kernel void f(global int *p) { p[0] = ; }\n"
           "kernel void g(global int *p) { int x = 1 }\n"
           "kernel void h(global int *p) { p[0] = (1; }\n"
           "int ok;\n"
           "kernel void i(global int *p) { p[0 = 1; }\n")
    assert diagnostics(src) == [
        "1:39: error: expected expression",
        "2:41: error: expected ';' at end of declaration",
        "3:41: error: expected ')'",
        "5:39: error: expected ']'",  # "0 = 1" is an expression: the ']' is missing at the ';'

    ]


def test_recovery_inside_an_initializer_list():
    assert diagnostics(K + "int a[2] = { 1, +, 3 }; int b = ; }") == [
        "1:49: error: expected expression", "1:64: error: expected expression"]


def test_error_limit_is_twenty():
    src = "".join(f"int x{i} = ;\n" for i in range(30))
    got = diagnostics(src)
    assert len(got) == 21 and got[-1] == "fatal error: too many errors emitted, stopping now"


def test_warnings_do_not_stop_the_parse_and_can_be_errors():
    diags = []
    parse("static static int x;", "t.cl", diagnostics=diags)
    assert [d.message for d in diags] == ["duplicate 'static' declaration specifier"]
    with pytest.raises(CompileError) as info:
        parse("static static int x;", "t.cl", options="-Werror")
    assert info.value.diagnostics[0].option == "-Werror,-Wduplicate-decl-specifier"
    diags = []
    parse("static static int x;", "t.cl", options="-w", diagnostics=diags)
    assert diags == []


def test_bit_field_message_names_the_spec_rule():
    # OpenCL C 2.0 §6.9 (file §1.9): bit-field struct members are not supported.
    assert diagnostics("struct S { int : 4; };") == ["1:16: error: bit-fields are not supported in OpenCL"]


# -- nesting limits: located errors, never RecursionError -------------------------------------------

def test_ten_thousand_nested_parentheses():
    src = K + "p[0] = " + "(" * 10000 + "1" + ")" * 10000 + "; }"
    got = diagnostics(src)
    # The function body's '{' and 255 parentheses are open: the 256th '(' is one too many.
    assert got == [f"1:{39 + 255}: fatal error: bracket nesting level exceeded maximum of 256"]


@pytest.mark.parametrize("src", [
    "int a = " + "{" * 5000 + "1" + "}" * 5000 + ";",
    "void f(void) { " + "{" * 5000 + "}" * 5000 + " }",
    "int " + "(" * 5000 + "p" + ")" * 5000 + ";",
    "int a = f" + "(f" * 5000 + ")" * 5000 + ";",
    "struct A { " * 2000 + "int x;" + "} a;" * 2000,
])
def test_deep_brackets_are_a_located_fatal_error(src):
    got = diagnostics(src)
    assert len(got) == 1 and got[0].endswith("fatal error: bracket nesting level exceeded maximum of 256")


def test_deep_statements_are_a_located_fatal_error():
    got = diagnostics("void f(int x) { " + "if (x) " * 5000 + "x = 1; }")
    assert got == [f"1:{17 + 256 * 7}: fatal error: statement nesting level exceeded maximum of 256"]


@pytest.mark.parametrize("src", [
    "int a = " + "-" * 20000 + "1;",
    "int a = " + "(int)" * 5000 + "1;",
    "int a = " + "1 + " * 20000 + "1;",
    "int a = " + "1 ? 2 : " * 5000 + "3;",
    "void f(int a) { " + "a = " * 10000 + "1; }",
    "void f(int x) { " + "if (x) x = 1; else " * 3000 + "x = 2; }",
    "void f(int x) { switch (x) { " + "".join(f"case {i}: " for i in range(3000)) + "x = 1; } }",
    "int " + "*" * 10000 + "p;",
])
def test_long_chains_without_brackets_parse(src):
    from spirvkit.clc.ast import walk
    from spirvkit.clc.ast_dump import expr_to_str
    unit = parse(src, "t.cl")
    nodes = list(walk(unit))  # walking and printing need no recursion either
    assert len(nodes) > 1000
    init = getattr(unit.decls[-1], "init", None)
    if init is not None:
        assert expr_to_str(init)


def test_kr_parameter_lists_are_not_supported_yet():
    assert diagnostics("int f(a, b) int a; { return a; }") == [
        "1:7: error: not supported yet: K&R-style parameter lists (give each parameter its type in the parentheses)"]
    # Without an identifier list a declaration after a prototype is a missing ';'.
    assert diagnostics("int g(int)\nint x;") == ["1:11: error: expected ';' after top level declarator"]


def test_error_limit_counts_lexical_errors():
    got = diagnostics("int a[] = {" + ", ".join(["08"] * 40) + "};")
    assert len(got) == 21 and got[0] == "1:13: error: invalid digit '8' in octal constant"
    assert got[-1] == "fatal error: too many errors emitted, stopping now"
