"""Target environments: which SPIR-V versions each accepts and which capabilities it allows.

The capability sets per OpenCL version and profile come from the OpenCL SPIR-V environment
spec (digest-opencl-env.md §3: the OLD per-version tables for 1.2–2.2, the NEW feature-query
rules for 3.0); the Vulkan sets from the Vulkan environment appendix (digest-vulkan-env.md §2)
as SPIRV-Tools applies them. Which capability *enables* which is read from the grammar, never
from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .options import ValidatorOptions

Version = tuple[int, int]


@dataclass(frozen=True)
class TargetEnv:
    """One target environment: ``api`` is "universal", "opencl" or "vulkan"."""

    name: str
    api: str
    api_version: Version
    max_spirv: Version
    embedded: bool = False

    @property
    def is_opencl(self) -> bool:
        return self.api == "opencl"

    @property
    def is_vulkan(self) -> bool:
        return self.api == "vulkan"

    @property
    def profile(self) -> str:
        return "Embedded" if self.embedded else "Full"

    def describe(self) -> str:
        """As spirv-val names the env in its version message."""
        spv = "SPIR-V %d.%d" % self.max_spirv
        if self.api == "opencl":
            return f"{spv} (under OpenCL %d.%d {self.profile} Profile semantics)" % self.api_version
        if self.api == "vulkan":
            return f"{spv} (under Vulkan %d.%d semantics)" % self.api_version
        return spv

    def accepts_version(self, version: Version, options: ValidatorOptions) -> bool:
        if self.is_opencl and self.api_version == (3, 0):
            return version in options.spirv_versions
        return (1, 0) <= version <= self.max_spirv


def _envs() -> dict[str, TargetEnv]:
    envs: dict[str, TargetEnv] = {}
    for minor in range(7):
        for prefix in ("spv", "universal"):
            name = f"{prefix}1.{minor}"
            envs[name] = TargetEnv(name, "universal", (1, minor), (1, minor))
    opencl = {(1, 2): (1, 0), (2, 0): (1, 0), (2, 1): (1, 0), (2, 2): (1, 2), (3, 0): (1, 6)}
    for api, spv in opencl.items():
        for embedded in (False, True):
            name = "opencl%d.%d" % api + ("embedded" if embedded else "")
            envs[name] = TargetEnv(name, "opencl", api, spv, embedded)
    vulkan = {"vulkan1.0": ((1, 0), (1, 0)), "vulkan1.1": ((1, 1), (1, 3)),
              "vulkan1.1spv1.4": ((1, 1), (1, 4)), "vulkan1.2": ((1, 2), (1, 5)), "vulkan1.3": ((1, 3), (1, 6))}
    for name, (api, spv) in vulkan.items():
        envs[name] = TargetEnv(name, "vulkan", api, spv)
    return envs


TARGET_ENVS: dict[str, TargetEnv] = _envs()


def target_env(name: str) -> TargetEnv:
    try:
        return TARGET_ENVS[name]
    except KeyError:
        known = ", ".join(k for k in TARGET_ENVS if not k.startswith("universal"))
        raise ValueError(f"unknown target environment '{name}' (known: {known}, universal1.x)") from None


# -- OpenCL capability tables (digest-opencl-env.md §3) -------------------------------------------

# Guaranteed on every OpenCL version (OLD table row 1; NEW "Always").
_OPENCL_ALWAYS = frozenset({"Addresses", "Float16Buffer", "Int16", "Int8", "Kernel", "Linkage", "Vector16"})
# OpenCL 2.0-2.2 add these (mandatory in 2.x, OLD table).
_OPENCL_2_0 = frozenset({"DeviceEnqueue", "GenericPointer", "Groups", "Pipes"})
# OpenCL 2.2 adds these (SPIR-V 1.1 features).
_OPENCL_2_2 = frozenset({"SubgroupDispatch", "PipeStorage"})
# Optional on every version: ImageBasic (image support) and Float64 (double support). SPIRV-Tools
# also lets Float16 through as optional (cl_khr_fp16), and so do we.
_OPENCL_OPTIONAL = frozenset({"ImageBasic", "Float64", "Float16"})
# Required alongside ImageBasic (so allowed once ImageBasic is declared).
_WITH_IMAGE_BASIC_1_2 = frozenset({"LiteralSampler", "Sampled1D", "Image1D", "SampledBuffer", "ImageBuffer"})
_WITH_IMAGE_BASIC_2_0 = _WITH_IMAGE_BASIC_1_2 | {"ImageReadWrite"}

# cl_khr_* extension -> capabilities it enables (digest §4).
OPENCL_EXTENSION_CAPABILITIES: dict[str, frozenset[str]] = {
    "cl_khr_fp16": frozenset({"Float16"}),
    "cl_khr_fp64": frozenset({"Float64"}),
    "cl_khr_int64_base_atomics": frozenset({"Int64Atomics"}),
    "cl_khr_int64_extended_atomics": frozenset({"Int64Atomics"}),
    "cl_khr_mipmap_image_writes": frozenset({"ImageMipmap"}),
    "cl_khr_subgroup_named_barrier": frozenset({"NamedBarrier"}),
    "cles_khr_int64": frozenset({"Int64"}),
    "cl_khr_subgroup_non_uniform_vote": frozenset({"GroupNonUniform", "GroupNonUniformVote"}),
    "cl_khr_subgroup_ballot": frozenset({"GroupNonUniform", "GroupNonUniformBallot"}),
    "cl_khr_subgroup_non_uniform_arithmetic": frozenset({"GroupNonUniform", "GroupNonUniformArithmetic"}),
    "cl_khr_subgroup_shuffle": frozenset({"GroupNonUniform", "GroupNonUniformShuffle"}),
    "cl_khr_subgroup_shuffle_relative": frozenset({"GroupNonUniform", "GroupNonUniformShuffleRelative"}),
    "cl_khr_subgroup_clustered_reduce": frozenset({"GroupNonUniform", "GroupNonUniformClustered"}),
    "cl_khr_extended_bit_ops": frozenset({"BitInstructions"}),
    "cl_khr_integer_dot_product": frozenset({"DotProduct", "DotProductInput4x8BitPacked", "DotProductInput4x8Bit"}),
    "cl_khr_expect_assume": frozenset({"ExpectAssumeKHR"}),
    "cl_khr_subgroup_rotate": frozenset({"GroupNonUniformRotateKHR"}),
    "cl_khr_work_group_uniform_arithmetic": frozenset({"GroupUniformArithmeticKHR"}),
}


def opencl_capability_allowed(env: TargetEnv, options: ValidatorOptions, cap: str, declared: set[str]) -> bool:
    """Whether ``cap`` is in the env's capability table (extension-enabled capabilities are
    checked by the caller, from the grammar)."""
    api = env.api_version
    if cap in _OPENCL_ALWAYS:
        return True
    if cap == "Int64":
        return not env.embedded
    if api == (3, 0):
        return _opencl3_allowed(options, cap, declared)
    if cap in _OPENCL_OPTIONAL:
        return True
    if api >= (2, 0) and cap in _OPENCL_2_0:
        return True
    if api >= (2, 2) and cap in _OPENCL_2_2:
        return True
    if "ImageBasic" in declared and cap in (_WITH_IMAGE_BASIC_2_0 if api >= (2, 0) else _WITH_IMAGE_BASIC_1_2):
        return True
    # The device's cl_khr_* extensions (options.extensions; none by default) enable more.
    return any(cap in OPENCL_EXTENSION_CAPABILITIES.get(ext, ()) for ext in options.extensions)


def _opencl3_allowed(o: ValidatorOptions, cap: str, declared: set[str]) -> bool:
    gates = {
        "DeviceEnqueue": o.device_enqueue,
        "GenericPointer": o.generic_address_space,
        "Groups": o.subgroups or o.work_group_collective_functions,
        "Pipes": o.pipes,
        "ImageBasic": o.images,
        "Float64": o.fp64,
        "Float16": o.fp16,
        "Int64Atomics": o.int64_atomics,
        "SubgroupDispatch": o.subgroups,
    }
    if cap in gates:
        return gates[cap]
    if o.images and "ImageBasic" in declared:
        if cap in _WITH_IMAGE_BASIC_1_2:
            return True
        if cap == "ImageReadWrite":
            return o.read_write_images
    return any(cap in OPENCL_EXTENSION_CAPABILITIES.get(ext, ()) for ext in o.extensions)


# -- Vulkan capability tables (digest-vulkan-env.md §2, as SPIRV-Tools applies them) ------------

_VULKAN_1_0_GUARANTEED = frozenset({
    "Matrix", "Shader", "InputAttachment", "Sampled1D", "Image1D", "SampledBuffer", "ImageBuffer",
    "ImageQuery", "DerivativeControl",
})
_VULKAN_1_0_OPTIONAL = frozenset({
    "Geometry", "Tessellation", "Float64", "Int64", "Int64Atomics", "Int16", "TessellationPointSize",
    "GeometryPointSize", "ImageGatherExtended", "StorageImageMultisample",
    "UniformBufferArrayDynamicIndexing", "SampledImageArrayDynamicIndexing",
    "StorageBufferArrayDynamicIndexing", "StorageImageArrayDynamicIndexing", "ClipDistance",
    "CullDistance", "ImageCubeArray", "SampleRateShading", "SparseResidency", "MinLod",
    "SampledCubeArray", "ImageMSArray", "StorageImageExtendedFormats", "InterpolationFunction",
    "StorageImageReadWithoutFormat", "StorageImageWriteWithoutFormat", "MultiViewport",
    # Enabled on Vulkan 1.0/1.1 devices by VK_KHR_shader_float16_int8 / VK_EXT_transform_feedback,
    # which declare no SPIR-V extension; SPIRV-Tools accepts them (checked: spirv-val 2025.5).
    "Float16", "Int8", "GeometryStreams", "TransformFeedback",
})
_VULKAN_1_1_GUARANTEED = _VULKAN_1_0_GUARANTEED | {"DeviceGroup", "MultiView"}
_VULKAN_1_1_OPTIONAL = _VULKAN_1_0_OPTIONAL | {
    "StorageBuffer16BitAccess", "UniformAndStorageBuffer16BitAccess", "StoragePushConstant16",
    "StorageInputOutput16", "GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformArithmetic",
    "GroupNonUniformBallot", "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative",
    "GroupNonUniformClustered", "GroupNonUniformQuad", "DrawParameters",
    "VariablePointersStorageBuffer", "VariablePointers",
}
_VULKAN_1_2_GUARANTEED = _VULKAN_1_1_GUARANTEED | {"ShaderNonUniform"}
_VULKAN_1_2_OPTIONAL = _VULKAN_1_1_OPTIONAL | {
    "DenormPreserve", "DenormFlushToZero", "SignedZeroInfNanPreserve", "RoundingModeRTE",
    "RoundingModeRTZ", "VulkanMemoryModel", "VulkanMemoryModelDeviceScope",
    "StorageBuffer8BitAccess", "UniformAndStorageBuffer8BitAccess", "StoragePushConstant8",
    "ShaderViewportIndex", "ShaderLayer", "PhysicalStorageBufferAddresses", "RuntimeDescriptorArray",
    "UniformTexelBufferArrayDynamicIndexing", "StorageTexelBufferArrayDynamicIndexing",
    "UniformBufferArrayNonUniformIndexing", "SampledImageArrayNonUniformIndexing",
    "StorageBufferArrayNonUniformIndexing", "StorageImageArrayNonUniformIndexing",
    "InputAttachmentArrayNonUniformIndexing", "UniformTexelBufferArrayNonUniformIndexing",
    "StorageTexelBufferArrayNonUniformIndexing", "Float16", "Int8",
}
_VULKAN_1_3_GUARANTEED = _VULKAN_1_2_GUARANTEED | {
    "DotProduct", "DotProductInputAll", "DotProductInput4x8Bit", "DotProductInput4x8BitPacked",
    "DemoteToHelperInvocation",
}
_VULKAN_1_3_OPTIONAL = _VULKAN_1_2_OPTIONAL

_VULKAN_TABLES = {
    (1, 0): _VULKAN_1_0_GUARANTEED | _VULKAN_1_0_OPTIONAL,
    (1, 1): _VULKAN_1_1_GUARANTEED | _VULKAN_1_1_OPTIONAL,
    (1, 2): _VULKAN_1_2_GUARANTEED | _VULKAN_1_2_OPTIONAL,
    (1, 3): _VULKAN_1_3_GUARANTEED | _VULKAN_1_3_OPTIONAL,
}


def vulkan_capability_allowed(env: TargetEnv, cap: str) -> bool:
    return cap in _VULKAN_TABLES[env.api_version]


# -- Vulkan SPIR-V extensions (digest-vulkan-env.md §2 C3) ---------------------------------------------
# "The application can pass a SPIR-V module to vkCreateShaderModule that uses the following SPIR-V
# extensions if ..." (Vulkan appendix "SPIR-V Extensions"; the table is empty in the project's text
# dump). The list is vk.xml's <spirvextensions> (Vulkan-Docs), plus the entries later vk.xml revisions
# added; whether the corresponding Vulkan extension is enabled (or its core version supported) is
# device state, so only the listing is checked.
VULKAN_SPIRV_EXTENSIONS = frozenset({
    "SPV_KHR_variable_pointers", "SPV_AMD_shader_explicit_vertex_parameter", "SPV_AMD_gcn_shader",
    "SPV_AMD_gpu_shader_half_float", "SPV_AMD_gpu_shader_int16", "SPV_AMD_shader_ballot",
    "SPV_AMD_shader_fragment_mask", "SPV_AMD_shader_image_load_store_lod", "SPV_AMD_shader_trinary_minmax",
    "SPV_AMD_texture_gather_bias_lod", "SPV_AMD_shader_early_and_late_fragment_tests",
    "SPV_KHR_shader_draw_parameters", "SPV_KHR_8bit_storage", "SPV_KHR_16bit_storage", "SPV_KHR_shader_clock",
    "SPV_KHR_float_controls", "SPV_KHR_storage_buffer_storage_class", "SPV_KHR_post_depth_coverage",
    "SPV_EXT_shader_stencil_export", "SPV_KHR_shader_ballot", "SPV_KHR_subgroup_vote",
    "SPV_NV_sample_mask_override_coverage", "SPV_NV_geometry_shader_passthrough", "SPV_NV_mesh_shader",
    "SPV_NV_viewport_array2", "SPV_NV_shader_subgroup_partitioned", "SPV_NV_shader_invocation_reorder",
    "SPV_EXT_shader_viewport_index_layer", "SPV_NVX_multiview_per_view_attributes", "SPV_EXT_descriptor_indexing",
    "SPV_KHR_vulkan_memory_model", "SPV_NV_compute_shader_derivatives", "SPV_NV_fragment_shader_barycentric",
    "SPV_NV_shader_image_footprint", "SPV_NV_shading_rate", "SPV_NV_ray_tracing", "SPV_KHR_ray_tracing",
    "SPV_KHR_ray_query", "SPV_KHR_ray_cull_mask", "SPV_GOOGLE_hlsl_functionality1", "SPV_GOOGLE_user_type",
    "SPV_GOOGLE_decorate_string", "SPV_EXT_fragment_invocation_density", "SPV_KHR_physical_storage_buffer",
    "SPV_EXT_physical_storage_buffer", "SPV_NV_cooperative_matrix", "SPV_NV_shader_sm_builtins",
    "SPV_EXT_fragment_shader_interlock", "SPV_EXT_demote_to_helper_invocation", "SPV_KHR_fragment_shading_rate",
    "SPV_KHR_non_semantic_info", "SPV_EXT_shader_image_int64", "SPV_KHR_terminate_invocation",
    "SPV_KHR_multiview", "SPV_KHR_workgroup_memory_explicit_layout", "SPV_EXT_shader_atomic_float_add",
    "SPV_KHR_fragment_shader_barycentric", "SPV_KHR_subgroup_uniform_control_flow",
    "SPV_EXT_shader_atomic_float_min_max", "SPV_EXT_shader_atomic_float16_add", "SPV_EXT_fragment_fully_covered",
    "SPV_KHR_integer_dot_product", "SPV_INTEL_shader_integer_functions2", "SPV_KHR_device_group",
    "SPV_QCOM_image_processing", "SPV_EXT_mesh_shader", "SPV_KHR_ray_tracing_position_fetch",
    "SPV_EXT_shader_tile_image", "SPV_EXT_opacity_micromap", "SPV_KHR_cooperative_matrix",
    # added by later vk.xml revisions
    "SPV_KHR_maximal_reconvergence", "SPV_KHR_subgroup_rotate", "SPV_KHR_expect_assume", "SPV_KHR_float_controls2",
    "SPV_KHR_quad_control", "SPV_NV_raw_access_chains", "SPV_KHR_compute_shader_derivatives",
    "SPV_KHR_relaxed_extended_instruction", "SPV_NV_shader_atomic_fp16_vector", "SPV_EXT_replicated_composites",
    "SPV_KHR_untyped_pointers", "SPV_NV_cooperative_matrix2", "SPV_NV_tensor_addressing",
    "SPV_NV_linear_swept_spheres", "SPV_NV_cluster_acceleration_structure", "SPV_AMDX_shader_enqueue",
    "SPV_ARM_core_builtins", "SPV_HUAWEI_cluster_culling_shader", "SPV_HUAWEI_subpass_shading",
    "SPV_QCOM_image_processing2", "SPV_QCOM_tile_shading", "SPV_NV_displacement_micromap",
    "SPV_NV_ray_tracing_motion_blur", "SPV_KHR_bfloat16", "SPV_EXT_float8", "SPV_ARM_cooperative_matrix_layouts",
    "SPV_ARM_tensors", "SPV_ARM_graph", "SPV_EXT_shader_invocation_reorder",
    "SPV_EXT_descriptor_heap", "SPV_EXT_shader_64bit_indexing", "SPV_KHR_fma", "SPV_NV_push_constant_bank",
    "SPV_QCOM_cooperative_matrix_conversion", "SPV_EXT_long_vector", "SPV_VALVE_mixed_float_dot_product",
})
