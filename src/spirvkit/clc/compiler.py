"""``compile_cl``: OpenCL C source → SPIR-V bytes (the driver behind ``spirvkit cc``).

Options are clang's where clang has them. Numerics-only flags are accepted and their effect in
spirvkit is this:

- ``-cl-fast-relaxed-math``: defines ``__FAST_RELAXED_MATH__`` (preprocessor); the SPIR-V is
  unchanged (no fast-math flags exist in SPIR-V 1.0; the executor is always IEEE).
- ``-cl-mad-enable``, ``-cl-denorms-are-zero``, ``-cl-opt-disable``,
  ``-cl-unsafe-math-optimizations``, ``-cl-no-signed-zeros``, ``-cl-finite-math-only``,
  ``-cl-single-precision-constant`` (the last one *is* applied: unsuffixed floating-point literals
  are float, rounded from their double value):
  accepted; they permit, never require, less precise results, so producing the precise ones is
  conformant.
- ``-cl-opt-disable`` also keeps every local variable and parameter in memory (clang -O0
  style); without it, the variables that hold plain values become SSA values (``ssa.py``).
- ``--spirv-version 1.0…1.4`` (or ``--spirv-version=1.2``): the module's version (default 1.0,
  or 1.3 where the cl_khr_subgroup_* built-ins need the GroupNonUniform instructions; an
  explicit version below that is then an error).
- ``-g``: an ``OpLine`` (file as an ``OpString``, line, column) before the code of each statement.
- ``-ferror-limit=N``: stop after N errors with clang's "too many errors emitted" (default 20;
  0: no limit).
- ``-w`` silences warnings, ``-Werror`` makes them errors, ``-Wno-NAME`` turns off the ones
  tagged ``[-WNAME]`` (``-Wno-return-type``: clang's warning for a non-void function whose end
  is reachable).
"""

from __future__ import annotations

from ..errors import CompileError
from .predefined import enabled_extensions
from .preprocessor import PreprocessorOptions, split_command_line
from .source import Diagnostic, compile_error

NUMERIC_FLAGS = frozenset({
    "-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-denorms-are-zero", "-cl-opt-disable",
    "-cl-unsafe-math-optimizations", "-cl-no-signed-zeros", "-cl-finite-math-only",
    "-cl-single-precision-constant", "-cl-strict-aliasing", "-cl-kernel-arg-info",
    "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp", "-g", "-O0", "-O1", "-O2", "-O3", "-Werror",
    "-w", "-cl-fp32-correctly-rounded-divide-sqrt",
})
SPIRV_VERSIONS = {"1.0": (1, 0), "1.1": (1, 1), "1.2": (1, 2), "1.3": (1, 3), "1.4": (1, 4)}


def split_options(options: str | list[str]) -> tuple[list[str], tuple[int, int]]:
    """The preprocessor/front-end arguments and the SPIR-V version; raises CompileError for an
    unknown option (clang: ``unknown argument``). A string is split as clang splits one
    (``split_command_line``)."""
    argv = split_command_line(options) if isinstance(options, str) else list(options)
    front, version = [], (1, 0)
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--spirv-version"):
            value = a.split("=", 1)[1] if "=" in a else (argv[i + 1] if i + 1 < len(argv) else "")
            if "=" not in a:
                i += 1
            if value not in SPIRV_VERSIONS:
                raise CompileError(f"invalid value '{value}' in '--spirv-version' (expected 1.0 to 1.4)", "<command line>")
            version = SPIRV_VERSIONS[value]
        elif a in ("-D", "-I", "-U"):
            front += [a, argv[i + 1] if i + 1 < len(argv) else ""]
            i += 1
        elif a.startswith("-ferror-limit="):
            value = a[len("-ferror-limit="):]
            if not value.isdigit():
                raise CompileError(f"invalid integral value '{value}' in '-ferror-limit {value}'", "<command line>")
            front.append(a)
        elif a.startswith(("-D", "-I", "-U", "-cl-std=", "-cl-ext=", "-W")) or a in NUMERIC_FLAGS:
            front.append(a)
        else:
            raise CompileError(f"unknown argument: '{a}'", "<command line>")
        i += 1
    return front, version


def _std_number(cl_std: str) -> int:
    digits = cl_std.upper().replace("CLC++", "").replace("CL", "").replace(".", "")
    try:
        n = int(digits)
    except ValueError:
        return 120
    return n * 10 if n < 100 else n


def compile_cl(source: str, options: str | list[str] = "", filename: str = "<source>",
               diagnostics: list | None = None) -> bytes:
    """Compile OpenCL C ``source`` to a SPIR-V module (bytes). Raises CompileError with every
    error (clang-style rendering in ``str()``); warnings go to ``diagnostics`` if given."""
    from . import parse
    from .codegen import CodeGen
    from .warn_parentheses import expand_groups, merge_in_source_order, parentheses_warnings

    front, version = split_options(options)
    argv = split_command_line(options) if isinstance(options, str) else list(options)
    explicit_version = any(str(a).startswith("--spirv-version") for a in argv)
    popts = PreprocessorOptions.from_args(front)
    warnings: list[Diagnostic] = []
    unit = parse(source, filename, options=popts, diagnostics=warnings)
    cl_std = _std_number(unit.cl_std or popts.cl_std)
    gen = CodeGen(unit, cl_std=cl_std, version=version, single_precision_constants="-cl-single-precision-constant" in front,
                  debug="-g" in front, fp64="cl_khr_fp64" in enabled_extensions(popts.extensions),
                  error_limit=popts.error_limit, explicit_version=explicit_version)
    try:
        gen.compile()
    except RecursionError:
        gen.diagnostics.append(Diagnostic("error", "expression nesting too deep", None))
    gen.warnings = merge_in_source_order(parentheses_warnings(unit), gen.warnings)  # clang's parse-time ones
    errors = list(gen.diagnostics)
    # -Wno-NAME turns off the warnings shown as [-WNAME] (e.g. -Wno-return-type).
    disabled = expand_groups({"-W" + a[len("-Wno-"):] for a in front if a.startswith("-Wno-")})
    warnings = [w for w in warnings if w.option not in disabled]
    if not popts.suppress_warnings:
        for w in gen.warnings:
            if w.option in disabled:
                continue
            if popts.warnings_as_errors:
                w.severity, w.option = "error", f"-Werror,{w.option}" if w.option else "-Werror"
                errors.append(w)
            else:
                warnings.append(w)
    for w in warnings:
        w.sources = unit.sources
    if diagnostics is not None:
        diagnostics.extend(warnings)
    if errors:
        raise compile_error(warnings + errors, unit.sources)
    if "-cl-opt-disable" not in front:
        from .ssa import promote_private_variables
        promote_private_variables(gen.b)
    return gen.b.to_bytes()


__all__ = ["compile_cl", "split_options", "NUMERIC_FLAGS"]
