#version 450
layout(local_size_x = 4) in;
struct Item { float a; vec3 b; int c; };
layout(std140, set = 0, binding = 0) uniform U { float scale; vec2 off; float arr[4]; } u;
layout(std430, set = 0, binding = 1) buffer S { Item items[]; } s;
layout(std430, set = 0, binding = 2) buffer O { vec4 out_[]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  Item it = s.items[i];
  it.b = it.b * u.scale + vec3(u.off, u.arr[i]);
  it.c = it.c + int(i) + s.items.length();
  s.items[i] = it;
  o.out_[i] = vec4(sqrt(it.a), floor(it.b.x), fract(it.b.y), clamp(it.b.z, 0.0, 2.0));
}
