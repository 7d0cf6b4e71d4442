// Buffers with their own memory, one allocation each (gpuhist needs only a few,
// reused across calls). Upload memory is host-visible and written sequentially;
// readback memory is host-visible and, where offered, host-cached for reading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {

class Device;

enum class MemoryUse {
  DeviceLocal,  // GPU-only; fastest for shaders
  Mappable,     // device-local and host-visible (unified memory, a GPU's BAR): written in place
  Upload,       // host-visible, coherent: the source of copies to the GPU
  Readback,     // host-visible, coherent, cached when possible: the target of copies back
};

// The first memory type among `allowed` (a memoryTypeBits mask) with all of `required`.
[[nodiscard]] std::optional<std::uint32_t> find_memory_type(
    const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t allowed,
    VkMemoryPropertyFlags required);

class Buffer {
 public:
  Buffer() = default;
  // A buffer of at least `size` bytes (rounded up to 4). Throws Error(Device)
  // when no memory type fits or the allocation fails (e.g. out of GPU memory).
  Buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use);

  [[nodiscard]] VkBuffer get() const noexcept { return buffer_.get(); }
  [[nodiscard]] VkDeviceSize size() const noexcept { return size_; }
  // Host address of the mapped memory; nullptr for DeviceLocal buffers.
  [[nodiscard]] void* mapped() const noexcept { return mapped_; }

 private:
  UniqueMemory memory_;  // freed after the buffer is destroyed
  UniqueBuffer buffer_;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

// Makes `buffer` at least `size` bytes, reallocating (the old one released
// first) only when it is smaller; true when it did. Throws as Buffer's
// constructor does.
bool ensure_buffer(Buffer& buffer, const Device& device, VkDeviceSize size,
                   VkBufferUsageFlags usage, MemoryUse use);

}  // namespace gpuhist::vk
