"""Property-based tests (hypothesis).

1. Randomly generated VALID modules (Kernel and Shader headers, integer/float types of every
   width with their capabilities, constants spelled every way the text format allows, vectors,
   arrays, pointers, structs, odd unicode names, decorations and decoration groups, functions
   with arithmetic/composite/memory instructions and an OpSwitch on a random-width selector)
   assemble, decode and write back byte-identical, disassemble and re-assemble to the very same
   binary, and -- for a bounded number of them -- agree with spirv-as/spirv-dis.
2. Randomly MUTATED corpus binaries and texts never make Module.from_bytes, spirvkit.disassemble
   or spirvkit.assemble raise anything but a SpirvError (any other exception is a bug).

The default example counts keep this file well under a minute on 2 cores; the ``slow`` variants
(``pytest -m slow`` or SPIRVKIT_FULL=1) run many more examples.
"""

from __future__ import annotations

import math
import re
import struct

import pytest
from corpus import asm_files, binary_files, target_env_of
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st
from peers import spirv_as, spirv_dis

import spirvkit
from spirvkit import AssemblyError, BinaryError, Module, SpirvError
from spirvkit.spirv.grammar import load_grammar

from full_run import require_full_run

FAST = settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=150)
EXHAUSTIVE = settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=3000)


def _require_exhaustive_run(request):
    """The slow variants run only when asked for: ``-m slow`` or SPIRVKIT_FULL=1."""
    require_full_run(request)


# ==================================================================================================
# 1. generated valid modules
# ==================================================================================================

_IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,9}", fullmatch=True) | st.integers(0, 5000).map(str)
# Names for OpName/OpMemberName/entry points: any unicode except NUL and lone surrogates, plus
# names that collide with the friendly names spirv-dis makes up.
_NAME = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=12),
    st.sampled_from(["uint", "float", "v4float", "main", "1", "_", "", "a b", 'q"uote', "back\\slash", "%x", "ünï✓", "日本"]),
)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_F = {16: (5, 10), 32: (8, 23), 64: (11, 52)}


def _float_value(bits: int, width: int) -> float:
    if width == 16:
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if width == 32:
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


@st.composite
def float_spelling(draw, width: int) -> str:
    """A spelling of a float of ``width`` bits: decimal, hex float, +-0, subnormals, infinities,
    NaNs with payloads (hex floats beyond the range)."""
    exp_bits, frac_bits = _F[width]
    max_exp = (1 << exp_bits) - 1
    kind = draw(st.sampled_from(["normal", "normal", "normal", "zero", "subnormal", "inf", "nan", "simple"]))
    sign = draw(st.booleans())
    minus = "-" if sign else ""
    if kind == "simple":
        return draw(st.sampled_from(["0", "1", "-1", "2.5", "-0.5", "1.", ".25", "+3", "1e2", "1.5E-1", "-0"]))
    if kind == "zero":
        return draw(st.sampled_from([f"{minus}0", f"{minus}0.0", f"{minus}0x0p+0", f"{minus}0.0e5"]))
    if kind == "inf":
        return f"{minus}0x1p+{max_exp - ((1 << (exp_bits - 1)) - 1)}"
    if kind == "nan":
        payload = draw(st.integers(1, (1 << frac_bits) - 1))
        digits = (frac_bits + 3) // 4
        shift = digits * 4 - frac_bits
        return f"{minus}0x1.{payload << shift:0{digits}x}p+{max_exp - ((1 << (exp_bits - 1)) - 1)}"
    if kind == "subnormal":
        bits = draw(st.integers(1, (1 << frac_bits) - 1))
    else:
        bits = (draw(st.integers(1, max_exp - 1)) << frac_bits) | draw(st.integers(0, (1 << frac_bits) - 1))
    value = _float_value(bits, width)
    assert math.isfinite(value)
    style = draw(st.sampled_from(["repr", "hex", "g", "e"] if width != 16 else ["repr", "hex", "e"]))
    if style == "repr":
        text = repr(value)
    elif style == "hex":
        text = value.hex()
    elif style == "g":
        text = ("%.9g" if width == 32 else "%.17g") % value
    else:
        text = "%.6e" % value
        if abs(float(text)) > {16: 65504.0, 32: 3.4028234663852886e38, 64: 1.7976931348623157e308}[width]:
            text = repr(value)  # rounding the digits went past the largest finite value
    return ("-" + text) if sign else text


@st.composite
def int_spelling(draw, width: int, signed: bool, value: int | None = None) -> tuple[str, int]:
    """A spelling of an integer that fits the type: decimal, +decimal, hex (which for a signed
    type may spell the sign bit), octal, negative. Returns (text, value as bits)."""
    if value is None:
        lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
        value = draw(st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0, 1, -1 if signed else 2])))
    bits = value & ((1 << width) - 1)
    if value < 0:
        style = draw(st.sampled_from(["dec", "hexbits"]))
        return (str(value) if style == "dec" else f"0x{bits:x}"), bits
    style = draw(st.sampled_from(["dec", "plus", "hex", "HEX", "oct"]))
    text = {"dec": str(value), "plus": f"+{value}", "hex": f"0x{value:x}", "HEX": f"0X{value:X}", "oct": f"0{value:o}"}[style]
    return text, bits


class _Module:
    """Collects the sections of a module under construction; every id gets a unique random name."""

    def __init__(self, draw, kernel: bool):
        self.draw = draw
        self.kernel = kernel
        self.used: set[str] = set()
        self.caps = ["Addresses", "Kernel"] if kernel else ["Shader"]
        self.extensions: list[str] = []
        self.imports: list[str] = []
        self.import_id: str | None = None
        self.entry: list[str] = []
        self.modes: list[str] = []
        self.debug: list[str] = []
        self.names: list[str] = []
        self.annotations: list[str] = []
        self.types: list[str] = []
        self.functions: list[str] = []
        self.type_of: dict[str, tuple] = {}  # type id -> descriptor
        self.type_ids: dict[tuple, str] = {}  # scalar/vector/pointer descriptor -> type id
        self.constants: dict[str, list[str]] = {}  # type id -> constant ids
        self.results: list[str] = []  # every result id (for OpName / decorations)

    def new_id(self) -> str:
        base = self.draw(_IDENT)
        name = base
        n = 0
        while name in self.used:
            n += 1
            name = f"{base}_{n}"
        self.used.add(name)
        self.results.append("%" + name)
        return "%" + name

    def cap(self, name: str):
        if name not in self.caps:
            self.caps.append(name)

    def type(self, descriptor: tuple) -> str:
        """The id of a (scalar, vector, pointer, void, bool, function) type, declared once."""
        if descriptor in self.type_ids:
            return self.type_ids[descriptor]
        kind = descriptor[0]
        if kind == "int":
            _, width, signed = descriptor
            if width in (8, 16, 64):
                self.cap({8: "Int8", 16: "Int16", 64: "Int64"}[width])
            decl = f"OpTypeInt {width} {int(signed)}"
        elif kind == "float":
            if descriptor[1] != 32:
                self.cap({16: "Float16", 64: "Float64"}[descriptor[1]])
            decl = f"OpTypeFloat {descriptor[1]}"
        elif kind == "vec":
            if descriptor[2] > 4:
                self.cap("Vector16")
            decl = f"OpTypeVector {self.type(descriptor[1])} {descriptor[2]}"
        elif kind == "ptr":
            decl = f"OpTypePointer {descriptor[1]} {self.type_id_of(descriptor[2])}"
        elif kind == "fn":
            decl = "OpTypeFunction " + " ".join(self.type(d) for d in descriptor[1:])
        else:
            decl = {"void": "OpTypeVoid", "bool": "OpTypeBool"}[kind]
        tid = self.new_id()
        self.types.append(f"{tid} = {decl}")
        self.type_ids[descriptor] = tid
        self.type_of[tid] = descriptor
        return tid

    def type_id_of(self, descriptor_or_id) -> str:
        return descriptor_or_id if isinstance(descriptor_or_id, str) else self.type(descriptor_or_id)

    def constant(self, descriptor: tuple, spec: bool = False) -> str:
        draw = self.draw
        tid = self.type(descriptor)
        cid = self.new_id()
        op = "OpSpecConstant" if spec else "OpConstant"
        if descriptor[0] == "int":
            text, _ = draw(int_spelling(descriptor[1], descriptor[2]))
        else:
            text = draw(float_spelling(descriptor[1]))
        self.types.append(f"{cid} = {op} {tid} {text}")
        if spec:
            self.annotations.append(f"OpDecorate {cid} SpecId {draw(st.integers(0, 1 << 31))}")
        self.constants.setdefault(tid, []).append(cid)
        return cid

    def value_of(self, descriptor: tuple) -> str:
        """An existing constant of the type, or a new one (OpConstant/OpUndef/OpConstantNull)."""
        tid = self.type(descriptor)
        pool = self.constants.get(tid, [])
        if pool and self.draw(st.booleans()):
            return self.draw(st.sampled_from(pool))
        if descriptor[0] in ("int", "float"):
            return self.constant(descriptor, spec=self.draw(st.integers(0, 9)) == 0)
        if descriptor[0] == "bool":
            cid = self.new_id()
            self.types.append(f"{cid} = {self.draw(st.sampled_from(['OpConstantTrue', 'OpConstantFalse', 'OpSpecConstantTrue']))} {tid}")
        elif descriptor[0] == "vec" and self.draw(st.booleans()):
            parts = [self.value_of(descriptor[1]) for _ in range(descriptor[2])]
            cid = self.new_id()
            self.types.append(f"{cid} = OpConstantComposite {tid} {' '.join(parts)}")
        else:
            cid = self.new_id()
            self.types.append(f"{cid} = {self.draw(st.sampled_from(['OpConstantNull', 'OpUndef']))} {tid}")
        self.constants.setdefault(tid, []).append(cid)
        return cid


def _scalar(draw, kernel: bool) -> tuple:
    if draw(st.booleans()):
        return ("int", draw(st.sampled_from([8, 16, 32, 64])), False if kernel and draw(st.booleans()) else draw(st.booleans()))
    return ("float", draw(st.sampled_from([16, 32, 64])))


@st.composite
def valid_modules(draw) -> tuple[str, str]:
    """(assembly text, target env) of a small but varied valid module."""
    kernel = draw(st.booleans())
    m = _Module(draw, kernel)
    env = draw(
        st.sampled_from(
            ["spv1.0", "spv1.1", "spv1.2", "spv1.3", "spv1.4", "spv1.5", "spv1.6", "opencl1.2", "opencl2.0", "opencl2.2"]
            if kernel
            else ["spv1.0", "spv1.3", "spv1.5", "spv1.6", "vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"]
        )
    )
    if kernel:
        memory_model = draw(st.sampled_from(["Physical32 OpenCL", "Physical64 OpenCL"]))
        storages = ["CrossWorkgroup", "Workgroup", "UniformConstant"]
    else:
        memory_model = "Logical GLSL450"
        storages = ["Private", "Workgroup"]
    if draw(st.booleans()):
        m.import_id = m.new_id()
        m.imports.append(f"{m.import_id} = OpExtInstImport " + ('"OpenCL.std"' if kernel else '"GLSL.std.450"'))
    void = m.type(("void",))

    # -- types, constants, composites ------------------------------------------------------------
    scalars = [_scalar(draw, kernel) for _ in range(draw(st.integers(1, 5)))]
    for s in scalars:
        for _ in range(draw(st.integers(0, 3))):
            m.constant(s)
    composite_types: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        what = draw(st.sampled_from(["vec", "arr", "struct", "ptr", "bool"]))
        if what == "vec":
            n = draw(st.sampled_from([2, 3, 4] + ([8, 16] if kernel else [])))
            t = m.type(("vec", draw(st.sampled_from(scalars)), n))
            m.value_of(("vec", draw(st.sampled_from(scalars)), n))
        elif what == "arr":
            length = m.new_id()
            spelled, _ = draw(int_spelling(32, False, draw(st.integers(1, 1 << 20))))
            m.types.append(f"{length} = OpConstant {m.type(('int', 32, False))} {spelled}")
            elem = m.type(draw(st.sampled_from(scalars)))
            t = m.new_id()
            m.types.append(f"{t} = OpTypeArray {elem} {length}")
            m.type_of[t] = ("arr", elem)
            if draw(st.booleans()):
                m.annotations.append(f"OpDecorate {t} ArrayStride {draw(st.integers(1, 64))}")
        elif what == "struct":
            members = [m.type(draw(st.sampled_from(scalars))) for _ in range(draw(st.integers(1, 4)))]
            members += draw(st.lists(st.sampled_from(composite_types), max_size=2)) if composite_types else []
            t = m.new_id()
            m.types.append(f"{t} = OpTypeStruct {' '.join(members)}")
            m.type_of[t] = ("struct", tuple(members))
            for i in range(len(members)):
                if draw(st.booleans()):
                    m.names.append(f"OpMemberName {t} {i} {_quote(draw(_NAME))}")
                if draw(st.booleans()):
                    m.annotations.append(f"OpMemberDecorate {t} {i} Offset {draw(st.integers(0, 1 << 16))}")
        elif what == "ptr":
            pointee = draw(st.sampled_from(composite_types)) if composite_types and draw(st.booleans()) else m.type(draw(st.sampled_from(scalars)))
            t = m.type(("ptr", draw(st.sampled_from(storages + ["Function"])), pointee))
        else:
            t = m.type(("bool",))
            m.value_of(("bool",))
        composite_types.append(t)

    # -- global variables ------------------------------------------------------------------------------
    interface = []
    for _ in range(draw(st.integers(0, 3))):
        pointee = m.type(draw(st.sampled_from(scalars)))
        storage = draw(st.sampled_from(storages))
        ptr = m.type(("ptr", storage, pointee))
        var = m.new_id()
        init = ""
        if storage in ("Private", "CrossWorkgroup", "UniformConstant") and m.constants.get(pointee) and draw(st.booleans()):
            init = " " + draw(st.sampled_from(m.constants[pointee]))
        m.types.append(f"{var} = OpVariable {ptr} {storage}{init}")
        interface.append(var)
        if kernel and draw(st.booleans()):
            m.annotations.append(f"OpDecorate {var} Alignment {draw(st.sampled_from([1, 2, 4, 8, 16, 4096]))}")
        elif not kernel and draw(st.booleans()):
            m.annotations.append(f"OpDecorate {var} Restrict")
    if draw(st.booleans()):
        comp = ("int", 64 if kernel else 32, False)
        ptr = m.type(("ptr", "Input", m.type(("vec", comp, 3))))
        gid = m.new_id()
        m.types.append(f"{gid} = OpVariable {ptr} Input")
        m.annotations.append(f"OpDecorate {gid} BuiltIn GlobalInvocationId")
        interface.append(gid)

    # -- the helper function: parameters, arithmetic, composites, memory, a switch -----------------------
    params = [draw(st.sampled_from(scalars)) for _ in range(draw(st.integers(0, 3)))]
    selector_type = ("int", draw(st.sampled_from([8, 16, 32, 64])), draw(st.booleans()))
    if draw(st.booleans()):
        params.append(selector_type)
    ret = draw(st.sampled_from([("void",), *scalars]))
    fn_type = m.type(("fn", ret, *params))
    helper = m.new_id()
    body: list[str] = []
    control = draw(st.sampled_from(["None", "Inline", "DontInline", "Pure", "Const", "Inline|Pure"]))
    body.append(f"{helper} = OpFunction {m.type(ret)} {control} {fn_type}")
    values: dict[tuple, list[str]] = {}
    for p in params:
        pid = m.new_id()
        body.append(f"{pid} = OpFunctionParameter {m.type(p)}")
        values.setdefault(p, []).append(pid)
    entry = m.new_id()
    body.append(f"{entry} = OpLabel")

    def value(descriptor):
        pool = values.get(descriptor, [])
        if pool and draw(st.booleans()):
            return draw(st.sampled_from(pool))
        return m.value_of(descriptor)

    variables = []
    for _ in range(draw(st.integers(0, 2))):
        pointee = draw(st.sampled_from(scalars))
        var = m.new_id()
        body.append(f"{var} = OpVariable {m.type(('ptr', 'Function', m.type(pointee)))} Function")
        variables.append((var, pointee))
    for _ in range(draw(st.integers(0, 8))):
        t = draw(st.sampled_from(scalars))
        tid = m.type(t)
        rid = m.new_id()
        op = draw(st.sampled_from(["binary", "unary", "compare", "select", "vector", "memory", "ext", "convert"]))
        if op == "binary":
            name = draw(st.sampled_from(["OpIAdd", "OpISub", "OpIMul", "OpBitwiseAnd", "OpBitwiseXor", "OpShiftLeftLogical"]
                                        if t[0] == "int" else ["OpFAdd", "OpFSub", "OpFMul", "OpFDiv", "OpFRem"]))
            body.append(f"{rid} = {name} {tid} {value(t)} {value(t)}")
        elif op == "unary":
            name = draw(st.sampled_from(["OpSNegate", "OpNot"] if t[0] == "int" else ["OpFNegate"]))
            body.append(f"{rid} = {name} {tid} {value(t)}")
        elif op == "compare":
            name = draw(st.sampled_from(["OpIEqual", "OpULessThan", "OpSGreaterThan"] if t[0] == "int" else ["OpFOrdLessThan", "OpFUnordEqual"]))
            body.append(f"{rid} = {name} {m.type(('bool',))} {value(t)} {value(t)}")
            values.setdefault(("bool",), []).append(rid)
            continue
        elif op == "select":
            body.append(f"{rid} = OpSelect {tid} {value(('bool',))} {value(t)} {value(t)}")
        elif op == "vector":
            n = draw(st.sampled_from([2, 3, 4]))
            vt = ("vec", t, n)
            parts = " ".join(value(t) for _ in range(n))
            body.append(f"{rid} = OpCompositeConstruct {m.type(vt)} {parts}")
            shuffled = m.new_id()
            indices = " ".join(str(draw(st.sampled_from(list(range(2 * n)) + [0xFFFFFFFF]))) for _ in range(n))
            body.append(f"{shuffled} = OpVectorShuffle {m.type(vt)} {rid} {rid} {indices}")
            extracted = m.new_id()
            body.append(f"{extracted} = OpCompositeExtract {tid} {shuffled} {draw(st.integers(0, n - 1))}")
            values.setdefault(t, []).append(extracted)
            continue
        elif op == "memory" and variables:
            var, pointee = draw(st.sampled_from(variables))
            access = draw(st.sampled_from(["", " Volatile", " Aligned 4", " Volatile|Aligned 16", " Nontemporal", " None"]))
            body.append(f"OpStore {var} {value(pointee)}{access}")
            body.append(f"{rid} = OpLoad {m.type(pointee)} {var}{draw(st.sampled_from(['', ' Aligned 8', ' Volatile']))}")
            values.setdefault(pointee, []).append(rid)
            continue
        elif op == "ext" and m.import_id is not None:
            if t[0] == "float":
                name = draw(st.sampled_from(["sqrt", "fabs", "fmax"] if kernel else ["Sqrt", "FAbs", "FMax"]))
                args = " ".join(value(t) for _ in range(2 if name in ("fmax", "FMax") else 1))
            else:
                name = draw(st.sampled_from(["s_abs", "u_max"] if kernel else ["SAbs", "UMax"]))
                args = " ".join(value(t) for _ in range(2 if name in ("u_max", "UMax") else 1))
            body.append(f"{rid} = OpExtInst {tid} {m.import_id} {name} {args}")
        elif op == "convert":
            src = draw(st.sampled_from(scalars))
            if src[0] == "int" and t[0] == "int":
                name = "OpUConvert" if src[2] == t[2] == False else "OpSConvert"  # noqa: E712
            elif src[0] == "float" and t[0] == "float":
                name = "OpFConvert"
            elif src[0] == "int":
                name = "OpConvertSToF" if src[2] else "OpConvertUToF"
            else:
                name = "OpConvertFToS" if t[2] else "OpConvertFToU"
            body.append(f"{rid} = {name} {tid} {value(src)}")
        else:
            body.append(f"{rid} = OpCopyObject {tid} {value(t)}")
        values.setdefault(t, []).append(rid)
    # the switch, on a selector of random width, with distinct case literals spelled every way
    selector = value(selector_type)
    merge = m.new_id()
    width, signed = selector_type[1], selector_type[2]
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    literals = draw(st.lists(st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0])), unique_by=lambda v: v & ((1 << width) - 1), max_size=6))
    labels = [m.new_id() for _ in literals]
    default = draw(st.sampled_from([merge, *labels])) if labels else merge
    body.append(f"OpSelectionMerge {merge} {draw(st.sampled_from(['None', 'Flatten', 'DontFlatten']))}")
    cases = " ".join(f"{draw(int_spelling(width, signed, v))[0]} {label}" for v, label in zip(literals, labels))
    body.append(f"OpSwitch {selector} {default} {cases}".rstrip())
    for label in labels:
        body.append(f"{label} = OpLabel")
        body.append(f"OpBranch {merge}")
    body.append(f"{merge} = OpLabel")
    if ret == ("void",):
        body.append("OpReturn")
    else:
        body.append(f"OpReturnValue {value(ret)}")
    body.append("OpFunctionEnd")

    # -- the entry point: calls the helper --------------------------------------------------------------
    main = m.new_id()
    main_label = m.new_id()
    call = m.new_id()
    args = " ".join(m.value_of(p) for p in params)
    m.functions += [
        f"{main} = OpFunction {void} None {m.type(('fn', ('void',)))}",
        f"{main_label} = OpLabel",
        f"{call} = OpFunctionCall {m.type(ret)} {helper} {args}".rstrip(),
        "OpReturn",
        "OpFunctionEnd",
    ]
    m.functions += body
    entry_name = _quote(draw(_NAME))
    if kernel:
        m.entry.append(f"OpEntryPoint Kernel {main} {entry_name} {' '.join(interface)}".rstrip())
        if draw(st.booleans()):
            m.modes.append(f"OpExecutionMode {main} LocalSize {draw(st.integers(1, 64))} 1 1")
    else:
        m.entry.append(f"OpEntryPoint GLCompute {main} {entry_name} {' '.join(interface)}".rstrip())
        m.modes.append(f"OpExecutionMode {main} LocalSize {draw(st.integers(1, 64))} {draw(st.integers(1, 4))} 1")

    # -- debug names and decorations on random ids ----------------------------------------------------
    if draw(st.booleans()):
        string = m.new_id()
        m.debug.append(f"{string} = OpString {_quote(draw(_NAME))}")
        m.debug.append(f"OpSource {'OpenCL_C 200000' if kernel else 'GLSL 450'} {string}")
    for rid in draw(st.lists(st.sampled_from(m.results), max_size=8)):
        m.names.append(f"OpName {rid} {_quote(draw(_NAME))}")
    decorated = draw(st.lists(st.sampled_from(m.results), max_size=4))
    if decorated and draw(st.booleans()):
        group = m.new_id()
        m.annotations.append(f"OpDecorate {group} RelaxedPrecision")
        m.annotations.append(f"{group} = OpDecorationGroup")
        m.annotations.append(f"OpGroupDecorate {group} {' '.join(decorated)}")
    elif decorated:
        m.annotations += [f"OpDecorate {rid} RelaxedPrecision" for rid in decorated]
    if env not in ("spv1.0", "opencl1.2", "opencl2.0", "vulkan1.0") and draw(st.booleans()):
        m.debug.append(f"OpModuleProcessed {_quote(draw(_NAME))}")  # SPIR-V 1.1 and later

    lines = (
        [f"OpCapability {c}" for c in m.caps]
        + m.extensions
        + m.imports
        + [f"OpMemoryModel {memory_model}"]
        + m.entry
        + m.modes
        + [line for line in m.debug if "OpString" in line]
        + [line for line in m.debug if "OpSource" in line]
        + m.names
        + [line for line in m.debug if "OpModuleProcessed" in line]
        + m.annotations
        + m.types
        + m.functions
    )
    return _layout(draw, lines), env


def _layout(draw, lines: list[str]) -> str:
    """Lay the instructions out with varied whitespace, comments and line breaks."""
    out = []
    for line in lines:
        if draw(st.integers(0, 9)) == 0:
            out.append(draw(st.sampled_from(["", "; a comment", ";", "   ; ünïcode comment ✓", "\t"])))
        style = draw(st.integers(0, 3))
        if style == 0 and "=" in line.split('"')[0]:
            rid, rest = line.split(" = ", 1)
            line = f"{rid:>14} = {rest}"
        elif style == 0:
            line = " " * 15 + line
        elif style == 1:
            line = "\t" + line.replace(" = ", "\t=\t", 1) if '"' not in line else "\t" + line
        if draw(st.integers(0, 7)) == 0:
            line += draw(st.sampled_from(["  ; trailing", " ;", "\t; x = OpFoo %y"]))
        if draw(st.integers(0, 9)) == 0 and out and not out[-1].lstrip().startswith(";") and ";" not in out[-1]:
            out[-1] += " " + line.strip()  # two instructions on one line
        else:
            out.append(line)
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return newline.join(out) + draw(st.sampled_from(["", newline, newline * 2]))


def _env_of(binary: bytes) -> str:
    major, minor = Module.from_bytes(binary).version
    return f"spv{major}.{minor}"


def _check_round_trip(case):
    text, env = case
    note(text)
    binary = spirvkit.assemble(text, env)
    module = Module.from_bytes(binary)
    assert module.to_bytes() == binary
    assert module.to_bytes("big") == struct.pack(f">{len(binary) // 4}I", *struct.unpack(f"<{len(binary) // 4}I", binary))
    assert Module.from_bytes(module.to_bytes("big")).to_bytes("little") == binary
    env = _env_of(binary)
    assert spirvkit.assemble(spirvkit.disassemble(binary), env) == binary
    raw = spirvkit.disassemble(binary, raw_id=True, indent=False, header=False)
    assert spirvkit.assemble(raw, env) == binary
    assert spirvkit.assemble(raw, env, preserve_numeric_ids=True) == binary
    assert spirvkit.assemble(spirvkit.disassemble(binary, offsets=True, comment=True), env) == binary


def _check_against_tools(case):
    text, env = case
    note(text)
    binary = spirvkit.assemble(text, env)
    theirs = spirv_as(text, env)
    assert binary[:8] + binary[12:] == theirs[:8] + theirs[12:]
    assert spirvkit.disassemble(binary) == spirv_dis(binary)
    assert spirvkit.disassemble(binary, raw_id=True, offsets=True, comment=True) == spirv_dis(
        binary, ["--raw-id", "--offsets", "--comment"]
    )


@FAST
@given(valid_modules())
def test_generated_modules_round_trip(case):
    _check_round_trip(case)


# Two subprocesses per example: shrinking a failure would take minutes, so report it unshrunk.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(FAST, max_examples=60, phases=NO_SHRINK)
@given(valid_modules())
def test_generated_modules_match_spirv_tools(case):
    _check_against_tools(case)


@pytest.mark.slow
def test_generated_modules_round_trip_exhaustive(request):
    _require_exhaustive_run(request)
    EXHAUSTIVE(given(valid_modules())(_check_round_trip))()


@pytest.mark.slow
def test_generated_modules_match_spirv_tools_exhaustive(request):
    _require_exhaustive_run(request)
    settings(EXHAUSTIVE, max_examples=600, phases=NO_SHRINK)(given(valid_modules())(_check_against_tools))()


_MARKERS = (
    "OpCapability Kernel", "OpCapability Shader", "OpCapability Int8", "OpCapability Int16", "OpCapability Int64",
    "OpCapability Float16", "OpCapability Float64", "OpTypeVector", "OpTypeArray", "OpTypeStruct", "OpTypePointer",
    "OpSwitch", "OpDecorationGroup", "OpGroupDecorate", "OpName", "OpMemberName", "OpExtInst ", "OpLoad",
    "OpStore", "OpVectorShuffle", "OpCompositeExtract", "p+128", "p+1024", "p+16", "0x", "OpSpecConstant ",
    "OpConstantComposite", "OpConstantNull", "OpConstantTrue", "BuiltIn GlobalInvocationId", "\r\n", "\t", ";",
)


def test_the_generator_covers_what_it_claims():
    """The strategy really produces the variety the properties rely on (a fixed sample)."""
    seen = set()

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)
    @given(valid_modules())
    def collect(case):
        text, env = case
        seen.update(marker for marker in _MARKERS if marker in text)
        if re.search(r"OpSwitch \S+ \S+ (\S+ \S+ )*-\d", text):
            seen.add("negative case literal")
        if re.search(r"OpSwitch \S+ \S+ (\S+ \S+ )*0[xX]", text):
            seen.add("hex case literal")
        if re.search(r"OpConstant \S+ -\d", text):
            seen.add("negative constant")
        if re.search(r"OpName \S+ \"[^\"]*[^\x00-\x7f]", text):
            seen.add("non-ASCII name")
        seen.add(env)

    collect()
    missing = [m for m in (*_MARKERS, "negative case literal", "hex case literal", "negative constant", "non-ASCII name") if m not in seen]
    assert not missing
    assert {"spv1.0", "spv1.6"} <= seen


# ==================================================================================================
# 2. mutated binaries and texts
# ==================================================================================================


def _corpus_binaries() -> list[bytes]:
    out = []
    for path in asm_files():
        try:
            out.append(spirvkit.assemble(path.read_text(encoding="utf-8", errors="surrogateescape"), target_env_of(path)))
        except SpirvError:
            pass
    out += [path.read_bytes() for path in binary_files()]
    # keep the cost per example bounded: the big modules are sampled less
    return sorted(out, key=len)


def _corpus_texts() -> list[str]:
    return sorted((p.read_text(encoding="utf-8", errors="surrogateescape") for p in asm_files()), key=len)


BINARIES = _corpus_binaries()
TEXTS = _corpus_texts()
_OPCODES = sorted(load_grammar().instructions)
_INTERESTING_WORDS = [0, 1, 2, 3, 4, 5, 8, 16, 32, 64, 0xFF, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]


def _instruction_starts(words: list[int]) -> list[int]:
    starts, pos = [], 5
    while pos < len(words) and words[pos] >> 16:
        starts.append(pos)
        pos += words[pos] >> 16
    return starts


@st.composite
def mutated_binaries(draw) -> bytes:
    small = draw(st.booleans())
    pool = BINARIES[: max(1, len(BINARIES) // 2)] if small else BINARIES
    data = draw(st.sampled_from(pool))
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    for _ in range(draw(st.integers(1, 4))):
        starts = _instruction_starts(words) or [5]
        at = draw(st.integers(0, max(0, len(words) - 1)))
        inst = draw(st.sampled_from(starts))
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "duplicate", "swap", "word_count", "opcode", "operand", "truncate"]))
        if op == "flip" and words:
            words[at] ^= 1 << draw(st.integers(0, 31))
        elif op == "set" and words:
            words[at] = draw(st.sampled_from(_INTERESTING_WORDS) | st.integers(0, 0xFFFFFFFF))
        elif op == "insert":
            words.insert(at, draw(st.sampled_from(_INTERESTING_WORDS) | st.integers(0, 0xFFFFFFFF)))
        elif op == "delete" and words:
            del words[at]
        elif op == "duplicate" and words:
            count = draw(st.integers(1, 6))
            words[at:at] = words[at : at + count]
        elif op == "swap" and len(words) > 1:
            other = draw(st.integers(0, len(words) - 1))
            words[at], words[other] = words[other], words[at]
        elif op == "word_count" and inst < len(words):
            words[inst] = (draw(st.integers(0, 0xFFFF)) << 16) | (words[inst] & 0xFFFF)
        elif op == "opcode" and inst < len(words):
            words[inst] = (words[inst] & 0xFFFF0000) | draw(st.sampled_from(_OPCODES))
        elif op == "operand" and inst < len(words) and words[inst] >> 16 > 1:
            index = inst + draw(st.integers(1, (words[inst] >> 16) - 1))
            if index < len(words):
                words[index] = draw(st.sampled_from(_INTERESTING_WORDS) | st.integers(0, 300))
        elif op == "truncate":
            words = words[:at]
    blob = struct.pack(f"<{len(words)}I", *words)
    if draw(st.integers(0, 9)) == 0:
        blob = blob[: draw(st.integers(0, len(blob)))]  # not a whole number of words
    if draw(st.integers(0, 5)) == 0 and len(blob) % 4 == 0:
        blob = struct.pack(f">{len(blob) // 4}I", *struct.unpack(f"<{len(blob) // 4}I", blob))
    return blob


def _check_mutated_binary(data: bytes):
    try:
        module = Module.from_bytes(data)
    except BinaryError as e:
        event("BinaryError")
        assert e.word_offset is not None and 0 <= e.word_offset <= len(data) // 4
        with pytest.raises(BinaryError):
            spirvkit.disassemble(data)
        return
    event("decoded")
    # decodable: it writes back identical, prints, and its lookups work
    assert module.to_bytes() == data
    text = spirvkit.disassemble(data)
    spirvkit.disassemble(data, raw_id=True, indent=False, header=False, offsets=True, comment=True)
    module.summary()
    for inst in module.instructions[:200]:
        if inst.result_id is not None:
            module.type_of(inst.result_id)
            module.decorations(inst.result_id)
            module.name(inst.result_id)
    try:
        spirvkit.assemble(text, _env_of(data) if module.version[0] == 1 and module.version[1] <= 6 else "spv1.6")
    except SpirvError:
        pass  # e.g. two definitions of one id: a binary may say it, the text may not


def _check_mutated_text(text: str):
    try:
        binary = spirvkit.assemble(text, filename="mutated.spvasm")
    except AssemblyError as e:
        event("AssemblyError")
        lines = text.split("\n")
        assert e.filename == "mutated.spvasm"
        assert 1 <= e.line <= len(lines)
        assert 1 <= e.column <= len(lines[e.line - 1]) + 1
        assert e.source_line == lines[e.line - 1].rstrip("\r")
        assert str(e).startswith(f"mutated.spvasm:{e.line}:{e.column}: error: ")
        return
    event("assembled")
    try:
        spirvkit.disassemble(binary)
    except BinaryError:
        pass  # e.g. a !<integer> that is not a valid enumerant


_TOKEN = re.compile(r"\S+")
_SPECIAL = ['"', "\\", "%", "!", ";", "\n", " ", "=", "|", "-", "0", "x", ".", "Op", "\t", "\r", "é", "\0", "(", ")",
            "%4294967296", "%0", "!0x100000000", "OpUnknown(", "\u2028", "\x0b", "\x0c", "\udcff", "0x1p+", "1e99999"]


@st.composite
def mutated_texts(draw) -> str:
    text = draw(st.sampled_from(TEXTS))
    vocabulary = _TOKEN.findall(draw(st.sampled_from(TEXTS)))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        op = draw(st.sampled_from(["delete", "insert", "swap", "token_delete", "token_duplicate", "token_swap", "token_replace", "truncate"]))
        if op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 3)) :]
        elif op == "insert":
            text = text[:at] + draw(st.sampled_from(_SPECIAL) | st.text(max_size=3)) + text[at:]
        elif op == "swap" and at + 1 < len(text):
            text = text[:at] + text[at + 1] + text[at] + text[at + 2 :]
        elif op == "truncate":
            text = text[:at]
        else:
            tokens = list(_TOKEN.finditer(text))
            if len(tokens) < 2:
                continue
            a = draw(st.sampled_from(tokens))
            b = draw(st.sampled_from(tokens))
            if op == "token_delete":
                text = text[: a.start()] + text[a.end() :]
            elif op == "token_duplicate":
                text = text[: a.start()] + a.group() + " " + text[a.start() :]
            elif op == "token_replace":
                text = text[: a.start()] + draw(st.sampled_from(vocabulary)) + text[a.end() :]
            elif a.start() != b.start():
                a, b = sorted((a, b), key=lambda t: t.start())
                text = text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]
    return text


@settings(FAST, max_examples=1500)
@given(mutated_binaries())
def test_mutated_binaries_raise_only_binary_errors(data):
    _check_mutated_binary(data)


@settings(FAST, max_examples=1500)
@given(mutated_texts())
def test_mutated_texts_raise_only_located_assembly_errors(text):
    _check_mutated_text(text)


@pytest.mark.slow
def test_mutated_binaries_exhaustive(request):
    _require_exhaustive_run(request)
    settings(EXHAUSTIVE, max_examples=20000)(given(mutated_binaries())(_check_mutated_binary))()


@pytest.mark.slow
def test_mutated_texts_exhaustive(request):
    _require_exhaustive_run(request)
    settings(EXHAUSTIVE, max_examples=20000)(given(mutated_texts())(_check_mutated_text))()


@FAST
@given(st.binary(max_size=64), st.sampled_from([b"", struct.pack("<5I", 0x07230203, 0x00010000, 0, 10, 0)]))
def test_random_bytes_raise_only_binary_errors(tail, head):
    data = head + tail
    try:
        Module.from_bytes(data)
    except BinaryError as e:
        assert e.word_offset is not None


@FAST
@given(st.text(max_size=80))
def test_random_text_raises_only_assembly_errors(text):
    try:
        spirvkit.assemble(text)
    except AssemblyError as e:
        assert 1 <= e.line <= text.count("\n") + 1
