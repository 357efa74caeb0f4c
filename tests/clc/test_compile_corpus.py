"""Differential corpus test of the OpenCL C compiler (issue 6).

Every kernel source of tests/data/kernels (the executor's corpus) is compiled with
``spirvkit.compile_cl``; spirv-val must accept the module (in the environment the fixture's
MANIFEST row names: opencl2.2, or spv1.2 where the module needs Int64Atomics), and every launch
case of tests/jit/kernel_cases.py must give, on the executor, the results PoCL gives for the same
source and inputs (the same references and comparisons as tests/jit/test_kernel_corpus.py,
imported from there).

Compiled modules are cached per session. Sources that use a feature the compiler does not have
yet would be listed in ``NOT_SUPPORTED`` (xfail, strict, with the exact "not supported yet"
reason).
"""

from __future__ import annotations

import functools
import subprocess

import pytest
from jit.kernel_cases import BASE_CASES, KERNELS, Buffer, Local, make_values
from jit.test_kernel_corpus import LAUNCH_TIMEOUT_S, compare, pocl_outputs
from peers import spirv_tool

import spirvkit
from spirvkit.errors import CompileError

# stem -> the exact "not supported yet: ..." message expected (strict xfail: flips when fixed).
NOT_SUPPORTED: dict[str, str] = {}

SOURCES = sorted(p.stem for p in KERNELS.glob("*.cl"))


def _manifest_envs() -> dict[str, str]:
    envs = {}
    for line in (KERNELS / "MANIFEST.tsv").read_text().splitlines():
        row = line.split("\t")
        if line and row[0] == f"{row[1][:-3]}.spv":
            envs[row[1][:-3]] = row[7] if len(row) > 7 and row[7] else "opencl2.2"
    return envs


ENVS = _manifest_envs()


@functools.lru_cache(maxsize=None)
def compiled(stem: str) -> bytes:
    source = (KERNELS / f"{stem}.cl").read_text(encoding="utf-8")
    # The fixtures were built with -cl-std=CL2.0 (tests/data/kernels/regenerate.sh).
    return spirvkit.compile_cl(source, "-cl-std=CL2.0", filename=f"{stem}.cl")


def _compiled_or_xfail(stem: str) -> bytes:
    if stem in NOT_SUPPORTED:
        with pytest.raises(CompileError) as info:
            compiled(stem)
        assert NOT_SUPPORTED[stem] in str(info.value)
        pytest.xfail(NOT_SUPPORTED[stem])
    return compiled(stem)


@pytest.mark.parametrize("stem", SOURCES)
def test_compiles_and_validates(stem, tmp_path):
    binary = _compiled_or_xfail(stem)
    path = tmp_path / f"{stem}.spv"
    path.write_bytes(binary)
    env = ENVS.get(stem, "opencl2.2")
    result = subprocess.run([spirv_tool("spirv-val"), "--target-env", env, str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, f"spirv-val --target-env {env}: {result.stderr}"
    module = spirvkit.Module.from_bytes(binary)
    names = {e.name for e in module.entry_points}
    expected = {c.kernel for c in BASE_CASES if c.source_stem == stem}
    assert expected <= names


# The project's other OpenCL C sources: the disassembler/validator fixtures' sources, the
# benchmarks, the group-guard kernels. They compile and validate; one that used features the
# compiler leaves out would say so here.
OTHER_ROOTS = [KERNELS.parent / "clc", KERNELS.parent / "guard", KERNELS.parents[2] / "benchmarks" / "kernels"]
OTHER_SOURCES = sorted(str(p.relative_to(KERNELS.parents[2])) for root in OTHER_ROOTS for p in root.glob("*.cl"))
OTHER_NOT_SUPPORTED: dict[str, str] = {}


@pytest.mark.parametrize("relpath", OTHER_SOURCES)
def test_other_sources_compile_and_validate(relpath, tmp_path):
    source = (KERNELS.parents[2] / relpath).read_text(encoding="utf-8")
    if relpath in OTHER_NOT_SUPPORTED:
        with pytest.raises(CompileError, match=OTHER_NOT_SUPPORTED[relpath]):
            spirvkit.compile_cl(source, "-cl-std=CL2.0", filename=relpath)
        return
    path = tmp_path / "out.spv"
    path.write_bytes(spirvkit.compile_cl(source, "-cl-std=CL2.0", filename=relpath))
    result = subprocess.run([spirv_tool("spirv-val"), "--target-env", "opencl2.2", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, f"spirv-val --target-env opencl2.2: {result.stderr}"
    assert spirvkit.validate(path.read_bytes(), target_env="opencl2.2") == []


def _executor_outputs(binary: bytes, case) -> list:
    values = make_values(case)
    args = [spirvkit.LocalMemory(spec.nbytes) if isinstance(spec, Local) else value
            for spec, value in zip(case.args, values, strict=True)]
    kernel = spirvkit.Program(binary).kernel(case.kernel)
    extra = {} if case.global_offset is None else {"global_offset": case.global_offset}
    kernel(case.global_size, case.local_size, *args, timeout=LAUNCH_TIMEOUT_S, **extra)
    return [value if isinstance(spec, Buffer) else None for spec, value in zip(case.args, args, strict=True)]


@pytest.mark.parametrize("case", BASE_CASES, ids=lambda c: c.id)
def test_compiled_kernel_matches_pocl(case):
    binary = _compiled_or_xfail(case.source_stem)
    got = _executor_outputs(binary, case)
    ref = pocl_outputs(case)
    problems = []
    for index, spec in enumerate(case.args):
        if isinstance(spec, Buffer) and spec.is_output:
            problems += compare(spec.cmp, got[index], ref[index], f"{case.id} argument {index}")
    assert not problems, "\n".join(problems)


def test_kernel_argument_names_and_types_reach_the_executor():
    program = spirvkit.Program(compiled("vec4"))
    args = program.kernel("vec4_int").args
    assert [a.name for a in args] == ["a", "b", "out", "cmp", "halves"]
    assert args[0].type == "int4*" and args[0].address_space == "global"
