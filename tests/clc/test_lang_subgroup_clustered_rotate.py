"""cl_khr_subgroup_clustered_reduce and cl_khr_subgroup_rotate in ``spirvkit cc`` (issue 20).

- The built-ins of every type the extensions list compile to the GroupNonUniform instructions
  with ClusteredReduce / OpGroupNonUniformRotateKHR (SPIR-V 1.3, OpExtension
  "SPV_KHR_subgroup_rotate"), valid for spirv-val and ``spirvkit val`` (and, under the OpenCL 3.0
  environment, only with the extensions that allow their capabilities).
- clang-15 + llvm-spirv-15's module for tests/data/subgroup_ext/subgroup_clustered_rotate.cl
  has the same group instructions as cc's, and both run on the executor to the results of a
  Python model of the extensions (tests/jit/collective_oracles.py). The executor's own tests of
  these instructions are in tests/jit/test_clustered_rotate.py.
- Diagnostics: clang's for argument counts and types; the cluster size must be an integer
  constant expression and a power of two, which the extensions require and clang-15 does not
  check (llvm-spirv-15 then emits a module spirv-val rejects, or one whose behaviour is
  undefined); the names are undeclared before OpenCL C 2.0, as in clang.
"""

from __future__ import annotations

import functools
import re
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
from jit.collective_oracles import clustered_reduce, rotation_source
from lang_support import check_rejected, warnings_of
from peers import spirv_tool

import spirvkit
from spirvkit.clc import PreprocessorOptions, preprocess
from spirvkit.validate import ValidatorOptions

OPTIONS = "-cl-std=CL3.0"
FIXTURE = Path(__file__).parents[1] / "data" / "subgroup_ext"
INTEGERS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong")
FLOATS = ("float", "double", "half")
OPS = ("add", "mul", "min", "max", "and", "or", "xor")
EXTENSIONS = frozenset({"cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate", "cl_khr_fp16", "cl_khr_fp64"})


def _every_overload() -> str:
    """One kernel per type calling every built-in of both extensions that takes that type."""
    out = ["#pragma OPENCL EXTENSION cl_khr_fp16 : enable"]
    for t in INTEGERS + FLOATS:
        calls = [f"sub_group_clustered_reduce_{op}(x, {1 << (k % 4)})" for k, op in enumerate(OPS)
                 if t in INTEGERS or op in ("add", "mul", "min", "max")]
        calls += ["sub_group_rotate(x, 1)", "sub_group_rotate(x, d)", "sub_group_clustered_rotate(x, -1, 4u)"]
        body = "\n".join(f"  o[{k}] = {c};" for k, c in enumerate(calls))
        out.append(f"kernel void k_{t}(global {t} *o, int d) {{\n  {t} x = o[get_global_id(0)];\n{body}\n}}")
    logical = [f"  o[{k}] = sub_group_clustered_reduce_logical_{op}(p, {2 << k});"
               for k, op in enumerate(("and", "or", "xor"))]
    out.append("kernel void k_logical(global int *o) {\n  int p = o[get_global_id(0)];\n" + "\n".join(logical) + "\n}")
    return "\n".join(out) + "\n"


@functools.cache
def _binary(source: str, options: str = OPTIONS) -> bytes:
    return spirvkit.compile_cl(source, options, filename="t.cl")


def _group_instructions(binary: bytes) -> list[str]:
    """The group instructions of a module, ids other than types and constants as %_ (sorted)."""
    out = []
    for line in spirvkit.disassemble(binary).splitlines():
        if "OpGroupNonUniform" not in line:
            continue
        words = line.split("=", 1)[1].split()
        words = [w if not w.startswith("%") or re.fullmatch(r"%(u?(char|short|int|long)|float|double|half|bool)"
                                                             r"(_\d+)?", w) else "%_" for w in words]
        out.append(" ".join(words))
    return sorted(out)


def _caps(binary: bytes) -> set[str]:
    return {line.split()[1] for line in spirvkit.disassemble(binary).splitlines()
            if line.strip().startswith("OpCapability")}


# -- validity -----------------------------------------------------------------------------------

def _check_valid(binary: bytes, tmp_path) -> None:
    """spirv-val (SPIR-V 1.3: its OpenCL profiles stop at 1.2), and spirvkit val under OpenCL 3.0
    with the extensions."""
    path = tmp_path / "t.spv"
    path.write_bytes(binary)
    result = subprocess.run([spirv_tool("spirv-val"), "--target-env", "spv1.3", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert spirvkit.validate(binary, target_env="spv1.3") == []
    assert spirvkit.validate(binary, target_env="opencl3.0", options=ValidatorOptions(extensions=EXTENSIONS)) == []


def test_every_overload_is_valid(tmp_path):
    binary = _binary(_every_overload())
    assert struct.unpack_from("<I", binary, 4)[0] == 0x00010300
    _check_valid(binary, tmp_path)
    # GroupNonUniformClustered needs cl_khr_subgroup_clustered_reduce. (GroupNonUniformRotateKHR
    # is allowed by the module's own OpExtension "SPV_KHR_subgroup_rotate", as the validator reads
    # the capability's grammar entry.)
    errors = spirvkit.validate(binary, target_env="opencl3.0",
                               options=ValidatorOptions(extensions=EXTENSIONS - {"cl_khr_subgroup_clustered_reduce"}))
    assert errors and all("GroupNonUniformClustered" in str(e) for e in errors), errors


def test_every_overload_keeps_its_type():
    text = spirvkit.disassemble(_binary(_every_overload()))
    for t, spv, signed in [("char", "uchar", True), ("ushort", "ushort", False), ("long", "ulong", True),
                           ("uint", "uint", False), ("float", "float", None), ("double", "double", None),
                           ("half", "half", None)]:
        ops = {"add": "FAdd" if signed is None else "IAdd", "mul": "FMul" if signed is None else "IMul",
               "min": "FMin" if signed is None else "SMin" if signed else "UMin",
               "max": "FMax" if signed is None else "SMax" if signed else "UMax"}
        if signed is not None:
            ops.update({"and": "BitwiseAnd", "or": "BitwiseOr", "xor": "BitwiseXor"})
        for k, op in enumerate(OPS):
            if op in ops:
                size = 1 << (k % 4)
                assert re.search(rf"OpGroupNonUniform{ops[op]} %{spv} %uint_3 ClusteredReduce %\w+ %uint_{size}\b",
                                 text), (t, op)
        assert re.search(rf"OpGroupNonUniformRotateKHR %{spv} %uint_3 %\w+ %uint_4294967295 %uint_4\b", text), t
    for k, op in enumerate(("And", "Or", "Xor")):
        assert f"OpGroupNonUniformLogical{op} %bool %uint_3 ClusteredReduce" in text


def test_capabilities_and_extension():
    clustered = _binary("kernel void k(global int *o) { o[0] = sub_group_clustered_reduce_add(o[1], 2); }")
    assert _caps(clustered) >= {"GroupNonUniform", "GroupNonUniformClustered"}
    assert "GroupNonUniformRotateKHR" not in _caps(clustered)
    assert "OpExtension" not in spirvkit.disassemble(clustered)
    rotate = _binary("kernel void k(global int *o) { o[0] = sub_group_rotate(o[1], 2); }")
    assert _caps(rotate) >= {"GroupNonUniform", "GroupNonUniformRotateKHR"}
    assert "GroupNonUniformClustered" not in _caps(rotate)
    assert spirvkit.disassemble(rotate).count('OpExtension "SPV_KHR_subgroup_rotate"') == 1


# -- against clang-15 + llvm-spirv-15 ---------------------------------------------------------

def _fixture_modules() -> dict[str, bytes]:
    source = (FIXTURE / "subgroup_clustered_rotate.cl").read_text()
    return {"llvm-spirv-15": (FIXTURE / "subgroup_clustered_rotate.spv").read_bytes(), "cc": _binary(source)}


@pytest.mark.parametrize("module", ["llvm-spirv-15", "cc"])
def test_fixture_modules_are_valid(module, tmp_path):
    _check_valid(_fixture_modules()[module], tmp_path)


def test_same_group_instructions_as_llvm_spirv():
    modules = _fixture_modules()
    ours, theirs = _group_instructions(modules["cc"]), _group_instructions(modules["llvm-spirv-15"])
    assert len(ours) == 15
    assert ours == theirs


SIZES = (3, 4, 8, None)
GLOBAL, LOCAL = 22, 8          # the last work-group has 6 work-items
DELTA = 5


def _sub_groups(size):
    out = []
    for start in range(0, GLOBAL, LOCAL):
        members = list(range(start, min(start + LOCAL, GLOBAL)))
        step = size or len(members)
        out += [members[i:i + step] for i in range(0, len(members), step)]
    return out


def _inputs():
    rng = np.random.default_rng(5)
    x = rng.integers(-1000, 1000, GLOBAL).astype(np.int32)
    x[:3] |= 1                   # a sub-group of 3 all active
    f = rng.choice([-2.0, -0.5, 1.0, 1.5, 4.0], GLOBAL).astype(np.float32)
    d = rng.choice([-3.0, 0.25, 2.0, 7.5], GLOBAL)
    return x, f, d


def _s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _check_clustered(x, f, d, o, fo, dout, lo, size):
    compared = 0
    for members in _sub_groups(size):
        on = [bool(x[g] & 1) for g in members]
        xs = [int(x[g]) for g in members]
        cases = [
            (o, 8, 0, xs, 2, lambda a, b: _s32(a + b)), (o, 8, 1, xs, 4, min),
            (o, 8, 2, [v & 0xFFFFFFFF for v in xs], 4, max), (o, 8, 3, xs, 8, lambda a, b: a ^ b),
            (o, 8, 4, [bool(v & 2) for v in xs], 2, lambda a, b: a or b), (o, 8, 5, xs, 1, None),
            (fo, 1, 0, [float(f[g]) for g in members], 4, lambda a, b: a + b),
            (dout, 1, 0, [float(d[g]) for g in members], 2, max),
            (lo, 1, 0, [v * 0x10001 for v in xs], 4, lambda a, b: a | b),
        ]
        for out, stride, k, values, cs, fn in cases:
            want = clustered_reduce(values, on, cs, fn)
            for i, g in enumerate(members):
                got = out[g * stride + k]
                if i in want:
                    expect = want[i]
                    if out is o and k == 2:
                        expect = _s32(expect)
                    assert got == expect, (size, members, i, k, cs)
                    compared += 1
                else:
                    assert got == -7, (size, members, i)
    return compared


def _check_rotate(x, f, d, o, fo, dout, size):
    compared = 0
    max_size = min(size or LOCAL, LOCAL)
    for members in _sub_groups(size):
        cases = [(o, 4, 0, x, 1, None), (o, 4, 1, x, DELTA, None), (o, 4, 2, x, -1, 4), (o, 4, 3, x, DELTA, 2),
                 (fo, 1, 0, f, 3, None), (dout, 1, 0, d, 1, 8)]
        for out, stride, k, values, delta, cs in cases:
            if cs is not None and cs > max_size:
                continue               # undefined
            for i, g in enumerate(members):
                src = rotation_source(i, delta, cs or max_size)
                if src < len(members):
                    assert out[g * stride + k] == values[members[src]], (size, members, i, k)
                    compared += 1
    return compared


@pytest.mark.parametrize("module", ["llvm-spirv-15", "cc"])
def test_fixture_runs(module):
    """Both modules of the fixture's source, on the executor, against the model."""
    program = spirvkit.Program(_fixture_modules()[module])
    x, f, d = _inputs()
    compared = 0
    for size in SIZES:
        extra = {} if size is None else {"sub_group_size": size}
        o, fo, dout, lo = (np.full(GLOBAL * n, -7, t) for n, t in ((8, np.int32), (1, np.float32), (1, np.float64),
                                                                   (1, np.int64)))
        program.kernel("clustered")(GLOBAL, LOCAL, x, f, d, o, fo, dout, lo, **extra)
        compared += _check_clustered(x, f, d, o, fo, dout, lo, size)
        o, fo, dout = np.full(GLOBAL * 4, -7, np.int32), np.zeros(GLOBAL, np.float32), np.zeros(GLOBAL, np.float64)
        program.kernel("rotate")(GLOBAL, LOCAL, x, f, d, o, fo, dout, np.int32(DELTA), **extra)
        compared += _check_rotate(x, f, d, o, fo, dout, size)
    assert compared > 600


# -- diagnostics ----------------------------------------------------------------------------------

K = "kernel void k(global int *o, uint n) {{\n  {}\n}}\n"


@pytest.mark.parametrize("call,message,col", [
    # The cluster size (clang-15 accepts each of these; see the module docstring).
    ("o[0] = sub_group_clustered_reduce_add(o[1], n);",
     "'clustersize' argument to 'sub_group_clustered_reduce_add' must be an integer constant expression", 47),
    ("o[0] = sub_group_clustered_reduce_max(o[1], 2.0f);",
     "'clustersize' argument to 'sub_group_clustered_reduce_max' must be an integer constant expression", 47),
    ("o[0] = sub_group_clustered_reduce_logical_and(o[1], n);",
     "'clustersize' argument to 'sub_group_clustered_reduce_logical_and' must be an integer constant expression", 55),
    ("o[0] = sub_group_clustered_rotate(o[1], 1, n);",
     "'clustersize' argument to 'sub_group_clustered_rotate' must be an integer constant expression", 46),
    ("o[0] = sub_group_clustered_reduce_add(o[1], 3);",
     "'clustersize' argument to 'sub_group_clustered_reduce_add' must be a power of two (is 3)", 47),
    ("o[0] = sub_group_clustered_reduce_xor(o[1], 0);",
     "'clustersize' argument to 'sub_group_clustered_reduce_xor' must be a power of two (is 0)", 47),
    ("o[0] = sub_group_clustered_rotate(o[1], 1, 6);",
     "'clustersize' argument to 'sub_group_clustered_rotate' must be a power of two (is 6)", 46),
    # Argument counts and types: clang-15's verdicts and messages.
    ("o[0] = sub_group_clustered_reduce_add(o[1]);",
     "no matching function for call to 'sub_group_clustered_reduce_add'", 10),
    ("o[0] = sub_group_clustered_reduce_logical_or(o[1], 2, 3);",
     "too many arguments to function call, expected 2, have 3", 57),
    ("o[0] = sub_group_rotate(o[1]);", "no matching function for call to 'sub_group_rotate'", 10),
    ("o[0] = sub_group_rotate(o[1], 1, 2);", "no matching function for call to 'sub_group_rotate'", 10),
    ("o[0] = sub_group_clustered_rotate(o[1], 1);", "no matching function for call to 'sub_group_clustered_rotate'",
     10),
    ("o[0] = sub_group_clustered_reduce_and(1.0f, 2);", "call to 'sub_group_clustered_reduce_and' is ambiguous", 10),
    ("o[0] = sub_group_clustered_reduce_add(o[1], o);",
     "no matching function for call to 'sub_group_clustered_reduce_add'", 10),
    ("o[0] = sub_group_clustered_reduce_add((int2)(1), 2).x;",
     "no matching function for call to 'sub_group_clustered_reduce_add'", 10),
    ("o[0] = sub_group_rotate(o[1], o);", "no matching function for call to 'sub_group_rotate'", 10),
    ("o[0] = sub_group_rotate((int2)(1), 1).x;", "no matching function for call to 'sub_group_rotate'", 10),
])
def test_rejected(call, message, col):
    check_rejected(K.format(call), message, 2, col, OPTIONS)


def test_too_few_arguments_to_a_logical_reduction():
    # clang-15 points at the closing parenthesis (col 53); cc's call nodes know their start only.
    check_rejected(K.format("o[0] = sub_group_clustered_reduce_logical_and(o[1]);"),
                   "too few arguments to function call, expected 2, have 1", 2, 10, OPTIONS)


def test_pointer_to_a_logical_reduction():
    check_rejected(K.format("o[0] = sub_group_clustered_reduce_logical_xor(1, o);"),
                   "incompatible pointer to integer conversion passing '__global int *' to parameter of type 'uint'",
                   2, 52, OPTIONS)


def test_integer_constant_expressions_are_accepted():
    source = K.format("enum { C = 4 };\n  o[0] = sub_group_clustered_reduce_max(o[1], sizeof(int)) + "
                      "sub_group_clustered_rotate(o[1], n, C * 2) + sub_group_clustered_reduce_min(o[1], 1 << 3);")
    text = spirvkit.disassemble(_binary(source))
    assert "ClusteredReduce %_" not in text
    assert re.search(r"OpGroupNonUniformSMax %uint %uint_3 ClusteredReduce %\w+ %uint_4\b", text)
    assert re.search(r"OpGroupNonUniformRotateKHR %uint %uint_3 %\w+ %n %uint_8\b", text)


@pytest.mark.parametrize("call", ["sub_group_clustered_reduce_add(o[1], 2)", "sub_group_rotate(o[1], 2)",
                                  "sub_group_clustered_rotate(o[1], 2, 2)"])
def test_undeclared_before_opencl_c_2_0(call):
    # As clang-15: the extensions are OpenCL C 2.0 ones.
    check_rejected(K.format(f"o[0] = {call};"), f"use of undeclared identifier '{call.split('(')[0]}'", 2, 10,
                   "-cl-std=CL1.2")


@pytest.mark.parametrize("ext,call", [("cl_khr_subgroup_rotate", "sub_group_rotate(o[1], 2)"),
                                      ("cl_khr_subgroup_clustered_reduce", "sub_group_clustered_reduce_or(o[1], 2)")])
def test_extension_taken_away(ext, call):
    # -cl-ext=-NAME takes an extension away, as for the other cl_khr_subgroup_* (clang-15's header
    # defines these macros for SPIR whatever -cl-ext says).
    check_rejected(K.format(f"o[0] = {call};"), f"use of undeclared identifier '{call.split('(')[0]}'", 2, 10,
                   f"{OPTIONS} -cl-ext=-{ext}")


def test_explicit_spirv_version_below_1_3():
    check_rejected(K.format("o[0] = sub_group_rotate(o[1], 2);"),
                   "'cl_khr_subgroup_rotate' built-ins need SPIR-V 1.3 (--spirv-version 1.2 given)", 2, 10,
                   OPTIONS + " --spirv-version 1.2")


@pytest.mark.parametrize("std,defined", [("CL1.2", False), ("CL2.0", True), ("CL3.0", True)])
def test_extension_macros(std, defined):
    source = "#if defined(cl_khr_subgroup_clustered_reduce) && defined(cl_khr_subgroup_rotate)\nyes\n" \
             "#else\nno\n#endif\n"
    assert [t.text for t in preprocess(source, options=PreprocessorOptions(cl_std=std))] == ["yes" if defined else "no"]


def test_pragmas_are_accepted():
    source = "#pragma OPENCL EXTENSION cl_khr_subgroup_clustered_reduce : enable\n" \
             "#pragma OPENCL EXTENSION cl_khr_subgroup_rotate : enable\n" + \
             K.format("o[0] = sub_group_rotate(o[1], 1) + sub_group_clustered_reduce_add(o[1], 2);")
    assert warnings_of(source, OPTIONS) == []
