"""Device-side enqueue in the compiler (OpenCL C 2.0 §6.13.17; issue 15, item 3).

- the §6.13.17 built-ins' misuses are rejected with clang-15's first error at its line:col
  (``clang-15 -cl-std=CL2.0 -target spir64 -Xclang -finclude-default-header -fsyntax-only``,
  recorded when these tests were written, ``__private`` left out as in the other test_lang_*
  files);
- ``spirvkit cc`` compiles the executor's fixture tests/data/enqueue/enqueue.cl (every enqueue
  form, events, markers, queries, ndranges, local-memory block parameters) to SPIR-V that
  spirv-val and ``spirvkit val`` accept, with the same entry points (each enqueued block's wrapper
  kernel) and the same device-enqueue instructions as clang-15 + llvm-spirv-15 (enqueue.spv):
  opcodes, flags, event counts, null events, invoke kernels, literal sizes and alignments;
- the executor runs cc's output of that fixture as it runs clang's: the same outputs for the same
  inputs (tests/jit/test_device_enqueue.py checks clang's against the spec's semantics).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from lang_support import check_rejected, first_error
from peers import spirv_tool
from test_lang_blocks import _describe, _invokes, _literal_headers

import spirvkit
from spirvkit.errors import ExecutionError

ENQUEUE = Path(__file__).resolve().parents[1] / "data" / "enqueue"
P = ("kernel void k(global int *o, int n) { queue_t q = get_default_queue(); ndrange_t nd = ndrange_1D(n); "
     "clk_event_t e; %s }")

REJECTED = [
    ('block_int_param', P % 'enqueue_kernel(q, 0, nd, ^(int x){ o[0] = x; }, 4u);',
     "blocks used in enqueue_kernel call are expected to have parameters of type 'local void*'", 1, 144),
    ('block_global_param', P % 'enqueue_kernel(q, 0, nd, ^(global void *p){ }, 4u);',
     "blocks used in enqueue_kernel call are expected to have parameters of type 'local void*'", 1, 144),
    ('missing_local_size', P % 'enqueue_kernel(q, 0, nd, ^(local void *p){ });',
     'blocks with parameters are not accepted in this prototype of enqueue_kernel call', 1, 142),
    ('extra_local_size', P % 'enqueue_kernel(q, 0, nd, ^{ }, 4u);',
     'mismatch in number of block parameters and local size arguments passed', 1, 117),
    ('float_local_size', P % 'enqueue_kernel(q, 0, nd, ^(local void *p){ }, 4.0f);',
     'illegal call to enqueue_kernel, parameter needs to be specified as integer type', 1, 163),
    ('not_a_block', P % 'enqueue_kernel(q, 0, nd, 1);',
     "illegal call to 'enqueue_kernel', expected block argument type", 1, 142),
    ('too_few', P % 'enqueue_kernel(q, 0, nd);',
     'too few arguments to function call, expected at least 4, have 3', 1, 117),
    ('not_a_queue', P % 'enqueue_kernel(1, 0, nd, ^{ });',
     "illegal call to 'enqueue_kernel', expected 'queue_t' argument type", 1, 132),
    ('not_an_ndrange', P % 'enqueue_kernel(q, 0, 1, ^{ });',
     "illegal call to 'enqueue_kernel', expected 'ndrange_t' argument type", 1, 138),
    ('bad_wait_list', P % 'enqueue_kernel(q, 0, nd, 1, 2, &e, ^{ });',
     "illegal call to 'enqueue_kernel', expected 'clk_event_t *' argument type", 1, 145),
    ('bad_ret_event', P % 'enqueue_kernel(q, 0, nd, 1, &e, 3, ^{ });',
     "illegal call to 'enqueue_kernel', expected 'clk_event_t *' argument type", 1, 149),
    ('events_missing', P % 'enqueue_kernel(q, 0, nd, 1, &e, ^{ });',
     'illegal call to enqueue_kernel, incorrect argument types', 1, 117),
    ('wg_size_not_block', P % 'o[0] = get_kernel_work_group_size(1);',
     "illegal call to 'get_kernel_work_group_size', expected block argument type", 1, 151),
    ('sub_group_count_not_ndrange', P % 'o[0] = get_kernel_sub_group_count_for_ndrange(1, ^{ });',
     "illegal call to 'get_kernel_sub_group_count_for_ndrange', expected 'ndrange_t' argument type", 1, 163),
    ('marker_bad', P % 'enqueue_marker(q, 1, 2, &e);',
     "incompatible integer to pointer conversion passing 'int' to parameter of type 'const __generic clk_event_t *'",
     1, 138),
    ('marker_few', P % 'enqueue_marker(q, 1, &e);',
     # clang: 140, at the ')'
     'too few arguments to function call, expected 4, have 3', 1, 117),
    ('retain_int', P % 'retain_event(1);',
     "passing 'int' to parameter of incompatible type 'clk_event_t'", 1, 130),
    ('user_status_ptr', P % 'set_user_event_status(e, o);',
     "incompatible pointer to integer conversion passing '__global int *' to parameter of type 'int'", 1, 142),
    ('capture_private', P % 'int v; capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, &v);',
     "passing 'int *' to parameter of type '__global void *' changes address space of pointer", 1, 189),
    ('ndrange_kernel_arg', 'kernel void k(ndrange_t n) { }',
     "'ndrange_t' cannot be used as the type of a kernel parameter", 1, 25),
    ('queue_arith', P % 'o[0] = q + 1;',
     "invalid operands to binary expression ('queue_t' and 'int')", 1, 126),
    ('event_assign_int', P % 'e = 1;',
     "assigning to 'clk_event_t' from incompatible type 'int'", 1, 119),
    ('event_program_scope', 'clk_event_t ge; kernel void k(global int *o) { }',
     "the '__global clk_event_t' type cannot be used to declare a program scope variable", 1, 13),
    ('ndrange_1D_none', P % 'ndrange_t x = ndrange_1D();',
     "no matching function for call to 'ndrange_1D'", 1, 131),
    # ndrange_2D/3D take private arrays (clang's header: const size_t[N], __private in a parameter)
    ('ndrange_2D_global_sizes', 'kernel void k(global size_t *g) { ndrange_t r = ndrange_2D(g); }',
     "no matching function for call to 'ndrange_2D'", 1, 49),
    ('ndrange_2D_generic_sizes', 'kernel void k(global int *o) { size_t g[2] = {1, 2}; size_t *p = g; '
     'ndrange_t r = ndrange_2D(p); }', "no matching function for call to 'ndrange_2D'", 1, 83),
    # names only like the built-ins' are undeclared, as in clang (no "not supported yet")
    ('unknown_ndrange', 'kernel void k(global int *o) { o[0] = ndrange_4D(1); }',
     "use of undeclared identifier 'ndrange_4D'", 1, 39),
    ('unknown_enqueue', 'kernel void k(global int *o) { o[0] = enqueue_foo(1); }',
     "use of undeclared identifier 'enqueue_foo'", 1, 39),
    ('ndrange_2D_scalar', P % 'ndrange_t x = ndrange_2D(4);',
     "no matching function for call to 'ndrange_2D'", 1, 131),
    ('flags_ptr', P % 'enqueue_kernel(q, o, nd, ^{ });',
     "illegal call to 'enqueue_kernel', expected 'kernel_enqueue_flags_t' (i.e. uint) argument type", 1, 135),
    ('enqueue_in_12', 'kernel void k(global int *o) { enqueue_marker(0, 0, 0, 0); }',
     "use of undeclared identifier 'enqueue_marker'", 1, 32),
    # __builtin_astype (CLK_NULL_EVENT, CLK_NULL_RESERVE_ID and clang's as_<type> are made of it)
    ('astype_sizes', P % 'o[0] = __builtin_astype(1.0f, long);',
     "invalid reinterpretation: sizes of 'long' and 'float' must match", 1, 124),
    ('astype_lvalue_sizes', P % 'float f = 1; o[0] = __builtin_astype(f, long);',
     "invalid reinterpretation: sizes of 'long' and '__private float' must match", 1, 137),
    ('astype_int_to_event', P % 'e = __builtin_astype(n, clk_event_t);',
     "invalid reinterpretation: sizes of 'clk_event_t' and '__private int' must match", 1, 121),
    ('astype_no_type', P % 'o[0] = __builtin_astype(1.0f);', "expected ','", 1, 145),
    ('astype_not_a_type', P % 'o[0] = __builtin_astype(1.0f, 3);', "expected a type", 1, 147),
]


@pytest.mark.parametrize("name,source,message,line,col", REJECTED, ids=[c[0] for c in REJECTED])
def test_rejected(name, source, message, line, col):
    check_rejected(source, message, line, col, options="-cl-std=CL1.2" if name.endswith("_12") else "-cl-std=CL2.0")


# clang-15 accepts these; they stay out of scope, with a clear message.
NOT_SUPPORTED = [
    ("queue_t gq; kernel void k(global int *o) { }", "not supported yet: a program-scope 'queue_t' variable"),
    # (the OpenCL SPIR-V environment allows no OpTypeDeviceEvent kernel argument)
    ("kernel void k(clk_event_t e) { }", "not supported yet: a 'clk_event_t' kernel parameter"),
    # (SPIR-V has no conversion of a run-time value to OpTypeDeviceEvent)
    (P % "e = __builtin_astype((ulong)n, clk_event_t);",
     "not supported yet: __builtin_astype from 'ulong' to 'clk_event_t'"),
]


@pytest.mark.parametrize("source,message", NOT_SUPPORTED)
def test_not_supported_yet(source, message):
    assert first_error(source).message == message


ACCEPTED = {  # clang-15 accepts these too
    "block_returning_int": P % "enqueue_kernel(q, 0, nd, ^{ return 1; });",
    "query_of_block_with_local_parameter": P % "o[0] = get_kernel_work_group_size(^(local void *p){ });",
    "queue_kernel_parameter": "kernel void k(queue_t q) { }",
    "null_events": P % "enqueue_kernel(q, 0, nd, 0, 0, 0, ^{ }); enqueue_marker(q, 0, NULL, &e);",
    "generic_event_pointers": P % "clk_event_t *w = &e; enqueue_kernel(q, 0, nd, 1, w, w, ^{ });",
    "block_variable_enqueued": P % "void (^b)(local void *) = ^(local void *p){ ((local int *)p)[0] = n; }; "
                                   "enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, nd, b, 64u);",
    "null_event": P % "e = CLK_NULL_EVENT; o[0] = is_valid_event(e);",
    "null_reserve_id": "kernel void k(global int *o) { reserve_id_t r = CLK_NULL_RESERVE_ID; "
                       "o[0] = is_valid_reserve_id(r); }",
    "astype_vectors": "kernel void k(global int *o) { float3 f = 1; o[0] = __builtin_astype(f, int4).x + "
                      "__builtin_astype(2.0f, int); }",
    "program_scope_block_enqueued": "global int hits; void (^bump)(void) = ^{ atomic_inc(&hits); }; "
                                    "kernel void k(global int *o) { enqueue_kernel(get_default_queue(), 0, "
                                    "ndrange_1D(4), bump); }",
}


@pytest.mark.parametrize("name", ACCEPTED)
def test_accepted_and_valid(name):
    binary = spirvkit.compile_cl(ACCEPTED[name], "-cl-std=CL2.0")
    assert spirvkit.validate(binary, target_env="opencl2.2") == []


def test_ndrange_1d_converts_a_float_size_as_clang():
    """clang-15 takes floats for ndrange_1D's size_t parameters (with -Wliteral-conversion), as any call."""
    binary = spirvkit.compile_cl("kernel void k(global int *o) { ndrange_t r = ndrange_1D(2.5f, 1.0); "
                                 "o[0] = r.workDimension; }", "-cl-std=CL2.0")
    assert "OpBuildNDRange %struct_ndrange_t %ulong_2 %ulong_1 %ulong_0" in spirvkit.disassemble(binary)


# ----- the SPIR-V, against clang-15 + llvm-spirv-15 -----------------------------------------------

ENQUEUE_OPS = {"OpEnqueueKernel", "OpEnqueueMarker", "OpGetKernelWorkGroupSize",
               "OpGetKernelPreferredWorkGroupSizeMultiple", "OpGetKernelNDrangeSubGroupCount",
               "OpGetKernelNDrangeMaxSubGroupSize", "OpGetDefaultQueue", "OpBuildNDRange", "OpCreateUserEvent",
               "OpSetUserEventStatus", "OpIsValidEvent", "OpRetainEvent", "OpReleaseEvent",
               "OpCaptureEventProfilingInfo"}


def _enqueue_instructions(module) -> dict:
    """Function name -> its device-enqueue instructions, each operand as its constant value,
    "null" (an OpConstantNull: no event, a size of 0), the name of an invoke kernel, or "value"."""
    constants = {i.result_id: i.words[3] for i in module.instructions if i.opname == "OpConstant"}
    nulls = {i.result_id for i in module.instructions if i.opname == "OpConstantNull"}

    def operand(w):
        if w in nulls:
            return "null"
        if w in constants:
            return constants[w]
        name = module.name(w) or ""
        return name if re.fullmatch(r"__\w+_block_invoke(_\d+)?_kernel", name) else "value"

    found = {}
    for fn in module.functions:
        ops = [(i.opname, tuple(operand(w) for w in i.id_operands()))
               for b in fn.blocks for i in b.instructions if i.opname in ENQUEUE_OPS]
        if ops:
            found[module.name(fn.id)] = ops
    return found


def _wrapper_kernels(module) -> dict:
    """Entry point name -> its parameters' types, for the enqueued blocks' wrapper kernels."""
    found = {}
    for fn in module.functions:
        name = module.name(fn.id) or ""
        if name.endswith("_kernel") and "_block_invoke" in name:
            found[name] = tuple(_describe(module, p.words[1]) for p in fn.parameters)
    return found


@pytest.fixture(scope="module")
def modules():
    clang = spirvkit.Module.from_file(ENQUEUE / "enqueue.spv")
    ours = spirvkit.Module.from_bytes(spirvkit.compile_cl((ENQUEUE / "enqueue.cl").read_text(), "-cl-std=CL2.0",
                                                          filename="enqueue.cl"))
    return clang, ours


def test_same_instructions_as_clang_and_llvm_spirv(modules):
    clang, ours = modules
    expected = _enqueue_instructions(clang)
    assert len(expected) >= 10
    assert _enqueue_instructions(ours) == expected
    assert sorted(e.name for e in ours.entry_points) == sorted(e.name for e in clang.entry_points)
    wrappers = _wrapper_kernels(clang)
    assert "ptr(4, i8)" in {t for params in wrappers.values() for t in params}   # a local void * parameter
    assert _wrapper_kernels(ours) == wrappers
    for module in (clang, ours):
        assert "DeviceEnqueue" in module.capabilities


def test_same_blocks_as_clang_and_llvm_spirv(modules):
    clang, ours = modules
    assert _invokes(ours) == _invokes(clang)
    assert _literal_headers(ours) == _literal_headers(clang)


@pytest.mark.parametrize("env", ["opencl2.0", "opencl2.2"])
def test_fixture_compiles_and_validates(modules, env):
    binary = modules[1].to_bytes()
    assert spirvkit.validate(binary, env, max_errors=None) == []
    with tempfile.NamedTemporaryFile(suffix=".spv") as tmp:
        tmp.write(binary)
        tmp.flush()
        result = subprocess.run([spirv_tool("spirv-val"), "--target-env", env, tmp.name], capture_output=True,
                                text=True)
    assert result.returncode == 0, result.stderr


# ----- running cc's output: the executor gives what it gives for clang's ---------------------------

def _pair(pair_dtype=np.dtype([("x", np.int32), ("y", np.float32)])):
    p = np.zeros((), pair_dtype)
    p["x"], p["y"] = 9, 1.5
    return p


# kernel -> (global size, local size, a function making its arguments, which outputs to compare)
RUNS = {
    "simple": (24, 8, lambda: [np.full(24, -1, np.int32), np.int32(24)], [0]),
    "captures": (1, 1, lambda: [np.full(12, -7, np.int32), np.array([0.5, 6.0, 2.0, 3.0], np.float32), np.int8(-3),
                                np.int16(300), np.int64((1 << 33) | 5), np.float32(2.25), 1.25,
                                np.array([1, 2, 3, 4], np.int32), _pair()], [0]),
    "subdivide": (1, 1, lambda: [np.full(37, -1, np.int32), np.int32(37)], [0]),
    "flags": (64, 16, lambda: [np.zeros(64, np.int32), np.zeros(4, np.int32), np.int32(2)], [0, 1]),
    "events": (1, 1, lambda: [np.zeros(48, np.int32), np.full(8, 99, np.int32), np.zeros(2, np.uint64)], [0, 1]),
    "marker_all": (1, 1, lambda: [np.zeros(16, np.int32)], [0]),
    "user_events": (1, 1, lambda: [np.zeros(8, np.int32), np.full(4, 99, np.int32)], [0, 1]),
    "queries": (1, 1, lambda: [np.zeros(12, np.uint32)], [0]),
    "shapes": (1, 1, lambda: [np.full(30 * 16, -1, np.int32), np.int32(8)], [0]),
    "local_args": (1, 1, lambda: [np.full(12, 7, np.int32), np.arange(32, dtype=np.int32) * 3 - 5], [0]),
}


@pytest.fixture(scope="module")
def programs(modules):
    clang, ours = modules
    return spirvkit.Program(clang.to_bytes()), spirvkit.Program(ours.to_bytes())


@pytest.mark.parametrize("kernel", RUNS)
def test_cc_output_runs_as_clang_output(programs, kernel):
    global_size, local_size, make, compared = RUNS[kernel]
    results = []
    for program in programs:
        args = make()
        program.kernel(kernel)(global_size, local_size, *args)
        results.append([args[k].tolist() for k in compared])
    assert results[1] == results[0]


def test_null_handles_and_astype_run():
    # CLK_NULL_EVENT / CLK_NULL_RESERVE_ID (clang's __builtin_astype of __SIZE_MAX__) are no valid
    # handles; cc writes the types' OpConstantNull, llvm-spirv an OpConvertUToPtr of all ones
    # (which spirv-val refuses): both run as the invalid handle.
    source = ("kernel void k(global int *o) { clk_event_t e = CLK_NULL_EVENT; reserve_id_t r = CLK_NULL_RESERVE_ID; "
              "o[0] = is_valid_event(e); o[1] = is_valid_reserve_id(r); float3 f = (float3)(1.0f, 2.0f, -0.5f); "
              "int4 i = __builtin_astype(f, int4); o[2] = i.x; o[3] = i.y; o[4] = i.z; "
              "o[5] = __builtin_astype(-2.0f, int); o[6] = __builtin_astype((uchar4)(1, 2, 3, 4), int); }")
    out = np.full(7, 99, np.int32)
    spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0")).kernel("k")(1, 1, out)
    floats = np.array([1.0, 2.0, -0.5, -2.0], np.float32).view(np.int32)
    assert out.tolist() == [0, 0, *floats[:3].tolist(), floats[3], 0x04030201]


def test_a_program_scope_block_is_enqueued():
    source = ("global int hits; void (^bump)(void) = ^{ atomic_inc(&hits); };\n"
              "kernel void k(global int *o) { o[get_global_id(0)] = enqueue_kernel(get_default_queue(), "
              "CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), bump); }\n"
              "kernel void read(global int *o) { o[0] = hits; }\n")
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0"))
    status = np.full(3, 99, np.int32)
    program.kernel("k")(3, 1, status)
    hits = np.zeros(1, np.int32)
    program.kernel("read")(1, 1, hits)
    assert status.tolist() == [0, 0, 0] and hits[0] == 3 * 4


def test_a_child_that_is_not_run_is_reported_alike(programs):
    messages = []
    for program in programs:
        with pytest.raises(ExecutionError) as info:
            program.kernel("user_event_error")(1, 1, np.zeros(4, np.int32))
        messages.append(str(info.value))
    assert "'__user_event_error_block_invoke_kernel'" in messages[1]
    assert messages[1] == messages[0]
