"""Hand-written SPIR-V kernels for the executor tests: a whole module from a kernel body.

A test writes only what is particular to it: decorations, types and constants the helper does
not make, and the functions. ``build`` adds the rest:

- capabilities Addresses Kernel Int64 Int8 Int16 Float16 Float64 Vector16 GenericPointer
  (plus ``capabilities=``; ``Int64Atomics`` needs ``env="spv1.2"``: spirv-val's OpenCL 2.2
  profile does not allow it), ``OpMemoryModel Physical64 OpenCL``;
- the ``OpEntryPoint`` of each kernel (``entry_points=("main",)``: the kernel ``main`` is the
  function ``%main``), listing the BuiltIn variables the text uses (and, for SPIR-V 1.4 and
  later, every module-scope variable);
- every name of the following forms the text uses but does not define itself:

  ========================  ==========================================================
  ``%void %bool``           the void and bool types
  ``%uchar %ushort %uint %ulong``  8/16/32/64-bit integers (signedness 0, as OpenCL has)
  ``%half %float %double``  floats
  ``%v4uint %v3ulong ...``  vectors ``v{2,3,4,8,16}{scalar}``
  ``%pCW_uint %pFn_v4float``  pointers ``p{CW,WG,UC,Fn,Gen,In}_{pointee}`` (CrossWorkgroup,
                            Workgroup, UniformConstant, Function, Generic, Input) to a
                            scalar, a vector or another such pointer
  ``%uint_7 %ulong_m1``     integer constants (``m`` = minus, stored modulo 2**width;
                            ``%uint_0xff`` works too)
  ``%float_1p5 %double_m2`` float constants (``p`` = decimal point)
  ``%true %false``          bool constants
  ``%fn_void``              ``OpTypeFunction %void``
  ``%GlobalInvocationId``   the BuiltIn variable of that name (any Kernel builtin), with
                            its BuiltIn and Constant decorations
  ========================  ==========================================================

Functions and their parameters get an ``OpName`` of their id's name (so faults and argument
errors can name them). Test-defined types and constants come after the helper's (so they may
use them), then the BuiltIn variables, then the functions. SPIR-V ids are module-wide: two
functions of one module cannot both define ``%x``.

Body helpers: ``GID`` loads the global id x into ``%gid`` (ulong); ``ld``/``st`` read and write
an element through a pointer; ``kernel_function``/``simple`` wrap a body into a kernel ``main``.
``aligned_zeros`` makes arrays aligned enough for vector pointees (the executor checks).

Every module is checked with ``spirv-val`` (the one from the cmeel SPIRV-Tools wheel, skipped
when absent) unless ``validate=False``.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sysconfig
import tempfile
from pathlib import Path

import numpy as np

import spirvkit

SPIRV_VAL = Path(sysconfig.get_paths()["purelib"]) / "cmeel.prefix" / "bin" / "spirv-val"

COMMON_CAPABILITIES = ("Addresses", "Kernel", "Int64", "Int8", "Int16", "Float16", "Float64", "Vector16",
                       "GenericPointer")

SCALARS = {
    "bool": "OpTypeBool",
    "uchar": "OpTypeInt 8 0", "ushort": "OpTypeInt 16 0", "uint": "OpTypeInt 32 0", "ulong": "OpTypeInt 64 0",
    "half": "OpTypeFloat 16", "float": "OpTypeFloat 32", "double": "OpTypeFloat 64",
}
INT_WIDTHS = {"uchar": 8, "ushort": 16, "uint": 32, "ulong": 64}
STORAGE = {"CW": "CrossWorkgroup", "WG": "Workgroup", "UC": "UniformConstant", "Fn": "Function",
           "Gen": "Generic", "In": "Input"}

# BuiltIn -> the type its variable points to (size_t is ulong under Physical64).
BUILTINS = {
    **{name: "v3ulong" for name in ("GlobalInvocationId", "LocalInvocationId", "WorkgroupId", "NumWorkgroups",
                                    "WorkgroupSize", "EnqueuedWorkgroupSize", "GlobalSize", "GlobalOffset")},
    "GlobalLinearId": "ulong", "LocalInvocationIndex": "ulong",
    **{name: "uint" for name in ("WorkDim", "SubgroupSize", "SubgroupMaxSize", "NumSubgroups",
                                 "NumEnqueuedSubgroups", "SubgroupId", "SubgroupLocalInvocationId")},
}

GID = """
%gid3 = OpLoad %v3ulong %GlobalInvocationId Aligned 32
%gid = OpCompositeExtract %ulong %gid3 0
"""

_NAME = re.compile(r"%([A-Za-z0-9_]+)")
_DEFINED = re.compile(r"^\s*%([A-Za-z0-9_]+)\s*=", re.M)
_VECTOR = re.compile(r"v(2|3|4|8|16)(" + "|".join(SCALARS) + r")\Z")
_POINTER = re.compile(r"p(CW|WG|UC|Fn|Gen|In)_([A-Za-z0-9_]+)\Z")
_INT_CONST = re.compile(r"(uchar|ushort|uint|ulong)_(m?)(0x[0-9a-fA-F]+|[0-9]+)\Z")
_FLOAT_CONST = re.compile(r"(half|float|double)_(m?)([0-9]+)(?:p([0-9]+))?\Z")
_NAMED = re.compile(r"^\s*%([A-Za-z0-9_]+)\s*=\s*(?:OpFunction|OpFunctionParameter)\b", re.M)
_MODULE_VAR = re.compile(r"^\s*%([A-Za-z0-9_]+)\s*=\s*OpVariable\b", re.M)


class InvalidModule(AssertionError):
    """spirv-val rejected a module a test meant to be valid."""


def _type_definitions(names: set[str]) -> list[str]:
    """Definitions of the helper-made types among ``names`` (and what they need), in order."""
    wanted: set[str] = set()

    def need(name: str) -> bool:
        if name in ("void", "fn_void") or name in SCALARS:
            wanted.add(name)
            return True
        m = _VECTOR.match(name)
        if m:
            wanted.update((name, m.group(2)))
            return True
        m = _POINTER.match(name)
        if m and need(m.group(2)):
            wanted.add(name)
            return True
        return False

    for name in names:
        need(name)
    lines = []
    if "void" in wanted or "fn_void" in wanted:
        lines.append("%void = OpTypeVoid")
    lines += [f"%{s} = {SCALARS[s]}" for s in SCALARS if s in wanted]
    lines += [f"%{v} = OpTypeVector %{_VECTOR.match(v).group(2)} {_VECTOR.match(v).group(1)}"
              for v in sorted(n for n in wanted if _VECTOR.match(n))]
    pointers = sorted((n for n in wanted if _POINTER.match(n)), key=lambda n: (n.count("_"), n))
    for p in pointers:   # a pointer to a pointer has more underscores than its pointee
        sc, pointee = _POINTER.match(p).groups()
        lines.append(f"%{p} = OpTypePointer {STORAGE[sc]} %{pointee}")
    if "fn_void" in wanted:
        lines.append("%fn_void = OpTypeFunction %void")
    return lines


def _constant_definitions(names: set[str]) -> list[str]:
    lines = []
    for name in sorted(names):
        m = _INT_CONST.match(name)
        if m:
            t, minus, digits = m.groups()
            value = int(digits, 0) * (-1 if minus else 1)
            lines.append(f"%{name} = OpConstant %{t} {value % (1 << INT_WIDTHS[t])}")
            continue
        m = _FLOAT_CONST.match(name)
        if m:
            t, minus, whole, frac = m.groups()
            lines.append(f"%{name} = OpConstant %{t} {'-' if minus else ''}{whole}{'.' + frac if frac else ''}")
        elif name in ("true", "false"):
            lines.append(f"%{name} = OpConstant{name.capitalize()} %bool")
    return lines


def _helper_types_of_constants(names: set[str]) -> set[str]:
    out = set()
    for name in names:
        m = _INT_CONST.match(name) or _FLOAT_CONST.match(name)
        if m:
            out.add(m.group(1))
        elif name in ("true", "false"):
            out.add("bool")
    return out


def _version(env: str) -> tuple[int, int]:
    m = re.match(r"spv(\d+)\.(\d+)", env)
    if m:
        return int(m.group(1)), int(m.group(2))
    return (1, 2) if env.startswith("opencl2.2") else (1, 0)


def source(functions: str, *, types: str = "", decorations: str = "", capabilities=(), extensions=(),
           imports: str = "", modes: str = "", entry_points=("main",), env: str = "opencl2.2") -> str:
    """The assembly text of the whole module."""
    text = "\n".join((modes, decorations, types, functions))
    used = set(_NAME.findall(text))
    defined = set(_DEFINED.findall(text))
    free = used - defined
    builtins = sorted(n for n in free if n in BUILTINS)
    free_types = free | {"p" + "In_" + BUILTINS[b] for b in builtins} | _helper_types_of_constants(free)
    interface = [f"%{b}" for b in builtins]
    if _version(env) >= (1, 4):
        interface += [f"%{v}" for v in _MODULE_VAR.findall(types)]
    out = [f"OpCapability {c}" for c in dict.fromkeys(COMMON_CAPABILITIES + tuple(capabilities))]
    out += [f'OpExtension "{e}"' for e in extensions]
    if imports:
        out.append(imports)
    out.append("OpMemoryModel Physical64 OpenCL")
    for name in entry_points:
        out.append(f'OpEntryPoint Kernel %{name} "{name}" {" ".join(interface)}'.rstrip())
    if modes:
        out.append(modes)
    out += [f'OpName %{n} "{n}"' for n in _NAMED.findall(functions)]
    for b in builtins:
        out += [f"OpDecorate %{b} BuiltIn {b}", f"OpDecorate %{b} Constant"]
    if decorations:
        out.append(decorations)
    out += _type_definitions(free_types - defined)
    out += _constant_definitions(free)
    if types:
        out.append(types)
    out += [f"%{b} = OpVariable %pIn_{BUILTINS[b]} Input" for b in builtins]
    out.append(functions)
    return "\n".join(out) + "\n"


@functools.cache
def build(functions: str, *, types: str = "", decorations: str = "", capabilities=(), extensions=(),
          imports: str = "", modes: str = "", entry_points=("main",), env: str = "opencl2.2",
          validate: bool = True) -> bytes:
    """The module as a binary, checked with spirv-val unless ``validate=False``."""
    text = source(functions, types=types, decorations=decorations, capabilities=tuple(capabilities),
                  extensions=tuple(extensions), imports=imports, modes=modes, entry_points=tuple(entry_points),
                  env=env)
    binary = spirvkit.assemble(text, target_env=env)
    if validate:
        check_valid(binary, env, text)
    return binary


def check_valid(binary: bytes, env: str, text: str = "") -> None:
    if not SPIRV_VAL.exists():
        return
    with tempfile.NamedTemporaryFile(suffix=".spv") as f:
        f.write(binary)
        f.flush()
        result = subprocess.run([str(SPIRV_VAL), "--target-env", env, f.name], capture_output=True, text=True)
    if result.returncode != 0:
        numbered = "\n".join(f"{i + 1:4}  {line}" for i, line in enumerate(text.splitlines()))
        raise InvalidModule(f"spirv-val rejects the module:\n{result.stdout}{result.stderr}\n{numbered}")


def program(functions: str, *, spec_constants=None, **kwargs) -> spirvkit.Program:
    """A Program of the module ``build`` makes (a fresh Program each call: program-scope
    variables start from their initialisers)."""
    return spirvkit.Program(build(functions, **{k: tuple(v) if isinstance(v, list) else v
                                                 for k, v in kwargs.items()}),
                            spec_constants=spec_constants)


# ----- body snippets ----------------------------------------------------------------------------
def ld(result: str, t: str, array: str, index: str, storage: str = "CW", align: int | None = None) -> str:
    """``%result = array[index]`` (``array`` a pointer parameter or variable to ``t``)."""
    access = f" Aligned {align}" if align else ""
    return (f"%{result}_p = OpInBoundsPtrAccessChain %p{storage}_{t} %{array} %{index}\n"
            f"%{result} = OpLoad %{t} %{result}_p{access}\n")


def st(array: str, index: str, t: str, value: str, storage: str = "CW") -> str:
    """``array[index] = %value``."""
    p = f"{array}_{index}_{value}_sp"
    return (f"%{p} = OpInBoundsPtrAccessChain %p{storage}_{t} %{array} %{index}\n"
            f"OpStore %{p} %{value}\n")


def kernel_function(params, body: str, *, name: str = "main", gid: bool = True, ret: bool = True):
    """(function text, its OpTypeFunction line) of a kernel with ``params`` [(name, type)] whose
    entry block runs ``body`` (after ``GID`` when ``gid``), then ``OpReturn`` when ``ret``."""
    fn_type = f"%fn_{name} = OpTypeFunction %void " + " ".join(f"%{t}" for _, t in params)
    lines = [f"%{name} = OpFunction %void None %fn_{name}"]
    lines += [f"%{p} = OpFunctionParameter %{t}" for p, t in params]
    lines.append(f"%{name}_entry = OpLabel")
    if gid:
        lines.append(GID)
    lines.append(body)
    if ret:
        lines.append("OpReturn")
    lines.append("OpFunctionEnd")
    return "\n".join(lines), fn_type.rstrip()


def simple(params, body: str, *, types: str = "", gid: bool = True, ret: bool = True, spec_constants=None,
           **kwargs) -> spirvkit.Kernel:
    """The kernel ``main`` of a one-kernel module (see :func:`kernel_function`)."""
    fn, fn_type = kernel_function(params, body, gid=gid, ret=ret)
    return program(fn, types=types + "\n" + fn_type, spec_constants=spec_constants, **kwargs).kernel("main")


def simple_binary(params, body: str, *, types: str = "", gid: bool = True, ret: bool = True, **kwargs) -> bytes:
    fn, fn_type = kernel_function(params, body, gid=gid, ret=ret)
    return build(fn, types=types + "\n" + fn_type, **kwargs)


def offsets_of(binary: bytes, opname: str, function: str = "main") -> list[int]:
    """Word offsets of the ``opname`` instructions of a function, in order."""
    module = spirvkit.Module.from_bytes(binary)
    out = []
    for fn in module.functions:
        if module.name(fn.id) != function:
            continue
        for block in fn.blocks:
            out += [inst.offset for inst in block.instructions if inst.opname == opname]
    return out


def aligned_zeros(shape, dtype, align: int = 128):
    """A zeroed array whose data is ``align``-aligned (vector pointees need their size)."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape))
    raw = np.zeros(count * dtype.itemsize + align, np.uint8)
    start = -raw.ctypes.data % align
    return raw[start:start + count * dtype.itemsize].view(dtype).reshape(shape)


def aligned(array, align: int = 128):
    out = aligned_zeros(array.shape, array.dtype, align)
    out[...] = array
    return out
