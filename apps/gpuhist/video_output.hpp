// The video `gpuhist video` writes with --overlay or --adjust: every frame
// adjusted by its histogram, cover-scaled, with its histograms drawn on it.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "batch.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/video_file.hpp"
#include "video_command.hpp"

namespace gpuhist::cli {

// What the written video shows of each frame.
struct VideoEdit {
  bool panels = true;                             // the histogram panels over the frame
  std::function<void(VideoFrame& frame)> adjust;  // applied to the frame first; RGB out
  VideoEncoding encoding;                         // how the video is encoded
};

struct OverlayResult {
  std::int64_t frames = 0;
  std::string codec;
  std::string audio_note;  // VideoWriter::audio_note()
  std::string colour_note;    // VideoWriter::colour_note()
  std::int64_t left_out = 0;  // VideoWriter::frames_left_out(), of `frames`
};

// Writes the annotated video of every remaining frame of `reader` to `output`
// (width x height, even), copying the audio of `audio_from` when given: each
// frame adjusted by `edit.adjust` when set, then cover-scaled, with its
// histograms drawn on it when `edit.panels`. Damaged packets go to
// `on_damage`. Where no frame was decoded, no file is made (frames is 0).
// Throws gpuhist::Error.
OverlayResult write_overlay_video(const Context& context, VideoReader& reader,
                                  const std::filesystem::path& output, std::uint32_t width,
                                  std::uint32_t height, const HistogramOptions& options,
                                  const RunOptions& run, bool gpu_renderer,
                                  const std::function<void(const std::string&)>& on_damage,
                                  const std::filesystem::path& audio_from,
                                  const VideoEdit& edit = {});
// Every frame adjusted by `adjustment` on `context` (tables applied on its GPU
// when `on_gpu`), as RGB; a `reference` (match) is counted once per bit depth
// of the frames, with one bin per value.
[[nodiscard]] std::function<void(VideoFrame&)> frame_adjuster(
    const Context& context, Adjustment adjustment, const RunOptions& run, bool on_gpu,
    std::shared_ptr<const Image> reference);

// Reports the errors the demuxer and decoder met in `reader` (a file that
// ended early, damaged frames), if any, as one line with their count and the
// first in FFmpeg's words, adding the input status to `batch`; returns the count.
std::int64_t report_stream_errors(const std::string& input, const VideoReader& reader,
                                  BatchStatus& batch);

// That line's text, without "gpuhist: error: ": "INPUT: N errors in the stream
// (…); the first: FIRST", and "; HINT" where there is one.
[[nodiscard]] std::string stream_errors_line(const std::string& input, std::int64_t errors,
                                             const std::string& first, const std::string& hint);

// Whether -o names a file that a failed run leaves as it was (not standard
// output, a pipe or a device, which have had what was written).
[[nodiscard]] bool output_left_as_it_was(const VideoArgs& args);

// "INPUT: no frame could be decoded", and " (OUTPUT is not written)" where
// output_left_as_it_was.
[[nodiscard]] std::string no_frame_decoded(const VideoArgs& args);

// Says each damaged packet the decoder skipped or read error it met, as it
// happens ("FILE: damaged packet skipped: ..."), the first kMostDamageLines
// of them, then that more are counted in the run's last line; sets
// `rejected` to the input status. Called on the decoding thread.
inline constexpr int kMostDamageLines = 10;
[[nodiscard]] std::function<void(const std::string&)> damage_reporter(const VideoArgs& args,
                                                                      std::atomic<int>& rejected);

// What the closing line adds for `errors`: nothing, or "; N errors in the stream".
[[nodiscard]] std::string errors_note(std::int64_t errors);

// Writes the video `args` ask for (-o, --size, --renderer, --overlay,
// --adjust and its options); returns the exit status.
int write_video(const VideoArgs& args, const Context& context, VideoReader& reader,
                const HistogramOptions& options, const RunOptions& run);

}  // namespace gpuhist::cli
