#version 450
// Texel buffers: a uniform texel buffer (texelFetch, textureSize) and a storage texel buffer
// (imageLoad / imageStore).
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform samplerBuffer values;
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer sums;
void main() {
  int i = int(gl_GlobalInvocationID.x);
  vec4 v = texelFetch(values, i);
  imageStore(sums, i, uvec4(imageLoad(sums, i).x + uint(v.x * 100.0 + 0.5) + uint(textureSize(values))));
}
