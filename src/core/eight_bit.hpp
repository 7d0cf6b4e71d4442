// A 16-bit sample as the nearest 8-bit one, where a picture is shown or
// written in 8 bits (the overlay, an 8-bit output format).
#pragma once

#include <cstdint>

namespace gpuhist {

// round(v * 255 / 65535) = (v + 128) / 257: 257 = 65535 / 255 is odd, so no
// value lies halfway. (src/shaders/overlay.frag computes the same.)
[[nodiscard]] constexpr std::uint8_t nearest_eight_bit(std::uint16_t v) noexcept {
  return static_cast<std::uint8_t>((v + 128U) / 257U);
}

}  // namespace gpuhist
