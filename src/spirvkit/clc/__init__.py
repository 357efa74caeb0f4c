"""OpenCL C front end (issue 6): preprocessor now; lexer, parser, semantic analysis and SPIR-V
generation build on it. See ARCHITECTURE.md, layer ``clc/``."""

from .preprocessor import (ExtensionEvent, Pragma, Preprocessor, PreprocessorOptions, preprocess,
                           preprocess_to_text)
from .source import Diagnostic, MacroExpansion, SourceLocation, SourceManager
from .tokens import Token

__all__ = [
    "Diagnostic", "ExtensionEvent", "MacroExpansion", "Pragma", "Preprocessor",
    "PreprocessorOptions", "SourceLocation", "SourceManager", "Token", "preprocess",
    "preprocess_to_text",
]
