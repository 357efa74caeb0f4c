"""The executor on ClusteredReduce (GroupNonUniformClustered) and OpGroupNonUniformRotateKHR
(SPV_KHR_subgroup_rotate), issue 20: hand-written SPIR-V and kernels compiled by ``spirvkit cc``
from the cl_khr_subgroup_clustered_reduce / cl_khr_subgroup_rotate built-ins, against Python
models of the definitions.

- ClusteredReduce: the sub-group's invocations of ids [k * ClusterSize, (k + 1) * ClusterSize)
  reduce together (the active ones); a ClusterSize beyond the sub-group (undefined in SPIR-V)
  makes the sub-group one cluster, as collectives.py documents.
- Rotate: invocation id's result is the Value of id ((id + Delta) mod R) + (id - id mod R), with
  R = ClusterSize, or SubgroupMaxSize without one (a Kernel module). The value of an inactive
  source, of a source beyond a partial sub-group, and a ClusterSize beyond the maximum sub-group
  size are undefined: not compared.

Every kernel runs with sub-group sizes 1, 3 (not a power of 2), 4, 8 and the default (one
sub-group per work-group: 8 in 1-D, 12 in 2-D), in a 1-D NDRange whose last work-group is partial
(22 = 8 + 8 + 6) and a 2-D one, with every work-item active; then in 1-D under a branch only some
take.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from jit.asm_kernel import ld, simple, st
from jit.collective_oracles import clustered_reduce, rotation_source

import spirvkit
from spirvkit.errors import SpirvError

CAPS = ("GroupNonUniform", "GroupNonUniformArithmetic", "GroupNonUniformClustered", "GroupNonUniformRotateKHR")
EXTENSIONS = ("SPV_KHR_subgroup_rotate",)
ENV = "spv1.3"
LAYOUTS = {"1d": ((22,), (8,)), "2d": ((8, 6), (4, 3))}
SIZES = (1, 3, 4, 8, None)
CLUSTERS = (1, 2, 4, 8)

# name: (SPIR-V type, numpy dtype, bits, kind)
TYPES = {"uchar": ("uchar", np.uint8, 8, "int"), "uint": ("uint", np.uint32, 32, "int"),
         "ulong": ("ulong", np.uint64, 64, "int"), "float": ("float", np.float32, 32, "float"),
         "double": ("double", np.float64, 64, "float"), "bool": ("bool", np.uint32, 1, "bool")}


def _signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def _int_ops(bits):
    m = (1 << bits) - 1
    return {"IAdd": lambda a, b: (a + b) & m, "IMul": lambda a, b: (a * b) & m, "UMin": min, "UMax": max,
            "SMin": lambda a, b: a if _signed(a, bits) <= _signed(b, bits) else b,
            "SMax": lambda a, b: a if _signed(a, bits) >= _signed(b, bits) else b,
            "BitwiseAnd": lambda a, b: a & b, "BitwiseOr": lambda a, b: a | b, "BitwiseXor": lambda a, b: a ^ b}


FLOAT_OPS = {"FAdd": lambda a, b: a + b, "FMul": lambda a, b: a * b, "FMin": min, "FMax": max}
LOGICAL_OPS = {"LogicalAnd": lambda a, b: a and b, "LogicalOr": lambda a, b: a or b,
               "LogicalXor": lambda a, b: a != b}


def _ops(tname):
    kind, bits = TYPES[tname][3], TYPES[tname][2]
    return _int_ops(bits) if kind == "int" else FLOAT_OPS if kind == "float" else LOGICAL_OPS


REDUCE_CASES = [("uint", op) for op in _int_ops(32)] + \
    [("ulong", op) for op in ("IAdd", "IMul", "SMin", "UMax", "BitwiseXor")] + \
    [("uchar", "IAdd"), ("uchar", "SMax"), ("uchar", "UMin")] + \
    [(t, op) for t in ("float", "double") for op in FLOAT_OPS] + [("bool", op) for op in LOGICAL_OPS]


# -- the sub-group model ----------------------------------------------------------------------

def _groups(layout):
    """Each work-group's work-items: global linear ids in local linear id order."""
    gsize, lsize = LAYOUTS[layout]
    gx, gy = (tuple(gsize) + (1,))[:2]
    lx, ly = (tuple(lsize) + (1,))[:2]
    ids = np.arange(gx * gy).reshape(gy, gx)
    return [ids[y:y + ly, x:x + lx].ravel().tolist() for y in range(0, gy, ly) for x in range(0, gx, lx)]


def _sub_groups(layout, size):
    out = []
    for members in _groups(layout):
        step = size or len(members)
        out += [members[i:i + step] for i in range(0, len(members), step)]
    return out


def _max_size(layout, size) -> int:
    """SubgroupMaxSize: the launch's sub-group size, at most the enqueued work-group size."""
    enqueued = int(np.prod(LAYOUTS[layout][1]))
    return min(size or enqueued, enqueued)


def _inputs(tname, count, seed):
    rng = np.random.default_rng(seed)
    _, dtype, bits, kind = TYPES[tname]
    if kind == "float":
        return rng.choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 3.0], count).astype(dtype)
    if kind == "bool":
        return rng.integers(0, 2, count).astype(dtype)
    return rng.integers(0, 1 << bits, count, dtype=np.uint64).astype(dtype)


def _mask(count, seed):
    """Which work-items take the branch of the *_active runs (bit 0), with whole sub-groups
    active and inactive among them."""
    m = np.random.default_rng(seed).integers(0, 2, count).astype(np.uint32)
    m[:3] = 1
    m[8:11] = 0
    return m


def _value(tname, v):
    kind = TYPES[tname][3]
    return float(v) if kind == "float" else bool(v & 1) if kind == "bool" else int(v)


# -- ClusteredReduce ----------------------------------------------------------------------------

def _prologue(tname, value_type):
    """%gid, the mask predicate %p, and the operand %x."""
    text = "%gid = OpLoad %ulong %GlobalLinearId\n" + ld("m", "uint", "mask", "gid") + \
        "%m1 = OpBitwiseAnd %uint %m %uint_1\n%p = OpINotEqual %bool %m1 %uint_0\n" + \
        ld("a", value_type, "in", "gid")
    if tname == "bool":
        text += "%a1 = OpBitwiseAnd %uint %a %uint_1\n%x = OpINotEqual %bool %a1 %uint_0\n"
    else:
        text += f"%x = OpCopyObject %{value_type} %a\n"
    return text


def _guarded(prologue, body, active):
    if not active:
        return prologue + body
    return prologue + "OpSelectionMerge %join None\nOpBranchConditional %p %then %join\n%then = OpLabel\n" + body + \
        "OpBranch %join\n%join = OpLabel\n"


def _stores(results, out_type, count):
    """out[gid * count + k] = results[k]."""
    text = f"%base = OpIMul %ulong %gid %ulong_{count}\n"
    for k, r in enumerate(results):
        text += f"%at{k} = OpIAdd %ulong %base %ulong_{k}\n" + st("out", f"at{k}", out_type, r)
    return text


def _group_kernel(tname, active, operations: list[str]):
    """A kernel(mask, in, out, uint d) storing out[gid * n + k] = ``operations[k]`` (the text
    after the result type, on %x) for the n operations."""
    t = TYPES[tname][0]
    value_type = "uint" if tname == "bool" else t
    body, results = "", []
    for k, operation in enumerate(operations):
        if tname == "bool":
            body += f"%b{k} = {operation.replace(' TYPE ', ' %bool ')}\n%r{k} = OpSelect %uint %b{k} %uint_1 %uint_0\n"
        else:
            body += f"%r{k} = {operation.replace(' TYPE ', f' %{t} ')}\n"
        results.append(f"r{k}")
    body = _guarded(_prologue(tname, value_type), body + _stores(results, value_type, len(operations)), active)
    return simple([("mask", "pCW_uint"), ("in", f"pCW_{value_type}"), ("out", f"pCW_{value_type}"), ("d", "uint")],
                  body, gid=False, capabilities=CAPS, extensions=EXTENSIONS, env=ENV)


@functools.cache
def _reduce_kernel(tname, op, active):
    return _group_kernel(tname, active, [f"OpGroupNonUniform{op} TYPE %uint_3 ClusteredReduce %x %uint_{cs}"
                                         for cs in CLUSTERS])


def _run(kernel, tname, layout, size, outputs, *args, seed=20):
    """Launch kernel(mask, in, out, *args); (in, mask, out as [work-item, output])."""
    gsize, lsize = LAYOUTS[layout]
    count = int(np.prod(gsize))
    x = _inputs(tname, count, seed)
    mask = _mask(count, seed)
    out = np.full(count * outputs, 77, TYPES[tname][1])
    extra = {} if size is None else {"sub_group_size": size}
    kernel(gsize, lsize, mask, x, out, *args, **extra)
    return x, mask, out.reshape(count, outputs)


@pytest.mark.parametrize("active", [False, True], ids=["uniform", "active"])
@pytest.mark.parametrize("tname,op", REDUCE_CASES, ids=[f"{t}-{op}" for t, op in REDUCE_CASES])
def test_clustered_reduce(tname, op, active):
    fn = _ops(tname)[op]
    kernel = _reduce_kernel(tname, op, active)
    compared = 0
    for layout in LAYOUTS if not active else ("1d",):     # (a 2-D launch compiles the kernel again)
        for size in SIZES:
            x, mask, out = _run(kernel, tname, layout, size, len(CLUSTERS), np.uint32(0))
            for members in _sub_groups(layout, size):
                on = [bool(mask[g] & 1) or not active for g in members]
                values = [_value(tname, x[g]) for g in members]
                for k, cs in enumerate(CLUSTERS):
                    want = clustered_reduce(values, on, cs, fn)
                    for i, g in enumerate(members):
                        where = (layout, size, cs, members, values, i)
                        if i in want:
                            assert out[g, k] == want[i], where
                            compared += 1
                        else:
                            assert out[g, k] == 77, where    # inactive: untouched
    assert compared > (150 if active else 500)


def _vector_kernel(instruction):
    """A kernel whose ``instruction`` makes %s from the uint2 %v = (x, x ^ 0xff), both of whose
    components it stores."""
    body = "%gid = OpLoad %ulong %GlobalLinearId\n" + ld("a", "uint", "in", "gid") + \
        "%b = OpBitwiseXor %uint %a %uint_0xff\n%v = OpCompositeConstruct %v2uint %a %b\n" + instruction + \
        "\n%s0 = OpCompositeExtract %uint %s 0\n%s1 = OpCompositeExtract %uint %s 1\n" + \
        _stores(["s0", "s1"], "uint", 2)
    return simple([("mask", "pCW_uint"), ("in", "pCW_uint"), ("out", "pCW_uint")], body, gid=False, capabilities=CAPS,
                  extensions=EXTENSIONS, env=ENV)


def test_clustered_reduce_of_a_vector():
    """SPIR-V allows vector operands (Vulkan uses them): each component on its own."""
    k = _vector_kernel("%s = OpGroupNonUniformIAdd %v2uint %uint_3 ClusteredReduce %v %uint_2")
    x, _, out = _run(k, "uint", "1d", 3, 2)
    for members in _sub_groups("1d", 3):
        for start in range(0, len(members), 2):
            cluster = members[start:start + 2]
            a = sum(int(x[g]) for g in cluster) & 0xFFFFFFFF
            b = sum(int(x[g]) ^ 0xFF for g in cluster) & 0xFFFFFFFF
            for g in cluster:
                assert (out[g, 0], out[g, 1]) == (a, b)


# -- OpGroupNonUniformRotateKHR -----------------------------------------------------------------

# (Delta, ClusterSize): "d" is the kernel's uint argument (dynamically uniform, not a constant).
ROTATIONS = [(0, None), (1, None), (5, None), (0xFFFFFFFF, None), ("d", None), (1, 1), (1, 2), (3, 4),
             (0xFFFFFFFF, 4), (5, 8), ("d", 2)]
ROTATE_TYPES = ("uint", "ulong", "uchar", "float", "double", "bool")
DYNAMIC_DELTA = 6


@functools.cache
def _rotate_kernel(tname, active):
    return _group_kernel(tname, active, [
        "OpGroupNonUniformRotateKHR TYPE %uint_3 %x " + ("%d" if delta == "d" else f"%uint_{delta}") +
        (f" %uint_{cs}" if cs else "") for delta, cs in ROTATIONS])


def _check_rotation(x, mask, out, tname, layout, size, active, rotations, delta_value, value=None) -> int:
    value = value or (lambda v: _value(tname, v))
    compared = 0
    max_size = _max_size(layout, size)
    for members in _sub_groups(layout, size):
        on = [bool(mask[g] & 1) or not active for g in members]
        for k, (delta, cs) in enumerate(rotations):
            if cs is not None and cs > max_size:
                continue                              # undefined
            delta = delta_value if delta == "d" else delta
            for i, g in enumerate(members):
                if not on[i]:
                    assert out[g, k] == 77
                    continue
                src = rotation_source(i, delta, cs or max_size)
                if src >= len(members) or not on[src]:
                    continue                          # undefined
                assert value(out[g, k]) == value(x[members[src]]), (layout, size, delta, cs, members, i, src)
                compared += 1
    return compared


@pytest.mark.parametrize("active", [False, True], ids=["uniform", "active"])
@pytest.mark.parametrize("tname", ROTATE_TYPES)
def test_rotate(tname, active):
    kernel = _rotate_kernel(tname, active)
    compared = 0
    for layout in LAYOUTS if not active else ("1d",):
        for size in SIZES:
            x, mask, out = _run(kernel, tname, layout, size, len(ROTATIONS), np.uint32(DYNAMIC_DELTA), seed=7)
            compared += _check_rotation(x, mask, out, tname, layout, size, active, ROTATIONS, DYNAMIC_DELTA)
    assert compared > (150 if active else 500)


def test_rotate_of_a_vector():
    k = _vector_kernel("%s = OpGroupNonUniformRotateKHR %v2uint %uint_3 %v %uint_3 %uint_4")
    x, _, out = _run(k, "uint", "1d", 8, 2)
    for members in _sub_groups("1d", 8):
        for i, g in enumerate(members):
            src = rotation_source(i, 3, 4)
            if src < len(members):
                assert (out[g, 0], out[g, 1]) == (x[members[src]], x[members[src]] ^ 0xFF)


def test_workgroup_scope():
    """At Workgroup scope the clusters are of local linear ids, and a rotation's LocalId is the
    local linear id, its group size still SubgroupMaxSize (SPV_KHR_subgroup_rotate)."""
    body = "%gid = OpLoad %ulong %GlobalLinearId\n" + ld("a", "uint", "in", "gid") + \
        "%s = OpGroupNonUniformUMax %uint %uint_2 ClusteredReduce %a %uint_4\n" \
        "%q = OpGroupNonUniformRotateKHR %uint %uint_2 %a %uint_3\n" + _stores(["s", "q"], "uint", 2)
    k = simple([("mask", "pCW_uint"), ("in", "pCW_uint"), ("out", "pCW_uint")], body, gid=False, capabilities=CAPS,
               extensions=EXTENSIONS, env=ENV)
    for size in (2, 4, None):
        x, _, out = _run(k, "uint", "2d", size, 2)
        max_size = _max_size("2d", size)
        for members in _groups("2d"):
            values = [int(x[g]) for g in members]
            want = clustered_reduce(values, [True] * len(values), 4, max)
            for i, g in enumerate(members):
                assert out[g, 0] == want[i]
                src = rotation_source(i, 3, max_size)
                if src < len(members):
                    assert out[g, 1] == values[src], (size, members, i)


# -- located errors -------------------------------------------------------------------------------

@pytest.mark.parametrize("instruction,valid,message", [
    ("%r = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %a %uint_3", True,
     r"OpGroupNonUniformIAdd \(word \d+\): ClusterSize 3 is not a power of 2"),
    ("%r = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %a %uint_0", True,
     r"OpGroupNonUniformIAdd \(word \d+\): ClusterSize 0 is not a power of 2"),
    ("%r = OpGroupNonUniformRotateKHR %uint %uint_3 %a %uint_1 %uint_6", False,
     r"OpGroupNonUniformRotateKHR \(word \d+\): ClusterSize 6 is not a power of 2"),
    ("%r = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %a %a", False,
     r"invalid module: OpGroupNonUniformIAdd \(word \d+\): ClusterSize must come from a constant instruction"),
])
def test_bad_cluster_size_is_a_located_error(instruction, valid, message):
    """Not a power of 2: undefined behaviour (spirv-val accepts it in a ClusteredReduce, rejects
    it in a rotation); not a constant: an invalid module (spirv-val rejects it). ``valid``: the
    module passes spirv-val."""
    body = "%gid = OpLoad %ulong %GlobalLinearId\n" + ld("a", "uint", "in", "gid") + instruction + "\n" + \
        st("out", "gid", "uint", "r")
    with pytest.raises(SpirvError, match=message):
        k = simple([("in", "pCW_uint"), ("out", "pCW_uint")], body, gid=False, capabilities=CAPS,
                   extensions=EXTENSIONS, env=ENV, validate=valid)
        k((8,), (8,), np.zeros(8, np.uint32), np.zeros(8, np.uint32))


# -- kernels compiled by spirvkit cc ------------------------------------------------------------

CC_OPS = {"add": ("IAdd", "FAdd"), "mul": ("IMul", "FMul"), "min": ("min", "FMin"), "max": ("max", "FMax"),
          "and": ("BitwiseAnd", None), "or": ("BitwiseOr", None), "xor": ("BitwiseXor", None)}
CC_TYPES = {"char": (np.int8, 8, True), "uchar": (np.uint8, 8, False), "short": (np.int16, 16, True),
            "ushort": (np.uint16, 16, False), "int": (np.int32, 32, True), "uint": (np.uint32, 32, False),
            "long": (np.int64, 64, True), "ulong": (np.uint64, 64, False), "float": (np.float32, 32, None),
            "double": (np.float64, 64, None), "half": (np.float16, 16, None)}
# int and float: every operation and cluster size, uniform and not, in 1-D and 2-D; the other
# types (whose kernels cost the same to compile) fewer, in 1-D, not uniform.
FULL = ("int", "float")
CC_CASES = [(t, a) for t in CC_TYPES for a in ((False, True) if t in FULL else (True,))]
CC_ROTATIONS = [(1, None), (-1, None), ("d", None), (1, 2), (-1, 4), (3, 8)]


def _cc_calls(ctype):
    """The built-in calls of one kernel: (expression, model) where model is ("reduce", fn, cs)
    or ("rotate", delta, cs)."""
    np_type, bits, signed = CC_TYPES[ctype]
    clusters = (1, 2, 4, 8) if ctype in FULL else (2, 4)
    calls = []
    for name, (int_op, float_op) in CC_OPS.items():
        if signed is None and float_op is None:
            continue
        if signed is None:
            fn = FLOAT_OPS[float_op]
        elif int_op in ("min", "max"):
            fn = _int_ops(bits)[("S" if signed else "U") + int_op.capitalize()]
        else:
            fn = _int_ops(bits)[int_op]
        calls += [(f"sub_group_clustered_reduce_{name}(x, {cs})", ("reduce", fn, cs)) for cs in clusters]
    if ctype == "int":
        for name in LOGICAL_OPS:
            c_name = "logical_" + name.removeprefix("Logical").lower()
            calls += [(f"sub_group_clustered_reduce_{c_name}(x & 1, {cs}u)", ("logical", LOGICAL_OPS[name], cs))
                      for cs in clusters]
    for delta, cs in CC_ROTATIONS:
        if cs is None:
            calls.append((f"sub_group_rotate(x, {delta})", ("rotate", delta, None)))
        else:
            calls.append((f"sub_group_clustered_rotate(x, {delta}, {cs})", ("rotate", delta, cs)))
    return calls


def _cc_source(ctype):
    calls = _cc_calls(ctype)
    pragma = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" if ctype == "half" else ""
    lines = [f"  o[g * {len(calls)} + {k}] = {expr};" for k, (expr, _) in enumerate(calls)]
    return pragma + f"kernel void k(global const uint *mask, global const {ctype} *in, global {ctype} *o, int d) {{\n" \
        "  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);\n" \
        f"  {ctype} x = in[g];\n  if (mask[g] & ACTIVE) {{\n" + "\n".join(lines) + "\n  }\n}\n"


@functools.cache
def _cc_kernel(ctype, active):
    source = _cc_source(ctype).replace("ACTIVE", "1" if active else "~0u")
    return spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL3.0", filename="t.cl")).kernel("k")


def _cc_inputs(ctype, count, seed):
    np_type, bits, signed = CC_TYPES[ctype]
    rng = np.random.default_rng(seed)
    if signed is None:    # products and sums exact in every float type (half: powers of 2 only)
        choices = [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0] + ([] if ctype == "half" else [3.0])
        return rng.choice(choices, count).astype(np_type)
    return rng.integers(0, 1 << bits, count, dtype=np.uint64).astype(np_type)


@pytest.mark.parametrize("ctype,active", CC_CASES, ids=[f"{t}-{'active' if a else 'uniform'}" for t, a in CC_CASES])
def test_cc_builtins(ctype, active):
    calls = _cc_calls(ctype)
    kernel = _cc_kernel(ctype, active)
    np_type, bits, signed = CC_TYPES[ctype]
    value = (lambda v: float(v)) if signed is None else (lambda v: int(v) & ((1 << bits) - 1))
    compared = 0
    for layout in LAYOUTS if ctype in FULL else ("1d",):
        for size in SIZES:
            gsize, lsize = LAYOUTS[layout]
            count = int(np.prod(gsize))
            x, mask = _cc_inputs(ctype, count, 11), _mask(count, 11)
            if not active:
                mask[:] |= 2     # every work-item takes the branch (mask & ~0u)
            out = np.full(count * len(calls), 77, np_type)
            extra = {} if size is None else {"sub_group_size": size}
            kernel(gsize, lsize, mask, x, out, np.int32(DYNAMIC_DELTA), **extra)
            out = out.reshape(count, len(calls))
            rotations = [(d, cs) for _, (kind, d, cs) in calls if kind == "rotate"]
            first_rotation = next(k for k, (_, m) in enumerate(calls) if m[0] == "rotate")
            compared += _check_rotation(x, mask, out[:, first_rotation:], ctype, layout, size, active,
                                        [(d if d == "d" else d % (1 << 32), cs) for d, cs in rotations],
                                        DYNAMIC_DELTA, value)
            for members in _sub_groups(layout, size):
                on = [bool(mask[g] & 1) or not active for g in members]
                for k, (expr, (kind, fn, cs)) in enumerate(calls[:first_rotation]):
                    values = [bool(int(x[g]) & 1) if kind == "logical" else value(x[g]) for g in members]
                    want = clustered_reduce(values, on, cs, fn)
                    for i, g in enumerate(members):
                        if i in want:
                            assert value(out[g, k]) == value(want[i]), (expr, layout, size, members, i)
                            compared += 1
    assert compared > 400
