// One all-pairs n-body step. Positions are float4 (xyz, w = mass); the
// interaction is softened by eps2 and uses rsqrt.
kernel void nbody(global const float4 *pos, global const float4 *vel,
                  global float4 *new_pos, global float4 *new_vel,
                  const uint n, const float dt, const float eps2) {
  const size_t i = get_global_id(0);
  if (i >= n)
    return;
  const float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (uint j = 0; j < n; j++) {
    const float4 q = pos[j];
    const float dx = q.x - p.x;
    const float dy = q.y - p.y;
    const float dz = q.z - p.z;
    const float r2 = dx * dx + dy * dy + dz * dz + eps2;
    const float inv = rsqrt(r2);
    const float s = q.w * inv * inv * inv;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  float4 v = vel[i];
  v.x += ax * dt;
  v.y += ay * dt;
  v.z += az * dt;
  float4 np = p;
  np.x += v.x * dt;
  np.y += v.y * dt;
  np.z += v.z * dt;
  new_pos[i] = np;
  new_vel[i] = v;
}
