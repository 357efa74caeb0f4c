#version 450
// texelFetch of sampled images of float, signed and unsigned formats: every texel, as the
// shader sees it (tests/vk/test_vk_images.py checks Vulkan's format conversions).
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform texture2D f;
layout(set = 0, binding = 1) uniform itexture2D s;
layout(set = 0, binding = 2) uniform utexture2D u;
layout(set = 0, binding = 3) uniform sampler nearest;
layout(set = 0, binding = 4) buffer Out { vec4 fo[16]; ivec4 so[16]; uvec4 uo[16]; };
void main() {
  ivec2 p = ivec2(gl_LocalInvocationID.xy);
  uint i = gl_LocalInvocationIndex;
  fo[i] = texelFetch(sampler2D(f, nearest), p, 0);
  so[i] = texelFetch(isampler2D(s, nearest), p, 0);
  uo[i] = texelFetch(usampler2D(u, nearest), p, 0);
}
