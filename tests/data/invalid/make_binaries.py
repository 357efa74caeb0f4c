"""Writes the invalid modules that assembly text cannot express: bad headers, bad word counts,
operands the assembler refuses (a constant of bool type, an unknown extended instruction, an
instruction newer than the module's version). Each starts from a small valid module assembled
with spirvkit's assembler and patches words.

    .venv/bin/python tests/data/invalid/make_binaries.py      # rewrites tests/data/invalid/*.spv

The metadata (rule, spec section, target env, and why the spec forbids what spirv-val accepts)
is the BINARIES table below; make_manifest.py copies it into MANIFEST.tsv.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "src"))

from spirvkit import assemble  # noqa: E402

KERNEL = """
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
          %1 = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "main"
               OpName %main "main"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
     %uint_1 = OpConstant %uint 1
    %float_1 = OpConstant %float 1
       %main = OpFunction %void None %fn
        %buf = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
          %x = OpExtInst %float %1 fmax %float_1 %float_1
               OpStore %buf %uint_1
               OpReturn
               OpFunctionEnd
"""

SHADER_14 = """
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpModuleProcessed "spirvkit"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
         %fn = OpTypeFunction %void
         %S1 = OpTypeStruct %uint
         %S2 = OpTypeStruct %uint
     %uint_1 = OpConstant %uint 1
         %c1 = OpConstantComposite %S1 %uint_1
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %c2 = OpCopyLogical %S2 %c1
               OpReturn
               OpFunctionEnd
"""


def words_of(text: str, env: str) -> list[int]:
    data = assemble(text, env)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def pack(words) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def instructions(words):
    """(offset, opcode, word count) of every instruction."""
    out, pos = [], 5
    while pos < len(words):
        count = words[pos] >> 16
        out.append((pos, words[pos] & 0xFFFF, count))
        pos += count
    return out


def find(words, opcode: int, nth: int = 0) -> int:
    return [pos for pos, op, _ in instructions(words) if op == opcode][nth]


def kernel() -> list[int]:
    return words_of(KERNEL, "spv1.0")


def remove_word(words, at: int, inst: int) -> list[int]:
    """Drop word ``at`` from the instruction starting at ``inst`` (its word count follows)."""
    w = list(words)
    w[inst] = ((w[inst] >> 16) - 1) << 16 | (w[inst] & 0xFFFF)
    del w[at]
    return w


def bad_magic():
    w = kernel()
    w[0] = 0x07230204
    return pack(w)


def truncated_header():
    return pack(kernel()[:3])


def version_too_new():
    w = kernel()
    w[1] = 0x00010900
    return pack(w)


def version_reserved_bits():
    w = kernel()
    w[1] = 0x00010001
    return pack(w)


def word_count_zero():
    w = kernel()
    at = find(w, 62)  # OpStore
    w[at] &= 0xFFFF
    return pack(w)


def word_count_overrun():
    w = kernel()
    at = instructions(w)[-1][0]  # OpFunctionEnd
    w[at] = (5 << 16) | (w[at] & 0xFFFF)
    return pack(w)


def id_over_bound():
    w = kernel()
    w[3] = 6  # ids up to ~13 are used
    return pack(w)


def bound_over_limit():
    w = kernel()
    w[3] = 0x400000  # 4,194,304 > 4,194,303
    return pack(w)


def odd_length():
    return pack(kernel()) + b"\x00\x00"


def int_type_missing_signedness():
    w = kernel()
    at = find(w, 21)  # OpTypeInt
    return pack(remove_word(w, at + 3, at))


def string_unterminated():
    w = kernel()
    at = find(w, 5)  # OpName %main "main": "main" fills one word, the next word is its terminator
    return pack(remove_word(w, at + 3, at))


def unknown_opcode():
    w = kernel()
    at = find(w, 62)
    w.insert(at, (1 << 16) | 9)  # opcode 9 is unassigned
    return pack(w)


def return_with_operand():
    w = kernel()
    at = find(w, 253)  # OpReturn
    w[at] = (2 << 16) | 253
    w.insert(at + 1, w[find(w, 43) + 2])
    return pack(w)


def result_id_zero():
    w = kernel()
    at = find(w, 43)  # OpConstant %uint 1
    w[at + 2] = 0
    return pack(w)


def storage_class_unknown():
    w = kernel()
    at = find(w, 32)  # OpTypePointer
    w[at + 2] = 99
    return pack(w)


def capability_unknown():
    w = kernel()
    at = find(w, 17)
    w.insert(at, (2 << 16) | 17)
    w.insert(at + 1, 60000)
    return pack(w)


def constant_of_bool_type():
    w = kernel()
    at = find(w, 43)  # OpConstant %uint 1 -> OpConstant %bool 1
    w[at + 1] = w[find(w, 20) + 1]
    return pack(w)


def constant_of_pointer_type():
    w = kernel()
    at = find(w, 43)
    w[at + 1] = w[find(w, 32) + 1]
    return pack(w)


def spec_constant_of_struct_type():
    text = KERNEL.replace("%uint_1 = OpConstant %uint 1", "%uint_1 = OpConstant %uint 1\n%st = OpTypeStruct %uint\n%sc = OpSpecConstant %uint 7")
    w = words_of(text, "spv1.0")
    at = find(w, 50)  # OpSpecConstant %uint 7 -> %st
    w[at + 1] = w[find(w, 30) + 1]
    return pack(w)


def copy_logical_in_spv13():
    w = words_of(SHADER_14.replace('               OpModuleProcessed "spirvkit"\n', ""), "spv1.4")
    w[1] = 0x00010300
    return pack(w)


def module_processed_in_spv10():
    text = SHADER_14.replace("         %c2 = OpCopyLogical %S2 %c1\n", "")
    w = words_of(text, "spv1.4")
    w[1] = 0x00010000
    return pack(w)


def ext_inst_missing_operand():
    w = kernel()
    at = find(w, 12)  # fmax %float_1 %float_1 -> fmax %float_1
    return pack(remove_word(w, at + 6, at))


def ext_inst_unknown_number():
    w = kernel()
    at = find(w, 12)
    w[at + 4] = 9999
    return pack(w)


def ext_inst_set_not_import():
    w = kernel()
    at = find(w, 12)
    w[at + 3] = w[find(w, 43) + 2]  # the set operand names %uint_1
    return pack(w)


def glsl_sqrt_extra_operand():
    text = KERNEL.replace('"OpenCL.std"', '"GLSL.std.450"').replace(
        "OpCapability Addresses\n               OpCapability Kernel\n               OpCapability Int64",
        "OpCapability Shader").replace("Physical64 OpenCL", "Logical GLSL450").replace(
        "OpEntryPoint Kernel %main \"main\"", "OpEntryPoint GLCompute %main \"main\"\n               OpExecutionMode %main LocalSize 1 1 1").replace(
        "%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint\n         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint",
        "         %fn = OpTypeFunction %void").replace("        %buf = OpFunctionParameter %_ptr_CrossWorkgroup_uint\n", "").replace(
        "               OpStore %buf %uint_1\n", "").replace("fmax %float_1 %float_1", "Sqrt %float_1")
    w = words_of(text, "spv1.0")
    at = find(w, 12)
    w[at] = ((w[at] >> 16) + 1) << 16 | 12
    w.insert(at + 6, w[at + 5])
    return pack(w)


def unused_id(words) -> tuple[list[int], int]:
    """The module with its Bound raised by one, and that new id (which nothing defines)."""
    w = list(words)
    w[3] += 1
    return w, w[3] - 1


def operand_never_defined():
    w, ghost = unused_id(kernel())
    at = find(w, 62)  # OpStore %buf %uint_1 -> OpStore %buf %ghost
    w[at + 2] = ghost
    return pack(w)


def defined_twice():
    w = kernel()
    at = find(w, 43, 1)  # %float_1 = OpConstant ... takes the result id of %uint_1
    w[at + 2] = w[find(w, 43) + 2]
    return pack(w)


def name_of_undefined():
    w, ghost = unused_id(kernel())
    w[find(w, 5) + 1] = ghost
    return pack(w)


def decorate_undefined():
    text = KERNEL.replace('OpName %main "main"', 'OpName %main "main"\n               OpDecorate %buf Volatile')
    w, ghost = unused_id(words_of(text, "spv1.0"))
    w[find(w, 71) + 1] = ghost
    return pack(w)


#: file, rule, spec section, target env, builder, why (only where spirv-val accepts the module)
BINARIES = [
    ("binary_bad_magic.spv", "binary.magic", "SPIR-V 2.3", "spv1.0", bad_magic, ""),
    ("binary_truncated_header.spv", "binary.header", "SPIR-V 2.3", "spv1.0", truncated_header, ""),
    ("binary_version_too_new.spv", "binary.version", "SPIR-V 2.3", "spv1.6", version_too_new, ""),
    ("binary_version_reserved_bits.spv", "binary.version", "SPIR-V 2.3", "spv1.0", version_reserved_bits,
     "SPIR-V 2.3 Physical Layout: version word 'The bytes are, high-order to low-order: 0 | Major Number | Minor Number | 0' -- the low byte must be 0"),
    ("binary_word_count_zero.spv", "binary.word-count", "SPIR-V 2.3", "spv1.0", word_count_zero, ""),
    ("binary_word_count_overrun.spv", "binary.word-count", "SPIR-V 2.3", "spv1.0", word_count_overrun, ""),
    ("binary_id_over_bound.spv", "binary.id-bound", "SPIR-V 2.3", "spv1.0", id_over_bound, ""),
    ("binary_bound_over_limit.spv", "limits.id-bound", "SPIR-V 2.17", "spv1.0", bound_over_limit, ""),
    ("binary_odd_length.spv", "binary.length", "SPIR-V 2.3", "spv1.0", odd_length, ""),
    ("binary_int_type_missing_signedness.spv", "binary.operand-count", "SPIR-V 3.32.6 OpTypeInt", "spv1.0", int_type_missing_signedness, ""),
    ("binary_string_unterminated.spv", "binary.string", "SPIR-V 2.2.1 Literal String", "spv1.0", string_unterminated, ""),
    ("binary_unknown_opcode.spv", "binary.opcode", "SPIR-V 3.32", "spv1.0", unknown_opcode, ""),
    ("binary_return_with_operand.spv", "binary.operand-count", "SPIR-V 3.32.17 OpReturn", "spv1.0", return_with_operand, ""),
    ("binary_result_id_zero.spv", "binary.id-bound", "SPIR-V 2.3 (0 < id < Bound)", "spv1.0", result_id_zero, ""),
    ("binary_storage_class_unknown.spv", "binary.enumerant", "SPIR-V 3.7", "spv1.0", storage_class_unknown, ""),
    ("binary_capability_unknown.spv", "binary.enumerant", "SPIR-V 3.31", "spv1.0", capability_unknown, ""),
    ("ids_operand_never_defined.spv", "ids.defined-before-use", "SPIR-V 2.16.1", "opencl2.0", operand_never_defined, ""),
    ("ids_defined_twice.spv", "ids.single-definition", "SPIR-V 2.16.1", "opencl2.0", defined_twice, ""),
    ("ids_name_undefined_target.spv", "ids.defined-before-use", "SPIR-V 2.4 (forward references)", "opencl2.0", name_of_undefined, ""),
    ("ids_decorate_undefined_target.spv", "ids.defined-before-use", "SPIR-V 2.4 (forward references)", "opencl2.0", decorate_undefined, ""),
    ("constants_opconstant_bool_type.spv", "binary.constant-type", "SPIR-V 3.32.7 OpConstant", "opencl2.0", constant_of_bool_type, ""),
    ("constants_opconstant_pointer_type.spv", "binary.constant-type", "SPIR-V 3.32.7 OpConstant", "opencl2.0", constant_of_pointer_type, ""),
    ("constants_spec_constant_struct_type.spv", "binary.constant-type", "SPIR-V 2.16.1, 3.32.7 OpSpecConstant", "opencl2.0", spec_constant_of_struct_type, ""),
    ("capabilities_copy_logical_in_spv13.spv", "capabilities.version", "SPIR-V 3.32.12 OpCopyLogical (1.4)", "spv1.3", copy_logical_in_spv13, ""),
    ("capabilities_module_processed_in_spv10.spv", "capabilities.version", "SPIR-V 3.32.2 OpModuleProcessed (1.1)", "spv1.0", module_processed_in_spv10, ""),
    ("extinst_opencl_fmax_missing_operand.spv", "binary.ext-inst-operands", "OpenCL.std fmax", "opencl2.0", ext_inst_missing_operand, ""),
    ("extinst_opencl_unknown_number.spv", "binary.ext-inst-number", "SPIR-V 3.32.4 OpExtInst, OpenCL.std", "opencl2.0", ext_inst_unknown_number, ""),
    ("extinst_set_not_import.spv", "binary.ext-inst-set", "SPIR-V 3.32.4 OpExtInst", "opencl2.0", ext_inst_set_not_import, ""),
    ("extinst_glsl_sqrt_extra_operand.spv", "binary.ext-inst-operands", "GLSL.std.450 Sqrt", "vulkan1.0", glsl_sqrt_extra_operand, ""),
]


def main() -> int:
    for name, _rule, _section, _env, build, _why in BINARIES:
        (HERE / name).write_bytes(build())
    print(f"wrote {len(BINARIES)} .spv files to {HERE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
