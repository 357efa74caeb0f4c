"""``queue_t`` kernel arguments: the host's handle of a device queue (OpenCL C 2.0 §6.13.17).

OpenCL's host creates device queues (``clCreateCommandQueueWithProperties`` with
``CL_QUEUE_ON_DEVICE``) and passes them to ``queue_t`` parameters; spirvkit's host passes
``spirvkit.DeviceQueue()``. Every device queue of a host launch is served by that launch's one
queue (runtime/device_queue.py): a command enqueued on any of them, or on
``get_default_queue()``, shares its records, events and limits and runs under its schedule.
Device queues are out-of-order queues, whose commands run in any order their events and flags
allow, so one schedule for all of them is one of the schedules OpenCL permits. The kernel sees
the launch queue's address in the parameter (written when the launch starts,
``LaunchQueue.bind_queue_arguments``); a launch without device-side enqueue cannot take one.
"""

from __future__ import annotations

from ..errors import KernelArgumentError


class DeviceQueue:
    """A device queue for a ``queue_t`` kernel parameter: ``k(n, None, out, spirvkit.DeviceQueue())``.
    ``DeviceQueue.default`` stands for the device's default queue (the same queue here)."""

    default: DeviceQueue

    def __repr__(self):
        return "<spirvkit.DeviceQueue (default)>" if self is DeviceQueue.default else "<spirvkit.DeviceQueue>"


DeviceQueue.default = DeviceQueue()


def check_queue_argument(value, where: str) -> None:
    if not isinstance(value, DeviceQueue):
        raise KernelArgumentError(f"{where} is a queue_t: pass a spirvkit.DeviceQueue() "
                                  f"(or spirvkit.DeviceQueue.default), not {type(value).__name__}")
