"""Predefined macros per -cl-std, against clang-15's (committed fixtures, see
tests/data/clc_pp/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spirvkit.clc import Preprocessor, PreprocessorOptions, preprocess
from spirvkit.clc.tokens import lex
from spirvkit.errors import CompileError

DATA = Path(__file__).parent.parent / "data" / "clc_pp"

# Ours but not clang's: the spec requires __OPENCL_VERSION__ (§1.10); clang-15 omits it.
OURS_ONLY = {"__OPENCL_VERSION__"}
# Required by the OpenCL C spec §1.10 / §1.13 (plus C99's), for every version.
SPEC_REQUIRED = [
    "__OPENCL_VERSION__", "__OPENCL_C_VERSION__", "CL_VERSION_1_0", "CL_VERSION_1_1",
    "CL_VERSION_1_2", "CL_VERSION_2_0", "__ENDIAN_LITTLE__", "__kernel_exec", "kernel_exec",
    "NULL", "MAXFLOAT", "HUGE_VALF", "HUGE_VAL", "INFINITY", "NAN", "FP_ILOGB0", "FP_ILOGBNAN",
    "FLT_DIG", "FLT_MANT_DIG", "FLT_MAX_10_EXP", "FLT_MAX_EXP", "FLT_MIN_10_EXP", "FLT_MIN_EXP",
    "FLT_RADIX", "FLT_MAX", "FLT_MIN", "FLT_EPSILON", "DBL_DIG", "DBL_MAX", "DBL_EPSILON",
    "M_E_F", "M_PI_F", "M_SQRT1_2_F", "M_E", "M_PI", "M_SQRT1_2", "CHAR_BIT", "CHAR_MAX",
    "CHAR_MIN", "INT_MAX", "INT_MIN", "LONG_MAX", "LONG_MIN", "SCHAR_MAX", "SCHAR_MIN",
    "SHRT_MAX", "SHRT_MIN", "UCHAR_MAX", "USHRT_MAX", "UINT_MAX", "ULONG_MAX",
    "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "__STDC__", "__STDC_VERSION__",
    "__SPIR__", "__SPIR64__", "cl_khr_fp64", "cl_khr_fp16", "__opencl_c_int64",
]
# Deliberately not defined (see src/spirvkit/clc/predefined.py for why).
NOT_DEFINED = ["FP_FAST_FMA", "FP_FAST_FMAF", "__FAST_RELAXED_MATH__",
               "__opencl_c_images", "__opencl_c_pipes", "__opencl_c_device_enqueue",
               "cl_khr_subgroup_extended_types",
               "cl_intel_subgroups", "as_float"]
# Defined in every version as clang-15 defines them for spir (images work end to end).
IMAGE_MACROS = ["__IMAGE_SUPPORT__", "cl_khr_3d_image_writes", "cl_khr_depth_images"]
# The cl_khr_subgroup_* extensions cc implements: OpenCL C 2.0 and later, as in clang-15.
SUBGROUP_EXTENSIONS = ["cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_vote",
                       "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",
                       "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce",
                       "cl_khr_subgroup_rotate"]


def clang_macros(fixture: str) -> dict[str, tuple]:
    table = {}
    for line in (DATA / fixture).read_text().splitlines():
        assert line.startswith("#define "), line
        rest = line[len("#define "):]
        name_end = len(rest)
        for i, c in enumerate(rest):
            if c in " (":
                name_end = i
                break
        name, tail = rest[:name_end], rest[name_end:]
        params = None
        if tail.startswith("("):
            close = tail.index(")")
            params = tuple(p.strip() for p in tail[1:close].split(",") if p.strip())
            tail = tail[close + 1:]
        table[name] = (params, [t.text for t in lex(tail)[0]])
    return table


def our_macros(**options) -> dict[str, tuple]:
    pp = Preprocessor(PreprocessorOptions(**options))
    pp.run("", "empty.cl")
    table = {}
    for name, m in pp.expander.macros.items():
        if m.builtin:
            continue
        params = None
        if m.params is not None:
            params = tuple("..." if (m.variadic and p == "__VA_ARGS__") else p for p in m.params)
        table[name] = (params, [t.text for t in m.body])
    return table


CASES = [("CL1.2", {}, "predefined-CL1.2.txt"), ("CL2.0", {}, "predefined-CL2.0.txt"),
         ("CL3.0", {}, "predefined-CL3.0.txt"),
         ("CL1.2", {"fast_relaxed_math": True}, "predefined-CL1.2-fast-relaxed-math.txt")]


@pytest.mark.parametrize("std,extra,fixture", CASES)
def test_every_macro_we_define_matches_clang(std, extra, fixture):
    clang = clang_macros(fixture)
    ours = our_macros(cl_std=std, **extra)
    assert len(ours) > 200
    for name, definition in ours.items():
        if name in OURS_ONLY:
            continue
        assert name in clang, f"{name} is not predefined by clang-15 ({std})"
        assert definition == clang[name], name


@pytest.mark.parametrize("std,version", [("CL1.2", "120"), ("CL2.0", "200"), ("CL3.0", "300")])
def test_spec_required_macros(std, version):
    ours = our_macros(cl_std=std)
    for name in SPEC_REQUIRED:
        assert name in ours, name
    assert ours["__OPENCL_VERSION__"][1] == [version]
    assert ours["__OPENCL_C_VERSION__"][1] == [version]
    for name in NOT_DEFINED:
        assert name not in ours, name
    for name in IMAGE_MACROS:
        assert ours[name][1] == ["1"], name
    for name in SUBGROUP_EXTENSIONS:
        assert (name in ours) == (version != "120"), name


def test_feature_macros_per_version():
    cl12, cl20, cl30 = (our_macros(cl_std=s) for s in ("CL1.2", "CL2.0", "CL3.0"))
    for feature in ("__opencl_c_generic_address_space", "__opencl_c_program_scope_global_variables",
                    "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
                    "__opencl_c_work_group_collective_functions"):
        assert feature not in cl12 and feature in cl20 and feature in cl30
    assert "__opencl_c_fp64" in cl30 and "__opencl_c_fp64" not in cl20
    assert "ATOMIC_VAR_INIT" in cl20 and "ATOMIC_VAR_INIT" not in cl12
    assert "__opencl_c_named_address_space_builtins" in cl12
    assert "__opencl_c_named_address_space_builtins" not in cl30


def test_fast_relaxed_math_and_extension_edits():
    fast = our_macros(fast_relaxed_math=True)
    assert fast["__FAST_RELAXED_MATH__"][1] == ["1"]
    no64 = our_macros(cl_std="CL3.0", extensions=["-cl_khr_fp64"])
    assert "cl_khr_fp64" not in no64 and "__opencl_c_fp64" not in no64
    none = our_macros(extensions=["-all", "+cl_khr_fp16"])
    assert "cl_khr_fp16" in none and "cl_khr_int64_base_atomics" not in none
    assert "cl_khr_3d_image_writes" not in none and "__IMAGE_SUPPORT__" in none
    no_ballot = our_macros(cl_std="CL3.0", extensions=["-cl_khr_subgroup_ballot"])
    assert "cl_khr_subgroup_ballot" not in no_ballot and "cl_khr_subgroup_shuffle" in no_ballot


def test_values_usable_in_if():
    src = """
#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0 && defined(__opencl_c_generic_address_space)
gen
#elif __OPENCL_C_VERSION__ == CL_VERSION_1_2 && __ENDIAN_LITTLE__ && defined(__IMAGE_SUPPORT__)
v12
#endif
"""
    assert [t.text for t in preprocess(src)] == ["v12"]
    assert [t.text for t in preprocess(src, options=PreprocessorOptions(cl_std="CL2.0"))] == ["gen"]
    assert [t.text for t in preprocess(src, options=PreprocessorOptions(cl_std="cl3.0"))] == ["gen"]


def test_kernel_exec_expands():
    toks = preprocess("__kernel_exec(64, float4) void k() {}")
    text = " ".join(t.text for t in toks)
    assert text.startswith("__kernel __attribute__ ( ( work_group_size_hint ( 64 , 1 , 1 ) ) )")
    assert "vec_type_hint ( float4 )" in text


def test_bad_cl_std():
    with pytest.raises(CompileError, match="invalid value 'CL9.9'"):
        Preprocessor(PreprocessorOptions(cl_std="CL9.9"))


def test_no_predefined():
    assert "__OPENCL_VERSION__" not in our_macros(predefined=False)
