// The report picture, composed by the image-file module (its text rendering
// is OpenImageIO's).
#include "gpuhist/report.hpp"

#include "io/image_library.hpp"

namespace gpuhist {

Picture compose_report(const Image& image, const std::string& name, const Picture& rgb_panel,
                       const Picture& luminance_panel, std::uint32_t bins) {
  return io::image_library(ErrorKind::Output)
      .compose_report(image, name, rgb_panel, luminance_panel, bins);
}

}  // namespace gpuhist
