"""Rules by which spirvkit rejects modules that spirv-val (SPIRV-Tools 2025.5) accepts, where the
specification text decides for spirvkit, with the text that decides each.

``agreement.py --write docs/validator-differences.md`` puts the quotes under each group of
disagreements. The agreement tests count a disagreement as settled when spirv-val accepts a mutant
and every spirvkit diagnostic for it matches one of these notes (the rule id, and the message
pattern where one rule covers several cases); they report the raw agreement too.

Spec texts: ``/work/shared/spec/`` — SPIR-V = spirv-1.0-spec.txt (unified text, sections as
numbered there), OpenCL env NEW = opencl-spirv-env-3.0.txt (sections as numbered there), OpenCL env
OLD = opencl-spirv-env-2.2.txt (per-version "Validation Rules" lists, unnumbered).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SPIRVKIT_RIGHT = "spirvkit right by spec"


@dataclass(frozen=True)
class Note:
    rule: str          # spirvkit rule id
    pattern: str       # regex the diagnostic message must match ('' = any)
    title: str
    quote: str         # markdown: the deciding text, quoted, with its section
    verdict: str = SPIRVKIT_RIGHT

    def matches(self, diag) -> bool:
        return diag.rule == self.rule and (not self.pattern or re.search(self.pattern, diag.message) is not None)


NOTES: tuple[Note, ...] = (
    Note("decorations.target", r"^Alignment decoration",
         "Alignment on something that is not a pointer (a type, a constant, a label, a non-pointer value)",
         '> "Alignment — Apply to a pointer. This declares a known minimum alignment the pointer has." '
         "(SPIR-V §3.20 Decoration, 44)\n\nA pointer *type*, a constant or a label is not a pointer value."),
    Note("decorations.target", r"^SaturatedConversion decoration",
         "SaturatedConversion on something that is not a conversion to an integer type",
         '> "This decoration can only be applied to conversion instructions to integer types, not including '
         'the OpSatConvertUToS and OpSatConvertSToU instructions." (SPIR-V §3.20 Decoration, 28 '
         "SaturatedConversion)"),
    Note("decorations.target", r"^FuncParamAttr decoration",
         "FuncParamAttr on a variable (not a function parameter or a function's return value)",
         '> "FuncParamAttr — Indicates a function return value or parameter attribute." (SPIR-V §3.20 '
         'Decoration, 38)\n>\n> "Adds additional information to the return type and to each parameter of a '
         'function." (SPIR-V §3.19 Function Parameter Attribute)'),
    Note("decorations.target", r"^FPRoundingMode decoration",
         "FPRoundingMode on something that is not a floating-point conversion",
         '> "Associate a rounding mode to a floating-point conversion instruction." (SPIR-V §3.16 FP Rounding '
         "Mode; the FPRoundingMode decoration, §3.20 39, takes this operand)"),
    Note("decorations.target", r"^Offset can only be applied to structure members",
         "Offset with OpDecorate (on a variable or type, not a structure member)",
         '> "Offset — Apply to a structure-type member." (SPIR-V §3.20 Decoration, 35)'),
    Note("opencl.fp-rounding-mode", "",
         "FPRoundingMode on anything but the five conversions (OpenCL env)",
         '> "Results of the following conversion instructions may include an optional FPRoundingMode '
         'decoration: OpConvertFToU, OpConvertFToS, OpConvertSToF, OpConvertUToF, OpFConvert. The FPRoundingMode '
         'decoration may not be added to results of any other instruction." (OpenCL env NEW §6.2 Rounding Modes '
         'for Conversions)\n>\n> "Associate a rounding mode to a floating-point conversion instruction." '
         "(SPIR-V §3.16)"),
    Note("opencl.execution-scope", "",
         "Execution scope other than Workgroup/Subgroup (barriers, pipe group instructions) in OpenCL",
         '> "For all other instructions, Scope for Execution must be one of: Workgroup; Subgroup (For OpenCL '
         '2.1, OpenCL 2.2, or OpenCL 3.0 devices supporting Subgroups)" (OpenCL env NEW §4 Validation Rules)\n>\n'
         '> "Scope for Execution is generally limited to: Workgroup, Subgroup" (OpenCL env OLD, OpenCL 2.2 and '
         '2.1 Validation Rules); "Scope for Execution is generally limited to: Workgroup" (OLD, OpenCL 2.0 and '
         "1.2 Validation Rules)\n\nspirv-val checks scopes per target env but not this OpenCL list."),
    Note("decorations.target", r"^Index decoration on target .* Output storage class",
         "Index on a variable outside the Output storage class (spirv-val checks it for Vulkan only)",
         '> "Index — Apply to a variable to identify a blend equation input index, used as described in the API '
         'specification. Only valid for the Output Storage Class and the Fragment Execution Model." (SPIR-V §3.20 '
         "Decoration, 32)"),
    Note("group.operation", r"^GroupNonUniformBallotBitCount",
         "OpGroupNonUniformBallotBitCount with Operation ClusteredReduce",
         "Group Operation ClusteredReduce needs a ClusterSize operand (SPIR-V §3.28 in the unified specification; "
         "spirv-val itself: \"ClusterSize must be present when Operation is ClusteredReduce\" for the arithmetic "
         "instructions), and OpGroupNonUniformBallotBitCount has none (§3.32.24: Result Type, Execution, Operation, "
         "Value), so its Operation is Reduce, InclusiveScan or ExclusiveScan."),
    Note("vulkan.image-format", "",
         "OpTypeImage whose Image Format does not match its Sampled Type (Vulkan)",
         '> "When specifying the Image Format as anything other than Unknown, the converted bit width, type, and '
         'signedness as shown in the table below, must match the Sampled Type." (vulkan-spirv-env.txt, Image '
         "Format and Type Matching; digest-vulkan-env rule 24)\n\nspirv-val 2025.5 does not check it."),
    Note("decorations.repeated", "",
         "The same decoration applied to an id a second time through a decoration group",
         '> "Subsequent OpGroupDecorate and OpGroupMemberDecorate instructions that consume this instruction\'s '
         "Result <id> will apply these decorations to their targets.\" (SPIR-V §3.32.3 OpDecorationGroup)\n\n"
         "spirv-val rejects the same decoration applied twice with OpDecorate (\"decorated with X multiple times is "
         "not allowed\"), and so does spirvkit; a decoration a group applies is the target's own decoration, so "
         "spirvkit counts it too, where spirv-val 2025.5 looks at direct decorations only."),
    Note("memory.store-read-only", r"^Target operand",
         "OpCopyMemory / OpCopyMemorySized whose Target points into a read-only storage class",
         '> "Variables declared with this storage class are read-only" (SPIR-V §3.7 Storage Class: UniformConstant, '
         "Input, PushConstant)\n\nA copy writes its Target; spirv-val checks OpStore's pointer, not the copies'."),
    Note("vulkan.capability-table", "",
         "A capability outside the Vulkan table (spirv-val skips its table for vulkan1.1spv1.4 only)",
         '> "The table below lists the set of SPIR-V capabilities that may be supported in Vulkan implementations." '
         "(vulkan-spirv-env.txt, Capabilities; digest-vulkan-env C1: every OpCapability must be in the table, which "
         "is the same for Vulkan 1.1 with SPIR-V 1.4 as for Vulkan 1.1)"),
    Note("opencl.kernel-parameter", r"holds a",
         "Structure kernel argument with a member OpenCL does not list (bool, array, bool vector)",
         '> "For OpTypeStruct parameters, supported structure Member Types are: OpTypeInt, OpTypeFloat, '
         'OpTypeStruct, OpTypeVector, OpTypePointer" ... "OpenCL kernel argument types must have a '
         'representation in the OpenCL host API." (OpenCL env NEW §2.8.2 Kernel Arguments; OLD "Kernel '
         'Arguments" has the same lists)'),
    Note("opencl.image-lod", "",
         "A non-zero Lod (or a Lod on OpImageRead) without cl_khr_mipmap_image",
         '> "If the OpenCL environment supports the extension cl_khr_mipmap_image, then the environment must '
         'accept non-zero optional Lod Image Operands for the following instructions: OpImageSampleExplicitLod, '
         'OpImageRead, OpImageQuerySizeLod" (OpenCL env NEW §5.2.9; OLD adds OpImageFetch)\n\nWithout the '
         "extension the level of detail is 0; SPIR-V itself allows Lod only on explicit-lod instructions and "
         "OpImageFetch (§3.14), so OpImageRead takes one only through the extension (spirv-val rejects that "
         "one too)."),
    Note("opencl.group-type", r"uint4",
         "A ballot-family Value that is not uint4 (OpenCL)",
         '> "For the instructions OpGroupNonUniformInverseBallot, OpGroupNonUniformBallotBitExtract, '
         'OpGroupNonUniformBallotBitCount, OpGroupNonUniformBallotFindLSB, and OpGroupNonUniformBallotFindMSB, '
         'the valid type for Value is an OpTypeVector with four Component Count components of OpTypeInt, with '
         'Width equal to 32 and Signedness equal to 0 (equivalent to uint4)." (OpenCL env NEW §5.2.16)'),
    Note("opencl.kernel-parameter", "",
         "Kernel pointer parameter in a storage class other than CrossWorkgroup/Workgroup/UniformConstant",
         '> "For OpTypePointer parameters, supported Storage Classes are: CrossWorkgroup, Workgroup, '
         'UniformConstant" (OpenCL env NEW §2.8.2 Kernel Arguments; OLD "Kernel Arguments" has the same list)'
         "\n\nspirvkit already relaxes this for Function-storage pointers decorated FuncParamAttr ByVal (the "
         "way clang/llvm-spirv pass by-value aggregates: \"Environments that support extensions or optional "
         'features may allow additional types in an entry point\'s parameter list", same section). The '
         "mutants here are plain Function, Image or Input pointers."),
    Note("opencl.builtin-type", "",
         "OpenCL built-in variable of the wrong type (a 2- or 4-component GlobalInvocationId, ...)",
         '> "The following table describes the required SPIR-V type for built-in variables. ... '
         'GlobalInvocationId — OpTypeVector of 3 components of size_t" (OpenCL env NEW §2.9 Built-in '
         "Variables; size_t is the 32- or 64-bit OpTypeInt of the addressing model)"),
    Note("opencl.builtin-storage-class", "",
         "OpenCL built-in variable outside the Input storage class",
         '> "An OpVariable in a SPIR-V module with the BuiltIn decoration represents a built-in variable. All '
         'built-in variables must be in the Input storage class." (OpenCL env NEW §2.9 Built-in Variables)'),
    Note("opencl.atomic-scope", "",
         "Atomic memory scope Invocation in OpenCL 2.x",
         '> "In an OpenCL 1.2 environment, for the Atomic Instructions, the Scope for Memory must be Device ... '
         'Otherwise, Scope for Memory must be one of: CrossDevice, Device, Workgroup, Subgroup" (each gated by '
         "a device capability; OpenCL env NEW §4 Validation Rules). Invocation is not in the list."),
    Note("opencl.barrier-scope", "",
         "Barrier memory scope outside the OpenCL version's list (Subgroup in OpenCL 2.0 without cl_khr_subgroups, "
         "anything but Workgroup in 1.2)",
         '> "In an OpenCL 1.2 environment, for the Barrier Instructions OpControlBarrier and OpMemoryBarrier, the '
         "Scope for Memory must be Workgroup ... Otherwise, Scope for Memory must be one of: CrossDevice, Device, "
         "Workgroup, Subgroup (For OpenCL 2.1, OpenCL 2.2, or OpenCL 3.0 devices supporting Subgroups), "
         'Invocation" (OpenCL env NEW §4 Validation Rules); cl_khr_subgroups: "for all instructions except Atomic '
         'Instructions in an OpenCL 1.2 environment, the Scope for Memory may be: Subgroup" (NEW §5.2.11; OLD, '
         'OpenCL 2.0: "Scope for Memory is generally limited to: CrossDevice, Device, Workgroup, Invocation")'),
    Note("opencl.barrier-order", "",
         "OpenCL 1.2 barrier whose memory order is not SequentiallyConsistent",
         '> "In an OpenCL 1.2 environment, for the Barrier Instructions OpControlBarrier and OpMemoryBarrier, the '
         'Scope for Memory must be Workgroup, and the memory-order constraint in Memory Semantics must be '
         'SequentiallyConsistent." (OpenCL env NEW §4 Validation Rules; OLD, OpenCL 1.2 Validation Rules)'),
    Note("opencl.atomic-order", "",
         "OpenCL 1.2 atomic whose memory order is not Relaxed",
         '> "In an OpenCL 1.2 environment, for the Atomic Instructions, the Scope for Memory must be Device, and '
         'the memory-order constraint in Memory Semantics must be Relaxed." (OpenCL env NEW §4 Validation Rules; '
         'OLD, OpenCL 1.2 Validation Rules)'),
    Note("opencl.atomic-width", "",
         "Atomic on an 8- or 16-bit integer in OpenCL",
         '> "Only 32-bit integer types are supported for the Result Type and/or type of Value for all Atomic '
         'Instructions." (OpenCL env NEW §4 Validation Rules and OLD "Common Properties"; NEW §5.2.8: "When the '
         'Int64Atomics capability is declared, 64-bit integer types are valid")'),
    Note("types.int-signedness", "",
         "OpTypeInt Signedness other than 0 or 1",
         '> "Signedness specifies whether there are signed semantics to preserve or validate. 0 indicates '
         'unsigned, or no signedness semantics. 1 indicates signed semantics." (SPIR-V §3.32.6 OpTypeInt)'
         "\n\nNo other value has a meaning."),
    Note("types.kernel-int-signedness", "",
         "Signed OpTypeInt in a module that declares Kernel",
         '> "The Signedness in OpTypeInt must always be 0." (SPIR-V §2.16.3 Validation Rules for Kernel '
         'Capabilities)\n>\n> "For all OpTypeInt integer type-declaration instructions: Signedness must be 0" '
         "(OpenCL env NEW §4)"),
    Note("group.execution-scope", r"^GroupAsyncCopy|^GroupWaitEvents",
         "OpGroupAsyncCopy/OpGroupWaitEvents with an execution scope other than Workgroup (OpenCL)",
         '> "For the instructions OpGroupAsyncCopy and OpGroupWaitEvents, Scope for Execution must be: '
         'Workgroup" (OpenCL env NEW §4; OLD: "Scope for Execution for the OpGroupAsyncCopy and '
         'OpGroupWaitEvents instructions is specifically limited to: Workgroup")'),
    Note("group.execution-scope", "",
         "Group operation with an execution scope other than Workgroup/Subgroup",
         '> "Execution must be Workgroup or Subgroup Scope." (SPIR-V §3.32.21 Group Instructions: OpGroupAll, '
         "OpGroupAny, OpGroupBroadcast, OpGroupIAdd, OpGroupFAdd, OpGroupFMin ... OpGroupSMax)"),
    Note("group.result-type", r"^OpGroupAsyncCopy",
         "OpGroupAsyncCopy whose Result Type is not an event",
         '> "Result Type must be an OpTypeEvent object." (SPIR-V §3.32.21 OpGroupAsyncCopy)'),
    Note("group.operand-type", r"^OpGroupAsyncCopy|^OpGroupWaitEvents",
         "OpGroupAsyncCopy/OpGroupWaitEvents operands of the wrong types or storage classes",
         '> "Destination must be a pointer to a scalar or vector of floating-point type or integer type. '
         'Destination pointer Storage Class must be Workgroup or CrossWorkgroup. The type of Source must be the '
         'same as Destination. When Destination pointer Storage Class is Workgroup, the Source pointer Storage '
         'Class must be CrossWorkgroup [and the other way round] ... Stride and NumElements must be a 32-bit '
         'integer type scalar when the addressing model is Physical32 and 64 bit integer type scalar when the '
         'Addressing Model is Physical64. Event must have a type of OpTypeEvent." (SPIR-V §3.32.21 '
         'OpGroupAsyncCopy)\n>\n> "Num Events must be a 32-bit integer type scalar. Events List must be a '
         'pointer to OpTypeEvent." (OpGroupWaitEvents)\n\nspirv-val 2025.5 checks neither instruction\'s '
         "operands; the executor needs them to lower the copy."),
    Note("enqueue.result-type", "", "A device-side enqueue instruction whose Result Type is not the one it names",
         '> "Result Type must be a 32-bit integer type scalar." (OpEnqueueMarker, OpEnqueueKernel, OpGetKernel*); '
         '"Result Type must be OpTypeDeviceEvent." (OpCreateUserEvent); "Result Type must be a Boolean type." '
         '(OpIsValidEvent); "Result Type must be an OpTypeQueue." (OpGetDefaultQueue) (SPIR-V §3.32.22)'),
    Note("enqueue.operand-type", "", "A device-side enqueue operand of the wrong type",
         '> "Queue must be of the type OpTypeQueue. ... Wait Events ... must be a pointer to OpTypeDeviceEvent. '
         '... Event must have a type of OpTypeDeviceEvent ... Status must have a type of 32-bit OpTypeInt" '
         "(SPIR-V §3.32.22; validate/enqueue_pipes.py lists each operand's sentence)"),
    Note("pipe.result-type", "", "A pipe instruction whose Result Type is not the one it names",
         '> "Result Type must be a 32-bit integer type scalar." (OpReadPipe, OpWritePipe, ...); "Result Type must '
         'be an OpTypeReserveId." (OpReserve*PipePackets); "Result Type must be a Boolean type." '
         "(OpIsValidReserveId) (SPIR-V §3.32.23)"),
    Note("pipe.operand-type", "", "A pipe operand of the wrong type, or an alignment that does not divide the size",
         '> "Pipe must have a type of OpTypePipe with ReadOnly access qualifier. Pointer must have a type of '
         'OpTypePointer with the same data type as Pipe and a Generic Storage Class. Packet Size must be a 32-bit '
         'integer type scalar ... Packet Alignment must evenly divide Packet Size" (SPIR-V §3.32.23 OpReadPipe; '
         "likewise the other pipe instructions)"),
    Note("group.operand-type", "",
         "OpGroupFAdd (or another float group operation) whose Result Type is not floating-point",
         '> "Result Type must be a 16-bit, 32-bit, or 64-bit floating-point type scalar." (SPIR-V §3.32.21 '
         "OpGroupFAdd; likewise OpGroupFMin, OpGroupFMax)"),
    Note("cfg.switch-literals", "",
         "OpSwitch with two equal case literals",
         '> "It is invalid for any two literal to be equal to each other." (SPIR-V §3.32.17 OpSwitch)\n\n'
         "spirv-val 2025.5 lets two equal literals through when they branch to the same label."),
    Note("vulkan.patch", "",
         "Patch on the interface of a vertex, geometry or fragment entry point (Vulkan)",
         '> "The Patch decoration must not be used on variables in the interface of a vertex, geometry, or '
         "fragment shader stage's entry point.\" (vulkan-spirv-env.txt, Decorations; digest-vulkan-env §3 item 35)"),
    Note("decorations.aliased", r"non-void",
         "Aliased on a pointer to void",
         '> "The Aliased Decoration can only be applied to intermediate objects that are pointers to non-void '
         'types." (SPIR-V §2.16.1 Validation Rules, Decoration rules)'),
    Note("memory.extracted-image", "",
         "Image or sampler extracted from a composite and used in another block or by a non-image instruction",
         '> "Instructions for extracting a scalar image or scalar sampler out of a composite must only use '
         'dynamically-uniform indexes. They must be in the same block in which their Result <id> are consumed. '
         'Such Result <id> must not appear as operands to OpPhi instructions or OpSelect instructions, or any '
         'instructions other than the image instructions specified to operate on them." (SPIR-V §2.16.1 '
         "Validation Rules, Data rules)"),
    Note("image.operands", r"None is invalid",
         "Image Operands mask None (no bit set)",
         '> "If there are multiple following operands indicated, they are ordered: Those indicated by '
         'smaller-numbered bits appear first. At least one bit must be set (None is invalid)." (SPIR-V §3.14 '
         "Image Operands)"),
    Note("image.operands", r"Lod or Grad",
         "Explicit-lod sampling without a Lod or Grad operand",
         '> "Image Operands encodes what operands follow, as per Image Operands. At least one operand setting '
         'the level of detail must be present." (SPIR-V §3.32.10 OpImageSampleExplicitLod, and likewise '
         "OpImageSampleDrefExplicitLod, OpImageSampleProjExplicitLod, OpImageSampleProjDrefExplicitLod and the "
         "sparse forms)\n\nThe level-of-detail operands are Lod and Grad (§3.14)."),
    Note("vulkan.extension", "",
         "OpExtension naming a SPIR-V extension the Vulkan environment does not list (Vulkan)",
         '> "The application can pass a SPIR-V module to vkCreateShaderModule that uses the following SPIR-V '
         'extensions if one of the following conditions is met ..." (vulkan-spirv-env.txt, SPIR-V Extensions; '
         "digest-vulkan-env §2 C3: \"an OpExtension must be listed\")\n\nThe table is empty in the project's text "
         "dump; spirvkit's list is vk.xml's <spirvextensions> (src/spirvkit/validate/env.py). Whether the "
         "corresponding Vulkan extension is enabled is device state and not checked."),
    Note("opencl.group-cluster-size", "",
         "ClusterSize on a non-uniform scan or reduction without GroupNonUniformClustered (OpenCL)",
         '> "For the GroupNonUniformArithmetic scan and reduction instructions, the optional ClusterSize operand '
         'must not be present." (OpenCL env NEW §5.2.17 cl_khr_subgroup_non_uniform_arithmetic)\n>\n> "When the '
         'GroupNonUniformClustered capability is declared, the GroupNonUniformArithmetic scan and reduction '
         'instructions may include the optional ClusterSize operand." (§5.2.20 cl_khr_subgroup_clustered_reduce)'),
    Note("opencl.group-type", "",
         "Group or subgroup instruction whose value type is outside the OpenCL type set",
         '> "For the instructions OpGroupNonUniformLogicalAnd, OpGroupNonUniformLogicalOr, and '
         'OpGroupNonUniformLogicalXor, the valid type for Value is OpTypeBool. Otherwise, for the '
         'GroupNonUniformArithmetic scan and reduction instructions, valid types for Value are: Scalars of '
         'supported types: OpTypeInt ... OpTypeFloat" (OpenCL env NEW §5.2.17); likewise scalars only for '
         "OpGroupNonUniformShuffle/ShuffleXor (§5.2.18), the ShuffleRelative instructions (§5.2.19), "
         "OpGroupNonUniformAllEqual (§5.2.15) and OpGroupNonUniformBroadcastFirst (§5.2.16); scalars or vectors "
         "of 2, 3, 4, 8 or 16 components for OpGroupNonUniformBroadcast (§5.2.16).\n>\n> \"If the OpenCL "
         'environment supports the extension cl_khr_subgroup_extended_types, then additional types are valid for '
         'the following for Groups instructions with Scope for Execution equal to Subgroup: OpGroupBroadcast, '
         'OpGroupIAdd, OpGroupFAdd ... For these instructions, valid types for Value are: Scalars of supported '
         'types ... Additionally, for OpGroupBroadcast ... OpTypeVectors with 2, 3, 4, 8, or 16 Component Count '
         'components" (§5.2.14)\n\nWithout it the SPIR-V text\'s types hold: "Result Type must be a 32-bit or '
         '64-bit integer type or a 16, 32 or 64 float type scalar." (SPIR-V §3.32.21 OpGroupBroadcast; '
         "OpGroupIAdd: \"a 32-bit or 64-bit integer type scalar\")"),
    Note("function.parameters", "",
         "Function (declaration) with fewer OpFunctionParameter instructions than its type has parameters",
         '> "The order of contiguous OpFunctionParameter instructions is the same order arguments will be '
         "listed in an OpFunctionCall instruction to this function. It is also the same order in which "
         "Parameter Type operands are listed in the OpTypeFunction of the Function Type operand for this "
         "function's OpFunction instruction.\" (SPIR-V §3.32.9 OpFunctionParameter)\n\nOne "
         "OpFunctionParameter per parameter type; spirv-val does not check declarations (functions without "
         "blocks)."),
)

# rule id -> one line (the rules some note covers), for quick reference and older callers.
SPEC_DECIDED: dict[str, str] = {}
for _n in NOTES:
    SPEC_DECIDED.setdefault(_n.rule, _n.title)


def note_for(diag) -> Note | None:
    """The first note whose rule and message pattern match a spirvkit diagnostic."""
    for n in NOTES:
        if n.matches(diag):
            return n
    return None


def settled_by_spec(outcome) -> bool:
    """spirv-val accepts, spirvkit rejects, and every spirvkit diagnostic is spec-decided."""
    return bool(outcome.reference_valid and not outcome.agrees and outcome.crash is None and outcome.diagnostics
                and all(note_for(d) is not None for d in outcome.diagnostics))


# spirv-val was right: (spirv-val's message, the spirvkit rule that now checks it, the deciding text).
FIXED: tuple[tuple[str, str, str], ...] = (
    ("NonSemantic.Shader.DebugInfo.100 DebugCompilationUnit: expected operand Version must be a result id of 32-bit "
     "unsigned OpConstant (2 mutants); ... Source must be a result id of DebugSource (1)", "extinst.debug-info",
     "The NonSemantic.Shader.DebugInfo.100 specification (not among the project's spec texts): the numbers "
     "OpenCL.DebugInfo.100 writes as literals are <id>s of 32-bit integer OpConstants, and Source is a DebugSource. "
     "SPIR-V §3.32.4 leaves an extended instruction's operands to its set's specification."),
    ("OpenCL.DebugInfo.100 DebugTypeArray: Component Count must be OpConstant with a 32- or 64-bits integer scalar "
     "type or DebugGlobalVariable or DebugLocalVariable; DebugTypePointer: expected operand Base Type is not a "
     "valid debug type", "extinst.debug-info",
     "The OpenCL.DebugInfo.100 specification (not among the project's spec texts; OpenCL env NEW §5.2.21 makes the "
     "set available with cl_khr_spirv_extended_debug_info)."),
    ("GLSL.std.450 PackHalf2x16: expected Result Type to be 32-bit int scalar type; PackSnorm2x16: expected operand V "
     "to be a 32-bit float vector of size 2; InterpolateAtSample: expected Sample to be 32-bit integer",
     "extinst.glsl-std-450",
     "The GLSL.std.450 specification (not among the project's spec texts): each Pack*/Unpack* instruction names its "
     "result and operand types; InterpolateAtSample's sample is a 32-bit integer."),
    ("OpenCL.std normalize: expected operand P type to be equal to Result Type", "extinst.opencl-std",
     "The OpenCL.std extended instruction set specification (not among the project's spec texts; OpenCL env NEW "
     "§2.2 makes OpenCL.std the set every OpenCL environment supports): normalize's P has the Result Type; length "
     "and distance return the component type of their operands (also checked now: cross, fast_*)."),
    ("Expected Image 'Sampled' parameter to be 1 (OpImageFetch)", "image.operand-type",
     "\"Image must be an object whose type is OpTypeImage. Its Dim operand cannot be Cube, and its Sampled operand "
     "must be 1.\" (SPIR-V §3.32.10 OpImageFetch)"),
    ("Expected Coordinate to be float scalar or vector (OpImageQueryLod)", "image.operand-type",
     "\"Coordinate must be a scalar or vector of floating-point type or integer type. ... Unless the Kernel "
     "capability is being used, it must be floating point.\" (SPIR-V §3.32.10 OpImageQueryLod)"),
    ("Expected Sample for Image with MS 0 to be a valid <id> for the value 0 (OpImageTexelPointer)",
     "memory.texel-pointer-sample",
     "\"Sample must be an integer type scalar. ... It must be a valid <id> for the value 0 if the OpTypeImage has MS "
     "of 0.\" (SPIR-V §3.32.8 OpImageTexelPointer)"),
    ("ID '…' has not been defined (a DebugExpression naming DebugOperations defined after it)",
     "ids.defined-before-use",
     "SPIR-V §2.4: forward references are allowed only for OpFunction operands, annotations, labels, phis, "
     "OpTypeForwardPointer and OpEntryPoint interfaces. spirvkit had allowed any debug-info instruction to "
     "forward-reference another; now only DebugTypeComposite's members (which name their parent) may."),
    ("Invalid use of function type result id '…' (an OpSpecConstantOp with an OpTypeFunction result type)",
     "ids.operand-kind", "\"OpFunction is the only valid use of OpTypeFunction.\" (SPIR-V §3.32.6 OpTypeFunction)"),
    ("[VUID-StandaloneSpirv-Location-04916] Variable must be decorated with a location (2)",
     "vulkan.interface-location",
     "Vulkan spec, Standalone SPIR-V validation (VUID-StandaloneSpirv-Location-04916; a graphics rule the project's "
     "vulkan-spirv-env.txt, an older appendix, does not carry): user-defined Input/Output interface variables of "
     "graphics stages need a Location."),
    ("[VUID-StandaloneSpirv-Flat-04744] Fragment OpEntryPoint operand … with Input interfaces with integer or float "
     "type must have a Flat decoration", "vulkan.interface-flat",
     "Vulkan spec (VUID-StandaloneSpirv-Flat-04744, graphics, not in vulkan-spirv-env.txt): integer and 64-bit float "
     "fragment inputs are Flat."),
    # Found by tests/validate/gating_search.py (targeted mutations of the valid corpora: capabilities dropped
    # or added, storage classes, scopes, semantics, interfaces, versions, memory model, new variables);
    # tests: tests/validate/test_val_rules_gating.py.
    ("In SPIR-V 1.3 or earlier, OpEntryPoint interfaces must be OpVariables with Storage Class of Input(1) or "
     "Output(3); Interface variable id <N> is used by entry point '…' but is not listed as an interface (before 1.4 "
     "too, and through OpSpecConstantOp users); non-unique OpEntryPoint interface",
     "function.entry-point-interface, memory.entry-point-interface",
     "\"Interface is a list of <id> of global OpVariable instructions with either Input or Output for its Storage "
     "Class operand. ... It is invalid for the entry point's static call tree to reference such an <id> if it was "
     "not listed with this instruction.\" (SPIR-V §3.32.5 OpEntryPoint; from 1.4 every storage class of the globals "
     "the call tree references, each listed once)"),
    ("Cannot allocate a variable containing a 16-bit type in Function storage class; Allocating a variable "
     "containing a 16-bit element in … storage class requires an additional capability; Cannot form constants of 8- "
     "or 16-bit types; Invalid use of 8- or 16-bit result; 8- or 16-bit loads must be a scalar, vector or matrix type",
     "types.small-storage-class, types.small-constant, types.small-type-use",
     "The 16/8-bit storage capabilities (SPIR-V §3.31 in the unified specification, SPV_KHR_16bit_storage, "
     "SPV_KHR_8bit_storage; not among the project's texts, whose SPIR-V 1.0 predates them): StorageBuffer16BitAccess "
     "\"Uses 16-bit OpTypeFloat and OpTypeInt instructions for creating scalar, vector, and composite types that "
     "become members of a block residing in the StorageBuffer storage class ...\", and likewise per storage class for "
     "the others; without Int16/Float16/Int8 such types are only loaded, stored and width-converted."),
    ("Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability "
     "(atomics, barriers and the memory operands of loads and stores)", "scopes.memory-device",
     "VulkanMemoryModelDeviceScope: \"Uses Device scope with any instruction when the Vulkan memory model is "
     "declared.\" (SPIR-V §3.31, unified specification; SPV_KHR_vulkan_memory_model)"),
    ("SPV_KHR_vulkan_memory_model extension requires SPIR-V version 1.3 or later (and the 1.4 extensions: "
     "SPV_KHR_workgroup_memory_explicit_layout, SPV_EXT_mesh_shader, SPV_NV/EXT_shader_invocation_reorder ...)",
     "capabilities.extension-version",
     "Each extension's Dependencies section (not among the project's texts), e.g. SPV_KHR_vulkan_memory_model lists "
     "SPIR-V 1.3 as the version it requires (SPIRV-Tools PR 6042)."),
    ("Instruction may not have a logical pointer operand; Instruction may not return a logical pointer; … only … "
     "in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability; StorageBuffer "
     "pointer operand requires a variable pointers capability; Variable pointers must point into the same structure",
     "memory.logical-pointer, function.call-pointer-argument, memory.variable-pointer",
     "SPIR-V §2.16.1 Logical addressing (the list the project's text dump lost; digest-spirv.md U5: \"pointer "
     "operands only for OpLoad, OpStore, Op(InBounds)AccessChain, OpFunctionCall, OpImageTexelPointer, OpCopyMemory, "
     "OpCopyObject, OpAtomic*, and pointer-taking ext-insts\"; U6 for results), widened by SPV_KHR_variable_pointers."),
    ("MakePointerAvailableKHR cannot be used with OpLoad; NonPrivatePointerKHR must be specified …; Memory Semantics "
     "with Volatile bit set must not be used with barrier instructions; Vulkan specification requires Memory Semantics "
     "to be Relaxed if used with Invocation Memory Scope (Vulkan memory model outside Vulkan envs)",
     "memory.access-operands, semantics.volatile-barrier, vulkan.memory-scope, vulkan.memory-barrier-semantics",
     "SPV_KHR_vulkan_memory_model's memory operands (SPIR-V §3.26 in the unified specification) and the Vulkan "
     "memory model (VUID-StandaloneSpirv-MemorySemantics-10874); the project's vulkan-spirv-env.txt: \"Invocation — "
     "Only valid if memory semantics is None\"."),
    ("Expected Result Type to be a pointer whose Storage Class operand is Image; Capability StorageImageMultisample / "
     "Image1D is required …", "image.texel-pointer, image.capability",
     "\"Result Type must be an OpTypePointer whose Storage Class operand is Image.\" (SPIR-V §3.32.8 "
     "OpImageTexelPointer); \"If the Sampled operand is 2, then some dimensions require a capability; e.g., one of "
     "Image1D, ImageRect, ImageBuffer, ImageCubeArray, or ImageMSArray.\" (§3.32.10 OpImageRead); "
     "StorageImageMultisample \"Uses multi-sample images for non-sampled images.\" (§3.31)"),
    ("OpenCL.std prefetch: expected operand Ptr storage class to be CrossWorkgroup; vstore_half / vload_half: "
     "expected operand P storage class …", "extinst.opencl-std",
     "The OpenCL.std extended instruction set specification (not among the project's spec texts): prefetch reads "
     "global memory; vstore*/vload* and the pointer-out functions take Generic, CrossWorkgroup, Workgroup or Function "
     "pointers (vload* also UniformConstant); printf's format is a constant string."),
    ("GLSL.std.450 InterpolateAtCentroid requires capability InterpolationFunction", "capabilities.ext-inst",
     "The GLSL.std.450 grammar gates InterpolateAt* on InterpolationFunction (SPIR-V §2.16.1 U2: \"Any use of a "
     "feature described by a capability in the capability section requires that capability to be declared\")."),
    ("If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage Classes it requires a "
     "BuiltIn decoration / … can only be used with non-externally visible shader Storage Classes",
     "memory.variable-bool",
     "\"If they are stored (in conjunction with OpVariable), they can only be used with logical addressing "
     "operations, not physical, and only with non-externally visible shader Storage Classes: Workgroup, "
     "CrossWorkgroup, Private, and Function.\" (SPIR-V §3.32.6 OpTypeBool)"),
    ("[VUID-StandaloneSpirv-None-10684] Invalid explicit layout decorations on type …; [VUID-04680] OpTypeStruct "
     "variables containing OpTypeRuntimeArray must have storage class of StorageBuffer, PhysicalStorageBuffer, or "
     "Uniform; [VUID-06672] Location decoration must not be applied to this storage class; VulkanMemoryModelKHR "
     "capability must only be specified if the VulkanKHR memory model is used",
     "vulkan.explicit-layout, vulkan.runtime-array, vulkan.location-storage-class, capabilities.memory-model",
     "\"OpTypeRuntimeArray must only be used for: the last member of an OpTypeStruct that is in the StorageBuffer "
     "storage class decorated as Block, or that is in the Uniform storage class decorated as BufferBlock.\" "
     "(vulkan-spirv-env.txt); the other Vulkan rules are the current Vulkan spec's Standalone SPIR-V VUIDs, which the "
     "project's older appendix does not carry."),
    ("CopyMemory with two memory access operands requires SPIR-V 1.4 or later (and CopyMemorySized; issue 20)",
     "memory.copy-access-operands",
     "\"Before version 1.4, at most one memory operands mask can be provided.\" (OpCopyMemory and OpCopyMemorySized, "
     "SPIR-V §3.32.8 in the unified specification: the Source's mask is new in 1.4)"),
    ("Uniform / UniformId / Index / AlignmentId / NoSignedWrap / NoUnsignedWrap / CounterBuffer cannot be applied to "
     "structure members; RelaxPrecision decoration cannot be applied to a type; Index decoration ... must be in the "
     "Output storage class (second search, issue 20: decoration-kind)",
     "decorations.member-target, decorations.target",
     "\"Uniform — Apply to an object\", \"Index — Apply to a variable ... Only valid for the Output Storage "
     "Class\" (SPIR-V §3.20; SPIR-V 1.0's text still let Uniform decorate a member, the unified one does not); \"The "
     "RelaxedPrecision Decoration can be applied to: The <id> of a variable ... The Result <id> of an instruction "
     "...\" (§2.14), never a type."),
    ("Parameter <ID> ... must appear earlier in the binary than the target (OpDecorateId; second search)",
     "decorations.decorate-id",
     "The parameter (AlignmentId, MaxByteOffsetId, CounterBuffer, UniformId) describes the target, and SPIR-V §2.4 "
     "lays a module out so that one pass sees an id before what relies on it; the annotation itself may "
     "forward-reference both (§3.32.3)."),
    ("ClusterSize must be present when Operation is ClusteredReduce (second search: operand-version)",
     "group.cluster-size",
     "Group Operation ClusteredReduce: the ClusterSize operand must be present (SPIR-V §3.28 in the unified "
     "specification; GroupNonUniformClustered)."),
    ("Expected Coordinate to have at least N components; Result Type has N components, but M expected "
     "(OpImageQuerySize(Lod); second search: operand-version, an image's Dim swapped)", "image.operand-type, "
     "image.result-type",
     "\"Coordinate ... contains (u[, v] ... [, array layer]) as needed by the definition of Sampled Image\"; "
     "OpImageQuerySizeLod: \"The number of components must be: 1 for the 1D and Buffer dimensionalities, 2 for the "
     "2D, Cube, and Rect dimensionalities, 3 for the 3D dimensionality, plus 1 more if the image type is arrayed.\" "
     "(SPIR-V §3.32.10)"),
    ("[VUID-StandaloneSpirv-Component-04920] Component decoration value must not be greater than 3; "
     "[VUID-04915] A BuiltIn variable cannot have any Location or Component decorations; [VUID-04677] struct "
     "member decorated with Invariant ...; [VUID-PointSize-PointSize-04316] BuiltIn PointSize only for Input or "
     "Output (second search: decoration-kind)", "vulkan.component, vulkan.builtin-location, vulkan.decoration, "
     "vulkan.builtin-storage-class",
     "The current Vulkan spec's Standalone SPIR-V VUIDs (the project's older vulkan-spirv-env.txt does not carry "
     "them), as quoted in vulkan.py's _interface_decorations.")
)

# spirvkit rules changed because the spec text did not back them: (rule, change, why).
RELAXED: tuple[tuple[str, str, str], ...] = (
    ("function.execution-mode-operands",
     "LocalSize with a zero dimension is no longer an error when an object is decorated BuiltIn WorkgroupSize",
     "The spec texts do not require a non-zero LocalSize (SPIR-V §3.6: \"Indicates the work-group size in the x, y, "
     "and z dimensions.\"); spirv-val rejects a zero size, and spirvkit keeps that, but a WorkgroupSize constant "
     "overrides LocalSize (digest-vulkan-env: \"WorkgroupSize: a 3×32-bit int constant that overrides LocalSize\"), "
     "so the mode's operands are not used."),
    ("vulkan.storage-class",
     "A GLCompute entry point may list an Output variable in its interface; only one its static call tree "
     "references is an error (found by tests/validate/gating_search.py, operator interface-add)",
     "VUID-StandaloneSpirv-None-04644: \"If the Storage Class is Output, then it must not be used in the GlCompute "
     "... Execution Model\". A variable the entry point's call tree never references is not used by it (from SPIR-V "
     "1.4 the interface may be a superset of the referenced globals, §3.32.5 OpEntryPoint); spirv-val reads it the "
     "same way."),
    ("decorations.decorate-id",
     "OpDecorateId takes every decoration whose grammar parameters include an <id> operand kind (UniformId's "
     "IdScope too), not only IdRef ones (issue 20)",
     "UniformId: \"Apply to an object. Asserts that, for each dynamic instance of the instruction that computes the "
     "result, all active invocations in the Execution scope computed the same result value.\" Its operand is a Scope "
     "<id> (SPIR-V 1.5, unified specification; OpDecorateId: \"Add a decoration to another <id>, using <id>s as "
     "the extra operands\"). spirv-val accepts it."),
    ("vulkan.initializer",
     "A Workgroup variable may have an OpConstantNull initializer in every Vulkan env; any other Workgroup "
     "initializer is rejected with VUID-StandaloneSpirv-OpVariable-04734 (issue 20)",
     "VUID-StandaloneSpirv-OpVariable-04734 (the current Vulkan spec; VK_KHR_zero_initialize_workgroup_memory, core "
     "in Vulkan 1.3): Workgroup variables may be initialised with OpConstantNull only, relaxing the project's "
     "older vulkan-spirv-env.txt list (\"Output, Private, Function\"). Whether the device enables the feature is not "
     "the module's to say; spirv-val accepts it in every Vulkan env, and so does spirvkit now."),
)

# Found by tests/validate/gating_search.py (not in the agreement corpus): groups of mutants spirvkit
# rejects and spirv-val accepts that the spec text decides for spirvkit, beyond the rule groups
# quoted above (which the search also hits): (spirvkit rule, what the mutants do, deciding text).
GATING_SEARCH: tuple[tuple[str, str, str], ...] = (
    ("vulkan.capability-table",
     "declare Linkage, Addresses, GenericPointer, Kernel, Pipes, DeviceEnqueue, ImageBasic, Float16Buffer or "
     "SubgroupDispatch in vulkan1.1spv1.4 (71 mutants): spirv-val rejects each in vulkan1.0, 1.1, 1.2 and 1.3 but "
     "skips its capability table for the vulkan1.1spv1.4 env",
     "\"The table below lists the set of SPIR-V capabilities that may be supported in Vulkan implementations.\" "
     "(vulkan-spirv-env.txt, Capabilities; digest-vulkan-env C1: \"every OpCapability must be in the Vulkan "
     "capability table\"). None of these is in the table, which is the same for Vulkan 1.1 with SPIR-V 1.4 as for "
     "Vulkan 1.1."),
    ("memory.store-read-only",
     "OpCopyMemory / OpCopyMemorySized whose Target points into UniformConstant or Input (16 mutants): spirv-val "
     "checks OpStore's pointer but not the copies' target",
     "UniformConstant, Input, PushConstant: \"Variables declared with this storage class are read-only\" (SPIR-V "
     "§3.7 Storage Class). A copy writes its Target."),
    ("vulkan.image-format",
     "second search (issue 20), operand-version: an OpTypeImage's Image Format swapped for an integer format while "
     "its Sampled Type stays float (23 mutants): spirv-val 2025.5 does not compare them",
     "\"When specifying the Image Format as anything other than Unknown, the converted bit width, type, and "
     "signedness as shown in the table below, must match the Sampled Type.\" (vulkan-spirv-env.txt, Image Format "
     "and Type Matching)"),
    ("decorations.target",
     "second search, decoration-kind: Index on an Input or Private variable in a universal env (3 mutants): "
     "spirv-val checks the storage class for Vulkan only",
     "\"Index — ... Only valid for the Output Storage Class and the Fragment Execution Model.\" (SPIR-V §3.20 "
     "Decoration, 32)"),
    ("group.operation",
     "second search, operand-version: OpGroupNonUniformBallotBitCount with Operation ClusteredReduce (1 mutant)",
     "ClusteredReduce needs the ClusterSize operand (spirv-val: \"ClusterSize must be present when Operation is "
     "ClusteredReduce\"), which OpGroupNonUniformBallotBitCount does not have."),
    ("decorations.repeated",
     "second search, decoration-kind: LinkageAttributes added to an id a decoration group already gives it (1 "
     "mutant): spirv-val counts direct decorations only",
     "\"Subsequent OpGroupDecorate and OpGroupMemberDecorate instructions that consume this instruction's Result "
     "<id> will apply these decorations to their targets.\" (SPIR-V §3.32.3 OpDecorationGroup)"),
)

# OpenCL environment rules spirvkit checks and spirv-val does not, added without mutants of the
# agreement corpus reaching them (each tested with a valid twin in tests/validate/
# test_env_scope_rules.py): (spirvkit rule, what it rejects, deciding text).
OPENCL_ONLY: tuple[tuple[str, str, str], ...] = (
    ("opencl.atomic-scope, opencl.atomic-order",
     "OpenCL 1.2 atomics whose memory scope is not Device or whose memory order is not Relaxed (now checked by "
     "default, no longer only with strict_opencl_version_rules; cl_khr_subgroups does not widen them)",
     "\"In an OpenCL 1.2 environment, for the Atomic Instructions, the Scope for Memory must be Device, and the "
     "memory-order constraint in Memory Semantics must be Relaxed.\" (OpenCL env NEW §4; OLD, OpenCL 1.2 Validation "
     "Rules); cl_khr_subgroups: \"for all instructions except Atomic Instructions in an OpenCL 1.2 environment, the "
     "Scope for Memory may be: Subgroup\" (NEW §5.2.11)"),
    ("opencl.barrier-scope, opencl.barrier-order",
     "OpenCL 1.2 OpControlBarrier/OpMemoryBarrier whose memory scope is not Workgroup (Subgroup with "
     "cl_khr_subgroups) or whose memory order is not SequentiallyConsistent (the order bits; None is Relaxed)",
     "\"In an OpenCL 1.2 environment, for the Barrier Instructions OpControlBarrier and OpMemoryBarrier, the Scope "
     "for Memory must be Workgroup, and the memory-order constraint in Memory Semantics must be "
     "SequentiallyConsistent.\" (OpenCL env NEW §4; OLD, OpenCL 1.2 Validation Rules)"),
    ("opencl.atomic-scope, opencl.barrier-scope",
     "OpenCL 2.0 atomics and barriers with memory scope Subgroup, unless cl_khr_subgroups is declared "
     "(OpExtension) or is in ValidatorOptions.extensions",
     "Subgroup: \"For OpenCL 2.1, OpenCL 2.2, or OpenCL 3.0 devices supporting Subgroups\" (OpenCL env NEW §4), "
     "or with cl_khr_subgroups (NEW §5.2.11); OLD, OpenCL 2.0: \"Scope for Memory is generally limited to: "
     "CrossDevice, Device, Workgroup, Invocation\""),
    ("opencl.execution-scope",
     "OpenCL 1.2 and 2.0 instructions with execution scope Subgroup, unless cl_khr_subgroups is declared "
     "(OpExtension) or is in ValidatorOptions.extensions (issue 20: no longer only with "
     "strict_opencl_version_rules, as the memory scope); OpGroupAsyncCopy/OpGroupWaitEvents at Subgroup scope "
     "even with it",
     "\"Scope for Execution is generally limited to: Workgroup\" (OpenCL env OLD, OpenCL 2.0 and 1.2 Validation "
     "Rules); \"Subgroup — For OpenCL 2.1, OpenCL 2.2, or OpenCL 3.0 devices supporting Subgroups\" (NEW §4); "
     "cl_khr_subgroups: \"for all instructions except OpGroupAsyncCopy and OpGroupWaitEvents the Scope for "
     "Execution may be: Subgroup\" (NEW §5.2.11)"),
    ("opencl.image-lod",
     "A non-zero constant Lod on OpImageSampleExplicitLod / OpImageQuerySizeLod (OLD: and OpImageFetch) without "
     "cl_khr_mipmap_image (OpImageRead with any Lod spirv-val rejects too)",
     "cl_khr_mipmap_image: \"the environment must accept non-zero optional Lod Image Operands for ... "
     "OpImageSampleExplicitLod, OpImageRead, OpImageQuerySizeLod\" (NEW §5.2.9)"),
    ("opencl.image-write-3d",
     "OpImageWrite to a 3D image in the OLD envs: now also accepted when the module declares "
     "OpExtension \"cl_khr_3d_image_writes\" (a false positive before)",
     "\"If the OpenCL environment supports the extension cl_khr_3d_image_writes, and use of the extension is "
     "declared in the module using OpExtension, then the environment must accept Image operands to OpImageWrite "
     "that are declared with dimensionality 3D.\" (OpenCL env OLD, cl_khr_3d_image_writes)"),
    ("opencl.kernel-parameter",
     "A structure kernel argument (not a ByVal pointer) with a bool, array or bool-vector member; an OpTypeArray "
     "or OpTypeEvent kernel argument (the list has neither)",
     "\"Allowed types for OpenCL kernel arguments are: OpTypeInt, OpTypeFloat, OpTypeStruct, OpTypeVector, "
     "OpTypePointer, OpTypeSampler, OpTypeImage, OpTypePipe, OpTypeQueue\"; \"For OpTypeStruct parameters, "
     "supported structure Member Types are: OpTypeInt, OpTypeFloat, OpTypeStruct, OpTypeVector, OpTypePointer\" "
     "(OpenCL env NEW §2.8.2; OLD Kernel Arguments)"),
    ("opencl.group-type, opencl.builtin-type",
     "A ballot-family Value, or a Subgroup{Eq,Ge,Gt,Le,Lt}Mask built-in, that is not uint4 (spirv-val takes any "
     "integer width)",
     "\"the valid type for Value is an OpTypeVector with four Component Count components of OpTypeInt, with "
     "Width equal to 32\"; \"For built-in variables decorated with SubgroupEqMask, ... the supported variable "
     "type is an OpTypeVector with four Component Count components of OpTypeInt, with Width equal to 32\" "
     "(OpenCL env NEW §5.2.16)"),
    ("opencl.atomic-scope",
     "Atomic memory scope Invocation in OpenCL 2.0-2.2 (checked before; a valid twin now)",
     "\"Otherwise, Scope for Memory must be one of: CrossDevice, Device, Workgroup, Subgroup\" (NEW §4)"),
    ("opencl.atomic-width",
     "8- and 16-bit atomics in every OpenCL env (16-bit floats only with an AtomicFloat16* capability)",
     "\"Only 32-bit integer types are supported for the Result Type and/or type of Value for all Atomic "
     "Instructions.\" (OpenCL env NEW §4, OLD Common Properties); 64-bit with Int64Atomics (NEW §5.2.8)"),
)
