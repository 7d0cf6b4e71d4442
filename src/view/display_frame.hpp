// A picture as the overlay shows it: 8- or 16-bit RGB. Grey pictures are
// repeated into the three channels; float samples are clamped to [0, 1] and
// rounded to 8 bits.
#pragma once

#include "gpuhist/image_file.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist {

[[nodiscard]] Image display_frame(const ImageView& image);

}  // namespace gpuhist
