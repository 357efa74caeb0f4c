#version 450
// imageStore of a colour ramp into an rgba8 storage image (image probes in fill_asm.amber).
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D img;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(img, p, p.y < 2 ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(float(p.x) / 3.0, 0.5, 1.0, 0.0));
}
