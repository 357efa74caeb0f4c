"""The ``exec`` target: mutants of the valid kernel modules of tests/data/kernels that the
validator still accepts, each kernel launched in checked mode (a third of the launches with every
dynamic check, ``checks="all"``) over a small NDRange with small arguments and a timeout. Every buffer sits between guard bytes: a launch (finished or stopped by
a fault) that changed one wrote outside the buffers it was given (a ``guard`` finding). A launch
that changed a buffer bound to a parameter jit/written_params.py says the kernel never writes
through is a ``mismatch``: the races check would have left that buffer unchecked."""

from __future__ import annotations

import random
import warnings
import zlib
from pathlib import Path

from . import binary
from .binary import INTERESTING, instruction_starts, mutate_words, to_bytes, words_of

split, join = binary.split, binary.join   # the driver's shrinker deletes words, as for binaries

DATA = Path(__file__).resolve().parents[1] / "data"
TIMEOUT = 60.0
SUFFIX = ".spv"
GUARD = 256          # guard bytes on each side of a buffer
PATTERN = 0xA5
ENV = "opencl2.2"

OP_CONSTANT = 43
# Opcodes that take the same operands and types: a mutant that swaps them stays valid.
FAMILIES = ((128, 130, 132, 134, 135, 137, 138, 139, 194, 195, 196, 197, 198, 199),   # integer arithmetic
            (129, 131, 133, 136, 140, 141),                                          # float arithmetic
            (170, 171, 172, 173, 174, 175, 176, 177, 178, 179),                      # integer comparisons
            (180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191))            # float comparisons
_FAMILY = {op: fam for fam in FAMILIES for op in fam}


def corpus() -> list[bytes]:
    import spirvkit

    out = []
    for p in sorted((DATA / "kernels").glob("*.spv")):
        data = p.read_bytes()
        if not spirvkit.validate(data, target_env=ENV):
            out.append(data)
    return out


def _mutant(rng, words: list[int]) -> list[int]:
    words = list(words)
    starts = instruction_starts(words)
    for _ in range(rng.choice((1, 1, 2, 3))):
        op = rng.randrange(4)
        if op == 0:   # a constant's value
            # (a word mutation may have left the last instruction's word count past the end)
            consts = [s for s in starts if words[s] & 0xFFFF == OP_CONSTANT and words[s] >> 16 >= 4
                      and s + 3 < len(words)]
            if consts:
                s = rng.choice(consts)
                words[s + 3] = rng.choice(INTERESTING) if rng.random() < 0.7 else rng.randrange(1 << 32)
        elif op == 1:   # an operation of the same family
            ops = [s for s in starts if words[s] & 0xFFFF in _FAMILY]
            if ops:
                s = rng.choice(ops)
                words[s] = (words[s] & 0xFFFF0000) | rng.choice(_FAMILY[words[s] & 0xFFFF])
        elif op == 2:   # an operand id replaced by another of the same instruction family's ids
            ops = [s for s in starts if (words[s] >> 16) >= 4 and s + (words[s] >> 16) <= len(words)]
            if ops:
                s = rng.choice(ops)
                donor = rng.choice(ops)
                k = rng.randrange(3, words[s] >> 16)
                words[s + k] = words[donor + rng.randrange(1, words[donor] >> 16)]
        else:
            words = mutate_words(rng, words)
            starts = instruction_starts(words)
    return words


def mutate(rng, corpus: list[bytes]) -> bytes | None:
    """A mutant the validator accepts (None after a few tries: the driver asks again)."""
    import spirvkit

    base = words_of(rng.choice(corpus))
    for _ in range(20):
        data = to_bytes(_mutant(rng, base))
        try:
            if not spirvkit.validate(data, target_env=ENV):
                return data
        except Exception:   # noqa: BLE001 - the validator's own failures are the binary target's
            pass
    return None


def _arguments(program, kernel, rng):
    import numpy as np

    import spirvkit

    types = program.types
    fn = kernel._spv_fn
    params = types[fn.function_type].params
    args, guarded = [], []
    for index, (info, t) in enumerate(zip(kernel.args, params)):
        if info.address_space in ("global", "constant", "generic"):
            nbytes = 64 * max(4, min(info.size or 4, 64))
            raw = np.full(nbytes + 2 * GUARD + 64, PATTERN, np.uint8)
            at = (-raw.ctypes.data) % 64 + GUARD
            view = raw[at: at + nbytes]
            view[:] = np.frombuffer(rng.randbytes(nbytes), np.uint8) & 0x0F
            args.append(view)
            guarded.append((raw, at, nbytes, index, view.copy()))
        elif info.address_space == "local":
            args.append(spirvkit.LocalMemory(256))
        else:
            if t.kind == "pointer" and t.storage == "Function":   # a struct passed by value
                t = t.elem
            args.append(_value(t, types, rng))
    return args, guarded


def _value(t, types, rng):
    import numpy as np

    if t.kind == "int":
        return rng.randrange(0, 8)
    if t.kind == "float":
        return rng.choice((0.0, 1.5, -2.0))
    if t.kind == "bool":
        return True
    if t.kind == "vector":
        return np.ones(t.count, {"float": np.float32, "int": np.int32}.get(t.elem.kind, np.int32))
    if t.kind == "struct":
        return np.zeros(1, [("b", np.uint8, (types.size(t),))])[0]
    return np.zeros(max(1, types.size(t)), np.uint8)


def execute(data: bytes) -> tuple[str, str]:
    import spirvkit

    if spirvkit.validate(data, target_env=ENV):
        # Only valid modules are this target's inputs: the shrinker must keep them valid too.
        return "error", "the validator rejects the module"
    from spirvkit.jit.written_params import written_parameters

    program = spirvkit.Program(data)
    rng = random.Random(zlib.crc32(data))
    outcome = ("ok", "")
    for name in program.kernel_names[:3]:
        kernel = program.kernel(name)
        args, guarded = _arguments(program, kernel, rng)
        local = rng.choice((None, None, 1, 4, 8))
        # A third of the launches also run every dynamic check (races, uninitialized, events ...):
        # their instrumentation must survive the same hostile modules.
        checks = rng.choice((None, None, "all"))
        try:
            with warnings.catch_warnings():   # a full printf buffer warns: not a finding
                warnings.simplefilter("ignore")
                kernel(16, local, *args, timeout=2.0, printf=[], checks=checks, report=checks is not None)
        except spirvkit.SpirvkitError as exc:
            outcome = ("error", f"{type(exc).__name__}: {str(exc)[:200]}")
        finally:
            for raw, at, nbytes, _, _ in guarded:
                if (raw[:at] != PATTERN).any() or (raw[at + nbytes:] != PATTERN).any():
                    return "guard", f"kernel {name!r} wrote outside a {nbytes}-byte buffer"
        written = written_parameters(program.module, kernel._spv_fn)
        for raw, at, nbytes, index, before in guarded:
            if written is not None and index not in written and (raw[at: at + nbytes] != before).any():
                return "mismatch", (f"kernel {name!r} wrote through parameter {index}, which "
                                    f"written_parameters says it never writes through")
    return outcome
