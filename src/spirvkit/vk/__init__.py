"""Vulkan-style compute on the CPU: GLCompute SPIR-V shaders with buffers, images and samplers
(``Image``, ``Sampler``) bound by (set, binding), push constants and specialisation constants
(see ``ComputePipeline``), and the AmberScript runner behind ``spirvkit amber``
(``spirvkit.vk.amber``)."""

from __future__ import annotations

from .device_address import device_address
from .pipeline import DEFAULT_SUBGROUP_SIZE, ComputePipeline, load_shader, validate_shader
from .resources import Image, Sampler

__all__ = ["ComputePipeline", "DEFAULT_SUBGROUP_SIZE", "Image", "Sampler", "device_address", "load_shader",
           "validate_shader"]
