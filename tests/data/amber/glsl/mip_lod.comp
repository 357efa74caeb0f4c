#version 450
// Mip levels: textureLod, textureGrad, texelFetch at a level, textureQueryLevels and
// textureSize per level (tests/vk/test_images_mip_cube.py checks them against a numpy model).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D t2;
layout(set = 0, binding = 1) readonly buffer Coords { vec4 c[]; };   // u, v, lod, fetch level
layout(set = 0, binding = 2) readonly buffer Grads { vec4 g[]; };    // dPdx.xy, dPdy.xy
layout(set = 0, binding = 3) buffer Out { vec4 r[]; };
layout(set = 0, binding = 4) buffer Queries { ivec4 q[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(c.length())) return;
  vec4 p = c[i];
  r[3u * i] = textureLod(t2, p.xy, p.z);
  r[3u * i + 1u] = textureGrad(t2, p.xy, g[i].xy, g[i].zw);
  int level = int(p.w);
  r[3u * i + 2u] = texelFetch(t2, ivec2(p.xy * vec2(textureSize(t2, level))), level);
  if (i == 0u) {
    q[0] = ivec4(textureQueryLevels(t2), textureSize(t2, 0), 0);
    q[1] = ivec4(textureSize(t2, 1), textureSize(t2, 2));
  }
}
