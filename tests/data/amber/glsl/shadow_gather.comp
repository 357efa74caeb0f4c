#version 450
// Depth comparison and gathers: textureLod of a shadow sampler, textureGather (a component,
// with a constant offset, with four constant offsets), the shadow gather, textureLodOffset.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2DShadow s;
layout(set = 0, binding = 1) uniform sampler2D t;
layout(set = 0, binding = 2) readonly buffer Coords { vec4 c[]; };   // u, v, reference, lod
layout(set = 0, binding = 3) buffer Out { vec4 r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(c.length())) return;
  vec4 p = c[i];
  r[6u * i] = vec4(textureLod(s, p.xyz, p.w));
  r[6u * i + 1u] = textureGather(t, p.xy, 1);
  r[6u * i + 2u] = textureGatherOffset(t, p.xy, ivec2(1, -1), 2);
  r[6u * i + 3u] = textureGather(s, p.xy, p.z);
  r[6u * i + 4u] = textureGatherOffsets(t, p.xy, ivec2[4](ivec2(0, 0), ivec2(1, 0), ivec2(-2, 1), ivec2(0, 3)), 0);
  r[6u * i + 5u] = textureLodOffset(t, p.xy, 0.0, ivec2(2, -1));
}
