"""The dynamic-checks framework (issue 18): the ``checks=`` and ``report=`` options, the
``KernelCheckError`` a launch raises once it has run to completion, deduplication, the default
path left as it was, and ``spirvkit run --check`` printing findings clang-style.

Kernels are OpenCL C compiled with ``spirvkit cc -g`` (the API's compile_cl with the same
options, or the command itself in the CLI tests).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import spirvkit
from spirvkit.errors import ExecutionError, KernelArgumentError

SOURCE = r"""
kernel void touch_ro(global int *in, global int *out, int every) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
  if (i % every == 0)
    in[i] = -1;
}

kernel void copy(global const int *in, global int *out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}

kernel void oob_and_null(global int *p, global int *out) {
  size_t i = get_global_id(0);
  if (i == 0)
    p[0] = 3;
  out[i + 1] = 1;
}

kernel void diverge(global int *out) {
  if (get_local_id(0) < 3)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 5;
}

kernel void copy_sizes_differ(global const int *in, global int *out) {
  local int tmp[8];
  size_t n = get_local_id(0) == 5 ? 2 : 8;
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 8, n, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("checks") / "framework.cl"
    path.write_text(SOURCE)
    return spirvkit.Program(spirvkit.compile_cl(SOURCE, ["-g", "-cl-std=CL2.0"], filename=str(path)))


def _read_only(n):
    a = np.arange(n, dtype=np.int32)
    a.flags.writeable = False
    return a


# ----- choosing checks --------------------------------------------------------------------------

@pytest.mark.parametrize("checks,pattern", [("bogus", r"unknown check\(s\) 'bogus'"),
                                            ({"bounds", "speed"}, "unknown check.*'speed'"),
                                            (3, "checks must be")])
def test_unknown_checks_are_argument_errors(program, checks, pattern):
    with pytest.raises(KernelArgumentError, match=pattern):
        program.kernel("copy")(4, None, np.zeros(4, np.int32), np.zeros(4, np.int32), checks=checks)


@pytest.mark.parametrize("checks", ["all", {"barriers"}, {"bounds"}])
def test_unchecked_conflicts_with_checks(program, checks):
    with pytest.raises(KernelArgumentError, match="unchecked=True runs no checks"):
        program.kernel("copy")(4, None, np.zeros(4, np.int32), np.zeros(4, np.int32), unchecked=True,
                               checks=checks)


def test_all_means_every_implemented_check():
    from spirvkit.runtime.check_findings import launch_checks

    assert launch_checks("all", False) >= {"races", "barriers", "pointers", "access"}
    assert launch_checks("bounds,access", False) == {"access"}   # bounds: in every checked launch
    assert launch_checks(None, False) == frozenset()


# ----- reporting ----------------------------------------------------------------------------------

def test_default_launch_returns_nothing_and_report_gives_an_empty_list(program):
    a, out = np.arange(64, dtype=np.int32), np.zeros(64, np.int32)
    assert program.kernel("copy")(64, 16, a, out) is None
    assert program.kernel("copy")(64, 16, a, out, checks="all", report=True) == []
    assert (out == a).all()


def test_launch_runs_to_completion_then_raises_once(program):
    ro, out = _read_only(256), np.zeros(256, np.int32)
    with pytest.raises(spirvkit.KernelCheckError) as info:
        program.kernel("touch_ro")(256, 32, ro, out, 16, checks={"access"})
    err = info.value
    assert isinstance(err, ExecutionError) and isinstance(err, spirvkit.SpirvkitError)
    assert (out == np.arange(256) + 1).all()          # every work-item ran
    assert (ro == np.arange(256)).all()               # no write reached the read-only array
    [f] = err.findings                                # one per (kind, instruction)
    assert f.count == 16                              # ... counting every work-item that did it
    assert (f.kind, f.what, f.kernel) == ("access", "write to read-only memory", "touch_ro")
    assert (f.space, f.offset, f.size) == ("global", f.global_id[0] * 4, 4)
    assert f.argument == "argument 0 ('in', __global)"
    assert f.global_id[0] % 16 == 0 and f.location.endswith(":6:5")
    assert f.instruction.startswith("OpStore at word ")
    assert "1 finding(s) of the dynamic checks in kernel 'touch_ro'" in str(err)
    assert "(16 times)" in str(err)


def test_report_returns_the_findings_instead(program):
    findings = program.kernel("touch_ro")(64, 16, _read_only(64), np.zeros(64, np.int32), 32, report=True)
    assert [f.count for f in findings] == [2]


def test_a_read_only_array_turns_the_access_check_on(program):
    """The default launch (bounds only) accepts it for a __global pointer: the write is a finding."""
    ro = _read_only(32)
    with pytest.raises(spirvkit.KernelCheckError, match="write to read-only memory"):
        program.kernel("touch_ro")(32, 8, ro, np.zeros(32, np.int32), 8)
    assert (ro == np.arange(32)).all()
    program.kernel("copy")(32, 8, ro, out := np.zeros(32, np.int32))   # only read: fine
    assert (out == ro).all()
    with pytest.raises(KernelArgumentError, match=r"argument 0 \('in'\).*read-only.*unchecked=True"):
        program.kernel("copy")(32, 8, ro, np.zeros(32, np.int32), unchecked=True)


def test_bounds_fault_with_other_checks(program):
    """A bounds fault still stops the launch; with other checks on it is the first finding."""
    out = np.zeros(8, np.int32)
    with pytest.raises(spirvkit.KernelFault, match="NULL pointer"):
        program.kernel("oob_and_null")(7, 7, None, out)            # default: the fault, as before
    findings = program.kernel("oob_and_null")(8, 8, None, out, checks="all", report=True)
    assert [(f.kind, f.what) for f in findings] == [("bounds", "out-of-bounds write"),
                                                    ("pointers", "null dereference")]
    assert findings[0].global_id == (7, 0, 0) and findings[0].location.endswith(":17:3")
    with pytest.raises(spirvkit.KernelCheckError) as info:
        program.kernel("oob_and_null")(8, 8, None, out, checks={"pointers"})
    assert isinstance(info.value.__cause__, spirvkit.KernelFault)
    [f] = program.kernel("oob_and_null")(8, 8, np.zeros(1, np.int32), out, report=True)   # bounds only
    assert (f.kind, f.global_id, f.offset, f.size) == ("bounds", (7, 0, 0), 32, 4)
    assert f.argument == "argument 1 ('out')" and "the launch stopped there" in f.message


def test_barrier_finding_names_both_work_items(program):
    [f] = program.kernel("diverge")(16, 8, out := np.zeros(16, np.int32), checks={"barriers"}, report=True)
    assert (f.kind, f.what) == ("barriers", "barrier divergence")
    assert f.global_id[0] in (0, 8) and f.other_global_id[0] in (3, 11)
    assert f.count == 2 and "has returned from the kernel" in f.message
    assert (out == 5).all()


def test_async_copy_operands_that_differ_name_both_work_items(program):
    """The group copies once, with its first work-item's operands: a work-item that passes
    another count is divergence at the copy (as Oclgrind reports it)."""
    out = np.zeros(16, np.int32)
    [f] = program.kernel("copy_sizes_differ")(16, 8, np.arange(16, dtype=np.int32), out, checks={"barriers"},
                                                report=True)
    assert (f.kind, f.what, f.count) == ("barriers", "barrier divergence", 2)   # once per group
    assert f.global_id[0] in (0, 8) and f.other_global_id[0] in (5, 13)
    assert "pass different arguments to this work-group function (OpGroupAsyncCopy)" in f.message
    assert f.instruction.startswith("OpGroupAsyncCopy") and (out == np.arange(16)).all()


def test_render_is_clang_style(program, tmp_path):
    findings = program.kernel("diverge")(8, 8, np.zeros(8, np.int32), checks="all", report=True)
    text = findings[0].render()
    lines = text.splitlines()
    assert lines[0].endswith(":22:5: error: barrier divergence in kernel 'diverge', work-item (0, 0, 0) "
                             "[check: barriers]")
    assert lines[1] == "    barrier(CLK_LOCAL_MEM_FENCE);" and lines[2] == "    ^"
    assert lines[-1].startswith("note: instruction OpControlBarrier at word ")


def test_compile_ahead_with_checks_and_the_optimised_tier(program, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_JIT", "optimized")
    p = spirvkit.Program(program._bytes)
    k = p.kernel("touch_ro").compile(optimized=True, checks={"access"})
    findings = k(1 << 17, 64, _read_only(1 << 17), np.zeros(1 << 17, np.int32), 4096, report=True)
    assert k.tier == 2 and [f.count for f in findings] == [32]


def test_large_launch_with_group_guards():
    """A first launch this large gets group guards (access_guard.py); the access check still
    sees every write to a read-only array."""
    p = spirvkit.Program(spirvkit.compile_cl(SOURCE, ["-cl-std=CL2.0"]))
    n = 1 << 18
    findings = p.kernel("touch_ro")(n, 64, _read_only(n), out := np.zeros(n, np.int32), 1000, report=True)
    assert [f.count for f in findings] == [len(range(0, n, 1000))]
    assert (out == np.arange(n) + 1).all()


# ----- spirvkit run --check ---------------------------------------------------------------------

def _cli(*args, cwd):
    result = subprocess.run([sys.executable, "-m", "spirvkit", *args], capture_output=True, text=True, cwd=cwd,
                            timeout=120)
    assert "Traceback" not in result.stderr
    return result


def test_cli_prints_findings_clang_style(tmp_path):
    (tmp_path / "k.cl").write_text(SOURCE)
    assert _cli("cc", "-g", "-cl-std=CL2.0", "k.cl", "-o", "k.spv", cwd=tmp_path).returncode == 0
    r = _cli("run", "k.spv", "-k", "diverge", "--global", "16", "--local", "8", "-a", "zeros:16",
             "--check", "all", cwd=tmp_path)
    assert r.returncode == 1
    assert "out (int*): int32[16]" in r.stdout                      # the outputs, as without checks
    assert r.stderr.splitlines() == [
        "k.cl:22:5: error: barrier divergence in kernel 'diverge', work-item (0, 0, 0) [check: barriers]",
        "    barrier(CLK_LOCAL_MEM_FENCE);",
        "    ^",
        "  work-item (0, 0, 0) waits at this barrier while work-item (3, 0, 0) of the same work-group has "
        "returned from the kernel: not every work-item of the group reaches it the same number of times",
        r.stderr.splitlines()[4],
        "1 finding of the dynamic checks.",
    ]
    assert r.stderr.splitlines()[4].startswith("note: instruction OpControlBarrier at word ")
    assert "it happened 2 times" in r.stderr


def test_cli_check_clean_kernel_and_mistakes(tmp_path):
    (tmp_path / "k.cl").write_text(SOURCE)
    _cli("cc", "-g", "-cl-std=CL2.0", "k.cl", "-o", "k.spv", cwd=tmp_path)
    base = ("run", "k.spv", "-k", "copy", "--global", "8", "-a", "range:8", "-a", "zeros:8")
    r = _cli(*base, "--check", "barriers,pointers", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    r = _cli(*base, "--check", "all", "--unchecked", cwd=tmp_path)
    assert r.returncode == 1 and "conflicts with checks=" in r.stderr


# ----- parameters the module declares read-only (FuncParamAttr NoWrite) ---------------------------

def _no_write_kernel():
    """main(a, o): o[gid] = a[gid]; a[gid] = 0 -- with `a` decorated NoWrite (llvm-spirv's mark
    of a `const restrict` pointer), so the store through it breaks the module's own promise."""
    from jit.asm_kernel import ld, simple, st

    return simple([("a", "pCW_uint"), ("o", "pCW_uint")],
                  ld("x", "uint", "a", "gid") + st("o", "gid", "uint", "x") + st("a", "gid", "uint", "uint_0"),
                  decorations="OpDecorate %a FuncParamAttr NoWrite")


def test_no_write_parameters_take_read_only_arrays_and_are_checked():
    k = _no_write_kernel()
    ro, out = _read_only(8), np.zeros(8, np.uint32)
    [f] = k(8, None, ro, out, report=True)                  # checked: the store is a finding
    assert (f.kind, f.count, f.argument) == ("access", 8, "argument 0 ('a', __global)")
    assert (out == np.arange(8)).all() and (ro == np.arange(8)).all()
    w = np.arange(8, dtype=np.int32)                        # a writeable array: NoWrite still holds
    [f] = k(8, None, w, out, checks={"access"}, report=True)
    assert f.count == 8 and (w == np.arange(8)).all()
    assert k(8, None, w, out, report=True) == []            # without the access check: not looked at
    assert (w == 0).all()


def test_unchecked_takes_a_read_only_array_for_a_no_write_parameter_only():
    from jit.asm_kernel import ld, simple, st

    body = ld("x", "uint", "a", "gid") + st("o", "gid", "uint", "x")
    promised = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body, decorations="OpDecorate %a FuncParamAttr NoWrite")
    plain = simple([("a", "pCW_uint"), ("o", "pCW_uint")], body)
    out = np.zeros(8, np.uint32)
    promised(8, None, _read_only(8), out, unchecked=True)
    assert (out == np.arange(8)).all()
    with pytest.raises(KernelArgumentError, match=r"argument 0 \('a'\).*read-only"):
        plain(8, None, _read_only(8), out, unchecked=True)
