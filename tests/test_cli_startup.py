"""The quick command-line parser of ``spirvkit as|dis|info|val`` (cli._parse_quickly, issue 19: the
commands start without importing argparse) gives exactly argparse's result, or steps aside.

Differential: for every command line the quick parser accepts, argparse (built from the same
table) must accept it too and give the same namespace; what it declines goes to argparse, so
help, --version, abbreviations and every error stay argparse's own.
"""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spirvkit import cli


def argparse_namespace(argv: list[str]) -> dict | None:
    """What argparse makes of ``argv`` (None when it exits: an error, help, --version)."""
    parser = cli.build_parser(argv[0])
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            return vars(parser.parse_args(argv))
    except SystemExit:
        return None


def check(argv: list[str]) -> bool:
    """Asserts the two parsers agree on ``argv``; whether the quick one took it."""
    quick = cli._parse_quickly(argv)
    if quick is None:
        return False
    assert vars(quick) == argparse_namespace(argv), argv
    return True


@pytest.mark.parametrize("argv", [
    ["dis", "in.spv"],
    ["dis", "in.spv", "-o", "out.spvasm"],
    ["dis", "-o", "-", "--raw-id", "--no-header", "--no-indent", "--offsets", "--comment", "-"],
    ["dis", "-o", "a", "-o", "b", "in.spv"],            # the last value wins
    ["dis", "", "-o", ""],                               # empty arguments are values
    ["info", "in.spv"],
    ["info", "-"],
    ["as", "in.spvasm"],
    ["as", "--target-env", "spv1.2", "in.spvasm", "-o", "-"],
    ["as", "--preserve-numeric-ids", "-", "--target-env", "vulkan1.1"],
    ["val", "in.spv"],
    ["val", "--target-env", "opencl3.0", "--no-fp64", "--fp64", "--no-pipes", "--address-bits", "32", "in.spv"],
    ["val", "--extension", "cl_khr_fp64", "--extension", "cl_khr_fp16", "--max-errors", "0", "-"],
])
def test_plain_command_lines_are_parsed_quickly_and_as_argparse_does(argv):
    assert check(argv)


@pytest.mark.parametrize("argv", [
    [],
    ["--version"],
    ["run", "in.spv"],                         # not one of the quick commands
    ["val", "--max-errors", "x", "in.spv"],    # not an int
    ["val", "--max-errors", "-1", "in.spv"],   # argparse reads a negative number as a value
    ["val", "--address-bits", "48", "in.spv"], # not among the choices
    ["dis"],                                   # input missing
    ["dis", "a.spv", "b.spv"],                 # one input too many
    ["dis", "--raw", "in.spv"],                # abbreviated: argparse expands it
    ["dis", "-oout.spvasm", "in.spv"],         # attached value
    ["dis", "--output=x", "in.spv"],
    ["dis", "-o"],                             # value missing
    ["dis", "-o", "--raw-id", "in.spv"],       # argparse reads an option there, not a value
    ["dis", "--", "in.spv"],
    ["dis", "-1"],                             # a negative number
    ["dis", "--help"],
    ["dis", "-h", "in.spv"],
    ["dis", "--version"],
    ["as", "--target-env", "spv9.9", "in.spvasm"],   # not among the choices
    ["info", "in.spv", "--bogus"],
])
def test_other_command_lines_go_to_argparse(argv):
    assert cli._parse_quickly(argv) is None


_TOKENS = ["in.spv", "x", "-", "", "-o", "-o-", "-ox", "--raw-id", "--raw", "--no-header", "--no-indent",
           "--offsets", "--comment", "--target-env", "--target-env=spv1.2", "spv1.2", "vulkan1.0", "opencl2.2",
           "opencl3.0", "bogus", "--preserve-numeric-ids", "--version", "-h", "--help", "--", "-1", "-x", "dis", "as",
           "--fp64", "--no-fp64", "--no-fp", "--address-bits", "32", "48", " 64", "--extension", "cl_khr_fp64",
           "--max-errors", "0", "7"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["as", "dis", "info", "val"]), st.lists(st.sampled_from(_TOKENS), max_size=7))
def test_any_command_line_quick_or_not_agrees_with_argparse(command, rest):
    check([command] + rest)


def test_main_uses_the_quick_parser(monkeypatch, tmp_path):
    """main() runs a plain ``dis`` without building argparse's parser (the point of the quick
    one), and an abbreviated option through it."""
    from pathlib import Path

    vadd = Path(__file__).resolve().parents[1] / "benchmarks" / "kernels" / "vadd.spv"
    built = []
    original = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda command=None: built.append(command) or original(command))
    assert cli.main(["dis", str(vadd), "-o", str(tmp_path / "a.spvasm")]) == 0
    assert built == []
    assert cli.main(["dis", "--raw", str(vadd), "-o", str(tmp_path / "b.spvasm")]) == 0
    assert built == ["dis"]
    assert "%__spirv_BuiltInGlobalInvocationId" in (tmp_path / "a.spvasm").read_text()    # friendly names
    assert "%__spirv_BuiltInGlobalInvocationId" not in (tmp_path / "b.spvasm").read_text()  # --raw-id
