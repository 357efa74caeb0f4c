"""The ``binary`` target: word-level mutants of the valid SPIR-V binaries of tests/data, read by
the disassembler and the validator (neither may raise anything but a clean SpirvError)."""

from __future__ import annotations

import struct
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
TIMEOUT = 20.0
SUFFIX = ".spv"

# Values that sit on the edges the decoder and the validator must check.
INTERESTING = (0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 255, 256, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
               0xFFFFFFFE, 0xFFFFFFFF, 0x3F800000, 0x7F800000, 0x7FC00000, 0x07230203, 1000000)
HEADER = 5


def corpus() -> list[bytes]:
    return [p.read_bytes() for p in sorted(DATA.rglob("*.spv")) if "invalid" not in p.parts]


def words_of(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data[: len(data) // 4 * 4]))


def to_bytes(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *(w & 0xFFFFFFFF for w in words))


def instruction_starts(words: list[int]) -> list[int]:
    """Where each instruction begins (as far as the word counts make sense)."""
    starts, at = [], HEADER
    while at < len(words):
        starts.append(at)
        count = (words[at] & 0xFFFFFFFF) >> 16
        if count == 0:
            break
        at += count
    return starts


def mutate_words(rng, words: list[int], other: list[int] | None = None) -> list[int]:
    """One to four word-level mutations; the header is spared most of the time."""
    words = list(words)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        if len(words) <= HEADER:
            break
        lo = 0 if rng.random() < 0.05 else HEADER
        i = rng.randrange(lo, len(words))
        starts = instruction_starts(words)
        op = rng.randrange(12)
        if op == 0:
            words[i] = rng.choice(INTERESTING)
        elif op == 1:
            words[i] ^= 1 << rng.randrange(32)
        elif op == 2:
            words[i] = (words[i] + rng.choice((-2, -1, 1, 2))) & 0xFFFFFFFF
        elif op == 3:   # another id of the module (ids are small numbers)
            words[i] = rng.randrange(1, max(2, words[3] if len(words) > 3 else 2) + 1)
        elif op == 4:
            del words[i]
        elif op == 5:
            words.insert(i, rng.choice(INTERESTING) if rng.random() < 0.5 else words[i])
        elif op == 6 and starts:   # an instruction's opcode
            s = rng.choice(starts)
            words[s] = (words[s] & 0xFFFF0000) | rng.randrange(0, 400 if rng.random() < 0.9 else 6200)
        elif op == 7 and starts:   # an instruction's word count
            s = rng.choice(starts)
            count = rng.choice((0, 1, 2, 3, 0xFFFF)) if rng.random() < 0.5 else (words[s] >> 16) + rng.choice((-1, 1))
            words[s] = (words[s] & 0xFFFF) | (count & 0xFFFF) << 16   # a count of 0 minus 1 wraps, as a word would
        elif op == 8 and len(starts) > 2:   # move an instruction elsewhere
            a = rng.randrange(len(starts) - 1)
            seg = words[starts[a]: starts[a + 1]]
            del words[starts[a]: starts[a + 1]]
            at = rng.randrange(HEADER, len(words) + 1)
            words[at:at] = seg
        elif op == 9 and len(starts) > 2:   # duplicate an instruction
            a = rng.randrange(len(starts) - 1)
            seg = words[starts[a]: starts[a + 1]]
            words[starts[a]:starts[a]] = seg
        elif op == 10 and other is not None:   # splice instructions of another module
            ostarts = instruction_starts(other)
            if len(ostarts) > 2:
                a = rng.randrange(len(ostarts) - 1)
                b = min(len(ostarts) - 1, a + rng.randrange(1, 4))
                seg = other[ostarts[a]: ostarts[b]]
                at = rng.choice(starts) if starts else HEADER
                words[at:at] = seg
        elif op == 11:   # truncate
            del words[rng.randrange(HEADER, len(words)):]
    return words


def mutate(rng, corpus: list[bytes]) -> bytes:
    words = words_of(rng.choice(corpus))
    other = words_of(rng.choice(corpus)) if rng.random() < 0.2 else None
    return to_bytes(mutate_words(rng, words, other))


def execute(data: bytes) -> tuple[str, str]:
    import spirvkit

    try:
        spirvkit.disassemble(data)
    except spirvkit.SpirvkitError as exc:
        return "error", f"{type(exc).__name__}: {str(exc)[:200]}"
    for env in ("opencl2.2", "vulkan1.2"):
        spirvkit.validate(data, target_env=env)
    return "ok", ""


def split(data: bytes) -> list:
    """The header as one unit (deleting part of it only finds header errors), then words."""
    words = words_of(data)
    return [tuple(words[:HEADER])] + [(w,) for w in words[HEADER:]]


def join(parts: list) -> bytes:
    return to_bytes([w for p in parts for w in p])
