#include "vulkan/host_import.hpp"

#include <unistd.h>

#include <cstdint>

#include "vulkan/buffer.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {

std::optional<HostImport> HostImport::create(const Device& device, const void* data,
                                             std::size_t size) {
  const VkDeviceSize alignment = device.host_import_alignment();
  const long page = ::sysconf(_SC_PAGESIZE);
  // Rounded out to the alignment, the range must still cover only pages that
  // hold some of its bytes, which are mapped.
  if (alignment == 0 || page <= 0 || alignment > static_cast<VkDeviceSize>(page) || size == 0 ||
      data == nullptr) {
    return std::nullopt;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t base = address & ~(alignment - 1);
  const std::uintptr_t end = (address + size + alignment - 1) & ~(alignment - 1);
  const VkDeviceSize bytes = end - base;
  void* const host = reinterpret_cast<void*>(base);  // NOLINT(performance-no-int-to-ptr)

  constexpr VkExternalMemoryHandleTypeFlagBits kind =
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkMemoryHostPointerPropertiesEXT pointer{};
  pointer.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT;
  if (device.host_pointer_properties(kind, host, &pointer) != VK_SUCCESS) return std::nullopt;

  VkExternalMemoryBufferCreateInfo external{};
  external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
  external.handleTypes = kind;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.pNext = &external;
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  if (vkCreateBuffer(device.get(), &info, nullptr, &buffer) != VK_SUCCESS) return std::nullopt;
  HostImport out;
  out.buffer_ = UniqueBuffer(device.get(), buffer);

  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(device.get(), buffer, &requirements);
  // Host-coherent: what the host wrote before the submission is what the device reads.
  const auto type =
      find_memory_type(device.memory(), requirements.memoryTypeBits & pointer.memoryTypeBits,
                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (!type || requirements.size > bytes) return std::nullopt;

  VkImportMemoryHostPointerInfoEXT import{};
  import.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT;
  import.handleType = kind;
  import.pHostPointer = host;
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.pNext = &import;
  alloc.allocationSize = bytes;
  alloc.memoryTypeIndex = *type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (vkAllocateMemory(device.get(), &alloc, nullptr, &memory) != VK_SUCCESS) return std::nullopt;
  out.memory_ = UniqueMemory(device.get(), memory);
  if (vkBindBufferMemory(device.get(), buffer, memory, 0) != VK_SUCCESS) return std::nullopt;
  out.offset_ = address - base;
  return out;
}

}  // namespace gpuhist::vk
