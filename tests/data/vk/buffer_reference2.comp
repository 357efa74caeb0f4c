#version 450
// PhysicalStorageBuffer64 with pointer arithmetic (GL_EXT_buffer_reference2), addresses from
// uvec2 (GL_EXT_buffer_reference_uvec2), addresses stored in a storage buffer, and integer and
// float atomics through buffer references (tests/vk/test_variable_pointers.py).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 32) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Cell { float v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counter { uint n; float total; };
layout(std430, set = 0, binding = 0) readonly buffer Table { Cell cells[]; };
layout(push_constant) uniform PC { uvec2 counter; Cell out_base; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    Cell c = cells[i % 4];                 // an address read from a storage buffer
    Cell o = pc.out_base + i;              // pointer arithmetic: i cells (4 bytes each) on
    o.v = c.v * 10.0 + float(i);
    Counter k = Counter(pc.counter);       // an address from a uvec2
    atomicAdd(k.n, 1u);
    atomicAdd(k.total, c.v);
}
