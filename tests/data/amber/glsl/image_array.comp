#version 450
// An array of combined image samplers and an array of storage images, indexed by a push
// constant (dynamically uniform).
layout(local_size_x = 2, local_size_y = 2) in;
layout(set = 0, binding = 0) uniform sampler2D texs[2];
layout(set = 0, binding = 1, r32f) uniform writeonly image2D outs[2];
layout(push_constant) uniform P { int which; } pc;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 a = texelFetch(texs[0], p, 0);
  vec4 b = texelFetch(texs[pc.which], p, 0);
  imageStore(outs[1], p, vec4(a.x + 10.0 * b.x));
  imageStore(outs[0], p, vec4(a.y));
}
