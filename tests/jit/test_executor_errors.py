"""Bad input to the CPU executor never ends in a traceback or a crash.

Argument and launch mistakes raise ``KernelArgumentError`` (or the ``SpirvkitError`` the API
documents) naming the parameter; out-of-bounds accesses raise ``KernelFault`` naming the kernel,
the work-item, the instruction, the buffer and the offset, with the memory around the buffer
untouched; a kernel that never ends is stopped by its timeout; unsupported instructions raise
``NotSupportedError`` naming them; ``spirvkit run`` turns all of these into a message and exit
status 1.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

import spirvkit
from jit.asm_kernel import GID, build, kernel_function, ld, offsets_of, program, simple, simple_binary, st

KernelArgumentError = spirvkit.KernelArgumentError



# ----- a kernel with one parameter of every kind ------------------------------------------------
ALL_KINDS_TYPES = "%S = OpTypeStruct %uint %double"
ALL_KINDS_PARAMS = [("src", "pCW_float"), ("dst", "pCW_float"), ("tmp", "pWG_float"), ("c", "uchar"), ("n", "uint"),
                    ("v", "v4uint"), ("s", "S"), ("k", "pUC_float")]
ALL_KINDS_BODY = ld("x", "float", "src", "gid") + ld("y", "float", "k", "gid", storage="UC") + """
%sum = OpFAdd %float %x %y
%tp = OpInBoundsPtrAccessChain %pWG_float %tmp %ulong_0
""" + st("dst", "gid", "float", "sum")


def all_kinds():
    return simple(ALL_KINDS_PARAMS, ALL_KINDS_BODY, types=ALL_KINDS_TYPES)


S_DTYPE = np.dtype([("a", np.uint32), ("b", np.float64)], align=True)


def good_args(n=8):
    return dict(src=np.ones(n, np.float32), dst=np.zeros(n, np.float32), tmp=spirvkit.LocalMemory(64),
                c=np.uint8(3), n=n, v=np.array([1, 2, 3, 4]), s=np.zeros(1, S_DTYPE)[0], k=np.ones(n, np.float32))


def launch(overrides=None, *, drop=None, extra=(), global_size=8, local_size=None, **kwargs):
    args = good_args()
    args.update(overrides or {})
    values = [v for name, v in args.items() if name != drop] + list(extra)
    all_kinds()(global_size, local_size, *values, **kwargs)


def test_all_kinds_kernel_runs_with_good_arguments():
    args = good_args()
    all_kinds()(8, None, *args.values())
    assert (args["dst"] == 2).all()
    info = all_kinds().args
    assert [(a.name, a.address_space) for a in info] == [
        ("src", "global"), ("dst", "global"), ("tmp", "local"), ("c", "private"), ("n", "private"),
        ("v", "private"), ("s", "private"), ("k", "constant")]


def _misaligned_floats(n):
    raw = np.zeros(4 * n + 8, np.uint8)
    start = (-raw.ctypes.data % 4) + 1          # one byte past a 4-byte boundary
    return raw[start:start + 4 * n].view(np.float32)


def _read_only(n):
    a = np.ones(n, np.float32)
    a.flags.writeable = False
    return a


ARGUMENT_MISTAKES = {
    "too_few": (dict(drop="k"), r"takes 8 argument\(s\) \(src, dst, tmp, c, n, v, s, k\), 7 given"),
    "too_many": (dict(extra=(1,)), r"takes 8 argument\(s\).*9 given"),
    "array_for_scalar": (dict(overrides={"n": np.arange(3)}), r"argument 4 \('n'\)"),
    "scalar_for_pointer": (dict(overrides={"src": 1.0}), r"argument 0 \('src'\).*numpy array"),
    "list_for_pointer": (dict(overrides={"dst": [0.0] * 8}), r"argument 1 \('dst'\)"),
    "local_memory_for_global": (dict(overrides={"src": spirvkit.LocalMemory(32)}),
                                r"argument 0 \('src'\).*LocalMemory"),
    "array_for_local": (dict(overrides={"tmp": np.zeros(8, np.float32)}), r"argument 2 \('tmp'\).*LocalMemory"),
    "local_memory_for_constant": (dict(overrides={"k": spirvkit.LocalMemory(32)}), r"argument 7 \('k'\)"),
    "int_out_of_range": (dict(overrides={"c": 256}), r"argument 3 \('c'\).*256 does not fit in 8 bits"),
    "negative_out_of_range": (dict(overrides={"n": -2 ** 31 - 1}), r"argument 4 \('n'\).*does not fit in 32 bits"),
    "huge_int": (dict(overrides={"n": 2 ** 32}), r"argument 4 \('n'\).*does not fit"),
    "float_for_int": (dict(overrides={"n": 1.5}), r"argument 4 \('n'\).*integer"),
    "numpy_float_for_int": (dict(overrides={"c": np.float32(2)}), r"argument 3 \('c'\).*integer"),
    "string_for_int": (dict(overrides={"n": "8"}), r"argument 4 \('n'\)"),
    "short_vector": (dict(overrides={"v": np.array([1, 2, 3])}), r"argument 5 \('v'\).*4 elements"),
    "long_vector": (dict(overrides={"v": np.arange(8)}), r"argument 5 \('v'\).*4 elements"),
    "scalar_for_vector": (dict(overrides={"v": 3}), r"argument 5 \('v'\)"),
    "vector_element_out_of_range": (dict(overrides={"v": np.array([1, 2, 3, 2 ** 40])}), r"argument 5 \('v'\)"),
    "struct_too_small": (dict(overrides={"s": np.zeros(1, [("a", np.uint32), ("b", np.float32)])[0]}),
                         r"argument 6 \('s'\).*16 bytes"),
    "struct_packed": (dict(overrides={"s": np.zeros(1, [("a", np.uint32), ("b", np.float64)])[0]}),
                      r"argument 6 \('s'\).*16 bytes"),
    "int_for_struct": (dict(overrides={"s": 5}), r"argument 6 \('s'\)"),
    "struct_for_scalar": (dict(overrides={"n": np.zeros(1, S_DTYPE)[0]}), r"argument 4 \('n'\)"),
    "non_contiguous": (dict(overrides={"src": np.ones(16, np.float32)[::2]}), r"argument 0 \('src'\).*contiguous"),
    # (a checked launch accepts it, with the access check: tests/jit/test_checks_framework.py)
    "read_only_global": (dict(overrides={"dst": _read_only(8)}, unchecked=True), r"argument 1 \('dst'\).*read-only"),
    "misaligned": (dict(overrides={"src": _misaligned_floats(8)}), r"argument 0 \('src'\).*aligned to 4 bytes"),
    "bad_local_memory_size": (dict(overrides={"tmp": "LocalMemory(0)"}), r"LocalMemory needs a positive"),
}


@pytest.mark.parametrize("case", ARGUMENT_MISTAKES, ids=list(ARGUMENT_MISTAKES))
def test_argument_mistakes(case):
    kwargs, pattern = ARGUMENT_MISTAKES[case]
    overrides = kwargs.get("overrides", {})
    if isinstance(overrides.get("tmp"), str):
        with pytest.raises(KernelArgumentError, match=pattern):
            spirvkit.LocalMemory(0)
        return
    with pytest.raises(KernelArgumentError, match=pattern):
        launch(**kwargs)


def test_read_only_array_is_fine_for_a_constant_pointer():
    args = good_args()
    args["k"] = _read_only(8)
    all_kinds()(8, None, *args.values())
    assert (args["dst"] == 2).all()


def test_alignment_follows_the_pointee():
    """A byte buffer may start anywhere; a float buffer must be 4-aligned."""
    k = simple([("a", "pCW_uchar"), ("o", "pCW_uchar")], ld("x", "uchar", "a", "gid") + st("o", "gid", "uchar", "x"))
    raw = np.arange(32, dtype=np.uint8)
    out = np.zeros(40, np.uint8)
    k(8, None, raw[1:9], out[3:11])
    assert out[3:11].tolist() == list(range(1, 9))
    with pytest.raises(KernelArgumentError, match=r"argument 0 \('src'\).*aligned"):
        launch({"src": _misaligned_floats(8)})


LAUNCH_MISTAKES = {
    "global_zero": (dict(global_size=0), r"global_size must be positive"),
    "global_negative": (dict(global_size=(4, -1)), r"global_size must be positive"),
    "global_four_dims": (dict(global_size=(2, 2, 2, 2)), r"global_size must be an int or a tuple of 1 to 3"),
    "global_empty": (dict(global_size=()), r"global_size"),
    "global_float": (dict(global_size=8.0), r"global_size"),
    "global_string": (dict(global_size="8"), r"global_size"),
    "global_bool": (dict(global_size=True), r"global_size"),
    "global_float_component": (dict(global_size=(8, 1.5)), r"global_size must hold ints"),
    "local_dims": (dict(global_size=(8, 8), local_size=(4,)), r"local_size \(4,\) has 1 dimensions"),
    "local_zero": (dict(local_size=0), r"local_size must be positive"),
    "local_not_int": (dict(local_size=2.0), r"local_size"),
    "local_above_limit": (dict(global_size=(64, 64, 4), local_size=(64, 64, 2)), r"local_size .* the limit is"),
    "offset_dims": (dict(global_offset=(1, 2)), r"global_offset .* 2 dimensions"),
    "offset_not_int": (dict(global_offset=0.5), r"global_offset"),
    "timeout_zero": (dict(timeout=0), r"timeout"),
    "timeout_negative": (dict(timeout=-1.0), r"timeout"),
    "timeout_string": (dict(timeout="5"), r"timeout"),
}


@pytest.mark.parametrize("case", LAUNCH_MISTAKES, ids=list(LAUNCH_MISTAKES))
def test_launch_mistakes(case):
    kwargs, pattern = LAUNCH_MISTAKES[case]
    with pytest.raises(KernelArgumentError, match=pattern):
        launch(**kwargs)


def test_timeout_nan_is_rejected():
    with pytest.raises(KernelArgumentError, match="timeout"):
        launch(timeout=math.nan)


def test_reqd_work_group_size():
    body = ld("x", "uint", "a", "gid") + st("a", "gid", "uint", "x")
    binary = simple_binary([("a", "pCW_uint")], body, modes="OpExecutionMode %main LocalSize 8 1 1")
    k = spirvkit.Program(binary).kernel("main")
    assert k.required_local_size == (8, 1, 1)
    a = np.arange(32, dtype=np.uint32)
    with pytest.raises(KernelArgumentError, match=r"local_size \(4,\) differs from the kernel's reqd_work_group_size"):
        k(32, 4, a)
    k(32, 8, a)
    k(32, None, a)   # the runtime picks the required size


# ----- program and module mistakes ---------------------------------------------------------------
def _spec_binary():
    return simple_binary([("o", "pCW_uint")], "%x = OpUConvert %uint %sc\n" + st("o", "gid", "uint", "x"),
                         types="%sc = OpSpecConstant %uchar 3", decorations="OpDecorate %sc SpecId 3")


def test_unknown_kernel_lists_the_kernels():
    kernels = [kernel_function([(f"o_{n}", t)], "", name=n, gid=False) for n, t in (("one", "pCW_uint"),
                                                                                  ("two", "pCW_float"))]
    prog = program("\n".join(fn for fn, _ in kernels), types="\n".join(t for _, t in kernels),
                   entry_points=("one", "two"))
    with pytest.raises(spirvkit.SpirvkitError, match=r"no kernel named 'three'.*one, two"):
        prog.kernel("three")


def test_unknown_spec_id():
    with pytest.raises(spirvkit.SpirvkitError, match=r"SpecId 4.*the module's SpecIds: 3"):
        spirvkit.Program(_spec_binary(), spec_constants={4: 1})


@pytest.mark.parametrize("value,pattern", [(300, "300 does not fit in 8 bits"), (1.5, "expected an integer"),
                                           ("x", "expected an integer")])
def test_bad_spec_value(value, pattern):
    """A value the constant's type cannot hold is rejected (at the latest by the first launch)."""
    with pytest.raises(spirvkit.SpirvkitError, match=f"SpecId 3: {pattern}"):
        spirvkit.Program(_spec_binary(), spec_constants={3: value}).kernel("main")(1, None, np.zeros(1, np.uint32))
    o = np.zeros(1, np.uint32)
    spirvkit.Program(_spec_binary(), spec_constants={3: 255}).kernel("main")(1, None, o)
    assert o[0] == 255


@pytest.mark.parametrize("source,error,pattern", [
    ("missing", spirvkit.SpirvkitError, r"cannot read: No such file"),
    (b"not a module at all", spirvkit.SpirvError, r"SPIR-V|header"),
    (b"", spirvkit.SpirvError, r"header"),
    (bytes(64), spirvkit.SpirvError, r"magic"),
    ("garbage-file", spirvkit.SpirvError, r"magic|SPIR-V"),
    (42, spirvkit.SpirvkitError, r"not int"),
], ids=["missing-path", "garbage-bytes", "empty", "zeros", "garbage-file", "wrong-type"])
def test_bad_program_source(tmp_path, source, error, pattern):
    if source == "missing":
        source = tmp_path / "does-not-exist.spv"
    elif source == "garbage-file":
        source = tmp_path / "garbage.spv"
        source.write_bytes(os.urandom(1000))
    with pytest.raises(error, match=pattern):
        spirvkit.Program(source)


# ----- out-of-bounds accesses --------------------------------------------------------------------
LUT_TYPES = """
%arr5u = OpTypeArray %uint %uint_5
%pUC_arr5u = OpTypePointer UniformConstant %arr5u
%lutinit = OpConstantComposite %arr5u %uint_11 %uint_22 %uint_33 %uint_44 %uint_55
%lut = OpVariable %pUC_arr5u UniformConstant %lutinit
"""
TILE_TYPES = """
%arr8u = OpTypeArray %uint %uint_8
%pWG_arr8u = OpTypePointer Workgroup %arr8u
%tile = OpVariable %pWG_arr8u Workgroup
"""
PRIVATE_TYPES = """
%arr4u = OpTypeArray %uint %uint_4
%pFn_arr4u = OpTypePointer Function %arr4u
"""
INDEX = "%i = OpIAdd %ulong %gid %off\n"
PLUS_ONE = "%x1 = OpIAdd %uint %x %uint_1\n"


def _private_kernel():
    fn, fn_type = kernel_function([("dst", "pCW_uint"), ("off", "ulong")], "", gid=False)
    fn = fn.replace("%main_entry = OpLabel\n", "%main_entry = OpLabel\n%pv = OpVariable %pFn_arr4u Function\n" + GID
                    + INDEX + """
%pp = OpInBoundsAccessChain %pFn_uint %pv %i
%gu = OpUConvert %uint %gid
OpStore %pp %gu
%back = OpLoad %uint %pp
""" + st("dst", "gid", "uint", "back"))
    return fn, PRIVATE_TYPES + fn_type


# name: (params, body, types, n, local size, faulting opname, buffer pattern, expected result with off=0)
OOB = {
    "global_read": ([("src", "pCW_uint"), ("dst", "pCW_uint"), ("off", "ulong")],
                    INDEX + ld("x", "uint", "src", "i") + PLUS_ONE + st("dst", "gid", "uint", "x1"),
                    "", 10, None, "OpLoad", r"argument 0 \('src'\)"),
    "global_write": ([("src", "pCW_uint"), ("dst", "pCW_uint"), ("off", "ulong")],
                     INDEX + ld("x", "uint", "src", "gid") + PLUS_ONE + st("dst", "i", "uint", "x1"),
                     "", 10, None, "OpStore", r"argument 1 \('dst'\)"),
    "local_argument": ([("dst", "pCW_uint"), ("off", "ulong"), ("l", "pWG_uint")],
                       INDEX + "%gu = OpUConvert %uint %gid\n%v3 = OpIMul %uint %gu %uint_3\n"
                       + st("l", "i", "uint", "v3", "WG")
                       + ld("back", "uint", "l", "i", "WG") + st("dst", "gid", "uint", "back"),
                       "", 8, 8, "OpStore", r"argument 2 \('l'\)"),
    "workgroup_variable": ([("dst", "pCW_uint"), ("off", "ulong")],
                           INDEX + "%gu = OpUConvert %uint %gid\n%v3 = OpIMul %uint %gu %uint_3\n"
                           "%tp = OpInBoundsAccessChain %pWG_uint %tile %i\nOpStore %tp %v3\n%back = OpLoad %uint %tp\n"
                           + st("dst", "gid", "uint", "back"), TILE_TYPES, 8, 8, "OpStore", r"__local variable"),
    "constant_variable": ([("dst", "pCW_uint"), ("off", "ulong")],
                          INDEX + "%lp = OpInBoundsAccessChain %pUC_uint %lut %i\n%lv = OpLoad %uint %lp\n"
                          + st("dst", "gid", "uint", "lv"), LUT_TYPES, 5, None, "OpLoad", r"lut|__constant|constant"),
    "constant_argument": ([("c", "pUC_uint"), ("dst", "pCW_uint"), ("off", "ulong")],
                          INDEX + ld("x", "uint", "c", "i", "UC") + st("dst", "gid", "uint", "x"),
                          "", 4, None, "OpLoad", r"argument 0 \('c'\)"),
    "private_array": (None, None, None, 4, None, "OpStore", r"private variable"),
}


def _oob_binary(case):
    params, body, types, *_ = OOB[case]
    if case == "private_array":
        fn, types = _private_kernel()
        return build(fn, types=types)
    return simple_binary(params, body, types=types)


def _oob_args(case, big, off):
    """The launch arguments, global buffers carved out of ``big`` between guard zones."""
    n = OOB[case][3]
    guard = 16
    src = big[guard:guard + n]
    dst = big[2 * guard + n:2 * guard + 2 * n]
    if case in ("global_read", "global_write"):
        return [src, dst, off], src, dst
    if case == "local_argument":
        return [dst, off, spirvkit.LocalMemory(4 * n)], None, dst
    if case == "constant_argument":
        src.flags.writeable = False
        return [src, dst, off], src, dst
    return [dst, off], None, dst


def _expected(case, src):
    n = OOB[case][3]
    g = np.arange(n, dtype=np.uint32)
    return {"global_read": src + 1, "global_write": src + 1, "local_argument": 3 * g, "workgroup_variable": 3 * g,
            "constant_variable": np.array([11, 22, 33, 44, 55], np.uint32), "constant_argument": src,
            "private_array": g}[case]


@pytest.mark.parametrize("case", list(OOB))
def test_out_of_bounds_access_faults(case):
    *_, n, local, opname, buffer_pattern = OOB[case]
    binary = _oob_binary(case)
    k = spirvkit.Program(binary).kernel("main")
    guard = 16
    big = np.zeros(3 * guard + 2 * n, np.uint32)
    big[guard:guard + n] = np.arange(n) * 10 + 7
    source_before = big[guard:guard + n].copy()
    args, src, dst = _oob_args(case, big, 1)
    with pytest.raises(spirvkit.KernelFault) as info:
        k(n, local, *args)
    e = info.value
    faulty = n - 1
    # which instruction: the first access of that kind after the builtin load
    sites = offsets_of(binary, opname)
    expected_site = sites[1] if opname == "OpLoad" else sites[0]
    message = str(e)
    assert e.kernel == "main" and "'main'" in message
    assert e.global_id == (faulty, 0, 0) and f"({faulty}, 0, 0)" in message
    assert e.site.opname == opname and opname in message
    assert e.site.word_offset == expected_site and f"word {expected_site}" in message
    assert e.offset == 4 * n and f"byte offset {4 * n}" in message
    assert e.size == 4
    assert re.search(buffer_pattern, message), message
    assert "private" not in message or case == "private_array", message
    # nothing outside the buffers was touched
    guards = (big[:guard], big[guard + n:2 * guard + n], big[2 * guard + 2 * n:])
    assert all((g == 0).all() for g in guards)
    assert (big[guard:guard + n] == source_before).all()
    # the same kernel runs correctly afterwards
    dst[:] = 0
    args, src, dst = _oob_args(case, big, 0)
    k(n, local, *args)
    assert (dst == _expected(case, source_before)).all()


@pytest.mark.parametrize("case", ["global_read", "global_write"])
def test_unchecked_removes_the_checks(case):
    """In bounds, unchecked and checked agree; out of bounds, unchecked code reads or writes
    past the buffer (here into a guard zone of the same allocation, so it is safe)."""
    k = spirvkit.Program(_oob_binary(case)).kernel("main")
    n, guard = 10, 16
    results = []
    for unchecked in (False, True):
        big = np.zeros(3 * guard + 2 * n, np.uint32)
        big[guard:guard + n] = np.arange(n) * 10 + 7
        args, src, dst = _oob_args(case, big, 0)
        k(n, None, *args, unchecked=unchecked)
        results.append(dst.copy())
    assert (results[0] == results[1]).all() and (results[0] == np.arange(n) * 10 + 8).all()
    big = np.zeros(3 * guard + 2 * n, np.uint32)
    big[guard:guard + n] = np.arange(n) * 10 + 7
    big[guard + n] = 1000          # the word just past src
    args, src, dst = _oob_args(case, big, 1)
    k(n, None, *args, unchecked=True)
    if case == "global_read":
        assert dst[n - 1] == 1001
    else:
        assert big[2 * guard + 2 * n] == (n - 1) * 10 + 8   # the word just past dst


def test_fault_in_called_function_names_it():
    functions = """
%get = OpFunction %uint None %fn_get
%p = OpFunctionParameter %pCW_uint
%j = OpFunctionParameter %ulong
%get_e = OpLabel
%q = OpInBoundsPtrAccessChain %pCW_uint %p %j
%v = OpLoad %uint %q
OpReturnValue %v
OpFunctionEnd
"""
    fn, fn_type = kernel_function([("src", "pCW_uint"), ("dst", "pCW_uint")], """
%twice = OpIMul %ulong %gid %ulong_2
%x = OpFunctionCall %uint %get %src %twice
""" + st("dst", "gid", "uint", "x"))
    binary = build(functions + fn, types=fn_type + "\n%fn_get = OpTypeFunction %uint %pCW_uint %ulong")
    k = spirvkit.Program(binary).kernel("main")
    with pytest.raises(spirvkit.KernelFault, match=r"in function get") as info:
        k(8, None, np.zeros(10, np.uint32), np.zeros(8, np.uint32))
    assert info.value.site.function == "get" and info.value.site.word_offset == offsets_of(binary, "OpLoad", "get")[0]
    assert info.value.global_id == (5, 0, 0)
    assert "argument 0 ('src')" in str(info.value)


# ----- timeouts ----------------------------------------------------------------------------------
def _spinning_kernel():
    body = """
%spin = OpINotEqual %bool %flag %uint_0
OpBranchConditional %spin %loop %exit
%loop = OpLabel
%i = OpPhi %ulong %ulong_0 %main_entry %i1 %loop
%i1 = OpIAdd %ulong %i %ulong_1
OpBranch %loop
%exit = OpLabel
""" + st("o", "gid", "uint", "uint_42") + "OpReturn"
    return simple([("o", "pCW_uint"), ("flag", "uint")], body, ret=False)


@pytest.mark.parametrize("unchecked", [False, True], ids=["checked", "unchecked"])
def test_infinite_loop_stopped_by_timeout(unchecked):
    k = _spinning_kernel()
    o = np.zeros(64, np.uint32)
    k.compile(unchecked=unchecked)
    with pytest.raises(spirvkit.KernelTimeout, match=r"'main'.*timeout of 0.5"):
        k(64, 8, o, 1, timeout=0.5, unchecked=unchecked)
    # Timed once the builds a timed-out launch uses exist (a checked one compiles its locating
    # report build on the first timeout: compile time, which a loaded machine stretches, is not
    # what this measures).
    start = time.monotonic()
    with pytest.raises(spirvkit.KernelTimeout, match=r"'main'.*timeout of 0.5"):
        k(64, 8, o, 1, timeout=0.5, unchecked=unchecked)
    assert time.monotonic() - start < 5
    k(64, 8, o, 0, timeout=5, unchecked=unchecked)
    assert (o == 42).all()


# ----- unsupported features ----------------------------------------------------------------------
def test_group_reduce_in_the_kernel_runs():
    """A work-group collective in the kernel function itself is supported (the corpus kernels
    workgroup_collectives.cl test them fully); as a SPIR-V module with no barrier at all."""
    body = ld("x", "uint", "a", "gid") + "%r = OpGroupIAdd %uint %uint_2 Reduce %x\n" + st("a", "gid", "uint", "r")
    k = simple([("a", "pCW_uint")], body, capabilities=("Groups",))
    a = np.arange(8, dtype=np.uint32)
    k(8, 4, a)
    assert a.tolist() == [6] * 4 + [22] * 4


def test_group_operation_at_device_scope_not_supported():
    body = ld("x", "uint", "a", "gid") + "%r = OpGroupIAdd %uint %uint_1 Reduce %x\n" + st("a", "gid", "uint", "r")
    k = simple([("a", "pCW_uint")], body, capabilities=("Groups",))
    with pytest.raises(spirvkit.NotSupportedError, match=r"not supported yet: OpGroupIAdd with execution scope 1"):
        k(4, None, np.zeros(4, np.uint32))


def test_group_operation_in_a_called_function_runs():
    # (issue 15: the executor inlines calls that reach a collective; tests/jit/test_sync_in_functions.py)
    helper = """
%sum = OpFunction %uint None %fn_sum
%v = OpFunctionParameter %uint
%sum_entry = OpLabel
%t = OpGroupIAdd %uint %uint_2 Reduce %v
OpReturnValue %t
OpFunctionEnd
"""
    body = ld("x", "uint", "a", "gid") + "%r = OpFunctionCall %uint %sum %x\n" + st("a", "gid", "uint", "r")
    fn, fn_type = kernel_function([("a", "pCW_uint")], body)
    k = program(helper + fn, types=fn_type + "\n%fn_sum = OpTypeFunction %uint %uint",
                capabilities=("Groups",)).kernel("main")
    a = np.arange(4, dtype=np.uint32)
    k(4, 2, a)
    assert a.tolist() == [1, 1, 5, 5]


def test_image_parameter_needs_an_image():
    # Images are supported (tests/jit/test_images.py); an array is not one.
    types = "%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly"
    k = simple([("im", "img"), ("a", "pCW_uint")], "", types=types, capabilities=("ImageBasic",))
    with pytest.raises(spirvkit.KernelArgumentError, match=r"argument 0 \('im'\) is an image2d_t: pass a spirvkit.Image"):
        k(4, None, np.zeros(4, np.uint32), np.zeros(4, np.uint32))


# ----- the command line --------------------------------------------------------------------------
def _cli(*args, cwd=None):
    result = subprocess.run([sys.executable, "-m", "spirvkit", *map(str, args)], capture_output=True, text=True,
                            cwd=cwd, timeout=120, env=dict(os.environ))
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


@pytest.fixture(scope="module")
def cli_module(tmp_path_factory):
    """A module with a kernel that computes o = 2 * a + 1 at index gid + off."""
    path = tmp_path_factory.mktemp("cli") / "affine.spv"
    body = INDEX + ld("x", "float", "a", "gid") + "%y = OpFMul %float %x %float_2\n%z = OpFAdd %float %y %float_1\n" \
        + st("o", "i", "float", "z")
    path.write_bytes(simple_binary([("a", "pCW_float"), ("o", "pCW_float"), ("off", "ulong")], body))
    return path


def test_cli_run_writes_outputs(cli_module, tmp_path):
    out = tmp_path / "out"
    r = _cli("run", cli_module, "--kernel", "main", "--global", 16, "--local", 4, "--arg", "range:16",
             "--arg", "zeros:16", "--arg", "0", "--out", out)
    assert r.returncode == 0, r.stderr
    a = np.load(out / "0_a.npy")
    o = np.load(out / "1_o.npy")
    assert a.dtype == np.float32 and (a == np.arange(16)).all()
    assert o.dtype == np.float32 and (o == 2 * np.arange(16) + 1).all()


@pytest.mark.parametrize("args,pattern", [
    (["--arg", "range:16", "--arg", "bogus", "--arg", "0"], r"--arg 2 \(o\)"),
    (["--arg", "range:16", "--arg", "zeros:16"], r"takes 3 argument"),
    (["--arg", "range:16", "--arg", "zeros:16", "--arg", "1.5"], r"argument 2 \('off'\).*integer"),
    (["--arg", "range:x", "--arg", "zeros:16", "--arg", "0"], r"--arg 1 \(a\).*not a size"),
    (["--arg", "range:16", "--arg", "zeros:16", "--arg", "1"], r"out-of-bounds write in kernel 'main'.*\(15, 0, 0\)"),
    (["--arg", "range:16", "--arg", "zeros:16", "--arg", "0", "--timeout", "-1"], r"timeout"),
], ids=["bad-arg", "missing-arg", "float-for-int", "bad-size", "fault", "bad-timeout"])
def test_cli_run_errors(cli_module, args, pattern):
    r = _cli("run", cli_module, "--global", 16, *args)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert re.search(pattern, r.stderr, re.S), r.stderr


def test_cli_run_missing_file(tmp_path):
    r = _cli("run", tmp_path / "nope.spv", "--global", 4)
    assert r.returncode == 1
    assert "nope.spv" in r.stderr and "error" in r.stderr
