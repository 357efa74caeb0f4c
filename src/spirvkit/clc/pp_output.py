"""``-E`` text: preprocessed tokens laid out on their source lines, as clang prints them.

Each token that started a line in the file starts a line in the output, indented to its
column; short gaps are filled with blank lines, longer ones (and file changes) with
``# LINE "FILE" FLAGS`` markers (flag 1: entering an include, 2: returning). Adjacent tokens
that would lex as one (``+`` ``+`` from ``+EMPTY+``) get a space between them, as clang does.
"""

from __future__ import annotations

from .source import expansion_location
from .tokens import PRAGMA, lex_fragment

_MAX_BLANK_LINES = 8  # clang's threshold for blank lines vs. a line marker


def _needs_space(prev, tok) -> bool:
    text = prev.text + tok.text
    toks = lex_fragment(text, tok.loc)
    return not toks or toks[0].text != prev.text or toks[0].has_space


def tokens_to_text(tokens, markers, main_file: str) -> str:
    """The text of ``tokens``; ``markers`` (from Preprocessor.line_markers) adds line markers,
    None gives ``-E -P`` output."""
    out: list[str] = []
    line: list[str] = []
    use_markers = markers is not None
    markers = markers or []
    cur_file = main_file
    cur_line = 0  # the source line of the output line last written
    mi = 0
    prev = None

    def flush():
        if line:
            out.append("".join(line) + "\n")
            line.clear()

    for i, tok in enumerate(tokens):
        while mi < len(markers) and markers[mi][0] <= i:
            _, flag, file, number = markers[mi]
            mi += 1
            flush()
            if use_markers:
                out.append(f'# {number} "{file}"' + (f" {flag}" if flag else "") + "\n")
            cur_file, cur_line = file, number - 1
            prev = None
        where = expansion_location(tok.loc, tok.expansion)
        if tok.at_bol or prev is None or tok.kind == PRAGMA:
            flush()
            target = where.line
            if target > cur_line + 1 and (target - cur_line - 1 <= _MAX_BLANK_LINES or not use_markers):
                out.append("\n" * (target - cur_line - 1))
            elif target != cur_line + 1 and use_markers:
                out.append(f'# {target} "{cur_file}"\n')
            cur_line = target
            if tok.kind == PRAGMA:
                out.append(f"#pragma {tok.text}\n")
                prev = None
                continue
            line.append(" " * (where.col - 1) if tok.at_bol else "")
        elif tok.has_space or _needs_space(prev, tok):
            line.append(" ")
        line.append(tok.text)
        prev = tok
    flush()
    return "".join(out)
