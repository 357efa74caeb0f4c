"""What the two text targets (asm, clc) share: a source cut into tokens, and where the words are."""

from __future__ import annotations


def pick(rng, corpus: list[str], pattern) -> tuple[list[str], list[int]]:
    """The tokens of one corpus text (whitespace kept, so that they join back into the text),
    and the indexes of those that are not whitespace: the ones a mutation picks."""
    toks = pattern.findall(rng.choice(corpus))
    return toks, [i for i, t in enumerate(toks) if not t.isspace()]
