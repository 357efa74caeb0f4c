"""Validator options: the SPIR-V §2.17 limits and the OpenCL 3.0 device features that gate
capabilities and scopes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ValidatorOptions:
    """What the validator assumes about limits and about the device.

    **Limits** (SPIR-V §2.17 "Universal Limits"). The spec gives minimum limits an implementation
    must support; a module that crosses one is rejected. Defaults are spirv-val's
    (``--max-struct-members`` etc.), which equal the spec's minimums.

    **OpenCL 3.0 device features** (OpenCL SPIR-V env §3 "NEW", the 3.0 optional-feature model).
    They only affect ``opencl3.0`` and ``opencl3.0embedded``; OpenCL 1.2–2.2 use the fixed
    per-version tables. The defaults describe what a full-profile OpenCL 3.0 CPU device commonly
    reports (Intel's CPU runtime, PoCL and spirvkit's own executor all do):

    * ``generic_address_space`` (CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) — True: gates
      ``GenericPointer`` and the Generic storage class.
    * ``pipes`` (CL_DEVICE_PIPE_SUPPORT) — False: most 3.0 devices leave pipes out.
    * ``device_enqueue`` (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) — False, for the same reason.
    * ``subgroups`` (CL_DEVICE_MAX_NUM_SUB_GROUPS ≠ 0) — True: gates ``Groups``/``SubgroupDispatch``
      and the Subgroup execution/memory scope.
    * ``work_group_collective_functions`` — True: gates ``Groups`` at Workgroup scope.
    * ``int64_atomics`` (cl_khr_int64_base/extended_atomics) — True: gates ``Int64Atomics``.
    * ``fp16`` (cl_khr_fp16) — True: spirvkit's executor implements half arithmetic; gates
      ``Float16``.
    * ``fp64`` (CL_DEVICE_DOUBLE_FP_CONFIG ≠ 0) — True: gates ``Float64``.
    * ``images`` (CL_DEVICE_IMAGE_SUPPORT) — True: gates ``ImageBasic`` and the image
      capabilities that come with it; ``read_write_images`` (MAX_READ_WRITE_IMAGE_ARGS ≠ 0) —
      True: gates ``ImageReadWrite``.
    * ``program_scope_global_variables`` (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE ≠ 0) — True: allows
      CrossWorkgroup variables at module scope.
    * ``atomic_scopes`` / ``atomic_orders`` (CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES) and
      ``fence_scopes`` / ``fence_orders`` (CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) — all scopes and
      orders a full-profile 3.0 device may report (the mandatory minimum is Relaxed + Workgroup).
    * ``extensions`` — the device's ``cl_khr_*`` extensions that enable more capabilities
      (digest §4 table), e.g. ``{"cl_khr_subgroup_ballot"}``; in every OpenCL env (none by
      default, so the 1.2-2.2 tables stay SPIRV-Tools' ones). In the 1.2-2.2 envs a ``cl_*``
      extension the module declares with OpExtension counts too for the environment's own rules
      (scopes, image writes, mipmaps, sub-group types), not for the capability tables.
    * ``spirv_versions`` — the SPIR-V versions the device accepts (CL_DEVICE_ILS_WITH_VERSION):
      1.0 to 1.6 by default, the versions spirvkit assembles and runs.
    * ``address_bits`` — 32 or 64 to require Physical32 or Physical64; None accepts either.
    * ``strict_opencl_version_rules`` — False: True adds the OLD document's cl_khr_int64 atomics
      rule (WorkgroupMemory semantics need scope Workgroup), which only the OLD text carries. The
      per-version scope and order rules are always checked (issue 20): OpenCL 1.2's atomic scope
      Device and order Relaxed, its barrier scope Workgroup and order SequentiallyConsistent, and on
      1.2 and 2.0 execution and memory scope Subgroup only with cl_khr_subgroups — in
      ``extensions`` or declared by the module with OpExtension (the OLD documents' way); it never
      widens 1.2 atomics.
    * ``allow_irreducible_control_flow`` — False: the OpenCL 3.0 env makes irreducible control
      flow implementation-defined, so a portable module avoids it; True accepts it (LLVM-based
      devices, spirvkit's executor included, run it).
    """

    # -- SPIR-V §2.17 limits -------------------------------------------------------------------
    max_string_length: int = 65535
    max_id_bound: int = 0x3FFFFF
    max_struct_members: int = 16383
    max_struct_depth: int = 255
    max_local_variables: int = 524287
    max_global_variables: int = 65535
    max_switch_branches: int = 16383
    max_function_args: int = 255
    max_control_flow_nesting_depth: int = 1023
    max_access_chain_indexes: int = 255
    max_execution_modes_per_entry_point: int = 255

    # -- OpenCL 3.0 device features --------------------------------------------------------------
    generic_address_space: bool = True
    pipes: bool = False
    device_enqueue: bool = False
    subgroups: bool = True
    work_group_collective_functions: bool = True
    int64_atomics: bool = True
    fp16: bool = True
    fp64: bool = True
    images: bool = True
    read_write_images: bool = True
    program_scope_global_variables: bool = True
    atomic_scopes: frozenset[str] = frozenset({"Workgroup", "Device", "CrossDevice", "Subgroup"})
    atomic_orders: frozenset[str] = frozenset({"Relaxed", "AcquireRelease", "SequentiallyConsistent"})
    fence_scopes: frozenset[str] = frozenset({"Invocation", "Workgroup", "Device", "CrossDevice", "Subgroup"})
    fence_orders: frozenset[str] = frozenset({"Relaxed", "AcquireRelease", "SequentiallyConsistent"})
    extensions: frozenset[str] = field(default_factory=frozenset)
    spirv_versions: tuple[tuple[int, int], ...] = ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6))
    address_bits: int | None = None
    allow_irreducible_control_flow: bool = False
    strict_opencl_version_rules: bool = False
