#include "video_command.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "batch.hpp"
#include "common_options.hpp"
#include "counted_frames.hpp"
#include "entry_json.hpp"
#include "exit_codes.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/output_file.hpp"
#include "gpuhist/pipeline.hpp"
#include "gpuhist/video_file.hpp"
#include "messages.hpp"
#include "output_names.hpp"
#include "output_stream.hpp"
#include "planes_json.hpp"
#include "progress.hpp"
#include "report_fields.hpp"
#include "video_output.hpp"

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
// with a reference; `frame` must outlive the row.
JsonRow frame_json(const FrameCounts& frame, const ReportFields& fields) {
  JsonRow row;
  row.object["frame"] = frame.index;
  row.object["time"] = frame.time;
  row.object["width"] = frame.width;
  row.object["height"] = frame.height;
  add_counted_json(row, frame.histogram, fields);
  return row;
}

// A frame counted plane by plane (--space ycbcr): {"frame", "time", then
// add_planes_json's "width", "height", "space", "pixel_format", "depth",
// "range", "matrix", "histograms": {"y", "cb", "cr"}, "stats"}.
JsonRow planes_json(const VideoFrame& frame, const std::vector<Histogram>& planes,
                    const ReportFields& fields) {
  JsonRow row;
  row.object["frame"] = frame.index;
  row.object["time"] = frame.time;
  add_planes_json(row, frame, planes, fields);
  return row;
}

// frame,time,width,height, then per channel its statistics, its comparison
// (`metrics`: with a reference image or the frame before) and its counts.
void csv_header(std::ostream& out, std::uint32_t bins, const ReportFields& fields, bool metrics) {
  out << "frame,time,width,height";
  const auto stats = stats_json(std::vector<std::uint64_t>(bins, 0), fields.percentiles);
  const auto metric_names = metrics_json(Comparison{});
  for (Channel c : kAllChannels) {
    const std::string name(to_string(c));
    for (const auto& item : stats.items()) out << ',' << name << '_' << item.key();
    if (metrics) {
      for (const auto& item : metric_names.items()) out << ',' << name << '_' << item.key();
    }
    for (std::uint32_t b = 0; b < bins; ++b) out << ',' << name << '_' << b;
  }
  out << '\n';
}

// Without a reference (the first frame, compared with the one before) the
// metric cells stay empty.
void csv_row(std::ostream& out, const FrameCounts& frame, const ReportFields& fields,
             bool metrics) {
  // The time as the JSON rows write it: the shortest digits that read back the same.
  out << frame.index << ',' << nlohmann::json(frame.time).dump() << ',' << frame.width << ','
      << frame.height;
  const Histogram& h = frame.histogram;
  const nlohmann::ordered_json comparison =
      fields.reference != nullptr ? comparison_json(h, fields) : nlohmann::ordered_json::object();
  const nlohmann::ordered_json metric_names = metrics_json(Comparison{});
  for (Channel c : kAllChannels) {
    const nlohmann::ordered_json stats = stats_json(h.counts(c), fields.percentiles);
    for (const auto& item : stats.items()) {
      out << ',';
      if (!item.value().is_null()) out << item.value().dump();
    }
    if (metrics) {
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

}  // namespace

CLI::App* add_video_command(CLI::App& app, VideoArgs& args) {
  CLI::App* cmd = app.add_subcommand("video", "Histograms of every frame of a video");
  cmd->add_option("input", args.input,
                  "Video file (any container and codec FFmpeg reads; - for standard input)")
      ->required()
      // A stream piped in (from ffmpeg, say) is read once, as it comes.
      ->transform([&args](const std::string& name) {
        args.name = name == "-" ? "standard input" : "";
        return name == "-" ? "/dev/stdin" : name;
      });
  cmd->add_option("--format", args.format, "jsonl or csv")->capture_default_str();
  cmd->add_option("-o,--output", args.output,
                  "Write to FILE instead of standard output (-: standard output)");
  cmd->add_option("--bins", args.bins, "Number of bins, 1..65536")
      ->capture_default_str()
      ->transform(whole_number(1, 65536));
  cmd->add_option("--luma", args.luma, "Luminance weights: 709 or 601")->capture_default_str();
  cmd->add_option("--strategy", args.strategy, "Counting strategy (see compute)");
  cmd->add_option("--device", args.device, "auto, cpu, a device index or a name substring")
      ->capture_default_str()
      ->transform(device_name());
  cmd->add_flag("--no-progress", args.no_progress, "Never draw a progress bar");
  cmd->add_option("--max-pixels", args.max_pixels,
                  "Refuse videos whose frames have more pixels than this")
      ->capture_default_str()
      ->transform(whole_number());
  cmd->add_option(
         "--decode-threads", args.decode_threads,
         "FFmpeg's decoding threads, as ffmpeg -threads N (default: one per core, at most "
         "16); a damaged stream's concealed frames depend on them, 1 decodes them the same "
         "on every machine")
      ->transform(whole_number(1, kMostDecodeThreads));
  cmd->add_flag("--overlay", args.overlay,
                "Write -o as a video with the RGB and luminance histograms drawn on every frame");
  cmd->add_option("--space", args.space,
                  "rgb: count R, G, B and luminance of frames converted to RGB; ycbcr: count the "
                  "Y', Cb and Cr planes as decoded, with no conversion (jsonl keys y, cb, cr)")
      ->capture_default_str();
  cmd->add_option(
      "--size", args.size,
      "Size WxH of the --overlay or --adjust video, even numbers (default: the input's)");
  cmd->add_option(
      "--codec", args.encoding.codec,
      "Encoder of the written video: h264 (default), hevc (at least 50x16), vp9, av1 or mpeg4");
  cmd->add_option("--crf", args.encoding.crf,
                  "Constant quality of the written video: 0..51 (h264, hevc), 0..63 (vp9), 1..63 "
                  "(av1); lower is better; 0 is lossless for h264")
      ->transform(whole_number(0, 2147483647));  // (each codec says its range)
  cmd->add_option("--preset", args.encoding.preset,
                  "Encoder speed: ultrafast .. veryfast (default) .. placebo (h264, hevc), "
                  "8..13 (av1)");
  cmd->add_option("--renderer", args.renderer,
                  "Who draws the --overlay: cpu or gpu (default: gpu on a hardware GPU, else cpu)");
  cmd->add_option("--percentiles", args.percentiles,
                  "Also give these percentiles of every channel, e.g. 5,25,75,95")
      ->check(number_list());
  cmd->add_option("--compare", args.compare, "Compare every frame's histograms with this image's");
  cmd->add_flag("--compare-previous", args.compare_previous,
                "Compare every frame's histograms with the frame before's (scene changes)");
  cmd->add_option("--adjust", args.adjust,
                  "Write -o as a video with every frame adjusted by its histogram: equalize, "
                  "clahe, autolevel, threshold or match (with --overlay, the panels show the "
                  "adjusted frame)");
  add_adjust_options(cmd, std::nullopt, args.adjust_params);
  for (const char* name : {"--channels", "--tiles", "--clip-limit", "--clip", "--method"}) {
    cmd->get_option(name)->each([&args, name](const std::string&) { args.adjust_option = name; });
  }
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
  if (writes_video &&
      (!fields.percentiles.empty() || !args.compare.empty() || args.compare_previous)) {
    return usage_error(
        "--percentiles, --compare and --compare-previous go with rows, not --overlay or --adjust");
  }
  // Refused before a piped-in stream is read.
  if (writes_video && args.output == "-") {
    return usage_error("a video is written to a file named by -o, not to standard output");
  }
  if (!args.size.empty() && !writes_video) {
    return usage_error(
        "--size sets the size of a written video: it goes with --overlay or --adjust");
  }
  if (!args.reference.empty() && args.adjust.empty()) {
    return usage_error("--reference goes with --adjust match");
  }
  if (args.adjust.empty() && (!args.adjust_option.empty() || !args.apply.empty())) {
    return usage_error((args.apply.empty() ? args.adjust_option : std::string("--apply")) +
                       " sets how --adjust adjusts the frames: it goes with --adjust");
  }
  if (!args.renderer.empty() && !args.overlay) {
    return usage_error("--renderer sets who draws the --overlay: it goes with --overlay");
  }
  if (writes_video && args.format != "jsonl") {
    return usage_error("--format sets how rows are written; --overlay and --adjust write a video");
  }
  if (!args.output.empty() && same_file(args.input, args.output)) {
    return usage_error(args.output + ": the output is the input");
  }
  if (!writes_video && args.output != "-" && names_video_container(args.output)) {
    return usage_error(args.output +
                       ": a video's name, and rows (jsonl or csv) are written without --overlay "
                       "or --adjust: add one of them to write a video");
  }
  if ((!args.encoding.codec.empty() || args.encoding.crf || !args.encoding.preset.empty()) &&
      !writes_video) {
    return usage_error("--codec, --crf and --preset set how a written video is encoded: they go "
                       "with --overlay or --adjust");
  }
  if (writes_video) {
    try {
      validate(args.encoding);
    } catch (const Error& e) {
      return usage_error(describe(e));
    }
  }
  if (args.compare_previous && !args.compare.empty()) {
    return usage_error("--compare and --compare-previous do not go together");
  }
  const std::optional<bool> counts_planes = parse_space(args.space, args.luma);
  if (!counts_planes) return kExitUsage;
  const bool planes = *counts_planes;
  if (planes && (writes_video || args.format != "jsonl" || !args.compare.empty() ||
                 args.compare_previous)) {
    return usage_error(
        "--space ycbcr gives jsonl rows, without --overlay, --adjust, --compare or "
        "--compare-previous");
  }
  // A missing output folder is said before the input is read (its status
  // outranks the input's).
  if (const std::string missing = missing_output_folder({args.output}); !missing.empty()) {
    print_error(missing);
    return kExitOutput;
  }
  RunOptions run = counting->run;
  int open_status = kExitOk;
  std::optional<Context> context = open_for(args.device, run, open_status);
  if (!context) return open_status;
  const Strategy strategy = *run.strategy;
  Histogram reference;
  ReadOptions pictures;
  pictures.optioned = false;
  open_status =
      set_reference(args.compare, *context, counting->options, run, pictures, reference, fields);
  if (open_status != kExitOk) return open_status;

  std::optional<VideoReader> reader;
  BatchStatus batch;
  if (!batch.run(args.shown(), [&] {
        reader.emplace(args.input, args.max_pixels, planes ? FrameSpace::YCbCr : FrameSpace::Rgb,
                       args.decode_threads);
      })) {
    return batch.status();
  }
  if (!reader) return batch.status();
  if (writes_video) return write_video(args, *context, *reader, counting->options, run);
  std::optional<OutputStream> output;
  if (!batch.run(args.output, [&] { output.emplace(args.output); }) || !output) {
    return batch.status();
  }
  std::ostream& out = output->stream();
  const bool metrics = fields.reference != nullptr || args.compare_previous;
  if (args.format == "csv") csv_header(out, args.bins, fields, metrics);
  // With --compare-previous each row's reference is the frame before.
  ReportFields row_fields = fields;
  Histogram previous;
  if (args.compare_previous) row_fields.reference_file = "previous frame";

  std::atomic<int> rejected = kExitOk;
  const auto report_damage = damage_reporter(args, rejected);
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t estimate = reader->frame_estimate();
  Progress progress(estimate > 0 ? static_cast<std::size_t>(estimate) : 0, !args.no_progress);
  std::int64_t frames = 0;
  const bool counted_all = batch.run(args.shown(), [&] {
    if (planes) {
      // Each plane as decoded, counted while the next frames decode: on
      // this thread alone, as the decoder's threads keep every core busy.
      DecodeAhead decoded(*reader, report_damage);
      RunOptions one_thread = run;
      one_thread.threads = 1;
      std::vector<Histogram> counts;
      while (std::optional<VideoFrame> frame = decoded.next()) {
        counts.clear();
        for (const ImageView& plane : frame->planes) {
          counts.push_back(context->compute(plane, counting->options, one_thread));
        }
        out << json_text(planes_json(*frame, counts, fields)) << '\n';
        ++frames;
        progress.update(static_cast<std::size_t>(frames), args.shown());
      }
      return;
    }
    // Decoding runs ahead on one thread and formatting behind on another,
    // while this one counts.
    DecodeAhead decoded(*reader, report_damage);
    WriteBehind<FrameCounts> rows([&](FrameCounts& row) {
      if (args.format == "csv") {
        csv_row(out, row, row_fields, metrics);
      } else {
        out << json_text(frame_json(row, row_fields)) << '\n';
      }
      if (args.compare_previous) {
        previous = std::move(row.histogram);
        row_fields.reference = &previous;
      }
    });
    // Several frames are counted at once, and come back in order.
    CountedFrames counted(*context, counting->options, run);
    const CountedFrame row = [&](VideoFrame& frame, Histogram& h) {
      rows.push({frame.index, frame.time, frame.image.width, frame.image.height, std::move(h)});
      ++frames;
      progress.update(static_cast<std::size_t>(frames), args.shown());
    };
    while (std::optional<VideoFrame> frame = decoded.next()) counted.push(std::move(*frame), row);
    counted.finish(row);
    rows.finish();
  });
  progress.clear();
  batch.add(rejected.load());
  const std::int64_t errors = report_stream_errors(args.shown(), *reader, batch);
  // The rows of a run that failed part-way are not left as if complete; a
  // run that read no frame leaves the target as it was.
  if (!counted_all) return batch.status();
  if (frames == 0) {
    // Said unless the stream's errors were, and no file is left as it was.
    if (output_left_as_it_was(args) || batch.status() == kExitOk) {
      print_error(no_frame_decoded(args));
    }
    batch.add(kExitInput);
    return batch.status();
  }
  if (!batch.run(args.output, [&] { output->finish(); }) || batch.status() == kExitOutput) {
    return batch.status();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "%lld frame%s in %.2f s (%.1f frames per second) with %s%s\n",
               static_cast<long long>(frames), frames == 1 ? "" : "s", seconds,
               seconds > 0 ? static_cast<double>(frames) / seconds : 0.0,
               std::string(to_string(strategy)).c_str(), errors_note(errors).c_str());
  return batch.status();
}

}  // namespace gpuhist::cli
