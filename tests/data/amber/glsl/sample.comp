#version 450
// Sampled images: a combined image sampler and a texture + separate sampler sampled at Lod 0,
// and texelFetch / textureSize of the combined one.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform texture2D plain;
layout(set = 0, binding = 2) uniform sampler smp;
layout(set = 0, binding = 3) buffer Coords { vec2 uv[]; };
layout(set = 0, binding = 4) buffer Out { vec4 result[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  result[3u * i] = textureLod(tex, uv[i], 0.0);
  result[3u * i + 1u] = textureLod(sampler2D(plain, smp), uv[i], 0.0);
  ivec2 size = textureSize(tex, 0);
  result[3u * i + 2u] = texelFetch(tex, ivec2(i) % size, 0) + vec4(size, 0, 0);
}
