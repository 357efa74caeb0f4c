"""Built-in function signatures, generated per family from compact spec-like descriptions, and
overload resolution (spec §1.13).

Each family row reads like the spec's tables: names, then a signature over a *gentype*::

    ("acos acosh … trunc",  "F(F)",        FLOATN,  ext)       # gentype acos(gentype)
    ("fmin fmax",           "F(F,Fs)",     FLOATV,  ext)       # gentype fmin(gentype, sgentype)
    ("abs",                 "U(I)",        INTN,    ext_su)    # ugentype abs(gentype)

Signature letters, all relative to one instance T of the gentype: ``F``/``I``/``T`` the instance
itself, ``Fs`` its element type, ``U`` the unsigned variant, ``Ii`` the int vector of T's width,
``Il`` the long/int vector, ``R`` the relational result (int or the signed -1/0 vector), ``P``
a pointer to T in each address space (generic in 2.0), ``u`` uint, ``i`` int, ``Ui`` unsigned int
vector of T's width, ``W`` the upsampled type, ``Iw`` the same-width integer vector.

Overloads are materialised per name on first use. ``convert_*`` and ``as_*`` names are parsed
(not listed): 540 + 60 names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .types import (CHAR, DOUBLE, FLOAT, HALF, IMAGE_GEOMETRY, INT, LONG, SAMPLER_T, SHORT, UCHAR, UINT,
                    ULONG, USHORT, CType, Image, Pointer, Scalar, SIZE_T, Vector, relational_result,
                    type_from_name, vector_of, VOID, EVENT_T)

WIDTHS = (1, 2, 3, 4, 8, 16)
FLOAT_ELEMS = (FLOAT, DOUBLE, HALF)
INT_ELEMS = (CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG)


def gentypes(elems, widths=WIDTHS):
    return [vector_of(e, n) for e in elems for n in widths]


FLOATN = gentypes(FLOAT_ELEMS)
FLOATV = gentypes(FLOAT_ELEMS, WIDTHS[1:])
FLOAT32N = gentypes((FLOAT,))
INTN = gentypes(INT_ELEMS)
INTV = gentypes(INT_ELEMS, WIDTHS[1:])
INT32N = gentypes((INT, UINT))
GEOM = gentypes((FLOAT, DOUBLE, HALF), (1, 2, 3, 4))
SIGNEDN = gentypes((CHAR, SHORT, INT, LONG))
NARROWN = gentypes((CHAR, UCHAR, SHORT, USHORT, INT, UINT))
ALLN = INTN + FLOATN


@dataclass(frozen=True)
class Overload:
    name: str
    params: tuple
    result: CType
    lower: object  # (kind, data): see builtins_lower.lower_call
    data: object = None


def _with_signed(t: CType, signed: bool) -> CType:
    e = t.element.with_signed(signed)
    return vector_of(e, t.width)


def _int_of_width(t: CType, bits: int, signed=True) -> CType:
    return vector_of(Scalar("int", bits, signed), t.width)


def _upsampled(t: CType) -> CType:
    e = t.element
    return vector_of(Scalar("int", e.bits * 2, e.signed), t.width)


def _expand(letter: str, t: CType, spaces) -> list:
    """The parameter types one signature letter stands for (a list: pointers fan out)."""
    if letter in ("F", "I", "T"):
        return [t]
    if letter == "Fs":
        return [t.element]
    if letter == "U":
        return [_with_signed(t, False)]
    if letter == "Ii":
        return [_int_of_width(t, 32)]
    if letter == "Ui":
        return [_int_of_width(t, 32, False)]
    if letter == "Iw":
        return [_int_of_width(t, t.element.bits, True)]
    if letter == "Uw":
        return [_int_of_width(t, t.element.bits, False)]
    if letter == "R":
        return [relational_result(t) if t.is_vector else INT]
    if letter == "Rs":  # isequal & co: int for scalars, the -1/0 vector otherwise
        return [relational_result(t)]
    if letter == "W":
        return [_upsampled(t)]
    if letter == "i":
        return [INT]
    if letter == "u":
        return [UINT]
    if letter == "v":
        return [VOID]
    if letter.startswith("P"):
        inner = _expand(letter[1:] or "T", t, spaces)[0]
        return [Pointer(inner, s) for s in spaces]
    raise ValueError(letter)


def _signatures(sig: str, t: CType, spaces):
    result, _, rest = sig.partition("(")
    params = [p.strip() for p in rest.rstrip(")").split(",") if p.strip()]
    combos = [[]]
    for p in params:
        combos = [c + [x] for c in combos for x in _expand(p, t, spaces)]
    res = _expand(result, t, spaces)[0]
    for c in combos:
        yield tuple(c), res


MATH_1 = ("acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi erfc erf "
          "exp exp2 exp10 expm1 fabs floor lgamma log log2 log10 log1p logb rint round rsqrt sin "
          "sinh sinpi sqrt tan tanh tanpi tgamma trunc")
MATH_2 = "atan2 atan2pi copysign fdim fmod hypot maxmag minmag nextafter pow powr remainder"
HALF_1 = "cos exp exp2 exp10 log log2 log10 recip rsqrt sin sqrt tan"
HALF_2 = "divide powr"

# (names, signature, gentypes, lowering kind, data). Lowering kinds: "ext" (OpenCL.std
# instruction of the same name, or ``data`` when given), "ext_su" (s_/u_ prefixed by
# signedness), "op" (a core opcode), or a named special lowering.
FAMILIES = [
    # -- math (§1.13.2, Table 8)
    (MATH_1, "F(F)", FLOATN, "ext", None),
    (MATH_2, "F(F,F)", FLOATN, "ext", None),
    ("fmin fmax", "F(F,F)", FLOATN, "ext", None),
    ("fmin fmax", "F(F,Fs)", FLOATV, "ext_splat", None),
    ("fma mad", "F(F,F,F)", FLOATN, "ext", None),
    ("ldexp", "F(F,Ii)", FLOATN, "ext", None),
    ("ldexp", "F(F,i)", FLOATV, "ext_splat", None),
    ("pown rootn", "F(F,Ii)", FLOATN, "ext", None),
    ("ilogb", "Ii(F)", FLOATN, "ext", None),
    ("nan", "F(Uw)", FLOATN, "ext", None),
    ("fract modf sincos", "F(F,PF)", FLOATN, "ext", None),
    ("frexp lgamma_r", "F(F,PIi)", FLOATN, "ext", None),
    ("remquo", "F(F,F,PIi)", FLOATN, "ext", None),
    (" ".join("half_" + n for n in HALF_1.split()), "F(F)", FLOAT32N, "ext", None),
    (" ".join("half_" + n for n in HALF_2.split()), "F(F,F)", FLOAT32N, "ext", None),
    (" ".join("native_" + n for n in HALF_1.split()), "F(F)", FLOATN, "ext", None),
    (" ".join("native_" + n for n in HALF_2.split()), "F(F,F)", FLOATN, "ext", None),
    # -- integer (§1.13.3)
    ("abs", "U(I)", INTN, "ext_su", None),
    ("abs_diff", "U(I,I)", INTN, "ext_su", None),
    ("add_sat hadd rhadd max min mul_hi sub_sat", "I(I,I)", INTN, "ext_su", None),
    ("max min", "I(I,Fs)", INTV, "ext_su_splat", None),
    ("clamp mad_hi mad_sat", "I(I,I,I)", INTN, "ext_su", None),
    ("clamp", "I(I,Fs,Fs)", INTV, "ext_su_splat", None),
    ("clz ctz popcount", "I(I)", INTN, "ext", None),
    ("rotate", "I(I,I)", INTN, "ext", None),
    ("upsample", "W(I,U)", NARROWN, "ext_su", None),
    ("mad24", "I(I,I,I)", INT32N, "ext_su", None),
    ("mul24", "I(I,I)", INT32N, "ext_su", None),
    # -- common (§1.13.4)
    ("clamp", "F(F,F,F)", FLOATN, "ext", "fclamp"),
    ("clamp", "F(F,Fs,Fs)", FLOATV, "ext_splat", "fclamp"),
    ("max", "F(F,F)", FLOATN, "ext", "fmax_common"),
    ("min", "F(F,F)", FLOATN, "ext", "fmin_common"),
    ("max", "F(F,Fs)", FLOATV, "ext_splat", "fmax_common"),
    ("min", "F(F,Fs)", FLOATV, "ext_splat", "fmin_common"),
    ("mix", "F(F,F,F)", FLOATN, "ext", None),
    ("mix", "F(F,F,Fs)", FLOATV, "ext_splat", None),
    ("degrees radians sign", "F(F)", FLOATN, "ext", None),
    ("step", "F(F,F)", FLOATN, "ext", None),
    ("step", "F(Fs,F)", FLOATV, "ext_splat", None),
    ("smoothstep", "F(F,F,F)", FLOATN, "ext", None),
    ("smoothstep", "F(Fs,Fs,F)", FLOATV, "ext_splat", None),
    # -- geometric (§1.13.5)
    ("dot", "Fs(F,F)", GEOM, "dot", None),
    ("distance fast_distance", "Fs(F,F)", GEOM, "ext", None),
    ("length fast_length", "Fs(F)", GEOM, "ext", None),
    ("normalize fast_normalize", "F(F)", GEOM, "ext", None),
    ("cross", "F(F,F)", gentypes((FLOAT, DOUBLE, HALF), (3, 4)), "ext", None),
    # -- relational (§1.13.6)
    ("isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered "
     "isunordered", "Rs(F,F)", FLOATN, "compare", None),
    ("isfinite isinf isnan isnormal signbit", "Rs(F)", FLOATN, "classify", None),
    ("any all", "i(I)", SIGNEDN, "anyall", None),
    ("bitselect", "T(T,T,T)", ALLN, "ext", None),
    ("select", "T(T,T,Iw)", ALLN, "ext", None),
    ("select", "T(T,T,Uw)", ALLN, "ext", None),
]

# -- image functions (OpenCL C 2.0 §6.13.14), generated per image type and access qualifier ----
# Each row: (names, signature, image types, access qualifiers, lowering kind). Signature letters:
# ``I`` the image, ``s`` sampler_t, ``c`` the image's integer coordinates (int, int2 or int4),
# ``cf`` its float coordinates, ``C`` the function's colour (float4, int4, uint4 or half4 by the
# name's suffix; float for a depth image, which has read_imagef/write_imagef only), ``v`` void,
# ``i`` int, ``z`` size_t, ``d`` the get_image_dim vector (int4 for image3d_t, else int2).
# The lod, gradient and msaa forms (cl_khr_mipmap_image, cl_khr_gl_msaa_sharing) are not here.
ALL_IMAGES = tuple(IMAGE_GEOMETRY)
SAMPLED_IMAGES = tuple(n for n in ALL_IMAGES if n != "image1d_buffer_t")  # a buffer image has no sampler
ACCESSES = ("read_only", "write_only", "read_write")
READS = "read_imagef read_imagei read_imageui read_imageh"
WRITES = "write_imagef write_imagei write_imageui write_imageh"
IMAGE_FAMILIES = [
    (READS, "C(I,s,c)", SAMPLED_IMAGES, ("read_only",), "image_sample"),
    (READS, "C(I,s,cf)", SAMPLED_IMAGES, ("read_only",), "image_sample"),
    (READS, "C(I,c)", ALL_IMAGES, ("read_only", "read_write"), "image_read"),
    (WRITES, "v(I,c,C)", ALL_IMAGES, ("write_only", "read_write"), "image_write"),
    ("get_image_width get_image_channel_data_type get_image_channel_order", "i(I)", ALL_IMAGES, ACCESSES,
     "image_query"),
    ("get_image_height", "i(I)", tuple(n for n in ALL_IMAGES if IMAGE_GEOMETRY[n].dim in ("2D", "3D")), ACCESSES,
     "image_query"),
    ("get_image_depth", "i(I)", ("image3d_t",), ACCESSES, "image_query"),
    ("get_image_array_size", "z(I)", tuple(n for n in ALL_IMAGES if IMAGE_GEOMETRY[n].arrayed), ACCESSES,
     "image_query"),
    ("get_image_dim", "d(I)", tuple(n for n in ALL_IMAGES if IMAGE_GEOMETRY[n].dim in ("2D", "3D")), ACCESSES,
     "image_query"),
]
COLOUR = {"f": FLOAT, "i": INT, "ui": UINT, "h": HALF}


def _image_letter(letter: str, name: str, image: Image):
    """The type one image signature letter stands for; None: the function has no such form."""
    g = image.geometry
    if letter == "I":
        return image
    if letter == "s":
        return SAMPLER_T
    if letter in ("c", "cf"):
        return vector_of(FLOAT if letter == "cf" else INT, g.coords)
    if letter == "C":
        elem = COLOUR[name.rpartition("_image")[2]]
        if g.depth:
            return FLOAT if elem == FLOAT else None
        return Vector(elem, 4)
    return {"v": VOID, "i": INT, "z": SIZE_T, "d": Vector(INT, 4 if g.dim == "3D" else 2)}[letter]


def _image_overloads():
    for names, sig, images, accesses, kind in IMAGE_FAMILIES:
        result, _, rest = sig.partition("(")
        letters = rest.rstrip(")").split(",")
        for name in names.split():
            for image in (Image(n, a) for n in images for a in accesses):
                types = [_image_letter(x, name, image) for x in [result] + letters]
                if None not in types:
                    yield Overload(name, tuple(types[1:]), types[0], kind, image)


WORK_ITEM = {
    "get_global_id": ("GlobalInvocationId", 0), "get_global_size": ("GlobalSize", 1),
    "get_local_id": ("LocalInvocationId", 0), "get_local_size": ("WorkgroupSize", 1),
    "get_enqueued_local_size": ("EnqueuedWorkgroupSize", 1), "get_num_groups": ("NumWorkgroups", 1),
    "get_group_id": ("WorkgroupId", 0), "get_global_offset": ("GlobalOffset", 0),
}
WORK_ITEM_SCALAR = {"get_work_dim": ("WorkDim", UINT), "get_global_linear_id": ("GlobalLinearId", SIZE_T),
                    "get_local_linear_id": ("LocalInvocationIndex", SIZE_T)}
# cl_khr_subgroups work-item functions: each returns the uint BuiltIn of the same meaning
# (OpenCL SPIR-V environment, BuiltIn variables table); available where the extension is.
SUB_GROUP_ITEM = {"get_sub_group_size": "SubgroupSize", "get_max_sub_group_size": "SubgroupMaxSize",
                  "get_num_sub_groups": "NumSubgroups", "get_enqueued_num_sub_groups": "NumEnqueuedSubgroups",
                  "get_sub_group_id": "SubgroupId", "get_sub_group_local_id": "SubgroupLocalInvocationId"}
WORK_ITEM_SCALAR.update({name: (builtin, UINT) for name, builtin in SUB_GROUP_ITEM.items()})
LEGACY_ATOMICS = {"add": "OpAtomicIAdd", "sub": "OpAtomicISub", "xchg": "OpAtomicExchange",
                  "inc": "OpAtomicIIncrement", "dec": "OpAtomicIDecrement",
                  "cmpxchg": "OpAtomicCompareExchange", "min": "min", "max": "max",
                  "and": "OpAtomicAnd", "or": "OpAtomicOr", "xor": "OpAtomicXor"}
C11_FETCH = {"add": "OpAtomicIAdd", "sub": "OpAtomicISub", "or": "OpAtomicOr", "xor": "OpAtomicXor",
             "and": "OpAtomicAnd", "min": "min", "max": "max"}
UNSUPPORTED_PREFIXES = {
    "get_image_num_": "image functions of cl_khr_mipmap_image and cl_khr_gl_msaa_sharing",
}

_TABLE: dict[str, list] = {}
_BUILT = {"spaces": None}


def _build(spaces) -> None:
    _TABLE.clear()
    for names, sig, types, kind, data in FAMILIES:
        for name in names.split():
            for t in types:
                for params, result in _signatures(sig, t, spaces):
                    _TABLE.setdefault(name, []).append(Overload(name, params, result, kind, data))
    for ov in _image_overloads():
        _TABLE.setdefault(ov.name, []).append(ov)
    _BUILT["spaces"] = spaces


def pointer_spaces(cl_std: int) -> tuple:
    return ("global", "local", "private", "generic") if cl_std >= 200 else ("global", "local", "private")


def candidates(name: str, cl_std: int) -> list[Overload] | None:
    """The overloads of a table-driven built-in, or None when ``name`` is none of them."""
    spaces = pointer_spaces(cl_std)
    if _BUILT["spaces"] != spaces:
        _build(spaces)
    return _TABLE.get(name)


_CONVERT = re.compile(r"convert_([a-z]+?)(2|3|4|8|16)?(_sat)?(_rte|_rtz|_rtp|_rtn)?$")
_AS = re.compile(r"as_([a-z]+(?:2|3|4|8|16)?)$")
_VLOAD = re.compile(r"(vloada?_half|vload|vstorea?_half|vstore)(2|3|4|8|16)?(_rte|_rtz|_rtp|_rtn)?$")


def parse_convert(name: str):
    """``convert_int4_sat_rte`` → (Scalar int, 4, True, "RTE"); None if not a convert name."""
    m = _CONVERT.match(name)
    if not m:
        return None
    elem = type_from_name(m.group(1))
    if elem is None or not elem.is_scalar or elem.kind == "void" or m.group(1) in ("bool", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"):
        return None
    sat = bool(m.group(3))
    if sat and elem.kind == "float":
        return None  # _sat is for integer destinations only
    return elem, int(m.group(2) or 1), sat, (m.group(4) or "")[1:].upper() or None


def parse_as(name: str) -> CType | None:
    m = _AS.match(name)
    if not m:
        return None
    t = type_from_name(m.group(1))
    if t is None or t.element.kind in ("void", "bool"):
        return None
    return t


def parse_vload(name: str):
    """``vstore_half4_rte`` → ("vstore_half", 4, "RTE")."""
    m = _VLOAD.match(name)
    if not m:
        return None
    base, n, mode = m.group(1), int(m.group(2) or 1), (m.group(3) or "")[1:].upper() or None
    if base in ("vload", "vstore") and (n == 1 or mode):
        return None
    if base.startswith("vload") and mode:
        return None
    if base.startswith(("vloada", "vstorea")) and n == 1:
        return None
    return base, n, mode


def unsupported_family(name: str) -> str | None:
    for prefix, what in UNSUPPORTED_PREFIXES.items():
        if name.startswith(prefix):
            return what
    return None


# -- overload resolution ------------------------------------------------------------------

def conversion_cost(arg: CType, param: CType) -> int | None:
    """0 exact, 1 promotion, 2 conversion, None impossible (clang's ranking, simplified)."""
    if arg == param:
        if arg.is_pointer and arg.const and not param.const:
            return 2
        return 0
    if arg.is_pointer and param.is_pointer:
        if arg.pointee != param.pointee:
            return None
        if param.space == "generic" and arg.space in ("global", "local", "private"):
            return 2
        return None
    if param.is_vector and arg.is_scalar and arg.is_arithmetic:
        # clang lets a scalar argument splat to a vector parameter (as in ``pow(v, 2.0f)``), but
        # ranks it below every scalar conversion, so an overload with a scalar parameter wins.
        return 3
    if arg.is_vector or param.is_vector:
        return None
    if param.is_sampler and arg.is_scalar and arg.is_integer:
        return 2  # §6.13.14: an integer constant initialises a sampler_t argument (clang allows it)
    if arg.is_scalar and param.is_scalar and not arg.is_void and not param.is_void:
        if param == DOUBLE and arg == FLOAT:
            return 1
        if param == INT and arg.is_integer and arg.bits < 32:
            return 1
        return 2
    return None


def resolve(name: str, overloads: list[Overload], args: list[CType]):
    """The best overload for the argument types, or an error message in clang's words."""
    viable = []
    for ov in overloads:
        if len(ov.params) != len(args):
            continue
        costs = [conversion_cost(a, p) for a, p in zip(args, ov.params)]
        if any(c is None for c in costs):
            continue
        viable.append((costs, ov))
    if not viable:
        return None, f"no matching function for call to '{name}'", len(overloads)
    best = [v for v in viable if not any(_better(o[0], v[0]) for o in viable if o is not v)]
    if len(best) != 1:
        return None, f"call to '{name}' is ambiguous", len(best)
    return best[0][1], None, 0


def _better(a: list[int], b: list[int]) -> bool:
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


__all__ = ["Overload", "candidates", "resolve", "parse_convert", "parse_as", "parse_vload",
           "unsupported_family", "WORK_ITEM", "WORK_ITEM_SCALAR", "SUB_GROUP_ITEM", "LEGACY_ATOMICS", "C11_FETCH",
           "EVENT_T", "ULONG", "LONG"]
