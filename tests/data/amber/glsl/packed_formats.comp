#version 450
// Packed storage formats: imageLoad of each into a buffer, imageStore of values from a buffer.
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, rgb10_a2) uniform image2D unorm_src;
layout(set = 0, binding = 1, rgb10_a2ui) uniform uimage2D uint_src;
layout(set = 0, binding = 2, r11f_g11f_b10f) uniform image2D ufloat_src;
layout(set = 0, binding = 3, rgb10_a2) uniform writeonly image2D unorm_dst;
layout(set = 0, binding = 4, rgb10_a2ui) uniform writeonly uimage2D uint_dst;
layout(set = 0, binding = 5, r11f_g11f_b10f) uniform writeonly image2D ufloat_dst;
layout(set = 0, binding = 6) buffer Loaded { vec4 f[]; };
layout(set = 0, binding = 9) buffer ULoaded { uvec4 u[]; };
layout(set = 0, binding = 7) readonly buffer Values { vec4 fv[]; };
layout(set = 0, binding = 8) readonly buffer UValues { uvec4 uv[]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  uint i = gl_GlobalInvocationID.y * 4u + gl_GlobalInvocationID.x;
  f[2u * i] = imageLoad(unorm_src, p);
  f[2u * i + 1u] = imageLoad(ufloat_src, p);
  u[i] = imageLoad(uint_src, p);
  imageStore(unorm_dst, p, fv[2u * i]);
  imageStore(ufloat_dst, p, fv[2u * i + 1u]);
  imageStore(uint_dst, p, uv[i]);
}
