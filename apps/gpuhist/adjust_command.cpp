#include "adjust_command.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "gpuhist/adjust.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "inputs.hpp"

namespace gpuhist::cli {
namespace {

const char* verb_name(AdjustVerb verb) {
  switch (verb) {
    case AdjustVerb::Equalize:
      return "equalize";
    case AdjustVerb::Clahe:
      return "clahe";
    case AdjustVerb::Autolevel:
      return "autolevel";
    case AdjustVerb::Threshold:
      return "threshold";
    case AdjustVerb::Match:
      return "match";
  }
  return "";
}

const char* verb_help(AdjustVerb verb) {
  switch (verb) {
    case AdjustVerb::Equalize:
      return "Equalise an image's histogram";
    case AdjustVerb::Clahe:
      return "Contrast-limited adaptive histogram equalisation (CLAHE), tile by tile";
    case AdjustVerb::Autolevel:
      return "Stretch an image's contrast, clipping a share of the darkest and brightest pixels";
    case AdjustVerb::Threshold:
      return "Binarise an image's luminance at Otsu's, the triangle or a given threshold";
    case AdjustVerb::Match:
      return "Match an image's histogram to a reference image's";
  }
  return "";
}

// "0.5" or "0.2,1" -> {low, high} percentages within 0..50.
std::optional<std::pair<double, double>> parse_clip(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> values;
  for (std::string item; std::getline(in, item, ',');) {
    std::size_t used = 0;
    try {
      values.push_back(std::stod(item, &used));
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used != item.size() || !(values.back() >= 0.0 && values.back() <= 50.0)) {
      return std::nullopt;
    }
  }
  if (values.empty() || values.size() > 2 || text.back() == ',') return std::nullopt;
  return std::pair{values.front(), values.back()};
}

// "8x8" -> {8, 8}, each 1..256.
std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_tiles(const std::string& text) {
  unsigned x = 0, y = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%ux%u%c", &x, &y, &extra) != 2) return std::nullopt;
  if (x < 1 || x > 256 || y < 1 || y > 256) return std::nullopt;
  return std::pair{x, y};
}

// "otsu", "triangle", or a whole number from -1 up.
std::optional<std::int32_t> fixed_threshold(const std::string& method) {
  std::size_t used = 0;
  try {
    const long value = std::stol(method, &used);
    if (used == method.size() && value >= -1 && value <= 65535) {
      return static_cast<std::int32_t>(value);
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

CLI::App* add_adjust_command(CLI::App& app, AdjustVerb verb, AdjustArgs& args) {
  args.verb = verb;
  args.max_pixels = kDefaultMaxPixels;
  CLI::App* cmd = app.add_subcommand(verb_name(verb), verb_help(verb));
  cmd->add_option("input", args.input, "Image file (8- or 16-bit samples)")->required();
  cmd->add_option("-o,--output", args.output, "The adjusted image; its extension picks the format")
      ->required();
  if (verb != AdjustVerb::Threshold) {
    cmd->add_option("--channels", args.channels,
                    "each: red, green and blue by their own histograms; luminance: the "
                    "luminance histogram's table on all three")
        ->capture_default_str();
  }
  if (verb == AdjustVerb::Clahe) {
    cmd->add_option("--tiles", args.tiles, "Tiles across x down, each 1..256")
        ->capture_default_str();
    cmd->add_option("--clip-limit", args.clip_limit,
                    "Clip each tile's bins at this multiple of their mean count (0: no clipping)")
        ->capture_default_str();
  }
  if (verb == AdjustVerb::Autolevel) {
    cmd->add_option("--clip", args.clip,
                    "Percent of the pixels clipped to black and to white: LOW[,HIGH], 0..50")
        ->capture_default_str();
  }
  if (verb == AdjustVerb::Threshold) {
    cmd->add_option("--method", args.method, "otsu, triangle, or a threshold value (-1..M)")
        ->capture_default_str();
  }
  if (verb == AdjustVerb::Match) {
    cmd->add_option("--reference", args.reference, "The image whose histogram to match")
        ->required();
  }
  cmd->add_option("--luma", args.luma, "Luminance weights: 709 (sRGB) or 601")
      ->capture_default_str();
  cmd->add_option("--strategy", args.strategy, "Counting strategy (see compute)");
  cmd->add_option("--device", args.device, "auto, cpu, a device index or a name substring")
      ->capture_default_str();
  cmd->add_option("--apply", args.apply,
                  "Who applies the tables: cpu or gpu (default: gpu on a hardware GPU, else cpu)");
  cmd->add_option("--max-pixels", args.max_pixels, "Refuse images with more pixels than this")
      ->capture_default_str();
  return cmd;
}

int run_adjust(const AdjustArgs& args) {
  const auto counting = parse_counting(kDefaultBins, args.luma, args.strategy);
  if (!counting) return kExitUsage;
  if (args.channels != "each" && args.channels != "luminance") {
    return usage_error("unknown --channels '" + args.channels + "' (each, luminance)");
  }
  const ToneChannels use = args.channels == "each" ? ToneChannels::Each : ToneChannels::Luminance;
  const auto clip = parse_clip(args.clip);
  if (!clip) return usage_error("bad --clip '" + args.clip + "' (LOW[,HIGH], each 0..50)");
  const std::optional<std::int32_t> fixed = fixed_threshold(args.method);
  if (args.method != "otsu" && args.method != "triangle" && !fixed) {
    return usage_error("bad --method '" + args.method + "' (otsu, triangle, or -1..65535)");
  }
  const auto tiles = parse_tiles(args.tiles);
  if (!tiles) return usage_error("bad --tiles '" + args.tiles + "' (WxH, each 1..256)");
  if (!std::isfinite(args.clip_limit) || args.clip_limit < 0.0) {
    return usage_error("--clip-limit must be a number from 0 up");
  }
  if (!args.apply.empty() && args.apply != "cpu" && args.apply != "gpu") {
    return usage_error("unknown --apply '" + args.apply + "' (cpu, gpu)");
  }
  if (args.max_pixels == 0) return usage_error("--max-pixels must be at least 1");
  RunOptions run = counting->run;
  int status = kExitOk;
  std::optional<Context> context = open_for(args.device, run, status);
  if (!context) return status;
  if (args.apply == "gpu" && context->device() == nullptr) {
    return usage_error("--apply gpu needs a Vulkan device, and none is in use");
  }
  const bool on_gpu = args.apply == "gpu" || (args.apply.empty() && context->device() != nullptr &&
                                              context->device()->hardware());
  try {
    const Image image = [&] {
      const LoadOptions options{args.max_pixels, true};
      return load_image(args.input, options);
    }();
    if (image.format.sample == SampleType::F32) {
      throw Error(ErrorKind::Input, args.input + ": adjustments need 8- or 16-bit samples, and " +
                                        "this image has " + to_string(image.format) + " pixels");
    }
    const HistogramOptions options = tone_options(image.format, counting->options.luma);
    if (args.verb == AdjustVerb::Clahe) {
      ClaheOptions clahe;
      clahe.tiles_x = tiles->first;
      clahe.tiles_y = tiles->second;
      clahe.clip_limit = args.clip_limit;
      clahe.channels = use;
      clahe.luma = options.luma;
      std::vector<std::uint32_t> out((image.view().pixel_count() * pixel_bytes(image.format) + 3) /
                                     4);
      const auto bytes = std::as_writable_bytes(std::span(out));
      if (on_gpu) {
        context->clahe(image.view(), clahe, bytes, run);
      } else {
        clahe_cpu(image.view(), clahe, bytes,
                  [&](const ImageView& tile) { return context->compute(tile, options, run); });
      }
      save_image(args.output,
                 ImageView::packed(out.data(), image.width, image.height, image.format));
      return kExitOk;
    }
    const Histogram histogram = context->compute(image.view(), options, run);
    Lut lut;
    switch (args.verb) {
      case AdjustVerb::Equalize:
      case AdjustVerb::Clahe:
        lut = equalize_lut(histogram, image.format, use);
        break;
      case AdjustVerb::Autolevel:
        lut = stretch_lut(histogram, image.format, use, clip->first, clip->second);
        break;
      case AdjustVerb::Match: {
        const Image reference = load_input(args.reference, args.max_pixels);
        if (reference.format.sample != image.format.sample) {
          throw Error(ErrorKind::InvalidArgument,
                      args.reference + ": the reference must have the image's bit depth (" +
                          to_string(reference.format) + " against " + to_string(image.format) +
                          ")");
        }
        lut = match_lut(histogram, context->compute(reference.view(), options, run), image.format,
                        use);
        break;
      }
      case AdjustVerb::Threshold: {
        const auto counts = histogram.counts(Channel::Luminance);
        const std::int32_t t = fixed                   ? *fixed
                               : args.method == "otsu" ? otsu_threshold(counts)
                                                       : triangle_threshold(counts);
        lut = threshold_lut(image.format, t, options.luma);
        std::cout << args.input << ": threshold " << t << " (" << args.method << ")\n";
        break;
      }
    }
    const PixelFormat out_format = lut_output_format(image.format, lut);
    std::vector<std::uint32_t> out((image.view().pixel_count() * pixel_bytes(out_format) + 3) / 4);
    const auto bytes = std::as_writable_bytes(std::span(out));
    if (on_gpu) {
      context->apply_lut(image.view(), lut, bytes);
    } else {
      apply_lut_cpu(image.view(), lut, bytes);
    }
    save_image(args.output, ImageView::packed(out.data(), image.width, image.height, out_format));
  } catch (const Error& e) {
    std::cerr << "gpuhist: error: " << e.what() << '\n';
    return exit_status(e.kind());
  }
  return kExitOk;
}

}  // namespace gpuhist::cli
