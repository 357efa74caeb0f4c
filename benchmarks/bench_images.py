"""Image kernels: spirvkit (checked and unchecked) against PoCL, in one run.

    .venv/bin/python benchmarks/bench_images.py               # 2048x2048, best of 10 (about a minute)
    .venv/bin/python benchmarks/bench_images.py --quick       # 256x256, best of 3: a smoke run
    .venv/bin/python benchmarks/bench_images.py --repeat 20 --size 1024

Two kernels (issue 14, item 5), OpenCL C compiled by ``spirvkit cc`` for spirvkit and built from
the same source by PoCL:

- ``box3x3``: a 3×3 box filter over a SIZE×SIZE RGBA / UNORM_INT8 image, read with an
  unnormalized NEAREST + CLAMP_TO_EDGE sampler, written to a write_only image of the same format;
- ``resize``: a bilinear resize of that image to 3/4 of its size, read with a normalized LINEAR
  + CLAMP_TO_EDGE sampler at the texel centres, written as RGBA / UNORM_INT8.

PoCL runs through pyopencl in this process (images made with COPY_HOST_PTR, outside the timing).
Timing: as bench_run.py: warm-up runs, then rounds interleaved (PoCL, spirvkit checked,
spirvkit unchecked), wall time per launch (PoCL: enqueue + wait; spirvkit: the call, on its
optimised tier-2 build for the launch's image formats and sampler), the best of the rounds; the
median is in the JSON. Correctness: both
spirvkit outputs against PoCL's, texel by texel within 1 (a UNORM_INT8 write may round a value
0.6 away from the exact one, env §7.4.1.4; the resize's linear filter has no defined precision,
§7.3, so its count of texels that differ by 1 is reported). Results: benchmarks/results/images.json
and images.md.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ["POCL_KERNEL_CACHE"] = "0"
os.environ["PYOPENCL_NO_CACHE"] = "1"
os.environ["SPIRVKIT_CACHE"] = "0"
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from scratch import scratch_dir  # noqa: E402

os.environ["SPIRVKIT_CACHE_DIR"] = str(scratch_dir("bench_images_spirvkit_cache_"))

import numpy as np  # noqa: E402

import spirvkit  # noqa: E402
from machine import machine_info  # noqa: E402

SOURCE = """
kernel void box3x3(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      sum += read_imagef(src, s, (float2)(p.x + dx + 0.5f, p.y + dy + 0.5f));
  write_imagef(dst, p, sum * (1.0f / 9.0f));
}

kernel void resize(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 uv = ((float2)(p.x, p.y) + 0.5f) / (float2)(get_image_width(dst), get_image_height(dst));
  write_imagef(dst, p, read_imagef(src, s, uv));
}
"""

# kernel -> (sampler: normalized, addressing, filter; output size as a fraction of the input)
KERNELS = {"box3x3": ((False, "CLAMP_TO_EDGE", "NEAREST"), 1.0),
           "resize": ((True, "CLAMP_TO_EDGE", "LINEAR"), 0.75)}


class Pocl:
    def __init__(self):
        import pyopencl as cl

        self.cl = cl
        for platform in cl.get_platforms():
            if "pocl" in platform.name.lower() or "portable" in platform.name.lower():
                try:
                    self.context = cl.Context(platform.get_devices())
                    self.program = cl.Program(self.context, SOURCE).build(options=["-cl-std=CL2.0"])
                except cl.Error:
                    continue   # a PoCL that cannot build for this CPU
                self.platform = platform
                self.device = platform.get_devices()[0]
                self.queue = cl.CommandQueue(self.context)
                return
        raise RuntimeError("no working PoCL platform")

    def launch(self, name: str, src: np.ndarray, out_shape: tuple, sampler: tuple):
        cl = self.cl
        mf = cl.mem_flags
        fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
        image = cl.create_image(self.context, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=src.shape[1::-1],
                                hostbuf=src)
        dst = cl.create_image(self.context, mf.WRITE_ONLY, fmt, shape=out_shape[1::-1])
        smp = cl.Sampler(self.context, sampler[0], getattr(cl.addressing_mode, sampler[1]),
                         getattr(cl.filter_mode, sampler[2]))
        kernel = getattr(self.program, name)
        kernel.set_args(image, smp, dst)
        size = out_shape[1::-1]
        held = (image, smp, dst)   # the kernel's arguments must outlive it: set_args keeps no reference

        def run() -> float:
            assert held
            gc.collect()
            start = time.perf_counter()
            cl.enqueue_nd_range_kernel(self.queue, kernel, size, None).wait()
            return time.perf_counter() - start

        def result() -> np.ndarray:
            out = np.zeros(out_shape + (4,), np.uint8)
            cl.enqueue_copy(self.queue, out, dst, origin=(0, 0), region=size)
            self.queue.finish()
            return out
        return run, result


def spirvkit_launch(program, name: str, src: np.ndarray, out_shape: tuple, sampler: tuple, unchecked: bool):
    kernel = program.kernel(name)
    out = np.zeros(out_shape + (4,), np.uint8)
    args = [spirvkit.Image(src, "RGBA", "UNORM_INT8", access="read_only"), spirvkit.Sampler(*sampler),
            spirvkit.Image(out, "RGBA", "UNORM_INT8", access="write_only")]
    size = out_shape[1::-1]
    kernel(size, None, *args, unchecked=unchecked)
    # The optimised build for these formats and this sampler (jit/image_launch.py), as launches use.
    kernel.compile(unchecked=unchecked, optimized=True, args=args)

    def run() -> float:
        gc.collect()
        start = time.perf_counter()
        kernel(size, None, *args, unchecked=unchecked)
        return time.perf_counter() - start
    return run, lambda: out


def compare(got: np.ndarray, want: np.ndarray) -> dict:
    diff = np.abs(got.astype(np.int16) - want)
    return {"max_difference": int(diff.max()), "components_off_by_one": int((diff == 1).sum()),
            "components": int(diff.size), "ok": bool(diff.max() <= 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="256x256, best of 3")
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.size, args.repeat, args.warmup = 256, 3, 1

    machine = machine_info()   # its load average is the one at the start
    src = np.random.default_rng(14).integers(0, 256, (args.size, args.size, 4), dtype=np.uint8)
    pocl = Pocl()
    program = spirvkit.Program(spirvkit.compile_cl(SOURCE, "-cl-std=CL2.0", filename="bench_images.cl"))
    rows = {}
    for name, (sampler, scale) in KERNELS.items():
        out_shape = (int(args.size * scale), int(args.size * scale))
        sides = {"PoCL": pocl.launch(name, src, out_shape, sampler),
                 "spirvkit checked": spirvkit_launch(program, name, src, out_shape, sampler, False),
                 "spirvkit unchecked": spirvkit_launch(program, name, src, out_shape, sampler, True)}
        for _ in range(args.warmup):
            for run, _ in sides.values():
                run()
        times = {side: [] for side in sides}
        for _ in range(args.repeat):
            for side, (run, _) in sides.items():
                times[side].append(run())
        reference = sides["PoCL"][1]()
        rows[name] = {
            "input": f"{args.size}x{args.size} RGBA/UNORM_INT8", "output": f"{out_shape[1]}x{out_shape[0]}",
            "sampler": dict(zip(("normalized", "addressing", "filter"), sampler)),
            "runs_ms": {side: [t * 1e3 for t in ts] for side, ts in times.items()},
            "best_ms": {side: min(ts) * 1e3 for side, ts in times.items()},
            "median_ms": {side: statistics.median(ts) * 1e3 for side, ts in times.items()},
            "check": {side: compare(sides[side][1](), reference)
                      for side in ("spirvkit checked", "spirvkit unchecked")},
        }
        print(f"{name}: " + ", ".join(f"{side} {ms:.2f} ms" for side, ms in rows[name]["best_ms"].items()), flush=True)

    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {**machine, "loadavg_at_end": list(os.getloadavg())},
        "pocl": {"platform": pocl.platform.version, "device": pocl.device.name,
                 "compute_units": pocl.device.max_compute_units},
        "spirvkit_threads": os.environ.get("SPIRVKIT_THREADS", "default (usable CPUs)"),
        "repeat": args.repeat, "warmup": args.warmup, "kernels": rows,
    }
    table = markdown(result)
    print(table)
    if not args.no_write:
        args.results.mkdir(parents=True, exist_ok=True)
        (args.results / "images.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        (args.results / "images.md").write_text(table, encoding="utf-8")
    return 0


def markdown(result: dict) -> str:
    m = result["machine"]
    lines = ["# Image kernels: spirvkit vs PoCL", "",
             f"{result['date']} · best of {result['repeat']} after {result['warmup']} warm-up runs · {m['cpu']}, "
             f"nproc {m['nproc']} · load average {m['loadavg_at_start'][0]:.2f} at start, "
             f"{m['loadavg_at_end'][0]:.2f} at end", "",
             f"PoCL: {result['pocl']['platform']}; device {result['pocl']['device']}, "
             f"{result['pocl']['compute_units']} compute units. spirvkit threads: {result['spirvkit_threads']}.", "",
             "| kernel | image | sampler | PoCL ms | spirvkit checked ms | spirvkit unchecked ms | checked / PoCL "
             "| unchecked / PoCL | checked / unchecked | spirvkit vs PoCL |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, row in result["kernels"].items():
        best = row["best_ms"]
        p, c, u = best["PoCL"], best["spirvkit checked"], best["spirvkit unchecked"]
        s = row["sampler"]
        checks = "; ".join(f"{side.split()[1]}: {'ok' if v['ok'] else 'MISMATCH'} (max diff {v['max_difference']}, "
                           f"{v['components_off_by_one']} of {v['components']} components off by 1)"
                           for side, v in row["check"].items())
        lines.append(f"| {name} | {row['input']} → {row['output']} | {'norm' if s['normalized'] else 'unnorm'}, "
                     f"{s['addressing']}, {s['filter']} | {p:.2f} | {c:.2f} | {u:.2f} | {c / p:.2f}x | {u / p:.2f}x "
                     f"| {c / u:.2f}x | {checks} |")
    lines += ["", "Wall time per launch, best of the rounds (PoCL: enqueue + wait; spirvkit: the call on its "
              "tier-2 build); images resident, made and read outside the timing."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
