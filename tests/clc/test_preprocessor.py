"""The C99 preprocessor: macros, conditionals, includes, #line, diagnostics, pragmas."""

from __future__ import annotations

import pytest

from spirvkit.clc import PreprocessorOptions, Preprocessor, preprocess, preprocess_to_text
from spirvkit.clc.tokens import PRAGMA
from spirvkit.errors import CompileError, SpirvkitError


def pp(src: str, **options) -> str:
    return " ".join(t.text for t in preprocess(src, "t.cl", options=PreprocessorOptions(**options)))


def error(src: str, **options) -> CompileError:
    with pytest.raises(CompileError) as info:
        preprocess(src, "t.cl", options=PreprocessorOptions(**options))
    return info.value


def warnings(src: str, **options) -> list[str]:
    diags: list = []
    preprocess(src, "t.cl", options=PreprocessorOptions(**options), diagnostics=diags)
    return [d.message for d in diags]


# -- C99 §6.10.3.5 examples -------------------------------------------------------------------------

EXAMPLE3_DEFS = """
#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
"""


def test_c99_example_3():
    out = pp(EXAMPLE3_DEFS + """
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(-), str() };
""")
    expected = ("f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);"
                "f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);"
                'int i[] = { 1, 23, 4, 5, };char c[2][6] = { "-", "" };')
    assert out.replace(" ", "") == expected.replace(" ", "")


def test_c99_example_3_exact_output_text():
    text = preprocess_to_text(EXAMPLE3_DEFS + "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n",
                              options=PreprocessorOptions(predefined=False), line_markers=False)
    assert text.strip() == "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);"


def test_c99_example_4():
    src = r"""
#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"""
    toks = [t.text for t in preprocess(src)]
    assert toks[:12] == ["printf", "(", '"x"', '"1"', '"= %d, x"', '"2"', '"= %s"', ",", "x1", ",", "x2", ")"]
    assert r'"strncmp(\"abc\\0d\", \"abc\", '"'\\\\4') == 0\"" in toks
    assert '": @\\n"' in toks
    assert '"vers2.h"' in toks
    assert toks[-5:] == ['"hello"', ";", '"hello"', '", world"'][-4:] or toks[-4:] == ['"hello"', ";", '"hello"', '", world"']


def test_c99_example_5_placemarkers():
    src = """
#define t(x,y,z) x ## y ## z
int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),
 t(10,,), t(,11,), t(,,12), t(,,) };
"""
    assert pp(src) == "int j [ ] = { 123 , 45 , 67 , 89 , 10 , 11 , 12 , } ;"


def test_c99_example_6_redefinitions():
    ok = """
#define OBJ_LIKE (1-1)
#define OBJ_LIKE /* white space */ (1-1) /* other */
#define FUNC_LIKE(a) ( a )
#define FUNC_LIKE( a )( /* note the white space */ \\
 a /* other stuff on this line
 */ )
"""
    assert warnings(ok) == []
    bad = ok + """
#define OBJ_LIKE (0) // different token sequence
#define OBJ_LIKE (1 - 1) // different white space
#define FUNC_LIKE(b) ( a ) // different parameter usage
#define FUNC_LIKE(b) ( b ) // different parameter spelling
"""
    assert warnings(bad) == ["'OBJ_LIKE' macro redefined"] * 2 + ["'FUNC_LIKE' macro redefined"] * 2


def test_c99_example_7_variadic():
    src = r"""
#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"""
    out = [t.text for t in preprocess(src)]
    text = " ".join(out)
    assert text == ('fprintf ( stderr , "Flag" ) ; fprintf ( stderr , "X = %d\\n" , x ) ; '
                    'puts ( "The first, second, and third items." ) ; '
                    '( ( x > y ) ? puts ( "x>y" ) : printf ( "x is %d but y is %d" , x , y ) ) ;')


def test_hash_hash_example():
    src = """
#define hash_hash # ## #
#define mkstr(a) # a
#define in_between(a) mkstr(a)
#define join(c, d) in_between(c hash_hash d)
char p[] = join(x, y);
"""
    assert pp(src) == 'char p [ ] = "x ## y" ;'


# -- stringification ----------------------------------------------------------------------------------

@pytest.mark.parametrize("arg,expected", [
    ("  a  +  b  ", '"a + b"'),
    ("a/**/b", '"a b"'),
    ("a+b", '"a+b"'),
    ('"q\\"x\\\\"', r'"\"q\\\"x\\\\\""'),
    ("'\"'", '"\'\\"\'"'),
    ("\n  multi\n  line\n", '"multi line"'),
    ("", '""'),
    ("f(x, y)", '"f(x, y)"'),
    ("@ \\", '"@ "'),
])
def test_stringify_spacing_and_escapes(arg, expected):
    toks = preprocess(f"#define s(x) #x\ns({arg})")
    assert [t.text for t in toks] == [expected]


def test_stringify_uses_unexpanded_argument():
    src = "#define s(x) #x\n#define xs(x) s(x)\n#define E\n#define V 42\ns(V) xs(V) s(E) xs(E) xs(a E b)"
    assert pp(src) == '"V" "42" "E" "" "a b"'


# -- token pasting --------------------------------------------------------------------------------------

def test_paste_forms_single_tokens():
    src = "#define c(a,b) a##b\nc(x,1) c(1,x) c(-,>) c(<<,=) c(%:,%:) c(L,'a') c(1.,5e) c(1e,-) c(,) c(+,)"
    assert pp(src) == "x1 1x -> <<= %:%: L'a' 1.5e 1e- +"


def test_pasted_token_is_rescanned():
    assert pp("#define c(a,b) a##b\n#define xy 7\nc(x,y)") == "7"


def test_paste_operands_are_not_expanded():
    assert pp("#define c(a,b) a##b\n#define A 1\nc(A,B) c(A, )") == "AB 1"  # a paste result is rescanned


def test_invalid_paste_is_an_error_with_macro_note():
    e = error("#define cat(a, b) a ## b\nx cat(+, -);\n")
    assert e.message == "pasting formed '+-', an invalid preprocessing token"
    assert (e.file, e.line, e.col) == ("t.cl", 2, 3)
    assert str(e).splitlines()[:6] == [
        "t.cl:2:3: error: pasting formed '+-', an invalid preprocessing token",
        "x cat(+, -);",
        "  ^",
        "t.cl:1:21: note: expanded from macro 'cat'",
        "#define cat(a, b) a ## b",
        "                    ^",
    ]


def test_paste_cannot_form_a_comment():
    assert error("#define c(a,b) a##b\nc(/,/)").message.startswith("pasting formed '//'")


def test_hash_hash_at_edges_is_an_error():
    assert error("#define A ## x").message == "'##' cannot appear at start of macro expansion"
    assert error("#define A(x) x ##").message == "'##' cannot appear at end of macro expansion"


def test_hash_needs_parameter():
    assert error("#define A(x) #y").message == "'#' is not followed by a macro parameter"
    assert pp("#define O # x\nO") == "# x"  # not an operator in an object-like macro


# -- variadic -------------------------------------------------------------------------------------------

def test_variadic_forms():
    src = """
#define V(...) [__VA_ARGS__]
#define V1(a, ...) <a|__VA_ARGS__>
#define GNU(fmt, args...) p(fmt, args)
#define COMMA(fmt, ...) p(fmt, ## __VA_ARGS__)
V() V(a, (b, c)) V1(x) V1(x, y, z) GNU(f, 1, 2) COMMA(f) COMMA(f, 1)
"""
    assert pp(src) == "[ ] [ a , ( b , c ) ] < x | > < x | y , z > p ( f , 1 , 2 ) p ( f ) p ( f , 1 )"


def test_va_args_outside_variadic_macro_warns():
    assert warnings("#define F(x) __VA_ARGS__") == [
        "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro"]
    assert error("#define F(__VA_ARGS__) x").message.startswith("__VA_ARGS__ can only appear")


# -- rescanning, painted blue ------------------------------------------------------------------------

def test_recursion_is_suppressed():
    src = """
#define foo foo
#define AA BB
#define BB AA
#define f(x) g(x)
#define g(x) f(x)
#define self(x) x
foo AA BB f(1) f(f(2)) self(self)(3)
"""
    assert pp(src) == "foo AA BB f ( 1 ) f ( f ( 2 ) ) self ( 3 )"


def test_painted_blue_token_stays_blue():
    # NIL(G_1) produces G_1 outside NIL's expansion; it is then invoked normally.
    src = "#define NIL(x) x\n#define G_0(a) NIL(G_1)(a)\n#define G_1(a) NIL(a)\nG_0(42)"
    assert pp(src) == "42"


def test_function_like_name_without_parens_and_across_lines():
    assert pp("#define f(x) <x>\nf f\n(1) f ;") == "f < 1 > f ;"


def test_argument_count_errors():
    e = error("#define F(a, b) a\nF(1)\nF(1, 2, 3)\nF()\n#define Z() z\nZ(1)")
    messages = [d.message for d in e.diagnostics]
    assert messages == ["too few arguments provided to function-like macro invocation",
                        "too many arguments provided to function-like macro invocation",
                        "too few arguments provided to function-like macro invocation",
                        "too many arguments provided to function-like macro invocation"]
    assert "note: macro 'F' defined here" in str(e)


def test_unterminated_invocation():
    e = error("#define F(a) a\nF(1, \n")
    assert e.message == "unterminated function-like macro invocation" and e.line == 2


def test_single_param_macro_with_empty_argument():
    assert pp("#define F(x) [x]\n#define Z() z\nF() Z() F(())") == "[ ] z [ ( ) ]"


def test_macro_definition_errors():
    cases = {
        "#define": "macro name missing",
        "#define 3 x": "macro name must be an identifier",
        "#define defined": "'defined' cannot be used as a macro name",
        "#define F(a b) a": "expected comma in macro parameter list",
        "#define F(a, a) a": "duplicate macro parameter name 'a'",
        "#define F(a,": "missing ')' in macro parameter list",
        "#define F(1) a": "invalid token in macro parameter list",
        "#define F(..., a) a": "missing ')' in macro parameter list",
    }
    for src, message in cases.items():
        assert error(src).message == message, src


def test_whitespace_after_macro_name_warning():
    assert warnings("#define X+1\nX") == ["ISO C99 requires whitespace after the macro name"]
    assert pp("#define X+1\nX") == "+ 1"


# -- #if ----------------------------------------------------------------------------------------------

def cond(expr: str, **options) -> bool:
    return pp(f"#if {expr}\nyes\n#else\nno\n#endif", **options) == "yes"


@pytest.mark.parametrize("expr", [
    "-1 > 0u", "(0u - 1) == 0xffffffffffffffff", "~0u == 18446744073709551615u",
    "(1 << 63) < 0", "(1u << 63) > 0", "-1 >> 1 == -1", "0xffffffffffffffff > 0",
    "18446744073709551615 == -1", "9223372036854775807 + 0 > 0", "(-7 / 2) == -3",
    "(-7 % 2) == -1", "(7 % -2) == 1", "'\\377' < 0", "'ab' == 0x6162", "(1 ? -1 : 0u) > 0",
    "(0 || 2) == 1", "!0 == 1", "~0 == -1", "-(-9223372036854775807 - 1) < 0",
    "!(0 && (1 / 0))", "1 || (1 % 0)", "1 ? 1 : 1/0", "0 ? 1/0 : 1", "(1, 2) == 2",
    "010 == 8 && 0x1F == 31 && 5LL == 5 && 5lu == 5", "defined X == 0", "UNDEF == 0",
])
def test_if_arithmetic_true(expr):
    assert cond(expr)


@pytest.mark.parametrize("expr,message", [
    ("1 / 0", "division by zero in preprocessor expression"),
    ("1 % 0", "remainder by zero in preprocessor expression"),
    ("1.0", "floating point literal in preprocessor expression"),
    ("(1", "expected ')' in preprocessor expression"),
    ("1 +", "expected value in expression"),
    ("FOO(1)", "function-like macro 'FOO' is not defined"),
    ("1 = 1", "token is not a valid binary operator in a preprocessor subexpression"),
    ('"s"', "invalid token at start of a preprocessor expression"),
    ("1 ? 2", "expected ':' in preprocessor expression"),
    ("08", "invalid digit '8' in octal constant"),
    ("1xyz", "invalid suffix 'xyz' on integer constant"),
    ("18446744073709551616", "integer literal is too large to be represented in any integer type"),
    ("defined", "macro name missing"),
    ("defined(X", "missing ')' after 'defined'"),
])
def test_if_errors(expr, message):
    e = error(f"#if {expr}\n#endif")
    assert e.message == message
    assert e.line == 1


def test_if_with_no_expression():
    assert error("#if\n#endif").message == "#if with no expression"


def test_if_overflow_warns():
    assert warnings("#if 9223372036854775807 + 1\n#endif") == ["integer overflow in preprocessor expression"]
    assert warnings("#if 0 && (9223372036854775807 + 1)\n#endif") == []


def test_defined_from_macro_expansion():
    assert pp("#define D defined(X)\n#define X\n#if D\nyes\n#endif") == "yes"


def test_deeply_nested_parentheses_are_an_error_not_a_crash():
    e = error("#if " + "(" * 5000 + "1" + ")" * 5000 + "\n#endif")
    assert "nested too deeply" in e.message


def test_elif_not_evaluated_after_taken_group():
    assert pp("#if 1\na\n#elif 1/0\nb\n#else\nc\n#endif") == "a"


def test_skipped_groups_are_not_diagnosed():
    src = "#if 0\n#bogus\n#if 1/0\n#error no\n#endif\nit's fine\n#else\nok\n#endif"
    assert pp(src) == "ok"


def test_conditional_structure_errors():
    assert error("#else").message == "#else without #if"
    assert error("#endif").message == "#endif without #if"
    assert error("#elif 1").message == "#elif without #if"
    assert error("#if 1\n#else\n#else\n#endif").message == "#else after #else"
    assert error("#if 1\n#else\n#elif 1\n#endif").message == "#elif after #else"
    e = error("x\n#ifdef A\n")
    assert (e.message, e.line, e.col) == ("unterminated conditional directive", 2, 2)


def test_ifdef_ifndef():
    assert pp("#define A\n#ifdef A\n1\n#endif\n#ifndef A\n2\n#else\n3\n#endif\n#ifdef __LINE__\n4\n#endif") == "1 3 4"
    assert error("#ifdef\n#endif").message == "macro name missing"
    assert error("#ifdef 1\n#endif").message == "macro name must be an identifier"
    assert warnings("#ifdef A B\n#endif") == ["extra tokens at end of #ifdef directive"]


# -- #include ----------------------------------------------------------------------------------------

def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def run_file(main, **options):
    return " ".join(t.text for t in preprocess(main.read_text(), str(main), options=PreprocessorOptions(**options)))


def test_include_search_order(tmp_path):
    write(tmp_path / "src" / "a.h", "local_a")
    write(tmp_path / "i1" / "a.h", "i1_a")
    write(tmp_path / "i1" / "b.h", "i1_b")
    write(tmp_path / "i2" / "b.h", "i2_b")
    write(tmp_path / "i2" / "c.h", "i2_c")
    write(tmp_path / "sys" / "c.h", "sys_c")
    write(tmp_path / "sys" / "d.h", "sys_d")
    main = write(tmp_path / "src" / "main.cl",
                 '#include "a.h"\n#include <a.h>\n#include "b.h"\n#include <c.h>\n#include "d.h"\n')
    out = run_file(main, include_dirs=[str(tmp_path / "i1"), str(tmp_path / "i2")],
                   system_include_dirs=[str(tmp_path / "sys")])
    assert out == "local_a i1_a i1_b i2_c sys_d"


def test_quoted_include_is_relative_to_the_including_file(tmp_path):
    write(tmp_path / "lib" / "x.h", '#include "y.h"\n')
    write(tmp_path / "lib" / "y.h", "lib_y")
    write(tmp_path / "y.h", "top_y")
    main = write(tmp_path / "main.cl", '#include "lib/x.h"\n#include "y.h"\n')
    assert run_file(main) == "lib_y top_y"


def test_include_loop_hits_the_depth_limit(tmp_path):
    main = write(tmp_path / "loop.cl", '#include "loop.cl"\n')
    with pytest.raises(CompileError) as info:
        run_file(main)
    assert info.value.message == "#include nested too deeply"
    assert len([d for d in info.value.diagnostics if d.severity == "fatal error"]) == 1


def test_include_guard_and_pragma_once(tmp_path):
    write(tmp_path / "g.h", "#ifndef G\n#define G\nguarded\n#endif\n")
    write(tmp_path / "o.h", "#pragma once\nonce\n")
    main = write(tmp_path / "m.cl", '#include "g.h"\n#include "g.h"\n#include "o.h"\n#include "./o.h"\n')
    assert run_file(main) == "guarded once"


def test_pragma_once_in_main_file_warns():
    assert warnings("#pragma once\nx") == ["#pragma once in main file"]


def test_missing_include_is_fatal(tmp_path):
    main = write(tmp_path / "m.cl", '#include "nope.h"\nafter\n#error not reached\n')
    with pytest.raises(CompileError) as info:
        run_file(main)
    e = info.value
    assert e.message == "'nope.h' file not found" and (e.line, e.col) == (1, 10)
    assert str(e).startswith(f"{main}:1:10: fatal error: 'nope.h' file not found")
    assert "not reached" not in str(e)


def test_computed_include_and_bad_forms(tmp_path):
    write(tmp_path / "inc" / "v.h", "via_macro")
    main = write(tmp_path / "m.cl", '#define H <v.h>\n#define Q "v.h"\n#include H\n#include Q\n')
    (tmp_path / "v.h").write_text("quoted_v")
    assert run_file(main, include_dirs=[str(tmp_path / "inc")]) == "via_macro quoted_v"
    assert error("#include").message == 'expected "FILENAME" or <FILENAME>'
    assert error("#include foo").message == 'expected "FILENAME" or <FILENAME>'


def test_include_file_and_level_macros(tmp_path):
    write(tmp_path / "h.h", "__FILE__ __INCLUDE_LEVEL__ __BASE_FILE__")
    main = write(tmp_path / "m.cl", '#include "h.h"\n__FILE__ __INCLUDE_LEVEL__')
    toks = run_file(main).split()
    assert toks == [f'"{tmp_path}/h.h"', "1", f'"{main}"', f'"{main}"', "0"]


def test_errors_in_included_file_are_located_there(tmp_path):
    write(tmp_path / "bad.h", "ok\n#error in header\n")
    main = write(tmp_path / "m.cl", '#include "bad.h"\n')
    with pytest.raises(CompileError) as info:
        run_file(main)
    assert (info.value.file, info.value.line) == (str(tmp_path / "bad.h"), 2)


# -- #line, __LINE__ --------------------------------------------------------------------------------

def test_line_directive_changes_line_and_file():
    src = 'a __LINE__ __FILE__\n#line 100\nb __LINE__\n#line 7 "x.cl"\nc __LINE__ __FILE__\n#define N 50\n#line N\nd __LINE__'
    assert pp(src) == 'a 1 "t.cl" b 100 c 7 "x.cl" d 50'


def test_line_inside_multiline_macro_call_is_the_closing_paren_line():
    assert pp("#define F(x) x __LINE__\nF(\na\n)") == "a 4"
    assert pp("#define L __LINE__\nL\n  L") == "2 3"


def test_line_directive_affects_diagnostics_but_shows_the_real_source_line():
    e = error('ok\n#line 40 "virtual.cl"\nfine\n#error here')
    assert (e.file, e.line, e.col) == ("virtual.cl", 41, 2)
    assert str(e).splitlines()[1] == "#error here"


def test_bad_line_directives():
    assert error("#line x").message == "#line directive requires a positive integer argument"
    assert error("#line 5 x").message == "invalid filename for #line directive"


def test_gnu_line_marker_round_trip():
    assert pp('# 30 "other.cl"\n__LINE__ __FILE__') == '30 "other.cl"'


# -- locations through expansion --------------------------------------------------------------------

def test_token_locations_and_expansion_chain():
    src = "#define INNER oops\n#define OUTER (INNER)\nint x = OUTER;\n"
    toks = preprocess(src, "loc.cl")
    oops = next(t for t in toks if t.text == "oops")
    assert (oops.loc.line, oops.loc.col) == (1, 15)  # spelled in INNER's definition
    chain = oops.expansion.chain()
    assert [e.name for e in chain] == ["INNER", "OUTER"]
    assert (chain[0].loc.line, chain[0].loc.col) == (2, 16)  # INNER written in OUTER's body
    assert (chain[1].loc.line, chain[1].loc.col) == (3, 9)  # OUTER written in the file
    assert chain[1].definition.line == 2
    plain = next(t for t in toks if t.text == "x")
    assert plain.expansion is None and (plain.loc.line, plain.loc.col) == (3, 5)


def test_argument_tokens_keep_their_own_location():
    toks = preprocess("#define F(a) [a]\nF(  arg  )")
    arg = next(t for t in toks if t.text == "arg")
    assert (arg.loc.line, arg.loc.col) == (2, 5)


def test_error_in_nested_expansion_has_clang_notes():
    e = error("#define BAD(a) a ## +\n#define USE BAD(-)\nUSE\n")
    lines = str(e).splitlines()
    assert lines[0] == "t.cl:3:1: error: pasting formed '-+', an invalid preprocessing token"
    assert lines[3] == "t.cl:1:18: note: expanded from macro 'BAD'"
    assert lines[6] == "t.cl:2:13: note: expanded from macro 'USE'"
    assert lines[-1] == "1 error generated."


# -- diagnostics policy ------------------------------------------------------------------------------

def test_all_errors_are_reported():
    e = error("#error one\n#error two\n#bogus\nx")
    assert [d.message for d in e.diagnostics] == ["one", "two", "invalid preprocessing directive"]
    assert str(e).endswith("3 errors generated.")
    assert isinstance(e, SpirvkitError)


def test_error_message_keeps_source_text():
    assert error("#error  use   -D FOO=1 /* c */").message == "use   -D FOO=1 /* c */"


def test_warning_directive_and_werror_and_w():
    assert warnings("#warning careful\nx") == ["careful"]
    e = error("#warning careful\nx", warnings_as_errors=True)
    assert "error: careful [-Werror,-W#warnings]" in str(e)
    assert warnings("#warning careful\n#define A 1\n#define A 2", suppress_warnings=True) == []


def test_macro_redefinition_note():
    pp_ = Preprocessor(PreprocessorOptions())
    pp_.run("#define A 1\n#define A 2\n", "r.cl")
    (w,) = pp_.warnings
    text = w.render(pp_.sources)
    assert text.startswith("r.cl:2:9: warning: 'A' macro redefined [-Wmacro-redefined]")
    assert "r.cl:1:9: note: previous definition is here" in text


def test_builtin_macro_redefinition_warns():
    assert warnings("#define __LINE__ 1\n#undef __FILE__") == ["redefining builtin macro", "undefining builtin macro"]


def test_invalid_tokens_in_active_code():
    assert error("char c = 'x;").message == "missing terminating ' character"
    assert error('s = "abc;').message == 'missing terminating " character'


def test_unterminated_comment_is_reported():
    assert error("a /* b").message == "unterminated /* comment"


def test_trigraph_warning():
    assert pp("??=define X 1\nX") == "1"
    assert warnings("??=define X 1") == ["trigraph converted to '#' character"]


# -- pragmas --------------------------------------------------------------------------------------------

def test_extension_pragmas_recorded_with_locations():
    p = Preprocessor(PreprocessorOptions())
    toks = p.run("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nint a;\n"
                 "#pragma OPENCL EXTENSION cl_khr_fp64 : disable\n", "e.cl")
    pragmas = [t for t in toks if t.kind == PRAGMA]
    assert [(t.pragma.kind, t.pragma.name, t.pragma.enabled, t.loc.line) for t in pragmas] == [
        ("extension", "cl_khr_fp64", True, 1), ("extension", "cl_khr_fp64", False, 3)]
    assert [(e.name, e.enabled, e.loc.line) for e in p.extension_events] == [
        ("cl_khr_fp64", True, 1), ("cl_khr_fp64", False, 3)]
    assert p.extension_state == {"cl_khr_fp64": False}
    assert [t.text for t in toks if t.kind != PRAGMA] == ["int", "a", ";"]


def test_extension_pragma_is_not_macro_expanded():
    toks = preprocess("#define cl_khr_fp64 1\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
    assert toks[0].pragma.name == "cl_khr_fp64"


def test_extension_pragma_warnings():
    assert warnings("#pragma OPENCL EXTENSION cl_foo : enable") == ["unknown OpenCL extension 'cl_foo' - ignoring"]
    assert warnings("#pragma OPENCL EXTENSION cl_khr_subgroups : enable") == [
        "unsupported OpenCL extension 'cl_khr_subgroups' - ignoring"]
    assert warnings("#pragma OPENCL EXTENSION all : enable") == ["expected 'disable' - ignoring"]
    assert warnings("#pragma OPENCL EXTENSION all : disable") == []
    assert warnings("#pragma OPENCL EXTENSION cl_khr_fp16 enable") == ["expected ':' - ignoring"]
    assert warnings("#pragma OPENCL EXTENSION cl_khr_fp16 : on") == [
        "expected 'enable', 'disable', 'begin' or 'end' - ignoring"]
    assert warnings("#pragma OPENCL EXTENSION cl_khr_fp64 : enable", extensions=["-cl_khr_fp64"]) == [
        "unsupported OpenCL extension 'cl_khr_fp64' - ignoring"]


def test_unroll_and_fp_contract_pragmas():
    toks = preprocess("#define N 8\n#pragma unroll\n#pragma unroll N\n#pragma unroll(4)\n"
                      "#pragma unroll N*2\n#pragma nounroll\n#pragma OPENCL FP_CONTRACT OFF\n"
                      "#pragma STDC FP_CONTRACT ON\nfor")
    ps = [t.pragma for t in toks if t.kind == PRAGMA]
    assert [(p.kind, p.value if not isinstance(p.value, list) else [x.text for x in p.value]) for p in ps] == [
        ("unroll", None), ("unroll", 8), ("unroll", 4), ("unroll", ["8", "*", "2"]),
        ("nounroll", None), ("fp_contract", "OFF"), ("fp_contract", "ON")]
    assert toks[-1].text == "for"


def test_unknown_pragmas_ignored_with_optional_warning():
    assert warnings("#pragma weird stuff\nx") == []
    assert warnings("#pragma weird stuff\nx", warn_unknown_pragmas=True) == ["unknown pragma ignored"]
    toks = preprocess("#pragma weird stuff\nx")
    assert toks[0].kind == PRAGMA and toks[0].pragma.kind == "other"


def test_pragma_operator():
    src = ('#define DO(x) _Pragma(#x)\n#define UNROLL(n) DO(unroll n)\na UNROLL(8) b\n'
           '_Pragma("OPENCL EXTENSION cl_khr_fp16 : enable") c')
    toks = preprocess(src)
    assert [t.text if t.kind != PRAGMA else (t.pragma.kind, t.pragma.value or t.pragma.name)
            for t in toks] == ["a", ("unroll", 8), "b", ("extension", "cl_khr_fp16"), "c"]
    assert error("_Pragma(x)").message == "_Pragma takes a parenthesized string literal"


def test_pragma_message():
    assert warnings('#pragma message("hello " "there")') == ["hello there"]


# -- options ---------------------------------------------------------------------------------------------

def test_defines_and_undefines():
    assert pp("A B F(2) __OPENCL_C_VERSION__", defines=["A", "B=x y", "F(v)=v+v"],
              undefines=["__OPENCL_C_VERSION__"]) == "1 x y 2 + 2 __OPENCL_C_VERSION__"


def test_options_from_clang_style_args():
    o = PreprocessorOptions.from_args("-cl-std=CL2.0 -D A=1 -DB -U C -I inc -Iinc2 -w -Werror "
                                      "-cl-fast-relaxed-math -cl-ext=-cl_khr_fp64 -cl-mad-enable")
    assert (o.cl_std, list(o.defines), list(o.undefines), list(o.include_dirs)) == (
        "CL2.0", ["A=1", "B"], ["C"], ["inc", "inc2"])
    assert o.suppress_warnings and o.warnings_as_errors and o.fast_relaxed_math
    assert list(o.extensions) == ["-cl_khr_fp64"]


def test_date_time_counter():
    import calendar
    stamp = calendar.timegm((2024, 3, 5, 7, 8, 9, 0, 0, 0))
    import time as _time
    out = pp("__DATE__ __TIME__ __COUNTER__ __COUNTER__", timestamp=stamp)
    local = _time.localtime(stamp)
    assert out.startswith('"' + _time.strftime("%b", local))
    assert f'{local.tm_mday:2d} {local.tm_year}"' in out
    assert out.endswith("0 1")
    assert _time.strftime("%H:%M:%S", local) in out


def test_commandline_define_errors_are_reported():
    e = error("x", defines=["3=4"])
    assert e.message == "macro name must be an identifier" and e.file == "<command line>"


# -- -E output ------------------------------------------------------------------------------------------

def test_text_output_line_markers(tmp_path):
    write(tmp_path / "h.h", "header_token\n")
    main = write(tmp_path / "m.cl", 'first\n#include "h.h"\nsecond\n\n\n\n\n\n\n\n\n\n\n\nlate\n')
    text = preprocess_to_text(main.read_text(), str(main))
    assert text.splitlines() == [
        f'# 1 "{main}"', "first", f'# 1 "{tmp_path}/h.h" 1', "header_token",
        f'# 3 "{main}" 2', "second", f'# 15 "{main}"', "late"]


def test_text_output_keeps_columns_and_avoids_accidental_pasting():
    text = preprocess_to_text("#define E\n#define P +\n  +E+ -P x E y\n", line_markers=False)
    assert text.strip("\n") == "  + + -+ x y"  # as clang: only "++" would re-lex as one token


def test_text_output_round_trips():
    src = ("#define F(x, ...) x + #__VA_ARGS__\n#define G(a) a##a\n"
           "int main() {\n  return F(1, a, b) * G(2);\n}\n#pragma unroll 2\n")
    once = preprocess_to_text(src)
    twice = preprocess_to_text(once)
    assert [t.text for t in preprocess(once)] == [t.text for t in preprocess(twice)]
    assert '1 + "a, b" * 22' in once and "#pragma unroll 2" in once


# -- odds and ends ----------------------------------------------------------------------------------

def test_directives_inside_macro_arguments():
    src = "#define F(x) [x]\n#define A\nF(\n#ifdef A\none\n#else\ntwo\n#endif\n)"
    assert pp(src) == "[ one ]"


def test_crlf_and_bom():
    assert pp("\ufeff#define A 1\r\nA \\\r\nB\r\n") == "1 B"


def test_null_directive_and_hash_not_at_line_start():
    assert pp("#\n# /* c */\nx # y") == "x # y"
    assert pp("#define E\nE # define X 1\nX") == "# define X 1 X"


def test_digraph_directives_and_operators():
    assert pp("%:define S(x) %:x\n%:define C(a, b) a %:%: b\nS(q) C(x, y)") == '"q" xy'


def test_tokens_carry_spacing_flags_for_the_parser():
    toks = preprocess("#define F(a) a+1\nint x =\n  F(y);")
    assert [(t.text, t.at_bol, t.has_space) for t in toks] == [
        ("int", True, False), ("x", False, True), ("=", False, True), ("y", True, True),
        ("+", False, False), ("1", False, False), (";", False, False)]
