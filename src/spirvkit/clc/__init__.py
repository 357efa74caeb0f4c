"""OpenCL C front end (issue 6): preprocessor, lexer and parser to an AST; semantic analysis
and SPIR-V generation build on it. See ARCHITECTURE.md, layer ``clc/``."""

from __future__ import annotations

from .preprocessor import (ExtensionEvent, Pragma, Preprocessor, PreprocessorOptions, preprocess,
                           preprocess_to_text)
from .source import Diagnostic, MacroExpansion, SourceLocation, SourceManager, compile_error
from .tokens import Token


def parse(source: str, filename: str = "<source>", *,
          options: "PreprocessorOptions | str | None" = None,
          diagnostics: list | None = None):
    """Preprocess and parse OpenCL C ``source`` into an :class:`ast.TranslationUnit`.

    ``options``: a PreprocessorOptions or a clang-style command line ("-cl-std=CL2.0 -DN=4").
    Raises CompileError listing every error (preprocessor, lexical and syntax errors; clang's
    limit of 20, ``-ferror-limit=N``). Warnings are appended to ``diagnostics`` when a list is given.
    """
    from .lexer import Classifier
    from .parser import Parser
    from .source import located_diagnostic

    if isinstance(options, str):
        options = PreprocessorOptions.from_args(options)
    options = options or PreprocessorOptions()
    pp = Preprocessor(options)
    try:
        tokens = pp.run(source, filename)
    except Exception:
        if diagnostics is not None:
            diagnostics.extend(pp.warnings)
        raise
    found: list[Diagnostic] = list(pp.warnings)

    def lexical(severity, message, loc, expansion=None, option=None):
        if severity == "warning":
            if options.suppress_warnings:
                return
            if options.warnings_as_errors:
                severity, option = "error", (f"-Werror,{option}" if option else "-Werror")
        errors = sum(d.severity != "warning" for d in found)
        limit = options.error_limit  # clang's -ferror-limit, as the parser applies it
        if limit and errors >= limit:
            return
        found.append(located_diagnostic(severity, message, loc, expansion, option))
        if limit and errors + (severity != "warning") == limit:
            found.append(Diagnostic("fatal error", "too many errors emitted, stopping now", None,
                                    option="-ferror-limit="))

    classifier = Classifier(pp.cl_std, lexical)
    ctokens = classifier.classify(tokens)
    parser = Parser(ctokens, cl_std=pp.cl_std, classifier=classifier, diagnostics=found,
                    suppress_warnings=options.suppress_warnings,
                    warnings_as_errors=options.warnings_as_errors, error_limit=options.error_limit)
    unit = parser.parse_translation_unit(pp.extension_events)
    unit.sources = pp.sources
    unit.supported_extensions = list(pp.supported_extensions)
    if diagnostics is not None:
        diagnostics.extend(d for d in found if d.severity == "warning")
    if any(d.severity != "warning" for d in found):
        raise compile_error(found, pp.sources)
    return unit


__all__ = [
    "Diagnostic", "ExtensionEvent", "MacroExpansion", "Pragma", "Preprocessor",
    "PreprocessorOptions", "SourceLocation", "SourceManager", "Token", "parse", "preprocess",
    "preprocess_to_text",
]
