"""The cl_khr_subgroup_* extensions beyond cl_khr_subgroups in ``spirvkit cc`` (issue 20):
ballot, non-uniform vote, non-uniform arithmetic, shuffle and shuffle relative, compiled to the
GroupNonUniform family at Subgroup scope (SPIR-V 1.3, the shape clang-15 + llvm-spirv-15 give),
checked by spirv-val and spirvkit val, and run on the executor.

Expected values come from Python models of the extensions' definitions, with the executor's
sub-group model (test_sub_group_size.py): a work-group's work-items in local linear id order, n
at a time (the last sub-group of a group smaller), or one sub-group per work-group by default.
Each kernel runs with sub_group_size 1, 4, 8 and the default, in 1-D and 2-D NDRanges whose last
work-groups are partial. The non-uniform built-ins also run under a condition that only some
work-items of a sub-group meet (x odd): they combine those (the active ones) only. Shuffles of an
inactive or out-of-range work-item are undefined, so the shuffles run in whole sub-groups only
(the branch is uniform in each sub-group and differs between sub-groups), and their results are
compared where the source exists.
"""

from __future__ import annotations

import functools
import struct
import subprocess

import numpy as np
import pytest
from lang_support import check_rejected
from peers import spirv_tool
from test_lang_subgroups import sub_groups

import spirvkit
from spirvkit.clc import PreprocessorOptions, preprocess

SIZES = (1, 4, 8, None)          # None: the default, one sub-group per work-group
LAYOUTS = {"1d": ((22,), (8,)), "2d": ((10, 5), (4, 3))}
OPTIONS = "-cl-std=CL3.0"
LINEAR_ID = "size_t n = get_global_size(0) * get_global_size(1);\n" \
            "size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"


def split(gsize, lsize, size) -> list[list[int]]:
    """Every sub-group of the launch: its global linear ids in sub-group local id order."""
    out = []
    for members in sub_groups(gsize, lsize):
        step = size or len(members)
        out += [members[i:i + step] for i in range(0, len(members), step)]
    return out


@functools.cache
def _binary(source: str) -> bytes:
    return spirvkit.compile_cl(source, OPTIONS, filename="t.cl")


def _launch(source, kernel, *args, layout, size):
    gsize, lsize = LAYOUTS[layout]
    extra = {} if size is None else {"sub_group_size": size}
    spirvkit.Program(_binary(source)).kernel(kernel)(gsize, lsize, *args, **extra)


def _inputs(count: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 60, count).astype(np.int32)


def _count(layout) -> int:
    return int(np.prod(LAYOUTS[layout][0]))


def _bits(ids) -> int:
    return sum(1 << k for k in ids)


# -- non-uniform vote ----------------------------------------------------------------------

VOTE_SOURCE = "kernel void vote(global const int *in, global int *o) {\n" + LINEAR_ID + """
  int x = in[g];
  o[g] = sub_group_elect();
  o[n + g] = sub_group_non_uniform_all(x < 50);
  o[2 * n + g] = sub_group_non_uniform_any(x >= 50);
  o[3 * n + g] = sub_group_non_uniform_all_equal(x / 32);
  o[4 * n + g] = sub_group_non_uniform_all_equal(1.5f);
  if (x & 1) {
    o[5 * n + g] = sub_group_elect();
    o[6 * n + g] = sub_group_non_uniform_all(x < 50);
    o[7 * n + g] = sub_group_non_uniform_any(x >= 50);
    o[8 * n + g] = sub_group_non_uniform_all_equal((char)(x / 32));
  } else {
    for (int k = 5; k < 9; k++)
      o[k * n + g] = -7;
  }
}
"""


def _vote_model(x, subs, count):
    want = np.full((9, count), -7, np.int32)
    for members in subs:
        for part, rows in ((members, range(0, 4)), ([g for g in members if x[g] & 1], range(5, 9))):
            if not part:
                continue
            vals = [x[g] for g in part]
            row = list(rows)
            for g in part:
                want[row[0], g] = int(g == part[0])
                want[row[1], g] = int(all(v < 50 for v in vals))
                want[row[2], g] = int(any(v >= 50 for v in vals))
                want[row[3], g] = int(len({v // 32 for v in vals}) == 1)
        want[4, members] = 1
    return want


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_non_uniform_vote(layout, size):
    count = _count(layout)
    subs = split(*LAYOUTS[layout], size)
    x = _inputs(count, 1)
    out = np.zeros(9 * count, np.int32)
    _launch(VOTE_SOURCE, "vote", x, out, layout=layout, size=size)
    want = _vote_model(x, subs, count)
    np.testing.assert_array_equal(out.reshape(9, count), want)
    if size == 4:   # the data makes the votes differ between sub-groups
        assert all({0, 1} <= set(want[row]) for row in (1, 2, 3, 6, 7, 8)), want


# -- ballot ---------------------------------------------------------------------------------

BALLOT_SOURCE = "kernel void ballot(global const int *in, global uint *o) {\n" + LINEAR_ID + """
  int x = in[g];
  uint4 b = sub_group_ballot(x & 1);
  o[g] = b.x;
  o[n + g] = b.y | b.z | b.w;
  o[2 * n + g] = sub_group_inverse_ballot(b);
  o[3 * n + g] = sub_group_ballot_bit_extract(b, 2u);
  o[4 * n + g] = sub_group_ballot_bit_count(b);
  o[5 * n + g] = sub_group_ballot_inclusive_scan(b);
  o[6 * n + g] = sub_group_ballot_exclusive_scan(b);
  uint4 some = sub_group_ballot((x & 1) || get_sub_group_local_id() == get_sub_group_size() - 1);
  o[7 * n + g] = sub_group_ballot_find_lsb(some);
  o[8 * n + g] = sub_group_ballot_find_msb(some);
  uint4 masks[5] = {get_sub_group_eq_mask(), get_sub_group_ge_mask(), get_sub_group_gt_mask(),
                    get_sub_group_le_mask(), get_sub_group_lt_mask()};
  for (int k = 0; k < 5; k++)
    o[(9 + k) * n + g] = masks[k].x | (masks[k].y | masks[k].z | masks[k].w ? 0x80000000u : 0u);
  o[14 * n + g] = sub_group_non_uniform_broadcast(x, 0u);
  o[15 * n + g] = sub_group_non_uniform_broadcast(x, get_sub_group_size() - 1);  // uniform, not constant
  o[16 * n + g] = sub_group_broadcast_first(x);
  if (x % 3 != 0) {
    o[17 * n + g] = sub_group_broadcast_first(x);
    o[18 * n + g] = sub_group_ballot(x & 1).x;
    o[19 * n + g] = sub_group_ballot_bit_count(sub_group_ballot(1));
  } else {
    o[17 * n + g] = o[18 * n + g] = o[19 * n + g] = 77;
  }
}
"""


def _ballot_model(x, subs, count):
    want = np.full((20, count), 77, np.uint32)
    for members in subs:
        size = len(members)
        odd = [k for k, g in enumerate(members) if x[g] & 1]
        bits = _bits(odd)
        some = _bits(set(odd) | {size - 1})
        active = [k for k, g in enumerate(members) if x[g] % 3 != 0]
        for k, g in enumerate(members):
            want[:17, g] = [bits, 0, (bits >> k) & 1, (bits >> 2) & 1, len(odd), len([j for j in odd if j <= k]),
                            len([j for j in odd if j < k]), (some & -some).bit_length() - 1,
                            some.bit_length() - 1, 1 << k, _bits(range(k, size)), _bits(range(k + 1, size)),
                            _bits(range(k + 1)), _bits(range(k)), x[members[0]], x[members[-1]], x[members[0]]]
            if k in active:
                want[17:, g] = [x[members[active[0]]], _bits(j for j in odd if j in active), len(active)]
    return want


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_ballot(layout, size):
    count = _count(layout)
    x = _inputs(count, 2)
    out = np.zeros(20 * count, np.uint32)
    _launch(BALLOT_SOURCE, "ballot", x, out, layout=layout, size=size)
    np.testing.assert_array_equal(out.reshape(20, count), _ballot_model(x, split(*LAYOUTS[layout], size), count))


# Vector and narrow broadcasts: every type sub_group_non_uniform_broadcast has.
BROADCAST_SOURCE = """kernel void vb(global const int *in, global int4 *o4, global char *oc, global double *od,
                  global ulong3 *o3) {
""" + LINEAR_ID + """
  int x = in[g];
  o4[g] = sub_group_non_uniform_broadcast((int4)(x, x + 1, 2 * x, -x), 0u);
  oc[g] = sub_group_non_uniform_broadcast((char)(x - 30), get_sub_group_size() / 2);
  od[g] = sub_group_broadcast_first(x * 0.5);
  o3[g] = sub_group_non_uniform_broadcast((ulong3)(x, (ulong)x << 40, 7), 0u);
}
"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_broadcast_types(layout, size):
    count = _count(layout)
    x = _inputs(count, 3)
    o4, oc, od = np.zeros((count, 4), np.int32), np.zeros(count, np.int8), np.zeros(count, np.float64)
    o3 = np.zeros((count, 4), np.uint64)   # a 3-vector takes a 4-vector's room
    _launch(BROADCAST_SOURCE, "vb", x, o4, oc, od, o3, layout=layout, size=size)
    for members in split(*LAYOUTS[layout], size):
        first, middle = x[members[0]], x[members[len(members) // 2]]
        for g in members:
            assert o4[g].tolist() == [first, first + 1, 2 * first, -first]
            assert oc[g] == middle - 30 and od[g] == first * 0.5
            assert o3[g, :3].tolist() == [first, int(first) << 40, 7]


# -- non-uniform arithmetic -------------------------------------------------------------------

OPERATIONS = ("reduce", "scan_inclusive", "scan_exclusive")
INTEGER_OPS = ("add", "mul", "min", "max", "and", "or", "xor")
FLOAT_OPS = ("add", "mul", "min", "max")
LOGICAL = ("logical_and", "logical_or", "logical_xor")
ARITH_TYPES = {"int": np.int32, "uint": np.uint32, "ulong": np.uint64, "char": np.int8, "float": np.float32}


def _ops(t: str) -> tuple:
    return FLOAT_OPS if t == "float" else INTEGER_OPS


def _arith_source(t: str) -> str:
    """Each operation of type t, first in every work-item, then in the odd-x ones; then the
    logical ones on x & 2 (x odd only in the second half)."""
    calls = [f"sub_group_non_uniform_{o}_{op}(v)" for op in _ops(t) for o in OPERATIONS]
    logical = [f"sub_group_non_uniform_{o}_{op}(x & 2)" for op in LOGICAL for o in OPERATIONS]
    body = [f"  o[{k} * n + g] = {c};" for k, c in enumerate(calls)]
    body += [f"  l[{k} * n + g] = {c};" for k, c in enumerate(logical)]
    inner = [f"    o[{k + len(calls)} * n + g] = {c};" for k, c in enumerate(calls)]
    inner += [f"    l[{k + len(logical)} * n + g] = {c};" for k, c in enumerate(logical)]
    return (f"kernel void arith_{t}(global const int *in, global {t} *o, global int *l) {{\n" + LINEAR_ID
            + f"  int x = in[g];\n  {t} v = ({t})({'(x & 3) + 1' if t == 'float' else 'x * 37 - 900'});\n"
            + "\n".join(body) + "\n  if (x & 1) {\n" + "\n".join(inner) + "\n  }\n}\n")


def _combine(op: str, t: str):
    dtype = np.dtype(ARITH_TYPES[t])
    if dtype.kind == "f":
        f = {"add": lambda a, b: np.float32(a + b), "mul": lambda a, b: np.float32(a * b),
             "min": min, "max": max}[op]
        ident = {"add": np.float32(0), "mul": np.float32(1), "min": np.float32(np.inf), "max": np.float32(-np.inf)}[op]
        return f, ident
    info = np.iinfo(dtype)
    bits = dtype.itemsize * 8

    def wrap(v):
        v &= (1 << bits) - 1
        return v - (1 << bits) if info.min < 0 and v >> (bits - 1) else v

    f = {"add": lambda a, b: wrap(a + b), "mul": lambda a, b: wrap(a * b), "min": min, "max": max,
         "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b}[op]
    ident = {"add": 0, "mul": 1, "min": int(info.max), "max": int(info.min), "and": wrap(-1), "or": 0, "xor": 0}[op]
    return f, ident


def _scan(values, f, ident, operation):
    out, acc = [], ident
    for v in values:
        before, acc = acc, f(acc, v)
        out.append(before if operation == "scan_exclusive" else acc)
    return [acc] * len(values) if operation == "reduce" else out


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("t", ARITH_TYPES)
def test_non_uniform_arithmetic(t, layout, size):
    count = _count(layout)
    x = _inputs(count, 4)
    dtype = ARITH_TYPES[t]
    v = [np.float32((xi & 3) + 1) if t == "float" else int(np.array(xi * 37 - 900).astype(dtype)) for xi in x]
    calls = [(op, o) for op in _ops(t) for o in OPERATIONS]
    logical = [(op, o) for op in LOGICAL for o in OPERATIONS]
    out = np.zeros(2 * len(calls) * count, dtype)
    lout = np.zeros(2 * len(logical) * count, np.int32)
    _launch(_arith_source(t), f"arith_{t}", x, out, lout, layout=layout, size=size)
    want = np.zeros((2 * len(calls), count), dtype)
    lwant = np.zeros((2 * len(logical), count), np.int32)
    logical_f = {"logical_and": (lambda a, b: a & b, 1), "logical_or": (lambda a, b: a | b, 0),
                 "logical_xor": (lambda a, b: a ^ b, 0)}
    for members in split(*LAYOUTS[layout], size):
        for half, part in enumerate((members, [g for g in members if x[g] & 1])):
            for k, (op, operation) in enumerate(calls):
                f, ident = _combine(op, t)
                for g, r in zip(part, _scan([v[g] for g in part], f, ident, operation)):
                    want[k + half * len(calls), g] = r
            for k, (op, operation) in enumerate(logical):
                f, ident = logical_f[op]
                for g, r in zip(part, _scan([int(bool(x[g] & 2)) for g in part], f, ident, operation)):
                    lwant[k + half * len(logical), g] = r
    got = out.reshape(2 * len(calls), count)
    untouched = [g for g in range(count) if not x[g] & 1]
    want[len(calls):, untouched] = 0
    lwant[len(logical):, untouched] = 0
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(lout.reshape(2 * len(logical), count), lwant)


# -- shuffles ---------------------------------------------------------------------------------

SHUFFLE_TYPES = {"int": np.int32, "float": np.float32, "long": np.int64}


def _shuffle_source(t: str) -> str:
    return (f"kernel void shuf_{t}(global const int *in, global {t} *o) {{\n" + LINEAR_ID + f"""
  {t} x = ({t})(in[g] * 3 - 50);
  uint lid = get_sub_group_local_id(), size = get_sub_group_size();
  o[g] = sub_group_shuffle(x, (lid + 1) % size);
  o[n + g] = sub_group_shuffle_xor(x, 1u);
  if (get_sub_group_id() % 2 == 0) {{   // uniform in each sub-group, not in the work-group
    o[2 * n + g] = sub_group_shuffle_up(x, 1u);
    o[3 * n + g] = sub_group_shuffle_down(x, 2u);
  }} else {{
    o[2 * n + g] = sub_group_shuffle_down(x, 1u);
    o[3 * n + g] = sub_group_shuffle_xor(x, size - 1);
  }}
}}
""")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("t", SHUFFLE_TYPES)
def test_shuffles(t, layout, size):
    count = _count(layout)
    x = _inputs(count, 5)
    v = (x * 3 - 50).astype(SHUFFLE_TYPES[t])
    out = np.zeros(4 * count, SHUFFLE_TYPES[t])
    _launch(_shuffle_source(t), f"shuf_{t}", x, out, layout=layout, size=size)
    got = out.reshape(4, count)
    checked = 0
    gsize, lsize = LAYOUTS[layout]
    for members in sub_groups(gsize, lsize):
        step = size or len(members)
        for sub_id, start in enumerate(range(0, len(members), step)):
            sub = members[start:start + step]
            m = len(sub)
            for k, g in enumerate(sub):
                sources = [(k + 1) % m, k ^ 1]
                sources += [k - 1, k + 2] if sub_id % 2 == 0 else [k + 1, k ^ (m - 1)]
                for row, s in enumerate(sources):
                    if 0 <= s < m:     # elsewhere the result is undefined
                        assert got[row, g] == v[sub[s]], (row, g)
                        checked += 1
    assert checked > count


# -- the SPIR-V -----------------------------------------------------------------------------

ALL_SOURCES = {"vote": VOTE_SOURCE, "ballot": BALLOT_SOURCE, "broadcast": BROADCAST_SOURCE,
               "arith_int": _arith_source("int"), "arith_float": _arith_source("float"),
               "shuffle": _shuffle_source("long")}


@pytest.mark.parametrize("name", ALL_SOURCES)
def test_spirv_is_valid_1_3(name, tmp_path):
    binary = _binary(ALL_SOURCES[name])
    assert struct.unpack_from("<I", binary, 4)[0] == 0x00010300
    path = tmp_path / f"{name}.spv"
    path.write_bytes(binary)
    result = subprocess.run([spirv_tool("spirv-val"), "--target-env", "spv1.3", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert spirvkit.validate(binary, target_env="spv1.3") == []


def test_spirv_shape_as_llvm_spirv():
    """The instructions, Subgroup scope (3) and capabilities llvm-spirv-15 gives for the same calls."""
    text = spirvkit.disassemble(_binary(VOTE_SOURCE + BALLOT_SOURCE + _arith_source("uint") + _shuffle_source("int")))
    caps = {line.split()[1] for line in text.splitlines() if line.strip().startswith("OpCapability")}
    assert {"GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformBallot", "GroupNonUniformArithmetic",
            "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative"} <= caps
    assert "Groups" not in caps
    for opname in ("Elect", "All", "Any", "AllEqual", "Ballot", "InverseBallot", "BallotBitExtract",
                   "BallotBitCount", "BallotFindLSB", "BallotFindMSB", "Broadcast", "BroadcastFirst",
                   "IAdd", "IMul", "UMin", "UMax", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LogicalAnd",
                   "LogicalOr", "LogicalXor", "Shuffle", "ShuffleXor", "ShuffleUp", "ShuffleDown"):
        uses = [line for line in text.splitlines() if f"OpGroupNonUniform{opname} " in line]
        assert uses and all(line.split()[4] == "%uint_3" for line in uses), opname
    assert "OpGroupNonUniformBallotBitCount %uint %uint_3 InclusiveScan" in text
    assert "OpGroupNonUniformUMin %uint %uint_3 ExclusiveScan" in text
    for mask in ("Eq", "Ge", "Gt", "Le", "Lt"):
        assert f"BuiltIn Subgroup{mask}Mask" in text
    # A constant id broadcasts; a dynamically uniform one (SPIR-V 1.3 wants a constant) shuffles.
    broadcast = [line for line in text.splitlines() if "OpGroupNonUniformBroadcast " in line]
    assert broadcast and all(line.split()[-1].startswith("%uint_") for line in broadcast)


def test_small_float_and_int_types():
    text = spirvkit.disassemble(spirvkit.compile_cl("""#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *h, global double *d, global short *s, global size_t *z) {
  h[0] = sub_group_non_uniform_reduce_max(h[1]);
  d[0] = sub_group_non_uniform_scan_inclusive_mul(d[1]);
  s[0] = sub_group_shuffle_up(s[1], 1u);
  z[0] = sub_group_non_uniform_reduce_min(z[1]);
  s[1] = sub_group_non_uniform_all_equal(true) + sub_group_non_uniform_reduce_add(true);
}""", OPTIONS))
    assert "OpGroupNonUniformFMax %half" in text and "OpGroupNonUniformFMul %double" in text
    assert "OpGroupNonUniformShuffleUp %ushort" in text and "OpGroupNonUniformUMin %ulong" in text
    assert "OpGroupNonUniformIAdd %uint %uint_3 Reduce" in text   # bool promotes to int


# -- availability and diagnostics ---------------------------------------------------------

CALL = "kernel void k(global int *o) {\n  uint4 b = sub_group_ballot(1);\n  o[0] = sub_group_ballot_bit_count(b);\n}\n"


def test_cl2_0_has_them_too():
    binary = spirvkit.compile_cl(CALL, "-cl-std=CL2.0")
    assert "OpGroupNonUniformBallotBitCount" in spirvkit.disassemble(binary)


@pytest.mark.parametrize("options", ["-cl-std=CL1.2", "-cl-std=CL3.0 -cl-ext=-cl_khr_subgroup_ballot"])
def test_undeclared_without_the_extension(options):
    check_rejected(CALL, "use of undeclared identifier 'sub_group_ballot'", 2, 13, options)


def test_explicit_spirv_version_below_1_3():
    check_rejected(CALL, "'cl_khr_subgroup_ballot' built-ins need SPIR-V 1.3 (--spirv-version 1.2 given)", 2, 13,
                   OPTIONS + " --spirv-version 1.2")
    binary = spirvkit.compile_cl(CALL, OPTIONS + " --spirv-version 1.4")
    assert struct.unpack_from("<I", binary, 4)[0] == 0x00010400


def test_module_without_them_stays_1_0():
    binary = spirvkit.compile_cl("kernel void k(global int *o) { o[0] = sub_group_reduce_add(1); }", OPTIONS)
    assert struct.unpack_from("<I", binary, 4)[0] == 0x00010000


@pytest.mark.parametrize("call,message", [
    ("sub_group_non_uniform_reduce_and(1.0f)", "call to 'sub_group_non_uniform_reduce_and' is ambiguous"),
    ("sub_group_shuffle(o, 1u)", "no matching function for call to 'sub_group_shuffle'"),
    ("sub_group_shuffle(o[1])", "no matching function for call to 'sub_group_shuffle'"),
    ("sub_group_broadcast_first((int2)(1, 2)).x", "no matching function for call to 'sub_group_broadcast_first'"),
    ("sub_group_elect(1)", "too many arguments to function call, expected 0, have 1"),
])
def test_rejected_calls(call, message):
    source = "kernel void k(global int *o) {\n  o[0] = " + call + ";\n}\n"
    col = 10 + call.index("(") + 1 if "too many" in message else 10
    check_rejected(source, message, 2, col, OPTIONS)


def test_ballot_argument_must_be_uint4():
    check_rejected("kernel void k(global int *o) {\n  o[0] = sub_group_ballot_find_lsb((int4)(1));\n}\n",
                   "passing 'int4' to parameter of incompatible type 'uint4'", 2, 36, OPTIONS)


@pytest.mark.parametrize("std,defined", [("CL1.2", False), ("CL2.0", True), ("CL3.0", True)])
def test_extension_macros(std, defined):
    source = """#if defined(cl_khr_subgroup_ballot) && defined(cl_khr_subgroup_non_uniform_vote) && \\
    defined(cl_khr_subgroup_non_uniform_arithmetic) && defined(cl_khr_subgroup_shuffle) && \\
    defined(cl_khr_subgroup_shuffle_relative) && !defined(cl_khr_subgroup_extended_types)
yes
#else
no
#endif
"""
    assert [t.text for t in preprocess(source, options=PreprocessorOptions(cl_std=std))] == ["yes" if defined else "no"]


def test_elect_needs_only_the_core_capability():
    text = spirvkit.disassemble(spirvkit.compile_cl("kernel void k(global int *o) { o[0] = sub_group_elect(); }",
                                                    OPTIONS))
    caps = {line.split()[1] for line in text.splitlines() if line.strip().startswith("OpCapability")}
    assert "GroupNonUniform" in caps and not any(c.startswith("GroupNonUniform") and c != "GroupNonUniform"
                                                 for c in caps)
