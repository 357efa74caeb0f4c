#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { float v[]; } b;
float acc;
shared float sh[4];
void add(float x) { acc += x; }
float twice(float x) { add(x); add(x); return acc; }
void sync_store(uint i) { sh[i] = acc; barrier(); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  acc = 1.0;
  float t = twice(b.v[i]);
  sync_store(gl_LocalInvocationID.x);
  b.v[i] = t + sh[(gl_LocalInvocationID.x + 1) % 4];
}
