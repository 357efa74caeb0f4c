// Structs: nested structs, arrays inside structs, packed structs, struct
// passed by pointer and by value, returned from a helper, unions.
typedef struct {
  float x, y, z;
} vec3_t;

typedef struct {
  vec3_t pos;
  int id;
  char tag[3];
  double mass;
} particle_t;

typedef struct __attribute__((packed)) {
  char c;
  int i;
  short s;
} packed_t;

typedef union {
  float f;
  uint u;
  uchar b[4];
} pun_t;

vec3_t add3(vec3_t a, vec3_t b) {
  vec3_t r = {a.x + b.x, a.y + b.y, a.z + b.z};
  return r;
}

kernel void structs(global particle_t *ps, global packed_t *pk,
                    vec3_t delta, global uint *bits) {
  size_t i = get_global_id(0);
  particle_t p = ps[i];
  p.pos = add3(p.pos, delta);
  p.id += (int)i;
  p.tag[1] = 'x';
  p.mass *= 2.0;
  ps[i] = p;
  pk[i].i += pk[i].c + pk[i].s;
  pun_t u;
  u.f = p.pos.x;
  bits[i] = u.u ^ u.b[3];
}
