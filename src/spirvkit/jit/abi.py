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
    # Sub-groups: work-items of consecutive local linear ids, this many to a sub-group (the
    # last of a group may have fewer); the enqueued work-group size gives one per group.
    ("sub_group_size", 1),
    # Device-side enqueue (jit/ops_enqueue.py, runtime/device_queue.py): the address of the
    # device queue's descriptor (DEVICE_QUEUE; 0: the launch has none), and the sub-group size
    # the host asked for (0: one sub-group per work-group), which child launches inherit.
    ("device_queue", 1),
    ("sub_group_config", 1),
    # Dynamic checks beyond bounds (jit/check_passes.py): the address of the launch's check
    # state (CHECK_STATE there: the findings table, the read-only regions); 0 without them.
    ("checks", 1),
])

# Thread state: what changes from one work-group to the next.
THREAD = _layout([
    ("group_id", 3),
    ("local_size", 3),       # this group's size (smaller than enqueued for a last, partial group)
    ("local_base", 1),       # this thread's local-memory block
    ("local_bytes", 1),
    ("frames", 1),           # arena for the work-items' records between regions (region kernels)
    ("frame_bytes", 1),      # the stride of one frame in that arena
    ("fault_flag", 1),       # set by checked code on an out-of-bounds access
    ("check_races", 1),      # the races check (check_races.py): this thread's block, claimed lazily
])

# Abort codes written to CONTEXT["abort"].
ABORT_NONE, ABORT_FAULT, ABORT_CANCEL = 0, 1, 2

# Image descriptor: what an image kernel argument points to (runtime/images.py fills it). The
# image's size is (width, height, depth) in texels, with the layers of an image array as its
# last size (height for 1D arrays is 1, depth their layer count), so one texel address formula
# serves every image type: data + x*elem_bytes + y*row_pitch + z*slice_pitch.
IMAGE = _layout([
    ("data", 1),             # address of the first texel
    ("data_end", 1),
    ("size", 3),             # width, height, depth (layers of an image array)
    ("elem_bytes", 1),
    ("row_pitch", 1),
    ("slice_pitch", 1),
    ("channel_type", 1),     # SPIR-V ImageChannelDataType value (OpImageQueryFormat)
    ("channel_order", 1),    # SPIR-V ImageChannelOrder value (OpImageQueryOrder)
    ("channels", 1),         # components stored per texel (1 for packed types)
    ("read_map", 1),         # byte k: the stored component read as r, g, b, a (4: 0, 5: 1)
    ("write_map", 1),        # byte c: the r, g, b, a component stored as component c (4: 0)
    ("border_alpha", 1),     # the border colour's alpha: 0 or 1 (its r, g, b are 0)
    ("srgb", 1),             # 1: an sRGB order (r, g, b stored non-linearly)
    # Vulkan images (vk/resources.py) with several mip levels or samples: the descriptor is one
    # block of these words per level (or per sample), level k's at word k * IMAGE["_words"].
    ("levels", 1),           # mip levels (1 for OpenCL images)
    ("samples", 1),          # samples per texel (1 unless multisampled)
])
# The descriptor words an image's format alone decides: a launch fixes them at compile time
# (jit/image_launch.py), so the kernel reads through straight-line code for that format.
IMAGE_FORMAT = ("elem_bytes", "channel_type", "channel_order", "channels", "read_map", "write_map",
                "border_alpha", "srgb")

# Sampler values, as OpenCL C spells them (CLK_* bits): what a sampler argument and an
# OpConstantSampler become in the lowered code.
SAMPLER_NORMALIZED = 0x1
SAMPLER_ADDRESS_SHIFT = 1    # (bits >> 1) & 7: SPIR-V SamplerAddressingMode (None 0 ... RepeatMirrored 4)
SAMPLER_LINEAR = 0x20
SAMPLER_NEAREST = 0x10
# Vulkan samplers (vk/resources.py) name their border colour: with SAMPLER_BORDER set, a border
# texel is (c, c, c, a) with c = 1 under SAMPLER_BORDER_WHITE and a = 1 under
# SAMPLER_BORDER_OPAQUE, in place of OpenCL's colour chosen by the image's channel order.
SAMPLER_BORDER = 0x100
SAMPLER_BORDER_OPAQUE = 0x200
SAMPLER_BORDER_WHITE = 0x400
# Vulkan sampler state beyond those (vk.Sampler.bits): the minification filter (the LINEAR /
# NEAREST bits above are the magnification filter), the mipmap mode, depth comparison with its
# VkCompareOp (bit 0: passes on less, bit 1: on equal, bit 2: on greater), and minLod / maxLod
# in unsigned 4.4 fixed point (1/16 of a level, Vulkan's usual mipLodPrecisionBits).
SAMPLER_MIN_LINEAR = 0x40
SAMPLER_MIPMAP_LINEAR = 0x80
SAMPLER_COMPARE = 0x800
SAMPLER_COMPARE_SHIFT = 12
SAMPLER_MIN_LOD_SHIFT = 15
SAMPLER_MAX_LOD_SHIFT = 23

# Pipe descriptor: what a pipe kernel argument points to (runtime/pipes.py fills it). The
# packets live in a ring of `capacity` slots. Four running counts (never wrapped) split it:
# read_done <= read_reserved <= write_done <= write_reserved. Slots in [write_done,
# write_reserved) are being written, [read_reserved, write_done) readable, [read_done,
# read_reserved) being read; a reservation is committed out of order by marking its slots in
# `committed` (one byte per slot), and a count advances over the marked slots in order, so
# packets become readable (or free) in the order they were reserved. Every change happens
# under `lock` (a spin lock: the work-groups of a launch run on several threads).
PIPE = _layout([
    ("lock", 1),
    ("packet_size", 1),
    ("capacity", 1),         # max_packets
    ("data", 1),             # address of slot 0 (slot k at data + k * packet_size)
    ("committed", 1),        # address of the per-slot commit marks
    ("read_done", 1),
    ("read_reserved", 1),
    ("write_done", 1),
    ("write_reserved", 1),
])
# A reservation (reserve_id_t): (first slot << 32) | packet count; this value when none was made.
INVALID_RESERVE_ID = (1 << 64) - 1

# Device queue descriptor (device-side enqueue): what get_default_queue returns the address of.
# A launch that may enqueue writes its commands as records into `arena` (a bump allocation with
# an atomic add on `arena_used`, which may pass the capacity: that enqueue fails as queue-full)
# and takes events from `free_events` (slot indices into the event table, handed out by an
# atomic add on `free_next`). The runtime reads both after the launch (runtime/device_queue.py).
DEVICE_QUEUE = _layout([
    ("arena", 1),            # address of this launch's record arena
    ("arena_capacity", 1),   # bytes the records may take (the room left in the queue)
    ("arena_used", 1),       # bytes reserved so far (atomic add; may pass the capacity)
    ("commands_left", 1),    # commands the host launch may still enqueue (atomic sub; signed)
    ("events", 1),           # address of the event table (EVENT slots)
    ("event_slots", 1),
    ("free_events", 1),      # address of the free slot indices (int64)
    ("free_count", 1),
    ("free_next", 1),        # atomic add: the next free index to take
    ("max_work_group_size", 1),
    ("local_mem_size", 1),
])
# One event (clk_event_t: the address of its slot; CLK_NULL_EVENT is all ones).
EVENT = _layout([
    ("live", 1),             # 1 while the slot is allocated (the runtime frees it)
    ("refs", 1),             # retain/release count (atomic)
    ("status", 1),           # CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or an error (< 0)
    ("kind", 1),             # EVENT_KERNEL, EVENT_MARKER or EVENT_USER
    ("profile", 1),          # address for capture_event_profiling_info (0: none asked)
    ("exec_time", 1),        # once complete: CL_PROFILING_COMMAND_END - START, in ns
    ("complete_time", 1),    # once complete: COMPLETE - START, in ns (0: not known yet)
    ("pad", 1),
])
EVENT_KERNEL, EVENT_MARKER, EVENT_USER = 1, 2, 3
# An event's status word: OpenCL's command execution status values (cl.h; OpenCL C passes
# CL_COMPLETE or an error to set_user_event_status), or a negative error code. The compiled
# code sets the first statuses (jit/ops_enqueue.py), the runtime the rest (runtime/device_queue.py).
CL_COMPLETE, CL_RUNNING, CL_SUBMITTED, CL_QUEUED = 0, 1, 2, 3
# A command record in the arena: these header words, then the wait list's event handles, the
# local-memory sizes and the block literal's bytes (padded to 8).
RECORD = _layout([
    ("kind", 1),             # RECORD_KERNEL, RECORD_MARKER or RECORD_END (no record from here on)
    ("bytes", 1),            # the whole record
    ("invoke", 1),           # the SPIR-V id of the Invoke function (kernels)
    ("flags", 1),
    ("num_events", 1),
    ("num_locals", 1),
    ("param_size", 1),
    ("event", 1),            # the returned event's handle (0: none)
    ("enqueuer", 3),         # global id of the work-item that enqueued it
    ("ndrange", 10),         # dims, offset[3], global[3], local[3] (local all 0: not given)
])
RECORD_KERNEL, RECORD_MARKER, RECORD_END = 1, 2, 0x7FFFFFFF

# Work-group sizes the compiled code and the host agree on. A kernel's preferred work-group size
# multiple: what get_kernel_preferred_work_group_size_multiple returns (jit/ops_enqueue.py) and
# spirvkit.cl reports as CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (cl/program.py).
PREFERRED_WORK_GROUP_SIZE_MULTIPLE = 8
# The most work-items of a group the host picks when a launch gives no local size
# (runtime/ndrange.py); a child launch whose ndrange gives none is picked the same way, and the
# sub-group queries of ops_enqueue.py compute that choice in the kernel.
PICKED_GROUP_ITEMS = 256
