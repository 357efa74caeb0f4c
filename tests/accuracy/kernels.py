"""Run one OpenCL.std instruction through spirvkit on arrays of inputs.

For each (instruction, type) the sweep builds a SPIR-V module from assembly text with one kernel
``main``: work-item i loads element i of each input buffer, applies the ``OpExtInst`` and stores
the result (and, for the instructions with a pointer operand such as ``sincos`` or ``frexp``, the
value written through the pointer, which points into a second output buffer). One launch covers
all inputs of a sweep; kernels are compiled once per (instruction, type) and kept.

Operand kinds (see ``functions.py``): ``F`` a float of the swept type, ``I`` a 32-bit int,
``U`` an unsigned int as wide as the float (``nan``'s nancode); the pointer operand kinds ``pF``
and ``pI`` point to a float of the type or a 32-bit int.
"""

from __future__ import annotations

import functools

import numpy as np

import spirvkit
from spirvkit.errors import NotSupportedError

TYPES = {"half": np.float16, "float": np.float32, "double": np.float64}
_WIDTH = {"half": 16, "float": 32, "double": 64}
_UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def np_type(kind: str, type_name: str):
    """The numpy dtype of an operand or result kind for the swept type."""
    kind = kind.removeprefix("p")
    if kind == "F":
        return np.dtype(TYPES[type_name])
    if kind == "I":
        return np.dtype(np.int32)
    return np.dtype(_UINT[_WIDTH[type_name]])


_UINT_NAME = {16: "ushort", 32: "int", 64: "ulong"}


def _spirv_type(kind: str, type_name: str) -> str:
    """The SPIR-V type name (as declared in kernel_source) of an operand or result kind."""
    kind = kind.removeprefix("p")
    return {"F": "T", "I": "int", "U": _UINT_NAME[_WIDTH[type_name]]}[kind]


def kernel_source(name: str, type_name: str, operands: tuple[str, ...], result: str,
                  width: int = 1) -> str:
    """The assembly text of the module applying OpenCL.std ``name`` element-wise: parameters are
    the input buffers (one per non-pointer operand, in order), the result buffer, then one buffer
    per pointer operand. With ``width`` > 1 every operand and result is a vector of that many
    lanes (the vector forms of the instruction)."""
    inputs = [(i, k) for i, k in enumerate(operands) if not k.startswith("p")]
    pointers = [(i, k) for i, k in enumerate(operands) if k.startswith("p")]
    buffers = [_spirv_type(k, type_name) for _, k in inputs]
    buffers += [_spirv_type(result, type_name)] + [_spirv_type(k, type_name) for _, k in pointers]
    scalars = {"T": f"OpTypeFloat {_WIDTH[type_name]}", "ushort": "OpTypeInt 16 0",
               "int": "OpTypeInt 32 0", "ulong": "OpTypeInt 64 0"}
    # %T, %ushort, %int, %ulong are the element types of the buffers: the scalars themselves, or
    # vectors of the scalars %T_s ... (then the global id is a %ulong_s).
    if width == 1:
        types, id_t = [f"%{t} = {d}" for t, d in scalars.items()], "ulong"
    else:
        types = [f"%{t}_s = {d}" for t, d in scalars.items()]
        types += [f"%{t} = OpTypeVector %{t}_s {width}" for t in scalars]
        id_t = "ulong_s"
    lines = [
        "OpCapability Addresses", "OpCapability Kernel", "OpCapability Int64",
        "OpCapability Int16", "OpCapability Float16", "OpCapability Float64",
        *(["OpCapability Vector16"] if width > 4 else []),
        '%ext = OpExtInstImport "OpenCL.std"',
        "OpMemoryModel Physical64 OpenCL",
        'OpEntryPoint Kernel %main "main" %gidv',
        "OpDecorate %gidv BuiltIn GlobalInvocationId", "OpDecorate %gidv Constant",
        "%void = OpTypeVoid", *types,
        f"%v3ulong = OpTypeVector %{id_t} 3", "%pIn = OpTypePointer Input %v3ulong",
    ]
    lines += [f"%p_{t} = OpTypePointer CrossWorkgroup %{t}" for t in scalars]
    lines += [
        "%fn = OpTypeFunction %void " + " ".join(f"%p_{t}" for t in buffers),
        "%gidv = OpVariable %pIn Input",
        "%main = OpFunction %void None %fn",
    ]
    lines += [f"%b{j} = OpFunctionParameter %p_{t}" for j, t in enumerate(buffers)]
    lines += ["%entry = OpLabel", "%g3 = OpLoad %v3ulong %gidv Aligned 32",
              f"%gid = OpCompositeExtract %{id_t} %g3 0"]
    for j, (i, _) in enumerate(inputs):
        t = buffers[j]
        lines += [f"%q{i} = OpInBoundsPtrAccessChain %p_{t} %b{j} %gid", f"%x{i} = OpLoad %{t} %q{i}"]
    for j, (i, _) in enumerate(pointers, start=len(inputs) + 1):
        lines.append(f"%x{i} = OpInBoundsPtrAccessChain %p_{buffers[j]} %b{j} %gid")
    r = len(inputs)
    args = " ".join(f"%x{i}" for i in range(len(operands)))
    lines += [f"%r = OpExtInst %{buffers[r]} %ext {name} {args}",
              f"%qr = OpInBoundsPtrAccessChain %p_{buffers[r]} %b{r} %gid",
              "OpStore %qr %r", "OpReturn", "OpFunctionEnd"]
    return "\n".join(lines) + "\n"


def assemble(name: str, type_name: str, operands: tuple[str, ...], result: str,
             width: int = 1) -> bytes:
    """The module as a SPIR-V 1.2 binary (OpenCL 2.2's version)."""
    text = kernel_source(name, type_name, operands, result, width)
    return spirvkit.assemble(text, target_env="opencl2.2")


@functools.cache
def compiled_kernel(name: str, type_name: str, operands: tuple[str, ...], result: str,
                    width: int = 1):
    """The compiled kernel, or the message of the error that says spirvkit cannot run it yet.
    (Unchecked: every access is in bounds by construction. Any other error propagates.)"""
    binary = assemble(name, type_name, operands, result, width)
    try:
        return spirvkit.Program(binary).kernel("main").compile(unchecked=True)
    except NotSupportedError as e:
        return f"{type(e).__name__}: {e}"


def _lanes_in_memory(width: int) -> int:
    """A 3-lane vector occupies 4 elements in memory (OpenCL's size and alignment rule)."""
    return 4 if width == 3 else width


def _aligned_buffer(values: np.ndarray, width: int) -> np.ndarray:
    """values as a (count/width, lanes) array aligned for its vector type (or 1-D for width 1),
    each vector's unused 4th element (3-lane vectors) zero; the executor checks that a vector
    buffer is aligned to the vector's size."""
    if width == 1:
        return np.ascontiguousarray(values)
    lanes = _lanes_in_memory(width)
    count = values.size // width
    align = 128
    nbytes = count * lanes * values.itemsize
    raw = np.zeros(nbytes + align, np.uint8)
    start = -raw.ctypes.data % align
    out = raw[start:start + nbytes].view(values.dtype).reshape(count, lanes)
    out[:, :width] = values.reshape(count, width)
    return out


def _values(buffer: np.ndarray, width: int) -> np.ndarray:
    """The lanes of a buffer made by _aligned_buffer, in input order (padding dropped)."""
    return buffer.reshape(-1) if width == 1 else buffer[:, :width].reshape(-1)


def run(name: str, type_name: str, operands: tuple[str, ...], result: str, args: list[np.ndarray],
        width: int = 1):
    """Launch the kernel once over all inputs: (result, pointer outputs ...) arrays, or an error
    message string when spirvkit does not support the instruction for this type. With width > 1
    the vector form runs, `width` consecutive inputs per work-item (the last vector padded)."""
    kernel = compiled_kernel(name, type_name, tuple(operands), result, width)
    if isinstance(kernel, str):
        return kernel
    n = len(args[0])
    padded = -(-n // width) * width
    kinds = [k for k in operands if not k.startswith("p")]
    ins = [_aligned_buffer(np.resize(np.asarray(a, np_type(k, type_name)), padded), width)
           for a, k in zip(args, kinds)]
    outs = [_aligned_buffer(np.zeros(padded, np_type(k, type_name)), width)
            for k in [result] + [k for k in operands if k.startswith("p")]]
    kernel(padded // width, None, *ins, *outs, unchecked=True)
    return [_values(o, width)[:n] for o in outs]
