"""Predefined macros for each ``-cl-std``, as the source text of a ``<built-in>`` buffer.

What is defined, and why (checked against clang-15 ``-target spir64`` by
tests/clc/test_predefined.py with committed fixtures; every name defined here that clang also
defines has clang's replacement list):

* clang's compiler-level macros for spir64 (``__STDC_VERSION__``, ``__SPIR64__``,
  ``__OPENCL_C_VERSION__``, ``CL_VERSION_*``, ``__ENDIAN_LITTLE__``, the ``__SIZEOF_*`` /
  type / limit macros a kernel may test) and the constants of clang's implicitly included
  ``opencl-c-base.h`` that the spec defines as macros (``FLT_*``, ``M_*_F``, ``CLK_*``,
  ``INT_MAX``, ``NULL``, ``MAXFLOAT``, ``__kernel_exec`` …).
* ``__OPENCL_VERSION__``: the spec requires it (§1.10) but clang-15 omits it for SPIR; we
  define it as the device's OpenCL version, equal to the language version here.
* ``__IMAGE_SUPPORT__`` (every version, as clang for SPIR): images compile and run end to end
  (images.py, the executor's image support), with the ``cl_khr_3d_image_writes`` and
  ``cl_khr_depth_images`` extension macros (clang-15 defines both from OpenCL C 1.2 on).
  ``-U__IMAGE_SUPPORT__`` lets a kernel take its buffer path instead. The 3.0 feature macros
  ``__opencl_c_images`` / ``__opencl_c_3d_image_writes`` / ``__opencl_c_read_write_images``
  are still not defined.
* From OpenCL C 2.0, as clang: ``__BLOCKS__`` and ``__block`` (blocks.py refuses the
  ``__blocks__`` attribute it stands for, §6.12.5), and the device-side enqueue constants
  (``CLK_ENQUEUE_FLAGS_*``, ``CLK_SUCCESS`` and the error codes, ``CLK_NULL_QUEUE``, ``CL_COMPLETE``
  …, ``CLK_PROFILING_COMMAND_EXEC_TIME``; enqueue.py), and ``CLK_NULL_EVENT`` /
  ``CLK_NULL_RESERVE_ID`` with clang's ``__builtin_astype`` replacement lists (the null handle:
  builtins_lower.expr_AsType).
* ``FP_FAST_FMA``/``FP_FAST_FMAF``: **not defined**, like clang: the JIT cannot promise that the
  host CPU has fused multiply-add, and the spec only allows defining them when fma is fast.
* Extension and ``__opencl_c_*`` feature macros: only for what spirvkit implements (or will,
  per issue 6: fp64, fp16, int64 and 32-bit atomics, generic address space, program-scope
  globals, C11 atomic orders/scopes, work-group collectives, cl_khr_subgroups and the
  cl_khr_subgroup_ballot / _non_uniform_vote / _non_uniform_arithmetic / _shuffle /
  _shuffle_relative / _clustered_reduce / _rotate extensions — from OpenCL C 2.0, as in clang,
  with ``__opencl_c_subgroups`` in 3.0 — and the two image extensions above); none for pipes,
  device enqueue, cl_khr_subgroup_extended_types or vendor extensions. ``as_<type>``
  is not a macro here (clang's header makes it one): the compiler resolves ``as_*`` from its
  built-in tables.
"""

from __future__ import annotations

VERSIONS = {"CL1.0": 100, "CL1.1": 110, "CL1.2": 120, "CL2.0": 200, "CL3.0": 300}

# Extensions whose macro is defined by default (clang-15 spir64 defines these too).
DEFAULT_EXTENSIONS = (
    "cl_khr_byte_addressable_store", "cl_khr_fp16", "cl_khr_fp64",
    "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
    "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
    "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics", "cl_khr_subgroups",
    "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate", "cl_khr_3d_image_writes", "cl_khr_depth_images",
)

# Those that exist only from a language version on (clang-15: cl_khr_subgroups and the
# cl_khr_subgroup_* extensions are 2.0 extensions; in 1.2 their macros are not defined and their
# pragmas are "unsupported").
MIN_VERSION = {name: 200 for name in DEFAULT_EXTENSIONS if name.startswith("cl_khr_subgroup")}

# Extension names ``#pragma OPENCL EXTENSION`` knows (clang-15's list): enabling one we do not
# support is "unsupported … ignoring"; any other name is "unknown … ignoring".
KNOWN_EXTENSIONS = frozenset(DEFAULT_EXTENSIONS + (
    "cl_khr_3d_image_writes", "cl_khr_depth_images", "cl_khr_gl_msaa_sharing",
    "cl_khr_mipmap_image", "cl_khr_mipmap_image_writes", "cl_khr_srgb_image_writes",
    "cl_khr_subgroups", "cl_khr_subgroup_ballot", "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_rotate", "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative", "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product", "cl_khr_gl_sharing", "cl_khr_icd", "cl_khr_d3d10_sharing",
    "cl_khr_d3d11_sharing", "cl_khr_dx9_media_sharing", "cl_khr_egl_event", "cl_khr_egl_image",
    "cl_khr_gl_depth_images", "cl_khr_gl_event", "cl_khr_il_program", "cl_khr_initialize_memory",
    "cl_khr_priority_hints", "cl_khr_select_fprounding_mode", "cl_khr_spir",
    "cl_khr_terminate_context", "cl_khr_throttle_hints", "cl_khr_image2d_from_buffer",
    "cl_ext_float_atomics", "cl_amd_media_ops", "cl_amd_media_ops2",
    "cl_intel_subgroups", "cl_intel_subgroups_short", "cl_clang_storage_class_specifiers",
    "cl_intel_device_side_avc_motion_estimation", "cles_khr_int64",
    "cl_arm_integer_dot_product_int8", "cl_arm_integer_dot_product_accumulate_int8",
    "cl_arm_integer_dot_product_accumulate_int16",
    "cl_arm_integer_dot_product_accumulate_saturate_int8",
))

_COMMON = r"""
#define __STDC__ 1
#define __STDC_VERSION__ 199901L
#define __STDC_HOSTED__ 1
#define __STDC_UTF_16__ 1
#define __STDC_UTF_32__ 1
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define CL_VERSION_2_0 200
#define CL_VERSION_3_0 300
#define __ENDIAN_LITTLE__ 1
#define __IMAGE_SUPPORT__ 1
#define __LITTLE_ENDIAN__ 1
#define __ORDER_LITTLE_ENDIAN__ 1234
#define __ORDER_BIG_ENDIAN__ 4321
#define __ORDER_PDP_ENDIAN__ 3412
#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__
#define __SPIR__ 1
#define __SPIR 1
#define __SPIR64__ 1
#define __SPIR64 1
#define _LP64 1
#define __LP64__ 1
#define __CHAR_BIT__ 8
#define __SIZEOF_SHORT__ 2
#define __SIZEOF_INT__ 4
#define __SIZEOF_LONG__ 8
#define __SIZEOF_FLOAT__ 4
#define __SIZEOF_DOUBLE__ 8
#define __SIZEOF_POINTER__ 8
#define __SIZEOF_SIZE_T__ 8
#define __SIZEOF_PTRDIFF_T__ 8
#define __SIZE_TYPE__ long unsigned int
#define __PTRDIFF_TYPE__ long int
#define __INTPTR_TYPE__ long int
#define __UINTPTR_TYPE__ long unsigned int
#define __SCHAR_MAX__ 127
#define __SHRT_MAX__ 32767
#define __INT_MAX__ 2147483647
#define __LONG_MAX__ 9223372036854775807L
#define __SIZE_MAX__ 18446744073709551615UL
#define __PTRDIFF_MAX__ 9223372036854775807L
#define __INTPTR_MAX__ 9223372036854775807L
#define __UINTPTR_MAX__ 18446744073709551615UL
#define __ATOMIC_RELAXED 0
#define __ATOMIC_CONSUME 1
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_SEQ_CST 5
#define __OPENCL_MEMORY_SCOPE_WORK_ITEM 0
#define __OPENCL_MEMORY_SCOPE_WORK_GROUP 1
#define __OPENCL_MEMORY_SCOPE_DEVICE 2
#define __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES 3
#define __OPENCL_MEMORY_SCOPE_SUB_GROUP 4
#define __opencl_c_int64 1
#define __kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))
#define kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))
#define NULL ((void*)0)
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-128)
#define UCHAR_MAX 255
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define USHRT_MAX 65535
#define SHRT_MAX 32767
#define SHRT_MIN (-32768)
#define UINT_MAX 0xffffffff
#define INT_MAX 2147483647
#define INT_MIN (-2147483647-1)
#define ULONG_MAX 0xffffffffffffffffUL
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL-1)
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP +38
#define FLT_MAX_EXP +128
#define FLT_MIN_10_EXP -37
#define FLT_MIN_EXP -125
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX_10_EXP +308
#define DBL_MAX_EXP +1024
#define DBL_MIN_10_EXP -307
#define DBL_MIN_EXP -1021
#define DBL_RADIX 2
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
#define HALF_DIG 3
#define HALF_MANT_DIG 11
#define HALF_MAX_10_EXP +4
#define HALF_MAX_EXP +16
#define HALF_MIN_10_EXP -4
#define HALF_MIN_EXP -13
#define HALF_RADIX 2
#define HALF_MAX ((0x1.ffcp15h))
#define HALF_MIN ((0x1.0p-14h))
#define HALF_EPSILON ((0x1.0p-10h))
#define MAXFLOAT 0x1.fffffep127f
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VAL (__builtin_huge_val())
#define INFINITY (__builtin_inff())
#define NAN as_float(INT_MAX)
#define FP_ILOGB0 INT_MIN
#define FP_ILOGBNAN INT_MAX
#define M_E 0x1.5bf0a8b145769p+1
#define M_LOG2E 0x1.71547652b82fep+0
#define M_LOG10E 0x1.bcb7b1526e50ep-2
#define M_LN2 0x1.62e42fefa39efp-1
#define M_LN10 0x1.26bb1bbb55516p+1
#define M_PI 0x1.921fb54442d18p+1
#define M_PI_2 0x1.921fb54442d18p+0
#define M_PI_4 0x1.921fb54442d18p-1
#define M_1_PI 0x1.45f306dc9c883p-2
#define M_2_PI 0x1.45f306dc9c883p-1
#define M_2_SQRTPI 0x1.20dd750429b6dp+0
#define M_SQRT2 0x1.6a09e667f3bcdp+0
#define M_SQRT1_2 0x1.6a09e667f3bcdp-1
#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#define CLK_ADDRESS_NONE 0
#define CLK_ADDRESS_CLAMP_TO_EDGE 2
#define CLK_ADDRESS_CLAMP 4
#define CLK_ADDRESS_REPEAT 6
#define CLK_ADDRESS_MIRRORED_REPEAT 8
#define CLK_NORMALIZED_COORDS_FALSE 0
#define CLK_NORMALIZED_COORDS_TRUE 1
#define CLK_FILTER_NEAREST 0x10
#define CLK_FILTER_LINEAR 0x20
#define CLK_R 0x10B0
#define CLK_A 0x10B1
#define CLK_RG 0x10B2
#define CLK_RA 0x10B3
#define CLK_RGB 0x10B4
#define CLK_RGBA 0x10B5
#define CLK_BGRA 0x10B6
#define CLK_ARGB 0x10B7
#define CLK_INTENSITY 0x10B8
#define CLK_LUMINANCE 0x10B9
#define CLK_Rx 0x10BA
#define CLK_RGx 0x10BB
#define CLK_RGBx 0x10BC
#define CLK_DEPTH 0x10BD
#define CLK_DEPTH_STENCIL 0x10BE
#define CLK_SNORM_INT8 0x10D0
#define CLK_SNORM_INT16 0x10D1
#define CLK_UNORM_INT8 0x10D2
#define CLK_UNORM_INT16 0x10D3
#define CLK_UNORM_SHORT_565 0x10D4
#define CLK_UNORM_SHORT_555 0x10D5
#define CLK_UNORM_INT_101010 0x10D6
#define CLK_SIGNED_INT8 0x10D7
#define CLK_SIGNED_INT16 0x10D8
#define CLK_SIGNED_INT32 0x10D9
#define CLK_UNSIGNED_INT8 0x10DA
#define CLK_UNSIGNED_INT16 0x10DB
#define CLK_UNSIGNED_INT32 0x10DC
#define CLK_HALF_FLOAT 0x10DD
#define CLK_FLOAT 0x10DE
#define CLK_UNORM_INT24 0x10DF
"""

_MATH_F = [  # (name, digits): M_<name>_F and M_<name>_H share clang's decimal spelling
    ("E", "2.71828182845904523536028747135266250"), ("LOG2E", "1.44269504088896340735992468100189214"),
    ("LOG10E", "0.434294481903251827651128918916605082"), ("LN2", "0.693147180559945309417232121458176568"),
    ("LN10", "2.30258509299404568401799145468436421"), ("PI", "3.14159265358979323846264338327950288"),
    ("PI_2", "1.57079632679489661923132169163975144"), ("PI_4", "0.785398163397448309615660845819875721"),
    ("1_PI", "0.318309886183790671537767526745028724"), ("2_PI", "0.636619772367581343075535053490057448"),
    ("2_SQRTPI", "1.12837916709551257389615890312154517"), ("SQRT2", "1.41421356237309504880168872420969808"),
    ("SQRT1_2", "0.707106781186547524400844362104849039"),
]

_CL20 = r"""
#define MAX_WORK_DIM 3
#define ATOMIC_VAR_INIT(x) (x)
#define ATOMIC_FLAG_INIT 0
#define CLK_IMAGE_MEM_FENCE 0x04
#define CLK_sRGB 0x10BF
#define CLK_sRGBx 0x10C0
#define CLK_sRGBA 0x10C1
#define CLK_sBGRA 0x10C2
#define CLK_ABGR 0x10C3
#define __opencl_c_generic_address_space 1
#define __BLOCKS__ 1
#define __block __attribute__((__blocks__(byref)))
#define CLK_ENQUEUE_FLAGS_NO_WAIT 0x0
#define CLK_ENQUEUE_FLAGS_WAIT_KERNEL 0x1
#define CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP 0x2
#define CLK_SUCCESS 0
#define CLK_ENQUEUE_FAILURE -101
#define CLK_INVALID_QUEUE -102
#define CLK_INVALID_NDRANGE -160
#define CLK_INVALID_EVENT_WAIT_LIST -57
#define CLK_DEVICE_QUEUE_FULL -161
#define CLK_INVALID_ARG_SIZE -51
#define CLK_EVENT_ALLOCATION_FAILURE -100
#define CLK_OUT_OF_RESOURCES -5
#define CLK_NULL_QUEUE 0
#define CLK_NULL_EVENT (__builtin_astype(((__SIZE_MAX__)), clk_event_t))
#define CLK_NULL_RESERVE_ID (__builtin_astype(((void*)(__SIZE_MAX__)), reserve_id_t))
#define CL_COMPLETE 0x0
#define CL_RUNNING 0x1
#define CL_SUBMITTED 0x2
#define CL_QUEUED 0x3
#define CLK_PROFILING_COMMAND_EXEC_TIME 0x1
#define __opencl_c_program_scope_global_variables 1
#define __opencl_c_atomic_order_acq_rel 1
#define __opencl_c_atomic_order_seq_cst 1
#define __opencl_c_atomic_scope_device 1
#define __opencl_c_atomic_scope_all_devices 1
#define __opencl_c_work_group_collective_functions 1
"""


def normalize_std(cl_std: str) -> str:
    """``"CL2.0"``, ``"cl2.0"``, ``"2.0"`` or ``"CLC++"``-less forms to the canonical key;
    raises ValueError for an unknown version (the caller reports it)."""
    s = cl_std.strip().upper()
    if not s.startswith("CL"):
        s = "CL" + s
    if s not in VERSIONS:
        raise ValueError(f"invalid value '{cl_std}' in '-cl-std={cl_std}'")
    return s


def enabled_extensions(edits, cl_std: str | None = None) -> list[str]:
    """The supported extension set after clang-style ``-cl-ext`` edits (``+name``, ``-name``,
    ``-all``, ``+all``) applied to the default set; with ``cl_std`` (normalized), without the
    extensions that language version does not have."""
    exts = list(DEFAULT_EXTENSIONS)
    for edit in edits:
        for item in str(edit).split(","):
            item = item.strip()
            if not item:
                continue
            sign, name = (item[0], item[1:]) if item[0] in "+-" else ("+", item)
            if name == "all":
                exts = list(DEFAULT_EXTENSIONS) if sign == "+" else []
            elif sign == "+" and name not in exts:
                exts.append(name)
            elif sign == "-" and name in exts:
                exts.remove(name)
    if cl_std is not None:
        exts = [e for e in exts if VERSIONS[cl_std] >= MIN_VERSION.get(e, 0)]
    return exts


def predefined_source(cl_std: str, *, fast_relaxed_math: bool = False,
                      extensions: list[str] | None = None) -> str:
    """The ``<built-in>`` buffer for one compilation (``cl_std`` already normalized)."""
    version = VERSIONS[cl_std]
    exts = enabled_extensions((), cl_std) if extensions is None else extensions
    lines = [f"#define __OPENCL_VERSION__ {version}", f"#define __OPENCL_C_VERSION__ {version}"]
    lines.append(_COMMON.strip())
    for name, digits in _MATH_F:
        lines.append(f"#define M_{name}_F {digits}f")
        lines.append(f"#define M_{name}_H {digits}h")
    if version < 200:
        lines.append("#define __opencl_c_named_address_space_builtins 1")
    if version >= 200:
        lines.append(_CL20.strip())
    if version >= 300 and "cl_khr_fp64" in exts:
        lines.append("#define __opencl_c_fp64 1")
    if version >= 300 and "cl_khr_subgroups" in exts:
        lines.append("#define __opencl_c_subgroups 1")
    if fast_relaxed_math:
        lines += ["#define __FAST_MATH__ 1", "#define __FAST_RELAXED_MATH__ 1",
                  "#define __FINITE_MATH_ONLY__ 1"]
    else:
        lines.append("#define __FINITE_MATH_ONLY__ 0")
    lines += [f"#define {ext} 1" for ext in exts]
    return "\n".join(lines) + "\n"
