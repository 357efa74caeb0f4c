#version 450
// Not a benchmark: run once on each side before the others, so that one-time process costs
// (spirvkit's imports, grammar and LLVM set-up; lavapipe's LLVM set-up) are not charged to the
// first shader's first dispatch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer X { float x[]; };

void main() { x[gl_GlobalInvocationID.x] += 1.0; }
