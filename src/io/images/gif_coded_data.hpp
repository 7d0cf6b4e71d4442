// Whether a GIF's first picture's coded data decodes. giflib decodes an LZW
// code past its table as if it were in it, and OpenImageIO's reader takes
// what it gives: two bytes changed in a file made most of its pixels up,
// counted with no word, where FFmpeg ("LZW decode failed") and Pillow
// ("broken data stream") refuse it. The codes are walked here first, without
// making pixels, their width growing as giflib's does: each must be in the
// table built so far, and they must give every pixel of the picture.
#pragma once

#include <string>

#include "io/images/byte_source.hpp"

namespace gpuhist::images {

// Why the first picture of the GIF `file` cannot be decoded as stored, as
// "corrupt image: ..." or "corrupt or truncated image: ..."; empty where its
// codes decode, and where the file's blocks do not lead to them within its
// first MiB (the image library says what is wrong with those). The file is
// read a part at a time, not whole.
[[nodiscard]] std::string gif_coded_data_fault(ByteSource& file);

}  // namespace gpuhist::images
