"""cl_khr_subgroups in ``spirvkit cc`` (OpenCL 2.0 extension; the SPIR-V mapping of the OpenCL
SPIR-V environment): the sub-group work-item functions, ``sub_group_all/any/broadcast``, the
reductions and scans, ``sub_group_barrier``, the pragma and the macros.

Expected values: PoCL 3.0's CPU device does not support cl_khr_subgroups (not in its extension
list, and it cannot link the functions), so the expectations are computed here, in numpy, from
the sub-group model the executor implements and the extension allows: one sub-group per
work-group (sub-group size = the work-group's actual size, max size = the enqueued work-group
size, one sub-group, id 0, sub-group local id = local linear id). Each built-in runs in 1-D and
2-D work-groups, each with a non-uniform last group (and uniform ones).

The SPIR-V is checked against the shape clang-15 + llvm-spirv-15 produce for the same calls (uint
BuiltIn Input variables; OpGroup* and OpControlBarrier at Subgroup scope, 3) and accepted by
spirv-val --target-env opencl2.2 and spirvkit val.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from lang_support import K, check_rejected, check_valid, run_source, warnings_of

import spirvkit

# name -> (global size, local size): the last group of the *_nonuniform layouts is smaller.
LAYOUTS = {
    "1d": ((24,), (8,)),
    "1d_nonuniform": ((21,), (8,)),
    "2d": ((8, 6), (4, 3)),
    "2d_nonuniform": ((10, 5), (4, 3)),
}


def sub_groups(global_size, local_size) -> list[list[int]]:
    """The model: each work-group is one sub-group; its work-items' global linear ids (row-major,
    dimension 0 fastest) in sub-group local id order (the local linear id)."""
    gx, gy = (tuple(global_size) + (1,))[:2]
    lx, ly = (tuple(local_size) + (1,))[:2]
    groups = []
    for by in range(0, gy, ly):
        for bx in range(0, gx, lx):
            ax, ay = min(lx, gx - bx), min(ly, gy - by)
            groups.append([(by + y) * gx + bx + x for y in range(ay) for x in range(ax)])
    return groups


LINEAR_ID = "size_t n = get_global_size(0) * get_global_size(1);\n" \
            "size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"

ITEM_SOURCE = "kernel void items(global uint *o) {\n" + LINEAR_ID + """
  o[g] = get_sub_group_size();
  o[n + g] = get_max_sub_group_size();
  o[2 * n + g] = get_num_sub_groups();
  o[3 * n + g] = get_enqueued_num_sub_groups();
  o[4 * n + g] = get_sub_group_id();
  o[5 * n + g] = get_sub_group_local_id();
}
"""


@pytest.mark.parametrize("layout", LAYOUTS)
def test_work_item_functions(layout):
    gsize, lsize = LAYOUTS[layout]
    groups = sub_groups(gsize, lsize)
    n = sum(len(s) for s in groups)
    expected = np.zeros((6, n), np.uint32)
    for members in groups:
        for local_id, g in enumerate(members):
            expected[:, g] = [len(members), int(np.prod(lsize)), 1, 1, 0, local_id]
    out = np.zeros(6 * n, np.uint32)
    run_source(ITEM_SOURCE, "items", out, global_size=gsize, local_size=lsize)
    np.testing.assert_array_equal(out.reshape(6, n), expected)


# One kernel per element type: the nine reductions/scans, two broadcasts, two votes.
COLLECTIVE_KERNEL = """
kernel void coll_{t}(global const {t} *in, global {t} *o, global int *v) {{
""" + LINEAR_ID + """
  {t} x = in[g];
  o[g] = sub_group_reduce_add(x);
  o[n + g] = sub_group_reduce_min(x);
  o[2 * n + g] = sub_group_reduce_max(x);
  o[3 * n + g] = sub_group_scan_inclusive_add(x);
  o[4 * n + g] = sub_group_scan_inclusive_min(x);
  o[5 * n + g] = sub_group_scan_inclusive_max(x);
  o[6 * n + g] = sub_group_scan_exclusive_add(x);
  o[7 * n + g] = sub_group_scan_exclusive_min(x);
  o[8 * n + g] = sub_group_scan_exclusive_max(x);
  o[9 * n + g] = sub_group_broadcast(x, get_sub_group_size() - 1);
  o[10 * n + g] = sub_group_broadcast(x, (get_max_sub_group_size() - 1) % get_sub_group_size() / 2);
  v[g] = sub_group_all(x != 0);
  v[n + g] = sub_group_any(x == 7);
}}
"""
TYPES = {"int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "float": np.float32,
         "double": np.float64, "half": np.float16}
COLLECTIVE_SOURCE = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" + "".join(
    COLLECTIVE_KERNEL.format(t=t) for t in TYPES)


def _inputs(dtype, n: int, groups) -> np.ndarray:
    """Values that exercise signedness (unsigned values with the top bit set, negatives), stay
    exact when summed in any order (floats are small multiples of 1/4 or 1/2), and make the votes
    differ between groups: 0 (all false) in every second group, 7 (any true) in every third."""
    rng = np.random.default_rng(list(TYPES.values()).index(dtype))
    if dtype == np.int32:
        x = rng.integers(-1000, 1000, n).astype(dtype)
    elif dtype == np.uint32:
        x = rng.integers(8, 2**32, n, dtype=np.uint64).astype(dtype)
    elif dtype == np.int64:
        x = rng.integers(-2**40, 2**40, n).astype(dtype)
    elif dtype == np.uint64:
        x = rng.integers(8, 2**64, n, dtype=np.uint64)
    elif dtype == np.float16:
        x = (rng.integers(-32, 32, n) * 0.5).astype(dtype)
    else:
        x = (rng.integers(-400, 400, n) * 0.25).astype(dtype)
    x[(x == 0) | (x == 7)] = 8
    for k, members in enumerate(groups):
        if k % 2 == 1:
            x[members[-1 - k % len(members)]] = 0
        if k % 3 == 0:
            x[members[k % len(members)]] = 7
    return x


def _scan(values: np.ndarray, op, identity) -> tuple[np.ndarray, np.ndarray]:
    """Inclusive and exclusive scans in the element type (integer sums wrap)."""
    inclusive = np.empty_like(values)
    acc = identity
    exclusive = np.empty_like(values)
    with np.errstate(over="ignore"):
        for i, v in enumerate(values):
            exclusive[i] = acc
            acc = op(acc, v)
            inclusive[i] = acc
    return inclusive, exclusive


def _expected(x: np.ndarray, groups) -> tuple[np.ndarray, np.ndarray]:
    dtype = x.dtype.type
    n = x.size
    out = np.zeros((11, n), dtype)
    votes = np.zeros((2, n), np.int32)
    if np.issubdtype(dtype, np.floating):
        big, small = dtype(np.inf), dtype(-np.inf)
    else:
        big, small = np.iinfo(dtype).max, np.iinfo(dtype).min
    for members in groups:
        s = x[members]
        rows = []
        for op, identity in ((lambda a, b: dtype(a + b), dtype(0)), (min, big), (max, small)):
            rows.append(_scan(s, op, identity))
        out[0:3, members] = [[r[0][-1]] * len(s) for r in rows]           # reductions
        out[3:6, members] = [r[0] for r in rows]                            # inclusive scans
        out[6:9, members] = [r[1] for r in rows]                            # exclusive scans
        out[9, members] = s[-1]
        out[10, members] = s[(len(groups[0]) - 1) % len(s) // 2]
        votes[0, members] = int((s != 0).all())
        votes[1, members] = int((s == 7).any())
    return out, votes


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("t", TYPES)
def test_collectives(t, layout):
    gsize, lsize = LAYOUTS[layout]
    groups = sub_groups(gsize, lsize)
    n = sum(len(s) for s in groups)
    x = _inputs(TYPES[t], n, groups)
    out = np.zeros(11 * n, TYPES[t])
    votes = np.zeros(2 * n, np.int32)
    run_source(COLLECTIVE_SOURCE, f"coll_{t}", x, out, votes, global_size=gsize, local_size=lsize)
    want, want_votes = _expected(x, groups)
    np.testing.assert_array_equal(out.reshape(11, n), want)
    np.testing.assert_array_equal(votes.reshape(2, n), want_votes)
    assert want_votes[0].min() == 0 and want_votes[1].max() == 1  # the data makes the votes differ


# Each work-item writes its slot of the sub-group's share of local memory, waits at the
# sub-group barrier, and reads its neighbour's; three barrier forms, two rounds.
BARRIER_SOURCE = "kernel void bar(global int *o, local int *tmp) {\n" + LINEAR_ID + """
  uint l = get_sub_group_local_id(), m = get_sub_group_size();
  local int *mine = tmp + get_sub_group_id() * get_max_sub_group_size();
  mine[l] = (int)g;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  int a = mine[(l + 1) % m];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
  mine[l] = a * 10;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  o[g] = mine[(l + m - 1) % m];
}
"""


@pytest.mark.parametrize("layout", LAYOUTS)
def test_sub_group_barrier(layout):
    gsize, lsize = LAYOUTS[layout]
    groups = sub_groups(gsize, lsize)
    n = sum(len(s) for s in groups)
    expected = np.zeros(n, np.int32)
    for members in groups:
        for l, g in enumerate(members):
            # a = members[l + 1]; o = 10 * (a of l - 1) = 10 * members[l], each index mod m: each
            # round reads what another work-item of the sub-group wrote before the barrier.
            expected[g] = 10 * members[l]
    out = np.zeros(n, np.int32)
    run_source(BARRIER_SOURCE, "bar", out, spirvkit.LocalMemory(4 * int(np.prod(lsize))),
               global_size=gsize, local_size=lsize)
    np.testing.assert_array_equal(out, expected)


def test_arguments_convert_as_for_the_declared_parameters():
    # The predicate is an int parameter (0.5f and 1L << 32 convert to 0); char promotes to int
    # (no cl_khr_subgroup_extended_types: clang-15, which defines it for spir, would sum chars);
    # the broadcast id is a uint, any arithmetic argument converts to it.
    source = ("kernel void k(global int *o) {\n" + LINEAR_ID +
              "float h = 0.5f; long big = 1L << 32; char c = 100;\n"
              "o[g] = sub_group_all(h); o[n + g] = sub_group_any(big); o[2 * n + g] = sub_group_reduce_add(c);\n"
              "o[3 * n + g] = sub_group_broadcast((int)g, 2.0f); o[4 * n + g] = sub_group_broadcast((int)g, 1L);\n"
              "o[5 * n + g] = work_group_all(h) + work_group_any(big) * 2; }\n")
    out = np.zeros(6 * 4, np.int32)
    run_source(source, "k", out, global_size=4, local_size=4)
    assert out.reshape(6, 4).tolist() == [[0] * 4, [0] * 4, [400] * 4, [2] * 4, [1] * 4, [0] * 4]


SHAPE_SOURCE = """#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void k(global int *o, global ulong *u, global float *f) {
  size_t i = get_global_id(0);
  o[i] = get_sub_group_size() + get_max_sub_group_size() + get_num_sub_groups()
       + get_enqueued_num_sub_groups() + get_sub_group_id() + get_sub_group_local_id();
  o[i] += sub_group_all(o[i]) + sub_group_any(o[i]) + sub_group_broadcast(o[i], 1)
        + sub_group_reduce_add(o[i]) + sub_group_scan_inclusive_min(o[i]) + sub_group_scan_exclusive_max(o[i]);
  u[i] = sub_group_reduce_min(u[i]) + sub_group_scan_inclusive_max(u[i]);
  f[i] = sub_group_scan_exclusive_add(f[i]) + sub_group_reduce_max(f[i]);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_device);
}
"""


def test_spirv_matches_llvm_spirv_shape_and_validates():
    binary = spirvkit.compile_cl(SHAPE_SOURCE, "-cl-std=CL2.0")
    check_valid(binary)
    text = spirvkit.disassemble(binary)
    lines = [line.split("=", 1)[-1].strip() for line in text.splitlines()]
    for builtin in ("SubgroupSize", "SubgroupMaxSize", "NumSubgroups", "NumEnqueuedSubgroups", "SubgroupId",
                    "SubgroupLocalInvocationId"):
        assert f"OpDecorate %__spirv_BuiltIn{builtin} BuiltIn {builtin}" in lines
        assert f"OpLoad %uint %__spirv_BuiltIn{builtin}" in lines
    assert "OpVariable %_ptr_Input_uint Input" in lines
    assert "OpCapability Groups" in lines
    # llvm-spirv-15's instructions for the same calls: Subgroup scope (%uint_3).
    for inst in ("OpGroupAll %bool %uint_3", "OpGroupAny %bool %uint_3", "OpGroupBroadcast %uint %uint_3",
                 "OpGroupIAdd %uint %uint_3 Reduce", "OpGroupSMin %uint %uint_3 InclusiveScan",
                 "OpGroupSMax %uint %uint_3 ExclusiveScan", "OpGroupUMin %ulong %uint_3 Reduce",
                 "OpGroupUMax %ulong %uint_3 InclusiveScan", "OpGroupFAdd %float %uint_3 ExclusiveScan",
                 "OpGroupFMax %float %uint_3 Reduce"):
        assert any(line.startswith(inst) for line in lines), inst
    assert any(line.startswith("OpGroupBroadcast %uint %uint_3") and line.endswith("%uint_1") for line in lines)
    # sub_group_barrier(flags[, scope]): execution Subgroup, memory Workgroup unless given,
    # SequentiallyConsistent | the fence's storage classes.
    assert [line for line in lines if line.startswith("OpControlBarrier")] == [
        "OpControlBarrier %uint_3 %uint_2 %uint_272", "OpControlBarrier %uint_3 %uint_3 %uint_528",
        "OpControlBarrier %uint_3 %uint_1 %uint_784"]


def test_corpus_source_runs():
    # tests/data/clc/workgroup_subgroup.cl (the source of llvm-spirv's fixture) runs: one group of 8.
    source = (Path(__file__).parents[1] / "data" / "clc" / "workgroup_subgroup.cl").read_text()
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)
    out = np.zeros(8, np.int32)
    fout = np.zeros(8, np.float32)
    run_source(source, "collectives", x, out, fout, global_size=8, local_size=8)
    xs = x.astype(np.int64)
    first = np.arange(8) == 0
    work_group = (xs.sum() + np.maximum.accumulate(xs)                                  # a, b
                  + np.where(first, 2**31 - 1, np.concatenate([[0], np.minimum.accumulate(xs)[:-1]]))  # c
                  + xs[0] + 1 + 0)                                                       # d, e
    sub_group = (xs.sum() + np.cumsum(xs)                                                # reduce, inclusive
                 + np.where(first, -2**31, np.concatenate([[0], np.maximum.accumulate(xs)[:-1]]))  # exclusive max
                 + xs[0] + 1 + 1)                                                        # broadcast, all, any
    items = 8 + 0 + np.arange(8) + 1 + 8        # size, id, local id, number, max size
    np.testing.assert_array_equal(out, work_group + sub_group + items)
    np.testing.assert_array_equal(fout, np.full(8, x.max() * 0.5 + x.min() * 0.5, np.float32))


# -- availability, pragma, macros ---------------------------------------------------------------

def test_pragma_and_macros():
    pragma = "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
    body = K.format("o[0] = cl_khr_subgroups + get_sub_group_size();")
    assert warnings_of(pragma + body) == []
    assert warnings_of(pragma + K.format("o[0] = 1;"), "-cl-std=CL1.2") == [
        "1:26: unsupported OpenCL extension 'cl_khr_subgroups' - ignoring"]
    assert warnings_of(pragma + body, "-cl-std=CL3.0") == []
    spirvkit.compile_cl(K.format("o[0] = __opencl_c_subgroups;"), "-cl-std=CL3.0")
    # As clang: without the pragma the built-ins are there all the same.
    spirvkit.compile_cl(K.format("o[0] = sub_group_reduce_add(1);"), "-cl-std=CL2.0")
    probe = K.format("#ifdef cl_khr_subgroups\no[0] = 1;\n#else\no[0] = 2;\n#endif")
    for options, defined in (("-cl-std=CL1.2", False), ("-cl-std=CL2.0", True), ("-cl-std=CL3.0", True),
                             ("-cl-std=CL2.0 -cl-ext=-cl_khr_subgroups", False),
                             ("-cl-std=CL1.2 -cl-ext=+cl_khr_subgroups", False)):
        out = np.zeros(1, np.int32)
        run_source(probe, "k", out, options=options)
        assert out[0] == (1 if defined else 2), options


# clang-15 adds "; did you mean 'work_group_barrier'?" to some undeclared names, and accepts the
# sub-group functions in 1.2 through cl_intel_subgroups, which spirvkit does not have (it is not
# defined); its 1.2 errors here are clang's with -cl-ext=-cl_intel_subgroups.
@pytest.mark.parametrize("source,options,message,line,col", [
    (K.format("o[0] = get_sub_group_size();"), "-cl-std=CL1.2", "use of undeclared identifier 'get_sub_group_size'",
     2, 8),
    (K.format("o[0] = sub_group_reduce_add(1);"), "-cl-std=CL1.2",
     "use of undeclared identifier 'sub_group_reduce_add'", 2, 8),
    (K.format("sub_group_barrier(CLK_LOCAL_MEM_FENCE);"), "-cl-std=CL2.0 -cl-ext=-cl_khr_subgroups",
     "use of undeclared identifier 'sub_group_barrier'", 2, 1),
    (K.format("o[0] = sub_group_reduce_mul(1);"), "-cl-std=CL2.0", "use of undeclared identifier 'sub_group_reduce_mul'",
     2, 8),
    (K.format("int4 v; v = sub_group_reduce_add(v);"), "-cl-std=CL2.0",
     "no matching function for call to 'sub_group_reduce_add'", 2, 13),
    (K.format("o[0] = sub_group_broadcast(1, 0, 0);"), "-cl-std=CL2.0",
     "no matching function for call to 'sub_group_broadcast'", 2, 8),
    (K.format("o[0] = sub_group_all(o);"), "-cl-std=CL2.0",
     "incompatible pointer to integer conversion passing '__global int *' to parameter of type 'int'", 2, 22),
    (K.format("int4 v; o[0] = sub_group_any(v);"), "-cl-std=CL2.0",
     "passing 'int4' to parameter of incompatible type 'int'", 2, 30),
    (K.format("o[0] = sub_group_all(1, 2);"), "-cl-std=CL2.0",
     "too many arguments to function call, expected single argument 'predicate', have 2 arguments", 2, 25),
    (K.format("o[0] = get_sub_group_id(0);"), "-cl-std=CL2.0",
     "too many arguments to function call, expected 0, have 1", 2, 25),
    (K.format("sub_group_barrier();"), "-cl-std=CL2.0", "no matching function for call to 'sub_group_barrier'", 2, 1),
], ids=["cl_1_2_item", "cl_1_2_collective", "extension_disabled", "no_such_operation", "vector_argument",
        "broadcast_takes_one_id", "pointer_predicate", "vector_predicate", "two_predicates",
        "item_takes_no_argument", "barrier_without_flags"])
def test_rejected(source, options, message, line, col):
    check_rejected(source, message, line, col, options)
