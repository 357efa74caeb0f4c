"""The binary interface between JIT'd kernels and the runtime that launches them.

Both sides are arrays of 64-bit words: the *launch context* (one per launch, shared by all
threads) and the *thread state* (one per worker thread, rewritten for every work-group the
thread runs). The field lists below are the single definition of both layouts; the code
generator indexes them by name and the runtime fills them through numpy views.
"""

from __future__ import annotations


def _layout(fields: list[tuple[str, int]]) -> dict[str, int]:
    offsets, at = {}, 0
    for name, count in fields:
        offsets[name] = at
        at += count
    offsets["_words"] = at
    return offsets


# Launch context: the NDRange, the argument block and the fault record.
CONTEXT = _layout([
    ("work_dim", 1),
    ("global_size", 3),
    ("global_offset", 3),
    ("enqueued_local_size", 3),
    ("num_groups", 3),
    ("total_groups", 1),
    ("group_chunk", 1),      # groups a thread takes per visit to the dispenser
    ("pad0", 8),             # the dispenser gets a cache line of its own (no false sharing)
    ("next_group", 1),       # work-group dispenser, advanced with an atomic add
    ("pad1", 7),
    ("args", 1),             # address of the argument block
    ("globals", 1),          # address of the program-scope variable block
    ("abort", 1),            # 0 running, 1 fault, 2 cancelled (timeout, Ctrl-C)
    ("regions", 1),          # address of the region table: (base, end) pairs
    ("region_count", 1),
    # The first fault wins and fills these:
    ("fault_site", 1),       # index into the kernel's site table (instruction, kind)
    ("fault_global_id", 3),
    ("fault_address", 1),
    ("fault_base", 1),
    ("fault_end", 1),
    ("fault_size", 1),
    ("fault_group", 1),      # linear id of the group whose flag was found set (checked mode)
    # printf (kernels with printf call sites; see runtime/printf.py):
    ("printf_buffer", 1),    # address of the record buffer
    ("printf_capacity", 1),  # its size in bytes
    ("printf_used", 1),      # bytes reserved so far (atomic add; may pass the capacity)
    ("printf_dropped", 1),   # calls whose record did not fit (they returned -1)
])

# Thread state: what changes from one work-group to the next.
THREAD = _layout([
    ("group_id", 3),
    ("local_size", 3),       # this group's size (smaller than enqueued for a last, partial group)
    ("local_base", 1),       # this thread's local-memory block
    ("local_bytes", 1),
    ("frames", 1),           # arena for the work-items' coroutine frames (kernels with barriers)
    ("frame_bytes", 1),      # the stride of one frame in that arena
    ("frame_need", 1),       # written by the frame-size probe
    ("fault_flag", 1),       # set by checked code on an out-of-bounds access
])

# Abort codes written to CONTEXT["abort"].
ABORT_NONE, ABORT_FAULT, ABORT_CANCEL = 0, 1, 2
