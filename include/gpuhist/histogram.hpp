// The result of counting: up to four histograms (R, G, B, luminance) of
// 64-bit counts over the same number of bins.
#pragma once

#if __cplusplus < 202002L
#error "gpuhist's headers are C++20: compile with -std=c++20 (CMake's gpuhist targets ask for it)"
#endif

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuhist/histogram_options.hpp"

namespace gpuhist {

// The four histograms, in the order they are interleaved on the GPU.
enum class Channel : std::uint8_t { Red = 0, Green = 1, Blue = 2, Luminance = 3 };

inline constexpr std::array<Channel, 4> kAllChannels = {Channel::Red, Channel::Green, Channel::Blue,
                                                        Channel::Luminance};

// "red", "green", "blue", "luminance".
[[nodiscard]] std::string_view to_string(Channel channel);

// Histograms of one image (or a sum over several). Colour input has all four
// channels; grey input has luminance only. A value type: copyable and comparable.
class Histogram {
 public:
  Histogram() = default;
  // Zero counts; `colour` selects R, G, B and L, otherwise L only.
  // Throws Error(InvalidArgument) for bins outside 1..65536.
  Histogram(std::uint32_t bins, bool colour);
  Histogram(const Histogram&) = default;
  Histogram& operator=(const Histogram&) = default;
  // A moved-from histogram is empty: no bins, no channels' counts.
  Histogram(Histogram&& other) noexcept
      : bins_(std::exchange(other.bins_, 0U)),
        colour_(std::exchange(other.colour_, false)),
        counts_(std::move(other.counts_)) {
    for (auto& c : other.counts_) c.clear();
  }
  Histogram& operator=(Histogram&& other) noexcept {
    if (this == &other) return *this;
    bins_ = std::exchange(other.bins_, 0U);
    colour_ = std::exchange(other.colour_, false);
    counts_ = std::move(other.counts_);
    for (auto& c : other.counts_) c.clear();
    return *this;
  }
  ~Histogram() = default;

  [[nodiscard]] std::uint32_t bins() const noexcept { return bins_; }
  [[nodiscard]] bool colour() const noexcept { return colour_; }
  [[nodiscard]] bool has(Channel channel) const noexcept {
    return (colour_ && static_cast<std::uint32_t>(channel) <= 3) || channel == Channel::Luminance;
  }
  // The channels present: R, G, B, L for colour, L for grey.
  [[nodiscard]] std::span<const Channel> channels() const noexcept;

  // Counts of one channel (bins() entries). Empty for a channel not present
  // (or a value that is no Channel).
  [[nodiscard]] std::span<const std::uint64_t> counts(Channel channel) const noexcept;
  [[nodiscard]] std::span<std::uint64_t> counts(Channel channel) noexcept;

  // Sum of the counts of one channel: the number of pixels counted.
  [[nodiscard]] std::uint64_t total(Channel channel) const noexcept;

  // Adds another histogram's counts channel by channel (bins must match; a grey
  // histogram adds only luminance; adding colour to grey makes this colour).
  // Throws Error(InvalidArgument), changing nothing, on a bin-count mismatch or
  // when a channel's counts would add up to more than 2^64 - 1.
  Histogram& operator+=(const Histogram& other);

  friend bool operator==(const Histogram&, const Histogram&) = default;

 private:
  std::uint32_t bins_ = 0;
  bool colour_ = false;
  std::array<std::vector<std::uint64_t>, 4> counts_{};
};

}  // namespace gpuhist
