// The shape of a video's pixels, as a stream declares it: an anamorphic clip
// (PAL DV at 720x576 shown 4:3 or 16:9, HDV at 1440x1080 shown 16:9) has
// pixels wider or narrower than square. What VideoReader reads and
// VideoWriter writes. Part of the gpuhist::io library.
#pragma once

#include <cstdint>

namespace gpuhist {

// A pixel's width over its height, num:den; 0:1 where the stream declares
// none (players take its pixels as square).
struct PixelAspect {
  std::uint32_t num = 0;
  std::uint32_t den = 1;
  friend bool operator==(const PixelAspect&, const PixelAspect&) = default;
};

}  // namespace gpuhist
