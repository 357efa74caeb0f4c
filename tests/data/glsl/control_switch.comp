// target-env: vulkan1.3
// Loops and switch: nested loops with break/continue, switch with
// fallthrough and default, do-while, loop unroll/dont_unroll hints via
// GL_EXT_control_flow_attributes, demote-free early return.
#version 460
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { int data[]; };
int classify(int v) {
  switch (v) {
    case -1: return 100;
    case 0:
    case 1: v += 10;
    case 2: return v * 2;
    default: break;
  }
  return v > 0 ? 1 : -1;
}
void main() {
  uint gid = gl_GlobalInvocationID.x;
  int acc = 0;
  [[unroll]] for (int j = 0; j < 4; ++j) acc += j;
  [[dont_unroll]] for (int i = 0; i < data[0]; ++i) {
    int v = data[i + 1];
    if (v == 42) continue;
    if (v < -1000) break;
    [[loop]] for (int j = 0; j < 3; j++) acc += classify(v + j);
  }
  int k = 0;
  do { acc ^= k * 3; k++; } while (k < int(gid % 7u));
  [[flatten]] if (acc > 0) acc = -acc; else acc += 1;
  [[dependency_infinite]] while (acc > 1000) acc /= 3;
  if (gid == 0u) { data[0] = acc; return; }
  data[gid] = abs(acc);
}
