#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 4) in;
layout(constant_id = 0) const bool NEGATE = false;
layout(std430, binding = 0) buffer B { int8_t i8[8]; uint16_t u16[4]; float16_t h[4]; int64_t i64[4]; double d[4]; } b;
void main() {
  uint i = gl_GlobalInvocationID.x;
  b.i8[i] = int8_t(b.i8[i] * int8_t(3));
  b.u16[i] = uint16_t(b.u16[i] + uint16_t(40000));
  b.h[i] = b.h[i] * float16_t(0.5);
  b.i64[i] = NEGATE ? -b.i64[i] * 3 : b.i64[i] * 3;
  b.d[i] = sqrt(b.d[i]);
}
