// Program-scope data: __constant tables (scalars, vectors, structs, strings),
// and OpenCL 2.0 program-scope __global variables (with and without init).
constant float coeffs[8] = {1.0f, -0.5f, 0.25f, -0.125f,
                            0x1p-4f, -0x1p-5f, 1e-30f, -0.0f};
constant int4 lut[4] = {(int4)(0, 1, 2, 3), (int4)(-1, -2, -3, -4),
                        (int4)(0x7fffffff), (int4)(-2147483647 - 1)};
typedef struct { short a; float b; } pair_t;
constant pair_t pairs[2] = {{1, 2.0f}, {-3, 4.5f}};
constant char message[] = "constant string \"with quotes\" and \\ backslash";
constant ulong big = 0xFEDCBA9876543210UL;
constant double dconst[3] = {3.141592653589793, -0.0, 1e-300};

global int counter = 7;
global float state[4];

kernel void constant_data(global float *out, int sel) {
  size_t i = get_global_id(0);
  float acc = 0.f;
  for (int k = 0; k < 8; ++k)
    acc += coeffs[k] * (float)(i + k);
  int4 l = lut[sel & 3];
  acc += (float)(l.x + l.w) + pairs[sel & 1].b + (float)pairs[1].a;
  acc += (float)message[sel & 15] + (float)(big >> 60) + (float)dconst[sel % 3];
  counter += 1;
  state[i & 3] = acc;
  out[i] = acc + (float)counter;
}
