"""Compile a small llvmlite IR kernel and run it on numpy arrays, for testing IR emitters directly.

``compile_map(emit, result_type, arg_types)`` builds

    void @kernel(ptr %out, ptr %in0, ..., i64 %count)

that for each i < count loads element i of every input (a scalar, or the i-th group of N lanes
for an <N x T> type, so arrays are packed row-major (count, N)), calls ``emit(builder, args)``
and stores the result. It returns a Python function taking numpy arrays and returning the output.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir

from spirvkit.jit.opencl_std import ensure_libm_loaded

def _target_machine(cpu: str | None) -> llvm.TargetMachine:
    """A new target machine (an execution engine takes ownership of the one it is given)."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    ensure_libm_loaded()
    if cpu is None:
        cpu, features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    else:
        features = ""
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(cpu=cpu, features=features, opt=2)


def numpy_dtype(ty: ir.Type) -> np.dtype:
    elem = ty.element if isinstance(ty, ir.VectorType) else ty
    if isinstance(elem, ir.HalfType):
        return np.dtype(np.float16)
    if isinstance(elem, ir.FloatType):
        return np.dtype(np.float32)
    if isinstance(elem, ir.DoubleType):
        return np.dtype(np.float64)
    if isinstance(elem, ir.IntType):
        return np.dtype(f"uint{elem.width}")
    raise TypeError(elem)


def _lanes(ty: ir.Type) -> int:
    return ty.count if isinstance(ty, ir.VectorType) else 1


def _load(b: ir.IRBuilder, ptr: ir.Value, ty: ir.Type, i: ir.Value) -> ir.Value:
    elem = ty.element if isinstance(ty, ir.VectorType) else ty
    n = _lanes(ty)
    base = b.mul(i, ir.Constant(ir.IntType(64), n))
    if not isinstance(ty, ir.VectorType):
        return b.load(b.gep(ptr, [base], source_etype=elem), typ=elem)
    value = ir.Constant(ty, ir.Undefined)
    for lane in range(n):
        at = b.add(base, ir.Constant(ir.IntType(64), lane))
        scalar = b.load(b.gep(ptr, [at], source_etype=elem), typ=elem)
        value = b.insert_element(value, scalar, ir.Constant(ir.IntType(32), lane))
    return value


def _store(b: ir.IRBuilder, value: ir.Value, ptr: ir.Value, i: ir.Value) -> None:
    ty = value.type
    elem = ty.element if isinstance(ty, ir.VectorType) else ty
    n = _lanes(ty)
    base = b.mul(i, ir.Constant(ir.IntType(64), n))
    if not isinstance(ty, ir.VectorType):
        b.store(value, b.gep(ptr, [base], source_etype=elem))
        return
    for lane in range(n):
        at = b.add(base, ir.Constant(ir.IntType(64), lane))
        scalar = b.extract_element(value, ir.Constant(ir.IntType(32), lane))
        b.store(scalar, b.gep(ptr, [at], source_etype=elem))


def build_module(
    emit: Callable[[ir.IRBuilder, list], ir.Value], result_type: ir.Type, arg_types: list
) -> ir.Module:
    module = ir.Module(name="harness")
    module.triple = llvm.get_default_triple()
    ptr = ir.PointerType()
    i64 = ir.IntType(64)
    fnty = ir.FunctionType(ir.VoidType(), [ptr] * (1 + len(arg_types)) + [i64])
    fn = ir.Function(module, fnty, "kernel")
    entry, loop, done = (fn.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    count = fn.args[-1]
    b.cbranch(b.icmp_signed(">", count, ir.Constant(i64, 0)), loop, done)
    b.position_at_end(loop)
    i = b.phi(i64)
    i.add_incoming(ir.Constant(i64, 0), entry)
    args = [_load(b, p, t, i) for p, t in zip(fn.args[1:-1], arg_types)]
    result = emit(b, args)
    assert result.type == result_type, (result.type, result_type)
    _store(b, result, fn.args[0], i)
    nxt = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(nxt, b.block)
    b.cbranch(b.icmp_signed("<", nxt, count), loop, done)
    b.position_at_end(done)
    b.ret_void()
    return module


def compile_map(
    emit: Callable[[ir.IRBuilder, list], ir.Value],
    result_type: ir.Type,
    arg_types: list,
    *,
    cpu: str | None = None,
    optimize: bool = True,
) -> Callable[..., np.ndarray]:
    """Compile the element-wise kernel; the returned function takes one numpy array per operand
    (shape (count,) for scalars, (count, N) for vectors; any dtype, converted to the operand's)
    and returns the results as a numpy array of result_type's dtype (uint for integers).
    cpu: None for the host CPU with its features, or a CPU name with no extra features.
    optimize: run LLVM's O3 module pipeline first, as the JIT executor does (it may rewrite
    library calls, e.g. pow(10, x) into exp10(x), and must not change results)."""
    module = build_module(emit, result_type, arg_types)
    parsed = llvm.parse_assembly(str(module))
    parsed.verify()
    tm = _target_machine(cpu)
    if optimize:
        pto = llvm.create_pipeline_tuning_options(speed_level=3)
        pto.loop_vectorization = pto.slp_vectorization = True
        pass_builder = llvm.create_pass_builder(tm, pto)
        pass_builder.getModulePassManager().run(parsed, pass_builder)
    engine = llvm.create_mcjit_compiler(parsed, tm)
    engine.finalize_object()
    n_ptrs = 1 + len(arg_types)
    cfunc = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * n_ptrs), ctypes.c_int64)(
        engine.get_function_address("kernel")
    )

    def run(*arrays) -> np.ndarray:
        inputs = []
        for arr, ty in zip(arrays, arg_types, strict=True):
            a = np.asarray(arr).astype(numpy_dtype(ty))  # ints wrap modulo 2^n
            inputs.append(np.ascontiguousarray(a.reshape(-1, _lanes(ty))))
        count = inputs[0].shape[0] if inputs else 0
        assert all(a.shape[0] == count for a in inputs)
        out = np.zeros((count, _lanes(result_type)), dtype=numpy_dtype(result_type))
        cfunc(out.ctypes.data, *(a.ctypes.data for a in inputs), count)
        return out if isinstance(result_type, ir.VectorType) else out.reshape(count)

    run.engine = engine  # the compiled code lives as long as the engine
    run.module = module  # for debugging: str(run.module)
    return run
