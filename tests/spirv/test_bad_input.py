"""Bad input: every malformed binary raises a BinaryError located by word offset, every bad
assembly text an AssemblyError located by file:line:column (both SpirvError subclasses) -- the
exact location is asserted, not just the exception type. Big-endian binaries decode and write
back byte-identical.
"""

from __future__ import annotations

import re
import struct

import pytest
from corpus import asm_files, binary_files, target_env_of
from peers import run_tool

import spirvkit
from spirvkit import AssemblyError, BinaryError, Module, SpirvError, SpirvkitError
from spirvkit.spirv.grammar import load_grammar

MAGIC = 0x07230203

# -- building binaries word by word (independent of spirvkit's assembler) -------------------------


def inst(opcode: int, *operands: int) -> list[int]:
    return [((len(operands) + 1) << 16) | opcode, *operands]


def string(text: str) -> list[int]:
    data = text.encode() + b"\0"
    data += b"\0" * (-len(data) % 4)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def le(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def be(words: list[int]) -> bytes:
    return struct.pack(f">{len(words)}I", *words)


HEADER = [MAGIC, 0x00010000, 0, 100, 0]
# OpCapability Shader; OpMemoryModel Logical GLSL450 (words 5..9)
PRELUDE = HEADER + inst(17, 1) + inst(14, 0, 1)
P = len(PRELUDE)  # word offset of the first instruction after the prelude (10)

# Kernel prelude with an OpenCL.std import %1 (words 5..): Capability Kernel, Addresses,
# %1 = OpExtInstImport "OpenCL.std", OpMemoryModel Physical32 OpenCL, %2 = OpTypeFloat 32,
# %3 = OpConstant %2 1.0, %4 = OpTypeVoid, %5 = OpTypeFunction %4, %6 = OpFunction, %7 = OpLabel
KERNEL = (
    HEADER
    + inst(17, 6)
    + inst(17, 4)
    + inst(11, 1, *string("OpenCL.std"))
    + inst(14, 1, 2)
    + inst(22, 2, 32)
    + inst(43, 2, 3, 0x3F800000)
    + inst(19, 4)
    + inst(33, 5, 4)
    + inst(54, 4, 6, 0, 5)
    + inst(248, 7)
)
K = len(KERNEL)
KERNEL_END = inst(253) + inst(56)  # OpReturn OpFunctionEnd


def _ints(widths=(32,)):
    """OpTypeInt declarations %10.. (unsigned) for the given widths, after PRELUDE."""
    words = []
    for i, width in enumerate(widths):
        words += inst(21, 10 + i, width, 0)
    return words


# (id, words or bytes, expected word offset, a regex the message must match)
BINARY_CASES = [
    ("empty", b"", 0, r"truncated header"),
    ("one-word", le([MAGIC]), 0, r"truncated header"),
    ("header-19-bytes", le(HEADER)[:19], 0, r"truncated header"),
    ("header-4-words", le(HEADER[:4]), 0, r"truncated header"),
    ("wrong-magic", le([0xDEADBEEF, *HEADER[1:]]), 0, r"magic"),
    ("magic-off-by-one", le([MAGIC + 1, *HEADER[1:]]), 0, r"magic"),
    ("text-file", b"; SPIR-V\n; Version: 1.0\n; Generator: x\n", 0, r"magic"),
    ("bad-version-word", le([MAGIC, 0x01000000, 0, 1, 0]), 1, r"version"),
    ("bad-version-low-byte", le([MAGIC, 0x00010001, 0, 1, 0]), 1, r"version"),
    ("size-not-multiple-of-4", le(PRELUDE) + b"\x01\x02", P, r"multiple of 4"),
    ("size-not-multiple-of-4-header", le(HEADER) + b"\x01", 5, r"multiple of 4"),
    ("word-count-0", le(PRELUDE + [(0 << 16) | 19, 1]), P, r"word count"),
    ("word-count-0-first", le(HEADER + [17]), 5, r"word count"),
    ("word-count-past-end", le(PRELUDE + [(3 << 16) | 19, 1]), P, r"word count 3"),
    ("word-count-past-end-big", le(PRELUDE + [(0xFFFF << 16) | 17, 1]), P, r"word count 65535"),
    ("unknown-opcode", le(PRELUDE + inst(9999, 1)), P, r"opcode 9999"),
    ("unknown-opcode-max", le(PRELUDE + inst(0xFFFF)), P, r"opcode 65535"),
    ("unterminated-string", le(HEADER + inst(17, 1) + inst(10, 0x41414141, 0x42424242)), 8, r"string"),
    ("unterminated-string-name", le(PRELUDE + inst(19, 1) + inst(5, 1, 0x61616161)), P + 4, r"string"),
    ("missing-operand", le(PRELUDE + inst(21, 10, 32)), P, r"OpTypeInt.*missing operand"),
    ("missing-result", le(PRELUDE + inst(19)), P, r"OpTypeVoid.*missing operand"),
    ("left-over-word", le(PRELUDE + inst(19, 1, 7)), P + 2, r"left over"),
    ("left-over-after-string", le(HEADER + inst(10, *string("abc"), 5)), 7, r"left over"),
    # an operand that runs past the end of its instruction
    ("const64-one-word", le(PRELUDE + _ints((64,)) + inst(43, 10, 11, 5)), P + 4 + 3, r"past the end"),
    ("switch64-half-literal", le(
        PRELUDE + _ints((64,)) + inst(19, 20) + inst(33, 21, 20) + inst(1, 10, 22)
        + inst(54, 20, 23, 0, 21) + inst(248, 24) + inst(251, 22, 24, 1)
    ), P + 4 + 2 + 3 + 3 + 5 + 2 + 3, r"past the end"),
    # OpConstant whose type is not a scalar number
    ("constant-of-bool", le(PRELUDE + inst(20, 10) + inst(43, 10, 11, 1)), P + 2 + 1, r"type id 10 .*scalar"),
    ("constant-of-void", le(PRELUDE + inst(19, 10) + inst(43, 10, 11, 1)), P + 2 + 1, r"type id 10"),
    ("constant-of-undefined", le(PRELUDE + inst(43, 50, 11, 1)), P + 1, r"type id 50"),
    ("constant-of-vector", le(PRELUDE + _ints() + inst(23, 11, 10, 4) + inst(43, 11, 12, 1)), P + 8 + 1, r"type id 11"),
    ("spec-constant-of-bool", le(PRELUDE + inst(20, 10) + inst(50, 10, 11, 1)), P + 2 + 1, r"type id 10"),
    ("int-width-0", le(PRELUDE + inst(21, 10, 0, 0) + inst(43, 10, 11, 1)), P + 4, r"0-bit"),
    ("int-width-128", le(PRELUDE + inst(21, 10, 128, 0) + inst(43, 10, 11, 1, 2, 3, 4)), P + 4, r"128-bit"),
    # OpSwitch on something that is not an integer
    ("switch-on-float", le(
        PRELUDE + inst(22, 10, 32) + inst(19, 20) + inst(33, 21, 20) + inst(1, 10, 22)
        + inst(54, 20, 23, 0, 21) + inst(248, 24) + inst(251, 22, 24, 1, 24)
    ), P + 3 + 2 + 3 + 3 + 5 + 2 + 1, r"selector"),
    # invalid enumerant values
    ("capability-0xff00", le(HEADER + inst(17, 0xFF00)), 6, r"Capability.*65280"),
    ("capability-second", le(HEADER + inst(17, 1) + inst(17, 12345)), 8, r"Capability.*12345"),
    ("addressing-model", le(HEADER + inst(17, 1) + inst(14, 9, 1)), 8, r"AddressingModel.*9"),
    ("memory-model", le(HEADER + inst(17, 1) + inst(14, 0, 77)), 9, r"MemoryModel.*77"),
    ("storage-class", le(PRELUDE + inst(19, 10) + inst(32, 11, 999, 10)), P + 2 + 2, r"StorageClass.*999"),
    ("execution-model", le(PRELUDE + inst(15, 99, 1, *string("main"))), P + 1, r"ExecutionModel.*99"),
    ("decoration", le(PRELUDE + inst(71, 1, 0x7FFFFFFF)), P + 2, r"Decoration"),
    ("builtin-parameter", le(PRELUDE + inst(71, 1, 11, 0xFFFF)), P + 3, r"BuiltIn"),
    ("source-language", le(PRELUDE + inst(3, 200, 100)), P + 1, r"SourceLanguage.*200"),
    ("dim", le(PRELUDE + inst(22, 10, 32) + inst(25, 11, 10, 99, 0, 0, 0, 1, 0)), P + 3 + 3, r"Dim.*99"),
    # invalid mask bits
    ("function-control-bit", le(PRELUDE + inst(19, 10) + inst(33, 11, 10) + inst(54, 10, 12, 0x100, 11)), P + 2 + 3 + 3, r"FunctionControl.*0x100"),
    ("selection-control-bit", le(
        PRELUDE + inst(19, 10) + inst(33, 11, 10) + inst(54, 10, 12, 0, 11) + inst(248, 13) + inst(247, 13, 0x4)
    ), P + 2 + 3 + 5 + 2 + 2, r"SelectionControl.*0x4"),
    ("loop-control-bit", le(
        PRELUDE + inst(19, 10) + inst(33, 11, 10) + inst(54, 10, 12, 0, 11) + inst(248, 13) + inst(246, 13, 13, 0x80000000)
    ), P + 2 + 3 + 5 + 2 + 3, r"LoopControl.*0x80000000"),
    ("memory-access-bit", le(
        PRELUDE + _ints() + inst(32, 11, 7, 10) + inst(19, 12) + inst(33, 13, 12) + inst(54, 12, 14, 0, 13)
        + inst(248, 15) + inst(59, 11, 16, 7) + inst(61, 10, 17, 16, 0x40000000)
    ), P + 4 + 4 + 2 + 3 + 5 + 2 + 4 + 4, r"MemoryAccess.*0x40000000"),
    ("fp-fast-math-bit", le(PRELUDE + inst(71, 1, 40, 0x100000)), P + 3, r"FPFastMathMode"),
    # a mask whose set bit takes a parameter that is missing: MemoryAccess Aligned needs a literal
    ("memory-access-aligned-missing", le(
        PRELUDE + _ints() + inst(32, 11, 7, 10) + inst(19, 12) + inst(33, 13, 12) + inst(54, 12, 14, 0, 13)
        + inst(248, 15) + inst(59, 11, 16, 7) + inst(61, 10, 17, 16, 0x2)
    ), P + 4 + 4 + 2 + 3 + 5 + 2 + 4, r"OpLoad.*missing operand"),
    # OpExtInst on an id that is not an OpExtInstImport, or with an unknown instruction number
    ("ext-inst-not-an-import", le(KERNEL + inst(12, 2, 8, 3, 61, 3) + KERNEL_END), K + 3, r"%3 is not an imported"),
    ("ext-inst-undefined-set", le(KERNEL + inst(12, 2, 8, 99, 61, 3) + KERNEL_END), K + 3, r"%99"),
    ("ext-inst-unknown-number", le(KERNEL + inst(12, 2, 8, 1, 9999, 3) + KERNEL_END), K + 4, r"OpenCL.std.*9999"),
    ("ext-inst-missing-operand", le(KERNEL + inst(12, 2, 8, 1, 61) + KERNEL_END), K, r"missing operand"),
    ("spec-constant-op-bad-opcode", le(PRELUDE + _ints() + inst(52, 10, 11, 0xFFFF, 1)), P + 4 + 3, r"OpSpecConstantOp.*65535"),
    ("spec-constant-op-no-result", le(PRELUDE + _ints() + inst(52, 10, 11, 62, 1, 1)), P + 4 + 3, r"OpSpecConstantOp"),
]


def _raises_binary_error(data: bytes, fn=Module.from_bytes) -> BinaryError:
    with pytest.raises(BinaryError) as info:
        fn(data)
    return info.value


@pytest.mark.parametrize("name, data, offset, message", BINARY_CASES, ids=[c[0] for c in BINARY_CASES])
def test_bad_binary_is_located_by_word_offset(name, data, offset, message):
    error = _raises_binary_error(data)
    assert isinstance(error, SpirvError) and isinstance(error, SpirvkitError)
    assert error.word_offset == offset
    assert str(error).startswith(f"word {offset}: ")
    assert re.search(message, error.message), error.message
    # The disassembler and the summary report the same error.
    assert _raises_binary_error(data, spirvkit.disassemble).word_offset == offset
    assert _raises_binary_error(data, lambda d: Module.from_bytes(d).summary()).word_offset == offset


# Cases that start with the magic number have an endianness to swap.
SWAPPABLE_CASES = [c for c in BINARY_CASES if len(c[1]) >= 4 and struct.unpack("<I", c[1][:4])[0] == MAGIC]
# spirv-dis accepts odd integer widths (it prints nothing for the literal); spirvkit refuses them.
SPIRV_DIS_REJECTED_CASES = [c for c in BINARY_CASES if not c[0].startswith("int-width-")]


@pytest.mark.parametrize("name, data, offset, message", SWAPPABLE_CASES, ids=[c[0] for c in SWAPPABLE_CASES])
def test_bad_binary_is_located_the_same_in_big_endian(name, data, offset, message):
    whole = len(data) // 4 * 4
    swapped = be(list(struct.unpack(f"<{whole // 4}I", data[:whole]))) + data[whole:]
    error = _raises_binary_error(swapped)
    assert error.word_offset == offset
    assert re.search(message, error.message)


@pytest.mark.parametrize(
    "name, data, offset, message", SPIRV_DIS_REJECTED_CASES, ids=[c[0] for c in SPIRV_DIS_REJECTED_CASES]
)
def test_spirv_dis_also_rejects_the_bad_binary(name, data, offset, message):
    """The cases are bad for SPIRV-Tools too (so none of them pins a spirvkit-only rule)."""
    assert run_tool("spirv-dis", ["--no-color", "-"], data).returncode != 0


def test_the_cases_use_opcodes_the_grammar_does_not_have():
    grammar = load_grammar()
    assert grammar.instruction(9999) is None and grammar.instruction(0xFFFF) is None
    assert grammar.enumerant("Capability", 0xFF00) is None


def test_a_module_that_is_only_a_header_is_valid():
    module = Module.from_bytes(le([MAGIC, 0x00010300, 0x00080001, 42, 0]))
    assert module.instructions == [] and module.version == (1, 3)
    assert module.generator == 0x00080001 and module.bound == 42
    assert module.to_bytes() == le([MAGIC, 0x00010300, 0x00080001, 42, 0])


def test_binary_errors_in_from_words_too():
    with pytest.raises(BinaryError) as info:
        Module.from_words([MAGIC, 0x00010000, 0])
    assert info.value.word_offset == 0
    with pytest.raises(BinaryError) as info:
        Module.from_words(PRELUDE + [(0 << 16) | 19])
    assert info.value.word_offset == P


# -- big endian ------------------------------------------------------------------------------------


def _corpus_binaries():
    out = []
    for path in asm_files():
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        try:
            out.append(pytest.param(spirvkit.assemble(text, target_env_of(path)), id=path.name))
        except SpirvError:
            pass
    for path in binary_files():
        out.append(pytest.param(path.read_bytes(), id=f"{path.parent.name}/{path.name}"))
    return out


@pytest.mark.parametrize("binary", _corpus_binaries())
def test_big_endian_binary_decodes_and_writes_back_identical(binary):
    words = list(struct.unpack(f"<{len(binary) // 4}I", binary))
    big = be(words)
    assert big != binary
    try:
        little_module = Module.from_bytes(binary)
    except BinaryError as e:
        with pytest.raises(BinaryError) as info:
            Module.from_bytes(big)
        assert info.value.word_offset == e.word_offset
        return
    module = Module.from_bytes(big)
    assert module.endian == "big" and little_module.endian == "little"
    assert module.to_bytes() == big
    assert module.to_bytes("little") == binary
    assert little_module.to_bytes("big") == big
    assert module.to_words() == words
    assert [i.words for i in module.instructions] == [i.words for i in little_module.instructions]
    assert spirvkit.disassemble(big) == spirvkit.disassemble(binary)


def test_big_endian_matches_spirv_dis():
    path = asm_files()[0]
    binary = spirvkit.assemble(path.read_text(), target_env_of(path))
    big = be(list(struct.unpack(f"<{len(binary) // 4}I", binary)))
    run = run_tool("spirv-dis", ["--no-color", "-"], big)
    assert run.returncode == 0
    assert spirvkit.disassemble(big) == run.stdout.decode()


def test_big_endian_strings_decode():
    words = HEADER + inst(17, 1) + inst(10, *string("SPV_KHR_héllo")) + inst(14, 0, 1)
    module = Module.from_bytes(be(words))
    assert module.extensions == ["SPV_KHR_héllo"]
    assert 'OpExtension "SPV_KHR_héllo"' in spirvkit.disassemble(be(words))


# -- binaries spirv-dis rejects (spirvkit used to accept these: found by these tests) ----------------


def test_duplicate_result_id_in_binary_is_rejected():
    data = le(PRELUDE + inst(19, 1) + inst(20, 1))
    assert run_tool("spirv-dis", ["-"], data).returncode != 0
    error = _raises_binary_error(data)
    assert error.word_offset == P + 2 + 1
    assert re.search(r"id 1 .*more than once", error.message)


@pytest.mark.parametrize(
    "words, offset",
    [
        (PRELUDE + inst(19, 0), P + 1),  # %0 = OpTypeVoid
        (PRELUDE + inst(19, 1) + inst(32, 2, 7, 0), P + 2 + 3),  # OpTypePointer Function %0
        (PRELUDE + inst(19, 1) + inst(1, 0, 2), P + 2 + 1),  # %2 = OpUndef %0
    ],
    ids=["result", "operand", "type"],
)
def test_id_zero_in_binary_is_rejected(words, offset):
    assert run_tool("spirv-dis", ["-"], le(words)).returncode != 0
    assert _raises_binary_error(le(words)).word_offset == offset


@pytest.mark.parametrize("version_word", [0x00010700, 0x00020000, 0x00000000, 0x00000100])
def test_unknown_spirv_version_is_rejected(version_word):
    data = le([MAGIC, version_word, 0, 10, 0] + inst(17, 1))
    assert run_tool("spirv-dis", ["-"], data).returncode != 0
    assert _raises_binary_error(data).word_offset == 1


def test_ext_inst_with_extra_operands_is_rejected_in_binary():
    data = le(KERNEL + inst(12, 2, 8, 1, 61, 3, 3) + KERNEL_END)  # OpenCL.std sqrt takes one operand
    assert run_tool("spirv-dis", ["-"], data).returncode != 0
    assert _raises_binary_error(data).word_offset == K + 6


# -- assembly text ---------------------------------------------------------------------------------

SHADER = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
KERNEL_TEXT = (
    "OpCapability Kernel\nOpCapability Addresses\n%ocl = OpExtInstImport \"OpenCL.std\"\n"
    "OpMemoryModel Physical32 OpenCL\n%float = OpTypeFloat 32\n%one = OpConstant %float 1\n"
)
FUNCTION = "%void = OpTypeVoid\n%fnt = OpTypeFunction %void\n%fn = OpFunction %void None %fnt\n%entry = OpLabel\n"

# (id, text, line, column, regex on the message, what spirv-as does: "same" = rejects it at the same
# line:column, "accepts" = accepts it (spirvkit is stricter), "elsewhere" = rejects it elsewhere)
TEXT_CASES = [
    ("unknown-opcode", SHADER + "OpFooBar %x\n", 3, 1, r"unknown opcode 'OpFooBar'", "same"),
    ("unknown-opcode-with-result", SHADER + "  %x = OpTypeVoidd\n", 3, 8, r"unknown opcode 'OpTypeVoidd'", "same"),
    ("not-an-instruction", SHADER + "%u = OpTypeInt 32 0 \\", 3, 21, r"expected an opcode or a result id", "same"),
    ("number-as-instruction", SHADER + "42\n", 3, 1, r"found '42'", "same"),
    ("unterminated-string-eof", SHADER + 'OpSourceExtension "abc', 3, 19, r"unterminated string", "same"),
    ("unterminated-string-lines", 'OpCapability Shader\nOpExtension "abc\nOpMemoryModel Logical GLSL450\n', 2, 13, r"unterminated string", "same"),
    ("string-with-escaped-quote-unterminated", SHADER + 'OpSourceExtension "ab\\"\n', 3, 19, r"unterminated string", "same"),
    # an operand of the wrong kind
    ("number-for-id", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer Function 5\n", 4, 29, r"expected an id", "same"),
    ("string-for-id", SHADER + '%void = OpTypeVoid\n%p = OpTypePointer Function "v"\n', 4, 29, r"expected an id", "same"),
    ("id-for-literal", SHADER + "%u = OpTypeInt %x 0\n", 3, 16, r"%x", "same"),
    ("id-for-enum", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer %void %void\n", 4, 20, r"StorageClass", "same"),
    ("number-for-string", SHADER + "OpExtension 5\n", 3, 13, r"string", "same"),
    ("word-for-string", SHADER + "OpExtension SPV_KHR_foo\n", 3, 13, r"string", "same"),
    ("bad-id-characters", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer Function %vo-id\n", 4, 29, r"invalid id", "same"),
    # ids: undefined (spirvkit checks this; spirv-as does not) and defined twice
    ("undefined-id", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer Function %nothere\n", 4, 29, r"undefined id %nothere", "accepts"),
    ("undefined-id-first-use", SHADER + "OpName %ghost \"g\"\n%v = OpTypeVoid\nOpName %ghost \"h\"\n", 3, 8, r"undefined id %ghost", "accepts"),
    ("duplicate-definition", SHADER + "%void = OpTypeVoid\n  %void = OpTypeBool\n", 4, 3, r"duplicate definition of %void.*line 3, column 1", "elsewhere"),
    ("duplicate-definition-value", SHADER + "%u = OpTypeInt 32 0\n%c = OpConstant %u 1\n%c = OpConstant %u 2\n", 5, 1, r"duplicate definition of %c", "accepts"),
    # bad literals
    ("int-too-big", SHADER + "%u = OpTypeInt 32 0\n%c = OpConstant %u 4294967296\n", 4, 20, r"4294967296", "same"),
    ("int-8-too-big", "OpCapability Shader\nOpCapability Int8\nOpMemoryModel Logical GLSL450\n%u = OpTypeInt 8 1\n%c = OpConstant %u 128\n", 5, 20, r"128", "same"),
    ("negative-unsigned", SHADER + "%u = OpTypeInt 32 0\n%c = OpConstant %u -1\n", 4, 20, r"negative", "same"),
    ("float-for-int", SHADER + "%u = OpTypeInt 32 0\n%c = OpConstant %u 1.5\n", 4, 20, r"1\.5", "same"),
    ("float-out-of-range", SHADER + "%f = OpTypeFloat 32\n%c = OpConstant %f 1e39\n", 4, 20, r"1e39", "same"),
    ("float-garbage", SHADER + "%f = OpTypeFloat 32\n%c = OpConstant %f abc\n", 4, 20, r"abc", "same"),
    ("literal-integer-negative", SHADER + "%u = OpTypeInt 32 0\nOpDecorate %u ArrayStride -4\n", 4, 27, r"-4", "same"),
    ("immediate-too-big", SHADER + "OpCapability !0x100000000\n", 3, 14, r"immediate", "same"),
    ("switch-literal-too-wide", "OpCapability Shader\nOpCapability Int8\nOpMemoryModel Logical GLSL450\n" + "%c8 = OpTypeInt 8 0\n" + FUNCTION + "%s = OpUndef %c8\nOpSelectionMerge %m None\nOpSwitch %s %m 256 %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n", 11, 16, r"256", "same"),
    # OpConstant whose type is not numeric
    ("constant-of-bool", SHADER + "%b = OpTypeBool\n%c = OpConstant %b 1\n", 4, 20, r"scalar integer or float", "same"),
    ("constant-of-vector", SHADER + "%f = OpTypeFloat 32\n%v = OpTypeVector %f 2\n%c = OpConstant %v 1\n", 5, 20, r"scalar integer or float", "same"),
    ("constant-type-defined-later", SHADER + "%c = OpConstant %f 1\n%f = OpTypeFloat 32\n", 3, 20, r"scalar integer or float", "same"),
    ("switch-on-float", SHADER + "%f = OpTypeFloat 32\n" + FUNCTION + "%s = OpUndef %f\nOpSelectionMerge %m None\nOpSwitch %s %m 1 %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n", 10, 16, r"selector", "same"),
    # invalid enumerants and mask bits
    ("enum-misspelled", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer Funktion %void\n", 4, 20, r"StorageClass operand 'Funktion'", "same"),
    ("enum-as-number", SHADER + "%void = OpTypeVoid\n%p = OpTypePointer 7 %void\n", 4, 20, r"StorageClass operand '7'", "same"),
    ("enum-wrong-kind", "OpCapability Shader\nOpMemoryModel Logical Physical64\n", 2, 23, r"MemoryModel", "same"),
    ("capability-unknown", "OpCapability Shaders\n", 1, 14, r"Capability operand 'Shaders'", "same"),
    ("mask-bad-bit", SHADER + FUNCTION.replace("None", "Inline|Bogus"), 5, 24, r"FunctionControl operand 'Bogus'", "same"),
    ("mask-empty-part", SHADER + FUNCTION.replace("None", "Inline|"), 5, 24, r"FunctionControl", "same"),
    ("mask-param-missing", SHADER + "%u = OpTypeInt 32 0\n%p = OpTypePointer Function %u\n" + FUNCTION + "%v = OpVariable %p Function\n%l = OpLoad %u %v Aligned\n", 11, 1, r"OpLoad.*expected operand", "same"),
    # OpExtInst
    ("ext-inst-on-non-import", KERNEL_TEXT + "%r = OpExtInst %float %one sqrt %one\n", 7, 23, r"%one is not an imported", "same"),
    ("ext-inst-unknown-name", KERNEL_TEXT + "%r = OpExtInst %float %ocl sqrtt %one\n", 7, 28, r"sqrtt", "same"),
    ("ext-inst-missing-operand", KERNEL_TEXT + "%r = OpExtInst %float %ocl fmin %one\n", 8, 1, r"expected operand", "same"),
    # instruction structure
    ("missing-operand-eof", SHADER + "%u = OpTypeInt 32", 3, 18, r"expected operand 'Signedness'", "same"),
    ("missing-operand-newline", SHADER + "%u = OpTypeInt 32\n", 4, 1, r"expected operand 'Signedness'", "same"),
    ("missing-operand-next-instruction", SHADER + "%u = OpTypeInt 32\n%v = OpTypeVoid\n", 4, 1, r"next instruction", "same"),
    ("missing-equals", SHADER + "%u OpTypeInt 32 0\n", 3, 4, r"expected '='", "same"),
    ("missing-opcode-eof", SHADER + "%u =", 3, 5, r"opcode", "same"),
    ("result-on-no-result-op", SHADER + "%x = OpCapability Shader\n", 3, 1, r"no result id", "elsewhere"),
    ("no-result-for-result-op", SHADER + "OpTypeInt 32 0\n", 3, 1, r"produces a result", "same"),
    ("crlf-line-endings", "OpCapability Shader\r\nOpMemoryModel Logical GLSL450\r\nOpBogus\r\n", 3, 1, r"OpBogus", "same"),
    ("tabs-before-the-error", SHADER + "\t%u = OpTypeInt\t32 0\n\t%c = OpConstant\t%u\t-1\n", 4, 21, r"negative", "same"),
]


def _assert_located(error: AssemblyError, text: str, filename: str, line: int, column: int):
    assert isinstance(error, SpirvError) and isinstance(error, SpirvkitError)
    assert (error.filename, error.line, error.column) == (filename, line, column)
    lines = text.split("\n")
    source_line = lines[line - 1].rstrip("\r") if line <= len(lines) else ""
    assert error.source_line == source_line
    rendered = str(error).split("\n")
    assert rendered[0] == f"{filename}:{line}:{column}: error: {error.message}"
    if source_line:
        assert rendered[1] == source_line
        caret = rendered[2]
        assert caret.endswith("^") and len(caret) == column
        # the caret line keeps the tabs of the source line, so it lines up in a terminal
        assert caret[:-1] == "".join(c if c == "\t" else " " for c in source_line[: column - 1])
        assert len(rendered) == 3
    else:
        assert len(rendered) == 1


@pytest.mark.parametrize(
    "name, text, line, column, message, spirv_as", TEXT_CASES, ids=[c[0] for c in TEXT_CASES]
)
def test_bad_text_is_located_by_line_and_column(name, text, line, column, message, spirv_as):
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text, filename=f"dir/{name}.spvasm")
    _assert_located(info.value, text, f"dir/{name}.spvasm", line, column)
    assert re.search(message, info.value.message), info.value.message
    # the same error with preserve_numeric_ids and the default filename
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text, preserve_numeric_ids=True)
    assert (info.value.filename, info.value.line, info.value.column) == ("<input>", line, column)


@pytest.mark.parametrize(
    "name, text, line, column, message, spirv_as",
    [c for c in TEXT_CASES if c[5] == "same"],
    ids=[c[0] for c in TEXT_CASES if c[5] == "same"],
)
def test_spirv_as_reports_the_same_location(name, text, line, column, message, spirv_as):
    run = run_tool("spirv-as", ["--target-env", "spv1.6", "-o", "-", "-"], text.encode())
    assert run.returncode != 0
    m = re.match(r"error: (\d+): (\d+):", run.stderr.decode())
    assert m, run.stderr
    assert (int(m.group(1)), int(m.group(2))) == (line, column)


@pytest.mark.parametrize(
    "name, text, line, column, message, spirv_as",
    [c for c in TEXT_CASES if c[5] == "accepts"],
    ids=[c[0] for c in TEXT_CASES if c[5] == "accepts"],
)
def test_spirvkit_is_stricter_than_spirv_as_about_ids(name, text, line, column, message, spirv_as):
    """spirv-as does not check that ids are defined once; spirvkit does (the issue asks for it)."""
    assert run_tool("spirv-as", ["-o", "-", "-"], text.encode()).returncode == 0


def test_error_column_counts_characters_and_caret_lines_up_after_unicode():
    text = 'OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpName %v "héllo wörld" OpBogus\n%v = OpTypeVoid\n'
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text, filename="u.spvasm")
    _assert_located(info.value, text, "u.spvasm", 3, 25)
    assert str(info.value).split("\n")[2].index("^") == len('OpName %v "héllo wörld" ')


def test_error_after_a_multiline_string_counts_its_lines():
    text = 'OpCapability Shader\nOpMemoryModel Logical GLSL450\n%f = OpString "a"\nOpSource GLSL 450 %f "line one\nline two\nline three"\n  OpBogus\n'
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text, filename="m.spvasm")
    _assert_located(info.value, text, "m.spvasm", 7, 3)


def test_every_error_type_is_a_spirv_error():
    assert issubclass(BinaryError, SpirvError) and issubclass(AssemblyError, SpirvError)
    assert issubclass(SpirvError, SpirvkitError) and issubclass(SpirvkitError, Exception)
    assert not issubclass(BinaryError, AssemblyError)


# -- texts spirv-as rejects (spirvkit used to accept these: found by these tests) --------------------


def test_ext_inst_with_extra_operands_is_rejected_in_text():
    text = KERNEL_TEXT + "%r = OpExtInst %float %ocl sqrt %one %one\n"
    assert run_tool("spirv-as", ["-o", "-", "-"], text.encode()).returncode != 0
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text)
    # spirv-as reads the extra %one as the start of the next instruction, whose '=' is missing
    assert (info.value.line, info.value.column) == (8, 1)


@pytest.mark.parametrize(
    "line, location, theirs",
    [
        ("OpUnknown(21, 4) %x 32\n%y = OpTypeVoid\n", (3, 1), (4, 1)),  # one operand short
        ("OpUnknown(21, 4) %x 32", (3, 1), (3, 23)),  # short, at the end of the text
        ("OpUnknown(21, 3) %x 32 0\n", (3, 24), (3, 24)),  # one operand too many
        ("OpUnknown(21, 0)\n", (3, 1), (3, 15)),  # a word count of 0
    ],
    ids=["short", "short-eof", "long", "zero"],
)
def test_unknown_instruction_word_count_is_checked(line, location, theirs):
    """OpUnknown(opcode, word count) must be followed by exactly count-1 operand words (it used
    to be written with whatever word count it said: a corrupt binary). spirvkit points at the
    OpUnknown whose count is wrong, spirv-as where it ran out of operands."""
    text = SHADER + line
    run = run_tool("spirv-as", ["-o", "-", "-"], text.encode())
    assert run.returncode != 0
    m = re.match(r"error: (\d+): (\d+):", run.stderr.decode())
    assert (int(m.group(1)), int(m.group(2))) == theirs
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text)
    assert (info.value.line, info.value.column) == location


def test_unknown_instruction_with_the_right_word_count_matches_spirv_as():
    text = SHADER + "OpUnknown(21, 4) %x 32 0\n"
    run = run_tool("spirv-as", ["-o", "-", "-"], text.encode())
    assert run.returncode == 0
    assert spirvkit.assemble(text)[12:] == run.stdout[12:]


@pytest.mark.parametrize("char", ["\ud800", "\udfff", "\udc00"])
def test_lone_surrogate_in_a_string_is_an_assembly_error(char):
    text = SHADER + f'OpSourceExtension "a{char}b"\n'
    with pytest.raises(AssemblyError) as info:
        spirvkit.assemble(text)
    assert (info.value.line, info.value.column) == (3, 19)


def test_escaped_bytes_in_a_string_are_kept():
    """U+DC80..U+DCFF stand for undecodable bytes (surrogateescape, as the CLI reads files)."""
    binary = spirvkit.assemble(SHADER + 'OpSourceExtension "a\udcffb"\n')
    assert b"a\xffb\x00" in binary
    assert 'OpSourceExtension "a\udcffb"' in spirvkit.disassemble(binary)


# -- odd but accepted by SPIRV-Tools ------------------------------------------------------------------

_PHI = SHADER + (
    "%void = OpTypeVoid\n%u = OpTypeInt 32 0\n%c = OpConstant %u 1\n%fnt = OpTypeFunction %void\n"
    "%f = OpFunction %void None %fnt\n%l = OpLabel\nOpBranch %m\n%m = OpLabel\n{phi}\nOpReturn\nOpFunctionEnd\n"
)


@pytest.mark.xfail(strict=True, reason="bug: OpPhi with an odd number of operands (half a value/parent pair) is rejected; spirv-as and spirv-dis accept it")
@pytest.mark.parametrize("phi", ["%p = OpPhi %u %c %l %c", "%p = OpPhi %u %c"], ids=["three", "one"])
def test_phi_with_an_odd_operand_count_is_read_like_spirv_tools(phi):
    text = _PHI.format(phi=phi)
    theirs = run_tool("spirv-as", ["-o", "-", "-"], text.encode())
    assert theirs.returncode == 0
    printed = run_tool("spirv-dis", ["--no-color", "-"], theirs.stdout)
    assert printed.returncode == 0
    assert spirvkit.disassemble(theirs.stdout) == printed.stdout.decode()
    assert spirvkit.assemble(text)[12:] == theirs.stdout[12:]


def test_switch_with_half_a_pair_is_rejected_like_spirv_as():
    for line, location in [("OpSelectionMerge %m None\nOpSwitch %c %m 1", (13, 1)), ("OpSwitch %c %m 1 %m 2", (12, 1))]:
        text = _PHI.format(phi=line)
        run = run_tool("spirv-as", ["-o", "-", "-"], text.encode())
        assert run.returncode != 0
        m = re.match(r"error: (\d+): (\d+):", run.stderr.decode())
        assert (int(m.group(1)), int(m.group(2))) == location
        with pytest.raises(AssemblyError) as info:
            spirvkit.assemble(text)
        assert (info.value.line, info.value.column) == location
