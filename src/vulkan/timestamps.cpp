#include "vulkan/timestamps.hpp"

#include <algorithm>
#include <string>

#include "gpuhist/error.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {

Timestamps::Timestamps(const Device& device, std::uint32_t count) : device_(device), count_(count) {
  if (!device.info().timestamps) {
    throw Error(ErrorKind::Device,
                "device '" + device.info().name + "' has no timestamps on its compute queue");
  }
  VkQueryPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = count;
  VkQueryPool pool = VK_NULL_HANDLE;
  check(vkCreateQueryPool(device.get(), &info, nullptr, &pool), "creating a timestamp pool");
  pool_ = UniqueQueryPool(device.get(), pool);
}

std::vector<double> Timestamps::intervals_ms() const {
  std::vector<std::uint64_t> ticks(count_);
  check(vkGetQueryPoolResults(
            device_.get(), pool_.get(), 0, count_, ticks.size() * sizeof(std::uint64_t),
            ticks.data(), sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "reading timestamps");
  std::vector<double> ms;
  for (std::uint32_t k = 0; k + 1 < count_; k += 2) {
    ms.push_back(static_cast<double>(ticks[k + 1] - ticks[k]) * device_.info().timestamp_period_ns *
                 1e-6);
  }
  return ms;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace gpuhist::vk
