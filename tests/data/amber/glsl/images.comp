#version 450
// Storage images: imageSize, imageLoad of an rgba8 image, imageStore to rgba32f and a
// read-modify-write of an r32ui image.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counts;
layout(push_constant) uniform P { ivec2 shift; } pc;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(src);
  if (p.x >= size.x || p.y >= size.y) return;
  vec4 c = imageLoad(src, p + pc.shift);
  imageStore(dst, p, c * 2.0);
  imageStore(counts, p, uvec4(imageLoad(counts, p).x + uint(p.x + 10 * p.y)));
}
