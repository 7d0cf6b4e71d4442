// The benchmark's images: RGBA8 pixels of a kind (random, one colour, the
// photograph tiled to the size), converted to a case's format.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bench_runner.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::bench {

// Pixels of one benchmark image, 16-byte aligned.
struct Pixels {
  std::vector<std::uint32_t> storage;
  ImageView view;
};

// The image of `kind` at width x height in the case's format. Throws
// Error(InvalidArgument) for the photo kind without a photo.
[[nodiscard]] Pixels make_pixels(const Case& c, std::uint32_t width, std::uint32_t height,
                                 DataKind kind, const std::optional<Photo>& photo);

}  // namespace gpuhist::bench
