#version 450
// textureGrad of a cube image: the derivatives carried onto the selected face.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform samplerCube tc;
layout(set = 0, binding = 1) readonly buffer Coords { vec4 c[]; };   // direction
layout(set = 0, binding = 2) readonly buffer Dx { vec4 dx[]; };
layout(set = 0, binding = 3) readonly buffer Dy { vec4 dy[]; };
layout(set = 0, binding = 4) buffer Out { vec4 r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(c.length())) return;
  r[i] = textureGrad(tc, c[i].xyz, dx[i].xyz, dy[i].xyz);
}
