"""GLSL.std.450 extended instructions, on the OpenCL.std implementations where the semantics
agree (OpenCL's are at least as accurate as the Vulkan environment's precision table asks:
correctly rounded or within a few ulp where Vulkan allows more), and in LLVM IR directly for the
few that OpenCL.std lacks (Determinant and MatrixInverse in ops_matrix.py). IMix (opcode 47,
removed from the specification) and the fragment-only InterpolateAt* raise a clear error.
"""

from __future__ import annotations

from llvmlite import ir

from ..errors import NotSupportedError
from .function import FunctionLowering, Ptr
from .opencl_std import lower_opencl_std
from .ops_matrix import determinant, dot, inverse, splat

# GLSL.std.450 name -> the OpenCL.std instruction with the same operands and meaning.
SAME_AS_OPENCL = {
    "Round": "round",            # GLSL leaves the direction of .5 open; OpenCL rounds away from 0
    "RoundEven": "rint", "Trunc": "trunc", "FAbs": "fabs", "SAbs": "s_abs", "FSign": "sign",
    "Floor": "floor", "Ceil": "ceil", "Radians": "radians", "Degrees": "degrees",
    "Sin": "sin", "Cos": "cos", "Tan": "tan", "Asin": "asin", "Acos": "acos", "Atan": "atan",
    "Sinh": "sinh", "Cosh": "cosh", "Tanh": "tanh", "Asinh": "asinh", "Acosh": "acosh", "Atanh": "atanh",
    "Atan2": "atan2", "Pow": "pow", "Exp": "exp", "Log": "log", "Exp2": "exp2", "Log2": "log2",
    "Sqrt": "sqrt", "InverseSqrt": "rsqrt",
    "FMin": "fmin", "UMin": "u_min", "SMin": "s_min", "FMax": "fmax", "UMax": "u_max", "SMax": "s_max",
    "FClamp": "fclamp", "UClamp": "u_clamp", "SClamp": "s_clamp", "FMix": "mix", "Step": "step",
    "SmoothStep": "smoothstep", "Fma": "fma", "Ldexp": "ldexp",
    "Length": "length", "Distance": "distance", "Cross": "cross", "Normalize": "normalize",
    # The N forms return the operand that is not a NaN, as OpenCL's fmin/fmax do.
    "NMin": "fmin", "NMax": "fmax", "NClamp": "fclamp",
}

# Lowered here (OpenCL.std has no instruction of the same meaning).
OWN = ("Fract", "SSign", "FindILsb", "FindUMsb", "FindSMsb", "Reflect", "FaceForward", "Refract",
       "ModfStruct", "FrexpStruct", "PackDouble2x32", "UnpackDouble2x32", "PackHalf2x16", "UnpackHalf2x16")
# GLSL name -> (lanes, bits, signed): the [un]pack{S,U}norm instructions.
NORM_PACKING = {"PackSnorm4x8": (4, 8, True), "PackUnorm4x8": (4, 8, False), "PackSnorm2x16": (2, 16, True),
                "PackUnorm2x16": (2, 16, False)}
NORM_UNPACKING = {"Unpack" + name[4:]: spec for name, spec in NORM_PACKING.items()}
# Operands: (x, pointer); the OpenCL.std instruction that returns the first result and stores the second.
THROUGH_POINTER = {"Modf": "modf", "Frexp": "frexp"}
# Instructions with no meaning in a compute shader: the reason in the error.
REFUSED = {
    "IMix": "opcode 47 is reserved: IMix was removed from the GLSL.std.450 specification (use FMix, or OpSelect)",
    "InterpolateAtCentroid": "fragment-shader only, not valid in a GLCompute shader",
    "InterpolateAtSample": "fragment-shader only, not valid in a GLCompute shader",
    "InterpolateAtOffset": "fragment-shader only, not valid in a GLCompute shader",
}
MATRIX = {"Determinant": determinant, "MatrixInverse": inverse}
F32 = ir.FloatType()


def lower_glsl_std(fl: FunctionLowering, inst) -> None:
    w = inst.words
    desc = inst.ext_set.by_opcode.get(w[4]) if hasattr(inst.ext_set, "by_opcode") else None
    name = desc.opname if desc is not None else str(w[4])
    if name in THROUGH_POINTER:
        _lower_through_pointer(fl, inst, THROUGH_POINTER[name])
        return
    if name in REFUSED:
        raise NotSupportedError(f"GLSL.std.450 {name} ({REFUSED[name]})")
    if name in MATRIX:
        fl.set(w[2], MATRIX[name](fl.builder, fl.value(w[5])))
        return
    if name not in SAME_AS_OPENCL and name not in OWN and name not in NORM_PACKING and name not in NORM_UNPACKING:
        raise NotSupportedError(f"GLSL.std.450 {name}")
    args = []
    for arg_id in w[5:]:
        if isinstance(fl.get(arg_id), Ptr):
            raise NotSupportedError(f"GLSL.std.450 {name} (pointer operands)")
        args.append(fl.value(arg_id))
    result_t = fl.type(w[1]).llvm
    b = fl.builder
    if name in SAME_AS_OPENCL:
        fl.set(w[2], lower_opencl_std(b, SAME_AS_OPENCL[name], result_t, args))
        return
    x = args[0]
    if name in NORM_PACKING or name in NORM_UNPACKING or "Half2x16" in name or "Double2x32" in name:
        fl.set(w[2], _packing(b, name, result_t, x))
        return
    if name in ("Reflect", "FaceForward", "Refract", "ModfStruct", "FrexpStruct"):
        fl.set(w[2], _geometry(b, name, result_t, args))
        return
    if name == "Fract":          # x - floor(x), as GLSL defines it
        fl.set(w[2], b.fsub(x, lower_opencl_std(b, "floor", result_t, [x])))
        return
    width = (result_t.element if isinstance(result_t, ir.VectorType) else result_t).width

    def const(v):
        c = ir.Constant(ir.IntType(width), v)
        return ir.Constant(result_t, [c] * result_t.count) if isinstance(result_t, ir.VectorType) else c

    if name == "SSign":
        positive = b.icmp_signed(">", x, const(0))
        negative = b.icmp_signed("<", x, const(0))
        fl.set(w[2], b.select(positive, const(1), b.select(negative, const(-1), const(0))))
    elif name == "FindILsb":     # the lowest set bit; -1 for 0 (OpenCL's ctz(0) is the width)
        zero = b.icmp_unsigned("==", x, const(0))
        fl.set(w[2], b.select(zero, const(-1), lower_opencl_std(b, "ctz", result_t, [x])))
    elif name == "FindUMsb":     # width - 1 - clz: -1 for 0
        fl.set(w[2], b.sub(const(width - 1), lower_opencl_std(b, "clz", result_t, [x])))
    elif name == "FindSMsb":     # the highest bit that differs from the sign bit; -1 for 0 and -1
        negative = b.icmp_signed("<", x, const(0))
        v = b.select(negative, b.not_(x), x)
        fl.set(w[2], b.sub(const(width - 1), lower_opencl_std(b, "clz", result_t, [v])))


def _lower_through_pointer(fl: FunctionLowering, inst, opencl_name: str) -> None:
    """Modf / Frexp: the OpenCL.std instruction of the same meaning; the second result is stored
    through the pointer operand (checked, in the pointer's own layout)."""
    from .opencl_pointer_math import lower_pointer_math
    from .ops_memory import store

    w = inst.words
    x, ptr_id = fl.value(w[5]), w[6]
    pointee = fl.types[fl.ml.module.type_of(ptr_id).result_id].elem
    result, second = lower_pointer_math(fl.builder, opencl_name, fl.type(w[1]).llvm, [x], pointee.llvm)
    ptr = fl.pointer(ptr_id)
    if fl.ml.shader is not None and fl.ml.shader.is_explicit(fl, ptr_id):
        fl.ml.shader.store(fl, ptr, second, pointee, ptr_id)
    else:
        store(fl, ptr, second, pointee)
    fl.set(w[2], result)


def _geometry(b: ir.IRBuilder, name: str, result_t: ir.Type, args: list) -> ir.Value:
    if name in ("ModfStruct", "FrexpStruct"):
        from .opencl_pointer_math import lower_pointer_math

        first, second = result_t.elements
        value, other = lower_pointer_math(b, "modf" if name == "ModfStruct" else "frexp", first, args[:1], second)
        return b.insert_value(b.insert_value(ir.Constant(result_t, None), value, 0), other, 1)
    scalar_t = result_t.element if isinstance(result_t, ir.VectorType) else result_t

    def c(v):
        return ir.Constant(scalar_t, v)

    if name == "Reflect":            # I - 2 dot(N, I) N
        i, n = args
        return b.fsub(i, b.fmul(splat(b, b.fmul(c(2.0), dot(b, n, i)), result_t), n))
    if name == "FaceForward":        # dot(Nref, I) < 0 ? N : -N
        n, i, nref = args
        return b.select(b.fcmp_ordered("<", dot(b, nref, i), c(0.0)), n, b.fneg(n))
    i, n, eta = args                 # Refract
    d = dot(b, n, i)
    k = b.fsub(c(1.0), b.fmul(b.fmul(eta, eta), b.fsub(c(1.0), b.fmul(d, d))))
    root = lower_opencl_std(b, "sqrt", scalar_t, [k])
    refracted = b.fsub(b.fmul(splat(b, eta, result_t), i), b.fmul(splat(b, b.fadd(b.fmul(eta, d), root), result_t), n))
    return b.select(b.fcmp_ordered("<", k, c(0.0)), ir.Constant(result_t, _zero(result_t)), refracted)


def _zero(t: ir.Type):
    if isinstance(t, ir.VectorType):
        return [ir.Constant(t.element, 0.0)] * t.count
    return 0.0


def _packing(b: ir.IRBuilder, name: str, result_t: ir.Type, x: ir.Value) -> ir.Value:
    """The [un]pack instructions: component 0 in the lowest bits (x86 is little-endian, so a
    bitcast between a vector and one integer places them so)."""
    i32 = ir.IntType(32)
    if name == "PackDouble2x32":
        return b.bitcast(x, ir.DoubleType())
    if name == "UnpackDouble2x32":
        return b.bitcast(x, ir.VectorType(i32, 2))
    half2 = ir.VectorType(ir.HalfType(), 2)
    if name == "PackHalf2x16":
        return b.bitcast(b.fptrunc(x, half2), i32)
    if name == "UnpackHalf2x16":
        return b.fpext(b.bitcast(x, half2), ir.VectorType(F32, 2))
    packing = name in NORM_PACKING
    lanes, bits, signed = (NORM_PACKING if packing else NORM_UNPACKING)[name]
    scale = float((1 << (bits - 1)) - 1 if signed else (1 << bits) - 1)
    vf = ir.VectorType(F32, lanes)
    narrow = ir.VectorType(ir.IntType(bits), lanes)
    low = -1.0 if signed else 0.0
    if packing:    # round(clamp(c, low, 1) * scale), as integers of ``bits`` each
        clamped = lower_opencl_std(b, "fclamp", vf, [x, ir.Constant(F32, low), ir.Constant(F32, 1.0)])
        rounded = lower_opencl_std(b, "rint", vf, [b.fmul(clamped, ir.Constant(vf, [scale] * lanes))])
        return b.bitcast(b.fptosi(rounded, narrow) if signed else b.fptoui(rounded, narrow), i32)
    parts = b.bitcast(x, narrow)   # unpacking: clamp(c / scale, low, 1)
    value = b.fdiv(b.sitofp(parts, vf) if signed else b.uitofp(parts, vf), ir.Constant(vf, [scale] * lanes))
    return lower_opencl_std(b, "fmax", vf, [value, ir.Constant(F32, low)]) if signed else value
