#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer F { float x[]; } f;
layout(std430, set = 0, binding = 1) buffer I { int v[]; } iv;

layout(std430, set = 0, binding = 3) buffer RI { int outi[]; } ro;
layout(std430, set = 0, binding = 4) buffer RF { float outf[]; } rf;
float priv_acc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = f.x[i];
  int v = iv.v[i];
  priv_acc = 0.0;
  priv_acc += exp2(x * 0.25) + log2(abs(x) + 1.0) + sin(x) * cos(x) + pow(abs(x), 1.5) + inversesqrt(abs(x) + 1.0);
  priv_acc += mix(x, 2.0 * x, 0.25) + smoothstep(-1.0, 1.0, x) + step(0.5, x) + sign(x) + trunc(x) + round(x) + roundEven(x) + ceil(x);
  priv_acc += atan(x, 2.0) + tanh(x) + min(x, 1.0) + max(x, -1.0);
  rf.outf[i] = priv_acc;
  ro.outi[i * 4 + 0] = findLSB(v);
  ro.outi[i * 4 + 1] = findMSB(v);
  ro.outi[i * 4 + 2] = abs(v) + sign(v);
  ro.outi[i * 4 + 3] = clamp(v, -5, 5) + min(v, 3) + max(v, -3);
}
