"""clang-15's default-on parentheses warnings (spirvkit.clc.warn_parentheses).

The expectations are clang-15's own output for the same sources, recorded (the suite never runs
clang): each diagnostic's header line and the column of its caret, made by

    clang-15 -cl-std=CL2.0 -target spir64 -Xclang -finclude-default-header -fsyntax-only t.cl

(with -Werror for WERROR), keeping the lines "t.cl:L:C: ..." and the '^' column of the caret
line under each. The sources also hold what clang-15 does not warn about by default (``&&``
within ``||``, ``&`` within ``|``, ``a < b < c``, parenthesised assignments, ``(a != b)``, an
equality whose left side is not a modifiable lvalue, parentheses from a macro, ``<<`` on a
vector), which must stay silent.
"""

from __future__ import annotations

import re

import pytest

import spirvkit
from spirvkit.errors import CompileError

SOURCES = {
    "main": """\
kernel void k(global int *o, int a, int b, int c, int4 v, int4 w, const int d) {
    o[0] = a < b ^ c;
    o[1] = a & b == c;
    o[2] = a || b && c;
    o[3] = a | b & c;
    o[4] = a << b + c;
    if (a = b) o[5] = 1;
    if ((a == b)) o[6] = 1;
    while (a = b) o[7] = 1;
    o[8] = a + b << c;
    o[9] = a == b | c;
    o[10] = (a = b) ? 1 : 2;
    o[12] = a && b || c;
    o[13] = a ^ b | c;
    o[14] = a >> b - c;
    o[15] = (a < b) < c;
    o[16] = a < b < c;
    for (; a = b;) o[17] = 1;
    do { o[18] = 1; } while (a = b);
    if (a |= b) o[19] = 1;
    if (!(a = b)) o[20] = 1;
    if ((a = b)) o[21] = 1;
    if ((a != b)) o[22] = 1;
    int4 r = v < w ^ v;
    r = v & w == v;
    if ((a == b) && c) o[23] = 1;
    if (((a == b))) o[24] = 1;
    if (a = b && c) o[25] = 1;
    o[26] = a & (b < c);
    o[27] = 1 & a < c;
    o[28] = (float)a < b ^ c;
    o[29] = a < b | c < a;
    o[30] = a == b & (c & a);
    o[31] = a + (b < c) ? 1 : 2;
    o[32] = a * !b ? 1 : 2;
    o[33] = a + b ? 1 : 2;
    o[34] = a & b ? 1 : 2;
    r = v << a + b;
    r = v >> a + b;
    if ((1 == a)) o[35] = 1;
    if ((d == a)) o[36] = 1;
    if ((o[2] == a)) o[37] = 1;
    if ((v.x == a)) o[38] = 1;
    if (((int)a == b)) o[39] = 1;
    if ((*o == b)) o[40] = 1;
    o[41] = a ? (a == b) : 0;
    for (; (a == b);) o[42] = 1;
    if ((a) = b) o[43] = 1;
    bool f = a;
    o[44] = a + f ? 1 : 2;
    o[45] = a + b >> c << d;
}
""",
    "macro": r"""#define UP 0
#define SORT(x, dir) \
   c = x < b ^ dir; \
   c = (x < b ^ dir) * 4;
#define EQ(x, y) ((x) == (y))
#define PAREN(e) (e)
#define SHIFT(x) x << a + 1
kernel void k(global int *o, int a, int b, int c) {
   SORT(a, UP)
   if (EQ(a, b)) o[0] = 1;
   if (PAREN(a == b)) o[1] = 1;
   if (PAREN(a = b)) o[2] = 1;
   o[3] = SHIFT(b);
}
""",
    # Block literals' bodies (at program scope and in a function), as clang checks them.
    "blocks": """\
int (^__constant g)(int) = ^(int x) { return x & 1 == x; };
kernel void k(global int *o, int a, int b) {
    int (^f)(int) = ^(int x) { if (x = a) return x << a + b; return a < b ^ x; };
    o[0] = f(a) + g(b);
}
""",
}

CLANG = {
    'main': [
        ('t.cl:2:18: warning: ^ has lower precedence than <; < will be evaluated first [-Wparentheses]', 18),
        ("t.cl:2:18: note: place parentheses around the '<' expression to silence this warning", 18),
        ('t.cl:2:18: note: place parentheses around the ^ expression to evaluate it first', 18),
        ('t.cl:3:14: warning: & has lower precedence than ==; == will be evaluated first [-Wparentheses]', 14),
        ("t.cl:3:14: note: place parentheses around the '==' expression to silence this warning", 14),
        ('t.cl:3:14: note: place parentheses around the & expression to evaluate it first', 14),
        ("t.cl:6:19: warning: operator '<<' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]", 19),
        ("t.cl:6:19: note: place parentheses around the '+' expression to silence this warning", 19),
        ('t.cl:7:11: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 11),
        ('t.cl:7:11: note: place parentheses around the assignment to silence this warning', 11),
        ("t.cl:7:11: note: use '==' to turn this assignment into an equality comparison", 11),
        ('t.cl:8:12: warning: equality comparison with extraneous parentheses [-Wparentheses-equality]', 12),
        ('t.cl:8:12: note: remove extraneous parentheses around the comparison to silence this warning', 12),
        ("t.cl:8:12: note: use '=' to turn this equality comparison into an assignment", 12),
        ('t.cl:9:14: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 14),
        ('t.cl:9:14: note: place parentheses around the assignment to silence this warning', 14),
        ("t.cl:9:14: note: use '==' to turn this assignment into an equality comparison", 14),
        ("t.cl:10:14: warning: operator '<<' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]", 14),
        ("t.cl:10:14: note: place parentheses around the '+' expression to silence this warning", 14),
        ('t.cl:11:19: warning: | has lower precedence than ==; == will be evaluated first [-Wparentheses]', 19),
        ("t.cl:11:19: note: place parentheses around the '==' expression to silence this warning", 19),
        ('t.cl:11:19: note: place parentheses around the | expression to evaluate it first', 19),
        ("t.cl:15:20: warning: operator '>>' has lower precedence than '-'; '-' will be evaluated first [-Wshift-op-parentheses]", 20),
        ("t.cl:15:20: note: place parentheses around the '-' expression to silence this warning", 20),
        ('t.cl:18:14: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 14),
        ('t.cl:18:14: note: place parentheses around the assignment to silence this warning', 14),
        ("t.cl:18:14: note: use '==' to turn this assignment into an equality comparison", 14),
        ('t.cl:19:32: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 32),
        ('t.cl:19:32: note: place parentheses around the assignment to silence this warning', 32),
        ("t.cl:19:32: note: use '==' to turn this assignment into an equality comparison", 32),
        ('t.cl:20:11: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 11),
        ('t.cl:20:11: note: place parentheses around the assignment to silence this warning', 11),
        ("t.cl:20:11: note: use '!=' to turn this compound assignment into an inequality comparison", 11),
        ('t.cl:24:20: warning: ^ has lower precedence than <; < will be evaluated first [-Wparentheses]', 20),
        ("t.cl:24:20: note: place parentheses around the '<' expression to silence this warning", 20),
        ('t.cl:24:20: note: place parentheses around the ^ expression to evaluate it first', 20),
        ('t.cl:25:11: warning: & has lower precedence than ==; == will be evaluated first [-Wparentheses]', 11),
        ("t.cl:25:11: note: place parentheses around the '==' expression to silence this warning", 11),
        ('t.cl:25:11: note: place parentheses around the & expression to evaluate it first', 11),
        ('t.cl:27:13: warning: equality comparison with extraneous parentheses [-Wparentheses-equality]', 13),
        ('t.cl:27:13: note: remove extraneous parentheses around the comparison to silence this warning', 13),
        ("t.cl:27:13: note: use '=' to turn this equality comparison into an assignment", 13),
        ('t.cl:28:11: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 11),
        ('t.cl:28:11: note: place parentheses around the assignment to silence this warning', 11),
        ("t.cl:28:11: note: use '==' to turn this assignment into an equality comparison", 11),
        ('t.cl:30:15: warning: & has lower precedence than <; < will be evaluated first [-Wparentheses]', 15),
        ("t.cl:30:15: note: place parentheses around the '<' expression to silence this warning", 15),
        ('t.cl:30:15: note: place parentheses around the & expression to evaluate it first', 15),
        ('t.cl:31:26: warning: ^ has lower precedence than <; < will be evaluated first [-Wparentheses]', 26),
        ("t.cl:31:26: note: place parentheses around the '<' expression to silence this warning", 26),
        ('t.cl:31:26: note: place parentheses around the ^ expression to evaluate it first', 26),
        ('t.cl:33:20: warning: & has lower precedence than ==; == will be evaluated first [-Wparentheses]', 20),
        ("t.cl:33:20: note: place parentheses around the '==' expression to silence this warning", 20),
        ('t.cl:33:20: note: place parentheses around the & expression to evaluate it first', 20),
        ("t.cl:34:25: warning: operator '?:' has lower precedence than '+'; '+' will be evaluated first [-Wparentheses]", 25),
        ("t.cl:34:25: note: place parentheses around the '+' expression to silence this warning", 25),
        ("t.cl:34:25: note: place parentheses around the '?:' expression to evaluate it first", 25),
        ("t.cl:35:20: warning: operator '?:' has lower precedence than '*'; '*' will be evaluated first [-Wparentheses]", 20),
        ("t.cl:35:20: note: place parentheses around the '*' expression to silence this warning", 20),
        ("t.cl:35:20: note: place parentheses around the '?:' expression to evaluate it first", 20),
        ("t.cl:39:16: warning: operator '>>' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]", 16),
        ("t.cl:39:16: note: place parentheses around the '+' expression to silence this warning", 16),
        ('t.cl:42:15: warning: equality comparison with extraneous parentheses [-Wparentheses-equality]', 15),
        ('t.cl:42:15: note: remove extraneous parentheses around the comparison to silence this warning', 15),
        ("t.cl:42:15: note: use '=' to turn this equality comparison into an assignment", 15),
        ('t.cl:43:14: warning: equality comparison with extraneous parentheses [-Wparentheses-equality]', 14),
        ('t.cl:43:14: note: remove extraneous parentheses around the comparison to silence this warning', 14),
        ("t.cl:43:14: note: use '=' to turn this equality comparison into an assignment", 14),
        ('t.cl:45:13: warning: equality comparison with extraneous parentheses [-Wparentheses-equality]', 13),
        ('t.cl:45:13: note: remove extraneous parentheses around the comparison to silence this warning', 13),
        ("t.cl:45:13: note: use '=' to turn this equality comparison into an assignment", 13),
        ('t.cl:47:15: warning: equality comparison with extraneous parentheses [-Wparentheses-equality]', 15),
        ('t.cl:47:15: note: remove extraneous parentheses around the comparison to silence this warning', 15),
        ("t.cl:47:15: note: use '=' to turn this equality comparison into an assignment", 15),
        ('t.cl:48:13: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 13),
        ('t.cl:48:13: note: place parentheses around the assignment to silence this warning', 13),
        ("t.cl:48:13: note: use '==' to turn this assignment into an equality comparison", 13),
        ("t.cl:50:19: warning: operator '?:' has lower precedence than '+'; '+' will be evaluated first [-Wparentheses]", 19),
        ("t.cl:50:19: note: place parentheses around the '+' expression to silence this warning", 19),
        ("t.cl:50:19: note: place parentheses around the '?:' expression to evaluate it first", 19),
        ("t.cl:51:15: warning: operator '>>' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]", 15),
        ("t.cl:51:15: note: place parentheses around the '+' expression to silence this warning", 15),
    ],
    'macro': [
        ('t.cl:9:4: warning: ^ has lower precedence than <; < will be evaluated first [-Wparentheses]', 4),
        ("t.cl:3:14: note: expanded from macro 'SORT'", 14),
        ("t.cl:9:4: note: place parentheses around the '<' expression to silence this warning", 4),
        ("t.cl:3:14: note: expanded from macro 'SORT'", 14),
        ('t.cl:9:4: note: place parentheses around the ^ expression to evaluate it first', 4),
        ("t.cl:3:14: note: expanded from macro 'SORT'", 14),
        ('t.cl:9:4: warning: ^ has lower precedence than <; < will be evaluated first [-Wparentheses]', 4),
        ("t.cl:4:15: note: expanded from macro 'SORT'", 15),
        ("t.cl:9:4: note: place parentheses around the '<' expression to silence this warning", 4),
        ("t.cl:4:15: note: expanded from macro 'SORT'", 15),
        ('t.cl:9:4: note: place parentheses around the ^ expression to evaluate it first', 4),
        ("t.cl:4:15: note: expanded from macro 'SORT'", 15),
        ("t.cl:13:11: warning: operator '<<' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]", 11),
        ("t.cl:7:25: note: expanded from macro 'SHIFT'", 25),
        ("t.cl:13:11: note: place parentheses around the '+' expression to silence this warning", 11),
        ("t.cl:7:25: note: expanded from macro 'SHIFT'", 25),
    ],
    'blocks': [
        ('t.cl:1:48: warning: & has lower precedence than ==; == will be evaluated first [-Wparentheses]', 48),
        ("t.cl:1:48: note: place parentheses around the '==' expression to silence this warning", 48),
        ('t.cl:1:48: note: place parentheses around the & expression to evaluate it first', 48),
        ('t.cl:3:38: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]', 38),
        ('t.cl:3:38: note: place parentheses around the assignment to silence this warning', 38),
        ("t.cl:3:38: note: use '==' to turn this assignment into an equality comparison", 38),
        ("t.cl:3:57: warning: operator '<<' has lower precedence than '+'; '+' will be evaluated first [-Wshift-op-parentheses]", 57),
        ("t.cl:3:57: note: place parentheses around the '+' expression to silence this warning", 57),
        ('t.cl:3:75: warning: ^ has lower precedence than <; < will be evaluated first [-Wparentheses]', 75),
        ("t.cl:3:75: note: place parentheses around the '<' expression to silence this warning", 75),
        ('t.cl:3:75: note: place parentheses around the ^ expression to evaluate it first', 75),
    ],
}

WERROR = [
    't.cl:9:4: error: ^ has lower precedence than <; < will be evaluated first [-Werror,-Wparentheses]',
    't.cl:9:4: error: ^ has lower precedence than <; < will be evaluated first [-Werror,-Wparentheses]',
    "t.cl:13:11: error: operator '<<' has lower precedence than '+'; '+' will be evaluated first [-Werror,-Wshift-op-parentheses]",
]


def rendered(diagnostics) -> list[tuple[str, int]]:
    """(header line, caret column) for each diagnostic and note, as clang prints them (from
    a list of diagnostics, or from the text of a CompileError)."""
    text = diagnostics if isinstance(diagnostics, str) else "\n".join(d.render(None) for d in diagnostics)
    lines = text.splitlines()
    return [(line, lines[i + 2].index("^") + 1) for i, line in enumerate(lines) if re.match(r"t\.cl:\d+:\d+: ", line)]


def warnings_of(source: str, options: str = "-cl-std=CL2.0"):
    found: list = []
    spirvkit.compile_cl(source, options, filename="t.cl", diagnostics=found)
    return found


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_same_warnings_notes_and_carets_as_clang(name):
    assert rendered(warnings_of(SOURCES[name])) == CLANG[name]


def test_werror_makes_them_errors_named_as_clang_does():
    with pytest.raises(CompileError) as info:
        spirvkit.compile_cl(SOURCES["macro"], "-cl-std=CL2.0 -Werror", filename="t.cl")
    assert [h for h, _ in rendered(str(info.value)) if ": error: " in h] == WERROR
    assert str(info.value).endswith(f"{len(WERROR)} errors generated.")


def test_wno_parentheses_turns_off_the_whole_group():
    assert warnings_of(SOURCES["main"], "-cl-std=CL2.0 -Wno-parentheses") == []
    assert warnings_of(SOURCES["main"], "-cl-std=CL2.0 -w") == []


@pytest.mark.parametrize("option", ["-Wshift-op-parentheses", "-Wparentheses-equality"])
def test_wno_one_warning_keeps_the_others(option):
    expected = [d for d in CLANG["main"] if ": warning: " in d[0] and not d[0].endswith(f"[{option}]")]
    kept = [d for d in rendered(warnings_of(SOURCES["main"], f"-cl-std=CL2.0 -Wno-{option[2:]}")) if ": warning: " in d[0]]
    assert kept == expected and len(kept) < len([d for d in CLANG["main"] if ": warning: " in d[0]])


def test_warnings_come_in_source_order_with_the_others():
    """A parse-time parentheses warning and a sema warning in one function keep source order."""
    source = ("int f(int a) {\n  if (a = 1) return 1;\n}\n"
              "kernel void k(global int *o, int a, int b) {\n  o[0] = a < b ^ 1;\n}\n")
    assert [d.option for d in warnings_of(source)] == ["-Wparentheses", "-Wreturn-type", "-Wparentheses"]


def test_the_program_still_means_what_c_says():
    """The warning changes nothing: a < b ^ c is (a < b) ^ c."""
    import numpy as np
    from lang_support import run_source
    source = "kernel void k(global int *o, int a, int b, int c) { o[0] = a < b ^ c; o[1] = a << b + c; }"
    out = np.zeros(2, np.int32)
    run_source(source, "k", out, np.int32(1), np.int32(2), np.int32(1))
    assert list(out) == [0, 8]
