#include "bench_command.hpp"

#include <cstring>
#include <filesystem>

#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"

namespace gpuhist::cli {
namespace {

// Any image file the image library reads, as 8-bit RGBA (PPM/PAM directly).
bench::Photo load_photo(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".ppm" || ext == ".pam") return bench::read_netpbm(path);
  const Image image = load_image(path);
  if (image.format.sample != SampleType::U8) {
    throw Error(ErrorKind::Input, path + ": the benchmark photo must have 8-bit samples");
  }
  bench::Photo photo;
  photo.width = image.width;
  photo.height = image.height;
  photo.rgba.resize(std::size_t{image.width} * image.height * 4);
  const std::uint32_t channels = channel_count(image.format.layout);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const auto* src = reinterpret_cast<const std::uint8_t*>(image.view().row(y));
    for (std::size_t x = 0; x < image.width; ++x) {
      const std::size_t i = std::size_t{y} * image.width + x;
      for (std::uint32_t c = 0; c < 3; ++c)
        photo.rgba[i * 4 + c] = src[x * channels + (channels == 1 ? 0 : c)];
      photo.rgba[i * 4 + 3] = 255;
    }
  }
  return photo;
}

}  // namespace

CLI::App* add_bench_command(CLI::App& app, bench::BenchArgs& args, VideoBenchArgs& video) {
  CLI::App* cmd =
      app.add_subcommand("bench", "Time every strategy (GPU timestamps and wall clock)");
  bench::add_bench_options(*cmd, args);
  CLI::Option* run_video =
      cmd->add_flag("--video", video.enabled,
                    "Frames per second of video histograms and overlays (1080p, 2160p by "
                    "default; takes --sizes, --device and -o only)");
  cmd->add_option("--video-frames", video.frames, "Frames per --video clip")
      ->capture_default_str()
      ->check(CLI::Range(1U, 100000U))
      ->needs(run_video);
  // What --video does not use is a usage error, not silently ignored.
  for (CLI::Option* option : cmd->get_options()) {
    const std::string& name = option->get_name();
    if (option == run_video || name == "--help" || name == "--sizes" || name == "--device" ||
        name == "--output" || name == "--video-frames") {
      continue;
    }
    run_video->excludes(option);
  }
  return cmd;
}

int run_bench_command(const bench::BenchArgs& args, const VideoBenchArgs& video) {
  if (video.enabled) return run_video_bench(video, args.sizes, args.device, args.output);
  bench::BenchArgs with_photo = args;
  // The bundled sample photograph, when gpuhist runs from its build tree.
  if (with_photo.photo.empty() && std::filesystem::exists(GPUHIST_SAMPLE_PHOTO)) {
    with_photo.photo = GPUHIST_SAMPLE_PHOTO;
  }
  return bench::run_bench(with_photo, load_photo);
}

}  // namespace gpuhist::cli
