"""What a launch's images and samplers fix at compile time.

A kernel is compiled for the formats of the images and the samplers it is launched with, one
build per combination (cached as the others are): each image's format words
(``jit.abi.IMAGE_FORMAT``) and each sampler argument's sampler_t bits become constants, so a
read or a write is straight-line code for its format, inlined where it is used, and a sampled
read's addressing and filter choices fold away. Sizes, pitches and the texel address stay
run-time words of the descriptor: one build serves every image of the format.

The runtime describes a launch by its *key*, a tuple of entries ``(argument index, "image",
format words)`` and ``(argument index, "sampler", bits)`` (``runtime.images.launch_key``).

Images reach instructions as SSA values of their image type (they cannot be stored in memory),
so an instruction finds its image's format through the type: a format is fixed for an image
type when every image parameter of the kernel with that type has it. Two parameters of one type
with different formats leave that type's code generic: it reads the format from the
descriptor at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from .abi import IMAGE_FORMAT


@dataclass(frozen=True)
class FixedFormat:
    """An image format known at compile time: its descriptor's format words."""

    words: tuple[int, ...]   # in IMAGE_FORMAT order

    def word(self, name: str) -> int:
        return self.words[IMAGE_FORMAT.index(name)]

    @property
    def tag(self) -> str:
        """A name part for the routines specialised to this format (type and order decide the rest)."""
        return f"t{self.word('channel_type')}o{self.word('channel_order')}"


class LaunchImages:
    """The formats and sampler bits one compilation fixes (see the module doc)."""

    def __init__(self, key, param_types: list):
        self.sampler_bits: dict[int, int] = {}     # parameter index -> sampler_t bits
        self.formats: dict[int, FixedFormat] = {}  # image type id -> its format
        mixed: set[int] = set()
        for index, kind, value in key or ():
            if index >= len(param_types):
                continue   # more arguments than parameters: the launch refuses them
            t = param_types[index]
            if kind == "sampler" and t.kind == "sampler":
                self.sampler_bits[index] = int(value)
            elif kind == "image" and t.kind == "image":
                fmt = FixedFormat(tuple(int(v) for v in value))
                if self.formats.setdefault(t.id, fmt) != fmt:
                    mixed.add(t.id)
        for type_id in mixed:
            del self.formats[type_id]

    def format_of(self, t) -> FixedFormat | None:
        """The fixed format of images of type ``t`` (an image or sampled image type), if any."""
        if t.kind == "sampled_image":
            t = t.elem
        return self.formats.get(t.id)
