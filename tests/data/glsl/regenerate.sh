#!/usr/bin/env bash
# Regenerates every glsl/*.spv fixture from its .comp source with glslang.
# Tool (Debian 12 package glslang-tools, glslang 12.0.0):
#   apt-get install -y glslang-tools
# Each .comp names its Vulkan target environment on its first line
# (`// target-env: vulkan1.X`); the same env is used for spirv-val in the
# manifest.  The test suite never runs this script.
set -euo pipefail
cd "$(dirname "$0")"
GLSLANG="${GLSLANG:-glslangValidator}"
for src in *.comp; do
  env="$(sed -n 's|^// target-env: *||p' "$src" | head -1)"
  "$GLSLANG" -V --target-env "$env" -o "${src%.comp}.spv" "$src" > /dev/null
  echo "built ${src%.comp}.spv ($env)"
done
