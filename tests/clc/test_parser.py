"""The OpenCL C parser: expressions, declarators, statements, initializers, attributes and
pragmas, checked through the AST and its text forms (clc.ast_dump)."""

from __future__ import annotations

import itertools

import pytest

from spirvkit.clc import PreprocessorOptions, parse
from spirvkit.clc import ast
from spirvkit.clc.ast_dump import dump, expr_to_str, type_to_str
from spirvkit.clc.parse_expr import BINARY_PRECEDENCE
from spirvkit.errors import CompileError


def tu(src: str, std: str = "CL2.0", diagnostics=None):
    return parse(src, "t.cl", options=f"-cl-std={std}", diagnostics=diagnostics)


def body(src: str):
    """The items of a function body."""
    return tu(f"void f(void) {{\n{src}\n}}").decls[-1].body.items


def expr(src: str):
    return body(f"{src};")[-1].expr


def e(src: str) -> str:
    return expr_to_str(expr(src))


def decl(src: str):
    return tu(src).decls[-1]


def typestr(src: str) -> str:
    d = decl(src)
    return type_to_str(d.type)


# -- expressions: precedence and associativity ------------------------------------------------------

def test_every_pair_of_binary_operators():
    for op1, op2 in itertools.product(BINARY_PRECEDENCE, repeat=2):
        got = e(f"a {op1} b {op2} c")
        if BINARY_PRECEDENCE[op1] >= BINARY_PRECEDENCE[op2]:  # equal: left-associative
            want = f"((a {op1} b) {op2} c)"
        else:
            want = f"(a {op1} (b {op2} c))"
        assert got == want, (op1, op2)


@pytest.mark.parametrize("src, want", [
    ("a = b = c", "(a = (b = c))"),
    ("a += b -= c", "(a += (b -= c))"),
    ("a <<= b >>= c &= d ^= e |= f *= g /= h %= i", "(a <<= (b >>= (c &= (d ^= (e |= (f *= (g /= (h %= i))))))))"),
    ("a ? b : c ? d : e", "(a ? b : (c ? d : e))"),
    ("a ? b, c : d", "(a ? (b, c) : d)"),
    ("a || b ? c : d", "((a || b) ? c : d)"),
    ("a = b ? c : d", "(a = (b ? c : d))"),
    ("a, b = c, d", "((a, (b = c)), d)"),
    ("x = a ?: b", "(x = (a ? <null> : b))"),
    ("-a[0]", "(-a[0])"),
    ("*p++", "(*(p++))"),
    ("!a.x", "(!a.x)"),
    ("&a->b", "(&a->b)"),
    ("~-!a", "(~(-(!a)))"),
    ("- -a", "(-(-a))"),
    ("++*p", "(++(*p))"),
    ("a++ + ++b", "((a++) + (++b))"),
    ("a+++b", "((a++) + b)"),
    ("(int)a + b", "(((int)a) + b)"),
    ("(int)-a", "((int)(-a))"),
    ("(float)(int)a", "((float)((int)a))"),
    ("(uint)a.x", "((uint)a.x)"),
    ("sizeof a + b", "(sizeof(a) + b)"),
    ("sizeof(int) * 2", "(sizeof(int) * 2)"),
    ("sizeof -a", "sizeof((-a))"),
    ("vec_step(float4) - vec_step(v)", "(vec_step(float4) - vec_step(v))"),
    ("f(a, b)(c)[d].e->g", "f(a, b)(c)[d].e->g"),
    ("a[b[c]]", "a[b[c]]"),
    ("(a + b) * c", "((a + b) * c)"),
    ("a < b == c > d", "((a < b) == (c > d))"),
    ("a & b == c", "(a & (b == c))"),
    ("a << b + c", "(a << (b + c))"),
    ("f()", "f()"),
])
def test_expression_shapes(src, want):
    assert e(src) == want


def test_operator_nodes_are_located_at_the_operator():
    x = expr("aa  +  b")
    assert isinstance(x, ast.BinaryOp) and (x.loc.line, x.loc.col) == (2, 5)
    call = expr("g(1)")
    assert isinstance(call, ast.Call) and call.loc.col == 2
    member = expr("v.xyzw")
    assert isinstance(member, ast.Member) and member.loc.col == 3


def test_literals_in_expressions():
    lit = expr('"ab" "cd"')
    assert isinstance(lit, ast.StringLiteral) and lit.value == b"abcd"
    assert expr("0x10u").value == 16 and expr("0x10u").type == "unsigned int"
    assert expr("'a'").value == 97
    assert expr("1.5f").type == "float"


# -- vector literals, casts and swizzles -------------------------------------------------------------

def test_vector_literal():
    v = expr("(float4)(1.0f, 2.0f, x, y)")
    assert isinstance(v, ast.VectorLiteral)
    assert type_to_str(v.to.type) == "float4" and len(v.elements) == 4


def test_vector_literal_nests_and_mixes():
    v = expr("(int8)((int4)(1, 2, 3, 4), (int2)(a), b, c)")
    assert isinstance(v, ast.VectorLiteral) and len(v.elements) == 4
    assert isinstance(v.elements[0], ast.VectorLiteral)
    assert isinstance(v.elements[1], ast.Cast)


def test_single_element_is_a_cast_of_a_parenthesized_expression():
    c = expr("(float4)(x)")
    assert isinstance(c, ast.Cast) and isinstance(c.expr, ast.Paren)


def test_vector_literal_is_complete_before_postfix_operators():
    # As clang: (float4)(v).x is .x of the converted vector, not a cast of v.x.
    assert e("(float4)(v).x") == "((float4)v).x"
    assert e("(float4)(1, 2, 3, 4).y") == "(float4)(1, 2, 3, 4).y"
    assert e("(int)(v).x") == "((int)v.x)"  # a scalar type: an ordinary cast


def test_vector_typedef_makes_vector_literals():
    items = body("typedef float4 V; typedef int I; V a = (V)(1, 2, 3, 4); I b = (I)(1, 2);")
    a, b = items[2].decls[0].init, items[3].decls[0].init
    assert isinstance(a, ast.VectorLiteral)
    assert isinstance(b, ast.Cast) and expr_to_str(b) == "((I)(1, 2))"  # a comma expression


def test_ext_vector_type_typedef_makes_vector_literals():
    items = body("typedef float F3 __attribute__((ext_vector_type(3))); F3 a = (F3)(1, 2, 3);")
    assert isinstance(items[1].decls[0].init, ast.VectorLiteral)


def test_compound_literal():
    c = expr("(struct S){ .a = 1, 2 }")
    assert isinstance(c, ast.CompoundLiteral) and expr_to_str(c) == "(struct S){.a = 1, 2}"


@pytest.mark.parametrize("swizzle", ["x", "xyzw", "wzyx", "xxxx", "s0", "s0123", "sF", "S7a",
                                     "s0123456789abcdef", "hi", "lo", "even", "odd", "rgba"])
def test_swizzles_are_member_accesses(swizzle):
    m = expr(f"v.{swizzle}")
    assert isinstance(m, ast.Member) and m.name == swizzle and not m.arrow


def test_nested_swizzles():
    assert e("v.hi.lo.x") == "v.hi.lo.x"
    assert e("p->s01.y") == "p->s01.y"


def test_sizeof_and_alignof_forms():
    t = expr("sizeof(float4)")
    assert isinstance(t, ast.TypeTrait) and isinstance(t.arg, ast.TypeName)
    t = expr("__alignof__(int)")
    assert t.op == "alignof"
    t = expr("sizeof x")
    assert isinstance(t.arg, ast.Identifier)
    t = expr("sizeof (int[3]){1, 2, 3}")
    assert isinstance(t.arg, ast.CompoundLiteral)


def test_block_literals_are_parsed():
    b = expr("g(^{ x = 1; }, ^(local int *p) { p[0] = 1; }, ^int (int y) { return y; }, ^long { return 1; })")
    lits = b.args
    assert all(isinstance(x, ast.BlockLiteral) for x in lits)
    assert [p.name for p in lits[1].type.params] == ["p"]
    assert [type_to_str(x.type.result) if x.type.result is not None else None for x in lits] == \
        [None, None, "int", "long"]   # the result type, when written (clang's block-id)


def test_builtin_astype_takes_a_type_argument():
    t = expr("__builtin_astype((a + b), float4)")
    assert isinstance(t, ast.AsType) and expr_to_str(t) == "__builtin_astype((a + b), float4)"


# -- declarators ---------------------------------------------------------------------------------

@pytest.mark.parametrize("src, want", [
    ("int *(*p)[3];", "int *(*)[3]"),
    ("int *a[4];", "int *[4]"),
    ("int (*a)[4];", "int (*)[4]"),
    ("int a[2][3];", "int [2][3]"),
    ("int a[];", "int []"),
    ("char **argv;", "char **"),
    ("global float * const restrict p;", "__global float *const restrict"),
    ("const global float *p;", "const __global float *"),
    ("float const * volatile * const q;", "const float *volatile *const"),
    ("int * global * p;", "int *__global *"),
    ("void (*fp)(int, float);", "void (*)(int, float)"),
    ("int (*(*f)(int))[5];", "int (*(*)(int))[5]"),
    ("void (*signal(int, void (*)(int)))(int);", "void (*(int, void (*)(int)))(int)"),
    ("int f(void);", "int (void)"),
    ("int f();", "int ()"),
    ("int printf(constant char *fmt, ...);", "int (__constant char *, ...)"),
    ("unsigned long long x;", "unsigned long long"),
    ("long unsigned int x;", "long unsigned int"),
    ("struct S *s;", "struct S *"),
    ("enum E e;", "enum E"),
    ("float4 v[2];", "float4 [2]"),
    ("read_only image2d_t img;", "__read_only image2d_t"),
    ("local int (*lp)[8];", "__local int (*)[8]"),
    ("int (((x)));", "int"),
    ("void (^blk)(void);", "void (^)(void)"),
    ("int a[static 4];", "int [static 4]"),
])
def test_declarator_shapes(src, want):
    assert typestr(src) == want


def test_declarator_chain_nodes():
    t = decl("int *(*p)[3];").type
    assert isinstance(t, ast.PointerType)
    assert isinstance(t.pointee, ast.ArrayType) and t.pointee.size.value == 3
    assert isinstance(t.pointee.element, ast.PointerType)
    assert t.pointee.element.pointee.specifiers == ("int",)


def test_pointer_qualifiers_per_level():
    t = decl("global float * const restrict p;").type
    assert t.qualifiers == ("const", "restrict") and t.address_space is None
    assert t.pointee.address_space == "global" and t.pointee.qualifiers == ()


def test_specifiers_in_any_order():
    a = decl("const static global unsigned volatile int x;")
    b = decl("static int volatile unsigned const global x;")
    for d in (a, b):
        assert d.storage == ("static",)
        assert sorted(d.type.specifiers) == ["int", "unsigned"]
        assert sorted(d.type.qualifiers) == ["const", "volatile"] and d.type.address_space == "global"


def test_multiple_declarators_share_specifiers():
    decls = tu("int a, *b, c[2] = {1, 2}, (*d)(void);").decls
    assert [type_to_str(x.type) for x in decls] == ["int", "int *", "int [2]", "int (*)(void)"]
    assert isinstance(decls[2].init, ast.InitList)
    assert decls[0].type is decls[1].type.pointee  # one BaseType for the whole declaration


def test_parameters():
    f = decl("void f(global int *p, int, float4 v, int (*cb)(int), int a[]);").type
    assert [p.name for p in f.params] == ["p", None, "v", "cb", "a"]
    assert type_to_str(f.params[3].type) == "int (*)(int)"
    assert not f.variadic and not f.empty_parens
    assert decl("void g();").type.empty_parens
    assert decl("void g(void);").type.params == []


def test_function_definition_and_kernel_qualifier():
    f = decl("__kernel void k(global float *out) { out[0] = 1; }")
    assert isinstance(f, ast.FunctionDef)
    assert f.decl.name == "k" and f.decl.funcspecs == ("kernel",)
    assert isinstance(f.body, ast.Compound)
    g = decl("static inline int h(int x) { return x; }")
    assert g.decl.storage == ("static",) and g.decl.funcspecs == ("inline",)


def test_typedef_of_builtin_type_name_is_accepted():
    d = decl("typedef unsigned int uint;")
    assert d.name == "uint" and d.storage == ("typedef",)


def test_storage_classes():
    assert decl("extern constant int x;").storage == ("extern",)
    assert decl("typedef int T;").storage == ("typedef",)
    # §1.8: no auto/register; the parser reports it at the word, as clang does
    with pytest.raises(CompileError) as info:
        decl("register int r;")
    assert (info.value.message, info.value.col) == (
        "OpenCL C version 2.0 does not support the 'register' storage class specifier", 1)


# -- typedef names and scopes (the lexer hack) ----------------------------------------------------------

def test_typedef_scoping():
    items = body("typedef int T; T * x; { int T; T * x; } T * y;")
    assert isinstance(items[1], ast.DeclStmt)  # T * x declares x
    inner = items[2].items
    assert isinstance(inner[0], ast.DeclStmt)
    assert isinstance(inner[1], ast.ExprStmt) and inner[1].expr.op == "*"  # T is a variable here
    assert isinstance(items[3], ast.DeclStmt)  # and a type again after the block


def test_typedef_name_redeclared_as_parameter_and_in_for():
    u = tu("typedef int T; void f(int T) { T * 2; } void g(void) { for (int T = 0; T < 2; T++) T * 3; T x; }")
    f, g = u.decls[1], u.decls[2]
    assert isinstance(f.body.items[0], ast.ExprStmt)
    loop = g.body.items[0]
    assert isinstance(loop.body, ast.ExprStmt)
    assert isinstance(g.body.items[1], ast.DeclStmt)


def test_enumerators_hide_typedefs():
    items = body("typedef int A; { enum { A = 1 }; int y = A * 2; }")
    init = items[1].items[1].decls[0].init
    assert isinstance(init, ast.BinaryOp)


def test_declaration_is_in_scope_from_its_declarator():
    # C99 §6.2.1p7: in "T T2 = sizeof(T2)" T2 is declared before its initializer.
    items = body("typedef int T; T x = sizeof(x);")
    assert isinstance(items[1].decls[0].init.arg, ast.Paren)


def test_typedef_used_in_cast_and_sizeof():
    items = body("typedef global int *P; int a = *(P)0 + sizeof(P);")
    init = items[1].decls[0].init
    assert isinstance(init.lhs.operand, ast.Cast) and isinstance(init.rhs.arg, ast.TypeName)


# -- struct, union, enum ------------------------------------------------------------------------

def test_struct_union_enum_definitions():
    u = tu("""
struct S { int a; float4 v; struct S *next; };
union U { int i; float f; };
typedef struct { int x, y; } P;
struct Outer { struct { int a; } inner; union { int b; float c; }; };
enum E { A, B = 5, C, };
struct Fwd;
""")
    s, un, p, outer, en, fwd = u.decls
    rec = s.type.record
    assert rec.kind == "struct" and rec.name == "S" and [f.name for f in rec.fields] == ["a", "v", "next"]
    assert un.type.record.kind == "union"
    assert p.type.record.name is None and [f.name for f in p.type.record.fields] == ["x", "y"]
    assert [f.name for f in outer.type.record.fields] == ["inner", None]  # an anonymous union member
    assert [(x.name, x.value and x.value.value) for x in en.type.record.enumerators] == [("A", None), ("B", 5), ("C", None)]
    assert fwd.type.record.fields is None


def test_record_attributes():
    d = decl("typedef struct __attribute__((packed)) { char c; int i; } __attribute__((aligned(16))) T;")
    assert [a.name for a in d.type.record.attributes] == ["packed", "aligned"]


# -- initializers ----------------------------------------------------------------------------------

def test_designated_initializers():
    d = decl("struct P p = { .x = 1, .inner = { [2] = 3, [0][1] = 4 }, 5, .a.b[1] = 6 };")
    assert expr_to_str(d.init) == "{.x = 1, .inner = {[2] = 3, [0][1] = 4}, 5, .a.b[1] = 6}"
    last = d.init.items[3]
    assert [type(x).__name__ for x in last.designators] == ["FieldDesignator", "FieldDesignator", "IndexDesignator"]


def test_nested_and_trailing_comma_initializers():
    d = decl("int a[2][2] = { {1, 2}, {3, 4}, };")
    assert expr_to_str(d.init) == "{{1, 2}, {3, 4}}"
    assert expr_to_str(decl("int z[1] = {};").init) == "{}"


def test_vector_initializer_in_constant_array():
    d = decl("constant float4 K[2] = { (float4)(1.0f), (float4)(0.0f, 1.0f, 2.0f, 3.0f) };")
    assert d.type.element.address_space == "constant"
    assert isinstance(d.init.items[1], ast.VectorLiteral)


# -- attributes --------------------------------------------------------------------------------------

def test_kernel_attributes():
    f = decl("__kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((vec_type_hint(float4)))"
             " void k(global int *p) __attribute__((work_group_size_hint(8, 8, 1))) { }")
    attrs = {a.name: a for a in f.decl.attributes}
    assert [x.value for x in attrs["reqd_work_group_size"].args] == [64, 1, 1]
    assert isinstance(attrs["vec_type_hint"].args[0], ast.TypeName)
    assert [x.value for x in attrs["work_group_size_hint"].args] == [8, 8, 1]


def test_attribute_spellings_and_identifier_arguments():
    f = decl("void k(global float *p __attribute__((endian(host)))) __attribute__((__noinline__, nosvm));")
    assert [a.name for a in f.attributes] == ["noinline", "nosvm"]
    assert f.type.params[0].attributes[0].args[0].name == "host"


def test_unknown_attribute_warns():
    diags = []
    tu("__attribute__((frobnicate)) void f(void);", diagnostics=diags)
    assert [d.message for d in diags] == ["unknown attribute 'frobnicate' ignored"]


def test_opencl_unroll_hint_on_loops():
    items = body("__attribute__((opencl_unroll_hint(2))) for (;;) {} __attribute__((opencl_unroll_hint)) while (1) {}")
    assert items[0].attributes[0].name == "opencl_unroll_hint" and items[0].attributes[0].args[0].value == 2
    assert items[1].attributes[0].args == []


# -- pragmas --------------------------------------------------------------------------------------------

def test_unroll_pragmas_attach_to_the_following_loop():
    items = body("#pragma unroll 4\nfor (int i = 0; i < 8; i++) {}\n#pragma nounroll\nwhile (x) {}\n"
                 "#pragma unroll\ndo {} while (0);\nfor (;;) {}")
    assert [(p.kind, p.value) for p in items[0].pragmas] == [("unroll", 4)]
    assert [p.kind for p in items[1].pragmas] == ["nounroll"]
    assert [(p.kind, p.value) for p in items[2].pragmas] == [("unroll", None)]
    assert items[3].pragmas == []


def test_unroll_with_an_expression_count():
    items = body("#define N 4\n#pragma unroll (N * 2)\nfor (;;) {}")
    p = items[0].pragmas[0]
    assert p.value is None and expr_to_str(p.count_expr) == "(4 * 2)"


def test_unroll_before_a_nested_loop_body():
    items = body("for (;;)\n#pragma unroll 2\nfor (;;) {}")
    assert items[0].pragmas == [] and items[0].body.pragmas[0].value == 2


def test_unroll_not_followed_by_a_loop_is_an_error():
    with pytest.raises(CompileError) as info:
        body("#pragma unroll 2\nx = 1;")
    assert info.value.message == "expected a for, while, or do-while loop to follow '#pragma unroll'"
    assert (info.value.line, info.value.col) == (3, 1)


def test_file_scope_pragmas_are_kept_in_order():
    u = tu("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nint a;\n#pragma OPENCL FP_CONTRACT OFF\n"
           "#pragma OPENCL EXTENSION cl_khr_fp64 : disable\nint b;")
    kinds = [(type(d).__name__, getattr(d, "kind", None), getattr(d, "value", None)) for d in u.decls]
    assert kinds == [("Pragma", "extension", True), ("Decl", None, None), ("Pragma", "fp_contract", "OFF"),
                     ("Pragma", "extension", False), ("Decl", None, None)]
    assert [(x.name, x.enabled) for x in u.extensions] == [("cl_khr_fp64", True), ("cl_khr_fp64", False)]


def test_fp_contract_in_a_compound_statement():
    items = body("#pragma OPENCL FP_CONTRACT OFF\nx = a * b + c;")
    assert isinstance(items[0], ast.Pragma) and items[0].value == "OFF"
    with pytest.raises(CompileError) as info:
        body("x = 1;\n#pragma OPENCL FP_CONTRACT OFF\nx = 2;")
    assert "can only appear at file scope or at the start of a compound statement" in info.value.message


# -- statements ----------------------------------------------------------------------------------------

STATEMENTS = """\
kernel void k(global int *p, int n) {
  int i = 0;
  if (n) p[0] = 1; else if (n > 1) p[0] = 2; else { p[0] = 3; }
  switch (n) { case 1: case 2: p[1]++; break; default: ; }
  while (i < n) { i += 2; continue; }
  do i--; while (i);
  for (int j = 0, k2 = 1; j < n; j++, k2 <<= 1) ;
  for (;;) break;
again: if (i) goto again;
  return;
}"""

STATEMENTS_DUMP = """\
TranslationUnit CL2.0
`-FunctionDef <1:1> k 'void (__global int *, int)' kernel
  |-ParamDecl <1:27> p '__global int *'
  |-ParamDecl <1:34> n 'int'
  `-Compound <1:37>
    |-DeclStmt <2:3>
    | `-Decl <2:7> i 'int'
    |   `-IntegerLiteral <2:11> 'int' 0
    |-If <3:3>
    | |-Identifier <3:7> n
    | |-ExprStmt <3:10>
    | | `-Assignment <3:15> '='
    | |   |-Subscript <3:11>
    | |   | |-Identifier <3:10> p
    | |   | `-IntegerLiteral <3:12> 'int' 0
    | |   `-IntegerLiteral <3:17> 'int' 1
    | `-If <3:25>
    |   |-BinaryOp <3:31> '>'
    |   | |-Identifier <3:29> n
    |   | `-IntegerLiteral <3:33> 'int' 1
    |   |-ExprStmt <3:36>
    |   | `-Assignment <3:41> '='
    |   |   |-Subscript <3:37>
    |   |   | |-Identifier <3:36> p
    |   |   | `-IntegerLiteral <3:38> 'int' 0
    |   |   `-IntegerLiteral <3:43> 'int' 2
    |   `-Compound <3:51>
    |     `-ExprStmt <3:53>
    |       `-Assignment <3:58> '='
    |         |-Subscript <3:54>
    |         | |-Identifier <3:53> p
    |         | `-IntegerLiteral <3:55> 'int' 0
    |         `-IntegerLiteral <3:60> 'int' 3
    |-Switch <4:3>
    | |-Identifier <4:11> n
    | `-Compound <4:14>
    |   |-Case <4:16>
    |   | |-IntegerLiteral <4:21> 'int' 1
    |   | `-Case <4:24>
    |   |   |-IntegerLiteral <4:29> 'int' 2
    |   |   `-ExprStmt <4:32>
    |   |     `-UnaryOp <4:36> postfix '++'
    |   |       `-Subscript <4:33>
    |   |         |-Identifier <4:32> p
    |   |         `-IntegerLiteral <4:34> 'int' 1
    |   |-Break <4:40>
    |   `-Default <4:47>
    |     `-NullStmt <4:56>
    |-While <5:3>
    | |-BinaryOp <5:12> '<'
    | | |-Identifier <5:10> i
    | | `-Identifier <5:14> n
    | `-Compound <5:17>
    |   |-ExprStmt <5:19>
    |   | `-Assignment <5:21> '+='
    |   |   |-Identifier <5:19> i
    |   |   `-IntegerLiteral <5:24> 'int' 2
    |   `-Continue <5:27>
    |-DoWhile <6:3>
    | |-ExprStmt <6:6>
    | | `-UnaryOp <6:7> postfix '--'
    | |   `-Identifier <6:6> i
    | `-Identifier <6:18> i
    |-For <7:3>
    | |-DeclStmt <7:8>
    | | |-Decl <7:12> j 'int'
    | | | `-IntegerLiteral <7:16> 'int' 0
    | | `-Decl <7:19> k2 'int'
    | |   `-IntegerLiteral <7:24> 'int' 1
    | |-BinaryOp <7:29> '<'
    | | |-Identifier <7:27> j
    | | `-Identifier <7:31> n
    | |-BinaryOp <7:37> ','
    | | |-UnaryOp <7:35> postfix '++'
    | | | `-Identifier <7:34> j
    | | `-Assignment <7:42> '<<='
    | |   |-Identifier <7:39> k2
    | |   `-IntegerLiteral <7:46> 'int' 1
    | `-NullStmt <7:49>
    |-For <8:3>
    | |-<<<NULL>>>
    | |-<<<NULL>>>
    | |-<<<NULL>>>
    | `-Break <8:12>
    |-Label <9:1> again
    | `-If <9:8>
    |   |-Identifier <9:12> i
    |   `-Goto <9:15> again
    `-Return <10:3>"""


def test_statement_dump():
    assert dump(tu(STATEMENTS)) == STATEMENTS_DUMP


def test_else_binds_to_the_nearest_if():
    s = body("if (a) if (b) x = 1; else x = 2;")[0]
    assert s.else_ is None and s.then.else_ is not None


def test_declaration_after_label_and_case():
    items = body("switch (n) { case 0: int a = 1; }")
    case = items[0].body.items[0]
    assert isinstance(case.body, ast.DeclStmt)


def test_node_kinds_come_from_the_table():
    assert "VectorLiteral" in ast.NODE_KINDS and ast.NODE_KINDS["For"].child_fields == (
        "init", "cond", "step", "body", "pragmas", "attributes")
    n = ast.BinaryOp("+", ast.Identifier("a"), ast.Identifier("b"))
    assert [name for name, _ in n.children()] == ["lhs", "rhs"]
    assert [type(x).__name__ for x in ast.walk(n)] == ["BinaryOp", "Identifier", "Identifier"]


def test_every_node_has_a_location():
    u = tu(STATEMENTS)
    for n in ast.walk(u):
        assert n.loc is not None, type(n).__name__


def test_macro_expanded_nodes_remember_the_expansion():
    items = body("#define ADD(a, b) ((a) + (b))\nx = ADD(1, 2);")
    plus = items[0].expr.rhs.expr
    assert plus.op == "+" and plus.expansion is not None and plus.expansion.name == "ADD"


def test_options_object_and_string():
    src = "int x = N;"
    a = parse(src, "t.cl", options=PreprocessorOptions(defines=["N=3"]))
    b = parse(src, "t.cl", options="-DN=3")
    assert a.decls[0].init.value == b.decls[0].init.value == 3
    assert a.cl_std == "CL1.2"


def test_static_assert():
    u = tu('_Static_assert(sizeof(int) == 4, "int is 32 bits"); void f(void) { _Static_assert(1, "x"); }')
    sa = u.decls[0]
    assert isinstance(sa, ast.StaticAssert) and sa.message.value == b"int is 32 bits"
    assert isinstance(u.decls[1].body.items[0].decls[0], ast.StaticAssert)


def test_pipe_and_access_qualifiers():
    f = decl("kernel void k(read_only pipe int p, write_only image2d_t img) {}")
    p, img = f.decl.type.params
    assert p.type.qualifiers == ("pipe",) and p.type.access == "read_only"
    assert img.type.access == "write_only" and img.type.specifiers == ("image2d_t",)


def test_kernel_exec_macro():
    f = decl("__kernel_exec(64, float4) void k(global float4 *p) {}")
    assert f.decl.funcspecs == ("kernel",)
    hint = {a.name: a for a in f.decl.attributes}
    assert [x.value for x in hint["work_group_size_hint"].args] == [64, 1, 1]
    assert type_to_str(hint["vec_type_hint"].args[0].type) == "float4"


def test_attribute_dump():
    text = dump(tu("kernel __attribute__((vec_type_hint(int4))) void k(global int *p) {}"))
    assert text.splitlines()[1:4] == [
        "`-FunctionDef <1:1> k 'void (__global int *)' kernel",
        "  |-Attribute <1:23> vec_type_hint",
        "  | `-TypeName <1:37> 'int4'",
    ]


def test_walk_visits_a_shared_struct_definition_once():
    u = tu("struct S { int a; } x, *y;")
    assert sum(isinstance(n, ast.RecordDecl) for n in ast.walk(u)) == 1
    assert dump(u).count("RecordDecl") == 1
