#version 450
// Sampling at Lod 0 through combined image samplers of each dimensionality, at coordinates
// from a buffer (tests/vk/test_vk_images.py checks them against a model of Vulkan's sampler).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler1D t1;
layout(set = 0, binding = 1) uniform sampler2D t2;
layout(set = 0, binding = 2) uniform sampler3D t3;
layout(set = 0, binding = 3) readonly buffer Coords { vec4 c[]; };
layout(set = 0, binding = 4) buffer Out { vec4 r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(c.length())) return;
  vec4 p = c[i];
  r[3u * i] = textureLod(t1, p.x, 0.0);
  r[3u * i + 1u] = textureLod(t2, p.xy, 0.0);
  r[3u * i + 2u] = textureLod(t3, p.xyz, 0.0);
}
