"""Small module templates for the validator's rule tests: a Kernel (OpenCL) module and a
GLCompute (Vulkan) module with slots for extra capabilities, annotations, types and body."""

from __future__ import annotations

KERNEL = """\
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
{caps}
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" {interface}
{modes}
{annotations}
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v4uint = OpTypeVector %uint 4
%v4float = OpTypeVector %float 4
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%float_1 = OpConstant %float 1
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%_ptr_Function_uint = OpTypePointer Function %uint
%fnty = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
{types}
%main = OpFunction %void None %fnty
%buf = OpFunctionParameter %_ptr_CrossWorkgroup_uint
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
{functions}
"""

SHADER = """\
OpCapability Shader
{caps}
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" {interface}
OpExecutionMode %main LocalSize 1 1 1
{annotations}
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%float_1 = OpConstant %float 1
%fnty = OpTypeFunction %void
{types}
%main = OpFunction %void None %fnty
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
{functions}
"""


IMAGE_KERNEL = """\
OpCapability Addresses
OpCapability Kernel
OpCapability ImageBasic
{caps}
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%c2 = OpConstantComposite %v2uint %uint_0 %uint_0
%c4 = OpConstantComposite %v4uint %uint_0 %uint_0 %uint_0 %uint_0
%fc2 = OpConstantComposite %v2float %float_0 %float_0
%texel = OpConstantComposite %v4float %float_0 %float_0 %float_0 %float_0
{types}
%fnty = OpTypeFunction %void {param_types}
%main = OpFunction %void None %fnty
{params}
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"""


def image_kernel(params: dict[str, str], body: str, caps: str = "", types: str = "") -> str:
    """A kernel whose arguments are ``params`` (name -> type id, e.g. {"%im": "%img"}), with
    ``types`` declaring the image types; common scalar, vector and coordinate constants are there."""
    return IMAGE_KERNEL.format(caps=caps, types=types, param_types=" ".join(params.values()), body=body,
                               params="\n".join(f"{name} = OpFunctionParameter {t}" for name, t in params.items()))


def kernel(**slots) -> str:
    return _fill(KERNEL, slots)


def shader(**slots) -> str:
    return _fill(SHADER, slots)


def _fill(template: str, slots: dict) -> str:
    keys = ("caps", "modes", "annotations", "types", "body", "functions", "interface")
    return template.format(**{k: slots.get(k, "") for k in keys})


def patch_word(binary: bytes, opname: str, word: int, value: int, nth: int = 0) -> bytes:
    """Set word ``word`` of the ``nth`` instruction named ``opname`` (a way to build modules the
    assembler refuses to write, such as ones using undefined ids)."""
    from spirvkit import Module

    module = Module.from_bytes(binary)
    seen = 0
    for inst in module.instructions:
        if inst.opname == opname:
            if seen == nth:
                inst.words[word] = value
                return module.to_bytes()
            seen += 1
    raise LookupError(f"no {opname} #{nth}")


def offset_of(binary: bytes, opname: str, nth: int = 0) -> int:
    from spirvkit import Module

    seen = 0
    for inst in Module.from_bytes(binary).instructions:
        if inst.opname == opname:
            if seen == nth:
                return inst.offset
            seen += 1
    raise LookupError(f"no {opname} #{nth}")


# -- (id, env, invalid module, valid twin, rule) cases: the three checks each rule table makes ----

def _assemble_case(text: str, env: str) -> bytes:
    import spirvkit

    return spirvkit.assemble(text, env)


def check_invalid_breaks_the_rule(case) -> None:
    """The invalid module's first diagnostic is the rule, located at an instruction."""
    from spirvkit.validate import validate

    case_id, env, invalid, _valid, rule = case
    diagnostics = validate(_assemble_case(invalid, env), env, max_errors=None)
    assert diagnostics and diagnostics[0].rule == rule, f"{case_id}: {diagnostics[:2]}"
    assert diagnostics[0].section and diagnostics[0].instruction


def check_valid_twin_passes(case) -> None:
    from spirvkit.validate import validate

    case_id, env, _invalid, valid, _rule = case
    assert validate(_assemble_case(valid, env), env, max_errors=None) == [], case_id


def check_spirv_val_agrees(case) -> None:
    """spirv-val rejects the invalid module and accepts its twin."""
    from peers import run_tool

    case_id, env, invalid, valid, _rule = case
    for text, expect_valid in ((invalid, False), (valid, True)):
        result = run_tool("spirv-val", ["--target-env", env, "-"], _assemble_case(text, env))
        assert (result.returncode == 0) == expect_valid, f"{case_id}: {result.stderr.decode()}"


def rule_case_tests(cases):
    """The three tests of a rule table, parametrized over ``cases``; a test module assigns them to
    module-level ``test_*`` names so pytest collects them."""
    import pytest

    over_cases = pytest.mark.parametrize("case", cases, ids=[c[0] for c in cases])

    # A mark is stored on the function it decorates: each table needs its own functions.
    def breaks(case):
        check_invalid_breaks_the_rule(case)

    def twin(case):
        check_valid_twin_passes(case)

    def agrees(case):
        check_spirv_val_agrees(case)

    return over_cases(breaks), over_cases(twin), over_cases(agrees)
