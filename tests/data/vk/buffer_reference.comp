#version 450
// PhysicalStorageBuffer64 (GL_EXT_buffer_reference): buffers reached through device addresses
// in push constants, a linked list of nodes whose links are addresses, address arithmetic
// through uint64_t (tests/vk/test_buffer_pointers.py).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 16) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node { Node next; float value; int pad; };
layout(push_constant) uniform PC { Floats src; Floats dst; Node list; uint n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) {
        pc.dst.v[i] = pc.src.v[i] * 2.0 + float(i);
    }
    if (i == 0) {
        float sum = 0.0;
        int hops = 0;
        for (Node p = pc.list; uint64_t(p) != 0 && hops < 100; p = p.next) {
            sum += p.value;
            hops++;
        }
        Floats tail = Floats(uint64_t(pc.dst) + 4ul * pc.n);   // address arithmetic
        tail.v[0] = sum;
        tail.v[1] = float(hops);
    }
}
