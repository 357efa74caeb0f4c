"""The child process that runs PoCL, so that a peer that crashes, hangs or cannot build for
this CPU never takes the test run down (tests/peers/pocl_client.py starts and watches it).

It is a plain script (``python pocl_worker.py``) that imports only numpy and pyopencl. Requests
come as pickled frames on standard input, answers go back the same way on a private copy of
the original standard output; file descriptor 1 itself is pointed at standard error, except
around a launch whose printf output is wanted, when it is a temporary file (PoCL prints from C
straight to descriptor 1).

Requests (dicts, key ``op``):

- ``probe``: find a PoCL CPU device that builds and runs a smoke kernel; answers the device's
  facts or, per platform tried, why it failed. ``SPIRVKIT_POCL_PLATFORM`` (a substring of the
  platform's version string, e.g. ``3.1+debian``) restricts the choice.
- ``run``: one launch (see ``tests/peers/records.py``'s ``Launch``); answers the buffers and
  images afterwards and the printed text, or the build or launch error. An image is made with
  ``COPY_HOST_PTR`` from its texels (a 1D buffer image over a buffer made so) and read back
  whole after the launch.
- ``program``: run a whole pyopencl program (Python source, ``create_some_context`` finding
  the probed device through ``PYOPENCL_CTX``) and answer what it printed with ``print``, or the
  exception it raised.
- ``selftest``: ``crash`` (the process dies of SIGSEGV) or ``hang`` (it never answers), for the
  isolation tests; neither needs PoCL.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import signal
import struct
import sys
import tempfile
import time
import warnings

SMOKE = "kernel void smoke(global int *o) { size_t i = get_global_id(0); o[i] = (int)(i * i) + 7; }"


def read_frame(stream) -> object | None:
    header = stream.read(8)
    if len(header) < 8:
        return None
    (size,) = struct.unpack("<Q", header)
    return pickle.loads(stream.read(size))


def write_frame(stream, message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _first_error(text: str) -> str:
    """The line of a build log that says what went wrong (PoCL's logs are long)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower():
            return line[:300]
    return (lines[0] if lines else text)[:300]


class Peer:
    def __init__(self):
        import numpy as np
        import pyopencl as cl

        self.np, self.cl = np, cl
        self.context = self.queue = self.device = None
        self.programs: dict[tuple[str, str], object] = {}
        self.libc = ctypes.CDLL(None)

    # ------------------------------------------------------------------ finding the device

    def probe(self) -> dict:
        cl, np = self.cl, self.np
        wanted = os.environ.get("SPIRVKIT_POCL_PLATFORM", "")
        failures = []
        try:
            platforms = cl.get_platforms()
        except cl.Error as err:
            return {"ok": False, "failures": [f"no OpenCL platform: {err}"]}
        for platform in platforms:
            if "portable computing language" not in platform.name.lower() and "pocl" not in platform.name.lower():
                continue
            if wanted and wanted not in platform.version:
                failures.append(f"{platform.version}: not the platform SPIRVKIT_POCL_PLATFORM={wanted} names")
                continue
            for device in platform.get_devices():
                if not device.name.startswith(("pthread", "cpu")):
                    continue
                try:
                    context = cl.Context([device])
                    queue = cl.CommandQueue(context)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        program = cl.Program(context, SMOKE).build()
                    out = np.zeros(64, np.int32)
                    buf = cl.Buffer(context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
                    program.smoke(queue, (64,), None, buf)
                    cl.enqueue_copy(queue, out, buf)
                    queue.finish()
                except cl.Error as err:  # the build log says why (e.g. a CPU its LLVM does not know)
                    failures.append(f"{platform.version} ({device.name}): {_first_error(str(err))}")
                    continue
                if out.tolist() != [i * i + 7 for i in range(64)]:
                    failures.append(f"{platform.version} ({device.name}): the smoke kernel computed wrong values")
                    continue
                self.context, self.queue, self.device = context, queue, device
                return {"ok": True, "facts": self.facts(platform, device)}
        if not failures:
            failures.append("no PoCL platform with a CPU device (pyopencl sees: "
                            + (", ".join(p.version for p in platforms) or "no platform") + ")")
        return {"ok": False, "failures": failures}

    def facts(self, platform, device) -> dict:
        cl = self.cl
        try:
            non_uniform = bool(device.get_info(cl.device_info.NON_UNIFORM_WORK_GROUP_SUPPORT))
        except (AttributeError, cl.Error):
            non_uniform = device.version.startswith("OpenCL 2.")
        return {
            "platform": platform.version,
            "device": device.name,
            "driver": device.driver_version,
            "device_version": device.version,
            "c_version": device.opencl_c_version,
            "extensions": sorted(device.extensions.split()),
            "non_uniform_work_groups": non_uniform,
        }

    # ------------------------------------------------------------------ launching

    def program(self, source: str, options: str, fresh: bool):
        key = (source, options)
        if not fresh and key in self.programs:
            return self.programs[key]
        with warnings.catch_warnings():
            # pyopencl warns with the build log when the compiler printed anything at all.
            warnings.simplefilter("ignore")
            program = self.cl.Program(self.context, source).build(options=options)
        if not fresh:
            self.programs[key] = program
        return program

    def run(self, launch: dict) -> dict:
        cl, np = self.cl, self.np
        if self.context is None:
            probed = self.probe()
            if not probed["ok"]:
                return {"ok": False, "error": "no working PoCL: " + "; ".join(probed["failures"])}
        try:
            program = self.program(launch["source"], launch["options"], launch["fresh"])
        except cl.Error as err:
            return {"ok": False, "error": f"PoCL build failed: {_first_error(str(err))}"}
        try:
            kernel = cl.Kernel(program, launch["kernel"])
            mf = cl.mem_flags
            cl_args, buffers = [], []
            for index, (kind, value) in enumerate(launch["args"]):
                if kind == "buffer":
                    buf = cl.Buffer(self.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=value)
                    cl_args.append(buf)
                    buffers.append((index, buf, value, None))
                elif kind == "image":
                    image, memory, copy = self.image(value)
                    cl_args.append(image)
                    buffers.append((index, memory, value["data"], copy))
                elif kind == "sampler":
                    normalized, addressing, filter_mode = value
                    cl_args.append(cl.Sampler(self.context, normalized, getattr(cl.addressing_mode, addressing),
                                              getattr(cl.filter_mode, filter_mode)))
                elif kind == "local":
                    cl_args.append(cl.LocalMemory(value))
                elif kind == "bytes":
                    cl_args.append(np.frombuffer(value, dtype=np.uint8))
                else:  # a numpy scalar
                    cl_args.append(value)
            kernel.set_args(*cl_args)
            printed = self._launch(kernel, launch, buffers)
        except cl.Error as err:
            return {"ok": False, "error": f"PoCL launch failed: {err}"}
        return {"ok": True, "buffers": {index: host for index, _, host, _ in buffers}, "stdout": printed}

    IMAGE_TYPES = {"1d": "IMAGE1D", "1d_buffer": "IMAGE1D_BUFFER", "1d_array": "IMAGE1D_ARRAY", "2d": "IMAGE2D",
                   "2d_array": "IMAGE2D_ARRAY", "3d": "IMAGE3D", "2d_depth": "IMAGE2D",
                   "2d_array_depth": "IMAGE2D_ARRAY"}

    def image(self, value: dict):
        """A cl.Image holding ``value``'s texels, the memory object they are read back from after
        the launch, and how (a function of the queue, the memory object and the host array;
        None for a buffer)."""
        cl = self.cl
        mf = cl.mem_flags
        host = value["data"]
        desc = cl.ImageDescriptor()
        desc.image_type = getattr(cl.mem_object_type, self.IMAGE_TYPES[value["image_type"]])
        desc.shape = tuple(value["size"])
        if value["image_type"] in ("1d_array", "2d_array", "2d_array_depth"):
            # The shape setter takes the array size from the third number: a 1D array's is the second.
            desc.array_size = value["size"][-1]
        desc.pitches = (0, 0)
        desc.num_mip_levels = desc.num_samples = 0
        image_format = cl.ImageFormat(*value["cl_format"])
        if value["image_type"] == "1d_buffer":
            # The descriptor does not keep the buffer alive: the caller holds it until the copy.
            buffer = cl.Buffer(self.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
            desc.buffer = buffer
            return cl.Image(self.context, mf.READ_WRITE, image_format, desc=desc), buffer, None
        image = cl.Image(self.context, mf.READ_WRITE | mf.COPY_HOST_PTR, image_format, desc=desc, hostbuf=host)
        region = tuple(value["size"]) + (1,) * (3 - len(value["size"]))

        def copy(queue, memory, host):
            # pyopencl's enqueue_copy takes 2D and 3D images only, not 1D ones and 1D arrays.
            cl._cl._enqueue_read_image(queue, memory, (0, 0, 0), region, host, 0, 0)
        return image, image, copy

    def run_program(self, source: str) -> dict:
        import contextlib
        import io

        cl = self.cl
        if self.context is None:
            probed = self.probe()
            if not probed["ok"]:
                return {"ok": False, "error": "no working PoCL: " + "; ".join(probed["failures"])}
        platform = self.device.platform
        os.environ["PYOPENCL_CTX"] = (f"{cl.get_platforms().index(platform)}:"
                                      f"{platform.get_devices().index(self.device)}")
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
        except Exception as err:  # noqa: BLE001 - the program's own failure is the answer
            return {"ok": False, "error": f"the program raised {type(err).__name__}: {err}"}
        return {"ok": True, "stdout": printed.getvalue()}

    def _launch(self, kernel, launch: dict, buffers: list) -> str | None:
        cl = self.cl

        def enqueue():
            cl.enqueue_nd_range_kernel(self.queue, kernel, launch["global"], launch["local"],
                                       global_work_offset=launch["offset"])
            for _, memory, host, copy in buffers:
                if copy is None:
                    cl.enqueue_copy(self.queue, host, memory)
                else:
                    copy(self.queue, memory, host)
            self.queue.finish()

        if not launch["capture_stdout"]:
            enqueue()
            return None
        self.libc.fflush(None)
        with tempfile.TemporaryFile() as captured:
            os.dup2(captured.fileno(), 1)
            try:
                enqueue()
                self.libc.fflush(None)
            finally:
                os.dup2(2, 1)
            captured.seek(0)
            return captured.read().decode("utf-8", "backslashreplace")


def selftest(what: str) -> dict:
    if what == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "hang":
        while True:
            time.sleep(60)
    return {"ok": False, "error": f"unknown selftest {what!r}"}


def main() -> int:
    # Answers go out on a private copy of stdout; descriptor 1 goes to stderr so that nothing
    # PoCL prints can corrupt the frames.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    peer: Peer | None = None
    while (request := read_frame(requests)) is not None:
        op = request["op"]
        if op == "selftest":
            write_frame(answers, selftest(request["what"]))
            continue
        if peer is None:
            try:
                peer = Peer()
            except ImportError as err:
                write_frame(answers, {"ok": False, "error": f"pyopencl is not installed ({err})",
                                      "failures": [f"pyopencl is not installed ({err})"]})
                continue
        if op == "program":
            write_frame(answers, peer.run_program(request["source"]))
            continue
        write_frame(answers, peer.probe() if op == "probe" else peer.run(request["launch"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
