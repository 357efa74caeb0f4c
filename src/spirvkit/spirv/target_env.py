"""Target environment names and the SPIR-V version each one assembles to.

The names are SPIRV-Tools' ``--target-env`` spellings, plus ``opencl3.0`` (and its embedded
profile), which spirvkit's validator adds. The validator's richer description of each
environment (capabilities, profiles, rules) lives in ``spirvkit.validate.env``.
"""

from __future__ import annotations

#: target env -> the SPIR-V version its modules carry when assembled (SPIRV-Tools'
#: spvVersionForTargetEnv; opencl3.0 accepts every version, so it assembles to the newest).
TARGET_ENV_VERSIONS: dict[str, tuple[int, int]] = {
    **{f"spv1.{minor}": (1, minor) for minor in range(7)},
    **{f"universal1.{minor}": (1, minor) for minor in range(7)},
    "vulkan1.0": (1, 0),
    "vulkan1.1": (1, 3),
    "vulkan1.1spv1.4": (1, 4),
    "vulkan1.2": (1, 5),
    "vulkan1.3": (1, 6),
    "vulkan1.4": (1, 6),
    "opencl1.2": (1, 0),
    "opencl1.2embedded": (1, 0),
    "opencl2.0": (1, 0),
    "opencl2.0embedded": (1, 0),
    "opencl2.1": (1, 0),
    "opencl2.1embedded": (1, 0),
    "opencl2.2": (1, 2),
    "opencl2.2embedded": (1, 2),
    "opencl3.0": (1, 6),
    "opencl3.0embedded": (1, 6),
    "opengl4.0": (1, 0),
    "opengl4.1": (1, 0),
    "opengl4.2": (1, 0),
    "opengl4.3": (1, 0),
    "opengl4.5": (1, 0),
}

DEFAULT_TARGET_ENV = "spv1.6"


def spirv_version_for(target_env: str) -> tuple[int, int]:
    try:
        return TARGET_ENV_VERSIONS[target_env]
    except KeyError:
        known = ", ".join(TARGET_ENV_VERSIONS)
        raise ValueError(f"unknown target environment '{target_env}' (known: {known})") from None
