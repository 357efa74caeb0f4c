"""The SPIR-V validator: ``validate(module_or_bytes, target_env)`` returns a list of
:class:`Diagnostic` (empty when the module is valid).

Rule families live one per module (layout, ids, cfg, types, constants, decorations,
capabilities, the instruction families, limits, and the OpenCL and Vulkan environments);
``validator`` runs them in order. ``env`` describes the target environments.
"""

from __future__ import annotations

from .._lazy import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time, issue 19)

# Imported at first use (PEP 562): the command line reads TARGET_ENVS for its help without
# importing every rule family.
_LAZY = {"Diagnostic": ".diagnostics", "TARGET_ENVS": ".env", "TargetEnv": ".env",
         "ValidatorOptions": ".options", "validate": ".validator"}

if TYPE_CHECKING:
    from .diagnostics import Diagnostic
    from .env import TARGET_ENVS, TargetEnv
    from .options import ValidatorOptions
    from .validator import validate


__all__ = ["Diagnostic", "TARGET_ENVS", "TargetEnv", "ValidatorOptions", "validate"]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, __all__)
