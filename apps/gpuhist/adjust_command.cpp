#include "adjust_command.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

#include "batch.hpp"
#include "common_options.hpp"
#include "draw_command.hpp"
#include "exit_codes.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "inputs.hpp"
#include "messages.hpp"
#include "output_names.hpp"

namespace gpuhist::cli {
namespace {

// A file written lossily, by its extension: JPEG, and WebP as the image
// library writes it (lossy unless asked otherwise).
bool lossy_output(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".jpg" || ext == ".jpeg" || ext == ".jpe" || ext == ".jfif" || ext == ".jif" ||
         ext == ".jfi" || ext == ".webp" || ext == ".heic" || ext == ".heif" || ext == ".heics" ||
         ext == ".avif";
}

// "0.5" or "0.2,1" -> {low, high} percentages within 0..50.
std::optional<std::pair<double, double>> parse_clip(const std::string& text) {
  const auto values = parse_numbers(text, 0.0, 50.0);
  if (!values || values->size() > 2) return std::nullopt;
  return std::pair{values->front(), values->back()};
}

// "8x8" -> {8, 8}, each 1..256.
std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_tiles(const std::string& text) {
  const auto tiles = parse_size(text);
  if (!tiles || tiles->first < 1 || tiles->first > 256 || tiles->second < 1 ||
      tiles->second > 256) {
    return std::nullopt;
  }
  return tiles;
}

// A whole number from -1 to 65535.
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

void add_adjust_options(CLI::App* cmd, std::optional<AdjustKind> kind, AdjustParams& params) {
  const auto takes = [&](AdjustKind k) { return !kind || *kind == k; };
  if (!kind || *kind != AdjustKind::Threshold) {
    cmd->add_option("--channels", params.channels,
                    "each: red, green and blue by their own histograms; luminance: the "
                    "luminance histogram's table on all three")
        ->capture_default_str();
  }
  if (takes(AdjustKind::Clahe)) {
    cmd->add_option("--tiles", params.tiles, "clahe: tiles across x down, each 1..256")
        ->capture_default_str();
    cmd->add_option("--clip-limit", params.clip_limit,
                    "clahe: clip each tile's bins at this multiple of their mean count (0: none)")
        ->capture_default_str()
        ->check(real_number());
  }
  if (takes(AdjustKind::Autolevel)) {
    cmd->add_option("--clip", params.clip,
                    "autolevel: percent of the pixels clipped to black and to white: LOW[,HIGH], "
                    "0..50")
        ->capture_default_str();
  }
  if (takes(AdjustKind::Threshold)) {
    cmd->add_option("--method", params.method,
                    "threshold: otsu, triangle, or a threshold value (-1..M)")
        ->capture_default_str();
  }
}

std::string threshold_above_samples(const Adjustment& a, SampleType sample) {
  const std::int32_t largest = sample == SampleType::U8 ? 255 : 65535;
  if (a.method != ThresholdMethod::Fixed || a.threshold <= largest) return {};
  return "--method " + std::to_string(a.threshold) + " is above " + std::to_string(largest) +
         ", the largest " + (largest == 255 ? "8" : "16") + "-bit sample value";
}

std::optional<Adjustment> parse_adjustment(AdjustKind kind, const AdjustParams& params,
                                           LumaWeights luma) {
  Adjustment a;
  a.kind = kind;
  a.luma = luma;
  if (params.channels != "each" && params.channels != "luminance") {
    usage_error("unknown --channels '" + params.channels + "' (each, luminance)");
    return std::nullopt;
  }
  a.channels = params.channels == "each" ? ToneChannels::Each : ToneChannels::Luminance;
  const auto clip = parse_clip(params.clip);
  if (!clip) {
    usage_error("bad --clip '" + params.clip + "' (LOW[,HIGH], each 0..50)");
    return std::nullopt;
  }
  a.low = clip->first;
  a.high = clip->second;
  const auto tiles = parse_tiles(params.tiles);
  if (!tiles) {
    usage_error("bad --tiles '" + params.tiles + "' (WxH, each 1..256)");
    return std::nullopt;
  }
  a.tiles_x = tiles->first;
  a.tiles_y = tiles->second;
  if (!std::isfinite(params.clip_limit) || params.clip_limit < 0.0) {
    usage_error("--clip-limit must be a number from 0 up");
    return std::nullopt;
  }
  a.clip_limit = params.clip_limit;
  if (params.method == "otsu" || params.method == "triangle") {
    a.method = params.method == "otsu" ? ThresholdMethod::Otsu : ThresholdMethod::Triangle;
  } else if (const auto fixed = fixed_threshold(params.method)) {
    a.method = ThresholdMethod::Fixed;
    a.threshold = *fixed;
  } else {
    usage_error("bad --method '" + params.method + "' (otsu, triangle, or -1..65535)");
    return std::nullopt;
  }
  return a;
}

std::optional<bool> parse_apply(const std::string& apply, const Context& context,
                                const std::string& device, int& status) {
  if (!apply.empty() && apply != "cpu" && apply != "gpu") {
    status = usage_error("unknown --apply '" + apply + "' (cpu, gpu)");
    return std::nullopt;
  }
  if (apply == "gpu" && context.device() == nullptr) {
    // Asked for the GPU and there is none (3), unless the command line itself said --device cpu.
    if (device == "cpu") {
      status = usage_error("--apply gpu needs a Vulkan device, but --device cpu was given");
    } else {
      print_error("--apply gpu needs a Vulkan device, and none was found");
      status = kExitDevice;
    }
    return std::nullopt;
  }
  return apply == "gpu" ||
         (apply.empty() && context.hardware());
}

CLI::App* add_adjust_command(CLI::App& app, AdjustKind kind, AdjustArgs& args) {
  args.kind = kind;
  CLI::App* cmd = app.add_subcommand(std::string(info(kind).name), std::string(info(kind).summary));
  cmd->add_option("inputs", args.inputs,
                  "Image files (8- or 16-bit samples) and folders (searched recursively)")
      ->required();
  cmd->add_option("-o,--output", args.output,
                  "The adjusted image; its extension picks the format (OUT-<name>.EXT for each of "
                  "several)")
      ->required()
      ->check(file_name());
  cmd->add_option(
      "--quality", args.quality,
      "Quality of a JPEG, WebP, HEIF or AVIF output, 1..100 (default 100: the least loss)");
  add_adjust_options(cmd, kind, args.params);
  if (kind == AdjustKind::Match) {
    cmd->add_option("--reference", args.reference, "The image whose histogram to match")
        ->required();
  }
  cmd->add_option("--luma", args.luma, "Luminance weights: 709 (sRGB) or 601")
      ->capture_default_str();
  cmd->add_option("--strategy", args.strategy, "Counting strategy (see compute)");
  cmd->add_option("--device", args.device, "auto, cpu, a device index or a name substring")
      ->capture_default_str()
      ->transform(device_name());
  cmd->add_option("--apply", args.apply,
                  "Who applies the tables: cpu or gpu (default: gpu on a hardware GPU, else cpu)");
  add_read_options(cmd, args.read, args.formats);
  return cmd;
}

int run_adjust(const AdjustArgs& args) {
  const auto counting = parse_counting(kDefaultBins, args.luma, args.strategy);
  if (!counting) return kExitUsage;
  std::optional<Adjustment> adjustment =
      parse_adjustment(args.kind, args.params, counting->options.luma);
  if (!adjustment) return kExitUsage;
  ReadOptions read = args.read;
  if (!parse_read_options(args.formats, read)) return kExitUsage;
  RunOptions run = counting->run;
  int status = kExitOk;
  std::optional<Context> context = open_for(args.device, run, status);
  if (!context) return status;
  const std::optional<bool> on_gpu = parse_apply(args.apply, *context, args.device, status);
  if (!on_gpu) return status;
  // The reference, counted once per bit depth of the images it is matched with.
  std::optional<Image> reference_image;
  std::map<SampleType, Histogram> references;
  if (args.kind == AdjustKind::Match) {
    reference_image = load_option_image("--reference", args.reference, read, status);
    if (!reference_image) return status;
  }
  const InputList inputs = expand_inputs(args.inputs, read.formats);
  const bool several = inputs.files.size() > 1 || inputs.from_folder;
  if (const std::string bad = unwritable_image_name(args.output, several); !bad.empty())
    return usage_error(bad);
  SaveOptions save;
  if (args.quality) {
    const std::optional<std::uint64_t> quality = parse_whole(*args.quality);
    if (!quality || *quality < 1 || *quality > 100) {
      return usage_error("--quality '" + *args.quality + "' is not a whole number from 1 to 100");
    }
    if (!lossy_output(args.output)) {
      return usage_error(
          "--quality sets a JPEG's, WebP's, HEIF's or AVIF's quality: -o names another format");
    }
    save.quality = static_cast<int>(*quality);
  }
  BatchStatus batch;
  batch.add(report_problems(inputs));
  // Each output is written whole under a temporary name, so one may replace its own input.
  const std::vector<std::filesystem::path> outputs =
      output_names(args.output, inputs.files, several);
  if (const std::string clash = overwritten_input(outputs, inputs.files, true); !clash.empty()) {
    return usage_error(clash);
  }
  // The reference is an input too, which no output replaces.
  if (!args.reference.empty()) {
    if (const std::string clash = overwritten_input(outputs, {args.reference}, false);
        !clash.empty()) {
      return usage_error(clash + ", the --reference image");
    }
  }
  if (const std::string missing = missing_output_folder(outputs); !missing.empty()) {
    print_error(missing);
    return kExitOutput;
  }
  ReadOptions with_alpha = read;
  with_alpha.alpha = true;
  // Decoding runs ahead: an output replaces at most its own input (checked
  // above), which is decoded before it is written.
  InputDecoder decoder(inputs.files, with_alpha);
  for (std::size_t i = 0; i < inputs.files.size(); ++i) {
    const auto& path = inputs.files[i];
    const bool go_on = batch.run(path, [&] {
      const Image image = decoder.next();
      warn_about_file(path, image);
      if (image.more_pages) {
        std::cerr << "gpuhist: warning: " << one_line(outputs[i].string())
                  << ": holds the first page (or frame) alone, adjusted\n";
      }
      if (image.format.sample == SampleType::F32) {
        throw Error(ErrorKind::Input, path.string() +
                                          ": adjustments need 8- or 16-bit samples, and this "
                                          "image has " +
                                          to_string(image.format) + " pixels");
      }
      if (const std::string above = threshold_above_samples(*adjustment, image.format.sample);
          adjustment->kind == AdjustKind::Threshold && !above.empty()) {
        print_error(path.string() + ": " + above);
        batch.add(kExitUsage);
        return;
      }
      if (reference_image) {
        if (reference_image->format.sample != image.format.sample) {
          // Images of the reference's depth in the same batch are still matched.
          print_error(path.string() + ": " + to_string(image.format) + " pixels, and the " +
                      "reference " + args.reference + " has " + to_string(reference_image->format) +
                      ": match needs a reference of the image's bit depth");
          batch.add(kExitUsage);
          return;
        }
        auto [it, added] = references.try_emplace(image.format.sample);
        if (added) {
          // The reference's luminance by the image's weights.
          it->second = context->compute(
              reference_image->view(), tone_options(reference_image->format, adjustment->luma),
              run);
        }
        adjustment->reference = &it->second;
      }
      const PixelFormat format = adjusted_format(image.format, *adjustment);
      Image out = Image::allocate(image.width, image.height, format);
      const std::optional<std::int32_t> threshold =
          adjust_image(*context, image.view(), *adjustment, out.bytes(), run, *on_gpu);
      // The photograph's orientation, colour profile and camera data go with it.
      std::string left_out = save_image(outputs[i], out.view(), path, save);
      // A grey image is adjusted without its alpha (read with alpha, only grey's is left).
      if (image.alpha) {
        left_out = "the source's alpha is not written (a grey image's alpha is not kept)" +
                   (left_out.empty() ? "" : "; " + left_out);
      }
      // The level is said once its picture is written: a row on stdout is a file done.
      if (threshold) {
        std::cout << one_line(path.string()) << ": threshold " << *threshold << " ("
                  << args.params.method << ")\n";
        // Seen by the next reader now; a failure's cause is kept for the last line.
        static_cast<void>(flush_stdout());
      }
      print_renamed_output(args.output, path, outputs[i]);
      if (!left_out.empty()) {
        std::cerr << "gpuhist: warning: " << one_line(outputs[i].string()) << ": "
                  << one_line(left_out) << "\n";
      }
      // Two levels written lossily are two levels no longer.
      if (adjustment->kind == AdjustKind::Threshold && lossy_output(outputs[i])) {
        std::cerr << "gpuhist: warning: " << one_line(outputs[i].string())
                  << ": the format is lossy: the thresholded image's two levels are not kept "
                     "exact (.png or .tif keeps them)\n";
      }
    });
    if (!go_on) break;
  }
  return batch.status();
}

}  // namespace gpuhist::cli
