#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer M {
  layout(row_major) mat3x2 r;     // 2 rows of vec3: row stride 16
  layout(column_major) mat3x2 c;  // 3 columns of vec2: column stride 8
  vec2 got[3];
} m;
void main() {
  for (int k = 0; k < 3; k++) m.got[k] = m.r[k];       // columns of a row-major matrix: gathers
  vec2 first = m.c[0];
  m.c[0] = m.r[2];
  m.r[1] = first * 10.0;                               // a scatter into the second column
  m.r[2][1] = 99.0;
}
