#include "draw_command.hpp"

#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "batch.hpp"
#include "common_options.hpp"
#include "exit_codes.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/output_file.hpp"
#include "gpuhist/render.hpp"
#include "gpuhist/report.hpp"
#include "inputs.hpp"
#include "messages.hpp"
#include "output_names.hpp"

namespace gpuhist::cli {
namespace {

std::optional<std::uint32_t> parse_colour(std::string text) {
  if (!text.empty() && text[0] == '#') text.erase(0, 1);
  if (text.size() != 6 || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(std::stoul(text, nullptr, 16));
}

}  // namespace

std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_size(const std::string& text) {
  // Decimal digits on each side of the x: no sign, no space.
  const std::size_t x = text.find('x');
  if (x == std::string::npos) return std::nullopt;
  const auto w = parse_whole(std::string_view(text).substr(0, x));
  const auto h = parse_whole(std::string_view(text).substr(x + 1));
  if (!w || !h || *w > UINT32_MAX || *h > UINT32_MAX) return std::nullopt;
  return std::pair{static_cast<std::uint32_t>(*w), static_cast<std::uint32_t>(*h)};
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_overlay_size(const std::string& text) {
  const auto size = parse_size(text);
  if (!size || size->first < 2 || size->second < 2 || size->first > kMaxDrawSize ||
      size->second > kMaxDrawSize) {
    return std::nullopt;
  }
  return size;
}

void write_report(const Context& context, const Image& image, const std::string& name,
                  const Histogram& histogram, const DrawOptions& style,
                  const std::filesystem::path& out) {
  const auto draw = [&](const DrawOptions& o) {
    // As `draw` chooses: the CPU draws faster than a software device.
    return context.hardware() ? context.draw(histogram, o) : draw_cpu(histogram, o);
  };
  DrawOptions panel = style;
  panel.width = kReportPanelWidth;
  panel.height = kReportPanelHeight;
  panel.channels = kDrawRed | kDrawGreen | kDrawBlue;
  const Picture rgb = draw(panel);
  panel.channels = kDrawLuminance;
  const Picture luminance = draw(panel);
  save_picture(out, compose_report(image, name, rgb, luminance, histogram.bins()));
}

CLI::App* add_draw_command(CLI::App& app, DrawArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "draw", "Draw the histograms of images as pictures (PNG, or the format -o names)");
  cmd->add_option("files", args.inputs, "Image files and folders")->required();
  cmd->add_option("-o,--output", args.output,
                  "Picture to write (OUT-<name>.png for each of several images)")
      ->required()
      ->check(file_name());
  CLI::Option* channels =
      cmd->add_option("--channels", args.channels, "rgb, l, rgbl (or any of r, g, b, l)")
          ->capture_default_str();
  CLI::Option* size = cmd->add_option("--size", args.size, "Picture size WxH, up to 16384x16384")
                          ->capture_default_str();
  cmd->add_option("--scale", args.scale, "clip, max or log")->capture_default_str();
  cmd->add_option("--renderer", args.renderer,
                  "cpu or gpu (default: gpu on a hardware GPU, else cpu)");
  cmd->add_option("--background", args.background, "Background colour #RRGGBB")
      ->capture_default_str();
  cmd->add_option("--bins", args.bins, "Number of bins, 1..65536")
      ->capture_default_str()
      ->transform(whole_number(1, 65536));
  cmd->add_option("--luma", args.luma, "Luminance weights: 709 or 601")->capture_default_str();
  cmd->add_option("--strategy", args.strategy, "Counting strategy (see compute)");
  cmd->add_option("--device", args.device, "auto, cpu, a device index or a name substring")
      ->capture_default_str()
      ->transform(device_name());
  add_read_options(cmd, args.read, args.formats);
  // The report lays out its own panels: a size or channels given with it are refused.
  cmd->add_flag("--report", args.report,
                "One picture with the image, its RGB and its luminance histogram, labelled "
                "(its own size and channels)")
      ->excludes(size)
      ->excludes(channels);
  return cmd;
}

int run_draw(const DrawArgs& args) {
  DrawOptions options;
  const auto size = parse_size(args.size);
  if (!size) return usage_error("bad --size '" + args.size + "' (expected WxH)");
  options.width = size->first;
  options.height = size->second;
  const auto channels = parse_draw_channels(args.channels);
  if (!channels) return usage_error("bad --channels '" + args.channels + "' (rgb, l, rgbl)");
  options.channels = *channels;
  const auto scale = parse_scale_mode(args.scale);
  if (!scale) return usage_error("unknown --scale '" + args.scale + "' (clip, max, log)");
  options.scale = *scale;
  const auto background = parse_colour(args.background);
  if (!background) return usage_error("bad --background '" + args.background + "' (#RRGGBB)");
  options.background = *background;
  try {
    validate(options);
  } catch (const Error& e) {
    return usage_error(std::string("--size: ") + e.what());
  }
  auto counting = parse_counting(args.bins, args.luma, args.strategy);
  if (!counting) return kExitUsage;
  RunOptions run = counting->run;
  if (!args.renderer.empty() && args.renderer != "cpu" && args.renderer != "gpu") {
    return usage_error("unknown --renderer '" + args.renderer + "' (cpu, gpu)");
  }
  ReadOptions read = args.read;
  if (!parse_read_options(args.formats, read)) return kExitUsage;

  std::optional<Context> context;
  try {
    context.emplace(Context::open(args.device));
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::InvalidArgument) return usage_error(describe(e));
    print_error(describe(e));
    return kExitDevice;
  }
  const bool gpu_renderer =
      args.renderer == "gpu" || (args.renderer.empty() && context->hardware());
  if (gpu_renderer && context->device() == nullptr) {
    if (args.device == "cpu")
      return usage_error("--renderer gpu needs a Vulkan device, but --device cpu was given");
    std::cerr << "gpuhist: error: --renderer gpu needs a Vulkan device, and none was found\n";
    return kExitDevice;
  }
  if (run.strategy && runs_on_gpu(*run.strategy) && context->device() == nullptr) {
    return usage_error("strategy " + args.strategy + " needs a Vulkan device");
  }
  const auto draw = [&](const Histogram& h, const DrawOptions& o) {
    return gpu_renderer ? context->draw(h, o) : draw_cpu(h, o);
  };

  const InputList inputs = expand_inputs(args.inputs, read.formats);
  const bool several = inputs.files.size() > 1;
  if (const std::string bad = unwritable_image_name(args.output, several); !bad.empty())
    return usage_error(bad);
  const std::vector<std::filesystem::path> outputs =
      output_names(args.output, inputs.files, several);
  if (const std::string clash = overwritten_input(outputs, inputs.files, false); !clash.empty()) {
    return usage_error(clash);
  }
  if (const std::string missing = missing_output_folder(outputs); !missing.empty()) {
    print_error(missing);
    return kExitOutput;
  }
  BatchStatus batch;
  batch.add(report_problems(inputs));
  InputDecoder decoder(inputs.files, read);
  for (std::size_t i = 0; i < inputs.files.size(); ++i) {
    const auto& path = inputs.files[i];
    const bool go_on = batch.run(path, [&] {
      const Image image = decoder.next();
      warn_about_file(path, image);
      const Histogram histogram = context->compute(image.view(), counting->options, run);
      if (args.report) {
        DrawOptions panel = options;
        panel.width = kReportPanelWidth;
        panel.height = kReportPanelHeight;
        panel.channels = kDrawRed | kDrawGreen | kDrawBlue;
        const Picture rgb = draw(histogram, panel);
        panel.channels = kDrawLuminance;
        const Picture luminance = draw(histogram, panel);
        save_picture(outputs[i],
                     compose_report(image, path.filename().string(), rgb, luminance, args.bins));
      } else {
        save_picture(outputs[i], draw(histogram, options));
      }
      print_renamed_output(args.output, path, outputs[i]);
    });
    if (!go_on) break;
  }
  return batch.status();
}

}  // namespace gpuhist::cli
