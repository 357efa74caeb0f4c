"""Source buffers, locations, macro-expansion chains and clang-style diagnostics.

A :class:`SourceLocation` is what a user sees: the *presumed* file and line (after ``#line``)
and a 1-based column. It also remembers which buffer and physical line it came from, so a
diagnostic can print the real source line under the message even when ``#line`` renamed it.

A token produced by a macro expansion keeps its *spelling* location (inside the ``#define``)
and points at a :class:`MacroExpansion` record, whose ``loc`` is where the macro name was
written; records chain outwards through ``parent``. Diagnostics use the outermost record as
the primary location and print one ``note: expanded from macro 'X'`` per level, as clang does.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..errors import CompileError


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """A presumed position: file name, 1-based line and column.

    ``buffer`` and ``phys_line`` say where the characters physically are (for printing the
    source line); they do not take part in equality, so tests can compare plain triples.
    """

    file: str
    line: int
    col: int
    buffer: int = field(default=-1, compare=False)
    phys_line: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(slots=True)
class SourceBuffer:
    """The text of one file (or of ``<built-in>`` / ``<command line>``) as read."""

    name: str
    text: str
    _line_starts: list[int] | None = None

    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            pos = find("\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based physical line and column of a character offset."""
        starts = self.line_starts()
        i = bisect.bisect_right(starts, offset) - 1
        return i + 1, offset - starts[i] + 1

    def line_span(self, line: int) -> tuple[int, int]:
        """The offsets where physical ``line`` begins and ends (before its newline); (0, 0) for a
        line the buffer does not have."""
        starts = self.line_starts()
        if not 1 <= line <= len(starts):
            return 0, 0
        return starts[line - 1], starts[line] - 1 if line < len(starts) else len(self.text)

    def line_text(self, line: int) -> str:
        begin, end = self.line_span(line)
        return self.text[begin:end].rstrip("\r")

    def echo(self, line: int, col: int) -> tuple[str, int]:
        """The source line a diagnostic at ``line``:``col`` shows, and the caret's column in it.
        A line longer than ``ECHO_LIMIT`` is clipped to ``ECHO_CONTEXT`` columns either side of
        the caret, with "..." where it was cut (as clang clips to -fmessage-length), so each
        diagnostic costs the same however long its line."""
        begin, end = self.line_span(line)
        if end - begin <= ECHO_LIMIT:
            return self.text[begin:end].rstrip("\r"), col
        caret = begin + col - 1
        low, high = max(begin, caret - ECHO_CONTEXT), min(end, caret + ECHO_CONTEXT)
        front = "..." if low > begin else ""
        back = "..." if high < end else ""
        return front + self.text[low:high].rstrip("\r") + back, col - (low - begin) + len(front)


ECHO_LIMIT = 1024  # longer source lines are clipped around the caret in diagnostics
ECHO_CONTEXT = 80  # columns kept either side of the caret in a clipped line


class SourceManager:
    """Every buffer read during one compilation, addressed by a small integer id."""

    def __init__(self) -> None:
        self.buffers: list[SourceBuffer] = []

    def add(self, name: str, text: str) -> int:
        self.buffers.append(SourceBuffer(name, text))
        return len(self.buffers) - 1

    def line_text(self, loc: SourceLocation) -> str:
        if 0 <= loc.buffer < len(self.buffers):
            return self.buffers[loc.buffer].line_text(loc.phys_line or loc.line)
        return ""

    def echo(self, loc: SourceLocation) -> tuple[str, int]:
        """The (possibly clipped) source line shown under a diagnostic at ``loc``, and the
        caret's column in it (SourceBuffer.echo)."""
        if 0 <= loc.buffer < len(self.buffers):
            return self.buffers[loc.buffer].echo(loc.phys_line or loc.line, loc.col)
        return "", loc.col


@dataclass(frozen=True, slots=True)
class MacroExpansion:
    """One level of macro expansion: macro ``name`` (defined at ``definition``) was invoked by a
    name token spelled at ``loc``; ``parent`` is the expansion that name token came from."""

    name: str
    loc: SourceLocation
    definition: SourceLocation | None
    parent: "MacroExpansion | None" = None
    # For a function-like macro: where its closing ')' appears in the file. clang's __LINE__
    # inside the macro gives that line (the end of the expansion range), and so do we.
    end: SourceLocation | None = None

    def chain(self) -> list["MacroExpansion"]:
        """This record and its parents, innermost first."""
        out, e = [], self
        while e is not None:
            out.append(e)
            e = e.parent
        return out


def line_location(loc: SourceLocation, expansion: MacroExpansion | None) -> SourceLocation:
    """The location ``__LINE__`` reports for a token: the end of the outermost expansion."""
    while expansion is not None:
        if expansion.parent is None and expansion.end is not None:
            return expansion.end
        loc, expansion = expansion.loc, expansion.parent
    return loc


def expansion_location(loc: SourceLocation, expansion: MacroExpansion | None) -> SourceLocation:
    """Where a token appears in the file being read: the outermost macro invocation, or the
    token's own location when it came from no macro."""
    while expansion is not None:
        loc, expansion = expansion.loc, expansion.parent
    return loc


@dataclass(slots=True)
class Note:
    message: str
    loc: SourceLocation | None


@dataclass(slots=True)
class Diagnostic:
    """One error or warning with its notes. ``render`` gives clang's text form."""

    severity: str  # "error" | "warning" | "fatal error"
    message: str
    loc: SourceLocation | None
    notes: list[Note] = field(default_factory=list)
    option: str | None = None  # the -W flag that controls a warning, shown as [-Wname]
    # The buffers the locations point into, when known: ``render(None)`` then still prints the
    # source line and caret (compile_cl sets it on the warnings it hands back).
    sources: "SourceManager | None" = field(default=None, compare=False, repr=False)
    # A replacement clang prints under the caret: (length of the range it replaces, new text),
    # e.g. the name a typo correction suggests.
    fixit: tuple[int, str] | None = None

    def render(self, sources: SourceManager | None) -> str:
        suffix = f" [{self.option}]" if self.option else ""
        sources = sources if sources is not None else self.sources
        parts = [_render_one(self.severity, self.message + suffix, self.loc, sources, self.fixit)]
        parts += [_render_one("note", n.message, n.loc, sources) for n in self.notes]
        return "\n".join(parts)


def _render_one(severity: str, message: str, loc: SourceLocation | None, sources,
                fixit: tuple[int, str] | None = None) -> str:
    if loc is None:
        return f"{severity}: {message}"
    text = f"{loc.file}:{loc.line}:{loc.col}: {severity}: {message}"
    line, col = sources.echo(loc) if sources is not None else ("", loc.col)
    if line:
        # Tabs are kept in the caret line so the caret lands under the right character.
        indent = "".join(c if c == "\t" else " " for c in line[: col - 1])
        if fixit is None:
            text += f"\n{line}\n{indent}^"
        else:
            text += f"\n{line}\n{indent}^{'~' * (fixit[0] - 1)}\n{indent}{fixit[1]}"
    return text


def located_diagnostic(severity: str, message: str, loc: SourceLocation | None,
                       expansion: MacroExpansion | None, option: str | None = None) -> Diagnostic:
    """A diagnostic for a token spelled at ``loc`` inside ``expansion``: reported where the
    outermost macro was invoked, with an ``expanded from macro`` note per level."""
    if expansion is None:
        return Diagnostic(severity, message, loc, option=option)
    notes = []
    spelled = loc
    for level in expansion.chain():
        notes.append(Note(f"expanded from macro '{level.name}'", spelled))
        spelled = level.loc
    return Diagnostic(severity, message, spelled, notes, option)


def compile_error(diagnostics: list[Diagnostic], sources: SourceManager | None) -> CompileError:
    """The CompileError for a list of diagnostics: located at the first error, rendered in full
    (every diagnostic, then clang's "N errors generated." count)."""
    errors = [d for d in diagnostics if d.severity != "warning"]
    first = errors[0] if errors else diagnostics[0]
    text = "\n".join(d.render(sources) for d in diagnostics)
    n, w = len(errors), len(diagnostics) - len(errors)
    summary = f"{n} error{'s' if n != 1 else ''} generated."
    if w:
        summary = f"{w} warning{'s' if w != 1 else ''} and {summary}"
    text += "\n" + summary
    loc = first.loc
    if loc is None:
        return CompileError(first.message, rendered=text, diagnostics=diagnostics)
    return CompileError(first.message, loc.file, loc.line, loc.col,
                        sources.line_text(loc) if sources is not None else "",
                        diagnostics=diagnostics, rendered=text)
