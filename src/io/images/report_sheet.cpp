#include "io/images/images.hpp"

#include <OpenImageIO/imagebuf.h>
#include <OpenImageIO/imagebufalgo.h>

#include <algorithm>
#include <filesystem>

#include "gpuhist/error.hpp"
#include "gpuhist/report.hpp"
#include "io/orientation.hpp"

namespace gpuhist::images {
namespace {

constexpr int kWidth = 768;
constexpr int kMargin = 16;
constexpr int kMaxImageHeight = 480;
constexpr int kTitleSize = 20;
constexpr int kLabelSize = 14;

// DejaVu Sans from Debian's fonts-dejavu-core, else the image library's own search.
std::string font() {
  const std::filesystem::path dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  return std::filesystem::exists(dejavu) ? dejavu.string() : std::string();
}

OIIO::ImageBuf wrap(const Picture& picture) {
  OIIO::ImageBuf buf(OIIO::ImageSpec(static_cast<int>(picture.width),
                                     static_cast<int>(picture.height), 4, OIIO::TypeDesc::UINT8));
  buf.set_pixels(OIIO::ROI::All(), OIIO::TypeDesc::UINT8, picture.rgba.data());
  return buf;
}

void text(OIIO::ImageBuf& canvas, int x, int y, const std::string& words, int size,
          OIIO::ImageBufAlgo::TextAlignX align = OIIO::ImageBufAlgo::TextAlignX::Left) {
  const float white[] = {0.92f, 0.92f, 0.92f, 1.0f};
  if (!OIIO::ImageBufAlgo::render_text(canvas, x, y, words, size, font(), white, align)) {
    throw Error(ErrorKind::Output,
                "cannot draw report labels (no usable font): " + canvas.geterror());
  }
}

// `name` as the image library's text rendering draws it: ASCII alone (OpenImageIO
// 2.4 draws a character beyond it as another glyph), so each other character is
// a '?', and shortened in its middle ("IMG_2024...edit.jpg") until it fits
// `width` pixels at `size` followed by `rest`.
std::string fitted(const std::string& name, const std::string& rest, int size, int width) {
  std::string ascii;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      ascii += byte < 0x20 || byte == 0x7F ? '?' : c;
    } else if ((byte & 0xC0U) != 0x80U) {
      ascii += '?';  // a character's first byte; its continuation bytes are left out
    }
  }
  const auto fits = [&](const std::string& shown) {
    const OIIO::ROI box = OIIO::ImageBufAlgo::text_size(shown + rest, size, font());
    return !box.defined() || box.width() <= width;
  };
  if (fits(ascii)) return ascii;
  for (std::size_t keep = ascii.size(); keep-- > 2;) {
    const std::size_t head = (keep + 1) / 2, tail = keep - head;
    const std::string shown = ascii.substr(0, head) + "..." + ascii.substr(ascii.size() - tail);
    if (fits(shown)) return shown;
  }
  return "...";
}

}  // namespace

Picture compose_report(const Image& image, const std::string& name, const Picture& rgb_panel,
                       const Picture& luminance_panel, std::uint32_t bins) {
  // The image as display RGBA, scaled to fit the report.
  const int channels = static_cast<int>(channel_count(image.format.layout));
  const OIIO::TypeDesc type = image.format.sample == SampleType::U8    ? OIIO::TypeDesc::UINT8
                              : image.format.sample == SampleType::U16 ? OIIO::TypeDesc::UINT16
                                                                       : OIIO::TypeDesc::FLOAT;
  // Shown as the file says it is to be shown (a phone's portrait photograph
  // upright). OpenImageIO 2.4's reorient() swaps orientations 5 and 7.
  Image turned;
  if (image.orientation != 1)
    io::turn(image.view(), io::upright_of_exif(image.orientation), turned);
  const Image& upright = image.orientation != 1 ? turned : image;
  OIIO::ImageBuf source(OIIO::ImageSpec(static_cast<int>(upright.width),
                                        static_cast<int>(upright.height), channels, type));
  source.set_pixels(OIIO::ROI::All(), type, upright.storage.data(), OIIO::AutoStride,
                    static_cast<OIIO::stride_t>(upright.stride));
  const int upright_w = source.spec().width;
  const int upright_h = source.spec().height;
  const double fit = std::min(
      {1.0, double(kWidth - 2 * kMargin) / upright_w, double(kMaxImageHeight) / upright_h});
  const int shown_w = std::max(1, static_cast<int>(upright_w * fit));
  const int shown_h = std::max(1, static_cast<int>(upright_h * fit));
  OIIO::ImageBuf shown = OIIO::ImageBufAlgo::resize(
      source, "", 0.0f, OIIO::ROI(0, shown_w, 0, shown_h, 0, 1, 0, channels));
  if (channels == 1) {
    const int grey[] = {0, 0, 0};
    shown = OIIO::ImageBufAlgo::channels(shown, 3, grey);
  }

  const int image_top = kMargin + kTitleSize + 12;
  const int caption_top = image_top + shown_h + 16;
  const int panel_top = caption_top + kLabelSize + 8;
  const int height = panel_top + static_cast<int>(kReportPanelHeight) + kLabelSize + 2 * kMargin;
  OIIO::ImageBuf canvas(OIIO::ImageSpec(kWidth, height, 4, OIIO::TypeDesc::FLOAT));
  const float background[] = {0.13f, 0.13f, 0.13f, 1.0f};
  OIIO::ImageBufAlgo::fill(canvas, background);
  OIIO::ImageBufAlgo::paste(canvas, (kWidth - shown_w) / 2, image_top, 0, 0, shown,
                            OIIO::ROI(0, shown_w, 0, shown_h, 0, 1, 0, 3));

  // The size and pixel format as stored (alpha, which is never counted, named),
  // after the name, shortened in its middle to fit the sheet.
  const std::string facts =
      "  " + std::to_string(image.width) + "x" + std::to_string(image.height) + "  " +
      to_string(image.format, image.alpha) + (image.alpha ? " (alpha not counted)" : "");
  text(canvas, kMargin, kMargin + kTitleSize,
       fitted(name, facts, kTitleSize, kWidth - 2 * kMargin) + facts, kTitleSize);
  const int right_x = kWidth - kMargin - static_cast<int>(kReportPanelWidth);
  const std::pair<int, std::pair<const Picture*, std::string>> panels[] = {
      {kMargin, {&rgb_panel, channels == 1 ? "luminance (a grey image)" : "red, green, blue"}},
      {right_x, {&luminance_panel, "luminance"}}};
  for (const auto& [x, panel] : panels) {
    text(canvas, x, caption_top + kLabelSize, panel.second, kLabelSize);
    OIIO::ImageBufAlgo::paste(canvas, x, panel_top, 0, 0, wrap(*panel.first));
    const int below = panel_top + static_cast<int>(kReportPanelHeight) + kLabelSize + 4;
    text(canvas, x, below, "bin 0", kLabelSize);
    text(canvas, x + static_cast<int>(kReportPanelWidth), below, "bin " + std::to_string(bins - 1),
         kLabelSize, OIIO::ImageBufAlgo::TextAlignX::Right);
  }

  Picture out{
      static_cast<std::uint32_t>(kWidth), static_cast<std::uint32_t>(height),
      std::vector<std::uint8_t>(std::size_t{kWidth} * static_cast<std::size_t>(height) * 4)};
  canvas.get_pixels(OIIO::ROI::All(), OIIO::TypeDesc::UINT8, out.rgba.data());
  return out;
}

}  // namespace gpuhist::images
