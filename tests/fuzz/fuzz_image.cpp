// libFuzzer target: an image file of any of the formats read by default,
// through the loader the command line uses, to a histogram and its
// statistics; and, as `compute --space ycbcr` reads it, a JPEG's Y'CbCr planes
// to their histograms. Formats outside the default set are decoded in a separate
// process by design (their readers are known to crash), so they are not
// fuzzed in process here.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/image_planes.hpp"
#include "gpuhist/statistics.hpp"

// The image-file module (OpenImageIO) is loaded before the first input, so
// that the fuzzer knows its code from the start.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  (void)gpuhist::has_image_extension("seed.png");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Named .tga: every other format is found by its signature, Targa by the name.
  static const std::string path = "/dev/shm/gpuhist-fuzz-image-" + std::to_string(::getpid()) + ".tga";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  static const gpuhist::Context cpu = gpuhist::Context::open("cpu");
  try {
    gpuhist::LoadOptions options;
    options.max_pixels = 1U << 12;  // small limits keep runs fast: crafted headers reach them
    options.alpha = size % 2 == 0;  // both ways of reading a fourth channel
    const gpuhist::Image image = gpuhist::load_image(path, options);
    const gpuhist::Histogram h = cpu.compute(image.view(), {256},
                                             gpuhist::RunOptions{gpuhist::Strategy::CpuReference});
    for (gpuhist::Channel c : h.channels()) (void)gpuhist::statistics(h.counts(c));
  } catch (const gpuhist::Error&) {
    // A file that cannot be read is an answer, not a finding.
  }
  // The planes as decoded, counted after their reader is gone, from a file named
  // as a JPEG (FFmpeg picks its reader by the name and the bytes together).
  if (size >= 2 && data[0] == 0xFF && data[1] == 0xD8) {
    static const std::string named =
        "/dev/shm/gpuhist-fuzz-planes-" + std::to_string(::getpid()) + ".jpg";
    {
      std::ofstream out(named, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
      const gpuhist::VideoFrame frame = gpuhist::read_jpeg_planes(named, 1U << 12);
      for (const gpuhist::ImageView& plane : frame.planes) {
        (void)cpu.compute(plane, {256}, gpuhist::RunOptions{gpuhist::Strategy::CpuReference});
      }
    } catch (const gpuhist::Error&) {
    }
    ::unlink(named.c_str());
  }
  // An adjusted image keeps its source's metadata: the input's framing is read
  // for it, whether or not its pixels could be (JPEG, PNG and WebP outputs in
  // turn; a JPEG's or WebP's orientation and ICC profile by gpuhist's own reading).
  static const std::uint8_t pixels[4 * 2 * 3] = {};
  gpuhist::ImageView tiny;
  tiny.data = pixels;
  tiny.width = 4;
  tiny.height = 2;
  tiny.stride = 12;
  tiny.format = {gpuhist::ChannelLayout::RGB, gpuhist::SampleType::U8};
  static const std::string jpeg =
      "/dev/shm/gpuhist-fuzz-kept-" + std::to_string(::getpid()) + ".jpg";
  static const std::string png =
      "/dev/shm/gpuhist-fuzz-kept-" + std::to_string(::getpid()) + ".png";
  static const std::string webp =
      "/dev/shm/gpuhist-fuzz-kept-" + std::to_string(::getpid()) + ".webp";
  // The four files go when the fuzzer exits.
  static const struct Cleanup {
    ~Cleanup() {
      for (const std::string* file : {&path, &jpeg, &png, &webp}) ::unlink(file->c_str());
    }
  } cleanup;
  try {
    gpuhist::save_image(size % 3 == 0 ? png : size % 3 == 1 ? jpeg : webp, tiny, path);
  } catch (const gpuhist::Error&) {
  }
  return 0;
}
