// The caller's own memory made readable by the device without a copy by the
// host (VK_EXT_external_memory_host): the pages that hold a range of bytes are
// imported as a buffer the device copies from.
#pragma once

#include <cstddef>
#include <optional>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {

class Device;

class HostImport {
 public:
  // The pages holding [data, data + size) as a transfer source, or nullopt
  // when the device cannot import them (no extension, an import alignment
  // larger than a page, memory the driver refuses such as read-only mappings).
  // The memory must stay valid, and unchanged while the device reads it, until
  // the HostImport is destroyed; the device reads only the bytes of the range.
  [[nodiscard]] static std::optional<HostImport> create(const Device& device, const void* data,
                                                       std::size_t size);

  [[nodiscard]] VkBuffer get() const noexcept { return buffer_.get(); }
  // Where `data` lies in the buffer.
  [[nodiscard]] VkDeviceSize offset() const noexcept { return offset_; }

 private:
  HostImport() = default;
  UniqueMemory memory_;  // released after the buffer
  UniqueBuffer buffer_;
  VkDeviceSize offset_ = 0;
};

}  // namespace gpuhist::vk
