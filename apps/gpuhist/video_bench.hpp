// `gpuhist bench --video`: frames per second of per-frame histograms and of the
// overlay video at 1080p and 2160p, next to `ffmpeg -vf histogram` on the same
// clip in the same run (the ffmpeg command line is the yardstick).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuhist::cli {

struct VideoBenchArgs {
  bool enabled = false;
  std::uint32_t frames = 60;
};

// Returns the exit status: 0, 2 for bad options, 3 for device failures, 4
// for output, 1 when the clips cannot be made (no ffmpeg command line).
int run_video_bench(const VideoBenchArgs& args, const std::vector<std::string>& sizes,
                    const std::string& device, const std::string& output);

}  // namespace gpuhist::cli
