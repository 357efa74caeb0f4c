"""Vulkan-style compute on the CPU: GLCompute SPIR-V shaders with buffers bound by (set,
binding), push constants and specialisation constants (see ``ComputePipeline``), and the
AmberScript runner behind ``spirvkit amber`` (``spirvkit.vk.amber``)."""

from __future__ import annotations

from .pipeline import DEFAULT_SUBGROUP_SIZE, ComputePipeline, load_shader, validate_shader

__all__ = ["ComputePipeline", "DEFAULT_SUBGROUP_SIZE", "load_shader", "validate_shader"]
