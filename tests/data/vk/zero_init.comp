#version 450
#extension GL_EXT_null_initializer : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } b;
shared uint counter = {};
shared uint arr[4] = {};
void main() {
  atomicAdd(counter, 1u);
  arr[gl_LocalInvocationID.x] += gl_LocalInvocationID.x + 1u;
  barrier();
  if (gl_LocalInvocationID.x == 0u) { b.v[gl_WorkGroupID.x * 2] = counter; b.v[gl_WorkGroupID.x * 2 + 1] = arr[0] + arr[1] + arr[2] + arr[3]; }
}
