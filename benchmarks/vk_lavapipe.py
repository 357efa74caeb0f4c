"""Lavapipe (Mesa's CPU Vulkan driver) as a benchmark peer: just enough Vulkan, through the
``vulkan`` package (cffi bindings of libvulkan), to run a compute shader on storage buffers
with push constants. Bench-only: spirvkit never imports it.

    apt-get install -y mesa-vulkan-drivers libvulkan1
    pip install vulkan           # or: pip install spirvkit[bench]

``open_lavapipe()`` returns a ``Lavapipe`` or raises ``LavapipeUnavailable`` saying why (no
package, no loader, no lavapipe device), so that the benchmark can run spirvkit's side alone.
"""

from __future__ import annotations

import gc
import glob
import os
import subprocess
import time

import numpy as np


class LavapipeUnavailable(RuntimeError):
    """Lavapipe cannot be driven from this process; the message says why."""


def _pin_icd() -> str | None:
    """Points the Vulkan loader at lavapipe's ICD alone (other Mesa ICDs, for GPUs this machine
    may not have, would only slow instance creation down and print warnings)."""
    found = sorted(glob.glob("/usr/share/vulkan/icd.d/lvp_icd*.json"))
    if found and "VK_ICD_FILENAMES" not in os.environ and "VK_DRIVER_FILES" not in os.environ:
        os.environ["VK_ICD_FILENAMES"] = os.environ["VK_DRIVER_FILES"] = found[0]
    return found[0] if found else None


def _package_version(name: str) -> str | None:
    """The installed Debian package's version, or None (not Debian, not installed)."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


def open_lavapipe() -> Lavapipe:
    icd = _pin_icd()
    try:
        import vulkan  # noqa: F401 - its import loads libvulkan.so.1
    except ImportError as exc:
        raise LavapipeUnavailable(f"the `vulkan` package is not installed ({exc}): pip install vulkan, or "
                                  f"pip install -e '.[bench]'") from None
    except Exception as exc:  # noqa: BLE001 - the package's import fails when libvulkan.so.1 is missing
        raise LavapipeUnavailable(f"the Vulkan loader cannot be loaded ({exc}): apt-get install libvulkan1") from None
    if icd is None:
        raise LavapipeUnavailable("no lavapipe ICD in /usr/share/vulkan/icd.d: apt-get install mesa-vulkan-drivers")
    try:
        return Lavapipe()
    except LavapipeUnavailable:
        raise
    except Exception as exc:  # noqa: BLE001 - any driver failure means: no peer, say why
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise LavapipeUnavailable(f"lavapipe failed to start ({detail}; ICD {icd}, VK_ICD_FILENAMES="
                                  f"{os.environ.get('VK_ICD_FILENAMES')})") from None


class Lavapipe:
    """One Vulkan 1.1 instance and device on lavapipe, with a compute queue."""

    def __init__(self):
        import vulkan as vk

        self.vk = vk
        app = vk.VkApplicationInfo(sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO, pApplicationName="bench_vk",
                                   applicationVersion=1, pEngineName="bench_vk", engineVersion=1,
                                   apiVersion=vk.VK_MAKE_VERSION(1, 1, 0))
        self.instance = vk.vkCreateInstance(vk.VkInstanceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                                                    pApplicationInfo=app), None)
        devices = [d for d in vk.vkEnumeratePhysicalDevices(self.instance)
                   if "llvmpipe" in vk.vkGetPhysicalDeviceProperties(d).deviceName]
        if not devices:
            raise LavapipeUnavailable("the Vulkan loader lists no llvmpipe (lavapipe) device")
        self.physical = devices[0]
        props = vk.vkGetPhysicalDeviceProperties(self.physical)
        self.device_name = props.deviceName
        self.api_version = "{}.{}.{}".format(vk.VK_VERSION_MAJOR(props.apiVersion),
                                             vk.VK_VERSION_MINOR(props.apiVersion),
                                             vk.VK_VERSION_PATCH(props.apiVersion))
        # lavapipe's driverVersion says nothing (1); the Mesa package's version does.
        self.driver_version = f"mesa-vulkan-drivers {_package_version('mesa-vulkan-drivers') or '(version unknown)'}"
        self.timestamp_period_ns = props.limits.timestampPeriod
        self.subgroup = self._subgroup_properties()
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(self.physical)
        self.family = next(i for i, f in enumerate(families) if f.queueFlags & vk.VK_QUEUE_COMPUTE_BIT)
        queue_info = vk.VkDeviceQueueCreateInfo(sType=vk.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                                queueFamilyIndex=self.family, queueCount=1, pQueuePriorities=[1.0])
        self.device = vk.vkCreateDevice(self.physical, vk.VkDeviceCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, pQueueCreateInfos=[queue_info]), None)
        self.queue = vk.vkGetDeviceQueue(self.device, self.family, 0)
        self.command_pool = vk.vkCreateCommandPool(self.device, vk.VkCommandPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, queueFamilyIndex=self.family), None)
        memory = vk.vkGetPhysicalDeviceMemoryProperties(self.physical)
        wanted = vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
        self.memory_type = next(i for i in range(memory.memoryTypeCount)
                                if memory.memoryTypes[i].propertyFlags & wanted == wanted)

    def _subgroup_properties(self) -> dict | None:
        vk = self.vk
        try:
            sub = vk.VkPhysicalDeviceSubgroupProperties(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES)
            props = vk.VkPhysicalDeviceProperties2(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, pNext=sub)
            vk.vkGetPhysicalDeviceProperties2(self.physical, props)
            return {"size": sub.subgroupSize, "operations": hex(sub.supportedOperations)}
        except Exception:  # noqa: BLE001 - only recorded, never needed
            return None

    def pipeline(self, spirv: bytes, buffers: list[np.ndarray], push: bytes, groups: tuple[int, int, int]) -> Dispatch:
        return Dispatch(self, spirv, buffers, push, groups)


class Dispatch:
    """A compute pipeline with its storage buffers (binding i = buffers[i], in host-visible,
    coherent memory, filled before any timing) and a command buffer recorded once: bind, push
    constants, dispatch. ``run()`` is one submit + wait, timed."""

    def __init__(self, lvp: Lavapipe, spirv: bytes, buffers: list[np.ndarray], push: bytes, groups):
        vk = self.vk = lvp.vk
        self.lvp, d = lvp, lvp.device
        self.device = d
        self.shapes = [(b.shape, b.dtype) for b in buffers]
        self.buffers, self.sizes, self.memories, self.maps = [], [], [], []
        for array in buffers:
            size = max(array.nbytes, 4)
            buf = vk.vkCreateBuffer(d, vk.VkBufferCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, size=size,
                usage=vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None)
            req = vk.vkGetBufferMemoryRequirements(d, buf)
            if not req.memoryTypeBits & (1 << lvp.memory_type):
                raise LavapipeUnavailable("lavapipe offers no host-visible memory for storage buffers")
            mem = vk.vkAllocateMemory(d, vk.VkMemoryAllocateInfo(
                sType=vk.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, allocationSize=req.size,
                memoryTypeIndex=lvp.memory_type), None)
            vk.vkBindBufferMemory(d, buf, mem, 0)
            mapped = np.frombuffer(vk.vkMapMemory(d, mem, 0, size, 0), np.uint8)
            mapped[:array.nbytes] = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
            self.buffers.append(buf)
            self.sizes.append(size)
            self.memories.append(mem)
            self.maps.append(mapped)

        start = time.perf_counter()   # the shader's compilation, as a first dispatch pays it
        self.shader = vk.vkCreateShaderModule(d, vk.VkShaderModuleCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, codeSize=len(spirv), pCode=spirv), None)
        bindings = [vk.VkDescriptorSetLayoutBinding(binding=i, descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                    descriptorCount=1, stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT)
                    for i in range(len(buffers))]
        self.set_layout = vk.vkCreateDescriptorSetLayout(d, vk.VkDescriptorSetLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, pBindings=bindings), None)
        ranges = [vk.VkPushConstantRange(stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT, offset=0, size=len(push))]
        self.layout = vk.vkCreatePipelineLayout(d, vk.VkPipelineLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, pSetLayouts=[self.set_layout],
            pPushConstantRanges=ranges if push else None), None)
        stage = vk.VkPipelineShaderStageCreateInfo(sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                   stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=self.shader,
                                                   pName="main")
        self.pipeline = vk.vkCreateComputePipelines(d, vk.VK_NULL_HANDLE, 1, [vk.VkComputePipelineCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, stage=stage, layout=self.layout)], None)[0]
        self.build_s = time.perf_counter() - start

        sizes = [vk.VkDescriptorPoolSize(type=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, descriptorCount=len(buffers))]
        self.pool = vk.vkCreateDescriptorPool(d, vk.VkDescriptorPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, maxSets=1, pPoolSizes=sizes), None)
        self.set = vk.vkAllocateDescriptorSets(d, vk.VkDescriptorSetAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, descriptorPool=self.pool,
            pSetLayouts=[self.set_layout]))[0]
        writes = [vk.VkWriteDescriptorSet(sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=self.set,
                                          dstBinding=i, dstArrayElement=0, descriptorCount=1,
                                          descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                          pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=b, offset=0, range=size)])
                  for i, (b, size) in enumerate(zip(self.buffers, self.sizes))]
        vk.vkUpdateDescriptorSets(d, len(writes), writes, 0, None)

        self.command = vk.vkAllocateCommandBuffers(d, vk.VkCommandBufferAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, commandPool=lvp.command_pool,
            level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1))[0]
        vk.vkBeginCommandBuffer(self.command, vk.VkCommandBufferBeginInfo(
            sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, flags=0))
        # Two timestamps around the dispatch: the driver's own execution time, beside the wall time.
        self.queries = vk.vkCreateQueryPool(d, vk.VkQueryPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, queryType=vk.VK_QUERY_TYPE_TIMESTAMP, queryCount=2),
            None)
        self.stamps = vk.ffi.new("uint64_t[2]")
        vk.vkCmdResetQueryPool(self.command, self.queries, 0, 2)
        vk.vkCmdWriteTimestamp(self.command, vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, self.queries, 0)
        vk.vkCmdBindPipeline(self.command, vk.VK_PIPELINE_BIND_POINT_COMPUTE, self.pipeline)
        vk.vkCmdBindDescriptorSets(self.command, vk.VK_PIPELINE_BIND_POINT_COMPUTE, self.layout, 0, 1, [self.set],
                                   0, None)
        if push:
            self._push = vk.ffi.new("char[]", push)   # the command buffer copies it; kept for clarity
            vk.vkCmdPushConstants(self.command, self.layout, vk.VK_SHADER_STAGE_COMPUTE_BIT, 0, len(push), self._push)
        vk.vkCmdDispatch(self.command, *groups)
        vk.vkCmdWriteTimestamp(self.command, vk.VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, self.queries, 1)
        vk.vkEndCommandBuffer(self.command)
        self.fence = vk.vkCreateFence(d, vk.VkFenceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                                                              flags=0), None)
        self.submit = vk.VkSubmitInfo(sType=vk.VK_STRUCTURE_TYPE_SUBMIT_INFO, pCommandBuffers=[self.command])

    def run(self) -> float:
        """One dispatch: queue submit and wait on its fence (wall time, seconds)."""
        vk = self.vk
        gc.collect()
        start = time.perf_counter()
        vk.vkQueueSubmit(self.lvp.queue, 1, [self.submit], self.fence)
        vk.vkWaitForFences(self.device, 1, [self.fence], vk.VK_TRUE, 0xFFFFFFFFFFFFFFFF)
        elapsed = time.perf_counter() - start
        vk.vkResetFences(self.device, 1, [self.fence])
        return elapsed

    def device_time(self) -> float:
        """The last run's time between its two timestamps (seconds): the dispatch as the driver ran
        it, without the submit and the wake-up of the waiting thread."""
        vk = self.vk
        vk.vkGetQueryPoolResults(self.device, self.queries, 0, 2, 16, self.stamps, 8,
                                 vk.VK_QUERY_RESULT_64_BIT | vk.VK_QUERY_RESULT_WAIT_BIT)
        return (self.stamps[1] - self.stamps[0]) * self.lvp.timestamp_period_ns * 1e-9

    def read(self, binding: int) -> np.ndarray:
        """A copy of the buffer at ``binding``, with the shape and dtype it was made from."""
        shape, dtype = self.shapes[binding]
        count = int(np.prod(shape))
        return self.maps[binding][:count * np.dtype(dtype).itemsize].view(dtype).reshape(shape).copy()

    def close(self) -> None:
        vk, d = self.vk, self.device
        vk.vkDestroyFence(d, self.fence, None)
        vk.vkDestroyQueryPool(d, self.queries, None)
        vk.vkFreeCommandBuffers(d, self.lvp.command_pool, 1, [self.command])
        vk.vkDestroyDescriptorPool(d, self.pool, None)
        vk.vkDestroyPipeline(d, self.pipeline, None)
        vk.vkDestroyPipelineLayout(d, self.layout, None)
        vk.vkDestroyDescriptorSetLayout(d, self.set_layout, None)
        vk.vkDestroyShaderModule(d, self.shader, None)
        self.maps.clear()
        for buf, mem in zip(self.buffers, self.memories):
            vk.vkUnmapMemory(d, mem)
            vk.vkDestroyBuffer(d, buf, None)
            vk.vkFreeMemory(d, mem, None)
