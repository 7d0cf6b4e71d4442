// The Y'CbCr planes an image file stores, counted as decoded with no colour
// conversion (`gpuhist compute --space ycbcr`, `gpuhist.histogram_file(...,
// space="ycbcr")`).
#pragma once

#include <cstdint>
#include <filesystem>

#include "gpuhist/video_file.hpp"

namespace gpuhist {

// The Y', Cb and Cr planes of a JPEG file (Y' alone for a grey one) as
// FFmpeg's decoder hands them over: Y' at full size, Cb and Cr at their
// subsampled size, the levels `ffmpeg -i F -f rawvideo` writes; the frame's
// colour gives the range and matrix the file declares. Throws Error(Input)
// naming the file for a missing or unreadable file, a file of another format
// (naming it), a damaged JPEG, or one of more than `max_pixels` pixels.
[[nodiscard]] VideoFrame read_jpeg_planes(const std::filesystem::path& path,
                                          std::uint64_t max_pixels);

}  // namespace gpuhist
