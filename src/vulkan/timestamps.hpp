// A pool of GPU timestamp queries, read back as intervals in milliseconds.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {

class Device;

class Timestamps {
 public:
  // A pool of `count` timestamps. Throws Error(Device) when the device has no
  // timestamps on its compute queue.
  Timestamps(const Device& device, std::uint32_t count);
  [[nodiscard]] VkQueryPool get() const noexcept { return pool_.get(); }
  // Milliseconds between queries 2k and 2k + 1, for each k; waits for them.
  [[nodiscard]] std::vector<double> intervals_ms() const;

 private:
  const Device& device_;
  std::uint32_t count_;
  UniqueQueryPool pool_;
};

// The median of a list (0 for an empty one).
[[nodiscard]] double median(std::vector<double> values);

}  // namespace gpuhist::vk
