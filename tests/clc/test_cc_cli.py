"""``spirvkit cc`` and ``spirvkit run kernel.cl`` (in-process, through cli.main)."""

from __future__ import annotations

import spirvkit
from spirvkit.cli import main

SOURCE = """
#ifndef SCALE
#define SCALE 1
#endif
#include "helper.h"
kernel void scale(global float *a) { a[get_global_id(0)] = twice(a[get_global_id(0)]) * SCALE; }
"""


def write_sources(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "helper.h").write_text("float twice(float x) { return 2 * x; }\n")
    path = tmp_path / "k.cl"
    path.write_text(SOURCE)
    return path, inc


def test_cc_writes_a_valid_module(tmp_path):
    path, inc = write_sources(tmp_path)
    out = tmp_path / "k.spv"
    assert main(["cc", str(path), "-o", str(out), "-I", str(inc), "-DSCALE=3", "-cl-std=CL2.0",
                 "-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-denorms-are-zero", "-cl-opt-disable",
                 "--spirv-version", "1.2"]) == 0
    module = spirvkit.Module.from_bytes(out.read_bytes())
    assert module.version == (1, 2)
    assert spirvkit.validate(out.read_bytes(), target_env="opencl2.2") == []


def test_cc_assembly_output(tmp_path, capsys):
    path, inc = write_sources(tmp_path)
    assert main(["cc", str(path), f"-I{inc}", "-S", "-o", "-"]) == 0
    text = capsys.readouterr().out
    assert "OpEntryPoint Kernel" in text and '"scale"' in text


def test_cc_reports_errors_like_clang(tmp_path, capsys):
    bad = tmp_path / "bad.cl"
    bad.write_text("kernel void k(global int *o) {\n  o[0] = nope;\n}\n")
    assert main(["cc", str(bad), "-o", str(tmp_path / "bad.spv")]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:10: error: use of undeclared identifier 'nope'" in err
    assert "1 error generated." in err
    assert "Traceback" not in err
    assert not (tmp_path / "bad.spv").exists()


def test_cc_unknown_option_and_missing_file(tmp_path, capsys):
    path, _ = write_sources(tmp_path)
    assert main(["cc", str(path), "-frobnicate"]) == 1
    assert "unknown argument: '-frobnicate'" in capsys.readouterr().err
    assert main(["cc", str(tmp_path / "none.cl")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_cc_werror_turns_warnings_into_errors(tmp_path, capsys):
    src = tmp_path / "w.cl"
    src.write_text("#pragma OPENCL EXTENSION cl_khr_nonexistent : enable\nkernel void k(global int *o) {}\n")
    assert main(["cc", str(src), "-o", str(tmp_path / "w.spv")]) == 0
    assert main(["cc", str(src), "-Werror", "-o", str(tmp_path / "w.spv")]) == 1


def test_cc_warnings_show_the_line_and_a_summary(tmp_path, capsys):
    src = tmp_path / "r.cl"
    src.write_text("int f(int x) { if (x) return 1; }\nkernel void k(global int *o) { o[0] = f(1); }\n")
    assert main(["cc", str(src), "-o", str(tmp_path / "r.spv")]) == 0
    err = capsys.readouterr().err
    assert f"{src}:1:33: warning: non-void function does not return a value in all control paths [-Wreturn-type]" in err
    assert "int f(int x) { if (x) return 1; }\n" in err and err.rstrip().endswith("1 warning generated.")
    assert main(["cc", str(src), "-Wno-return-type", "-o", str(tmp_path / "r.spv")]) == 0
    assert capsys.readouterr().err == ""


def test_run_compiles_cl_on_the_fly(tmp_path, capsys):
    src = tmp_path / "add.cl"
    src.write_text("kernel void add1(global int *a) { a[get_global_id(0)] += 1; }\n")
    assert main(["run", str(src), "--global", "4", "--arg", "range:4"]) == 0
    assert "[1, 2, 3, 4]" in capsys.readouterr().out


def test_run_reports_compile_errors_like_clang(tmp_path, capsys):
    bad = tmp_path / "bad.cl"
    bad.write_text("kernel void k(global int *a) { a[0] = ; }\n")
    assert main(["run", str(bad), "--global", "4", "--arg", "zeros:4"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:1:39: error: expected expression")   # once, not wrapped again
    assert "1 error generated." in err and "Traceback" not in err
