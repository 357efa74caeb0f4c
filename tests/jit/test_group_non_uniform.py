"""The executor on the GroupNonUniform family at Subgroup scope (issue 20), in hand-written
SPIR-V (tests/jit/asm_kernel.py), against Python models of the SPIR-V 1.3 definitions.

Launches use a chosen sub-group size (3: a work-group of 8 is sub-groups of 3, 3 and 2; the last,
partial work-group of the 1-D NDRange has 6), in 1-D and 2-D. Each work-item reads x = a[linear
id]; the models see each sub-group's x in sub-group local id order. The *_active cases run the
instruction only in the work-items with an odd x: the non-uniform ops then combine the active
ones only. Ballot bits beyond 128 are not modelled; ClusteredReduce and OpGroupNonUniformRotateKHR
are tested in test_clustered_rotate.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from jit.asm_kernel import ld, simple, st

CAPS = ("GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformArithmetic", "GroupNonUniformBallot",
        "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative")
ENV = "spv1.3"
SUB_GROUP_SIZE = 3
LAYOUTS = {"1d": ((22,), (8,)), "2d": ((8, 4), (4, 2))}
M32 = 0xFFFFFFFF

# Read x, f = (x & 3) + 1 as a float, p = x is odd, the sub-group local id and size.
PROLOGUE = """%gid = OpLoad %ulong %GlobalLinearId
""" + ld("x", "uint", "a", "gid") + """%x3 = OpBitwiseAnd %uint %x %uint_3
%x31 = OpIAdd %uint %x3 %uint_1
%f = OpConvertUToF %float %x31
%xodd = OpBitwiseAnd %uint %x %uint_1
%p = OpINotEqual %bool %xodd %uint_0
%lid = OpLoad %uint %SubgroupLocalInvocationId
%size = OpLoad %uint %SubgroupSize
"""


def _signed(v):
    return v - (1 << 32) if v >> 31 else v


def _f(x):
    return float((x & 3) + 1)


def _scan(xs, op, kind):
    out, acc = [], None
    for x in xs:
        before = acc
        acc = x if acc is None else op(acc, x)
        out.append(before if kind == "ExclusiveScan" else acc)
    return [acc] * len(xs) if kind == "Reduce" else out


INT_OPS = {
    "IAdd": (lambda a, b: (a + b) & M32, 0), "IMul": (lambda a, b: (a * b) & M32, 1),
    "UMin": (min, M32), "UMax": (max, 0),
    "SMin": (lambda a, b: a if _signed(a) <= _signed(b) else b, 0x7FFFFFFF),
    "SMax": (lambda a, b: a if _signed(a) >= _signed(b) else b, 0x80000000),
    "BitwiseAnd": (lambda a, b: a & b, M32), "BitwiseOr": (lambda a, b: a | b, 0),
    "BitwiseXor": (lambda a, b: a ^ b, 0),
}
FLOAT_OPS = {"FAdd": (lambda a, b: a + b, 0.0), "FMul": (lambda a, b: a * b, 1.0), "FMin": (min, np.inf),
             "FMax": (max, -np.inf)}
LOGICAL_OPS = {"LogicalAnd": (lambda a, b: a and b, True), "LogicalOr": (lambda a, b: a or b, False),
               "LogicalXor": (lambda a, b: a != b, False)}


def _arith_model(op, kind):
    table = {**INT_OPS, **FLOAT_OPS, **LOGICAL_OPS}
    fn, ident = table[op]

    def model(xs):
        vals = [_f(x) for x in xs] if op in FLOAT_OPS else [bool(x & 1) for x in xs] if op in LOGICAL_OPS else xs
        out = [ident if v is None else v for v in _scan(vals, fn, kind)]
        return [int(v) & M32 if op not in FLOAT_OPS else int(v) if np.isfinite(v) else None for v in out]
    return model


def _arith_body(op, kind):
    if op in FLOAT_OPS:
        return f"%fr = OpGroupNonUniform{op} %float %uint_3 {kind} %f\n%r = OpConvertFToU %uint %fr\n"
    if op in LOGICAL_OPS:
        return f"%pr = OpGroupNonUniform{op} %bool %uint_3 {kind} %p\n%r = OpSelect %uint %pr %uint_1 %uint_0\n"
    return f"%r = OpGroupNonUniform{op} %uint %uint_3 {kind} %x\n"


def _ballot(pred):
    return sum(1 << k for k, v in enumerate(pred) if v)


def _shuffle(xs, sources):
    return [xs[s] if 0 <= s < len(xs) else xs[k] for k, s in enumerate(sources)]


BALLOT = "%bal = OpGroupNonUniformBallot %v4uint %uint_3 %p\n"
# name: (body defining %r, model: the sub-group's xs -> each work-item's r)
CASES = {
    "elect": ("%e = OpGroupNonUniformElect %bool %uint_3\n%r = OpSelect %uint %e %uint_1 %uint_0\n",
              lambda xs: [1] + [0] * (len(xs) - 1)),
    "all": ("%v = OpGroupNonUniformAll %bool %uint_3 %p\n%r = OpSelect %uint %v %uint_1 %uint_0\n",
            lambda xs: [int(all(x & 1 for x in xs))] * len(xs)),
    "any": ("%v = OpGroupNonUniformAny %bool %uint_3 %p\n%r = OpSelect %uint %v %uint_1 %uint_0\n",
            lambda xs: [int(any(x & 1 for x in xs))] * len(xs)),
    "all_equal": ("%v = OpGroupNonUniformAllEqual %bool %uint_3 %x3\n%r = OpSelect %uint %v %uint_1 %uint_0\n",
                  lambda xs: [int(len({x & 3 for x in xs}) == 1)] * len(xs)),
    "all_equal_float": ("%v = OpGroupNonUniformAllEqual %bool %uint_3 %f\n%r = OpSelect %uint %v %uint_1 %uint_0\n",
                        lambda xs: [int(len({_f(x) for x in xs}) == 1)] * len(xs)),
    "broadcast": ("%r = OpGroupNonUniformBroadcast %uint %uint_3 %x %uint_1\n",
                  lambda xs: [xs[1]] * len(xs)),
    "broadcast_first": ("%r = OpGroupNonUniformBroadcastFirst %uint %uint_3 %x\n", lambda xs: [xs[0]] * len(xs)),
    "ballot_word0": (BALLOT + "%r = OpCompositeExtract %uint %bal 0\n",
                     lambda xs: [_ballot([x & 1 for x in xs])] * len(xs)),
    "ballot_word1": (BALLOT + "%r = OpCompositeExtract %uint %bal 1\n", lambda xs: [0] * len(xs)),
    "inverse_ballot": (BALLOT + "%v = OpGroupNonUniformInverseBallot %bool %uint_3 %bal\n"
                       "%r = OpSelect %uint %v %uint_1 %uint_0\n", lambda xs: [x & 1 for x in xs]),
    "ballot_bit_extract": (BALLOT + "%v = OpGroupNonUniformBallotBitExtract %bool %uint_3 %bal %uint_1\n"
                           "%r = OpSelect %uint %v %uint_1 %uint_0\n",
                           lambda xs: [xs[1] & 1 if len(xs) > 1 else 0] * len(xs)),
    **{f"ballot_bit_count_{kind}": (BALLOT + f"%r = OpGroupNonUniformBallotBitCount %uint %uint_3 {kind} %bal\n",
                                    lambda xs, kind=kind: [sum(x & 1 for x in (
                                        xs if kind == "Reduce" else xs[:k + 1] if kind == "InclusiveScan" else xs[:k]))
                                        for k in range(len(xs))])
       for kind in ("Reduce", "InclusiveScan", "ExclusiveScan")},
    "ballot_find_lsb": (BALLOT + "%r = OpGroupNonUniformBallotFindLSB %uint %uint_3 %bal\n",
                        lambda xs: [next((k for k, x in enumerate(xs) if x & 1), None)] * len(xs)),
    "ballot_find_msb": (BALLOT + "%r = OpGroupNonUniformBallotFindMSB %uint %uint_3 %bal\n",
                        lambda xs: [max((k for k, x in enumerate(xs) if x & 1), default=None)] * len(xs)),
    "shuffle": ("%l3 = OpIMul %uint %lid %uint_2\n%l31 = OpIAdd %uint %l3 %uint_1\n%id = OpUMod %uint %l31 %size\n"
                "%r = OpGroupNonUniformShuffle %uint %uint_3 %x %id\n",
                lambda xs: _shuffle(xs, [(2 * k + 1) % len(xs) for k in range(len(xs))])),
    "shuffle_xor": ("%r = OpGroupNonUniformShuffleXor %uint %uint_3 %x %uint_1\n",
                    lambda xs: _shuffle(xs, [k ^ 1 for k in range(len(xs))])),
    "shuffle_up": ("%r = OpGroupNonUniformShuffleUp %uint %uint_3 %x %uint_1\n",
                   lambda xs: _shuffle(xs, [k - 1 for k in range(len(xs))])),
    "shuffle_down": ("%r = OpGroupNonUniformShuffleDown %uint %uint_3 %x %uint_1\n",
                     lambda xs: _shuffle(xs, [k + 1 for k in range(len(xs))])),
    **{f"{op}_{kind}": (_arith_body(op, kind), _arith_model(op, kind))
       for op in (*INT_OPS, *FLOAT_OPS, *LOGICAL_OPS) for kind in ("Reduce", "InclusiveScan", "ExclusiveScan")},
}
# Undefined results (an empty ballot's LSB/MSB, an exclusive float min/max's first element, the
# identity of which the model gives as None) are not compared.


def _sub_groups(global_size, local_size, n):
    """Each sub-group's work-items: global linear ids in sub-group local id order."""
    gx, gy = (tuple(global_size) + (1,))[:2]
    lx, ly = (tuple(local_size) + (1,))[:2]
    ids = np.arange(gx * gy).reshape(gy, gx)
    groups = [ids[y:y + ly, x:x + lx].ravel().tolist() for y in range(0, gy, ly) for x in range(0, gx, lx)]
    return [members[i:i + n] for members in groups for i in range(0, len(members), n)]


def _inputs(count):
    rng = np.random.default_rng(20)
    x = rng.integers(0, 2**32, count, dtype=np.uint64).astype(np.uint32)
    x[::7] = 12          # some sub-groups agree on x & 3
    x[1::7] = 8
    x[2::7] = 4
    x[5::9] |= 1
    return x


def _run(body, layout, active=False, capabilities=CAPS):
    gsize, lsize = LAYOUTS[layout]
    count = int(np.prod(gsize))
    x = _inputs(count)
    if active:    # only the work-items with an odd x run the instruction
        body = PROLOGUE + f"""OpSelectionMerge %join None
OpBranchConditional %p %then %join
%then = OpLabel
{body}""" + st("o", "gid", "uint", "r") + "OpBranch %join\n%join = OpLabel\n"
    else:
        body = PROLOGUE + body + st("o", "gid", "uint", "r")
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body, gid=False, capabilities=capabilities, env=ENV)
    out = np.full(count, 0xDEADBEEF, np.uint32)
    k(gsize, lsize, x, out, sub_group_size=SUB_GROUP_SIZE)
    return x, out


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", CASES)
def test_non_uniform_op(case, layout):
    body, model = CASES[case]
    x, out = _run(body, layout)
    compared = 0
    for members in _sub_groups(*LAYOUTS[layout], SUB_GROUP_SIZE):
        for g, want in zip(members, model([int(v) for v in x[members]])):
            if want is not None:
                assert out[g] == want, (case, members, [int(v) for v in x[members]], g)
                compared += 1
    assert compared > len(x) // 2


ACTIVE = ("elect", "any", "all_equal", "broadcast_first", "ballot_word0", "ballot_bit_count_InclusiveScan",
          "IAdd_Reduce", "UMax_InclusiveScan", "FAdd_ExclusiveScan", "shuffle_xor")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", ACTIVE)
def test_non_uniform_op_in_active_work_items(case, layout):
    """Only the work-items of odd x take part (the others keep 0xDEADBEEF); the models see the
    active ones of each sub-group, and ballots set their bits at their sub-group local ids."""
    body, model = CASES[case]
    x, out = _run(body, layout, active=True)
    for members in _sub_groups(*LAYOUTS[layout], SUB_GROUP_SIZE):
        active = [g for g in members if x[g] & 1]
        for g in set(members) - set(active):
            assert out[g] == 0xDEADBEEF
        if case.startswith("ballot"):
            bits = [int(x[g]) & 1 for g in members]
            want = [_ballot(bits)] * len(active) if case == "ballot_word0" else \
                [sum(bits[:members.index(g) + 1]) for g in active]
        elif case == "shuffle_xor":   # partners by sub-group local id; an inactive one's value is undefined
            want = [int(x[members[members.index(g) ^ 1]]) if members.index(g) ^ 1 < len(members)
                    and x[members[members.index(g) ^ 1]] & 1 else None for g in active]
        else:
            want = model([int(x[g]) for g in active]) if active else []
        for g, w in zip(active, want):
            if w is not None:
                assert out[g] == w, (case, members, g)

