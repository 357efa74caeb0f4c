"""``spirvkit val``: exit status, output format, no traceback on bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest
from val_modules import kernel

import spirvkit
from spirvkit.cli import main


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_valid_module_exits_0_silently(tmp_path, capsys):
    path = _write(tmp_path, "ok.spv", spirvkit.assemble(kernel(), "opencl2.2"))
    assert main(["val", "--target-env", "opencl2.2", path]) == 0
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_invalid_module_exits_1_with_diagnostic(tmp_path, capsys):
    text = kernel(types="%v5 = OpTypeVector %uint 5\n%v6 = OpTypeVector %uint 6")
    path = _write(tmp_path, "bad.spv", spirvkit.assemble(text, "opencl2.2"))
    assert main(["val", "--target-env", "opencl2.2", path]) == 1
    err = capsys.readouterr().err
    assert err.count("error:") == 1
    assert "[types.vector-size, SPIR-V 2.16.1]" in err and "OpTypeVector %uint 5" in err and "at word" in err
    assert main(["val", "--target-env", "opencl2.2", "--max-errors", "0", path]) == 1
    assert capsys.readouterr().err.count("error:") == 2


def test_opencl3_feature_flags(tmp_path, capsys):
    path = _write(tmp_path, "pipes.spv", spirvkit.assemble(kernel(caps="OpCapability Pipes"), "spv1.0"))
    assert main(["val", "--target-env", "opencl3.0", path]) == 1
    assert "opencl.capability-table" in capsys.readouterr().err
    assert main(["val", "--target-env", "opencl3.0", "--pipes", path]) == 0
    assert main(["val", "--target-env", "opencl3.0", "--no-fp64", path]) == 1


@pytest.mark.parametrize("data", [b"", b"junk", b"garbage!" * 10, b"\x03\x02\x23\x07\x00\x00\x01\x00" + b"\xff" * 13])
def test_bad_input_no_traceback(tmp_path, data):
    path = _write(tmp_path, "bad.spv", data)
    result = subprocess.run([sys.executable, "-m", "spirvkit", "val", path], capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "error:" in result.stderr


def test_missing_file_and_bad_env(tmp_path, capsys):
    assert main(["val", str(tmp_path / "missing.spv")]) == 1
    assert "No such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["val", "--target-env", "opencl9", str(tmp_path / "missing.spv")])
