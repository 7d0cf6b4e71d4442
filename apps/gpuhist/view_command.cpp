#include "view_command.hpp"

#include <cstdlib>
#include <iostream>

#include "common_options.hpp"
#include "draw_command.hpp"
#include "exit_codes.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/video_file.hpp"
#include "gpuhist/viewer.hpp"
#include "inputs.hpp"
#include "messages.hpp"
#include "video_output.hpp"

namespace gpuhist::cli {

CLI::App* add_view_command(CLI::App& app, ViewArgs& args) {
  CLI::App* cmd =
      app.add_subcommand("view", "Play a video or show an image with its histograms, live");
  cmd->footer("Keys: " + viewer_keys());
  cmd->add_option("input", args.input, "Video or image file")->required();
  cmd->add_option("--device", args.device, "auto, a device index or a name substring")
      ->capture_default_str()
      ->transform(device_name());
  cmd->add_option("--size", args.size, "Window size WxH (default: the picture's, up to 1600x900)");
  cmd->add_option("--bins", args.bins, "Number of bins, 1..65536")
      ->capture_default_str()
      ->transform(whole_number(1, 65536));
  cmd->add_option("--luma", args.luma, "Luminance weights: 709 or 601")->capture_default_str();
  cmd->add_option("--strategy", args.strategy, "Counting strategy (default: gpu)");
  cmd->add_option("--scale", args.scale, "First scale mode: clip, max or log")
      ->capture_default_str();
  cmd->add_flag("--exit-at-end", args.exit_at_end,
                "Close after a video's last frame instead of holding it");
  cmd->add_option("--adjust", args.adjust,
                  "Show the picture adjusted from the start: equalize, clahe, autolevel, "
                  "threshold, or match with --reference (the a key cycles them)");
  add_adjust_options(cmd, std::nullopt, args.adjust_params);
  add_read_options(cmd, args.read, args.formats);
  cmd->add_option("--reference", args.reference,
                  "A picture to match to: match joins the adjustments the a key cycles");
  return cmd;
}

int run_view(const ViewArgs& args) {
  // (A file named "-" is ./-, as elsewhere.)
  if (args.input == "-") {
    return usage_error(
        "the viewer plays a file, not standard input (save the stream to a file, "
        "or give a named pipe)");
  }
  auto counting = parse_counting(args.bins, args.luma, args.strategy);
  if (!counting) return kExitUsage;
  ReadOptions read = args.read;
  if (!parse_read_options(args.formats, read)) return kExitUsage;
  ViewerOptions options;
  options.device = args.device;
  options.histogram = counting->options;
  options.run = counting->run;
  const auto scale = parse_scale_mode(args.scale);
  if (!scale) return usage_error("unknown --scale '" + args.scale + "' (clip, max, log)");
  options.style.scale = *scale;
  if (!args.size.empty()) {
    const auto size = parse_overlay_size(args.size);
    if (!size) return usage_error("bad --size '" + args.size + "' (WxH, 2x2 to 16384x16384)");
    options.width = size->first;
    options.height = size->second;
  }
  options.exit_at_end = args.exit_at_end;
  // The adjustments' parameters apply to every kind `a` reaches, so they are
  // checked even without --adjust.
  const AdjustKind first = parse_adjust_kind(args.adjust).value_or(AdjustKind::Equalize);
  if (!args.adjust.empty() && !parse_adjust_kind(args.adjust)) {
    return usage_error("unknown --adjust '" + args.adjust +
                       "' for the viewer (equalize, clahe, autolevel, threshold, match)");
  }
  if (first == AdjustKind::Match && !args.adjust.empty() && args.reference.empty()) {
    return usage_error("--adjust match needs --reference");
  }
  const std::optional<Adjustment> adjustment =
      parse_adjustment(first, args.adjust_params, counting->options.luma);
  if (!adjustment) return kExitUsage;
  options.adjustment = *adjustment;
  options.adjust_at_start = !args.adjust.empty();
  if (!args.reference.empty()) {
    int status = kExitOk;
    options.reference = load_option_image("--reference", args.reference, read, status);
    if (!options.reference) return status;
  }
  // A fixed threshold past the picture's largest sample is refused (2), as
  // the verbs refuse it: a still's depth is known once it is read, a video's
  // from its stream.
  const auto check_level = [adjustment = *adjustment, &args](SampleType sample) {
    if (const std::string above = threshold_above_samples(adjustment, sample); !above.empty()) {
      throw Error(ErrorKind::InvalidArgument, args.input + ": " + above);
    }
  };
  options.load_still = [read, check_level](const std::filesystem::path& path) {
    Image image = load_input(path, read);
    check_level(image.format.sample);
    warn_about_file(path, image);
    return image;
  };
  if (adjustment->method == ThresholdMethod::Fixed && adjustment->threshold > 255 &&
      !has_image_extension(args.input, FormatSet::All)) {
    try {
      check_level(VideoReader(args.input).rgb_sample());
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::InvalidArgument) return usage_error(describe(e));
      // An unreadable video is the viewer's to report, as it reports it.
    }
  }
  options.on_damage = [&](const std::string& cause) { print_error(args.input + ": " + cause); };
  // Xlib ends the process once this returns: said, and with the display's status.
  options.on_display_lost = [](const std::string& cause) {
    print_error(cause);
    std::cerr.flush();
    std::_Exit(kExitDevice);
  };
  options.on_status = [](const std::string& line) {
    std::cerr << "gpuhist view: " << line << '\n';
  };
  int stream_status = kExitOk;
  options.on_stream_errors = [&](std::int64_t errors, const std::string& first_error,
                                 const std::string& hint) {
    print_error(stream_errors_line(args.input, errors, first_error, hint));
    stream_status = kExitInput;
  };
  try {
    const std::int64_t frames = run_viewer(args.input, options);
    std::cerr << "gpuhist view: " << frames << (frames == 1 ? " frame" : " frames") << " shown\n";
    if (stream_status != kExitOk) return stream_status;
  } catch (const Error& e) {
    print_error(describe(e));
    return e.kind() == ErrorKind::Device            ? kExitDevice
           : e.kind() == ErrorKind::InvalidArgument ? kExitUsage
                                                    : kExitInput;
  }
  return kExitOk;
}

}  // namespace gpuhist::cli
