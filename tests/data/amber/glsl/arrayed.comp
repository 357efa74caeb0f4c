#version 450
// Arrayed images: textureLod / textureSize / textureQueryLevels of a 2D array (the layer rounded and clamped), imageLoad /
// imageStore / imageSize of a 1D array (tests/vk/test_vk_images.py).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DArray arr;
layout(set = 0, binding = 1, r32f) uniform image1DArray lines;
layout(set = 0, binding = 2) buffer O { vec4 o[]; };
void main() {
  o[0] = textureLod(arr, vec3(0.25, 0.75, 1.0), 0.0);
  o[1] = textureLod(arr, vec3(0.75, 0.25, 5.7), 0.0);
  o[2] = vec4(textureSize(arr, 0), textureQueryLevels(arr));
  o[3] = imageLoad(lines, ivec2(1, 2)) + vec4(imageSize(lines), 0, 0);
  imageStore(lines, ivec2(0, 1), vec4(42.0));
}
