// What counting a file's pixels leaves out of it or changes, as the image
// library reads them: channels that are neither counted nor alpha, and
// integer samples the library turns into scaled floats. One line each, for the
// callers to say as warnings (Image::notes).
#pragma once

#include <OpenImageIO/imageio.h>

#include <string>
#include <vector>

#include "gpuhist/image_view.hpp"

namespace gpuhist::images {

// `layout` is what the pixels are read as (the file's first 1, 3 or 4
// channels); `skip_fourth` when the fourth channel is known to be no alpha
// and dropped on purpose (an opaque GIF).
[[nodiscard]] std::vector<std::string> sample_notes(const OIIO::ImageSpec& spec,
                                                    ChannelLayout layout, bool skip_fourth);

}  // namespace gpuhist::images
