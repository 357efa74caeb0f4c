// Images and samplers: read/write image2d/3d/1d buffer, literal and argument
// samplers, image queries.
constant sampler_t lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |
                         CLK_FILTER_LINEAR;

kernel void image_ops(read_only image2d_t src, write_only image2d_t dst,
                      read_only image3d_t vol, sampler_t smp,
                      read_write image2d_t rw, write_only image1d_buffer_t buf,
                      global int *info) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 uv = convert_float2(p) / (float2)(get_image_width(src), get_image_height(src));
  float4 a = read_imagef(src, lin, uv);
  float4 b = read_imagef(src, smp, p);
  float4 c = read_imagef(vol, smp, (float4)(uv, 0.5f, 0.0f));
  uint4 d = read_imageui(rw, p);
  write_imagef(dst, p, a + b + c);
  write_imageui(rw, p, d + (uint4)(1));
  write_imagef(buf, p.x, a);
  if (p.x == 0 && p.y == 0) {
    info[0] = get_image_channel_data_type(src);
    info[1] = get_image_channel_order(src);
    info[2] = get_image_depth(vol);
    int2 dim = get_image_dim(dst);
    info[3] = dim.x * dim.y;
  }
}
