#version 450
// Cube and cube-array images: textureLod at a direction (and cube index), textureSize.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform samplerCube tc;
layout(set = 0, binding = 1) uniform samplerCubeArray ta;
layout(set = 0, binding = 2) readonly buffer Coords { vec4 c[]; };   // direction, lod
layout(set = 0, binding = 3) readonly buffer Layers { float layer[]; };
layout(set = 0, binding = 4) buffer Out { vec4 r[]; };
layout(set = 0, binding = 5) buffer Queries { ivec4 q[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(c.length())) return;
  vec4 p = c[i];
  r[2u * i] = textureLod(tc, p.xyz, p.w);
  r[2u * i + 1u] = textureLod(ta, vec4(p.xyz, layer[i]), p.w);
  if (i == 0u) {
    q[0] = ivec4(textureSize(tc, 0), textureSize(ta, 0).xy);
    q[1] = ivec4(textureSize(ta, 0).z, textureQueryLevels(tc), 0, 0);
  }
}
