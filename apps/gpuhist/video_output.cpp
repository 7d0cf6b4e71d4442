#include "video_output.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common_options.hpp"
#include "counted_frames.hpp"
#include "draw_command.hpp"
#include "exit_codes.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/output_file.hpp"
#include "gpuhist/pipeline.hpp"
#include "gpuhist/video_writer.hpp"
#include "inputs.hpp"
#include "messages.hpp"
#include "quiet_stderr.hpp"

namespace gpuhist::cli {
namespace {

// Grey pixels (a thresholded frame) as RGB, for the video encoder.
Image grey_to_rgb(const Image& grey) {
  Image rgb = Image::allocate(grey.width, grey.height, {ChannelLayout::RGB, grey.format.sample});
  const std::size_t bytes = sample_bytes(grey.format.sample);
  const ImageView in = grey.view();
  for (std::uint32_t y = 0; y < grey.height; ++y) {
    const std::byte* from = in.row(y);
    std::byte* to = rgb.storage.data() + y * rgb.stride;
    for (std::size_t x = 0; x < grey.width; ++x) {
      for (std::size_t c = 0; c < 3; ++c)
        std::memcpy(to + (x * 3 + c) * bytes, from + x * bytes, bytes);
    }
  }
  return rgb;
}

}  // namespace

std::function<void(VideoFrame&)> frame_adjuster(const Context& context, Adjustment adjustment,
                                                const RunOptions& run, bool on_gpu,
                                                std::shared_ptr<const Image> reference) {
  auto references = std::make_shared<std::map<std::uint32_t, Histogram>>();
  return [&context, adjustment, run, on_gpu, reference, references](VideoFrame& frame) mutable {
    const ImageView view = frame.image.view();
    if (reference) {
      const HistogramOptions tone = tone_options(view.format, adjustment.luma);
      auto [it, added] = references->try_emplace(tone.bins);
      if (added) it->second = context.compute(reference->view(), tone, run);
      adjustment.reference = &it->second;
    }
    Image out = Image::allocate(view.width, view.height, adjusted_format(view.format, adjustment));
    adjust_image(context, view, adjustment, out.bytes(), run, on_gpu);
    frame.image = out.format.layout == ChannelLayout::Grey ? grey_to_rgb(out) : std::move(out);
  };
}

bool output_left_as_it_was(const VideoArgs& args) {
  return !args.output.empty() && args.output != "-" && !written_in_place(args.output);
}

std::function<void(const std::string&)> damage_reporter(const VideoArgs& args,
                                                        std::atomic<int>& rejected) {
  return [&args, &rejected, said = 0](const std::string& cause) mutable {
    rejected = kExitInput;
    if (said < kMostDamageLines) {
      print_error(args.shown() + ": " + cause);
    } else if (said == kMostDamageLines) {
      print_error(args.shown() + ": more damage met than said here: the last line counts it");
    }
    ++said;
  };
}

std::string no_frame_decoded(const VideoArgs& args) {
  return args.shown() + ": no frame could be decoded" +
         (output_left_as_it_was(args) ? " (" + args.output + " is not written)" : std::string());
}

int write_video(const VideoArgs& args, const Context& context, VideoReader& reader,
                const HistogramOptions& options, const RunOptions& run) {
  if (args.output.empty()) {
    return usage_error(std::string(args.overlay ? "--overlay" : "--adjust") +
                       " needs -o OUT (the video to write)");
  }
  // Frames are written as shown: a portrait phone clip coded landscape is
  // written portrait, as the ffmpeg command line writes it.
  reader.set_upright(true);
  // Even sizes, as 4:2:0 video needs; a frame under 2 pixels is scaled up to 2.
  std::uint32_t width = std::max(2U, reader.width() & ~1U);
  std::uint32_t height = std::max(2U, reader.height() & ~1U);
  if (!args.size.empty()) {
    const auto size = parse_overlay_size(args.size);
    if (!size) return usage_error("bad --size '" + args.size + "' (WxH, 2x2 to 16384x16384)");
    if (size->first % 2 != 0 || size->second % 2 != 0) {
      return usage_error("bad --size '" + args.size + "': 4:2:0 video takes even sizes");
    }
    width = size->first;
    height = size->second;
  } else if (width > 16384 || height > 16384) {
    return usage_error(args.shown() + ": its frames are " + std::to_string(width) + "x" +
                       std::to_string(height) +
                       ", and a video is written at 16384x16384 at most (give --size)");
  }
  const std::string& renderer = args.renderer;
  if (!renderer.empty() && renderer != "cpu" && renderer != "gpu") {
    return usage_error("unknown --renderer '" + renderer + "' (cpu, gpu)");
  }
  if (renderer == "gpu" && context.device() == nullptr) {
    return usage_error("--renderer gpu needs a Vulkan device, and none is in use");
  }
  // A software device draws the whole frame slower than the CPU composes it.
  const bool gpu_renderer = renderer == "gpu" || (renderer.empty() && context.hardware());
  VideoEdit edit;
  edit.panels = args.overlay;
  edit.encoding = args.encoding;
  if (!args.adjust.empty()) {
    const std::optional<AdjustKind> kind = parse_adjust_kind(args.adjust);
    if (!kind) {
      return usage_error("unknown --adjust '" + args.adjust +
                         "' (equalize, clahe, autolevel, threshold, match)");
    }
    const std::optional<Adjustment> adjustment =
        parse_adjustment(*kind, args.adjust_params, options.luma);
    if (!adjustment) return kExitUsage;
    int status = kExitOk;
    const std::optional<bool> on_gpu = parse_apply(args.apply, context, args.device, status);
    if (!on_gpu) return status;
    if ((*kind == AdjustKind::Match) != !args.reference.empty()) {
      return usage_error("--reference goes with --adjust match, and it needs one");
    }
    // Frames are 8-bit RGB, or 16-bit for streams of more bits, as the
    // adjustments of images check their samples.
    const SampleType sample = reader.rgb_sample();
    if (const std::string above = threshold_above_samples(*adjustment, sample);
        *kind == AdjustKind::Threshold && !above.empty()) {
      return usage_error(args.shown() + ": " + above + " of its frames");
    }
    std::shared_ptr<const Image> reference;
    if (!args.reference.empty()) {
      ReadOptions pictures;  // video has no --max-pixels or --formats for pictures
      pictures.optioned = false;
      std::optional<Image> loaded =
          load_option_image("--reference", args.reference, pictures, status);
      if (!loaded) return status;
      if (loaded->format.sample != sample) {
        return usage_error(args.shown() + ": " + (sample == SampleType::U8 ? "8" : "16") +
                           "-bit frames, and the reference " + args.reference + " has " +
                           to_string(loaded->format) +
                           " pixels: match needs a reference of the frames' bit depth");
      }
      reference = std::make_shared<const Image>(std::move(*loaded));
    }
    edit.adjust = frame_adjuster(context, *adjustment, run, *on_gpu, reference);
  }
  BatchStatus batch;
  std::atomic<int> rejected = kExitOk;
  const auto report_damage = damage_reporter(args, rejected);
  const auto start = std::chrono::steady_clock::now();
  OverlayResult result;
  // (Whether the video was written whole: a failed write has said why.)
  bool written = false;
  (void)batch.run(args.shown(), [&] {
    result = write_overlay_video(context, reader, args.output, width, height, options, run,
                                 gpu_renderer, report_damage, args.input, edit);
    written = true;
  });
  batch.add(rejected.load());
  const std::int64_t errors = report_stream_errors(args.shown(), reader, batch);
  if (written && result.frames == 0) {
    // (A pipe has had the container's header already.)
    print_error(no_frame_decoded(args));
    batch.add(kExitInput);
  }
  const auto warn = [&](const std::string& note) {
    std::cerr << "gpuhist: warning: " << one_line(args.output) << ": " << note << '\n';
  };
  if (written && !result.audio_note.empty() && reader.has_audio()) warn(result.audio_note);
  if (written && !result.colour_note.empty()) warn(result.colour_note);
  if (written && result.left_out > 0) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.4g", reader.base_rate());
    warn(std::to_string(result.left_out) + (result.left_out == 1 ? " frame" : " frames") +
         " of the source left out: the container times frames in ticks of the frame rate (" + rate +
         " a second), and their times fell on the tick of the frame before (.mkv or .mp4 keeps "
         "every frame at its time)");
  }
  if (written && result.frames > 0) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::int64_t kept = result.frames - result.left_out;
    std::fprintf(stderr, "%lld frame%s written to %s (%s, %ux%u) in %.2f s%s\n",
                 static_cast<long long>(kept), kept == 1 ? "" : "s", one_line(args.output).c_str(),
                 result.codec.c_str(), width, height, seconds, errors_note(errors).c_str());
  }
  return batch.status();
}

std::int64_t report_stream_errors(const std::string& input, const VideoReader& reader,
                                  BatchStatus& batch) {
  const std::int64_t errors = reader.errors();
  if (errors > 0) {
    print_error(stream_errors_line(input, errors, reader.first_error(), reader.error_hint()));
    batch.add(kExitInput);
  }
  return errors;
}

std::string stream_errors_line(const std::string& input, std::int64_t errors,
                               const std::string& first, const std::string& hint) {
  // FFmpeg ends some messages with a full stop, others not.
  std::string cause = first;
  while (!cause.empty() && (cause.back() == '.' || cause.back() == ' ')) cause.pop_back();
  return input + ": " + std::to_string(errors) + (errors == 1 ? " error" : " errors") +
         " in the stream (the file may be truncated or damaged); the first: " + cause +
         (hint.empty() ? "" : "; " + hint);
}

std::string errors_note(std::int64_t errors) {
  if (errors == 0) return {};
  return "; " + std::to_string(errors) + (errors == 1 ? " error" : " errors") + " in the stream";
}

namespace {

// Pictures the encoder is done with, drawn into again: a fresh picture a frame
// cost zeroing 4 bytes a pixel and a page fault every 4 KiB.
class SparePictures {
 public:
  void give(Picture&& picture) {
    const std::lock_guard lock(mutex_);
    if (spare_.size() < kKept) spare_.push_back(std::move(picture));
  }
  [[nodiscard]] Picture take() {
    const std::lock_guard lock(mutex_);
    if (spare_.empty()) return {};
    Picture picture = std::move(spare_.back());
    spare_.pop_back();
    return picture;
  }

 private:
  static constexpr std::size_t kKept = 8;  // more than the encoder's queue holds
  std::mutex mutex_;
  std::vector<Picture> spare_;
};

}  // namespace

OverlayResult write_overlay_video(const Context& context, VideoReader& reader,
                                  const std::filesystem::path& output, std::uint32_t width,
                                  std::uint32_t height, const HistogramOptions& options,
                                  const RunOptions& run, bool gpu_renderer,
                                  const std::function<void(const std::string&)>& on_damage,
                                  const std::filesystem::path& audio_from, const VideoEdit& edit) {
  // The video written keeps the source's colour description.
  VideoEncoding encoding = edit.encoding;
  encoding.colour = reader.colour();
  encoding.pixel_aspect = reader.pixel_aspect();
  // Encoders that refuse a size as they open print why themselves (SVT-AV1's
  // "Svt[error]: …" lines): the refusal is said once, as the error's one line.
  VideoWriter writer = [&] {
    const QuietStderr quiet;
    return VideoWriter(output, width, height, reader.base_rate(), audio_from, encoding);
  }();
  // Decoding runs ahead on one thread, encoding behind on another; counting
  // and drawing (on the device when there is one) take the frames between.
  DecodeAhead frames(reader, on_damage);
  SparePictures spare;
  // Each picture is written at its source frame's time from the file's start.
  const double start = reader.start_time();
  struct Timed {
    Picture picture;
    double time = 0.0;
  };
  WriteBehind<Timed> encode([&](Timed& timed) {
    writer.write(timed.picture, timed.time);
    spare.give(std::move(timed.picture));
  });
  OverlayResult result;
  const OverlayStyle style;
  // Several frames are counted at once; each is drawn once its counts are in.
  CountedFrames counted(context, options, run);
  const CountedFrame draw = [&](VideoFrame& frame, Histogram& h) {
    const ImageView view = frame.image.view();
    if (gpu_renderer) {
      encode.push({context.draw_overlay(view, h, width, height, style), frame.time - start});
    } else {
      Picture picture = spare.take();
      draw_overlay_cpu(view, h, width, height, style, picture);
      encode.push({std::move(picture), frame.time - start});
    }
    ++result.frames;
  };
  while (std::optional<VideoFrame> frame = frames.next()) {
    if (edit.adjust) edit.adjust(*frame);
    if (edit.panels) {
      counted.push(std::move(*frame), draw);
    } else {
      Picture picture = spare.take();
      compose_overlay(frame->image.view(), width, height, {}, {}, style.background, picture);
      encode.push({std::move(picture), frame->time - start});
      ++result.frames;
    }
  }
  counted.finish(draw);
  encode.finish();
  // No frame decoded (a stream damaged from its start, an index with no data
  // behind it): no video of no frames is left behind, its file not made.
  if (result.frames == 0) return result;
  writer.finish();
  result.codec = writer.codec();
  result.audio_note = writer.audio_note();
  result.colour_note = writer.colour_note();
  result.left_out = writer.frames_left_out();
  return result;
}

}  // namespace gpuhist::cli
