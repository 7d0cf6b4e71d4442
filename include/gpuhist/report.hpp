// The report picture: an image with its RGB and luminance histograms, labelled
// with a real font through the image library's text rendering. Part of gpuhist::io.
#pragma once

#include <cstdint>
#include <string>

#include "gpuhist/image_file.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist {

// Size of each histogram panel in a report; draw them at this size.
inline constexpr std::uint32_t kReportPanelWidth = 360;
inline constexpr std::uint32_t kReportPanelHeight = 150;

// Composes a 768-pixel-wide report: a title (the name, size and pixel format),
// the image scaled to fit, and the two panels side by side, each captioned with
// its channels and bin range. Throws Error(Output) when no font can be loaded.
[[nodiscard]] Picture compose_report(const Image& image, const std::string& name,
                                     const Picture& rgb_panel, const Picture& luminance_panel,
                                     std::uint32_t bins);

}  // namespace gpuhist
