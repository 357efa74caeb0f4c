// target-env: vulkan1.1
// Image load/store with formats, texelFetch/textureLod/textureGrad/
// textureGather/textureSize/textureQueryLevels/imageSize, image atomics,
// separate texture + sampler objects.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 3) uniform sampler2D tex;
layout(set = 0, binding = 4) uniform texture2DArray tarr;
layout(set = 0, binding = 5) uniform sampler samp;
layout(set = 0, binding = 6) uniform sampler2DShadow shadow;
layout(set = 0, binding = 7) uniform samplerBuffer tbuf;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(src);
  if (p.x >= size.x || p.y >= size.y) return;
  vec2 uv = (vec2(p) + 0.5) / vec2(size);
  vec4 a = imageLoad(src, p);
  vec4 b = texelFetch(tex, p, 0) + textureLod(tex, uv, 1.0) +
           textureLodOffset(tex, uv, 0.0, ivec2(1, -1)) +
           textureGrad(tex, uv, vec2(0.01), vec2(0.0, 0.01)) +
           textureGather(tex, uv, 2) + textureGatherOffset(tex, uv, ivec2(-1, 0));
  vec4 c = textureLod(sampler2DArray(tarr, samp), vec3(uv, 1.0), 0.0);
  float d = textureLod(shadow, vec3(uv, 0.5), 0.0) + textureGather(shadow, uv, 0.5).x;
  vec4 e = texelFetch(tbuf, p.x);
  int levels = textureQueryLevels(tex) + textureSize(tex, 0).x + textureSize(tbuf);
  imageStore(dst, p, a + b + c + e + vec4(d + float(levels)));
  imageAtomicAdd(counts, p, 1u);
  imageAtomicMax(counts, p / 2, uint(levels));
  imageAtomicCompSwap(counts, ivec2(0), 0u, 1u);
}
