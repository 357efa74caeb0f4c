// target-env: vulkan1.0
// std140 uniform block with matrices (row/column major), arrays of scalars
// (16-byte stride), nested structs; writes to a std430 SSBO.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
struct Light { vec3 dir; float intensity; };
layout(std140, set = 0, binding = 0) uniform Params {
  mat4 model;
  layout(row_major) mat3x2 proj;
  float weights[4];
  Light lights[2];
  ivec2 size;
  dvec2 dscale;
} params;
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec4 data[]; } outbuf;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, params.size))) return;
  vec4 v = params.model * vec4(vec2(p), 0.0, 1.0);
  vec2 q = params.proj * v.xyz;
  float w = 0.0;
  for (int i = 0; i < 4; ++i) w += params.weights[i];
  for (int l = 0; l < 2; ++l) w += dot(params.lights[l].dir, v.xyz) * params.lights[l].intensity;
  outbuf.data[p.y * params.size.x + p.x] = vec4(q, w, float(params.dscale.x));
}
