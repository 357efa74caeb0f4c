#version 450
layout(local_size_x = 2) in;
layout(std140, set = 0, binding = 0) uniform U { mat3 m3; mat2x3 ms[2]; } u;
layout(std430, set = 0, binding = 1) buffer R { layout(row_major) mat2x3 rm; layout(row_major) mat4 r4[2]; vec4 v; } r;
layout(std430, set = 0, binding = 2) buffer O { mat4 o[]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  mat3 a = u.m3;
  mat2x3 b = u.ms[i];
  mat2x3 c = r.rm;
  mat4 d = r.r4[i];
  vec3 col = u.ms[i][1];
  float e = r.rm[1][2];
  mat4 res = mat4(0.0);
  res[0] = vec4(a * col, e);
  res[1] = vec4(col * a, 1.0);
  res[2] = d * r.v;
  res[3] = r.v * d;
  o.o[3 * i] = res;
  o.o[3 * i + 1] = mat4(b) * 2.0 + mat4(transpose(c)) + outerProduct(r.v, r.v.wzyx);
  o.o[3 * i + 2] = d * transpose(d);
  barrier();   // every invocation has read r before invocation 1 writes it
  if (i == 1) { r.rm[0][1] = e + 7.0; r.r4[0] = transpose(d); }
}
