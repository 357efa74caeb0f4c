"""The GLSL.std.450 accuracy sweep: every floating-point instruction of the set, run through a
GLCompute shader on spirvkit.vk (single precision: the Vulkan environment's precision table is
for 32-bit floats), each result checked against the bound of glsl_functions.py.

    python -m tests.accuracy.glsl_sweep [--count N] [--seed S] [--only NAME ...]
                                        [--write docs/glsl-accuracy.md]

A result passes when it lies within E of the exact value (E from the instruction's rule:
glsl_bounds.py); an exact instruction must give the exact value (zeros of either sign, as
Vulkan may ignore the sign of zero). Inputs with a NaN operand are left out: the Vulkan
environment lets an implementation assume there are none. Exits 1 when a bound is exceeded.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .glsl_bounds import Iv, allowed_error
from .glsl_functions import BOUND, BY_NAME, CATALOGUE, EXACT, GlslFunction
from .inputs import sample
from .ulp import spec_ulp, ulp_error

LD = np.longdouble
SAMPLE_COUNT = 10_000
LOCAL = 64
# shape -> (SPIR-V type name, floats per element in the buffer, ArrayStride)
SHAPES = {"s": ("float", 1, 4), "v3": ("v3float", 4, 16), "v4": ("v4float", 4, 16), "m4": ("m4float", 16, 64)}


def shader_source(fn: GlslFunction) -> str:
    """A GLCompute shader applying ``fn`` to element i of each input buffer (bindings 0..k-1),
    storing into binding k."""
    shapes = list(fn.operands) + [fn.result]
    used = sorted(set(shapes))
    lines = ["OpCapability Shader", '%std = OpExtInstImport "GLSL.std.450"', "OpMemoryModel Logical GLSL450",
             'OpEntryPoint GLCompute %main "main" %gidv', f"OpExecutionMode %main LocalSize {LOCAL} 1 1",
             "OpDecorate %gidv BuiltIn GlobalInvocationId"]
    for sh in used:
        lines += [f"OpDecorate %rt_{sh} ArrayStride {SHAPES[sh][2]}", f"OpMemberDecorate %B_{sh} 0 Offset 0",
                  f"OpDecorate %B_{sh} Block"]
        if sh == "m4":
            lines += ["OpMemberDecorate %B_m4 0 ColMajor", "OpMemberDecorate %B_m4 0 MatrixStride 16"]
    for j in range(len(shapes)):
        lines += [f"OpDecorate %buf{j} DescriptorSet 0", f"OpDecorate %buf{j} Binding {j}"]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0",
              "%float = OpTypeFloat 32", "%v3float = OpTypeVector %float 3", "%v4float = OpTypeVector %float 4",
              "%m4float = OpTypeMatrix %v4float 4", "%v3uint = OpTypeVector %uint 3",
              "%pgid = OpTypePointer Input %v3uint", "%gidv = OpVariable %pgid Input", "%uint_0 = OpConstant %uint 0"]
    for sh in used:
        t = SHAPES[sh][0]
        lines += [f"%rt_{sh} = OpTypeRuntimeArray %{t}", f"%B_{sh} = OpTypeStruct %rt_{sh}",
                  f"%pB_{sh} = OpTypePointer StorageBuffer %B_{sh}", f"%pE_{sh} = OpTypePointer StorageBuffer %{t}"]
    lines += [f"%buf{j} = OpVariable %pB_{sh} StorageBuffer" for j, sh in enumerate(shapes)]
    lines += ["%main = OpFunction %void None %fn", "%entry = OpLabel", "%gid = OpLoad %v3uint %gidv",
              "%i = OpCompositeExtract %uint %gid 0"]
    for j, sh in enumerate(fn.operands):
        lines += [f"%p{j} = OpAccessChain %pE_{sh} %buf{j} %uint_0 %i", f"%a{j} = OpLoad %{SHAPES[sh][0]} %p{j}"]
    k = len(fn.operands)
    args = " ".join(f"%a{j}" for j in range(k))
    lines += [f"%r = OpExtInst %{SHAPES[fn.result][0]} %std {fn.name} {args}",
              f"%pr = OpAccessChain %pE_{fn.result} %buf{k} %uint_0 %i", "OpStore %pr %r", "OpReturn", "OpFunctionEnd"]
    return "\n".join(lines) + "\n"


@functools.cache
def pipeline(name: str):
    from spirvkit.vk import ComputePipeline

    return ComputePipeline(shader_source(BY_NAME[name]), target_env="vulkan1.1")


def _buffer(shape: str, n: int) -> np.ndarray:
    per = SHAPES[shape][1]
    return np.zeros((n, per) if per > 1 else n, np.float32)


def run(fn: GlslFunction, args: list[np.ndarray]) -> np.ndarray:
    """The shader over all inputs (each a float32 array in its buffer shape): the result buffer."""
    n = len(args[0])
    padded = -(-n // LOCAL) * LOCAL
    bufs = []
    for a, sh in zip(args, fn.operands):
        b = _buffer(sh, padded)
        if b.ndim == 1:
            b[:n] = a
        else:
            b.reshape(padded, -1)[:n, :a[0].size] = a.reshape(n, -1)
        bufs.append(b)
    out = _buffer(fn.result, padded)
    p = pipeline(fn.name)
    for j, b in enumerate(bufs + [out]):
        p.bind(0, j, b)
    p.dispatch(padded // LOCAL, unchecked=True)
    return out[:n]


# ----- inputs ----------------------------------------------------------------------------------
def _vectors(rng, n, width):
    """Components of moderate magnitude (2^-12 .. 2^12, both signs, some zeros), float32."""
    v = np.exp2(rng.uniform(-12, 12, (n, width))) * rng.choice([-1, 1], (n, width))
    v[rng.random((n, width)) < 0.05] = 0
    return v.astype(np.float32)


def inputs(fn: GlslFunction, n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng([seed, sum(map(ord, fn.name))])
    if fn.name == "SmoothStep":
        e0 = rng.uniform(-100, 100, n).astype(np.float32)
        e1 = (e0 + np.exp2(rng.uniform(-10, 8, n))).astype(np.float32)
        x = (e0 + (e1 - e0) * rng.uniform(-0.5, 1.5, n)).astype(np.float32)
        return [e0, np.maximum(e1, np.nextafter(e0, np.float32(np.inf))), x]
    if fn.name in ("Refract", "Reflect", "FaceForward"):
        out = [_vectors(rng, n, 4) for _ in fn.operands if _ != "s"]
        if fn.name == "Refract":      # unit vectors and an index of refraction, as the formula assumes
            with np.errstate(invalid="ignore"):   # an all-zero vector: NaNs, left out as NaN inputs
                out = [(v / np.linalg.norm(v.astype(np.float64), axis=1, keepdims=True)).astype(np.float32)
                       for v in out]
            out.append(rng.uniform(0.1, 2.5, n).astype(np.float32))
        return out
    if fn.operands[0] in ("v3", "v4"):
        return [_vectors(rng, n, int(sh[1])) for sh in fn.operands]
    if fn.operands[0] == "m4":
        m = rng.uniform(-2, 2, (n, 4, 4)) + np.eye(4) * rng.choice([0, 2, 4], (n, 1, 1))
        return [m.astype(np.float32)]
    return [a.astype(np.float32) for a in sample(fn.sample_as or "generic", ("F",) * len(fn.operands), "float",
                                                 n, seed)]


# ----- measuring -------------------------------------------------------------------------------
def _components(a: np.ndarray, shape: str):
    """Long-double components: an array, a list (vector) or a list of columns (matrix)."""
    a = a.astype(LD)
    if shape == "s":
        return a
    if shape == "m4":
        return [[a[:, c, r] for r in range(4)] for c in range(4)]
    return [a[:, k] for k in range(int(shape[1]))]


def _flatten(v) -> list:
    if isinstance(v, list):
        return [x for part in v for x in _flatten(part)]
    return [v]


def _as_iv(v):
    return [_as_iv(x) for x in v] if isinstance(v, list) else Iv(v)


@dataclass
class Result:
    name: str
    kind: str
    bound: str
    count: int = 0
    max_ulp: float = 0.0
    worst_ratio: float = 0.0          # |error| / E at the worst input (<= 1 passes)
    later: str = ""                   # undefined ones: against the later revisions' bounds
    failures: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.failures


def measure(name: str, n: int = SAMPLE_COUNT, seed: int = 0) -> Result:
    fn = BY_NAME[name]
    start = time.perf_counter()
    args = inputs(fn, n, seed)
    keep = ~np.any([np.isnan(a.reshape(len(a), -1)).any(axis=1) for a in args], axis=0)
    args = [a[keep] for a in args]
    got = run(fn, args)
    comps = [_components(a, sh) for a, sh in zip(args, fn.operands)]
    res = Result(name, fn.kind, fn.bound)
    with np.errstate(all="ignore"):
        if fn.exact is not None:
            exact = fn.exact(*comps)
        else:
            exact = fn.formula(EXACT, *comps)
        outputs = _flatten(_components(got.reshape(len(args[0]), *([4, 4] if fn.result == "m4" else [-1]))
                                       if fn.result != "s" else got, fn.result))
        if fn.result == "v3":
            outputs = outputs[:3]
        if fn.kind == "exact":
            alternatives = exact if isinstance(exact, tuple) else (exact,)
            ok = np.zeros(len(got), bool)
            for alt in alternatives:
                ok |= (outputs[0].astype(LD) == alt) | (np.isnan(outputs[0]) & np.isnan(alt))
            res.count = len(got)
            bad = np.flatnonzero(~ok)
            res.failures = [f"{name}({', '.join(repr(float(a[i])) for a in args)}) = {float(outputs[0][i])!r}, "
                            f"expected {float(alternatives[0][i])!r}" for i in bad[:5]]
            res.max_ulp = 0.0 if not len(bad) else float("inf")
            res.seconds = time.perf_counter() - start
            return res
        exacts = _flatten(exact)
        allowed = (_flatten(fn.formula(BOUND, *[_as_iv(c) for c in comps])) if fn.kind != "undefined"
                   else [None] * len(exacts))
        for out, x, iv in zip(outputs, exacts, allowed):
            err = ulp_error(out, x, np.float32)
            err = np.where((out == 0) & (x == 0), 0, err)    # Vulkan may ignore the sign of zero
            finite = np.isfinite(x)
            if iv is None:   # undefined precision: measure only
                res.count = int(finite.sum())
                res.max_ulp = max(res.max_ulp, float(np.max(np.where(finite, err, 0), initial=0)))
                res.later = _later(name, args, out, x)
                continue
            e = allowed_error(x, iv)
            distance = np.abs(out.astype(LD) - x)
            checked = np.isfinite(e) & finite
            # An infinite result is allowed past the largest float (ulp_error measures it so).
            distance = np.where(np.isinf(out) & (err <= 1), 0, distance)
            ratio = np.where(checked, distance / np.where(e > 0, e, LD(1)), 0).astype(np.float64)
            ratio = np.where(checked & (e == 0) & (distance > 0), np.inf, ratio)
            res.count = max(res.count, int(checked.sum()))
            res.max_ulp = max(res.max_ulp, float(np.max(np.where(checked, err, 0), initial=0)))
            res.worst_ratio = max(res.worst_ratio, float(np.max(ratio, initial=0)))
            for i in np.flatnonzero(ratio > 1)[:5]:
                ulps = float(e[i] / spec_ulp(np.array([x[i]]), np.float32)[0])
                res.failures.append(f"{name} input #{i}: got {float(out[i])!r}, exact {float(x[i])!r}, "
                                    f"allowed ±{float(e[i]):.3g} ({ulps:.3g} ulp)")
    res.seconds = time.perf_counter() - start
    return res


def _later(name, args, out, x) -> str:
    """The undefined ones against the bounds later Vulkan revisions give them."""
    if name in ("Sin", "Cos"):
        inside = np.abs(args[0].astype(LD)) <= np.pi
        worst = float(np.max(np.abs(out[inside].astype(LD) - x[inside]), initial=0))
        return f"max abs. error on [−π, π]: {worst:.3g} (2^-11 = {2.0 ** -11:.3g})"
    if name in ("Atan", "Atan2"):
        return "within 4096 ULP" if np.all(ulp_error(out, x, np.float32)[np.isfinite(x)] <= 4096) else "over 4096 ULP"
    return ""


# ----- the table -------------------------------------------------------------------------------
def table(results: list[Result], count: int) -> str:
    lines = ["# GLSL.std.450 accuracy", "",
             f"Generated by `python -m tests.accuracy.glsl_sweep --count {count} --write docs/glsl-accuracy.md`",
             "(`tests/accuracy/test_glsl_accuracy.py` runs the same sweep on 10^4 inputs per instruction).", "",
             "Every floating-point GLSL.std.450 instruction, single precision, run through a GLCompute shader on",
             "`spirvkit.vk` and compared with a long-double reference. The bound is the Vulkan environment's",
             "(\"Precision and Operation of SPIR-V Instructions\"): the table's ULP bounds, or *inherited* from the",
             "formula that defines the instruction, evaluated on intervals (`tests/accuracy/glsl_bounds.py`):",
             "each correctly rounded operation may round either way, OpFDiv is 2.5 ULP, exp/exp2 3 + 2|x| ULP,",
             "log/log2 3 ULP (absolute 2^-21 in [0.5, 2]), inversesqrt 2 ULP, sqrt 1/inversesqrt. *worst / allowed*",
             "is the largest error divided by the error the rule allows at that input (1 or less passes);",
             "*worst ULP* is the largest error in ULP of the exact result. Inputs whose formula permits any result",
             "(a NaN or infinity in its range) and inputs with a NaN operand are not counted. The rules let a",
             "formula be rewritten by associativity, commutativity and distributivity: FMix's bound is the union",
             "of x·(1 − a) + y·a and x + (y − x)·a (OpenCL's mix, which spirvkit runs). A large worst ULP with a",
             "ratio under 1 (FMix, Reflect, Refract) is cancellation the formula itself permits: a result near",
             "zero from operands far from zero. Determinant and MatrixInverse (4x4 here) are computed in double",
             "for float matrices, so they stay near 0.5 ULP where the float formula would lose thousands.", "",
             "| Instruction | Vulkan bound | inputs | worst ULP | worst / allowed | |",
             "|---|---|---|---|---|---|"]
    for r in results:
        verdict = "pass" if r.passed else "**FAIL**"
        if r.kind == "undefined":
            verdict = r.later or "measured"
        ratio = "—" if r.kind in ("exact", "undefined") else f"{r.worst_ratio:.3g}"
        worst = "exact" if r.kind == "exact" and r.passed else f"{r.max_ulp:.3g}"
        lines.append(f"| {r.name} | {r.bound} | {r.count} | {worst} | {ratio} | {verdict} |")
    lines += ["", "Not swept: the integer instructions (SAbs, SSign, UMin … FindUMsb: exact, checked in",
              "`tests/vk/test_pipeline.py`), Modf/Frexp/Ldexp and their Struct forms, the packing instructions",
              "(exact, `tests/vk/test_pipeline.py`), double precision (no bound in the table; the implementations",
              "are the OpenCL.std ones of `docs/accuracy.md`). IMix (removed from the specification) and the",
              "fragment-only InterpolateAt* are refused: \"not supported yet: GLSL.std.450 …\" with the reason.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=SAMPLE_COUNT)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--write")
    opts = ap.parse_args(argv)
    results = []
    for fn in CATALOGUE:
        if opts.only and fn.name not in opts.only:
            continue
        r = measure(fn.name, opts.count, opts.seed)
        results.append(r)
        status = "ok" if r.passed else "FAIL"
        print(f"{r.name:14} {r.kind:9} n={r.count:8} max {r.max_ulp:10.4g} ulp  ratio {r.worst_ratio:8.3g}  "
              f"{status} {r.later} ({r.seconds:.1f} s)", flush=True)
        for f in r.failures[:3]:
            print("    " + f)
    if opts.write:
        Path(opts.write).write_text(table(results, opts.count))
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
