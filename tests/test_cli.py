"""The command line: ``python -m spirvkit as|dis|info``, run as a subprocess.

Bad input (each kind of malformed binary or text, a missing file) prints a located error to
stderr and exits 1, never with a Python traceback; --version/--help work everywhere; ``-o -``,
``-o file`` and ``-`` for standard input do what they say.
"""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest
from peers import run_tool, spirv_dis

import spirvkit
from spirvkit import AssemblyError, BinaryError, Module

MAGIC = 0x07230203

GOOD_TEXT = """; a small kernel
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical32 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %float_2 = OpConstant %float 2.5
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"""


def spirvkit_cli(*args: str, stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "spirvkit", *args], input=stdin, capture_output=True, cwd=cwd, timeout=120
    )
    assert b"Traceback" not in result.stderr, result.stderr.decode(errors="replace")
    assert b"Traceback" not in result.stdout
    return result


def _le(words):
    return struct.pack(f"<{len(words)}I", *words)


def _inst(opcode, *operands):
    return [((len(operands) + 1) << 16) | opcode, *operands]


HEADER = [MAGIC, 0x00010000, 0, 100, 0]
PRELUDE = HEADER + _inst(17, 1) + _inst(14, 0, 1)

# (id, binary, word offset) -- one of each kind of malformed binary
BAD_BINARIES = [
    ("empty", b"", 0),
    ("truncated-header", _le(HEADER)[:17], 0),
    ("wrong-magic", _le([0x12345678, *HEADER[1:]]), 0),
    ("not-multiple-of-4", _le(PRELUDE) + b"\x00\x01\x02", 10),
    ("word-count-0", _le(PRELUDE + [19]), 10),
    ("word-count-past-end", _le(PRELUDE + [(9 << 16) | 19, 1]), 10),
    ("unknown-opcode", _le(PRELUDE + _inst(9999, 1)), 10),
    ("unterminated-string", _le(PRELUDE + _inst(4, 0x61616161)), 11),
    ("operand-past-end", _le(PRELUDE + _inst(21, 1, 64, 0) + _inst(43, 1, 2, 7)), 17),
    ("constant-not-numeric", _le(PRELUDE + _inst(20, 1) + _inst(43, 1, 2, 7)), 13),
    ("invalid-enumerant", _le(PRELUDE + _inst(19, 1) + _inst(32, 2, 12345, 1)), 14),
    ("invalid-mask-bit", _le(PRELUDE + _inst(19, 1) + _inst(33, 2, 1) + _inst(54, 1, 3, 0x400, 2)), 18),
    ("ext-inst-not-an-import", _le(PRELUDE + _inst(22, 1, 32) + _inst(1, 1, 2) + _inst(12, 1, 3, 2, 0, 2)), 19),
    ("big-endian-unknown-opcode", struct.pack(f">{len(PRELUDE) + 2}I", *PRELUDE, *_inst(9999, 1)), 10),
]

SHADER = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
KERNEL = 'OpCapability Kernel\n%ocl = OpExtInstImport "OpenCL.std"\nOpMemoryModel Physical32 OpenCL\n'

# (id, text, line, column) -- one of each kind of bad assembly text
BAD_TEXTS = [
    ("unknown-opcode", SHADER + "OpFrobnicate %x\n", 3, 1),
    ("unterminated-string", SHADER + 'OpSourceExtension "never closed\n', 3, 19),
    ("wrong-operand-kind", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer Function 12\n", 4, 29),
    ("undefined-id", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer Function %nowhere\n", 4, 29),
    ("duplicate-definition", SHADER + "%a = OpTypeVoid\n%a = OpTypeBool\n", 4, 1),
    ("bad-literal", SHADER + "%u = OpTypeInt 16 0\n%c = OpConstant %u 65536\n", 4, 20),
    ("constant-not-numeric", SHADER + "%b = OpTypeBool\n%c = OpConstant %b 0\n", 4, 20),
    ("invalid-enumerant", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer Nowhere %void\n", 4, 20),
    ("invalid-mask", SHADER + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f = OpFunction %void Pure|Fast %fn\n", 5, 23),
    ("ext-inst-not-an-import", KERNEL + "%f = OpTypeFloat 32\n%c = OpConstant %f 1\n%r = OpExtInst %f %c sqrt %c\n", 6, 19),
    ("missing-operand", SHADER + "%u = OpTypeInt 32", 3, 18),
]


# -- version and help ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["as"], ["dis"], ["info"]], ids=["top", "as", "dis", "info"])
def test_version(command):
    result = spirvkit_cli(*command, "--version")
    assert result.returncode == 0
    name = " ".join(["spirvkit", *command])
    assert result.stdout.decode().strip() == f"{name} {spirvkit.__version__}"


@pytest.mark.parametrize("command", [[], ["as"], ["dis"], ["info"]], ids=["top", "as", "dis", "info"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help(command, flag):
    result = spirvkit_cli(*command, flag)
    assert result.returncode == 0
    out = result.stdout.decode()
    assert out.startswith(f"usage: {' '.join(['spirvkit', *command])} ")
    assert result.stderr == b""
    if not command:
        for sub in ("as", "dis", "info"):
            assert f"    {sub} " in out
    if command == ["as"]:
        assert "--target-env" in out and "--preserve-numeric-ids" in out and "-o" in out
    if command == ["dis"]:
        for option in ("--raw-id", "--no-header", "--no-indent", "--offsets", "--comment", "-o"):
            assert option in out


def test_no_command_prints_usage_and_fails():
    result = spirvkit_cli()
    assert result.returncode == 1
    assert b"usage: spirvkit" in result.stdout + result.stderr


def test_unknown_command_and_option_are_usage_errors():
    for args in (["frobnicate"], ["as", "--bogus", "x"], ["dis"], ["as", "--target-env", "vulkan9", "x.spvasm"]):
        result = spirvkit_cli(*args)
        assert result.returncode == 2, args
        assert b"usage:" in result.stderr


# -- as ----------------------------------------------------------------------------------------------


def test_as_to_stdout(tmp_path):
    src = tmp_path / "k.spvasm"
    src.write_text(GOOD_TEXT)
    result = spirvkit_cli("as", str(src), "-o", "-")
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout == spirvkit.assemble(GOOD_TEXT)
    assert Module.from_bytes(result.stdout).version == (1, 6)  # the default target env is spv1.6
    theirs = run_tool("spirv-as", ["-o", "-", str(src)])
    assert result.stdout[:8] + result.stdout[12:] == theirs.stdout[:8] + theirs.stdout[12:]


def test_as_default_output_is_out_spv(tmp_path):
    (tmp_path / "k.spvasm").write_text(GOOD_TEXT)
    result = spirvkit_cli("as", "k.spvasm", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == b"" and result.stderr == b""
    assert (tmp_path / "out.spv").read_bytes() == spirvkit.assemble(GOOD_TEXT)


def test_as_to_file_with_target_env_and_numeric_ids(tmp_path):
    text = SHADER + "%7 = OpTypeVoid\n%x = OpTypeBool\n"
    (tmp_path / "n.spvasm").write_text(text)
    out = tmp_path / "sub.spv"
    result = spirvkit_cli("as", "n.spvasm", "-o", str(out), "--target-env", "vulkan1.1", "--preserve-numeric-ids", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == b""
    binary = out.read_bytes()
    assert binary == spirvkit.assemble(text, "vulkan1.1", preserve_numeric_ids=True)
    module = Module.from_bytes(binary)
    assert module.version == (1, 3)
    assert [i.result_id for i in module.instructions[-2:]] == [7, 1]


def test_as_from_stdin():
    result = spirvkit_cli("as", "-", "-o", "-", "--target-env", "opencl2.0", stdin=GOOD_TEXT.encode())
    assert result.returncode == 0
    assert result.stdout == spirvkit.assemble(GOOD_TEXT, "opencl2.0")
    assert Module.from_bytes(result.stdout).version == (1, 0)


def test_as_keeps_bytes_that_are_not_utf8(tmp_path):
    src = tmp_path / "latin1.spvasm"
    src.write_bytes(SHADER.encode() + b'OpName %x "caf\xe9"\n%x = OpTypeVoid\n')
    result = spirvkit_cli("as", str(src), "-o", "-")
    assert result.returncode == 0
    theirs = run_tool("spirv-as", ["-o", "-", str(src)]).stdout
    assert result.stdout[12:] == theirs[12:]
    assert b"caf\xe9\x00" in result.stdout


# -- dis and info ---------------------------------------------------------------------------------------


@pytest.fixture
def good_binary(tmp_path) -> Path:
    path = tmp_path / "k.spv"
    path.write_bytes(spirvkit.assemble(GOOD_TEXT, "spv1.2"))
    return path


def test_dis_to_stdout_matches_spirv_dis(good_binary):
    result = spirvkit_cli("dis", str(good_binary))
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode() == spirvkit.disassemble(good_binary.read_bytes())
    assert result.stdout.decode() == spirv_dis(good_binary.read_bytes())


@pytest.mark.parametrize(
    "flags, options",
    [
        (["--raw-id"], {"raw_id": True}),
        (["--no-header", "--no-indent"], {"header": False, "indent": False}),
        (["--offsets", "--comment"], {"offsets": True, "comment": True}),
    ],
)
def test_dis_options(good_binary, flags, options):
    result = spirvkit_cli("dis", str(good_binary), *flags)
    assert result.returncode == 0
    assert result.stdout.decode() == spirvkit.disassemble(good_binary.read_bytes(), **options)
    assert result.stdout.decode() == spirv_dis(good_binary.read_bytes(), flags)


def test_dis_to_file(good_binary, tmp_path):
    out = tmp_path / "k.spvasm"
    result = spirvkit_cli("dis", str(good_binary), "-o", str(out))
    assert result.returncode == 0 and result.stdout == b"" and result.stderr == b""
    assert out.read_text() == spirvkit.disassemble(good_binary.read_bytes())
    # and the text assembles back to the same module
    assert spirvkit.assemble(out.read_text(), "spv1.2") == good_binary.read_bytes()


def test_dis_from_stdin_and_to_dash(good_binary):
    result = spirvkit_cli("dis", "-", "-o", "-", stdin=good_binary.read_bytes())
    assert result.returncode == 0
    assert result.stdout.decode() == spirvkit.disassemble(good_binary.read_bytes())


def test_dis_big_endian(good_binary):
    data = good_binary.read_bytes()
    big = struct.pack(f">{len(data) // 4}I", *struct.unpack(f"<{len(data) // 4}I", data))
    result = spirvkit_cli("dis", "-", stdin=big)
    assert result.returncode == 0
    assert result.stdout.decode() == spirvkit.disassemble(data)


def test_dis_writes_non_utf8_strings_as_bytes(tmp_path):
    src = tmp_path / "raw.spvasm"
    src.write_bytes(SHADER.encode() + b'OpName %x "\xff\xfe"\n%x = OpTypeVoid\n')
    binary = run_tool("spirv-as", ["-o", "-", str(src)]).stdout
    (tmp_path / "raw.spv").write_bytes(binary)
    result = spirvkit_cli("dis", str(tmp_path / "raw.spv"))
    assert result.returncode == 0
    assert result.stdout == run_tool("spirv-dis", ["--no-color", str(tmp_path / "raw.spv")]).stdout


def test_info(good_binary):
    result = spirvkit_cli("info", str(good_binary))
    assert result.returncode == 0 and result.stderr == b""
    out = result.stdout.decode()
    assert out == Module.from_bytes(good_binary.read_bytes()).summary() + "\n"
    assert out.startswith("SPIR-V 1.2, generator ")
    assert 'entry point: Kernel "k"' in out
    assert "capabilities: Addresses, Kernel" in out
    assert spirvkit_cli("info", "-", stdin=good_binary.read_bytes()).stdout.decode() == out


# -- bad input -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["dis", "info"])
@pytest.mark.parametrize("name, data, offset", BAD_BINARIES, ids=[b[0] for b in BAD_BINARIES])
def test_bad_binary_is_a_located_error(tmp_path, command, name, data, offset):
    path = tmp_path / f"{name}.spv"
    path.write_bytes(data)
    with pytest.raises(BinaryError) as info:
        Module.from_bytes(data)
    assert info.value.word_offset == offset
    result = spirvkit_cli(command, str(path))
    assert result.returncode == 1
    assert result.stdout == b""
    assert result.stderr.decode() == f"{path}: error: word {offset}: {info.value.message}\n"


@pytest.mark.parametrize("name, text, line, column", BAD_TEXTS, ids=[t[0] for t in BAD_TEXTS])
def test_bad_text_is_a_located_error(tmp_path, name, text, line, column):
    path = tmp_path / f"{name}.spvasm"
    path.write_text(text)
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text)
    assert (info.value.line, info.value.column) == (line, column)
    out = tmp_path / "never.spv"
    result = spirvkit_cli("as", str(path), "-o", str(out))
    assert result.returncode == 1
    assert result.stdout == b""
    assert not out.exists()
    lines = result.stderr.decode().split("\n")
    assert lines[0] == f"{path}:{line}:{column}: error: {info.value.message}"
    source_line = text.split("\n")[line - 1]
    assert lines[1:] == [source_line, " " * (column - 1) + "^", ""]


@pytest.mark.parametrize("name, text, line, column", BAD_TEXTS[:3], ids=[t[0] for t in BAD_TEXTS[:3]])
def test_bad_text_to_stdout_writes_nothing(tmp_path, name, text, line, column):
    path = tmp_path / f"{name}.spvasm"
    path.write_text(text)
    result = spirvkit_cli("as", str(path), "-o", "-")
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().startswith(f"{path}:{line}:{column}: error: ")


@pytest.mark.parametrize("command", ["as", "dis", "info"])
def test_missing_file(tmp_path, command):
    missing = tmp_path / "does-not-exist.bin"
    result = spirvkit_cli(command, str(missing), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.count("\n") == 1
    assert str(missing) in err and "No such file" in err and "error" in err
    assert not (tmp_path / "out.spv").exists()


@pytest.mark.parametrize("command", ["as", "dis", "info"])
def test_directory_as_input(tmp_path, command):
    result = spirvkit_cli(command, str(tmp_path))
    assert result.returncode == 1
    assert str(tmp_path) in result.stderr.decode()


def test_unwritable_output(tmp_path, good_binary):
    (tmp_path / "k.spvasm").write_text(GOOD_TEXT)
    for args in (["as", str(tmp_path / "k.spvasm")], ["dis", str(good_binary)]):
        target = tmp_path / "no" / "such" / "dir" / "x"
        result = spirvkit_cli(*args, "-o", str(target))
        assert result.returncode == 1, args
        assert str(target) in result.stderr.decode()


def test_binary_given_to_as_and_text_given_to_dis(tmp_path, good_binary):
    result = spirvkit_cli("dis", "-", stdin=GOOD_TEXT.encode())
    assert result.returncode == 1
    assert "word 0: invalid magic number" in result.stderr.decode()
    result = spirvkit_cli("as", str(good_binary), "-o", "-")
    assert result.returncode == 1
    assert result.stderr.decode().startswith(f"{good_binary}:1:")


def test_bad_binary_on_stdin_names_the_word():
    data = _le(PRELUDE + _inst(9999))
    with pytest.raises(BinaryError) as info:
        Module.from_bytes(data)
    for command in ("info", "dis"):
        result = spirvkit_cli(command, "-", stdin=data)
        assert result.returncode == 1
        assert result.stderr.decode() == f"<stdin>: error: word 10: {info.value.message}\n"
        assert "unknown opcode 9999" in info.value.message


def test_bad_text_on_stdin_is_located_once():
    """It used to print '-: <stdin>:2:1: error: ...' (found by these tests)."""
    result = spirvkit_cli("as", "-", "-o", "-", stdin=b"OpCapability Shader\nOpFrobnicate\n")
    assert result.returncode == 1
    assert result.stderr.decode().split("\n")[0] == "<stdin>:2:1: error: unknown opcode 'OpFrobnicate'"


def test_target_envs_give_spirv_as_versions(tmp_path):
    """Every --target-env spirv-as knows gives the header version spirv-as writes; the ones only
    spirvkit knows (opencl3.0, universal1.x) still give a version."""
    from spirvkit.spirv.target_env import TARGET_ENV_VERSIONS

    src = tmp_path / "s.spvasm"
    src.write_text("OpCapability Shader\nOpMemoryModel Logical GLSL450\n")
    compared = 0
    for env, (major, minor) in TARGET_ENV_VERSIONS.items():
        ours = spirvkit.assemble(src.read_text(), env)
        assert ours[4:8] == struct.pack("<I", (major << 16) | (minor << 8)), env
        theirs = run_tool("spirv-as", ["--target-env", env, "-o", "-", str(src)])
        if theirs.returncode == 0:
            assert theirs.stdout[4:8] == ours[4:8], env
            compared += 1
    assert compared >= 25
    result = spirvkit_cli("as", str(src), "-o", "-", "--target-env", "vulkan1.2")
    assert result.returncode == 0 and result.stdout[4:8] == struct.pack("<I", 0x00010500)


def test_error_of_a_command_without_an_input_is_reported(monkeypatch, capsys):
    """main's last line of defence also serves commands that take no single input (amber)."""
    from spirvkit import cli
    from spirvkit.errors import SpirvkitError
    from spirvkit.vk import amber

    def fail(paths):
        raise SpirvkitError("broken")

    monkeypatch.setattr(amber, "main", fail)
    assert cli.main(["amber", "x.amber"]) == 1
    assert capsys.readouterr().err == "spirvkit: error: broken\n"
