#version 450
#extension GL_EXT_nonuniform_qualifier : require
// A runtime array of storage buffers (descriptor indexing) and a runtime array of sampled
// images, indexed per invocation (nonuniformEXT).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { uint v[]; } ins[];
layout(set = 0, binding = 1) uniform texture2D texs[];
layout(set = 0, binding = 2) uniform sampler smp;
layout(set = 0, binding = 3) buffer Out { vec4 total[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint which = ins[0].v[i];
  uint k = ins[nonuniformEXT(which)].v[i];
  total[i] = texelFetch(sampler2D(texs[nonuniformEXT(k)], smp), ivec2(0, 0), 0) + vec4(float(k));
}
