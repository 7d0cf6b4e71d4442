#include "video_command.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "common_options.hpp"
#include "counted_frames.hpp"
#include "draw_command.hpp"
#include "entry_json.hpp"
#include "exit_codes.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/pipeline.hpp"
#include "gpuhist/video_file.hpp"
#include "gpuhist/video_writer.hpp"
#include "inputs.hpp"
#include "progress.hpp"
#include "report_fields.hpp"

namespace gpuhist::cli {
namespace {

// What one output row says of a frame, once its pixels are no longer needed.
struct FrameCounts {
  std::int64_t index = 0;
  double time = 0.0;
  std::uint32_t width = 0, height = 0;
  Histogram histogram;
};

// {"frame", "time", "width", "height", "histograms", "stats"}, and "comparison"
// with a reference.
nlohmann::ordered_json frame_json(const FrameCounts& frame, Strategy strategy,
                                  const ReportFields& fields) {
  Entry entry;
  entry.width = frame.width;
  entry.height = frame.height;
  entry.strategy = strategy;
  entry.histogram = frame.histogram;
  nlohmann::ordered_json full = entry_json(entry, fields);
  nlohmann::ordered_json row;
  row["frame"] = frame.index;
  row["time"] = frame.time;
  row["width"] = frame.width;
  row["height"] = frame.height;
  for (const char* key : {"histograms", "stats", "comparison"}) {
    if (full.contains(key)) row[key] = std::move(full[key]);
  }
  return row;
}

// frame,time,width,height, then per channel its statistics, its comparison
// with the reference (when there is one) and its counts.
void csv_header(std::ostream& out, std::uint32_t bins, const ReportFields& fields) {
  out << "frame,time,width,height";
  const auto stats = stats_json(std::vector<std::uint64_t>(bins, 0), fields.percentiles);
  const auto metrics = metrics_json(Comparison{});
  for (Channel c : kAllChannels) {
    const std::string name(to_string(c));
    for (const auto& item : stats.items()) out << ',' << name << '_' << item.key();
    if (fields.reference != nullptr) {
      for (const auto& item : metrics.items()) out << ',' << name << '_' << item.key();
    }
    for (std::uint32_t b = 0; b < bins; ++b) out << ',' << name << '_' << b;
  }
  out << '\n';
}

void csv_row(std::ostream& out, const FrameCounts& frame, const ReportFields& fields) {
  out << frame.index << ',' << frame.time << ',' << frame.width << ',' << frame.height;
  const Histogram& h = frame.histogram;
  const nlohmann::ordered_json comparison =
      fields.reference != nullptr ? comparison_json(h, fields) : nlohmann::ordered_json::object();
  const nlohmann::ordered_json metric_names = metrics_json(Comparison{});
  for (Channel c : kAllChannels) {
    const nlohmann::ordered_json stats = stats_json(h.counts(c), fields.percentiles);
    for (const auto& item : stats.items()) out << ',' << item.value().dump();
    if (fields.reference != nullptr) {
      // A channel the reference lacks (a grey reference) leaves its cells empty.
      const std::string name(to_string(c));
      for (const auto& item : metric_names.items()) {
        out << ',';
        if (comparison.contains(name)) out << comparison[name][item.key()].dump();
      }
    }
    for (std::uint64_t count : h.counts(c)) out << ',' << count;
  }
  out << '\n';
}

// Grey pixels (a thresholded frame) as RGB, for the video encoder.
Image grey_to_rgb(const Image& grey) {
  Image rgb;
  rgb.width = grey.width;
  rgb.height = grey.height;
  rgb.format = {ChannelLayout::RGB, grey.format.sample};
  const std::size_t samples = std::size_t{grey.width} * grey.height;
  const std::size_t bytes = sample_bytes(grey.format.sample);
  rgb.storage.resize((samples * 3 * bytes + 3) / 4);
  const auto* in = reinterpret_cast<const std::byte*>(grey.storage.data());
  auto* out = reinterpret_cast<std::byte*>(rgb.storage.data());
  for (std::size_t i = 0; i < samples; ++i) {
    for (std::size_t c = 0; c < 3; ++c)
      std::memcpy(out + (i * 3 + c) * bytes, in + i * bytes, bytes);
  }
  return rgb;
}

// Every frame adjusted by `adjustment`; a reference (match) is counted once
// per bit depth of the frames, with one bin per value.
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
    Image out;
    out.width = frame.image.width;
    out.height = frame.image.height;
    out.format = adjusted_format(view.format, adjustment);
    out.storage.resize((view.pixel_count() * pixel_bytes(out.format) + 3) / 4);
    adjust_image(context, view, adjustment, std::as_writable_bytes(std::span(out.storage)), run,
                 on_gpu);
    frame.image = out.format.layout == ChannelLayout::Grey ? grey_to_rgb(out) : std::move(out);
  };
}

// The written video: every frame adjusted (with --adjust), cover-scaled, and
// with its histograms drawn on it (with --overlay).
int write_overlay(const VideoArgs& args, const Context& context, VideoReader& reader,
                  const HistogramOptions& options, const RunOptions& run) {
  if (args.output.empty()) {
    return usage_error(std::string(args.overlay ? "--overlay" : "--adjust") +
                       " needs -o OUT (the video to write)");
  }
  std::uint32_t width = reader.width() & ~1U, height = reader.height() & ~1U;
  if (!args.size.empty()) {
    const auto size = parse_overlay_size(args.size);
    if (!size) return usage_error("bad --size '" + args.size + "' (WxH, 2x2 to 16384x16384)");
    width = size->first & ~1U;
    height = size->second & ~1U;
  }
  const std::string& renderer = args.renderer;
  if (!renderer.empty() && renderer != "cpu" && renderer != "gpu") {
    return usage_error("unknown --renderer '" + renderer + "' (cpu, gpu)");
  }
  if (renderer == "gpu" && context.device() == nullptr) {
    return usage_error("--renderer gpu needs a Vulkan device, and none is in use");
  }
  // A software device draws the whole frame slower than the CPU composes it.
  const bool gpu_renderer = renderer == "gpu" || (renderer.empty() && context.device() != nullptr &&
                                                  context.device()->hardware());
  VideoEdit edit;
  edit.panels = args.overlay;
  if (!args.adjust.empty()) {
    const std::optional<AdjustKind> kind = parse_adjust_kind(args.adjust);
    if (!kind) {
      return usage_error("unknown --adjust '" + args.adjust +
                         "' (equalize, clahe, autolevel, threshold, match)");
    }
    const std::optional<Adjustment> adjustment =
        parse_adjustment(*kind, args.adjust_params, options.luma);
    if (!adjustment) return kExitUsage;
    const std::optional<bool> on_gpu = parse_apply(args.apply, context);
    if (!on_gpu) return kExitUsage;
    if ((*kind == AdjustKind::Match) != !args.reference.empty()) {
      return usage_error("--reference goes with --adjust match, and it needs one");
    }
    std::shared_ptr<const Image> reference;
    if (!args.reference.empty()) {
      try {
        reference = std::make_shared<const Image>(load_input(args.reference, kDefaultMaxPixels));
      } catch (const Error& e) {
        std::cerr << "gpuhist: error: " << e.what() << '\n';
        return kExitInput;
      }
    }
    edit.adjust = frame_adjuster(context, *adjustment, run, *on_gpu, reference);
  }
  std::atomic<int> status = kExitOk;
  const auto report_damage = [&](const std::string& cause) {
    std::cerr << "gpuhist: error: " << args.input << ": " << cause << '\n';
    status = kExitInput;
  };
  try {
    const auto start = std::chrono::steady_clock::now();
    const OverlayResult result =
        write_overlay_video(context, reader, args.output, width, height, options, run, gpu_renderer,
                            report_damage, args.input, edit);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%lld frames written to %s (%s, %ux%u) in %.2f s\n",
                 static_cast<long long>(result.frames), args.output.c_str(), result.codec.c_str(),
                 width, height, seconds);
  } catch (const Error& e) {
    std::cerr << "gpuhist: error: " << e.what() << '\n';
    return e.kind() == ErrorKind::Output   ? kExitOutput
           : e.kind() == ErrorKind::Device ? kExitDevice
                                           : kExitInput;
  }
  return status.load();
}

}  // namespace

OverlayResult write_overlay_video(const Context& context, VideoReader& reader,
                                  const std::filesystem::path& output, std::uint32_t width,
                                  std::uint32_t height, const HistogramOptions& options,
                                  const RunOptions& run, bool gpu_renderer,
                                  const std::function<void(const std::string&)>& on_damage,
                                  const std::filesystem::path& audio_from, const VideoEdit& edit) {
  VideoWriter writer(output, width, height, reader.frame_rate(), audio_from);
  // Decoding runs ahead on one thread, encoding behind on another; counting
  // and drawing (on the device when there is one) take the frames between.
  DecodeAhead frames(reader, on_damage);
  WriteBehind<Picture> encode([&](Picture& picture) { writer.write(picture); });
  OverlayResult result;
  const OverlayStyle style;
  // Several frames are counted at once; each is drawn once its counts are in.
  CountedFrames counted(context, options, run);
  const CountedFrame draw = [&](VideoFrame& frame, Histogram& h) {
    const ImageView view = frame.image.view();
    encode.push(gpu_renderer ? context.draw_overlay(view, h, width, height, style)
                             : draw_overlay_cpu(view, h, width, height, style));
    ++result.frames;
  };
  while (std::optional<VideoFrame> frame = frames.next()) {
    if (edit.adjust) edit.adjust(*frame);
    if (edit.panels) {
      counted.push(std::move(*frame), draw);
    } else {
      encode.push(compose_overlay(frame->image.view(), width, height, {}, {}, style.background));
      ++result.frames;
    }
  }
  counted.finish(draw);
  encode.finish();
  writer.finish();
  result.codec = writer.codec();
  return result;
}

CLI::App* add_video_command(CLI::App& app, VideoArgs& args) {
  CLI::App* cmd = app.add_subcommand("video", "Histograms of every frame of a video");
  cmd->add_option("input", args.input, "Video file (any container and codec FFmpeg reads)")
      ->required();
  cmd->add_option("--format", args.format, "jsonl or csv")->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write to FILE instead of standard output");
  cmd->add_option("--bins", args.bins, "Number of bins, 1..65536")->capture_default_str();
  cmd->add_option("--luma", args.luma, "Luminance weights: 709 or 601")->capture_default_str();
  cmd->add_option("--strategy", args.strategy, "Counting strategy (see compute)");
  cmd->add_option("--device", args.device, "auto, cpu, a device index or a name substring")
      ->capture_default_str();
  cmd->add_flag("--no-progress", args.no_progress, "Never draw a progress bar");
  cmd->add_flag("--overlay", args.overlay,
                "Write -o as a video with the RGB and luminance histograms drawn on every frame");
  cmd->add_option("--size", args.size, "Size WxH of the --overlay video (default: the input's)");
  cmd->add_option("--renderer", args.renderer,
                  "Who draws the --overlay: cpu or gpu (default: gpu on a hardware GPU, else cpu)");
  cmd->add_option("--percentiles", args.percentiles,
                  "Also give these percentiles of every channel, e.g. 5,25,75,95");
  cmd->add_option("--compare", args.compare, "Compare every frame's histograms with this image's");
  cmd->add_option("--adjust", args.adjust,
                  "Write -o as a video with every frame adjusted by its histogram: equalize, "
                  "clahe, autolevel, threshold or match (with --overlay, the panels show the "
                  "adjusted frame)");
  add_adjust_options(cmd, std::nullopt, args.adjust_params);
  cmd->add_option("--reference", args.reference,
                  "--adjust match: the image whose histogram to match");
  cmd->add_option("--apply", args.apply,
                  "Who applies --adjust: cpu or gpu (default: gpu on a hardware GPU, else cpu)");
  return cmd;
}

int run_video(const VideoArgs& args) {
  if (args.format != "jsonl" && args.format != "csv") {
    return usage_error("unknown --format '" + args.format + "' (jsonl, csv)");
  }
  auto counting = parse_counting(args.bins, args.luma, args.strategy);
  if (!counting) return kExitUsage;
  ReportFields fields;
  if (!set_percentiles(args.percentiles, fields)) return kExitUsage;
  const bool writes_video = args.overlay || !args.adjust.empty();
  if (writes_video && (!fields.percentiles.empty() || !args.compare.empty())) {
    return usage_error("--percentiles and --compare go with rows, not --overlay or --adjust");
  }
  RunOptions run = counting->run;
  int open_status = kExitOk;
  std::optional<Context> context = open_for(args.device, run, open_status);
  if (!context) return open_status;
  const Strategy strategy = *run.strategy;
  Histogram reference;
  open_status = set_reference(args.compare, *context, counting->options, run, kDefaultMaxPixels,
                              reference, fields);
  if (open_status != kExitOk) return open_status;

  std::optional<VideoReader> reader;
  try {
    reader.emplace(args.input);
  } catch (const Error& e) {
    std::cerr << "gpuhist: error: " << e.what() << '\n';
    return kExitInput;
  }
  if (writes_video) return write_overlay(args, *context, *reader, counting->options, run);
  std::ofstream file;
  if (!args.output.empty()) {
    file.open(args.output, std::ios::trunc);
    if (!file) {
      std::cerr << "gpuhist: error: cannot write '" << args.output << "'\n";
      return kExitOutput;
    }
  }
  std::ostream& out = args.output.empty() ? std::cout : file;
  if (args.format == "csv") csv_header(out, args.bins, fields);

  std::atomic<int> status = kExitOk;
  const auto report_damage = [&](const std::string& cause) {
    std::cerr << "gpuhist: error: " << args.input << ": " << cause << '\n';
    status = kExitInput;
  };
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t estimate = reader->frame_estimate();
  Progress progress(estimate > 0 ? static_cast<std::size_t>(estimate) : 0, !args.no_progress);
  std::int64_t frames = 0;
  try {
    // Decoding runs ahead on one thread and formatting behind on another,
    // while this one counts.
    DecodeAhead decoded(*reader, report_damage);
    WriteBehind<FrameCounts> rows([&](FrameCounts& row) {
      if (args.format == "csv") {
        csv_row(out, row, fields);
      } else {
        out << frame_json(row, strategy, fields).dump() << '\n';
      }
    });
    // Several frames are counted at once, and come back in order.
    CountedFrames counted(*context, counting->options, run);
    const CountedFrame row = [&](VideoFrame& frame, Histogram& h) {
      rows.push({frame.index, frame.time, frame.image.width, frame.image.height, std::move(h)});
      ++frames;
      progress.update(static_cast<std::size_t>(frames), args.input);
    };
    while (std::optional<VideoFrame> frame = decoded.next()) counted.push(std::move(*frame), row);
    counted.finish(row);
    rows.finish();
  } catch (const Error& e) {
    progress.clear();
    std::cerr << "gpuhist: error: " << e.what() << '\n';
    return e.kind() == ErrorKind::Device ? kExitDevice : kExitInput;
  }
  progress.clear();
  out.flush();
  if (!out) {
    std::cerr << "gpuhist: error: cannot write the output\n";
    return kExitOutput;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "%lld frames in %.2f s (%.1f frames per second) with %s\n",
               static_cast<long long>(frames), seconds,
               seconds > 0 ? static_cast<double>(frames) / seconds : 0.0,
               std::string(to_string(strategy)).c_str());
  return status.load();
}

}  // namespace gpuhist::cli
