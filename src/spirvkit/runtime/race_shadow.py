"""The races check's shadow memory for one launch (the JIT'd side and the record layout are in
jit/check_races.py).

Every global region of the launch (its buffers, program-scope variables: the region table the
launch context already holds) gets a shadow of one 64-bit record per 4-byte granule, twice
the region's bytes (a 32-bit one, as many bytes as the region, for a buffer bound only to
parameters the kernel only stores to: jit/check_races.py's compact records), zero-filled by
``np.zeros`` (the system hands out zero pages on first touch, so granules the kernel never
reaches cost no memory). Regions that overlap (views of
one array passed for two parameters) share one shadow, so that their accesses meet in the same
records. A buffer no work-item can write (bound only to parameters the kernel never writes
through, jit/written_params.py, or whose writes the access check stops) gets none: reads do not
race with reads, and its accesses find no shadow and record nothing. Each worker thread gets a
shadow of the work-group's local memory, the same way. A hash table maps a region's base address
to its shadow.
"""

from __future__ import annotations

import ctypes

import numpy as np

from ..jit.abi import CONTEXT
from ..jit.check_races import (AW_SHIFT, COPY_SHIFT, GA_SHIFT, GRANULE, GW_SHIFT, ITEM_BITS, ITEM_SHIFT,
                               OWN_FIELDS, PA_SHIFT, PW_SHIFT, RACE_STATE, SX_SHIFT, TABLE_ENTRY, THREAD_BLOCK,
                               table_slot)


def _granules(base: int, end: int) -> int:
    return ((end - 1) // GRANULE) - (base // GRANULE) + 1


def _delta(shadow: np.ndarray, base: int) -> int:
    """The TABLE_ENTRY delta: shadow of addr = delta + (addr >> 2) * record bytes (mod 2**64, as
    int64)."""
    value = (shadow.ctypes.data - (base // GRANULE) * shadow.itemsize) & ((1 << 64) - 1)
    return value - (1 << 64) if value >= 1 << 63 else value


class RaceShadow:
    """Allocated when the launch context is filled in (``attach``): it reads the region table."""

    def __init__(self, local_bytes: int, race_free: frozenset = frozenset(), unwritten: frozenset | None = None,
                 compact: frozenset = frozenset()):
        self.local_bytes = local_bytes   # the kernel's own local memory (not another check's shadow)
        self.race_free = race_free       # bases of the regions no work-item writes (args.py)
        self.compact = compact           # ... bound only to store-only parameters (compact records)
        self.unwritten = unwritten       # ... bound to parameters the kernel never writes through
        self.unwritten_free = False      # whether they all got no shadow (RACE_STATE's word)
        self.words = np.zeros(RACE_STATE["_words"], np.int64)
        self.shadows: list[np.ndarray] = []
        self.checked_bytes = 0       # bytes of the memory it shadows (global regions + local blocks)

    @property
    def shadow_bytes(self) -> int:
        return sum(s.nbytes for s in self.shadows) + self.table.nbytes + self.threads.nbytes

    def attach(self, ctx: np.ndarray) -> int:
        """Builds the shadows for the regions in ``ctx``; returns the address of the race state."""
        from .launch import worker_count

        count = int(ctx[CONTEXT["region_count"]])
        pairs = (ctypes.c_uint64 * (2 * count)).from_address(int(ctx[CONTEXT["regions"]])) if count else []
        regions: dict[int, int] = {}
        for k in range(count):
            base, end = int(pairs[2 * k]), int(pairs[2 * k + 1])
            if end > base > 0:
                regions[base] = max(end, regions.get(base, 0))
        entries, skipped = [], set()
        for members in _overlapping(regions):
            if all(base in self.race_free for base, _ in members):
                skipped.update(base for base, _ in members)
                continue
            start, stop = members[0][0], max(end for _, end in members)
            compact = all(base in self.compact for base, _ in members)
            shadow = np.zeros(_granules(start, stop), np.uint32 if compact else np.int64)
            self.shadows.append(shadow)
            self.checked_bytes += stop - start
            entries += [(base, end, _delta(shadow, start), int(compact)) for base, end in members]
        slots = 2
        while slots < 2 * len(entries):
            slots *= 2
        shift = 64 - slots.bit_length() + 1
        self.table = np.zeros((slots, TABLE_ENTRY["_words"]), np.int64)
        for entry in entries:
            slot = table_slot(entry[0], shift)
            while self.table[slot, TABLE_ENTRY["base"]] != 0:
                slot = (slot + 1) & (slots - 1)
            self.table[slot] = entry
        threads = worker_count() + 1
        self.threads = np.zeros((threads, THREAD_BLOCK["_words"]), np.int64)
        # The local block starts 128-byte aligned: granule 0 of the shadow is its first word.
        stride = _granules(0, max(self.local_bytes, 1)) * 8
        local = np.zeros(stride * threads // 8, np.int64)
        self.shadows.append(local)
        self.checked_bytes += self.local_bytes * threads
        w = self.words
        w[RACE_STATE["table"]] = self.table.ctypes.data
        w[RACE_STATE["table_mask"]] = slots - 1
        w[RACE_STATE["table_shift"]] = shift
        w[RACE_STATE["thread_capacity"]] = threads
        w[RACE_STATE["threads"]] = self.threads.ctypes.data
        w[RACE_STATE["local_shadow"]] = local.ctypes.data
        w[RACE_STATE["local_stride"]] = stride
        w[RACE_STATE["local_limit"]] = self.local_bytes
        # (a buffer overlapping one that is written keeps its shadow, and its reads their checks)
        self.unwritten_free = self.unwritten is not None and self.unwritten <= skipped
        w[RACE_STATE["unwritten_free"]] = int(self.unwritten_free)
        return int(self.words.ctypes.data)


def _overlapping(regions: dict[int, int]) -> list[list[tuple[int, int]]]:
    """The regions ({base: end}) in groups of overlapping ones, each sorted by base."""
    groups: list[list[tuple[int, int]]] = []
    reach = 0
    for base, end in sorted(regions.items()):
        if groups and base < reach:
            groups[-1].append((base, end))
            reach = max(reach, end)
        else:
            groups.append([(base, end)])
            reach = end
    return groups


def other_work_item(record: int, ctx_sizes: dict) -> tuple | None:
    """The global id of the work-item a race record names (None when it names none: the other
    side was a read or an atomic write by some other work-item, see ``other_side``)."""
    if record & (OWN_FIELDS | (0xF << GA_SHIFT) | (0xF << GW_SHIFT)) == 0:
        return None
    flat = (record >> ITEM_SHIFT) & ((1 << ITEM_BITS) - 1)
    local = ctx_sizes["local"]
    items = local[0] * local[1] * local[2]
    group, item = divmod(flat, items)
    groups = ctx_sizes["groups"]
    g = (group % groups[0], group // groups[0] % groups[1], group // (groups[0] * groups[1]))
    lid = (item % local[0], item // local[0] % local[1], item // (local[0] * local[1]))
    return tuple(g[d] * local[d] + lid[d] + ctx_sizes["offset"][d] for d in range(3))


def other_side(record: int, other: tuple | None, same_group: bool, ctx_sizes: dict) -> tuple[str, str, tuple | None]:
    """(what the other side of a race did and who, how nothing orders them, the work-item to
    name) from the record a race finding carries (jit/check_races.py sets it: the conflicting
    record itself, its group's earlier accesses, or other work-items' reads or atomic write)."""
    if other is None:
        if record >> SX_SHIFT & 1:
            return "an atomic write by another work-item (its id was not kept)", "with nothing ordering them", None
        return "a read by another work-item (its id was not kept)", "with nothing ordering them", None
    if record & OWN_FIELDS == 0:      # its group's earlier accesses
        did = "a write" if record >> GW_SHIFT & 0xF else "a read"
        group = tuple((o - f) // n for o, f, n in zip(other, ctx_sizes["offset"], ctx_sizes["local"]))
        return (f"{did} by work-group {group}",
                "in another work-group (the group's barriers do not order other groups)", None)
    if record >> COPY_SHIFT & 1:   # the recorded side is a group's async copy
        return (f"the async work-group copy ({recorded_access(record)}) of the work-group of {other}",
                "before its event was waited for" if same_group else "in another work-group", None)
    return (f"{recorded_access(record)} by work-item {other}",
            "in the same work-group with no barrier between them" if same_group
            else "in another work-group (nothing orders work-groups within a launch)", other)


def recorded_access(record: int) -> str:
    """What the recorded side of a race did to the granule, in words."""
    plain, plain_wrote = (record >> PA_SHIFT) & 0xF, (record >> PW_SHIFT) & 0xF
    if plain_wrote:
        return "a write"
    if record >> AW_SHIFT & 1:
        return "an atomic write and a read" if plain else "an atomic write"
    return "a read" if plain else "an atomic read"
