// Host side of the CUDA yardsticks (cub_compare, atomics_probe): the images,
// made from pixel_patterns.hpp so that they time the pixels gpuhist-bench
// times, the median of event timings, and a check of CUDA calls. Included by
// .cu files only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pixel_patterns.hpp"

// Exits 3 with the failed call and CUDA's message.
#define BENCH_CUDA_CHECK(program, call)                                                \
  do {                                                                                 \
    cudaError_t err_ = (call);                                                         \
    if (err_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s: %s: %s\n", program, #call, cudaGetErrorString(err_));  \
      std::exit(3);                                                                    \
    }                                                                                  \
  } while (0)

namespace bench_images {

struct Photo {
  unsigned width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};

// An 8-bit binary PPM (what `bench/h200.sh prepare` writes); exits 1 otherwise.
inline Photo read_ppm(const char* program, const char* path) {
  Photo p;
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  unsigned max_value = 0;
  in >> magic >> p.width >> p.height >> max_value;
  in.get();
  if (!in || magic != "P6" || max_value != 255) {
    std::fprintf(stderr, "%s: %s: not an 8-bit binary PPM\n", program, path);
    std::exit(1);
  }
  p.rgb.resize(std::size_t{p.width} * p.height * 3);
  in.read(reinterpret_cast<char*>(p.rgb.data()), static_cast<std::streamsize>(p.rgb.size()));
  return p;
}

// RGBA8 pixels, one per word: kind 0 random, 1 one colour, 2 the photo tiled.
inline std::vector<std::uint32_t> make(unsigned w, unsigned h, int kind, const Photo* photo) {
  const std::size_t n = std::size_t{w} * h;
  std::vector<std::uint32_t> px(n);
  if (kind == 0) {
    std::uint64_t state = bench_patterns::kSeed;
    bench_patterns::fill_random(px, state);
  } else if (kind == 1) {
    std::fill(px.begin(), px.end(), bench_patterns::kOneColour);
  } else {
    for (unsigned y = 0; y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
        const std::uint8_t* s =
            photo->rgb.data() + (std::size_t{y % photo->height} * photo->width + x % photo->width) * 3;
        px[std::size_t{y} * w + x] = s[0] | (s[1] << 8) | (s[2] << 16) | 0xFF000000U;
      }
    }
  }
  return px;
}

inline float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5f * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace bench_images
