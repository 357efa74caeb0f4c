"""pyopencl-style image filtering: a 3x3 box blur of an RGBA8 image through a sampler, a
bilinear half-pixel shift of a float image, and image <-> host / buffer / image copies."""
import numpy as np

import spirvkit.cl as cl

H, W = 24, 32
rng = np.random.default_rng(3)
photo = rng.integers(0, 256, (H, W, 4), dtype=np.uint8)

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
prg = cl.Program(ctx, """
__kernel void blur(read_only image2d_t src, sampler_t smp, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 sum = (float4)(0.0f);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += read_imagef(src, smp, p + (int2)(dx, dy));
    write_imagef(dst, p, sum / 9.0f);
}
__kernel void shift(read_only image2d_t src, sampler_t smp, __global float *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    float2 c = (float2)(x + 1.0f, y + 1.0f);    /* between four texel centres */
    out[y * get_global_size(0) + x] = read_imagef(src, smp, c).x;
}
""").build()

fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
src = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(W, H), hostbuf=photo)
dst = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(W, H))
nearest = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
prg.blur(queue, (W, H), None, src, nearest, dst)
blurred = np.empty_like(photo)
cl.enqueue_copy(queue, blurred, dst, origin=(0, 0), region=(W, H))
print("image:", src.shape, src.format, "element size", src.element_size, "row pitch", src.row_pitch)
print("blurred corner:", blurred[0, 0].tolist(), "centre:", blurred[H // 2, W // 2].tolist())
print("blurred checksum:", int(blurred.astype(np.int64).sum()))
box = np.pad(photo.astype(np.float64), ((1, 1), (1, 1), (0, 0)), mode="edge")
expect = sum(box[dy:dy + H, dx:dx + W] for dy in range(3) for dx in range(3)) / 9
print("within one step of numpy:", bool(np.abs(blurred - expect).max() <= 1))

# A float image, sampled bilinearly between texels.
heights = rng.random((H, W), dtype=np.float32)
himg = cl.image_from_array(ctx, heights, 1)
linear = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
out_g = cl.Buffer(ctx, mf.WRITE_ONLY, (H - 1) * (W - 1) * 4)
prg.shift(queue, (W - 1, H - 1), None, himg, linear, out_g)
shifted = np.empty((H - 1, W - 1), np.float32)
cl.enqueue_copy(queue, shifted, out_g)
avg = (heights[:-1, :-1] + heights[1:, :-1] + heights[:-1, 1:] + heights[1:, 1:]) / 4
print("bilinear:", himg.format, "max error below 1e-3:", bool(np.abs(shifted - avg).max() < 1e-3))
print("bilinear sample:", round(float(shifted[5, 7]), 3), round(float(avg[5, 7]), 3))

# Copies: a region of the blurred image to a buffer, back into another image, then to the host.
tile_g = cl.Buffer(ctx, mf.READ_WRITE, 8 * 4 * 4)
cl.enqueue_copy(queue, tile_g, dst, origin=(4, 2), region=(8, 4), offset=0)
tile_img = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(8, 4))
cl.enqueue_copy(queue, tile_img, tile_g, offset=0, origin=(0, 0), region=(8, 4))
again = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(8, 4))
cl.enqueue_copy(queue, again, tile_img, src_origin=(0, 0), dest_origin=(0, 0), region=(8, 4))
tile = np.zeros((4, 8, 4), np.uint8)
cl.enqueue_copy(queue, tile, again, origin=(0, 0), region=(8, 4))
print("copied tile matches:", bool((tile == blurred[2:6, 4:12]).all()))
