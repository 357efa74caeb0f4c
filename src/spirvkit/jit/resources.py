"""A kernel's static resource needs, read from the SPIR-V before it is lowered.

The runtime checks them against the device's limits (runtime/limits.py) before compiling: a
kernel that declares a 16 TiB private array or a 1 GiB ``__constant`` table must be refused with
a LimitError, not lowered (an initialiser that size would be built in memory) or run (a private
array lives on the worker thread's stack, and running past it is a crash, not an exception).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SpirvkitError
from ..spirv.module import Module
from .types import TypeTable

OP_VARIABLE, OP_FUNCTION_CALL = 59, 57


@dataclass(frozen=True)
class KernelResources:
    module_words: int
    private_bytes: int       # function-scope variables along the kernel's deepest call path
    parameter_bytes: int     # its parameters as OpenCL sizes them (pointers, images, samplers: a pointer)
    constant_bytes: int      # program-scope __constant data (UniformConstant variables)
    global_bytes: int        # program-scope __global variables (CrossWorkgroup)
    local_bytes: int         # __local variables (Workgroup), before __local arguments


def kernel_resources(module: Module, types: TypeTable, function_id: int, module_words: int) -> KernelResources:
    pointer = 4 if module.addressing_model == "Physical32" else 8
    module_vars = {"UniformConstant": 0, "CrossWorkgroup": 0, "Workgroup": 0}
    for inst in module.section("types_values"):
        if inst.opcode == OP_VARIABLE:
            t = types.get(inst.words[1])
            if t is not None and t.kind == "pointer" and t.storage in module_vars and t.elem is not None:
                if t.storage == "UniformConstant" and t.elem.kind in ("image", "sampler", "sampled_image"):
                    continue
                # Rounded up as the lowering places them (16-byte aligned at least).
                module_vars[t.storage] += (_size(types, t.elem) + 15) // 16 * 16
    fn = next((f for f in module.functions if f.id == function_id), None)
    params = 0
    for p in fn.parameters if fn is not None else ():
        t = types.get(p.words[1])
        if t is not None and t.kind == "pointer" and t.storage == "Function" and t.elem is not None:
            params += _size(types, t.elem)   # a struct passed by value (ByVal)
        elif t is not None:
            params += pointer if t.kind in ("pointer", "image", "sampler", "event") else _size(types, t)
    return KernelResources(module_words, _private_bytes(module, types, function_id), params,
                           module_vars["UniformConstant"], module_vars["CrossWorkgroup"], module_vars["Workgroup"])


def _size(types: TypeTable, t) -> int:
    """The bytes of ``t``, exact for any size: LLVM's ABI size is a 64-bit integer, which an
    array of arrays of 2**31 elements each overflows (negative, or wrapped to a small number;
    a fuzz finding crashed the process with such a private array). Arrays multiply out in
    Python; a struct is at least its members together."""
    if t.kind == "array" and t.count:
        return t.count * _size(types, t.elem)
    try:
        llvm = types.size(t)
    except SpirvkitError:   # an unsized or unsupported type: the lowering reports it
        llvm = 0
    if t.kind == "struct":
        return max(llvm, sum(_size(types, m) for m in t.members))
    return max(llvm, 0)


def _private_bytes(module: Module, types: TypeTable, entry: int) -> int:
    """Function-scope variables of ``entry`` plus those of its deepest chain of calls (OpenCL
    forbids recursion; a cycle counts once). Inlined callees keep their variables in the
    caller's frame, where LLVM overlaps those of calls that are not live together."""
    functions = {f.id: f for f in module.functions}
    own: dict[int, int] = {}
    callees: dict[int, set[int]] = {}
    for fid, f in functions.items():
        total, calls = 0, set()
        for block in f.blocks:
            for inst in block.instructions:
                if inst.opcode == OP_VARIABLE:
                    t = types.get(inst.words[1])
                    if t is not None and t.kind == "pointer" and t.elem is not None:
                        total += (_size(types, t.elem) + 3) // 4 * 4
                elif inst.opcode == OP_FUNCTION_CALL and len(inst.words) > 3 and inst.words[3] in functions:
                    calls.add(inst.words[3])
        own[fid], callees[fid] = total, calls
    deepest: dict[int, int] = {}
    # Iterative post-order: a long chain of calls must not recurse in Python.
    stack, on_path = [(entry, iter(callees.get(entry, ())))], {entry}
    while stack:
        fid, pending = stack[-1]
        nxt = next(pending, None)
        if nxt is not None:
            if nxt not in deepest and nxt not in on_path:
                stack.append((nxt, iter(callees[nxt])))
                on_path.add(nxt)
            continue
        stack.pop()
        on_path.discard(fid)
        deepest[fid] = own.get(fid, 0) + max((deepest.get(c, 0) for c in callees.get(fid, ())), default=0)
    return deepest.get(entry, 0)
