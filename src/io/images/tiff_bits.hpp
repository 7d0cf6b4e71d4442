// A TIFF of one sample a pixel whose first directory has no BitsPerSample
// field: 1 bit a sample, as the TIFF standard says and libtiff reads it
// (Pillow writes black-and-white images so), which OpenImageIO 2.4 reads as
// 8-bit samples, each byte of packed bits a pixel. Given to the library with
// the field added, in a copy of the file's bytes.
#pragma once

#include <filesystem>
#include <vector>

namespace gpuhist::images {

// Whether the classic TIFF at `path` has a first directory of one sample a
// pixel (SamplesPerPixel 1 or absent) and no BitsPerSample field; found from
// its framing alone (false for a file whose framing cannot be followed).
[[nodiscard]] bool tiff_lacks_bits_per_sample(const std::filesystem::path& path);

// `bytes`, that whole file, with a copy of its first directory appended,
// BitsPerSample = 1 among its fields, and the header pointing at the copy.
// Every other byte is kept (the fields' values stay where they are).
void add_one_bit_per_sample(std::vector<unsigned char>& bytes);

}  // namespace gpuhist::images
