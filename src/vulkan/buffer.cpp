#include "vulkan/buffer.hpp"

#include <optional>
#include <span>
#include <string>

#include "gpuhist/error.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {
namespace {

// Preferred property sets first, the minimum last.
std::span<const VkMemoryPropertyFlags> preferences(MemoryUse use) {
  constexpr VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr VkMemoryPropertyFlags host =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  constexpr VkMemoryPropertyFlags cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  static constexpr VkMemoryPropertyFlags device_local[] = {local, 0};
  static constexpr VkMemoryPropertyFlags mappable[] = {local | host};
  static constexpr VkMemoryPropertyFlags upload[] = {host};
  static constexpr VkMemoryPropertyFlags readback[] = {host | cached, host};
  switch (use) {
    case MemoryUse::DeviceLocal:
      return device_local;
    case MemoryUse::Mappable:
      return mappable;
    case MemoryUse::Upload:
      return upload;
    case MemoryUse::Readback:
      return readback;
  }
  return upload;
}

}  // namespace

namespace {

// Large buffers are sized in whole 2 MiB pages and get an allocation of their
// own, which lets drivers map them with large pages: on an NVIDIA H200 a 1 GiB
// buffer in a plain allocation read at a fraction of the memory bandwidth.
constexpr VkDeviceSize kLargePage = VkDeviceSize{2} << 20;
constexpr VkDeviceSize kDedicatedFrom = VkDeviceSize{64} << 20;

VkDeviceSize buffer_size(VkDeviceSize size) {
  size = (size + 3) & ~VkDeviceSize{3};
  if (size >= kLargePage) size = (size + kLargePage - 1) & ~(kLargePage - 1);
  return size;
}

}  // namespace

std::optional<std::uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& memory,
                                              std::uint32_t allowed,
                                              VkMemoryPropertyFlags required) {
  for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((allowed & (1U << i)) != 0 &&
        (memory.memoryTypes[i].propertyFlags & required) == required) {
      return i;
    }
  }
  return std::nullopt;
}

bool ensure_buffer(Buffer& buffer, const Device& device, VkDeviceSize size,
                   VkBufferUsageFlags usage, MemoryUse use) {
  if (buffer.get() != VK_NULL_HANDLE && buffer.size() >= size) return false;
  buffer = Buffer();  // release the old one before allocating the new one
  buffer = Buffer(device, size, usage, use);
  return true;
}

Buffer::Buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use)
    : size_(buffer_size(size)) {
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size_ == 0 ? 4 : size_;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  check(vkCreateBuffer(device.get(), &info, nullptr, &buffer), "creating a buffer");
  buffer_ = UniqueBuffer(device.get(), buffer);

  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(device.get(), buffer, &requirements);
  std::optional<std::uint32_t> type;
  for (VkMemoryPropertyFlags flags : preferences(use)) {
    type = find_memory_type(device.memory(), requirements.memoryTypeBits, flags);
    if (type) break;
  }
  if (!type) throw Error(ErrorKind::Device, "no suitable Vulkan memory type for a buffer");

  VkMemoryDedicatedAllocateInfo dedicated{};
  dedicated.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO;
  dedicated.buffer = buffer;
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  if (requirements.size >= kDedicatedFrom) alloc.pNext = &dedicated;
  alloc.allocationSize = requirements.size >= kLargePage
                             ? (requirements.size + kLargePage - 1) & ~(kLargePage - 1)
                             : requirements.size;
  alloc.memoryTypeIndex = *type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  check(vkAllocateMemory(device.get(), &alloc, nullptr, &memory),
        "allocating " + std::to_string(requirements.size) + " bytes of GPU memory");
  memory_ = UniqueMemory(device.get(), memory);
  check(vkBindBufferMemory(device.get(), buffer, memory, 0), "binding buffer memory");
  if (use != MemoryUse::DeviceLocal) {
    check(vkMapMemory(device.get(), memory, 0, VK_WHOLE_SIZE, 0, &mapped_), "mapping a buffer");
  }
}

}  // namespace gpuhist::vk
