"""The error hierarchy shared by every layer.

Every error spirvkit raises on bad input derives from :class:`SpirvkitError`, so a caller (and the
CLI) can catch one type and print a located message instead of a traceback.
"""

from __future__ import annotations


class SpirvkitError(Exception):
    """Base of every error spirvkit raises for bad input or unsupported features."""


class SpirvError(SpirvkitError):
    """Bad SPIR-V: a malformed binary or bad assembly text."""


class BinaryError(SpirvError):
    """A malformed SPIR-V binary, located by the word offset where decoding failed."""

    def __init__(self, message: str, word_offset: int | None = None):
        self.message = message
        self.word_offset = word_offset
        where = f"word {word_offset}: " if word_offset is not None else ""
        super().__init__(f"{where}{message}")


class AssemblyError(SpirvError):
    """Bad SPIR-V assembly text, located by file, line and column (all 1-based).

    ``str()`` gives the clang-style form: ``file:line:col: error: message`` followed by the
    source line and a caret under the offending column.
    """

    def __init__(self, message: str, filename: str, line: int, column: int, source_line: str = ""):
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column
        self.source_line = source_line
        text = f"{filename}:{line}:{column}: error: {message}"
        if source_line:
            caret = "".join(c if c == "\t" else " " for c in source_line[: column - 1]) + "^"
            text += f"\n{source_line}\n{caret}"
        super().__init__(text)


class NotSupportedError(SpirvkitError):
    """A valid input that uses a feature spirvkit does not implement yet."""

    def __init__(self, what: str):
        self.what = what
        super().__init__(f"not supported yet: {what}")


class KernelArgumentError(SpirvkitError):
    """A kernel launched with the wrong arguments or sizes; names the parameter at fault."""


class LimitError(SpirvkitError):
    """A launch that needs more of a device resource (local or private memory) than spirvkit's
    documented limits (``spirvkit.runtime.limits``); the message names the limit, the amount asked
    for and the kernel. Nothing was allocated or run."""


class ExecutionError(SpirvkitError):
    """A kernel launch that stopped before finishing."""


class KernelFault(ExecutionError):
    """An out-of-bounds access: the launch stopped; the message says which kernel, work-item,
    instruction, buffer and offset. The arrays outside the buffer were not touched."""

    def __init__(self, message: str, *, kernel: str, global_id: tuple, site, buffer: str, offset: int, size: int):
        self.kernel, self.global_id, self.site = kernel, global_id, site
        self.buffer, self.offset, self.size = buffer, offset, size
        super().__init__(message)


class KernelCheckError(ExecutionError):
    """A launch with dynamic checks (``checks=``) that found problems: it ran to completion (or,
    for an out-of-bounds access, stopped at the group that made it), then raised this once.
    ``findings`` lists them, one per (kind, instruction) (``runtime.check_findings.Finding``:
    kind, kernel, work-item(s), memory space, argument, byte offset, instruction, source
    location, how many times it happened); ``str()`` summarises them, ``render()`` prints each
    clang-style with its source line and a caret."""

    def __init__(self, kernel: str, findings: list):
        self.kernel = kernel
        self.findings = list(findings)
        shown = self.findings[:8]
        lines = [f"{len(self.findings)} finding(s) of the dynamic checks in kernel {kernel!r}:"]
        lines += ["  " + f.summary() for f in shown]
        if len(self.findings) > len(shown):
            lines.append(f"  ... and {len(self.findings) - len(shown)} more")
        super().__init__("\n".join(lines))

    def render(self, sources: dict | None = None) -> str:
        """Every finding clang-style: ``file:line:col: error: ...``, the source line and a caret
        (``sources``: file name -> its text, else the file is read when it exists)."""
        return "\n".join(f.render(sources) for f in self.findings)


class KernelTimeout(ExecutionError):
    """A launch that ran past its ``timeout`` and was stopped."""


class KernelInterrupted(ExecutionError):
    """A launch stopped by Ctrl-C."""


class CompileError(SpirvkitError):
    """OpenCL C source that cannot be compiled (preprocessor, parser or semantic errors).

    ``file``, ``line`` and ``col`` (1-based) locate the first error; ``message`` is its text.
    ``diagnostics`` holds every diagnostic of the translation unit (errors, warnings and their
    notes, as ``clc.source.Diagnostic`` objects) so a caller can report all of them, as clang
    does. ``str()`` is the clang-style rendering: ``file:line:col: error: message``, the source
    line and a caret, then notes such as ``note: expanded from macro 'X'``.
    """

    def __init__(self, message: str, file: str = "<source>", line: int = 0, col: int = 0,
                 source_line: str = "", *, diagnostics=(), rendered: str | None = None):
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.source_line = source_line
        self.diagnostics = list(diagnostics)
        if rendered is None:
            rendered = f"{file}:{line}:{col}: error: {message}" if line else f"{file}: error: {message}"
            if source_line and col:
                caret = "".join(c if c == "\t" else " " for c in source_line[: col - 1]) + "^"
                rendered += f"\n{source_line}\n{caret}"
        super().__init__(rendered)

    # The same spelling as AssemblyError, so the CLI can treat both alike.
    @property
    def filename(self) -> str:
        return self.file

    @property
    def column(self) -> int:
        return self.col
