"""Benchmark: spirvkit's SPIR-V assembler and disassembler against SPIRV-Tools (spirv-as, spirv-dis).

Usage::

    python benchmarks/bench_spirv.py [--instructions N] [--repeat R] [--seed S]
                                     [--keep DIR] [--profile {assemble,disassemble}] [--top K]

It generates a large, deterministic OpenCL ``Kernel`` module (a mix like real compiler output:
types, many constants, names, decorations, hundreds of functions with arithmetic, memory access,
OpExtInst, structured control flow, OpPhi and OpSwitch), checks that spirvkit and SPIRV-Tools agree
on it, then times, in one process and interleaved, the median of R runs of:

* ``spirvkit.assemble(text)``  vs  ``spirv-as --target-env spv1.2 in.spvasm -o out.spv``
* ``spirvkit.disassemble(binary)``  vs  ``spirv-dis --no-color in.spv -o out.spvasm``
* ``Module.from_bytes(binary)`` and ``module.to_bytes()`` (no SPIRV-Tools counterpart)

plus the fixed costs on each side: spirvkit's one-time grammar load (excluded from the spirvkit
timings above: ``load_grammar()`` is called first) and the process start-up cost of each tool
(the same command on a tiny module). The figures go to ``benchmarks/results/spirv.json`` and
``benchmarks/results/spirv.md``. See ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import gc
import io
import json
import os
import pstats
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE.parent / "src"))  # run from a checkout without installing

import spirvkit  # noqa: E402
from spirvkit import Module  # noqa: E402
from spirvkit.spirv.grammar import load_grammar  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from machine import machine_info  # noqa: E402  (benchmarks/machine.py)

TARGET_ENV = "spv1.2"
AIM = 3.0  # the issue's aim: spirvkit <= 3x SPIRV-Tools' time


# ------------------------------------------------------------------------------------------------
# Finding SPIRV-Tools (as tests/peers.py does: the cmeel wheel's cmeel.prefix/bin on sys.path)
# ------------------------------------------------------------------------------------------------


def spirv_tool(name: str) -> str:
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / name
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    sys.exit(f"bench_spirv: {name} not found (install the test extras: pip install -e '.[test]')")


# ------------------------------------------------------------------------------------------------
# The module generator
# ------------------------------------------------------------------------------------------------

F32 = "float"
F64 = "double"
U32 = "uint"
U64 = "ulong"
BOOL = "bool"
V4F = "v4float"
V4U = "v4uint"

INT_BINOPS = ["OpIAdd", "OpISub", "OpIMul", "OpBitwiseAnd", "OpBitwiseOr", "OpBitwiseXor",
              "OpShiftLeftLogical", "OpShiftRightLogical", "OpShiftRightArithmetic", "OpUDiv", "OpUMod",
              "OpSDiv", "OpSRem"]
INT_BINOP_W = [10, 6, 8, 4, 3, 3, 3, 3, 1, 1, 1, 1, 1]
FLOAT_BINOPS = ["OpFAdd", "OpFSub", "OpFMul", "OpFDiv", "OpFRem"]
FLOAT_BINOP_W = [8, 5, 8, 3, 1]
EXT_F1 = ["sqrt", "fabs", "exp", "log", "native_sin", "native_cos", "floor", "rsqrt", "ceil", "native_exp2", "trunc"]
EXT_F2 = ["fmax", "fmin", "pow", "fmod", "copysign", "hypot"]
EXT_F3 = ["mad", "fma", "fclamp", "mix"]
EXT_U1 = ["popcount", "clz", "ctz"]
EXT_U2 = ["u_min", "u_max", "u_mul_hi", "u_add_sat", "rotate"]
EXT_U3 = ["u_clamp", "u_mad24", "bitselect"]
UCMP = ["OpULessThan", "OpUGreaterThan", "OpULessThanEqual", "OpUGreaterThanEqual", "OpIEqual", "OpINotEqual",
        "OpSLessThan"]
FCMP = ["OpFOrdLessThan", "OpFOrdGreaterThan", "OpFOrdLessThanEqual", "OpFOrdEqual", "OpFUnordNotEqual",
        "OpFUnordLessThan"]
LOAD_MASKS = ["Aligned 4"] * 12 + ["Volatile|Aligned 4"] * 2 + [""] * 4 + ["Nontemporal"] + ["Aligned 8"]
LOOP_CONTROLS = ["None"] * 5 + ["Unroll", "DontUnroll", "DependencyInfinite", "Unroll|DependencyLength 4",
                                "DontUnroll|DependencyLength 8"]
SELECTION_CONTROLS = ["None"] * 6 + ["Flatten", "DontFlatten"]
FUNCTION_CONTROLS = ["None"] * 5 + ["Inline", "DontInline", "Pure", "Const"]

# clang/llvm-spirv style value names (they repeat across functions, as in real output)
VALUE_NAMES = {
    "OpIAdd": "add", "OpISub": "sub", "OpIMul": "mul", "OpFAdd": "add", "OpFSub": "sub", "OpFMul": "mul",
    "OpFDiv": "div", "OpUDiv": "div", "OpLoad": "ld", "OpFunctionCall": "call", "OpExtInst": "call",
    "OpInBoundsPtrAccessChain": "arrayidx", "OpPtrAccessChain": "arrayidx", "OpAccessChain": "field",
    "OpConvertUToF": "conv", "OpUConvert": "conv", "OpFConvert": "conv", "OpConvertFToU": "conv",
    "OpPhi": "phi", "OpSelect": "cond", "OpULessThan": "cmp", "OpFOrdLessThan": "cmp",
    "OpCompositeExtract": "vecext", "OpCompositeConstruct": "vecinit", "OpVectorShuffle": "shuffle",
}


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Generator:
    """Builds the module's text section by section; ``count`` is the number of instructions."""

    def __init__(self, target: int, seed: int):
        self.rng = random.Random(seed)
        self.target = target
        self.count = 0
        self.uid = 0
        self.caps: list[str] = []
        self.header: list[str] = []
        self.entry_points: list[str] = []
        self.exec_modes: list[str] = []
        self.debug: list[str] = []
        self.names: list[str] = []
        self.processed: list[str] = []
        self.annotations: list[str] = []
        self.types: list[str] = []
        self.functions: list[str] = []
        self.const_pool: dict[str, list[str]] = {}
        self.helpers: list[str] = []
        self.line_no = 1
        self.param_group: list[str] = []

    # -- helpers ----------------------------------------------------------------------------------

    def fresh(self, base: str) -> str:
        self.uid += 1
        return f"%{base}_{self.uid}"

    def put(self, section: list[str], line: str) -> None:
        section.append(line)
        self.count += 1

    def emit(self, line: str) -> None:
        self.functions.append("          " + line if not line.startswith("%") else line)
        self.count += 1

    def name(self, ident: str, name: str) -> None:
        self.put(self.names, f'OpName {ident} "{name}"')

    def local_name(self, ident: str, name: str) -> None:
        """Name a value or block as LLVM does: unique within the function by a numeric suffix from
        a function-wide counter ('add', 'add3', 'for.body7'), so names repeat across functions."""
        if name in self.fn_names:
            self.fn_unique += 1
            name = f"{name}{self.fn_unique}"
        self.fn_names.add(name)
        self.name(ident, name)

    # -- module-level sections --------------------------------------------------------------------

    def preamble(self) -> None:
        for cap in ("Addresses", "Linkage", "Kernel", "Vector16", "Int64", "Int16", "Int8", "Float64"):
            self.put(self.caps, f"OpCapability {cap}")
        self.put(self.header, '%ext = OpExtInstImport "OpenCL.std"')
        self.put(self.header, "OpMemoryModel Physical64 OpenCL")
        self.put(self.debug, '%file = OpString "/home/dev/kernels/bench.cl"')
        self.put(self.debug, "OpSource OpenCL_C 200000 %file")
        self.put(self.debug, 'OpSourceExtension "cl_khr_fp64"')
        self.put(self.processed, 'OpModuleProcessed "spirvkit benchmark generator"')

    def type_section(self) -> None:
        t = self.types
        put = self.put
        rng = self.rng
        for line in (
            "%void = OpTypeVoid", "%bool = OpTypeBool", "%uchar = OpTypeInt 8 0", "%ushort = OpTypeInt 16 0",
            "%uint = OpTypeInt 32 0", "%ulong = OpTypeInt 64 0", "%float = OpTypeFloat 32",
            "%double = OpTypeFloat 64", "%v2uint = OpTypeVector %uint 2", "%v3ulong = OpTypeVector %ulong 3",
            "%v4uint = OpTypeVector %uint 4", "%v2float = OpTypeVector %float 2",
            "%v4float = OpTypeVector %float 4", "%v2double = OpTypeVector %double 2",
        ):
            put(t, line)
        # Constants: all small uints (indices, scopes, semantics), then random values of each type.
        uints = list(range(0, 257)) + [272, 528, 1024, 4096, 65535]
        seen = set(uints)
        n_scalar = max(200, self.target // 40)
        while len(uints) < 262 + n_scalar // 3:
            v = rng.choice([rng.randrange(1 << 32), rng.randrange(1 << 16), rng.randrange(1 << 12)])
            if v not in seen:
                seen.add(v)
                uints.append(v)
        for v in uints:
            spelled = hex(v) if v > 4096 and rng.random() < 0.2 else str(v)
            put(t, f"%uint_{v} = OpConstant %uint {spelled}")
        self.const_pool[U32] = [f"%uint_{v}" for v in uints]
        for width, ty in ((8, "uchar"), (16, "ushort")):
            for v in sorted(rng.sample(range(1 << width), 40 if width == 8 else 80)):
                put(t, f"%{ty}_{v} = OpConstant %{ty} {v}")
        longs, seen = [], set()
        while len(longs) < n_scalar // 6:
            v = rng.choice([rng.randrange(1 << 64), rng.randrange(1 << 33), rng.randrange(1 << 8)])
            if v not in seen:
                seen.add(v)
                longs.append(v)
        for i, v in enumerate(longs):
            spelled = f"0x{v:x}" if rng.random() < 0.3 else str(v)
            put(t, f"%ulong_c{i} = OpConstant %ulong {spelled}")
        self.const_pool[U64] = [f"%ulong_c{i}" for i in range(len(longs))]
        floats = []
        for i in range(n_scalar // 3):
            spelled = self.float_literal(32)
            put(t, f"%float_c{i} = OpConstant %float {spelled}")
            floats.append(f"%float_c{i}")
        self.const_pool[F32] = floats
        doubles = []
        for i in range(n_scalar // 6):
            spelled = self.float_literal(64)
            put(t, f"%double_c{i} = OpConstant %double {spelled}")
            doubles.append(f"%double_c{i}")
        self.const_pool[F64] = doubles
        put(t, "%true = OpConstantTrue %bool")
        put(t, "%false = OpConstantFalse %bool")
        self.const_pool[BOOL] = ["%true", "%false"]
        v4f = ["%v4float_null"]
        put(t, "%v4float_null = OpConstantNull %v4float")
        for i in range(max(8, n_scalar // 40)):
            parts = " ".join(rng.choice(floats) for _ in range(4))
            put(t, f"%v4float_c{i} = OpConstantComposite %v4float {parts}")
            v4f.append(f"%v4float_c{i}")
        self.const_pool[V4F] = v4f
        v4u = []
        for i in range(max(4, n_scalar // 80)):
            parts = " ".join(f"%uint_{rng.randrange(257)}" for _ in range(4))
            put(t, f"%v4uint_c{i} = OpConstantComposite %v4uint {parts}")
            v4u.append(f"%v4uint_c{i}")
        self.const_pool[V4U] = v4u
        put(t, "%ulong_null = OpConstantNull %ulong")
        put(t, "%float_undef = OpUndef %float")
        # Aggregates, pointers, function types, module-scope variables.
        for line in (
            "%_arr_float_uint_256 = OpTypeArray %float %uint_256",
            "%_arr_float_uint_16 = OpTypeArray %float %uint_16",
            "%S = OpTypeStruct %float %uint %v4float %ulong",
            "%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float",
            "%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint",
            "%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float",
            "%_ptr_Function_float = OpTypePointer Function %float",
            "%_ptr_Function_uint = OpTypePointer Function %uint",
            "%_ptr_Function_v4float = OpTypePointer Function %v4float",
            "%_ptr_Function_S = OpTypePointer Function %S",
            "%_ptr_Workgroup_float = OpTypePointer Workgroup %float",
            "%_ptr_Workgroup_arr = OpTypePointer Workgroup %_arr_float_uint_256",
            "%_ptr_UniformConstant_float = OpTypePointer UniformConstant %float",
            "%_ptr_UniformConstant_arr = OpTypePointer UniformConstant %_arr_float_uint_16",
            "%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong",
            "%fn_kernel = OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_CrossWorkgroup_float "
            "%_ptr_CrossWorkgroup_uint %uint",
            "%fn_helper = OpTypeFunction %float %float %float %uint %_ptr_CrossWorkgroup_float",
        ):
            put(t, line)
        table = " ".join(rng.choice(floats) for _ in range(16))
        put(t, f"%table_init = OpConstantComposite %_arr_float_uint_16 {table}")
        put(t, "%table = OpVariable %_ptr_UniformConstant_arr UniformConstant %table_init")
        put(t, "%lds = OpVariable %_ptr_Workgroup_arr Workgroup")
        put(t, "%gid = OpVariable %_ptr_Input_v3ulong Input")
        self.name("%gid", "__spirv_BuiltInGlobalInvocationId")
        self.name("%table", "coeffs")
        self.name("%lds", "tile")
        self.name("%S", "struct.State")
        for i, member in enumerate(("acc", "count", "vec", "offset")):
            self.put(self.names, f'OpMemberName %S {i} "{member}"')
        a = self.annotations
        put(a, "OpDecorate %gid BuiltIn GlobalInvocationId")
        put(a, "OpDecorate %gid Constant")
        put(a, 'OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import')
        put(a, "OpDecorate %table Constant")
        put(a, "OpDecorate %table Alignment 4")
        put(a, "OpDecorate %lds Alignment 16")

    def float_literal(self, width: int) -> str:
        rng = self.rng
        r = rng.random()
        if r < 0.15:
            v = float(rng.randrange(-64, 64))
        elif r < 0.3:
            v = rng.randrange(-4096, 4096) / 8.0
        elif r < 0.85:
            v = rng.uniform(-1.0, 1.0) * 10.0 ** rng.randrange(-6, 7)
        else:
            v = rng.uniform(1.0, 10.0) * 10.0 ** rng.randrange(-30, 31) * rng.choice((1, -1))
        if width == 32:
            v = _f32(v)
        style = rng.random()
        if style < 0.5:
            return repr(v)
        if style < 0.8:
            return f"{v:.{7 if width == 32 else 15}g}"
        if style < 0.95:
            return f"{v:.{6 if width == 32 else 14}e}"
        return float.hex(_f32(v) if width == 32 else v).replace("0000000", "")

    # -- functions --------------------------------------------------------------------------------

    def const(self, ty: str) -> str:
        return self.rng.choice(self.fconsts[ty])

    def pick(self, ty: str) -> str:
        pool = self.pool[ty]
        if pool and self.rng.random() < 0.8:
            # favour recent values, like real code
            return pool[-1 - min(int(self.rng.expovariate(0.25)), len(pool) - 1)]
        return self.const(ty)

    def define(self, ty: str, base: str, rhs: str, named: bool = True) -> str:
        ident = self.fresh(base)
        self.emit(f"{ident} = {rhs}")
        self.pool.setdefault(ty, []).append(ident)
        if named and self.rng.random() < 0.3:
            self.local_name(ident, VALUE_NAMES.get(rhs.split(" ", 1)[0], base))
        return ident

    def maybe_line(self) -> None:
        if self.rng.random() < 0.08:
            self.line_no += self.rng.randrange(1, 4)
            self.emit(f"OpLine %file {self.line_no} {self.rng.randrange(1, 40)}")

    def value(self, ty: str) -> str:
        """Emit one instruction computing a value of type ``ty``; returns its id."""
        rng = self.rng
        r = rng.random()
        if ty == F32:
            if r < 0.5:
                op = rng.choices(FLOAT_BINOPS, FLOAT_BINOP_W)[0]
                ident = self.define(F32, "f", f"{op} %float {self.pick(F32)} {self.pick(F32)}")
                if rng.random() < 0.05:
                    self.put(self.annotations, f"OpDecorate {ident} FPFastMathMode NotNaN|NotInf|NSZ")
                return ident
            if r < 0.56:
                return self.define(F32, "f", f"OpFNegate %float {self.pick(F32)}")
            if r < 0.66:
                return self.define(F32, "conv", f"OpConvertUToF %float {self.pick(U32)}")
            if r < 0.70:
                ident = self.define(F32, "conv", f"OpFConvert %float {self.pick(F64)}")
                if rng.random() < 0.3:
                    self.put(self.annotations, f"OpDecorate {ident} FPRoundingMode RTE")
                return ident
            if r < 0.78:
                return self.define(F32, "call", f"OpExtInst %float %ext {rng.choice(EXT_F1)} {self.pick(F32)}")
            if r < 0.85:
                return self.define(F32, "call",
                                   f"OpExtInst %float %ext {rng.choice(EXT_F2)} {self.pick(F32)} {self.pick(F32)}")
            if r < 0.90:
                return self.define(F32, "call", f"OpExtInst %float %ext {rng.choice(EXT_F3)} "
                                   f"{self.pick(F32)} {self.pick(F32)} {self.pick(F32)}")
            if r < 0.95:
                return self.define(F32, "vecext", f"OpCompositeExtract %float {self.pick(V4F)} {rng.randrange(4)}")
            if r < 0.97:
                return self.define(F32, "dot", f"OpDot %float {self.pick(V4F)} {self.pick(V4F)}")
            return self.define(F32, "cond", f"OpSelect %float {self.pick(BOOL)} {self.pick(F32)} {self.pick(F32)}")
        if ty == U32:
            if r < 0.55:
                op = rng.choices(INT_BINOPS, INT_BINOP_W)[0]
                return self.define(U32, "i", f"{op} %uint {self.pick(U32)} {self.pick(U32)}")
            if r < 0.63:
                return self.define(U32, "conv", f"OpUConvert %uint {self.pick(U64)}")
            if r < 0.70:
                return self.define(U32, "conv", f"OpConvertFToU %uint {self.pick(F32)}")
            if r < 0.76:
                return self.define(U32, "call", f"OpExtInst %uint %ext {rng.choice(EXT_U1)} {self.pick(U32)}")
            if r < 0.84:
                return self.define(U32, "call",
                                   f"OpExtInst %uint %ext {rng.choice(EXT_U2)} {self.pick(U32)} {self.pick(U32)}")
            if r < 0.88:
                return self.define(U32, "call", f"OpExtInst %uint %ext {rng.choice(EXT_U3)} "
                                   f"{self.pick(U32)} {self.pick(U32)} {self.pick(U32)}")
            if r < 0.94:
                return self.define(U32, "cond", f"OpSelect %uint {self.pick(BOOL)} {self.pick(U32)} {self.pick(U32)}")
            if r < 0.97:
                return self.define(U32, "vecext", f"OpCompositeExtract %uint {self.pick(V4U)} {rng.randrange(4)}")
            return self.define(U32, "bc", f"OpBitcast %uint {self.pick(F32)}")
        if ty == U64:
            if r < 0.5:
                op = rng.choice(["OpIAdd", "OpIMul", "OpShiftLeftLogical", "OpBitwiseAnd", "OpISub"])
                return self.define(U64, "l", f"{op} %ulong {self.pick(U64)} {self.pick(U64)}")
            if r < 0.9:
                return self.define(U64, "idxprom", f"OpUConvert %ulong {self.pick(U32)}")
            return self.define(U64, "conv", f"OpConvertFToU %ulong {self.pick(F64)}")
        if ty == F64:
            if r < 0.55:
                op = rng.choices(FLOAT_BINOPS[:4], FLOAT_BINOP_W[:4])[0]
                return self.define(F64, "d", f"{op} %double {self.pick(F64)} {self.pick(F64)}")
            if r < 0.8:
                return self.define(F64, "conv", f"OpFConvert %double {self.pick(F32)}")
            if r < 0.9:
                return self.define(F64, "call", f"OpExtInst %double %ext {rng.choice(EXT_F1)} {self.pick(F64)}")
            return self.define(F64, "call", f"OpExtInst %double %ext fma {self.pick(F64)} {self.pick(F64)} "
                               f"{self.pick(F64)}")
        if ty == BOOL:
            if r < 0.45:
                return self.define(BOOL, "cmp", f"{rng.choice(UCMP)} %bool {self.pick(U32)} {self.pick(U32)}")
            if r < 0.85:
                return self.define(BOOL, "cmp", f"{rng.choice(FCMP)} %bool {self.pick(F32)} {self.pick(F32)}")
            if r < 0.95:
                op = rng.choice(["OpLogicalAnd", "OpLogicalOr", "OpLogicalNotEqual"])
                return self.define(BOOL, "b", f"{op} %bool {self.pick(BOOL)} {self.pick(BOOL)}")
            return self.define(BOOL, "not", f"OpLogicalNot %bool {self.pick(BOOL)}")
        if ty == V4F:
            if r < 0.3:
                parts = " ".join(self.pick(F32) for _ in range(4))
                return self.define(V4F, "vecinit", f"OpCompositeConstruct %v4float {parts}")
            if r < 0.5:
                lanes = " ".join(str(rng.randrange(8)) for _ in range(4))
                return self.define(V4F, "shuffle", f"OpVectorShuffle %v4float {self.pick(V4F)} {self.pick(V4F)} {lanes}")
            if r < 0.65:
                return self.define(V4F, "v", f"OpVectorTimesScalar %v4float {self.pick(V4F)} {self.pick(F32)}")
            if r < 0.85:
                op = rng.choice(["OpFAdd", "OpFMul", "OpFSub"])
                return self.define(V4F, "v", f"{op} %v4float {self.pick(V4F)} {self.pick(V4F)}")
            if r < 0.93:
                return self.define(V4F, "vecins",
                                   f"OpCompositeInsert %v4float {self.pick(F32)} {self.pick(V4F)} {rng.randrange(4)}")
            return self.define(V4F, "call", f"OpExtInst %v4float %ext {rng.choice(['fmax', 'fmin'])} "
                               f"{self.pick(V4F)} {self.pick(V4F)}")
        # V4U
        if r < 0.5:
            parts = " ".join(self.pick(U32) for _ in range(4))
            return self.define(V4U, "vecinit", f"OpCompositeConstruct %v4uint {parts}")
        op = rng.choice(["OpIAdd", "OpIMul", "OpBitwiseXor"])
        return self.define(V4U, "v", f"{op} %v4uint {self.pick(V4U)} {self.pick(V4U)}")

    def memory_op(self) -> None:
        rng = self.rng
        r = rng.random()
        fn = self.fn
        if r < 0.35:  # load a float from a global buffer
            ptr = self.define("pf", "arrayidx", f"OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_float "
                              f"{rng.choice(fn['fbufs'])} {self.pick(U64)}")
            mask = rng.choice(LOAD_MASKS)
            self.define(F32, "ld", f"OpLoad %float {ptr}{' ' + mask if mask else ''}")
        elif r < 0.55:  # store a float to a global buffer
            ptr = self.define("pf", "arrayidx", f"OpPtrAccessChain %_ptr_CrossWorkgroup_float "
                              f"{rng.choice(fn['fbufs'])} {self.pick(U64)}")
            mask = rng.choice(LOAD_MASKS)
            self.emit(f"OpStore {ptr} {self.pick(F32)}{' ' + mask if mask else ''}")
        elif r < 0.62 and fn["ubuf"]:  # uint buffer: load or atomic
            ptr = self.define("pu", "arrayidx", f"OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint "
                              f"{fn['ubuf']} {self.pick(U64)}")
            if rng.random() < 0.6:
                self.define(U32, "ld", f"OpLoad %uint {ptr} Aligned 4")
            else:
                op = rng.choice(["OpAtomicIAdd", "OpAtomicUMax", "OpAtomicOr", "OpAtomicExchange"])
                self.define(U32, "atomic", f"{op} %uint {ptr} %uint_1 %uint_0 {self.pick(U32)}")
        elif r < 0.72:  # private struct: access chain + store/load
            field, ty, pty = rng.choice([(0, F32, "float"), (1, U32, "uint"), (2, V4F, "v4float")])
            ptr = self.define("pl", "field", f"OpAccessChain %_ptr_Function_{pty} {fn['local']} %uint_{field}")
            align = 16 if ty == V4F else 4
            if rng.random() < 0.5:
                self.emit(f"OpStore {ptr} {self.pick(ty)} Aligned {align}")
            else:
                self.define(ty, "ld", f"OpLoad %{pty} {ptr} Aligned {align}")
        elif r < 0.82:  # workgroup tile
            ptr = self.define("pw", "arrayidx", f"OpAccessChain %_ptr_Workgroup_float %lds {self.pick(U32)}")
            if rng.random() < 0.5:
                self.emit(f"OpStore {ptr} {self.pick(F32)} Aligned 4")
                if rng.random() < 0.3:
                    self.emit("OpControlBarrier %uint_2 %uint_2 %uint_272")
            else:
                self.define(F32, "ld", f"OpLoad %float {ptr} Aligned 4")
        elif r < 0.9:  # constant table
            ptr = self.define("pc", "arrayidx", f"OpInBoundsAccessChain %_ptr_UniformConstant_float %table "
                              f"{self.pick(U32)}")
            self.define(F32, "ld", f"OpLoad %float {ptr} Aligned 4")
        else:  # vector load/store through a bitcast pointer
            vp = self.define("pv", "vp", f"OpBitcast %_ptr_CrossWorkgroup_v4float {rng.choice(fn['fbufs'])}")
            ptr = self.define("pv", "arrayidx", f"OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_v4float {vp} "
                              f"{self.pick(U64)}")
            if rng.random() < 0.6:
                self.define(V4F, "ld", f"OpLoad %v4float {ptr} Aligned 16")
            else:
                self.emit(f"OpStore {ptr} {self.pick(V4F)} Aligned 16")

    def straight(self, n: int) -> None:
        rng = self.rng
        for _ in range(n):
            self.maybe_line()
            r = rng.random()
            if r < 0.22:
                self.memory_op()
            elif r < 0.25 and self.helpers and self.fn["kernel"]:
                callee = rng.choice(self.helpers[-40:])
                self.define(F32, "call", f"OpFunctionCall %float {callee} {self.pick(F32)} {self.pick(F32)} "
                            f"{self.pick(U32)} {rng.choice(self.fn['fbufs'])}")
            else:
                ty = rng.choices([F32, U32, U64, BOOL, F64, V4F, V4U], [36, 24, 9, 10, 7, 10, 4])[0]
                self.value(ty)

    def label(self, base: str) -> str:
        ident = self.fresh(base.replace(".", "_"))
        if self.rng.random() < 0.5:
            self.local_name(ident, base)
        return ident

    def start_block(self, ident: str) -> None:
        self.emit(f"{ident} = OpLabel")
        self.cur = ident

    def snapshot(self) -> dict:
        return {k: list(v) for k, v in self.pool.items()}

    def region(self, depth: int) -> None:
        """Straight code and nested control flow, ending in the current block."""
        rng = self.rng
        for _ in range(rng.randrange(1, 4 if depth else 6)):
            self.straight(rng.randrange(2, 10))
            if depth < 2:
                r = rng.random()
                if r < 0.35:
                    self.if_(depth)
                elif r < 0.55:
                    self.loop(depth)
                elif r < 0.7:
                    self.switch(depth)

    def if_(self, depth: int) -> None:
        rng = self.rng
        ty = rng.choice([F32, F32, U32])
        cond = self.value(BOOL)
        before = self.pick(ty)
        pre = self.cur
        has_else = rng.random() < 0.6
        then = self.label("if.then")
        els = self.label("if.else") if has_else else None
        end = self.label("if.end")
        self.emit(f"OpSelectionMerge {end} {rng.choice(SELECTION_CONTROLS)}")
        weights = " 90 10" if rng.random() < 0.1 else ""
        self.emit(f"OpBranchConditional {cond} {then} {els if has_else else end}{weights}")
        saved = self.snapshot()
        self.start_block(then)
        self.region(depth + 1)
        tv = self.value(ty)
        then_end = self.cur
        self.emit(f"OpBranch {end}")
        self.pool = saved
        if has_else:
            saved = self.snapshot()
            self.start_block(els)
            self.region(depth + 1)
            ev = self.value(ty)
            else_end = self.cur
            self.emit(f"OpBranch {end}")
            self.pool = saved
        else:
            ev, else_end = before, pre
        self.start_block(end)
        self.define(ty, "phi", f"OpPhi %{ty} {tv} {then_end} {ev} {else_end}")

    def loop(self, depth: int) -> None:
        rng = self.rng
        pre = self.cur
        init = self.pick(F32)
        bound = self.fn["n"] if rng.random() < 0.7 else self.const(U32)
        hdr, body, cont, exit_ = (self.label(b) for b in ("for.cond", "for.body", "for.inc", "for.end"))
        i, acc = self.fresh("i"), self.fresh("acc")
        i_next, acc_next = self.fresh("inc"), self.fresh("acc_next")
        self.emit(f"OpBranch {hdr}")
        self.start_block(hdr)
        self.emit(f"{i} = OpPhi %uint %uint_0 {pre} {i_next} {cont}")
        self.emit(f"{acc} = OpPhi %float {init} {pre} {acc_next} {cont}")
        if rng.random() < 0.3:
            self.local_name(i, "i")
            self.local_name(acc, "sum")
        self.pool[U32].append(i)
        self.pool[F32].append(acc)
        cmp = self.define(BOOL, "cmp", f"OpULessThan %bool {i} {bound}")
        self.emit(f"OpLoopMerge {exit_} {cont} {rng.choice(LOOP_CONTROLS)}")
        self.emit(f"OpBranchConditional {cmp} {body} {exit_}")
        saved = self.snapshot()
        self.start_block(body)
        self.define(U64, "idxprom", f"OpUConvert %ulong {i}")
        self.region(depth + 1)
        self.memory_op()
        self.emit(f"{acc_next} = OpFAdd %float {acc} {self.pick(F32)}")
        self.emit(f"OpBranch {cont}")
        self.start_block(cont)
        self.emit(f"{i_next} = OpIAdd %uint {i} %uint_1")
        self.emit(f"OpBranch {hdr}")
        self.pool = saved
        self.start_block(exit_)

    def switch(self, depth: int) -> None:
        rng = self.rng
        ty = rng.choice([F32, U32])
        sel = self.define(U32, "sel", f"OpBitwiseAnd %uint {self.pick(U32)} %uint_7")
        cases = sorted(rng.sample(range(8), rng.randrange(2, 7)))
        labels = [self.label("sw.bb") for _ in cases]
        default, end = self.label("sw.default"), self.label("sw.epilog")
        self.emit(f"OpSelectionMerge {end} None")
        targets = " ".join(f"{c} {lab}" for c, lab in zip(cases, labels))
        self.emit(f"OpSwitch {sel} {default} {targets}")
        incoming = []
        for lab in labels + [default]:
            saved = self.snapshot()
            self.start_block(lab)
            if rng.random() < 0.3 and depth < 1:
                self.region(depth + 1)
            else:
                self.straight(rng.randrange(1, 5))
            incoming.append(f"{self.value(ty)} {self.cur}")
            self.emit(f"OpBranch {end}")
            self.pool = saved
        self.start_block(end)
        self.define(ty, "phi", f"OpPhi %{ty} {' '.join(incoming)}")

    def function(self, kernel: bool) -> None:
        rng = self.rng
        self.fn_names: set[str] = set()
        self.fn_unique = 0
        fid = self.fresh("kernel" if kernel else "helper")
        fname = fid[1:]
        self.pool = {ty: [] for ty in (F32, U32, U64, BOOL, F64, V4F, V4U)}
        # each function sees a sample of the constants
        self.fconsts = {
            ty: (rng.sample(pool, min(len(pool), 24)) + (["%uint_0", "%uint_1"] if ty == U32 else []))
            for ty, pool in self.const_pool.items()
        }
        self.name(fid, fname)
        if kernel:
            params = [("in", "%_ptr_CrossWorkgroup_float"), ("out", "%_ptr_CrossWorkgroup_float"),
                      ("idx", "%_ptr_CrossWorkgroup_uint"), ("n", "%uint")]
            self.emit(f"{fid} = OpFunction %void {rng.choice(['None'] * 3 + ['DontInline'])} %fn_kernel")
        else:
            params = [("a", "%float"), ("b", "%float"), ("n", "%uint"), ("p", "%_ptr_CrossWorkgroup_float")]
            self.emit(f"{fid} = OpFunction %float {rng.choice(FUNCTION_CONTROLS)} %fn_helper")
        ids = {}
        for pname, pty in params:
            pid = self.fresh(pname)
            ids[pname] = pid
            self.emit(f"{pid} = OpFunctionParameter {pty}")
            self.local_name(pid, pname)
            if pty.startswith("%_ptr"):
                r = rng.random()
                if r < 0.2:
                    self.param_group.append(pid)
                else:
                    self.put(self.annotations, f"OpDecorate {pid} FuncParamAttr NoCapture")
                if pname == "in":
                    self.put(self.annotations, f"OpDecorate {pid} FuncParamAttr NoWrite")
                if rng.random() < 0.3:
                    self.put(self.annotations, f"OpDecorate {pid} Alignment 4")
        entry = self.label("entry")
        self.start_block(entry)
        local = self.fresh("state")
        self.emit(f"{local} = OpVariable %_ptr_Function_S Function")
        self.local_name(local, "state")
        self.fn = {"kernel": kernel, "local": local, "n": ids["n"],
                   "fbufs": [ids["in"], ids["out"]] if kernel else [ids["p"]],
                   "ubuf": ids.get("idx")}
        self.pool[U32].append(ids["n"])
        if kernel:
            gv = self.define("v3", "gidv", "OpLoad %v3ulong %gid Aligned 32", named=False)
            self.define(U64, "call", f"OpCompositeExtract %ulong {gv} 0")
            self.put(self.entry_points, f'OpEntryPoint Kernel {fid} "{fname}" %gid')
            if rng.random() < 0.5:
                self.put(self.exec_modes, f"OpExecutionMode {fid} LocalSize {rng.choice([64, 128, 256])} 1 1")
            else:
                self.put(self.exec_modes, f"OpExecutionMode {fid} ContractionOff")
        else:
            self.pool[F32] += [ids["a"], ids["b"]]
            self.define(U64, "idxprom", f"OpUConvert %ulong {ids['n']}")
            self.put(self.annotations, f'OpDecorate {fid} LinkageAttributes "{fname}" Export')
        self.region(0)
        if kernel:
            self.emit("OpReturn")
        else:
            self.emit(f"OpReturnValue {self.pick(F32)}")
        self.emit("OpFunctionEnd")
        if not kernel:
            self.helpers.append(fid)

    def finish_groups(self) -> None:
        if not self.param_group:
            return
        self.put(self.annotations, "OpDecorate %noalias_group FuncParamAttr NoAlias")
        self.put(self.annotations, "OpDecorate %noalias_group FuncParamAttr NoCapture")
        self.put(self.annotations, "%noalias_group = OpDecorationGroup")
        for i in range(0, len(self.param_group), 100):
            self.put(self.annotations, f"OpGroupDecorate %noalias_group {' '.join(self.param_group[i:i + 100])}")

    def generate(self) -> str:
        self.preamble()
        self.type_section()
        while self.count < self.target - 4:
            self.function(kernel=bool(self.helpers) and self.rng.random() < 0.4)
        self.finish_groups()
        out = ["; SPIR-V benchmark module, generated by benchmarks/bench_spirv.py"]
        for section in (self.caps, self.header, self.entry_points, self.exec_modes, self.debug, self.names,
                        self.processed, self.annotations, self.types):
            out.extend(line if line.startswith("%") else "               " + line for line in section)
        out.extend(self.functions)
        return "\n".join(out) + "\n"


def generate_module(instructions: int, seed: int = 2024) -> tuple[str, int]:
    """A deterministic OpenCL Kernel module of at least ``instructions`` instructions: (text, count)."""
    gen = Generator(instructions, seed)
    text = gen.generate()
    return text, gen.count


# ------------------------------------------------------------------------------------------------
# Timing
# ------------------------------------------------------------------------------------------------


def time_call(fn) -> float:
    """Wall time of one in-process call (after a full collection, so garbage left by the previous
    run is not charged to this one; the collector stays enabled, as in real use)."""
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def time_process(cmd: list[str], env: dict | None = None) -> float:
    """Wall time of one tool run, process creation included."""
    start = time.perf_counter()
    result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode:
        sys.exit(f"bench_spirv: {' '.join(cmd)} failed:\n{result.stderr.decode(errors='replace')}")
    return elapsed


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE.parent, capture_output=True, text=True)
    except OSError:
        return None
    return out.stdout.strip() or None


def tool_version(tool: str) -> str:
    out = subprocess.run([tool, "--version"], capture_output=True, text=True)
    return out.stdout.splitlines()[0].strip() if out.stdout else "unknown"


TINY_MODULE = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"


def run_benchmark(args) -> int:
    t_total = time.perf_counter()
    spirv_as, spirv_dis = spirv_tool("spirv-as"), spirv_tool("spirv-dis")

    start = time.perf_counter()
    text, count = generate_module(args.instructions, args.seed)
    gen_time = time.perf_counter() - start

    work = Path(tempfile.mkdtemp(prefix="bench_spirv_", dir=args.keep))
    asm_path, bin_path = work / "module.spvasm", work / "module.spv"
    as_out, dis_out = work / "as_out.spv", work / "dis_out.spvasm"
    tiny_asm, tiny_bin, tiny_out = work / "tiny.spvasm", work / "tiny.spv", work / "tiny_out"
    asm_path.write_text(text)
    tiny_asm.write_text(TINY_MODULE)

    as_cmd = [spirv_as, "--target-env", TARGET_ENV, str(asm_path), "-o", str(as_out)]
    dis_cmd = [spirv_dis, "--no-color", str(bin_path), "-o", str(dis_out)]
    tiny_as_cmd = [spirv_as, "--target-env", TARGET_ENV, str(tiny_asm), "-o", str(tiny_out)]
    tiny_dis_cmd = [spirv_dis, "--no-color", str(tiny_bin), "-o", str(tiny_out)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE.parent / "src"), env.get("PYTHONPATH")]))
    cli = [sys.executable, "-m", "spirvkit"]
    cli_as_cmd = [*cli, "as", "--target-env", TARGET_ENV, str(asm_path), "-o", str(work / "cli_out.spv")]
    cli_dis_cmd = [*cli, "dis", str(bin_path), "-o", str(work / "cli_out.spvasm")]
    cli_start_cmd = [*cli, "--version"]

    # Reference outputs from SPIRV-Tools, then the agreement checks (they also warm everything up).
    subprocess.run([spirv_as, "--target-env", TARGET_ENV, str(asm_path), "-o", str(bin_path)], check=True)
    subprocess.run([spirv_as, "--target-env", TARGET_ENV, str(tiny_asm), "-o", str(tiny_bin)], check=True)
    binary = bin_path.read_bytes()
    subprocess.run(dis_cmd, check=True)
    reference_text = dis_out.read_text(encoding="utf-8", errors="surrogateescape")

    start = time.perf_counter()
    load_grammar()
    first_grammar_load = time.perf_counter() - start

    ours_binary = spirvkit.assemble(text, TARGET_ENV)
    ours_text = spirvkit.disassemble(binary)
    module = Module.from_bytes(binary)
    checks = {
        # the generator word (word 2) differs by design: spirvkit writes its own tool id
        "assemble_matches_spirv_as": ours_binary[:8] + ours_binary[12:] == binary[:8] + binary[12:],
        "disassemble_matches_spirv_dis": ours_text == reference_text,
        "to_bytes_round_trip": module.to_bytes() == binary,
    }
    for name, ok in checks.items():
        if not ok:
            print(f"WARNING: {name} failed: the timings compare different outputs", file=sys.stderr)

    # Timed runs, interleaved so that drift in machine load hits every measurement alike.
    names = ["spirvkit.assemble", "spirv-as", "spirvkit.disassemble", "spirv-dis", "Module.from_bytes",
             "Module.to_bytes", "spirv-as start-up", "spirv-dis start-up", "spirvkit grammar load"]
    if args.cli:
        names += ["spirvkit as (CLI)", "spirvkit dis (CLI)", "spirvkit CLI start-up"]
    runs: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(args.repeat):
        runs["spirv-as"].append(time_process(as_cmd))
        runs["spirvkit.assemble"].append(time_call(lambda: spirvkit.assemble(text, TARGET_ENV)))
        runs["spirv-dis"].append(time_process(dis_cmd))
        runs["spirvkit.disassemble"].append(time_call(lambda: spirvkit.disassemble(binary)))
        runs["Module.from_bytes"].append(time_call(lambda: Module.from_bytes(binary)))
        runs["Module.to_bytes"].append(time_call(module.to_bytes))
        if args.cli:
            runs["spirvkit as (CLI)"].append(time_process(cli_as_cmd, env))
            runs["spirvkit dis (CLI)"].append(time_process(cli_dis_cmd, env))
    # Fixed costs: more runs, they are short.
    for _ in range(max(10, args.repeat)):
        runs["spirv-as start-up"].append(time_process(tiny_as_cmd))
        runs["spirv-dis start-up"].append(time_process(tiny_dis_cmd))
        if args.cli:
            runs["spirvkit CLI start-up"].append(time_process(cli_start_cmd, env))
    for _ in range(args.repeat):
        load_grammar.cache_clear()
        runs["spirvkit grammar load"].append(time_call(load_grammar))

    med = {name: statistics.median(values) for name, values in runs.items()}
    as_net = med["spirv-as"] - med["spirv-as start-up"]
    dis_net = med["spirv-dis"] - med["spirv-dis start-up"]
    grammar = med["spirvkit grammar load"]
    ratios = {
        # the headline: work against work (spirvkit with its grammar loaded, the tool less its start-up)
        "assemble": med["spirvkit.assemble"] / as_net,
        "disassemble": med["spirvkit.disassemble"] / dis_net,
        # whole invocations: spirvkit plus its grammar load against the tool's whole process
        "assemble_with_fixed_costs": (med["spirvkit.assemble"] + grammar) / med["spirv-as"],
        "disassemble_with_fixed_costs": (med["spirvkit.disassemble"] + grammar) / med["spirv-dis"],
    }
    if args.cli:
        ratios["assemble_cli_end_to_end"] = med["spirvkit as (CLI)"] / med["spirv-as"]
        ratios["disassemble_cli_end_to_end"] = med["spirvkit dis (CLI)"] / med["spirv-dis"]

    result = {
        "benchmark": "spirv assembler/disassembler: spirvkit vs SPIRV-Tools",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "spirvkit": {"version": spirvkit.__version__, "git_commit": git_commit()},
        "spirv_tools": tool_version(spirv_as),
        "target_env": TARGET_ENV,
        "module": {
            "requested_instructions": args.instructions,
            "instructions": count,
            "seed": args.seed,
            "text_bytes": len(text.encode()),
            "binary_bytes": len(binary),
            "disassembly_bytes": len(reference_text.encode("utf-8", "surrogateescape")),
            "generation_s": round(gen_time, 4),
        },
        "repeat": args.repeat,
        "statistic": "median",
        "checks": checks,
        "first_grammar_load_s": first_grammar_load,
        "median_s": med,
        "min_s": {name: min(values) for name, values in runs.items()},
        "runs_s": runs,
        "derived_s": {"spirv-as minus start-up": as_net, "spirv-dis minus start-up": dis_net},
        "ratios_spirvkit_over_spirv_tools": ratios,
        "aim": {"max_ratio": AIM, "assemble_met": ratios["assemble"] <= AIM,
                "disassemble_met": ratios["disassemble"] <= AIM},
    }
    table = markdown_table(result)
    print(table)
    if not args.no_write:
        args.results.mkdir(parents=True, exist_ok=True)
        (args.results / "spirv.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.results / "spirv.md").write_text(table)
        print(f"wrote {args.results / 'spirv.json'} and {args.results / 'spirv.md'}")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"kept the module and outputs in {work}")
    print(f"total benchmark time {time.perf_counter() - t_total:.1f} s")
    return 0 if all(checks.values()) else 1


def markdown_table(r: dict) -> str:
    m = r["median_s"]
    ratios = r["ratios_spirvkit_over_spirv_tools"]
    mod = r["module"]
    n = mod["instructions"]
    mach = r["machine"]

    def ms(x: float) -> str:
        return f"{x * 1000:.1f} ms"

    def us(x: float) -> str:
        return f"{x / n * 1e6:.2f}"

    def verdict(x: float) -> str:
        return "yes" if x <= AIM else "no"

    lines = [
        f"# SPIR-V assembler/disassembler benchmark: spirvkit vs {r['spirv_tools']}",
        "",
        f"{r['date']} · {n} instructions ({mod['text_bytes'] / 1e6:.1f} MB text, "
        f"{mod['binary_bytes'] / 1e6:.1f} MB binary) · median of {r['repeat']} runs · "
        f"{mach['cpu'] or 'unknown CPU'}, nproc {mach['nproc']} · Python {mach['python']} · "
        f"spirvkit {r['spirvkit']['version']} ({(r['spirvkit']['git_commit'] or '?')[:10]})",
        "",
        "| operation | spirvkit | SPIRV-Tools | SPIRV-Tools less start-up | ratio (work) | "
        f"ratio (with fixed costs) | aim <= {AIM:g}x met |",
        "|---|---:|---:|---:|---:|---:|:---:|",
        f"| assemble | {ms(m['spirvkit.assemble'])} | {ms(m['spirv-as'])} | "
        f"{ms(r['derived_s']['spirv-as minus start-up'])} | {ratios['assemble']:.2f}x | "
        f"{ratios['assemble_with_fixed_costs']:.2f}x | {verdict(ratios['assemble'])} |",
        f"| disassemble | {ms(m['spirvkit.disassemble'])} | {ms(m['spirv-dis'])} | "
        f"{ms(r['derived_s']['spirv-dis minus start-up'])} | {ratios['disassemble']:.2f}x | "
        f"{ratios['disassemble_with_fixed_costs']:.2f}x | {verdict(ratios['disassemble'])} |",
        "",
        "| spirvkit step | median | µs / instruction |",
        "|---|---:|---:|",
        f"| spirvkit.assemble(text) | {ms(m['spirvkit.assemble'])} | {us(m['spirvkit.assemble'])} |",
        f"| spirvkit.disassemble(binary) | {ms(m['spirvkit.disassemble'])} | {us(m['spirvkit.disassemble'])} |",
        f"| Module.from_bytes(binary) | {ms(m['Module.from_bytes'])} | {us(m['Module.from_bytes'])} |",
        f"| module.to_bytes() | {ms(m['Module.to_bytes'])} | {us(m['Module.to_bytes'])} |",
        "",
        "| fixed cost | median |",
        "|---|---:|",
        f"| spirvkit grammar load (load_grammar, once per process) | {ms(m['spirvkit grammar load'])} |",
        f"| spirv-as start-up (tiny module) | {ms(m['spirv-as start-up'])} |",
        f"| spirv-dis start-up (tiny module) | {ms(m['spirv-dis start-up'])} |",
    ]
    if "spirvkit as (CLI)" in m:
        lines += [
            f"| spirvkit CLI start-up (python -m spirvkit --version) | {ms(m['spirvkit CLI start-up'])} |",
            "",
            "| whole command (fresh process, file in, file out) | spirvkit CLI | SPIRV-Tools | ratio |",
            "|---|---:|---:|---:|",
            f"| as | {ms(m['spirvkit as (CLI)'])} | {ms(m['spirv-as'])} | {ratios['assemble_cli_end_to_end']:.2f}x |",
            f"| dis | {ms(m['spirvkit dis (CLI)'])} | {ms(m['spirv-dis'])} | "
            f"{ratios['disassemble_cli_end_to_end']:.2f}x |",
        ]
    checks = ", ".join(f"{k}: {'ok' if v else 'FAILED'}" for k, v in r["checks"].items())
    lines += [
        "",
        "ratio (work) = spirvkit (grammar already loaded) / (SPIRV-Tools process time - its start-up); "
        "ratio (with fixed costs) = (spirvkit + grammar load) / SPIRV-Tools process time.",
        f"Output checks: {checks}.",
        "",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# Profiling
# ------------------------------------------------------------------------------------------------


def run_profile(args) -> int:
    text, count = generate_module(args.instructions, args.seed)
    load_grammar()
    binary = spirvkit.assemble(text, TARGET_ENV)
    targets = {
        "assemble": lambda: spirvkit.assemble(text, TARGET_ENV),
        "disassemble": lambda: spirvkit.disassemble(binary),
        "from_bytes": lambda: Module.from_bytes(binary),
    }
    chosen = list(targets) if args.profile == "all" else [args.profile]
    for name in chosen:
        fn = targets[name]
        fn()  # warm
        gc.collect()
        profiler = cProfile.Profile()
        profiler.enable()
        fn()
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(args.top)
        print(f"=== cProfile of spirvkit {name} on {count} instructions, sorted by tottime ===")
        print(out.getvalue())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instructions", "-n", type=int, default=120_000,
                        help="instructions in the generated module (at least; default 120000)")
    parser.add_argument("--repeat", "-r", type=int, default=5, help="timed runs of each operation (default 5)")
    parser.add_argument("--seed", type=int, default=2024, help="generator seed (default 2024)")
    parser.add_argument("--no-cli", dest="cli", action="store_false",
                        help="skip timing the spirvkit command line in fresh processes")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where spirv.json and spirv.md go")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="keep the generated module and outputs in a folder under DIR")
    parser.add_argument("--profile", choices=["assemble", "disassemble", "from_bytes", "all"],
                        help="instead of timing, print a cProfile of spirvkit (sorted by tottime)")
    parser.add_argument("--top", type=int, default=25, help="rows of profile output (default 25)")
    parser.add_argument("--write-module", type=Path, metavar="FILE", help="write the generated module and exit")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.instructions < 1:
        parser.error("--repeat and --instructions must be positive")
    if args.write_module:
        text, count = generate_module(args.instructions, args.seed)
        args.write_module.write_text(text)
        print(f"wrote {count} instructions to {args.write_module}")
        return 0
    if args.profile:
        return run_profile(args)
    return run_benchmark(args)


if __name__ == "__main__":
    sys.exit(main())
