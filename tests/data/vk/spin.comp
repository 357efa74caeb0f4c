#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } b;
void main() { uint i = 0; while (b.v[0] == 0u) { i++; } b.v[1] = i; }
