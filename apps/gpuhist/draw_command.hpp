// `gpuhist draw IMG… -o OUT.png`: pictures of histograms, or report pictures.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuhist/context.hpp"
#include "gpuhist/image_file.hpp"

#include "inputs.hpp"

namespace gpuhist::cli {

struct DrawArgs {
  std::vector<std::string> inputs;
  std::string output;
  std::string channels = "rgb";
  std::string size = "256x100";
  std::string scale = "clip";
  std::string renderer;  // empty: gpu when a Vulkan device is available, else cpu
  std::string background = "#333333";
  std::uint32_t bins = 256;
  std::string luma = "709";
  std::string strategy;
  std::string device = "auto";
  ReadOptions read;                // --max-pixels, --isolate
  std::string formats = "common";  // --formats
  bool report = false;
};

CLI::App* add_draw_command(CLI::App& app, DrawArgs& args);

// Writes the report picture of one image and its histogram; draws with the GPU
// renderer when the context has a device. Throws gpuhist::Error.
void write_report(const Context& context, const Image& image, const std::string& name,
                  const Histogram& histogram, const DrawOptions& style,
                  const std::filesystem::path& out);

// "WxH" as two numbers; nullopt for anything else.
std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_size(const std::string& text);
// An overlay's "WxH", 2x2 to kMaxDrawSize on each side; nullopt for anything else.
std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_overlay_size(const std::string& text);

int run_draw(const DrawArgs& args);

}  // namespace gpuhist::cli
