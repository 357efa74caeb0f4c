#version 450
// Multisampled images: imageLoad / imageStore with a sample index, imageSamples, texelFetch of
// a sampler2DMS, textureSamples.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2DMS src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2DMS dst;
layout(set = 0, binding = 2) uniform sampler2DMS fetched;
layout(set = 0, binding = 3) buffer Out { vec4 r[]; };
layout(set = 0, binding = 4) buffer Queries { ivec4 q[]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(src);
  if (p.x >= size.x || p.y >= size.y) return;
  int n = imageSamples(src);
  for (int k = 0; k < n; k++) {
    imageStore(dst, p, k, imageLoad(src, p, k) * 2.0 + vec4(float(k)));
    r[(p.y * size.x + p.x) * n + k] = texelFetch(fetched, p, k);
  }
  if (p == ivec2(0)) q[0] = ivec4(n, textureSamples(fetched), size);
}
