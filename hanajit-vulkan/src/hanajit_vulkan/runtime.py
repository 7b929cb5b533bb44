"""The Vulkan runtime: instance, device, buffers, compute pipelines, dispatch.

Loaded on the first launch only (``get_runtime``): the ``vulkan`` package opens
``libvulkan.so.1`` when imported, so the target imports and compiles without it.
One process-wide :class:`Runtime` holds the instance, the device
(``HANAJIT_VULKAN_DEVICE``: an index, or part of the device name), its compute
queue and one pipeline per SPIR-V module (cached by content).

``HANAJIT_VULKAN_VALIDATION=1`` enables ``VK_LAYER_KHRONOS_validation``; every
message of severity error is collected and :meth:`Runtime.check_validation`
raises it (the tests run that way).  ``../shared/notes/vulkan-spirv.md`` has the
runner details this follows (apiVersion 1.3, the feature chain, mapped buffers).
"""
from __future__ import annotations

import hashlib
import os
import threading

from hanajit.errors import TargetError

DEVICE_ENV = "HANAJIT_VULKAN_DEVICE"
VALIDATION_ENV = "HANAJIT_VULKAN_VALIDATION"
VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation"
_FLOAT_ATOMICS = ("VK_EXT_shader_atomic_float", "VK_EXT_shader_atomic_float2")

_lock = threading.Lock()
_runtime = None


def get_runtime() -> "Runtime":
    """The process's runtime, created on first use; TargetError when Vulkan (the
    ``vulkan`` package, the loader or a device) is missing."""
    global _runtime
    with _lock:
        if _runtime is None:
            _runtime = Runtime(validation=os.environ.get(VALIDATION_ENV, "") not in
                               ("", "0"))
        return _runtime


def load_vulkan():
    """The ``vulkan`` module (which opens ``libvulkan.so.1``); TargetError without it."""
    try:
        import vulkan
    except ImportError as exc:
        raise TargetError("the vulkan target needs the 'vulkan' package to launch: "
                          "pip install 'hanajit-vulkan[launch]'") from exc
    except OSError as exc:
        raise TargetError(f"no Vulkan loader (libvulkan.so.1): {exc}") from exc
    return vulkan


class ValidationError(RuntimeError):
    """A message of VK_LAYER_KHRONOS_validation of severity error."""


class Buffer:
    """A host-visible, coherent storage buffer, mapped for its whole life."""

    def __init__(self, rt: "Runtime", size: int):
        vk = rt.vk
        self.rt, self.size = rt, size
        alloc = max(16, -(-size // 16) * 16)
        self.buffer = vk.vkCreateBuffer(rt.device, vk.VkBufferCreateInfo(
            size=alloc, usage=vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None)
        req = vk.vkGetBufferMemoryRequirements(rt.device, self.buffer)
        self.memory = vk.vkAllocateMemory(rt.device, vk.VkMemoryAllocateInfo(
            allocationSize=req.size,
            memoryTypeIndex=rt.memory_type(req.memoryTypeBits)), None)
        vk.vkBindBufferMemory(rt.device, self.buffer, self.memory, 0)
        self.alloc = alloc
        self.mapped = vk.vkMapMemory(rt.device, self.memory, 0, alloc, 0)
        self.base = vk.ffi.cast("char *", vk.ffi.from_buffer(self.mapped))
        vk.ffi.memmove(self.base, bytes(alloc), alloc)

    def _check(self, offset: int, n: int) -> None:
        if offset < 0 or offset + n > self.alloc:
            raise ValueError(f"vulkan: bytes {offset}..{offset + n} are outside a "
                             f"{self.alloc}-byte buffer")

    def write(self, data: bytes, offset: int = 0) -> None:
        self._check(offset, len(data))
        self.rt.vk.ffi.memmove(self.base + offset, data, len(data))

    def read(self, n: int | None = None, offset: int = 0) -> bytes:
        n = self.size if n is None else n
        self._check(offset, n)
        return bytes(self.rt.vk.ffi.buffer(self.base + offset, n))

    def copy_in(self, host_address: int, n: int, offset: int = 0) -> None:
        self._check(offset, n)
        ffi = self.rt.vk.ffi
        ffi.memmove(self.base + offset, ffi.cast("char *", host_address), n)

    def copy_out(self, host_address: int, n: int, offset: int = 0) -> None:
        self._check(offset, n)
        ffi = self.rt.vk.ffi
        ffi.memmove(ffi.cast("char *", host_address), self.base + offset, n)

    def free(self) -> None:
        if self.buffer is None:
            return
        self.rt.forget(self)
        vk = self.rt.vk
        vk.vkUnmapMemory(self.rt.device, self.memory)
        vk.vkDestroyBuffer(self.rt.device, self.buffer, None)
        vk.vkFreeMemory(self.rt.device, self.memory, None)
        self.buffer = None


class Pipeline:
    """A compute pipeline for one SPIR-V module: ``buffers`` storage-buffer
    bindings at set 0, ``push`` bytes of push constants."""

    def __init__(self, rt: "Runtime", spirv: bytes, buffers: int, push: int):
        vk = rt.vk
        self.rt, self.buffers, self.push = rt, buffers, push
        d = rt.device
        self.module = vk.vkCreateShaderModule(d, vk.VkShaderModuleCreateInfo(
            codeSize=len(spirv), pCode=spirv), None)
        rt.check_validation("creating the shader module")
        bindings = [vk.VkDescriptorSetLayoutBinding(
            binding=i, descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            descriptorCount=1, stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT)
            for i in range(buffers)]
        self.set_layout = vk.vkCreateDescriptorSetLayout(
            d, vk.VkDescriptorSetLayoutCreateInfo(pBindings=bindings), None)
        ranges = ([vk.VkPushConstantRange(stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT,
                                          offset=0, size=push)] if push else [])
        self.layout = vk.vkCreatePipelineLayout(d, vk.VkPipelineLayoutCreateInfo(
            pSetLayouts=[self.set_layout], pPushConstantRanges=ranges), None)
        stage = vk.VkPipelineShaderStageCreateInfo(
            stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=self.module, pName="main")
        self.pipeline = vk.vkCreateComputePipelines(
            d, None, 1, [vk.VkComputePipelineCreateInfo(stage=stage, layout=self.layout)],
            None)[0]
        rt.check_validation("creating the compute pipeline")


class Submission:
    """One dispatch in flight: its fence and command buffer."""

    def __init__(self, rt, fence, command, on_done):
        self.rt, self.fence, self.command = rt, fence, command
        self.on_done = on_done

    def wait(self) -> None:
        vk, d = self.rt.vk, self.rt.device
        vk.vkWaitForFences(d, 1, [self.fence], vk.VK_TRUE, 0xFFFFFFFFFFFFFFFF)
        with self.rt.lock:
            vk.vkDestroyFence(d, self.fence, None)
            vk.vkFreeCommandBuffers(d, self.rt.command_pool, 1, [self.command])
        self.on_done()


class Runtime:
    def __init__(self, validation: bool = False):
        vk = self.vk = load_vulkan()
        self.validation = validation
        self.messages: list[str] = []
        self.pipelines: dict = {}
        self.lock = threading.RLock()         # the queue and the pipeline cache
        self.sets: dict = {}                  # (pipeline, buffers) -> (pool, set)
        self.sets_of: dict = {}               # id(buffer) -> its keys in sets
        layers, extensions = [], []
        if validation:
            have = {p.layerName for p in vk.vkEnumerateInstanceLayerProperties()}
            if VALIDATION_LAYER not in have:
                raise TargetError(f"{VALIDATION_ENV} is set but {VALIDATION_LAYER} is "
                                  "not installed (Debian: vulkan-validationlayers)")
            layers, extensions = [VALIDATION_LAYER], ["VK_EXT_debug_utils"]
        app = vk.VkApplicationInfo(pApplicationName="hanajit",
                                   apiVersion=vk.VK_MAKE_VERSION(1, 3, 0))
        try:
            self.instance = vk.vkCreateInstance(vk.VkInstanceCreateInfo(
                pApplicationInfo=app, ppEnabledLayerNames=layers,
                ppEnabledExtensionNames=extensions), None)
        except vk.VkError as exc:
            raise TargetError(f"cannot create a Vulkan 1.3 instance: {exc!r}") from exc
        if validation:
            self._messenger()
        self.physical, self.device_name = self._pick_device()
        self._create_device()

    # -- setup -------------------------------------------------------------------------
    def _messenger(self):
        vk = self.vk

        def callback(severity, types, data, user):
            if severity & vk.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT:
                self.messages.append(vk.ffi.string(data.pMessage).decode(errors="replace"))
            return 0
        self._callback = callback
        create = vk.vkGetInstanceProcAddr(self.instance, "vkCreateDebugUtilsMessengerEXT")
        self._debug = create(self.instance, vk.VkDebugUtilsMessengerCreateInfoEXT(
            messageSeverity=(vk.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                             | vk.VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT),
            messageType=(vk.VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT
                         | vk.VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                         | vk.VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT),
            pfnUserCallback=callback), None)

    def _pick_device(self):
        vk = self.vk
        devices = vk.vkEnumeratePhysicalDevices(self.instance)
        if not devices:
            raise TargetError("Vulkan: no physical device")
        named = [(d, vk.vkGetPhysicalDeviceProperties(d).deviceName) for d in devices]
        want = os.environ.get(DEVICE_ENV, "").strip()
        if not want:
            return named[0]
        if want.isdigit():
            if int(want) >= len(named):
                raise TargetError(f"{DEVICE_ENV}={want}: only {len(named)} device(s)")
            return named[int(want)]
        for d, name in named:
            if want.lower() in name.lower():
                return d, name
        raise TargetError(f"{DEVICE_ENV}={want!r} matches none of "
                          f"{', '.join(n for _, n in named)}")

    def _create_device(self):
        vk = self.vk
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(self.physical)
        self.family = next((i for i, f in enumerate(families)
                            if f.queueFlags & vk.VK_QUEUE_COMPUTE_BIT), None)
        if self.family is None:
            raise TargetError(f"{self.device_name}: no compute queue")
        have = {e.extensionName for e in
                vk.vkEnumerateDeviceExtensionProperties(self.physical, None)}
        self.extensions = [e for e in _FLOAT_ATOMICS if e in have]
        nxt = None
        if "VK_EXT_shader_atomic_float2" in self.extensions:
            nxt = vk.VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT(
                shaderBufferFloat32AtomicMinMax=vk.VK_TRUE,
                shaderSharedFloat32AtomicMinMax=vk.VK_TRUE)
        if "VK_EXT_shader_atomic_float" in self.extensions:
            nxt = vk.VkPhysicalDeviceShaderAtomicFloatFeaturesEXT(
                pNext=nxt, shaderBufferFloat32AtomicAdd=vk.VK_TRUE,
                shaderBufferFloat32Atomics=vk.VK_TRUE,
                shaderSharedFloat32AtomicAdd=vk.VK_TRUE,
                shaderSharedFloat32Atomics=vk.VK_TRUE)
        f13 = vk.VkPhysicalDeviceVulkan13Features(pNext=nxt)
        f12 = vk.VkPhysicalDeviceVulkan12Features(
            pNext=f13, shaderInt8=vk.VK_TRUE, storageBuffer8BitAccess=vk.VK_TRUE,
            vulkanMemoryModel=vk.VK_TRUE, vulkanMemoryModelDeviceScope=vk.VK_TRUE)
        features = vk.VkPhysicalDeviceFeatures2(
            pNext=f12, features=vk.VkPhysicalDeviceFeatures(
                shaderFloat64=vk.VK_TRUE, shaderInt64=vk.VK_TRUE, shaderInt16=vk.VK_TRUE))
        queue = vk.VkDeviceQueueCreateInfo(queueFamilyIndex=self.family,
                                           pQueuePriorities=[1.0])
        try:
            self.device = vk.vkCreateDevice(self.physical, vk.VkDeviceCreateInfo(
                pNext=features, pQueueCreateInfos=[queue],
                ppEnabledExtensionNames=self.extensions), None)
        except vk.VkError as exc:
            raise TargetError(f"{self.device_name}: cannot create a device with "
                              f"float64/int64/int8 shaders: {exc!r}") from exc
        self.queue = vk.vkGetDeviceQueue(self.device, self.family, 0)
        self.command_pool = vk.vkCreateCommandPool(self.device, vk.VkCommandPoolCreateInfo(
            queueFamilyIndex=self.family,
            flags=vk.VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT), None)
        memory = vk.vkGetPhysicalDeviceMemoryProperties(self.physical)
        self.memory_types = [memory.memoryTypes[i].propertyFlags
                             for i in range(memory.memoryTypeCount)]
        limits = vk.vkGetPhysicalDeviceProperties(self.physical).limits
        self.max_invocations = limits.maxComputeWorkGroupInvocations
        self.max_size = tuple(limits.maxComputeWorkGroupSize)
        self.max_groups = tuple(limits.maxComputeWorkGroupCount)
        self.max_push = limits.maxPushConstantsSize

    def memory_type(self, bits: int) -> int:
        vk = self.vk
        want = (vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT
                | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
        for i, flags in enumerate(self.memory_types):
            if bits & (1 << i) and flags & want == want:
                return i
        raise TargetError(f"{self.device_name}: no host-visible coherent memory")

    # -- use ---------------------------------------------------------------------------
    def check_validation(self, what: str) -> None:
        if self.messages:
            msgs, self.messages[:] = list(self.messages), []
            raise ValidationError(f"Vulkan validation errors while {what}:\n"
                                  + "\n".join(msgs))

    def pipeline(self, spirv: bytes, buffers: int, push: int) -> Pipeline:
        key = (hashlib.sha256(spirv).hexdigest(), buffers, push)
        with self.lock:
            p = self.pipelines.get(key)
            if p is None:
                p = self.pipelines[key] = Pipeline(self, spirv, buffers, push)
            return p

    def dispatch(self, pipe: Pipeline, buffers: list, push: bytes, groups,
                 on_done) -> Submission:
        """Queue one dispatch of ``groups`` workgroups; returns its submission."""
        with self.lock:             # the command pool and the queue: one thread at a time
            return self._dispatch(pipe, buffers, push, groups, on_done)

    def descriptor_set(self, pipe: Pipeline, buffers: list):
        """The descriptor set binding ``buffers`` for ``pipe``, made once per
        combination (never updated, so launches in flight may share it) and
        destroyed when one of its buffers is freed."""
        key = (id(pipe), tuple(id(b) for b in buffers))
        hit = self.sets.get(key)
        if hit is not None:
            return hit[1]
        vk, d = self.vk, self.device
        pool = vk.vkCreateDescriptorPool(d, vk.VkDescriptorPoolCreateInfo(
            maxSets=1, pPoolSizes=[vk.VkDescriptorPoolSize(
                type=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                descriptorCount=max(1, len(buffers)))]), None)
        dset = vk.vkAllocateDescriptorSets(d, vk.VkDescriptorSetAllocateInfo(
            descriptorPool=pool, pSetLayouts=[pipe.set_layout]))[0]
        writes = [vk.VkWriteDescriptorSet(
            dstSet=dset, dstBinding=i, descriptorCount=1,
            descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=b.buffer, offset=0,
                                                   range=b.alloc)])
            for i, b in enumerate(buffers)]
        if writes:
            vk.vkUpdateDescriptorSets(d, len(writes), writes, 0, None)
        self.sets[key] = (pool, dset)
        for b in buffers:
            self.sets_of.setdefault(id(b), []).append(key)
        return dset

    def forget(self, buffer) -> None:
        """Destroy the descriptor sets that bind ``buffer`` (being freed)."""
        with self.lock:
            for key in self.sets_of.pop(id(buffer), ()):
                hit = self.sets.pop(key, None)
                if hit is not None:
                    self.vk.vkDestroyDescriptorPool(self.device, hit[0], None)

    def _dispatch(self, pipe, buffers, push, groups, on_done):
        vk, d = self.vk, self.device
        dset = self.descriptor_set(pipe, buffers)
        command = vk.vkAllocateCommandBuffers(d, vk.VkCommandBufferAllocateInfo(
            commandPool=self.command_pool, level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            commandBufferCount=1))[0]
        vk.vkBeginCommandBuffer(command, vk.VkCommandBufferBeginInfo(
            flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT))
        vk.vkCmdBindPipeline(command, vk.VK_PIPELINE_BIND_POINT_COMPUTE, pipe.pipeline)
        vk.vkCmdBindDescriptorSets(command, vk.VK_PIPELINE_BIND_POINT_COMPUTE,
                                   pipe.layout, 0, 1, [dset], 0, None)
        if push:
            vk.vkCmdPushConstants(command, pipe.layout, vk.VK_SHADER_STAGE_COMPUTE_BIT,
                                  0, len(push), vk.ffi.new("char[]", push))
        vk.vkCmdDispatch(command, *groups)
        vk.vkEndCommandBuffer(command)
        fence = vk.vkCreateFence(d, vk.VkFenceCreateInfo(), None)
        vk.vkQueueSubmit(self.queue, 1, [vk.VkSubmitInfo(pCommandBuffers=[command])],
                         fence)
        return Submission(self, fence, command, on_done)
