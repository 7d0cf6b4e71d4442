// The generated pixels every benchmark program times (gpuhist-bench,
// cub_compare, atomics_probe), so that they time the same ones: random RGBA8
// pixels from one deterministic generator, and the one-colour pixel.
// Header-only C++17, for the C++ and the CUDA programs alike.
#pragma once

#include <cstdint>
#include <vector>

namespace bench_patterns {

// The state every image starts from.
inline constexpr std::uint64_t kSeed = 0x9E3779B97F4A7C15ULL;

// The one-colour image's pixel (R 0xD2, G 0x8A, B 0x3C, opaque).
inline constexpr std::uint32_t kOneColour = 0xFF3C8AD2U;

// xorshift64*: fast and deterministic.
inline std::uint64_t next(std::uint64_t& state) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ULL;
}

// Random RGBA8 pixels, two per draw; `state` goes on from where they end.
inline void fill_random(std::vector<std::uint32_t>& pixels, std::uint64_t& state) {
  for (std::size_t i = 0; i < pixels.size(); i += 2) {
    const std::uint64_t r = next(state);
    pixels[i] = static_cast<std::uint32_t>(r);
    if (i + 1 < pixels.size()) pixels[i + 1] = static_cast<std::uint32_t>(r >> 32);
  }
}

}  // namespace bench_patterns
