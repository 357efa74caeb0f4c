"""Extended instruction operand rules (SPIR-V 3.32.4; the OpenCL.std and GLSL.std.450
specifications): result and operand types of the math, common, integer and load/store
instructions, grouped into families the way the two specifications define them."""

from __future__ import annotations

from . import opcodes as op

SEC_CL = "OpenCL.std"
SEC_GLSL = "GLSL.std.450"

# OpenCL.std: the result is a float scalar or vector and every operand has the result's type.
_CL_FLOAT_SAME = frozenset("""
acos acosh acospi asin asinh asinpi atan atan2 atanh atanpi atan2pi cbrt ceil copysign cos cosh cospi erfc
erf exp exp2 exp10 expm1 fabs fdim floor fma fmax fmin fmod hypot log log2 log10 log1p logb mad maxmag minmag
nextafter pow powr remainder rint round rsqrt sin sinh sinpi sqrt tan tanh tanpi tgamma trunc half_cos
half_divide half_exp half_exp2 half_exp10 half_log half_log2 half_log10 half_powr half_recip half_rsqrt
half_sin half_sqrt half_tan native_cos native_divide native_exp native_exp2 native_exp10 native_log native_log2
native_log10 native_powr native_recip native_rsqrt native_sin native_sqrt native_tan fclamp degrees fmax_common
fmin_common mix radians step smoothstep sign
""".split())
# OpenCL.std: integer result and operands of the result's type.
_CL_INT_SAME = frozenset("""
s_abs_diff s_add_sat u_add_sat s_hadd u_hadd s_rhadd u_rhadd s_clamp u_clamp clz ctz s_mad_hi u_mad_sat
s_mad_sat s_max u_max s_min u_min s_mul_hi rotate s_sub_sat u_sub_sat u_mul_hi u_mad_hi u_abs_diff s_mul24
u_mul24 s_mad24 u_mad24 popcount
""".split())
# OpenCL.std geometric functions (vectors of up to 4 components).
_CL_GEOMETRIC = frozenset("cross distance length normalize fast_distance fast_length fast_normalize".split())
_CL_STORES = frozenset("vstoren vstore_half vstore_half_r vstore_halfn vstore_halfn_r vstorea_halfn vstorea_halfn_r"
                       .split())
_CL_OFFSET_OPERAND = frozenset("vloadn vstoren vload_half vload_halfn vstore_half vstore_half_r vstore_halfn "
                               "vstore_halfn_r vloada_halfn vstorea_halfn vstorea_halfn_r".split())

# OpenCL.std pointer operands and the storage classes they may point into (the OpenCL.std
# specification's "Generic, CrossWorkgroup, Workgroup or Function" pointers, as SPIRV-Tools checks
# them): (operand index, storage classes, what the message calls it). The operand itself must be
# a pointer (_POINTER_NAMES: what the message calls it then).
_SC = op.SC
_CL_LOAD_CLASSES = (_SC.UniformConstant, _SC.Generic, _SC.CrossWorkgroup, _SC.Workgroup, _SC.Function)
_CL_STORE_CLASSES = (_SC.Generic, _SC.CrossWorkgroup, _SC.Workgroup, _SC.Function)
_CL_POINTER_OPERANDS = {
    **{n: (1, _CL_LOAD_CLASSES, "operand P storage class") for n in ("vloadn", "vload_half", "vload_halfn",
                                                                     "vloada_halfn")},
    **{n: (2, _CL_STORE_CLASSES, "operand P storage class") for n in _CL_STORES},
    **{n: (1, _CL_STORE_CLASSES, "storage class of the pointer") for n in ("fract", "frexp", "lgamma_r", "modf",
                                                                           "sincos")},
    "remquo": (2, _CL_STORE_CLASSES, "storage class of the pointer"),
    "prefetch": (0, (_SC.CrossWorkgroup,), "operand Ptr storage class"),
    "printf": (0, (_SC.UniformConstant,), "Format storage class"),
}
_POINTER_NAMES = {"operand P storage class": "operand P", "storage class of the pointer": "the last operand",
                  "operand Ptr storage class": "operand Ptr", "Format storage class": "operand Format"}

_GLSL_FLOAT_SAME = frozenset("""
Round RoundEven Trunc FAbs FSign Floor Ceil Fract Radians Degrees Sin Cos Tan Asin Acos Atan Sinh Cosh Tanh
Asinh Acosh Atanh Atan2 Pow Exp Log Exp2 Log2 Sqrt InverseSqrt FMin FMax FClamp FMix Step SmoothStep Fma NMin
NMax NClamp
""".split())
_GLSL_INT = frozenset("SAbs SSign SMin UMin SMax UMax SClamp UClamp".split())
# GLSL.std.450 pack/unpack: (result, operand), each ('f'|'i', width, components); 1 = scalar.
_GLSL_PACKING = {
    "PackSnorm4x8": (("i", 32, 1), ("f", 32, 4)), "PackUnorm4x8": (("i", 32, 1), ("f", 32, 4)),
    "PackSnorm2x16": (("i", 32, 1), ("f", 32, 2)), "PackUnorm2x16": (("i", 32, 1), ("f", 32, 2)),
    "PackHalf2x16": (("i", 32, 1), ("f", 32, 2)), "PackDouble2x32": (("f", 64, 1), ("i", 32, 2)),
    "UnpackSnorm2x16": (("f", 32, 2), ("i", 32, 1)), "UnpackUnorm2x16": (("f", 32, 2), ("i", 32, 1)),
    "UnpackHalf2x16": (("f", 32, 2), ("i", 32, 1)), "UnpackSnorm4x8": (("f", 32, 4), ("i", 32, 1)),
    "UnpackUnorm4x8": (("f", 32, 4), ("i", 32, 1)), "UnpackDouble2x32": (("i", 32, 2), ("f", 64, 1)),
}
_INTERPOLATE_AT = frozenset({"InterpolateAtCentroid", "InterpolateAtSample", "InterpolateAtOffset"})


def check(ctx) -> None:
    for inst in ctx.instructions_of((op.ExtInst,)):
        if inst.ext_set is None or len(inst.words) < 5:
            continue
        set_name = getattr(inst.ext_set, "import_name", "")
        desc = getattr(inst.ext_set, "by_opcode", {}).get(inst.words[4])
        if desc is None:
            continue
        if set_name == "OpenCL.std":
            _opencl_std(ctx, inst, desc.opname)
        elif set_name == "GLSL.std.450":
            _glsl(ctx, inst, desc.opname)


def _float_result(ctx, t) -> bool:
    if not ctx.is_float_scalar_or_vector(t):
        return False
    return ctx.dimension(t) in (1, 2, 3, 4, 8, 16)


def _shuffle(ctx, rtype, operands, name, fail) -> None:
    """shuffle(x, mask) / shuffle2(x, y, mask): vectors of 2, 4, 8 or 16 lanes, x (and y) of the
    result's component type, and an integer mask with the result's lane count and lane width."""
    def vector(t):
        return ctx.is_int_vector(t) or ctx.is_float_vector(t)

    if not vector(rtype):
        return fail("expected Result Type to be an int or float vector type")
    if ctx.dimension(rtype) not in (2, 4, 8, 16):
        return fail("expected Result Type to have 2, 4, 8 or 16 components")
    expected = 3 if name == "shuffle2" else 2
    if len(operands) != expected:
        return  # the operand count is the grammar's rule
    x_type, mask_type = ctx.type_of(operands[0]), ctx.type_of(operands[-1])
    if name == "shuffle2" and ctx.type_of(operands[1]) != x_type:
        return fail("expected operands X and Y to be of the same type")
    if not vector(x_type):
        return fail("expected operand X to be an int or float vector")
    if ctx.dimension(x_type) not in (2, 4, 8, 16):
        return fail("expected operand X to have 2, 4, 8 or 16 components")
    if ctx.component_type(x_type) != ctx.component_type(rtype):
        return fail("expected operand X and Result Type to have equal component types")
    if not ctx.is_int_vector(mask_type):
        return fail("expected operand Shuffle Mask to be an int vector")
    if ctx.dimension(mask_type) != ctx.dimension(rtype):
        return fail("expected operand Shuffle Mask to have the same number of components as Result Type")
    if ctx.bit_width(mask_type) != ctx.bit_width(rtype):
        return fail("expected operand Shuffle Mask components to have the same bit width as Result Type components")


def _select(ctx, rtype, operands, fail) -> None:
    """OpenCL.std select: A and B of the Result Type, C an integer of its shape and width."""
    if not (ctx.is_int_scalar_or_vector(rtype) or ctx.is_float_scalar_or_vector(rtype)):
        return fail("expected Result Type to be an int or float scalar or vector type")
    lanes = ctx.dimension(rtype)
    if lanes > 4 and lanes not in (8, 16):
        return fail("expected Result Type to be a scalar or a vector with 2, 3, 4, 8 or 16 components")
    if len(operands) != 3:
        return  # the operand count is the grammar's rule
    a_type, b_type, c_type = (ctx.type_of(v) for v in operands)
    if a_type != rtype:
        return fail("expected operand A type to be equal to Result Type")
    if b_type != rtype:
        return fail("expected operand B type to be equal to Result Type")
    if not ctx.is_int_scalar_or_vector(c_type):
        return fail("expected operand C to be an int scalar or vector")
    if ctx.dimension(c_type) != lanes:
        return fail("expected operand C to have the same number of components as Result Type")
    if ctx.bit_width(c_type) != ctx.bit_width(rtype):
        return fail("expected operand C to have the same bit width as Result Type")


def _opencl_std(ctx, inst, name) -> None:
    rtype = inst.words[1]
    operands = inst.words[5:]

    def fail(message, rule="extinst.opencl-std"):
        ctx.error(rule, SEC_CL, f"OpenCL.std {name}: {message}", inst)

    if name in _CL_FLOAT_SAME:
        if not _float_result(ctx, rtype):
            fail("expected Result Type to be a float scalar or vector type")
        elif any(ctx.type_of(v) != rtype for v in operands):
            fail("expected types of all operands to be equal to Result Type")
    elif name in _CL_INT_SAME:
        if not ctx.is_int_scalar_or_vector(rtype):
            fail("expected Result Type to be an int scalar or vector type")
        elif any(ctx.type_of(v) != rtype for v in operands):
            fail("expected types of all operands to be equal to Result Type")
    elif name in ("shuffle", "shuffle2"):
        _shuffle(ctx, rtype, operands, name, fail)
    elif name == "bitselect":
        if any(ctx.type_of(v) != rtype for v in operands):
            fail("expected types of all operands to be equal to Result Type")
    elif name == "select":
        _select(ctx, rtype, operands, fail)
    elif name in ("ldexp", "pown", "rootn"):
        if not _float_result(ctx, rtype):
            fail("expected Result Type to be a float scalar or vector type")
    elif name in _CL_GEOMETRIC:
        _geometric(ctx, rtype, operands, name, fail)
    elif name == "printf":
        if not (ctx.is_int_scalar(rtype) and ctx.bit_width(rtype) == 32):
            fail("expected Result Type to be a 32-bit int type")
    elif name in _CL_STORES:
        if ctx.type_opcode(rtype) != op.TypeVoid:
            fail("expected Result Type to be void")
        elif name == "vstoren" and len(operands) > 2 and not _vector_data(ctx, ctx.type_of(operands[0]), operands[2],
                                                                            fail, "the type of operand Data"):
            return
    elif name == "vloadn" and len(operands) > 2:
        if not _vector_data(ctx, rtype, operands[1], fail, "component type of Result Type", result=True):
            return
        if ctx.dimension(rtype) != operands[2]:
            fail("expected literal N to be equal to the number of components of Result Type")
            return
    pointer = _CL_POINTER_OPERANDS.get(name)
    if pointer is not None and pointer[0] < len(operands):
        index, classes, what = pointer
        info = ctx.pointer_info(ctx.type_of(operands[index]))
        if info is None:
            fail(f"expected {_POINTER_NAMES[what]} to be a pointer")
            return
        if info[0] not in classes:
            names = [op.SC.name(c) for c in classes]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            fail(f"expected {what} to be {listed}")
            return
    if name in _CL_OFFSET_OPERAND:
        offset = operands[0] if name.startswith("vload") else (operands[1] if len(operands) > 1 else None)
        width = 64 if ctx.addressing_model == op.ADDRESSING.Physical64 else 32
        if offset is not None and not (ctx.is_int_scalar(ctx.type_of(offset)) and
                                       ctx.bit_width(ctx.type_of(offset)) == width):
            fail(f"expected operand Offset to be of type size_t ({width}-bit integer for the addressing model used "
                 f"in the module)")


def _vector_data(ctx, t, pointer, fail, what, result=False) -> bool:
    """vloadn's Result Type / vstoren's Data: an int or float vector, whose components are what
    operand P points to (as SPIRV-Tools checks them)."""
    if not (ctx.type_opcode(t) == op.TypeVector and (ctx.is_int_vector(t) or ctx.is_float_vector(t))):
        fail("expected Result Type to be an int or float vector type" if result else
             "expected Data to be an int or float vector")
        return False
    info = ctx.pointer_info(ctx.type_of(pointer))
    if info is None:
        fail("expected operand P to be a pointer")
        return False
    if info[1] is not None and info[1] != ctx.component_type(t):
        fail(f"expected operand P data type to be equal to {what}" + ("" if result else " components"))
        return False
    return True


def _is_shape(ctx, t, shape) -> bool:
    """Whether type ``t`` is ('f'|'i', width, components), 1 component meaning a scalar."""
    kind, width, count = shape
    f = ctx.facts(t)
    scalar = op.TypeFloat if kind == "f" else op.TypeInt
    if f[2] != scalar or f[4] != width:
        return False
    return f[0] == scalar if count == 1 else (f[0] == op.TypeVector and f[3] == count)


def _shape_name(shape) -> str:
    kind, width, count = shape
    what = f"{width}-bit {'float' if kind == 'f' else 'int'}"
    return f"{what} scalar type" if count == 1 else f"{what} vector of size {count}"


def _geometric(ctx, rtype, operands, name, fail) -> None:
    """OpenCL.std cross, (fast_)distance, (fast_)length, (fast_)normalize: cross returns a float
    vector of 3 or 4 components, normalize a float scalar or vector of up to 4, both of their
    operands' type; distance and length return a float scalar, the component type of their
    operands (scalars or vectors of up to 4 components, alike)."""
    if name in ("cross", "normalize", "fast_normalize"):
        dims = (3, 4) if name == "cross" else (1, 2, 3, 4)
        if not ctx.is_float_scalar_or_vector(rtype) or ctx.dimension(rtype) not in dims:
            shape = "vector of 3 or 4 components" if name == "cross" else "scalar or vector of up to 4 components"
            fail(f"expected Result Type to be a float {shape}")
            return
        for label, v in zip(("P0", "P1") if name == "cross" else ("P",), operands):
            if ctx.type_of(v) != rtype:
                fail(f"expected operand {label} type to be equal to Result Type")
                return
        return
    if not ctx.is_float_scalar(rtype):
        fail("expected Result Type to be a float scalar type")
        return
    types = [ctx.type_of(v) for v in operands]
    for label, t in zip(("P0", "P1") if "distance" in name else ("P",), types):
        if not ctx.is_float_scalar_or_vector(t) or ctx.dimension(t) > 4 or ctx.component_type(t) != rtype:
            fail(f"expected operand {label} to be a float scalar or vector of up to 4 components of Result Type")
            return
    if len(types) == 2 and types[0] != types[1]:
        fail("expected operands P0 and P1 to be of the same type")


def _glsl(ctx, inst, name) -> None:
    rtype = inst.words[1]
    operands = inst.words[5:]

    def fail(message):
        ctx.error("extinst.glsl-std-450", SEC_GLSL, f"GLSL.std.450 {name}: {message}", inst)

    if name in _GLSL_PACKING:
        result, operand = _GLSL_PACKING[name]
        if not _is_shape(ctx, rtype, result):
            fail(f"expected Result Type to be a {_shape_name(result)}")
        elif operands and not _is_shape(ctx, ctx.type_of(operands[0]), operand):
            fail(f"expected operand {'v' if name.startswith('Pack') else 'P'} to be a {_shape_name(operand)}")
        return
    if name in _INTERPOLATE_AT:
        _interpolate_at(ctx, inst, name, rtype, operands, fail)
        return

    if name in _GLSL_FLOAT_SAME:
        if not ctx.is_float_scalar_or_vector(rtype):
            fail("expected Result Type to be a float scalar or vector type")
        elif any(ctx.type_of(v) != rtype for v in operands):
            fail("expected types of all operands to be equal to Result Type")
    elif name in _GLSL_INT:
        if not ctx.is_int_scalar_or_vector(rtype):
            fail("expected Result Type to be an int scalar or vector type")
            return
        for v in operands:
            t = ctx.type_of(v)
            if not ctx.is_int_scalar_or_vector(t):
                fail("expected all operands to be int scalars or vectors")
                return
            if ctx.dimension(t) != ctx.dimension(rtype):
                fail("expected all operands to have the same dimension as Result Type")
                return
            if ctx.bit_width(t) != ctx.bit_width(rtype):
                fail("expected all operands to have the same bit width as Result Type")
                return


def _interpolate_at(ctx, inst, name, rtype, operands, fail) -> None:
    """GLSL.std.450 InterpolateAt*: a 32-bit float scalar or vector result, read through an
    Input pointer to the result's type; Sample is a 32-bit integer scalar, Offset a 32-bit float
    vector of 2 components."""
    if not (ctx.is_float_scalar_or_vector(rtype) and ctx.bit_width(rtype) == 32):
        fail("expected Result Type to be a 32-bit float scalar or vector type")
        return
    if not operands:
        return
    info = ctx.pointer_info(ctx.type_of(operands[0]))
    if info is None or info[0] != op.SC.Input or (info[1] is not None and info[1] != rtype):
        fail("expected Interpolant to be a pointer to Input storage of the Result Type")
        return
    if len(operands) < 2:
        return
    t = ctx.type_of(operands[1])
    if name == "InterpolateAtSample" and not (ctx.is_int_scalar(t) and ctx.bit_width(t) == 32):
        fail("expected Sample to be 32-bit integer")
    elif name == "InterpolateAtOffset" and not _is_shape(ctx, t, ("f", 32, 2)):
        fail("expected Offset to be a vector of 2 32-bit floats")
