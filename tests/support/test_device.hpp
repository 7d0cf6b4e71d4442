// One internal Vulkan device per test program, for tests of the GPU layer
// below Context (limits and tuning knobs that the public API does not expose).
#pragma once

#include <memory>
#include <optional>

#include "vulkan/device.hpp"
#include "vulkan/device_select.hpp"
#include "vulkan/instance.hpp"

namespace gpuhist::test {

// The best device ("auto"), or nullptr when there is no Vulkan device at all.
inline vk::Device* test_device() {
  struct Holder {
    std::optional<vk::Instance> instance = vk::Instance::create();
    std::unique_ptr<vk::Device> device = instance ? vk::open_device(*instance, "auto") : nullptr;
    ~Holder() { device.reset(); }  // the device goes before the instance
  };
  static Holder holder;
  return holder.device.get();
}

}  // namespace gpuhist::test
