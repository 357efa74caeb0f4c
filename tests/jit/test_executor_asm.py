"""The CPU executor on hand-written SPIR-V kernels: instructions clang never or rarely emits.

Every kernel is assembled from a short body by tests/jit/asm_kernel.py (which also runs
spirv-val on it) and checked against a reference computed here independently: Python integers
for integer arithmetic, exact rationals (``fractions.Fraction``) for rounding, numpy only where
its result is exact. Kernels whose code differs with bounds checks run both checked and
unchecked.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
import pytest

import spirvkit
from jit.asm_kernel import GID, aligned, aligned_zeros, build, kernel_function, ld, program, simple, st

MODES = pytest.mark.parametrize("unchecked", [False, True], ids=["checked", "unchecked"])



# ----- helpers ----------------------------------------------------------------------------------
def slots(stride: int, count: int, prefix: str = "o", index: str = "gid") -> str:
    """Defines %{prefix}0 .. %{prefix}{count-1} = index * stride + k (ulong)."""
    lines = [f"%{prefix}_base = OpIMul %ulong %{index} %ulong_{stride}"]
    lines += [f"%{prefix}{k} = OpIAdd %ulong %{prefix}_base %ulong_{k}" for k in range(count)]
    return "\n".join(lines) + "\n"


def u(values, width=32):
    """Python ints (any sign) as an unsigned numpy array of ``width`` bits."""
    dtype = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
    return np.array([v % (1 << width) for v in values], dtype=dtype)


def signed(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


FORMATS = {"half": (11, -14, 15), "float": (24, -126, 127), "double": (53, -1022, 1023)}
NP_FLOAT = {"half": np.float16, "float": np.float32, "double": np.float64}
NP_UINT = {"half": np.uint16, "float": np.uint32, "double": np.uint64}


def round_exact(x, fmt: str, mode: str = "RTE") -> float:
    """The exact rational ``x`` rounded to the float format ``fmt`` in rounding ``mode``
    (RTE, RTZ, RTP, RTN), with subnormals and overflow as IEEE 754 has them."""
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x) or x == 0:
            return x
        x = Fraction(x)
    p, emin, emax = FORMATS[fmt]
    if x == 0:
        return 0.0
    neg = x < 0
    a = -x if neg else x
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    quantum = Fraction(2) ** (max(e, emin) - p + 1)
    m = a / quantum
    lo = m.numerator // m.denominator
    rest = m - lo
    if rest == 0 or mode == "RTZ":
        n = lo
    elif mode == "RTP":
        n = lo if neg else lo + 1
    elif mode == "RTN":
        n = lo + 1 if neg else lo
    else:
        n = lo + 1 if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and lo % 2) else lo
    r = n * quantum
    largest = (2 ** p - 1) * Fraction(2) ** (emax - p + 1)
    if r > largest:
        toward_zero = mode == "RTZ" or (mode == "RTP" and neg) or (mode == "RTN" and not neg)
        value = float(largest) if toward_zero else math.inf
    else:
        value = float(r)
    return -value if neg else value


def bits_of(values, fmt: str) -> np.ndarray:
    return np.asarray(values, dtype=NP_FLOAT[fmt]).view(NP_UINT[fmt])


def assert_same_floats(actual, expected, fmt: str):
    """Bit-exact (sign of zero included), any NaN matching any NaN."""
    a = np.asarray(actual, dtype=NP_FLOAT[fmt])
    e = np.asarray(expected, dtype=NP_FLOAT[fmt])
    both_nan = np.isnan(a) & np.isnan(e)
    bad = ~both_nan & (bits_of(a, fmt) != bits_of(e, fmt))
    assert not bad.any(), f"mismatch at {np.flatnonzero(bad)[:10]}: got {a[bad][:10]}, expected {e[bad][:10]}"


# ======== control flow ==========================================================================
@MODES
def test_switch_32_with_fallthrough(unchecked):
    body = ld("x", "uint", "a", "gid") + """
OpSwitch %x %dflt 0 %c0 1 %c1 7 %c1 5 %c5 4294967295 %cmax
%c0 = OpLabel
OpBranch %join
%c1 = OpLabel
%r1 = OpIAdd %uint %x %uint_100
OpBranch %c5
%c5 = OpLabel
%r5 = OpPhi %uint %uint_5 %main_entry %r1 %c1
%r5b = OpIMul %uint %r5 %uint_3
OpBranch %join
%cmax = OpLabel
OpBranch %join
%dflt = OpLabel
%rd = OpShiftLeftLogical %uint %x %uint_1
OpBranch %join
%join = OpLabel
%r = OpPhi %uint %uint_10 %c0 %r5b %c5 %uint_99 %cmax %rd %dflt
""" + st("o", "gid", "uint", "r")
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body)
    xs = [0, 1, 7, 5, 0xFFFFFFFF, 2, 6, 0x80000000, 0xFFFFFFFE, 100]
    a = u(xs)
    o = np.zeros_like(a)
    k(len(xs), None, a, o, unchecked=unchecked)

    def ref(x):
        if x == 0:
            return 10
        if x in (1, 7):
            return (x + 100) * 3
        if x == 5:
            return 15
        if x == 0xFFFFFFFF:
            return 99
        return (x << 1) & 0xFFFFFFFF

    assert o.tolist() == [ref(x) for x in xs]


@MODES
def test_switch_64_bit_selector(unchecked):
    body = ld("x", "ulong", "a", "gid") + """
OpSwitch %x %dflt 4294967296 %c1 18446744073709551615 %c2 5 %c3 4294967301 %c4
%c1 = OpLabel
OpBranch %join
%c2 = OpLabel
OpBranch %join
%c3 = OpLabel
OpBranch %join
%c4 = OpLabel
OpBranch %join
%dflt = OpLabel
OpBranch %join
%join = OpLabel
%r = OpPhi %ulong %ulong_1 %c1 %ulong_2 %c2 %ulong_3 %c3 %ulong_4 %c4 %ulong_0 %dflt
""" + st("o", "gid", "ulong", "r")
    k = simple([("a", "pCW_ulong"), ("o", "pCW_ulong")], body)
    xs = [2 ** 32, 2 ** 64 - 1, 5, 2 ** 32 + 5, 0, 2 ** 32 - 1, 2 ** 32 + 6, 2 ** 63, 1]
    expected = {2 ** 32: 1, 2 ** 64 - 1: 2, 5: 3, 2 ** 32 + 5: 4}
    a = u(xs, 64)
    o = np.zeros_like(a)
    k(len(xs), None, a, o, unchecked=unchecked)
    assert o.tolist() == [expected.get(x, 0) for x in xs]


PHI_LOOPS = ld("n", "uint", "a", "gid") + """
OpBranch %head
%head = OpLabel
%i = OpPhi %uint %uint_0 %main_entry %i1 %body
%f0 = OpPhi %uint %uint_0 %main_entry %f1 %body
%f1 = OpPhi %uint %uint_1 %main_entry %f2 %body
%sx = OpPhi %uint %uint_1 %main_entry %sy %body
%sy = OpPhi %uint %uint_2 %main_entry %sx %body
%c = OpULessThan %bool %i %n
OpBranchConditional %c %body %exit
%body = OpLabel
%f2 = OpIAdd %uint %f0 %f1
%i1 = OpIAdd %uint %i %uint_1
OpBranch %head
%exit = OpLabel
OpBranch %oh
%oh = OpLabel
%j = OpPhi %uint %uint_0 %exit %j1 %olatch
%acc = OpPhi %uint %uint_0 %exit %acc_in %olatch
%oc = OpULessThan %bool %j %n
OpBranchConditional %oc %ipre %done
%ipre = OpLabel
OpBranch %ih
%ih = OpLabel
%k = OpPhi %uint %uint_0 %ipre %k1 %ibody
%acc_in = OpPhi %uint %acc %ipre %acc2 %ibody
%ic = OpULessThan %bool %k %j
OpBranchConditional %ic %ibody %olatch
%ibody = OpLabel
%m = OpIMul %uint %j %k
%x = OpBitwiseXor %uint %m %k
%acc2 = OpIAdd %uint %acc_in %x
%k1 = OpIAdd %uint %k %uint_1
OpBranch %ih
%olatch = OpLabel
%j1 = OpIAdd %uint %j %uint_1
OpBranch %oh
%done = OpLabel
""" + slots(4, 4) + st("o", "o0", "uint", "f0") + st("o", "o1", "uint", "sx") + st("o", "o2", "uint", "sy") \
    + st("o", "o3", "uint", "acc")


@MODES
def test_phi_across_loops(unchecked):
    """Loop-carried phis, including the swap pattern (two phis taking each other's value)
    and a nested loop whose inner phi starts from the outer one."""
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], PHI_LOOPS)
    ns = [0, 1, 2, 3, 10, 47, 48, 100]
    o = np.zeros(4 * len(ns), np.uint32)
    k(len(ns), None, u(ns), o, unchecked=unchecked)
    for n, row in zip(ns, o.reshape(-1, 4).tolist()):
        f0, f1 = 0, 1
        for _ in range(n):
            f0, f1 = f1, (f0 + f1) & 0xFFFFFFFF
        acc = sum((j * kk) ^ kk for j in range(n) for kk in range(j)) & 0xFFFFFFFF
        assert row == [f0, 1 if n % 2 == 0 else 2, 2 if n % 2 == 0 else 1, acc], n


@MODES
def test_unstructured_cfg_blocks_out_of_order(unchecked):
    """No merge instructions; blocks listed before their predecessors; a phi whose operands
    are defined later in the text; a loop with two exits, one an early return."""
    body = ld("x", "uint", "a", "gid") + """
OpBranch %head
%head = OpLabel
%n = OpPhi %uint %x %main_entry %nn %latch
%s = OpPhi %uint %uint_0 %main_entry %s1 %latch
%finished = OpULessThanEqual %bool %n %uint_1
OpBranchConditional %finished %exit %test
%test = OpLabel
%bit = OpBitwiseAnd %uint %n %uint_1
%isodd = OpINotEqual %bool %bit %uint_0
OpBranchConditional %isodd %odd %even
%latch = OpLabel
%nn = OpPhi %uint %ne %even %no %odd
%s1 = OpIAdd %uint %s %uint_1
%big = OpUGreaterThan %bool %s1 %uint_200
OpBranchConditional %big %bail %head
%exit = OpLabel
""" + st("o", "gid", "uint", "s") + """
OpReturn
%odd = OpLabel
%t = OpIMul %uint %n %uint_3
%no = OpIAdd %uint %t %uint_1
OpBranch %latch
%even = OpLabel
%ne = OpShiftRightLogical %uint %n %uint_1
OpBranch %latch
%bail = OpLabel
""" + st("o", "gid", "uint", "uint_0xffffffff") + "OpReturn"
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body, ret=False)
    xs = [1, 2, 3, 6, 7, 27, 97, 871, 0, 1000000]

    def collatz(x):
        s = 0
        while x > 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            s += 1
            if s > 200:
                return 0xFFFFFFFF
        return s

    o = np.zeros(len(xs), np.uint32)
    k(len(xs), None, u(xs), o, unchecked=unchecked)
    assert o.tolist() == [collatz(x) for x in xs]


@MODES
def test_unreachable_and_undef(unchecked):
    body = ld("x", "uint", "a", "gid") + """
%huge = OpUGreaterThan %bool %x %uint_1000000
OpBranchConditional %huge %never %ok
%never = OpLabel
OpUnreachable
%ok = OpLabel
%undef4 = OpUndef %v4uint
%x1 = OpIAdd %uint %x %uint_1
%x2 = OpIAdd %uint %x %uint_2
%x3 = OpIAdd %uint %x %uint_3
%v0 = OpCompositeInsert %v4uint %x %undef4 0
%v1 = OpCompositeInsert %v4uint %x1 %v0 1
%v2 = OpCompositeInsert %v4uint %x2 %v1 2
%v3 = OpCompositeInsert %v4uint %x3 %v2 3
%undef = OpUndef %uint
%sel = OpSelect %uint %true %x %undef
%small = OpULessThan %bool %x %uint_2000000
OpBranchConditional %small %t %f
%f = OpLabel
OpBranch %j
%t = OpLabel
%tx = OpIMul %uint %x %uint_2
OpBranch %j
%j = OpLabel
%ph = OpPhi %uint %tx %t %undef %f
""" + "".join(f"%e{i} = OpCompositeExtract %uint %v3 {i}\n" for i in range(4)) + slots(6, 6) + "".join(
        st("o", f"o{i}", "uint", v) for i, v in enumerate(["e0", "e1", "e2", "e3", "sel", "ph"]))
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body)
    xs = [0, 5, 999999, 1000000]
    o = np.zeros(6 * len(xs), np.uint32)
    k(len(xs), None, u(xs), o, unchecked=unchecked)
    assert o.reshape(-1, 6).tolist() == [[x, x + 1, x + 2, x + 3, x, 2 * x] for x in xs]


# ======== integer arithmetic ====================================================================
def _division_kernel(t: str):
    body = ld("x", t, "a", "gid") + ld("y", t, "b", "gid") + slots(8, 8) + f"""
%q = OpSDiv %{t} %x %y
%r = OpSRem %{t} %x %y
%m = OpSMod %{t} %x %y
%uq = OpUDiv %{t} %x %y
%um = OpUMod %{t} %x %y
%z1 = OpSDiv %{t} %x %{t}_0
%z2 = OpUMod %{t} %x %{t}_0
%z3 = OpSRem %{t} %{t}_0x{'8' + '0' * (7 if t == 'uint' else 15)} %{t}_m1
""" + "".join(st("o", f"o{i}", t, v) for i, v in enumerate(["q", "r", "m", "uq", "um", "z1", "z2", "z3"]))
    return simple([("a", f"pCW_{t}"), ("b", f"pCW_{t}"), ("o", f"pCW_{t}")], body)


@pytest.mark.parametrize("width", [32, 64])
@MODES
def test_signed_division_signs_and_traps(width, unchecked):
    """SDiv truncates; SRem takes the dividend's sign, SMod the divisor's. Division by zero and
    INT_MIN / -1 give unspecified values but must not stop the process or disturb other lanes."""
    t = {32: "uint", 64: "ulong"}[width]
    k = _division_kernel(t)
    lo = -(1 << (width - 1))
    pairs = [(7, 3), (-7, 3), (7, -3), (-7, -3), (6, 3), (-6, 3), (6, -3), (0, -5), (-lo - 1, -2), (lo, 3),
             (lo + 1, -1), (12345, 1), (-1, 7), (5, 0), (lo, -1), (-9, 0), (lo, 0)]
    a = u([p[0] for p in pairs], width)
    b = u([p[1] for p in pairs], width)
    o = np.zeros(8 * len(pairs), a.dtype)
    k(len(pairs), None, a, b, o, unchecked=unchecked)
    mask = (1 << width) - 1
    for (x, y), row in zip(pairs, o.reshape(-1, 8).tolist()):
        if y == 0 or (x == lo and y == -1):
            continue   # any value: the launch only has to survive
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
        rem = x - q * y
        mod = rem + y if rem and (rem < 0) != (y < 0) else rem
        assert row[:5] == [q & mask, rem & mask, mod & mask, (x & mask) // (y & mask), (x & mask) % (y & mask)], (x, y)
        assert mod == x - y * math.floor(Fraction(x, y))


@pytest.mark.parametrize("t", ["float", "double"])
@MODES
def test_frem_fmod_signs(t, unchecked):
    body = ld("x", t, "a", "gid") + ld("y", t, "b", "gid") + slots(2, 2) + f"""
%r = OpFRem %{t} %x %y
%m = OpFMod %{t} %x %y
""" + st("o", "o0", t, "r") + st("o", "o1", t, "m")
    k = simple([("a", f"pCW_{t}"), ("b", f"pCW_{t}"), ("o", f"pCW_{t}")], body)
    pairs = [(5.5, 2.0), (-5.5, 2.0), (5.5, -2.0), (-5.5, -2.0), (7.25, 0.5), (1.0, 3.0), (-1.0, 3.0), (-1e-3, 1e3),
             (1e-3, -1e3), (1e30, 3.0), (-1e30, 7.0), (0.0, 2.0)]
    dt = NP_FLOAT[t]
    a = np.array([p[0] for p in pairs], dt)
    b = np.array([p[1] for p in pairs], dt)
    o = np.zeros(2 * len(pairs), dt)
    k(len(pairs), None, a, b, o, unchecked=unchecked)
    for x, y, (rem, mod) in zip(a, b, o.reshape(-1, 2)):
        exact_rem = dt(math.fmod(float(x), float(y)))   # fmod is exact
        assert rem == exact_rem and (rem == 0 or math.copysign(1, rem) == math.copysign(1, x)), (x, y, rem)
        expected_mod = exact_rem + y if exact_rem != 0 and (exact_rem < 0) != (y < 0) else exact_rem
        assert mod == expected_mod, (x, y, mod, expected_mod)
        assert mod == 0 or math.copysign(1, mod) == math.copysign(1, y)


@MODES
def test_shifts_by_width_or_more(unchecked):
    """SPIR-V leaves shifts by >= the width undefined; the executor takes the count modulo the
    width (OpenCL C's rule): check that, and that no lane disturbs another."""
    body = ld("x", "uint", "a", "gid") + ld("s", "uint", "b", "gid") + ld("xl", "ulong", "al", "gid") \
        + ld("xc", "uchar", "ac", "gid") + ld("sc", "uchar", "bc", "gid") + slots(8, 8) + """
%l = OpShiftLeftLogical %uint %x %s
%r = OpShiftRightLogical %uint %x %s
%ra = OpShiftRightArithmetic %uint %x %s
%ll = OpShiftLeftLogical %ulong %xl %s
%rl = OpShiftRightArithmetic %ulong %xl %s
%lc = OpShiftLeftLogical %uchar %xc %sc
%rc = OpShiftRightArithmetic %uchar %xc %sc
%rcu = OpShiftRightLogical %uchar %xc %s
%lcw = OpUConvert %ulong %lc
%rcw = OpUConvert %ulong %rc
%rcuw = OpUConvert %ulong %rcu
%lw = OpUConvert %ulong %l
%rw = OpUConvert %ulong %r
%raw = OpUConvert %ulong %ra
""" + "".join(st("o", f"o{i}", "ulong", v) for i, v in enumerate(["lw", "rw", "raw", "ll", "rl", "lcw", "rcw", "rcuw"]))
    k = simple([("a", "pCW_uint"), ("b", "pCW_uint"), ("al", "pCW_ulong"), ("ac", "pCW_uchar"), ("bc", "pCW_uchar"),
                ("o", "pCW_ulong")], body)
    rng = np.random.default_rng(1)
    shifts = list(range(0, 70)) + [255, 256, 1000, 0xFFFFFFFF]
    n = len(shifts)
    x = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    x[::3] |= 0x80000000
    xl = rng.integers(0, 2 ** 63, n, dtype=np.uint64) | (np.uint64(1) << np.uint64(63))
    xc = rng.integers(0, 256, n).astype(np.uint8)
    s = u(shifts)
    sc = u(shifts, 8)
    o = np.zeros(8 * n, np.uint64)
    k(n, None, x, s, xl, xc, sc, o, unchecked=unchecked)
    for i, row in enumerate(o.reshape(-1, 8).tolist()):
        xi, si, xli, xci, sci = int(x[i]), shifts[i], int(xl[i]), int(xc[i]), shifts[i] % 256
        assert row == [
            (xi << (si % 32)) & 0xFFFFFFFF, xi >> (si % 32), signed(xi, 32) >> (si % 32) & 0xFFFFFFFF,
            (xli << (si % 64)) & (2 ** 64 - 1), (signed(xli, 64) >> (si % 64)) & (2 ** 64 - 1),
            (xci << (sci % 8)) & 0xFF, (signed(xci, 8) >> (sci % 8)) & 0xFF, xci >> (si & 0xFF) % 8,
        ], (i, si)


@pytest.mark.parametrize("t,width", [("uint", 32), ("ulong", 64)])
@MODES
def test_extended_arithmetic(t, width, unchecked):
    types = f"%pair = OpTypeStruct %{t} %{t}"
    body = ld("x", t, "a", "gid") + ld("y", t, "b", "gid") + slots(8, 8) + "".join(f"""
%{name} = Op{op} %pair %x %y
%{name}_lo = OpCompositeExtract %{t} %{name} 0
%{name}_hi = OpCompositeExtract %{t} %{name} 1
""" for name, op in [("ac", "IAddCarry"), ("sb", "ISubBorrow"), ("um", "UMulExtended"), ("sm", "SMulExtended")]) \
        + "".join(st("o", f"o{2 * i + j}", t, f"{name}_{part}") for i, name in enumerate(["ac", "sb", "um", "sm"])
                  for j, part in enumerate(["lo", "hi"]))
    k = simple([("a", f"pCW_{t}"), ("b", f"pCW_{t}"), ("o", f"pCW_{t}")], body, types=types)
    m = (1 << width) - 1
    edge = [0, 1, m, m - 1, 1 << (width - 1), (1 << (width - 1)) - 1, 12345]
    rng = np.random.default_rng(width)
    xs = [a for a in edge for _ in edge] + [int(v) for v in rng.integers(0, 2 ** 63, 20, dtype=np.uint64)]
    ys = [b for _ in edge for b in edge] + [int(v) << (width - 63) if width == 64 else int(v) & m
                                            for v in rng.integers(0, 2 ** 63, 20, dtype=np.uint64)]
    xs = [v & m for v in xs]
    ys = [v & m for v in ys]
    o = np.zeros(8 * len(xs), {32: np.uint32, 64: np.uint64}[width])
    k(len(xs), None, u(xs, width), u(ys, width), o, unchecked=unchecked)
    for x, y, row in zip(xs, ys, o.reshape(-1, 8).tolist()):
        s, d, p, sp = x + y, x - y, x * y, signed(x, width) * signed(y, width)
        assert row == [s & m, s >> width, d & m, 1 if x < y else 0, p & m, p >> width, sp & m,
                       (sp >> width) & m], (x, y)


# OpBitFieldInsert/Extract and OpBitReverse need Shader or BitInstructions.
BIT_INSTRUCTIONS = {"capabilities": ("BitInstructions",), "extensions": ("SPV_KHR_bit_instructions",)}


@MODES
def test_bit_field_insert_extract(unchecked):
    body = ld("base", "uint", "a", "gid") + ld("ins", "uint", "b", "gid") + ld("off", "uint", "c", "gid") \
        + ld("cnt", "uint", "d", "gid") + ld("bl", "ulong", "al", "gid") + slots(5, 5) + """
%i = OpBitFieldInsert %uint %base %ins %off %cnt
%s = OpBitFieldSExtract %uint %base %off %cnt
%e = OpBitFieldUExtract %uint %base %off %cnt
%off64 = OpIMul %uint %off %uint_2
%sl = OpBitFieldSExtract %ulong %bl %off64 %cnt
%el = OpBitFieldUExtract %ulong %bl %off64 %cnt
%iw = OpUConvert %ulong %i
%sw = OpUConvert %ulong %s
%ew = OpUConvert %ulong %e
""" + "".join(st("o", f"o{i}", "ulong", v) for i, v in enumerate(["iw", "sw", "ew", "sl", "el"]))
    k = simple([("a", "pCW_uint"), ("b", "pCW_uint"), ("c", "pCW_uint"), ("d", "pCW_uint"), ("al", "pCW_ulong"),
                ("o", "pCW_ulong")], body, **BIT_INSTRUCTIONS)
    fields = [(0, 0), (0, 32), (31, 1), (0, 1), (4, 8), (16, 16), (8, 0), (1, 31), (20, 12), (5, 5), (30, 2)]
    rng = np.random.default_rng(7)
    n = len(fields)
    base = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    base[1::2] |= 0x80808080
    ins = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    bl = rng.integers(0, 2 ** 64 - 1, n, dtype=np.uint64, endpoint=True)
    off = u([f[0] for f in fields])
    cnt = u([f[1] for f in fields])
    o = np.zeros(5 * n, np.uint64)
    k(n, None, base, ins, off, cnt, bl, o, unchecked=unchecked)

    def extract(v, offset, count, width, sign):
        if count == 0:
            return 0
        f = (v >> offset) & ((1 << count) - 1)
        if sign and f >> (count - 1):
            f -= 1 << count
        return f & ((1 << width) - 1)

    for i, row in enumerate(o.reshape(-1, 5).tolist()):
        b, s, (of, c), l = int(base[i]), int(ins[i]), fields[i], int(bl[i])
        mask = ((1 << c) - 1) << of
        assert row == [(b & ~mask & 0xFFFFFFFF) | ((s << of) & mask), extract(b, of, c, 32, True),
                       extract(b, of, c, 32, False), extract(l, 2 * of, c, 64, True),
                       extract(l, 2 * of, c, 64, False)], \
            fields[i]


@MODES
def test_bit_reverse_and_count(unchecked):
    body = ld("x", "uint", "a", "gid") + ld("xl", "ulong", "al", "gid") + slots(6, 6) + """
%xs = OpUConvert %ushort %x
%xc = OpUConvert %uchar %x
%r32 = OpBitReverse %uint %x
%c32 = OpBitCount %uint %x
%r64 = OpBitReverse %ulong %xl
%c64 = OpBitCount %ulong %xl
%r16 = OpBitReverse %ushort %xs
%c8 = OpBitCount %uchar %xc
%w0 = OpUConvert %ulong %r32
%w1 = OpUConvert %ulong %c32
%w4 = OpUConvert %ulong %r16
%w5 = OpUConvert %ulong %c8
""" + "".join(st("o", f"o{i}", "ulong", v) for i, v in enumerate(["w0", "w1", "r64", "c64", "w4", "w5"]))
    k = simple([("a", "pCW_uint"), ("al", "pCW_ulong"), ("o", "pCW_ulong")], body, **BIT_INSTRUCTIONS)
    rng = np.random.default_rng(3)
    x = np.concatenate([u([0, 1, 0xFFFFFFFF, 0x80000000, 0x12345678]),
                        rng.integers(0, 2 ** 32, 11, dtype=np.uint64).astype(np.uint32)])
    xl = np.concatenate([u([0, 1, 2 ** 64 - 1, 2 ** 63, 0x0123456789ABCDEF], 64),
                         rng.integers(0, 2 ** 64 - 1, 11, dtype=np.uint64)])
    o = np.zeros(6 * len(x), np.uint64)
    k(len(x), None, x, xl, o, unchecked=unchecked)

    def rev(v, w):
        return int(format(v, f"0{w}b")[::-1], 2)

    for i, row in enumerate(o.reshape(-1, 6).tolist()):
        v, vl = int(x[i]), int(xl[i])
        assert row == [rev(v, 32), bin(v).count("1"), rev(vl, 64), bin(vl).count("1"), rev(v & 0xFFFF, 16),
                       bin(v & 0xFF).count("1")]


@pytest.mark.parametrize("t,width", [("uchar", 8), ("ushort", 16)])
@MODES
def test_small_integer_arithmetic_wraps(t, width, unchecked):
    ops = [("add", "OpIAdd"), ("sub", "OpISub"), ("mul", "OpIMul"), ("sdiv", "OpSDiv"), ("udiv", "OpUDiv"),
           ("srem", "OpSRem"), ("shl", "OpShiftLeftLogical"), ("sra", "OpShiftRightArithmetic")]
    body = ld("x", t, "a", "gid") + ld("y", t, "b", "gid") + slots(12, 12) + "".join(
        f"%{n} = {op} %{t} %x %y\n" for n, op in ops) + f"""
%neg = OpSNegate %{t} %x
%inv = OpNot %{t} %x
%lt = OpSLessThan %bool %x %y
%ltv = OpSelect %{t} %lt %{t}_1 %{t}_0
%sx = OpSConvert %uint %x
%zx = OpUConvert %uint %x
""" + "".join(st("o", f"o{i}", t, n) for i, (n, _) in enumerate(ops)) + st("o", "o8", t, "neg") \
        + st("o", "o9", t, "inv") + st("o", "o10", t, "ltv") + ld("unused", t, "a", "gid") \
        + st("w", "gid", "uint", "sx") + st("z", "gid", "uint", "zx")
    k = simple([("a", f"pCW_{t}"), ("b", f"pCW_{t}"), ("o", f"pCW_{t}"), ("w", "pCW_uint"), ("z", "pCW_uint")], body)
    m = (1 << width) - 1
    rng = np.random.default_rng(width)
    xs = [m, 1 << (width - 1), 100, 7] + [int(v) for v in rng.integers(0, m + 1, 28)]
    ys = [1, m, 200, 3] + [int(v) or 1 for v in rng.integers(0, m + 1, 28)]
    ys = [y if not (signed(x, width) == -(1 << (width - 1)) and signed(y, width) == -1) else 1 for x, y in zip(xs, ys)]
    o = np.zeros(12 * len(xs), {8: np.uint8, 16: np.uint16}[width])
    w = np.zeros(len(xs), np.uint32)
    z = np.zeros(len(xs), np.uint32)
    k(len(xs), None, u(xs, width), u(ys, width), o, w, z, unchecked=unchecked)
    for x, y, row, sx, zx in zip(xs, ys, o.reshape(-1, 12).tolist(), w.tolist(), z.tolist()):
        sx_, sy_ = signed(x, width), signed(y, width)
        q = abs(sx_) // abs(sy_) * (1 if (sx_ < 0) == (sy_ < 0) else -1)
        assert row[:11] == [(x + y) & m, (x - y) & m, (x * y) & m, q & m, x // y, (sx_ - q * sy_) & m,
                            (x << (y % width)) & m, (sx_ >> (y % width)) & m, -x & m, ~x & m, int(sx_ < sy_)], (x, y)
        assert sx == sx_ & 0xFFFFFFFF and zx == x


# ======== floating point ========================================================================
SPECIALS = {
    "float": [0.0, -0.0, 1.0, -1.5, 1e-45, -1e-45, 1.1754942e-38, 1.17549435e-38, 3.4028235e38, math.inf, -math.inf],
    "double": [0.0, -0.0, 1.0, -1.5, 5e-324, -5e-324, 2.2250738585072009e-308, 2.2250738585072014e-308,
               1.7976931348623157e308, math.inf, -math.inf],
}
NAN_BITS = {  # quiet, negative quiet, signalling
    "float": np.array([0x7FC00000, 0xFFC00001, 0x7F800001], np.uint32),
    "double": np.array([0x7FF8000000000000, 0xFFF8000000000001, 0x7FF0000000000001], np.uint64),
}


@pytest.mark.parametrize("t", ["half", "float", "double"])
@MODES
def test_float_classification(t, unchecked):
    flags = ["IsNan", "IsInf", "IsFinite", "IsNormal", "SignBitSet"]
    pairs = ["Ordered", "Unordered", "LessOrGreater"]
    body = ld("x", t, "a", "gid") + ld("y", t, "b", "gid") + slots(8, 8) + "".join(
        f"%{f} = Op{f} %bool %x\n%{f}_c = OpSelect %uchar %{f} %uchar_1 %uchar_0\n" for f in flags) + "".join(
        f"%{f} = Op{f} %bool %x %y\n%{f}_c = OpSelect %uchar %{f} %uchar_1 %uchar_0\n" for f in pairs) + "".join(
        st("o", f"o{i}", "uchar", f"{f}_c") for i, f in enumerate(flags + pairs))
    k = simple([("a", f"pCW_{t}"), ("b", f"pCW_{t}"), ("o", "pCW_uchar")], body)
    dt = NP_FLOAT[t]
    if t == "half":
        xs = np.array([0x0000, 0x8000, 0x3C00, 0xBE00, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0x7C00, 0xFC00, 0x7E00,
                       0xFE00, 0x7C01], np.uint16).view(np.float16)
    else:
        xs = np.concatenate([np.array(SPECIALS[t], dt), NAN_BITS[t].view(dt)])
    n = len(xs)
    ys = np.array([[1.0, math.nan, 0.0, -0.0, math.inf][i % 5] for i in range(n)], dt)
    o = np.zeros(8 * n, np.uint8)
    k(n, None, xs, ys, o, unchecked=unchecked)
    tiny = {"half": 2.0 ** -14, "float": 2.0 ** -126, "double": 2.0 ** -1022}[t]
    for x, y, row in zip(xs.tolist(), ys.tolist(), o.reshape(-1, 8).tolist()):
        nan = math.isnan(x)
        normal = not nan and not math.isinf(x) and abs(x) >= tiny
        sign = bool(np.signbit(dt(x))) if not nan else None
        expected = [nan, math.isinf(x), math.isfinite(x), normal, sign, not nan and not math.isnan(y),
                    nan or math.isnan(y), not nan and not math.isnan(y) and x != y]
        if nan:
            expected[4] = row[4]   # checked below from the bits
        assert row == [int(e) for e in expected], (x, y)
    signs = (xs.view({"half": np.uint16, "float": np.uint32, "double": np.uint64}[t]) >> (8 * dt().itemsize - 1))
    assert o.reshape(-1, 8)[:, 4].tolist() == signs.astype(np.uint8).tolist()


@MODES
def test_any_all(unchecked):
    body = ld("v", "v4float", "a", "gid") + slots(4, 4) + """
%nan = OpIsNan %v4bool %v
%fin = OpIsFinite %v4bool %v
%any = OpAny %bool %nan
%all = OpAll %bool %fin
%pos = OpFOrdGreaterThan %v4bool %v %zero4
%anyp = OpAny %bool %pos
%allp = OpAll %bool %pos
%c0 = OpSelect %uint %any %uint_1 %uint_0
%c1 = OpSelect %uint %all %uint_1 %uint_0
%c2 = OpSelect %uint %anyp %uint_1 %uint_0
%c3 = OpSelect %uint %allp %uint_1 %uint_0
""" + "".join(st("o", f"o{i}", "uint", f"c{i}") for i in range(4))
    types = "%zero4 = OpConstantNull %v4float"
    k = simple([("a", "pCW_v4float"), ("o", "pCW_uint")], body, types=types)
    rows = [[1, 2, 3, 4], [1, math.nan, 3, 4], [-1, -2, -3, -4], [math.inf, 1, 1, 1], [0, 0, 0, 1], [math.nan] * 4,
            [-math.inf, 5, math.nan, 0]]
    a = np.array(rows, np.float32)
    o = np.zeros(4 * len(rows), np.uint32)
    k(len(rows), None, a, o, unchecked=unchecked)
    for r, out in zip(rows, o.reshape(-1, 4).tolist()):
        assert out == [int(any(math.isnan(v) for v in r)), int(all(math.isfinite(v) for v in r)),
                       int(any(v > 0 for v in r)), int(all(v > 0 for v in r))], r


@MODES
def test_half_arithmetic(unchecked):
    ops = [("add", "OpFAdd"), ("sub", "OpFSub"), ("mul", "OpFMul"), ("div", "OpFDiv")]
    body = ld("x", "half", "a", "gid") + ld("y", "half", "b", "gid") + slots(6, 6) + "".join(
        f"%{n} = {op} %half %x %y\n" for n, op in ops) + """
%neg = OpFNegate %half %x
%lt = OpFOrdLessThan %bool %x %y
%ltv = OpSelect %half %lt %half_1 %half_0
%wide = OpFConvert %float %x
""" + "".join(st("o", f"o{i}", "half", n) for i, (n, _) in enumerate(ops)) + st("o", "o4", "half", "neg") \
        + st("o", "o5", "half", "ltv") + st("w", "gid", "float", "wide")
    k = simple([("a", "pCW_half"), ("b", "pCW_half"), ("o", "pCW_half"), ("w", "pCW_float")], body)
    rng = np.random.default_rng(16)
    bits = rng.integers(0, 0x7C00, (2, 200)).astype(np.uint16)
    bits |= (rng.integers(0, 2, (2, 200)).astype(np.uint16) << 15)
    x, y = bits.view(np.float16)
    y = np.where(y == 0, np.float16(3), y)
    x[:4] = [65504, 65504, 1e-7, 2.0 ** -24]
    y[:4] = [65504, -0.5, 1e-7, 3.0]
    o = np.zeros(6 * len(x), np.float16)
    w = np.zeros(len(x), np.float32)
    k(len(x), None, x, y, o, w, unchecked=unchecked)
    expected = []
    for a, b in zip(x.tolist(), y.tolist()):
        fa, fb = Fraction(a), Fraction(b)
        expected += [round_exact(fa + fb, "half"), round_exact(fa - fb, "half"), round_exact(fa * fb, "half"),
                     round_exact(fa / fb, "half"), -a, 1.0 if a < b else 0.0]
    expected = np.array(expected, np.float16).reshape(-1, 6)
    # An exact zero takes its sign as IEEE 754 says (round_exact gives +0 for a zero value).
    got = o.reshape(-1, 6)
    for col in range(6):
        e = expected[:, col].copy()
        zero = e == 0
        if col in (0, 1):   # an exact zero sum is +0 unless both operands are -0 (x + y) / x=-0,y=+0 (x - y)
            e[zero] = np.where(np.signbit(x[zero]) & (np.signbit(y[zero]) if col == 0 else ~np.signbit(y[zero])),
                               np.float16(-0.0), np.float16(0.0))
        elif col in (2, 3):
            e[zero] = np.where(np.signbit(x[zero]) ^ np.signbit(y[zero]), np.float16(-0.0), np.float16(0.0))
        assert_same_floats(got[:, col], e, "half")
    assert (w == x.astype(np.float32)).all()


# ======== conversions ===========================================================================
ROUNDING = ["RTE", "RTZ", "RTP", "RTN"]


@pytest.mark.parametrize("t,width", [("uint", 32), ("ulong", 64)])
@MODES
def test_int_to_float_rounding_modes(t, width, unchecked):
    names = [f"{s}_{m}" for s in ("s", "u") for m in ROUNDING + ["def"]]
    body = ld("x", t, "a", "gid") + slots(10, 10) + "".join(
        f"%{n} = {'OpConvertSToF' if n[0] == 's' else 'OpConvertUToF'} %float %x\n" for n in names) + "".join(
        st("o", f"o{i}", "float", n) for i, n in enumerate(names))
    decorations = "\n".join(f"OpDecorate %{n} FPRoundingMode {n[2:]}" for n in names if not n.endswith("def"))
    k = simple([("a", f"pCW_{t}"), ("o", "pCW_float")], body, decorations=decorations)
    top = 1 << (width - 1)
    edge = [0, 1, -1, (1 << 24) + 1, (1 << 24) + 3, -(1 << 24) - 1, -(1 << 24) - 3, (1 << 25) + 2, (1 << 25) + 6,
            top - 1, -top, top - 64, top - 65, -top + 1, (1 << width) - 1, (1 << 53) + 1, 0x7FFFFF80, 0x7FFFFFC0,
            123456789, -987654321]
    rng = np.random.default_rng(width)
    values = [v % (1 << width) for v in edge] + [int(v) % (1 << width)
                                                 for v in rng.integers(0, 2 ** 63, 40, dtype=np.uint64)]
    values += [v | (1 << (width - 1)) for v in values[-20:]]
    o = np.zeros(10 * len(values), np.float32)
    k(len(values), None, u(values, width), o, unchecked=unchecked)
    expected = []
    for v in values:
        for s in (signed(v, width), v):
            expected += [round_exact(Fraction(s), "float", m) for m in ROUNDING] + [round_exact(Fraction(s), "float")]
    assert_same_floats(o, expected, "float")


@MODES
def test_float_narrowing_rounding_modes(unchecked):
    names = [f"{s}_{m}" for s in ("f", "h") for m in ROUNDING + ["def"]]
    body = ld("x", "double", "a", "gid") + ld("y", "float", "b", "gid") + slots(5, 5) + "".join(
        f"%{n} = OpFConvert %{'float' if n[0] == 'f' else 'half'} %{'x' if n[0] == 'f' else 'y'}\n" for n in names) \
        + "".join(st("o", f"o{i}", "float", n) for i, n in enumerate(names[:5])) \
        + "".join(st("oh", f"o{i}", "half", n) for i, n in enumerate(names[5:]))
    decorations = "\n".join(f"OpDecorate %{n} FPRoundingMode {n[2:]}" for n in names if not n.endswith("def"))
    k = simple([("a", "pCW_double"), ("b", "pCW_float"), ("o", "pCW_float"), ("oh", "pCW_half")], body,
               decorations=decorations)
    doubles = [1 / 3, -1 / 3, 0.1, -0.1, 1e300, -1e300, 1e-50, -1e-50, 1.5 * 2.0 ** -149, 2.0 ** -150,
               -(2.0 ** -150), 3.4028235677973366e38, 3.4028234663852886e38, 3.40282357e38, -3.40282357e38,
               1 + 2.0 ** -24, 1 + 3 * 2.0 ** -24, 2.0 ** -126 * (1 - 2.0 ** -30), 0.0, -0.0, math.inf, -math.inf,
               math.nan, 123456789.123]
    floats = [1 / 3, -1 / 3, 0.1, 65504.0, 65519.99, 65520.0, -65520.0, 1e6, 1e-8, -1e-8, 2.0 ** -25,
              1.5 * 2.0 ** -24, 2.0 ** -14 * (1 - 2.0 ** -12), 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 0.0, -0.0,
              math.inf, -math.inf, math.nan, 3.14159, -2.71828, 1e-5, 7.0]
    n = max(len(doubles), len(floats))
    doubles += [0.5] * (n - len(doubles))
    floats = np.array(floats + [0.5] * (n - len(floats)), np.float32)
    o = np.zeros(5 * n, np.float32)
    oh = np.zeros(5 * n, np.float16)
    k(n, None, np.array(doubles), floats, o, oh, unchecked=unchecked)
    exp_f = [round_exact(d, "float", m) for d in doubles for m in ROUNDING + ["RTE"]]
    exp_h = [round_exact(float(f), "half", m) for f in floats for m in ROUNDING + ["RTE"]]
    assert_same_floats(o, exp_f, "float")
    assert_same_floats(oh, exp_h, "half")


@MODES
def test_float_to_int_saturated(unchecked):
    conv = [("s8", "OpConvertFToS", "uchar"), ("u8", "OpConvertFToU", "uchar"), ("s32", "OpConvertFToS", "uint"),
            ("u32", "OpConvertFToU", "uint"), ("s64", "OpConvertFToS", "ulong"), ("u64", "OpConvertFToU", "ulong"),
            ("rte", "OpConvertFToS", "uint"), ("rtp", "OpConvertFToS", "uint"), ("rtn", "OpConvertFToS", "uint"),
            ("rtz", "OpConvertFToU", "uint")]
    body = ld("x", "float", "a", "gid") + "".join(f"%{n} = {op} %{t} %x\n" for n, op, t in conv) + "".join(
        f"%{n}_w = OpUConvert %ulong %{n}\n" for n, _, t in conv if t != "ulong") + slots(10, 10) + "".join(
        st("o", f"o{i}", "ulong", n if t == "ulong" else f"{n}_w") for i, (n, _, t) in enumerate(conv))
    decorations = "\n".join(f"OpDecorate %{n} SaturatedConversion" for n, _, _ in conv) + "\n" + "\n".join(
        f"OpDecorate %{m} FPRoundingMode {m.upper()}" for m in ("rte", "rtp", "rtn", "rtz"))
    k = simple([("a", "pCW_float"), ("o", "pCW_ulong")], body, decorations=decorations)
    xs = [math.nan, -math.nan, math.inf, -math.inf, 1e10, -1e10, 1e20, -1e20, 127.9, 128.0, -128.9, -129.0, 255.5,
          256.0, -0.5, 3.7, -3.7, 2.5, -2.5, 3.5, 0.0, -0.0, 2147483520.0, 2147483648.0, -2147483648.0, 4294967040.0,
          4294967296.0, 9.2233715e18, 9.223372e18, 1.8446743e19, 1.8446744e19, 0.49999997, -1.5, 65535.5]
    a = np.array(xs, np.float32)
    o = np.zeros(10 * len(xs), np.uint64)
    k(len(xs), None, a, o, unchecked=unchecked)
    rounders = {"trunc": math.trunc, "rte": round, "rtp": math.ceil, "rtn": math.floor, "rtz": math.trunc}
    for x, row in zip(a.tolist(), o.reshape(-1, 10).tolist()):
        expected = []
        for n, op, t in conv:
            width = {"uchar": 8, "uint": 32, "ulong": 64}[t]
            lo, hi = ((-(1 << (width - 1)), (1 << (width - 1)) - 1) if op == "OpConvertFToS" else (0, (1 << width) - 1))
            if math.isnan(x):
                v = 0
            elif math.isinf(x):
                v = hi if x > 0 else lo
            else:
                v = min(max(rounders.get(n, math.trunc)(Fraction(x)), lo), hi)
            expected.append(v % (1 << width))
        assert row == expected, x


@MODES
def test_integer_saturated_conversions(unchecked):
    convs = [  # name, opcode, result type, source, saturated decoration
        ("a", "OpSConvert", "uchar", "x", True), ("b", "OpUConvert", "uchar", "x", True),
        ("c", "OpSatConvertSToU", "uchar", "x", False), ("d", "OpSatConvertUToS", "uchar", "x", False),
        ("e", "OpSConvert", "ushort", "y", True), ("f", "OpUConvert", "uint", "y", True),
        ("g", "OpSatConvertSToU", "uint", "y", False), ("h", "OpSatConvertUToS", "uint", "y", False),
        ("i", "OpSConvert", "ulong", "x", False), ("j", "OpUConvert", "ulong", "x", False),
        ("k", "OpSatConvertSToU", "uint", "x8", False), ("l", "OpSConvert", "uchar", "x", False),
    ]
    body = ld("x", "uint", "a", "gid") + ld("y", "ulong", "b", "gid") + "%x8 = OpUConvert %uchar %x\n" + "".join(
        f"%r{n} = {op} %{t} %{src}\n" for n, op, t, src, _ in convs) + "".join(
        f"%r{n}_w = OpUConvert %ulong %r{n}\n" for n, _, t, _, _ in convs if t != "ulong") + slots(12, 12) + "".join(
        st("o", f"o{i}", "ulong", f"r{n}" if t == "ulong" else f"r{n}_w") for i, (n, _, t, _, _) in enumerate(convs))
    decorations = "\n".join(f"OpDecorate %r{n} SaturatedConversion" for n, *_, sat in convs if sat)
    k = simple([("a", "pCW_uint"), ("b", "pCW_ulong"), ("o", "pCW_ulong")], body, decorations=decorations)
    xs = [0, 1, 127, 128, 255, 256, -1, -128, -129, 0x7FFFFFFF, -0x80000000, 40000, -40000, 0x80000000]
    ys = [0, 1, 32767, 32768, -32768, -32769, 2 ** 32 - 1, 2 ** 32, -1, 2 ** 63 - 1, -(2 ** 63), 2 ** 31, -(2 ** 31),
          0x7FFFFFFF]
    o = np.zeros(12 * len(xs), np.uint64)
    k(len(xs), None, u(xs), u(ys, 64), o, unchecked=unchecked)

    def clamp(v, lo, hi):
        return min(max(v, lo), hi)

    for x, y, row in zip(xs, ys, o.reshape(-1, 12).tolist()):
        sx, ux, sy, uy = signed(x, 32), x % 2 ** 32, signed(y, 64), y % 2 ** 64
        s8 = signed(x & 0xFF, 8)
        assert row == [clamp(sx, -128, 127) & 0xFF, clamp(ux, 0, 255), clamp(sx, 0, 255), clamp(ux, 0, 127),
                       clamp(sy, -32768, 32767) & 0xFFFF, clamp(uy, 0, 2 ** 32 - 1), clamp(sy, 0, 2 ** 32 - 1),
                       clamp(uy, 0, 2 ** 31 - 1), sx % 2 ** 64, ux, max(s8, 0), x & 0xFF], (x, y)


@MODES
def test_quantize_to_f16(unchecked):
    """OpQuantizeToF16 needs the Shader capability, which OpenCL 2.2 does not allow: the module
    declares Shader as well and is validated for the universal SPIR-V 1.2 environment."""
    body = ld("x", "float", "a", "gid") + "%q = OpQuantizeToF16 %float %x\n" + st("o", "gid", "float", "q")
    k = simple([("a", "pCW_float"), ("o", "pCW_float")], body, capabilities=("Shader",), env="spv1.2")
    xs = np.array([1.0, -1.0, 1 / 3, 65504.0, 65519.0, 65520.0, -70000.0, 2.0 ** -14, 2.0 ** -15, -(2.0 ** -20),
                   1.0009765625 + 2.0 ** -12, 1 + 3 * 2.0 ** -11, math.inf, -math.inf, math.nan, 0.0, 1e-30],
                  np.float32)
    o = np.zeros_like(xs)
    k(len(xs), None, xs, o, unchecked=unchecked)
    for x, q in zip(xs.tolist(), o.tolist()):
        if math.isnan(x):
            assert math.isnan(q)
            continue
        r = round_exact(x, "half")
        if abs(r) < 2.0 ** -14:
            assert q == 0, x   # too small for a normal half: +0 or -0
        else:
            assert q == r, (x, q, r)


# ======== composites ============================================================================
@MODES
def test_vector_shuffle(unchecked):
    body = ld("va", "v4uint", "a", "gid") + ld("vb", "v2uint", "b", "gid") + """
%s8 = OpVectorShuffle %v8uint %va %vb 0 5 1 4 4294967295 3 2 5
%s3 = OpVectorShuffle %v3uint %vb %va 5 0 1
%s16 = OpVectorShuffle %v16uint %va %va 7 6 5 4 3 2 1 0 0 1 2 3 4 5 6 7
%s2 = OpVectorShuffle %v2uint %vb %vb 3 0
""" + st("o8", "gid", "v8uint", "s8") + st("o3", "gid", "v3uint", "s3") + st("o16", "gid", "v16uint", "s16") \
        + st("o2", "gid", "v2uint", "s2")
    k = simple([("a", "pCW_v4uint"), ("b", "pCW_v2uint"), ("o8", "pCW_v8uint"), ("o3", "pCW_v3uint"),
                ("o16", "pCW_v16uint"), ("o2", "pCW_v2uint")], body)
    n = 5
    a = np.arange(4 * n, dtype=np.uint32).reshape(n, 4) + 100
    b = np.arange(2 * n, dtype=np.uint32).reshape(n, 2) + 900
    o8, o3, o16, o2 = (aligned_zeros((n, w), np.uint32) for w in (8, 4, 16, 2))
    k(n, None, a, b, o8, o3, o16, o2, unchecked=unchecked)
    for i in range(n):
        ab = list(a[i]) + list(b[i])
        ba = list(b[i]) + list(a[i])
        got8 = o8[i].tolist()
        assert got8[:4] + got8[5:] == [ab[j] for j in (0, 5, 1, 4, 3, 2, 5)]
        assert o3[i, :3].tolist() == [ba[j] for j in (5, 0, 1)]
        aa = list(a[i]) * 2
        assert o16[i].tolist() == [aa[j] for j in (7, 6, 5, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5, 6, 7)]
        assert o2[i].tolist() == [b[i, 1], b[i, 0]]


@MODES
def test_vector_extract_insert_dynamic(unchecked):
    body = ld("v", "v4uint", "a", "gid") + ld("w", "v16uint", "b", "gid") + ld("ix", "uint", "c", "gid") + """
%i4 = OpUMod %uint %ix %uint_4
%i16 = OpUMod %uint %ix %uint_16
%il = OpUConvert %ulong %i16
%e = OpVectorExtractDynamic %uint %v %i4
%e16 = OpVectorExtractDynamic %uint %w %il
%v2 = OpVectorInsertDynamic %v4uint %v %uint_99 %i4
%w2 = OpVectorInsertDynamic %v16uint %w %e %il
""" + st("oe", "gid", "uint", "e") + st("oe16", "gid", "uint", "e16") + st("ov", "gid", "v4uint", "v2") \
        + st("ow", "gid", "v16uint", "w2")
    k = simple([("a", "pCW_v4uint"), ("b", "pCW_v16uint"), ("c", "pCW_uint"), ("oe", "pCW_uint"),
                ("oe16", "pCW_uint"), ("ov", "pCW_v4uint"), ("ow", "pCW_v16uint")], body)
    n = 20
    rng = np.random.default_rng(2)
    a = rng.integers(0, 1000, (n, 4)).astype(np.uint32)
    b = aligned(rng.integers(0, 1000, (n, 16)).astype(np.uint32))
    ix = np.arange(n, dtype=np.uint32) * 7
    oe, oe16 = np.zeros(n, np.uint32), np.zeros(n, np.uint32)
    ov, ow = np.zeros_like(a), aligned_zeros(b.shape, b.dtype)
    k(n, None, a, b, ix, oe, oe16, ov, ow, unchecked=unchecked)
    for i in range(n):
        i4, i16 = int(ix[i]) % 4, int(ix[i]) % 16
        assert oe[i] == a[i, i4] and oe16[i] == b[i, i16]
        va, wb = a[i].copy(), b[i].copy()
        va[i4] = 99
        wb[i16] = a[i, i4]
        assert ov[i].tolist() == va.tolist() and ow[i].tolist() == wb.tolist()


@pytest.mark.parametrize("n", [2, 3, 4, 8, 16])
@MODES
def test_vectors_of_every_width(n, unchecked):
    """Vector loads and stores (a 3-vector occupies 4 elements), integer and float vector
    arithmetic, OpVectorTimesScalar, OpDot, and a by-value vector argument."""
    vu, vf = f"v{n}uint", f"v{n}float"
    body = ld("va", vu, "a", "gid") + ld("vb", vf, "b", "gid") + f"""
%sq = OpIMul %{vu} %va %va
%r = OpIAdd %{vu} %sq %s
%g = OpVectorTimesScalar %{vf} %vb %float_2
%h = OpFSub %{vf} %g %vb
%d = OpDot %float %h %vb
%last = OpCompositeExtract %uint %r {n - 1}
""" + st("o", "gid", vu, "r") + st("of", "gid", vf, "g") + st("od", "gid", "float", "d") \
        + st("ol", "gid", "uint", "last")
    k = simple([("a", f"pCW_{vu}"), ("b", f"pCW_{vf}"), ("s", vu), ("o", f"pCW_{vu}"), ("of", f"pCW_{vf}"),
                ("od", "pCW_float"), ("ol", "pCW_uint")], body)
    items, stride = 33, 4 if n == 3 else n
    rng = np.random.default_rng(n)
    a = aligned(rng.integers(0, 2 ** 32, (items, stride), dtype=np.uint64).astype(np.uint32))
    b = aligned(rng.integers(-64, 64, (items, stride)).astype(np.float32))
    s = np.arange(1, n + 1, dtype=np.uint32) * 1000
    o, of = aligned_zeros(a.shape, a.dtype), aligned_zeros(b.shape, b.dtype)
    od, ol = np.zeros(items, np.float32), np.zeros(items, np.uint32)
    k(items, None, a, b, s, o, of, od, ol, unchecked=unchecked)
    expected = (a[:, :n].astype(np.uint64) ** 2 + s) % 2 ** 32
    assert (o[:, :n] == expected).all()
    assert (of[:, :n] == 2 * b[:, :n]).all()
    assert (od == (b[:, :n].astype(np.float64) ** 2).sum(axis=1)).all()   # small integers: exact
    assert (ol == expected[:, n - 1]).all()


@MODES
def test_by_value_arguments(unchecked):
    types = "%S = OpTypeStruct %uchar %uint %double %ushort"
    body = """
%cw = OpUConvert %ulong %c
%sw = OpUConvert %ulong %sh
%iw = OpUConvert %ulong %i
%hf = OpFConvert %double %h
%ff = OpFConvert %double %f
%s0 = OpCompositeExtract %uchar %st 0
%s1 = OpCompositeExtract %uint %st 1
%s2 = OpCompositeExtract %double %st 2
%s3 = OpCompositeExtract %ushort %st 3
%s0w = OpUConvert %ulong %s0
%s1w = OpUConvert %ulong %s1
%s3w = OpUConvert %ulong %s3
%v1 = OpCompositeExtract %ushort %v 1
%v1w = OpUConvert %ulong %v1
%bits_h = OpBitcast %ulong %hf
%bits_f = OpBitcast %ulong %ff
%bits_d = OpBitcast %ulong %d
%bits_s2 = OpBitcast %ulong %s2
""" + slots(12, 12, index="ulong_0") + "".join(
        st("o", f"o{i}", "ulong", v) for i, v in enumerate(
            ["cw", "sw", "iw", "l", "bits_h", "bits_f", "bits_d", "s0w", "s1w", "bits_s2", "s3w", "v1w"]))
    k = simple([("c", "uchar"), ("sh", "ushort"), ("i", "uint"), ("l", "ulong"), ("h", "half"), ("f", "float"),
                ("d", "double"), ("st", "S"), ("v", "v3ushort"), ("o", "pCW_ulong")], body, types=types, gid=False)
    sdt = np.dtype([("a", np.uint8), ("b", np.uint32), ("c", np.float64), ("d", np.uint16)], align=True)
    sval = np.array([(200, 0xDEADBEEF, -2.5, 65535)], sdt)[0]
    o = np.zeros(12, np.uint64)
    k(1, None, np.uint8(255), -2, 2 ** 32 - 1, -(2 ** 63), np.float16(0.333), 1.5, math.pi, sval,
      np.array([1, 65535, 3]), o, unchecked=unchecked)
    as_bits = lambda v: struct.unpack("<Q", struct.pack("<d", v))[0]  # noqa: E731
    assert o.tolist() == [255, 65534, 2 ** 32 - 1, 2 ** 63, as_bits(float(np.float16(0.333))), as_bits(1.5),
                          as_bits(math.pi), 200, 0xDEADBEEF, as_bits(-2.5), 65535, 65535]


# ======== memory ================================================================================
COPY_TYPES = """
%arr3f = OpTypeArray %float %uint_3
%S = OpTypeStruct %uint %ulong %arr3f
%pCW_S = OpTypePointer CrossWorkgroup %S
%pFn_S = OpTypePointer Function %S
"""


@MODES
def test_copy_memory(unchecked):
    """OpCopyMemory of a struct to a private variable and back; OpCopyMemorySized of a
    run-time number of bytes (the bytes after it stay as they were)."""
    body = """
%tmp = OpVariable %pFn_S Function
""" + GID + """
%src = OpInBoundsPtrAccessChain %pCW_S %a %gid
%dst = OpInBoundsPtrAccessChain %pCW_S %b %gid
OpCopyMemory %tmp %src
%fa = OpInBoundsAccessChain %pFn_uint %tmp %uint_0
%va = OpLoad %uint %fa
%va1 = OpIAdd %uint %va %uint_1
OpStore %fa %va1
%fc = OpInBoundsAccessChain %pFn_float %tmp %uint_2 %uint_1
OpStore %fc %float_0p5
OpCopyMemory %dst %tmp
%n = OpLoad %uint %nptr_p
%nl = OpUConvert %ulong %n
%at = OpIMul %ulong %gid %ulong_16
%from = OpInBoundsPtrAccessChain %pCW_uchar %bytes_in %at
%to = OpInBoundsPtrAccessChain %pCW_uchar %bytes_out %at
OpCopyMemorySized %to %from %nl
"""
    body = body.replace("%nptr_p", "%np_")
    body = body.replace("%n = OpLoad %uint %np_", "%np_ = OpInBoundsPtrAccessChain %pCW_uint %sizes %gid\n"
                                                  "%n = OpLoad %uint %np_")
    fn, fn_type = kernel_function([("a", "pCW_S"), ("b", "pCW_S"), ("sizes", "pCW_uint"), ("bytes_in", "pCW_uchar"),
                                   ("bytes_out", "pCW_uchar")], "", gid=False)
    fn = fn.replace("%main_entry = OpLabel\n", "%main_entry = OpLabel\n" + body)
    k = program(fn, types=COPY_TYPES + fn_type).kernel("main")
    sdt = np.dtype([("a", np.uint32), ("b", np.uint64), ("c", np.float32, 3)], align=True)
    assert sdt.itemsize == 32
    n = 16
    a = np.zeros(n, sdt)
    a["a"] = np.arange(n) * 10
    a["b"] = np.arange(n, dtype=np.uint64) << np.uint64(40)
    a["c"] = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
    b = np.zeros(n, sdt)
    sizes = u([i % 17 for i in range(n)])
    bytes_in = np.arange(16 * n, dtype=np.uint8)
    bytes_out = np.full(16 * n, 0xAA, np.uint8)
    k(n, None, a, b, sizes, bytes_in, bytes_out, unchecked=unchecked)
    assert (b["a"] == a["a"] + 1).all() and (b["b"] == a["b"]).all()
    expected_c = a["c"].copy()
    expected_c[:, 1] = 0.5
    assert (b["c"] == expected_c).all()
    for i in range(n):
        row = bytes_out[16 * i:16 * i + 16]
        m = i % 17
        assert (row[:m] == bytes_in[16 * i:16 * i + m]).all() and (row[m:] == 0xAA).all(), i


STRUCT_TYPES = """
%arr3f = OpTypeArray %float %uint_3
%T = OpTypeStruct %ushort %arr3f %ulong
%pCW_T = OpTypePointer CrossWorkgroup %T
%arr4u = OpTypeArray %uint %uint_4
%pCW_arr4u = OpTypePointer CrossWorkgroup %arr4u
"""


@MODES
def test_ptr_access_chain_into_arrays_of_structs(unchecked):
    body = """
%tag = OpUConvert %ushort %gid
%ptag = OpPtrAccessChain %pCW_ushort %s %gid %uint_0
OpStore %ptag %tag
%gf = OpConvertUToF %float %gid
%pv0 = OpPtrAccessChain %pCW_float %s %gid %uint_1 %uint_0
%pv2 = OpInBoundsPtrAccessChain %pCW_float %s %gid %uint_1 %ulong_2
OpStore %pv0 %gf
%g2 = OpFMul %float %gf %float_2
OpStore %pv2 %g2
%pid = OpInBoundsPtrAccessChain %pCW_ulong %s %gid %uint_2
%id = OpIMul %ulong %gid %ulong_1000
OpStore %pid %id
%end = OpPtrAccessChain %pCW_T %src %n
%back = OpISub %ulong %ulong_0 %gid
%back1 = OpISub %ulong %back %ulong_1
%rev = OpPtrAccessChain %pCW_T %end %back1
%whole = OpLoad %T %rev
%dstp = OpPtrAccessChain %pCW_T %dst %gid
OpStore %dstp %whole
%row = OpShiftRightLogical %ulong %gid %ulong_2
%col = OpBitwiseAnd %ulong %gid %ulong_3
%cell = OpPtrAccessChain %pCW_uint %m %row %col
%gu = OpUConvert %uint %gid
OpStore %cell %gu
"""
    k = simple([("s", "pCW_T"), ("src", "pCW_T"), ("dst", "pCW_T"), ("n", "ulong"), ("m", "pCW_arr4u")], body,
               types=STRUCT_TYPES)
    tdt = np.dtype([("tag", np.uint16), ("v", np.float32, 3), ("id", np.uint64)], align=True)
    assert tdt.itemsize == 24 and tdt.fields["v"][1] == 4 and tdt.fields["id"][1] == 16
    n = 12
    s = np.zeros(n, tdt)
    s["v"][:, 1] = 7
    src = np.zeros(n, tdt)
    src["tag"] = np.arange(n) + 500
    src["v"] = np.arange(3 * n).reshape(n, 3)
    src["id"] = np.arange(n) * 3
    dst = np.zeros(n, tdt)
    m = np.zeros((3, 4), np.uint32)
    k(n, None, s, src, dst, n, m, unchecked=unchecked)
    g = np.arange(n)
    assert (s["tag"] == g).all() and (s["v"][:, 0] == g).all() and (s["v"][:, 1] == 7).all()
    assert (s["v"][:, 2] == 2 * g).all() and (s["id"] == g * 1000).all()
    for name in ("tag", "v", "id"):
        assert (dst[name] == src[name][::-1]).all()
    assert m.reshape(-1).tolist() == list(range(n))


@MODES
def test_pointer_compare_and_difference(unchecked):
    """OpPtrEqual, OpPtrNotEqual, OpPtrDiff (SPIR-V 1.4)."""
    body = ld("j", "ulong", "idx", "gid") + """
%p = OpInBoundsPtrAccessChain %pCW_uint %a %gid
%q = OpInBoundsPtrAccessChain %pCW_uint %a %j
%eq = OpPtrEqual %bool %p %q
%ne = OpPtrNotEqual %bool %p %q
%diff = OpPtrDiff %ulong %p %q
%eqv = OpSelect %ulong %eq %ulong_1 %ulong_0
%nev = OpSelect %ulong %ne %ulong_1 %ulong_0
""" + slots(3, 3) + st("o", "o0", "ulong", "eqv") + st("o", "o1", "ulong", "nev") + st("o", "o2", "ulong", "diff")
    k = simple([("a", "pCW_uint"), ("idx", "pCW_ulong"), ("o", "pCW_ulong")], body, env="spv1.4")
    n = 10
    j = u([3, 1, 2, 9, 4, 0, 6, 7, 8, 0], 64)
    o = np.zeros(3 * n, np.uint64)
    k(n, None, np.zeros(n, np.uint32), j, o, unchecked=unchecked)
    for i, row in enumerate(o.reshape(-1, 3).tolist()):
        assert row == [int(i == j[i]), int(i != j[i]), (i - int(j[i])) % 2 ** 64]


@MODES
def test_generic_pointers(unchecked):
    """Casts to generic and back; OpGenericCastToPtrExplicit gives null for the wrong storage
    class (a global pointer cast to Workgroup ...); OpGenericPtrMemSemantics."""
    body = """
%fv = OpVariable %pFn_uint Function
""" + GID + """
%gp = OpInBoundsPtrAccessChain %pCW_uint %g %gid
%gg = OpPtrCastToGeneric %pGen_uint %gp
%wg = OpPtrCastToGeneric %pGen_uint %wv
%fg = OpPtrCastToGeneric %pGen_uint %fv
""" + "".join(f"""
%{src}_{sc} = OpGenericCastToPtrExplicit %p{sc}_uint %{src}g {storage}
%{src}_{sc}_a = OpConvertPtrToU %ulong %{src}_{sc}
%{src}_{sc}_nz = OpINotEqual %bool %{src}_{sc}_a %ulong_0
%{src}_{sc}_v = OpSelect %uint %{src}_{sc}_nz %uint_1 %uint_0
""" for src in ("g", "w", "f")
        for sc, storage in (("CW", "CrossWorkgroup"), ("WG", "Workgroup"), ("Fn", "Function"))) + """
%gsem = OpGenericPtrMemSemantics %uint %gg
%wsem = OpGenericPtrMemSemantics %uint %wg
%fsem = OpGenericPtrMemSemantics %uint %fg
%x = OpLoad %uint %gg
%x1 = OpIAdd %uint %x %uint_1
OpStore %fg %x1
%back = OpGenericCastToPtr %pFn_uint %fg
%y = OpLoad %uint %back
%y2 = OpIMul %uint %y %uint_2
%gback = OpGenericCastToPtr %pCW_uint %gg
OpStore %gback %y2
""" + slots(12, 12) + "".join(st("o", f"o{i}", "uint", f"{src}_{sc}_v") for i, (src, sc) in enumerate(
        (s, c) for s in ("g", "w", "f") for c in ("CW", "WG", "Fn"))) + st("o", "o9", "uint", "gsem") \
        + st("o", "o10", "uint", "wsem") + st("o", "o11", "uint", "fsem")
    fn, fn_type = kernel_function([("g", "pCW_uint"), ("o", "pCW_uint")], "", gid=False)
    fn = fn.replace("%main_entry = OpLabel\n", "%main_entry = OpLabel\n" + body)
    types = fn_type + "\n%wv = OpVariable %pWG_uint Workgroup"
    k = program(fn, types=types).kernel("main")
    n = 8
    g = np.arange(n, dtype=np.uint32) * 5
    o = np.zeros(12 * n, np.uint32)
    k(n, 4, g, o, unchecked=unchecked)
    assert g.tolist() == [(5 * i + 1) * 2 for i in range(n)]
    for row in o.reshape(-1, 12).tolist():
        assert row[:9] == [1, 0, 0, 0, 1, 0, 0, 0, 1]
        assert row[9] & 0x200 and not row[9] & 0x100      # CrossWorkgroupMemory
        assert row[10] & 0x100 and not row[10] & 0x200    # WorkgroupMemory
        assert not row[11] & 0x300


CALL_FUNCTIONS = """
%pick = OpFunction %pCW_uint None %fn_pick
%pa = OpFunctionParameter %pCW_uint
%pb = OpFunctionParameter %pCW_uint
%pc = OpFunctionParameter %bool
%pick_e = OpLabel
OpBranchConditional %pc %ra %rb
%ra = OpLabel
OpReturnValue %pa
%rb = OpLabel
OpReturnValue %pb
OpFunctionEnd
%addto = OpFunction %void None %fn_addto
%dst = OpFunctionParameter %pFn_uint
%val = OpFunctionParameter %uint
%addto_e = OpLabel
%old = OpLoad %uint %dst
%new = OpIAdd %uint %old %val
OpStore %dst %new
OpReturn
OpFunctionEnd
%elem = OpFunction %pCW_uint None %fn_elem
%base = OpFunctionParameter %pCW_uint
%i = OpFunctionParameter %ulong
%elem_e = OpLabel
%e = OpPtrAccessChain %pCW_uint %base %i
OpReturnValue %e
OpFunctionEnd
"""


@MODES
def test_function_calls_with_pointers(unchecked):
    """Pointer parameters (global and private), pointer return values, and a pointer kept in
    a private variable."""
    body = """
%acc = OpVariable %pFn_uint Function %uint_0
%holder = OpVariable %pFn_pCW_uint Function
""" + GID + ld("x", "uint", "a", "gid") + ld("y", "uint", "b", "gid") + """
%r0 = OpFunctionCall %void %addto %acc %x
%r1 = OpFunctionCall %void %addto %acc %y
%lt = OpULessThan %bool %x %y
%p1 = OpPtrAccessChain %pCW_uint %o1 %gid
%p2 = OpPtrAccessChain %pCW_uint %o2 %gid
%dest = OpFunctionCall %pCW_uint %pick %p1 %p2 %lt
%sum = OpLoad %uint %acc
OpStore %dest %sum
%q = OpFunctionCall %pCW_uint %elem %o3 %gid
OpStore %holder %q
%q2 = OpLoad %pCW_uint %holder
%gu = OpUConvert %uint %gid
OpStore %q2 %gu
"""
    fn, fn_type = kernel_function([("a", "pCW_uint"), ("b", "pCW_uint"), ("o1", "pCW_uint"), ("o2", "pCW_uint"),
                                   ("o3", "pCW_uint")], "", gid=False)
    fn = fn.replace("%main_entry = OpLabel\n", "%main_entry = OpLabel\n" + body)
    types = fn_type + """
%fn_pick = OpTypeFunction %pCW_uint %pCW_uint %pCW_uint %bool
%fn_addto = OpTypeFunction %void %pFn_uint %uint
%fn_elem = OpTypeFunction %pCW_uint %pCW_uint %ulong"""
    k = program(CALL_FUNCTIONS + fn, types=types).kernel("main")
    n = 40
    rng = np.random.default_rng(5)
    a = rng.integers(0, 1000, n).astype(np.uint32)
    b = rng.integers(0, 1000, n).astype(np.uint32)
    o1, o2, o3 = (np.zeros(n, np.uint32) for _ in range(3))
    k(n, None, a, b, o1, o2, o3, unchecked=unchecked)
    lt = a < b
    assert (o1 == np.where(lt, a + b, 0)).all() and (o2 == np.where(lt, 0, a + b)).all()
    assert o3.tolist() == list(range(n))


# ----- program-scope variables ---------------------------------------------------------------------
GLOBALS_TYPES = """
%arr4u = OpTypeArray %uint %uint_4
%arr5u = OpTypeArray %uint %uint_5
%pCW_arr4u = OpTypePointer CrossWorkgroup %arr4u
%pUC_arr5u = OpTypePointer UniformConstant %arr5u
%tinit = OpConstantComposite %arr4u %uint_1 %uint_2 %uint_3 %uint_4
%lutinit = OpConstantComposite %arr5u %uint_11 %uint_22 %uint_33 %uint_44 %uint_55
%counter = OpVariable %pCW_uint CrossWorkgroup %uint_100
%table = OpVariable %pCW_arr4u CrossWorkgroup %tinit
%zeroed = OpVariable %pCW_ulong CrossWorkgroup
%lut = OpVariable %pUC_arr5u UniformConstant %lutinit
%fn_bump = OpTypeFunction %void
%fn_read = OpTypeFunction %void %pCW_uint %pCW_uint
"""
GLOBALS_FUNCTIONS = """
%bump = OpFunction %void None %fn_bump
%bump_e = OpLabel
""" + GID + """
%old = OpAtomicIAdd %uint %counter %uint_1 %uint_0x210 %uint_1
%slot = OpUMod %ulong %gid %ulong_4
%tp = OpInBoundsAccessChain %pCW_uint %table %slot
%gu = OpUConvert %uint %gid
%old2 = OpAtomicIAdd %uint %tp %uint_1 %uint_0x210 %gu
%zo = OpAtomicIIncrement %ulong %zeroed %uint_1 %uint_0x210
OpReturn
OpFunctionEnd
%read = OpFunction %void None %fn_read
%o = OpFunctionParameter %pCW_uint
%idx = OpFunctionParameter %pCW_uint
%read_e = OpLabel
""" + GID.replace("%gid", "%rgid") + """
%c = OpLoad %uint %counter
%o0 = OpPtrAccessChain %pCW_uint %o %ulong_0
OpStore %o0 %c
""" + "".join(f"""
%t{i}p = OpInBoundsAccessChain %pCW_uint %table %uint_{i}
%t{i} = OpLoad %uint %t{i}p
%o{i + 1} = OpPtrAccessChain %pCW_uint %o %ulong_{i + 1}
OpStore %o{i + 1} %t{i}
""" for i in range(4)) + """
%z = OpLoad %ulong %zeroed
%zu = OpUConvert %uint %z
%o5 = OpPtrAccessChain %pCW_uint %o %ulong_5
OpStore %o5 %zu
""" + ld("li", "uint", "idx", "rgid") + """
%lp = OpInBoundsAccessChain %pUC_uint %lut %li
%lv = OpLoad %uint %lp
%g6 = OpIAdd %ulong %rgid %ulong_6
%o6 = OpPtrAccessChain %pCW_uint %o %g6
OpStore %o6 %lv
OpReturn
OpFunctionEnd
"""


@MODES
def test_program_scope_variables(unchecked):
    """CrossWorkgroup variables with and without initialisers keep their values across launches
    of one Program and are shared by its kernels; a new Program starts afresh. A program-scope
    UniformConstant array is read at run-time indices."""
    def make():
        return program(GLOBALS_FUNCTIONS, types=GLOBALS_TYPES, entry_points=("bump", "read"),
                       capabilities=("Int64Atomics",), env="spv1.2")

    prog = make()
    bump, read = prog.kernel("bump"), prog.kernel("read")
    idx = u([4, 0, 3, 1, 2])
    o = np.zeros(11, np.uint32)
    read(5, None, o, idx, unchecked=unchecked)
    assert o.tolist() == [100, 1, 2, 3, 4, 0, 55, 11, 44, 22, 33]
    bump(64, 8, unchecked=unchecked)
    bump(64, None, unchecked=unchecked)
    read(5, None, o, idx, unchecked=unchecked)
    sums = [2 * sum(g for g in range(64) if g % 4 == s) for s in range(4)]
    assert o.tolist()[:6] == [228] + [t + s for t, s in zip([1, 2, 3, 4], sums)] + [128]
    fresh = make().kernel("read")
    fresh(5, None, o, idx, unchecked=unchecked)
    assert o.tolist()[:6] == [100, 1, 2, 3, 4, 0]


# ----- work-group memory and barriers --------------------------------------------------------------
BARRIER_TIMEOUT = 60   # a barrier bug that hangs fails the test instead of the run


@MODES
def test_workgroup_variable_with_partial_last_group(unchecked):
    types = """
%arr64 = OpTypeArray %uint %uint_64
%pWG_arr64 = OpTypePointer Workgroup %arr64
%tile = OpVariable %pWG_arr64 Workgroup
"""
    body = ld("x", "uint", "a", "gid") + """
%lid3 = OpLoad %v3ulong %LocalInvocationId
%lid = OpCompositeExtract %ulong %lid3 0
%ls3 = OpLoad %v3ulong %WorkgroupSize
%ls = OpCompositeExtract %ulong %ls3 0
%slot = OpInBoundsAccessChain %pWG_uint %tile %lid
OpStore %slot %x
OpControlBarrier %uint_2 %uint_2 %uint_0x110
%last = OpISub %ulong %ls %ulong_1
%mirror = OpISub %ulong %last %lid
%mp = OpInBoundsAccessChain %pWG_uint %tile %mirror
%y = OpLoad %uint %mp
""" + st("o", "gid", "uint", "y")
    k = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body, types=types)
    n, local = 150, 64
    a = np.arange(n, dtype=np.uint32) * 3
    o = np.zeros(n, np.uint32)
    k(n, local, a, o, unchecked=unchecked, timeout=BARRIER_TIMEOUT)
    expected = np.concatenate([a[s:s + local][::-1] for s in range(0, n, local)])
    assert (o == expected).all()


BARRIER_FUNCTIONS = """
%step = OpFunction %void None %fn_step
%st_t = OpFunctionParameter %pWG_uint
%st_l = OpFunctionParameter %ulong
%st_s = OpFunctionParameter %ulong
%step_e = OpLabel
%st_act = OpULessThan %bool %st_l %st_s
OpBranchConditional %st_act %st_add %st_join
%st_add = OpLabel
%st_pl = OpInBoundsPtrAccessChain %pWG_uint %st_t %st_l
%st_ls = OpIAdd %ulong %st_l %st_s
%st_pr = OpInBoundsPtrAccessChain %pWG_uint %st_t %st_ls
%st_vl = OpLoad %uint %st_pl
%st_vr = OpLoad %uint %st_pr
%st_sum = OpIAdd %uint %st_vl %st_vr
OpStore %st_pl %st_sum
OpBranch %st_join
%st_join = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_0x110
OpReturn
OpFunctionEnd
%sync = OpFunction %void None %fn_void
%sync_e = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_0x110
OpReturn
OpFunctionEnd
"""


def _reduction(via_function: bool):
    loop_body = ("%rc = OpFunctionCall %void %step %tile %lid %s\nOpBranch %latch\n" if via_function else """
%act = OpULessThan %bool %lid %s
OpBranchConditional %act %add %latch
%add = OpLabel
%pl = OpInBoundsPtrAccessChain %pWG_uint %tile %lid
%ls = OpIAdd %ulong %lid %s
%pr = OpInBoundsPtrAccessChain %pWG_uint %tile %ls
%vl = OpLoad %uint %pl
%vr = OpLoad %uint %pr
%sum = OpIAdd %uint %vl %vr
OpStore %pl %sum
OpBranch %latch
""")
    latch_barrier = "" if via_function else "OpControlBarrier %uint_2 %uint_2 %uint_0x110\n"
    first_barrier = "%sc = OpFunctionCall %void %sync\n" if via_function else \
        "OpControlBarrier %uint_2 %uint_2 %uint_0x110\n"
    body = ld("x", "uint", "a", "gid") + """
%lid3 = OpLoad %v3ulong %LocalInvocationId
%lid = OpCompositeExtract %ulong %lid3 0
%ls3 = OpLoad %v3ulong %WorkgroupSize
%lsz = OpCompositeExtract %ulong %ls3 0
%grp3 = OpLoad %v3ulong %WorkgroupId
%grp = OpCompositeExtract %ulong %grp3 0
%mine = OpInBoundsPtrAccessChain %pWG_uint %tile %lid
OpStore %mine %x
""" + first_barrier + """
%next = OpIAdd %ulong %lid %ulong_1
%wrap = OpUMod %ulong %next %lsz
%np = OpInBoundsPtrAccessChain %pWG_uint %tile %wrap
%nv = OpLoad %uint %np
""" + st("rot", "gid", "uint", "nv") + first_barrier.replace("%sc ", "%sc2 ") + """
%half = OpShiftRightLogical %ulong %lsz %ulong_1
OpBranch %head
%head = OpLabel
%s = OpPhi %ulong %half %main_entry %s2 %latch
%more = OpUGreaterThan %bool %s %ulong_0
OpBranchConditional %more %body %done
%body = OpLabel
""" + loop_body + """
%latch = OpLabel
""" + latch_barrier + """
%s2 = OpShiftRightLogical %ulong %s %ulong_1
OpBranch %head
%done = OpLabel
%first = OpIEqual %bool %lid %ulong_0
OpBranchConditional %first %write %end
%write = OpLabel
%p0 = OpInBoundsPtrAccessChain %pWG_uint %tile %ulong_0
%total = OpLoad %uint %p0
""" + st("o", "grp", "uint", "total") + """
OpBranch %end
%end = OpLabel
"""
    fn, fn_type = kernel_function([("a", "pCW_uint"), ("o", "pCW_uint"), ("rot", "pCW_uint"), ("tile", "pWG_uint")],
                                  body)
    types = fn_type + """
%fn_step = OpTypeFunction %void %pWG_uint %ulong %ulong"""
    return program((BARRIER_FUNCTIONS if via_function else "") + fn, types=types).kernel("main")


@pytest.mark.parametrize("via_function", [False, True], ids=["in_loop", "in_called_function"])
@MODES
def test_barriers_in_loops_and_calls(via_function, unchecked):
    """A tree reduction over a __local argument with OpControlBarrier inside the loop, either
    directly or in a called function (which also takes the __local pointer)."""
    k = _reduction(via_function)
    n, local = 512, 64
    rng = np.random.default_rng(9)
    a = rng.integers(0, 1 << 20, n).astype(np.uint32)
    o = np.zeros(n // local, np.uint32)
    rot = np.zeros(n, np.uint32)
    k(n, local, a, o, rot, spirvkit.LocalMemory(4 * local), unchecked=unchecked, timeout=BARRIER_TIMEOUT)
    assert (o == a.reshape(-1, local).sum(axis=1)).all()
    assert (rot.reshape(-1, local) == np.roll(a.reshape(-1, local), -1, axis=1)).all()


@MODES
def test_private_state_lives_across_barriers(unchecked):
    """Per-work-item SSA values and a private variable stay intact across barriers in a loop
    (and in a partial last group)."""
    body = """
%acc = OpVariable %pFn_uint Function
""" + GID + ld("x", "uint", "a", "gid") + """
OpStore %acc %x
%lid3 = OpLoad %v3ulong %LocalInvocationId
%lid = OpCompositeExtract %ulong %lid3 0
%ls3 = OpLoad %v3ulong %WorkgroupSize
%lsz = OpCompositeExtract %ulong %ls3 0
%mine = OpInBoundsPtrAccessChain %pWG_uint %tile %lid
%nx = OpIAdd %ulong %lid %ulong_1
%nw = OpUMod %ulong %nx %lsz
%theirs = OpInBoundsPtrAccessChain %pWG_uint %tile %nw
%salt = OpIMul %uint %x %uint_7
OpBranch %head
%head = OpLabel
%k = OpPhi %uint %uint_0 %main_entry %k1 %body
%more = OpULessThan %bool %k %uint_3
OpBranchConditional %more %body %done
%body = OpLabel
%cur = OpLoad %uint %acc
OpStore %mine %cur
OpControlBarrier %uint_2 %uint_2 %uint_0x110
%nb = OpLoad %uint %theirs
%k1 = OpIAdd %uint %k %uint_1
%w = OpIMul %uint %nb %k1
%cur2 = OpIAdd %uint %cur %w
%cur3 = OpBitwiseXor %uint %cur2 %salt
OpStore %acc %cur3
OpControlBarrier %uint_2 %uint_2 %uint_0x110
OpBranch %head
%done = OpLabel
%final = OpLoad %uint %acc
""" + st("o", "gid", "uint", "final")
    fn, fn_type = kernel_function([("a", "pCW_uint"), ("o", "pCW_uint"), ("tile", "pWG_uint")], "", gid=False)
    fn = fn.replace("%main_entry = OpLabel\n", "%main_entry = OpLabel\n" + body)
    k = program(fn, types=fn_type).kernel("main")
    n, local = 100, 32
    rng = np.random.default_rng(11)
    a = rng.integers(0, 1 << 16, n).astype(np.uint32)
    o = np.zeros(n, np.uint32)
    k(n, local, a, o, spirvkit.LocalMemory(4 * local), unchecked=unchecked, timeout=BARRIER_TIMEOUT)
    expected = []
    for start in range(0, n, local):
        acc = [int(v) for v in a[start:start + local]]
        salt = [(v * 7) & 0xFFFFFFFF for v in acc]
        for kk in range(3):
            tile = list(acc)
            acc = [((acc[i] + tile[(i + 1) % len(acc)] * (kk + 1)) & 0xFFFFFFFF) ^ salt[i] for i in range(len(acc))]
        expected += acc
    assert o.tolist() == expected


# ----- atomics -------------------------------------------------------------------------------------
ATOMIC_OPS = ["IAdd", "ISub", "IIncrement", "IDecrement", "SMin", "SMax", "UMin", "UMax", "And", "Or", "Xor"]


def _atomic_ops(t: str, ptr: str, scope: str, sem: str) -> str:
    lines = []
    for k, op in enumerate(ATOMIC_OPS):
        lines.append(ptr.format(k=k))
        value = "" if op in ("IIncrement", "IDecrement") else " %v"
        lines.append(f"%r{k} = OpAtomic{op} %{t} %ap{k} {scope} {sem}{value}")
    return "\n".join(lines) + "\n"


def _atomic_reference(t_width: int, values: list[int]) -> list[int]:
    m = (1 << t_width) - 1
    sv = [signed(v, t_width) for v in values]
    out = [sum(values) & m, -sum(values) & m, len(values) & m, -len(values) & m, min(sv) & m, max(sv) & m,
           min(values), max(values)]
    a, o, x = m, 0, 0
    for v in values:
        a, o, x = a & v, o | v, x ^ v
    return out + [a, o, x]


def _atomic_initial(width: int) -> list[int]:
    m = (1 << width) - 1
    return [0, 0, 0, 0, (1 << (width - 1)) - 1, 1 << (width - 1), m, 0, m, 0, 0]


@pytest.mark.parametrize("t,width", [("uint", 32), ("ulong", 64)])
@MODES
def test_atomics_on_global_memory(t, width, unchecked):
    body = """
%xp = OpInBoundsPtrAccessChain %pCW_T %x %gid
%v = OpAtomicLoad %T %xp %uint_1 %uint_0
""" + _atomic_ops("T", "%ap{k} = OpInBoundsPtrAccessChain %pCW_T %acc %ulong_{k}", "%uint_1", "%uint_0x210") + """
%xchp = OpInBoundsPtrAccessChain %pCW_T %acc %ulong_11
%old = OpAtomicExchange %T %xchp %uint_1 %uint_0x210 %v
""" + slots(3, 3) + st("o", "o0", "T", "old") + """
%slot = OpUMod %ulong %gid %ulong_16
%cp = OpInBoundsPtrAccessChain %pCW_T %cas %slot
%g1 = OpIAdd %ulong %gid %ulong_1
%g1t = OpUConvert %T %g1
%seen = OpAtomicCompareExchange %T %cp %uint_1 %uint_0x210 %uint_0 %g1t %T_0
""" + st("o", "o1", "T", "seen") + """
%v3 = OpIMul %T %v %T_3
%sp = OpInBoundsPtrAccessChain %pCW_T %o %o2
OpAtomicStore %sp %uint_1 %uint_0x210 %v3
"""
    body = body.replace("%T_0", f"%{t}_0").replace("%T_3", f"%{t}_3").replace("%pCW_T", f"%pCW_{t}") \
        .replace(" %T ", f" %{t} ").replace("%T\n", f"%{t}\n")
    body = body.replace("OpUConvert %T ", f"OpUConvert %{t} ")
    if t == "ulong":
        body = body.replace("%g1t = OpUConvert %ulong %g1", "%g1t = OpCopyObject %ulong %g1")
    k = simple([("x", f"pCW_{t}"), ("acc", f"pCW_{t}"), ("cas", f"pCW_{t}"), ("o", f"pCW_{t}")], body,
               capabilities=("Int64Atomics",) if width == 64 else (), env="spv1.2")
    n = 4096
    rng = np.random.default_rng(width)
    dtype = {32: np.uint32, 64: np.uint64}[width]
    x = rng.integers(0, 2 ** 63, n, dtype=np.uint64)
    if width == 64:
        x = x | (rng.integers(0, 2, n, dtype=np.uint64) << np.uint64(63))
    x = x.astype(dtype)
    acc = u(_atomic_initial(width) + [0xDEAD], width)
    cas = np.zeros(16, dtype)
    o = np.zeros(3 * n, dtype)
    k(n, 64, x, acc, cas, o, unchecked=unchecked)
    values = [int(v) for v in x]
    assert acc[:11].tolist() == _atomic_reference(width, values)
    rows = o.reshape(-1, 3)
    assert sorted(rows[:, 0].tolist() + [int(acc[11])]) == sorted(values + [0xDEAD])
    for s in range(16):
        members = list(range(s, n, 16))
        winners = [g for g in members if rows[g, 1] == 0]
        assert len(winners) == 1 and cas[s] == winners[0] + 1
        assert all(rows[g, 1] == winners[0] + 1 for g in members if g != winners[0])
    assert (rows[:, 2] == x * dtype(3)).all()


@pytest.mark.parametrize("t,width,local", [("uint", 32, "variable"), ("ulong", 64, "argument")])
@MODES
def test_atomics_on_workgroup_memory(t, width, local, unchecked):
    """Per-group accumulators in a Workgroup variable (32-bit) or a __local argument (64-bit):
    initialised by work-item 0, updated by all, read back after a barrier."""
    ptr = ("%ap{k} = OpInBoundsAccessChain %pWG_T %lacc %uint_{k}" if local == "variable"
           else "%ap{k} = OpInBoundsPtrAccessChain %pWG_T %lacc %ulong_{k}")
    init = "".join((ptr.format(k=k).replace("%ap", "%ip") + f"\nOpStore %ip{k} %T_init{k}\n") for k in range(11))
    body = ld("v", "T", "x", "gid") + """
%lin = OpLoad %ulong %LocalInvocationIndex
%grp3 = OpLoad %v3ulong %WorkgroupId
%grp = OpCompositeExtract %ulong %grp3 0
%first = OpIEqual %bool %lin %ulong_0
OpBranchConditional %first %init %go
%init = OpLabel
""" + init + """
OpBranch %go
%go = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_0x110
""" + _atomic_ops("T", ptr, "%uint_2", "%uint_0x110") + """
OpControlBarrier %uint_2 %uint_2 %uint_0x110
OpBranchConditional %first %fin %end
%fin = OpLabel
""" + slots(11, 11, index="grp") + "".join(f"""
%f{k} = OpAtomicLoad %T %ap{k} %uint_2 %uint_0x110
""" + st("o", f"o{k}", "T", f"f{k}") for k in range(11)) + """
OpBranch %end
%end = OpLabel
"""
    initial = _atomic_initial(width)
    consts = "\n".join(f"%T_init{k} = OpConstant %T {v}" for k, v in enumerate(initial))
    types = consts
    params = [("x", "pCW_T"), ("o", "pCW_T")]
    if local == "variable":
        types += "\n%arr11 = OpTypeArray %T %uint_11\n%pWG_arr11 = OpTypePointer Workgroup %arr11\n" \
                 "%lacc = OpVariable %pWG_arr11 Workgroup"
    else:
        params.append(("lacc", "pWG_T"))
    fix = lambda s: s.replace("_T ", f"_{t} ").replace("_T\n", f"_{t}\n").replace("%T ", f"%{t} ") \
        .replace("%T\n", f"%{t}\n").replace("%T_init", f"%{t}_init")  # noqa: E731
    k = simple([(p, fix(ty + " ").strip()) for p, ty in params], fix(body), types=fix(types),
               capabilities=("Int64Atomics",) if width == 64 else (), env="spv1.2")
    n, lsize = 2048, 128
    rng = np.random.default_rng(width + 1)
    dtype = {32: np.uint32, 64: np.uint64}[width]
    x = rng.integers(0, 2 ** 64 - 1, n, dtype=np.uint64, endpoint=True).astype(dtype)
    o = np.zeros(11 * (n // lsize), dtype)
    args = [x, o] + ([spirvkit.LocalMemory(8 * 11)] if local == "argument" else [])
    k(n, lsize, *args, unchecked=unchecked, timeout=BARRIER_TIMEOUT)
    for g, row in enumerate(o.reshape(-1, 11).tolist()):
        group = [int(v) for v in x[g * lsize:(g + 1) * lsize]]
        expected = _atomic_reference(width, group)
        assert row == expected, g



# ======== specialization constants ==============================================================
SPEC_DECORATIONS = """
OpDecorate %sc_u SpecId 0
OpDecorate %sc_b SpecId 1
OpDecorate %sc_f SpecId 2
OpDecorate %sc_l SpecId 3
OpDecorate %sc_c SpecId 4
"""
SPEC_TYPES = """
%sc_u = OpSpecConstant %uint 5
%sc_b = OpSpecConstantTrue %bool
%sc_f = OpSpecConstant %float 1.5
%sc_l = OpSpecConstant %ulong 4294967296
%sc_c = OpSpecConstant %uchar 200
%sc_v = OpSpecConstantComposite %v2uint %sc_u %uint_9
%sc_add = OpSpecConstantOp %uint IAdd %sc_u %uint_10
%sc_sel = OpSpecConstantOp %uint Select %sc_b %uint_111 %uint_222
%sc_ext = OpSpecConstantOp %uint CompositeExtract %sc_v 0
%sc_mul = OpSpecConstantOp %ulong IMul %sc_l %ulong_3
%sc_fm = OpSpecConstantOp %float FMul %sc_f %float_2
"""


@pytest.mark.parametrize("overrides", [None, {0: 7, 1: False, 2: 2.25, 3: 2 ** 40 + 1, 4: 255},
                                       {1: True, 4: 0}], ids=["defaults", "overridden", "partial"])
@MODES
def test_spec_constants(overrides, unchecked):
    body = """
%bu = OpSelect %uint %sc_b %uint_1 %uint_0
%fu = OpBitcast %uint %sc_f
%fmu = OpBitcast %uint %sc_fm
%vsum = OpCompositeExtract %uint %sc_v 1
%cu = OpUConvert %uint %sc_c
%lo = OpUConvert %uint %sc_mul
%hi64 = OpShiftRightLogical %ulong %sc_mul %uint_32
%hi = OpUConvert %uint %hi64
""" + slots(11, 11, index="ulong_0") + "".join(st("o", f"o{i}", "uint", v) for i, v in enumerate(
        ["sc_u", "bu", "fu", "sc_add", "sc_sel", "sc_ext", "vsum", "cu", "lo", "hi", "fmu"]))
    k = simple([("o", "pCW_uint")], body, types=SPEC_TYPES, decorations=SPEC_DECORATIONS, gid=False,
               spec_constants=overrides)
    o = np.zeros(11, np.uint32)
    k(1, None, o, unchecked=unchecked)
    values = {0: 5, 1: True, 2: 1.5, 3: 2 ** 32, 4: 200}
    values.update(overrides or {})
    f32 = lambda v: int(np.float32(v).view(np.uint32))  # noqa: E731
    mul = values[3] * 3 % 2 ** 64
    assert o.tolist() == [values[0], int(values[1]), f32(values[2]), values[0] + 10, 111 if values[1] else 222,
                          values[0], 9, values[4], mul & 0xFFFFFFFF, mul >> 32, f32(values[2] * 2)]


def test_spec_constant_array_length():
    """An array whose length is a specialization constant takes the overridden length."""
    types = """
%n = OpSpecConstant %uint 4
%arr = OpTypeArray %uint %n
%pFn_arr = OpTypePointer Function %arr
"""
    body = """
%buf = OpVariable %pFn_arr Function
%size = OpSizeOf %uint %buf
""" + GID + """
OpBranch %head
%head = OpLabel
%i = OpPhi %uint %uint_0 %main_entry %i1 %body
%more = OpULessThan %bool %i %n
OpBranchConditional %more %body %exit
%body = OpLabel
%slot = OpInBoundsAccessChain %pFn_uint %buf %i
OpStore %slot %i
%i1 = OpIAdd %uint %i %uint_1
OpBranch %head
%exit = OpLabel
%lastn = OpISub %uint %n %uint_1
%lp = OpInBoundsAccessChain %pFn_uint %buf %lastn
%last = OpLoad %uint %lp
""" + st("o", "ulong_0", "uint", "size") + st("o", "ulong_1", "uint", "last")
    fn, fn_type = kernel_function([("o", "pCW_uint")], "", gid=False)
    fn = fn.replace("%main_entry = OpLabel\n", "%main_entry = OpLabel\n" + body)
    binary = build(fn, types=types + fn_type, decorations="OpDecorate %n SpecId 0")
    o = np.zeros(2, np.uint32)
    spirvkit.Program(binary).kernel("main")(1, None, o)
    assert o.tolist() == [16, 3]
    spirvkit.Program(binary, spec_constants={0: 16}).kernel("main")(1, None, o)
    assert o.tolist() == [64, 15]


# ======== built-in variables ====================================================================
VECTOR_BUILTINS = ["GlobalInvocationId", "LocalInvocationId", "WorkgroupId", "NumWorkgroups", "WorkgroupSize",
                   "EnqueuedWorkgroupSize", "GlobalSize", "GlobalOffset"]
SCALAR_BUILTINS = ["GlobalLinearId", "LocalInvocationIndex", "WorkDim", "SubgroupSize", "SubgroupLocalInvocationId",
                   "SubgroupMaxSize", "NumSubgroups", "SubgroupId"]
ROW = 40


def _builtins_kernel():
    lines = ["%slot32 = OpAtomicIIncrement %uint %cnt %uint_1 %uint_0", "%slot = OpUConvert %ulong %slot32",
             slots(ROW, 34, index="slot")]
    col = 0
    for b in VECTOR_BUILTINS:
        lines.append(f"%{b}_v = OpLoad %v3ulong %{b}")
        for d in range(3):
            lines.append(f"%{b}_{d} = OpCompositeExtract %ulong %{b}_v {d}")
            lines.append(st("o", f"o{col}", "ulong", f"{b}_{d}"))
            col += 1
    for b in SCALAR_BUILTINS:
        wide = b in ("GlobalLinearId", "LocalInvocationIndex")
        lines.append(f"%{b}_s = OpLoad %{'ulong' if wide else 'uint'} %{b}")
        if not wide:
            lines.append(f"%{b}_w = OpUConvert %ulong %{b}_s")
        lines.append(st("o", f"o{col}", "ulong", f"{b}_{'s' if wide else 'w'}"))
        col += 1
    lines += ["%gs1p = OpAccessChain %pIn_ulong %GlobalSize %uint_1", "%gs1 = OpLoad %ulong %gs1p",
              st("o", f"o{col}", "ulong", "gs1"),
              "%gdp = OpAccessChain %pIn_ulong %GlobalInvocationId %dim", "%gd = OpLoad %ulong %gdp",
              st("o", f"o{col + 1}", "ulong", "gd")]
    return simple([("o", "pCW_ulong"), ("cnt", "pCW_uint"), ("dim", "uint")], "\n".join(lines), gid=False)


@pytest.mark.parametrize("global_size,local_size,offset", [
    ((10,), (4,), None),
    ((10,), (4,), (7,)),
    ((5, 3), (2, 2), (1, 2)),
    ((3, 4, 5), (2, 3, 2), (7, 0, 1)),
    ((4, 4, 2), (4, 2, 1), None),
], ids=["1d", "1d-offset", "2d-offset", "3d-offset", "3d-uniform"])
@MODES
def test_builtins(global_size, local_size, offset, unchecked):
    k = _builtins_kernel()
    dim = len(global_size)
    pad = lambda v, fill: tuple(v) + (fill,) * (3 - len(v))  # noqa: E731
    gs, ls, off = pad(global_size, 1), pad(local_size, 1), pad(offset or (0,) * dim, 0)
    total = int(np.prod(gs))
    o = np.zeros(total * ROW, np.uint64)
    cnt = np.zeros(1, np.uint32)
    which = dim - 1
    k(global_size, local_size, o, cnt, which, global_offset=offset, unchecked=unchecked)
    assert cnt[0] == total
    groups = tuple(-(-g // l) for g, l in zip(gs, ls))
    expected = {}
    for gz in range(groups[2]):
        for gy in range(groups[1]):
            for gx in range(groups[0]):
                grp = (gx, gy, gz)
                size = tuple(min(l, g - i * l) for g, l, i in zip(gs, ls, grp))
                for lz in range(size[2]):
                    for ly in range(size[1]):
                        for lx in range(size[0]):
                            lid = (lx, ly, lz)
                            gid = tuple(i * l + x + o_ for i, l, x, o_ in zip(grp, ls, lid, off))
                            linear = ((gid[2] - off[2]) * gs[1] + gid[1] - off[1]) * gs[0] + gid[0] - off[0]
                            lin_local = (lz * size[1] + ly) * size[0] + lx
                            expected[gid] = list(gid) + list(lid) + list(grp) + list(groups) + list(size) \
                                + list(ls) + list(gs) + list(off) + [linear, lin_local, dim]
                            expected[gid].append(size[0] * size[1] * size[2])   # group size, for the checks
    rows = o.reshape(-1, ROW)[:, :34].tolist()
    seen = {}
    for row in rows:
        gid = tuple(row[:3])
        assert gid not in seen, gid
        seen[gid] = row
    assert set(seen) == set(expected)
    subgroups: dict[tuple, set] = {}
    for gid, row in seen.items():
        exp = expected[gid]
        assert row[:27] == exp[:27], gid
        sg_size, sg_local, sg_max, sg_count, sg_id = row[27:32]
        group_items = exp[27]
        assert 1 <= sg_size <= sg_max and sg_local < sg_size and sg_id < sg_count
        assert sg_count * sg_max >= group_items
        key = tuple(row[6:9])
        assert (sg_id, sg_local) not in subgroups.setdefault(key, set())
        subgroups[key].add((sg_id, sg_local))
        assert row[32] == gs[1] and row[33] == gid[which]

