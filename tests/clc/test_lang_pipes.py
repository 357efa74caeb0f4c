"""Pipes in the compiler (OpenCL C 2.0 §6.13.16; issue 15, item 1).

- every §6.13.16 restriction (and the checks clang-15's Sema makes on the pipe built-ins) is
  rejected with clang-15's first error at its line:col (``clang-15 -cl-std=CL2.0 -target spir64
  -Xclang -finclude-default-header -fsyntax-only``, recorded when these tests were written; as in
  the other test_lang_* files the ``__private`` clang writes before a type is left out);
- what clang-15 accepts compiles to SPIR-V that spirv-val accepts (--target-env opencl2.2),
  except the few constructs that say "not supported yet";
- ``spirvkit cc`` emits the pipe instructions clang-15 + llvm-spirv-15 emit for the same source
  (tests/data/pipes/pipes.spv), with the same packet size, alignment and scope operands.
Running pipe kernels is the executor's part (tests/jit/test_pipes.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lang_support import check_rejected, check_valid, first_error

import spirvkit

PIPES = Path(__file__).resolve().parents[1] / "data" / "pipes"

REJECTED = [
    ("commit_bad", "kernel void k(read_only pipe int p) { commit_read_pipe(p, 1); }",
     "invalid argument type to function 'commit_read_pipe' (expecting 'reserve_id_t' having 'int')", 1, 39),
    ("commit_wrong_dir", "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_read_pipe(p, 1); "
     "commit_write_pipe(p, r); }", "invalid pipe access modifier (expecting write_only)", 1, 99),
    ("global_pipe", "kernel void k(global read_only pipe int p) { }",
     "parameter may not be qualified with an address space", 1, 41),
    ("idx_bad", "kernel void k(read_only pipe int p, global int *x) { reserve_id_t r = reserve_read_pipe(p, 1); "
     "read_pipe(p, r, 1.5f, x); }",
     "invalid argument type to function 'read_pipe' (expecting 'unsigned int' having 'float')", 1, 96),
    ("idx_ptr", "kernel void k(read_only pipe int p, global int *x) { reserve_id_t r = reserve_read_pipe(p, 1); "
     "read_pipe(p, r, x, x); }",
     "invalid argument type to function 'read_pipe' (expecting 'unsigned int' having '__global int *')", 1, 96),
    ("is_valid_bad", "kernel void k(global int *o) { *o = is_valid_reserve_id(1); }",
     "passing 'int' to parameter of incompatible type 'reserve_id_t'", 1, 57),
    ("local_acc", "kernel void k(read_only pipe int p) { read_only pipe int q; }",
     "'read_only' attribute only applies to parameters and typedefs", 1, 39),
    ("local_var", "kernel void k(read_only pipe int p) { pipe int q; }",
     "type 'read_only pipe int' can only be used as a function parameter in OpenCL", 1, 48),
    ("max_nargs", "kernel void k(read_only pipe int p, global uint *o) { *o = get_pipe_max_packets(p, 1); }",
     "too many arguments to function call, expected 1, have 2", 1, 84),
    ("max_not_pipe", "kernel void k(global int *p, global uint *o) { *o = get_pipe_max_packets(p); }",
     "first argument to 'get_pipe_max_packets' must be a pipe type", 1, 53),
    ("nargs", "kernel void k(read_only pipe int p, global int *x) { read_pipe(p); }",
     "invalid number of arguments to function: 'read_pipe'", 1, 54),
    ("nargs3", "kernel void k(read_only pipe int p, global int *x) { read_pipe(p, x, 1); }",
     "invalid number of arguments to function: 'read_pipe'", 1, 54),
    ("not_pipe", "kernel void k(global int *p, global int *x) { read_pipe(p, x); }",
     "first argument to 'read_pipe' must be a pipe type", 1, 47),
    ("num_not_pipe", "kernel void k(global int *p, global uint *o) { *o = get_pipe_num_packets(p); }",
     "first argument to 'get_pipe_num_packets' must be a pipe type", 1, 53),
    ("packet_mismatch", "kernel void k(read_only pipe int p, global float *x) { read_pipe(p, x); }",
     "invalid argument type to function 'read_pipe' (expecting 'int *' having '__global float *')", 1, 56),
    ("pipe_addr", "kernel void k(read_only pipe int p, global int *o) { *o = (int)&p; }",
     "invalid argument type 'read_only pipe int' to unary expression", 1, 64),
    ("pipe_arith", "kernel void k(read_only pipe int p) { int x = p + 1; }",
     "invalid operands to binary expression ('read_only pipe int' and 'int')", 1, 49),
    ("pipe_arr2", "kernel void k(read_only pipe int p) { int a[2]; read_pipe(p, a); }",
     "invalid argument type to function 'read_pipe' (expecting 'int *' having 'int[2]')", 1, 49),
    ("pipe_assign", "void f(read_only pipe int p, read_only pipe int q) { p = q; }",
     "invalid operands to binary expression ('read_only pipe int' and 'read_only pipe int')", 1, 56),
    ("pipe_cast", "kernel void k(read_only pipe int p, global long *o) { *o = (long)p; }",
     "operand of type 'read_only pipe int' where arithmetic or pointer type is required", 1, 66),
    ("pipe_cmp", "void f(read_only pipe int p, read_only pipe int q, global int *o) { *o = p == q; }",
     "invalid operands to binary expression ('read_only pipe int' and 'read_only pipe int')", 1, 76),
    ("pipe_deref", "kernel void k(read_only pipe int p, global int *o) { *o = *p; }",
     "invalid argument type 'read_only pipe int' to unary expression", 1, 59),
    ("pipe_int_ptr", "kernel void k(read_only pipe int p) { read_pipe(p, 5); }",
     "invalid argument type to function 'read_pipe' (expecting 'int *' having 'int')", 1, 39),
    ("pipe_no_type", "kernel void k(read_only pipe p) { }", "missing actual type specifier for pipe", 1, 30),
    ("pipe_of_ptr", "kernel void k(read_only pipe global int * p) { }",
     "parameter may not be qualified with an address space", 1, 43),
    ("pipe_ptr_void", "kernel void k(read_only pipe int p, global void *l) { read_pipe(p, l); }",
     "invalid argument type to function 'read_pipe' (expecting 'int *' having '__global void *')", 1, 55),
    ("pipe_to_int_param", "void g(int x) { } kernel void k(read_only pipe int p) { g(p); }",
     "passing 'read_only pipe int' to parameter of incompatible type 'int'", 1, 59),
    ("pipe_typedef_local", "typedef read_only pipe int P; kernel void k(P p) { P q = p; }",
     "type 'P' (aka 'read_only pipe int') can only be used as a function parameter in OpenCL", 1, 54),
    # clang adds "(aka '__global unsigned int *')" after the uint pointer's type
    ("pipe_uint", "kernel void k(read_only pipe int p, global uint *o) { read_pipe(p, o); }",
     "invalid argument type to function 'read_pipe' (expecting 'int *' having '__global uint *')", 1, 55),
    ("pipe_vec_mismatch", "kernel void k(read_only pipe int4 p, global int *o) { read_pipe(p, o); }",
     "invalid argument type to function 'read_pipe' (expecting 'int4 *' having '__global int *')", 1, 55),
    ("pipe_wrong_elem", "void g(read_only pipe float p) { } kernel void k(read_only pipe int p) { g(p); }",
     "passing 'read_only pipe int' to parameter of incompatible type 'read_only pipe float'", 1, 76),
    ("pipe_wrong_param", "void g(write_only pipe int p) { } kernel void k(read_only pipe int p) { g(p); }",
     "passing 'read_only pipe int' to parameter of incompatible type 'write_only pipe int'", 1, 75),
    ("prog_pipe", "pipe int g; kernel void k(global int *x) { }",
     "type '__global read_only pipe int' can only be used as a function parameter in OpenCL", 1, 10),
    ("prog_pipe_acc", "read_only pipe int g; kernel void k(global int *x) { }",
     "'read_only' attribute only applies to parameters and typedefs", 1, 1),
    ("ptr_pipe", "kernel void k(read_only pipe int *p) { }", "pipes packet types cannot be of reference type", 1, 30),
    ("read_on_write", "kernel void k(write_only pipe int p, global int *x) { read_pipe(p, x); }",
     "invalid pipe access modifier (expecting read_only)", 1, 65),
    ("read_write", "kernel void k(read_write pipe int p) { }",
     "access qualifier 'read_write' can not be used for 'read_only pipe int' ", 1, 15),
    ("reserve_nonint", "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_read_pipe(p, 1.5f); }",
     "invalid argument type to function 'reserve_read_pipe' (expecting 'unsigned int' having 'float')", 1, 56),
    ("reserve_ptr", "kernel void k(read_only pipe int p, global int *x) { reserve_id_t r = reserve_read_pipe(p, x); }",
     "invalid argument type to function 'reserve_read_pipe' (expecting 'unsigned int' having '__global int *')",
     1, 71),
    ("reserve_wrong_dir", "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_write_pipe(p, 1); }",
     "invalid pipe access modifier (expecting write_only)", 1, 75),
    ("ret_type", "read_only pipe int f(read_only pipe int p) { return p; }",
     "'read_only' attribute only applies to parameters and typedefs", 1, 1),
    ("rid_arith", "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_read_pipe(p, 1); int x = r + 1; }",
     "invalid operands to binary expression ('reserve_id_t' and 'int')", 1, 91),
    ("rid_bad", "kernel void k(read_only pipe int p, global int *x) { read_pipe(p, 1, 0, x); }",
     "invalid argument type to function 'read_pipe' (expecting 'reserve_id_t' having 'int')", 1, 54),
    # clang: at the 'if' (1:96); ours at the condition
    ("rid_cond", "kernel void k(read_only pipe int p, global int *o) { reserve_id_t r = reserve_read_pipe(p, 1); "
     "if (r) *o = 1; }", "statement requires expression of scalar type ('reserve_id_t' invalid)", 1, 100),
    ("rid_event", "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_read_pipe(p, 1); event_t e = r; }",
     "initializing 'event_t' with an expression of incompatible type 'reserve_id_t'", 1, 89),
    ("rid_global", "reserve_id_t g; kernel void k(global int *x) { }",
     "the '__global reserve_id_t' type cannot be used to declare a program scope variable", 1, 14),
    ("rid_init_int", "kernel void k(read_only pipe int p) { reserve_id_t r = 0; }",
     "initializing 'reserve_id_t' with an expression of incompatible type 'int'", 1, 52),
    ("rid_kernel_arg", "kernel void k(reserve_id_t r) { }",
     "'reserve_id_t' cannot be used as the type of a kernel parameter", 1, 28),
    ("rid_not", "kernel void k(read_only pipe int p, global int *o) { reserve_id_t r = reserve_read_pipe(p, 1); "
     "*o = !r; }", "invalid argument type 'reserve_id_t' to unary expression", 1, 101),
    ("struct_field", "struct S { read_only pipe int p; }; kernel void k(global int *x) { }",
     "'read_only' attribute only applies to parameters and typedefs", 1, 12),
    ("wg_commit_bad", "kernel void k(write_only pipe int p) { work_group_commit_write_pipe(p, 3); }",
     "invalid argument type to function 'work_group_commit_write_pipe' (expecting 'reserve_id_t' having 'int')",
     1, 40),
    # clang: at the closing parenthesis (1:86); ours at the call
    ("wg_noarg", "kernel void k(read_only pipe int p) { reserve_id_t r = work_group_reserve_read_pipe(p); }",
     "too few arguments to function call, expected 2, have 1", 1, 56),
    ("write_on_read", "kernel void k(read_only pipe int p, global int *x) { write_pipe(p, x); }",
     "invalid pipe access modifier (expecting write_only)", 1, 65),
    ("sub_group_wrong_dir",
     "kernel void k(read_only pipe int p) { reserve_id_t r = sub_group_reserve_write_pipe(p, 1); }",
     "invalid pipe access modifier (expecting write_only)", 1, 85),
    # arrays of pipes (§6.13.16): a variable's type is refused at its name, an array of a pipe
    # typedef anywhere at the '['
    ("array_local", "kernel void k(read_only pipe int p) { pipe int q[2]; }",
     "type 'read_only pipe int[2]' can only be used as a function parameter in OpenCL", 1, 48),
    ("array_local_2d", "kernel void k(read_only pipe int p) { pipe int q[2][3]; }",
     "type 'read_only pipe int[2][3]' can only be used as a function parameter in OpenCL", 1, 48),
    ("array_local_space", "kernel void k(read_only pipe int p) { local pipe int q[4]; }",
     "type '__local read_only pipe int[4]' can only be used as a function parameter in OpenCL", 1, 54),
    ("array_program_scope", "pipe int g[2]; kernel void k(global int *x) { }",
     "type '__global read_only pipe int[2]' can only be used as a function parameter in OpenCL", 1, 10),
    ("array_of_typedef", "typedef pipe int P; P g[2]; kernel void k(global int *x) { }",
     "array of 'P' (aka 'read_only pipe int') type is invalid in OpenCL", 1, 24),
    ("array_of_typedef_param", "typedef pipe int P; kernel void k(P p[2]) { }",
     "array of 'P' (aka 'read_only pipe int') type is invalid in OpenCL", 1, 38),
    ("array_of_typedef_local", "kernel void k(read_only pipe int p) { typedef pipe int P; P a[2]; }",
     "array of 'P' (aka 'read_only pipe int') type is invalid in OpenCL", 1, 62),
    # a pipe member in a structure
    ("struct_member_access", "struct S { read_only pipe int p; }; kernel void k(global int *x) { }",
     "'read_only' attribute only applies to parameters and typedefs", 1, 12),
    ("union_member_access", "union U { write_only pipe float p; int x; }; kernel void k(global int *x) { }",
     "'write_only' attribute only applies to parameters and typedefs", 1, 11),
]


@pytest.mark.parametrize("name,source,message,line,col", REJECTED, ids=[r[0] for r in REJECTED])
def test_rejected(name, source, message, line, col):
    check_rejected(source, message, line, col)


def test_sub_group_forms_without_cl_khr_subgroups():
    # clang-15 declares them with the other pipe built-ins, whatever -cl-ext says
    spirvkit.compile_cl("kernel void k(read_only pipe int p) { reserve_id_t r = sub_group_reserve_read_pipe(p, 1); }",
                        "-cl-std=CL2.0 -cl-ext=-cl_khr_subgroups")


ACCEPTED = {
    "pipe_const": "kernel void k(read_only pipe const int p) { }",
    "pipe_const_ptr": "kernel void k(write_only pipe int p, global const int *o) { write_pipe(p, o); }",
    "read_const_ptr": "kernel void k(read_only pipe int p, global const int *o) { read_pipe(p, o); }",
    "pipe_of_event": "kernel void k(read_only pipe event_t p) { }",
    "pipe_param_noacc": "void f(pipe int p, global int *x) { read_pipe(p, x); } "
                        "kernel void k(pipe int p, global int *x) { f(p, x); }",
    "pipe_ptr_local": "kernel void k(read_only pipe int p, local int *l) { read_pipe(p, l); }",
    "pipe_ptr_private": "kernel void k(read_only pipe int p, global int *o) { int v; read_pipe(p, &v); *o = v; }",
    "pipe_to_func": "void g(read_only pipe int p, global int *x) { read_pipe(p, x); } "
                    "kernel void k(read_only pipe int p, global int *x) { g(p, x); }",
    "pipe_vec": "kernel void k(read_only pipe int4 p, global int4 *o) { read_pipe(p, o); }",
    "reserve_char": "kernel void k(read_only pipe int p, char n) { reserve_id_t r = reserve_read_pipe(p, n); }",
    "reserve_long": "kernel void k(read_only pipe int p, long n) { reserve_id_t r = reserve_read_pipe(p, n); }",
    "reserve_neg": "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_read_pipe(p, -1); }",
    "rid_arr": "kernel void k(read_only pipe int p) { reserve_id_t r[2]; r[1] = reserve_read_pipe(p, 1); }",
    "rid_assign": "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_read_pipe(p, 1); reserve_id_t s; "
                  "s = r; commit_read_pipe(p, s); }",
    "rid_ptr": "kernel void k(read_only pipe int p) { reserve_id_t r = reserve_read_pipe(p, 1); "
               "reserve_id_t *q = &r; commit_read_pipe(p, *q); }",
    "rid_return": "reserve_id_t f(read_only pipe int p) { return reserve_read_pipe(p, 1); } "
                  "kernel void k(read_only pipe int p) { reserve_id_t r = f(p); }",
    "rid_struct": "struct S { reserve_id_t r; }; kernel void k(read_only pipe int p) { struct S s; "
                  "s.r = reserve_read_pipe(p, 1); commit_read_pipe(p, s.r); }",
    "rid_vol": "kernel void k(read_only pipe int p) { volatile reserve_id_t r = reserve_read_pipe(p, 1); }",
    "sizeof_pipe": "kernel void k(read_only pipe int p, global int *o) { *o = sizeof(p); }",
    "struct_packet": "typedef struct { int a; float b; } S; "
                     "kernel void k(read_only pipe S p, global S *o) { read_pipe(p, o); }",
    "subgroup_noext": "kernel void k(read_only pipe int p) { reserve_id_t r = sub_group_reserve_read_pipe(p, 1); }",
    "typedef_param": "typedef read_only pipe float4 P; kernel void k(P p, global float4 *o) { read_pipe(p, o); }",
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted_and_valid(name):
    check_valid(spirvkit.compile_cl(ACCEPTED[name], "-cl-std=CL2.0", filename="t.cl"))


def test_sizeof_a_pipe_is_8():
    module = spirvkit.Module.from_bytes(spirvkit.compile_cl(ACCEPTED["sizeof_pipe"], "-cl-std=CL2.0"))
    assert any(i.opname == "OpConstant" and i.words[-1] == 8 for i in module.instructions)


# clang-15 accepts these; they stay out of scope, with a clear message.
NOT_SUPPORTED = [
    ("void f(read_only pipe int p[2]) { }", "not supported yet: arrays of pipes"),
    ("kernel void k(read_only pipe int p[2]) { }", "not supported yet: arrays of pipes"),
    ("kernel void k(read_only pipe int p) { typedef pipe int PA[2]; }", "not supported yet: arrays of pipes"),
    ("struct S { pipe int p; }; kernel void k(global int *x) { }", "not supported yet: a pipe in a structure"),
    ("kernel void k(read_only pipe int p) { struct { pipe int q; } s; }", "not supported yet: a pipe in a structure"),
    # (llvm-spirv-15 fails on it too: SPIR-V cannot cast a __constant pointer to generic)
    ("kernel void k(read_only pipe int p, constant int *l) { read_pipe(p, l); }",
     "not supported yet: a __constant packet pointer in 'read_pipe'"),
]


@pytest.mark.parametrize("source,message", NOT_SUPPORTED)
def test_not_supported_yet(source, message):
    assert first_error(source).message.startswith(message)


# ----- the SPIR-V, against clang-15 + llvm-spirv-15 -----------------------------------------------
PIPE_OPS = {"OpReadPipe", "OpWritePipe", "OpReservedReadPipe", "OpReservedWritePipe", "OpReserveReadPipePackets",
            "OpReserveWritePipePackets", "OpCommitReadPipe", "OpCommitWritePipe", "OpIsValidReserveId",
            "OpGetNumPipePackets", "OpGetMaxPipePackets", "OpGroupReserveReadPipePackets",
            "OpGroupReserveWritePipePackets", "OpGroupCommitReadPipe", "OpGroupCommitWritePipe"}


def _pipe_instructions(module) -> dict:
    """Function name -> its pipe instructions: (opname, the values of its constant operands:
    packet size and alignment, scope; a reserved access's constant index)."""
    constants = {i.result_id: i.words[3] for i in module.instructions if i.opname == "OpConstant"}
    found = {}
    for fn in module.functions:
        name = module.name(fn.id)
        ops = [(i.opname, tuple(constants[w] for w in i.id_operands() if w in constants))
               for b in fn.blocks for i in b.instructions if i.opname in PIPE_OPS]
        if ops:
            found[name] = ops
    return found


def test_same_instructions_as_clang_and_llvm_spirv():
    clang = spirvkit.Module.from_file(PIPES / "pipes.spv")
    ours = spirvkit.Module.from_bytes(spirvkit.compile_cl((PIPES / "pipes.cl").read_text(), "-cl-std=CL2.0"))
    expected = _pipe_instructions(clang)
    assert set(expected) >= {"producer", "consumer", "reserve_writer", "group_writer", "sub_group_writer",
                             "counts", "forward_one"}
    assert _pipe_instructions(ours) == expected
    for module in (clang, ours):
        assert {"Pipes", "Groups"} <= set(module.capabilities)
        kinds = {i.opname: i for i in module.instructions if i.opname in ("OpTypePipe", "OpTypeReserveId")}
        assert set(kinds) == {"OpTypePipe", "OpTypeReserveId"}


@pytest.mark.parametrize("stem", ["pipes", "sync_in_functions"])
def test_fixture_sources_compile_and_validate(stem):
    check_valid(spirvkit.compile_cl((PIPES / f"{stem}.cl").read_text(), "-cl-std=CL2.0"))
