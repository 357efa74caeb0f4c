"""The dynamic checks of a launch, host side: which checks a launch asks for, their state while
it runs (the findings table, the read-only regions) and the findings it reports.

The JIT'd side is jit/check_passes.py (and one jit/check_*.py module per check); the table
layouts (CHECK_STATE, FINDING) are defined there, once.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import KernelArgumentError, NotSupportedError
from ..jit.abi import CONTEXT, THREAD
from ..jit.check_passes import (CHECK_NAMES, CHECK_STATE, FINDING, IMPLEMENTED, NOT_READ_ONLY, mode_checks)
from .args import bases_bound_only_to
from .race_shadow import RaceShadow, other_side, other_work_item

_SPACE_NAMES = {"CrossWorkgroup": "global", "UniformConstant": "constant", "Workgroup": "local", "Generic": "generic"}
# A site's kind -> (the check that reports it, what it found).
_SITE_KINDS = {
    "null dereference": ("pointers", "null dereference"),
    "misaligned": ("pointers", "misaligned access"),
    "read-only write": ("access", "write to read-only memory"),
    "write-only read": ("access", "read from write-only memory"),
    "barrier": ("barriers", "barrier divergence"),
    "barrier arguments": ("barriers", "barrier divergence"),
    "uninitialized branch": ("uninitialized", "uninitialized value used in a branch"),
    "uninitialized select": ("uninitialized", "uninitialized value used in a select"),
    "uninitialized address": ("uninitialized", "uninitialized value used as an address"),
    "uninitialized store": ("uninitialized", "uninitialized value stored to global memory"),
    "uninitialized argument": ("uninitialized", "uninitialized value passed to printf"),
    "data race": ("races", "data race"),
    "unwaited event": ("events", "async copy never waited for"),
    "invalid event": ("events", "wait for an invalid event"),
}


def launch_checks(checks, unchecked: bool) -> frozenset:
    """The checks a launch's ``checks=`` asks for, beyond bounds (which every checked launch
    has): None (default: bounds only), "all", a name, or an iterable of names."""
    if checks is None:
        return frozenset()
    if isinstance(checks, str):
        # "all": every check implemented so far (the README lists them).
        names = set(IMPLEMENTED) if checks.strip().lower() == "all" else {c.strip() for c in checks.split(",")}
    else:
        try:
            names = set(checks)
        except TypeError:
            raise KernelArgumentError(f"checks must be 'all', a check name or a set of them, "
                                      f"not {type(checks).__name__}") from None
    unknown = sorted(str(n) for n in names if n not in CHECK_NAMES)
    if unknown:
        raise KernelArgumentError(f"unknown check(s) {', '.join(map(repr, unknown))}; the checks are "
                                  f"{', '.join(CHECK_NAMES)} (or 'all')")
    for name in CHECK_NAMES:    # in a fixed order: the first one missing is named
        if name in names and name not in IMPLEMENTED:
            raise NotSupportedError(f"the {name} check")
    if unchecked and names:
        raise KernelArgumentError(f"unchecked=True runs no checks at all; it conflicts with checks="
                                  f"{', '.join(sorted(names))} (drop one of them)")
    return frozenset(names - {"bounds"})


@dataclass
class Finding:
    """One problem the dynamic checks found, deduplicated per (kind, instruction)."""

    kind: str                       # the check: 'bounds', 'races', 'barriers', 'access', 'pointers'
    what: str                       # e.g. 'null dereference', 'barrier divergence'
    kernel: str
    global_id: tuple | None         # the first work-item that did it
    message: str                    # the details, in words
    instruction: str                # e.g. 'OpStore at word 123 in function f'
    location: str | None = None     # 'file:line:col' (OpLine) when the module has it
    space: str | None = None        # 'global', 'constant', 'local', 'private'
    argument: str | None = None     # the kernel argument the memory belongs to
    offset: int | None = None       # byte offset in that memory
    size: int = 0                   # bytes accessed
    other_global_id: tuple | None = None   # barriers: a work-item that went elsewhere; races: the other side
    count: int = 1                  # how many times it happened (work-items x iterations)

    def summary(self) -> str:
        where = f"{self.location}: " if self.location else ""
        times = f" ({self.count} times)" if self.count > 1 else ""
        who = f"work-item {self.global_id}: " if self.global_id is not None and self.kind != "barriers" else ""
        return f"{where}[{self.kind}] {self.what}: {who}{self.message}{times}"

    def render(self, sources: dict | None = None) -> str:
        """clang-style: ``file:line:col: error: ...``, the source line, a caret, then notes."""
        head = f"{self.location}: error:" if self.location else f"kernel '{self.kernel}': error:"
        who = f", work-item {self.global_id}" if self.global_id is not None else ""
        lines = [f"{head} {self.what} in kernel '{self.kernel}'{who} [check: {self.kind}]", f"  {self.message}"]
        source = _source_line(self.location, sources)
        if source is not None:
            text, column = source
            caret = "".join(c if c == "\t" else " " for c in text[: column - 1]) + "^"
            lines[1:1] = [text, caret]
        note = f"note: instruction {self.instruction}"
        if self.count > 1:
            note += f"; it happened {self.count} times"
        lines.append(note)
        return "\n".join(lines)


def _source_line(location: str | None, sources: dict | None):
    if not location:
        return None
    path, _, rest = location.rpartition(":")
    path, _, line = path.rpartition(":")
    try:
        line_no, column = int(line), int(rest)
    except ValueError:
        return None
    text = (sources or {}).get(path)
    if text is None:
        try:
            text = Path(path).read_text(errors="replace")
        except OSError:
            return None
    all_lines = text.splitlines()
    if not 1 <= line_no <= len(all_lines):
        return None
    return all_lines[line_no - 1], max(column, 1)


def _store_only_bases(compiled, bound) -> frozenset:
    """The bases of the buffers bound only to parameters the kernel only stores to (their race
    records are compact: jit/check_races.py)."""
    store_only = set(compiled.store_only)
    return bases_bound_only_to(bound.read_only + bound.buffers, lambda index, _base: index in store_only)


class CheckState:
    """The check state of one launch of a kernel built with checks beyond bounds."""

    def __init__(self, compiled, bound):
        self.sites = compiled.sites
        self.findings = np.zeros((max(len(self.sites), 1), FINDING["_words"]), np.int64)
        self.read_only = np.full(max(len(compiled.slots), 1), NOT_READ_ONLY, np.int64)
        for index, base in bound.read_only:
            self.read_only[index] = base
        self.words = np.zeros(CHECK_STATE["_words"], np.int64)
        self.words[CHECK_STATE["findings"]] = self.findings.ctypes.data
        self.words[CHECK_STATE["capacity"]] = len(self.sites)
        self.words[CHECK_STATE["read_only"]] = self.read_only.ctypes.data
        self.write_only = np.full(max(len(compiled.slots), 1), NOT_READ_ONLY, np.int64)
        for index, base in bound.write_only:
            self.write_only[index] = base
        # (0 when nothing is write-only: the access check then skips its tests of reads)
        self.words[CHECK_STATE["write_only"]] = self.write_only.ctypes.data if bound.write_only else 0
        if "uninitialized" in mode_checks(compiled.mode)[1]:   # (first: it doubles the local block)
            self._uninitialized(compiled, bound)
        self.races = (RaceShadow(bound.local_bytes - bound.local_shadow, bound.race_free, bound.unwritten,
                                 _store_only_bases(compiled, bound))   # (local: not the uninitialized shadow)
                      if "races" in mode_checks(compiled.mode)[1] else None)
        self.sizes = None

    def _uninitialized(self, compiled, bound) -> None:
        """The uninitialized check's state (jit/check_uninit.py): the marked buffers' bases, a
        fresh salt for local memory's tags, and the local block doubled (its second half is
        local memory's shadow), once per bound launch."""
        self.uninit = np.full(max(len(compiled.slots), 1), NOT_READ_ONLY, np.int64)
        for index, base in bound.uninit:
            self.uninit[index] = base
        self.words[CHECK_STATE["uninit"]] = self.uninit.ctypes.data
        self.words[CHECK_STATE["salt"]] = next(_SALTS) % 254
        if not bound.local_shadow and bound.local_bytes:
            bound.local_shadow = bound.local_bytes
            bound.local_bytes *= 2

    def attach(self, ctx: np.ndarray) -> None:
        ctx[CONTEXT["checks"]] = self.words.ctypes.data
        if self.races is not None:   # its shadows cover the regions the context lists
            self.words[CHECK_STATE["races"]] = self.races.attach(ctx)
        # The NDRange, to name a race's other work-item from its record (race_shadow.py).
        self.sizes = {key: [int(v) for v in ctx[CONTEXT[field]: CONTEXT[field] + 3]]
                      for key, field in (("local", "enqueued_local_size"), ("groups", "num_groups"),
                                         ("offset", "global_offset"))}

    def collect(self, name: str, bound, regions, scratch, compiled) -> list[Finding]:
        """The findings recorded, one per (kind, instruction): an instruction lowered more than
        once (reachable from several barrier regions, a helper inlined at several calls) has a
        site per copy, whose counts add up."""
        merged: dict[tuple, Finding] = {}
        for index in np.nonzero(self.findings[:, FINDING["count"]])[0]:
            site = self.sites[index]
            key = (site.kind, site.opname, site.word_offset, site.function)
            found = _finding(name, self.sites, self.findings[index], site, bound, regions, scratch, compiled,
                             self.sizes)
            if key in merged:
                merged[key].count += found.count
            else:
                merged[key] = found
        return list(merged.values())


def has_checks(compiled) -> bool:
    return bool(mode_checks(compiled.mode)[1])


def _word(record, name: str, count: int = 1):
    at = FINDING[name]
    values = [int(v) for v in record[at: at + count]]
    return values[0] if count == 1 else tuple(values)


def _instruction(site) -> str:
    return f"{site.opname} at word {site.word_offset} in function {site.function}"


def _finding(name: str, sites, record, site, bound, regions, scratch, compiled, sizes=None) -> Finding:
    kind, what = _SITE_KINDS.get(site.kind, ("checks", site.kind))
    gid = _word(record, "global_id", 3)
    count = _word(record, "count")
    unsigned = [int(np.uint64(record[FINDING[k]])) for k in ("address", "base", "end")]
    addr, base, end = unsigned
    size = _word(record, "size")
    common = dict(kind=kind, what=what, kernel=name, global_id=gid, instruction=_instruction(site),
                  location=site.line, count=count)
    if kind == "barriers":
        other_site = _word(record, "detail")
        other = _word(record, "other_id", 3)
        what_here = "barrier" if site.opname == "OpControlBarrier" else f"work-group function ({site.opname})"
        if site.kind == "barrier arguments":
            return Finding(message=f"work-item {gid} and work-item {other} of the same work-group pass "
                                   f"different arguments to this {what_here}: every work-item of the group "
                                   f"must pass the same", other_global_id=other, **common)
        if other_site < 0:
            elsewhere = f"work-item {other} of the same work-group has returned from the kernel"
        else:
            there = sites[other_site]
            place = f" at {there.line}" if there.line else ""
            elsewhere = f"work-item {other} of the same work-group waits at another {what_here.split(' (')[0]}" \
                        f"{place} ({_instruction(there)})"
        return Finding(message=f"work-item {gid} waits at this {what_here} while {elsewhere}: not every "
                               f"work-item of the group reaches it the same number of times",
                       other_global_id=other, **common)
    if kind == "events":
        from ..jit.check_events import MESSAGES
        return Finding(message=MESSAGES[site.kind], **common)
    if what == "null dereference":
        verb = _verb(site.kind, site.opname)
        return Finding(message=f"{verb} of {size} byte(s) through a NULL pointer (address {addr:#x})",
                       offset=addr, size=size, space=None, **common)
    if kind == "uninitialized":
        return _uninitialized_finding(site, addr, base, end, size, regions, bound, scratch, compiled, common)
    space, argument = _memory(base, end, regions, bound, scratch, compiled)
    offset = addr - base
    verb = _verb(site.kind, site.opname)
    if kind == "races":
        return _race(record, verb, size, offset, argument, space, sizes, common)
    if what == "misaligned access":
        align = _word(record, "detail")
        message = (f"{verb} of {size} byte(s) at address {addr:#x} (byte offset {offset} of {argument}), "
                   f"which is not aligned to the {align} bytes its type needs"
                   + ("; it was not done" if site.opname.startswith("OpAtomic") else "; it was done, unaligned"))
    elif site.kind == "write-only read":
        message = (f"{verb} of {size} byte(s) at byte offset {offset} of {argument}, which the host declared "
                   f"write-only (the read was done)")
    else:
        message = f"{verb} of {size} byte(s) at byte offset {offset} of {argument}, which the kernel may not write"
    return Finding(message=message, space=space, argument=argument, offset=offset, size=size, **common)


def _race(record, verb: str, size: int, offset: int, argument: str, space, sizes, common) -> Finding:
    """A data race: this access, and the recorded access of another work-item it conflicts with."""
    other_record = int(np.uint64(record[FINDING["detail"]]))
    other = other_work_item(other_record, sizes) if sizes else None
    gid = common["global_id"]
    same_group = other is not None and all(
        o // n == g // n for o, g, n in zip(_zero_based(other, sizes), _zero_based(gid, sizes), sizes["local"]))
    them, how, other = other_side(other_record, other, same_group, sizes)
    message = (f"{verb} of {size} byte(s) at byte offset {offset} of {argument} conflicts with {them}, "
               f"{how}")
    return Finding(message=message, space=space, argument=argument, offset=offset, size=size,
                   other_global_id=other, **common)


def _zero_based(gid, sizes):
    return [g - o for g, o in zip(gid, sizes["offset"])]


def _uninitialized_finding(site, addr, base, end, size, regions, bound, scratch, compiled, common) -> Finding:
    """A use of a value (partly) read from memory never written."""
    uses = {"uninitialized branch": "decides a branch", "uninitialized select": "decides a select",
            "uninitialized address": "is used as an address or index (of this access)",
            "uninitialized argument": "is printed by printf"}
    if site.kind == "uninitialized store":
        space, argument = _memory(base, end, regions, bound, scratch, compiled)
        offset = addr - base
        message = (f"a write of {size} byte(s) at byte offset {offset} of {argument} stores a value read "
                   f"from memory that was never written")
        return Finding(message=message, space=space, argument=argument, offset=offset, size=size, **common)
    message = f"a value read from memory that was never written (or derived from one) {uses[site.kind]}"
    return Finding(message=message, **common)


_SALTS = itertools.count(int.from_bytes(os.urandom(2), "little"))


def _verb(kind: str, opname: str) -> str:
    if opname == "OpLoad":
        return "a read"
    if opname.startswith("OpAtomic"):
        return "an atomic access"
    if opname.startswith("OpCopy"):
        return "a copy"
    if opname == "OpGroupAsyncCopy":
        return "an async work-group copy"
    return "a write" if opname == "OpStore" or kind == "read-only write" else "an access"


def _memory(base: int, end: int, regions, bound, scratch, compiled) -> tuple[str | None, str]:
    """(memory space, what it is in the user's terms) of the region [base, end)."""
    for index, region_base in bound.read_only + bound.buffers:
        if region_base == base and base:
            slot = compiled.slots[index]
            space = _SPACE_NAMES.get(slot.storage, slot.storage)
            return space, f"argument {index} ('{slot.name}', __{space})"
    for b, e, description in regions:
        if b == base and e == end:
            return "global", description
    for s in scratch:
        local = int(s["ts"][THREAD["local_base"]])
        if local <= base < local + bound.local_bytes:
            for offset, _size, description in bound.local_args:
                if local + offset == base:
                    return "local", description
            return "local", "a __local variable"
    return "private", "a private variable"


def _article(words: str) -> str:
    return "an" if words[:1] in "aeiou" else "a"


def fault_finding(fault) -> Finding:
    """A bounds fault (KernelFault) as a finding, when it comes with other checks' findings."""
    site = fault.site
    head, _, _ = str(fault).partition("\n")
    what, _, detail = head.partition(" in kernel ")     # 'out-of-bounds write', '... id (x, y, z): detail'
    detail = detail.split(": ", 1)[1] if ": " in detail else detail
    return Finding(kind="bounds", what=what, kernel=fault.kernel, global_id=fault.global_id,
                   message=f"{_article(what)} {what} {detail}; the launch stopped there",
                   instruction=_instruction(site) if site else "unknown (not reproduced)",
                   location=site.line if site else None, argument=fault.buffer or None,
                   offset=fault.offset if fault.offset >= 0 else None, size=fault.size)
