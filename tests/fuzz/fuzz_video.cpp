// libFuzzer target: a video file of any container and codec FFmpeg reads,
// demuxed, decoded and converted to RGB as `gpuhist video` does (with its
// declared matrix and range, turned upright as the writers and the viewer
// read it), each frame counted.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/video_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/dev/shm/gpuhist-fuzz-video-" + std::to_string(::getpid());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  static const gpuhist::Context cpu = gpuhist::Context::open("cpu");
  try {
    gpuhist::VideoReader reader(path, 1U << 14);
    reader.set_upright(true);
    gpuhist::VideoFrame frame;
    // A few frames: enough for every stage, few enough to keep runs short.
    for (int i = 0; i < 8 && reader.next(frame, [](const std::string&) {}); ++i) {
      (void)cpu.compute(frame.image.view(), {256},
                        gpuhist::RunOptions{gpuhist::Strategy::CpuReference});
    }
    (void)reader.errors();
    (void)reader.first_error();
  } catch (const gpuhist::Error&) {
  }
  return 0;
}
