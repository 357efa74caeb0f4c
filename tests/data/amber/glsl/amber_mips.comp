#version 450
// An Amber IMAGE with MIP_LEVELS (level 0 its data, the others zeros) and a SAMPLER with
// COMPARE on (tests/data/amber/mips_compare_asm.amber).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(set = 0, binding = 2) buffer Out { vec4 r[]; };
void main() {
  r[0] = textureLod(tex, vec2(0.3, 0.6), 0.0);
  r[1] = textureLod(tex, vec2(0.3, 0.6), 1.0);
  r[2] = vec4(textureQueryLevels(tex), textureSize(tex, 1), 0.0);
  r[3] = vec4(textureLod(depth, vec3(0.1, 0.5, 0.5), 0.0), textureLod(depth, vec3(0.9, 0.5, 0.5), 0.0), 0.0, 0.0);
}
