#include "video_bench.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include <unistd.h>

#include "counted_frames.hpp"
#include "draw_command.hpp"
#include "exit_codes.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/pipeline.hpp"
#include "gpuhist/video_file.hpp"
#include "messages.hpp"
#include "video_output.hpp"

namespace gpuhist::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool run_quietly(const std::string& command) {
  return std::system((command + " > /dev/null 2>&1").c_str()) == 0;
}

}  // namespace

int run_video_bench(const VideoBenchArgs& args, const std::vector<std::string>& sizes,
                    const std::string& device, const std::string& output) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> dims;
  for (const std::string& text :
       sizes.empty() ? std::vector<std::string>{"1920x1080", "3840x2160"} : sizes) {
    // The test clip is H.264 4:2:0, as libx264 makes it: even sides up to 16384.
    const auto size = parse_size(text);
    const auto side = [](std::uint32_t n) { return n >= 2 && n <= 16384 && n % 2 == 0; };
    if (!size || !side(size->first) || !side(size->second)) {
      std::cerr << "gpuhist: error: bad --sizes entry '" << text
                << "' (expected WxH of even sides from 2 to 16384: the test clip is H.264 "
                   "4:2:0)\n";
      return kExitUsage;
    }
    dims.push_back(*size);
  }
  std::optional<Context> context;
  try {
    context.emplace(Context::open(device));
  } catch (const Error& e) {
    print_error(describe(e));
    return e.kind() == ErrorKind::InvalidArgument ? kExitUsage : kExitDevice;
  }
  const Strategy strategy = context->default_strategy();
  std::ofstream file;
  if (!output.empty()) {
    file.open(output);
    if (!file) {
      const int cause = errno;  // (before std::cerr flushes std::cout)
      std::cerr << "gpuhist: error: " << output << ": cannot write: " << std::strerror(cause)
                << '\n';
      return kExitOutput;
    }
  }
  std::ostream& out = output.empty() ? std::cout : file;
  const fs::path dir =
      fs::temp_directory_path() / ("gpuhist-video-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // The overlay is drawn by the GPU on a hardware GPU; a software device draws
  // it slower than the CPU composes it.
  const bool gpu_draws = context->hardware();
  out << "device " << (context->device() ? context->device()->name : std::string("none (CPU)"))
      << ", strategy " << to_string(strategy) << ", overlay drawn by the "
      << (gpu_draws ? "GPU" : "CPU") << " (and adjusted there), " << args.frames
      << " frames of testsrc2, H.264\n"
      << std::left << std::setw(11) << "size" << std::right << std::setw(14) << "decode fps"
      << std::setw(16) << "histogram fps" << std::setw(14) << "overlay fps" << std::setw(26)
      << "ffmpeg -vf histogram fps" << std::setw(15) << "equalize fps" << std::setw(12)
      << "clahe fps" << std::setw(24) << "ffmpeg -vf histeq fps" << '\n';
  int status = kExitOk;
  for (const auto& dim : dims) {
    // Plain copies: lambdas below capture them (clang 14 captures no structured binding).
    const std::uint32_t w = dim.first, h = dim.second;
    const fs::path clip = dir / ("clip-" + std::to_string(w) + "x" + std::to_string(h) + ".mp4");
    std::ostringstream make;
    make << "ffmpeg -nostdin -y -f lavfi -i testsrc2=size=" << w << 'x' << h
         << ":rate=30 -frames:v " << args.frames
         << " -c:v libx264 -preset ultrafast -pix_fmt yuv420p '" << clip.string() << "'";
    if (!run_quietly(make.str())) {
      std::cerr << "gpuhist: error: the ffmpeg command line could not make a " << w << 'x' << h
                << " H.264 test clip (is it installed, with libx264?)\n";
      status = kExitInput;
      break;
    }
    try {
      const auto fps = [&](std::int64_t frames, double seconds) {
        return seconds > 0 ? static_cast<double>(frames) / seconds : 0.0;
      };
      VideoFrame frame;
      // Decoding alone, for reference.
      VideoReader decode_only(clip);
      auto start = Clock::now();
      std::int64_t frames = 0;
      while (decode_only.next(frame)) ++frames;
      const double decode_fps = fps(frames, seconds_since(start));
      // Decoding (ahead, on its own thread) and the four histograms of every frame.
      VideoReader histogram_reader(clip);
      start = Clock::now();
      frames = 0;
      RunOptions run;
      run.strategy = strategy;
      {
        DecodeAhead decoded(histogram_reader, {});
        CountedFrames counted(*context, {}, run);
        const CountedFrame count = [&](VideoFrame&, Histogram&) { ++frames; };
        while (std::optional<VideoFrame> next = decoded.next())
          counted.push(std::move(*next), count);
        counted.finish(count);
      }
      const double histogram_fps = fps(frames, seconds_since(start));
      // The annotated video.
      VideoReader overlay_reader(clip);
      start = Clock::now();
      const OverlayResult result = write_overlay_video(
          *context, overlay_reader, dir / "over.mp4", w & ~1U, h & ~1U, {}, run, gpu_draws, {}, {});
      const double overlay_fps = fps(result.frames, seconds_since(start));
      // The yardstick: ffmpeg's own histogram filter on the same clip.
      start = Clock::now();
      const bool ok =
          run_quietly("ffmpeg -nostdin -i '" + clip.string() + "' -vf histogram -f null -");
      const double ffmpeg_fps = ok ? fps(args.frames, seconds_since(start)) : 0.0;
      // Videos adjusted frame by frame (no panels), the tables applied where
      // the overlay is drawn; and ffmpeg's own global equalisation.
      const auto adjusted_fps = [&](AdjustKind kind) {
        Adjustment adjustment;
        adjustment.kind = kind;
        VideoEdit edit;
        edit.panels = false;
        edit.adjust = frame_adjuster(*context, adjustment, run, gpu_draws, nullptr);
        VideoReader reader(clip);
        const auto begin = Clock::now();
        const OverlayResult r = write_overlay_video(*context, reader, dir / "adjusted.mp4", w & ~1U,
                                                    h & ~1U, {}, run, gpu_draws, {}, {}, edit);
        return fps(r.frames, seconds_since(begin));
      };
      const double equalize_fps = adjusted_fps(AdjustKind::Equalize);
      const double clahe_fps = adjusted_fps(AdjustKind::Clahe);
      start = Clock::now();
      const bool histeq =
          run_quietly("ffmpeg -nostdin -i '" + clip.string() + "' -vf histeq -f null -");
      const double histeq_fps = histeq ? fps(args.frames, seconds_since(start)) : 0.0;
      out << std::left << std::setw(11) << (std::to_string(w) + "x" + std::to_string(h))
          << std::right << std::fixed << std::setprecision(1) << std::setw(14) << decode_fps
          << std::setw(16) << histogram_fps << std::setw(14) << overlay_fps << std::setw(26)
          << ffmpeg_fps << std::setw(15) << equalize_fps << std::setw(12) << clahe_fps
          << std::setw(24) << histeq_fps << '\n';
    } catch (const Error& e) {
      print_error(describe(e));
      status = e.kind() == ErrorKind::Device ? kExitDevice : kExitInput;
      break;
    }
  }
  fs::remove_all(dir);
  // An output file is whole or absent: a run that failed leaves none.
  if (status != kExitOk && file.is_open()) {
    file.close();
    std::error_code ignored;
    fs::remove(output, ignored);
  }
  return status;
}

}  // namespace gpuhist::cli
