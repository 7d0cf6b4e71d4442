#include "gpuhist/histogram.hpp"

#include <numeric>
#include <span>
#include <string>
#include <utility>

#include "gpuhist/error.hpp"

namespace gpuhist {

std::string_view to_string(Channel channel) {
  switch (channel) {
    case Channel::Red:
      return "red";
    case Channel::Green:
      return "green";
    case Channel::Blue:
      return "blue";
    case Channel::Luminance:
      return "luminance";
  }
  return "?";
}

Histogram::Histogram(std::uint32_t bins, bool colour) : bins_(bins), colour_(colour) {
  validate(HistogramOptions{bins, LumaWeights::Rec709});
  for (Channel channel : channels()) counts_[static_cast<std::size_t>(channel)].assign(bins, 0);
}

std::span<const Channel> Histogram::channels() const noexcept {
  static constexpr std::array<Channel, 1> grey = {Channel::Luminance};
  if (colour_) return kAllChannels;
  return grey;
}

std::span<const std::uint64_t> Histogram::counts(Channel channel) const noexcept {
  const auto c = static_cast<std::size_t>(channel);
  if (c >= counts_.size()) return {};  // not a channel (an enum made from a number)
  return counts_[c];
}

std::span<std::uint64_t> Histogram::counts(Channel channel) noexcept {
  const auto c = static_cast<std::size_t>(channel);
  if (c >= counts_.size()) return {};
  return counts_[c];
}

std::uint64_t Histogram::total(Channel channel) const noexcept {
  const auto c = counts(channel);
  return std::accumulate(c.begin(), c.end(), std::uint64_t{0});
}

Histogram& Histogram::operator+=(const Histogram& other) {
  if (bins_ == 0) {
    *this = other;
    return *this;
  }
  if (other.bins_ == 0) return *this;
  if (other.bins_ != bins_) {
    throw Error(ErrorKind::InvalidArgument, "cannot add histograms of " +
                                                std::to_string(other.bins_) + " and " +
                                                std::to_string(bins_) + " bins");
  }
  // Exact or refused: no channel's counts may add up past 2^64 - 1 (then no
  // bin can either), checked before anything changes.
  for (Channel channel : other.channels()) {
    std::uint64_t sum = 0;
    bool over = false;
    for (const std::span<const std::uint64_t> part :
         {std::as_const(*this).counts(channel), other.counts(channel)}) {
      for (const std::uint64_t n : part) over = over || __builtin_add_overflow(sum, n, &sum);
    }
    if (over) {
      throw Error(ErrorKind::InvalidArgument, "the " + std::string(to_string(channel)) +
                                                  " counts would add up to more than 2^64 - 1");
    }
  }
  if (other.colour_ && !colour_) {
    colour_ = true;
    for (Channel channel : {Channel::Red, Channel::Green, Channel::Blue}) {
      counts_[static_cast<std::size_t>(channel)].assign(bins_, 0);
    }
  }
  for (Channel channel : other.channels()) {
    auto dst = counts(channel);
    const auto src = other.counts(channel);
    for (std::size_t i = 0; i < dst.size(); ++i) dst[i] += src[i];
  }
  return *this;
}

}  // namespace gpuhist
