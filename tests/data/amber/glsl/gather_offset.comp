#version 450
// textureGatherOffset with offsets known only at run time (the Offset image operand).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D t;
layout(set = 0, binding = 1) readonly buffer Coords { vec4 c[]; };   // u, v
layout(set = 0, binding = 2) readonly buffer Offsets { ivec2 o[]; };
layout(set = 0, binding = 3) buffer Out { vec4 r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(c.length())) return;
  r[i] = textureGatherOffset(t, c[i].xy, o[i], 3);
}
