// target-env: vulkan1.0
// Every GLSL atomic on SSBO and shared uint/int, atomicCompSwap loop,
// memory qualifiers (coherent, volatile, restrict).
#version 450
layout(local_size_x = 32) in;
layout(std430, binding = 0) coherent buffer Counters {
  uint u[8];
  int s[8];
} c;
layout(std430, binding = 1) volatile restrict buffer Spin { uint lock; } spin;
shared uint sh;
void main() {
  uint id = gl_LocalInvocationIndex;
  if (id == 0u) sh = 0u;
  barrier();
  atomicAdd(sh, id);
  atomicAdd(c.u[0], 1u);
  atomicMin(c.u[1], id);
  atomicMax(c.u[2], id);
  atomicAnd(c.u[3], ~id);
  atomicOr(c.u[4], 1u << (id & 31u));
  atomicXor(c.u[5], id);
  atomicExchange(c.u[6], id);
  atomicCompSwap(c.u[7], 0u, id);
  atomicMin(c.s[0], -int(id));
  atomicMax(c.s[1], int(id));
  atomicAdd(c.s[2], -1);
  uint old;
  do { old = atomicCompSwap(spin.lock, 0u, 1u); } while (old != 0u);
  spin.lock = 0u;
  memoryBarrierBuffer();
  groupMemoryBarrier();
  barrier();
  if (id == 0u) c.u[0] += sh;
}
