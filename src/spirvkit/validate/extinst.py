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
_CL_STORES = frozenset("vstoren vstore_half vstore_half_r vstore_halfn vstore_halfn_r vstorea_halfn vstorea_halfn_r"
                       .split())
_CL_OFFSET_OPERAND = frozenset("vloadn vstoren vload_half vload_halfn vstore_half vstore_half_r vstore_halfn "
                               "vstore_halfn_r vloada_halfn vstorea_halfn vstorea_halfn_r".split())

_GLSL_FLOAT_SAME = frozenset("""
Round RoundEven Trunc FAbs FSign Floor Ceil Fract Radians Degrees Sin Cos Tan Asin Acos Atan Sinh Cosh Tanh
Asinh Acosh Atanh Atan2 Pow Exp Log Exp2 Log2 Sqrt InverseSqrt FMin FMax FClamp FMix Step SmoothStep Fma NMin
NMax NClamp
""".split())
_GLSL_INT = frozenset("SAbs SSign SMin UMin SMax UMax SClamp UClamp".split())


def check(ctx) -> None:
    for inst in ctx.insts:
        if inst.opcode != op.ExtInst or inst.ext_set is None or len(inst.words) < 5:
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
        if not (ctx.type_opcode(rtype) == op.TypeVector and ctx.is_numeric_or_bool_scalar_or_vector(rtype)):
            fail("expected Result Type to be an int or float vector type")
    elif name == "bitselect":
        if any(ctx.type_of(v) != rtype for v in operands):
            fail("expected types of all operands to be equal to Result Type")
    elif name == "select":
        if len(operands) == 3 and not ctx.is_int_scalar_or_vector(ctx.type_of(operands[2])):
            fail("expected operand C to be an int scalar or vector")
    elif name in ("ldexp", "pown", "rootn"):
        if not _float_result(ctx, rtype):
            fail("expected Result Type to be a float scalar or vector type")
    elif name == "printf":
        if not (ctx.is_int_scalar(rtype) and ctx.bit_width(rtype) == 32):
            fail("expected Result Type to be a 32-bit int type")
    elif name in _CL_STORES:
        if ctx.type_opcode(rtype) != op.TypeVoid:
            fail("expected Result Type to be void")
    if name in _CL_OFFSET_OPERAND:
        offset = operands[0] if name.startswith("vload") else (operands[1] if len(operands) > 1 else None)
        width = 64 if ctx.addressing_model == op.ADDRESSING.Physical64 else 32
        if offset is not None and not (ctx.is_int_scalar(ctx.type_of(offset)) and
                                       ctx.bit_width(ctx.type_of(offset)) == width):
            fail(f"expected operand Offset to be of type size_t ({width}-bit integer for the addressing model used "
                 f"in the module)")


def _glsl(ctx, inst, name) -> None:
    rtype = inst.words[1]
    operands = inst.words[5:]

    def fail(message):
        ctx.error("extinst.glsl-std-450", SEC_GLSL, f"GLSL.std.450 {name}: {message}", inst)

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
