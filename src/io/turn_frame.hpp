// Showing a video frame as its stream asks: the turn (and mirroring) a
// stream's display matrix declares, read as the ffmpeg command line reads
// it. Part of the gpuhist::io library.
#pragma once

#include <cstdint>

#include "io/orientation.hpp"

namespace gpuhist::io {

// What the ffmpeg command line does to show frames of `matrix` (a display
// matrix, 9 values; nullptr for none) upright: the turn it describes, rounded
// to a multiple of 90 degrees within 1 degree (none for other angles), and
// the mirroring a mirrored matrix adds (transpose=cclock_flip and clock_flip,
// hflip and vflip, as ffmpeg 5.1 picks them). turn_and_mirror() says it as a
// clockwise turn and a mirroring.
[[nodiscard]] Orientation upright_orientation(const std::int32_t* matrix);

}  // namespace gpuhist::io
