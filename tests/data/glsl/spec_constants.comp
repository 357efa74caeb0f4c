// target-env: vulkan1.2
// Specialization constants: local_size_x_id / local_size_y_id, constant_id
// of bool/int/uint/float/double, spec-constant expressions and arrays sized
// by spec constants.
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(constant_id = 2) const bool USE_SQRT = true;
layout(constant_id = 3) const int ITERS = 4;
layout(constant_id = 4) const uint MASK = 0xFFu;
layout(constant_id = 5) const float SCALE = 1.5;
layout(constant_id = 6) const double DSCALE = 0.25;
const int ITERS2 = ITERS * 2 + 1;
const uint SHIFTED = (MASK << 4u) | 1u;
const bool BOTH = USE_SQRT && (ITERS > 2);
layout(std430, binding = 0) buffer Data { float v[]; };
shared float scratch[ITERS2];
void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_WorkGroupSize.x;
  float x = v[i] * SCALE;
  for (int k = 0; k < ITERS2; ++k) {
    scratch[k % ITERS2] = x;
    x = BOTH ? sqrt(abs(x)) : x * 0.5;
  }
  v[i] = x + float(SHIFTED & i) + float(DSCALE) + scratch[0];
}
